//! Datanode statements: ContainerStateMachine, XceiverServerRatis, the dispatcher and
//! KeyValueHandler (`Operation: X , ... Result: Y`), ChunkUtils, FilePerBlockStrategy,
//! BlockManagerImpl, HddsDispatcher, the container scanners, CloseContainerCommandHandler, and
//! the dn-audit and dn-container logs (../shared/ozone-logs/datanode.md 1.2, 1.3, 2.3-2.5, 2.6's
//! close-container lines, 3.A).
//!
//! Templates are from apache/ozone HEAD `78d5650c` (2.3.0-SNAPSHOT); the wording of these classes
//! is the same in 2.0-2.2 as far as the catalogue says, and dn-audit params print as JSON from
//! 2.1.0 (`{k=v}` before; both are read by [`crate::audit`]). dn-audit and dn-container records
//! are read by their fields, every other record by its statement.

use super::template::{Matched, catalogue, number_after, u64_prefix};
use super::{Input, Typed};
use crate::audit::Params;
use crate::entity::{self, Entity, TermIndex};
use crate::source::Component;
use serde::Serialize;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum DatanodeEvent {
    /// Every dn-audit record (`AuditMessage.formMessage`; FAILURE at ERROR with the throwable,
    /// PERFORMANCE records with `ret=null` and `perf`).
    DnAudit(Box<DnAudit>),
    /// Every dn-container record (`ContainerLogger`).
    DnContainerState {
        id: u64,
        index: Option<u64>,
        bcsid: Option<u64>,
        /// A handful of states and volumes per datanode: one shared copy of each per stream.
        state: Option<Arc<str>>,
        volume: Option<Arc<str>>,
        /// The suffix after the fixed fields (ScanResult, reason, `Container force deleted`, ...).
        message: Option<String>,
    },
    /// ContainerStateMachine INFO `{}: initialize {}`.
    CsmInitialize { peer: String, group: String },
    /// ContainerStateMachine INFO `{}: The snapshot info is null. Setting the last applied index
    /// to:{}` / `{}: Setting the last applied index to {}`.
    CsmLastAppliedIndex {
        group: String,
        term: Option<u64>,
        index: Option<u64>,
        snapshot_missing: bool,
    },
    /// ContainerStateMachine INFO `Taking a snapshot at:` / `Finished taking a snapshot at:`.
    CsmSnapshot {
        group: String,
        term: Option<u64>,
        index: Option<u64>,
        finished: bool,
        took_ms: Option<u64>,
    },
    /// ContainerStateMachine ERROR `Failed to take snapshot  for <gid> as the stateMachine is
    /// unhealthy. The last applied index is at <ti>`.
    CsmSnapshotUnhealthy { group: String, index: Option<u64> },
    /// ContainerStateMachine ERROR `startTransaction validation failed on leader`.
    CsmStartTransactionFailed {},
    /// ContainerStateMachine DEBUG `{}: writeChunk writeStateMachineData : blockId{} logIndex {}
    /// chunkName {}`: a new chunk write was submitted for the entry (not logged when an old
    /// future is reused: HDDS-17675).
    CsmWriteSubmitted(CsmWrite),
    /// ContainerStateMachine DEBUG `...writeStateMachineData  completed: blockId...`.
    CsmWriteCompleted(CsmWrite),
    /// ContainerStateMachine ERROR `...writeStateMachineData failed: blockId...` (result or
    /// exception form).
    CsmWriteFailed(Box<CsmWriteFailed>),
    /// ContainerStateMachine ERROR `Write chunk has taken {}ns crossing threshold {}ns for index
    /// {} groupId {}, cancelling pending write chunk for this group`.
    CsmWriteCancelled {
        group: String,
        taken_ns: Option<u64>,
        index: Option<u64>,
    },
    /// ContainerStateMachine ERROR `{}: Failed to writeStateMachineData, close server`.
    CsmWriteFailedCloseServer { group: String },
    /// ContainerStateMachine ERROR `gid {} : ReadStateMachine failed. cmd {} logIndex {} msg : {}
    /// Container Result: {}`.
    CsmReadFailed(Box<CsmReadFailed>),
    /// ContainerStateMachine ERROR `{} unable to read stateMachineData:`.
    CsmReadDataFailed { group: String },
    /// ContainerStateMachine ERROR `{}: failed to applyTransaction at logIndex {} for {}`.
    CsmApplyException {
        group: String,
        index: Option<u64>,
        cmd: String,
    },
    /// ContainerStateMachine `gid {} : ApplyTransaction failed|completed. cmd {} logIndex {} msg :
    /// {} Container Result: {}` (ERROR when failed, DEBUG when completed).
    CsmApply(Box<CsmApply>),
    /// ContainerStateMachine ERROR `{}: {} {}` (`notifyLogFailed`): group, TermIndex, entry.
    CsmLogFailed {
        group: String,
        term: Option<u64>,
        index: Option<u64>,
    },
    /// ContainerStateMachine `{} is closed by ratis` (INFO) / `Container statemachine is closed by
    /// ratis, terminating HddsDatanodeService. closed({})/total({})` (ERROR).
    CsmClosed {
        group: Option<String>,
        terminating: bool,
    },
    /// XceiverServerRatis WARN `pipeline Action {} on pipeline {}.Reason : {}`.
    PipelineAction {
        action: String,
        pipeline: String,
        reason: String,
    },
    /// XceiverServerRatis WARN `handleInstallSnapshotFromLeader for firstTermIndexInLog={},
    /// terminating pipeline: {}`: the pipeline as its Ratis group (`RaftGroupId`, `group-<12 HEX>`).
    InstallSnapshotTerminating { pipeline: String },
    /// XceiverServerRatis INFO `Created group {}`.
    RatisGroupCreated { pipeline: String },
    /// XceiverServerRatis INFO `Leader change notification received for group: {} with new
    /// leaderId: {}`.
    LeaderChangeNotification { group: String, leader: String },
    /// `ContainerUtils.logAndReturnError` (logger = KeyValueHandler, HddsDispatcher or CSM):
    /// `Operation: {} , Trace ID: {} , Message: {} , Result: {} , StorageContainerException
    /// Occurred.`
    DispatchError(Box<DispatchError>),
    /// ChunkUtils ERROR `Unexpected %s size. expected: %d, actual: %d`.
    ChunkUnexpectedSize {
        of: String,
        expected: i64,
        actual: i64,
    },
    /// ChunkUtils WARN `Duplicate write chunk request. Chunk overwrite without explicit request. {}`.
    ChunkDuplicateWrite {
        chunk: String,
        local: Option<u64>,
        offset: Option<u64>,
        len: Option<u64>,
    },
    /// ChunkUtils ERROR `Oversize read. max: %d, actual: %d`.
    ChunkOversizeRead { max: i64, actual: i64 },
    /// FilePerBlockStrategy DEBUG `Writing chunk {} (overwrite: {}) in stage {} to file {}`.
    ChunkWrite(Box<ChunkWrite>),
    /// FilePerBlockStrategy DEBUG `Ignore chunk {} in stage {}` (COMMIT_DATA: nothing to do).
    ChunkIgnored {
        chunk: String,
        local: Option<u64>,
        offset: Option<u64>,
        len: Option<u64>,
        stage: String,
    },
    /// FilePerBlockStrategy INFO `Deleted block file: {}` / WARN `Block file to be deleted does
    /// not exist: {}`.
    BlockFileDeleted { file: String, existed: bool },
    /// KeyValueHandler INFO `Finalized Block request received {} ` / `Block has been finalized {} `.
    BlockFinalize { done: bool },
    /// KeyValueHandler WARN `Unexpected error while marking container {} unhealthy`.
    ContainerMarkUnhealthyError { container: u64 },
    /// BlockManagerImpl DEBUG `Block <BlockID> successfully committed with bcsId <b> chunk size <n>`.
    BlockCommitted {
        container: u64,
        local: u64,
        bcs_id: Option<u64>,
    },
    /// HddsDispatcher INFO `Marked Container UNHEALTHY, ContainerID: {}`.
    ContainerMarkedUnhealthy { container: u64 },
    /// HddsDispatcher ERROR `Failed to mark container <id> UNHEALTHY. `.
    ContainerMarkUnhealthyFailed { container: u64 },
    /// HddsDispatcher WARN `Triggered immediate heartbeat because of full volume.`
    FullVolumeHeartbeat {},
    /// ContainerSet WARN `Request to scan container {} which was not found in the container set`.
    ScanContainerNotFound { container: u64 },
    /// ContainerScanHelper (scanner's logger) ERROR `Corruption detected in container [{}].
    /// Marking it UNHEALTHY. {}` / WARN `Skipped marking container UNHEALTHY [{}]: ...`.
    ContainerScanResult {
        container: u64,
        marked_unhealthy: bool,
        /// `MISSING_CHUNK`, `INCONSISTENT_CHUNK_LENGTH`, `CORRUPT_CHUNK`, ... when printed.
        error: Option<String>,
    },
    /// CloseContainerCommandHandler INFO/ERROR: `Container #{} does not exist in datanode...`,
    /// `Marking Container {} quasi closed`, `Follower cannot close container #{}.`,
    /// `Can't close container #{}`.
    CloseContainerHandling { container: u64, outcome: String },
}

