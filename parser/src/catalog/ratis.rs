//! Apache Ratis statements written inside Ozone daemons (datanode pipelines, SCM and OM HA):
//! role and leader changes, elections, log truncation, segment rolls, write timeouts, and the
//! RaftLog / SegmentedRaftLogCache DEBUG/TRACE lines that map log indexes to entries.
//!
//! Templates are from apache/ratis `ratis-3.2.1` (../shared/ozone-logs/datanode.md 2.1, 2.2 and
//! scm.md 2.1). Several classes log through another class's logger: `RaftServerImpl`,
//! `ServerState` and `LeaderStateImpl` use `RaftServer$Division`, `SegmentedRaftLog` and
//! `RaftLogBase` use `org.apache.ratis.server.raftlog.RaftLog`. A daemon prints itself as its
//! member id with its class glued on (`<member>-SegmentedRaftLogWorker`, a `Daemon` slot).
//!
//! A member id `<peerId>@group-<12 HEX>` starts most messages. The peer is a datanode UUID in
//! datanode logs, the SCM id in SCM logs and the OM node id in OM logs, so the peer's entity
//! depends on the record's component.

use super::template::{Matched, catalogue, number_after, u64_prefix};
use super::{Input, Typed};
use crate::entity::{self, Entity, TermIndex, member_id, term_index};
use crate::source::Component;
use serde::Serialize;
use std::sync::Arc;

