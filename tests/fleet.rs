//! Archives of bundles: `scan --each` on both cores in input order, a bundle as a tar on
//! standard input, and (with polars) the `--dataset` tables and the README's named queries
//! answered by `oztrace query` on the samples' dataset.

mod common;

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn oztrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(args)
        .output()
        .expect("oztrace runs")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

/// A sample bundle as one tar file, its members relative to the bundle.
fn tar_of(sample: &Path, target: &Path) {
    let mut builder = tar::Builder::new(std::fs::File::create(target).unwrap());
    builder.append_dir_all(".", sample).unwrap();
    builder.finish().unwrap();
}

#[test]
fn a_tar_on_standard_input_gives_the_report_of_the_same_tar_as_a_file() {
    let dir = tempfile::tempdir().unwrap();
    for sample in common::samples() {
        let archive = dir.path().join("bundle.tar");
        tar_of(&sample, &archive);
        let as_file = json(&oztrace(&[
            "scan",
            "--format",
            "json",
            archive.to_str().unwrap(),
        ]));
        let piped = Command::new(env!("CARGO_BIN_EXE_oztrace"))
            .args(["scan", "--format", "json", "-"])
            .stdin(Stdio::from(std::fs::File::open(&archive).unwrap()))
            .output()
            .unwrap();
        let piped = json(&piped);
        let name = sample.display();
        assert_eq!(piped["findings"], as_file["findings"], "{name}");
        assert_eq!(piped["gaps"], as_file["gaps"], "{name}");
        for key in [
            "files",
            "bytes",
            "records",
            "hosts",
            "components",
            "releases",
        ] {
            assert_eq!(
                piped["inputs"][key], as_file["inputs"][key],
                "{name}: {key}"
            );
        }
    }
}

