//! The page's markup (maud): headline, cluster-wide overview, findings with their remediation,
//! timeline and evidence, gaps, inputs per host and the rules that ran. Geometry is computed in
//! `timeline`; maud escapes every piece of text it is given.

use super::remediation::RemediationDoc;
use super::timeline::{self, Lane, Mark, MarkShape, Timeline};
use super::{Document, EvidenceDoc, FindingDoc};
use crate::when::DisplayZone;
use maud::{DOCTYPE, Markup, PreEscaped, html};

/// The whole page; `csp`, `style` and `script` are oztrace's own and go in unescaped.
pub fn page(doc: &Document, zone: &DisplayZone, csp: &str, style: &str, script: &str) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta http-equiv="Content-Security-Policy" content=(csp);
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="generator" content={ (doc.tool.name) " " (doc.tool.version) };
                title { "oztrace report" }
                style { (PreEscaped(style)) }
            }
            body {
                header {
                    h1 { "oztrace report" }
                    p.meta.headline { (super::text::headline(doc)) " " (super::text::zone_note(zone)) }
                }
                (overview(doc, zone))
                @if !doc.findings.is_empty() {
                    nav {
                        ul.toc {
                            @for (i, f) in doc.findings.iter().enumerate() {
                                li {
                                    a href={ "#f" (i) } {
                                        span class={ "sev-" (f.severity) } { (f.severity) }
                                        " " (f.rule) " " code { (f.entity) }
                                    }
                                    " (" (f.confidence) ")"
                                }
                            }
                        }
                    }
                    (legend())
                }
                @for (i, f) in doc.findings.iter().enumerate() {
                    (finding(i, f, zone))
                }
                (gaps(doc))
                (inputs(doc, zone))
                (rules_run(doc))
                (coverage(doc))
                script { (PreEscaped(script)) }
            }
        }
    }
}

fn legend() -> Markup {
    html! {
        p.legend {
            span.role-cause { "● cause" }
            span.role-effect { "■ effect" }
            span.role-context { "• context" }
            span { "◉ n: n marks too close to tell apart (click to spread)" }
            span.link-key { "→ causal link" }
        }
    }
}

/// The cluster-wide overview: one lane per host with the time its logs cover, and where each
/// finding's evidence falls on it.
fn overview(doc: &Document, zone: &DisplayZone) -> Markup {
    let mut hosts: Vec<String> = doc.hosts.iter().map(|h| h.host.clone()).collect();
    for f in &doc.findings {
        for h in &f.hosts {
            if !hosts.contains(h) {
                hosts.push(h.clone());
            }
        }
    }
    if hosts.is_empty() {
        return html! {};
    }
    let spans: Vec<(usize, i64, i64)> = doc
        .hosts
        .iter()
        .filter_map(|h| {
            let lane = hosts.iter().position(|x| *x == h.host)?;
            Some((lane, h.first_ms?, h.last_ms?))
        })
        .collect();
    let mut marks = Vec::new();
    for (i, f) in doc.findings.iter().enumerate() {
        for (lane, host) in hosts.iter().enumerate() {
            let times: Vec<i64> = f
                .evidence
                .iter()
                .filter(|e| &e.host == host)
                .filter_map(|e| e.ts_ms)
                .collect();
            let Some(&first) = times.iter().min() else {
                continue;
            };
            marks.push(Mark {
                lane,
                ts: first,
                shape: MarkShape::Finding(f.severity),
                id: format!("o{i}-{lane}"),
                pair: None,
                href: Some(format!("#f{i}")),
                title: format!(
                    "{} {} {} ({}): first evidence on {host} at {}",
                    f.severity,
                    f.rule,
                    f.entity,
                    f.confidence,
                    zone.format(first)
                ),
            });
        }
    }
    let lanes: Vec<Lane> = hosts
        .iter()
        .map(|h| Lane {
            label: h.clone(),
            detail: doc
                .hosts
                .iter()
                .find(|x| &x.host == h)
                .map(|x| x.components.join(", "))
                .unwrap_or_default(),
        })
        .collect();
    let Some(tl) = Timeline::layout("overview", lanes, marks, &spans, &[], zone) else {
        return html! {};
    };
    html! {
        section.overview {
            h2 { "Overview" }
            p.meta {
                "Each lane is a host: the grey band is the time its logs cover, a mark where a \
                 finding's evidence starts on it (click to go to the finding)."
            }
            (timeline::svg(&tl, "cluster-wide overview: one lane per host"))
        }
    }
}