/// A Raft group member as printed by `RaftGroupMemberId.toString()`. Shared: a stream names a
/// handful of members on many lines ([`crate::event::Names`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
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
        member: Arc<Member>,
        /// `RoleInfo.toString()` pads the old role to 9 characters; stored trimmed.
        from: String,
        to: String,
        term: u64,
        reason: String,
    },
    /// `ServerState.setLeader`.
    LeaderChange {
        #[serde(flatten)]
        member: Arc<Member>,
        old_leader: Option<String>,
        new_leader: Option<String>,
        term: u64,
        op: String,
        elected_after_ms: Option<u64>,
    },
    /// `ServerState`: an append from a leader of an older term.
    StaleLeaderRejected {
        #[serde(flatten)]
        member: Arc<Member>,
        leader: String,
        op: String,
        peer_term: u64,
        current_term: u64,
    },
    /// `LeaderStateImpl`: the leader lost a majority of heartbeats.
    LostLeadership {
        #[serde(flatten)]
        member: Arc<Member>,
        term: u64,
        election_timeout_ms: Option<u64>,
        in_charge_ms: Option<u64>,
    },
    /// `LeaderStateImpl`.
    StepDownFailed {
        #[serde(flatten)]
        member: Arc<Member>,
        term: u64,
    },
    /// `FollowerState`: election timeout, the follower becomes a candidate.
    ElectionTimeout {
        #[serde(flatten)]
        member: Arc<Member>,
        last_rpc_elapsed_ms: Option<u64>,
        election_timeout_ms: Option<u64>,
    },
    /// `RoleInfo`: a role daemon starts or shuts down (`start`/`shutdown`).
    RoleDaemon {
        #[serde(flatten)]
        member: Arc<Member>,
        action: String,
        daemon: String,
    },
    /// `LeaderElection`: `submit vote requests`.
    ElectionSubmit {
        #[serde(flatten)]
        member: Arc<Member>,
        election: String,
        phase: String,
        round: u64,
        term: u64,
    },
    /// `LeaderElection`: `round N: result R`.
    ElectionResult {
        #[serde(flatten)]
        member: Arc<Member>,
        election: String,
        phase: String,
        round: u64,
        result: String,
    },
    /// `LeaderElection`: `received N response(s) and M exception(s):`.
    ElectionResponses {
        #[serde(flatten)]
        member: Arc<Member>,
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
        member: Arc<Member>,
        phase: String,
        candidate: String,
        candidate_term: u64,
        candidate_last_index: Option<u64>,
    },
    /// `RaftServerImpl`: `replies to {} vote request`.
    VoteReply {
        #[serde(flatten)]
        member: Arc<Member>,
        phase: String,
        reply: String,
    },
    /// `RaftServerImpl`: `appendEntries* reply` (INCONSISTENCY and friends).
    AppendReply {
        #[serde(flatten)]
        member: Arc<Member>,
        result: Option<String>,
        next_index: Option<u64>,
        reply: String,
    },
    /// `RaftServerImpl`: `Failed appendEntries as previous log entry ({}) is not found`.
    AppendPreviousMissing {
        #[serde(flatten)]
        member: Arc<Member>,
        previous_term: Option<u64>,
        previous_index: Option<u64>,
    },
    /// `SegmentedRaftLogWorker`: `Truncating segments truncate(N)` (multi-line
    /// `TruncationSegments`).
    LogTruncate {
        #[serde(flatten)]
        member: Arc<Member>,
        /// The first index removed: entries at `index` and above are gone.
        index: u64,
        segment_start: Option<u64>,
        segment_end: Option<u64>,
        new_end_index: Option<u64>,
    },
    /// `SegmentedRaftLogWorker`: the truncated segment file was rewritten.
    LogFileTruncated {
        #[serde(flatten)]
        member: Arc<Member>,
        file: String,
        length: Option<u64>,
        moved_to: String,
    },
    /// `SegmentedRaftLogWorker`: `Deleted RaftLog segment for {}: path={}`.
    SegmentDeleted {
        #[serde(flatten)]
        member: Arc<Member>,
        reason: String,
        path: String,
    },
    /// `SegmentedRaftLogWorker`: `Rolling segment {} to index:{}`.
    SegmentRolling {
        #[serde(flatten)]
        member: Arc<Member>,
        segment: String,
        index: Option<u64>,
    },
    /// `SegmentedRaftLogWorker`: `Rolled log segment from {} to {}`.
    SegmentRolled {
        #[serde(flatten)]
        member: Arc<Member>,
        from: String,
        to: String,
    },
    /// `SegmentedRaftLogWorker`: `Starting segment from index:{}`.
    SegmentStarted {
        #[serde(flatten)]
        member: Arc<Member>,
        index: Option<u64>,
    },
    /// `SegmentedRaftLogWorker`: `created new log segment {}`.
    SegmentCreated {
        #[serde(flatten)]
        member: Arc<Member>,
        path: String,
    },
    /// `SegmentedRaftLogWorker` WARN `Timeout n/~`: a state machine data write (for Ozone, a
    /// WriteChunk's chunk write) did not finish in time. The entry comes from the
    /// `TimeoutIOException` on the continuation lines.
    WriteTimeout(Box<WriteTimeout>),
    /// `SegmentedRaftLogWorker` ERROR `writeStateMachineData failed for index {}, entry={}`.
    WriteStateMachineDataFailed {
        #[serde(flatten)]
        member: Arc<Member>,
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
        member: Arc<Member>,
        term: Option<u64>,
        index: Option<u64>,
        /// `STATEMACHINELOGENTRY`, `CONFIGURATIONENTRY`, `METADATAENTRY`.
        body: String,
    },
    /// `SegmentedRaftLogCache` TRACE `truncate to {}, arrayIndex={}, ti={}, storedEntry={}, ...`:
    /// the conflicting entry's new and stored term at the truncation point.
    CacheTruncate {
        #[serde(flatten)]
        member: Arc<Member>,
        index: u64,
        new_term: Option<u64>,
        stored_term: Option<u64>,
        /// The indexes of the new entries that follow (`entries=[...]`).
        new_indexes: Vec<u64>,
    },
    /// `StateMachineUpdater`: `Took a snapshot at index {}`.
    SnapshotTaken {
        #[serde(flatten)]
        member: Arc<Member>,
        index: u64,
    },
    /// `StateMachineUpdater` ERROR `Exception while {}: applying txn index={}, nextLog={}`.
    ApplyFailed {
        #[serde(flatten)]
        member: Arc<Member>,
        index: Option<u64>,
    },
}

/// The fields of [`RatisEvent::WriteTimeout`], boxed: it is one of the largest payloads, and every
/// `Event` is as large as its largest (issue 11).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WriteTimeout {
    pub retry: u64,
    /// `None` for unbounded retries (`/~`).
    pub max_retries: Option<u64>,
    pub term: Option<u64>,
    pub index: Option<u64>,
    pub cmd: Option<String>,
    pub container: Option<u64>,
    pub local: Option<u64>,
    pub chunk: Option<String>,
    pub pipeline: Option<String>,
    pub datanode: Option<String>,
}

