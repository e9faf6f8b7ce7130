//! JSON input: log shippers' records that carry a log4j line, and log4j JSON layouts that carry
//! the record itself (../shared/ozone-logs/shippers.md; the sniffing table is its section 10).
//!
//! | format | recognised by (first record) | the line | host, component |
//! |---|---|---|---|
//! | `fluent-bit-jsonl`, `fluentd-jsonl` | `kubernetes.pod_name` with `log` or `message` (Fluentd adds `docker.container_id`) | `log`, else `message` | `kubernetes.pod_name`; `container_name`, label `component` |
//! | `vector-jsonl` | `source_type` | `message` | `kubernetes.pod_name` (else the `file` path); `container_name`, `pod_owner` |
//! | `elastic-jsonl` | `_source` (elasticdump), or `@timestamp` + `message` (Beats, Logstash) | `message` | `kubernetes.pod.name`, else `log.file.path`, else `host.name`/`host`; `kubernetes.container.name` |
//! | `elastic-search` | one search response `{"took":…,"hits":{"hits":[…]}}` | each hit as above | as above |
//! | `loki-jsonl` | `line` + `timestamp` (logcli `--output=jsonl`) | `line` | label `pod`, else `host`/`instance`/`filename`; label `container` |
//! | `loki-query` | one `query_range` response, `data.resultType: "streams"` | each value | stream labels |
//! | `journald-json` | `__REALTIME_TIMESTAMP`, `__CURSOR`, or `MESSAGE` + `_HOSTNAME` (`-o json`, `json-seq`, `json-pretty`) | `MESSAGE` (a string or bytes) | `_HOSTNAME`; `_SYSTEMD_UNIT`, `SYSLOG_IDENTIFIER` |
//! | `stern-json` | `podName` + `message` | `message` | `podName`; `containerName` |
//! | `docker-json` | `log` + `stream` + `time` | `log` (pieces of a line over 16 KiB joined) | the file path |
//! | `ecs-json` | `log.level` or `ecs.version` with `log.logger` (JsonTemplateLayout `EcsLayout.json`, ecs-logging-java `EcsLayout`) | the record | `service.node.name` |
//! | `gelf-json` | `version: "1.1"` + `short_message` (`GelfLayout.json`) | the record | `host` |
//! | `log4j2-json` | `loggerName` + `instant` or `timeMillis` (`JsonLayout`, pretty-printed by default) | the record | - |
//! | `logstash-json` | `logger_name` + `thread_name` (`LogstashJsonEventLayoutV1.json`) | the record | `source_host` |
//!
//! A record is decoded by one pass of a serde visitor that keeps only the fields above, borrowing
//! strings without escapes from the line and skipping everything else unparsed. Dotted keys and
//! nested objects name the same field (`"kubernetes.pod_name"` = `{"kubernetes":{"pod_name":…}}`);
//! `_source` is transparent. A value may span lines (pretty-printed layouts, `json-pretty`, search
//! responses); a record's line is the line its JSON value starts on. Collectors' exports come out
//! of order (Loki newest first, elasticdump unordered): records are put back in collector-time
//! order within a bounded window before their lines are joined into records.

use crate::record::{DETECTION_LINES, Lines, Outer, Record, Splitter, not_kept_mark};
use crate::source::{Level, component_from_service, hint_from_path};
use crate::time::parse_rfc3339_nanos;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// The sources seen in a stream, by the fields that name them.
#[derive(Default)]
struct SourceCache {
    known: std::collections::HashMap<String, Outer>,
    scratch: String,
}

/// Records put back in time order at once; an export longer than this is ordered per window.
const REORDER_WINDOW: usize = 32_768;
/// A single JSON value (a search response, a pretty-printed record) larger than this is not read.
pub(crate) const MAX_VALUE_BYTES: usize = 256 << 20;

/// A JSON input format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    FluentBit,
    Fluentd,
    Vector,
    Elastic,
    ElasticSearch,
    Loki,
    LokiQuery,
    Journald,
    Stern,
    Docker,
    Ecs,
    Gelf,
    Log4j2Json,
    LogstashLayout,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::FluentBit => "fluent-bit-jsonl",
            Format::Fluentd => "fluentd-jsonl",
            Format::Vector => "vector-jsonl",
            Format::Elastic => "elastic-jsonl",
            Format::ElasticSearch => "elastic-search",
            Format::Loki => "loki-jsonl",
            Format::LokiQuery => "loki-query",
            Format::Journald => "journald-json",
            Format::Stern => "stern-json",
            Format::Docker => "docker-json",
            Format::Ecs => "ecs-json",
            Format::Gelf => "gelf-json",
            Format::Log4j2Json => "log4j2-json",
            Format::LogstashLayout => "logstash-json",
        }
    }

    /// JSON layouts write the record itself: no log4j line to parse.
    fn is_layout(self) -> bool {
        matches!(
            self,
            Format::Ecs | Format::Gelf | Format::Log4j2Json | Format::LogstashLayout
        )
    }
}

