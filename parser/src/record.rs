//! A line stream → records: one header line plus its continuation lines.
//!
//! A line that the file's layout cannot read as a header belongs to the record before it (log4j
//! prints stack traces, `Caused by:`, `... N more`, STARTUP_MSG banners, audit `%throwable{3}` and
//! messages with embedded newlines without a header). Lines may carry a wrapper ([`crate::frame`]:
//! compose, `kubectl logs --prefix`, journalctl, …) or arrive inside a JSON record
//! ([`crate::json`]); every source a wrapper names (a compose service, a pod, a host) has its own
//! open record, since their lines interleave. Blank lines never start a record. Records are
//! emitted in the order their headers arrived.

use crate::frame::{Framed, Framing, WrapperTime, compose_host, replica_of};
use crate::layout::{self, Detected, Layout, display_name, parse_header};
use crate::source::{Component, Level};
use crate::time::TimeZones;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{self, BufRead};
use std::sync::Arc;

/// Lines read before the layout is chosen, unless they hold more than `DETECTION_BYTES`.
pub(crate) const DETECTION_LINES: usize = 200;
const DETECTION_BYTES: usize = 1 << 20;
/// Continuation text kept per record; longer tails are counted but not stored.
const MAX_CONTINUATION_BYTES: usize = 64 * 1024;
/// Bytes kept of one line: memory follows this, not the input (a file without a newline, a
/// gigabyte line). The rest is counted and the record marked truncated.
pub const MAX_LINE_BYTES: usize = 256 * 1024;
/// Bytes kept of a line that starts a JSON value: a shipper's record or a search response on one
/// line is read whole up to the JSON reader's cap on a value; the log lines inside it are then
/// held to [`MAX_LINE_BYTES`].
const MAX_JSON_LINE_BYTES: usize = crate::json::MAX_VALUE_BYTES;
/// The last continuation line of a record whose continuation went past its cap.
const CONTINUATION_NOT_KEPT: &str = "[… continuation not kept]";

/// One log entry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record {
    /// 1-based line of the header in the decompressed stream (of the JSON record, for JSON input).
    pub line: u64,
    /// UTC epoch millis; `None` when neither the layout nor a wrapper gives a time.
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
    /// The host the line's wrapper names: a compose service (without the replica suffix of an
    /// unscaled service), a pod, a journald host, a shipper record's pod or host field.
    pub host: Option<Arc<str>>,
    /// The component the wrapper names: a container, compose service, unit, insight prefix.
    pub component: Option<Component>,
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

    /// Adds a continuation line; returns how many bytes of it were not kept (past the
    /// continuation cap, which the first such line marks with [`CONTINUATION_NOT_KEPT`]).
    pub(crate) fn continue_with(&mut self, text: &str) -> u64 {
        self.continuation_lines += 1;
        if self.continuation.len() < MAX_CONTINUATION_BYTES {
            if !self.continuation.is_empty() {
                self.continuation.push('\n');
            }
            self.continuation.push_str(text);
            return 0;
        }
        if !self.continuation.ends_with(CONTINUATION_NOT_KEPT) {
            self.continuation.push('\n');
            self.continuation.push_str(CONTINUATION_NOT_KEPT);
        }
        text.len() as u64 + 1
    }
}

/// How to read one stream.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// A layout from `--layout` or the bundle's log4j.properties; detection still runs and
    /// falls back to the built-ins when it reads fewer lines.
    pub preferred: Option<Arc<Layout>>,
    pub zones: TimeZones,
    /// The host the file name or folder gave (wrappers override it per record).
    pub host: Option<String>,
    /// Lines the caller knows to be headers of records it does not need (`scan`'s prefilter):
    /// counted as records, with their continuation lines, and never parsed or emitted. Applied
    /// to plain text streams only (not JSON, not wrappers that interleave sources), after the
    /// first lines that detect the layout.
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
    /// The shape read: a layout (`file`, `console`, `audit`, …), after the wrapper or shipper
    /// format that carried it (`compose+console`, `kubectl-prefix+old-docker`,
    /// `fluent-bit-jsonl+file`), or a JSON layout alone (`ecs-json`); `None` when nothing in
    /// the stream could be read as a record.
    pub layout: Option<String>,
    pub lines: u64,
    pub records: u64,
    pub headerless: u64,
    pub continuation_lines: u64,
    /// Blank lines (after their wrapper) outside every record: they start none.
    pub blank_lines: u64,
    pub first_ts: Option<i64>,
    pub last_ts: Option<i64>,
    /// Headers read by a different built-in layout than the file's (mixed streams).
    pub other_layout_headers: u64,
    /// Records [`ReadOptions::skip`] left unparsed (counted in `records`).
    pub skipped: u64,
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

/// Reads records from `reader` and hands each to `emit`. The first lines decide the shape: JSON
/// records of a shipper or a JSON layout ([`crate::json`]), or text lines with their wrapper and
/// layout ([`layout::detect`]). On a read error (a truncated gzip member, say) the records before
/// it are emitted and the error is returned alongside the summary of what was read.
pub fn read_records(
    reader: &mut dyn BufRead,
    options: &ReadOptions,
    emit: &mut dyn FnMut(Record),
) -> (StreamSummary, Option<io::Error>) {
    read_records_in_place(reader, options, &mut |record| emit(std::mem::take(record)))
}

