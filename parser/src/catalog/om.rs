//! Ozone Manager statements (../shared/ozone-logs/om.md): the OM main log (open-key cleanup,
//! commit / allocate / create / recover-lease / delete failures, leadership), OM audit
//! (`OMAudit`), OM system audit (`OMSystemAudit`), the client's `BlockOutputStreamEntryPool` lines
//! and the OM DEBUG lines that carry an `OmKeyInfo{…}` with block ids.
//!
//! Audit records are read by their op name (`match` on a string), main-log and client records by
//! their statement.
//!
//! OM audit lines are written by every OM for one Ratis transaction; folding the copies into one
//! event (the contract's `copies`) is done on events, above the catalogue
//! (`oztrace_analyzer::copies`).

use super::template::{Matched, catalogue, number_after, split};
use super::{Input, Typed};
use crate::audit::{
    AuditBody, AuditParts, AuditRet, Params, ParamsView, PartsAt, parse_audit_parts,
};
use crate::entity::{self, Entity, OpenKeyPath, key_entity};
use crate::record::Record;
use crate::source::Component;
use serde::Serialize;
use std::borrow::Cow;

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

/// A [`KeyAudit`] borrowed from the message it was read from (or from a [`KeyAudit`]): the
/// fields a renderer writes without building the event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyAuditView<'a> {
    pub op: &'a str,
    pub user: &'a str,
    pub ip: &'a str,
    /// As printed ([`AuditRet::as_str`]).
    pub ret: &'a str,
    pub volume: &'a str,
    pub bucket: &'a str,
    pub key: &'a str,
    pub data_size: Option<u64>,
    pub client_id: Option<u64>,
    pub transaction: Option<u64>,
    pub system: bool,
    pub result: Option<Cow<'a, str>>,
    pub exception: Option<Cow<'a, str>>,
}

impl KeyAudit {
    pub fn entity(&self) -> Entity {
        key_entity(&self.volume, &self.bucket, &self.key)
    }

    fn of_view(view: KeyAuditView<'_>) -> KeyAudit {
        KeyAudit {
            op: view.op.to_string(),
            user: view.user.to_string(),
            ip: view.ip.to_string(),
            ret: AuditRet::from_printed(view.ret),
            volume: view.volume.to_string(),
            bucket: view.bucket.to_string(),
            key: view.key.to_string(),
            data_size: view.data_size,
            client_id: view.client_id,
            transaction: view.transaction,
            system: view.system,
            result: view.result.map(Cow::into_owned),
            exception: view.exception.map(Cow::into_owned),
        }
    }

