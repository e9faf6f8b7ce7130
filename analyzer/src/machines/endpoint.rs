//! `dn-endpoint`: the datanode's endpoint state machine, one per (datanode, SCM endpoint).
//!
//! Models `EndpointStateMachine.EndPointStates` (GETVERSION → REGISTER → HEARTBEAT, SHUTDOWN)
//! as `RunningDatanodeState` drives it (apache/ozone HEAD `78d5650c`,
//! `hadoop-hdds/container-service/.../container/common/`): every heartbeat cycle
//! `RunningDatanodeState.execute` builds one task for the endpoint's state *at that moment*
//! (`getEndPointTask`) and submits it to the endpoint's single-thread executor; `await` waits one
//! heartbeat interval and on timeout logs `Detected timeout` without cancelling, so the task stays
//! queued. `VersionEndpointTask` and `RegisterEndpointTask` re-check the state under the endpoint
//! lock; `HeartbeatEndpointTask.call` does not (HDDS-17269), so a heartbeat sent while the
//! endpoint is in GETVERSION or REGISTER is a stale queued task: an illegal step here.
//!
//! None of the state changes is logged at INFO (datanode.md 2.6). The machine reads them from the
//! HeartbeatEndpointTask DEBUG lines when present, else infers them from the SCM side (a
//! reregister command in the SCM audit `SEND_HEARTBEAT`, the SCM's `REGISTER` audit) and marks
//! those steps inferred with the line that would have shown them. The state also counts the
//! tasks that timed out and are still queued behind the running one.
//!
//! Entity: `datanode:<uuid>`; scope: the endpoint key ([`endpoint_key`], the SCM's short host
//! name), so the datanode's view of each SCM is one replayable line.

use crate::graph::{Linker, Reason};
use crate::kinds::{self, Family, KindIndex, KindSet, Reads};
use crate::machine::{EntityStates, Machine, State, Transition};
use crate::names::Names;
use crate::trace::{EventId, HostId, IdCursor, Trace};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::dn_endpoint::{DnEndpointEvent, endpoint_address};
use oztrace_parser::catalog::scm::{ScmAudit, ScmEvent};
use oztrace_parser::entity::{Entity, datanode_details, find_datanode_details};
use oztrace_parser::event::Event;
use oztrace_parser::source::{Component, short_host};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::{Arc, LazyLock};

pub const MACHINE: &str = "dn-endpoint";

/// `EndpointStateMachine.EndPointStates`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    GetVersion,
    Register,
    Heartbeat,
    Shutdown,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::GetVersion => "GETVERSION",
            Phase::Register => "REGISTER",
            Phase::Heartbeat => "HEARTBEAT",
            Phase::Shutdown => "SHUTDOWN",
        }
    }

    fn parse(s: &str) -> Option<Phase> {
        Some(match s {
            "GETVERSION" => Phase::GetVersion,
            "REGISTER" => Phase::Register,
            "HEARTBEAT" => Phase::Heartbeat,
            "SHUTDOWN" => Phase::Shutdown,
            _ => return None,
        })
    }
}

/// What moved the endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// RunningDatanodeState `Detected timeout`: one more task queued behind the running one.
    TimedOut,
    /// EndpointStateMachine `Unable to communicate`: a task's RPC failed.
    Unreachable,
    /// HeartbeatEndpointTask DEBUG `Sending heartbeat message`.
    HeartbeatSent,
    /// The SCM answered a heartbeat normally (SCM audit `SEND_HEARTBEAT` without reregister).
    HeartbeatAnswered,
    /// A reregister command: DEBUG `Received SCM notification to register` on the datanode, or
    /// the SCM's audit / `unregistered datanode` line.
    Reregister,
    /// HeartbeatEndpointTask DEBUG `Illegal state {} found, expecting HEARTBEAT.`.
    ReregisterInState(Phase),
    /// VersionEndpointTask DEBUG `Cannot execute GetVersion task … in {} state`.
    StaleVersionTask(Phase),
    /// The SCM's `REGISTER` audit or `Registered datanode:` line.
    Registered,
    /// SCMConnectionManager `SCM endpoint … re-resolved`: a new endpoint object in GETVERSION.
    Replaced,
    /// RegisterEndpointTask `DatanodeDetails cannot be null … shutting down the endpoint.`.
    Shutdown,
}

impl Trigger {
    fn name(self) -> &'static str {
        match self {
            Trigger::TimedOut => "task timed out",
            Trigger::Unreachable => "SCM unreachable",
            Trigger::HeartbeatSent => "heartbeat sent",
            Trigger::HeartbeatAnswered => "heartbeat answered",
            Trigger::Reregister => "reregister command",
            Trigger::ReregisterInState(_) => "reregister in state",
            Trigger::StaleVersionTask(_) => "stale version task",
            Trigger::Registered => "registered",
            Trigger::Replaced => "endpoint replaced",
            Trigger::Shutdown => "shutdown",
        }
    }
}

/// One row of the transition table: (from, trigger, to, the Ozone code that does it). `None` as
/// `from` means any state.
pub type Row = (Option<Phase>, &'static str, Phase, &'static str);

/// Legal steps. A step not in this table is replayed as `illegal`.
pub const TRANSITIONS: &[Row] = &[
    (
        Some(Phase::GetVersion),
        "version answered",
        Phase::Register,
        "VersionEndpointTask.call: setState(REGISTER) after getVersion",
    ),
    (
        Some(Phase::Register),
        "registered",
        Phase::Heartbeat,
        "RegisterEndpointTask.call: setState(HEARTBEAT) after register",
    ),
    (
        Some(Phase::Heartbeat),
        "heartbeat sent",
        Phase::Heartbeat,
        "HeartbeatEndpointTask.call, built by RunningDatanodeState.getEndPointTask in HEARTBEAT",
    ),
    (
        Some(Phase::Heartbeat),
        "heartbeat answered",
        Phase::Heartbeat,
        "HeartbeatEndpointTask.processResponse",
    ),
    (
        Some(Phase::Heartbeat),
        "reregister command",
        Phase::GetVersion,
        "HeartbeatEndpointTask.processReregisterCommand: setState(GETVERSION)",
    ),
    (
        Some(Phase::GetVersion),
        "reregister command",
        Phase::GetVersion,
        "processReregisterCommand outside HEARTBEAT: logs Illegal state, no change",
    ),
    (
        Some(Phase::Register),
        "reregister command",
        Phase::Register,
        "processReregisterCommand outside HEARTBEAT: logs Illegal state, no change",
    ),
    (
        Some(Phase::GetVersion),
        "reregister in state",
        Phase::GetVersion,
        "HeartbeatEndpointTask.processReregisterCommand: Illegal state",
    ),
    (
        Some(Phase::Register),
        "reregister in state",
        Phase::Register,
        "HeartbeatEndpointTask.processReregisterCommand: Illegal state",
    ),
    (
        None,
        "task timed out",
        Phase::Heartbeat,
        "RunningDatanodeState.await: Detected timeout, task not cancelled",
    ),
    (
        None,
        "SCM unreachable",
        Phase::Heartbeat,
        "EndpointStateMachine.logIfNeeded from a task's IOException path",
    ),
    (
        None,
        "stale version task",
        Phase::Heartbeat,
        "VersionEndpointTask.call: state checked under the endpoint lock, no-op",
    ),
    (
        None,
        "endpoint replaced",
        Phase::GetVersion,
        "SCMConnectionManager.refreshSCMServer: new EndpointStateMachine (GETVERSION)",
    ),
    (
        None,
        "shutdown",
        Phase::Shutdown,
        "RegisterEndpointTask.call: setState(SHUTDOWN)",
    ),
];

