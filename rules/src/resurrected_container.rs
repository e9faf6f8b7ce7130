//! `resurrected-container` (HDDS-17400): the leader SCM moves a DELETING or DELETED container
//! back because of a stale non-empty OPEN, CLOSING or UNHEALTHY replica, so the blocks that were
//! deleted come back and nothing deletes them again.

use crate::RuleFamily;
use crate::coverage::SCM_SERVICE_LOGS;
use crate::{
    Confidence, Context, Evidence, Finding, Gap, Output, Role, RuleDoc, SettingDoc, Severity,
};
use oztrace_analyzer::Analysis;
use oztrace_analyzer::kinds::{Family, Reads};
use oztrace_analyzer::machines::container as container_machine;
use oztrace_analyzer::machines::scm_role;
use oztrace_analyzer::trace::{EventId, Trace};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::scm_container::{ResurrectedEvent, ScmContainerEvent};
use oztrace_parser::entity::Entity;
use rustc_hash::FxHashMap as HashMap;

pub const ID: &str = "resurrected-container";

const FOLLOWER_FAILURE_WINDOW: &str = "oztrace.resurrected-container.follower-failure-window";

const SETTINGS: &[SettingDoc] = &[SettingDoc {
    key: FOLLOWER_FAILURE_WINDOW,
    default: "60s",
    default_from: "oztrace: a follower logs the not-leader failure right after the line, on the same report thread \
(milliseconds); a minute absorbs a report handler busy with a large full report, and a later failure for the same \
replica still says the host was a follower",
    used_for: "a resurrection line followed this soon by a not-leader failure for the same replica on the same SCM \
comes from a follower, whose update is refused: no finding",
}];

/// Aftermath lines kept as evidence.
const MAX_AFTERMATH: usize = 4;

const DEBUG_LOGGERS: &[&str] = &[
    "log4j.logger.org.apache.hadoop.hdds.scm.container.ContainerReportHandler=DEBUG",
    "log4j.logger.org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler=DEBUG",
    "log4j.logger.org.apache.hadoop.hdds.scm.container.states.ContainerStateMap=TRACE",
];

