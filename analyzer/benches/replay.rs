//! Replay throughput over the trace `scan` loads from every sample bundle (the prefilter on, every
//! rule's kinds kept), repeated with shifted times and hosts to about a million events.
//!
//! - `replay/stage/one-core`: the replay stage as `scan` runs it after reading, on one thread: the
//!   merge of the per-stream buffers into one time order (their entities interned beforehand in
//!   one shared table and their tables appended to the merge's columns, as `scan`'s reading
//!   threads and the thread that waits for them do), the graph (every linker), every state
//!   machine and every rule.
//!   Events/s here is the per-core figure.
//! - `replay/stage/all-cores`: the same on every core (rayon's global pool).
//! - `replay/merge`, `replay/graph`, `replay/machine/*`, `replay/linker/*`, `replay/machines`,
//!   `replay/rules`: the parts, each on its own, for profiling.
//! - `load/samples`: the whole pipeline (`oztrace_analyzer::load`, reading included) over the
//!   sample bundles, in bytes/s.
//!
//! Run: `cargo bench -p oztrace-analyzer --bench replay` (criterion prints events/s).

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use oztrace_analyzer::graph::{EventGraph, Linker};
use oztrace_analyzer::load::{Keep, ReadConfig, Window};
use oztrace_analyzer::machine::Replay;
use oztrace_analyzer::trace::{StreamEntities, Trace, TraceBuilder};
use oztrace_analyzer::{Analysis, LoadOptions, ReplayOptions, machines};
use oztrace_parser::event::Event;
use oztrace_rules::{Context, LoggingCoverage, Settings};
use std::collections::HashMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

/// Copies are this far apart in log time, more than the default `--retain` (14 days): each copy
/// of an entity starts from fresh machine state, as a new entity would.
const COPY_SHIFT_MS: i64 = 15 * 24 * 3600 * 1000;

fn samples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples")
}

/// `scan`'s load options: the prefilter on, every rule's kinds.
fn scan_options() -> LoadOptions {
    LoadOptions {
        read: ReadConfig::new(Keep::Typed),
        window: Window::default(),
        skew_ms: 2000,
        replay: scan_replay(),
        prefilter: true,
        rule_kinds: oztrace_rules::consumed(&oztrace_rules::registry()),
        focus: None,
    }
}

/// `scan`'s replay: the machines every rule reads.
fn scan_replay() -> ReplayOptions {
    ReplayOptions {
        machines: oztrace_rules::machines(&oztrace_rules::registry()),
        ..ReplayOptions::default()
    }
}

/// The events `scan` keeps from every sample, one buffer per file, in the trace's order.
fn sample_streams() -> Vec<Vec<Event>> {
    let loaded = oztrace_analyzer::load(&[samples()], &scan_options());
    let mut by_file: HashMap<Arc<str>, Vec<Event>> = HashMap::new();
    for event in loaded.analysis.trace.iter() {
        by_file
            .entry(Arc::clone(&event.file))
            .or_default()
            .push(event.clone());
    }
    let mut streams: Vec<(Arc<str>, Vec<Event>)> = by_file.into_iter().collect();
    streams.sort_by(|a, b| a.0.cmp(&b.0));
    streams.into_iter().map(|(_, events)| events).collect()
}

/// About a million events: `sample_streams` repeated, each copy on its own hosts (one shared name
/// per host and copy, as the reader shares it per stream) and [`COPY_SHIFT_MS`] later.
fn bench_streams() -> Vec<Vec<Event>> {
    let base = sample_streams();
    let per_copy: usize = base.iter().map(Vec::len).sum::<usize>().max(1);
    let copies = (1_000_000 / per_copy).max(1);
    let mut hosts: HashMap<(Arc<str>, usize), Arc<str>> = HashMap::new();
    let mut streams = Vec::new();
    for copy in 0..copies {
        for stream in &base {
            let copied = stream
                .iter()
                .map(|e| {
                    let mut e = e.clone();
                    e.ts = e.ts.map(|t| t + copy as i64 * COPY_SHIFT_MS);
                    e.host = Arc::clone(
                        hosts
                            .entry((Arc::clone(&e.host), copy))
                            .or_insert_with(|| Arc::from(format!("{}-{copy}", e.host))),
                    );
                    e
                })
                .collect();
            streams.push(copied);
        }
    }
    streams
}

