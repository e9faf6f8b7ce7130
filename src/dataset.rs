//! `scan --each … --dataset DIR`: the findings of many bundles as Parquet tables that
//! `oztrace query`, Spark SQL and any Parquet reader can read (docs/dataset.md).
//!
//! A dataset is a folder: `dataset.json` (its schema version), `findings/rule=<rule>/`,
//! `evidence/`, `bundles/bundle=<bundle>/` and, with `--events`, `events/bundle=<bundle>/`, each
//! holding `part-*.parquet` files in Hive's layout (the partition column is the folder's, not the
//! files'), as Spark writes them with `partitionBy`. The tables are declared once here
//! ([`TABLES`]); the Parquet writer and `oztrace query`'s reader both follow the declaration, and
//! `integrations/spark/oztrace_spark.py` mirrors it (its test checks both write equal tables).
//!
//! The dataset is written into a temporary folder next to DIR and renamed to DIR at the end, so
//! that a dataset is never half-written and nothing else is ever overwritten.

use crate::Failure;
use crate::report::{Document, role_name};
use std::path::{Path, PathBuf};

/// The version of the dataset layout and of every table's columns; a change other than adding a
/// column or a table is a new version.
pub const SCHEMA: &str = "oztrace.dataset/v1";

/// The file that names a folder an oztrace dataset.
pub const MARKER: &str = "dataset.json";

/// The type of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Int,
    /// Milliseconds since the epoch, UTC.
    Time,
    TextList,
    /// A list of structs with these fields.
    StructList(&'static [Column]),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub kind: Kind,
}

const fn column(name: &'static str, kind: Kind) -> Column {
    Column { name, kind }
}

/// A table: its folder, the column its folders partition it by (not stored in the files), and
/// the columns of its files, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table {
    pub name: &'static str,
    pub partition: Option<&'static str>,
    pub columns: &'static [Column],
}

pub const FINDINGS: Table = Table {
    name: "findings",
    partition: Some("rule"),
    columns: &[
        column("bundle", Kind::Text),
        column("ticket", Kind::Text),
        column("family", Kind::Text),
        column("severity", Kind::Text),
        column("confidence", Kind::Text),
        column("reason", Kind::Text),
        column("entity", Kind::Text),
        column("related", Kind::TextList),
        column("summary", Kind::Text),
        column("first_seen", Kind::Time),
        column("last_seen", Kind::Time),
        column("hosts", Kind::TextList),
        column("fingerprint", Kind::Text),
    ],
};

pub const EVIDENCE: Table = Table {
    name: "evidence",
    partition: None,
    columns: &[
        column("bundle", Kind::Text),
        column("rule", Kind::Text),
        column("fingerprint", Kind::Text),
        column("seq", Kind::Int),
        column("role", Kind::Text),
        column("ts", Kind::Time),
        column("host", Kind::Text),
        column("component", Kind::Text),
        column("file", Kind::Text),
        column("line", Kind::Int),
        column("text", Kind::Text),
        column("note", Kind::Text),
    ],
};

const UNREADABLE: &[Column] = &[column("file", Kind::Text), column("reason", Kind::Text)];

const GAP: &[Column] = &[
    column("rule", Kind::Text),
    column("missing", Kind::Text),
    column("enable", Kind::TextList),
    column("hosts", Kind::TextList),
];

const COVERAGE: &[Column] = &[
    column("rule", Kind::Text),
    column("status", Kind::Text),
    column("needs", Kind::TextList),
    column("missing", Kind::TextList),
    column("hosts_missing", Kind::TextList),
];

pub const BUNDLES: Table = Table {
    name: "bundles",
    partition: Some("bundle"),
    columns: &[
        column("path", Kind::Text),
        column("exit_code", Kind::Int),
        column("error", Kind::Text),
        column("tool_version", Kind::Text),
        column("files", Kind::Int),
        column("bytes", Kind::Int),
        column("records", Kind::Int),
        column("typed_events", Kind::Int),
        column("unrecognized", Kind::Int),
        column("unreadable", Kind::StructList(UNREADABLE)),
        column("hosts", Kind::TextList),
        column("components", Kind::TextList),
        column("releases", Kind::TextList),
        column("first_seen", Kind::Time),
        column("last_seen", Kind::Time),
        column("findings", Kind::Int),
        column("suppressed", Kind::Int),
        column("gaps", Kind::StructList(GAP)),
        column("coverage", Kind::StructList(COVERAGE)),
        column("warnings", Kind::TextList),
    ],
};

