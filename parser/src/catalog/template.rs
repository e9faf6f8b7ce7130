//! The one way the catalogue declares and matches a log statement (the `catalog` module doc says
//! how to add one): a [`Statement`] is the Ozone format string, the shape of each `{}`
//! ([`Slot`]) and a builder of the typed event. The template is the matcher: its literal text
//! picks the candidates ([`Catalogue`]) and splits the message into the placeholders' values
//! ([`Matched`]).

use super::{EventData, Input, KindInfo, Typed};
use crate::entity::{self, DatanodeRef, Entity};
use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use memchr::memmem::Finder;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// What a `{}` prints. A value must have its slot's shape (surrounding spaces aside) for the
/// template to match, so where a literal recurs in the text the split that types is the one taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// Any text, possibly empty.
    Text,
    /// Printed but not read (the event keeps the line's text).
    Unread,
    /// A decimal `long`.
    U64,
    /// A decimal `long` that may be negative.
    I64,
    /// `true` or `false`.
    Bool,
    /// An enum constant (`IN_SERVICE`, `QUASI_CLOSED`): upper-case letters and `_`.
    Word,
    /// `DatanodeDetails.toString()` (`uuid(host/ip)`) or, up to 1.3, `toDebugString()`.
    Datanode,
    /// A Ratis `RaftGroupMemberId` (`<peer>@group-<12 HEX>`).
    Member,
    /// A Ratis daemon's name: its member id with the daemon's class glued on
    /// (`<member>-SegmentedRaftLogWorker`, `<member>-LeaderElection7`), or the bare member id.
    Daemon,
    /// A Ratis `RaftGroupId` (`group-<12 HEX>`).
    Group,
    /// A pipeline id (`PipelineID=<uuid>`, `Pipeline-<uuid>`, a bare UUID).
    Pipeline,
    /// A container id (`#1051`, `1051`) or a `ContainerInfo{id=#1051, …}`.
    Container,
    /// A `BlockID` (`conID: 1 locID: 2 bcsId: 3`).
    Block,
    /// A `DatanodeBlockID` as multi-line protobuf text (`containerID: 1\nlocalID: 2\n…`), over the
    /// continuation lines.
    BlockProto,
    /// `ChunkInfo.toString()` (`ChunkInfo{chunkName='<name>, offset=<o>, len=<l>}`).
    ChunkInfo,
    /// `OmKeyInfo.toString()` (`OmKeyInfo{volumeName='v', …}`), over the continuation lines.
    KeyInfo,
    /// A container scan's result (`Container has 1 error: MISSING_CHUNK for file …`).
    ScanResult,
    /// `AbstractContainerReportHandler.getDetailsForLogging` (`Container #… (…) r… (…) from dn …`).
    Replica,
    /// A flag printed as a word or as nothing (`force ? "force" : ""`).
    Flag,
    /// A Ratis `TermIndex` (`(t:5, i:1234)`; `<INITIAL_VALUE>`, `<PROTO_DEFAULT>` or `null` for
    /// none).
    TermIndex,
    /// `LogProtoUtils.toLogEntryString` (`(t:5, i:1234), STATEMACHINELOGENTRY, …`).
    LogEntry,
    /// `LogProtoUtils.toLogEntriesString` (`[(t:5, i:1234), …, …]`).
    LogEntries,
    /// A Ratis reply (`<requestor><-<replier>#<callId>:OK-t<term>…`).
    RaftReply,
    /// A host name, address or node id: no spaces.
    Name,
    /// Text naming datanodes (`[uuid(host/ip), …]`, `Nodes: […]`).
    Datanodes,
    /// Text naming pipelines (`[PipelineID=<uuid>, …]`).
    Pipelines,
    /// The node a DatanodeAdminMonitorImpl line tracks: `…$TrackedNode@<hex>` from 2.0, the
    /// datanode before.
    TrackedNode,
    /// `NodeStatus.toString()`: `<OPSTATE>(no expiry)-<HEALTH>`, `<OPSTATE>(expiry: <s>s)-<HEALTH>`.
    NodeStatus,
    /// A list of `SCMCommand.toString()`s (`[setNodeOperationalStateCommand: cmdID: …, …]`).
    Commands,
    /// An `SCMHeartbeatRequestProto` as protobuf text, over the continuation lines.
    Heartbeat,
    /// Ratis `TruncationSegments.toString()` (`truncate(N)`, then `toTruncate: …` and
    /// `toDelete: […]` on the continuation lines).
    Truncation,
    /// A Ratis `TimeDuration` (`5204ms`).
    Duration,
}

