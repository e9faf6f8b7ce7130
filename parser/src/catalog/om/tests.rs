use super::*;
use crate::catalog::tests::{records, render, short_logger};
use crate::catalog::{EventData, classify};
use std::collections::HashSet;

/// The `nth` registered template of `kind`.
fn template(kind: &str, nth: usize) -> &'static str {
    STATEMENTS
        .iter()
        .filter(|s| s.info.kind == kind)
        .nth(nth)
        .unwrap_or_else(|| panic!("no template {nth} of {kind}"))
        .info
        .template
}

fn typed_all(text: &str, component: Component) -> Vec<Typed> {
    records(text)
        .iter()
        .map(|r| classify(r, component).unwrap_or_else(|| panic!("untyped: {r:?}")))
        .collect()
}

fn om(t: &Typed) -> &OmEvent {
    match &t.data {
        EventData::Om(e) => e,
        other => panic!("not an OM event: {other:?}"),
    }
}

/// The main-log statement `message` in the shipped file layout (`%c`, with thread), the vendor
/// layout without thread, and the console layout (`%c{2}`).
fn main_log_layouts(level: &str, logger: &str, message: &str, tail: &str) -> Vec<String> {
    let short = short_logger(logger);
    let mut out = Vec::new();
    for header in [
        format!("2026-08-18 22:53:41,485 [om1-OpenKeyCleanupService#0] {level} {logger}: "),
        format!("2026-08-18 22:53:41,485 {level} {logger}: "),
        format!("2026-08-18 22:53:41,485 [main] {level} {short}: "),
    ] {
        out.push(format!("{header}{message}\n{tail}"));
    }
    // docker-compose console output: the service prefix on every line, stack traces included.
    let prefixed_tail: String = tail.lines().map(|l| format!("om1_1  | {l}\n")).collect();
    out.push(format!(
        "om1_1  | 2026-08-18 22:53:41,485 [main] {level} {short}: {message}\n{prefixed_tail}"
    ));
    out
}

fn one(text: &str, component: Component) -> Typed {
    let mut all = typed_all(text, component);
    assert_eq!(all.len(), 1, "{text}");
    all.remove(0)
}

