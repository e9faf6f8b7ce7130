//! SCM container statements (scm.md 2.3-2.6): the container report handlers, the container
//! manager, the ReplicationManager and its health handlers, and block deletion.
//!
//! Dispatch: the logger's class name (last segment, so both the full name of the RFA layout and
//! the `%c{2}` console abbreviation work) picks a short list of templates; each template's first
//! literal is checked with `starts_with` before [`fill`] matches the rest of it. The replica
//! details `<D>` that every report-handler line ends with (`getDetailsForLogging`) are parsed once
//! by [`replica_details`].
//!
//! `Service ReplicationManager transitions to RUNNING.` and `notifyStatusChanged:RUNNING` are
//! scm.md 2.1 service-status lines: `scm.rs` types them (it runs first).

use super::template::{fill, logger_class};
use super::{Input, KindInfo, Typed};
use crate::entity::{self, Entity};
use serde::Serialize;

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
    let (dn, _) = entity::datanode_details(rest)?;
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

/// What a report handler decided for a replica (scm.md 2.3; `AbstractContainerReportHandler`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplicaAction {
    /// DEBUG `Processing replica {}`: `sid=` as it was before `updateContainerStats`.
    Processing,
    Finalize,
    QuasiClose,
    Close,
    ForceClose,
    BcsidMismatch,
    ClosedWithLowerSid,
    NotProcessed,
    ContainerNotFound,
    Error,
}

impl ReplicaAction {
    fn kind(self) -> &'static str {
        match self {
            ReplicaAction::Processing => "container_replica_processing",
            ReplicaAction::Finalize => "container_finalize",
            ReplicaAction::QuasiClose => "container_quasi_close",
            ReplicaAction::Close => "container_close",
            ReplicaAction::ForceClose => "container_force_close",
            ReplicaAction::BcsidMismatch => "replica_bcsid_mismatch",
            ReplicaAction::ClosedWithLowerSid => "container_closed_sid_lower",
            ReplicaAction::NotProcessed => "replica_not_processed",
            ReplicaAction::ContainerNotFound => "container_not_found",
            ReplicaAction::Error => "container_report_error",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReplicaEvent {
    #[serde(skip)]
    pub action: ReplicaAction,
    #[serde(flatten)]
    pub replica: ReplicaDetails,
}

/// `Sending {}DeleteContainerCommand due to {} for {}` (leader) and the follower's
/// `Skip sending DeleteContainerCommand for {}: <NotLeaderException>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeleteCommandEvent {
    /// `false` for the follower's skip line: nothing was sent.
    pub sent: bool,
    pub force: bool,
    /// `DELETED`, `DELETING`, `CONTAINER_NOT_FOUND`; `None` on the skip line.
    pub reason: Option<String>,
    #[serde(flatten)]
    pub replica: ReplicaDetails,
}

/// Which release's wording a resurrection line has (scm.md 2.3, version history).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Wording {
    /// `Resurrecting container …` (HDDS-14684, ≥ 2.2.0).
    #[serde(rename = "2.2+")]
    Resurrecting,
    /// `transitionDeletingToClosed due to non-empty CLOSED replica …` (2.1.x).
    #[serde(rename = "2.1.x")]
    TransitionDeletingToClosed,
    /// `Moving container ContainerInfo{…} from … to CLOSED state, …` (2.0.0).
    #[serde(rename = "2.0.0")]
    MovingContainer,
    /// `Moving DELETING container … to CLOSED state, …` (≤ 1.4.x).
    #[serde(rename = "1.4")]
    MovingDeleting,
}

/// A DELETING/DELETED container moved back by a non-empty replica, in any release's wording.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResurrectedEvent {
    pub container: u64,
    pub from: String,
    pub to: String,
    /// The replica's real state (the 2.1.x text says CLOSED whatever it was: taken from `<D>`).
    pub replica_state: Option<String>,
    pub key_count: Option<u64>,
    pub bcsid: Option<u64>,
    /// The `sid=` of `<D>` (absent in the 2.0.0 and 1.4 wordings).
    pub sid: Option<i64>,
    pub empty: Option<bool>,
    pub origin: Option<String>,
    /// The reporting datanode's UUID; the 2.0.0 and 1.4 wordings print only a host name.
    pub datanode: Option<String>,
    pub datanode_host: Option<String>,
    pub wording: Wording,
}

/// `Failed to process {}` (FCR ERROR with a stack, ICR INFO) and `SCM_NOT_LEADER: Failed to process {}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportFailedEvent {
    /// The record (message or continuation) says NotLeaderException or SCM_NOT_LEADER: this
    /// SCM is a follower and the write it attempted went nowhere.
    pub not_leader: bool,
    /// The first continuation line (the exception), when there is one.
    pub exception: Option<String>,
    #[serde(flatten)]
    pub replica: ReplicaDetails,
}

/// ReplicationManager `Sending command [{}] for container {} to {} with datanode deadline {} and scm deadline {}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReplicationCommandEvent {
    /// `deleteContainerCommand`, `closeContainerCommand`, `replicateContainerCommand`, …
    pub command: String,
    pub cmd_id: Option<u64>,
    pub container: u64,
    pub replica_index: Option<u32>,
    pub force: Option<bool>,
    /// The close command's pipeline.
    pub pipeline: Option<String>,
    /// The replicate command's target datanode UUID.
    pub target: Option<String>,
    /// ContainerInfo fields.
    pub state: Option<String>,
    pub sequence_id: Option<u64>,
    pub state_enter_time: Option<String>,
    pub info_pipeline: Option<String>,
    pub owner: Option<String>,
    /// The datanode the command goes to (UUID).
    pub datanode: Option<String>,
    pub datanode_host: Option<String>,
    pub datanode_deadline: Option<i64>,
    pub scm_deadline: Option<i64>,
}

/// A printed container sequence id outside `<D>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SequenceIdEvent {
    #[serde(skip)]
    pub kind: &'static str,
    pub container: u64,
    /// The container's sequence id the line shows (after the update, for `Updating bcsId`).
    pub sid: u64,
    /// `Updating bcsId …`: the old value; `Deleting empty QUASI_CLOSED …`: max replica BCSID.
    pub other: Option<u64>,
    /// `Deleting empty QUASI_CLOSED …`: replica count and origins.
    pub replicas: Option<u64>,
    pub origins: Vec<String>,
}

/// A lifecycle change SCM printed: TRACE `ContainerStateMap` and the DEBUG health handlers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateChangeEvent {
    #[serde(skip)]
    pub kind: &'static str,
    pub container: u64,
    pub from: Option<String>,
    pub to: String,
}

/// Any other catalogued statement: its placeholders in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatementEvent {
    #[serde(skip)]
    pub kind: &'static str,
    pub container: Option<u64>,
    pub args: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ScmContainerEvent {
    Replica(ReplicaEvent),
    DeleteCommand(DeleteCommandEvent),
    Resurrected(ResurrectedEvent),
    ReportFailed(ReportFailedEvent),
    ReplicationCommand(ReplicationCommandEvent),
    SequenceId(SequenceIdEvent),
    StateChange(StateChangeEvent),
    Statement(StatementEvent),
}

impl ScmContainerEvent {
    pub fn kind(&self) -> &'static str {
        match self {
            ScmContainerEvent::Replica(e) => e.action.kind(),
            ScmContainerEvent::DeleteCommand(e) if e.sent => "container_delete_command",
            ScmContainerEvent::DeleteCommand(_) => "container_delete_skipped_not_leader",
            ScmContainerEvent::Resurrected(_) => "container_resurrected",
            ScmContainerEvent::ReportFailed(e) if e.not_leader => "container_report_not_leader",
            ScmContainerEvent::ReportFailed(_) => "container_report_failed",
            ScmContainerEvent::ReplicationCommand(_) => "rm_send_command",
            ScmContainerEvent::SequenceId(e) => e.kind,
            ScmContainerEvent::StateChange(e) => e.kind,
            ScmContainerEvent::Statement(e) => e.kind,
        }
    }

    /// The replica details of a report-handler line.
    pub fn replica(&self) -> Option<&ReplicaDetails> {
        match self {
            ScmContainerEvent::Replica(e) => Some(&e.replica),
            ScmContainerEvent::DeleteCommand(e) => Some(&e.replica),
            ScmContainerEvent::ReportFailed(e) => Some(&e.replica),
            _ => None,
        }
    }

    /// The container's sequence id this line prints, if any (scm.md 5: a report-handler `sid=`,
    /// `Updating bcsId …`, `Deleting empty QUASI_CLOSED container … BCSID=`, ...).
    pub fn printed_sid(&self) -> Option<i64> {
        match self {
            ScmContainerEvent::Resurrected(e) => e.sid,
            ScmContainerEvent::SequenceId(e) => i64::try_from(e.sid).ok(),
            ScmContainerEvent::ReplicationCommand(e) => {
                e.sequence_id.and_then(|s| i64::try_from(s).ok())
            }
            other => other.replica().and_then(|r| r.sid),
        }
    }

    /// The container the line is about.
    pub fn container(&self) -> Option<u64> {
        match self {
            ScmContainerEvent::Resurrected(e) => Some(e.container),
            ScmContainerEvent::ReplicationCommand(e) => Some(e.container),
            ScmContainerEvent::SequenceId(e) => Some(e.container),
            ScmContainerEvent::StateChange(e) => Some(e.container),
            ScmContainerEvent::Statement(e) => e.container,
            other => other.replica().map(|r| r.container),
        }
    }
}

const RH: &str = "AbstractContainerReportHandler (logger ContainerReportHandler / IncrementalContainerReportHandler)";

const fn kind(
    kind: &'static str,
    class: &'static str,
    level: &'static str,
    releases: &'static str,
    template: &'static str,
    catalogue: &'static str,
) -> KindInfo {
    KindInfo {
        kind,
        log: "scm",
        class,
        level,
        releases,
        template,
        catalogue,
    }
}

