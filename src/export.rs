//! The recorded trace on disk: JSON Lines and CSV always; Parquet through polars, which only
//! this module uses (behind the default `parquet` feature, so a `--no-default-features` build
//! stays fast). All three stream: a row at a time, through the time sorter when it orders them.

use crate::Failure;
use crate::cli::EventsFormat;
use oztrace_analyzer::load::KeptRecord;
use oztrace_parser::event::Event;
use std::borrow::Cow;
use std::io::Write;

/// How `events` writes one event: a JSON line, a CSV row or a [`TableRow`] JSON line (for the
/// Parquet table), the last two naming the bundle (the `PATH` argument) it was read from. None
/// with its line end.
#[derive(Debug, Clone, Copy)]
pub enum RowFormat<'a> {
    Json,
    Csv { bundle: &'a str },
    Table { bundle: &'a str },
}

impl<'a> RowFormat<'a> {
    pub fn of(format: EventsFormat, bundle: &'a str) -> RowFormat<'a> {
        match format {
            EventsFormat::Jsonl => RowFormat::Json,
            EventsFormat::Csv => RowFormat::Csv { bundle },
            EventsFormat::Parquet => RowFormat::Table { bundle },
        }
    }

    pub fn write(self, event: &Event, out: &mut Vec<u8>) -> std::io::Result<()> {
        match self {
            RowFormat::Json => event.write_json(out).map_err(std::io::Error::from),
            RowFormat::Csv { bundle } => {
                csv_row(bundle, event, out);
                Ok(())
            }
            RowFormat::Table { bundle } => serde_json::to_writer(out, &TableRow::of(bundle, event))
                .map_err(std::io::Error::from),
        }
    }

    /// [`RowFormat::write`] of a record the OM audit merge kept: a JSON line is written from the
    /// record's text where it can be ([`KeptRecord::write_json`]), without building its event.
    pub fn write_kept(self, record: KeptRecord<'_>, out: &mut Vec<u8>) -> std::io::Result<()> {
        match self {
            RowFormat::Json => record.write_json(out),
            format => format.write(&record.event(), out),
        }
    }
}

/// Events out, one per line: each serialized into one reused buffer, then written in one call.
pub struct EventLines<W: Write> {
    out: W,
    line: Vec<u8>,
}

impl<W: Write> EventLines<W> {
    pub fn new(out: W) -> EventLines<W> {
        EventLines {
            out,
            line: Vec::new(),
        }
    }

    pub fn write(&mut self, format: RowFormat<'_>, event: &Event) -> Result<(), Failure> {
        self.line.clear();
        format
            .write(event, &mut self.line)
            .and_then(|()| {
                self.line.push(b'\n');
                self.out.write_all(&self.line)
            })
            .map_err(|e| crate::output::write_failure("events", e))
    }

    /// Lines already written (each with its line end).
    pub fn write_lines(&mut self, lines: &[u8]) -> Result<(), Failure> {
        self.out
            .write_all(lines)
            .map_err(|e| crate::output::write_failure("events", e))
    }

    /// The writer, for what comes after the events (the time sorter's output).
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// The CSV columns (docs/cli-contract.md), the same as the Parquet table's.
pub const CSV_HEADER: &str = "ts,host,component,level,thread,logger,kind,entities,fields,file,line,ts_ms,text,continuation_lines,bundle";

/// One event as a CSV row (no line end) into `row`: `ts` as RFC 3339 text, `entities` joined with
/// `;`, `fields` as a JSON string, an absent value as an empty field. Quoted as polars' CSV writer
/// quotes (what `events --format csv` wrote before rows were streamed): a field is quoted when it
/// holds a comma, a quote or a line end, or is an empty string (which would read as absent).
pub fn csv_row(bundle: &str, event: &Event, row: &mut Vec<u8>) {
    use std::io::Write as _;
    let text = |row: &mut Vec<u8>, value: Option<&str>| {
        if let Some(value) = value {
            csv_text(row, value);
        }
        row.push(b',');
    };
    let ts = event.ts.map(oztrace_parser::time::format_rfc3339);
    text(row, ts.as_deref());
    text(row, Some(&event.host));
    text(row, Some(event.component.as_str()));
    text(row, event.level.map(|l| l.as_str()));
    text(row, event.thread.as_deref());
    text(row, event.logger.as_deref());
    text(row, Some(event.kind()));
    let entities: Vec<String> = event.entities.iter().map(ToString::to_string).collect();
    text(row, Some(&entities.join(";")));
    text(row, serde_json::to_string(&event.data).ok().as_deref());
    text(row, Some(&event.file));
    // Writing into a Vec cannot fail.
    let _ = write!(row, "{},", event.line);
    if let Some(ts) = event.ts {
        let _ = write!(row, "{ts}");
    }
    row.push(b',');
    text(row, Some(&event.text));
    let _ = write!(row, "{},", event.continuation_lines);
    csv_text(row, bundle);
}

/// A text field of a CSV row, quoted when it must be ([`csv_row`]).
fn csv_text(row: &mut Vec<u8>, value: &str) {
    if value.is_empty() {
        row.extend_from_slice(b"\"\"");
    } else if value.contains([',', '"', '\n', '\r']) {
        row.push(b'"');
        row.extend_from_slice(value.replace('"', "\"\"").as_bytes());
        row.push(b'"');
    } else {
        row.extend_from_slice(value.as_bytes());
    }
}

/// Whether this build writes Parquet: checked before anything is read.
pub fn parquet_available() -> Result<(), Failure> {
    if cfg!(feature = "parquet") {
        return Ok(());
    }
    Err(Failure::Usage(
        "this oztrace was built without the `parquet` feature, which Parquet output needs; \
         use --format jsonl or csv, or rebuild with default features"
            .into(),
    ))
}

/// One row of the events table as `events --format parquet` carries it from the reading to the
/// writing: a JSON line ([`RowFormat::Table`]), so that it goes through the same streaming path
/// and time sorter as JSON Lines and CSV rows, in bounded memory ([`TableWriter`]).
#[derive(serde::Serialize, serde::Deserialize)]
pub struct TableRow<'a> {
    ts: Option<i64>,
    #[serde(borrow)]
    host: Cow<'a, str>,
    #[serde(borrow)]
    component: Cow<'a, str>,
    #[serde(borrow)]
    level: Option<Cow<'a, str>>,
    #[serde(borrow)]
    thread: Option<Cow<'a, str>>,
    #[serde(borrow)]
    logger: Option<Cow<'a, str>>,
    #[serde(borrow)]
    kind: Cow<'a, str>,
    entities: Vec<String>,
    /// The event's fields as (name, value) pairs: strings as they are, other values as JSON.
    fields: Vec<(String, String)>,
    #[serde(borrow)]
    file: Cow<'a, str>,
    line: u64,
    #[serde(borrow)]
    text: Cow<'a, str>,
    continuation_lines: u32,
    #[serde(borrow)]
    bundle: Cow<'a, str>,
}

impl<'a> TableRow<'a> {
    pub fn of(bundle: &'a str, event: &'a Event) -> TableRow<'a> {
        let fields = match serde_json::to_value(&event.data) {
            Ok(serde_json::Value::Object(map)) => map
                .into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| match v {
                    serde_json::Value::String(s) => (k, s),
                    other => (k, other.to_string()),
                })
                .collect(),
            _ => Vec::new(),
        };
        TableRow {
            ts: event.ts,
            host: Cow::Borrowed(&event.host),
            component: Cow::Borrowed(event.component.as_str()),
            level: event.level.map(|l| Cow::Borrowed(l.as_str())),
            thread: event.thread.as_deref().map(Cow::Borrowed),
            logger: event.logger.as_deref().map(Cow::Borrowed),
            kind: Cow::Borrowed(event.kind()),
            entities: event.entities.iter().map(ToString::to_string).collect(),
            fields,
            file: Cow::Borrowed(&event.file),
            line: event.line,
            text: Cow::Borrowed(&event.text),
            continuation_lines: event.continuation_lines,
            bundle: Cow::Borrowed(bundle),
        }
    }
}

