//! The one pipeline from the user's inputs to an analysed trace: bytes → records → typed events
//! → one time order → graph and state machines. The binary, the benchmarks and the tests all
//! come through here: [`load`] for the whole path, [`read_inputs_streaming`] for the commands
//! that only read (`stats`, `events`). Tests that type a few lines use `oztrace-testkit`.
//!
//! Work is split by input unit (a file, an archive, stdin) over a rayon pool, so both cores are
//! busy across files; an archive is read member by member in one pass. Each stream's typed events
//! are buffered (the trace keeps only typed events, never raw lines) and its summary kept for
//! `stats` and the report's coverage.

use crate::copies::{self, AuditCopies, AuditSplits, CopyKey, Folded, copy_key};
use crate::kinds::Wanted;
use crate::trace::{SharedEntities, StreamEntities, Trace, TraceBuilder};
use crate::{Analysis, ReplayOptions, cores, prefilter};
use oztrace_parser::audit::PartsAt;
use oztrace_parser::banner;
use oztrace_parser::catalog;
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::om::{self, OmEvent};
use oztrace_parser::entity::{self, Entity};
use oztrace_parser::event::{Copy, Event, JsonEntities, JsonFields, JsonLine, Named, Names};
use oztrace_parser::input::{
    self, Compression, ConfigFile, InputFile, InputUnit, Limits, StreamSink, Unreadable,
};
use oztrace_parser::layout::Layout;
use oztrace_parser::record::{ReadOptions, Record, Skip, StreamSummary, read_records_in_place};
use oztrace_parser::source::{Component, Level, SourceResolver};
use oztrace_parser::time::TimeZones;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// How far a run is, for a progress bar: the stage, and the decompressed bytes read so far
/// across threads (updated per MiB).
#[derive(Debug, Default)]
pub struct Progress {
    bytes: AtomicU64,
    stage: AtomicU8,
}

/// The stages of a [`load`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Reading,
    Merging,
    Analysing,
}

impl Stage {
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Reading => "reading logs",
            Stage::Merging => "merging into one time order",
            Stage::Analysing => "replaying the state machines",
        }
    }
}

impl Progress {
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    pub fn stage(&self) -> Stage {
        match self.stage.load(Ordering::Relaxed) {
            0 => Stage::Reading,
            1 => Stage::Merging,
            _ => Stage::Analysing,
        }
    }

    fn enter(&self, stage: Stage) {
        self.stage.store(stage as u8, Ordering::Relaxed);
    }
}

/// What [`load`] does.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    pub read: ReadConfig,
    /// `--since` / `--until`.
    pub window: Window,
    /// Clock skew tolerated between hosts (`--skew`), in milliseconds.
    pub skew_ms: i64,
    pub replay: ReplayOptions,
    /// Leave unparsed the records no consumer needs ([`crate::prefilter`]): `scan`.
    pub prefilter: bool,
    /// What the selected rules read, besides the machines and linkers: with the prefilter,
    /// typed events no consumer reads are counted, not kept.
    pub rule_kinds: Wanted,
    /// `replay --entity`: with the prefilter, every event naming this entity is kept too, and
    /// of the OM audit key records only its own are read ([`prefilter::focused`]).
    pub focus: Option<Entity>,
}

/// What [`load`] gives: what was read (coverage, configuration, failures), its analysis, and how
/// long each stage took.
pub struct Loaded {
    pub parsed: Parsed,
    pub analysis: Analysis,
    pub timings: Timings,
    /// Whether the trace holds every typed event inside the window: no prefilter ran (none was
    /// asked, or standard input, which can be read only once, was among the inputs).
    pub whole: bool,
}

/// Wall time of each stage of a [`load`] (`scan --timings`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Timings {
    /// Reading, decompressing and typing every input (both prefilter passes).
    pub read: Duration,
    /// The window, the audit copies' fold and the merge into one time order with its indexes.
    pub merge: Duration,
    /// The event graph and every state machine.
    pub replay: Duration,
    /// The threads the merge and the replay could use (rayon's pool: every core, or
    /// `RAYON_NUM_THREADS`).
    pub threads: usize,
}

/// Reads every input, keeps the typed events inside the window, merges them into one time order
/// and analyses them (graph, state machines).
pub fn load(paths: &[PathBuf], options: &LoadOptions) -> Loaded {
    // The prefilter reads OM audit logs twice; standard input can be read only once, so a run
    // that reads it parses every record in one pass.
    let prefilter = options.prefilter && paths.iter().all(|p| p.as_os_str() != "-");
    let mut read = options.read.clone();
    read.trace = true;
    let mut builder = TraceBuilder::default();
    read.entities = Some(Arc::clone(builder.shared()));
    if prefilter {
        read.skip = Some(match &options.focus {
            Some(entity) => prefilter::focused(entity),
            None => prefilter::first_pass(),
        });
        let mut wanted = crate::machines::consumed(options.replay.machines);
        wanted.extend(&options.rule_kinds);
        if let Some(entity) = &options.focus {
            wanted.naming(entity.clone());
        }
        read.kinds = Some(Arc::new(wanted));
        read.window = options.window;
    }
    let started = Instant::now();
    // Discovered once: the prefilter's second pass reads some of the same units.
    let (units, discovered) = discover(paths);
    let mut warm = WarmHeap::default();
    let mut kept = 0;
    let mut parsed = read_discovered(
        &units,
        discovered,
        &read,
        None,
        &BTreeSet::new(),
        &mut |stream| {
            kept += stream.events.len();
            warm.grow_to(kept.saturating_mul(MERGE_BYTES_PER_EVENT));
            append_read(&mut builder, stream, &options.window);
        },
    );
    if prefilter && options.focus.is_none() {
        read_anchored(&units, &options.read, &mut parsed);
    }
    // Handed to the merge, whose allocations on this thread come from it.
    drop(warm);
    let read_at = Instant::now();
    let progress = options.read.progress.as_deref();
    progress.inspect(|p| p.enter(Stage::Merging));
    options.window.apply(&mut parsed);
    let trace = merge_read(builder, &mut parsed, options.skew_ms);
    let merged_at = Instant::now();
    progress.inspect(|p| p.enter(Stage::Analysing));
    let analysis = Analysis::run(trace, options.replay);
    let timings = Timings {
        read: read_at - started,
        merge: merged_at - read_at,
        replay: merged_at.elapsed(),
        threads: rayon::current_num_threads(),
    };
    Loaded {
        parsed,
        analysis,
        timings,
        whole: !prefilter,
    }
}

/// Memory the merge allocates on the calling thread, per typed event kept: the trace's indexes,
/// and the columns of the streams it appends itself (about 2 300 pages of 4 KiB for the 82 373
/// events of the 1 GB bench bundle when it appended them all; the columns of the streams
/// appended as read, [`append_read`], grow while the readers read).
const MERGE_BYTES_PER_EVENT: usize = 128;

/// The most [`WarmHeap`] holds: below glibc's largest mmap threshold (32 MiB, which the binary
/// sets), so that its block comes from the heap and returns there; a larger trace pays page
/// faults for the rest.
const WARM_HEAP_BYTES: usize = 30 << 20;

/// Memory the calling thread touches while the reading threads work (it waits for their streams
/// and appends them), then frees just before the merge: the merge's indexes are then carved from
/// pages already in this thread's heap. Fresh pages cost a fault each (2.5-3.7 µs on the 2-core
/// VM we measure on, about 8 ms of a 1 GB bundle's merge), paid here while the readers run
/// instead of by the merge, which nothing overlaps.
#[derive(Default)]
struct WarmHeap {
    block: Vec<u8>,
}

impl WarmHeap {
    /// Touches the block up to `bytes` (at most [`WARM_HEAP_BYTES`]).
    fn grow_to(&mut self, bytes: usize) {
        if self.block.capacity() == 0 {
            self.block.reserve_exact(WARM_HEAP_BYTES);
            ask_for_huge_pages(&self.block);
        }
        let bytes = bytes.min(WARM_HEAP_BYTES);
        if bytes > self.block.len() {
            self.block.resize(bytes, 1);
        }
    }
}

/// Asks the kernel to back the whole 2 MiB pages inside `block`'s capacity with huge pages
/// (transparent huge pages in `madvise` mode, the common default): the merge's columns and
/// indexes, which the merge, the machines and the rules read in scattered order, then take one
/// TLB entry per 2 MiB instead of per 4 KiB (11 alternating one-core runs on the 1 GB bench
/// bundle: merge 10.3 -> 9.7 ms, replay and rules 0.2 ms less each). Only this block: the
/// readers' heaps churn, and huge pages there (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`) doubled
/// `scan`'s wall time.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn ask_for_huge_pages(block: &Vec<u8>) {
    const HUGE_PAGE: usize = 2 << 20;
    let start = block.as_ptr() as usize;
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + block.capacity()) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: the range lies inside the block's allocation; the advice changes how its pages
        // are backed, never their contents. A kernel without huge pages refuses it, harmlessly.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn ask_for_huge_pages(_block: &Vec<u8>) {}

/// The prefilter's second pass: the anchored keys' records, from the OM audit streams of the hosts
/// that wrote an anchor, spliced into their streams in line order.
fn read_anchored(units: &[InputUnit], config: &ReadConfig, parsed: &mut Parsed) {
    let mut anchors: BTreeSet<Entity> = BTreeSet::new();
    let mut hosts: BTreeSet<Arc<str>> = BTreeSet::new();
    for stream in &parsed.streams {
        for event in &stream.events {
            if let EventData::Om(OmEvent::AuditCommitKey(audit)) = &event.data
                && audit.system
            {
                anchors.extend(
                    event
                        .entities
                        .iter()
                        .filter(|e| matches!(e, Entity::Key(_)))
                        .cloned(),
                );
                hosts.insert(Arc::clone(&event.host));
            }
        }
    }
    if anchors.is_empty() {
        return;
    }
    let anchored: BTreeSet<usize> = parsed
        .streams
        .iter()
        .filter(|s| s.summary.skipped > 0 && hosts.contains(&s.host))
        .map(|s| s.unit)
        .collect();
    let config = ReadConfig {
        skip: Some(prefilter::second_pass(&anchors)),
        progress: None,
        ..config.clone()
    };
    // A file is named relative to its argument: several arguments can hold one name.
    let mut by_file: HashMap<(usize, Arc<str>), usize> = HashMap::new();
    for (i, stream) in parsed.streams.iter().enumerate() {
        by_file.insert((stream.unit, Arc::clone(&stream.file)), i);
    }
    let again = read_discovered(
        units,
        Parsed::default(),
        &config,
        Some(&anchored),
        &BTreeSet::new(),
        &mut |_| {},
    );
    for stream in again.streams {
        let Some(&i) = by_file.get(&(stream.unit, Arc::clone(&stream.file))) else {
            continue;
        };
        let anchored = stream
            .events
            .into_iter()
            .filter(|e| e.entities.iter().any(|entity| anchors.contains(entity)));
        let stream = &mut parsed.streams[i];
        if stream.appended {
            // Its table is in the merge already: they come as a stream of their own, which the
            // merge orders among the stream's events by line (theirs is the same source).
            stream.spliced.extend(anchored);
            continue;
        }
        // Spliced events are interned by the merge.
        stream.entities = None;
        let events = &mut stream.events;
        events.extend(anchored);
        // Both passes emit in line order; a stable sort keeps it.
        events.sort_by_key(|e| e.line);
    }
}

/// Moves the typed events out of the streams into one time order, the OM audit logs' copies
/// folded as `events` folds them ([`crate::copies`]).
pub fn build_trace(parsed: &mut Parsed, skew_ms: i64) -> Trace {
    merge_read(TraceBuilder::default(), parsed, skew_ms)
}