/// Whether the first lines are JSON values (the format is decided on each record).
pub(crate) fn sniff(head: &[&str]) -> bool {
    let Some(first) = head.iter().find(|l| !l.trim().is_empty()) else {
        return false;
    };
    let text = strip_line_prefix(first).trim();
    // A complete value on the first line, or the start of a pretty-printed one (an object's
    // first key, or a JsonLayout `complete="true"` array); `[main] INFO …` is a thread.
    let opens = |t: &str| t == "{" || t.starts_with("{\"");
    serde_json::from_str::<IgnoredAny>(text).is_ok_and(|_| text.starts_with('{'))
        || opens(text)
        || (text.starts_with('[') && opens(text[1..].trim_start()))
        || (text == "["
            && head
                .iter()
                .skip_while(|l| l.trim() != "[")
                .nth(1)
                .is_some_and(|l| opens(l.trim())))
}

/// Whether the first bytes of a file named `.json` hold log records (a shipper's export, a JSON
/// layout) rather than some other JSON document: one of the fields that carry a line or a
/// record, or the keys of a search response, appears.
pub fn may_hold_records(head: &[u8]) -> bool {
    const KEYS: &[&[u8]] = &[
        b"\"log\"",
        b"\"message\"",
        b"\"MESSAGE\"",
        b"\"line\"",
        b"\"short_message\"",
        b"\"_source\"",
        b"\"hits\"",
        b"\"resultType\"",
        b"\"loggerName\"",
        b"\"logger_name\"",
        b"\"log.logger\"",
        b"\"__CURSOR\"",
        b"\"__REALTIME_TIMESTAMP\"",
        b"\"@timestamp\"",
    ];
    KEYS.iter()
        .any(|key| memchr::memmem::find(head, key).is_some())
}

/// Reads a JSON stream into `splitter`: `head` is what was read for detection (each line with
/// the bytes of it that were not kept), `lines` the rest.
pub(crate) fn read(head: Vec<(String, u64)>, lines: &mut Lines<'_>, splitter: &mut Splitter<'_>) {
    let mut reader = Reader {
        format: None,
        sources: SourceCache::default(),
        window: Vec::new(),
        started: false,
        docker_piece: None,
    };
    let mut framer = ValueFramer::default();
    let mut line_no = 0u64;
    let mut feed = |line_no: u64, line: &str, not_kept: u64, splitter: &mut Splitter<'_>| {
        let marked;
        let line = if not_kept > 0 {
            marked = format!("{line}{}", not_kept_mark(not_kept));
            &marked
        } else {
            line
        };
        if let Some((start, value)) = framer.push(line_no, line) {
            reader.decode(start, &value, splitter);
        }
        if not_kept > 0 {
            splitter.count_not_kept(not_kept);
            // The value cannot close on a line that was cut: it ends here, and the next line
            // starts afresh.
            if let Some((start, rest)) = framer.finish() {
                reader.decode(start, &rest, splitter);
            }
        }
    };
    for (line, not_kept) in &head {
        line_no += 1;
        feed(line_no, line, *not_kept, splitter);
    }
    drop(head);
    while let Some((line, not_kept)) = lines.next_line() {
        line_no += 1;
        feed(line_no, &line, not_kept, splitter);
    }
    if let Some((start, rest)) = framer.finish() {
        reader.decode(start, &rest, splitter);
    }
    reader.flush(splitter, true);
    splitter.count_lines(line_no);
}

/// Strips what collectors write before a record on a line: the RFC 7464 record separator of
/// `journalctl -o json-seq`, Fluent Bit `out_file` `<tag>: [<sec.nsec>, {…}]` and Fluentd
/// `out_file` `<time>\t<tag>\t{…}`.
fn strip_line_prefix(line: &str) -> &str {
    let line = line.trim_start_matches('\u{1e}');
    if !line.starts_with(['{', '[']) {
        // Fluentd: time, tag, record separated by tabs.
        if let Some(record) = line.splitn(3, '\t').nth(2)
            && record.starts_with('{')
        {
            return record;
        }
        // Fluent Bit: `tag: [1812796702.336912455, {…}]`.
        if let Some(at) = line.find(": [")
            && !line[..at].contains(' ')
            && let Some(inner) = line[at + 3..].strip_suffix(']')
            && let Some((stamp, record)) = inner.split_once(", ")
            && stamp.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        {
            return record;
        }
    }
    line
}

/// Cuts a line stream into JSON values: one per line as a rule; a value left open at the end of
/// a line goes on over the next lines. Between top-level values, `[`, `]` and `,` (a JsonLayout
/// `complete="true"` array) are skipped.
#[derive(Default)]
struct ValueFramer {
    buf: String,
    start: u64,
    depth: u32,
    in_string: bool,
    escaped: bool,
}

impl ValueFramer {
    /// Feeds one line; returns a value that ends on it, with the line it started on.
    fn push(&mut self, line_no: u64, line: &str) -> Option<(u64, String)> {
        let mut text = line;
        if self.depth == 0 {
            text = strip_line_prefix(text).trim_start_matches(|c: char| {
                c.is_whitespace() || c == '[' || c == ']' || c == ','
            });
            if text.is_empty() {
                return None;
            }
            self.start = line_no;
            self.buf.clear();
            if !text.starts_with('{') {
                // Not JSON: hand the line on as it is.
                return Some((line_no, text.to_string()));
            }
        } else {
            self.buf.push('\n');
        }
        let end = self.scan(text.as_bytes());
        match end {
            Some(end) => {
                self.buf.push_str(&text[..end]);
                self.in_string = false;
                self.escaped = false;
                Some((self.start, std::mem::take(&mut self.buf)))
            }
            None if self.buf.len() + text.len() > MAX_VALUE_BYTES => {
                // Give up on this value: what was gathered goes on as text.
                self.depth = 0;
                self.in_string = false;
                self.buf.push_str(text);
                Some((self.start, std::mem::take(&mut self.buf)))
            }
            None => {
                self.buf.push_str(text);
                None
            }
        }
    }

