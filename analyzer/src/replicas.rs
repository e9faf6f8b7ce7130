//! The replicas of every container and their health: one index, read once from the trace (as
//! [`crate::facts`] is), that the health rules, `oztrace containers` and `oztrace replay`'s info
//! view all read.
//!
//! A replica is one (datanode, replica index) copy of a container: index 0 for Ratis, 1..=d+p for
//! EC. Its history is what the datanode's container log (`ContainerLogger`, `dn-container-<host>.log`,
//! datanode.md 1.3) printed for it, and the states SCM's report handlers printed in `<D>`
//! (scm.md 2.3) when they differ from the last one known: SCM sees the replicas of datanodes whose
//! logs the bundle lacks. Beside the replicas the index keeps what SCM said about the container:
//! the replication it printed (`ReplicationFactor: 3`, `EC{rs-6-3-1024k}`), the commands the
//! ReplicationManager sent for it, its health handlers' verdicts, and each datanode's
//! decommission or maintenance.
//!
//! [`ContainerReplicas::health`] decides the six health conditions of Ozone's own
//! `ozone debug log container` (duplicate OPEN, mismatched replicas, under- and over-replication,
//! unhealthy and open-unhealthy replicas, QUASI_CLOSED stuck), for Ratis and EC, with the
//! look-alikes that tool flags: a replica being replicated or reconstructed right now, a datanode
//! in maintenance or decommissioning, a state the ReplicationManager has not had a pass to act on.
//!
//! Memory: a few words per state change of a replica (event ids, not text), per container.

use crate::kinds::{Family, KindSet, Reads};
use crate::machines::container::life_cycle_state;
use crate::trace::{EventId, LineState, ScmContainerLine, StateWord, Trace};
use either::Either;
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::scm::ScmEvent;
use oztrace_parser::catalog::scm_container::{ReplicaAction, ScmContainerEvent};
use oztrace_parser::entity;
use oztrace_parser::source::short_host;
use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The kinds the index reads: every dn-container record, SCM's container lines, and the
/// datanode admin lines that say a node is leaving (decommission, maintenance).
pub const CONSUMES: &[Reads] = &[
    Reads::Kind("dn_container_state"),
    Reads::Family(Family::ScmContainer),
    Reads::Kind("decommission_started"),
    Reads::Kind("maintenance_started"),
    Reads::Kind("admin_entered_maintenance"),
    Reads::Kind("admin_maintenance_ended"),
    Reads::Kind("admin_completed"),
    Reads::Kind("admin_aborted"),
    Reads::Kind("recommission_queued"),
    Reads::Kind("admin_under_replicated_container"),
    Reads::Kind("admin_unclosed_container"),
];

/// A replica's state as `ContainerLogger` and `<D>` print it (`ContainerDataProto.State`), plus
/// `LOST` for `logLost` (`Volume failure`: the replica is gone with its volume).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReplicaState {
    Open,
    Recovering,
    Closing,
    QuasiClosed,
    Closed,
    Unhealthy,
    Invalid,
    Deleted,
    Lost,
}

impl ReplicaState {
    pub fn parse(s: &str) -> Option<ReplicaState> {
        Some(match s {
            "OPEN" => ReplicaState::Open,
            "RECOVERING" => ReplicaState::Recovering,
            "CLOSING" => ReplicaState::Closing,
            "QUASI_CLOSED" => ReplicaState::QuasiClosed,
            "CLOSED" => ReplicaState::Closed,
            "UNHEALTHY" => ReplicaState::Unhealthy,
            "INVALID" => ReplicaState::Invalid,
            "DELETED" => ReplicaState::Deleted,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ReplicaState::Open => "OPEN",
            ReplicaState::Recovering => "RECOVERING",
            ReplicaState::Closing => "CLOSING",
            ReplicaState::QuasiClosed => "QUASI_CLOSED",
            ReplicaState::Closed => "CLOSED",
            ReplicaState::Unhealthy => "UNHEALTHY",
            ReplicaState::Invalid => "INVALID",
            ReplicaState::Deleted => "DELETED",
            ReplicaState::Lost => "LOST",
        }
    }

    /// A replica that holds the container's data and serves it (what SCM counts as healthy).
    pub fn healthy(self) -> bool {
        matches!(
            self,
            ReplicaState::Open
                | ReplicaState::Closing
                | ReplicaState::QuasiClosed
                | ReplicaState::Closed
        )
    }

    /// The replica's data is gone or unusable.
    fn gone(self) -> bool {
        matches!(
            self,
            ReplicaState::Unhealthy | ReplicaState::Invalid | ReplicaState::Lost
        )
    }
}

impl fmt::Display for ReplicaState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// How a container is replicated (`ReplicationConfig`): Ratis with its factor, or EC with its
/// data and parity counts (`EC{rs-6-3-1024k}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replication {
    Ratis {
        factor: u32,
    },
    Ec {
        xor: bool,
        data: u32,
        parity: u32,
        chunk_kb: u32,
    },
}

impl Replication {
    /// `RATIS/THREE`, `THREE`, `3`, `EC{rs-6-3-1024k}`, `rs-6-3-1024k`, `xor-2-1-1024k`, as SCM
    /// prints a `ReplicationConfig` or ozone-site.xml sets `ozone.server.default.replication` and
    /// `ozone.replication`.
    pub fn parse(s: &str) -> Option<Replication> {
        let s = s.trim();
        let s = s.strip_prefix("RATIS/").unwrap_or(s);
        let factor = match s {
            "ONE" => Some(1),
            "THREE" => Some(3),
            _ => s.parse().ok().filter(|f| (1..=16).contains(f)),
        };
        if let Some(factor) = factor {
            return Some(Replication::Ratis { factor });
        }
        let s = s
            .strip_prefix("EC{")
            .and_then(|s| s.strip_suffix('}'))
            .or_else(|| s.strip_prefix("EC/"))
            .unwrap_or(s);
        let mut parts = s.split('-');
        let xor = match parts.next()?.to_ascii_lowercase().as_str() {
            "rs" => false,
            "xor" => true,
            _ => return None,
        };
        let data = parts.next()?.parse().ok()?;
        let parity = parts.next()?.parse().ok()?;
        let chunk_kb = parts.next()?.trim_end_matches(['k', 'K']).parse().ok()?;
        Some(Replication::Ec {
            xor,
            data,
            parity,
            chunk_kb,
        })
    }

    /// How many replicas the container should have.
    pub fn expected(self) -> u32 {
        match self {
            Replication::Ratis { factor } => factor,
            Replication::Ec { data, parity, .. } => data + parity,
        }
    }

    pub fn is_ec(self) -> bool {
        matches!(self, Replication::Ec { .. })
    }
}

impl fmt::Display for Replication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Replication::Ratis { factor: 1 } => f.write_str("RATIS/ONE"),
            Replication::Ratis { factor: 3 } => f.write_str("RATIS/THREE"),
            Replication::Ratis { factor } => write!(f, "RATIS/{factor}"),
            Replication::Ec {
                xor,
                data,
                parity,
                chunk_kb,
            } => {
                let codec = if *xor { "xor" } else { "rs" };
                write!(f, "EC{{{codec}-{data}-{parity}-{chunk_kb}k}}")
            }
        }
    }
}

