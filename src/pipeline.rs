//! Reading every input in parallel: bytes → records → typed events, with coverage counts.
//!
//! Work is split by input unit (a file, an archive, stdin) over a small pool of threads, so both
//! cores are busy across files; an archive is read member by member in one pass. Each stream's
//! typed events are buffered (the trace keeps only typed events, never raw lines) and its summary
//! kept for `stats` and the report's coverage.

use oztrace_parser::catalog::{self, EventData, Unrecognized};
use oztrace_parser::event::Event;
use oztrace_parser::input::{
    self, ConfigFile, InputFile, InputUnit, Limits, StreamSink, Unreadable,
};
use oztrace_parser::layout::Layout;
use oztrace_parser::record::{ReadOptions, Record, StreamSummary, read_records};
use oztrace_parser::source::{Component, Level, rotation_key};
use oztrace_parser::time::TimeZones;
use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};

/// How many distinct unrecognized message shapes a stream tracks (bounded memory).
const MAX_SHAPES: usize = 2048;

/// Options of one read.
#[derive(Debug, Clone)]
pub struct ReadConfig {
    pub zones: TimeZones,
    pub forced_layout: Option<Arc<Layout>>,
    /// Which records become events in the outcome.
    pub keep: Keep,
    pub jobs: usize,
    /// Decompressed bytes read so far, across threads, for a progress bar (updated per MiB).
    pub progress: Option<Arc<AtomicU64>>,
    pub limits: Limits,
}

/// Which records a read keeps as events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Counts only (`stats`).
    Nothing,
    /// Typed events (`scan`, `replay`, `events`).
    Typed,
    /// Every record, unrecognized ones as `unrecognized` events (`events --all`).
    All,
}

/// What one log stream gave.
#[derive(Debug)]
pub struct StreamOutcome {
    pub file: Arc<str>,
    /// The stream's host (a compose stream has several: the most frequent one here).
    pub host: Arc<str>,
    pub component: Component,
    pub summary: StreamSummary,
    pub bytes: u64,
    pub typed: u64,
    pub unrecognized: u64,
    /// INFO-or-above records of this stream, and how many of them were typed.
    pub info_records: u64,
    pub info_typed: u64,
    pub shapes: HashMap<String, u64>,
    /// Loggers seen at DEBUG/TRACE per host.
    pub verbose_loggers: Vec<(Arc<str>, String, Level)>,
    pub events: Vec<Event>,
}

/// Everything read from the inputs.
#[derive(Debug, Default)]
pub struct Parsed {
    /// In input order: units as discovered, streams of a unit as read, rotations oldest first.
    pub streams: Vec<StreamOutcome>,
    pub unreadable: Vec<Unreadable>,
    pub configs: Vec<ConfigFile>,
    pub skipped: Vec<String>,
}

impl Parsed {
    pub fn records(&self) -> u64 {
        self.streams.iter().map(|s| s.summary.records).sum()
    }
    pub fn typed(&self) -> u64 {
        self.streams.iter().map(|s| s.typed).sum()
    }
    pub fn unrecognized(&self) -> u64 {
        self.streams.iter().map(|s| s.unrecognized).sum()
    }
    pub fn bytes(&self) -> u64 {
        self.streams.iter().map(|s| s.bytes).sum()
    }
}

