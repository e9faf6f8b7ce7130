//! Entities in the CLI contract's names (`container:1051`, `datanode:<uuid>`, ...) and extractors
//! for every form in which Ozone and Ratis print them.
//!
//! Extractors are pure and borrow from the text they search; each names the Ozone class whose
//! `toString` (or log template) prints the form. `*_at`-style functions (`datanode_details`,
//! `container_id`, `block_id`, ...) read a form at the start of a slice, for templates that fix the
//! position; `find_*` functions search free text and yield a [`Match`] with its byte span.

use aho_corasick::{AhoCorasick, MatchKind};
use memchr::memmem;
use serde::{Serialize, Serializer};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::LazyLock;

/// Something a finding or an event is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Entity {
    Container(u64),
    /// Lower-case UUID.
    Datanode(String),
    /// A datanode known only by the name an admin typed or a line printed.
    DatanodeHost(String),
    /// `/volume/bucket/key`, leading and repeated `/` collapsed.
    Key(String),
    Block {
        container: u64,
        local: u64,
    },
    /// Lower-case UUID.
    Pipeline(String),
    /// The 12 upper-case hex digits of a Ratis group id (`group-` stripped).
    Group(String),
    /// SCM id (a lower-case UUID), else the host.
    Scm(String),
    /// OM node id (`om1`), else the host.
    Om(String),
}

impl Entity {
    /// A datanode by UUID, in any case; `None` if `uuid` is not one.
    pub fn datanode(uuid: &str) -> Option<Entity> {
        is_uuid(uuid).then(|| Entity::Datanode(uuid.to_ascii_lowercase()))
    }

    /// A datanode by host name or address as typed (ASCII-lower-cased, since DNS names are
    /// case-insensitive); `None` if empty.
    pub fn datanode_host(name: &str) -> Option<Entity> {
        let name = name.trim();
        (!name.is_empty()).then(|| Entity::DatanodeHost(name.to_ascii_lowercase()))
    }

    /// A pipeline by UUID, in any case.
    pub fn pipeline(uuid: &str) -> Option<Entity> {
        is_uuid(uuid).then(|| Entity::Pipeline(uuid.to_ascii_lowercase()))
    }

    /// A Ratis group from `group-XXXXXXXXXXXX` or the 12 hex digits alone, in any case.
    pub fn group(id: &str) -> Option<Entity> {
        let hex = id.strip_prefix("group-").unwrap_or(id);
        is_group_hex(hex.as_bytes()).then(|| Entity::Group(hex.to_ascii_uppercase()))
    }

    /// An SCM by Ratis peer id (a UUID, lower-cased) or host.
    pub fn scm(id: &str) -> Option<Entity> {
        peer_entity(id, Entity::Scm)
    }

    /// An OM by node id (`om1`) or host.
    pub fn om(id: &str) -> Option<Entity> {
        peer_entity(id, Entity::Om)
    }

    /// The name it is known by, for the kinds named by text.
    pub fn name(&self) -> Option<&str> {
        match self {
            Entity::Container(_) | Entity::Block { .. } => None,
            Entity::Datanode(name)
            | Entity::DatanodeHost(name)
            | Entity::Key(name)
            | Entity::Pipeline(name)
            | Entity::Group(name)
            | Entity::Scm(name)
            | Entity::Om(name) => Some(name),
        }
    }

    /// The contract's name of the kind: the text before the first `:`.
    pub fn kind(&self) -> &'static str {
        match self {
            Entity::Container(_) => "container",
            Entity::Datanode(_) | Entity::DatanodeHost(_) => "datanode",
            Entity::Key(_) => "key",
            Entity::Block { .. } => "block",
            Entity::Pipeline(_) => "pipeline",
            Entity::Group(_) => "group",
            Entity::Scm(_) => "scm",
            Entity::Om(_) => "om",
        }
    }
}

fn peer_entity(id: &str, make: fn(String) -> Entity) -> Option<Entity> {
    if id.is_empty() || id.contains(char::is_whitespace) {
        None
    } else if is_uuid(id) {
        Some(make(id.to_ascii_lowercase()))
    } else {
        Some(make(id.to_owned()))
    }
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entity::Container(id) => write!(f, "container:{id}"),
            Entity::Datanode(uuid) => write!(f, "datanode:{uuid}"),
            Entity::DatanodeHost(host) => write!(f, "datanode:host={host}"),
            Entity::Key(path) => write!(f, "key:{path}"),
            Entity::Block { container, local } => write!(f, "block:{container}:{local}"),
            Entity::Pipeline(uuid) => write!(f, "pipeline:{uuid}"),
            Entity::Group(hex) => write!(f, "group:{hex}"),
            Entity::Scm(id) => write!(f, "scm:{id}"),
            Entity::Om(id) => write!(f, "om:{id}"),
        }
    }
}

impl Serialize for Entity {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Why a `KIND:ID` string is not an entity.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid entity `{input}`: {reason}")]
pub struct EntityParseError {
    pub input: String,
    pub reason: String,
}

impl FromStr for Entity {
    type Err = EntityParseError;

    /// Parses the contract's names back, as typed for `--entity KIND:ID`. Lenient where it costs
    /// nothing: UUIDs and group ids in any case, `#` before a container id, `group-` before a group.
    fn from_str(s: &str) -> Result<Entity, EntityParseError> {
        let fail = |reason: &str| EntityParseError {
            input: s.to_owned(),
            reason: reason.to_owned(),
        };
        let (kind, id) = s
            .split_once(':')
            .ok_or_else(|| fail("expected KIND:ID, e.g. container:1051"))?;
        match kind {
            "container" => id
                .strip_prefix('#')
                .unwrap_or(id)
                .parse()
                .map(Entity::Container)
                .map_err(|_| fail("a container id is a decimal number")),
            "datanode" => match id.strip_prefix("host=") {
                Some(host) => {
                    Entity::datanode_host(host).ok_or_else(|| fail("empty datanode host name"))
                }
                None => {
                    Entity::datanode(id).ok_or_else(|| fail("a datanode is a UUID or host=<name>"))
                }
            },
            "key" => {
                let path = collapse_slashes(id);
                if path.split('/').filter(|part| !part.is_empty()).count() < 3 {
                    Err(fail("a key is /<volume>/<bucket>/<key>"))
                } else {
                    Ok(Entity::Key(path))
                }
            }
            "block" => {
                let (container, local) = id
                    .split_once(':')
                    .ok_or_else(|| fail("a block is <containerID>:<localID>"))?;
                match (container.parse(), local.parse()) {
                    (Ok(container), Ok(local)) => Ok(Entity::Block { container, local }),
                    _ => Err(fail(
                        "container and local ids of a block are decimal numbers",
                    )),
                }
            }
            "pipeline" => Entity::pipeline(id).ok_or_else(|| fail("a pipeline id is a UUID")),
            "group" => Entity::group(id).ok_or_else(|| fail("a group id is 12 hex digits")),
            "scm" => Entity::scm(id).ok_or_else(|| fail("empty SCM id")),
            "om" => Entity::om(id).ok_or_else(|| fail("empty OM id")),
            _ => Err(fail(
                "unknown kind; expected container, datanode, key, block, pipeline, group, scm or om",
            )),
        }
    }
}

/// Where a form was found in the searched text, and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match<T> {
    pub span: Range<usize>,
    pub value: T,
}

// ---------------------------------------------------------------------------------------------
// UUIDs

const UUID_LEN: usize = 36;

/// `java.util.UUID.toString()` shape: 8-4-4-4-12 hex digits (either case).
pub fn is_uuid(s: &str) -> bool {
    s.len() == UUID_LEN && uuid_prefix(s.as_bytes())
}