fn finding(i: usize, f: &FindingDoc, zone: &DisplayZone) -> Markup {
    let times: Vec<i64> = f.evidence.iter().filter_map(|e| e.ts_ms).collect();
    html! {
        section.finding id={ "f" (i) } {
            h2 {
                span class={ "sev-" (f.severity) } { (f.severity.to_uppercase()) }
                " · " (f.rule) " "
                @if let Some(r) = &f.remediation {
                    a.badge href=(r.ticket_url) rel="noreferrer" { (f.ticket) }
                } @else {
                    span.badge { (f.ticket) }
                }
            }
            h3.headline { code { (f.entity) } " — " (f.confidence) }
            p.summary { (f.summary) }
            p.why { "Why " (f.confidence) ": " (f.confidence_reason) }
            @if !f.related.is_empty() {
                p.meta {
                    "Related: "
                    @for (k, r) in f.related.iter().enumerate() {
                        @if k > 0 { ", " }
                        code { (r) }
                    }
                }
            }
            p.meta {
                "Seen " (zone.format_or_dash(times.iter().min().copied()))
                " → " (zone.format_or_dash(times.iter().max().copied()))
                " · fingerprint " code { (f.fingerprint) }
            }
            (finding_timeline(i, f, zone))
            pre.hover-line { "Hover over or focus a mark to read its log line." }
            (evidence_table(i, f, zone))
            @if let Some(r) = &f.remediation {
                (remediation(r))
            }
        }
    }
}

fn finding_timeline(i: usize, f: &FindingDoc, zone: &DisplayZone) -> Markup {
    let lanes: Vec<Lane> = f
        .hosts
        .iter()
        .map(|h| Lane {
            label: h.clone(),
            detail: String::new(),
        })
        .collect();
    let marks: Vec<Mark> = f
        .evidence
        .iter()
        .enumerate()
        .filter_map(|(j, e)| {
            Some(Mark {
                lane: f.hosts.iter().position(|h| *h == e.host)?,
                ts: e.ts_ms?,
                shape: MarkShape::Role(e.role),
                id: format!("m{i}-{j}"),
                pair: Some(format!("r{i}-{j}")),
                href: None,
                title: mark_title(e, zone),
            })
        })
        .collect();
    let untimed = f.evidence.iter().filter(|e| e.ts_ms.is_none()).count();
    let links: Vec<(String, String, String)> = f
        .links
        .iter()
        .map(|l| {
            (
                format!("m{i}-{}", l.from),
                format!("m{i}-{}", l.to),
                l.reason.clone(),
            )
        })
        .collect();
    let id = format!("t{i}");
    let Some(tl) = Timeline::layout(&id, lanes, marks, &[], &links, zone) else {
        return html! { p.meta { "No evidence line of this finding has a time." } };
    };
    html! {
        (timeline::svg(&tl, "evidence timeline, one lane per host"))
        @if untimed > 0 {
            p.meta.untimed {
                (untimed) " evidence line(s) without a time are in the table below, not on the axis."
            }
        }
    }
}

fn mark_title(e: &EvidenceDoc, zone: &DisplayZone) -> String {
    format!(
        "{} {} {} {}:{} ({})\n{}",
        zone.format_or_dash(e.ts_ms),
        e.host,
        e.role_name(),
        e.file,
        e.line,
        e.note,
        e.text
    )
}

fn evidence_table(i: usize, f: &FindingDoc, zone: &DisplayZone) -> Markup {
    html! {
        table.evidence {
            thead {
                tr {
                    th { "time" }
                    th { "host" }
                    th { "role" }
                    th { "file:line" }
                    th { "why this line matters" }
                    th { "log line" }
                }
            }
            tbody {
                @for (j, e) in f.evidence.iter().enumerate() {
                    tr.ev id={ "r" (i) "-" (j) } data-pair={ "m" (i) "-" (j) } {
                        td.time { (zone.format_or_dash(e.ts_ms)) }
                        td { (e.host) }
                        td class={ "role-" (e.role_name()) } { (e.role_name()) }
                        td.loc { (e.file) ":" (e.line) }
                        td.note { (e.note) }
                        td.text { (highlighted(e)) }
                    }
                }
            }
        }
    }
}

