//! SCM statements of ../shared/ozone-logs/scm.md: the SCM audit log (§1.2), leadership and HA
//! (§2.1), and the decommission / maintenance admin flow with node health and registration
//! (§2.2). Container report handlers, ReplicationManager and deleted blocks live in
//! `scm_container.rs`; Ratis's own `changes role` lines in `ratis.rs`.
//!
//! Dispatch: the logger's simple class name (full name or any `%c{n}` abbreviation) picks the few
//! templates of that class; each template is matched by its literal fragments (`starts_with`,
//! then `find` per fragment), so no regex runs per line. Every template is written exactly as the
//! Ozone source prints it (`{}` = SLF4J placeholder; string concatenations are shown joined with
//! `{}` where a value goes), and one table ([`KINDS`]) drives both `oztrace explain --kinds` and the
//! matcher.
//!
//! `TrackedNode@<hex>` lines (`Recommissioned node {}`, `Waiting for pipelines …`, `{} has {}
//! sufficientlyReplicated …`) carry the hash as `tracked_node` and no datanode entity: the hash is
//! resolved against the datanodes seen anywhere in the trace by the `node-admin` machine
//! (`oztrace_analyzer::machines::node_admin`), since a record's parse sees no earlier lines.

use super::template::logger_class;
use super::{Input, KindInfo, Typed};
use crate::audit::{AuditBody, Params, parse_audit_body};
use crate::entity::{self, Entity};
use crate::source::Component;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::LazyLock;

/// What an admin request or an admin line is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AdminAction {
    Decommission,
    Recommission,
    Maintenance,
}

/// One `SCMCommandProto` of a `SEND_HEARTBEAT` audit `command` list (or of the DEBUG
/// `Heartbeat dispatched` line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeartbeatCommand {
    /// `commandType` (`setNodeOperationalStateCommand`, `closeContainerCommand`, …).
    pub command_type: String,
    /// `nodeOperationalState` / `opState` of a setNodeOperationalStateCommand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op_state: Option<String>,
    /// The leader term the command carries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub term: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cmd_id: Option<u64>,
}

/// Every SCM audit record (`AuditMessage.formMessage` through `SCMAudit`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScmAudit {
    pub user: String,
    pub ip: String,
    pub op: String,
    pub params: Params,
    pub ret: String,
    /// `term` of SEND_HEARTBEAT: present only when the SCM answered as leader.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub term: Option<u64>,
    /// DECOMMISSION_NODES with `force` = decommission, without = recommission (the only way to
    /// tell them apart, scm.md §1.2); START_MAINTENANCE_NODES = maintenance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<AdminAction>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub force: Option<bool>,
    /// The `nodes` param: hosts as the admin typed them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<String>,
    /// The commands a SEND_HEARTBEAT returned to the datanode.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<HeartbeatCommand>,
}

/// Typed fields of SCM statements. Simple notices share a variant and carry their kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ScmEvent {
    Audit(ScmAudit),
    /// `current SCM {} becomes leader of term {}`.
    BecameLeader {
        scm_id: String,
        term: u64,
    },
    /// `Leader changed to {}, current SCM {} is still follower.`
    LeaderChanged {
        leader: String,
        scm_id: String,
    },
    /// `SCM {} steps down from being leader.`
    SteppedDown {
        scm_id: String,
    },
    /// `update <isLeader,term> from <{},{}> to <{},{}>`.
    RoleUpdate {
        was_leader: bool,
        old_term: i64,
        is_leader: bool,
        new_term: i64,
    },
    /// `update <isLeaderReady> from <{}> to <{}>`.
    LeaderReadyUpdate {
        was_ready: bool,
        is_ready: bool,
    },
    /// ` scm role is {} peers {}` (startup).
    StartupRole {
        role: String,
        peers: String,
    },
    /// `Service {} transitions to {}.` / `notifyStatusChanged:RUNNING`.
    ServiceStatus {
        service: String,
        status: String,
    },
    /// `{}: applyTransaction {}` (DEBUG).
    ApplyTransaction {
        member: String,
        term: Option<u64>,
        index: Option<u64>,
    },
    /// Other §2.1 lines with printed values (safe mode, catch-up, snapshots, append failure).
    HaNotice {
        #[serde(skip)]
        kind: &'static str,
        values: Vec<String>,
    },
    /// `Force flag = {}. Checking|Skip checking if decommission|maintenance is possible for dns: {}`.
    AdminRequested {
        action: AdminAction,
        force: bool,
        datanodes: Vec<String>,
    },
    /// `Starting Decommission for node {}` / `Starting Maintenance for node {}`.
    AdminStarted {
        action: AdminAction,
        datanode: String,
    },
    /// `… called on node {} … state {}. Nothing to do.` and `Cannot decommission node {} in state {}`.
    AdminNotStarted {
        #[serde(skip)]
        kind: &'static str,
        action: AdminAction,
        datanode: String,
        op_state: String,
    },
    /// `Datanode {} has an operational state of {} when it should be undergoing decommission or
    /// maintenance. Aborting admin for this node.`
    AdminAborted {
        datanode: String,
        op_state: String,
    },
    /// `Datanode {} has completed the admin workflow. The operational state has been set to {}`.
    AdminCompleted {
        datanode: String,
        op_state: String,
    },
    /// `There are {} nodes tracked for decommission and maintenance.  {} pending nodes.`
    TrackedCount {
        tracked: u64,
        pending: u64,
    },
    /// `TrackedNode@<hex>` lines whose only value is the node: recommissioned, cancel failed.
    TrackedNode {
        #[serde(skip)]
        kind: &'static str,
        tracked_node: String,
    },
    /// `Waiting for pipelines to close for {}. There are {} pipelines`.
    WaitingForPipelines {
        tracked_node: String,
        pipelines: u64,
    },
    /// `{} has {} sufficientlyReplicated, {} deleting, {} underReplicated and {} unclosed containers`.
    ReplicationStatus {
        tracked_node: String,
        sufficiently_replicated: u64,
        deleting: u64,
        under_replicated: u64,
        unclosed: u64,
    },
    /// `Unclosed Container {} {}; {}` / `Under Replicated Container {} {}; {}`.
    AdminContainer {
        #[serde(skip)]
        kind: &'static str,
        container: u64,
        replica_count: String,
    },
    /// `Admin start on datanode {}. Finalizing its pipelines {}` / `Datanode {} moved to stale
    /// state. Finalizing its pipelines {}`.
    NodePipelines {
        #[serde(skip)]
        kind: &'static str,
        datanode: String,
        pipelines: Vec<String>,
    },
    /// `Could not finalize pipeline={} for dn={}` (StartDatanodeAdminHandler, StaleNodeHandler).
    PipelineFinalizeFailed {
        pipeline: String,
        datanode: String,
        handler: &'static str,
    },
    /// `Scheduling a command …` (leader) / `Update the operationalState saved in follower SCM …`.
    OpStateMismatch {
        #[serde(skip)]
        kind: &'static str,
        datanode: String,
        reported: String,
        reported_expiry: i64,
        stored: String,
        stored_expiry: i64,
    },
    /// `Notifying ReplicationManager of node state change for {}: {} -> {}`.
    OpStateChangeNotified {
        datanode: String,
        from: String,
        to: String,
    },
    /// `Registered datanode: {}` (`toDebugString`).
    Registered {
        datanode: String,
        host: String,
        ip: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        persisted_op_state: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        persisted_op_state_expiry: Option<i64>,
    },
    /// `Updating nodeOperationalState on registration as the datanode has a persisted state of {}
    /// and expiry of {}` (no datanode id in the line).
    OpStateOnRegistration {
        op_state: String,
        expiry: i64,
    },
    /// `Updated datanode {} {} to {} {}` (NodeStatus `<OP>(no expiry)-<HEALTH>`).
    NodeStatusUpdated {
        datanode: String,
        old_op_state: String,
        old_health: String,
        new_op_state: String,
        new_health: String,
    },
    /// `Clearing command queue of size {} for DN {}`.
    CommandQueueCleared {
        datanode: String,
        size: u64,
    },
    /// `Heartbeat dispatched for datanode {} with commands {}` (DEBUG).
    HeartbeatDispatched {
        datanode: String,
        commands: Vec<HeartbeatCommand>,
    },
    /// Lines whose only typed value is a datanode (health handlers, continue admin, …); `state`
    /// when the line prints one.
    Node {
        #[serde(skip)]
        kind: &'static str,
        datanode: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        state: Option<String>,
    },
    /// Lines naming a datanode by the host name only (pre-check WARNs, recommission of an
    /// unknown host).
    Host {
        #[serde(skip)]
        kind: &'static str,
        host: String,
    },
    /// Lines with no value, or whose values need no typing (the text has them).
    Notice {
        #[serde(skip)]
        kind: &'static str,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        values: Vec<String>,
    },
}