// Templates, copied from the Ozone source as scm.md quotes them.
const T_PROCESSING: &str = "Processing replica {}";
const T_CLOSED_LOWER: &str = "Container CLOSED with sequence ID lower than a replica: {}, proto={}";
const T_FINALIZE: &str = "FINALIZE (i.e. CLOSING) {}";
const T_QUASI_CLOSE: &str = "QUASI_CLOSE {}";
const T_CLOSE: &str = "CLOSE {}";
const T_FORCE_CLOSE: &str = "FORCE_CLOSE for {}";
const T_BCSID_MISMATCH: &str = "Replica BCSID mismatched for {} ";
const T_SKIP_UPDATE: &str =
    "Skipping updateContainerState on non-leader SCM, container {} event {}";
const T_DELETE: &str = "Sending {}DeleteContainerCommand due to {} for {}";
const T_SKIP_DELETE: &str = "Skip sending DeleteContainerCommand for {}: {}";
const T_RESURRECT_QC: &str = "Resurrecting container {} from {} to QUASI_CLOSED due to non-empty {} replica (keyCount={}, BCSID={}) from {}";
const T_RESURRECT_CLOSED: &str = "Resurrecting container {} from {} to CLOSED due to non-empty CLOSED replica (keyCount={}, BCSID={}) from {}";
const T_DELETING_TO_CLOSED: &str =
    "transitionDeletingToClosed due to non-empty CLOSED replica (keyCount={}) for {}";
const T_MOVING: &str = "Moving container {} from {} to CLOSED state, datanode {} reported replica with state={}, isEmpty={}, bcsId={}, keyCount={}, and origin={}";
const T_MOVING_DELETING: &str = "Moving DELETING container {} to CLOSED state, datanode {} reported replica with state={}, isEmpty={} and keyCount={}.";
const T_SKIP_DELETE_2_0: &str = "Skip sending delete container command, since not leader SCM";
const T_DELETE_1_4: &str = "Sending delete container command for {} container {} to datanode {}";
const T_NOT_PROCESSED: &str = "Replica not processed due to container state {}: {}";
const T_FAILED: &str = "Failed to process {}";
const T_NOT_LEADER: &str = "SCM_NOT_LEADER: Failed to process {}";
const T_CONTAINER_NOT_FOUND_ICR: &str = "Container not found: {}";
const T_REPLICA_NOT_FOUND_ICR: &str = "Container replica not found: {}";
const T_DN_NOT_FOUND: &str = "Datanode not found: {}";
const T_CONTAINER_NOT_FOUND: &str = "CONTAINER_NOT_FOUND for {}";
const T_REMOVE_MISSING_FAILED: &str =
    "Failed to remove missing container {}: datanode {} not found";
const T_REMOVE_REPLICA_FAILED: &str =
    "Failed to remove container replica: container {} not found in datanode {}";

const T_SID_AHEAD: &str =
    "Container sequenceId is {} greater than the leader container sequenceId {}";
const T_SID_UPDATE_FAILED: &str =
    "Failed to updateContainerStateWithSequenceId for container {} at sequenceId {}, ignoring it.";
const T_OPEN_NO_PIPELINE: &str =
    "Found container {} which is in OPEN state without a pipeline ID. {}";
const T_OPEN_MISSING_PIPELINE: &str =
    "Found container {} which is in OPEN state with pipeline {} that does not exist.";
const T_STATE_UPDATED: &str = "Updated the container {} from {} to {}";
const T_ALLOCATED: &str = "New container allocated: {}";
const T_ALLOCATION_FAILED: &str = "Container allocation failed on pipeline={}";

const T_RM_PASS: &str =
    "Replication Monitor Thread took {} milliseconds for processing {} containers.";
const T_RM_NOT_READY: &str =
    "Replication Manager is not ready to run until {}ms after safemode exit";
const T_RM_SEND: &str =
    "Sending command [{}] for container {} to {} with datanode deadline {} and scm deadline {}";
const T_RM_UPDATE_FAILED: &str = "Failed to update the state of container {}, update Event {}";
const T_RM_CLOSE_SKIPPED: &str =
    "Skip sending close container command, since current SCM is not leader.";
const T_RM_STARTING: &str = "Starting Replication Monitor Thread.";
const T_EMPTY_MARK_DELETING: &str = "Container {} is empty and closed, marking as DELETING";
const T_EMPTY_BCSID: &str =
    "Updating bcsId for empty QUASI_CLOSED container {} from {} to {} before deletion";
const T_EMPTY_QC_DELETE: &str = "Deleting empty QUASI_CLOSED container {} (container BCSID={}, max replica BCSID={}) with {} replicas from originIds: [{}]. If resurrected, container will transition to QUASI_CLOSED";
const T_EMPTY_SKIP: &str = "Skipping delete command for replica in {} state for empty container {} on datanode {}. Will retry after replica transitions to QUASI_CLOSED or CLOSED.";
const T_EMPTY_DELETE_FAILED: &str =
    "Failed to delete empty replica with index {} for container {} on datanode {}";
const T_DELETING_CLEANUP: &str =
    "Deleting Container {} has no replicas so marking for cleanup and returning true";
const T_FORCE_CLOSING: &str =
    "Force closing container {} with BCSID {}, which is in QUASI_CLOSED state.";
const T_STUCK_EMPTY: &str = "Skipping replication for empty QUASI_CLOSED stuck container {}. It will be deleted by EmptyContainerHandler.";
const T_STUCK_PARTIAL: &str = "A command was not sent for all required new replicas for container {}. Total sent {}, required {} ";
const T_STUCK_NO_TARGETS: &str =
    "Cannot replicate container {} because no suitable targets were found.";
const T_STUCK_OVERLOADED: &str =
    "Cannot replicate container {} because all sources are overloaded.";
const T_OPEN_TRIGGER_CLOSE: &str = "Container {} is open but {}. Triggering close.";
const T_NOT_HEALTHY_UNKNOWN: &str =
    "Container {} is not healthy but is not under, over or  mis-replicated. Should not happen.";
const T_MISMATCHED_CLOSE: &str = "Sending close command for mismatched replica {} of container {}.";
const T_UNHEALTHY_KEPT: &str = "Not handling container {} because replica index {} is under replicated. Not deleting UNHEALTHY replica [{}].";

const T_BLOCKS_ADDED: &str = "Totally added {} blocks to be deleted for {} datanodes / {} totalnodes, limit per iteration : {}blocks, task elapsed time: {}ms";
const T_BLOCKS_THROTTLED: &str =
    "Skipping block deletion as transactionToDNsCommitMap size = {}, exceeds threshold {}";
const T_BLOCKS_NOT_LEADER: &str = "Skip current run, since not leader any more.";
const T_TXN_CONTAINER_DELETED: &str = "Container: {} was deleted for the transaction: {}.";
const T_TXN_CONTAINER_MISSING: &str = "Container: {} was not found for the transaction: {}.";
const T_COMMIT_SKIPPED: &str = "Skip commit transactions since current SCM is not leader.";
const T_CLEAN_RECORD: &str = "Clean SCMCommand record for Datanode: {}";
const T_COMMAND_EXPIRED: &str =
    "SCM BlockDeletionCommand {} for Datanode: {} was removed after {}ms without update";

const RM: &str = "ReplicationManager";
const ECH: &str = "EmptyContainerHandler";
const STUCK: &str = "QuasiClosedStuckUnderReplicationHandler";

