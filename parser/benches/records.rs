//! Record splitting and header parsing throughput over a generated datanode log of ~32 MB, and
//! the catalogue's typing of every record of the sample bundles.
//! Run: `cargo bench -p oztrace-parser --bench records` (criterion prints MB/s and records/s).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oztrace_parser::catalog::classify;
use oztrace_parser::record::{ReadOptions, Record, read_records};
use oztrace_parser::source::{Component, SourceResolver, hint_from_path};
use std::hint::black_box;
use std::io::Read;
use std::path::Path;

/// A realistic mix: Ratis and container lines, a stack trace now and then, audit-free.
fn generate(target_bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(target_bytes + 4096);
    let mut i: u64 = 0;
    while out.len() < target_bytes {
        let ms = i % 1000;
        let s = (i / 1000) % 60;
        let line = match i % 5 {
            0 => format!(
                "2026-08-20 14:{:02}:{s:02},{ms:03} [3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4-StateMachineUpdater] INFO org.apache.ratis.server.impl.StateMachineUpdater: 3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4-StateMachineUpdater: Took a snapshot at index {i}\n",
                (i / 60_000) % 60
            ),
            1 => format!(
                "2026-08-20 14:{:02}:{s:02},{ms:03} [3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c-ChunkWriter-1-0] WARN org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler: Operation: WriteChunk , Trace ID:  , Message: Chunk offset 1048576 does not match length 524288 of blockFile /data/hdds/{i}.block , Result: CHUNK_FILE_INCONSISTENCY , StorageContainerException Occurred.\n",
                (i / 60_000) % 60
            ),
            2 => format!(
                "2026-08-20 14:{:02}:{s:02},{ms:03} [3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c-EndpointStateMachineTaskThread-scm1.example.com:9861/scm1.example.com/10.20.0.11-0 ] WARN org.apache.hadoop.ozone.container.common.statemachine.EndpointStateMachine: Unable to communicate to SCM server at scm1.example.com:9861/scm1.example.com/10.20.0.11 past 60 seconds.\njava.net.ConnectException: Connection refused\n\tat sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)\n\tat org.apache.hadoop.net.SocketIOWithTimeout.connect(SocketIOWithTimeout.java:206)\n",
                (i / 60_000) % 60
            ),
            _ => format!(
                "2026-08-20 14:{:02}:{s:02},{ms:03} [IPC Server handler 3 on default port 9861] INFO org.apache.hadoop.ozone.container.common.statemachine.commandhandler.CloseContainerCommandHandler: Processing Close Container command container #{i}\n",
                (i / 60_000) % 60
            ),
        };
        out.extend_from_slice(line.as_bytes());
        i += 1;
    }
    out
}

fn records(c: &mut Criterion) {
    let data = generate(32 << 20);
    let mut group = c.benchmark_group("records");
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.sample_size(10);
    group.bench_function("split_and_parse_headers", |b| {
        b.iter(|| {
            let mut count = 0u64;
            let options = ReadOptions::default();
            let (summary, error) = read_records(&mut data.as_slice(), &options, &mut |r| {
                count += u64::from(r.continuation_lines) + 1;
            });
            assert!(error.is_none());
            black_box((count, summary.records))
        })
    });
    group.finish();
}

/// Every record of the plain and gzipped logs under `samples/`, with the component the pipeline
/// would give it: the real mix of every log family, layout and level the catalogue types.
fn sample_records() -> Vec<(Record, Component)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.expect("samples/ is readable");
        let name = entry.file_name().to_string_lossy();
        let is_log = [".log", ".out", ".txt", ".jsonl", ".gz"]
            .iter()
            .any(|ext| name.ends_with(ext))
            || name
                .rsplit_once(".log.")
                .is_some_and(|(_, n)| n.parse::<u32>().is_ok());
        if !entry.file_type().is_file() || !is_log || name.contains(".tar") {
            continue;
        }
        let mut bytes = Vec::new();
        let file = std::fs::File::open(entry.path()).expect("sample opens");
        if name.ends_with(".gz") {
            flate2::read::GzDecoder::new(file).read_to_end(&mut bytes)
        } else {
            std::io::BufReader::new(file).read_to_end(&mut bytes)
        }
        .expect("sample reads");
        let path = entry.path().to_string_lossy().into_owned();
        let mut resolver = SourceResolver::new(hint_from_path(&path));
        let (_, error) = read_records(&mut bytes.as_slice(), &ReadOptions::default(), &mut |r| {
            let component = resolver.resolve(&r).component;
            out.push((r, component));
        });
        assert!(error.is_none(), "{path}");
    }
    out
}

fn catalogue(c: &mut Criterion) {
    let records = sample_records();
    let mut group = c.benchmark_group("catalogue");
    group.throughput(Throughput::Elements(records.len() as u64));
    group.sample_size(20);
    group.bench_function("classify_sample_records", |b| {
        b.iter(|| {
            let typed = records
                .iter()
                .filter(|(record, component)| classify(record, *component).is_some())
                .count();
            black_box(typed)
        })
    });
    group.finish();
}

criterion_group!(benches, records, catalogue);
criterion_main!(benches);
