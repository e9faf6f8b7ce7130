//! An event as its JSON object: the line `events --format jsonl` writes (docs/cli-contract.md).
//!
//! Laid out by hand rather than through a serde map: `events` writes every event of a bundle, and
//! serde_json's map serializer over `io::Write` was most of the time of the thread that writes
//! them. Each value still goes through serde_json (strings escaped by its table, the typed
//! `fields` by their `Serialize`), so the bytes are serde_json's, keys in the same order.

use super::{Copy, Event};
use crate::time::Rfc3339;
use std::io::Write;

impl Event {
    /// Appends the event's JSON object, without a line end, to `out`.
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(b"{\"ts\":");
        match self.ts {
            Some(ts) => write_display(out, Rfc3339(ts)),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"host\":");
        write_str(out, &self.host);
        out.extend_from_slice(b",\"component\":");
        write_str(out, self.component.as_str());
        out.extend_from_slice(b",\"level\":");
        write_option(out, self.level.map(|l| l.as_str()));
        out.extend_from_slice(b",\"thread\":");
        write_option(out, self.thread.as_deref());
        out.extend_from_slice(b",\"logger\":");
        write_option(out, self.logger.as_deref());
        out.extend_from_slice(b",\"kind\":");
        write_str(out, self.kind());
        out.extend_from_slice(b",\"entities\":[");
        for (n, entity) in self.entities.iter().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            write_display(out, entity);
        }
        out.extend_from_slice(b"],\"fields\":");
        serde_json::to_writer(&mut *out, &self.data)?;
        out.extend_from_slice(b",\"file\":");
        write_str(out, &self.file);
        out.extend_from_slice(b",\"line\":");
        write_number(out, self.line);
        out.extend_from_slice(b",\"continuation_lines\":");
        write_number(out, self.continuation_lines);
        out.extend_from_slice(b",\"text\":");
        write_str(out, &self.text);
        if !self.copies.is_empty() {
            out.extend_from_slice(b",\"copies\":[");
            for (n, Copy { host, file, line }) in self.copies.iter().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(b"{\"host\":");
                write_str(out, host);
                out.extend_from_slice(b",\"file\":");
                write_str(out, file);
                out.extend_from_slice(b",\"line\":");
                write_number(out, *line);
                out.push(b'}');
            }
            out.push(b']');
        }
        out.push(b'}');
        Ok(())
    }
}

fn write_option(out: &mut Vec<u8>, value: Option<&str>) {
    match value {
        Some(value) => write_str(out, value),
        None => out.extend_from_slice(b"null"),
    }
}

fn write_number(out: &mut Vec<u8>, n: impl std::fmt::Display) {
    // Writing to a Vec cannot fail.
    let _ = write!(out, "{n}");
}

/// `value`'s text as a JSON string, escaped as it is printed (no intermediate `String`).
fn write_display(out: &mut Vec<u8>, value: impl std::fmt::Display) {
    // Writing to a Vec cannot fail, and a `Display` that fails is a bug of its own.
    let _ = serde_json::to_writer(out, &format_args!("{value}"));
}

/// `s` as a JSON string.
fn write_str(out: &mut Vec<u8>, s: &str) {
    let _ = serde_json::to_writer(out, s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_values_are_escaped_as_serde_json_escapes_strings() {
        let every_control: String = (0u8..0x20).map(char::from).collect();
        for s in [
            "",
            "plain",
            "key:/v/b/a\"b\\c\nd",
            "user=u | op=COMMIT_KEY {\"volume\":\"v\",\"key\":\"a\\\\b\"} | ret=SUCCESS",
            "é ü 漢字 \u{7f} \u{2028} / end",
            every_control.as_str(),
        ] {
            let mut out = Vec::new();
            write_display(&mut out, s);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(s).unwrap()
            );
        }
    }
}
