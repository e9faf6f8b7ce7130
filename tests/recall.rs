//! Recall at scale: a generated bundle with every sample (each rule's bug and its look-alike)
//! injected several times among background traffic. Every injected bug must be found at its
//! expected confidence or above, and nothing else may be flagged: not a look-alike, not the
//! background. The expected findings are the samples' EXPECTED.json with the injections' ids.

mod common;

use common::rank;
use serde_json::Value;
use std::process::Command;

#[test]
fn every_injected_bug_is_found_and_no_look_alike_is_flagged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bundle = dir.path().join("bundle");
    let mut options = oztrace_gen::Options::new(bundle.clone());
    options.size = 8 << 20;
    options.hours = 48;
    options.rotate = 2 << 20;
    options.inject = 3;
    options.seed = 11;
    let summary = oztrace_gen::generate(&options).expect("generate");
    let bugs: Vec<_> = summary.injections.iter().filter(|i| !i.control).collect();
    let controls = summary.injections.len() - bugs.len();
    assert!(
        bugs.len() >= 5 * 3 && controls >= 5 * 3,
        "every rule's bug and look-alike, three times each"
    );

    let scan = |family: &str| -> Vec<(String, String, String)> {
        let out = Command::new(env!("CARGO_BIN_EXE_oztrace"))
            .args(["scan", "--format", "json", "--family", family])
            .arg(&bundle)
            .output()
            .expect("oztrace runs");
        let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
        assert_eq!(out.status.code(), Some(1), "findings exit 1");
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| {
                let field = |k: &str| f[k].as_str().unwrap_or_default().to_string();
                (field("rule"), field("entity"), field("confidence"))
            })
            .collect()
    };
    let health = |rule: &str| rule.starts_with("container-");
    let signatures = scan("signature");
    let containers = scan("health");
    let mut problems = Vec::new();
    for injection in &summary.injections {
        for e in &injection.expected {
            let got = if health(&e.rule) {
                &containers
            } else {
                &signatures
            };
            match got
                .iter()
                .find(|(r, en, _)| *r == e.rule && *en == e.entity)
            {
                None => problems.push(format!(
                    "{}: missing {} {}",
                    injection.folder, e.rule, e.entity
                )),
                Some((_, _, c)) if rank(c) < rank(&e.confidence) => problems.push(format!(
                    "{}: {} {} is {c}, expected >= {}",
                    injection.folder, e.rule, e.entity, e.confidence
                )),
                Some(_) => {}
            }
        }
    }
    let expected: Vec<_> = summary.expected().collect();
    for (rule, entity, c) in &signatures {
        if !expected
            .iter()
            .any(|e| e.rule == *rule && e.entity == *entity)
        {
            problems.push(format!(
                "unexpected {rule} {entity} ({c}): a look-alike or the background flagged"
            ));
        }
    }
    // The health rules also see the signature bundles' containers, whose health is not their
    // story (several hold an UNHEALTHY replica): a health finding nobody expects must be on a
    // container of an injected `HDDS-` bundle (injection k's containers are k * 1 000 000 + id),
    // never on the background's or a health look-alike's.
    for (rule, entity, c) in &containers {
        if expected
            .iter()
            .any(|e| e.rule == *rule && e.entity == *entity)
        {
            continue;
        }
        let injection = entity
            .strip_prefix("container:")
            .and_then(|id| id.parse::<u64>().ok())
            .filter(|id| *id >= 1_000_000)
            .and_then(|id| {
                summary
                    .injections
                    .iter()
                    .find(|i| i.index as u64 == id / 1_000_000)
            });
        if !injection.is_some_and(|i| i.sample.starts_with("HDDS-")) {
            problems.push(format!(
                "unexpected {rule} {entity} ({c}): a health look-alike or the background flagged"
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
    let signature_expected = expected.iter().filter(|e| !health(&e.rule)).count();
    assert_eq!(signatures.len(), signature_expected);
}