/// Whether `trigger` may move `from` to `to`. Rows whose `from` is `None` are self-loops
/// (`to` is a placeholder) except where the target is fixed (replaced, shutdown).
pub fn is_legal(from: Phase, trigger: &str, to: Phase) -> bool {
    TRANSITIONS.iter().any(|&(f, t, target, _)| {
        t == trigger
            && match f {
                Some(f) => f == from && target == to,
                None if matches!(trigger, "endpoint replaced" | "shutdown") => target == to,
                None => from == to && from != Phase::Shutdown,
            }
    })
}

/// The key of an SCM endpoint: its host's short name ([`short_host`]: first DNS label,
/// lower-case; an IP address stays whole). Datanode lines print
/// `scm1.example.com:9861/scm1.example.com/10.20.0.11`, SCM files are named by host (`scm1`,
/// `scm1.example.com`; a compose service `scm1-1` is host `scm1` from the parser on): all give
/// `scm1`, while `scm-0`, `scm-1` and `scm-2` stay apart.
pub fn endpoint_key(address_or_host: &str) -> String {
    let host = endpoint_address(address_or_host)
        .map(|a| a.host)
        .unwrap_or(address_or_host)
        .trim();
    short_host(host)
}

/// The SCM kinds written by other slices that this machine and the `dropped-actions` rule read
/// by name (their fields are not read; the datanode comes from the event's entities).
pub mod scm_kinds {
    /// Every SCM audit record (fields `op`, `ret`, `params`, `term`).
    pub const AUDIT: &str = "scm_audit";
    /// SCMDatanodeHeartbeatDispatcher INFO `SCM received heartbeat from an unregistered
    /// datanode {}. Asking datanode to re-register.`.
    pub const UNREGISTERED_HEARTBEAT: &str = "reregister_requested";
    /// SCMNodeManager INFO `Registered datanode: {}`.
    pub const REGISTERED: &str = "datanode_registered";
}

/// The kind of the SCM audit records ([`scm_kinds::AUDIT`]).
pub static SCM_AUDIT: LazyLock<KindIndex> = LazyLock::new(|| kinds::index_of(scm_kinds::AUDIT));

/// What an SCM-side event says about one datanode's endpoint to that SCM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScmSignal {
    /// The SCM answered a heartbeat with a reregister command (it does not know the datanode).
    Reregister { datanode: Arc<str>, audit: bool },
    /// The datanode registered (again); `host` is the short name of the host printed with it
    /// (`uuid(host/ip)`), read by the readers so that no registration is opened again.
    Registered {
        datanode: Arc<str>,
        host: Option<Arc<str>>,
        audit: bool,
    },
    /// The SCM answered a heartbeat normally, with these close-container commands.
    Answered {
        datanode: Arc<str>,
        close_containers: Vec<u64>,
    },
}

impl ScmSignal {
    /// The datanode (lower-case UUID) the signal is about.
    pub fn datanode(&self) -> &str {
        match self {
            ScmSignal::Reregister { datanode, .. }
            | ScmSignal::Registered { datanode, .. }
            | ScmSignal::Answered { datanode, .. } => datanode,
        }
    }
}

/// The shared copy of datanode `uuid` in `uuids` (every heartbeat of a datanode names it: one
/// copy each, not one per heartbeat), in lower case when `lower`; a string is built only for a
/// datanode not met before or printed in upper case.
pub fn shared_uuid(uuids: &mut HashSet<Arc<str>>, uuid: &str, lower: bool) -> Arc<str> {
    let uuid = if lower && uuid.bytes().any(|b| b.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(uuid.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(uuid)
    };
    if let Some(known) = uuids.get(&*uuid) {
        return Arc::clone(known);
    }
    let copy: Arc<str> = Arc::from(&*uuid);
    uuids.insert(Arc::clone(&copy));
    copy
}

/// Reads an SCM-side event: the SCM audit's `SEND_HEARTBEAT` (`command` lists the commands
/// returned: `reregisterCommand`, `closeContainerCommand … containerID: N`) and `REGISTER`
/// (`datanodeDetails` = `uuid(host/ip)`), and the SCM main-log lines named in [`scm_kinds`].
/// Its datanode is the copy in `uuids` ([`shared_uuid`]).
pub fn scm_signal(event: &Event, uuids: &mut HashSet<Arc<str>>) -> Option<ScmSignal> {
    if !matches!(event.component, Component::Scm | Component::ScmAudit) {
        return None;
    }
    let kind = event.kind();
    let mut datanode = || {
        event.entities.iter().find_map(|e| match e {
            Entity::Datanode(uuid) => Some(shared_uuid(uuids, uuid, false)),
            _ => None,
        })
    };
    match kind {
        scm_kinds::AUDIT => match &event.data {
            EventData::Scm(ScmEvent::Audit(audit)) => audit_signal(audit, uuids),
            _ => None,
        },
        scm_kinds::UNREGISTERED_HEARTBEAT => Some(ScmSignal::Reregister {
            datanode: datanode()?,
            audit: false,
        }),
        scm_kinds::REGISTERED => Some(ScmSignal::Registered {
            datanode: datanode()?,
            host: find_datanode_details(&event.text)
                .next()
                .map(|dn| Arc::from(short_host(dn.value.host))),
            audit: false,
        }),
        _ => None,
    }
}

/// What the SCM-side events say, read once by the merge ([`scm_side_of`]) as it reads each
/// event's header: most SCM records are heartbeat audits, which several machines and rules
/// read.
#[derive(Debug, Default)]
pub struct ScmSide {
    /// The signal of every SCM-side event that has one, in trace order
    /// ([`Trace::scm_signals`]).
    pub signals: Vec<(EventId, ScmSignal)>,
    /// Every `SEND_HEARTBEAT` audit, whatever it returned, with its `term` (present when the
    /// SCM answered as leader), in trace order ([`Trace::heartbeat_term`]).
    pub heartbeats: Vec<(EventId, Option<u64>)>,
    /// The heartbeats that say nothing else ([`Heartbeat::quiet`]), in trace order
    /// ([`Trace::quiet_heartbeats`]).
    pub quiet: Vec<EventId>,
    /// The places in `signals` of the [`ScmSignal::Registered`] ones
    /// ([`Trace::scm_registrations`]).
    pub registrations: Vec<usize>,
}

/// A `SEND_HEARTBEAT` audit, compact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heartbeat {
    /// Present when the SCM answered as leader.
    pub term: Option<u64>,
    /// It returned no command that sets an operational state, is no admin action, and its text
    /// prints no datanode (`uuid(host/ip)`): nearly every heartbeat, which readers of admin
    /// states and printed datanodes can pass over without opening.
    pub quiet: bool,
}

/// What one SCM-side event says: what it is as a `SEND_HEARTBEAT` audit, and its signal
/// ([`scm_signal`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScmSideOf {
    pub heartbeat: Option<Heartbeat>,
    pub signal: Option<ScmSignal>,
}

/// The kinds of the SCM side ([`SCM_SIDE`]).
pub static SCM_SIDE_KINDS: LazyLock<KindSet> = LazyLock::new(|| KindSet::of(&SCM_SIDE));

/// What an event of [`SCM_SIDE_KINDS`] says ([`ScmSide`]), if anything; its datanode is the
/// copy in `uuids`.
pub fn scm_side_of(event: &Event, uuids: &mut HashSet<Arc<str>>) -> Option<ScmSideOf> {
    let heartbeat = match &event.data {
        EventData::Scm(ScmEvent::Audit(audit)) if audit.op == "SEND_HEARTBEAT" => Some(Heartbeat {
            term: audit.term,
            quiet: audit.commands.iter().all(|c| c.sets_op_state().is_none())
                && audit.action.is_none()
                && find_datanode_details(&event.text).next().is_none(),
        }),
        _ => None,
    };
    let signal = scm_signal(event, uuids);
    (heartbeat.is_some() || signal.is_some()).then_some(ScmSideOf { heartbeat, signal })
}