/// [`build_trace`] of streams some of which were appended to `builder` as they were read
/// ([`append_read`]).
fn merge_read(builder: TraceBuilder, parsed: &mut Parsed, skew_ms: i64) -> Trace {
    let mut appended = Vec::new();
    let mut audit = Vec::new();
    let mut streams = Vec::new();
    for stream in &mut parsed.streams {
        let events = std::mem::take(&mut stream.events);
        if stream.appended {
            appended.push(events);
            let spliced = std::mem::take(&mut stream.spliced);
            if !spliced.is_empty() {
                streams.push((spliced, None));
            }
            continue;
        }
        let entities = stream.entities.take();
        let held = std::mem::take(&mut stream.audit);
        if stream.component == Component::OmAudit {
            audit.push(if held.is_empty() {
                HeldAudit::of_events(events)
            } else {
                held
            });
        } else if held.is_empty() {
            streams.push((events, entities));
        } else {
            // Read as an OM audit log, mostly another component's records: nothing to fold.
            streams.push((held.into_events(), None));
        }
    }
    // Each piece of the fold interned on the pool, as the readers intern the other streams.
    streams.extend(cores::map_owned(fold_audit(audit, skew_ms), |events| {
        let entities = StreamEntities::of(&events);
        (events, Some(entities))
    }));
    builder.merge(appended, streams, skew_ms)
}

/// Appends a stream to the merge's columns as it comes from its reader, its window applied,
/// when the merge would take it as it is: not an OM audit log's, whose copies are folded at the
/// merge, and interned in the builder's table. The reading threads still work meanwhile: the
/// thread that waits for them does it. (What the prefilter's second pass finds for it later
/// comes as a stream of its own, [`StreamOutcome::spliced`].)
fn append_read(builder: &mut TraceBuilder, stream: &mut StreamOutcome, window: &Window) {
    let ours = stream.entities.as_ref().is_some_and(|t| builder.takes(t));
    if !ours || stream.component == Component::OmAudit || !stream.audit.is_empty() {
        return;
    }
    window.apply_to(stream);
    stream.appended = builder.append(&mut stream.entities);
}

/// The events of the OM audit streams `logs` (in reading order), their copies folded
/// ([`crate::copies::AuditCopies`]) as they come in one time order: by the latest time of their
/// stream so far, then by stream. A record is built only once kept, as the first of its copies,
/// [`BUILD_CHUNK`] at a time across the pool's threads; each batch is freed once done with.
///
/// The events come in pieces, one stream each, in order: every piece but the first starts with a
/// timed event, so that an untimed one is still ordered by the event before it in the fold.
fn fold_audit(logs: Vec<HeldAudit>, skew_ms: i64) -> Vec<Vec<Event>> {
    let mut out = Vec::new();
    let mut heads: Vec<LogHead> = logs
        .into_iter()
        .map(|log| {
            let (sender, received) = mpsc::channel();
            for batch in log.batches {
                // The receiver is alive: a send cannot fail.
                let _ = sender.send(batch);
            }
            LogHead::new(received, None)
        })
        .collect();
    let mut unbuilt = Vec::with_capacity(BUILD_CHUNK);
    let sources = fold_heads(&mut heads, skew_ms, &mut |kept, _, heads, sources| {
        unbuilt.push(Unbuilt::take(kept, heads));
        if unbuilt.len() == BUILD_CHUNK {
            build_unbuilt(&mut unbuilt, heads, sources, &mut out);
        }
    });
    build_unbuilt(&mut unbuilt, &mut heads, &sources, &mut out);
    out
}

/// Kept OM audit records typed at a time ([`fold_audit`]): the fold is sequential, typing what
/// it keeps (most of a full read's merge) is spread over the pool's threads.
const BUILD_CHUNK: usize = 4096;

/// A record the fold kept, its body taken out of its log's batch, which stays live (its text is
/// read) until the record is built.
struct Unbuilt {
    log: u32,
    batch: u64,
    ts: Option<i64>,
    line: u64,
    level: Option<Level>,
    source: u32,
    body: Body,
    copies: Vec<RawCopy>,
}

impl Unbuilt {
    fn take(kept: Held, heads: &mut [LogHead]) -> Unbuilt {
        let raw = &mut heads[kept.log as usize].batch(kept.batch).records[kept.index as usize];
        Unbuilt {
            log: kept.log,
            batch: kept.batch,
            ts: raw.ts,
            line: raw.line,
            level: raw.level,
            source: kept.copy.source,
            body: std::mem::replace(&mut raw.body, Body::Text(0, 0, false)),
            copies: kept.copies,
        }
    }

    /// Its event, typed now from `text` (its batch's), its copies listed.
    fn event(self, text: &str, sources: &[Source]) -> Event {
        let source = &sources[self.source as usize];
        let mut event = self
            .body
            .event(self.ts, self.line, self.level, text, source, None);
        if !self.copies.is_empty() {
            event.copies = listed(
                self.copies
                    .iter()
                    .map(|copy| (&sources[copy.source as usize], copy.line)),
            );
        }
        event
    }
}

/// Builds the events of `unbuilt` in their order, on the pool's threads, as the next piece of
/// `out` (its untimed first events go to the end of the piece before), then releases their
/// batches.
fn build_unbuilt(
    unbuilt: &mut Vec<Unbuilt>,
    heads: &mut [LogHead],
    sources: &Sources,
    out: &mut Vec<Vec<Event>>,
) {
    let done: Vec<(u32, u64)> = unbuilt.iter().map(|u| (u.log, u.batch)).collect();
    let jobs: Vec<(Unbuilt, &str)> = unbuilt
        .drain(..)
        .map(|u| {
            let head = &heads[u.log as usize];
            let text = head.batches[(u.batch - head.first) as usize]
                .batch
                .text
                .as_str();
            (u, text)
        })
        .collect();
    let mut piece = cores::map_owned(jobs, |(unbuilt, text)| unbuilt.event(text, &sources.all));
    let untimed = piece.iter().take_while(|e| e.ts.is_none()).count();
    if let Some(last) = out.last_mut() {
        last.extend(piece.drain(..untimed));
    }
    if !piece.is_empty() {
        out.push(piece);
    }
    for (log, batch) in done {
        heads[log as usize].release(batch);
    }
}

/// What takes a record the fold kept, with its place in time order, out of its log's batch.
type TakeKept<'k> = dyn FnMut(Held, i64, &mut [LogHead], &Sources) + 'k;

/// Merges the records of `heads` (one per log) into one time order, by the latest time of their
/// file so far, then by log, folds their copies as they come ([`AuditCopies`]) and hands the kept
/// ones to `keep` in that order. Gives the sources it numbered.
fn fold_heads(heads: &mut [LogHead], skew_ms: i64, keep: &mut TakeKept<'_>) -> Sources {
    let mut sources = Sources::default();
    let mut copies = AuditCopies::new(skew_ms);
    let mut order = LogOrder::new();
    for (n, head) in heads.iter_mut().enumerate() {
        if let Some(placed) = head.fill(n, &mut sources) {
            order.push(Reverse((placed, n)));
        }
    }
    let mut next = order.pop();
    while let Some(Reverse((placed, n))) = next {
        if let Some((_, held, key)) = heads[n].next.take() {
            let folded = copies.push(held, key, placed, &mut |kept, placed| {
                keep(kept, placed, heads, &sources)
            });
            if let Some(folded) = folded {
                heads[folded.log as usize].release(folded.batch);
            }
        }
        next = match heads[n].fill(n, &mut sources) {
            None => order.pop(),
            // The log taken from goes on with the records of its time: it stays first, or
            // takes the first's place in the heap, with one sift.
            Some(again) => match order.peek_mut() {
                Some(mut first) if first.0 < (again, n) => {
                    Some(std::mem::replace(&mut *first, Reverse((again, n))))
                }
                _ => Some(Reverse((again, n))),
            },
        };
    }
    copies.finish(&mut |kept, placed| keep(kept, placed, heads, &sources));
    sources
}

/// `--since` / `--until`: events outside are dropped before analysis.
#[derive(Debug, Clone, Copy, Default)]
pub struct Window {
    pub since: Option<i64>,
    pub until: Option<i64>,
}

impl Window {
    pub fn is_open(&self) -> bool {
        self.since.is_none() && self.until.is_none()
    }

    /// Whether a time is inside the window.
    pub fn contains(&self, ts: i64) -> bool {
        self.since.is_none_or(|s| ts >= s) && self.until.is_none_or(|u| ts <= u)
    }

    /// Keeps a stream's events inside the window. An untimed event (a line without a time of
    /// its own) goes with the timed event before it in its file, as the trace places it; a
    /// stream with no time at all cannot be placed and is dropped.
    pub fn retain(&self, events: &mut Vec<Event>) {
        if self.is_open() {
            return;
        }
        retain_flagged(events, &self.keeps(events.iter().map(|e| e.ts)));
    }

    /// Which of a stream's events (by their times, in order) [`Window::retain`] keeps.
    fn keeps(&self, times: impl Iterator<Item = Option<i64>> + Clone) -> Vec<bool> {
        let mut placed = times.clone().find_map(|ts| ts);
        times
            .map(|ts| {
                if ts.is_some() {
                    placed = ts;
                }
                placed.is_some_and(|ts| self.contains(ts))
            })
            .collect()
    }

    /// [`Window::retain`] on every stream, and on its interned entities.
    pub fn apply(&self, parsed: &mut Parsed) {
        if self.is_open() {
            return;
        }
        for stream in &mut parsed.streams {
            // Appended to the merge as read, inside the window already, but for what the
            // prefilter's second pass spliced in.
            if stream.appended {
                self.retain(&mut stream.spliced);
            } else {
                self.apply_to(stream);
            }
        }
    }

    /// [`Window::apply`] to one stream.
    fn apply_to(&self, stream: &mut StreamOutcome) {
        if self.is_open() {
            return;
        }
        if !stream.audit.is_empty() {
            let keep = self.keeps(stream.audit.times());
            stream.audit.retain(&keep);
        }
        let keep = self.keeps(stream.events.iter().map(|e| e.ts));
        if let Some(entities) = &mut stream.entities {
            entities.retain(&keep);
        }
        retain_flagged(&mut stream.events, &keep);
    }
}

/// Keeps the events whose flag in `keep` (one per event, in order) is set.
fn retain_flagged(events: &mut Vec<Event>, keep: &[bool]) {
    let mut keep = keep.iter();
    events.retain(|_| keep.next().copied().unwrap_or(false));
}

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
    /// Where a progress bar reads how far the run is.
    pub progress: Option<Arc<Progress>>,
    /// OM audit lines left unparsed (see [`crate::prefilter`]); counted as typed records.
    pub skip: Option<Skip>,
    /// With `Keep::Typed`: what the consumers read ([`prefilter::keeps`]); typed records no
    /// consumer reads are counted, not kept ([`StreamOutcome::unkept_in_window`]).
    pub kinds: Option<Arc<Wanted>>,
    /// `--since` / `--until`, for counting the unkept records inside it.
    pub window: Window,
    /// What reading one input may cost (`--max-expand`).
    pub limits: Limits,
    /// The read feeds a trace ([`load`]): each stream's entities are interned by its reader
    /// ([`StreamOutcome::entities`]) and, when every kind is kept, an OM audit log's records wait
    /// unbuilt for the merge to fold their copies ([`StreamOutcome::audit`]).
    pub trace: bool,
    /// Where the readers of OM audit logs that are folded together share the splits of the
    /// messages they meet (each is written once per OM); `None`: each splits its own.
    pub audit_splits: Option<Arc<AuditSplits>>,
    /// With `trace`: where the readers intern their streams' entities together
    /// ([`StreamEntities::of_shared`]); `None`: each stream its own.
    pub entities: Option<Arc<SharedEntities>>,
}

