//! The body of an audit record: what log4j2's `%msg` printed for an Ozone `AuditMessage`.
//!
//! `AuditMessage.formMessage` (hadoop-hdds/framework/.../ozone/audit/AuditMessage.java) builds
//! `"user=" + user + " | ip=" + ip + " | " + "op=" + op + " " + params + " | ret=" + ret`,
//! plus `" | perf=" + PerformanceStringBuilder.build()` on performance records (datanode slow ops,
//! which have no result and print `ret=null`). `params` depends on the release:
//! - 2.1.0 and later (HDDS-13370, `formatParamsAsJson`): Jackson JSON of the map, all values
//!   strings, `{}` for a null or empty map;
//! - 2.0.0 and earlier: the map's `toString()`, `{k=v, k=v}`, `{}` when empty and `null` when the
//!   caller passed no map (SCM `GET_VERSION`, `IN_SAFE_MODE`, ...).
//!
//! `PerformanceStringBuilder.build()` (AuditLogger.java) prints `{name=value, ...}` in every release.
//! Values may contain ` | `, `, `, `=` and nested brackets, so the params end is found by bracket
//! matching, and a map is split only where a top-level `, ` is followed by `identifier=`.

use crate::word::{Specials, same_bytes};
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::borrow::Cow;
use std::fmt;

/// A parsed audit message body.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AuditBody {
    /// The caller: UGI name (Kerberos principals keep their `/` and `@`), `null` on datanodes and
    /// non-RPC threads, empty for OM requests without `UserInfo` (OpenKeyCleanupService auto-commit).
    pub user: String,
    /// The caller's address as printed: `null`, empty, or redacted (`...`, `172.xx.x.151`).
    pub ip: String,
    /// The audit action (`OMAction`, `SCMAction`, `DNAction`, `OMSystemAction` name).
    pub op: String,
    pub params: Params,
    pub ret: AuditRet,
    /// `PerformanceStringBuilder` output of performance records, e.g. `{preOpLatencyMs=0, opLatencyMs=612}`.
    pub perf: Option<Params>,
}

/// `AuditEventStatus.getStatus()`, or `null` when the record has no result (performance records).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AuditRet {
    Success,
    Failure,
    Null,
    Other(String),
}

impl AuditRet {
    pub(crate) fn from_printed(s: &str) -> AuditRet {
        match s {
            "SUCCESS" => AuditRet::Success,
            "FAILURE" => AuditRet::Failure,
            "null" => AuditRet::Null,
            other => AuditRet::Other(other.to_owned()),
        }
    }

    /// The text as Ozone printed it.
    pub fn as_str(&self) -> &str {
        match self {
            AuditRet::Success => "SUCCESS",
            AuditRet::Failure => "FAILURE",
            AuditRet::Null => "null",
            AuditRet::Other(s) => s,
        }
    }
}

