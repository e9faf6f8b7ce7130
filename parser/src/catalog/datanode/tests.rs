//! Datanode lines in every layout: ContainerStateMachine, XceiverServerRatis, dispatcher errors, chunk and block files, scanners, close-container handling, dn-audit and dn-container records.

use super::*;
use crate::catalog::tests::{
    agreed, cut_lines_never_panic, events_of, logger_classes, short_logger, untyped_by_any_logger,
};

const GROUP: &str = "group-41A9C03D5E7B";

fn typed_as(text: &str, component: Component) -> Vec<(DatanodeEvent, Vec<String>)> {
    events_of(text, component)
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
    let short = short_logger(logger);
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
    agreed(&texts, Component::Datanode)
}

/// A line (level, logger, message, continuation lines), what its event must match, and the
/// entities it must name (`None`: not checked).
type Expected = (
    &'static str,
    &'static str,
    String,
    &'static [&'static str],
    fn(&DatanodeEvent) -> bool,
    Option<&'static [&'static str]>,
);

fn check_all(cases: Vec<Expected>) {
    for (level, logger, message, continuation, expected, entities) in cases {
        let (e, named) = one(level, logger, &message, continuation);
        assert!(expected(&e), "{message}: {e:?}");
        if let Some(entities) = entities {
            assert_eq!(named, entities, "{message}");
        }
    }
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
    let DatanodeEvent::DnAudit(audit) = e else {
        panic!()
    };
    let DnAudit {
        op,
        ret,
        params,
        perf,
        throwable,
    } = &**audit;
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
    let DatanodeEvent::DnAudit(audit) = &all[1].0 else {
        panic!()
    };
    let DnAudit { ret, perf, .. } = &**audit;
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
    let DatanodeEvent::DispatchError(error) = &e else {
        panic!()
    };
    let DispatchError {
        op,
        result,
        chunk_offset,
        file_length,
        local,
        ..
    } = &**error;
    assert_eq!(
        (op.as_str(), result.as_str()),
        ("WriteChunk", "CHUNK_FILE_INCONSISTENCY")
    );
    assert_eq!(
        (*chunk_offset, *file_length, *local),
        (Some(8388608), Some(4194304), Some(113750153625600023))
    );
    assert!(entities.is_empty());

    check_all(vec![
        (
            "WARN",
            KVH,
            "Operation: ReadChunk , Trace ID:  , Message: Unexpected read size. expected: 4194304, actual: -1 , Result: CONTAINER_INTERNAL_ERROR , StorageContainerException Occurred.".into(),
            &[],
            |e| {
                matches!(e, DatanodeEvent::DispatchError(error) if error.result == "CONTAINER_INTERNAL_ERROR" && error.message.starts_with("Unexpected read size"))
            },
            None,
        ),
        (
            "WARN",
            KVH,
            "Operation: GetBlock , Trace ID:  , Message: Unable to find the block with bcsID 30904. Container 1043 bcsId is 30901. , Result: UNKNOWN_BCSID , StorageContainerException Occurred.".into(),
            &[],
            |e| matches!(e, DatanodeEvent::DispatchError(error) if error.result == "UNKNOWN_BCSID"),
            Some(&["container:1043"]),
        ),
        // Printed twice (issue 18 item 9), kept once.
        (
            "WARN",
            CSM,
            "Operation: WriteChunk , Trace ID: 7 , Message: Prev writes to container 5 failed, stopping all writes to container , Result: CONTAINER_UNHEALTHY , StorageContainerException Occurred.".into(),
            &[],
            |e| matches!(e, DatanodeEvent::DispatchError(error) if error.trace_id == "7"),
            Some(&["container:5"]),
        ),
        (
            "WARN",
            KVH,
            "Operation: PutBlock , Trace ID:  , Message: Requested block conID: 1 locID: 113750153625600017 bcsId: 0 replicaIndex: null in container 1 is missing , Result: NO_SUCH_BLOCK , StorageContainerException Occurred.".into(),
            &[],
            |e| matches!(e, DatanodeEvent::DispatchError(error) if error.result == "NO_SUCH_BLOCK"),
            Some(&["container:1", "block:1:113750153625600017"]),
        ),
    ]);
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
    check_all(vec![
        (
            "ERROR",
            CHUNK_UTILS,
            "Unexpected read size. expected: 4194304, actual: -1".into(),
            &[],
            |e| {
                *e == DatanodeEvent::ChunkUnexpectedSize {
                    of: "read".into(),
                    expected: 4194304,
                    actual: -1,
                }
            },
            None,
        ),
        (
            "ERROR",
            CHUNK_UTILS,
            "Unexpected write size. expected: 10, actual: 3".into(),
            &[],
            |e| matches!(e, DatanodeEvent::ChunkUnexpectedSize { of, actual: 3, .. } if of == "write"),
            None,
        ),
        (
            "WARN",
            CHUNK_UTILS,
            "Duplicate write chunk request. Chunk overwrite without explicit request. ChunkInfo{chunkName='113750153625600019_chunk_0, offset=0, len=4194304}".into(),
            &[],
            |e| {
                *e == DatanodeEvent::ChunkDuplicateWrite {
                    chunk: "113750153625600019_chunk_0".into(),
                    local: Some(113750153625600019),
                    offset: Some(0),
                    len: Some(4194304),
                }
            },
            None,
        ),
        (
            "ERROR",
            CHUNK_UTILS,
            "Oversize read. max: 10, actual: 12".into(),
            &[],
            |e| e.kind() == "chunk_oversize_read",
            None,
        ),
    ]);
}

