//! `dropped-actions` (HDDS-17269): a heartbeat task queued behind a slow one runs after the SCM
//! asked the datanode to reregister, drains the pending container actions and sends them to an
//! SCM that drops them.
//!
//! Evidence, as the logs allow it (datanode.md 3.B, issue 7):
//! - backlog: two or more consecutive `Detected timeout` for one SCM endpoint of a datanode
//!   (each one is a task left queued), around an `Unable to communicate to SCM server`;
//! - the SCM restarted or failed over: it answers the datanode with reregister (SCM audit
//!   `SEND_HEARTBEAT … reregisterCommand`, `SCM received heartbeat from an unregistered
//!   datanode`), then `REGISTER`. Several reregisters in a burst are the queued heartbeats replayed;
//! - the SCM's restart or leadership lines (`STARTUP_MSG`/`SHUTDOWN_MSG`, ` scm role is`, `becomes
//!   leader of term`) between its last normal answer to the datanode and its first reregister:
//!   context, not required (a reregister already says the SCM lost the registration);
//! - effect: a container action raised in that window (`Marked Container UNHEALTHY`, dn-container
//!   `State=UNHEALTHY`, the full-volume immediate heartbeat whose close action is queued without a
//!   line) and no SCM close for the container within the close window after the re-registration
//!   (derived from the heartbeat settings, [`Timing`]);
//! - without a visible action: more than one reregister answer before the re-registration is the
//!   backlog replayed after the first one, the mechanism that drops actions; at INFO a full
//!   container's close action is queued without a line, so this alone is `possible`;
//! - with HeartbeatEndpointTask DEBUG: the heartbeat sent while the endpoint was back in
//!   GETVERSION (an illegal step of the `dn-endpoint` machine) carrying the action, answered with
//!   another reregister: the defect itself.
//!
//! Lost ICRs and CLOSING replicas are repaired by the full container report sent at
//! registration, and pipeline actions stay queued: they are context, not the effect.

use crate::RuleFamily;
use crate::coverage::{DATANODE_SERVICE_LOGS, Need};
use crate::{
    Confidence, Context, Evidence, Finding, Gap, Output, Role, RuleDoc, SettingDoc, Settings,
    Severity,
};
use oztrace_analyzer::kinds::{self, Family, KindSet, Reads};
use oztrace_analyzer::machine::{Replay, Transition};
use oztrace_analyzer::machines::endpoint::{DatanodeHosts, MACHINE, ScmSignal, endpoint_key};
use oztrace_analyzer::replicas::ReplicaState;
use oztrace_analyzer::trace::{ContainerStateLine, EventId, LineState, Trace};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::dn_endpoint::DnEndpointEvent;
use oztrace_parser::entity::Entity;
use oztrace_parser::source::{Component, short_host};
use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::sync::Arc;

pub const ID: &str = "dropped-actions";

const HEARTBEAT_INTERVAL: &str = "hdds.heartbeat.interval";
const RPC_TIMEOUT: &str = "ozone.scm.heartbeat.rpc-timeout";
const RPC_RETRY_COUNT: &str = "ozone.scm.heartbeat.rpc-retry-count";
const RPC_RETRY_INTERVAL: &str = "ozone.scm.heartbeat.rpc-retry-interval";
const CLOSE_WAIT: &str = "ozone.scm.close.container.wait.duration";

/// The settings [`Timing::from`] reads, in its order.
const SETTINGS: &[SettingDoc; 5] = &[
    SettingDoc {
        key: HEARTBEAT_INTERVAL,
        default: "30s",
        default_from: "HddsConfigKeys.HDDS_HEARTBEAT_INTERVAL_DEFAULT (ozone-default.xml)",
        used_for: "one cycle of RunningDatanodeState: consecutive `Detected timeout` lines of one backlog are at \
most two intervals apart; reregister answers within one interval of the first are the replayed backlog; the \
window for a raised action starts one interval before the first timeout",
    },
    SettingDoc {
        key: RPC_TIMEOUT,
        default: "5s",
        default_from: "ScmConfigKeys.OZONE_SCM_HEARTBEAT_RPC_TIMEOUT_DEFAULT",
        used_for: "the longest a heartbeat call can take before it fails: (retries + 1) × this + retries × the retry \
interval (95 s with the defaults); the SCM's reregister answer to the stuck call comes at most that long after \
the last timeout",
    },
    SettingDoc {
        key: RPC_RETRY_COUNT,
        default: "15",
        default_from: "ScmConfigKeys.OZONE_SCM_HEARTBEAT_RPC_RETRY_COUNT_DEFAULT",
        used_for: "the longest heartbeat call (see ozone.scm.heartbeat.rpc-timeout)",
    },
    SettingDoc {
        key: RPC_RETRY_INTERVAL,
        default: "1s",
        default_from: "ScmConfigKeys.OZONE_SCM_HEARTBEAT_RPC_RETRY_INTERVAL_DEFAULT",
        used_for: "the longest heartbeat call (see ozone.scm.heartbeat.rpc-timeout)",
    },
    SettingDoc {
        key: CLOSE_WAIT,
        default: "150s",
        default_from: "OzoneConfigKeys.OZONE_SCM_CLOSE_CONTAINER_WAIT_DURATION_DEFAULT",
        used_for: "CloseContainerEventHandler sends the close commands this long after the action arrives: the SCM \
has one interval for the action to arrive, this wait, one interval for the command and the longest call after the \
re-registration to show a close (305 s with the defaults) before the action counts as unanswered",
    },
];

/// Timeouts further apart than this many intervals are separate backlogs: while a task is queued,
/// every cycle waits one interval (less when a trigger interrupts it) and logs a timeout, so a
/// longer gap means cycles completed in between and the queue drained.
const RUN_GAP_HEARTBEATS: i64 = 2;

/// Loggers that show which heartbeat carried which action and in which endpoint state it ran
/// (datanode.md 3.B "DEBUG loggers an operator must enable").
pub const HEARTBEAT_TASK_LOGGER: &str =
    "org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask";
const DEBUG_LINES: &[&str] = &[
    "log4j.logger.org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask=DEBUG",
    "log4j.logger.org.apache.hadoop.ozone.container.common.states.endpoint.VersionEndpointTask=DEBUG",
    "log4j.logger.org.apache.hadoop.ozone.container.common.statemachine.StateContext=DEBUG",
    "log4j.logger.org.apache.hadoop.ozone.container.common.statemachine.DatanodeStateMachine=DEBUG",
    "log4j.logger.org.apache.hadoop.ozone.container.common.statemachine.commandhandler.CloseContainerCommandHandler=DEBUG",
];

/// Datanode kinds written by another slice (`datanode.rs`) that this rule reads by name.
pub mod datanode_kinds {
    /// HddsDispatcher INFO `Marked Container UNHEALTHY, ContainerID: {}` (a close action follows).
    pub const MARKED_UNHEALTHY: &str = "container_marked_unhealthy";
    /// Every dn-container record (fields `id`, `index`, `bcsid`, `state`, `volume`, `message`).
    pub const CONTAINER_STATE: &str = "dn_container_state";
    /// HddsDispatcher WARN `Triggered immediate heartbeat because of full volume.`: a close
    /// action (CONTAINER_FULL) was queued without a line naming the container.
    pub const FULL_VOLUME_HEARTBEAT: &str = "full_volume_heartbeat";
    /// CloseContainerCommandHandler INFO/ERROR outcomes (`Marking Container {} quasi closed`,
    /// `Follower cannot close container #{}.`, …): a close command reached the datanode.
    pub const CLOSE_HANDLING: &str = "close_container_handling";
}

/// SCM kinds (scm.md 2.1, `HddsServerUtil.startupShutdownMessage`) that show the SCM lost the
/// registrations it held (a restart) or changed leadership.
pub mod scm_restart_kinds {
    /// The process stopped or started.
    pub const START: &[&str] = &["scm_shutdown", "scm_started", "scm_startup_role"];
    pub const ALL: &[&str] = &[
        "scm_shutdown",
        "scm_started",
        "scm_startup_role",
        "scm_became_leader",
        "scm_leader_changed",
        "scm_stepped_down",
    ];
}

