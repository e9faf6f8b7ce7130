//! Plain-text views for people: findings, stats, rules, kinds, replay.

use super::Document;
use crate::cli::ColorChoice;
use crate::commands::time_or_dash;
use crate::pipeline::Parsed;
use oztrace_analyzer::Analysis;
use oztrace_parser::entity::Entity;
use oztrace_rules::{Rule, RuleDoc};
use std::fmt::Write;
use std::io::IsTerminal;

/// Whether text output is coloured: `--color`, then NO_COLOR, then whether stdout is a terminal.
pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

fn paint(on: bool, code: &str, text: &str) -> String {
    if on {
        format!("\x1b[{code}m{text}\x1b[0m")
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
    let mut line = match doc.findings.len() {
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

pub fn findings_text(doc: &Document, color: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", paint(color, "1", &headline(doc)));
    let mut current_group: Option<(&str, &str)> = None;
    for f in &doc.findings {
        if current_group != Some((f.severity, f.rule)) {
            current_group = Some((f.severity, f.rule));
            let mut heading = format!("{} · {}", f.severity.to_uppercase(), f.rule);
            if !f.ticket.is_empty() {
                heading.push_str(&format!(" ({})", f.ticket));
            }
            let code = if f.severity == "high" || f.severity == "critical" {
                "1;31"
            } else {
                "1;33"
            };
            let _ = writeln!(out, "\n{}", paint(color, code, &heading));
        }
        let _ = writeln!(
            out,
            "\n  {} [{}]",
            paint(color, "1", &printable(&f.entity)),
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
        for e in &f.evidence {
            let _ = writeln!(
                out,
                "    {:<24} {:<8} {:<7} {}:{}  {}",
                e.ts.as_deref().unwrap_or("-"),
                e.host,
                format!("{:?}", e.role).to_lowercase(),
                e.file,
                e.line,
                paint(color, "2", &printable(&e.note)),
            );
            let _ = writeln!(out, "        {}", truncate(&printable(&e.text), 200));
        }
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

pub fn stats_text(parsed: &Parsed) -> String {
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
                    time_or_dash(s.summary.first_ts),
                    time_or_dash(s.summary.last_ts)
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
    for u in &parsed.unreadable {
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

pub fn stats_json(parsed: &Parsed) -> String {
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
    let doc = serde_json::json!({
        "schema": "oztrace.stats/v1",
        "files": files,
        "unreadable": parsed.unreadable,
        "skipped": parsed.skipped,
    });
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
                d.title.into(),
            ]
        })
        .collect();
    if rows.is_empty() {
        return "No rules are registered in this build.\n".to_string();
    }
    let mut out = table(&["rule", "ticket", "severity", "what it finds"], &rows);
    out.push_str("\n`oztrace explain RULE` shows a rule's evidence and the loggers it needs.\n");
    out
}

pub fn explain(doc: &RuleDoc) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}, severity {})\n",
        doc.id,
        doc.ticket,
        doc.severity.as_str()
    );
    let _ = writeln!(out, "{}\n", doc.title);
    let _ = writeln!(out, "What it detects:\n{}\n", doc.detects);
    let _ = writeln!(out, "Why it matters:\n{}\n", doc.why);
    let _ = writeln!(out, "Evidence and confidence:\n{}\n", doc.evidence);
    let _ = writeln!(out, "Example:\n{}\n", doc.example);
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
    out.push_str(&needs_and_settings(doc));
    out
}

/// The logs a rule reads and the settings it takes (`--set KEY=VALUE`, `ozone-site.xml`).
fn needs_and_settings(doc: &RuleDoc) -> String {
    let mut out = String::from(
        "
Logs it reads:
",
    );
    for need in doc.needs {
        let components: Vec<&str> = need.components.iter().map(|c| c.as_str()).collect();
        let kind = if need.required {
            "required"
        } else {
            "optional"
        };
        let _ = writeln!(out, "  {} ({}), {kind}", need.what, components.join(" or "));
    }
    if !doc.settings.is_empty() {
        out.push_str(
            "
Settings it reads (--set KEY=VALUE, or ozone-site.xml in the inputs):
",
        );
        for setting in doc.settings {
            let _ = writeln!(out, "  {} (default {})", setting.key, setting.default);
        }
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
    table(
        &["kind", "log", "level", "class", "releases", "template"],
        &rows,
    )
}

/// `oztrace replay --entity`: one line per event of the entity, with its machines' states.
pub fn replay_lines(analysis: &Analysis, entity: &Entity) -> String {
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
            .filter(|t| &t.entity == entity)
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
            time_or_dash(e.ts),
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
        for t in analysis.replay.of_event(id).filter(|t| &t.entity == entity) {
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
