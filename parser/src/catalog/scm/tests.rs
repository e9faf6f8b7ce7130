//! SCM fields and entities beyond what the catalogue's generic test fills in, the audit layout,
//! and lines that must not type.

use super::*;
use crate::catalog::tests::records;
use crate::catalog::{EventData, classify};
use crate::record::Record;

const DN3: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27(dn3.example.com/10.0.1.13)";
const DN3_UUID: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27";
const DN5: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13(dn5.example.com/10.0.1.15)";
const SCM1: &str = "1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5";
const PIPE: &str = "Pipeline-5e0c1d2a-9b7f-4c3e-a1d2-6f8e0b4c7a91";
const TRACKED: &str =
    "org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl$TrackedNode@d71c744d";
const REGISTERED: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27{ip: 10.0.1.13, host: dn3.example.com, ports: [HTTP=9882, RATIS=9858], networkLocation: /default-rack, certSerialId: null, persistedOpState: DECOMMISSIONING, persistedOpStateExpiryEpochSec: 0}";

fn typed(record: &Record, component: Component) -> Typed {
    classify(record, component).unwrap_or_else(|| panic!("untyped: {:?}", record.message))
}

fn scm_event(t: &Typed) -> &ScmEvent {
    match &t.data {
        EventData::Scm(e) => e,
        other => panic!("not an SCM event: {other:?}"),
    }
}

/// The start and shutdown banners (`HddsServerUtil.startupShutdownMessage`): one record each, the
/// banner lines attached as continuation lines.
#[test]
fn startup_and_shutdown_banners_are_one_record_each() {
    let text = "\
2026-10-06 09:50:40,118 [shutdown-hook-0] INFO org.apache.hadoop.hdds.scm.server.StorageContainerManagerStarter: SHUTDOWN_MSG: \n\
/************************************************************\n\
SHUTDOWN_MSG: Shutting down StorageContainerManager at scm1.example.com/10.20.0.11\n\
************************************************************/\n\
2026-10-06 09:51:02,604 [main] INFO org.apache.hadoop.hdds.scm.server.StorageContainerManagerStarter: STARTUP_MSG: \n\
/************************************************************\n\
STARTUP_MSG: Starting StorageContainerManager\n\
STARTUP_MSG:        host = scm1.example.com/10.20.0.11\n\
************************************************************/\n";
    let records = records(text);
    let kinds: Vec<&str> = records
        .iter()
        .map(|r| typed(r, Component::Scm).data.kind())
        .collect();
    assert_eq!(kinds, vec!["scm_shutdown", "scm_started"]);
    assert_eq!(records[1].continuation_lines, 4);
}

#[test]
fn leadership_fields_and_entities() {
    let rec = &records(&format!(
        "2026-08-20 14:03:15,390 [{SCM1}@group-112233445566-LeaderElection7] INFO org.apache.hadoop.hdds.scm.ha.SCMStateMachine: current SCM {SCM1} becomes leader of term 5\n"
    ))[0];
    let t = typed(rec, Component::Scm);
    assert_eq!(
        scm_event(&t),
        &ScmEvent::BecameLeader {
            scm_id: SCM1.into(),
            term: 5
        }
    );
    // The message's id, then the Ratis group of the SCM's own election thread.
    assert_eq!(
        t.entities,
        vec![
            Entity::Scm(SCM1.into()),
            Entity::Group("112233445566".into())
        ]
    );

    let rec = &records(&format!(
        "2026-08-20 14:02:44,561 [{SCM1}@group-112233445566-LeaderStateImpl] INFO ha.SCMContext: update <isLeader,term> from <true,3> to <false,0>\n",
    ))[0];
    // No id in the message: the thread is the SCM's own Ratis member.
    assert_eq!(
        typed(rec, Component::Scm).entities,
        vec![
            Entity::Scm(SCM1.into()),
            Entity::Group("112233445566".into())
        ]
    );
    let other_thread = &records(
        "2026-08-20 14:02:44,561 [main] INFO ha.SCMContext: update <isLeader,term> from <true,3> to <false,0>\n",
    )[0];
    assert!(typed(other_thread, Component::Scm).entities.is_empty());
    assert_eq!(
        scm_event(&typed(rec, Component::Scm)),
        &ScmEvent::RoleUpdate {
            was_leader: true,
            old_term: 3,
            is_leader: false,
            new_term: 0
        }
    );
    let json = serde_json::to_string(&typed(rec, Component::Scm).data).unwrap();
    assert_eq!(
        json,
        r#"{"was_leader":true,"old_term":3,"is_leader":false,"new_term":0}"#
    );

    let rec = &records(&format!(
        "2026-08-20 14:03:15,512 [{SCM1}@group-112233445566-StateMachineUpdater] DEBUG org.apache.hadoop.hdds.scm.ha.SCMStateMachine: {SCM1}@group-112233445566: applyTransaction (t:5, i:1234)\n"
    ))[0];
    let t = typed(rec, Component::Scm);
    assert_eq!(
        scm_event(&t),
        &ScmEvent::ApplyTransaction {
            member: format!("{SCM1}@group-112233445566"),
            term: Some(5),
            index: Some(1234)
        }
    );
    assert_eq!(
        t.entities,
        vec![
            Entity::Scm(SCM1.into()),
            Entity::Group("112233445566".into())
        ]
    );
}