/// What the health decisions read besides the logs: the replication a container has when no SCM
/// line prints it, and the ReplicationManager's timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HealthConfig {
    /// For containers with replica index 0 (`ozone.server.default.replication`).
    pub ratis_default: Replication,
    /// For containers with replica indexes above 0 (`ozone.replication` when it names an EC
    /// scheme); `None`: only what the logs show.
    pub ec_default: Option<Replication>,
    /// `hdds.scm.replication.thread.interval`: a condition younger than two passes at the end of
    /// the logs has not been acted on yet.
    pub rm_interval_ms: i64,
    /// `hdds.scm.replication.event.timeout`: a command sent this recently at the end of the logs
    /// is still in flight.
    pub event_timeout_ms: i64,
}

impl Default for HealthConfig {
    fn default() -> Self {
        HealthConfig {
            ratis_default: Replication::Ratis { factor: 3 },
            ec_default: None,
            rm_interval_ms: 300_000,
            event_timeout_ms: 12 * 60_000,
        }
    }
}

/// Where a step of a replica's history was printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// The datanode's own container log.
    Datanode,
    /// A report-handler line of an SCM (the host of the step's event).
    Scm,
}

/// One state of one replica, as one line printed it. Its time and host are its event's
/// ([`ReplicaStep::ts`]): a step is kept small, as there is one per container log line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplicaStep {
    pub event: EventId,
    pub state: ReplicaState,
    pub bcsid: Option<u64>,
    pub seen: Seen,
}

impl ReplicaStep {
    /// The time of the line that printed it.
    pub fn ts(&self, trace: &Trace) -> Option<i64> {
        trace.ts_of(self.event)
    }
}

/// One (datanode, index) copy of a container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replica {
    /// The datanode's short host name (first DNS label, [`short_host`]).
    pub host: Arc<str>,
    pub index: u32,
    pub steps: Vec<ReplicaStep>,
}

impl Replica {
    pub fn latest(&self) -> &ReplicaStep {
        // A replica is made by its first step.
        &self.steps[self.steps.len() - 1]
    }

    fn opens(&self) -> impl Iterator<Item = &ReplicaStep> {
        self.steps
            .iter()
            .filter(|s| s.state == ReplicaState::Open && s.seen == Seen::Datanode)
    }

    /// The step that ended the replica's last healthy stretch.
    fn first_since_healthy(&self) -> Option<&ReplicaStep> {
        let last_healthy = self.steps.iter().rposition(|s| s.state.healthy())?;
        self.steps.get(last_healthy + 1)
    }
}

/// What the ReplicationManager sent for a container (`Sending command [...]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandKind {
    Replicate,
    Reconstruct,
    Delete,
    Close,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentCommand {
    pub event: EventId,
    pub ts: Option<i64>,
    pub kind: CommandKind,
    /// The datanode the command goes to.
    pub host: Option<Arc<str>>,
}

/// `Under Replicated Container` / `Unclosed Container` (DatanodeAdminMonitorImpl): the replica
/// counts SCM printed, healthy in service / decommissioning / in maintenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdminCount {
    pub event: EventId,
    pub under_replicated: bool,
    pub in_service: u32,
    pub decommissioning: u32,
    pub maintenance: u32,
}

/// What SCM said about one container, and its replicas. Kept small (one per container, in one
/// table): what few containers have is behind [`ContainerRecord::said`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerRecord {
    pub replicas: Vec<Replica>,
    /// The replication an SCM line printed, with the line.
    pub replication: Option<(Replication, EventId)>,
    /// A line that shows SCM deleting the container itself (DELETING/DELETED, an empty
    /// QUASI_CLOSED container deleted): its replicas going away is not a loss.
    pub deleting: Option<EventId>,
    /// The last SCM lifecycle state printed for it (a `LifeCycleState` word is not copied).
    pub scm_state: Option<Cow<'static, str>>,
    /// The ReplicationManager's and the health handlers' lines about it, when it has any.
    said: Option<Box<ScmSaid>>,
}

/// The lines about a container that only a few containers have ([`ContainerRecord::said`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScmSaid {
    pub commands: Vec<SentCommand>,
    /// `… will be sufficiently replicated after pending replicas are created`.
    pub pending: Vec<EventId>,
    /// `Container … is over replicated. … Expected replica count is N.`
    pub over_replicated: Vec<EventId>,
    pub admin_counts: Vec<AdminCount>,
    /// `Force closing container …`, `FORCE_CLOSE for …`.
    pub force_closed: Vec<EventId>,
    /// `Replica BCSID mismatched for …`.
    pub bcsid_mismatch: Vec<EventId>,
}

impl ContainerRecord {
    /// The ReplicationManager's and the health handlers' lines about it (nothing, for most).
    pub fn said(&self) -> &ScmSaid {
        static NOTHING: ScmSaid = ScmSaid {
            commands: Vec::new(),
            pending: Vec::new(),
            over_replicated: Vec::new(),
            admin_counts: Vec::new(),
            force_closed: Vec::new(),
            bcsid_mismatch: Vec::new(),
        };
        self.said.as_deref().unwrap_or(&NOTHING)
    }

    fn said_mut(&mut self) -> &mut ScmSaid {
        self.said.get_or_insert_default()
    }

    /// Whether any replica has an EC index.
    pub fn is_ec(&self) -> bool {
        self.replicas.iter().any(|r| r.index > 0)
            || self.replication.is_some_and(|(r, _)| r.is_ec())
    }

    /// The replication the container has: as SCM printed it, else the configured default of its
    /// kind (`None` for EC without a configured scheme).
    pub fn replication(&self, config: &HealthConfig) -> Option<Replication> {
        match self.replication {
            Some((r, _)) => Some(r),
            None if self.is_ec() => config.ec_default,
            None => Some(config.ratis_default),
        }
    }

    /// The replicas whose latest state holds the data.
    pub fn healthy(&self) -> impl Iterator<Item = &Replica> {
        self.replicas.iter().filter(|r| r.latest().state.healthy())
    }

    /// The latest state change of any replica (or SCM line about it).
    pub fn last_change(&self, trace: &Trace) -> Option<(i64, EventId)> {
        self.replicas
            .iter()
            .filter_map(|r| {
                let s = r.latest();
                Some((s.ts(trace)?, s.event))
            })
            .max()
    }

    /// The container's state as the replicas show it: the state most replicas are in (SCM's
    /// own when it printed one later than every replica).
    pub fn state(&self) -> String {
        let mut counts: BTreeMap<ReplicaState, u32> = BTreeMap::new();
        for r in &self.replicas {
            *counts.entry(r.latest().state).or_default() += 1;
        }
        counts
            .iter()
            .max_by_key(|(state, n)| (**n, std::cmp::Reverse(**state)))
            .map(|(s, _)| s.as_str().to_string())
            .or_else(|| self.scm_state.as_deref().map(str::to_string))
            .unwrap_or_else(|| "-".into())
    }
}

