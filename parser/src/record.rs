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

/// Lines read before the layout is chosen.
const DETECTION_LINES: usize = 200;
/// Continuation text kept per record; longer tails are counted but not stored.
const MAX_CONTINUATION_BYTES: usize = 64 * 1024;

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
    /// Lines the caller knows to be headers of records it does not need (`scan`'s prefilter):
    /// counted as records, with their continuation lines, and never parsed or emitted. Not
    /// applied to docker-compose streams, whose lines interleave services.
    pub skip: Option<Skip>,
}

/// Whether a raw line (without its line break) is to be skipped.
pub type LinePredicate = dyn Fn(&[u8]) -> bool + Send + Sync;

/// A predicate over raw lines, see [`ReadOptions::skip`].
#[derive(Clone)]
pub struct Skip(pub Arc<LinePredicate>);

impl std::fmt::Debug for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Skip(..)")
    }
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
    /// Records [`ReadOptions::skip`] left unparsed (counted in `records`).
    pub skipped: u64,
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
    let mut head: Vec<String> = Vec::new();
    let mut error = None;
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                error = Some(e);
                break;
            }
        }
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        // Skipped lines are dropped before any other work, UTF-8 validation included.
        if splitter.detected.is_some() && splitter.try_skip(&buf) {
            splitter.summary.lines += 1;
            continue;
        }
        // Valid UTF-8 is the rule; the lossy path (slower) only for lines that are not.
        let line = match std::str::from_utf8(&buf) {
            Ok(valid) => std::borrow::Cow::Borrowed(valid),
            Err(_) => String::from_utf8_lossy(&buf),
        };
        if splitter.detected.is_none() {
            head.push(line.into_owned());
            if head.len() >= DETECTION_LINES {
                splitter.start(&head);
                for line in head.drain(..) {
                    splitter.push(&line);
                }
            }
        } else {
            splitter.push(&line);
        }
    }
    if splitter.detected.is_none() {
        splitter.start(&head);
        for line in head.drain(..) {
            splitter.push(&line);
        }
    }
    (splitter.finish(), error)
}

struct Splitter<'a> {
    options: &'a ReadOptions,
    emit: &'a mut dyn FnMut(Record),
    detected: Option<Option<Detected>>,
    /// The open record of each service (`None` key outside compose streams).
    pending: Vec<(Option<String>, Record)>,
    /// Finished records waiting for earlier pending ones, by line.
    finished: BTreeMap<u64, Record>,
    summary: StreamSummary,
    sample_logger: Option<String>,
    /// The last header was skipped: its continuation lines go with it.
    skipping: bool,
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
            skipping: false,
        }
    }

    fn start(&mut self, head: &[String]) {
        self.detected = Some(layout::detect(head, self.options.preferred.as_ref()));
    }

    fn push(&mut self, raw: &str) {
        self.summary.lines += 1;
        let line_no = self.summary.lines;
        if self.try_skip(raw.as_bytes()) {
            return;
        }
        let Some(Some(detected)) = &self.detected else {
            self.headerless(line_no, None, raw);
            return;
        };
        let prefix = split_prefix(raw, detected.compose);
        let service = prefix.service.map(str::to_string);
        let header = parse_header(prefix.rest, &detected.layout);
        if self.skipping {
            if header.is_none() {
                self.summary.continuation_lines += 1;
                return;
            }
            self.skipping = false;
        }
        match header {
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
                self.open(service, record);
            }
            None => match self.pending.iter_mut().find(|(s, _)| *s == service) {
                Some((_, record)) => {
                    record.continuation_lines += 1;
                    self.summary.continuation_lines += 1;
                    if record.continuation.len() < MAX_CONTINUATION_BYTES {
                        if !record.continuation.is_empty() {
                            record.continuation.push('\n');
                        }
                        record.continuation.push_str(prefix.rest);
                    }
                }
                None => self.headerless(line_no, service, prefix.rest),
            },
        }
    }

    /// Counts `raw` as a skipped record when [`ReadOptions::skip`] says so (once the layout is
    /// known, outside compose streams).
    fn try_skip(&mut self, raw: &[u8]) -> bool {
        let Some(Some(detected)) = &self.detected else {
            return false;
        };
        match &self.options.skip {
            Some(skip) if !detected.compose && (skip.0)(raw) => {}
            _ => return false,
        }
        // A new record starts: the open one is finished.
        if let Some((_, done)) = self.pending.pop() {
            self.finished.insert(done.line, done);
        }
        self.skipping = true;
        self.summary.records += 1;
        self.summary.skipped += 1;
        self.flush();
        true
    }

    fn headerless(&mut self, line: u64, service: Option<String>, text: &str) {
        self.summary.headerless += 1;
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

    fn open(&mut self, service: Option<String>, record: Record) {
        if let Some(i) = self.pending.iter().position(|(s, _)| *s == service) {
            let (_, done) = self.pending.swap_remove(i);
            self.finished.insert(done.line, done);
        }
        self.pending.push((service, record));
        self.flush();
    }

    /// Emits finished records that no pending record precedes.
    fn flush(&mut self) {
        let oldest_pending = self.pending.iter().map(|(_, r)| r.line).min();
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
        for (_, record) in std::mem::take(&mut self.pending) {
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
    fn skipped_records_are_counted_with_their_continuations_and_never_emitted() {
        let text = "\
2026-08-20 14:12:03,551 [main] INFO a.B: keep one
2026-08-20 14:12:03,552 [main] INFO a.B: SKIP me
java.io.IOException: boom
\tat org.X.y(X.java:1)
2026-08-20 14:12:03,553 [main] INFO a.B: keep two
";
        let options = ReadOptions {
            skip: Some(Skip(Arc::new(|line: &[u8]| {
                line.windows(4).any(|w| w == b"SKIP")
            }))),
            ..ReadOptions::default()
        };
        let (records, summary) = read_with(text, options);
        let kept: Vec<(u64, &str, u32)> = records
            .iter()
            .map(|r| (r.line, r.message.as_str(), r.continuation_lines))
            .collect();
        assert_eq!(kept, [(1, "keep one", 0), (5, "keep two", 0)]);
        assert_eq!((summary.records, summary.skipped, summary.lines), (3, 1, 5));
        assert_eq!(summary.continuation_lines, 2);
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
