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
//! Dispatch: the logger's last segment (the same in the full name and in `%c{2}`) picks the class,
//! then a `starts_with` over that class's few constant message prefixes picks the template. A record
//! without a logger (a vendor layout without `%c`) tries every class's prefixes.
//!
//! Endpoint tasks run on `<dnUuid>-EndpointStateMachineTaskThread-<HostAndPort>-<n> ` (trailing
//! space, `EndpointStateMachine` constructor); the daemon loop on `<dnUuid>-
//! DatanodeStateMachineDaemonThread`. The thread name gives the datanode (and the endpoint) of
//! lines whose message does not print them.

use super::template::logger_class;
use super::{EventData, Input, KindInfo, Typed};
use crate::entity::{Entity, container_id, is_uuid};
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

const fn kind(
    kind: &'static str,
    class: &'static str,
    level: &'static str,
    template: &'static str,
) -> KindInfo {
    KindInfo {
        kind,
        log: "datanode",
        class,
        level,
        // Read at the tags ozone-1.3.0 … 2.2.0 and HEAD; rows that differ say so.
        releases: "1.3–HEAD",
        template,
        catalogue: "datanode.md 2.6",
    }
}

pub const KINDS: &[KindInfo] = &[
    KindInfo {
        catalogue: "datanode.md 2.6, 3.B",
        releases: "HEAD (HostAndPort); ≤2.2.0 print host/ip:port",
        ..kind(
            "endpoint_timeout",
            RUNNING,
            "WARN",
            "Detected timeout: {} (\"Timeout occurred on endpoint: \" + endpoint.getAddress())",
        )
    },
    kind(
        "endpoint_task_error",
        RUNNING,
        "ERROR",
        "Error in executing end point task.",
    ),
    kind(
        "running_state_shutdown",
        RUNNING,
        "ERROR",
        "State is Shutdown in RunningDatanodeState",
    ),
    kind(
        "handshake_task",
        RUNNING,
        "TRACE",
        "Entering handshake task. / Exiting handshake task.",
    ),
    kind(
        "task_pool_busy",
        STATE_CONTEXT,
        "WARN",
        "No available thread in pool for the past {} seconds and {} times.",
    ),
    kind(
        "datanode_transition_ignored",
        STATE_CONTEXT,
        "WARN",
        "Ignore disallowed transition from {} to {}",
    ),
    kind(
        "datanode_critical_error",
        STATE_CONTEXT,
        "ERROR",
        "Critical error occurred in StateMachine, setting shutDownMachine",
    ),
    kind(
        "stale_scm_command_dropped",
        STATE_CONTEXT,
        "WARN",
        "Detect and drop a SCMCommand {} from stale leader SCM, stale term {}, latest term {}.",
    ),
    KindInfo {
        releases: "1.4–HEAD",
        ..kind(
            "command_queue_full",
            STATE_CONTEXT,
            "WARN",
            "Ignore command as command queue crosses max limit {}.",
        )
    },
    kind(
        "reports_put_back",
        STATE_CONTEXT,
        "DEBUG",
        "endpoint: {}, size of reportsToPutBack: {}",
    ),
    kind(
        "datanode_state_transited",
        STATE_CONTEXT,
        "DEBUG",
        "Task {} executed, state transited from {} to {}",
    ),
    kind(
        "task_pool_size",
        DN_STATE_MACHINE,
        "INFO",
        "Datanode State Machine Task Thread Pool size {}",
    ),
    kind(
        "container_server_started",
        DN_STATE_MACHINE,
        "INFO",
        "Ozone container server started.",
    ),
    kind(
        "datanode_execution_failed",
        DN_STATE_MACHINE,
        "ERROR",
        "Unable to finish the execution.",
    ),
    kind(
        "heartbeat_cycle",
        DN_STATE_MACHINE,
        "DEBUG",
        "Executing cycle Number : {}",
    ),
    KindInfo {
        releases: "HEAD; 2.1.0–2.2.0: Unable to communicate to {} server at {}:{} for past {} seconds.",
        ..kind(
            "endpoint_unreachable",
            ENDPOINT_SM,
            "WARN",
            "Unable to communicate to {} server at {} past {} seconds.",
        )
    },
    kind(
        "missed_count_incremented",
        ENDPOINT_SM,
        "TRACE",
        "Incrementing the Missed count.",
    ),
    KindInfo {
        catalogue: "datanode.md 2.6, 3.B",
        ..kind(
            "heartbeat_sent",
            HEARTBEAT_TASK,
            "DEBUG",
            "Sending heartbeat message : {} (SCMHeartbeatRequestProto, multi-line text format)",
        )
    },
    KindInfo {
        catalogue: "datanode.md 2.6, 3.B",
        releases: "1.4–HEAD",
        ..kind(
            "reregister_received",
            HEARTBEAT_TASK,
            "DEBUG",
            "Received SCM notification to register. Interrupt HEARTBEAT and transit to GETVERSION state.",
        )
    },
    KindInfo {
        catalogue: "datanode.md 2.6, 3.B",
        ..kind(
            "reregister_illegal_state",
            HEARTBEAT_TASK,
            "DEBUG",
            "Illegal state {} found, expecting {}.",
        )
    },
    kind(
        "close_command_received",
        HEARTBEAT_TASK,
        "DEBUG",
        "Received SCM container close request for container {}",
    ),
    kind(
        "op_state_command_received",
        HEARTBEAT_TASK,
        "DEBUG",
        "Received SCM set operational state command. State: {} Expiry: {}",
    ),
    KindInfo {
        releases: "unreleased (HDDS-15533)",
        ..kind(
            "scm_address_refresh_failed",
            HEARTBEAT_TASK,
            "WARN",
            "Failed to refresh SCM address {} after {} missed heartbeats",
        )
    },
    KindInfo {
        releases: "unreleased (HDDS-15533)",
        ..kind(
            "scm_endpoint_re_resolved",
            CONNECTION_MANAGER,
            "INFO",
            "SCM endpoint {} re-resolved: {} -> {}",
        )
    },
    KindInfo {
        releases: "unreleased (HDDS-15533)",
        ..kind(
            "stale_endpoint_close_failed",
            CONNECTION_MANAGER,
            "WARN",
            "Failed to close stale endpoint for {}",
        )
    },
    kind(
        "scm_machine_already_added",
        CONNECTION_MANAGER,
        "WARN",
        "Trying to add an existing SCM Machine to Machines group. Ignoring the request.",
    ),
    kind(
        "recon_server_added",
        CONNECTION_MANAGER,
        "INFO",
        "Adding Recon Server : {}",
    ),
    kind(
        "stale_version_task",
        VERSION_TASK,
        "DEBUG",
        "Cannot execute GetVersion task as endpoint state machine is in {} state",
    ),
    KindInfo {
        releases: "2.2–HEAD",
        ..kind(
            "volume_marked_failed",
            VERSION_TASK,
            "ERROR",
            "Marking volume {} as failed",
        )
    },
    kind(
        "register_endpoint_shutdown",
        REGISTER_TASK,
        "ERROR",
        "DatanodeDetails cannot be null in RegisterEndpoint task, shutting down the endpoint.",
    ),
    kind(
        "close_command_processing",
        CLOSE_HANDLER,
        "DEBUG",
        "Processing Close Container command container #{}",
    ),
    kind(
        "close_container_skipped",
        CLOSE_HANDLER,
        "DEBUG",
        "Cannot close the container #{}, the container is in {} state.",
    ),
];

