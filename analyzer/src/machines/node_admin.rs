//! `node-admin`: each SCM's view of each datanode: operational state (IN_SERVICE, DECOMMISSIONING,
//! DECOMMISSIONED, ENTERING_MAINTENANCE, IN_MAINTENANCE), health (HEALTHY, HEALTHY_READONLY, STALE,
//! DEAD) and whether that SCM's `DatanodeAdminMonitorImpl` tracks it.
//!
//! The operational state is not replicated through Ratis: every SCM keeps its own in
//! `NodeStateManager`, so the entity is the datanode and the scope the SCM host. The leader writes
//! it (`NodeDecommissionManager` start/recommission, the monitor's completion and abort) and pushes
//! it to the datanode (`SCMNodeManager` `Scheduling a command …`); a follower copies what the
//! datanode reports (`Update the operationalState saved in follower SCM …`); the monitor runs on
//! every SCM and keeps its tracked nodes across a step-down (scm.md §4.1).
//!
//! The monitor's writes (`setNodeOpState`) have no log line at any level: a state after an abort
//! is the abort's write, and when a follower's heartbeat copy lands between the monitor's read and
//! that write (scm.md §4.2 steps 5–6), the overwrite is an inferred transition marked
//! [`ABORT_WRITE_OVERWRITES_COPY`].
//!
//! `TrackedNode@<hex>` lines are resolved here with [`TrackedNodeMap`]: the parser sees one record
//! at a time, this machine sees every datanode UUID printed earlier in the trace (and, for a hash
//! still unknown, every UUID in the trace).

use crate::graph::{Linker, Reason};
use crate::kinds::{Family, Reads};
use crate::machine::{EntityStates, Machine, Transition};
use crate::machines::endpoint::{SCM_AUDIT, scm_kinds};
use crate::names::Names;
use crate::trace::{EntityId, EventId, HostId, Trace};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::scm::{AdminAction, ScmEvent};
use oztrace_parser::entity::{Entity, TrackedNodeMap};
use oztrace_parser::event::Event;
use std::sync::Arc;

pub const NAME: &str = "node-admin";

/// The inferred transition of a follower's abort write replacing a heartbeat copy (HDDS-17219).
pub const ABORT_WRITE_OVERWRITES_COPY: &str = "DatanodeAdminMonitorImpl.abortWorkflow → setNodeOpState(IN_SERVICE) after the heartbeat copy (no log line at any level; the second `moved to HEALTHY state.` marks it)";
/// The inferred read behind an abort WARN whose op state differs from the SCM's known one.
pub const ABORT_READ: &str = "SCMNodeManager INFO `Update the operationalState saved in follower SCM …` (the state the monitor read)";

/// What moves an SCM's view of a datanode: the line's kind, or an inferred step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// `decommission_started`, `Starting Decommission`.
    DecommissionStarted,
    /// `maintenance_started`.
    MaintenanceStarted,
    /// `continue_admin`.
    ContinueAdmin,
    /// The monitor's lines about a node it tracks (`admin_start_on_node`, waiting for pipelines,
    /// replication status).
    MonitorTracks,
    /// `recommission_queued`.
    RecommissionQueued,
    /// `admin_recommissioned`.
    Recommissioned,
    /// `admin_aborted`.
    Aborted,
    /// `admin_aborted_dead`, `admin_dead_cannot_continue`, `admin_unexpected_error`.
    AbortedOtherwise,
    /// `admin_completed`.
    Completed,
    /// `admin_entered_maintenance`.
    EnteredMaintenance,
    /// `admin_maintenance_ended`.
    MaintenanceEnded,
    /// Inferred: the op state the monitor read before an abort ([`ABORT_READ`]).
    AbortRead,
    /// `follower_op_state_copied`.
    FollowerCopied,
    /// Inferred: the abort write replacing a copy in the same tick ([`ABORT_WRITE_OVERWRITES_COPY`]).
    AbortWriteOverCopy,
    /// `op_state_command_scheduled`.
    CommandScheduled,
    /// `datanode_registered`, `node_status_updated`: the state as printed.
    Printed,
    /// `node_stale`.
    Stale,
    /// `node_dead`.
    Dead,
    /// `node_healthy_readonly`.
    HealthyReadonly,
    /// `node_healthy`.
    Healthy,
}

/// What a step asks of the view: the op states or health it may leave, or that the monitor does
/// not know it untracked. An op state or health the logs have not shown yet passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Before {
    Any,
    OpState(&'static [&'static str]),
    Tracked,
    Health(&'static [&'static str]),
}

impl Before {
    fn admits(self, view: &View) -> bool {
        match self {
            Before::Any => true,
            Before::OpState(states) => view.op.as_deref().is_none_or(|op| states.contains(&op)),
            Before::Tracked => view.tracking != Some(Tracking::Untracked),
            Before::Health(states) => view.health.is_none_or(|h| states.contains(&h)),
        }
    }
}