impl ReadConfig {
    /// Reads with the built-in layouts in UTC on every available core.
    pub fn new(keep: Keep) -> ReadConfig {
        ReadConfig {
            zones: TimeZones::default(),
            forced_layout: None,
            keep,
            jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
            progress: None,
            skip: None,
            kinds: None,
            window: Window::default(),
            limits: Limits::default(),
            trace: false,
            audit_splits: None,
            entities: None,
        }
    }
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
    /// Every host and component with a record in the stream (the logs a rule's coverage counts,
    /// whether or not their events were kept).
    pub sources: Vec<(Arc<str>, Component)>,
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
    /// The Ozone releases its services' startup banners print, in the order seen.
    pub releases: Vec<String>,
    pub events: Vec<Event>,
    /// The entities of `events`, interned by the reading thread for the merge (reads for a
    /// trace, [`ReadConfig::trace`]).
    pub entities: Option<StreamEntities>,
    /// An OM audit log's records, read for a trace with every kind kept ([`ReadConfig::trace`]):
    /// held unbuilt until the merge folds their copies, since most are copies ([`build_trace`]).
    audit: HeldAudit,
    /// Typed records inside the window that no consumer reads: counted, not kept (`scan`).
    pub unkept_in_window: u64,
    /// Its events' table is in the load's merge already, as read ([`TraceBuilder::append`]).
    appended: bool,
    /// Events of an appended stream that the prefilter's second pass found
    /// ([`read_anchored`]): the merge takes them as a stream of their own.
    spliced: Vec<Event>,
    /// The input unit it was read from (its index in discovery order).
    pub unit: usize,
    /// The argument that unit was found under (its place among the paths read).
    pub argument: usize,
}

/// Everything read from the inputs.
#[derive(Debug, Default)]
pub struct Parsed {
    /// In input order: units as discovered, streams of a unit as read, rotations oldest first.
    pub streams: Vec<StreamOutcome>,
    pub unreadable: Vec<Unreadable>,
    pub configs: Vec<ConfigFile>,
    pub skipped: Vec<String>,
    /// Inputs whose reading failed inside oztrace (a caught panic): the run goes on without them
    /// and ends with the internal-error status.
    pub errors: Vec<Unreadable>,
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

    /// What the reports list under `unreadable`, by path: the inputs that could not be read and
    /// those whose reading failed inside oztrace, in the one shape (`{"file", "path", "reason"}`).
    pub fn all_unreadable(&self) -> Vec<Unreadable> {
        let mut all: Vec<Unreadable> = self
            .unreadable
            .iter()
            .chain(&self.errors)
            .cloned()
            .collect();
        all.sort_by(|a, b| (&a.path, &a.reason).cmp(&(&b.path, &b.reason)));
        all
    }

    /// Takes every stream's events, one buffer per stream in input order.
    pub fn take_events(&mut self) -> Vec<Vec<Event>> {
        self.streams
            .iter_mut()
            .map(|s| std::mem::take(&mut s.events))
            .collect()
    }
}

/// Reads every input; `on_stream` sees each stream in input order as soon as it and every
/// stream before it are read, and may take its events, so that a caller that writes them out
/// holds at most a few units' events in memory: workers run at most two units per thread
/// ahead of the stream being delivered.
///
/// Units are read on a rayon pool of `config.jobs` threads. A unit whose reading panics is caught
/// there (`catch_unwind` per unit): it is named in [`Parsed::errors`] and the rest is still read.
pub fn read_inputs_streaming(
    paths: &[PathBuf],
    config: &ReadConfig,
    on_stream: &mut dyn FnMut(&mut StreamOutcome),
) -> Parsed {
    read_units(paths, config, None, &BTreeSet::new(), on_stream)
}

/// The inputs' units in reading order (rotated files of one log oldest first), and what
/// discovery found besides them.
fn discover(paths: &[PathBuf]) -> (Vec<InputUnit>, Parsed) {
    let discovery = input::discover(paths);
    let mut units = discovery.units;
    // Rotated files of one log are read oldest first; the arguments in the order given.
    units.sort_by_cached_key(|unit| {
        let key = unit.log_key();
        (unit.argument(), key.stream, Reverse(key.age))
    });
    let parsed = Parsed {
        unreadable: discovery.unreadable,
        configs: discovery.configs,
        skipped: discovery.skipped,
        ..Parsed::default()
    };
    (units, parsed)
}

/// [`read_inputs_streaming`] of the units whose indexes are in `only` (all when `None`), less
/// those in `except`.
pub fn read_units(
    paths: &[PathBuf],
    config: &ReadConfig,
    only: Option<&BTreeSet<usize>>,
    except: &BTreeSet<usize>,
    on_stream: &mut dyn FnMut(&mut StreamOutcome),
) -> Parsed {
    let (units, parsed) = discover(paths);
    read_discovered(&units, parsed, config, only, except, on_stream)
}

/// [`read_units`] of units discovered already, their streams added to `parsed` (what their
/// discovery found besides them).
fn read_discovered(
    units: &[InputUnit],
    mut parsed: Parsed,
    config: &ReadConfig,
    only: Option<&BTreeSet<usize>>,
    except: &BTreeSet<usize>,
    on_stream: &mut dyn FnMut(&mut StreamOutcome),
) -> Parsed {
    let indexes: Vec<usize> = (0..units.len())
        .filter(|i| only.is_none_or(|only| only.contains(i)) && !except.contains(i))
        .collect();
    let threads = config.jobs.max(1).min(indexes.len().max(1));
    let read = |n: usize| {
        let i = indexes[n];
        let unit: &InputUnit = &units[i];
        let mut result = caught(unit.display(), || read_unit(unit, config, None));
        for stream in &mut result.streams {
            stream.unit = i;
            stream.argument = unit.argument();
        }
        result
    };
    let delivered = in_order(indexes.len(), threads, &read, &mut |unit: UnitResult| {
        for mut stream in unit.streams {
            on_stream(&mut stream);
            parsed.streams.push(stream);
        }
        parsed.unreadable.extend(unit.unreadable);
        parsed.configs.extend(unit.configs);
        parsed.errors.extend(unit.error);
    });
    if let Err(e) = delivered {
        parsed.errors.push(Unreadable {
            path: "-".into(),
            reason: format!("internal error: cannot start the reading threads: {e}"),
        });
    }
    parsed.unreadable.sort_by(|a, b| a.path.cmp(&b.path));
    parsed
}

/// The units that are OM audit logs by name (`om-audit-<host>.log`, its rotations and
/// compressed copies), by index in reading order.
fn audit_log_units(units: &[InputUnit]) -> BTreeSet<usize> {
    units
        .iter()
        .enumerate()
        .filter(|(_, unit)| {
            oztrace_parser::source::hint_from_path(unit.display()).component
                == Some(Component::OmAudit)
        })
        .map(|(i, _)| i)
        .collect()
}

/// Records handed from a log's reading thread to the merge at a time, and how many such batches
/// may wait per log: what the merge holds is a few batches per log, whatever the logs' size.
/// Each hand-over wakes a thread; a batch is two buffers (its records' text and their headers),
/// reused by its reader once the merge is done with it, so that nothing is allocated or freed
/// per record on the way.
const MERGE_BATCH: usize = 1024;
const MERGE_BATCHES_AHEAD: usize = 2;
/// A batch (to the merge or to a renderer) also ends once its records' text reaches this: with
/// lines of up to [`oztrace_parser::record::MAX_LINE_BYTES`], what is in flight stays a few MB
/// per log whatever the lines' length.
const BATCH_TEXT_BYTES: usize = 1 << 20;

/// An OM audit record read into a sink (the OM audit merge): its event is built only once the
/// copy fold keeps it, as the first of its copies. Every OM writes the audit line of every
/// request, so most records of a cluster's OM audit logs are copies, folded away unbuilt.
pub struct Deferred<'r> {
    /// Lent by its reader; its thread and logger names are in `named`.
    record: &'r Record,
    key: CopyKey,
    /// Where its reader found its audit message's parts, for its event to be typed from.
    parts: Option<PartsAt>,
    host: &'r Arc<str>,
    file: &'r Arc<str>,
    named: Named,
}

/// What a stream's reader hands to its sink: an event, or an OM audit record whose event waits.
pub enum Pending<'r> {
    Built(Event),
    Deferred(Deferred<'r>),
}

/// Who wrote records of a batch, and where: their host, file and names, and the argument the file
/// was found under (files are named relative to theirs: several can share a name).
struct Source {
    host: Arc<str>,
    file: Arc<str>,
    named: Named,
    argument: u32,
}

impl Source {
    fn is(&self, host: &Arc<str>, file: &Arc<str>, named: &Named, argument: u32) -> bool {
        fn same(a: &Option<Arc<str>>, b: &Option<Arc<str>>) -> bool {
            match (a, b) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
        }
        self.argument == argument
            && Arc::ptr_eq(&self.host, host)
            && Arc::ptr_eq(&self.file, file)
            && same(&self.named.thread, &named.thread)
            && same(&self.named.logger, &named.logger)
    }

    /// A copy of its own: the render threads count references to their events' names on every
    /// event, each on its own copies rather than on counts that all threads share.
    fn own(&self) -> Source {
        let own = |name: &Arc<str>| Arc::<str>::from(&**name);
        Source {
            host: own(&self.host),
            file: own(&self.file),
            named: Named {
                thread: self.named.thread.as_ref().map(own),
                logger: self.named.logger.as_ref().map(own),
            },
            argument: self.argument,
        }
    }

    fn shared(&self) -> Source {
        Source {
            host: Arc::clone(&self.host),
            file: Arc::clone(&self.file),
            named: Named {
                thread: self.named.thread.clone(),
                logger: self.named.logger.clone(),
            },
            argument: self.argument,
        }
    }
}

/// A record of an OM audit log on its way through the merge.
struct Raw {
    ts: Option<i64>,
    line: u64,
    level: Option<Level>,
    key: Option<CopyKey>,
    /// Its [`Source`], in its batch.
    source: u32,
    body: Body,
}

/// What a record holds besides its header.
enum Body {
    /// Only its message, at `start..end` of its batch's text, and whether it printed an empty
    /// throwable (`| %throwable{3}` of a request that succeeded): nearly every OM audit record.
    Text(u32, u32, bool),
    /// A record with more (a throwable, continuation lines, a wrapper's host), whole.
    Record(Box<Record>),
    /// An event built by its reader.
    Built(Box<Event>),
}

/// Records of one log, in file order.
#[derive(Default)]
struct AuditBatch {
    text: String,
    records: Vec<Raw>,
    /// Per record, where its reader found its audit message's parts (none past the last record
    /// that has them): kept only on the way to the merge's renderers, not by a whole log held.
    parts: Vec<Option<PartsAt>>,
    sources: Vec<Source>,
    /// The text of its records (in `text` or not), for [`BATCH_TEXT_BYTES`].
    bytes: usize,
}

impl AuditBatch {
    /// Adds a record of a file found under argument `argument`.
    fn push(&mut self, pending: Pending<'_>, argument: u32) {
        let raw = match pending {
            Pending::Deferred(deferred) => {
                let source = self.source(deferred.host, deferred.file, deferred.named, argument);
                if deferred.parts.is_some() {
                    self.parts.resize(self.records.len(), None);
                    self.parts.push(deferred.parts);
                }
                let record = deferred.record;
                let (ts, line, level) = (record.ts, record.line, record.level);
                self.bytes += record.message.len() + record.continuation.len();
                // Every field named: a field added to records is looked at here too. Its thread
                // and logger names are its source's.
                let Record {
                    line: _,
                    ts: _,
                    level: _,
                    thread: _,
                    logger: _,
                    message,
                    throwable,
                    continuation,
                    continuation_lines,
                    host,
                    component,
                    headerless,
                } = record;
                let only_text = throwable.as_deref().is_none_or(str::is_empty)
                    && continuation.is_empty()
                    && *continuation_lines == 0
                    && host.is_none()
                    && component.is_none()
                    && !headerless
                    && self.text.len() + message.len() <= u32::MAX as usize;
                let body = if only_text {
                    let start = self.text.len() as u32;
                    self.text.push_str(message);
                    Body::Text(start, self.text.len() as u32, throwable.is_some())
                } else {
                    Body::Record(Box::new(Record {
                        thread: None,
                        logger: None,
                        ..record.clone()
                    }))
                };
                Raw {
                    ts,
                    line,
                    level,
                    key: Some(deferred.key),
                    source,
                    body,
                }
            }
            Pending::Built(event) => {
                let source = self.source(&event.host, &event.file, Named::default(), argument);
                self.bytes += event.text.len();
                Raw {
                    ts: event.ts,
                    line: event.line,
                    level: event.level,
                    key: copy_key(&event),
                    source,
                    body: Body::Built(Box::new(event)),
                }
            }
        };
        self.records.push(raw);
    }