declare_rule! {
    /// Datanode heartbeat queued behind a slow one runs after a reregister and drops container actions
    ///
    /// ## What it detects
    ///
    /// A datanode whose heartbeat to one SCM did not return within the heartbeat interval
    /// (consecutive `Detected timeout` warnings: one queued task each), while that SCM restarted
    /// or failed over and answered the datanode with reregister commands, more than once before
    /// the datanode registered again (the queued heartbeats ran after the first reregister), or
    /// once with a container action raised in that window (a full or UNHEALTHY container's close
    /// action) that the SCM never acted on within the close window after the re-registration. In
    /// builds with HDDS-15533 and `ozone.client.failover.resolve-needed=true`, an `SCM endpoint …
    /// re-resolved` line stands in for the reregister (the replaced endpoint's queued heartbeats
    /// still run).
    ///
    /// ## Why it matters
    ///
    /// RunningDatanodeState never cancels a timed-out endpoint task; the queued
    /// HeartbeatEndpointTask runs after the reregister moved the endpoint to GETVERSION, drains the
    /// container actions queued for that SCM and sends them to an SCM that does not consider the
    /// datanode registered, which answers with another reregister and processes nothing. A lost
    /// close action for a full container is not raised again unless a write reaches it, so the
    /// container stays OPEN in SCM until its pipeline closes.
    ///
    /// ## Example
    ///
    /// dn2's log (`samples/HDDS-17269-bug-info`): three heartbeats queue behind a slow one to
    /// scm1, and a full volume raises a close action meanwhile:
    ///
    /// ```text
    /// 2026-09-14 02:11:33,864 [4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27-DatanodeStateMachineDaemonThread] WARN org.apache.hadoop.ozone.container.common.states.datanode.RunningDatanodeState: Detected timeout: Timeout occurred on endpoint: scm1.example.com:9861/scm1.example.com/10.20.0.11
    /// 2026-09-14 02:12:03,868 [4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27-DatanodeStateMachineDaemonThread] WARN org.apache.hadoop.ozone.container.common.states.datanode.RunningDatanodeState: Detected timeout: Timeout occurred on endpoint: scm1.example.com:9861/scm1.example.com/10.20.0.11
    /// 2026-09-14 02:12:33,864 [4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27-DatanodeStateMachineDaemonThread] WARN org.apache.hadoop.ozone.container.common.states.datanode.RunningDatanodeState: Detected timeout: Timeout occurred on endpoint: scm1.example.com:9861/scm1.example.com/10.20.0.11
    /// 2026-09-14 02:12:35,353 [4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27-ChunkWriter-1-0] WARN org.apache.hadoop.ozone.container.common.impl.HddsDispatcher: Triggered immediate heartbeat because of full volume.
    /// ```
    ///
    /// scm1, newly leader, answers the queued heartbeats with reregister (five times in 46 ms),
    /// then registers dn2 again; nothing closes the full container afterwards:
    ///
    /// ```text
    /// 2026-09-14 02:10:41,595 [1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5@group-0F1E2A3B4C5D-LeaderElection1] INFO org.apache.hadoop.hdds.scm.ha.SCMStateMachine: current SCM 1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5 becomes leader of term 7
    /// 2026-09-14 02:12:37,922 [IPC Server handler 3 on default port 9861] INFO org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher: SCM received heartbeat from an unregistered datanode 4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27(dn2.example.com/10.20.1.12). Asking datanode to re-register.
    /// 2026-09-14 02:12:37,934 [IPC Server handler 5 on default port 9861] INFO org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher: SCM received heartbeat from an unregistered datanode 4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27(dn2.example.com/10.20.1.12). Asking datanode to re-register.
    /// 2026-09-14 02:12:38,003 [IPC Server handler 0 on default port 9861] INFO org.apache.hadoop.hdds.scm.node.SCMNodeManager: Registered datanode: 4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27{ip: 10.20.1.12, host: dn2.example.com, ports: {STANDALONE=STANDALONE=9859, RATIS=RATIS=9858, REPLICATION=REPLICATION=9886, RATIS_ADMIN=RATIS_ADMIN=9857, RATIS_SERVER=RATIS_SERVER=9856, HTTP=HTTP=9882, CLIENT_RPC=CLIENT_RPC=19864}, networkLocation: /default-rack, certSerialId: null, persistedOpState: IN_SERVICE, persistedOpStateExpiryEpochSec: 0}
    /// ```
    ///
    /// Kinds: `endpoint_timeout`, `endpoint_timeout`, `endpoint_timeout`, `full_volume_heartbeat`,
    /// `scm_became_leader`, `reregister_requested`, `reregister_requested`,
    /// `datanode_registered`.
    ///
    /// ## Evidence and confidence
    ///
    /// Cause: the `Detected timeout` run for the endpoint and the SCM's reregister answers (audit
    /// SEND_HEARTBEAT with reregisterCommand, or the unregistered-datanode INFO line). Effect: the
    /// action raised inside the window (Marked Container UNHEALTHY, dn-container State=UNHEALTHY,
    /// the full-volume immediate heartbeat) with no SCM close of that container (no
    /// closeContainerCommand in any SEND_HEARTBEAT audit, no SCM line naming it, no CLOSING/CLOSED
    /// replica) within the close window after the REGISTER: one heartbeat interval for the action
    /// to arrive, `ozone.scm.close.container.wait.duration`, one interval for the command and the
    /// longest heartbeat call (305 s with the defaults). Context: the SCM's
    /// STARTUP_MSG/SHUTDOWN_MSG and leadership lines between its last normal answer and its first
    /// reregister.
    ///
    /// - `confirmed`: HeartbeatEndpointTask DEBUG shows a heartbeat sent while the endpoint was in
    ///   GETVERSION (or by a replaced endpoint) carrying that container action, answered by
    ///   another reregister (or, after a DNS refresh, failing: actions are not put back);
    /// - `possible`: at INFO, nothing shows which heartbeat carried the action; with no action
    ///   visible, two or more reregister answers before the REGISTER (the backlog replayed after
    ///   the first) are possible on their own, the reason says so and the gap names the DEBUG
    ///   loggers that would show the action.
    ///
    /// With that DEBUG logger on and no such heartbeat, nothing is reported.
    ///
    /// ## Look-alikes
    ///
    /// - An SCM restart whose datanodes re-register after one reregister each: with no backlog
    ///   nothing was queued (`HDDS-17269-control-scm-restart-single-reregister`).
    /// - A backlog on one SCM's endpoint while another SCM restarts: each endpoint has its own
    ///   queue, and the SCM with the backlog still knows the datanode
    ///   (`HDDS-17269-control-slow-leader-other-scm-restarts`).
    /// - A slow SCM that recovers without a reregister: the queued heartbeats are processed
    ///   (`HDDS-17269-control-slow-scm-recovers`).
    /// - Lost ICRs and CLOSING replicas are repaired by the full container report sent at
    ///   registration, and pipeline actions stay queued: they are context, not the effect.
    pub struct DroppedActions;
}

static DOC: RuleDoc = RuleDoc {
    id: ID,
    consumes: CONSUMES,
    machines: &[MACHINE],
    ticket: "HDDS-17269",
    severity: Severity::Medium,
    family: RuleFamily::Signature,
    markdown: DroppedActions::MARKDOWN,
    loggers: DEBUG_LINES,
    settings: SETTINGS,
    needs: &[
        DATANODE_SERVICE_LOGS,
        Need::required("SCM logs", &[Component::Scm, Component::ScmAudit]),
        Need::optional("datanode container logs", &[Component::DnContainer]),
    ],
    remediation: REMEDIATION,
};

/// What an operator does about container actions lost after a reregister (HDDS-17269).
const REMEDIATION: crate::Remediation = crate::Remediation {
    affected: "1.1.0 and later (each endpoint's own single-thread executor, HDDS-4386), through \
2.2.x and master.",
    fixed_in: None,
    fix: "Open. Proposed: wait for an endpoint's running heartbeat task instead of queuing \
another; HDDS-17267 (also open) puts container actions back after a failed or reregistered \
heartbeat.",
    actions: &[
        crate::Action {
            purpose: "Check the datanode is registered and healthy again",
            command: Some("ozone admin datanode list --id {datanode}"),
        },
        crate::Action {
            purpose: "Find containers that stayed OPEN",
            command: Some("ozone admin container list --state OPEN"),
        },
        crate::Action {
            purpose: "Check the container whose close action was lost",
            command: Some("ozone admin container info {container}"),
        },
        crate::Action {
            purpose: "Close it by hand if it is still OPEN and should have closed (no write \
reaches it to raise the action again)",
            command: Some("ozone admin container close {container}"),
        },
    ],
    attach: &[
        "the datanode's log with HeartbeatEndpointTask at DEBUG (this finding's evidence)",
        "the SCMs' logs for the restart or failover, and their audit logs (SEND_HEARTBEAT of \
the datanode)",
        "`ozone admin container info` of the containers that stayed OPEN",
    ],
};

/// A container action the datanode raised (or the line that shows one was raised).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Raised {
    /// The datanode host's short name ([`short_host`]).
    pub host: Arc<str>,
    pub datanode: Option<Arc<str>>,
    /// `None` for the full-volume trigger, whose close action names no container in the logs.
    pub container: Option<u64>,
}