/// One `writeStateMachineData` line of a Ratis log entry's chunk, submitted or completed.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CsmWrite {
    pub group: String,
    pub container: Option<u64>,
    pub local: Option<u64>,
    pub index: u64,
    pub chunk: String,
}

/// The fields of [`DatanodeEvent::CsmWriteFailed`], boxed: rare, and among the largest payloads
/// (issue 11).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CsmWriteFailed {
    pub group: String,
    pub container: Option<u64>,
    pub local: Option<u64>,
    pub index: Option<u64>,
    pub chunk: Option<String>,
    pub result: Option<String>,
}

/// The fields of [`DatanodeEvent::CsmReadFailed`], boxed: rare, and among the largest payloads
/// (issue 11).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CsmReadFailed {
    pub group: String,
    pub cmd: String,
    pub index: Option<u64>,
    pub message: String,
    pub result: String,
}

/// The fields of [`DatanodeEvent::CsmApply`], boxed: DEBUG or ERROR only, and among the largest
/// payloads (issue 11).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CsmApply {
    pub group: String,
    pub cmd: String,
    pub index: Option<u64>,
    pub message: String,
    pub result: String,
    pub completed: bool,
}

/// The fields of [`DatanodeEvent::ChunkWrite`], boxed: it is one of the largest payloads, and every
/// `Event` is as large as its largest (issue 11).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChunkWrite {
    pub chunk: String,
    pub local: Option<u64>,
    pub offset: Option<u64>,
    pub len: Option<u64>,
    pub overwrite: bool,
    pub stage: String,
    pub container: Option<u64>,
    pub file: String,
}

/// The fields of [`DatanodeEvent::DispatchError`], boxed: it is one of the largest payloads, and every
/// `Event` is as large as its largest (issue 11).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DispatchError {
    pub op: String,
    pub trace_id: String,
    pub message: String,
    pub result: String,
    /// `Chunk offset A does not match length B of blockFile <localID>.block`.
    pub chunk_offset: Option<u64>,
    pub file_length: Option<u64>,
    pub local: Option<u64>,
}

/// The fields of [`DatanodeEvent::DnAudit`], boxed: it is one of the largest payloads, and every
/// `Event` is as large as its largest (issue 11).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DnAudit {
    pub op: String,
    pub ret: String,
    pub params: Params,
    pub perf: Option<Params>,
    pub throwable: Option<String>,
}

