use super::*;
use crate::machines::container::tests::scm_event;
use oztrace_parser::catalog::classify;
use oztrace_parser::catalog::datanode::DatanodeEvent;
use oztrace_parser::event::Event;
use oztrace_parser::record::Record;
use oztrace_parser::source::{Component, Level};

const MIN: i64 = 60_000;
const RM: &str = "org.apache.hadoop.hdds.scm.container.replication.ReplicationManager";
const UUID: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27";

/// A dn-container record of `host` (level as the layout prints it).
fn dn(host: &str, line: u64, ts: i64, level: Level, fields: &str) -> Event {
    let record = Record {
        line,
        ts: Some(ts),
        level: Some(level),
        thread: None,
        logger: None,
        message: fields.to_string(),
        throwable: None,
        continuation: String::new(),
        continuation_lines: 0,
        host: None,
        component: None,
        headerless: false,
    };
    let typed = classify(&record, Component::DnContainer).expect("typed");
    Event {
        ts: Some(ts),
        host: host.into(),
        component: Component::DnContainer,
        level: Some(level),
        thread: None,
        logger: None,
        entities: typed.entities.into(),
        data: typed.data,
        file: format!("{host}/dn-container-{host}.log").into(),
        line,
        continuation_lines: 0,
        text: fields.into(),
        copies: Box::default(),
    }
}

fn state(host: &str, line: u64, ts: i64, index: u32, bcsid: u64, s: &str) -> Event {
    dn(
        host,
        line,
        ts,
        Level::Info,
        &format!(
            "ID=7 | Index={index} | BCSID={bcsid} | State={s} | Volume=/data/disk1/hdds | DataChecksum=0"
        ),
    )
}

fn kinds(events: Vec<Event>) -> Vec<(HealthKind, &'static str, Basis)> {
    let trace = Trace::from_ordered(events, 0);
    trace
        .replicas()
        .health(&trace, 7, &HealthConfig::default())
        .into_iter()
        .map(|v| (v.kind, v.label, v.basis))
        .collect()
}

#[test]
fn replication_reads_what_scm_prints_and_ozone_site_sets() {
    assert_eq!(
        Replication::parse("RATIS/THREE"),
        Some(Replication::Ratis { factor: 3 })
    );
    assert_eq!(
        Replication::parse("ONE").map(Replication::expected),
        Some(1)
    );
    let ec = Replication::parse("EC{rs-6-3-1024k}").expect("ec");
    assert_eq!(
        (ec.expected(), ec.to_string().as_str()),
        (9, "EC{rs-6-3-1024k}")
    );
    assert_eq!(
        Replication::parse("xor-2-1-1024k").map(Replication::expected),
        Some(3)
    );
    assert_eq!(Replication::parse("EC{lz4-1-1-1k}"), None);
    let c = admin_count(0, "admin_under_replicated_container", "Container State: CLOSED Replica Count: 3 Healthy (I/D/M): 2/1/0 Unhealthy (I/D/M): 0/0/0 inFlightAdd: 0 inFightDel: 0 ReplicationFactor: 3 minMaintenance: 2").expect("ratis");
    assert_eq!((c.in_service, c.decommissioning, c.maintenance), (2, 1, 0));
    let c = admin_count(0, "admin_under_replicated_container", "Container State: CLOSED, Replicas: (Count: 5, Healthy: 4, Maintenance: 1), ReplicationConfig: EC{rs-3-2-1024k}, RemainingMaintenanceRedundancy: 1").expect("ec");
    assert_eq!((c.in_service, c.decommissioning, c.maintenance), (4, 0, 1));
    assert_eq!(
        HealthKind::parse("UNDER_REPLICATED"),
        Some(HealthKind::UnderReplicated)
    );
    assert_eq!(
        HealthKind::parse("container-quasi-closed-stuck"),
        Some(HealthKind::QuasiClosedStuck)
    );
    assert_eq!(
        HealthKind::parse("open-unhealthy"),
        Some(HealthKind::UnhealthyReplica)
    );
}

fn closed_three() -> Vec<Event> {
    ["dn1", "dn2", "dn3"]
        .iter()
        .enumerate()
        .flat_map(|(i, h)| {
            [
                state(h, 1, i as i64, 0, 0, "OPEN"),
                state(h, 2, MIN + i as i64, 0, 90, "CLOSED"),
            ]
        })
        .collect()
}