impl Slot {
    /// Whether the value may run over the continuation lines (a multi-line `toString`): a template
    /// with such a slot is matched against the whole record.
    pub fn multiline(self) -> bool {
        matches!(
            self,
            Slot::Heartbeat | Slot::Truncation | Slot::BlockProto | Slot::KeyInfo
        )
    }

    /// Whether a value of this shape can never hold byte `b`: the literal after it, when it
    /// starts with `b`, then starts at the first `b`.
    fn never_holds(self, b: u8) -> bool {
        match self {
            Slot::U64 => !b.is_ascii_digit(),
            Slot::I64 => !b.is_ascii_digit() && b != b'-',
            Slot::Bool => !b.is_ascii_lowercase(),
            Slot::Word => !b.is_ascii_uppercase() && b != b'_',
            Slot::Group => !b.is_ascii_alphanumeric() && b != b'-',
            // Peer ids, `@group-<HEX>` and a daemon's class name.
            Slot::Member | Slot::Daemon => {
                !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'@' | b'$'))
            }
            _ => false,
        }
    }

    /// Whether `value` (already trimmed) has this slot's shape.
    pub fn accepts(self, value: &str) -> bool {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        match self {
            Slot::Text
            | Slot::Unread
            | Slot::Heartbeat
            | Slot::Datanodes
            | Slot::Pipelines
            | Slot::Commands => true,
            Slot::U64 => digits(value),
            Slot::I64 => digits(value.strip_prefix('-').unwrap_or(value)),
            Slot::Bool => matches!(value, "true" | "false"),
            Slot::Word => {
                !value.is_empty() && value.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
            }
            Slot::Datanode => datanode_whole(value).is_some(),
            Slot::Member => entity::member_id(value).is_some_and(|(_, n)| n == value.len()),
            Slot::Daemon => entity::member_id(value).is_some_and(|(_, n)| {
                let name = &value[n..];
                name.is_empty()
                    || name.strip_prefix('-').is_some_and(|name| {
                        !name.is_empty() && name.bytes().all(|b| !Slot::Daemon.never_holds(b))
                    })
            }),
            Slot::Group => value
                .strip_prefix("group-")
                .is_some_and(|hex| hex.len() == 12 && hex.bytes().all(|b| b.is_ascii_hexdigit())),
            Slot::Pipeline => entity::pipeline_id(value).is_some_and(|(_, n)| n == value.len()),
            Slot::Container => container_whole(value).is_some(),
            Slot::Replica => entity::replica_details(value).is_some(),
            Slot::Block => entity::block_id(value).is_some(),
            Slot::BlockProto => value.contains("containerID: "),
            Slot::ChunkInfo => value.starts_with("ChunkInfo{chunkName='"),
            Slot::ScanResult => value.starts_with("Container "),
            Slot::KeyInfo => value.starts_with("OmKeyInfo{"),
            Slot::Flag => value.bytes().all(|b| b.is_ascii_lowercase()),
            Slot::TermIndex => {
                entity::term_index(value).is_some_and(|(_, n)| n == value.len())
                    || matches!(value, "<INITIAL_VALUE>" | "<PROTO_DEFAULT>" | "null")
            }
            Slot::LogEntry => entity::term_index(value).is_some(),
            Slot::LogEntries => value.starts_with('['),
            Slot::RaftReply => value.contains("<-"),
            Slot::Name => !value.is_empty() && !value.bytes().any(|b| b.is_ascii_whitespace()),
            Slot::TrackedNode => value.contains("TrackedNode@") || Slot::Datanode.accepts(value),
            Slot::Truncation => value.starts_with("truncate("),
            Slot::Duration => u64_prefix(value).is_some() && Slot::Name.accepts(value),
            Slot::NodeStatus => value
                .split_once('(')
                .is_some_and(|(op, rest)| Slot::Word.accepts(op) && rest.contains(")-")),
        }
    }
}

