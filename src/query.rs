//! `oztrace query DIR SQL`: SQL over a dataset's tables (`scan --each --dataset`, or
//! `integrations/spark/oztrace_spark.py`) with polars SQL, printed as a table, CSV, JSON Lines or
//! written as Parquet. Polars is behind the default `parquet` feature; without it the command
//! is a usage error.

use crate::Failure;
use crate::cli::QueryArgs;

#[cfg(not(feature = "parquet"))]
pub fn run(_args: QueryArgs) -> Result<u8, Failure> {
    Err(Failure::Usage(
        "this oztrace was built without the `parquet` feature, which `query` needs; rebuild \
         with default features"
            .into(),
    ))
}

#[cfg(feature = "parquet")]
pub fn run(args: QueryArgs) -> Result<u8, Failure> {
    use crate::cli::QueryFormat;
    use crate::output::{OutputFile, emit_bytes, refuse_inputs_as_outputs};
    use polars::prelude::*;
    if args.format == QueryFormat::Parquet && args.output.is_none() {
        return Err(Failure::Usage("--format parquet needs -o FILE".into()));
    }
    // As every command's outputs: never one of the dataset's files, written through a
    // temporary file created before anything is read.
    if let Some(path) = &args.output {
        refuse_inputs_as_outputs(std::slice::from_ref(&args.dataset), &[("-o", path)])?;
    }
    let output = args
        .output
        .as_deref()
        .map(|path| OutputFile::create("-o", path))
        .transpose()?;
    let mut context = polars::sql::SQLContext::new();
    for (name, frame) in tables::open(&args.dataset)? {
        context.register(&name, frame);
    }
    let mut result = context
        .execute(&args.sql)
        .and_then(LazyFrame::collect)
        .map_err(|e| Failure::Usage(format!("query: {e}")))?;
    let fail = |e: String| Failure::Internal(format!("writing the result: {e}"));
    let out: Vec<u8> = match args.format {
        QueryFormat::Text => text::table(&result).into_bytes(),
        QueryFormat::Json => text::json_lines(&result).map_err(|e| fail(e.to_string()))?,
        QueryFormat::Csv => {
            let mut csv = Vec::new();
            CsvWriter::new(&mut csv)
                .finish(&mut text::as_text(&result).map_err(|e| fail(e.to_string()))?)
                .map_err(|e| fail(e.to_string()))?;
            csv
        }
        QueryFormat::Parquet => {
            let mut parquet = Vec::new();
            ParquetWriter::new(&mut parquet)
                .finish(&mut result)
                .map_err(|e| fail(e.to_string()))?;
            parquet
        }
    };
    match output {
        Some(file) => file.write_and_commit(&out)?,
        None => emit_bytes(&out)?,
    }
    Ok(crate::exit::OK)
}

/// The tables of a dataset as lazy frames.
#[cfg(feature = "parquet")]
mod tables {
    use crate::Failure;
    use crate::dataset::{self, MARKER, SCHEMA, TABLES, writer};
    use polars::prelude::*;
    use std::path::{Path, PathBuf};

    /// Every table the dataset's marker lists, by name: the declared tables with their declared
    /// columns (empty when no file holds a row), and `events` when it was written.
    pub fn open(root: &Path) -> Result<Vec<(String, LazyFrame)>, Failure> {
        let marker = root.join(MARKER);
        let usage = |why: String| Failure::Usage(format!("{}: {why}", root.display()));
        let text = std::fs::read_to_string(&marker).map_err(|e| {
            usage(format!(
                "not an oztrace dataset ({MARKER}: {e}); write one with `oztrace scan --each … \
                 --dataset DIR`"
            ))
        })?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| usage(format!("{MARKER} is not JSON: {e}")))?;
        if value["schema"] != SCHEMA {
            return Err(usage(format!(
                "{MARKER} says {}, this oztrace reads {SCHEMA}",
                value["schema"]
            )));
        }
        let listed = |name: &str| {
            value["tables"]
                .as_array()
                .is_some_and(|t| t.iter().any(|n| n == name))
        };
        let mut frames = Vec::new();
        for table in TABLES {
            let mut schema = writer::file_schema(&table);
            if let Some(partition) = table.partition {
                schema.insert(partition.into(), DataType::String);
            }
            let files = parquet_files(&root.join(table.name))?;
            let frame = if files.is_empty() {
                DataFrame::empty_with_schema(&schema).lazy()
            } else {
                // The file schema is declared: a file of another shape is an error, not a guess.
                scan(&files, table.partition, Some(writer::file_schema(&table)))?
            };
            frames.push((table.name.to_string(), frame));
        }
        let events = parquet_files(&root.join(dataset::EVENTS))?;
        if listed(dataset::EVENTS) && !events.is_empty() {
            frames.push((dataset::EVENTS.into(), scan(&events, Some("bundle"), None)?));
        }
        Ok(frames)
    }

    fn scan(
        files: &[PathBuf],
        partition: Option<&str>,
        schema: Option<Schema>,
    ) -> Result<LazyFrame, Failure> {
        let hive_options = match partition {
            Some(column) => HiveOptions {
                enabled: Some(true),
                hive_start_idx: 0,
                // Partition values stay text (a bundle id `1042` is not a number).
                schema: Some(Arc::new(Schema::from_iter([Field::new(
                    column.into(),
                    DataType::String,
                )]))),
                try_parse_dates: false,
            },
            None => HiveOptions::new_disabled(),
        };
        let args = ScanArgsParquet {
            hive_options,
            schema: schema.map(Arc::new),
            glob: false,
            ..Default::default()
        };
        let paths: Vec<PlRefPath> = files
            .iter()
            .map(|p| PlRefPath::new(p.to_string_lossy().into_owned()))
            .collect();
        LazyFrame::scan_parquet_files(paths.into(), args)
            .map_err(|e| Failure::Internal(format!("reading the dataset: {e}")))
    }

    /// A table's data files: `*.parquet` under its folder, without the hidden and `_` files
    /// writers leave beside them (Spark's `_SUCCESS`, `.crc` checksums), sorted.
    fn parquet_files(folder: &Path) -> Result<Vec<PathBuf>, Failure> {
        let mut files = Vec::new();
        if !folder.exists() {
            return Ok(files);
        }
        let mut pending = vec![folder.to_path_buf()];
        while let Some(dir) = pending.pop() {
            let entries = std::fs::read_dir(&dir)
                .map_err(|e| Failure::Usage(format!("{}: {e}", dir.display())))?;
            for entry in entries {
                let entry = entry.map_err(|e| Failure::Usage(format!("{}: {e}", dir.display())))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') || name.starts_with('_') {
                    continue;
                }
                let path = entry.path();
                if path.is_dir() {
                    pending.push(path);
                } else if name.ends_with(".parquet") {
                    files.push(path);
                }
            }
        }
        files.sort();
        Ok(files)
    }
}