/// What a step writes: a state of the table's, the one the line prints, or the one before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Write<T> {
    Keep,
    Set(T),
    Printed,
}

/// The view after a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct After {
    pub op: Write<&'static str>,
    pub tracking: Option<Tracking>,
    pub health: Write<&'static str>,
}

impl After {
    const fn op(op: Write<&'static str>, tracking: Option<Tracking>) -> After {
        After {
            op,
            tracking,
            health: Write::Keep,
        }
    }

    const fn health(health: &'static str) -> After {
        After {
            op: Write::Keep,
            tracking: None,
            health: Write::Set(health),
        }
    }

    /// `view` after the step; `printed` is what the line prints (op state, health), kept when it
    /// prints none.
    fn apply(self, view: &View, printed: Printed<'_>) -> View {
        let mut next = view.clone();
        match (self.op, printed.op) {
            (Write::Set(op), _) | (Write::Printed, Some(op)) => next.op = Some(op.to_string()),
            (Write::Keep, _) | (Write::Printed, None) => {}
        }
        match (self.health, printed.health) {
            (Write::Set(health), _) => next.health = Some(health),
            (Write::Printed, Some(health)) => next.health = health_name(health),
            (Write::Keep, _) | (Write::Printed, None) => {}
        }
        if let Some(tracking) = self.tracking {
            next.tracking = Some(tracking);
        }
        next
    }
}

/// One step of the table: legal from a view [`Before`] admits, leading to [`After`].
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub trigger: Trigger,
    pub before: Before,
    pub after: After,
    pub code: &'static str,
}

const ADMIN_STATES: &[&str] = &["DECOMMISSIONING", "ENTERING_MAINTENANCE", "IN_MAINTENANCE"];
const TRACKED: Option<Tracking> = Some(Tracking::Tracked);
const UNTRACKED: Option<Tracking> = Some(Tracking::Untracked);
const BACK_IN_SERVICE: After = After::op(Write::Set("IN_SERVICE"), UNTRACKED);

/// The transition table, one row per [`Trigger`] in its order: the machine replays what a row
/// writes, and a step from a view its row does not admit as `illegal`.
pub const TRANSITIONS: &[Row] = &[
    Row {
        trigger: Trigger::DecommissionStarted,
        before: Before::OpState(&["IN_SERVICE"]),
        after: After::op(Write::Set("DECOMMISSIONING"), TRACKED),
        code: "NodeDecommissionManager.startDecommission → setNodeOperationalState + monitor.startMonitoring",
    },
    Row {
        trigger: Trigger::MaintenanceStarted,
        before: Before::OpState(&["IN_SERVICE"]),
        after: After::op(Write::Set("ENTERING_MAINTENANCE"), TRACKED),
        code: "NodeDecommissionManager.startMaintenance",
    },
    Row {
        trigger: Trigger::ContinueAdmin,
        before: Before::OpState(ADMIN_STATES),
        after: After::op(Write::Keep, TRACKED),
        code: "NodeDecommissionManager.continueAdminForNode (onBecomeLeader, NewNodeHandler)",
    },
    Row {
        trigger: Trigger::MonitorTracks,
        before: Before::Any,
        after: After::op(Write::Keep, TRACKED),
        code: "StartDatanodeAdminHandler (START_ADMIN_ON_NODE), DatanodeAdminMonitorImpl tick",
    },
    Row {
        trigger: Trigger::RecommissionQueued,
        before: Before::Any,
        after: After::op(Write::Keep, Some(Tracking::Cancelling)),
        code: "NodeDecommissionManager.recommission → monitor.stopMonitoring",
    },
    Row {
        trigger: Trigger::Recommissioned,
        before: Before::Tracked,
        after: BACK_IN_SERVICE,
        code: "DatanodeAdminMonitorImpl.processCancelledNodes → putNodeBackInService",
    },
    Row {
        trigger: Trigger::Aborted,
        before: Before::Tracked,
        after: BACK_IN_SERVICE,
        code: "DatanodeAdminMonitorImpl.shouldContinueWorkflow false → abortWorkflow → setNodeOpState(IN_SERVICE)",
    },
    Row {
        trigger: Trigger::AbortedOtherwise,
        before: Before::Tracked,
        after: BACK_IN_SERVICE,
        code: "DatanodeAdminMonitorImpl.abortWorkflow / putNodeBackInService",
    },
    Row {
        trigger: Trigger::Completed,
        before: Before::OpState(&["DECOMMISSIONING"]),
        after: After::op(Write::Printed, UNTRACKED),
        code: "DatanodeAdminMonitorImpl.completeDecommission",
    },
    Row {
        trigger: Trigger::EnteredMaintenance,
        before: Before::OpState(&["ENTERING_MAINTENANCE"]),
        after: After::op(Write::Set("IN_MAINTENANCE"), None),
        code: "DatanodeAdminMonitorImpl.putIntoMaintenance",
    },
    Row {
        trigger: Trigger::MaintenanceEnded,
        before: Before::OpState(&["IN_MAINTENANCE"]),
        after: BACK_IN_SERVICE,
        code: "DatanodeAdminMonitorImpl (maintenance expiry)",
    },
    Row {
        trigger: Trigger::AbortRead,
        before: Before::Any,
        after: After::op(Write::Printed, None),
        code: "DatanodeAdminMonitorImpl.shouldContinueWorkflow reads the op state a heartbeat copy wrote",
    },
    Row {
        trigger: Trigger::FollowerCopied,
        before: Before::Any,
        after: After::op(Write::Printed, None),
        code: "SCMNodeManager.updateDatanodeOpState (follower copies the datanode's persisted state)",
    },
    Row {
        trigger: Trigger::AbortWriteOverCopy,
        before: Before::Any,
        after: After::op(Write::Set("IN_SERVICE"), None),
        code: "DatanodeAdminMonitorImpl.setNodeOpState without a leader check (HDDS-17219)",
    },
    Row {
        trigger: Trigger::CommandScheduled,
        before: Before::Any,
        after: After::op(Write::Printed, None),
        code: "SCMNodeManager.processHeartbeat (leader keeps its value, queues SetNodeOperationalStateCommand)",
    },
    Row {
        trigger: Trigger::Printed,
        before: Before::Any,
        after: After {
            op: Write::Printed,
            tracking: None,
            health: Write::Printed,
        },
        code: "SCMNodeManager.register, NodeStateManager.updateNode",
    },
    Row {
        trigger: Trigger::Stale,
        before: Before::Health(&["HEALTHY", "HEALTHY_READONLY"]),
        after: After::health("STALE"),
        code: "NodeStateManager health check → StaleNodeHandler",
    },
    Row {
        trigger: Trigger::Dead,
        before: Before::Health(&["STALE", "DEAD"]),
        after: After::health("DEAD"),
        code: "NodeStateManager → DeadNodeHandler (on a DEAD node: an op-state write re-fires the health event)",
    },
    Row {
        trigger: Trigger::HealthyReadonly,
        before: Before::Health(&["STALE", "DEAD", "HEALTHY"]),
        after: After::health("HEALTHY_READONLY"),
        code: "NodeStateManager nodeHealthSM → HealthyReadOnlyNodeHandler (from HEALTHY on LAYOUT_MISMATCH)",
    },
    Row {
        trigger: Trigger::Healthy,
        before: Before::Health(&["HEALTHY_READONLY", "HEALTHY"]),
        after: After::health("HEALTHY"),
        code: "ReadOnlyHealthyToHealthyNodeHandler (on a HEALTHY node: an op-state write, no change)",
    },
];