impl ScmSide {
    /// Adds what event `id` says (events in trace order).
    pub(crate) fn push(&mut self, id: EventId, of: ScmSideOf) {
        if let Some(heartbeat) = of.heartbeat {
            self.heartbeats.push((id, heartbeat.term));
            if heartbeat.quiet {
                self.quiet.push(id);
            }
        }
        if let Some(signal) = of.signal {
            if let ScmSignal::Registered { .. } = signal {
                self.registrations.push(self.signals.len());
            }
            self.signals.push((id, signal));
        }
    }
}

/// Reads one `scm_audit` event: `SEND_HEARTBEAT` answered with a reregister or with commands,
/// `REGISTER`. Failed calls say nothing. Its datanode is the copy in `uuids` ([`shared_uuid`]).
pub fn audit_signal(audit: &ScmAudit, uuids: &mut HashSet<Arc<str>>) -> Option<ScmSignal> {
    if audit.ret == "FAILURE" {
        return None;
    }
    match audit.op.as_str() {
        "SEND_HEARTBEAT" => {
            let datanode = shared_uuid(uuids, audit.params.get("datanodeUUID")?, true);
            let returned = |kind: &str| audit.commands.iter().any(|c| c.command_type == kind);
            if returned("reregisterCommand") {
                Some(ScmSignal::Reregister {
                    datanode,
                    audit: true,
                })
            } else {
                let close_containers = if returned("closeContainerCommand") {
                    close_command_containers(audit.params.get("command").unwrap_or(""))
                } else {
                    Vec::new()
                };
                Some(ScmSignal::Answered {
                    datanode,
                    close_containers,
                })
            }
        }
        "REGISTER" => {
            let (dn, _) = datanode_details(audit.params.get("datanodeDetails")?)?;
            Some(ScmSignal::Registered {
                datanode: shared_uuid(uuids, dn.uuid, true),
                host: Some(Arc::from(short_host(dn.host))),
                audit: true,
            })
        }
        _ => None,
    }
}

/// Container ids of the `closeContainerCommand` entries in an SCM audit `command` list
/// (`commandType: closeContainerCommand closeContainerCommandProto { containerID: N … }`, one
/// entry per command).
pub fn close_command_containers(command: &str) -> Vec<u64> {
    const CLOSE: &str = "commandType: closeContainerCommand";
    const ID: &str = "containerID: ";
    let mut ids = Vec::new();
    let mut rest = command;
    while let Some(at) = rest.find(CLOSE) {
        rest = &rest[at + CLOSE.len()..];
        // The id belongs to this entry if it comes before the next entry's `commandType:`.
        let entry_end = rest.find("commandType:").unwrap_or(rest.len());
        if let Some(id_at) = rest[..entry_end].find(ID) {
            let digits: &str = &rest[id_at + ID.len()..];
            let len = digits.bytes().take_while(u8::is_ascii_digit).count();
            if let Ok(id) = digits[..len].parse() {
                ids.push(id);
            }
        }
    }
    ids
}

/// The kinds of the datanodes' endpoint lines ([`Family::DnEndpoint`]).
static ENDPOINT_KINDS: LazyLock<KindSet> =
    LazyLock::new(|| KindSet::of(&[Reads::Family(Family::DnEndpoint)]));

/// Which datanode a datanode-side event belongs to: the uuid of its thread name, else the one
/// learnt for its host (from other thread names, or an SCM `uuid(host/ip)` naming that host).
/// A host seen with two datanodes (one JVM running several, as MiniOzoneCluster does, or a
/// trace with no host names) names none.
#[derive(Debug, Default, Clone)]
pub struct DatanodeHosts {
    /// `None`: more than one datanode wrote under this host.
    by_host: HashMap<String, Option<Arc<str>>>,
}

impl DatanodeHosts {
    /// Learns from the whole trace: the datanodes' endpoint lines and the SCM's registrations
    /// ([`Trace::scm_registrations`]). What is learnt does not depend on the order it is learnt
    /// in, so each is read from its own index: no other event is touched.
    pub fn learn(trace: &Trace) -> DatanodeHosts {
        let mut hosts = DatanodeHosts::default();
        for id in trace.of_kinds(&ENDPOINT_KINDS) {
            hosts.observe(trace, id);
        }
        for (_, signal) in trace.scm_registrations() {
            hosts.observe_registration(signal);
        }
        hosts
    }

    /// Learns from datanode endpoint line `id` (the SCM's registrations are its signals:
    /// [`DatanodeHosts::observe_registration`]); its host's short name is the trace's.
    pub fn observe(&mut self, trace: &Trace, id: EventId) {
        let host = trace.host_of(id);
        if let EventData::DnEndpoint(e) = &trace.get(id).data
            && let Some(uuid) = e.datanode()
            && &**trace.host_name(host) != "unknown"
        {
            self.learn_host(trace.short_host(host), uuid);
        }
    }

    /// Learns from a registration's signal ([`ScmSignal::Registered`]): it prints the
    /// datanode's host.
    pub fn observe_registration(&mut self, signal: &ScmSignal) {
        if let ScmSignal::Registered {
            datanode,
            host: Some(host),
            ..
        } = signal
        {
            self.learn_host(host, datanode);
        }
    }

    fn learn_host(&mut self, host: &str, uuid: &str) {
        match self.by_host.get_mut(host) {
            // Every line of a datanode names the same one: nothing to learn, nothing to allocate.
            Some(Some(known)) if known.eq_ignore_ascii_case(uuid) => {}
            Some(known) => *known = None,
            None => {
                self.by_host
                    .insert(host.to_string(), Some(Arc::from(uuid.to_ascii_lowercase())));
            }
        }
    }

    /// The datanode uuid of datanode-side event `id`, if known: the one it names
    /// ([`named_datanode`]), else the one learnt for its host.
    pub fn datanode_of(&self, trace: &Trace, id: EventId) -> Option<Arc<str>> {
        named_datanode(trace, id).or_else(|| self.of_host(trace, id))
    }

    /// The datanode uuid learnt for the host of event `id` (its host's short name is the trace's,
    /// computed once per host).
    fn of_host(&self, trace: &Trace, id: EventId) -> Option<Arc<str>> {
        self.by_host
            .get(&**trace.short_host(trace.host_of(id)))
            .cloned()
            .flatten()
    }
}

/// The datanode uuid datanode-side event `id` names itself: an endpoint line's thread name, else a
/// datanode it prints (not on an SCM line).
fn named_datanode(trace: &Trace, id: EventId) -> Option<Arc<str>> {
    // Only an endpoint line is opened: the rest is in the trace's compact columns.
    if ENDPOINT_KINDS.contains(trace.kind_of(id))
        && let EventData::DnEndpoint(e) = &trace.get(id).data
        && let Some(uuid) = e.datanode()
    {
        return Some(Arc::from(uuid.to_ascii_lowercase()));
    }
    if let Some(Entity::Datanode(uuid)) = trace
        .entity_ids_of(id)
        .iter()
        .map(|&e| &**trace.entity(e))
        .find(|e| matches!(e, Entity::Datanode(_)))
        && !matches!(trace.component_of(id), Component::Scm | Component::ScmAudit)
    {
        return Some(Arc::from(uuid.as_str()));
    }
    None
}

