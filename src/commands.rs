//! The commands: each reads the inputs once and prints one view of them.

use crate::cli::{
    Cli, ColorChoice, Command, ContainersArgs, ContainersFormat, DisplayArgs, EventsArgs,
    EventsFormat, ExplainArgs, FailOn, InputArgs, ManArgs, ReplayArgs, RulesFormat, ScanArgs,
    ScanFormat, SortOrder, StatsArgs, StatsFormat,
};
use crate::dataset::{self, Dataset};
use crate::export::{EventLines, RowFormat};
use crate::output::{OutputFile, emit_bytes, refuse_inputs_as_outputs, warn, write_failure};
use crate::report::baseline::Baseline;
use crate::report::{self, ReportInputs, View};
use crate::when::{Bound, DisplayZone, now_ms, parse_time_bound};
use crate::{Failure, exit};
use clap::CommandFactory;
use indicatif::{ProgressBar, ProgressStyle};
use oztrace_analyzer::load::{
    Keep, Parsed, Progress, ReadConfig, Rendered, Stage, StreamOutcome, Timings, Window, in_order,
    read_inputs_streaming,
};
use oztrace_analyzer::machines::MachineSet;
use oztrace_analyzer::{LoadOptions, Loaded, ReplayOptions};
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
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Inputs larger than this (on disk) get a progress bar when standard error is a terminal.
const PROGRESS_THRESHOLD: u64 = 64 << 20;

pub fn run(cli: Cli) -> Result<u8, Failure> {
    // `--color` overrides the environment (NO_COLOR, CLICOLOR_FORCE) for every writer.
    match cli.color {
        ColorChoice::Always => anstream::ColorChoice::Always.write_global(),
        ColorChoice::Never => anstream::ColorChoice::Never.write_global(),
        ColorChoice::Auto => {}
    }
    match cli.command {
        Command::Scan(args) => scan(args),
        Command::Events(args) => events(args),
        Command::Replay(args) => replay(args),
        Command::Containers(args) => containers(args),
        Command::Stats(args) => stats(args),
        Command::Rules(args) => {
            let rules = oztrace_rules::registry();
            match args.format {
                RulesFormat::Text => print_styled(&report::rules_table(&rules))?,
                RulesFormat::Markdown => emit_bytes(report::rules_markdown(&rules).as_bytes())?,
            }
            Ok(exit::OK)
        }
        Command::Explain(args) => explain(args),
        Command::Query(args) => crate::query::run(args),
        Command::Completions(args) => {
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut Cli::command(), "oztrace", &mut script);
            emit_bytes(&script)?;
            Ok(exit::OK)
        }
        Command::Man(args) => man(args),
    }
}

/// Whether text written to standard output is coloured: `--color`, else NO_COLOR,
/// CLICOLOR_FORCE and whether it is a terminal (anstream's rules).
fn stdout_color() -> bool {
    anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
}

/// Writes a text view with anstyle styles to standard output; anstream strips the styles when
/// colour is off.
fn print_styled(text: &str) -> Result<(), Failure> {
    let mut out = anstream::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| write_failure("to standard output", e))
}

fn display_zone(display: &DisplayArgs) -> Result<DisplayZone, Failure> {
    DisplayZone::parse(&display.display_tz).map_err(Failure::Usage)
}

/// `oztrace man`: the main page on standard output, or every page into `--dir`.
fn man(args: ManArgs) -> Result<u8, Failure> {
    let Some(dir) = args.dir else {
        let mut page = Vec::new();
        clap_mangen::Man::new(Cli::command())
            .render(&mut page)
            .map_err(|e| Failure::Internal(format!("rendering the man page: {e}")))?;
        emit_bytes(&page)?;
        return Ok(exit::OK);
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| Failure::Usage(format!("--dir {}: {e}", dir.display())))?;
    // oztrace.1, and oztrace-scan.1 … for every command, as oztrace.1 refers to them.
    clap_mangen::generate_to(Cli::command(), &dir)
        .map_err(|e| Failure::Internal(format!("writing man pages into {}: {e}", dir.display())))?;
    Ok(exit::OK)
}

fn read(input: &InputArgs, keep: Keep) -> Result<Parsed, Failure> {
    read_streaming(input, keep, &mut |_| {})
}

/// Reads the inputs, handing each stream to `on_stream` in input order as soon as it is read
/// (see `load::read_inputs_streaming`).
fn read_streaming(
    input: &InputArgs,
    keep: Keep,
    on_stream: &mut dyn FnMut(&mut StreamOutcome),
) -> Result<Parsed, Failure> {
    let config = read_config(input, keep)?;
    let mut parsed = with_progress(&input.paths, config, |config| {
        read_inputs_streaming(&input.paths, config, on_stream)
    });
    nothing_to_scan(&input.paths, &mut parsed);
    Ok(parsed)
}

