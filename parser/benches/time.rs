//! Timestamp conversion on the per-record path: a log header's local time to UTC epoch
//! milliseconds, and epoch milliseconds to the RFC 3339 text `oztrace events` prints.
//! Run: `cargo bench -p oztrace-parser --bench time` (criterion prints timestamps/s).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oztrace_parser::time::{LocalTime, Rfc3339, Zone};
use std::fmt::Write;
use std::hint::black_box;

/// Header times of three days of logs, a record every 1.7 s or so, crossing midnights and a month
/// end: what `to_epoch_millis` sees per record.
fn local_times() -> Vec<LocalTime> {
    let start: i64 = 1_819_584_000_000; // 2027-08-30T00:00:00Z
    (0..200_000i64)
        .map(|i| {
            let ms = start + i * 1_297 + (i * 7919) % 1000;
            let text = Rfc3339(ms).to_string();
            let num = |r: std::ops::Range<usize>| text[r].parse::<i16>().expect("digits");
            LocalTime {
                year: num(0..4),
                month: num(5..7) as i8,
                day: num(8..10) as i8,
                hour: num(11..13) as i8,
                minute: num(14..16) as i8,
                second: num(17..19) as i8,
                milli: num(20..23),
            }
        })
        .collect()
}

fn timestamps(c: &mut Criterion) {
    let times = local_times();
    let utc = Zone::Utc;
    let millis: Vec<i64> = times
        .iter()
        .map(|t| utc.to_epoch_millis(t).expect("valid"))
        .collect();
    let mut group = c.benchmark_group("timestamps");
    group.throughput(Throughput::Elements(times.len() as u64));
    let berlin = Zone::parse("Europe/Berlin").expect("bundled tzdb");
    for (name, zone) in [
        ("local_to_utc_millis", &utc),
        ("local_to_utc_millis_named_zone", &berlin),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                times
                    .iter()
                    .filter_map(|t| zone.to_epoch_millis(t))
                    .sum::<i64>()
            })
        });
    }
    let mut out = String::with_capacity(32);
    group.bench_function("format_rfc3339", |b| {
        b.iter(|| {
            let mut len = 0;
            for &ms in &millis {
                out.clear();
                write!(out, "{}", Rfc3339(ms)).expect("writes");
                len += out.len();
            }
            black_box(len)
        })
    });
    group.finish();
}

criterion_group!(benches, timestamps);
criterion_main!(benches);
