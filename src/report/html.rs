//! `scan --report FILE.html`: one self-contained page for people.
//!
//! Per finding: its summary, confidence and reason, an SVG swimlane timeline (one lane per host,
//! evidence as marks on a time axis, causal links as arrows, each mark's log line as its
//! tooltip) and the evidence table. The page loads nothing: no network, no fonts, no images. A
//! Content-Security-Policy allows exactly oztrace's own style sheet and script by hash, so even a
//! log line that slipped through escaping could not run. All log-derived text is escaped.

use super::{Document, EvidenceDoc, FindingDoc};
use oztrace_parser::time::format_rfc3339;
use oztrace_rules::Role;
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// The page's only script: hovering or focusing a mark highlights its evidence row and shows its
/// log line under the timeline; hovering a row highlights its mark. It writes `textContent`
/// only, never markup.
pub const SCRIPT: &str = r#"(function () {
  "use strict";
  function pair(el) {
    var id = el.getAttribute("data-pair");
    return id ? document.getElementById(id) : null;
  }
  function show(el, on) {
    var other = pair(el);
    el.classList.toggle("hot", on);
    if (other) { other.classList.toggle("hot", on); }
    var section = el.closest("section.finding");
    var line = section ? section.querySelector(".hover-line") : null;
    var mark = el.classList.contains("mark") ? el : other;
    if (line && mark && on) {
      var title = mark.querySelector("title");
      line.textContent = title ? title.textContent : "";
    }
  }
  document.querySelectorAll(".mark, tr.ev").forEach(function (el) {
    ["mouseenter", "focus"].forEach(function (e) {
      el.addEventListener(e, function () { show(el, true); });
    });
    ["mouseleave", "blur"].forEach(function (e) {
      el.addEventListener(e, function () { show(el, false); });
    });
  });
  document.documentElement.setAttribute("data-oztrace", "ready");
})();
"#;