/// Reads and analyses the inputs (`scan`, `replay`, `containers`).
/// `prefilter`: the rules `scan` runs, whose kinds (with the machines') are the only ones
/// parsed into events; `None` keeps every typed event. `focus`: the entity `replay` shows, whose
/// events are kept whatever their kind.
fn load(
    input: &InputArgs,
    window: Window,
    retain_ms: i64,
    prefilter: Option<&[&'static dyn Rule]>,
    focus: Option<&Entity>,
    progress: bool,
) -> Result<Loaded, Failure> {
    let read = read_config(input, Keep::Typed)?;
    // Without a progress bar, no inputs to measure for one (`scan --each` runs several at once).
    let paths: &[PathBuf] = if progress { &input.paths } else { &[] };
    let mut loaded = with_progress(paths, read, |read| {
        oztrace_analyzer::load(
            &input.paths,
            &LoadOptions {
                read: read.clone(),
                window,
                skew_ms: input.skew,
                replay: ReplayOptions {
                    retain_ms,
                    // `replay` shows every machine's steps; a scan needs those its rules read.
                    machines: match (prefilter, focus) {
                        (Some(rules), None) => oztrace_rules::machines(rules),
                        _ => MachineSet::ALL,
                    },
                },
                prefilter: prefilter.is_some(),
                rule_kinds: oztrace_rules::consumed(prefilter.unwrap_or_default()),
                focus: focus.cloned(),
            },
        )
    });
    nothing_to_scan(&input.paths, &mut loaded.parsed);
    Ok(loaded)
}

/// Threads by default: every core.
fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// How `input` is read, each argument that does not exist named on standard error.
fn read_config(input: &InputArgs, keep: Keep) -> Result<ReadConfig, Failure> {
    for path in &input.paths {
        if path.as_os_str() != "-" && !path.exists() {
            // A missing argument is still analysed around: it is reported as unreadable.
            warn(&format!("{}: no such file or directory", path.display()));
        }
    }
    config_of(input, keep)
}

/// How `input` is read ([`read_config`] without a word, for a second read of the same inputs).
fn config_of(input: &InputArgs, keep: Keep) -> Result<ReadConfig, Failure> {
    let zones = TimeZones::from_specs(&input.tz).map_err(Failure::Usage)?;
    let forced_layout = match &input.layout {
        Some(pattern) => Some(Arc::new(
            Layout::custom(pattern).map_err(|e| Failure::Usage(format!("--layout: {e}")))?,
        )),
        None => None,
    };
    let jobs = input.jobs.unwrap_or_else(default_jobs);
    Ok(ReadConfig {
        zones,
        forced_layout,
        keep,
        jobs,
        progress: None,
        skip: None,
        kinds: None,
        window: Window::default(),
        limits: oztrace_parser::input::Limits {
            max_expand: input.max_expand,
        },
        trace: false,
        audit_splits: None,
        entities: None,
    })
}

/// Runs `work` with a progress bar on standard error when the inputs are large and standard
/// error is a terminal: bytes read, then the merge and analysis stages.
fn with_progress<T>(
    paths: &[PathBuf],
    mut config: ReadConfig,
    work: impl FnOnce(&ReadConfig) -> T,
) -> T {
    let Some(bar) = progress_bar(paths) else {
        return work(&config);
    };
    let progress = Arc::new(Progress::default());
    config.progress = Some(Arc::clone(&progress));
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut shown = Stage::Reading;
            while !done.load(Ordering::Relaxed) {
                let stage = progress.stage();
                if stage != shown {
                    shown = stage;
                    bar.set_style(
                        ProgressStyle::with_template(&format!(
                            "{{spinner}} {}: {{bytes}} read ({{elapsed}})",
                            stage.as_str()
                        ))
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                    );
                }
                bar.set_position(progress.bytes());
                std::thread::sleep(Duration::from_millis(120));
            }
        });
        let result = work(&config);
        done.store(true, Ordering::Relaxed);
        result
    });
    bar.finish_and_clear();
    result
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
    let size = DiskSize::of(paths);
    if size.estimate() <= PROGRESS_THRESHOLD {
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
    fn of(paths: &[PathBuf]) -> DiskSize {
        let mut size = DiskSize::default();
        for path in paths {
            size.add(path, 0);
        }
        size
    }

    /// The bytes that will be read: logs compress about tenfold or better, so a compressed file
    /// counts as ten times its size.
    fn estimate(&self) -> u64 {
        self.bytes + 9 * self.compressed_bytes
    }

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

/// 4 when reading an input failed inside oztrace, else 3 when an input could not be read.
fn input_exit(parsed: &Parsed) -> u8 {
    if !parsed.errors.is_empty() {
        exit::INTERNAL
    } else if !parsed.unreadable.is_empty() {
        exit::UNREADABLE
    } else {
        exit::OK
    }
}

fn warn_unreadable(parsed: &Parsed) {
    for line in unreadable_warnings(parsed) {
        warn(&line);
    }
}

/// The standard-error lines (after `oztrace: `) that name the inputs that could not be read.
fn unreadable_warnings(parsed: &Parsed) -> Vec<String> {
    let unreadable = parsed
        .unreadable
        .iter()
        .map(|item| format!("cannot read {}: {}", item.path, item.reason));
    let errors = parsed
        .errors
        .iter()
        .map(|item| format!("{}: {}", item.path, item.reason));
    unreadable.chain(errors).collect()
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
/// rules read that does not parse is left out with a warning naming the file and key, and a file
/// that is not well-formed XML with one naming the file and the reason: the defaults apply, and
/// the report says so.
fn settings(parsed: &Parsed, overrides: &[(String, String)]) -> (Settings, Vec<String>) {
    let mut settings = Settings::default();
    let mut warnings = Vec::new();
    for config in parsed
        .configs
        .iter()
        .filter(|c| c.kind == ConfigKind::OzoneSiteXml)
    {
        if let Some(reason) = &config.malformed {
            let instead = if overrides.is_empty() {
                "the defaults apply"
            } else {
                "--set and else the defaults apply"
            };
            warnings.push(format!(
                "{}: not well-formed XML: {reason}; none of its settings are read, {instead}",
                config.display
            ));
            continue;
        }
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

/// The selected rules (clap has checked the ids against the registry).
fn selected_rules(args: &ScanArgs) -> Vec<&'static dyn Rule> {
    oztrace_rules::registry()
        .into_iter()
        .filter(|r| args.rules.is_empty() || args.rules.iter().any(|id| id == r.doc().id))
        .filter(|r| !args.skip.iter().any(|id| id == r.doc().id))
        .filter(|r| args.family.is_none_or(|f| f.family() == r.doc().family))
        .collect()
}

/// What `scan` settles before it reads anything, so that a bad value is a usage error (exit 2)
/// with nothing analysed.
struct ScanPlan {
    rules: Vec<&'static dyn Rule>,
    settings: Vec<(String, String)>,
    window: Window,
    view: View,
    baseline: Option<Baseline>,
    report: Option<OutputFile>,
    write_baseline: Option<OutputFile>,
}

fn plan(args: &ScanArgs) -> Result<ScanPlan, Failure> {
    let rules = selected_rules(args);
    let window = window_of(&args.input)?;
    let view = View {
        color: args.format == ScanFormat::Text && stdout_color(),
        wide: args.wide,
        zone: display_zone(&args.display)?,
    };
    let baseline = args
        .baseline
        .as_deref()
        .map(|path| Baseline::load(path, now_ms()))
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
        view,
        baseline,
        report: create("--report", &args.report)?,
        write_baseline: create("--write-baseline", &args.write_baseline)?,
    })
}

fn scan(args: ScanArgs) -> Result<u8, Failure> {
    let mut plan = plan(&args)?;
    if !args.each {
        let (code, document) = scan_one(&args, &args.input, &mut plan)?;
        write_stdout(&render(&document, &args, &plan.view, None)?)?;
        return Ok(code);
    }
    // One cluster per argument; the exit status is the most severe of the runs (3 before 1).
    let paths = &args.input.paths;
    let mut dataset = match &args.dataset {
        Some(dir) => Some((
            Dataset::create(dir, args.events)?,
            dataset::bundle_ids(paths)?,
        )),
        None => None,
    };
    // `--events`: each bundle's events file, written as it is analysed.
    let events: Vec<Option<PathBuf>> = (0..paths.len())
        .map(|i| {
            let (dataset, ids) = dataset.as_ref()?;
            dataset.events_file(&ids[i])
        })
        .collect();
    // Bundles are analysed `jobs` at a time, each read on its share of the threads; their
    // reports are written in input order as they come.
    let jobs = args.input.jobs.unwrap_or_else(default_jobs).max(1);
    let at_once = jobs.min(paths.len()).max(1);
    let input_of = |i: usize| InputArgs {
        paths: vec![paths[i].clone()],
        jobs: Some((jobs / at_once).max(1)),
        ..args.input.clone()
    };
    let work = |i: usize| {
        let input = input_of(i);
        let events = events[i].as_deref();
        let analysed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            analyse(&args, &input, &plan, events)
        }))
        .unwrap_or_else(|panic| {
            Err(Failure::Internal(format!(
                "analysing {}: {}",
                paths[i].display(),
                panic_message(&panic)
            )))
        });
        (i, analysed)
    };
    let mut worst = exit::OK;
    let mut total = EachTotal::default();
    let mut runs = Vec::new();
    let mut stopped: Option<Failure> = None;
    let mut stdout_closed = false;
    let mut deliver = |(i, analysed): (usize, Result<Analysed, Failure>)| {
        if stopped.is_some() {
            return;
        }
        let path = &paths[i];
        let (code, document) = match analysed {
            Ok(Analysed {
                mut document,
                inputs,
                warnings,
            }) => {
                for line in warnings {
                    warn(&line);
                }
                let code = settle(&args, &plan, &mut document, inputs);
                (code, Some(document))
            }
            // A bundle that failed inside oztrace is named, and the others are still analysed.
            Err(Failure::Internal(message)) => {
                warn(&format!("internal error: {message}"));
                if let Some((dataset, ids)) = &mut dataset {
                    let error = format!("internal error: {message}");
                    let failed = dataset::Outcome::Failed {
                        code: exit::INTERNAL,
                        error,
                    };
                    dataset.add(&ids[i], path, failed);
                }
                (exit::INTERNAL, None)
            }
            Err(failure) => {
                stopped = Some(failure);
                return;
            }
        };
        if let Some(document) = document {
            total.add(&document, code);
            if let Some((dataset, ids)) = &mut dataset {
                let scanned = dataset::Outcome::Scanned {
                    code,
                    document: &document,
                };
                dataset.add(&ids[i], path, scanned);
            }
            if !stdout_closed {
                match each_output(&args, &plan, path, &document, &mut runs) {
                    Ok(()) => {}
                    // The dataset is the run's product: a closed pipe ends only the reports.
                    Err(Failure::OutputClosed) if dataset.is_some() => stdout_closed = true,
                    Err(failure) => {
                        stopped = Some(failure);
                        return;
                    }
                }
            }
        }
        worst = match (worst, code) {
            (exit::INTERNAL, _) | (_, exit::INTERNAL) => exit::INTERNAL,
            (exit::UNREADABLE, _) | (_, exit::UNREADABLE) => exit::UNREADABLE,
            (exit::FINDINGS, _) | (_, exit::FINDINGS) => exit::FINDINGS,
            _ => exit::OK,
        };
    };
    in_order(paths.len(), at_once, &work, &mut deliver)
        .map_err(|e| Failure::Internal(format!("cannot start the analysis threads: {e}")))?;
    if let Some(failure) = stopped {
        return Err(failure);
    }
    if let Some((dataset, _)) = dataset {
        dataset.finish()?;
    }
    if stdout_closed {
        return Ok(worst);
    }
    if args.format == ScanFormat::Sarif {
        let log = report::sarif_log(runs);
        write_stdout(&format!(
            "{}\n",
            serde_json::to_string_pretty(&log)
                .map_err(|e| Failure::Internal(format!("rendering the report: {e}")))?
        ))?;
    }
    // The total: part of the text for people, on standard error for the formats machines read
    // (so that standard output stays one document per input, or one SARIF log).
    let line = total.line();
    match args.format {
        ScanFormat::Text => write_stdout(&format!("\n== total: {line}\n"))?,
        ScanFormat::Markdown => write_stdout(&format!("\n**Total:** {line}\n"))?,
        _ => warn(&format!("total: {line}")),
    }
    Ok(worst)
}

