//! Apache Ratis statements written inside Ozone daemons (datanode pipelines, SCM and OM HA):
//! role and leader changes, elections, log truncation, segment rolls, write timeouts, and the
//! RaftLog / SegmentedRaftLogCache DEBUG/TRACE lines that map log indexes to entries.
//!
//! Templates are from apache/ratis `ratis-3.2.1` (../shared/ozone-logs/datanode.md 2.1, 2.2 and
//! scm.md 2.1). Several classes log through another class's logger: `RaftServerImpl`,
//! `ServerState` and `LeaderStateImpl` use `RaftServer$Division`, `SegmentedRaftLog` and
//! `RaftLogBase` use `org.apache.ratis.server.raftlog.RaftLog`. Dispatch is by the logger's last
//! segment (the same for the full name, `%c{2}` and `%c{1}`), then by a constant fragment of the
//! message; fields are read with `strip_prefix`/`split_once`, never by scanning every template.
//!
//! A member id `<peerId>@group-<12 HEX>` starts most messages. The peer is a datanode UUID in
//! datanode logs, the SCM id in SCM logs and the OM node id in OM logs, so the peer's entity
//! depends on the record's component.

use super::template::{logger_class, u64_prefix};
use super::{EventData, Input, KindInfo, Typed};
use crate::entity::{self, Entity, TermIndex, member_id, term_index};
use crate::source::Component;
use serde::Serialize;

/// A Raft group member as printed by `RaftGroupMemberId.toString()`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Member {
    /// `<peer>@group-<12 HEX>`.
    pub member: String,
    pub peer: String,
    /// `group-<12 HEX>`.
    pub group: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum RatisEvent {
    /// `RaftServerImpl.setRole`.
    RoleChange {
        #[serde(flatten)]
        member: Member,
        /// `RoleInfo.toString()` pads the old role to 9 characters; stored trimmed.
        from: String,
        to: String,
        term: u64,
        reason: String,
    },
    /// `ServerState.setLeader`.
    LeaderChange {
        #[serde(flatten)]
        member: Member,
        old_leader: Option<String>,
        new_leader: Option<String>,
        term: u64,
        op: String,
        elected_after_ms: Option<u64>,
    },
    /// `ServerState`: an append from a leader of an older term.
    StaleLeaderRejected {
        #[serde(flatten)]
        member: Member,
        leader: String,
        op: String,
        peer_term: u64,
        current_term: u64,
    },
    /// `LeaderStateImpl`: the leader lost a majority of heartbeats.
    LostLeadership {
        #[serde(flatten)]
        member: Member,
        term: u64,
        election_timeout_ms: Option<u64>,
        in_charge_ms: Option<u64>,
    },
    /// `LeaderStateImpl`.
    StepDownFailed {
        #[serde(flatten)]
        member: Member,
        term: u64,
    },
    /// `FollowerState`: election timeout, the follower becomes a candidate.
    ElectionTimeout {
        #[serde(flatten)]
        member: Member,
        last_rpc_elapsed_ms: Option<u64>,
        election_timeout_ms: Option<u64>,
    },
    /// `RoleInfo`: a role daemon starts or shuts down (`start`/`shutdown`).
    RoleDaemon {
        #[serde(flatten)]
        member: Member,
        action: String,
        daemon: String,
    },
    /// `LeaderElection`: `submit vote requests`.
    ElectionSubmit {
        #[serde(flatten)]
        member: Member,
        election: String,
        phase: String,
        round: u64,
        term: u64,
    },
    /// `LeaderElection`: `round N: result R`.
    ElectionResult {
        #[serde(flatten)]
        member: Member,
        election: String,
        phase: String,
        round: u64,
        result: String,
    },
    /// `LeaderElection`: `received N response(s) and M exception(s):`.
    ElectionResponses {
        #[serde(flatten)]
        member: Member,
        election: String,
        phase: String,
        result: String,
        responses: u64,
        exceptions: u64,
    },
    /// `LeaderElection`: one `  Response {}: {}` line.
    ElectionResponse {
        index: u64,
        reply: String,
        requestor: String,
        replier: String,
        granted: bool,
    },
    /// `RaftServerImpl`: `receive requestVote(...)`.
    VoteRequest {
        #[serde(flatten)]
        member: Member,
        phase: String,
        candidate: String,
        candidate_term: u64,
        candidate_last_index: Option<u64>,
    },
    /// `RaftServerImpl`: `replies to {} vote request`.
    VoteReply {
        #[serde(flatten)]
        member: Member,
        phase: String,
        reply: String,
    },
    /// `RaftServerImpl`: `appendEntries* reply` (INCONSISTENCY and friends).
    AppendReply {
        #[serde(flatten)]
        member: Member,
        result: Option<String>,
        next_index: Option<u64>,
        reply: String,
    },
    /// `RaftServerImpl`: `Failed appendEntries as previous log entry ({}) is not found`.
    AppendPreviousMissing {
        #[serde(flatten)]
        member: Member,
        previous_term: Option<u64>,
        previous_index: Option<u64>,
    },
    /// `SegmentedRaftLogWorker`: `Truncating segments truncate(N)` (multi-line
    /// `TruncationSegments`).
    LogTruncate {
        #[serde(flatten)]
        member: Member,
        /// The first index removed: entries at `index` and above are gone.
        index: u64,
        segment_start: Option<u64>,
        segment_end: Option<u64>,
        new_end_index: Option<u64>,
    },
    /// `SegmentedRaftLogWorker`: the truncated segment file was rewritten.
    LogFileTruncated {
        #[serde(flatten)]
        member: Member,
        file: String,
        length: Option<u64>,
        moved_to: String,
    },
    /// `SegmentedRaftLogWorker`: `Deleted RaftLog segment for {}: path={}`.
    SegmentDeleted {
        #[serde(flatten)]
        member: Member,
        reason: String,
        path: String,
    },
    /// `SegmentedRaftLogWorker`: `Rolling segment {} to index:{}`.
    SegmentRolling {
        #[serde(flatten)]
        member: Member,
        segment: String,
        index: Option<u64>,
    },
    /// `SegmentedRaftLogWorker`: `Rolled log segment from {} to {}`.
    SegmentRolled {
        #[serde(flatten)]
        member: Member,
        from: String,
        to: String,
    },
    /// `SegmentedRaftLogWorker`: `Starting segment from index:{}`.
    SegmentStarted {
        #[serde(flatten)]
        member: Member,
        index: Option<u64>,
    },
    /// `SegmentedRaftLogWorker`: `created new log segment {}`.
    SegmentCreated {
        #[serde(flatten)]
        member: Member,
        path: String,
    },
    /// `SegmentedRaftLogWorker` WARN `Timeout n/~`: a state machine data write (for Ozone, a
    /// WriteChunk's chunk write) did not finish in time. The entry comes from the
    /// `TimeoutIOException` on the continuation lines.
    WriteTimeout {
        retry: u64,
        /// `None` for unbounded retries (`/~`).
        max_retries: Option<u64>,
        term: Option<u64>,
        index: Option<u64>,
        cmd: Option<String>,
        container: Option<u64>,
        local: Option<u64>,
        chunk: Option<String>,
        pipeline: Option<String>,
        datanode: Option<String>,
    },
    /// `SegmentedRaftLogWorker` ERROR `writeStateMachineData failed for index {}, entry={}`.
    WriteStateMachineDataFailed {
        #[serde(flatten)]
        member: Member,
        index: u64,
        term: Option<u64>,
    },
    /// `SegmentedRaftLog` (logger `RaftLog`) DEBUG `truncateIndex={}, arrayIndex={}`.
    TruncateIndex {
        truncate_index: i64,
        array_index: i64,
    },
    /// `SegmentedRaftLog` (logger `RaftLog`) TRACE `{}: appendEntry {}`.
    AppendEntry {
        #[serde(flatten)]
        member: Member,
        term: Option<u64>,
        index: Option<u64>,
        /// `STATEMACHINELOGENTRY`, `CONFIGURATIONENTRY`, `METADATAENTRY`.
        body: String,
    },
    /// `SegmentedRaftLogCache` TRACE `truncate to {}, arrayIndex={}, ti={}, storedEntry={}, ...`:
    /// the conflicting entry's new and stored term at the truncation point.
    CacheTruncate {
        #[serde(flatten)]
        member: Member,
        index: u64,
        new_term: Option<u64>,
        stored_term: Option<u64>,
        /// The indexes of the new entries that follow (`entries=[...]`).
        new_indexes: Vec<u64>,
    },
    /// `StateMachineUpdater`: `Took a snapshot at index {}`.
    SnapshotTaken {
        #[serde(flatten)]
        member: Member,
        index: u64,
    },
    /// `StateMachineUpdater` ERROR `Exception while {}: applying txn index={}, nextLog={}`.
    ApplyFailed {
        #[serde(flatten)]
        member: Member,
        index: Option<u64>,
    },
}

