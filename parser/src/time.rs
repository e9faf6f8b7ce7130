//! Local log timestamps → UTC epoch milliseconds, and back to RFC 3339.
//!
//! Ozone writes `yyyy-MM-dd HH:mm:ss,SSS` in the host's local time with no zone. `--tz` says which
//! zone that was, for all hosts or per host; a local time in a daylight-saving fold takes the
//! earlier offset (the contract).

use jiff::tz::TimeZone;
use std::collections::HashMap;

/// A wall-clock time as a log line prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalTime {
    pub year: i16,
    pub month: i8,
    pub day: i8,
    pub hour: i8,
    pub minute: i8,
    pub second: i8,
    pub milli: i16,
}

/// The zone a host's local times were written in.
#[derive(Debug, Clone)]
pub enum Zone {
    Utc,
    Named(TimeZone),
}

impl Zone {
    /// An IANA name (`Europe/Berlin`), `UTC`, or a fixed offset (`+02:00`, `-0530`, `+2`,
    /// `UTC+02:00`).
    pub fn parse(name: &str) -> Result<Zone, String> {
        match name {
            "UTC" | "utc" | "Z" | "GMT" => Ok(Zone::Utc),
            _ => {
                let offset = name
                    .strip_prefix("UTC")
                    .or_else(|| name.strip_prefix("GMT"))
                    .unwrap_or(name);
                if offset.starts_with(['+', '-']) {
                    return parse_offset(offset)
                        .map(|seconds| match seconds {
                            0 => Zone::Utc,
                            s => Zone::Named(TimeZone::fixed(
                                jiff::tz::Offset::from_seconds(s).unwrap_or(jiff::tz::Offset::UTC),
                            )),
                        })
                        .ok_or_else(|| {
                            format!("`{name}` is not an offset (try +02:00, -05:30, +0530)")
                        });
                }
                TimeZone::get(name)
                    .map(Zone::Named)
                    .map_err(|e| format!("unknown time zone `{name}`: {e}"))
            }
        }
    }

    /// UTC epoch milliseconds of a local time in this zone; `None` for an impossible date (or
    /// one outside jiff's ±9999 years).
    // Per record: inlined into the reader's loop (and the benches).
    #[inline]
    pub fn to_epoch_millis(&self, t: &LocalTime) -> Option<i64> {
        let dt = jiff::civil::DateTime::new(
            t.year,
            t.month,
            t.day,
            t.hour,
            t.minute,
            t.second,
            i32::from(t.milli) * 1_000_000,
        )
        .ok()?;
        let timestamp = match self {
            Zone::Utc => jiff::tz::Offset::UTC.to_timestamp(dt),
            Zone::Named(tz) => tz.to_ambiguous_timestamp(dt).earlier(),
        };
        Some(timestamp.ok()?.as_millisecond())
    }
}

/// `--tz` settings: one default zone and per-host overrides (`HOST=ZONE`).
#[derive(Debug, Clone)]
pub struct TimeZones {
    default: Zone,
    per_host: HashMap<String, Zone>,
}

impl Default for TimeZones {
    fn default() -> Self {
        TimeZones {
            default: Zone::Utc,
            per_host: HashMap::new(),
        }
    }
}

impl TimeZones {
    /// Reads repeated `--tz` values: `ZONE` sets the default, `HOST=ZONE` one host.
    pub fn from_specs<S: AsRef<str>>(specs: &[S]) -> Result<TimeZones, String> {
        let mut zones = TimeZones::default();
        for spec in specs {
            let spec = spec.as_ref();
            match spec.split_once('=') {
                Some((host, zone)) if !host.is_empty() => {
                    zones.per_host.insert(host.to_string(), Zone::parse(zone)?);
                }
                Some(_) => return Err(format!("--tz `{spec}`: expected ZONE or HOST=ZONE")),
                None => zones.default = Zone::parse(spec)?,
            }
        }
        Ok(zones)
    }