/// Writes one input's report of `scan --each` (SARIF: keeps its run for the one log).
fn each_output(
    args: &ScanArgs,
    plan: &ScanPlan,
    path: &Path,
    document: &report::Document,
    runs: &mut Vec<serde_json::Value>,
) -> Result<(), Failure> {
    match args.format {
        // SARIF is one log: a run per input, written when every input is analysed.
        ScanFormat::Sarif => {
            runs.push(report::sarif_run(document, Some(path)));
            Ok(())
        }
        ScanFormat::Text => write_stdout(&format!(
            "== {}\n{}",
            path.display(),
            render(document, args, &plan.view, Some(path))?
        )),
        ScanFormat::Markdown => write_stdout(&format!(
            "<!-- oztrace: {} -->\n{}",
            path.display(),
            render(document, args, &plan.view, Some(path))?
        )),
        ScanFormat::Json | ScanFormat::Jsonl => {
            write_stdout(&render(document, args, &plan.view, Some(path))?)
        }
    }
}

/// What a caught panic says.
fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// The sum over `scan --each` runs.
#[derive(Debug, Default)]
struct EachTotal {
    inputs: u64,
    with_findings: u64,
    findings: u64,
    suppressed: u64,
    unreadable: u64,
    by_severity: std::collections::BTreeMap<oztrace_rules::Severity, u64>,
}

