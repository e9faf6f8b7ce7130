//! Report-handler, container-manager, ReplicationManager and block-deletion lines as Ozone prints
//! them: fields, entities, every release's resurrection wording, and lines that must not type.

use super::*;
use crate::catalog::tests::{record_of, records};
use crate::catalog::{EventData, classify};
use crate::source::Component;

const DN5: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13(dn5.example.com/10.0.1.15)";
const DN5_UUID: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13";
const PIPE: &str = "Pipeline-8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d";

fn details(cstate: &str, sid: u64, rstate: &str, bcsid: u64, empty: &str) -> String {
    format!(
        "Container #1051 ({cstate}, sid={sid}) r0 ({rstate}, bcsid={bcsid}, origin={DN5_UUID}, {empty}) from dn {DN5}"
    )
}

fn typed(logger: &str, message: &str) -> Typed {
    classify(&record_of(logger, message, ""), Component::Scm)
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
    let c =
        |class: &str, msg: String| (format!("org.apache.hadoop.hdds.scm.container.{class}"), msg);
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
        s(FCR, format!("Sending delete container command for DELETED container 1051 to datanode {DN5}")),
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
        s(ICR, format!("Container not found: {d_open}")),
        s(ICR, format!("Container replica not found: {d_open}")),
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
fn realistic_lines_type_in_full_and_abbreviated_loggers() {
    for (logger, msg) in samples() {
        let mut parts = logger.rsplit('.');
        let class = parts.next().unwrap();
        let short = format!("{}.{class}", parts.next().unwrap());
        assert_eq!(event(&logger, &msg), event(&short, &msg), "{short}");
    }
    let other = record_of(
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

/// What a resurrection line says of the move: from, to, the replica's state, key count, bcsId,
/// sequence id and the wording.
type Move<'a> = (
    &'a str,
    &'a str,
    Option<&'a str>,
    Option<u64>,
    Option<u64>,
    Option<i64>,
    Wording,
);

fn move_of(r: &ResurrectedEvent) -> Move<'_> {
    (
        r.from.as_str(),
        r.to.as_str(),
        r.replica_state.as_deref(),
        r.key_count,
        r.bcsid,
        r.sid,
        r.wording,
    )
}

#[test]
fn resurrection_wordings_of_every_release() {
    let cases = [
        (
            FCR,
            "Resurrecting container #1051 from DELETED",
            (
                "DELETED",
                "QUASI_CLOSED",
                Some("OPEN"),
                Some(37),
                Some(4790),
                Some(4821),
                Wording::Resurrecting,
            ),
        ),
        (
            ICR,
            "transitionDeletingToClosed",
            (
                "DELETED",
                "CLOSED",
                Some("CLOSING"),
                Some(9),
                Some(1384),
                Some(1384),
                Wording::TransitionDeletingToClosed,
            ),
        ),
    ];
    for (logger, prefix, expected) in cases {
        let e = event(logger, &sample(prefix));
        let ScmContainerEvent::Resurrected(r) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(move_of(r), expected, "{prefix}");
        assert_eq!(e.printed_sid(), expected.5, "{prefix}");
    }
    let t = typed(FCR, &sample("Resurrecting container #1051 from DELETED"));
    assert_eq!(
        t.entities,
        vec![Entity::Container(1051), Entity::datanode(DN5_UUID).unwrap()]
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
        &record_of(FCR, &format!("Failed to process {d}"), nle),
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
        &record_of(
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
            record: &record_of(
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
        let records = records(&text);
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
                    record: &record_of(&logger, &msg[..cut], ""),
                    component: Component::Scm,
                    audit: None,
                });
            }
        }
    }
}