#[test]
fn admin_and_node_manager_fields() {
    let line = |msg: &str, logger: &str| {
        records(&format!(
            "2026-08-20 14:03:10,004 [scm1-DatanodeAdminManager-0] WARN {logger}: {msg}\n"
        ))
        .remove(0)
    };
    let rec = line(
        &format!(
            "Datanode {DN3} has an operational state of IN_SERVICE when it should be undergoing decommission or maintenance. Aborting admin for this node."
        ),
        "org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl",
    );
    let t = typed(&rec, Component::Scm);
    assert_eq!(
        scm_event(&t),
        &ScmEvent::AdminAborted {
            datanode: DN3_UUID.into(),
            op_state: "IN_SERVICE".into()
        }
    );
    assert_eq!(t.entities, vec![Entity::Datanode(DN3_UUID.into())]);

    let rec = line(
        &format!(
            "Update the operationalState saved in follower SCM for {DN3} as the reported value (DECOMMISSIONING, 0) does not match the value stored in SCM (IN_SERVICE, 0)"
        ),
        "node.SCMNodeManager",
    );
    let t = typed(&rec, Component::Scm);
    assert_eq!(t.data.kind(), "follower_op_state_copied");
    assert_eq!(
        serde_json::to_string(&t.data).unwrap(),
        format!(
            r#"{{"datanode":"{DN3_UUID}","reported":"DECOMMISSIONING","reported_expiry":0,"stored":"IN_SERVICE","stored_expiry":0}}"#
        )
    );

    let rec = line(
        &format!(
            "{TRACKED} has 412 sufficientlyReplicated, 3 deleting, 0 underReplicated and 0 unclosed containers"
        ),
        "node.DatanodeAdminMonitorImpl",
    );
    let e = typed(&rec, Component::Scm);
    assert_eq!(scm_event(&e).tracked_node_hash(), Some(0xd71c744d));
    // The hash maps back to dn3 once its UUID is known (scm.md §3).
    let mut map = entity::TrackedNodeMap::new();
    map.observe(DN3);
    assert_eq!(
        scm_event(&e)
            .tracked_node_hash()
            .and_then(|h| map.resolve(h)),
        Some(Entity::Datanode(DN3_UUID.into()))
    );

    let rec = line(
        &format!("Registered datanode: {REGISTERED}"),
        "org.apache.hadoop.hdds.scm.node.SCMNodeManager",
    );
    assert_eq!(
        scm_event(&typed(&rec, Component::Scm)),
        &ScmEvent::Registered(Box::new(Registered {
            datanode: DN3_UUID.into(),
            host: "dn3.example.com".into(),
            ip: "10.0.1.13".into(),
            persisted_op_state: Some("DECOMMISSIONING".into()),
            persisted_op_state_expiry: Some(0),
        }))
    );

    let rec = line(
        &format!(
            "Updated datanode {DN3} IN_SERVICE(no expiry)-HEALTHY to {DN3} DECOMMISSIONING(expiry: 1795851672s)-STALE"
        ),
        "node.NodeStateManager",
    );
    assert_eq!(
        scm_event(&typed(&rec, Component::Scm)),
        &ScmEvent::NodeStatusUpdated(Box::new(NodeStatusUpdated {
            datanode: DN3_UUID.into(),
            old_op_state: "IN_SERVICE".into(),
            old_health: "HEALTHY".into(),
            new_op_state: "DECOMMISSIONING".into(),
            new_health: "STALE".into(),
        }))
    );

    let rec = line(
        &format!(
            "Force flag = true. Skip checking if decommission is possible for dns: [{DN3}, {DN5}]"
        ),
        "node.NodeDecommissionManager",
    );
    let t = typed(&rec, Component::Scm);
    assert!(
        matches!(scm_event(&t), ScmEvent::AdminRequested { action: AdminAction::Decommission, force: true, datanodes } if datanodes.len() == 2)
    );
    assert_eq!(t.entities.len(), 2);

    let rec = line(
        &format!(
            "Heartbeat dispatched for datanode {DN3} with commands [setNodeOperationalStateCommand: cmdID: 7, encodedToken: \"\", term: 5, deadlineMsSinceEpoch: 0, opState: IN_SERVICE, stateExpiryEpochSeconds: 0, closeContainerCommand: cmdID: 8, encodedToken: \"\", term: 5, deadlineMsSinceEpoch: 0, containerID: 1051, pipelineID: {PIPE}, force: false]"
        ),
        "server.SCMDatanodeHeartbeatDispatcher",
    );
    let dispatched = typed(&rec, Component::Scm);
    let ScmEvent::HeartbeatDispatched { commands, .. } = scm_event(&dispatched) else {
        panic!("not dispatched");
    };
    assert_eq!(
        commands,
        &vec![
            HeartbeatCommand {
                command_type: "setNodeOperationalStateCommand".into(),
                op_state: Some("IN_SERVICE".into()),
                term: Some(5),
                cmd_id: Some(7)
            },
            HeartbeatCommand {
                command_type: "closeContainerCommand".into(),
                op_state: None,
                term: Some(5),
                cmd_id: Some(8)
            },
        ]
    );
}

