//! Machine `container`: SCM's container lifecycle, per container and per SCM member.
//!
//! Each SCM keeps its own copy of the container map (replicated through Ratis, applied in
//! `SCMStateMachine.applyTransaction`), and each prints its own report-handler lines, so the model
//! keeps one state per (container, SCM host): the transition's `scope` is the SCM host. The
//! authoritative view is the leader's: a follower prints the same report-handler decisions and
//! then fails to write them (`Failed to process …` with NotLeaderException); the change reaches it
//! silently through Ratis. Rules pick the leader's transitions (see `scm-role`).
//!
//! The lifecycle (`LifeCycleState`, `hadoop-hdds/interface-client/.../hdds.proto` and
//! `ContainerStateManagerImpl`'s state machine) changes silently: only TRACE `ContainerStateMap`
//! prints it. At INFO the machine sees it through the lines that act on a state
//! (`AbstractContainerReportHandler`: FINALIZE, QUASI_CLOSE, CLOSE, FORCE_CLOSE, the resurrection)
//! and through the state every `<D>` and `ContainerInfo` prints; a printed state the model did not
//! expect is reached by inferred steps, each naming the line that would have shown it.

use crate::graph::{Linker, Reason};
use crate::kinds::{Family, KindSet, Reads};
use crate::machine::{EntityStates, Machine, Transition};
use crate::replicas::ReplicaState;
use crate::trace::{
    EventId, HostId, IdCursor, LineState, ScmContainerLine, StateWord, Trace, WindowCursor,
};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::datanode::DatanodeEvent;
use oztrace_parser::catalog::scm_container::{ReplicaAction, ScmContainerEvent, Wording};
use oztrace_parser::entity::Entity;
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

pub const NAME: &str = "container";

/// What moves a container between states (`HddsProtos.LifeCycleEvent`, plus the resurrection,
/// which is a direct state write, `ContainerStateManagerImpl.transitionDeletingOrDeletedToTargetState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    Finalize,
    QuasiClose,
    Close,
    ForceClose,
    Delete,
    Cleanup,
    Resurrect,
}

/// The transition table: (from, trigger, to, the Ozone code that makes the step).
pub const TRANSITIONS: &[(&str, Trigger, &str, &str)] = &[
    (
        "OPEN",
        Trigger::Finalize,
        "CLOSING",
        "AbstractContainerReportHandler.updateContainerState case OPEN (non-OPEN replica); CloseContainerEventHandler",
    ),
    (
        "CLOSING",
        Trigger::QuasiClose,
        "QUASI_CLOSED",
        "AbstractContainerReportHandler.updateContainerState case CLOSING, QUASI_CLOSED replica",
    ),
    (
        "CLOSING",
        Trigger::Close,
        "CLOSED",
        "AbstractContainerReportHandler.updateContainerState case CLOSING, CLOSED replica with bcsid == sid",
    ),
    (
        "QUASI_CLOSED",
        Trigger::ForceClose,
        "CLOSED",
        "AbstractContainerReportHandler case QUASI_CLOSED, CLOSED replica; QuasiClosedContainerHandler (enough origins)",
    ),
    (
        "CLOSED",
        Trigger::Delete,
        "DELETING",
        "EmptyContainerHandler: empty CLOSED container, LifeCycleEvent.DELETE after the delete commands",
    ),
    (
        "QUASI_CLOSED",
        Trigger::Delete,
        "DELETING",
        "EmptyContainerHandler: empty QUASI_CLOSED container (HDDS-14684)",
    ),
    (
        "DELETING",
        Trigger::Cleanup,
        "DELETED",
        "DeletingContainerHandler: no replicas left, LifeCycleEvent.CLEANUP",
    ),
    (
        "DELETING",
        Trigger::Resurrect,
        "CLOSED",
        "AbstractContainerReportHandler case DELETING/DELETED, non-empty replica → transitionDeletingOrDeletedToTargetState (HDDS-11136; 2.0.0/2.1.x for any replica state)",
    ),
    (
        "DELETED",
        Trigger::Resurrect,
        "CLOSED",
        "AbstractContainerReportHandler case DELETED falls through to DELETING (HDDS-12421)",
    ),
    (
        "DELETING",
        Trigger::Resurrect,
        "QUASI_CLOSED",
        "AbstractContainerReportHandler: OPEN/CLOSING/UNHEALTHY replica, or QUASI_CLOSED with bcsid > sid (HDDS-14684, ≥ 2.2.0)",
    ),
    (
        "DELETED",
        Trigger::Resurrect,
        "QUASI_CLOSED",
        "AbstractContainerReportHandler: OPEN/CLOSING/UNHEALTHY replica, or QUASI_CLOSED with bcsid > sid (HDDS-14684, ≥ 2.2.0)",
    ),
];