impl EachTotal {
    fn add(&mut self, document: &report::Document, code: u8) {
        self.inputs += 1;
        self.findings += document.findings.len() as u64;
        self.suppressed += document.suppressed;
        if !document.findings.is_empty() {
            self.with_findings += 1;
        }
        if code == exit::UNREADABLE {
            self.unreadable += 1;
        }
        for f in &document.findings {
            *self.by_severity.entry(f.severity_rank()).or_default() += 1;
        }
    }

    fn line(&self) -> String {
        let mut line = format!(
            "{} inputs, {} with findings; {} findings",
            self.inputs, self.with_findings, self.findings
        );
        if !self.by_severity.is_empty() {
            let parts: Vec<String> = self
                .by_severity
                .iter()
                .map(|(severity, n)| format!("{n} {}", severity.as_str()))
                .collect();
            line.push_str(&format!(" ({})", parts.join(", ")));
        }
        line.push_str(&format!(
            "; {} suppressed by the baseline; {} inputs with unreadable files",
            self.suppressed, self.unreadable
        ));
        line
    }
}

fn render(
    document: &report::Document,
    args: &ScanArgs,
    view: &View,
    each_input: Option<&Path>,
) -> Result<String, Failure> {
    match each_input {
        Some(input) => report::render_for_input(document, args.format, view, input),
        None => report::render(document, args.format, view),
    }
    .map_err(|e| Failure::Internal(format!("rendering the report: {e}")))
}

fn write_stdout(text: &str) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| write_failure("the report", e))
}

/// `--since` / `--until` of the input options, read in the `--tz` default zone; a usage error
/// when a bound is not a time or the window is empty.
fn window_of(input: &InputArgs) -> Result<Window, Failure> {
    let zones = TimeZones::from_specs(&input.tz).map_err(Failure::Usage)?;
    let zone = zones.for_host(None);
    let now = now_ms();
    let bound = |flag: &str, value: &Option<String>, end| {
        value
            .as_deref()
            .map(|v| {
                parse_time_bound(v, zone, end, now)
                    .map_err(|e| Failure::Usage(format!("{flag}: {e}")))
            })
            .transpose()
    };
    let window = Window {
        since: bound("--since", &input.since, Bound::Since)?,
        until: bound("--until", &input.until, Bound::Until)?,
    };
    if let (Some(since), Some(until)) = (window.since, window.until)
        && since > until
    {
        return Err(Failure::Usage("--since is later than --until".into()));
    }
    Ok(window)
}

/// The report's account of the window, when there is one.
fn window_doc(window: &Window, events: u64) -> Option<report::WindowDoc> {
    (!window.is_open()).then(|| report::WindowDoc {
        since: window.since.map(format_rfc3339),
        until: window.until.map(format_rfc3339),
        events,
    })
}

/// One cluster analysed: its document before any baseline, the exit status its inputs earn
/// (4, 3 or 0) and the lines naming what could not be read.
struct Analysed {
    document: report::Document,
    inputs: u8,
    warnings: Vec<String>,
}

