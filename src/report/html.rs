//! `scan --report FILE.html`: one self-contained page for people.
//!
//! A cluster-wide overview timeline (one lane per host: the time its logs cover, where each
//! finding's evidence starts), then per finding its summary, confidence and reason, an SVG
//! swimlane timeline (one lane per host, evidence as marks on a time axis, close marks gathered
//! into clusters that spread out on click, causal links as arrows), the evidence table with each
//! line's note and the values the rule read marked, and what to do about it; then the gaps, the
//! inputs per host and the rules that ran. The markup is maud's, which escapes all text. The page
//! loads nothing: no network, no fonts, no images. A Content-Security-Policy allows exactly
//! oztrace's own style sheet and script by hash, so even a log line that slipped through escaping
//! could not run. The only links that leave the page are to the rules' Apache JIRA tickets.

use super::Document;
use crate::when::DisplayZone;
use base64::Engine;
use sha2::{Digest, Sha256};

/// The page's only script: hovering or focusing a mark highlights its evidence row (or the
/// cluster that holds it) and shows its log line under the timeline; hovering a row highlights
/// its mark; clicking a cluster (or Enter, Space) spreads its marks out. It writes
/// `textContent` and classes only, never markup.
pub const SCRIPT: &str = r#"(function () {
  "use strict";
  function pair(el) {
    var id = el.getAttribute("data-pair");
    return id ? document.getElementById(id) : null;
  }
  function closedCluster(el) {
    var c = el && el.closest ? el.closest(".cluster") : null;
    return c && !c.classList.contains("open") ? c : null;
  }
  function show(el, on) {
    var other = pair(el);
    el.classList.toggle("hot", on);
    if (other) {
      other.classList.toggle("hot", on);
      var c = closedCluster(other);
      if (c) { c.classList.toggle("hot", on); }
    }
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
  document.querySelectorAll(".cluster").forEach(function (c) {
    function toggle(e) {
      if (e.target.closest && e.target.closest(".members .mark")) { return; }
      c.classList.toggle("open");
      e.preventDefault();
    }
    c.addEventListener("click", toggle);
    c.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { toggle(e); }
    });
  });
  document.documentElement.setAttribute("data-oztrace", "ready");
})();
"#;

