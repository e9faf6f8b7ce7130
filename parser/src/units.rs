//! Hadoop configuration values: durations as `Configuration.getTimeDuration` reads them and sizes
//! as `Configuration.getStorageSize` (`StorageSize.parse`) does. One parser for `--set`, for
//! `ozone-site.xml` values and for the command line's own durations.
//!
//! Durations: the value is trimmed and lower-cased; the first of the suffixes `ns`, `us`, `ms`,
//! `s`, `m`, `h`, `d` it ends with is its unit (none: the unit the setting is read in); what is
//! left must be a whole number (`Long.parseLong`: `1.5h` and `2 h` are errors in Ozone too).
//! Hadoop accepts a negative number; no duration oztrace reads can be negative, so it is refused.
//!
//! Sizes: trimmed and lower-cased; the unit is the first of EB, PB, TB, GB, MB, KB, B (long name
//! `exabytes`…`bytes`, short `eb`…`b`, or one letter `e`…`b`) the value ends with, and is
//! required; the number may have a fraction (`Double.parseDouble`); units are powers of 1024.

/// A value that does not parse, with the reason (the caller names the key and where it came from).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ValueError(String);

impl ValueError {
    pub fn new(reason: String) -> ValueError {
        ValueError(reason)
    }
}

/// `java.util.concurrent.TimeUnit`, as far as Hadoop's suffixes go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    Nanoseconds,
    Microseconds,
    Milliseconds,
    Seconds,
    Minutes,
    Hours,
    Days,
}

impl TimeUnit {
    /// Hadoop's `ParsedTimeDuration` order: the first suffix the value ends with wins.
    const SUFFIXES: [(&'static str, TimeUnit); 7] = [
        ("ns", TimeUnit::Nanoseconds),
        ("us", TimeUnit::Microseconds),
        ("ms", TimeUnit::Milliseconds),
        ("s", TimeUnit::Seconds),
        ("m", TimeUnit::Minutes),
        ("h", TimeUnit::Hours),
        ("d", TimeUnit::Days),
    ];

    pub fn suffix(self) -> &'static str {
        TimeUnit::SUFFIXES
            .iter()
            .find(|(_, unit)| *unit == self)
            .map_or("", |(suffix, _)| suffix)
    }

    /// Nanoseconds in one of this unit.
    fn nanos(self) -> i128 {
        match self {
            TimeUnit::Nanoseconds => 1,
            TimeUnit::Microseconds => 1_000,
            TimeUnit::Milliseconds => 1_000_000,
            TimeUnit::Seconds => 1_000_000_000,
            TimeUnit::Minutes => 60_000_000_000,
            TimeUnit::Hours => 3_600_000_000_000,
            TimeUnit::Days => 86_400_000_000_000,
        }
    }
}

/// A duration in milliseconds (truncated, as `TimeUnit.convert` does); a bare number is in `bare`.
pub fn parse_duration_ms(text: &str, bare: TimeUnit) -> Result<i64, ValueError> {
    let value = text.trim().to_ascii_lowercase();
    let (number, unit) = TimeUnit::SUFFIXES
        .iter()
        .find_map(|(suffix, unit)| Some((value.strip_suffix(suffix)?, *unit)))
        .unwrap_or((value.as_str(), bare));
    let expected = || {
        ValueError(format!(
            "`{}` is not a duration: a whole number with an optional unit ns, us, ms, s, m, h or d \
             (a bare number is {})",
            text.trim(),
            bare.suffix()
        ))
    };
    let (negative, digits) = match number.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, number.strip_prefix('+').unwrap_or(number)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(expected());
    }
    if negative {
        return Err(ValueError(format!(
            "`{}`: a duration cannot be negative",
            text.trim()
        )));
    }
    let count: i64 = digits.parse().map_err(|_| expected())?;
    i64::try_from(i128::from(count) * unit.nanos() / TimeUnit::Milliseconds.nanos())
        .map_err(|_| ValueError(format!("`{}`: too long a duration", text.trim())))
}

/// Hadoop's `StorageUnit`s, largest first, as `StorageSize.parse` tries them.
const STORAGE_UNITS: [(&str, &str, &str, u32); 7] = [
    ("exabytes", "eb", "e", 6),
    ("petabytes", "pb", "p", 5),
    ("terabytes", "tb", "t", 4),
    ("gigabytes", "gb", "g", 3),
    ("megabytes", "mb", "m", 2),
    ("kilobytes", "kb", "k", 1),
    ("bytes", "b", "b", 0),
];