#[test]
fn each_analyses_bundles_at_once_and_reports_them_in_input_order() {
    let samples: Vec<String> = common::samples()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let run = |jobs: &str| {
        let mut args = vec!["scan", "--each", "--format", "jsonl", "-j", jobs];
        args.extend(samples.iter().map(String::as_str));
        oztrace(&args)
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one.status.code(), Some(1));
    assert_eq!(two.status.code(), one.status.code());
    assert_eq!(two.stdout, one.stdout);
    assert_eq!(two.stderr, one.stderr);
    // The summary line of each input closes its report, in argument order.
    let inputs: Vec<String> = String::from_utf8_lossy(&two.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["schema"] == "oztrace.summary/v1")
        .map(|v| v["input"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(inputs, samples);
}

#[test]
fn a_dataset_needs_each_and_a_new_folder() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::samples()[0].display().to_string();
    let target = dir.path().join("fleet");
    let out = oztrace(&["scan", &sample, "--dataset", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--each"));
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("notes.txt"), "mine").unwrap();
    let out = oztrace(&[
        "scan",
        "--each",
        &sample,
        "--dataset",
        target.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "nothing is analysed");
    // Nothing is written over what is there.
    assert_eq!(
        std::fs::read_to_string(target.join("notes.txt")).unwrap(),
        "mine"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn findings_name_their_rule_family() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/HDDS-17675-bug-info");
    let families = |family: &[&str]| -> Vec<(String, String)> {
        let mut args = vec!["scan", "--format", "json"];
        args.extend(family);
        args.push(sample.to_str().unwrap());
        let mut found: Vec<(String, String)> = json(&oztrace(&args))["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["family"].as_str().unwrap().into(),
                    f["rule"].as_str().unwrap().into(),
                )
            })
            .collect();
        found.dedup();
        found
    };
    // The bug's signature, and the UNHEALTHY replica the failed write left.
    assert_eq!(
        families(&[]),
        [
            ("signature".to_string(), "reused-write-future".to_string()),
            (
                "health".to_string(),
                "container-unhealthy-replica".to_string()
            ),
        ]
    );
    // `--family` takes the plural the issue wrote beside the contract's name.
    let signatures = families(&["--family", "signatures"]);
    assert_eq!(families(&["--family", "signature"]), signatures);
    assert!(signatures.iter().all(|(family, _)| family == "signature"));
    assert!(
        families(&["--family", "health"])
            .iter()
            .all(|(family, _)| family == "health")
    );
}

#[cfg(feature = "parquet")]
mod dataset {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};
    use std::io::{Read, Write};
    use std::path::PathBuf;

    fn copy_tree(from: &Path, to: &Path, edit: &dyn Fn(&str) -> String) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy_tree(&entry.path(), &target, edit);
                continue;
            }
            let bytes = std::fs::read(entry.path()).unwrap();
            let gzipped = entry.path().extension().is_some_and(|e| e == "gz");
            let text = if gzipped {
                let mut text = String::new();
                flate2::read::GzDecoder::new(&bytes[..])
                    .read_to_string(&mut text)
                    .unwrap();
                text
            } else {
                String::from_utf8(bytes).unwrap()
            };
            let text = edit(&text);
            let bytes = if gzipped {
                let mut enc =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                enc.write_all(text.as_bytes()).unwrap();
                enc.finish().unwrap()
            } else {
                text.into_bytes()
            };
            std::fs::write(target, bytes).unwrap();
        }
    }

    /// The samples, and two bundles made of them: the cluster of the HDDS-17400 sample a month
    /// later, when the same container is resurrected again, and two clusters' logs in one bundle
    /// (two signatures).
    fn bundles(root: &Path) -> Vec<PathBuf> {
        let sample = |name: &str| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("samples")
                .join(name)
        };
        let later = root.join("HDDS-17400-stale-open-replica-a-month-later");
        copy_tree(
            &sample("HDDS-17400-bug-stale-open-replica"),
            &later,
            &|text| {
                text.replace("2026-09-13", "2026-10-13")
                    .replace("2026-09-14", "2026-10-14")
            },
        );
        let both = root.join("two-clusters");
        copy_tree(
            &sample("HDDS-17400-bug-stale-open-replica"),
            &both.join("a"),
            &|t| t.into(),
        );
        copy_tree(&sample("HDDS-17269-bug-info"), &both.join("b"), &|t| {
            t.into()
        });
        let mut all = common::samples();
        all.extend([later, both]);
        all
    }

    /// The README's named queries, in order.
    fn named_queries() -> Vec<String> {
        let readme = include_str!("../README.md");
        let section = readme
            .split("### Named queries")
            .nth(1)
            .expect("the README has named queries");
        let section = section.split("\n## ").next().unwrap();
        section
            .split("```sql\n")
            .skip(1)
            .map(|block| block.split("```").next().unwrap().to_string())
            .collect()
    }

    fn query(dataset: &Path, sql: &str) -> Vec<Value> {
        let out = oztrace(&["query", dataset.to_str().unwrap(), sql, "--format", "json"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Each bundle's findings document, read on its own (the JSON, not the dataset).
    fn documents(bundles: &[PathBuf]) -> Vec<(String, Value)> {
        bundles
            .iter()
            .map(|b| {
                let id = b.file_name().unwrap().to_string_lossy().into_owned();
                (
                    id,
                    json(&oztrace(&["scan", "--format", "json", b.to_str().unwrap()])),
                )
            })
            .collect()
    }

    #[test]
    fn the_named_queries_answer_on_the_samples_dataset() {
        let dir = tempfile::tempdir().unwrap();
        let bundles = bundles(dir.path());
        let dataset = dir.path().join("fleet");
        let mut args = vec!["scan", "--each", "--format", "jsonl", "--dataset"];
        args.push(dataset.to_str().unwrap());
        args.extend(bundles.iter().map(|b| b.to_str().unwrap()));
        let out = oztrace(&args);
        assert_eq!(out.status.code(), Some(1));
        let documents = documents(&bundles);
        let queries = named_queries();
        assert_eq!(queries.len(), 3);

        // Findings per rule per month.
        let mut expected: BTreeMap<(String, i64, i64), (u64, BTreeSet<String>)> = BTreeMap::new();
        for (id, doc) in &documents {
            for f in doc["findings"].as_array().unwrap() {
                let first = f["first_seen"].as_str().unwrap();
                let year = first[..4].parse().unwrap();
                let month = first[5..7].parse().unwrap();
                let entry = expected
                    .entry((f["rule"].as_str().unwrap().into(), year, month))
                    .or_default();
                entry.0 += 1;
                entry.1.insert(id.clone());
            }
        }
        let rows = query(&dataset, &queries[0]);
        let answered: BTreeMap<(String, i64, i64), (u64, usize)> = rows
            .iter()
            .map(|r| {
                let key = (
                    r["rule"].as_str().unwrap().to_string(),
                    r["year"].as_i64().unwrap(),
                    r["month"].as_i64().unwrap(),
                );
                let counts = (
                    r["findings"].as_u64().unwrap(),
                    r["bundles"].as_u64().unwrap() as usize,
                );
                (key, counts)
            })
            .collect();
        let expected_counts: BTreeMap<_, _> = expected
            .iter()
            .map(|(k, (n, ids))| (k.clone(), (*n, ids.len())))
            .collect();
        assert_eq!(answered, expected_counts);
        assert!(answered.len() >= 5, "{answered:?}");

        // Bundles with more than one signature: only the one holding two clusters.
        let rows = query(&dataset, &queries[1]);
        let multi: Vec<(&str, u64)> = rows
            .iter()
            .map(|r| {
                (
                    r["bundle"].as_str().unwrap(),
                    r["signatures"].as_u64().unwrap(),
                )
            })
            .collect();
        let expected: Vec<(&str, u64)> = documents
            .iter()
            .filter_map(|(id, doc)| {
                let rules: BTreeSet<&str> = doc["findings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|f| f["family"] == "signature")
                    .map(|f| f["rule"].as_str().unwrap())
                    .collect();
                (rules.len() > 1).then_some((id.as_str(), rules.len() as u64))
            })
            .collect();
        assert_eq!(multi, expected);
        assert_eq!(multi, [("two-clusters", 2)]);

        // Containers resurrected twice: #3107 in September and a month later; its vector export
        // (the same resurrection) and the two-cluster bundle's copy count once.
        let rows = query(&dataset, &queries[2]);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0]["container"], "container:3107");
        assert_eq!(rows[0]["resurrections"], 2);
        assert_eq!(rows[0]["bundles"], 4);
        assert_eq!(rows[0]["first_time"], "2026-09-14T08:32:58.452Z");
        assert_eq!(rows[0]["last_time"], "2026-10-14T08:32:58.452Z");
    }

    #[test]
    fn the_tables_hold_every_finding_evidence_line_and_bundle() {
        let dir = tempfile::tempdir().unwrap();
        let samples = common::samples();
        let dataset = dir.path().join("fleet");
        let mut args = vec![
            "scan",
            "--each",
            "--dataset",
            dataset.to_str().unwrap(),
            "--events",
        ];
        args.extend(samples.iter().map(|b| b.to_str().unwrap()));
        assert_eq!(oztrace(&args).status.code(), Some(1));
        let documents = documents(&samples);
        let findings: usize = documents
            .iter()
            .map(|(_, d)| d["findings"].as_array().unwrap().len())
            .sum();
        let evidence: usize = documents
            .iter()
            .flat_map(|(_, d)| d["findings"].as_array().unwrap().iter())
            .map(|f| f["evidence"].as_array().unwrap().len())
            .sum();
        let count = |sql: &str| query(&dataset, sql)[0]["n"].as_u64().unwrap() as usize;
        assert_eq!(count("SELECT COUNT(*) AS n FROM findings"), findings);
        assert_eq!(count("SELECT COUNT(*) AS n FROM evidence"), evidence);
        assert_eq!(count("SELECT COUNT(*) AS n FROM bundles"), samples.len());
        // A bundle row says what its document's inputs say.
        for (id, doc) in &documents {
            let rows = query(
                &dataset,
                &format!("SELECT * FROM bundles WHERE bundle = '{id}'"),
            );
            let row = &rows[0];
            let inputs = &doc["inputs"];
            for key in [
                "files",
                "bytes",
                "records",
                "typed_events",
                "hosts",
                "releases",
                "first_seen",
            ] {
                assert_eq!(row[key], inputs[key], "{id}: {key}");
            }
            assert_eq!(row["findings"], doc["findings"].as_array().unwrap().len());
            assert_eq!(row["coverage"], doc["coverage"], "{id}: coverage");
            assert_eq!(row["warnings"], serde_json::json!([]), "{id}: warnings");
            assert_eq!(row["error"], Value::Null);
            assert!(row["path"].as_str().unwrap().ends_with(id.as_str()));
        }
        // Every typed event, as `events` writes it, per bundle.
        let sample = &samples[0];
        let id = sample.file_name().unwrap().to_string_lossy();
        let events = oztrace(&["events", "--format", "jsonl", sample.to_str().unwrap()]);
        let lines = String::from_utf8_lossy(&events.stdout).lines().count();
        let sql = format!("SELECT COUNT(*) AS n FROM events WHERE bundle = '{id}'");
        assert_eq!(count(&sql), lines);
        // The dataset is whole: the temporary folder was renamed, nothing is left beside it.
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1);
    }

    /// Standard input can be read only once: its events table holds what that one read typed,
    /// the events `oztrace events` gives from the same bytes.
    #[test]
    fn events_of_standard_input_come_from_its_one_read() {
        let dir = tempfile::tempdir().unwrap();
        let log = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/HDDS-17269-bug-debug/docker-compose.log");
        let bytes = std::fs::read(log).unwrap();
        let with_stdin = |args: &[&str]| -> Output {
            let mut child = Command::new(env!("CARGO_BIN_EXE_oztrace"))
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(&bytes).unwrap();
            child.wait_with_output().unwrap()
        };
        let dataset = dir.path().join("fleet");
        let scan = with_stdin(&[
            "scan",
            "--each",
            "--dataset",
            dataset.to_str().unwrap(),
            "--events",
            "-",
        ]);
        assert!(
            matches!(scan.status.code(), Some(0 | 1)),
            "{}",
            String::from_utf8_lossy(&scan.stderr)
        );
        let events = with_stdin(&["events", "--format", "jsonl", "-"]);
        let lines = String::from_utf8_lossy(&events.stdout).lines().count();
        assert!(lines > 100, "{lines} events");
        let rows = query(&dataset, "SELECT COUNT(*) AS n FROM events");
        assert_eq!(rows[0]["n"].as_u64(), Some(lines as u64));
    }

    #[test]
    fn query_formats_and_errors() {
        let dir = tempfile::tempdir().unwrap();
        let sample = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples")
            .join("HDDS-17400-bug-stale-open-replica");
        let dataset = dir.path().join("fleet");
        let d = dataset.to_str().unwrap();
        oztrace(&["scan", "--each", sample.to_str().unwrap(), "--dataset", d]);
        let sql = "SELECT entity, hosts, first_seen FROM findings";
        let text = String::from_utf8(oztrace(&["query", d, sql]).stdout).unwrap();
        assert!(
            text.contains("container:3107") && text.ends_with("1 row\n"),
            "{text}"
        );
        let csv = String::from_utf8(oztrace(&["query", d, sql, "--format", "csv"]).stdout).unwrap();
        // Lists as JSON in a quoted field, times in RFC 3339: as the findings document has them.
        let doc = json(&oztrace(&[
            "scan",
            "--format",
            "json",
            sample.to_str().unwrap(),
        ]));
        let finding = &doc["findings"][0];
        let hosts = finding["hosts"].to_string().replace('"', "\"\"");
        let row = format!(
            "container:3107,\"{hosts}\",{}",
            finding["first_seen"].as_str().unwrap()
        );
        assert_eq!(
            csv.lines().collect::<Vec<_>>(),
            ["entity,hosts,first_seen", row.as_str()]
        );
        let out = dir.path().join("result.parquet");
        let written = oztrace(&[
            "query",
            d,
            sql,
            "--format",
            "parquet",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(written.status.code(), Some(0));
        use polars::prelude::{ParquetReader, SerReader};
        let frame = ParquetReader::new(std::fs::File::open(&out).unwrap())
            .finish()
            .unwrap();
        assert_eq!(frame.shape(), (1, 3));
        for bad in [
            "SELECT nothing FROM findings",
            "SELEC * FROM findings",
            "SELECT * FROM events",
        ] {
            let out = oztrace(&["query", d, bad]);
            assert_eq!(out.status.code(), Some(2), "{bad}");
        }
        let out = oztrace(&["query", dir.path().to_str().unwrap(), sql]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("not an oztrace dataset"));

        // Outputs as every command's: never one of the dataset's files, never into a folder
        // that cannot hold it, and a closed pipe is not an error.
        let marker = dataset.join("dataset.json");
        let before = std::fs::read(&marker).unwrap();
        let into_input = oztrace(&["query", d, sql, "-o", marker.to_str().unwrap()]);
        assert_eq!(into_input.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&into_input.stderr).contains("one of the inputs"));
        assert_eq!(std::fs::read(&marker).unwrap(), before);
        let nowhere = dir.path().join("no/such/folder/r.csv");
        let out = oztrace(&["query", d, sql, "-o", nowhere.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        let out = common::closed_pipe(&["query", d, sql]);
        assert_eq!(out.status.code(), Some(0));
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    #[test]
    fn a_closed_pipe_ends_the_reports_but_not_the_dataset() {
        let dir = tempfile::tempdir().unwrap();
        let samples = common::samples();
        let dataset = dir.path().join("fleet");
        let mut args = vec!["scan", "--each", "--dataset", dataset.to_str().unwrap()];
        args.extend(samples.iter().map(|b| b.to_str().unwrap()));
        let out = common::closed_pipe(&args);
        // The run's status: the samples hold findings.
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let bundles = query(&dataset, "SELECT COUNT(*) AS n FROM bundles");
        assert_eq!(bundles[0]["n"], samples.len());
    }
}