/// Reads every input; `on_stream` sees each stream in input order as soon as it and every
/// stream before it are read, and may take its events, so that a caller that writes them out
/// holds at most a few units' events in memory: workers run at most [`UNITS_AHEAD`] per thread
/// ahead of the stream being delivered.
pub fn read_inputs_streaming(
    paths: &[PathBuf],
    config: &ReadConfig,
    on_stream: &mut dyn FnMut(&mut StreamOutcome),
) -> Parsed {
    let discovery = input::discover(paths);
    let mut units = discovery.units;
    // Rotated files of one log are read oldest first.
    units.sort_by_cached_key(|unit| {
        let key = rotation_key(unit.display());
        (key.stream, std::cmp::Reverse(key.age))
    });
    let mut parsed = Parsed {
        unreadable: discovery.unreadable,
        configs: discovery.configs,
        skipped: discovery.skipped,
        ..Parsed::default()
    };
    let threads = config.jobs.max(1).min(units.len().max(1));
    let window = UNITS_AHEAD * threads;
    // (next unit to start, units delivered so far)
    let progress = Mutex::new((0usize, 0usize));
    let turn = Condvar::new();
    let (sender, receiver) = mpsc::channel::<(usize, UnitResult)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (units, progress, turn) = (&units, &progress, &turn);
            scope.spawn(move || {
                loop {
                    let i = {
                        let mut state = progress.lock().unwrap_or_else(|p| p.into_inner());
                        while state.0 < units.len() && state.0 - state.1 >= window {
                            state = turn.wait(state).unwrap_or_else(|p| p.into_inner());
                        }
                        if state.0 >= units.len() {
                            break;
                        }
                        state.0 += 1;
                        state.0 - 1
                    };
                    if sender.send((i, read_unit(&units[i], config))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut waiting: BTreeMap<usize, UnitResult> = BTreeMap::new();
        let mut delivered = 0;
        for (i, result) in receiver {
            waiting.insert(i, result);
            while let Some(unit) = waiting.remove(&delivered) {
                for mut stream in unit.streams {
                    on_stream(&mut stream);
                    parsed.streams.push(stream);
                }
                parsed.unreadable.extend(unit.unreadable);
                parsed.configs.extend(unit.configs);
                delivered += 1;
                progress.lock().unwrap_or_else(|p| p.into_inner()).1 = delivered;
                turn.notify_all();
            }
        }
    });
    parsed.unreadable.sort_by(|a, b| a.path.cmp(&b.path));
    parsed
}

/// The contract's reason for a non-empty stream in which no record matched any layout.
pub const UNRECOGNIZED_FORMAT: &str = "unrecognized format";

/// How many units per thread may be read ahead of the one being delivered.
const UNITS_AHEAD: usize = 2;

#[derive(Default)]
struct UnitResult {
    streams: Vec<StreamOutcome>,
    unreadable: Vec<Unreadable>,
    configs: Vec<ConfigFile>,
}

struct Sink<'a> {
    config: &'a ReadConfig,
    result: UnitResult,
}

impl StreamSink for Sink<'_> {
    fn log(&mut self, file: &InputFile, reader: &mut dyn BufRead) -> std::io::Result<()> {
        let (outcome, error) = read_stream(file, reader, self.config);
        let matched_nothing = outcome.summary.matched_nothing();
        self.result.streams.push(outcome);
        match error {
            Some(e) => Err(e),
            // Checked on what every reader of the stream produced: text in no known format.
            None if matched_nothing => Err(std::io::Error::other(UNRECOGNIZED_FORMAT)),
            None => Ok(()),
        }
    }

    fn config(&mut self, config: ConfigFile) {
        self.result.configs.push(config);
    }

    fn unreadable(&mut self, item: Unreadable) {
        self.result.unreadable.push(item);
    }
}

fn read_unit(unit: &InputUnit, config: &ReadConfig) -> UnitResult {
    let mut sink = Sink {
        config,
        result: UnitResult::default(),
    };
    unit.read_within(&mut sink, &config.limits);
    sink.result
}

/// How many bytes a stream reads between updates of the shared progress counter.
const PROGRESS_STEP: u64 = 1 << 20;

/// Counts bytes as they are read, for coverage and throughput.
struct Counting<'a> {
    inner: &'a mut dyn BufRead,
    bytes: u64,
    /// The shared counter, and how much of `bytes` it already has.
    progress: Option<(&'a AtomicU64, u64)>,
}

impl Counting<'_> {
    fn advance(&mut self, n: u64) {
        self.bytes += n;
        if let Some((counter, reported)) = &mut self.progress
            && self.bytes - *reported >= PROGRESS_STEP
        {
            counter.fetch_add(self.bytes - *reported, Ordering::Relaxed);
            *reported = self.bytes;
        }
    }

    fn finish_progress(&mut self) {
        if let Some((counter, reported)) = &mut self.progress {
            counter.fetch_add(self.bytes - *reported, Ordering::Relaxed);
            *reported = self.bytes;
        }
    }
}

impl std::io::Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.advance(n as u64);
        Ok(n)
    }
}

