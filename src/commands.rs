//! The commands: each reads the inputs once and prints one view of them.

use crate::cli::{
    Command, EventsArgs, EventsFormat, ExplainArgs, FailOn, InputArgs, ReplayArgs, ScanArgs,
    StatsArgs, StatsFormat,
};
use crate::pipeline::{Parsed, ReadConfig, read_inputs};
use crate::report::{self, ReportInputs};
use crate::{Failure, exit};
use oztrace_analyzer::trace::Trace;
use oztrace_analyzer::{Analysis, ReplayOptions};
use oztrace_parser::entity::Entity;
use oztrace_parser::input::ConfigKind;
use oztrace_parser::layout::Layout;
use oztrace_parser::time::{TimeZones, format_rfc3339};
use oztrace_rules::{Confidence, Context, LoggingCoverage, Rule, Settings};
use std::io::Write;
use std::sync::Arc;

pub fn run(command: Command) -> Result<u8, Failure> {
    match command {
        Command::Scan(args) => scan(args),
        Command::Events(args) => events(args),
        Command::Replay(args) => replay(args),
        Command::Stats(args) => stats(args),
        Command::Rules => {
            print!("{}", report::rules_table(&oztrace_rules::registry()));
            Ok(exit::OK)
        }
        Command::Explain(args) => explain(args),
    }
}

fn read(input: &InputArgs, keep_unrecognized: bool) -> Result<Parsed, Failure> {
    let zones = TimeZones::from_specs(&input.tz).map_err(Failure::Usage)?;
    let forced_layout = match &input.layout {
        Some(pattern) => Some(Arc::new(
            Layout::custom(pattern).map_err(|e| Failure::Usage(format!("--layout: {e}")))?,
        )),
        None => None,
    };
    let jobs = input
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let config = ReadConfig {
        zones,
        forced_layout,
        keep_unrecognized,
        jobs,
    };
    for path in &input.paths {
        if path.as_os_str() != "-" && !path.exists() {
            // A missing argument is still analysed around: it is reported as unreadable.
            eprintln!("oztrace: {}: no such file or directory", path.display());
        }
    }
    Ok(read_inputs(&input.paths, &config))
}

fn input_exit(parsed: &Parsed) -> u8 {
    if parsed.unreadable.is_empty() {
        exit::OK
    } else {
        exit::UNREADABLE
    }
}

fn warn_unreadable(parsed: &Parsed) {
    for item in &parsed.unreadable {
        eprintln!("oztrace: cannot read {}: {}", item.path, item.reason);
    }
}

/// Moves the typed events out of the streams into one time order.
fn build_trace(parsed: &mut Parsed, skew_ms: i64) -> Trace {
    let streams = parsed
        .streams
        .iter_mut()
        .map(|s| std::mem::take(&mut s.events))
        .collect();
    Trace::merge(streams, skew_ms)
}

fn settings(parsed: &Parsed, overrides: &[String]) -> Result<Settings, Failure> {
    let mut settings = Settings::default();
    for config in parsed
        .configs
        .iter()
        .filter(|c| c.kind == ConfigKind::OzoneSiteXml)
    {
        for (key, value) in &config.properties {
            settings.set(key, value, &config.display);
        }
    }
    for item in overrides {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| Failure::Usage(format!("--set `{item}`: expected KEY=VALUE")))?;
        settings.set(key.trim(), value.trim(), "--set");
    }
    Ok(settings)
}

fn logging_coverage(parsed: &Parsed) -> LoggingCoverage {
    let mut coverage = LoggingCoverage::default();
    for config in parsed
        .configs
        .iter()
        .filter(|c| c.kind == ConfigKind::Log4jProperties)
    {
        let hosts: Vec<&str> = match &config.host {
            Some(host) => vec![host.as_str()],
            None => parsed.streams.iter().map(|s| &*s.host).collect(),
        };
        for (key, value) in &config.properties {
            let Some(logger) = key.strip_prefix("log4j.logger.") else {
                continue;
            };
            let level = value
                .split(',')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_uppercase();
            if level == "DEBUG" || level == "TRACE" || level == "ALL" {
                let level = if level == "ALL" {
                    "TRACE"
                } else {
                    level.as_str()
                };
                for host in &hosts {
                    coverage.record(host, logger, level);
                }
            }
        }
    }
    for stream in &parsed.streams {
        for (host, logger, level) in &stream.verbose_loggers {
            coverage.record(host, logger, level.as_str());
        }
    }
    coverage
}

fn selected_rules(args: &ScanArgs) -> Result<Vec<&'static dyn Rule>, Failure> {
    let all = oztrace_rules::registry();
    for id in args.rules.iter().chain(&args.skip) {
        if !all.iter().any(|r| r.doc().id == id) {
            return Err(Failure::Usage(format!(
                "unknown rule `{id}` (see `oztrace rules`)"
            )));
        }
    }
    Ok(all
        .into_iter()
        .filter(|r| args.rules.is_empty() || args.rules.iter().any(|id| id == r.doc().id))
        .filter(|r| !args.skip.iter().any(|id| id == r.doc().id))
        .collect())
}

