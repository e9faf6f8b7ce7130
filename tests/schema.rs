//! Every JSON output against the JSON Schemas in docs/schema/ (the contract's machine-readable
//! half): `scan --format json` and `jsonl` on every sample, `scan --each` in both, `events
//! --format jsonl` (with --all, in time and input order), and `stats --format json` (with and
//! without a time window).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn validator(schema: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/schema").join(schema)).unwrap();
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::draft202012::new(&schema).expect("the schema is a valid 2020-12 schema")
}

/// A validator for one `$defs` entry of the findings schema.
fn definition(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/schema/findings.schema.json")).unwrap();
    let mut schema: Value = serde_json::from_str(&text).unwrap();
    schema["$ref"] = Value::String(format!("#/$defs/{name}"));
    if let Some(object) = schema.as_object_mut() {
        object.remove("required");
        object.remove("properties");
        object.remove("type");
    }
    jsonschema::draft202012::new(&schema).unwrap()
}

fn assert_valid(validator: &jsonschema::Validator, value: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

fn samples() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("samples"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("EXPECTED.json").exists())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "the samples are there");
    dirs
}

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(args)
        .output()
        .expect("oztrace runs");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn parse(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
}

#[test]
fn scan_json_and_jsonl_of_every_sample_follow_the_findings_schema() {
    let document = validator("findings.schema.json");
    let finding = definition("finding");
    let summary = definition("summary");
    let mut findings = 0;
    for dir in samples() {
        let dir = dir.to_str().unwrap();
        let doc = parse(&run(&["scan", "--format", "json", dir]));
        assert_valid(&document, &doc, dir);
        findings += doc["findings"].as_array().unwrap().len();
        let out = run(&["scan", "--format", "jsonl", dir]);
        let lines: Vec<&str> = out.lines().collect();
        let (last, rest) = lines.split_last().unwrap();
        for line in rest {
            assert_valid(&finding, &parse(line), dir);
        }
        assert_valid(&summary, &parse(last), dir);
    }
    assert!(findings > 10, "the bug samples have findings to check");
}

#[test]
fn scan_each_lines_follow_the_findings_schema() {
    let samples = samples();
    let inputs: Vec<&str> = samples
        .iter()
        .take(4)
        .map(|p| p.to_str().unwrap())
        .collect();
    let document = validator("findings.schema.json");
    let mut args = vec!["scan", "--each", "--format", "json"];
    args.extend(&inputs);
    let out = run(&args);
    assert_eq!(out.lines().count(), inputs.len());
    for line in out.lines() {
        let doc = parse(line);
        assert!(doc["input"].is_string());
        assert_valid(&document, &doc, line);
    }
    let (finding, summary) = (definition("finding"), definition("summary"));
    args[3] = "jsonl";
    for line in run(&args).lines() {
        let value = parse(line);
        let which = if value["schema"] == "oztrace.summary/v1" {
            &summary
        } else {
            &finding
        };
        assert_valid(which, &value, line);
    }
}

#[test]
fn event_records_follow_the_event_schema() {
    let event = validator("event.schema.json");
    for name in [
        "HDDS-17400-bug-stale-open-replica",
        "HDDS-16825-bug-writer-fails-after-autocommit",
        "HDDS-17675-bug-debug",
    ] {
        let dir = root().join("samples").join(name);
        let dir = dir.to_str().unwrap();
        for sort in ["time", "input"] {
            let out = run(&["events", "--all", "--sort", sort, dir]);
            assert!(out.lines().count() > 50, "{name}");
            for line in out.lines() {
                assert_valid(&event, &parse(line), line);
            }
        }
    }
}

#[test]
fn stats_follow_the_stats_schema() {
    let stats = validator("stats.schema.json");
    let dir = root().join("samples/HDDS-17219-bug-follower-abort-race");
    let dir = dir.to_str().unwrap();
    assert_valid(
        &stats,
        &parse(&run(&["stats", "--format", "json", dir])),
        "stats",
    );
    let windowed = parse(&run(&[
        "stats",
        "--format",
        "json",
        "--since",
        "2026-11-28 02:00",
        "--until",
        "2026-11-28",
        dir,
    ]));
    assert_valid(&stats, &windowed, "stats --since");
    assert!(windowed["window"]["events"].as_u64().unwrap() > 0);
}

#[test]
fn the_schemas_reject_what_breaks_the_contract() {
    let document = validator("findings.schema.json");
    let dir = root().join("samples/HDDS-17400-bug-stale-open-replica");
    let good = parse(&run(&["scan", "--format", "json", dir.to_str().unwrap()]));
    assert!(document.is_valid(&good));
    let mut bad = good.clone();
    bad["findings"][0]
        .as_object_mut()
        .unwrap()
        .remove("fingerprint");
    assert!(
        !document.is_valid(&bad),
        "a finding without its fingerprint"
    );
    let mut bad = good.clone();
    bad["findings"][0]["confidence"] = Value::String("sure".into());
    assert!(
        !document.is_valid(&bad),
        "a confidence word the contract lacks"
    );
    let mut bad = good;
    bad["findings"][0]["evidence"][0]["ts"] = Value::String("2026-09-14 07:17:51".into());
    assert!(!document.is_valid(&bad), "a time that is not RFC 3339 UTC");
    let event = validator("event.schema.json");
    assert!(!event.is_valid(&serde_json::json!({"kind": "x"})));
}

#[test]
fn containers_json_of_every_sample_follows_the_containers_schema() {
    let document = validator("containers.schema.json");
    let mut containers = 0;
    for dir in samples() {
        let dir = dir.to_str().unwrap();
        let doc = parse(&run(&[
            "containers",
            "--format",
            "json",
            "--limit",
            "0",
            dir,
        ]));
        assert_valid(&document, &doc, dir);
        containers += doc["containers"].as_array().unwrap().len();
    }
    assert!(
        containers > 26,
        "the samples list containers ({containers})"
    );
}