/// The line that would have shown a silent step.
const TRACE_LINE: &str = "TRACE org.apache.hadoop.hdds.scm.container.states.ContainerStateMap `Updated the container {} from {} to {}`";

/// Whether the table allows `from --trigger--> to` (any trigger when `None`).
pub fn allowed(from: &str, trigger: Option<Trigger>, to: &str) -> bool {
    TRANSITIONS
        .iter()
        .any(|(f, t, d, _)| *f == from && *d == to && trigger.is_none_or(|want| want == *t))
}

/// The shortest chain of table steps from `from` to `to` without resurrection (the silent steps
/// between two printed states), or `None` when the table has none.
fn silent_path(from: &str, to: &str) -> Option<Vec<&'static str>> {
    let mut queue: Vec<(&str, Vec<&'static str>)> = vec![(from, Vec::new())];
    let mut seen = vec![from];
    while !queue.is_empty() {
        let (at, path) = queue.remove(0);
        for (f, trigger, d, _) in TRANSITIONS {
            if *f != at || *trigger == Trigger::Resurrect || seen.contains(d) {
                continue;
            }
            let mut next = path.clone();
            next.push(*d);
            if *d == to {
                return Some(next);
            }
            seen.push(d);
            queue.push((d, next));
        }
    }
    None
}

/// Each SCM's view of each container: the state it holds (`None` until a line shows one), by
/// (container, SCM host).
#[derive(Default)]
pub struct ContainerMachine {
    views: EntityStates<(u64, HostId), Option<&'static str>>,
    /// Where the last line read is in the trace's column of SCM container lines.
    lines: IdCursor,
}

impl ContainerMachine {
    pub fn new() -> ContainerMachine {
        ContainerMachine::default()
    }

    /// The state SCM `host` holds for `container`: `None` when the container is not tracked there,
    /// `Some(None)` when no line showed its state yet (for tests).
    pub fn view(&self, container: u64, host: HostId) -> Option<Option<&'static str>> {
        self.views.get(&(container, host)).copied()
    }
}

/// SCM's `LifeCycleState` word `state` (`HddsProtos`, in its order) as a static string, if it is
/// one.
pub fn life_cycle_state(state: &str) -> Option<&'static str> {
    [
        "OPEN",
        "CLOSING",
        "QUASI_CLOSED",
        "CLOSED",
        "DELETING",
        "DELETED",
        "RECOVERING",
    ]
    .into_iter()
    .find(|s| *s == state)
}

/// What one event says about a container.
struct Observation<'a> {
    container: u64,
    /// The state the line prints as current before its own action.
    printed: Option<&'a str>,
    /// The step the line itself makes.
    step: Option<(Trigger, &'a str)>,
}

/// The step a report handler's decision about a replica makes.
fn decision_step(action: ReplicaAction) -> Option<(Trigger, &'static str)> {
    match action {
        ReplicaAction::Finalize => Some((Trigger::Finalize, "CLOSING")),
        ReplicaAction::QuasiClose => Some((Trigger::QuasiClose, "QUASI_CLOSED")),
        ReplicaAction::Close => Some((Trigger::Close, "CLOSED")),
        ReplicaAction::ForceClose => Some((Trigger::ForceClose, "CLOSED")),
        _ => None,
    }
}

/// What a report handler's decision about a replica says ([`ScmContainerLine::action`]), read
/// from the trace's column: a state word the machine does not know is no state to it.
fn observe_decision(line: &ScmContainerLine, action: ReplicaAction) -> Observation<'static> {
    Observation {
        container: line.container,
        printed: match line.container_state {
            StateWord::Known(state) => Some(state),
            StateWord::Absent | StateWord::Other => None,
        },
        step: decision_step(action),
    }
}