fn uuid_prefix(b: &[u8]) -> bool {
    b.len() >= UUID_LEN
        && b[..UUID_LEN].iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A UUID at `start` that is not part of a longer word.
fn uuid_at(text: &str, start: usize) -> Option<&str> {
    let b = text.as_bytes();
    let end = start.checked_add(UUID_LEN)?;
    let bounded = start.checked_sub(1).is_none_or(|i| !is_word_byte(b[i]))
        && b.get(end).is_none_or(|&c| !is_word_byte(c));
    (bounded && uuid_prefix(b.get(start..)?)).then(|| &text[start..end])
}

/// Every UUID in `text` that stands alone (not inside a longer word): datanode ids
/// (`datanodeUUID`, `origin=`, thread prefixes), pipeline ids, SCM ids, Ratis peers. Which one it is
/// depends on the template.
pub fn find_uuids(text: &str) -> impl Iterator<Item = Match<&str>> {
    let mut next_from = 0;
    memchr::memchr_iter(b'-', text.as_bytes()).filter_map(move |dash| {
        // The first dash of a UUID is its 9th byte.
        let start = dash.checked_sub(8)?;
        if start < next_from {
            return None;
        }
        let uuid = uuid_at(text, start)?;
        next_from = start + UUID_LEN;
        Some(Match {
            span: start..start + UUID_LEN,
            value: uuid,
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Datanodes

/// A datanode as `DatanodeDetails` prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DatanodeRef<'a> {
    pub uuid: &'a str,
    pub host: &'a str,
    pub ip: &'a str,
}

impl DatanodeRef<'_> {
    pub fn entity(&self) -> Entity {
        Entity::Datanode(self.uuid.to_ascii_lowercase())
    }

    /// `datanode:host=<host>`, the name under which audit admin ops may know the same node.
    pub fn host_entity(&self) -> Option<Entity> {
        Entity::datanode_host(self.host)
    }
}

/// A datanode at the start of `s`, in either form, and the byte length it took:
/// - `DatanodeDetails.toString()` (hadoop-hdds/common, 1.4.0 on): `uuid(host/ip)`;
/// - `DatanodeDetails.toDebugString()` (SCMNodeManager `Registered datanode: {}`), which is what
///   `toString()` printed up to 1.3.0: `uuid{ip: <ip>, host: <host>, ports: [...], ...}`.
pub fn datanode_details(s: &str) -> Option<(DatanodeRef<'_>, usize)> {
    if !uuid_prefix(s.as_bytes()) {
        return None;
    }
    let uuid = &s[..UUID_LEN];
    let rest = &s[UUID_LEN..];
    if let Some(inner) = rest.strip_prefix('(') {
        // hostName cannot hold `/`, `(` or `)`; ipAddress ends at `)`.
        let slash = inner.find(['/', '(', ')'])?;
        if inner.as_bytes()[slash] != b'/' {
            return None;
        }
        let ip_len = inner[slash + 1..].find([')', '('])?;
        if inner.as_bytes()[slash + 1 + ip_len] != b')' {
            return None;
        }
        let dn = DatanodeRef {
            uuid,
            host: &inner[..slash],
            ip: &inner[slash + 1..slash + 1 + ip_len],
        };
        return Some((dn, UUID_LEN + 1 + slash + 1 + ip_len + 1));
    }
    let fields = rest.strip_prefix("{ip: ")?;
    let ip_end = fields.find(", host: ")?;
    let host_start = ip_end + ", host: ".len();
    let host_len = fields[host_start..].find([',', '}'])?;
    let dn = DatanodeRef {
        uuid,
        host: &fields[host_start..host_start + host_len],
        ip: &fields[..ip_end],
    };
    // The fields after the host (`ports: [...]`, `networkLocation: …`, …) hold no braces: the
    // form ends at the first `}` (a cut-off line ends after the host).
    let after_host = host_start + host_len;
    let end = fields[after_host..]
        .find('}')
        .map_or(after_host, |close| after_host + close + 1);
    Some((dn, UUID_LEN + "{ip: ".len() + end))
}

/// Every `uuid(host/ip)` and `uuid{ip: …, host: …}` in `text` (lists print as `[a, b]`, pipelines
/// as `Nodes: [ {a, ReplicaIndex: 0}, …]`).
pub fn find_datanode_details(text: &str) -> impl Iterator<Item = Match<DatanodeRef<'_>>> {
    memchr::memchr2_iter(b'(', b'{', text.as_bytes()).filter_map(move |open| {
        let start = open.checked_sub(UUID_LEN)?;
        uuid_at(&text[..open], start)?;
        let (dn, len) = datanode_details(&text[start..])?;
        Some(Match {
            span: start..start + len,
            value: dn,
        })
    })
}

/// The hosts of an SCM admin audit `nodes` param (`SCMClientProtocolServer`:
/// `String.valueOf(List<String>)`, e.g. `[dn3.example.com, 10.0.1.13:9858]`), as typed.
pub fn host_list(nodes: &str) -> impl Iterator<Item = &str> {
    let inner = nodes
        .trim()
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .unwrap_or("");
    inner.split(',').map(str::trim).filter(|h| !h.is_empty())
}

/// `UUID.hashCode()`, which is `DatanodeID.hashCode()` → `DatanodeDetails.hashCode()` →
/// `DatanodeAdminMonitorImpl.TrackedNode.hashCode()`: `(int)(hilo >> 32) ^ (int)hilo` with
/// `hilo = msb ^ lsb`.
pub fn uuid_hash_code(uuid: &str) -> Option<u32> {
    if !is_uuid(uuid) {
        return None;
    }
    let mut value: u128 = 0;
    for c in uuid.bytes().filter(|&c| c != b'-') {
        value = (value << 4) | u128::from(hex_value(c)?);
    }
    let hilo = ((value >> 64) as u64) ^ (value as u64);
    Some(((hilo >> 32) as u32) ^ (hilo as u32))
}

fn hex_value(c: u8) -> Option<u8> {
    char::from(c).to_digit(16).map(|d| d as u8)
}

/// The hash in `…DatanodeAdminMonitorImpl$TrackedNode@<hex>`: `TrackedNode` (2.0.0 and later) has no
/// `toString`, so `Object.toString` prints `Integer.toHexString(hashCode())`, unpadded.
/// (1.4 tracked `DatanodeDetails` directly and printed `uuid(host/ip)`.)
pub fn tracked_node_hash(text: &str) -> Option<u32> {
    const MARK: &str = "TrackedNode@";
    let at = memmem::find(text.as_bytes(), MARK.as_bytes())? + MARK.len();
    let hex_len = text.as_bytes()[at..]
        .iter()
        .take_while(|c| c.is_ascii_hexdigit())
        .count();
    if hex_len == 0 || hex_len > 8 {
        return None;
    }
    u32::from_str_radix(&text[at..at + hex_len], 16).ok()
}

/// Maps `TrackedNode@<hex>` back to a datanode. The hex is the UUID's `hashCode`, so any datanode
/// UUID seen anywhere in the logs is a candidate; two known UUIDs with the same 32-bit hash make
/// that hash unresolvable rather than guessed.
#[derive(Debug, Default, Clone)]
pub struct TrackedNodeMap {
    by_hash: HashMap<u32, Candidate>,
}

#[derive(Debug, Clone)]
enum Candidate {
    One(String),
    Ambiguous,
}

impl TrackedNodeMap {
    pub fn new() -> TrackedNodeMap {
        TrackedNodeMap::default()
    }

    /// Learns every datanode printed as `uuid(host/ip)` or `uuid{ip: …}` in `text`.
    pub fn observe(&mut self, text: &str) {
        for found in find_datanode_details(text) {
            self.observe_uuid(found.value.uuid);
        }
    }

    /// Learns one datanode UUID (e.g. SCM audit `datanodeUUID`); ignores anything else.
    pub fn observe_uuid(&mut self, uuid: &str) {
        let Some(hash) = uuid_hash_code(uuid) else {
            return;
        };
        match self.by_hash.entry(hash) {
            Entry::Vacant(slot) => {
                slot.insert(Candidate::One(uuid.to_ascii_lowercase()));
            }
            Entry::Occupied(mut slot) => {
                if matches!(slot.get(), Candidate::One(known) if !known.eq_ignore_ascii_case(uuid))
                {
                    slot.insert(Candidate::Ambiguous);
                }
            }
        }
    }

    /// The datanode whose hash is `hash`, if exactly one known UUID has it.
    pub fn resolve(&self, hash: u32) -> Option<Entity> {
        match self.by_hash.get(&hash)? {
            Candidate::One(uuid) => Some(Entity::Datanode(uuid.clone())),
            Candidate::Ambiguous => None,
        }
    }

    /// The datanode named by the `TrackedNode@<hex>` in `text`, if resolvable.
    pub fn resolve_in(&self, text: &str) -> Option<Entity> {
        self.resolve(tracked_node_hash(text)?)
    }
}

// ---------------------------------------------------------------------------------------------
// Containers

/// A container id at the start of `s`: `ContainerID.toString()` (`#1051`) or a bare long
/// (`Long.toString`, command and proto fields), for templates that fix the position.
pub fn container_id(s: &str) -> Option<u64> {
    let digits = s.strip_prefix('#').unwrap_or(s);
    leading_u64(digits).map(|(id, _)| id)
}

/// The `ID=` that starts every `ContainerLogger` message (dn-container log):
/// `ID=1042 | Index=0 | BCSID=88213 | State=CLOSING | ...`.
pub fn dn_container_log_id(msg: &str) -> Option<u64> {
    let (id, len) = leading_u64(msg.strip_prefix("ID=")?)?;
    let rest = &msg["ID=".len() + len..];
    (rest.is_empty() || rest.starts_with(" |")).then_some(id)
}

/// Labels after which a container id follows. `#` is `ContainerID.toString()` (`Container #1051 (…)`,
/// `ContainerInfo{id=#1051`, `ContainerReplica{#1051`, `Container: #1051 was deleted`);
/// `containerID: ` and `conID: ` come from command `toString`s, protobuf text and `BlockID`;
/// `containerID=`/`containerId=` from ContainerStateMachine TRACE and `ReplicateContainerCommand`;
/// `ContainerID: ` from HddsDispatcher `Marked Container UNHEALTHY, ContainerID: {}`;
/// `conID ` from `OmKeyLocationInfoGroup`; `Container `/`container ` + digits from datanode
/// messages that print the raw long (`Marking Container {} quasi closed`).
pub const CONTAINER_LABELS: &[&str] = &[
    "#",
    "Container ",
    "container ",
    "containerID: ",
    "containerID=",
    "containerId=",
    "containerID ",
    "ContainerID: ",
    "ContainerID=",
    "ContainerID ",
    "conID: ",
    "conID ",
];

/// Labels that are ordinary words need a word boundary before them (`ECContainer 5` is not one).
fn needs_boundary(label: &str) -> bool {
    matches!(label, "#" | "Container " | "container ")
}

static CONTAINER_FINDER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(CONTAINER_LABELS)
        .expect("static container labels compile")
});

/// Every container id in `text`, in any of the [`CONTAINER_LABELS`] forms; the span covers the
/// label and the number.
pub fn find_containers(text: &str) -> impl Iterator<Item = Match<u64>> {
    let bytes = text.as_bytes();
    CONTAINER_FINDER.find_iter(text).filter_map(move |m| {
        let label = CONTAINER_LABELS[m.pattern().as_usize()];
        if needs_boundary(label)
            && m.start()
                .checked_sub(1)
                .is_some_and(|i| is_word_byte(bytes[i]))
        {
            return None;
        }
        let (id, len) = leading_u64(&text[m.end()..])?;
        Some(Match {
            span: m.start()..m.end() + len,
            value: id,
        })
    })
}

/// A decimal u64 at the start of `s` that is not followed by more word characters.
fn leading_u64(s: &str) -> Option<(u64, usize)> {
    let len = s.bytes().take_while(u8::is_ascii_digit).count();
    if len == 0 || s.as_bytes().get(len).is_some_and(|&c| is_word_byte(c)) {
        return None;
    }
    s[..len].parse().ok().map(|n| (n, len))
}

// ---------------------------------------------------------------------------------------------
// Replicas

/// `AbstractContainerReportHandler.getDetailsForLogging`:
/// `Container #<cid> (<STATE>, sid=<S>) r<idx> (<STATE>, bcsid=<B>, origin=<uuid>, empty|non-empty) from dn <uuid>(<host>/<ip>)`,
/// or `Container #<cid> (NOT_FOUND) r<idx> (…) from dn …` for a container SCM does not know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReplicaDetails {
    pub container: u64,
    /// SCM's LifeCycleState; `None` for NOT_FOUND.
    pub container_state: Option<String>,
    /// SCM's in-memory sequence id when the line rendered (may already be raised to the
    /// replica's BCSID by `updateContainerStats`, scm.md 2.3 caveat).
    pub sid: Option<i64>,
    pub replica_index: u32,
    pub replica_state: String,
    pub bcsid: u64,
    pub origin: String,
    pub empty: bool,
    /// The reporting datanode's UUID (lower case).
    pub datanode: String,
    pub datanode_host: String,
}

