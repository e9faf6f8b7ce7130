//! Datanode heartbeat, endpoint and SCM connection statements (datanode.md 2.6, 3.B): the
//! endpoint state machine of each (datanode, SCM) pair, the heartbeat cycle, and the
//! close-container command handler's DEBUG lines (its INFO/ERROR outcomes are the datanode
//! catalogue's `close_container_handling`).
//!
//! Sources: apache/ozone HEAD `78d5650c`, `hadoop-hdds/container-service/src/main/java/org/apache/
//! hadoop/ozone/container/common/` (`states/datanode/RunningDatanodeState`, `statemachine/
//! {StateContext,DatanodeStateMachine,EndpointStateMachine,SCMConnectionManager}`,
//! `states/endpoint/{HeartbeatEndpointTask,VersionEndpointTask,RegisterEndpointTask}`,
//! `statemachine/commandhandler/CloseContainerCommandHandler`).
//!
//! Endpoint tasks run on `<dnUuid>-EndpointStateMachineTaskThread-<HostAndPort>-<n> ` (trailing
//! space, `EndpointStateMachine` constructor); the daemon loop on `<dnUuid>-
//! DatanodeStateMachineDaemonThread`. The thread name gives the datanode (and the endpoint) of
//! lines whose message does not print them.

use super::template::{Matched, catalogue};
use super::{Input, Typed};
use crate::entity::{Entity, is_uuid};
use crate::source::Component;
use serde::Serialize;

/// One container action carried by a heartbeat (`ContainerAction` proto: `containerID`, `action`,
/// `reason`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContainerActionRef {
    pub container: u64,
    pub action: String,
    pub reason: String,
}