fn observe(data: &ScmContainerEvent) -> Option<Observation<'_>> {
    let container = data.container()?;
    let mut obs = Observation {
        container,
        printed: None,
        step: None,
    };
    if let Some(r) = data.replica() {
        // A failure prints `<D>` as memoized before the decision it failed to write: its state
        // is not the current one.
        if !matches!(data, ScmContainerEvent::ReportFailed(_)) {
            obs.printed = r.container_state.as_deref();
        }
    }
    let kind = data.kind();
    match data {
        ScmContainerEvent::Replica(e) => obs.step = decision_step(e.action),
        ScmContainerEvent::Resurrected(e) => {
            obs.printed = Some(e.from.as_str());
            obs.step = Some((Trigger::Resurrect, e.to.as_str()));
            if e.wording == Wording::MovingDeleting {
                obs.printed = Some("DELETING");
            }
        }
        ScmContainerEvent::ReplicationCommand(e) => {
            obs.printed = e.state.as_deref();
            // EmptyContainerHandler sends the delete commands, then moves the container to DELETING.
            if e.command == "deleteContainerCommand"
                && e.force != Some(true)
                && matches!(obs.printed, Some("CLOSED" | "QUASI_CLOSED"))
            {
                obs.step = Some((Trigger::Delete, "DELETING"));
            }
        }
        ScmContainerEvent::SequenceId(_) if kind == "empty_quasi_closed_deleted" => {
            obs.printed = Some("QUASI_CLOSED");
            obs.step = Some((Trigger::Delete, "DELETING"));
        }
        ScmContainerEvent::StateChange(e) => {
            obs.printed = e.from.as_deref();
            let trigger = match kind {
                "container_cleanup" => Trigger::Cleanup,
                "container_marked_deleting" => Trigger::Delete,
                // TRACE ContainerStateMap names no event: take the table's.
                _ => TRANSITIONS
                    .iter()
                    .find(|(f, _, d, _)| Some(*f) == obs.printed && *d == e.to)
                    .map_or(Trigger::Resurrect, |(_, t, _, _)| *t),
            };
            obs.step = Some((trigger, e.to.as_str()));
        }
        _ => {}
    }
    Some(obs)
}

/// The kinds [`ContainerMachine`] reads: every SCM container line.
pub const CONSUMES: &[Reads] = &[Reads::Family(Family::ScmContainer)];

impl Machine for ContainerMachine {
    fn name(&self) -> &'static str {
        NAME
    }

    fn consumes(&self) -> &'static [Reads] {
        CONSUMES
    }

    fn on_event(&mut self, trace: &Trace, id: EventId, out: &mut Vec<Transition>) {
        // A line that names no container is passed over, a report handler's decision read from
        // the trace's column: only the few lines of other shapes are opened.
        let Some(line) = trace.scm_container_line_from(id, &mut self.lines) else {
            return;
        };
        let obs = match line.action {
            Some(action) => observe_decision(line, action),
            None => {
                let EventData::ScmContainer(data) = &trace.get(id).data else {
                    return;
                };
                let Some(obs) = observe(data) else {
                    return;
                };
                obs
            }
        };
        let host = trace.host_of(id);
        let state = self
            .views
            .entry_or((obs.container, host), || None, trace.ts_of(id));
        // The RM sends one delete command per replica, each printing the ContainerInfo of the pass
        // (CLOSED), and moves the container to DELETING after the last: one step, not several.
        let same_pass_delete =
            obs.step.is_some_and(|(t, _)| t == Trigger::Delete) && *state == Some("DELETING");
        if same_pass_delete {
            return;
        }
        let entity = trace.shared(id, &Entity::Container(obs.container));
        let host = trace.host_name(host);
        let push =
            |out: &mut Vec<Transition>, from: &'static str, to: &'static str, inferred, illegal| {
                out.push(Transition {
                    machine: NAME,
                    entity: Arc::clone(&entity),
                    scope: Some(Arc::clone(host)),
                    from: from.into(),
                    to: to.into(),
                    event: id,
                    inferred,
                    illegal,
                });
            };
        if let Some(printed) = obs.printed.and_then(life_cycle_state) {
            match *state {
                None => *state = Some(printed),
                Some(current) if current != printed => {
                    match silent_path(current, printed) {
                        Some(path) => {
                            let mut at = current;
                            for step in path {
                                push(out, at, step, Some(TRACE_LINE), false);
                                at = step;
                            }
                        }
                        None => push(out, current, printed, Some(TRACE_LINE), true),
                    }
                    *state = Some(printed);
                }
                Some(_) => {}
            }
        }
        if let Some((trigger, to)) = obs.step
            && let Some(to) = life_cycle_state(to)
        {
            let from = state.unwrap_or("UNKNOWN");
            if from != to {
                let legal = state.is_none() || allowed(from, Some(trigger), to);
                push(out, from, to, None, !legal);
            }
            *state = Some(to);
        }
    }

    fn evict(&mut self, before: i64) {
        self.views.evict(before);
    }
}

/// Links a report-handler decision that needs a Ratis write (a resurrection, a delete command) to
/// the not-leader failure the same SCM logs for the same replica right after it: the follower
/// printed the decision but could not apply it.
pub struct FailedWriteLinker;