// Each trigger's row sits at the trigger's index: looking one up cannot miss.
const _: () = {
    let mut i = 0;
    while i < TRANSITIONS.len() {
        assert!(TRANSITIONS[i].trigger as usize == i);
        i += 1;
    }
};

fn row(trigger: Trigger) -> &'static Row {
    &TRANSITIONS[trigger as usize]
}

/// A write that follows an abort WARN belongs to the same tick; past this a copy is a new heartbeat.
const ABORT_WINDOW_MS: i64 = 30_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tracking {
    Untracked,
    Tracked,
    /// A recommission is queued for the monitor's next tick.
    Cancelling,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct View {
    op: Option<String>,
    health: Option<&'static str>,
    tracking: Option<Tracking>,
    /// An abort WARN's write not yet seen replaced: (tick on that host, time).
    pending_abort: Option<(u64, i64)>,
    /// The tick of the last follower heartbeat copy.
    copied_in_tick: Option<u64>,
}

impl View {
    fn label(&self) -> String {
        let tracking = match self.tracking {
            Some(Tracking::Tracked) => " tracked",
            Some(Tracking::Cancelling) => " cancelling",
            Some(Tracking::Untracked) | None => "",
        };
        format!(
            "{}-{}{}",
            self.op.as_deref().unwrap_or("?"),
            self.health.unwrap_or("?"),
            tracking
        )
    }

    /// Whether the two views have the same label (without building it).
    fn same_label(&self, other: &View) -> bool {
        let tracked = |v: &View| match v.tracking {
            Some(Tracking::Untracked) | None => None,
            t => t,
        };
        self.op == other.op && self.health == other.health && tracked(self) == tracked(other)
    }
}

#[derive(Default)]
pub struct NodeAdmin {
    /// By (SCM host, datanode UUID's number in `datanodes`).
    views: EntityStates<(HostId, u32), View>,
    /// The datanode UUIDs met, numbered: a view's key is a number, not a copy of its UUID.
    datanodes: Names,
    /// Monitor ticks seen per SCM host, by [`HostId`] (`There are {} nodes tracked …` ends a
    /// tick).
    ticks: Vec<u64>,
    /// Every datanode UUID printed up to the event being replayed.
    tracked_nodes: TrackedNodeMap,
    /// The datanodes by the first event naming them (built at the first `TrackedNode@` line),
    /// and how many of them `tracked_nodes` has learnt.
    first_named: Option<(Vec<(EventId, EntityId)>, usize)>,
    /// Every datanode UUID in the trace, built once when a hash is not resolvable from the past.
    whole_trace: Option<TrackedNodeMap>,
}

impl NodeAdmin {
    pub fn new() -> NodeAdmin {
        NodeAdmin::default()
    }

    /// Learns the datanodes first named at or before event `id`.
    fn learn_until(&mut self, trace: &Trace, id: EventId) {
        let (order, learnt) = self.first_named.get_or_insert_with(|| {
            let mut order: Vec<(EventId, EntityId)> = trace
                .entity_ids()
                .filter(|&e| matches!(**trace.entity(e), Entity::Datanode(_)))
                .filter_map(|e| Some((*trace.of_entity_id(e).first()?, e)))
                .collect();
            order.sort_unstable();
            (order, 0)
        });
        while let Some(&(first, entity)) = order.get(*learnt)
            && first <= id
        {
            if let Entity::Datanode(uuid) = &**trace.entity(entity) {
                self.tracked_nodes.observe_uuid(uuid);
            }
            *learnt += 1;
        }
    }

    fn resolve(&mut self, trace: &Trace, hash: u32) -> Option<String> {
        let found = self.tracked_nodes.resolve(hash).or_else(|| {
            self.whole_trace
                .get_or_insert_with(|| {
                    let mut map = TrackedNodeMap::new();
                    for e in trace.entities() {
                        if let Entity::Datanode(uuid) = e {
                            map.observe_uuid(uuid);
                        }
                    }
                    map
                })
                .resolve(hash)
        });
        match found {
            Some(Entity::Datanode(uuid)) => Some(uuid),
            _ => None,
        }
    }
}

/// The datanode a line is about: its `datanode` field, or its resolved `TrackedNode@hex`.
fn datanode_of(data: &ScmEvent) -> Option<&str> {
    match data {
        ScmEvent::AdminStarted { datanode, .. }
        | ScmEvent::AdminNotStarted { datanode, .. }
        | ScmEvent::AdminAborted { datanode, .. }
        | ScmEvent::AdminCompleted { datanode, .. }
        | ScmEvent::NodePipelines { datanode, .. }
        | ScmEvent::OpStateMismatch { datanode, .. }
        | ScmEvent::Node { datanode, .. } => Some(datanode),
        ScmEvent::Registered(registered) => Some(&registered.datanode),
        ScmEvent::NodeStatusUpdated(updated) => Some(&updated.datanode),
        _ => None,
    }
}

/// What a line prints that a step may write: an op state, a health.
#[derive(Debug, Clone, Copy, Default)]
struct Printed<'a> {
    op: Option<&'a str>,
    health: Option<&'a str>,
}

