//! SCM container statements (scm.md 2.3-2.6): the container report handlers, the container
//! manager, the ReplicationManager and its health handlers, and block deletion.
//!
//! The replica details `<D>` that every report-handler line ends with (`getDetailsForLogging`, a
//! `Replica` placeholder) are read by [`replica_details`].
//!
//! `Service ReplicationManager transitions to RUNNING.` and `notifyStatusChanged:RUNNING` are
//! scm.md 2.1 service-status lines: `scm.rs` types them (it runs first).

use super::template::{Matched, catalogue};
use super::{Input, Typed};
use crate::entity::{self, Entity};
pub use crate::entity::{ReplicaDetails, replica_details};
use serde::Serialize;

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
    /// The reconstruct command's `replicationConfig` (`EC{rs-6-3-1024k}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replication_config: Option<String>,
    /// The reconstruct command's `missingIndexes` (`[3, 5]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_indexes: Vec<u32>,
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
    // The large payloads are boxed so that every `Event` stays small to move (issue 11).
    Replica(Box<ReplicaEvent>),
    DeleteCommand(Box<DeleteCommandEvent>),
    Resurrected(Box<ResurrectedEvent>),
    ReportFailed(Box<ReportFailedEvent>),
    ReplicationCommand(Box<ReplicationCommandEvent>),
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

/// What one statement's builder returns.
type Built = (ScmContainerEvent, Vec<Entity>);

const RH: &str = "org.apache.hadoop.hdds.scm.container.AbstractContainerReportHandler (logger ContainerReportHandler / IncrementalContainerReportHandler)";
const CRH: &str = "org.apache.hadoop.hdds.scm.container.ContainerReportHandler";
const ICRH: &str = "org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler";
/// Lines both report handlers print themselves.
const REPORTS: &str = "org.apache.hadoop.hdds.scm.container.ContainerReportHandler / IncrementalContainerReportHandler";
/// `AbstractContainerReportHandler` logs through its subclass's logger.
const REPORT_HANDLERS: &[&str] = &[CRH, ICRH];
const STATE_MANAGER: &str = "org.apache.hadoop.hdds.scm.container.ContainerStateManagerImpl";
const RM: &str = "org.apache.hadoop.hdds.scm.container.replication.ReplicationManager";
const ECH: &str = "org.apache.hadoop.hdds.scm.container.replication.health.EmptyContainerHandler";
const DCH: &str =
    "org.apache.hadoop.hdds.scm.container.replication.health.DeletingContainerHandler";
const STUCK: &str =
    "org.apache.hadoop.hdds.scm.container.replication.QuasiClosedStuckUnderReplicationHandler";
const BLOCK_DELETING: &str = "org.apache.hadoop.hdds.scm.block.SCMBlockDeletingService";
const DELETED_BLOCK_LOG: &str = "org.apache.hadoop.hdds.scm.block.DeletedBlockLogImpl";
const TXN_STATUS: &str = "org.apache.hadoop.hdds.scm.block.SCMDeletedBlockTransactionStatusManager";