/// A sign that a container was closed or handled by SCM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Closed {
    /// The container, wherever it closed (SCM lines, close commands, replicas going CLOSING+).
    Container(u64),
    /// A close command reached this datanode, or one of its replicas started closing: clears an
    /// action whose container the logs do not name.
    OnDatanode {
        host: Arc<str>,
        datanode: Option<Arc<str>>,
    },
}

/// What the rule reads from other slices' events, by kind name and fields.
#[derive(Debug, Default)]
pub struct Observations<'t> {
    /// The trace's SCM signals ([`Trace::scm_signals`]).
    pub signals: Cow<'t, [(EventId, ScmSignal)]>,
    pub raised: Vec<(EventId, Raised)>,
    /// The datanodes' close commands and close handling. The other closes (SCM's answers and
    /// lines naming a container, replicas going CLOSING or further) are most of the trace: they
    /// are read where a raised action asks, in its window ([`Observations::closed_within`]).
    pub closed: Vec<(EventId, Closed)>,
}

impl<'t> Observations<'t> {
    /// Reads the datanodes' lines that raise an action or bring a close command, through the
    /// trace's indexes: only those kinds' events are opened.
    pub fn read(trace: &'t Trace, hosts: &DatanodeHosts) -> Observations<'t> {
        let mut obs = Observations {
            signals: Cow::Borrowed(trace.scm_signals()),
            ..Observations::default()
        };
        let datanode_side = KindSet::of(&[
            Reads::Family(Family::DnEndpoint),
            Reads::Kind(datanode_kinds::CLOSE_HANDLING),
            Reads::Kind(datanode_kinds::MARKED_UNHEALTHY),
            Reads::Kind(datanode_kinds::FULL_VOLUME_HEARTBEAT),
        ]);
        // Those kinds' events and the UNHEALTHY replicas' lines, in trace order.
        let mut ids: Vec<EventId> = (datanode_side.iter())
            .flat_map(|kind| trace.of_kind(kinds::name(kind)))
            .copied()
            .chain(
                (trace.container_state_lines())
                    .filter(|(_, line)| line.state.is(ReplicaState::Unhealthy))
                    .map(|(id, _)| id),
            )
            .collect();
        ids.sort_unstable();
        for id in ids {
            if on_scm(trace, id) || obs.signals.binary_search_by_key(&id, |s| s.0).is_ok() {
                continue;
            }
            match trace.container_state_line(id) {
                Some(line) => obs.read_container_state(trace, id, line, hosts),
                None => obs.read_event(trace, id, hosts),
            }
        }
        obs
    }

    /// Whether a close among events `ids` (at a time `in_window` accepts) answers the action
    /// for `container`, or for `None` (an action the logs do not name) reached the datanode
    /// `on_datanode` accepts (by short host and UUID).
    fn closed_within(
        &self,
        trace: &Trace,
        hosts: &DatanodeHosts,
        ids: Range<EventId>,
        in_window: impl Fn(EventId) -> bool,
        container: Option<u64>,
        on_datanode: impl Fn(&str, Option<&str>) -> bool,
    ) -> bool {
        let listed = within(&self.closed, ids.clone(), |c| c.0)
            .iter()
            .any(|(id, c)| {
                in_window(*id)
                    && match (c, container) {
                        (Closed::Container(c), Some(want)) => *c == want,
                        (Closed::OnDatanode { host, datanode }, None) => {
                            on_datanode(host, datanode.as_deref())
                        }
                        _ => false,
                    }
            });
        // SCM's answer to a heartbeat that carries close commands.
        let answered = || {
            within(&self.signals, ids.clone(), |s| s.0)
                .iter()
                .any(|(id, s)| match s {
                    ScmSignal::Answered {
                        datanode,
                        close_containers,
                    } if !close_containers.is_empty() && in_window(*id) => match container {
                        Some(want) => close_containers.contains(&want),
                        None => on_datanode("", Some(datanode)),
                    },
                    _ => false,
                })
        };
        // A replica of the container, or any replica on the datanode, closing.
        let replica_closing = || {
            trace
                .container_state_lines_in(ids.clone())
                .any(|(id, line)| {
                    matches!(
                        line.state,
                        LineState::Known(
                            ReplicaState::Closing
                                | ReplicaState::QuasiClosed
                                | ReplicaState::Closed
                        )
                    ) && !on_scm(trace, id)
                        && in_window(id)
                        && match container {
                            Some(want) => line.container == want,
                            None => on_datanode(
                                trace.short_host(trace.host_of(id)),
                                hosts.datanode_of(trace, id).as_deref(),
                            ),
                        }
                })
        };
        // SCM prints a container at INFO when it changes it or sends a command for it.
        let scm_line = || {
            container.is_some_and(|want| {
                ids.clone().any(|id| {
                    on_scm(trace, id)
                        && in_window(id)
                        && trace
                            .entity_ids_of(id)
                            .iter()
                            .any(|&e| *trace.entity(e).as_ref() == Entity::Container(want))
                        && self.signals.binary_search_by_key(&id, |s| s.0).is_err()
                })
            })
        };
        listed || answered() || replica_closing() || scm_line()
    }

    /// A ContainerLogger line, from the trace's compact column: an UNHEALTHY replica raises an
    /// action (a closing or closed one clears it: [`detect`] reads those in its windows).
    fn read_container_state(
        &mut self,
        trace: &Trace,
        id: EventId,
        line: &ContainerStateLine,
        hosts: &DatanodeHosts,
    ) {
        if line.state.is(ReplicaState::Unhealthy) {
            self.raised.push((
                id,
                Raised {
                    host: Arc::clone(trace.short_host(trace.host_of(id))),
                    datanode: hosts.datanode_of(trace, id),
                    container: Some(line.container),
                },
            ));
        }
    }

    fn read_event(&mut self, trace: &Trace, id: EventId, hosts: &DatanodeHosts) {
        let event = trace.get(id);
        let containers = || {
            event.entities.iter().filter_map(|e| match e {
                Entity::Container(c) => Some(*c),
                _ => None,
            })
        };
        // Read only for the few kinds that raise or clear an action.
        let who = || {
            (
                Arc::clone(trace.short_host(trace.host_of(id))),
                hosts.datanode_of(trace, id),
            )
        };
        let raised = |container: Option<u64>| {
            let (host, datanode) = who();
            Raised {
                host,
                datanode,
                container,
            }
        };
        match &event.data {
            EventData::DnEndpoint(e) => match e {
                DnEndpointEvent::CloseCommandReceived { .. }
                | DnEndpointEvent::CloseCommandProcessing { .. }
                | DnEndpointEvent::CloseContainerSkipped { .. } => {
                    for c in containers() {
                        self.closed.push((id, Closed::Container(c)));
                    }
                    let (host, datanode) = who();
                    self.closed
                        .push((id, Closed::OnDatanode { host, datanode }));
                }
                _ => {}
            },
            _ => match event.kind() {
                datanode_kinds::CLOSE_HANDLING => {
                    for c in containers() {
                        self.closed.push((id, Closed::Container(c)));
                    }
                    let (host, datanode) = who();
                    self.closed
                        .push((id, Closed::OnDatanode { host, datanode }));
                }
                datanode_kinds::MARKED_UNHEALTHY => {
                    for c in containers() {
                        self.raised.push((id, raised(Some(c))));
                    }
                }
                datanode_kinds::FULL_VOLUME_HEARTBEAT => self.raised.push((id, raised(None))),
                _ => {}
            },
        }
    }
}

/// The heartbeat timing of the cluster, from its settings ([`SETTINGS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    pub heartbeat_ms: i64,
    /// The longest a heartbeat call takes before it fails (95 s with the defaults).
    pub longest_call_ms: i64,
    /// How long after the re-registration the SCM has to act on a raised container action.
    pub close_window_ms: i64,
}

impl From<&Settings> for Timing {
    fn from(settings: &Settings) -> Timing {
        let [
            heartbeat,
            rpc_timeout,
            retry_count,
            retry_interval,
            close_wait,
        ] = SETTINGS;
        let retries = settings.number(retry_count, 0);
        let heartbeat_ms = settings.duration_ms(heartbeat);
        let longest_call_ms = (retries + 1) * settings.duration_ms(rpc_timeout)
            + retries * settings.duration_ms(retry_interval);
        Timing {
            heartbeat_ms,
            longest_call_ms,
            close_window_ms: 2 * heartbeat_ms + settings.duration_ms(close_wait) + longest_call_ms,
        }
    }
}

/// One incident on one (datanode, SCM endpoint).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incident {
    pub datanode: String,
    pub scm: String,
    /// The datanode's host as the trace names it (for gaps).
    pub host: String,
    pub confidence: Option<Confidence>,
    pub reason: String,
    pub summary: String,
    pub evidence: Vec<Evidence>,
    pub containers: BTreeSet<u64>,
    /// HeartbeatEndpointTask DEBUG lines exist for this datanode.
    pub debug_seen: bool,
}