    /// The number of the source of a record, added if new (a batch has one or a few).
    fn source(&mut self, host: &Arc<str>, file: &Arc<str>, named: Named, argument: u32) -> u32 {
        if let Some(n) = (self.sources.iter()).rposition(|s| s.is(host, file, &named, argument)) {
            return n as u32;
        }
        self.sources.push(Source {
            host: Arc::clone(host),
            file: Arc::clone(file),
            named,
            argument,
        });
        (self.sources.len() - 1) as u32
    }

    fn is_full(&self) -> bool {
        self.records.len() >= MERGE_BATCH || self.bytes >= BATCH_TEXT_BYTES
    }

    /// Empty, its buffers kept for the next records.
    fn clear(&mut self) {
        self.text.clear();
        self.records.clear();
        self.parts.clear();
        self.sources.clear();
        self.bytes = 0;
    }
}

/// An OM audit log's records held unbuilt for the merge's fold ([`ReadConfig::trace`]), in
/// batches sized to their records (not to their growth).
#[derive(Default)]
struct HeldAudit {
    batches: Vec<AuditBatch>,
    filling: AuditBatch,
}

impl std::fmt::Debug for HeldAudit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HeldAudit({} records)", self.records())
    }
}

impl HeldAudit {
    fn push(&mut self, mut pending: Pending<'_>) {
        // Held until the whole log is read: its records' parts are found again when built.
        if let Pending::Deferred(deferred) = &mut pending {
            deferred.parts = None;
        }
        // A trace does not tell its events' arguments apart.
        self.filling.push(pending, 0);
        if self.filling.is_full() {
            self.seal();
        }
    }

    fn seal(&mut self) {
        let mut batch = std::mem::take(&mut self.filling);
        if !batch.records.is_empty() {
            batch.text.shrink_to_fit();
            batch.records.shrink_to_fit();
            self.batches.push(batch);
        }
    }

    fn finish(mut self) -> HeldAudit {
        self.seal();
        self
    }

    fn records(&self) -> usize {
        self.batches.iter().map(|b| b.records.len()).sum()
    }

    fn is_empty(&self) -> bool {
        self.batches.is_empty() && self.filling.records.is_empty()
    }

    /// Built events as held records, for the fold.
    fn of_events(events: Vec<Event>) -> HeldAudit {
        let mut held = HeldAudit::default();
        for event in events {
            held.push(Pending::Built(event));
        }
        held.finish()
    }

    /// The events of its records, in order (none folded).
    fn into_events(self) -> Vec<Event> {
        let mut events = Vec::with_capacity(self.records());
        for batch in self.batches {
            let AuditBatch {
                text,
                records,
                sources,
                ..
            } = batch;
            events.extend(records.into_iter().map(|raw| {
                let source = &sources[raw.source as usize];
                raw.body
                    .event(raw.ts, raw.line, raw.level, &text, source, None)
            }));
        }
        events
    }

    /// The time of each record, in order.
    fn times(&self) -> impl Iterator<Item = Option<i64>> + Clone {
        self.batches
            .iter()
            .flat_map(|b| b.records.iter().map(|r| r.ts))
    }

    /// Keeps the records whose flag in `keep` (one per record, in order) is set.
    fn retain(&mut self, keep: &[bool]) {
        let mut keep = keep.iter();
        for batch in &mut self.batches {
            batch
                .records
                .retain(|_| keep.next().copied().unwrap_or(false));
        }
    }
}

/// What the caller of [`read_audit_merged`] makes of its events, on worker threads: `render`
/// appends an event's text (with the argument its file was found under, by place among the paths
/// read, and its place in time order) to a batch's, or nothing to leave it out.
pub type Render<'a> =
    &'a (dyn Fn(KeptRecord<'_>, usize, i64, &mut Vec<u8>) -> std::io::Result<()> + Sync);

/// A record the OM audit merge kept, on a render thread: its event is built only if asked for
/// ([`KeptRecord::event`]); the JSON line of a key audit record is written from its text
/// ([`KeptRecord::write_json`]). Building the event, then dropping it, was about half the time of
/// the render threads: about ten allocations for each of the million events of a 1 GB bundle.
pub struct KeptRecord<'j> {
    kept: Kept,
    /// Its job's text.
    text: &'j str,
    /// Its copies: (source, line).
    copies: &'j mut [(u32, u64)],
    sources: &'j [Source],
    /// Where its key entity is printed.
    printed: &'j mut String,
}

impl KeptRecord<'_> {
    pub fn ts(&self) -> Option<i64> {
        self.kept.ts
    }

    /// Its event, typed now, its copies listed by host, file and line.
    pub fn event(self) -> Event {
        let source = &self.sources[self.kept.source as usize];
        let kept = self.kept;
        let mut event = (kept.body).event(
            kept.ts, kept.line, kept.level, self.text, source, kept.parts,
        );
        if !self.copies.is_empty() {
            event.copies = listed(
                self.copies
                    .iter()
                    .map(|&(source, line)| (&self.sources[source as usize], line)),
            );
        }
        event
    }

    /// Appends the JSON object of its event, without a line end, to `out`: as
    /// [`Event::write_json`] writes it.
    pub fn write_json(self, out: &mut Vec<u8>) -> std::io::Result<()> {
        let Kept {
            body: Body::Text(start, end, throwable),
            parts: Some(at),
            ..
        } = self.kept
        else {
            return self.event().write_json(out).map_err(std::io::Error::from);
        };
        let message = &self.text[start as usize..end as usize];
        let parts = at.parts(message);
        // The throwable an event built from this text would hold (`Body::event`).
        let Some((family, fields)) = om::key_audit_view(&parts, throwable.then_some("")) else {
            return self.event().write_json(out).map_err(std::io::Error::from);
        };
        self.printed.clear();
        self.printed.push_str("key:");
        entity::push_key_path(self.printed, fields.volume, fields.bucket, fields.key);
        let sources = self.sources;
        let source = &sources[self.kept.source as usize];
        // In the order of `Copy`, each once, as `listed` lists them.
        let name = |&(source, line): &(u32, u64)| {
            let source = &sources[source as usize];
            (&*source.host, &*source.file, line)
        };
        self.copies.sort_unstable_by(|a, b| name(a).cmp(&name(b)));
        let mut last = None;
        let copies = self.copies.iter().map(name).filter(move |copy| {
            let new = last != Some(*copy);
            last = Some(*copy);
            new
        });
        JsonLine {
            ts: self.kept.ts,
            host: &source.host,
            component: Component::OmAudit,
            level: self.kept.level,
            thread: source.named.thread.as_deref(),
            logger: source.named.logger.as_deref(),
            kind: family.kind(),
            entities: JsonEntities::Printed(self.printed),
            fields: JsonFields::Key(&fields),
            file: &source.file,
            line: self.kept.line,
            continuation_lines: 0,
            text: message,
            copies,
        }
        .write(out)
        .map_err(std::io::Error::from)
    }
}

/// A batch of events as [`Render`] wrote them, in the merge's order.
#[derive(Debug, Default)]
pub struct Rendered {
    pub text: Vec<u8>,
    /// Per event that wrote any text: its place in time order and where its text ends.
    pub ends: Vec<(i64, usize)>,
    /// What stopped the batch's rendering; the events before it are in `text`.
    pub error: Option<std::io::Error>,
}

/// Events the merge hands to a renderer at a time, and how many batches per thread may be out
/// being rendered: memory is that of a few batches' text (see [`MERGE_BATCH`]).
const RENDER_BATCH: usize = 1024;
const RENDERS_AHEAD: usize = 1;

/// The sources of every log in the merge, numbered once for the whole merge, and the number of
/// each one's host (hosts compared by name, as the fold compares them).
#[derive(Default)]
struct Sources {
    all: Vec<Source>,
    host_of: Vec<u32>,
    /// Sources by their argument and the addresses of their host, file and names (kept alive in
    /// `all`).
    by_address: rustc_hash::FxHashMap<[usize; 5], u32>,
    hosts: rustc_hash::FxHashMap<Arc<str>, u32>,
}

impl Sources {
    fn number(&mut self, source: &Source) -> u32 {
        fn address(name: Option<&Arc<str>>) -> usize {
            name.map_or(0, |name| Arc::as_ptr(name) as *const u8 as usize)
        }
        let key = [
            address(Some(&source.host)),
            address(Some(&source.file)),
            address(source.named.thread.as_ref()),
            address(source.named.logger.as_ref()),
            source.argument as usize,
        ];
        if let Some(&n) = self.by_address.get(&key) {
            return n;
        }
        let n = self.all.len() as u32;
        let next_host = self.hosts.len() as u32;
        let host = *self
            .hosts
            .entry(Arc::clone(&source.host))
            .or_insert(next_host);
        self.all.push(source.shared());
        self.host_of.push(host);
        self.by_address.insert(key, n);
        n
    }
}

/// Where one copy of a record was written: its source (in [`Sources`]), its host's number and
/// its line.
#[derive(Debug, Clone, Copy)]
struct RawCopy {
    source: u32,
    host: u32,
    line: u64,
}

/// A record as the fold holds it: where it is among its log's batches, and its copies.
struct Held {
    log: u32,
    batch: u64,
    index: u32,
    ts: Option<i64>,
    copy: RawCopy,
    copies: Vec<RawCopy>,
}

impl Folded for Held {
    type Copy = RawCopy;
    fn ts(&self) -> Option<i64> {
        self.ts
    }
    fn copy(&self) -> RawCopy {
        self.copy
    }
    fn same_host(a: &RawCopy, b: &RawCopy) -> bool {
        a.host == b.host
    }
    fn copies(&self) -> &[RawCopy] {
        &self.copies
    }
    fn add_copy(&mut self, copy: RawCopy) {
        self.copies.push(copy);
    }
    /// Copies are put in order by name once their event is built ([`Kept::event`]).
    fn settle(&mut self) {}
}

/// A batch of one log in the merge, and how many of its records are not done with yet (not
/// taken, or held by the fold).
struct LiveBatch {
    batch: AuditBatch,
    /// The merge's number of each of its sources.
    sources: Vec<u32>,
    live: usize,
}

/// The logs that have a next record, by its place, then by their number: the first is the
/// merge's next (most logs of a bundle are small ones, done or waiting for their time, while the
/// OMs' large logs go on).
type LogOrder = std::collections::BinaryHeap<Reverse<(i64, usize)>>;

/// The merge's view of one log being read: its batches, its next record and where it is placed.
struct LogHead {
    received: mpsc::Receiver<AuditBatch>,
    /// Where its batches go back, emptied, to be filled again (`None`: a stream read before the
    /// merge).
    returns: Option<mpsc::Sender<AuditBatch>>,
    /// Its batches with records not done with, oldest first; `first` is the number of the front.
    batches: std::collections::VecDeque<LiveBatch>,
    first: u64,
    /// The next record to take, in the last batch.
    at: usize,
    next: Option<(i64, Held, Option<CopyKey>)>,
    /// The file of the last record, and the latest time seen in it.
    file: Option<Arc<str>>,
    placed: i64,
}

impl LogHead {
    fn new(
        received: mpsc::Receiver<AuditBatch>,
        returns: Option<mpsc::Sender<AuditBatch>>,
    ) -> LogHead {
        LogHead {
            received,
            returns,
            batches: Default::default(),
            first: 0,
            at: 0,
            next: None,
            file: None,
            placed: i64::MIN,
        }
    }

