//! An event as its JSON object: the line `events --format jsonl` writes (docs/cli-contract.md).
//!
//! Laid out by hand rather than through a serde map: `events` writes every event of a bundle, and
//! serde_json's map serializer over `io::Write` was most of the time of the thread that writes
//! them. The typed `fields` go through serde_json (their `Serialize`), but for the OM audit key
//! records' (most events of a bundle), laid out here too; the header's strings, the entities, the
//! message text and those fields' strings are escaped here as serde_json escapes them, the bytes to escape
//! found by a bitmask pass ([`Specials`]) over the runs that need none (serde_json looks each
//! byte up in its table, a sixth of the time of the threads that render). The bytes are serde_json's, keys in the same order.

use super::Event;
use crate::catalog::EventData;
use crate::catalog::om::{KeyAudit, KeyAuditView};
use crate::entity::Entity;
use crate::source::{Component, Level};
use crate::time::Rfc3339;
use crate::word::Specials;

impl Event {
    /// Appends the event's JSON object, without a line end, to `out`.
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        let key_audit = match &self.data {
            EventData::Om(om) => om.key_audit().map(KeyAudit::view),
            _ => None,
        };
        let fields = match &key_audit {
            Some(audit) => JsonFields::Key(audit),
            None => JsonFields::Data(&self.data),
        };
        JsonLine {
            ts: self.ts,
            host: &self.host,
            component: self.component,
            level: self.level,
            thread: self.thread.as_deref(),
            logger: self.logger.as_deref(),
            kind: self.kind(),
            entities: JsonEntities::Typed(&self.entities),
            fields,
            file: &self.file,
            line: self.line,
            continuation_lines: self.continuation_lines,
            text: &self.text,
            copies: (self.copies.iter()).map(|c| (&*c.host, &*c.file, c.line)),
        }
        .write(out)
    }
}

/// What an event's JSON object says, borrowed: from an [`Event`], or from what it would be built
/// of (the OM audit merge writes the key audit records it keeps without building their events).
/// One writer for both, so that both print the same bytes.
pub struct JsonLine<'a, C> {
    pub ts: Option<i64>,
    pub host: &'a str,
    pub component: Component,
    pub level: Option<Level>,
    pub thread: Option<&'a str>,
    pub logger: Option<&'a str>,
    pub kind: &'static str,
    pub entities: JsonEntities<'a>,
    pub fields: JsonFields<'a>,
    pub file: &'a str,
    pub line: u64,
    pub continuation_lines: u32,
    pub text: &'a str,
    /// Its copies (host, file, line) in [`super::Copy`]'s order, each once.
    pub copies: C,
}

/// The entities of a [`JsonLine`].
pub enum JsonEntities<'a> {
    Typed(&'a [Entity]),
    /// One entity, as its `Display` prints it.
    Printed(&'a str),
}

/// The fields of a [`JsonLine`].
pub enum JsonFields<'a> {
    /// Those of an OM audit record of a key family, laid out here.
    Key(&'a KeyAuditView<'a>),
    /// Any other, as its `Serialize` writes it.
    Data(&'a EventData),
}

impl<'a, C: Iterator<Item = (&'a str, &'a str, u64)>> JsonLine<'a, C> {
    /// Appends the JSON object, without a line end, to `out`.
    pub fn write(self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(b"{\"ts\":");
        match self.ts {
            Some(ts) => write_time(out, ts),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"host\":");
        write_str(out, self.host);
        out.extend_from_slice(b",\"component\":");
        write_str(out, self.component.as_str());
        out.extend_from_slice(b",\"level\":");
        write_option(out, self.level.map(|l| l.as_str()));
        out.extend_from_slice(b",\"thread\":");
        write_option(out, self.thread);
        out.extend_from_slice(b",\"logger\":");
        write_option(out, self.logger);
        out.extend_from_slice(b",\"kind\":");
        write_str(out, self.kind);
        out.extend_from_slice(b",\"entities\":[");
        match self.entities {
            JsonEntities::Typed(entities) => {
                for (n, entity) in entities.iter().enumerate() {
                    if n > 0 {
                        out.push(b',');
                    }
                    write_display(out, entity);
                }
            }
            JsonEntities::Printed(entity) => write_str(out, entity),
        }
        out.extend_from_slice(b"],\"fields\":");
        match &self.fields {
            JsonFields::Key(audit) => write_key_audit(out, audit),
            JsonFields::Data(data) => serde_json::to_writer(&mut *out, data)?,
        }
        out.extend_from_slice(b",\"file\":");
        write_str(out, self.file);
        out.extend_from_slice(b",\"line\":");
        write_number(out, self.line);
        out.extend_from_slice(b",\"continuation_lines\":");
        write_number(out, u64::from(self.continuation_lines));
        out.extend_from_slice(b",\"text\":");
        write_str(out, self.text);
        let mut copies = self.copies.peekable();
        if copies.peek().is_some() {
            out.extend_from_slice(b",\"copies\":[");
            for (n, (host, file, line)) in copies.enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(b"{\"host\":");
                write_str(out, host);
                out.extend_from_slice(b",\"file\":");
                write_str(out, file);
                out.extend_from_slice(b",\"line\":");
                write_number(out, line);
                out.push(b'}');
            }
            out.push(b']');
        }
        out.push(b'}');
        Ok(())
    }
}