/// One replica in an incremental container report (`ContainerReplicaProto`: `containerID`,
/// `state`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IcrRef {
    pub container: u64,
    pub state: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum DnEndpointEvent {
    /// RunningDatanodeState WARN `Detected timeout: {}`: the endpoint task did not finish within
    /// one heartbeat interval and stays queued.
    EndpointTimeout {
        datanode: Option<String>,
        endpoint: String,
    },
    /// RunningDatanodeState ERROR `Error in executing end point task.` + throwable.
    EndpointTaskError { datanode: Option<String> },
    /// RunningDatanodeState ERROR `State is Shutdown in RunningDatanodeState`.
    RunningStateShutdown { datanode: Option<String> },
    /// RunningDatanodeState TRACE `Entering handshake task.` / `Exiting handshake task.`.
    HandshakeTask {
        datanode: Option<String>,
        phase: &'static str,
    },
    /// StateContext WARN `No available thread in pool for the past {} seconds and {} times.`.
    TaskPoolBusy {
        datanode: Option<String>,
        seconds: Option<u64>,
        times: Option<u64>,
    },
    /// StateContext WARN `Ignore disallowed transition from {} to {}`.
    DatanodeTransitionIgnored {
        datanode: Option<String>,
        from: String,
        to: String,
    },
    /// StateContext ERROR `Critical error occurred in StateMachine, setting shutDownMachine`.
    DatanodeCriticalError { datanode: Option<String> },
    /// StateContext WARN `Detect and drop a SCMCommand {} from stale leader SCM, stale term {},
    /// latest term {}.`.
    StaleScmCommandDropped {
        datanode: Option<String>,
        command: String,
        stale_term: Option<u64>,
        latest_term: Option<u64>,
    },
    /// StateContext WARN `Ignore command as command queue crosses max limit {}.`.
    CommandQueueFull {
        datanode: Option<String>,
        limit: Option<u64>,
    },
    /// StateContext DEBUG `endpoint: {}, size of reportsToPutBack: {}` (a failed heartbeat puts
    /// back ICRs and command status reports, not container or pipeline actions).
    ReportsPutBack {
        datanode: Option<String>,
        endpoint: String,
        size: Option<u64>,
    },
    /// StateContext DEBUG `Task {} executed, state transited from {} to {}` (datanode state).
    DatanodeStateTransited {
        datanode: Option<String>,
        task: String,
        from: String,
        to: String,
    },
    /// DatanodeStateMachine INFO `Datanode State Machine Task Thread Pool size {}`.
    TaskPoolSize {
        datanode: Option<String>,
        size: Option<u64>,
    },
    /// DatanodeStateMachine INFO `Ozone container server started.`.
    ContainerServerStarted { datanode: Option<String> },
    /// DatanodeStateMachine ERROR `Unable to finish the execution.` + throwable.
    DatanodeExecutionFailed { datanode: Option<String> },
    /// DatanodeStateMachine DEBUG `Executing cycle Number : {}`.
    HeartbeatCycle {
        datanode: Option<String>,
        cycle: Option<u64>,
    },
    /// EndpointStateMachine WARN `Unable to communicate to {} server at {} past {} seconds.`.
    EndpointUnreachable {
        datanode: Option<String>,
        server: String,
        endpoint: String,
        seconds: Option<u64>,
    },
    /// EndpointStateMachine TRACE `Incrementing the Missed count.`.
    MissedCountIncremented {
        datanode: Option<String>,
        endpoint: Option<String>,
    },
    /// HeartbeatEndpointTask DEBUG `Sending heartbeat message : {}` with the request proto.
    HeartbeatSent {
        datanode: Option<String>,
        endpoint: Option<String>,
        container_actions: Vec<ContainerActionRef>,
        icrs: Vec<IcrRef>,
        pipeline_actions: u32,
    },
    /// HeartbeatEndpointTask DEBUG `Received SCM notification to register. Interrupt HEARTBEAT
    /// and transit to GETVERSION state.`.
    ReregisterReceived {
        datanode: Option<String>,
        endpoint: Option<String>,
    },
    /// HeartbeatEndpointTask DEBUG `Illegal state {} found, expecting {}.`: a reregister
    /// command answered a heartbeat sent while the endpoint was not in HEARTBEAT.
    ReregisterIllegalState {
        datanode: Option<String>,
        endpoint: Option<String>,
        state: String,
        expected: String,
    },
    /// HeartbeatEndpointTask DEBUG `Received SCM container close request for container {}`.
    CloseCommandReceived {
        datanode: Option<String>,
        endpoint: Option<String>,
        container: u64,
    },
    /// HeartbeatEndpointTask DEBUG `Received SCM set operational state command. State: {}
    /// Expiry: {}`.
    OpStateCommandReceived {
        datanode: Option<String>,
        endpoint: Option<String>,
        state: String,
        expiry: Option<i64>,
    },
    /// HeartbeatEndpointTask WARN `Failed to refresh SCM address {} after {} missed heartbeats`.
    ScmAddressRefreshFailed {
        datanode: Option<String>,
        endpoint: String,
        missed: Option<u64>,
    },
    /// SCMConnectionManager INFO `SCM endpoint {} re-resolved: {} -> {}` (HDDS-15533).
    ScmEndpointReResolved {
        datanode: Option<String>,
        endpoint: String,
        old_address: String,
        new_address: String,
    },
    /// SCMConnectionManager WARN `Failed to close stale endpoint for {}`.
    StaleEndpointCloseFailed {
        datanode: Option<String>,
        endpoint: String,
    },
    /// SCMConnectionManager WARN `Trying to add an existing SCM Machine to Machines group.
    /// Ignoring the request.`.
    ScmMachineAlreadyAdded { datanode: Option<String> },
    /// SCMConnectionManager INFO `Adding Recon Server : {}`.
    ReconServerAdded {
        datanode: Option<String>,
        endpoint: String,
    },
    /// VersionEndpointTask DEBUG `Cannot execute GetVersion task as endpoint state machine is in
    /// {} state`: a stale queued version task.
    StaleVersionTask {
        datanode: Option<String>,
        endpoint: Option<String>,
        state: String,
    },
    /// VersionEndpointTask ERROR `Marking volume {} as failed`.
    VolumeMarkedFailed {
        datanode: Option<String>,
        volume: String,
    },
    /// RegisterEndpointTask ERROR `DatanodeDetails cannot be null in RegisterEndpoint task,
    /// shutting down the endpoint.`.
    RegisterEndpointShutdown {
        datanode: Option<String>,
        endpoint: Option<String>,
    },
    /// CloseContainerCommandHandler DEBUG `Processing Close Container command container #{}`.
    CloseCommandProcessing {
        datanode: Option<String>,
        container: u64,
    },
    /// CloseContainerCommandHandler DEBUG `Cannot close the container #{}, the container is in {}
    /// state.`.
    CloseContainerSkipped {
        datanode: Option<String>,
        container: u64,
        state: String,
    },
}

