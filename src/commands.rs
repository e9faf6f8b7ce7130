//! The commands: each reads the inputs once and prints one view of them.

use crate::cli::{
    Cli, Command, EventsArgs, EventsFormat, ExplainArgs, FailOn, InputArgs, ReplayArgs, ScanArgs,
    ScanFormat, StatsArgs, StatsFormat, parse_time_bound,
};
use crate::output::{OutputFile, emit, emit_bytes, refuse_inputs_as_outputs, warn};
use crate::pipeline::{Keep, Parsed, ReadConfig, StreamOutcome, read_inputs_streaming};
use crate::report::baseline::Baseline;
use crate::report::{self, ReportInputs};
use crate::{Failure, exit};
use clap::CommandFactory;
use indicatif::{ProgressBar, ProgressStyle};
use oztrace_analyzer::trace::Trace;
use oztrace_analyzer::{Analysis, ReplayOptions};
use oztrace_parser::entity::Entity;
use oztrace_parser::event::Event;
use oztrace_parser::input::ConfigKind;
use oztrace_parser::layout::Layout;
use oztrace_parser::source::Component;
use oztrace_parser::time::{TimeZones, format_rfc3339};
use oztrace_rules::{Confidence, Context, LoggingCoverage, Rule, Settings};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Inputs larger than this (on disk) get a progress bar when standard error is a terminal.
const PROGRESS_THRESHOLD: u64 = 64 << 20;

pub fn run(command: Command) -> Result<u8, Failure> {
    match command {
        Command::Scan(args) => scan(args),
        Command::Events(args) => events(args),
        Command::Replay(args) => replay(args),
        Command::Stats(args) => stats(args),
        Command::Rules => {
            emit(&report::rules_table(&oztrace_rules::registry()))?;
            Ok(exit::OK)
        }
        Command::Explain(args) => explain(args),
        Command::Completions(args) => {
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut Cli::command(), "oztrace", &mut script);
            emit_bytes(&script)?;
            Ok(exit::OK)
        }
        Command::Man => {
            let mut page = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut page)
                .map_err(|e| Failure::Internal(format!("rendering the man page: {e}")))?;
            emit_bytes(&page)?;
            Ok(exit::OK)
        }
    }
}

fn read(input: &InputArgs, keep: Keep) -> Result<Parsed, Failure> {
    read_streaming(input, keep, &mut |_| {})
}

/// Reads the inputs, handing each stream to `on_stream` in input order as soon as it is read
/// (see `pipeline::read_inputs_streaming`).
fn read_streaming(
    input: &InputArgs,
    keep: Keep,
    on_stream: &mut dyn FnMut(&mut StreamOutcome),
) -> Result<Parsed, Failure> {
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
    let mut config = ReadConfig {
        zones,
        forced_layout,
        keep,
        jobs,
        progress: None,
        limits: oztrace_parser::input::Limits {
            max_expand: input.max_expand,
        },
    };
    for path in &input.paths {
        if path.as_os_str() != "-" && !path.exists() {
            // A missing argument is still analysed around: it is reported as unreadable.
            warn(&format!("{}: no such file or directory", path.display()));
        }
    }
    let Some(bar) = progress_bar(&input.paths) else {
        let mut parsed = read_inputs_streaming(&input.paths, &config, on_stream);
        nothing_to_scan(&input.paths, &mut parsed);
        return Ok(parsed);
    };
    let counter = Arc::new(AtomicU64::new(0));
    config.progress = Some(Arc::clone(&counter));
    let done = AtomicBool::new(false);
    let parsed = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                bar.set_position(counter.load(Ordering::Relaxed));
                std::thread::sleep(Duration::from_millis(120));
            }
        });
        let parsed = read_inputs_streaming(&input.paths, &config, on_stream);
        done.store(true, Ordering::Relaxed);
        parsed
    });
    bar.finish_and_clear();
    let mut parsed = parsed;
    nothing_to_scan(&input.paths, &mut parsed);
    Ok(parsed)
}

