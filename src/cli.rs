//! The command line (docs/cli-contract.md).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use oztrace_analyzer::replicas::{HealthKind, ReplicaState};
use oztrace_parser::entity::Entity;
use oztrace_parser::units;
use std::path::PathBuf;

/// What `--help` ends with: the exit statuses and two examples.
const AFTER_HELP: &str = "\
Exit status:
  0  nothing found (scan); success (every other command)
  1  scan: a finding at or above --fail-on that no baseline suppresses
  2  usage or configuration error; nothing analysed
  3  some input could not be read (named on stderr and in the report)
  4  internal error, after writing what report it can

Examples:
  oztrace scan bundle.tar.gz --report report.html     findings as text, plus an HTML page
  oztrace scan --each archive/*/ --format jsonl --fail-on likely   one cluster per folder

The command line, JSON output and exit codes are a stable contract: docs/cli-contract.md.";

#[derive(Debug, Parser)]
#[command(
    name = "oztrace",
    version,
    about = "Finds known Apache Ozone distributed-systems bugs in cluster logs",
    long_about = "Reads Ozone datanode, SCM and OM logs and audit logs (files, directories, .gz/.zst, \
                  tarballs), types their records, replays them through reference state machines of \
                  Ozone's lifecycles and reports the signatures of known bugs with the evidence lines \
                  that prove them.",
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour in text output: auto follows NO_COLOR, CLICOLOR_FORCE and whether the output is a
    /// terminal.
    #[arg(long, global = true, value_enum, default_value = "auto")]
    pub color: ColorChoice,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Parse, build the event graph, replay every rule, print findings.
    #[command(after_help = AFTER_HELP)]
    Scan(ScanArgs),
    /// The recorded trace: typed events as jsonl, csv or parquet.
    Events(EventsArgs),
    /// Step one entity through its reference state machines (a container: its replicas first).
    Replay(ReplayArgs),
    /// One line per container: state, replicas expected and seen, health, last change (what
    /// `ozone debug log container list` shows, from the bundle).
    Containers(ContainersArgs),
    /// Per file: component, host, layout, records, typed events, unrecognized lines, time range.
    Stats(StatsArgs),
    /// List the rules.
    Rules(RulesArgs),
    /// One rule's documentation, the evidence it uses, the loggers it needs and what to do about
    /// a finding; or `--kinds`.
    Explain(ExplainArgs),
    /// SQL over a dataset (`scan --each … --dataset DIR`): its findings, evidence, bundles and
    /// events tables.
    Query(QueryArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to standard output.
    Completions(CompletionsArgs),
    /// Print the oztrace(1) man page (roff), or write one page per command with --dir.
    Man(ManArgs),
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write oztrace.1 and one oztrace-COMMAND.1 per command into DIR instead of printing
    /// oztrace.1.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Options shared by every command that reads logs.
#[derive(Debug, Args, Clone)]
pub struct InputArgs {
    /// Files, directories, .gz/.zst files, .tar/.tar.gz/.tgz bundles, or `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Zone the logs' local times were written in: an IANA name, UTC or an offset (+02:00);
    /// or HOST=ZONE for one host (repeatable).
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
    /// Only events at or after TIME: a date (2026-09-14), a local time in the --tz zone
    /// ('2026-09-14 07:00:00'), RFC 3339 (2026-09-14T07:00:00Z), or relative ('1h ago', -2d).
    #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
    pub since: Option<String>,
    /// Only events at or before TIME (same forms as --since; a date means through its end).
    #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
    pub until: Option<String>,
}

/// The zone times are shown in, for the views meant for people.
#[derive(Debug, Args, Clone)]
pub struct DisplayArgs {
    /// Show times in this zone (an IANA name, an offset such as +02:00, or `local`); JSON,
    /// JSON Lines and SARIF stay in UTC.
    #[arg(long, value_name = "ZONE", default_value = "UTC")]
    pub display_tz: String,
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
pub enum FamilyArg {
    /// The signatures of known Ozone bugs (also `signatures`).
    #[value(alias = "signatures")]
    Signature,
    /// The health of the containers (what `ozone debug log container` checks).
    Health,
}

impl FamilyArg {
    pub fn family(self) -> oztrace_rules::RuleFamily {
        match self {
            FamilyArg::Signature => oztrace_rules::RuleFamily::Signature,
            FamilyArg::Health => oztrace_rules::RuleFamily::Health,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Any finding.
    Possible,
    /// Likely and confirmed findings.
    Likely,
    /// Confirmed findings only.
    Confirmed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when the output is a terminal, unless NO_COLOR is set; always with CLICOLOR_FORCE.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The registered rule ids, for `--rules`, `--skip` and `explain` (completions offer them; a
/// misspelled id gets the nearest one as a tip).
pub fn rule_ids() -> PossibleValuesParser {
    PossibleValuesParser::new(
        oztrace_rules::registry()
            .into_iter()
            .map(|r| PossibleValue::new(r.doc().id).help(r.doc().title())),
    )
}

#[derive(Debug, Args)]
pub struct ScanArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub display: DisplayArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ScanFormat,
    /// Exit 1 when a finding is at or above this confidence.
    #[arg(long, value_enum, default_value = "possible")]
    pub fail_on: FailOn,
    /// Only these rules (comma-separated ids).
    #[arg(long, value_delimiter = ',', value_parser = rule_ids(), hide_possible_values = true)]
    pub rules: Vec<String>,
    /// Skip these rules (comma-separated ids).
    #[arg(long, value_delimiter = ',', value_parser = rule_ids(), hide_possible_values = true)]
    pub skip: Vec<String>,
    /// Only the rules of this family: the bug signatures or the container-health rules (default:
    /// both).
    #[arg(long, value_enum)]
    pub family: Option<FamilyArg>,
    /// Configuration for rules, KEY=VALUE (overrides ozone-site.xml found in the bundle).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub settings: Vec<String>,
    /// Drop an entity's live state after this much log time without events.
    #[arg(long, default_value = "14d", value_parser = parse_duration_ms)]
    pub retain: i64,
    /// Parse every record, also those no rule needs (for checking the prefilter; slower).
    #[arg(long, hide = true)]
    pub no_prefilter: bool,
    /// Print on standard error how long each stage took: reading (MB/s), the merge into one
    /// time order, the replay (graph and state machines) and the rules (events/s).
    #[arg(long)]
    pub timings: bool,
    /// Print evidence lines whole in text output instead of cutting them around the values
    /// the rule read.
    #[arg(long)]
    pub wide: bool,
    /// Analyse each PATH as a cluster of its own (a folder of support bundles), one report each,
    /// then a total.
    #[arg(long, conflicts_with_all = ["report", "write_baseline"])]
    pub each: bool,
    /// Also write a self-contained HTML page (timelines per finding) to FILE.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Leave out findings whose fingerprint this baseline file lists (they never set exit 1;
    /// SARIF keeps them, marked suppressed).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write every finding of this run to a baseline FILE (for a later `--baseline`).
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// With --each: also write the findings, their evidence and one row per bundle as Parquet
    /// tables into the new folder DIR (read them with `oztrace query DIR`).
    #[arg(long, value_name = "DIR", requires = "each")]
    pub dataset: Option<PathBuf>,
    /// With --dataset: also write every typed event, per bundle (the events table; slower: every
    /// record is parsed).
    #[arg(long, requires = "dataset")]
    pub events: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EventsFormat {
    /// One JSON object per event and line (the contract's record).
    Jsonl,
    /// A table, one row per event; entities joined with `;`, fields as a JSON string.
    Csv,
    /// A typed table (needs -o FILE): ts as a UTC timestamp, categorical kind/host/component.
    Parquet,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortOrder {
    /// As read: file by file, in each file's order.
    Input,
    /// By time across files (untimed records stay after the record before them); large inputs
    /// are merged through bounded temporary files.
    Time,
}

#[derive(Debug, Args)]
pub struct EventsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: EventsFormat,
    /// Every record, the unrecognized ones with kind `unrecognized`.
    #[arg(long)]
    pub all: bool,
    /// Order of the records (default: time for jsonl when the input is under 256 MiB on disk,
    /// else input order; csv and parquet: time).
    #[arg(long, value_enum)]
    pub sort: Option<SortOrder>,
    /// Write to FILE instead of standard output (required for parquet).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `--entity KIND:ID`: checked when parsed; completions offer the kinds.
#[derive(Debug, Clone)]
pub struct EntityParser;

impl TypedValueParser for EntityParser {
    type Value = Entity;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Entity, clap::Error> {
        let text = value.to_string_lossy();
        text.parse().map_err(|e| {
            let mut err = clap::Error::new(clap::error::ErrorKind::ValueValidation).with_cmd(cmd);
            if let Some(arg) = arg {
                err.insert(
                    clap::error::ContextKind::InvalidArg,
                    clap::error::ContextValue::String(arg.to_string()),
                );
            }
            err.insert(
                clap::error::ContextKind::InvalidValue,
                clap::error::ContextValue::String(format!("{text} ({e})")),
            );
            err
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            ENTITY_KINDS
                .iter()
                .map(|(kind, help)| PossibleValue::new(*kind).help(*help)),
        ))
    }
}

/// The contract's entity kinds, as completions offer them.
pub const ENTITY_KINDS: &[(&str, &str)] = &[
    ("container:", "container:<id>"),
    ("datanode:", "datanode:<uuid> or datanode:host=<name>"),
    ("key:/", "key:/<volume>/<bucket>/<key>"),
    ("block:", "block:<containerID>:<localID>"),
    ("pipeline:", "pipeline:<uuid>"),
    ("group:", "group:<12 hex digits>"),
    ("scm:", "scm:<id>"),
    ("om:", "om:<id>"),
];

#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub display: DisplayArgs,
    /// The entity to replay, as KIND:ID (container:1051, datanode:<uuid>, key:/v/b/k, …).
    #[arg(long, value_name = "KIND:ID", value_parser = EntityParser, hide_possible_values = true)]
    pub entity: Entity,
    /// Drop an entity's live state after this much log time without events (as scan does).
    #[arg(long, default_value = "14d", value_parser = parse_duration_ms)]
    pub retain: i64,
    /// Parse every record, also those neither the entity nor a machine or rule needs (for
    /// checking the prefilter; slower, and memory follows the input's size).
    #[arg(long, hide = true)]
    pub no_prefilter: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ContainersFormat {
    /// A table for people.
    Text,
    /// The oztrace.containers/v1 document.
    Json,
    /// One row per container.
    Csv,
}

/// `--health KIND`: a condition by `ozone debug log container`'s name (UNDER_REPLICATED,
/// OVER_REPLICATED, UNHEALTHY, QUASI_CLOSED_STUCK, DUPLICATE_OPEN, MISMATCHED_REPLICAS) or rule id.
fn health_kind(s: &str) -> Result<HealthKind, String> {
    HealthKind::parse(s).ok_or_else(|| {
        format!(
            "unknown health `{s}` (one of {})",
            HealthKind::ALL
                .iter()
                .map(|k| k.label())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

fn replica_state(s: &str) -> Result<ReplicaState, String> {
    ReplicaState::parse(&s.to_ascii_uppercase())
        .ok_or_else(|| format!("unknown replica state `{s}` (one of OPEN, RECOVERING, CLOSING, QUASI_CLOSED, CLOSED, UNHEALTHY, INVALID, DELETED)"))
}

#[derive(Debug, Args)]
pub struct ContainersArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub display: DisplayArgs,
    /// Only containers in one of these conditions (comma-separated; UNDER_REPLICATED,
    /// OVER_REPLICATED, UNHEALTHY, QUASI_CLOSED_STUCK, DUPLICATE_OPEN, MISMATCHED_REPLICAS).
    #[arg(long, value_delimiter = ',', value_parser = health_kind)]
    pub health: Vec<HealthKind>,
    /// Only containers with a replica whose latest state is one of these (comma-separated: OPEN,
    /// RECOVERING, CLOSING, QUASI_CLOSED, CLOSED, UNHEALTHY, INVALID, DELETED), as
    /// `ozone debug log container list --lifecycle` does.
    #[arg(long, value_delimiter = ',', value_parser = replica_state)]
    pub state: Vec<ReplicaState>,
    /// At most N containers (0: all).
    #[arg(long, default_value_t = 100)]
    pub limit: usize,
    /// Every container (as `--limit 0`).
    #[arg(long, conflicts_with = "limit")]
    pub all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ContainersFormat,
    /// Configuration, KEY=VALUE (overrides ozone-site.xml found in the bundle), as for scan.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub settings: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// A table for people.
    Text,
    /// The oztrace.stats/v1 document.
    Json,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub display: DisplayArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: StatsFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum QueryFormat {
    /// A table for people.
    Text,
    /// A header line, then one line per row; times in RFC 3339, lists and structs as JSON.
    Csv,
    /// One JSON object per row and line; times in RFC 3339 (UTC).
    Json,
    /// A Parquet file with the result's types (needs -o FILE).
    Parquet,
}

#[derive(Debug, Args)]
pub struct QueryArgs {
    /// The dataset folder (written by `scan --each … --dataset DIR` or oztrace_spark.py).
    #[arg(value_name = "DIR")]
    pub dataset: PathBuf,
    /// The query, in polars SQL: SELECT … FROM findings, evidence, bundles (and events).
    #[arg(value_name = "SQL")]
    pub sql: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: QueryFormat,
    /// Write to FILE instead of standard output (required for parquet).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Output format: a table for people, or the Markdown table the README holds.
    #[arg(long, value_enum, default_value = "text")]
    pub format: RulesFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    /// A table for people.
    Text,
    /// A Markdown table (the README's).
    Markdown,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A rule id (see `oztrace rules`).
    #[arg(required_unless_present = "kinds", value_parser = rule_ids(), hide_possible_values = true)]
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_argument_of_every_command_has_help_text() {
        fn walk(cmd: &clap::Command, path: &str) {
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                assert!(
                    arg.get_help().is_some() || arg.get_long_help().is_some(),
                    "{path} {id} has no help text"
                );
            }
            for sub in cmd.get_subcommands() {
                assert!(
                    sub.get_about().is_some(),
                    "{path} {} has no about",
                    sub.get_name()
                );
                walk(sub, &format!("{path} {}", sub.get_name()));
            }
        }
        walk(&Cli::command(), "oztrace");
    }

    #[test]
    fn a_misspelled_rule_id_gets_the_nearest_as_a_tip() {
        let err = Cli::try_parse_from(["oztrace", "explain", "resurected-container"]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        let text = err.to_string();
        assert!(text.contains("resurected-container"), "{text}");
        assert!(text.contains("'resurrected-container'"), "{text}");
        let err =
            Cli::try_parse_from(["oztrace", "scan", "x", "--rules", "dropped-action"]).unwrap_err();
        assert!(err.to_string().contains("'dropped-actions'"), "{err}");
    }

    #[test]
    fn entities_are_checked_when_parsed() {
        let ok = Cli::try_parse_from(["oztrace", "replay", "x", "--entity", "container:1051"]);
        assert!(ok.is_ok());
        let err = Cli::try_parse_from(["oztrace", "replay", "x", "--entity", "container:abc"])
            .unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains("decimal"), "{err}");
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