/// A datanode leaving the cluster by an operator's request: its replicas stay but are being
/// copied elsewhere (decommission) or may be away for a while (maintenance).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdminState {
    Decommissioning,
    Decommissioned,
    EnteringMaintenance,
    InMaintenance,
    InService,
}

impl AdminState {
    pub fn as_str(self) -> &'static str {
        match self {
            AdminState::Decommissioning => "DECOMMISSIONING",
            AdminState::Decommissioned => "DECOMMISSIONED",
            AdminState::EnteringMaintenance => "ENTERING_MAINTENANCE",
            AdminState::InMaintenance => "IN_MAINTENANCE",
            AdminState::InService => "IN_SERVICE",
        }
    }
}

/// What a line's `<D>` prints of its replica ([`ContainerReplicas::replica_printed`]).
struct PrintedReplica<'a> {
    container_state: Option<&'a str>,
    /// `None` for a word that is no `ContainerDataProto.State`.
    replica_state: Option<ReplicaState>,
    bcsid: u64,
    index: u32,
    /// The datanode's short host name.
    dn: Arc<str>,
}

/// The replicas of every container, by container id.
#[derive(Debug, Default)]
pub struct ContainerReplicas {
    /// Every container's record, in id order once built.
    containers: Vec<(u64, ContainerRecord)>,
    /// Where each container's record is in `containers` while the index is built: a hash
    /// lookup per line rather than a walk down a tree.
    building: HashMap<u64, usize>,
    /// The container [`ContainerReplicas::record`] found last, and its place.
    last_found: Option<(u64, usize)>,
    /// Each datanode's admin states, by short host, in time order.
    admin: HashMap<Arc<str>, Vec<(EventId, AdminState)>>,
    /// The time of the last event of the kinds it reads: the end of the logs for its decisions.
    pub end: Option<i64>,
    /// Every condition of every container under one config, in id order then kind order:
    /// decided in one walk of the records at the first health rule's question, so that the six
    /// rules read each record once between them, not once each.
    decided: OnceLock<(HealthConfig, Vec<(u64, Verdict)>)>,
}

impl ContainerReplicas {
    /// Reads the events of [`CONSUMES`] in trace order.
    pub fn build(trace: &Trace) -> ContainerReplicas {
        let mut index = ContainerReplicas::default();
        // Each name as printed, to its short name: worked out once per name, not per line.
        let mut hosts: HashMap<String, Arc<str>> = HashMap::default();
        let mut host = |name: &str| -> Arc<str> {
            if let Some(short) = hosts.get(name) {
                return Arc::clone(short);
            }
            let short: Arc<str> = Arc::from(short_host(name));
            hosts.insert(name.to_string(), Arc::clone(&short));
            short
        };
        // Only the kinds it declares, so that `scan`'s prefilter changes nothing: the end of the
        // logs is the last of these too (the SCM's ReplicationManager passes mark it every few
        // minutes).
        let reads = KindSet::of(CONSUMES);
        index.end = trace.latest_of_kinds(&reads);
        // ContainerLogger's lines, the most frequent, and SCM's container lines come from the
        // trace's compact columns; the few admin lines from the lists by kind. The three are
        // walked side by side in trace order: no other event is looked at.
        let mut lines = trace.container_state_lines().peekable();
        let mut scm_lines = trace.scm_container_lines().peekable();
        let lined = KindSet::of(&[
            Reads::Kind("dn_container_state"),
            Reads::Family(Family::ScmContainer),
        ]);
        let admin_kinds = reads.without(&lined);
        let mut admin = trace.of_kinds(&admin_kinds).peekable();
        // The short name of each datanode host the replica lines print, by its place.
        let mut replica_hosts: Vec<Option<Arc<str>>> = vec![None; trace.replica_host_places()];
        let none = EventId::MAX;
        loop {
            let line_at = lines.peek().map_or(none, |&(at, _)| at);
            let scm_at = scm_lines.peek().map_or(none, |&(at, _)| at);
            let admin_at = admin.peek().copied().unwrap_or(none);
            if line_at < scm_at && line_at < admin_at {
                let Some((id, line)) = lines.next() else {
                    break;
                };
                let LineState::Known(mut state) = line.state else {
                    continue;
                };
                // `logLost` prints the state the replica had, at ERROR; `logUnhealthy` is the
                // only other ERROR.
                if line.error && state != ReplicaState::Unhealthy {
                    state = ReplicaState::Lost;
                }
                let step = ReplicaStep {
                    event: id,
                    state,
                    bcsid: line.bcsid,
                    seen: Seen::Datanode,
                };
                let host = trace.short_host(trace.host_of(id));
                index.step(trace, line.container, host, line.index, step);
            } else if scm_at < admin_at {
                let Some((id, line)) = scm_lines.next() else {
                    break;
                };
                match line.action {
                    Some(action) => {
                        let dn = replica_hosts[line.datanode_host as usize]
                            .get_or_insert_with(|| host(trace.replica_host(line.datanode_host)));
                        let dn = Arc::clone(dn);
                        index.decision_line(trace, id, line, action, dn);
                    }
                    None => {
                        if let EventData::ScmContainer(data) = &trace.get(id).data {
                            index.scm_line(trace, id, data, &mut host);
                        }
                    }
                }
            } else {
                let Some(id) = admin.next() else { break };
                let event = trace.get(id);
                if let EventData::Scm(data) = &event.data {
                    index.admin_line(id, data, &event.text, &mut host);
                }
            }
        }
        index.building = HashMap::default();
        index.last_found = None;
        index.containers.sort_unstable_by_key(|&(id, _)| id);
        index
    }

    fn record(&mut self, container: u64) -> &mut ContainerRecord {
        // A container's lines come in bursts (its replicas open and close together): the last
        // one found is looked at before the map.
        if let Some(&(last, at)) = self.last_found.as_ref()
            && last == container
        {
            return &mut self.containers[at].1;
        }
        let next = self.containers.len();
        let at = *self.building.entry(container).or_insert(next);
        self.last_found = Some((container, at));
        if at == next {
            self.containers
                .push((container, ContainerRecord::default()));
        }
        &mut self.containers[at].1
    }

    /// Adds a step to a replica; a line the bundle holds twice (the same log collected twice)
    /// and an SCM line that repeats what is known add nothing.
    fn step(
        &mut self,
        trace: &Trace,
        container: u64,
        host: &Arc<str>,
        index: u32,
        step: ReplicaStep,
    ) {
        let record = self.record(container);
        // A datanode's lines share one copy of its name; SCM's lines name it by another.
        let replica = match record
            .replicas
            .iter_mut()
            .position(|r| r.index == index && (Arc::ptr_eq(&r.host, host) || r.host == *host))
        {
            Some(i) => &mut record.replicas[i],
            None => {
                record.replicas.push(Replica {
                    host: Arc::clone(host),
                    index,
                    steps: Vec::new(),
                });
                record.replicas.last_mut().expect("just pushed")
            }
        };
        let repeated = match step.seen {
            Seen::Scm => replica
                .steps
                .last()
                .is_some_and(|last| last.state == step.state && last.bcsid == step.bcsid),
            Seen::Datanode => {
                let ts = step.ts(trace);
                // Steps come in trace order: in a trace in time order, no step before a timed one
                // earlier than `ts` can have that time, so the scan stops there (a replica's
                // steps are mostly many lines of other times).
                let ordered = ts.is_some() && trace.is_time_ordered();
                (replica.steps.iter().rev())
                    .take_while(|s| !ordered || s.ts(trace).is_none_or(|at| Some(at) >= ts))
                    .any(|s| {
                        s.seen == Seen::Datanode
                            && s.ts(trace) == ts
                            && trace.get(s.event).text == trace.get(step.event).text
                    })
            }
        };
        if repeated {
            return;
        }
        replica.steps.push(step);
    }