    /// Takes the log's next record (blocking until its reader sends one or is done) and gives
    /// the place of the log by it (`None`: the log is done). `log` is its number in the merge.
    fn fill(&mut self, log: usize, sources: &mut Sources) -> Option<i64> {
        let live = loop {
            if let Some(live) = self.batches.back()
                && self.at < live.batch.records.len()
            {
                break live;
            }
            let Ok(batch) = self.received.recv() else {
                return None;
            };
            let numbers = batch.sources.iter().map(|s| sources.number(s)).collect();
            let live = batch.records.len();
            self.batches.push_back(LiveBatch {
                batch,
                sources: numbers,
                live,
            });
            self.at = 0;
            // An empty batch goes straight back.
            self.recycle();
        };
        let raw = &live.batch.records[self.at];
        let source = live.sources[raw.source as usize];
        let file = &sources.all[source as usize].file;
        if self.file.as_ref().is_none_or(|f| !Arc::ptr_eq(f, file)) {
            self.file = Some(Arc::clone(file));
            self.placed = i64::MIN;
        }
        if let Some(ts) = raw.ts {
            self.placed = self.placed.max(ts);
        }
        let held = Held {
            log: log as u32,
            batch: self.first + self.batches.len() as u64 - 1,
            index: self.at as u32,
            ts: raw.ts,
            copy: RawCopy {
                source,
                host: sources.host_of[source as usize],
                line: raw.line,
            },
            copies: Vec::new(),
        };
        self.next = Some((self.placed, held, raw.key));
        self.at += 1;
        Some(self.placed)
    }

    /// The batch of a record taken from this log and not yet done with.
    fn batch(&mut self, number: u64) -> &mut AuditBatch {
        &mut self.batches[(number - self.first) as usize].batch
    }

    /// A record taken from this log is done with (moved on to be rendered, or folded away).
    fn release(&mut self, batch: u64) {
        let at = (batch - self.first) as usize;
        self.batches[at].live -= 1;
        self.recycle();
    }

    /// Sends the oldest batches done with back to their reader.
    fn recycle(&mut self) {
        while self.batches.front().is_some_and(|b| b.live == 0) {
            if let Some(mut done) = self.batches.pop_front() {
                self.first += 1;
                done.batch.clear();
                if let Some(returns) = &self.returns {
                    // A reader that is done takes nothing back: the batch is freed here then.
                    let _ = returns.send(done.batch);
                }
            }
        }
    }
}

/// A record the fold kept, on its way to a render thread.
struct Kept {
    placed: i64,
    ts: Option<i64>,
    line: u64,
    level: Option<Level>,
    /// Its source, in its job's.
    source: u32,
    /// Its copies, at `start..end` of its job's.
    copies: (u32, u32),
    /// A text body is in its job's text.
    body: Body,
    /// Where its reader found its audit message's parts.
    parts: Option<PartsAt>,
}

/// Copies (their source and line) in their order, by host, file and line, each once.
fn listed<'s>(copies: impl Iterator<Item = (&'s Source, u64)>) -> Box<[Copy]> {
    let mut listed: Vec<Copy> = copies
        .map(|(source, line)| Copy {
            host: Arc::clone(&source.host),
            file: Arc::clone(&source.file),
            line,
        })
        .collect();
    listed.sort();
    listed.dedup();
    listed.into()
}

impl Body {
    /// The event of a record with this body and header, written by `source`; a text body is in
    /// `text`. `parts`: where its reader found its audit message's parts, if it kept them.
    fn event(
        self,
        ts: Option<i64>,
        line: u64,
        level: Option<Level>,
        text: &str,
        source: &Source,
        parts: Option<PartsAt>,
    ) -> Event {
        match self {
            Body::Built(event) => *event,
            Body::Text(start, end, throwable) => Body::build(
                Record {
                    line,
                    ts,
                    level,
                    message: text[start as usize..end as usize].to_string(),
                    throwable: throwable.then(String::new),
                    ..Record::default()
                },
                source,
                parts,
            ),
            Body::Record(record) => Body::build(*record, source, parts),
        }
    }

    fn build(record: Record, source: &Source, parts: Option<PartsAt>) -> Event {
        let component = Component::OmAudit;
        let typed = catalog::om::classify_key_audit(&record, parts)
            .or_else(|| catalog::classify(&record, component));
        let source = source.shared();
        Event::of_named(
            record,
            typed,
            source.host,
            component,
            source.file,
            source.named,
        )
    }
}

/// Kept records handed to a render thread at a time: their text copied out of their logs'
/// batches (which go back to their readers), their sources and copies. Jobs come back emptied
/// to be filled again.
#[derive(Default)]
struct RenderJob {
    text: String,
    kept: Vec<Kept>,
    /// The copies of every kept record: (source, line).
    copies: Vec<(u32, u64)>,
    sources: Vec<Source>,
    /// The job's number of each merge source it has (`u32::MAX`: none), by the merge's number.
    local: Vec<u32>,
    /// The text of its records, for [`BATCH_TEXT_BYTES`].
    bytes: usize,
}

impl RenderJob {
    /// The job's number of the merge's source `source`.
    fn source(&mut self, source: u32, sources: &Sources) -> u32 {
        let at = source as usize;
        if self.local.len() <= at {
            self.local.resize(at + 1, u32::MAX);
        }
        if self.local[at] == u32::MAX {
            self.local[at] = self.sources.len() as u32;
            self.sources.push(sources.all[at].own());
        }
        self.local[at]
    }

    fn clear(&mut self) {
        self.text.clear();
        self.kept.clear();
        self.copies.clear();
        self.sources.clear();
        self.local.clear();
        self.bytes = 0;
    }
}

/// The merge's kept records on their way through the render threads and back, in order.
struct Renderers {
    job: RenderJob,
    sent: u64,
    delivered: u64,
    ahead: u64,
    jobs: crossbeam_channel::Sender<(u64, RenderJob)>,
    received: mpsc::Receiver<(u64, Rendered)>,
    /// Jobs rendered, emptied.
    spare: mpsc::Receiver<RenderJob>,
    waiting: BTreeMap<u64, Rendered>,
}

impl Renderers {
    /// Starts `threads` render threads in `scope`.
    fn start<'scope>(
        scope: &'scope std::thread::Scope<'scope, '_>,
        render: Render<'scope>,
        threads: usize,
    ) -> Renderers {
        let ahead = RENDERS_AHEAD * threads.max(1);
        let (jobs, queue) = crossbeam_channel::bounded::<(u64, RenderJob)>(ahead);
        let (finished, received) = mpsc::channel();
        let (done, spare) = mpsc::channel();
        for _ in 0..threads.max(1) {
            let (queue, finished, done) = (queue.clone(), finished.clone(), done.clone());
            scope.spawn(move || {
                // The text of a batch is about as long as the one before: room for it up front
                // rather than growing (and copying) it a doubling at a time.
                let mut room = 0;
                // Ends when the merge drops its sender.
                while let Ok((n, mut job)) = queue.recv() {
                    let rendered = render_job(&mut job, render, room);
                    room = rendered.text.len() + rendered.text.len() / 8;
                    // The merge waits for every batch it sent: a send cannot fail.
                    let _ = finished.send((n, rendered));
                    job.clear();
                    let _ = done.send(job);
                }
            });
        }
        Renderers {
            job: RenderJob::default(),
            sent: 0,
            delivered: 0,
            ahead: ahead as u64,
            jobs,
            received,
            spare,
            waiting: BTreeMap::new(),
        }
    }

    /// Takes the next kept record out of its log's batch; hands `deliver` the batches rendered so
    /// far, in order.
    fn push(
        &mut self,
        kept: Held,
        placed: i64,
        heads: &mut [LogHead],
        sources: &Sources,
        deliver: &mut dyn FnMut(Rendered),
    ) {
        let job = &mut self.job;
        let head = &mut heads[kept.log as usize];
        let batch = head.batch(kept.batch);
        let parts = batch.parts.get(kept.index as usize).copied().flatten();
        let raw = &mut batch.records[kept.index as usize];
        let (ts, line, level) = (raw.ts, raw.line, raw.level);
        let body = match std::mem::replace(&mut raw.body, Body::Text(0, 0, false)) {
            Body::Text(start, end, throwable) => {
                let text = &batch.text[start as usize..end as usize];
                job.bytes += text.len();
                let at = job.text.len() as u32;
                job.text.push_str(text);
                Body::Text(at, job.text.len() as u32, throwable)
            }
            Body::Record(record) => {
                job.bytes += record.message.len() + record.continuation.len();
                Body::Record(record)
            }
            Body::Built(event) => {
                job.bytes += event.text.len();
                Body::Built(event)
            }
        };
        head.release(kept.batch);
        let source = job.source(kept.copy.source, sources);
        let first_copy = job.copies.len() as u32;
        for copy in &kept.copies {
            let source = job.source(copy.source, sources);
            job.copies.push((source, copy.line));
        }
        job.kept.push(Kept {
            placed,
            ts,
            line,
            level,
            source,
            copies: (first_copy, job.copies.len() as u32),
            body,
            parts,
        });
        if job.kept.len() >= RENDER_BATCH || job.bytes >= BATCH_TEXT_BYTES {
            self.send();
            while self.sent - self.delivered > self.ahead {
                self.receive(deliver);
            }
        }
    }

    fn send(&mut self) {
        let spare = self.spare.try_recv().unwrap_or_default();
        let job = std::mem::replace(&mut self.job, spare);
        // The render threads outlive the merge: a send cannot fail.
        let _ = self.jobs.send((self.sent, job));
        self.sent += 1;
    }

    /// Waits for one rendered batch and delivers every batch now next in order.
    fn receive(&mut self, deliver: &mut dyn FnMut(Rendered)) {
        // Every batch sent comes back exactly once (a panic while rendering is caught), so this
        // returns.
        if let Ok((n, rendered)) = self.received.recv() {
            self.waiting.insert(n, rendered);
        }
        while let Some(rendered) = self.waiting.remove(&self.delivered) {
            deliver(rendered);
            self.delivered += 1;
        }
    }

    /// Renders what is left, delivers every batch and lets the render threads end.
    fn finish(mut self, deliver: &mut dyn FnMut(Rendered)) {
        if !self.job.kept.is_empty() {
            self.send();
        }
        while self.delivered < self.sent {
            self.receive(deliver);
        }
    }
}

/// Builds and renders a job's kept records into `room` bytes to start with. A panic stops the
/// batch with an internal error (the events before it are rendered).
fn render_job(job: &mut RenderJob, render: Render<'_>, room: usize) -> Rendered {
    let mut rendered = Rendered {
        text: Vec::with_capacity(room),
        ends: Vec::with_capacity(job.kept.len()),
        error: None,
    };
    let RenderJob {
        text,
        kept,
        copies,
        sources,
        ..
    } = job;
    let mut printed = String::new();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        for kept in kept.drain(..) {
            let placed = kept.placed;
            let start = rendered.text.len();
            let argument = sources[kept.source as usize].argument as usize;
            let (from, to) = kept.copies;
            let record = KeptRecord {
                kept,
                text,
                copies: &mut copies[from as usize..to as usize],
                sources,
                printed: &mut printed,
            };
            if let Err(e) = render(record, argument, placed, &mut rendered.text) {
                rendered.text.truncate(start);
                return Err(e);
            }
            if rendered.text.len() > start {
                rendered.ends.push((placed, rendered.text.len()));
            }
        }
        Ok(())
    }));
    rendered.error = match outcome {
        Ok(result) => result.err(),
        Err(_) => {
            // What the panicking event wrote is cut.
            let end = rendered.ends.last().map_or(0, |&(_, end)| end);
            rendered.text.truncate(end);
            Some(std::io::Error::other(
                "internal error while rendering an OM audit event",
            ))
        }
    };
    rendered
}

