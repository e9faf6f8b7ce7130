//! `scan`'s prefilter leaves unparsed the OM audit records no consumer needs
//! (oztrace_analyzer::prefilter). It must change nothing: on every sample and on a generated
//! bundle with every scenario injected, the report (findings with their evidence, gaps, coverage
//! counts) is the same with the prefilter on and off; and `stats`, which counts OM audit key
//! records without building them, counts what the full path counts. `replay --entity` reads with
//! the prefilter too, every event naming its entity kept: it prints what a read of every record
//! prints.

mod common;

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn report(dir: &Path, prefilter: bool) -> Value {
    let mut command = Command::new(env!("CARGO_BIN_EXE_oztrace"));
    command.args(["scan", "--format", "json"]);
    if !prefilter {
        command.arg("--no-prefilter");
    }
    let out = command.arg(dir).output().expect("oztrace runs");
    let mut json: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{}: not JSON ({e})", dir.display()));
    // The tool's version and run time are not part of the comparison.
    if let Some(map) = json.as_object_mut() {
        map.remove("tool");
    }
    json
}

/// Records, typed events and unrecognized records summed over `stats --format json`'s files.
fn stats_totals(dir: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(["stats", "--format", "json"])
        .arg(dir)
        .output()
        .expect("oztrace runs");
    let json: Value = serde_json::from_slice(&out.stdout).expect("stats JSON");
    let files = json["files"].as_array().cloned().unwrap_or_default();
    let sum = |field: &str| {
        files
            .iter()
            .map(|f| f[field].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    serde_json::json!({
        "records": sum("records"),
        "typed_events": sum("typed_events"),
        "unrecognized": sum("unrecognized"),
    })
}

fn same_with_and_without(dir: &Path) -> Result<(), String> {
    let (on, off) = (report(dir, true), report(dir, false));
    for part in ["findings", "gaps", "inputs", "coverage"] {
        if on[part] != off[part] {
            return Err(format!(
                "{}: `{part}` differs with the prefilter:\non:  {}\noff: {}",
                dir.display(),
                on[part],
                off[part]
            ));
        }
    }
    let full = &off["inputs"];
    let counted = stats_totals(dir);
    for field in ["records", "typed_events", "unrecognized"] {
        if counted[field] != full[field] {
            return Err(format!(
                "{}: stats counts {field} {} where the full path counts {}",
                dir.display(),
                counted[field],
                full[field]
            ));
        }
    }
    Ok(())
}

fn replay(dir: &Path, entity: &str, prefilter: bool) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_oztrace"));
    command.args(["replay", "--entity", entity]);
    if !prefilter {
        command.arg("--no-prefilter");
    }
    let out = command.arg(dir).output().expect("oztrace runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The entities replayed in `dir`: every finding's entity and related ones, and the first of
/// each kind the events name (also those no machine steps).
fn entities_to_replay(dir: &Path) -> Vec<String> {
    let mut entities = std::collections::BTreeSet::new();
    for finding in report(dir, true)["findings"]
        .as_array()
        .into_iter()
        .flatten()
    {
        entities.extend(finding["entity"].as_str().map(str::to_string));
        for related in finding["related"].as_array().into_iter().flatten() {
            entities.extend(related.as_str().map(str::to_string));
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(["events", "--format", "jsonl"])
        .arg(dir)
        .output()
        .expect("oztrace runs");
    let mut kinds = std::collections::BTreeSet::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let event: Value = serde_json::from_str(line).expect("an event per line");
        for entity in event["entities"].as_array().into_iter().flatten() {
            let entity = entity.as_str().expect("an entity");
            if kinds.insert(entity.split(':').next().unwrap_or_default().to_string()) {
                entities.insert(entity.to_string());
            }
        }
    }
    entities.into_iter().collect()
}

/// Replays each of `entities` in `dir` with and without the prefilter: the first difference.
fn same_replays(dir: &Path, entities: &[String]) -> Result<(), String> {
    for entity in entities {
        let (on, off) = (replay(dir, entity, true), replay(dir, entity, false));
        if on != off {
            return Err(format!(
                "{}: `replay --entity {entity}` differs with the prefilter:\non:\n{on}\noff:\n{off}",
                dir.display()
            ));
        }
    }
    Ok(())
}

#[test]
fn every_sample_replays_the_same_with_and_without_the_prefilter() {
    let mut replayed = Vec::new();
    let mut problems = Vec::new();
    for dir in common::samples() {
        let entities = entities_to_replay(&dir);
        match same_replays(&dir, &entities) {
            Ok(()) => replayed.extend(entities),
            Err(problem) => problems.push(problem),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Keys (their own OM audit records read), and entities no OM audit record names.
    for kind in ["key:", "container:", "datanode:", "pipeline:"] {
        assert!(
            replayed.iter().any(|e| e.starts_with(kind)),
            "no {kind} entity replayed"
        );
    }
}

#[test]
fn every_sample_gives_the_same_report_with_and_without_the_prefilter() {
    let dirs = common::samples();
    assert!(dirs.len() > 20);
    let problems: Vec<String> = dirs
        .iter()
        .filter_map(|d| same_with_and_without(d).err())
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_generated_bundle_gives_the_same_report_with_and_without_the_prefilter() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bundle = dir.path().join("bundle");
    let mut options = oztrace_gen::Options::new(bundle.clone());
    options.size = 6 << 20;
    options.hours = 30;
    options.rotate = 1 << 20;
    options.inject = 2;
    options.seed = 5;
    let summary = oztrace_gen::generate(&options).expect("generate");
    assert!(
        summary
            .expected()
            .any(|e| e.rule == "premature-lease-close")
    );
    let on = report(&bundle, true);
    let findings = on["findings"].as_array().expect("findings");
    assert!(
        summary.expected().all(|e| findings
            .iter()
            .any(|f| f["rule"] == e.rule.as_str() && f["entity"] == e.entity.as_str())),
        "the injected findings are there"
    );
    same_with_and_without(&bundle).unwrap_or_else(|e| panic!("{e}"));
    // The lease findings' keys, their records among every OM's copies of the background's keys
    // in rotated logs (a full read of this bundle takes seconds in a debug build).
    let keys: Vec<String> = summary
        .expected()
        .filter(|e| e.rule == "premature-lease-close")
        .map(|e| e.entity.clone())
        .collect();
    same_replays(&bundle, &keys).unwrap_or_else(|e| panic!("{e}"));
}
