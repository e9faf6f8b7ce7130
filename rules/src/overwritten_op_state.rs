//! `overwritten-op-state` (HDDS-17219): a stepped-down SCM's admin monitor overwrites the
//! operational state a heartbeat just copied, and the SCM, re-elected, drops an accepted
//! decommission (or maintenance) by telling the datanode IN_SERVICE.
//!
//! Evidence chain (scm.md §4.2, issue 5), per datanode D:
//! - admission: `Starting Decommission|Maintenance for node D`, or the audit DECOMMISSION_NODES
//!   with `force` / START_MAINTENANCE_NODES naming D's host (SUCCESS);
//! - the race on SCM X while follower (`scm-role`): the WARN `Datanode D has an operational state
//!   of IN_SERVICE … Aborting admin` and, in the same monitor tick, the heartbeat copy of
//!   DECOMMISSIONING (the `node-admin` machine's inferred abort-write-over-copy step);
//! - the effect on X, leader again: `Scheduling a command … reported value (DECOMMISSIONING |
//!   ENTERING_MAINTENANCE | IN_MAINTENANCE, …) … stored in SCM (IN_SERVICE, …)`, with no
//!   `Continue admin for datanode D` on X since it became leader, and X the SCM that took the
//!   request or tracked D before that leadership began;
//! - nowhere between admission and effect: a recommission (audit DECOMMISSION_NODES without
//!   `force` naming D, `Queued node D for recommission`, `Recommissioned node …TrackedNode@hash(D)`)
//!   a dead-node abort of D (by design, scm.md §4.4(c)) or the automatic end of its maintenance.
//!
//! `confirmed` = race, then re-election and effect on X; `likely` = re-election and effect without
//! the race lines; `possible` = the race alone (not when a recommission later ends the request).
//! A gap names X when the IN_SERVICE push cannot be seen: no SEND_HEARTBEAT audit from X and
//! `SCMDatanodeHeartbeatDispatcher` not at DEBUG there.

use crate::RuleFamily;
use crate::coverage::{Need, SCM_SERVICE_LOGS};
use crate::{
    Confidence, Context, Evidence, Finding, Gap, Output, Role, RuleDoc, SettingDoc, Severity,
};
use oztrace_analyzer::Analysis;
use oztrace_analyzer::graph::EdgeKind;
use oztrace_analyzer::kinds::{Family, KindSet, Reads};
use oztrace_analyzer::machines::node_admin::{self, ABORT_WRITE_OVERWRITES_COPY};
use oztrace_analyzer::machines::scm_role;
use oztrace_analyzer::trace::{EventId, Trace};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::scm::{AdminAction, HeartbeatCommand, ScmAudit, ScmEvent};
use oztrace_parser::entity::{DatanodeRef, Entity, find_datanode_details, uuid_hash_code};
use oztrace_parser::source::{Component, short_host};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;

pub const ID: &str = "overwritten-op-state";

const HEARTBEAT_DISPATCHER: &str =
    "org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher";

/// Op states of a running admin workflow the datanode may report.
const ADMIN_STATES: &[&str] = &["DECOMMISSIONING", "ENTERING_MAINTENANCE", "IN_MAINTENANCE"];

const ADMISSION_SPREAD: &str = "oztrace.overwritten-op-state.admission-spread";

const SETTINGS: &[SettingDoc] = &[SettingDoc {
    key: ADMISSION_SPREAD,
    default: "60s",
    default_from: "oztrace: one admin request prints `Force flag …`, `Starting Decommission …` and its audit record \
on one IPC handler within one call, milliseconds apart unless the pre-check walks many containers; a minute keeps \
them together and still separates a request an operator repeats",
    used_for: "the lines cited as the accepted request: those at most this long before the admission",
}];