    pub fn for_host(&self, host: Option<&str>) -> &Zone {
        host.and_then(|h| self.per_host.get(h))
            .unwrap_or(&self.default)
    }
}

/// `+02:00`, `-0530`, `+2`, `+02` in seconds east of UTC, up to ±18 hours.
fn parse_offset(s: &str) -> Option<i32> {
    let sign = if s.starts_with('-') { -1 } else { 1 };
    let digits: String = s[1..].chars().filter(|c| *c != ':').collect();
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (hours, minutes) = match digits.len() {
        1 | 2 => (digits.parse::<i32>().ok()?, 0),
        3 => (
            digits[..1].parse::<i32>().ok()?,
            digits[1..].parse::<i32>().ok()?,
        ),
        _ => (
            digits[..2].parse::<i32>().ok()?,
            digits[2..].parse::<i32>().ok()?,
        ),
    };
    if s[1..].contains(':') && s[1..].split(':').nth(1).is_none_or(|m| m.len() != 2) {
        return None;
    }
    (hours <= 18 && minutes < 60).then_some(sign * (hours * 3600 + minutes * 60))
}

/// Formats UTC epoch milliseconds as RFC 3339 with milliseconds: `2027-01-14T03:12:09.417Z`.
pub fn format_rfc3339(millis: i64) -> String {
    Rfc3339(millis).to_string()
}

/// UTC epoch milliseconds shown as RFC 3339 (`2026-08-20T14:02:10.331Z`), written straight into
/// a formatter or serializer (no string per event).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rfc3339(pub i64);

impl std::fmt::Display for Rfc3339 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match jiff::Timestamp::from_millisecond(self.0) {
            Ok(timestamp) => write!(f, "{timestamp:.3}"),
            // Beyond ±9999 years (a shipper's garbage epoch number) there is no RFC 3339 date.
            Err(_) => write!(f, "{}ms", self.0),
        }
    }
}

impl serde::Serialize for Rfc3339 {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Parses an RFC 3339 timestamp with an explicit offset (`2026-08-20T14:02:10.331847Z`), as
/// `docker compose logs -t` and log viewers print it, into UTC epoch milliseconds.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    parse_rfc3339_nanos(s).map(|n| n.div_euclid(1_000_000) as i64)
}

