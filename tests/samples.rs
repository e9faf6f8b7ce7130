//! Every sample bundle against its EXPECTED.json, a snapshot of its JSON report, and a snapshot of
//! the replay of each entity its REPLAY file names.
//!
//! EXPECTED.json is the ground truth: exactly these (rule, entity) findings, each at or above the
//! listed confidence; `[]` for a control. A bug signature's bundle (`HDDS-…`) is scanned with
//! `--family signature`: the health of its containers is not its story (several really hold an
//! UNHEALTHY replica); a container-health bundle (`container-…`) with every rule. The snapshot only records what the tool printed last
//! time, so a change in evidence or wording shows up in review.

mod common;

use common::{rank, samples};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The rules a sample is checked against: the signatures for a bug signature's bundle, every
/// rule for a container-health bundle.
fn family_args(dir: &Path) -> &'static [&'static str] {
    let name = dir.file_name().unwrap().to_string_lossy();
    if name.starts_with("HDDS-") {
        &["--family", "signature"]
    } else {
        &[]
    }
}

fn scan_json(dir: &Path) -> (Value, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(["scan", "--format", "json"])
        .args(family_args(dir))
        .arg(dir)
        .output()
        .expect("oztrace runs");
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: not JSON ({e}); stderr: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (json, out.status.code())
}

