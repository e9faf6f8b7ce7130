//! Times on the command line and in the views for people: `--since` / `--until` bounds (dates,
//! local times, RFC 3339, relative times) and `--display-tz`, the zone text, Markdown and HTML
//! print times in. JSON, JSON Lines and SARIF stay in UTC (the contract).

use jiff::Timestamp;
use jiff::tz::TimeZone;
use oztrace_parser::time::{LocalTime, Zone, format_rfc3339, parse_rfc3339};

const DAY_MS: i64 = 86_400_000;

/// The zone times are shown in, and the name the output says it by.
#[derive(Debug, Clone)]
pub struct DisplayZone {
    zone: Option<TimeZone>,
    name: String,
}

impl Default for DisplayZone {
    fn default() -> Self {
        DisplayZone {
            zone: None,
            name: "UTC".into(),
        }
    }
}

impl DisplayZone {
    /// `UTC`, `local` (this machine's zone), an IANA name or a fixed offset (`+02:00`).
    pub fn parse(spec: &str) -> Result<DisplayZone, String> {
        if spec.eq_ignore_ascii_case("local") {
            let zone = TimeZone::system();
            let name = zone.iana_name().unwrap_or("local").to_string();
            return Ok(DisplayZone {
                zone: Some(zone),
                name,
            });
        }
        Ok(
            match Zone::parse(spec).map_err(|e| format!("--display-tz: {e}"))? {
                Zone::Utc => DisplayZone::default(),
                Zone::Named(zone) => DisplayZone {
                    zone: Some(zone),
                    name: spec.to_string(),
                },
            },
        )
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn is_utc(&self) -> bool {
        self.zone.is_none()
    }

    /// RFC 3339 in this zone: `2026-09-14T07:17:51.089Z` in UTC, `…09:17:51.089+02:00` else.
    pub fn format(&self, ms: i64) -> String {
        match self.zoned(ms) {
            None => format_rfc3339(ms),
            Some(z) => z.strftime("%Y-%m-%dT%H:%M:%S%.3f%:z").to_string(),
        }
    }

    /// RFC 3339 or `-` for a line without a time.
    pub fn format_or_dash(&self, ms: Option<i64>) -> String {
        ms.map_or_else(|| "-".to_string(), |ms| self.format(ms))
    }

    /// The calendar date in this zone, `2026-09-14`.
    pub fn date(&self, ms: i64) -> String {
        self.format(ms)[..10].to_string()
    }

    /// The time of day in this zone with `digits` of seconds' fraction (0 to 3):
    /// `07:17:51.089`, `07:17`, `07:17:51`.
    pub fn time_of_day(&self, ms: i64, seconds: bool, digits: usize) -> String {
        let full = self.format(ms);
        let end = match (seconds, digits) {
            (false, _) => 16,
            (true, 0) => 19,
            (true, d) => 20 + d.min(3),
        };
        full[11..end].to_string()
    }

    /// Milliseconds since the epoch of the local midnight that starts the day of `ms`.
    pub fn start_of_day(&self, ms: i64) -> i64 {
        match self.zoned(ms) {
            None => ms.div_euclid(DAY_MS) * DAY_MS,
            Some(z) => z
                .start_of_day()
                .map_or(ms, |start| start.timestamp().as_millisecond()),
        }
    }

    /// The zone's offset from UTC at `ms`, in milliseconds.
    pub fn offset_ms(&self, ms: i64) -> i64 {
        self.zoned(ms)
            .map_or(0, |z| i64::from(z.offset().seconds()) * 1000)
    }

    fn zoned(&self, ms: i64) -> Option<jiff::ZonedDateTime> {
        let zone = self.zone.as_ref()?;
        Timestamp::from_millisecond(ms)
            .ok()
            .map(|ts| ts.to_zoned_datetime(zone.clone()))
    }
}

/// Which end of a window a bound closes: a bare date means the start of that day for `--since`
/// and its end for `--until`, so `--since 2026-09-14 --until 2026-09-14` is that whole day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Since,
    Until,
}