    /// Follows braces outside strings through `bytes` (jumping over string contents, where a
    /// log line spends most of its bytes); the offset just past the brace that closes the value.
    fn scan(&mut self, bytes: &[u8]) -> Option<usize> {
        let mut i = 0;
        while i < bytes.len() {
            if self.escaped {
                self.escaped = false;
                i += 1;
                continue;
            }
            if self.in_string {
                let at = i + memchr::memchr2(b'"', b'\\', &bytes[i..])?;
                if bytes[at] == b'\\' {
                    self.escaped = true;
                } else {
                    self.in_string = false;
                }
                i = at + 1;
                continue;
            }
            let at = i + memchr::memchr3(b'"', b'{', b'}', &bytes[i..])?;
            match bytes[at] {
                b'"' => self.in_string = true,
                b'{' => self.depth += 1,
                _ => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return Some(at + 1);
                    }
                }
            }
            i = at + 1;
        }
        None
    }

    /// A value still open: at the end of the stream, or after a line that was cut.
    fn finish(&mut self) -> Option<(u64, String)> {
        let open = self.depth > 0 && !self.buf.is_empty();
        self.depth = 0;
        self.in_string = false;
        self.escaped = false;
        open.then(|| (self.start, std::mem::take(&mut self.buf)))
    }
}

/// One decoded record, waiting in the reorder window.
struct Item {
    line: u64,
    /// The collector's time in nanoseconds, for ordering (collectors keep nanoseconds: two lines
    /// of one stack trace often share a millisecond).
    time: Option<i128>,
    kind: ItemKind,
}

enum ItemKind {
    /// A log4j line (or lines) and who wrote it.
    Line { text: String, outer: Outer },
    /// A record a JSON layout wrote whole, and the bytes of its continuation past the cap.
    Whole {
        record: Record,
        key: Arc<str>,
        not_kept: u64,
    },
    /// Not a record oztrace knows: kept as a headerless record.
    Other { text: String },
}

struct Reader {
    format: Option<Format>,
    sources: SourceCache,
    window: Vec<Item>,
    started: bool,
    /// A docker json-file `log` piece without its `\n` (a line over 16 KiB), waiting for the rest.
    docker_piece: Option<Item>,
}

impl Reader {
    fn decode(&mut self, line: u64, value: &str, splitter: &mut Splitter<'_>) {
        if !value.starts_with('{') {
            return self.add(
                Item {
                    line,
                    time: None,
                    kind: ItemKind::Other {
                        text: value.to_string(),
                    },
                },
                splitter,
            );
        }
        // Whole responses of a search API hold many records.
        if let Some(items) = decode_response(line, value, &mut self.sources) {
            self.format.get_or_insert(items.0);
            for item in items.1 {
                self.add(item, splitter);
            }
            return;
        }
        let item = match Fields::decode(value) {
            Some(fields) => {
                let format = fields.format();
                if let Some(format) = format {
                    self.format.get_or_insert(format);
                }
                fields.item(line, format.or(self.format), &mut self.sources)
            }
            None => None,
        };
        let item = item.unwrap_or_else(|| Item {
            line,
            time: None,
            kind: ItemKind::Other {
                text: value.to_string(),
            },
        });
        if self.format == Some(Format::Docker) {
            return self.add_docker_piece(item, splitter);
        }
        self.add(item, splitter);
    }

    /// docker json-file splits lines over 16 KiB; every piece but the last lacks the `\n`.
    fn add_docker_piece(&mut self, item: Item, splitter: &mut Splitter<'_>) {
        let ItemKind::Line { text, outer } = item.kind else {
            return self.add(item, splitter);
        };
        let complete = text.ends_with('\n');
        let item = match self.docker_piece.take() {
            Some(Item {
                line,
                time,
                kind:
                    ItemKind::Line {
                        text: mut joined,
                        outer: first,
                    },
            }) if first.key == outer.key => {
                joined.push_str(&text);
                Item {
                    line,
                    time,
                    kind: ItemKind::Line {
                        text: joined,
                        outer: first,
                    },
                }
            }
            earlier => {
                if let Some(earlier) = earlier {
                    self.add(earlier, splitter);
                }
                Item {
                    line: item.line,
                    time: item.time,
                    kind: ItemKind::Line { text, outer },
                }
            }
        };
        if complete {
            self.add(item, splitter);
        } else {
            self.docker_piece = Some(item);
        }
    }

    fn add(&mut self, item: Item, splitter: &mut Splitter<'_>) {
        self.window.push(item);
        if self.window.len() >= REORDER_WINDOW {
            self.flush(splitter, false);
        }
    }