impl<'a> Printed<'a> {
    fn op(op: &'a str) -> Printed<'a> {
        Printed {
            op: Some(op),
            health: None,
        }
    }
}

/// One step a line causes: the new view, and whether the table forbids it.
struct Step {
    view: View,
    illegal: bool,
    inferred: Option<&'static str>,
}

/// The step `trigger` takes from `view` by its row ([`TRANSITIONS`]).
fn take(trigger: Trigger, view: &View, printed: Printed<'_>) -> Step {
    let row = row(trigger);
    Step {
        view: row.after.apply(view, printed),
        illegal: !row.before.admits(view),
        inferred: None,
    }
}

/// The kinds of [`ScmEvent::Node`] lines that move the view.
const NODE_KINDS: &[(&str, Trigger)] = &[
    ("continue_admin", Trigger::ContinueAdmin),
    ("recommission_queued", Trigger::RecommissionQueued),
    ("admin_aborted_dead", Trigger::AbortedOtherwise),
    ("admin_dead_cannot_continue", Trigger::AbortedOtherwise),
    ("admin_unexpected_error", Trigger::AbortedOtherwise),
    ("admin_entered_maintenance", Trigger::EnteredMaintenance),
    ("admin_maintenance_ended", Trigger::MaintenanceEnded),
    ("node_dead", Trigger::Dead),
    ("node_healthy_readonly", Trigger::HealthyReadonly),
    ("node_healthy", Trigger::Healthy),
];

/// What a line does, and what it prints (op state, health).
fn trigger_of(data: &ScmEvent) -> Option<(Trigger, Printed<'_>)> {
    let nothing = Printed::default();
    Some(match data {
        ScmEvent::AdminStarted {
            action: AdminAction::Maintenance,
            ..
        } => (Trigger::MaintenanceStarted, nothing),
        ScmEvent::AdminStarted { .. } => (Trigger::DecommissionStarted, nothing),
        ScmEvent::NodePipelines {
            kind: "admin_start_on_node",
            ..
        }
        | ScmEvent::WaitingForPipelines { .. }
        | ScmEvent::ReplicationStatus { .. } => (Trigger::MonitorTracks, nothing),
        ScmEvent::TrackedNode {
            kind: "admin_recommissioned",
            ..
        } => (Trigger::Recommissioned, nothing),
        ScmEvent::AdminAborted { op_state, .. } => (Trigger::Aborted, Printed::op(op_state)),
        ScmEvent::AdminCompleted { op_state, .. } => (Trigger::Completed, Printed::op(op_state)),
        ScmEvent::OpStateMismatch {
            kind: "follower_op_state_copied",
            reported,
            ..
        } => (Trigger::FollowerCopied, Printed::op(reported)),
        ScmEvent::OpStateMismatch { stored, .. } => {
            (Trigger::CommandScheduled, Printed::op(stored))
        }
        ScmEvent::Registered(registered) => match &registered.persisted_op_state {
            Some(op) => (Trigger::Printed, Printed::op(op)),
            None => return None,
        },
        ScmEvent::NodeStatusUpdated(updated) => (
            Trigger::Printed,
            Printed {
                op: Some(&updated.new_op_state),
                health: Some(&updated.new_health),
            },
        ),
        ScmEvent::NodePipelines {
            kind: "node_stale", ..
        } => (Trigger::Stale, nothing),
        ScmEvent::Node { kind, .. } => {
            let &(_, trigger) = NODE_KINDS.iter().find(|(k, _)| k == kind)?;
            (trigger, nothing)
        }
        _ => return None,
    })
}

/// The steps of one event on one view, in order (an abort racing a copy gives two).
fn steps(data: &ScmEvent, view: &View, tick: u64, ts: Option<i64>) -> Vec<Step> {
    let Some((trigger, printed)) = trigger_of(data) else {
        return Vec::new();
    };
    match trigger {
        // A recommission is queued: the monitor drops the node at its next tick.
        Trigger::MonitorTracks if view.tracking == Some(Tracking::Cancelling) => Vec::new(),
        Trigger::Aborted => {
            let mut abort = take(trigger, view, printed);
            let held = view.op.as_deref().filter(|op| Some(*op) != printed.op);
            // A copy logged between the monitor's read and this WARN: the write replaces it.
            if held.is_some_and(|op| op != "IN_SERVICE") && view.copied_in_tick == Some(tick) {
                abort.inferred = Some(ABORT_WRITE_OVERWRITES_COPY);
                return vec![abort];
            }
            let mut out = Vec::new();
            if held.is_some() {
                let mut read = take(Trigger::AbortRead, view, printed);
                read.inferred = Some(ABORT_READ);
                out.push(read);
            }
            abort.view.pending_abort = ts.map(|t| (tick, t));
            out.push(abort);
            out
        }
        Trigger::FollowerCopied => {
            let mut copy = take(trigger, view, printed);
            let racing = match (view.pending_abort, ts) {
                (Some((abort_tick, at)), Some(ts)) => {
                    abort_tick == tick && ts - at <= ABORT_WINDOW_MS
                }
                _ => false,
            };
            copy.view.pending_abort = None;
            copy.view.copied_in_tick = Some(tick);
            let mut out = vec![copy];
            if racing && printed.op != Some("IN_SERVICE") {
                let mut write = take(
                    Trigger::AbortWriteOverCopy,
                    &out[0].view,
                    Printed::default(),
                );
                write.inferred = Some(ABORT_WRITE_OVERWRITES_COPY);
                out.push(write);
            }
            out
        }
        _ => vec![take(trigger, view, printed)],
    }
}

fn health_name(s: &str) -> Option<&'static str> {
    ["HEALTHY", "HEALTHY_READONLY", "STALE", "DEAD"]
        .into_iter()
        .find(|h| *h == s)
}

