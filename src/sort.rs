//! `events --sort time`: the recorded trace in time order across files, in bounded memory.
//!
//! Records arrive stream by stream (file order). Each is written as its line (JSON, or a CSV row)
//! with a sort key: the latest time seen so far in its file (so a record without a time, or with
//! a time earlier than the line before it, stays after that line: the contract keeps input order
//! within a file; records before a file's first time take that time; files with no time at all go
//! last), then its arrival number, so that equal times keep input order. This is a merge of the
//! files by time. Lines are held up to half a memory budget, then sorted and spilled to a
//! temporary file as a run by a thread of its own while the next half fills; at the end the runs
//! are merged (one open reader per run, a heap of their heads).

use crate::Failure;
use crate::export::RowFormat;
use oztrace_analyzer::load::Rendered;
use oztrace_parser::event::Event;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

/// JSON held in memory at most: half of it being filled, the other half (a full buffer) being
/// sorted and spilled to disk as a run by a thread of its own, while the lines go on coming.
const DEFAULT_BUDGET: usize = 64 << 20;

/// A held line: its sort key (time, arrival) and where its bytes are in the held text.
type Key = (i64, u64, usize, usize);

/// What a held line costs besides its bytes: its key.
const KEY_BYTES: usize = std::mem::size_of::<Key>();

/// A spilled line's header: its time, arrival and length, each 8 bytes little-endian. Binary, so
/// that nothing is formatted or parsed per line; length-prefixed, as a CSV row may hold a line end
/// inside a quoted field.
const HEADER_BYTES: usize = 24;

/// What a run is written through at a time.
const RUN_WRITE_BYTES: usize = 256 << 10;

/// What each run is read through at a time while the runs are merged ([`MAX_RUNS`] of them: 16 MiB
/// at most).
const RUN_READ_BYTES: usize = 64 << 10;

/// Lines held in memory: their keys, and their bytes one after the other (no allocation per
/// line).
#[derive(Default)]
struct Held {
    keys: Vec<Key>,
    text: Vec<u8>,
}

impl Held {
    /// Holds the line `write` appends to the held text.
    fn push(
        &mut self,
        placed: i64,
        arrival: u64,
        write: impl FnOnce(&mut Vec<u8>) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let start = self.text.len();
        write(&mut self.text)?;
        self.keys.push((placed, arrival, start, self.text.len()));
        Ok(())
    }

    fn bytes(&self) -> usize {
        self.text.len() + self.keys.len() * KEY_BYTES
    }

    /// The lines in key order, each with its bytes.
    fn sorted(&mut self) -> impl Iterator<Item = (i64, u64, &[u8])> {
        self.keys.sort_unstable_by_key(|&(ts, n, _, _)| (ts, n));
        let text = &self.text;
        (self.keys.iter()).map(move |&(ts, n, start, end)| (ts, n, &text[start..end]))
    }

    /// Writes the lines in key order to a temporary file, one run; gives it, and the buffers
    /// emptied for the next lines.
    fn spill(mut self) -> Result<(std::fs::File, Held), Failure> {
        let file = new_run(|out| {
            (self.sorted()).try_for_each(|(ts, n, line)| write_spilled(out, ts, n, line))
        })?;
        self.keys.clear();
        self.text.clear();
        Ok((file, self))
    }
}

/// A temporary file, written by `write` and then read from its start: one run.
fn new_run(
    write: impl FnOnce(&mut BufWriter<&mut std::fs::File>) -> Result<(), Failure>,
) -> Result<std::fs::File, Failure> {
    let mut file = tempfile::tempfile().map_err(spill_failure)?;
    {
        let mut out = BufWriter::with_capacity(RUN_WRITE_BYTES, &mut file);
        write(&mut out)?;
        out.flush().map_err(spill_failure)?;
    }
    file.seek(SeekFrom::Start(0)).map_err(spill_failure)?;
    Ok(file)
}

/// Writes a line of a run: its header, then its bytes.
fn write_spilled(out: &mut impl Write, ts: i64, n: u64, line: &[u8]) -> Result<(), Failure> {
    let mut header = [0; HEADER_BYTES];
    header[..8].copy_from_slice(&ts.to_le_bytes());
    header[8..16].copy_from_slice(&n.to_le_bytes());
    header[16..].copy_from_slice(&(line.len() as u64).to_le_bytes());
    (out.write_all(&header))
        .and_then(|()| out.write_all(line))
        .map_err(spill_failure)
}

fn spill_failure(e: std::io::Error) -> Failure {
    Failure::Internal(format!("writing a temporary file for --sort time: {e}"))
}

/// Runs open at most besides those merged already: a file descriptor and a read buffer each at the
/// end. Once there are this many, they are merged into one (every 8 GiB of lines with the default
/// budget), so that each line is written twice at most before the end.
const MAX_RUNS: usize = 256;

