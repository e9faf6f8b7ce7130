//! The command line (../shared/CLI-CONTRACT.md).

use clap::{Args, Parser, Subcommand, ValueEnum};
use oztrace_parser::time::{LocalTime, Zone, parse_rfc3339};
use oztrace_parser::units;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "oztrace",
    version,
    about = "Finds known Apache Ozone distributed-systems bugs in cluster logs",
    long_about = "Reads Ozone datanode, SCM and OM logs and audit logs (files, directories, .gz/.zst, \
                  tarballs), types their records, replays them through reference state machines of \
                  Ozone's lifecycles and reports the signatures of known bugs with the evidence lines \
                  that prove them."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Parse, build the event graph, replay every rule, print findings.
    Scan(ScanArgs),
    /// The recorded trace: typed events as jsonl, csv or parquet.
    Events(EventsArgs),
    /// Step one entity through its reference state machines.
    Replay(ReplayArgs),
    /// Per file: component, host, layout, records, typed events, unrecognized lines, time range.
    Stats(StatsArgs),
    /// List the rules.
    Rules,
    /// One rule's documentation, the evidence it uses and the loggers it needs; or `--kinds`.
    Explain(ExplainArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to standard output.
    Completions(CompletionsArgs),
    /// Print the oztrace(1) man page (roff) to standard output.
    Man,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Options shared by every command that reads logs.
#[derive(Debug, Args, Clone)]
pub struct InputArgs {
    /// Files, directories, .gz/.zst files, .tar/.tar.gz/.tgz bundles, or `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Zone the logs' local times were written in: ZONE, or HOST=ZONE (repeatable).
    #[arg(long = "tz", value_name = "ZONE|HOST=ZONE")]
    pub tz: Vec<String>,
    /// Force a log4j ConversionPattern for the main logs (detection still falls back).
    #[arg(long, value_name = "PATTERN")]
    pub layout: Option<String>,
    /// Clock skew tolerated between hosts (e.g. 2s, 500ms).
    #[arg(long, default_value = "2s", value_parser = parse_duration_ms)]
    pub skew: i64,
    /// Parser threads (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Stop reading a compressed input that expands more than RATIO times its compressed size
    /// (past 64 MiB): a decompression bomb. Logs compress 10 to 50 times.
    #[arg(long, value_name = "RATIO", default_value_t = oztrace_parser::input::Limits::DEFAULT_MAX_EXPAND,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_expand: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScanFormat {
    /// For people: findings grouped by severity then rule, evidence interleaved across hosts.
    Text,
    /// The versioned JSON document (oztrace.findings/v1), deterministic.
    Json,
    /// One finding per line, then one summary line (oztrace.summary/v1).
    Jsonl,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// Markdown to paste into a ticket.
    Markdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Possible,
    Likely,
    Confirmed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
pub struct ScanArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[arg(long, value_enum, default_value = "text")]
    pub format: ScanFormat,
    /// Exit 1 when a finding is at or above this confidence.
    #[arg(long, value_enum, default_value = "possible")]
    pub fail_on: FailOn,
    /// Only these rules (comma-separated ids).
    #[arg(long, value_delimiter = ',')]
    pub rules: Vec<String>,
    /// Skip these rules (comma-separated ids).
    #[arg(long, value_delimiter = ',')]
    pub skip: Vec<String>,
    /// Configuration for rules, KEY=VALUE (overrides ozone-site.xml found in the bundle).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub settings: Vec<String>,
    /// Drop an entity's live state after this much log time without events.
    #[arg(long, default_value = "14d", value_parser = parse_duration_ms)]
    pub retain: i64,
    /// Colour in text output.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    /// Analyse each PATH as a cluster of its own (a folder of support bundles), one report each.
    #[arg(long, conflicts_with_all = ["report", "write_baseline"])]
    pub each: bool,
    /// Also write a self-contained HTML page (timelines per finding) to FILE.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Leave out findings whose fingerprint this baseline file lists (they never set exit 1).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write every finding of this run to a baseline FILE (for a later `--baseline`).
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Analyse only events at or after this time: RFC 3339, or `yyyy-MM-dd HH:mm:ss` in the
    /// `--tz` zone.
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    /// Analyse only events at or before this time (same forms as --since).
    #[arg(long, value_name = "TIME")]
    pub until: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EventsFormat {
    Jsonl,
    Csv,
    Parquet,
}

#[derive(Debug, Args)]
pub struct EventsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: EventsFormat,
    /// Every record, the unrecognized ones with kind `unrecognized`.
    #[arg(long)]
    pub all: bool,
    /// Write to FILE instead of standard output (required for parquet).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The entity to replay, as KIND:ID (container:1051, datanode:<uuid>, key:/v/b/k, …).
    #[arg(long, value_name = "KIND:ID")]
    pub entity: String,
    #[arg(long, default_value = "14d", value_parser = parse_duration_ms)]
    pub retain: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[arg(long, value_enum, default_value = "text")]
    pub format: StatsFormat,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A rule id (see `oztrace rules`).
    #[arg(required_unless_present = "kinds")]
    pub rule: Option<String>,
    /// List every event kind with its Ozone source instead.
    #[arg(long, conflicts_with = "rule")]
    pub kinds: bool,
}

/// `2s`, `500ms`, `14d`, `3h`, `10m`, or a bare number of seconds, in milliseconds (the one
/// duration parser, Hadoop's `getTimeDuration` suffixes).
pub fn parse_duration_ms(s: &str) -> Result<i64, String> {
    units::parse_duration_ms(s, units::TimeUnit::Seconds).map_err(|e| e.to_string())
}

/// A `--since` / `--until` bound in UTC epoch milliseconds: RFC 3339 with an offset, or a local
/// `yyyy-MM-dd HH:mm:ss` (optionally `,SSS` or `.SSS`, `T` instead of the space) in `zone`.
pub fn parse_time_bound(s: &str, zone: &Zone) -> Result<i64, String> {
    let s = s.trim();
    if let Some(ms) = parse_rfc3339(s) {
        return Ok(ms);
    }
    let bad = || format!("`{s}` is not a time (RFC 3339, or yyyy-MM-dd HH:mm:ss)");
    let b = s.as_bytes();
    let digits = |from: usize, to: usize| -> Option<i64> {
        let part = b.get(from..to)?;
        if part.iter().all(u8::is_ascii_digit) {
            std::str::from_utf8(part).ok()?.parse().ok()
        } else {
            None
        }
    };
    let shape_ok = b.len() >= 19
        && b[4] == b'-'
        && b[7] == b'-'
        && (b[10] == b' ' || b[10] == b'T')
        && b[13] == b':'
        && b[16] == b':';
    if !shape_ok {
        return Err(bad());
    }
    let milli = match b.len() {
        19 => 0,
        23 if b[19] == b',' || b[19] == b'.' => digits(20, 23).ok_or_else(bad)?,
        _ => return Err(bad()),
    };
    let field = |from, to| digits(from, to).ok_or_else(bad);
    let local = LocalTime {
        year: field(0, 4)? as i16,
        month: field(5, 7)? as i8,
        day: field(8, 10)? as i8,
        hour: field(11, 13)? as i8,
        minute: field(14, 16)? as i8,
        second: field(17, 19)? as i8,
        milli: milli as i16,
    };
    zone.to_epoch_millis(&local).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn time_bounds_take_rfc3339_and_log_local_times() {
        let utc = Zone::Utc;
        let expected = parse_rfc3339("2026-08-20T11:02:47Z").unwrap();
        assert_eq!(parse_time_bound("2026-08-20T11:02:47Z", &utc), Ok(expected));
        assert_eq!(parse_time_bound("2026-08-20 11:02:47", &utc), Ok(expected));
        assert_eq!(
            parse_time_bound("2026-08-20 11:02:47,390", &utc),
            Ok(expected + 390)
        );
        assert_eq!(
            parse_time_bound("2026-08-20T13:02:47+02:00", &utc),
            Ok(expected)
        );
        // A local time is read in the --tz zone: 13:02:47 in Berlin (CEST) is 11:02:47 UTC.
        let berlin = Zone::parse("Europe/Berlin").unwrap();
        assert_eq!(
            parse_time_bound("2026-08-20 13:02:47", &berlin),
            Ok(expected)
        );
        assert!(parse_time_bound("2026-08-20", &utc).is_err());
        assert!(parse_time_bound("2026-02-30 00:00:00", &utc).is_err());
        assert!(parse_time_bound("2026-08-20 11:02:4x", &utc).is_err());
        assert!(parse_time_bound("2026-08-20 11:02:47,3", &utc).is_err());
        assert!(parse_time_bound("yesterday", &utc).is_err());
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration_ms("2s"), Ok(2000));
        assert_eq!(parse_duration_ms("500ms"), Ok(500));
        assert_eq!(parse_duration_ms("14d"), Ok(14 * 86_400_000));
        assert_eq!(parse_duration_ms("90"), Ok(90_000));
        assert!(parse_duration_ms("1.5").is_err());
        assert!(parse_duration_ms("2 weeks").is_err());
        assert!(parse_duration_ms("s").is_err());
    }
}