#[test]
fn every_variant_kind_is_registered_and_unique() {
    let names: HashSet<&str> = KINDS.iter().map(|k| k.kind).collect();
    for kind in KINDS {
        assert!(
            !kind.template.is_empty() && !kind.class.is_empty(),
            "{}",
            kind.kind
        );
    }
    let sample = KeyAudit {
        op: String::new(),
        user: String::new(),
        ip: String::new(),
        ret: AuditRet::Success,
        volume: String::new(),
        bucket: String::new(),
        key: String::new(),
        data_size: None,
        client_id: None,
        transaction: None,
        system: false,
        result: None,
        exception: None,
    };
    let failure = RequestFailure {
        volume: String::new(),
        bucket: String::new(),
        key: String::new(),
        client_id: None,
        result: None,
        exception: None,
    };
    let s = String::new;
    let variants = vec![
        OmEvent::AuditCreate(Box::new(sample.clone())),
        OmEvent::AuditAllocateBlock(Box::new(sample.clone())),
        OmEvent::AuditCommitKey(Box::new(sample.clone())),
        OmEvent::AuditRecoverLease(Box::new(sample)),
        OmEvent::Audit(Box::new(OtherAudit {
            op: s(),
            user: s(),
            ip: s(),
            ret: AuditRet::Null,
            params: Params::new(),
            transaction: None,
            result: None,
            exception: None,
        })),
        OmEvent::SysStartup {
            params: Params::new(),
        },
        OmEvent::SysLeaderChange {
            previous_leader: s(),
            new_leader: s(),
        },
        OmEvent::SysOpenKeyCleanup {
            deleted: None,
            keys: vec![],
        },
        OmEvent::SysAudit {
            op: s(),
            ret: AuditRet::Null,
            params: Params::new(),
        },
        OmEvent::OpenKeyCleanupSummary {
            submitted_for_deletion: 0,
            submitted_for_commit: 0,
            cleanup_limit: 0,
            elapsed_ms: 0,
        },
        OmEvent::OpenKeyCleanupScanFailed { exception: None },
        OmEvent::OpenKeyCleanupSubmitFailed {
            command: s(),
            exception: None,
        },
        OmEvent::ServiceStarted {
            service: s(),
            interval: s(),
            unit: s(),
        },
        OmEvent::BackgroundTaskSlow {
            service: s(),
            took_ns: None,
            timeout_ns: None,
        },
        OmEvent::KeyCommitFailed(Box::new(failure.clone())),
        OmEvent::AllocateBlockFailed(Box::new(failure.clone())),
        OmEvent::KeyCreateFailed(Box::new(failure.clone())),
        OmEvent::FileCreateFailed(Box::new(failure.clone())),
        OmEvent::RecoverLeaseFailed(Box::new(failure.clone())),
        OmEvent::KeyDeleteFailed(Box::new(failure)),
        OmEvent::OpenKeysDeleteFailed {
            count: None,
            exception: None,
        },
        OmEvent::OpenKeyDeleteSkipped {
            index: None,
            update_id: None,
            key: s(),
        },
        OmEvent::HsyncClientMismatch {
            client_id: None,
            previous_client_id: None,
            open_key: s(),
        },
        OmEvent::OmLeaderChanged {
            member: s(),
            leader: s(),
        },
        OmEvent::OmLeaderSteppedDown {},
        OmEvent::OmStateMachineInitialized {
            member: s(),
            action: s(),
            what: s(),
            term: None,
            index: None,
        },
        OmEvent::OmConfigurationChanged {
            term: None,
            index: None,
            peers: s(),
        },
        OmEvent::OmSnapshotTaken {
            member: s(),
            applied_term: None,
            applied_index: None,
            took_ms: None,
        },
        OmEvent::OmPrepareRejected {
            om: s(),
            reason: s(),
        },
        OmEvent::KeyCommitRequest {
            is_hsync: false,
            is_recovery: false,
            volume: s(),
            bucket: s(),
            key: s(),
        },
        OmEvent::KeyCommitResult(Box::new(KeyCommitResult {
            outcome: s(),
            is_hsync: false,
            is_recovery: None,
            volume: s(),
            bucket: s(),
            key_name: s(),
            data_size: None,
            blocks: vec![],
        })),
        OmEvent::ClientBlockWritten {
            container: 0,
            local: 0,
            bcs_id: None,
            length: 0,
        },
        OmEvent::ClientWriteException {
            exception: s(),
            pipeline: s(),
            committed_length: None,
            uncommitted_length: None,
            retry: None,
        },
        OmEvent::ClientRetryFailed { reason: s() },
        OmEvent::ClientFlushFailed { error: s() },
        OmEvent::ClientBlockCommitFailed {
            block: s(),
            nodes: s(),
        },
        OmEvent::ClientCloseWithoutKeyArgs {},
        OmEvent::ClientIncrementalChunkListIgnored {},
        OmEvent::ClientFinalizeBlockFailed { setting: s() },
    ];
    let kinds: HashSet<&str> = variants.iter().map(OmEvent::kind).collect();
    assert_eq!(kinds.len(), variants.len());
    assert_eq!(
        kinds, names,
        "every kind has a variant and every variant a KINDS entry"
    );
}

const JSON_AUTO_COMMIT: &str = r#"2025-11-10 23:17:41,906 | INFO  | OMAudit | user= | ip= | op=COMMIT_KEY {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","dataSize":"1184","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"5771020"} | ret=SUCCESS |  "#;
const MAP_AUTO_COMMIT: &str = "2025-11-10 23:17:41,906 | INFO  | OMAudit | user= | ip= | op=COMMIT_KEY {volume=hbase, bucket=wal, key=WALs/rs1/rs1.1762164000000, dataSize=1184, replicationType=RATIS, replicationFactor=THREE, Transaction=5771020} | ret=SUCCESS |  ";

#[test]
fn auto_commit_in_both_param_syntaxes() {
    // The second audit layout has no `%c{1}`: `%d{DEFAULT} | %-5level | %msg | %throwable{3} %n`.
    let without_logger = MAP_AUTO_COMMIT.replace(" | OMAudit | ", " | ");
    for line in [JSON_AUTO_COMMIT, MAP_AUTO_COMMIT, without_logger.as_str()] {
        let t = one(line, Component::OmAudit);
        assert_eq!(
            t.entities,
            vec![Entity::Key("/hbase/wal/WALs/rs1/rs1.1762164000000".into())]
        );
        let OmEvent::AuditCommitKey(a) = om(&t) else {
            panic!("{t:?}")
        };
        assert!(a.system);
        assert_eq!((a.data_size, a.transaction), (Some(1184), Some(5771020)));
        assert_eq!(om(&t).kind(), "om_audit_commit_key");
    }
}