/// A datanode that is the whole of `value`: `uuid(host/ip)`, or `uuid{ip: …, host: …, …}`
/// (`toDebugString`, whose fields may hold braces: `ports: {RATIS=…}` from 2.0).
fn datanode_whole(value: &str) -> Option<DatanodeRef<'_>> {
    let (dn, len) = entity::datanode_details(value)?;
    let debug_form = value.as_bytes().get(dn.uuid.len()) == Some(&b'{') && value.ends_with('}');
    (len == value.len() || debug_form).then_some(dn)
}

/// A container id that is the whole of `value`, or the id of a `ContainerInfo{…}`.
fn container_whole(value: &str) -> Option<u64> {
    if value.starts_with("ContainerInfo{") {
        return entity::find_containers(value).next().map(|m| m.value);
    }
    value.strip_prefix('#').unwrap_or(value).parse().ok()
}

/// The most placeholders one template has.
pub const MAX_SLOTS: usize = 10;

/// What a builder gets: the statement's kind, the record, and the placeholders' values (trimmed)
/// by position; typed reads return `None` when the value does not parse.
#[derive(Debug, Clone, Copy)]
pub struct Matched<'a> {
    pub kind: &'static str,
    pub input: &'a Input<'a>,
    values: Values<'a>,
}

/// The values of one split, by placeholder position.
#[derive(Debug, Clone, Copy)]
struct Values<'a> {
    items: [&'a str; MAX_SLOTS],
    len: usize,
}

impl<'a> Values<'a> {
    fn push(&mut self, value: &'a str) {
        self.items[self.len] = value;
        self.len += 1;
    }

    fn as_slice(&self) -> &[&'a str] {
        &self.items[..self.len]
    }
}

impl<'a> Matched<'a> {
    /// Every value, in order.
    pub fn values(&self) -> &[&'a str] {
        self.values.as_slice()
    }

    /// The text of placeholder `i`.
    pub fn text(&self, i: usize) -> &'a str {
        self.values()[i]
    }

    pub fn string(&self, i: usize) -> String {
        self.text(i).to_string()
    }

    pub fn lower(&self, i: usize) -> String {
        self.text(i).to_ascii_lowercase()
    }

    pub fn u64(&self, i: usize) -> Option<u64> {
        self.text(i).parse().ok()
    }

    pub fn i64(&self, i: usize) -> Option<i64> {
        self.text(i).parse().ok()
    }

    pub fn bool(&self, i: usize) -> Option<bool> {
        self.text(i).parse().ok()
    }

    /// An enum constant.
    pub fn word(&self, i: usize) -> Option<String> {
        let v = self.text(i);
        Slot::Word.accepts(v).then(|| v.to_string())
    }

    /// A datanode filling the whole placeholder.
    pub fn datanode(&self, i: usize) -> Option<DatanodeRef<'a>> {
        datanode_whole(self.text(i))
    }

    /// The container of placeholder `i` (`#1051`, `1051`, `ContainerInfo{id=#1051, …}`).
    pub fn container(&self, i: usize) -> Option<u64> {
        container_whole(self.text(i))
    }
}

/// What a statement's builder makes of a match: the event and the entities it names.
pub type Build<E> = fn(&Matched<'_>) -> Option<(E, Vec<Entity>)>;

/// One catalogued log statement.
pub struct Statement<E: 'static> {
    /// The registry row (`oztrace explain --kinds`); `info.template` is the matcher.
    pub info: KindInfo,
    /// The simple class names of the loggers that write it when they are not the class's own
    /// (a class logging through another's logger, a helper through its caller's).
    pub via: &'static [&'static str],
    /// The shape of each placeholder, in order.
    pub slots: &'static [Slot],
    pub build: Build<E>,
}

impl<E> Statement<E> {
    /// A statement; compilation fails when the slots do not fill the template's placeholders.
    pub const fn new(
        info: KindInfo,
        via: &'static [&'static str],
        slots: &'static [Slot],
        build: Build<E>,
    ) -> Statement<E> {
        assert!(
            placeholders(info.template) == slots.len(),
            "a catalogue template has a different number of {{}} than of slots"
        );
        assert!(
            slots.len() <= MAX_SLOTS,
            "a template has more than MAX_SLOTS placeholders"
        );
        assert!(
            !has_adjacent_placeholders(info.template),
            "two placeholders with nothing between them cannot be told apart: register each wording"
        );
        Statement {
            info,
            via,
            slots,
            build,
        }
    }

    /// The loggers that write it: `via`, else the class's own (the first word of `info.class`).
    pub fn loggers(&self) -> &[&'static str] {
        if self.via.is_empty() {
            std::slice::from_ref(&self.info.class)
        } else {
            self.via
        }
    }
}