impl RatisEvent {
    pub fn kind(&self) -> &'static str {
        match self {
            RatisEvent::RoleChange { .. } => "ratis_role_change",
            RatisEvent::LeaderChange { .. } => "ratis_leader_change",
            RatisEvent::StaleLeaderRejected { .. } => "ratis_stale_leader_rejected",
            RatisEvent::LostLeadership { .. } => "ratis_lost_leadership",
            RatisEvent::StepDownFailed { .. } => "ratis_step_down_failed",
            RatisEvent::ElectionTimeout { .. } => "ratis_election_timeout",
            RatisEvent::RoleDaemon { .. } => "ratis_role_daemon",
            RatisEvent::ElectionSubmit { .. } => "ratis_election_submit",
            RatisEvent::ElectionResult { .. } => "ratis_election_result",
            RatisEvent::ElectionResponses { .. } => "ratis_election_responses",
            RatisEvent::ElectionResponse { .. } => "ratis_election_response",
            RatisEvent::VoteRequest { .. } => "ratis_vote_request",
            RatisEvent::VoteReply { .. } => "ratis_vote_reply",
            RatisEvent::AppendReply { .. } => "ratis_append_reply",
            RatisEvent::AppendPreviousMissing { .. } => "ratis_append_previous_missing",
            RatisEvent::LogTruncate { .. } => "ratis_log_truncate",
            RatisEvent::LogFileTruncated { .. } => "ratis_log_file_truncated",
            RatisEvent::SegmentDeleted { .. } => "ratis_segment_deleted",
            RatisEvent::SegmentRolling { .. } => "ratis_segment_rolling",
            RatisEvent::SegmentRolled { .. } => "ratis_segment_rolled",
            RatisEvent::SegmentStarted { .. } => "ratis_segment_started",
            RatisEvent::SegmentCreated { .. } => "ratis_segment_created",
            RatisEvent::WriteTimeout { .. } => "ratis_write_timeout",
            RatisEvent::WriteStateMachineDataFailed { .. } => "ratis_write_sm_data_failed",
            RatisEvent::TruncateIndex { .. } => "ratis_truncate_index",
            RatisEvent::AppendEntry { .. } => "ratis_append_entry",
            RatisEvent::CacheTruncate { .. } => "ratis_cache_truncate",
            RatisEvent::SnapshotTaken { .. } => "ratis_snapshot_taken",
            RatisEvent::ApplyFailed { .. } => "ratis_apply_failed",
        }
    }

    /// The member the event is about, when the line names one.
    pub fn member(&self) -> Option<&Member> {
        match self {
            RatisEvent::RoleChange { member, .. }
            | RatisEvent::LeaderChange { member, .. }
            | RatisEvent::StaleLeaderRejected { member, .. }
            | RatisEvent::LostLeadership { member, .. }
            | RatisEvent::StepDownFailed { member, .. }
            | RatisEvent::ElectionTimeout { member, .. }
            | RatisEvent::RoleDaemon { member, .. }
            | RatisEvent::ElectionSubmit { member, .. }
            | RatisEvent::ElectionResult { member, .. }
            | RatisEvent::ElectionResponses { member, .. }
            | RatisEvent::VoteRequest { member, .. }
            | RatisEvent::VoteReply { member, .. }
            | RatisEvent::AppendReply { member, .. }
            | RatisEvent::AppendPreviousMissing { member, .. }
            | RatisEvent::LogTruncate { member, .. }
            | RatisEvent::LogFileTruncated { member, .. }
            | RatisEvent::SegmentDeleted { member, .. }
            | RatisEvent::SegmentRolling { member, .. }
            | RatisEvent::SegmentRolled { member, .. }
            | RatisEvent::SegmentStarted { member, .. }
            | RatisEvent::SegmentCreated { member, .. }
            | RatisEvent::WriteStateMachineDataFailed { member, .. }
            | RatisEvent::AppendEntry { member, .. }
            | RatisEvent::CacheTruncate { member, .. }
            | RatisEvent::SnapshotTaken { member, .. }
            | RatisEvent::ApplyFailed { member, .. } => Some(member),
            RatisEvent::ElectionResponse { .. }
            | RatisEvent::WriteTimeout { .. }
            | RatisEvent::TruncateIndex { .. } => None,
        }
    }
}

const DIVISION: &str = "RaftServer$Division (RaftServerImpl)";
const RELEASES: &str = "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)";

macro_rules! kind {
    ($kind:literal, $class:expr, $level:literal, $template:literal, $catalogue:literal) => {
        KindInfo {
            kind: $kind,
            log: "daemon",
            class: $class,
            level: $level,
            releases: RELEASES,
            template: $template,
            catalogue: $catalogue,
        }
    };
}

pub const KINDS: &[KindInfo] = &[
    kind!(
        "ratis_role_change",
        DIVISION,
        "INFO",
        "{}: changes role from {} to {} at term {} for {}",
        "datanode.md 1.5, 2.1; scm.md 2.1"
    ),
    kind!(
        "ratis_leader_change",
        "RaftServer$Division (ServerState)",
        "INFO",
        "{}: change Leader from {} to {} at term {} for {}{}",
        "datanode.md 2.1; scm.md 2.1"
    ),
    kind!(
        "ratis_stale_leader_rejected",
        "RaftServer$Division (ServerState)",
        "WARN",
        "{}: Failed to recognize {} as leader for {} since peerTerm = {} < currentTerm = {}",
        "datanode.md 2.1"
    ),
    kind!(
        "ratis_lost_leadership",
        "RaftServer$Division (LeaderStateImpl)",
        "WARN",
        "this + \": Lost leadership on term: \" + currentTerm + \". Election timeout: \" + ms + \"ms\" + \". In charge for: \" + ms + \"ms\" + \". Conf: \" + conf",
        "datanode.md 2.1"
    ),
    kind!(
        "ratis_step_down_failed",
        "RaftServer$Division (LeaderStateImpl)",
        "WARN",
        "this + \": Failed to step down for term \" + term",
        "datanode.md 2.1"
    ),
    kind!(
        "ratis_election_timeout",
        "org.apache.ratis.server.impl.FollowerState",
        "INFO",
        "{}: change to CANDIDATE, lastRpcElapsedTime:{}, electionTimeout:{}",
        "datanode.md 2.1"
    ),
    kind!(
        "ratis_role_daemon",
        "org.apache.ratis.server.impl.RoleInfo",
        "INFO",
        "{}: shutdown {} / {}: start {}",
        "datanode.md 2.1"
    ),
    kind!(
        "ratis_election_submit",
        "org.apache.ratis.server.impl.LeaderElection",
        "INFO",
        "{} {} round {}: submit vote requests at term {} for {}",
        "datanode.md 2.1; scm.md 2.1"
    ),
    kind!(
        "ratis_election_result",
        "org.apache.ratis.server.impl.LeaderElection",
        "INFO",
        "{} {} round {}: result {}",
        "datanode.md 2.1; scm.md 2.1"
    ),
    kind!(
        "ratis_election_responses",
        "org.apache.ratis.server.impl.LeaderElection",
        "INFO",
        "{}: {} {} received {} response(s) and {} exception(s):",
        "datanode.md 2.1; scm.md 2.1"
    ),
    kind!(
        "ratis_election_response",
        "org.apache.ratis.server.impl.LeaderElection",
        "INFO",
        "  Response {}: {}",
        "datanode.md 2.1; scm.md 2.1"
    ),
    kind!(
        "ratis_vote_request",
        DIVISION,
        "INFO",
        "{}: receive requestVote({}, {}, {}, {}, {})",
        "datanode.md 2.1"
    ),
    kind!(
        "ratis_vote_reply",
        DIVISION,
        "INFO",
        "{} replies to {} vote request: {}. Peer's state: {}",
        "datanode.md 2.1"
    ),
    kind!(
        "ratis_append_reply",
        DIVISION,
        "INFO",
        "{}: appendEntries* reply {}",
        "datanode.md 2.1"
    ),
    kind!(
        "ratis_append_previous_missing",
        DIVISION,
        "INFO",
        "{}: Failed appendEntries as previous log entry ({}) is not found",
        "datanode.md 2.1"
    ),
    kind!(
        "ratis_log_truncate",
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker",
        "INFO",
        "{}: Truncating segments {}, start index {} (TruncationSegments: truncate(N)\\n  toTruncate: ...\\n    toDelete: [...])",
        "datanode.md 1.1, 1.5, 2.2"
    ),
    kind!(
        "ratis_log_file_truncated",
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker",
        "INFO",
        "{}: Truncated log file {} to length {} and moved it to {}",
        "datanode.md 2.2"
    ),
    kind!(
        "ratis_segment_deleted",
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker",
        "INFO",
        "{}: Deleted RaftLog segment for {}: path={}",
        "datanode.md 2.2"
    ),
    kind!(
        "ratis_segment_rolling",
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker",
        "INFO",
        "{}: Rolling segment {} to index:{}",
        "datanode.md 2.2"
    ),
    kind!(
        "ratis_segment_rolled",
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker",
        "INFO",
        "{}: Rolled log segment from {} to {}",
        "datanode.md 2.2"
    ),
    kind!(
        "ratis_segment_started",
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker",
        "INFO",
        "{}: Starting segment from index:{}",
        "datanode.md 2.2"
    ),
    kind!(
        "ratis_segment_created",
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker",
        "INFO",
        "{}: created new log segment {}",
        "datanode.md 2.2"
    ),
    kind!(
        "ratis_write_timeout",
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker",
        "WARN",
        "\"Timeout \" + retry + \"/~\" (or \"/\" + max) + TimeoutIOException \"Timeout 10s: WriteLog:<i>: (t:T, i:I), STATEMACHINELOGENTRY, <smProtoToString>-writeStateMachineData\"",
        "datanode.md 2.2, 3.A"
    ),
    kind!(
        "ratis_write_sm_data_failed",
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker",
        "ERROR",
        "name + \": writeStateMachineData failed for index \" + idx + \", entry=\" + toLogEntryString",
        "datanode.md 2.2"
    ),
    kind!(
        "ratis_truncate_index",
        "org.apache.ratis.server.raftlog.RaftLog (SegmentedRaftLog)",
        "DEBUG",
        "truncateIndex={}, arrayIndex={}",
        "datanode.md 2.2, 3.A"
    ),
    kind!(
        "ratis_append_entry",
        "org.apache.ratis.server.raftlog.RaftLog (SegmentedRaftLog)",
        "TRACE",
        "{}: appendEntry {}",
        "datanode.md 2.2, 3.A"
    ),
    kind!(
        "ratis_cache_truncate",
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogCache",
        "TRACE",
        "{}: truncate to {}, arrayIndex={}, ti={}, storedEntry={}, entries={}",
        "datanode.md 2.2, 3.A"
    ),
    kind!(
        "ratis_snapshot_taken",
        "org.apache.ratis.server.impl.StateMachineUpdater",
        "INFO",
        "{}: Took a snapshot at index {}",
        "datanode.md 2.2"
    ),
    kind!(
        "ratis_apply_failed",
        "org.apache.ratis.server.impl.StateMachineUpdater",
        "ERROR",
        "Exception while {}: applying txn index={}, nextLog={}",
        "datanode.md 2.2"
    ),
];