/// The kinds [`NodeAdmin`] reads: every line of SCM's service log (any of them names the
/// datanode whose view it keeps alive), not its audit records (most SCM records), which name no
/// tracked node and no datanode this machine reads.
pub const CONSUMES: &[Reads] = &[Reads::FamilyBut(Family::Scm, scm_kinds::AUDIT)];

impl Machine for NodeAdmin {
    fn name(&self) -> &'static str {
        NAME
    }

    fn consumes(&self) -> &'static [Reads] {
        CONSUMES
    }

    fn on_event(&mut self, trace: &Trace, id: EventId, out: &mut Vec<Transition>) {
        // An audit record is not declared ([`CONSUMES`]): passed over unopened if given.
        if trace.kind_of(id) == *SCM_AUDIT {
            return;
        }
        let event: &Event = trace.get(id);
        let EventData::Scm(data) = &event.data else {
            return;
        };
        let host = trace.host_of(id);
        if let ScmEvent::TrackedCount { .. } = data {
            if self.ticks.len() <= host.index() {
                self.ticks.resize(host.index() + 1, 0);
            }
            self.ticks[host.index()] += 1;
            return;
        }
        let datanode = match data.tracked_node_hash() {
            Some(hash) => {
                self.learn_until(trace, id);
                self.resolve(trace, hash)
                    .map(|uuid| self.datanodes.number(&uuid))
            }
            None => datanode_of(data).map(|uuid| self.datanodes.number(uuid)),
        };
        let Some(datanode) = datanode else {
            return;
        };
        let tick = self.ticks.get(host.index()).copied().unwrap_or(0);
        let key = (host, datanode);
        let mut current = self.views.get(&key).cloned().unwrap_or_default();
        for step in steps(data, &current, tick, event.ts) {
            if !current.same_label(&step.view) || step.illegal || step.inferred.is_some() {
                out.push(Transition {
                    machine: NAME,
                    entity: trace.shared(
                        id,
                        &Entity::Datanode(self.datanodes.name(datanode).to_string()),
                    ),
                    scope: Some(Arc::clone(&event.host)),
                    from: current.label().into(),
                    to: step.view.label().into(),
                    event: id,
                    inferred: step.inferred,
                    illegal: step.illegal,
                });
            }
            current = step.view;
        }
        self.views.set(key, current, event.ts);
    }

    fn evict(&mut self, before: i64) {
        self.views.evict(before);
    }
}