/// Rows of the events table, in this many per Parquet row group: the lines of one group are what
/// `events --format parquet` holds (about 1 KB each).
#[cfg(feature = "parquet")]
const TABLE_BATCH_ROWS: usize = 32 * 1024;

/// The events table written as its rows come ([`TableRow`] JSON lines, through `Write`): each
/// [`TABLE_BATCH_ROWS`] rows become one row group of the Parquet file.
#[cfg(feature = "parquet")]
pub struct TableWriter<W: Write> {
    writer: polars::io::parquet::write::BatchedWriter<W>,
    /// Whether the table has the `bundle` column (a dataset's events table is partitioned by it).
    bundle: bool,
    /// Whole lines, then the start of the next one.
    pending: Vec<u8>,
    lines: usize,
}

#[cfg(feature = "parquet")]
impl<W: Write> TableWriter<W> {
    /// A table with the columns of [`table_frame`] (those of a table with no rows: a table whose
    /// input has none still has its columns), less `bundle` unless `bundle`.
    pub fn new(out: W, bundle: bool) -> Result<TableWriter<W>, Failure> {
        let empty = without_bundle(table_frame(&[])?, bundle)?;
        let writer = polars::prelude::ParquetWriter::new(out)
            .batched(empty.schema())
            .map_err(|e| Failure::Internal(format!("the Parquet table's columns: {e}")))?;
        Ok(TableWriter {
            writer,
            bundle,
            pending: Vec::new(),
            lines: 0,
        })
    }