declare_rule! {
    /// A stepped-down SCM's admin monitor overwrites the reported op state; re-elected, it drops the decommission
    ///
    /// ## What it detects
    ///
    /// An accepted decommission or maintenance silently undone: the SCM that tracked the node
    /// steps down, its DatanodeAdminMonitorImpl (which runs on every SCM and keeps its tracked
    /// nodes) reads IN_SERVICE and aborts the workflow while a heartbeat reporting DECOMMISSIONING
    /// is copied in between, so its abort write replaces the copy; re-elected before the next
    /// heartbeat, the SCM's onBecomeLeader sees IN_SERVICE (no `Continue admin`) and tells the
    /// datanode IN_SERVICE.
    ///
    /// ## Why it matters
    ///
    /// The operator's decommission or maintenance is dropped with no error: the datanode returns
    /// to IN_SERVICE, replication for the decommission stops, and the node is not drained. No data
    /// is lost; the operator has to issue the request again. Only the abort write racing a
    /// heartbeat is harmful (HDDS-5090 accepts the loss for a failover before the state reaches
    /// the followers).
    ///
    /// ## Example
    ///
    /// scm1's log (`samples/HDDS-17219-bug-follower-abort-race`): the decommission starts, scm1
    /// steps down, its monitor aborts while a heartbeat copy is written, scm1 is re-elected with
    /// no `Continue admin` and tells the datanode IN_SERVICE:
    ///
    /// ```text
    /// 2026-11-28 02:03:14,329 [IPC Server handler 0 on default port 9860] INFO org.apache.hadoop.hdds.scm.node.NodeDecommissionManager: Starting Decommission for node eeef75e3-b676-4243-868a-0f77f54eb9ab(dn3.example.com/10.0.1.13)
    /// 2026-11-28 02:03:36,119 [e5d1cb83-4d6a-4f3a-b670-34b81d5932d1@group-D0A0914FB878-LeaderStateImpl] INFO org.apache.hadoop.hdds.scm.ha.SCMStateMachine: SCM e5d1cb83-4d6a-4f3a-b670-34b81d5932d1 steps down from being leader.
    /// 2026-11-28 02:04:10,007 [scm1-DatanodeAdminManager-0] WARN org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl: Datanode eeef75e3-b676-4243-868a-0f77f54eb9ab(dn3.example.com/10.0.1.13) has an operational state of IN_SERVICE when it should be undergoing decommission or maintenance. Aborting admin for this node.
    /// 2026-11-28 02:04:10,008 [IPC Server handler 0 on default port 9861] INFO org.apache.hadoop.hdds.scm.node.SCMNodeManager: Update the operationalState saved in follower SCM for eeef75e3-b676-4243-868a-0f77f54eb9ab(dn3.example.com/10.0.1.13) as the reported value (DECOMMISSIONING, 0) does not match the value stored in SCM (IN_SERVICE, 0)
    /// 2026-11-28 02:04:14,932 [e5d1cb83-4d6a-4f3a-b670-34b81d5932d1@group-D0A0914FB878-LeaderElection44] INFO org.apache.hadoop.hdds.scm.ha.SCMStateMachine: current SCM e5d1cb83-4d6a-4f3a-b670-34b81d5932d1 becomes leader of term 11
    /// 2026-11-28 02:04:31,242 [IPC Server handler 0 on default port 9861] INFO org.apache.hadoop.hdds.scm.node.SCMNodeManager: Scheduling a command to update the operationalState persisted on eeef75e3-b676-4243-868a-0f77f54eb9ab(dn3.example.com/10.0.1.13) as the reported value (DECOMMISSIONING, 0) does not match the value stored in SCM (IN_SERVICE, 0)
    /// ```
    ///
    /// and its audit log, the request and the IN_SERVICE command:
    ///
    /// ```text
    /// 2026-11-28 02:03:14,331 | INFO  | SCMAudit | user=hadoop | ip=10.0.0.21 | op=DECOMMISSION_NODES {"nodes":"[dn3.example.com]","force":"false"} | ret=SUCCESS |
    /// 2026-11-28 02:04:31,242 | INFO  | SCMAudit | user=hadoop | ip=10.0.1.13 | op=SEND_HEARTBEAT {"datanodeUUID":"eeef75e3-b676-4243-868a-0f77f54eb9ab","term":"11","command":"[commandType: setNodeOperationalStateCommand setNodeOperationalStateCommandProto { cmdId: 117364235 nodeOperationalState: IN_SERVICE stateExpiryEpochSeconds: 0 } term: 11 encodedToken: \"\" deadlineMsSinceEpoch: 0]"} | ret=SUCCESS |
    /// ```
    ///
    /// Kinds: `decommission_started`, `scm_stepped_down`, `admin_aborted`,
    /// `follower_op_state_copied`, `scm_became_leader`, `op_state_command_scheduled`, `scm_audit`,
    /// `scm_audit`.
    ///
    /// ## Evidence and confidence
    ///
    /// Context: the admission (audit DECOMMISSION_NODES with `force` or START_MAINTENANCE_NODES,
    /// `Starting Decommission for node`), the step-down of the SCM (scm-role machine:
    /// SCMContext/SCMStateMachine lines, or SEND_HEARTBEAT audit lines losing their `term`), its
    /// re-election. Cause: the follower's abort WARN with op state IN_SERVICE and the heartbeat
    /// copy of the admin state in the same monitor tick (the node-admin machine infers the
    /// unlogged abort write over it). Effect: the re-elected leader's `Scheduling a command …
    /// (DECOMMISSIONING, …) … (IN_SERVICE, …)`, the SEND_HEARTBEAT audit carrying
    /// setNodeOperationalStateCommand IN_SERVICE, `Notifying ReplicationManager … -> IN_SERVICE`.
    ///
    /// - `confirmed`: the race, then re-election and the effect on that SCM with no recommission;
    /// - `likely`: re-election and the effect with no `Continue admin` for the node, without the
    ///   race lines;
    /// - `possible`: the race alone (the next heartbeat repairs a follower unless it is re-elected
    ///   first).
    ///
    /// ## Look-alikes
    ///
    /// - A failover during the decommission whose new leader continues it (`Continue admin for
    ///   datanode`; `HDDS-17219-control-failover-continues`).
    /// - An operator recommission (audit DECOMMISSION_NODES without `force`, `Queued node … for
    ///   recommission`, `Recommissioned node …TrackedNode@hash`) between admission and effect,
    ///   even when a re-elected leader aborts afterwards
    ///   (`HDDS-17219-control-real-recommission`,
    ///   `HDDS-17219-control-leader-abort-after-recommission`).
    /// - The datanode dying during the decommission: the dead-node abort is by design
    ///   (`HDDS-17219-control-node-dies`).
    /// - An abort on a leader, and the end of a maintenance window.
    pub struct OverwrittenOpState;
}