/// [`read_records`], lending each record to `emit` instead of giving it: what `emit` leaves in
/// it is reused for a later record, so that a reader that only looks at its records (or copies
/// their text elsewhere) allocates nothing per record.
pub fn read_records_in_place(
    reader: &mut dyn BufRead,
    options: &ReadOptions,
    emit: &mut dyn FnMut(&mut Record),
) -> (StreamSummary, Option<io::Error>) {
    let mut lines = Lines::new(reader);
    // Each line with the bytes of it that were not kept.
    let mut head: Vec<(String, u64)> = Vec::new();
    let mut head_bytes = 0;
    while head.len() < DETECTION_LINES && head_bytes < DETECTION_BYTES {
        match lines.next_line() {
            Some((line, not_kept)) => {
                let line = line.into_owned();
                head_bytes += line.len();
                head.push((line, not_kept));
            }
            None => break,
        }
    }
    let mut splitter = Splitter::new(options, emit);
    let head_lines: Vec<&str> = head.iter().map(|(line, _)| line.as_str()).collect();
    if crate::json::sniff(&head_lines) {
        crate::json::read(head, &mut lines, &mut splitter);
    } else {
        // Text lines that looked like JSON values were read further than a text line is kept.
        for (line, not_kept) in &mut head {
            let mut cut = String::new();
            let more = keep_at_most(&mut cut, line, MAX_LINE_BYTES);
            if more > 0 {
                *line = cut;
                *not_kept += more;
            }
        }
        let head_lines: Vec<&str> = head.iter().map(|(line, _)| line.as_str()).collect();
        splitter.start(&head_lines, None);
        for (line, not_kept) in &head {
            if !splitter.try_skip(line.as_bytes(), *not_kept) {
                splitter.push_text(line, *not_kept);
            }
        }
        while let Some((raw, not_kept)) = lines.next_bytes() {
            let kept = raw.len().min(MAX_LINE_BYTES);
            let (raw, not_kept) = (&raw[..kept], not_kept + (raw.len() - kept) as u64);
            // Skipped lines are dropped before any other work, UTF-8 validation included.
            if !splitter.try_skip(raw, not_kept) {
                splitter.push_text(&text_of(raw), not_kept);
            }
        }
    }
    (splitter.finish(), lines.error)
}

/// Whether a line's first bytes start a JSON value: `{`, after a JSON-seq record separator or
/// the `[` and `,` of a JSON array.
fn starts_json_value(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|b| !matches!(b, b'\x1e' | b'[' | b',') && !b.is_ascii_whitespace())
        == Some(&b'{')
}

/// ` [… N bytes not kept]`: the end of a line cut at [`MAX_LINE_BYTES`].
pub(crate) fn not_kept_mark(bytes: u64) -> String {
    format!(" [… {bytes} bytes not kept]")
}

/// Appends as much of `text` to `kept` as keeps it within `cap` bytes (cut at a character
/// boundary); returns how many bytes were not kept.
fn keep_at_most(kept: &mut String, text: &str, cap: usize) -> u64 {
    let mut room = cap.saturating_sub(kept.len()).min(text.len());
    while !text.is_char_boundary(room) {
        room -= 1;
    }
    kept.push_str(&text[..room]);
    (text.len() - room) as u64
}

/// Physical lines of a stream, without their terminators, in one reused buffer that keeps at
/// most [`MAX_LINE_BYTES`] of a line, or [`MAX_JSON_LINE_BYTES`] of one that starts a JSON value.
pub(crate) struct Lines<'r> {
    reader: &'r mut dyn BufRead,
    buf: Vec<u8>,
    pub(crate) error: Option<io::Error>,
}

impl<'r> Lines<'r> {
    fn new(reader: &'r mut dyn BufRead) -> Lines<'r> {
        Lines {
            reader,
            buf: Vec::with_capacity(512),
            error: None,
        }
    }

    /// The next line and how many bytes of it were not kept; `None` at the end or after a read
    /// error (kept in `error`).
    pub(crate) fn next_line(&mut self) -> Option<(Cow<'_, str>, u64)> {
        self.next_bytes()
            .map(|(bytes, not_kept)| (text_of(bytes), not_kept))
    }

    /// The next line's bytes and how many bytes of it were not kept; `None` at the end or after
    /// a read error (kept in `error`).
    fn next_bytes(&mut self) -> Option<(&[u8], u64)> {
        if self.error.is_some() {
            return None;
        }
        self.buf.clear();
        let mut not_kept = 0u64;
        let mut cap = MAX_LINE_BYTES;
        let mut read_any = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.error = Some(e);
                    return None;
                }
            };
            if available.is_empty() {
                if !read_any {
                    return None;
                }
                break;
            }
            read_any = true;
            let (used, done) = match memchr::memchr(b'\n', available) {
                Some(at) => (at + 1, true),
                None => (available.len(), false),
            };
            if self.buf.len() + used > cap
                && cap == MAX_LINE_BYTES
                && starts_json_value(if self.buf.is_empty() {
                    available
                } else {
                    &self.buf
                })
            {
                cap = MAX_JSON_LINE_BYTES;
            }
            let keep = used.min(cap.saturating_sub(self.buf.len()));
            self.buf.extend_from_slice(&available[..keep]);
            not_kept += (used - keep) as u64;
            self.reader.consume(used);
            if done {
                break;
            }
        }
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        Some((&self.buf, not_kept))
    }
}

/// A line as text: valid UTF-8 is the rule; the lossy path (slower) only for lines that are not.
/// Every line read is validated: with SIMD, several times faster than `std::str::from_utf8` on
/// lines of a few hundred bytes.
fn text_of(bytes: &[u8]) -> Cow<'_, str> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(valid) => Cow::Borrowed(valid),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// A header and, when another built-in layout than the file's read it, that layout.
type ParsedHeader<'l> = (crate::pattern::Header<'l>, Option<&'static Arc<Layout>>);

/// Who wrote a line, as a JSON record's fields say (owned: the record is gone once its line is
/// pushed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Outer {
    pub key: Arc<str>,
    pub host: Option<Arc<str>>,
    pub component: Option<Component>,
    /// The collector's time for the line, UTC epoch millis.
    pub time: Option<i64>,
}