/// The logger name of a class entry (`org.a.B (note)` → `org.a.B`).
fn qualified(logger: &'static str) -> &'static str {
    logger.split(' ').next().unwrap_or(logger)
}

/// A logger a statement is written through, split once.
#[derive(Debug)]
struct WrittenBy {
    qualified: &'static str,
    /// Empty for a simple name (any package).
    package: &'static str,
    class: &'static str,
}

impl WrittenBy {
    fn new(qualified: &'static str) -> WrittenBy {
        let (package, class) = qualified.rsplit_once('.').unwrap_or(("", qualified));
        WrittenBy {
            qualified,
            package,
            class,
        }
    }

    /// Whether a record's `logger` is this one in full or abbreviated by `%c{n}` (`node.X`,
    /// `X`); a simple name accepts any package.
    fn accepts(&self, logger: &str) -> bool {
        logger == self.qualified || logger_is(logger, self.package, self.class)
    }
}

fn logger_is(logger: &str, package: &str, class: &str) -> bool {
    match logger.strip_suffix(class) {
        Some("") => true,
        Some(prefix) => prefix.strip_suffix('.').is_some_and(|p| {
            package.is_empty()
                || package == p
                || package
                    .strip_suffix(p)
                    .is_some_and(|head| head.ends_with('.'))
        }),
        None => false,
    }
}

/// A row's `via` loggers, none when it gives none (`catalogue!`).
pub const fn via(given: &[&'static [&'static str]]) -> &'static [&'static str] {
    match given {
        [loggers] => loggers,
        _ => &[],
    }
}

/// The number of `{}` in a template.
pub const fn placeholders(template: &str) -> usize {
    let b = template.as_bytes();
    let (mut i, mut n) = (0, 0);
    while i + 1 < b.len() {
        if b[i] == b'{' && b[i + 1] == b'}' {
            n += 1;
            i += 2;
        } else {
            i += 1;
        }
    }
    n
}

const fn has_adjacent_placeholders(template: &str) -> bool {
    let b = template.as_bytes();
    let mut i = 0;
    while i + 3 < b.len() {
        if b[i] == b'{' && b[i + 1] == b'}' && b[i + 2] == b'{' && b[i + 3] == b'}' {
            return true;
        }
        i += 1;
    }
    false
}

/// A template split at its placeholders: `head {} literals[0] {} literals[1] …`.
#[derive(Debug)]
struct Compiled {
    head: &'static str,
    /// The literal after each placeholder (the last one ends the message).
    literals: Vec<&'static str>,
    /// A searcher for each literal but the last, built once.
    finders: Vec<Finder<'static>>,
    /// Whether a value may run over the continuation lines ([`Slot::multiline`]).
    multiline: bool,
    /// The index of its anchor (the longest literal on the first line) in the catalogue's
    /// automaton; `None` when the template has no literal text.
    anchor: Option<usize>,
    /// For a multi-line template, a searcher of its anchor: a record whose first line lacks it
    /// is passed over before its lines are joined.
    first_line: Option<Finder<'static>>,
}

impl Compiled {
    fn new(template: &'static str, slots: &[Slot]) -> Compiled {
        // Copies of logs lose trailing spaces and layouts may eat leading ones; the message is
        // trimmed the same way.
        let mut parts = template.trim_ascii().split("{}");
        let head = parts.next().unwrap_or("");
        let literals: Vec<&'static str> = parts.collect();
        let searched = literals.len().saturating_sub(1);
        Compiled {
            head,
            finders: literals[..searched]
                .iter()
                .map(|&l| Finder::new(l.as_bytes()))
                .collect(),
            literals,
            multiline: slots.iter().any(|s| s.multiline()),
            anchor: None,
            first_line: None,
        }
    }

