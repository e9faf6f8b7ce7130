//! An event as its JSON object: the line `events --format jsonl` writes (docs/cli-contract.md).
//!
//! Written by hand rather than through a serde map: `events` writes every event of a bundle, and
//! serde_json's generic path (a map serializer over `io::Write`, a string escaped a byte at a time
//! through its formatter) was most of the time of the thread that writes them. The bytes are
//! serde_json's: keys in the same order, the same escapes (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`,
//! `\t`, `\u00xx` for the other control characters); the typed `fields` still go through serde.

use super::{Copy, Event};
use crate::time::Rfc3339;
use std::io::Write;

/// What each byte becomes inside a JSON string: 0 itself, `u` a `\u00xx` escape, else `\` and it.
const ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

const HEX: &[u8; 16] = b"0123456789abcdef";

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

/// `value`'s text as a JSON string: printed in place, escaped only if it needs it.
fn write_display(out: &mut Vec<u8>, value: impl std::fmt::Display) {
    let start = out.len();
    out.push(b'"');
    let _ = write!(out, "{value}");
    if out[start + 1..].iter().any(|&b| ESCAPE[b as usize] != 0) {
        let printed = out.split_off(start + 1);
        out.truncate(start);
        // The formatter wrote a `str`: valid UTF-8.
        write_str(out, &String::from_utf8_lossy(&printed));
    } else {
        out.push(b'"');
    }
}

/// `s` as a JSON string.
fn write_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    for (i, &byte) in bytes.iter().enumerate() {
        let escape = ESCAPE[byte as usize];
        if escape == 0 {
            continue;
        }
        out.extend_from_slice(&bytes[start..i]);
        match escape {
            b'u' => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xf)],
            ]),
            short => out.extend_from_slice(&[b'\\', short]),
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let every_control: String = (0u8..0x20).map(char::from).collect();
        for s in [
            "",
            "plain",
            "user=u | op=COMMIT_KEY {\"volume\":\"v\",\"key\":\"a\\\\b\"} | ret=SUCCESS",
            "é ü 漢字 \u{7f} \u{2028} / end",
            every_control.as_str(),
        ] {
            let mut out = Vec::new();
            write_str(&mut out, s);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(s).unwrap()
            );
        }
    }

    #[test]
    fn printed_values_are_escaped_when_they_need_it() {
        let mut out = Vec::new();
        write_display(&mut out, "key:/v/b/a\"b\\c\nd");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            serde_json::to_string("key:/v/b/a\"b\\c\nd").unwrap()
        );
    }
}
