//! Endpoint, heartbeat and connection lines: thread names, addresses, heartbeat protobuf text, fields and entities.

use super::*;
use crate::catalog::tests::{record_of, records, short_logger};
use crate::catalog::{EventData, classify};
use crate::record::Record;

const DN: &str = "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c";
const ADDR: &str = "scm1.example.com:9861/scm1.example.com/10.20.0.11";

fn endpoint_thread() -> String {
    format!("{DN}-EndpointStateMachineTaskThread-{ADDR}-0 ")
}

fn daemon_thread() -> String {
    format!("{DN}-DatanodeStateMachineDaemonThread")
}

/// Reads `text` as a stream and types every record.
fn typed(text: &str) -> Vec<(Record, Option<Typed>)> {
    records(text)
        .into_iter()
        .map(|r| {
            let t = classify(&r, Component::Datanode);
            (r, t)
        })
        .collect()
}

fn one(text: &str) -> (DnEndpointEvent, Vec<Entity>) {
    let mut all = typed(text);
    assert_eq!(all.len(), 1, "{text}");
    let (_, t) = all.remove(0);
    let t = t.unwrap_or_else(|| panic!("not typed: {text}"));
    match t.data {
        EventData::DnEndpoint(e) => (e, t.entities),
        other => panic!("wrong family {other:?}"),
    }
}

/// The same statement in the RFA file layout (full logger) and the console layout (`%c{2}`).
fn both_layouts(thread: &str, class: &str, level: &str, message: &str) -> [String; 2] {
    let short = short_logger(class);
    [
        format!("2026-03-04 12:00:31,010 [{thread}] {level} {class}: {message}\n"),
        format!("datanode2-1  | 2026-03-04 12:00:31,010 [{thread}] {level} {short}: {message}\n"),
    ]
}

#[test]
fn thread_names_give_datanode_and_endpoint() {
    let t = endpoint_thread();
    assert_eq!(
        thread_origin(&t),
        ThreadOrigin {
            datanode: Some(DN),
            endpoint: Some(ADDR)
        }
    );
    assert_eq!(
        thread_origin(&daemon_thread()),
        ThreadOrigin {
            datanode: Some(DN),
            endpoint: None
        }
    );
    assert_eq!(thread_origin("main"), ThreadOrigin::default());
    assert_eq!(
        thread_origin("IPC Server handler 3 on default port 9861"),
        ThreadOrigin::default()
    );
    // Compose hosts: `scm1:9861/scm1/172.25.0.11`.
    let compose = format!("{DN}-EndpointStateMachineTaskThread-scm1:9861/scm1/172.25.0.11-12 ");
    assert_eq!(
        thread_origin(&compose).endpoint,
        Some("scm1:9861/scm1/172.25.0.11")
    );
}

#[test]
fn endpoint_addresses_in_every_printed_form() {
    assert_eq!(
        endpoint_address(ADDR),
        Some(EndpointAddress {
            host: "scm1.example.com",
            port: Some(9861),
            ip: Some("10.20.0.11")
        })
    );
    assert_eq!(
        endpoint_address("scm1.example.com/10.20.0.42:9861"),
        Some(EndpointAddress {
            host: "scm1.example.com",
            port: Some(9861),
            ip: Some("10.20.0.42")
        })
    );
    assert_eq!(
        endpoint_address("scm1.example.com:9861"),
        Some(EndpointAddress {
            host: "scm1.example.com",
            port: Some(9861),
            ip: None
        })
    );
    assert_eq!(
        endpoint_address("scm1.example.com:9861/<unresolved>").map(|a| a.ip),
        Some(None)
    );
    assert_eq!(endpoint_address(""), None);
}

#[test]
fn detected_timeout_in_both_layouts() {
    for line in both_layouts(
        &daemon_thread(),
        RUNNING,
        "WARN",
        &format!("Detected timeout: Timeout occurred on endpoint: {ADDR}"),
    ) {
        let (e, entities) = one(&line);
        assert_eq!(e.kind(), "endpoint_timeout");
        assert_eq!(e.endpoint(), Some(ADDR));
        assert_eq!(entities, vec![Entity::Datanode(DN.into())]);
    }
}