#[test]
fn admin_monitor_lines_of_older_releases_name_the_datanode() {
    // DatanodeAdminMonitorImpl at ozone-1.4.0 (lines 226, 330, 408) logs the DatanodeDetails
    // itself, `uuid(host/ip)`; at ozone-1.3.0 `toString()` is the debug form
    // `uuid{ip: …, host: …, ports: […], …}` (DatanodeDetails.java:494).
    let line = |dn: &str, msg: &str| {
        records(&format!(
            "2024-03-01 10:00:00,000 [DatanodeAdminManager-0] INFO org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl: {}\n",
            msg.replace("{dn}", dn)
        ))
        .remove(0)
    };
    for dn in [DN3, REGISTERED] {
        let status = typed(
            &line(
                dn,
                "{dn} has 412 sufficientlyReplicated, 3 deleting, 0 underReplicated and 0 unclosed containers",
            ),
            Component::Scm,
        );
        assert_eq!(status.data.kind(), "admin_replication_status");
        assert_eq!(status.entities, vec![Entity::Datanode(DN3_UUID.into())]);
        // The hash is the uuid's, as TrackedNode@<hex> prints it from 2.0.0 on.
        assert_eq!(
            scm_event(&status).tracked_node_hash(),
            entity::uuid_hash_code(DN3_UUID)
        );
        let waiting = typed(
            &line(
                dn,
                "Waiting for pipelines to close for {dn}. There are 2 pipelines",
            ),
            Component::Scm,
        );
        assert_eq!(waiting.entities, vec![Entity::Datanode(DN3_UUID.into())]);
        let done = typed(&line(dn, "Recommissioned node {dn}"), Component::Scm);
        assert_eq!(done.data.kind(), "admin_recommissioned");
        assert_eq!(done.entities, vec![Entity::Datanode(DN3_UUID.into())]);
        let completed = typed(
            &line(
                dn,
                "Datanode {dn} has completed the admin workflow. The operational state has been set to DECOMMISSIONED",
            ),
            Component::Scm,
        );
        assert_eq!(completed.entities, vec![Entity::Datanode(DN3_UUID.into())]);
    }
}

