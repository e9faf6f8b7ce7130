//! The rule on small traces built from scm.md §4.3/§4.4 lines, parsed by the real catalogue.

use super::*;
use crate::testing;
use crate::{LoggingCoverage, Settings};
use oztrace_parser::event::Event;
use oztrace_parser::source::Component;

const DN: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27";
const DN3: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27(dn3.example.com/10.0.1.13)";
const SCM1: &str = "1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5";
const SCM2: &str = "2d1e3f40-5b6c-4d7e-9f80-a1b2c3d4e5f6";
const NODE: &str = "org.apache.hadoop.hdds.scm.node";
const HA: &str = "org.apache.hadoop.hdds.scm.ha";

/// One log line: host, time (`HH:MM:SS,mmm` on 2026-08-20), logger, level, message; `None` logger
/// = an SCM audit message.
struct Line(
    &'static str,
    &'static str,
    Option<String>,
    &'static str,
    String,
);

fn main_line(
    host: &'static str,
    time: &'static str,
    logger: String,
    level: &'static str,
    msg: String,
) -> Line {
    Line(host, time, Some(logger), level, msg)
}

fn audit(host: &'static str, time: &'static str, msg: String) -> Line {
    Line(host, time, None, "INFO", msg)
}

fn parse(lines: &[Line]) -> Vec<Event> {
    let mut events =
        testing::numbered(
            lines
                .iter()
                .map(|Line(host, time, logger, level, msg)| match logger {
                    Some(logger) => (
                        *host,
                        Component::Scm,
                        format!("2026-08-20 {time} [main] {level} {logger}: {msg}"),
                    ),
                    None => (
                        *host,
                        Component::ScmAudit,
                        format!("2026-08-20 {time} | {level:<5} | SCMAudit | {msg} |  "),
                    ),
                }),
        );
    events.sort_by_key(|e| e.ts);
    events
}

fn check(lines: &[Line]) -> Output {
    check_with(lines, &LoggingCoverage::default())
}

fn check_with(lines: &[Line], logging: &LoggingCoverage) -> Output {
    testing::run_with(
        &OverwrittenOpState,
        vec![parse(lines)],
        &Settings::default(),
        logging,
    )
}

fn found(lines: &[Line]) -> Option<Confidence> {
    let out = check(lines);
    assert!(out.findings.len() <= 1);
    out.findings.first().map(|f| {
        assert_eq!(f.entity, Entity::Datanode(DN.into()));
        f.confidence
    })
}

fn node(logger: &str) -> String {
    format!("{NODE}.{logger}")
}

/// An INFO line of the SCM node package's `class`.
fn node_info(host: &'static str, time: &'static str, class: &str, msg: String) -> Line {
    main_line(host, time, node(class), "INFO", msg)
}

/// An INFO line of the SCM HA package's `class`.
fn ha_info(host: &'static str, time: &'static str, class: &str, msg: String) -> Line {
    main_line(host, time, format!("{HA}.{class}"), "INFO", msg)
}

// ---- building blocks (scm.md §4.3)