/// Merges `runs` in key order, handing each line (with its key) to `emit`.
fn merge(
    runs: Vec<std::fs::File>,
    emit: &mut impl FnMut(i64, u64, &[u8]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let mut runs: Vec<Run> = (runs.into_iter())
        .map(|file| Run {
            reader: BufReader::with_capacity(RUN_READ_BYTES, file),
            line: Vec::new(),
        })
        .collect();
    // Each run's next line is in its buffer; the heap orders the runs by those lines' keys.
    let mut heap = BinaryHeap::with_capacity(runs.len());
    for (at, run) in runs.iter_mut().enumerate() {
        if let Some((ts, n)) = run.next()? {
            heap.push(Reverse((ts, n, at)));
        }
    }
    while let Some(Reverse((ts, n, at))) = heap.pop() {
        let run = &mut runs[at];
        emit(ts, n, &run.line)?;
        if let Some((ts, n)) = run.next()? {
            heap.push(Reverse((ts, n, at)));
        }
    }
    Ok(())
}

pub struct TimeSorter {
    /// What each of the two buffers holds before it is spilled.
    spill_at: usize,
    held: Held,
    runs: Vec<std::fs::File>,
    /// How many of `runs` (the first ones) are merges of earlier runs, and how many others are
    /// merged into one ([`MAX_RUNS`]).
    merged: usize,
    max_runs: usize,
    /// The run being written, by its thread.
    spilling: Option<std::thread::JoinHandle<Result<(std::fs::File, Held), Failure>>>,
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
            spill_at: budget / 2,
            held: Held::default(),
            runs: Vec::new(),
            merged: 0,
            max_runs: MAX_RUNS,
            spilling: None,
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
            self.push_line(placed, |text| {
                (format.write(event, text))
                    .map_err(|e| Failure::Internal(format!("writing events: {e}")))
            })?;
        }
        Ok(())
    }

    /// Adds the lines of events whose places are known (the OM audit merge gives the latest time
    /// of their file).
    pub fn push_rendered(&mut self, rendered: &Rendered) -> Result<(), Failure> {
        let mut start = 0;
        for &(placed, end) in &rendered.ends {
            // Each line ends with its line end, which the output adds back.
            let line = &rendered.text[start..end - 1];
            self.push_line(placed, |text| {
                text.extend_from_slice(line);
                Ok(())
            })?;
            start = end;
        }
        Ok(())
    }

    /// Adds the line `write` writes (without its line end), the next to arrive.
    fn push_line(
        &mut self,
        placed: i64,
        write: impl FnOnce(&mut Vec<u8>) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let arrival = self.arrivals;
        self.arrivals += 1;
        self.push_keyed(placed, arrival, write)
    }

    /// Adds the line `write` writes (without its line end) whose place and arrival number its
    /// caller knows: lines may then come in any order. Arrival numbers must be unique.
    fn push_keyed(
        &mut self,
        placed: i64,
        arrival: u64,
        write: impl FnOnce(&mut Vec<u8>) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        self.held.push(placed, arrival, write)?;
        if self.held.bytes() >= self.spill_at {
            self.spill()?;
        }
        Ok(())
    }

    /// Hands the held lines to a thread that sorts and spills them as one run, once the run
    /// before is written (its emptied buffers then hold the next lines).
    fn spill(&mut self) -> Result<(), Failure> {
        let spare = self.spilled()?.unwrap_or_default();
        let full = std::mem::replace(&mut self.held, spare);
        self.spilling = Some(std::thread::spawn(move || full.spill()));
        Ok(())
    }

    /// Waits for the run being written, if any: it joins the runs, and its buffers are given.
    fn spilled(&mut self) -> Result<Option<Held>, Failure> {
        let Some(spilling) = self.spilling.take() else {
            return Ok(None);
        };
        let (file, emptied) = spilling.join().map_err(|_| {
            Failure::Internal("the thread writing a temporary file for --sort time failed".into())
        })??;
        self.runs.push(file);
        if self.runs.len() - self.merged >= self.max_runs {
            self.merge_runs()?;
        }
        Ok(Some(emptied))
    }

    /// Merges the runs not merged yet into one.
    fn merge_runs(&mut self) -> Result<(), Failure> {
        let runs = self.runs.split_off(self.merged);
        let file = new_run(|out| merge(runs, &mut |ts, n, line| write_spilled(out, ts, n, line)))?;
        self.runs.push(file);
        self.merged = self.runs.len();
        Ok(())
    }

    /// How many runs went to disk, or are going.
    #[cfg(test)]
    fn spilled_runs(&self) -> usize {
        self.runs.len() + usize::from(self.spilling.is_some())
    }

    /// Writes every line in time order.
    pub fn finish(mut self, out: &mut dyn Write) -> Result<(), Failure> {
        let fail = |e: std::io::Error| crate::output::write_failure("events", e);
        if self.spilling.is_none() && self.runs.is_empty() {
            for (_, _, line) in self.held.sorted() {
                out.write_all(line).map_err(fail)?;
                out.write_all(b"\n").map_err(fail)?;
            }
            return out.flush().map_err(fail);
        }
        if !self.held.keys.is_empty() {
            self.spill()?;
        }
        self.spilled()?;
        merge(std::mem::take(&mut self.runs), &mut |_, _, line| {
            out.write_all(line).map_err(fail)?;
            out.write_all(b"\n").map_err(fail)
        })?;
        out.flush().map_err(fail)
    }
}