/// How long after `Scheduling a command …` the heartbeat response carrying it is audited.
const DELIVERY_WINDOW_MS: i64 = 5_000;

/// Links the leader's `Scheduling a command to update the operationalState …` (SCMNodeManager
/// queues a SetNodeOperationalStateCommand with the SCM's value) to the SEND_HEARTBEAT audit (or
/// the DEBUG `Heartbeat dispatched …`) of the same SCM and datanode whose command list carries it:
/// the command reaching the datanode.
pub struct OpStateCommandDelivery;

impl Linker for OpStateCommandDelivery {
    fn name(&self) -> &'static str {
        "op-state-command"
    }

    fn consumes(&self) -> &'static [Reads] {
        &[Reads::Family(Family::Scm)]
    }

    fn link(&self, trace: &Trace, out: &mut Vec<(EventId, EventId, Reason)>) {
        for &id in trace.of_kind("op_state_command_scheduled") {
            let event = trace.get(id);
            let EventData::Scm(ScmEvent::OpStateMismatch {
                kind: "op_state_command_scheduled",
                datanode,
                stored,
                ..
            }) = &event.data
            else {
                continue;
            };
            let of_node = trace.of_entity(&Entity::Datanode(datanode.clone()));
            let after = of_node.partition_point(|&j| j <= id);
            let delivered = of_node[after..]
                .iter()
                .copied()
                .take_while(|&j| {
                    trace
                        .elapsed(id, j)
                        .is_none_or(|ms| ms <= DELIVERY_WINDOW_MS)
                })
                .find(|&j| {
                    let candidate = trace.get(j);
                    let commands = match &candidate.data {
                        EventData::Scm(ScmEvent::Audit(audit)) => &audit.commands,
                        EventData::Scm(ScmEvent::HeartbeatDispatched { commands, .. }) => commands,
                        _ => return false,
                    };
                    candidate.host == event.host
                        && (commands.iter()).any(|c| c.sets_op_state() == Some(stored.as_str()))
                });
            if let Some(j) = delivered {
                out.push((
                    id,
                    j,
                    format!("SetNodeOperationalStateCommand({stored}) returned in the heartbeat response").into(),
                ));
            }
        }
    }
}