static DOC: RuleDoc = RuleDoc {
    id: ID,
    consumes: CONSUMES,
    machines: &[scm_role::NAME, node_admin::NAME],
    ticket: "HDDS-17219",
    severity: Severity::Medium,
    family: RuleFamily::Signature,
    markdown: OverwrittenOpState::MARKDOWN,
    settings: SETTINGS,
    loggers: &[
        "log4j.logger.org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher=DEBUG",
    ],
    needs: &[
        SCM_SERVICE_LOGS,
        Need::optional("SCM audit logs", &[Component::ScmAudit]),
    ],
    remediation: REMEDIATION,
};

/// What an operator does about a dropped decommission (HDDS-17219).
const REMEDIATION: crate::Remediation = crate::Remediation {
    affected: "1.2.0 and later with SCM HA (HDDS-5090 added the follower copy of the \
operational state and the resume on leadership), through 2.2.x and master.",
    fixed_in: None,
    fix: "Open. Proposed: the decommission monitor writes an operational state only while its \
SCM is leader, so a follower takes the state from heartbeats and a re-elected leader resumes \
the workflow.",
    actions: &[
        crate::Action {
            purpose: "See the datanode's operational state as the leader SCM holds it now",
            command: Some("ozone admin datanode list --id {datanode}"),
        },
        crate::Action {
            purpose: "See which SCM leads (the one that dropped the decommission was re-elected)",
            command: Some("ozone admin scm roles"),
        },
        crate::Action {
            purpose: "Issue the decommission again (`ozone admin datanode maintenance \
{datanode_host}` for a maintenance); no data was lost",
            command: Some("ozone admin datanode decommission {datanode_host}"),
        },
        crate::Action {
            purpose: "Follow it to the end",
            command: Some("ozone admin datanode status decommission --json"),
        },
    ],
    attach: &[
        "every SCM's log from the decommission request to the IN_SERVICE command (this \
finding's evidence), with the leader changes",
        "every SCM's audit log (DECOMMISSION_NODES, SEND_HEARTBEAT of the datanode)",
        "the datanode's log for the same time",
        "`ozone admin scm roles` and `ozone admin datanode list --id` output",
    ],
};

/// The kinds the rule reads: the SCM's node, admin-monitor and audit lines.
pub const CONSUMES: &[Reads] = &[Reads::Family(Family::Scm)];

/// The kinds whose fields [`Facts::collect`] reads (its `match`): the other SCM kinds count only
/// for the datanodes they name or print.
const FIELDS_READ: &[Reads] = &[
    Reads::Kind("scm_audit"),
    Reads::Kind("decommission_started"),
    Reads::Kind("maintenance_started"),
    Reads::Kind("recommission_queued"),
    Reads::Kind("admin_aborted_dead"),
    Reads::Kind("admin_dead_cannot_continue"),
    Reads::Kind("admin_maintenance_ended"),
    Reads::Kind("continue_admin"),
    Reads::Kind("admin_start_on_node"),
    Reads::Kind("admin_recommissioned"),
    Reads::Kind("admin_aborted"),
    Reads::Kind("op_state_command_scheduled"),
    Reads::Kind("follower_op_state_copied"),
    Reads::Kind("heartbeat_dispatched"),
    Reads::Kind("op_state_change_notified"),
];