#[test]
fn audit_families_with_client_id_and_failures() {
    let text = concat!(
        r#"2025-11-03 10:00:00,117 | INFO  | OMAudit | user=hbase | ip=10.20.0.11 | op=CREATE_FILE {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","dataSize":"0","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"5001230"} | ret=SUCCESS |  "#,
        "\n",
        "2025-11-03 10:00:00,118 | INFO  | OMAudit | user=etl | ip=10.0.0.4 | op=ALLOCATE_KEY {volume=s3v, bucket=b, key=a/b.json, dataSize=5, replicationType=RATIS, replicationFactor=THREE, Transaction=7} | ret=SUCCESS |  \n",
        r#"2025-11-03 10:41:12,118 | INFO  | OMAudit | user=hbase | ip=10.20.0.11 | op=ALLOCATE_BLOCK {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","dataSize":"268431871","replicationType":"RATIS","replicationFactor":"THREE","clientID":"115485179904000017","Transaction":"5002871"} | ret=SUCCESS |  "#,
        "\n",
        r#"2025-11-12 14:03:10,552 | ERROR | OMAudit | user=hbase | ip=10.20.0.11 | op=COMMIT_KEY {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","dataSize":"87311540","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"5893377"} | ret=FAILURE | KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Failed to commit key, as /-9223372036854567936/-9223372036854511360/-9223372035710148352/rs1.1762164000000/115485179904000017 entry is not found in the OpenKey table"#,
        "\n",
        "\tat org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequestWithFSO.validateAndUpdateCache(OMKeyCommitRequestWithFSO.java:181)\n",
        "\tat org.apache.hadoop.ozone.protocolPB.OzoneManagerRequestHandler.lambda$handleWriteRequestImpl$0(OzoneManagerRequestHandler.java:450) \n",
        r#"2025-11-04 08:00:05,003 | ERROR | OMAudit | user=hbase | ip=10.20.0.12 | op=RECOVER_LEASE {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","Transaction":"5123456"} | ret=FAILURE | KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD org.apache.hadoop.ozone.om.exceptions.OMException: Open Key WALs/rs1/rs1.1762164000000 updated recently and is inside soft limit period"#,
        "\n",
        "\tat x\n\tat y \n",
        "2026-07-21 17:21:09,006 | ERROR | OMAudit | user=ingest | ip=10.20.4.21 | op=DELETE_KEY {volume=ingest, bucket=events, key=compacted/_SUCCESS, Transaction=9} | ret=FAILURE | KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Key not found. Key:compacted/_SUCCESS\n\tat a\n\tat b \n",
    );
    let all = typed_all(text, Component::OmAudit);
    let kinds: Vec<&str> = all.iter().map(|t| om(t).kind()).collect();
    assert_eq!(
        kinds,
        [
            "om_audit_create",
            "om_audit_create",
            "om_audit_allocate_block",
            "om_audit_commit_key",
            "om_audit_recover_lease",
            "om_audit"
        ]
    );
    let OmEvent::AuditAllocateBlock(alloc) = om(&all[2]) else {
        panic!()
    };
    assert_eq!(alloc.client_id, Some(115485179904000017));
    assert_eq!(
        entity::decode_client_id(115485179904000017).0,
        1762164000000
    );
    let OmEvent::AuditCommitKey(fail) = om(&all[3]) else {
        panic!()
    };
    assert_eq!(fail.ret, AuditRet::Failure);
    assert!(!fail.system);
    assert_eq!(fail.result.as_deref(), Some("KEY_NOT_FOUND"));
    assert_eq!(
        fail.client_id,
        Some(115485179904000017),
        "from the open-key path"
    );
    assert!(
        fail.exception
            .as_deref()
            .unwrap()
            .ends_with("entry is not found in the OpenKey table")
    );
    let OmEvent::AuditRecoverLease(rl) = om(&all[4]) else {
        panic!()
    };
    assert_eq!(
        rl.result.as_deref(),
        Some("KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD")
    );
    let OmEvent::Audit(other) = om(&all[5]) else {
        panic!()
    };
    assert_eq!(
        (other.op.as_str(), other.transaction),
        ("DELETE_KEY", Some(9))
    );
    assert_eq!(
        all[5].entities,
        vec![Entity::Key("/ingest/events/compacted/_SUCCESS".into())]
    );
}