    /// Writes the whole lines held as one row group (none when there are none).
    fn write_group(&mut self) -> std::io::Result<()> {
        let fail = |what: &str, e: &dyn std::fmt::Display| {
            std::io::Error::other(format!("the Parquet table: {what}: {e}"))
        };
        let whole = self
            .pending
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        if whole == 0 {
            return Ok(());
        }
        let rows = self.pending[..whole]
            .split(|&b| b == b'\n')
            .filter(|line| !line.is_empty())
            .map(serde_json::from_slice::<TableRow>)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| fail("a row", &e))?;
        let frame = table_frame(&rows)
            .and_then(|frame| without_bundle(frame, self.bundle))
            .map_err(|e| fail("a row group", &format!("{e:?}")))?;
        drop(rows);
        self.pending.drain(..whole);
        self.lines = 0;
        self.writer
            .write_batch(&frame)
            .map_err(|e| fail("a row group", &e))
    }

    /// Writes what is left and the file's footer.
    pub fn finish(mut self) -> Result<(), Failure> {
        let written = self.write_group().and_then(|()| {
            (self.writer.finish())
                .map(|_| ())
                .map_err(std::io::Error::other)
        });
        written.map_err(|e| crate::output::write_failure("events", e))
    }
}

#[cfg(feature = "parquet")]
impl<W: Write> Write for TableWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        self.lines += bytes.iter().filter(|&&b| b == b'\n').count();
        if self.lines >= TABLE_BATCH_ROWS {
            self.write_group()?;
        }
        Ok(bytes.len())
    }

    /// Row groups are written as they fill: a flush has nothing of its own to write.
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `frame` less its `bundle` column, unless `keep`.
#[cfg(feature = "parquet")]
fn without_bundle(
    frame: polars::prelude::DataFrame,
    keep: bool,
) -> Result<polars::prelude::DataFrame, Failure> {
    if keep {
        return Ok(frame);
    }
    (frame.drop("bundle")).map_err(|e| Failure::Internal(format!("the events table: {e}")))
}