struct Run {
    events: Vec<EventId>,
}

/// Finds every incident; `confidence` is `None` for a backlog and reregister with no provable
/// effect (a gap may still be worth reporting).
pub fn detect(
    trace: &Trace,
    replay: &Replay,
    obs: &Observations,
    hosts: &DatanodeHosts,
    timing: &Timing,
) -> Vec<Incident> {
    let heartbeat_ms = timing.heartbeat_ms;
    // Timeouts per (datanode, endpoint), and the datanode-side lines of each endpoint.
    let mut timeouts: BTreeMap<(String, String), Vec<EventId>> = BTreeMap::new();
    let mut endpoint_lines: BTreeMap<(String, String), Vec<EventId>> = BTreeMap::new();
    let mut debug_datanodes: BTreeSet<String> = BTreeSet::new();
    let endpoints = KindSet::of(&[Reads::Family(Family::DnEndpoint)]);
    for id in trace.of_kinds(&endpoints) {
        let event = trace.get(id);
        let EventData::DnEndpoint(e) = &event.data else {
            continue;
        };
        let Some(datanode) = hosts.datanode_of(trace, id).as_deref().map(str::to_string) else {
            continue;
        };
        if matches!(e, DnEndpointEvent::HeartbeatSent { .. }) {
            debug_datanodes.insert(datanode.clone());
        }
        let Some(endpoint) = e.endpoint() else {
            continue;
        };
        let key = (datanode, endpoint_key(endpoint));
        if event.ts.is_some() && matches!(e, DnEndpointEvent::EndpointTimeout { .. }) {
            timeouts.entry(key.clone()).or_default().push(id);
        }
        endpoint_lines.entry(key).or_default().push(id);
    }
    let trace_end = (trace.len().checked_sub(1))
        .and_then(|last| trace.latest_until(last))
        .unwrap_or(i64::MIN);
    let ts = |id: EventId| trace.ts_of(id).unwrap_or(i64::MIN);
    let skew = trace.skew_ms;
    let mut restarts: Vec<EventId> = scm_restart_kinds::ALL
        .iter()
        .flat_map(|kind| trace.of_kind(kind))
        .copied()
        .collect();
    restarts.sort_unstable();
    restarts.dedup();
    // The SCM signals of each datanode that timed out, in trace order: a run reads its
    // datanode's only.
    let mut signals_of: HashMap<&str, Vec<&(EventId, ScmSignal)>> = (timeouts.keys())
        .map(|(datanode, _)| (datanode.as_str(), Vec::new()))
        .collect();
    for signal in obs.signals.iter() {
        if let Some(signals) = signals_of.get_mut(signal.1.datanode()) {
            signals.push(signal);
        }
    }
    let mut incidents = Vec::new();
    for ((datanode, scm), ids) in &timeouts {
        let signals = signals_of
            .get(datanode.as_str())
            .map_or(&[][..], Vec::as_slice);
        // The stale heartbeats the dn-endpoint machine flagged on this endpoint, from its own
        // steps: the replay's index by entity would be built for this look-up alone.
        let entity = Entity::Datanode(datanode.clone());
        let flagged: Vec<&Transition> = replay
            .of_machine(MACHINE)
            .filter(|t| t.illegal && t.scope.as_deref() == Some(scm) && *t.entity == entity)
            .collect();
        for run in runs(trace, ids, heartbeat_ms) {
            let (Some(&first), Some(&last)) = (run.events.first(), run.events.last()) else {
                continue;
            };
            let window_start = ts(first) - heartbeat_ms;
            // The stuck call ends at most one call's length after the last timeout.
            let rereg_deadline = ts(last) + timing.longest_call_ms;
            let from_scm = |id: EventId| **trace.short_host(trace.host_of(id)) == **scm;
            let rereg_all: Vec<(EventId, bool)> = within(
                signals,
                trace.between(window_start - skew, rereg_deadline + skew),
                |s| s.0,
            )
            .iter()
            .filter_map(|(id, s)| match s {
                ScmSignal::Reregister { datanode: d, audit } if **d == **datanode => {
                    Some((*id, *audit))
                }
                _ => None,
            })
            .filter(|&(id, _)| {
                from_scm(id) && ts(id) >= window_start - skew && ts(id) <= rereg_deadline + skew
            })
            .collect();
            // The audit and the main log print every reregister once each: count one source.
            let audited = rereg_all.iter().any(|&(_, audit)| audit);
            let rereg: Vec<EventId> = rereg_all
                .iter()
                .filter(|&&(_, audit)| audit == audited)
                .map(|&(id, _)| id)
                .collect();
            let lines = endpoint_lines
                .get(&(datanode.clone(), scm.clone()))
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            // HDDS-15533 builds: the endpoint rebuilt after a DNS refresh; the old one's queued
            // tasks still run.
            let re_resolved = within(
                lines,
                trace.between(window_start - skew, rereg_deadline + skew),
                |&id| id,
            )
            .iter()
            .copied()
            .find(|&id| {
                matches!(
                    &trace.get(id).data,
                    EventData::DnEndpoint(DnEndpointEvent::ScmEndpointReResolved { .. })
                ) && ts(id) >= window_start - skew
                    && ts(id) <= rereg_deadline + skew
            });
            let burst: Vec<EventId> = rereg
                .iter()
                .copied()
                .filter(|&id| {
                    rereg
                        .first()
                        .is_some_and(|&f| ts(id) <= ts(f) + heartbeat_ms)
                })
                .collect();
            let (first_rereg, last_rereg) = match (burst.first(), burst.last(), re_resolved) {
                (Some(&first), Some(&last), _) => (first, last),
                (_, _, Some(resolved)) => (resolved, resolved),
                _ => continue,
            };
            // Tasks queued on a replaced endpoint run after the rebuild, one RPC timeout each.
            let drained_until = if burst.is_empty() {
                ts(last_rereg) + heartbeat_ms
            } else {
                ts(last_rereg)
            };
            let after_first_rereg = trace.between(ts(first_rereg), i64::MAX);
            let registration = within(signals, after_first_rereg.clone(), |s| s.0)
                .iter()
                .find_map(|(id, s)| match s {
                    ScmSignal::Registered { datanode: d, .. }
                        if **d == **datanode && from_scm(*id) && ts(*id) >= ts(first_rereg) =>
                    {
                        Some(*id)
                    }
                    _ => None,
                });
            let registered_at = registration.map_or(ts(last_rereg), ts);
            let close_deadline = registered_at + timing.close_window_ms;
            // Reregister answers before the datanode registered again: more than one means heartbeats
            // queued before the SCM lost the registration ran after the first reregister.
            let replayed = registration.map_or(0, |r| {
                rereg
                    .iter()
                    .filter(|&&id| ts(id) >= ts(first_rereg) && ts(id) <= ts(r))
                    .count()
            });
            // The SCM lost the registration between its last normal answer to the datanode and its
            // first reregister: its restart and leadership lines in between.
            let lost_from = within(signals, 0..after_first_rereg.start, |s| s.0)
                .iter()
                .filter_map(|(id, s)| match s {
                    ScmSignal::Answered { datanode: d, .. }
                        if **d == **datanode && from_scm(*id) && ts(*id) < ts(first_rereg) =>
                    {
                        Some(ts(*id))
                    }
                    _ => None,
                })
                .max()
                .unwrap_or(window_start - timing.longest_call_ms);
            let restart_lines: Vec<EventId> = within(
                &restarts,
                trace.between(lost_from - skew, ts(first_rereg) + skew),
                |&id| id,
            )
            .iter()
            .copied()
            .filter(|&id| {
                from_scm(id) && ts(id) >= lost_from - skew && ts(id) <= ts(first_rereg) + skew
            })
            .collect();
            let restarted = restart_lines
                .iter()
                .any(|&id| scm_restart_kinds::START.contains(&trace.get(id).kind()));
            let dn_host = short_host(&trace.get(first).host);
            let on_datanode = |r: &Raised| {
                r.datanode.as_deref() == Some(datanode.as_str())
                    || (r.datanode.is_none() && *r.host == *dn_host)
            };
            let closed_after = |raised_at: i64, container: Option<u64>| {
                obs.closed_within(
                    trace,
                    hosts,
                    trace.between(raised_at - skew, close_deadline + skew),
                    |id| {
                        let t = ts(id);
                        t >= raised_at - skew && t <= close_deadline + skew
                    },
                    container,
                    |host, d| d == Some(datanode.as_str()) || (d.is_none() && host == dn_host),
                )
            };
            let covered = trace_end >= close_deadline;
            // Actions raised while the heartbeats were queued, before the replay drained them.
            let effects: Vec<(EventId, Option<u64>)> = within(
                &obs.raised,
                trace.between(window_start - skew, drained_until + skew),
                |r| r.0,
            )
            .iter()
            .filter(|(id, r)| {
                on_datanode(r) && ts(*id) >= window_start - skew && ts(*id) <= drained_until + skew
            })
            .filter(|(id, r)| covered && !closed_after(ts(*id), r.container))
            .map(|(id, r)| (*id, r.container))
            .collect();
            // DEBUG: stale heartbeats the dn-endpoint machine flagged, carrying actions, dropped.
            let mut dropped: Vec<(EventId, Vec<u64>, Option<EventId>)> = Vec::new();
            for t in &flagged {
                let hb = trace.get(t.event);
                let EventData::DnEndpoint(DnEndpointEvent::HeartbeatSent {
                    container_actions, ..
                }) = &hb.data
                else {
                    continue;
                };
                if ts(t.event) < window_start - skew
                    || ts(t.event) > registered_at.max(drained_until) + skew
                {
                    continue;
                }
                let answer = dropped_by(trace, t.event, lines, &rereg_all, heartbeat_ms);
                let lost: Vec<u64> = container_actions
                    .iter()
                    .map(|a| a.container)
                    .filter(|&c| covered && !closed_after(ts(t.event), Some(c)))
                    .collect();
                if answer.is_some() && !lost.is_empty() {
                    dropped.push((t.event, lost, answer));
                }
            }
            let debug_seen = debug_datanodes.contains(datanode);
            // With HeartbeatEndpointTask DEBUG on, every heartbeat and its payload is visible: no
            // stale heartbeat carrying an action means none was dropped.
            let confidence = if !dropped.is_empty() {
                Some(Confidence::Confirmed)
            } else if !debug_seen && (!effects.is_empty() || replayed >= 2) {
                Some(Confidence::Possible)
            } else {
                None
            };
            let mut evidence = Vec::new();
            let n = run.events.len();
            for (i, &id) in run.events.iter().enumerate() {
                evidence.push(Evidence {
                    event: id,
                    role: Role::Cause,
                    note: format!(
                        "timeout {}/{n} for {scm}: the heartbeat task is not cancelled, one more task queues behind it",
                        i + 1
                    ),
                });
            }
            for &id in lines {
                if matches!(
                    &trace.get(id).data,
                    EventData::DnEndpoint(DnEndpointEvent::EndpointUnreachable { .. })
                ) && ts(id) >= window_start - timing.longest_call_ms
                    && ts(id) <= registered_at
                {
                    evidence.push(Evidence {
                        event: id,
                        role: Role::Context,
                        note: format!("the datanode could not reach {scm}"),
                    });
                }
            }
            for (i, &(id, _)) in rereg_all.iter().enumerate() {
                let note = if i == 0 {
                    format!(
                        "{scm} no longer knows the datanode (restart or failover) and answers its heartbeat with reregister"
                    )
                } else if ts(id) <= ts(first_rereg) + heartbeat_ms {
                    "another reregister for a queued heartbeat replayed after the first: SCM processes none of its reports or actions".to_string()
                } else {
                    "reregister".to_string()
                };
                evidence.push(Evidence {
                    event: id,
                    role: Role::Cause,
                    note,
                });
            }
            for &id in &restart_lines {
                let note = if scm_restart_kinds::START.contains(&trace.get(id).kind()) {
                    format!("{scm} restarts: the registrations it held are gone")
                } else {
                    format!("{scm}'s leadership changes")
                };
                evidence.push(Evidence {
                    event: id,
                    role: Role::Context,
                    note,
                });
            }
            if let Some(id) = re_resolved {
                evidence.push(Evidence {
                    event: id,
                    role: Role::Cause,
                    note: "the endpoint was rebuilt after a DNS refresh (HDDS-15533); heartbeats queued on the old endpoint still run and drain the shared queues".to_string(),
                });
            }
            if let Some(first_registration) = registration {
                // The audit REGISTER and the main-log `Registered datanode:` of one registration.
                let at = ts(first_registration);
                for &(id, s) in within(signals, trace.between(at, at + heartbeat_ms), |s| s.0) {
                    if matches!(s, ScmSignal::Registered { datanode: d, .. } if **d == **datanode)
                        && from_scm(*id)
                        && ts(*id) >= ts(first_registration)
                        && ts(*id) <= ts(first_registration) + heartbeat_ms
                    {
                        evidence.push(Evidence {
                            event: *id,
                            role: Role::Context,
                            note: format!(
                                "re-registration with {scm}: the window for a close starts here ({})",
                                human(timing.close_window_ms)
                            ),
                        });
                    }
                }
            }
            let mut containers = BTreeSet::new();
            for &(id, container) in &effects {
                evidence.push(Evidence {
                    event: id,
                    role: Role::Effect,
                    note: match container {
                        Some(c) => {
                            containers.insert(c);
                            format!(
                                "close action for container {c} raised while heartbeats were queued; no SCM close for it within {} of the re-registration",
                                human(timing.close_window_ms)
                            )
                        }
                        None => format!(
                            "a close action was queued silently (full volume) while heartbeats were queued; no close command reached the datanode within {} of the re-registration",
                            human(timing.close_window_ms)
                        ),
                    },
                });
            }
            for (hb, lost, answer) in &dropped {
                containers.extend(lost.iter().copied());
                let list = lost
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ");
                evidence.push(Evidence {
                    event: *hb,
                    role: Role::Effect,
                    note: format!(
                        "queued heartbeat sent while the endpoint was back in GETVERSION drained the action for container {list}"
                    ),
                });
                if let Some(answer) = answer {
                    evidence.push(Evidence {
                        event: *answer,
                        role: Role::Effect,
                        note: "answered with reregister: the actions it carried are dropped"
                            .to_string(),
                    });
                }
            }
            for &id in lines {
                if matches!(
                    &trace.get(id).data,
                    EventData::DnEndpoint(DnEndpointEvent::ReregisterReceived { .. })
                ) && ts(id) >= ts(first_rereg) - skew
                    && ts(id) <= registered_at + skew
                {
                    evidence.push(Evidence {
                        event: id,
                        role: Role::Context,
                        note: "the endpoint moves to GETVERSION; tasks already queued were built for HEARTBEAT".to_string(),
                    });
                }
            }
            let what = if burst.is_empty() {
                format!("{scm}'s address was re-resolved and the endpoint rebuilt")
            } else {
                format!(
                    "{scm} {} and answered with {} reregister command(s)",
                    if restarted {
                        "restarted"
                    } else {
                        "restarted or failed over"
                    },
                    burst.len()
                )
            };
            let (reason, summary) = describe(&Story {
                confidence,
                datanode,
                scm,
                timeouts: n,
                what: &what,
                containers: &containers,
                effects: effects.len(),
                replayed,
                close_window_ms: timing.close_window_ms,
            });
            evidence.sort_by_key(|e| e.event);
            evidence.dedup_by_key(|e| e.event);
            incidents.push(Incident {
                datanode: datanode.clone(),
                scm: scm.clone(),
                host: trace.get(first).host.to_string(),
                confidence,
                reason,
                summary,
                evidence,
                containers,
                debug_seen,
            });
        }
    }
    incidents
}