/// The log line with the values the rule read that the finding's words name marked.
fn highlighted(e: &EvidenceDoc) -> Markup {
    let mut spans: Vec<std::ops::Range<usize>> = e.read[..e.marked].to_vec();
    spans.sort_by_key(|r| r.start);
    let mut pieces: Vec<(bool, &str)> = Vec::new();
    let mut at = 0;
    for span in spans {
        if span.start < at || !e.text.is_char_boundary(span.start) {
            continue;
        }
        pieces.push((false, &e.text[at..span.start]));
        pieces.push((true, &e.text[span.clone()]));
        at = span.end;
    }
    pieces.push((false, &e.text[at..]));
    html! {
        @for (read, piece) in pieces {
            @if read { mark { (piece) } } @else { (piece) }
        }
    }
}

fn remediation(r: &RemediationDoc) -> Markup {
    html! {
        div.remediation {
            h4 { "What to do" }
            p.meta {
                "Fix: " (r.status()) " (" a href=(r.ticket_url) rel="noreferrer" { (r.ticket_url) } "). "
                "Affected: " (r.affected)
            }
            @if r.fixed_in.is_none() {
                p.meta { (r.fix) }
            }
            ol.steps {
                @for (purpose, command) in &r.steps {
                    li {
                        (purpose)
                        @if let Some(command) = command {
                            pre.command { code { (command) } }
                        }
                    }
                }
            }
            p.meta { "Attach to a ticket:" }
            ul.attach {
                @for item in &r.attach {
                    li { (item) }
                }
            }
        }
    }
}

fn gaps(doc: &Document) -> Markup {
    html! {
        @if !doc.gaps.is_empty() {
            section.gaps {
                h2 { "Gaps: what the logs lack" }
                ul {
                    @for g in &doc.gaps {
                        li {
                            code { (g.rule) } " on " (g.hosts.join(", ")) ": " (g.missing)
                            @if !g.enable.is_empty() {
                                pre { (g.enable.join("\n")) }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn inputs(doc: &Document, zone: &DisplayZone) -> Markup {
    let i = &doc.inputs;
    html! {
        section.inputs {
            h2 { "Inputs" }
            p {
                (i.files) " files, " (i.bytes) " bytes, " (i.records) " records, "
                (i.typed_events) " typed events, " (i.unrecognized) " unrecognized, "
                (i.unreadable.len()) " unreadable."
            }
            @if !doc.hosts.is_empty() {
                table.hosts {
                    thead {
                        tr {
                            th { "host" } th { "components" } th { "files" } th { "records" }
                            th { "first" } th { "last" }
                        }
                    }
                    tbody {
                        @for h in &doc.hosts {
                            tr {
                                td { (h.host) }
                                td { (h.components.join(", ")) }
                                td.num { (h.files) }
                                td.num { (h.records) }
                                td.time { (zone.format_or_dash(h.first_ms)) }
                                td.time { (zone.format_or_dash(h.last_ms)) }
                            }
                        }
                    }
                }
            }
            @if !i.unreadable.is_empty() {
                ul {
                    @for u in &i.unreadable {
                        li { "unreadable: " code { (u.path) } ": " (u.reason) }
                    }
                }
            }
        }
    }
}

/// Per rule, whether the logs let it run (the findings document's `coverage`), and settings
/// that could not be used.
fn coverage(doc: &Document) -> Markup {
    if doc.coverage.is_empty() {
        return html! {};
    }
    let lines = super::coverage_lines(doc);
    html! {
        section.coverage {
            h2 { "Coverage" }
            p { (super::coverage_headline(doc)) }
            @if !lines.is_empty() || !doc.warnings.is_empty() {
                ul {
                    @for line in &lines { li { (line) } }
                    @for warning in &doc.warnings { li { "warning: " (warning) } }
                }
            }
        }
    }
}

/// The rules this scan ran, with their findings and gaps: what the scan could and could not
/// see. (The coverage section of the findings document, when it has one, belongs here.)
fn rules_run(doc: &Document) -> Markup {
    if doc.rules_run.is_empty() {
        return html! {};
    }
    html! {
        section.rules {
            h2 { "Rules" }
            table.rules {
                thead { tr { th { "rule" } th { "findings" } th { "gaps" } } }
                tbody {
                    @for id in &doc.rules_run {
                        tr {
                            td { code { (id) } }
                            td.num { (doc.findings.iter().filter(|f| f.rule == *id).count()) }
                            td {
                                @let gaps: Vec<&str> = doc.gaps.iter()
                                    .filter(|g| g.rule == *id).map(|g| g.missing.as_str()).collect();
                                @if gaps.is_empty() { "none" } @else { (gaps.join("; ")) }
                            }
                        }
                    }
                }
            }
        }
    }
}
