//! The input layer: any bytes, sniffed as compressed data, tar, zip or text, unpacked and split
//! into records, give streams and unreadable reasons, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oztrace_parser::input::{ConfigFile, InputFile, Limits, StreamSink, Unreadable, read_reader};
use oztrace_parser::record::{ReadOptions, read_records};
use std::io::{self, BufRead};

struct Sink;

impl StreamSink for Sink {
    fn log(&mut self, _file: &InputFile, reader: &mut dyn BufRead) -> io::Result<()> {
        let (_, error) = read_records(reader, &ReadOptions::default(), &mut |_| {});
        error.map_or(Ok(()), Err)
    }
    fn config(&mut self, _config: ConfigFile) {}
    fn unreadable(&mut self, item: Unreadable) {
        assert!(!item.reason.is_empty());
    }
}

fuzz_target!(|data: &[u8]| {
    read_reader(data, "fuzz", &mut Sink, &Limits::default());
});