const STYLE: &str = r#"
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; padding: 1em 2em 3em; color: #1d1d1f; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; } h2 { font-size: 1.2em; margin-top: 1.6em; } h3 { font-size: 1.05em; } h4 { margin: 0.6em 0 0.3em; }
code, pre, td.text, td.loc { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
.sev-critical, .sev-high { color: #b3261e; } .sev-medium { color: #9a5b00; } .sev-low { color: #555; }
.finding { border: 1px solid #ddd; border-radius: 6px; padding: 0.6em 1em 1em; margin: 1em 0; }
.badge { display: inline-block; border-radius: 3px; padding: 0 0.4em; background: #eee; font-size: 0.85em; color: inherit; }
.why, .meta { color: #444; }
svg.lanes { display: block; width: 100%; height: auto; background: #fafafa; border: 1px solid #eee; }
svg .lane-label { font-size: 12px; fill: #333; } svg .lane-detail { font-size: 10px; fill: #777; }
svg .tick { font-size: 10.5px; fill: #555; } svg .tick.date { font-weight: 600; fill: #333; }
svg .lane { stroke: #d4d4d4; } svg .axis { stroke: #999; } svg .grid { stroke: #ececec; }
svg .band { fill: #e4e4ea; }
svg .mark { cursor: pointer; outline: none; }
svg .cause { fill: #b3261e; } svg .effect { fill: #e08600; } svg .context { fill: #888; }
svg .finding.sev-critical, svg .finding.sev-high { fill: #b3261e; } svg .finding.sev-medium { fill: #d08a00; } svg .finding.sev-low { fill: #888; }
svg .mark.hot > *:not(title), svg .mark:focus > *:not(title) { stroke: #000; stroke-width: 2.5; }
svg .link { fill: none; stroke: #5856d6; stroke-width: 1.5; } svg .arrowhead { fill: #5856d6; }
svg .cluster { cursor: pointer; outline: none; }
svg .cluster .badge circle { fill: #fff; stroke: #333; stroke-width: 1.5; }
svg .cluster.holds-cause .badge circle { stroke: #b3261e; } svg .cluster.holds-effect .badge circle { stroke: #e08600; }
svg .cluster .badge text { font-size: 10px; font-weight: 700; fill: #333; }
svg .cluster.hot .badge circle, svg .cluster:focus .badge circle { stroke-width: 3; }
svg .cluster .members { display: none; } svg .cluster.open .members { display: inline; }
svg .spoke { stroke: #bbb; stroke-dasharray: 2 2; }
.hover-line { min-height: 1.4em; background: #f4f4f8; padding: 0.3em 0.5em; white-space: pre-wrap; word-break: break-all; margin: 0.4em 0; }
table { border-collapse: collapse; width: 100%; } td, th { text-align: left; vertical-align: top; padding: 2px 6px; border-bottom: 1px solid #eee; }
td.text { white-space: pre-wrap; word-break: break-all; } td.text mark { background: #fff0a8; }
td.time, td.loc { white-space: nowrap; } td.num { text-align: right; } td.note { color: #333; min-width: 14em; }
tr.ev.hot { background: #fff3c4; }
.role-cause { color: #b3261e; } .role-effect { color: #b25e00; } .role-context { color: #666; }
.legend span { margin-right: 1.2em; } .link-key { color: #5856d6; }
.remediation { background: #f5f8ff; border-left: 3px solid #5856d6; padding: 0.2em 1em 0.6em; margin-top: 0.8em; }
.remediation pre.command { background: #fff; border: 1px solid #dde; padding: 0.2em 0.5em; margin: 0.2em 0 0.5em; white-space: pre-wrap; }
"#;

/// The page of a document, times shown in `zone`.
pub fn page(doc: &Document, zone: &DisplayZone) -> String {
    let csp = format!(
        "default-src 'none'; script-src '{}'; style-src '{}'; img-src 'none'; base-uri 'none'; form-action 'none'",
        csp_hash(SCRIPT),
        csp_hash(STYLE)
    );
    // maud escapes markup; control characters a log line may carry (escape sequences), which
    // HTML does not allow, become U+FFFD. oztrace's own markup has none but newlines.
    super::html_page::page(doc, zone, &csp, STYLE, SCRIPT)
        .into_string()
        .chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

/// A CSP source for inline content: `sha256-<base64 of its SHA-256>`.
fn csp_hash(content: &str) -> String {
    let digest = Sha256::digest(content.as_bytes());
    format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{self, HOSTILE_ATTR, HOSTILE_IMG, HOSTILE_SCRIPT};
    use super::*;
    use crate::when::DisplayZone;

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
        "html", "head", "meta", "title", "style", "body", "header", "nav", "h1", "h2", "h3", "h4",
        "p", "ul", "ol", "li", "a", "span", "code", "mark", "svg", "defs", "marker", "path",
        "line", "text", "g", "circle", "rect", "pre", "table", "thead", "tbody", "tr", "th", "td",
        "script", "section", "div",
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
        "data-lane",
        "data-left",
        "data-right",
        "rel",
    ];

    #[test]
    fn log_text_stays_inert_and_the_only_script_is_oztraces() {
        let page = page(&fixture::document(), &DisplayZone::default());
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
                    assert!(
                        value.starts_with('#')
                            || value.starts_with("https://issues.apache.org/jira/browse/HDDS-"),
                        "a link leaves the page: {value}"
                    );
                }
            }
        }
        // The hostile lines are shown, escaped, in the table and in the marks' tooltips.
        for raw in [HOSTILE_SCRIPT, HOSTILE_ATTR, HOSTILE_IMG] {
            assert!(!page.contains(raw), "raw log text in the page: {raw}");
            let escaped = maud::html! { (raw) }.into_string();
            assert_eq!(page.matches(&escaped).count(), 2, "{raw} shown twice");
        }
        assert!(page.contains("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;"));
        assert!(!page.contains('\x1b'));
        assert!(!page.contains("http:") && !page.contains("https:"));
    }

    #[test]
    fn the_policy_allows_exactly_the_pages_own_script_and_style() {
        let page = page(&fixture::document(), &DisplayZone::default());
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
        // printf 'alert(1)' | openssl dgst -sha256 -binary | base64
        assert_eq!(
            csp_hash("alert(1)"),
            "sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI="
        );
    }

    fn has_class(attrs: &[(String, String)], class: &str) -> bool {
        attrs
            .iter()
            .any(|(k, v)| k == "class" && v.split(' ').any(|c| c == class))
    }

    #[test]
    fn an_overview_and_a_swimlane_per_finding_with_marks_notes_and_links() {
        let doc = fixture::document();
        let page = page(&doc, &DisplayZone::default());
        let tags = tags(&page);
        // The overview, then one timeline per finding.
        assert_eq!(tags.iter().filter(|(n, _)| n == "svg").count(), 3);
        let marks: Vec<String> = tags
            .iter()
            .filter(|(n, a)| n == "g" && has_class(a, "mark"))
            .filter_map(|(_, a)| a.iter().find(|(k, _)| k == "id").map(|(_, v)| v.clone()))
            .collect();
        let evidence_marks = marks.iter().filter(|id| id.starts_with('m')).count();
        assert_eq!(
            evidence_marks, 4,
            "every timed evidence line, the untimed one not"
        );
        let overview_marks = marks.iter().filter(|id| id.starts_with('o')).count();
        assert_eq!(overview_marks, 4, "f0 on scm1; f1 on dn1, dn2, scm1");
        let lanes = tags
            .iter()
            .filter(|(n, a)| n == "text" && has_class(a, "lane-label"))
            .count();
        assert_eq!(
            lanes,
            3 + 1 + 3,
            "overview: 3 hosts; f0: scm1; f1: dn1, dn2, scm1"
        );
        let links: Vec<&Vec<(String, String)>> = tags
            .iter()
            .filter(|(n, a)| n == "path" && has_class(a, "link"))
            .map(|(_, a)| a)
            .collect();
        assert_eq!(links.len(), 1);
        assert!(
            links[0]
                .iter()
                .any(|(k, v)| k == "marker-end" && v == "url(#arrow-t1)")
        );
        // Marks pair with table rows, for the hover highlight; notes are a visible column.
        assert!(page.contains("id=\"m1-2\" data-pair=\"r1-2\""));
        assert!(page.contains("id=\"r1-2\" data-pair=\"m1-2\""));
        assert!(page.contains("<td class=\"note\">SCM closes the container</td>"));
        assert!(page.contains("1 evidence line(s) without a time"));
        // Time runs left to right.
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
    }

    #[test]
    fn the_page_is_deterministic() {
        assert_eq!(
            page(&fixture::document(), &DisplayZone::default()),
            page(&fixture::document(), &DisplayZone::default())
        );
    }

    /// Writes the fixture's page to $OZTRACE_RENDER_FIXTURE (and its JSON document to
    /// $OZTRACE_RENDER_FIXTURE_JSON) for scripts/render-check.sh.
    #[test]
    #[ignore = "run by scripts/render-check.sh"]
    fn write_render_fixture() {
        let path = std::env::var_os("OZTRACE_RENDER_FIXTURE")
            .expect("OZTRACE_RENDER_FIXTURE names the file to write");
        let doc = fixture::document();
        std::fs::write(path, page(&doc, &DisplayZone::default())).unwrap();
        if let Some(json) = std::env::var_os("OZTRACE_RENDER_FIXTURE_JSON") {
            let rendered =
                super::super::render(&doc, crate::cli::ScanFormat::Json, &Default::default());
            std::fs::write(json, rendered.unwrap()).unwrap();
        }
    }
}