impl DatanodeEvent {
    pub fn kind(&self) -> &'static str {
        match self {
            DatanodeEvent::DnAudit { .. } => "dn_audit",
            DatanodeEvent::DnContainerState { .. } => "dn_container_state",
            DatanodeEvent::CsmInitialize { .. } => "csm_initialize",
            DatanodeEvent::CsmLastAppliedIndex { .. } => "csm_last_applied_index",
            DatanodeEvent::CsmSnapshot { .. } => "csm_snapshot",
            DatanodeEvent::CsmSnapshotUnhealthy { .. } => "csm_snapshot_unhealthy",
            DatanodeEvent::CsmStartTransactionFailed { .. } => "csm_start_transaction_failed",
            DatanodeEvent::CsmWriteSubmitted(_) => "csm_write_submitted",
            DatanodeEvent::CsmWriteCompleted(_) => "csm_write_completed",
            DatanodeEvent::CsmWriteFailed(_) => "csm_write_failed",
            DatanodeEvent::CsmWriteCancelled { .. } => "csm_write_cancelled",
            DatanodeEvent::CsmWriteFailedCloseServer { .. } => "csm_write_failed_close_server",
            DatanodeEvent::CsmReadFailed(_) => "csm_read_failed",
            DatanodeEvent::CsmReadDataFailed { .. } => "csm_read_data_failed",
            DatanodeEvent::CsmApplyException { .. } => "csm_apply_exception",
            DatanodeEvent::CsmApply(apply) if apply.completed => "csm_apply_completed",
            DatanodeEvent::CsmApply(_) => "csm_apply_failed",
            DatanodeEvent::CsmLogFailed { .. } => "csm_log_failed",
            DatanodeEvent::CsmClosed { .. } => "csm_closed",
            DatanodeEvent::PipelineAction { .. } => "pipeline_action",
            DatanodeEvent::InstallSnapshotTerminating { .. } => "install_snapshot_terminating",
            DatanodeEvent::RatisGroupCreated { .. } => "ratis_group_created",
            DatanodeEvent::LeaderChangeNotification { .. } => "leader_change_notification",
            DatanodeEvent::DispatchError { .. } => "dispatch_error",
            DatanodeEvent::ChunkUnexpectedSize { .. } => "chunk_unexpected_size",
            DatanodeEvent::ChunkDuplicateWrite { .. } => "chunk_duplicate_write",
            DatanodeEvent::ChunkOversizeRead { .. } => "chunk_oversize_read",
            DatanodeEvent::ChunkWrite { .. } => "chunk_write",
            DatanodeEvent::ChunkIgnored { .. } => "chunk_ignored",
            DatanodeEvent::BlockFileDeleted { .. } => "block_file_deleted",
            DatanodeEvent::BlockFinalize { .. } => "block_finalize",
            DatanodeEvent::ContainerMarkUnhealthyError { .. } => "container_mark_unhealthy_error",
            DatanodeEvent::BlockCommitted { .. } => "block_committed",
            DatanodeEvent::ContainerMarkedUnhealthy { .. } => "container_marked_unhealthy",
            DatanodeEvent::ContainerMarkUnhealthyFailed { .. } => "container_mark_unhealthy_failed",
            DatanodeEvent::FullVolumeHeartbeat { .. } => "full_volume_heartbeat",
            DatanodeEvent::ScanContainerNotFound { .. } => "scan_container_not_found",
            DatanodeEvent::ContainerScanResult { .. } => "container_scan_result",
            DatanodeEvent::CloseContainerHandling { .. } => "close_container_handling",
        }
    }
}

/// What one statement's builder returns.
type Built = (DatanodeEvent, Vec<Entity>);

const CSM: &str =
    "org.apache.hadoop.ozone.container.common.transport.server.ratis.ContainerStateMachine";
const XSR: &str =
    "org.apache.hadoop.ozone.container.common.transport.server.ratis.XceiverServerRatis";
const KVH: &str = "org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler";
const CHUNK_UTILS: &str = "org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils";
const FPBS: &str = "org.apache.hadoop.ozone.container.keyvalue.impl.FilePerBlockStrategy";
const DISPATCHER: &str = "org.apache.hadoop.ozone.container.common.impl.HddsDispatcher";
const CCCH: &str = "org.apache.hadoop.ozone.container.common.statemachine.commandhandler.CloseContainerCommandHandler";
/// `ContainerUtils.logAndReturnError` logs through its caller's logger.
const ERROR_REPLIERS: &[&str] = &[KVH, DISPATCHER, CSM];
/// `ContainerScanHelper` logs through the scanner that made it (`OnDemandContainerDataScanner`
/// before 2.1).
const SCANNERS: &[&str] = &[
    "org.apache.hadoop.ozone.container.ozoneimpl.OnDemandContainerScanner",
    "org.apache.hadoop.ozone.container.ozoneimpl.OnDemandContainerDataScanner",
    "org.apache.hadoop.ozone.container.ozoneimpl.BackgroundContainerDataScanner",
    "org.apache.hadoop.ozone.container.ozoneimpl.BackgroundContainerMetadataScanner",
];

