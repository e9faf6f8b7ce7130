//! Evidence lines cut for people: around the values the rule read, not at a column.
//!
//! A rule reads an event's typed fields (`fields` in `oztrace events`), and the catalogue took
//! each field from the line's text, so the field values mark the part of the line that matters.
//! Values that the finding's own words repeat come first: the evidence line's note, then the
//! finding's summary and reason, then its entity.
//! A line longer than the budget keeps its start (which says what kind of line it is) and a
//! window around as many of those values as fit, with `…` where text is left out.

use serde_json::Value;
use std::ops::Range;

/// Room kept on each side of a value the rule read.
const CONTEXT: usize = 24;
/// The start of the line that is always kept when it is cut.
const HEAD: usize = 32;
/// Values shorter than this (`0`, `7`) match too much of a line to mark anything.
const MIN_VALUE: usize = 2;

/// Byte ranges of `text` holding the values of `fields`, most telling first: values that the
/// first group of `hints` mentions, then the second group's, and so on, then the rest; in line
/// order within each. Overlaps are kept; `cut` merges them.
/// Also returns how many of the leading spans a hint mentions (the ones worth marking).
pub fn read_spans(fields: &Value, text: &str, hints: &[&[&str]]) -> (Vec<Range<usize>>, usize) {
    let mut values = Vec::new();
    leaf_values(fields, &mut values);
    let mut found: Vec<(usize, Range<usize>)> = Vec::new();
    for value in values {
        if value.chars().count() < MIN_VALUE {
            continue;
        }
        let Some(range) = find_token(text, &value) else {
            continue;
        };
        let tier = hints
            .iter()
            .position(|group| group.iter().any(|h| find_token(h, &value).is_some()))
            .unwrap_or(hints.len());
        if !found.iter().any(|(_, r)| *r == range) {
            found.push((tier, range));
        }
    }
    found.sort_by_key(|(tier, r)| (*tier, r.start));
    let hinted = found.iter().filter(|(tier, _)| *tier < hints.len()).count();
    (found.into_iter().map(|(_, r)| r).collect(), hinted)
}

fn leaf_values(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(items) => items.iter().for_each(|v| leaf_values(v, out)),
        Value::Object(map) => map.values().for_each(|v| leaf_values(v, out)),
        Value::Bool(_) | Value::Null => {}
    }
}