    /// The literal the prefilter looks for: the longest one that stands on the first line (before
    /// any multi-line value).
    fn anchor_text(&self, slots: &[Slot]) -> &'static str {
        let first_line = slots
            .iter()
            .position(|s| s.multiline())
            .unwrap_or(slots.len());
        std::iter::once(self.head)
            .chain(self.literals[..first_line].iter().copied())
            .max_by_key(|l| l.len())
            .unwrap_or("")
    }

    /// Splits `text` (trimmed of white space) into the placeholders' values, or `None` when it is
    /// not this template.
    fn fill<'a>(&self, slots: &[Slot], text: &'a str) -> Option<Values<'a>> {
        let rest = text.strip_prefix(self.head)?;
        let mut values = Values {
            items: [""; MAX_SLOTS],
            len: 0,
        };
        if slots.is_empty() {
            return rest.is_empty().then_some(values);
        }
        self.fill_from(slots, 0, rest, &mut values)
            .then_some(values)
    }

    /// Placeholder `i` runs to the first occurrence of the literal after it whose split leaves
    /// values of the right shapes; the last one runs to the literal that ends the template.
    fn fill_from<'a>(
        &self,
        slots: &[Slot],
        i: usize,
        rest: &'a str,
        caps: &mut Values<'a>,
    ) -> bool {
        let literal = self.literals[i];
        if i + 1 == slots.len() {
            return match rest.strip_suffix(literal).map(str::trim_ascii) {
                Some(value) if slots[i].accepts(value) => {
                    caps.push(value);
                    true
                }
                _ => false,
            };
        }
        let first = literal.as_bytes()[0];
        if !first.is_ascii_whitespace() && slots[i].never_holds(first) {
            // The value ends at the first such byte: the literal is there or nowhere.
            let Some(at) = memchr::memchr(first, rest.as_bytes()) else {
                return false;
            };
            let value = rest[..at].trim_ascii();
            if !rest[at..].starts_with(literal) || !slots[i].accepts(value) {
                return false;
            }
            caps.push(value);
            if self.fill_from(slots, i + 1, &rest[at + literal.len()..], caps) {
                return true;
            }
            caps.len = i;
            return false;
        }
        let finder = &self.finders[i];
        let mut from = 0;
        while let Some(at) = finder.find(&rest.as_bytes()[from..]).map(|at| from + at) {
            let value = rest[..at].trim_ascii();
            if slots[i].accepts(value) {
                caps.push(value);
                if self.fill_from(slots, i + 1, &rest[at + literal.len()..], caps) {
                    return true;
                }
                caps.len = i;
            }
            // Literals are not empty (no adjacent placeholders): step over its first character.
            from = at + literal.chars().next().map_or(1, char::len_utf8);
        }
        false
    }
}

/// Bits over a catalogue's anchors (a catalogue has at most `64 * ANCHOR_WORDS` distinct ones).
const ANCHOR_WORDS: usize = 4;

/// A module's statements, indexed by logger class, and by an Aho-Corasick automaton over each
/// template's longest literal that picks, in one pass over the message, the candidates of a record
/// without a logger.
pub struct Catalogue<E: 'static> {
    statements: &'static [Statement<E>],
    compiled: Vec<Compiled>,
    /// By simple class name: the loggers of that name the statements are written through (a
    /// qualified name, or a simple one for any package), each with its statements in table order.
    by_logger: FxHashMap<&'static str, Vec<(WrittenBy, Vec<usize>)>>,
    /// Every statement, for records without a logger.
    every: Vec<usize>,
    /// Each distinct anchor once, and their automaton, built when a record without a logger first
    /// needs it (most layouts print the logger).
    anchors: Vec<&'static str>,
    automaton: OnceLock<AhoCorasick>,
}