declare_rule! {
    /// DELETED container resurrected by a stale OPEN/CLOSING replica
    ///
    /// ## What it detects
    ///
    /// The leader SCM moving a DELETING or DELETED container back (to QUASI_CLOSED on 2.2 and
    /// HEAD, `Resurrecting container …`; to CLOSED with the 2.1.x `transitionDeletingToClosed` and
    /// 2.0.0 `Moving container` wordings) because a datanode reported a non-empty OPEN, CLOSING or
    /// UNHEALTHY replica whose BCSID is at or below the container's sequence id.
    /// `AbstractContainerReportHandler.updateContainerState` compares the BCSID only for CLOSED and
    /// QUASI_CLOSED replicas.
    ///
    /// ## Why it matters
    ///
    /// The replica belongs to a datanode that was away while the container was emptied and
    /// deleted: it still holds the deleted blocks. They come back without any delete transaction
    /// that refers to them, the ReplicationManager copies them to more datanodes, and the
    /// container is no longer empty, so SCM never deletes it again (space leak; with a second
    /// origin the container can stay QUASI_CLOSED_STUCK_UNDER_REPLICATED).
    ///
    /// ## Example
    ///
    /// The leader SCM's log (`samples/HDDS-17400-bug-stale-open-replica`): the container closes
    /// at sid 4821, dn4 is dead, the empty container is deleted, dn4 comes back with its OPEN
    /// replica at BCSID 4790, and the container is resurrected and replicated:
    ///
    /// ```text
    /// 2026-09-14 07:17:51,089 [scm1-FixedThreadPoolWithAffinityExecutor-0-0] INFO org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler: CLOSE Container #3107 (CLOSING, sid=4821) r0 (CLOSED, bcsid=4821, origin=512a11dc-eeae-449b-b5bf-37d777090c45, non-empty) from dn 512a11dc-eeae-449b-b5bf-37d777090c45(dn1.example.com/10.0.1.21)
    /// 2026-09-14 07:22:45,869 [scm1-EventQueue-DeadNodeForDeadNodeHandler] INFO org.apache.hadoop.hdds.scm.node.DeadNodeHandler: A dead datanode is detected. 9b662579-db39-42ac-871c-b77426507cfc(dn4.example.com/10.0.1.24)
    /// 2026-09-14 08:13:04,855 [scm1-ReplicationMonitor] INFO org.apache.hadoop.hdds.scm.container.replication.ReplicationManager: Sending command [deleteContainerCommand: cmdID: 118840803, encodedToken: "", term: 0, deadlineMsSinceEpoch: 0, containerID: 3107, replicaIndex: 0, force: false] for container ContainerInfo{id=#3107, state=CLOSED, stateEnterTime=2026-09-14T07:17:51.068Z, pipelineID=Pipeline-1a6aace8-1e59-48c1-a58b-ac8ba5b269bd, owner=om1} to 512a11dc-eeae-449b-b5bf-37d777090c45(dn1.example.com/10.0.1.21) with datanode deadline 1789374184855 and scm deadline 1789374784855
    /// 2026-09-14 08:32:33,155 [scm1-EventQueue-HealthyReadonlyNodeForHealthyReadOnlyNodeHandler] INFO org.apache.hadoop.hdds.scm.node.HealthyReadOnlyNodeHandler: Datanode 9b662579-db39-42ac-871c-b77426507cfc(dn4.example.com/10.0.1.24) moved to HEALTHY READONLY state.
    /// 2026-09-14 08:32:58,452 [scm1-FixedThreadPoolWithAffinityExecutor-3-0] INFO org.apache.hadoop.hdds.scm.container.ContainerReportHandler: Resurrecting container #3107 from DELETED to QUASI_CLOSED due to non-empty OPEN replica (keyCount=6, BCSID=4790) from Container #3107 (DELETED, sid=4821) r0 (OPEN, bcsid=4790, origin=9b662579-db39-42ac-871c-b77426507cfc, non-empty) from dn 9b662579-db39-42ac-871c-b77426507cfc(dn4.example.com/10.0.1.24)
    /// 2026-09-14 08:38:35,237 [scm1-UnderReplicatedProcessor] INFO org.apache.hadoop.hdds.scm.container.replication.ReplicationManager: Sending command [replicateContainerCommand: cmdID: 118840856, encodedToken: "", term: 0, deadlineMsSinceEpoch: 0, containerId=3107, replicaIndex=0, targetNode=b54e3728-ca89-4a3a-81ba-17b8713eca8e(dn3.example.com/10.0.1.23), priority=NORMAL] for container ContainerInfo{id=#3107, state=QUASI_CLOSED, stateEnterTime=2026-09-14T08:32:58.453Z, pipelineID=Pipeline-1a6aace8-1e59-48c1-a58b-ac8ba5b269bd, owner=om1} to 9b662579-db39-42ac-871c-b77426507cfc(dn4.example.com/10.0.1.24) with datanode deadline 1789375715237 and scm deadline 1789376315237
    /// ```
    ///
    /// Kinds: `container_close`, `node_dead`, `rm_send_command`, `node_healthy_readonly`,
    /// `container_resurrected`, `rm_send_command`.
    ///
    /// ## Evidence and confidence
    ///
    /// Cause: the leader's resurrection line. The sequence id is taken from the latest earlier
    /// line that prints it for the container (a report-handler `sid=`, `Updating bcsId …`,
    /// `Deleting empty QUASI_CLOSED container … BCSID=`), not counting lines about the same
    /// replica, whose `sid=` updateContainerStats may already have raised to its BCSID.
    /// Context: the earlier sequence id, the RM delete commands, the datanode's dead and return
    /// lines. Effect: what the leader's ReplicationManager sends for the container afterwards
    /// (close, replicate).
    ///
    /// - `confirmed`: BCSID below the printed sid, or at or below an earlier printed sequence id;
    /// - `likely`: no earlier sequence id, and the replica's datanode was seen dead and back
    ///   before the line;
    /// - `possible`: no earlier sequence id and no dead-and-back datanode.
    ///
    /// ## Look-alikes
    ///
    /// - A follower SCM prints the same resurrection line and then fails to apply it: a host is a
    ///   follower when the scm-role machine says so, or when it logs a not-leader failure
    ///   (`Failed to process` with NotLeaderException, `SCM_NOT_LEADER: Failed to process`) for
    ///   that container and replica right after. Its copy is skipped.
    /// - A replica with a BCSID above the earlier printed sequence id holds newer data, and
    ///   moving the container back is by design (HDDS-11136, HDDS-14684), even when the line's own
    ///   `sid=` was already raised to that BCSID
    ///   (`HDDS-17400-control-empty-quasi-closed-resurrected`).
    /// - A stale CLOSED or QUASI_CLOSED replica, older or newer, goes through the BCSID check and
    ///   is force-deleted: the container stays DELETED and no resurrection line is written
    ///   (`HDDS-17400-control-stale-closed-replica-force-deleted`,
    ///   `HDDS-17400-control-newer-data-force-deleted`).
    pub struct ResurrectedContainer;
}

static DOC: RuleDoc = RuleDoc {
    id: ID,
    consumes: CONSUMES,
    machines: &[container_machine::NAME, scm_role::NAME],
    ticket: "HDDS-17400",
    severity: Severity::High,
    family: RuleFamily::Signature,
    markdown: ResurrectedContainer::MARKDOWN,
    settings: SETTINGS,
    loggers: DEBUG_LOGGERS,
    needs: &[SCM_SERVICE_LOGS],
    remediation: REMEDIATION,
};