pub const KINDS: &[KindInfo] = &[
    // scm.md 2.3: report handlers. `<D>` is getDetailsForLogging.
    kind(
        "container_replica_processing",
        RH,
        "DEBUG",
        "1.3–HEAD",
        T_PROCESSING,
        "scm.md 2.3",
    ),
    kind(
        "container_closed_sid_lower",
        RH,
        "ERROR",
        "2.1–HEAD",
        T_CLOSED_LOWER,
        "scm.md 2.3",
    ),
    kind(
        "container_finalize",
        RH,
        "INFO",
        "2.1–HEAD",
        T_FINALIZE,
        "scm.md 2.3",
    ),
    kind(
        "container_quasi_close",
        RH,
        "INFO",
        "1.3–HEAD",
        T_QUASI_CLOSE,
        "scm.md 2.3",
    ),
    kind(
        "container_close",
        RH,
        "INFO",
        "1.3–HEAD",
        T_CLOSE,
        "scm.md 2.3",
    ),
    kind(
        "container_force_close",
        RH,
        "INFO",
        "2.1–HEAD",
        T_FORCE_CLOSE,
        "scm.md 2.3",
    ),
    kind(
        "replica_bcsid_mismatch",
        RH,
        "WARN",
        "2.1–HEAD",
        T_BCSID_MISMATCH,
        "scm.md 2.3",
    ),
    kind(
        "container_update_skipped_follower",
        RH,
        "DEBUG",
        "HEAD (unreleased)",
        T_SKIP_UPDATE,
        "scm.md 2.3",
    ),
    kind(
        "container_delete_command",
        RH,
        "INFO",
        "2.1–HEAD",
        T_DELETE,
        "scm.md 2.3, 5.4",
    ),
    kind(
        "container_delete_command",
        RH,
        "INFO",
        "1.3–2.0",
        T_DELETE_1_4,
        "scm.md 2.3 (version history)",
    ),
    kind(
        "container_delete_skipped_not_leader",
        RH,
        "WARN",
        "2.1–HEAD",
        T_SKIP_DELETE,
        "scm.md 2.3, 5.4",
    ),
    kind(
        "container_delete_skipped_not_leader",
        RH,
        "WARN",
        "1.3–2.0",
        T_SKIP_DELETE_2_0,
        "scm.md 2.3 (version history)",
    ),
    kind(
        "container_resurrected",
        RH,
        "INFO",
        "2.2–HEAD (HDDS-14684)",
        T_RESURRECT_QC,
        "scm.md 2.3, 5",
    ),
    kind(
        "container_resurrected",
        RH,
        "INFO",
        "2.2–HEAD (HDDS-14684)",
        T_RESURRECT_CLOSED,
        "scm.md 2.3",
    ),
    kind(
        "container_resurrected",
        RH,
        "INFO",
        "2.1.x",
        T_DELETING_TO_CLOSED,
        "scm.md 2.3 (version history)",
    ),
    kind(
        "container_resurrected",
        RH,
        "INFO",
        "2.0.x",
        T_MOVING,
        "scm.md 2.3 (version history)",
    ),
    kind(
        "container_resurrected",
        RH,
        "INFO",
        "1.4.1",
        T_MOVING_DELETING,
        "scm.md 2.3 (version history)",
    ),
    kind(
        "replica_not_processed",
        RH,
        "ERROR",
        "2.1–HEAD",
        T_NOT_PROCESSED,
        "scm.md 2.3",
    ),
    kind(
        "container_report_failed",
        RH,
        "ERROR (FCR) / INFO (ICR)",
        "2.1–HEAD",
        T_FAILED,
        "scm.md 2.3, 5.3",
    ),
    kind(
        "container_report_not_leader",
        RH,
        "ERROR (FCR, NotLeaderException stack)",
        "2.1–HEAD",
        T_FAILED,
        "scm.md 1.1, 5.3",
    ),
    kind(
        "container_report_not_leader",
        "IncrementalContainerReportHandler",
        "INFO",
        "2.1–HEAD",
        T_NOT_LEADER,
        "scm.md 2.3",
    ),
    kind(
        "container_report_error",
        "IncrementalContainerReportHandler",
        "ERROR",
        "2.1–HEAD",
        "{}: {}",
        "scm.md 2.3",
    ),
    kind(
        "container_not_found_icr",
        "IncrementalContainerReportHandler",
        "WARN",
        "2.1–HEAD",
        T_CONTAINER_NOT_FOUND_ICR,
        "scm.md 2.3",
    ),
    kind(
        "container_replica_not_found_icr",
        "IncrementalContainerReportHandler",
        "WARN",
        "2.1–HEAD",
        T_REPLICA_NOT_FOUND_ICR,
        "scm.md 2.3",
    ),
    kind(
        "report_datanode_not_found",
        RH,
        "WARN",
        "2.1–HEAD",
        T_DN_NOT_FOUND,
        "scm.md 2.3",
    ),
    kind(
        "container_not_found",
        "ContainerReportHandler",
        "ERROR",
        "2.1–HEAD",
        T_CONTAINER_NOT_FOUND,
        "scm.md 2.3",
    ),
    kind(
        "missing_replica_remove_failed",
        "ContainerReportHandler",
        "WARN",
        "2.1–HEAD",
        T_REMOVE_MISSING_FAILED,
        "scm.md 2.3",
    ),
    kind(
        "missing_replica_remove_failed",
        "ContainerReportHandler",
        "WARN",
        "2.1–HEAD",
        T_REMOVE_REPLICA_FAILED,
        "scm.md 2.3",
    ),
    // scm.md 2.4: container manager.
    kind(
        "container_sid_ahead",
        "ContainerStateManagerImpl",
        "WARN",
        "2.2–HEAD",
        T_SID_AHEAD,
        "scm.md 2.4",
    ),
    kind(
        "container_sid_update_failed",
        "ContainerStateManagerImpl",
        "WARN",
        "HEAD (unreleased)",
        T_SID_UPDATE_FAILED,
        "scm.md 2.4",
    ),
    kind(
        "open_container_without_pipeline",
        "ContainerStateManagerImpl",
        "WARN",
        "2.2–HEAD",
        T_OPEN_NO_PIPELINE,
        "scm.md 2.4",
    ),
    kind(
        "open_container_without_pipeline",
        "ContainerStateManagerImpl",
        "WARN",
        "1.3–HEAD",
        T_OPEN_MISSING_PIPELINE,
        "scm.md 2.4",
    ),
    kind(
        "container_state_updated",
        "ContainerStateMap",
        "TRACE",
        "1.3–HEAD",
        T_STATE_UPDATED,
        "scm.md 2.4",
    ),
    kind(
        "container_allocated",
        "ContainerManagerImpl",
        "TRACE",
        "1.3–HEAD",
        T_ALLOCATED,
        "scm.md 2.4",
    ),
    kind(
        "container_allocation_failed",
        "ContainerManagerImpl",
        "WARN",
        "1.3–HEAD",
        T_ALLOCATION_FAILED,
        "scm.md 2.4",
    ),
    // scm.md 2.5: ReplicationManager and its health handlers.
    kind("rm_pass", RM, "INFO", "1.3–HEAD", T_RM_PASS, "scm.md 2.5"),
    kind(
        "rm_not_ready",
        RM,
        "INFO",
        "1.3–HEAD",
        T_RM_NOT_READY,
        "scm.md 2.5",
    ),
    kind(
        "rm_send_command",
        RM,
        "INFO",
        "1.4–HEAD",
        T_RM_SEND,
        "scm.md 2.5, 3",
    ),
    kind(
        "rm_state_update_failed",
        RM,
        "ERROR",
        "1.3–HEAD",
        T_RM_UPDATE_FAILED,
        "scm.md 2.5",
    ),
    kind(
        "rm_close_skipped_not_leader",
        RM,
        "WARN",
        "1.3–HEAD",
        T_RM_CLOSE_SKIPPED,
        "scm.md 2.5",
    ),
    kind(
        "rm_started",
        RM,
        "INFO",
        "1.3–HEAD",
        T_RM_STARTING,
        "scm.md 2.5",
    ),
    kind(
        "container_marked_deleting",
        ECH,
        "DEBUG",
        "1.4–HEAD",
        T_EMPTY_MARK_DELETING,
        "scm.md 2.5",
    ),
    kind(
        "container_bcsid_updated",
        ECH,
        "INFO",
        "2.2–HEAD",
        T_EMPTY_BCSID,
        "scm.md 2.5",
    ),
    kind(
        "empty_quasi_closed_deleted",
        ECH,
        "INFO",
        "2.2–HEAD (HDDS-14684)",
        T_EMPTY_QC_DELETE,
        "scm.md 2.5, 5.4",
    ),
    kind(
        "empty_replica_delete_deferred",
        ECH,
        "INFO",
        "2.2–HEAD",
        T_EMPTY_SKIP,
        "scm.md 2.5",
    ),
    kind(
        "empty_replica_delete_failed",
        "EmptyContainerHandler / DeletingContainerHandler",
        "WARN",
        "1.3–HEAD",
        T_EMPTY_DELETE_FAILED,
        "scm.md 2.5",
    ),
    kind(
        "container_cleanup",
        "DeletingContainerHandler",
        "DEBUG",
        "1.4–HEAD",
        T_DELETING_CLEANUP,
        "scm.md 2.5",
    ),
    kind(
        "container_force_closing",
        "QuasiClosedContainerHandler",
        "INFO",
        "1.3–HEAD",
        T_FORCE_CLOSING,
        "scm.md 2.5",
    ),
    kind(
        "stuck_replication_skipped",
        STUCK,
        "INFO",
        "2.2–HEAD",
        T_STUCK_EMPTY,
        "scm.md 2.5",
    ),
    kind(
        "stuck_replication_incomplete",
        STUCK,
        "INFO",
        "2.0–HEAD",
        T_STUCK_PARTIAL,
        "scm.md 2.5",
    ),
    kind(
        "stuck_replication_blocked",
        STUCK,
        "WARN",
        "2.0–HEAD",
        T_STUCK_NO_TARGETS,
        "scm.md 2.5",
    ),
    kind(
        "stuck_replication_blocked",
        STUCK,
        "WARN",
        "2.0–HEAD",
        T_STUCK_OVERLOADED,
        "scm.md 2.5",
    ),
    kind(
        "open_container_closing",
        "OpenContainerHandler",
        "INFO",
        "1.4–HEAD",
        T_OPEN_TRIGGER_CLOSE,
        "scm.md 2.5",
    ),
    kind(
        "container_health_unknown",
        "RatisReplicationCheckHandler",
        "WARN",
        "1.4–HEAD",
        T_NOT_HEALTHY_UNKNOWN,
        "scm.md 2.5",
    ),
    kind(
        "mismatched_replica_close",
        "MismatchedReplicasHandler",
        "DEBUG",
        "1.4–HEAD",
        T_MISMATCHED_CLOSE,
        "scm.md 2.5, 5.2",
    ),
    kind(
        "unhealthy_replica_kept",
        "ClosedWithUnhealthyReplicasHandler",
        "WARN",
        "1.4–HEAD",
        T_UNHEALTHY_KEPT,
        "scm.md 2.5",
    ),
    // scm.md 2.6: block deletion.
    kind(
        "block_deletion_pass",
        "SCMBlockDeletingService",
        "INFO",
        "2.0–HEAD",
        T_BLOCKS_ADDED,
        "scm.md 2.6",
    ),
    kind(
        "block_deletion_throttled",
        "SCMBlockDeletingService",
        "WARN",
        "2.1–HEAD",
        T_BLOCKS_THROTTLED,
        "scm.md 2.6",
    ),
    kind(
        "block_deletion_not_leader",
        "SCMBlockDeletingService",
        "WARN",
        "1.3–HEAD",
        T_BLOCKS_NOT_LEADER,
        "scm.md 2.6",
    ),
    kind(
        "deleted_block_txn_container_deleted",
        "DeletedBlockLogImpl",
        "WARN",
        "1.4–HEAD",
        T_TXN_CONTAINER_DELETED,
        "scm.md 2.6, 5.2",
    ),
    kind(
        "deleted_block_txn_container_missing",
        "DeletedBlockLogImpl",
        "WARN",
        "1.3–HEAD",
        T_TXN_CONTAINER_MISSING,
        "scm.md 2.6",
    ),
    kind(
        "deleted_block_commit_skipped_not_leader",
        "DeletedBlockLogImpl",
        "INFO",
        "1.3–HEAD",
        T_COMMIT_SKIPPED,
        "scm.md 2.6",
    ),
    kind(
        "block_deletion_records_cleaned",
        "SCMDeletedBlockTransactionStatusManager",
        "INFO",
        "1.4.1–HEAD",
        T_CLEAN_RECORD,
        "scm.md 2.6",
    ),
    kind(
        "block_deletion_command_expired",
        "SCMDeletedBlockTransactionStatusManager",
        "WARN",
        "1.4.1–HEAD",
        T_COMMAND_EXPIRED,
        "scm.md 2.6",
    ),
];