impl DnEndpointEvent {
    pub fn kind(&self) -> &'static str {
        use DnEndpointEvent as E;
        match self {
            E::EndpointTimeout { .. } => "endpoint_timeout",
            E::EndpointTaskError { .. } => "endpoint_task_error",
            E::RunningStateShutdown { .. } => "running_state_shutdown",
            E::HandshakeTask { .. } => "handshake_task",
            E::TaskPoolBusy { .. } => "task_pool_busy",
            E::DatanodeTransitionIgnored { .. } => "datanode_transition_ignored",
            E::DatanodeCriticalError { .. } => "datanode_critical_error",
            E::StaleScmCommandDropped { .. } => "stale_scm_command_dropped",
            E::CommandQueueFull { .. } => "command_queue_full",
            E::ReportsPutBack { .. } => "reports_put_back",
            E::DatanodeStateTransited { .. } => "datanode_state_transited",
            E::TaskPoolSize { .. } => "task_pool_size",
            E::ContainerServerStarted { .. } => "container_server_started",
            E::DatanodeExecutionFailed { .. } => "datanode_execution_failed",
            E::HeartbeatCycle { .. } => "heartbeat_cycle",
            E::EndpointUnreachable { .. } => "endpoint_unreachable",
            E::MissedCountIncremented { .. } => "missed_count_incremented",
            E::HeartbeatSent { .. } => "heartbeat_sent",
            E::ReregisterReceived { .. } => "reregister_received",
            E::ReregisterIllegalState { .. } => "reregister_illegal_state",
            E::CloseCommandReceived { .. } => "close_command_received",
            E::OpStateCommandReceived { .. } => "op_state_command_received",
            E::ScmAddressRefreshFailed { .. } => "scm_address_refresh_failed",
            E::ScmEndpointReResolved { .. } => "scm_endpoint_re_resolved",
            E::StaleEndpointCloseFailed { .. } => "stale_endpoint_close_failed",
            E::ScmMachineAlreadyAdded { .. } => "scm_machine_already_added",
            E::ReconServerAdded { .. } => "recon_server_added",
            E::StaleVersionTask { .. } => "stale_version_task",
            E::VolumeMarkedFailed { .. } => "volume_marked_failed",
            E::RegisterEndpointShutdown { .. } => "register_endpoint_shutdown",
            E::CloseCommandProcessing { .. } => "close_command_processing",
            E::CloseContainerSkipped { .. } => "close_container_skipped",
        }
    }

    /// The datanode whose thread wrote the line, when the thread name carries it.
    pub fn datanode(&self) -> Option<&str> {
        use DnEndpointEvent as E;
        match self {
            E::EndpointTimeout { datanode, .. }
            | E::EndpointTaskError { datanode }
            | E::RunningStateShutdown { datanode }
            | E::HandshakeTask { datanode, .. }
            | E::TaskPoolBusy { datanode, .. }
            | E::DatanodeTransitionIgnored { datanode, .. }
            | E::DatanodeCriticalError { datanode }
            | E::StaleScmCommandDropped { datanode, .. }
            | E::CommandQueueFull { datanode, .. }
            | E::ReportsPutBack { datanode, .. }
            | E::DatanodeStateTransited { datanode, .. }
            | E::TaskPoolSize { datanode, .. }
            | E::ContainerServerStarted { datanode }
            | E::DatanodeExecutionFailed { datanode }
            | E::HeartbeatCycle { datanode, .. }
            | E::EndpointUnreachable { datanode, .. }
            | E::MissedCountIncremented { datanode, .. }
            | E::HeartbeatSent { datanode, .. }
            | E::ReregisterReceived { datanode, .. }
            | E::ReregisterIllegalState { datanode, .. }
            | E::CloseCommandReceived { datanode, .. }
            | E::OpStateCommandReceived { datanode, .. }
            | E::ScmAddressRefreshFailed { datanode, .. }
            | E::ScmEndpointReResolved { datanode, .. }
            | E::StaleEndpointCloseFailed { datanode, .. }
            | E::ScmMachineAlreadyAdded { datanode }
            | E::ReconServerAdded { datanode, .. }
            | E::StaleVersionTask { datanode, .. }
            | E::VolumeMarkedFailed { datanode, .. }
            | E::RegisterEndpointShutdown { datanode, .. }
            | E::CloseCommandProcessing { datanode, .. }
            | E::CloseContainerSkipped { datanode, .. } => datanode.as_deref(),
        }
    }

    /// The SCM (or Recon) endpoint the line is about: from the message, else from the endpoint
    /// task thread's name.
    pub fn endpoint(&self) -> Option<&str> {
        use DnEndpointEvent as E;
        match self {
            E::EndpointTimeout { endpoint, .. }
            | E::ReportsPutBack { endpoint, .. }
            | E::EndpointUnreachable { endpoint, .. }
            | E::ScmAddressRefreshFailed { endpoint, .. }
            | E::ScmEndpointReResolved { endpoint, .. }
            | E::StaleEndpointCloseFailed { endpoint, .. }
            | E::ReconServerAdded { endpoint, .. } => Some(endpoint),
            E::MissedCountIncremented { endpoint, .. }
            | E::HeartbeatSent { endpoint, .. }
            | E::ReregisterReceived { endpoint, .. }
            | E::ReregisterIllegalState { endpoint, .. }
            | E::CloseCommandReceived { endpoint, .. }
            | E::OpStateCommandReceived { endpoint, .. }
            | E::StaleVersionTask { endpoint, .. }
            | E::RegisterEndpointShutdown { endpoint, .. } => endpoint.as_deref(),
            _ => None,
        }
    }
}