/// Matches the variants that name a member, binding it to `$member` for `$named`; the others
/// give `None`.
macro_rules! with_member {
    ($event:expr, $member:ident => $named:expr) => {
        match $event {
            RatisEvent::RoleChange { $member, .. }
            | RatisEvent::LeaderChange { $member, .. }
            | RatisEvent::StaleLeaderRejected { $member, .. }
            | RatisEvent::LostLeadership { $member, .. }
            | RatisEvent::StepDownFailed { $member, .. }
            | RatisEvent::ElectionTimeout { $member, .. }
            | RatisEvent::RoleDaemon { $member, .. }
            | RatisEvent::ElectionSubmit { $member, .. }
            | RatisEvent::ElectionResult { $member, .. }
            | RatisEvent::ElectionResponses { $member, .. }
            | RatisEvent::VoteRequest { $member, .. }
            | RatisEvent::VoteReply { $member, .. }
            | RatisEvent::AppendReply { $member, .. }
            | RatisEvent::AppendPreviousMissing { $member, .. }
            | RatisEvent::LogTruncate { $member, .. }
            | RatisEvent::LogFileTruncated { $member, .. }
            | RatisEvent::SegmentDeleted { $member, .. }
            | RatisEvent::SegmentRolling { $member, .. }
            | RatisEvent::SegmentRolled { $member, .. }
            | RatisEvent::SegmentStarted { $member, .. }
            | RatisEvent::SegmentCreated { $member, .. }
            | RatisEvent::WriteStateMachineDataFailed { $member, .. }
            | RatisEvent::AppendEntry { $member, .. }
            | RatisEvent::CacheTruncate { $member, .. }
            | RatisEvent::SnapshotTaken { $member, .. }
            | RatisEvent::ApplyFailed { $member, .. } => $named,
            RatisEvent::ElectionResponse { .. }
            | RatisEvent::WriteTimeout { .. }
            | RatisEvent::TruncateIndex { .. } => None,
        }
    };
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
        with_member!(self, member => Some(member))
    }

    /// [`RatisEvent::member`], to put a stream's shared copy in its place.
    pub fn member_mut(&mut self) -> Option<&mut Arc<Member>> {
        with_member!(self, member => Some(member))
    }
}

/// What one statement's builder returns.
type Built = (RatisEvent, Vec<Entity>);

/// `RaftServerImpl`, `ServerState` and `LeaderStateImpl` log through `RaftServer.Division`'s
/// logger (their own in older Ratis).
const DIVISION: &[&str] = &[
    "org.apache.ratis.server.RaftServer$Division",
    "RaftServerImpl",
    "ServerState",
    "LeaderStateImpl",
];
const WORKER: &str = "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker";
const ELECTION: &str = "org.apache.ratis.server.impl.LeaderElection";
const UPDATER: &str = "org.apache.ratis.server.impl.StateMachineUpdater";
/// `SegmentedRaftLog` and `RaftLogBase` log through `RaftLog`'s logger.
const RAFT_LOG: &[&str] = &[
    "org.apache.ratis.server.raftlog.RaftLog",
    "SegmentedRaftLog",
    "RaftLogBase",
];