/// Reads `<D>` at the start of `s`; the rest after the datanode is ignored.
pub fn replica_details(s: &str) -> Option<ReplicaDetails> {
    let rest = s.strip_prefix("Container #")?;
    let (container, rest) = leading_number(rest)?;
    let rest = rest.strip_prefix(" (")?;
    let (container_state, sid, rest) = if let Some(rest) = rest.strip_prefix("NOT_FOUND) r") {
        (None, None, rest)
    } else {
        let (state, rest) = rest.split_once(", sid=")?;
        let (sid, rest) = leading_signed(rest)?;
        (Some(state), Some(sid), rest.strip_prefix(") r")?)
    };
    let (replica_index, rest) = leading_number(rest)?;
    let rest = rest.strip_prefix(" (")?;
    let (replica_state, rest) = rest.split_once(", bcsid=")?;
    let (bcsid, rest) = leading_number(rest)?;
    let rest = rest.strip_prefix(", origin=")?;
    let (origin, rest) = rest.split_once(", ")?;
    let (empty, rest) = if let Some(rest) = rest.strip_prefix("empty) from dn ") {
        (true, rest)
    } else {
        (false, rest.strip_prefix("non-empty) from dn ")?)
    };
    let (dn, _) = datanode_details(rest)?;
    if !is_state(replica_state) || container_state.is_some_and(|s| !is_state(s)) {
        return None;
    }
    Some(ReplicaDetails {
        container,
        container_state: container_state.map(str::to_string),
        sid,
        replica_index: u32::try_from(replica_index).ok()?,
        replica_state: replica_state.to_string(),
        bcsid,
        origin: origin.to_string(),
        empty,
        datanode: dn.uuid.to_ascii_lowercase(),
        datanode_host: dn.host.to_string(),
    })
}

/// A LifeCycleState or replica State name.
fn is_state(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
}

fn leading_number(s: &str) -> Option<(u64, &str)> {
    let len = s.bytes().take_while(u8::is_ascii_digit).count();
    let n = s.get(..len)?.parse().ok()?;
    Some((n, &s[len..]))
}

fn leading_signed(s: &str) -> Option<(i64, &str)> {
    let sign = usize::from(s.starts_with('-'));
    let len = sign + s[sign..].bytes().take_while(u8::is_ascii_digit).count();
    let n = s.get(..len)?.parse().ok()?;
    Some((n, &s[len..]))
}

// ---------------------------------------------------------------------------------------------
// Blocks

/// A block id with whatever the printed form carried besides container and local id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockRef {
    pub container: u64,
    pub local: u64,
    /// `bcsId`, `bcsID` or `blockCommitSequenceId`, when printed.
    pub bcs_id: Option<u64>,
    /// `replicaIndex`, when printed and not `null` (Ratis blocks print `null`).
    pub replica_index: Option<u32>,
}

impl BlockRef {
    pub fn entity(&self) -> Entity {
        Entity::Block {
            container: self.container,
            local: self.local,
        }
    }
}

/// The field names of one printed block form, in order.
struct BlockForm {
    container: &'static str,
    local: &'static str,
    bcs_id: &'static str,
    /// Separator between fields; `None` means any run of spaces and newlines (protobuf text).
    separator: Option<&'static str>,
}