pub fn parse(input: &Input<'_>) -> Option<Typed> {
    let record = input.record;
    let class = logger_class(record.logger.as_deref()?);
    let msg = record.message.as_str();
    let event = match class {
        "ContainerReportHandler" | "IncrementalContainerReportHandler" => {
            report_handler(msg, &record.continuation)
        }
        "ContainerStateManagerImpl" | "ContainerStateMap" | "ContainerManagerImpl" => {
            container_manager(msg)
        }
        "ReplicationManager" => replication_manager(msg),
        "EmptyContainerHandler"
        | "DeletingContainerHandler"
        | "QuasiClosedContainerHandler"
        | "QuasiClosedStuckUnderReplicationHandler"
        | "OpenContainerHandler"
        | "RatisReplicationCheckHandler"
        | "MismatchedReplicasHandler"
        | "ClosedWithUnhealthyReplicasHandler" => health_handler(msg),
        "SCMBlockDeletingService"
        | "DeletedBlockLogImpl"
        | "SCMDeletedBlockTransactionStatusManager" => block_deletion(msg),
        _ => None,
    }?;
    let entities = entities_of(&event, msg);
    Some(Typed {
        data: super::EventData::ScmContainer(event),
        entities,
    })
}

fn entities_of(event: &ScmContainerEvent, msg: &str) -> Vec<Entity> {
    let mut out = Vec::new();
    if let Some(id) = event.container() {
        out.push(Entity::Container(id));
    }
    match event {
        ScmContainerEvent::Resurrected(e) => {
            if let Some(dn) = e.datanode.as_deref().and_then(Entity::datanode) {
                out.push(dn);
            } else if let Some(host) = e.datanode_host.as_deref().and_then(Entity::datanode_host) {
                out.push(host);
            }
        }
        ScmContainerEvent::ReplicationCommand(e) => {
            out.extend(e.datanode.as_deref().and_then(Entity::datanode));
            out.extend(e.target.as_deref().and_then(Entity::datanode));
            out.extend(e.info_pipeline.as_deref().and_then(Entity::pipeline));
        }
        ScmContainerEvent::Statement(_) => {
            out.extend(entity::find_containers(msg).map(|m| Entity::Container(m.value)));
            out.extend(entity::find_datanode_details(msg).map(|m| m.value.entity()));
            out.extend(entity::find_pipelines(msg).filter_map(|m| Entity::pipeline(m.value)));
        }
        other => {
            if let Some(dn) = other.replica().and_then(|r| Entity::datanode(&r.datanode)) {
                out.push(dn);
            }
        }
    }
    let mut seen = Vec::with_capacity(out.len());
    out.retain(|e| {
        let new = !seen.contains(e);
        if new {
            seen.push(e.clone());
        }
        new
    });
    out
}

fn statement(kind: &'static str, args: Vec<&str>) -> ScmContainerEvent {
    let container = args
        .iter()
        .find_map(|a| entity::find_containers(a).next().map(|m| m.value));
    ScmContainerEvent::Statement(StatementEvent {
        kind,
        container,
        args: args.into_iter().map(str::to_string).collect(),
    })
}

fn replica(action: ReplicaAction, details: &str) -> Option<ScmContainerEvent> {
    Some(ScmContainerEvent::Replica(ReplicaEvent {
        action,
        replica: replica_details(details)?,
    }))
}

/// The container id of a `{}` that prints `#1051`, a bare id or a `ContainerInfo{id=#1051, …}`.
fn container_arg(s: &str) -> Option<u64> {
    entity::container_id(s).or_else(|| entity::find_containers(s).next().map(|m| m.value))
}

/// `AbstractContainerReportHandler` and its two loggers (scm.md 2.3).
fn report_handler(msg: &str, continuation: &str) -> Option<ScmContainerEvent> {
    let first = msg.as_bytes().first()?;
    match first {
        b'F' => {
            if let Some(d) = msg.strip_prefix("FINALIZE (i.e. CLOSING) ") {
                return replica(ReplicaAction::Finalize, d);
            }
            if let Some(d) = msg.strip_prefix("FORCE_CLOSE for ") {
                return replica(ReplicaAction::ForceClose, d);
            }
            if let Some(d) = msg.strip_prefix("Failed to process ") {
                return report_failed(msg, d, continuation);
            }
            if let Some(v) = fill(T_REMOVE_MISSING_FAILED, msg) {
                return Some(statement("missing_replica_remove_failed", v));
            }
            fill(T_REMOVE_REPLICA_FAILED, msg)
                .map(|v| statement("missing_replica_remove_failed", v))
        }
        b'Q' => replica(ReplicaAction::QuasiClose, msg.strip_prefix("QUASI_CLOSE ")?),
        b'C' => {
            if let Some(d) = msg.strip_prefix("CLOSE ") {
                return replica(ReplicaAction::Close, d);
            }
            if let Some(d) = msg.strip_prefix("CONTAINER_NOT_FOUND for ") {
                return replica(ReplicaAction::ContainerNotFound, d);
            }
            if let Some(v) = fill(T_CLOSED_LOWER, msg) {
                return replica(ReplicaAction::ClosedWithLowerSid, v[0]);
            }
            if let Some(v) = fill(T_CONTAINER_NOT_FOUND_ICR, msg) {
                return Some(statement("container_not_found_icr", v));
            }
            fill(T_REPLICA_NOT_FOUND_ICR, msg)
                .map(|v| statement("container_replica_not_found_icr", v))
        }
        b'R' => {
            if msg.starts_with("Resurrecting container ") {
                return resurrecting(msg);
            }
            if let Some(d) = msg.strip_prefix("Replica BCSID mismatched for ") {
                return replica(ReplicaAction::BcsidMismatch, d);
            }
            let v = fill(T_NOT_PROCESSED, msg)?;
            replica(ReplicaAction::NotProcessed, v[1])
        }
        b'P' => replica(
            ReplicaAction::Processing,
            msg.strip_prefix("Processing replica ")?,
        ),
        b'S' => {
            if msg.starts_with("Sending ") {
                if let Some(v) = fill(T_DELETE, msg) {
                    let force = match v[0] {
                        "force" => true,
                        "" => false,
                        _ => return None,
                    };
                    return Some(ScmContainerEvent::DeleteCommand(DeleteCommandEvent {
                        sent: true,
                        force,
                        reason: Some(v[1].to_string()),
                        replica: replica_details(v[2])?,
                    }));
                }
                return fill(T_DELETE_1_4, msg).map(|v| statement("container_delete_command", v));
            }
            if let Some(d) = msg.strip_prefix("Skip sending DeleteContainerCommand for ") {
                return Some(ScmContainerEvent::DeleteCommand(DeleteCommandEvent {
                    sent: false,
                    force: false,
                    reason: None,
                    replica: replica_details(d)?,
                }));
            }
            if msg.starts_with(T_SKIP_DELETE_2_0) {
                return Some(statement("container_delete_skipped_not_leader", vec![]));
            }
            if let Some(d) = msg.strip_prefix("SCM_NOT_LEADER: Failed to process ") {
                return Some(ScmContainerEvent::ReportFailed(ReportFailedEvent {
                    not_leader: true,
                    exception: continuation.lines().next().map(str::to_string),
                    replica: replica_details(d)?,
                }));
            }
            fill(T_SKIP_UPDATE, msg).map(|v| statement("container_update_skipped_follower", v))
        }
        b't' => {
            let v = fill(T_DELETING_TO_CLOSED, msg)?;
            let d = replica_details(v[1])?;
            Some(resurrected_from_details(
                d,
                "CLOSED",
                v[0].parse().ok(),
                Wording::TransitionDeletingToClosed,
            ))
        }
        b'M' => moving(msg),
        b'D' => fill(T_DN_NOT_FOUND, msg).map(|v| statement("report_datanode_not_found", v)),
        _ => {
            // ICR ERROR `{}: {}` (NodeNotFound and the details): the second part is `<D>`.
            let at = msg.find(": Container #")?;
            replica(ReplicaAction::Error, &msg[at + 2..])
        }
    }
}

fn report_failed(msg: &str, details: &str, continuation: &str) -> Option<ScmContainerEvent> {
    let not_leader = msg.contains("SCM_NOT_LEADER")
        || continuation.contains("NotLeaderException")
        || continuation.contains("SCM_NOT_LEADER");
    Some(ScmContainerEvent::ReportFailed(ReportFailedEvent {
        not_leader,
        exception: continuation.lines().next().map(str::to_string),
        replica: replica_details(details)?,
    }))
}

fn resurrected_from_details(
    d: ReplicaDetails,
    to: &str,
    key_count: Option<u64>,
    wording: Wording,
) -> ScmContainerEvent {
    ScmContainerEvent::Resurrected(ResurrectedEvent {
        container: d.container,
        from: d.container_state.clone().unwrap_or_default(),
        to: to.to_string(),
        replica_state: Some(d.replica_state),
        key_count,
        bcsid: Some(d.bcsid),
        sid: d.sid,
        empty: Some(d.empty),
        origin: Some(d.origin),
        datanode: Some(d.datanode),
        datanode_host: Some(d.datanode_host),
        wording,
    })
}