/// No log stream at all in the inputs is not "no findings": each argument that could be read
/// is listed as unreadable, `nothing to scan` (exit 3).
fn nothing_to_scan(paths: &[PathBuf], parsed: &mut Parsed) {
    if !parsed.streams.is_empty() {
        return;
    }
    let skipped = match parsed.skipped.len() {
        0 => String::new(),
        n => format!(" ({n} files skipped by their names: see `oztrace stats`)"),
    };
    for path in paths {
        let display = path.to_string_lossy().into_owned();
        if !parsed.unreadable.iter().any(|u| u.path == display) {
            parsed.unreadable.push(oztrace_parser::input::Unreadable {
                path: display,
                reason: format!("nothing to scan: no log files found{skipped}"),
            });
        }
    }
}

/// A progress bar on standard error for large inputs read from a terminal session: a bar over
/// the bytes on disk, or a byte counter when compressed inputs make the total unknown.
fn progress_bar(paths: &[PathBuf]) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let mut size = DiskSize::default();
    for path in paths {
        size.add(path, 0);
    }
    // Logs compress about tenfold or better: a compressed file reads as ten times its size.
    if size.bytes + 9 * size.compressed_bytes <= PROGRESS_THRESHOLD {
        return None;
    }
    let (bar, template) = if size.compressed_bytes > 0 {
        (
            ProgressBar::no_length(),
            "{spinner} reading logs: {bytes} decompressed ({bytes_per_sec}, {elapsed})",
        )
    } else {
        (
            ProgressBar::new(size.bytes),
            "reading logs [{bar:32}] {bytes}/{total_bytes} ({bytes_per_sec}, eta {eta})",
        )
    };
    let style = ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}

/// The inputs' size on disk, and how much of it is compressed (then bytes read exceed it).
#[derive(Default)]
struct DiskSize {
    bytes: u64,
    compressed_bytes: u64,
}

impl DiskSize {
    /// Directory trees deeper than this are not followed for the estimate.
    const MAX_DEPTH: usize = 32;

    fn add(&mut self, path: &Path, depth: usize) {
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            return;
        };
        if meta.is_dir() && depth < Self::MAX_DEPTH {
            for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
                self.add(&entry.path(), depth + 1);
            }
        } else if meta.is_file() {
            self.bytes += meta.len();
            let name = path.to_string_lossy();
            if [
                ".gz", ".tgz", ".zst", ".zstd", ".bz2", ".xz", ".lz4", ".zip",
            ]
            .iter()
            .any(|ext| name.ends_with(ext))
            {
                self.compressed_bytes += meta.len();
            }
        }
    }
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
        warn(&format!("cannot read {}: {}", item.path, item.reason));
    }
}

/// Moves the typed events out of the streams into one time order.
fn build_trace(parsed: &mut Parsed, skew_ms: i64) -> Trace {
    let mut streams: Vec<_> = parsed
        .streams
        .iter_mut()
        .map(|s| std::mem::take(&mut s.events))
        .collect();
    oztrace_parser::catalog::om::merge_audit_copies(&mut streams, skew_ms);
    Trace::merge(streams, skew_ms)
}

/// `--set KEY=VALUE` pairs, each checked against the settings the rules read (exit 2 on an
/// unknown key or a bad value, before anything is read).
fn overrides(items: &[String]) -> Result<Vec<(String, String)>, Failure> {
    items
        .iter()
        .map(|item| {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| Failure::Usage(format!("--set `{item}`: expected KEY=VALUE")))?;
            let (key, value) = (key.trim(), value.trim());
            oztrace_rules::check_setting(key, value)
                .map_err(|e| Failure::Usage(format!("--set {e}")))?;
            Ok((key.to_string(), value.to_string()))
        })
        .collect()
}