// Read at apache/ratis `ratis-3.2.1` (Ozone 1.4–HEAD ship Ratis 3.x).
catalogue! {
    event RatisEvent;
    log "daemon" {
    "ratis_role_change", "INFO", "RaftServer$Division (RaftServerImpl)", via DIVISION,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 1.5, 2.1; scm.md 2.1",
        // The old role is `RoleInfo.toString()`, padded to 9 characters.
        "{}: changes role from {} to {} at term {} for {}" [Member, Text, Text, U64, Text] =>
        |m| built(m, RatisEvent::RoleChange {
            member: member(m, 0)?.0,
            from: m.string(1),
            to: m.string(2),
            term: m.u64(3)?,
            reason: m.string(4),
        }),
    // `{}: change Leader from {} to {} at term {} for {}{}`: the suffix is printed when a leader
    // is elected.
    "ratis_leader_change", "INFO", "RaftServer$Division (ServerState)", via DIVISION,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1; scm.md 2.1",
        "{}: change Leader from {} to {} at term {} for {}, leader elected after {}ms" [Member, Name, Name, U64, Text, U64] =>
        |m| leader_change(m, m.u64(5)),
    "ratis_leader_change", "INFO", "RaftServer$Division (ServerState)", via DIVISION,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1; scm.md 2.1",
        "{}: change Leader from {} to {} at term {} for {}" [Member, Name, Name, U64, Text] =>
        |m| leader_change(m, None),
    "ratis_stale_leader_rejected", "WARN", "RaftServer$Division (ServerState)", via DIVISION,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1",
        "{}: Failed to recognize {} as leader for {} since peerTerm = {} < currentTerm = {}" [Member, Name, Text, U64, U64] =>
        |m| built(m, RatisEvent::StaleLeaderRejected {
            member: member(m, 0)?.0,
            leader: m.string(1),
            op: m.string(2),
            peer_term: m.u64(3)?,
            current_term: m.u64(4)?,
        }),
    "ratis_lost_leadership", "WARN", "RaftServer$Division (LeaderStateImpl)", via DIVISION,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1",
        "{}: Lost leadership on term: {}. Election timeout: {}ms. In charge for: {}ms. Conf: {}" [Daemon, U64, U64, U64, Unread] =>
        |m| built(m, RatisEvent::LostLeadership {
            member: member(m, 0)?.0,
            term: m.u64(1)?,
            election_timeout_ms: m.u64(2),
            in_charge_ms: m.u64(3),
        }),
    "ratis_step_down_failed", "WARN", "RaftServer$Division (LeaderStateImpl)", via DIVISION,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1",
        "{}: Failed to step down for term {}" [Daemon, U64] =>
        |m| built(m, RatisEvent::StepDownFailed { member: member(m, 0)?.0, term: m.u64(1)? }),
    "ratis_election_timeout", "INFO", "org.apache.ratis.server.impl.FollowerState",
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1",
        "{}: change to CANDIDATE, lastRpcElapsedTime:{}, electionTimeout:{}" [Daemon, Duration, Duration] =>
        |m| built(m, RatisEvent::ElectionTimeout {
            member: member(m, 0)?.0,
            last_rpc_elapsed_ms: u64_prefix(m.text(1)),
            election_timeout_ms: u64_prefix(m.text(2)),
        }),
    // The peer id, then the daemon's name.
    "ratis_role_daemon", "INFO", "org.apache.ratis.server.impl.RoleInfo",
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1",
        "{}: shutdown {}" [Unread, Daemon] => |m| role_daemon(m, "shutdown"),
    "ratis_role_daemon", "INFO", "org.apache.ratis.server.impl.RoleInfo",
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1",
        "{}: start {}" [Unread, Daemon] => |m| role_daemon(m, "start"),
    "ratis_election_submit", "INFO", ELECTION, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1; scm.md 2.1",
        "{} {} round {}: submit vote requests at term {} for {}" [Daemon, Word, U64, U64, Unread] =>
        |m| {
            let (member, election) = election(m)?;
            built(m, RatisEvent::ElectionSubmit {
                member,
                election,
                phase: m.string(1),
                round: m.u64(2)?,
                term: m.u64(3)?,
            })
        },
    "ratis_election_result", "INFO", ELECTION, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1; scm.md 2.1",
        "{} {} round {}: result {}" [Daemon, Word, U64, Text] =>
        |m| {
            let (member, election) = election(m)?;
            built(m, RatisEvent::ElectionResult {
                member,
                election,
                phase: m.string(1),
                round: m.u64(2)?,
                result: m.string(3),
            })
        },
    "ratis_election_responses", "INFO", ELECTION, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1; scm.md 2.1",
        "{}: {} {} received {} response(s) and {} exception(s):" [Daemon, Word, Text, U64, U64] =>
        |m| {
            let (member, election) = election(m)?;
            built(m, RatisEvent::ElectionResponses {
                member,
                election,
                phase: m.string(1),
                result: m.string(2),
                responses: m.u64(3)?,
                exceptions: m.u64(4)?,
            })
        },
    // The reply: `requestor<-replier#callId:OK|FAIL-t<term>…`.
    "ratis_election_response", "INFO", ELECTION, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1; scm.md 2.1",
        "  Response {}: {}" [U64, RaftReply] =>
        |m| {
            let reply = m.text(1);
            let (requestor, rest) = reply.split_once("<-")?;
            let replier = rest.split('#').next().unwrap_or(rest);
            let granted = rest
                .split_once(':')
                .is_some_and(|(_, r)| r.starts_with("OK"));
            built(m, RatisEvent::ElectionResponse {
                index: m.u64(0)?,
                reply: reply.to_owned(),
                requestor: requestor.to_owned(),
                replier: replier.to_owned(),
                granted,
            })
        },
    // Phase, candidate, its group, its term, its last entry.
    "ratis_vote_request", "INFO", "RaftServer$Division (RaftServerImpl)", via DIVISION,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1",
        "{}: receive requestVote({}, {}, {}, {}, {})" [Member, Word, Name, Unread, U64, TermIndex] =>
        |m| built(m, RatisEvent::VoteRequest {
            member: member(m, 0)?.0,
            phase: m.string(1),
            candidate: m.string(2),
            candidate_term: m.u64(4)?,
            candidate_last_index: term_index(m.text(5)).and_then(|(ti, _)| ti.index),
        }),
    "ratis_vote_reply", "INFO", "RaftServer$Division (RaftServerImpl)", via DIVISION,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1",
        "{} replies to {} vote request: {}. Peer's state: {}" [Member, Word, RaftReply, Unread] =>
        |m| built(m, RatisEvent::VoteReply {
            member: member(m, 0)?.0,
            phase: m.string(1),
            reply: m.string(2),
        }),
    // The reply: `<leader><-<me>#<callId>:FAIL-t<term>,INCONSISTENCY,nextIndex=N,followerCommit=N,matchIndex=N`.
    "ratis_append_reply", "INFO", "RaftServer$Division (RaftServerImpl)", via DIVISION,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1",
        "{}: appendEntries* reply {}" [Member, RaftReply] =>
        |m| {
            let reply = m.text(1);
            built(m, RatisEvent::AppendReply {
                member: member(m, 0)?.0,
                result: reply.split(',').nth(1).map(str::to_owned),
                next_index: number_after(reply, "nextIndex="),
                reply: reply.to_owned(),
            })
        },
    "ratis_append_previous_missing", "INFO", "RaftServer$Division (RaftServerImpl)", via DIVISION,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.1",
        "{}: Failed appendEntries as previous log entry ({}) is not found" [Member, TermIndex] =>
        |m| {
            let ti = term_index(m.text(1)).map(|(ti, _)| ti);
            built(m, RatisEvent::AppendPreviousMissing {
                member: member(m, 0)?.0,
                previous_term: ti.and_then(|t| t.term),
                previous_index: ti.and_then(|t| t.index),
            })
        },
    // `TruncationSegments.toString()`: `truncate(N)\n  toTruncate: (start, end) isOpen? b,
    // length=n, newEndIndex=n\n    toDelete: [..]`.
    "ratis_log_truncate", "INFO", WORKER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 1.1, 1.5, 2.2",
        "{}: Truncating segments {}, start index {}" [Daemon, Truncation, Unread] =>
        |m| {
            let segments = m.text(1);
            let (segment_start, segment_end) = segments
                .split_once("toTruncate: (")
                .and_then(|(_, s)| s.split_once(", "))
                .map_or((None, None), |(a, b)| (u64_prefix(a), u64_prefix(b)));
            built(m, RatisEvent::LogTruncate {
                member: member(m, 0)?.0,
                index: u64_prefix(segments.strip_prefix("truncate(")?)?,
                segment_start,
                segment_end,
                new_end_index: number_after(segments, "newEndIndex="),
            })
        },
    "ratis_log_file_truncated", "INFO", WORKER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2",
        "{}: Truncated log file {} to length {} and moved it to {}" [Daemon, Text, U64, Text] =>
        |m| built(m, RatisEvent::LogFileTruncated {
            member: member(m, 0)?.0,
            file: m.string(1),
            length: m.u64(2),
            moved_to: m.string(3),
        }),
    "ratis_segment_deleted", "INFO", WORKER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2",
        "{}: Deleted RaftLog segment for {}: path={}" [Daemon, Text, Text] =>
        |m| built(m, RatisEvent::SegmentDeleted {
            member: member(m, 0)?.0,
            reason: m.string(1),
            path: m.string(2),
        }),
    "ratis_segment_rolling", "INFO", WORKER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2",
        "{}: Rolling segment {} to index:{}" [Daemon, Text, U64] =>
        |m| built(m, RatisEvent::SegmentRolling {
            member: member(m, 0)?.0,
            segment: m.string(1),
            index: m.u64(2),
        }),
    "ratis_segment_rolled", "INFO", WORKER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2",
        "{}: Rolled log segment from {} to {}" [Daemon, Text, Text] =>
        |m| built(m, RatisEvent::SegmentRolled {
            member: member(m, 0)?.0,
            from: m.string(1),
            to: m.string(2),
        }),
    "ratis_segment_started", "INFO", WORKER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2",
        "{}: Starting segment from index:{}" [Daemon, U64] =>
        |m| built(m, RatisEvent::SegmentStarted { member: member(m, 0)?.0, index: m.u64(1) }),
    "ratis_segment_created", "INFO", WORKER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2",
        "{}: created new log segment {}" [Daemon, Text] =>
        |m| built(m, RatisEvent::SegmentCreated { member: member(m, 0)?.0, path: m.string(1) }),
    // `"Timeout " + retry + (syncTimeoutRetry == -1 ? "/~" : "/" + syncTimeoutRetry)`; the
    // TimeoutIOException on the continuation lines names the entry.
    "ratis_write_timeout", "WARN", WORKER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2, 3.A",
        "Timeout {}/~" [U64] => |m| write_timeout(m, None),
    "ratis_write_timeout", "WARN", WORKER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2, 3.A",
        "Timeout {}/{}" [U64, U64] => |m| write_timeout(m, m.u64(1)),
    "ratis_write_sm_data_failed", "ERROR", WORKER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2",
        "{}: writeStateMachineData failed for index {}, entry={}" [Daemon, U64, LogEntry] =>
        |m| built(m, RatisEvent::WriteStateMachineDataFailed {
            member: member(m, 0)?.0,
            index: m.u64(1)?,
            term: term_index(m.text(2)).and_then(|(ti, _)| ti.term),
        }),
    "ratis_truncate_index", "DEBUG", "org.apache.ratis.server.raftlog.RaftLog (SegmentedRaftLog)", via RAFT_LOG,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2, 3.A",
        "truncateIndex={}, arrayIndex={}" [I64, I64] =>
        |m| built(m, RatisEvent::TruncateIndex { truncate_index: m.i64(0)?, array_index: m.i64(1)? }),
    // `LogProtoUtils.toLogEntryString`: `(t:T, i:I), <BODY>, …`.
    "ratis_append_entry", "TRACE", "org.apache.ratis.server.raftlog.RaftLog (SegmentedRaftLog)", via RAFT_LOG,
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2, 3.A",
        "{}: appendEntry {}" [Daemon, LogEntry] =>
        |m| {
            let entry = m.text(1);
            let (ti, len) = term_index(entry)?;
            let body = entry
                .get(len..)
                .and_then(|s| s.strip_prefix(", "))
                .map(|s| s.split([',', '(', ' ']).next().unwrap_or(s).to_owned())
                .unwrap_or_default();
            built(m, RatisEvent::AppendEntry {
                member: member(m, 0)?.0,
                term: ti.term,
                index: ti.index,
                body,
            })
        },
    "ratis_cache_truncate", "TRACE", "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogCache",
        "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2, 3.A",
        "{}: truncate to {}, arrayIndex={}, ti={}, storedEntry={}, entries={}" [Daemon, U64, Unread, TermIndex, TermIndex, LogEntries] =>
        |m| {
            let term = |i: usize| term_index(m.text(i)).and_then(|(ti, _)| ti.term);
            built(m, RatisEvent::CacheTruncate {
                member: member(m, 0)?.0,
                index: m.u64(1)?,
                new_term: term(3),
                stored_term: term(4),
                new_indexes: entity::find_term_indexes(m.text(5))
                    .filter_map(|t| t.value.index)
                    .collect(),
            })
        },
    "ratis_snapshot_taken", "INFO", UPDATER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2",
        "{}: Took a snapshot at index {}" [Daemon, U64] =>
        |m| built(m, RatisEvent::SnapshotTaken { member: member(m, 0)?.0, index: m.u64(1)? }),
    "ratis_apply_failed", "ERROR", UPDATER, "Ratis 3.x (ratis-3.2.1; Ozone 1.4-HEAD)", "datanode.md 2.2",
        "Exception while {}: applying txn index={}, nextLog={}" [Daemon, U64, Unread] =>
        |m| built(m, RatisEvent::ApplyFailed { member: member(m, 0)?.0, index: m.u64(1) }),
    }
}