// Rows read at apache/ozone HEAD `78d5650c` (2.3.0-SNAPSHOT); `1.3–HEAD` rows were found at the
// tags ozone-1.3.0 … 2.2.0 too.
catalogue! {
    event DatanodeEvent;
    structured {
        "dn_audit", "dn-audit", "INFO/ERROR", "org.apache.hadoop.ozone.audit.AuditMessage (DNAudit)",
            "Ozone 1.4-HEAD (params JSON from 2.1.0, {k=v} before)", "datanode.md 1.2",
            "user=null | ip=null | op=<DNAction> <params> | ret=<SUCCESS|FAILURE|null>[ | perf={preOpLatencyMs=.., opLatencyMs=..}]";
        "dn_container_state", "dn-container", "INFO/WARN/ERROR", "org.apache.hadoop.ozone.container.common.utils.ContainerLogger",
            "2.0–HEAD (HEAD 78d5650c; not checked further back)", "datanode.md 1.3",
            "ID=<id> | Index=<i> | BCSID=<b> | State=<s> | Volume=<v> | DataChecksum=<hex>[ | <message>]";
    }
    log "datanode" {
    // ---- ContainerStateMachine
    "csm_initialize", "INFO", CSM, "2.0–HEAD", "datanode.md 2.3",
        "{}: initialize {}" [Name, Group] =>
        |m| built(m, DatanodeEvent::CsmInitialize { peer: m.string(0), group: m.string(1) }),
    "csm_last_applied_index", "INFO", CSM, "2.0–HEAD", "datanode.md 2.3",
        "{}: The snapshot info is null. Setting the last applied index to:{}" [Group, TermIndex] =>
        |m| last_applied(m, true),
    // Up to 1.4 the concatenation missed the space.
    "csm_last_applied_index", "INFO", CSM, "1.3–1.4", "datanode.md 2.3",
        "{}: The snapshot info is null. Setting the last applied indexto:{}" [Group, TermIndex] =>
        |m| last_applied(m, true),
    "csm_last_applied_index", "INFO", CSM, "1.3–HEAD", "datanode.md 2.3",
        "{}: Setting the last applied index to {}" [Group, TermIndex] =>
        |m| last_applied(m, false),
    "csm_snapshot", "INFO", CSM, "1.3–HEAD", "datanode.md 2.3",
        "{}: Taking a snapshot at:{} file {}" [Group, TermIndex, Unread] =>
        |m| snapshot(m, false, None),
    "csm_snapshot", "INFO", CSM, "1.3–HEAD", "datanode.md 2.3",
        "{}: Finished taking a snapshot at:{} file:{} took: {} ms" [Group, TermIndex, Unread, U64] =>
        |m| snapshot(m, true, m.u64(3)),
    "csm_snapshot_unhealthy", "ERROR", CSM, "1.3–HEAD", "datanode.md 2.3",
        "Failed to take snapshot  for {} as the stateMachine is unhealthy. The last applied index is at {}" [Group, TermIndex] =>
        |m| built(m, DatanodeEvent::CsmSnapshotUnhealthy {
            group: m.string(0),
            index: term_index(m.text(1)).and_then(|t| t.index),
        }),
    "csm_start_transaction_failed", "ERROR", CSM, "1.3–HEAD", "datanode.md 2.3",
        "startTransaction validation failed on leader" [] =>
        |m| built(m, DatanodeEvent::CsmStartTransactionFailed {}),
    // The block id is the multi-line `DatanodeBlockID` protobuf text: the index and the chunk
    // are on a continuation line.
    "csm_write_submitted", "DEBUG", CSM, "1.3–HEAD", "datanode.md 2.3, 3.A",
        "{}: writeChunk writeStateMachineData : blockId{} logIndex {} chunkName {}" [Group, BlockProto, U64, Text] =>
        |m| write_chunk(m, false),
    "csm_write_completed", "DEBUG", CSM, "1.3–HEAD", "datanode.md 2.3, 3.A",
        "{}: writeChunk writeStateMachineData  completed: blockId{} logIndex {} chunkName {}" [Group, BlockProto, U64, Text] =>
        |m| write_chunk(m, true),
    "csm_write_failed", "ERROR", CSM, "1.3–HEAD", "datanode.md 2.3",
        "{}: writeChunk writeStateMachineData failed: blockId{} logIndex {} chunkName {} Error message: {} Container Result: {}"
        [Group, BlockProto, U64, Text, Unread, Word] =>
        |m| write_failed(m, Some(m.string(5))),
    // The exception form: the throwable follows on the continuation lines.
    "csm_write_failed", "ERROR", CSM, "1.3–HEAD", "datanode.md 2.3",
        "{}: writeChunk writeStateMachineData failed: blockId{} logIndex {} chunkName {}" [Group, BlockProto, U64, Text] =>
        |m| write_failed(m, None),
    "csm_write_cancelled", "ERROR", CSM, "2.0–HEAD", "datanode.md 2.3",
        "Write chunk has taken {}ns crossing threshold {}ns for index {} groupId {}, cancelling pending write chunk for this group"
        [U64, Unread, U64, Group] =>
        |m| built(m, DatanodeEvent::CsmWriteCancelled {
            group: m.string(3),
            taken_ns: m.u64(0),
            index: m.u64(2),
        }),
    "csm_write_failed_close_server", "ERROR", CSM, "HEAD (unreleased)", "datanode.md 2.3",
        "{}: Failed to writeStateMachineData, close server" [Name] =>
        |m| built(m, DatanodeEvent::CsmWriteFailedCloseServer { group: m.string(0) }),
    "csm_read_failed", "ERROR", CSM, "1.3–HEAD", "datanode.md 2.3, 3.A",
        "gid {} : ReadStateMachine failed. cmd {} logIndex {} msg : {} Container Result: {}" [Group, Name, U64, Text, Word] =>
        |m| built(m, DatanodeEvent::CsmReadFailed(Box::new(CsmReadFailed {
            group: m.string(0),
            cmd: m.string(1),
            index: m.u64(2),
            message: m.string(3),
            result: m.string(4),
        }))),
    "csm_read_data_failed", "ERROR", CSM, "1.3–HEAD", "datanode.md 2.3",
        "{} unable to read stateMachineData:" [Group] =>
        |m| built(m, DatanodeEvent::CsmReadDataFailed { group: m.string(0) }),
    "csm_apply_exception", "ERROR", CSM, "1.4–HEAD", "datanode.md 2.3",
        "{}: failed to applyTransaction at logIndex {} for {}" [Group, U64, Name] =>
        |m| built(m, DatanodeEvent::CsmApplyException {
            group: m.string(0),
            index: m.u64(1),
            cmd: m.string(2),
        }),
    "csm_apply_failed", "ERROR", CSM, "1.3–HEAD", "datanode.md 2.3",
        "gid {} : ApplyTransaction failed. cmd {} logIndex {} msg : {} Container Result: {}" [Group, Name, U64, Text, Word] =>
        |m| apply(m, false),
    "csm_apply_completed", "DEBUG", CSM, "1.3–HEAD", "datanode.md 2.3, 3.A",
        "gid {} : ApplyTransaction completed. cmd {} logIndex {} msg : {} Container Result: {}" [Group, Name, U64, Text, Word] =>
        |m| apply(m, true),
    "csm_closed", "INFO", CSM, "2.0–HEAD", "datanode.md 2.3",
        "{} is closed by ratis" [Group] =>
        |m| built(m, DatanodeEvent::CsmClosed { group: Some(m.string(0)), terminating: false }),
    "csm_closed", "ERROR", CSM, "2.0–HEAD", "datanode.md 2.3",
        "Container statemachine is closed by ratis, terminating HddsDatanodeService. closed({})/total({})" [Unread, Unread] =>
        |m| built(m, DatanodeEvent::CsmClosed { group: None, terminating: true }),
    "csm_closed", "ERROR", CSM, "2.0–HEAD", "datanode.md 2.3",
        "Container statemachine is closed by ratis, terminating HddsDatanodeService" [] =>
        |m| built(m, DatanodeEvent::CsmClosed { group: None, terminating: true }),
    // `notifyLogFailed`: group, TermIndex, the entry; after every other CSM row.
    "csm_log_failed", "ERROR", CSM, "1.3–HEAD", "datanode.md 2.3",
        "{}: {} {}" [Group, TermIndex, Unread] =>
        |m| {
            let ti = term_index(m.text(1));
            built(m, DatanodeEvent::CsmLogFailed {
                group: m.string(0),
                term: ti.and_then(|t| t.term),
                index: ti.and_then(|t| t.index),
            })
        },

    // ---- XceiverServerRatis
    "pipeline_action", "WARN", XSR, "1.3–HEAD", "datanode.md 2.4",
        "pipeline Action {} on pipeline {}.Reason : {}" [Word, Pipeline, Text] =>
        |m| built(m, DatanodeEvent::PipelineAction {
            action: m.string(0),
            pipeline: m.string(1),
            reason: m.string(2),
        }),
    "install_snapshot_terminating", "WARN", XSR, "2.0–HEAD", "datanode.md 2.4",
        "handleInstallSnapshotFromLeader for firstTermIndexInLog={}, terminating pipeline: {}" [Unread, Group] =>
        |m| built(m, DatanodeEvent::InstallSnapshotTerminating { pipeline: m.string(1) }),
    "ratis_group_created", "INFO", XSR, "1.3–HEAD", "datanode.md 2.4",
        "Created group {}" [Pipeline] =>
        |m| built(m, DatanodeEvent::RatisGroupCreated { pipeline: m.string(0) }),
    "leader_change_notification", "INFO", XSR, "1.3–HEAD", "datanode.md 2.1, 2.4",
        "Leader change notification received for group: {} with new leaderId: {}" [Group, Name] =>
        |m| built(m, DatanodeEvent::LeaderChangeNotification { group: m.string(0), leader: m.string(1) }),

    // ---- Dispatcher, KeyValueHandler, ChunkUtils, FilePerBlockStrategy, BlockManagerImpl
    "dispatch_error", "WARN",
        "org.apache.hadoop.ozone.container.common.helpers.ContainerUtils (logAndReturnError, through the logger of KeyValueHandler, HddsDispatcher or ContainerStateMachine)",
        via ERROR_REPLIERS, "1.3–HEAD", "datanode.md 2.5, 3.A",
        "Operation: {} , Trace ID: {} , Message: {} , Result: {} , StorageContainerException Occurred." [Name, Text, Text, Word] =>
        |m| {
            let message = m.text(2);
            // ChunkUtils.validateChunkSize: `Chunk offset A does not match length B of blockFile F`.
            let (chunk_offset, file_length, local) = match message.strip_prefix("Chunk offset ") {
                Some(rest) => (
                    u64_prefix(rest),
                    number_after(rest, " does not match length "),
                    rest.split_once(" of blockFile ")
                        .and_then(|(_, f)| local_of(f.trim())),
                ),
                None => (None, None, None),
            };
            built(m, DatanodeEvent::DispatchError(Box::new(DispatchError {
                op: m.string(0),
                trace_id: m.string(1),
                message: message.to_owned(),
                result: m.string(3),
                chunk_offset,
                file_length,
                local,
            })))
        },
    "chunk_unexpected_size", "ERROR", CHUNK_UTILS, "1.3–HEAD", "datanode.md 2.5, 3.A",
        // String.format("Unexpected %s size. expected: %d, actual: %d", of, expected, actual)
        "Unexpected {} size. expected: {}, actual: {}" [Text, I64, I64] =>
        |m| built(m, DatanodeEvent::ChunkUnexpectedSize {
            of: m.string(0),
            expected: m.i64(1)?,
            actual: m.i64(2)?,
        }),
    "chunk_duplicate_write", "WARN", CHUNK_UTILS, "1.3–HEAD", "datanode.md 2.5, 3.A",
        "Duplicate write chunk request. Chunk overwrite without explicit request. {}" [ChunkInfo] =>
        |m| {
            let (chunk, offset, len) = chunk_info(m.text(0))?;
            built(m, DatanodeEvent::ChunkDuplicateWrite {
                local: local_of(&chunk),
                chunk,
                offset,
                len,
            })
        },
    "chunk_oversize_read", "ERROR", CHUNK_UTILS, "1.3–HEAD", "datanode.md 2.5",
        // String.format("Oversize read. max: %d, actual: %d", …)
        "Oversize read. max: {}, actual: {}" [I64, I64] =>
        |m| built(m, DatanodeEvent::ChunkOversizeRead { max: m.i64(0)?, actual: m.i64(1)? }),
    "chunk_write", "DEBUG", FPBS, "1.3–HEAD", "datanode.md 2.5, 3.A",
        "Writing chunk {} (overwrite: {}) in stage {} to file {}" [ChunkInfo, Bool, Word, Text] =>
        |m| {
            let (chunk, offset, len) = chunk_info(m.text(0))?;
            let file = m.text(3);
            // The block file lives in `<containerDir>/<containerID>/chunks/<localID>.block`.
            let container = file
                .rsplit('/')
                .nth(2)
                .and_then(|c| c.parse().ok())
                .filter(|_| file.contains("/chunks/"));
            built(m, DatanodeEvent::ChunkWrite(Box::new(ChunkWrite {
                local: local_of(&chunk),
                chunk,
                offset,
                len,
                overwrite: m.bool(1)?,
                stage: m.string(2),
                container,
                file: file.to_owned(),
            })))
        },
    "chunk_ignored", "DEBUG", FPBS, "1.3–HEAD", "datanode.md 2.5, 3.A",
        "Ignore chunk {} in stage {}" [ChunkInfo, Word] =>
        |m| {
            let (chunk, offset, len) = chunk_info(m.text(0))?;
            built(m, DatanodeEvent::ChunkIgnored {
                local: local_of(&chunk),
                chunk,
                offset,
                len,
                stage: m.string(1),
            })
        },
    "block_file_deleted", "INFO", FPBS, "1.3–HEAD", "datanode.md 2.5",
        "Deleted block file: {}" [Text] =>
        |m| built(m, DatanodeEvent::BlockFileDeleted { file: m.string(0), existed: true }),
    "block_file_deleted", "WARN", FPBS, "1.3–HEAD", "datanode.md 2.5",
        "Block file to be deleted does not exist: {}" [Text] =>
        |m| built(m, DatanodeEvent::BlockFileDeleted { file: m.string(0), existed: false }),
    "block_finalize", "INFO", KVH, "2.0–HEAD", "datanode.md 2.5",
        "Finalized Block request received {} " [Unread] =>
        |m| built(m, DatanodeEvent::BlockFinalize { done: false }),
    "block_finalize", "INFO", KVH, "2.0–HEAD", "datanode.md 2.5",
        "Block has been finalized {} " [Unread] =>
        |m| built(m, DatanodeEvent::BlockFinalize { done: true }),
    "container_mark_unhealthy_error", "WARN", KVH, "1.3–HEAD", "datanode.md 2.5",
        "Unexpected error while marking container {} unhealthy" [Container] =>
        |m| built(m, DatanodeEvent::ContainerMarkUnhealthyError { container: m.container(0)? }),
    "block_committed", "DEBUG", "org.apache.hadoop.ozone.container.keyvalue.impl.BlockManagerImpl", "1.3–HEAD", "datanode.md 2.5, 3.A",
        "Block {} successfully committed with bcsId {} chunk size {}" [Block, U64, Unread] =>
        |m| {
            let (block, _) = entity::block_id(m.text(0))?;
            built(m, DatanodeEvent::BlockCommitted {
                container: block.container,
                local: block.local,
                bcs_id: m.u64(1),
            })
        },
    "container_marked_unhealthy", "INFO", DISPATCHER, "1.3–HEAD", "datanode.md 2.5, 3.A",
        "Marked Container UNHEALTHY, ContainerID: {}" [Container] =>
        |m| built(m, DatanodeEvent::ContainerMarkedUnhealthy { container: m.container(0)? }),
    "container_mark_unhealthy_failed", "ERROR", DISPATCHER, "1.3–HEAD", "datanode.md 2.5",
        "Failed to mark container {} UNHEALTHY. " [Container] =>
        |m| built(m, DatanodeEvent::ContainerMarkUnhealthyFailed { container: m.container(0)? }),
    "full_volume_heartbeat", "WARN", DISPATCHER, "2.1–HEAD", "datanode.md 2.5, 3.B",
        "Triggered immediate heartbeat because of full volume." [] =>
        |m| built(m, DatanodeEvent::FullVolumeHeartbeat {}),
    "scan_container_not_found", "WARN", "org.apache.hadoop.ozone.container.common.impl.ContainerSet", "2.1–HEAD", "datanode.md 2.5",
        "Request to scan container {} which was not found in the container set" [Container] =>
        |m| built(m, DatanodeEvent::ScanContainerNotFound { container: m.container(0)? }),
    "container_scan_result", "ERROR", "org.apache.hadoop.ozone.container.ozoneimpl.ContainerScanHelper (the scanner's logger, e.g. OnDemandContainerDataScanner)",
        via SCANNERS, "2.1–HEAD", "datanode.md 2.5, 3.A",
        "Corruption detected in container [{}]. Marking it UNHEALTHY. {}" [Container, ScanResult] =>
        |m| scan_result(m, true),
    // Up to 2.0 each scanner logged it itself, the exception on the lines below.
    "container_scan_result", "ERROR", "org.apache.hadoop.ozone.container.ozoneimpl.BackgroundContainerDataScanner / BackgroundContainerMetadataScanner",
        via SCANNERS, "1.4–2.0", "datanode.md 2.5, 3.A",
        "Corruption detected in container [{}]. Marking it UNHEALTHY." [Container] =>
        |m| scan_result(m, true),
    "container_scan_result", "ERROR", "org.apache.hadoop.ozone.container.ozoneimpl.OnDemandContainerDataScanner",
        "1.4–2.0", "datanode.md 2.5, 3.A",
        "Corruption detected in container [{}].Marking it UNHEALTHY." [Container] =>
        |m| scan_result(m, true),
    "container_scan_result", "WARN", "org.apache.hadoop.ozone.container.ozoneimpl.ContainerScanHelper (the scanner's logger, e.g. OnDemandContainerDataScanner)",
        via SCANNERS, "2.2–HEAD", "datanode.md 2.5, 3.A",
        "Skipped marking container UNHEALTHY [{}]: scan failed due to transient file descriptor exhaustion ('Too many open files'). {}" [Container, ScanResult] =>
        |m| scan_result(m, false),

    // ---- CloseContainerCommandHandler (its DEBUG lines are the endpoint catalogue's)
    "close_container_handling", "INFO", CCCH, "2.0–HEAD", "datanode.md 2.6",
        "Container #{} does not exist in datanode. Its pipeline may have closed before it was created. Container close failed." [Container] =>
        |m| close_handling(m, "missing"),
    "close_container_handling", "ERROR", CCCH, "1.3–1.4", "datanode.md 2.6",
        "Container #{} does not exist in datanode. Container close failed." [Container] =>
        |m| close_handling(m, "missing"),
    "close_container_handling", "INFO", CCCH, "1.3–HEAD", "datanode.md 2.6",
        "Marking Container {} quasi closed" [Container] =>
        |m| close_handling(m, "quasi_closing"),
    "close_container_handling", "INFO (DEBUG in 1.3)", CCCH, "1.3–HEAD", "datanode.md 2.6",
        "Follower cannot close container #{}." [Container] =>
        |m| close_handling(m, "follower_cannot_close"),
    "close_container_handling", "ERROR", CCCH, "1.3–HEAD", "datanode.md 2.6",
        "Can't close container #{}" [Container] =>
        |m| close_handling(m, "failed"),
    }
}
/// Types a datanode record: dn-audit and dn-container records by their fields, the others by
/// their statement.
pub fn parse(input: &Input<'_>) -> Option<Typed> {
    let record = input.record;
    let event = match input.component {
        Component::DnAudit => audit(input)?,
        Component::DnContainer => container_log(&record.message, record.throwable.as_deref())?,
        _ => return CATALOGUE.typed(input),
    };
    let entities = entities(&event, &record.message);
    Some(Typed::new(event, entities))
}