#[test]
fn system_audit_actions() {
    let text = concat!(
        r#"2026-08-12 09:14:02,331 | INFO  | OMSystemAudit | user=null | ip= | op=STARTUP {"NewOmState":"RUNNING","OmState":"INITIALIZED"} | ret=SUCCESS |  "#,
        "\n",
        "2026-07-14 18:12:42,317 | INFO  | OMSystemAudit | user=null | ip= | op=STARTUP {NewOmState=RUNNING, OmState=INITIALIZED} | ret=SUCCESS |  \n",
        r#"2025-11-09 02:11:09,774 | INFO  | OMSystemAudit | user=null | ip= | op=LEADER_CHANGE {"previousLeader":"om1","newLeader":"om2"} | ret=SUCCESS |  "#,
        "\n",
        r#"2025-11-10 23:17:41,890 | INFO  | OMSystemAudit | user=null | ip= | op=OPEN_KEY_CLEANUP {"numOpenKeysDeleted":"2","openKeysDeleted":"[{volume=vol1, bucket=b1, key=tmp/part-0000}, {volume=vol1, bucket=b1, key=tmp/part-0001}]"} | ret=SUCCESS |  "#,
        "\n",
        r#"2025-11-10 23:17:41,891 | INFO  | OMSystemAudit | user=null | ip= | op=DIRECTORY_DELETION {"a":"1"} | ret=SUCCESS |  "#,
        "\n",
    );
    let all = typed_all(text, Component::OmSysAudit);
    let kinds: Vec<&str> = all.iter().map(|t| om(t).kind()).collect();
    assert_eq!(
        kinds,
        [
            "om_sys_startup",
            "om_sys_startup",
            "om_sys_leader_change",
            "om_sys_open_key_cleanup",
            "om_sys_audit"
        ]
    );
    assert_eq!(all[2].entities, vec![Entity::Om("om2".into())]);
    assert_eq!(
        all[3].entities,
        vec![
            Entity::Key("/vol1/b1/tmp/part-0000".into()),
            Entity::Key("/vol1/b1/tmp/part-0001".into())
        ]
    );
    let OmEvent::SysOpenKeyCleanup { deleted, .. } = om(&all[3]) else {
        panic!()
    };
    assert_eq!(*deleted, Some(2));
}

const KEY_NOT_FOUND_TRACE: &str = "KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Failed to commit key, as /-9223372036854567936/-9223372036854511104/-9223372035216110336/collector-3.log/117118339855548433 entry is not found in the OpenKey table\n\tat org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequestWithFSO.validateAndUpdateCache(OMKeyCommitRequestWithFSO.java:181)\n";

/// (kind, logger, level, message, continuation, expected entities).
type Case = (
    &'static str,
    &'static str,
    &'static str,
    String,
    &'static str,
    Vec<Entity>,
);