/// Types a Ratis record.
pub fn parse(input: &Input<'_>) -> Option<Typed> {
    let record = input.record;
    let msg = record.message.as_str();
    let event = match record.logger.as_deref().map(logger_class) {
        Some(tail) => by_logger(tail, msg, &record.continuation)?,
        // Layouts without a logger: try every Ratis family; each starts with a literal check.
        None => [
            "RaftServer$Division",
            "SegmentedRaftLogWorker",
            "LeaderElection",
            "FollowerState",
            "RoleInfo",
            "RaftLog",
            "SegmentedRaftLogCache",
            "StateMachineUpdater",
        ]
        .into_iter()
        .find_map(|tail| by_logger(tail, msg, &record.continuation))?,
    };
    let entities = entities(&event, input.component);
    Some(Typed {
        data: EventData::Ratis(event),
        entities,
    })
}

fn by_logger(tail: &str, msg: &str, continuation: &str) -> Option<RatisEvent> {
    match tail {
        "RaftServer$Division" | "RaftServerImpl" | "ServerState" | "LeaderStateImpl" => {
            division(msg)
        }
        "SegmentedRaftLogWorker" => worker(msg, continuation),
        "LeaderElection" => election(msg),
        "FollowerState" => follower_state(msg),
        "RoleInfo" => role_info(msg),
        "RaftLog" | "SegmentedRaftLog" | "RaftLogBase" => raft_log(msg),
        "SegmentedRaftLogCache" => cache(msg),
        "StateMachineUpdater" => updater(msg),
        _ => None,
    }
}

/// The member id at the start of `s`, the `-Suffix` glued to it (a daemon name such as
/// `-SegmentedRaftLogWorker`, possibly empty) and the text after it.
fn split_member(s: &str) -> Option<(Member, &str, &str)> {
    let (id, len) = member_id(s)?;
    let member = Member {
        member: s[..len].to_owned(),
        peer: id.peer.to_owned(),
        group: format!("group-{}", id.group),
    };
    let rest = &s[len..];
    let suffix_len = if rest.starts_with('-') {
        rest.find([':', ' ']).unwrap_or(rest.len())
    } else {
        0
    };
    Some((member, &rest[..suffix_len], &rest[suffix_len..]))
}

/// `<member><suffix>: <text>` for a daemon suffix such as `-SegmentedRaftLogWorker`.
fn member_daemon<'a>(msg: &'a str, daemon: &str) -> Option<(Member, &'a str)> {
    let (member, suffix, rest) = split_member(msg)?;
    (suffix == daemon).then_some(())?;
    Some((member, rest.strip_prefix(": ")?))
}

/// The number after `label` in `s` (`newEndIndex=18341`).
fn number_after(s: &str, label: &str) -> Option<u64> {
    let at = s.find(label)? + label.len();
    u64_prefix(s.get(at..)?)
}

/// `12ms` → 12.
fn millis(s: &str) -> Option<u64> {
    u64_prefix(s.trim())
}

fn null_or(s: &str) -> Option<String> {
    (s != "null").then(|| s.to_owned())
}

// --- RaftServer$Division: RaftServerImpl, ServerState, LeaderStateImpl -----------------------

fn division(msg: &str) -> Option<RatisEvent> {
    let (member, suffix, rest) = split_member(msg)?;
    if suffix == "-LeaderStateImpl" {
        let text = rest.strip_prefix(": ")?;
        // LeaderStateImpl: `this + ": Lost leadership on term: " + term + ". Election timeout: "
        // + ms + "ms. In charge for: " + ms + "ms. Conf: " + conf`.
        if let Some(after) = text.strip_prefix("Lost leadership on term: ") {
            return Some(RatisEvent::LostLeadership {
                member,
                term: u64_prefix(after)?,
                election_timeout_ms: number_after(after, "Election timeout: "),
                in_charge_ms: number_after(after, "In charge for: "),
            });
        }
        // LeaderStateImpl: `this + ": Failed to step down for term " + term`.
        let after = text.strip_prefix("Failed to step down for term ")?;
        return Some(RatisEvent::StepDownFailed {
            member,
            term: u64_prefix(after)?,
        });
    }
    if !suffix.is_empty() {
        return None;
    }
    // RaftServerImpl: `{} replies to {} vote request: {}. Peer's state: {}`.
    if let Some(after) = rest.strip_prefix(" replies to ") {
        let (phase, reply) = after.split_once(" vote request: ")?;
        let reply = reply
            .split_once(". Peer's state: ")
            .map_or(reply, |(r, _)| r);
        return Some(RatisEvent::VoteReply {
            member,
            phase: phase.to_owned(),
            reply: reply.to_owned(),
        });
    }
    let text = rest.strip_prefix(": ")?;
    // RaftServerImpl.setRole: `{}: changes role from {} to {} at term {} for {}`; the old role is
    // `RoleInfo.toString()` = `String.format("%9s", role)`, hence the padding.
    if let Some(after) = text.strip_prefix("changes role from") {
        let (from, after) = after.trim_start().split_once(" to ")?;
        let (to, after) = after.split_once(" at term ")?;
        let (term, reason) = after.split_once(" for ")?;
        return Some(RatisEvent::RoleChange {
            member,
            from: from.trim().to_owned(),
            to: to.to_owned(),
            term: term.parse().ok()?,
            reason: reason.to_owned(),
        });
    }
    // ServerState.setLeader: `{}: change Leader from {} to {} at term {} for {}{}`, the suffix
    // `, leader elected after <n>ms` when the new leader is not null.
    if let Some(after) = text.strip_prefix("change Leader from ") {
        let (old, after) = after.split_once(" to ")?;
        let (new, after) = after.split_once(" at term ")?;
        let (term, after) = after.split_once(" for ")?;
        let (op, elected) = match after.split_once(", leader elected after ") {
            Some((op, ms)) => (op, millis(ms)),
            None => (after, None),
        };
        return Some(RatisEvent::LeaderChange {
            member,
            old_leader: null_or(old),
            new_leader: null_or(new),
            term: term.parse().ok()?,
            op: op.to_owned(),
            elected_after_ms: elected,
        });
    }
    // ServerState: `{}: Failed to recognize {} as leader for {} since peerTerm = {} < currentTerm = {}`.
    if let Some(after) = text.strip_prefix("Failed to recognize ") {
        let (leader, after) = after.split_once(" as leader for ")?;
        let (op, after) = after.split_once(" since peerTerm = ")?;
        let (peer_term, current) = after.split_once(" < currentTerm = ")?;
        return Some(RatisEvent::StaleLeaderRejected {
            member,
            leader: leader.to_owned(),
            op: op.to_owned(),
            peer_term: peer_term.parse().ok()?,
            current_term: u64_prefix(current)?,
        });
    }
    // RaftServerImpl: `{}: receive requestVote({}, {}, {}, {}, {})`: phase, candidate, group,
    // candidate term, candidate's last entry.
    if let Some(after) = text.strip_prefix("receive requestVote(") {
        let mut parts = after.splitn(5, ", ");
        let phase = parts.next()?;
        let candidate = parts.next()?;
        let _group = parts.next()?;
        let term = parts.next()?.parse().ok()?;
        let last = parts
            .next()
            .and_then(term_index)
            .and_then(|(ti, _)| ti.index);
        return Some(RatisEvent::VoteRequest {
            member,
            phase: phase.to_owned(),
            candidate: candidate.to_owned(),
            candidate_term: term,
            candidate_last_index: last,
        });
    }
    // RaftServerImpl: `{}: appendEntries* reply {}` with the reply
    // `<leader><-<me>#<callId>:FAIL-t<term>,INCONSISTENCY,nextIndex=N,followerCommit=N,matchIndex=N`.
    if let Some(reply) = text.strip_prefix("appendEntries* reply ") {
        let result = reply.split(',').nth(1).map(str::to_owned);
        return Some(RatisEvent::AppendReply {
            member,
            result,
            next_index: number_after(reply, "nextIndex="),
            reply: reply.to_owned(),
        });
    }
    // RaftServerImpl: `{}: Failed appendEntries as previous log entry ({}) is not found`.
    if let Some(after) = text.strip_prefix("Failed appendEntries as previous log entry (") {
        let ti = term_index(after).map(|(ti, _)| ti);
        return Some(RatisEvent::AppendPreviousMissing {
            member,
            previous_term: ti.and_then(|t| t.term),
            previous_index: ti.and_then(|t| t.index),
        });
    }
    None
}

