//! `scan --format sarif`: SARIF 2.1.0 for code-scanning dashboards.
//!
//! Rules carry their documentation as help text. Each finding is a result whose location is its
//! first cause line (the first evidence line when none is a cause), whose logical locations are
//! its entities, whose code flow is its evidence in time order, and whose partial fingerprint is
//! the contract's fingerprint, so dashboards track one finding across scans. A rule's help
//! carries its remediation and `helpUri` its Apache JIRA ticket; findings a baseline suppressed
//! stay as results with `suppressions`. `scan --each` writes one log with one run per input.

use super::{Document, EvidenceDoc, FindingDoc, rule_doc};
use oztrace_rules::{Role, RuleDoc, Section};
use serde_json::{Value, json};
use std::collections::BTreeMap;

pub const VERSION: &str = "2.1.0";
const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The key of the contract's fingerprint in `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "oztrace/v1";

/// The SARIF log of one scan: one run.
pub fn sarif(document: &Document) -> Value {
    log(vec![run(document, None)])
}

/// A SARIF log of several runs (`scan --each`: one per input).
pub fn log(runs: Vec<Value>) -> Value {
    json!({
        "$schema": SCHEMA_URI,
        "version": VERSION,
        "runs": runs,
    })
}

/// One run: the rules, the findings as results (suppressed ones marked), the inputs. `input`
/// names the analysed path of a `scan --each` run.
pub fn run(document: &Document, input: Option<&std::path::Path>) -> Value {
    // Every registered rule, then any rule a finding names that the registry lacks.
    let mut rules: Vec<(String, Option<&'static RuleDoc>)> = oztrace_rules::registry()
        .into_iter()
        .map(|r| (r.doc().id.to_string(), Some(r.doc())))
        .collect();
    for f in &document.findings {
        if !rules.iter().any(|(id, _)| id == f.rule) {
            rules.push((f.rule.to_string(), rule_doc(f.rule)));
        }
    }
    let index: BTreeMap<&str, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (id.as_str(), i))
        .collect();
    let rule_index = |f: &FindingDoc| index.get(f.rule).copied().unwrap_or(0);
    let mut results: Vec<Value> = document
        .findings
        .iter()
        .map(|f| result(f, rule_index(f)))
        .collect();
    for (f, reason) in &document.suppressed_findings {
        let mut suppressed = result(f, rule_index(f));
        let mut suppression = json!({"kind": "external", "status": "accepted"});
        if let Some(reason) = reason {
            suppression["justification"] = json!(reason);
        }
        suppressed["suppressions"] = json!([suppression]);
        results.push(suppressed);
    }
    let mut run = json!({
        "tool": {"driver": {
            "name": document.tool.name,
            "version": document.tool.version,
            "semanticVersion": document.tool.version,
            "rules": rules.iter().map(|(id, doc)| rule(id, *doc)).collect::<Vec<_>>(),
        }},
        "results": results,
        "invocations": [invocation(document, &index)],
        "properties": {
            "inputs": document.inputs,
            "gaps": document.gaps,
            "suppressed": document.suppressed,
        },
    });
    if let Some(input) = input {
        let input = input.display().to_string();
        run["automationDetails"] = json!({"id": format!("oztrace/{input}")});
        run["properties"]["input"] = json!(input);
    }
    run
}

fn level(severity: &str) -> &'static str {
    match severity {
        "critical" | "high" => "error",
        "medium" => "warning",
        _ => "note",
    }
}

/// The run's invocation: a rule that was blind or partial is a tool execution notification
/// (the contract's coverage), as are settings warnings.
fn invocation(document: &Document, index: &BTreeMap<&str, usize>) -> Value {
    let mut notifications: Vec<Value> = document
        .coverage
        .iter()
        .filter(|c| c.status != oztrace_rules::coverage::Status::Ran)
        .map(|c| {
            let mut descriptor = json!({"id": c.rule});
            if let Some(i) = index.get(c.rule) {
                descriptor["index"] = json!(i);
            }
            json!({
                "level": if c.status == oztrace_rules::coverage::Status::Blind { "warning" } else { "note" },
                "message": {"text": format!("{} {}: {}", c.status.as_str(), c.rule, c.missing.join("; "))},
                "associatedRule": descriptor,
                "properties": {"status": c.status.as_str(), "hosts_missing": c.hosts_missing},
            })
        })
        .collect();
    notifications.extend(
        document
            .warnings
            .iter()
            .map(|w| json!({"level": "warning", "message": {"text": w}})),
    );
    json!({"executionSuccessful": true, "toolExecutionNotifications": notifications})
}