impl fmt::Display for AuditRet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for AuditRet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Audit params in printed order (Jackson and `HashMap.toString` keep the map's iteration order,
/// which rules may rely on, e.g. SCM `SEND_HEARTBEAT` prints `datanodeUUID`, `term`, `command`).
/// Serialized as a JSON object. Keys and values share one string: a record's params are a dozen
/// small strings, and one allocation instead of two per entry is most of what typing it costs.
#[derive(Clone, Default)]
pub struct Params {
    text: String,
    /// Per entry, where its key and its value end in `text` (each starts where the one before
    /// ends).
    ends: Vec<(u32, u32)>,
}

impl Params {
    pub fn new() -> Params {
        Params::default()
    }

    /// Params with room for `entries` entries of `bytes` bytes of keys and values in all.
    fn with_capacity(bytes: usize, entries: usize) -> Params {
        Params {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(entries),
        }
    }

    /// Appends an entry.
    pub fn push(&mut self, key: &str, value: &str) {
        self.text.push_str(key);
        let key_end = self.text.len() as u32;
        self.text.push_str(value);
        self.ends.push((key_end, self.text.len() as u32));
    }

    /// The value of the first entry named `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        // Lengths first, bytes then: typing a record looks up a few names among a dozen entries.
        let mut start = 0;
        for &(key_end, value_end) in &self.ends {
            let (key_end, value_end) = (key_end as usize, value_end as usize);
            if key_end - start == key.len()
                && &self.text.as_bytes()[start..key_end] == key.as_bytes()
            {
                return Some(&self.text[key_end..value_end]);
            }
            start = value_end;
        }
        None
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        let mut start = 0;
        self.ends.iter().map(move |&(key_end, value_end)| {
            let (key_end, value_end) = (key_end as usize, value_end as usize);
            let entry = (&self.text[start..key_end], &self.text[key_end..value_end]);
            start = value_end;
            entry
        })
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

impl PartialEq for Params {
    fn eq(&self, other: &Params) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Params {}

impl fmt::Debug for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl FromIterator<(String, String)> for Params {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(iter: I) -> Params {
        let mut params = Params::new();
        for (k, v) in iter {
            params.push(&k, &v);
        }
        params
    }
}

impl Serialize for Params {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// How the params were printed, which also dates the writer (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamSyntax {
    /// `{"k":"v",...}`: 2.1.0 and later.
    Json,
    /// `{k=v, ...}`: 2.0.0 and earlier (and always for `perf=`).
    JavaMap,
    /// `{}`: an empty or null map, any release.
    Empty,
    /// `null`: a null map printed by `Map.toString` concatenation, 2.0.0 and earlier.
    Null,
}

/// What was wrong with an audit body, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed audit message at column {column}: {kind}")]
pub struct AuditError {
    /// 1-based character column in the text given to the parser.
    pub column: usize,
    pub kind: AuditErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuditErrorKind {
    #[error("expected `user=`")]
    MissingUser,
    #[error("expected ` | ip=` after the user")]
    MissingIp,
    #[error("expected ` | op=` after the ip")]
    MissingOp,
    #[error("expected an op name (A-Z, 0-9, _) followed by a space")]
    BadOp,
    #[error("expected params (`{{...}}` or `null`)")]
    MissingParams,
    #[error("params are not followed by ` | ret=`")]
    MissingRet,
    #[error("empty `ret=`")]
    EmptyRet,
    #[error("expected `{{...}}` after ` | perf=`")]
    BadPerf,
    #[error("unexpected text after the message")]
    TrailingText,
    #[error("params are not a JSON object: {0}")]
    Json(String),
    #[error("map entry without `=`")]
    MapEntry,
}

const IP_SEP: &str = " | ip=";
const OP_SEP: &str = " | op=";
const RET_SEP: &str = " | ret=";
const PERF_SEP: &str = " | perf=";

/// Parses a whole audit message (`%msg`): nothing may follow the `ret` value or the `perf` map.
pub fn parse_audit_body(msg: &str) -> Result<(AuditBody, ParamSyntax), AuditError> {
    let (body, syntax, end) = parse_body_at(msg, true).map_err(|e| e.at(msg))?;
    debug_assert_eq!(end, msg.len());
    Ok((body, syntax))
}

/// Parses an audit message at the start of `text` and returns how many bytes it took, for callers
/// that hold the message and what follows it in the layout (`%msg | %throwable{3} `): the rest
/// starts with ` |` then the throwable, if any.
pub fn parse_audit_prefix(text: &str) -> Result<(AuditBody, ParamSyntax, usize), AuditError> {
    parse_body_at(text, false).map_err(|e| e.at(text))
}

/// Parses printed audit params: `{}`, `null`, a JSON object or a Java `Map.toString()`.
pub fn parse_params(s: &str) -> Result<(Params, ParamSyntax), AuditError> {
    params_at(s, 0, s.len()).map_err(|e| e.at(s))
}

/// An error with a byte offset, turned into a character column once the text is known.
struct Failure {
    offset: usize,
    kind: AuditErrorKind,
}

impl Failure {
    fn new(offset: usize, kind: AuditErrorKind) -> Failure {
        Failure { offset, kind }
    }

    fn at(self, text: &str) -> AuditError {
        let mut offset = self.offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        AuditError {
            column: text[..offset].chars().count() + 1,
            kind: self.kind,
        }
    }
}

fn parse_body_at(text: &str, whole: bool) -> Result<(AuditBody, ParamSyntax, usize), Failure> {
    let (parts, end) = parse_parts_at(text, whole)?;
    let syntax = parts.syntax;
    Ok((parts.into_body(), syntax, end))
}

/// An audit message split as [`parse_audit_body`] splits it, nothing copied yet. The params
/// Jackson writes for nearly every record are checked, not read: a copy's key needs only a few
/// of them ([`AuditParts::params`]), and most OM audit records are copies.
#[derive(Debug)]
pub struct AuditParts<'a> {
    pub user: &'a str,
    pub ip: &'a str,
    pub op: &'a str,
    params: PrintedParams<'a>,
    pub ret: &'a str,
    perf: Option<Params>,
    syntax: ParamSyntax,
}

/// Params as [`AuditParts`] holds them: a plain JSON object still as printed, with where its
/// entries are (see [`PlainObject`]), or read.
#[derive(Debug)]
enum PrintedParams<'a> {
    Plain(PlainObject<'a>),
    Read(Params),
}

impl<'a> AuditParts<'a> {
    pub fn params(&self) -> ParamsView<'_> {
        match &self.params {
            PrintedParams::Plain(object) => ParamsView::Plain(object),
            PrintedParams::Read(params) => ParamsView::Read(params),
        }
    }

    /// Where its parts are in `msg` (the message they were parsed from), to be had again later
    /// without parsing ([`PartsAt::parts`]). `None` when it holds params or a perf map it read
    /// (not as printed), or `msg` is not the message or is past 4 GiB.
    pub fn at(&self, msg: &'a str) -> Option<PartsAt> {
        let PrintedParams::Plain(object) = &self.params else {
            return None;
        };
        if self.perf.is_some() {
            return None;
        }
        let span = |part: &str| -> Option<(u32, u32)> {
            let start = (part.as_ptr() as usize).checked_sub(msg.as_ptr() as usize)?;
            (start + part.len() <= msg.len()).then_some(())?;
            Some((u32::try_from(start).ok()?, u32::try_from(part.len()).ok()?))
        };
        Some(PartsAt {
            user: span(self.user)?,
            ip: span(self.ip)?,
            op: span(self.op)?,
            ret: span(self.ret)?,
            params: span(object.text)?,
            values: object.values,
            noted: object.noted as u8,
            more: object.more,
        })
    }

    fn into_body(self) -> AuditBody {
        AuditBody {
            user: self.user.to_owned(),
            ip: self.ip.to_owned(),
            op: self.op.to_owned(),
            params: match self.params {
                PrintedParams::Plain(object) => object.params(),
                PrintedParams::Read(params) => params,
            },
            ret: AuditRet::from_printed(self.ret),
            perf: self.perf,
        }
    }
}

/// [`AuditParts`] with plain JSON params ([`PlainObject`]) as places in their message: what the
/// OM audit merge carries from a record's reader to the thread that types it, which would
/// otherwise parse the message again.
#[derive(Debug, Clone, Copy)]
pub struct PartsAt {
    /// Each part's (start, length) in the message.
    user: (u32, u32),
    ip: (u32, u32),
    op: (u32, u32),
    ret: (u32, u32),
    params: (u32, u32),
    /// The plain object's noted entries ([`PlainObject::values`]).
    values: [(u16, u16); NOTED_ENTRIES],
    noted: u8,
    more: bool,
}

impl PartsAt {
    /// The parts of `msg`, the message they were found in.
    pub fn parts(self, msg: &str) -> AuditParts<'_> {
        let part = |(start, len): (u32, u32)| &msg[start as usize..(start + len) as usize];
        AuditParts {
            user: part(self.user),
            ip: part(self.ip),
            op: part(self.op),
            params: PrintedParams::Plain(PlainObject {
                text: part(self.params),
                values: self.values,
                noted: usize::from(self.noted),
                more: self.more,
            }),
            ret: part(self.ret),
            perf: None,
            syntax: ParamSyntax::Json,
        }
    }
}

/// Parses a whole audit message (`%msg`) as [`parse_audit_body`] does, into its parts.
pub fn parse_audit_parts(msg: &str) -> Result<AuditParts<'_>, AuditError> {
    let (parts, end) = parse_parts_at(msg, true).map_err(|e| e.at(msg))?;
    debug_assert_eq!(end, msg.len());
    Ok(parts)
}