#[test]
fn file_per_block_and_block_manager_debug_lines() {
    check_all(vec![
        (
            "DEBUG",
            FPBS,
            "Writing chunk ChunkInfo{chunkName='113750153625600017_chunk_3, offset=12582912, len=4194304} (overwrite: false) in stage WRITE_DATA to file /data/disk1/hdds/CID-8d3f/current/containerDir0/1042/chunks/113750153625600017.block".into(),
            &[],
            |e| {
                matches!(e, DatanodeEvent::ChunkWrite(write) if matches!(**write, ChunkWrite { overwrite: false, container: Some(1042), local: Some(113750153625600017), offset: Some(12582912), .. }) && write.stage == "WRITE_DATA")
            },
            Some(&["container:1042", "block:1042:113750153625600017"]),
        ),
        (
            "DEBUG",
            FPBS,
            "Ignore chunk ChunkInfo{chunkName='113750153625600017_chunk_3, offset=12582912, len=4194304} in stage COMMIT_DATA".into(),
            &[],
            |e| {
                matches!(e, DatanodeEvent::ChunkIgnored { local: Some(113750153625600017), stage, chunk, .. } if stage == "COMMIT_DATA" && chunk == "113750153625600017_chunk_3")
            },
            None,
        ),
        (
            "INFO",
            FPBS,
            "Deleted block file: /data/disk1/hdds/x/1042/chunks/1.block".into(),
            &[],
            |e| matches!(e, DatanodeEvent::BlockFileDeleted { existed: true, .. }),
            None,
        ),
        (
            "WARN",
            FPBS,
            "Block file to be deleted does not exist: /x/1.block".into(),
            &[],
            |e| matches!(e, DatanodeEvent::BlockFileDeleted { existed: false, .. }),
            None,
        ),
        (
            "DEBUG",
            "org.apache.hadoop.ozone.container.keyvalue.impl.BlockManagerImpl",
            "Block conID: 1042 locID: 113750153625600017 bcsId: 18345 replicaIndex: null successfully committed with bcsId 18345 chunk size 4".into(),
            &[],
            |e| {
                matches!(
                    e,
                    DatanodeEvent::BlockCommitted {
                        container: 1042,
                        bcs_id: Some(18345),
                        ..
                    }
                )
            },
            Some(&["container:1042", "block:1042:113750153625600017"]),
        ),
    ]);
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
        DatanodeEvent::CsmWriteSubmitted(CsmWrite {
            group: GROUP.into(),
            container: Some(1043),
            local: Some(113750153625600019),
            index: 18342,
            chunk: "113750153625600019_chunk_0".into()
        })
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
        &format!("{GROUP}: writeChunk writeStateMachineData  completed: blockIdcontainerID: 1043"),
        &[
            "localID: 113750153625600025",
            "blockCommitSequenceId: 0",
            " logIndex 18343 chunkName 113750153625600025_chunk_0",
        ],
    );
    assert!(matches!(
        e,
        DatanodeEvent::CsmWriteCompleted(CsmWrite { index: 18343, .. })
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
        matches!(e, DatanodeEvent::CsmWriteFailed(f) if f.index == Some(9) && f.result.as_deref() == Some("DISK_OUT_OF_SPACE"))
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
        matches!(e, DatanodeEvent::CsmApply(a) if a.index == Some(18343) && a.cmd == "WriteChunk" && a.result == "SUCCESS")
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
        matches!(e, DatanodeEvent::CsmReadFailed(f) if f.index == Some(18343) && f.result == "CONTAINER_INTERNAL_ERROR")
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
    check_all(vec![
        (
            "INFO",
            XSR,
            "Leader change notification received for group: group-41A9C03D5E7B with new leaderId: 6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71".into(),
            &[],
            |e| {
                matches!(e, DatanodeEvent::LeaderChangeNotification { leader, .. } if leader == "6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71")
            },
            Some(&["group:41A9C03D5E7B"]),
        ),
        (
            "WARN",
            XSR,
            "pipeline Action CLOSE on pipeline Pipeline-7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b.Reason : a41c with datanodeId a41c handlePipelineFailure  for no leader: FOLLOWER elapsed time=3000ms".into(),
            &["  Follower x with datanodeId y is slow"],
            |e| matches!(e, DatanodeEvent::PipelineAction { action, .. } if action == "CLOSE"),
            Some(&[
                "pipeline:7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b",
                "group:41A9C03D5E7B",
            ]),
        ),
        (
            "INFO",
            XSR,
            "Created group Pipeline-7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b".into(),
            &[],
            |e| e.kind() == "ratis_group_created",
            None,
        ),
        // The RaftGroupId names the pipeline's Ratis group, as the ContainerStateMachine lines do.
        (
            "WARN",
            XSR,
            "handleInstallSnapshotFromLeader for firstTermIndexInLog=(t:3, i:5), terminating pipeline: group-41A9C03D5E7B".into(),
            &[],
            |e| e.kind() == "install_snapshot_terminating",
            Some(&["group:41A9C03D5E7B"]),
        ),
    ]);
}

#[test]
fn dispatcher_scanner_and_close_container_lines() {
    const ON_DEMAND: &str =
        "org.apache.hadoop.ozone.container.ozoneimpl.OnDemandContainerDataScanner";
    let scan =
        |container, marked_unhealthy, error: Option<&str>| DatanodeEvent::ContainerScanResult {
            container,
            marked_unhealthy,
            error: error.map(str::to_owned),
        };
    let close = |outcome: &str| DatanodeEvent::CloseContainerHandling {
        container: 1042,
        outcome: outcome.into(),
    };
    let cases = [
        (
            "INFO",
            DISPATCHER,
            "Marked Container UNHEALTHY, ContainerID: 1042",
            DatanodeEvent::ContainerMarkedUnhealthy { container: 1042 },
        ),
        (
            "ERROR",
            DISPATCHER,
            "Failed to mark container 1042 UNHEALTHY. ",
            DatanodeEvent::ContainerMarkUnhealthyFailed { container: 1042 },
        ),
        (
            "WARN",
            DISPATCHER,
            "Triggered immediate heartbeat because of full volume.",
            DatanodeEvent::FullVolumeHeartbeat {},
        ),
        (
            "WARN",
            "org.apache.hadoop.ozone.container.common.impl.ContainerSet",
            "Request to scan container 9 which was not found in the container set",
            DatanodeEvent::ScanContainerNotFound { container: 9 },
        ),
        (
            "ERROR",
            ON_DEMAND,
            "Corruption detected in container [1012]. Marking it UNHEALTHY. Container has 1 error: INCONSISTENT_CHUNK_LENGTH for file /x with exception: java.io.IOException: Inconsistent read",
            scan(1012, true, Some("INCONSISTENT_CHUNK_LENGTH")),
        ),
        (
            "WARN",
            "org.apache.hadoop.ozone.container.ozoneimpl.BackgroundContainerDataScanner",
            "Skipped marking container UNHEALTHY [7]: scan failed due to transient file descriptor exhaustion ('Too many open files'). Container has 1 error: MISSING_CHUNK for file /x",
            scan(7, false, Some("MISSING_CHUNK")),
        ),
        // Several errors, and the wordings up to 2.0 (no result; the on-demand scanner's misses a
        // space).
        (
            "ERROR",
            ON_DEMAND,
            "Corruption detected in container [8]. Marking it UNHEALTHY. Container has 3 errors. The first error is: CORRUPT_CHUNK for file /x",
            scan(8, true, Some("CORRUPT_CHUNK")),
        ),
        (
            "ERROR",
            ON_DEMAND,
            "Corruption detected in container [8]. Marking it UNHEALTHY.",
            scan(8, true, None),
        ),
        (
            "ERROR",
            ON_DEMAND,
            "Corruption detected in container [8].Marking it UNHEALTHY.",
            scan(8, true, None),
        ),
        (
            "WARN",
            KVH,
            "Unexpected error while marking container 5 unhealthy",
            DatanodeEvent::ContainerMarkUnhealthyError { container: 5 },
        ),
        (
            "INFO",
            KVH,
            "Block has been finalized conID: 1 locID: 2 bcsId: 0 replicaIndex: null ",
            DatanodeEvent::BlockFinalize { done: true },
        ),
        (
            "INFO",
            CCCH,
            "Container #1042 does not exist in datanode. Its pipeline may have closed before it was created. Container close failed.",
            close("missing"),
        ),
        (
            "INFO",
            CCCH,
            "Marking Container 1042 quasi closed",
            close("quasi_closing"),
        ),
        (
            "INFO",
            CCCH,
            "Follower cannot close container #1042.",
            close("follower_cannot_close"),
        ),
        ("INFO", CCCH, "Can't close container #1042", close("failed")),
    ];
    for (level, logger, message, expected) in cases {
        let (e, entities) = one(level, logger, message, &[]);
        assert_eq!(e, expected, "{message}");
        let container = match e {
            DatanodeEvent::ContainerMarkedUnhealthy { container }
            | DatanodeEvent::ContainerScanResult { container, .. } => Some(container),
            _ => None,
        };
        if let Some(container) = container {
            assert_eq!(
                entities,
                vec![format!("container:{container}")],
                "{message}"
            );
        }
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
    untyped_by_any_logger::<DatanodeEvent>(&bad, &logger_classes(STATEMENTS));
    assert!(container_log("ID=x | State=OPEN", None).is_none());
}

#[test]
fn cut_lines_never_panic_in_any_logger() {
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
    let lines = lines.map(String::from);
    cut_lines_never_panic::<DatanodeEvent>(&lines, continuation, &logger_classes(STATEMENTS));
    let container =
        "ID=1042 | Index=0 | BCSID=18345 | State=UNHEALTHY | Volume=/d | DataChecksum=0 | é";
    for (cut, _) in container.char_indices() {
        let _ = container_log(&container[..cut], Some(&container[cut..]));
    }
}

#[test]
fn every_kind_is_registered() {
    let names: std::collections::BTreeSet<&str> = KINDS.iter().map(|k| k.kind).collect();
    let samples = [
        DatanodeEvent::DnAudit(Box::new(DnAudit {
            op: String::new(),
            ret: String::new(),
            params: Params::new(),
            perf: None,
            throwable: None,
        })),
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
        DatanodeEvent::CsmWriteSubmitted(CsmWrite::default()),
        DatanodeEvent::CsmWriteCompleted(CsmWrite::default()),
        DatanodeEvent::CsmWriteFailed(Box::new(CsmWriteFailed {
            group: String::new(),
            container: None,
            local: None,
            index: None,
            chunk: None,
            result: None,
        })),
        DatanodeEvent::CsmWriteCancelled {
            group: String::new(),
            taken_ns: None,
            index: None,
        },
        DatanodeEvent::CsmWriteFailedCloseServer {
            group: String::new(),
        },
        DatanodeEvent::CsmReadFailed(Box::new(CsmReadFailed {
            group: String::new(),
            cmd: String::new(),
            index: None,
            message: String::new(),
            result: String::new(),
        })),
        DatanodeEvent::CsmReadDataFailed {
            group: String::new(),
        },
        DatanodeEvent::CsmApplyException {
            group: String::new(),
            index: None,
            cmd: String::new(),
        },
        DatanodeEvent::CsmApply(Box::new(CsmApply {
            group: String::new(),
            cmd: String::new(),
            index: None,
            message: String::new(),
            result: String::new(),
            completed: true,
        })),
        DatanodeEvent::CsmApply(Box::new(CsmApply {
            group: String::new(),
            cmd: String::new(),
            index: None,
            message: String::new(),
            result: String::new(),
            completed: false,
        })),
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
        DatanodeEvent::DispatchError(Box::new(DispatchError {
            op: String::new(),
            trace_id: String::new(),
            message: String::new(),
            result: String::new(),
            chunk_offset: None,
            file_length: None,
            local: None,
        })),
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
        DatanodeEvent::ChunkWrite(Box::new(ChunkWrite {
            chunk: String::new(),
            local: None,
            offset: None,
            len: None,
            overwrite: false,
            stage: String::new(),
            container: None,
            file: String::new(),
        })),
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
    assert_eq!(samples.len(), names.len());
    for s in &samples {
        assert!(names.contains(&s.kind()), "{}", s.kind());
    }
}