#[test]
fn every_sample_gives_exactly_its_expected_findings() {
    let dirs = samples();
    assert!(!dirs.is_empty(), "no sample bundles found");
    let mut failures = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("EXPECTED.json")).unwrap())
                .unwrap_or_else(|e| panic!("{name}/EXPECTED.json: {e}"));
        let expected = expected.as_array().expect("EXPECTED.json is an array");
        if name.contains("-control-") {
            assert!(expected.is_empty(), "{name}: a control expects no findings");
        }
        let (report, code) = scan_json(dir);
        let findings = report["findings"].as_array().cloned().unwrap_or_default();
        let got: Vec<(String, String, String)> = findings
            .iter()
            .map(|f| {
                (
                    f["rule"].as_str().unwrap_or_default().to_string(),
                    f["entity"].as_str().unwrap_or_default().to_string(),
                    f["confidence"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect();
        let mut problems = Vec::new();
        for e in expected {
            let (rule, entity, min) = (
                e["rule"].as_str().unwrap(),
                e["entity"].as_str().unwrap(),
                e["confidence"].as_str().unwrap(),
            );
            match got.iter().find(|(r, en, _)| r == rule && en == entity) {
                None => problems.push(format!("missing {rule} {entity} (>= {min})")),
                Some((_, _, c)) if rank(c) < rank(min) => {
                    problems.push(format!("{rule} {entity} is {c}, expected >= {min}"))
                }
                Some(_) => {}
            }
        }
        for (rule, entity, c) in &got {
            if !expected
                .iter()
                .any(|e| e["rule"] == rule.as_str() && e["entity"] == entity.as_str())
            {
                problems.push(format!("unexpected {rule} {entity} ({c})"));
            }
        }
        let want_code = if expected.is_empty() { 0 } else { 1 };
        if code != Some(want_code) {
            problems.push(format!("exit {code:?}, expected {want_code}"));
        }
        if !problems.is_empty() {
            failures.push(format!("{name}: {}", problems.join("; ")));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_bug_sample_has_a_control_and_sources() {
    let dirs = samples();
    let names: Vec<String> = dirs
        .iter()
        .map(|d| d.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    for dir in &dirs {
        assert!(
            dir.join("SOURCE.md").is_file(),
            "{} lacks SOURCE.md",
            dir.display()
        );
    }
    for name in names.iter().filter(|n| n.contains("-bug-")) {
        let ticket = name.split("-bug-").next().unwrap();
        assert!(
            names
                .iter()
                .any(|n| n.starts_with(&format!("{ticket}-control-"))),
            "{name} has no control bundle"
        );
    }
}

#[test]
fn sample_reports_match_their_snapshots_and_are_deterministic() {
    for dir in samples() {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let (first, _) = scan_json(&dir);
        let (second, _) = scan_json(&dir);
        assert_eq!(first, second, "{name}: two runs differ");
        insta::with_settings!({snapshot_path => "snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(name, serde_json::to_string_pretty(&first).unwrap());
        });
    }
}

/// The entities a bundle's REPLAY file names, one `KIND:ID` a line (blank lines ignored).
fn replay_entities(dir: &Path) -> Vec<String> {
    let path = dir.join("REPLAY");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let entities: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    assert!(!entities.is_empty(), "{} names no entity", path.display());
    entities
}

#[test]
fn every_sample_replays_its_story() {
    for dir in samples() {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        for entity in replay_entities(&dir) {
            let out = Command::new(env!("CARGO_BIN_EXE_oztrace"))
                .arg("replay")
                .arg(&dir)
                .args(["--entity", &entity])
                .output()
                .expect("oztrace runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{name} {entity}: exit {:?}; stderr: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            );
            // A machine's transitions, or a container's replicas (the info view).
            assert!(
                stdout.contains(" -> ") || stdout.contains("replicas of container"),
                "{name} {entity}: no machine transition or replica in the replay:\n{stdout}"
            );
            let snapshot = format!("replay-{name}-{}", entity.replace([':', '/'], "_"));
            insta::with_settings!({snapshot_path => "snapshots", prepend_module_to_snapshot => false}, {
                insta::assert_snapshot!(snapshot, stdout);
            });
        }
    }
}

/// The container-health bundles' CONTAINERS.json: what `oztrace containers` must list (every
/// container with its replicas' latest states, the healthy count and its conditions) and what
/// `replay --entity container:N`'s info view must say, written by the generator from its story.
/// The text view is snapshotted too.
#[test]
fn every_health_sample_lists_its_containers_and_replays_their_replicas() {
    let mut checked = 0;
    for dir in samples() {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let Ok(truth) = std::fs::read_to_string(dir.join("CONTAINERS.json")) else {
            continue;
        };
        let truth: Vec<Value> = serde_json::from_str(&truth).expect("CONTAINERS.json");
        let run = |args: &[&str]| {
            let out = Command::new(env!("CARGO_BIN_EXE_oztrace"))
                .args(args)
                .arg(&dir)
                .output()
                .expect("oztrace runs");
            assert_eq!(out.status.code(), Some(0), "{name} {args:?}");
            String::from_utf8(out.stdout).expect("UTF-8")
        };
        let listed: Value =
            serde_json::from_str(&run(&["containers", "--format", "json", "--limit", "0"]))
                .expect("JSON");
        assert_eq!(listed["schema"], "oztrace.containers/v1");
        let rows = listed["containers"].as_array().expect("containers");
        let ids = |v: &[Value]| -> Vec<u64> {
            v.iter().map(|c| c["container"].as_u64().unwrap()).collect()
        };
        assert_eq!(ids(rows), ids(&truth), "{name}: the containers listed");
        let all: Value =
            serde_json::from_str(&run(&["containers", "--format", "json", "--all"])).expect("JSON");
        assert_eq!(all, listed, "{name}: --all is --limit 0");
        // `--state S`: the containers with a replica whose latest state is S.
        for state in ["OPEN", "CLOSED", "QUASI_CLOSED", "UNHEALTHY"] {
            let by_state: Value = serde_json::from_str(&run(&[
                "containers",
                "--format",
                "json",
                "--all",
                "--state",
                &state.to_lowercase(),
            ]))
            .expect("JSON");
            let want: Vec<Value> = truth
                .iter()
                .filter(|c| {
                    c["replicas"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|r| r["state"] == state)
                })
                .cloned()
                .collect();
            assert_eq!(
                ids(by_state["containers"].as_array().expect("containers")),
                ids(&want),
                "{name}: --state {state}"
            );
        }
        for (row, want) in rows.iter().zip(&truth) {
            let container = want["container"].as_u64().unwrap();
            assert_eq!(
                row["healthy"], want["healthy"],
                "{name} {container}: healthy replicas"
            );
            assert_eq!(row["health"], want["health"], "{name} {container}: health");
            let mut replicas: Vec<Value> = row["replicas"].as_array().unwrap().clone();
            replicas.sort_by_key(|r| (r["datanode"].to_string(), r["index"].as_u64()));
            assert_eq!(
                &Value::Array(replicas),
                &want["replicas"],
                "{name} {container}: replicas"
            );
            let replay = run(&["replay", "--entity", &format!("container:{container}")]);
            let labels: Vec<&str> = want["health"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            let health_line = replay.lines().nth(1).unwrap_or_default();
            if labels.is_empty() {
                assert_eq!(
                    health_line, "health: no condition found",
                    "{name} {container}"
                );
            } else {
                let shown: Vec<&str> = health_line
                    .trim_start_matches("health: ")
                    .split(", ")
                    .map(|l| l.split(' ').next().unwrap_or_default())
                    .collect();
                assert_eq!(shown, labels, "{name} {container}: replay's health line");
            }
            checked += 1;
        }
        let text = run(&["containers", "--limit", "0"]);
        insta::with_settings!({snapshot_path => "snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(format!("containers-{name}"), text);
        });
    }
    assert!(checked >= 26, "every health sample checked ({checked})");
}