/// One case per main-log kind (two for the template variants).
fn main_log_cases() -> Vec<Case> {
    let key = |k: &str| Entity::Key(k.to_string());
    let om_id = |k: &str| Entity::Om(k.to_string());
    let block = |c, l| Entity::Block {
        container: c,
        local: l,
    };
    let svc = "org.apache.hadoop.ozone.om.service.OpenKeyCleanupService";
    let bg = "org.apache.hadoop.hdds.utils.BackgroundService";
    let commit = "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest";
    let sm = "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine";
    let pool = "org.apache.hadoop.ozone.client.io.BlockOutputStreamEntryPool";
    let kos = "org.apache.hadoop.ozone.client.io.KeyOutputStream";
    let bos = "org.apache.hadoop.hdds.scm.storage.BlockOutputStream";
    vec![
        (
            "open_key_cleanup_summary",
            svc,
            "INFO",
            render(
                template("open_key_cleanup_summary", 0),
                &["0", "1", "1000", "94"],
            ),
            "",
            vec![],
        ),
        (
            "open_key_cleanup_scan_failed",
            svc,
            "ERROR",
            template("open_key_cleanup_scan_failed", 0).to_string(),
            "java.io.IOException: rocksdb\n\tat x\n",
            vec![],
        ),
        (
            "open_key_cleanup_submit_failed",
            svc,
            "ERROR",
            render(
                template("open_key_cleanup_submit_failed", 0),
                &["CommitKey"],
            ),
            "com.google.protobuf.ServiceException: x\n",
            vec![],
        ),
        (
            "om_background_service_started",
            bg,
            "INFO",
            render(
                template("om_background_service_started", 0),
                &["OpenKeyCleanupService", "600000", "milliseconds"],
            ),
            "",
            vec![],
        ),
        (
            "om_background_task_slow",
            bg,
            "WARN",
            render(
                template("om_background_task_slow", 0),
                &["OpenKeyCleanupService", "400000000000", "300000000000"],
            ),
            "",
            vec![],
        ),
        (
            "om_key_commit_failed",
            commit,
            "ERROR",
            render(
                template("om_key_commit_failed", 0),
                &[
                    "logs",
                    "raw",
                    "apps/payments/2026-08-18/collector-3.log",
                    "{}",
                ],
            ),
            KEY_NOT_FOUND_TRACE,
            vec![key("/logs/raw/apps/payments/2026-08-18/collector-3.log")],
        ),
        (
            "om_allocate_block_failed",
            "org.apache.hadoop.ozone.om.request.key.OMAllocateBlockRequest",
            "ERROR",
            render(
                template("om_allocate_block_failed", 0),
                &["vol", "b", "/vol/b/dir/k/115485179904000017", "{}"],
            ),
            "KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Open Key not found /vol/b/dir/k/115485179904000017\n",
            vec![key("/vol/b/dir/k")],
        ),
        (
            "om_key_create_failed",
            "org.apache.hadoop.ozone.om.request.key.OMKeyCreateRequest",
            "ERROR",
            render(template("om_key_create_failed", 0), &["v", "b", "k1"]),
            "KEY_ALREADY_EXISTS org.apache.hadoop.ozone.om.exceptions.OMException: x\n",
            vec![key("/v/b/k1")],
        ),
        (
            "om_file_create_failed",
            "org.apache.hadoop.ozone.om.request.file.OMFileCreateRequest",
            "ERROR",
            render(template("om_file_create_failed", 1), &["v", "b", "d/f"]),
            "FILE_ALREADY_EXISTS org.apache.hadoop.ozone.om.exceptions.OMException: x\n",
            vec![key("/v/b/d/f")],
        ),
        (
            "om_file_create_failed",
            "org.apache.hadoop.ozone.om.request.file.OMFileCreateRequestWithFSO",
            "ERROR",
            render(template("om_file_create_failed", 0), &["v", "b", "d/g"]),
            "NOT_A_FILE org.apache.hadoop.ozone.om.exceptions.OMException: x\n",
            vec![key("/v/b/d/g")],
        ),
        (
            "om_recover_lease_failed",
            "org.apache.hadoop.ozone.om.request.file.OMRecoverLeaseRequest",
            "ERROR",
            render(
                template("om_recover_lease_failed", 0),
                &["hbase", "wal", "WALs/rs4/rs4.1"],
            ),
            "KEY_ALREADY_CLOSED org.apache.hadoop.ozone.om.exceptions.OMException: Key: WALs/rs4/rs4.1 is already closed\n",
            vec![key("/hbase/wal/WALs/rs4/rs4.1")],
        ),
        (
            "om_key_delete_failed",
            "org.apache.hadoop.ozone.om.request.key.OMKeyDeleteRequestWithFSO",
            "ERROR",
            render(
                template("om_key_delete_failed", 0),
                &["hive", "warehouse", "sales/_temporary/0"],
            ),
            "KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Key not found. Key:sales/_temporary/0\n",
            vec![key("/hive/warehouse/sales/_temporary/0")],
        ),
        (
            "om_open_keys_delete_failed",
            "org.apache.hadoop.ozone.om.request.key.OMOpenKeysDeleteRequest",
            "ERROR",
            render(template("om_open_keys_delete_failed", 0), &["3"]),
            "java.io.IOException: x\n",
            vec![],
        ),
        (
            "om_open_key_delete_skipped",
            "org.apache.hadoop.ozone.om.request.key.OMOpenKeysDeleteRequest",
            "WARN",
            render(
                template("om_open_key_delete_skipped", 0),
                &["12", "15", "/v/b/k/1"],
            ),
            "",
            vec![],
        ),
        (
            "om_hsync_client_mismatch",
            "org.apache.hadoop.ozone.om.request.util.OmKeyHSyncUtil",
            "WARN",
            render(
                template("om_hsync_client_mismatch", 0),
                &["2", "1", "/v/b/k/2"],
            ),
            "",
            vec![],
        ),
        (
            "om_leader_changed",
            sm,
            "INFO",
            render(
                template("om_leader_changed", 0),
                &["om1@group-D66704EFC61C", "om2"],
            ),
            "",
            vec![om_id("om1"), om_id("om2")],
        ),
        (
            "om_leader_stepped_down",
            sm,
            "INFO",
            template("om_leader_stepped_down", 0).to_string(),
            "",
            vec![],
        ),
        (
            "om_state_machine_initialized",
            sm,
            "INFO",
            render(
                template("om_state_machine_initialized", 0),
                &["om1", "group-D66704EFC61C", "(t:3, i:1200)"],
            ),
            "",
            vec![om_id("om1")],
        ),
        (
            "om_state_machine_initialized",
            sm,
            "INFO",
            render(
                template("om_state_machine_initialized", 1),
                &["om2", "group-D66704EFC61C", "(t:4, i:1300)"],
            ),
            "",
            vec![om_id("om2")],
        ),
        (
            "om_configuration_changed",
            sm,
            "INFO",
            render(
                template("om_configuration_changed", 0),
                &[
                    "3",
                    "1",
                    "om1(om1.example.com:9872), om2(om2.example.com:9872), New Listener list: ",
                ],
            ),
            "",
            vec![],
        ),
        (
            "om_snapshot_taken",
            sm,
            "INFO",
            render(
                template("om_snapshot_taken", 0),
                &[
                    "om1",
                    "(t:3, i:5000)",
                    "(t:3, i:4990)",
                    "(t:3, i:5000)",
                    "5000",
                    "12",
                ],
            ),
            "",
            vec![om_id("om1")],
        ),
        (
            "om_prepare_rejected",
            "org.apache.hadoop.ozone.om.ratis.OzoneManagerRatisServer",
            "INFO",
            render(
                template("om_prepare_rejected", 0),
                &["om1", "PREPARE_COMPLETED"],
            ),
            "",
            vec![om_id("om1")],
        ),
        (
            "om_key_commit_request",
            commit,
            "DEBUG",
            render(
                template("om_key_commit_request", 0),
                &["true", "false", "hbase", "wal", "WALs/rs1/f"],
            ),
            "",
            vec![key("/hbase/wal/WALs/rs1/f")],
        ),
        (
            "om_key_commit_result",
            commit,
            "DEBUG",
            render(
                template("om_key_commit_result", 0),
                &[
                    "succeeded",
                    "true",
                    "false",
                    "OmKeyInfo{volumeName='hbase', bucketName='wal', keyName='WALs/rs1/f', dataSize=1184, keyLocationVersions=[version:0 isMultipartKey:false conID 4021 locID 115816896921600001 bcsID 1893 || ], creationTime=1, modificationTime=2, replicationConfig=RATIS/THREE, encInfo=null, fileChecksum=null, isFile=true, fileName='f', acls=[]}",
                ],
            ),
            "",
            vec![
                key("/hbase/wal/WALs/rs1/f"),
                block(4021, 115816896921600001),
            ],
        ),
        (
            "om_key_commit_result",
            "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequestWithFSO",
            "DEBUG",
            render(
                template("om_key_commit_result", 1),
                &[
                    "succeeded",
                    "false",
                    "OmKeyInfo{volumeName='v', bucketName='b', keyName='f2', dataSize=9, keyLocationVersions=[version:0 isMultipartKey:false conID 1 locID 2 bcsID 3 || conID 1 locID 4 bcsID 5 || ], creationTime=1}",
                ],
            ),
            "",
            vec![key("/v/b/f2"), block(1, 2), block(1, 4)],
        ),
        (
            "client_block_written",
            pool,
            "DEBUG",
            render(
                template("client_block_written", 0),
                &[
                    "conID: 4021 locID: 115816896921600001 bcsId: 1893 replicaIndex: null",
                    "45219840",
                    "1893",
                ],
            ),
            "",
            vec![block(4021, 115816896921600001)],
        ),
        (
            "client_write_exception",
            kos,
            "WARN",
            render(
                template("client_write_exception", 0),
                &[
                    "BLOCK_ALREADY_FINALIZED",
                    "Pipeline[ Id: 8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d, Nodes: x]",
                    "100",
                    "20",
                    "0",
                ],
            ),
            "",
            vec![Entity::Pipeline(
                "8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d".into(),
            )],
        ),
        (
            "client_retry_failed",
            kos,
            "ERROR",
            render(
                template("client_retry_failed", 0),
                &["retries get failed due to exceeded maximum allowed retries number: 5"],
            ),
            "java.io.IOException: x\n",
            vec![],
        ),
        (
            "client_flush_failed",
            bos,
            "ERROR",
            render(
                template("client_flush_failed", 0),
                &["Unexpected Storage Container Exception"],
            ),
            "java.io.IOException: x\n",
            vec![],
        ),
        (
            "client_block_commit_failed",
            bos,
            "WARN",
            render(
                template("client_block_commit_failed", 0),
                &[
                    "conID: 1 locID: 2 bcsId: 3 replicaIndex: null",
                    "[dn1]",
                    "[dn2]",
                ],
            ),
            "",
            vec![block(1, 2)],
        ),
        (
            "client_close_without_key_args",
            pool,
            "WARN",
            template("client_close_without_key_args", 0).to_string(),
            "",
            vec![],
        ),
        (
            "client_close_without_key_args",
            "org.apache.hadoop.ozone.client.io.BlockDataStreamOutputEntryPool",
            "WARN",
            template("client_close_without_key_args", 1).to_string(),
            "",
            vec![],
        ),
        (
            "client_incremental_chunk_list_ignored",
            "org.apache.hadoop.hdds.scm.OzoneClientConfig",
            "WARN",
            render(
                template("client_incremental_chunk_list_ignored", 0),
                &["Set ozone.client.hbase.enhancements.allowed = true to enable it."],
            ),
            "",
            vec![],
        ),
        (
            "client_finalize_block_failed",
            "org.apache.hadoop.fs.ozone.LeaseRecoveryClientDNHandler",
            "WARN",
            render(
                template("client_finalize_block_failed", 0),
                &["ozone.client.leaserecovery.force"],
            ),
            "",
            vec![],
        ),
    ]
}

