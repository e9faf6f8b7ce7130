//! The recorded trace on disk: JSON Lines always; CSV and Parquet through polars, which only
//! this module uses (behind the default `parquet` feature, so a `--no-default-features` build
//! stays fast).

use crate::Failure;
use crate::cli::EventsFormat;
use oztrace_parser::event::Event;
use std::io::Write;
use std::path::Path;

/// JSON Lines out: each event serialized into one reused buffer, then written in one call.
pub struct JsonLines<W: Write> {
    out: W,
    line: Vec<u8>,
}

impl<W: Write> JsonLines<W> {
    pub fn new(out: W) -> JsonLines<W> {
        JsonLines {
            out,
            line: Vec::new(),
        }
    }

    pub fn write(&mut self, event: &Event) -> Result<(), Failure> {
        self.line.clear();
        event
            .write_json(&mut self.line)
            .map_err(std::io::Error::from)
            .and_then(|()| {
                self.line.push(b'\n');
                self.out.write_all(&self.line)
            })
            .map_err(|e| crate::output::write_failure("events", e))
    }

    /// JSON lines already written.
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

#[cfg(not(feature = "parquet"))]
pub fn write_table(
    _rows: &[Row<'_>],
    _format: EventsFormat,
    _output: Option<&Path>,
) -> Result<(), Failure> {
    Err(Failure::Usage(
        "this oztrace was built without the `parquet` feature, which CSV and Parquet output need; \
         use --format jsonl or rebuild with default features"
            .into(),
    ))
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

/// The events as one table. Columns (docs/cli-contract.md): `ts`, `host`, `component`, `level`,
/// `thread`, `logger`, `kind`, `entities`, `fields`, `file`, `line`, `ts_ms`, then `text`,
/// `continuation_lines` and `bundle`. CSV writes `ts` as RFC 3339 text, `entities` joined with
/// `;` and `fields` as a JSON string. Parquet types them: `ts` a timestamp (ms, UTC), `kind`,
/// `host`, `component`, `level` and `bundle` categorical, `entities` a list of strings, `fields`
/// a map (a list of `{key, value}` structs, values as text).
#[cfg(feature = "parquet")]
pub fn write_table(
    rows: &[Row<'_>],
    format: EventsFormat,
    output: Option<&Path>,
) -> Result<(), Failure> {
    use polars::prelude::*;
    let mut frame = events_frame(rows, format)?;
    let fail = |e: PolarsError| Failure::Internal(format!("writing events: {e}"));
    match (format, output) {
        (EventsFormat::Parquet, Some(path)) => {
            let file = std::fs::File::create(path)
                .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
            ParquetWriter::new(file).finish(&mut frame).map_err(fail)?;
        }
        (EventsFormat::Csv, Some(path)) => {
            let file = std::fs::File::create(path)
                .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
            CsvWriter::new(file).finish(&mut frame).map_err(fail)?;
        }
        (EventsFormat::Csv, None) => {
            CsvWriter::new(std::io::stdout().lock())
                .finish(&mut frame)
                .map_err(fail)?;
        }
        (EventsFormat::Parquet, None) | (EventsFormat::Jsonl, _) => {
            return Err(Failure::Internal("write_table called for jsonl".into()));
        }
    }
    Ok(())
}

/// The events as a table in `format`'s types (see [`write_table`]).
#[cfg(feature = "parquet")]
pub fn events_frame(
    rows: &[Row<'_>],
    format: EventsFormat,
) -> Result<polars::prelude::DataFrame, Failure> {
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
    let columns: Vec<Column> = match format {
        EventsFormat::Parquet => {
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
                let entry =
                    StructChunked::from_series("entry".into(), pairs.len(), [keys, values].iter())
                        .map_err(build)?;
                maps.push(Some(entry.into_series()));
            }
            let fields: ListChunked = maps.into_iter().collect();
            vec![
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
            ]
        }
        _ => {
            let ts = strings(&|(_, e)| e.ts.map(oztrace_parser::time::format_rfc3339));
            let fields = strings(&|(_, e)| serde_json::to_string(&e.data).ok());
            let joined: Vec<String> = entities.iter().map(|v| v.join(";")).collect();
            vec![
                Series::new("ts".into(), ts).into(),
                Series::new("host".into(), host).into(),
                Series::new("component".into(), component).into(),
                Series::new("level".into(), level).into(),
                Series::new("thread".into(), thread).into(),
                Series::new("logger".into(), logger).into(),
                Series::new("kind".into(), kind).into(),
                Series::new("entities".into(), joined).into(),
                Series::new("fields".into(), fields).into(),
                Series::new("file".into(), file).into(),
                Series::new("line".into(), line).into(),
                Series::new("ts_ms".into(), ts_ms).into(),
                Series::new("text".into(), text).into(),
                Series::new("continuation_lines".into(), continuation).into(),
                Series::new("bundle".into(), bundle).into(),
            ]
        }
    };
    DataFrame::new(rows.len(), columns).map_err(build)
}