#[test]
fn unable_to_communicate_keeps_its_stack_trace_and_reads_both_wordings() {
    let text = format!(
        "2026-03-04 12:00:01,002 [{}] WARN {ENDPOINT_SM}: Unable to communicate to SCM server at {ADDR} past 60 seconds.\n\
java.net.ConnectException: Call From dn1.example.com/10.20.1.5 to scm1.example.com:9861 failed on connection exception\n\
\tat sun.reflect.NativeConstructorAccessorImpl.newInstance0(Native Method)\n",
        endpoint_thread()
    );
    let all = typed(&text);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].0.continuation_lines, 2);
    let (e, _) = one(&text);
    assert_eq!(
        e,
        DnEndpointEvent::EndpointUnreachable {
            datanode: Some(DN.into()),
            server: "SCM".into(),
            endpoint: ADDR.into(),
            seconds: Some(60)
        }
    );
    let old = format!(
        "2026-03-04 12:00:01,002 [{}] WARN statemachine.EndpointStateMachine: Unable to communicate to Recon server at recon.example.com:9891 for past 300 seconds.\n",
        endpoint_thread()
    );
    let (e, _) = one(&old);
    assert_eq!(
        e,
        DnEndpointEvent::EndpointUnreachable {
            datanode: Some(DN.into()),
            server: "Recon".into(),
            endpoint: "recon.example.com:9891".into(),
            seconds: Some(300)
        }
    );
}

#[test]
fn info_and_warn_statements_of_every_class() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            RUNNING,
            "ERROR",
            "Error in executing end point task.",
            "endpoint_task_error",
        ),
        (
            RUNNING,
            "ERROR",
            "State is Shutdown in RunningDatanodeState",
            "running_state_shutdown",
        ),
        (
            RUNNING,
            "TRACE",
            "Entering handshake task.",
            "handshake_task",
        ),
        (
            STATE_CONTEXT,
            "WARN",
            "No available thread in pool for the past 120 seconds and 4 times.",
            "task_pool_busy",
        ),
        (
            STATE_CONTEXT,
            "WARN",
            "Ignore disallowed transition from RUNNING to INIT",
            "datanode_transition_ignored",
        ),
        (
            STATE_CONTEXT,
            "ERROR",
            "Critical error occurred in StateMachine, setting shutDownMachine",
            "datanode_critical_error",
        ),
        (
            STATE_CONTEXT,
            "WARN",
            "Detect and drop a SCMCommand closeContainerCommand: cmdID: 7 from stale leader SCM, stale term 5, latest term 6.",
            "stale_scm_command_dropped",
        ),
        (
            STATE_CONTEXT,
            "WARN",
            "Ignore command as command queue crosses max limit 5000.",
            "command_queue_full",
        ),
        (
            STATE_CONTEXT,
            "DEBUG",
            &format!("endpoint: {ADDR}, size of reportsToPutBack: 2"),
            "reports_put_back",
        ),
        (
            STATE_CONTEXT,
            "DEBUG",
            "Task RunningDatanodeState executed, state transited from RUNNING to RUNNING",
            "datanode_state_transited",
        ),
        (
            DN_STATE_MACHINE,
            "INFO",
            "Datanode State Machine Task Thread Pool size 4",
            "task_pool_size",
        ),
        (
            DN_STATE_MACHINE,
            "INFO",
            "Ozone container server started.",
            "container_server_started",
        ),
        (
            DN_STATE_MACHINE,
            "ERROR",
            "Unable to finish the execution.",
            "datanode_execution_failed",
        ),
        (
            DN_STATE_MACHINE,
            "DEBUG",
            "Executing cycle Number : 311",
            "heartbeat_cycle",
        ),
        (
            ENDPOINT_SM,
            "TRACE",
            "Incrementing the Missed count.",
            "missed_count_incremented",
        ),
        (
            HEARTBEAT_TASK,
            "WARN",
            &format!("Failed to refresh SCM address {ADDR} after 5 missed heartbeats"),
            "scm_address_refresh_failed",
        ),
        (
            HEARTBEAT_TASK,
            "DEBUG",
            "Received SCM container close request for container 2043",
            "close_command_received",
        ),
        (
            HEARTBEAT_TASK,
            "DEBUG",
            "Received SCM set operational state command. State: DECOMMISSIONING Expiry: 0",
            "op_state_command_received",
        ),
        (
            CONNECTION_MANAGER,
            "INFO",
            "SCM endpoint scm1.example.com:9861 re-resolved: scm1.example.com/10.20.0.11:9861 -> scm1.example.com/10.20.0.42:9861",
            "scm_endpoint_re_resolved",
        ),
        (
            CONNECTION_MANAGER,
            "WARN",
            "Failed to close stale endpoint for scm1.example.com:9861",
            "stale_endpoint_close_failed",
        ),
        (
            CONNECTION_MANAGER,
            "WARN",
            "Trying to add an existing SCM Machine to Machines group. Ignoring the request.",
            "scm_machine_already_added",
        ),
        (
            CONNECTION_MANAGER,
            "INFO",
            "Adding Recon Server : recon.example.com:9891",
            "recon_server_added",
        ),
        (
            VERSION_TASK,
            "DEBUG",
            "Cannot execute GetVersion task as endpoint state machine is in HEARTBEAT state",
            "stale_version_task",
        ),
        (
            VERSION_TASK,
            "ERROR",
            "Marking volume /data/disk2/hdds as failed",
            "volume_marked_failed",
        ),
        (
            REGISTER_TASK,
            "ERROR",
            "DatanodeDetails cannot be null in RegisterEndpoint task, shutting down the endpoint.",
            "register_endpoint_shutdown",
        ),
        (
            CLOSE_HANDLER,
            "DEBUG",
            "Processing Close Container command container #2043",
            "close_command_processing",
        ),
        (
            CLOSE_HANDLER,
            "DEBUG",
            "Cannot close the container #2043, the container is in CLOSED state.",
            "close_container_skipped",
        ),
    ];
    for (class, level, message, kind) in cases {
        for line in both_layouts(&endpoint_thread(), class, level, message) {
            let (e, entities) = one(&line);
            assert_eq!(e.kind(), *kind, "{line}");
            assert_eq!(e.datanode(), Some(DN), "{line}");
            assert!(KINDS.iter().any(|k| k.kind == *kind));
            if class == &CLOSE_HANDLER || kind == &"close_command_received" {
                assert!(entities.contains(&Entity::Container(2043)), "{line}");
            }
        }
    }
    let kinds: std::collections::BTreeSet<&str> = KINDS.iter().map(|k| k.kind).collect();
    assert_eq!(kinds.len(), cases.len() + 5);
}