/// The classes this module reads, by the logger's last segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Running,
    StateContext,
    DnStateMachine,
    EndpointSm,
    ConnectionManager,
    HeartbeatTask,
    VersionTask,
    RegisterTask,
    CloseHandler,
}

const CLASSES: &[Class] = &[
    Class::Running,
    Class::StateContext,
    Class::DnStateMachine,
    Class::EndpointSm,
    Class::ConnectionManager,
    Class::HeartbeatTask,
    Class::VersionTask,
    Class::RegisterTask,
    Class::CloseHandler,
];

/// The class of a logger name, full (`org.apache…RunningDatanodeState`) or abbreviated by
/// `%c{1}`/`%c{2}` (`datanode.RunningDatanodeState`): both end in the simple class name.
fn class_of(logger: &str) -> Option<Class> {
    Some(match logger_class(logger) {
        "RunningDatanodeState" => Class::Running,
        "StateContext" => Class::StateContext,
        "DatanodeStateMachine" => Class::DnStateMachine,
        "EndpointStateMachine" => Class::EndpointSm,
        "SCMConnectionManager" => Class::ConnectionManager,
        "HeartbeatEndpointTask" => Class::HeartbeatTask,
        "VersionEndpointTask" => Class::VersionTask,
        "RegisterEndpointTask" => Class::RegisterTask,
        "CloseContainerCommandHandler" => Class::CloseHandler,
        _ => return None,
    })
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

pub fn parse(input: &Input<'_>) -> Option<Typed> {
    if !matches!(input.component, Component::Datanode | Component::Unknown) {
        return None;
    }
    let record = input.record;
    let origin = record
        .thread
        .as_deref()
        .map(thread_origin)
        .unwrap_or_default();
    let message = record.message.as_str();
    let event = match record.logger.as_deref() {
        Some(logger) => parse_class(class_of(logger)?, message, record, origin)?,
        None => CLASSES
            .iter()
            .find_map(|&class| parse_class(class, message, record, origin))?,
    };
    let mut entities = Vec::new();
    if let Some(dn) = event.datanode().and_then(Entity::datanode) {
        entities.push(dn);
    }
    match &event {
        DnEndpointEvent::HeartbeatSent {
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
        DnEndpointEvent::CloseCommandReceived { container, .. }
        | DnEndpointEvent::CloseCommandProcessing { container, .. }
        | DnEndpointEvent::CloseContainerSkipped { container, .. } => {
            entities.push(Entity::Container(*container));
        }
        _ => {}
    }
    Some(Typed {
        data: EventData::DnEndpoint(event),
        entities,
    })
}

fn parse_class(
    class: Class,
    message: &str,
    record: &crate::record::Record,
    origin: ThreadOrigin<'_>,
) -> Option<DnEndpointEvent> {
    use DnEndpointEvent as E;
    let datanode = origin.datanode.map(str::to_ascii_lowercase);
    let thread_endpoint = origin.endpoint.map(str::to_string);
    Some(match class {
        Class::Running => {
            if let Some(detail) = message.strip_prefix("Detected timeout: ") {
                let endpoint = detail
                    .strip_prefix("Timeout occurred on endpoint: ")
                    .unwrap_or(detail);
                E::EndpointTimeout {
                    datanode,
                    endpoint: endpoint.trim().to_string(),
                }
            } else if message.starts_with("Error in executing end point task.") {
                E::EndpointTaskError { datanode }
            } else if message.starts_with("State is Shutdown in RunningDatanodeState") {
                E::RunningStateShutdown { datanode }
            } else if message.starts_with("Entering handshake task.") {
                E::HandshakeTask {
                    datanode,
                    phase: "entering",
                }
            } else if message.starts_with("Exiting handshake task.") {
                E::HandshakeTask {
                    datanode,
                    phase: "exiting",
                }
            } else {
                return None;
            }
        }
        Class::StateContext => {
            if let Some(rest) = message.strip_prefix("No available thread in pool for the past ") {
                let (seconds, rest) = split_word(rest);
                let times = rest
                    .strip_prefix("seconds and ")
                    .map(|r| split_word(r).0)
                    .and_then(|t| t.parse().ok());
                E::TaskPoolBusy {
                    datanode,
                    seconds: seconds.parse().ok(),
                    times,
                }
            } else if let Some(rest) = message.strip_prefix("Ignore disallowed transition from ") {
                let (from, to) = rest.split_once(" to ")?;
                E::DatanodeTransitionIgnored {
                    datanode,
                    from: from.to_string(),
                    to: to.trim().to_string(),
                }
            } else if message.starts_with("Critical error occurred in StateMachine") {
                E::DatanodeCriticalError { datanode }
            } else if let Some(rest) = message.strip_prefix("Detect and drop a SCMCommand ") {
                let (command, terms) = rest.rsplit_once(" from stale leader SCM, stale term ")?;
                let (stale, latest) = terms.split_once(", latest term ")?;
                E::StaleScmCommandDropped {
                    datanode,
                    command: command.to_string(),
                    stale_term: stale.trim().parse().ok(),
                    latest_term: latest.trim_end_matches('.').trim().parse().ok(),
                }
            } else if let Some(rest) =
                message.strip_prefix("Ignore command as command queue crosses max limit ")
            {
                E::CommandQueueFull {
                    datanode,
                    limit: rest.trim_end_matches('.').trim().parse().ok(),
                }
            } else if let Some(rest) = message.strip_prefix("endpoint: ") {
                let (endpoint, size) = rest.rsplit_once(", size of reportsToPutBack: ")?;
                E::ReportsPutBack {
                    datanode,
                    endpoint: endpoint.to_string(),
                    size: size.trim().parse().ok(),
                }
            } else if let Some(rest) = message.strip_prefix("Task ") {
                let (task, states) = rest.split_once(" executed, state transited from ")?;
                let (from, to) = states.split_once(" to ")?;
                E::DatanodeStateTransited {
                    datanode,
                    task: task.to_string(),
                    from: from.to_string(),
                    to: to.trim().to_string(),
                }
            } else {
                return None;
            }
        }
        Class::DnStateMachine => {
            if let Some(rest) =
                message.strip_prefix("Datanode State Machine Task Thread Pool size ")
            {
                E::TaskPoolSize {
                    datanode,
                    size: rest.trim().parse().ok(),
                }
            } else if message.starts_with("Ozone container server started.") {
                E::ContainerServerStarted { datanode }
            } else if message.starts_with("Unable to finish the execution.") {
                E::DatanodeExecutionFailed { datanode }
            } else if let Some(rest) = message.strip_prefix("Executing cycle Number : ") {
                E::HeartbeatCycle {
                    datanode,
                    cycle: rest.trim().parse().ok(),
                }
            } else {
                return None;
            }
        }
        Class::EndpointSm => {
            if let Some(rest) = message.strip_prefix("Unable to communicate to ") {
                let (server, rest) = rest.split_once(" server at ")?;
                // HEAD: `{} past {} seconds.`; 2.1.0–2.2.0: `{}:{} for past {} seconds.`.
                let (endpoint, seconds) = rest
                    .rsplit_once(" for past ")
                    .or_else(|| rest.rsplit_once(" past "))?;
                E::EndpointUnreachable {
                    datanode,
                    server: server.to_string(),
                    endpoint: endpoint.to_string(),
                    seconds: split_word(seconds).0.parse().ok(),
                }
            } else if message.starts_with("Incrementing the Missed count.") {
                E::MissedCountIncremented {
                    datanode,
                    endpoint: thread_endpoint,
                }
            } else {
                return None;
            }
        }
        Class::ConnectionManager => {
            if let Some(rest) = message.strip_prefix("SCM endpoint ") {
                let (endpoint, change) = rest.split_once(" re-resolved: ")?;
                let (old, new) = change.split_once(" -> ")?;
                E::ScmEndpointReResolved {
                    datanode,
                    endpoint: endpoint.to_string(),
                    old_address: old.to_string(),
                    new_address: new.trim().to_string(),
                }
            } else if let Some(rest) = message.strip_prefix("Failed to close stale endpoint for ") {
                E::StaleEndpointCloseFailed {
                    datanode,
                    endpoint: rest.trim().to_string(),
                }
            } else if message.starts_with("Trying to add an existing SCM Machine") {
                E::ScmMachineAlreadyAdded { datanode }
            } else if let Some(rest) = message.strip_prefix("Adding Recon Server : ") {
                E::ReconServerAdded {
                    datanode,
                    endpoint: rest.trim().to_string(),
                }
            } else {
                return None;
            }
        }
        Class::HeartbeatTask => {
            if let Some(first) = message.strip_prefix("Sending heartbeat message : ") {
                let mut summary = HeartbeatSummary::default();
                summary.read(first);
                summary.read(&record.continuation);
                E::HeartbeatSent {
                    datanode,
                    endpoint: thread_endpoint,
                    container_actions: summary.actions,
                    icrs: summary.icrs,
                    pipeline_actions: summary.pipeline_actions,
                }
            } else if message.starts_with("Received SCM notification to register.") {
                E::ReregisterReceived {
                    datanode,
                    endpoint: thread_endpoint,
                }
            } else if let Some(rest) = message.strip_prefix("Illegal state ") {
                let (state, expected) = rest.split_once(" found, expecting ")?;
                E::ReregisterIllegalState {
                    datanode,
                    endpoint: thread_endpoint,
                    state: state.to_string(),
                    expected: expected.trim().trim_end_matches('.').to_string(),
                }
            } else if let Some(rest) =
                message.strip_prefix("Received SCM container close request for container ")
            {
                E::CloseCommandReceived {
                    datanode,
                    endpoint: thread_endpoint,
                    container: container_id(rest.trim())?,
                }
            } else if let Some(rest) =
                message.strip_prefix("Received SCM set operational state command. State: ")
            {
                let (state, expiry) = rest.split_once(" Expiry: ")?;
                E::OpStateCommandReceived {
                    datanode,
                    endpoint: thread_endpoint,
                    state: state.to_string(),
                    expiry: expiry.trim().parse().ok(),
                }
            } else if let Some(rest) = message.strip_prefix("Failed to refresh SCM address ") {
                let (endpoint, missed) = rest.rsplit_once(" after ")?;
                E::ScmAddressRefreshFailed {
                    datanode,
                    endpoint: endpoint.to_string(),
                    missed: split_word(missed).0.parse().ok(),
                }
            } else {
                return None;
            }
        }
        Class::VersionTask => {
            if let Some(rest) = message
                .strip_prefix("Cannot execute GetVersion task as endpoint state machine is in ")
            {
                E::StaleVersionTask {
                    datanode,
                    endpoint: thread_endpoint,
                    state: split_word(rest).0.to_string(),
                }
            } else if let Some(rest) = message.strip_prefix("Marking volume ") {
                E::VolumeMarkedFailed {
                    datanode,
                    volume: rest.strip_suffix(" as failed")?.to_string(),
                }
            } else {
                return None;
            }
        }
        Class::RegisterTask => {
            if message.starts_with("DatanodeDetails cannot be null in RegisterEndpoint task") {
                E::RegisterEndpointShutdown {
                    datanode,
                    endpoint: thread_endpoint,
                }
            } else {
                return None;
            }
        }
        Class::CloseHandler => {
            if let Some(rest) =
                message.strip_prefix("Processing Close Container command container ")
            {
                E::CloseCommandProcessing {
                    datanode,
                    container: container_id(rest)?,
                }
            } else if let Some(rest) = message.strip_prefix("Cannot close the container ") {
                let (id, state) = rest.split_once(", the container is in ")?;
                E::CloseContainerSkipped {
                    datanode,
                    container: container_id(id)?,
                    state: split_word(state).0.to_string(),
                }
            } else {
                return None;
            }
        }
    })
}

/// The first space-separated word and the text after the space.
fn split_word(s: &str) -> (&str, &str) {
    s.split_once(' ').unwrap_or((s, ""))
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
mod tests {
    use super::*;
    use crate::catalog::classify;
    use crate::record::{ReadOptions, Record, read_records};

    const DN: &str = "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c";
    const ADDR: &str = "scm1.example.com:9861/scm1.example.com/10.20.0.11";

    fn endpoint_thread() -> String {
        format!("{DN}-EndpointStateMachineTaskThread-{ADDR}-0 ")
    }

    fn daemon_thread() -> String {
        format!("{DN}-DatanodeStateMachineDaemonThread")
    }

    /// Reads `text` as a stream and types every record.
    fn typed(text: &str) -> Vec<(Record, Option<Typed>)> {
        let mut records = Vec::new();
        let (_, error) = read_records(&mut text.as_bytes(), &ReadOptions::default(), &mut |r| {
            records.push(r)
        });
        assert!(error.is_none());
        records
            .into_iter()
            .map(|r| {
                let t = classify(&r, Component::Datanode);
                (r, t)
            })
            .collect()
    }

    fn one(text: &str) -> (DnEndpointEvent, Vec<Entity>) {
        let mut all = typed(text);
        assert_eq!(all.len(), 1, "{text}");
        let (_, t) = all.remove(0);
        let t = t.unwrap_or_else(|| panic!("not typed: {text}"));
        match t.data {
            EventData::DnEndpoint(e) => (e, t.entities),
            other => panic!("wrong family {other:?}"),
        }
    }

    /// The same statement in the RFA file layout (full logger) and the console layout (`%c{2}`).
    fn both_layouts(thread: &str, class: &str, level: &str, message: &str) -> [String; 2] {
        let short: Vec<&str> = class.rsplit('.').take(2).collect();
        let short = format!("{}.{}", short[1], short[0]);
        [
            format!("2026-03-04 12:00:31,010 [{thread}] {level} {class}: {message}\n"),
            format!(
                "datanode2-1  | 2026-03-04 12:00:31,010 [{thread}] {level} {short}: {message}\n"
            ),
        ]
    }

    #[test]
    fn every_variant_kind_is_registered() {
        let samples = [
            DnEndpointEvent::EndpointTimeout {
                datanode: None,
                endpoint: String::new(),
            },
            DnEndpointEvent::HeartbeatSent {
                datanode: None,
                endpoint: None,
                container_actions: vec![],
                icrs: vec![],
                pipeline_actions: 0,
            },
        ];
        for s in &samples {
            assert!(KINDS.iter().any(|k| k.kind == s.kind()));
        }
        // Every kind name is unique and every template is cited.
        let mut names: Vec<_> = KINDS.iter().map(|k| k.kind).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), KINDS.len());
    }

    #[test]
    fn thread_names_give_datanode_and_endpoint() {
        let t = endpoint_thread();
        assert_eq!(
            thread_origin(&t),
            ThreadOrigin {
                datanode: Some(DN),
                endpoint: Some(ADDR)
            }
        );
        assert_eq!(
            thread_origin(&daemon_thread()),
            ThreadOrigin {
                datanode: Some(DN),
                endpoint: None
            }
        );
        assert_eq!(thread_origin("main"), ThreadOrigin::default());
        assert_eq!(
            thread_origin("IPC Server handler 3 on default port 9861"),
            ThreadOrigin::default()
        );
        // Compose hosts: `scm1:9861/scm1/172.25.0.11`.
        let compose = format!("{DN}-EndpointStateMachineTaskThread-scm1:9861/scm1/172.25.0.11-12 ");
        assert_eq!(
            thread_origin(&compose).endpoint,
            Some("scm1:9861/scm1/172.25.0.11")
        );
    }

    #[test]
    fn endpoint_addresses_in_every_printed_form() {
        assert_eq!(
            endpoint_address(ADDR),
            Some(EndpointAddress {
                host: "scm1.example.com",
                port: Some(9861),
                ip: Some("10.20.0.11")
            })
        );
        assert_eq!(
            endpoint_address("scm1.example.com/10.20.0.42:9861"),
            Some(EndpointAddress {
                host: "scm1.example.com",
                port: Some(9861),
                ip: Some("10.20.0.42")
            })
        );
        assert_eq!(
            endpoint_address("scm1.example.com:9861"),
            Some(EndpointAddress {
                host: "scm1.example.com",
                port: Some(9861),
                ip: None
            })
        );
        assert_eq!(
            endpoint_address("scm1.example.com:9861/<unresolved>").map(|a| a.ip),
            Some(None)
        );
        assert_eq!(endpoint_address(""), None);
    }

    #[test]
    fn detected_timeout_in_both_layouts() {
        for line in both_layouts(
            &daemon_thread(),
            RUNNING,
            "WARN",
            &format!("Detected timeout: Timeout occurred on endpoint: {ADDR}"),
        ) {
            let (e, entities) = one(&line);
            assert_eq!(e.kind(), "endpoint_timeout");
            assert_eq!(e.endpoint(), Some(ADDR));
            assert_eq!(entities, vec![Entity::Datanode(DN.into())]);
        }
    }

    #[test]
    fn unable_to_communicate_keeps_its_stack_trace_and_reads_both_wordings() {
        let text = format!(
            "2026-03-04 12:00:01,002 [{}] WARN {ENDPOINT_SM}: Unable to communicate to SCM server at {ADDR} past 60 seconds.\n\
java.net.ConnectException: Call From dn1.example.com/10.20.1.5 to scm1.example.com:9861 failed on connection exception\n\
\tat sun.reflect.NativeConstructorAccessorImpl.newInstance0(Native Method)\n",
            endpoint_thread()
        );
        let all = typed(&text);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].0.continuation_lines, 2);
        let (e, _) = one(&text);
        assert_eq!(
            e,
            DnEndpointEvent::EndpointUnreachable {
                datanode: Some(DN.into()),
                server: "SCM".into(),
                endpoint: ADDR.into(),
                seconds: Some(60)
            }
        );
        let old = format!(
            "2026-03-04 12:00:01,002 [{}] WARN statemachine.EndpointStateMachine: Unable to communicate to Recon server at recon.example.com:9891 for past 300 seconds.\n",
            endpoint_thread()
        );
        let (e, _) = one(&old);
        assert_eq!(
            e,
            DnEndpointEvent::EndpointUnreachable {
                datanode: Some(DN.into()),
                server: "Recon".into(),
                endpoint: "recon.example.com:9891".into(),
                seconds: Some(300)
            }
        );
    }

    #[test]
    fn info_and_warn_statements_of_every_class() {
        let cases: &[(&str, &str, &str, &str)] = &[
            (
                RUNNING,
                "ERROR",
                "Error in executing end point task.",
                "endpoint_task_error",
            ),
            (
                RUNNING,
                "ERROR",
                "State is Shutdown in RunningDatanodeState",
                "running_state_shutdown",
            ),
            (
                RUNNING,
                "TRACE",
                "Entering handshake task.",
                "handshake_task",
            ),
            (
                STATE_CONTEXT,
                "WARN",
                "No available thread in pool for the past 120 seconds and 4 times.",
                "task_pool_busy",
            ),
            (
                STATE_CONTEXT,
                "WARN",
                "Ignore disallowed transition from RUNNING to INIT",
                "datanode_transition_ignored",
            ),
            (
                STATE_CONTEXT,
                "ERROR",
                "Critical error occurred in StateMachine, setting shutDownMachine",
                "datanode_critical_error",
            ),
            (
                STATE_CONTEXT,
                "WARN",
                "Detect and drop a SCMCommand closeContainerCommand: cmdID: 7 from stale leader SCM, stale term 5, latest term 6.",
                "stale_scm_command_dropped",
            ),
            (
                STATE_CONTEXT,
                "WARN",
                "Ignore command as command queue crosses max limit 5000.",
                "command_queue_full",
            ),
            (
                STATE_CONTEXT,
                "DEBUG",
                &format!("endpoint: {ADDR}, size of reportsToPutBack: 2"),
                "reports_put_back",
            ),
            (
                STATE_CONTEXT,
                "DEBUG",
                "Task RunningDatanodeState executed, state transited from RUNNING to RUNNING",
                "datanode_state_transited",
            ),
            (
                DN_STATE_MACHINE,
                "INFO",
                "Datanode State Machine Task Thread Pool size 4",
                "task_pool_size",
            ),
            (
                DN_STATE_MACHINE,
                "INFO",
                "Ozone container server started.",
                "container_server_started",
            ),
            (
                DN_STATE_MACHINE,
                "ERROR",
                "Unable to finish the execution.",
                "datanode_execution_failed",
            ),
            (
                DN_STATE_MACHINE,
                "DEBUG",
                "Executing cycle Number : 311",
                "heartbeat_cycle",
            ),
            (
                ENDPOINT_SM,
                "TRACE",
                "Incrementing the Missed count.",
                "missed_count_incremented",
            ),
            (
                HEARTBEAT_TASK,
                "WARN",
                &format!("Failed to refresh SCM address {ADDR} after 5 missed heartbeats"),
                "scm_address_refresh_failed",
            ),
            (
                HEARTBEAT_TASK,
                "DEBUG",
                "Received SCM container close request for container 2043",
                "close_command_received",
            ),
            (
                HEARTBEAT_TASK,
                "DEBUG",
                "Received SCM set operational state command. State: DECOMMISSIONING Expiry: 0",
                "op_state_command_received",
            ),
            (
                CONNECTION_MANAGER,
                "INFO",
                "SCM endpoint scm1.example.com:9861 re-resolved: scm1.example.com/10.20.0.11:9861 -> scm1.example.com/10.20.0.42:9861",
                "scm_endpoint_re_resolved",
            ),
            (
                CONNECTION_MANAGER,
                "WARN",
                "Failed to close stale endpoint for scm1.example.com:9861",
                "stale_endpoint_close_failed",
            ),
            (
                CONNECTION_MANAGER,
                "WARN",
                "Trying to add an existing SCM Machine to Machines group. Ignoring the request.",
                "scm_machine_already_added",
            ),
            (
                CONNECTION_MANAGER,
                "INFO",
                "Adding Recon Server : recon.example.com:9891",
                "recon_server_added",
            ),
            (
                VERSION_TASK,
                "DEBUG",
                "Cannot execute GetVersion task as endpoint state machine is in HEARTBEAT state",
                "stale_version_task",
            ),
            (
                VERSION_TASK,
                "ERROR",
                "Marking volume /data/disk2/hdds as failed",
                "volume_marked_failed",
            ),
            (
                REGISTER_TASK,
                "ERROR",
                "DatanodeDetails cannot be null in RegisterEndpoint task, shutting down the endpoint.",
                "register_endpoint_shutdown",
            ),
            (
                CLOSE_HANDLER,
                "DEBUG",
                "Processing Close Container command container #2043",
                "close_command_processing",
            ),
            (
                CLOSE_HANDLER,
                "DEBUG",
                "Cannot close the container #2043, the container is in CLOSED state.",
                "close_container_skipped",
            ),
        ];
        for (class, level, message, kind) in cases {
            for line in both_layouts(&endpoint_thread(), class, level, message) {
                let (e, entities) = one(&line);
                assert_eq!(e.kind(), *kind, "{line}");
                assert_eq!(e.datanode(), Some(DN), "{line}");
                assert!(KINDS.iter().any(|k| k.kind == *kind));
                if class == &CLOSE_HANDLER || kind == &"close_command_received" {
                    assert!(entities.contains(&Entity::Container(2043)), "{line}");
                }
            }
        }
        assert_eq!(KINDS.len(), cases.len() + 5);
    }

    #[test]
    fn fields_of_numbered_and_split_templates() {
        let line = format!(
            "2026-03-04 12:00:31,010 [{}] WARN {STATE_CONTEXT}: No available thread in pool for the past 120 seconds and 4 times.\n",
            daemon_thread()
        );
        assert_eq!(
            one(&line).0,
            DnEndpointEvent::TaskPoolBusy {
                datanode: Some(DN.into()),
                seconds: Some(120),
                times: Some(4)
            }
        );
        let line = "2026-03-04 12:02:01,730 [main] INFO org.apache.hadoop.ozone.container.common.statemachine.SCMConnectionManager: SCM endpoint scm1.example.com:9861 re-resolved: scm1.example.com/10.20.0.11:9861 -> scm1.example.com/10.20.0.42:9861\n";
        let (e, entities) = one(line);
        assert_eq!(
            e,
            DnEndpointEvent::ScmEndpointReResolved {
                datanode: None,
                endpoint: "scm1.example.com:9861".into(),
                old_address: "scm1.example.com/10.20.0.11:9861".into(),
                new_address: "scm1.example.com/10.20.0.42:9861".into()
            }
        );
        assert!(entities.is_empty());
        let line = format!(
            "2026-03-04 12:02:01,730 [{}] DEBUG {HEARTBEAT_TASK}: Illegal state GETVERSION found, expecting HEARTBEAT.\n",
            endpoint_thread()
        );
        assert_eq!(
            one(&line).0,
            DnEndpointEvent::ReregisterIllegalState {
                datanode: Some(DN.into()),
                endpoint: Some(ADDR.into()),
                state: "GETVERSION".into(),
                expected: "HEARTBEAT".into()
            }
        );
    }

    const HEARTBEAT_PROTO: &str = "datanodeDetails {
  uuid: \"3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c\"
  hostName: \"dn1\"
  ports {
    name: \"RATIS\"
    value: 9858
  }
}
incrementalContainerReport {
  report {
    containerID: 2045
    state: CLOSED
    originNodeId: \"3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c\"
  }
}
containerActions {
  containerActions {
    containerID: 2043
    action: CLOSE
    reason: CONTAINER_FULL
  }
  containerActions {
    containerID: 2077
    action: CLOSE
    reason: CONTAINER_UNHEALTHY
  }
}
pipelineActions {
  pipelineActions {
    action: CLOSE
    closePipeline {
      pipelineID {
        id: \"8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d\"
      }
      reason: PIPELINE_FAILED
      detailedReason: \"containerID: 9 is a {brace} in text\"
    }
  }
}
commandQueueReport {
}";

    #[test]
    fn heartbeat_message_lists_actions_and_incremental_reports() {
        let mut lines = HEARTBEAT_PROTO.lines();
        let first = lines.next().unwrap_or_default();
        let file = format!(
            "2026-09-14 02:12:37,911 [{}] DEBUG {HEARTBEAT_TASK}: Sending heartbeat message : {first}\n{}\n",
            endpoint_thread(),
            lines.clone().collect::<Vec<_>>().join("\n")
        );
        let compose: String = std::iter::once(format!(
            "datanode2-1  | 2026-09-14 02:12:37,911 [{}] DEBUG endpoint.HeartbeatEndpointTask: Sending heartbeat message : {first}\n",
            endpoint_thread()
        ))
        .chain(lines.map(|l| format!("datanode2-1  | {l}\n")))
        .collect();
        let single_line = format!(
            "2026-09-14 02:12:37,911 [{}] DEBUG {HEARTBEAT_TASK}: Sending heartbeat message : {}\n",
            endpoint_thread(),
            HEARTBEAT_PROTO
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        );
        for text in [file, compose, single_line] {
            let (e, entities) = one(&text);
            let DnEndpointEvent::HeartbeatSent {
                endpoint,
                container_actions,
                icrs,
                pipeline_actions,
                ..
            } = e
            else {
                panic!("not a heartbeat: {e:?}");
            };
            assert_eq!(endpoint.as_deref(), Some(ADDR));
            assert_eq!(
                container_actions,
                vec![
                    ContainerActionRef {
                        container: 2043,
                        action: "CLOSE".into(),
                        reason: "CONTAINER_FULL".into()
                    },
                    ContainerActionRef {
                        container: 2077,
                        action: "CLOSE".into(),
                        reason: "CONTAINER_UNHEALTHY".into()
                    }
                ]
            );
            assert_eq!(
                icrs,
                vec![IcrRef {
                    container: 2045,
                    state: "CLOSED".into()
                }]
            );
            assert_eq!(pipeline_actions, 1);
            assert_eq!(
                entities,
                vec![
                    Entity::Datanode(DN.into()),
                    Entity::Container(2043),
                    Entity::Container(2077),
                    Entity::Container(2045)
                ]
            );
        }
    }

    #[test]
    fn other_classes_and_audit_logs_are_left_alone() {
        let line = format!(
            "2026-09-14 02:12:35,353 [{DN}-ChunkWriter-1-0] WARN org.apache.hadoop.ozone.container.common.impl.HddsDispatcher: Triggered immediate heartbeat because of full volume.\n"
        );
        let all = typed(&line);
        assert!(!matches!(
            all[0].1.as_ref().map(|t| &t.data),
            Some(EventData::DnEndpoint(_))
        ));
        // The handler's INFO/ERROR outcomes belong to the datanode catalogue
        // (`close_container_handling`); this module types its DEBUG lines only.
        let line = format!(
            "2026-09-14 02:12:35,353 [{DN}-CommandProcessorThread] INFO {CLOSE_HANDLER}: Marking Container 2043 quasi closed\n"
        );
        assert!(!matches!(
            typed(&line)[0].1.as_ref().map(|t| &t.data),
            Some(EventData::DnEndpoint(_))
        ));
        // A known class with an unknown message is not typed by this module.
        let line = format!(
            "2026-09-14 02:12:35,353 [{}] WARN {RUNNING}: something else entirely\n",
            daemon_thread()
        );
        assert!(typed(&line)[0].1.is_none());
        // Broken input never panics.
        for msg in [
            "Detected timeout: ",
            "Unable to communicate to ",
            "Illegal state ",
            "Sending heartbeat message : }}} {{ : \"",
            "Marking Container x quasi closed",
        ] {
            for class in CLASSES_FOR_FUZZ {
                let line = format!("2026-09-14 02:12:35,353 [\u{e9}{DN}] WARN {class}: {msg}\n");
                let _ = typed(&line);
            }
        }
    }

    const CLASSES_FOR_FUZZ: &[&str] = &[
        RUNNING,
        STATE_CONTEXT,
        DN_STATE_MACHINE,
        ENDPOINT_SM,
        CONNECTION_MANAGER,
        HEARTBEAT_TASK,
        VERSION_TASK,
        REGISTER_TASK,
        CLOSE_HANDLER,
    ];

    #[test]
    fn layout_without_logger_still_types_by_message() {
        // Vendor layout `%d{ISO8601} %p %c: %m%n` always has a logger; a layout without `%c`
        // (a custom pattern) falls back to every class's prefixes.
        let record = Record {
            line: 1,
            ts: None,
            level: None,
            thread: None,
            logger: None,
            message: format!("Detected timeout: Timeout occurred on endpoint: {ADDR}"),
            throwable: None,
            continuation: String::new(),
            continuation_lines: 0,
            host: None,
            component: None,
            headerless: false,
        };
        let t = classify(&record, Component::Datanode).map(|t| t.data.kind());
        assert_eq!(t, Some("endpoint_timeout"));
    }
}