/// Analyses one cluster; with `events` (`--dataset … --events`), its typed events are also
/// written to the bundle's events file.
fn analyse(
    args: &ScanArgs,
    input: &InputArgs,
    plan: &ScanPlan,
    events: Option<&Path>,
) -> Result<Analysed, Failure> {
    let prefilter = (!args.no_prefilter).then_some(plan.rules.as_slice());
    let progress = !args.each;
    let Loaded {
        parsed,
        analysis,
        timings,
        whole,
    } = load(input, plan.window, args.retain, prefilter, None, progress)?;
    let (settings, setting_warnings) = settings(&parsed, &plan.settings);
    let logging = logging_coverage(&parsed);
    let context = Context {
        analysis: &analysis,
        settings: &settings,
        logging: &logging,
    };
    let rules_started = Instant::now();
    let output = oztrace_rules::run(&context, &plan.rules);
    if args.timings {
        let events = analysis.trace.len();
        warn(&timings_line(
            input,
            &parsed,
            events,
            &timings,
            rules_started.elapsed(),
        ));
    }
    let inputs = ReportInputs::from_parsed(&parsed);
    let mut document = report::Document::build(&analysis, &output, inputs);
    // Events of the window analysed, and those no rule reads that were only counted.
    let unkept: u64 = parsed.streams.iter().map(|s| s.unkept_in_window).sum();
    document.window = window_doc(&plan.window, analysis.trace.len() as u64 + unkept);
    document.hosts = report::HostSpan::of(&parsed);
    document.rules_run = plan.rules.iter().map(|r| r.doc().id).collect();
    document.coverage = rule_coverage(&plan.rules, &parsed);
    if let Some(file) = events {
        let analysed = whole.then_some(&analysis.trace);
        write_bundle_events(input, plan.window, file, analysed)?;
    }
    let warnings = (setting_warnings.iter().cloned())
        .chain(unreadable_warnings(&parsed))
        .collect();
    document.warnings = setting_warnings;
    let inputs = input_exit(&parsed);
    // Freeing a large trace takes about as long as merging it: another thread does it while the
    // report is written (the process may end first, which frees it all at once).
    std::thread::spawn(move || drop((analysis, parsed)));
    Ok(Analysed {
        document,
        inputs,
        warnings,
    })
}

/// `scan --each --dataset … --events`: the bundle's typed events inside `window` into its events
/// file, in time order, as `events --format parquet` writes them (the `bundle` column left to the
/// partition). They are those of `analysed`, a trace of every typed event, when the analysis
/// read one (no prefilter: asked so, or standard input, which can be read only once); else they
/// stream from a read of their own, so that the analysis keeps its prefilter and neither holds
/// every event.
#[cfg(feature = "parquet")]
fn write_bundle_events(
    input: &InputArgs,
    window: Window,
    path: &Path,
    analysed: Option<&oztrace_analyzer::trace::Trace>,
) -> Result<(), Failure> {
    let mut file = dataset::writer::create_file(path)?;
    let table = crate::export::TableWriter::new(&mut file, false)?;
    let mut out = EventLines::new(Destination::Table(Box::new(table)));
    let format = RowFormat::Table { bundle: "" };
    if let Some(trace) = analysed {
        trace
            .iter()
            .try_for_each(|event| out.write(format, event))?;
        return out.into_inner().close();
    }
    let rows = EventRows {
        window,
        by_time: true,
        format_of: &|_| format,
    };
    let (read, out) = rows.write(input, &config_of(input, Keep::Typed)?, out);
    read?;
    out.close()
}

/// Without polars, `--dataset` is refused before anything is read.
#[cfg(not(feature = "parquet"))]
fn write_bundle_events(
    _input: &InputArgs,
    _window: Window,
    _path: &Path,
    _analysed: Option<&oztrace_analyzer::trace::Trace>,
) -> Result<(), Failure> {
    Err(Failure::Usage(dataset::writer::available().unwrap_err()))
}

/// `scan --timings`: each stage's wall time; the replay stage (merge, replay, rules) also in
/// events per second, the figure the replay benchmark gives. Its parts last milliseconds: to a
/// tenth of one.
fn timings_line(
    input: &InputArgs,
    parsed: &Parsed,
    events: usize,
    timings: &Timings,
    rules: Duration,
) -> String {
    let secs = |d: Duration| d.as_secs_f64();
    let bytes = parsed.bytes();
    let stage = timings.merge + timings.replay + rules;
    let inputs: Vec<String> = input
        .paths
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    format!(
        "timings for {}: read {:.1} MiB in {:.3} s ({:.0} MB/s); merged {events} events in \
         {:.4} s, replayed in {:.4} s, rules in {:.4} s: replay stage {:.2} M events/s on {} \
         thread(s)",
        inputs.join(" "),
        bytes as f64 / (1 << 20) as f64,
        secs(timings.read),
        bytes as f64 / 1e6 / secs(timings.read).max(1e-9),
        secs(timings.merge),
        secs(timings.replay),
        secs(rules),
        events as f64 / 1e6 / secs(stage).max(1e-9),
        timings.threads,
    )
}

/// Applies the baseline to a document and gives the exit status the run earns.
fn settle(args: &ScanArgs, plan: &ScanPlan, document: &mut report::Document, inputs: u8) -> u8 {
    if let Some(baseline) = &plan.baseline {
        document.suppress(baseline);
    }
    let threshold = match args.fail_on {
        FailOn::Possible => Confidence::Possible,
        FailOn::Likely => Confidence::Likely,
        FailOn::Confirmed => Confidence::Confirmed,
    };
    scan_status(inputs, document, threshold)
}