impl<E> Catalogue<E> {
    pub fn new(statements: &'static [Statement<E>]) -> Catalogue<E> {
        let mut compiled: Vec<Compiled> = statements
            .iter()
            .map(|s| Compiled::new(s.info.template, s.slots))
            .collect();
        let mut anchors: Vec<&'static str> = Vec::new();
        for (c, s) in compiled.iter_mut().zip(statements) {
            let text = c.anchor_text(s.slots);
            if c.multiline {
                c.first_line = Some(Finder::new(text.as_bytes()));
            }
            if text.is_empty() {
                continue;
            }
            c.anchor = Some(match anchors.iter().position(|a| *a == text) {
                Some(at) => at,
                None => {
                    anchors.push(text);
                    anchors.len() - 1
                }
            });
        }
        assert!(
            anchors.len() <= 64 * ANCHOR_WORDS,
            "more distinct anchors than the candidate bits hold"
        );
        let mut by_logger: FxHashMap<&'static str, Vec<(WrittenBy, Vec<usize>)>> =
            FxHashMap::default();
        for (i, s) in statements.iter().enumerate() {
            for logger in s.loggers().iter().map(|l| qualified(l)) {
                let loggers = by_logger.entry(logger_class(logger)).or_default();
                match loggers.iter_mut().find(|(by, _)| by.qualified == logger) {
                    Some((_, rows)) => rows.push(i),
                    None => loggers.push((WrittenBy::new(logger), vec![i])),
                }
            }
        }
        Catalogue {
            statements,
            compiled,
            by_logger,
            every: (0..statements.len()).collect(),
            anchors,
            automaton: OnceLock::new(),
        }
    }

    /// The first statement, in table order, that the record's logger writes (any, when the layout
    /// prints no logger) whose template matches and whose builder types the values.
    pub fn classify(&self, input: &Input<'_>) -> Option<(&'static Statement<E>, E, Vec<Entity>)> {
        let record = input.record;
        let message = record.message.trim_ascii();
        let merged: Vec<usize>;
        let candidates: &[usize] = match record.logger.as_deref() {
            None => &self.every,
            Some(logger) => {
                let loggers = self.by_logger.get(logger_class(logger))?;
                let mut written = loggers
                    .iter()
                    .filter(|(by, _)| by.accepts(logger))
                    .map(|(_, rows)| rows.as_slice());
                let first = written.next()?;
                match written.next() {
                    None => first,
                    // A simple and a qualified name of one class: their rows in table order.
                    Some(second) => {
                        let mut rows: Vec<usize> = first
                            .iter()
                            .chain(second)
                            .chain(written.flatten())
                            .copied()
                            .collect();
                        rows.sort_unstable();
                        rows.dedup();
                        merged = rows;
                        &merged
                    }
                }
            }
        };
        // A class's rows are rejected by their head or first literal in a few instructions each;
        // with no logger to narrow them, one pass of the automaton keeps the rows whose anchor
        // the message holds.
        let seen = record.logger.is_none().then(|| self.anchors_in(message));
        let mut full: Option<String> = None;
        for &i in candidates {
            let compiled = &self.compiled[i];
            if let (Some(seen), Some(anchor)) = (&seen, compiled.anchor)
                && seen[anchor / 64] & (1 << (anchor % 64)) == 0
            {
                continue;
            }
            let statement = &self.statements[i];
            let text = if compiled.multiline && !record.continuation.is_empty() {
                if compiled
                    .first_line
                    .as_ref()
                    .is_some_and(|anchor| anchor.find(message.as_bytes()).is_none())
                {
                    continue;
                }
                full.get_or_insert_with(|| {
                    let mut text =
                        String::with_capacity(message.len() + 1 + record.continuation.len());
                    text.push_str(message);
                    text.push('\n');
                    text.push_str(&record.continuation);
                    text
                })
                .trim_ascii()
            } else {
                message
            };
            let Some(values) = compiled.fill(statement.slots, text) else {
                continue;
            };
            let matched = Matched {
                kind: statement.info.kind,
                input,
                values,
            };
            if let Some((event, entities)) = (statement.build)(&matched) {
                return Some((statement, event, entities));
            }
        }
        None
    }

    /// [`Catalogue::classify`] as the record's typed event.
    pub fn typed(&self, input: &Input<'_>) -> Option<Typed>
    where
        E: Into<EventData>,
    {
        let (_, event, entities) = self.classify(input)?;
        Some(Typed::new(event, entities))
    }

    fn anchors_in(&self, message: &str) -> [u64; ANCHOR_WORDS] {
        let mut seen = [0u64; ANCHOR_WORDS];
        let automaton = self.automaton.get_or_init(|| {
            // A contiguous NFA: quick to build, and as fast as a DFA on messages this short.
            AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .kind(Some(AhoCorasickKind::ContiguousNFA))
                .build(&self.anchors)
                .expect("catalogue anchors compile")
        });
        for m in automaton.find_overlapping_iter(message) {
            let p = m.pattern().as_usize();
            seen[p / 64] |= 1 << (p % 64);
        }
        seen
    }

    pub fn statements(&self) -> &'static [Statement<E>] {
        self.statements
    }
}

