//! Ozone Manager statements (../shared/ozone-logs/om.md): the OM main log (open-key cleanup,
//! commit / allocate / create / recover-lease / delete failures, leadership), OM audit
//! (`OMAudit`), OM system audit (`OMSystemAudit`), the client's `BlockOutputStreamEntryPool` lines
//! and the OM DEBUG lines that carry an `OmKeyInfo{…}` with block ids.
//!
//! Dispatch: audit records by op name (`match` on a string), main-log records by the logger's
//! class name (last segment, so `%c`, `%c{2}` and `%c{1}` all work) and then `starts_with` on the
//! template's constant head; only the picked template is extracted ([`fill`]). Records without a
//! logger fall back to the constant heads of all main-log templates (still literal checks).
//!
//! OM audit lines are written by every OM for one Ratis transaction; [`merge_audit_copies`] folds
//! the copies into one event (the contract's `copies`).

use super::template::{fill, logger_class};
use super::{EventData, Input, KindInfo, Typed};
use crate::audit::{AuditBody, AuditRet, Params};
use crate::entity::{self, Entity, OpenKeyPath, key_entity};
use crate::event::{Copy, Event};
use crate::source::Component;
use serde::Serialize;
use std::collections::HashMap;

// ---------------------------------------------------------------------------------------------
// Events

/// One OM audit record about a key (CREATE_FILE / ALLOCATE_KEY, ALLOCATE_BLOCK, COMMIT_KEY,
/// RECOVER_LEASE), with the params the lease rule reads (`RequestAuditor.buildKeyArgsAuditMap`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeyAudit {
    pub op: String,
    /// UGI name; empty for OpenKeyCleanupService's own requests (no `UserInfo`).
    pub user: String,
    pub ip: String,
    pub ret: AuditRet,
    pub volume: String,
    pub bucket: String,
    pub key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_size: Option<u64>,
    /// `clientID` (ALLOCATE_BLOCK params), else the trailing `/<clientID>` of an open-key path in
    /// the exception message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_id: Option<u64>,
    /// The Ratis log index every OM writes for this request (2.0.0+, HDDS-10658).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transaction: Option<u64>,
    /// `user=` and `ip=` both empty: a request OM built itself (the lease auto-commit).
    pub system: bool,
    /// `OMException` result code of a failure (`KEY_NOT_FOUND`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The exception message of a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
}

impl KeyAudit {
    pub fn entity(&self) -> Entity {
        key_entity(&self.volume, &self.bucket, &self.key)
    }

    pub fn succeeded(&self) -> bool {
        self.ret == AuditRet::Success
    }
}

/// Any other OMAudit record (DELETE_KEY, CREATE_DIRECTORY, RENAME_KEY, read ops, …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OtherAudit {
    pub op: String,
    pub user: String,
    pub ip: String,
    pub ret: AuditRet,
    pub params: Params,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transaction: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
}

/// A failed OM request as the OM main log prints it (`… failed. Volume:{}, Bucket:{}, Key:{}`),
/// with the exception from the stack trace that follows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequestFailure {
    pub volume: String,
    pub bucket: String,
    /// The key, or for `Allocate Block failed` the DB open key (`/<vol>/<bucket>/<key>/<clientID>`
    /// or the FSO form with object ids).
    pub key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_id: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum OmEvent {
    // OM audit
    AuditCreate(Box<KeyAudit>),
    AuditAllocateBlock(Box<KeyAudit>),
    AuditCommitKey(Box<KeyAudit>),
    AuditRecoverLease(Box<KeyAudit>),
    Audit(Box<OtherAudit>),
    // OM system audit
    SysStartup {
        params: Params,
    },
    SysLeaderChange {
        previous_leader: String,
        new_leader: String,
    },
    SysOpenKeyCleanup {
        deleted: Option<u64>,
        keys: Vec<String>,
    },
    SysAudit {
        op: String,
        ret: AuditRet,
        params: Params,
    },
    // OpenKeyCleanupService / BackgroundService
    OpenKeyCleanupSummary {
        submitted_for_deletion: u64,
        submitted_for_commit: u64,
        cleanup_limit: u64,
        elapsed_ms: u64,
    },
    OpenKeyCleanupScanFailed {
        exception: Option<String>,
    },
    OpenKeyCleanupSubmitFailed {
        command: String,
        exception: Option<String>,
    },
    ServiceStarted {
        service: String,
        interval: String,
        unit: String,
    },
    BackgroundTaskSlow {
        service: String,
        took_ns: Option<u64>,
        timeout_ns: Option<u64>,
    },
    // Request failures (ERROR, every OM)
    KeyCommitFailed(Box<RequestFailure>),
    AllocateBlockFailed(Box<RequestFailure>),
    KeyCreateFailed(Box<RequestFailure>),
    FileCreateFailed(Box<RequestFailure>),
    RecoverLeaseFailed(Box<RequestFailure>),
    KeyDeleteFailed(Box<RequestFailure>),
    OpenKeysDeleteFailed {
        count: Option<u64>,
        exception: Option<String>,
    },
    OpenKeyDeleteSkipped {
        index: Option<u64>,
        update_id: Option<u64>,
        key: String,
    },
    HsyncClientMismatch {
        client_id: Option<u64>,
        previous_client_id: Option<u64>,
        open_key: String,
    },
    // Leadership
    OmLeaderChanged {
        member: String,
        leader: String,
    },
    OmLeaderSteppedDown {},
    OmStateMachineInitialized {
        member: String,
        action: String,
        what: String,
        term: Option<u64>,
        index: Option<u64>,
    },
    OmConfigurationChanged {
        term: Option<u64>,
        index: Option<u64>,
        peers: String,
    },
    OmSnapshotTaken {
        member: String,
        applied_term: Option<u64>,
        applied_index: Option<u64>,
        took_ms: Option<u64>,
    },
    OmPrepareRejected {
        om: String,
        reason: String,
    },
    // OM DEBUG lines the lease rule reads
    KeyCommitRequest {
        is_hsync: bool,
        is_recovery: bool,
        volume: String,
        bucket: String,
        key: String,
    },
    KeyCommitResult {
        outcome: String,
        is_hsync: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        is_recovery: Option<bool>,
        volume: String,
        bucket: String,
        /// `keyName` as printed: the full path, or for FSO keys possibly the leaf only.
        key_name: String,
        data_size: Option<u64>,
        blocks: Vec<String>,
    },
    // Client (om.md 2.9)
    ClientBlockWritten {
        container: u64,
        local: u64,
        bcs_id: Option<u64>,
        length: u64,
    },
    ClientWriteException {
        exception: String,
        pipeline: String,
        committed_length: Option<u64>,
        uncommitted_length: Option<u64>,
        retry: Option<u64>,
    },
    ClientRetryFailed {
        reason: String,
    },
    ClientFlushFailed {
        error: String,
    },
    ClientBlockCommitFailed {
        block: String,
        nodes: String,
    },
    ClientCloseWithoutKeyArgs {},
    ClientIncrementalChunkListIgnored {},
    ClientFinalizeBlockFailed {
        setting: String,
    },
}

