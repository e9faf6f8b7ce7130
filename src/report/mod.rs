//! Reports: the contract's JSON document and the views built on it.

mod text;

pub use text::{explain, kinds_table, replay_lines, rules_table, stats_json, stats_text};

use crate::cli::{ColorChoice, ScanFormat};
use crate::pipeline::Parsed;
use oztrace_analyzer::Analysis;
use oztrace_parser::input::Unreadable;
use oztrace_parser::time::format_rfc3339;
use oztrace_rules::{Gap, Output, Role, Rule, fingerprint};
use serde::Serialize;
use std::collections::BTreeSet;

pub const SCHEMA: &str = "oztrace.findings/v1";

#[derive(Debug, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

/// Coverage of the inputs.
#[derive(Debug, Serialize)]
pub struct ReportInputs {
    pub files: u64,
    pub bytes: u64,
    pub records: u64,
    pub typed_events: u64,
    pub unrecognized: u64,
    pub unreadable: Vec<Unreadable>,
}

impl ReportInputs {
    pub fn from_parsed(parsed: &Parsed) -> ReportInputs {
        let mut unreadable = parsed.unreadable.clone();
        unreadable.sort_by(|a, b| (&a.path, &a.reason).cmp(&(&b.path, &b.reason)));
        ReportInputs {
            files: parsed.streams.len() as u64,
            bytes: parsed.bytes(),
            records: parsed.records(),
            typed_events: parsed.typed(),
            unrecognized: parsed.unrecognized(),
            unreadable,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct EvidenceDoc {
    pub file: String,
    pub line: u64,
    pub ts: Option<String>,
    pub host: String,
    pub component: String,
    pub role: Role,
    pub text: String,
    /// Why this line belongs to the evidence (an extension of the contract).
    pub note: String,
    #[serde(skip)]
    ts_ms: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct FindingDoc {
    pub rule: &'static str,
    pub ticket: &'static str,
    pub severity: &'static str,
    pub confidence: &'static str,
    /// Why this confidence (an extension of the contract).
    pub confidence_reason: String,
    pub entity: String,
    pub related: Vec<String>,
    pub summary: String,
    pub first_seen: Option<String>,
    pub last_seen: Option<String>,
    pub hosts: Vec<String>,
    pub fingerprint: String,
    pub evidence: Vec<EvidenceDoc>,
    #[serde(skip)]
    severity_rank: oztrace_rules::Severity,
    #[serde(skip)]
    first_ms: Option<i64>,
}

/// The `oztrace scan --format json` document.
#[derive(Debug, Serialize)]
pub struct Document {
    pub schema: &'static str,
    pub tool: Tool,
    pub findings: Vec<FindingDoc>,
    pub gaps: Vec<Gap>,
    pub inputs: ReportInputs,
}

impl Document {
    pub fn build(analysis: &Analysis, output: &Output, inputs: ReportInputs) -> Document {
        let registry = oztrace_rules::registry();
        let mut findings: Vec<FindingDoc> = output
            .findings
            .iter()
            .map(|finding| {
                let doc = registry
                    .iter()
                    .map(|r: &&dyn Rule| r.doc())
                    .find(|d| d.id == finding.rule);
                let mut evidence: Vec<EvidenceDoc> = finding
                    .evidence
                    .iter()
                    .map(|e| {
                        let event = analysis.trace.get(e.event);
                        EvidenceDoc {
                            file: event.file.to_string(),
                            line: event.line,
                            ts: event.ts.map(format_rfc3339),
                            host: event.host.to_string(),
                            component: event.component.as_str().to_string(),
                            role: e.role,
                            text: event.text.clone(),
                            note: e.note.clone(),
                            ts_ms: event.ts,
                        }
                    })
                    .collect();
                evidence.sort_by(|a, b| {
                    (a.ts_ms.is_none(), a.ts_ms, &a.host, &a.file, a.line).cmp(&(
                        b.ts_ms.is_none(),
                        b.ts_ms,
                        &b.host,
                        &b.file,
                        b.line,
                    ))
                });
                let times: Vec<i64> = evidence.iter().filter_map(|e| e.ts_ms).collect();
                let first = times.iter().min().copied();
                let last = times.iter().max().copied();
                let hosts: BTreeSet<String> = evidence.iter().map(|e| e.host.clone()).collect();
                let related: BTreeSet<String> =
                    finding.related.iter().map(ToString::to_string).collect();
                let severity = doc.map_or(oztrace_rules::Severity::Medium, |d| d.severity);
                FindingDoc {
                    rule: finding.rule,
                    ticket: doc.map_or("", |d| d.ticket),
                    severity: severity.as_str(),
                    confidence: finding.confidence.as_str(),
                    confidence_reason: finding.reason.clone(),
                    entity: finding.entity.to_string(),
                    related: related.into_iter().collect(),
                    summary: finding.summary.clone(),
                    first_seen: first.map(format_rfc3339),
                    last_seen: last.map(format_rfc3339),
                    hosts: hosts.into_iter().collect(),
                    fingerprint: fingerprint(finding.rule, &finding.entity),
                    evidence,
                    severity_rank: severity,
                    first_ms: first,
                }
            })
            .collect();
        findings.sort_by(|a, b| {
            (
                a.severity_rank,
                a.rule,
                a.first_ms.is_none(),
                a.first_ms,
                &a.entity,
            )
                .cmp(&(
                    b.severity_rank,
                    b.rule,
                    b.first_ms.is_none(),
                    b.first_ms,
                    &b.entity,
                ))
        });
        let mut gaps = output.gaps.clone();
        for gap in &mut gaps {
            gap.enable.sort();
            gap.hosts.sort();
        }
        gaps.sort();
        Document {
            schema: SCHEMA,
            tool: Tool {
                name: "oztrace",
                version: env!("CARGO_PKG_VERSION"),
            },
            findings,
            gaps,
            inputs,
        }
    }
}

/// Renders the document in the chosen format.
pub fn render(
    document: &Document,
    format: ScanFormat,
    color: ColorChoice,
) -> Result<String, serde_json::Error> {
    Ok(match format {
        ScanFormat::Json => {
            let mut s = serde_json::to_string_pretty(document)?;
            s.push('\n');
            s
        }
        ScanFormat::Jsonl => {
            let mut s = String::new();
            for finding in &document.findings {
                s.push_str(&serde_json::to_string(finding)?);
                s.push('\n');
            }
            s.push_str(&serde_json::to_string(&serde_json::json!({
                "schema": "oztrace.summary/v1",
                "gaps": document.gaps,
                "inputs": document.inputs,
            }))?);
            s.push('\n');
            s
        }
        ScanFormat::Text => text::findings_text(document, text::use_color(color)),
    })
}
