//! Replay throughput: the typed events of every sample bundle, repeated with shifted times and
//! hosts to about a million events: the k-way merge, the event graph (with every linker) and the
//! replay through every state machine, each measured on its own; and the whole pipeline
//! (`oztrace_analyzer::load`, as `scan` runs it) over the sample bundles.
//! Run: `cargo bench -p oztrace-analyzer --bench replay` (criterion prints events/s).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oztrace_analyzer::LoadOptions;
use oztrace_analyzer::graph::{EventGraph, Linker};
use oztrace_analyzer::load::{Keep, ReadConfig, Window, read_inputs_streaming};
use oztrace_analyzer::machine::Replay;
use oztrace_analyzer::trace::Trace;
use oztrace_analyzer::{ReplayOptions, machines};
use oztrace_parser::event::Event;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

/// The typed events of every sample, one buffer per stream, read by the pipeline `scan` runs.
fn sample_streams() -> Vec<Vec<Event>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut parsed = read_inputs_streaming(&[root], &ReadConfig::new(Keep::Typed), &mut |_| {});
    let mut streams = parsed.take_events();
    streams.retain(|s| !s.is_empty());
    streams
}

fn replay(c: &mut Criterion) {
    let base = sample_streams();
    let per_copy: usize = base.iter().map(Vec::len).sum::<usize>().max(1);
    let copies = (1_000_000 / per_copy).max(1);
    let streams: Vec<Vec<Event>> = (0..copies)
        .flat_map(|copy| {
            base.iter().map(move |stream| {
                stream
                    .iter()
                    .map(|e| {
                        let mut e = e.clone();
                        e.ts = e.ts.map(|t| t + copy as i64 * 86_400_000);
                        e.host = Arc::from(format!("{}-{copy}", e.host));
                        e
                    })
                    .collect()
            })
        })
        .collect();
    let total: usize = streams.iter().map(Vec::len).sum();
    let trace = Trace::merge(streams.clone(), 2000);
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(total as u64));
    group.sample_size(10);
    group.bench_function("merge", |b| {
        b.iter_batched(
            || streams.clone(),
            |streams| Trace::merge(streams, 2000),
            criterion::BatchSize::LargeInput,
        )
    });
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
                black_box(replay.transitions.len())
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
            black_box(replay.transitions.len())
        })
    });
    group.finish();
}

/// The whole pipeline users run (`scan`'s `load`, prefilter on) over every sample bundle.
fn load(c: &mut Criterion) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let options = LoadOptions {
        read: ReadConfig::new(Keep::Typed),
        window: Window::default(),
        skew_ms: 2000,
        replay: ReplayOptions::default(),
        prefilter: true,
        rule_kinds: oztrace_analyzer::kinds::Wanted::new(),
    };
    let bytes = oztrace_analyzer::load(std::slice::from_ref(&root), &options)
        .parsed
        .bytes();
    let mut group = c.benchmark_group("load");
    group.throughput(Throughput::Bytes(bytes));
    group.sample_size(10);
    group.bench_function("samples", |b| {
        b.iter(|| {
            let loaded = oztrace_analyzer::load(std::slice::from_ref(&root), &options);
            black_box(loaded.analysis.replay.transitions.len())
        })
    });
    group.finish();
}

criterion_group!(benches, replay, load);
criterion_main!(benches);