    pub fn view(&self) -> KeyAuditView<'_> {
        KeyAuditView {
            op: &self.op,
            user: &self.user,
            ip: &self.ip,
            ret: self.ret.as_str(),
            volume: &self.volume,
            bucket: &self.bucket,
            key: &self.key,
            data_size: self.data_size,
            client_id: self.client_id,
            transaction: self.transaction,
            system: self.system,
            result: self.result.as_deref().map(Cow::Borrowed),
            exception: self.exception.as_deref().map(Cow::Borrowed),
        }
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
    KeyCommitResult(Box<KeyCommitResult>),
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

/// The fields of [`OmEvent::KeyCommitResult`], boxed: it is one of the largest payloads, and every
/// `Event` is as large as its largest (issue 11).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyCommitResult {
    pub outcome: String,
    pub is_hsync: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_recovery: Option<bool>,
    pub volume: String,
    pub bucket: String,
    /// `keyName` as printed: the full path, or for FSO keys possibly the leaf only.
    pub key_name: String,
    pub data_size: Option<u64>,
    pub blocks: Vec<String>,
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
// Statements

/// What one statement's builder returns.
type Built = (OmEvent, Vec<Entity>);

/// `AuditMessage.formMessage`: user, ip, op, the params map, the result.
const AUDIT_TEMPLATE: &str = "user={} | ip={} | op={} {} | ret={}";
const OPEN_KEY_CLEANUP: &str = "org.apache.hadoop.ozone.om.service.OpenKeyCleanupService";
const BACKGROUND_SERVICE: &str = "org.apache.hadoop.hdds.utils.BackgroundService";
const STATE_MACHINE: &str = "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine";
const OPEN_KEYS_DELETE: &str = "org.apache.hadoop.ozone.om.request.key.OMOpenKeysDeleteRequest";
const KEY_COMMIT: &[&str] = &[
    "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest",
    "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequestWithFSO",
];
const ALLOCATE_BLOCK: &[&str] = &[
    "org.apache.hadoop.ozone.om.request.key.OMAllocateBlockRequest",
    "org.apache.hadoop.ozone.om.request.key.OMAllocateBlockRequestWithFSO",
];
const KEY_CREATE: &[&str] = &[
    "org.apache.hadoop.ozone.om.request.key.OMKeyCreateRequest",
    "org.apache.hadoop.ozone.om.request.key.OMKeyCreateRequestWithFSO",
];
const FILE_CREATE: &[&str] = &[
    "org.apache.hadoop.ozone.om.request.file.OMFileCreateRequest",
    "org.apache.hadoop.ozone.om.request.file.OMFileCreateRequestWithFSO",
];
const KEY_DELETE: &[&str] = &[
    "org.apache.hadoop.ozone.om.request.key.OMKeyDeleteRequest",
    "org.apache.hadoop.ozone.om.request.key.OMKeyDeleteRequestWithFSO",
];
const ENTRY_POOLS: &[&str] = &[
    "org.apache.hadoop.ozone.client.io.BlockOutputStreamEntryPool",
    "org.apache.hadoop.ozone.client.io.BlockDataStreamOutputEntryPool",
];
const BLOCK_STREAMS: &[&str] = &[
    "org.apache.hadoop.hdds.scm.storage.BlockOutputStream",
    "org.apache.hadoop.hdds.scm.storage.BlockDataStreamOutput",
];
const KEY_OUTPUT_STREAM: &str = "org.apache.hadoop.ozone.client.io.KeyOutputStream";

catalogue! {
    event OmEvent;
    structured {
        "om_audit_create", "om-audit", "INFO/ERROR",
            "OMFileCreateRequest(WithFSO) / OMKeyCreateRequest(WithFSO) (op CREATE_FILE / ALLOCATE_KEY)",
            "2.0.0+ (JSON params 2.1.0+)", "om.md 1.4, 1.5", AUDIT_TEMPLATE;
        "om_audit_allocate_block", "om-audit", "INFO/ERROR",
            "OMAllocateBlockRequest(WithFSO) (op ALLOCATE_BLOCK, with clientID)",
            "2.0.0+ (JSON params 2.1.0+)", "om.md 1.4, 1.5, 2.4", AUDIT_TEMPLATE;
        "om_audit_commit_key", "om-audit", "INFO/ERROR",
            "OMKeyCommitRequest(WithFSO) (op COMMIT_KEY; `user= | ip=` = OpenKeyCleanupService auto-commit)",
            "2.0.0+ (JSON params 2.1.0+)", "om.md 0.4, 1.4, 1.5", AUDIT_TEMPLATE;
        "om_audit_recover_lease", "om-audit", "INFO/ERROR", "OMRecoverLeaseRequest (op RECOVER_LEASE)",
            "2.0.0+ (JSON params 2.1.0+)", "om.md 1.4, 1.5, 2.6", AUDIT_TEMPLATE;
        "om_audit", "om-audit", "INFO/ERROR", "OMClientRequest / OmMetadataReader (every other OMAction)",
            "1.4–HEAD", "om.md 1.2, 1.3", AUDIT_TEMPLATE;
        "om_sys_startup", "om-sys-audit", "INFO", "OzoneManager.start (OMSystemAction STARTUP)",
            "2.0.0+", "om.md 1.3, 5", AUDIT_TEMPLATE;
        "om_sys_leader_change", "om-sys-audit", "INFO", "OzoneManagerStateMachine.notifyLeaderChanged (LEADER_CHANGE)",
            "2.1.0+", "om.md 1.4", AUDIT_TEMPLATE;
        "om_sys_open_key_cleanup", "om-sys-audit", "INFO/ERROR", "OMOpenKeysDeleteRequest (OPEN_KEY_CLEANUP)",
            "2.1.0+", "om.md 1.4", AUDIT_TEMPLATE;
        "om_sys_audit", "om-sys-audit", "INFO/ERROR", "OMSystemAudit (other OMSystemAction)",
            "2.0.0+", "om.md 1.3", AUDIT_TEMPLATE;
    }
    log "om" {
    "open_key_cleanup_summary", "INFO", OPEN_KEY_CLEANUP, "2.0–HEAD", "om.md 2.1",
        "Number of expired open keys submitted for deletion: {}, for commit: {}, cleanupLimit: {}, elapsed time: {}ms"
        [U64, U64, U64, U64] =>
        |m| Some((OmEvent::OpenKeyCleanupSummary {
            submitted_for_deletion: m.u64(0)?,
            submitted_for_commit: m.u64(1)?,
            cleanup_limit: m.u64(2)?,
            elapsed_ms: m.u64(3)?,
        }, Vec::new())),
    "open_key_cleanup_scan_failed", "ERROR", OPEN_KEY_CLEANUP, "1.3–HEAD", "om.md 2.1",
        "Unable to get hanging open keys, retry in next interval" [] =>
        |m| {
            let (_, exception) = main_log_exception(m.input, None);
            Some((OmEvent::OpenKeyCleanupScanFailed { exception }, Vec::new()))
        },
    "open_key_cleanup_submit_failed", "ERROR", OPEN_KEY_CLEANUP, "1.3–HEAD", "om.md 2.1",
        "Open key {} request failed. Will retry at next run." [Text] =>
        |m| {
            let (_, exception) = main_log_exception(m.input, None);
            Some((OmEvent::OpenKeyCleanupSubmitFailed { command: m.string(0), exception }, Vec::new()))
        },
    "om_background_service_started", "INFO", BACKGROUND_SERVICE, "2.1–HEAD", "om.md 2.1",
        // The unit is `TimeUnit.name().toLowerCase()`.
        "Starting service {} with interval {} {}" [Name, U64, Name] =>
        |m| Some((OmEvent::ServiceStarted {
            service: m.string(0),
            interval: m.string(1),
            unit: m.string(2),
        }, Vec::new())),
    "om_background_task_slow", "WARN", BACKGROUND_SERVICE, "1.3–HEAD", "om.md 2.1",
        "{} Background task execution took {}ns > {}ns(timeout)" [Name, U64, U64] =>
        |m| Some((OmEvent::BackgroundTaskSlow {
            service: m.string(0),
            took_ns: m.u64(1),
            timeout_ns: m.u64(2),
        }, Vec::new())),
    // Request failures: volume, bucket, key (for Allocate Block the DB open key), and the
    // exception inline or on the first continuation line.
    "om_key_commit_failed", "ERROR", "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest (also for WithFSO)",
        via KEY_COMMIT, "1.4–HEAD", "om.md 2.3",
        "Key committed failed. Volume:{}, Bucket:{}, Key:{}. Exception:{}" [Text, Text, Text, Text] =>
        |m| request_failure(m, OmEvent::KeyCommitFailed),
    "om_allocate_block_failed", "ERROR",
        "org.apache.hadoop.ozone.om.request.key.OMAllocateBlockRequest (2.0.0–2.1.0 FSO: OMAllocateBlockRequestWithFSO, its own logger)",
        via ALLOCATE_BLOCK, "1.3–HEAD", "om.md 2.4",
        "Allocate Block failed. Volume:{}, Bucket:{}, OpenKey:{}. Exception:{}" [Text, Text, Text, Text] =>
        |m| request_failure(m, OmEvent::AllocateBlockFailed),
    "om_key_create_failed", "ERROR", "org.apache.hadoop.ozone.om.request.key.OMKeyCreateRequest",
        via KEY_CREATE, "1.3–HEAD", "om.md 2.5",
        "Key creation failed. Volume:{}, Bucket:{}, Key:{}. " [Text, Text, Text] =>
        |m| request_failure(m, OmEvent::KeyCreateFailed),
    // OMFileCreateRequestWithFSO prints `Key:{}`, OMFileCreateRequest `Key{}`.
    "om_file_create_failed", "ERROR", "org.apache.hadoop.ozone.om.request.file.OMFileCreateRequestWithFSO",
        via FILE_CREATE, "1.3–HEAD", "om.md 2.5",
        "File create failed. Volume:{}, Bucket:{}, Key:{}." [Text, Text, Text] =>
        |m| request_failure(m, OmEvent::FileCreateFailed),
    "om_file_create_failed", "ERROR", "org.apache.hadoop.ozone.om.request.file.OMFileCreateRequest",
        via FILE_CREATE, "1.3–HEAD", "om.md 2.5",
        "File create failed. Volume:{}, Bucket:{}, Key{}." [Text, Text, Text] =>
        |m| request_failure(m, OmEvent::FileCreateFailed),
    "om_recover_lease_failed", "ERROR", "org.apache.hadoop.ozone.om.request.file.OMRecoverLeaseRequest", "1.4–HEAD", "om.md 2.6",
        "Fail for recovering lease. Volume:{}, Bucket:{}, Key:{}" [Text, Text, Text] =>
        |m| request_failure(m, OmEvent::RecoverLeaseFailed),
    "om_key_delete_failed", "ERROR", "org.apache.hadoop.ozone.om.request.key.OMKeyDeleteRequest(WithFSO)",
        via KEY_DELETE, "1.3–HEAD", "samples HDDS-16825 SOURCE.md",
        "Key delete failed. Volume:{}, Bucket:{}, Key:{}." [Text, Text, Text] =>
        |m| request_failure(m, OmEvent::KeyDeleteFailed),
    "om_open_keys_delete_failed", "ERROR", OPEN_KEYS_DELETE, "1.3–HEAD", "om.md 2.7",
        "Failure occurred while trying to delete {} submitted open keys." [U64] =>
        |m| {
            let (_, exception) = main_log_exception(m.input, None);
            Some((OmEvent::OpenKeysDeleteFailed { count: m.u64(0), exception }, Vec::new()))
        },
    "om_open_key_delete_skipped", "WARN", OPEN_KEYS_DELETE, "1.3–HEAD", "om.md 2.7",
        "Transaction log index {} is smaller than the current updateID {} of key {}, skipping deletion." [U64, U64, Text] =>
        |m| Some((OmEvent::OpenKeyDeleteSkipped {
            index: m.u64(0),
            update_id: m.u64(1),
            key: m.string(2),
        }, Vec::new())),
    "om_hsync_client_mismatch", "WARN", "org.apache.hadoop.ozone.om.request.util.OmKeyHSyncUtil", "2.0–HEAD", "om.md 2.3",
        "Client ID '{}' currently hsync'ing key does not match previous hsync client ID '{}'. dbOpenKey='{}'" [U64, U64, Text] =>
        |m| Some((OmEvent::HsyncClientMismatch {
            client_id: m.u64(0),
            previous_client_id: m.u64(1),
            open_key: m.string(2),
        }, Vec::new())),
    "om_leader_changed", "INFO", STATE_MACHINE, "2.0–HEAD", "om.md 2.8",
        "{}: leader changed to {}" [Member, Name] =>
        |m| {
            let mut entities = om_of(m.text(0));
            entities.extend(Entity::om(m.text(1)));
            Some((OmEvent::OmLeaderChanged { member: m.string(0), leader: m.string(1) }, entities))
        },
    "om_leader_stepped_down", "INFO", STATE_MACHINE, "2.2–HEAD", "om.md 2.8",
        "current leader OM steps down." [] =>
        |_| Some((OmEvent::OmLeaderSteppedDown {}, Vec::new())),
    "om_state_machine_initialized", "INFO", STATE_MACHINE, "2.0–HEAD", "om.md 2.8",
        // The state machine's peer id, the group, the last applied TermIndex.
        "{}: initialize {} with {}" [Name, Group, TermIndex] =>
        |m| initialized(m, "initialize"),
    "om_state_machine_initialized", "INFO", STATE_MACHINE, "2.0–HEAD", "om.md 2.8",
        "{}: reinitialize {} with {}" [Name, Group, TermIndex] =>
        |m| initialized(m, "reinitialize"),
    "om_configuration_changed", "INFO", STATE_MACHINE, "2.0–HEAD", "om.md 2.8",
        "notifyConfigurationChanged from Ratis: term={}, index={}, New Peer list: {}" [U64, U64, Text] =>
        |m| Some((OmEvent::OmConfigurationChanged {
            term: m.u64(0),
            index: m.u64(1),
            peers: m.string(2),
        }, Vec::new())),
    "om_snapshot_taken", "INFO", STATE_MACHINE, "2.0–HEAD", "om.md 2.8",
        "{}: taking snapshot. applied = {}, skipped = {}, notified = {}, current snapshot index = {}, took {} ms"
        [Name, TermIndex, Unread, Unread, Unread, U64] =>
        |m| {
            let applied = entity::term_index(m.text(1)).map(|(t, _)| t);
            Some((OmEvent::OmSnapshotTaken {
                member: m.string(0),
                applied_term: applied.and_then(|t| t.term),
                applied_index: applied.and_then(|t| t.index),
                took_ms: m.u64(5),
            }, om_of(m.text(0))))
        },
    "om_prepare_rejected", "INFO", "org.apache.hadoop.ozone.om.ratis.OzoneManagerRatisServer", "1.3–HEAD", "om.md 2.8",
        "Rejecting write request on OM {} because it is in prepare mode: {}" [Name, Text] =>
        |m| Some((
            OmEvent::OmPrepareRejected { om: m.string(0), reason: m.string(1) },
            Entity::om(m.text(0)).into_iter().collect(),
        )),
    "om_key_commit_request", "DEBUG", "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest(WithFSO)",
        via KEY_COMMIT, "2.0–HEAD", "om.md 2.3",
        "isHSync = {}, isRecovery = {}, volumeName = {}, bucketName = {}, keyName = {}" [Bool, Bool, Text, Text, Text] =>
        |m| Some((OmEvent::KeyCommitRequest {
            is_hsync: m.bool(0)?,
            is_recovery: m.bool(1)?,
            volume: m.string(2),
            bucket: m.string(3),
            key: m.string(4),
        }, vec![key_entity(m.text(2), m.text(3), m.text(4))])),
    "om_key_commit_result", "DEBUG", "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest",
        via KEY_COMMIT, "2.0–HEAD", "om.md 2.3, 3.3",
        "Key commit {} with isHSync = {}, isRecovery = {}, omKeyInfo = {}" [Text, Bool, Bool, KeyInfo] =>
        |m| commit_result(m, m.bool(2), 3),
    // OMKeyCommitRequestWithFSO's wording, and OMKeyCommitRequest's too in 1.4.
    "om_key_commit_result", "DEBUG", "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequestWithFSO",
        via KEY_COMMIT, "1.4–HEAD", "om.md 2.3, 3.3",
        "Key commit {} with isHSync = {}, omKeyInfo = {}" [Text, Bool, KeyInfo] =>
        |m| commit_result(m, None, 2),
    }
    // The client's own log (om.md 2.9).
    log "client" {
    "client_block_written", "DEBUG", "org.apache.hadoop.ozone.client.io.BlockOutputStreamEntryPool",
        via ENTRY_POOLS, "1.3–HEAD", "om.md 2.9",
        "block written {}, length {} bcsID {}" [Block, U64, U64] =>
        |m| {
            let (block, _) = entity::block_id(m.text(0))?;
            Some((OmEvent::ClientBlockWritten {
                container: block.container,
                local: block.local,
                bcs_id: m.u64(2).or(block.bcs_id),
                length: m.u64(1)?,
            }, vec![block.entity()]))
        },
    "client_write_exception", "WARN", KEY_OUTPUT_STREAM, "1.3–HEAD", "om.md 2.9",
        "Encountered exception {} on the pipeline {}. The last committed block length is {}, uncommitted data length is {} retry count {}"
        [Text, Text, U64, U64, U64] =>
        |m| Some((OmEvent::ClientWriteException {
            exception: m.string(0),
            pipeline: m.string(1),
            committed_length: m.u64(2),
            uncommitted_length: m.u64(3),
            retry: m.u64(4),
        }, entity::find_pipelines(m.text(1)).filter_map(|p| Entity::pipeline(p.value)).collect())),
    "client_retry_failed", "ERROR", KEY_OUTPUT_STREAM, "1.3–HEAD", "om.md 2.9",
        "Retry request failed. {}" [Text] =>
        |m| Some((OmEvent::ClientRetryFailed { reason: m.string(0) }, Vec::new())),
    "client_flush_failed", "ERROR", "org.apache.hadoop.hdds.scm.storage.BlockOutputStream", "1.3–HEAD", "om.md 2.9",
        "Failed to flush. error: {}" [Text] =>
        |m| Some((OmEvent::ClientFlushFailed { error: m.string(0) }, Vec::new())),
    "client_block_commit_failed", "WARN", "org.apache.hadoop.hdds.scm.storage.BlockOutputStream",
        via BLOCK_STREAMS, "1.3–HEAD", "om.md 2.9",
        "Failed to commit BlockId {} on {}. Failed nodes: {}" [Block, Unread, Text] =>
        |m| Some((
            OmEvent::ClientBlockCommitFailed { block: m.string(0), nodes: m.string(2) },
            entity::find_blocks(m.text(0)).map(|b| b.value.entity()).collect(),
        )),
    "client_close_without_key_args", "WARN",
        "org.apache.hadoop.ozone.client.io.BlockOutputStreamEntryPool / BlockDataStreamOutputEntryPool",
        via ENTRY_POOLS, "1.3–HEAD", "om.md 2.9",
        "Closing KeyOutputStream, but key args is null" [] =>
        |_| Some((OmEvent::ClientCloseWithoutKeyArgs {}, Vec::new())),
    "client_close_without_key_args", "WARN", "org.apache.hadoop.ozone.client.io.BlockDataStreamOutputEntryPool",
        "1.4–HEAD", "om.md 2.9",
        "Closing KeyDataStreamOutput, but key args is null" [] =>
        |_| Some((OmEvent::ClientCloseWithoutKeyArgs {}, Vec::new())),
    "client_incremental_chunk_list_ignored", "WARN", "org.apache.hadoop.hdds.scm.OzoneClientConfig", "2.0–HEAD", "om.md 2.9",
        "Ignoring ozone.client.incremental.chunk.list = true because HBase enhancements are disallowed. {}" [Unread] =>
        |_| Some((OmEvent::ClientIncrementalChunkListIgnored {}, Vec::new())),
    "client_finalize_block_failed", "WARN", "org.apache.hadoop.fs.ozone.LeaseRecoveryClientDNHandler", "2.0–HEAD", "om.md 2.9",
        "Failed to finalize block. Continue to recover the file since {} is enabled." [Text] =>
        |m| Some((OmEvent::ClientFinalizeBlockFailed { setting: m.string(0) }, Vec::new())),
    }
}

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
        _ => CATALOGUE.typed(input),
    }
}