/// What the thread name says: the datanode (`<uuid>-…`) and, for an endpoint task thread, the
/// endpoint's `HostAndPort`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ThreadOrigin<'a> {
    pub datanode: Option<&'a str>,
    pub endpoint: Option<&'a str>,
}

/// Reads a datanode thread name: `<uuid>-EndpointStateMachineTaskThread-<HostAndPort>-<n> `
/// (`EndpointStateMachine` constructor, trailing space), or any `<uuid>-<name>`
/// (`HddsUtils.threadNamePrefix`).
pub fn thread_origin(thread: &str) -> ThreadOrigin<'_> {
    const ENDPOINT_THREAD: &str = "-EndpointStateMachineTaskThread-";
    let Some(uuid) = thread.get(..36).filter(|u| is_uuid(u)) else {
        return ThreadOrigin::default();
    };
    let rest = &thread[36..];
    if !rest.starts_with('-') {
        return ThreadOrigin::default();
    }
    let endpoint = rest.strip_prefix(ENDPOINT_THREAD).and_then(|tail| {
        // `-%d` is the executor's thread counter.
        let tail = tail.trim_end();
        let (address, counter) = tail.rsplit_once('-')?;
        (!address.is_empty() && !counter.is_empty() && counter.bytes().all(|b| b.is_ascii_digit()))
            .then_some(address)
    });
    ThreadOrigin {
        datanode: Some(uuid),
        endpoint,
    }
}

/// An endpoint address as the datanode prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndpointAddress<'a> {
    pub host: &'a str,
    pub port: Option<u16>,
    pub ip: Option<&'a str>,
}

/// Reads `HostAndPort.toString()` (`host:port/<InetAddress>`, InetAddress = `host/ip`, `/ip` or
/// `<unresolved>`, HEAD), `InetSocketAddress.toString()` (`host/ip:port`, ≤2.2.0 and the
/// `re-resolved` line) or a bare `host:port`.
pub fn endpoint_address(s: &str) -> Option<EndpointAddress<'_>> {
    let s = s.trim();
    let (head, inet) = match s.split_once('/') {
        Some((head, inet)) => (head, Some(inet)),
        None => (s, None),
    };
    if let Some((host, port)) = head.rsplit_once(':')
        && let Ok(port) = port.parse::<u16>()
        && !host.is_empty()
    {
        // host:port[/InetAddress]
        let ip = inet
            .map(|i| i.rsplit('/').next().unwrap_or(i))
            .filter(|ip| !ip.is_empty() && !ip.starts_with('<'));
        return Some(EndpointAddress {
            host,
            port: Some(port),
            ip,
        });
    }
    // host/ip:port (InetSocketAddress) or host/ip.
    let inet = inet?;
    let (ip, port) = match inet.rsplit_once(':') {
        Some((ip, port)) => (ip, port.parse::<u16>().ok()),
        None => (inet, None),
    };
    let host = if head.is_empty() { ip } else { head };
    (!host.is_empty()).then_some(EndpointAddress {
        host,
        port,
        ip: (!ip.is_empty()).then_some(ip),
    })
}

/// What one statement's builder returns.
type Built = (DnEndpointEvent, Vec<Entity>);

const RUNNING: &str =
    "org.apache.hadoop.ozone.container.common.states.datanode.RunningDatanodeState";
const STATE_CONTEXT: &str = "org.apache.hadoop.ozone.container.common.statemachine.StateContext";
const DN_STATE_MACHINE: &str =
    "org.apache.hadoop.ozone.container.common.statemachine.DatanodeStateMachine";
const ENDPOINT_SM: &str =
    "org.apache.hadoop.ozone.container.common.statemachine.EndpointStateMachine";
const CONNECTION_MANAGER: &str =
    "org.apache.hadoop.ozone.container.common.statemachine.SCMConnectionManager";
const HEARTBEAT_TASK: &str =
    "org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask";
const VERSION_TASK: &str =
    "org.apache.hadoop.ozone.container.common.states.endpoint.VersionEndpointTask";