    /// A report handler's decision about a replica, read from the trace's column
    /// ([`ScmContainerLine::action`]); `dn` is the short name of the datanode it prints.
    fn decision_line(
        &mut self,
        trace: &Trace,
        id: EventId,
        line: &ScmContainerLine,
        action: ReplicaAction,
        dn: Arc<str>,
    ) {
        let container_state = match line.container_state {
            StateWord::Absent => None,
            StateWord::Known(state) => Some(state),
            // An unusual word: as the event prints it.
            StateWord::Other => match &trace.get(id).data {
                EventData::ScmContainer(data) => {
                    data.replica().and_then(|d| d.container_state.as_deref())
                }
                _ => None,
            },
        };
        let replica_state = match line.replica_state {
            LineState::Known(state) => Some(state),
            LineState::Absent | LineState::Other => None,
        };
        let replica = PrintedReplica {
            container_state,
            replica_state,
            bcsid: line.bcsid,
            index: line.replica_index,
            dn,
        };
        self.replica_printed(trace, id, line.container, replica);
        self.decided(line.container, id, action);
    }

    /// What a line's `<D>` says of its replica and of the container's state.
    fn replica_printed(
        &mut self,
        trace: &Trace,
        id: EventId,
        container: u64,
        replica: PrintedReplica<'_>,
    ) {
        if let Some(state) = replica.container_state {
            let record = self.record(container);
            if record.scm_state.as_deref() != Some(state) {
                record.scm_state = Some(state_word(state));
            }
            if matches!(state, "DELETING" | "DELETED") {
                record.deleting.get_or_insert(id);
            }
        }
        if let Some(state) = replica.replica_state {
            let step = ReplicaStep {
                event: id,
                state,
                bcsid: Some(replica.bcsid),
                seen: Seen::Scm,
            };
            self.step(trace, container, &replica.dn, replica.index, step);
        }
    }

    /// What a report handler's decision adds to its container's record.
    fn decided(&mut self, container: u64, id: EventId, action: ReplicaAction) {
        let record = self.record(container);
        match action {
            ReplicaAction::ForceClose => record.said_mut().force_closed.push(id),
            ReplicaAction::BcsidMismatch => record.said_mut().bcsid_mismatch.push(id),
            _ => {}
        }
    }

    /// An SCM container line of another shape than [`ContainerReplicas::decision_line`]'s, read
    /// from its event.
    fn scm_line(
        &mut self,
        trace: &Trace,
        id: EventId,
        data: &ScmContainerEvent,
        host: &mut impl FnMut(&str) -> Arc<str>,
    ) {
        let Some(container) = data.container() else {
            return;
        };
        let event = trace.get(id);
        let kind = data.kind();
        if let Some(d) = data.replica() {
            let replica = PrintedReplica {
                container_state: d.container_state.as_deref(),
                replica_state: ReplicaState::parse(&d.replica_state),
                bcsid: d.bcsid,
                index: d.replica_index,
                dn: host(&d.datanode_host),
            };
            self.replica_printed(trace, id, container, replica);
        }
        if let ScmContainerEvent::Replica(e) = data {
            self.decided(container, id, e.action);
        }
        let record = self.record(container);
        match data {
            ScmContainerEvent::ReplicationCommand(c) => {
                if let Some(state) = &c.state {
                    record.scm_state = Some(state_word(state));
                }
                if let Some(r) = c.replication_config.as_deref().and_then(Replication::parse) {
                    record.replication = Some((r, id));
                }
                let kind = match c.command.as_str() {
                    "replicateContainerCommand" => CommandKind::Replicate,
                    "reconstructECContainersCommand" => CommandKind::Reconstruct,
                    "deleteContainerCommand" => CommandKind::Delete,
                    "closeContainerCommand" => CommandKind::Close,
                    _ => return,
                };
                let to = c.datanode_host.as_deref().map(&mut *host);
                record.said_mut().commands.push(SentCommand {
                    event: id,
                    ts: event.ts,
                    kind,
                    host: to,
                });
            }
            ScmContainerEvent::DeleteCommand(_) | ScmContainerEvent::Resurrected(_) => {}
            ScmContainerEvent::Statement(s) => match kind {
                "rm_over_replicated" => {
                    record.said_mut().over_replicated.push(id);
                    if let Some(factor) = s.args.get(3).and_then(|a| a.parse().ok()) {
                        record.replication = Some((Replication::Ratis { factor }, id));
                    }
                }
                "rm_replication_pending" => record.said_mut().pending.push(id),
                "container_force_closing" => record.said_mut().force_closed.push(id),
                _ => {}
            },
            ScmContainerEvent::SequenceId(_) if kind == "empty_quasi_closed_deleted" => {
                record.deleting.get_or_insert(id);
            }
            ScmContainerEvent::StateChange(s) => {
                record.scm_state = Some(state_word(&s.to));
                if matches!(s.to.as_str(), "DELETING" | "DELETED") {
                    record.deleting.get_or_insert(id);
                }
            }
            _ => {}
        }
    }

    fn admin_line(
        &mut self,
        id: EventId,
        data: &ScmEvent,
        text: &str,
        host: &mut impl FnMut(&str) -> Arc<str>,
    ) {
        if let ScmEvent::AdminContainer {
            kind,
            container,
            replica_count,
        } = data
        {
            let record = self.record(*container);
            if let Some(r) = replica_count
                .split_once("ReplicationConfig: ")
                .and_then(|(_, rest)| Replication::parse(rest.split(',').next()?))
                .or_else(|| {
                    let (_, rest) = replica_count.split_once("ReplicationFactor: ")?;
                    Replication::parse(rest.split(' ').next()?)
                })
            {
                record.replication = Some((r, id));
            }
            if let Some(count) = admin_count(id, kind, replica_count) {
                record.said_mut().admin_counts.push(count);
            }
            return;
        }
        let state = match data {
            ScmEvent::AdminStarted { .. } => match data.kind() {
                "maintenance_started" => AdminState::EnteringMaintenance,
                _ => AdminState::Decommissioning,
            },
            ScmEvent::AdminCompleted { op_state, .. } => match op_state.as_str() {
                "DECOMMISSIONED" => AdminState::Decommissioned,
                "IN_MAINTENANCE" => AdminState::InMaintenance,
                _ => AdminState::InService,
            },
            ScmEvent::AdminAborted { .. } => AdminState::InService,
            _ => match data.kind() {
                "admin_entered_maintenance" => AdminState::InMaintenance,
                "admin_maintenance_ended" | "recommission_queued" => AdminState::InService,
                _ => return,
            },
        };
        let Some(dn) = entity::find_datanode_details(text).next() else {
            return;
        };
        let dn = host(dn.value.host);
        self.admin.entry(dn).or_default().push((id, state));
    }