#[test]
fn every_main_log_kind_in_three_layouts() {
    let mut covered = HashSet::new();
    for (kind, logger, level, message, tail, entities) in main_log_cases() {
        for text in main_log_layouts(level, logger, &message, tail) {
            for component in [Component::Om, Component::Unknown] {
                let t = one(&text, component);
                assert_eq!(om(&t).kind(), kind, "{text}");
                assert_eq!(t.entities, entities, "{text}");
            }
        }
        covered.insert(kind);
    }
    let main_log_kinds: HashSet<&str> = STATEMENTS.iter().map(|s| s.info.kind).collect();
    assert_eq!(covered, main_log_kinds, "a main-log case per kind");
}

#[test]
fn failure_fields_come_from_the_stack_trace() {
    let text = &main_log_layouts(
        "ERROR",
        "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest",
        &render(
            template("om_key_commit_failed", 0),
            &["logs", "raw", "a/c.log", "{}"],
        ),
        KEY_NOT_FOUND_TRACE,
    )[0];
    let t = one(text, Component::Om);
    let OmEvent::KeyCommitFailed(f) = om(&t) else {
        panic!()
    };
    assert_eq!(f.result.as_deref(), Some("KEY_NOT_FOUND"));
    assert_eq!(f.client_id, Some(117118339855548433));
    // SLF4J 1.x renders the exception text inline instead of a literal `{}`.
    let inline = render(
        template("om_key_commit_failed", 0),
        &[
            "logs",
            "raw",
            "a/c.log",
            "KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: x",
        ],
    );
    let text = format!(
        "2026-08-18 22:53:41,485 [t] ERROR org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest: {inline}\n"
    );
    let t = one(&text, Component::Om);
    let OmEvent::KeyCommitFailed(f) = om(&t) else {
        panic!()
    };
    assert_eq!(
        (f.key.as_str(), f.result.as_deref()),
        ("a/c.log", Some("KEY_NOT_FOUND"))
    );
}