/// `audit` as its `Serialize` writes it: its fields in order, the absent optional ones left out.
fn write_key_audit(out: &mut Vec<u8>, audit: &KeyAuditView<'_>) {
    let KeyAuditView {
        op,
        user,
        ip,
        ret,
        volume,
        bucket,
        key,
        data_size,
        client_id,
        transaction,
        system,
        result,
        exception,
    } = audit;
    for (name, text) in [
        (&b"{\"op\":"[..], *op),
        (b",\"user\":", user),
        (b",\"ip\":", ip),
        (b",\"ret\":", ret),
        (b",\"volume\":", volume),
        (b",\"bucket\":", bucket),
        (b",\"key\":", key),
    ] {
        out.extend_from_slice(name);
        write_str(out, text);
    }
    for (name, number) in [
        (&b",\"data_size\":"[..], data_size),
        (b",\"client_id\":", client_id),
        (b",\"transaction\":", transaction),
    ] {
        if let Some(number) = number {
            out.extend_from_slice(name);
            write_number(out, *number);
        }
    }
    out.extend_from_slice(if *system {
        b",\"system\":true"
    } else {
        b",\"system\":false"
    });
    for (name, text) in [
        (&b",\"result\":"[..], result),
        (b",\"exception\":", exception),
    ] {
        if let Some(text) = text {
            out.extend_from_slice(name);
            write_str(out, text);
        }
    }
    out.push(b'}');
}

fn write_option(out: &mut Vec<u8>, value: Option<&str>) {
    match value {
        Some(value) => write_str(out, value),
        None => out.extend_from_slice(b"null"),
    }
}