#[test]
fn a_lost_replica_not_replaced_is_under_replicated_unless_a_copy_is_in_flight() {
    let mut events = closed_three();
    events.push(dn("dn2", 3, 10 * MIN, Level::Error, "ID=7 | Index=0 | BCSID=90 | State=CLOSED | Volume=/data/disk1/hdds | DataChecksum=0 | Volume failure"));
    // The logs go on for an hour.
    events.push(state("dn1", 4, 70 * MIN, 0, 0, "OPEN").tap_id(8));
    let verdicts = kinds(events.clone());
    assert_eq!(
        verdicts,
        vec![(HealthKind::UnderReplicated, "UNDER_REPLICATED", Basis::Logs)]
    );

    // A replicate command sent just before the end: being replicated right now.
    let mut replicating = events;
    replicating.insert(
        replicating.len() - 1,
        scm_event("scm1", 9, 65 * MIN, RM, &format!(
            "Sending command [replicateContainerCommand: cmdID: 5, encodedToken: \"\", term: 0, deadlineMsSinceEpoch: 0, containerId=7, replicaIndex=0, targetNode={UUID}(dn4.example.com/10.0.1.14), priority=NORMAL] for container ContainerInfo{{id=#7, state=CLOSED, stateEnterTime=2026-01-01T00:01:00Z, pipelineID=Pipeline-8f2b4c6d-1a3e-4f50-9b7c-2d4e6f8a0b1c, owner=om1}} to {UUID}(dn1.example.com/10.0.1.11) with datanode deadline 1 and scm deadline 2"
        )),
    );
    assert_eq!(kinds(replicating), vec![]);
}

/// The verdicts of each kind, decided for every kind at the first question, are those each
/// kind's own decision gives; a question under another config is decided under that config.
#[test]
fn verdicts_of_a_kind_are_its_own_decisions_under_the_config_asked() {
    let mut events = closed_three();
    events.push(dn("dn2", 3, 10 * MIN, Level::Error, "ID=7 | Index=0 | BCSID=90 | State=CLOSED | Volume=/data/disk1/hdds | DataChecksum=0 | Volume failure"));
    events.push(scm_event("scm1", 9, 65 * MIN, RM, &format!(
        "Sending command [replicateContainerCommand: cmdID: 5, encodedToken: \"\", term: 0, deadlineMsSinceEpoch: 0, containerId=7, replicaIndex=0, targetNode={UUID}(dn4.example.com/10.0.1.14), priority=NORMAL] for container ContainerInfo{{id=#7, state=CLOSED, stateEnterTime=2026-01-01T00:01:00Z, pipelineID=Pipeline-8f2b4c6d-1a3e-4f50-9b7c-2d4e6f8a0b1c, owner=om1}} to {UUID}(dn1.example.com/10.0.1.11) with datanode deadline 1 and scm deadline 2"
    )));
    events.push(state("dn1", 4, 70 * MIN, 0, 0, "OPEN").tap_id(8));
    let trace = Trace::from_ordered(events, 0);
    let index = trace.replicas();
    let in_flight = HealthConfig::default();
    let timed_out = HealthConfig {
        event_timeout_ms: 2 * MIN,
        ..in_flight
    };
    let under = |config: &HealthConfig| -> Vec<u64> {
        (index.verdicts(&trace, config, HealthKind::UnderReplicated))
            .map(|(container, _)| container)
            .collect()
    };
    // The replicate command is in flight for 12 minutes, not for 2.
    assert_eq!(under(&in_flight), [] as [u64; 0]);
    assert_eq!(under(&timed_out), [7]);
    assert_eq!(under(&in_flight), [] as [u64; 0]);
    for config in [in_flight, timed_out] {
        for kind in HealthKind::ALL {
            let asked: Vec<Verdict> = (index.verdicts(&trace, &config, kind))
                .map(|(_, verdict)| verdict)
                .collect();
            let alone: Vec<Verdict> = (index.health(&trace, 7, &config).into_iter())
                .filter(|verdict| verdict.kind == kind)
                .collect();
            assert_eq!(asked, alone, "{kind:?}");
        }
    }
}

#[test]
fn the_same_open_line_read_twice_is_one_open_and_a_second_life_is_a_duplicate() {
    let mut events = closed_three();
    // The bundle holds dn1's log twice.
    events.push(state("dn1", 1, 0, 0, 0, "OPEN"));
    assert_eq!(kinds(events.clone()), vec![]);
    events.push(state("dn1", 9, 5 * MIN, 0, 0, "OPEN"));
    assert_eq!(
        kinds(events).first().map(|v| v.0),
        Some(HealthKind::DuplicateOpen)
    );
}