#[test]
fn fso_open_key_gives_client_id_but_no_key_entity() {
    let msg = render(
        template("om_allocate_block_failed", 0),
        &[
            "hbase",
            "wal",
            "/-9223372036854596352/-9223372036854585088/-9223372035548567296/rs4.1791241200375/117390783309611029",
            "{}",
        ],
    );
    let text = format!(
        "2026-10-05 23:41:02,955 [om1-OMStateMachineApplyTransactionThread - 0] ERROR org.apache.hadoop.ozone.om.request.key.OMAllocateBlockRequest: {msg}\n"
    );
    let t = one(&text, Component::Om);
    let OmEvent::AllocateBlockFailed(f) = om(&t) else {
        panic!()
    };
    assert_eq!(f.client_id, Some(117390783309611029));
    assert!(t.entities.is_empty());
}

#[test]
fn unrelated_lines_are_not_typed() {
    for text in [
        "2026-08-18 22:53:41,485 [t] INFO org.apache.hadoop.ozone.om.service.OpenKeyCleanupService: Number of expired open keys submitted for deletion: x, for commit: 0, cleanupLimit: 1000, elapsed time: 3ms\n",
        "2026-08-18 22:53:41,485 [t] INFO org.apache.hadoop.ozone.om.OzoneManager: Key committed failed. Volume:a, Bucket:b, Key:c. Exception:{}\n",
        "2026-08-18 22:53:41,485 [t] DEBUG io.BlockOutputStreamEntryPool: block written to nowhere\n",
    ] {
        let r = records(text);
        assert_eq!(classify(&r[0], Component::Om), None, "{text}");
    }
}