fn rule(id: &str, doc: Option<&'static RuleDoc>) -> Value {
    let Some(doc) = doc else {
        return json!({"id": id, "shortDescription": {"text": id}});
    };
    let body = doc.body();
    let mut help = format!("{}\n\n{body}\n", doc.title());
    let mut help_markdown = format!("**{}** ({})\n\n{body}\n", doc.title(), doc.ticket);
    let r = &doc.remediation;
    let status = r
        .fixed_in
        .map_or("open".to_string(), |v| format!("fixed in {v}"));
    let steps: Vec<(&str, Option<&str>)> =
        r.actions.iter().map(|a| (a.purpose, a.command)).collect();
    help.push_str(&format!(
        "\nFix: {status} ({}). Affected: {}\n{}\n\nWhat to do:\n",
        doc.ticket, r.affected, r.fix
    ));
    help_markdown.push_str(&format!(
        "\n**Fix:** {status} ([{}]({})). **Affected:** {}\n\n{}\n\n**What to do:**\n\n",
        doc.ticket,
        doc.ticket_url(),
        r.affected,
        r.fix
    ));
    for (purpose, command) in steps {
        match command {
            Some(command) => {
                help.push_str(&format!("- {purpose}: {command}\n"));
                help_markdown.push_str(&format!("- {purpose}: `{command}`\n"));
            }
            None => {
                help.push_str(&format!("- {purpose}\n"));
                help_markdown.push_str(&format!("- {purpose}\n"));
            }
        }
    }
    let attach = r.attach.join("; ");
    help.push_str(&format!("\nAttach to a ticket: {attach}.\n"));
    help_markdown.push_str(&format!("\n**Attach to a ticket:** {attach}.\n"));
    if !doc.loggers.is_empty() {
        let lines = doc.loggers.join("\n");
        help.push_str(&format!(
            "\nlog4j.properties lines that sharpen it:\n{lines}\n"
        ));
        help_markdown.push_str(&format!(
            "\n**log4j.properties lines that sharpen it:**\n\n```properties\n{lines}\n```\n"
        ));
    }
    json!({
        "id": doc.id,
        "name": doc.id,
        "shortDescription": {"text": doc.title()},
        "fullDescription": {"text": doc.section(Section::Detects)},
        "help": {"text": help, "markdown": help_markdown},
        "helpUri": doc.ticket_url(),
        "defaultConfiguration": {"level": level(doc.severity.as_str())},
        "properties": {
            "ticket": doc.ticket,
            "severity": doc.severity.as_str(),
            "tags": [doc.ticket],
            "affected": r.affected,
            "fixedIn": r.fixed_in,
        },
    })
}