/// `BlockID.appendTo` (via `ContainerBlockID.appendTo`): `conID: C locID: L bcsId: B replicaIndex: R`,
/// also inside `BlockData.toString` (`[blockId=conID: …, size=N]`) and DN audit `blockData`.
const BLOCK_ID: BlockForm = BlockForm {
    container: "conID: ",
    local: "locID: ",
    bcs_id: "bcsId: ",
    separator: Some(" "),
};
/// `OmKeyLocationInfoGroup.toString` (inside OM DEBUG `OmKeyInfo{…}`): `conID C locID L bcsID B || `.
const OM_LOCATION: BlockForm = BlockForm {
    container: "conID ",
    local: "locID ",
    bcs_id: "bcsID ",
    separator: Some(" "),
};
/// Protobuf `DatanodeBlockID`/`ContainerBlockID` text: multi-line `containerID: C\nlocalID: L\n
/// blockCommitSequenceId: B\n` (`toString`) or `blockID { containerID: C localID: L … }`
/// (`shortDebugString`).
const PROTO_BLOCK: BlockForm = BlockForm {
    container: "containerID: ",
    local: "localID: ",
    bcs_id: "blockCommitSequenceId: ",
    separator: None,
};

const BLOCK_FORMS: [&BlockForm; 3] = [&BLOCK_ID, &OM_LOCATION, &PROTO_BLOCK];

static BLOCK_FINDER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(BLOCK_FORMS.iter().map(|form| form.container))
        .expect("static block labels compile")
});

/// A block id at the start of `s` in any printed form, and the byte length it took.
pub fn block_id(s: &str) -> Option<(BlockRef, usize)> {
    BLOCK_FORMS.iter().find_map(|form| block_in_form(s, form))
}

/// Every block id in `text`, in any printed form. A `containerID: C` not followed by a `localID`
/// is a container, not a block, and is skipped.
pub fn find_blocks(text: &str) -> impl Iterator<Item = Match<BlockRef>> {
    BLOCK_FINDER.find_iter(text).filter_map(move |m| {
        let form = BLOCK_FORMS[m.pattern().as_usize()];
        let (block, len) = block_in_form(&text[m.start()..], form)?;
        Some(Match {
            span: m.start()..m.start() + len,
            value: block,
        })
    })
}

fn block_in_form(s: &str, form: &BlockForm) -> Option<(BlockRef, usize)> {
    let mut pos = form.container.len();
    let container = field_u64(s, form.container, 0)?;
    pos += container.1;
    pos = after_separator(s, pos, form.separator)?;
    let local = field_u64(s, form.local, pos)?;
    pos += form.local.len() + local.1;
    let mut block = BlockRef {
        container: container.0,
        local: local.0,
        bcs_id: None,
        replica_index: None,
    };
    let Some(next) = after_separator(s, pos, form.separator) else {
        return Some((block, pos));
    };
    let Some(bcs_id) = field_u64(s, form.bcs_id, next) else {
        return Some((block, pos));
    };
    block.bcs_id = Some(bcs_id.0);
    pos = next + form.bcs_id.len() + bcs_id.1;
    // `replicaIndex: <int|null>` (BlockID) or `replicaIndex: N` (proto, when set).
    if let Some(next) = after_separator(s, pos, form.separator) {
        const REPLICA: &str = "replicaIndex: ";
        if s[next..].starts_with(REPLICA) {
            let value_at = next + REPLICA.len();
            if let Some((index, len)) = leading_u64(&s[value_at..]) {
                block.replica_index = u32::try_from(index).ok();
                pos = value_at + len;
            } else if s[value_at..].starts_with("null") {
                pos = value_at + "null".len();
            }
        }
    }
    Some((block, pos))
}

/// `label` then a decimal at `at`: the value and the digits' length.
fn field_u64(s: &str, label: &str, at: usize) -> Option<(u64, usize)> {
    let rest = s.get(at..)?.strip_prefix(label)?;
    leading_u64(rest)
}

/// The position after the separator at `at`: the literal, or one or more spaces/newlines.
fn after_separator(s: &str, at: usize, separator: Option<&str>) -> Option<usize> {
    let rest = s.get(at..)?;
    match separator {
        Some(sep) => rest.starts_with(sep).then(|| at + sep.len()),
        None => {
            let n = rest
                .bytes()
                .take_while(|c| matches!(c, b' ' | b'\n' | b'\r'))
                .count();
            (n > 0).then_some(at + n)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pipelines and Ratis groups

/// Labels after which a pipeline UUID follows:
/// `Pipeline-` is `PipelineID.toString()` from 2.1.0 (HDDS-13044), `PipelineID=` before it;
/// `pipelineID=` is `ContainerInfo.toString()` (then `Pipeline-…`/`PipelineID=…`) and
/// ContainerStateMachine TRACE; `pipelineID: ` is `CloseContainerCommand.toString()` and protobuf
/// text (`pipelineID: "<uuid>"`); `Pipeline{ Id: ` / `Pipeline[ Id: ` is `Pipeline.toString()`
/// (2.0.0 and later / 1.4); `ContainerOp-` is the ContainerStateMachine executor thread name.
pub const PIPELINE_LABELS: &[&str] = &[
    "Pipeline-",
    "PipelineID=",
    "pipelineID=",
    "pipelineID: ",
    "Pipeline{ Id: ",
    "Pipeline[ Id: ",
    "ContainerOp-",
];

static PIPELINE_FINDER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(PIPELINE_LABELS)
        .expect("static pipeline labels compile")
});

/// A pipeline UUID at the start of `s`: `Pipeline-<uuid>`, `PipelineID=<uuid>`, or a bare UUID
/// (protobuf fields, `ContainerOp-<uuid>` thread names), and the byte length it took.
pub fn pipeline_id(s: &str) -> Option<(&str, usize)> {
    let skip = ["Pipeline-", "PipelineID="]
        .iter()
        .find(|p| s.starts_with(*p))
        .map_or(0, |p| p.len());
    let uuid = uuid_at(s, skip)?;
    Some((uuid, skip + UUID_LEN))
}

/// Every pipeline UUID in `text` (see [`PIPELINE_LABELS`]).
pub fn find_pipelines(text: &str) -> impl Iterator<Item = Match<&str>> {
    // `pipelineID=Pipeline-<uuid>` holds two labels: report the uuid once.
    let mut covered_until = 0;
    PIPELINE_FINDER.find_iter(text).filter_map(move |m| {
        if m.start() < covered_until {
            return None;
        }
        let mut at = m.end();
        // `pipelineID: "<uuid>"` in protobuf text.
        if text.as_bytes().get(at) == Some(&b'"') {
            at += 1;
        }
        let (uuid, len) = pipeline_id(&text[at..])?;
        covered_until = at + len;
        Some(Match {
            span: m.start()..at + len,
            value: uuid,
        })
    })
}

/// The Ratis group id of a pipeline: `RaftGroupId.valueOf(pipelineUuid)` prints
/// `group-` + the UUID's last 12 hex digits upper-cased (`RaftId.createUuidString`). Returns the 12
/// digits, as [`Entity::Group`] holds them.
pub fn group_of_pipeline(uuid: &str) -> Option<String> {
    is_uuid(uuid).then(|| uuid[UUID_LEN - 12..].to_ascii_uppercase())
}

fn is_group_hex(b: &[u8]) -> bool {
    b.len() == 12 && b.iter().all(u8::is_ascii_hexdigit)
}

const GROUP_PREFIX: &str = "group-";

/// The 12 hex digits of `group-XXXXXXXXXXXX` at `at`, not followed by more word characters.
fn group_at(text: &str, at: usize) -> Option<&str> {
    let start = at + GROUP_PREFIX.len();
    let hex = text.as_bytes().get(start..start + 12)?;
    let bounded = text
        .as_bytes()
        .get(start + 12)
        .is_none_or(|&c| !is_word_byte(c));
    (text[at..].starts_with(GROUP_PREFIX) && is_group_hex(hex) && bounded)
        .then(|| &text[start..start + 12])
}

/// Every Ratis group id `group-XXXXXXXXXXXX` in `text` (member ids, thread names,
/// `Leader change notification received for group: {}`), as its 12 hex digits.
pub fn find_groups(text: &str) -> impl Iterator<Item = Match<&str>> {
    memmem::find_iter(text.as_bytes(), GROUP_PREFIX.as_bytes()).filter_map(move |at| {
        if at
            .checked_sub(1)
            .is_some_and(|i| is_word_byte(text.as_bytes()[i]))
        {
            return None;
        }
        let hex = group_at(text, at)?;
        Some(Match {
            span: at..at + GROUP_PREFIX.len() + 12,
            value: hex,
        })
    })
}

/// A Ratis `RaftGroupMemberId`: `peerId + "@" + groupId`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemberId<'a> {
    /// Datanode or SCM UUID, or OM node id.
    pub peer: &'a str,
    /// The group's 12 hex digits.
    pub group: &'a str,
}