/// The merge types kept key audit records from their parts: the same event as `classify` gives,
/// whatever the params' syntax (plain JSON, JSON with escapes, a 2.0 Java map), ret and
/// throwable; `None`, for `classify` to type, for any other op or a key family that names no key.
#[test]
fn key_audits_typed_from_their_parts_as_classify_types_them() {
    let key_family = [
        r#"user=hive | ip=10.20.2.48 | op=ALLOCATE_BLOCK {"volume":"hive","bucket":"warehouse","key":"sales/part-1.data","dataSize":"0","replicationType":"RATIS","clientID":"116000821012971501","Transaction":"5459342"} | ret=SUCCESS"#,
        r#"user=spark | ip=10.20.3.11 | op=COMMIT_KEY {"volume":"ml","bucket":"f","key":"a \"quoted\" \\ key","dataSize":"140039743","Transaction":"7"} | ret=SUCCESS"#,
        r#"user= | ip= | op=COMMIT_KEY {"volume":"v","bucket":"b","key":"k","clientID":"x","dataSize":"-1"} | ret=SUCCESS"#,
        "user=hbase | ip=10.20.0.12 | op=RECOVER_LEASE {volume=hbase, bucket=b, key=wal/1, Transaction=12} | ret=FAILURE",
        r#"user=u | ip=1 | op=CREATE_FILE {"volume":"v","bucket":"b","key":"k","key":"second","volume":"w"} | ret=SUCCESS"#,
        r#"user=u | ip=1 | op=ALLOCATE_KEY {"k0":"0","k1":"1","k2":"2","k3":"3","k4":"4","k5":"5","k6":"6","k7":"7","k8":"8","k9":"9","k10":"10","k11":"11","k12":"12","k13":"13","k14":"14","k15":"15","volume":"v","bucket":"b","key":"late","clientID":"99"} | ret=SUCCESS"#,
    ];
    let throwables = [
        None,
        Some(""),
        Some(
            "KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD org.apache.hadoop.ozone.om.exceptions.OMException: Open Key /v/b/k updated recently, clientID 42",
        ),
    ];
    for message in key_family {
        for throwable in throwables {
            let record = Record {
                message: message.to_string(),
                throwable: throwable.map(str::to_string),
                ..Record::default()
            };
            let from_parts = classify_key_audit(&record, None);
            assert!(from_parts.is_some(), "{message}");
            // The parts its reader found, as places: of plain JSON params only.
            let parts = parse_audit_parts(&record.message).unwrap();
            let at = parts.at(&record.message);
            let plain = message.contains("{\"") && !message.contains('\\');
            assert_eq!(at.is_some(), plain, "{message}");
            if let Some(at) = at {
                assert_eq!(
                    classify_key_audit(&record, Some(at)),
                    from_parts,
                    "{message}"
                );
            }
            assert_eq!(
                from_parts,
                classify(&record, Component::OmAudit),
                "{message} {throwable:?}"
            );
        }
    }
    let others = [
        r#"user=u | ip=1 | op=CREATE_BUCKET {"volume":"v","bucket":"b"} | ret=SUCCESS"#,
        r#"user=u | ip=1 | op=COMMIT_KEY {"volume":"v","bucket":"b"} | ret=SUCCESS"#,
        "user=u | ip=1 | op=COMMIT_KEY null | ret=SUCCESS",
        "not an audit message",
    ];
    for message in others {
        let record = Record {
            message: message.to_string(),
            ..Record::default()
        };
        assert_eq!(classify_key_audit(&record, None), None, "{message}");
    }
    let headerless = Record {
        message: key_family[0].to_string(),
        headerless: true,
        ..Record::default()
    };
    assert_eq!(classify_key_audit(&headerless, None), None);
}
