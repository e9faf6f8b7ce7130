//! `events --sort time`: the recorded trace in time order across files, in bounded memory.
//!
//! Records arrive stream by stream (file order). Each is written as its line (JSON, or a CSV row)
//! with a sort key: the latest time seen so far in its file (so a record without a time, or with
//! a time earlier than the line before it, stays after that line: the contract keeps input order
//! within a file; records before a file's first time take that time; files with no time at all go
//! last), then its arrival number, so that equal times keep input order. This is a merge of the
//! files by time. Lines are held up to a memory budget, then sorted and spilled to a temporary
//! file as a run; at the end the runs are merged (one open reader per run, a heap of their
//! heads).

use crate::Failure;
use crate::export::RowFormat;
use oztrace_analyzer::load::Rendered;
use oztrace_parser::event::Event;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

/// JSON held in memory before a sorted run is spilled to disk.
const DEFAULT_BUDGET: usize = 64 << 20;

/// A line with its sort key: (time, arrival). Lines stay bytes: the renderers wrote them from
/// text, and they are only ever written out again.
type Keyed = (i64, u64, Vec<u8>);

pub struct TimeSorter {
    budget: usize,
    held: Vec<Keyed>,
    held_bytes: usize,
    runs: Vec<std::fs::File>,
    arrivals: u64,
}

impl Default for TimeSorter {
    fn default() -> Self {
        TimeSorter::with_budget(DEFAULT_BUDGET)
    }
}

impl TimeSorter {
    pub fn with_budget(budget: usize) -> TimeSorter {
        TimeSorter {
            budget,
            held: Vec::new(),
            held_bytes: 0,
            runs: Vec::new(),
            arrivals: 0,
        }
    }

    /// Adds one stream's events, in their file order, as `format` writes them.
    pub fn push_stream<'a>(
        &mut self,
        events: impl IntoIterator<Item = &'a Event>,
        format: RowFormat<'_>,
    ) -> Result<(), Failure> {
        let events: Vec<&Event> = events.into_iter().collect();
        for (event, placed) in events.iter().zip(places(events.iter().map(|e| e.ts))) {
            let mut line = Vec::new();
            format
                .write(event, &mut line)
                .map_err(|e| Failure::Internal(format!("writing events: {e}")))?;
            self.push_line(placed, line)?;
        }
        Ok(())
    }

    /// Adds the lines of events whose places are known (the OM audit merge gives the latest time
    /// of their file).
    pub fn push_rendered(&mut self, rendered: &Rendered) -> Result<(), Failure> {
        let mut start = 0;
        for &(placed, end) in &rendered.ends {
            // Each line ends with its line end, which the runs add back.
            let line = &rendered.text[start..end];
            self.push_line(placed, line[..line.len() - 1].to_vec())?;
            start = end;
        }
        Ok(())
    }

    fn push_line(&mut self, placed: i64, json: Vec<u8>) -> Result<(), Failure> {
        let arrival = self.arrivals;
        self.arrivals += 1;
        self.push_keyed(placed, arrival, json)
    }

    /// Adds a line (without its line end) whose place and arrival number its caller knows:
    /// lines may then come in any order. Arrival numbers must be unique.
    pub fn push_keyed(&mut self, placed: i64, arrival: u64, line: Vec<u8>) -> Result<(), Failure> {
        self.held_bytes += line.len() + 32;
        self.held.push((placed, arrival, line));
        if self.held_bytes >= self.budget {
            self.spill()?;
        }
        Ok(())
    }

    /// Sorts the held lines and writes them to a temporary file as one run.
    fn spill(&mut self) -> Result<(), Failure> {
        let fail = |e: std::io::Error| {
            Failure::Internal(format!("writing a temporary file for --sort time: {e}"))
        };
        self.held.sort_unstable_by_key(|(ts, n, _)| (*ts, *n));
        let mut file = tempfile::tempfile().map_err(fail)?;
        {
            let mut out = BufWriter::new(&mut file);
            for (ts, n, line) in self.held.drain(..) {
                // Length-prefixed: a CSV row may hold a line end inside a quoted field.
                write!(out, "{ts}\t{n}\t{}\t", line.len()).map_err(fail)?;
                out.write_all(&line).map_err(fail)?;
                out.write_all(b"\n").map_err(fail)?;
            }
            out.flush().map_err(fail)?;
        }
        file.seek(SeekFrom::Start(0)).map_err(fail)?;
        self.runs.push(file);
        self.held_bytes = 0;
        Ok(())
    }

    /// How many runs went to disk.
    #[cfg(test)]
    fn spilled_runs(&self) -> usize {
        self.runs.len()
    }

    /// Writes every line in time order.
    pub fn finish(mut self, out: &mut dyn Write) -> Result<(), Failure> {
        let fail = |e: std::io::Error| crate::output::write_failure("events", e);
        if self.runs.is_empty() {
            self.held.sort_unstable_by_key(|(ts, n, _)| (*ts, *n));
            for (_, _, line) in &self.held {
                out.write_all(line).map_err(fail)?;
                out.write_all(b"\n").map_err(fail)?;
            }
            return out.flush().map_err(fail);
        }
        if !self.held.is_empty() {
            self.spill()?;
        }
        let mut readers: Vec<BufReader<std::fs::File>> =
            self.runs.drain(..).map(BufReader::new).collect();
        let mut heap: BinaryHeap<Reverse<Keyed>> = BinaryHeap::new();
        let next = |reader: &mut BufReader<std::fs::File>| -> Result<Option<Keyed>, Failure> {
            let bad = || Failure::Internal("a temporary run of --sort time is corrupt".into());
            // The key: time, arrival and length, each ended by a tab; then the line and its end.
            let mut key = Vec::new();
            if reader.read_until(b'\t', &mut key).map_err(fail)? == 0 {
                return Ok(None);
            }
            for _ in 0..2 {
                reader.read_until(b'\t', &mut key).map_err(fail)?;
            }
            let key = std::str::from_utf8(&key).map_err(|_| bad())?;
            let mut fields = key.split_terminator('\t');
            let ts: i64 = fields.next().and_then(|t| t.parse().ok()).ok_or_else(bad)?;
            let n: u64 = fields.next().and_then(|t| t.parse().ok()).ok_or_else(bad)?;
            let len: usize = fields.next().and_then(|t| t.parse().ok()).ok_or_else(bad)?;
            let mut line = vec![0; len + 1];
            reader.read_exact(&mut line).map_err(fail)?;
            if line.pop() != Some(b'\n') {
                return Err(bad());
            }
            Ok(Some((ts, n, line)))
        };
        // Arrival numbers are unique, so a head identifies its run through this map.
        let mut run_of = std::collections::HashMap::new();
        for (run, reader) in readers.iter_mut().enumerate() {
            if let Some(head) = next(reader)? {
                run_of.insert(head.1, run);
                heap.push(Reverse(head));
            }
        }
        while let Some(Reverse((_, n, line))) = heap.pop() {
            out.write_all(&line).map_err(fail)?;
            out.write_all(b"\n").map_err(fail)?;
            let run = run_of.remove(&n).unwrap_or_default();
            if let Some(head) = next(&mut readers[run])? {
                run_of.insert(head.1, run);
                heap.push(Reverse(head));
            }
        }
        out.flush().map_err(fail)
    }
}