// --- LeaderElection, FollowerState, RoleInfo ----------------------------------------------------

fn election(msg: &str) -> Option<RatisEvent> {
    // `  Response {}: {}`, reply `requestor<-replier#callId:OK|FAIL-t<term>...`.
    if let Some(after) = msg.trim_start().strip_prefix("Response ") {
        let (index, reply) = after.split_once(": ")?;
        let (requestor, rest) = reply.split_once("<-")?;
        let replier = rest.split('#').next().unwrap_or(rest);
        let granted = rest
            .split_once(':')
            .is_some_and(|(_, r)| r.starts_with("OK"));
        return Some(RatisEvent::ElectionResponse {
            index: index.parse().ok()?,
            reply: reply.to_owned(),
            requestor: requestor.to_owned(),
            replier: replier.to_owned(),
            granted,
        });
    }
    let (member, suffix, rest) = split_member(msg)?;
    let election = suffix.strip_prefix('-')?;
    if !election.starts_with("LeaderElection") {
        return None;
    }
    // `{}: {} {} received {} response(s) and {} exception(s):`: name, phase, result.
    if let Some(text) = rest.strip_prefix(": ") {
        let (head, counts) = text.split_once(" received ")?;
        let (phase, result) = head.split_once(' ')?;
        let (responses, exceptions) = counts.split_once(" response(s) and ")?;
        return Some(RatisEvent::ElectionResponses {
            member,
            election: election.to_owned(),
            phase: phase.to_owned(),
            result: result.to_owned(),
            responses: responses.parse().ok()?,
            exceptions: u64_prefix(exceptions)?,
        });
    }
    // `{} {} round {}: submit vote requests at term {} for {}` / `{} {} round {}: result {}`.
    let text = rest.strip_prefix(' ')?;
    let (phase, after) = text.split_once(" round ")?;
    let (round, after) = after.split_once(": ")?;
    let round = round.parse().ok()?;
    if let Some(after) = after.strip_prefix("submit vote requests at term ") {
        return Some(RatisEvent::ElectionSubmit {
            member,
            election: election.to_owned(),
            phase: phase.to_owned(),
            round,
            term: u64_prefix(after)?,
        });
    }
    let result = after.strip_prefix("result ")?;
    Some(RatisEvent::ElectionResult {
        member,
        election: election.to_owned(),
        phase: phase.to_owned(),
        round,
        result: result.to_owned(),
    })
}

fn follower_state(msg: &str) -> Option<RatisEvent> {
    // `{}: change to CANDIDATE, lastRpcElapsedTime:{}, electionTimeout:{}`, where `{}` is the
    // daemon's name `<memberId>-FollowerState`; accept the bare member id as well.
    let (member, text) = member_daemon(msg, "-FollowerState").or_else(|| member_daemon(msg, ""))?;
    let after = text.strip_prefix("change to CANDIDATE")?;
    Some(RatisEvent::ElectionTimeout {
        member,
        last_rpc_elapsed_ms: number_after(after, "lastRpcElapsedTime:"),
        election_timeout_ms: number_after(after, "electionTimeout:"),
    })
}

fn role_info(msg: &str) -> Option<RatisEvent> {
    // `{}: shutdown {}` / `{}: start {}`: peer id, then `<memberId>-<Daemon>`.
    let (_peer, text) = msg.split_once(": ")?;
    let (action, daemon) = text.split_once(' ')?;
    if action != "start" && action != "shutdown" {
        return None;
    }
    let (member, suffix, _) = split_member(daemon)?;
    Some(RatisEvent::RoleDaemon {
        member,
        action: action.to_owned(),
        daemon: suffix.trim_start_matches('-').to_owned(),
    })
}

// --- SegmentedRaftLogWorker ---------------------------------------------------------------------

fn worker(msg: &str, continuation: &str) -> Option<RatisEvent> {
    // `"Timeout " + retry + "/~"` (or `"/" + max`), the TimeoutIOException on the next lines.
    if let Some(after) = msg.strip_prefix("Timeout ") {
        let (retry, max) = after.split_once('/')?;
        return Some(write_timeout(
            retry.parse().ok()?,
            u64_prefix(max),
            continuation,
        ));
    }
    if let Some((member, after)) = split_member(msg)
        .filter(|(_, suffix, _)| *suffix == "-SegmentedRaftLogWorker")
        .and_then(|(m, _, rest)| Some((m, rest.strip_prefix(": ")?)))
    {
        return worker_statement(member, after, continuation);
    }
    None
}

fn worker_statement(member: Member, text: &str, continuation: &str) -> Option<RatisEvent> {
    // `{}: Truncating segments {}, start index {}` with `TruncationSegments.toString()` =
    // `truncate(N)\n  toTruncate: (start, end) isOpen? b, length=n, newEndIndex=n\n    toDelete: [..]`.
    if let Some(after) = text.strip_prefix("Truncating segments truncate(") {
        let index = u64_prefix(after)?;
        let (segment_start, segment_end) = continuation
            .find("toTruncate: (")
            .and_then(|at| continuation.get(at + "toTruncate: (".len()..))
            .and_then(|s| s.split_once(", "))
            .map_or((None, None), |(a, b)| (u64_prefix(a), u64_prefix(b)));
        return Some(RatisEvent::LogTruncate {
            member,
            index,
            segment_start,
            segment_end,
            new_end_index: number_after(continuation, "newEndIndex="),
        });
    }
    if let Some(after) = text.strip_prefix("Truncated log file ") {
        let (file, after) = after.split_once(" to length ")?;
        let (length, moved) = after.split_once(" and moved it to ")?;
        return Some(RatisEvent::LogFileTruncated {
            member,
            file: file.to_owned(),
            length: length.parse().ok(),
            moved_to: moved.to_owned(),
        });
    }
    if let Some(after) = text.strip_prefix("Deleted RaftLog segment for ") {
        let (reason, path) = after.split_once(": path=")?;
        return Some(RatisEvent::SegmentDeleted {
            member,
            reason: reason.to_owned(),
            path: path.to_owned(),
        });
    }
    if let Some(after) = text.strip_prefix("Rolling segment ") {
        let (segment, index) = after.split_once(" to index:")?;
        return Some(RatisEvent::SegmentRolling {
            member,
            segment: segment.to_owned(),
            index: u64_prefix(index),
        });
    }
    if let Some(after) = text.strip_prefix("Rolled log segment from ") {
        let (from, to) = after.split_once(" to ")?;
        return Some(RatisEvent::SegmentRolled {
            member,
            from: from.to_owned(),
            to: to.to_owned(),
        });
    }
    if let Some(after) = text.strip_prefix("Starting segment from index:") {
        return Some(RatisEvent::SegmentStarted {
            member,
            index: u64_prefix(after),
        });
    }
    if let Some(path) = text.strip_prefix("created new log segment ") {
        return Some(RatisEvent::SegmentCreated {
            member,
            path: path.to_owned(),
        });
    }
    if let Some(after) = text.strip_prefix("writeStateMachineData failed for index ") {
        let index = u64_prefix(after)?;
        let term = after
            .split_once("entry=")
            .and_then(|(_, e)| term_index(e))
            .and_then(|(ti, _)| ti.term);
        return Some(RatisEvent::WriteStateMachineDataFailed {
            member,
            index,
            term,
        });
    }
    None
}