/// A `--since` / `--until` value in UTC epoch milliseconds:
/// - RFC 3339 with an offset: `2026-09-14T07:00:00Z`, `2026-09-14T09:00:00+02:00`;
/// - a local time in `zone` (the `--tz` zone, as the logs were written): `2026-09-14 07:00`,
///   `2026-09-14 07:00:00`, `…,SSS` or `….SSS`, `T` instead of the space;
/// - a date in `zone`: `2026-09-14`;
/// - a time relative to `now_ms`: `1h ago`, `-2d`, `90m ago`, `2 days ago`, `now`.
pub fn parse_time_bound(s: &str, zone: &Zone, bound: Bound, now_ms: i64) -> Result<i64, String> {
    let s = s.trim();
    if let Some(ms) = parse_rfc3339(s) {
        return Ok(ms);
    }
    if let Some(ms) = relative(s, now_ms) {
        return ms;
    }
    let bad = || {
        format!(
            "`{s}` is not a time (try 2026-09-14, '2026-09-14 07:00:00', 2026-09-14T07:00:00Z, \
             '1h ago', -2d)"
        )
    };
    let b = s.as_bytes();
    let number = |from: usize, to: usize| -> Option<i64> {
        let part = b.get(from..to)?;
        if part.iter().all(u8::is_ascii_digit) {
            std::str::from_utf8(part).ok()?.parse().ok()
        } else {
            None
        }
    };
    let date_ok = b.len() >= 10 && b[4] == b'-' && b[7] == b'-';
    if !date_ok {
        return Err(bad());
    }
    let field = |from, to| number(from, to).ok_or_else(bad);
    let (year, month, day) = (field(0, 4)?, field(5, 7)?, field(8, 10)?);
    let (hour, minute, second, milli) = match b.len() {
        10 => (0, 0, 0, 0),
        16 | 19 | 23 if b[10] == b' ' || b[10] == b'T' => {
            if b[13] != b':' || (b.len() > 16 && b[16] != b':') {
                return Err(bad());
            }
            let second = if b.len() > 16 { field(17, 19)? } else { 0 };
            let milli = if b.len() == 23 {
                if b[19] != b',' && b[19] != b'.' {
                    return Err(bad());
                }
                field(20, 23)?
            } else {
                0
            };
            (field(11, 13)?, field(14, 16)?, second, milli)
        }
        _ => return Err(bad()),
    };
    let local = LocalTime {
        year: year as i16,
        month: month as i8,
        day: day as i8,
        hour: hour as i8,
        minute: minute as i8,
        second: second as i8,
        milli: milli as i16,
    };
    let ms = zone.to_epoch_millis(&local).ok_or_else(bad)?;
    if b.len() == 10 && bound == Bound::Until {
        // Through the end of that day: the next local midnight, less a millisecond.
        let next = LocalTime { hour: 0, ..local };
        let tomorrow = zone
            .to_epoch_millis(&next)
            .map(|midnight| midnight + DAY_MS)
            .ok_or_else(bad)?;
        return Ok(tomorrow - 1);
    }
    Ok(ms)
}

/// `now`, `-2d`, `1h ago`, `90 minutes ago`, `2 days ago`; `None` when `s` is not relative.
fn relative(s: &str, now_ms: i64) -> Option<Result<i64, String>> {
    if s.eq_ignore_ascii_case("now") {
        return Some(Ok(now_ms));
    }
    let amount = if let Some(rest) = s.strip_prefix('-') {
        rest.trim()
    } else {
        s.strip_suffix("ago")?.trim()
    };
    let split = amount
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(amount.len());
    let (number, unit) = amount.split_at(split);
    let unit = match unit.trim() {
        "ms" => "ms",
        "s" | "sec" | "secs" | "second" | "seconds" => "s",
        "m" | "min" | "mins" | "minute" | "minutes" => "m",
        "h" | "hr" | "hrs" | "hour" | "hours" => "h",
        "d" | "day" | "days" => "d",
        "w" | "week" | "weeks" => "w",
        other => {
            return Some(Err(format!(
                "`{s}`: unknown unit `{other}` (s, m, h, d, w: `1h ago`, `-2d`)"
            )));
        }
    };
    let value: f64 = match number.parse() {
        Ok(v) => v,
        Err(_) => {
            return Some(Err(format!(
                "`{s}` is not a relative time (try `1h ago`, `-2d`)"
            )));
        }
    };
    let factor = match unit {
        "ms" => 1.0,
        "s" => 1000.0,
        "m" => 60_000.0,
        "h" => 3_600_000.0,
        "d" => DAY_MS as f64,
        _ => 7.0 * DAY_MS as f64,
    };
    Some(Ok(now_ms - (value * factor).round() as i64))
}