fn check(context: &Context<'_>, out: &mut Output) {
    let analysis = context.analysis;
    let facts = Facts::collect(&analysis.trace);
    let spread_ms = context.settings.duration_ms(&SETTINGS[0]);
    let mut audit_gap_hosts: BTreeSet<String> = BTreeSet::new();
    for (uuid, node) in &facts.nodes {
        let Some(finding) = node.finding(analysis, uuid, spread_ms) else {
            continue;
        };
        // The IN_SERVICE push is only default-on in the SCM audit (SEND_HEARTBEAT); without it
        // and without the dispatcher's DEBUG line, the command reaching the datanode is unseen.
        for e in finding.evidence.iter().filter(|e| e.role == Role::Effect) {
            let host = &*analysis.trace.get(e.event).host;
            if !facts.heartbeat_audit_hosts.contains(host)
                && !context.logging.enabled(host, HEARTBEAT_DISPATCHER, "DEBUG")
            {
                audit_gap_hosts.insert(host.to_string());
            }
        }
        out.findings.push(finding);
    }
    for host in audit_gap_hosts {
        out.gaps.push(Gap {
            rule: ID,
            missing: "the setNodeOperationalStateCommand the re-elected SCM returned to the datanode: no \
SEND_HEARTBEAT audit records from this SCM (audit log missing, or SEND_HEARTBEAT demoted to DEBUG)"
                .to_string(),
            enable: vec![
                format!("log4j.logger.{HEARTBEAT_DISPATCHER}=DEBUG"),
                "ozone.audit.log.debug.cmd.list.scmaudit= (ozone-site.xml: keep SEND_HEARTBEAT out of the list)"
                    .to_string(),
            ],
            hosts: vec![host],
        });
    }
}

/// What the trace says about one datanode, as event ids in trace order.
#[derive(Debug, Default)]
struct Node {
    admissions: Vec<EventId>,
    /// Recommissions, dead-node aborts and maintenance expiry: each ends an admission by design.
    cancels: Vec<EventId>,
    aborts: Vec<EventId>,
    continues: Vec<EventId>,
    /// Lines of an SCM tracking or taking the request (start, continue, admin start).
    tracking: Vec<EventId>,
    effects: Vec<EventId>,
    /// SEND_HEARTBEAT audits telling the datanode IN_SERVICE, and RM notifications `-> IN_SERVICE`.
    told_in_service: Vec<EventId>,
    copies: Vec<EventId>,
}

struct Facts {
    nodes: HashMap<String, Node>,
    heartbeat_audit_hosts: HashSet<String>,
}

/// Which list of a [`Node`] a line goes to.
type Pick = fn(&mut Node) -> &mut Vec<EventId>;