const REGISTER_TASK: &str =
    "org.apache.hadoop.ozone.container.common.states.endpoint.RegisterEndpointTask";
const CLOSE_HANDLER: &str = "org.apache.hadoop.ozone.container.common.statemachine.commandhandler.CloseContainerCommandHandler";

// Rows read at the tags ozone-1.3.0 … 2.2.0 and HEAD (`1.3–HEAD` unless a row says otherwise).
catalogue! {
    event DnEndpointEvent;
    log "datanode" {
    // The cause's message is "Timeout occurred on endpoint: " + the endpoint's address (HEAD
    // HostAndPort, 2.1–2.2 host/ip:port).
    "endpoint_timeout", "WARN", RUNNING, "2.1–HEAD", "datanode.md 2.6, 3.B",
        "Detected timeout: Timeout occurred on endpoint: {}" [Name] =>
        |m| built(E::EndpointTimeout { datanode: datanode(m), endpoint: m.string(0) }),
    "endpoint_timeout", "WARN", RUNNING, "2.1–HEAD", "datanode.md 2.6, 3.B",
        "Detected timeout: {}" [Text] =>
        |m| built(E::EndpointTimeout { datanode: datanode(m), endpoint: m.string(0) }),
    "endpoint_task_error", "ERROR", RUNNING, "1.3–HEAD", "datanode.md 2.6",
        "Error in executing end point task." [] =>
        |m| built(E::EndpointTaskError { datanode: datanode(m) }),
    "running_state_shutdown", "ERROR", RUNNING, "1.3–HEAD", "datanode.md 2.6",
        "State is Shutdown in RunningDatanodeState" [] =>
        |m| built(E::RunningStateShutdown { datanode: datanode(m) }),
    "handshake_task", "TRACE", RUNNING, "1.3–HEAD", "datanode.md 2.6",
        "Entering handshake task." [] =>
        |m| built(E::HandshakeTask { datanode: datanode(m), phase: "entering" }),
    "handshake_task", "TRACE", RUNNING, "1.3–HEAD", "datanode.md 2.6",
        "Exiting handshake task." [] =>
        |m| built(E::HandshakeTask { datanode: datanode(m), phase: "exiting" }),
    "task_pool_busy", "WARN", STATE_CONTEXT, "1.3–HEAD", "datanode.md 2.6",
        "No available thread in pool for the past {} seconds and {} times." [U64, U64] =>
        |m| built(E::TaskPoolBusy { datanode: datanode(m), seconds: m.u64(0), times: m.u64(1) }),
    "datanode_transition_ignored", "WARN", STATE_CONTEXT, "1.3–HEAD", "datanode.md 2.6",
        "Ignore disallowed transition from {} to {}" [Word, Word] =>
        |m| built(E::DatanodeTransitionIgnored { datanode: datanode(m), from: m.string(0), to: m.string(1) }),
    "datanode_critical_error", "ERROR", STATE_CONTEXT, "1.3–HEAD", "datanode.md 2.6",
        "Critical error occurred in StateMachine, setting shutDownMachine" [] =>
        |m| built(E::DatanodeCriticalError { datanode: datanode(m) }),
    "stale_scm_command_dropped", "WARN", STATE_CONTEXT, "1.3–HEAD", "datanode.md 2.6",
        "Detect and drop a SCMCommand {} from stale leader SCM, stale term {}, latest term {}." [Text, U64, U64] =>
        |m| built(E::StaleScmCommandDropped {
            datanode: datanode(m),
            command: m.string(0),
            stale_term: m.u64(1),
            latest_term: m.u64(2),
        }),
    "command_queue_full", "WARN", STATE_CONTEXT, "1.4–HEAD", "datanode.md 2.6",
        "Ignore command as command queue crosses max limit {}." [U64] =>
        |m| built(E::CommandQueueFull { datanode: datanode(m), limit: m.u64(0) }),
    "reports_put_back", "DEBUG", STATE_CONTEXT, "1.3–HEAD", "datanode.md 2.6",
        "endpoint: {}, size of reportsToPutBack: {}" [Name, U64] =>
        |m| built(E::ReportsPutBack { datanode: datanode(m), endpoint: m.string(0), size: m.u64(1) }),
    "datanode_state_transited", "DEBUG", STATE_CONTEXT, "1.3–HEAD", "datanode.md 2.6",
        "Task {} executed, state transited from {} to {}" [Name, Word, Word] =>
        |m| built(E::DatanodeStateTransited {
            datanode: datanode(m),
            task: m.string(0),
            from: m.string(1),
            to: m.string(2),
        }),
    "task_pool_size", "INFO", DN_STATE_MACHINE, "1.3–HEAD", "datanode.md 2.6",
        "Datanode State Machine Task Thread Pool size {}" [U64] =>
        |m| built(E::TaskPoolSize { datanode: datanode(m), size: m.u64(0) }),
    "container_server_started", "INFO", DN_STATE_MACHINE, "1.3–HEAD", "datanode.md 2.6",
        "Ozone container server started." [] =>
        |m| built(E::ContainerServerStarted { datanode: datanode(m) }),
    "datanode_execution_failed", "ERROR", DN_STATE_MACHINE, "1.3–HEAD", "datanode.md 2.6",
        "Unable to finish the execution." [] =>
        |m| built(E::DatanodeExecutionFailed { datanode: datanode(m) }),
    "heartbeat_cycle", "DEBUG", DN_STATE_MACHINE, "1.3–HEAD", "datanode.md 2.6",
        "Executing cycle Number : {}" [U64] =>
        |m| built(E::HeartbeatCycle { datanode: datanode(m), cycle: m.u64(0) }),
    // The endpoint: HEAD a HostAndPort; 2.0–2.2 the InetAddress (`host/ip`) and the port; up to
    // 1.4 `host:port`. The field is `<address>:<port>` for both older wordings.
    "endpoint_unreachable", "WARN", ENDPOINT_SM, "HEAD (unreleased)", "datanode.md 2.6",
        "Unable to communicate to {} server at {} past {} seconds." [Name, Name, U64] =>
        |m| unreachable(m, m.string(1), 2),
    "endpoint_unreachable", "WARN", ENDPOINT_SM, "2.0–2.2", "datanode.md 2.6",
        "Unable to communicate to {} server at {}:{} for past {} seconds." [Name, Name, U64, U64] =>
        |m| unreachable(m, format!("{}:{}", m.text(1), m.text(2)), 3),
    "endpoint_unreachable", "WARN", ENDPOINT_SM, "1.3–1.4", "datanode.md 2.6",
        "Unable to communicate to {} server at {} for past {} seconds." [Name, Name, U64] =>
        |m| unreachable(m, m.string(1), 2),
    "missed_count_incremented", "TRACE", ENDPOINT_SM, "1.3–HEAD", "datanode.md 2.6",
        "Incrementing the Missed count." [] =>
        |m| built(E::MissedCountIncremented { datanode: datanode(m), endpoint: thread_endpoint(m) }),
    "heartbeat_sent", "DEBUG", HEARTBEAT_TASK, "1.3–HEAD", "datanode.md 2.6, 3.B",
        "Sending heartbeat message : {}" [Heartbeat] =>
        |m| {
            let mut summary = HeartbeatSummary::default();
            summary.read(m.text(0));
            built(E::HeartbeatSent {
                datanode: datanode(m),
                endpoint: thread_endpoint(m),
                container_actions: summary.actions,
                icrs: summary.icrs,
                pipeline_actions: summary.pipeline_actions,
            })
        },
    "reregister_received", "DEBUG", HEARTBEAT_TASK, "1.4–HEAD", "datanode.md 2.6, 3.B",
        "Received SCM notification to register. Interrupt HEARTBEAT and transit to GETVERSION state." [] =>
        |m| built(E::ReregisterReceived { datanode: datanode(m), endpoint: thread_endpoint(m) }),
    "reregister_illegal_state", "DEBUG", HEARTBEAT_TASK, "1.3–HEAD", "datanode.md 2.6, 3.B",
        "Illegal state {} found, expecting {}." [Word, Word] =>
        |m| built(E::ReregisterIllegalState {
            datanode: datanode(m),
            endpoint: thread_endpoint(m),
            state: m.string(0),
            expected: m.string(1),
        }),
    "close_command_received", "DEBUG", HEARTBEAT_TASK, "1.3–HEAD", "datanode.md 2.6",
        "Received SCM container close request for container {}" [Container] =>
        |m| built(E::CloseCommandReceived {
            datanode: datanode(m),
            endpoint: thread_endpoint(m),
            container: m.container(0)?,
        }),
    "op_state_command_received", "DEBUG", HEARTBEAT_TASK, "1.3–HEAD", "datanode.md 2.6",
        "Received SCM set operational state command. State: {} Expiry: {}" [Word, I64] =>
        |m| built(E::OpStateCommandReceived {
            datanode: datanode(m),
            endpoint: thread_endpoint(m),
            state: m.string(0),
            expiry: m.i64(1),
        }),
    "scm_address_refresh_failed", "WARN", HEARTBEAT_TASK, "unreleased (HDDS-15533)", "datanode.md 2.6",
        "Failed to refresh SCM address {} after {} missed heartbeats" [Name, U64] =>
        |m| built(E::ScmAddressRefreshFailed { datanode: datanode(m), endpoint: m.string(0), missed: m.u64(1) }),
    "scm_endpoint_re_resolved", "INFO", CONNECTION_MANAGER, "unreleased (HDDS-15533)", "datanode.md 2.6",
        "SCM endpoint {} re-resolved: {} -> {}" [Name, Name, Name] =>
        |m| built(E::ScmEndpointReResolved {
            datanode: datanode(m),
            endpoint: m.string(0),
            old_address: m.string(1),
            new_address: m.string(2),
        }),
    "stale_endpoint_close_failed", "WARN", CONNECTION_MANAGER, "unreleased (HDDS-15533)", "datanode.md 2.6",
        "Failed to close stale endpoint for {}" [Name] =>
        |m| built(E::StaleEndpointCloseFailed { datanode: datanode(m), endpoint: m.string(0) }),
    "scm_machine_already_added", "WARN", CONNECTION_MANAGER, "1.3–HEAD", "datanode.md 2.6",
        "Trying to add an existing SCM Machine to Machines group. Ignoring the request." [] =>
        |m| built(E::ScmMachineAlreadyAdded { datanode: datanode(m) }),
    "recon_server_added", "INFO", CONNECTION_MANAGER, "1.3–HEAD", "datanode.md 2.6",
        "Adding Recon Server : {}" [Name] =>
        |m| built(E::ReconServerAdded { datanode: datanode(m), endpoint: m.string(0) }),
    "stale_version_task", "DEBUG", VERSION_TASK, "1.3–HEAD", "datanode.md 2.6",
        "Cannot execute GetVersion task as endpoint state machine is in {} state" [Word] =>
        |m| built(E::StaleVersionTask { datanode: datanode(m), endpoint: thread_endpoint(m), state: m.string(0) }),
    "volume_marked_failed", "ERROR", VERSION_TASK, "2.2–HEAD", "datanode.md 2.6",
        "Marking volume {} as failed" [Text] =>
        |m| built(E::VolumeMarkedFailed { datanode: datanode(m), volume: m.string(0) }),
    "register_endpoint_shutdown", "ERROR", REGISTER_TASK, "1.3–HEAD", "datanode.md 2.6",
        "DatanodeDetails cannot be null in RegisterEndpoint task, shutting down the endpoint." [] =>
        |m| built(E::RegisterEndpointShutdown { datanode: datanode(m), endpoint: thread_endpoint(m) }),
    "close_command_processing", "DEBUG", CLOSE_HANDLER, "1.3–HEAD", "datanode.md 2.6",
        "Processing Close Container command container #{}" [Container] =>
        |m| built(E::CloseCommandProcessing { datanode: datanode(m), container: m.container(0)? }),
    "close_container_skipped", "DEBUG", CLOSE_HANDLER, "1.3–HEAD", "datanode.md 2.6",
        "Cannot close the container #{}, the container is in {} state." [Container, Word] =>
        |m| built(E::CloseContainerSkipped {
            datanode: datanode(m),
            container: m.container(0)?,
            state: m.string(1),
        }),
    }
}