fn is_peer_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')
}

/// A member id at the start of `s` (`3f2b…@group-D2C8A1B9F0E4`, `om1@group-D66704EFC61C`) and
/// the byte length it took.
pub fn member_id(s: &str) -> Option<(MemberId<'_>, usize)> {
    let peer_len = s.bytes().take_while(|&b| is_peer_byte(b)).count();
    if peer_len == 0 || s.as_bytes().get(peer_len) != Some(&b'@') {
        return None;
    }
    let group = group_at(s, peer_len + 1)?;
    let member = MemberId {
        peer: &s[..peer_len],
        group,
    };
    Some((member, peer_len + 1 + GROUP_PREFIX.len() + 12))
}

/// Every member id in `text`, including inside thread names such as
/// `<memberId>-SegmentedRaftLogWorker`.
pub fn find_member_ids(text: &str) -> impl Iterator<Item = Match<MemberId<'_>>> {
    let bytes = text.as_bytes();
    memmem::find_iter(bytes, b"@group-").filter_map(move |at| {
        let peer_len = bytes[..at]
            .iter()
            .rev()
            .take_while(|&&b| is_peer_byte(b))
            .count();
        let start = at - peer_len;
        let (member, len) = member_id(&text[start..])?;
        Some(Match {
            span: start..start + len,
            value: member,
        })
    })
}

/// A Ratis `TermIndex` (`TermIndex.toString`): `(t:<term>, i:<index>)`; Ratis prints a negative
/// number as `~`, read as `None`. The named constants (`<INITIAL_VALUE>`, `<PROTO_DEFAULT>`) are
/// not pairs and are not matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TermIndex {
    pub term: Option<u64>,
    pub index: Option<u64>,
}

/// A term-index pair at the start of `s` and the byte length it took.
pub fn term_index(s: &str) -> Option<(TermIndex, usize)> {
    let mut pos = "(t:".len();
    if !s.starts_with("(t:") {
        return None;
    }
    let (term, len) = tilde_or_u64(&s[pos..])?;
    pos += len;
    pos += s[pos..].starts_with(", i:").then_some(", i:".len())?;
    let (index, len) = tilde_or_u64(&s[pos..])?;
    pos += len;
    s[pos..]
        .starts_with(')')
        .then_some((TermIndex { term, index }, pos + 1))
}

fn tilde_or_u64(s: &str) -> Option<(Option<u64>, usize)> {
    if s.starts_with('~') {
        return Some((None, 1));
    }
    let len = s.bytes().take_while(u8::is_ascii_digit).count();
    let value = s.get(..len)?.parse().ok()?;
    Some((Some(value), len))
}