/// The entry of a `Timeout n/~` warning, from `TimeoutIOException: Timeout 10s: WriteLog:<i>:
/// (t:T, i:I), STATEMACHINELOGENTRY, cmdType: WriteChunk ... containerID: C datanodeUuid: "<uuid>"
/// pipelineID: "<uuid>" writeChunk { blockID { containerID: C localID: L ... } chunkData {
/// chunkName: "<name>" ...` (CSM `smProtoToString` = `TextFormat.shortDebugString`).
fn write_timeout(retry: u64, max_retries: Option<u64>, continuation: &str) -> RatisEvent {
    let entry = continuation
        .find("WriteLog:")
        .and_then(|at| continuation.get(at..))
        .map(|s| s.lines().next().unwrap_or(s))
        .unwrap_or("");
    let ti: Option<TermIndex> = entry
        .find("(t:")
        .and_then(|at| term_index(&entry[at..]))
        .map(|(ti, _)| ti);
    let quoted = |label: &str| -> Option<String> {
        let at = entry.find(label)? + label.len();
        let rest = entry.get(at..)?;
        rest.split('"').next().map(str::to_owned)
    };
    let cmd = entry
        .find("cmdType: ")
        .and_then(|at| entry.get(at + "cmdType: ".len()..))
        .and_then(|s| s.split_whitespace().next())
        .map(str::to_owned);
    let block = entity::find_blocks(entry).next().map(|m| m.value);
    let container = block
        .map(|b| b.container)
        .or_else(|| number_after(entry, "containerID: "));
    RatisEvent::WriteTimeout {
        retry,
        max_retries,
        term: ti.and_then(|t| t.term),
        index: ti.and_then(|t| t.index),
        cmd,
        container,
        local: block.map(|b| b.local),
        chunk: quoted("chunkName: \""),
        pipeline: quoted("pipelineID: \"").filter(|p| entity::is_uuid(p)),
        datanode: quoted("datanodeUuid: \"").filter(|p| entity::is_uuid(p)),
    }
}

// --- RaftLog, SegmentedRaftLogCache, StateMachineUpdater ----------------------------------------

fn raft_log(msg: &str) -> Option<RatisEvent> {
    // SegmentedRaftLog.appendImpl DEBUG: `truncateIndex={}, arrayIndex={}`.
    if let Some(after) = msg.strip_prefix("truncateIndex=") {
        let (truncate, array) = after.split_once(", arrayIndex=")?;
        return Some(RatisEvent::TruncateIndex {
            truncate_index: truncate.parse().ok()?,
            array_index: array.trim().parse().ok()?,
        });
    }
    // SegmentedRaftLog.appendEntryImpl TRACE: `{}: appendEntry {}` with
    // `LogProtoUtils.toLogEntryString` = `(t:T, i:I), <BODY>, ...`.
    let (member, text) = member_daemon(msg, "-SegmentedRaftLog")?;
    let entry = text.strip_prefix("appendEntry ")?;
    let (ti, len) = term_index(entry)?;
    let body = entry
        .get(len..)
        .and_then(|s| s.strip_prefix(", "))
        .map(|s| s.split([',', '(', ' ']).next().unwrap_or(s).to_owned())
        .unwrap_or_default();
    Some(RatisEvent::AppendEntry {
        member,
        term: ti.term,
        index: ti.index,
        body,
    })
}

fn cache(msg: &str) -> Option<RatisEvent> {
    // `{}: truncate to {}, arrayIndex={}, ti={}, storedEntry={}, entries={}`.
    let (member, text) = member_daemon(msg, "-SegmentedRaftLogCache")?;
    let after = text.strip_prefix("truncate to ")?;
    let index = u64_prefix(after)?;
    let term_after = |label: &str| {
        after
            .find(label)
            .and_then(|at| term_index(&after[at + label.len()..]))
            .and_then(|(ti, _)| ti.term)
    };
    let new_indexes = after
        .find("entries=[")
        .map(|at| {
            entity::find_term_indexes(&after[at..])
                .filter_map(|m| m.value.index)
                .collect()
        })
        .unwrap_or_default();
    Some(RatisEvent::CacheTruncate {
        member,
        index,
        new_term: term_after("ti="),
        stored_term: term_after("storedEntry="),
        new_indexes,
    })
}

fn updater(msg: &str) -> Option<RatisEvent> {
    // `Exception while {}: applying txn index={}, nextLog={}` (the updater's name).
    if let Some(after) = msg.strip_prefix("Exception while ") {
        let (member, _, rest) = split_member(after)?;
        return Some(RatisEvent::ApplyFailed {
            member,
            index: number_after(rest, "index="),
        });
    }
    let (member, text) = member_daemon(msg, "-StateMachineUpdater")?;
    let after = text.strip_prefix("Took a snapshot at index ")?;
    Some(RatisEvent::SnapshotTaken {
        member,
        index: u64_prefix(after)?,
    })
}

// --- Entities -----------------------------------------------------------------------------------

/// The entity of a Ratis peer id: a datanode's UUID in datanode logs, the SCM id in SCM logs,
/// the OM node id in OM logs; unknown elsewhere.
pub fn peer_entity(component: Component, peer: &str) -> Option<Entity> {
    match component {
        Component::Datanode | Component::DnAudit | Component::DnContainer => Entity::datanode(peer),
        Component::Scm | Component::ScmAudit => Entity::scm(peer),
        Component::Om | Component::OmAudit | Component::OmSysAudit => Entity::om(peer),
        _ => None,
    }
}

