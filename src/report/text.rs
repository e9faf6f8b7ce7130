//! Plain-text views for people: findings, stats, rules, kinds, replay.
//!
//! Styles are anstyle's; whether they reach the terminal is decided where the text is written
//! (`--color`, NO_COLOR, CLICOLOR_FORCE, a terminal or not: anstream).

use super::{Document, FindingDoc, View, WindowDoc, excerpt};
use crate::when::DisplayZone;
use anstyle::{AnsiColor, Style};
use oztrace_analyzer::Analysis;
use oztrace_analyzer::load::Parsed;
use oztrace_parser::entity::Entity;
use oztrace_rules::{Rule, RuleDoc};
use std::fmt::Write;

/// Characters of an evidence line shown without `--wide`.
const EVIDENCE_BUDGET: usize = 160;

pub const BOLD: Style = Style::new().bold();
pub const DIM: Style = Style::new().dimmed();
pub const RED: Style = AnsiColor::Red.on_default().bold();
pub const YELLOW: Style = AnsiColor::Yellow.on_default().bold();

/// `text` in `style` when `on`.
pub fn paint(on: bool, style: Style, text: &str) -> String {
    if on {
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

/// One line for the top of a report: how many findings at which severity, and how many the
/// baseline suppressed.
pub fn headline(doc: &Document) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for f in &doc.findings {
        match counts.iter_mut().find(|(s, _)| *s == f.severity) {
            Some((_, n)) => *n += 1,
            None => counts.push((f.severity, 1)),
        }
    }
    // "No findings" says the rules ran: when none could, the headline says so instead.
    let none_ran = !doc.coverage.is_empty()
        && (doc.coverage.iter()).all(|c| c.status == oztrace_rules::coverage::Status::Blind);
    let mut line = match doc.findings.len() {
        0 if none_ran => {
            "No findings: no rule could run on what the logs hold (see Coverage)".to_string()
        }
        0 => "No findings".to_string(),
        1 => "1 finding".to_string(),
        n => format!("{n} findings"),
    };
    if !counts.is_empty() {
        let parts: Vec<String> = counts.iter().map(|(s, n)| format!("{n} {s}")).collect();
        line.push_str(&format!(" ({})", parts.join(", ")));
    }
    if doc.suppressed > 0 {
        line.push_str(&format!("; {} suppressed by the baseline", doc.suppressed));
    }
    if let Some(w) = &doc.window {
        line.push_str(&format!(
            "; analysed {} events from {} to {}",
            w.events,
            w.since.as_deref().unwrap_or("the start"),
            w.until.as_deref().unwrap_or("the end")
        ));
    }
    line.push('.');
    line
}

/// The sentence that says which zone a view's times are in.
pub fn zone_note(zone: &DisplayZone) -> String {
    if zone.is_utc() {
        "Times are UTC (--display-tz to change).".to_string()
    } else {
        format!("Times are in {} (UTC offset shown with each).", zone.name())
    }
}

pub fn findings_text(doc: &Document, view: &View) -> String {
    let color = view.color;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {}",
        paint(color, BOLD, &headline(doc)),
        zone_note(&view.zone)
    );
    let host_width = doc
        .findings
        .iter()
        .flat_map(|f| f.evidence.iter().map(|e| e.host.chars().count()))
        .max()
        .unwrap_or(0)
        .max(4);
    let mut group_start = 0;
    while group_start < doc.findings.len() {
        let first = &doc.findings[group_start];
        let group_end = doc.findings[group_start..]
            .iter()
            .position(|f| (f.severity, f.rule) != (first.severity, first.rule))
            .map_or(doc.findings.len(), |n| group_start + n);
        rule_heading(&mut out, first, color);
        for f in &doc.findings[group_start..group_end] {
            finding(&mut out, f, view, host_width);
        }
        if let Some(r) = &first.remediation
            && !r.attach.is_empty()
        {
            let _ = writeln!(out, "\n  {}", paint(color, BOLD, "Attach to a ticket:"));
            for item in &r.attach {
                let _ = writeln!(out, "    - {item}");
            }
        }
        group_start = group_end;
    }
    let i = &doc.inputs;
    let _ = writeln!(
        out,
        "\nInputs: {} files, {} bytes, {} records, {} typed, {} unrecognized, {} unreadable",
        i.files,
        i.bytes,
        i.records,
        i.typed_events,
        i.unrecognized,
        i.unreadable.len()
    );
    for u in &i.unreadable {
        let _ = writeln!(out, "  unreadable: {}: {}", u.path, u.reason);
    }
    coverage_text(&mut out, doc);
    if !doc.gaps.is_empty() {
        out.push_str("\nGaps (what the logs lack, and what to switch on):\n");
        for g in &doc.gaps {
            let _ = writeln!(out, "  {} on {}: {}", g.rule, g.hosts.join(", "), g.missing);
            for line in &g.enable {
                let _ = writeln!(out, "    {line}");
            }
        }
    }
    out
}