fn admission() -> Vec<Line> {
    vec![
        node_info("scm1", "14:02:10,329", "NodeDecommissionManager", format!("Starting Decommission for node {DN3}")),
        audit("scm1", "14:02:10,331", r#"user=hadoop | ip=10.0.0.21 | op=DECOMMISSION_NODES {"nodes":"[dn3.example.com]","force":"false"} | ret=SUCCESS"#.into()),
    ]
}

fn leader(host: &'static str, time: &'static str, id: &str, term: u64) -> Vec<Line> {
    vec![
        ha_info(
            host,
            time,
            "SCMStateMachine",
            format!("current SCM {id} becomes leader of term {term}"),
        ),
        ha_info(
            host,
            time,
            "SCMContext",
            format!("update <isLeader,term> from <false,0> to <true,{term}>"),
        ),
    ]
}

fn step_down(host: &'static str, time: &'static str, id: &str, term: u64) -> Vec<Line> {
    vec![
        ha_info(
            host,
            time,
            "SCMStateMachine",
            format!("SCM {id} steps down from being leader."),
        ),
        ha_info(
            host,
            time,
            "SCMContext",
            format!("update <isLeader,term> from <true,{term}> to <false,0>"),
        ),
    ]
}

fn copy(time: &'static str, reported: &str, stored: &str) -> Line {
    main_line(
        "scm1",
        time,
        node("SCMNodeManager"),
        "INFO",
        format!(
            "Update the operationalState saved in follower SCM for {DN3} as the reported value ({reported}, 0) does not match the value stored in SCM ({stored}, 0)"
        ),
    )
}

fn abort_warn(time: &'static str) -> Line {
    main_line(
        "scm1",
        time,
        node("DatanodeAdminMonitorImpl"),
        "WARN",
        format!(
            "Datanode {DN3} has an operational state of IN_SERVICE when it should be undergoing decommission or maintenance. Aborting admin for this node."
        ),
    )
}

fn tick(time: &'static str) -> Line {
    main_line(
        "scm1",
        time,
        node("DatanodeAdminMonitorImpl"),
        "INFO",
        "There are 1 nodes tracked for decommission and maintenance.  0 pending nodes.".into(),
    )
}

fn race() -> Vec<Line> {
    vec![
        copy("14:03:01,877", "IN_SERVICE", "DECOMMISSIONING"),
        abort_warn("14:03:10,004"),
        copy("14:03:10,005", "DECOMMISSIONING", "IN_SERVICE"),
        tick("14:03:10,010"),
    ]
}

/// The leader's push of the operational state it stores to dn3, which reported another.
fn scheduling(host: &'static str, time: &'static str, reported: &str, stored: &str) -> Line {
    node_info(
        host,
        time,
        "SCMNodeManager",
        format!(
            "Scheduling a command to update the operationalState persisted on {DN3} as the reported value ({reported}, 0) does not match the value stored in SCM ({stored}, 0)"
        ),
    )
}

fn in_service_heartbeat(time: &'static str) -> Line {
    audit(
        "scm1",
        time,
        format!(
            r#"user=hadoop | ip=10.0.1.13 | op=SEND_HEARTBEAT {{"datanodeUUID":"{DN}","term":"5","command":"[commandType: setNodeOperationalStateCommand setNodeOperationalStateCommandProto {{ cmdId: 117359301 nodeOperationalState: IN_SERVICE stateExpiryEpochSeconds: 0 }} term: 5 encodedToken: \"\" deadlineMsSinceEpoch: 0]"}} | ret=SUCCESS"#
        ),
    )
}

/// scm1 steps down from term 3 and leads again at term 5.
fn re_elected(down: &'static str, up: &'static str) -> Vec<Line> {
    let mut lines = step_down("scm1", down, SCM1, 3);
    lines.extend(leader("scm1", up, SCM1, 5));
    lines
}

/// scm1 leads (term 3), starts decommissioning dn3 and steps down: where every story starts.
fn admitted_then_stepped_down() -> Vec<Line> {
    let mut lines = leader("scm1", "14:00:00,000", SCM1, 3);
    lines.extend(admission());
    lines.extend(step_down("scm1", "14:02:44,561", SCM1, 3));
    lines
}

/// An operator's recommission of dn3 through `host`, as NodeDecommissionManager logs it.
fn queued_for_recommission(host: &'static str, time: &'static str) -> Line {
    node_info(
        host,
        time,
        "NodeDecommissionManager",
        format!("Queued node {DN3} for recommission"),
    )
}

/// Its audit: DECOMMISSION_NODES without `force` (dn3 named as `nodes`).
fn recommission_audit(host: &'static str, time: &'static str, nodes: &str) -> Line {
    audit(
        host,
        time,
        format!(
            r#"user=hadoop | ip=10.0.0.21 | op=DECOMMISSION_NODES {{"nodes":"[{nodes}]"}} | ret=SUCCESS"#
        ),
    )
}

fn bug(with_race: bool) -> Vec<Line> {
    let mut lines = admitted_then_stepped_down();
    if with_race {
        lines.extend(race());
    }
    lines.extend(leader("scm1", "14:03:15,390", SCM1, 5));
    lines.push(scheduling(
        "scm1",
        "14:03:31,902",
        "DECOMMISSIONING",
        "IN_SERVICE",
    ));
    lines.push(in_service_heartbeat("14:03:31,903"));
    lines
}

#[test]
fn race_then_re_election_and_in_service_push_is_confirmed() {
    let out = check(&bug(true));
    let finding = &out.findings[0];
    assert_eq!(finding.confidence, Confidence::Confirmed);
    assert_eq!(finding.related, vec![Entity::Scm(SCM1.into())]);
    let roles: Vec<Role> = finding.evidence.iter().map(|e| e.role).collect();
    assert_eq!(roles.iter().filter(|r| **r == Role::Cause).count(), 2);
    assert_eq!(roles.iter().filter(|r| **r == Role::Effect).count(), 2);
    assert!(out.gaps.is_empty());
}

#[test]
fn re_election_and_push_without_the_race_lines_is_likely() {
    assert_eq!(found(&bug(false)), Some(Confidence::Likely));
}

#[test]
fn the_race_alone_is_possible() {
    let mut lines = admitted_then_stepped_down();
    lines.extend(race());
    assert_eq!(found(&lines), Some(Confidence::Possible));
}

#[test]
fn without_the_heartbeat_audit_a_likely_finding_names_the_gap() {
    let mut lines = bug(false);
    lines.pop();
    let out = check(&lines);
    assert_eq!(out.findings[0].confidence, Confidence::Likely);
    assert_eq!(out.gaps.len(), 1);
    assert_eq!(out.gaps[0].hosts, vec!["scm1".to_string()]);
    assert!(out.gaps[0].enable[0].ends_with("SCMDatanodeHeartbeatDispatcher=DEBUG"));
    // With the dispatcher at DEBUG the main log shows the command: no gap.
    let mut logging = LoggingCoverage::default();
    logging.record("scm1", "server.SCMDatanodeHeartbeatDispatcher", "DEBUG");
    assert!(check_with(&lines, &logging).gaps.is_empty());
}

#[test]
fn a_real_recommission_is_silent() {
    // scm.md §4.4(a): audit without `force`, `Queued node`, `Recommissioned node` before the push.
    let mut lines = bug(true);
    lines.insert(
        lines.len() - 2,
        queued_for_recommission("scm1", "14:03:20,011"),
    );
    lines.insert(
        lines.len() - 2,
        recommission_audit("scm1", "14:03:20,019", "dn3.example.com"),
    );
    assert_eq!(found(&lines), None);

    // The audit alone (its main log rotated away) is enough.
    let mut lines = bug(true);
    lines.insert(
        lines.len() - 2,
        recommission_audit("scm1", "14:03:20,019", "10.0.1.13:9858"),
    );
    assert_eq!(found(&lines), None);

    // Or the monitor's `Recommissioned node …TrackedNode@d71c744d` (hash of DN).
    let mut lines = bug(true);
    lines.insert(lines.len() - 2, node_info("scm1", "14:03:25,003", "DatanodeAdminMonitorImpl", "Recommissioned node org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl$TrackedNode@d71c744d".into()));
    assert_eq!(found(&lines), None);
}

#[test]
fn a_tracked_node_hash_names_the_datanode_printed_last() {
    // dn9's msb and lsb are dn3's with the same bit flipped: the same `UUID.hashCode()`.
    const DN9: &str = "4f6a2c1e-8b3d-4e2b-9c71-0d5e8f3a1b26(dn9.example.com/10.0.1.19)";
    let recommissioned = || {
        node_info("scm1", "14:03:25,003", "DatanodeAdminMonitorImpl", "Recommissioned node org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl$TrackedNode@d71c744d".into())
    };
    let dn9_starts = |time| {
        node_info(
            "scm1",
            time,
            "NodeDecommissionManager",
            format!("Starting Decommission for node {DN9}"),
        )
    };
    // dn9 printed before dn3's last line: the hash is dn3's, whose decommission is recommissioned.
    let mut lines = bug(true);
    lines.insert(lines.len() - 2, dn9_starts("14:03:24,001"));
    lines.insert(lines.len() - 2, recommissioned());
    assert_eq!(found(&lines), None);
    // dn9 printed last, by a line whose only trace of it is its text: the hash is dn9's, and
    // dn3's decommission was dropped.
    let mut lines = bug(true);
    lines.insert(lines.len() - 2, recommissioned());
    lines.push(audit(
        "scm1",
        "14:03:40,001",
        format!(r#"user=hadoop | ip=10.0.1.19 | op=GET_VERSION {{"node":"{DN9}"}} | ret=SUCCESS"#),
    ));
    assert_eq!(found(&lines), Some(Confidence::Confirmed));
}

#[test]
fn a_failover_where_the_new_leader_continues_is_silent() {
    // scm.md §4.4(b): scm2 continues and completes; nobody pushes IN_SERVICE.
    let mut lines = admitted_then_stepped_down();
    lines.extend(leader("scm2", "14:02:45,102", SCM2, 4));
    lines.push(node_info(
        "scm2",
        "14:02:45,131",
        "NodeDecommissionManager",
        format!("Continue admin for datanode {DN3}"),
    ));
    lines.push(node_info("scm2", "14:32:40,121", "DatanodeAdminMonitorImpl", format!(
        "Datanode {DN3} has completed the admin workflow. The operational state has been set to DECOMMISSIONED")));
    lines.push(scheduling(
        "scm2",
        "14:33:01,900",
        "DECOMMISSIONING",
        "DECOMMISSIONED",
    ));
    assert_eq!(found(&lines), None);
}

#[test]
fn a_node_dying_during_decommission_is_silent() {
    // scm.md §4.4(c): the leader aborts a dead node by design; when it returns, the leader pushes
    // its IN_SERVICE.
    let mut lines = leader("scm1", "14:00:00,000", SCM1, 3);
    lines.extend(admission());
    lines.push(node_info(
        "scm1",
        "14:12:10,000",
        "DeadNodeHandler",
        format!("A dead datanode is detected. {DN3}"),
    ));
    lines.push(main_line("scm1", "14:12:40,000", node("DatanodeAdminMonitorImpl"), "ERROR", format!(
        "Datanode {DN3} is dead but is not IN_MAINTENANCE. Aborting the admin workflow for this node")));
    lines.extend(re_elected("14:20:00,000", "14:21:00,000"));
    lines.push(scheduling(
        "scm1",
        "14:30:00,000",
        "DECOMMISSIONING",
        "IN_SERVICE",
    ));
    assert_eq!(found(&lines), None);
}

#[test]
fn an_abort_on_a_leader_after_a_recommission_is_silent() {
    // scm1 keeps dn3 tracked across its step-down; the operator recommissions through scm2; scm1,
    // re-elected, aborts the stale entry as leader.
    let mut lines = admitted_then_stepped_down();
    lines.extend(leader("scm2", "14:02:45,102", SCM2, 4));
    lines.push(queued_for_recommission("scm2", "14:05:00,000"));
    lines.push(recommission_audit(
        "scm2",
        "14:05:00,010",
        "dn3.example.com",
    ));
    lines.push(copy("14:06:01,000", "IN_SERVICE", "DECOMMISSIONING"));
    lines.extend(leader("scm1", "14:06:10,000", SCM1, 6));
    lines.push(abort_warn("14:06:40,004"));
    assert_eq!(found(&lines), None);
}

#[test]
fn a_follower_abort_without_a_racing_copy_is_silent() {
    // The follower read IN_SERVICE and nothing was overwritten: the datanode itself is IN_SERVICE.
    let mut lines = admitted_then_stepped_down();
    lines.push(copy("14:03:01,877", "IN_SERVICE", "DECOMMISSIONING"));
    lines.push(abort_warn("14:03:10,004"));
    lines.push(tick("14:03:10,010"));
    assert_eq!(found(&lines), None);
}

#[test]
fn the_dispatcher_debug_line_shows_the_push_when_the_audit_is_missing() {
    let mut lines = bug(true);
    lines.pop();
    lines.push(main_line(
        "scm1",
        "14:03:31,903",
        "org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher".into(),
        "DEBUG",
        format!(
            "Heartbeat dispatched for datanode {DN3} with commands [setNodeOperationalStateCommand: cmdID: 117359301, encodedToken: \"\", term: 5, deadlineMsSinceEpoch: 0, opState: IN_SERVICE, stateExpiryEpochSeconds: 0]"
        ),
    ));
    let mut logging = LoggingCoverage::default();
    logging.record(
        "scm1",
        "org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher",
        "DEBUG",
    );
    let out = check_with(&lines, &logging);
    let finding = &out.findings[0];
    assert_eq!(finding.confidence, Confidence::Confirmed);
    assert_eq!(
        finding
            .evidence
            .iter()
            .filter(|e| e.role == Role::Effect)
            .count(),
        2
    );
    assert!(out.gaps.is_empty());
}

#[test]
fn maintenance_ending_by_expiry_is_silent() {
    // A maintenance window that expires on a re-elected leader: IN_SERVICE by design.
    let mut lines = leader("scm1", "14:00:00,000", SCM1, 3);
    lines.push(node_info(
        "scm1",
        "14:02:10,329",
        "NodeDecommissionManager",
        format!("Starting Maintenance for node {DN3}"),
    ));
    lines.extend(re_elected("14:02:44,561", "14:03:15,390"));
    lines.push(node_info(
        "scm1",
        "18:02:40,000",
        "DatanodeAdminMonitorImpl",
        format!("Datanode {DN3} has ended maintenance automatically"),
    ));
    lines.push(scheduling(
        "scm1",
        "18:03:01,000",
        "IN_MAINTENANCE",
        "IN_SERVICE",
    ));
    assert_eq!(found(&lines), None);
    // Without the expiry line the same push is the bug's effect.
    lines.remove(lines.len() - 2);
    assert_eq!(found(&lines), Some(Confidence::Likely));
}

#[test]
fn the_kinds_whose_fields_are_read_are_catalogued_scm_kinds() {
    // A misspelt kind would read as `unrecognized`, and its lines would never be opened.
    let scm: Vec<&str> = Family::Scm.kinds().iter().map(|info| info.kind).collect();
    for read in FIELDS_READ {
        let Reads::Kind(kind) = read else {
            panic!("{read:?} is not one kind");
        };
        assert!(scm.contains(kind), "{kind} is not an SCM kind");
    }
}