/// State of one endpoint as the datanode sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndpointState {
    pub phase: Phase,
    /// Tasks that timed out and are still queued behind the running one (consecutive
    /// `Detected timeout` since the SCM last answered).
    pub queued: u32,
}

impl EndpointState {
    fn render(self) -> State {
        if self.queued == 0 {
            self.phase.as_str().into()
        } else {
            format!("{} queued={}", self.phase.as_str(), self.queued).into()
        }
    }
}

/// The `dn-endpoint` machine.
#[derive(Debug, Default)]
pub struct EndpointMachine {
    /// By (datanode, SCM endpoint key), each known by its number in `names`.
    states: EntityStates<(u32, u32), EndpointState>,
    hosts: DatanodeHosts,
    /// Datanode UUIDs and endpoint keys, each once, by number: most SCM records look an endpoint
    /// up, and numbers hash and compare without touching the strings.
    names: Names,
    /// The number of each SCM host's endpoint key (its short name), by [`HostId`], once known.
    scm_keys: Vec<Option<u32>>,
    /// SCMs whose audit log is in the trace (by endpoint key number): their main-log reregister
    /// lines repeat the audit.
    audited: Vec<bool>,
    /// How many endpoints of each SCM (by endpoint key number) have timed-out tasks queued: while
    /// an SCM has none, its answers to heartbeats (most SCM records) are no step.
    queued_at: Vec<u32>,
    /// Where the next event's signal may be in [`Trace::scm_signals`] (events come in order).
    next_signal: IdCursor,
}

impl EndpointMachine {
    pub fn new() -> EndpointMachine {
        EndpointMachine::default()
    }

    /// The signal of event `id` ([`Trace::scm_signals`]), found by walking on from the previous
    /// event's.
    fn signal_of<'t>(&mut self, trace: &'t Trace, id: EventId) -> Option<&'t ScmSignal> {
        self.next_signal.find(trace.scm_signals(), id)
    }

    /// The endpoint key number of SCM host `host` (its short name).
    fn scm_key(&mut self, trace: &Trace, host: HostId) -> u32 {
        if self.scm_keys.len() < trace.host_count() {
            self.scm_keys.resize(trace.host_count(), None);
        }
        *self.scm_keys[host.index()]
            .get_or_insert_with(|| self.names.number(trace.short_host(host)))
    }

    /// How many endpoints of the SCM of endpoint key number `scm` have timed-out tasks queued.
    fn queued_at(&self, scm: u32) -> u32 {
        self.queued_at.get(scm as usize).copied().unwrap_or(0)
    }

    /// Whether the SCM of endpoint key number `scm` writes an audit log.
    fn is_audited(&self, scm: u32) -> bool {
        self.audited.get(scm as usize).copied().unwrap_or(false)
    }

    /// Steps the endpoint an SCM-side event names (`id` is that event, written by SCM host
    /// `trace.get(id).host`).
    pub fn on_signal(
        &mut self,
        trace: &Trace,
        id: EventId,
        signal: &ScmSignal,
        out: &mut Vec<Transition>,
    ) {
        let scm = self.scm_key(trace, trace.host_of(id));
        if !self.is_audited(scm) {
            let audited = match signal {
                ScmSignal::Reregister { audit, .. } | ScmSignal::Registered { audit, .. } => *audit,
                ScmSignal::Answered { .. } => true,
            };
            if audited {
                if self.audited.len() <= scm as usize {
                    self.audited.resize(scm as usize + 1, false);
                }
                self.audited[scm as usize] = true;
            }
        }
        match signal {
            ScmSignal::Reregister { datanode, audit } => {
                if !*audit && self.is_audited(scm) {
                    return;
                }
                let dn = self.names.number(datanode);
                self.step(
                    trace,
                    id,
                    dn,
                    scm,
                    Trigger::Reregister,
                    Some(REREGISTER_LINE),
                    out,
                );
            }
            ScmSignal::Registered {
                datanode, audit, ..
            } => {
                if !*audit && self.is_audited(scm) {
                    return;
                }
                let dn = self.names.number(datanode);
                self.step(
                    trace,
                    id,
                    dn,
                    scm,
                    Trigger::Registered,
                    Some(REGISTERED_LINE),
                    out,
                );
            }
            ScmSignal::Answered { datanode, .. } => {
                // Only endpoints with queued tasks change: every heartbeat of every datanode is
                // audited, and a plain answer to a healthy endpoint is no step.
                if self.queued_at(scm) == 0 {
                    return;
                }
                // A datanode never named before has no endpoint yet.
                let Some(dn) = self.names.find(datanode) else {
                    return;
                };
                if self.states.get(&(dn, scm)).is_some_and(|s| s.queued > 0) {
                    self.step(trace, id, dn, scm, Trigger::HeartbeatAnswered, None, out);
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        trace: &Trace,
        id: EventId,
        datanode: u32,
        scm: u32,
        trigger: Trigger,
        inferred: Option<&'static str>,
        out: &mut Vec<Transition>,
    ) {
        let ts = trace.get(id).ts;
        let key = (datanode, scm);
        let before = self.states.get(&key).copied();
        // A running datanode spends its time in HEARTBEAT: an endpoint first seen is there.
        let from = before.unwrap_or(EndpointState {
            phase: Phase::Heartbeat,
            queued: 0,
        });
        let mut to = from;
        match trigger {
            Trigger::TimedOut => to.queued += 1,
            Trigger::Unreachable | Trigger::HeartbeatSent => {}
            Trigger::HeartbeatAnswered => to.queued = 0,
            Trigger::Reregister => {
                if from.phase == Phase::Heartbeat {
                    to.phase = Phase::GetVersion;
                }
            }
            Trigger::ReregisterInState(phase) | Trigger::StaleVersionTask(phase) => {
                to.phase = phase;
            }
            Trigger::Registered => {
                to.phase = Phase::Heartbeat;
                to.queued = 0;
            }
            Trigger::Replaced => {
                to = EndpointState {
                    phase: Phase::GetVersion,
                    queued: 0,
                };
            }
            Trigger::Shutdown => to.phase = Phase::Shutdown,
        }
        let entity = trace.shared(id, &Entity::Datanode(self.names.name(datanode).to_string()));
        let scope = Arc::clone(self.names.name(scm));
        let mut first = before.is_none();
        let mut push = |from: EndpointState, to: EndpointState, name: &str, inferred| {
            let illegal = match trigger {
                // The task was built for another state and the model's state was right.
                Trigger::ReregisterInState(phase) | Trigger::StaleVersionTask(phase) => {
                    before.is_some() && from.phase != phase
                }
                _ => !is_legal(from.phase, name, to.phase),
            };
            out.push(Transition {
                machine: MACHINE,
                entity: Arc::clone(&entity),
                scope: Some(Arc::clone(&scope)),
                from: if std::mem::take(&mut first) {
                    "?".into()
                } else {
                    from.render()
                },
                to: to.render(),
                event: id,
                inferred,
                illegal,
            });
        };
        if trigger == Trigger::Registered && from.phase == Phase::GetVersion {
            // getVersion succeeded first: no datanode line shows it.
            let mid = EndpointState {
                phase: Phase::Register,
                queued: from.queued,
            };
            push(from, mid, "version answered", Some(VERSION_LINE));
            push(mid, to, "registered", inferred);
        } else if trigger == Trigger::Registered && from.phase == Phase::Heartbeat {
            // The reregister that sent it back to GETVERSION was not in the trace.
            let lost = EndpointState {
                phase: Phase::GetVersion,
                queued: from.queued,
            };
            push(from, lost, "reregister command", Some(REREGISTER_LINE));
            let mid = EndpointState {
                phase: Phase::Register,
                queued: from.queued,
            };
            push(lost, mid, "version answered", Some(VERSION_LINE));
            push(mid, to, "registered", inferred);
        } else {
            push(from, to, trigger.name(), inferred);
        }
        match (from.queued > 0 && before.is_some(), to.queued > 0) {
            (false, true) => *count_of(&mut self.queued_at, scm) += 1,
            (true, false) => *count_of(&mut self.queued_at, scm) -= 1,
            _ => {}
        }
        self.states.set(key, to, ts);
    }
}

/// The DEBUG line that shows a reregister on the datanode.
pub const REREGISTER_LINE: &str = "DEBUG org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask: Received SCM notification to register. Interrupt HEARTBEAT and transit to GETVERSION state.";
/// No datanode line shows a successful registration; the SCM side does.
const REGISTERED_LINE: &str =
    "the SCM audit REGISTER of this datanode (no datanode line logs a successful register)";
/// No datanode line shows a successful getVersion either.
const VERSION_LINE: &str =
    "the SCM audit GET_VERSION from this datanode (no datanode line logs a successful getVersion)";

/// The kinds [`EndpointMachine`] reads: every datanode endpoint line, and the SCM side of the
/// endpoint ([`scm_kinds`]).
pub const CONSUMES: &[Reads] = &[
    Reads::Family(Family::DnEndpoint),
    SCM_SIDE[0],
    SCM_SIDE[1],
    SCM_SIDE[2],
];

/// The SCM side of an endpoint ([`scm_signal`]).
const SCM_SIDE: [Reads; 3] = [
    Reads::Kind(scm_kinds::AUDIT),
    Reads::Kind(scm_kinds::UNREGISTERED_HEARTBEAT),
    Reads::Kind(scm_kinds::REGISTERED),
];

impl Machine for EndpointMachine {
    fn name(&self) -> &'static str {
        MACHINE
    }

    fn consumes(&self) -> &'static [Reads] {
        CONSUMES
    }

    fn on_event(&mut self, trace: &Trace, id: EventId, out: &mut Vec<Transition>) {
        // Only an endpoint line is opened here: the SCM side (most records) is read from the
        // trace's signals.
        if ENDPOINT_KINDS.contains(trace.kind_of(id))
            && let event = trace.get(id)
            && let EventData::DnEndpoint(e) = &event.data
        {
            self.hosts.observe(trace, id);
            let Some(datanode) = self.hosts.datanode_of(trace, id) else {
                return;
            };
            let trigger = match e {
                DnEndpointEvent::EndpointTimeout { .. } => Trigger::TimedOut,
                DnEndpointEvent::EndpointUnreachable { .. } => Trigger::Unreachable,
                DnEndpointEvent::HeartbeatSent { .. } => Trigger::HeartbeatSent,
                DnEndpointEvent::ReregisterReceived { .. } => Trigger::Reregister,
                DnEndpointEvent::ReregisterIllegalState { state, .. } => {
                    match Phase::parse(state) {
                        Some(phase) => Trigger::ReregisterInState(phase),
                        None => return,
                    }
                }
                DnEndpointEvent::StaleVersionTask { state, .. } => match Phase::parse(state) {
                    Some(phase) => Trigger::StaleVersionTask(phase),
                    None => return,
                },
                DnEndpointEvent::ScmEndpointReResolved { .. } => Trigger::Replaced,
                DnEndpointEvent::RegisterEndpointShutdown { .. } => Trigger::Shutdown,
                _ => return,
            };
            let Some(endpoint) = e.endpoint() else { return };
            let scm = self.names.number(&endpoint_key(endpoint));
            let datanode = self.names.number(&datanode);
            self.step(trace, id, datanode, scm, trigger, None, out);
            return;
        }
        let signal = self.signal_of(trace, id);
        // Most SCM records are heartbeats answered without a reregister: while no endpoint has
        // queued tasks and their SCM is known to audit, they change nothing.
        if matches!(signal, Some(ScmSignal::Answered { .. })) && {
            let scm = self.scm_key(trace, trace.host_of(id));
            self.queued_at(scm) == 0 && self.is_audited(scm)
        } {
            return;
        }
        if let Some(signal) = signal {
            self.hosts.observe_registration(signal);
            self.on_signal(trace, id, signal, out);
        }
    }

    fn evict(&mut self, before: i64) {
        self.states.evict(before);
        self.queued_at.fill(0);
        for (&(_, scm), state) in self.states.iter() {
            if state.queued > 0 {
                *count_of(&mut self.queued_at, scm) += 1;
            }
        }
    }
}