#[test]
fn wrong_values_or_other_classes_do_not_type() {
    let one = |text: &str| records(text).remove(0);
    // A word where an op state goes.
    let rec = one(&format!(
        "2026-08-20 14:03:10,004 [t] WARN node.DatanodeAdminMonitorImpl: Datanode {DN3} has an operational state of in service when it should be undergoing decommission or maintenance. Aborting admin for this node.\n"
    ));
    assert!(classify(&rec, Component::Scm).is_none());
    // The same text from a class that does not write it, and from a package that is not the
    // class's.
    for logger in [
        "org.apache.hadoop.hdds.scm.container.ContainerReportHandler",
        "org.example.node.NodeDecommissionManager",
    ] {
        let rec = one(&format!(
            "2026-08-20 14:03:10,004 [t] INFO {logger}: Continue admin for datanode {DN3}\n"
        ));
        let input = Input {
            record: &rec,
            component: Component::Scm,
            audit: None,
        };
        assert!(parse(&input).is_none(), "{logger}");
    }
    // Truncated lines never panic.
    let full = format!(
        "Scheduling a command to update the operationalState persisted on {DN3} as the reported value (DECOMMISSIONING, 0) does not match the value stored in SCM (IN_SERVICE, 0)"
    );
    for (cut, _) in full.char_indices() {
        let rec = one(&format!(
            "2026-08-20 14:03:10,004 [t] INFO node.SCMNodeManager: {}\n",
            &full[..cut]
        ));
        let _ = classify(&rec, Component::Scm);
    }
}

const AUDIT_DECOM: &str = r#"2026-08-20 14:02:10,331 | INFO  | SCMAudit | user=hadoop | ip=10.0.0.21 | op=DECOMMISSION_NODES {"nodes":"[dn3.example.com, 10.0.1.14:9858]","force":"false"} | ret=SUCCESS |  "#;
const AUDIT_RECOM: &str = r#"2026-08-20 15:40:02,019 | INFO  | SCMAudit | user=hadoop | ip=10.0.0.21 | op=DECOMMISSION_NODES {"nodes":"[dn3.example.com]"} | ret=SUCCESS |  "#;
const AUDIT_MAINT: &str = r#"2026-08-20 16:00:00,004 | INFO  | SCMAudit | user=hadoop | ip=10.0.0.21 | op=START_MAINTENANCE_NODES {"endInHours":"4","nodes":"[dn4.example.com]","force":"true"} | ret=SUCCESS |  "#;
const AUDIT_HB_LEADER: &str = r#"2026-08-20 14:07:41,118 | INFO  | SCMAudit | user=hadoop | ip=10.0.1.13 | op=SEND_HEARTBEAT {"datanodeUUID":"4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27","term":"5","command":"[commandType: setNodeOperationalStateCommand setNodeOperationalStateCommandProto { cmdId: 117359301 nodeOperationalState: IN_SERVICE stateExpiryEpochSeconds: 0 } term: 5 encodedToken: \"\" deadlineMsSinceEpoch: 0, commandType: deleteBlocksCommand deleteTransactionsCount: 3 cmdID: 9 encodedToken: \"\" deadlineMsSinceEpoch: 0]"} | ret=SUCCESS |  "#;
const AUDIT_HB_FOLLOWER: &str = r#"2026-08-20 14:07:41,120 | INFO  | SCMAudit | user=hadoop | ip=10.0.1.13 | op=SEND_HEARTBEAT {"datanodeUUID":"4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27","command":"[]"} | ret=SUCCESS |  "#;
const AUDIT_REGISTER: &str = r#"2026-08-20 09:00:02,000 | INFO  | SCMAudit | user=dn/dn3.example.com@REALM | ip=10.0.1.13 | op=REGISTER {"datanodeDetails":"4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27(dn3.example.com/10.0.1.13)"} | ret=SUCCESS |  "#;

fn audit_of(line: &str) -> (ScmAudit, Vec<Entity>) {
    let records = records(&format!("{line}\n"));
    let t = typed(&records[0], Component::ScmAudit);
    assert_eq!(t.data.kind(), "scm_audit");
    match t.data {
        EventData::Scm(ScmEvent::Audit(a)) => (*a, t.entities),
        other => panic!("{other:?}"),
    }
}