impl BufRead for Counting<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amount: usize) {
        self.advance(amount as u64);
        self.inner.consume(amount);
    }
}

fn preferred_layout(
    file: &InputFile,
    component: Option<Component>,
    config: &ReadConfig,
) -> Option<Arc<Layout>> {
    let is_audit = component.is_some_and(Component::is_audit_like);
    if !is_audit && let Some(forced) = &config.forced_layout {
        return Some(Arc::clone(forced));
    }
    let pattern = file.layout_pattern()?;
    Layout::custom(pattern).ok().map(Arc::new)
}

fn read_stream(
    file: &InputFile,
    reader: &mut dyn BufRead,
    config: &ReadConfig,
) -> (StreamOutcome, Option<std::io::Error>) {
    let file_name: Arc<str> = Arc::from(file.display.as_str());
    let file_host = file.hint.host.clone();
    let options = ReadOptions {
        preferred: preferred_layout(file, file.hint.component, config),
        zones: config.zones.clone(),
        host: file_host.clone(),
    };
    let mut hosts: HashMap<String, Arc<str>> = HashMap::new();
    let mut host_counts: HashMap<Arc<str>, u64> = HashMap::new();
    let mut outcome = StreamOutcome {
        file: Arc::clone(&file_name),
        host: Arc::from(file_host.as_deref().unwrap_or("unknown")),
        component: file.hint.component.unwrap_or(Component::Unknown),
        summary: StreamSummary::default(),
        bytes: 0,
        typed: 0,
        unrecognized: 0,
        info_records: 0,
        info_typed: 0,
        shapes: HashMap::new(),
        verbose_loggers: Vec::new(),
        events: Vec::new(),
    };
    let mut stream_component = file.hint.component;
    let mut counting = Counting {
        inner: reader,
        bytes: 0,
        progress: config.progress.as_deref().map(|counter| (counter, 0)),
    };
    let mut verbose_seen: std::collections::HashSet<(Arc<str>, String)> = Default::default();
    let (summary, error) = read_records(&mut counting, &options, &mut |record: Record| {
        let host_name = record
            .service
            .clone()
            .or_else(|| file_host.clone())
            .unwrap_or_else(|| "unknown".to_string());
        let host = Arc::clone(
            hosts
                .entry(host_name)
                .or_insert_with_key(|name| Arc::from(name.as_str())),
        );
        *host_counts.entry(Arc::clone(&host)).or_default() += 1;
        let component = record_component(&record, stream_component);
        if stream_component.is_none() && component != Component::Unknown && record.service.is_none()
        {
            stream_component = Some(component);
        }
        if let (Some(level @ (Level::Debug | Level::Trace)), Some(logger)) =
            (record.level, &record.logger)
            && verbose_seen.insert((Arc::clone(&host), logger.clone()))
        {
            outcome
                .verbose_loggers
                .push((Arc::clone(&host), logger.clone(), level));
        }
        let info = record.level.is_some_and(|l| l >= Level::Info);
        if info {
            outcome.info_records += 1;
        }
        if record.headerless {
            outcome.unrecognized += 1;
            count_shape(&mut outcome.shapes, &record.message);
            if config.keep == Keep::All {
                outcome
                    .events
                    .push(unrecognized_event(record, host, component, &file_name));
            }
            return;
        }
        match catalog::classify(&record, component) {
            Some(typed) => {
                outcome.typed += 1;
                if info {
                    outcome.info_typed += 1;
                }
                if config.keep == Keep::Nothing {
                    return;
                }
                outcome.events.push(Event {
                    ts: record.ts,
                    host,
                    component,
                    level: record.level,
                    thread: record.thread,
                    logger: record.logger,
                    entities: typed.entities,
                    data: typed.data,
                    file: Arc::clone(&file_name),
                    line: record.line,
                    continuation_lines: record.continuation_lines,
                    text: record.message,
                    copies: Vec::new(),
                });
            }
            None => {
                outcome.unrecognized += 1;
                count_shape(&mut outcome.shapes, &record.message);
                if config.keep == Keep::All {
                    outcome
                        .events
                        .push(unrecognized_event(record, host, component, &file_name));
                }
            }
        }
    });
    counting.finish_progress();
    outcome.summary = summary;
    outcome.bytes = counting.bytes;
    outcome.component = stream_component.unwrap_or(Component::Unknown);
    if let Some((host, _)) = host_counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
    {
        outcome.host = host;
    }
    (outcome, error)
}