fn entities(event: &RatisEvent, component: Component) -> Vec<Entity> {
    let mut out = Vec::new();
    if let Some(member) = event.member() {
        out.extend(Entity::group(&member.group));
        out.extend(peer_entity(component, &member.peer));
    }
    match event {
        RatisEvent::WriteTimeout {
            container,
            local,
            pipeline,
            datanode,
            ..
        } => {
            if let Some(p) = pipeline.as_deref() {
                out.extend(entity::group_of_pipeline(p).and_then(|g| Entity::group(&g)));
                out.extend(Entity::pipeline(p));
            }
            out.extend(datanode.as_deref().and_then(Entity::datanode));
            out.extend(container.map(Entity::Container));
            if let (Some(container), Some(local)) = (container, local) {
                out.push(Entity::Block {
                    container: *container,
                    local: *local,
                });
            }
        }
        RatisEvent::ElectionResponse { replier, .. } => {
            out.extend(peer_entity(component, replier));
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{EventData, classify};
    use crate::record::{ReadOptions, Record, read_records};

    const DN1: &str = "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c";
    const MEMBER: &str = "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4";

    fn records(text: &str) -> Vec<Record> {
        let mut out = Vec::new();
        let (_, error) = read_records(&mut text.as_bytes(), &ReadOptions::default(), &mut |r| {
            out.push(r)
        });
        assert!(error.is_none());
        out
    }

    /// Classifies every record of `text` (as a datanode log) into its Ratis event.
    fn typed(text: &str) -> Vec<(RatisEvent, Vec<String>)> {
        records(text)
            .iter()
            .map(|r| {
                let t = classify(r, Component::Datanode)
                    .unwrap_or_else(|| panic!("untyped: {}", r.message));
                let EventData::Ratis(e) = t.data else {
                    panic!("not a Ratis event: {:?}", t.data)
                };
                (e, t.entities.iter().map(ToString::to_string).collect())
            })
            .collect()
    }

    /// One line of each layout: the file layout with the full logger and the console/compose
    /// layout with `%c{2}`.
    fn both_layouts(thread: &str, level: &str, logger: &str, msg: &str) -> [String; 2] {
        let short: Vec<&str> = logger.rsplitn(3, '.').collect();
        let short = format!("{}.{}", short[1], short[0]);
        [
            format!("2026-03-04 10:12:01,118 [{thread}] {level} {logger}: {msg}\n"),
            format!("datanode-1  | 2026-03-04 10:12:01,118 [{thread}] {level} {short}: {msg}\n"),
        ]
    }

    fn one(thread: &str, level: &str, logger: &str, msg: &str) -> (RatisEvent, Vec<String>) {
        let mut results = both_layouts(thread, level, logger, msg)
            .iter()
            .map(|text| {
                let mut all = typed(text);
                assert_eq!(all.len(), 1, "{text}");
                all.remove(0)
            })
            .collect::<Vec<_>>();
        let second = results.pop().unwrap();
        let first = results.pop().unwrap();
        assert_eq!(first, second, "layouts disagree");
        first
    }

    const DIV: &str = "org.apache.ratis.server.RaftServer$Division";
    const WORKER: &str = "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker";

    #[test]
    fn role_change_reads_padded_roles() {
        let (e, entities) = one(
            &format!("{MEMBER}-LeaderStateImpl"),
            "INFO",
            DIV,
            &format!(
                "{MEMBER}: changes role from    LEADER to FOLLOWER at term 7 for StepDownReason:HIGHER_TERM"
            ),
        );
        assert_eq!(e.kind(), "ratis_role_change");
        let RatisEvent::RoleChange {
            member,
            from,
            to,
            term,
            reason,
        } = e
        else {
            panic!()
        };
        assert_eq!(
            (from.as_str(), to.as_str(), term),
            ("LEADER", "FOLLOWER", 7)
        );
        assert_eq!(reason, "StepDownReason:HIGHER_TERM");
        assert_eq!(member.peer, DN1);
        assert_eq!(member.group, "group-D2C8A1B9F0E4");
        assert_eq!(
            entities,
            vec!["group:D2C8A1B9F0E4".to_string(), format!("datanode:{DN1}")]
        );

        let (e, _) = one(
            "x",
            "INFO",
            DIV,
            &format!(
                "{MEMBER}: changes role from  FOLLOWER to CANDIDATE at term 5 for changeToCandidate"
            ),
        );
        assert!(
            matches!(e, RatisEvent::RoleChange { ref from, term: 5, .. } if from == "FOLLOWER")
        );
        let (e, _) = one(
            "x",
            "INFO",
            DIV,
            &format!(
                "{MEMBER}: changes role from      null to FOLLOWER at term 0 for startAsFollower"
            ),
        );
        assert!(matches!(e, RatisEvent::RoleChange { ref from, .. } if from == "null"));
    }

    #[test]
    fn role_change_on_scm_names_the_scm() {
        let text = "2026-08-20 14:00:00,000 [x] INFO org.apache.ratis.server.RaftServer$Division: 1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5@group-112233445566: changes role from CANDIDATE to LEADER at term 5 for changeToLeader\n";
        let r = &records(text)[0];
        let t = classify(r, Component::Scm).unwrap();
        assert_eq!(t.data.kind(), "ratis_role_change");
        assert!(
            t.entities
                .contains(&Entity::Scm("1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5".into()))
        );
        let t = classify(r, Component::Om).unwrap();
        assert!(t.entities.iter().any(|e| e.kind() == "om"));
    }

    #[test]
    fn leader_change_and_stale_leader() {
        let (e, _) = one(
            "grpc-default-executor-12",
            "INFO",
            DIV,
            &format!(
                "{MEMBER}: change Leader from null to 8a1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e at term 7 for APPEND_ENTRIES, leader elected after 113ms"
            ),
        );
        assert_eq!(
            e,
            RatisEvent::LeaderChange {
                member: split_member(MEMBER).unwrap().0,
                old_leader: None,
                new_leader: Some("8a1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e".into()),
                term: 7,
                op: "APPEND_ENTRIES".into(),
                elected_after_ms: Some(113),
            }
        );
        let (e, _) = one(
            "x",
            "INFO",
            DIV,
            &format!("{MEMBER}: change Leader from {DN1} to null at term 8 for changeToCandidate"),
        );
        assert!(matches!(
            e,
            RatisEvent::LeaderChange {
                new_leader: None,
                elected_after_ms: None,
                term: 8,
                ..
            }
        ));
        let (e, _) = one(
            "x",
            "WARN",
            DIV,
            &format!(
                "{MEMBER}: Failed to recognize {DN1} as leader for APPEND_ENTRIES since peerTerm = 5 < currentTerm = 7"
            ),
        );
        assert!(matches!(
            e,
            RatisEvent::StaleLeaderRejected {
                peer_term: 5,
                current_term: 7,
                ..
            }
        ));
    }

    #[test]
    fn leader_state_lines() {
        let (e, _) = one(
            "x",
            "WARN",
            DIV,
            &format!(
                "{MEMBER}-LeaderStateImpl: Lost leadership on term: 7. Election timeout: 5000ms. In charge for: 61234ms. Conf: -1: peers:[]|listeners:[], old=null"
            ),
        );
        assert_eq!(e.kind(), "ratis_lost_leadership");
        assert!(matches!(
            e,
            RatisEvent::LostLeadership {
                term: 7,
                election_timeout_ms: Some(5000),
                in_charge_ms: Some(61234),
                ..
            }
        ));
        let (e, _) = one(
            "x",
            "WARN",
            DIV,
            &format!("{MEMBER}-LeaderStateImpl: Failed to step down for term 7"),
        );
        assert!(matches!(e, RatisEvent::StepDownFailed { term: 7, .. }));
    }

    #[test]
    fn votes_and_appends() {
        let (e, _) = one(
            "grpc-default-executor-9",
            "INFO",
            DIV,
            &format!(
                "{MEMBER}: receive requestVote(PRE_VOTE, 6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71, group-D2C8A1B9F0E4, 6, (t:6, i:18341))"
            ),
        );
        assert!(
            matches!(e, RatisEvent::VoteRequest { candidate_term: 6, candidate_last_index: Some(18341), ref phase, .. } if phase == "PRE_VOTE")
        );
        let (e, _) = one(
            "x",
            "INFO",
            DIV,
            &format!(
                "{MEMBER} replies to ELECTION vote request: 6e8d<-3f2b#0:OK-t7. Peer's state: {MEMBER}:t7, leader=null"
            ),
        );
        assert!(matches!(e, RatisEvent::VoteReply { ref phase, .. } if phase == "ELECTION"));
        let (e, _) = one(
            "x",
            "INFO",
            DIV,
            &format!(
                "{MEMBER}: appendEntries* reply 6e8d<-3f2b#0:FAIL-t7,INCONSISTENCY,nextIndex=18342,followerCommit=18341,matchIndex=-1"
            ),
        );
        assert!(
            matches!(e, RatisEvent::AppendReply { next_index: Some(18342), result: Some(ref r), .. } if r == "INCONSISTENCY")
        );
        let (e, _) = one(
            "x",
            "INFO",
            DIV,
            &format!(
                "{MEMBER}: Failed appendEntries as previous log entry ((t:7, i:18342)) is not found"
            ),
        );
        assert!(matches!(
            e,
            RatisEvent::AppendPreviousMissing {
                previous_term: Some(7),
                previous_index: Some(18342),
                ..
            }
        ));
    }

    #[test]
    fn elections_follower_state_and_role_daemons() {
        let le = "org.apache.ratis.server.impl.LeaderElection";
        let name = format!("{MEMBER}-LeaderElection3");
        let (e, _) = one(
            &name,
            "INFO",
            le,
            &format!("{name} PRE_VOTE round 0: submit vote requests at term 5 for conf=-1"),
        );
        assert!(
            matches!(e, RatisEvent::ElectionSubmit { round: 0, term: 5, ref election, .. } if election == "LeaderElection3")
        );
        let (e, _) = one(
            &name,
            "INFO",
            le,
            &format!("{name} PRE_VOTE round 0: result REJECTED"),
        );
        assert!(matches!(e, RatisEvent::ElectionResult { ref result, .. } if result == "REJECTED"));
        let (e, _) = one(
            &name,
            "INFO",
            le,
            &format!("{name}: ELECTION PASSED received 2 response(s) and 0 exception(s):"),
        );
        assert!(
            matches!(e, RatisEvent::ElectionResponses { responses: 2, exceptions: 0, ref result, .. } if result == "PASSED")
        );
        let (e, entities) = one(
            &name,
            "INFO",
            le,
            &format!("  Response 0: {DN1}<-6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71#0:OK-t6"),
        );
        assert!(matches!(
            e,
            RatisEvent::ElectionResponse {
                granted: true,
                index: 0,
                ..
            }
        ));
        assert_eq!(
            entities,
            vec!["datanode:6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71".to_string()]
        );

        let (e, _) = one(
            "x",
            "INFO",
            "org.apache.ratis.server.impl.FollowerState",
            &format!(
                "{MEMBER}-FollowerState: change to CANDIDATE, lastRpcElapsedTime:5219ms, electionTimeout:5012ms"
            ),
        );
        assert!(matches!(
            e,
            RatisEvent::ElectionTimeout {
                last_rpc_elapsed_ms: Some(5219),
                election_timeout_ms: Some(5012),
                ..
            }
        ));
        let (e, _) = one(
            "x",
            "INFO",
            "org.apache.ratis.server.impl.FollowerState",
            &format!(
                "{MEMBER}: change to CANDIDATE, lastRpcElapsedTime:5236ms, electionTimeout:5119ms"
            ),
        );
        assert!(matches!(
            e,
            RatisEvent::ElectionTimeout { ref member, last_rpc_elapsed_ms: Some(5236), .. } if member.member == MEMBER
        ));
        let (e, _) = one(
            "x",
            "INFO",
            "org.apache.ratis.server.impl.RoleInfo",
            &format!("{DN1}: shutdown {MEMBER}-LeaderStateImpl"),
        );
        assert!(
            matches!(e, RatisEvent::RoleDaemon { ref action, ref daemon, .. } if action == "shutdown" && daemon == "LeaderStateImpl")
        );
    }

    #[test]
    fn log_truncate_reads_the_continuation_lines() {
        let text = format!(
            "2026-03-04 10:12:01,245 [grpc-default-executor-12] INFO {WORKER}: {MEMBER}-SegmentedRaftLogWorker: Truncating segments truncate(18342)\n  toTruncate: (17901, 18345) isOpen? true, length=96231, newEndIndex=18341\n    toDelete: [], start index 18342\n\
             dn1 | 2026-03-04 10:12:01,245 [grpc-default-executor-12] INFO segmented.SegmentedRaftLogWorker: {MEMBER}-SegmentedRaftLogWorker: Truncating segments truncate(18342)\n\
             dn1 |   toTruncate: (17901, 18345) isOpen? true, length=96231, newEndIndex=18341\n\
             dn1 |     toDelete: [], start index 18342\n"
        );
        // The two layouts cannot share a stream: read them one by one.
        let (file, compose) = text.split_at(text.find("dn1 |").unwrap());
        for part in [file, compose] {
            let all = typed(part);
            assert_eq!(all.len(), 1, "{part}");
            let (e, entities) = &all[0];
            assert_eq!(e.kind(), "ratis_log_truncate");
            assert!(matches!(
                e,
                RatisEvent::LogTruncate {
                    index: 18342,
                    segment_start: Some(17901),
                    segment_end: Some(18345),
                    new_end_index: Some(18341),
                    ..
                }
            ));
            assert!(entities.contains(&"group:D2C8A1B9F0E4".to_string()));
        }
    }

    #[test]
    fn segment_lines() {
        let w = format!("{MEMBER}-SegmentedRaftLogWorker");
        let cases = [
            (
                format!(
                    "{w}: Truncated log file /data/ratis/x/current/log_inprogress_17901 to length 96231 and moved it to /data/ratis/x/current/log_17901-18341"
                ),
                "ratis_log_file_truncated",
            ),
            (
                format!(
                    "{w}: Deleted RaftLog segment for truncate(18342): path=/data/ratis/x/current/log_18342-18400"
                ),
                "ratis_segment_deleted",
            ),
            (
                format!("{w}: Rolling segment log-17501_18000 to index:18000"),
                "ratis_segment_rolling",
            ),
            (
                format!(
                    "{w}: Rolled log segment from /a/log_inprogress_17501 to /a/log_17501-18000"
                ),
                "ratis_segment_rolled",
            ),
            (
                format!("{w}: Starting segment from index:18001"),
                "ratis_segment_started",
            ),
            (
                format!("{w}: created new log segment /a/log_inprogress_18001"),
                "ratis_segment_created",
            ),
            (
                format!(
                    "{w}: writeStateMachineData failed for index 18342, entry=(t:6, i:18342), STATEMACHINELOGENTRY, x"
                ),
                "ratis_write_sm_data_failed",
            ),
        ];
        for (msg, kind) in cases {
            let (e, _) = one(&w, "INFO", WORKER, &msg);
            assert_eq!(e.kind(), kind, "{msg}");
        }
        let (e, _) = one(
            &w,
            "INFO",
            WORKER,
            &format!("{w}: Truncated log file /a to length 96231 and moved it to /b"),
        );
        assert!(matches!(
            e,
            RatisEvent::LogFileTruncated {
                length: Some(96231),
                ..
            }
        ));
        let (e, _) = one(
            &w,
            "INFO",
            WORKER,
            &format!("{w}: Rolling segment log-17501_18000 to index:18000"),
        );
        assert!(matches!(
            e,
            RatisEvent::SegmentRolling {
                index: Some(18000),
                ..
            }
        ));
    }

    #[test]
    fn write_timeout_names_the_pending_entry() {
        let text = format!(
            "2026-03-04 10:11:58,402 [{MEMBER}-SegmentedRaftLogWorker] WARN {WORKER}: Timeout 0/~\n\
org.apache.ratis.protocol.exceptions.TimeoutIOException: Timeout 10s: WriteLog:18342: (t:6, i:18342), STATEMACHINELOGENTRY, cmdType: WriteChunk traceID: \"\" containerID: 1043 datanodeUuid: \"{DN1}\" pipelineID: \"7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b\" writeChunk {{ blockID {{ containerID: 1043 localID: 113750153625600019 blockCommitSequenceId: 0 }} chunkData {{ chunkName: \"113750153625600019_chunk_0\" offset: 0 len: 4194304 }} }}, container path=/data/disk2/hdds/1043-writeStateMachineData\n\
\tat org.apache.ratis.util.IOUtils.getFromFuture(IOUtils.java:89)\n"
        );
        let all = typed(&text);
        let (e, entities) = &all[0];
        assert_eq!(
            e,
            &RatisEvent::WriteTimeout {
                retry: 0,
                max_retries: None,
                term: Some(6),
                index: Some(18342),
                cmd: Some("WriteChunk".into()),
                container: Some(1043),
                local: Some(113750153625600019),
                chunk: Some("113750153625600019_chunk_0".into()),
                pipeline: Some("7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b".into()),
                datanode: Some(DN1.into()),
            }
        );
        for want in [
            "group:41A9C03D5E7B",
            "container:1043",
            "block:1043:113750153625600019",
            "pipeline:7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b",
        ] {
            assert!(entities.contains(&want.to_string()), "{want}: {entities:?}");
        }
        let (e, _) = one("x", "WARN", WORKER, "Timeout 3/5");
        assert!(matches!(
            e,
            RatisEvent::WriteTimeout {
                retry: 3,
                max_retries: Some(5),
                index: None,
                ..
            }
        ));
    }

    #[test]
    fn raft_log_and_cache_trace_lines() {
        let rl = "org.apache.ratis.server.raftlog.RaftLog";
        let (e, entities) = one("x", "DEBUG", rl, "truncateIndex=18342, arrayIndex=0");
        assert_eq!(
            e,
            RatisEvent::TruncateIndex {
                truncate_index: 18342,
                array_index: 0
            }
        );
        assert!(entities.is_empty());
        let (e, _) = one("x", "DEBUG", rl, "truncateIndex=-1, arrayIndex=0");
        assert!(matches!(
            e,
            RatisEvent::TruncateIndex {
                truncate_index: -1,
                ..
            }
        ));
        let (e, _) = one(
            "x",
            "TRACE",
            rl,
            &format!(
                "{MEMBER}-SegmentedRaftLog: appendEntry (t:7, i:18343), STATEMACHINELOGENTRY, 626@client-3E8A41D7C2B9"
            ),
        );
        assert!(
            matches!(e, RatisEvent::AppendEntry { term: Some(7), index: Some(18343), ref body, .. } if body == "STATEMACHINELOGENTRY")
        );
        let (e, _) = one(
            "x",
            "TRACE",
            rl,
            &format!(
                "{MEMBER}-SegmentedRaftLog: appendEntry (t:7, i:18342), CONFIGURATIONENTRY(current:id: \"a\""
            ),
        );
        assert!(
            matches!(e, RatisEvent::AppendEntry { ref body, .. } if body == "CONFIGURATIONENTRY")
        );
        let (e, _) = one(
            "x",
            "TRACE",
            "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogCache",
            &format!(
                "{MEMBER}-SegmentedRaftLogCache: truncate to 18342, arrayIndex=0, ti=(t:7, i:18342), storedEntry=(t:6, i:18342), entries=[(t:7, i:18343), STATEMACHINELOGENTRY, 626@client-3E8A41D7C2B9, (t:7, i:18344), STATEMACHINELOGENTRY, 418@client-1]"
            ),
        );
        assert_eq!(
            e,
            RatisEvent::CacheTruncate {
                member: split_member(MEMBER).unwrap().0,
                index: 18342,
                new_term: Some(7),
                stored_term: Some(6),
                new_indexes: vec![18343, 18344],
            }
        );
    }

    #[test]
    fn updater_lines() {
        let up = "org.apache.ratis.server.impl.StateMachineUpdater";
        let (e, _) = one(
            "x",
            "INFO",
            up,
            &format!("{MEMBER}-StateMachineUpdater: Took a snapshot at index 17585"),
        );
        assert!(matches!(e, RatisEvent::SnapshotTaken { index: 17585, .. }));
        let (e, _) = one(
            "x",
            "ERROR",
            up,
            &format!(
                "Exception while {MEMBER}-StateMachineUpdater: applying txn index=18345, nextLog=(t:7, i:18346)"
            ),
        );
        assert!(matches!(
            e,
            RatisEvent::ApplyFailed {
                index: Some(18345),
                ..
            }
        ));
    }

    #[test]
    fn layouts_without_a_logger_still_type() {
        let rec = Record {
            line: 1,
            ts: None,
            level: None,
            thread: None,
            logger: None,
            message: format!(
                "{MEMBER}: changes role from    LEADER to FOLLOWER at term 7 for APPEND_ENTRIES"
            ),
            throwable: None,
            continuation: String::new(),
            continuation_lines: 0,
            host: None,
            component: None,
            headerless: false,
        };
        let t = classify(&rec, Component::Datanode).unwrap();
        assert_eq!(t.data.kind(), "ratis_role_change");
    }

    #[test]
    fn bad_input_is_not_typed_and_never_panics() {
        let bad = [
            "",
            "@group-",
            "x@group-D2C8A1B9F0E4: changes role from",
            "x@group-D2C8A1B9F0E4: changes role from LEADER to FOLLOWER at term x for y",
            "x@group-D2C8A1B9F0E4: change Leader from a to b at term",
            "Timeout x/~",
            "truncateIndex=a, arrayIndex=0",
            "é@group-D2C8A1B9F0E4-SegmentedRaftLogWorker: Truncating segments truncate(",
        ];
        for msg in bad {
            for tail in [
                "RaftServer$Division",
                "SegmentedRaftLogWorker",
                "LeaderElection",
                "RaftLog",
                "SegmentedRaftLogCache",
                "StateMachineUpdater",
                "RoleInfo",
                "FollowerState",
            ] {
                assert!(by_logger(tail, msg, "").is_none(), "{tail}: {msg}");
            }
        }
    }

    #[test]
    fn cut_lines_never_panic() {
        let lines = [
            format!(
                "{MEMBER}: changes role from    LEADER to FOLLOWER at term 7 for candidate:{DN1}"
            ),
            format!(
                "{MEMBER}: change Leader from null to {DN1} at term 7 for APPEND_ENTRIES, leader elected after 58ms"
            ),
            format!("{MEMBER}-SegmentedRaftLogWorker: Truncating segments truncate(18342)"),
            format!(
                "{MEMBER}-SegmentedRaftLogCache: truncate to 18342, arrayIndex=0, ti=(t:7, i:18342), storedEntry=(t:6, i:18342), entries=[(t:7, i:18343)]"
            ),
            format!(
                "{MEMBER}-SegmentedRaftLog: appendEntry (t:7, i:18343), STATEMACHINELOGENTRY, 626@client-3E8A41D7C2B9"
            ),
            format!(
                "{MEMBER}-LeaderElection3: ELECTION PASSED received 2 response(s) and 0 exception(s):"
            ),
            format!(
                "{MEMBER}: receive requestVote(PRE_VOTE, {DN1}, group-D2C8A1B9F0E4, 6, (t:6, i:18341))"
            ),
            "Timeout 0/~".to_string(),
            "  Response 0: a<-b#0:OK-t6".to_string(),
        ];
        let continuation = "  toTruncate: (17901, 18345) isOpen? true, length=96231, newEndIndex=18341\nWriteLog:1: (t:6, i:1), STATEMACHINELOGENTRY, containerID: 5 pipelineID: \"é";
        for line in &lines {
            for (cut, _) in line.char_indices() {
                for tail in [
                    "RaftServer$Division",
                    "SegmentedRaftLogWorker",
                    "LeaderElection",
                    "RaftLog",
                    "SegmentedRaftLogCache",
                    "StateMachineUpdater",
                    "RoleInfo",
                    "FollowerState",
                ] {
                    let _ = by_logger(tail, &line[..cut], continuation);
                    for (c, _) in continuation.char_indices().step_by(7) {
                        let _ = by_logger(tail, line, &continuation[..c]);
                    }
                }
            }
        }
    }

    #[test]
    fn every_kind_is_registered() {
        let m = || split_member(MEMBER).unwrap().0;
        let samples = [
            RatisEvent::RoleChange {
                member: m(),
                from: String::new(),
                to: String::new(),
                term: 0,
                reason: String::new(),
            },
            RatisEvent::LeaderChange {
                member: m(),
                old_leader: None,
                new_leader: None,
                term: 0,
                op: String::new(),
                elected_after_ms: None,
            },
            RatisEvent::StaleLeaderRejected {
                member: m(),
                leader: String::new(),
                op: String::new(),
                peer_term: 0,
                current_term: 0,
            },
            RatisEvent::LostLeadership {
                member: m(),
                term: 0,
                election_timeout_ms: None,
                in_charge_ms: None,
            },
            RatisEvent::StepDownFailed {
                member: m(),
                term: 0,
            },
            RatisEvent::ElectionTimeout {
                member: m(),
                last_rpc_elapsed_ms: None,
                election_timeout_ms: None,
            },
            RatisEvent::RoleDaemon {
                member: m(),
                action: String::new(),
                daemon: String::new(),
            },
            RatisEvent::ElectionSubmit {
                member: m(),
                election: String::new(),
                phase: String::new(),
                round: 0,
                term: 0,
            },
            RatisEvent::ElectionResult {
                member: m(),
                election: String::new(),
                phase: String::new(),
                round: 0,
                result: String::new(),
            },
            RatisEvent::ElectionResponses {
                member: m(),
                election: String::new(),
                phase: String::new(),
                result: String::new(),
                responses: 0,
                exceptions: 0,
            },
            RatisEvent::ElectionResponse {
                index: 0,
                reply: String::new(),
                requestor: String::new(),
                replier: String::new(),
                granted: false,
            },
            RatisEvent::VoteRequest {
                member: m(),
                phase: String::new(),
                candidate: String::new(),
                candidate_term: 0,
                candidate_last_index: None,
            },
            RatisEvent::VoteReply {
                member: m(),
                phase: String::new(),
                reply: String::new(),
            },
            RatisEvent::AppendReply {
                member: m(),
                result: None,
                next_index: None,
                reply: String::new(),
            },
            RatisEvent::AppendPreviousMissing {
                member: m(),
                previous_term: None,
                previous_index: None,
            },
            RatisEvent::LogTruncate {
                member: m(),
                index: 0,
                segment_start: None,
                segment_end: None,
                new_end_index: None,
            },
            RatisEvent::LogFileTruncated {
                member: m(),
                file: String::new(),
                length: None,
                moved_to: String::new(),
            },
            RatisEvent::SegmentDeleted {
                member: m(),
                reason: String::new(),
                path: String::new(),
            },
            RatisEvent::SegmentRolling {
                member: m(),
                segment: String::new(),
                index: None,
            },
            RatisEvent::SegmentRolled {
                member: m(),
                from: String::new(),
                to: String::new(),
            },
            RatisEvent::SegmentStarted {
                member: m(),
                index: None,
            },
            RatisEvent::SegmentCreated {
                member: m(),
                path: String::new(),
            },
            RatisEvent::WriteTimeout {
                retry: 0,
                max_retries: None,
                term: None,
                index: None,
                cmd: None,
                container: None,
                local: None,
                chunk: None,
                pipeline: None,
                datanode: None,
            },
            RatisEvent::WriteStateMachineDataFailed {
                member: m(),
                index: 0,
                term: None,
            },
            RatisEvent::TruncateIndex {
                truncate_index: 0,
                array_index: 0,
            },
            RatisEvent::AppendEntry {
                member: m(),
                term: None,
                index: None,
                body: String::new(),
            },
            RatisEvent::CacheTruncate {
                member: m(),
                index: 0,
                new_term: None,
                stored_term: None,
                new_indexes: vec![],
            },
            RatisEvent::SnapshotTaken {
                member: m(),
                index: 0,
            },
            RatisEvent::ApplyFailed {
                member: m(),
                index: None,
            },
        ];
        assert_eq!(samples.len(), KINDS.len());
        for s in &samples {
            assert!(KINDS.iter().any(|k| k.kind == s.kind()), "{}", s.kind());
        }
    }

    #[test]
    fn role_change_serialises_the_contract_fields() {
        let (e, _) = one(
            "x",
            "INFO",
            DIV,
            &format!(
                "{MEMBER}: changes role from    LEADER to FOLLOWER at term 7 for candidate:{DN1}"
            ),
        );
        let json = serde_json::to_value(&e).unwrap();
        for field in ["member", "peer", "group", "from", "to", "term", "reason"] {
            assert!(json.get(field).is_some(), "{field}: {json}");
        }
    }
}