/// A datanode's log collected twice, merged into time order: each line's copy comes after other
/// lines of the replica, and is still found among the steps of its time (OPEN once, not twice).
#[test]
fn a_log_collected_twice_and_merged_has_each_open_once() {
    let copy = |events: &[Event]| -> Vec<Event> {
        (events.iter().cloned())
            .map(|mut e| {
                e.file = format!("copy/{}", e.file).into();
                e
            })
            .collect()
    };
    let dn1 = vec![
        state("dn1", 1, 0, 0, 0, "OPEN"),
        state("dn1", 2, MIN, 0, 80, "CLOSING"),
        state("dn1", 3, MIN, 0, 90, "CLOSED"),
    ];
    let others: Vec<Event> = closed_three()
        .into_iter()
        .filter(|e| &*e.host != "dn1")
        .collect();
    let verdicts = |streams: Vec<Vec<Event>>| {
        let trace = Trace::merge(streams, 0);
        assert!(trace.is_time_ordered());
        (trace
            .replicas()
            .health(&trace, 7, &HealthConfig::default())
            .into_iter())
        .map(|v| v.kind)
        .collect::<Vec<_>>()
    };
    assert_eq!(verdicts(vec![dn1.clone(), copy(&dn1), others.clone()]), []);
    // Another line of that time is not a copy: a second life.
    let mut again = copy(&dn1);
    again[0] = state("dn1", 1, 0, 0, 5, "OPEN");
    assert_eq!(
        verdicts(vec![dn1, again, others]),
        [HealthKind::DuplicateOpen]
    );
}

/// Each OPEN on a datanode of its own is a first one up to the replication (three for RATIS by
/// default; one per index for EC), whatever order the lines come in; past it, or a datanode's
/// second, is a duplicate.
#[test]
fn opens_on_datanodes_of_their_own_are_duplicates_only_past_the_replication() {
    let open = |host: &str, ts: i64, index: u32| state(host, ts as u64 + 1, ts, index, 0, "OPEN");
    let duplicate = |events: Vec<Event>| {
        kinds(events)
            .iter()
            .any(|v| v.0 == HealthKind::DuplicateOpen)
    };
    let three = vec![open("dn3", 0, 0), open("dn1", 1, 0), open("dn2", 2, 0)];
    assert!(!duplicate(three.clone()));
    let mut four = three.clone();
    four.push(open("dn4", 3, 0));
    assert!(duplicate(four));
    let mut again = three;
    again.push(open("dn2", 5, 0));
    assert!(duplicate(again));
    // EC: one OPEN per index, on as many datanodes.
    let ec = vec![open("dn1", 0, 1), open("dn2", 1, 2), open("dn3", 2, 3)];
    assert!(!duplicate(ec.clone()));
    let mut shared_index = ec;
    shared_index.push(open("dn4", 3, 2));
    assert!(duplicate(shared_index));
}

/// An event with a container id other than 7, to extend the logs' end without touching it.
trait TapId {
    fn tap_id(self, id: u64) -> Event;
}

impl TapId for Event {
    fn tap_id(mut self, id: u64) -> Event {
        self.text = self.text.replacen("ID=7", &format!("ID={id}"), 1).into();
        if let EventData::Datanode(DatanodeEvent::DnContainerState { id: c, .. }) = &mut self.data {
            *c = id;
        }
        self
    }
}

#[test]
fn container_logger_lines_are_read_once_into_the_trace_and_follow_the_window() {
    use crate::trace::{ContainerStateLine, LineState, StreamEntities};
    let mut lost = state("dn1", 3, 3 * MIN, 0, 90, "CLOSED");
    lost.level = Some(Level::Error);
    let stream = vec![
        state("dn1", 1, MIN, 2, 10, "OPEN"),
        dn(
            "dn1",
            2,
            2 * MIN,
            Level::Info,
            "ID=7 | Index=0 | BCSID=20 | State=ODD | Volume=/v",
        ),
        lost,
        state("dn1", 4, 4 * MIN, 0, 95, "QUASI_CLOSED"),
    ];
    let line = |bcsid, index, state, error| ContainerStateLine {
        container: 7,
        index,
        bcsid: Some(bcsid),
        state,
        error,
    };
    let trace = Trace::from_ordered(stream.clone(), 0);
    let lines: Vec<(EventId, ContainerStateLine)> = trace
        .container_state_lines()
        .map(|(id, l)| (id, *l))
        .collect();
    assert_eq!(
        lines,
        [
            (0, line(10, 2, LineState::Known(ReplicaState::Open), false)),
            // A word that is no replica state: its readers open the event.
            (1, line(20, 0, LineState::Other, false)),
            (2, line(90, 0, LineState::Known(ReplicaState::Closed), true)),
            (
                3,
                line(95, 0, LineState::Known(ReplicaState::QuasiClosed), false)
            ),
        ]
    );
    assert_eq!(trace.container_state_line(2), Some(&lines[2].1));
    assert_eq!(trace.container_state_line(4), None);
    // The readers' table, cut by a window, gives the lines of the events the window keeps.
    let keep = [false, true, false, true];
    let mut table = StreamEntities::of(&stream);
    table.retain(&keep);
    let kept: Vec<Event> = stream
        .into_iter()
        .zip(keep)
        .filter_map(|(event, keep)| keep.then_some(event))
        .collect();
    let windowed = Trace::merge_interned(vec![(kept, Some(table))], 0);
    let lines: Vec<(EventId, ContainerStateLine)> = windowed
        .container_state_lines()
        .map(|(id, l)| (id, *l))
        .collect();
    assert_eq!(
        lines,
        [
            (0, line(20, 0, LineState::Other, false)),
            (
                1,
                line(95, 0, LineState::Known(ReplicaState::QuasiClosed), false)
            ),
        ]
    );
    assert_eq!(
        windowed.kind_of(1),
        crate::kinds::index_of("dn_container_state")
    );
    // Streams interleave in time: the lines follow the trace's order, not the readers'.
    let first = vec![
        state("dn1", 1, MIN, 0, 1, "OPEN"),
        state("dn1", 2, 3 * MIN, 0, 3, "CLOSING"),
        state("dn1", 3, 5 * MIN, 0, 5, "CLOSED"),
    ];
    let second = vec![
        state("dn2", 1, 2 * MIN, 0, 2, "OPEN"),
        state("dn2", 2, 4 * MIN, 0, 4, "CLOSED"),
    ];
    let streams = [first, second].map(|events| {
        let table = StreamEntities::of(&events);
        (events, Some(table))
    });
    let merged = Trace::merge_interned(streams.into(), 0);
    let bcsids: Vec<(EventId, Option<u64>)> = merged
        .container_state_lines()
        .map(|(id, line)| (id, line.bcsid))
        .collect();
    assert_eq!(bcsids, [1, 2, 3, 4, 5].map(|b| (b as usize - 1, Some(b))));
    assert_eq!(
        merged.container_state_line(3).map(|l| l.bcsid),
        Some(Some(4))
    );
}

