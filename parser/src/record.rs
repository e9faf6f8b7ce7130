//! A line stream → records: one header line plus its continuation lines.
//!
//! A line that the file's layout cannot read as a header belongs to the record before it (log4j
//! prints stack traces, `Caused by:`, `... N more`, STARTUP_MSG banners, audit `%throwable{3}` and
//! messages with embedded newlines without a header). In docker-compose streams every service
//! has its own pending record, since their lines interleave. Records are emitted in input order.

use crate::layout::{self, Detected, Layout, display_name, parse_header, split_prefix};
use crate::source::Level;
use crate::time::TimeZones;
use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::Arc;

/// Lines read before the layout is chosen, unless they hold more than `DETECTION_BYTES`.
const DETECTION_LINES: usize = 200;
const DETECTION_BYTES: usize = 1 << 20;
/// Continuation text kept per record; longer tails are counted but not stored.
const MAX_CONTINUATION_BYTES: usize = 64 * 1024;
/// Bytes kept of one line: memory follows this, not the input (a file without a newline, a
/// gigabyte line). The rest is counted and the record marked truncated.
pub const MAX_LINE_BYTES: usize = 256 * 1024;

/// One log entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// 1-based line of the header in the decompressed stream.
    pub line: u64,
    /// UTC epoch millis; `None` when neither the layout nor a viewer stamp gives a time.
    pub ts: Option<i64>,
    pub level: Option<Level>,
    pub thread: Option<String>,
    pub logger: Option<String>,
    /// The message's first line, without the header.
    pub message: String,
    /// The audit layouts' throwable on the header line (`KEY_NOT_FOUND org…OMException: …`).
    pub throwable: Option<String>,
    /// The continuation lines, joined by `\n` (truncated past 64 KiB).
    pub continuation: String,
    pub continuation_lines: u32,
    /// The docker-compose service that printed the record: its host.
    pub service: Option<String>,
    /// No layout could read this line and no record was open to attach it to.
    pub headerless: bool,
}

impl Record {
    /// The whole message: first line and continuation lines.
    pub fn full_text(&self) -> String {
        if self.continuation.is_empty() {
            self.message.clone()
        } else {
            format!("{}\n{}", self.message, self.continuation)
        }
    }
}

/// How to read one stream.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// A layout from `--layout` or the bundle's log4j.properties; detection still runs and
    /// falls back to the built-ins when it reads fewer lines.
    pub preferred: Option<Arc<Layout>>,
    pub zones: TimeZones,
    /// The host the file name or folder gave (compose services override it per record).
    pub host: Option<String>,
}

/// What reading one stream found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StreamSummary {
    /// The layout read (`file`, `console`, `audit`, … ; `compose+` in front for compose streams);
    /// `None` when no line could be read as a header.
    pub layout: Option<String>,
    pub lines: u64,
    pub records: u64,
    pub headerless: u64,
    pub continuation_lines: u64,
    pub first_ts: Option<i64>,
    pub last_ts: Option<i64>,
    /// Headers read by a different built-in layout than the file's (mixed streams).
    pub other_layout_headers: u64,
    /// Records with bytes not kept (past [`MAX_LINE_BYTES`] in a line or the continuation cap);
    /// their text ends with a `[… N bytes not kept]` mark.
    pub truncated_records: u64,
    pub bytes_not_kept: u64,
}

impl StreamSummary {
    /// Lines were read but not one of them as a header of any layout: the stream is in a format
    /// oztrace does not know (whatever reader produced the records, this is checked last).
    pub fn matched_nothing(&self) -> bool {
        self.layout.is_none() && self.lines > 0
    }
}

/// Reads records from `reader` and hands each to `emit` in input order. On a read error
/// (a truncated gzip member, say) the records before it are emitted and the error is returned
/// alongside the summary of what was read.
pub fn read_records(
    reader: &mut dyn BufRead,
    options: &ReadOptions,
    emit: &mut dyn FnMut(Record),
) -> (StreamSummary, Option<io::Error>) {
    let mut splitter = Splitter::new(options, emit);
    let mut buf = Vec::with_capacity(512);
    let mut head: Vec<(String, u64)> = Vec::new();
    let mut head_bytes = 0;
    let mut error = None;
    loop {
        buf.clear();
        let not_kept = match read_line_capped(reader, &mut buf, MAX_LINE_BYTES) {
            Ok(None) => break,
            Ok(Some(not_kept)) => not_kept,
            Err(e) => {
                error = Some(e);
                break;
            }
        };
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        // Valid UTF-8 is the rule; the lossy path (slower) only for lines that are not.
        let mut line = match std::str::from_utf8(&buf) {
            Ok(valid) => std::borrow::Cow::Borrowed(valid),
            Err(_) => String::from_utf8_lossy(&buf),
        };
        if not_kept > 0 {
            line.to_mut().push_str(&not_kept_mark(not_kept));
        }
        if splitter.detected.is_none() {
            head_bytes += line.len();
            head.push((line.into_owned(), not_kept));
            if head.len() >= DETECTION_LINES || head_bytes >= DETECTION_BYTES {
                splitter.start(&head);
                for (line, not_kept) in head.drain(..) {
                    splitter.push(&line, not_kept);
                }
            }
        } else {
            splitter.push(&line, not_kept);
        }
    }
    if splitter.detected.is_none() {
        splitter.start(&head);
        for (line, not_kept) in head.drain(..) {
            splitter.push(&line, not_kept);
        }
    }
    (splitter.finish(), error)
}