/// Params read or still as printed, entries in printed order either way.
#[derive(Debug, Clone, Copy)]
pub enum ParamsView<'a> {
    Read(&'a Params),
    /// A plain JSON object (see [`PlainObject`]).
    Plain(&'a PlainObject<'a>),
}

impl<'a> ParamsView<'a> {
    pub fn iter(self) -> impl Iterator<Item = (&'a str, &'a str)> {
        let (read, plain) = match self {
            ParamsView::Read(params) => (Some(params.iter()), None),
            ParamsView::Plain(object) => (None, Some(object.entries())),
        };
        read.into_iter()
            .flatten()
            .chain(plain.into_iter().flatten())
    }

    /// The values of the first entries named `names`, in one pass.
    pub fn first_values<const N: usize>(self, names: [&str; N]) -> [Option<&'a str>; N] {
        let mut values = [None; N];
        match self {
            // Its noted entries straight from their places: typing an OM audit record looks up
            // a few names in every record's params.
            ParamsView::Plain(object) => object.first_values(&names, &mut values),
            ParamsView::Read(params) => {
                for (key, value) in params.iter() {
                    if note_value(&names, &mut values, key.as_bytes(), || value) {
                        break;
                    }
                }
            }
        }
        values
    }
}

/// Notes `value` as the value of the first of `names` that is `key`, unless one is noted for
/// it already; whether every name has its value then.
fn note_value<'a, const N: usize>(
    names: &[&str; N],
    values: &mut [Option<&'a str>; N],
    key: &[u8],
    value: impl FnOnce() -> &'a str,
) -> bool {
    if let Some(n) = names
        .iter()
        .position(|name| same_bytes(name.as_bytes(), key))
        && values[n].is_none()
    {
        values[n] = Some(value());
        return values.iter().all(Option::is_some);
    }
    false
}

fn parse_parts_at(text: &str, whole: bool) -> Result<(AuditParts<'_>, usize), Failure> {
    let bytes = text.as_bytes();
    if !text.starts_with("user=") {
        return Err(Failure::new(0, AuditErrorKind::MissingUser));
    }
    let user_start = "user=".len();
    // An empty user makes ` | ip=` start right at `user_start`.
    let ip_sep = find_from(text, user_start, IP_SEP)
        .ok_or_else(|| Failure::new(user_start, AuditErrorKind::MissingIp))?;
    let ip_start = ip_sep + IP_SEP.len();
    let op_sep = find_from(text, ip_start, OP_SEP)
        .ok_or_else(|| Failure::new(ip_start, AuditErrorKind::MissingOp))?;
    let op_start = op_sep + OP_SEP.len();
    let op_len = bytes[op_start..]
        .iter()
        .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || **b == b'_')
        .count();
    let op_end = op_start + op_len;
    if op_len == 0 || bytes.get(op_end) != Some(&b' ') {
        return Err(Failure::new(op_end, AuditErrorKind::BadOp));
    }
    let params_start = op_end + 1;
    let (params, syntax, ret_sep) = params_before_ret(text, params_start)?;

    let ret_start = ret_sep + RET_SEP.len();
    let ret_len = bytes[ret_start..]
        .iter()
        .take_while(|b| **b != b' ' && **b != b'|')
        .count();
    if ret_len == 0 {
        return Err(Failure::new(ret_start, AuditErrorKind::EmptyRet));
    }
    let mut end = ret_start + ret_len;
    let ret = &text[ret_start..end];

    let mut perf = None;
    if text[end..].starts_with(PERF_SEP) {
        let perf_start = end + PERF_SEP.len();
        let perf_end = (bytes.get(perf_start) == Some(&b'{'))
            .then(|| bracket_end(bytes, perf_start, false))
            .flatten()
            .ok_or_else(|| Failure::new(perf_start, AuditErrorKind::BadPerf))?;
        let (map, _) = params_at(text, perf_start, perf_end)?;
        perf = Some(map);
        end = perf_end;
    }
    if whole && end != text.len() {
        return Err(Failure::new(end, AuditErrorKind::TrailingText));
    }
    let parts = AuditParts {
        user: &text[user_start..ip_sep],
        ip: &text[ip_start..op_sep],
        op: &text[op_start..op_end],
        params,
        ret,
        perf,
        syntax,
    };
    Ok((parts, end))
}