/// Analyses one cluster: its document, after the baseline, and the exit status it earns. Writes
/// the `--write-baseline` and `--report` files.
fn scan_one(
    args: &ScanArgs,
    input: &InputArgs,
    plan: &mut ScanPlan,
) -> Result<(u8, report::Document), Failure> {
    let Analysed {
        mut document,
        inputs,
        warnings,
    } = analyse(args, input, plan, None)?;
    if let Some(file) = plan.write_baseline.take() {
        let json = Baseline::of(&document)
            .to_json()
            .map_err(|e| Failure::Internal(format!("building the baseline: {e}")))?;
        file.write_and_commit(json.as_bytes())?;
    }
    let code = settle(args, plan, &mut document, inputs);
    if let Some(file) = plan.report.take() {
        file.write_and_commit(report::html::page(&document, &plan.view.zone).as_bytes())?;
    }
    for line in warnings {
        warn(&line);
    }
    Ok((code, document))
}

/// The contract's exit status of a scan that ran: the inputs' status when not 0 (4 when reading
/// failed inside oztrace, 3 when an input could not be read), else 1 when a finding left after
/// the baseline is at or above `--fail-on`, else 0.
fn scan_status(inputs: u8, document: &report::Document, threshold: Confidence) -> u8 {
    if inputs != exit::OK {
        inputs
    } else if document.fails(threshold) {
        exit::FINDINGS
    } else {
        exit::OK
    }
}

/// Which selected rules the logs let run: the (host, component) pairs of the streams, and of the
/// typed events (compose and mixed streams carry several components).
fn rule_coverage(
    rules: &[&'static dyn Rule],
    parsed: &Parsed,
) -> Vec<oztrace_rules::coverage::Coverage> {
    let seen: std::collections::BTreeSet<(&str, Component)> = parsed
        .streams
        .iter()
        .flat_map(|s| &s.sources)
        .map(|(host, component)| (&**host, *component))
        .collect();
    let present = seen.into_iter().map(|(h, c)| (h.to_string(), c)).collect();
    let docs: Vec<_> = rules.iter().map(|r| r.doc()).collect();
    oztrace_rules::coverage::coverage(&docs, &present)
}

/// `events --all` keeps every record, `events` the typed ones.
fn keep_for(all: bool) -> Keep {
    if all { Keep::All } else { Keep::Typed }
}

/// Inputs up to this size on disk (compressed ones counted tenfold) are time-sorted by default
/// in `events --format jsonl`; larger ones stream in input order unless `--sort time` asks.
const SORT_BY_DEFAULT_BELOW: u64 = 256 << 20;

/// How much of `events --format jsonl` output is gathered before each write call.
const EVENTS_BUFFER_BYTES: usize = 256 << 10;

fn events(args: EventsArgs) -> Result<u8, Failure> {
    if args.format == EventsFormat::Parquet {
        crate::export::parquet_available()?;
        if args.output.is_none() {
            return Err(Failure::Usage("--format parquet needs -o FILE".into()));
        }
    }
    if let Some(path) = &args.output {
        refuse_inputs_as_outputs(&args.input.paths, &[("-o", path)])?;
    }
    let mut output = args
        .output
        .as_deref()
        .map(|path| OutputFile::create("-o", path))
        .transpose()?;
    let window = window_of(&args.input)?;
    let by_time = match args.sort {
        Some(order) => order == SortOrder::Time,
        None => {
            args.format != EventsFormat::Jsonl
                || DiskSize::of(&args.input.paths).estimate() <= SORT_BY_DEFAULT_BELOW
        }
    };
    // CSV and Parquet rows name the argument (bundle) their file was found under.
    let bundles: Vec<String> = (args.input.paths.iter())
        .map(|p| p.display().to_string())
        .collect();
    let format_of = |argument: usize| {
        let bundle = bundles.get(argument).map_or("", String::as_str);
        RowFormat::of(args.format, bundle)
    };
    let mut out = EventLines::new(events_destination(args.format, &mut output)?);
    if args.format == EventsFormat::Csv {
        out.write_lines(format!("{}\n", crate::export::CSV_HEADER).as_bytes())?;
    }
    let config = read_config(&args.input, keep_for(args.all))?;
    let rows = EventRows {
        window,
        by_time,
        format_of: &format_of,
    };
    let (parsed, out) = with_progress(&args.input.paths, config, |config| {
        rows.write(&args.input, config, out)
    });
    let mut parsed = parsed?;
    nothing_to_scan(&args.input.paths, &mut parsed);
    out.close()?;
    output.map(OutputFile::commit).transpose()?;
    warn_unreadable(&parsed);
    Ok(input_exit(&parsed))
}

/// What `events` makes of the events it reads: those inside `window`, each as a row of
/// `format_of(the argument its file was found under)`, in time order when `by_time` (else as
/// read).
struct EventRows<'f> {
    window: Window,
    by_time: bool,
    format_of: &'f (dyn Fn(usize) -> RowFormat<'f> + Sync),
}

