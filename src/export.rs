//! The recorded trace on disk: JSON Lines always; CSV and Parquet through polars, which only
//! this module uses (behind the default `parquet` feature, so a `--no-default-features` build
//! stays fast).

use crate::Failure;
use oztrace_parser::event::Event;
use std::io::Write;
use std::path::Path;

/// How `events` writes one event: a JSON line, or a CSV row naming the bundle (the `PATH`
/// argument) it was read from. Neither with its line end.
#[derive(Debug, Clone, Copy)]
pub enum RowFormat<'a> {
    Json,
    Csv { bundle: &'a str },
}

impl RowFormat<'_> {
    pub fn write(self, event: &Event, out: &mut Vec<u8>) -> std::io::Result<()> {
        match self {
            RowFormat::Json => event.write_json(out).map_err(std::io::Error::from),
            RowFormat::Csv { bundle } => {
                csv_row(bundle, event, out);
                Ok(())
            }
        }
    }
}

/// Events out, one per line: each serialized into one reused buffer, then written in one call.
pub struct EventLines<'f, W: Write> {
    out: W,
    format: RowFormat<'f>,
    line: Vec<u8>,
}

impl<'f, W: Write> EventLines<'f, W> {
    pub fn new(out: W, format: RowFormat<'f>) -> EventLines<'f, W> {
        EventLines {
            out,
            format,
            line: Vec::new(),
        }
    }

    pub fn write(&mut self, event: &Event) -> Result<(), Failure> {
        self.line.clear();
        self.format
            .write(event, &mut self.line)
            .and_then(|()| {
                self.line.push(b'\n');
                self.out.write_all(&self.line)
            })
            .map_err(|e| crate::output::write_failure("events", e))
    }

    pub fn format(&self) -> RowFormat<'f> {
        self.format
    }

    /// Lines already written (each with its line end).
    pub fn write_lines(&mut self, lines: &[u8]) -> Result<(), Failure> {
        self.out
            .write_all(lines)
            .map_err(|e| crate::output::write_failure("events", e))
    }

    pub fn flush(&mut self) -> Result<(), Failure> {
        self.out
            .flush()
            .map_err(|e| crate::output::write_failure("events", e))
    }

    /// The writer, for what comes after the events (the time sorter's output).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }
}

/// One event of a table with the input argument (bundle) it was read from.
pub type Row<'a> = (&'a str, &'a Event);

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

#[cfg(not(feature = "parquet"))]
pub fn write_parquet(_rows: &[Row<'_>], _output: &Path) -> Result<(), Failure> {
    parquet_available()
}

/// The fields of an event as (name, value) pairs: strings as they are, other values as JSON.
#[cfg(feature = "parquet")]
fn field_pairs(event: &Event) -> Vec<(String, String)> {
    match serde_json::to_value(&event.data) {
        Ok(serde_json::Value::Object(map)) => map
            .into_iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| match v {
                serde_json::Value::String(s) => (k, s),
                other => (k, other.to_string()),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The events as one Parquet table (see [`events_frame`]) in `output`.
#[cfg(feature = "parquet")]
pub fn write_parquet(rows: &[Row<'_>], output: &Path) -> Result<(), Failure> {
    use polars::prelude::*;
    let mut frame = events_frame(rows)?;
    let file = std::fs::File::create(output)
        .map_err(|e| Failure::Usage(format!("{}: {e}", output.display())))?;
    ParquetWriter::new(file)
        .finish(&mut frame)
        .map_err(|e| Failure::Internal(format!("writing events: {e}")))?;
    Ok(())
}

/// The events as one table. Columns (docs/cli-contract.md, the same as [`CSV_HEADER`]'s): `ts` a
/// timestamp (ms, UTC), `host`, `component`, `level`, `thread`, `logger`, `kind` (the categorical
/// ones: `kind`, `host`, `component`, `level` and `bundle`), `entities` a list of strings, `fields`
/// a map (a list of `{key, value}` structs, values as text), `file`, `line`, `ts_ms`, `text`,
/// `continuation_lines` and `bundle`.
#[cfg(feature = "parquet")]
pub fn events_frame(rows: &[Row<'_>]) -> Result<polars::prelude::DataFrame, Failure> {
    use polars::prelude::*;
    let build = |e: PolarsError| Failure::Internal(format!("building the events table: {e}"));
    let strings = |f: &dyn Fn(&Row) -> Option<String>| -> Vec<Option<String>> {
        rows.iter().map(f).collect()
    };
    let host = strings(&|(_, e)| Some(e.host.to_string()));
    let component = strings(&|(_, e)| Some(e.component.as_str().to_string()));
    let level = strings(&|(_, e)| e.level.map(|l| l.as_str().to_string()));
    let thread = strings(&|(_, e)| e.thread.as_deref().map(str::to_string));
    let logger = strings(&|(_, e)| e.logger.as_deref().map(str::to_string));
    let kind = strings(&|(_, e)| Some(e.kind().to_string()));
    let file = strings(&|(_, e)| Some(e.file.to_string()));
    let text = strings(&|(_, e)| Some(e.text.to_string()));
    let bundle = strings(&|(b, _)| Some(b.to_string()));
    let line: Vec<u64> = rows.iter().map(|(_, e)| e.line).collect();
    let continuation: Vec<u32> = rows.iter().map(|(_, e)| e.continuation_lines).collect();
    let ts_ms: Vec<Option<i64>> = rows.iter().map(|(_, e)| e.ts).collect();
    let entities: Vec<Vec<String>> = rows
        .iter()
        .map(|(_, e)| e.entities.iter().map(ToString::to_string).collect())
        .collect();
    let categorical = DataType::from_categories(Categories::global());
    let cat = |name: &str, values: Vec<Option<String>>| -> Result<Column, Failure> {
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
    let entities: ListChunked = entities
        .iter()
        .map(|v| Some(Series::new(PlSmallStr::EMPTY, v)))
        .collect();
    let mut maps = Vec::with_capacity(rows.len());
    for (_, event) in rows {
        let pairs = field_pairs(event);
        let keys = Series::new(
            "key".into(),
            pairs.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        );
        let values = Series::new(
            "value".into(),
            pairs.iter().map(|(_, v)| v.as_str()).collect::<Vec<_>>(),
        );
        let entry = StructChunked::from_series("entry".into(), pairs.len(), [keys, values].iter())
            .map_err(build)?;
        maps.push(Some(entry.into_series()));
    }
    let fields: ListChunked = maps.into_iter().collect();
    let columns: Vec<Column> = vec![
        ts.into(),
        cat("host", host)?,
        cat("component", component)?,
        cat("level", level)?,
        Series::new("thread".into(), thread).into(),
        Series::new("logger".into(), logger).into(),
        cat("kind", kind)?,
        entities.with_name("entities".into()).into_series().into(),
        fields.with_name("fields".into()).into_series().into(),
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