// ---------------------------------------------------------------------------------------------
// Builders

/// The member of placeholder `i` and the daemon name glued to it (`-SegmentedRaftLogWorker`,
/// `-LeaderElection7`, empty for a bare member id).
fn member<'a>(m: &Matched<'a>, i: usize) -> Option<(Arc<Member>, &'a str)> {
    let s = m.text(i);
    let (id, len) = member_id(s)?;
    let member = Arc::new(Member {
        member: s[..len].to_owned(),
        peer: id.peer.to_owned(),
        group: format!("group-{}", id.group),
    });
    Some((member, &s[len..]))
}

/// A LeaderElection daemon's member and name (`LeaderElection7`).
fn election(m: &Matched<'_>) -> Option<(Arc<Member>, String)> {
    let (member, daemon) = member(m, 0)?;
    Some((member, daemon.trim_start_matches('-').to_owned()))
}

fn leader_change(m: &Matched<'_>, elected_after_ms: Option<u64>) -> Option<Built> {
    let null_or = |s: &str| (s != "null").then(|| s.to_owned());
    built(
        m,
        RatisEvent::LeaderChange {
            member: member(m, 0)?.0,
            old_leader: null_or(m.text(1)),
            new_leader: null_or(m.text(2)),
            term: m.u64(3)?,
            op: m.string(4),
            elected_after_ms,
        },
    )
}