fn audit(input: &Input<'_>) -> Option<DatanodeEvent> {
    let body = input.audit?;
    let throwable = input
        .record
        .throwable
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    Some(DatanodeEvent::DnAudit(Box::new(DnAudit {
        op: body.op.clone(),
        ret: body.ret.as_str().to_owned(),
        params: body.params.clone(),
        perf: body.perf.clone(),
        throwable,
    })))
}

/// `ID=1042 | Index=0 | BCSID=88213 | State=CLOSING | Volume=/data/disk3/hdds | DataChecksum=0 |
/// <message>`; the layout (`%msg | %throwable{3}`) may have split the suffix off as a throwable.
fn container_log(message: &str, throwable: Option<&str>) -> Option<DatanodeEvent> {
    let id = entity::dn_container_log_id(message)?;
    let mut index = None;
    let mut bcsid = None;
    let mut state = None;
    let mut volume = None;
    let mut rest: Vec<&str> = Vec::new();
    let tail = throwable.map(str::trim).filter(|t| !t.is_empty());
    for part in message.split(" | ").chain(tail) {
        let part = part.trim_end_matches([' ', '|']);
        if let Some(v) = part.strip_prefix("Index=") {
            index = v.parse().ok();
        } else if let Some(v) = part.strip_prefix("BCSID=") {
            bcsid = v.parse().ok();
        } else if let Some(v) = part.strip_prefix("State=") {
            state = Some(Arc::from(v));
        } else if let Some(v) = part.strip_prefix("Volume=") {
            volume = Some(Arc::from(v));
        } else if part.starts_with("ID=") || part.starts_with("DataChecksum=") || part.is_empty() {
        } else {
            rest.push(part);
        }
    }
    Some(DatanodeEvent::DnContainerState {
        id,
        index,
        bcsid,
        state,
        volume,
        message: (!rest.is_empty()).then(|| rest.join(" | ")),
    })
}