use DnEndpointEvent as E;

/// The datanode whose thread wrote the line (`<uuid>-…`), lower-cased.
fn datanode(m: &Matched<'_>) -> Option<String> {
    origin(m).datanode.map(str::to_ascii_lowercase)
}

/// The endpoint of an endpoint task thread.
fn thread_endpoint(m: &Matched<'_>) -> Option<String> {
    origin(m).endpoint.map(str::to_string)
}

fn origin<'a>(m: &Matched<'a>) -> ThreadOrigin<'a> {
    m.input
        .record
        .thread
        .as_deref()
        .map(thread_origin)
        .unwrap_or_default()
}

fn unreachable(m: &Matched<'_>, endpoint: String, seconds: usize) -> Option<Built> {
    built(E::EndpointUnreachable {
        datanode: datanode(m),
        server: m.string(0),
        endpoint,
        seconds: m.u64(seconds),
    })
}

/// The event and the entities it names: the datanode of its thread, and the containers it
/// carries or closes.
fn built(event: DnEndpointEvent) -> Option<Built> {
    let mut entities = Vec::new();
    if let Some(dn) = event.datanode().and_then(Entity::datanode) {
        entities.push(dn);
    }
    match &event {
        E::HeartbeatSent {
            container_actions,
            icrs,
            ..
        } => {
            let ids = container_actions
                .iter()
                .map(|a| a.container)
                .chain(icrs.iter().map(|r| r.container));
            for id in ids {
                let entity = Entity::Container(id);
                if !entities.contains(&entity) {
                    entities.push(entity);
                }
            }
        }
        E::CloseCommandReceived { container, .. }
        | E::CloseCommandProcessing { container, .. }
        | E::CloseContainerSkipped { container, .. } => {
            entities.push(Entity::Container(*container));
        }
        _ => {}
    }
    Some((event, entities))
}