/// HEAD / 2.2 `Resurrecting container …` to QUASI_CLOSED or to CLOSED.
fn resurrecting(msg: &str) -> Option<ScmContainerEvent> {
    if let Some(v) = fill(T_RESURRECT_QC, msg) {
        let d = replica_details(v[5])?;
        let mut event =
            resurrected_from_details(d, "QUASI_CLOSED", v[3].parse().ok(), Wording::Resurrecting);
        if let ScmContainerEvent::Resurrected(e) = &mut event {
            e.from = v[1].to_string();
            // The replica state the message names; `<D>` says the same.
            e.replica_state = Some(v[2].to_string());
            e.bcsid = v[4].parse().ok().or(e.bcsid);
        }
        return Some(event);
    }
    let v = fill(T_RESURRECT_CLOSED, msg)?;
    let d = replica_details(v[4])?;
    let mut event = resurrected_from_details(d, "CLOSED", v[2].parse().ok(), Wording::Resurrecting);
    if let ScmContainerEvent::Resurrected(e) = &mut event {
        e.from = v[1].to_string();
    }
    Some(event)
}

/// 2.0.0 `Moving container ContainerInfo{…} from … to CLOSED state, …` and ≤ 1.4
/// `Moving DELETING container … to CLOSED state, …`: the datanode is a host name, no `sid=`.
fn moving(msg: &str) -> Option<ScmContainerEvent> {
    if let Some(v) = fill(T_MOVING, msg) {
        return Some(ScmContainerEvent::Resurrected(ResurrectedEvent {
            container: container_arg(v[0])?,
            from: v[1].to_string(),
            to: "CLOSED".to_string(),
            replica_state: Some(v[3].to_string()),
            key_count: v[6].parse().ok(),
            bcsid: v[5].parse().ok(),
            sid: None,
            empty: v[4].parse().ok(),
            origin: Some(v[7].to_string()),
            datanode: None,
            datanode_host: Some(v[2].to_string()),
            wording: Wording::MovingContainer,
        }));
    }
    let v = fill(T_MOVING_DELETING, msg)?;
    Some(ScmContainerEvent::Resurrected(ResurrectedEvent {
        container: container_arg(v[0])?,
        from: "DELETING".to_string(),
        to: "CLOSED".to_string(),
        replica_state: Some(v[2].to_string()),
        key_count: v[4].parse().ok(),
        bcsid: None,
        sid: None,
        empty: v[3].parse().ok(),
        origin: None,
        datanode: None,
        datanode_host: Some(v[1].to_string()),
        wording: Wording::MovingDeleting,
    }))
}