/// The count of SCM `scm` (by endpoint key number) in `counts`, grown to hold it.
fn count_of(counts: &mut Vec<u32>, scm: u32) -> &mut u32 {
    let at = scm as usize;
    if counts.len() <= at {
        counts.resize(at + 1, 0);
    }
    &mut counts[at]
}

/// Links an SCM's command to the datanode's receipt of it: a reregister (SCM audit / main log)
/// to `Received SCM notification to register`, and a `closeContainerCommand` in a
/// `SEND_HEARTBEAT` audit to `Received SCM container close request for container {}`. The receipt
/// follows the answer within the RPC's return; allow the trace's skew plus one second.
pub struct CommandReceipt;

const RECEIPT_LAG_MS: i64 = 1_000;

impl Linker for CommandReceipt {
    fn name(&self) -> &'static str {
        "scm-command-receipt"
    }

    fn consumes(&self) -> &'static [Reads] {
        CONSUMES
    }

    fn link(&self, trace: &Trace, out: &mut Vec<(EventId, EventId, Reason)>) {
        link_receipts(trace, trace.scm_signals(), out);
    }
}

/// [`CommandReceipt`] over SCM signals already read from the trace.
fn link_receipts(
    trace: &Trace,
    signals: &[(EventId, ScmSignal)],
    out: &mut Vec<(EventId, EventId, Reason)>,
) {
    // (datanode, scm) → reregisters; (datanode, scm, container) → close commands.
    let mut rereg: HashMap<(String, String), Vec<EventId>> = HashMap::default();
    let mut closes: HashMap<(String, String, u64), Vec<EventId>> = HashMap::default();
    // Most signals are heartbeats answered without a command: the SCM is named for the others.
    for (id, signal) in signals {
        let id = *id;
        let scm = || trace.short_host(trace.host_of(id)).to_string();
        match signal {
            ScmSignal::Reregister { datanode, .. } => {
                rereg
                    .entry((datanode.to_string(), scm()))
                    .or_default()
                    .push(id);
            }
            ScmSignal::Answered {
                datanode,
                close_containers,
            } if !close_containers.is_empty() => {
                let scm = scm();
                for &c in close_containers {
                    closes
                        .entry((datanode.to_string(), scm.clone(), c))
                        .or_default()
                        .push(id);
                }
            }
            _ => {}
        }
    }
    for id in trace.of_kinds(&ENDPOINT_KINDS) {
        let event = trace.get(id);
        // Only receipts have a cause here: no datanode is looked up for the other lines.
        let EventData::DnEndpoint(
            e @ (DnEndpointEvent::ReregisterReceived { .. }
            | DnEndpointEvent::CloseCommandReceived { .. }),
        ) = &event.data
        else {
            continue;
        };
        // The hosts learnt from the whole trace (the facts, built at the first question) only for
        // a receipt that does not name its datanode.
        let datanode =
            named_datanode(trace, id).or_else(|| trace.facts().datanode_hosts.of_host(trace, id));
        let (Some(datanode), Some(endpoint), Some(at)) = (datanode, e.endpoint(), event.ts) else {
            continue;
        };
        let scm = endpoint_key(endpoint);
        let candidates = match e {
            DnEndpointEvent::ReregisterReceived { .. } => rereg.get(&(datanode.to_string(), scm)),
            DnEndpointEvent::CloseCommandReceived { container, .. } => {
                closes.get(&(datanode.to_string(), scm, *container))
            }
            _ => None,
        };
        let lag = trace.skew_ms + RECEIPT_LAG_MS;
        // The latest SCM answer that can precede the receipt, among those in its window (an
        // endpoint's answers span the whole trace).
        let window = trace.between(at - lag, at + trace.skew_ms);
        let cause = candidates.and_then(|ids| {
            let from = ids.partition_point(|&c| c < window.start);
            let to = ids.partition_point(|&c| c < window.end);
            ids[from..to].iter().rev().copied().find(|&c| {
                trace
                    .get(c)
                    .ts
                    .is_some_and(|t| t <= at + trace.skew_ms && t >= at - lag)
            })
        });
        if let Some(cause) = cause {
            out.push((
                cause,
                id,
                format!("{} received from {}", e.kind(), trace.get(cause).host).into(),
            ));
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::machine::Replay;
    use oztrace_parser::catalog::dn_endpoint::ContainerActionRef;

    pub(crate) const DN: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27";
    pub(crate) const ADDR: &str = "scm1.example.com:9861/scm1.example.com/10.20.0.11";

    pub(crate) fn dn_event(ts: i64, data: DnEndpointEvent) -> Event {
        Event {
            ts: Some(ts),
            entities: Box::new([Entity::Datanode(DN.into())]),
            file: "dn2/ozone-hadoop-datanode-dn2.log".into(),
            line: ts as u64,
            ..oztrace_testkit::event("dn2", Component::Datanode, EventData::DnEndpoint(data))
        }
    }

    pub(crate) fn timeout(ts: i64) -> Event {
        dn_event(
            ts,
            DnEndpointEvent::EndpointTimeout {
                datanode: Some(DN.into()),
                endpoint: ADDR.into(),
            },
        )
    }

    pub(crate) fn heartbeat(ts: i64, actions: &[u64]) -> Event {
        dn_event(
            ts,
            DnEndpointEvent::HeartbeatSent {
                datanode: Some(DN.into()),
                endpoint: Some(ADDR.into()),
                container_actions: actions
                    .iter()
                    .map(|&c| ContainerActionRef {
                        container: c,
                        action: "CLOSE".into(),
                        reason: "CONTAINER_FULL".into(),
                    })
                    .collect(),
                icrs: vec![],
                pipeline_actions: 0,
            },
        )
    }

    pub(crate) fn reregister_received(ts: i64) -> Event {
        dn_event(
            ts,
            DnEndpointEvent::ReregisterReceived {
                datanode: Some(DN.into()),
                endpoint: Some(ADDR.into()),
            },
        )
    }

    pub(crate) fn illegal_state(ts: i64) -> Event {
        dn_event(
            ts,
            DnEndpointEvent::ReregisterIllegalState {
                datanode: Some(DN.into()),
                endpoint: Some(ADDR.into()),
                state: "GETVERSION".into(),
                expected: "HEARTBEAT".into(),
            },
        )
    }

    #[test]
    fn table_allows_the_normal_lifecycle_and_rejects_stale_heartbeats() {
        assert!(is_legal(
            Phase::Heartbeat,
            "heartbeat sent",
            Phase::Heartbeat
        ));
        assert!(is_legal(
            Phase::Heartbeat,
            "reregister command",
            Phase::GetVersion
        ));
        assert!(is_legal(
            Phase::GetVersion,
            "version answered",
            Phase::Register
        ));
        assert!(is_legal(Phase::Register, "registered", Phase::Heartbeat));
        assert!(is_legal(
            Phase::GetVersion,
            "task timed out",
            Phase::GetVersion
        ));
        assert!(is_legal(
            Phase::Shutdown,
            "endpoint replaced",
            Phase::GetVersion
        ));
        // HDDS-17269: a heartbeat task built in HEARTBEAT runs after the reregister.
        assert!(!is_legal(
            Phase::GetVersion,
            "heartbeat sent",
            Phase::GetVersion
        ));
        assert!(!is_legal(
            Phase::Register,
            "heartbeat sent",
            Phase::Register
        ));
        assert!(!is_legal(Phase::GetVersion, "registered", Phase::Heartbeat));
        assert!(!is_legal(
            Phase::Shutdown,
            "task timed out",
            Phase::Shutdown
        ));
    }

    #[test]
    fn keys_match_datanode_addresses_and_scm_hosts() {
        assert_eq!(endpoint_key(ADDR), "scm1");
        assert_eq!(endpoint_key("scm1:9861/scm1/172.25.0.11"), "scm1");
        assert_eq!(endpoint_key("scm1.example.com/10.20.0.42:9861"), "scm1");
        assert_eq!(endpoint_key("10.20.0.11:9861"), "10.20.0.11");
        assert_eq!(short_host("SCM1.example.com"), "scm1");
        assert_eq!(short_host("dn2"), "dn2");
        // A StatefulSet's pods are different hosts (issue 18 item 1).
        assert_eq!(
            endpoint_key(
                "scm-1.scm.default.svc.cluster.local:9861/scm-1.scm.default.svc.cluster.local/10.244.1.13"
            ),
            "scm-1"
        );
        assert_ne!(short_host("scm-0"), short_host("scm-1"));
        assert_ne!(short_host("datanode-0"), short_host("datanode-2"));
    }

    #[test]
    fn datanode_hosts_keep_pods_apart_and_refuse_a_shared_host() {
        let dn = |host: &str, uuid: &str| {
            let mut e = dn_event(
                0,
                DnEndpointEvent::EndpointTimeout {
                    datanode: Some(uuid.into()),
                    endpoint: ADDR.into(),
                },
            );
            e.host = Arc::from(host);
            e
        };
        let (a, b) = (
            "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c",
            "8d1e5a3b-2c4f-4a6e-9b7d-0f1e2d3c4b5a",
        );
        let mut other = scm_event(0, "datanode-1");
        other.component = Component::Datanode;
        other.entities = Box::default();
        let on_datanode_0 = Event {
            host: Arc::from("datanode-0"),
            ..other.clone()
        };
        let trace = Trace::from_ordered(
            vec![
                other,
                on_datanode_0,
                dn("datanode-0", a),
                dn("datanode-1", b),
                dn("datanode-0", b),
            ],
            0,
        );
        let mut hosts = DatanodeHosts::default();
        hosts.observe(&trace, 2);
        hosts.observe(&trace, 3);
        assert_eq!(hosts.datanode_of(&trace, 0).as_deref(), Some(b));
        assert_eq!(hosts.datanode_of(&trace, 1).as_deref(), Some(a));
        // One JVM, two datanodes: the host names neither.
        hosts.observe(&trace, 4);
        assert_eq!(hosts.datanode_of(&trace, 1), None);
    }

    #[test]
    fn close_commands_in_an_audit_command_list() {
        let command = "[commandType: deleteBlocksCommand deleteTransactionsCount: 3 cmdID: 9, commandType: closeContainerCommand closeContainerCommandProto { containerID: 2043 pipelineID { id: \"8a1f\" } cmdId: 11 force: false } term: 6 encodedToken: \"\" deadlineMsSinceEpoch: 0, commandType: closeContainerCommand closeContainerCommandProto { containerID: 7 } term: 6]";
        assert_eq!(close_command_containers(command), vec![2043, 7]);
        assert_eq!(close_command_containers("[]"), Vec::<u64>::new());
        assert_eq!(
            close_command_containers(
                "[commandType: reregisterCommand reregisterCommandProto { } term: 0]"
            ),
            Vec::<u64>::new()
        );
    }

    fn replay(events: Vec<Event>) -> Vec<Transition> {
        let trace = Trace::from_ordered(events, 0);
        let mut machines: Vec<Box<dyn Machine>> = vec![Box::new(EndpointMachine::new())];
        Replay::run(&trace, &mut machines, i64::MAX)
            .transitions()
            .cloned()
            .collect()
    }

    #[test]
    fn backlog_then_reregister_then_stale_heartbeat_is_illegal() {
        let steps = replay(vec![
            heartbeat(0, &[]),
            timeout(30_000),
            timeout(60_000),
            reregister_received(94_000),
            heartbeat(94_001, &[2043]),
            illegal_state(94_010),
        ]);
        let view: Vec<(&str, &str, bool)> = steps
            .iter()
            .map(|t| (t.from.as_str(), t.to.as_str(), t.illegal))
            .collect();
        assert_eq!(
            view,
            vec![
                ("?", "HEARTBEAT", false),
                ("HEARTBEAT", "HEARTBEAT queued=1", false),
                ("HEARTBEAT queued=1", "HEARTBEAT queued=2", false),
                ("HEARTBEAT queued=2", "GETVERSION queued=2", false),
                ("GETVERSION queued=2", "GETVERSION queued=2", true),
                ("GETVERSION queued=2", "GETVERSION queued=2", false),
            ]
        );
        assert!(steps.iter().all(|t| t.scope.as_deref() == Some("scm1")));
        assert!(
            steps
                .iter()
                .all(|t| *t.entity == Entity::Datanode(DN.into()))
        );
        assert!(steps.iter().all(|t| t.inferred.is_none()));
    }

    #[test]
    fn illegal_state_line_corrects_a_model_that_missed_the_reregister() {
        let steps = replay(vec![heartbeat(0, &[]), illegal_state(10)]);
        assert_eq!(steps[1].to, "GETVERSION");
        assert!(steps[1].illegal, "the model believed HEARTBEAT");
    }

    #[test]
    fn re_resolve_starts_a_new_endpoint_in_getversion() {
        let steps = replay(vec![
            timeout(0),
            dn_event(
                10,
                DnEndpointEvent::ScmEndpointReResolved {
                    datanode: Some(DN.into()),
                    endpoint: "scm1.example.com:9861".into(),
                    old_address: "scm1.example.com/10.20.0.11:9861".into(),
                    new_address: "scm1.example.com/10.20.0.42:9861".into(),
                },
            ),
            heartbeat(20, &[2043]),
        ]);
        assert_eq!(steps[1].to, "GETVERSION");
        assert!(!steps[1].illegal);
        assert!(
            steps[2].illegal,
            "a heartbeat right after the rebuild is the old endpoint's"
        );
    }

    #[test]
    fn eviction_forgets_idle_endpoints() {
        let mut machine = EndpointMachine::new();
        let trace = Trace::from_ordered(vec![timeout(0), timeout(100)], 0);
        let mut out = Vec::new();
        machine.on_event(&trace, 0, &mut out);
        machine.evict(50);
        machine.on_event(&trace, 1, &mut out);
        assert_eq!(out[1].from, "?");
    }

    /// A placeholder event written by an SCM host: SCM-side steps come through
    /// [`EndpointMachine::on_signal`], so tests need no SCM catalogue types.
    pub(crate) fn scm_event(ts: i64, host: &str) -> Event {
        Event {
            ts: Some(ts),
            entities: Box::new([Entity::Datanode(DN.into())]),
            file: format!("{host}/scm-audit-{host}.log").into(),
            line: ts as u64,
            ..oztrace_testkit::untyped(host, Component::ScmAudit)
        }
    }

    /// An SCM audit record as the SCM catalogue types it.
    fn audit(line: &str) -> ScmAudit {
        match oztrace_testkit::message("scm1", Component::ScmAudit, Some("SCMAudit"), line).data {
            EventData::Scm(ScmEvent::Audit(audit)) => *audit,
            other => panic!("not an SCM audit record: {other:?}"),
        }
    }

    #[test]
    fn audit_fields_give_reregister_register_and_close_commands() {
        let rereg = audit(&format!(
            "user=dn | ip=10.20.1.12 | op=SEND_HEARTBEAT {{\"datanodeUUID\":\"{DN}\",\"term\":\"7\",\"command\":\"[commandType: reregisterCommand reregisterCommandProto {{ }} term: 0 encodedToken: \\\"\\\" deadlineMsSinceEpoch: 0]\"}} | ret=SUCCESS"
        ));
        assert_eq!(
            audit_signal(&rereg, &mut HashSet::default()),
            Some(ScmSignal::Reregister {
                datanode: DN.into(),
                audit: true
            })
        );
        let register = audit(&format!(
            "user=dn | ip=10.20.1.12 | op=REGISTER {{\"datanodeDetails\":\"{DN}(dn2.example.com/10.20.1.12)\"}} | ret=SUCCESS"
        ));
        assert_eq!(
            audit_signal(&register, &mut HashSet::default()),
            Some(ScmSignal::Registered {
                datanode: DN.into(),
                host: Some("dn2".into()),
                audit: true
            })
        );
        let close = audit(&format!(
            "user=dn | ip=10.20.1.12 | op=SEND_HEARTBEAT {{\"datanodeUUID\":\"{DN}\",\"command\":\"[commandType: closeContainerCommand closeContainerCommandProto {{ containerID: 2043 force: false }} term: 6]\"}} | ret=SUCCESS"
        ));
        assert_eq!(
            audit_signal(&close, &mut HashSet::default()),
            Some(ScmSignal::Answered {
                datanode: DN.into(),
                close_containers: vec![2043]
            })
        );
        let failed = audit("user=dn | ip=10.20.1.12 | op=REGISTER {} | ret=FAILURE");
        assert_eq!(audit_signal(&failed, &mut HashSet::default()), None);
        let version = audit("user=dn | ip=10.20.1.12 | op=GET_VERSION {} | ret=SUCCESS");
        assert_eq!(audit_signal(&version, &mut HashSet::default()), None);
    }

    /// A registration carries the host printed with its datanode, in the audit and in the
    /// SCMNodeManager line, so that learning a datanode's host never opens it again.
    #[test]
    fn a_registration_signal_carries_the_host_it_prints() {
        let line = oztrace_testkit::message(
            "scm1",
            Component::Scm,
            Some("org.apache.hadoop.hdds.scm.node.SCMNodeManager"),
            &format!("Registered datanode: {DN}(dn2.example.com/10.20.1.12)"),
        );
        let signal = scm_signal(&line, &mut HashSet::default());
        assert_eq!(
            signal,
            Some(ScmSignal::Registered {
                datanode: DN.into(),
                host: Some("dn2".into()),
                audit: false
            })
        );
        let mut hosts = DatanodeHosts::default();
        hosts.observe_registration(&signal.expect("a registration"));
        assert_eq!(hosts.by_host.get("dn2"), Some(&Some(DN.into())));
    }

    #[test]
    fn heartbeats_are_read_once_with_one_copy_of_each_datanode() {
        let record = |line: String| {
            oztrace_testkit::message("scm1", Component::ScmAudit, Some("SCMAudit"), &line)
        };
        let quiet = record(format!(
            "user=dn | ip=10.20.1.12 | op=SEND_HEARTBEAT {{\"datanodeUUID\":\"{}\",\"term\":\"7\",\"command\":\"[]\"}} | ret=SUCCESS",
            DN.to_ascii_uppercase()
        ));
        let close = record(format!(
            "user=dn | ip=10.20.1.12 | op=SEND_HEARTBEAT {{\"datanodeUUID\":\"{DN}\",\"command\":\"[commandType: closeContainerCommand closeContainerCommandProto {{ containerID: 2043 force: false }} term: 6]\"}} | ret=SUCCESS"
        ));
        let in_service = record(format!(
            "user=dn | ip=10.20.1.12 | op=SEND_HEARTBEAT {{\"datanodeUUID\":\"{DN}\",\"term\":\"6\",\"command\":\"[commandType: setNodeOperationalStateCommand setNodeOperationalStateCommandProto {{ cmdId: 117359301 nodeOperationalState: IN_SERVICE stateExpiryEpochSeconds: 0 }} term: 6 encodedToken: \\\"\\\" deadlineMsSinceEpoch: 0]\"}} | ret=SUCCESS"
        ));
        let mut uuids = HashSet::default();
        let quiet = scm_side_of(&quiet, &mut uuids).expect("a heartbeat");
        let close = scm_side_of(&close, &mut uuids).expect("a heartbeat");
        let in_service = scm_side_of(&in_service, &mut uuids).expect("a heartbeat");
        assert_eq!(
            quiet.heartbeat,
            Some(Heartbeat {
                term: Some(7),
                quiet: true
            })
        );
        // A close command says nothing of the datanode's operational state.
        assert_eq!(
            close.heartbeat,
            Some(Heartbeat {
                term: None,
                quiet: true
            })
        );
        // An operational state set: readers of admin states open it.
        assert_eq!(
            in_service.heartbeat,
            Some(Heartbeat {
                term: Some(6),
                quiet: false
            })
        );
        let (Some(a), Some(b)) = (quiet.signal, close.signal) else {
            panic!("both heartbeats answered");
        };
        assert_eq!(a.datanode(), DN);
        assert!(std::ptr::eq(a.datanode(), b.datanode()), "one shared copy");
        let trace = Trace::from_ordered(
            vec![
                record(format!(
                    "user=dn | ip=10.20.1.12 | op=SEND_HEARTBEAT {{\"datanodeUUID\":\"{DN}\",\"command\":\"[]\"}} | ret=SUCCESS"
                )),
                record(format!(
                    "user=dn | ip=10.20.1.12 | op=REGISTER {{\"datanodeDetails\":\"{DN}(dn2.example.com/10.20.1.12)\"}} | ret=SUCCESS"
                )),
            ],
            0,
        );
        assert_eq!(trace.quiet_heartbeats(), [0]);
        let mut cursor = IdCursor::default();
        assert_eq!(trace.heartbeat_term(0, &mut cursor), Some(None));
        assert_eq!(trace.heartbeat_term(1, &mut cursor), None);
        // Asked again, an earlier event is searched.
        assert_eq!(trace.heartbeat_term(0, &mut cursor), Some(None));
        assert_eq!(trace.scm_signals().len(), 2);
    }

    #[test]
    fn scm_side_reregister_and_register_are_inferred_steps() {
        let trace = Trace::from_ordered(
            vec![
                timeout(0),
                timeout(30_000),
                scm_event(94_000, "scm1"),
                scm_event(94_010, "scm1"),
                scm_event(94_100, "scm1"),
                scm_event(95_000, "scm2"),
            ],
            0,
        );
        let mut machine = EndpointMachine::new();
        let mut out = Vec::new();
        machine.on_event(&trace, 0, &mut out);
        machine.on_event(&trace, 1, &mut out);
        let rereg = ScmSignal::Reregister {
            datanode: DN.into(),
            audit: true,
        };
        machine.on_signal(&trace, 2, &rereg, &mut out);
        machine.on_signal(&trace, 3, &rereg, &mut out);
        let registered = ScmSignal::Registered {
            datanode: DN.into(),
            host: None,
            audit: true,
        };
        machine.on_signal(&trace, 4, &registered, &mut out);
        // scm2 never showed a reregister: the registration implies one.
        machine.on_signal(&trace, 5, &registered, &mut out);
        let view: Vec<(&str, &str, &str, bool, bool)> = out
            .iter()
            .map(|t| {
                (
                    t.scope.as_deref().unwrap_or(""),
                    t.from.as_str(),
                    t.to.as_str(),
                    t.inferred.is_some(),
                    t.illegal,
                )
            })
            .collect();
        assert_eq!(
            view,
            vec![
                ("scm1", "?", "HEARTBEAT queued=1", false, false),
                (
                    "scm1",
                    "HEARTBEAT queued=1",
                    "HEARTBEAT queued=2",
                    false,
                    false
                ),
                (
                    "scm1",
                    "HEARTBEAT queued=2",
                    "GETVERSION queued=2",
                    true,
                    false
                ),
                (
                    "scm1",
                    "GETVERSION queued=2",
                    "GETVERSION queued=2",
                    true,
                    false
                ),
                (
                    "scm1",
                    "GETVERSION queued=2",
                    "REGISTER queued=2",
                    true,
                    false
                ),
                ("scm1", "REGISTER queued=2", "HEARTBEAT", true, false),
                ("scm2", "?", "GETVERSION", true, false),
                ("scm2", "GETVERSION", "REGISTER", true, false),
                ("scm2", "REGISTER", "HEARTBEAT", true, false),
            ]
        );
        // A main-log reregister repeats the audit of an audited SCM: not a second step.
        let main_log = ScmSignal::Reregister {
            datanode: DN.into(),
            audit: false,
        };
        let before = out.len();
        machine.on_signal(&trace, 3, &main_log, &mut out);
        assert_eq!(out.len(), before);
    }

    #[test]
    fn receipts_link_to_the_scm_answer_on_the_same_endpoint() {
        let trace = Trace::from_ordered(
            vec![
                scm_event(0, "scm1"),
                scm_event(5, "scm2"),
                reregister_received(10),
                reregister_received(5_000),
            ],
            0,
        );
        let rereg = ScmSignal::Reregister {
            datanode: DN.into(),
            audit: true,
        };
        let signals = vec![(0, rereg.clone()), (1, rereg)];
        let mut out = Vec::new();
        link_receipts(&trace, &signals, &mut out);
        // scm2's reregister is another endpoint; the receipt 5 s later has no answer before it.
        assert_eq!(out.len(), 1);
        assert_eq!((out[0].0, out[0].1), (0, 2));
        assert!(matches!(&out[0].2, Reason::Said(r) if r.contains("reregister_received")));
        let mut none = Vec::new();
        CommandReceipt.link(&trace, &mut none);
        assert!(none.is_empty(), "placeholder SCM events carry no signal");
    }

    #[test]
    fn a_receipt_naming_no_datanode_takes_the_one_learnt_for_its_host() {
        let anonymous = |ts| Event {
            entities: Box::default(),
            ..dn_event(
                ts,
                DnEndpointEvent::ReregisterReceived {
                    datanode: None,
                    endpoint: Some(ADDR.into()),
                },
            )
        };
        let signals = [(
            0,
            ScmSignal::Reregister {
                datanode: DN.into(),
                audit: true,
            },
        )];
        let mut out = Vec::new();
        let unknown = Trace::from_ordered(vec![scm_event(0, "scm1"), anonymous(10)], 0);
        link_receipts(&unknown, &signals, &mut out);
        assert!(out.is_empty(), "no line tells dn2's datanode");
        // A later line of dn2 names it: the host is learnt from the whole trace.
        let learnt = Trace::from_ordered(vec![scm_event(0, "scm1"), anonymous(10), timeout(20)], 0);
        link_receipts(&learnt, &signals, &mut out);
        assert_eq!(out.iter().map(|l| (l.0, l.1)).collect::<Vec<_>>(), [(0, 1)]);
    }
}
