//! Properties of record splitting over any bytes: no panic; every line lands in exactly one
//! record (as its header or a continuation line) or is a blank line outside every record, and
//! the records come in input order; bytes past the line cap are counted, never silently lost.

use oztrace_parser::record::{MAX_LINE_BYTES, ReadOptions, read_records};
use proptest::prelude::*;

/// Lines as `BufRead::read_until` would split them, each with its newline.
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|&b| b == b'\n').collect()
}

/// A first line that is no JSON value: JSON streams are read value by value, not line by line
/// (`oztrace_parser::json`), so these properties are the line splitter's.
const NOT_JSON: &[u8] = b"not json\n";

fn check(body: &[u8]) {
    let bytes = &[NOT_JSON, body].concat();
    let mut covered = 0u64;
    let mut last_line = 0u64;
    let (summary, error) = read_records(&mut &bytes[..], &ReadOptions::default(), &mut |r| {
        assert!(
            r.line > last_line,
            "records out of order: {} after {last_line}",
            r.line
        );
        last_line = r.line;
        covered += 1 + u64::from(r.continuation_lines);
    });
    assert!(error.is_none());
    let lines = lines(bytes);
    assert_eq!(summary.lines, lines.len() as u64);
    assert_eq!(
        covered + summary.blank_lines,
        summary.lines,
        "every line in exactly one record, or blank outside them"
    );
    let over_cap: u64 = lines
        .iter()
        .map(|l| (l.len() as u64).saturating_sub(MAX_LINE_BYTES as u64))
        .sum();
    if over_cap > 0 {
        assert!(summary.bytes_not_kept >= over_cap);
        assert!(summary.truncated_records > 0);
    }
}

/// Pieces of real log lines, prefixes and noise that random input rarely hits by itself.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"2026-08-20 14:12:03,551 [main] ERROR org.apache.hadoop.hdds.scm.container.ContainerReportHandler: Failed to process Container #1051".to_vec()),
        Just(b"\tat org.apache.hadoop.X.y(X.java:1)".to_vec()),
        Just(b"2026-08-20 14:02:10,331 | INFO  | SCMAudit | user=hadoop | ip=10.0.0.21 | op=DECOMMISSION_NODES {\"nodes\":\"[dn3]\"} | ret=SUCCESS |  ".to_vec()),
        Just(b"scm1_1      | 2026-08-20 14:12:03,551 [main] INFO om.OzoneManager: up".to_vec()),
        Just(b"datanode_2  | java.io.IOException: boom".to_vec()),
        Just(b"2026-08-20T14:02:10.331847123Z 2026-08-20 14:02:10,331 [main] INFO a.B: x".to_vec()),
        Just(b"2026-09-14T07:33 INFO something happened here".to_vec()),
        Just(b"[main] INFO node.SCMNodeManager: no time".to_vec()),
        proptest::collection::vec(any::<u8>(), 0..200),
        "[ -~]{0,120}".prop_map(String::into_bytes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_split_into_records(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        check(&bytes);
    }

    #[test]
    fn log_like_lines_split_into_records(
        parts in proptest::collection::vec((line(), prop_oneof![Just(&b"\n"[..]), Just(&b"\r\n"[..]), Just(&b""[..])]), 0..60),
        trailing in any::<bool>(),
    ) {
        let mut bytes = Vec::new();
        for (line, end) in parts {
            bytes.extend_from_slice(&line);
            bytes.extend_from_slice(end);
        }
        if trailing {
            bytes.push(b'\n');
        }
        check(&bytes);
    }
}

#[test]
fn lines_past_the_cap_are_counted() {
    let mut bytes = b"2026-08-20 14:12:03,551 [main] INFO a.B: x\n".to_vec();
    bytes.extend(std::iter::repeat_n(b'y', MAX_LINE_BYTES * 3));
    bytes.extend_from_slice(b"\nshort\n");
    bytes.extend(std::iter::repeat_n(b'\xff', MAX_LINE_BYTES + 7));
    check(&bytes);
}