/// The events table: the columns of `events --format parquet`, partitioned by bundle id.
pub const EVENTS: &str = "events";

/// The tables `scan --dataset` always writes.
pub const TABLES: [Table; 3] = [FINDINGS, EVIDENCE, BUNDLES];

/// One value of a row, of its column's [`Kind`].
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Text(Option<String>),
    Int(Option<i64>),
    Time(Option<i64>),
    TextList(Vec<String>),
    StructList(Vec<Vec<Value>>),
}

fn text(value: &str) -> Value {
    Value::Text(Some(value.to_string()))
}

fn count(n: u64) -> Value {
    Value::Int(Some(i64::try_from(n).unwrap_or(i64::MAX)))
}

/// Rows of one table, in its columns' order (the partition column last).
pub type Rows = Vec<Vec<Value>>;

/// A bundle's id in a dataset: its file or folder name without an archive extension
/// (`tickets/SR-1042.tar.gz` → `SR-1042`); when two inputs of one run have the same name, as
/// many parent folders as make them different (`2026/SR-1042`, `2027/SR-1042`). Standard input
/// is `stdin`. `oztrace_spark.py` names bundles the same way.
pub fn bundle_ids(paths: &[PathBuf]) -> Result<Vec<String>, Failure> {
    let parts: Vec<Vec<String>> = paths.iter().map(|p| path_parts(p)).collect();
    let mut ids = Vec::with_capacity(paths.len());
    for (i, mine) in parts.iter().enumerate() {
        let clashing: Vec<&Vec<String>> = parts
            .iter()
            .enumerate()
            .filter(|(j, other)| *j != i && other.last() == mine.last())
            .map(|(_, other)| other)
            .collect();
        if let Some(same) = clashing.iter().position(|other| *other == mine) {
            let twin = parts.iter().position(|p| p == clashing[same]).unwrap_or(i);
            return Err(Failure::Usage(format!(
                "--dataset: {} and {} are the same bundle; name each once",
                paths[i].display(),
                paths[twin].display()
            )));
        }
        // The fewest trailing parts that no clashing input ends with.
        let depth = (1..=mine.len())
            .find(|&n| {
                clashing
                    .iter()
                    .all(|other| !ends_with(other, &mine[mine.len() - n..]))
            })
            .unwrap_or(mine.len());
        ids.push(mine[mine.len() - depth..].join("/"));
    }
    Ok(ids)
}

fn ends_with(parts: &[String], tail: &[String]) -> bool {
    parts.len() >= tail.len() && &parts[parts.len() - tail.len()..] == tail
}

/// The `/`-separated parts of a path, the last without its archive extension.
fn path_parts(path: &Path) -> Vec<String> {
    let text = path.to_string_lossy();
    if text == "-" {
        return vec!["stdin".into()];
    }
    let mut parts: Vec<String> = text
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .map(str::to_string)
        .collect();
    match parts.last_mut() {
        Some(last) => {
            let lower = last.to_ascii_lowercase();
            if let Some(ext) = ARCHIVE_EXTENSIONS
                .iter()
                .find(|ext| lower.len() > ext.len() && lower.ends_with(*ext))
            {
                last.truncate(last.len() - ext.len());
            }
        }
        None => parts.push("root".into()),
    }
    parts
}

/// Extensions a bundle's id leaves out, longest first.
const ARCHIVE_EXTENSIONS: &[&str] = &[
    ".tar.zstd",
    ".tar.bz2",
    ".tar.lz4",
    ".tar.zst",
    ".tar.gz",
    ".tar.xz",
    ".zstd",
    ".tbz2",
    ".tar",
    ".tbz",
    ".tgz",
    ".txz",
    ".zip",
    ".zst",
    ".bz2",
    ".lz4",
    ".gz",
    ".xz",
];