/// Every `(t:T, i:I)` in `text` (Ratis snapshot, apply and log-entry lines).
pub fn find_term_indexes(text: &str) -> impl Iterator<Item = Match<TermIndex>> {
    memmem::find_iter(text.as_bytes(), b"(t:").filter_map(move |at| {
        let (value, len) = term_index(&text[at..])?;
        Some(Match {
            span: at..at + len,
            value,
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Keys and OM client ids

/// `key:/<volume>/<bucket>/<key>` with leading and repeated `/` collapsed (OM audit params print
/// the key without a leading `/`; ofs paths and DB keys with one). A trailing `/` (a directory key
/// in an object-store bucket) is kept.
pub fn key_entity(volume: &str, bucket: &str, key: &str) -> Entity {
    let mut path = String::with_capacity(volume.len() + bucket.len() + key.len() + 3);
    push_key_path(&mut path, volume, bucket, key);
    Entity::Key(path)
}

/// Appends the path of [`key_entity`] to `out`: empty, or a prefix that does not end with `/`
/// (`key:`, to print the entity without building it).
pub fn push_key_path(out: &mut String, volume: &str, bucket: &str, key: &str) {
    for part in [volume, bucket, key] {
        if !out.ends_with('/') {
            out.push('/');
        }
        push_collapsing_slashes(out, part);
    }
}

fn collapse_slashes(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 1);
    out.push('/');
    push_collapsing_slashes(&mut out, path);
    out
}

/// Appends `text` to `out`, leaving out each `/` that would follow another (a run at a time:
/// every OM audit key record names a key).
fn push_collapsing_slashes(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(at) = memchr::memchr(b'/', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        if !out.ends_with('/') {
            out.push('/');
        }
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

/// Volume, bucket and key named in an OM main-log message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OmLogKey<'a> {
    pub volume: &'a str,
    pub bucket: &'a str,
    /// The key, or for `OpenKey:` the DB open key (see [`open_key_path`]).
    pub key: &'a str,
}

impl OmLogKey<'_> {
    /// The key entity; for an `OpenKey:` DB path, the key inside it when it is an object-store path.
    pub fn entity(&self) -> Option<Entity> {
        if self.key.starts_with('/') {
            match open_key_path(self.key)? {
                OpenKeyPath::Obs {
                    volume,
                    bucket,
                    key,
                    ..
                } => Some(key_entity(volume, bucket, key)),
                OpenKeyPath::Fso { .. } => None,
            }
        } else {
            Some(key_entity(self.volume, self.bucket, self.key))
        }
    }
}

/// `Volume:{}, Bucket:{}, Key:{}` in OM request messages (`OMKeyCommitRequest` `Key committed
/// failed. … Key:{}. Exception:{}`, `OMKeyCreateRequest` `Key created. …`/`Key creation failed. …
/// Key:{}. `, `OMFileCreateRequest` `File create failed. Volume:{}, Bucket:{}, Key{}.` (no colon),
/// `OMRecoverLeaseRequest` `Fail for recovering lease. …`, `OMAllocateBlockRequest` `Allocate Block
/// failed. Volume:{}, Bucket:{}, OpenKey:{}. Exception:{}`). The key runs to `. Exception:` or the
/// end of the first line; the `failed.` templates' closing `.` is removed.
pub fn om_log_key(msg: &str) -> Option<OmLogKey<'_>> {
    let msg = msg.split('\n').next().unwrap_or(msg);
    let volume_at = msg.find("Volume:")? + "Volume:".len();
    let bucket_sep = find_from(msg, volume_at, ", Bucket:")?;
    let bucket_at = bucket_sep + ", Bucket:".len();
    let (key_sep, key_label) = [", Key:", ", OpenKey:", ", Key"]
        .iter()
        .find_map(|label| find_from(msg, bucket_at, label).map(|at| (at, *label)))?;
    let key_at = key_sep + key_label.len();
    let mut key = &msg[key_at..];
    if let Some(exception) = key.find(". Exception:") {
        key = &key[..exception];
    } else if msg.contains(" failed.") {
        key = key.trim_end();
        key = key.strip_suffix('.').unwrap_or(key);
    }
    Some(OmLogKey {
        volume: &msg[volume_at..bucket_sep],
        bucket: &msg[bucket_at..key_sep],
        key,
    })
}

fn find_from(text: &str, from: usize, needle: &str) -> Option<usize> {
    text.get(from..)?.find(needle).map(|i| from + i)
}

/// An OM open-key DB key (`OmMetadataManagerImpl`), as printed in commit and allocate failures
/// (`Failed to commit key, as <dbOpenKey> entry is not found in the OpenKey table`,
/// `Open Key not found <dbOpenKey>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenKeyPath<'a> {
    /// Object-store layout: `/<volume>/<bucket>/<key>/<clientID>`.
    Obs {
        volume: &'a str,
        bucket: &'a str,
        key: &'a str,
        client_id: u64,
    },
    /// File-system-optimized layout: `/<volumeId>/<bucketId>/<parentId>/<fileName>/<clientID>`,
    /// object ids being negative longs (see [`object_id_transaction`]).
    Fso {
        volume_id: i64,
        bucket_id: i64,
        parent_id: i64,
        file_name: &'a str,
        client_id: u64,
    },
}

/// Parses an open-key DB key; `None` unless it ends in `/<clientID>`.
pub fn open_key_path(path: &str) -> Option<OpenKeyPath<'_>> {
    let rest = path.strip_prefix('/')?;
    let (head, client) = rest.rsplit_once('/')?;
    let client_id = client.parse().ok()?;
    let (volume, rest) = head.split_once('/')?;
    let (bucket, key) = rest.split_once('/')?;
    // Volume names cannot start with `-`; FSO object ids are negative (epoch bits 10).
    if volume.starts_with('-') {
        let (parent, file_name) = key.split_once('/')?;
        return Some(OpenKeyPath::Fso {
            volume_id: volume.parse().ok()?,
            bucket_id: bucket.parse().ok()?,
            parent_id: parent.parse().ok()?,
            file_name,
            client_id,
        });
    }
    (!volume.is_empty() && !bucket.is_empty() && !key.is_empty()).then_some(OpenKeyPath::Obs {
        volume,
        bucket,
        key,
        client_id,
    })
}

/// The Ratis log index (`Transaction` in OM audit) of the request that created an FSO object:
/// `OmUtils.getObjectIdFromTxId` sets `objectId = (2 << 62) | (txId << 8)`.
pub fn object_id_transaction(object_id: i64) -> u64 {
    ((object_id as u64) & !(3u64 << 62)) >> 8
}

/// Decodes an OM `clientID` (the open-key session id from `UniqueId.next()`:
/// `currentTimeMillis << 16 | counter`) into the leader's epoch millis when the key was opened
/// and the per-millisecond counter.
pub fn decode_client_id(id: u64) -> (i64, u16) {
    ((id >> 16) as i64, (id & 0xFFFF) as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DN5: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13";
    const DN3: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27";
    const PIPE: &str = "8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d";

    fn values<T>(found: impl Iterator<Item = Match<T>>) -> Vec<T> {
        found.map(|m| m.value).collect()
    }

    #[test]
    fn display_and_from_str_round_trip() {
        let entities = [
            Entity::Container(1051),
            Entity::Datanode(DN5.into()),
            Entity::DatanodeHost("dn3.example.com".into()),
            key_entity("hbase", "wal", "WALs/rs1/rs1.1762164000000"),
            Entity::Block {
                container: 4021,
                local: 115816896921600001,
            },
            Entity::Pipeline(PIPE.into()),
            Entity::Group("D2C8A1B9F0E4".into()),
            Entity::Scm("1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5".into()),
            Entity::Om("om1".into()),
        ];
        let printed: Vec<String> = entities.iter().map(ToString::to_string).collect();
        assert_eq!(
            printed,
            [
                "container:1051",
                "datanode:b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13",
                "datanode:host=dn3.example.com",
                "key:/hbase/wal/WALs/rs1/rs1.1762164000000",
                "block:4021:115816896921600001",
                "pipeline:8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d",
                "group:D2C8A1B9F0E4",
                "scm:1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5",
                "om:om1",
            ]
        );
        for (entity, text) in entities.iter().zip(&printed) {
            assert_eq!(&text.parse::<Entity>().unwrap(), entity, "{text}");
            assert_eq!(
                serde_json::to_string(entity).unwrap(),
                format!("\"{text}\"")
            );
        }
    }

    #[test]
    fn from_str_normalizes_and_explains() {
        let parse = |s: &str| s.parse::<Entity>();
        assert_eq!(
            parse("datanode:B2C7E9D4-1F6A-4C3B-8E52-7A9D0C4F6E13").unwrap(),
            Entity::Datanode(DN5.into())
        );
        assert_eq!(parse("container:#1051").unwrap(), Entity::Container(1051));
        assert_eq!(
            parse("group:group-d2c8a1b9f0e4").unwrap(),
            Entity::Group("D2C8A1B9F0E4".into())
        );
        assert_eq!(
            parse("key://hbase//wal/a//b").unwrap(),
            Entity::Key("/hbase/wal/a/b".into())
        );
        for (bad, reason) in [
            ("1051", "expected KIND:ID"),
            ("container:x", "decimal"),
            ("datanode:dn1", "UUID or host="),
            ("key:/v/b", "/<volume>/<bucket>/<key>"),
            ("block:1", "<containerID>:<localID>"),
            ("pipeline:Pipeline-1", "UUID"),
            ("group:ABC", "12 hex"),
            ("om:", "empty"),
            ("volume:v", "unknown kind"),
        ] {
            let err = parse(bad).unwrap_err();
            assert!(err.reason.contains(reason), "{bad}: {err}");
            assert!(err.to_string().contains(bad));
        }
    }

    #[test]
    fn key_entity_collapses_leading_and_repeated_slashes() {
        assert_eq!(
            key_entity("vol1", "b1", "/tmp//part-0000"),
            Entity::Key("/vol1/b1/tmp/part-0000".into())
        );
        assert_eq!(
            key_entity("vol1", "b1", "dir/"),
            Entity::Key("/vol1/b1/dir/".into())
        );
        // Runs that span the parts, an empty part, text that is not ASCII.
        assert_eq!(key_entity("", "/b//", "//k"), Entity::Key("/b/k".into()));
        assert_eq!(
            key_entity("v/", "/b", "é//ü/"),
            Entity::Key("/v/b/é/ü/".into())
        );
        assert_eq!(key_entity("", "", ""), Entity::Key("/".into()));
    }

    #[test]
    fn datanode_details_both_forms() {
        let line = format!("{DN5}(dn5.example.com/10.0.1.15) moved");
        let (dn, len) = datanode_details(&line).unwrap();
        assert_eq!(
            (dn.uuid, dn.host, dn.ip),
            (DN5, "dn5.example.com", "10.0.1.15")
        );
        assert_eq!(len, 36 + "(dn5.example.com/10.0.1.15)".len());
        assert_eq!(dn.entity(), Entity::Datanode(DN5.into()));
        assert_eq!(
            dn.host_entity(),
            Some(Entity::DatanodeHost("dn5.example.com".into()))
        );

        let debug = format!(
            "{DN3}{{ip: 10.0.1.13, host: dn3.example.com, ports: [HTTP=9882, RATIS=9858], \
             networkLocation: /default-rack, certSerialId: null, persistedOpState: IN_SERVICE, \
             persistedOpStateExpiryEpochSec: 0}}"
        );
        let (dn, _) = datanode_details(&debug).unwrap();
        assert_eq!(
            (dn.uuid, dn.host, dn.ip),
            (DN3, "dn3.example.com", "10.0.1.13")
        );

        assert!(datanode_details(&format!("{DN5}(dn5/10.0.1.15")).is_none());
        assert!(datanode_details(&format!("{DN5}(dn5)")).is_none());
        assert!(datanode_details("b2c7e9d4(dn5/1)").is_none());
    }

    #[test]
    fn finds_datanodes_in_scm_lines() {
        // StartDatanodeAdminHandler, NodeDecommissionManager list, ReplicationManager, Pipeline.
        let text = format!(
            "Admin start on datanode {DN3}(dn3.example.com/10.0.1.13). Finalizing its pipelines \
             [Pipeline-{PIPE}] ; dns: [{DN3}(dn3.example.com/10.0.1.13), {DN5}(null/null)] \
             targetNode={DN5}(dn5.example.com/10.0.1.15), origin={DN5}, Nodes: [ {{{DN3}(h/1), ReplicaIndex: 0}},]"
        );
        let found: Vec<(&str, &str)> = find_datanode_details(&text)
            .map(|m| (m.value.uuid, m.value.host))
            .collect();
        assert_eq!(
            found,
            [
                (DN3, "dn3.example.com"),
                (DN3, "dn3.example.com"),
                (DN5, "null"),
                (DN5, "dn5.example.com"),
                (DN3, "h"),
            ]
        );
        let first = find_datanode_details(&text).next().unwrap();
        assert_eq!(
            &text[first.span],
            format!("{DN3}(dn3.example.com/10.0.1.13)")
        );
    }

    #[test]
    fn finds_bare_uuids_only_as_whole_words() {
        let text = format!(
            "{DN5}-ContainerOp-{PIPE}-0 origin={DN5}, x{DN3} {DN3}0 {DN3}@group-112233445566"
        );
        assert_eq!(values(find_uuids(&text)), [DN5, PIPE, DN5, DN3]);
    }

    #[test]
    fn host_list_reads_admin_node_lists() {
        assert_eq!(
            host_list("[dn3.example.com, 10.0.1.13:9858]").collect::<Vec<_>>(),
            ["dn3.example.com", "10.0.1.13:9858"]
        );
        assert_eq!(host_list("[]").count(), 0);
        assert_eq!(host_list("dn3").count(), 0);
    }

    #[test]
    fn tracked_node_hash_matches_java_uuid_hash_code() {
        // Values from scm.md §3, computed with Java's UUID.hashCode.
        assert_eq!(uuid_hash_code(DN3), Some(0xd71c744d));
        assert_eq!(uuid_hash_code(DN5), Some(0x2fb0b161));
        assert_eq!(uuid_hash_code("not-a-uuid"), None);
        assert_eq!(
            tracked_node_hash(
                "Recommissioned node org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl$TrackedNode@d71c744d"
            ),
            Some(0xd71c744d)
        );
        assert_eq!(tracked_node_hash("TrackedNode@ has"), None);
        assert_eq!(tracked_node_hash("TrackedNode@123456789 has"), None);
        // Integer.toHexString does not pad.
        assert_eq!(tracked_node_hash("TrackedNode@f3 has"), Some(0xf3));
    }

    #[test]
    fn tracked_node_map_resolves_from_observed_datanodes() {
        let mut map = TrackedNodeMap::new();
        let line = "…$TrackedNode@d71c744d has 412 sufficientlyReplicated, 3 deleting, 0 underReplicated and 0 unclosed containers";
        assert_eq!(map.resolve_in(line), None);
        map.observe(&format!(
            "Starting Decommission for node {}(dn3.example.com/10.0.1.13)",
            DN3.to_uppercase()
        ));
        map.observe_uuid(DN5);
        map.observe_uuid("junk");
        assert_eq!(map.resolve_in(line), Some(Entity::Datanode(DN3.into())));
        assert_eq!(map.resolve(0x2fb0b161), Some(Entity::Datanode(DN5.into())));
        map.observe_uuid(DN3);
        assert_eq!(map.resolve(0xd71c744d), Some(Entity::Datanode(DN3.into())));
    }

    #[test]
    fn colliding_hashes_are_not_guessed() {
        // Swapping msb and lsb keeps msb ^ lsb, hence the hash.
        let a = "00000000-0000-0001-0000-000000000002";
        let b = "00000000-0000-0002-0000-000000000001";
        assert_eq!(uuid_hash_code(a), uuid_hash_code(b));
        let mut map = TrackedNodeMap::new();
        map.observe_uuid(a);
        map.observe_uuid(b);
        assert_eq!(map.resolve(uuid_hash_code(a).unwrap()), None);
    }

    #[test]
    fn container_ids_at_fixed_positions() {
        assert_eq!(container_id("#1051 (DELETED, sid=4821)"), Some(1051));
        assert_eq!(container_id("1051"), Some(1051));
        assert_eq!(container_id("1051x"), None);
        assert_eq!(container_id("#"), None);
        assert_eq!(container_id("99999999999999999999999"), None);
        assert_eq!(
            dn_container_log_id(
                "ID=1042 | Index=0 | BCSID=88213 | State=CLOSING | Volume=/data/disk3/hdds | DataChecksum=0"
            ),
            Some(1042)
        );
        assert_eq!(dn_container_log_id("ID=1042"), Some(1042));
        assert_eq!(dn_container_log_id("ID=10x | Index=0"), None);
        assert_eq!(dn_container_log_id("Index=0"), None);
    }

    #[test]
    fn finds_containers_in_every_printed_form() {
        let cases: &[(&str, &[u64])] = &[
            (
                "Resurrecting container #1051 from DELETED to QUASI_CLOSED due to non-empty OPEN replica (keyCount=37, BCSID=4790) from Container #1051 (DELETED, sid=4821) r0 (OPEN, bcsid=4790, origin=x, non-empty)",
                &[1051, 1051],
            ),
            (
                "Sending command [deleteContainerCommand: cmdID: 118840112, encodedToken: \"\", term: 0, deadlineMsSinceEpoch: 0, containerID: 1051, replicaIndex: 0, force: false] for container ContainerInfo{id=#1051, state=CLOSED, stateEnterTime=2026-08-18T09:25:03.114Z, pipelineID=Pipeline-x, owner=om1}",
                &[1051, 1051],
            ),
            (
                "replicateContainerCommand: cmdID: 1, containerId=1051, replicaIndex=0",
                &[1051],
            ),
            ("Marked Container UNHEALTHY, ContainerID: 2077", &[2077]),
            ("Marking Container 2031 quasi closed", &[2031]),
            ("Follower cannot close container #2031.", &[2031]),
            (
                "Container: #77 was deleted for the transaction: txID: 5",
                &[77],
            ),
            ("ContainerReplica{#1051 (CLOSED) currentDN=x", &[1051]),
            ("dispatch WriteChunk containerID=1042 pipelineID=x", &[1042]),
            (
                "blockIdcontainerID: 5\nlocalID: 1137\nblockCommitSequenceId: 0",
                &[5],
            ),
            (
                "version:0 isMultipartKey:false conID 4021 locID 1 bcsID 2 || ",
                &[4021],
            ),
            (
                "[blockId=conID: 4021 locID: 1 bcsId: 2 replicaIndex: null, size=3]",
                &[4021],
            ),
            // Not containers: a Raft call id, a thread suffix, a word ending in Container, a name.
            (
                "s1<-s2#17:OK-t3 OpenKeyCleanupService#0 ECContainer 5 container path=/x Container #12a",
                &[],
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(&values(find_containers(text)), expected, "{text}");
        }
        let text = "from Container #1051 (DELETED";
        let found = find_containers(text).next().unwrap();
        assert_eq!(&text[found.span], "#1051");
    }

    #[test]
    fn block_ids_in_every_printed_form() {
        let with = |bcs_id, replica_index| BlockRef {
            container: 4021,
            local: 115816896921600001,
            bcs_id,
            replica_index,
        };
        let cases: &[(&str, BlockRef)] = &[
            (
                "conID: 4021 locID: 115816896921600001 bcsId: 90188 replicaIndex: null, length 45190211",
                with(Some(90188), None),
            ),
            (
                "conID: 4021 locID: 115816896921600001 bcsId: 7 replicaIndex: 3",
                with(Some(7), Some(3)),
            ),
            ("conID: 4021 locID: 115816896921600001", with(None, None)),
            (
                "conID 4021 locID 115816896921600001 bcsID 101377 || ",
                with(Some(101377), None),
            ),
            (
                "containerID: 4021\nlocalID: 115816896921600001\nblockCommitSequenceId: 0\n",
                with(Some(0), None),
            ),
            (
                "containerID: 4021 localID: 115816896921600001 blockCommitSequenceId: 9 } chunks",
                with(Some(9), None),
            ),
            (
                "containerID: 4021\nlocalID: 115816896921600001\nblockCommitSequenceId: 0\nreplicaIndex: 2\n",
                with(Some(0), Some(2)),
            ),
        ];
        for (text, expected) in cases {
            let (block, len) = block_id(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(&block, expected, "{text}");
            assert!(len <= text.len());
            assert_eq!(values(find_blocks(text)), [*expected], "{text}");
        }
        assert_eq!(
            with(None, None).entity().to_string(),
            "block:4021:115816896921600001"
        );
        assert!(block_id("containerID: 4021, replicaIndex: 0").is_none());
        assert!(block_id("conID: 4021 locID: x").is_none());
        // DN audit, PUT_BLOCK blockData and a multi-line proto inside a CSM message.
        let text = "op=PUT_BLOCK {\"blockData\":\"[blockId=conID: 4021 locID: 115816896921600001 bcsId: 90190 replicaIndex: null, size=45219840]\"} ; writeChunk writeStateMachineData : blockIdcontainerID: 5\nlocalID: 6\nblockCommitSequenceId: 0\n logIndex 7";
        let found: Vec<(u64, u64)> = find_blocks(text)
            .map(|m| (m.value.container, m.value.local))
            .collect();
        assert_eq!(found, [(4021, 115816896921600001), (5, 6)]);
    }

    #[test]
    fn finds_pipelines_in_every_printed_form() {
        let text = format!(
            "[Pipeline-{PIPE}] PipelineID={PIPE} pipelineID=Pipeline-{PIPE}, \
             pipelineID=PipelineID={PIPE}, closeContainerCommand: pipelineID: Pipeline-{PIPE}, \
             pipelineID: \"{PIPE}\" Pipeline{{ Id: {PIPE}, Nodes: [ Pipeline[ Id: {PIPE}, \
             dn-ContainerOp-{PIPE}-0 Pipeline-12 pipelineID=null"
        );
        assert_eq!(values(find_pipelines(&text)), [PIPE; 9]);
        assert_eq!(
            pipeline_id(&format!("Pipeline-{}", PIPE.to_uppercase()))
                .map(|(u, len)| (u.len(), len)),
            Some((36, 45))
        );
        assert_eq!(group_of_pipeline(PIPE).as_deref(), Some("0E1F2A3B4C5D"));
        assert_eq!(group_of_pipeline("x"), None);
    }

    #[test]
    fn ratis_member_ids_groups_and_term_indexes() {
        let line = "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4-SegmentedRaftLogWorker: Truncating; om1@group-D66704EFC61C: leader changed to om2; 3f2b…@group-D2C8A1B9F0E4";
        let members: Vec<(&str, &str)> = find_member_ids(line)
            .map(|m| (m.value.peer, m.value.group))
            .collect();
        assert_eq!(
            members,
            [
                ("3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c", "D2C8A1B9F0E4"),
                ("om1", "D66704EFC61C"),
            ]
        );
        assert_eq!(
            member_id("om1@group-D66704EFC61C").map(|(m, len)| (m.peer, len)),
            Some(("om1", 22))
        );
        assert_eq!(member_id("om1@group-D66704EFC61"), None);
        assert_eq!(
            values(find_groups(
                "Leader change notification received for group: group-D2C8A1B9F0E4 with new leaderId: x; subgroup-D2C8A1B9F0E4 group-D2C8A1B9F0E4A"
            )),
            ["D2C8A1B9F0E4"]
        );
        assert_eq!(
            values(find_term_indexes(
                "WriteLog:18342: (t:6, i:18342), STATEMACHINELOGENTRY; applied = (t:~, i:~) (t:1, i:)"
            )),
            [
                TermIndex {
                    term: Some(6),
                    index: Some(18342)
                },
                TermIndex {
                    term: None,
                    index: None
                },
            ]
        );
    }

    #[test]
    fn om_log_keys_in_request_templates() {
        let cases = [
            (
                "Key committed failed. Volume:hbase, Bucket:wal, Key:WALs/rs1/rs1.1762164000000. Exception:{}\nKEY_NOT_FOUND …",
                ("hbase", "wal", "WALs/rs1/rs1.1762164000000"),
            ),
            (
                "Key created. Volume:v, Bucket:b, Key:dir/k.",
                ("v", "b", "dir/k."),
            ),
            (
                "Key creation failed. Volume:v, Bucket:b, Key:k. ",
                ("v", "b", "k"),
            ),
            (
                "File create failed. Volume:v, Bucket:b, Keyk.",
                ("v", "b", "k"),
            ),
            (
                "Fail for recovering lease. Volume:v, Bucket:b, Key:a b",
                ("v", "b", "a b"),
            ),
        ];
        for (msg, (volume, bucket, key)) in cases {
            let found = om_log_key(msg).unwrap();
            assert_eq!(
                (found.volume, found.bucket, found.key),
                (volume, bucket, key),
                "{msg}"
            );
            assert_eq!(found.entity(), Some(key_entity(volume, bucket, key)));
        }
        let allocate = om_log_key(
            "Allocate Block failed. Volume:v, Bucket:b, OpenKey:/v/b/dir/k/115485179904000017. Exception:{}",
        )
        .unwrap();
        assert_eq!(allocate.key, "/v/b/dir/k/115485179904000017");
        assert_eq!(allocate.entity(), Some(Entity::Key("/v/b/dir/k".into())));
        assert_eq!(om_log_key("Volume:v only"), None);
    }

    #[test]
    fn open_key_paths_in_both_layouts() {
        assert_eq!(
            open_key_path("/v/b/WALs/rs1/rs1.1/115485179904000017"),
            Some(OpenKeyPath::Obs {
                volume: "v",
                bucket: "b",
                key: "WALs/rs1/rs1.1",
                client_id: 115485179904000017,
            })
        );
        let fso = open_key_path(
            "/-9223372036854567936/-9223372036854511360/-9223372035710148352/rs1.1762164000000/115485179904000017",
        );
        assert_eq!(
            fso,
            Some(OpenKeyPath::Fso {
                volume_id: -9223372036854567936,
                bucket_id: -9223372036854511360,
                parent_id: -9223372035710148352,
                file_name: "rs1.1762164000000",
                client_id: 115485179904000017,
            })
        );
        assert_eq!(object_id_transaction(-9223372036854567936), 812);
        assert_eq!(open_key_path("/v/b/k"), None);
        assert_eq!(open_key_path("/v/b/1"), None);
        assert_eq!(open_key_path("v/b/k/1"), None);
    }

    #[test]
    fn client_id_decodes_to_open_time() {
        // om.md §1.5: 115485179904000017 = 1762164000000 << 16 | 17 (2025-11-03T10:00:00Z).
        assert_eq!(decode_client_id(115485179904000017), (1762164000000, 17));
        assert_eq!(decode_client_id(0), (0, 0));
        assert_eq!(
            decode_client_id(u64::MAX),
            ((u64::MAX >> 16) as i64, u16::MAX)
        );
    }

    #[test]
    fn extractors_never_panic_on_cut_or_odd_text() {
        let text = format!(
            "é{DN5}(dn5/1) Container #1051 conID: 1 locID: 2 bcsId: 3 replicaIndex: null \
             Pipeline-{PIPE} om1@group-D66704EFC61C (t:1, i:2) TrackedNode@d71c744d Volume:v, Bucket:b, Key:k é"
        );
        for (cut, _) in text.char_indices() {
            for piece in [&text[..cut], &text[cut..]] {
                let _ = find_datanode_details(piece).count();
                let _ = find_uuids(piece).count();
                let _ = find_containers(piece).count();
                let _ = find_blocks(piece).count();
                let _ = find_pipelines(piece).count();
                let _ = find_groups(piece).count();
                let _ = find_member_ids(piece).count();
                let _ = find_term_indexes(piece).count();
                let _ = tracked_node_hash(piece);
                let _ = om_log_key(piece);
                let _ = open_key_path(piece);
                let _ = datanode_details(piece);
                let _ = block_id(piece);
                let _ = member_id(piece);
                let _ = term_index(piece);
                let _ = pipeline_id(piece);
                let _ = container_id(piece);
            }
        }
    }
}