/// The settings of `ozone-site.xml` files in the inputs, then `--set`. A value of a setting the
/// rules read that does not parse is left out with a warning naming the file and key: the
/// default applies, and the report says so.
fn settings(parsed: &Parsed, overrides: &[(String, String)]) -> (Settings, Vec<String>) {
    let mut settings = Settings::default();
    let mut warnings = Vec::new();
    for config in parsed
        .configs
        .iter()
        .filter(|c| c.kind == ConfigKind::OzoneSiteXml)
    {
        for (key, value) in &config.properties {
            if let Some(doc) = oztrace_rules::setting_doc(key)
                && let Err(e) = doc.parse(value)
            {
                let instead = if overrides.iter().any(|(k, _)| k == key) {
                    "--set gives it".to_string()
                } else {
                    format!("the default {} applies", doc.default)
                };
                warnings.push(format!("{}: {key}: {e}; {instead}", config.display));
                continue;
            }
            settings.set(key, value, &config.display);
        }
    }
    for (key, value) in overrides {
        settings.set(key, value, "--set");
    }
    (settings, warnings)
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

/// What `scan` settles before it reads anything, so that a bad value is a usage error (exit 2)
/// with nothing analysed.
struct ScanPlan {
    rules: Vec<&'static dyn Rule>,
    settings: Vec<(String, String)>,
    window: Window,
    baseline: Option<Baseline>,
    report: Option<OutputFile>,
    write_baseline: Option<OutputFile>,
}

fn plan(args: &ScanArgs) -> Result<ScanPlan, Failure> {
    if args.each && args.format == ScanFormat::Sarif {
        return Err(Failure::Usage(
            "--each writes one report per input; SARIF is one log per run: scan each input alone"
                .into(),
        ));
    }
    let rules = selected_rules(args)?;
    let zones = TimeZones::from_specs(&args.input.tz).map_err(Failure::Usage)?;
    let zone = zones.for_host(None);
    let bound = |flag: &str, value: &Option<String>| {
        value
            .as_deref()
            .map(|v| parse_time_bound(v, zone).map_err(|e| Failure::Usage(format!("{flag}: {e}"))))
            .transpose()
    };
    let window = Window {
        since: bound("--since", &args.since)?,
        until: bound("--until", &args.until)?,
    };
    if let (Some(since), Some(until)) = (window.since, window.until)
        && since > until
    {
        return Err(Failure::Usage("--since is later than --until".into()));
    }
    let baseline = args
        .baseline
        .as_deref()
        .map(Baseline::load)
        .transpose()
        .map_err(Failure::Usage)?;
    let outputs: Vec<(&str, &Path)> = [
        ("--report", &args.report),
        ("--write-baseline", &args.write_baseline),
    ]
    .into_iter()
    .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
    .collect();
    refuse_inputs_as_outputs(&args.input.paths, &outputs)?;
    let create = |flag: &'static str, path: &Option<PathBuf>| {
        path.as_deref()
            .map(|p| OutputFile::create(flag, p))
            .transpose()
    };
    Ok(ScanPlan {
        rules,
        settings: overrides(&args.settings)?,
        window,
        baseline,
        report: create("--report", &args.report)?,
        write_baseline: create("--write-baseline", &args.write_baseline)?,
    })
}

fn scan(args: ScanArgs) -> Result<u8, Failure> {
    let mut plan = plan(&args)?;
    if !args.each {
        return scan_one(&args, &args.input, &mut plan);
    }
    // One cluster per argument; the exit status is the most severe of the runs (3 before 1).
    let mut worst = exit::OK;
    for path in &args.input.paths {
        let input = InputArgs {
            paths: vec![path.clone()],
            ..args.input.clone()
        };
        match args.format {
            ScanFormat::Text => emit(&format!("== {}\n", path.display()))?,
            ScanFormat::Markdown => emit(&format!("<!-- oztrace: {} -->\n", path.display()))?,
            _ => {}
        }
        let code = scan_one(&args, &input, &mut plan)?;
        worst = match (worst, code) {
            (exit::UNREADABLE, _) | (_, exit::UNREADABLE) => exit::UNREADABLE,
            (exit::FINDINGS, _) | (_, exit::FINDINGS) => exit::FINDINGS,
            _ => exit::OK,
        };
    }
    Ok(worst)
}