/// A partition folder's name, `column=value`, with the characters Hive and Spark escape
/// (`ExternalCatalogUtils.escapePathName`) as `%XX`, so that Spark, polars and oztrace read the
/// same value back.
pub fn partition_folder(column: &str, value: &str) -> String {
    let mut name = format!("{column}=");
    if value.is_empty() {
        name.push_str("__HIVE_DEFAULT_PARTITION__");
    }
    for c in value.chars() {
        let escaped = c.is_ascii_control()
            || matches!(
                c,
                '"' | '#' | '%' | '\'' | '*' | '/' | ':' | '=' | '?' | '\\' | '{' | '[' | ']' | '^'
            );
        if escaped {
            name.push_str(&format!("%{:02X}", c as u32));
        } else {
            name.push(c);
        }
    }
    name
}

/// What scanning one bundle gave: its document (after the baseline) and exit status, or why it
/// gave none.
pub enum Outcome<'a> {
    Scanned { code: u8, document: &'a Document },
    Failed { code: u8, error: String },
}

/// The rows of every bundle of a run, then written as one dataset.
pub struct Dataset {
    target: PathBuf,
    temp: tempfile::TempDir,
    events: bool,
    findings: Rows,
    evidence: Rows,
    bundles: Rows,
}

impl Dataset {
    /// Checks DIR (new, or an empty folder) and creates the temporary folder next to it, before
    /// anything is read: a bad DIR is a usage error with nothing analysed.
    pub fn create(target: &Path, events: bool) -> Result<Dataset, Failure> {
        let usage = |why: String| Failure::Usage(format!("--dataset {}: {why}", target.display()));
        writer::available().map_err(usage)?;
        match std::fs::read_dir(target) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    return Err(usage(
                        "exists and is not empty; a dataset is written whole into a new folder"
                            .into(),
                    ));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(usage(e.to_string())),
        }
        let parent = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        std::fs::create_dir_all(parent).map_err(|e| usage(e.to_string()))?;
        let name = target
            .file_name()
            .ok_or_else(|| usage("not a folder name".into()))?;
        let temp = tempfile::Builder::new()
            .prefix(&format!(".{}.", name.to_string_lossy()))
            .suffix(".tmp")
            .tempdir_in(parent)
            .map_err(|e| usage(e.to_string()))?;
        Ok(Dataset {
            target: target.to_path_buf(),
            temp,
            events,
            findings: Vec::new(),
            evidence: Vec::new(),
            bundles: Vec::new(),
        })
    }

    /// Where a bundle's events go (`--events`), written while the other bundles are analysed.
    pub fn events_file(&self, bundle: &str) -> Option<PathBuf> {
        self.events.then(|| {
            self.temp
                .path()
                .join(EVENTS)
                .join(partition_folder("bundle", bundle))
                .join("part-00000.parquet")
        })
    }

    /// Adds one bundle's rows.
    pub fn add(&mut self, bundle: &str, path: &Path, outcome: Outcome<'_>) {
        let (findings, evidence, row) = rows_of(bundle, path, outcome);
        self.findings.extend(findings);
        self.evidence.extend(evidence);
        self.bundles.push(row);
    }

    /// Writes the tables and the marker, then renames the folder to DIR.
    pub fn finish(self) -> Result<(), Failure> {
        let root = self.temp.path();
        writer::write(root, &FINDINGS, &self.findings)?;
        writer::write(root, &EVIDENCE, &self.evidence)?;
        writer::write(root, &BUNDLES, &self.bundles)?;
        let mut tables: Vec<&str> = TABLES.iter().map(|t| t.name).collect();
        if self.events {
            tables.push(EVENTS);
        }
        let marker = serde_json::json!({
            "schema": SCHEMA,
            "tool": {"name": "oztrace", "version": env!("CARGO_PKG_VERSION")},
            "tables": tables,
        });
        let fail = |what: &str, e: std::io::Error| {
            Failure::Internal(format!(
                "writing the dataset {}: {what}: {e}",
                self.target.display()
            ))
        };
        std::fs::write(root.join(MARKER), format!("{marker}\n")).map_err(|e| fail(MARKER, e))?;
        let written = self.temp.keep();
        std::fs::rename(&written, &self.target)
            .map_err(|e| fail(&format!("renaming {} (left there)", written.display()), e))
    }
}