/// `ContainerStateManagerImpl`, `ContainerStateMap`, `ContainerManagerImpl` (scm.md 2.4).
fn container_manager(msg: &str) -> Option<ScmContainerEvent> {
    if let Some(v) = fill(T_STATE_UPDATED, msg) {
        return Some(ScmContainerEvent::StateChange(StateChangeEvent {
            kind: "container_state_updated",
            container: container_arg(v[0])?,
            from: Some(v[1].to_string()),
            to: v[2].to_string(),
        }));
    }
    if let Some(v) = fill(T_SID_UPDATE_FAILED, msg) {
        return Some(ScmContainerEvent::SequenceId(SequenceIdEvent {
            kind: "container_sid_update_failed",
            container: container_arg(v[0])?,
            sid: v[1].parse().ok()?,
            other: None,
            replicas: None,
            origins: Vec::new(),
        }));
    }
    let simple: [(&str, &'static str); 5] = [
        (T_SID_AHEAD, "container_sid_ahead"),
        (T_OPEN_NO_PIPELINE, "open_container_without_pipeline"),
        (T_OPEN_MISSING_PIPELINE, "open_container_without_pipeline"),
        (T_ALLOCATED, "container_allocated"),
        (T_ALLOCATION_FAILED, "container_allocation_failed"),
    ];
    simple_match(msg, &simple)
}

/// Tries `(template, kind)` pairs whose first literal starts `msg`.
fn simple_match(msg: &str, table: &[(&str, &'static str)]) -> Option<ScmContainerEvent> {
    table.iter().find_map(|(template, kind)| {
        let head = template.split("{}").next().unwrap_or(template);
        if !msg.starts_with(head) {
            return None;
        }
        fill(template, msg).map(|v| statement(kind, v))
    })
}

/// `ReplicationManager` (scm.md 2.5).
fn replication_manager(msg: &str) -> Option<ScmContainerEvent> {
    if msg.starts_with("Sending command [") {
        return send_command(msg);
    }
    let simple: [(&str, &'static str); 5] = [
        (T_RM_PASS, "rm_pass"),
        (T_RM_NOT_READY, "rm_not_ready"),
        (T_RM_UPDATE_FAILED, "rm_state_update_failed"),
        (T_RM_CLOSE_SKIPPED, "rm_close_skipped_not_leader"),
        (T_RM_STARTING, "rm_started"),
    ];
    simple_match(msg, &simple)
}

/// `Sending command [<SCMCommand.toString>] for container ContainerInfo{…} to <dn> with datanode
/// deadline D and scm deadline S`. The command's own fields are `name: value` (`containerID: 1051`,
/// `force: false`) or `name=value` (`containerId=1051`, `targetNode=<dn>`).
fn send_command(msg: &str) -> Option<ScmContainerEvent> {
    let body = msg.strip_prefix("Sending command [")?;
    let (command, rest) = body.split_once("] for container ")?;
    let (info, rest) = match rest.strip_prefix("ContainerInfo{") {
        Some(r) => {
            let (inner, after) = r.split_once("} to ")?;
            (Some(inner), after)
        }
        None => {
            let (_, after) = rest.split_once(" to ")?;
            (None, after)
        }
    };
    let (dn, datanode_deadline, scm_deadline) =
        match fill("{} with datanode deadline {} and scm deadline {}", rest) {
            Some(v) => (v[0], v[1].parse().ok(), v[2].parse().ok()),
            None => (rest, None, None),
        };
    let dn_ref = entity::datanode_details(dn).map(|(d, _)| d);
    let (name, fields) = command.split_once(": ").unwrap_or((command, ""));
    let field = |key: &str| -> Option<&str> {
        fields.split(", ").find_map(|f| {
            f.strip_prefix(key)
                .and_then(|v| v.strip_prefix(": ").or_else(|| v.strip_prefix('=')))
        })
    };
    let info_field = |key: &str| -> Option<&str> {
        info?
            .split(", ")
            .find_map(|f| f.strip_prefix(key)?.strip_prefix('='))
    };
    let container = field("containerID")
        .or_else(|| field("containerId"))
        .and_then(|v| v.parse().ok())
        .or_else(|| info_field("id").and_then(entity::container_id))?;
    let target = field("targetNode")
        .and_then(|t| entity::datanode_details(t).map(|(d, _)| d.uuid.to_ascii_lowercase()));
    Some(ScmContainerEvent::ReplicationCommand(
        ReplicationCommandEvent {
            command: name.to_string(),
            cmd_id: field("cmdID").and_then(|v| v.parse().ok()),
            container,
            replica_index: field("replicaIndex").and_then(|v| v.parse().ok()),
            force: field("force").and_then(|v| v.parse().ok()),
            pipeline: field("pipelineID")
                .and_then(|p| entity::pipeline_id(p).map(|(u, _)| u.to_ascii_lowercase())),
            target,
            state: info_field("state").map(str::to_string),
            sequence_id: info_field("sequenceId").and_then(|v| v.parse().ok()),
            state_enter_time: info_field("stateEnterTime").map(str::to_string),
            info_pipeline: info_field("pipelineID")
                .and_then(|p| entity::pipeline_id(p).map(|(u, _)| u.to_ascii_lowercase())),
            owner: info_field("owner").map(str::to_string),
            datanode: dn_ref.map(|d| d.uuid.to_ascii_lowercase()),
            datanode_host: dn_ref.map(|d| d.host.to_string()),
            datanode_deadline,
            scm_deadline,
        },
    ))
}

/// The ReplicationManager health handlers (scm.md 2.5).
fn health_handler(msg: &str) -> Option<ScmContainerEvent> {
    if let Some(v) = fill(T_EMPTY_QC_DELETE, msg) {
        return Some(ScmContainerEvent::SequenceId(SequenceIdEvent {
            kind: "empty_quasi_closed_deleted",
            container: container_arg(v[0])?,
            sid: v[1].parse().ok()?,
            other: v[2].parse().ok(),
            replicas: v[3].parse().ok(),
            origins: v[4]
                .split(", ")
                .filter(|o| !o.is_empty())
                .map(str::to_string)
                .collect(),
        }));
    }
    if let Some(v) = fill(T_EMPTY_BCSID, msg) {
        return Some(ScmContainerEvent::SequenceId(SequenceIdEvent {
            kind: "container_bcsid_updated",
            container: container_arg(v[0])?,
            sid: v[2].parse().ok()?,
            other: v[1].parse().ok(),
            replicas: None,
            origins: Vec::new(),
        }));
    }
    if let Some(v) = fill(T_EMPTY_MARK_DELETING, msg) {
        return Some(ScmContainerEvent::StateChange(StateChangeEvent {
            kind: "container_marked_deleting",
            container: container_arg(v[0])?,
            from: None,
            to: "DELETING".to_string(),
        }));
    }
    if let Some(v) = fill(T_DELETING_CLEANUP, msg) {
        return Some(ScmContainerEvent::StateChange(StateChangeEvent {
            kind: "container_cleanup",
            container: container_arg(v[0])?,
            from: Some("DELETING".to_string()),
            to: "DELETED".to_string(),
        }));
    }
    let simple: [(&str, &'static str); 11] = [
        (T_EMPTY_SKIP, "empty_replica_delete_deferred"),
        (T_EMPTY_DELETE_FAILED, "empty_replica_delete_failed"),
        (T_FORCE_CLOSING, "container_force_closing"),
        (T_STUCK_EMPTY, "stuck_replication_skipped"),
        (T_STUCK_PARTIAL, "stuck_replication_incomplete"),
        (T_STUCK_NO_TARGETS, "stuck_replication_blocked"),
        (T_STUCK_OVERLOADED, "stuck_replication_blocked"),
        (T_OPEN_TRIGGER_CLOSE, "open_container_closing"),
        (T_NOT_HEALTHY_UNKNOWN, "container_health_unknown"),
        (T_MISMATCHED_CLOSE, "mismatched_replica_close"),
        (T_UNHEALTHY_KEPT, "unhealthy_replica_kept"),
    ];
    simple_match(msg, &simple)
}

/// Block deletion (scm.md 2.6).
fn block_deletion(msg: &str) -> Option<ScmContainerEvent> {
    let simple: [(&str, &'static str); 8] = [
        (T_BLOCKS_ADDED, "block_deletion_pass"),
        (T_BLOCKS_THROTTLED, "block_deletion_throttled"),
        (T_BLOCKS_NOT_LEADER, "block_deletion_not_leader"),
        (
            T_TXN_CONTAINER_DELETED,
            "deleted_block_txn_container_deleted",
        ),
        (
            T_TXN_CONTAINER_MISSING,
            "deleted_block_txn_container_missing",
        ),
        (T_COMMIT_SKIPPED, "deleted_block_commit_skipped_not_leader"),
        (T_CLEAN_RECORD, "block_deletion_records_cleaned"),
        (T_COMMAND_EXPIRED, "block_deletion_command_expired"),
    ];
    simple_match(msg, &simple)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{EventData, classify};
    use crate::record::{ReadOptions, Record, read_records};
    use crate::source::Component;

    const DN5: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13(dn5.example.com/10.0.1.15)";
    const DN5_UUID: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13";
    const PIPE: &str = "Pipeline-8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d";

    fn details(cstate: &str, sid: u64, rstate: &str, bcsid: u64, empty: &str) -> String {
        format!(
            "Container #1051 ({cstate}, sid={sid}) r0 ({rstate}, bcsid={bcsid}, origin={DN5_UUID}, {empty}) from dn {DN5}"
        )
    }

    fn record(logger: &str, message: &str, continuation: &str) -> Record {
        Record {
            line: 1,
            ts: Some(0),
            level: None,
            thread: None,
            logger: Some(logger.to_string()),
            message: message.to_string(),
            throwable: None,
            continuation: continuation.to_string(),
            continuation_lines: continuation.lines().count() as u32,
            host: None,
            component: None,
            headerless: false,
        }
    }

    fn typed(logger: &str, message: &str) -> Typed {
        classify(&record(logger, message, ""), Component::Scm)
            .unwrap_or_else(|| panic!("not typed: {logger}: {message}"))
    }

    fn event(logger: &str, message: &str) -> ScmContainerEvent {
        match typed(logger, message).data {
            EventData::ScmContainer(e) => e,
            other => panic!("typed by another module: {other:?}"),
        }
    }

    const FCR: &str = "org.apache.hadoop.hdds.scm.container.ContainerReportHandler";
    const ICR: &str = "org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler";
    const RM_LOGGER: &str = "org.apache.hadoop.hdds.scm.container.replication.ReplicationManager";
    const HEALTH: &str = "org.apache.hadoop.hdds.scm.container.replication.health.";

    /// One filled format string per template of [`KINDS`], with its logger.
    fn samples() -> Vec<(String, String)> {
        let d_open = details("DELETED", 4821, "OPEN", 4790, "non-empty");
        let d_closing = details("CLOSING", 4821, "CLOSED", 4821, "non-empty");
        let d_closed = details("DELETED", 4821, "CLOSED", 4790, "non-empty");
        let info = format!(
            "ContainerInfo{{id=#1051, state=QUASI_CLOSED, stateEnterTime=2026-08-20T11:02:47.391Z, pipelineID={PIPE}, owner=om1}}"
        );
        let s = |logger: &str, msg: String| (logger.to_string(), msg);
        let h = |class: &str, msg: String| (format!("{HEALTH}{class}"), msg);
        let b = |class: &str, msg: &str| {
            (
                format!("org.apache.hadoop.hdds.scm.block.{class}"),
                msg.to_string(),
            )
        };
        let c = |class: &str, msg: String| {
            (format!("org.apache.hadoop.hdds.scm.container.{class}"), msg)
        };
        vec![
            s(FCR, format!("Processing replica {d_open}")),
            s(FCR, format!("Container CLOSED with sequence ID lower than a replica: {d_closing}, proto=containerID: 1051 state: CLOSED")),
            s(ICR, format!("FINALIZE (i.e. CLOSING) {}", details("OPEN", 4800, "CLOSING", 4800, "non-empty"))),
            s(ICR, format!("QUASI_CLOSE {}", details("CLOSING", 4800, "QUASI_CLOSED", 4800, "non-empty"))),
            s(ICR, format!("CLOSE {d_closing}")),
            s(ICR, format!("FORCE_CLOSE for {}", details("QUASI_CLOSED", 4821, "CLOSED", 4821, "non-empty"))),
            s(ICR, format!("Replica BCSID mismatched for {} ", details("CLOSING", 4821, "CLOSED", 4800, "non-empty"))),
            s(ICR, "Skipping updateContainerState on non-leader SCM, container #1051 event CLOSE".to_string()),
            s(FCR, format!("Sending forceDeleteContainerCommand due to DELETED for {d_closed}")),
            s(FCR, "Sending delete container command for deleted container 1051 to datanode dn5.example.com".to_string()),
            s(FCR, format!("Skip sending DeleteContainerCommand for {d_closed}: org.apache.ratis.protocol.exceptions.NotLeaderException: Server 2d1e3f40-5b6c-4d7e-9f80-a1b2c3d4e5f6@group-112233445566 is not the leader, suggested leader is: 1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5|scm1.example.com:9894")),
            s(FCR, "Skip sending delete container command, since not leader SCM".to_string()),
            s(FCR, format!("Resurrecting container #1051 from DELETED to QUASI_CLOSED due to non-empty OPEN replica (keyCount=37, BCSID=4790) from {d_open}")),
            s(FCR, format!("Resurrecting container #1051 from DELETING to CLOSED due to non-empty CLOSED replica (keyCount=3, BCSID=4900) from {}", details("DELETING", 4900, "CLOSED", 4900, "non-empty"))),
            s(ICR, format!("transitionDeletingToClosed due to non-empty CLOSED replica (keyCount=9) for {}", details("DELETED", 1384, "CLOSING", 1384, "non-empty"))),
            s(FCR, format!("Moving container ContainerInfo{{id=#1051, state=DELETED, stateEnterTime=2026-08-19T22:10:03.120Z, pipelineID=PipelineID={}, owner=om1}} from DELETED to CLOSED state, datanode dn5.example.com reported replica with state=OPEN, isEmpty=false, bcsId=4790, keyCount=37, and origin={DN5_UUID}", &PIPE[9..])),
            s(FCR, "Moving DELETING container #1051 to CLOSED state, datanode dn5.example.com reported replica with state=CLOSED, isEmpty=false and keyCount=37.".to_string()),
            s(FCR, format!("Replica not processed due to container state RECOVERING: {d_open}")),
            s(ICR, format!("Failed to process {d_open}")),
            s(ICR, format!("SCM_NOT_LEADER: Failed to process {d_open}")),
            s(ICR, format!("org.apache.hadoop.hdds.scm.node.states.NodeNotFoundException: {DN5_UUID}: {d_open}")),
            s(ICR, "Container not found: #1051".to_string()),
            s(ICR, "Container replica not found: #1051".to_string()),
            s(FCR, format!("Datanode not found: {DN5}")),
            s(FCR, format!("CONTAINER_NOT_FOUND for Container #1051 (NOT_FOUND) r0 (CLOSED, bcsid=12, origin={DN5_UUID}, non-empty) from dn {DN5}")),
            s(FCR, format!("Failed to remove missing container #1051: datanode {DN5} not found")),
            s(FCR, format!("Failed to remove container replica: container #1051 not found in datanode {DN5}")),
            c("ContainerStateManagerImpl", "Container sequenceId is 4821 greater than the leader container sequenceId 4790".to_string()),
            c("ContainerStateManagerImpl", "Failed to updateContainerStateWithSequenceId for container #1051 at sequenceId 4821, ignoring it.".to_string()),
            c("ContainerStateManagerImpl", "Found container #1051 which is in OPEN state without a pipeline ID. Marking it as CLOSING.".to_string()),
            c("ContainerStateManagerImpl", format!("Found container #1051 which is in OPEN state with pipeline {PIPE} that does not exist.")),
            c("states.ContainerStateMap", "Updated the container #1051 from DELETED to QUASI_CLOSED".to_string()),
            c("ContainerManagerImpl", format!("New container allocated: {info}")),
            c("ContainerManagerImpl", format!("Container allocation failed on pipeline={PIPE}")),
            s(RM_LOGGER, "Replication Monitor Thread took 96 milliseconds for processing 1797 containers.".to_string()),
            s(RM_LOGGER, "Replication Manager is not ready to run until 300000ms after safemode exit".to_string()),
            s(RM_LOGGER, format!("Sending command [closeContainerCommand: cmdID: 118990871, encodedToken: \"\", term: 0, deadlineMsSinceEpoch: 0, containerID: 1051, pipelineID: {PIPE}, force: false] for container {info} to {DN5} with datanode deadline 1755688623552 and scm deadline 1755689223552")),
            s(RM_LOGGER, "Failed to update the state of container #1051, update Event DELETE".to_string()),
            s(RM_LOGGER, "Skip sending close container command, since current SCM is not leader.".to_string()),
            s(RM_LOGGER, "Starting Replication Monitor Thread.".to_string()),
            h("EmptyContainerHandler", format!("Container {info} is empty and closed, marking as DELETING")),
            h("EmptyContainerHandler", "Updating bcsId for empty QUASI_CLOSED container #1051 from 4790 to 4821 before deletion".to_string()),
            h("EmptyContainerHandler", format!("Deleting empty QUASI_CLOSED container #1051 (container BCSID=4821, max replica BCSID=4821) with 2 replicas from originIds: [{DN5_UUID}, 9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40]. If resurrected, container will transition to QUASI_CLOSED")),
            h("EmptyContainerHandler", format!("Skipping delete command for replica in OPEN state for empty container #1051 on datanode {DN5}. Will retry after replica transitions to QUASI_CLOSED or CLOSED.")),
            h("DeletingContainerHandler", format!("Failed to delete empty replica with index 0 for container #1051 on datanode {DN5}")),
            h("DeletingContainerHandler", "Deleting Container #1051 has no replicas so marking for cleanup and returning true".to_string()),
            h("QuasiClosedContainerHandler", "Force closing container #1051 with BCSID 4821, which is in QUASI_CLOSED state.".to_string()),
            s("org.apache.hadoop.hdds.scm.container.replication.QuasiClosedStuckUnderReplicationHandler", "Skipping replication for empty QUASI_CLOSED stuck container #1051. It will be deleted by EmptyContainerHandler.".to_string()),
            s("org.apache.hadoop.hdds.scm.container.replication.QuasiClosedStuckUnderReplicationHandler", "A command was not sent for all required new replicas for container #1051. Total sent 1, required 3 ".to_string()),
            s("org.apache.hadoop.hdds.scm.container.replication.QuasiClosedStuckUnderReplicationHandler", "Cannot replicate container #1051 because no suitable targets were found.".to_string()),
            s("org.apache.hadoop.hdds.scm.container.replication.QuasiClosedStuckUnderReplicationHandler", "Cannot replicate container #1051 because all sources are overloaded.".to_string()),
            h("OpenContainerHandler", format!("Container {info} is open but has no Pipeline. Triggering close.")),
            h("RatisReplicationCheckHandler", "Container #1051 is not healthy but is not under, over or  mis-replicated. Should not happen.".to_string()),
            h("MismatchedReplicasHandler", format!("Sending close command for mismatched replica ContainerReplica{{#1051 (OPEN) currentDN={DN5}, originDN={DN5_UUID}, bcsid=4790, keyCount=37, bytesUsed=1024, non-empty}} of container {info}.")),
            h("ClosedWithUnhealthyReplicasHandler", "Not handling container #1051 because replica index 0 is under replicated. Not deleting UNHEALTHY replica [ContainerReplica{#1051 (UNHEALTHY)}].".to_string()),
            b("SCMBlockDeletingService", "Totally added 4 blocks to be deleted for 3 datanodes / 5 totalnodes, limit per iteration : 500000blocks, task elapsed time: 19ms"),
            b("SCMBlockDeletingService", "Skipping block deletion as transactionToDNsCommitMap size = 6000, exceeds threshold 5000"),
            b("SCMBlockDeletingService", "Skip current run, since not leader any more."),
            b("DeletedBlockLogImpl", "Container: #1051 was deleted for the transaction: txID: 77 containerID: 1051 localID: 1 count: 0."),
            b("DeletedBlockLogImpl", "Container: #1051 was not found for the transaction: txID: 78 containerID: 1051 localID: 2 count: 0."),
            b("DeletedBlockLogImpl", "Skip commit transactions since current SCM is not leader."),
            b("SCMDeletedBlockTransactionStatusManager", &format!("Clean SCMCommand record for Datanode: {DN5_UUID}")),
            b("SCMDeletedBlockTransactionStatusManager", &format!("SCM BlockDeletionCommand 12 for Datanode: {DN5_UUID} was removed after 600000ms without update")),
        ]
    }

    fn sample(prefix: &str) -> String {
        samples()
            .into_iter()
            .map(|(_, m)| m)
            .find(|m| m.starts_with(prefix))
            .unwrap_or_else(|| panic!("no sample {prefix}"))
    }

    #[test]
    fn every_template_is_typed_and_every_kind_is_registered() {
        let registered: Vec<&str> = KINDS.iter().map(|k| k.kind).collect();
        let mut produced = Vec::new();
        for (logger, msg) in samples() {
            let kind = event(&logger, &msg).kind();
            assert!(registered.contains(&kind), "{kind} not in KINDS");
            produced.push(kind);
        }
        for k in &registered {
            assert!(produced.contains(k), "no sample gives {k}");
        }
    }

    #[test]
    fn abbreviated_loggers_type_the_same() {
        for (logger, msg) in samples() {
            let mut parts = logger.rsplit('.');
            let class = parts.next().unwrap();
            let short = format!("{}.{class}", parts.next().unwrap());
            assert_eq!(event(&logger, &msg), event(&short, &msg), "{short}");
        }
        let other = record(
            "org.apache.hadoop.hdds.scm.node.SCMNodeManager",
            "CLOSE x",
            "",
        );
        assert!(
            parse(&Input {
                record: &other,
                component: Component::Scm,
                audit: None
            })
            .is_none()
        );
    }

    #[test]
    fn replica_details_every_field_and_not_found() {
        let d = replica_details(&details("DELETED", 4821, "OPEN", 4790, "non-empty")).unwrap();
        assert_eq!(
            d,
            ReplicaDetails {
                container: 1051,
                container_state: Some("DELETED".into()),
                sid: Some(4821),
                replica_index: 0,
                replica_state: "OPEN".into(),
                bcsid: 4790,
                origin: DN5_UUID.into(),
                empty: false,
                datanode: DN5_UUID.into(),
                datanode_host: "dn5.example.com".into(),
            }
        );
        let nf = replica_details(&format!(
            "Container #7 (NOT_FOUND) r2 (CLOSED, bcsid=12, origin=, empty) from dn {DN5}"
        ))
        .unwrap();
        assert_eq!(
            (nf.container_state, nf.sid, nf.replica_index, nf.empty),
            (None, None, 2, true)
        );
        assert_eq!(replica_details("Container #7 (DELETED, sid=x) r0"), None);
        assert_eq!(
            replica_details(
                "Container #7 (DELETED, sid=-1) r0 (OPEN, bcsid=1, origin=a, empty) from dn nobody"
            ),
            None
        );
        let neg = details("OPEN", 0, "OPEN", 1, "empty").replace("sid=0", "sid=-1");
        assert_eq!(replica_details(&neg).unwrap().sid, Some(-1));
    }

    #[test]
    fn resurrection_wordings_of_every_release() {
        let head = event(FCR, &sample("Resurrecting container #1051 from DELETED"));
        let ScmContainerEvent::Resurrected(r) = &head else {
            panic!("{head:?}")
        };
        assert_eq!(
            (
                r.from.as_str(),
                r.to.as_str(),
                r.replica_state.as_deref(),
                r.key_count,
                r.bcsid,
                r.sid,
                r.wording
            ),
            (
                "DELETED",
                "QUASI_CLOSED",
                Some("OPEN"),
                Some(37),
                Some(4790),
                Some(4821),
                Wording::Resurrecting
            )
        );
        assert_eq!(head.printed_sid(), Some(4821));
        let t = typed(FCR, &sample("Resurrecting container #1051 from DELETED"));
        assert_eq!(
            t.entities,
            vec![Entity::Container(1051), Entity::datanode(DN5_UUID).unwrap()]
        );

        let ScmContainerEvent::Resurrected(r) = event(ICR, &sample("transitionDeletingToClosed"))
        else {
            panic!()
        };
        assert_eq!(
            (
                r.from.as_str(),
                r.to.as_str(),
                r.replica_state.as_deref(),
                r.key_count,
                r.bcsid,
                r.sid,
                r.wording
            ),
            (
                "DELETED",
                "CLOSED",
                Some("CLOSING"),
                Some(9),
                Some(1384),
                Some(1384),
                Wording::TransitionDeletingToClosed
            )
        );
        let moving = typed(FCR, &sample("Moving container"));
        let EventData::ScmContainer(ScmContainerEvent::Resurrected(r)) = &moving.data else {
            panic!()
        };
        assert_eq!(
            (
                r.container,
                r.replica_state.as_deref(),
                r.bcsid,
                r.sid,
                r.empty,
                r.datanode_host.as_deref(),
                r.wording
            ),
            (
                1051,
                Some("OPEN"),
                Some(4790),
                None,
                Some(false),
                Some("dn5.example.com"),
                Wording::MovingContainer
            )
        );
        assert!(
            moving
                .entities
                .contains(&Entity::DatanodeHost("dn5.example.com".into()))
        );
        let ScmContainerEvent::Resurrected(r) = event(FCR, &sample("Moving DELETING")) else {
            panic!()
        };
        assert_eq!(
            (r.from.as_str(), r.key_count, r.wording),
            ("DELETING", Some(37), Wording::MovingDeleting)
        );
    }

    #[test]
    fn failures_say_whether_the_scm_was_not_leader() {
        let d = details("DELETED", 4821, "OPEN", 4790, "non-empty");
        let nle = "org.apache.hadoop.hdds.scm.exceptions.SCMException: org.apache.ratis.protocol.exceptions.NotLeaderException: Server x@group-112233445566 is not the leader\n\tat org.X.y(X.java:1)";
        let with_stack = classify(
            &record(FCR, &format!("Failed to process {d}"), nle),
            Component::Scm,
        )
        .unwrap();
        let EventData::ScmContainer(ScmContainerEvent::ReportFailed(f)) = &with_stack.data else {
            panic!()
        };
        assert!(f.not_leader);
        assert!(
            f.exception
                .as_deref()
                .unwrap()
                .starts_with("org.apache.hadoop.hdds.scm.exceptions.SCMException")
        );
        assert_eq!(with_stack.data.kind(), "container_report_not_leader");
        let io = classify(
            &record(
                ICR,
                &format!("Failed to process {d}"),
                "java.io.IOException: disk",
            ),
            Component::Scm,
        )
        .unwrap();
        assert_eq!(io.data.kind(), "container_report_failed");
        let icr = event(ICR, &format!("SCM_NOT_LEADER: Failed to process {d}"));
        assert_eq!(icr.kind(), "container_report_not_leader");
    }

    #[test]
    fn delete_commands_and_skips() {
        let ScmContainerEvent::DeleteCommand(c) = event(FCR, &sample("Sending forceDelete")) else {
            panic!()
        };
        assert!(c.sent && c.force);
        assert_eq!(c.reason.as_deref(), Some("DELETED"));
        assert_eq!(
            (
                c.replica.replica_state.as_str(),
                c.replica.bcsid,
                c.replica.sid
            ),
            ("CLOSED", 4790, Some(4821))
        );
        let normal = event(
            FCR,
            &format!(
                "Sending DeleteContainerCommand due to DELETED for {}",
                details("DELETED", 4821, "CLOSED", 4790, "empty")
            ),
        );
        let ScmContainerEvent::DeleteCommand(n) = normal else {
            panic!()
        };
        assert!(n.sent && !n.force && n.replica.empty);
        let skip = event(FCR, &sample("Skip sending DeleteContainerCommand"));
        assert_eq!(skip.kind(), "container_delete_skipped_not_leader");
        assert!(
            parse(&Input {
                record: &record(
                    FCR,
                    "Sending bogusDeleteContainerCommand due to DELETED for x",
                    ""
                ),
                component: Component::Scm,
                audit: None
            })
            .is_none()
        );
    }

    #[test]
    fn replication_manager_command_and_container_info() {
        let t = typed(RM_LOGGER, &sample("Sending command [close"));
        let EventData::ScmContainer(ScmContainerEvent::ReplicationCommand(c)) = &t.data else {
            panic!()
        };
        assert_eq!(c.command, "closeContainerCommand");
        assert_eq!(
            (c.cmd_id, c.container, c.force),
            (Some(118990871), 1051, Some(false))
        );
        assert_eq!(c.pipeline.as_deref(), Some(&PIPE[9..]));
        assert_eq!(c.state.as_deref(), Some("QUASI_CLOSED"));
        assert_eq!(
            c.state_enter_time.as_deref(),
            Some("2026-08-20T11:02:47.391Z")
        );
        assert_eq!(c.owner.as_deref(), Some("om1"));
        assert_eq!(c.datanode.as_deref(), Some(DN5_UUID));
        assert_eq!(
            (c.datanode_deadline, c.scm_deadline),
            (Some(1755688623552), Some(1755689223552))
        );
        assert!(t.entities.contains(&Entity::pipeline(&PIPE[9..]).unwrap()));

        let replicate = format!(
            "Sending command [replicateContainerCommand: cmdID: 119003360, encodedToken: \"\", term: 0, deadlineMsSinceEpoch: 0, containerId=1051, replicaIndex=0, targetNode=9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40(dn1.example.com/10.0.1.11), priority=NORMAL] for container ContainerInfo{{id=#1051, state=QUASI_CLOSED, stateEnterTime=2026-08-20T11:02:47.391Z, sequenceId=4821, pipelineID={PIPE}, owner=om1}} to {DN5} with datanode deadline 1 and scm deadline 2"
        );
        let t = typed("replication.ReplicationManager", &replicate);
        let EventData::ScmContainer(ScmContainerEvent::ReplicationCommand(c)) = &t.data else {
            panic!()
        };
        assert_eq!(
            (
                c.command.as_str(),
                c.container,
                c.replica_index,
                c.sequence_id
            ),
            ("replicateContainerCommand", 1051, Some(0), Some(4821))
        );
        assert_eq!(
            c.target.as_deref(),
            Some("9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40")
        );
        assert!(
            t.entities
                .contains(&Entity::datanode("9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40").unwrap())
        );

        let delete = "Sending command [deleteContainerCommand: cmdID: 9, encodedToken: \"\", term: 0, deadlineMsSinceEpoch: 0, containerID: 1051, replicaIndex: 0, force: true] for container ContainerInfo{id=#1051, state=CLOSED} to 9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40(dn1.example.com/10.0.1.11) with datanode deadline 1 and scm deadline 2";
        let ScmContainerEvent::ReplicationCommand(c) = event(RM_LOGGER, delete) else {
            panic!()
        };
        assert_eq!(
            (c.command.as_str(), c.force, c.state.as_deref()),
            ("deleteContainerCommand", Some(true), Some("CLOSED"))
        );
    }

    #[test]
    fn sequence_ids_outside_the_details() {
        let e = event(
            &format!("{HEALTH}EmptyContainerHandler"),
            &sample("Deleting empty QUASI"),
        );
        assert_eq!(
            (e.kind(), e.container(), e.printed_sid()),
            ("empty_quasi_closed_deleted", Some(1051), Some(4821))
        );
        let ScmContainerEvent::SequenceId(s) = e else {
            panic!()
        };
        assert_eq!(
            (s.other, s.replicas, s.origins.len()),
            (Some(4821), Some(2), 2)
        );
        let e = event(
            &format!("{HEALTH}EmptyContainerHandler"),
            &sample("Updating bcsId"),
        );
        assert_eq!(
            (e.kind(), e.printed_sid()),
            ("container_bcsid_updated", Some(4821))
        );
        let e = event("states.ContainerStateMap", &sample("Updated the container"));
        let ScmContainerEvent::StateChange(c) = e else {
            panic!()
        };
        assert_eq!(
            (c.container, c.from.as_deref(), c.to.as_str()),
            (1051, Some("DELETED"), "QUASI_CLOSED")
        );
    }

    #[test]
    fn fill_matches_format_strings() {
        assert_eq!(fill("a {} b {}", "a 1 b 2"), Some(vec!["1", "2"]));
        assert_eq!(fill("a {} b {}.", "a 1 b 2"), None);
        assert_eq!(fill("x", "x"), Some(vec![]));
        assert_eq!(fill("x", "xy"), None);
        assert_eq!(
            fill(
                "Sending {}DeleteContainerCommand",
                "Sending DeleteContainerCommand"
            ),
            Some(vec![""])
        );
        assert_eq!(fill("é{}", "é\u{1F600}"), Some(vec!["\u{1F600}"]));
    }

    fn read(text: &str) -> Vec<Record> {
        let mut records = Vec::new();
        let (_, error) = read_records(&mut text.as_bytes(), &ReadOptions::default(), &mut |r| {
            records.push(r)
        });
        assert!(error.is_none());
        records
    }

    #[test]
    fn file_and_console_layouts_with_stack_traces() {
        let d = details("DELETED", 4821, "OPEN", 4790, "non-empty");
        let file = format!(
            "2026-08-20 11:02:47,402 [scm2-FixedThreadPoolWithAffinityExecutor-3-0] INFO org.apache.hadoop.hdds.scm.container.ContainerReportHandler: Resurrecting container #1051 from DELETED to QUASI_CLOSED due to non-empty OPEN replica (keyCount=37, BCSID=4790) from {d}\n\
2026-08-20 11:02:47,405 [scm2-FixedThreadPoolWithAffinityExecutor-3-0] ERROR org.apache.hadoop.hdds.scm.container.ContainerReportHandler: Failed to process {d}\n\
org.apache.hadoop.hdds.scm.exceptions.SCMException: org.apache.ratis.protocol.exceptions.NotLeaderException: Server 2d1e3f40-5b6c-4d7e-9f80-a1b2c3d4e5f6@group-112233445566 is not the leader, suggested leader is: 1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5|scm1.example.com:9894\n\
\tat org.apache.hadoop.hdds.scm.ha.invoker.ScmInvoker.translateException(ScmInvoker.java:118)\n\
\t... 14 more\n"
        );
        let console = format!(
            "scm2_1  | 2026-08-20 11:02:47,402 [scm2-FixedThreadPoolWithAffinityExecutor-3-0] INFO container.IncrementalContainerReportHandler: transitionDeletingToClosed due to non-empty CLOSED replica (keyCount=9) for {d}\n\
scm2_1  | 2026-08-20 11:02:47,405 [scm2-FixedThreadPoolWithAffinityExecutor-3-0] INFO container.IncrementalContainerReportHandler: SCM_NOT_LEADER: Failed to process {d}\n"
        );
        for (text, kinds) in [
            (
                file,
                ["container_resurrected", "container_report_not_leader"],
            ),
            (
                console,
                ["container_resurrected", "container_report_not_leader"],
            ),
        ] {
            let records = read(&text);
            let got: Vec<&str> = records
                .iter()
                .map(|r| {
                    classify(r, Component::Scm)
                        .map(|t| t.data.kind())
                        .unwrap_or("none")
                })
                .collect();
            assert_eq!(got, kinds);
        }
    }

    #[test]
    fn garbage_never_panics() {
        for (logger, msg) in samples() {
            for cut in 0..msg.len() {
                if msg.is_char_boundary(cut) {
                    let _ = parse(&Input {
                        record: &record(&logger, &msg[..cut], ""),
                        component: Component::Scm,
                        audit: None,
                    });
                }
            }
        }
    }
}