impl ScmEvent {
    pub fn kind(&self) -> &'static str {
        match self {
            ScmEvent::Audit(_) => "scm_audit",
            ScmEvent::BecameLeader { .. } => "scm_became_leader",
            ScmEvent::LeaderChanged { .. } => "scm_leader_changed",
            ScmEvent::SteppedDown { .. } => "scm_stepped_down",
            ScmEvent::RoleUpdate { .. } => "scm_role_update",
            ScmEvent::LeaderReadyUpdate { .. } => "scm_leader_ready_update",
            ScmEvent::StartupRole { .. } => "scm_startup_role",
            ScmEvent::ServiceStatus { .. } => "scm_service_status",
            ScmEvent::ApplyTransaction { .. } => "scm_apply_transaction",
            ScmEvent::AdminRequested { .. } => "admin_requested",
            ScmEvent::AdminStarted {
                action: AdminAction::Maintenance,
                ..
            } => "maintenance_started",
            ScmEvent::AdminStarted { .. } => "decommission_started",
            ScmEvent::AdminAborted { .. } => "admin_aborted",
            ScmEvent::AdminCompleted { .. } => "admin_completed",
            ScmEvent::TrackedCount { .. } => "admin_tracked_count",
            ScmEvent::WaitingForPipelines { .. } => "admin_waiting_for_pipelines",
            ScmEvent::ReplicationStatus { .. } => "admin_replication_status",
            ScmEvent::PipelineFinalizeFailed { .. } => "pipeline_finalize_failed",
            ScmEvent::OpStateChangeNotified { .. } => "op_state_change_notified",
            ScmEvent::Registered { .. } => "datanode_registered",
            ScmEvent::OpStateOnRegistration { .. } => "op_state_on_registration",
            ScmEvent::NodeStatusUpdated { .. } => "node_status_updated",
            ScmEvent::CommandQueueCleared { .. } => "command_queue_cleared",
            ScmEvent::HeartbeatDispatched { .. } => "heartbeat_dispatched",
            ScmEvent::HaNotice { kind, .. }
            | ScmEvent::AdminNotStarted { kind, .. }
            | ScmEvent::TrackedNode { kind, .. }
            | ScmEvent::AdminContainer { kind, .. }
            | ScmEvent::NodePipelines { kind, .. }
            | ScmEvent::OpStateMismatch { kind, .. }
            | ScmEvent::Node { kind, .. }
            | ScmEvent::Host { kind, .. }
            | ScmEvent::Notice { kind, .. } => kind,
        }
    }

    /// The `TrackedNode@<hex>` hash of a tracked-node line, to resolve with
    /// [`entity::TrackedNodeMap`].
    pub fn tracked_node_hash(&self) -> Option<u32> {
        match self {
            ScmEvent::TrackedNode { tracked_node, .. }
            | ScmEvent::WaitingForPipelines { tracked_node, .. }
            | ScmEvent::ReplicationStatus { tracked_node, .. } => {
                u32::from_str_radix(tracked_node, 16).ok()
            }
            _ => None,
        }
    }
}