/// Finds where the params starting at `start` end and parses them; returns the position of the
/// ` | ret=` that follows them.
fn params_before_ret(
    text: &str,
    start: usize,
) -> Result<(PrintedParams<'_>, ParamSyntax, usize), Failure> {
    let bytes = text.as_bytes();
    // The well-formed case: brackets balance and ` | ret=` follows the closing brace.
    let matched_end = match bytes.get(start) {
        Some(b'{') => {
            if let Some(object) = PlainObject::at(text, start)
                && let end = start + object.text.len()
                && text[end..].starts_with(RET_SEP)
            {
                return Ok((PrintedParams::Plain(object), ParamSyntax::Json, end));
            }
            bracket_end(bytes, start, looks_like_json(bytes, start))
        }
        Some(b'n') if text[start..].starts_with("null") => Some(start + "null".len()),
        _ => return Err(Failure::new(start, AuditErrorKind::MissingParams)),
    };
    if let Some(end) = matched_end.filter(|&end| text[end..].starts_with(RET_SEP)) {
        let (params, syntax) = params_at(text, start, end)?;
        return Ok((PrintedParams::Read(params), syntax, end));
    }
    // A value with unbalanced brackets (a key name, an exception text): take the first
    // ` | ret=` before which the params parse.
    let mut first_error = None;
    let mut from = start;
    while let Some(sep) = find_from(text, from, RET_SEP) {
        match params_at(text, start, sep) {
            Ok((params, syntax)) => return Ok((PrintedParams::Read(params), syntax, sep)),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
        from = sep + 1;
    }
    Err(first_error.unwrap_or_else(|| Failure::new(start, AuditErrorKind::MissingRet)))
}

/// Parses `text[start..end]` as printed params.
fn params_at(text: &str, start: usize, end: usize) -> Result<(Params, ParamSyntax), Failure> {
    let s = &text[start..end];
    if s == "null" {
        return Ok((Params::new(), ParamSyntax::Null));
    }
    if !(s.starts_with('{') && s.ends_with('}') && s.len() >= 2) {
        return Err(Failure::new(start, AuditErrorKind::MissingParams));
    }
    let inner = &s[1..s.len() - 1];
    if inner.trim().is_empty() {
        return Ok((Params::new(), ParamSyntax::Empty));
    }
    if looks_like_json(text.as_bytes(), start) {
        let params = parse_json_object(s).map_err(|(offset, message)| {
            Failure::new(start + offset, AuditErrorKind::Json(message))
        })?;
        Ok((params, ParamSyntax::Json))
    } else {
        let params = parse_java_map(inner)
            .map_err(|offset| Failure::new(start + 1 + offset, AuditErrorKind::MapEntry))?;
        Ok((params, ParamSyntax::JavaMap))
    }
}

/// `{` followed (after optional whitespace) by `"`: Jackson's output; a Java map key never starts
/// with a quote.
fn looks_like_json(bytes: &[u8], open: usize) -> bool {
    bytes
        .get(open + 1..)
        .and_then(|rest| rest.iter().find(|b| !b.is_ascii_whitespace()))
        == Some(&b'"')
}

/// The position after the bracket that closes the one at `open`. With `json`, brackets inside
/// string literals do not count (a literal is skipped to its closing quote at once: most of a
/// JSON object's bytes are inside them).
fn bracket_end(bytes: &[u8], open: usize, json: bool) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' if json => {
                i += 1;
                loop {
                    let at = i + memchr::memchr2(b'"', b'\\', bytes.get(i..)?)?;
                    i = at + if bytes[at] == b'\\' { 2 } else { 1 };
                    if bytes[at] == b'"' {
                        break;
                    }
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Parses a JSON object in key order; values that are not strings keep their JSON text.
/// Errors carry the byte offset into `s` and serde_json's message.
fn parse_json_object(s: &str) -> Result<Params, (usize, String)> {
    match PlainObject::at(s, 0) {
        Some(object) if object.text.len() == s.len() => Ok(object.params()),
        _ => serde_json_object(s),
    }
}

/// [`parse_json_object`] by serde_json, whatever the object holds.
fn serde_json_object(s: &str) -> Result<Params, (usize, String)> {
    let mut de = serde_json::Deserializer::from_str(s);
    // Keys and values unquoted take less than the object's text: one allocation each for the
    // text and the entries, not one per doubling.
    let room = ObjectRoom {
        bytes: s.len(),
        entries: memchr::memchr_iter(b':', s.as_bytes()).count(),
    };
    let parsed = room
        .deserialize(&mut de)
        .and_then(|object| de.end().map(|()| object));
    parsed.map_err(|e| {
        // Jackson escapes newlines, so the object is one line and the column locates the error.
        let offset = if e.line() <= 1 {
            e.column().saturating_sub(1)
        } else {
            0
        };
        (offset, e.to_string())
    })
}

/// Entries of a [`PlainObject`] whose places it notes as it checks the object (a key audit
/// record has about ten); the entries after them are found again when read.
const NOTED_ENTRIES: usize = 16;

/// A plain JSON object: Jackson's compact output, a non-empty object of strings without escapes
/// (`{"k":"v",...}`, the params of nearly every record), whose entries are then its text between
/// quotes. Anything else is no plain object; serde_json reads it (or rejects it). Most of the
/// time of reading an audit record went into serde_json's general reading of its params, and
/// then into finding the entries again after checking the object: where its first entries'
/// values are is noted while checking it.
#[derive(Debug, Clone)]
pub struct PlainObject<'a> {
    /// The object, braces included.
    text: &'a str,
    /// Per noted entry, where its value's opening and closing quotes are in `text`: its key is
    /// between the quote after the previous entry (or the brace) and `":"`.
    /// (Small, as the object is moved as a value: entries past 64 KiB are not noted.)
    values: [(u16, u16); NOTED_ENTRIES],
    noted: usize,
    /// Whether entries follow the noted ones.
    more: bool,
}

impl<'a> PlainObject<'a> {
    /// The plain JSON object at `text[start..]`, if there is one.
    fn at(text: &'a str, start: usize) -> Option<PlainObject<'a>> {
        let bytes = text.as_bytes().get(start..)?;
        if bytes.first() != Some(&b'{') {
            return None;
        }
        let mut object = PlainObject {
            text: "",
            values: [(0, 0); NOTED_ENTRIES],
            noted: 0,
            more: false,
        };
        // Every special byte of a plain object (see `Specials`) is one of its quotes, four per
        // entry: around its key, then around its value.
        let mut specials = Specials::new(bytes);
        let mut at = 1;
        loop {
            let (open, close) = (specials.next()?, specials.next()?);
            let (value, value_close) = (specials.next()?, specials.next()?);
            let quotes = [open, close, value, value_close];
            if open != at
                || bytes.get(close + 1) != Some(&b':')
                || value != close + 2
                || quotes.iter().any(|&n| bytes[n] != b'"')
            {
                return None;
            }
            if let (true, Ok(value), Ok(value_close)) = (
                object.noted < NOTED_ENTRIES,
                u16::try_from(value),
                u16::try_from(value_close),
            ) {
                object.values[object.noted] = (value, value_close);
                object.noted += 1;
            } else {
                object.more = true;
            }
            match bytes.get(value_close + 1) {
                Some(b',') => at = value_close + 2,
                Some(b'}') => {
                    object.text = &text[start..start + value_close + 2];
                    return Some(object);
                }
                _ => return None,
            }
        }
    }

    /// Its entries, in order.
    fn entries(&self) -> impl Iterator<Item = (&'a str, &'a str)> + use<'_, 'a> {
        let text = self.text;
        let mut key_start = 1;
        let noted = self.values[..self.noted].iter().map(move |&(open, close)| {
            let (open, close) = (open as usize, close as usize);
            // `"key":"` before the value's opening quote.
            let entry = (&text[key_start + 1..open - 2], &text[open + 1..close]);
            key_start = close + 2;
            entry
        });
        let rest = self.more.then(|| {
            let from = self.values[..self.noted]
                .last()
                .map_or(0, |&(_, close)| close as usize + 1);
            plain_entries(&text[from..])
        });
        noted.chain(rest.into_iter().flatten())
    }

    /// [`ParamsView::first_values`] of its entries: keys compared as bytes where they are noted,
    /// a value cut out of the text only when found.
    fn first_values<const N: usize>(&self, names: &[&str; N], values: &mut [Option<&'a str>; N]) {
        let text = self.text;
        let mut key_start = 1;
        for &(open, close) in &self.values[..self.noted] {
            let (open, close) = (open as usize, close as usize);
            // `"key":"` before the value's opening quote.
            let key = &text.as_bytes()[key_start + 1..open - 2];
            if note_value(names, values, key, || &text[open + 1..close]) {
                return;
            }
            key_start = close + 2;
        }
        if self.more {
            for (key, value) in plain_entries(&text[key_start - 1..]) {
                if note_value(names, values, key.as_bytes(), || value) {
                    return;
                }
            }
        }
    }

    /// Its entries read into [`Params`].
    fn params(&self) -> Params {
        // Unquoted, keys and values take less than the object's text: one allocation for them.
        let mut params = Params::with_capacity(self.text.len(), PLAIN_ENTRIES);
        for (key, value) in self.entries() {
            params.push(key, value);
        }
        params
    }
}

/// The entries of a plain JSON object from the `{` or `,` at the start of `object` on, in order.
fn plain_entries(object: &str) -> impl Iterator<Item = (&str, &str)> {
    // `"k":"v",` or `"k":"v"}` at the start of `rest`; no quote inside a key or a value.
    let mut rest = &object[1..];
    std::iter::from_fn(move || {
        let bytes = rest.as_bytes();
        if bytes.first() != Some(&b'"') {
            return None;
        }
        let quote = |bytes: &[u8]| memchr::memchr(b'"', bytes);
        let key_end = 1 + quote(&bytes[1..])?;
        let value_start = key_end + "\":\"".len();
        let value_end = value_start + quote(bytes.get(value_start..)?)?;
        let entry = (&rest[1..key_end], &rest[value_start..value_end]);
        rest = rest.get(value_end + "\",".len()..).unwrap_or("");
        Some(entry)
    })
}

/// Entries [`PlainObject::params`] makes room for at first (a key audit record has about ten).
const PLAIN_ENTRIES: usize = 12;

/// A JSON object read into [`Params`] made with this much room.
struct ObjectRoom {
    bytes: usize,
    entries: usize,
}

impl<'de> DeserializeSeed<'de> for ObjectRoom {
    type Value = Params;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Params, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ObjectRoom {
    type Value = Params;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Params, A::Error> {
        let mut params = Params::with_capacity(self.bytes, self.entries);
        while let Some((key, value)) = map.next_entry::<ValueText, ValueText>()? {
            params.push(&key.0, &value.0);
        }
        Ok(params)
    }
}

/// A JSON value as text: strings unescaped (borrowed from the line when they hold no escape),
/// anything else (`null`, numbers, nested values) as JSON.
struct ValueText<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for ValueText<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = ValueText<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<ValueText<'de>, E> {
                Ok(ValueText(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ValueText<'de>, E> {
                Ok(ValueText(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<ValueText<'de>, E> {
                Ok(ValueText(Cow::Owned(v)))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<ValueText<'de>, E> {
                json_text(serde_json::Value::Bool(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ValueText<'de>, E> {
                json_text(serde_json::Value::from(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ValueText<'de>, E> {
                json_text(serde_json::Value::from(v))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ValueText<'de>, E> {
                json_text(serde_json::Value::from(v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<ValueText<'de>, E> {
                json_text(serde_json::Value::Null)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<ValueText<'de>, A::Error> {
                let value =
                    serde_json::Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
                json_text(value)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ValueText<'de>, A::Error> {
                let value =
                    serde_json::Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
                json_text(value)
            }
        }
        deserializer.deserialize_any(TextVisitor)
    }
}

/// A non-string JSON value as its JSON text.
fn json_text<'de, E: de::Error>(value: serde_json::Value) -> Result<ValueText<'de>, E> {
    serde_json::to_string(&value)
        .map(|text| ValueText(Cow::Owned(text)))
        .map_err(E::custom)
}

/// Splits the inside of `{k=v, k=v}` (`AbstractMap.toString`). An entry boundary is a `, ` at
/// bracket depth 0 followed by `identifier=`; if the brackets do not balance (a value holds a
/// stray one), depth is ignored. Errors carry the byte offset in `inner` of an entry with no `=`.
fn parse_java_map(inner: &str) -> Result<Params, usize> {
    let starts = entry_starts(inner, true)
        .unwrap_or_else(|| entry_starts(inner, false).unwrap_or_else(|| vec![0]));
    let mut entries = Params::with_capacity(inner.len(), starts.len());
    for (n, &start) in starts.iter().enumerate() {
        let end = starts
            .get(n + 1)
            .map_or(inner.len(), |&next| next - ", ".len());
        let entry = &inner[start..end];
        match entry.find('=') {
            Some(eq) if eq > 0 => entries.push(&entry[..eq], &entry[eq + 1..]),
            _ => return Err(start),
        }
    }
    Ok(entries)
}

/// Byte offsets where map entries start; `None` when `by_depth` and the brackets do not balance.
fn entry_starts(inner: &str, by_depth: bool) -> Option<Vec<usize>> {
    let bytes = inner.as_bytes();
    let mut starts = vec![0];
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None if by_depth => return None,
                None => {}
            },
            b',' if (depth == 0 || !by_depth)
                && bytes.get(i + 1) == Some(&b' ')
                && starts_with_key(&bytes[i + 2..]) =>
            {
                starts.push(i + 2);
            }
            _ => {}
        }
    }
    (!by_depth || depth == 0).then_some(starts)
}

/// `identifier=` at the start, identifier being letters, digits, `_` and `.`.
fn starts_with_key(bytes: &[u8]) -> bool {
    let n = bytes
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b == b'.')
        .count();
    n > 0 && bytes.get(n) == Some(&b'=')
}

/// Where the separator `sep` (` | name=`) first starts at or after `from`. Found by its `|`: a
/// substring search would build a searcher on every call, a few per record.
fn find_from(text: &str, from: usize, sep: &str) -> Option<usize> {
    debug_assert!(sep.starts_with(" |"));
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'|', bytes.get(from + 1..)?)
        .map(|i| from + i)
        .find(|&at| bytes[at..].starts_with(sep.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(params: &Params) -> Vec<(&str, &str)> {
        params.iter().collect()
    }

    #[test]
    fn plain_json_objects_read_as_serde_json_reads_them_and_others_go_to_it() {
        let plain = [
            r#"{"volume":"vol1","bucket":"b","key":"a/b c|d {x=[1]}","Transaction":"12"}"#,
            r#"{"k":""}"#,
            r#"{"":"v","k":"v","k":"w"}"#,
            r#"{"k":"é 漢字 :,}{"}"#,
        ];
        // Objects of more entries than are noted while checking them, up to twice as many.
        let long: Vec<String> = (1..=2 * NOTED_ENTRIES + 1)
            .map(|n| {
                let entries: Vec<String> = (0..n).map(|i| format!(r#""k{i}":"v {i}""#)).collect();
                format!("{{{}}}", entries.join(","))
            })
            .collect();
        for s in plain.into_iter().chain(long.iter().map(String::as_str)) {
            let object = PlainObject::at(s, 0).unwrap();
            assert_eq!(object.text, s);
            let serde = serde_json_object(s).unwrap();
            assert_eq!(object.params(), serde, "{s}");
            assert!(ParamsView::Plain(&object).iter().eq(serde.iter()), "{s}");
            // Found where it starts in a message, not only at its start.
            let message = format!("op=X {s} | ret=SUCCESS");
            let object = PlainObject::at(&message, 5).unwrap();
            assert_eq!(object.text, s);
            assert_eq!(object.params(), serde, "{s}");
        }
        let not_plain = [
            r#"{"k":"a"b"}"#,
            r#"{"k":"a\b"}"#,
            "{\"k\":\"a\tb\"}",
            r#"{"k":1}"#,
            r#"{"k":null}"#,
            r#"{ "k":"v"}"#,
            r#"{"k": "v"}"#,
            r#"{"k":"v",}"#,
            r#"{"k":"v"}}"#,
            r#"{"k":"v""#,
            r#"{"k"}"#,
        ];
        for s in not_plain {
            assert!(
                PlainObject::at(s, 0).is_none_or(|object| object.text.len() < s.len()),
                "{s}"
            );
            assert_eq!(parse_json_object(s), serde_json_object(s), "{s}");
        }
    }

    /// The length of the plain object at the start of `bytes`, byte by byte: `{`, then entries
    /// `"key":"value"` with no quote, backslash or control byte inside, `,` between them, `}`.
    fn plain_length_by_bytes(bytes: &[u8]) -> Option<usize> {
        let string_end = |at: usize| -> Option<usize> {
            (bytes.get(at) == Some(&b'"')).then_some(())?;
            let mut n = at + 1;
            while let Some(&b) = bytes.get(n) {
                if b == b'"' {
                    return Some(n + 1);
                }
                if b == b'\\' || b < 0x20 {
                    return None;
                }
                n += 1;
            }
            None
        };
        (bytes.first() == Some(&b'{')).then_some(())?;
        let mut at = 1;
        loop {
            let key_end = string_end(at)?;
            (bytes.get(key_end) == Some(&b':')).then_some(())?;
            let value_end = string_end(key_end + 1)?;
            match bytes.get(value_end) {
                Some(b',') => at = value_end + 1,
                Some(b'}') => return Some(value_end + 1),
                _ => return None,
            }
        }
    }

    #[test]
    fn plain_objects_are_found_as_a_byte_by_byte_check_finds_them() {
        let long: Vec<String> = (0..70).map(|i| format!(r#""k{i}":"v é {i}""#)).collect();
        let objects = [
            r#"{"volume":"vol1","bucket":"b","key":"a/b c|d {x=[1]}","Transaction":"12"}"#
                .to_string(),
            r#"{"k":""}"#.to_string(),
            format!("{{{}}}", long.join(",")),
        ];
        // Each byte of each object, in messages of different tails, replaced by a byte of each
        // class and by the object's punctuation.
        for object in &objects {
            for tail in ["", " | ret=SUCCESS", "\\"] {
                let text = format!("{object}{tail}");
                for at in 0..text.len() {
                    for byte in [b'"', b'\\', b'\n', 0x00, 0x1f, b':', b',', b'}', b'{', b'a'] {
                        let mut bytes = text.clone().into_bytes();
                        bytes[at] = byte;
                        let Ok(text) = String::from_utf8(bytes) else {
                            continue;
                        };
                        let found = PlainObject::at(&text, 0);
                        let length = found.as_ref().map(|object| object.text.len());
                        assert_eq!(length, plain_length_by_bytes(text.as_bytes()), "{text}");
                        if let Some(object) = found {
                            let serde = serde_json_object(object.text).unwrap();
                            assert_eq!(object.params(), serde, "{text}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn first_values_are_those_of_the_first_entries_so_named() {
        fn by_entries<'a>(params: &'a Params, names: [&str; 3]) -> [Option<&'a str>; 3] {
            names.map(|name| params.iter().find(|(key, _)| *key == name).map(|(_, v)| v))
        }
        let mut objects = vec![
            r#"{"volume":"v","bucket":"b","key":"k","volume":"w"}"#.to_string(),
            r#"{"k":"","key":"x","k2":"y"}"#.to_string(),
        ];
        // Names before, at and after the last noted entry, and once more after it.
        for n in [
            NOTED_ENTRIES - 1,
            NOTED_ENTRIES,
            NOTED_ENTRIES + 1,
            3 * NOTED_ENTRIES,
        ] {
            let mut entries: Vec<String> = (0..n).map(|i| format!(r#""k{i}":"v{i}""#)).collect();
            entries.push(r#""volume":"late""#.to_string());
            entries.push(r#""k0":"again""#.to_string());
            objects.push(format!("{{{}}}", entries.join(",")));
        }
        // Entries past 64 KiB, which are not noted.
        let long = "x".repeat(70_000);
        objects.push(format!(r#"{{"k0":"{long}","volume":"v","k0":"w"}}"#));
        objects.push(format!(
            r#"{{"key":"b","k0":"{long}","volume":"v","bucket":"w"}}"#
        ));
        for object in &objects {
            let plain = PlainObject::at(object, 0).unwrap();
            let read = plain.params();
            assert_eq!(read, serde_json_object(object).unwrap());
            for names in [
                ["volume", "bucket", "key"],
                ["key", "k0", "missing"],
                ["k15", "k16", "k17"],
                ["k", "k2", "volume"],
            ] {
                let expected = by_entries(&read, names);
                assert_eq!(
                    ParamsView::Plain(&plain).first_values(names),
                    expected,
                    "{object}"
                );
                assert_eq!(
                    ParamsView::Read(&read).first_values(names),
                    expected,
                    "{object}"
                );
            }
        }
    }

    #[test]
    fn json_params_keep_printed_order_and_unescape() {
        let (params, syntax) =
            parse_params(r#"{"b":"1","a":"x \"q\" \\ \u00e9","Transaction":"7"}"#).unwrap();
        assert_eq!(syntax, ParamSyntax::Json);
        assert_eq!(
            pairs(&params),
            vec![("b", "1"), ("a", "x \"q\" \\ é"), ("Transaction", "7")]
        );
        assert_eq!(
            serde_json::to_string(&params).unwrap(),
            r#"{"b":"1","a":"x \"q\" \\ é","Transaction":"7"}"#
        );
    }

    #[test]
    fn json_null_and_nested_values_keep_their_json_text() {
        let (params, _) = parse_params(r#"{"a":null,"b":{"c":"d"},"e":[1]}"#).unwrap();
        assert_eq!(
            pairs(&params),
            vec![("a", "null"), ("b", r#"{"c":"d"}"#), ("e", "[1]")]
        );
    }

    #[test]
    fn java_map_splits_only_at_top_level_keys() {
        let (params, syntax) = parse_params(
            "{volume=v, bucket=b, deletedKeysList={key=k, dataSize=1, replicationConfig=RATIS/THREE}, \
             {key=k2, dataSize=2, replicationConfig=RATIS/THREE}, unDeletedKeysList=a, b, c=d e, x=}",
        )
        .unwrap();
        assert_eq!(syntax, ParamSyntax::JavaMap);
        assert_eq!(
            pairs(&params),
            vec![
                ("volume", "v"),
                ("bucket", "b"),
                (
                    "deletedKeysList",
                    "{key=k, dataSize=1, replicationConfig=RATIS/THREE}, \
                     {key=k2, dataSize=2, replicationConfig=RATIS/THREE}"
                ),
                ("unDeletedKeysList", "a, b"),
                ("c", "d e"),
                ("x", ""),
            ]
        );
    }

    #[test]
    fn java_map_with_a_stray_bracket_still_splits() {
        let (params, _) = parse_params("{volume=v, key=a[b, dataSize=3}").unwrap();
        assert_eq!(
            pairs(&params),
            vec![("volume", "v"), ("key", "a[b"), ("dataSize", "3")]
        );
    }

    #[test]
    fn empty_and_null_params() {
        assert_eq!(
            parse_params("{}").unwrap(),
            (Params::new(), ParamSyntax::Empty)
        );
        assert_eq!(
            parse_params("null").unwrap(),
            (Params::new(), ParamSyntax::Null)
        );
    }

    #[test]
    fn bad_params_report_a_column() {
        let err = parse_params("{volume}").unwrap_err();
        assert_eq!(err.kind, AuditErrorKind::MapEntry);
        assert_eq!(err.column, 2);
        let err = parse_params(r#"{"a":"b",}"#).unwrap_err();
        assert!(matches!(err.kind, AuditErrorKind::Json(_)), "{err}");
        assert_eq!(err.column, 10);
        assert_eq!(
            parse_params("volume=v").unwrap_err().kind,
            AuditErrorKind::MissingParams
        );
    }

    #[test]
    fn body_errors_name_the_part_and_column() {
        let cases: &[(&str, AuditErrorKind, usize)] = &[
            (
                "usr=a | ip=b | op=X {} | ret=SUCCESS",
                AuditErrorKind::MissingUser,
                1,
            ),
            ("user=a ip=b", AuditErrorKind::MissingIp, 6),
            ("user=a | ip=b op=X", AuditErrorKind::MissingOp, 13),
            (
                "user=a | ip=b | op=x {} | ret=SUCCESS",
                AuditErrorKind::BadOp,
                20,
            ),
            (
                "user=a | ip=b | op=X{} | ret=SUCCESS",
                AuditErrorKind::BadOp,
                21,
            ),
            (
                "user=a | ip=b | op=X [] | ret=SUCCESS",
                AuditErrorKind::MissingParams,
                22,
            ),
            ("user=a | ip=b | op=X {a=b}", AuditErrorKind::MissingRet, 22),
            (
                "user=a | ip=b | op=X {a=b} | ret=",
                AuditErrorKind::EmptyRet,
                34,
            ),
            (
                "user=a | ip=b | op=X {} | ret=null | perf=[x]",
                AuditErrorKind::BadPerf,
                43,
            ),
            (
                "user=a | ip=b | op=X {} | ret=SUCCESS x",
                AuditErrorKind::TrailingText,
                38,
            ),
            (
                "user=é | ip=b | op=X {} | ret=SUCCESS |  ",
                AuditErrorKind::TrailingText,
                38,
            ),
        ];
        for (msg, kind, column) in cases {
            let err = parse_audit_body(msg).unwrap_err();
            assert_eq!((&err.kind, err.column), (kind, *column), "{msg}: {err}");
        }
    }

    #[test]
    fn params_containing_pipes_end_by_brackets() {
        let msg =
            r#"user=u | ip=i | op=CREATE_KEY {"key":"a | ret=FAILURE | b","x":"}"} | ret=SUCCESS"#;
        let (body, _) = parse_audit_body(msg).unwrap();
        assert_eq!(body.params.get("key"), Some("a | ret=FAILURE | b"));
        assert_eq!(body.params.get("x"), Some("}"));
        assert_eq!(body.ret, AuditRet::Success);

        let msg = "user=u | ip=i | op=CREATE_KEY {key=a | b, dataSize=0} | ret=SUCCESS";
        let (body, _) = parse_audit_body(msg).unwrap();
        assert_eq!(body.params.get("key"), Some("a | b"));
    }

    #[test]
    fn json_brackets_inside_strings_and_escapes_do_not_count() {
        let text = r#"{"a":"}\"{","b":"\\","c":[1,{"d":"]"}]} | ret=SUCCESS"#;
        let end = text.find(" | ret=").unwrap();
        assert_eq!(bracket_end(text.as_bytes(), 0, true), Some(end));
        // Not JSON: the quotes are text, the first `}` closes.
        assert_eq!(bracket_end(text.as_bytes(), 0, false), Some(7));
        for open in [r#"{"a":"x\"#, r#"{"a":"x"#, r#"{"a":"x\""#] {
            assert_eq!(bracket_end(open.as_bytes(), 0, true), None, "{open}");
        }
    }

    #[test]
    fn unbalanced_map_value_falls_back_to_the_first_ret_that_parses() {
        let msg = "user=u | ip=i | op=CREATE_KEY {volume=v, key=a{b} | ret=SUCCESS";
        let (body, syntax) = parse_audit_body(msg).unwrap();
        assert_eq!(syntax, ParamSyntax::JavaMap);
        assert_eq!(body.params.get("key"), Some("a{b"));
        assert_eq!(body.ret, AuditRet::Success);
    }

    #[test]
    fn prefix_returns_where_the_message_ends() {
        let text = "user=null | ip=null | op=READ_CHUNK {} | ret=FAILURE | java.lang.Exception: x";
        let (body, syntax, end) = parse_audit_prefix(text).unwrap();
        assert_eq!(syntax, ParamSyntax::Empty);
        assert_eq!(body.ret, AuditRet::Failure);
        assert_eq!(&text[end..], " | java.lang.Exception: x");
    }

    #[test]
    fn serializes_as_an_object_with_ordered_params() {
        let (body, _) = parse_audit_body(
            "user=null | ip=null | op=PUT_BLOCK {\"blockData\":\"b\"} | ret=null | perf={preOpLatencyMs=0, opLatencyMs=612}",
        )
        .unwrap();
        assert_eq!(
            serde_json::to_string(&body).unwrap(),
            r#"{"user":"null","ip":"null","op":"PUT_BLOCK","params":{"blockData":"b"},"ret":"null","perf":{"preOpLatencyMs":"0","opLatencyMs":"612"}}"#
        );
    }

    const VALID: &[&str] = &[
        r#"user=hadoop | ip=10.0.1.13 | op=SEND_HEARTBEAT {"datanodeUUID":"4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27","term":"5","command":"[commandType: x encodedToken: \"\" deadlineMsSinceEpoch: 0]"} | ret=SUCCESS"#,
        "user= | ip= | op=COMMIT_KEY {volume=hbase, bucket=wal, key=WALs/rs1/rs1.1762164000000, dataSize=1184, Transaction=5771020} | ret=SUCCESS",
        "user=null | ip=null | op=PUT_BLOCK {\"blockData\":\"[blockId=conID: 4021 locID: 1 bcsId: 2 replicaIndex: null, size=3]\"} | ret=null | perf={preOpLatencyMs=0, opLatencyMs=612}",
    ];

    #[test]
    fn truncations_and_mutations_never_panic() {
        for body in VALID {
            let (full, _) = parse_audit_body(body).unwrap();
            for (cut, _) in body.char_indices() {
                let prefix = &body[..cut];
                // Only a cut inside or after the `ret` value, before any `perf`, can still parse.
                if let Ok((parsed, _)) = parse_audit_body(prefix) {
                    assert_eq!(parsed.params, full.params, "{prefix}");
                    assert_eq!(parsed.perf, None, "{prefix}");
                }
                let _ = parse_audit_prefix(prefix);
            }
            let specials = ['{', '}', '[', ']', '"', '\\', '|', ' ', '=', ',', 'é'];
            for (at, _) in body.char_indices() {
                for special in specials {
                    let mut mutated = body.to_string();
                    let len = mutated[at..].chars().next().map_or(0, char::len_utf8);
                    mutated.replace_range(at..at + len, special.encode_utf8(&mut [0; 4]));
                    let _ = parse_audit_body(&mutated);
                    let _ = parse_audit_prefix(&mutated);
                }
            }
        }
    }
}