/// `--since` / `--until`: events outside are dropped before analysis.
#[derive(Debug, Clone, Copy, Default)]
struct Window {
    since: Option<i64>,
    until: Option<i64>,
}

impl Window {
    fn is_open(&self) -> bool {
        self.since.is_none() && self.until.is_none()
    }

    fn contains(&self, ts: i64) -> bool {
        self.since.is_none_or(|s| ts >= s) && self.until.is_none_or(|u| ts <= u)
    }

    /// Keeps each stream's events inside the window. An untimed event (a line without a time
    /// of its own) goes with the timed event before it in its file, as the trace places it; a
    /// stream with no time at all cannot be placed and is dropped.
    fn apply(&self, parsed: &mut Parsed) {
        if self.is_open() {
            return;
        }
        for stream in &mut parsed.streams {
            let mut placed = stream.events.iter().find_map(|e| e.ts);
            stream.events.retain(|event| {
                if event.ts.is_some() {
                    placed = event.ts;
                }
                placed.is_some_and(|ts| self.contains(ts))
            });
        }
    }
}

fn scan_one(args: &ScanArgs, input: &InputArgs, plan: &mut ScanPlan) -> Result<u8, Failure> {
    let mut parsed = read(input, Keep::Typed)?;
    let (settings, warnings) = settings(&parsed, &plan.settings);
    for warning in &warnings {
        warn(warning);
    }
    let logging = logging_coverage(&parsed);
    plan.window.apply(&mut parsed);
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
    let output = oztrace_rules::run(&context, &plan.rules);
    let inputs = ReportInputs::from_parsed(&parsed);
    let mut document = report::Document::build(&analysis, &output, inputs);
    document.coverage = rule_coverage(&plan.rules, &parsed, &analysis);
    document.warnings = warnings;
    if !plan.window.is_open() {
        document.window = Some(report::WindowDoc {
            since: plan.window.since.map(format_rfc3339),
            until: plan.window.until.map(format_rfc3339),
            events: analysis.trace.events.len() as u64,
        });
    }
    if let Some(file) = plan.write_baseline.take() {
        let json = Baseline::of(&document)
            .to_json()
            .map_err(|e| Failure::Internal(format!("building the baseline: {e}")))?;
        file.write_and_commit(&json)?;
    }
    if let Some(baseline) = &plan.baseline {
        document.suppress(baseline);
    }
    let rendered = if args.each {
        report::render_for_input(&document, args.format, args.color, &input.paths[0])
    } else {
        report::render(&document, args.format, args.color)
    }
    .map_err(|e| Failure::Internal(format!("rendering the report: {e}")))?;
    emit(&rendered)?;
    if let Some(file) = plan.report.take() {
        file.write_and_commit(&report::html::page(&document))?;
    }
    warn_unreadable(&parsed);
    let threshold = match args.fail_on {
        FailOn::Possible => Confidence::Possible,
        FailOn::Likely => Confidence::Likely,
        FailOn::Confirmed => Confidence::Confirmed,
    };
    Ok(scan_status(
        !parsed.unreadable.is_empty(),
        &document,
        threshold,
    ))
}

