//! Reports: the contract's JSON document and the views built on it.

pub mod baseline;
pub mod containers;
mod excerpt;
#[cfg(test)]
pub mod fixture;
pub mod html;
mod html_page;
mod markdown;
pub mod remediation;
mod sarif;
mod text;
mod timeline;

pub use markdown::rules_markdown;
pub use sarif::{log as sarif_log, run as sarif_run};
pub use text::{explain, kinds_table, replay_lines, rules_table, stats_json, stats_text};

use crate::cli::ScanFormat;
use crate::when::DisplayZone;
use oztrace_analyzer::Analysis;
use oztrace_analyzer::graph::EdgeKind;
use oztrace_analyzer::load::Parsed;
use oztrace_analyzer::trace::EventId;
use oztrace_parser::input::Unreadable;
use oztrace_parser::time::format_rfc3339;
use oztrace_rules::coverage::{Coverage, Status};
use oztrace_rules::{Confidence, Gap, Output, Role, RuleDoc, RuleFamily, fingerprint};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};

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
    /// Every host and component the records name, and the releases the services' startup
    /// banners print, each sorted (extensions of the contract: the bundles table of a dataset).
    pub hosts: Vec<String>,
    pub components: Vec<&'static str>,
    pub releases: Vec<String>,
    /// The earliest and latest record time (RFC 3339; null when no record has a time).
    pub first_seen: Option<String>,
    pub last_seen: Option<String>,
    #[serde(skip)]
    pub first_ms: Option<i64>,
    #[serde(skip)]
    pub last_ms: Option<i64>,
}

impl ReportInputs {
    pub fn from_parsed(parsed: &Parsed) -> ReportInputs {
        // Inputs whose reading failed inside oztrace are listed with the unreadable ones.
        let unreadable = parsed.all_unreadable();
        let sources = || parsed.streams.iter().flat_map(|s| &s.sources);
        let hosts: BTreeSet<&str> = sources().map(|(host, _)| &**host).collect();
        let components: BTreeSet<&'static str> = sources().map(|(_, c)| c.as_str()).collect();
        let releases: BTreeSet<&str> = parsed
            .streams
            .iter()
            .flat_map(|s| s.releases.iter().map(String::as_str))
            .collect();
        let first_ms = parsed
            .streams
            .iter()
            .filter_map(|s| s.summary.first_ts)
            .min();
        let last_ms = parsed
            .streams
            .iter()
            .filter_map(|s| s.summary.last_ts)
            .max();
        ReportInputs {
            files: parsed.streams.len() as u64,
            bytes: parsed.bytes(),
            records: parsed.records(),
            typed_events: parsed.typed(),
            unrecognized: parsed.unrecognized(),
            unreadable,
            hosts: hosts.into_iter().map(str::to_string).collect(),
            components: components.into_iter().collect(),
            releases: releases.into_iter().map(str::to_string).collect(),
            first_seen: first_ms.map(format_rfc3339),
            last_seen: last_ms.map(format_rfc3339),
            first_ms,
            last_ms,
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
    pub ts_ms: Option<i64>,
    /// Byte ranges of `text` holding the values the rule read, most telling first.
    #[serde(skip)]
    pub read: Vec<std::ops::Range<usize>>,
    /// How many of the leading `read` ranges the finding's words mention (marked in HTML).
    #[serde(skip)]
    pub marked: usize,
    #[serde(skip)]
    event: EventId,
}

impl FindingDoc {
    pub fn severity_rank(&self) -> oztrace_rules::Severity {
        self.severity_rank
    }
}

impl EvidenceDoc {
    pub fn role_name(&self) -> &'static str {
        role_name(self.role)
    }
}

pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Cause => "cause",
        Role::Effect => "effect",
        Role::Context => "context",
    }
}

/// How the views for people are shown: colour, whole evidence lines, the zone of times.
#[derive(Debug, Clone, Default)]
pub struct View {
    pub color: bool,
    pub wide: bool,
    pub zone: DisplayZone,
}