/// This machine's clock, in UTC epoch milliseconds (for relative bounds).
pub fn now_ms() -> i64 {
    Timestamp::now().as_millisecond()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_789_372_800_000; // 2026-09-14T08:00:00Z

    fn at(s: &str) -> i64 {
        parse_rfc3339(s).unwrap()
    }

    #[test]
    fn bounds_take_rfc3339_local_times_dates_and_relative_times() {
        let utc = Zone::Utc;
        let parse = |s: &str, bound| parse_time_bound(s, &utc, bound, NOW);
        let expected = at("2026-08-20T11:02:47Z");
        assert_eq!(parse("2026-08-20T11:02:47Z", Bound::Since), Ok(expected));
        assert_eq!(parse("2026-08-20 11:02:47", Bound::Since), Ok(expected));
        assert_eq!(parse("2026-08-20T11:02:47", Bound::Since), Ok(expected));
        assert_eq!(
            parse("2026-08-20 11:02:47,390", Bound::Since),
            Ok(expected + 390)
        );
        assert_eq!(
            parse("2026-08-20 11:02", Bound::Since),
            Ok(expected - 47_000)
        );
        assert_eq!(
            parse("2026-08-20T13:02:47+02:00", Bound::Since),
            Ok(expected)
        );
        // A date: from its first millisecond, or through its last.
        assert_eq!(
            parse("2026-09-14", Bound::Since),
            Ok(at("2026-09-14T00:00:00Z"))
        );
        assert_eq!(
            parse("2026-09-14", Bound::Until),
            Ok(at("2026-09-15T00:00:00Z") - 1)
        );
        // Relative to now.
        assert_eq!(parse("1h ago", Bound::Since), Ok(NOW - 3_600_000));
        assert_eq!(parse("-2d", Bound::Since), Ok(NOW - 2 * DAY_MS));
        assert_eq!(parse("2 days ago", Bound::Since), Ok(NOW - 2 * DAY_MS));
        assert_eq!(parse("90m ago", Bound::Since), Ok(NOW - 90 * 60_000));
        assert_eq!(parse("now", Bound::Until), Ok(NOW));
        for bad in [
            "2026-02-30 00:00:00",
            "2026-08-20 11:02:4x",
            "2026-08-20 11:02:47,3",
            "yesterday",
            "3 fortnights ago",
            "-x",
            "2026-8-1",
        ] {
            assert!(parse(bad, Bound::Since).is_err(), "{bad}");
        }
    }

    #[test]
    fn local_times_and_dates_are_read_in_the_tz_zone() {
        let berlin = Zone::parse("Europe/Berlin").unwrap();
        assert_eq!(
            parse_time_bound("2026-08-20 13:02:47", &berlin, Bound::Since, NOW),
            Ok(at("2026-08-20T11:02:47Z"))
        );
        assert_eq!(
            parse_time_bound("2026-08-20", &berlin, Bound::Until, NOW),
            Ok(at("2026-08-20T22:00:00Z") - 1)
        );
        let plus_two = Zone::parse("+02:00").unwrap();
        assert_eq!(
            parse_time_bound("2026-08-20 13:02:47", &plus_two, Bound::Since, NOW),
            Ok(at("2026-08-20T11:02:47Z"))
        );
    }

    #[test]
    fn display_zones_format_with_their_offset_and_say_their_name() {
        let ms = at("2026-09-14T23:30:00.250Z");
        let utc = DisplayZone::default();
        assert!(utc.is_utc());
        assert_eq!(utc.format(ms), "2026-09-14T23:30:00.250Z");
        assert_eq!(utc.name(), "UTC");
        let berlin = DisplayZone::parse("Europe/Berlin").unwrap();
        assert_eq!(berlin.format(ms), "2026-09-15T01:30:00.250+02:00");
        assert_eq!(berlin.name(), "Europe/Berlin");
        assert_eq!(berlin.date(ms), "2026-09-15");
        assert_eq!(berlin.time_of_day(ms, true, 3), "01:30:00.250");
        assert_eq!(berlin.time_of_day(ms, false, 0), "01:30");
        assert_eq!(berlin.start_of_day(ms), at("2026-09-14T22:00:00Z"));
        assert_eq!(berlin.offset_ms(ms), 7_200_000);
        let offset = DisplayZone::parse("-05:30").unwrap();
        assert_eq!(offset.format(ms), "2026-09-14T18:00:00.250-05:30");
        assert!(DisplayZone::parse("Mars/Olympus").is_err());
        assert!(DisplayZone::parse("UTC").unwrap().is_utc());
    }
}