#[test]
fn fields_of_numbered_and_split_templates() {
    let cases = [
        (
            format!(
                "2026-03-04 12:00:31,010 [{}] WARN {STATE_CONTEXT}: No available thread in pool for the past 120 seconds and 4 times.\n",
                daemon_thread()
            ),
            DnEndpointEvent::TaskPoolBusy {
                datanode: Some(DN.into()),
                seconds: Some(120),
                times: Some(4),
            },
            vec![Entity::datanode(DN).unwrap()],
        ),
        (
            "2026-03-04 12:02:01,730 [main] INFO org.apache.hadoop.ozone.container.common.statemachine.SCMConnectionManager: SCM endpoint scm1.example.com:9861 re-resolved: scm1.example.com/10.20.0.11:9861 -> scm1.example.com/10.20.0.42:9861\n".to_string(),
            DnEndpointEvent::ScmEndpointReResolved {
                datanode: None,
                endpoint: "scm1.example.com:9861".into(),
                old_address: "scm1.example.com/10.20.0.11:9861".into(),
                new_address: "scm1.example.com/10.20.0.42:9861".into(),
            },
            vec![],
        ),
        (
            format!(
                "2026-03-04 12:02:01,730 [{}] DEBUG {HEARTBEAT_TASK}: Illegal state GETVERSION found, expecting HEARTBEAT.\n",
                endpoint_thread()
            ),
            DnEndpointEvent::ReregisterIllegalState {
                datanode: Some(DN.into()),
                endpoint: Some(ADDR.into()),
                state: "GETVERSION".into(),
                expected: "HEARTBEAT".into(),
            },
            vec![Entity::datanode(DN).unwrap()],
        ),
    ];
    for (line, expected, entities) in cases {
        assert_eq!(one(&line), (expected, entities), "{line}");
    }
}

const HEARTBEAT_PROTO: &str = "datanodeDetails {
  uuid: \"3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c\"
  hostName: \"dn1\"
  ports {
name: \"RATIS\"
value: 9858
  }
}
incrementalContainerReport {
  report {
containerID: 2045
state: CLOSED
originNodeId: \"3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c\"
  }
}
containerActions {
  containerActions {
containerID: 2043
action: CLOSE
reason: CONTAINER_FULL
  }
  containerActions {
containerID: 2077
action: CLOSE
reason: CONTAINER_UNHEALTHY
  }
}
pipelineActions {
  pipelineActions {
action: CLOSE
closePipeline {
  pipelineID {
    id: \"8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d\"
  }
  reason: PIPELINE_FAILED
  detailedReason: \"containerID: 9 is a {brace} in text\"
}
  }
}
commandQueueReport {
}";