    /// Puts the window back in collector-time order (when it is out of order), decides the
    /// layout of the lines inside on the first window, and hands everything on.
    fn flush(&mut self, splitter: &mut Splitter<'_>, end: bool) {
        if end && let Some(piece) = self.docker_piece.take() {
            self.window.push(piece);
        }
        let mut window = std::mem::take(&mut self.window);
        let ordered = window.windows(2).all(|w| match (w[0].time, w[1].time) {
            (Some(a), Some(b)) => a <= b,
            _ => true,
        });
        if !ordered {
            // Records without a time keep the time of the record before them.
            let mut last = i128::MIN;
            let mut keyed: Vec<(i128, Item)> = window
                .into_iter()
                .map(|item| {
                    last = item.time.unwrap_or(last);
                    (last, item)
                })
                .collect();
            keyed.sort_by_key(|(time, _)| *time);
            window = keyed.into_iter().map(|(_, item)| item).collect();
        }
        if !self.started {
            let inner: Vec<&str> = window
                .iter()
                .filter_map(|item| match &item.kind {
                    ItemKind::Line { text, .. } => text.split('\n').next(),
                    _ => None,
                })
                .take(DETECTION_LINES)
                .collect();
            splitter.start(&inner, self.format.map(Format::name));
            self.started = true;
        }
        for item in window {
            match item.kind {
                ItemKind::Line { text, outer } => {
                    let text = text.strip_suffix('\n').unwrap_or(&text);
                    splitter.push_wrapped(item.line, text, &outer);
                }
                ItemKind::Whole {
                    record,
                    key,
                    not_kept,
                } => splitter.push_record(record, Some(key), not_kept),
                ItemKind::Other { text } => splitter.push_other(item.line, &text),
            }
        }
    }
}

/// A whole search response: an Elasticsearch/OpenSearch `_search` page or a Loki `query_range`.
fn decode_response(
    line: u64,
    value: &str,
    sources: &mut SourceCache,
) -> Option<(Format, Vec<Item>)> {
    #[derive(serde::Deserialize)]
    struct Search<'a> {
        #[serde(borrow)]
        hits: Hits<'a>,
    }
    #[derive(serde::Deserialize)]
    struct Hits<'a> {
        #[serde(borrow)]
        hits: Vec<&'a RawValue>,
    }
    #[derive(serde::Deserialize)]
    struct Query<'a> {
        #[serde(borrow)]
        data: QueryData<'a>,
    }
    #[derive(serde::Deserialize)]
    struct QueryData<'a> {
        #[serde(rename = "resultType")]
        result_type: Cow<'a, str>,
        #[serde(borrow)]
        result: Vec<Stream<'a>>,
    }
    #[derive(serde::Deserialize)]
    struct Stream<'a> {
        #[serde(borrow)]
        stream: &'a RawValue,
        #[serde(borrow)]
        values: Vec<&'a RawValue>,
    }

    // Only worth trying on a value that spans lines or names the keys.
    if !(value.contains("\"hits\"") || value.contains("\"resultType\"")) {
        return None;
    }
    let line_of = |raw: &RawValue| {
        let offset = raw.get().as_ptr() as usize - value.as_ptr() as usize;
        line + value.as_bytes()[..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u64
    };
    if let Ok(search) = serde_json::from_str::<Search<'_>>(value) {
        let items = search
            .hits
            .hits
            .iter()
            .map(|hit| {
                Fields::decode(hit.get())
                    .and_then(|f| f.item(line_of(hit), Some(Format::Elastic), sources))
                    .unwrap_or_else(|| other(line_of(hit), hit.get()))
            })
            .collect();
        return Some((Format::ElasticSearch, items));
    }
    let query = serde_json::from_str::<Query<'_>>(value).ok()?;
    if query.data.result_type != "streams" {
        return None;
    }
    let mut items = Vec::new();
    for stream in &query.data.result {
        let labels = Fields::decode_labels(stream.stream.get());
        for value in &stream.values {
            let at = line_of(value);
            // `[<ns epoch>, <line>]`, and a third element with `categorize-labels`.
            let entry = serde_json::from_str::<Vec<&RawValue>>(value.get()).ok();
            let text = |i: usize| {
                let raw = entry.as_ref()?.get(i)?;
                serde_json::from_str::<Text<'_>>(raw.get())
                    .ok()
                    .map(|t| t.0)
            };
            match (text(0), text(1)) {
                (Some(nanos), Some(text)) => {
                    let mut fields = labels.clone();
                    fields.line = Some(text);
                    fields.time_nanos = nanos.parse::<i128>().ok();
                    items.extend(fields.item(at, Some(Format::Loki), sources));
                }
                _ => items.push(other(at, value.get())),
            }
        }
    }
    Some((Format::LokiQuery, items))
}

fn millis(nanos: i128) -> i64 {
    (nanos.div_euclid(1_000_000)) as i64
}

fn other(line: u64, text: &str) -> Item {
    Item {
        line,
        time: None,
        kind: ItemKind::Other {
            text: text.to_string(),
        },
    }
}