/// SCM's report-handler decisions, read from the trace's column, say what their events say: the
/// replica's step (by the datanode's short name), the container's state (an unusual word as
/// printed), the force closes and BCSID mismatches; a replica state that is no
/// `ContainerDataProto.State` adds no step.
#[test]
fn report_handler_decisions_read_from_the_column_say_what_the_events_say() {
    const ICR: &str = "org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler";
    let d = |cstate: &str, rstate: &str, bcsid: u64| {
        format!(
            "Container #7 ({cstate}, sid={bcsid}) r0 ({rstate}, bcsid={bcsid}, origin={UUID}, \
             non-empty) from dn {UUID}(DN5.example.com/10.0.1.15)"
        )
    };
    let events = vec![
        scm_event(
            "scm1",
            1,
            MIN,
            ICR,
            &format!("CLOSE {}", d("CLOSING", "CLOSED", 40)),
        ),
        scm_event(
            "scm1",
            2,
            2 * MIN,
            ICR,
            &format!("FORCE_CLOSE for {}", d("HALF_OPEN", "ODD", 41)),
        ),
        scm_event(
            "scm1",
            3,
            3 * MIN,
            ICR,
            &format!(
                "Replica BCSID mismatched for {} ",
                d("DELETING", "CLOSED", 42)
            ),
        ),
    ];
    let trace = Trace::from_ordered(events, 0);
    assert!(
        trace
            .scm_container_lines()
            .all(|(_, line)| line.action.is_some())
    );
    let index = ContainerReplicas::build(&trace);
    let record = index.get(7).expect("container 7");
    let steps: Vec<(EventId, ReplicaState, Option<u64>, &str)> = record
        .replicas
        .iter()
        .flat_map(|r| {
            r.steps
                .iter()
                .map(move |s| (s.event, s.state, s.bcsid, &*r.host))
        })
        .collect();
    // The mismatch repeats CLOSED with another BCSID: a step of its own.
    assert_eq!(
        steps,
        [
            (0, ReplicaState::Closed, Some(40), "dn5"),
            (2, ReplicaState::Closed, Some(42), "dn5")
        ]
    );
    let first = &record.replicas[0].steps[0];
    assert_eq!(first.seen, Seen::Scm);
    assert_eq!(&**trace.host_name(trace.host_of(first.event)), "scm1");
    assert_eq!(record.said().force_closed, [1]);
    assert_eq!(record.said().bcsid_mismatch, [2]);
    assert_eq!(record.deleting, Some(2));
    assert_eq!(record.scm_state.as_deref(), Some("DELETING"));
    // An unusual container state, as printed.
    let halfway = Trace::from_ordered(trace.iter().take(2).cloned().collect(), 0);
    let index = ContainerReplicas::build(&halfway);
    assert_eq!(
        index.get(7).and_then(|r| r.scm_state.as_deref()),
        Some("HALF_OPEN")
    );
}