/// Reads the units `only` (OM audit logs, [`audit_log_units`]) side by side, each log (its
/// rotations, oldest first) on its own thread, merges their records into one time order, by the
/// latest time seen so far in their file (so each file keeps its order), then by log in reading
/// order, and folds their copies as they come ([`AuditCopies`]: every OM writes the same audit
/// lines at about the same time). The events kept are built and rendered ([`Render`], with their
/// place in that order) in batches on `config.jobs` threads, and `on_rendered` sees the batches
/// in that order.
///
/// Records travel in batches that hold their text in one buffer ([`AuditBatch`]); the merge
/// copies out the text of the records it keeps and sends each batch back to its reader to be
/// filled again: nothing is allocated or freed per record between reader and renderer.
///
/// `held` are OM audit streams already read (found inside archives, or not named as OM audit
/// logs): they join the merge as logs of their own. What discovery found besides the units is
/// left to the other read of the same inputs.
fn read_audit_merged(
    units: &[InputUnit],
    config: &ReadConfig,
    only: &BTreeSet<usize>,
    held: Vec<(usize, Vec<Event>)>,
    skew_ms: i64,
    render: Render<'_>,
    on_rendered: &mut dyn FnMut(Rendered),
) -> Parsed {
    let config = &ReadConfig {
        audit_splits: Some(Arc::default()),
        ..config.clone()
    };
    let mut parsed = Parsed::default();
    let mut by_log: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for &i in only.iter().filter(|&&i| i < units.len()) {
        by_log.entry(units[i].log_key().stream).or_default().push(i);
    }
    let mut logs: Vec<Vec<usize>> = by_log.into_values().collect();
    // Oldest first, also when several arguments name files of one log.
    for log in &mut logs {
        log.sort_by_key(|&i| Reverse(units[i].log_key().age));
    }
    let results: Vec<UnitResult> = std::thread::scope(|scope| {
        let mut heads: Vec<LogHead> = Vec::new();
        let mut readers = Vec::new();
        for log in &logs {
            let (sender, received) = mpsc::sync_channel::<AuditBatch>(MERGE_BATCHES_AHEAD);
            let (returns, mut returned) = mpsc::channel::<AuditBatch>();
            heads.push(LogHead::new(received, Some(returns)));
            let units = &units;
            readers.push(scope.spawn(move || {
                let mut results = Vec::new();
                let mut batch = AuditBatch::default();
                for &i in log {
                    let unit = &units[i];
                    let argument = unit.argument() as u32;
                    let (filling, sender, spares) = (&mut batch, &sender, &mut returned);
                    let mut send = move |pending: Pending<'_>| {
                        filling.push(pending, argument);
                        if filling.is_full() {
                            // A batch the merge is done with is filled again.
                            let spare = spares.try_recv().unwrap_or_default();
                            // The merge outlives every reader: a send cannot fail.
                            let _ = sender.send(std::mem::replace(filling, spare));
                        }
                    };
                    let mut result =
                        caught(unit.display(), || read_unit(unit, config, Some(&mut send)));
                    if !batch.records.is_empty() {
                        let spare = returned.try_recv().unwrap_or_default();
                        let _ = sender.send(std::mem::replace(&mut batch, spare));
                    }
                    for stream in &mut result.streams {
                        stream.unit = i;
                        stream.argument = unit.argument();
                    }
                    results.push(result);
                }
                results
            }));
        }
        for (argument, events) in held {
            let (sender, received) = mpsc::channel();
            let mut batch = AuditBatch::default();
            for event in events {
                batch.push(Pending::Built(event), argument as u32);
                if batch.is_full() {
                    let _ = sender.send(std::mem::take(&mut batch));
                }
            }
            let _ = sender.send(batch);
            heads.push(LogHead::new(received, None));
        }
        {
            let mut renderers = Renderers::start(scope, render, config.jobs);
            fold_heads(&mut heads, skew_ms, &mut |kept, placed, heads, sources| {
                renderers.push(kept, placed, heads, sources, on_rendered)
            });
            renderers.finish(on_rendered);
        }
        // Every reader is done sending: what goes back now is freed here.
        drop(heads);
        readers
            .into_iter()
            // Each unit's panic is caught inside: a reader cannot fail to join.
            .flat_map(|reader| reader.join().unwrap_or_default())
            .collect()
    });
    for result in results {
        parsed.streams.extend(result.streams);
        parsed.unreadable.extend(result.unreadable);
        parsed.configs.extend(result.configs);
        parsed.errors.extend(result.error);
    }
    parsed.streams.sort_by_key(|s| s.unit);
    parsed.unreadable.sort_by(|a, b| a.path.cmp(&b.path));
    parsed
}

/// Reads every input for `events`: each stream to `on_stream` as soon as it and every stream
/// before it are read (see [`read_inputs_streaming`]), except the OM audit logs, read after the
/// rest side by side with their copies folded ([`read_audit_merged`]): their events rendered on
/// worker threads by `render`, in batches to `on_rendered` in one time order. Memory is that of
/// the streams being read, and of the copy window.
pub fn read_for_events(
    paths: &[PathBuf],
    config: &ReadConfig,
    skew_ms: i64,
    on_stream: &mut dyn FnMut(&mut StreamOutcome),
    render: Render<'_>,
    on_rendered: &mut dyn FnMut(Rendered),
) -> Parsed {
    // Discovered once for both reads: a support bundle has a thousand files and more.
    let (units, discovered) = discover(paths);
    let audit_logs = audit_log_units(&units);
    let mut held: Vec<(usize, Vec<Event>)> = Vec::new();
    let mut parsed = read_discovered(
        &units,
        discovered,
        config,
        None,
        &audit_logs,
        &mut |stream| {
            if stream.component == Component::OmAudit {
                held.push((stream.argument, std::mem::take(&mut stream.events)));
            } else {
                on_stream(stream);
            }
        },
    );
    let audit = read_audit_merged(
        &units,
        config,
        &audit_logs,
        held,
        skew_ms,
        render,
        on_rendered,
    );
    parsed.streams.extend(audit.streams);
    parsed.streams.sort_by_key(|s| s.unit);
    parsed.unreadable.extend(audit.unreadable);
    parsed.unreadable.sort_by(|a, b| a.path.cmp(&b.path));
    parsed.configs.extend(audit.configs);
    parsed.errors.extend(audit.errors);
    parsed
}

/// Runs `work(0..n)` on a pool of `threads` and hands each result to `deliver` in index order,
/// at most [`UNITS_AHEAD`] per thread ahead of the one being delivered (bounded memory). `work`
/// must not panic (wrap it in [`caught`]): every index is then delivered exactly once.
pub fn in_order<T: Send>(
    n: usize,
    threads: usize,
    work: &(dyn Fn(usize) -> T + Sync),
    deliver: &mut dyn FnMut(T),
) -> Result<(), rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("oztrace-read-{i}"))
        .build()?;
    let window = UNITS_AHEAD * threads;
    let (sender, receiver) = mpsc::channel::<(usize, T)>();
    pool.in_place_scope(|scope| {
        let mut waiting: BTreeMap<usize, T> = BTreeMap::new();
        let mut delivered = 0;
        let mut receive = |delivered: &mut usize| {
            // Every spawned index sends exactly once, so this returns.
            if let Ok((i, result)) = receiver.recv() {
                waiting.insert(i, result);
            }
            while let Some(result) = waiting.remove(delivered) {
                deliver(result);
                *delivered += 1;
            }
        };
        for i in 0..n {
            while i - delivered >= window {
                receive(&mut delivered);
            }
            let sender = sender.clone();
            scope.spawn(move |_| {
                // The receiver outlives the scope: a send cannot fail.
                let _ = sender.send((i, work(i)));
            });
        }
        while delivered < n {
            receive(&mut delivered);
        }
    });
    Ok(())
}

/// Runs `read` for the input `display`; a panic inside becomes an internal error naming the input,
/// and what the input gave before it is dropped (it cannot be trusted).
fn caught(display: &str, read: impl FnOnce() -> UnitResult) -> UnitResult {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            UnitResult {
                error: Some(Unreadable {
                    path: display.to_string(),
                    reason: format!("internal error while reading: {message}"),
                }),
                ..UnitResult::default()
            }
        }
    }
}

/// How many units per thread may be read ahead of the one being delivered.
const UNITS_AHEAD: usize = 2;

/// The contract's reason for a non-empty stream in which no record matched any layout.
pub const UNRECOGNIZED_FORMAT: &str = "unrecognized format";

#[derive(Default)]
struct UnitResult {
    streams: Vec<StreamOutcome>,
    unreadable: Vec<Unreadable>,
    configs: Vec<ConfigFile>,
    error: Option<Unreadable>,
}

/// Where a stream's events go as they are read, instead of into its [`StreamOutcome`].
type EventSink<'a, 'f> = &'a mut (dyn FnMut(Pending<'_>) + Send + 'f);

struct Sink<'a> {
    config: &'a ReadConfig,
    result: UnitResult,
    events: Option<EventSink<'a, 'a>>,
}