/// Where each record of a file (by their times, in file order) is placed in time order: the latest
/// time seen so far in the file, records before its first time at that time, a file with no time
/// at all last.
pub fn places(times: impl Iterator<Item = Option<i64>> + Clone) -> impl Iterator<Item = i64> {
    let mut placed = times.clone().find_map(|ts| ts).unwrap_or(i64::MAX);
    times.map(move |ts| {
        placed = placed.max(ts.unwrap_or(placed));
        placed
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    fn times(out: &[u8]) -> Vec<(Option<String>, u64)> {
        String::from_utf8(out.to_vec())
            .unwrap()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["ts"].as_str().map(str::to_string),
                    v["line"].as_u64().unwrap(),
                )
            })
            .collect()
    }

    /// Two streams read one after the other, their times interleaved: memory-only and spilled
    /// runs give the same time order, untimed lines after the line before them.
    #[test]
    fn streams_interleave_by_time_in_memory_and_through_spilled_runs() {
        let trace = fixture::analysis().trace;
        let events: Vec<&Event> = trace.iter().collect();
        // Stream A: T0 (1234), untimed (78), T0+3000 (1300); stream B: T0+500 (77), T0+1200 (9).
        let a = [events[0], events[3], events[4]];
        let b = [events[1], events[2]];
        let mut expected = None;
        for budget in [usize::MAX, 1] {
            let mut sorter = TimeSorter::with_budget(budget);
            sorter.push_stream(a, RowFormat::Json).unwrap();
            sorter.push_stream(b, RowFormat::Json).unwrap();
            let spilled = sorter.spilled_runs();
            let mut out = Vec::new();
            sorter.finish(&mut out).unwrap();
            let order: Vec<u64> = times(&out).into_iter().map(|(_, line)| line).collect();
            assert_eq!(order, [1234, 78, 77, 9, 1300], "budget {budget}");
            if budget == 1 {
                assert!(spilled >= 4, "every line went to its own run: {spilled}");
            }
            assert!(expected.is_none_or(|e: Vec<u64>| e == order));
            expected = Some(order);
        }
    }

    /// Lines given their keys out of order (CSV rows may hold tabs and line ends inside quoted
    /// fields) come back whole and in key order, from memory and from spilled runs alike.
    #[test]
    fn keyed_lines_with_line_ends_come_back_whole_in_key_order() {
        let lines = [
            (20, 1, "b,\"two\nlines\""),
            (10, 7, "a,\"tab\there\""),
            (20, 0, ""),
            (10, 9, "c,\"\r\n\""),
        ];
        for budget in [usize::MAX, 1] {
            let mut sorter = TimeSorter::with_budget(budget);
            for (placed, arrival, line) in lines {
                sorter.push_keyed(placed, arrival, line.into()).unwrap();
            }
            let mut out = Vec::new();
            sorter.finish(&mut out).unwrap();
            let expected = "a,\"tab\there\"\nc,\"\r\n\"\n\nb,\"two\nlines\"\n";
            assert_eq!(String::from_utf8(out).unwrap(), expected, "budget {budget}");
        }
    }
}