/// Copies of the streams, their entities interned in one shared table and their tables appended
/// to the merge's columns, as `scan` reads them: what is left of the merge is the stage's.
fn appended(streams: &[Vec<Event>]) -> (TraceBuilder, Vec<Vec<Event>>) {
    let mut builder = TraceBuilder::default();
    let events = streams
        .iter()
        .map(|events| {
            let entities = StreamEntities::of_shared(events, builder.shared());
            assert!(
                builder.append(&mut Some(entities)),
                "interned in its table: taken"
            );
            events.clone()
        })
        .collect();
    (builder, events)
}

/// The merge of what [`appended`] gives.
fn merge((builder, events): (TraceBuilder, Vec<Vec<Event>>)) -> Trace {
    builder.merge(events, Vec::new(), 2000)
}

/// The replay stage: one time order, graph and machines, every rule; the number of findings.
fn stage(appended: (TraceBuilder, Vec<Vec<Event>>)) -> usize {
    let analysis = Analysis::run(merge(appended), scan_replay());
    let (settings, logging) = (Settings::default(), LoggingCoverage::default());
    let context = Context {
        analysis: &analysis,
        settings: &settings,
        logging: &logging,
    };
    oztrace_rules::run(&context, &oztrace_rules::registry())
        .findings
        .len()
}

fn replay(c: &mut Criterion) {
    let streams = bench_streams();
    let total: usize = streams.iter().map(Vec::len).sum();
    eprintln!(
        "replay: {total} events in {} streams ({} per copy of the samples' scan trace)",
        streams.len(),
        sample_streams().iter().map(Vec::len).sum::<usize>()
    );
    let one_core = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(total as u64));
    group.sample_size(10);
    group.bench_function("stage/one-core", |b| {
        b.iter_batched(
            || appended(&streams),
            |appended| one_core.install(|| stage(appended)),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("stage/all-cores", |b| {
        b.iter_batched(|| appended(&streams), stage, BatchSize::LargeInput)
    });
    group.bench_function("merge", |b| {
        b.iter_batched(|| appended(&streams), merge, BatchSize::LargeInput)
    });
    let trace = Trace::merge(streams, 2000);
    group.bench_function("graph", |b| {
        let linkers = machines::linkers();
        let refs: Vec<&dyn Linker> = linkers.iter().map(|l| l.as_ref()).collect();
        b.iter(|| black_box(EventGraph::build(&trace, &refs).edge_count()))
    });
    for (i, machine) in machines::all().iter().enumerate() {
        group.bench_function(format!("machine/{}", machine.name()), |b| {
            b.iter(|| {
                let mut models = vec![machines::all().swap_remove(i)];
                let replay = Replay::run(&trace, &mut models, ReplayOptions::default().retain_ms);
                black_box(replay.len())
            })
        });
    }
    for linker in machines::linkers() {
        group.bench_function(format!("linker/{}", linker.name()), |b| {
            b.iter(|| {
                let mut links = Vec::new();
                linker.link(&trace, &mut links);
                black_box(links.len())
            })
        });
    }
    group.bench_function("machines", |b| {
        b.iter(|| {
            let mut models = machines::all();
            let replay = Replay::run(&trace, &mut models, ReplayOptions::default().retain_ms);
            black_box(replay.len())
        })
    });
    let analysis = Analysis::run(trace, ReplayOptions::default());
    let (settings, logging) = (Settings::default(), LoggingCoverage::default());
    let context = Context {
        analysis: &analysis,
        settings: &settings,
        logging: &logging,
    };
    for rule in oztrace_rules::registry() {
        group.bench_function(format!("rule/{}", rule.doc().id), |b| {
            b.iter(|| black_box(oztrace_rules::run(&context, &[rule]).findings.len()))
        });
    }
    group.finish();
}

/// The whole pipeline users run (`scan`'s `load`, prefilter on) over every sample bundle.
fn load(c: &mut Criterion) {
    let options = scan_options();
    let bytes = oztrace_analyzer::load(&[samples()], &options)
        .parsed
        .bytes();
    let mut group = c.benchmark_group("load");
    group.throughput(Throughput::Bytes(bytes));
    group.sample_size(10);
    group.bench_function("samples", |b| {
        b.iter(|| {
            let loaded = oztrace_analyzer::load(&[samples()], &options);
            black_box(loaded.analysis.replay.len())
        })
    });
    group.finish();
}

criterion_group!(benches, replay, load);
criterion_main!(benches);
