//! Record splitting and header parsing: any bytes give records, never a panic; every line is in
//! exactly one record or a blank line outside them; every built-in layout's matcher stays within
//! its work budget, and its plan gives the matcher's header.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oztrace_parser::layout::builtin_layouts;
use oztrace_parser::record::{ReadOptions, read_records};

/// A first line that is no JSON value: JSON streams are read value by value, not line by line.
const NOT_JSON: &[u8] = b"not json\n";

fuzz_target!(|data: &[u8]| {
    let bytes = [NOT_JSON, data].concat();
    let mut lines = 0u64;
    let (summary, error) = read_records(&mut &bytes[..], &ReadOptions::default(), &mut |record| {
        lines += 1 + u64::from(record.continuation_lines);
    });
    assert!(error.is_none());
    // CRI `P` pieces join into the line of their first piece.
    if !summary.layout.as_deref().is_some_and(|l| l.starts_with("cri+")) {
        assert_eq!(lines + summary.blank_lines, summary.lines);
    }
    let text = String::from_utf8_lossy(data);
    for line in text.lines().take(16) {
        for layout in builtin_layouts() {
            let (header, work) = layout.pattern.parse_counting_work(line);
            assert!(work <= 4096 + 64 * line.len() as u64 + 64);
            assert_eq!(layout.pattern.parse(line), header);
        }
    }
});