/// Declares a module's catalogue: `KINDS` (the registry rows, `oztrace explain --kinds`) and
/// `STATEMENTS` (the matchers) from one table. See the `catalog` module doc for a row's parts.
macro_rules! catalogue {
    (@info $kind:expr, $log:expr, $class:expr, $level:expr, $releases:expr, $template:expr,
        $section:expr) => {
        $crate::catalog::KindInfo {
            kind: $kind,
            log: $log,
            class: $class,
            level: $level,
            releases: $releases,
            template: $template,
            catalogue: $section,
        }
    };
    (
        event $event:ty;
        $( structured {
            $( $skind:literal, $slog:literal, $slevel:literal, $sclass:literal, $sreleases:literal,
               $ssection:literal, $stemplate:expr; )*
        } )?
        $( log $log:literal {
            $( $kind:literal, $level:literal, $class:expr, $(via $via:expr,)?
               $releases:literal, $section:literal,
               $template:literal [$($slot:ident),* $(,)?] => $build:expr, )*
        } )+
    ) => {
        /// Every kind of this module with its Ozone source, in table order.
        pub const KINDS: &[$crate::catalog::KindInfo] = &[
            $( $( catalogue!(@info $skind, $slog, $sclass, $slevel, $sreleases, $stemplate,
                $ssection), )* )?
            $( $( catalogue!(@info $kind, $log, $class, $level, $releases, $template, $section),
            )* )+
        ];

        /// The statements a message template matches, tried in this order.
        pub(crate) const STATEMENTS: &[$crate::catalog::template::Statement<$event>] = &[
            $( $( $crate::catalog::template::Statement::new(
                catalogue!(@info $kind, $log, $class, $level, $releases, $template, $section),
                $crate::catalog::template::via(&[$($via)?]),
                &[$($crate::catalog::template::Slot::$slot),*],
                $build,
            ), )* )+
        ];

        static CATALOGUE: std::sync::LazyLock<$crate::catalog::template::Catalogue<$event>> =
            std::sync::LazyLock::new(|| $crate::catalog::template::Catalogue::new(STATEMENTS));
    };
}
pub(crate) use catalogue;

/// Splits a printed structure that is not a log statement (`{volume=v, bucket=b, key=k}`) by a
/// template whose placeholders are all text, as statements are split.
pub fn split<'a>(template: &'static str, text: &'a str) -> Option<Vec<&'a str>> {
    let slots = vec![Slot::Text; placeholders(template)];
    let values = Compiled::new(template, &slots).fill(&slots, text.trim_ascii())?;
    Some(values.as_slice().to_vec())
}

/// The class name at the end of a logger: `org.a.B`, `a.B` (`%c{2}`) and `B` all give `B`.
pub fn logger_class(logger: &str) -> &str {
    memchr::memrchr(b'.', logger.as_bytes()).map_or(logger, |dot| &logger[dot + 1..])
}

/// The unsigned number at the start of `s` (`18341, …` → 18341).
pub fn u64_prefix(s: &str) -> Option<u64> {
    let len = s.bytes().take_while(u8::is_ascii_digit).count();
    s.get(..len)?.parse().ok()
}