/// What an operator does about a resurrected container (HDDS-17400).
const REMEDIATION: crate::Remediation = crate::Remediation {
    affected: "2.0.0 and later (2.0.0, 2.1.x, 2.2.x and master): HDDS-12421 moves a DELETING or \
DELETED container back for any non-empty replica; 2.0 and 2.1 move it to CLOSED, 2.2 to QUASI_CLOSED.",
    fixed_in: None,
    fix: "Open. Proposed: keep the container DELETED and send the stale OPEN/CLOSING replica a \
close command, so that the existing BCSID check decides once it reports CLOSED or QUASI_CLOSED; \
needs HDDS-16809 first.",
    actions: &[
        crate::Action {
            purpose: "Find the leader SCM (its log and ReplicationManager act on the container)",
            command: Some("ozone admin scm roles"),
        },
        crate::Action {
            purpose: "See the container's state, sequence id and every replica with its datanode, \
state and BCSID",
            command: Some("ozone admin container info --json {container}"),
        },
        crate::Action {
            purpose: "See the datanode that brought the stale replica back (its state and when it \
was last seen)",
            command: Some("ozone admin datanode list --id {datanode}"),
        },
        crate::Action {
            purpose: "Watch the container in the ReplicationManager's health summary (copies of \
the deleted data, stuck replication)",
            command: Some("ozone admin container report"),
        },
        crate::Action {
            purpose: "Do not delete replica directories by hand: no `ozone admin` command deletes \
a container (HDDS-5328 removed it). The blocks that came back belong to no key, so the cost is \
space, not correctness; keep the evidence and clean up with the fix",
            command: None,
        },
    ],
    attach: &[
        "the leader SCM's log from the datanode's dead line to the resurrection line (this \
finding's evidence), and the other SCMs' logs for the same time",
        "`ozone admin container info --json` of the container",
        "the datanode's log and dn-container log for the container",
        "the SCMs' ozone-site.xml",
    ],
};

/// The kinds the rule reads: the SCM's container lines and its node lines (dead, back).
pub const CONSUMES: &[Reads] = &[
    Reads::Family(Family::ScmContainer),
    Reads::Family(Family::Scm),
];

fn check(context: &Context<'_>, out: &mut Output) {
    let analysis = context.analysis;
    let trace = &analysis.trace;
    let window_ms = context.settings.duration_ms(&SETTINGS[0]);
    let mut host_datanodes = HostDatanodes::default();
    // Only the resurrection lines are opened.
    for &id in trace.of_kind("container_resurrected") {
        let Some(resurrection) = stale_candidate(trace, id) else {
            continue;
        };
        // The container machine replays the line as a step out of DELETING/DELETED on this
        // SCM (the resurrection transition of its table).
        let resurrects = analysis.replay.of_event(id).any(|t| {
            t.machine == container_machine::NAME
                && t.inferred.is_none()
                && matches!(t.from.as_str(), "DELETED" | "DELETING")
        });
        if !resurrects {
            continue;
        }
        if is_follower(analysis, id, resurrection, window_ms) {
            continue;
        }
        if let Some(finding) = judge(analysis, id, resurrection, &mut host_datanodes) {
            if finding.confidence < Confidence::Confirmed {
                push_gap(context, id, out);
            }
            out.findings.push(finding);
        }
    }
}

/// A resurrection of a DELETING/DELETED container by a non-empty OPEN, CLOSING or UNHEALTHY
/// replica (the states the code moves back without a BCSID check).
fn stale_candidate(trace: &Trace, id: EventId) -> Option<&ResurrectedEvent> {
    let EventData::ScmContainer(ScmContainerEvent::Resurrected(e)) = &trace.get(id).data else {
        return None;
    };
    let from_deleted = matches!(e.from.as_str(), "DELETED" | "DELETING");
    let stale_state = matches!(
        e.replica_state.as_deref(),
        Some("OPEN" | "CLOSING" | "UNHEALTHY")
    );
    (from_deleted && stale_state && e.empty != Some(true)).then_some(e)
}

/// The datanode UUID the first report-handler line naming a host prints, by lower-case host: each
/// host is looked up in the trace once, not once per resurrection.
type HostDatanodes = HashMap<String, Option<Entity>>;

/// The datanode of the replica: its UUID, or the host the older wordings print (mapped to a UUID
/// when a report-handler line names the same host).
fn replica_datanode(
    trace: &Trace,
    e: &ResurrectedEvent,
    host_datanodes: &mut HostDatanodes,
) -> Option<Entity> {
    if let Some(dn) = e.datanode.as_deref().and_then(Entity::datanode) {
        return Some(dn);
    }
    let host = e.datanode_host.as_deref()?;
    let mapped = host_datanodes
        .entry(host.to_ascii_lowercase())
        .or_insert_with(|| {
            trace.iter().find_map(|ev| match &ev.data {
                EventData::ScmContainer(data) => data
                    .replica()
                    .filter(|r| r.datanode_host.eq_ignore_ascii_case(host))
                    .and_then(|r| Entity::datanode(&r.datanode)),
                _ => None,
            })
        })
        .clone();
    mapped.or_else(|| Entity::datanode_host(host))
}