/// What one template's builder returns.
type Built = (ScmEvent, Vec<Entity>);
type Build = fn(&'static str, &[&str]) -> Option<Built>;

struct Pattern {
    kind: &'static str,
    /// Simple class name of the logger.
    class: &'static str,
    /// Package of the logger, to accept full and `%c{n}` forms.
    package: &'static str,
    template: &'static str,
    build: Build,
}

/// The releases the templates below were checked against (scm.md quotes HEAD 78d5650c313f; the
/// samples' SOURCE.md notes the same wording in 2.0.0–2.2.0 for the admin flow).
const HEAD: &str = "2.0–HEAD";

/// One table, two views: `KINDS` for the registry, `PATTERNS` for the matcher.
macro_rules! catalogue {
    ($( $kind:literal, $package:literal, $class:literal, $level:literal, $section:literal,
        $template:literal => $build:expr, )*) => {
        /// Every SCM kind with its Ozone source (scm_audit first; several rows share a kind when
        /// one statement has variants).
        pub const KINDS: &[KindInfo] = &[
            KindInfo {
                kind: "scm_audit",
                log: "scm-audit",
                class: "org.apache.hadoop.ozone.audit.AuditMessage (logger SCMAudit)",
                level: "INFO",
                releases: "1.4–HEAD",
                template: "user={} | ip={} | op={} {} | ret={}",
                catalogue: "scm.md 1.2",
            },
            $( KindInfo {
                kind: $kind,
                log: "scm",
                class: concat!($package, ".", $class),
                level: $level,
                releases: HEAD,
                template: $template,
                catalogue: $section,
            }, )*
        ];

        const PATTERNS: &[Pattern] = &[
            $( Pattern {
                kind: $kind,
                class: $class,
                package: $package,
                template: $template,
                build: $build,
            }, )*
        ];
    };
}

catalogue! {
    // ---- §2.1 SCMStateMachine (string concatenations, shown with {} for the values)
    "scm_became_leader", "org.apache.hadoop.hdds.scm.ha", "SCMStateMachine", "INFO", "scm.md 2.1",
        "current SCM {} becomes leader of term {}" =>
        |_, c| Some((ScmEvent::BecameLeader { scm_id: c[0].to_ascii_lowercase(), term: num(c[1])? }, scm(c[0]))),
    "scm_leader_changed", "org.apache.hadoop.hdds.scm.ha", "SCMStateMachine", "INFO", "scm.md 2.1",
        "Leader changed to {}, current SCM {} is still follower." =>
        |_, c| Some((ScmEvent::LeaderChanged { leader: c[0].to_ascii_lowercase(), scm_id: c[1].to_ascii_lowercase() }, scm(c[1]))),
    "scm_stepped_down", "org.apache.hadoop.hdds.scm.ha", "SCMStateMachine", "INFO", "scm.md 2.1",
        "SCM {} steps down from being leader." =>
        |_, c| Some((ScmEvent::SteppedDown { scm_id: c[0].to_ascii_lowercase() }, scm(c[0]))),
    "scm_apply_transaction", "org.apache.hadoop.hdds.scm.ha", "SCMStateMachine", "DEBUG", "scm.md 2.1",
        "{}: applyTransaction {}" =>
        |_, c| {
            let ti = entity::term_index(c[1]).map(|(t, _)| t);
            Some((ScmEvent::ApplyTransaction {
                member: c[0].to_string(),
                term: ti.and_then(|t| t.term),
                index: ti.and_then(|t| t.index),
            }, member_entities(c[0])))
        },
    "scm_follower_caught_up", "org.apache.hadoop.hdds.scm.ha", "SCMStateMachine", "INFO", "scm.md 2.1",
        "Follower caught up with leader: lastAppliedIndex={}, leaderCommitOnStart={}" => ha_notice,
    "scm_install_snapshot_notified", "org.apache.hadoop.hdds.scm.ha", "SCMStateMachine", "INFO", "scm.md 2.1",
        "Received install snapshot notification from SCM leader: {} with term index: {}" => ha_notice,
    "scm_state_machine_reinitializing", "org.apache.hadoop.hdds.scm.ha", "SCMStateMachine", "INFO", "scm.md 2.1",
        "{}: SCMStateMachine is reinitializing. newTermIndex = {}" => ha_notice,
    "scm_append_log_failed", "org.apache.hadoop.hdds.scm.ha", "SCMStateMachine", "ERROR", "scm.md 2.1",
        "SCM statemachine appendLog failed, entry: {}" => ha_notice,
    // ---- §2.1 SCMContext
    "scm_role_update", "org.apache.hadoop.hdds.scm.ha", "SCMContext", "INFO", "scm.md 2.1",
        "update <isLeader,term> from <{},{}> to <{},{}>" =>
        |_, c| Some((ScmEvent::RoleUpdate {
            was_leader: boolean(c[0])?, old_term: num(c[1])?, is_leader: boolean(c[2])?, new_term: num(c[3])?,
        }, Vec::new())),
    "scm_leader_ready_update", "org.apache.hadoop.hdds.scm.ha", "SCMContext", "INFO", "scm.md 2.1",
        "update <isLeaderReady> from <{}> to <{}>" =>
        |_, c| Some((ScmEvent::LeaderReadyUpdate { was_ready: boolean(c[0])?, is_ready: boolean(c[1])? }, Vec::new())),
    "scm_term_not_leader", "org.apache.hadoop.hdds.scm.ha", "SCMContext", "WARN", "scm.md 2.1",
        "getTerm is invoked when not leader." => notice,
    "scm_safe_mode_status", "org.apache.hadoop.hdds.scm.ha", "SCMContext", "INFO", "scm.md 2.1",
        "Update SafeModeStatus from {} to {}." => ha_notice,
    // ---- HddsServerUtil.startupShutdownMessage through the starter's logger (not in scm.md): the
    // banner's `/****`, `STARTUP_MSG: Starting StorageContainerManager`, `host = …` lines follow
    // as continuation lines; read at ozone-2.0.0 (line 700/731) to ozone-2.2.0 (794/825)
    "scm_started", "org.apache.hadoop.hdds.scm.server", "StorageContainerManagerStarter", "INFO", "not in scm.md: HddsServerUtil.startupShutdownMessage",
        "STARTUP_MSG:" => notice,
    "scm_shutdown", "org.apache.hadoop.hdds.scm.server", "StorageContainerManagerStarter", "INFO", "not in scm.md: HddsServerUtil.startupShutdownMessage",
        "SHUTDOWN_MSG:" => notice,
    // ---- §2.1 SCMHAManagerImpl, service status
    "scm_startup_role", "org.apache.hadoop.hdds.scm.ha", "SCMHAManagerImpl", "INFO", "scm.md 2.1",
        " scm role is {} peers {}" =>
        |_, c| Some((ScmEvent::StartupRole { role: c[0].trim().to_string(), peers: c[1].to_string() }, Vec::new())),
    "scm_service_status", "org.apache.hadoop.hdds.scm.ha", "BackgroundSCMService", "INFO", "scm.md 2.1",
        "Service {} transitions to {}." => service_status,
    "scm_service_status", "org.apache.hadoop.hdds.scm.container.replication", "ReplicationManager", "INFO", "scm.md 2.1",
        "Service {} transitions to {}." => service_status,
    "scm_service_status", "org.apache.hadoop.hdds.scm.pipeline", "BackgroundPipelineCreator", "INFO", "scm.md 2.1",
        "Service {} transitions to {}." => service_status,
    "scm_service_status", "org.apache.hadoop.hdds.scm.block", "SCMBlockDeletingService", "INFO", "scm.md 2.1",
        "Service {} transitions to {}." => service_status,
    "scm_service_status", "org.apache.hadoop.hdds.scm.block", "SCMBlockDeletingService", "INFO", "scm.md 2.1",
        "notifyStatusChanged:{}" =>
        |_, c| Some((ScmEvent::ServiceStatus { service: "SCMBlockDeletingService".into(), status: c[0].to_string() }, Vec::new())),

    // ---- §2.2 NodeDecommissionManager
    "admin_requested", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2",
        "Force flag = {}. Checking if decommission is possible for dns: {}" =>
        |_, c| requested(AdminAction::Decommission, c),
    "admin_requested", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2",
        "Force flag = {}. Skip checking if decommission is possible for dns: {}" =>
        |_, c| requested(AdminAction::Decommission, c),
    "admin_requested", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2",
        "Force flag = {}. Checking if maintenance is possible for dns: {}" =>
        |_, c| requested(AdminAction::Maintenance, c),
    "admin_requested", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2",
        "Force flag = {}. Skip checking if maintenance is possible for dns: {}" =>
        |_, c| requested(AdminAction::Maintenance, c),
    "admin_insufficient_nodes", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "ERROR", "scm.md 2.2",
        "Cannot decommission nodes as sufficient node are not available." => notice,
    "admin_insufficient_nodes", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "ERROR", "scm.md 2.2",
        "Cannot put nodes to maintenance as sufficient node are not available." => notice,
    "admin_insufficient_nodes_detail", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2",
        "Insufficient nodes. Tried to decommission {} nodes out of {} IN-SERVICE HEALTHY and {} not IN-SERVICE or not HEALTHY nodes. Cannot decommission as a minimum of {} IN-SERVICE HEALTHY nodes are required to maintain replication after decommission. Failing due to datanode : {}, container : {}" =>
        |k, c| {
            let mut entities = datanodes_in(c[4]);
            entities.extend(entity::container_id(c[5].trim()).map(Entity::Container));
            Some((notice_of(k, c), entities))
        },
    "admin_host_rejected", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "WARN", "scm.md 2.2",
        "Cannot decommission {} because it is not IN-SERVICE" => host,
    "admin_host_rejected", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "WARN", "scm.md 2.2",
        "Cannot decommission {} because it is not found in SCM" => host,
    "decommission_started", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2",
        "Starting Decommission for node {}" =>
        |_, c| started(AdminAction::Decommission, c[0]),
    "admin_start_noop", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2",
        "Start Decommission called on node {} in state {}. Nothing to do." =>
        |k, c| not_started(k, AdminAction::Decommission, c),
    "admin_start_refused", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "ERROR", "scm.md 2.2",
        "Cannot decommission node {} in state {}" =>
        |k, c| not_started(k, AdminAction::Decommission, c),
    "recommission_queued", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2, 4.4(a)",
        "Queued node {} for recommission" => node,
    "admin_start_noop", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2",
        "Recommission called on node {} with state {}. Nothing to do." =>
        |k, c| not_started(k, AdminAction::Recommission, c),
    "recommission_host_not_found", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "WARN", "scm.md 2.2",
        "Host {} was not found in SCM. Ignoring the request to recommission it." => host,
    "maintenance_started", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2",
        "Starting Maintenance for node {}" =>
        |_, c| started(AdminAction::Maintenance, c[0]),
    "admin_start_noop", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2",
        "Starting Maintenance called on node {} with state {}. Nothing to do." =>
        |k, c| not_started(k, AdminAction::Maintenance, c),
    "admin_start_refused", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "ERROR", "scm.md 2.2",
        "Cannot start maintenance on node {} in state {}" =>
        |k, c| not_started(k, AdminAction::Maintenance, c),
    "continue_admin_ignored", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2",
        "follower SCM ignored continue admin for datanode {}" => node,
    "continue_admin", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "INFO", "scm.md 2.2, 4.2 step 7",
        "Continue admin for datanode {}" => node,
    "admin_node_not_found", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "WARN", "scm.md 2.2",
        "NodeNotFound when adding the node to the decommissionManager" => notice,
    "admin_host_unresolved", "org.apache.hadoop.hdds.scm.node", "NodeDecommissionManager", "WARN", "scm.md 2.2",
        "Unable to resolve host {} " => host,

    // ---- §2.2 DatanodeAdminMonitorImpl
    "admin_tracked_count", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "INFO", "scm.md 2.2, 4.2 step 3",
        "There are {} nodes tracked for decommission and maintenance.  {} pending nodes." =>
        |_, c| Some((ScmEvent::TrackedCount { tracked: num(c[0])?, pending: num(c[1])? }, Vec::new())),
    "admin_recommissioned", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "INFO", "scm.md 2.2, 3",
        "Recommissioned node {}" => tracked_node,
    "admin_cancel_failed", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "WARN", "scm.md 2.2",
        "Failed processing the cancel admin request for {}" => tracked_node,
    "admin_aborted", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "WARN", "scm.md 2.2, 4.2 step 5",
        "Datanode {} has an operational state of {} when it should be undergoing decommission or maintenance. Aborting admin for this node." =>
        |_, c| {
            let (uuid, entities) = datanode(c[0])?;
            Some((ScmEvent::AdminAborted { datanode: uuid, op_state: word(c[1])? }, entities))
        },
    "admin_aborted_dead", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "ERROR", "scm.md 2.2, 4.4(c)",
        "Datanode {} is dead but is not IN_MAINTENANCE. Aborting the admin workflow for this node" => node,
    "admin_dead_cannot_continue", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "WARN", "scm.md 2.2",
        "Datanode {} is dead and the admin workflow cannot continue. The node will be put back to IN_SERVICE and handled as a dead node" => node,
    "admin_unexpected_error", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "ERROR", "scm.md 2.2",
        "An unexpected error occurred processing datanode {}. Aborting the admin workflow" => node,
    "admin_abort_write_failed", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "ERROR", "scm.md 2.2",
        "Unable to set the node OperationalState for {} while aborting the datanode admin workflow" => node,
    "admin_waiting_for_pipelines", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "INFO", "scm.md 2.2",
        "Waiting for pipelines to close for {}. There are {} pipelines" =>
        |_, c| Some((ScmEvent::WaitingForPipelines { tracked_node: hash_hex(c[0])?, pipelines: num(c[1])? }, Vec::new())),
    "admin_unclosed_container", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "INFO", "scm.md 2.2",
        "Unclosed Container {} {}; {}" => admin_container,
    "admin_under_replicated_container", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "INFO", "scm.md 2.2",
        "Under Replicated Container {} {}; {}" => admin_container,
    "admin_container_not_found", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "WARN", "scm.md 2.2",
        "ContainerID {} present in node list for {} but not found in containerManager" =>
        |k, c| {
            let mut entities = datanodes_in(c[1]);
            entities.extend(entity::container_id(c[0]).map(Entity::Container));
            Some((notice_of(k, c), entities))
        },
    "admin_replication_status", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "INFO", "scm.md 2.2, 4.4(b)",
        "{} has {} sufficientlyReplicated, {} deleting, {} underReplicated and {} unclosed containers" =>
        |_, c| Some((ScmEvent::ReplicationStatus {
            tracked_node: hash_hex(c[0])?,
            sufficiently_replicated: num(c[1])?,
            deleting: num(c[2])?,
            under_replicated: num(c[3])?,
            unclosed: num(c[4])?,
        }, Vec::new())),
    "admin_completed", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "INFO", "scm.md 2.2, 4.4(b)",
        "Datanode {} has completed the admin workflow. The operational state has been set to {}" =>
        |_, c| {
            let (uuid, entities) = datanode(c[0])?;
            Some((ScmEvent::AdminCompleted { datanode: uuid, op_state: word(c[1])? }, entities))
        },
    "admin_entered_maintenance", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "INFO", "scm.md 2.2",
        "Datanode {} has entered maintenance" => node,
    "admin_maintenance_ended", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "INFO", "scm.md 2.2",
        "Datanode {} has ended maintenance automatically" => node,
    "admin_monitor_error", "org.apache.hadoop.hdds.scm.node", "DatanodeAdminMonitorImpl", "ERROR", "scm.md 2.2",
        "Caught an error in the DatanodeAdminMonitor" => notice,

    // ---- §2.2 event handlers
    "node_healthy", "org.apache.hadoop.hdds.scm.node", "ReadOnlyHealthyToHealthyNodeHandler", "INFO", "scm.md 2.2",
        "Datanode {} moved to HEALTHY state." => node,
    "admin_start_on_node", "org.apache.hadoop.hdds.scm.node", "StartDatanodeAdminHandler", "INFO", "scm.md 2.2",
        "Admin start on datanode {}. Finalizing its pipelines {}" => node_pipelines,
    "pipeline_finalize_failed", "org.apache.hadoop.hdds.scm.node", "StartDatanodeAdminHandler", "INFO", "scm.md 2.2",
        "Could not finalize pipeline={} for dn={}" =>
        |_, c| finalize_failed("StartDatanodeAdminHandler", c),
    "node_stale", "org.apache.hadoop.hdds.scm.node", "StaleNodeHandler", "INFO", "scm.md 2.2",
        "Datanode {} moved to stale state. Finalizing its pipelines {}" => node_pipelines,
    "pipeline_finalize_failed", "org.apache.hadoop.hdds.scm.node", "StaleNodeHandler", "INFO", "scm.md 2.2",
        "Could not finalize pipeline={} for dn={}" =>
        |_, c| finalize_failed("StaleNodeHandler", c),
    "node_dead", "org.apache.hadoop.hdds.scm.node", "DeadNodeHandler", "INFO", "scm.md 2.2, 5.2",
        "A dead datanode is detected. {}" => node,
    "dead_node_skipped", "org.apache.hadoop.hdds.scm.node", "DeadNodeHandler", "INFO", "scm.md 2.2",
        "Skip event for dead node {} since the current state is {}" => node_state,
    "command_queue_cleared", "org.apache.hadoop.hdds.scm.node", "DeadNodeHandler", "INFO", "scm.md 2.2",
        "Clearing command queue of size {} for DN {}" => queue_cleared,
    "dead_node_topology_kept", "org.apache.hadoop.hdds.scm.node", "DeadNodeHandler", "INFO", "scm.md 2.2",
        "Skipping topology removal for dead node {} whose current state is {}" => node_state,
    "dead_node_cleanup_failed", "org.apache.hadoop.hdds.scm.node", "DeadNodeHandler", "WARN", "scm.md 2.2",
        "Exception while finalizing pipeline {}" => notice_with_entities,
    "dead_node_cleanup_failed", "org.apache.hadoop.hdds.scm.node", "DeadNodeHandler", "WARN", "scm.md 2.2",
        "Exception while removing container replica #{} of container {}." => notice_with_entities,
    "dead_node_cleanup_failed", "org.apache.hadoop.hdds.scm.node", "DeadNodeHandler", "WARN", "scm.md 2.2",
        "Container {} is not managed by ContainerManager." => notice_with_entities,
    "dead_node_unregistered", "org.apache.hadoop.hdds.scm.node", "DeadNodeHandler", "ERROR", "scm.md 2.2",
        "DeadNode event for a unregistered node: {}!" => node,
    "node_healthy_readonly", "org.apache.hadoop.hdds.scm.node", "HealthyReadOnlyNodeHandler", "INFO", "scm.md 2.2, 5.2",
        "Datanode {} moved to HEALTHY READONLY state." => node,
    "readonly_pipeline_close_sent", "org.apache.hadoop.hdds.scm.node", "HealthyReadOnlyNodeHandler", "INFO", "scm.md 2.2",
        "Sending close command for pipeline {} in state {} which uses {} datanode {}. This will send close commands for its containers." =>
        notice_with_entities,
    "stale_pipelines_closing", "org.apache.hadoop.hdds.scm.node", "NodeAddressUpdateHandler", "INFO", "scm.md 2.2",
        "Closing stale pipelines for datanode: {}" => node,
    "reregister_requested", "org.apache.hadoop.hdds.scm.server", "SCMDatanodeHeartbeatDispatcher", "INFO", "scm.md 2.2",
        "SCM received heartbeat from an unregistered datanode {}. Asking datanode to re-register." => node,
    "heartbeat_dispatched", "org.apache.hadoop.hdds.scm.server", "SCMDatanodeHeartbeatDispatcher", "DEBUG", "scm.md 2.2, 4.2",
        "Heartbeat dispatched for datanode {} with commands {}" =>
        |_, c| {
            let (uuid, entities) = datanode(c[0])?;
            Some((ScmEvent::HeartbeatDispatched { datanode: uuid, commands: dispatched_commands(c[1]) }, entities))
        },

    // ---- §2.2 SCMNodeManager
    "op_state_command_scheduled", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "INFO", "scm.md 2.2, 4.2 step 8",
        "Scheduling a command to update the operationalState persisted on {} as the reported value ({}, {}) does not match the value stored in SCM ({}, {})" =>
        op_state_mismatch,
    "op_state_command_skipped", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "WARN", "scm.md 2.2",
        "Skip sending SetNodeOperationalStateCommand, since current SCM is not leader." => notice,
    "follower_op_state_copied", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "INFO", "scm.md 2.2, 4.2 steps 4 and 6",
        "Update the operationalState saved in follower SCM for {} as the reported value ({}, {}) does not match the value stored in SCM ({}, {})" =>
        op_state_mismatch,
    "op_state_change_notified", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "INFO", "scm.md 2.2",
        "Notifying ReplicationManager of node state change for {}: {} -> {}" =>
        |_, c| {
            let (uuid, entities) = datanode(c[0])?;
            Some((ScmEvent::OpStateChangeNotified { datanode: uuid, from: word(c[1])?, to: word(c[2])? }, entities))
        },
    "heartbeat_unregistered_ignored", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "ERROR", "scm.md 2.2",
        "SCM trying to process heartbeat from an unregistered node {}. Ignoring the heartbeat." => node,
    "datanode_registered", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "INFO", "scm.md 2.2",
        "Registered datanode: {}" => registered,
    "datanode_address_updated", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "INFO", "scm.md 2.2",
        "Updating datanode from {} to {}" => notice_with_entities,
    "datanode_address_updated", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "INFO", "scm.md 2.2",
        "Updated datanode to: {}" => notice_with_entities,
    "datanode_version_updated", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "INFO", "scm.md 2.2",
        "Update the version for registered datanode {}, oldVersion = {}, newVersion = {}." => notice_with_entities,
    "datanode_ports_updated", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "INFO", "scm.md 2.2",
        "Updating ports for registered datanode {}: {} -> {}" => notice_with_entities,
    "datanode_not_found", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "ERROR", "scm.md 2.2",
        "Cannot find datanode {} from nodeStateManager" => notice_with_entities,
    "command_queue_cleared", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "INFO", "scm.md 2.2",
        "Clearing command queue of size {} for DN {}" => queue_cleared,
    "startup_safe_mode", "org.apache.hadoop.hdds.scm.node", "SCMNodeManager", "INFO", "scm.md 2.2",
        "Entering startup safe mode." => notice,

    // ---- §2.2 NodeStateManager
    "op_state_on_registration", "org.apache.hadoop.hdds.scm.node", "NodeStateManager", "INFO", "scm.md 2.2",
        "Updating nodeOperationalState on registration as the datanode has a persisted state of {} and expiry of {}" =>
        |_, c| Some((ScmEvent::OpStateOnRegistration { op_state: word(c[0])?, expiry: num(c[1])? }, Vec::new())),
    "node_status_updated", "org.apache.hadoop.hdds.scm.node", "NodeStateManager", "INFO", "scm.md 2.2",
        "Updated datanode {} {} to {} {}" =>
        |_, c| {
            let (uuid, entities) = datanode(c[0])?;
            let (old_op_state, old_health) = node_status(c[1])?;
            let (new_op_state, new_health) = node_status(c[3])?;
            Some((ScmEvent::NodeStatusUpdated { datanode: uuid, old_op_state, old_health, new_op_state, new_health }, entities))
        },
    "node_invalid_transition", "org.apache.hadoop.hdds.scm.node", "NodeStateManager", "WARN", "scm.md 2.2",
        "Invalid state transition of node {}. Current state: {}, life cycle event: {}" => notice_with_entities,
    "heartbeat_check_skipped", "org.apache.hadoop.hdds.scm.node", "NodeStateManager", "INFO", "scm.md 2.2",
        "Detected long delay in scheduling HB processing thread. Skipping heartbeat checks for one iteration." => notice,
    "heartbeat_processing_slow", "org.apache.hadoop.hdds.scm.node", "NodeStateManager", "ERROR", "scm.md 2.2",
        "Total time spend processing datanode HB's is greater than configured values for datanode heartbeats. Please adjust the heartbeat configs. Time Spend on HB processing: {} seconds Datanode heartbeat Interval: {} seconds." =>
        notice,
}

// ---------------------------------------------------------------------------------------------
// Builders

fn num<T: std::str::FromStr>(s: &str) -> Option<T> {
    s.trim().parse().ok()
}

fn boolean(s: &str) -> Option<bool> {
    match s.trim() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// An enum constant (`IN_SERVICE`, `HEALTHY`): upper-case letters and `_` only.
fn word(s: &str) -> Option<String> {
    let s = s.trim();
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')).then(|| s.to_string())
}

fn scm(id: &str) -> Vec<Entity> {
    Entity::scm(id.trim()).into_iter().collect()
}

fn member_entities(member: &str) -> Vec<Entity> {
    entity::member_id(member)
        .map(|(m, _)| {
            let mut v: Vec<Entity> = Entity::scm(m.peer).into_iter().collect();
            v.extend(Entity::group(m.group));
            v
        })
        .unwrap_or_default()
}

/// A datanode printed as `uuid(host/ip)` filling the whole placeholder (`DatanodeDetails`); its
/// lower-case uuid and entity.
fn datanode(s: &str) -> Option<(String, Vec<Entity>)> {
    let s = s.trim();
    let (dn, len) = entity::datanode_details(s)?;
    (len == s.len()).then(|| (dn.uuid.to_ascii_lowercase(), vec![dn.entity()]))
}

/// Every datanode printed in `s` (lists `[a, b]`).
fn datanodes_in(s: &str) -> Vec<Entity> {
    let mut out: Vec<Entity> = Vec::new();
    for found in entity::find_datanode_details(s) {
        let e = found.value.entity();
        if !out.contains(&e) {
            out.push(e);
        }
    }
    out
}

/// The `<hex>` of `…DatanodeAdminMonitorImpl$TrackedNode@<hex>`.
fn hash_hex(s: &str) -> Option<String> {
    let s = s.trim();
    if !s.contains("TrackedNode@") {
        return None;
    }
    entity::tracked_node_hash(s).map(|h| format!("{h:x}"))
}

fn node(kind: &'static str, c: &[&str]) -> Option<Built> {
    let (uuid, entities) = datanode(c[0])?;
    Some((
        ScmEvent::Node {
            kind,
            datanode: uuid,
            state: None,
        },
        entities,
    ))
}

fn node_state(kind: &'static str, c: &[&str]) -> Option<Built> {
    let (uuid, entities) = datanode(c[0])?;
    Some((
        ScmEvent::Node {
            kind,
            datanode: uuid,
            state: Some(c[1].trim().to_string()),
        },
        entities,
    ))
}

fn host(kind: &'static str, c: &[&str]) -> Option<Built> {
    let name = c[0].trim();
    let entity = Entity::datanode_host(name)?;
    Some((
        ScmEvent::Host {
            kind,
            host: name.to_string(),
        },
        vec![entity],
    ))
}

fn notice_of(kind: &'static str, c: &[&str]) -> ScmEvent {
    ScmEvent::Notice {
        kind,
        values: c.iter().map(|v| v.trim().to_string()).collect(),
    }
}

fn notice(kind: &'static str, c: &[&str]) -> Option<Built> {
    Some((notice_of(kind, c), Vec::new()))
}

fn ha_notice(kind: &'static str, c: &[&str]) -> Option<Built> {
    let entities = c.iter().flat_map(|v| member_entities(v)).collect();
    Some((
        ScmEvent::HaNotice {
            kind,
            values: c.iter().map(|v| v.trim().to_string()).collect(),
        },
        entities,
    ))
}

/// A notice whose values name datanodes, pipelines or containers in any printed form.
fn notice_with_entities(kind: &'static str, c: &[&str]) -> Option<Built> {
    let mut entities = Vec::new();
    for value in c {
        entities.extend(datanodes_in(value));
        entities.extend(entity::find_pipelines(value).filter_map(|m| Entity::pipeline(m.value)));
        entities.extend(entity::find_containers(value).map(|m| Entity::Container(m.value)));
    }
    entities.dedup();
    Some((notice_of(kind, c), entities))
}

fn service_status(_: &'static str, c: &[&str]) -> Option<Built> {
    Some((
        ScmEvent::ServiceStatus {
            service: c[0].trim().to_string(),
            status: word(c[1])?,
        },
        Vec::new(),
    ))
}

fn requested(action: AdminAction, c: &[&str]) -> Option<Built> {
    let datanodes: Vec<Entity> = datanodes_in(c[1]);
    let uuids = datanodes
        .iter()
        .filter_map(|e| match e {
            Entity::Datanode(u) => Some(u.clone()),
            _ => None,
        })
        .collect();
    Some((
        ScmEvent::AdminRequested {
            action,
            force: boolean(c[0])?,
            datanodes: uuids,
        },
        datanodes,
    ))
}

fn started(action: AdminAction, dn: &str) -> Option<Built> {
    let (uuid, entities) = datanode(dn)?;
    Some((
        ScmEvent::AdminStarted {
            action,
            datanode: uuid,
        },
        entities,
    ))
}

fn not_started(kind: &'static str, action: AdminAction, c: &[&str]) -> Option<Built> {
    let (uuid, entities) = datanode(c[0])?;
    Some((
        ScmEvent::AdminNotStarted {
            kind,
            action,
            datanode: uuid,
            op_state: word(c[1])?,
        },
        entities,
    ))
}

fn tracked_node(kind: &'static str, c: &[&str]) -> Option<Built> {
    Some((
        ScmEvent::TrackedNode {
            kind,
            tracked_node: hash_hex(c[0])?,
        },
        Vec::new(),
    ))
}

fn admin_container(kind: &'static str, c: &[&str]) -> Option<Built> {
    let container = entity::container_id(c[0].trim())?;
    let mut entities = vec![Entity::Container(container)];
    entities.extend(datanodes_in(c[2]));
    Some((
        ScmEvent::AdminContainer {
            kind,
            container,
            replica_count: c[1].trim().to_string(),
        },
        entities,
    ))
}

fn node_pipelines(kind: &'static str, c: &[&str]) -> Option<Built> {
    let (uuid, mut entities) = datanode(c[0])?;
    let pipelines: Vec<String> = entity::find_pipelines(c[1])
        .map(|m| m.value.to_ascii_lowercase())
        .collect();
    entities.extend(pipelines.iter().filter_map(|p| Entity::pipeline(p)));
    Some((
        ScmEvent::NodePipelines {
            kind,
            datanode: uuid,
            pipelines,
        },
        entities,
    ))
}

fn finalize_failed(handler: &'static str, c: &[&str]) -> Option<Built> {
    let (uuid, mut entities) = datanode(c[1])?;
    let (pipeline, _) = entity::pipeline_id(c[0].trim())?;
    let pipeline = pipeline.to_ascii_lowercase();
    entities.extend(Entity::pipeline(&pipeline));
    Some((
        ScmEvent::PipelineFinalizeFailed {
            pipeline,
            datanode: uuid,
            handler,
        },
        entities,
    ))
}

fn queue_cleared(_: &'static str, c: &[&str]) -> Option<Built> {
    let (uuid, entities) = datanode(c[1])?;
    Some((
        ScmEvent::CommandQueueCleared {
            datanode: uuid,
            size: num(c[0])?,
        },
        entities,
    ))
}

fn op_state_mismatch(kind: &'static str, c: &[&str]) -> Option<Built> {
    let (uuid, entities) = datanode(c[0])?;
    Some((
        ScmEvent::OpStateMismatch {
            kind,
            datanode: uuid,
            reported: word(c[1])?,
            reported_expiry: num(c[2])?,
            stored: word(c[3])?,
            stored_expiry: num(c[4])?,
        },
        entities,
    ))
}

/// `DatanodeDetails.toDebugString()`: `<uuid>{ip: <ip>, host: <host>, ports: [...], …,
/// persistedOpState: IN_SERVICE, persistedOpStateExpiryEpochSec: 0}`.
fn registered(_: &'static str, c: &[&str]) -> Option<Built> {
    let text = c[0].trim();
    let (dn, _) = entity::datanode_details(text)?;
    let field = |name: &str| {
        let at = text.find(name)? + name.len();
        let rest = &text[at..];
        let end = rest.find([',', '}']).unwrap_or(rest.len());
        Some(rest[..end].trim())
    };
    Some((
        ScmEvent::Registered {
            datanode: dn.uuid.to_ascii_lowercase(),
            host: dn.host.to_string(),
            ip: dn.ip.to_string(),
            persisted_op_state: field("persistedOpState: ").and_then(word),
            persisted_op_state_expiry: field("persistedOpStateExpiryEpochSec: ").and_then(num),
        },
        vec![dn.entity()],
    ))
}

/// `NodeStatus.toString()`: `<OPSTATE>(no expiry)-<HEALTH>` or `<OPSTATE>(expiry: <s>s)-<HEALTH>`.
fn node_status(s: &str) -> Option<(String, String)> {
    let s = s.trim();
    let open = s.find('(')?;
    let close = s.rfind(")-")?;
    Some((word(&s[..open])?, word(&s[close + 2..])?))
}

/// `SetNodeOperationalStateCommand.toString()` entries of `Heartbeat dispatched … with commands
/// [a, b]`: `setNodeOperationalStateCommand: cmdID: 1, encodedToken: "", term: 5,
/// deadlineMsSinceEpoch: 0, opState: IN_SERVICE, stateExpiryEpochSeconds: 0`. Other commands keep
/// their type, id and term.
fn dispatched_commands(list: &str) -> Vec<HeartbeatCommand> {
    let inner = list
        .trim()
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .unwrap_or("");
    let mut out = Vec::new();
    let mut starts: Vec<usize> = Vec::new();
    // A command starts at the beginning or after `, ` followed by `<name>Command: `.
    let mut at = 0;
    while at < inner.len() {
        let rest = &inner[at..];
        let word_len = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        if word_len > 0
            && rest[..word_len].ends_with("Command")
            && rest[word_len..].starts_with(": ")
        {
            starts.push(at);
        }
        match rest.find(", ") {
            Some(i) => at += i + 2,
            None => break,
        }
    }
    for (n, &start) in starts.iter().enumerate() {
        let end = starts.get(n + 1).map_or(inner.len(), |&e| e - 2);
        let entry = &inner[start..end];
        let Some((command_type, fields)) = entry.split_once(": ") else {
            continue;
        };
        let value = |name: &str| {
            fields
                .split(", ")
                .find_map(|f| f.strip_prefix(name))
                .map(str::trim)
        };
        out.push(HeartbeatCommand {
            command_type: command_type.to_string(),
            op_state: value("opState: ").and_then(word),
            term: value("term: ").and_then(num),
            cmd_id: value("cmdID: ").and_then(num),
        });
    }
    out
}

/// The SEND_HEARTBEAT `command` param (`constructCommandAuditMap`): entries joined by `, ` in
/// brackets, each `TextFormat.shortDebugString(SCMCommandProto)`: `commandType: <type>
/// <xxx>CommandProto { … } term: <t> encodedToken: "…" deadlineMsSinceEpoch: <d>`. No entry holds
/// `, commandType: `, so that splits them.
fn audit_commands(list: &str) -> Vec<HeartbeatCommand> {
    let inner = list
        .trim()
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .unwrap_or("");
    if inner.trim().is_empty() {
        return Vec::new();
    }
    inner
        .split(", commandType: ")
        .filter_map(|entry| {
            let entry = entry.strip_prefix("commandType: ").unwrap_or(entry);
            let command_type = entry.split_whitespace().next()?.to_string();
            // The top-level `term:` follows the nested proto's closing brace.
            let top = entry.rfind('}').map_or(entry, |i| &entry[i..]);
            let after = |text: &str, name: &str| {
                text.find(name).and_then(|i| {
                    text[i + name.len()..]
                        .split_whitespace()
                        .next()
                        .map(str::to_string)
                })
            };
            Some(HeartbeatCommand {
                command_type,
                op_state: after(entry, "nodeOperationalState: ").and_then(|s| word(&s)),
                term: after(top, " term: ").and_then(|s| num(&s)),
                cmd_id: after(entry, "cmdId: ")
                    .or_else(|| after(entry, "cmdID: "))
                    .and_then(|s| num(&s)),
            })
        })
        .collect()
}

fn audit(body: &AuditBody) -> Typed {
    let params = &body.params;
    let mut entities = Vec::new();
    let (mut action, mut force, mut nodes) = (None, None, Vec::new());
    let mut commands = Vec::new();
    match body.op.as_str() {
        "DECOMMISSION_NODES" | "START_MAINTENANCE_NODES" => {
            force = params.get("force").and_then(boolean);
            action = Some(match (body.op.as_str(), params.get("force")) {
                ("START_MAINTENANCE_NODES", _) => AdminAction::Maintenance,
                (_, Some(_)) => AdminAction::Decommission,
                (_, None) => AdminAction::Recommission,
            });
            nodes = params
                .get("nodes")
                .map(|n| entity::host_list(n).map(str::to_string).collect())
                .unwrap_or_default();
            entities.extend(nodes.iter().filter_map(|h| Entity::datanode_host(h)));
        }
        "SEND_HEARTBEAT" => {
            commands = params
                .get("command")
                .map(audit_commands)
                .unwrap_or_default();
        }
        _ => {}
    }
    entities.extend(params.get("datanodeUUID").and_then(Entity::datanode));
    entities.extend(
        params
            .get("datanodeDetails")
            .map(datanodes_in)
            .unwrap_or_default(),
    );
    entities.extend(
        params
            .get("containerID")
            .and_then(entity::container_id)
            .map(Entity::Container),
    );
    Typed {
        data: super::EventData::Scm(ScmEvent::Audit(ScmAudit {
            user: body.user.clone(),
            ip: body.ip.clone(),
            op: body.op.clone(),
            params: params.clone(),
            ret: body.ret.as_str().to_string(),
            term: params.get("term").and_then(num),
            action,
            force,
            nodes,
            commands,
        })),
        entities,
    }
}

// ---------------------------------------------------------------------------------------------
// Matching

/// Matches `message` against `template` fragment by fragment, pushing each placeholder's text.
/// Trailing whitespace is ignored on both sides (some templates end in a space).
fn match_template<'a>(template: &str, message: &'a str, caps: &mut Vec<&'a str>) -> bool {
    caps.clear();
    let template = template.trim_end();
    let message = message.trim_end();
    let mut fragments = template.split("{}");
    let Some(first) = fragments.next() else {
        return false;
    };
    let Some(mut rest) = message.strip_prefix(first) else {
        return false;
    };
    let mut fragments = fragments.peekable();
    while let Some(fragment) = fragments.next() {
        if fragments.peek().is_none() {
            // The last placeholder runs up to the template's tail.
            let Some(value) = rest.strip_suffix(fragment) else {
                return false;
            };
            caps.push(value);
            return true;
        }
        if fragment.is_empty() {
            return false;
        }
        let Some(at) = rest.find(fragment) else {
            return false;
        };
        caps.push(&rest[..at]);
        rest = &rest[at + fragment.len()..];
    }
    // No placeholder: the whole message is the template.
    rest.is_empty()
}

/// Pattern indexes by simple class name.
static BY_CLASS: LazyLock<HashMap<&'static str, Vec<usize>>> = LazyLock::new(|| {
    let mut map: HashMap<&'static str, Vec<usize>> = HashMap::new();
    for (i, p) in PATTERNS.iter().enumerate() {
        map.entry(p.class).or_default().push(i);
    }
    map
});