impl StreamSink for Sink<'_> {
    fn log(&mut self, file: &InputFile, reader: &mut dyn BufRead) -> std::io::Result<()> {
        let large = file.size.is_none_or(|size| size >= PIPELINE_BYTES);
        let events = self.events.as_deref_mut();
        let (outcome, error) = if file.compression != Compression::None && large {
            read_pipelined(file, reader, self.config, events)
        } else {
            read_stream(file, reader, self.config, events)
        };
        let matched_nothing = outcome.summary.matched_nothing();
        self.result.streams.push(outcome);
        match error {
            Some(e) => Err(e),
            // Checked on what every reader of the stream (text, wrappers, JSON) produced: text in
            // no known format.
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

/// Compressed streams this large (on disk; or of unknown size) are decompressed on this thread
/// while a second one splits and classifies their records: one big `.gz` uses both cores.
const PIPELINE_BYTES: u64 = 4 << 20;
/// Decompressed bytes handed over at a time, and how many may wait.
const BLOCK_BYTES: usize = 1 << 20;
const BLOCKS_AHEAD: usize = 4;

/// [`read_stream`] with decompression (this thread) and record work (a scoped thread)
/// overlapped. A read error ends the stream after the records before it, as in one thread.
fn read_pipelined(
    file: &InputFile,
    reader: &mut dyn BufRead,
    config: &ReadConfig,
    events: Option<EventSink<'_, '_>>,
) -> (StreamOutcome, Option<std::io::Error>) {
    let (blocks, received) = mpsc::sync_channel::<Vec<u8>>(BLOCKS_AHEAD);
    std::thread::scope(|scope| {
        let parser = scope.spawn(move || {
            let mut blocks = BlockReader {
                received,
                block: Vec::new(),
                at: 0,
            };
            read_stream(file, &mut blocks, config, events)
        });
        let error = loop {
            let (block, error) = read_block(reader);
            let end = block.is_empty();
            // What came before an error is handed over first. The parser only hangs up when it
            // panicked: the join below says so.
            let hung_up = !end && blocks.send(block).is_err();
            if end || hung_up || error.is_some() {
                break error;
            }
        };
        drop(blocks);
        match parser.join() {
            Ok((outcome, parse_error)) => (outcome, error.or(parse_error)),
            // Re-raised here, the unit's catch names the input.
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Up to [`BLOCK_BYTES`] from `reader` (empty at the end), and the read error that ended it early.
fn read_block(reader: &mut dyn BufRead) -> (Vec<u8>, Option<std::io::Error>) {
    let mut block = vec![0u8; BLOCK_BYTES];
    let mut filled = 0;
    let mut error = None;
    while filled < block.len() {
        match reader.read(&mut block[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    block.truncate(filled);
    (block, error)
}

/// The receiving end of [`read_pipelined`]: the blocks, read as one stream.
struct BlockReader {
    received: mpsc::Receiver<Vec<u8>>,
    block: Vec<u8>,
    at: usize,
}

impl std::io::Read for BlockReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for BlockReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at == self.block.len() {
            match self.received.recv() {
                Ok(block) => {
                    self.block = block;
                    self.at = 0;
                }
                // The sender is done: the end of the stream.
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.block[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.block.len());
    }
}

fn read_unit<'a>(
    unit: &InputUnit,
    config: &'a ReadConfig,
    events: Option<EventSink<'a, 'a>>,
) -> UnitResult {
    let mut sink = Sink {
        config,
        result: UnitResult::default(),
        events,
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
    events: Option<EventSink<'_, '_>>,
) -> (StreamOutcome, Option<std::io::Error>) {
    let file_name: Arc<str> = Arc::from(file.display.as_str());
    let file_host = file.hint.host.clone();
    let options = ReadOptions {
        preferred: preferred_layout(file, file.hint.component, config),
        zones: config.zones.clone(),
        host: file_host.clone(),
        // The prefilter's literals are OM audit wordings.
        skip: config
            .skip
            .clone()
            .filter(|_| file.hint.component == Some(Component::OmAudit)),
    };
    // Looked up for every record: a fast hash.
    let mut hosts: rustc_hash::FxHashMap<String, Arc<str>> = Default::default();
    let mut source_counts = SourceCounts::default();
    let mut resolver = SourceResolver::new(file.hint.clone());
    let mut outcome = StreamOutcome {
        file: Arc::clone(&file_name),
        host: Arc::from(file_host.as_deref().unwrap_or("unknown")),
        component: file.hint.component.unwrap_or(Component::Unknown),
        sources: Vec::new(),
        summary: StreamSummary::default(),
        bytes: 0,
        typed: 0,
        unrecognized: 0,
        info_records: 0,
        info_typed: 0,
        shapes: HashMap::new(),
        verbose_loggers: Vec::new(),
        releases: Vec::new(),
        events: Vec::new(),
        entities: None,
        audit: HeldAudit::default(),
        unkept_in_window: 0,
        appended: false,
        spliced: Vec::new(),
        unit: 0,
        argument: 0,
    };
    let mut counting = Counting {
        inner: reader,
        bytes: 0,
        progress: config.progress.as_deref().map(|p| (&p.bytes, 0)),
    };
    let mut verbose_seen: std::collections::HashSet<(Arc<str>, String)> = Default::default();
    let mut names = Names::default();
    let mut last_ts: Option<i64> = None;
    // An OM audit log read for a trace: its records go to the merge's fold unbuilt, as into the
    // OM audit merge's sink.
    let defer = config.trace
        && config.kinds.is_none()
        && config.keep == Keep::Typed
        && file.hint.component == Some(Component::OmAudit);
    let mut audit = HeldAudit::default();
    let mut hold = |pending: Pending<'_>| audit.push(pending);
    let mut events: Option<&mut (dyn FnMut(Pending<'_>) + Send)> = match events {
        Some(sink) => Some(sink),
        None if defer => Some(&mut hold),
        None => None,
    };
    let (summary, error) = read_records_in_place(&mut counting, &options, &mut |record| {
        // The shared split's slot fetched while this record's host and names are resolved.
        let ahead =
            (config.audit_splits.as_deref()).map(|splits| splits.look_ahead(&record.message));
        if record.ts.is_some() {
            last_ts = record.ts;
        }
        let resolved = resolver.resolve(record);
        let component = resolved.component;
        let host_name = resolved.host.unwrap_or("unknown");
        let host = match hosts.get(host_name) {
            Some(host) => Arc::clone(host),
            None => {
                let host: Arc<str> = Arc::from(host_name);
                hosts.insert(host_name.to_string(), Arc::clone(&host));
                host
            }
        };
        source_counts.add(&host, component, 1);
        if let Some(release) = banner::release(&record.message, &record.continuation)
            && !outcome.releases.iter().any(|r| r == release)
        {
            outcome.releases.push(release.to_string());
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
        // Counting only: an OM audit key record is typed whatever its fields, no need to build it.
        let counted_typed = config.keep == Keep::Nothing
            && component == Component::OmAudit
            && !record.headerless
            && prefilter::certainly_typed(&record.message);
        // Into a sink (the OM audit merge), an OM audit record waits for the copy fold to be
        // typed: only the first of its copies is. Its audit message is split, not read, for its
        // copy key. Every OM audit message is typed, so it is counted as typed now; a read that
        // keeps only some kinds types it here to know its kind.
        if let Some(sink) = events.as_deref_mut()
            && component == Component::OmAudit
            && config.keep != Keep::Nothing
            && config.kinds.is_none()
            && !record.headerless
            && let Some((key, parts)) = match ahead {
                Some(ahead) => ahead.split(),
                None => copies::split(&record.message),
            }
        {
            outcome.typed += 1;
            if info {
                outcome.info_typed += 1;
            }
            let named = Named::of(record, &mut names);
            sink(Pending::Deferred(Deferred {
                record,
                key,
                parts,
                host: &host,
                file: &file_name,
                named,
            }));
            return;
        }
        let typed = if record.headerless || counted_typed {
            None
        } else {
            catalog::classify(record, component)
        };
        if counted_typed || typed.is_some() {
            outcome.typed += 1;
            if info {
                outcome.info_typed += 1;
            }
            if config.keep == Keep::Nothing {
                return;
            }
            if typed
                .as_ref()
                .zip(config.kinds.as_deref())
                .is_some_and(|(typed, kinds)| !prefilter::keeps(kinds, typed))
            {
                // An untimed record goes with the one before it, as the window places it.
                if last_ts.is_none_or(|ts| config.window.contains(ts)) {
                    outcome.unkept_in_window += 1;
                }
                return;
            }
        } else {
            outcome.unrecognized += 1;
            // Only `stats` shows the shapes (it reads with `Nothing`, or `All` in a window).
            if config.keep != Keep::Typed {
                count_shape(&mut outcome.shapes, &record.message);
            }
            if config.keep != Keep::All {
                return;
            }
        }
        let event = Event::of_record(
            std::mem::take(record),
            typed,
            host,
            component,
            Arc::clone(&file_name),
            &mut names,
        );
        match events.as_deref_mut() {
            Some(sink) => sink(Pending::Built(event)),
            None => outcome.events.push(event),
        }
    });
    counting.finish_progress();
    outcome.audit = audit.finish();
    // The buffer's growth slack (up to half of it) is not kept until the merge.
    outcome.events.shrink_to_fit();
    if config.trace && !outcome.events.is_empty() {
        outcome.entities = Some(match &config.entities {
            Some(shared) => StreamEntities::of_shared(&outcome.events, shared),
            None => StreamEntities::of(&outcome.events),
        });
    }
    // Skipped records are OM audit records of kinds the catalogue types, at INFO.
    outcome.typed += summary.skipped;
    outcome.info_records += summary.skipped;
    outcome.info_typed += summary.skipped;
    outcome.summary = summary;
    outcome.bytes = counting.bytes;
    // A stream of several hosts or components (compose, kubectl, a shipper's export, a test's
    // one-JVM output) is shown by its most frequent ones, and lists them all in `sources`.
    // The prefilter skips OM audit records of the file's own host without resolving them.
    if outcome.summary.skipped > 0 {
        let host = file_host.as_deref().unwrap_or("unknown");
        let host = hosts.get(host).cloned().unwrap_or_else(|| Arc::from(host));
        source_counts.add(&host, Component::OmAudit, outcome.summary.skipped);
    }
    let source_counts = source_counts.finish();
    let mut component_counts = [0u64; Component::ALL.len()];
    let mut host_counts: HashMap<Arc<str>, u64> = HashMap::new();
    for ((host, component), n) in &source_counts {
        component_counts[*component as usize] += n;
        *host_counts.entry(Arc::clone(host)).or_default() += n;
    }
    outcome.sources = source_counts.into_keys().collect();
    outcome.sources.sort();
    if let Some((component, _)) = Component::ALL
        .into_iter()
        .zip(component_counts)
        .filter(|(_, n)| *n > 0)
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
    {
        outcome.component = component;
    }
    if let Some((host, _)) = host_counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
    {
        outcome.host = host;
    }
    (outcome, error)
}

/// Records per host and component of one stream. Records come in runs of one source (a whole
/// file, mostly), so a run is counted in place and the map is touched only when the source
/// changes.
#[derive(Default)]
struct SourceCounts {
    run: Option<(Arc<str>, Component, u64)>,
    counts: HashMap<(Arc<str>, Component), u64>,
}

impl SourceCounts {
    fn add(&mut self, host: &Arc<str>, component: Component, n: u64) {
        match &mut self.run {
            Some((h, c, count)) if Arc::ptr_eq(h, host) && *c == component => *count += n,
            run => {
                if let Some((h, c, count)) = run.replace((Arc::clone(host), component, n)) {
                    *self.counts.entry((h, c)).or_default() += count;
                }
            }
        }
    }

    fn finish(mut self) -> HashMap<(Arc<str>, Component), u64> {
        if let Some((h, c, count)) = self.run.take() {
            *self.counts.entry((h, c)).or_default() += count;
        }
        self.counts
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
    use crate::trace::tests::event;
    use oztrace_parser::source::rotation_key;

    #[test]
    fn a_panicking_unit_is_named_and_the_others_are_delivered_in_order() {
        let work = |i: usize| {
            caught(&format!("unit{i}"), || {
                if i == 3 {
                    panic!("boom in unit 3");
                }
                UnitResult {
                    configs: Vec::new(),
                    unreadable: vec![Unreadable {
                        path: format!("unit{i}"),
                        reason: "ok".into(),
                    }],
                    ..UnitResult::default()
                }
            })
        };
        let mut seen = Vec::new();
        in_order(9, 2, &work, &mut |result: UnitResult| {
            seen.push(match result.error {
                Some(e) => format!("{}: {}", e.path, e.reason),
                None => result.unreadable[0].path.clone(),
            });
        })
        .expect("pool");
        assert_eq!(seen.len(), 9);
        assert_eq!(seen[2], "unit2");
        assert_eq!(
            seen[3],
            "unit3: internal error while reading: boom in unit 3"
        );
        assert_eq!(seen[8], "unit8");
    }

    /// The OM audit merge (records in batches, typed once kept) gives the events that folding the
    /// events built on their readers gives ([`crate::copies::fold_streams`]): the same copies,
    /// kept copy, order and fields, for records with and without a `Transaction`, a throwable
    /// and continuation lines, on three OMs with one log rotated. Its JSON lines are those of the
    /// events whether it builds them or writes them from the records' text.
    #[test]
    fn the_om_audit_merge_gives_the_events_of_the_fold_over_built_events() {
        let dir = tempfile::tempdir().expect("temp dir");
        write_om_audit_logs(dir.path());
        let paths = vec![dir.path().to_path_buf()];
        let config = ReadConfig::new(Keep::Typed);
        let skew_ms = 2_000;
        // Every log (rotations in order) one stream of built events, folded.
        let mut by_log: BTreeMap<String, Vec<Event>> = BTreeMap::new();
        let mut parsed = read_inputs_streaming(&paths, &config, &mut |_| {});
        for stream in &mut parsed.streams {
            let log = rotation_key(&stream.file).stream;
            by_log.entry(log).or_default().append(&mut stream.events);
        }
        let expected: Vec<String> =
            crate::copies::fold_streams(by_log.into_values().collect(), skew_ms)
                .iter()
                .map(json)
                .collect();
        // Folded: the transactions' copies, the printed copies within the skew, the failures.
        assert_eq!(expected.len(), 9, "{expected:#?}");
        assert!(
            expected
                .iter()
                .any(|e| e.contains("KEY_NOT_FOUND") && e.contains("\"copies\""))
        );
        assert!(expected.iter().any(|e| e.contains(r#""key:/v/b/dir/x""#)));
        let (units, _) = discover(&paths);
        let written: Render<'_> = &|record, _, _, out| {
            record.write_json(out)?;
            out.push(b'\n');
            Ok(())
        };
        let built: Render<'_> = &|record, _, _, out| {
            record.event().write_json(out)?;
            out.push(b'\n');
            Ok(())
        };
        for render in [written, built] {
            let mut got = String::new();
            let merged = read_audit_merged(
                &units,
                &config,
                &audit_log_units(&units),
                Vec::new(),
                skew_ms,
                render,
                &mut |rendered| got.push_str(std::str::from_utf8(&rendered.text).expect("utf-8")),
            );
            assert!(merged.errors.is_empty() && merged.unreadable.is_empty());
            let got: Vec<&str> = got.lines().collect();
            assert_eq!(got, expected);
        }
    }

    /// A read for a trace holds the OM audit records unbuilt, and the merge's fold of them gives
    /// the events of the fold over every stream's built events, in or out of a window.
    #[test]
    fn a_trace_read_folds_held_om_audit_records_as_the_fold_over_built_events() {
        let dir = tempfile::tempdir().expect("temp dir");
        write_om_audit_logs(dir.path());
        let paths = vec![dir.path().to_path_buf()];
        let skew_ms = 2_000;
        let trace_read = ReadConfig {
            trace: true,
            ..ReadConfig::new(Keep::Typed)
        };
        let base = 1_787_097_600_000; // 2026-08-19T00:00:00Z
        for window in [
            Window::default(),
            Window {
                since: Some(base + 2_000),
                until: Some(base + 9_000),
            },
        ] {
            let mut built =
                read_inputs_streaming(&paths, &ReadConfig::new(Keep::Typed), &mut |_| {});
            window.apply(&mut built);
            let expected: Vec<String> = crate::copies::fold_streams(built.take_events(), skew_ms)
                .iter()
                .map(json)
                .collect();
            let mut held = read_inputs_streaming(&paths, &trace_read, &mut |_| {});
            assert!(
                held.streams
                    .iter()
                    .all(|s| s.events.is_empty() && !s.audit.is_empty()),
                "every record held unbuilt"
            );
            window.apply(&mut held);
            let logs = held
                .streams
                .iter_mut()
                .map(|s| std::mem::take(&mut s.audit))
                .collect();
            let got: Vec<String> = fold_audit(logs, skew_ms)
                .iter()
                .flatten()
                .map(json)
                .collect();
            assert!(got.iter().any(|e| e.contains("\"copies\"")));
            assert_eq!(got, expected, "{window:?}");
        }
        // The window leaves out the events before it.
        assert!(
            !fold_audit(
                {
                    let mut held = read_inputs_streaming(&paths, &trace_read, &mut |_| {});
                    Window {
                        since: Some(base + 2_000),
                        until: None,
                    }
                    .apply(&mut held);
                    held.streams.into_iter().map(|s| s.audit).collect()
                },
                skew_ms
            )
            .iter()
            .flatten()
            .any(|e| e.ts == Some(base + 1_000))
        );
    }

    #[test]
    fn a_fold_over_many_build_chunks_keeps_the_order_and_copies_of_the_fold_over_built_events() {
        let dir = tempfile::tempdir().expect("temp dir");
        // Every record on om1, every third also on om2 (a copy), past several build chunks.
        let records = 3 * BUILD_CHUNK + 17;
        let record = |i: usize| {
            let ms = 1_000 + i * 7;
            format!(
                "2026-08-19 00:{:02}:{:02},{:03} | INFO  | OMAudit | user=svc | ip=10.0.0.1 | op=COMMIT_KEY {{\"volume\":\"v\",\"bucket\":\"b\",\"key\":\"k{i}\",\"dataSize\":\"{i}\",\"Transaction\":\"{i}\"}} | ret=SUCCESS |  \n",
                ms / 60_000,
                ms / 1_000 % 60,
                ms % 1_000
            )
        };
        let om1: String = (0..records).map(record).collect();
        let om2: String = (0..records).step_by(3).map(record).collect();
        for (name, text) in [("om1/om-audit.log", om1), ("om2/om-audit.log", om2)] {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
            std::fs::write(path, text).expect("log written");
        }
        let paths = vec![dir.path().to_path_buf()];
        let built =
            read_inputs_streaming(&paths, &ReadConfig::new(Keep::Typed), &mut |_| {}).take_events();
        let expected: Vec<String> = crate::copies::fold_streams(built, 2_000)
            .iter()
            .map(json)
            .collect();
        let trace_read = ReadConfig {
            trace: true,
            ..ReadConfig::new(Keep::Typed)
        };
        let held = read_inputs_streaming(&paths, &trace_read, &mut |_| {});
        let logs = held.streams.into_iter().map(|s| s.audit).collect();
        let pieces = fold_audit(logs, 2_000);
        assert!(pieces.len() > 1);
        assert!(pieces[1..].iter().all(|piece| piece[0].ts.is_some()));
        let got: Vec<String> = pieces.iter().flatten().map(json).collect();
        assert_eq!(got.len(), records);
        assert_eq!(
            got.iter().filter(|e| e.contains("\"copies\"")).count(),
            records.div_ceil(3)
        );
        assert_eq!(got, expected);
    }

    fn json(event: &Event) -> String {
        let mut out = Vec::new();
        event.write_json(&mut out).expect("json");
        String::from_utf8(out).expect("utf-8")
    }

    /// Three OMs' audit logs, one rotated: records with and without a `Transaction`, a throwable
    /// and continuation lines.
    fn write_om_audit_logs(dir: &std::path::Path) {
        let keyed = |s: u32, op: &str, key: &str, tx: u32| {
            format!(
                "2026-08-19 00:00:{s:02},{:03} | INFO  | OMAudit | user=svc | ip=10.0.0.1 | op={op} {{\"volume\":\"v\",\"bucket\":\"b\",\"key\":\"{key}\",\"dataSize\":\"0\",\"Transaction\":\"{tx}\"}} | ret=SUCCESS |  \n",
                tx % 1000
            )
        };
        let printed = |s: u32| {
            format!(
                "2026-08-19 00:00:{s:02},000 | INFO  | OMAudit | user=u | ip=1.2.3.4 | op=COMMIT_KEY {{volume=v, bucket=b, key=k, dataSize=1}} | ret=SUCCESS |  \n"
            )
        };
        let failed = |s: u32| {
            format!(
                "2026-08-19 00:00:{s:02},500 | ERROR | OMAudit | user=svc | ip=10.0.0.1 | op=COMMIT_KEY {{\"volume\":\"v\",\"bucket\":\"b\",\"key\":\"gone\",\"Transaction\":\"90\"}} | ret=FAILURE | KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Key not found\n\tat org.apache.hadoop.ozone.om.KeyManagerImpl.readKeyInfo(KeyManagerImpl.java:123)\n"
            )
        };
        let logs = [
            (
                "om1/om-audit-om1.log.1",
                [keyed(1, "ALLOCATE_KEY", "a", 10), printed(2)].concat(),
            ),
            (
                "om1/om-audit-om1.log",
                [
                    keyed(3, "COMMIT_KEY", "a", 11),
                    failed(4),
                    // A key whose path collapses, its copy written twice on om2.
                    keyed(7, "CREATE_FILE", "/dir//x", 12),
                    keyed(8, "DELETE_KEY", "a", 13),
                    printed(30),
                ]
                .concat(),
            ),
            (
                "om2/om-audit-om2.log",
                [
                    keyed(1, "ALLOCATE_KEY", "a", 10),
                    printed(3),
                    keyed(3, "COMMIT_KEY", "a", 11),
                    failed(5),
                    keyed(7, "CREATE_FILE", "/dir//x", 12),
                    keyed(7, "CREATE_FILE", "/dir//x", 12),
                    keyed(8, "DELETE_KEY", "a", 13),
                ]
                .concat(),
            ),
            (
                "om3/om-audit-om3.log",
                // The same printed line twice on one OM: no copy of itself.
                [
                    keyed(2, "ALLOCATE_KEY", "a", 10),
                    failed(6),
                    printed(9),
                    printed(10),
                ]
                .concat(),
            ),
        ];
        for (name, text) in &logs {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
            std::fs::write(path, text).expect("log written");
        }
    }

    #[test]
    fn blocks_read_back_as_the_stream_they_were_cut_from() {
        let text: String = (0..50_000).map(|i| format!("line {i}\n")).collect();
        let (blocks, received) = mpsc::sync_channel::<Vec<u8>>(2);
        let mut source = text.as_bytes();
        let reading = std::thread::spawn(move || {
            let mut reader = BlockReader {
                received,
                block: Vec::new(),
                at: 0,
            };
            let mut back = String::new();
            std::io::Read::read_to_string(&mut reader, &mut back).map(|_| back)
        });
        loop {
            let (block, error) = read_block(&mut source);
            assert!(error.is_none());
            if block.is_empty() {
                break;
            }
            blocks.send(block).expect("reader alive");
        }
        drop(blocks);
        assert_eq!(reading.join().expect("no panic").expect("read"), text);
    }

    #[test]
    fn a_pipelined_stream_keeps_the_records_before_a_read_error_and_reports_it() {
        struct Failing(Vec<u8>, usize);
        impl std::io::Read for Failing {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                if self.1 >= self.0.len() {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        "truncated gzip",
                    ));
                }
                let n = (self.0.len() - self.1).min(out.len()).min(1000);
                out[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
                self.1 += n;
                Ok(n)
            }
        }
        let text: String = (0..3000)
            .map(|i| format!("2026-08-20 14:12:03,551 [main] INFO a.b.C: line {i}\n"))
            .collect();
        let display = "scm1/ozone-hadoop-scm-scm1.log.gz";
        let file = InputFile {
            display: display.into(),
            hint: oztrace_parser::source::hint_from_path(display),
            rotation: rotation_key(display),
            log4j: None,
            size: None,
            compression: Compression::Gzip,
        };
        let mut reader = std::io::BufReader::new(Failing(text.into_bytes(), 0));
        let (outcome, error) =
            read_pipelined(&file, &mut reader, &ReadConfig::new(Keep::All), None);
        assert_eq!(outcome.summary.records, 3000);
        assert_eq!(outcome.events.len(), 3000);
        assert!(error.expect("the error").to_string().contains("truncated"));
    }

    #[test]
    fn the_time_window_drops_events_outside_it_and_keeps_untimed_lines_with_their_neighbour() {
        let events = vec![
            event("h", "f", 1, Some(0), vec![]),
            event("h", "f", 2, Some(500), vec![]),
            event("h", "f", 3, Some(1200), vec![]),
            event("h", "f", 4, None, vec![]),
            event("h", "f", 5, Some(3000), vec![]),
        ];
        let stream = StreamOutcome {
            file: Arc::from("f"),
            host: Arc::from("h"),
            component: Component::Scm,
            sources: Vec::new(),
            summary: Default::default(),
            bytes: 0,
            typed: 0,
            unrecognized: 0,
            info_records: 0,
            info_typed: 0,
            shapes: Default::default(),
            verbose_loggers: Vec::new(),
            releases: Vec::new(),
            events,
            entities: None,
            audit: HeldAudit::default(),
            unkept_in_window: 0,
            appended: false,
            spliced: Vec::new(),
            unit: 0,
            argument: 0,
        };
        let mut parsed = Parsed {
            streams: vec![stream],
            ..Parsed::default()
        };
        let window = Window {
            since: Some(500),
            until: Some(1200),
        };
        window.apply(&mut parsed);
        let lines: Vec<u64> = parsed.streams[0].events.iter().map(|e| e.line).collect();
        // The untimed line 4 follows the event at 1200 in the stream.
        assert_eq!(lines, [2, 3, 4]);
        Window::default().apply(&mut parsed);
        assert_eq!(parsed.streams[0].events.len(), 3);
    }

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

    #[test]
    fn the_warm_heap_grows_with_the_events_kept_and_stops_at_its_bound() {
        let mut warm = WarmHeap::default();
        warm.grow_to(1000 * MERGE_BYTES_PER_EVENT);
        assert_eq!(warm.block.len(), 1000 * MERGE_BYTES_PER_EVENT);
        warm.grow_to(10);
        assert_eq!(
            warm.block.len(),
            1000 * MERGE_BYTES_PER_EVENT,
            "never shrinks"
        );
        warm.grow_to(usize::MAX);
        assert_eq!(warm.block.len(), WARM_HEAP_BYTES);
        assert_eq!(
            warm.block.capacity(),
            WARM_HEAP_BYTES,
            "one block, never moved"
        );
    }
}