fn coverage_text(out: &mut String, doc: &Document) {
    if doc.coverage.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{}", super::coverage_headline(doc));
    for line in super::coverage_lines(doc) {
        let _ = writeln!(out, "  {}", printable(&line));
    }
    for warning in &doc.warnings {
        let _ = writeln!(out, "  warning: {}", printable(warning));
    }
}

fn rule_heading(out: &mut String, f: &FindingDoc, color: bool) {
    let mut heading = format!("{} · {}", f.severity.to_uppercase(), f.rule);
    if !f.ticket.is_empty() {
        heading.push_str(&format!(" ({})", f.ticket));
    }
    let style = if f.severity == "high" || f.severity == "critical" {
        RED
    } else {
        YELLOW
    };
    let _ = writeln!(out, "\n{}", paint(color, style, &heading));
    if let Some(r) = &f.remediation {
        let _ = writeln!(out, "  fix: {} · {}", r.status(), r.ticket_url);
        let _ = writeln!(out, "  affected: {}", r.affected);
        if r.fixed_in.is_none() {
            let _ = writeln!(out, "  {}", r.fix);
        }
    }
}

fn finding(out: &mut String, f: &FindingDoc, view: &View, host_width: usize) {
    let color = view.color;
    let _ = writeln!(
        out,
        "\n  {} [{}]",
        paint(color, BOLD, &printable(&f.entity)),
        f.confidence
    );
    let _ = writeln!(out, "    {}", printable(&f.summary));
    let _ = writeln!(
        out,
        "    why {}: {}",
        f.confidence,
        printable(&f.confidence_reason)
    );
    if !f.related.is_empty() {
        let _ = writeln!(out, "    related: {}", printable(&f.related.join(", ")));
    }
    let time_width = f
        .evidence
        .iter()
        .map(|e| view.zone.format_or_dash(e.ts_ms).len())
        .max()
        .unwrap_or(1);
    for e in &f.evidence {
        let _ = writeln!(
            out,
            "    {:<time_width$}  {:<host_width$}  {:<7}  {}:{}  {}",
            view.zone.format_or_dash(e.ts_ms),
            printable(&e.host),
            e.role_name(),
            printable(&e.file),
            e.line,
            paint(color, DIM, &printable(&e.note)),
        );
        let text = if view.wide {
            e.text.clone()
        } else {
            excerpt::cut(&e.text, &e.read, EVIDENCE_BUDGET)
        };
        let _ = writeln!(out, "        {}", printable(&text));
    }
    if let Some(r) = &f.remediation {
        let _ = writeln!(out, "    {}", paint(color, BOLD, "What to do:"));
        for (purpose, command) in &r.steps {
            let _ = writeln!(out, "      - {purpose}");
            if let Some(command) = command {
                let _ = writeln!(out, "          $ {}", paint(color, BOLD, command));
            }
        }
    }
}

/// Log text with control characters (escape sequences a log line may carry) made visible, so
/// the terminal shows the line instead of obeying it.
pub(super) fn printable(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

/// A table's header line in bold (the writer strips styles when colour is off).
fn paint_header(table: String) -> String {
    match table.split_once('\n') {
        Some((header, rest)) => format!("{}\n{rest}", paint(true, BOLD, header)),
        None => table,
    }
}

/// A table with left-aligned columns.
fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        let last = cells.len() - 1;
        for (i, cell) in cells.iter().enumerate() {
            if i == last {
                let _ = write!(out, "{cell}");
            } else {
                let _ = write!(out, "{cell:<w$}  ", w = widths[i]);
            }
        }
        out.push('\n');
    };
    line(header.to_vec(), &mut out);
    for row in rows {
        line(row.iter().map(String::as_str).collect(), &mut out);
    }
    out
}

