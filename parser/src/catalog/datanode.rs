//! Datanode statements: ContainerStateMachine, XceiverServerRatis, the dispatcher and
//! KeyValueHandler (`Operation: X , ... Result: Y`), ChunkUtils, FilePerBlockStrategy,
//! BlockManagerImpl, HddsDispatcher, the container scanners, CloseContainerCommandHandler, and
//! the dn-audit and dn-container logs (../shared/ozone-logs/datanode.md 1.2, 1.3, 2.3-2.5, 2.6's
//! close-container lines, 3.A).
//!
//! Templates are from apache/ozone HEAD `78d5650c` (2.3.0-SNAPSHOT); the wording of these classes
//! is the same in 2.0-2.2 as far as the catalogue says, and dn-audit params print as JSON from
//! 2.1.0 (`{k=v}` before; both are read by [`crate::audit`]). Dispatch: dn-audit and dn-container
//! records by component; main-log records by the logger's last segment (full name, `%c{2}` or
//! `%c{1}`), then by a constant message prefix.

use super::template::{logger_class, u64_prefix};
use super::{EventData, Input, KindInfo, Typed};
use crate::audit::Params;
use crate::entity::{self, Entity};
use crate::source::Component;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum DatanodeEvent {
    /// Every dn-audit record (`AuditMessage.formMessage`; FAILURE at ERROR with the throwable,
    /// PERFORMANCE records with `ret=null` and `perf`).
    DnAudit {
        op: String,
        ret: String,
        params: Params,
        perf: Option<Params>,
        throwable: Option<String>,
    },
    /// Every dn-container record (`ContainerLogger`).
    DnContainerState {
        id: u64,
        index: Option<u64>,
        bcsid: Option<u64>,
        state: Option<String>,
        volume: Option<String>,
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
    CsmWriteSubmitted {
        group: String,
        container: Option<u64>,
        local: Option<u64>,
        index: u64,
        chunk: String,
    },
    /// ContainerStateMachine DEBUG `...writeStateMachineData  completed: blockId...`.
    CsmWriteCompleted {
        group: String,
        container: Option<u64>,
        local: Option<u64>,
        index: u64,
        chunk: String,
    },
    /// ContainerStateMachine ERROR `...writeStateMachineData failed: blockId...` (result or
    /// exception form).
    CsmWriteFailed {
        group: String,
        container: Option<u64>,
        local: Option<u64>,
        index: Option<u64>,
        chunk: Option<String>,
        result: Option<String>,
    },
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
    CsmReadFailed {
        group: String,
        cmd: String,
        index: Option<u64>,
        message: String,
        result: String,
    },
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
    CsmApply {
        group: String,
        cmd: String,
        index: Option<u64>,
        message: String,
        result: String,
        completed: bool,
    },
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
    /// terminating pipeline: {}`.
    InstallSnapshotTerminating { pipeline: String },
    /// XceiverServerRatis INFO `Created group {}`.
    RatisGroupCreated { pipeline: String },
    /// XceiverServerRatis INFO `Leader change notification received for group: {} with new
    /// leaderId: {}`.
    LeaderChangeNotification { group: String, leader: String },
    /// `ContainerUtils.logAndReturnError` (logger = KeyValueHandler, HddsDispatcher or CSM):
    /// `Operation: {} , Trace ID: {} , Message: {} , Result: {} , StorageContainerException
    /// Occurred.`
    DispatchError {
        op: String,
        trace_id: String,
        message: String,
        result: String,
        /// `Chunk offset A does not match length B of blockFile <localID>.block`.
        chunk_offset: Option<u64>,
        file_length: Option<u64>,
        local: Option<u64>,
    },
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
    ChunkWrite {
        chunk: String,
        local: Option<u64>,
        offset: Option<u64>,
        len: Option<u64>,
        overwrite: bool,
        stage: String,
        container: Option<u64>,
        file: String,
    },
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
            DatanodeEvent::CsmWriteSubmitted { .. } => "csm_write_submitted",
            DatanodeEvent::CsmWriteCompleted { .. } => "csm_write_completed",
            DatanodeEvent::CsmWriteFailed { .. } => "csm_write_failed",
            DatanodeEvent::CsmWriteCancelled { .. } => "csm_write_cancelled",
            DatanodeEvent::CsmWriteFailedCloseServer { .. } => "csm_write_failed_close_server",
            DatanodeEvent::CsmReadFailed { .. } => "csm_read_failed",
            DatanodeEvent::CsmReadDataFailed { .. } => "csm_read_data_failed",
            DatanodeEvent::CsmApplyException { .. } => "csm_apply_exception",
            DatanodeEvent::CsmApply {
                completed: true, ..
            } => "csm_apply_completed",
            DatanodeEvent::CsmApply {
                completed: false, ..
            } => "csm_apply_failed",
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

/// The releases a row's wording was found in (at the tags ozone-1.3.0 … 2.2.0 and HEAD); rows
/// that differ say so.
const RELEASES: &str = "1.3–HEAD";
const CSM: &str =
    "org.apache.hadoop.ozone.container.common.transport.server.ratis.ContainerStateMachine";
const XSR: &str =
    "org.apache.hadoop.ozone.container.common.transport.server.ratis.XceiverServerRatis";
const KVH: &str = "org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler";
const CHUNK_UTILS: &str = "org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils";
const FPBS: &str = "org.apache.hadoop.ozone.container.keyvalue.impl.FilePerBlockStrategy";
const DISPATCHER: &str = "org.apache.hadoop.ozone.container.common.impl.HddsDispatcher";
const CCCH: &str = "org.apache.hadoop.ozone.container.common.statemachine.commandhandler.CloseContainerCommandHandler";

macro_rules! kind {
    ($kind:literal, $log:literal, $class:expr, $level:literal, $template:literal, $catalogue:literal) => {
        kind!($kind, $log, $class, $level, $template, $catalogue, RELEASES)
    };
    ($kind:literal, $log:literal, $class:expr, $level:literal, $template:literal, $catalogue:literal, $releases:expr) => {
        KindInfo {
            kind: $kind,
            log: $log,
            class: $class,
            level: $level,
            releases: $releases,
            template: $template,
            catalogue: $catalogue,
        }
    };
}

pub const KINDS: &[KindInfo] = &[
    KindInfo {
        kind: "dn_audit",
        log: "dn-audit",
        class: "org.apache.hadoop.ozone.audit.AuditMessage (DNAudit)",
        level: "INFO/ERROR",
        releases: "Ozone 1.4-HEAD (params JSON from 2.1.0, {k=v} before)",
        template: "user=null | ip=null | op=<DNAction> <params> | ret=<SUCCESS|FAILURE|null>[ | perf={preOpLatencyMs=.., opLatencyMs=..}]",
        catalogue: "datanode.md 1.2",
    },
    KindInfo {
        kind: "dn_container_state",
        log: "dn-container",
        class: "org.apache.hadoop.ozone.container.common.utils.ContainerLogger",
        level: "INFO/WARN/ERROR",
        releases: "2.0–HEAD (HEAD 78d5650c; not checked further back)",
        template: "ID=<id> | Index=<i> | BCSID=<b> | State=<s> | Volume=<v> | DataChecksum=<hex>[ | <message>]",
        catalogue: "datanode.md 1.3",
    },
    kind!(
        "csm_initialize",
        "datanode",
        CSM,
        "INFO",
        "{}: initialize {}",
        "datanode.md 2.3",
        "2.0–HEAD"
    ),
    kind!(
        "csm_last_applied_index",
        "datanode",
        CSM,
        "INFO",
        "{}: The snapshot info is null. Setting the last applied index to:{} / {}: Setting the last applied index to {}",
        "datanode.md 2.3",
        "2.0–HEAD"
    ),
    kind!(
        "csm_snapshot",
        "datanode",
        CSM,
        "INFO",
        "{}: Taking a snapshot at:{} file {} / {}: Finished taking a snapshot at:{} file:{} took: {} ms",
        "datanode.md 2.3"
    ),
    kind!(
        "csm_snapshot_unhealthy",
        "datanode",
        CSM,
        "ERROR",
        "\"Failed to take snapshot  for \" + gid + \" as the stateMachine is unhealthy. The last applied index is at \" + ti",
        "datanode.md 2.3",
        "2.0–HEAD (HEAD 78d5650c; not checked further back)"
    ),
    kind!(
        "csm_start_transaction_failed",
        "datanode",
        CSM,
        "ERROR",
        "startTransaction validation failed on leader",
        "datanode.md 2.3"
    ),
    kind!(
        "csm_write_submitted",
        "datanode",
        CSM,
        "DEBUG",
        "{}: writeChunk writeStateMachineData : blockId{} logIndex {} chunkName {}",
        "datanode.md 2.3, 3.A"
    ),
    kind!(
        "csm_write_completed",
        "datanode",
        CSM,
        "DEBUG",
        "getGroupId() + \": writeChunk writeStateMachineData  completed: blockId\" + blockID + \" logIndex \" + idx + \" chunkName \" + name",
        "datanode.md 2.3, 3.A"
    ),
    kind!(
        "csm_write_failed",
        "datanode",
        CSM,
        "ERROR",
        "getGroupId() + \": writeChunk writeStateMachineData failed: blockId\" + blockID + \" logIndex \" + idx + \" chunkName \" + name + \" Error message: \" + msg + \" Container Result: \" + result / \"{}: writeChunk writeStateMachineData failed: blockId{} logIndex {} chunkName {}\" + exc",
        "datanode.md 2.3"
    ),
    kind!(
        "csm_write_cancelled",
        "datanode",
        CSM,
        "ERROR",
        "Write chunk has taken {}ns crossing threshold {}ns for index {} groupId {}, cancelling pending write chunk for this group",
        "datanode.md 2.3",
        "2.0–HEAD"
    ),
    kind!(
        "csm_write_failed_close_server",
        "datanode",
        CSM,
        "ERROR",
        "{}: Failed to writeStateMachineData, close server",
        "datanode.md 2.3",
        "HEAD (unreleased)"
    ),
    kind!(
        "csm_read_failed",
        "datanode",
        CSM,
        "ERROR",
        "gid {} : ReadStateMachine failed. cmd {} logIndex {} msg : {} Container Result: {}",
        "datanode.md 2.3, 3.A"
    ),
    kind!(
        "csm_read_data_failed",
        "datanode",
        CSM,
        "ERROR",
        "{} unable to read stateMachineData:",
        "datanode.md 2.3"
    ),
    kind!(
        "csm_apply_exception",
        "datanode",
        CSM,
        "ERROR",
        "getGroupId() + \": failed to applyTransaction at logIndex \" + index + \" for \" + cmdType",
        "datanode.md 2.3",
        "1.4–HEAD"
    ),
    kind!(
        "csm_apply_failed",
        "datanode",
        CSM,
        "ERROR",
        "gid {} : ApplyTransaction failed. cmd {} logIndex {} msg : {} Container Result: {}",
        "datanode.md 2.3"
    ),
    kind!(
        "csm_apply_completed",
        "datanode",
        CSM,
        "DEBUG",
        "gid {} : ApplyTransaction completed. cmd {} logIndex {} msg : {} Container Result: {}",
        "datanode.md 2.3, 3.A"
    ),
    kind!(
        "csm_log_failed",
        "datanode",
        CSM,
        "ERROR",
        "{}: {} {} (notifyLogFailed: groupId, TermIndex, log entry) + throwable",
        "datanode.md 2.3"
    ),
    kind!(
        "csm_closed",
        "datanode",
        CSM,
        "INFO/ERROR",
        "{} is closed by ratis / Container statemachine is closed by ratis, terminating HddsDatanodeService. closed({})/total({})",
        "datanode.md 2.3"
    ),
    kind!(
        "pipeline_action",
        "datanode",
        XSR,
        "WARN",
        "pipeline Action {} on pipeline {}.Reason : {}",
        "datanode.md 2.4"
    ),
    kind!(
        "install_snapshot_terminating",
        "datanode",
        XSR,
        "WARN",
        "handleInstallSnapshotFromLeader for firstTermIndexInLog={}, terminating pipeline: {}",
        "datanode.md 2.4",
        "2.0–HEAD"
    ),
    kind!(
        "ratis_group_created",
        "datanode",
        XSR,
        "INFO",
        "Created group {}",
        "datanode.md 2.4"
    ),
    kind!(
        "leader_change_notification",
        "datanode",
        XSR,
        "INFO",
        "Leader change notification received for group: {} with new leaderId: {}",
        "datanode.md 2.1, 2.4"
    ),
    kind!(
        "dispatch_error",
        "datanode",
        "org.apache.hadoop.ozone.container.common.helpers.ContainerUtils.logAndReturnError (logger: KeyValueHandler, HddsDispatcher or ContainerStateMachine)",
        "WARN",
        "Operation: {} , Trace ID: {} , Message: {} , Result: {} , StorageContainerException Occurred.",
        "datanode.md 2.5, 3.A"
    ),
    kind!(
        "chunk_unexpected_size",
        "datanode",
        CHUNK_UTILS,
        "ERROR",
        "String.format(\"Unexpected %s size. expected: %d, actual: %d\", of, expected, actual)",
        "datanode.md 2.5, 3.A"
    ),
    kind!(
        "chunk_duplicate_write",
        "datanode",
        CHUNK_UTILS,
        "WARN",
        "Duplicate write chunk request. Chunk overwrite without explicit request. {}",
        "datanode.md 2.5, 3.A"
    ),
    kind!(
        "chunk_oversize_read",
        "datanode",
        CHUNK_UTILS,
        "ERROR",
        "Oversize read. max: %d, actual: %d",
        "datanode.md 2.5"
    ),
    kind!(
        "chunk_write",
        "datanode",
        FPBS,
        "DEBUG",
        "Writing chunk {} (overwrite: {}) in stage {} to file {}",
        "datanode.md 2.5, 3.A"
    ),
    kind!(
        "chunk_ignored",
        "datanode",
        FPBS,
        "DEBUG",
        "Ignore chunk {} in stage {}",
        "datanode.md 2.5, 3.A"
    ),
    kind!(
        "block_file_deleted",
        "datanode",
        FPBS,
        "INFO/WARN",
        "Deleted block file: {} / Block file to be deleted does not exist: {}",
        "datanode.md 2.5"
    ),
    kind!(
        "block_finalize",
        "datanode",
        KVH,
        "INFO",
        "Finalized Block request received {}  / Block has been finalized {} ",
        "datanode.md 2.5",
        "2.0–HEAD"
    ),
    kind!(
        "container_mark_unhealthy_error",
        "datanode",
        KVH,
        "WARN",
        "Unexpected error while marking container {} unhealthy",
        "datanode.md 2.5"
    ),
    kind!(
        "block_committed",
        "datanode",
        "org.apache.hadoop.ozone.container.keyvalue.impl.BlockManagerImpl",
        "DEBUG",
        "\"Block \" + blockID + \" successfully committed with bcsId \" + bcsId + \" chunk size \" + n",
        "datanode.md 2.5, 3.A"
    ),
    kind!(
        "container_marked_unhealthy",
        "datanode",
        DISPATCHER,
        "INFO",
        "Marked Container UNHEALTHY, ContainerID: {}",
        "datanode.md 2.5, 3.A"
    ),
    kind!(
        "container_mark_unhealthy_failed",
        "datanode",
        DISPATCHER,
        "ERROR",
        "\"Failed to mark container \" + id + \" UNHEALTHY. \"",
        "datanode.md 2.5"
    ),
    kind!(
        "full_volume_heartbeat",
        "datanode",
        DISPATCHER,
        "WARN",
        "Triggered immediate heartbeat because of full volume.",
        "datanode.md 2.5, 3.B",
        "2.1–HEAD"
    ),
    kind!(
        "scan_container_not_found",
        "datanode",
        "org.apache.hadoop.ozone.container.common.impl.ContainerSet",
        "WARN",
        "Request to scan container {} which was not found in the container set",
        "datanode.md 2.5",
        "2.1–HEAD"
    ),
    kind!(
        "container_scan_result",
        "datanode",
        "ContainerScanHelper (the scanner's logger, e.g. OnDemandContainerDataScanner)",
        "ERROR/WARN",
        "Corruption detected in container [{}]. Marking it UNHEALTHY. {} / Skipped marking container UNHEALTHY [{}]: scan failed due to transient ...",
        "datanode.md 2.5, 3.A",
        "1.4–HEAD"
    ),
    kind!(
        "close_container_handling",
        "datanode",
        CCCH,
        "INFO/ERROR",
        "Container #{} does not exist in datanode. Its pipeline may have closed before it was created. Container close failed. / Marking Container {} quasi closed / Follower cannot close container #{}. / Can't close container #{}",
        "datanode.md 2.6",
        "2.0–HEAD (HEAD 78d5650c; not checked further back)"
    ),
];

/// Types a datanode record.
pub fn parse(input: &Input<'_>) -> Option<Typed> {
    let record = input.record;
    let event = match input.component {
        Component::DnAudit => audit(input)?,
        Component::DnContainer => container_log(&record.message, record.throwable.as_deref())?,
        _ => {
            let msg = record.message.as_str();
            match record.logger.as_deref().map(logger_class) {
                Some(tail) => by_logger(tail, msg, &record.continuation)?,
                None => LOGGER_TAILS
                    .iter()
                    .find_map(|tail| by_logger(tail, msg, &record.continuation))?,
            }
        }
    };
    // A pipeline action's reason names its peers on the lines after the first
    // (`XceiverServerRatis.handlePipelineFailure`: `\n  Follower <peer> with datanodeId <uuid> …`).
    let entities = match event {
        DatanodeEvent::PipelineAction { .. } if record.continuation_lines > 0 => {
            entities(&event, &record.full_text())
        }
        _ => entities(&event, &record.message),
    };
    Some(Typed {
        data: EventData::Datanode(event),
        entities,
    })
}

const LOGGER_TAILS: &[&str] = &[
    "ContainerStateMachine",
    "XceiverServerRatis",
    "KeyValueHandler",
    "ChunkUtils",
    "FilePerBlockStrategy",
    "BlockManagerImpl",
    "HddsDispatcher",
    "ContainerSet",
    "CloseContainerCommandHandler",
    "OnDemandContainerDataScanner",
];

fn audit(input: &Input<'_>) -> Option<DatanodeEvent> {
    let body = input.audit?;
    let throwable = input
        .record
        .throwable
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    Some(DatanodeEvent::DnAudit {
        op: body.op.clone(),
        ret: body.ret.as_str().to_owned(),
        params: body.params.clone(),
        perf: body.perf.clone(),
        throwable,
    })
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
            state = Some(v.to_owned());
        } else if let Some(v) = part.strip_prefix("Volume=") {
            volume = Some(v.to_owned());
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

fn by_logger(tail: &str, msg: &str, continuation: &str) -> Option<DatanodeEvent> {
    // ContainerUtils.logAndReturnError logs through the caller's logger.
    if let Some(after) = msg.strip_prefix("Operation: ") {
        return matches!(
            tail,
            "KeyValueHandler" | "HddsDispatcher" | "ContainerStateMachine"
        )
        .then(|| dispatch_error(after))
        .flatten();
    }
    // ContainerScanHelper logs through the scanner that called it.
    if let Some(after) = msg.strip_prefix("Corruption detected in container [") {
        return scan_result(after, true);
    }
    if let Some(after) = msg.strip_prefix("Skipped marking container UNHEALTHY [") {
        return scan_result(after, false);
    }
    match tail {
        "ContainerStateMachine" => csm(msg, continuation),
        "XceiverServerRatis" => xceiver(msg),
        "KeyValueHandler" => key_value_handler(msg),
        "ChunkUtils" => chunk_utils(msg),
        "FilePerBlockStrategy" => file_per_block(msg),
        "BlockManagerImpl" => block_manager(msg),
        "HddsDispatcher" => dispatcher(msg),
        "ContainerSet" => {
            let after = msg.strip_prefix("Request to scan container ")?;
            let (id, _) = after.split_once(" which was not found")?;
            Some(DatanodeEvent::ScanContainerNotFound {
                container: id.parse().ok()?,
            })
        }
        "CloseContainerCommandHandler" => close_container(msg),
        _ => None,
    }
}

fn i64_prefix(s: &str) -> Option<i64> {
    let sign = usize::from(s.starts_with('-'));
    let len = sign + s.bytes().skip(sign).take_while(u8::is_ascii_digit).count();
    s.get(..len)?.parse().ok()
}

fn number_after(s: &str, label: &str) -> Option<u64> {
    let at = s.find(label)? + label.len();
    u64_prefix(s.get(at..)?)
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

// --- ContainerStateMachine ----------------------------------------------------------------------

fn csm(msg: &str, continuation: &str) -> Option<DatanodeEvent> {
    if let Some(after) = msg.strip_prefix("gid ") {
        // `gid {} : ApplyTransaction completed|failed. cmd {} logIndex {} msg : {} Container
        // Result: {}` and `gid {} : ReadStateMachine failed. ...`.
        let (group, after) = after.split_once(" : ")?;
        let (what, after) = after.split_once(". cmd ")?;
        let (cmd, after) = after.split_once(" logIndex ")?;
        let (index, after) = after.split_once(" msg : ")?;
        let (message, result) = after.rsplit_once(" Container Result: ")?;
        let (group, cmd, index) = (group.to_owned(), cmd.to_owned(), index.parse().ok());
        let (message, result) = (message.trim().to_owned(), result.trim().to_owned());
        return match what {
            "ApplyTransaction completed" | "ApplyTransaction failed" => {
                Some(DatanodeEvent::CsmApply {
                    group,
                    cmd,
                    index,
                    message,
                    result,
                    completed: what.ends_with("completed"),
                })
            }
            "ReadStateMachine failed" => Some(DatanodeEvent::CsmReadFailed {
                group,
                cmd,
                index,
                message,
                result,
            }),
            _ => None,
        };
    }
    if msg == "startTransaction validation failed on leader" {
        return Some(DatanodeEvent::CsmStartTransactionFailed {});
    }
    if let Some(after) = msg.strip_prefix("Failed to take snapshot  for ") {
        let (group, after) = after.split_once(" as the stateMachine is unhealthy")?;
        return Some(DatanodeEvent::CsmSnapshotUnhealthy {
            group: group.to_owned(),
            index: entity::find_term_indexes(after)
                .next()
                .and_then(|m| m.value.index),
        });
    }
    if let Some(after) = msg.strip_prefix("Write chunk has taken ") {
        return Some(DatanodeEvent::CsmWriteCancelled {
            group: after
                .split_once(" groupId ")
                .and_then(|(_, g)| g.split(',').next())
                .unwrap_or_default()
                .to_owned(),
            taken_ns: u64_prefix(after),
            index: number_after(after, " for index "),
        });
    }
    if msg.starts_with("Container statemachine is closed by ratis, terminating") {
        return Some(DatanodeEvent::CsmClosed {
            group: None,
            terminating: true,
        });
    }
    if let Some(group) = msg.strip_suffix(" is closed by ratis") {
        return Some(DatanodeEvent::CsmClosed {
            group: Some(group.to_owned()),
            terminating: false,
        });
    }
    if let Some(group) = msg.strip_suffix(" unable to read stateMachineData:") {
        return Some(DatanodeEvent::CsmReadDataFailed {
            group: group.to_owned(),
        });
    }
    let (head, text) = msg.split_once(": ")?;
    let group = head.to_owned();
    if let Some(after) = text.strip_prefix("writeChunk writeStateMachineData") {
        return csm_write(group, after, continuation);
    }
    // notifyLogFailed: `{}: {} {}` = group id, TermIndex `(t:T, i:I)`, the entry.
    if text.starts_with("(t:") && Entity::group(&group).is_some() {
        let ti = entity::term_index(text).map(|(ti, _)| ti);
        return Some(DatanodeEvent::CsmLogFailed {
            group,
            term: ti.and_then(|t| t.term),
            index: ti.and_then(|t| t.index),
        });
    }
    if let Some(after) = text.strip_prefix("initialize ") {
        return Some(DatanodeEvent::CsmInitialize {
            peer: group,
            group: after.trim().to_owned(),
        });
    }
    if let Some(after) = text
        .strip_prefix("The snapshot info is null. Setting the last applied index to:")
        .map(|a| (a, true))
        .or_else(|| {
            text.strip_prefix("Setting the last applied index to ")
                .map(|a| (a, false))
        })
    {
        let (value, snapshot_missing) = after;
        let ti = entity::find_term_indexes(value).next().map(|m| m.value);
        return Some(DatanodeEvent::CsmLastAppliedIndex {
            group,
            term: ti.and_then(|t| t.term),
            index: ti
                .and_then(|t| t.index)
                .or_else(|| u64_prefix(value.trim())),
            snapshot_missing,
        });
    }
    let snapshot = text
        .strip_prefix("Taking a snapshot at:")
        .map(|a| (a, false))
        .or_else(|| {
            text.strip_prefix("Finished taking a snapshot at:")
                .map(|a| (a, true))
        });
    if let Some((after, finished)) = snapshot {
        let ti = entity::term_index(after).map(|(ti, _)| ti);
        return Some(DatanodeEvent::CsmSnapshot {
            group,
            term: ti.and_then(|t| t.term),
            index: ti.and_then(|t| t.index),
            finished,
            took_ms: number_after(after, " took: "),
        });
    }
    if text == "Failed to writeStateMachineData, close server" {
        return Some(DatanodeEvent::CsmWriteFailedCloseServer { group });
    }
    if let Some(after) = text.strip_prefix("failed to applyTransaction at logIndex ") {
        let (index, cmd) = after.split_once(" for ")?;
        return Some(DatanodeEvent::CsmApplyException {
            group,
            index: index.parse().ok(),
            cmd: cmd.to_owned(),
        });
    }
    None
}

/// The rest of `<gid>: writeChunk writeStateMachineData`: ` : blockId<id> logIndex <i> chunkName
/// <n>` (submitted), `  completed: blockId...` or ` failed: blockId...`. The block id is the
/// multi-line protobuf `DatanodeBlockID` text, so the index and chunk are on a continuation line.
fn csm_write(group: String, after: &str, continuation: &str) -> Option<DatanodeEvent> {
    let mut text = String::with_capacity(after.len() + continuation.len() + 1);
    text.push_str(after);
    if !continuation.is_empty() {
        text.push('\n');
        text.push_str(continuation);
    }
    let block = entity::find_blocks(&text).next().map(|m| m.value);
    let container = block
        .map(|b| b.container)
        .or_else(|| number_after(&text, "containerID: "));
    let local = block.map(|b| b.local);
    let index = number_after(&text, " logIndex ");
    let chunk = text
        .split_once(" chunkName ")
        .and_then(|(_, c)| c.split_whitespace().next())
        .map(str::to_owned);
    if after.starts_with(" : ") {
        return Some(DatanodeEvent::CsmWriteSubmitted {
            group,
            container,
            local,
            index: index?,
            chunk: chunk?,
        });
    }
    if after.starts_with("  completed: ") {
        return Some(DatanodeEvent::CsmWriteCompleted {
            group,
            container,
            local,
            index: index?,
            chunk: chunk?,
        });
    }
    if after.starts_with(" failed: ") {
        return Some(DatanodeEvent::CsmWriteFailed {
            group,
            container,
            local,
            index,
            chunk,
            result: text
                .split_once(" Container Result: ")
                .and_then(|(_, r)| r.split_whitespace().next())
                .map(str::to_owned),
        });
    }
    None
}

// --- XceiverServerRatis -------------------------------------------------------------------------

fn xceiver(msg: &str) -> Option<DatanodeEvent> {
    if let Some(after) = msg.strip_prefix("Leader change notification received for group: ") {
        let (group, leader) = after.split_once(" with new leaderId: ")?;
        return Some(DatanodeEvent::LeaderChangeNotification {
            group: group.to_owned(),
            leader: leader.trim().to_owned(),
        });
    }
    if let Some(after) = msg.strip_prefix("pipeline Action ") {
        let (action, after) = after.split_once(" on pipeline ")?;
        let (pipeline, reason) = after.split_once(".Reason : ").unwrap_or((after, ""));
        return Some(DatanodeEvent::PipelineAction {
            action: action.to_owned(),
            pipeline: pipeline.to_owned(),
            reason: reason.to_owned(),
        });
    }
    if let Some(after) =
        msg.strip_prefix("handleInstallSnapshotFromLeader for firstTermIndexInLog=")
    {
        let (_, pipeline) = after.split_once(", terminating pipeline: ")?;
        return Some(DatanodeEvent::InstallSnapshotTerminating {
            pipeline: pipeline.trim().to_owned(),
        });
    }
    let pipeline = msg.strip_prefix("Created group ")?;
    Some(DatanodeEvent::RatisGroupCreated {
        pipeline: pipeline.trim().to_owned(),
    })
}

// --- Dispatcher, KeyValueHandler, ChunkUtils, FilePerBlockStrategy, BlockManagerImpl -----------

/// After `Operation: `: `{} , Trace ID: {} , Message: {} , Result: {} , StorageContainerException
/// Occurred.` The message may itself contain ` , `, so the result is taken from the end.
fn dispatch_error(after: &str) -> Option<DatanodeEvent> {
    let (op, after) = after.split_once(" , Trace ID: ")?;
    let (trace_id, after) = after.split_once(" , Message: ")?;
    let (message, result) = after.rsplit_once(" , Result: ")?;
    let result = result
        .split_once(" , StorageContainerException Occurred")
        .map_or(result, |(r, _)| r);
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
    Some(DatanodeEvent::DispatchError {
        op: op.trim().to_owned(),
        trace_id: trace_id.trim().to_owned(),
        message: message.to_owned(),
        result: result.trim().to_owned(),
        chunk_offset,
        file_length,
        local,
    })
}

fn chunk_utils(msg: &str) -> Option<DatanodeEvent> {
    if let Some(after) = msg.strip_prefix("Unexpected ") {
        let (of, after) = after.split_once(" size. expected: ")?;
        let (expected, actual) = after.split_once(", actual: ")?;
        return Some(DatanodeEvent::ChunkUnexpectedSize {
            of: of.to_owned(),
            expected: i64_prefix(expected)?,
            actual: i64_prefix(actual.trim())?,
        });
    }
    if let Some(after) = msg
        .strip_prefix("Duplicate write chunk request. Chunk overwrite without explicit request. ")
    {
        let (chunk, offset, len) = chunk_info(after.trim())?;
        return Some(DatanodeEvent::ChunkDuplicateWrite {
            local: local_of(&chunk),
            chunk,
            offset,
            len,
        });
    }
    let after = msg.strip_prefix("Oversize read. max: ")?;
    let (max, actual) = after.split_once(", actual: ")?;
    Some(DatanodeEvent::ChunkOversizeRead {
        max: i64_prefix(max)?,
        actual: i64_prefix(actual.trim())?,
    })
}

fn file_per_block(msg: &str) -> Option<DatanodeEvent> {
    if let Some(after) = msg.strip_prefix("Writing chunk ") {
        let (info, after) = after.split_once(" (overwrite: ")?;
        let (overwrite, after) = after.split_once(") in stage ")?;
        let (stage, file) = after.split_once(" to file ")?;
        let (chunk, offset, len) = chunk_info(info)?;
        // The block file lives in `<containerDir>/<containerID>/chunks/<localID>.block`.
        let container = file
            .rsplit('/')
            .nth(2)
            .and_then(|c| c.parse().ok())
            .filter(|_| file.contains("/chunks/"));
        return Some(DatanodeEvent::ChunkWrite {
            local: local_of(&chunk),
            chunk,
            offset,
            len,
            overwrite: overwrite == "true",
            stage: stage.to_owned(),
            container,
            file: file.trim().to_owned(),
        });
    }
    if let Some(after) = msg.strip_prefix("Ignore chunk ") {
        let (info, stage) = after.split_once(" in stage ")?;
        let (chunk, offset, len) = chunk_info(info)?;
        return Some(DatanodeEvent::ChunkIgnored {
            local: local_of(&chunk),
            chunk,
            offset,
            len,
            stage: stage.trim().to_owned(),
        });
    }
    if let Some(file) = msg.strip_prefix("Deleted block file: ") {
        return Some(DatanodeEvent::BlockFileDeleted {
            file: file.trim().to_owned(),
            existed: true,
        });
    }
    let file = msg.strip_prefix("Block file to be deleted does not exist: ")?;
    Some(DatanodeEvent::BlockFileDeleted {
        file: file.trim().to_owned(),
        existed: false,
    })
}

fn key_value_handler(msg: &str) -> Option<DatanodeEvent> {
    if msg.starts_with("Finalized Block request received ") {
        return Some(DatanodeEvent::BlockFinalize { done: false });
    }
    if msg.starts_with("Block has been finalized ") {
        return Some(DatanodeEvent::BlockFinalize { done: true });
    }
    let after = msg.strip_prefix("Unexpected error while marking container ")?;
    let (id, _) = after.split_once(" unhealthy")?;
    Some(DatanodeEvent::ContainerMarkUnhealthyError {
        container: entity::container_id(id)?,
    })
}

fn block_manager(msg: &str) -> Option<DatanodeEvent> {
    // `"Block " + blockID + " successfully committed with bcsId " + bcsId + " chunk size " + n`.
    let after = msg.strip_prefix("Block ")?;
    let (block, rest) = after.split_once(" successfully committed with bcsId ")?;
    let (block, _) = entity::block_id(block)?;
    Some(DatanodeEvent::BlockCommitted {
        container: block.container,
        local: block.local,
        bcs_id: u64_prefix(rest),
    })
}

fn dispatcher(msg: &str) -> Option<DatanodeEvent> {
    if let Some(id) = msg.strip_prefix("Marked Container UNHEALTHY, ContainerID: ") {
        return Some(DatanodeEvent::ContainerMarkedUnhealthy {
            container: entity::container_id(id.trim())?,
        });
    }
    if let Some(after) = msg.strip_prefix("Failed to mark container ") {
        let (id, _) = after.split_once(" UNHEALTHY")?;
        return Some(DatanodeEvent::ContainerMarkUnhealthyFailed {
            container: entity::container_id(id)?,
        });
    }
    (msg.trim_end() == "Triggered immediate heartbeat because of full volume.")
        .then_some(DatanodeEvent::FullVolumeHeartbeat {})
}

/// After `Corruption detected in container [` / `Skipped marking container UNHEALTHY [`.
fn scan_result(after: &str, marked_unhealthy: bool) -> Option<DatanodeEvent> {
    let (id, rest) = after.split_once(']')?;
    // ScanResult: `Container has N error(s): <TYPE> for file ...`.
    let error = rest
        .split_once(" error: ")
        .or_else(|| rest.split_once(" errors: "))
        .and_then(|(_, e)| e.split_whitespace().next())
        .map(str::to_owned);
    Some(DatanodeEvent::ContainerScanResult {
        container: id.parse().ok()?,
        marked_unhealthy,
        error,
    })
}

fn close_container(msg: &str) -> Option<DatanodeEvent> {
    let (container, outcome) = if let Some(after) = msg.strip_prefix("Container #") {
        let (id, _) = after.split_once(" does not exist in datanode")?;
        (id, "missing")
    } else if let Some(after) = msg.strip_prefix("Marking Container ") {
        let (id, _) = after.split_once(" quasi closed")?;
        (id, "quasi_closing")
    } else if let Some(after) = msg.strip_prefix("Follower cannot close container #") {
        (after.trim_end_matches('.'), "follower_cannot_close")
    } else if let Some(after) = msg.strip_prefix("Can't close container #") {
        (after, "failed")
    } else {
        return None;
    };
    Some(DatanodeEvent::CloseContainerHandling {
        container: entity::container_id(container.trim())?,
        outcome: outcome.to_owned(),
    })
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
        DatanodeEvent::DnAudit { params, .. } => {
            for (key, value) in params.iter() {
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
        | DatanodeEvent::CsmReadFailed { group, .. }
        | DatanodeEvent::CsmReadDataFailed { group }
        | DatanodeEvent::CsmApplyException { group, .. }
        | DatanodeEvent::CsmApply { group, .. }
        | DatanodeEvent::CsmLogFailed { group, .. }
        | DatanodeEvent::LeaderChangeNotification { group, .. } => out.extend(Entity::group(group)),
        DatanodeEvent::CsmWriteSubmitted {
            group,
            container,
            local,
            ..
        }
        | DatanodeEvent::CsmWriteCompleted {
            group,
            container,
            local,
            ..
        }
        | DatanodeEvent::CsmWriteFailed {
            group,
            container,
            local,
            ..
        } => {
            out.extend(Entity::group(group));
            block(&mut out, *container, *local);
        }
        DatanodeEvent::CsmClosed { group, .. } => {
            out.extend(group.as_deref().and_then(Entity::group));
        }
        DatanodeEvent::PipelineAction { .. }
        | DatanodeEvent::InstallSnapshotTerminating { .. }
        | DatanodeEvent::RatisGroupCreated { .. } => {
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
        DatanodeEvent::DispatchError { message, .. } => {
            for m in entity::find_blocks(message) {
                out.push(Entity::Container(m.value.container));
                out.push(m.value.entity());
            }
            out.extend(entity::find_containers(message).map(|m| Entity::Container(m.value)));
        }
        DatanodeEvent::ChunkWrite {
            container, local, ..
        } => block(&mut out, *container, *local),
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
mod tests {
    use super::*;
    use crate::catalog::{EventData, classify};
    use crate::record::{ReadOptions, Record, read_records};

    const GROUP: &str = "group-41A9C03D5E7B";

    fn records(text: &str) -> Vec<Record> {
        let mut out = Vec::new();
        let (_, error) = read_records(&mut text.as_bytes(), &ReadOptions::default(), &mut |r| {
            out.push(r)
        });
        assert!(error.is_none());
        out
    }

    fn typed_as(text: &str, component: Component) -> Vec<(DatanodeEvent, Vec<String>)> {
        records(text)
            .iter()
            .map(|r| {
                let t = classify(r, component).unwrap_or_else(|| panic!("untyped: {r:?}"));
                let EventData::Datanode(e) = t.data else {
                    panic!("not a datanode event: {:?}", t.data)
                };
                (e, t.entities.iter().map(ToString::to_string).collect())
            })
            .collect()
    }

    /// Types `msg` (with optional continuation lines) in the file layout with the full logger,
    /// the console layout with `%c{2}` behind a compose prefix, and the vendor layout without a
    /// thread; all three must agree.
    fn one(
        level: &str,
        logger: &str,
        msg: &str,
        continuation: &[&str],
    ) -> (DatanodeEvent, Vec<String>) {
        let parts: Vec<&str> = logger.rsplitn(3, '.').collect();
        let short = format!("{}.{}", parts[1], parts[0]);
        let cont = |prefix: &str| {
            continuation
                .iter()
                .map(|c| format!("{prefix}{c}\n"))
                .collect::<String>()
        };
        let texts = [
            format!(
                "2026-08-19 10:21:41,331 [dn-ChunkWriter-3-0] {level} {logger}: {msg}\n{}",
                cont("")
            ),
            format!(
                "datanode-1  | 2026-08-19 10:21:41,331 [dn-ChunkWriter-3-0] {level} {short}: {msg}\n{}",
                cont("datanode-1  | ")
            ),
            format!(
                "2026-08-19 10:21:41,331 {level} {logger}: {msg}\n{}",
                cont("")
            ),
        ];
        let mut results: Vec<_> = texts
            .iter()
            .map(|t| {
                let mut all = typed_as(t, Component::Datanode);
                assert_eq!(all.len(), 1, "{t}");
                all.remove(0)
            })
            .collect();
        let first = results.remove(0);
        for other in results {
            assert_eq!(first, other, "layouts disagree for {msg}");
        }
        first
    }

    #[test]
    fn dn_audit_failure_perf_and_success_records() {
        let text = "\
2026-08-19 10:21:41,332 | ERROR | DNAudit | user=null | ip=null | op=WRITE_CHUNK {\"blockData\":\"conID: 1042 locID: 113750153625600023 bcsId: 0 replicaIndex: null\",\"offset\":\"8388608\",\"size\":\"2097152\",\"stage\":\"WRITE_DATA\"} | ret=FAILURE | java.lang.Exception: Chunk offset 8388608 does not match length 4194304 of blockFile 113750153625600023.block
\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.dispatchRequest(HddsDispatcher.java:466)
\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.lambda$dispatch$0(HddsDispatcher.java:198) 
2026-08-19 10:20:46,876 | INFO  | DNAudit | user=null | ip=null | op=WRITE_CHUNK {\"blockData\":\"conID: 1043 locID: 113750153625600009 bcsId: 0 replicaIndex: null\",\"offset\":\"12582912\",\"size\":\"4194304\",\"stage\":\"WRITE_DATA\"} | ret=null | perf={preOpLatencyMs=0, opLatencyMs=1266} |  
2026-08-19 10:52:04,490 | INFO  | DNAudit | user=null | ip=null | op=CLOSE_CONTAINER {containerID=1060} | ret=SUCCESS |  
";
        let all = typed_as(text, Component::DnAudit);
        assert_eq!(all.len(), 3);
        let (e, entities) = &all[0];
        assert_eq!(e.kind(), "dn_audit");
        let DatanodeEvent::DnAudit {
            op,
            ret,
            params,
            perf,
            throwable,
        } = e
        else {
            panic!()
        };
        assert_eq!((op.as_str(), ret.as_str()), ("WRITE_CHUNK", "FAILURE"));
        assert_eq!(params.get("stage"), Some("WRITE_DATA"));
        assert!(perf.is_none());
        assert!(
            throwable
                .as_deref()
                .unwrap()
                .contains("Chunk offset 8388608")
        );
        assert_eq!(
            entities,
            &vec![
                "container:1042".to_string(),
                "block:1042:113750153625600023".to_string()
            ]
        );
        let DatanodeEvent::DnAudit { ret, perf, .. } = &all[1].0 else {
            panic!()
        };
        assert_eq!(ret, "null");
        assert_eq!(
            perf.as_ref().and_then(|p| p.get("opLatencyMs")),
            Some("1266")
        );
        assert_eq!(all[2].1, vec!["container:1060".to_string()]);
        let json = serde_json::to_value(&all[1].0).unwrap();
        for field in ["op", "ret", "params", "perf", "throwable"] {
            assert!(json.get(field).is_some(), "{field}");
        }
    }

    #[test]
    fn dn_container_records() {
        let text = "\
2026-08-19 10:21:41,334 | ERROR | ID=1042 | Index=0 | BCSID=18345 | State=UNHEALTHY | Volume=/data/disk2/hdds | DataChecksum=0 | Container has 1 error: WRITE_FAILURE for file /data/disk2/hdds/CID-x/current/containerDir0/1042 with exception: org.apache.hadoop.hdds.scm.container.common.helpers.StorageContainerException |  
2026-08-19 10:52:04,490 | INFO  | ID=1060 | Index=0 | BCSID=5672 | State=CLOSING | Volume=/data/disk1/hdds | DataChecksum=0 |  
";
        let all = typed_as(text, Component::DnContainer);
        assert_eq!(all.len(), 2);
        let (e, entities) = &all[0];
        assert_eq!(e.kind(), "dn_container_state");
        let DatanodeEvent::DnContainerState {
            id,
            index,
            bcsid,
            state,
            volume,
            message,
        } = e
        else {
            panic!()
        };
        assert_eq!((*id, *index, *bcsid), (1042, Some(0), Some(18345)));
        assert_eq!(state.as_deref(), Some("UNHEALTHY"));
        assert_eq!(volume.as_deref(), Some("/data/disk2/hdds"));
        assert!(
            message
                .as_deref()
                .unwrap()
                .starts_with("Container has 1 error: WRITE_FAILURE"),
            "{message:?}"
        );
        assert_eq!(entities, &vec!["container:1042".to_string()]);
        let DatanodeEvent::DnContainerState { state, message, .. } = &all[1].0 else {
            panic!()
        };
        assert_eq!(
            (state.as_deref(), message.as_deref()),
            (Some("CLOSING"), None)
        );
    }

    #[test]
    fn dispatch_errors_with_their_results() {
        let (e, entities) = one(
            "WARN",
            KVH,
            "Operation: WriteChunk , Trace ID:  , Message: Chunk offset 8388608 does not match length 4194304 of blockFile 113750153625600023.block , Result: CHUNK_FILE_INCONSISTENCY , StorageContainerException Occurred.",
            &[
                "org.apache.hadoop.hdds.scm.container.common.helpers.StorageContainerException: Chunk offset 8388608 does not match length 4194304 of blockFile 113750153625600023.block",
                "\tat org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils.validateChunkSize(ChunkUtils.java:544)",
            ],
        );
        assert_eq!(e.kind(), "dispatch_error");
        let DatanodeEvent::DispatchError {
            op,
            result,
            chunk_offset,
            file_length,
            local,
            ..
        } = &e
        else {
            panic!()
        };
        assert_eq!(
            (op.as_str(), result.as_str()),
            ("WriteChunk", "CHUNK_FILE_INCONSISTENCY")
        );
        assert_eq!(
            (*chunk_offset, *file_length, *local),
            (Some(8388608), Some(4194304), Some(113750153625600023))
        );
        assert!(entities.is_empty());

        let (e, _) = one(
            "WARN",
            KVH,
            "Operation: ReadChunk , Trace ID:  , Message: Unexpected read size. expected: 4194304, actual: -1 , Result: CONTAINER_INTERNAL_ERROR , StorageContainerException Occurred.",
            &[],
        );
        assert!(
            matches!(e, DatanodeEvent::DispatchError { ref result, ref message, .. } if result == "CONTAINER_INTERNAL_ERROR" && message.starts_with("Unexpected read size"))
        );
        let (e, entities) = one(
            "WARN",
            KVH,
            "Operation: GetBlock , Trace ID:  , Message: Unable to find the block with bcsID 30904. Container 1043 bcsId is 30901. , Result: UNKNOWN_BCSID , StorageContainerException Occurred.",
            &[],
        );
        assert!(
            matches!(e, DatanodeEvent::DispatchError { ref result, .. } if result == "UNKNOWN_BCSID")
        );
        assert_eq!(entities, vec!["container:1043".to_string()]);
        let (e, entities) = one(
            "WARN",
            CSM,
            "Operation: WriteChunk , Trace ID: 7 , Message: Prev writes to container 5 failed, stopping all writes to container , Result: CONTAINER_UNHEALTHY , StorageContainerException Occurred.",
            &[],
        );
        assert!(matches!(e, DatanodeEvent::DispatchError { ref trace_id, .. } if trace_id == "7"));
        // Printed twice (issue 18 item 9), kept once.
        assert_eq!(entities, vec!["container:5".to_string()]);
        let (_, entities) = one(
            "WARN",
            KVH,
            "Operation: PutBlock , Trace ID:  , Message: Requested block conID: 1 locID: 113750153625600017 bcsId: 0 replicaIndex: null in container 1 is missing , Result: NO_SUCH_BLOCK , StorageContainerException Occurred.",
            &[],
        );
        assert_eq!(
            entities,
            vec![
                "container:1".to_string(),
                "block:1:113750153625600017".to_string()
            ]
        );
    }

    #[test]
    fn pipeline_action_reasons_name_their_datanodes() {
        // XceiverServerRatis.handlePipelineFailure (HEAD): `name + " with datanodeId " + id +
        // "handlePipelineFailure " + " for " + reason + ": " + role …`, a leader adds
        // `\n  Follower <peer> with datanodeId <id> is slow with lastRpcElapsedTime=…ms`.
        let own = "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c";
        let slow = "8d1e5a3b-2c4f-4a6e-9b7d-0f1e2d3c4b5a";
        let fine = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13";
        let first = format!(
            "pipeline Action CLOSE on pipeline Pipeline-7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b.Reason : {own}@group-41A9C03D5E7B with datanodeId {own}handlePipelineFailure  for slow follower: LEADER elapsed time=305000ms"
        );
        let followers = [
            format!(
                "  Follower {slow} with datanodeId {slow} is slow with lastRpcElapsedTime=300112ms"
            ),
            format!(
                "  Follower {fine} with datanodeId {fine} is  responding with lastRpcElapsedTime=12ms"
            ),
        ];
        let (e, entities) = one(
            "WARN",
            XSR,
            &first,
            &[followers[0].as_str(), followers[1].as_str()],
        );
        assert!(matches!(e, DatanodeEvent::PipelineAction { .. }));
        assert_eq!(
            entities,
            vec![
                "pipeline:7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b".to_string(),
                "group:41A9C03D5E7B".to_string(),
                format!("datanode:{own}"),
                format!("datanode:{slow}"),
                format!("datanode:{fine}"),
            ]
        );
    }

    #[test]
    fn chunk_utils_lines() {
        let (e, _) = one(
            "ERROR",
            CHUNK_UTILS,
            "Unexpected read size. expected: 4194304, actual: -1",
            &[],
        );
        assert_eq!(
            e,
            DatanodeEvent::ChunkUnexpectedSize {
                of: "read".into(),
                expected: 4194304,
                actual: -1
            }
        );
        let (e, _) = one(
            "ERROR",
            CHUNK_UTILS,
            "Unexpected write size. expected: 10, actual: 3",
            &[],
        );
        assert!(
            matches!(e, DatanodeEvent::ChunkUnexpectedSize { ref of, actual: 3, .. } if of == "write")
        );
        let (e, _) = one(
            "WARN",
            CHUNK_UTILS,
            "Duplicate write chunk request. Chunk overwrite without explicit request. ChunkInfo{chunkName='113750153625600019_chunk_0, offset=0, len=4194304}",
            &[],
        );
        assert_eq!(
            e,
            DatanodeEvent::ChunkDuplicateWrite {
                chunk: "113750153625600019_chunk_0".into(),
                local: Some(113750153625600019),
                offset: Some(0),
                len: Some(4194304)
            }
        );
        let (e, _) = one(
            "ERROR",
            CHUNK_UTILS,
            "Oversize read. max: 10, actual: 12",
            &[],
        );
        assert_eq!(e.kind(), "chunk_oversize_read");
    }

    #[test]
    fn file_per_block_and_block_manager_debug_lines() {
        let (e, entities) = one(
            "DEBUG",
            FPBS,
            "Writing chunk ChunkInfo{chunkName='113750153625600017_chunk_3, offset=12582912, len=4194304} (overwrite: false) in stage WRITE_DATA to file /data/disk1/hdds/CID-8d3f/current/containerDir0/1042/chunks/113750153625600017.block",
            &[],
        );
        assert!(
            matches!(e, DatanodeEvent::ChunkWrite { overwrite: false, container: Some(1042), local: Some(113750153625600017), offset: Some(12582912), ref stage, .. } if stage == "WRITE_DATA")
        );
        assert!(entities.contains(&"block:1042:113750153625600017".to_string()));
        let (e, _) = one(
            "DEBUG",
            FPBS,
            "Ignore chunk ChunkInfo{chunkName='113750153625600017_chunk_3, offset=12582912, len=4194304} in stage COMMIT_DATA",
            &[],
        );
        assert!(
            matches!(e, DatanodeEvent::ChunkIgnored { local: Some(113750153625600017), ref stage, ref chunk, .. } if stage == "COMMIT_DATA" && chunk == "113750153625600017_chunk_3")
        );
        let (e, _) = one(
            "INFO",
            FPBS,
            "Deleted block file: /data/disk1/hdds/x/1042/chunks/1.block",
            &[],
        );
        assert!(matches!(
            e,
            DatanodeEvent::BlockFileDeleted { existed: true, .. }
        ));
        let (e, _) = one(
            "WARN",
            FPBS,
            "Block file to be deleted does not exist: /x/1.block",
            &[],
        );
        assert!(matches!(
            e,
            DatanodeEvent::BlockFileDeleted { existed: false, .. }
        ));
        let (e, entities) = one(
            "DEBUG",
            "org.apache.hadoop.ozone.container.keyvalue.impl.BlockManagerImpl",
            "Block conID: 1042 locID: 113750153625600017 bcsId: 18345 replicaIndex: null successfully committed with bcsId 18345 chunk size 4",
            &[],
        );
        assert!(matches!(
            e,
            DatanodeEvent::BlockCommitted {
                container: 1042,
                bcs_id: Some(18345),
                ..
            }
        ));
        assert!(entities.contains(&"block:1042:113750153625600017".to_string()));
    }

    #[test]
    fn csm_write_lines_read_the_multi_line_block_id() {
        let (e, entities) = one(
            "DEBUG",
            CSM,
            &format!("{GROUP}: writeChunk writeStateMachineData : blockIdcontainerID: 1043"),
            &[
                "localID: 113750153625600019",
                "blockCommitSequenceId: 0",
                " logIndex 18342 chunkName 113750153625600019_chunk_0",
            ],
        );
        assert_eq!(
            e,
            DatanodeEvent::CsmWriteSubmitted {
                group: GROUP.into(),
                container: Some(1043),
                local: Some(113750153625600019),
                index: 18342,
                chunk: "113750153625600019_chunk_0".into()
            }
        );
        assert_eq!(
            entities,
            vec![
                "group:41A9C03D5E7B".to_string(),
                "container:1043".into(),
                "block:1043:113750153625600019".into()
            ]
        );
        let (e, _) = one(
            "DEBUG",
            CSM,
            &format!(
                "{GROUP}: writeChunk writeStateMachineData  completed: blockIdcontainerID: 1043"
            ),
            &[
                "localID: 113750153625600025",
                "blockCommitSequenceId: 0",
                " logIndex 18343 chunkName 113750153625600025_chunk_0",
            ],
        );
        assert!(matches!(
            e,
            DatanodeEvent::CsmWriteCompleted { index: 18343, .. }
        ));
        let (e, _) = one(
            "ERROR",
            CSM,
            &format!("{GROUP}: writeChunk writeStateMachineData failed: blockIdcontainerID: 1042"),
            &[
                "localID: 7",
                "blockCommitSequenceId: 0",
                " logIndex 9 chunkName 7_chunk_1 Error message: x Container Result: DISK_OUT_OF_SPACE",
            ],
        );
        assert!(
            matches!(e, DatanodeEvent::CsmWriteFailed { index: Some(9), result: Some(ref r), .. } if r == "DISK_OUT_OF_SPACE")
        );
    }

    #[test]
    fn csm_apply_read_snapshot_and_lifecycle_lines() {
        let (e, entities) = one(
            "DEBUG",
            CSM,
            &format!(
                "gid {GROUP} : ApplyTransaction completed. cmd WriteChunk logIndex 18343 msg :  Container Result: SUCCESS"
            ),
            &[],
        );
        assert_eq!(e.kind(), "csm_apply_completed");
        assert!(
            matches!(e, DatanodeEvent::CsmApply { index: Some(18343), ref cmd, ref result, .. } if cmd == "WriteChunk" && result == "SUCCESS")
        );
        assert_eq!(entities, vec!["group:41A9C03D5E7B".to_string()]);
        let (e, _) = one(
            "ERROR",
            CSM,
            &format!(
                "gid {GROUP} : ApplyTransaction failed. cmd PutBlock logIndex 5 msg : bad Container Result: CONTAINER_UNHEALTHY"
            ),
            &[],
        );
        assert_eq!(e.kind(), "csm_apply_failed");
        let (e, _) = one(
            "ERROR",
            CSM,
            &format!(
                "gid {GROUP} : ReadStateMachine failed. cmd ReadChunk logIndex 18343 msg : Unexpected read size. expected: 4194304, actual: -1 Container Result: CONTAINER_INTERNAL_ERROR"
            ),
            &[],
        );
        assert!(
            matches!(e, DatanodeEvent::CsmReadFailed { index: Some(18343), ref result, .. } if result == "CONTAINER_INTERNAL_ERROR")
        );
        let cases: &[(&str, &str)] = &[
            (
                "a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60: initialize group-41A9C03D5E7B",
                "csm_initialize",
            ),
            (
                "group-41A9C03D5E7B: The snapshot info is null. Setting the last applied index to:(t:0, i:~)",
                "csm_last_applied_index",
            ),
            (
                "group-41A9C03D5E7B: Setting the last applied index to (t:6, i:17585)",
                "csm_last_applied_index",
            ),
            (
                "group-41A9C03D5E7B: Taking a snapshot at:(t:6, i:17585) file /data/ratis/x/sm/snapshot.6_17585",
                "csm_snapshot",
            ),
            (
                "group-41A9C03D5E7B: Finished taking a snapshot at:(t:6, i:17585) file:/data/ratis/x/sm/snapshot.6_17585 took: 7 ms",
                "csm_snapshot",
            ),
            (
                "Failed to take snapshot  for group-41A9C03D5E7B as the stateMachine is unhealthy. The last applied index is at (t:6, i:9)",
                "csm_snapshot_unhealthy",
            ),
            (
                "startTransaction validation failed on leader",
                "csm_start_transaction_failed",
            ),
            (
                "Write chunk has taken 700000000000ns crossing threshold 600000000000ns for index 18342 groupId group-41A9C03D5E7B, cancelling pending write chunk for this group",
                "csm_write_cancelled",
            ),
            (
                "group-41A9C03D5E7B: Failed to writeStateMachineData, close server",
                "csm_write_failed_close_server",
            ),
            (
                "group-41A9C03D5E7B unable to read stateMachineData:",
                "csm_read_data_failed",
            ),
            (
                "group-41A9C03D5E7B: failed to applyTransaction at logIndex 18345 for PutBlock",
                "csm_apply_exception",
            ),
            ("group-41A9C03D5E7B is closed by ratis", "csm_closed"),
            (
                "group-41A9C03D5E7B: (t:6, i:18342) cmdType: WriteChunk containerID: 1043",
                "csm_log_failed",
            ),
            (
                "Container statemachine is closed by ratis, terminating HddsDatanodeService. closed(1)/total(3)",
                "csm_closed",
            ),
        ];
        for (msg, kind) in cases {
            let (e, _) = one("INFO", CSM, msg, &[]);
            assert_eq!(e.kind(), *kind, "{msg}");
        }
        let (e, _) = one(
            "INFO",
            CSM,
            "group-41A9C03D5E7B: Finished taking a snapshot at:(t:6, i:17585) file:/x took: 7 ms",
            &[],
        );
        assert!(matches!(
            e,
            DatanodeEvent::CsmSnapshot {
                finished: true,
                took_ms: Some(7),
                index: Some(17585),
                ..
            }
        ));
        let (e, _) = one(
            "ERROR",
            CSM,
            "Write chunk has taken 700ns crossing threshold 600ns for index 18342 groupId group-41A9C03D5E7B, cancelling pending write chunk for this group",
            &[],
        );
        assert!(
            matches!(e, DatanodeEvent::CsmWriteCancelled { index: Some(18342), ref group, .. } if group == GROUP)
        );
    }

    #[test]
    fn xceiver_server_ratis_lines() {
        let (e, entities) = one(
            "INFO",
            XSR,
            "Leader change notification received for group: group-41A9C03D5E7B with new leaderId: 6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71",
            &[],
        );
        assert!(
            matches!(e, DatanodeEvent::LeaderChangeNotification { ref leader, .. } if leader == "6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71")
        );
        assert_eq!(entities, vec!["group:41A9C03D5E7B".to_string()]);
        let (e, entities) = one(
            "WARN",
            XSR,
            "pipeline Action CLOSE on pipeline Pipeline-7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b.Reason : a41c with datanodeId a41c handlePipelineFailure  for no leader: FOLLOWER elapsed time=3000ms",
            &["  Follower x with datanodeId y is slow"],
        );
        assert!(matches!(e, DatanodeEvent::PipelineAction { ref action, .. } if action == "CLOSE"));
        assert!(entities.contains(&"pipeline:7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b".to_string()));
        assert!(entities.contains(&"group:41A9C03D5E7B".to_string()));
        let (e, _) = one(
            "INFO",
            XSR,
            "Created group Pipeline-7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b",
            &[],
        );
        assert_eq!(e.kind(), "ratis_group_created");
        let (e, _) = one(
            "WARN",
            XSR,
            "handleInstallSnapshotFromLeader for firstTermIndexInLog=(t:3, i:5), terminating pipeline: Pipeline-7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b",
            &[],
        );
        assert_eq!(e.kind(), "install_snapshot_terminating");
    }

    #[test]
    fn dispatcher_scanner_and_close_container_lines() {
        let (e, entities) = one(
            "INFO",
            DISPATCHER,
            "Marked Container UNHEALTHY, ContainerID: 1042",
            &[],
        );
        assert_eq!(
            e,
            DatanodeEvent::ContainerMarkedUnhealthy { container: 1042 }
        );
        assert_eq!(e.kind(), "container_marked_unhealthy");
        assert_eq!(entities, vec!["container:1042".to_string()]);
        let (e, _) = one(
            "ERROR",
            DISPATCHER,
            "Failed to mark container 1042 UNHEALTHY. ",
            &[],
        );
        assert_eq!(e.kind(), "container_mark_unhealthy_failed");
        let (e, _) = one(
            "WARN",
            DISPATCHER,
            "Triggered immediate heartbeat because of full volume.",
            &[],
        );
        assert_eq!(e.kind(), "full_volume_heartbeat");
        let (e, _) = one(
            "WARN",
            "org.apache.hadoop.ozone.container.common.impl.ContainerSet",
            "Request to scan container 9 which was not found in the container set",
            &[],
        );
        assert_eq!(e, DatanodeEvent::ScanContainerNotFound { container: 9 });
        let (e, _) = one(
            "ERROR",
            "org.apache.hadoop.ozone.container.ozoneimpl.OnDemandContainerDataScanner",
            "Corruption detected in container [1012]. Marking it UNHEALTHY. Container has 1 error: INCONSISTENT_CHUNK_LENGTH for file /x with exception: java.io.IOException: Inconsistent read",
            &[],
        );
        assert_eq!(
            e,
            DatanodeEvent::ContainerScanResult {
                container: 1012,
                marked_unhealthy: true,
                error: Some("INCONSISTENT_CHUNK_LENGTH".into())
            }
        );
        let (e, _) = one(
            "WARN",
            "org.apache.hadoop.ozone.container.ozoneimpl.BackgroundContainerDataScanner",
            "Skipped marking container UNHEALTHY [7]: scan failed due to transient error",
            &[],
        );
        assert!(matches!(
            e,
            DatanodeEvent::ContainerScanResult {
                marked_unhealthy: false,
                container: 7,
                ..
            }
        ));
        let (e, _) = one(
            "WARN",
            KVH,
            "Unexpected error while marking container 5 unhealthy",
            &[],
        );
        assert_eq!(
            e,
            DatanodeEvent::ContainerMarkUnhealthyError { container: 5 }
        );
        let (e, _) = one(
            "INFO",
            KVH,
            "Block has been finalized conID: 1 locID: 2 bcsId: 0 replicaIndex: null ",
            &[],
        );
        assert_eq!(e, DatanodeEvent::BlockFinalize { done: true });
        for (msg, outcome) in [
            (
                "Container #1042 does not exist in datanode. Its pipeline may have closed before it was created. Container close failed.",
                "missing",
            ),
            ("Marking Container 1042 quasi closed", "quasi_closing"),
            (
                "Follower cannot close container #1042.",
                "follower_cannot_close",
            ),
            ("Can't close container #1042", "failed"),
        ] {
            let (e, _) = one("INFO", CCCH, msg, &[]);
            assert_eq!(
                e,
                DatanodeEvent::CloseContainerHandling {
                    container: 1042,
                    outcome: outcome.into()
                }
            );
        }
    }

    #[test]
    fn bad_input_is_not_typed_and_never_panics() {
        let bad = [
            "",
            "Operation: ",
            "Operation: X , Trace ID: ",
            "gid x : ApplyTransaction completed. cmd",
            "group-x: writeChunk writeStateMachineData : blockId",
            "Unexpected read size. expected: x, actual: y",
            "Writing chunk ChunkInfo{chunkName='é (overwrite: ",
            "Marked Container UNHEALTHY, ContainerID: x",
            "Corruption detected in container [x",
            "Block é successfully committed with bcsId ",
            "Follower cannot close container #",
        ];
        for msg in bad {
            for tail in LOGGER_TAILS {
                assert!(by_logger(tail, msg, "").is_none(), "{tail}: {msg}");
            }
        }
        assert!(container_log("ID=x | State=OPEN", None).is_none());
    }

    #[test]
    fn cut_lines_never_panic() {
        let lines = [
            "Operation: WriteChunk , Trace ID:  , Message: Chunk offset 8388608 does not match length 4194304 of blockFile 23.block , Result: CHUNK_FILE_INCONSISTENCY , StorageContainerException Occurred.",
            "gid group-41A9C03D5E7B : ApplyTransaction completed. cmd WriteChunk logIndex 18343 msg :  Container Result: SUCCESS",
            "group-41A9C03D5E7B: writeChunk writeStateMachineData : blockIdcontainerID: 1043",
            "Writing chunk ChunkInfo{chunkName='17_chunk_3, offset=12582912, len=4194304} (overwrite: false) in stage WRITE_DATA to file /d/1042/chunks/17.block",
            "Ignore chunk ChunkInfo{chunkName='17_chunk_3, offset=1, len=2} in stage COMMIT_DATA",
            "Unexpected read size. expected: 4194304, actual: -1",
            "Duplicate write chunk request. Chunk overwrite without explicit request. ChunkInfo{chunkName='1_chunk_0, offset=0, len=4}",
            "Block conID: 1 locID: 2 bcsId: 3 replicaIndex: null successfully committed with bcsId 3 chunk size 4",
            "Corruption detected in container [1012]. Marking it UNHEALTHY. Container has 1 error: MISSING_CHUNK for file /x",
            "pipeline Action CLOSE on pipeline Pipeline-7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b.Reason : é",
        ];
        let continuation =
            "localID: 25\nblockCommitSequenceId: 0\n logIndex 18343 chunkName 25_chunk_é";
        for line in lines {
            for (cut, _) in line.char_indices() {
                for tail in LOGGER_TAILS {
                    let _ = by_logger(tail, &line[..cut], continuation);
                }
            }
            for (cut, _) in continuation.char_indices() {
                let _ = by_logger("ContainerStateMachine", line, &continuation[..cut]);
            }
        }
        let container =
            "ID=1042 | Index=0 | BCSID=18345 | State=UNHEALTHY | Volume=/d | DataChecksum=0 | é";
        for (cut, _) in container.char_indices() {
            let _ = container_log(&container[..cut], Some(&container[cut..]));
        }
    }

    #[test]
    fn every_kind_is_registered() {
        let names: Vec<&str> = KINDS.iter().map(|k| k.kind).collect();
        let mut seen = std::collections::BTreeSet::new();
        for n in &names {
            assert!(seen.insert(*n), "duplicate kind {n}");
        }
        let samples = [
            DatanodeEvent::DnAudit {
                op: String::new(),
                ret: String::new(),
                params: Params::new(),
                perf: None,
                throwable: None,
            },
            DatanodeEvent::DnContainerState {
                id: 1,
                index: None,
                bcsid: None,
                state: None,
                volume: None,
                message: None,
            },
            DatanodeEvent::CsmInitialize {
                peer: String::new(),
                group: String::new(),
            },
            DatanodeEvent::CsmLastAppliedIndex {
                group: String::new(),
                term: None,
                index: None,
                snapshot_missing: false,
            },
            DatanodeEvent::CsmSnapshot {
                group: String::new(),
                term: None,
                index: None,
                finished: false,
                took_ms: None,
            },
            DatanodeEvent::CsmSnapshotUnhealthy {
                group: String::new(),
                index: None,
            },
            DatanodeEvent::CsmStartTransactionFailed {},
            DatanodeEvent::CsmWriteSubmitted {
                group: String::new(),
                container: None,
                local: None,
                index: 0,
                chunk: String::new(),
            },
            DatanodeEvent::CsmWriteCompleted {
                group: String::new(),
                container: None,
                local: None,
                index: 0,
                chunk: String::new(),
            },
            DatanodeEvent::CsmWriteFailed {
                group: String::new(),
                container: None,
                local: None,
                index: None,
                chunk: None,
                result: None,
            },
            DatanodeEvent::CsmWriteCancelled {
                group: String::new(),
                taken_ns: None,
                index: None,
            },
            DatanodeEvent::CsmWriteFailedCloseServer {
                group: String::new(),
            },
            DatanodeEvent::CsmReadFailed {
                group: String::new(),
                cmd: String::new(),
                index: None,
                message: String::new(),
                result: String::new(),
            },
            DatanodeEvent::CsmReadDataFailed {
                group: String::new(),
            },
            DatanodeEvent::CsmApplyException {
                group: String::new(),
                index: None,
                cmd: String::new(),
            },
            DatanodeEvent::CsmApply {
                group: String::new(),
                cmd: String::new(),
                index: None,
                message: String::new(),
                result: String::new(),
                completed: true,
            },
            DatanodeEvent::CsmApply {
                group: String::new(),
                cmd: String::new(),
                index: None,
                message: String::new(),
                result: String::new(),
                completed: false,
            },
            DatanodeEvent::CsmLogFailed {
                group: String::new(),
                term: None,
                index: None,
            },
            DatanodeEvent::CsmClosed {
                group: None,
                terminating: false,
            },
            DatanodeEvent::PipelineAction {
                action: String::new(),
                pipeline: String::new(),
                reason: String::new(),
            },
            DatanodeEvent::InstallSnapshotTerminating {
                pipeline: String::new(),
            },
            DatanodeEvent::RatisGroupCreated {
                pipeline: String::new(),
            },
            DatanodeEvent::LeaderChangeNotification {
                group: String::new(),
                leader: String::new(),
            },
            DatanodeEvent::DispatchError {
                op: String::new(),
                trace_id: String::new(),
                message: String::new(),
                result: String::new(),
                chunk_offset: None,
                file_length: None,
                local: None,
            },
            DatanodeEvent::ChunkUnexpectedSize {
                of: String::new(),
                expected: 0,
                actual: 0,
            },
            DatanodeEvent::ChunkDuplicateWrite {
                chunk: String::new(),
                local: None,
                offset: None,
                len: None,
            },
            DatanodeEvent::ChunkOversizeRead { max: 0, actual: 0 },
            DatanodeEvent::ChunkWrite {
                chunk: String::new(),
                local: None,
                offset: None,
                len: None,
                overwrite: false,
                stage: String::new(),
                container: None,
                file: String::new(),
            },
            DatanodeEvent::ChunkIgnored {
                chunk: String::new(),
                local: None,
                offset: None,
                len: None,
                stage: String::new(),
            },
            DatanodeEvent::BlockFileDeleted {
                file: String::new(),
                existed: true,
            },
            DatanodeEvent::BlockFinalize { done: true },
            DatanodeEvent::ContainerMarkUnhealthyError { container: 0 },
            DatanodeEvent::BlockCommitted {
                container: 0,
                local: 0,
                bcs_id: None,
            },
            DatanodeEvent::ContainerMarkedUnhealthy { container: 0 },
            DatanodeEvent::ContainerMarkUnhealthyFailed { container: 0 },
            DatanodeEvent::FullVolumeHeartbeat {},
            DatanodeEvent::ScanContainerNotFound { container: 0 },
            DatanodeEvent::ContainerScanResult {
                container: 0,
                marked_unhealthy: true,
                error: None,
            },
            DatanodeEvent::CloseContainerHandling {
                container: 0,
                outcome: String::new(),
            },
        ];
        assert_eq!(samples.len(), KINDS.len());
        for s in &samples {
            assert!(names.contains(&s.kind()), "{}", s.kind());
        }
    }
}