const HA_PACKAGE: &str = "org.apache.hadoop.hdds.scm.ha";

/// SCMStateMachine/SCMContext lines run on the SCM's own Ratis threads
/// (`<scmId>@group-<12HEX>-LeaderStateImpl`, `…-StateMachineUpdater`, `…-LeaderElection7`; §1.3):
/// the thread names the SCM even where the message does not (`update <isLeader,term> …`).
fn own_member_from_thread(thread: Option<&str>, entities: &mut Vec<Entity>) {
    let Some((member, _)) = thread.and_then(entity::member_id) else {
        return;
    };
    for e in Entity::scm(member.peer)
        .into_iter()
        .chain(Entity::group(member.group))
    {
        if !entities.contains(&e) {
            entities.push(e);
        }
    }
}

/// Whether `logger` names `package.class` in full or abbreviated by `%c{n}` (`node.SCMNodeManager`,
/// `SCMNodeManager`).
fn logger_is(logger: &str, package: &str, class: &str) -> bool {
    match logger.strip_suffix(class) {
        Some("") => true,
        Some(prefix) => prefix.strip_suffix('.').is_some_and(|p| {
            package == p
                || package
                    .strip_suffix(p)
                    .is_some_and(|head| head.ends_with('.'))
        }),
        None => false,
    }
}

/// Types one SCM record, or `None` when no template of this module matches.
pub fn parse(input: &Input<'_>) -> Option<Typed> {
    let record = input.record;
    if let Some(body) = input.audit {
        let is_scm_audit =
            input.component == Component::ScmAudit || record.logger.as_deref() == Some("SCMAudit");
        return is_scm_audit.then(|| audit(body));
    }
    let logger = record.logger.as_deref()?;
    if logger == "SCMAudit" {
        // An audit record in a stream whose component is not the audit's (a compose service).
        return parse_audit_body(&record.message)
            .ok()
            .map(|(body, _)| audit(&body));
    }
    let class = logger_class(logger);
    let candidates = BY_CLASS.get(class)?;
    let mut caps = Vec::with_capacity(6);
    for &i in candidates {
        let pattern = &PATTERNS[i];
        if !logger_is(logger, pattern.package, pattern.class) {
            continue;
        }
        if match_template(pattern.template, &record.message, &mut caps)
            && let Some((event, mut entities)) = (pattern.build)(pattern.kind, &caps)
        {
            if pattern.package == HA_PACKAGE {
                own_member_from_thread(record.thread.as_deref(), &mut entities);
            }
            return Some(Typed {
                data: super::EventData::Scm(event),
                entities,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests;
