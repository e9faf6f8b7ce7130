//! `scan --format markdown`: findings to paste into a ticket.
//!
//! Log text goes into fenced code blocks (a fence longer than any backtick run inside), entities
//! into code spans, and every other piece of text is backslash-escaped, so nothing a log line
//! says can turn into markup, links or HTML in the ticket.

use super::text::printable;
use super::{Document, View};
use oztrace_rules::Rule;
use std::fmt::Write;

pub fn findings_markdown(doc: &Document, view: &View) -> String {
    let mut out = String::from("# oztrace findings\n\n");
    let _ = writeln!(
        out,
        "{} {}\n",
        super::text::headline(doc),
        super::text::zone_note(&view.zone)
    );
    let mut group: Option<(&str, &str)> = None;
    for f in &doc.findings {
        if group != Some((f.severity, f.rule)) {
            group = Some((f.severity, f.rule));
            let ticket = if f.ticket.is_empty() {
                String::new()
            } else {
                format!(" ({})", escape(f.ticket))
            };
            let _ = writeln!(
                out,
                "## {} · {}{ticket}\n",
                f.severity.to_uppercase(),
                escape(f.rule),
            );
            if let Some(r) = &f.remediation {
                let _ = writeln!(
                    out,
                    "Fix: {} ([{}]({})). Affected: {}\n",
                    r.status(),
                    escape(f.ticket),
                    r.ticket_url,
                    escape(r.affected)
                );
                if r.fixed_in.is_none() {
                    let _ = writeln!(out, "{}\n", escape(r.fix));
                }
                let attach: Vec<String> = r.attach.iter().map(|a| escape(a)).collect();
                let _ = writeln!(out, "Attach to a ticket: {}.\n", attach.join("; "));
            }
        }
        let _ = writeln!(out, "### {} — {}\n", code(&f.entity), f.confidence);
        let _ = writeln!(out, "{}\n", escape(&f.summary));
        let _ = writeln!(
            out,
            "- **Why {}:** {}",
            f.confidence,
            escape(&f.confidence_reason)
        );
        if !f.related.is_empty() {
            let related: Vec<String> = f.related.iter().map(|r| code(r)).collect();
            let _ = writeln!(out, "- **Related:** {}", related.join(", "));
        }
        let times: Vec<i64> = f.evidence.iter().filter_map(|e| e.ts_ms).collect();
        let _ = writeln!(
            out,
            "- **Seen:** {} → {} on {}",
            view.zone.format_or_dash(times.iter().min().copied()),
            view.zone.format_or_dash(times.iter().max().copied()),
            escape(&f.hosts.join(", "))
        );
        let _ = writeln!(out, "- **Fingerprint:** `{}`\n", f.fingerprint);
        let mut block = String::new();
        for e in &f.evidence {
            let _ = writeln!(
                block,
                "{} {} {} {}:{}  ({})\n    {}",
                view.zone.format_or_dash(e.ts_ms),
                e.host,
                e.role_name(),
                e.file,
                e.line,
                printable(&e.note),
                printable(&e.text)
            );
        }
        out.push_str(&fenced("text", &block));
        out.push('\n');
        if let Some(r) = &f.remediation {
            out.push_str("**What to do:**\n\n");
            for (purpose, command) in &r.steps {
                let _ = write!(out, "- {}", escape(purpose));
                if let Some(command) = command {
                    let _ = write!(out, ": {}", code(command));
                }
                out.push('\n');
            }
            out.push('\n');
        }
    }
    if !doc.gaps.is_empty() {
        out.push_str("## Gaps\n\n");
        for g in &doc.gaps {
            let _ = writeln!(
                out,
                "- {} on {}: {}",
                code(g.rule),
                escape(&g.hosts.join(", ")),
                escape(&g.missing)
            );
            if !g.enable.is_empty() {
                let mut lines = g.enable.join("\n");
                lines.push('\n');
                for line in fenced("properties", &lines).lines() {
                    let _ = writeln!(out, "  {line}");
                }
            }
        }
        out.push('\n');
    }
    coverage_markdown(&mut out, doc);
    out.push_str("## Inputs\n\n");
    let i = &doc.inputs;
    let _ = writeln!(
        out,
        "{} files, {} bytes, {} records, {} typed events, {} unrecognized, {} unreadable.",
        i.files,
        i.bytes,
        i.records,
        i.typed_events,
        i.unrecognized,
        i.unreadable.len()
    );
    for u in &i.unreadable {
        let _ = writeln!(
            out,
            "- unreadable: {}: {}",
            code(&u.path),
            escape(&u.reason)
        );
    }
    out
}