/// [`parse_rfc3339`] to nanoseconds (collectors keep them: two lines of one stack trace often
/// share a millisecond). Offsets may also lack the colon (`+0000`: journalctl before systemd 255,
/// log4j2 2.25+ `ZZZ`).
pub fn parse_rfc3339_nanos(s: &str) -> Option<i128> {
    let parse = |s: &str| s.parse::<jiff::Timestamp>().ok().map(|t| t.as_nanosecond());
    parse(s).or_else(|| {
        let cut = s.len().checked_sub(5)?;
        let (head, offset) = (s.get(..cut)?, s.get(cut..)?);
        let colonless = offset.starts_with(['+', '-'])
            && offset[1..].bytes().all(|b| b.is_ascii_digit())
            && head.contains('T');
        colonless
            .then(|| parse(&format!("{head}{}:{}", &offset[..3], &offset[3..])))
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(year: i16, month: i8, day: i8, hour: i8, minute: i8, second: i8, milli: i16) -> LocalTime {
        LocalTime {
            year,
            month,
            day,
            hour,
            minute,
            second,
            milli,
        }
    }

    #[test]
    fn utc_round_trip() {
        let ms = Zone::Utc
            .to_epoch_millis(&t(2027, 1, 14, 3, 12, 9, 417))
            .unwrap();
        assert_eq!(format_rfc3339(ms), "2027-01-14T03:12:09.417Z");
        let leap = Zone::Utc
            .to_epoch_millis(&t(2024, 2, 29, 0, 0, 0, 0))
            .unwrap();
        assert_eq!(format_rfc3339(leap), "2024-02-29T00:00:00.000Z");
        assert_eq!(format_rfc3339(-1), "1969-12-31T23:59:59.999Z");
        // No calendar date beyond ±9999 years: the epoch milliseconds themselves.
        assert_eq!(format_rfc3339(i64::MAX), format!("{}ms", i64::MAX));
    }

    #[test]
    fn impossible_dates_are_rejected() {
        assert_eq!(Zone::Utc.to_epoch_millis(&t(2023, 2, 29, 0, 0, 0, 0)), None);
        assert_eq!(Zone::Utc.to_epoch_millis(&t(2023, 13, 1, 0, 0, 0, 0)), None);
        assert_eq!(Zone::Utc.to_epoch_millis(&t(2023, 4, 31, 0, 0, 0, 0)), None);
        assert_eq!(
            Zone::Utc.to_epoch_millis(&t(2023, 4, 30, 24, 0, 0, 0)),
            None
        );
    }

    #[test]
    fn named_zone_and_fold_takes_earlier_offset() {
        let berlin = Zone::parse("Europe/Berlin").unwrap();
        let summer = berlin
            .to_epoch_millis(&t(2026, 8, 20, 16, 2, 10, 331))
            .unwrap();
        assert_eq!(format_rfc3339(summer), "2026-08-20T14:02:10.331Z");
        // 2026-10-25 02:30 happens twice in Berlin: first at +02:00.
        let fold = berlin
            .to_epoch_millis(&t(2026, 10, 25, 2, 30, 0, 0))
            .unwrap();
        assert_eq!(format_rfc3339(fold), "2026-10-25T00:30:00.000Z");
    }

    #[test]
    fn fixed_offsets() {
        let plus_two = Zone::parse("+02:00").unwrap();
        let ms = plus_two
            .to_epoch_millis(&t(2026, 8, 20, 16, 2, 10, 331))
            .unwrap();
        assert_eq!(format_rfc3339(ms), "2026-08-20T14:02:10.331Z");
        for same in ["+0200", "+2", "+02", "UTC+02:00"] {
            let zone = Zone::parse(same).unwrap();
            assert_eq!(
                zone.to_epoch_millis(&t(2026, 8, 20, 16, 2, 10, 331)),
                Some(ms),
                "{same}"
            );
        }
        let india = Zone::parse("-05:30").unwrap();
        let ms = india.to_epoch_millis(&t(2026, 1, 1, 0, 0, 0, 0)).unwrap();
        assert_eq!(format_rfc3339(ms), "2026-01-01T05:30:00.000Z");
        assert!(matches!(Zone::parse("+00:00"), Ok(Zone::Utc)));
        for bad in ["+25:00", "+02:5", "+ab", "+", "+123456"] {
            assert!(Zone::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn per_host_zones() {
        let zones = TimeZones::from_specs(&["Asia/Kolkata", "scm1=UTC"]).unwrap();
        assert!(matches!(zones.for_host(Some("scm1")), Zone::Utc));
        assert!(matches!(zones.for_host(Some("dn1")), Zone::Named(_)));
        assert!(TimeZones::from_specs(&["Mars/Olympus"]).is_err());
        assert!(TimeZones::from_specs(&["=UTC"]).is_err());
    }

    #[test]
    fn rfc3339_viewer_stamps() {
        let ms = parse_rfc3339("2026-08-20T14:02:10.331847000Z").unwrap();
        assert_eq!(format_rfc3339(ms), "2026-08-20T14:02:10.331Z");
        assert_eq!(parse_rfc3339("nonsense"), None);
        let colonless = parse_rfc3339("2027-06-12T12:38:22.412+0200").unwrap();
        assert_eq!(format_rfc3339(colonless), "2027-06-12T10:38:22.412Z");
        assert_eq!(
            parse_rfc3339_nanos("2027-06-12T10:38:25.118801331Z").unwrap() % 1_000_000_000,
            118_801_331
        );
    }
}