impl OmEvent {
    pub fn kind(&self) -> &'static str {
        match self {
            OmEvent::AuditCreate(_) => "om_audit_create",
            OmEvent::AuditAllocateBlock(_) => "om_audit_allocate_block",
            OmEvent::AuditCommitKey(_) => "om_audit_commit_key",
            OmEvent::AuditRecoverLease(_) => "om_audit_recover_lease",
            OmEvent::Audit(_) => "om_audit",
            OmEvent::SysStartup { .. } => "om_sys_startup",
            OmEvent::SysLeaderChange { .. } => "om_sys_leader_change",
            OmEvent::SysOpenKeyCleanup { .. } => "om_sys_open_key_cleanup",
            OmEvent::SysAudit { .. } => "om_sys_audit",
            OmEvent::OpenKeyCleanupSummary { .. } => "open_key_cleanup_summary",
            OmEvent::OpenKeyCleanupScanFailed { .. } => "open_key_cleanup_scan_failed",
            OmEvent::OpenKeyCleanupSubmitFailed { .. } => "open_key_cleanup_submit_failed",
            OmEvent::ServiceStarted { .. } => "om_background_service_started",
            OmEvent::BackgroundTaskSlow { .. } => "om_background_task_slow",
            OmEvent::KeyCommitFailed(_) => "om_key_commit_failed",
            OmEvent::AllocateBlockFailed(_) => "om_allocate_block_failed",
            OmEvent::KeyCreateFailed(_) => "om_key_create_failed",
            OmEvent::FileCreateFailed(_) => "om_file_create_failed",
            OmEvent::RecoverLeaseFailed(_) => "om_recover_lease_failed",
            OmEvent::KeyDeleteFailed(_) => "om_key_delete_failed",
            OmEvent::OpenKeysDeleteFailed { .. } => "om_open_keys_delete_failed",
            OmEvent::OpenKeyDeleteSkipped { .. } => "om_open_key_delete_skipped",
            OmEvent::HsyncClientMismatch { .. } => "om_hsync_client_mismatch",
            OmEvent::OmLeaderChanged { .. } => "om_leader_changed",
            OmEvent::OmLeaderSteppedDown {} => "om_leader_stepped_down",
            OmEvent::OmStateMachineInitialized { .. } => "om_state_machine_initialized",
            OmEvent::OmConfigurationChanged { .. } => "om_configuration_changed",
            OmEvent::OmSnapshotTaken { .. } => "om_snapshot_taken",
            OmEvent::OmPrepareRejected { .. } => "om_prepare_rejected",
            OmEvent::KeyCommitRequest { .. } => "om_key_commit_request",
            OmEvent::KeyCommitResult { .. } => "om_key_commit_result",
            OmEvent::ClientBlockWritten { .. } => "client_block_written",
            OmEvent::ClientWriteException { .. } => "client_write_exception",
            OmEvent::ClientRetryFailed { .. } => "client_retry_failed",
            OmEvent::ClientFlushFailed { .. } => "client_flush_failed",
            OmEvent::ClientBlockCommitFailed { .. } => "client_block_commit_failed",
            OmEvent::ClientCloseWithoutKeyArgs {} => "client_close_without_key_args",
            OmEvent::ClientIncrementalChunkListIgnored {} => {
                "client_incremental_chunk_list_ignored"
            }
            OmEvent::ClientFinalizeBlockFailed { .. } => "client_finalize_block_failed",
        }
    }

    /// The key audit record, for the four key op families.
    pub fn key_audit(&self) -> Option<&KeyAudit> {
        match self {
            OmEvent::AuditCreate(a)
            | OmEvent::AuditAllocateBlock(a)
            | OmEvent::AuditCommitKey(a)
            | OmEvent::AuditRecoverLease(a) => Some(a),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Templates (exact format strings; `{}` placeholders as in the source)

const AUDIT_TEMPLATE: &str = "user={} | ip={} | op={} {params} | ret={}";
const OPEN_KEY_SUMMARY: &str = "Number of expired open keys submitted for deletion: {}, for commit: {}, cleanupLimit: {}, elapsed time: {}ms";
const OPEN_KEY_SCAN_FAILED: &str = "Unable to get hanging open keys, retry in next interval";
const OPEN_KEY_SUBMIT_FAILED: &str = "Open key {} request failed. Will retry at next run.";
const SERVICE_STARTED: &str = "Starting service {} with interval {} {}";
const TASK_SLOW: &str = "{} Background task execution took {}ns > {}ns(timeout)";
const KEY_COMMIT_FAILED: &str = "Key committed failed. Volume:{}, Bucket:{}, Key:{}. Exception:{}";
const ALLOCATE_FAILED: &str =
    "Allocate Block failed. Volume:{}, Bucket:{}, OpenKey:{}. Exception:{}";
const KEY_CREATE_FAILED: &str = "Key creation failed. Volume:{}, Bucket:{}, Key:{}. ";
const FILE_CREATE_FAILED: &str = "File create failed. Volume:{}, Bucket:{}, Key{}.";
const FILE_CREATE_FAILED_FSO: &str = "File create failed. Volume:{}, Bucket:{}, Key:{}.";
const RECOVER_FAILED: &str = "Fail for recovering lease. Volume:{}, Bucket:{}, Key:{}";
const KEY_DELETE_FAILED: &str = "Key delete failed. Volume:{}, Bucket:{}, Key:{}.";
const OPEN_KEYS_DELETE_FAILED: &str =
    "Failure occurred while trying to delete {} submitted open keys.";
const OPEN_KEY_DELETE_SKIPPED: &str = "Transaction log index {} is smaller than the current updateID {} of key {}, skipping deletion.";
const HSYNC_MISMATCH: &str = "Client ID '{}' currently hsync'ing key does not match previous hsync client ID '{}'. dbOpenKey='{}'";
const LEADER_CHANGED: &str = "{}: leader changed to {}";
const LEADER_STEP_DOWN: &str = "current leader OM steps down.";
const SM_INITIALIZE: &str = "{}: initialize {} with {}";
const SM_REINITIALIZE: &str = "{}: reinitialize {} with {}";
const CONF_CHANGED: &str =
    "notifyConfigurationChanged from Ratis: term={}, index={}, New Peer list: {}";
const SNAPSHOT_TAKEN: &str = "{}: taking snapshot. applied = {}, skipped = {}, notified = {}, current snapshot index = {}, took {} ms";
const PREPARE_REJECTED: &str = "Rejecting write request on OM {} because it is in prepare mode: {}";
const COMMIT_REQUEST_DEBUG: &str =
    "isHSync = {}, isRecovery = {}, volumeName = {}, bucketName = {}, keyName = {}";
const COMMIT_RESULT_DEBUG: &str =
    "Key commit {} with isHSync = {}, isRecovery = {}, omKeyInfo = {}";
const COMMIT_RESULT_DEBUG_FSO: &str = "Key commit {} with isHSync = {}, omKeyInfo = {}";
const BLOCK_WRITTEN: &str = "block written {}, length {} bcsID {}";
const CLIENT_WRITE_EXCEPTION: &str = "Encountered exception {} on the pipeline {}. The last committed block length is {}, uncommitted data length is {} retry count {}";
const CLIENT_RETRY_FAILED: &str = "Retry request failed. {}";
const CLIENT_FLUSH_FAILED: &str = "Failed to flush. error: {}";
const CLIENT_COMMIT_FAILED: &str = "Failed to commit BlockId {} on {}. Failed nodes: {}";
const CLIENT_CLOSE_NO_ARGS: &str = "Closing KeyOutputStream, but key args is null";
const CLIENT_STREAM_CLOSE_NO_ARGS: &str = "Closing KeyDataStreamOutput, but key args is null";
const CLIENT_CHUNK_LIST_IGNORED: &str = "Ignoring ozone.client.incremental.chunk.list = true because HBase enhancements are disallowed. {}";
const CLIENT_FINALIZE_FAILED: &str =
    "Failed to finalize block. Continue to recover the file since {} is enabled.";

const fn kind(
    kind: &'static str,
    log: &'static str,
    class: &'static str,
    level: &'static str,
    releases: &'static str,
    template: &'static str,
    catalogue: &'static str,
) -> KindInfo {
    KindInfo {
        kind,
        log,
        class,
        level,
        releases,
        template,
        catalogue,
    }
}

pub const KINDS: &[KindInfo] = &[
    kind(
        "om_audit_create",
        "om-audit",
        "OMFileCreateRequest(WithFSO) / OMKeyCreateRequest(WithFSO) (op CREATE_FILE / ALLOCATE_KEY)",
        "INFO/ERROR",
        "2.0.0+ (JSON params 2.1.0+)",
        AUDIT_TEMPLATE,
        "om.md 1.4, 1.5",
    ),
    kind(
        "om_audit_allocate_block",
        "om-audit",
        "OMAllocateBlockRequest(WithFSO) (op ALLOCATE_BLOCK, with clientID)",
        "INFO/ERROR",
        "2.0.0+ (JSON params 2.1.0+)",
        AUDIT_TEMPLATE,
        "om.md 1.4, 1.5, 2.4",
    ),
    kind(
        "om_audit_commit_key",
        "om-audit",
        "OMKeyCommitRequest(WithFSO) (op COMMIT_KEY; `user= | ip=` = OpenKeyCleanupService auto-commit)",
        "INFO/ERROR",
        "2.0.0+ (JSON params 2.1.0+)",
        AUDIT_TEMPLATE,
        "om.md 0.4, 1.4, 1.5",
    ),
    kind(
        "om_audit_recover_lease",
        "om-audit",
        "OMRecoverLeaseRequest (op RECOVER_LEASE)",
        "INFO/ERROR",
        "2.0.0+ (JSON params 2.1.0+)",
        AUDIT_TEMPLATE,
        "om.md 1.4, 1.5, 2.6",
    ),
    kind(
        "om_audit",
        "om-audit",
        "OMClientRequest / OmMetadataReader (every other OMAction)",
        "INFO/ERROR",
        "1.4–HEAD",
        AUDIT_TEMPLATE,
        "om.md 1.2, 1.3",
    ),
    kind(
        "om_sys_startup",
        "om-sys-audit",
        "OzoneManager.start (OMSystemAction STARTUP)",
        "INFO",
        "2.0.0+",
        AUDIT_TEMPLATE,
        "om.md 1.3, 5",
    ),
    kind(
        "om_sys_leader_change",
        "om-sys-audit",
        "OzoneManagerStateMachine.notifyLeaderChanged (LEADER_CHANGE)",
        "INFO",
        "2.1.0+",
        AUDIT_TEMPLATE,
        "om.md 1.4",
    ),
    kind(
        "om_sys_open_key_cleanup",
        "om-sys-audit",
        "OMOpenKeysDeleteRequest (OPEN_KEY_CLEANUP)",
        "INFO/ERROR",
        "2.1.0+",
        AUDIT_TEMPLATE,
        "om.md 1.4",
    ),
    kind(
        "om_sys_audit",
        "om-sys-audit",
        "OMSystemAudit (other OMSystemAction)",
        "INFO/ERROR",
        "2.0.0+",
        AUDIT_TEMPLATE,
        "om.md 1.3",
    ),
    kind(
        "open_key_cleanup_summary",
        "om",
        "org.apache.hadoop.ozone.om.service.OpenKeyCleanupService",
        "INFO",
        "2.0.0–HEAD",
        OPEN_KEY_SUMMARY,
        "om.md 2.1",
    ),
    kind(
        "open_key_cleanup_scan_failed",
        "om",
        "org.apache.hadoop.ozone.om.service.OpenKeyCleanupService",
        "ERROR",
        "2.0.0–HEAD",
        OPEN_KEY_SCAN_FAILED,
        "om.md 2.1",
    ),
    kind(
        "open_key_cleanup_submit_failed",
        "om",
        "org.apache.hadoop.ozone.om.service.OpenKeyCleanupService",
        "ERROR",
        "2.0.0–HEAD",
        OPEN_KEY_SUBMIT_FAILED,
        "om.md 2.1",
    ),
    kind(
        "om_background_service_started",
        "om",
        "org.apache.hadoop.hdds.utils.BackgroundService",
        "INFO",
        "1.4–HEAD",
        SERVICE_STARTED,
        "om.md 2.1",
    ),
    kind(
        "om_background_task_slow",
        "om",
        "org.apache.hadoop.hdds.utils.BackgroundService",
        "WARN",
        "1.4–HEAD",
        TASK_SLOW,
        "om.md 2.1",
    ),
    kind(
        "om_key_commit_failed",
        "om",
        "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest (also for WithFSO)",
        "ERROR",
        "1.4–HEAD",
        KEY_COMMIT_FAILED,
        "om.md 2.3",
    ),
    kind(
        "om_allocate_block_failed",
        "om",
        "org.apache.hadoop.ozone.om.request.key.OMAllocateBlockRequest (2.0.0–2.1.0 FSO: OMAllocateBlockRequestWithFSO, its own logger)",
        "ERROR",
        "1.4–HEAD",
        ALLOCATE_FAILED,
        "om.md 2.4",
    ),
    kind(
        "om_key_create_failed",
        "om",
        "org.apache.hadoop.ozone.om.request.key.OMKeyCreateRequest",
        "ERROR",
        "1.4–HEAD",
        KEY_CREATE_FAILED,
        "om.md 2.5",
    ),
    kind(
        "om_file_create_failed",
        "om",
        "org.apache.hadoop.ozone.om.request.file.OMFileCreateRequest (`Key{}`) / OMFileCreateRequestWithFSO (`Key:{}`)",
        "ERROR",
        "1.4–HEAD",
        FILE_CREATE_FAILED,
        "om.md 2.5",
    ),
    kind(
        "om_recover_lease_failed",
        "om",
        "org.apache.hadoop.ozone.om.request.file.OMRecoverLeaseRequest",
        "ERROR",
        "1.4–HEAD",
        RECOVER_FAILED,
        "om.md 2.6",
    ),
    kind(
        "om_key_delete_failed",
        "om",
        "org.apache.hadoop.ozone.om.request.key.OMKeyDeleteRequest(WithFSO)",
        "ERROR",
        "2.0.0, 2.2.0 (read at the tags, not in om.md)",
        KEY_DELETE_FAILED,
        "samples HDDS-16825 SOURCE.md",
    ),
    kind(
        "om_open_keys_delete_failed",
        "om",
        "org.apache.hadoop.ozone.om.request.key.OMOpenKeysDeleteRequest",
        "ERROR",
        "1.4–HEAD",
        OPEN_KEYS_DELETE_FAILED,
        "om.md 2.7",
    ),
    kind(
        "om_open_key_delete_skipped",
        "om",
        "org.apache.hadoop.ozone.om.request.key.OMOpenKeysDeleteRequest",
        "WARN",
        "1.4–HEAD",
        OPEN_KEY_DELETE_SKIPPED,
        "om.md 2.7",
    ),
    kind(
        "om_hsync_client_mismatch",
        "om",
        "org.apache.hadoop.ozone.om.request.util.OmKeyHSyncUtil",
        "WARN",
        "2.0.0–HEAD",
        HSYNC_MISMATCH,
        "om.md 2.3",
    ),
    kind(
        "om_leader_changed",
        "om",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine",
        "INFO",
        "1.4–HEAD",
        LEADER_CHANGED,
        "om.md 2.8",
    ),
    kind(
        "om_leader_stepped_down",
        "om",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine",
        "INFO",
        "1.4–HEAD",
        LEADER_STEP_DOWN,
        "om.md 2.8",
    ),
    kind(
        "om_state_machine_initialized",
        "om",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine (initialize / reinitialize)",
        "INFO",
        "1.4–HEAD",
        SM_INITIALIZE,
        "om.md 2.8",
    ),
    kind(
        "om_configuration_changed",
        "om",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine",
        "INFO",
        "1.4–HEAD",
        CONF_CHANGED,
        "om.md 2.8",
    ),
    kind(
        "om_snapshot_taken",
        "om",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine",
        "INFO",
        "1.4–HEAD",
        SNAPSHOT_TAKEN,
        "om.md 2.8",
    ),
    kind(
        "om_prepare_rejected",
        "om",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerRatisServer",
        "INFO",
        "1.4–HEAD",
        PREPARE_REJECTED,
        "om.md 2.8",
    ),
    kind(
        "om_key_commit_request",
        "om",
        "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest(WithFSO)",
        "DEBUG",
        "2.0.0–HEAD",
        COMMIT_REQUEST_DEBUG,
        "om.md 2.3",
    ),
    kind(
        "om_key_commit_result",
        "om",
        "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest (WithFSO: no isRecovery)",
        "DEBUG",
        "2.0.0–HEAD",
        COMMIT_RESULT_DEBUG,
        "om.md 2.3, 3.3",
    ),
    kind(
        "client_block_written",
        "client",
        "org.apache.hadoop.ozone.client.io.BlockOutputStreamEntryPool",
        "DEBUG",
        "1.4–HEAD",
        BLOCK_WRITTEN,
        "om.md 2.9",
    ),
    kind(
        "client_write_exception",
        "client",
        "org.apache.hadoop.ozone.client.io.KeyOutputStream",
        "WARN",
        "1.4–HEAD",
        CLIENT_WRITE_EXCEPTION,
        "om.md 2.9",
    ),
    kind(
        "client_retry_failed",
        "client",
        "org.apache.hadoop.ozone.client.io.KeyOutputStream",
        "ERROR",
        "1.4–HEAD",
        CLIENT_RETRY_FAILED,
        "om.md 2.9",
    ),
    kind(
        "client_flush_failed",
        "client",
        "org.apache.hadoop.hdds.scm.storage.BlockOutputStream",
        "ERROR",
        "1.4–HEAD",
        CLIENT_FLUSH_FAILED,
        "om.md 2.9",
    ),
    kind(
        "client_block_commit_failed",
        "client",
        "org.apache.hadoop.hdds.scm.storage.BlockOutputStream",
        "WARN",
        "1.4–HEAD",
        CLIENT_COMMIT_FAILED,
        "om.md 2.9",
    ),
    kind(
        "client_close_without_key_args",
        "client",
        "org.apache.hadoop.ozone.client.io.BlockOutputStreamEntryPool / BlockDataStreamOutputEntryPool",
        "WARN",
        "1.4–HEAD",
        CLIENT_CLOSE_NO_ARGS,
        "om.md 2.9",
    ),
    kind(
        "client_incremental_chunk_list_ignored",
        "client",
        "org.apache.hadoop.hdds.scm.OzoneClientConfig",
        "WARN",
        "2.0.0–HEAD",
        CLIENT_CHUNK_LIST_IGNORED,
        "om.md 2.9",
    ),
    kind(
        "client_finalize_block_failed",
        "client",
        "org.apache.hadoop.fs.ozone.LeaseRecoveryClientDNHandler",
        "WARN",
        "2.0.0–HEAD",
        CLIENT_FINALIZE_FAILED,
        "om.md 2.9",
    ),
];

// ---------------------------------------------------------------------------------------------
// Extraction

fn num(s: &str) -> Option<u64> {
    s.trim().parse().ok()
}

/// `OMException.toString()` (`RESULT org…OMException: message`) or any `Throwable.toString()`:
/// the result code, when the first word is one, and the message.
pub fn exception_parts(line: &str) -> (Option<String>, Option<String>) {
    let line = line.trim();
    if line.is_empty() {
        return (None, None);
    }
    let (first, rest) = line.split_once(' ').unwrap_or((line, ""));
    let is_code = !first.is_empty()
        && first
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && first.bytes().any(|b| b.is_ascii_uppercase());
    let (code, throwable) = if is_code && !rest.is_empty() {
        (Some(first.to_string()), rest)
    } else {
        (None, line)
    };
    let message = throwable
        .split_once(": ")
        .map_or(throwable, |(_, m)| m)
        .to_string();
    (code, Some(message))
}

/// The client id at the end of the first open-key DB path in an exception message.
fn client_id_in(message: &str) -> Option<u64> {
    message
        .split_whitespace()
        .filter(|w| w.starts_with('/'))
        .find_map(|w| match entity::open_key_path(w)? {
            OpenKeyPath::Obs { client_id, .. } | OpenKeyPath::Fso { client_id, .. } => {
                Some(client_id)
            }
        })
}

/// The throwable of a main-log record: the first continuation line (log4j1 prints
/// `Throwable.toString()` there), or the text after `Exception:` on the header line.
fn main_log_exception(input: &Input<'_>, inline: Option<&str>) -> (Option<String>, Option<String>) {
    let first = input.record.continuation.split('\n').next().unwrap_or("");
    if !first.trim().is_empty() && !first.starts_with('\t') && !first.starts_with("at ") {
        return exception_parts(first);
    }
    match inline.map(str::trim) {
        Some(text) if !text.is_empty() && text != "{}" => exception_parts(text),
        _ => (None, None),
    }
}

pub fn parse(input: &Input<'_>) -> Option<Typed> {
    match input.component {
        Component::OmAudit => parse_audit(input.audit?, input),
        Component::OmSysAudit => parse_sys_audit(input.audit?),
        // Audit records of other components belong to their own modules.
        _ if input.audit.is_some() => None,
        _ => parse_main(input),
    }
}

fn typed(event: OmEvent, entities: Vec<Entity>) -> Option<Typed> {
    Some(Typed {
        data: EventData::Om(event),
        entities,
    })
}

fn parse_audit(body: &AuditBody, input: &Input<'_>) -> Option<Typed> {
    let (result, exception) = input
        .record
        .throwable
        .as_deref()
        .map_or((None, None), exception_parts);
    let transaction = body.params.get("Transaction").and_then(num);
    let family: fn(Box<KeyAudit>) -> OmEvent = match body.op.as_str() {
        "CREATE_FILE" | "ALLOCATE_KEY" => OmEvent::AuditCreate,
        "ALLOCATE_BLOCK" => OmEvent::AuditAllocateBlock,
        "COMMIT_KEY" => OmEvent::AuditCommitKey,
        "RECOVER_LEASE" => OmEvent::AuditRecoverLease,
        _ => return other_audit(body, transaction, result, exception),
    };
    let (Some(volume), Some(bucket), Some(key)) = (
        body.params.get("volume"),
        body.params.get("bucket"),
        body.params.get("key"),
    ) else {
        return other_audit(body, transaction, result, exception);
    };
    let client_id = body
        .params
        .get("clientID")
        .and_then(num)
        .or_else(|| exception.as_deref().and_then(client_id_in));
    let audit = KeyAudit {
        op: body.op.clone(),
        user: body.user.clone(),
        ip: body.ip.clone(),
        ret: body.ret.clone(),
        volume: volume.to_string(),
        bucket: bucket.to_string(),
        key: key.to_string(),
        data_size: body.params.get("dataSize").and_then(num),
        client_id,
        transaction,
        system: body.user.is_empty() && body.ip.is_empty(),
        result,
        exception,
    };
    let entities = vec![audit.entity()];
    typed(family(Box::new(audit)), entities)
}

fn other_audit(
    body: &AuditBody,
    transaction: Option<u64>,
    result: Option<String>,
    exception: Option<String>,
) -> Option<Typed> {
    let entities = match (
        body.params.get("volume"),
        body.params.get("bucket"),
        body.params.get("key"),
    ) {
        (Some(v), Some(b), Some(k)) => vec![key_entity(v, b, k)],
        _ => Vec::new(),
    };
    typed(
        OmEvent::Audit(Box::new(OtherAudit {
            op: body.op.clone(),
            user: body.user.clone(),
            ip: body.ip.clone(),
            ret: body.ret.clone(),
            params: body.params.clone(),
            transaction,
            result,
            exception,
        })),
        entities,
    )
}

fn parse_sys_audit(body: &AuditBody) -> Option<Typed> {
    match body.op.as_str() {
        "STARTUP" => typed(
            OmEvent::SysStartup {
                params: body.params.clone(),
            },
            Vec::new(),
        ),
        "LEADER_CHANGE" => {
            let previous = body.params.get("previousLeader").unwrap_or("").to_string();
            let new = body.params.get("newLeader").unwrap_or("").to_string();
            let entities = Entity::om(&new).into_iter().collect();
            typed(
                OmEvent::SysLeaderChange {
                    previous_leader: previous,
                    new_leader: new,
                },
                entities,
            )
        }
        "OPEN_KEY_CLEANUP" => {
            let listed = body.params.get("openKeysDeleted").unwrap_or("");
            let entities = open_keys_listed(listed);
            typed(
                OmEvent::SysOpenKeyCleanup {
                    deleted: body.params.get("numOpenKeysDeleted").and_then(num),
                    keys: entities.iter().map(ToString::to_string).collect(),
                },
                entities,
            )
        }
        _ => typed(
            OmEvent::SysAudit {
                op: body.op.clone(),
                ret: body.ret.clone(),
                params: body.params.clone(),
            },
            Vec::new(),
        ),
    }
}

/// `openKeysDeleted`: `List.toString` of `{volume=v, bucket=b, key=k}` maps.
fn open_keys_listed(listed: &str) -> Vec<Entity> {
    let mut out = Vec::new();
    let mut rest = listed;
    while let Some(open) = rest.find("{volume=") {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let inner = &rest[open + 1..open + close];
        if let Some(parts) = fill("volume={}, bucket={}, key={}", inner) {
            out.push(key_entity(parts[0], parts[1], parts[2]));
        }
        rest = &rest[open + close + 1..];
    }
    out
}

fn parse_main(input: &Input<'_>) -> Option<Typed> {
    let msg = input.record.message.as_str();
    match input.record.logger.as_deref().map(logger_class) {
        Some("OpenKeyCleanupService") => open_key_cleanup(input, msg),
        Some("BackgroundService") => background_service(msg),
        Some(
            "OMKeyCommitRequest"
            | "OMKeyCommitRequestWithFSO"
            | "OMAllocateBlockRequest"
            | "OMAllocateBlockRequestWithFSO"
            | "OMKeyCreateRequest"
            | "OMKeyCreateRequestWithFSO"
            | "OMFileCreateRequest"
            | "OMFileCreateRequestWithFSO"
            | "OMRecoverLeaseRequest"
            | "OMKeyDeleteRequest"
            | "OMKeyDeleteRequestWithFSO",
        ) => request(input, msg),
        Some("OMOpenKeysDeleteRequest") => open_keys_delete(input, msg),
        Some("OmKeyHSyncUtil") => hsync_mismatch(msg),
        Some("OzoneManagerStateMachine" | "OzoneManagerRatisServer") => leadership(msg),
        Some(
            "BlockOutputStreamEntryPool"
            | "BlockDataStreamOutputEntryPool"
            | "KeyOutputStream"
            | "KeyDataStreamOutput"
            | "BlockOutputStream"
            | "OzoneClientConfig"
            | "LeaseRecoveryClientDNHandler",
        ) => client(msg),
        Some(_) => None,
        None => open_key_cleanup(input, msg)
            .or_else(|| request(input, msg))
            .or_else(|| open_keys_delete(input, msg))
            .or_else(|| hsync_mismatch(msg))
            .or_else(|| leadership(msg))
            .or_else(|| client(msg)),
    }
}

fn open_key_cleanup(input: &Input<'_>, msg: &str) -> Option<Typed> {
    if msg.starts_with("Number of expired open keys") {
        let v = fill(OPEN_KEY_SUMMARY, msg)?;
        return typed(
            OmEvent::OpenKeyCleanupSummary {
                submitted_for_deletion: num(v[0])?,
                submitted_for_commit: num(v[1])?,
                cleanup_limit: num(v[2])?,
                elapsed_ms: num(v[3])?,
            },
            Vec::new(),
        );
    }
    if msg.trim_end() == OPEN_KEY_SCAN_FAILED {
        let (_, exception) = main_log_exception(input, None);
        return typed(OmEvent::OpenKeyCleanupScanFailed { exception }, Vec::new());
    }
    if msg.starts_with("Open key ") {
        let v = fill(OPEN_KEY_SUBMIT_FAILED, msg)?;
        let (_, exception) = main_log_exception(input, None);
        return typed(
            OmEvent::OpenKeyCleanupSubmitFailed {
                command: v[0].to_string(),
                exception,
            },
            Vec::new(),
        );
    }
    None
}

fn background_service(msg: &str) -> Option<Typed> {
    if msg.starts_with("Starting service ") {
        let v = fill(SERVICE_STARTED, msg)?;
        return typed(
            OmEvent::ServiceStarted {
                service: v[0].to_string(),
                interval: v[1].to_string(),
                unit: v[2].to_string(),
            },
            Vec::new(),
        );
    }
    let v = fill(TASK_SLOW, msg)?;
    typed(
        OmEvent::BackgroundTaskSlow {
            service: v[0].to_string(),
            took_ns: num(v[1]),
            timeout_ns: num(v[2]),
        },
        Vec::new(),
    )
}

fn failure(input: &Input<'_>, v: &[&str], inline: Option<&str>) -> (RequestFailure, Vec<Entity>) {
    let (result, exception) = main_log_exception(input, inline);
    let key = v[2].to_string();
    let (client_id, entities) = if key.starts_with('/') {
        match entity::open_key_path(&key) {
            Some(OpenKeyPath::Obs {
                volume,
                bucket,
                key: k,
                client_id,
            }) => (Some(client_id), vec![key_entity(volume, bucket, k)]),
            Some(OpenKeyPath::Fso { client_id, .. }) => (Some(client_id), Vec::new()),
            None => (None, Vec::new()),
        }
    } else {
        (
            exception.as_deref().and_then(client_id_in),
            vec![key_entity(v[0], v[1], &key)],
        )
    };
    (
        RequestFailure {
            volume: v[0].to_string(),
            bucket: v[1].to_string(),
            key,
            client_id,
            result,
            exception,
        },
        entities,
    )
}

fn request(input: &Input<'_>, msg: &str) -> Option<Typed> {
    let (template, make): (&str, fn(Box<RequestFailure>) -> OmEvent) =
        if msg.starts_with("Key committed failed.") {
            (KEY_COMMIT_FAILED, OmEvent::KeyCommitFailed)
        } else if msg.starts_with("Allocate Block failed.") {
            (ALLOCATE_FAILED, OmEvent::AllocateBlockFailed)
        } else if msg.starts_with("Key creation failed.") {
            (KEY_CREATE_FAILED, OmEvent::KeyCreateFailed)
        } else if msg.starts_with("File create failed.") {
            let template = if msg.contains(", Key:") {
                FILE_CREATE_FAILED_FSO
            } else {
                FILE_CREATE_FAILED
            };
            (template, OmEvent::FileCreateFailed)
        } else if msg.starts_with("Fail for recovering lease.") {
            (RECOVER_FAILED, OmEvent::RecoverLeaseFailed)
        } else if msg.starts_with("Key delete failed.") {
            (KEY_DELETE_FAILED, OmEvent::KeyDeleteFailed)
        } else if msg.starts_with("isHSync = ") {
            let v = fill(COMMIT_REQUEST_DEBUG, msg)?;
            let entities = vec![key_entity(v[2], v[3], v[4])];
            return typed(
                OmEvent::KeyCommitRequest {
                    is_hsync: v[0] == "true",
                    is_recovery: v[1] == "true",
                    volume: v[2].to_string(),
                    bucket: v[3].to_string(),
                    key: v[4].to_string(),
                },
                entities,
            );
        } else if msg.starts_with("Key commit ") {
            return commit_result(input, msg);
        } else {
            return None;
        };
    let v = fill(template, msg)?;
    let (failure, entities) = failure(input, &v, v.get(3).copied());
    typed(make(Box::new(failure)), entities)
}

/// `Key commit {} with isHSync = {}, [isRecovery = {}, ]omKeyInfo = OmKeyInfo{…}`.
fn commit_result(input: &Input<'_>, msg: &str) -> Option<Typed> {
    let (outcome, is_hsync, is_recovery, info) = if let Some(v) = fill(COMMIT_RESULT_DEBUG, msg) {
        (v[0], v[1], Some(v[2] == "true"), v[3])
    } else {
        let v = fill(COMMIT_RESULT_DEBUG_FSO, msg)?;
        (v[0], v[1], None, v[2])
    };
    // OmKeyInfo.toString can span lines (ACLs, checksums): read the whole record.
    let full;
    let info = if info.contains("keyLocationVersions=") || input.record.continuation.is_empty() {
        info
    } else {
        full = input.record.full_text();
        full.find("OmKeyInfo{").map_or(info, |at| &full[at..])
    };
    let quoted = |name: &str| -> Option<String> {
        let at = info.find(name)? + name.len();
        let end = info[at..].find('\'')?;
        Some(info[at..at + end].to_string())
    };
    let volume = quoted("volumeName='")?;
    let bucket = quoted("bucketName='")?;
    let key_name = quoted("keyName='")?;
    let data_size = info.find("dataSize=").and_then(|at| {
        let rest = &info[at + "dataSize=".len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        num(&rest[..digits])
    });
    let blocks: Vec<Entity> = entity::find_blocks(info)
        .map(|m| m.value.entity())
        .collect();
    let mut entities = vec![key_entity(&volume, &bucket, &key_name)];
    for block in &blocks {
        if !entities.contains(block) {
            entities.push(block.clone());
        }
    }
    typed(
        OmEvent::KeyCommitResult {
            outcome: outcome.to_string(),
            is_hsync: is_hsync == "true",
            is_recovery,
            volume,
            bucket,
            key_name,
            data_size,
            blocks: blocks.iter().map(ToString::to_string).collect(),
        },
        entities,
    )
}

fn open_keys_delete(input: &Input<'_>, msg: &str) -> Option<Typed> {
    if msg.starts_with("Failure occurred while trying to delete ") {
        let v = fill(OPEN_KEYS_DELETE_FAILED, msg)?;
        let (_, exception) = main_log_exception(input, None);
        return typed(
            OmEvent::OpenKeysDeleteFailed {
                count: num(v[0]),
                exception,
            },
            Vec::new(),
        );
    }
    if msg.starts_with("Transaction log index ") {
        let v = fill(OPEN_KEY_DELETE_SKIPPED, msg)?;
        return typed(
            OmEvent::OpenKeyDeleteSkipped {
                index: num(v[0]),
                update_id: num(v[1]),
                key: v[2].to_string(),
            },
            Vec::new(),
        );
    }
    None
}

fn hsync_mismatch(msg: &str) -> Option<Typed> {
    if !msg.starts_with("Client ID '") {
        return None;
    }
    let v = fill(HSYNC_MISMATCH, msg)?;
    typed(
        OmEvent::HsyncClientMismatch {
            client_id: num(v[0]),
            previous_client_id: num(v[1]),
            open_key: v[2].to_string(),
        },
        Vec::new(),
    )
}

fn member_entities(member: &str) -> Vec<Entity> {
    entity::member_id(member)
        .and_then(|(m, _)| Entity::om(m.peer))
        .into_iter()
        .collect()
}

fn leadership(msg: &str) -> Option<Typed> {
    if msg.trim_end() == LEADER_STEP_DOWN {
        return typed(OmEvent::OmLeaderSteppedDown {}, Vec::new());
    }
    if msg.starts_with("notifyConfigurationChanged from Ratis") {
        let v = fill(CONF_CHANGED, msg)?;
        return typed(
            OmEvent::OmConfigurationChanged {
                term: num(v[0]),
                index: num(v[1]),
                peers: v[2].to_string(),
            },
            Vec::new(),
        );
    }
    if msg.starts_with("Rejecting write request on OM ") {
        let v = fill(PREPARE_REJECTED, msg)?;
        return typed(
            OmEvent::OmPrepareRejected {
                om: v[0].to_string(),
                reason: v[1].to_string(),
            },
            Entity::om(v[0]).into_iter().collect(),
        );
    }
    if msg.contains(": leader changed to ") {
        let v = fill(LEADER_CHANGED, msg)?;
        let mut entities = member_entities(v[0]);
        entities.extend(Entity::om(v[1]));
        return typed(
            OmEvent::OmLeaderChanged {
                member: v[0].to_string(),
                leader: v[1].to_string(),
            },
            entities,
        );
    }
    if msg.contains(": taking snapshot. applied = ") {
        let v = fill(SNAPSHOT_TAKEN, msg)?;
        let applied = entity::term_index(v[1]).map(|(t, _)| t);
        return typed(
            OmEvent::OmSnapshotTaken {
                member: v[0].to_string(),
                applied_term: applied.and_then(|t| t.term),
                applied_index: applied.and_then(|t| t.index),
                took_ms: num(v[5]),
            },
            member_entities(v[0]),
        );
    }
    let (v, action) = if msg.contains(": reinitialize ") {
        (fill(SM_REINITIALIZE, msg)?, "reinitialize")
    } else if msg.contains(": initialize ") {
        (fill(SM_INITIALIZE, msg)?, "initialize")
    } else {
        return None;
    };
    let applied = entity::find_term_indexes(v[2]).next().map(|m| m.value);
    typed(
        OmEvent::OmStateMachineInitialized {
            member: v[0].to_string(),
            action: action.to_string(),
            what: v[1].to_string(),
            term: applied.and_then(|t| t.term),
            index: applied.and_then(|t| t.index),
        },
        member_entities(v[0]),
    )
}

fn client(msg: &str) -> Option<Typed> {
    if msg.starts_with("block written ") {
        let v = fill(BLOCK_WRITTEN, msg)?;
        let (block, _) = entity::block_id(v[0])?;
        return typed(
            OmEvent::ClientBlockWritten {
                container: block.container,
                local: block.local,
                bcs_id: num(v[2]).or(block.bcs_id),
                length: num(v[1])?,
            },
            vec![block.entity()],
        );
    }
    if msg.starts_with("Encountered exception ") {
        let v = fill(CLIENT_WRITE_EXCEPTION, msg)?;
        let entities = entity::find_pipelines(v[1])
            .filter_map(|m| Entity::pipeline(m.value))
            .collect();
        return typed(
            OmEvent::ClientWriteException {
                exception: v[0].to_string(),
                pipeline: v[1].to_string(),
                committed_length: num(v[2]),
                uncommitted_length: num(v[3]),
                retry: num(v[4]),
            },
            entities,
        );
    }
    if msg.starts_with("Retry request failed. ") {
        let v = fill(CLIENT_RETRY_FAILED, msg)?;
        return typed(
            OmEvent::ClientRetryFailed {
                reason: v[0].to_string(),
            },
            Vec::new(),
        );
    }
    if msg.starts_with("Failed to flush. error: ") {
        let v = fill(CLIENT_FLUSH_FAILED, msg)?;
        return typed(
            OmEvent::ClientFlushFailed {
                error: v[0].to_string(),
            },
            Vec::new(),
        );
    }
    if msg.starts_with("Failed to commit BlockId ") {
        let v = fill(CLIENT_COMMIT_FAILED, msg)?;
        let entities = entity::find_blocks(v[0])
            .map(|m| m.value.entity())
            .collect();
        return typed(
            OmEvent::ClientBlockCommitFailed {
                block: v[0].to_string(),
                nodes: v[2].to_string(),
            },
            entities,
        );
    }
    if msg.trim_end() == CLIENT_CLOSE_NO_ARGS || msg.trim_end() == CLIENT_STREAM_CLOSE_NO_ARGS {
        return typed(OmEvent::ClientCloseWithoutKeyArgs {}, Vec::new());
    }
    if msg.starts_with("Ignoring ozone.client.incremental.chunk.list = true") {
        return typed(OmEvent::ClientIncrementalChunkListIgnored {}, Vec::new());
    }
    if msg.starts_with("Failed to finalize block. ") {
        let v = fill(CLIENT_FINALIZE_FAILED, msg)?;
        return typed(
            OmEvent::ClientFinalizeBlockFailed {
                setting: v[0].to_string(),
            },
            Vec::new(),
        );
    }
    None
}

// ---------------------------------------------------------------------------------------------
// OM audit copies

/// What makes two OM audit records copies of one request.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum CopyKey {
    /// 2.0.0+: (`Transaction`, op, key entity or params, ret).
    Transaction(u64, String, String, String),
    /// 1.4 (no `Transaction`): op, params and ret as printed; copies must be within the skew.
    Printed(String),
}

fn copy_key(event: &Event) -> Option<CopyKey> {
    if event.component != Component::OmAudit {
        return None;
    }
    let EventData::Om(om) = &event.data else {
        return None;
    };
    let (op, transaction, target, ret) = match om {
        OmEvent::AuditCreate(a)
        | OmEvent::AuditAllocateBlock(a)
        | OmEvent::AuditCommitKey(a)
        | OmEvent::AuditRecoverLease(a) => (
            a.op.as_str(),
            a.transaction,
            a.entity().to_string(),
            a.ret.as_str(),
        ),
        OmEvent::Audit(a) => (
            a.op.as_str(),
            a.transaction,
            serde_json::to_string(&a.params).unwrap_or_default(),
            a.ret.as_str(),
        ),
        _ => return None,
    };
    Some(match transaction {
        Some(tx) => CopyKey::Transaction(tx, op.to_string(), target, ret.to_string()),
        // The message text holds user, ip, op, params and ret exactly as printed.
        None => CopyKey::Printed(event.text.clone()),
    })
}

/// Folds the copies of one OM audit record written by several OMs into one event: the earliest
/// copy (by time, then host, file, line) stays, with `copies` listing every copy; the others
/// are removed from their streams. Records with a `Transaction` merge on (`Transaction`, op, key,
/// ret); records without one only when op, params and ret are equal, on different hosts, within
/// `skew_ms` of the first. Only OM audit events are indexed.
pub fn merge_audit_copies(streams: &mut [Vec<Event>], skew_ms: i64) {
    let mut groups: HashMap<CopyKey, Vec<(usize, usize)>> = HashMap::new();
    for (s, events) in streams.iter().enumerate() {
        for (i, event) in events.iter().enumerate() {
            if let Some(key) = copy_key(event) {
                groups.entry(key).or_default().push((s, i));
            }
        }
    }
    let mut removed: Vec<Vec<usize>> = vec![Vec::new(); streams.len()];
    for (key, mut members) in groups {
        if members.len() < 2 {
            continue;
        }
        let order = |&(s, i): &(usize, usize)| {
            let e: &Event = &streams[s][i];
            (
                e.ts.unwrap_or(i64::MAX),
                e.host.clone(),
                e.file.clone(),
                e.line,
            )
        };
        members.sort_by_key(order);
        let clusters: Vec<Vec<(usize, usize)>> = match key {
            CopyKey::Transaction(..) => vec![members],
            CopyKey::Printed(_) => cluster_within_skew(streams, members, skew_ms),
        };
        for cluster in clusters {
            if cluster.len() < 2 {
                continue;
            }
            let mut copies: Vec<Copy> = cluster
                .iter()
                .map(|&(s, i)| {
                    let e = &streams[s][i];
                    Copy {
                        host: e.host.clone(),
                        file: e.file.clone(),
                        line: e.line,
                    }
                })
                .collect();
            copies.sort();
            copies.dedup();
            let (ks, ki) = cluster[0];
            streams[ks][ki].copies = copies;
            for &(s, i) in &cluster[1..] {
                removed[s].push(i);
            }
        }
    }
    for (events, mut gone) in streams.iter_mut().zip(removed) {
        if gone.is_empty() {
            continue;
        }
        gone.sort_unstable();
        let mut index = 0;
        let mut next = gone.iter().peekable();
        events.retain(|_| {
            let drop = next.peek() == Some(&&index);
            if drop {
                next.next();
            }
            index += 1;
            !drop
        });
    }
}

/// Splits time-ordered identical records into copies: one per host, all within `skew_ms` of the
/// cluster's first record.
fn cluster_within_skew(
    streams: &[Vec<Event>],
    members: Vec<(usize, usize)>,
    skew_ms: i64,
) -> Vec<Vec<(usize, usize)>> {
    let mut clusters: Vec<Vec<(usize, usize)>> = Vec::new();
    for member in members {
        let e = &streams[member.0][member.1];
        let fits = clusters.last().is_some_and(|cluster| {
            let first = &streams[cluster[0].0][cluster[0].1];
            let close = match (first.ts, e.ts) {
                (Some(a), Some(b)) => (b - a).abs() <= skew_ms,
                _ => false,
            };
            close && cluster.iter().all(|&(s, i)| streams[s][i].host != e.host)
        });
        match clusters.last_mut() {
            Some(cluster) if fits => cluster.push(member),
            _ => clusters.push(vec![member]),
        }
    }
    clusters
}

#[cfg(test)]
mod tests;