/// A causal edge of the event graph between two evidence lines of one finding (indexes into
/// its `evidence`), drawn in the HTML timeline.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Link {
    pub from: usize,
    pub to: usize,
    pub reason: String,
}

#[derive(Debug, Serialize)]
pub struct FindingDoc {
    pub rule: &'static str,
    pub ticket: &'static str,
    /// The rule's family: `signature` (a known bug's trace) or `health` (the container-health
    /// rules).
    pub family: &'static str,
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
    /// What to do about it (absent for a rule the registry does not know).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remediation: Option<remediation::RemediationDoc>,
    #[serde(skip)]
    pub links: Vec<Link>,
    #[serde(skip)]
    severity_rank: oztrace_rules::Severity,
    #[serde(skip)]
    confidence_rank: Confidence,
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
    /// Findings left out because `--baseline` lists their fingerprint (an extension of the
    /// contract; 0 without a baseline).
    pub suppressed: u64,
    /// The `--since` / `--until` window the analysis was limited to (an extension of the
    /// contract; absent without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<WindowDoc>,
    /// Per selected rule: whether the logs let it run (`ran`, `partial`, `blind`).
    pub coverage: Vec<Coverage>,
    /// Settings that could not be used (a bad `ozone-site.xml` value: its default applied); an
    /// extension of the contract, absent when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// What each host's logs cover, for the views for people.
    #[serde(skip)]
    pub hosts: Vec<HostSpan>,
    /// The rules this scan ran.
    #[serde(skip)]
    pub rules_run: Vec<&'static str>,
    /// Findings a baseline suppressed, with the baseline entry's reason.
    #[serde(skip)]
    pub suppressed_findings: Vec<(FindingDoc, Option<String>)>,
}

/// One host's inputs: its components, files and time range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostSpan {
    pub host: String,
    pub components: Vec<&'static str>,
    pub files: u64,
    pub records: u64,
    pub first_ms: Option<i64>,
    pub last_ms: Option<i64>,
}

impl HostSpan {
    /// Per host, sorted by host name.
    pub fn of(parsed: &Parsed) -> Vec<HostSpan> {
        let mut hosts: std::collections::BTreeMap<&str, HostSpan> = Default::default();
        for s in &parsed.streams {
            let span = hosts.entry(&s.host).or_insert_with(|| HostSpan {
                host: s.host.to_string(),
                components: Vec::new(),
                files: 0,
                records: 0,
                first_ms: None,
                last_ms: None,
            });
            if !span.components.contains(&s.component.as_str()) {
                span.components.push(s.component.as_str());
                span.components.sort_unstable();
            }
            span.files += 1;
            span.records += s.summary.records;
            span.first_ms = [span.first_ms, s.summary.first_ts]
                .into_iter()
                .flatten()
                .min();
            span.last_ms = [span.last_ms, s.summary.last_ts]
                .into_iter()
                .flatten()
                .max();
        }
        hosts.into_values().collect()
    }
}

/// The time window of an analysis and how many typed events fell inside it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WindowDoc {
    pub since: Option<String>,
    pub until: Option<String>,
    pub events: u64,
}

impl Document {
    pub fn build(analysis: &Analysis, output: &Output, inputs: ReportInputs) -> Document {
        Document::build_with(analysis, output, inputs, rule_doc)
    }