pub fn stats_text(parsed: &Parsed, zone: &DisplayZone, window: Option<&WindowDoc>) -> String {
    let rows: Vec<Vec<String>> = parsed
        .streams
        .iter()
        .map(|s| {
            vec![
                s.file.to_string(),
                s.component.as_str().to_string(),
                s.host.to_string(),
                s.summary.layout.clone().unwrap_or_else(|| "?".into()),
                s.summary.records.to_string(),
                s.typed.to_string(),
                s.unrecognized.to_string(),
                format!(
                    "{} .. {}",
                    zone.format_or_dash(s.summary.first_ts),
                    zone.format_or_dash(s.summary.last_ts)
                ),
            ]
        })
        .collect();
    let mut out = table(
        &[
            "file",
            "component",
            "host",
            "layout",
            "records",
            "typed",
            "unrecognized",
            "time range",
        ],
        &rows,
    );
    if let Some(w) = window {
        let _ = writeln!(
            out,
            "\nCounts and time ranges are of the records from {} to {}.",
            w.since.as_deref().unwrap_or("the start"),
            w.until.as_deref().unwrap_or("the end")
        );
    }
    let _ = writeln!(out, "{}", zone_note(zone));
    let info: u64 = parsed.streams.iter().map(|s| s.info_records).sum();
    let info_typed: u64 = parsed.streams.iter().map(|s| s.info_typed).sum();
    let _ = writeln!(
        out,
        "\n{} files, {} bytes, {} records, {} typed, {} unrecognized; INFO-or-above typed: {}/{} ({})",
        parsed.streams.len(),
        parsed.bytes(),
        parsed.records(),
        parsed.typed(),
        parsed.unrecognized(),
        info_typed,
        info,
        percent(info_typed, info),
    );
    let mut any_shapes = false;
    for s in &parsed.streams {
        let mut shapes: Vec<(&String, &u64)> = s.shapes.iter().collect();
        if shapes.is_empty() {
            continue;
        }
        if !any_shapes {
            out.push_str("\nMost frequent unrecognized message shapes:\n");
            any_shapes = true;
        }
        shapes.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let _ = writeln!(out, "  {}", s.file);
        for (shape, n) in shapes.into_iter().take(5) {
            let _ = writeln!(out, "    {n:>6}  {}", truncate(shape, 110));
        }
    }
    out.push_str(&truncated_lines(parsed));
    for u in &parsed.all_unreadable() {
        let _ = writeln!(out, "unreadable: {}: {}", u.path, u.reason);
    }
    for s in &parsed.skipped {
        let _ = writeln!(out, "skipped (not a log): {s}");
    }
    out
}