/// The fields oztrace reads from a record, by role.
#[derive(Debug, Clone, Default)]
struct Fields<'a> {
    // The log4j line or message.
    log: Option<Cow<'a, str>>,
    message: Option<Cow<'a, str>>,
    line: Option<Cow<'a, str>>,
    journal_message: Option<Cow<'a, str>>,
    short_message: Option<Cow<'a, str>>,
    full_message: Option<Cow<'a, str>>,
    // Times.
    time_text: Option<Cow<'a, str>>,
    timestamp_text: Option<Cow<'a, str>>,
    at_timestamp: Option<Cow<'a, str>>,
    /// A numeric time (journald µs, Loki ns, GELF s, JsonLayout ms), in nanoseconds.
    time_nanos: Option<i128>,
    instant_seconds: Option<i64>,
    instant_nanos: Option<i64>,
    // A JSON layout's record.
    level: Option<Cow<'a, str>>,
    level_code: Option<u64>,
    logger: Option<Cow<'a, str>>,
    thread: Option<Cow<'a, str>>,
    stack: Option<Cow<'a, str>>,
    thrown_name: Option<Cow<'a, str>>,
    thrown_message: Option<Cow<'a, str>>,
    // Who wrote it.
    pod: Option<Cow<'a, str>>,
    container: Option<Cow<'a, str>>,
    component_label: Option<Cow<'a, str>>,
    owner: Option<Cow<'a, str>>,
    host: Option<Cow<'a, str>>,
    node_host: Option<Cow<'a, str>>,
    unit: Option<Cow<'a, str>>,
    ident: Option<Cow<'a, str>>,
    pid: Option<Cow<'a, str>>,
    stream: Option<Cow<'a, str>>,
    file: Option<Cow<'a, str>>,
    // Markers.
    kubernetes: bool,
    fluentd: bool,
    source_type: bool,
    journal: bool,
    ecs: bool,
    gelf: bool,
    logstash_version: bool,
    elastic_doc: bool,
    loki_labels: bool,
}

/// Where a field's value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Log,
    Message,
    Line,
    JournalMessage,
    ShortMessage,
    FullMessage,
    Time,
    Timestamp,
    AtTimestamp,
    RealtimeMicros,
    TimeMillis,
    InstantSeconds,
    InstantNanos,
    Level,
    Logger,
    Thread,
    Stack,
    ThrownName,
    ThrownMessage,
    Pod,
    Container,
    ComponentLabel,
    Owner,
    Host,
    NodeHost,
    Unit,
    Ident,
    Pid,
    Stream,
    File,
    // Markers: the value is not kept.
    Kubernetes,
    Fluentd,
    SourceType,
    Journal,
    Ecs,
    GelfVersion,
    LogstashVersion,
    ElasticDoc,
}

/// The field a dotted path names (`_source.` already taken off).
fn slot(path: &str) -> Option<Slot> {
    Some(match path {
        "log" => Slot::Log,
        "message" => Slot::Message,
        "line" => Slot::Line,
        "MESSAGE" => Slot::JournalMessage,
        "short_message" => Slot::ShortMessage,
        "full_message" => Slot::FullMessage,
        "time" => Slot::Time,
        "timestamp" => Slot::Timestamp,
        "@timestamp" | "date" => Slot::AtTimestamp,
        "__REALTIME_TIMESTAMP" => Slot::RealtimeMicros,
        "timeMillis" => Slot::TimeMillis,
        "instant.epochSecond" => Slot::InstantSeconds,
        "instant.nanoOfSecond" => Slot::InstantNanos,
        "level" | "log.level" => Slot::Level,
        "loggerName" | "logger_name" | "log.logger" | "_logger" => Slot::Logger,
        "thread" | "thread_name" | "process.thread.name" | "_thread" => Slot::Thread,
        "error.stack_trace" | "exception.stacktrace" | "thrown.extendedStackTrace" => Slot::Stack,
        "thrown.name" | "error.type" => Slot::ThrownName,
        "thrown.message" | "error.message" => Slot::ThrownMessage,
        "kubernetes.pod_name" | "kubernetes.pod.name" | "podName" | "labels.pod" => Slot::Pod,
        "kubernetes.container_name"
        | "kubernetes.container.name"
        | "containerName"
        | "labels.container" => Slot::Container,
        "kubernetes.labels.component"
        | "kubernetes.pod_labels.component"
        | "labels.component"
        | "kubernetes.statefulset.name"
        | "service.name" => Slot::ComponentLabel,
        "kubernetes.pod_owner" => Slot::Owner,
        "_HOSTNAME" | "service.node.name" | "source_host" | "labels.host" | "labels.instance" => {
            Slot::Host
        }
        "host" | "host.name" | "hostname" => Slot::NodeHost,
        "_SYSTEMD_UNIT" => Slot::Unit,
        "SYSLOG_IDENTIFIER" => Slot::Ident,
        "_PID" => Slot::Pid,
        "stream" | "labels.stream" => Slot::Stream,
        "file" | "log.file.path" | "path" | "labels.filename" => Slot::File,
        "kubernetes" => Slot::Kubernetes,
        "docker.container_id" => Slot::Fluentd,
        "source_type" => Slot::SourceType,
        "__CURSOR" => Slot::Journal,
        "ecs.version" => Slot::Ecs,
        "version" => Slot::GelfVersion,
        "@version" => Slot::LogstashVersion,
        "_index" | "agent" | "input" | "data_stream" => Slot::ElasticDoc,
        _ => return None,
    })
}

/// Objects whose fields are read (their other fields are skipped unparsed).
fn descends(path: &str) -> bool {
    matches!(
        path,
        "kubernetes"
            | "kubernetes.pod"
            | "kubernetes.container"
            | "kubernetes.labels"
            | "kubernetes.pod_labels"
            | "kubernetes.statefulset"
            | "log"
            | "log.file"
            | "labels"
            | "instant"
            | "thrown"
            | "error"
            | "exception"
            | "process"
            | "process.thread"
            | "service"
            | "service.node"
            | "host"
            | "docker"
            | "ecs"
    )
}