/// `305s`, `5m`, `1h30m`.
/// Whether event `id` is an SCM's (service or audit log).
fn on_scm(trace: &Trace, id: EventId) -> bool {
    matches!(trace.component_of(id), Component::Scm | Component::ScmAudit)
}

fn human(ms: i64) -> String {
    let s = ms / 1000;
    match (s / 3600, (s % 3600) / 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, 0) => format!("{m}m"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, _) => format!("{h}h{m:02}m"),
    }
}

/// The part of `list` (in trace order) whose events are in `ids`.
fn within<T>(list: &[T], ids: Range<EventId>, id: impl Fn(&T) -> EventId) -> &[T] {
    let start = list.partition_point(|x| id(x) < ids.start);
    let end = list.partition_point(|x| id(x) < ids.end);
    &list[start..end.max(start)]
}

/// Splits one endpoint's timeouts into runs of two or more, consecutive within
/// [`RUN_GAP_HEARTBEATS`] intervals.
fn runs(trace: &Trace, ids: &[EventId], heartbeat_ms: i64) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut current: Vec<EventId> = Vec::new();
    for &id in ids {
        if let Some(&prev) = current.last()
            && trace
                .elapsed(prev, id)
                .is_none_or(|gap| gap > RUN_GAP_HEARTBEATS * heartbeat_ms)
        {
            if current.len() >= 2 {
                runs.push(Run {
                    events: std::mem::take(&mut current),
                });
            }
            current.clear();
        }
        current.push(id);
    }
    if current.len() >= 2 {
        runs.push(Run { events: current });
    }
    runs
}