catalogue! {
    event ScmContainerEvent;
    log "scm" {
    // scm.md 2.3: report handlers. `<D>` is getDetailsForLogging (a Replica slot).
    "container_replica_processing", "DEBUG", RH, via REPORT_HANDLERS, "1.3–HEAD", "scm.md 2.3",
        "Processing replica {}" [Replica] => |m| replica(ReplicaAction::Processing, m, 0),
    "container_closed_sid_lower", "ERROR", RH, via REPORT_HANDLERS, "2.1–HEAD", "scm.md 2.3",
        "Container CLOSED with sequence ID lower than a replica: {}, proto={}" [Replica, Unread] =>
        |m| replica(ReplicaAction::ClosedWithLowerSid, m, 0),
    "container_finalize", "INFO", RH, via REPORT_HANDLERS, "2.1–HEAD", "scm.md 2.3",
        "FINALIZE (i.e. CLOSING) {}" [Replica] => |m| replica(ReplicaAction::Finalize, m, 0),
    "container_quasi_close", "INFO", RH, via REPORT_HANDLERS, "1.3–HEAD", "scm.md 2.3",
        "QUASI_CLOSE {}" [Replica] => |m| replica(ReplicaAction::QuasiClose, m, 0),
    "container_close", "INFO", RH, via REPORT_HANDLERS, "1.3–HEAD", "scm.md 2.3",
        "CLOSE {}" [Replica] => |m| replica(ReplicaAction::Close, m, 0),
    "container_force_close", "INFO", RH, via REPORT_HANDLERS, "2.1–HEAD", "scm.md 2.3",
        "FORCE_CLOSE for {}" [Replica] => |m| replica(ReplicaAction::ForceClose, m, 0),
    "replica_bcsid_mismatch", "WARN", RH, via REPORT_HANDLERS, "2.1–HEAD", "scm.md 2.3",
        "Replica BCSID mismatched for {} " [Replica] => |m| replica(ReplicaAction::BcsidMismatch, m, 0),
    "container_update_skipped_follower", "DEBUG", RH, via REPORT_HANDLERS, "HEAD (unreleased)", "scm.md 2.3",
        "Skipping updateContainerState on non-leader SCM, container {} event {}" [Container, Word] => statement,
    "container_delete_command", "INFO", RH, via REPORT_HANDLERS, "2.1–HEAD", "scm.md 2.3, 5.4",
        "Sending {}DeleteContainerCommand due to {} for {}" [Flag, Word, Replica] =>
        |m| {
            let event = ScmContainerEvent::DeleteCommand(Box::new(DeleteCommandEvent {
                sent: true,
                force: !m.text(0).is_empty(),
                reason: Some(m.string(1)),
                replica: replica_details(m.text(2))?,
            }));
            built(event, m)
        },
    "container_delete_command", "INFO", RH, via REPORT_HANDLERS, "1.3–2.0", "scm.md 2.3 (version history)",
        "Sending delete container command for {} container {} to datanode {}" [Text, Container, Datanode] => statement,
    "container_delete_skipped_not_leader", "WARN", RH, via REPORT_HANDLERS, "2.1–HEAD", "scm.md 2.3, 5.4",
        "Skip sending DeleteContainerCommand for {}: {}" [Replica, Unread] =>
        |m| {
            let event = ScmContainerEvent::DeleteCommand(Box::new(DeleteCommandEvent {
                sent: false,
                force: false,
                reason: None,
                replica: replica_details(m.text(0))?,
            }));
            built(event, m)
        },
    "container_delete_skipped_not_leader", "WARN", RH, via REPORT_HANDLERS, "1.3–2.0", "scm.md 2.3 (version history)",
        "Skip sending delete container command, since not leader SCM" [] => statement,
    "container_resurrected", "INFO", RH, via REPORT_HANDLERS, "2.2–HEAD (HDDS-14684)", "scm.md 2.3, 5",
        "Resurrecting container {} from {} to QUASI_CLOSED due to non-empty {} replica (keyCount={}, BCSID={}) from {}"
        [Unread, Word, Word, U64, U64, Replica] =>
        |m| {
            let d = replica_details(m.text(5))?;
            let mut event = resurrected(d, "QUASI_CLOSED", m.u64(3), Wording::Resurrecting);
            event.from = m.string(1);
            // The replica state the message names; `<D>` says the same.
            event.replica_state = Some(m.string(2));
            event.bcsid = m.u64(4).or(event.bcsid);
            built(ScmContainerEvent::Resurrected(Box::new(event)), m)
        },
    "container_resurrected", "INFO", RH, via REPORT_HANDLERS, "2.2–HEAD (HDDS-14684)", "scm.md 2.3",
        "Resurrecting container {} from {} to CLOSED due to non-empty CLOSED replica (keyCount={}, BCSID={}) from {}"
        [Unread, Word, U64, Unread, Replica] =>
        |m| {
            let d = replica_details(m.text(4))?;
            let mut event = resurrected(d, "CLOSED", m.u64(2), Wording::Resurrecting);
            event.from = m.string(1);
            built(ScmContainerEvent::Resurrected(Box::new(event)), m)
        },
    "container_resurrected", "INFO", RH, via REPORT_HANDLERS, "2.1.x", "scm.md 2.3 (version history)",
        "transitionDeletingToClosed due to non-empty CLOSED replica (keyCount={}) for {}" [U64, Replica] =>
        |m| {
            let d = replica_details(m.text(1))?;
            let event = resurrected(d, "CLOSED", m.u64(0), Wording::TransitionDeletingToClosed);
            built(ScmContainerEvent::Resurrected(Box::new(event)), m)
        },
    "container_resurrected", "INFO", RH, via REPORT_HANDLERS, "2.0.x", "scm.md 2.3 (version history)",
        "Moving container {} from {} to CLOSED state, datanode {} reported replica with state={}, isEmpty={}, bcsId={}, keyCount={}, and origin={}"
        [Container, Word, Name, Word, Bool, U64, U64, Text] =>
        |m| {
            let event = ResurrectedEvent {
                container: m.container(0)?,
                from: m.string(1),
                to: "CLOSED".to_string(),
                replica_state: Some(m.string(3)),
                key_count: m.u64(6),
                bcsid: m.u64(5),
                sid: None,
                empty: m.bool(4),
                origin: Some(m.string(7)),
                datanode: None,
                datanode_host: Some(m.string(2)),
                wording: Wording::MovingContainer,
            };
            built(ScmContainerEvent::Resurrected(Box::new(event)), m)
        },
    "container_resurrected", "INFO", RH, via REPORT_HANDLERS, "1.4.1", "scm.md 2.3 (version history)",
        "Moving DELETING container {} to CLOSED state, datanode {} reported replica with state={}, isEmpty={} and keyCount={}."
        [Container, Name, Word, Bool, U64] =>
        |m| {
            let event = ResurrectedEvent {
                container: m.container(0)?,
                from: "DELETING".to_string(),
                to: "CLOSED".to_string(),
                replica_state: Some(m.string(2)),
                key_count: m.u64(4),
                bcsid: None,
                sid: None,
                empty: m.bool(3),
                origin: None,
                datanode: None,
                datanode_host: Some(m.string(1)),
                wording: Wording::MovingDeleting,
            };
            built(ScmContainerEvent::Resurrected(Box::new(event)), m)
        },
    "replica_not_processed", "ERROR", RH, via REPORT_HANDLERS, "2.1–HEAD", "scm.md 2.3",
        "Replica not processed due to container state {}: {}" [Unread, Replica] =>
        |m| replica(ReplicaAction::NotProcessed, m, 1),
    "container_report_failed", "ERROR (FCR) / INFO (ICR)", REPORTS, via REPORT_HANDLERS, "2.1–HEAD", "scm.md 2.3, 5.3",
        "Failed to process {}" [Replica] => report_failed,
    "container_report_not_leader", "ERROR (FCR, NotLeaderException stack)", CRH, "2.1–HEAD", "scm.md 1.1, 5.3",
        "Failed to process {}" [Replica] => report_failed,
    "container_report_not_leader", "INFO", ICRH, "2.1–HEAD", "scm.md 2.3",
        "SCM_NOT_LEADER: Failed to process {}" [Replica] => report_failed,
    "container_not_found_icr", "WARN", ICRH, "2.1–HEAD", "scm.md 2.3",
        "Container not found: {}" [Replica] => statement,
    "container_replica_not_found_icr", "WARN", ICRH, "2.1–HEAD", "scm.md 2.3",
        "Container replica not found: {}" [Replica] => statement,
    "report_datanode_not_found", "WARN", REPORTS, via REPORT_HANDLERS, "2.1–HEAD", "scm.md 2.3",
        "Datanode not found: {}" [Datanode] => statement,
    "container_not_found", "ERROR", CRH, "2.1–HEAD", "scm.md 2.3",
        "CONTAINER_NOT_FOUND for {}" [Replica] => |m| replica(ReplicaAction::ContainerNotFound, m, 0),
    "missing_replica_remove_failed", "WARN", CRH, "2.1–HEAD", "scm.md 2.3",
        "Failed to remove missing container {}: datanode {} not found" [Container, Datanode] => statement,
    "missing_replica_remove_failed", "WARN", CRH, "2.1–HEAD", "scm.md 2.3",
        "Failed to remove container replica: container {} not found in datanode {}" [Container, Datanode] => statement,
    // After every other ICR template: the exception's text may hold `: ` too.
    "container_report_error", "ERROR", ICRH, "2.1–HEAD", "scm.md 2.3",
        "{}: {}" [Unread, Replica] => |m| replica(ReplicaAction::Error, m, 1),

    // scm.md 2.4: container manager.
    "container_sid_ahead", "WARN", STATE_MANAGER, "2.2–HEAD", "scm.md 2.4",
        "Container sequenceId is {} greater than the leader container sequenceId {}" [U64, U64] => statement,
    "container_sid_update_failed", "WARN", STATE_MANAGER, "HEAD (unreleased)", "scm.md 2.4",
        "Failed to updateContainerStateWithSequenceId for container {} at sequenceId {}, ignoring it." [Container, U64] =>
        |m| {
            let event = ScmContainerEvent::SequenceId(SequenceIdEvent {
                kind: m.kind,
                container: m.container(0)?,
                sid: m.u64(1)?,
                other: None,
                replicas: None,
                origins: Vec::new(),
            });
            built(event, m)
        },
    "open_container_without_pipeline", "WARN", STATE_MANAGER, "2.2–HEAD", "scm.md 2.4",
        "Found container {} which is in OPEN state without a pipeline ID. {}" [Container, Text] => statement,
    "open_container_without_pipeline", "WARN", STATE_MANAGER, "1.3–HEAD", "scm.md 2.4",
        "Found container {} which is in OPEN state with pipeline {} that does not exist." [Container, Pipeline] => statement,
    "container_state_updated", "TRACE", "org.apache.hadoop.hdds.scm.container.states.ContainerStateMap", "1.3–HEAD", "scm.md 2.4",
        "Updated the container {} from {} to {}" [Container, Word, Word] =>
        |m| {
            let event = ScmContainerEvent::StateChange(StateChangeEvent {
                kind: m.kind,
                container: m.container(0)?,
                from: Some(m.string(1)),
                to: m.string(2),
            });
            built(event, m)
        },
    "container_allocated", "TRACE", "org.apache.hadoop.hdds.scm.container.ContainerManagerImpl", "1.3–HEAD", "scm.md 2.4",
        "New container allocated: {}" [Container] => statement,
    "container_allocation_failed", "WARN", "org.apache.hadoop.hdds.scm.container.ContainerManagerImpl", "1.3–HEAD", "scm.md 2.4",
        "Container allocation failed on pipeline={}" [Pipeline] => statement,

    // scm.md 2.5: ReplicationManager and its health handlers.
    "rm_pass", "INFO", RM, "1.3–HEAD", "scm.md 2.5",
        "Replication Monitor Thread took {} milliseconds for processing {} containers." [U64, U64] => statement,
    "rm_not_ready", "INFO", RM, "1.3–HEAD", "scm.md 2.5",
        "Replication Manager is not ready to run until {}ms after safemode exit" [U64] => statement,
    "rm_send_command", "INFO", RM, "1.4–HEAD", "scm.md 2.5, 3",
        "Sending command [{}] for container {} to {} with datanode deadline {} and scm deadline {}"
        [Text, Container, Datanode, I64, I64] => send_command,
    // The health handlers' verdicts on one container (read at HEAD 78d5650c and the 1.4.0-2.2.0
    // tags; not in scm.md): the expected count, and replicas about to be created.
    "rm_over_replicated", "INFO", "org.apache.hadoop.hdds.scm.container.replication.RatisOverReplicationHandler", "1.4–HEAD", "scm.md 2.5 (RatisOverReplicationHandler.processAndSendCommands)",
        "Container {} is over replicated. Actual replica count is {}, with {} pending delete(s). Expected replica count is {}."
        [Container, U64, U64, U64] => statement,
    "rm_replication_pending", "INFO", "org.apache.hadoop.hdds.scm.container.replication.RatisUnderReplicationHandler", "1.4–HEAD", "scm.md 2.5 (RatisUnderReplicationHandler.verifyUnderReplication)",
        "Container {} with replicas {} will be sufficiently replicated after pending replicas are created." [Container, Text] => statement,
    "rm_replication_pending", "INFO", "org.apache.hadoop.hdds.scm.container.replication.ECUnderReplicationHandler", "1.4–HEAD", "scm.md 2.5 (ECUnderReplicationHandler.processAndSendCommands)",
        "The container {} with replicas {} will be sufficiently replicated after pending replicas are created" [Container, Text] => statement,
    "rm_state_update_failed", "ERROR", RM, "1.3–HEAD", "scm.md 2.5",
        "Failed to update the state of container {}, update Event {}" [Container, Word] => statement,
    "rm_close_skipped_not_leader", "WARN", RM, "1.3–HEAD", "scm.md 2.5",
        "Skip sending close container command, since current SCM is not leader." [] => statement,
    "rm_started", "INFO", RM, "1.3–HEAD", "scm.md 2.5",
        "Starting Replication Monitor Thread." [] => statement,
    "container_marked_deleting", "DEBUG", ECH, "1.4–HEAD", "scm.md 2.5",
        "Container {} is empty and closed, marking as DELETING" [Container] =>
        |m| state_change(m, None, "DELETING"),
    "container_bcsid_updated", "INFO", ECH, "2.2–HEAD", "scm.md 2.5",
        "Updating bcsId for empty QUASI_CLOSED container {} from {} to {} before deletion" [Container, U64, U64] =>
        |m| {
            let event = ScmContainerEvent::SequenceId(SequenceIdEvent {
                kind: m.kind,
                container: m.container(0)?,
                sid: m.u64(2)?,
                other: m.u64(1),
                replicas: None,
                origins: Vec::new(),
            });
            built(event, m)
        },
    "empty_quasi_closed_deleted", "INFO", ECH, "2.2–HEAD (HDDS-14684)", "scm.md 2.5, 5.4",
        "Deleting empty QUASI_CLOSED container {} (container BCSID={}, max replica BCSID={}) with {} replicas from originIds: [{}]. If resurrected, container will transition to QUASI_CLOSED"
        [Container, U64, U64, U64, Text] =>
        |m| {
            let event = ScmContainerEvent::SequenceId(SequenceIdEvent {
                kind: m.kind,
                container: m.container(0)?,
                sid: m.u64(1)?,
                other: m.u64(2),
                replicas: m.u64(3),
                origins: m
                    .text(4)
                    .split(", ")
                    .filter(|o| !o.is_empty())
                    .map(str::to_string)
                    .collect(),
            });
            built(event, m)
        },
    "empty_replica_delete_deferred", "INFO", ECH, "2.2–HEAD", "scm.md 2.5",
        "Skipping delete command for replica in {} state for empty container {} on datanode {}. Will retry after replica transitions to QUASI_CLOSED or CLOSED."
        [Word, Container, Datanode] => statement,
    "empty_replica_delete_failed", "WARN", "org.apache.hadoop.hdds.scm.container.replication.health.EmptyContainerHandler / DeletingContainerHandler", via &[ECH, DCH], "1.3–HEAD", "scm.md 2.5",
        "Failed to delete empty replica with index {} for container {} on datanode {}" [U64, Container, Datanode] => statement,
    "container_cleanup", "DEBUG", DCH, "1.4–HEAD", "scm.md 2.5",
        "Deleting Container {} has no replicas so marking for cleanup and returning true" [Container] =>
        |m| state_change(m, Some("DELETING"), "DELETED"),
    "container_force_closing", "INFO", "org.apache.hadoop.hdds.scm.container.replication.health.QuasiClosedContainerHandler", "1.3–HEAD", "scm.md 2.5",
        "Force closing container {} with BCSID {}, which is in QUASI_CLOSED state." [Container, U64] => statement,
    "stuck_replication_skipped", "INFO", STUCK, "2.2–HEAD", "scm.md 2.5",
        "Skipping replication for empty QUASI_CLOSED stuck container {}. It will be deleted by EmptyContainerHandler." [Container] => statement,
    "stuck_replication_incomplete", "INFO", STUCK, "2.0–HEAD", "scm.md 2.5",
        "A command was not sent for all required new replicas for container {}. Total sent {}, required {} " [Container, U64, U64] => statement,
    "stuck_replication_blocked", "WARN", STUCK, "2.0–HEAD", "scm.md 2.5",
        "Cannot replicate container {} because no suitable targets were found." [Container] => statement,
    "stuck_replication_blocked", "WARN", STUCK, "2.0–HEAD", "scm.md 2.5",
        "Cannot replicate container {} because all sources are overloaded." [Container] => statement,
    "open_container_closing", "INFO", "org.apache.hadoop.hdds.scm.container.replication.health.OpenContainerHandler", "1.4–HEAD", "scm.md 2.5",
        "Container {} is open but {}. Triggering close." [Container, Text] => statement,
    "container_health_unknown", "WARN", "org.apache.hadoop.hdds.scm.container.replication.health.RatisReplicationCheckHandler", "1.4–HEAD", "scm.md 2.5",
        "Container {} is not healthy but is not under, over or  mis-replicated. Should not happen." [Container] => statement,
    "mismatched_replica_close", "DEBUG", "org.apache.hadoop.hdds.scm.container.replication.health.MismatchedReplicasHandler", "1.4–HEAD", "scm.md 2.5, 5.2",
        "Sending close command for mismatched replica {} of container {}." [Text, Container] => statement,
    "unhealthy_replica_kept", "WARN", "org.apache.hadoop.hdds.scm.container.replication.health.ClosedWithUnhealthyReplicasHandler", "1.4–HEAD", "scm.md 2.5",
        "Not handling container {} because replica index {} is under replicated. Not deleting UNHEALTHY replica [{}]." [Container, U64, Text] => statement,

    // scm.md 2.6: block deletion.
    "block_deletion_pass", "INFO", BLOCK_DELETING, "2.0–HEAD", "scm.md 2.6",
        "Totally added {} blocks to be deleted for {} datanodes / {} totalnodes, limit per iteration : {}blocks, task elapsed time: {}ms"
        [U64, U64, U64, U64, U64] => statement,
    "block_deletion_throttled", "WARN", BLOCK_DELETING, "2.1–HEAD", "scm.md 2.6",
        "Skipping block deletion as transactionToDNsCommitMap size = {}, exceeds threshold {}" [U64, U64] => statement,
    "block_deletion_not_leader", "WARN", BLOCK_DELETING, "1.3–HEAD", "scm.md 2.6",
        "Skip current run, since not leader any more." [] => statement,
    "deleted_block_txn_container_deleted", "WARN", DELETED_BLOCK_LOG, "1.4–HEAD", "scm.md 2.6, 5.2",
        "Container: {} was deleted for the transaction: {}." [Container, Text] => statement,
    "deleted_block_txn_container_missing", "WARN", DELETED_BLOCK_LOG, "1.3–HEAD", "scm.md 2.6",
        "Container: {} was not found for the transaction: {}." [Container, Text] => statement,
    "deleted_block_commit_skipped_not_leader", "INFO", DELETED_BLOCK_LOG, "1.3–HEAD", "scm.md 2.6",
        "Skip commit transactions since current SCM is not leader." [] => statement,
    "block_deletion_records_cleaned", "INFO", TXN_STATUS, "1.4.1–HEAD", "scm.md 2.6",
        "Clean SCMCommand record for Datanode: {}" [Text] => statement,
    "block_deletion_command_expired", "WARN", TXN_STATUS, "1.4.1–HEAD", "scm.md 2.6",
        "SCM BlockDeletionCommand {} for Datanode: {} was removed after {}ms without update" [Text, Text, U64] => statement,
    }
}