impl Facts {
    /// Reads the SCM family's events in one pass (most of them heartbeat audits, naming the same
    /// few datanodes again and again). Lines that name a datanode by host or by hash code are
    /// resolved after it, once every `uuid(host/ip)` and every printed UUID is known.
    fn collect(trace: &Trace) -> Facts {
        // When each UUID was last printed (a count of prints), by the trace's interned entity
        // for those an event names and by each `uuid(host/ip)` as printed for those its message
        // prints: the same few are printed again and again, so each UUID's names and Java hash
        // code are read once at the end, not per print.
        let mut prints = 0;
        // By interned entity (0: never printed), with whether each is a datanode, read once.
        let datanodes: Vec<bool> = (trace.entity_ids())
            .map(|e| matches!(**trace.entity(e), Entity::Datanode(_)))
            .collect();
        let mut entity_printed: Vec<usize> = vec![0; datanodes.len()];
        let mut text_printed: HashMap<(&str, &str, &str), usize> = HashMap::default();
        let mut nodes: HashMap<String, Node> = HashMap::default();
        // By interned host: the hosts whose SCM audit logs heartbeats.
        let mut heartbeat_audit_hosts = vec![false; trace.host_count()];
        let mut by_hosts: Vec<(EventId, Pick, &[String])> = Vec::new();
        let mut by_hash_code: Vec<(EventId, u32)> = Vec::new();
        let scm = KindSet::of(CONSUMES);
        let fields_read = KindSet::of(FIELDS_READ);
        // Most SCM records are heartbeats that say nothing this rule reads but their datanode
        // and host: those are not opened.
        let mut quiet = trace.quiet_heartbeats().iter().peekable();
        // Only these print a datanode as `uuid(host/ip)`: the others' text is not read.
        let mut printers = trace.datanode_printers().iter().peekable();
        for id in trace.of_kinds(&scm) {
            let quiet = quiet.next_if(|&&at| at == id).is_some();
            while printers.next_if(|&&at| at < id).is_some() {}
            let printer = printers.next_if(|&&at| at == id).is_some();
            // An event of a kind whose fields are not read, printing no datanode, counts only
            // for the datanodes it names: it is not opened either.
            let opened = !quiet && (printer || fields_read.contains(trace.kind_of(id)));
            let event = opened.then(|| trace.get(id));
            let data = match event.map(|event| &event.data) {
                Some(EventData::Scm(data)) => Some(data),
                Some(_) => continue,
                None => None,
            };
            for &e in trace.entity_ids_of(id) {
                if datanodes[e.index()] {
                    prints += 1;
                    entity_printed[e.index()] = prints;
                }
            }
            let (Some(event), Some(data)) = (event, data) else {
                if quiet {
                    heartbeat_audit_hosts[trace.host_of(id).index()] = true;
                }
                continue;
            };
            if printer {
                for found in find_datanode_details(&event.text) {
                    let DatanodeRef { uuid, host, ip } = found.value;
                    prints += 1;
                    text_printed.insert((uuid, host, ip), prints);
                }
            }
            let mut push = |uuid: &str, pick: Pick| push_to(&mut nodes, uuid, pick, id);
            match data {
                ScmEvent::Audit(audit) => {
                    if audit.op == "SEND_HEARTBEAT" {
                        heartbeat_audit_hosts[trace.host_of(id).index()] = true;
                        if tells_in_service(audit)
                            && let Some(uuid) = audit.params.get("datanodeUUID")
                        {
                            push(&uuid.to_ascii_lowercase(), |n| &mut n.told_in_service);
                        }
                    }
                    if audit.ret != "SUCCESS" {
                        continue;
                    }
                    let pick: Pick = match audit.action {
                        Some(AdminAction::Decommission | AdminAction::Maintenance) => {
                            |n| &mut n.admissions
                        }
                        Some(AdminAction::Recommission) => |n| &mut n.cancels,
                        None => continue,
                    };
                    by_hosts.push((id, pick, &audit.nodes));
                }
                ScmEvent::AdminStarted { datanode, .. } => {
                    push(datanode, |n| &mut n.admissions);
                    push(datanode, |n| &mut n.tracking);
                }
                ScmEvent::Node { kind, datanode, .. } => match *kind {
                    "recommission_queued"
                    | "admin_aborted_dead"
                    | "admin_dead_cannot_continue"
                    | "admin_maintenance_ended" => {
                        push(datanode, |n| &mut n.cancels);
                    }
                    "continue_admin" => {
                        push(datanode, |n| &mut n.continues);
                        push(datanode, |n| &mut n.tracking);
                    }
                    _ => {}
                },
                ScmEvent::NodePipelines {
                    kind: "admin_start_on_node",
                    datanode,
                    ..
                } => push(datanode, |n| &mut n.tracking),
                ScmEvent::TrackedNode {
                    kind: "admin_recommissioned",
                    ..
                } => by_hash_code.extend(data.tracked_node_hash().map(|h| (id, h))),
                ScmEvent::AdminAborted { datanode, op_state } if op_state == "IN_SERVICE" => {
                    push(datanode, |n| &mut n.aborts);
                }
                ScmEvent::OpStateMismatch {
                    kind: "op_state_command_scheduled",
                    datanode,
                    reported,
                    stored,
                    ..
                } if stored == "IN_SERVICE" && ADMIN_STATES.contains(&reported.as_str()) => {
                    push(datanode, |n| &mut n.effects);
                }
                ScmEvent::OpStateMismatch {
                    kind: "follower_op_state_copied",
                    datanode,
                    ..
                } => push(datanode, |n| &mut n.copies),
                ScmEvent::HeartbeatDispatched { datanode, commands }
                    if commands.iter().any(sets_in_service) =>
                {
                    push(datanode, |n| &mut n.told_in_service);
                }
                ScmEvent::OpStateChangeNotified { datanode, to, .. } if to == "IN_SERVICE" => {
                    push(datanode, |n| &mut n.told_in_service);
                }
                _ => {}
            }
        }
        // Names (host and ip) of each datanode, from every `uuid(host/ip)` printed.
        let mut by_name: HashMap<String, BTreeSet<String>> = HashMap::default();
        let mut uuid_printed: HashMap<String, usize> = HashMap::default();
        for (&(uuid, host, ip), &last) in &text_printed {
            let uuid = uuid.to_ascii_lowercase();
            for name in [host, ip] {
                by_name
                    .entry(short_host(name))
                    .or_default()
                    .insert(uuid.clone());
            }
            let known = uuid_printed.entry(uuid).or_insert(last);
            *known = (*known).max(last);
        }
        for (id, pick, hosts) in by_hosts {
            for uuid in hosts
                .iter()
                .flat_map(|h| by_name.get(&short_host(h)).into_iter().flatten())
            {
                push_to(&mut nodes, uuid, pick, id);
            }
        }
        // The datanode of each hash code: the UUID printed last wins.
        let mut last_printed: HashMap<&str, usize> = uuid_printed
            .iter()
            .map(|(uuid, &last)| (uuid.as_str(), last))
            .collect();
        for (e, &last) in trace.entity_ids().zip(&entity_printed) {
            if last == 0 {
                continue;
            }
            if let Entity::Datanode(uuid) = &**trace.entity(e) {
                let known = last_printed.entry(uuid).or_insert(last);
                *known = (*known).max(last);
            }
        }
        let mut by_hash: HashMap<u32, (usize, &str)> = HashMap::default();
        for (&uuid, &last) in &last_printed {
            if let Some(hash) = uuid_hash_code(uuid) {
                let known = by_hash.entry(hash).or_insert((last, uuid));
                if last > known.0 {
                    *known = (last, uuid);
                }
            }
        }
        for (id, hash) in by_hash_code {
            if let Some(&(_, uuid)) = by_hash.get(&hash) {
                push_to(&mut nodes, uuid, |n| &mut n.cancels, id);
            }
        }
        // The lines resolved after the pass join their lists in trace order.
        for node in nodes.values_mut() {
            node.admissions.sort_unstable();
            node.cancels.sort_unstable();
        }
        nodes.retain(|_, n| {
            !n.admissions.is_empty() && (!n.aborts.is_empty() || !n.effects.is_empty())
        });
        Facts {
            nodes,
            heartbeat_audit_hosts: (trace.hosts().zip(heartbeat_audit_hosts))
                .filter(|&(_, audits)| audits)
                .map(|(host, _)| host.to_string())
                .collect(),
        }
    }
}