    /// Builds the document with rule documentation from `docs` (tests use a fixed registry,
    /// so that their expectations do not move as rules are registered).
    pub fn build_with(
        analysis: &Analysis,
        output: &Output,
        inputs: ReportInputs,
        docs: fn(&str) -> Option<&'static RuleDoc>,
    ) -> Document {
        let mut findings: Vec<FindingDoc> = output
            .findings
            .iter()
            .map(|finding| {
                let doc = docs(finding.rule);
                let entity_text = finding.entity.to_string();
                let finding_words = [finding.summary.as_str(), finding.reason.as_str()];
                let mut evidence: Vec<EvidenceDoc> = finding
                    .evidence
                    .iter()
                    .map(|e| {
                        let event = analysis.trace.get(e.event);
                        let fields = serde_json::to_value(&event.data).unwrap_or_default();
                        let hints: [&[&str]; 3] =
                            [&[e.note.as_str()], &finding_words, &[entity_text.as_str()]];
                        let (read, marked) = excerpt::read_spans(&fields, &event.text, &hints);
                        EvidenceDoc {
                            read,
                            marked,
                            file: event.file.to_string(),
                            line: event.line,
                            ts: event.ts.map(format_rfc3339),
                            host: event.host.to_string(),
                            component: event.component.as_str().to_string(),
                            role: e.role,
                            text: event.text.to_string(),
                            note: e.note.clone(),
                            ts_ms: event.ts,
                            event: e.event,
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
                let links = causal_links(analysis, &evidence);
                let times: Vec<i64> = evidence.iter().filter_map(|e| e.ts_ms).collect();
                let first = times.iter().min().copied();
                let last = times.iter().max().copied();
                let hosts: BTreeSet<String> = evidence.iter().map(|e| e.host.clone()).collect();
                let related: BTreeSet<String> =
                    finding.related.iter().map(ToString::to_string).collect();
                let severity = doc.map_or(oztrace_rules::Severity::Medium, |d| d.severity);
                let entity = finding.entity.to_string();
                let remediation = doc.map(|doc| {
                    let entities: Vec<&str> = std::iter::once(entity.as_str())
                        .chain(related.iter().map(String::as_str))
                        .collect();
                    remediation::RemediationDoc::of(doc, &entities, &evidence)
                });
                FindingDoc {
                    rule: finding.rule,
                    ticket: doc.map_or("", |d| d.ticket),
                    family: doc.map_or(RuleFamily::Signature, |d| d.family).as_str(),
                    severity: severity.as_str(),
                    confidence: finding.confidence.as_str(),
                    confidence_reason: finding.reason.clone(),
                    entity,
                    related: related.into_iter().collect(),
                    summary: finding.summary.clone(),
                    first_seen: first.map(format_rfc3339),
                    last_seen: last.map(format_rfc3339),
                    hosts: hosts.into_iter().collect(),
                    fingerprint: fingerprint(finding.rule, &finding.entity),
                    evidence,
                    remediation,
                    links,
                    severity_rank: severity,
                    confidence_rank: finding.confidence,
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
            suppressed: 0,
            window: None,
            coverage: Vec::new(),
            warnings: Vec::new(),
            hosts: Vec::new(),
            rules_run: Vec::new(),
            suppressed_findings: Vec::new(),
        }
    }

    /// Drops the findings whose fingerprint the baseline lists, counting them in `suppressed`.
    /// SARIF keeps them, marked suppressed, with the entry's reason.
    pub fn suppress(&mut self, baseline: &baseline::Baseline) {
        let (known, kept): (Vec<FindingDoc>, Vec<FindingDoc>) = std::mem::take(&mut self.findings)
            .into_iter()
            .partition(|f| baseline.contains(&f.fingerprint));
        self.findings = kept;
        self.suppressed += known.len() as u64;
        for finding in known {
            let reason = baseline
                .entry(&finding.fingerprint)
                .and_then(|k| k.reason.clone());
            self.suppressed_findings.push((finding, reason));
        }
    }

    /// Whether a finding left in the report is at or above `threshold` (exit status 1).
    pub fn fails(&self, threshold: Confidence) -> bool {
        self.findings.iter().any(|f| f.confidence_rank >= threshold)
    }
}

/// One line per rule that did not fully run: `blind premature-lease-close: needs OM audit logs
/// (om-audit); none found`. Empty when every rule ran.
pub fn coverage_lines(doc: &Document) -> Vec<String> {
    doc.coverage
        .iter()
        .filter(|c| c.status != Status::Ran)
        .map(|c| format!("{} {}: {}", c.status.as_str(), c.rule, c.missing.join("; ")))
        .collect()
}

/// `Coverage: 3 of 5 rules ran on what the logs hold.`
pub fn coverage_headline(doc: &Document) -> String {
    let ran = doc
        .coverage
        .iter()
        .filter(|c| c.status == Status::Ran)
        .count();
    format!(
        "Coverage: {ran} of {} rules ran on what the logs hold.",
        doc.coverage.len()
    )
}

/// The registry's documentation of a rule id, if it is registered.
pub fn rule_doc(id: &str) -> Option<&'static RuleDoc> {
    oztrace_rules::registry()
        .into_iter()
        .map(|r| r.doc())
        .find(|d| d.id == id)
}

/// Causal edges of the event graph whose both ends are evidence of the finding, in a stable order.
fn causal_links(analysis: &Analysis, evidence: &[EvidenceDoc]) -> Vec<Link> {
    let index: HashMap<EventId, usize> = evidence
        .iter()
        .enumerate()
        .map(|(i, e)| (e.event, i))
        .collect();
    let mut links: Vec<Link> = evidence
        .iter()
        .enumerate()
        .flat_map(|(to, e)| {
            let index = &index;
            analysis
                .graph
                .incoming(e.event)
                .filter(|(_, edge)| edge.kind == EdgeKind::Causal)
                .filter_map(move |(source, edge)| {
                    index.get(&source).map(|&from| Link {
                        from,
                        to,
                        reason: edge.reason(&analysis.trace),
                    })
                })
        })
        .filter(|link| link.from != link.to)
        .collect();
    links.sort();
    links.dedup();
    links
}

/// Renders the document in the chosen format.
/// Renders one input's document of `scan --each`: JSON becomes one compact line per input and
/// JSON Lines carry the input on every line, so that the whole output stays machine-readable.
pub fn render_for_input(
    document: &Document,
    format: ScanFormat,
    view: &View,
    input: &std::path::Path,
) -> Result<String, serde_json::Error> {
    let input = input.display().to_string();
    let tagged = |value: &mut serde_json::Value| {
        if let Some(object) = value.as_object_mut() {
            object.insert("input".into(), serde_json::Value::String(input.clone()));
        }
    };
    match format {
        ScanFormat::Json => {
            let mut value = serde_json::to_value(document)?;
            tagged(&mut value);
            Ok(format!("{}\n", serde_json::to_string(&value)?))
        }
        ScanFormat::Jsonl => {
            let mut out = String::new();
            for line in render(document, format, view)?.lines() {
                let mut value: serde_json::Value = serde_json::from_str(line)?;
                tagged(&mut value);
                out.push_str(&serde_json::to_string(&value)?);
                out.push('\n');
            }
            Ok(out)
        }
        _ => render(document, format, view),
    }
}

pub fn render(
    document: &Document,
    format: ScanFormat,
    view: &View,
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
            let mut summary = serde_json::json!({
                "schema": "oztrace.summary/v1",
                "gaps": document.gaps,
                "inputs": document.inputs,
                "suppressed": document.suppressed,
                "coverage": document.coverage,
            });
            if !document.warnings.is_empty() {
                summary["warnings"] = serde_json::to_value(&document.warnings)?;
            }
            if let Some(window) = &document.window {
                summary["window"] = serde_json::to_value(window)?;
            }
            s.push_str(&serde_json::to_string(&summary)?);
            s.push('\n');
            s
        }
        ScanFormat::Sarif => {
            let mut s = serde_json::to_string_pretty(&sarif::sarif(document))?;
            s.push('\n');
            s
        }
        ScanFormat::Markdown => markdown::findings_markdown(document, view),
        ScanFormat::Text => text::findings_text(document, view),
    })
}

#[cfg(test)]
mod tests {
    use super::fixture::{self, T0};
    use super::*;
    use crate::cli::ScanFormat;