/// One line per stream that had records cut at the line or continuation cap.
fn truncated_lines(parsed: &Parsed) -> String {
    let mut out = String::new();
    for s in parsed
        .streams
        .iter()
        .filter(|s| s.summary.truncated_records > 0)
    {
        let _ = writeln!(
            out,
            "truncated: {}: {} records, {} bytes not kept (lines are kept up to {} KiB)",
            s.file,
            s.summary.truncated_records,
            s.summary.bytes_not_kept,
            oztrace_parser::record::MAX_LINE_BYTES >> 10
        );
    }
    out
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "n/a".into()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

pub fn stats_json(parsed: &Parsed, window: Option<&WindowDoc>) -> String {
    let files: Vec<serde_json::Value> = parsed
        .streams
        .iter()
        .map(|s| {
            let mut shapes: Vec<(&String, &u64)> = s.shapes.iter().collect();
            shapes.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            serde_json::json!({
                "file": &*s.file,
                "component": s.component.as_str(),
                "host": &*s.host,
                "layout": s.summary.layout,
                "lines": s.summary.lines,
                "records": s.summary.records,
                "typed_events": s.typed,
                "unrecognized": s.unrecognized,
                "continuation_lines": s.summary.continuation_lines,
                "truncated_records": s.summary.truncated_records,
                "bytes_not_kept": s.summary.bytes_not_kept,
                "info_records": s.info_records,
                "info_typed": s.info_typed,
                "first_ts": s.summary.first_ts.map(oztrace_parser::time::format_rfc3339),
                "last_ts": s.summary.last_ts.map(oztrace_parser::time::format_rfc3339),
                "unrecognized_shapes": shapes.into_iter().take(10)
                    .map(|(shape, n)| serde_json::json!({"shape": shape, "count": n}))
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut doc = serde_json::json!({
        "schema": "oztrace.stats/v1",
        "files": files,
        "unreadable": parsed.all_unreadable(),
        "skipped": parsed.skipped,
    });
    if let Some(w) = window {
        doc["window"] = serde_json::json!(w);
    }
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}

pub fn rules_table(rules: &[&'static dyn Rule]) -> String {
    let rows: Vec<Vec<String>> = rules
        .iter()
        .map(|r| {
            let d = r.doc();
            vec![
                d.id.into(),
                d.ticket.into(),
                d.severity.as_str().into(),
                d.title().into(),
            ]
        })
        .collect();
    if rows.is_empty() {
        return "No rules are registered in this build.\n".to_string();
    }
    let mut out = paint_header(table(
        &["rule", "ticket", "severity", "what it finds"],
        &rows,
    ));
    out.push_str("\n`oztrace explain RULE` shows a rule's evidence and the loggers it needs.\n");
    out
}

pub fn explain(doc: &RuleDoc) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}\n",
        paint(
            true,
            BOLD,
            &format!(
                "{} ({}, severity {})",
                doc.id,
                doc.ticket,
                doc.severity.as_str()
            )
        )
    );
    let _ = writeln!(out, "{}\n\n{}\n", doc.title(), doc.body());
    if !doc.settings.is_empty() {
        out.push_str(
            "Settings it reads (from --set KEY=VALUE, else ozone-site.xml in the bundle, else the default):\n\n",
        );
        for s in doc.settings {
            let _ = writeln!(
                out,
                "{} = {}\n    default from: {}\n    used for: {}",
                s.key, s.default, s.default_from, s.used_for
            );
        }
        out.push('\n');
    }
    let r = &doc.remediation;
    let _ = writeln!(
        out,
        "Fix: {} ({})\nAffected: {}\n{}\n",
        r.fixed_in
            .map_or("open".to_string(), |v| format!("fixed in {v}")),
        doc.ticket_url(),
        r.affected,
        r.fix
    );
    out.push_str(
        "What to do about a finding ({container}, {datanode}, … are the finding's own in reports):\n",
    );
    for action in r.actions {
        let _ = writeln!(out, "  - {}", action.purpose);
        if let Some(command) = action.command {
            let _ = writeln!(out, "      $ {command}");
        }
    }
    out.push_str("Attach to a ticket:\n");
    for item in r.attach {
        let _ = writeln!(out, "  - {item}");
    }
    out.push('\n');
    if doc.loggers.is_empty() {
        out.push_str("It needs no logger above the default INFO level.\n");
    } else {
        out.push_str(
            "Loggers that sharpen it: paste these lines into log4j.properties on every host\n\
             that runs the component (the change takes effect when log4j reloads or at restart):\n\n",
        );
        for line in doc.loggers {
            let _ = writeln!(out, "{line}");
        }
    }
    out.push_str(&needs(doc));
    out
}

/// The logs a rule reads, for the report's coverage.
fn needs(doc: &RuleDoc) -> String {
    let mut out = String::from("\nLogs it reads:\n");
    for need in doc.needs {
        let components: Vec<&str> = need.components.iter().map(|c| c.as_str()).collect();
        let kind = if need.required {
            "required"
        } else {
            "optional"
        };
        let _ = writeln!(out, "  {} ({}), {kind}", need.what, components.join(" or "));
    }
    out
}

pub fn kinds_table() -> String {
    let rows: Vec<Vec<String>> = oztrace_parser::catalog::kinds()
        .map(|k| {
            vec![
                k.kind.into(),
                k.log.into(),
                k.level.into(),
                k.class.into(),
                k.releases.into(),
                k.template.into(),
            ]
        })
        .collect();
    paint_header(table(
        &["kind", "log", "level", "class", "releases", "template"],
        &rows,
    ))
}

/// `oztrace replay --entity`: one line per event of the entity, with its machines' states.
pub fn replay_lines(analysis: &Analysis, entity: &Entity, zone: &DisplayZone) -> String {
    let mut out = String::new();
    // Events that name the entity, and events a machine tied to it by other means (a
    // `TrackedNode@hash` resolved to its datanode), in trace order.
    let ids: std::collections::BTreeSet<usize> = analysis
        .trace
        .of_entity(entity)
        .iter()
        .copied()
        .chain(analysis.replay.of_entity(entity).map(|t| t.event))
        .collect();
    if ids.is_empty() {
        let _ = writeln!(out, "no events name {entity}");
        return out;
    }
    for id in ids {
        let e = analysis.trace.get(id);
        let steps: Vec<String> = analysis
            .replay
            .of_event(id)
            .filter(|t| *t.entity == *entity)
            .map(|t| {
                let scope = t
                    .scope
                    .as_deref()
                    .map(|s| format!("@{s} "))
                    .unwrap_or_default();
                let mark = if t.inferred.is_some() {
                    " (inferred)"
                } else {
                    ""
                };
                let bad = if t.illegal { " ILLEGAL" } else { "" };
                format!("{}: {scope}{} -> {}{mark}{bad}", t.machine, t.from, t.to)
            })
            .collect();
        let _ = writeln!(
            out,
            "{} {:<10} {:<34} {:<40} {}:{}",
            zone.format_or_dash(e.ts),
            e.host,
            e.kind(),
            if steps.is_empty() {
                "-".to_string()
            } else {
                steps.join("; ")
            },
            e.file,
            e.line
        );
        for t in analysis
            .replay
            .of_event(id)
            .filter(|t| *t.entity == *entity)
        {
            if let Some(line) = t.inferred {
                let _ = writeln!(
                    out,
                    "    inferred: not logged at INFO; {line} would show it"
                );
            }
        }
    }
    out
}