/// The findings, evidence and bundle rows of one bundle (the partition column last).
fn rows_of(bundle: &str, path: &Path, outcome: Outcome<'_>) -> (Rows, Rows, Vec<Value>) {
    let id = || text(bundle);
    let path_value = text(&path.display().to_string());
    let tool = text(env!("CARGO_PKG_VERSION"));
    let (code, document) = match outcome {
        Outcome::Failed { code, error } => {
            let mut row = vec![
                path_value,
                Value::Int(Some(code.into())),
                Value::Text(Some(error)),
                tool,
            ];
            // Everything the scan would have said is unknown.
            row.extend(BUNDLES.columns[row.len()..].iter().map(|c| match c.kind {
                Kind::Text => Value::Text(None),
                Kind::Int => Value::Int(None),
                Kind::Time => Value::Time(None),
                Kind::TextList => Value::TextList(Vec::new()),
                Kind::StructList(_) => Value::StructList(Vec::new()),
            }));
            row.push(id());
            return (Vec::new(), Vec::new(), row);
        }
        Outcome::Scanned { code, document } => (code, document),
    };
    let mut findings = Vec::new();
    let mut evidence = Vec::new();
    for f in &document.findings {
        let times: Vec<i64> = f.evidence.iter().filter_map(|e| e.ts_ms).collect();
        findings.push(vec![
            id(),
            text(f.ticket),
            text(f.family),
            text(f.severity),
            text(f.confidence),
            text(&f.confidence_reason),
            text(&f.entity),
            Value::TextList(f.related.clone()),
            text(&f.summary),
            Value::Time(times.iter().min().copied()),
            Value::Time(times.iter().max().copied()),
            Value::TextList(f.hosts.clone()),
            text(&f.fingerprint),
            text(f.rule),
        ]);
        for (seq, e) in f.evidence.iter().enumerate() {
            evidence.push(vec![
                id(),
                text(f.rule),
                text(&f.fingerprint),
                count(seq as u64),
                text(role_name(e.role)),
                Value::Time(e.ts_ms),
                text(&e.host),
                text(&e.component),
                text(&e.file),
                count(e.line),
                text(&e.text),
                text(&e.note),
            ]);
        }
    }
    let inputs = &document.inputs;
    let unreadable = inputs
        .unreadable
        .iter()
        .map(|u| vec![text(&u.path), text(&u.reason)])
        .collect();
    let gaps = document
        .gaps
        .iter()
        .map(|g| {
            vec![
                text(g.rule),
                text(&g.missing),
                Value::TextList(g.enable.clone()),
                Value::TextList(g.hosts.clone()),
            ]
        })
        .collect();
    let coverage = document
        .coverage
        .iter()
        .map(|c| {
            vec![
                text(c.rule),
                text(c.status.as_str()),
                Value::TextList(c.needs.iter().map(ToString::to_string).collect()),
                Value::TextList(c.missing.clone()),
                Value::TextList(c.hosts_missing.clone()),
            ]
        })
        .collect();
    let row = vec![
        path_value,
        Value::Int(Some(code.into())),
        Value::Text(None),
        tool,
        count(inputs.files),
        count(inputs.bytes),
        count(inputs.records),
        count(inputs.typed_events),
        count(inputs.unrecognized),
        Value::StructList(unreadable),
        Value::TextList(inputs.hosts.clone()),
        Value::TextList(inputs.components.iter().map(ToString::to_string).collect()),
        Value::TextList(inputs.releases.clone()),
        Value::Time(inputs.first_ms),
        Value::Time(inputs.last_ms),
        count(document.findings.len() as u64),
        count(document.suppressed),
        Value::StructList(gaps),
        Value::StructList(coverage),
        Value::TextList(document.warnings.clone()),
        id(),
    ];
    (findings, evidence, row)
}