/// Which selected rules the logs let run: the (host, component) pairs of the streams, and of the
/// typed events (compose and mixed streams carry several components).
fn rule_coverage(
    rules: &[&'static dyn Rule],
    parsed: &Parsed,
    analysis: &Analysis,
) -> Vec<oztrace_rules::coverage::Coverage> {
    let mut seen: std::collections::BTreeSet<(&str, Component)> = parsed
        .streams
        .iter()
        .filter(|s| s.summary.records > 0)
        .map(|s| (&*s.host, s.component))
        .collect();
    seen.extend(
        analysis
            .trace
            .events
            .iter()
            .map(|e| (&*e.host, e.component)),
    );
    let present = seen.into_iter().map(|(h, c)| (h.to_string(), c)).collect();
    let docs: Vec<_> = rules.iter().map(|r| r.doc()).collect();
    oztrace_rules::coverage::coverage(&docs, &present)
}

/// The contract's exit status of a scan that ran: 3 when an input could not be read, else 1
/// when a finding left after the baseline is at or above `--fail-on`, else 0.
fn scan_status(unreadable: bool, document: &report::Document, threshold: Confidence) -> u8 {
    if unreadable {
        exit::UNREADABLE
    } else if document.fails(threshold) {
        exit::FINDINGS
    } else {
        exit::OK
    }
}

/// `events --all` keeps every record, `events` the typed ones.
fn keep_for(all: bool) -> Keep {
    if all { Keep::All } else { Keep::Typed }
}

fn events(args: EventsArgs) -> Result<u8, Failure> {
    if args.format == EventsFormat::Parquet && args.output.is_none() {
        return Err(Failure::Usage("--format parquet needs -o FILE".into()));
    }
    if let Some(path) = &args.output {
        refuse_inputs_as_outputs(&args.input.paths, &[("-o", path)])?;
    }
    let mut output = args
        .output
        .as_deref()
        .map(|path| OutputFile::create("-o", path))
        .transpose()?;
    if args.format != EventsFormat::Jsonl {
        // CSV and Parquet are written as one table: every event is held until the end.
        let mut parsed = read(&args.input, keep_for(args.all))?;
        let mut streams: Vec<_> = parsed
            .streams
            .iter_mut()
            .map(|s| std::mem::take(&mut s.events))
            .collect();
        oztrace_parser::catalog::om::merge_audit_copies(&mut streams, args.input.skew);
        let events = streams.iter().flatten();
        let target = output.as_ref().map(OutputFile::temp_path);
        crate::export::write_table(events, args.format, target)?;
        output.map(OutputFile::commit).transpose()?;
        warn_unreadable(&parsed);
        return Ok(input_exit(&parsed));
    }
    let mut out: Box<dyn Write + '_> = match &mut output {
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
        Some(file) => Box::new(std::io::BufWriter::new(file.writer())),
    };
    // JSON Lines stream out as each file is read; only OM audit streams wait until the end,
    // since every OM writes the same audit line and the copies merge into one event.
    let mut written: Result<(), Failure> = Ok(());
    let mut parsed = read_streaming(&args.input, keep_for(args.all), &mut |stream| {
        if stream.component != Component::OmAudit && written.is_ok() {
            written = crate::export::write_jsonl(stream.events.iter(), &mut *out);
            stream.events = Vec::new();
        }
    })?;
    written?;
    let mut audit: Vec<Vec<Event>> = parsed
        .streams
        .iter_mut()
        .map(|s| std::mem::take(&mut s.events))
        .filter(|events| !events.is_empty())
        .collect();
    oztrace_parser::catalog::om::merge_audit_copies(&mut audit, args.input.skew);
    let result = crate::export::write_jsonl(audit.iter().flatten(), &mut *out);
    result?;
    drop(out);
    output.map(OutputFile::commit).transpose()?;
    warn_unreadable(&parsed);
    Ok(input_exit(&parsed))
}

fn replay(args: ReplayArgs) -> Result<u8, Failure> {
    let entity: Entity = args
        .entity
        .parse()
        .map_err(|e| Failure::Usage(format!("--entity `{}`: {e}", args.entity)))?;
    let mut parsed = read(&args.input, Keep::Typed)?;
    let trace = build_trace(&mut parsed, args.input.skew);
    let analysis = Analysis::run(
        trace,
        ReplayOptions {
            retain_ms: args.retain,
        },
    );
    emit(&report::replay_lines(&analysis, &entity))?;
    warn_unreadable(&parsed);
    Ok(input_exit(&parsed))
}