/// Sets `slot` to `value`, in the string it holds if it holds one.
fn refill(slot: &mut Option<String>, value: Option<&str>) {
    match value {
        Some(value) => {
            let kept = slot.get_or_insert_default();
            kept.clear();
            kept.push_str(value);
        }
        None => *slot = None,
    }
}

/// A record still open for its continuation lines.
struct Open {
    /// The source whose lines continue it (`None` outside wrappers that name one).
    key: Option<Arc<str>>,
    arrival: u64,
    /// Boxed, as the records of the splitter all are: a record moves from its header to the
    /// open records, out of them and back to be reused, a pointer each time.
    record: Box<Record>,
    /// Bytes of it were not kept (counted once in `truncated_records`).
    truncated: bool,
}

pub(crate) struct Splitter<'a> {
    options: &'a ReadOptions,
    emit: &'a mut dyn FnMut(&mut Record),
    /// The last record emitted, its buffers reused for the next one a header opens.
    spare: Option<Box<Record>>,
    detected: Option<Detected>,
    /// Compose services that show more than one replica in the first lines.
    scaled: HashSet<String>,
    /// The JSON format the lines came in, for the summary's name.
    wrapper: Option<&'static str>,
    /// The open record of each source.
    pending: Vec<Open>,
    /// CRI `P` pieces waiting for the rest of their line, per stream: the first piece's line,
    /// the text kept (at most [`MAX_LINE_BYTES`]) and the bytes not kept.
    partial: HashMap<String, (u64, String, u64)>,
    /// Finished records waiting for earlier pending ones, by arrival number.
    finished: BTreeMap<u64, Box<Record>>,
    arrivals: u64,
    summary: StreamSummary,
    sample_logger: Option<String>,
    /// The last header was skipped: its continuation lines go with it. `Some(true)` once bytes
    /// of it were not kept.
    skipping: Option<bool>,
    /// The time of the first skipped record, and the last skipped line: a skipped record is not
    /// parsed, but the stream's time range still covers the skipped ones (appended logs are in
    /// time order), so that it is the same with and without [`ReadOptions::skip`].
    first_skipped_ts: Option<Option<i64>>,
    last_skipped: Vec<u8>,
}

impl<'a> Splitter<'a> {
    pub(crate) fn new(options: &'a ReadOptions, emit: &'a mut dyn FnMut(&mut Record)) -> Self {
        Splitter {
            options,
            emit,
            spare: None,
            detected: None,
            scaled: HashSet::new(),
            wrapper: None,
            pending: Vec::new(),
            partial: HashMap::new(),
            finished: BTreeMap::new(),
            arrivals: 0,
            summary: StreamSummary::default(),
            sample_logger: None,
            skipping: None,
            first_skipped_ts: None,
            last_skipped: Vec::new(),
        }
    }

    /// Picks the wrapper and layout from the first lines (for JSON, the lines inside the
    /// records) and which compose services are scaled.
    pub(crate) fn start<S: AsRef<str>>(&mut self, head: &[S], wrapper: Option<&'static str>) {
        self.wrapper = wrapper;
        self.detected = layout::detect(head, self.options.preferred.as_ref());
        if self.detected.as_ref().map(|d| d.framing) == Some(Framing::Compose) {
            let mut replicas: HashMap<&str, u32> = HashMap::new();
            for line in head {
                if let Some(framed) = Framing::Compose.split(line.as_ref())
                    && let Some(source) = framed.source
                    && let Some((stem, n)) = replica_of(source.key)
                {
                    let highest = replicas.entry(stem).or_default();
                    *highest = (*highest).max(n);
                }
            }
            self.scaled = replicas
                .into_iter()
                .filter(|(_, highest)| *highest > 1)
                .map(|(stem, _)| stem.to_string())
                .collect();
        }
    }

    /// Counts physical lines the JSON reader consumed beyond the ones it pushed.
    pub(crate) fn count_lines(&mut self, lines: u64) {
        self.summary.lines = self.summary.lines.max(lines);
    }

    /// Counts the bytes of a physical line the JSON reader read but could not keep.
    pub(crate) fn count_not_kept(&mut self, not_kept: u64) {
        if not_kept > 0 {
            self.summary.bytes_not_kept += not_kept;
            self.summary.truncated_records += 1;
        }
    }

    /// One physical text line, of which `not_kept` bytes past [`MAX_LINE_BYTES`] were not kept
    /// (the line's text then ends with a mark saying so).
    pub(crate) fn push_text(&mut self, raw: &str, not_kept: u64) {
        self.summary.lines += 1;
        let line_no = self.summary.lines;
        if not_kept == 0 {
            return self.push_line(line_no, raw, None, false);
        }
        self.summary.bytes_not_kept += not_kept;
        let marked = format!("{raw}{}", not_kept_mark(not_kept));
        self.push_line(line_no, &marked, None, true);
    }

    /// The line (or lines, when a collector joined them with `\n`) a JSON record carries, each
    /// kept up to [`MAX_LINE_BYTES`].
    pub(crate) fn push_wrapped(&mut self, line_no: u64, text: &str, outer: &Outer) {
        let mut parts = text.split('\n');
        if let Some(first) = parts.next() {
            let (first, cut) = self.capped(first.trim_end_matches('\r'));
            self.push_line(line_no, &first, Some(outer), cut);
        }
        for more in parts {
            let more = more.trim_end_matches('\r');
            if !more.is_empty() {
                let (more, cut) = self.capped(more);
                self.attach_or_orphan(line_no, Some(&outer.key), &more, Some(outer), cut);
            }
        }
    }

    /// A JSON value that holds no record oztrace knows: a headerless record of its text, kept
    /// up to [`MAX_LINE_BYTES`].
    pub(crate) fn push_other(&mut self, line_no: u64, text: &str) {
        let (text, cut) = self.capped(text);
        self.orphan(line_no, &text, None, cut);
    }