fn typed(event: OmEvent, entities: Vec<Entity>) -> Option<Typed> {
    Some(Typed::new(event, entities))
}

fn parse_audit(body: &AuditBody, input: &Input<'_>) -> Option<Typed> {
    let params = ParamsView::Read(&body.params);
    let identity = AuditIdentity::of_params(&body.op, body.ret.as_str(), params);
    let throwable = input.record.throwable.as_deref();
    let keyed = KeyedAudit {
        user: &body.user,
        ip: &body.ip,
        ret: body.ret.as_str(),
        params,
    };
    let typed = key_audit(&identity, keyed, throwable).map(|(family, view)| family.typed(view));
    typed.or_else(|| {
        let (result, exception) = throwable.map_or((None, None), exception_parts);
        other_audit(body, identity.transaction, result, exception)
    })
}

/// An OM audit record of the four key families typed as [`super::classify`] types it, from its
/// message's parts: its params are looked at where they are printed, not read into a body first
/// (the OM audit merge types every request it keeps). `at`: where its reader found the parts in
/// the message (`None`: they are found here). `None` for any other record.
pub fn classify_key_audit(record: &Record, at: Option<PartsAt>) -> Option<Typed> {
    if record.headerless {
        return None;
    }
    let parts = match at {
        Some(at) => at.parts(&record.message),
        None => parse_audit_parts(&record.message).ok()?,
    };
    let (family, view) = key_audit_view(&parts, record.throwable.as_deref())?;
    Some(family.typed(view))
}