/// The Parquet side (polars, behind the default `parquet` feature).
#[cfg(feature = "parquet")]
pub mod writer {
    use super::{Kind, Rows, Table, Value, partition_folder};
    use crate::Failure;
    use polars::prelude::*;
    use std::collections::BTreeMap;
    use std::path::Path;

    pub fn available() -> Result<(), String> {
        Ok(())
    }

    /// Rows grouped by their partition value (the last value of each row), in first-seen order.
    fn partitions(rows: &Rows) -> BTreeMap<String, Vec<&[Value]>> {
        let mut groups: BTreeMap<String, Vec<&[Value]>> = BTreeMap::new();
        for row in rows {
            let (last, values) = row
                .split_last()
                .expect("a partitioned row has its partition value");
            let key = match last {
                Value::Text(Some(value)) => value.clone(),
                _ => String::new(),
            };
            groups.entry(key).or_default().push(values);
        }
        groups
    }

    /// The polars type of a column.
    pub fn dtype(kind: Kind) -> DataType {
        match kind {
            Kind::Text => DataType::String,
            Kind::Int => DataType::Int64,
            Kind::Time => DataType::Datetime(TimeUnit::Milliseconds, Some(TimeZone::UTC)),
            Kind::TextList => DataType::List(Box::new(DataType::String)),
            Kind::StructList(fields) => DataType::List(Box::new(DataType::Struct(
                fields
                    .iter()
                    .map(|f| Field::new(f.name.into(), dtype(f.kind)))
                    .collect(),
            ))),
        }
    }

    /// The schema of a table's files (without its partition column).
    pub fn file_schema(table: &Table) -> Schema {
        table
            .columns
            .iter()
            .map(|c| Field::new(c.name.into(), dtype(c.kind)))
            .collect()
    }

    fn build(e: PolarsError) -> Failure {
        Failure::Internal(format!("building a dataset table: {e}"))
    }

    /// One column of values (all of `column.kind`) as a series of its type.
    fn series(column: &super::Column, values: &[&Value]) -> Result<Series, Failure> {
        let name: PlSmallStr = column.name.into();
        let series = match column.kind {
            Kind::Text => Series::new(
                name,
                values
                    .iter()
                    .map(|v| match v {
                        Value::Text(t) => t.as_deref(),
                        _ => None,
                    })
                    .collect::<Vec<_>>(),
            ),
            Kind::Int | Kind::Time => Series::new(
                name,
                values
                    .iter()
                    .map(|v| match v {
                        Value::Int(n) | Value::Time(n) => *n,
                        _ => None,
                    })
                    .collect::<Vec<_>>(),
            ),
            Kind::TextList => {
                let lists: ListChunked = values
                    .iter()
                    .map(|v| match v {
                        Value::TextList(items) => {
                            Some(Series::new(PlSmallStr::EMPTY, items.as_slice()))
                        }
                        _ => None,
                    })
                    .collect();
                lists.with_name(name).into_series()
            }
            Kind::StructList(fields) => {
                let mut lists = Vec::with_capacity(values.len());
                for v in values {
                    let Value::StructList(items) = v else {
                        lists.push(None);
                        continue;
                    };
                    let columns = fields
                        .iter()
                        .enumerate()
                        .map(|(i, field)| {
                            let field_values: Vec<&Value> =
                                items.iter().map(|item| &item[i]).collect();
                            series(field, &field_values)
                        })
                        .collect::<Result<Vec<Series>, Failure>>()?;
                    let entry =
                        StructChunked::from_series("entry".into(), items.len(), columns.iter())
                            .map_err(build)?;
                    lists.push(Some(entry.into_series()));
                }
                let lists: ListChunked = lists.into_iter().collect();
                lists.with_name(name).into_series()
            }
        };
        series.cast(&dtype(column.kind)).map_err(build)
    }

    /// The rows (without their partition value) as a frame of the table's file schema.
    fn frame(table: &Table, rows: &[&[Value]]) -> Result<DataFrame, Failure> {
        let columns = table
            .columns
            .iter()
            .enumerate()
            .map(|(i, column)| {
                let values: Vec<&Value> = rows.iter().map(|row| &row[i]).collect();
                series(column, &values).map(polars::prelude::Column::from)
            })
            .collect::<Result<Vec<_>, Failure>>()?;
        DataFrame::new(rows.len(), columns).map_err(build)
    }