/// Adds line `id` to `uuid`'s list `pick`.
fn push_to(nodes: &mut HashMap<String, Node>, uuid: &str, pick: Pick, id: EventId) {
    if let Some(node) = nodes.get_mut(uuid) {
        pick(node).push(id);
    } else {
        pick(nodes.entry(uuid.to_string()).or_default()).push(id);
    }
}

/// A SEND_HEARTBEAT returning setNodeOperationalStateCommand IN_SERVICE.
fn tells_in_service(audit: &ScmAudit) -> bool {
    audit.commands.iter().any(sets_in_service)
}

fn sets_in_service(command: &HeartbeatCommand) -> bool {
    command.sets_op_state() == Some("IN_SERVICE")
}

/// The follower abort race on one SCM: the WARN and the copy its write replaced.
struct Race {
    warn: EventId,
    copy: EventId,
    admission: EventId,
}

impl Race {
    /// The abort WARN and the copy it overwrote on `host`, as causes.
    fn evidence(&self, host: &str) -> [Evidence; 2] {
        [
            Evidence {
                event: self.warn,
                role: Role::Cause,
                note: format!(
                    "{host}, not leader, aborts the admin workflow after reading IN_SERVICE"
                ),
            },
            Evidence {
                event: self.copy,
                role: Role::Cause,
                note: format!(
                    "heartbeat copy of the datanode's admin state on {host} in the same monitor tick: the abort write replaces it"
                ),
            },
        ]
    }
}

/// The re-elected leader's IN_SERVICE push.
struct Dropped {
    effect: EventId,
    admission: EventId,
    /// The scm-role transition that made the SCM leader.
    elected: EventId,
    /// Its step-down before that, when logged or inferred.
    stepped_down: Option<EventId>,
}

fn last_before(ids: &[EventId], before: EventId) -> Option<EventId> {
    ids.iter().copied().take_while(|&i| i < before).last()
}

fn any_between(ids: &[EventId], after: EventId, before: EventId) -> bool {
    ids.iter().any(|&i| i > after && i < before)
}

fn same_host(trace: &Trace, a: EventId, b: EventId) -> bool {
    trace.get(a).host == trace.get(b).host
}

impl Node {
    /// The admission a step at `at` belongs to, if no recommission or dead-node abort ended it.
    fn live_admission(&self, at: EventId) -> Option<EventId> {
        let admission = last_before(&self.admissions, at)?;
        (!any_between(&self.cancels, admission, at)).then_some(admission)
    }

    /// Whether a recommission or dead-node abort ends `admission` before any newer admission: the
    /// operator (or the design) wanted the node out of the workflow anyway.
    fn cancelled_later(&self, admission: EventId) -> bool {
        let next = self
            .admissions
            .iter()
            .copied()
            .find(|&a| a > admission)
            .unwrap_or(usize::MAX);
        any_between(&self.cancels, admission, next)
    }