/// ` [… N bytes not kept]`: the end of a line or record cut at a cap.
fn not_kept_mark(bytes: u64) -> String {
    format!(" [… {bytes} bytes not kept]")
}

/// Reads one line, newline included, keeping at most `cap` bytes of it in `buf`. Returns `None`
/// at the end of the stream, else how many bytes of the line were read but not kept.
fn read_line_capped(
    reader: &mut dyn BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<u64>> {
    let mut read_any = false;
    let mut not_kept = 0u64;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read_any.then_some(not_kept));
        }
        read_any = true;
        let (used, done) = match memchr::memchr(b'\n', available) {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        let keep = used.min(cap.saturating_sub(buf.len()));
        buf.extend_from_slice(&available[..keep]);
        not_kept += (used - keep) as u64;
        reader.consume(used);
        if done {
            return Ok(Some(not_kept));
        }
    }
}

struct Splitter<'a> {
    options: &'a ReadOptions,
    emit: &'a mut dyn FnMut(Record),
    detected: Option<Option<Detected>>,
    /// The open record of each service (`None` key outside compose streams), and whether it was
    /// truncated.
    pending: Vec<(Option<String>, Record, bool)>,
    /// Finished records waiting for earlier pending ones, by line.
    finished: BTreeMap<u64, Record>,
    summary: StreamSummary,
    sample_logger: Option<String>,
}

impl<'a> Splitter<'a> {
    fn new(options: &'a ReadOptions, emit: &'a mut dyn FnMut(Record)) -> Self {
        Splitter {
            options,
            emit,
            detected: None,
            pending: Vec::new(),
            finished: BTreeMap::new(),
            summary: StreamSummary::default(),
            sample_logger: None,
        }
    }

    fn start(&mut self, head: &[(String, u64)]) {
        let lines: Vec<String> = head.iter().map(|(line, _)| line.clone()).collect();
        self.detected = Some(layout::detect(&lines, self.options.preferred.as_ref()));
    }

    /// One line; `not_kept` bytes of it were past the line cap.
    fn push(&mut self, raw: &str, not_kept: u64) {
        self.summary.lines += 1;
        self.summary.bytes_not_kept += not_kept;
        let line_no = self.summary.lines;
        let Some(Some(detected)) = &self.detected else {
            self.headerless(line_no, None, raw, not_kept > 0);
            return;
        };
        let prefix = split_prefix(raw, detected.compose);
        let service = prefix.service.map(str::to_string);
        match parse_header(prefix.rest, &detected.layout) {
            Some((header, other)) => {
                if other.is_some() {
                    self.summary.other_layout_headers += 1;
                }
                if self.sample_logger.is_none() {
                    self.sample_logger = header.logger.map(str::to_string);
                }
                let host = service.as_deref().or(self.options.host.as_deref());
                let ts = header
                    .time
                    .and_then(|t| self.options.zones.for_host(host).to_epoch_millis(&t))
                    .or(prefix.viewer_time);
                let record = Record {
                    line: line_no,
                    ts,
                    level: header.level,
                    thread: header.thread.map(str::to_string),
                    logger: header.logger.map(str::to_string),
                    message: header.message.to_string(),
                    throwable: header.throwable.map(str::to_string),
                    continuation: String::new(),
                    continuation_lines: 0,
                    service: service.clone(),
                    headerless: false,
                };
                self.open(service, record, not_kept > 0);
            }
            None => match self.pending.iter_mut().find(|(s, _, _)| *s == service) {
                Some((_, record, truncated)) => {
                    record.continuation_lines += 1;
                    self.summary.continuation_lines += 1;
                    let kept = record.continuation.len() < MAX_CONTINUATION_BYTES;
                    if kept {
                        if !record.continuation.is_empty() {
                            record.continuation.push('\n');
                        }
                        record.continuation.push_str(prefix.rest);
                    } else {
                        self.summary.bytes_not_kept += prefix.rest.len() as u64 + 1;
                    }
                    if (!kept || not_kept > 0) && !*truncated {
                        *truncated = true;
                        self.summary.truncated_records += 1;
                        if !kept {
                            record.continuation.push_str("\n[… continuation not kept]");
                        }
                    }
                }
                None => self.headerless(line_no, service, prefix.rest, not_kept > 0),
            },
        }
    }