impl Linker for FailedWriteLinker {
    fn name(&self) -> &'static str {
        "container-report"
    }

    fn consumes(&self) -> &'static [Reads] {
        &[
            Reads::Kind("container_resurrected"),
            Reads::Kind("container_report_not_leader"),
        ]
    }

    fn link(&self, trace: &Trace, out: &mut Vec<(EventId, EventId, Reason)>) {
        // The few decisions and failures, host by host (in name order), each host's in order.
        let mut lines: Vec<EventId> = trace.of_kinds(&KindSet::of(self.consumes())).collect();
        lines.sort_by_key(|&id| trace.host_name(trace.host_of(id)));
        for host_lines in lines.chunk_by(|&a, &b| trace.host_of(a) == trace.host_of(b)) {
            // (container, datanode, BCSID) → the latest decision line for that replica.
            let mut decisions: HashMap<(u64, &str, u64), EventId> = HashMap::default();
            for &id in host_lines {
                let EventData::ScmContainer(data) = &trace.get(id).data else {
                    continue;
                };
                match data {
                    ScmContainerEvent::Resurrected(e) => {
                        if let (Some(dn), Some(bcsid)) = (e.datanode.as_deref(), e.bcsid) {
                            decisions.insert((e.container, dn, bcsid), id);
                        }
                    }
                    ScmContainerEvent::ReportFailed(f) if f.not_leader => {
                        let r = &f.replica;
                        if let Some(decision) =
                            decisions.remove(&(r.container, r.datanode.as_str(), r.bcsid))
                        {
                            out.push((
                                decision,
                                id,
                                "this SCM is not the leader: the decision was not written".into(),
                            ));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

/// How long after a datanode's container state change SCM's report-handler line for it can come:
/// the change goes out as an incremental container report with the next heartbeat (30 s by
/// default), and a busy SCM queues it.
const REPORT_WINDOW_MS: i64 = 5 * 60 * 1000;

/// At most this many SCM lines of one (container, replica state) are each tested against a
/// change's window ([`ReplicaReported`]); of more, the window is found first.
const FEW_REPORTS: usize = 16;

/// Links a datanode's container state change (dn-container log: `State=CLOSED`, …) to each SCM's
/// report-handler line for that replica (`CLOSE Container #C (…) rN (CLOSED, …) from dn <uuid>(<host>/…)`):
/// every state change the dn-container log records is sent as an ICR (ContainerLogger callers
/// `sendICR` right after), and every SCM logs what it decided for it.
pub struct ReplicaReported;

impl Linker for ReplicaReported {
    fn name(&self) -> &'static str {
        "replica-reported"
    }

    fn consumes(&self) -> &'static [Reads] {
        &[
            Reads::Family(Family::ScmContainer),
            Reads::Kind("dn_container_state"),
        ]
    }

    fn link(&self, trace: &Trace, out: &mut Vec<(EventId, EventId, Reason)>) {
        // Every SCM report-handler line: its (container, replica state), the line and the datanode
        // it prints (by its place).
        let mut states = StateCodes::default();
        let mut handled: Vec<((u64, u32), EventId, u32)> = Vec::new();
        // The short name of each datanode host the lines print, by its place in the trace.
        let printed_hosts: Vec<String> = (0..trace.replica_host_places() as u32)
            .map(|place| short_name(trace.replica_host(place)))
            .collect();
        // The trace's column: a line is opened only when it prints an unusual replica state.
        for (id, line) in trace.scm_container_lines() {
            if line.action.is_none() {
                continue;
            }
            let code = match line.replica_state {
                LineState::Known(state) => state as u32,
                _ => match &trace.get(id).data {
                    EventData::ScmContainer(ScmContainerEvent::Replica(e)) => {
                        states.code(&e.replica.replica_state)
                    }
                    _ => continue,
                },
            };
            handled.push(((line.container, code), id, line.datanode_host));
        }
        if handled.is_empty() {
            return;
        }
        // The lines of each (container, replica state) side by side, in time order (a stable
        // sort of lines in time order), found by their key.
        handled.sort_by_key(|&(key, _, _)| key);
        let mut groups: HashMap<(u64, u32), std::ops::Range<usize>> = HashMap::default();
        let mut start = 0;
        for group in handled.chunk_by(|a, b| a.0 == b.0) {
            groups.insert(group[0].0, start..start + group.len());
            start += group.len();
        }
        // Each datanode host's short name, once.
        let mut short_hosts: Vec<Option<String>> = vec![None; trace.host_count()];
        // The lines come in time order: each window walks on from the last.
        let mut windows = WindowCursor::default();
        let mut seen_hosts: Vec<HostId> = Vec::new();
        // The trace's compact column: a line is opened only when it prints an unusual state.
        for (id, line) in trace.container_state_lines() {
            let container = line.container;
            let code = match line.state {
                LineState::Absent => continue,
                LineState::Known(state) => state as u32,
                LineState::Other => match &trace.get(id).data {
                    EventData::Datanode(DatanodeEvent::DnContainerState {
                        state: Some(state),
                        ..
                    }) => match states.find(state) {
                        Some(code) => code,
                        None => continue,
                    },
                    _ => continue,
                },
            };
            let (Some(group), Some(at)) = (groups.get(&(container, code)), trace.ts_of(id)) else {
                continue;
            };
            let mut candidates = &handled[group.clone()];
            let host = trace.host_of(id);
            // Of many lines, only those that can be in the window: a container's reports can
            // recur over the whole trace. A few are each tested.
            if candidates.len() > FEW_REPORTS {
                let window =
                    trace.between_from(at - trace.skew_ms, at + REPORT_WINDOW_MS, &mut windows);
                let from = candidates.partition_point(|&(_, scm, _)| scm < window.start);
                let to = candidates.partition_point(|&(_, scm, _)| scm < window.end);
                candidates = &candidates[from..to];
            }
            seen_hosts.clear();
            for &(_, scm, printed) in candidates {
                let scm_host = trace.host_of(scm);
                let in_window = trace
                    .elapsed(id, scm)
                    .is_some_and(|ms| ms >= -trace.skew_ms && ms <= REPORT_WINDOW_MS);
                let short = short_hosts[host.index()]
                    .get_or_insert_with(|| short_name(trace.host_name(host)));
                if in_window
                    && same_short_host(short, &printed_hosts[printed as usize])
                    && !seen_hosts.contains(&scm_host)
                {
                    // The first line per SCM after the change is the one that handled this report.
                    seen_hosts.push(scm_host);
                    out.push((id, scm, Reason::Deferred(reported)));
                }
            }
        }
    }
}

/// [`ReplicaReported`]'s reason for the link from a dn-container line to an SCM line.
fn reported(trace: &Trace, change: EventId, handled: EventId) -> String {
    let (container, state) = match &trace.get(change).data {
        EventData::Datanode(DatanodeEvent::DnContainerState { id, state, .. }) => {
            (*id, state.as_deref().unwrap_or_default())
        }
        _ => (0, ""),
    };
    format!(
        "{} reports #{container} {state}; {} handles the report",
        trace.host_name(trace.host_of(change)),
        trace.host_name(trace.host_of(handled))
    )
}

/// Replica states as small numbers, so that a (container, state) key hashes no string: a
/// `ContainerDataProto.State` is its [`ReplicaState`], another word its place among the others
/// met.
#[derive(Default)]
struct StateCodes<'t> {
    others: HashMap<&'t str, u32>,
}

impl<'t> StateCodes<'t> {
    /// Past every [`ReplicaState`].
    const FIRST_OTHER: u32 = 32;

    /// The code of `state`, given one if it is new.
    fn code(&mut self, state: &'t str) -> u32 {
        self.find(state).unwrap_or_else(|| {
            let code = Self::FIRST_OTHER + self.others.len() as u32;
            self.others.insert(state, code);
            code
        })
    }

    /// The code of `state`, if it has one.
    fn find(&self, state: &str) -> Option<u32> {
        match ReplicaState::parse(state) {
            Some(known) => Some(known as u32),
            None => self.others.get(state).copied(),
        }
    }
}

/// A host name's first DNS label, lower-case ([`same_short_host`]).
fn short_name(host: &str) -> String {
    host.split('.').next().unwrap_or(host).to_ascii_lowercase()
}

/// Whether a log's host (`dn1`, `dn1.example.com`, compose `datanode-1`) and the host a
/// `uuid(host/ip)` prints (`dn1.example.com`, `ozone-datanode-1`), both shortened
/// ([`short_name`]), name one machine.
fn same_short_host(a: &str, b: &str) -> bool {
    // `a` ends with `-b`.
    let dashed = |a: &str, b: &str| {
        a.len() > b.len() && a.ends_with(b) && a.as_bytes()[a.len() - b.len() - 1] == b'-'
    };
    !a.is_empty() && !b.is_empty() && (a == b || dashed(a, b) || dashed(b, a))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::machine::Replay;
    use oztrace_parser::event::Event;
    use oztrace_parser::source::Component;

    const DN: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13";

    fn d(cstate: &str, sid: u64, rstate: &str, bcsid: u64) -> String {
        format!(
            "Container #1051 ({cstate}, sid={sid}) r0 ({rstate}, bcsid={bcsid}, origin={DN}, non-empty) from dn {DN}(dn5.example.com/10.0.1.15)"
        )
    }

    pub(crate) fn scm_event(host: &str, line: u64, ts: i64, logger: &str, message: &str) -> Event {
        Event {
            ts: Some(ts),
            file: format!("{host}/scm.log").into(),
            line,
            ..oztrace_testkit::message(host, Component::Scm, Some(logger), message)
        }
    }

    const ICR: &str = "org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler";
    const FCR: &str = "org.apache.hadoop.hdds.scm.container.ContainerReportHandler";
    const RM: &str = "org.apache.hadoop.hdds.scm.container.replication.ReplicationManager";

    fn run(events: Vec<Event>) -> (Replay, ContainerMachine, Trace) {
        let trace = Trace::from_ordered(events, 0);
        let mut machine = ContainerMachine::new();
        let mut out = Vec::new();
        for id in 0..trace.len() {
            machine.on_event(&trace, id, &mut out);
        }
        let mut boxed: Vec<Box<dyn Machine>> = vec![Box::new(ContainerMachine::new())];
        let replay = Replay::run(&trace, &mut boxed, i64::MAX);
        assert_eq!(replay.transitions().cloned().collect::<Vec<_>>(), out);
        (replay, machine, trace)
    }

    /// The interned id of SCM host `name`.
    fn scm(trace: &Trace, name: &str) -> HostId {
        trace.host_of(trace.of_host(name)[0])
    }

    fn steps(replay: &Replay) -> Vec<(String, String, bool, bool)> {
        replay
            .of_machine(NAME)
            .map(|t| {
                (
                    t.from.to_string(),
                    t.to.to_string(),
                    t.inferred.is_some(),
                    t.illegal,
                )
            })
            .collect()
    }

    fn s(from: &str, to: &str, inferred: bool, illegal: bool) -> (String, String, bool, bool) {
        (from.into(), to.into(), inferred, illegal)
    }

    #[test]
    fn lifecycle_with_silent_deletion_and_resurrection() {
        let delete = "Sending command [deleteContainerCommand: cmdID: 1, encodedToken: \"\", term: 0, deadlineMsSinceEpoch: 0, containerID: 1051, replicaIndex: 0, force: false] for container ContainerInfo{id=#1051, state=CLOSED, stateEnterTime=2026-08-18T09:25:03.114Z, pipelineID=Pipeline-8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d, owner=om1} to 9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40(dn1.example.com/10.0.1.11) with datanode deadline 1 and scm deadline 2";
        let (replay, machine, trace) = run(vec![
            scm_event(
                "scm1",
                1,
                10,
                ICR,
                &format!(
                    "FINALIZE (i.e. CLOSING) {}",
                    d("OPEN", 4821, "CLOSING", 4821)
                ),
            ),
            scm_event(
                "scm1",
                2,
                20,
                ICR,
                &format!("CLOSE {}", d("CLOSING", 4821, "CLOSED", 4821)),
            ),
            scm_event("scm1", 3, 30, RM, delete),
            scm_event("scm1", 4, 31, RM, delete),
            scm_event(
                "scm1",
                4,
                40,
                FCR,
                &format!(
                    "Resurrecting container #1051 from DELETED to QUASI_CLOSED due to non-empty OPEN replica (keyCount=37, BCSID=4790) from {}",
                    d("DELETED", 4821, "OPEN", 4790)
                ),
            ),
        ]);
        assert_eq!(
            steps(&replay),
            vec![
                s("OPEN", "CLOSING", false, false),
                s("CLOSING", "CLOSED", false, false),
                s("CLOSED", "DELETING", false, false),
                // DeletingContainerHandler's CLEANUP is DEBUG only: inferred from the printed DELETED.
                s("DELETING", "DELETED", true, false),
                s("DELETED", "QUASI_CLOSED", false, false),
            ]
        );
        assert!(
            replay
                .of_machine(NAME)
                .all(|t| t.scope.as_deref() == Some("scm1"))
        );
        assert_eq!(
            machine.view(1051, scm(&trace, "scm1")),
            Some(Some("QUASI_CLOSED"))
        );
    }

    #[test]
    fn views_are_per_scm_and_impossible_steps_are_flagged() {
        let (replay, machine, trace) = run(vec![
            scm_event(
                "scm1",
                1,
                10,
                ICR,
                &format!("CLOSE {}", d("CLOSING", 5, "CLOSED", 5)),
            ),
            scm_event(
                "scm2",
                1,
                11,
                ICR,
                &format!("FINALIZE (i.e. CLOSING) {}", d("OPEN", 5, "CLOSING", 5)),
            ),
            // A DELETED container printed as OPEN later: no table path leads back to OPEN.
            scm_event(
                "scm1",
                2,
                20,
                ICR,
                &format!("FINALIZE (i.e. CLOSING) {}", d("OPEN", 5, "CLOSING", 5)),
            ),
        ]);
        assert_eq!(
            steps(&replay),
            vec![
                s("CLOSING", "CLOSED", false, false),
                s("OPEN", "CLOSING", false, false),
                s("CLOSED", "OPEN", true, true),
                s("OPEN", "CLOSING", false, false),
            ]
        );
        assert_eq!(
            machine.view(1051, scm(&trace, "scm2")),
            Some(Some("CLOSING"))
        );
    }

    #[test]
    fn table_allows_resurrection_only_from_deleting_or_deleted() {
        assert!(allowed("DELETED", Some(Trigger::Resurrect), "QUASI_CLOSED"));
        assert!(allowed("DELETING", Some(Trigger::Resurrect), "CLOSED"));
        assert!(!allowed("CLOSED", Some(Trigger::Resurrect), "QUASI_CLOSED"));
        assert!(!allowed("DELETED", Some(Trigger::Close), "CLOSED"));
        assert_eq!(
            silent_path("CLOSED", "DELETED"),
            Some(vec!["DELETING", "DELETED"])
        );
        assert_eq!(silent_path("DELETED", "QUASI_CLOSED"), None);
        let (replay, _, _) = run(vec![
            scm_event(
                "scm1",
                1,
                10,
                ICR,
                &format!("CLOSE {}", d("CLOSING", 5, "CLOSED", 5)),
            ),
            scm_event(
                "scm1",
                2,
                20,
                FCR,
                &format!(
                    "Resurrecting container #1051 from DELETED to QUASI_CLOSED due to non-empty OPEN replica (keyCount=1, BCSID=5) from {}",
                    d("DELETED", 5, "OPEN", 5)
                ),
            ),
        ]);
        assert_eq!(
            steps(&replay),
            vec![
                s("CLOSING", "CLOSED", false, false),
                s("CLOSED", "DELETING", true, false),
                s("DELETING", "DELETED", true, false),
                s("DELETED", "QUASI_CLOSED", false, false),
            ]
        );
    }

    #[test]
    fn a_failed_write_prints_the_state_before_its_decision() {
        let resurrect = format!(
            "Resurrecting container #1051 from DELETED to QUASI_CLOSED due to non-empty OPEN replica (keyCount=37, BCSID=4790) from {}",
            d("DELETED", 4821, "OPEN", 4790)
        );
        let failed = format!(
            "SCM_NOT_LEADER: Failed to process {}",
            d("DELETED", 4821, "OPEN", 4790)
        );
        // Only the incremental report handler prints `SCM_NOT_LEADER: Failed to process`.
        let (replay, machine, trace) = run(vec![
            scm_event("scm2", 1, 10, FCR, &resurrect),
            scm_event("scm2", 2, 11, ICR, &failed),
        ]);
        assert_eq!(
            steps(&replay),
            vec![s("DELETED", "QUASI_CLOSED", false, false)]
        );
        assert_eq!(
            machine.view(1051, scm(&trace, "scm2")),
            Some(Some("QUASI_CLOSED"))
        );
        let trace = Trace::from_ordered(
            vec![
                scm_event("scm2", 1, 10, FCR, &resurrect),
                scm_event("scm1", 1, 10, FCR, &resurrect),
                scm_event("scm2", 2, 11, ICR, &failed),
            ],
            0,
        );
        let mut links = Vec::new();
        FailedWriteLinker.link(&trace, &mut links);
        assert_eq!(links.len(), 1);
        assert_eq!((links[0].0, links[0].1), (0, 2));
    }

    #[test]
    fn idle_containers_are_evicted() {
        let trace = Trace::from_ordered(
            vec![scm_event(
                "scm1",
                1,
                10,
                ICR,
                &format!("CLOSE {}", d("CLOSING", 5, "CLOSED", 5)),
            )],
            0,
        );
        let mut machine = ContainerMachine::new();
        machine.on_event(&trace, 0, &mut Vec::new());
        assert!(machine.view(1051, scm(&trace, "scm1")).is_some());
        machine.evict(11);
        assert!(machine.view(1051, scm(&trace, "scm1")).is_none());
    }

    fn dn_container_event(host: &str, ts: i64, state: &str) -> Event {
        let message = format!(
            "ID=1051 | Index=0 | BCSID=4790 | State={state} | Volume=/data/disk1/hdds | DataChecksum=0"
        );
        Event {
            ts: Some(ts),
            file: format!("{host}/dn-container-{host}.log").into(),
            line: 1,
            ..oztrace_testkit::message(host, Component::DnContainer, None, &message)
        }
    }

    #[test]
    fn state_codes_tell_every_word_apart() {
        let mut codes = StateCodes::default();
        let closed = codes.code("CLOSED");
        assert_eq!(closed, ReplicaState::Closed as u32);
        assert_ne!(codes.code("OPEN"), closed);
        let odd = codes.code("HALF_CLOSED");
        assert!(odd >= StateCodes::FIRST_OTHER);
        assert_eq!(codes.code("HALF_CLOSED"), odd);
        assert_ne!(codes.code("NEARLY_CLOSED"), odd);
        assert_eq!(codes.find("HALF_CLOSED"), Some(odd));
        assert_eq!(codes.find("closed"), None);
    }

    #[test]
    fn a_replica_state_change_links_to_each_scms_report_line_for_it() {
        const ICRH: &str = "org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler";
        let close = format!("CLOSE {}", d("CLOSING", 4790, "CLOSED", 4790));
        let trace = Trace::from_ordered(
            vec![
                dn_container_event("dn5", 1_000, "CLOSED"),
                scm_event("scm1", 10, 2_000, ICRH, &close),
                scm_event("scm2", 10, 2_100, ICRH, &close),
                // A second report of the same replica on scm1 is not this change's.
                scm_event("scm1", 11, 3_000, ICRH, &close),
                // Another datanode's replica in the same state: not linked.
                dn_container_event("dn6", 1_500, "CLOSED"),
            ],
            200,
        );
        let mut links = Vec::new();
        ReplicaReported.link(&trace, &mut links);
        let pairs: Vec<(EventId, EventId)> = links.iter().map(|(a, b, _)| (*a, *b)).collect();
        assert_eq!(pairs, vec![(0, 1), (0, 2)]);
        let Reason::Deferred(reason) = links[0].2 else {
            panic!("the reason is written when asked");
        };
        assert_eq!(
            reason(&trace, 0, 1),
            "dn5 reports #1051 CLOSED; scm1 handles the report"
        );
        assert_eq!(short_name("DN5.example.com"), "dn5");
        let same_host = |a: &str, b: &str| same_short_host(&short_name(a), &short_name(b));
        assert!(same_host("dn5", "dn5.example.com"));
        assert!(same_host("datanode-1", "ozone-datanode-1"));
        assert!(!same_host("dn1", "dn11.example.com"));
    }

    /// A replica whose (container, state) SCM reports many times over the trace links to the
    /// first report in its window on each SCM, as when there are few.
    #[test]
    fn a_change_links_to_the_first_report_in_its_window_among_many() {
        const ICRH: &str = "org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler";
        let close = format!("CLOSE {}", d("CLOSING", 4790, "CLOSED", 4790));
        for reports in [3, 40] {
            // scm1 reports every 100 s, before and after dn5's change at 1 000 s, and once at
            // its time; scm2 once, 20 s after it.
            let start = 1_000_000 - 100_000 * (reports / 4).max(1);
            let mut events: Vec<Event> = (0..reports)
                .map(|n| scm_event("scm1", n as u64 + 1, start + n * 100_000, ICRH, &close))
                .collect();
            events.push(scm_event("scm2", 1, 1_020_000, ICRH, &close));
            events.push(dn_container_event("dn5", 1_000_000, "CLOSED"));
            events.sort_by_key(|e| e.ts);
            let trace = Trace::from_ordered(events, 200);
            let mut links = Vec::new();
            ReplicaReported.link(&trace, &mut links);
            let linked: Vec<(i64, &str)> = (links.iter())
                .map(|&(change, report, _)| {
                    assert_eq!(trace.ts_of(change), Some(1_000_000));
                    (trace.ts_of(report).unwrap_or(0), &*trace.get(report).host)
                })
                .collect();
            assert_eq!(
                linked,
                [(1_000_000, "scm1"), (1_020_000, "scm2")],
                "{reports}"
            );
        }
    }
}