    /// `text` up to [`MAX_LINE_BYTES`], with the mark and count of what was not kept, and
    /// whether it was cut.
    fn capped<'t>(&mut self, text: &'t str) -> (Cow<'t, str>, bool) {
        if text.len() <= MAX_LINE_BYTES {
            return (Cow::Borrowed(text), false);
        }
        let mut kept = String::with_capacity(MAX_LINE_BYTES + 32);
        let not_kept = keep_at_most(&mut kept, text, MAX_LINE_BYTES);
        kept.push_str(&not_kept_mark(not_kept));
        self.summary.bytes_not_kept += not_kept;
        (Cow::Owned(kept), true)
    }

    /// A record a JSON layout wrote whole; `not_kept` bytes of its continuation were past the cap.
    pub(crate) fn push_record(&mut self, record: Record, key: Option<Arc<str>>, not_kept: u64) {
        if not_kept > 0 {
            self.summary.bytes_not_kept += not_kept;
            self.summary.truncated_records += 1;
        }
        self.arrivals += 1;
        self.finish_pending(&key);
        self.finished.insert(self.arrivals, Box::new(record));
        self.flush();
    }

    /// A line (`cut`: its end was not kept) after its JSON wrapper, if any.
    fn push_line(&mut self, line_no: u64, raw: &str, outer: Option<&Outer>, cut: bool) {
        let Some((framed, header)) = self.frame(raw) else {
            if raw.trim().is_empty() {
                self.summary.blank_lines += 1;
            } else {
                self.orphan(line_no, raw, outer, cut);
            }
            return;
        };
        let key = match (outer, framed.source) {
            (Some(outer), Some(inner)) => {
                Some(Arc::from(format!("{}\u{1f}{}", outer.key, inner.key)))
            }
            (Some(outer), None) => Some(Arc::clone(&outer.key)),
            (None, inner) => inner.map(|s| Arc::from(s.key)),
        };
        if framed.partial {
            let piece = self
                .partial
                .entry(key.as_deref().unwrap_or_default().to_string())
                .or_insert((line_no, String::new(), 0));
            let not_kept = keep_at_most(&mut piece.1, framed.rest, MAX_LINE_BYTES);
            piece.2 += not_kept;
            self.summary.bytes_not_kept += not_kept;
            return;
        }
        if !self.partial.is_empty()
            && let Some((first_line, mut joined, mut not_kept)) =
                self.partial.remove(key.as_deref().unwrap_or(""))
        {
            // The last piece of a CRI line: read the whole line.
            let last_not_kept = keep_at_most(&mut joined, framed.rest, MAX_LINE_BYTES);
            self.summary.bytes_not_kept += last_not_kept;
            not_kept += last_not_kept;
            if not_kept > 0 {
                joined.push_str(&not_kept_mark(not_kept));
            }
            let whole = Framed {
                rest: &joined,
                ..framed
            };
            let header = self.reparse(whole.rest);
            return self.accept(first_line, whole, header, key, outer, cut || not_kept > 0);
        }
        self.accept(line_no, framed, header, key, outer, cut);
    }

    fn reparse<'l>(&self, text: &'l str) -> Option<ParsedHeader<'l>> {
        let detected = self.detected.as_ref()?;
        parse_header(text, &detected.layout)
    }

    fn accept(
        &mut self,
        line_no: u64,
        framed: Framed<'_>,
        header: Option<ParsedHeader<'_>>,
        key: Option<Arc<str>>,
        outer: Option<&Outer>,
        cut: bool,
    ) {
        if let Some(truncated) = self.skipping {
            if header.is_none() && key.is_none() {
                self.summary.continuation_lines += 1;
                if cut && !truncated {
                    self.summary.truncated_records += 1;
                    self.skipping = Some(true);
                }
                return;
            }
            self.skipping = None;
        }
        let Some((header, other)) = header else {
            if framed.rest.trim().is_empty() {
                // Blank lines never start a record; inside one they are part of its text.
                match self.pending.iter().position(|open| open.key == key) {
                    Some(i) => self.continue_open(i, "", false),
                    None => self.summary.blank_lines += 1,
                }
                return;
            }
            return self.attach_or_orphan(line_no, key.as_deref(), framed.rest, outer, cut);
        };
        if other.is_some() {
            self.summary.other_layout_headers += 1;
        }
        if self.sample_logger.is_none() && other.is_none() {
            self.sample_logger = header.logger.map(str::to_string);
        }
        let source = framed.source;
        let host = match source.and_then(|s| s.host) {
            Some(h) if framed.framing == Framing::Compose => {
                Some(Arc::from(compose_host(h, |stem| {
                    self.scaled.contains(stem)
                })))
            }
            Some(h) => Some(Arc::from(h)),
            None => outer.and_then(|o| o.host.clone()),
        };
        let zone = self
            .options
            .zones
            .for_host(host.as_deref().or(self.options.host.as_deref()));
        let ts = header
            .time
            .and_then(|t| zone.to_epoch_millis(&t))
            .or_else(|| match framed.time {
                Some(WrapperTime::Utc(t)) => Some(t),
                Some(WrapperTime::Local(t)) => zone.to_epoch_millis(&t),
                None => None,
            })
            .or(outer.and_then(|o| o.time));
        let mut record = self.spare.take().unwrap_or_default();
        // Every field set: a field added to records is set here too.
        let Record {
            line: record_line,
            ts: record_ts,
            level,
            thread,
            logger,
            message,
            throwable,
            continuation,
            continuation_lines,
            host: record_host,
            component,
            headerless,
        } = &mut *record;
        *record_line = line_no;
        *record_ts = ts;
        *level = header.level;
        refill(thread, header.thread);
        refill(logger, header.logger);
        message.clear();
        message.push_str(header.message);
        refill(throwable, header.throwable);
        continuation.clear();
        *continuation_lines = 0;
        *component = source
            .and_then(|s| s.component)
            .or(outer.and_then(|o| o.component));
        *record_host = host;
        *headerless = false;
        self.open(key, record, cut);
    }

    /// Splits the wrapper off a line and reads its header; `None` before any layout was found.
    /// A line that the stream's wrapper does not make a header may be one of another wrapper (a
    /// plain line and a compose line pasted together); a line that is no header goes with the
    /// open record of the source its wrapper names.
    fn frame<'l>(&self, raw: &'l str) -> Option<(Framed<'l>, Option<ParsedHeader<'l>>)> {
        let detected = self.detected.as_ref()?;
        let own = detected.framing.split(raw);
        if let Some(framed) = own
            && let Some(header) = parse_header(framed.rest, &detected.layout)
        {
            return Some((framed, Some(header)));
        }
        // Every wrapper starts with a letter, a digit or `[`: a stack frame (`\tat …`,
        // `    at …`) is no other wrapper's line.
        if raw.starts_with(char::is_whitespace) {
            return Some((own.unwrap_or(Framed::new(raw)), None));
        }
        let mut others = Framing::ALL
            .into_iter()
            .filter(|f| *f != detected.framing)
            .filter_map(|f| f.split(raw));
        let mut continuing = None;
        for framed in others.by_ref() {
            if let Some(header) = parse_header(framed.rest, &detected.layout) {
                return Some((framed, Some(header)));
            }
            let open = framed.source.is_some_and(|s| {
                self.pending
                    .iter()
                    .any(|open| open.key.as_deref() == Some(s.key))
            });
            if open && continuing.is_none() {
                continuing = Some(framed);
            }
        }
        Some((continuing.or(own).unwrap_or(Framed::new(raw)), None))
    }

    /// A line that starts no record: the continuation of its source's open record, or a
    /// headerless record of its own.
    fn attach_or_orphan(
        &mut self,
        line_no: u64,
        key: Option<&str>,
        text: &str,
        outer: Option<&Outer>,
        cut: bool,
    ) {
        match self
            .pending
            .iter()
            .position(|open| open.key.as_deref() == key)
        {
            Some(i) => self.continue_open(i, text, cut),
            None => self.orphan(line_no, text, outer, cut),
        }
    }

    /// Adds a continuation line (`cut`: its end was not kept) to the open record `i`.
    fn continue_open(&mut self, i: usize, text: &str, cut: bool) {
        let open = &mut self.pending[i];
        let not_kept = open.record.continue_with(text);
        self.summary.continuation_lines += 1;
        self.summary.bytes_not_kept += not_kept;
        if (cut || not_kept > 0) && !open.truncated {
            open.truncated = true;
            self.summary.truncated_records += 1;
        }
    }

    /// A line that starts no record and continues none (`cut`: its end was not kept).
    pub(crate) fn orphan(&mut self, line: u64, text: &str, outer: Option<&Outer>, cut: bool) {
        self.summary.headerless += 1;
        if cut {
            self.summary.truncated_records += 1;
        }
        self.arrivals += 1;
        let record = Record {
            line,
            ts: outer.and_then(|o| o.time),
            message: text.to_string(),
            host: outer.and_then(|o| o.host.clone()),
            component: outer.and_then(|o| o.component),
            headerless: true,
            ..Record::default()
        };
        self.finished.insert(self.arrivals, Box::new(record));
        self.flush();
    }

    /// Counts `raw` (a line of which `not_kept` bytes were not kept) as a skipped record when
    /// [`ReadOptions::skip`] says so.
    fn try_skip(&mut self, raw: &[u8], not_kept: u64) -> bool {
        let plain = self
            .detected
            .as_ref()
            .is_some_and(|d| d.framing == Framing::Plain && self.wrapper.is_none());
        match &self.options.skip {
            Some(skip) if plain && (skip.0)(raw) => {}
            _ => return false,
        }
        self.summary.lines += 1;
        if self.first_skipped_ts.is_none() {
            self.first_skipped_ts = Some(self.time_of(raw));
        }
        self.last_skipped.clear();
        self.last_skipped.extend_from_slice(raw);
        // A new record starts: the open one is finished.
        self.finish_pending(&None);
        self.skipping = Some(not_kept > 0);
        if not_kept > 0 {
            self.summary.bytes_not_kept += not_kept;
            self.summary.truncated_records += 1;
        }
        self.summary.records += 1;
        self.summary.skipped += 1;
        self.flush();
        true
    }

    /// The time of a plain line's header, read as [`Splitter::accept`] reads it.
    fn time_of(&self, raw: &[u8]) -> Option<i64> {
        let (header, _) = self.reparse(std::str::from_utf8(raw).ok()?)?;
        let zone = self.options.zones.for_host(self.options.host.as_deref());
        zone.to_epoch_millis(&header.time?)
    }

    fn note_time(&mut self, ts: i64) {
        self.summary.first_ts = Some(self.summary.first_ts.map_or(ts, |f| f.min(ts)));
        self.summary.last_ts = Some(self.summary.last_ts.map_or(ts, |l| l.max(ts)));
    }

    /// Opens the record a header starts (`truncated`: its line's end was not kept).
    fn open(&mut self, key: Option<Arc<str>>, record: Box<Record>, truncated: bool) {
        self.arrivals += 1;
        self.finish_pending(&key);
        if truncated {
            self.summary.truncated_records += 1;
        }
        self.pending.push(Open {
            key,
            arrival: self.arrivals,
            record,
            truncated,
        });
        self.flush();
    }

    fn finish_pending(&mut self, key: &Option<Arc<str>>) {
        if let Some(i) = self.pending.iter().position(|open| open.key == *key) {
            let done = self.pending.swap_remove(i);
            // Nothing before it waits (a stream of one source, the usual case): it goes out now,
            // as the next flush would send it first, without passing through the map.
            if self.finished.is_empty()
                && self.pending.iter().all(|open| open.arrival > done.arrival)
            {
                self.count(&done.record);
                self.emit(done.record);
            } else {
                self.finished.insert(done.arrival, done.record);
            }
        }
    }

    /// Emits finished records that no pending record precedes.
    fn flush(&mut self) {
        let oldest_pending = self.pending.iter().map(|open| open.arrival).min();
        while let Some(entry) = self.finished.first_entry() {
            if oldest_pending.is_some_and(|p| *entry.key() > p) {
                break;
            }
            let record = entry.remove();
            self.count(&record);
            self.emit(record);
        }
    }

    /// Lends `record` to the caller, then keeps it for its buffers.
    fn emit(&mut self, mut record: Box<Record>) {
        (self.emit)(&mut record);
        self.spare = Some(record);
    }

    fn count(&mut self, record: &Record) {
        if record.headerless {
            return;
        }
        self.summary.records += 1;
        if let Some(ts) = record.ts {
            self.note_time(ts);
        }
    }

    pub(crate) fn finish(mut self) -> StreamSummary {
        for (key, (line, mut rest, not_kept)) in std::mem::take(&mut self.partial) {
            // A CRI line whose last piece never came.
            let key = (!key.is_empty()).then_some(key);
            if not_kept > 0 {
                rest.push_str(&not_kept_mark(not_kept));
            }
            self.attach_or_orphan(line, key.as_deref(), &rest, None, not_kept > 0);
        }
        for open in std::mem::take(&mut self.pending) {
            self.finished.insert(open.arrival, open.record);
        }
        self.flush();
        let last_skipped = std::mem::take(&mut self.last_skipped);
        for ts in [self.first_skipped_ts.flatten(), self.time_of(&last_skipped)]
            .into_iter()
            .flatten()
        {
            self.note_time(ts);
        }
        let layout = self.detected.as_ref().map(|detected| {
            let name = display_name(&detected.layout, self.sample_logger.as_deref());
            match detected.framing.name() {
                Some(framing) => format!("{framing}+{name}"),
                None => name,
            }
        });
        self.summary.layout = match (self.wrapper, layout) {
            (Some(wrapper), Some(layout)) => Some(format!("{wrapper}+{layout}")),
            (Some(wrapper), None) if self.summary.records > 0 => Some(wrapper.to_string()),
            (None, layout) => layout,
            (Some(_), None) => None,
        };
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
        // Compose v1 `<service>_<n>`: the host is the service (issue 18 item 1).
        assert_eq!(records[0].host.as_deref(), Some("scm1"));
        assert_eq!(records[0].component, Some(Component::Scm));
        assert_eq!(records[0].continuation_lines, 2);
        assert_eq!(records[1].host.as_deref(), Some("om1"));
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
    fn scaled_compose_services_keep_their_replicas_apart() {
        // `docker compose --scale datanode=3` (v2 names `<service>-<n>`): each replica is a host;
        // the unscaled `scm` keeps the service name the datanodes print (`scm:9861`).
        let text = "\
scm-1       | 2026-08-20 14:12:03,551 [main] INFO node.SCMNodeManager: a
datanode-1  | 2026-08-20 14:12:03,552 [main] INFO statemachine.DatanodeStateMachine: b
datanode-2  | 2026-08-20 14:12:03,553 [main] INFO statemachine.DatanodeStateMachine: c
datanode-3  | 2026-08-20 14:12:03,554 [main] INFO statemachine.DatanodeStateMachine: d
";
        let (records, _) = read(text);
        let hosts: Vec<_> = records.iter().map(|r| r.host.as_deref().unwrap()).collect();
        assert_eq!(hosts, ["scm", "datanode-1", "datanode-2", "datanode-3"]);
    }

    #[test]
    fn blank_compose_lines_start_no_record() {
        // issue 18 item 5: compose prints `service  | ` for an empty line.
        let text = "\
om1_1       | 
om1_1       | 2026-08-20 14:12:03,552 [main] INFO om.OzoneManager: started
om1_1       | 

scm1_1      | 
om1_1       | 2026-08-20 14:12:03,553 [main] INFO om.OzoneManager: again
";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 2);
        assert_eq!(summary.headerless, 0);
        assert!(records.iter().all(|r| !r.headerless));
        assert_eq!(summary.lines, 6);
        // om1_1's blank line inside its record is part of it; the others start nothing.
        assert_eq!(summary.continuation_lines, 1);
        assert_eq!(summary.blank_lines, 3);
    }

    #[test]
    fn a_plain_line_and_a_compose_line_pasted_together() {
        // issue 18 item 4: the second, complete record is no continuation of the first.
        let text = "\
2026-08-20 14:12:03,551 [scm1-DatanodeAdminManager-0] INFO org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl: There are 1 nodes tracked for decommission and maintenance.  0 pending nodes.
scm2_1  | 2026-08-20 14:12:03,600 [scm2-DatanodeAdminManager-0] INFO org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl: There are 1 nodes tracked for decommission and maintenance.  0 pending nodes.
scm2_1  | \tat org.X.y(X.java:1)
\tat org.X.z(X.java:2)
";
        let (records, _) = read(text);
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].host, None);
        assert_eq!(records[1].host.as_deref(), Some("scm2"));
        assert_eq!(records[1].continuation, "\tat org.X.y(X.java:1)");
        assert_eq!(records[0].continuation, "\tat org.X.z(X.java:2)");
    }

    #[test]
    fn lines_without_a_time_are_untimed_records() {
        // issue 18 item 6: the test layout with its date cut off, then a complete line.
        let text = "\
INFO  node.SCMNodeManager (SCMNodeManager.java:register(412)) - Registered datanode: 3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c(dn1/10.0.0.1)
2026-08-20 14:12:04,000 [main] INFO node.SCMNodeManager (SCMNodeManager.java:register(412)) - Registered datanode: x
";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].ts, None);
        assert_eq!(records[0].logger.as_deref(), Some("node.SCMNodeManager"));
        assert!(records[0].message.starts_with("Registered datanode: 3f2b"));
        assert!(records[1].ts.is_some());
        assert_eq!(summary.headerless, 0);
    }

    #[test]
    fn docker_desktop_copies_use_the_log4j_time() {
        // issue 18 item 3: the viewer's local time (no millis) before the log4j time, here in
        // another zone; the viewer's time only where the line has none.
        let text = "\
2026-08-20 16:12:03 2026-08-20 14:12:03,551 [main] INFO om.OzoneManager: started
2026-08-20 16:12:03 java.io.IOException: boom
2026-08-20 16:12:04 [main] INFO om.OzoneManager: no time of its own
";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 2);
        let times: Vec<_> = records
            .iter()
            .map(|r| r.ts.map(crate::time::format_rfc3339))
            .collect();
        assert_eq!(times[0].as_deref(), Some("2026-08-20T14:12:03.551Z"));
        assert_eq!(times[1].as_deref(), Some("2026-08-20T16:12:04.000Z"));
        assert_eq!(records[0].continuation, "java.io.IOException: boom");
        assert_eq!(summary.layout.as_deref(), Some("local-stamp+console"));
    }

    #[test]
    fn kubectl_prefix_names_pod_and_container() {
        // shippers.md 8.1: `kubectl logs --all-pods --prefix --timestamps`, interleaved.
        let text = "\
[pod/datanode-0/datanode] 2027-06-12T10:38:25.118734012Z 2027-06-12 10:38:25 WARN  EndpointStateMachine:242 - Unable to communicate to SCM server at scm-0.scm.default.svc.cluster.local:9861 past 60 seconds.
[pod/datanode-1/datanode] 2027-06-12T10:38:25.120000000Z 2027-06-12 10:38:25 INFO  XceiverServerRatis:544 - x
[pod/datanode-0/datanode] 2027-06-12T10:38:25.118790000Z java.net.ConnectException: Call From datanode-0.datanode.default.svc.cluster.local/10.244.2.7 to scm-0.scm.default.svc.cluster.local:9861 failed
[pod/datanode-0/datanode] 2027-06-12T10:38:25.118801331Z \tat org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:863)
";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].host.as_deref(), Some("datanode-0"));
        assert_eq!(records[0].component, Some(Component::Datanode));
        assert_eq!(records[0].continuation_lines, 2);
        assert_eq!(records[1].host.as_deref(), Some("datanode-1"));
        assert_eq!(summary.layout.as_deref(), Some("kubectl-prefix+old-docker"));
        // Without --timestamps.
        let (records, _) = read(
            "[pod/scm-1/scm] 2027-06-12 10:38:22,336 [scm1-ReplicationMonitor] INFO replication.ReplicationManager: x\n",
        );
        assert_eq!(records[0].host.as_deref(), Some("scm-1"));
    }

    #[test]
    fn journalctl_short_iso_names_the_host() {
        // shippers.md 7.3: tabs of stack frames became eight spaces.
        let text = "\
2027-06-12T10:38:22+00:00 scm1.example.com ozone[48211]: 2027-06-12 10:38:22,336 [scm1-ReplicationMonitor] ERROR replication.ReplicationManager: failed
2027-06-12T10:38:22+00:00 scm1.example.com ozone[48211]: java.io.IOException: x
2027-06-12T10:38:22+00:00 scm1.example.com ozone[48211]:         at org.apache.hadoop.hdds.scm.ha.invoker.ScmInvoker.invokeReplicateDirect(ScmInvoker.java:78)
";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].host.as_deref(), Some("scm1.example.com"));
        assert_eq!(records[0].continuation_lines, 2);
        assert_eq!(summary.layout.as_deref(), Some("journald-short+console"));
    }

    #[test]
    fn ozone_insight_logs() {
        // issue 18 item 8: `ozone insight logs scm.node-manager` (LogSubcommand, LogStreamServlet).
        let text = "\
[SCM] 2026-08-20 14:02:10,331 [INFO|org.apache.hadoop.hdds.scm.node.SCMNodeManager|SCMNodeManager] Registered datanode: 3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c(dn1/10.0.0.1)
[DATANODE-3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c] 2026-08-20 14:02:11,002 [DEBUG|org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask|HeartbeatEndpointTask] Sending heartbeat message :: x
";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].component, Some(Component::Scm));
        assert_eq!(
            records[0].logger.as_deref(),
            Some("org.apache.hadoop.hdds.scm.node.SCMNodeManager")
        );
        assert_eq!(records[0].level, Some(Level::Info));
        assert!(records[0].message.starts_with("Registered datanode"));
        assert_eq!(
            records[1].host.as_deref(),
            Some("3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c")
        );
        assert_eq!(summary.layout.as_deref(), Some("ozone-insight+insight"));
    }

    #[test]
    fn cri_pieces_join_into_one_line() {
        // shippers.md 1.2: containerd splits a long line into `P` pieces and a last `F` piece.
        let text = "\
2027-06-12T10:39:01.402118007Z stdout P 2027-06-12 10:39:01,402 [main] INFO om.OzoneManager: first piece
2027-06-12T10:39:01.402120000Z stderr F 2027-06-12 10:39:01,402 [main] WARN om.OzoneManager: other stream
2027-06-12T10:39:01.402131270Z stdout F , rest of that line
";
        let (records, summary) = read(text);
        assert_eq!(records.len(), 2);
        let joined = records.iter().find(|r| r.line == 1).unwrap();
        assert_eq!(joined.message, "first piece, rest of that line");
        assert_eq!(joined.level, Some(Level::Info));
        assert_eq!(summary.layout.as_deref(), Some("cri+console"));
    }

    #[test]
    fn records_lent_in_place_are_the_records_given() {
        // Each stream has records that lack what the records two before them have (the buffers
        // of the one emitted as the one before it opens): a throwable, a stack trace, a
        // wrapper's host, a thread. A reused buffer must carry none of it over.
        let audit = "\
2026-08-20 14:02:10,331 | ERROR | OMAudit | user=u | ip=10.0.0.1 | op=COMMIT_KEY {\"volume\":\"v\"} | ret=FAILURE | KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: not found
2026-08-20 14:02:10,332 | INFO  | OMAudit | user=u | ip=10.0.0.1 | op=COMMIT_KEY {\"volume\":\"v\"} | ret=SUCCESS |  
2026-08-20 14:02:10,333 | INFO  | OMAudit | user=u | ip=10.0.0.1 | op=COMMIT_KEY {\"volume\":\"v\"} | ret=SUCCESS
2026-08-20 14:02:10,334 | INFO  | OMAudit | user=u | ip=10.0.0.1 | op=COMMIT_KEY {\"volume\":\"v\"} | ret=SUCCESS
";
        let traced = "\
2026-08-20 14:02:10,331 [main] ERROR a.b.C: failed
java.io.IOException: boom
\tat a.b.C.run(C.java:1)
2026-08-20 14:02:10,332 [main] ERROR a.b.C: failed again
java.io.IOException: boom
2026-08-20 14:02:10,333 [main] INFO a.b.C: fine
2026-08-20 14:02:10,334 [main] INFO a.b.C: fine again
";
        let compose = "\
scm-1  | 2026-08-20 14:02:10,331 [main] INFO a.b.C: one
scm-1  | 2026-08-20 14:02:10,332 [main] INFO a.b.C: two
datanode-1  | 2026-08-20 14:02:10,333 [main] INFO a.b.C: three
datanode-1  | 2026-08-20 14:02:10,334 [main] INFO a.b.C: four
";
        // Lines of the audit layout among the file layout's: a throwable, then none.
        let threadless = "\
2026-08-20 14:02:10,331 [main] INFO a.b.C: with a thread
2026-08-20 14:02:10,332 [main] INFO a.b.C: with a thread
2026-08-20 14:02:10,333 INFO a.b.C: without
2026-08-20 14:02:10,334 INFO a.b.C: without
2026-08-20 14:02:10,335 | ERROR | OMAudit | user=u | ip=10.0.0.1 | op=COMMIT_KEY {} | ret=FAILURE | KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: not found
2026-08-20 14:02:10,336 | ERROR | OMAudit | user=u | ip=10.0.0.1 | op=COMMIT_KEY {} | ret=FAILURE | KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: not found
2026-08-20 14:02:10,337 [main] INFO a.b.C: with no throwable
2026-08-20 14:02:10,338 [main] INFO a.b.C: with no throwable
";
        let mut texts: Vec<String> = [audit, traced, compose, threadless]
            .map(str::to_string)
            .into();
        let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples");
        let mut dirs = vec![std::path::PathBuf::from(samples)];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "log") {
                    texts.push(std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        for text in &texts {
            let (given, _) = read(text);
            let mut lent = Vec::new();
            let (_, error) =
                read_records_in_place(&mut text.as_bytes(), &ReadOptions::default(), &mut |r| {
                    lent.push(r.clone())
                });
            assert!(error.is_none());
            assert_eq!(lent, given, "{}", &text[..text.len().min(300)]);
        }
        assert!(texts.len() > 50, "the samples were read: {}", texts.len());
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
    fn skipped_records_are_counted_with_their_continuations_and_never_emitted() {
        let text = "\
2026-08-20 14:12:03,551 [main] INFO a.b.C: keep one
2026-08-20 14:12:03,552 [main] INFO a.b.C: SKIP me
java.io.IOException: boom
\tat org.X.y(X.java:1)
2026-08-20 14:12:03,553 [main] INFO a.b.C: keep two
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
    fn skipped_lines_are_held_to_the_line_cap_and_counted() {
        let mut text = b"2026-08-20 14:12:03,551 [main] INFO a.b.C: keep one\n".to_vec();
        text.extend_from_slice(b"2026-08-20 14:12:03,552 [main] INFO a.b.C: SKIP ");
        text.extend(std::iter::repeat_n(b'x', 3 * MAX_LINE_BYTES));
        text.extend_from_slice(b"\n\tat a long frame ");
        text.extend(std::iter::repeat_n(b'y', 2 * MAX_LINE_BYTES));
        text.extend_from_slice(b"\n2026-08-20 14:12:03,553 [main] INFO a.b.C: keep two\n");
        let longest = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let seen = Arc::clone(&longest);
        let options = ReadOptions {
            skip: Some(Skip(Arc::new(move |line: &[u8]| {
                seen.fetch_max(line.len(), std::sync::atomic::Ordering::Relaxed);
                line.windows(4).any(|w| w == b"SKIP")
            }))),
            ..ReadOptions::default()
        };
        let mut records = Vec::new();
        let (summary, error) =
            read_records(&mut text.as_slice(), &options, &mut |r| records.push(r));
        assert!(error.is_none());
        let kept: Vec<&str> = records.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(kept, ["keep one", "keep two"]);
        assert_eq!((summary.skipped, summary.continuation_lines), (1, 1));
        assert!(longest.load(std::sync::atomic::Ordering::Relaxed) <= MAX_LINE_BYTES);
        assert_eq!(summary.truncated_records, 1);
        assert!(summary.bytes_not_kept >= (5 * MAX_LINE_BYTES - 2 * MAX_LINE_BYTES) as u64);
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