fn scan(args: ScanArgs) -> Result<u8, Failure> {
    if !args.each {
        return scan_one(&args, &args.input);
    }
    // One cluster per argument; the exit status is the most severe of the runs (3 before 1).
    let mut worst = exit::OK;
    for path in &args.input.paths {
        let input = InputArgs {
            paths: vec![path.clone()],
            ..args.input.clone()
        };
        if args.format == crate::cli::ScanFormat::Text {
            println!("== {}", path.display());
        }
        let code = scan_one(&args, &input)?;
        worst = match (worst, code) {
            (exit::UNREADABLE, _) | (_, exit::UNREADABLE) => exit::UNREADABLE,
            (exit::FINDINGS, _) | (_, exit::FINDINGS) => exit::FINDINGS,
            _ => exit::OK,
        };
    }
    Ok(worst)
}

fn scan_one(args: &ScanArgs, input: &InputArgs) -> Result<u8, Failure> {
    let rules = selected_rules(args)?;
    let mut parsed = read(input, false)?;
    let settings = settings(&parsed, &args.settings)?;
    let logging = logging_coverage(&parsed);
    let trace = build_trace(&mut parsed, input.skew);
    let analysis = Analysis::run(
        trace,
        ReplayOptions {
            retain_ms: args.retain,
        },
    );
    let context = Context {
        analysis: &analysis,
        settings: &settings,
        logging: &logging,
    };
    let output = oztrace_rules::run(&context, &rules);
    let inputs = ReportInputs::from_parsed(&parsed);
    let document = report::Document::build(&analysis, &output, inputs);
    let rendered = report::render(&document, args.format, args.color)
        .map_err(|e| Failure::Internal(format!("rendering the report: {e}")))?;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(rendered.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::Internal(format!("writing the report: {e}")))?;
    warn_unreadable(&parsed);
    let threshold = match args.fail_on {
        FailOn::Possible => Confidence::Possible,
        FailOn::Likely => Confidence::Likely,
        FailOn::Confirmed => Confidence::Confirmed,
    };
    Ok(if !parsed.unreadable.is_empty() {
        exit::UNREADABLE
    } else if output.findings.iter().any(|f| f.confidence >= threshold) {
        exit::FINDINGS
    } else {
        exit::OK
    })
}

fn events(args: EventsArgs) -> Result<u8, Failure> {
    if args.format == EventsFormat::Parquet && args.output.is_none() {
        return Err(Failure::Usage("--format parquet needs -o FILE".into()));
    }
    let parsed = read(&args.input, args.all)?;
    let events = parsed.streams.iter().flat_map(|s| s.events.iter());
    let result = match (&args.format, &args.output) {
        (EventsFormat::Jsonl, None) => {
            crate::export::write_jsonl(events, &mut std::io::stdout().lock())
        }
        (EventsFormat::Jsonl, Some(path)) => std::fs::File::create(path)
            .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))
            .and_then(|f| crate::export::write_jsonl(events, &mut std::io::BufWriter::new(f))),
        (format, output) => crate::export::write_table(events, *format, output.as_deref()),
    };
    result?;
    warn_unreadable(&parsed);
    Ok(input_exit(&parsed))
}

fn replay(args: ReplayArgs) -> Result<u8, Failure> {
    let entity: Entity = args
        .entity
        .parse()
        .map_err(|e| Failure::Usage(format!("--entity `{}`: {e}", args.entity)))?;
    let mut parsed = read(&args.input, false)?;
    let trace = build_trace(&mut parsed, args.input.skew);
    let analysis = Analysis::run(
        trace,
        ReplayOptions {
            retain_ms: args.retain,
        },
    );
    print!("{}", report::replay_lines(&analysis, &entity));
    warn_unreadable(&parsed);
    Ok(input_exit(&parsed))
}

fn stats(args: StatsArgs) -> Result<u8, Failure> {
    let parsed = read(&args.input, false)?;
    let out = match args.format {
        StatsFormat::Text => report::stats_text(&parsed),
        StatsFormat::Json => report::stats_json(&parsed),
    };
    print!("{out}");
    warn_unreadable(&parsed);
    Ok(input_exit(&parsed))
}

fn explain(args: ExplainArgs) -> Result<u8, Failure> {
    if args.kinds {
        print!("{}", report::kinds_table());
        return Ok(exit::OK);
    }
    let id = args.rule.unwrap_or_default();
    let rules = oztrace_rules::registry();
    let rule = rules
        .iter()
        .find(|r| r.doc().id == id)
        .ok_or_else(|| Failure::Usage(format!("unknown rule `{id}` (see `oztrace rules`)")))?;
    print!("{}", report::explain(rule.doc()));
    Ok(exit::OK)
}

/// RFC 3339 or `-` for untimed events, for text views.
pub fn time_or_dash(ts: Option<i64>) -> String {
    ts.map_or_else(|| "-".to_string(), format_rfc3339)
}