    fn headerless(&mut self, line: u64, service: Option<String>, text: &str, truncated: bool) {
        self.summary.headerless += 1;
        if truncated {
            self.summary.truncated_records += 1;
        }
        let record = Record {
            line,
            ts: None,
            level: None,
            thread: None,
            logger: None,
            message: text.to_string(),
            throwable: None,
            continuation: String::new(),
            continuation_lines: 0,
            service,
            headerless: true,
        };
        self.finished.insert(line, record);
        self.flush();
    }

    fn open(&mut self, service: Option<String>, record: Record, truncated: bool) {
        if let Some(i) = self.pending.iter().position(|(s, _, _)| *s == service) {
            let (_, done, _) = self.pending.swap_remove(i);
            self.finished.insert(done.line, done);
        }
        if truncated {
            self.summary.truncated_records += 1;
        }
        self.pending.push((service, record, truncated));
        self.flush();
    }

    /// Emits finished records that no pending record precedes.
    fn flush(&mut self) {
        let oldest_pending = self.pending.iter().map(|(_, r, _)| r.line).min();
        while let Some(entry) = self.finished.first_entry() {
            if oldest_pending.is_some_and(|p| *entry.key() > p) {
                break;
            }
            let record = entry.remove();
            self.count(&record);
            (self.emit)(record);
        }
    }

    fn count(&mut self, record: &Record) {
        if record.headerless {
            return;
        }
        self.summary.records += 1;
        if let Some(ts) = record.ts {
            self.summary.first_ts = Some(self.summary.first_ts.map_or(ts, |f| f.min(ts)));
            self.summary.last_ts = Some(self.summary.last_ts.map_or(ts, |l| l.max(ts)));
        }
    }

    fn finish(mut self) -> StreamSummary {
        for (_, record, _) in std::mem::take(&mut self.pending) {
            self.finished.insert(record.line, record);
        }
        self.flush();
        if let Some(Some(detected)) = &self.detected {
            let name = display_name(&detected.layout, self.sample_logger.as_deref());
            self.summary.layout = Some(if detected.compose {
                format!("compose+{name}")
            } else {
                name
            });
        }
        self.summary
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Vec<Record>, StreamSummary) {
        read_with(text, ReadOptions::default())
    }

    fn read_with(text: &str, options: ReadOptions) -> (Vec<Record>, StreamSummary) {
        let mut records = Vec::new();
        let (summary, error) =
            read_records(&mut text.as_bytes(), &options, &mut |r| records.push(r));
        assert!(error.is_none());
        (records, summary)
    }

    #[test]
    fn stack_traces_attach_to_their_record() {
        let text = "\
2026-08-20 14:12:03,551 [scm2-FixedThreadPoolWithAffinityExecutor-3-0] ERROR org.apache.hadoop.hdds.scm.container.ContainerReportHandler: Failed to process Container #1051
org.apache.hadoop.hdds.scm.exceptions.SCMException: org.apache.ratis.protocol.exceptions.NotLeaderException: not the leader
\tat org.apache.hadoop.hdds.scm.ha.invoker.ScmInvoker.translateException(ScmInvoker.java:118)
Caused by: org.apache.ratis.protocol.exceptions.NotLeaderException: Server x is not the leader
    at org.apache.X.y(X.java:1)
\t... 12 more
2026-08-20 14:12:04,000 [main] INFO org.apache.hadoop.hdds.scm.node.SCMNodeManager: next
";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].continuation_lines, 5);
        assert!(records[0].continuation.contains("Caused by: "));
        assert_eq!(records[0].message, "Failed to process Container #1051");
        assert_eq!(records[1].line, 7);
        assert_eq!(summary.layout.as_deref(), Some("file"));
        assert_eq!(summary.continuation_lines, 5);
        assert_eq!(
            summary.first_ts.map(crate::time::format_rfc3339).as_deref(),
            Some("2026-08-20T14:12:03.551Z")
        );
    }