// ---------------------------------------------------------------------------------------------
// Builders

/// The event and the entities it names: its container, then the datanode, pipeline and target it
/// carries; a plain statement names whatever its text prints.
fn built(event: ScmContainerEvent, m: &Matched<'_>) -> Option<Built> {
    let mut out = Vec::new();
    if let Some(id) = event.container() {
        out.push(Entity::Container(id));
    }
    match &event {
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
            let msg = m.input.record.message.as_str();
            out.extend(entity::find_containers(msg).map(|c| Entity::Container(c.value)));
            out.extend(entity::find_datanode_details(msg).map(|d| d.value.entity()));
            out.extend(entity::find_pipelines(msg).filter_map(|p| Entity::pipeline(p.value)));
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
    Some((event, out))
}

/// Any other catalogued statement: its values in order.
fn statement(m: &Matched<'_>) -> Option<Built> {
    let container = m
        .values()
        .iter()
        .find_map(|a| entity::find_containers(a).next().map(|c| c.value));
    let event = ScmContainerEvent::Statement(StatementEvent {
        kind: m.kind,
        container,
        args: m.values().iter().map(|v| v.to_string()).collect(),
    });
    built(event, m)
}

/// A report-handler decision about the replica `<D>` of placeholder `i`.
fn replica(action: ReplicaAction, m: &Matched<'_>, i: usize) -> Option<Built> {
    let event = ScmContainerEvent::Replica(Box::new(ReplicaEvent {
        action,
        replica: replica_details(m.text(i))?,
    }));
    built(event, m)
}

/// `Failed to process {}` (FCR ERROR with a stack, ICR INFO) and the ICR's `SCM_NOT_LEADER: …`:
/// the record says whether this SCM was a follower whose write went nowhere.
fn report_failed(m: &Matched<'_>) -> Option<Built> {
    let record = m.input.record;
    let continuation = record.continuation.as_str();
    let not_leader = record.message.contains("SCM_NOT_LEADER")
        || continuation.contains("NotLeaderException")
        || continuation.contains("SCM_NOT_LEADER");
    let event = ScmContainerEvent::ReportFailed(Box::new(ReportFailedEvent {
        not_leader,
        exception: continuation.lines().next().map(str::to_string),
        replica: replica_details(m.text(0))?,
    }));
    built(event, m)
}

fn resurrected(
    d: ReplicaDetails,
    to: &str,
    key_count: Option<u64>,
    wording: Wording,
) -> ResurrectedEvent {
    ResurrectedEvent {
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
    }
}

fn state_change(m: &Matched<'_>, from: Option<&str>, to: &str) -> Option<Built> {
    let event = ScmContainerEvent::StateChange(StateChangeEvent {
        kind: m.kind,
        container: m.container(0)?,
        from: from.map(str::to_string),
        to: to.to_string(),
    });
    built(event, m)
}

/// `Sending command [<SCMCommand.toString>] for container ContainerInfo{…} to <dn> with datanode
/// deadline D and scm deadline S`. The command's own fields are `name: value` (`containerID: 1051`,
/// `force: false`) or `name=value` (`containerId=1051`, `targetNode=<dn>`).
fn send_command(m: &Matched<'_>) -> Option<Built> {
    let command = m.text(0);
    let info = m
        .text(1)
        .strip_prefix("ContainerInfo{")
        .and_then(|i| i.strip_suffix('}'));
    let dn = m.datanode(2);
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
        .or_else(|| m.container(1))?;
    let target = field("targetNode")
        .and_then(|t| entity::datanode_details(t).map(|(d, _)| d.uuid.to_ascii_lowercase()));
    let pipeline = |p: &str| entity::pipeline_id(p).map(|(u, _)| u.to_ascii_lowercase());
    let event = ScmContainerEvent::ReplicationCommand(Box::new(ReplicationCommandEvent {
        command: name.to_string(),
        cmd_id: field("cmdID").and_then(|v| v.parse().ok()),
        container,
        replica_index: field("replicaIndex").and_then(|v| v.parse().ok()),
        force: field("force").and_then(|v| v.parse().ok()),
        pipeline: field("pipelineID").and_then(pipeline),
        target,
        replication_config: field("replicationConfig").map(str::to_string),
        missing_indexes: fields
            .split_once(", missingIndexes: [")
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(list, _)| {
                list.split(", ")
                    .filter_map(|i| i.trim().parse().ok())
                    .collect()
            })
            .unwrap_or_default(),
        state: info_field("state").map(str::to_string),
        sequence_id: info_field("sequenceId").and_then(|v| v.parse().ok()),
        state_enter_time: info_field("stateEnterTime").map(str::to_string),
        info_pipeline: info_field("pipelineID").and_then(pipeline),
        owner: info_field("owner").map(str::to_string),
        datanode: dn.map(|d| d.uuid.to_ascii_lowercase()),
        datanode_host: dn.map(|d| d.host.to_string()),
        datanode_deadline: m.i64(3),
        scm_deadline: m.i64(4),
    }));
    built(event, m)
}

pub fn parse(input: &Input<'_>) -> Option<Typed> {
    CATALOGUE.typed(input)
}

#[cfg(test)]
mod tests;