fn role_daemon(m: &Matched<'_>, action: &str) -> Option<Built> {
    let (member, daemon) = member(m, 1)?;
    built(
        m,
        RatisEvent::RoleDaemon {
            member,
            action: action.to_owned(),
            daemon: daemon.trim_start_matches('-').to_owned(),
        },
    )
}

/// The entry of a `Timeout n/~` warning, from `TimeoutIOException: Timeout 10s: WriteLog:<i>:
/// (t:T, i:I), STATEMACHINELOGENTRY, cmdType: WriteChunk ... containerID: C datanodeUuid: "<uuid>"
/// pipelineID: "<uuid>" writeChunk { blockID { containerID: C localID: L ... } chunkData {
/// chunkName: "<name>" ...` (CSM `smProtoToString` = `TextFormat.shortDebugString`).
fn write_timeout(m: &Matched<'_>, max_retries: Option<u64>) -> Option<Built> {
    let continuation = m.input.record.continuation.as_str();
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
    let block = entity::find_blocks(entry).next().map(|b| b.value);
    let container = block
        .map(|b| b.container)
        .or_else(|| number_after(entry, "containerID: "));
    built(
        m,
        RatisEvent::WriteTimeout(Box::new(WriteTimeout {
            retry: m.u64(0)?,
            max_retries,
            term: ti.and_then(|t| t.term),
            index: ti.and_then(|t| t.index),
            cmd,
            container,
            local: block.map(|b| b.local),
            chunk: quoted("chunkName: \""),
            pipeline: quoted("pipelineID: \"").filter(|p| entity::is_uuid(p)),
            datanode: quoted("datanodeUuid: \"").filter(|p| entity::is_uuid(p)),
        })),
    )
}

/// Types a Ratis record.
pub fn parse(input: &Input<'_>) -> Option<Typed> {
    CATALOGUE.typed(input)
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

/// The event and the entities it names: its member's group and peer (a datanode, SCM or OM by the
/// record's component), and what a write timeout's entry names.
fn built(m: &Matched<'_>, event: RatisEvent) -> Option<Built> {
    let entities = entities(&event, m.input.component);
    Some((event, entities))
}

fn entities(event: &RatisEvent, component: Component) -> Vec<Entity> {
    let mut out = Vec::new();
    if let Some(member) = event.member() {
        out.extend(Entity::group(&member.group));
        out.extend(peer_entity(component, &member.peer));
    }
    match event {
        RatisEvent::WriteTimeout(timeout) => {
            let WriteTimeout {
                container,
                local,
                pipeline,
                datanode,
                ..
            } = &**timeout;
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
mod tests;