const STYLE: &str = r#"
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 1em 2em; color: #1d1d1f; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; } h3 { font-size: 1.05em; }
code, pre, td.text { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
.sev-critical, .sev-high { color: #b3261e; } .sev-medium { color: #9a5b00; } .sev-low { color: #555; }
.finding { border: 1px solid #ddd; border-radius: 6px; padding: 0.6em 1em 1em; margin: 1em 0; }
.badge { display: inline-block; border-radius: 3px; padding: 0 0.4em; background: #eee; font-size: 0.85em; }
.why, .meta { color: #444; }
svg.lanes { width: 100%; height: auto; background: #fafafa; border: 1px solid #eee; }
svg .lane-label { font-size: 12px; fill: #333; } svg .tick { font-size: 10px; fill: #666; }
svg .lane { stroke: #ccc; } svg .axis { stroke: #999; }
svg .mark { cursor: pointer; outline: none; }
svg .mark.hot circle, svg .mark.hot rect, svg .mark:focus circle, svg .mark:focus rect { stroke: #000; stroke-width: 2.5; }
svg .link { fill: none; stroke: #5856d6; stroke-width: 1.5; }
svg .untimed { fill: #888; font-size: 10px; }
.hover-line { min-height: 1.4em; background: #f4f4f8; padding: 0.3em 0.5em; white-space: pre-wrap; word-break: break-all; margin: 0.4em 0; }
table { border-collapse: collapse; width: 100%; } td, th { text-align: left; vertical-align: top; padding: 2px 6px; border-bottom: 1px solid #eee; }
td.text { white-space: pre-wrap; word-break: break-all; }
td.time { white-space: nowrap; }
tr.ev.hot { background: #fff3c4; }
.role-cause { color: #b3261e; } .role-effect { color: #b25e00; } .role-context { color: #666; }
.legend span { margin-right: 1.2em; }
"#;

const WIDTH: f64 = 960.0;
const LABEL: f64 = 150.0;
const RIGHT: f64 = 70.0;
const TOP: f64 = 28.0;
const LANE: f64 = 34.0;
/// Marks on one lane closer than this are nudged apart so each stays hoverable.
const MIN_GAP: f64 = 9.0;

pub fn page(doc: &Document) -> String {
    let csp = format!(
        "default-src 'none'; script-src '{}'; style-src '{}'; img-src 'none'; base-uri 'none'; form-action 'none'",
        csp_hash(SCRIPT),
        csp_hash(STYLE)
    );
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"{} {}\">\n\
         <title>oztrace report</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(doc.tool.name),
        esc(doc.tool.version)
    );
    let _ = writeln!(
        out,
        "<h1>oztrace report</h1>\n<p class=\"meta\">{}</p>",
        esc(&super::text::headline(doc))
    );
    if !doc.findings.is_empty() {
        out.push_str("<ul class=\"toc\">\n");
        for (i, f) in doc.findings.iter().enumerate() {
            let _ = writeln!(
                out,
                "<li><a href=\"#f{i}\"><span class=\"sev-{sev}\">{sev}</span> {} <code>{}</code></a> ({})</li>",
                esc(f.rule),
                esc(&f.entity),
                esc(f.confidence),
                sev = esc(f.severity),
            );
        }
        out.push_str("</ul>\n");
        out.push_str(
            "<p class=\"legend\"><span class=\"role-cause\">● cause</span>\
             <span class=\"role-effect\">■ effect</span>\
             <span class=\"role-context\">• context</span>\
             <span>→ causal link</span></p>\n",
        );
    }
    for (i, f) in doc.findings.iter().enumerate() {
        finding(&mut out, i, f);
    }
    gaps_and_inputs(&mut out, doc);
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

fn finding(out: &mut String, i: usize, f: &FindingDoc) {
    let _ = writeln!(
        out,
        "<section class=\"finding\" id=\"f{i}\">\n<h2><span class=\"sev-{sev}\">{}</span> · {} <span class=\"badge\">{}</span></h2>",
        esc(&f.severity.to_uppercase()),
        esc(f.rule),
        esc(f.ticket),
        sev = esc(f.severity),
    );
    let _ = writeln!(
        out,
        "<h3><code>{}</code> — {}</h3>\n<p>{}</p>\n<p class=\"why\">Why {}: {}</p>",
        esc(&f.entity),
        esc(f.confidence),
        esc(&f.summary),
        esc(f.confidence),
        esc(&f.confidence_reason)
    );
    if !f.related.is_empty() {
        let related: Vec<String> = f
            .related
            .iter()
            .map(|r| format!("<code>{}</code>", esc(r)))
            .collect();
        let _ = writeln!(out, "<p class=\"meta\">Related: {}</p>", related.join(", "));
    }
    let _ = writeln!(
        out,
        "<p class=\"meta\">Seen {} → {} · fingerprint <code>{}</code></p>",
        esc(f.first_seen.as_deref().unwrap_or("-")),
        esc(f.last_seen.as_deref().unwrap_or("-")),
        esc(&f.fingerprint)
    );
    swimlanes(out, i, f);
    out.push_str(
        "<pre class=\"hover-line\">Hover over or focus a mark to read its log line.</pre>\n",
    );
    out.push_str(
        "<table class=\"evidence\">\n<tr><th>time (UTC)</th><th>host</th><th>role</th><th>file:line</th><th>log line</th></tr>\n",
    );
    for (j, e) in f.evidence.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr class=\"ev\" id=\"r{i}-{j}\" data-pair=\"m{i}-{j}\"><td class=\"time\">{}</td><td>{}</td><td class=\"role-{role}\" title=\"{}\">{role}</td><td>{}:{}</td><td class=\"text\">{}</td></tr>",
            esc(e.ts.as_deref().unwrap_or("-")),
            esc(&e.host),
            esc(&e.note),
            esc(&e.file),
            e.line,
            esc(&e.text),
            role = role(e.role),
        );
    }
    out.push_str("</table>\n</section>\n");
}

fn role(role: Role) -> &'static str {
    match role {
        Role::Cause => "cause",
        Role::Effect => "effect",
        Role::Context => "context",
    }
}

/// The swimlane timeline of one finding: positions are computed here, so the SVG is static.
fn swimlanes(out: &mut String, i: usize, f: &FindingDoc) {
    let hosts: Vec<&str> = f.hosts.iter().map(String::as_str).collect();
    let height = TOP + LANE * hosts.len().max(1) as f64 + 8.0;
    let times: Vec<i64> = f.evidence.iter().filter_map(|e| e.ts_ms).collect();
    let (t0, t1) = (
        times.iter().min().copied().unwrap_or(0),
        times.iter().max().copied().unwrap_or(0),
    );
    let span = (t1 - t0) as f64;
    let plot = WIDTH - LABEL - RIGHT;
    let x_of = |ts: Option<i64>| match ts {
        Some(t) if span > 0.0 => LABEL + 10.0 + (t - t0) as f64 / span * (plot - 20.0),
        Some(_) => LABEL + plot / 2.0,
        None => WIDTH - RIGHT / 2.0,
    };
    let lane_y = |host: &str| {
        let lane = hosts.iter().position(|h| *h == host).unwrap_or(0);
        TOP + LANE * lane as f64 + LANE / 2.0
    };
    // Positions in evidence order (time order), nudged right within a lane.
    let mut last_x: Vec<Option<f64>> = vec![None; hosts.len().max(1)];
    let points: Vec<(f64, f64)> = f
        .evidence
        .iter()
        .map(|e| {
            let lane = hosts.iter().position(|h| *h == e.host).unwrap_or(0);
            let mut x = x_of(e.ts_ms);
            if let Some(prev) = last_x[lane]
                && x < prev + MIN_GAP
            {
                x = prev + MIN_GAP;
            }
            last_x[lane] = Some(x);
            (x, lane_y(&e.host))
        })
        .collect();
    let right_edge = points
        .iter()
        .map(|p| p.0)
        .fold(WIDTH, |a, b| a.max(b + 12.0));
    let _ = writeln!(
        out,
        "<svg class=\"lanes\" viewBox=\"0 0 {right_edge:.0} {height:.0}\" role=\"img\" aria-label=\"evidence timeline, one lane per host\">\n\
         <defs><marker id=\"arrow{i}\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#5856d6\"/></marker></defs>"
    );
    // Time axis: ticks at the ends and three between.
    let _ = writeln!(
        out,
        "<line class=\"axis\" x1=\"{LABEL}\" y1=\"{y:.1}\" x2=\"{x2:.1}\" y2=\"{y:.1}\"/>",
        y = TOP - 6.0,
        x2 = WIDTH - RIGHT
    );
    if !times.is_empty() {
        let ticks = if span > 0.0 { 5 } else { 1 };
        for k in 0..ticks {
            let t = if ticks == 1 {
                t0
            } else {
                t0 + ((t1 - t0) as f64 * k as f64 / (ticks - 1) as f64).round() as i64
            };
            let x = x_of(Some(t));
            let anchor = match k {
                0 if ticks > 1 => "start",
                k if k == ticks - 1 && ticks > 1 => "end",
                _ => "middle",
            };
            let _ = writeln!(
                out,
                "<text class=\"tick\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\">{}</text>",
                TOP - 10.0,
                esc(&tick_label(t, t1 - t0))
            );
        }
    }
    if f.evidence.iter().any(|e| e.ts_ms.is_none()) {
        let _ = writeln!(
            out,
            "<text class=\"untimed\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">no time</text>",
            WIDTH - RIGHT / 2.0,
            TOP - 10.0
        );
    }
    for host in &hosts {
        let y = lane_y(host);
        let _ = writeln!(
            out,
            "<text class=\"lane-label\" x=\"6\" y=\"{:.1}\">{}</text>\n<line class=\"lane\" x1=\"{LABEL}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/>",
            y + 4.0,
            esc(host),
            right_edge - 4.0
        );
    }
    for link in &f.links {
        let (Some(&(x1, y1)), Some(&(x2, y2))) = (points.get(link.from), points.get(link.to))
        else {
            continue;
        };
        // The arrow stops at the edge of the effect's mark instead of hiding under it.
        let (x2, y2) = if (y1 - y2).abs() < f64::EPSILON {
            (x2, y2 - 7.0)
        } else {
            (x2, y2 + 7.0_f64.copysign(y1 - y2))
        };
        // Same-lane links arc above the lane; others bend between lanes.
        let d = if (y1 - y2).abs() < 8.0 {
            let lift = y1 - LANE * 0.45;
            format!("M {x1:.1} {y1:.1} C {x1:.1} {lift:.1}, {x2:.1} {lift:.1}, {x2:.1} {y2:.1}")
        } else {
            let mid = (y1 + y2) / 2.0;
            format!("M {x1:.1} {y1:.1} C {x1:.1} {mid:.1}, {x2:.1} {mid:.1}, {x2:.1} {y2:.1}")
        };
        let _ = writeln!(
            out,
            "<path class=\"link\" d=\"{d}\" marker-end=\"url(#arrow{i})\"><title>{}</title></path>",
            esc(&link.reason)
        );
    }
    for (j, (e, &(x, y))) in f.evidence.iter().zip(&points).enumerate() {
        let shape = match e.role {
            Role::Cause => {
                format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"6\" fill=\"#b3261e\"/>")
            }
            Role::Effect => format!(
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"#e08600\"/>",
                x - 5.0,
                y - 5.0
            ),
            Role::Context => {
                format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"#888\"/>")
            }
        };
        let _ = writeln!(
            out,
            "<g class=\"mark\" id=\"m{i}-{j}\" data-pair=\"r{i}-{j}\" tabindex=\"0\"><title>{}</title>{shape}</g>",
            esc(&mark_title(e))
        );
    }
    out.push_str("</svg>\n");
}

fn mark_title(e: &EvidenceDoc) -> String {
    format!(
        "{} {} {} {}:{} ({})\n{}",
        e.ts.as_deref().unwrap_or("(no time)"),
        e.host,
        role(e.role),
        e.file,
        e.line,
        e.note,
        e.text
    )
}

/// A tick's label: the time of day when the span is under a day, else the date and minute.
fn tick_label(ts: i64, span_ms: i64) -> String {
    let full = format_rfc3339(ts);
    let part = if span_ms < 86_400_000 {
        full.get(11..23)
    } else {
        full.get(5..16)
    };
    part.map_or_else(|| full.clone(), |p| p.replace('T', " "))
}

fn coverage_html(out: &mut String, doc: &Document) {
    if doc.coverage.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<h2>Coverage</h2>\n<p>{}</p>",
        esc(&super::coverage_headline(doc))
    );
    let lines = super::coverage_lines(doc);
    if !lines.is_empty() || !doc.warnings.is_empty() {
        out.push_str("<ul>\n");
        for line in lines {
            let _ = writeln!(out, "<li>{}</li>", esc(&line));
        }
        for warning in &doc.warnings {
            let _ = writeln!(out, "<li>warning: {}</li>", esc(warning));
        }
        out.push_str("</ul>\n");
    }
}

fn gaps_and_inputs(out: &mut String, doc: &Document) {
    if !doc.gaps.is_empty() {
        out.push_str("<h2>Gaps: what the logs lack</h2>\n<ul>\n");
        for g in &doc.gaps {
            let _ = write!(
                out,
                "<li><code>{}</code> on {}: {}",
                esc(g.rule),
                esc(&g.hosts.join(", ")),
                esc(&g.missing)
            );
            if !g.enable.is_empty() {
                let _ = write!(out, "<pre>{}</pre>", esc(&g.enable.join("\n")));
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
    coverage_html(out, doc);
    let i = &doc.inputs;
    let _ = writeln!(
        out,
        "<h2>Inputs</h2>\n<p>{} files, {} bytes, {} records, {} typed events, {} unrecognized, {} unreadable.</p>",
        i.files,
        i.bytes,
        i.records,
        i.typed_events,
        i.unrecognized,
        i.unreadable.len()
    );
    if !i.unreadable.is_empty() {
        out.push_str("<ul>\n");
        for u in &i.unreadable {
            let _ = writeln!(
                out,
                "<li>unreadable: <code>{}</code>: {}</li>",
                esc(&u.path),
                esc(&u.reason)
            );
        }
        out.push_str("</ul>\n");
    }
}

/// Escapes text for HTML element content and quoted attribute values; control characters that
/// HTML does not allow become U+FFFD.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A CSP source for inline content: `sha256-<base64 of its SHA-256>`.
fn csp_hash(content: &str) -> String {
    format!("sha256-{}", base64(&Sha256::digest(content.as_bytes())))
}

/// Standard base64 with padding (RFC 4648), for the CSP hashes.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * k) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{self, HOSTILE_ATTR, HOSTILE_IMG, HOSTILE_SCRIPT};
    use super::*;

    /// Every tag of the page as (name, attributes); the contents of `<script>` and `<style>` are
    /// skipped. Since log text is escaped, every raw `<` in the page opens one of oztrace's tags.
    fn tags(page: &str) -> Vec<(String, Vec<(String, String)>)> {
        let mut found = Vec::new();
        let mut rest = page;
        while let Some(open) = rest.find('<') {
            rest = &rest[open + 1..];
            let close = rest.find('>').expect("every tag closes");
            let tag = &rest[..close];
            rest = &rest[close + 1..];
            if tag.starts_with('/') || tag.starts_with('!') {
                continue;
            }
            let tag = tag.trim_end_matches('/');
            let (name, mut attrs_text) = tag.split_once(' ').unwrap_or((tag, ""));
            let mut attrs = Vec::new();
            while !attrs_text.trim().is_empty() {
                attrs_text = attrs_text.trim_start();
                let end = attrs_text.find(['=', ' ']).unwrap_or(attrs_text.len());
                let key = attrs_text[..end].to_string();
                attrs_text = &attrs_text[end..];
                let mut value = String::new();
                if let Some(quoted) = attrs_text.strip_prefix("=\"") {
                    let q = quoted.find('"').expect("attribute values are quoted");
                    value = quoted[..q].to_string();
                    attrs_text = &quoted[q + 1..];
                }
                attrs.push((key, value));
            }
            if name == "script" || name == "style" {
                let end = rest
                    .find(&format!("</{name}>"))
                    .expect("raw text element closes");
                rest = &rest[end..];
            }
            found.push((name.to_string(), attrs));
        }
        found
    }

    const ALLOWED_TAGS: &[&str] = &[
        "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "ul", "li", "a",
        "span", "code", "svg", "defs", "marker", "path", "line", "text", "g", "circle", "rect",
        "pre", "table", "tr", "th", "td", "script", "section",
    ];
    const ALLOWED_ATTRS: &[&str] = &[
        "lang",
        "charset",
        "http-equiv",
        "content",
        "name",
        "class",
        "id",
        "href",
        "title",
        "viewBox",
        "role",
        "aria-label",
        "refX",
        "refY",
        "markerWidth",
        "markerHeight",
        "orient",
        "d",
        "fill",
        "x1",
        "y1",
        "x2",
        "y2",
        "x",
        "y",
        "text-anchor",
        "cx",
        "cy",
        "r",
        "width",
        "height",
        "marker-end",
        "tabindex",
        "data-pair",
    ];

    #[test]
    fn log_text_stays_inert_and_the_only_script_is_oztraces() {
        let page = page(&fixture::document());
        let tags = tags(&page);
        let scripts = tags.iter().filter(|(name, _)| name == "script").count();
        assert_eq!(scripts, 1, "exactly one script element");
        assert!(page.contains(&format!("<script>{SCRIPT}</script>")));
        for (name, attrs) in &tags {
            assert!(
                ALLOWED_TAGS.contains(&name.as_str()),
                "unexpected tag <{name}>"
            );
            for (key, value) in attrs {
                assert!(
                    ALLOWED_ATTRS.contains(&key.as_str()),
                    "unexpected attribute {key} on <{name}>"
                );
                if key == "href" {
                    assert!(value.starts_with('#'), "a link leaves the page: {value}");
                }
            }
        }
        // The hostile lines are shown, escaped, in the table and in the marks' tooltips.
        for raw in [HOSTILE_SCRIPT, HOSTILE_ATTR, HOSTILE_IMG] {
            assert!(!page.contains(raw), "raw log text in the page: {raw}");
            assert_eq!(page.matches(&esc(raw)).count(), 2, "{raw} shown twice");
        }
        assert!(page.contains("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;"));
        assert!(!page.contains('\x1b'));
        assert!(!page.contains("http:") && !page.contains("https:"));
    }

    #[test]
    fn the_policy_allows_exactly_the_pages_own_script_and_style() {
        let page = page(&fixture::document());
        let policy = tags(&page)
            .into_iter()
            .find(|(name, attrs)| {
                name == "meta"
                    && attrs
                        .iter()
                        .any(|(k, v)| k == "http-equiv" && v == "Content-Security-Policy")
            })
            .and_then(|(_, attrs)| attrs.into_iter().find(|(k, _)| k == "content"))
            .map(|(_, v)| v)
            .expect("a CSP meta tag");
        assert!(policy.starts_with("default-src 'none';"));
        assert!(policy.contains(&format!("script-src '{}'", csp_hash(SCRIPT))));
        assert!(policy.contains(&format!("style-src '{}'", csp_hash(STYLE))));
        assert!(page.contains(&format!("<style>{STYLE}</style>")));
    }

    #[test]
    fn each_finding_has_a_swimlane_per_host_with_marks_and_links() {
        let doc = fixture::document();
        let page = page(&doc);
        let tags = tags(&page);
        assert_eq!(tags.iter().filter(|(n, _)| n == "svg").count(), 2);
        let marks: Vec<&Vec<(String, String)>> = tags
            .iter()
            .filter(|(n, a)| n == "g" && a.iter().any(|(k, v)| k == "class" && v == "mark"))
            .map(|(_, a)| a)
            .collect();
        assert_eq!(marks.len(), 5);
        let lanes = tags
            .iter()
            .filter(|(n, a)| {
                n == "text" && a.iter().any(|(k, v)| k == "class" && v == "lane-label")
            })
            .count();
        assert_eq!(
            lanes,
            1 + 3,
            "scm1 for one finding; dn1, dn2, scm1 for the other"
        );
        let links: Vec<&Vec<(String, String)>> = tags
            .iter()
            .filter(|(n, a)| n == "path" && a.iter().any(|(k, v)| k == "class" && v == "link"))
            .map(|(_, a)| a)
            .collect();
        assert_eq!(links.len(), 1);
        assert!(
            links[0]
                .iter()
                .any(|(k, v)| k == "marker-end" && v == "url(#arrow1)")
        );
        // Marks pair with table rows, for the hover highlight.
        assert!(page.contains("id=\"m1-2\" data-pair=\"r1-2\""));
        assert!(page.contains("id=\"r1-2\" data-pair=\"m1-2\""));
        assert!(page.contains(">no time</text>"));
        // The cause mark sits left of the effect it links to (time runs left to right).
        let x_of = |id: &str| -> f64 {
            let start = page.find(&format!("id=\"{id}\"")).unwrap();
            let shape = &page[start + page[start..].find("</title>").unwrap()..];
            let attr = if shape.starts_with("</title><circle") {
                " cx=\""
            } else {
                " x=\""
            };
            let at = shape.find(attr).unwrap() + attr.len();
            shape[at..at + shape[at..].find('"').unwrap()]
                .parse()
                .unwrap()
        };
        assert!(x_of("m1-0") < x_of("m1-1") && x_of("m1-1") < x_of("m1-2"));
        assert!(
            x_of("m1-3") > x_of("m1-2"),
            "the untimed line is at the right"
        );
    }

    #[test]
    fn the_page_is_deterministic() {
        assert_eq!(page(&fixture::document()), page(&fixture::document()));
    }

    #[test]
    fn base64_matches_rfc4648_vectors() {
        for (input, expected) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), expected);
        }
    }

    /// Writes the fixture's page to $OZTRACE_RENDER_FIXTURE for scripts/render-check.sh.
    #[test]
    #[ignore = "run by scripts/render-check.sh"]
    fn write_render_fixture() {
        let path = std::env::var_os("OZTRACE_RENDER_FIXTURE")
            .expect("OZTRACE_RENDER_FIXTURE names the file to write");
        std::fs::write(path, page(&fixture::document())).unwrap();
    }
}