/// A size in bytes: a number (a fraction allowed) and a unit, `5GB`, `1.5 mb`, `512k`, `100b`.
pub fn parse_size_bytes(text: &str) -> Result<u64, ValueError> {
    let value = text.trim().to_ascii_lowercase();
    let expected = || {
        ValueError(format!(
            "`{}` is not a size: a number and a unit B, KB, MB, GB, TB, PB or EB (e.g. 1000MB)",
            text.trim()
        ))
    };
    let (number, power) = STORAGE_UNITS
        .iter()
        .find_map(|(long, short, letter, power)| {
            // The unit is the first that matches any of its names; the longest name is cut.
            let number = [long, short, letter]
                .iter()
                .find_map(|name| value.strip_suffix(*name))?;
            Some((number, *power))
        })
        .ok_or_else(expected)?;
    let number = number.trim();
    // Java's Double.parseDouble takes what Rust's f64 parser takes, bar `inf`/`nan` spellings.
    if number.is_empty()
        || !number
            .bytes()
            .all(|b| b.is_ascii_digit() || b".+-e".contains(&b))
    {
        return Err(expected());
    }
    let count: f64 = number.parse().map_err(|_| expected())?;
    if !count.is_finite() {
        return Err(expected());
    }
    if count < 0.0 {
        return Err(ValueError(format!(
            "`{}`: a size cannot be negative",
            text.trim()
        )));
    }
    let bytes = count * 1024f64.powi(power as i32);
    if bytes >= u64::MAX as f64 {
        return Err(ValueError(format!("`{}`: too large a size", text.trim())));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use TimeUnit::*;

    #[test]
    fn durations_follow_get_time_duration() {
        assert_eq!(parse_duration_ms("7d", Milliseconds), Ok(7 * 86_400_000));
        assert_eq!(parse_duration_ms(" 10m ", Milliseconds), Ok(600_000));
        assert_eq!(parse_duration_ms("60S", Milliseconds), Ok(60_000));
        assert_eq!(parse_duration_ms("300000", Milliseconds), Ok(300_000));
        assert_eq!(parse_duration_ms("30", Seconds), Ok(30_000));
        assert_eq!(parse_duration_ms("500ms", Seconds), Ok(500));
        assert_eq!(parse_duration_ms("1500us", Milliseconds), Ok(1));
        assert_eq!(parse_duration_ms("999999ns", Milliseconds), Ok(0));
        assert_eq!(parse_duration_ms("+2h", Milliseconds), Ok(7_200_000));
        for bad in [
            "banana", "1.5h", "2 h", "h", "", "1e400", "5w", "--5s", "1h30m",
        ] {
            let err = parse_duration_ms(bad, Milliseconds).unwrap_err();
            assert!(err.0.contains("not a duration"), "{bad}: {err}");
        }
        assert!(
            parse_duration_ms("-5h", Milliseconds)
                .unwrap_err()
                .0
                .contains("negative")
        );
        let huge = parse_duration_ms("9223372036854775807d", Milliseconds).unwrap_err();
        assert!(huge.0.contains("too long"), "{huge}");
    }

    #[test]
    fn sizes_follow_storage_size_parse() {
        assert_eq!(parse_size_bytes("5GB"), Ok(5 << 30));
        assert_eq!(parse_size_bytes("5gb"), Ok(5 << 30));
        assert_eq!(parse_size_bytes("1.5 MB"), Ok(3 << 19));
        assert_eq!(parse_size_bytes("512k"), Ok(512 << 10));
        assert_eq!(parse_size_bytes("100b"), Ok(100));
        assert_eq!(parse_size_bytes("2 kilobytes"), Ok(2048));
        assert_eq!(parse_size_bytes("7bytes"), Ok(7));
        for bad in ["banana", "100", "", "GB", "1e400GB", "inf GB", "5 GiB"] {
            assert!(parse_size_bytes(bad).is_err(), "{bad}");
        }
        assert!(parse_size_bytes("-1GB").unwrap_err().0.contains("negative"));
    }
}