/// [`classify_key_audit`] of the parts of an OM audit message (of a record with a header), its
/// fields borrowed from them: what a renderer writes out without building the event.
pub fn key_audit_view<'a>(
    parts: &'a AuditParts<'a>,
    throwable: Option<&str>,
) -> Option<(KeyFamily, KeyAuditView<'a>)> {
    let identity = AuditIdentity::of_parts(parts);
    let keyed = KeyedAudit {
        user: parts.user,
        ip: parts.ip,
        ret: parts.ret,
        params: parts.params(),
    };
    key_audit(&identity, keyed, throwable)
}

/// What a [`KeyAudit`] takes of an audit message besides its identity.
struct KeyedAudit<'a> {
    user: &'a str,
    ip: &'a str,
    /// As printed.
    ret: &'a str,
    params: ParamsView<'a>,
}

/// The family and fields of an audit record of a key family that names its key (`None`: any
/// other).
fn key_audit<'a>(
    identity: &AuditIdentity<'a>,
    audit: KeyedAudit<'a>,
    throwable: Option<&str>,
) -> Option<(KeyFamily, KeyAuditView<'a>)> {
    let (
        Some(family),
        AuditNames::Key {
            volume,
            bucket,
            key,
        },
    ) = (KeyFamily::of(identity.op), identity.names)
    else {
        return None;
    };
    let (result, exception) = throwable.map_or((None, None), exception_parts);
    let [client_id, data_size] = audit.params.first_values(["clientID", "dataSize"]);
    let client_id = client_id
        .and_then(num)
        .or_else(|| exception.as_deref().and_then(client_id_in));
    let view = KeyAuditView {
        op: identity.op,
        user: audit.user,
        ip: audit.ip,
        ret: audit.ret,
        volume,
        bucket,
        key,
        data_size: data_size.and_then(num),
        client_id,
        transaction: identity.transaction,
        system: audit.user.is_empty() && audit.ip.is_empty(),
        result: result.map(Cow::Owned),
        exception: exception.map(Cow::Owned),
    };
    Some((family, view))
}