/// The same SCM logs a not-leader failure for this container and replica right after the line,
/// or the SCM role machine says this host was not the leader.
fn is_follower(analysis: &Analysis, id: EventId, e: &ResurrectedEvent, window_ms: i64) -> bool {
    let trace = &analysis.trace;
    let event = trace.get(id);
    let on_host = trace.of_host(&event.host);
    let failed = on_host[on_host.partition_point(|&other| other <= id)..]
        .iter()
        .copied()
        .take_while(|&other| trace.elapsed(id, other).is_none_or(|ms| ms <= window_ms))
        .any(|other| match &trace.get(other).data {
            EventData::ScmContainer(ScmContainerEvent::ReportFailed(f)) => {
                f.not_leader
                    && f.replica.container == e.container
                    && e.bcsid.is_none_or(|b| b == f.replica.bcsid)
            }
            EventData::ScmContainer(s @ ScmContainerEvent::Statement(_)) => {
                s.kind() == "container_update_skipped_follower"
                    && s.container() == Some(e.container)
            }
            _ => false,
        });
    failed || scm_role::is_leader(&analysis.replay, trace, &event.host, id) == Some(false)
}

/// A printed sequence id and the line that printed it.
struct PrintedSid {
    sid: i64,
    event: EventId,
}

/// The latest line before `id` that prints the container's sequence id, not counting lines about
/// the same replica report (their `sid=` may have been raised to the replica's BCSID by
/// updateContainerStats), except DEBUG `Processing replica`, which is rendered before the raise.
fn earlier_sid(trace: &Trace, id: EventId, e: &ResurrectedEvent) -> Option<PrintedSid> {
    // Every SCM prints the same report decisions: the leader's own line is the better evidence.
    let host = &trace.get(id).host;
    earlier_sid_on(trace, id, e, Some(host)).or_else(|| earlier_sid_on(trace, id, e, None))
}

fn earlier_sid_on(
    trace: &Trace,
    id: EventId,
    e: &ResurrectedEvent,
    host: Option<&std::sync::Arc<str>>,
) -> Option<PrintedSid> {
    let same_replica = |dn: &str, bcsid: u64| {
        Some(bcsid) == e.bcsid
            && (e.datanode.as_deref() == Some(dn) || e.datanode_host.as_deref() == Some(dn))
    };
    let events = trace.of_entity(&Entity::Container(e.container));
    // The container's events before `id`, latest first (its later history is never read).
    events[..events.partition_point(|&other| other < id)]
        .iter()
        .rev()
        .copied()
        .filter(|&other| host.is_none_or(|h| &trace.get(other).host == h))
        .find_map(|other| {
            let EventData::ScmContainer(data) = &trace.get(other).data else {
                return None;
            };
            let sid = data.printed_sid()?;
            let about_same_replica = match data {
                ScmContainerEvent::Resurrected(r) => {
                    let dn = r.datanode.as_deref().or(r.datanode_host.as_deref());
                    dn.is_some_and(|dn| r.bcsid.is_some_and(|b| same_replica(dn, b)))
                }
                _ => data.replica().is_some_and(|r| {
                    data.kind() != "container_replica_processing"
                        && (same_replica(&r.datanode, r.bcsid)
                            || same_replica(&r.datanode_host, r.bcsid))
                }),
            };
            (!about_same_replica).then_some(PrintedSid { sid, event: other })
        })
}

/// The datanode's last `A dead datanode is detected` before `id` and the first return after it
/// (HEALTHY READONLY, registration), both before `id`. Lines of `host` are preferred.
fn dead_and_back(
    trace: &Trace,
    id: EventId,
    dn: &Entity,
    host: &str,
) -> Option<(EventId, EventId)> {
    let events = trace.of_entity(dn);
    // The datanode's events before `id` (its later history is never read).
    let events = &events[..events.partition_point(|&o| o < id)];
    let pick = |same_host: bool| {
        let on = |other: EventId| !same_host || &*trace.get(other).host == host;
        let dead = events
            .iter()
            .copied()
            .rfind(|&o| on(o) && trace.get(o).kind() == "node_dead")?;
        let after_dead = &events[events.partition_point(|&o| o <= dead)..];
        let back = after_dead.iter().copied().find(|&o| {
            on(o)
                && matches!(
                    trace.get(o).kind(),
                    "node_healthy_readonly" | "datanode_registered"
                )
        })?;
        Some((dead, back))
    };
    pick(true).or_else(|| pick(false))
}