/// The line showing heartbeat `hb`'s payload was dropped: on the same endpoint before its next
/// heartbeat, the datanode's DEBUG `Illegal state … expecting HEARTBEAT` (answered with
/// reregister) or `Unable to communicate` (the call failed: container actions are not put back);
/// else an SCM reregister for the datanode within one interval after it.
fn dropped_by(
    trace: &Trace,
    hb: EventId,
    endpoint_lines: &[EventId],
    rereg: &[(EventId, bool)],
    heartbeat_ms: i64,
) -> Option<EventId> {
    let after = endpoint_lines.iter().copied().filter(|&id| id > hb);
    for id in after {
        match &trace.get(id).data {
            EventData::DnEndpoint(
                DnEndpointEvent::ReregisterIllegalState { .. }
                | DnEndpointEvent::EndpointUnreachable { .. },
            ) => {
                return Some(id);
            }
            EventData::DnEndpoint(DnEndpointEvent::HeartbeatSent { .. }) => break,
            _ => {}
        }
    }
    let at = trace.get(hb).ts?;
    rereg.iter().map(|&(id, _)| id).find(|&id| {
        trace
            .get(id)
            .ts
            .is_some_and(|t| t >= at - trace.skew_ms && t <= at + heartbeat_ms)
    })
}

/// What [`describe`] words.
struct Story<'a> {
    confidence: Option<Confidence>,
    datanode: &'a str,
    scm: &'a str,
    timeouts: usize,
    what: &'a str,
    containers: &'a BTreeSet<u64>,
    /// Raised actions SCM never acted on.
    effects: usize,
    /// Reregister answers before the re-registration.
    replayed: usize,
    close_window_ms: i64,
}