fn result(f: &FindingDoc, rule_index: usize) -> Value {
    let anchor = f
        .evidence
        .iter()
        .find(|e| e.role == Role::Cause)
        .or_else(|| f.evidence.first());
    let logical: Vec<Value> = std::iter::once(&f.entity)
        .chain(&f.related)
        .map(|entity| {
            json!({
                "name": entity.split_once(':').map_or(entity.as_str(), |(_, id)| id),
                "fullyQualifiedName": entity,
                "kind": "resource",
            })
        })
        .collect();
    let mut location = json!({"logicalLocations": logical});
    if let Some(e) = anchor {
        location["physicalLocation"] = physical(e);
    }
    let flow: Vec<Value> = f
        .evidence
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut step = json!({
                "location": {
                    "physicalLocation": physical(e),
                    "message": {"text": format!("{} on {}: {}", role(e.role), e.host, e.note)},
                },
                "executionOrder": i + 1,
                "kinds": [role(e.role)],
                "importance": match e.role {
                    Role::Cause => "essential",
                    Role::Effect => "important",
                    Role::Context => "unimportant",
                },
                "properties": {"host": e.host, "component": e.component},
            });
            if let Some(ts) = &e.ts {
                step["executionTimeUtc"] = json!(ts);
            }
            step
        })
        .collect();
    let mut result = json!({
        "ruleId": f.rule,
        "ruleIndex": rule_index,
        "level": level(f.severity),
        "message": {"text": f.summary},
        "locations": [location],
        "partialFingerprints": {FINGERPRINT_KEY: f.fingerprint},
        "properties": {
            "ticket": f.ticket,
            "severity": f.severity,
            "confidence": f.confidence,
            "confidenceReason": f.confidence_reason,
            "entity": f.entity,
            "related": f.related,
            "hosts": f.hosts,
            "firstSeen": f.first_seen,
            "lastSeen": f.last_seen,
        },
    });
    if let Some(r) = &f.remediation {
        result["properties"]["remediation"] = json!(r);
    }
    if !flow.is_empty() {
        result["codeFlows"] = json!([{
            "message": {"text": format!("evidence of {} in time order", f.entity)},
            "threadFlows": [{"locations": flow}],
        }]);
    }
    result
}

fn role(role: Role) -> &'static str {
    super::role_name(role)
}

fn physical(e: &EvidenceDoc) -> Value {
    json!({
        "artifactLocation": {"uri": uri(&e.file)},
        "region": {"startLine": e.line.max(1), "snippet": {"text": e.text}},
    })
}

/// A relative URI reference for a report path: unreserved characters, `/` and `!` stay, every
/// other byte is percent-encoded (`dn1/ozone datanode.log` → `dn1/ozone%20datanode.log`).
pub fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/!".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::fixture;
    use super::*;

    #[test]
    fn results_carry_location_entities_code_flow_and_fingerprint() {
        let doc = fixture::document();
        let log = sarif(&doc);
        assert_eq!(log["version"], "2.1.0");
        let run = &log["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), 2);
        for r in results {
            let index = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(rules[index]["id"], r["ruleId"]);
        }
        let r = &results[1];
        assert_eq!(r["ruleId"], "resurrected-container");
        assert_eq!(r["level"], "warning");
        assert_eq!(
            r["message"]["text"],
            "Container 1051 was resurrected by a stale replica."
        );
        // The first cause line, not the first line in time that is not a cause.
        let location = &r["locations"][0];
        assert_eq!(
            location["physicalLocation"]["artifactLocation"]["uri"],
            "scm1/ozone-scm.log"
        );
        assert_eq!(location["physicalLocation"]["region"]["startLine"], 1234);
        let names: Vec<&str> = location["logicalLocations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["fullyQualifiedName"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["container:1051", &format!("datanode:{}", fixture::DATANODE)]
        );
        let flow = r["codeFlows"][0]["threadFlows"][0]["locations"]
            .as_array()
            .unwrap();
        let steps: Vec<(u64, &str)> = flow
            .iter()
            .map(|s| {
                (
                    s["location"]["physicalLocation"]["region"]["startLine"]
                        .as_u64()
                        .unwrap(),
                    s["kinds"][0].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            steps,
            [
                (1234, "cause"),
                (77, "context"),
                (9, "effect"),
                (78, "context")
            ]
        );
        assert_eq!(flow[0]["executionTimeUtc"], "2026-08-20T11:02:47.000Z");
        assert_eq!(flow[0]["importance"], "essential");
        assert!(flow[3].get("executionTimeUtc").is_none());
        assert_eq!(
            r["partialFingerprints"][FINGERPRINT_KEY],
            doc.findings[1].fingerprint.as_str()
        );
        assert_eq!(r["properties"]["confidence"], "confirmed");
    }

    #[test]
    fn uris_encode_what_a_uri_cannot_hold() {
        assert_eq!(uri("dn1/ozone-datanode.log"), "dn1/ozone-datanode.log");
        assert_eq!(uri("logs/b.tgz!/dn1/x log"), "logs/b.tgz!/dn1/x%20log");
        assert_eq!(uri("c:\\ü"), "c%3A%5C%C3%BC");
        assert_eq!(uri("-"), "-");
    }
}