fn judge(
    analysis: &Analysis,
    id: EventId,
    e: &ResurrectedEvent,
    host_datanodes: &mut HostDatanodes,
) -> Option<Finding> {
    let trace = &analysis.trace;
    let host = &*trace.get(id).host;
    let earlier = earlier_sid(trace, id, e);
    let datanode = replica_datanode(trace, e, host_datanodes);
    let returned = datanode
        .as_ref()
        .and_then(|dn| dead_and_back(trace, id, dn, host));
    let dn_name = e
        .datanode_host
        .clone()
        .or_else(|| e.datanode.clone())
        .unwrap_or_else(|| "its datanode".to_string());
    let (confidence, reason) = match (e.bcsid, e.sid, earlier.as_ref()) {
        (Some(b), Some(s), _) if (b as i128) < s as i128 => (
            Confidence::Confirmed,
            format!("replica BCSID {b} is below the container's sequence id {s} in the same line: the replica is stale"),
        ),
        (Some(b), _, Some(p)) if b as i128 <= p.sid as i128 => (
            Confidence::Confirmed,
            format!("replica BCSID {b} is at or below the sequence id {} printed earlier for the container: the replica is stale", p.sid),
        ),
        // Newer data than the container had: the designed resurrection (HDDS-11136, HDDS-14684).
        (Some(b), _, Some(p)) if b as i128 > p.sid as i128 => return None,
        (Some(b), Some(s), None) if b as i128 > s as i128 => return None,
        _ if returned.is_some() => (
            Confidence::Likely,
            format!("no earlier line prints a sequence id to compare the BCSID with, but {dn_name} was dead and came back before the line"),
        ),
        _ => (
            Confidence::Possible,
            "no earlier line prints a sequence id to compare the BCSID with, and the datanode was not seen dead and back".to_string(),
        ),
    };
    let mut evidence = vec![Evidence {
        event: id,
        role: Role::Cause,
        note: format!(
            "leader moves #{} from {} back to {} for a non-empty {} replica (BCSID {})",
            e.container,
            e.from,
            e.to,
            e.replica_state.as_deref().unwrap_or("?"),
            e.bcsid.map_or("not printed".to_string(), |b| b.to_string())
        ),
    }];
    if let Some(p) = &earlier {
        evidence.push(Evidence {
            event: p.event,
            role: Role::Context,
            note: format!("latest earlier sequence id of #{}: {}", e.container, p.sid),
        });
    }
    if let Some((dead, back)) = returned {
        evidence.push(Evidence {
            event: dead,
            role: Role::Context,
            note: format!(
                "{dn_name} dead: SCM removes its replicas and it misses the block deletes"
            ),
        });
        evidence.push(Evidence {
            event: back,
            role: Role::Context,
            note: format!("{dn_name} is back with its old replica"),
        });
    }
    let (deletes, aftermath) = commands_around(analysis, id, e.container);
    evidence.extend(deletes.into_iter().map(|d| Evidence {
        event: d,
        role: Role::Context,
        note: format!(
            "ReplicationManager deletes the empty container #{}",
            e.container
        ),
    }));
    let deleted_again = aftermath.iter().any(|&a| {
        matches!(&trace.get(a).data, EventData::ScmContainer(ScmContainerEvent::ReplicationCommand(c)) if c.command == "deleteContainerCommand")
    });
    evidence.extend(aftermath.into_iter().take(MAX_AFTERMATH).map(|a| Evidence {
        event: a,
        role: Role::Effect,
        note: aftermath_note(trace, a),
    }));
    let summary = format!(
        "SCM leader {host} moved {} container #{} back to {} for a stale non-empty {} replica on {dn_name} (BCSID {}{}); its deleted blocks are back and {}.",
        e.from,
        e.container,
        e.to,
        e.replica_state.as_deref().unwrap_or("?"),
        e.bcsid.map_or("not printed".to_string(), |b| b.to_string()),
        earlier
            .as_ref()
            .map(|p| format!(", sequence id {}", p.sid))
            .or_else(|| e.sid.map(|s| format!(", sid {s}")))
            .unwrap_or_default(),
        if deleted_again {
            "the container was deleted again later"
        } else {
            "nothing deletes them again"
        }
    );
    Some(Finding {
        rule: ID,
        entity: Entity::Container(e.container),
        related: datanode.into_iter().collect(),
        confidence,
        reason,
        summary,
        evidence,
    })
}

/// The leader host's ReplicationManager commands for the container: the delete commands of the
/// last deletion before `id`, and every command after it.
fn commands_around(
    analysis: &Analysis,
    id: EventId,
    container: u64,
) -> (Vec<EventId>, Vec<EventId>) {
    let trace = &analysis.trace;
    let host = &trace.get(id).host;
    let commands: Vec<EventId> = trace
        .of_entity(&Entity::Container(container))
        .iter()
        .copied()
        .filter(|&o| {
            &trace.get(o).host == host
                && matches!(
                    trace.get(o).data,
                    EventData::ScmContainer(ScmContainerEvent::ReplicationCommand(_))
                        | EventData::ScmContainer(ScmContainerEvent::SequenceId(_))
                )
        })
        .collect();
    let is_delete = |o: EventId| match &trace.get(o).data {
        EventData::ScmContainer(ScmContainerEvent::ReplicationCommand(c)) => {
            c.command == "deleteContainerCommand"
        }
        EventData::ScmContainer(s) => s.kind() == "empty_quasi_closed_deleted",
        _ => false,
    };
    let before: Vec<EventId> = commands.iter().copied().filter(|&o| o < id).collect();
    let mut deletes: Vec<EventId> = before
        .iter()
        .rev()
        .copied()
        .skip_while(|&o| !is_delete(o))
        .take_while(|&o| is_delete(o))
        .collect();
    deletes.reverse();
    let after = commands
        .into_iter()
        .filter(|&o| {
            o > id
                && matches!(
                    trace.get(o).data,
                    EventData::ScmContainer(ScmContainerEvent::ReplicationCommand(_))
                )
        })
        .collect();
    (deletes, after)
}