impl EventRows<'_> {
    /// Reads `input` and writes its events' rows to `out` as each file is read (or into the time
    /// sorter), the arguments in the order given; the OM audit logs of every argument come last,
    /// read side by side with their copies folded (across arguments too) in a bounded window.
    /// Gives what was read and the destination, to be closed; a failure to write stops the
    /// writing and is given instead of what was read.
    fn write<'o>(
        &self,
        input: &InputArgs,
        config: &ReadConfig,
        out: EventLines<Destination<'o>>,
    ) -> (Result<Parsed, Failure>, Destination<'o>) {
        let (window, format_of) = (self.window, self.format_of);
        let sink = std::cell::RefCell::new(EventsSink {
            sorter: self.by_time.then(crate::sort::TimeSorter::default),
            out,
            written: Ok(()),
        });
        let parsed = oztrace_analyzer::load::read_for_events(
            &input.paths,
            config,
            input.skew,
            &mut |stream| {
                window.retain(&mut stream.events);
                sink.borrow_mut()
                    .stream(&stream.events, format_of(stream.argument));
                stream.events = Vec::new();
            },
            &|record, argument, placed, out| {
                if !window.contains(record.ts().unwrap_or(placed)) {
                    return Ok(());
                }
                format_of(argument).write_kept(record, out)?;
                out.push(b'\n');
                Ok(())
            },
            &mut |rendered| sink.borrow_mut().rendered(rendered),
        );
        let (written, out) = sink.into_inner().finish();
        (written.map(|()| parsed), out)
    }
}

/// Where `events` writes its lines: `-o FILE`, else standard output; Parquet turns them into row
/// groups of its table.
fn events_destination(
    format: EventsFormat,
    output: &mut Option<OutputFile>,
) -> Result<Destination<'_>, Failure> {
    // Lines of ~1 KB: one write call per 256 KB of them rather than per 8 KB.
    Ok(match (format, output) {
        #[cfg(feature = "parquet")]
        (EventsFormat::Parquet, Some(file)) => Destination::Table(Box::new(
            crate::export::TableWriter::new(file.writer(), true)?,
        )),
        (_, None) => Destination::Lines(Box::new(std::io::BufWriter::with_capacity(
            EVENTS_BUFFER_BYTES,
            std::io::stdout().lock(),
        ))),
        (_, Some(file)) => Destination::Lines(Box::new(std::io::BufWriter::with_capacity(
            EVENTS_BUFFER_BYTES,
            file.writer(),
        ))),
    })
}

/// The output of `events`: lines, or the Parquet table written as its rows come.
enum Destination<'a> {
    Lines(Box<dyn Write + 'a>),
    #[cfg(feature = "parquet")]
    Table(Box<crate::export::TableWriter<&'a mut std::fs::File>>),
}

impl Destination<'_> {
    /// Writes what is held (the Parquet table's last row group and footer).
    fn close(self) -> Result<(), Failure> {
        match self {
            Destination::Lines(mut out) => out
                .flush()
                .map_err(|e| crate::output::write_failure("events", e)),
            #[cfg(feature = "parquet")]
            Destination::Table(table) => table.finish(),
        }
    }
}

impl Write for Destination<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self {
            Destination::Lines(out) => out.write(bytes),
            #[cfg(feature = "parquet")]
            Destination::Table(table) => table.write(bytes),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Destination::Lines(out) => out.flush(),
            #[cfg(feature = "parquet")]
            Destination::Table(table) => table.flush(),
        }
    }
}

/// Where `events` writes: straight out, or into the time sorter; the first failure stops the
/// writing and is returned at the end.
struct EventsSink<'a> {
    sorter: Option<crate::sort::TimeSorter>,
    out: EventLines<Destination<'a>>,
    written: Result<(), Failure>,
}

impl<'a> EventsSink<'a> {
    /// One stream's events, in file order, as rows of `format`.
    fn stream(&mut self, events: &[Event], format: RowFormat<'_>) {
        if self.written.is_err() {
            return;
        }
        self.written = match &mut self.sorter {
            Some(sorter) => sorter.push_stream(events, format),
            None => (events.iter()).try_for_each(|event| self.out.write(format, event)),
        };
    }

    /// Events' JSON lines whose places in time order are known.
    fn rendered(&mut self, rendered: Rendered) {
        if self.written.is_err() {
            return;
        }
        self.written = match &mut self.sorter {
            Some(sorter) => sorter.push_rendered(&rendered),
            None => self.out.write_lines(&rendered.text),
        }
        .and(
            rendered
                .error
                .map_or(Ok(()), |e| Err(crate::output::write_failure("events", e))),
        );
    }

    /// Writes what the time sorter holds; the destination is then to be closed.
    fn finish(self) -> (Result<(), Failure>, Destination<'a>) {
        let mut out = self.out.into_inner();
        let written = self.written.and_then(|()| match self.sorter {
            Some(sorter) => sorter.finish(&mut out),
            None => Ok(()),
        });
        (written, out)
    }
}

fn replay(args: ReplayArgs) -> Result<u8, Failure> {
    let window = window_of(&args.input)?;
    let zone = display_zone(&args.display)?;
    // What scan reads, and every event naming the entity: the same steps as a read of every
    // record (tests/prefilter.rs), in the memory of a scan.
    let rules = oztrace_rules::registry();
    let prefilter = (!args.no_prefilter).then_some(rules.as_slice());
    let Loaded {
        parsed, analysis, ..
    } = load(
        &args.input,
        window,
        args.retain,
        prefilter,
        Some(&args.entity),
        true,
    )?;
    let mut out = String::new();
    if !zone.is_utc() {
        out.push_str(&format!("# times in {}\n", zone.name()));
    }
    if let Entity::Container(id) = args.entity {
        let (settings, warnings) = settings(&parsed, &[]);
        warnings.iter().for_each(|w| warn(w));
        let config = oztrace_rules::container_health::config(&settings);
        out.push_str(&report::containers::info(&analysis, id, &config, &zone));
    }
    out.push_str(&report::replay_lines(&analysis, &args.entity, &zone));
    print_styled(&out)?;
    warn_unreadable(&parsed);
    Ok(input_exit(&parsed))
}

