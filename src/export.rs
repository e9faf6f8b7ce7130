//! The recorded trace on disk: JSON Lines always; CSV and Parquet through polars, which only
//! this module uses (behind the default `parquet` feature, so a `--no-default-features` build
//! stays fast).

use crate::Failure;
use crate::cli::EventsFormat;
use oztrace_parser::event::Event;
use std::io::Write;
use std::path::Path;

pub fn write_jsonl<'a>(
    events: impl Iterator<Item = &'a Event>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let fail = |e: std::io::Error| crate::output::write_failure("events", e);
    for event in events {
        serde_json::to_writer(&mut *out, event).map_err(|e| fail(e.into()))?;
        out.write_all(b"\n").map_err(fail)?;
    }
    out.flush().map_err(fail)
}

#[cfg(not(feature = "parquet"))]
pub fn write_table<'a>(
    _events: impl Iterator<Item = &'a Event>,
    _format: EventsFormat,
    _output: Option<&Path>,
) -> Result<(), Failure> {
    Err(Failure::Usage(
        "this oztrace was built without the `parquet` feature, which CSV and Parquet output need; \
         use --format jsonl or rebuild with default features"
            .into(),
    ))
}

#[cfg(feature = "parquet")]
pub fn write_table<'a>(
    events: impl Iterator<Item = &'a Event>,
    format: EventsFormat,
    output: Option<&Path>,
) -> Result<(), Failure> {
    use polars::prelude::*;
    let events: Vec<&Event> = events.collect();
    let strings = |f: &dyn Fn(&Event) -> Option<String>| -> Vec<Option<String>> {
        events.iter().map(|e| f(e)).collect()
    };
    let ts = strings(&|e| e.ts.map(oztrace_parser::time::format_rfc3339));
    let ts_ms: Vec<Option<i64>> = events.iter().map(|e| e.ts).collect();
    let host = strings(&|e| Some(e.host.to_string()));
    let component = strings(&|e| Some(e.component.as_str().to_string()));
    let level = strings(&|e| e.level.map(|l| l.as_str().to_string()));
    let thread = strings(&|e| e.thread.clone());
    let logger = strings(&|e| e.logger.clone());
    let kind = strings(&|e| Some(e.kind().to_string()));
    let fields = strings(&|e| serde_json::to_string(&e.data).ok());
    let file = strings(&|e| Some(e.file.to_string()));
    let line: Vec<u64> = events.iter().map(|e| e.line).collect();
    let entities: Vec<Vec<String>> = events
        .iter()
        .map(|e| e.entities.iter().map(ToString::to_string).collect())
        .collect();
    let entities_column = match format {
        EventsFormat::Parquet => {
            let list: ListChunked = entities
                .iter()
                .map(|v| Some(Series::new(PlSmallStr::EMPTY, v)))
                .collect();
            list.with_name("entities".into()).into_series()
        }
        _ => Series::new(
            "entities".into(),
            entities.iter().map(|v| v.join(";")).collect::<Vec<_>>(),
        ),
    };
    let mut frame = DataFrame::new(
        events.len(),
        vec![
            Series::new("ts".into(), ts).into(),
            Series::new("host".into(), host).into(),
            Series::new("component".into(), component).into(),
            Series::new("level".into(), level).into(),
            Series::new("thread".into(), thread).into(),
            Series::new("logger".into(), logger).into(),
            Series::new("kind".into(), kind).into(),
            entities_column.into(),
            Series::new("fields".into(), fields).into(),
            Series::new("file".into(), file).into(),
            Series::new("line".into(), line).into(),
            Series::new("ts_ms".into(), ts_ms).into(),
        ],
    )
    .map_err(|e| Failure::Internal(format!("building the events table: {e}")))?;
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