    /// Every container, by id.
    pub fn containers(&self) -> impl Iterator<Item = (u64, &ContainerRecord)> {
        self.containers.iter().map(|(id, r)| (*id, r))
    }

    pub fn get(&self, container: u64) -> Option<&ContainerRecord> {
        let at = self
            .containers
            .binary_search_by_key(&container, |&(id, _)| id)
            .ok()?;
        Some(&self.containers[at].1)
    }

    /// A datanode's last admin state, with its line, when it is leaving (not in service).
    pub fn leaving(&self, host: &str) -> Option<(AdminState, EventId)> {
        let (id, state) = *self.admin.get(host)?.last()?;
        (state != AdminState::InService).then_some((state, id))
    }

    /// The health conditions of one container at the end of the logs.
    pub fn health(&self, trace: &Trace, container: u64, config: &HealthConfig) -> Vec<Verdict> {
        let Some(record) = self.get(container) else {
            return Vec::new();
        };
        HealthKind::ALL
            .into_iter()
            .filter_map(|kind| self.decide(trace, record, config, kind))
            .collect()
    }

    /// The containers with a condition of one kind, in id order, with its verdict. `trace` is
    /// the trace the index was built from.
    pub fn verdicts<'a>(
        &'a self,
        trace: &'a Trace,
        config: &'a HealthConfig,
        kind: HealthKind,
    ) -> impl Iterator<Item = (u64, Verdict)> + 'a {
        let (decided_for, decided) = self.decided.get_or_init(|| {
            let all = self.containers.iter().flat_map(|(id, record)| {
                (HealthKind::ALL.into_iter())
                    .filter_map(move |kind| Some((*id, self.decide(trace, record, config, kind)?)))
            });
            (*config, all.collect())
        });
        if decided_for == config {
            Either::Left(
                (decided.iter())
                    .filter(move |(_, verdict)| verdict.kind == kind)
                    .cloned(),
            )
        } else {
            Either::Right(self.containers.iter().filter_map(move |(id, record)| {
                Some((*id, self.decide(trace, record, config, kind)?))
            }))
        }
    }

    /// The verdict of one kind on a container, if it has that condition.
    fn decide(
        &self,
        trace: &Trace,
        record: &ContainerRecord,
        config: &HealthConfig,
        kind: HealthKind,
    ) -> Option<Verdict> {
        let check = Check {
            trace,
            index: self,
            record,
            config,
            end: self.end.unwrap_or(i64::MIN),
        };
        // A container SCM is deleting loses its replicas on purpose.
        let deleting = || {
            record.deleting.is_some()
                || record
                    .replicas
                    .iter()
                    .all(|r| r.latest().state == ReplicaState::Deleted)
        };
        match kind {
            HealthKind::DuplicateOpen => check.duplicate_open(),
            HealthKind::MismatchedReplicas => check.mismatched(),
            HealthKind::UnderReplicated => (!deleting()).then(|| check.under_replicated())?,
            HealthKind::OverReplicated => (!deleting()).then(|| check.over_replicated())?,
            HealthKind::UnhealthyReplica => check.unhealthy(),
            HealthKind::QuasiClosedStuck => check.quasi_closed_stuck(),
        }
    }
}

/// A state word SCM printed: a `LifeCycleState` without a copy.
fn state_word(state: &str) -> Cow<'static, str> {
    life_cycle_state(state).map_or_else(|| Cow::Owned(state.to_string()), Cow::Borrowed)
}

/// `Container State: CLOSED Replica Count: 3 Healthy (I/D/M): 2/1/0 …` (Ratis) or
/// `Container State: CLOSED, Replicas: (Count: 5, Healthy: 4, Decommission: 1 …)` (EC).
fn admin_count(event: EventId, kind: &str, text: &str) -> Option<AdminCount> {
    let under_replicated = kind == "admin_under_replicated_container";
    if let Some((_, rest)) = text.split_once("Healthy (I/D/M): ") {
        let mut n = rest
            .split([' ', '/'])
            .take(3)
            .map(|v| v.parse::<u32>().ok());
        return Some(AdminCount {
            event,
            under_replicated,
            in_service: n.next()??,
            decommissioning: n.next()??,
            maintenance: n.next()??,
        });
    }
    let field = |name: &str| -> u32 {
        text.split_once(&format!("{name}: "))
            .and_then(|(_, rest)| rest.split([',', ')']).next()?.parse().ok())
            .unwrap_or(0)
    };
    text.contains("Replicas: (Count: ").then(|| AdminCount {
        event,
        under_replicated,
        in_service: field("Healthy"),
        decommissioning: field("Decommission"),
        maintenance: field("Maintenance"),
    })
}

/// The six conditions `ozone debug log container` checks, as oztrace's health rules name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HealthKind {
    DuplicateOpen,
    MismatchedReplicas,
    UnderReplicated,
    OverReplicated,
    UnhealthyReplica,
    QuasiClosedStuck,
}

impl HealthKind {
    pub const ALL: [HealthKind; 6] = [
        HealthKind::DuplicateOpen,
        HealthKind::MismatchedReplicas,
        HealthKind::UnderReplicated,
        HealthKind::OverReplicated,
        HealthKind::UnhealthyReplica,
        HealthKind::QuasiClosedStuck,
    ];

    /// The rule id (`container-under-replicated`, …).
    pub fn rule(self) -> &'static str {
        match self {
            HealthKind::DuplicateOpen => "container-duplicate-open",
            HealthKind::MismatchedReplicas => "container-mismatched-replicas",
            HealthKind::UnderReplicated => "container-under-replicated",
            HealthKind::OverReplicated => "container-over-replicated",
            HealthKind::UnhealthyReplica => "container-unhealthy-replica",
            HealthKind::QuasiClosedStuck => "container-quasi-closed-stuck",
        }
    }

    /// The name `ozone debug log container` gives it (`UNDER_REPLICATED`, …).
    pub fn label(self) -> &'static str {
        match self {
            HealthKind::DuplicateOpen => "DUPLICATE_OPEN",
            HealthKind::MismatchedReplicas => "MISMATCHED_REPLICAS",
            HealthKind::UnderReplicated => "UNDER_REPLICATED",
            HealthKind::OverReplicated => "OVER_REPLICATED",
            HealthKind::UnhealthyReplica => "UNHEALTHY",
            HealthKind::QuasiClosedStuck => "QUASI_CLOSED_STUCK",
        }
    }

    /// Reads a label or a rule id, case-insensitively, `-` and `_` alike.
    pub fn parse(s: &str) -> Option<HealthKind> {
        let norm = |v: &str| v.to_ascii_lowercase().replace('_', "-");
        let want = norm(s);
        let want = want.strip_prefix("container-").unwrap_or(&want);
        HealthKind::ALL.into_iter().find(|k| {
            norm(k.label()) == want
                || k.rule().strip_prefix("container-") == Some(want)
                || (want == "open-unhealthy" && *k == HealthKind::UnhealthyReplica)
        })
    }
}