    fn write_file(path: &Path, frame: &mut DataFrame) -> Result<(), Failure> {
        ParquetWriter::new(create_file(path)?)
            .finish(frame)
            .map(drop)
            .map_err(|e| Failure::Internal(format!("writing {}: {e}", path.display())))
    }

    /// A new file of the dataset, its folder made if need be.
    pub fn create_file(path: &Path) -> Result<std::fs::File, Failure> {
        let fail =
            |e: std::io::Error| Failure::Internal(format!("writing {}: {e}", path.display()));
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(fail)?;
        }
        std::fs::File::create(path).map_err(fail)
    }

    /// Writes a table's folder under `root`: one file per partition, or one file.
    pub fn write(root: &Path, table: &Table, rows: &Rows) -> Result<(), Failure> {
        let folder = root.join(table.name);
        std::fs::create_dir_all(&folder)
            .map_err(|e| Failure::Internal(format!("writing {}: {e}", folder.display())))?;
        match table.partition {
            Some(column) => {
                for (value, rows) in partitions(rows) {
                    let path = folder
                        .join(partition_folder(column, &value))
                        .join("part-00000.parquet");
                    write_file(&path, &mut frame(table, &rows)?)?;
                }
            }
            None if rows.is_empty() => {}
            None => {
                let rows: Vec<&[Value]> = rows.iter().map(Vec::as_slice).collect();
                write_file(
                    &folder.join("part-00000.parquet"),
                    &mut frame(table, &rows)?,
                )?;
            }
        }
        Ok(())
    }
}

/// Without polars there is no Parquet writer: `--dataset` is a usage error before anything is
/// read.
#[cfg(not(feature = "parquet"))]
pub mod writer {
    use super::{Rows, Table};
    use crate::Failure;
    use std::path::Path;

    pub fn available() -> Result<(), String> {
        Err(
            "this oztrace was built without the `parquet` feature, which datasets need; \
             rebuild with default features"
                .into(),
        )
    }