#[test]
fn heartbeat_message_lists_actions_and_incremental_reports() {
    let mut lines = HEARTBEAT_PROTO.lines();
    let first = lines.next().unwrap_or_default();
    let file = format!(
        "2026-09-14 02:12:37,911 [{}] DEBUG {HEARTBEAT_TASK}: Sending heartbeat message : {first}\n{}\n",
        endpoint_thread(),
        lines.clone().collect::<Vec<_>>().join("\n")
    );
    let compose: String = std::iter::once(format!(
        "datanode2-1  | 2026-09-14 02:12:37,911 [{}] DEBUG endpoint.HeartbeatEndpointTask: Sending heartbeat message : {first}\n",
        endpoint_thread()
    ))
    .chain(lines.map(|l| format!("datanode2-1  | {l}\n")))
    .collect();
    let single_line = format!(
        "2026-09-14 02:12:37,911 [{}] DEBUG {HEARTBEAT_TASK}: Sending heartbeat message : {}\n",
        endpoint_thread(),
        HEARTBEAT_PROTO
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    );
    for text in [file, compose, single_line] {
        let (e, entities) = one(&text);
        let DnEndpointEvent::HeartbeatSent {
            endpoint,
            container_actions,
            icrs,
            pipeline_actions,
            ..
        } = e
        else {
            panic!("not a heartbeat: {e:?}");
        };
        assert_eq!(endpoint.as_deref(), Some(ADDR));
        assert_eq!(
            container_actions,
            vec![
                ContainerActionRef {
                    container: 2043,
                    action: "CLOSE".into(),
                    reason: "CONTAINER_FULL".into()
                },
                ContainerActionRef {
                    container: 2077,
                    action: "CLOSE".into(),
                    reason: "CONTAINER_UNHEALTHY".into()
                }
            ]
        );
        assert_eq!(
            icrs,
            vec![IcrRef {
                container: 2045,
                state: "CLOSED".into()
            }]
        );
        assert_eq!(pipeline_actions, 1);
        assert_eq!(
            entities,
            vec![
                Entity::Datanode(DN.into()),
                Entity::Container(2043),
                Entity::Container(2077),
                Entity::Container(2045)
            ]
        );
    }
}

#[test]
fn other_classes_and_audit_logs_are_left_alone() {
    let line = format!(
        "2026-09-14 02:12:35,353 [{DN}-ChunkWriter-1-0] WARN org.apache.hadoop.ozone.container.common.impl.HddsDispatcher: Triggered immediate heartbeat because of full volume.\n"
    );
    let all = typed(&line);
    assert!(!matches!(
        all[0].1.as_ref().map(|t| &t.data),
        Some(EventData::DnEndpoint(_))
    ));
    // The handler's INFO/ERROR outcomes belong to the datanode catalogue
    // (`close_container_handling`); this module types its DEBUG lines only.
    let line = format!(
        "2026-09-14 02:12:35,353 [{DN}-CommandProcessorThread] INFO {CLOSE_HANDLER}: Marking Container 2043 quasi closed\n"
    );
    assert!(!matches!(
        typed(&line)[0].1.as_ref().map(|t| &t.data),
        Some(EventData::DnEndpoint(_))
    ));
    // A known class with an unknown message is not typed by this module.
    let line = format!(
        "2026-09-14 02:12:35,353 [{}] WARN {RUNNING}: something else entirely\n",
        daemon_thread()
    );
    assert!(typed(&line)[0].1.is_none());
    // Broken input never panics.
    for msg in [
        "Detected timeout: ",
        "Unable to communicate to ",
        "Illegal state ",
        "Sending heartbeat message : }}} {{ : \"",
        "Marking Container x quasi closed",
    ] {
        for class in CLASSES_FOR_FUZZ {
            let line = format!("2026-09-14 02:12:35,353 [\u{e9}{DN}] WARN {class}: {msg}\n");
            let _ = typed(&line);
        }
    }
}

const CLASSES_FOR_FUZZ: &[&str] = &[
    RUNNING,
    STATE_CONTEXT,
    DN_STATE_MACHINE,
    ENDPOINT_SM,
    CONNECTION_MANAGER,
    HEARTBEAT_TASK,
    VERSION_TASK,
    REGISTER_TASK,
    CLOSE_HANDLER,
];

#[test]
fn layout_without_logger_still_types_by_message() {
    // Vendor layout `%d{ISO8601} %p %c: %m%n` always has a logger; a layout without `%c`
    // (a custom pattern) falls back to every statement's literal.
    let record = Record {
        logger: None,
        ..record_of(
            "",
            &format!("Detected timeout: Timeout occurred on endpoint: {ADDR}"),
            "",
        )
    };
    let t = classify(&record, Component::Datanode).map(|t| t.data.kind());
    assert_eq!(t, Some("endpoint_timeout"));
}