/// The local id of a chunk name `<localID>_chunk_<n>` (client naming) or a block file
/// `<localID>.block`.
fn local_of(name: &str) -> Option<u64> {
    let base = name.rsplit('/').next().unwrap_or(name);
    u64_prefix(base).filter(|_| base.contains("_chunk_") || base.ends_with(".block"))
}

/// `ChunkInfo.toString()`: `ChunkInfo{chunkName='<name>, offset=<o>, len=<l>}` (the closing quote
/// is missing in the source).
fn chunk_info(s: &str) -> Option<(String, Option<u64>, Option<u64>)> {
    let after = s.strip_prefix("ChunkInfo{chunkName='")?;
    let (name, rest) = after.split_once(", offset=")?;
    Some((
        name.to_owned(),
        u64_prefix(rest),
        number_after(rest, ", len="),
    ))
}

// ---------------------------------------------------------------------------------------------
// Builders

/// The event and the entities it names (see [`entities`]).
fn built(m: &Matched<'_>, event: DatanodeEvent) -> Option<Built> {
    let record = m.input.record;
    // A pipeline action's reason names its peers on the lines after the first
    // (`XceiverServerRatis.handlePipelineFailure`: `\n  Follower <peer> with datanodeId <uuid> …`).
    let entities = match event {
        DatanodeEvent::PipelineAction { .. } if record.continuation_lines > 0 => {
            entities(&event, &record.full_text())
        }
        _ => entities(&event, &record.message),
    };
    Some((event, entities))
}