    pub fn write(_root: &Path, _table: &Table, _rows: &Rows) -> Result<(), Failure> {
        Err(Failure::Usage(available().unwrap_err()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(paths: &[&str]) -> Vec<String> {
        let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
        bundle_ids(&paths).unwrap()
    }

    /// The Spark job names bundles as `--dataset` does: its copy of the extension list is this
    /// one, in the same order.
    #[test]
    fn the_spark_job_strips_the_same_archive_extensions() {
        let job = include_str!("../integrations/spark/oztrace_spark.py");
        let start = job.find("ARCHIVE_EXTENSIONS = (").expect("the job's list");
        let list = &job[start..];
        let list = &list[..list.find("\n)").expect("its end")];
        let theirs: Vec<&str> = list
            .lines()
            .skip(1)
            .map(|line| line.trim().trim_end_matches(',').trim_matches('"'))
            .collect();
        assert_eq!(theirs, ARCHIVE_EXTENSIONS);
    }

    #[test]
    fn a_bundle_is_named_by_its_file_or_folder_without_archive_extensions() {
        assert_eq!(
            ids(&[
                "archive/SR-1042.tar.gz",
                "archive/SR-1043/",
                "x/SR-1044.TGZ",
                "-"
            ]),
            ["SR-1042", "SR-1043", "SR-1044", "stdin"]
        );
        // Hadoop URIs end the same way as local paths.
        assert_eq!(
            ids(&["s3a://fleet/2026/11/SR-7.tar.zst", "file:/data/SR-8.zip"]),
            ["SR-7", "SR-8"]
        );
    }

    #[test]
    fn equal_names_take_as_many_parent_folders_as_tell_them_apart() {
        assert_eq!(
            ids(&[
                "t/2026/a/bundle.tar.gz",
                "t/2027/a/bundle.tgz",
                "t/2027/b/bundle",
                "t/other"
            ]),
            ["2026/a/bundle", "2027/a/bundle", "b/bundle", "other"]
        );
        let twice = bundle_ids(&[PathBuf::from("a/x"), PathBuf::from("a/x/")]);
        assert!(matches!(twice, Err(Failure::Usage(m)) if m.contains("same bundle")));
    }

    #[test]
    fn partition_folders_escape_as_hive_does() {
        assert_eq!(
            partition_folder("rule", "dropped-actions"),
            "rule=dropped-actions"
        );
        assert_eq!(
            partition_folder("bundle", "2026/SR 1:2=%"),
            "bundle=2026%2FSR 1%3A2%3D%25"
        );
        assert_eq!(
            partition_folder("bundle", ""),
            "bundle=__HIVE_DEFAULT_PARTITION__"
        );
    }

    #[test]
    fn rows_follow_the_declared_columns() {
        use oztrace_rules::coverage::{Coverage, Status};
        let mut document = crate::report::fixture::document();
        document.coverage = vec![Coverage {
            rule: "dropped-actions",
            status: Status::Partial,
            needs: vec!["datanode", "scm"],
            missing: vec!["datanode service logs (datanode) missing on dn3".into()],
            hosts_missing: vec!["dn3".into()],
        }];
        document.warnings =
            vec!["conf/ozone-site.xml: x: not a duration; the default applies".into()];
        let scanned = Outcome::Scanned {
            code: 1,
            document: &document,
        };
        let (findings, evidence, bundle) = rows_of("b1", Path::new("in/b1"), scanned);
        assert_eq!(findings.len(), document.findings.len());
        let evidence_lines: usize = document.findings.iter().map(|f| f.evidence.len()).sum();
        assert_eq!(evidence.len(), evidence_lines);
        for (table, row) in [
            (&FINDINGS, &findings[0]),
            (&EVIDENCE, &evidence[0]),
            (&BUNDLES, &bundle),
        ] {
            let width = table.columns.len() + usize::from(table.partition.is_some());
            assert_eq!(row.len(), width, "{}", table.name);
            for (column, value) in table.columns.iter().zip(row) {
                let fits = matches!(
                    (column.kind, value),
                    (Kind::Text, Value::Text(_))
                        | (Kind::Int, Value::Int(_))
                        | (Kind::Time, Value::Time(_))
                        | (Kind::TextList, Value::TextList(_))
                        | (Kind::StructList(_), Value::StructList(_))
                );
                assert!(fits, "{}.{}: {value:?}", table.name, column.name);
            }
        }
        // The partition value closes the row.
        assert_eq!(findings[0].last(), Some(&text(document.findings[0].rule)));
        assert_eq!(bundle.last(), Some(&text("b1")));
        assert_eq!(bundle[1], Value::Int(Some(1)));
        assert_eq!(bundle[2], Value::Text(None));
        let Value::StructList(unreadable) = &bundle[9] else {
            panic!("unreadable is a list of structs");
        };
        assert_eq!(
            unreadable[0],
            [text("dn3/ozone.log.gz"), text("corrupt gzip stream")]
        );
        let at = |name: &str| BUNDLES.columns.iter().position(|c| c.name == name).unwrap();
        assert_eq!(
            bundle[at("coverage")],
            Value::StructList(vec![vec![
                text("dropped-actions"),
                text("partial"),
                Value::TextList(vec!["datanode".into(), "scm".into()]),
                Value::TextList(vec![
                    "datanode service logs (datanode) missing on dn3".into()
                ]),
                Value::TextList(vec!["dn3".into()]),
            ]])
        );
        assert_eq!(
            bundle[at("warnings")],
            Value::TextList(document.warnings.clone())
        );

        let failed = Outcome::Failed {
            code: 4,
            error: "oztrace was killed by signal 9".into(),
        };
        let (findings, evidence, bundle) = rows_of("b2", Path::new("b2"), failed);
        assert!(findings.is_empty() && evidence.is_empty());
        assert_eq!(bundle.len(), BUNDLES.columns.len() + 1);
        assert_eq!(bundle[2], text("oztrace was killed by signal 9"));
        assert_eq!(bundle[4], Value::Int(None));
    }
}