fn stats(args: StatsArgs) -> Result<u8, Failure> {
    // Stats count; they keep no events.
    let parsed = read(&args.input, Keep::Nothing)?;
    let out = match args.format {
        StatsFormat::Text => report::stats_text(&parsed),
        StatsFormat::Json => report::stats_json(&parsed),
    };
    emit(&out)?;
    warn_unreadable(&parsed);
    Ok(input_exit(&parsed))
}

fn explain(args: ExplainArgs) -> Result<u8, Failure> {
    if args.kinds {
        emit(&report::kinds_table())?;
        return Ok(exit::OK);
    }
    let id = args.rule.unwrap_or_default();
    let rules = oztrace_rules::registry();
    let rule = rules
        .iter()
        .find(|r| r.doc().id == id)
        .ok_or_else(|| Failure::Usage(format!("unknown rule `{id}` (see `oztrace rules`)")))?;
    emit(&report::explain(rule.doc()))?;
    Ok(exit::OK)
}

/// RFC 3339 or `-` for untimed events, for text views.
pub fn time_or_dash(ts: Option<i64>) -> String {
    ts.map_or_else(|| "-".to_string(), format_rfc3339)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::baseline::Baseline;
    use crate::report::fixture;

    #[test]
    fn scan_status_follows_the_contract_order() {
        let mut document = fixture::document();
        // The fixture's findings: one possible, one confirmed.
        assert_eq!(
            scan_status(false, &document, Confidence::Possible),
            exit::FINDINGS
        );
        assert_eq!(
            scan_status(false, &document, Confidence::Confirmed),
            exit::FINDINGS
        );
        assert_eq!(
            scan_status(true, &document, Confidence::Possible),
            exit::UNREADABLE
        );
        let mut confirmed_only = Baseline::of(&document);
        confirmed_only
            .fingerprints
            .retain(|k| k.rule == "resurrected-container");
        document.suppress(&confirmed_only);
        assert_eq!(scan_status(false, &document, Confidence::Likely), exit::OK);
        assert_eq!(
            scan_status(false, &document, Confidence::Possible),
            exit::FINDINGS
        );
        let everything = Baseline::of(&fixture::document());
        document.suppress(&everything);
        assert_eq!(
            scan_status(false, &document, Confidence::Possible),
            exit::OK
        );
    }

    #[test]
    fn the_time_window_drops_events_outside_it_and_keeps_untimed_lines_with_their_neighbour() {
        use crate::pipeline::StreamOutcome;
        let analysis = fixture::analysis();
        let events: Vec<_> = analysis.trace.events.clone();
        let stream = |events| StreamOutcome {
            file: Arc::from("f"),
            host: Arc::from("h"),
            component: oztrace_parser::source::Component::Scm,
            summary: Default::default(),
            bytes: 0,
            typed: 0,
            unrecognized: 0,
            info_records: 0,
            info_typed: 0,
            shapes: Default::default(),
            verbose_loggers: Vec::new(),
            events,
        };
        let mut parsed = Parsed {
            streams: vec![stream(events)],
            ..Parsed::default()
        };
        // Events at T0, T0+500, T0+1200, untimed, T0+3000.
        let window = Window {
            since: Some(fixture::T0 + 500),
            until: Some(fixture::T0 + 1200),
        };
        window.apply(&mut parsed);
        let lines: Vec<u64> = parsed.streams[0].events.iter().map(|e| e.line).collect();
        // The untimed line (78) follows the event at T0+1200 in the stream.
        assert_eq!(lines, [77, 9, 78]);
        Window::default().apply(&mut parsed);
        assert_eq!(parsed.streams[0].events.len(), 3);
    }
}