impl<'a> Fields<'a> {
    fn decode(text: &'a str) -> Option<Fields<'a>> {
        let mut fields = Fields::default();
        let mut de = serde_json::Deserializer::from_str(text);
        ObjectSeed {
            path: &mut String::new(),
            fields: &mut fields,
        }
        .deserialize(&mut de)
        .ok()?;
        Some(fields)
    }

    /// A Loki stream's labels.
    fn decode_labels(text: &'a str) -> Fields<'a> {
        let mut fields = Fields::default();
        let mut de = serde_json::Deserializer::from_str(text);
        let _ = ObjectSeed {
            path: &mut "labels".to_string(),
            fields: &mut fields,
        }
        .deserialize(&mut de);
        fields.loki_labels = true;
        fields
    }

    fn set(&mut self, slot: Slot, value: Cow<'a, str>) {
        let target = match slot {
            Slot::Log => &mut self.log,
            Slot::Message => &mut self.message,
            Slot::Line => &mut self.line,
            Slot::JournalMessage => &mut self.journal_message,
            Slot::ShortMessage => &mut self.short_message,
            Slot::FullMessage => &mut self.full_message,
            Slot::Time => &mut self.time_text,
            Slot::Timestamp => &mut self.timestamp_text,
            Slot::AtTimestamp => &mut self.at_timestamp,
            Slot::RealtimeMicros => {
                self.journal = true;
                self.time_nanos = value.parse::<i128>().ok().map(|us| us * 1000);
                return;
            }
            Slot::TimeMillis | Slot::InstantSeconds | Slot::InstantNanos => {
                if let Ok(n) = value.parse::<f64>() {
                    self.set_number(slot, n);
                }
                return;
            }
            Slot::Level => &mut self.level,
            Slot::Logger => &mut self.logger,
            Slot::Thread => &mut self.thread,
            Slot::Stack => &mut self.stack,
            Slot::ThrownName => &mut self.thrown_name,
            Slot::ThrownMessage => &mut self.thrown_message,
            Slot::Pod => &mut self.pod,
            Slot::Container => &mut self.container,
            Slot::ComponentLabel => &mut self.component_label,
            Slot::Owner => &mut self.owner,
            Slot::Host => &mut self.host,
            Slot::NodeHost => &mut self.node_host,
            Slot::Unit => &mut self.unit,
            Slot::Ident => &mut self.ident,
            Slot::Pid => &mut self.pid,
            Slot::Stream => &mut self.stream,
            Slot::File => &mut self.file,
            Slot::GelfVersion => {
                self.gelf = value == "1.1";
                return;
            }
            Slot::LogstashVersion => {
                self.logstash_version = true;
                return;
            }
            marker => return self.mark(marker),
        };
        if target.is_none() {
            *target = Some(value);
        }
    }

    fn set_number(&mut self, slot: Slot, n: f64) {
        match slot {
            Slot::TimeMillis => self.time_nanos = Some(n as i128 * 1_000_000),
            Slot::InstantSeconds => self.instant_seconds = Some(n as i64),
            Slot::InstantNanos => self.instant_nanos = Some(n as i64),
            // GELF: epoch seconds with a fraction; a syslog severity code.
            Slot::Timestamp | Slot::AtTimestamp => {
                self.time_nanos
                    .get_or_insert((n * 1e6).round() as i128 * 1000);
            }
            Slot::Level => self.level_code = Some(n as u64),
            Slot::LogstashVersion => self.logstash_version = true,
            Slot::Pid => self.pid = Some(Cow::Owned(n.to_string())),
            marker => self.mark(marker),
        }
    }

    fn mark(&mut self, slot: Slot) {
        match slot {
            Slot::Kubernetes => self.kubernetes = true,
            Slot::Fluentd => self.fluentd = true,
            Slot::SourceType => self.source_type = true,
            Slot::Journal => self.journal = true,
            Slot::Ecs => self.ecs = true,
            Slot::ElasticDoc => self.elastic_doc = true,
            _ => {}
        }
    }

    /// The format this record's fields say (sniffing table, shippers.md section 10).
    fn format(&self) -> Option<Format> {
        let any_line = self.log.is_some() || self.message.is_some();
        Some(
            if self.journal || (self.journal_message.is_some() && self.host.is_some()) {
                Format::Journald
            } else if self.gelf && self.short_message.is_some() {
                Format::Gelf
            } else if self.logger.is_some()
                && (self.instant_seconds.is_some() || self.time_nanos.is_some())
            {
                Format::Log4j2Json
            } else if self.logger.is_some() && self.ecs && !self.kubernetes {
                Format::Ecs
            } else if self.logger.is_some() && self.thread.is_some() && self.logstash_version {
                Format::LogstashLayout
            } else if self.source_type && self.message.is_some() {
                Format::Vector
            } else if self.kubernetes && self.pod.is_some() && any_line && !self.elastic_doc {
                if self.fluentd {
                    Format::Fluentd
                } else {
                    Format::FluentBit
                }
            } else if self.line.is_some() && (self.timestamp_text.is_some() || self.loki_labels) {
                Format::Loki
            } else if !self.kubernetes
                && self.pod.is_some()
                && self.container.is_some()
                && self.message.is_some()
            {
                Format::Stern
            } else if self.message.is_some() && (self.at_timestamp.is_some() || self.elastic_doc) {
                Format::Elastic
            } else if self.log.is_some() && self.time_text.is_some() {
                Format::Docker
            } else {
                return None;
            },
        )
    }

    /// The collector's time of the record, in nanoseconds.
    fn wrapper_nanos(&self) -> Option<i128> {
        self.time_nanos.or_else(|| {
            [&self.at_timestamp, &self.timestamp_text, &self.time_text]
                .into_iter()
                .flatten()
                .find_map(|t| parse_rfc3339_nanos(t))
        })
    }

    /// Who wrote the record, as its fields say: computed once per source (records of one pod,
    /// file or unit share it).
    fn outer(&self, format: Format, sources: &mut SourceCache, nanos: Option<i128>) -> Outer {
        let scratch = &mut sources.scratch;
        scratch.clear();
        scratch.push_str(format.name());
        for part in [
            &self.pod,
            &self.host,
            &self.node_host,
            &self.container,
            &self.component_label,
            &self.owner,
            &self.unit,
            &self.ident,
            &self.pid,
            &self.stream,
            &self.file,
        ] {
            scratch.push('\u{1f}');
            scratch.push_str(part.as_deref().unwrap_or(""));
        }
        let time = nanos.map(millis);
        if let Some(known) = sources.known.get(scratch.as_str()) {
            return Outer {
                time,
                ..known.clone()
            };
        }
        let outer = Outer {
            time: None,
            ..self.source(format)
        };
        sources.known.insert(scratch.clone(), outer.clone());
        Outer { time, ..outer }
    }

    /// Who wrote the record, as its fields say. A pod names the host; node and agent hosts
    /// (`kubernetes.host`, Beats `host.name`, Vector `host`) only when nothing else does.
    fn source(&self, format: Format) -> Outer {
        let from_file = self.file.as_deref().map(hint_from_path).unwrap_or_default();
        let host = self
            .pod
            .as_deref()
            .or(self.host.as_deref())
            .map(str::to_string)
            .or(from_file.host)
            .or_else(|| {
                // Vector's and a Beat's own host are the collector's.
                (!self.kubernetes && !matches!(format, Format::Vector))
                    .then(|| self.node_host.as_deref().map(str::to_string))
                    .flatten()
            });
        let component = [
            &self.container,
            &self.component_label,
            &self.unit,
            &self.ident,
        ]
        .into_iter()
        .flatten()
        .find_map(|name| component_from_service(name))
        .or_else(|| {
            // Vector `pod_owner`: `StatefulSet/datanode`.
            let owner = self.owner.as_deref()?;
            component_from_service(owner.rsplit('/').next()?)
        })
        .or(from_file.component)
        .or_else(|| component_from_service(self.pod.as_deref()?));
        let key = [
            host.as_deref(),
            self.container.as_deref(),
            self.unit.as_deref(),
            self.pid.as_deref(),
            self.stream.as_deref(),
            self.file.as_deref(),
        ]
        .into_iter()
        .map(|part| part.unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\u{1f}");
        Outer {
            key: Arc::from(key),
            host: host.map(Arc::from),
            component,
            time: None,
        }
    }

    fn item(&self, line: u64, format: Option<Format>, sources: &mut SourceCache) -> Option<Item> {
        let format = format?;
        if format.is_layout() {
            return self.layout_record(line);
        }
        let text = match format {
            Format::Journald => self.journal_message.as_ref(),
            Format::Loki | Format::LokiQuery => self.line.as_ref(),
            _ => self.log.as_ref().or(self.message.as_ref()),
        }?;
        let nanos = self.wrapper_nanos();
        let outer = self.outer(format, sources, nanos);
        // Fluent Bit `Merge_Log` and friends: a JSON layout's record inside the line.
        if text.trim_start().starts_with('{')
            && let Some(inner) = Fields::decode(text.trim())
            && inner.format().is_some_and(Format::is_layout)
            && let Some(mut item) = inner.layout_record(line)
        {
            if let ItemKind::Whole { record, key, .. } = &mut item.kind {
                record.host = record.host.take().or(outer.host.clone());
                record.component = record.component.or(outer.component);
                *key = Arc::clone(&outer.key);
            }
            item.time = nanos.or(item.time);
            return Some(item);
        }
        Some(Item {
            line,
            time: nanos,
            kind: ItemKind::Line {
                text: text.to_string(),
                outer,
            },
        })
    }

    /// A JSON layout's record: its time is zoned (UTC for ECS, epoch for JsonLayout and GELF).
    fn layout_record(&self, line: u64) -> Option<Item> {
        let message = self
            .message
            .as_ref()
            .or(self.short_message.as_ref())?
            .to_string();
        let nanos = match (self.instant_seconds, self.instant_nanos) {
            (Some(s), nanos) => {
                Some(i128::from(s) * 1_000_000_000 + i128::from(nanos.unwrap_or(0)))
            }
            _ => self.wrapper_nanos(),
        };
        let ts = nanos.map(millis);
        let level = match (&self.level, self.level_code) {
            (Some(name), _) => Level::parse(name.trim()),
            // GELF carries the syslog severity (GelfLayout: ERROR 3, WARN 4, INFO 6, DEBUG 7).
            (None, Some(code)) => match code {
                0..=3 => Some(Level::Error),
                4 => Some(Level::Warn),
                5 | 6 => Some(Level::Info),
                _ => Some(Level::Debug),
            },
            (None, None) => None,
        };
        let mut record = Record {
            line,
            ts,
            level,
            thread: self.thread.as_deref().map(str::to_string),
            logger: self.logger.as_deref().map(str::to_string),
            host: self
                .host
                .as_deref()
                .or(self.node_host.as_deref())
                .map(Arc::from),
            component: self
                .component_label
                .as_deref()
                .and_then(component_from_service),
            ..Record::default()
        };
        // The message may itself span lines (Ratis truncate segments, pipeline reasons).
        let mut lines = message.split('\n');
        record.message = lines
            .next()
            .unwrap_or_default()
            .trim_end_matches('\r')
            .to_string();
        let mut not_kept = 0;
        for more in lines {
            not_kept += record.continue_with(more.trim_end_matches('\r'));
        }
        let stack = self.stack.as_ref().or(self.full_message.as_ref());
        match stack {
            Some(stack) => {
                for frame in stack.split('\n').filter(|l| !l.is_empty()) {
                    not_kept += record.continue_with(frame.trim_end_matches('\r'));
                }
            }
            None => {
                if let Some(name) = &self.thrown_name {
                    let first = match &self.thrown_message {
                        Some(m) => format!("{name}: {m}"),
                        None => name.to_string(),
                    };
                    not_kept += record.continue_with(&first);
                }
            }
        }
        let key = record.host.clone().unwrap_or_else(|| Arc::from(""));
        Some(Item {
            line,
            time: nanos,
            kind: ItemKind::Whole {
                record,
                key,
                not_kept,
            },
        })
    }
}

/// Deserializes an object, keeping the fields [`slot`] names and descending into the objects
/// [`descends`] names; `path` is the dotted path of the object.
struct ObjectSeed<'f, 'a> {
    /// The dotted path, in one buffer shared by the whole record (each level appends its key and
    /// takes it off again).
    path: &'f mut String,
    fields: &'f mut Fields<'a>,
}

impl<'de, 'f> DeserializeSeed<'de> for ObjectSeed<'f, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de, 'f> Visitor<'de> for ObjectSeed<'f, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        let base = self.path.len();
        while let Some(key) = map.next_key::<Text<'de>>()? {
            self.path.truncate(base);
            // `_source` (Elasticsearch) holds the document; its fields are the record's.
            if !(base == 0 && key.0 == "_source") {
                if base > 0 {
                    self.path.push('.');
                }
                self.path.push_str(&key.0);
            }
            let slot = slot(self.path);
            if self.path.is_empty() || descends(self.path) || slot.is_some() {
                map.next_value_seed(ValueSeed {
                    path: &mut *self.path,
                    slot,
                    fields: &mut *self.fields,
                })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        self.path.truncate(base);
        Ok(())
    }
}

/// A field's value: a string or number for its slot, an object to descend into, an array of
/// strings (ECS `stackTraceAsArray`) or bytes (journald's non-UTF-8 `MESSAGE`) joined.
struct ValueSeed<'f, 'a> {
    path: &'f mut String,
    slot: Option<Slot>,
    fields: &'f mut Fields<'a>,
}

impl<'de, 'f> DeserializeSeed<'de> for ValueSeed<'f, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de, 'f> Visitor<'de> for ValueSeed<'f, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<(), E> {
        if let Some(slot) = self.slot {
            self.fields.set(slot, Cow::Borrowed(v));
        }
        Ok(())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        if let Some(slot) = self.slot {
            self.fields.set(slot, Cow::Owned(v.to_string()));
        }
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.visit_f64(v as f64)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.visit_f64(v as f64)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        if let Some(slot) = self.slot {
            self.fields.set_number(slot, v);
        }
        Ok(())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<(), M::Error> {
        if let Some(slot) = self.slot
            && !descends(self.path)
        {
            // An object where a value was expected (`kubernetes` as a marker): note it, skip it.
            self.fields.mark(slot);
            return IgnoredAny.visit_map(map).map(|_| ());
        }
        if let Some(slot) = self.slot {
            self.fields.mark(slot);
        }
        ObjectSeed {
            path: self.path,
            fields: self.fields,
        }
        .visit_map(map)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<(), S::Error> {
        let mut text = String::new();
        let mut bytes = Vec::new();
        while let Some(item) = seq.next_element::<Element>()? {
            match item {
                Element::Text(t) => {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&t);
                }
                Element::Byte(b) => bytes.push(b),
                Element::Other => {}
            }
        }
        if !bytes.is_empty() {
            text = String::from_utf8_lossy(&bytes).into_owned();
        }
        if let Some(slot) = self.slot
            && !text.is_empty()
        {
            self.fields.set(slot, Cow::Owned(text));
        }
        Ok(())
    }
}

/// An element of an array field.
enum Element {
    Text(String),
    Byte(u8),
    Other,
}

impl<'de> serde::Deserialize<'de> for Element {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Element, D::Error> {
        struct ElementVisitor;
        impl<'de> Visitor<'de> for ElementVisitor {
            type Value = Element;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array element")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Element, E> {
                Ok(Element::Text(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Element, E> {
                Ok(u8::try_from(v).map_or(Element::Other, Element::Byte))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Element, E> {
                Ok(Element::Other)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Element, E> {
                Ok(Element::Other)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Element, E> {
                Ok(Element::Other)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Element, E> {
                Ok(Element::Other)
            }
            fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Element, M::Error> {
                IgnoredAny.visit_map(map).map(|_| Element::Other)
            }
            fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<Element, S::Error> {
                IgnoredAny.visit_seq(seq).map(|_| Element::Other)
            }
        }
        de.deserialize_any(ElementVisitor)
    }
}

/// A JSON string, borrowed from the input when it has no escapes.
struct Text<'de>(Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Text<'de>, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
        }
        de.deserialize_str(TextVisitor)
    }
}

#[cfg(test)]
mod tests;