/// A spilled run being merged: its reader and its line read last.
struct Run {
    reader: BufReader<std::fs::File>,
    line: Vec<u8>,
}

impl Run {
    /// Reads the run's next line into `line` and gives its key; `None` at the run's end.
    fn next(&mut self) -> Result<Option<(i64, u64)>, Failure> {
        let corrupt = || Failure::Internal("a temporary run of --sort time is corrupt".into());
        let failed = |e: std::io::Error| match e.kind() {
            // A run ends after a whole line: an end inside one is corrupt.
            std::io::ErrorKind::UnexpectedEof => corrupt(),
            _ => Failure::Internal(format!("reading a temporary file for --sort time: {e}")),
        };
        if self.reader.fill_buf().map_err(failed)?.is_empty() {
            return Ok(None);
        }
        let mut header = [0; HEADER_BYTES];
        self.reader.read_exact(&mut header).map_err(failed)?;
        let word = |at: usize| {
            let mut bytes = [0; 8];
            bytes.copy_from_slice(&header[at..at + 8]);
            bytes
        };
        let (ts, n) = (i64::from_le_bytes(word(0)), u64::from_le_bytes(word(8)));
        let len = usize::try_from(u64::from_le_bytes(word(16))).map_err(|_| corrupt())?;
        self.line.resize(len, 0);
        self.reader.read_exact(&mut self.line).map_err(failed)?;
        Ok(Some((ts, n)))
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

    /// Holds `line` under its key.
    fn hold(sorter: &mut TimeSorter, placed: i64, arrival: u64, line: &[u8]) {
        let write = |text: &mut Vec<u8>| {
            text.extend_from_slice(line);
            Ok(())
        };
        sorter.push_keyed(placed, arrival, write).unwrap();
    }

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

    /// A run cut inside a line (a full disk, a file changed under us) is an error naming the
    /// temporary run, not a panic or a short output taken for the whole.
    #[test]
    fn a_run_cut_inside_a_line_is_reported_as_corrupt() {
        for cut in [5, HEADER_BYTES as u64 + 2] {
            let mut sorter = TimeSorter::with_budget(1);
            hold(&mut sorter, 1, 0, b"first line");
            hold(&mut sorter, 2, 1, b"second line");
            assert_eq!(sorter.spilled_runs(), 2);
            sorter.runs[0].set_len(cut).unwrap();
            let mut out = Vec::new();
            let error = match sorter.finish(&mut out) {
                Err(Failure::Internal(message)) => message,
                other => panic!("cut at {cut}: {other:?}"),
            };
            assert!(
                error.contains("temporary run of --sort time is corrupt"),
                "{error}"
            );
        }
    }

    /// Past the most runs open, the runs so far are merged into one, again and again: the lines
    /// still come back whole and in key order, through fewer open files.
    #[test]
    fn runs_past_the_most_open_are_merged_without_changing_the_order() {
        let mut sorter = TimeSorter::with_budget(1);
        sorter.max_runs = 3;
        // Twenty lines, one run each, their keys out of order.
        let keys: Vec<(i64, u64)> = (0..20u64).map(|n| (((n * 7) % 20) as i64, n)).collect();
        for &(placed, arrival) in &keys {
            hold(
                &mut sorter,
                placed,
                arrival,
                format!("line {arrival}").as_bytes(),
            );
            assert!(
                sorter.runs.len() <= sorter.merged + 3,
                "{}",
                sorter.runs.len()
            );
        }
        assert!(sorter.merged >= 3, "merged {} times", sorter.merged);
        let mut out = Vec::new();
        sorter.finish(&mut out).unwrap();
        let mut sorted = keys.clone();
        sorted.sort();
        let expected: String = sorted.iter().map(|(_, n)| format!("line {n}\n")).collect();
        assert_eq!(String::from_utf8(out).unwrap(), expected);
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
                hold(&mut sorter, placed, arrival, line.as_bytes());
            }
            let mut out = Vec::new();
            sorter.finish(&mut out).unwrap();
            let expected = "a,\"tab\there\"\nc,\"\r\n\"\n\nb,\"two\nlines\"\n";
            assert_eq!(String::from_utf8(out).unwrap(), expected, "budget {budget}");
        }
    }
}