/// The four key families of OM audit ops ([`KeyAudit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyFamily {
    Create,
    AllocateBlock,
    CommitKey,
    RecoverLease,
}

impl KeyFamily {
    /// The family of `op` (`None`: any other op).
    fn of(op: &str) -> Option<KeyFamily> {
        Some(match op {
            "CREATE_FILE" | "ALLOCATE_KEY" => KeyFamily::Create,
            "ALLOCATE_BLOCK" => KeyFamily::AllocateBlock,
            "COMMIT_KEY" => KeyFamily::CommitKey,
            "RECOVER_LEASE" => KeyFamily::RecoverLease,
            _ => return None,
        })
    }

    fn event(self, audit: Box<KeyAudit>) -> OmEvent {
        match self {
            KeyFamily::Create => OmEvent::AuditCreate(audit),
            KeyFamily::AllocateBlock => OmEvent::AuditAllocateBlock(audit),
            KeyFamily::CommitKey => OmEvent::AuditCommitKey(audit),
            KeyFamily::RecoverLease => OmEvent::AuditRecoverLease(audit),
        }
    }

    /// The kind of its events, as [`OmEvent::kind`] names it.
    pub fn kind(self) -> &'static str {
        match self {
            KeyFamily::Create => "om_audit_create",
            KeyFamily::AllocateBlock => "om_audit_allocate_block",
            KeyFamily::CommitKey => "om_audit_commit_key",
            KeyFamily::RecoverLease => "om_audit_recover_lease",
        }
    }

    /// The typed event of `view`: its fields owned, its key named.
    fn typed(self, view: KeyAuditView<'_>) -> Typed {
        let audit = KeyAudit::of_view(view);
        let entities = vec![audit.entity()];
        Typed::new(self.event(Box::new(audit)), entities)
    }
}

