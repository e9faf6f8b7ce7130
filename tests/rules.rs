//! The registry, `oztrace rules`, the README's rule table and the sample bundles agree.

mod common;

use common::samples;
use std::path::Path;
use std::process::Command;

fn oztrace_rules(format: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(["rules", "--format", format, "--color", "never"])
        .output()
        .expect("oztrace runs");
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// `oztrace rules` lists the registry in its order, and the README's table (between its
/// markers) is `oztrace rules --format markdown`, which names each rule with its ticket,
/// severity and title.
#[test]
fn oztrace_rules_and_the_readme_list_the_registry() {
    let registry: Vec<&oztrace_rules::RuleDoc> =
        oztrace_rules::registry().iter().map(|r| r.doc()).collect();
    let ids: Vec<&str> = registry.iter().map(|d| d.id).collect();
    let text = oztrace_rules("text");
    let listed: Vec<&str> = text
        .lines()
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert_eq!(listed, ids, "oztrace rules:\n{text}");

    let markdown = oztrace_rules("markdown");
    for doc in &registry {
        let row = format!(
            "| `{}` | [{}]({}) | {} |",
            doc.id,
            doc.ticket,
            doc.ticket_url(),
            doc.severity.as_str()
        );
        assert!(
            markdown.lines().any(|line| line.starts_with(&row)),
            "no `{row}` in:\n{markdown}"
        );
    }
    assert_eq!(markdown.lines().count(), registry.len() + 2, "{markdown}");
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let table = readme
        .split_once("<!-- rules: scripts/rules-table -->\n")
        .and_then(|(_, rest)| rest.split_once("<!-- end of rules -->"))
        .map(|(table, _)| table)
        .expect("README.md holds the rules-table markers");
    assert_eq!(
        table, markdown,
        "README.md's rule table is not `oztrace rules --format markdown`: run scripts/rules-table"
    );
}

/// Every registered rule has a bug bundle whose EXPECTED.json expects its finding and a
/// look-alike bundle (named after its ticket, or its id for a health rule); every rule a bundle
/// expects is registered.
#[test]
fn every_rule_has_a_bug_and_a_look_alike_sample() {
    let ids: Vec<&str> = oztrace_rules::registry()
        .iter()
        .map(|r| r.doc().id)
        .collect();
    let mut expected_rules: Vec<(String, String)> = Vec::new();
    let mut names = Vec::new();
    for dir in samples() {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(dir.join("EXPECTED.json")).unwrap();
        let findings: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}/EXPECTED.json: {e}"));
        for finding in findings.as_array().expect("a list of findings") {
            let rule = finding["rule"].as_str().expect("a rule id").to_string();
            assert!(ids.contains(&rule.as_str()), "{name} expects `{rule}`");
            expected_rules.push((rule, name.clone()));
        }
        names.push(name);
    }
    for rule in oztrace_rules::registry() {
        let doc = rule.doc();
        // A signature's bundles are named after its ticket; health rules share tickets, so
        // theirs are named after the rule.
        let prefix = match doc.family {
            oztrace_rules::RuleFamily::Signature => doc.ticket,
            oztrace_rules::RuleFamily::Health => doc.id,
        };
        assert!(
            expected_rules
                .iter()
                .any(|(r, bundle)| r == doc.id && bundle.starts_with(&format!("{prefix}-bug-"))),
            "{}: no samples/{prefix}-bug-*/ expects its finding",
            doc.id,
        );
        assert!(
            names
                .iter()
                .any(|n| n.starts_with(&format!("{prefix}-control-"))),
            "{}: no look-alike samples/{prefix}-control-*/",
            doc.id,
        );
    }
}