    #[test]
    fn findings_and_evidence_follow_the_contract_order() {
        let doc = fixture::document();
        let order: Vec<(&str, &str)> = doc
            .findings
            .iter()
            .map(|f| (f.rule, f.entity.as_str()))
            .collect();
        // Same severity (neither rule is registered): by rule id.
        assert_eq!(
            order,
            [
                ("dropped-actions", "key:/vol/bucket/<b>key</b>"),
                ("resurrected-container", "container:1051")
            ]
        );
        let f = &doc.findings[1];
        assert_eq!(f.family, "signature");
        let lines: Vec<(&str, u64)> = f
            .evidence
            .iter()
            .map(|e| (e.host.as_str(), e.line))
            .collect();
        // By time across hosts, the untimed line last.
        assert_eq!(
            lines,
            [("scm1", 1234), ("dn1", 77), ("dn2", 9), ("dn1", 78)]
        );
        assert_eq!(f.first_seen.as_deref(), Some("2026-08-20T11:02:47.000Z"));
        assert_eq!(f.last_seen, Some(format_rfc3339(T0 + 1200)));
        assert_eq!(f.hosts, ["dn1", "dn2", "scm1"]);
        assert_eq!(f.confidence, "confirmed");
        assert_eq!(
            f.fingerprint,
            fingerprint(
                "resurrected-container",
                &oztrace_parser::entity::Entity::Container(1051)
            )
        );
        // The causal edge scm1:1234 → dn2:9, as evidence indexes after sorting.
        assert_eq!(
            f.links,
            [Link {
                from: 0,
                to: 2,
                reason: "close-reported: dn2 reports the replica SCM closed".into()
            }]
        );
        // Gap lists are sorted.
        assert_eq!(doc.gaps[0].hosts, ["dn1", "dn2"]);
    }