pub fn parse(input: &Input<'_>) -> Option<Typed> {
    if !matches!(input.component, Component::Datanode | Component::Unknown) {
        return None;
    }
    CATALOGUE.typed(input)
}

/// What a heartbeat request carried, read from its protobuf text (multi-line `toString`, or
/// single-line `shortDebugString`): `containerActions { containerActions { containerID action
/// reason } }`, `incrementalContainerReport { report { containerID state … } }`,
/// `pipelineActions { pipelineActions { … } }` (ScmServerDatanodeHeartbeatProtocol.proto).
#[derive(Debug, Default)]
struct HeartbeatSummary {
    /// Open message names, outermost first.
    path: Vec<String>,
    actions: Vec<ContainerActionRef>,
    icrs: Vec<IcrRef>,
    pipeline_actions: u32,
}

impl HeartbeatSummary {
    fn read(&mut self, text: &str) {
        let mut rest = text;
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                return;
            }
            if let Some(after) = rest.strip_prefix('}') {
                self.close();
                rest = after;
                continue;
            }
            let name_len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if name_len == 0 {
                // Not protobuf text: skip one character.
                let skip = rest.chars().next().map_or(1, char::len_utf8);
                rest = &rest[skip..];
                continue;
            }
            let name = &rest[..name_len];
            let after = rest[name_len..].trim_start();
            if let Some(inner) = after.strip_prefix('{') {
                self.open(name);
                rest = inner;
            } else if let Some(value) = after.strip_prefix(':') {
                let value = value.trim_start();
                let len = value_len(value);
                self.field(name, value[..len].trim_matches('"'));
                rest = &value[len..];
            } else {
                rest = after;
            }
        }
    }

    fn open(&mut self, name: &str) {
        let depth = self.path.len();
        match (depth, name, self.path.first().map(String::as_str)) {
            (1, "containerActions", Some("containerActions")) => {
                self.actions.push(ContainerActionRef {
                    container: 0,
                    action: String::new(),
                    reason: String::new(),
                })
            }
            (1, "report", Some("incrementalContainerReport")) => self.icrs.push(IcrRef {
                container: 0,
                state: String::new(),
            }),
            (1, "pipelineActions", Some("pipelineActions")) => self.pipeline_actions += 1,
            _ => {}
        }
        self.path.push(name.to_string());
    }

    fn close(&mut self) {
        if self.path.len() == 1 {
            // Entries whose id never came are not actions or reports.
            self.actions.retain(|a| a.container != 0);
            self.icrs.retain(|r| r.container != 0);
        }
        self.path.pop();
    }

    fn field(&mut self, name: &str, value: &str) {
        if self.path.len() != 2 {
            return;
        }
        match (self.path[0].as_str(), name) {
            ("containerActions", "containerID") => {
                if let (Some(a), Ok(id)) = (self.actions.last_mut(), value.parse()) {
                    a.container = id;
                }
            }
            ("containerActions", "action") => {
                if let Some(a) = self.actions.last_mut() {
                    a.action = value.to_string();
                }
            }
            ("containerActions", "reason") => {
                if let Some(a) = self.actions.last_mut() {
                    a.reason = value.to_string();
                }
            }
            ("incrementalContainerReport", "containerID") => {
                if let (Some(r), Ok(id)) = (self.icrs.last_mut(), value.parse()) {
                    r.container = id;
                }
            }
            ("incrementalContainerReport", "state") => {
                if let Some(r) = self.icrs.last_mut() {
                    r.state = value.to_string();
                }
            }
            _ => {}
        }
    }
}

/// The byte length of a protobuf text value: a quoted string (with `\"` escapes) or a bare token.
fn value_len(value: &str) -> usize {
    let bytes = value.as_bytes();
    if bytes.first() == Some(&b'"') {
        let mut i = 1;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'"' => return i + 1,
                _ => i += 1,
            }
        }
        return bytes.len();
    }
    value
        .find(|c: char| c.is_whitespace() || c == '}')
        .unwrap_or(value.len())
}

#[cfg(test)]
mod tests;