    #[test]
    fn ratis_truncate_message_with_embedded_newlines() {
        let text = "\
2026-03-04 10:12:01,245 [grpc-default-executor-12] INFO org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker: 3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4-SegmentedRaftLogWorker: Truncating segments truncate(18342)
  toTruncate: (17901, 18345) isOpen? true, length=96231, newEndIndex=18341
    toDelete: [], start index 18342
";
        let (records, _) = read(text);
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].continuation_lines, 2);
        assert!(records[0].full_text().contains("newEndIndex=18341"));
    }

    #[test]
    fn audit_failure_is_three_lines_and_startup_banner_one_record() {
        let text = "\
2025-11-04 08:00:05,003 | ERROR | OMAudit | user=hbase | ip=10.20.0.12 | op=RECOVER_LEASE {\"volume\":\"hbase\",\"bucket\":\"wal\",\"key\":\"k\",\"Transaction\":\"5123456\"} | ret=FAILURE | KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD org.apache.hadoop.ozone.om.exceptions.OMException: Open Key k updated recently
\tat org.apache.hadoop.ozone.om.request.file.OMRecoverLeaseRequest.doWork(OMRecoverLeaseRequest.java:228)
\tat org.apache.hadoop.ozone.om.request.file.OMRecoverLeaseRequest.validateAndUpdateCache(OMRecoverLeaseRequest.java:150) 
2025-11-04 08:00:05,611 | INFO  | OMAudit | user=hbase | ip=10.20.0.12 | op=COMMIT_KEY {} | ret=SUCCESS |  
";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].continuation_lines, 2);
        assert_eq!(records[0].level, Some(Level::Error));
        assert!(
            records[0]
                .throwable
                .as_deref()
                .unwrap()
                .starts_with("KEY_UNDER_LEASE")
        );
        assert_eq!(summary.layout.as_deref(), Some("audit"));

        let banner = "\
2026-08-20 09:00:00,001 [main] INFO org.apache.hadoop.ozone.HddsDatanodeService: STARTUP_MSG: 
/************************************************************
STARTUP_MSG: Starting HddsDatanodeService
STARTUP_MSG:   host = dn1.example.com/10.0.1.11
************************************************************/
2026-08-20 09:00:01,000 [main] INFO org.apache.hadoop.ozone.HddsDatanodeService: next
";
        let (records, _) = read(banner);
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].continuation_lines, 4);
    }

    #[test]
    fn compose_services_interleave_with_their_own_continuations() {
        let text = "\
scm1_1      | 2026-08-20 14:12:03,551 [main] ERROR container.ContainerReportHandler: failed
om1_1       | 2026-08-20 14:12:03,552 [main] INFO om.OzoneManager: started
scm1_1      | java.io.IOException: boom
scm1_1      | \tat org.X.y(X.java:1)
om1_1       | 2026-08-20 14:12:03,553 [main] INFO om.OzoneManager: again
";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 3);
        assert_eq!(records[0].service.as_deref(), Some("scm1_1"));
        assert_eq!(records[0].continuation_lines, 2);
        assert_eq!(records[1].service.as_deref(), Some("om1_1"));
        assert_eq!(records[1].continuation_lines, 0);
        assert_eq!(
            records.iter().map(|r| r.line).collect::<Vec<_>>(),
            vec![1, 2, 5]
        );
        assert_eq!(summary.layout.as_deref(), Some("compose+console"));
    }

    #[test]
    fn kubectl_timestamps_are_stripped_from_headers_and_continuations() {
        let text = "\
2026-08-20T14:02:10.331847123Z 2026-08-20 14:02:10,331 [main] ERROR org.apache.hadoop.ozone.om.OzoneManager: failed
2026-08-20T14:02:10.331901000Z java.io.IOException: boom
2026-08-20T14:02:10.332000000Z \tat org.X.y(X.java:1)
";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].message, "failed");
        assert_eq!(
            records[0].continuation,
            "java.io.IOException: boom\n\tat org.X.y(X.java:1)"
        );
        assert_eq!(summary.layout.as_deref(), Some("file"));
    }

    #[test]
    fn no_timestamp_layout_takes_the_viewer_stamp() {
        let text = "dn-2  | 2026-08-20T14:02:10.331Z [grpc-default-executor-3] INFO impl.RaftServerImpl: a\n";
        let (records, _) = read(text);
        assert_eq!(
            records[0].ts.map(crate::time::format_rfc3339).as_deref(),
            Some("2026-08-20T14:02:10.331Z")
        );
        let (records, _) = read("[main] INFO node.SCMNodeManager: no time\n");
        assert_eq!(records[0].ts, None);
        assert_eq!(records[0].thread.as_deref(), Some("main"));
    }

    #[test]
    fn lines_before_any_header_are_headerless_records_not_dropped() {
        let text = "garbage first line\n2026-08-20 14:12:04,000 [main] INFO a.b.C: ok\n";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 2);
        assert!(records[0].headerless);
        assert_eq!(summary.headerless, 1);
        assert_eq!(summary.records, 1);
        let (records, summary) = read("not a log\nat all\n");
        assert_eq!(records.len(), 2);
        assert_eq!(summary.layout, None);
    }

    #[test]
    fn invalid_utf8_and_long_lines_are_read() {
        let mut bytes = b"2026-08-20 14:12:04,000 [main] INFO a.b.C: caf\xe9 ".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', 1 << 20));
        bytes.push(b'\n');
        let mut records = Vec::new();
        let (_, error) = read_records(&mut bytes.as_slice(), &ReadOptions::default(), &mut |r| {
            records.push(r)
        });
        assert!(error.is_none());
        assert_eq!(records.len(), 1);
        assert!(records[0].message.starts_with("caf\u{fffd} "));
    }

    #[test]
    fn lines_and_records_past_the_caps_are_counted_and_marked_not_kept() {
        // A header line of 3 MiB, then a record whose stack trace runs past the continuation cap,
        // then a record followed by 5 MiB without any newline at all.
        let mut bytes = b"2026-08-20 14:12:04,000 [main] INFO a.b.C: ".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', 3 << 20));
        bytes.extend_from_slice(b"\n2026-08-20 14:12:05,000 [main] ERROR a.b.C: failed\n");
        for _ in 0..3000 {
            bytes.extend_from_slice(
                b"\tat org.apache.hadoop.X.y(X.java:1) and a long tail of frames\n",
            );
        }
        bytes.extend_from_slice(b"2026-08-20 14:12:06,000 [main] INFO a.b.C: ok\n");
        bytes.extend(std::iter::repeat_n(b'z', 5 << 20));
        let mut records = Vec::new();
        let (summary, error) =
            read_records(&mut bytes.as_slice(), &ReadOptions::default(), &mut |r| {
                records.push(r)
            });
        assert!(error.is_none());
        assert_eq!(records.len(), 3);
        let first = &records[0];
        assert!(first.message.len() < MAX_LINE_BYTES + 100);
        let not_kept = (3 << 20) + 44 - MAX_LINE_BYTES;
        assert!(
            first
                .message
                .ends_with(&format!("[… {not_kept} bytes not kept]")),
            "{}",
            &first.message[first.message.len() - 60..]
        );
        assert_eq!(records[1].continuation_lines, 3000);
        assert!(records[1].continuation.len() <= MAX_CONTINUATION_BYTES + 200);
        assert!(
            records[1]
                .continuation
                .ends_with("[… continuation not kept]")
        );
        assert_eq!(records[2].message, "ok");
        let tail = &records[2].continuation;
        assert!(tail.len() < MAX_LINE_BYTES + 100 && tail.ends_with("bytes not kept]"));
        assert_eq!(summary.truncated_records, 3);
        assert!(summary.bytes_not_kept > (8 << 20) - 2 * MAX_LINE_BYTES as u64);
    }

    #[test]
    fn local_times_are_read_in_the_hosts_zone() {
        let options = ReadOptions {
            zones: TimeZones::from_specs(&["dn1=Europe/Berlin"]).unwrap(),
            host: Some("dn1".to_string()),
            ..ReadOptions::default()
        };
        let (records, _) = read_with("2026-08-20 16:02:10,331 [main] INFO a.B: x\n", options);
        assert_eq!(
            records[0].ts.map(crate::time::format_rfc3339).as_deref(),
            Some("2026-08-20T14:02:10.331Z")
        );
    }

    #[test]
    fn read_errors_keep_what_was_read() {
        struct Failing<'a>(&'a [u8], bool);
        impl io::Read for Failing<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                if self.1 {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "truncated gzip",
                    ));
                }
                self.1 = true;
                let n = self.0.len().min(out.len());
                out[..n].copy_from_slice(&self.0[..n]);
                Ok(n)
            }
        }
        let mut reader = io::BufReader::new(Failing(
            b"2026-08-20 14:12:04,000 [main] INFO a.b.C: ok\n",
            false,
        ));
        let mut records = Vec::new();
        let (summary, error) = read_records(&mut reader, &ReadOptions::default(), &mut |r| {
            records.push(r)
        });
        assert_eq!(records.len(), 1);
        assert_eq!(summary.records, 1);
        assert!(error.unwrap().to_string().contains("truncated"));
    }
}