fn aftermath_note(trace: &Trace, id: EventId) -> String {
    match &trace.get(id).data {
        EventData::ScmContainer(ScmContainerEvent::ReplicationCommand(c)) => {
            match c.command.as_str() {
                "closeContainerCommand" => {
                    "aftermath: RM closes the stale replica of the resurrected container"
                        .to_string()
                }
                "replicateContainerCommand" => {
                    "aftermath: RM copies the resurrected (deleted) data to another datanode"
                        .to_string()
                }
                "deleteContainerCommand" => "aftermath: RM deletes the container again".to_string(),
                other => format!("aftermath: RM sends {other}"),
            }
        }
        _ => "aftermath".to_string(),
    }
}

/// Without an earlier sequence id the finding cannot be confirmed; DEBUG report handlers print
/// `Processing replica` with the sid before updateContainerStats raises it.
fn push_gap(context: &Context<'_>, id: EventId, out: &mut Output) {
    let host = context.analysis.trace.get(id).host.to_string();
    let missing: Vec<String> = DEBUG_LOGGERS
        .iter()
        .filter(|line| {
            let (logger, level) = line
                .trim_start_matches("log4j.logger.")
                .split_once('=')
                .unwrap_or(("", ""));
            !context.logging.enabled(&host, logger, level)
        })
        .map(|line| line.to_string())
        .collect();
    if missing.is_empty() {
        return;
    }
    out.gaps.push(Gap {
        rule: ID,
        missing: "the container's sequence id before the report (DEBUG `Processing replica`) and its lifecycle changes (TRACE ContainerStateMap), to tell a stale replica from newer data".to_string(),
        enable: missing,
        hosts: vec![host],
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing;
    use crate::{LoggingCoverage, Settings};
    use oztrace_parser::event::Event;
    use oztrace_parser::source::Component;

    const DN: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13";
    const DN_REF: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13(dn5.example.com/10.0.1.15)";
    const FCR: &str = "org.apache.hadoop.hdds.scm.container.ContainerReportHandler";
    const ICR: &str = "org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler";
    const NLE: &str = "org.apache.hadoop.hdds.scm.exceptions.SCMException: org.apache.ratis.protocol.exceptions.NotLeaderException: Server 2d1e3f40-5b6c-4d7e-9f80-a1b2c3d4e5f6@group-112233445566 is not the leader, suggested leader is: 1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5|scm1.example.com:9894";

    fn d(cstate: &str, sid: u64, rstate: &str, bcsid: u64) -> String {
        format!(
            "Container #1051 ({cstate}, sid={sid}) r0 ({rstate}, bcsid={bcsid}, origin={DN}, non-empty) from dn {DN_REF}"
        )
    }

    fn resurrect(sid: u64, rstate: &str, bcsid: u64) -> String {
        format!(
            "Resurrecting container #1051 from DELETED to QUASI_CLOSED due to non-empty {rstate} replica (keyCount=37, BCSID={bcsid}) from {}",
            d("DELETED", sid, rstate, bcsid)
        )
    }

    /// A log line as the catalogue types it: (host, seconds, logger, message, continuation).
    type Line<'a> = (&'a str, i64, &'a str, String, &'a str);

    fn events(lines: Vec<Line<'_>>) -> Vec<Event> {
        lines
            .into_iter()
            .enumerate()
            .map(|(i, (host, secs, logger, message, continuation))| {
                let text = if continuation.is_empty() {
                    message
                } else {
                    format!("{message}\n{continuation}")
                };
                Event {
                    ts: Some(secs * 1000),
                    file: format!("{host}/scm.log").into(),
                    line: i as u64 + 1,
                    ..oztrace_testkit::message(host, Component::Scm, Some(logger), &text)
                }
            })
            .collect()
    }

    fn check_with(lines: Vec<Line<'_>>, logging: &LoggingCoverage) -> Output {
        testing::run_with(
            &ResurrectedContainer,
            vec![events(lines)],
            &Settings::default(),
            logging,
        )
    }

    fn check(lines: Vec<Line<'_>>) -> Output {
        check_with(lines, &LoggingCoverage::default())
    }

    /// A line of the full container report handler.
    fn fcr(host: &str, secs: i64, message: String) -> Line<'_> {
        (host, secs, FCR, message, "")
    }

    /// A line of the incremental one.
    fn icr(host: &str, secs: i64, message: String) -> Line<'_> {
        (host, secs, ICR, message, "")
    }

    /// A follower's failure to process the replica `replica` (`d(…)`): it is not the leader.
    fn not_leader(host: &str, secs: i64, replica: String) -> Line<'_> {
        (host, secs, FCR, format!("Failed to process {replica}"), NLE)
    }

    fn dead(host: &str, secs: i64) -> Line<'_> {
        (
            host,
            secs,
            "org.apache.hadoop.hdds.scm.node.DeadNodeHandler",
            format!("A dead datanode is detected. {DN_REF}"),
            "",
        )
    }

    fn back(host: &str, secs: i64) -> Line<'_> {
        (
            host,
            secs,
            "org.apache.hadoop.hdds.scm.node.HealthyReadOnlyNodeHandler",
            format!("Datanode {DN_REF} moved to HEALTHY READONLY state."),
            "",
        )
    }

    fn close(host: &str, secs: i64, sid: u64) -> Line<'_> {
        let other = "9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40";
        icr(
            host,
            secs,
            format!(
                "CLOSE Container #1051 (CLOSING, sid={sid}) r0 (CLOSED, bcsid={sid}, origin={other}, non-empty) from dn {other}(dn1.example.com/10.0.1.11)"
            ),
        )
    }

    fn rm<'a>(host: &'a str, secs: i64, command: &str, state: &str) -> Line<'a> {
        (
            host,
            secs,
            "org.apache.hadoop.hdds.scm.container.replication.ReplicationManager",
            format!(
                "Sending command [{command}: cmdID: 1, encodedToken: \"\", term: 0, deadlineMsSinceEpoch: 0, containerID: 1051, replicaIndex: 0, force: false] for container ContainerInfo{{id=#1051, state={state}, stateEnterTime=2026-08-18T09:25:03.114Z, pipelineID=Pipeline-8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d, owner=om1}} to 9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40(dn1.example.com/10.0.1.11) with datanode deadline 1 and scm deadline 2"
            ),
            "",
        )
    }

    #[test]
    fn stale_open_replica_on_the_leader_is_confirmed_and_follower_copies_are_not_findings() {
        let out = check(vec![
            close("scm1", 10, 4821),
            dead("scm1", 20),
            rm("scm1", 30, "deleteContainerCommand", "CLOSED"),
            back("scm1", 40),
            fcr("scm1", 50, resurrect(4821, "OPEN", 4790)),
            fcr("scm2", 50, resurrect(4821, "OPEN", 4790)),
            not_leader("scm2", 50, d("DELETED", 4821, "OPEN", 4790)),
            rm("scm1", 60, "closeContainerCommand", "QUASI_CLOSED"),
            rm("scm1", 70, "replicateContainerCommand", "QUASI_CLOSED"),
        ]);
        assert_eq!(out.findings.len(), 1, "{:?}", out.findings);
        let f = &out.findings[0];
        assert_eq!(
            (f.entity.clone(), f.confidence),
            (Entity::Container(1051), Confidence::Confirmed)
        );
        assert_eq!(f.related, vec![Entity::datanode(DN).unwrap()]);
        let roles: Vec<(EventId, Role)> = f.evidence.iter().map(|e| (e.event, e.role)).collect();
        // close (sid), dead, back, delete, then the cause and the two aftermath commands.
        for expected in [
            (4, Role::Cause),
            (0, Role::Context),
            (1, Role::Context),
            (3, Role::Context),
            (2, Role::Context),
            (7, Role::Effect),
            (8, Role::Effect),
        ] {
            assert!(roles.contains(&expected), "{expected:?} not in {roles:?}");
        }
        assert!(
            !roles.iter().any(|(id, _)| *id == 5 || *id == 6),
            "follower lines are not evidence"
        );
        assert!(out.gaps.is_empty());
    }

    #[test]
    fn a_follower_by_role_or_by_failure_is_silent() {
        let failed_only = check(vec![
            fcr("scm2", 50, resurrect(4821, "OPEN", 4790)),
            not_leader("scm2", 50, d("DELETED", 4821, "OPEN", 4790)),
        ]);
        assert!(failed_only.findings.is_empty());
        let icr = check(vec![
            icr("scm3", 50, resurrect(4821, "CLOSING", 4790)),
            icr(
                "scm3",
                50,
                format!(
                    "SCM_NOT_LEADER: Failed to process {}",
                    d("DELETED", 4821, "CLOSING", 4790)
                ),
            ),
        ]);
        assert!(icr.findings.is_empty());
        let by_role = check(vec![
            (
                "scm2",
                1,
                "org.apache.hadoop.hdds.scm.ha.SCMContext",
                "update <isLeader,term> from <true,3> to <false,0>".to_string(),
                "",
            ),
            fcr("scm2", 50, resurrect(4821, "OPEN", 4790)),
        ]);
        assert!(by_role.findings.is_empty());
    }

    #[test]
    fn equal_bcsid_needs_an_earlier_sequence_id_or_the_dead_datanode() {
        let earlier = check(vec![
            close("scm1", 10, 4821),
            fcr("scm1", 50, resurrect(4821, "OPEN", 4821)),
        ]);
        assert_eq!(earlier.findings[0].confidence, Confidence::Confirmed);

        let mut logging = LoggingCoverage::default();
        let likely = check_with(
            vec![
                dead("scm1", 20),
                back("scm1", 40),
                fcr("scm1", 50, resurrect(4821, "OPEN", 4821)),
            ],
            &logging,
        );
        assert_eq!(likely.findings[0].confidence, Confidence::Likely);
        assert_eq!(likely.gaps.len(), 1);
        assert_eq!(likely.gaps[0].enable.len(), 3);
        assert_eq!(likely.gaps[0].hosts, vec!["scm1".to_string()]);

        logging.record("scm1", FCR, "DEBUG");
        let possible = check_with(
            vec![fcr("scm1", 50, resurrect(4821, "OPEN", 4821))],
            &logging,
        );
        assert_eq!(possible.findings[0].confidence, Confidence::Possible);
        assert!(
            !possible.gaps[0]
                .enable
                .iter()
                .any(|l| l.contains(".ContainerReportHandler="))
        );
    }

    #[test]
    fn newer_data_than_the_earlier_sequence_id_is_the_designed_resurrection() {
        // HDDS-14684: empty QUASI_CLOSED container deleted at 88213, replica at 88217 raised sid.
        let out = check(vec![
            dead("scm3", 10),
            (
                "scm3",
                20,
                "org.apache.hadoop.hdds.scm.container.replication.health.EmptyContainerHandler",
                "Deleting empty QUASI_CLOSED container #1051 (container BCSID=88213, max replica BCSID=88213) with 2 replicas from originIds: [a, b]. If resurrected, container will transition to QUASI_CLOSED".to_string(),
                "",
            ),
            back("scm3", 30),
            // A follower's copy, printed earlier than the leader's line, shows the raised sid too.
            fcr("scm1", 39, resurrect(88217, "OPEN", 88217)),
            not_leader("scm1", 39, d("DELETED", 88217, "OPEN", 88217)),
            fcr("scm3", 40, resurrect(88217, "OPEN", 88217)),
        ]);
        assert!(out.findings.is_empty(), "{:?}", out.findings);
    }

    #[test]
    fn debug_processing_replica_shows_the_sid_before_the_raise() {
        let processing = |sid| {
            fcr(
                "scm1",
                49,
                format!("Processing replica {}", d("DELETED", sid, "OPEN", 4821)),
            )
        };
        // The replica raised the sid from 4800 to its own 4821: newer data, not this bug.
        let newer = check(vec![
            processing(4800),
            fcr("scm1", 50, resurrect(4821, "OPEN", 4821)),
        ]);
        assert!(newer.findings.is_empty());
        let stale = check(vec![
            processing(4821),
            fcr("scm1", 50, resurrect(4821, "OPEN", 4821)),
        ]);
        assert_eq!(stale.findings[0].confidence, Confidence::Confirmed);
        assert_eq!(stale.findings[0].evidence[1].event, 0);
    }

    #[test]
    fn closed_replicas_and_force_deletes_are_silent() {
        let newer_closed = format!(
            "Resurrecting container #1051 from DELETING to CLOSED due to non-empty CLOSED replica (keyCount=3, BCSID=4900) from {}",
            d("DELETING", 4900, "CLOSED", 4900)
        );
        let out = check(vec![
            close("scm1", 10, 4821),
            fcr("scm1", 50, newer_closed),
            fcr(
                "scm1",
                60,
                format!(
                    "Sending forceDeleteContainerCommand due to DELETED for {}",
                    d("DELETED", 4821, "CLOSED", 4790)
                ),
            ),
        ]);
        assert!(out.findings.is_empty());
    }

    #[test]
    fn older_wordings_with_a_host_name_map_to_the_datanode() {
        let moving = "Moving container ContainerInfo{id=#1051, state=DELETED, stateEnterTime=2026-08-19T22:10:03.120Z, pipelineID=PipelineID=8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d, owner=om1} from DELETED to CLOSED state, datanode dn5.example.com reported replica with state=OPEN, isEmpty=false, bcsId=4790, keyCount=37, and origin=b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13".to_string();
        let out = check(vec![
            icr(
                "scm1",
                5,
                format!(
                    "FINALIZE (i.e. CLOSING) {}",
                    d("OPEN", 4790, "CLOSING", 4790)
                ),
            ),
            close("scm1", 10, 4821),
            fcr("scm1", 50, moving),
        ]);
        let f = &out.findings[0];
        assert_eq!(f.confidence, Confidence::Confirmed);
        assert_eq!(f.related, vec![Entity::datanode(DN).unwrap()]);
        assert!(f.reason.contains("4821"));
    }
}