    fn races(&self, analysis: &Analysis, uuid: &str) -> Vec<Race> {
        let trace = &analysis.trace;
        let entity = Entity::Datanode(uuid.to_string());
        let mut out = Vec::new();
        for &warn in &self.aborts {
            let host = &*trace.get(warn).host;
            if scm_role::is_leader(&analysis.replay, trace, host, warn) != Some(false) {
                continue;
            }
            let Some(admission) = self.live_admission(warn) else {
                continue;
            };
            // The inferred overwrite at the WARN (copy logged before it) or at the copy after it,
            // before the next abort of this node on this host.
            let next_abort = self
                .aborts
                .iter()
                .copied()
                .find(|&a| a > warn && same_host(trace, a, warn))
                .unwrap_or(usize::MAX);
            // The node-admin machine's steps, in event order, from the WARN on: read there,
            // not through the replay's index by entity, which only this would build.
            let steps = analysis.replay.of_machine(node_admin::NAME).as_slice();
            let from = steps.partition_point(|t| t.event < warn);
            let overwrite = steps[from..]
                .iter()
                .take_while(|t| t.event < next_abort)
                .find(|t| {
                    t.inferred == Some(ABORT_WRITE_OVERWRITES_COPY)
                        && t.scope.as_deref() == Some(host)
                        && *t.entity == entity
                });
            let Some(overwrite) = overwrite else {
                continue;
            };
            let copy = if overwrite.event == warn {
                self.copies
                    .iter()
                    .copied()
                    .rev()
                    .find(|&c| c < warn && same_host(trace, c, warn))
            } else {
                Some(overwrite.event)
            };
            if let Some(copy) = copy {
                out.push(Race {
                    warn,
                    copy,
                    admission,
                });
            }
        }
        out
    }

    fn drops(&self, analysis: &Analysis) -> Vec<Dropped> {
        let trace = &analysis.trace;
        let mut out = Vec::new();
        for &effect in &self.effects {
            let host = &*trace.get(effect).host;
            let Some(admission) = self.live_admission(effect) else {
                continue;
            };
            let Some(elected) = scm_role::role_at(&analysis.replay, host, effect) else {
                continue;
            };
            if !elected.to.starts_with("LEADER") || elected.event <= admission {
                continue;
            }
            // This SCM took the request or tracked the node before its leadership began.
            let took_it = self
                .admissions
                .iter()
                .chain(&self.tracking)
                .any(|&i| i >= admission && i < elected.event && same_host(trace, i, effect));
            let continued = self
                .continues
                .iter()
                .any(|&c| c >= elected.event && c < effect && same_host(trace, c, effect));
            if !took_it || continued {
                continue;
            }
            let stepped_down = analysis
                .replay
                .of_machine(scm_role::NAME)
                .filter(|t| {
                    t.scope.as_deref() == Some(host)
                        && t.event > admission
                        && t.event < elected.event
                        && t.from.starts_with("LEADER")
                })
                .map(|t| t.event)
                .next_back();
            out.push(Dropped {
                effect,
                admission,
                elected: elected.event,
                stepped_down,
            });
        }
        out
    }