/// How the verdict was reached, for the rule's confidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Basis {
    /// The datanodes' logs show it.
    Logs,
    /// The datanodes' logs show it and an SCM line says the same.
    LogsAndScm,
}

/// One line of a verdict's evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cite {
    pub event: EventId,
    /// The line shows the condition itself (else it is context).
    pub cause: bool,
    pub note: String,
}

/// One health condition of one container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub kind: HealthKind,
    /// `OPEN-UNHEALTHY` for an unhealthy verdict about a replica left OPEN.
    pub label: &'static str,
    pub basis: Basis,
    /// What the verdict says, in one sentence.
    pub summary: String,
    pub evidence: Vec<Cite>,
    /// The datanodes (short hosts) it is about.
    pub hosts: Vec<Arc<str>>,
}

/// Replicas that must agree: all of a Ratis container's, or those of one EC index.
#[derive(Clone, Copy)]
struct Group<'a> {
    replicas: &'a [Replica],
    /// The EC index; `None` for every replica.
    index: Option<u32>,
}

impl<'a> Group<'a> {
    fn iter(self) -> impl Iterator<Item = &'a Replica> {
        self.replicas
            .iter()
            .filter(move |r| self.index.is_none_or(|index| r.index == index))
    }
}

struct Check<'a> {
    trace: &'a Trace,
    index: &'a ContainerReplicas,
    record: &'a ContainerRecord,
    config: &'a HealthConfig,
    end: i64,
}