/// Rows as one table. Columns (docs/cli-contract.md, the same as [`CSV_HEADER`]'s): `ts` a
/// timestamp (ms, UTC), `host`, `component`, `level`, `thread`, `logger`, `kind` (the categorical
/// ones: `kind`, `host`, `component`, `level` and `bundle`), `entities` a list of strings, `fields`
/// a map (a list of `{key, value}` structs, values as text), `file`, `line`, `ts_ms`, `text`,
/// `continuation_lines` and `bundle`.
#[cfg(feature = "parquet")]
fn table_frame(rows: &[TableRow<'_>]) -> Result<polars::prelude::DataFrame, Failure> {
    use polars::prelude::*;
    let build = |e: PolarsError| Failure::Internal(format!("building the events table: {e}"));
    fn strings<'r>(
        rows: &'r [TableRow<'_>],
        value: impl Fn(&'r TableRow<'_>) -> Option<&'r str>,
    ) -> Vec<Option<&'r str>> {
        rows.iter().map(value).collect()
    }
    let host = strings(rows, |r| Some(&r.host));
    let component = strings(rows, |r| Some(&r.component));
    let level = strings(rows, |r| r.level.as_deref());
    let thread = strings(rows, |r| r.thread.as_deref());
    let logger = strings(rows, |r| r.logger.as_deref());
    let kind = strings(rows, |r| Some(&r.kind));
    let file = strings(rows, |r| Some(&r.file));
    let text = strings(rows, |r| Some(&r.text));
    let bundle = strings(rows, |r| Some(&r.bundle));
    let line: Vec<u64> = rows.iter().map(|r| r.line).collect();
    let continuation: Vec<u32> = rows.iter().map(|r| r.continuation_lines).collect();
    let ts_ms: Vec<Option<i64>> = rows.iter().map(|r| r.ts).collect();
    let categorical = DataType::from_categories(Categories::global());
    let cat = |name: &str, values: Vec<Option<&str>>| -> Result<Column, Failure> {
        Ok(Series::new(name.into(), values)
            .cast(&categorical)
            .map_err(build)?
            .into())
    };
    let ts = Series::new("ts".into(), ts_ms.clone())
        .cast(&DataType::Datetime(
            TimeUnit::Milliseconds,
            Some(TimeZone::UTC),
        ))
        .map_err(build)?;
    // The lists are built whole, not from a Series per row (about 15 KB each, held until the
    // table is).
    let mut entities = ListStringChunkedBuilder::new(
        "entities".into(),
        rows.len(),
        rows.iter().map(|r| r.entities.len()).sum(),
    );
    for row in rows {
        entities.append_values_iter(row.entities.iter().map(String::as_str));
    }
    let pairs = || rows.iter().flat_map(|r| &r.fields);
    let keys = Series::new(
        "key".into(),
        pairs().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
    );
    let values = Series::new(
        "value".into(),
        pairs().map(|(_, v)| v.as_str()).collect::<Vec<_>>(),
    );
    let entries = StructChunked::from_series("entry".into(), keys.len(), [keys, values].iter())
        .map_err(build)?
        .into_series();
    let mut fields = polars::chunked_array::builder::get_list_builder(
        entries.dtype(),
        entries.len(),
        rows.len(),
        "fields".into(),
    );
    let mut start = 0;
    for row in rows {
        let pairs = row.fields.len();
        (fields.append_series(&entries.slice(start as i64, pairs))).map_err(build)?;
        start += pairs;
    }
    let columns: Vec<Column> = vec![
        ts.into(),
        cat("host", host)?,
        cat("component", component)?,
        cat("level", level)?,
        Series::new("thread".into(), thread).into(),
        Series::new("logger".into(), logger).into(),
        cat("kind", kind)?,
        entities.finish().into_series().into(),
        fields.finish().into_series().into(),
        Series::new("file".into(), file).into(),
        Series::new("line".into(), line).into(),
        Series::new("ts_ms".into(), ts_ms).into(),
        Series::new("text".into(), text).into(),
        Series::new("continuation_lines".into(), continuation).into(),
        cat("bundle", bundle)?,
    ];
    DataFrame::new(rows.len(), columns).map_err(build)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field is quoted when it holds a comma, a quote or a line end, or is an empty string; an
    /// absent value is an empty field; quotes inside are doubled.
    #[test]
    fn csv_fields_are_quoted_only_when_they_must_be() {
        let mut row = Vec::new();
        for value in [
            "plain",
            "",
            "a,b",
            "say \"hi\"",
            "two\nlines",
            "cr\r",
            "semi;colon",
        ] {
            csv_text(&mut row, value);
            row.push(b'|');
        }
        assert_eq!(
            String::from_utf8(row).unwrap(),
            "plain|\"\"|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"|\"cr\r\"|semi;colon|"
        );
    }

    /// A row has the header's fields; absent level, thread, logger and time are empty fields.
    #[test]
    fn csv_row_has_the_header_fields_and_absent_values_empty() {
        let trace = crate::report::fixture::analysis().trace;
        let untimed = trace
            .iter()
            .find(|e| e.ts.is_none())
            .expect("an untimed event");
        let mut row = Vec::new();
        csv_row("bundle,1", untimed, &mut row);
        let row = String::from_utf8(row).unwrap();
        assert!(row.starts_with(','), "no time: {row}");
        assert!(row.ends_with(",\"bundle,1\""), "{row}");
        let line = format!(",{},,", untimed.line);
        assert!(row.contains(&line), "line, then no ts_ms: {row}");
    }
}