fn term_index(s: &str) -> Option<TermIndex> {
    entity::term_index(s).map(|(ti, _)| ti)
}

fn first_word(s: &str) -> Option<String> {
    s.split_whitespace().next().map(str::to_owned)
}

fn last_applied(m: &Matched<'_>, snapshot_missing: bool) -> Option<Built> {
    let ti = term_index(m.text(1));
    built(
        m,
        DatanodeEvent::CsmLastAppliedIndex {
            group: m.string(0),
            term: ti.and_then(|t| t.term),
            index: ti.and_then(|t| t.index),
            snapshot_missing,
        },
    )
}

fn snapshot(m: &Matched<'_>, finished: bool, took_ms: Option<u64>) -> Option<Built> {
    let ti = term_index(m.text(1));
    built(
        m,
        DatanodeEvent::CsmSnapshot {
            group: m.string(0),
            term: ti.and_then(|t| t.term),
            index: ti.and_then(|t| t.index),
            finished,
            took_ms,
        },
    )
}

/// The container and local id of a `DatanodeBlockID` printed as protobuf text.
fn proto_block(text: &str) -> (Option<u64>, Option<u64>) {
    let block = entity::find_blocks(text).next().map(|b| b.value);
    let container = block
        .map(|b| b.container)
        .or_else(|| number_after(text, "containerID: "));
    (container, block.map(|b| b.local))
}

/// `writeStateMachineData` submitted or completed: the block of the protobuf text, the index and
/// the chunk.
fn write_chunk(m: &Matched<'_>, completed: bool) -> Option<Built> {
    let (container, local) = proto_block(m.text(1));
    let write = CsmWrite {
        group: m.string(0),
        container,
        local,
        index: m.u64(2)?,
        chunk: first_word(m.text(3))?,
    };
    built(
        m,
        if completed {
            DatanodeEvent::CsmWriteCompleted(write)
        } else {
            DatanodeEvent::CsmWriteSubmitted(write)
        },
    )
}

fn write_failed(m: &Matched<'_>, result: Option<String>) -> Option<Built> {
    let (container, local) = proto_block(m.text(1));
    built(
        m,
        DatanodeEvent::CsmWriteFailed(Box::new(CsmWriteFailed {
            group: m.string(0),
            container,
            local,
            index: m.u64(2),
            chunk: first_word(m.text(3)),
            result,
        })),
    )
}

fn apply(m: &Matched<'_>, completed: bool) -> Option<Built> {
    built(
        m,
        DatanodeEvent::CsmApply(Box::new(CsmApply {
            group: m.string(0),
            cmd: m.string(1),
            index: m.u64(2),
            message: m.string(3),
            result: m.string(4),
            completed,
        })),
    )
}