/// The component of one record: the stream's, else the compose service's name, else the logger's.
fn record_component(record: &Record, stream: Option<Component>) -> Component {
    if let Some(service) = &record.service
        && let Some(c) = oztrace_parser::source::component_from_service(service)
    {
        return c;
    }
    if let Some(c) = stream {
        return c;
    }
    record
        .logger
        .as_deref()
        .and_then(|l| Component::from_audit_logger(l).or_else(|| Component::from_logger(l)))
        .unwrap_or(Component::Unknown)
}

fn unrecognized_event(
    record: Record,
    host: Arc<str>,
    component: Component,
    file: &Arc<str>,
) -> Event {
    Event {
        ts: record.ts,
        host,
        component,
        level: record.level,
        thread: record.thread,
        logger: record.logger,
        entities: Vec::new(),
        data: EventData::Unrecognized(Unrecognized {}),
        file: Arc::clone(file),
        line: record.line,
        continuation_lines: record.continuation_lines,
        text: record.message,
        copies: Vec::new(),
    }
}

fn count_shape(shapes: &mut HashMap<String, u64>, message: &str) {
    thread_local! {
        static SHAPE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    SHAPE.with_borrow_mut(|shape| {
        shape.clear();
        write_shape(message, shape);
        if let Some(n) = shapes.get_mut(shape.as_str()) {
            *n += 1;
        } else if shapes.len() < MAX_SHAPES {
            shapes.insert(shape.clone(), 1);
        }
    });
}

/// Writes the shape of the message's first 120 bytes into `out` (no allocation per word): numbers,
/// ids, hex and paths masked, so that lines of one statement group together:
/// `Container #1051 closed on 10.0.1.5` → `Container #N closed on N.N.N.N`.
fn write_shape(message: &str, out: &mut String) {
    let mut cut = message.len().min(120);
    while !message.is_char_boundary(cut) {
        cut -= 1;
    }
    for (i, word) in message[..cut].split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if word.len() > 1 && word.contains('/') {
            out.push_str("<path>");
            continue;
        }
        // Runs of letters and digits: a run that is all hex with a digit in it is an id or a
        // number (`1051`, `eeef75e3`, `0x1f`), masked; words stay.
        let bytes = word.as_bytes();
        let mut start = 0;
        while start < bytes.len() {
            if !bytes[start].is_ascii_alphanumeric() {
                let end = start
                    + bytes[start..]
                        .iter()
                        .take_while(|b| !b.is_ascii_alphanumeric())
                        .count();
                out.push_str(&word[start..end]);
                start = end;
                continue;
            }
            let end = start
                + bytes[start..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric())
                    .count();
            let run = &bytes[start..end];
            let is_id = run.iter().any(u8::is_ascii_digit)
                && run.iter().all(|b| b.is_ascii_hexdigit() || *b == b'x');
            out.push_str(if is_id { "N" } else { &word[start..end] });
            start = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message_shape(message: &str) -> String {
        let mut out = String::new();
        write_shape(message, &mut out);
        out
    }

    #[test]
    fn shapes_mask_numbers_ids_and_paths() {
        assert_eq!(
            message_shape("Container #1051 closed on 10.0.1.5 at /data/disk1/hdds"),
            "Container #N closed on N.N.N.N at <path>"
        );
        assert_eq!(
            message_shape("Node 0d7c3a51-93e2-4b0a-8f61-2c5e9d4b7a18 is dead"),
            "Node N-N-N-N-N is dead"
        );
        assert_eq!(
            message_shape("Node eeef75e3-b676-4243-868a-0f77f54eb9ab is dead"),
            "Node N-N-N-N-N is dead"
        );
        assert_eq!(message_shape("WARN deadbeef cafe"), "WARN deadbeef cafe");
        let long = format!("{}é tail", "x".repeat(119));
        assert_eq!(message_shape(&long), "x".repeat(119));
    }
}