    #[test]
    fn an_input_that_failed_inside_oztrace_is_listed_as_unreadable_ones_are() {
        let parsed = oztrace_analyzer::load::Parsed {
            unreadable: vec![Unreadable {
                path: "dn3/ozone.log.gz".into(),
                reason: "corrupt gzip stream".into(),
            }],
            errors: vec![Unreadable {
                path: "dn1/ozone-datanode.log".into(),
                reason: "internal error while reading: boom".into(),
            }],
            ..Default::default()
        };
        let inputs = serde_json::to_value(ReportInputs::from_parsed(&parsed)).unwrap();
        let stats: serde_json::Value =
            serde_json::from_str(&text::stats_json(&parsed, None)).unwrap();
        for unreadable in [&inputs["unreadable"], &stats["unreadable"]] {
            assert_eq!(
                unreadable[0],
                serde_json::json!({
                    "file": "dn1/ozone-datanode.log",
                    "path": "dn1/ozone-datanode.log",
                    "reason": "internal error while reading: boom",
                })
            );
            assert_eq!(unreadable[1]["file"], "dn3/ozone.log.gz");
        }
        let zone = crate::when::DisplayZone::parse("UTC").unwrap();
        let stats = text::stats_text(&parsed, &zone, None);
        assert!(
            stats
                .contains("unreadable: dn1/ozone-datanode.log: internal error while reading: boom")
        );
    }

    #[test]
    fn json_is_byte_identical_across_builds() {
        let a = render(&fixture::document(), ScanFormat::Json, &View::default()).unwrap();
        let b = render(&fixture::document(), ScanFormat::Json, &View::default()).unwrap();
        assert_eq!(a, b);
        let value: serde_json::Value = serde_json::from_str(&a).unwrap();
        assert_eq!(value["schema"], SCHEMA);
        assert_eq!(value["suppressed"], 0);
        let evidence = &value["findings"][1]["evidence"][0];
        for key in ["file", "line", "ts", "host", "component", "role", "text"] {
            assert!(!evidence[key].is_null(), "evidence lacks {key}");
        }
        assert_eq!(evidence["role"], "cause");
        assert_eq!(evidence["file"], "scm1/ozone-scm.log");
    }