/// The rules as a Markdown table (`oztrace rules --format markdown`: the README's table).
pub fn rules_markdown(rules: &[&'static dyn Rule]) -> String {
    let mut out = String::from("| rule | ticket | severity | what it finds |\n|---|---|---|---|\n");
    for rule in rules {
        let doc = rule.doc();
        let _ = writeln!(
            out,
            "| `{}` | [{}]({}) | {} | {} |",
            doc.id,
            doc.ticket,
            doc.ticket_url(),
            doc.severity.as_str(),
            escape(doc.title())
        );
    }
    out
}

/// Backslash-escapes the characters that make Markdown or HTML out of plain text.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '#' | '!' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// The longest run of backticks in `text`.
fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// A code span that holds any text: a delimiter longer than its backtick runs, padded.
fn code(text: &str) -> String {
    let one_line = text.replace(['\n', '\r'], " ");
    let ticks = "`".repeat(longest_backtick_run(&one_line) + 1);
    format!("{ticks} {one_line} {ticks}")
}

/// A fenced code block that holds any text.
fn fenced(info: &str, body: &str) -> String {
    let fence = "`".repeat((longest_backtick_run(body) + 1).max(3));
    format!("{fence}{info}\n{body}{fence}\n")
}

fn coverage_markdown(out: &mut String, doc: &Document) {
    if doc.coverage.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## Coverage\n\n{}\n",
        escape(&super::coverage_headline(doc))
    );
    for line in super::coverage_lines(doc) {
        let _ = writeln!(out, "- {}", escape(&line));
    }
    for warning in &doc.warnings {
        let _ = writeln!(out, "- warning: {}", escape(warning));
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_and_fences_outgrow_backticks_inside() {
        assert_eq!(code("container:1"), "` container:1 `");
        assert_eq!(code("key:/v/b/a``b"), "``` key:/v/b/a``b ```");
        assert_eq!(fenced("text", "x ```` y\n"), "`````text\nx ```` y\n`````\n");
        assert_eq!(fenced("text", "plain\n"), "```text\nplain\n```\n");
    }

    #[test]
    fn escape_neutralises_markup() {
        assert_eq!(
            escape("<script>[x](y) *a* |b|"),
            "\\<script\\>\\[x\\](y) \\*a\\* \\|b\\|"
        );
    }
}

#[cfg(test)]
mod document_tests {
    use super::super::fixture::{self, HOSTILE_SCRIPT};
    use super::*;

    /// The Markdown outside fenced code blocks.
    fn prose(md: &str) -> String {
        let mut inside = false;
        let mut out = String::new();
        for line in md.lines() {
            if line.trim_start().starts_with("```") {
                inside = !inside;
                continue;
            }
            if !inside {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }

    #[test]
    fn log_text_stays_in_code_blocks_and_prose_is_escaped() {
        let md = findings_markdown(&fixture::document(), &View::default());
        assert!(md.starts_with(
            "# oztrace findings\n\n2 findings (2 medium). Times are UTC (--display-tz to change).\n"
        ));
        assert!(md.contains("## MEDIUM · resurrected-container\n"));
        assert!(md.contains("### ` container:1051 ` — confirmed"));
        assert!(md.contains("- **Related:** ` datanode:b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13 `"));
        // Hostile log text appears verbatim, inside a fence only.
        assert!(md.contains(HOSTILE_SCRIPT));
        let prose = prose(&md);
        assert!(!prose.contains("<script"));
        assert!(prose.contains("for \\<b\\>key\\</b\\>."));
        // Code spans keep the entity as written.
        assert!(prose.contains("` key:/vol/bucket/<b>key</b> `"));
        assert!(md.contains(
            "2026-08-20T11:02:47.000Z scm1 cause scm1/ozone-scm.log:1234  (SCM closes the container)\n    Container #1051 is closed\n"
        ));
        assert!(md.contains("```properties"));
        assert!(
            !md.contains('\x1b'),
            "escape sequences from logs are made visible"
        );
        assert!(md.contains("- unreadable: ` dn3/ozone.log.gz `: corrupt gzip stream"));
    }
}