/// `Corruption detected …` / `Skipped marking …`, from 2.1 with the scan result
/// (`ScanResult.toString`): `Container has 1 error: <TYPE> for file …` or `Container has N errors.
/// The first error is: <TYPE> …`.
fn scan_result(m: &Matched<'_>, marked_unhealthy: bool) -> Option<Built> {
    let result = m.values().get(1).copied().unwrap_or("");
    let error = result
        .split_once(" error: ")
        .or_else(|| result.split_once("The first error is: "))
        .and_then(|(_, e)| e.split_whitespace().next())
        .map(str::to_owned);
    built(
        m,
        DatanodeEvent::ContainerScanResult {
            container: m.container(0)?,
            marked_unhealthy,
            error,
        },
    )
}

fn close_handling(m: &Matched<'_>, outcome: &str) -> Option<Built> {
    built(
        m,
        DatanodeEvent::CloseContainerHandling {
            container: m.container(0)?,
            outcome: outcome.to_owned(),
        },
    )
}

// --- Entities -----------------------------------------------------------------------------------

fn entities(event: &DatanodeEvent, msg: &str) -> Vec<Entity> {
    let mut out = Vec::new();
    let block = |out: &mut Vec<Entity>, container: Option<u64>, local: Option<u64>| {
        out.extend(container.map(Entity::Container));
        if let (Some(container), Some(local)) = (container, local) {
            out.push(Entity::Block { container, local });
        }
    };
    match event {
        DatanodeEvent::DnAudit(audit) => {
            for (key, value) in audit.params.iter() {
                match key {
                    "blockData" => {
                        if let Some(m) = entity::find_blocks(value).next() {
                            out.push(Entity::Container(m.value.container));
                            out.push(m.value.entity());
                        }
                    }
                    "containerID" | "startContainerID" => {
                        out.extend(entity::container_id(value).map(Entity::Container));
                    }
                    _ => {}
                }
            }
        }
        DatanodeEvent::DnContainerState { id, .. } => out.push(Entity::Container(*id)),
        DatanodeEvent::CsmInitialize { peer, group } => {
            out.extend(Entity::group(group));
            out.extend(Entity::datanode(peer));
        }
        DatanodeEvent::CsmLastAppliedIndex { group, .. }
        | DatanodeEvent::CsmSnapshot { group, .. }
        | DatanodeEvent::CsmSnapshotUnhealthy { group, .. }
        | DatanodeEvent::CsmWriteCancelled { group, .. }
        | DatanodeEvent::CsmWriteFailedCloseServer { group }
        | DatanodeEvent::CsmReadDataFailed { group }
        | DatanodeEvent::CsmApplyException { group, .. }
        | DatanodeEvent::CsmLogFailed { group, .. }
        | DatanodeEvent::LeaderChangeNotification { group, .. } => out.extend(Entity::group(group)),
        DatanodeEvent::CsmWriteSubmitted(CsmWrite {
            group,
            container,
            local,
            ..
        })
        | DatanodeEvent::CsmWriteCompleted(CsmWrite {
            group,
            container,
            local,
            ..
        }) => {
            out.extend(Entity::group(group));
            block(&mut out, *container, *local);
        }
        DatanodeEvent::CsmWriteFailed(failed) => {
            out.extend(Entity::group(&failed.group));
            block(&mut out, failed.container, failed.local);
        }
        DatanodeEvent::CsmReadFailed(failed) => out.extend(Entity::group(&failed.group)),
        DatanodeEvent::CsmApply(apply) => out.extend(Entity::group(&apply.group)),
        DatanodeEvent::CsmClosed { group, .. } => {
            out.extend(group.as_deref().and_then(Entity::group));
        }
        DatanodeEvent::InstallSnapshotTerminating { pipeline } => {
            out.extend(Entity::group(pipeline))
        }
        DatanodeEvent::PipelineAction { .. } | DatanodeEvent::RatisGroupCreated { .. } => {
            let mut pipelines = Vec::new();
            for m in entity::find_pipelines(msg) {
                pipelines.push(m.value.to_ascii_lowercase());
                out.extend(Entity::pipeline(m.value));
                out.extend(entity::group_of_pipeline(m.value).and_then(|g| Entity::group(&g)));
            }
            // The reason's other uuids are Ratis peers, which are datanode uuids
            // (`with datanodeId <uuid>`, `Follower <uuid>`, `<uuid>@group-…`).
            if matches!(event, DatanodeEvent::PipelineAction { .. }) {
                out.extend(
                    entity::find_uuids(msg)
                        .filter(|m| !pipelines.contains(&m.value.to_ascii_lowercase()))
                        .filter_map(|m| Entity::datanode(m.value)),
                );
            }
        }
        DatanodeEvent::DispatchError(error) => {
            for m in entity::find_blocks(&error.message) {
                out.push(Entity::Container(m.value.container));
                out.push(m.value.entity());
            }
            out.extend(entity::find_containers(&error.message).map(|m| Entity::Container(m.value)));
        }
        DatanodeEvent::ChunkWrite(write) => block(&mut out, write.container, write.local),
        DatanodeEvent::BlockCommitted {
            container, local, ..
        } => block(&mut out, Some(*container), Some(*local)),
        DatanodeEvent::ContainerMarkUnhealthyError { container }
        | DatanodeEvent::ContainerMarkedUnhealthy { container }
        | DatanodeEvent::ContainerMarkUnhealthyFailed { container }
        | DatanodeEvent::ScanContainerNotFound { container }
        | DatanodeEvent::ContainerScanResult { container, .. }
        | DatanodeEvent::CloseContainerHandling { container, .. } => {
            out.push(Entity::Container(*container));
        }
        DatanodeEvent::CsmStartTransactionFailed {}
        | DatanodeEvent::ChunkUnexpectedSize { .. }
        | DatanodeEvent::ChunkDuplicateWrite { .. }
        | DatanodeEvent::ChunkOversizeRead { .. }
        | DatanodeEvent::ChunkIgnored { .. }
        | DatanodeEvent::BlockFileDeleted { .. }
        | DatanodeEvent::BlockFinalize { .. }
        | DatanodeEvent::FullVolumeHeartbeat {} => {}
    }
    out.dedup();
    out
}

#[cfg(test)]
mod tests;