/// `oztrace containers`: the containers the logs show, read with the health rules' kinds only.
fn containers(args: ContainersArgs) -> Result<u8, Failure> {
    let window = window_of(&args.input)?;
    let zone = display_zone(&args.display)?;
    let overrides = overrides(&args.settings)?;
    let health_rules: Vec<&'static dyn Rule> = oztrace_rules::registry()
        .into_iter()
        .filter(|r| r.doc().family == oztrace_rules::RuleFamily::Health)
        .collect();
    let Loaded {
        parsed, analysis, ..
    } = load(
        &args.input,
        window,
        ReplayOptions::default().retain_ms,
        Some(&health_rules),
        None,
        true,
    )?;
    let (settings, warnings) = settings(&parsed, &overrides);
    warnings.iter().for_each(|w| warn(w));
    let config = oztrace_rules::container_health::config(&settings);
    let filter = report::containers::Filter {
        health: &args.health,
        states: &args.state,
        limit: if args.all { 0 } else { args.limit },
    };
    let (rows, matched) = report::containers::rows(&analysis, &config, &filter);
    let out = match args.format {
        ContainersFormat::Text => report::containers::text(&rows, matched, &zone),
        ContainersFormat::Json => report::containers::json(&rows, matched)
            .map_err(|e| Failure::Internal(format!("rendering the containers: {e}")))?,
        ContainersFormat::Csv => report::containers::csv(&rows)
            .map_err(|e| Failure::Internal(format!("rendering the containers: {e}")))?,
    };
    write_stdout(&out)?;
    warn_unreadable(&parsed);
    Ok(input_exit(&parsed))
}

fn stats(args: StatsArgs) -> Result<u8, Failure> {
    let window = window_of(&args.input)?;
    let zone = display_zone(&args.display)?;
    let parsed = if window.is_open() {
        // Stats count; they keep no events.
        read(&args.input, Keep::Nothing)?
    } else {
        // Counts inside the window: each stream's records are counted as it is read, then
        // dropped, so memory stays that of the streams being read.
        let mut parsed = read_streaming(&args.input, Keep::All, &mut |stream| {
            window.retain(&mut stream.events);
            stream.summary.records = stream.events.len() as u64;
            stream.unrecognized = stream
                .events
                .iter()
                .filter(|e| e.kind() == "unrecognized")
                .count() as u64;
            stream.typed = stream.summary.records - stream.unrecognized;
            stream.summary.first_ts = stream.events.iter().filter_map(|e| e.ts).min();
            stream.summary.last_ts = stream.events.iter().filter_map(|e| e.ts).max();
            stream.events = Vec::new();
        })?;
        parsed.streams.retain(|s| s.summary.records > 0);
        parsed
    };
    let window_doc = window_doc(&window, parsed.records());
    let out = match args.format {
        StatsFormat::Text => report::stats_text(&parsed, &zone, window_doc.as_ref()),
        StatsFormat::Json => report::stats_json(&parsed, window_doc.as_ref()),
    };
    print_styled(&out)?;
    warn_unreadable(&parsed);
    Ok(input_exit(&parsed))
}

fn explain(args: ExplainArgs) -> Result<u8, Failure> {
    if args.kinds {
        print_styled(&report::kinds_table())?;
        return Ok(exit::OK);
    }
    // clap has checked the id against the registry.
    let id = args.rule.unwrap_or_default();
    let doc = report::rule_doc(&id)
        .ok_or_else(|| Failure::Usage(format!("unknown rule `{id}` (see `oztrace rules`)")))?;
    print_styled(&report::explain(doc))?;
    Ok(exit::OK)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::baseline::Baseline;
    use crate::report::fixture;

    #[test]
    fn an_input_that_failed_inside_oztrace_is_the_internal_error_status() {
        let unreadable = oztrace_parser::input::Unreadable {
            path: "dn1/ozone-datanode.log".into(),
            reason: "x".into(),
        };
        let mut parsed = Parsed {
            unreadable: vec![unreadable.clone()],
            ..Parsed::default()
        };
        assert_eq!(input_exit(&parsed), exit::UNREADABLE);
        parsed.errors.push(unreadable);
        assert_eq!(input_exit(&parsed), exit::INTERNAL);
    }

    #[test]
    fn scan_status_follows_the_contract_order() {
        let mut document = fixture::document();
        // The fixture's findings: one possible, one confirmed.
        assert_eq!(
            scan_status(exit::OK, &document, Confidence::Possible),
            exit::FINDINGS
        );
        assert_eq!(
            scan_status(exit::OK, &document, Confidence::Confirmed),
            exit::FINDINGS
        );
        assert_eq!(
            scan_status(exit::UNREADABLE, &document, Confidence::Possible),
            exit::UNREADABLE
        );
        assert_eq!(
            scan_status(exit::INTERNAL, &document, Confidence::Possible),
            exit::INTERNAL
        );
        let mut confirmed_only = Baseline::of(&document);
        confirmed_only
            .fingerprints
            .retain(|k| k.rule == "resurrected-container");
        document.suppress(&confirmed_only);
        assert_eq!(
            scan_status(exit::OK, &document, Confidence::Likely),
            exit::OK
        );
        assert_eq!(
            scan_status(exit::OK, &document, Confidence::Possible),
            exit::FINDINGS
        );
        let everything = Baseline::of(&fixture::document());
        document.suppress(&everything);
        assert_eq!(
            scan_status(exit::OK, &document, Confidence::Possible),
            exit::OK
        );
    }
}