/// `n` in decimal, as serde_json writes it. Its digits are put in a lane of [`NUMBER_LANE`]
/// bytes from the left, two at a time from a table (client ids have 18), and the lane is copied
/// whole, then cut to their count: a fixed-size copy, where copying a slice of the digits called
/// `memcpy` (lines and sizes, three or more numbers per event).
fn write_number(out: &mut Vec<u8>, n: u64) {
    const PAIRS: [u8; 200] = {
        let mut pairs = [0; 200];
        let mut n = 0;
        while n < 100 {
            pairs[2 * n] = b'0' + (n / 10) as u8;
            pairs[2 * n + 1] = b'0' + (n % 10) as u8;
            n += 1;
        }
        pairs
    };
    let count = n.checked_ilog10().map_or(1, |log| log as usize + 1);
    let mut lane = [0u8; NUMBER_LANE];
    let mut rest = n;
    let mut at = count;
    while at >= 2 {
        let pair = (rest % 100) as usize * 2;
        rest /= 100;
        at -= 2;
        lane[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if at == 1 {
        lane[0] = b'0' + rest as u8;
    }
    let end = out.len() + count;
    out.extend_from_slice(&lane);
    out.truncate(end);
}

/// The digits of the largest `u64`.
const NUMBER_LANE: usize = 20;

const DAY_MS: i64 = 86_400_000;

/// `ts` as [`Rfc3339`] prints it, as a JSON string. Events come in runs of one day: the date
/// jiff printed for the day is kept, and the time of day is written from the milliseconds.
fn write_time(out: &mut Vec<u8>, ts: i64) {
    thread_local! {
        /// The first millisecond of a day and its date as `Rfc3339` prints it.
        static DAY: std::cell::Cell<Option<(i64, [u8; 10])>> = const { std::cell::Cell::new(None) };
    }
    let day = DAY.get().and_then(|(start, date)| {
        let in_day = ts.checked_sub(start)?;
        (0..DAY_MS).contains(&in_day).then_some((in_day, date))
    });
    let Some((in_day, date)) = day else {
        let printed = Rfc3339(ts).to_string();
        let bytes = printed.as_bytes();
        // `YYYY-MM-DDTHH:MM:SS.mmmZ`; other years (five digits, signed) are written as printed.
        if bytes.len() == 24 && bytes[..4].iter().all(u8::is_ascii_digit) {
            let mut date = [0; 10];
            date.copy_from_slice(&bytes[..10]);
            DAY.set(Some((ts - ts.rem_euclid(DAY_MS), date)));
        }
        return write_str(out, &printed);
    };
    let (ms, s, m, h) = (
        in_day % 1000,
        in_day / 1000 % 60,
        in_day / 60_000 % 60,
        in_day / 3_600_000,
    );
    let two = |n: i64| [b'0' + (n / 10) as u8, b'0' + (n % 10) as u8];
    out.push(b'"');
    out.extend_from_slice(&date);
    out.push(b'T');
    out.extend_from_slice(&two(h));
    out.push(b':');
    out.extend_from_slice(&two(m));
    out.push(b':');
    out.extend_from_slice(&two(s));
    out.push(b'.');
    out.extend_from_slice(&[
        b'0' + (ms / 100) as u8,
        b'0' + (ms / 10 % 10) as u8,
        b'0' + (ms % 10) as u8,
    ]);
    out.extend_from_slice(b"Z\"");
}

/// `value`'s text as a JSON string, escaped as it is printed.
fn write_display(out: &mut Vec<u8>, value: impl std::fmt::Display) {
    use std::fmt::Write as _;
    thread_local! {
        static TEXT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    TEXT.with_borrow_mut(|text| {
        text.clear();
        // Writing to a String cannot fail, and a `Display` that fails is a bug of its own.
        let _ = write!(text, "{value}");
        write_str(out, text);
    });
}

/// `s` as a JSON string, escaped as serde_json escapes it: `"` and `\` with a backslash, the
/// control characters as `\b \t \n \f \r` or `\u00XX`; everything else (DEL, non-ASCII) as
/// it is.
fn write_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut run = 0;
    for at in Specials::new(bytes) {
        push_run(out, bytes, run, at);
        let byte = bytes[at];
        match byte {
            // The byte itself follows its backslash: it starts the next run (the quotes of
            // JSON params, a dozen or more per line, cost a copy each rather than two).
            b'"' | b'\\' => {
                out.push(b'\\');
                run = at;
                continue;
            }
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(byte >> 4)]);
                out.push(HEX[usize::from(byte & 0xf)]);
            }
        }
        run = at + 1;
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

/// Appends `bytes[from..to]`. The runs between a line's escapes are a few bytes each: one that
/// fits is copied as a whole lane of [`RUN_LANE`] bytes, then cut to its length, a fixed-size
/// copy rather than a call to `memcpy` per run.
fn push_run(out: &mut Vec<u8>, bytes: &[u8], from: usize, to: usize) {
    match bytes[from..].first_chunk::<RUN_LANE>() {
        Some(lane) if to - from <= RUN_LANE => {
            let end = out.len() + (to - from);
            out.extend_from_slice(lane);
            out.truncate(end);
        }
        _ => out.extend_from_slice(&bytes[from..to]),
    }
}

/// Bytes [`push_run`] copies at once.
const RUN_LANE: usize = 16;

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
        // Two bytes to escape at every pair of places of texts up to past two bitmask blocks.
        for len in 0..140 {
            let base: Vec<char> = "user=é | op=X {k:v} ".chars().cycle().take(len).collect();
            for at in 0..len {
                for (stop, also) in [('"', '\\'), ('\n', '"'), ('\u{1}', '\t')] {
                    let mut text = base.clone();
                    text[at] = stop;
                    text[(at * 7 + 3) % len] = also;
                    let text: String = text.into_iter().collect();
                    let mut out = Vec::new();
                    write_str(&mut out, &text);
                    assert_eq!(out, serde_json::to_vec(&text).unwrap(), "{text:?}");
                }
            }
        }
    }

    #[test]
    fn numbers_are_written_as_serde_json_writes_them() {
        // Every count of digits, at its edges, after text already written.
        let mut numbers = vec![0, 1, 9, 10, 99, u64::MAX, u64::MAX - 1];
        for digits in 1..20 {
            let power = 10u64.pow(digits);
            numbers.extend([power - 1, power, power + 1, power / 2 * 3 + 7]);
        }
        for n in numbers {
            let mut out = b"line:".to_vec();
            write_number(&mut out, n);
            assert_eq!(
                out,
                [b"line:".to_vec(), serde_json::to_vec(&n).unwrap()].concat()
            );
        }
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them_wherever_the_escape_falls() {
        let escaped = [
            '"', '\\', '\n', '\r', '\t', '\u{8}', '\u{c}', '\u{0}', '\u{1f}', '\u{7f}', 'é', '漢',
        ];
        for special in escaped {
            for at in 0..20 {
                for len in [at + 1, at + 3, 24, 40] {
                    let s: String = (0..len.max(at + 1))
                        .map(|i| {
                            if i == at || i == len - 1 {
                                special
                            } else {
                                'a'
                            }
                        })
                        .collect();
                    let mut out = Vec::new();
                    write_str(&mut out, &s);
                    assert_eq!(
                        String::from_utf8(out).unwrap(),
                        serde_json::to_string(&s).unwrap(),
                        "{s:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn key_audits_are_written_as_serde_json_writes_them() {
        use crate::audit::AuditRet;
        use crate::catalog::om::OmEvent;
        let text = |s: &str| s.to_string();
        let base = KeyAudit {
            op: text("ALLOCATE_BLOCK"),
            user: text("spark"),
            ip: text("10.20.1.39"),
            ret: AuditRet::Success,
            volume: text("ml"),
            bucket: text("features"),
            key: text("daily/part-000612/part-06319.data"),
            data_size: Some(0),
            client_id: Some(116000733175460800),
            transaction: Some(5918713),
            system: false,
            result: None,
            exception: None,
        };
        let variants = [
            base.clone(),
            KeyAudit {
                op: text("COMMIT_KEY"),
                user: String::new(),
                ip: String::new(),
                ret: AuditRet::Failure,
                key: text("a \"quoted\" \\ key\u{1}\twith é"),
                data_size: None,
                client_id: None,
                transaction: None,
                system: true,
                result: Some(text("KEY_NOT_FOUND")),
                exception: Some(text("Key not found: /v/b/\"k\"\n")),
                ..base.clone()
            },
            KeyAudit {
                ret: AuditRet::Other(text("ODD\"RET")),
                data_size: Some(u64::MAX),
                client_id: None,
                result: None,
                exception: Some(String::new()),
                ..base.clone()
            },
            KeyAudit {
                ret: AuditRet::Null,
                transaction: None,
                result: Some(text("")),
                ..base
            },
        ];
        for audit in variants {
            for event in [
                OmEvent::AuditCreate,
                OmEvent::AuditAllocateBlock,
                OmEvent::AuditCommitKey,
                OmEvent::AuditRecoverLease,
            ] {
                let data = EventData::Om(event(Box::new(audit.clone())));
                let mut out = Vec::new();
                write_key_audit(&mut out, &audit.view());
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    serde_json::to_string(&data).unwrap()
                );
            }
        }
    }

    #[test]
    fn times_are_written_as_rfc3339_prints_them() {
        let day = DAY_MS;
        // A fresh thread: nothing kept yet.
        let mut times = vec![
            1,
            0,
            999,
            1_000,
            day - 1,
            day,
            -1,
            -day,
            -day - 1,
            1_787_000_000_000,
            253_402_300_799_999,
            253_402_300_800_000,
            -62_135_596_800_001,
            i64::MAX,
            i64::MIN,
        ];
        // A run through days, as events come, and back.
        times.extend((0..5_000).map(|i| 1_787_000_000_000 + i * 61_237));
        times.extend((0..50).map(|i| 1_787_000_000_000 - i * 3_600_017));
        for ts in times {
            let mut out = Vec::new();
            write_time(&mut out, ts);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(&Rfc3339(ts)).unwrap(),
                "{ts}"
            );
        }
    }
}