#[test]
fn audit_admin_ops_tell_decommission_recommission_and_maintenance_apart() {
    let (a, entities) = audit_of(AUDIT_DECOM);
    assert_eq!(
        (a.action, a.force),
        (Some(AdminAction::Decommission), Some(false))
    );
    assert_eq!(a.nodes, vec!["dn3.example.com", "10.0.1.14:9858"]);
    assert_eq!(
        entities,
        vec![
            Entity::DatanodeHost("dn3.example.com".into()),
            Entity::DatanodeHost("10.0.1.14:9858".into())
        ]
    );
    let (a, _) = audit_of(AUDIT_RECOM);
    assert_eq!((a.action, a.force), (Some(AdminAction::Recommission), None));
    let (a, _) = audit_of(AUDIT_MAINT);
    assert_eq!(
        (a.action, a.force),
        (Some(AdminAction::Maintenance), Some(true))
    );
    let (a, entities) = audit_of(AUDIT_REGISTER);
    assert_eq!(a.op, "REGISTER");
    assert_eq!(entities, vec![Entity::Datanode(DN3_UUID.into())]);
}

#[test]
fn audit_blocks_are_entities_as_in_dn_audit() {
    // SCMBlockProtocolServer.allocateBlock (2.0.0 on): `sampleBlocks` = the BlockIDs, `[` … `]`.
    let line = r#"2026-08-20 14:02:10,331 | INFO  | SCMAudit | user=om | ip=10.0.0.5 | op=ALLOCATE_BLOCK {"size":"268435456","num":"1","replication":"RATIS/THREE","owner":"om1","client":"","allocated":"1","sampleBlocks":"[conID: 3012 locID: 113750153625653249 bcsId: 0 replicaIndex: null]"} | ret=SUCCESS |  "#;
    let (_, entities) = audit_of(line);
    assert_eq!(
        entities,
        vec![
            Entity::Container(3012),
            Entity::Block {
                container: 3012,
                local: 113750153625653249
            }
        ]
    );
}

#[test]
fn audit_heartbeats_carry_term_and_commands() {
    let (a, entities) = audit_of(AUDIT_HB_LEADER);
    assert_eq!(a.term, Some(5));
    assert_eq!(entities, vec![Entity::Datanode(DN3_UUID.into())]);
    assert_eq!(
        a.commands,
        vec![
            HeartbeatCommand {
                command_type: "setNodeOperationalStateCommand".into(),
                op_state: Some("IN_SERVICE".into()),
                term: Some(5),
                cmd_id: Some(117359301)
            },
            HeartbeatCommand {
                command_type: "deleteBlocksCommand".into(),
                op_state: None,
                term: None,
                cmd_id: Some(9)
            },
        ]
    );
    let json = serde_json::to_value(EventData::Scm(ScmEvent::Audit(Box::new(a)))).unwrap();
    assert_eq!(json["term"], 5);
    assert_eq!(json["params"]["datanodeUUID"], DN3_UUID);
    let (a, _) = audit_of(AUDIT_HB_FOLLOWER);
    assert_eq!((a.term, a.commands.len()), (None, 0));
}

#[test]
fn an_audit_record_in_a_compose_stream_types_too() {
    let records = records(&format!("scm1_1  | {AUDIT_HB_LEADER}\n"));
    let t = typed(&records[0], Component::Scm);
    assert_eq!(t.data.kind(), "scm_audit");
    assert_eq!(t.entities, vec![Entity::Datanode(DN3_UUID.into())]);
}

#[test]
fn pipelines_in_both_printed_forms() {
    // `PipelineID=<uuid>` before 2.1.0, `Pipeline-<uuid>` since (HDDS-13044).
    for pipeline in [
        "PipelineID=5e0c1d2a-9b7f-4c3e-a1d2-6f8e0b4c7a91",
        "Pipeline-5e0c1d2a-9b7f-4c3e-a1d2-6f8e0b4c7a91",
    ] {
        let rec = records(&format!(
            "2026-08-18 09:14:22,610 [scm1-EventQueue-StaleNodeForStaleNodeHandler] INFO org.apache.hadoop.hdds.scm.node.StaleNodeHandler: Datanode {DN5} moved to stale state. Finalizing its pipelines [{pipeline}]\n"
        ))
        .remove(0);
        let t = typed(&rec, Component::Scm);
        assert_eq!(t.data.kind(), "node_stale");
        assert_eq!(
            t.entities,
            vec![
                Entity::Datanode("b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13".into()),
                Entity::Pipeline("5e0c1d2a-9b7f-4c3e-a1d2-6f8e0b4c7a91".into()),
            ]
        );
    }
}