/// The number after `label` in `s` (`newEndIndex=18341`).
pub fn number_after(s: &str, label: &str) -> Option<u64> {
    let at = s.find(label)? + label.len();
    u64_prefix(s.get(at..)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A template, its slots, a message, and the values or `None` when it is not the template.
    type Case<'a> = (&'static str, &'a [Slot], &'a str, Option<&'a [&'a str]>);

    #[test]
    fn fill_reads_placeholders_or_refuses() {
        use Slot::*;
        let member = "3f2b@group-D2C8A1B9F0E4-SegmentedRaftLogWorker";
        let rolling = format!("{member}: Rolling segment log_1 to index:7");
        let rolling_cut = format!("{member}:x: Rolling y");
        let cases: [Case; 15] = [
            (
                "Container {} is open but {}. Triggering close.",
                &[Container, Text],
                "Container #5 is open but full. Triggering close.  ",
                Some(&["#5", "full"]),
            ),
            ("a {} b", &[Text], "a x c", None),
            ("no placeholders", &[], "no placeholders", Some(&[])),
            ("no placeholders", &[], "other", None),
            // The split whose values type wins over the first occurrence of the literal.
            (
                "Message: {} , Result: {} , done.",
                &[Text, Word],
                "Message: a , Result: b , Result: CHUNK_FILE_INCONSISTENCY , done.",
                Some(&["a , Result: b", "CHUNK_FILE_INCONSISTENCY"]),
            ),
            ("took {}ms", &[U64], "took 12xms", None),
            // A value that cannot hold the literal's first byte ends at it: the first `:` after
            // a member id is the literal's or the line is not the template.
            (
                "{}: Rolling segment {} to index:{}",
                &[Daemon, Text, U64],
                &rolling,
                Some(&[member, "log_1", "7"]),
            ),
            ("{}: Rolling {}", &[Daemon, Text], &rolling_cut, None),
            (
                "{}, {} done",
                &[U64, U64],
                "12, 13 done",
                Some(&["12", "13"]),
            ),
            // A trailing space of the template is not required of the message.
            ("Replica {} ", &[Text], "Replica x", Some(&["x"])),
            // Middle placeholders take the first occurrence that fits, the last one the tail.
            (
                "{} has {} x",
                &[Text, Text],
                "a has b has c x",
                Some(&["a", "b has c"]),
            ),
            ("{} has {} x", &[Text, Text], "a has b", None),
            ("A {} B", &[Text], "A", None),
            ("Entering safe mode.", &[], "Entering safe mode. now", None),
            ("Entering safe mode.", &[], "Entering safe mode.", Some(&[])),
        ];
        for (template, slots, text, expected) in cases {
            let values = Compiled::new(template, slots).fill(slots, text.trim_ascii());
            assert_eq!(
                values.as_ref().map(Values::as_slice),
                expected,
                "{template} / {text}"
            );
        }
    }

    #[test]
    fn split_reads_printed_structures() {
        assert_eq!(split("a {} b {}.", "a x b y z."), Some(vec!["x", "y z"]));
        assert_eq!(split("a {} b:{}", "a x b:"), Some(vec!["x", ""]));
        assert_eq!(split("a {} b {}", "c x b y"), None);
        assert_eq!(split("Key{}.", "Key:x."), Some(vec![":x"]));
        assert_eq!(
            split(
                "volume={}, bucket={}, key={}",
                "volume=v, bucket=b, key=k/1"
            ),
            Some(vec!["v", "b", "k/1"])
        );
    }

    #[test]
    fn slots_count_the_placeholders() {
        assert_eq!(placeholders("a {} b {}{}"), 3);
        assert_eq!(placeholders("{ip: {}}"), 1);
        assert!(has_adjacent_placeholders("for {}{}"));
        assert!(!has_adjacent_placeholders("for {} {}"));
    }

    #[test]
    fn loggers_in_full_or_abbreviated() {
        let class = WrittenBy::new("org.apache.hadoop.hdds.scm.node.SCMNodeManager");
        for logger in [
            "org.apache.hadoop.hdds.scm.node.SCMNodeManager",
            "node.SCMNodeManager",
            "SCMNodeManager",
            "scm.node.SCMNodeManager",
        ] {
            assert!(class.accepts(logger), "{logger}");
        }
        for logger in [
            "org.example.node.SCMNodeManager",
            "xnode.SCMNodeManager",
            "NodeManager",
        ] {
            assert!(!class.accepts(logger), "{logger}");
        }
        assert!(WrittenBy::new("RaftLog").accepts("any.pkg.RaftLog"));
    }

    #[test]
    fn class_and_numbers() {
        assert_eq!(
            logger_class("org.apache.ratis.server.RaftServer$Division"),
            "RaftServer$Division"
        );
        assert_eq!(logger_class("node.SCMNodeManager"), "SCMNodeManager");
        assert_eq!(logger_class("SCMAudit"), "SCMAudit");
        assert_eq!(u64_prefix("18341, rest"), Some(18341));
        assert_eq!(u64_prefix("x"), None);
        assert_eq!(
            number_after("a newEndIndex=18341)", "newEndIndex="),
            Some(18341)
        );
    }
}