/// Values as people and text formats read them.
#[cfg(feature = "parquet")]
mod text {
    use oztrace_parser::time::format_rfc3339;
    use polars::prelude::*;

    /// A value as JSON: times as RFC 3339 in UTC, lists as arrays, structs as objects.
    pub fn json(value: &AnyValue) -> serde_json::Value {
        use serde_json::Value as J;
        match value {
            AnyValue::Null => J::Null,
            AnyValue::Boolean(b) => J::Bool(*b),
            AnyValue::Int8(_)
            | AnyValue::Int16(_)
            | AnyValue::Int32(_)
            | AnyValue::Int64(_)
            | AnyValue::UInt8(_)
            | AnyValue::UInt16(_)
            | AnyValue::UInt32(_)
            | AnyValue::UInt64(_) => value
                .extract::<i64>()
                .map(J::from)
                .unwrap_or_else(|| J::String(value.to_string())),
            AnyValue::Float32(_) | AnyValue::Float64(_) => value
                .extract::<f64>()
                .and_then(serde_json::Number::from_f64)
                .map_or(J::Null, J::Number),
            AnyValue::Datetime(t, unit, _) | AnyValue::DatetimeOwned(t, unit, _) => {
                let ms = match unit {
                    TimeUnit::Milliseconds => *t,
                    TimeUnit::Microseconds => t.div_euclid(1_000),
                    TimeUnit::Nanoseconds => t.div_euclid(1_000_000),
                };
                J::String(format_rfc3339(ms))
            }
            AnyValue::List(series) => J::Array(series.iter().map(|v| json(&v)).collect()),
            AnyValue::Struct(..) | AnyValue::StructOwned(..) => {
                let mut object = serde_json::Map::new();
                let fields: Vec<Field> = match value {
                    AnyValue::Struct(_, _, fields) => fields.to_vec(),
                    AnyValue::StructOwned(owned) => owned.1.clone(),
                    _ => Vec::new(),
                };
                for (field, v) in fields.iter().zip(value._iter_struct_av()) {
                    object.insert(field.name().to_string(), json(&v));
                }
                J::Object(object)
            }
            other => match other.get_str() {
                Some(s) => J::String(s.to_string()),
                None => J::String(other.to_string()),
            },
        }
    }

    /// A value in one cell: text as it is, other values as their JSON.
    pub fn cell(value: &AnyValue) -> Option<String> {
        match json(value) {
            serde_json::Value::Null => None,
            serde_json::Value::String(s) => Some(s),
            other => Some(other.to_string()),
        }
    }

    /// The frame with every column as text (for CSV: times in RFC 3339, lists and structs as
    /// JSON).
    pub fn as_text(frame: &DataFrame) -> PolarsResult<DataFrame> {
        let columns = frame
            .columns()
            .iter()
            .map(|column| {
                let values: Vec<Option<String>> = column
                    .as_materialized_series()
                    .iter()
                    .map(|v| cell(&v))
                    .collect();
                Column::new(column.name().clone(), values)
            })
            .collect();
        DataFrame::new(frame.height(), columns)
    }

    /// One JSON object per row and line, its keys in the columns' order.
    pub fn json_lines(frame: &DataFrame) -> serde_json::Result<Vec<u8>> {
        let mut out = Vec::new();
        let columns: Vec<(String, &Series)> = frame
            .columns()
            .iter()
            .map(|c| {
                Ok((
                    serde_json::to_string(c.name().as_str())?,
                    c.as_materialized_series(),
                ))
            })
            .collect::<serde_json::Result<_>>()?;
        for row in 0..frame.height() {
            out.push(b'{');
            for (i, (key, column)) in columns.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(key.as_bytes());
                out.push(b':');
                let value = column.get(row).unwrap_or(AnyValue::Null);
                serde_json::to_writer(&mut out, &json(&value))?;
            }
            out.extend_from_slice(b"}\n");
        }
        Ok(out)
    }

    /// The frame as a table for people, every row, then how many.
    pub fn table(frame: &DataFrame) -> String {
        let mut table = comfy_table::Table::new();
        table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
        table.set_header(frame.get_column_names().iter().map(|n| n.as_str()));
        let columns: Vec<&Series> = frame
            .columns()
            .iter()
            .map(|c| c.as_materialized_series())
            .collect();
        for row in 0..frame.height() {
            table.add_row(columns.iter().map(|column| {
                column
                    .get(row)
                    .ok()
                    .and_then(|v| cell(&v))
                    .unwrap_or_default()
            }));
        }
        let rows = frame.height();
        format!("{table}\n{rows} row{}\n", if rows == 1 { "" } else { "s" })
    }
}