fn describe(story: &Story<'_>) -> (String, String) {
    let Story {
        confidence,
        datanode,
        scm,
        timeouts,
        what,
        containers,
        effects,
        replayed,
        close_window_ms,
    } = *story;
    let window = human(close_window_ms);
    let named = if containers.is_empty() {
        "a close action the logs do not name (queued silently for a full volume)".to_string()
    } else {
        format!(
            "the close action for container {}",
            containers
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let outcome = if confidence == Some(Confidence::Confirmed) {
        format!(
            "{named} was drained by a queued heartbeat sent after the reregister, and SCM never closed the container"
        )
    } else if effects > 0 {
        format!(
            "{named}, raised meanwhile, got no SCM close within {window} of the re-registration: a queued heartbeat may have drained it"
        )
    } else {
        format!(
            "{replayed} heartbeats were answered with reregister before the datanode registered again, so heartbeats queued before {scm} lost the registration ran after the first reregister and any container action they drained was dropped; no action is visible at INFO"
        )
    };
    let summary = format!(
        "Datanode {datanode} queued {timeouts} heartbeat tasks for SCM {scm} (Detected timeout) while {what}; {outcome} (HDDS-17269)."
    );
    let reason = match confidence {
        Some(Confidence::Confirmed) => "HeartbeatEndpointTask DEBUG shows a heartbeat sent while the endpoint was in GETVERSION (or by a replaced endpoint) carrying the container action, answered with reregister or failed, and SCM never closed the container".to_string(),
        Some(_) if effects > 0 => format!(
            "backlog, reregister and {effects} unanswered container action(s) at INFO; which heartbeat carried the action is logged only at DEBUG"
        ),
        Some(_) => format!(
            "the mechanism alone: a backlog of {timeouts} queued heartbeats and {replayed} reregister answers before the re-registration (queued heartbeats ran after the first one); at INFO no container action is logged (a full container's close action is queued without a line), so nothing shows whether one was dropped"
        ),
        None => "backlog and reregister without an unanswered container action".to_string(),
    };
    (reason, summary)
}

/// The kinds the rule reads: the datanode's endpoint lines and its container lines
/// ([`datanode_kinds`]), and every SCM line (a container an SCM prints is one it changed or sent a
/// command for; restarts, [`scm_restart_kinds`]).
pub const CONSUMES: &[Reads] = &[
    Reads::Family(Family::DnEndpoint),
    Reads::Family(Family::Scm),
    Reads::Family(Family::ScmContainer),
    Reads::Kind(datanode_kinds::MARKED_UNHEALTHY),
    Reads::Kind(datanode_kinds::CONTAINER_STATE),
    Reads::Kind(datanode_kinds::FULL_VOLUME_HEARTBEAT),
    Reads::Kind(datanode_kinds::CLOSE_HANDLING),
];

fn check(context: &Context<'_>, out: &mut Output) {
    let analysis = context.analysis;
    let trace = &analysis.trace;
    let hosts = &trace.facts().datanode_hosts;
    let obs = Observations::read(trace, hosts);
    let timing = Timing::from(context.settings);
    let mut gap_hosts: BTreeSet<String> = BTreeSet::new();
    for incident in detect(trace, &analysis.replay, &obs, hosts, &timing) {
        let debug_on = incident.debug_seen
            || context
                .logging
                .enabled(&incident.host, HEARTBEAT_TASK_LOGGER, "DEBUG");
        if !debug_on {
            gap_hosts.insert(incident.host.clone());
        }
        let Some(confidence) = incident.confidence else {
            continue;
        };
        let Some(entity) = Entity::datanode(&incident.datanode) else {
            continue;
        };
        let mut related: Vec<Entity> = incident
            .containers
            .iter()
            .map(|&c| Entity::Container(c))
            .collect();
        related.extend(Entity::scm(&incident.scm));
        out.findings.push(Finding {
            rule: ID,
            entity,
            related,
            confidence,
            reason: incident.reason,
            summary: incident.summary,
            evidence: incident.evidence,
        });
    }
    if !gap_hosts.is_empty() {
        out.gaps.push(Gap {
            rule: ID,
            missing: "which heartbeat carried the container actions and in which endpoint state it ran (a queued heartbeat sent after the reregister)".to_string(),
            enable: DEBUG_LINES.iter().map(|s| s.to_string()).collect(),
            hosts: gap_hosts.into_iter().collect(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{events, run};
    use oztrace_analyzer::machine::Machine;
    use oztrace_analyzer::machines::endpoint::EndpointMachine;
    use oztrace_parser::catalog::Unrecognized;
    use oztrace_parser::catalog::dn_endpoint::ContainerActionRef;
    use oztrace_parser::catalog::scm::ScmEvent;
    use oztrace_parser::event::Event;

    const DN: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27";
    const ADDR: &str = "scm1.example.com:9861/scm1.example.com/10.20.0.11";
    const HB: i64 = 30_000;

    fn base(ts: i64, host: &str, component: Component, data: EventData) -> Event {
        Event {
            ts: Some(ts),
            file: format!("{host}/log").into(),
            ..oztrace_testkit::event(host, component, data)
        }
    }

    fn dn(ts: i64, e: DnEndpointEvent) -> Event {
        base(ts, "dn2", Component::Datanode, EventData::DnEndpoint(e))
    }

    fn timeout(ts: i64) -> Event {
        dn(
            ts,
            DnEndpointEvent::EndpointTimeout {
                datanode: Some(DN.into()),
                endpoint: ADDR.into(),
            },
        )
    }

    /// The datanode's DEBUG line that it received a reregister command.
    fn reregister_received(ts: i64) -> Event {
        dn(
            ts,
            DnEndpointEvent::ReregisterReceived {
                datanode: Some(DN.into()),
                endpoint: Some(ADDR.into()),
            },
        )
    }

    fn heartbeat(ts: i64, actions: &[u64]) -> Event {
        dn(
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

    /// A placeholder for an event of another slice's kind: what it says goes into
    /// [`Observations`] by hand.
    fn other(ts: i64, host: &str, component: Component) -> Event {
        base(
            ts,
            host,
            component,
            EventData::Unrecognized(Unrecognized {}),
        )
    }

    /// A scenario: events in time order, and what the observations say about the placeholders.
    struct Scenario {
        events: Vec<Event>,
        obs: Observations<'static>,
    }

    impl Scenario {
        fn new() -> Scenario {
            Scenario {
                events: Vec::new(),
                obs: Observations::default(),
            }
        }
        /// `Detected timeout` on the endpoint at each time.
        fn timeouts(&mut self, at: &[i64]) {
            for &ts in at {
                self.push(timeout(ts));
            }
        }
        fn push(&mut self, e: Event) -> EventId {
            self.events.push(e);
            self.events.len() - 1
        }
        fn signal(&mut self, ts: i64, host: &str, s: ScmSignal) {
            let id = self.push(other(ts, host, Component::ScmAudit));
            self.obs.signals.to_mut().push((id, s));
        }
        fn rereg(&mut self, ts: i64, host: &str) {
            self.signal(
                ts,
                host,
                ScmSignal::Reregister {
                    datanode: DN.into(),
                    audit: true,
                },
            );
        }
        /// `host` answers with a reregister command, and the datanode registers 100 ms later.
        fn reregistered(&mut self, ts: i64, host: &str) {
            self.rereg(ts, host);
            self.register(ts + 100, host);
        }
        /// `n` reregister answers of scm1 10 ms apart: a replayed backlog.
        fn replayed_reregisters(&mut self, from: i64, n: i64) {
            for k in 0..n {
                self.rereg(from + 10 * k, "scm1");
            }
        }
        /// scm1 answers a heartbeat of the datanode with no command.
        fn answered(&mut self, ts: i64) {
            self.signal(
                ts,
                "scm1",
                ScmSignal::Answered {
                    datanode: DN.into(),
                    close_containers: vec![],
                },
            );
        }
        fn register(&mut self, ts: i64, host: &str) {
            self.signal(
                ts,
                host,
                ScmSignal::Registered {
                    datanode: DN.into(),
                    host: None,
                    audit: true,
                },
            );
        }
        fn raised(&mut self, ts: i64, container: Option<u64>) {
            let id = self.push(other(ts, "dn2", Component::Datanode));
            self.obs.raised.push((
                id,
                Raised {
                    host: "dn2".into(),
                    datanode: Some(DN.into()),
                    container,
                },
            ));
        }
        fn closed(&mut self, ts: i64, container: u64) {
            let id = self.push(other(ts, "scm1", Component::Scm));
            self.obs.closed.push((id, Closed::Container(container)));
        }
        /// [`Scenario::run_ending`] 11 heartbeats after `last`: longer than the default close
        /// window (305 s), so the logs go on past it.
        fn run_past_close_window(self, last: i64) -> Vec<Incident> {
            self.run_ending(last + 11 * HB)
        }
        /// The rule's detection over logs that end at `end` (another host's line).
        fn run_ending(mut self, end: i64) -> Vec<Incident> {
            self.push(other(end, "scm2", Component::Scm));
            // Observations point at placeholder ids: events must be pushed in time order.
            assert!(self.events.windows(2).all(|w| w[0].ts <= w[1].ts));
            let trace = Trace::from_ordered(self.events, 0);
            let replay = {
                let mut machines: Vec<Box<dyn Machine>> = vec![Box::new(EndpointMachine::new())];
                Replay::run(&trace, &mut machines, i64::MAX)
            };
            let hosts = DatanodeHosts::learn(&trace);
            detect(
                &trace,
                &replay,
                &self.obs,
                &hosts,
                &Timing::from(&Settings::default()),
            )
        }
    }

    /// The bug at INFO: three timeouts, a restart's reregister burst, a full-volume action and no
    /// close. Events are pushed in time order so placeholder ids stay valid.
    fn bug_info(s: &mut Scenario) {
        s.push(dn(
            0,
            DnEndpointEvent::EndpointUnreachable {
                datanode: Some(DN.into()),
                server: "SCM".into(),
                endpoint: ADDR.into(),
                seconds: Some(0),
            },
        ));
        s.timeouts(&[60_000, 90_000, 120_000]);
        s.raised(121_500, None);
        s.replayed_reregisters(124_000, 3);
        s.register(124_100, "scm1");
    }

    /// Each incident's confidence (`None`: the mechanism was seen and cleared).
    fn confidences(incidents: &[Incident]) -> Vec<Option<Confidence>> {
        incidents.iter().map(|i| i.confidence).collect()
    }

    #[test]
    fn bug_at_info_is_possible() {
        let mut s = Scenario::new();
        bug_info(&mut s);
        let incidents = s.run_past_close_window(124_100);
        assert_eq!(incidents.len(), 1);
        let i = &incidents[0];
        assert_eq!(i.confidence, Some(Confidence::Possible));
        assert_eq!((i.datanode.as_str(), i.scm.as_str()), (DN, "scm1"));
        let roles: Vec<Role> = i.evidence.iter().map(|e| e.role).collect();
        assert_eq!(roles.iter().filter(|r| **r == Role::Cause).count(), 6);
        assert_eq!(roles.iter().filter(|r| **r == Role::Effect).count(), 1);
        assert!(i.summary.contains("3 reregister"));
        assert!(!i.debug_seen);
    }

    #[test]
    fn a_close_within_the_window_clears_it() {
        let mut s = Scenario::new();
        s.timeouts(&[60_000, 90_000]);
        s.raised(95_000, Some(2041));
        s.reregistered(100_000, "scm1");
        s.closed(100_000 + 9 * HB, 2041);
        assert_eq!(confidences(&s.run_past_close_window(100_100)), [None]);
    }

    #[test]
    fn a_slow_scm_that_recovers_without_reregister_is_silent() {
        let mut s = Scenario::new();
        s.timeouts(&[60_000, 90_000]);
        s.raised(100_000, Some(2041));
        s.push(timeout(120_000));
        s.answered(130_000);
        assert!(s.run_past_close_window(130_000).is_empty());
    }

    #[test]
    fn a_single_timeout_or_another_scms_reregister_is_no_backlog() {
        let mut s = Scenario::new();
        s.push(timeout(60_000));
        s.raised(61_000, Some(7));
        s.reregistered(70_000, "scm1");
        assert!(s.run_past_close_window(70_100).is_empty());

        let mut s = Scenario::new();
        s.timeouts(&[60_000, 90_000]);
        s.raised(95_000, Some(7));
        s.reregistered(100_000, "scm2");
        assert!(s.run_past_close_window(100_100).is_empty());
    }

    #[test]
    fn logs_ending_before_the_close_window_leave_the_mechanism_alone() {
        let mut s = Scenario::new();
        bug_info(&mut s);
        let incidents = s.run_ending(124_100 + 5 * HB);
        let i = &incidents[0];
        // The action cannot be shown unanswered yet; the replayed reregisters still can.
        assert_eq!(i.confidence, Some(Confidence::Possible));
        assert!(i.reason.contains("the mechanism alone"), "{}", i.reason);
        assert!(i.evidence.iter().all(|e| e.role != Role::Effect));
    }

    #[test]
    fn debug_heartbeat_in_getversion_with_the_action_is_confirmed() {
        let mut s = Scenario::new();
        s.push(heartbeat(30_000, &[]));
        s.timeouts(&[60_000, 90_000, 120_000]);
        s.raised(121_500, None);
        s.rereg(124_000, "scm1");
        s.push(reregister_received(124_005));
        s.push(heartbeat(124_006, &[2043]));
        s.rereg(124_010, "scm1");
        s.push(dn(
            124_012,
            DnEndpointEvent::ReregisterIllegalState {
                datanode: Some(DN.into()),
                endpoint: Some(ADDR.into()),
                state: "GETVERSION".into(),
                expected: "HEARTBEAT".into(),
            },
        ));
        s.register(124_100, "scm1");
        let incidents = s.run_past_close_window(124_100);
        assert_eq!(incidents.len(), 1);
        let i = &incidents[0];
        assert_eq!(i.confidence, Some(Confidence::Confirmed));
        assert!(i.containers.contains(&2043));
        assert!(i.debug_seen);
        assert!(
            i.evidence
                .iter()
                .any(|e| e.role == Role::Effect && e.note.contains("GETVERSION"))
        );
    }

    #[test]
    fn debug_showing_no_stale_heartbeat_with_actions_clears_it() {
        let mut s = Scenario::new();
        s.push(heartbeat(30_000, &[]));
        s.timeouts(&[60_000, 90_000]);
        s.raised(95_000, None);
        s.rereg(100_000, "scm1");
        s.push(reregister_received(100_005));
        // The queued heartbeat ran in GETVERSION but carried nothing.
        s.push(heartbeat(100_006, &[]));
        s.rereg(100_010, "scm1");
        s.register(100_100, "scm1");
        let incidents = s.run_past_close_window(100_100);
        assert_eq!(incidents[0].confidence, None);
    }

    #[test]
    fn timing_follows_the_heartbeat_settings() {
        let mut settings = Settings::default();
        let defaults = Timing::from(&settings);
        // 16 attempts of the 5 s rpc-timeout and 15 retry sleeps of 1 s (HDDS-17269's 95 s).
        assert_eq!(
            defaults,
            Timing {
                heartbeat_ms: 30_000,
                longest_call_ms: 95_000,
                close_window_ms: 30_000 + 150_000 + 30_000 + 95_000,
            }
        );
        settings.set(HEARTBEAT_INTERVAL, "10s", "ozone-site.xml");
        assert_eq!(Timing::from(&settings).heartbeat_ms, 10_000);
        settings.set(HEARTBEAT_INTERVAL, "500", "--set");
        assert_eq!(Timing::from(&settings).heartbeat_ms, 500);
        settings.set(HEARTBEAT_INTERVAL, "soon", "--set");
        assert_eq!(Timing::from(&settings).heartbeat_ms, 30_000);
        settings.set(RPC_RETRY_COUNT, "3", "--set");
        settings.set(RPC_TIMEOUT, "2s", "--set");
        settings.set(CLOSE_WAIT, "1m", "--set");
        let t = Timing::from(&settings);
        assert_eq!(t.longest_call_ms, 4 * 2_000 + 3 * 1_000);
        assert_eq!(t.close_window_ms, 2 * 30_000 + 60_000 + 11_000);
    }

    /// An SCM line of one of [`scm_restart_kinds`].
    fn scm_line(ts: i64, host: &str, kind: &'static str) -> Event {
        base(
            ts,
            host,
            Component::Scm,
            EventData::Scm(ScmEvent::Notice {
                kind,
                values: Vec::new(),
            }),
        )
    }

    /// Issue 13: the mechanism at INFO with no container action logged. The SCM restarts,
    /// answers the stuck heartbeat and the replayed backlog with reregister, then the datanode
    /// registers: possible, and the reason says no action is visible.
    #[test]
    fn backlog_restart_and_replayed_reregisters_without_an_action_are_possible() {
        let mut s = Scenario::new();
        s.answered(10_000);
        s.timeouts(&[60_000, 90_000]);
        s.push(scm_line(95_000, "scm1", "scm_shutdown"));
        s.push(scm_line(101_000, "scm1", "scm_started"));
        s.push(timeout(120_000));
        s.replayed_reregisters(124_000, 3);
        s.register(124_100, "scm1");
        let incidents = s.run_past_close_window(124_100);
        assert_eq!(incidents.len(), 1);
        let i = &incidents[0];
        assert_eq!(i.confidence, Some(Confidence::Possible));
        assert!(i.reason.contains("the mechanism alone"), "{}", i.reason);
        assert!(i.reason.contains("3 reregister answers"), "{}", i.reason);
        assert!(
            i.summary.contains("scm1 restarted and answered"),
            "{}",
            i.summary
        );
        let restart_notes = i
            .evidence
            .iter()
            .filter(|e| e.note.contains("restarts"))
            .count();
        assert_eq!(restart_notes, 2);
        assert!(i.containers.is_empty());
    }

    #[test]
    fn a_single_reregister_after_a_backlog_without_an_action_is_silent() {
        let mut s = Scenario::new();
        s.timeouts(&[60_000, 90_000]);
        s.reregistered(100_000, "scm1");
        // A second reregister after the datanode registered again belongs to another story.
        s.rereg(100_200, "scm1");
        assert_eq!(confidences(&s.run_past_close_window(100_100)), [None]);
    }

    #[test]
    fn replayed_reregisters_with_heartbeat_debug_and_no_stale_action_are_silent() {
        let mut s = Scenario::new();
        s.push(heartbeat(30_000, &[]));
        s.timeouts(&[60_000, 90_000]);
        s.rereg(100_000, "scm1");
        s.push(heartbeat(100_006, &[]));
        s.rereg(100_010, "scm1");
        s.register(100_100, "scm1");
        assert_eq!(s.run_past_close_window(100_100)[0].confidence, None);
    }

    #[test]
    fn replaced_endpoint_draining_an_action_into_a_failed_call_is_confirmed() {
        let mut s = Scenario::new();
        s.push(heartbeat(0, &[]));
        s.timeouts(&[30_000, 60_000]);
        s.push(dn(
            90_000,
            DnEndpointEvent::ScmEndpointReResolved {
                datanode: Some(DN.into()),
                endpoint: "scm1.example.com:9861".into(),
                old_address: "scm1.example.com/10.20.0.11:9861".into(),
                new_address: "scm1.example.com/10.20.0.42:9861".into(),
            },
        ));
        s.raised(90_500, Some(2077));
        // The old endpoint's queued task: sent with the action, then the call fails.
        s.push(heartbeat(91_000, &[2077]));
        s.push(dn(
            186_000,
            DnEndpointEvent::EndpointUnreachable {
                datanode: Some(DN.into()),
                server: "SCM".into(),
                endpoint: "scm1.example.com:9861/scm1.example.com/10.20.0.42".into(),
                seconds: Some(180),
            },
        ));
        let incidents = s.run_past_close_window(90_000);
        assert_eq!(incidents.len(), 1);
        let i = &incidents[0];
        assert_eq!(i.confidence, Some(Confidence::Confirmed));
        assert!(i.summary.contains("re-resolved"));
        assert!(i.containers.contains(&2077));
    }

    /// The bug at INFO end to end from log lines (datanode.md 3.B, scm.md 1.2 and 2.2 templates),
    /// through every catalogue the rule reads, the replay and the rule with its gap.
    #[test]
    fn from_log_lines_through_the_catalogues() {
        let t = format!("{DN}-DatanodeStateMachineDaemonThread");
        let dn_log = format!(
            "2026-09-14 02:11:33,864 [{t}] WARN org.apache.hadoop.ozone.container.common.states.datanode.RunningDatanodeState: Detected timeout: Timeout occurred on endpoint: {ADDR}\n\
2026-09-14 02:12:03,868 [{t}] WARN org.apache.hadoop.ozone.container.common.states.datanode.RunningDatanodeState: Detected timeout: Timeout occurred on endpoint: {ADDR}\n\
2026-09-14 02:12:33,864 [{t}] WARN org.apache.hadoop.ozone.container.common.states.datanode.RunningDatanodeState: Detected timeout: Timeout occurred on endpoint: {ADDR}\n\
2026-09-14 02:12:35,353 [{DN}-ChunkWriter-1-0] INFO org.apache.hadoop.ozone.container.common.impl.HddsDispatcher: Marked Container UNHEALTHY, ContainerID: 2043\n"
        );
        let rereg = "\"command\":\"[commandType: reregisterCommand reregisterCommandProto { } term: 0 encodedToken: \\\"\\\" deadlineMsSinceEpoch: 0]\"} | ret=SUCCESS |  ";
        let audit = format!(
            "2026-09-14 02:12:37,903 | INFO  | SCMAudit | user=hadoop | ip=10.20.1.12 | op=SEND_HEARTBEAT {{\"datanodeUUID\":\"{DN}\",\"term\":\"7\",{rereg}\n\
2026-09-14 02:12:37,918 | INFO  | SCMAudit | user=hadoop | ip=10.20.1.12 | op=SEND_HEARTBEAT {{\"datanodeUUID\":\"{DN}\",\"term\":\"7\",{rereg}\n\
2026-09-14 02:12:37,979 | INFO  | SCMAudit | user=hadoop | ip=10.20.1.12 | op=REGISTER {{\"datanodeDetails\":\"{DN}(dn2.example.com/10.20.1.12)\"}} | ret=SUCCESS |  \n\
2026-09-14 02:20:00,000 | INFO  | SCMAudit | user=hadoop | ip=10.20.1.12 | op=SEND_HEARTBEAT {{\"datanodeUUID\":\"{DN}\",\"term\":\"7\",\"command\":\"[]\"}} | ret=SUCCESS |  \n"
        );
        let container = "2026-09-14 02:12:35,354 | ERROR | ID=2043 | Index=0 | BCSID=40551 | State=UNHEALTHY | Volume=/data/disk2/hdds | DataChecksum=0 | Container has 1 error: WRITE_FAILURE for file /data/disk2/hdds/2043 with exception: org.apache.hadoop.hdds.scm.container.common.helpers.StorageContainerException |  \n";
        let streams = vec![
            events("dn2", Component::Datanode, &dn_log),
            events("scm1", Component::ScmAudit, &audit),
            events("dn2", Component::DnContainer, container),
        ];
        let kinds: Vec<&str> = streams.iter().flatten().map(Event::kind).collect();
        assert_eq!(
            kinds,
            vec![
                "endpoint_timeout",
                "endpoint_timeout",
                "endpoint_timeout",
                datanode_kinds::MARKED_UNHEALTHY,
                "scm_audit",
                "scm_audit",
                "scm_audit",
                "scm_audit",
                datanode_kinds::CONTAINER_STATE,
            ]
        );
        let out = run(&DroppedActions, streams);
        assert_eq!(out.findings.len(), 1);
        let f = &out.findings[0];
        assert_eq!(f.entity, Entity::Datanode(DN.into()));
        assert_eq!(f.confidence, Confidence::Possible);
        assert!(f.related.contains(&Entity::Container(2043)));
        assert_eq!(
            f.evidence.iter().filter(|e| e.role == Role::Effect).count(),
            2
        );
        assert_eq!(out.gaps.len(), 1);
        assert_eq!(out.gaps[0].hosts, vec!["dn2".to_string()]);
        assert!(
            out.gaps[0]
                .enable
                .iter()
                .any(|l| l.contains("HeartbeatEndpointTask=DEBUG"))
        );
    }
}