/// The first occurrence of `value` in `text` that is not part of a longer word or number.
fn find_token(text: &str, value: &str) -> Option<Range<usize>> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(at) = text[from..].find(value) {
        let start = from + at;
        let end = start + value.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        let edge_ok = |c: Option<char>, inner: Option<char>| match (c, inner) {
            (Some(c), Some(i)) => !(is_word(c) && is_word(i)),
            _ => true,
        };
        if edge_ok(before, value.chars().next()) && edge_ok(after, value.chars().next_back()) {
            return Some(start..end);
        }
        from = start + value.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// `text` in at most `budget` characters: whole when it fits, else its head and windows around
/// the spans the rule read (in priority order, as many as fit), joined by ` … `.
pub fn cut(text: &str, spans: &[Range<usize>], budget: usize) -> String {
    let chars = text.chars().count();
    if chars <= budget {
        return text.to_string();
    }
    // Work in character positions so that windows never split a character.
    let all: Vec<char> = text.chars().collect();
    let to_char = |byte: usize| text[..byte].chars().count();
    let head = 0..snap_end(&all, HEAD.min(budget / 3));
    let mut windows: Vec<Range<usize>> = std::iter::once(head).collect();
    let mut placed = false;
    for span in spans {
        let (start, end) = (to_char(span.start), to_char(span.end));
        let window =
            snap_start(&all, start.saturating_sub(CONTEXT), start)..snap_end(&all, end + CONTEXT);
        let mut candidate = windows.clone();
        candidate.push(window);
        let merged = merge(candidate);
        if shown_length(&merged, chars) <= budget {
            windows = merged;
            placed = true;
        } else if !placed {
            // Not even the most telling value fits with its context: show it alone, centred.
            let room = budget.saturating_sub(windows[0].len() + 4);
            let centre = (start + end) / 2;
            let from = centre.saturating_sub(room / 2).max(windows[0].end);
            windows.push(from..(from + room).min(chars));
            windows = merge(windows);
            placed = true;
            break;
        }
    }
    if !placed {
        // Nothing the rule read was found: the line's start, up to the budget.
        windows = std::iter::once(0..budget.saturating_sub(2).min(chars)).collect();
    }
    let mut out = String::new();
    let mut at = 0;
    for window in &windows {
        if window.start > at {
            out.push_str(" … ");
        }
        out.extend(&all[window.clone()]);
        at = window.end;
    }
    if at < chars {
        out.push_str(" …");
    }
    out
}

/// How far a window edge moves to fall between words.
const SNAP: usize = 10;

/// A window start at a word's beginning: back to just after a space within reach, else
/// forward to one, never past `limit` (the value it must show).
fn snap_start(all: &[char], at: usize, limit: usize) -> usize {
    if at == 0 || all[at - 1].is_whitespace() {
        return at;
    }
    if let Some(back) = (at.saturating_sub(SNAP)..at)
        .rev()
        .find(|&i| all[i].is_whitespace())
    {
        return back + 1;
    }
    (at..limit)
        .find(|&i| all[i].is_whitespace())
        .map_or(at, |i| i + 1)
}

/// A window end at a word's end: forward to a space within reach, else where it was.
fn snap_end(all: &[char], at: usize) -> usize {
    let at = at.min(all.len());
    (at..(at + SNAP).min(all.len()))
        .find(|&i| all[i].is_whitespace())
        .unwrap_or(at)
}

/// Sorted windows, overlapping or nearly touching ones joined (a gap shorter than the ` … `
/// that would replace it is shown instead).
fn merge(mut windows: Vec<Range<usize>>) -> Vec<Range<usize>> {
    windows.sort_by_key(|w| w.start);
    let mut out: Vec<Range<usize>> = Vec::new();
    for w in windows {
        match out.last_mut() {
            Some(last) if w.start <= last.end + 3 => last.end = last.end.max(w.end),
            _ => out.push(w),
        }
    }
    out
}

/// Characters the windows print, with the ` … ` markers between and after them.
fn shown_length(windows: &[Range<usize>], total: usize) -> usize {
    let text: usize = windows.iter().map(|w| w.len()).sum();
    let gaps = windows.windows(2).count() * 3;
    let tail = if windows.last().is_some_and(|w| w.end < total) {
        2
    } else {
        0
    };
    text + gaps + tail
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const OP_STATE: &str = "Update the operationalState saved in follower SCM for \
eeef75e3-b676-4243-868a-0f77f54eb9ab(dn3.example.com/10.0.1.13) as the reported value \
(DECOMMISSIONING, 0) does not match the value stored in SCM (IN_SERVICE, 0)";

    #[test]
    fn a_long_line_keeps_its_start_and_the_values_the_rule_read() {
        let fields = json!({"datanode": "eeef75e3-b676-4243-868a-0f77f54eb9ab",
            "reported": "DECOMMISSIONING", "reported_expiry": 0,
            "stored": "IN_SERVICE", "stored_expiry": 0});
        let (spans, hinted) = read_spans(
            &fields,
            OP_STATE,
            &[
                &["the value stored is IN_SERVICE"],
                &["datanode:eeef75e3-b676-4243-868a-0f77f54eb9ab"],
            ],
        );
        // The hinted value first, then the others in line order; `0` is too short to mark.
        let first = &OP_STATE[spans[0].clone()];
        assert_eq!(first, "IN_SERVICE");
        let second = &OP_STATE[spans[1].clone()];
        assert_eq!(second, "eeef75e3-b676-4243-868a-0f77f54eb9ab");
        assert_eq!(spans.len(), 3);
        assert_eq!(hinted, 2, "DECOMMISSIONING is read but no hint names it");
        let shown = cut(OP_STATE, &spans, 120);
        assert!(shown.chars().count() <= 120, "{shown}");
        assert!(shown.starts_with("Update the operationalState"), "{shown}");
        assert!(
            shown.contains("the value stored in SCM (IN_SERVICE, 0)"),
            "{shown}"
        );
        assert!(shown.contains(" … "), "{shown}");
        // Wide enough: the whole line.
        assert_eq!(cut(OP_STATE, &spans, 400), OP_STATE);
    }

    #[test]
    fn values_match_whole_tokens_only() {
        assert_eq!(find_token("sid=4821 bcsid=48", "48"), Some(15..17));
        assert_eq!(
            find_token("IN_SERVICE_X IN_SERVICE", "IN_SERVICE"),
            Some(13..23)
        );
        assert_eq!(find_token("abc", "x"), None);
    }

    #[test]
    fn a_line_without_found_values_is_cut_at_the_budget() {
        let text = "x".repeat(300);
        let shown = cut(&text, &[], 100);
        assert_eq!(shown.chars().count(), 100);
        assert!(shown.ends_with('…'));
    }

    #[test]
    fn multibyte_text_is_cut_on_characters() {
        let text = format!("{}ü value=ÄÖÜ {}", "é".repeat(150), "ß".repeat(150));
        let (spans, hinted) = read_spans(&json!({"v": "ÄÖÜ"}), &text, &[]);
        assert_eq!(hinted, 0);
        let shown = cut(&text, &spans, 80);
        assert!(shown.contains("value=ÄÖÜ"));
        assert!(shown.chars().count() <= 80);
    }
}