impl Check<'_> {
    fn cite(&self, step: &ReplicaStep, cause: bool, note: String) -> Cite {
        Cite {
            event: step.event,
            cause,
            note,
        }
    }

    fn ts(&self, id: EventId) -> Option<i64> {
        self.trace.get(id).ts
    }

    /// The time of a replica's step.
    fn at(&self, step: &ReplicaStep) -> Option<i64> {
        step.ts(self.trace)
    }

    /// A condition that began at `since` has had two ReplicationManager passes by the end.
    fn settled(&self, since: Option<i64>) -> bool {
        since.is_some_and(|t| self.end - t >= 2 * self.config.rm_interval_ms)
    }

    /// A command of `kinds` sent at or after `since` and still in flight at the end of the logs.
    fn in_flight(&self, kinds: &[CommandKind], since: Option<i64>) -> Option<&SentCommand> {
        self.record.said().commands.iter().rev().find(|c| {
            kinds.contains(&c.kind)
                && c.ts.zip(since).is_none_or(|(c, s)| c >= s)
                && c.ts
                    .is_some_and(|t| self.end - t < self.config.event_timeout_ms)
        })
    }

    /// A `… will be sufficiently replicated after pending replicas are created` at or after `since`
    /// and within the event timeout of the end.
    fn pending_line(&self, since: Option<i64>) -> Option<EventId> {
        self.record.said().pending.iter().rev().copied().find(|&p| {
            let t = self.ts(p);
            t.zip(since).is_none_or(|(t, s)| t >= s)
                && t.is_some_and(|t| self.end - t < self.config.event_timeout_ms)
        })
    }

    /// Replica groups that must agree, by index: the whole container for Ratis (index 0), one
    /// group per index for EC. Nothing is copied for a Ratis container.
    fn groups(&self) -> impl Iterator<Item = (u32, Group<'_>)> {
        let replicas = self.record.replicas.as_slice();
        let ec = self.record.is_ec();
        let mut indexes: Vec<u32> = if ec {
            replicas.iter().map(|r| r.index).collect()
        } else {
            Vec::new()
        };
        indexes.sort_unstable();
        indexes.dedup();
        let ratis = (!ec && !replicas.is_empty()).then_some((
            0,
            Group {
                replicas,
                index: None,
            },
        ));
        ratis
            .into_iter()
            .chain(indexes.into_iter().map(move |index| {
                (
                    index,
                    Group {
                        replicas,
                        index: Some(index),
                    },
                )
            }))
    }

    fn duplicate_open(&self) -> Option<Verdict> {
        let ec = self.record.is_ec();
        let allowed = if ec {
            1
        } else {
            self.record
                .replication(self.config)
                .map_or(u32::MAX, Replication::expected) as usize
        };
        let group_of = |r: &Replica| if ec { r.index } else { 0 };
        // Every OPEN is a first one, in whatever order, when each group has at most `allowed`,
        // each on a datanode of its own: most containers, decided without sorting their OPENs.
        // A replica is one (datanode, index): the replicas of a group are on datanodes of their
        // own, so each must have opened once.
        let opened = |r: &&Replica| r.opens().next().is_some();
        let all_first = (self.record.replicas.iter().filter(opened).enumerate()).all(|(at, r)| {
            let earlier = self.record.replicas.iter().filter(opened).take(at);
            let in_group = 1 + earlier
                .filter(|other| group_of(other) == group_of(r))
                .count();
            r.opens().nth(1).is_none() && in_group <= allowed
        });
        if all_first {
            return None;
        }
        // Every OPEN a datanode printed, by group (the index for EC) and in time order.
        let mut opens: Vec<(u32, &Replica, &ReplicaStep)> = self
            .record
            .replicas
            .iter()
            .flat_map(|r| r.opens().map(move |s| (group_of(r), r, s)))
            .collect();
        opens.sort_by_key(|&(group, _, s)| (group, self.at(s), s.event));
        // What each OPEN is, decided before any note is written: most containers have none
        // but first ones.
        #[derive(PartialEq)]
        enum Open {
            First,
            Again,
            Extra,
        }
        let mut first: Vec<&Arc<str>> = Vec::new();
        let mut group = None;
        let marks: Vec<Open> = opens
            .iter()
            .map(|&(g, r, _)| {
                if group != Some(g) {
                    group = Some(g);
                    first.clear();
                }
                if first.len() < allowed && !first.contains(&&r.host) {
                    first.push(&r.host);
                    Open::First
                } else if first.contains(&&r.host) {
                    Open::Again
                } else {
                    Open::Extra
                }
            })
            .collect();
        if marks.iter().all(|m| *m == Open::First) {
            return None;
        }
        let mut evidence = Vec::new();
        let mut hosts = Vec::new();
        for ((index, r, s), mark) in opens.into_iter().zip(marks) {
            let why = match mark {
                Open::First => {
                    evidence.push(self.cite(
                        s,
                        false,
                        format!("{} created the replica OPEN", r.host),
                    ));
                    continue;
                }
                Open::Again => format!("{} created the replica OPEN again", r.host),
                Open::Extra if ec => format!(
                    "{} also created index {index} OPEN: one replica per index",
                    r.host
                ),
                Open::Extra => format!(
                    "{} created a replica OPEN beyond the {allowed} expected",
                    r.host
                ),
            };
            evidence.push(self.cite(s, true, why));
            if !hosts.contains(&r.host) {
                hosts.push(Arc::clone(&r.host));
            }
        }
        Some(Verdict {
            kind: HealthKind::DuplicateOpen,
            label: "DUPLICATE_OPEN",
            basis: Basis::Logs,
            summary: format!(
                "the container was created OPEN more often than it has replicas{}: a datanode holds a second life of it",
                if ec { " per index" } else { "" }
            ),
            evidence,
            hosts,
        })
    }

    fn mismatched(&self) -> Option<Verdict> {
        let mut evidence = Vec::new();
        let mut hosts = Vec::new();
        for (index, group) in self.groups() {
            let closed = || {
                group
                    .iter()
                    .filter(|r| r.latest().state == ReplicaState::Closed)
            };
            let bcsids = || closed().filter_map(|r| r.latest().bcsid);
            // Two BCSIDs at least.
            let (Some(low), Some(top)) = (bcsids().min(), bcsids().max()) else {
                continue;
            };
            if low == top {
                continue;
            }
            for r in closed() {
                let s = r.latest();
                let behind = s.bcsid.is_some_and(|b| b < top);
                // A delete of the stale replica in flight: SCM is correcting it.
                if behind
                    && self.record.said().commands.iter().any(|c| {
                        c.kind == CommandKind::Delete
                            && c.host.as_ref() == Some(&r.host)
                            && c.ts >= self.at(s)
                            && c.ts
                                .is_some_and(|t| self.end - t < self.config.event_timeout_ms)
                    })
                {
                    return None;
                }
                let what = if self.record.is_ec() {
                    format!("index {index} ")
                } else {
                    String::new()
                };
                evidence.push(self.cite(
                    s,
                    behind,
                    format!(
                        "{} closed {what}at BCSID {}{}",
                        r.host,
                        s.bcsid.map_or("-".into(), |b| b.to_string()),
                        if behind {
                            format!(", behind {top}")
                        } else {
                            String::new()
                        }
                    ),
                ));
                if behind {
                    hosts.push(Arc::clone(&r.host));
                }
            }
        }
        if hosts.is_empty() {
            return None;
        }
        let scm = self.record.said().bcsid_mismatch.last().copied();
        if let Some(id) = scm {
            evidence.push(Cite {
                event: id,
                cause: false,
                note: "SCM ignores the replica whose BCSID differs".into(),
            });
        }
        Some(Verdict {
            kind: HealthKind::MismatchedReplicas,
            label: "MISMATCHED_REPLICAS",
            basis: if scm.is_some() {
                Basis::LogsAndScm
            } else {
                Basis::Logs
            },
            summary: "CLOSED replicas of the container hold different BCSIDs: once closed they must hold the same data".into(),
            evidence,
            hosts,
        })
    }

    fn under_replicated(&self) -> Option<Verdict> {
        let replication = self.record.replication(self.config);
        let mut evidence = Vec::new();
        let mut hosts = Vec::new();
        let mut since: Option<i64> = None;
        let mut missing_indexes = Vec::new();
        for (index, group) in self.groups() {
            let healthy = group.iter().filter(|r| r.latest().state.healthy()).count() as u32;
            let want = if self.record.is_ec() {
                1
            } else {
                replication.map_or(0, Replication::expected)
            };
            if healthy >= want {
                continue;
            }
            // A replica whose data went away in the logs; without one, the bundle may simply lack
            // the other datanodes' logs.
            let lost: Vec<(&Replica, &ReplicaStep)> = group
                .iter()
                .filter(|r| {
                    !r.latest().state.healthy() && r.latest().state != ReplicaState::Recovering
                })
                .filter_map(|r| Some((r, r.first_since_healthy()?)))
                .filter(|(_, s)| {
                    s.state.gone()
                        || (s.state == ReplicaState::Deleted
                            // An empty replica deleted is SCM removing an empty container.
                            && !self.trace.get(s.event).text.contains("Empty container deleted"))
                })
                .collect();
            if lost.is_empty() {
                continue;
            }
            for (r, s) in &lost {
                since = since.max(self.at(s));
                evidence.push(self.cite(
                    s,
                    true,
                    format!(
                        "the {}replica on {} is {}",
                        if self.record.is_ec() {
                            format!("index {index} ")
                        } else {
                            String::new()
                        },
                        r.host,
                        s.state
                    ),
                ));
                hosts.push(Arc::clone(&r.host));
            }
            for r in group.iter().filter(|r| r.latest().state.healthy()) {
                evidence.push(self.cite(
                    r.latest(),
                    false,
                    format!("{} still holds a {} replica", r.host, r.latest().state),
                ));
            }
            missing_indexes.push(index);
        }
        if hosts.is_empty() {
            return None;
        }
        // Being replicated or reconstructed right now.
        if self
            .in_flight(&[CommandKind::Replicate, CommandKind::Reconstruct], since)
            .is_some()
            || self.pending_line(since).is_some()
            || self.record.replicas.iter().any(|r| {
                // A reconstruction target still RECOVERING within the event timeout.
                let s = r.latest();
                s.state == ReplicaState::Recovering
                    && (!self.record.is_ec() || missing_indexes.contains(&r.index))
                    && self
                        .at(s)
                        .is_some_and(|t| self.end - t < self.config.event_timeout_ms)
            })
        {
            return None;
        }
        if !self.settled(since) {
            return None;
        }
        // SCM's admin monitor counts decommissioning and maintenance replicas apart: it agrees
        // when those together still fall short.
        let scm = self.record.said().admin_counts.iter().rev().find(|c| {
            c.under_replicated
                && replication.is_some_and(|r| {
                    c.in_service + c.decommissioning + c.maintenance < r.expected()
                })
        });
        if let Some(c) = scm {
            evidence.push(Cite {
                event: c.event,
                cause: false,
                note: "SCM's admin monitor counts the container under-replicated".into(),
            });
        }
        for c in &self.record.said().commands {
            if matches!(c.kind, CommandKind::Replicate | CommandKind::Reconstruct)
                && c.ts.zip(since).is_some_and(|(c, s)| c >= s)
            {
                evidence.push(Cite {
                    event: c.event,
                    cause: false,
                    note: "a copy was ordered and never arrived".into(),
                });
            }
        }
        let (healthy, want) = (
            self.record.healthy().count(),
            replication.map_or("?".to_string(), |r| r.expected().to_string()),
        );
        Some(Verdict {
            kind: HealthKind::UnderReplicated,
            label: "UNDER_REPLICATED",
            basis: if scm.is_some() {
                Basis::LogsAndScm
            } else {
                Basis::Logs
            },
            summary: if self.record.is_ec() {
                format!(
                    "index {} of the EC container lost its replica and no copy was rebuilt by the end of the logs ({healthy} of {want} replicas healthy)",
                    missing_indexes
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!(
                    "a replica was lost and not replaced by the end of the logs: {healthy} of {want} replicas healthy"
                )
            },
            evidence,
            hosts,
        })
    }

    fn over_replicated(&self) -> Option<Verdict> {
        // One replica per index for EC whatever its scheme; Ratis needs its factor.
        let replication = self.record.replication(self.config);
        let per_group = if self.record.is_ec() {
            1
        } else {
            replication?.expected()
        } as usize;
        let mut evidence = Vec::new();
        let mut hosts = Vec::new();
        let mut since: Option<i64> = None;
        for (index, group) in self.groups() {
            let want = per_group;
            // A leaving datanode's replica is the one being replaced: not an extra.
            let counted = || {
                group
                    .iter()
                    .filter(|r| r.latest().state.healthy() && self.index.leaving(&r.host).is_none())
            };
            if counted().count() <= want {
                continue;
            }
            let mut by_arrival: Vec<&Replica> = counted().collect();
            by_arrival.sort_by_key(|r| (self.at(&r.steps[0]), r.steps[0].event));
            for (i, r) in by_arrival.iter().enumerate() {
                let extra = i >= want;
                if extra {
                    since = since.max(self.at(&r.steps[0]));
                    hosts.push(Arc::clone(&r.host));
                }
                let what = if self.record.is_ec() {
                    format!("index {index} ")
                } else {
                    String::new()
                };
                evidence.push(self.cite(
                    r.latest(),
                    extra,
                    format!(
                        "{} holds a {} {what}replica{}",
                        r.host,
                        r.latest().state,
                        if extra {
                            format!(" beyond the {want} expected")
                        } else {
                            String::new()
                        }
                    ),
                ));
            }
        }
        if hosts.is_empty() {
            return None;
        }
        if self.in_flight(&[CommandKind::Delete], since).is_some() || !self.settled(since) {
            return None;
        }
        let scm = self.record.said().over_replicated.last().copied();
        if let Some(id) = scm {
            evidence.push(Cite {
                event: id,
                cause: false,
                note: "SCM's ReplicationManager counts the container over-replicated".into(),
            });
        }
        Some(Verdict {
            kind: HealthKind::OverReplicated,
            label: "OVER_REPLICATED",
            basis: if scm.is_some() {
                Basis::LogsAndScm
            } else {
                Basis::Logs
            },
            summary: match replication {
                Some(r) => format!(
                    "{} healthy replicas where {} are expected{}, and no delete was sent",
                    self.record.healthy().count(),
                    r.expected(),
                    if r.is_ec() { " (one per index)" } else { "" }
                ),
                None => "an index is held by more than one healthy replica, and no delete was sent"
                    .to_string(),
            },
            evidence,
            hosts,
        })
    }

    fn unhealthy(&self) -> Option<Verdict> {
        let mut evidence = Vec::new();
        let mut hosts = Vec::new();
        for r in &self.record.replicas {
            let s = r.latest();
            if s.state != ReplicaState::Unhealthy {
                continue;
            }
            // SCM deleting the replica now: it is being handled.
            if self
                .in_flight(&[CommandKind::Delete], self.at(s))
                .is_some_and(|c| c.host.as_ref() == Some(&r.host))
            {
                continue;
            }
            evidence.push(self.cite(s, true, format!("{} marked its replica UNHEALTHY", r.host)));
            hosts.push(Arc::clone(&r.host));
        }
        if !hosts.is_empty() {
            return Some(Verdict {
                kind: HealthKind::UnhealthyReplica,
                label: "UNHEALTHY",
                basis: Basis::Logs,
                summary: format!(
                    "{} replica{} UNHEALTHY at the end of the logs",
                    hosts.len(),
                    if hosts.len() == 1 { " is" } else { "s are" }
                ),
                evidence,
                hosts,
            });
        }
        self.open_unhealthy()
    }

    /// OPEN on some replicas while others moved on: the close did not reach them.
    fn open_unhealthy(&self) -> Option<Verdict> {
        let moved_on = self
            .record
            .replicas
            .iter()
            .filter(|r| r.latest().state.healthy() && r.latest().state != ReplicaState::Open)
            .filter_map(|r| {
                let first = r.steps.iter().find(|s| s.state != ReplicaState::Open)?;
                Some((r, first))
            })
            .min_by_key(|(_, s)| (self.at(s), s.event))?;
        if !self.settled(self.at(moved_on.1)) {
            return None;
        }
        let open: Vec<&Replica> = self
            .record
            .replicas
            .iter()
            .filter(|r| {
                r.latest().state == ReplicaState::Open && self.index.leaving(&r.host).is_none()
            })
            .collect();
        if open.is_empty() {
            return None;
        }
        let mut evidence = vec![self.cite(
            moved_on.1,
            false,
            format!(
                "{} moved its replica to {}",
                moved_on.0.host, moved_on.1.state
            ),
        )];
        let mut hosts = Vec::new();
        for r in open {
            evidence.push(self.cite(r.latest(), true, format!("{} still holds it OPEN", r.host)));
            hosts.push(Arc::clone(&r.host));
        }
        Some(Verdict {
            kind: HealthKind::UnhealthyReplica,
            label: "OPEN-UNHEALTHY",
            basis: Basis::Logs,
            summary: format!(
                "the container moved to {} on {} but stayed OPEN on {} through two ReplicationManager passes",
                moved_on.1.state,
                moved_on.0.host,
                hosts
                    .iter()
                    .map(|h| h.as_ref())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            evidence,
            hosts,
        })
    }

    fn quasi_closed_stuck(&self) -> Option<Verdict> {
        // EC containers close or go unhealthy; only Ratis replicas quasi-close.
        if self.record.is_ec() {
            return None;
        }
        if self.record.healthy().next().is_none()
            || self
                .record
                .healthy()
                .any(|r| r.latest().state != ReplicaState::QuasiClosed)
        {
            return None;
        }
        let healthy: Vec<&Replica> = self.record.healthy().collect();
        let first = healthy
            .iter()
            .filter_map(|r| {
                r.steps
                    .iter()
                    .find(|s| s.state == ReplicaState::QuasiClosed)
            })
            .min_by_key(|s| (self.at(s), s.event))?;
        let forced = self
            .record
            .said()
            .force_closed
            .iter()
            .any(|&f| self.ts(f) >= self.at(first));
        if forced || !self.settled(self.at(first)) {
            return None;
        }
        let evidence = healthy
            .iter()
            .map(|r| {
                let s = r
                    .steps
                    .iter()
                    .find(|s| s.state == ReplicaState::QuasiClosed)
                    .unwrap_or(r.latest());
                self.cite(
                    s,
                    true,
                    format!(
                        "{} quasi-closed its replica at BCSID {}",
                        r.host,
                        s.bcsid.map_or("-".into(), |b| b.to_string())
                    ),
                )
            })
            .collect();
        Some(Verdict {
            kind: HealthKind::QuasiClosedStuck,
            label: "QUASI_CLOSED_STUCK",
            basis: Basis::Logs,
            summary: format!(
                "every healthy replica ({}) stayed QUASI_CLOSED through two ReplicationManager passes and SCM never force-closed the container",
                healthy.len()
            ),
            evidence,
            hosts: healthy.iter().map(|r| Arc::clone(&r.host)).collect(),
        })
    }
}

#[cfg(test)]
mod tests;