    #[test]
    fn jsonl_is_one_finding_per_line_then_the_summary() {
        let out = render(&fixture::document(), ScanFormat::Jsonl, &View::default()).unwrap();
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["rule"], "dropped-actions");
        assert_eq!(lines[1]["entity"], "container:1051");
        assert_eq!(lines[2]["schema"], "oztrace.summary/v1");
        assert_eq!(
            lines[2]["inputs"]["unreadable"][0]["path"],
            "dn3/ozone.log.gz"
        );
        assert_eq!(lines[2]["gaps"][0]["rule"], "dropped-actions");
    }

    #[test]
    fn a_baseline_suppresses_known_findings_and_their_exit_status() {
        let mut doc = fixture::document();
        assert!(doc.fails(Confidence::Possible));
        assert!(doc.fails(Confidence::Confirmed));
        let mut known = baseline::Baseline::of(&doc);
        // Keep only the confirmed finding in the baseline.
        known
            .fingerprints
            .retain(|k| k.rule == "resurrected-container");
        doc.suppress(&known);
        assert_eq!(doc.suppressed, 1);
        assert_eq!(doc.findings.len(), 1);
        assert_eq!(doc.findings[0].rule, "dropped-actions");
        assert!(doc.fails(Confidence::Possible));
        assert!(!doc.fails(Confidence::Likely));
        let text = render(&doc, ScanFormat::Text, &View::default()).unwrap();
        assert!(text.starts_with("1 finding (1 medium); 1 suppressed by the baseline."));
    }

    #[test]
    fn baseline_files_round_trip_sorted() {
        let doc = fixture::document();
        let json = baseline::Baseline::of(&doc).to_json().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("baseline.json");
        std::fs::write(&path, &json).unwrap();
        let loaded = baseline::Baseline::load(&path, 0).unwrap();
        assert_eq!(loaded.schema, baseline::SCHEMA);
        let prints: Vec<&str> = loaded
            .fingerprints
            .iter()
            .map(|k| k.fingerprint.as_str())
            .collect();
        let mut sorted = prints.clone();
        sorted.sort();
        assert_eq!(prints, sorted);
        assert!(loaded.contains(&doc.findings[1].fingerprint));
        std::fs::write(&path, r#"{"schema": "other/v9", "fingerprints": []}"#).unwrap();
        assert!(
            baseline::Baseline::load(&path, 0)
                .unwrap_err()
                .contains("other/v9")
        );
        std::fs::write(&path, "not json").unwrap();
        assert!(
            baseline::Baseline::load(&path, 0)
                .unwrap_err()
                .contains("baseline.json")
        );
    }

    #[test]
    fn text_groups_by_severity_and_rule_and_shows_why() {
        let doc = fixture::document();
        let plain = render(&doc, ScanFormat::Text, &View::default()).unwrap();
        assert!(plain.starts_with("2 findings (2 medium)."));
        let dropped = plain.find("MEDIUM · dropped-actions").unwrap();
        let resurrected = plain.find("MEDIUM · resurrected-container").unwrap();
        assert!(dropped < resurrected);
        assert!(plain.contains(
            "why confirmed: SCM closed the container and a stale replica brought it back"
        ));
        let scm = plain.find("scm1/ozone-scm.log:1234").unwrap();
        let dn2 = plain.find("dn2/ozone-datanode.log:9").unwrap();
        let untimed = plain.find("dn1/ozone-datanode.log:78").unwrap();
        assert!(scm < dn2 && dn2 < untimed);
        assert!(plain.contains("unreadable: dn3/ozone.log.gz: corrupt gzip stream"));
        assert!(plain.contains("HeartbeatEndpointTask=DEBUG"));
        // The log's own escape sequence is shown, not obeyed; no colour when off.
        assert!(!plain.contains('\x1b'));
        let coloured = render(
            &doc,
            ScanFormat::Text,
            &View {
                color: true,
                ..View::default()
            },
        )
        .unwrap();
        let heading = format!("{}MEDIUM · dropped-actions", text::YELLOW.render());
        assert!(coloured.contains(&heading), "{coloured}");
        assert!(!coloured.contains("\x1b[31mred"));
    }
}