/// The op state in a `node-admin` label (`DECOMMISSIONING-HEALTHY tracked` → `DECOMMISSIONING`).
pub fn op_state_of(label: &str) -> Option<&str> {
    let op = label.split('-').next()?;
    (op != "?").then_some(op)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Replay;
    use crate::machines::scm_role::tests::scm_event;
    use oztrace_parser::entity::uuid_hash_code;

    const DN: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27";

    fn with_dn(mut e: Event) -> Event {
        e.entities = Box::new([Entity::Datanode(DN.into())]);
        e
    }

    fn node(kind: &'static str, line: u64, ts: i64) -> Event {
        with_dn(scm_event(
            "scm1",
            line,
            ts,
            ScmEvent::Node {
                kind,
                datanode: DN.into(),
                state: None,
            },
        ))
    }

    fn mismatch(kind: &'static str, line: u64, ts: i64, reported: &str, stored: &str) -> Event {
        with_dn(scm_event(
            "scm1",
            line,
            ts,
            ScmEvent::OpStateMismatch {
                kind,
                datanode: DN.into(),
                reported: reported.into(),
                reported_expiry: 0,
                stored: stored.into(),
                stored_expiry: 0,
            },
        ))
    }

    fn started(line: u64, ts: i64) -> Event {
        with_dn(scm_event(
            "scm1",
            line,
            ts,
            ScmEvent::AdminStarted {
                action: AdminAction::Decommission,
                datanode: DN.into(),
            },
        ))
    }

    fn aborted(line: u64, ts: i64, read: &str) -> Event {
        with_dn(scm_event(
            "scm1",
            line,
            ts,
            ScmEvent::AdminAborted {
                datanode: DN.into(),
                op_state: read.into(),
            },
        ))
    }

    fn tick(line: u64, ts: i64) -> Event {
        scm_event(
            "scm1",
            line,
            ts,
            ScmEvent::TrackedCount {
                tracked: 1,
                pending: 0,
            },
        )
    }

    fn run(events: Vec<Event>) -> Vec<Step> {
        let trace = Trace::from_ordered(events, 0);
        let mut machines: Vec<Box<dyn Machine>> = vec![Box::new(NodeAdmin::new())];
        let replay = Replay::run(&trace, &mut machines, i64::MAX);
        replay
            .of_machine(NAME)
            .map(|t| (t.from.to_string(), t.to.to_string(), t.inferred, t.illegal))
            .collect()
    }

    type Step = (String, String, Option<&'static str>, bool);

    fn labels(steps: &[Step]) -> Vec<(&str, &str)> {
        steps
            .iter()
            .map(|(f, t, _, _)| (f.as_str(), t.as_str()))
            .collect()
    }

    #[test]
    fn decommission_completes_on_the_leader() {
        let steps = run(vec![
            node("node_healthy", 1, 0),
            started(2, 10),
            mismatch(
                "op_state_command_scheduled",
                3,
                20,
                "IN_SERVICE",
                "DECOMMISSIONING",
            ),
            with_dn(scm_event(
                "scm1",
                4,
                30,
                ScmEvent::AdminCompleted {
                    datanode: DN.into(),
                    op_state: "DECOMMISSIONED".into(),
                },
            )),
        ]);
        assert_eq!(
            labels(&steps),
            vec![
                ("?-?", "?-HEALTHY"),
                ("?-HEALTHY", "DECOMMISSIONING-HEALTHY tracked"),
                ("DECOMMISSIONING-HEALTHY tracked", "DECOMMISSIONED-HEALTHY"),
            ]
        );
        assert!(steps.iter().all(|s| !s.3 && s.2.is_none()));
    }

    #[test]
    fn follower_abort_racing_a_heartbeat_copy_is_inferred() {
        let steps = run(vec![
            started(1, 0),
            tick(2, 1_000),
            mismatch(
                "follower_op_state_copied",
                3,
                2_000,
                "IN_SERVICE",
                "DECOMMISSIONING",
            ),
            aborted(4, 3_000, "IN_SERVICE"),
            mismatch(
                "follower_op_state_copied",
                5,
                3_001,
                "DECOMMISSIONING",
                "IN_SERVICE",
            ),
        ]);
        assert_eq!(
            labels(&steps),
            vec![
                ("?-?", "DECOMMISSIONING-? tracked"),
                ("DECOMMISSIONING-? tracked", "IN_SERVICE-? tracked"),
                ("IN_SERVICE-? tracked", "IN_SERVICE-?"),
                ("IN_SERVICE-?", "DECOMMISSIONING-?"),
                ("DECOMMISSIONING-?", "IN_SERVICE-?"),
            ]
        );
        assert_eq!(steps[4].2, Some(ABORT_WRITE_OVERWRITES_COPY));
    }

    #[test]
    fn a_copy_logged_between_the_read_and_the_warn_is_overwritten_too() {
        let steps = run(vec![
            started(1, 0),
            tick(2, 1_000),
            mismatch(
                "follower_op_state_copied",
                3,
                3_000,
                "DECOMMISSIONING",
                "IN_SERVICE",
            ),
            aborted(4, 3_001, "IN_SERVICE"),
        ]);
        let last = steps.last().unwrap();
        assert_eq!(
            (last.0.as_str(), last.1.as_str(), last.2),
            (
                "DECOMMISSIONING-? tracked",
                "IN_SERVICE-?",
                Some(ABORT_WRITE_OVERWRITES_COPY)
            )
        );
    }

    #[test]
    fn a_copy_after_the_tick_is_a_repair_not_a_race() {
        let steps = run(vec![
            started(1, 0),
            aborted(2, 3_000, "IN_SERVICE"),
            tick(3, 3_010),
            mismatch(
                "follower_op_state_copied",
                4,
                30_000,
                "DECOMMISSIONING",
                "IN_SERVICE",
            ),
        ]);
        assert!(
            steps
                .iter()
                .all(|s| s.2 != Some(ABORT_WRITE_OVERWRITES_COPY))
        );
        // The WARN read IN_SERVICE while the SCM held DECOMMISSIONING: the read is inferred.
        assert_eq!(steps[1].2, Some(ABORT_READ));
        assert_eq!(
            steps.last().map(|s| s.1.as_str()),
            Some("DECOMMISSIONING-?")
        );
    }

    #[test]
    fn recommission_resolves_the_tracked_node_hash() {
        let hash = format!("{:x}", uuid_hash_code(DN).unwrap());
        let steps = run(vec![
            started(1, 0),
            node("recommission_queued", 2, 10),
            scm_event(
                "scm1",
                3,
                20,
                ScmEvent::TrackedNode {
                    kind: "admin_recommissioned",
                    tracked_node: hash,
                },
            ),
        ]);
        assert_eq!(
            labels(&steps),
            vec![
                ("?-?", "DECOMMISSIONING-? tracked"),
                ("DECOMMISSIONING-? tracked", "DECOMMISSIONING-? cancelling"),
                ("DECOMMISSIONING-? cancelling", "IN_SERVICE-?"),
            ]
        );
    }

    #[test]
    fn illegal_admin_and_health_steps_are_flagged() {
        let steps = run(vec![
            mismatch(
                "op_state_command_scheduled",
                1,
                0,
                "IN_SERVICE",
                "DECOMMISSIONED",
            ),
            // Decommission of a node not IN_SERVICE: Ozone logs `Start Decommission called … Nothing to do.`
            started(2, 10),
            node("node_healthy", 3, 20),
            // HEALTHY → DEAD skips STALE.
            node("node_dead", 4, 30),
            // Maintenance ending for a node never in maintenance.
            node("admin_maintenance_ended", 5, 40),
        ]);
        let illegal: Vec<bool> = steps.iter().map(|s| s.3).collect();
        assert_eq!(illegal, vec![false, true, false, true, true]);
    }

    #[test]
    fn a_dead_node_reported_dead_again_is_legal() {
        // Writing the op state of a DEAD node fires DEAD_NODE again (scm.md 2.2).
        let steps = run(vec![node("node_dead", 2, 10), node("node_dead", 3, 20)]);
        let illegal: Vec<bool> = steps.iter().map(|s| s.3).collect();
        // The repeat changes nothing, so it is no step at all (before: a step flagged illegal).
        assert_eq!(illegal, vec![false]);
    }

    #[test]
    fn scheduling_links_to_the_heartbeat_that_delivered_it() {
        use crate::machines::scm_role::tests::heartbeat;
        use oztrace_parser::catalog::scm::{HeartbeatCommand, ScmAudit};
        let mut delivered = heartbeat("scm1", 2, 1, Some(5));
        if let EventData::Scm(ScmEvent::Audit(audit)) = &mut delivered.data {
            let ScmAudit { commands, .. } = &mut **audit;
            commands.push(HeartbeatCommand {
                command_type: "setNodeOperationalStateCommand".into(),
                op_state: Some("IN_SERVICE".into()),
                term: Some(5),
                cmd_id: Some(1),
            });
        }
        delivered.entities = Box::new([Entity::Datanode(DN.into())]);
        let mut elsewhere = delivered.clone();
        elsewhere.host = "scm2".into();
        let trace = Trace::from_ordered(
            vec![
                mismatch(
                    "op_state_command_scheduled",
                    1,
                    0,
                    "DECOMMISSIONING",
                    "IN_SERVICE",
                ),
                elsewhere,
                delivered,
            ],
            0,
        );
        let mut links = Vec::new();
        OpStateCommandDelivery.link(&trace, &mut links);
        assert_eq!(links.len(), 1);
        assert_eq!((links[0].0, links[0].1), (0, 2));
    }

    #[test]
    fn the_kinds_that_move_a_view_are_catalogued() {
        let known: Vec<&str> = oztrace_parser::catalog::kinds().map(|k| k.kind).collect();
        let matched = [
            "admin_start_on_node",
            "admin_recommissioned",
            "follower_op_state_copied",
            "node_stale",
        ];
        for kind in NODE_KINDS.iter().map(|(k, _)| *k).chain(matched) {
            assert!(known.contains(&kind), "{kind}");
        }
    }

    #[test]
    fn idle_views_are_evicted_after_retain() {
        let trace = Trace::from_ordered(vec![started(1, 0), node("node_healthy", 2, 100_000)], 0);
        let mut machine = NodeAdmin::new();
        let mut out = Vec::new();
        machine.on_event(&trace, 0, &mut out);
        machine.evict(50_000);
        machine.on_event(&trace, 1, &mut out);
        // The DECOMMISSIONING view was dropped: the next line starts from nothing known.
        assert_eq!(out.last().map(|t| t.from.as_str()), Some("?-?"));
    }

    #[test]
    fn views_are_per_scm() {
        let mut other = started(2, 10);
        other.host = "scm2".into();
        let trace = Trace::from_ordered(vec![started(1, 0), other], 0);
        let mut machines: Vec<Box<dyn Machine>> = vec![Box::new(NodeAdmin::new())];
        let replay = Replay::run(&trace, &mut machines, i64::MAX);
        let scopes: Vec<_> = replay
            .of_machine(NAME)
            .map(|t| (t.scope.as_deref().map(str::to_string), t.from.clone()))
            .collect();
        assert_eq!(
            scopes,
            vec![
                (Some("scm1".into()), "?-?".into()),
                (Some("scm2".into()), "?-?".into())
            ]
        );
        assert_eq!(
            op_state_of("DECOMMISSIONING-HEALTHY tracked"),
            Some("DECOMMISSIONING")
        );
        assert_eq!(op_state_of("?-HEALTHY"), None);
    }
}