/// What tells one OM audit request from another among the copies every OM writes of it
/// (docs/cli-contract.md): its `Transaction` (2.0.0 and later), op and ret, and the key it names
/// (the four key families) or else its params. Read from the parsed body too, so that a copy is
/// known as one before its event is built.
#[derive(Debug, Clone, Copy)]
pub struct AuditIdentity<'a> {
    pub transaction: Option<u64>,
    pub op: &'a str,
    pub ret: &'a str,
    pub names: AuditNames<'a>,
}

/// What an OM audit request names: a key ([`KeyAudit`]), or its params as printed in order
/// ([`OtherAudit`]).
#[derive(Debug, Clone, Copy)]
pub enum AuditNames<'a> {
    Key {
        volume: &'a str,
        bucket: &'a str,
        key: &'a str,
    },
    Params(ParamsView<'a>),
}

impl<'a> AuditIdentity<'a> {
    /// The identity of the event an OM audit message is typed as, from its parts: what copies
    /// are told by, before any event is built.
    pub fn of_parts(parts: &'a AuditParts<'a>) -> AuditIdentity<'a> {
        AuditIdentity::of_params(parts.op, parts.ret, parts.params())
    }

    /// The identity of an audit record of `op` and `ret` with these params (one pass over them).
    fn of_params(op: &'a str, ret: &'a str, params: ParamsView<'a>) -> AuditIdentity<'a> {
        let [transaction, volume, bucket, key] =
            params.first_values(["Transaction", "volume", "bucket", "key"]);
        let names = match (KeyFamily::of(op), volume, bucket, key) {
            (Some(_), Some(volume), Some(bucket), Some(key)) => AuditNames::Key {
                volume,
                bucket,
                key,
            },
            _ => AuditNames::Params(params),
        };
        AuditIdentity {
            transaction: transaction.and_then(num),
            op,
            ret,
            names,
        }
    }

    /// The identity of an OM audit event (`None`: not one).
    pub fn of_event(event: &'a OmEvent) -> Option<AuditIdentity<'a>> {
        Some(match event {
            OmEvent::Audit(a) => AuditIdentity {
                transaction: a.transaction,
                op: &a.op,
                ret: a.ret.as_str(),
                names: AuditNames::Params(ParamsView::Read(&a.params)),
            },
            _ => {
                let a = event.key_audit()?;
                AuditIdentity {
                    transaction: a.transaction,
                    op: &a.op,
                    ret: a.ret.as_str(),
                    names: AuditNames::Key {
                        volume: &a.volume,
                        bucket: &a.bucket,
                        key: &a.key,
                    },
                }
            }
        })
    }
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
        if let Some(parts) = split("volume={}, bucket={}, key={}", inner) {
            out.push(key_entity(parts[0], parts[1], parts[2]));
        }
        rest = &rest[open + close + 1..];
    }
    out
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

fn request_failure(m: &Matched<'_>, make: fn(Box<RequestFailure>) -> OmEvent) -> Option<Built> {
    let v = m.values();
    let (failure, entities) = failure(m.input, v, v.get(3).copied());
    Some((make(Box::new(failure)), entities))
}

/// `Key commit {} with isHSync = {}, [isRecovery = {}, ]omKeyInfo = OmKeyInfo{…}` (`toString` may
/// run over several lines: ACLs, checksums).
fn commit_result(m: &Matched<'_>, is_recovery: Option<bool>, info_at: usize) -> Option<Built> {
    let info = m.text(info_at);
    let quoted = |name: &str| -> Option<String> {
        let at = info.find(name)? + name.len();
        let end = info[at..].find('\'')?;
        Some(info[at..at + end].to_string())
    };
    let volume = quoted("volumeName='")?;
    let bucket = quoted("bucketName='")?;
    let key_name = quoted("keyName='")?;
    let data_size = number_after(info, "dataSize=");
    let blocks: Vec<Entity> = entity::find_blocks(info)
        .map(|b| b.value.entity())
        .collect();
    let mut entities = vec![key_entity(&volume, &bucket, &key_name)];
    for block in &blocks {
        if !entities.contains(block) {
            entities.push(block.clone());
        }
    }
    Some((
        OmEvent::KeyCommitResult(Box::new(KeyCommitResult {
            outcome: m.string(0),
            is_hsync: m.bool(1)?,
            is_recovery,
            volume,
            bucket,
            key_name,
            data_size,
            blocks: blocks.iter().map(ToString::to_string).collect(),
        })),
        entities,
    ))
}

/// The OM a Ratis id names: a peer id (`om1`, `getId()`) or a member id (`om1@group-…`).
fn om_of(id: &str) -> Vec<Entity> {
    let peer = entity::member_id(id).map_or(id, |(m, _)| m.peer);
    Entity::om(peer).into_iter().collect()
}

fn initialized(m: &Matched<'_>, action: &str) -> Option<Built> {
    let applied = entity::find_term_indexes(m.text(2)).next().map(|t| t.value);
    Some((
        OmEvent::OmStateMachineInitialized {
            member: m.string(0),
            action: action.to_string(),
            what: m.string(1),
            term: applied.and_then(|t| t.term),
            index: applied.and_then(|t| t.index),
        },
        om_of(m.text(0)),
    ))
}

#[cfg(test)]
mod tests;