    fn finding(&self, analysis: &Analysis, uuid: &str, spread_ms: i64) -> Option<Finding> {
        let trace = &analysis.trace;
        let races = self.races(analysis, uuid);
        let drops = self.drops(analysis);
        // Confirmed: a race on the dropping SCM after the admission and before its re-election.
        let confirmed = drops.iter().find_map(|d| {
            races
                .iter()
                .find(|r| {
                    same_host(trace, r.warn, d.effect)
                        && r.admission == d.admission
                        && r.warn < d.elected
                        && d.stepped_down.is_none_or(|s| s < r.warn)
                })
                .map(|r| (d, r))
        });
        let mut evidence = Vec::new();
        let note = |event: EventId, role: Role, note: String| Evidence { event, role, note };
        let (confidence, reason, admission, host) = if let Some((drop, race)) = confirmed {
            let host = trace.get(drop.effect).host.to_string();
            evidence.extend(race.evidence(&host));
            self.drop_evidence(analysis, drop, &mut evidence);
            (
                Confidence::Confirmed,
                format!(
                    "the follower abort raced a heartbeat copy on {host}, which was then re-elected and told the datanode \
IN_SERVICE with no recommission and no `Continue admin`"
                ),
                drop.admission,
                host,
            )
        } else if let Some(drop) = drops.first() {
            let host = trace.get(drop.effect).host.to_string();
            self.drop_evidence(analysis, drop, &mut evidence);
            (
                Confidence::Likely,
                format!(
                    "{host} was re-elected and told the datanode IN_SERVICE with no recommission and no `Continue admin`; \
the follower abort race itself is not in the logs"
                ),
                drop.admission,
                host,
            )
        } else if let Some(race) = races.iter().find(|r| !self.cancelled_later(r.admission)) {
            let host = trace.get(race.warn).host.to_string();
            evidence.extend(race.evidence(&host));
            if let Some(down) = analysis
                .replay
                .of_machine(scm_role::NAME)
                .filter(|t| {
                    t.scope.as_deref() == Some(host.as_str())
                        && t.event < race.warn
                        && t.from.starts_with("LEADER")
                })
                .map(|t| t.event)
                .next_back()
            {
                evidence.push(note(
                    down,
                    Role::Context,
                    format!("{host} stops being leader"),
                ));
            }
            (
                Confidence::Possible,
                format!(
                    "the follower abort raced a heartbeat copy on {host}; no re-election of {host} followed by an \
IN_SERVICE push is in the logs (the next heartbeat repairs a follower)"
                ),
                race.admission,
                host,
            )
        } else {
            return None;
        };
        // The request's lines (`Force flag …`, `Starting Decommission …`, the audit) around the admission.
        for &a in &self.admissions {
            let same_request = a <= admission
                && trace
                    .elapsed(a, admission)
                    .is_some_and(|ms| ms <= spread_ms);
            if same_request {
                evidence.push(note(
                    a,
                    Role::Context,
                    "the decommission or maintenance is accepted".to_string(),
                ));
            }
        }
        let entity = Entity::Datanode(uuid.to_string());
        let related: Vec<Entity> = scm_entity(analysis, &host).into_iter().collect();
        let summary = match confidence {
            Confidence::Confirmed => format!(
                "An accepted decommission/maintenance of datanode {uuid} was dropped: SCM {host}'s admin monitor \
overwrote the reported state while follower, and {host}, re-elected, told the datanode IN_SERVICE without any \
recommission (HDDS-17219)."
            ),
            Confidence::Likely => format!(
                "An accepted decommission/maintenance of datanode {uuid} was probably dropped: SCM {host}, re-elected \
without continuing it, told the datanode IN_SERVICE without any recommission (HDDS-17219)."
            ),
            Confidence::Possible => format!(
                "SCM {host}'s admin monitor overwrote the reported admin state of datanode {uuid} with IN_SERVICE while \
follower; a re-election before the next heartbeat would drop the decommission/maintenance (HDDS-17219)."
            ),
        };
        Some(Finding {
            rule: ID,
            entity,
            related,
            confidence,
            reason,
            summary,
            evidence,
        })
    }

    fn drop_evidence(&self, analysis: &Analysis, drop: &Dropped, evidence: &mut Vec<Evidence>) {
        let trace = &analysis.trace;
        let host = trace.get(drop.effect).host.to_string();
        if let Some(down) = drop.stepped_down {
            let inferred = analysis
                .replay
                .of_event(down)
                .any(|t| t.machine == scm_role::NAME && t.inferred.is_some());
            let how = if inferred {
                " (inferred: its SEND_HEARTBEAT audit records lose their `term`)"
            } else {
                ""
            };
            evidence.push(Evidence {
                event: down,
                role: Role::Context,
                note: format!("{host}, which took or tracked the request, stops being leader{how}"),
            });
        }
        evidence.push(Evidence {
            event: drop.elected,
            role: Role::Context,
            note: format!(
                "{host} becomes leader again; no `Continue admin` for the datanode follows"
            ),
        });
        evidence.push(Evidence {
            event: drop.effect,
            role: Role::Effect,
            note: format!(
                "leader {host} schedules IN_SERVICE although the datanode persisted the admin state"
            ),
        });
        // The heartbeat response that carried the command (the `op-state-command` causal link),
        // else the next line of that SCM saying the datanode is told or reports IN_SERVICE.
        let delivered = analysis
            .graph
            .outgoing(drop.effect)
            .find(|(_, edge)| edge.kind == EdgeKind::Causal)
            .map(|(to, _)| to);
        let told = delivered.or_else(|| {
            self.told_in_service
                .iter()
                .copied()
                .find(|&t| t > drop.effect && same_host(trace, t, drop.effect))
        });
        if let Some(told) = told {
            evidence.push(Evidence {
                event: told,
                role: Role::Effect,
                note: "the datanode is told or reports IN_SERVICE".to_string(),
            });
        }
    }
}

/// The SCM entity `scm-role` uses for `host`.
fn scm_entity(analysis: &Analysis, host: &str) -> Option<Entity> {
    analysis
        .replay
        .of_machine(scm_role::NAME)
        .find(|t| t.scope.as_deref() == Some(host))
        .map(|t| (*t.entity).clone())
}

#[cfg(test)]
mod tests;
