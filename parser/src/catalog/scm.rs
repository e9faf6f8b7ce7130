//! SCM statements of ../shared/ozone-logs/scm.md: the SCM audit log (§1.2), leadership and HA
//! (§2.1), and the decommission / maintenance admin flow with node health and registration
//! (§2.2). Container report handlers, ReplicationManager and deleted blocks live in
//! `scm_container.rs`; Ratis's own `changes role` lines in `ratis.rs`.
//!
//! `TrackedNode@<hex>` lines (`Recommissioned node {}`, `Waiting for pipelines …`, `{} has {}
//! sufficientlyReplicated …`) carry the hash as `tracked_node` and no datanode entity: the hash is
//! resolved against the datanodes seen anywhere in the trace by the `node-admin` machine
//! (`oztrace_analyzer::machines::node_admin`), since a record's parse sees no earlier lines.

use super::template::{Matched, Slot, catalogue};
use super::{Input, Typed};
use crate::audit::{AuditBody, Params, parse_audit_body};
use crate::entity::{self, Entity};
use crate::source::Component;
use serde::Serialize;

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

impl HeartbeatCommand {
    /// The operational state it sets, if it is a `setNodeOperationalStateCommand`.
    pub fn sets_op_state(&self) -> Option<&str> {
        (self.command_type == "setNodeOperationalStateCommand")
            .then_some(self.op_state.as_deref())
            .flatten()
    }
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

/// The fields of [`ScmEvent::Registered`], boxed: once per registration, and among the largest
/// payloads (issue 11).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Registered {
    pub datanode: String,
    pub host: String,
    pub ip: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub persisted_op_state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub persisted_op_state_expiry: Option<i64>,
}

/// The fields of [`ScmEvent::NodeStatusUpdated`], boxed: once per node state change, and the
/// largest payload (issue 11).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeStatusUpdated {
    pub datanode: String,
    pub old_op_state: String,
    pub old_health: String,
    pub new_op_state: String,
    pub new_health: String,
}

/// Typed fields of SCM statements. Simple notices share a variant and carry their kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ScmEvent {
    /// Boxed: the largest SCM payload, so every `Event` stays small to move (issue 11).
    Audit(Box<ScmAudit>),
    /// `current SCM {} becomes leader of term {}`.
    BecameLeader { scm_id: String, term: u64 },
    /// `Leader changed to {}, current SCM {} is still follower.`
    LeaderChanged { leader: String, scm_id: String },
    /// `SCM {} steps down from being leader.`
    SteppedDown { scm_id: String },
    /// `update <isLeader,term> from <{},{}> to <{},{}>`.
    RoleUpdate {
        was_leader: bool,
        old_term: i64,
        is_leader: bool,
        new_term: i64,
    },
    /// `update <isLeaderReady> from <{}> to <{}>`.
    LeaderReadyUpdate { was_ready: bool, is_ready: bool },
    /// ` scm role is {} peers {}` (startup).
    StartupRole { role: String, peers: String },
    /// `Service {} transitions to {}.` / `notifyStatusChanged:RUNNING`.
    ServiceStatus { service: String, status: String },
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
    AdminAborted { datanode: String, op_state: String },
    /// `Datanode {} has completed the admin workflow. The operational state has been set to {}`.
    AdminCompleted { datanode: String, op_state: String },
    /// `There are {} nodes tracked for decommission and maintenance.  {} pending nodes.`
    TrackedCount { tracked: u64, pending: u64 },
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
    Registered(Box<Registered>),
    /// `Updating nodeOperationalState on registration as the datanode has a persisted state of {}
    /// and expiry of {}` (no datanode id in the line).
    OpStateOnRegistration { op_state: String, expiry: i64 },
    /// `Updated datanode {} {} to {} {}` (NodeStatus `<OP>(no expiry)-<HEALTH>`).
    NodeStatusUpdated(Box<NodeStatusUpdated>),
    /// `Clearing command queue of size {} for DN {}`.
    CommandQueueCleared { datanode: String, size: u64 },
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
            ScmEvent::Registered(_) => "datanode_registered",
            ScmEvent::OpStateOnRegistration { .. } => "op_state_on_registration",
            ScmEvent::NodeStatusUpdated(_) => "node_status_updated",
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

/// What one statement's builder returns.
type Built = (ScmEvent, Vec<Entity>);

const HA_SM: &str = "org.apache.hadoop.hdds.scm.ha.SCMStateMachine";
const HA_CONTEXT: &str = "org.apache.hadoop.hdds.scm.ha.SCMContext";
const STARTER: &str = "org.apache.hadoop.hdds.scm.server.StorageContainerManagerStarter";
const DECOMMISSION: &str = "org.apache.hadoop.hdds.scm.node.NodeDecommissionManager";
const MONITOR: &str = "org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl";
const DEAD: &str = "org.apache.hadoop.hdds.scm.node.DeadNodeHandler";
const DISPATCHER: &str = "org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher";
const NODE_MANAGER: &str = "org.apache.hadoop.hdds.scm.node.SCMNodeManager";
const NODE_STATE: &str = "org.apache.hadoop.hdds.scm.node.NodeStateManager";
const BLOCK_DELETING: &str = "org.apache.hadoop.hdds.scm.block.SCMBlockDeletingService";

catalogue! {
    event ScmEvent;
    structured {
        "scm_audit", "scm-audit", "INFO", "org.apache.hadoop.ozone.audit.AuditMessage (logger SCMAudit)",
            "1.3–HEAD", "scm.md 1.2", "user={} | ip={} | op={} {} | ret={}";
    }
    log "scm" {
    // ---- §2.1 SCMStateMachine (string concatenations, shown with {} for the values)
    "scm_became_leader", "INFO", HA_SM, "1.3–HEAD", "scm.md 2.1",
        "current SCM {} becomes leader of term {}" [Name, U64] =>
        |m| Some((ScmEvent::BecameLeader { scm_id: m.lower(0), term: m.u64(1)? }, scm(m.text(0)))),
    "scm_leader_changed", "INFO", HA_SM, "2.2–HEAD", "scm.md 2.1",
        "Leader changed to {}, current SCM {} is still follower." [Name, Name] =>
        |m| Some((ScmEvent::LeaderChanged { leader: m.lower(0), scm_id: m.lower(1) }, scm(m.text(1)))),
    "scm_stepped_down", "INFO", HA_SM, "2.2–HEAD", "scm.md 2.1",
        "SCM {} steps down from being leader." [Name] =>
        |m| Some((ScmEvent::SteppedDown { scm_id: m.lower(0) }, scm(m.text(0)))),
    "scm_apply_transaction", "DEBUG", HA_SM, "2.0–HEAD", "scm.md 2.1",
        "{}: applyTransaction {}" [Member, TermIndex] =>
        |m| {
            let ti = entity::term_index(m.text(1)).map(|(t, _)| t);
            Some((ScmEvent::ApplyTransaction {
                member: m.string(0),
                term: ti.and_then(|t| t.term),
                index: ti.and_then(|t| t.index),
            }, member_entities(m.text(0))))
        },
    "scm_follower_caught_up", "INFO", HA_SM, "HEAD (unreleased)", "scm.md 2.1",
        "Follower caught up with leader: lastAppliedIndex={}, leaderCommitOnStart={}" [Text, Text] => ha_notice,
    "scm_install_snapshot_notified", "INFO", HA_SM, "1.3–HEAD", "scm.md 2.1",
        "Received install snapshot notification from SCM leader: {} with term index: {}" [Text, Text] => ha_notice,
    "scm_state_machine_reinitializing", "INFO", HA_SM, "2.0–HEAD", "scm.md 2.1",
        "{}: SCMStateMachine is reinitializing. newTermIndex = {}" [Text, Text] => ha_notice,
    "scm_append_log_failed", "ERROR", HA_SM, "1.3–HEAD", "scm.md 2.1",
        "SCM statemachine appendLog failed, entry: {}" [Text] => ha_notice,
    // ---- §2.1 SCMContext
    "scm_role_update", "INFO", HA_CONTEXT, "1.3–HEAD", "scm.md 2.1",
        "update <isLeader,term> from <{},{}> to <{},{}>" [Bool, I64, Bool, I64] =>
        |m| Some((ScmEvent::RoleUpdate {
            was_leader: m.bool(0)?, old_term: m.i64(1)?, is_leader: m.bool(2)?, new_term: m.i64(3)?,
        }, Vec::new())),
    "scm_leader_ready_update", "INFO", HA_CONTEXT, "1.3–HEAD", "scm.md 2.1",
        "update <isLeaderReady> from <{}> to <{}>" [Bool, Bool] =>
        |m| Some((ScmEvent::LeaderReadyUpdate { was_ready: m.bool(0)?, is_ready: m.bool(1)? }, Vec::new())),
    "scm_term_not_leader", "WARN", HA_CONTEXT, "1.3–HEAD", "scm.md 2.1",
        "getTerm is invoked when not leader." [] => notice,
    "scm_safe_mode_status", "INFO", HA_CONTEXT, "1.3–HEAD", "scm.md 2.1",
        "Update SafeModeStatus from {} to {}." [Text, Text] => ha_notice,
    // ---- HddsServerUtil.startupShutdownMessage through the starter's logger (not in scm.md): the
    // banner's `/****`, `STARTUP_MSG: Starting StorageContainerManager`, `host = …` lines follow
    // as continuation lines; read at ozone-2.0.0 (line 700/731) to ozone-2.2.0 (794/825)
    "scm_started", "INFO", STARTER, "2.0–HEAD", "not in scm.md: HddsServerUtil.startupShutdownMessage",
        "STARTUP_MSG:" [] => notice,
    "scm_shutdown", "INFO", STARTER, "2.0–HEAD", "not in scm.md: HddsServerUtil.startupShutdownMessage",
        "SHUTDOWN_MSG:" [] => notice,
    // ---- §2.1 SCMHAManagerImpl, service status
    "scm_startup_role", "INFO", "org.apache.hadoop.hdds.scm.ha.SCMHAManagerImpl", "1.3–HEAD", "scm.md 2.1",
        " scm role is {} peers {}" [Text, Text] =>
        |m| Some((ScmEvent::StartupRole { role: m.string(0), peers: m.string(1) }, Vec::new())),
    // The state is a literal of the source: RUNNING, and PAUSING for BackgroundSCMService.
    "scm_service_status", "INFO", "org.apache.hadoop.hdds.scm.ha.BackgroundSCMService", "1.3–HEAD", "scm.md 2.1",
        "Service {} transitions to {}." [Text, Word] => service_status,
    "scm_service_status", "INFO", "org.apache.hadoop.hdds.scm.container.replication.ReplicationManager", "1.3–HEAD", "scm.md 2.1",
        "Service {} transitions to {}." [Text, Word] => service_status,
    "scm_service_status", "INFO", "org.apache.hadoop.hdds.scm.pipeline.BackgroundPipelineCreator", "1.3–HEAD", "scm.md 2.1",
        "Service {} transitions to {}." [Text, Word] => service_status,
    "scm_service_status", "INFO", BLOCK_DELETING, "1.4.1–HEAD", "scm.md 2.1",
        "notifyStatusChanged:{}" [Text] =>
        |m| Some((ScmEvent::ServiceStatus { service: "SCMBlockDeletingService".into(), status: m.string(0) }, Vec::new())),

    // ---- §2.2 NodeDecommissionManager
    "admin_requested", "INFO", DECOMMISSION, "2.0–HEAD", "scm.md 2.2",
        "Force flag = {}. Checking if decommission is possible for dns: {}" [Bool, Datanodes] =>
        |m| requested(AdminAction::Decommission, m),
    "admin_requested", "INFO", DECOMMISSION, "2.0–HEAD", "scm.md 2.2",
        "Force flag = {}. Skip checking if decommission is possible for dns: {}" [Bool, Datanodes] =>
        |m| requested(AdminAction::Decommission, m),
    "admin_requested", "INFO", DECOMMISSION, "2.0–HEAD", "scm.md 2.2",
        "Force flag = {}. Checking if maintenance is possible for dns: {}" [Bool, Datanodes] =>
        |m| requested(AdminAction::Maintenance, m),
    "admin_requested", "INFO", DECOMMISSION, "2.0–HEAD", "scm.md 2.2",
        "Force flag = {}. Skip checking if maintenance is possible for dns: {}" [Bool, Datanodes] =>
        |m| requested(AdminAction::Maintenance, m),
    "admin_insufficient_nodes", "ERROR", DECOMMISSION, "2.0–HEAD", "scm.md 2.2",
        "Cannot decommission nodes as sufficient node are not available." [] => notice,
    "admin_insufficient_nodes", "ERROR", DECOMMISSION, "2.0–HEAD", "scm.md 2.2",
        "Cannot put nodes to maintenance as sufficient node are not available." [] => notice,
    "admin_insufficient_nodes_detail", "INFO", DECOMMISSION, "2.0–HEAD", "scm.md 2.2",
        "Insufficient nodes. Tried to decommission {} nodes out of {} IN-SERVICE HEALTHY and {} not IN-SERVICE or not HEALTHY nodes. Cannot decommission as a minimum of {} IN-SERVICE HEALTHY nodes are required to maintain replication after decommission. Failing due to datanode : {}, container : {}"
        [U64, U64, U64, U64, Datanode, Container] => insufficient_nodes,
    "admin_insufficient_nodes_detail", "INFO", DECOMMISSION, "2.0–HEAD", "scm.md 2.2",
        "Insufficient nodes. Tried to start maintenance for {} nodes out of {} IN-SERVICE HEALTHY and {} not IN-SERVICE or not HEALTHY nodes. Cannot enter maintenance mode as a minimum of {} IN-SERVICE HEALTHY nodes are required to maintain replication after maintenance. Failing due to datanode : {}, container : {}"
        [U64, U64, U64, U64, Datanode, Container] => insufficient_nodes,
    "admin_host_rejected", "WARN", DECOMMISSION, "2.0–HEAD", "scm.md 2.2",
        "Cannot decommission {} because it is not IN-SERVICE" [Name] => host,
    "admin_host_rejected", "WARN", DECOMMISSION, "2.0–HEAD", "scm.md 2.2",
        "Cannot decommission {} because it is not found in SCM" [Name] => host,
    "decommission_started", "INFO", DECOMMISSION, "1.3–HEAD", "scm.md 2.2",
        "Starting Decommission for node {}" [Datanode] =>
        |m| started(AdminAction::Decommission, m),
    "admin_start_noop", "INFO", DECOMMISSION, "1.3–HEAD", "scm.md 2.2",
        "Start Decommission called on node {} in state {}. Nothing to do." [Datanode, Word] =>
        |m| not_started(AdminAction::Decommission, m),
    "admin_start_refused", "ERROR", DECOMMISSION, "1.3–HEAD", "scm.md 2.2",
        "Cannot decommission node {} in state {}" [Datanode, Word] =>
        |m| not_started(AdminAction::Decommission, m),
    "recommission_queued", "INFO", DECOMMISSION, "1.3–HEAD", "scm.md 2.2, 4.4(a)",
        "Queued node {} for recommission" [Datanode] => node,
    "admin_start_noop", "INFO", DECOMMISSION, "1.3–HEAD", "scm.md 2.2",
        "Recommission called on node {} with state {}. Nothing to do." [Datanode, Word] =>
        |m| not_started(AdminAction::Recommission, m),
    "recommission_host_not_found", "WARN", DECOMMISSION, "1.3–HEAD", "scm.md 2.2",
        "Host {} was not found in SCM. Ignoring the request to recommission it." [Name] => host,
    "maintenance_started", "INFO", DECOMMISSION, "1.3–HEAD", "scm.md 2.2",
        "Starting Maintenance for node {}" [Datanode] =>
        |m| started(AdminAction::Maintenance, m),
    "admin_start_noop", "INFO", DECOMMISSION, "1.3–HEAD", "scm.md 2.2",
        "Starting Maintenance called on node {} with state {}. Nothing to do." [Datanode, Word] =>
        |m| not_started(AdminAction::Maintenance, m),
    "admin_start_refused", "ERROR", DECOMMISSION, "1.3–HEAD", "scm.md 2.2",
        "Cannot start maintenance on node {} in state {}" [Datanode, Word] =>
        |m| not_started(AdminAction::Maintenance, m),
    "continue_admin_ignored", "INFO", DECOMMISSION, "1.3–HEAD", "scm.md 2.2",
        "follower SCM ignored continue admin for datanode {}" [Datanode] => node,
    "continue_admin", "INFO", DECOMMISSION, "1.3–HEAD", "scm.md 2.2, 4.2 step 7",
        "Continue admin for datanode {}" [Datanode] => node,
    "admin_node_not_found", "WARN", DECOMMISSION, "1.3–HEAD", "scm.md 2.2",
        "NodeNotFound when adding the node to the decommissionManager" [] => notice,
    "admin_host_unresolved", "WARN", DECOMMISSION, "1.3–HEAD", "scm.md 2.2",
        "Unable to resolve host {} " [Name] => host,

    // ---- §2.2 DatanodeAdminMonitorImpl
    "admin_tracked_count", "INFO", MONITOR, "1.3–HEAD", "scm.md 2.2, 4.2 step 3",
        "There are {} nodes tracked for decommission and maintenance.  {} pending nodes." [U64, U64] =>
        |m| Some((ScmEvent::TrackedCount { tracked: m.u64(0)?, pending: m.u64(1)? }, Vec::new())),
    "admin_recommissioned", "INFO", MONITOR, "1.3–HEAD", "scm.md 2.2, 3",
        "Recommissioned node {}" [TrackedNode] => tracked_node,
    "admin_cancel_failed", "WARN", MONITOR, "1.3–HEAD", "scm.md 2.2",
        "Failed processing the cancel admin request for {}" [TrackedNode] => tracked_node,
    "admin_aborted", "WARN", MONITOR, "1.3–HEAD", "scm.md 2.2, 4.2 step 5",
        "Datanode {} has an operational state of {} when it should be undergoing decommission or maintenance. Aborting admin for this node." [Datanode, Word] =>
        |m| {
            let (uuid, entities) = datanode(m, 0)?;
            Some((ScmEvent::AdminAborted { datanode: uuid, op_state: m.word(1)? }, entities))
        },
    "admin_aborted_dead", "ERROR", MONITOR, "1.3–HEAD", "scm.md 2.2, 4.4(c)",
        "Datanode {} is dead but is not IN_MAINTENANCE. Aborting the admin workflow for this node" [Datanode] => node,
    "admin_dead_cannot_continue", "WARN", MONITOR, "1.3–HEAD", "scm.md 2.2",
        "Datanode {} is dead and the admin workflow cannot continue. The node will be put back to IN_SERVICE and handled as a dead node" [Datanode] => node,
    "admin_unexpected_error", "ERROR", MONITOR, "1.3–HEAD", "scm.md 2.2",
        "An unexpected error occurred processing datanode {}. Aborting the admin workflow" [Datanode] => node,
    "admin_abort_write_failed", "ERROR", MONITOR, "1.3–HEAD", "scm.md 2.2",
        "Unable to set the node OperationalState for {} while aborting the datanode admin workflow" [Datanode] => node,
    "admin_waiting_for_pipelines", "INFO", MONITOR, "1.3–HEAD", "scm.md 2.2",
        "Waiting for pipelines to close for {}. There are {} pipelines" [TrackedNode, U64] =>
        |m| {
            let (tracked_node, entities) = tracked(m.text(0))?;
            Some((ScmEvent::WaitingForPipelines { tracked_node, pipelines: m.u64(1)? }, entities))
        },
    "admin_unclosed_container", "INFO", MONITOR, "1.4–HEAD", "scm.md 2.2",
        "Unclosed Container {} {}; {}" [Container, Text, Datanodes] => admin_container,
    "admin_under_replicated_container", "INFO", MONITOR, "1.3–HEAD", "scm.md 2.2",
        "Under Replicated Container {} {}; {}" [Container, Text, Datanodes] => admin_container,
    "admin_container_not_found", "WARN", MONITOR, "1.3–HEAD", "scm.md 2.2",
        "ContainerID {} present in node list for {} but not found in containerManager" [Container, Datanode] =>
        |m| {
            let mut entities = datanodes_in(m.text(1));
            entities.extend(m.container(0).map(Entity::Container));
            Some((notice_of(m), entities))
        },
    "admin_replication_status", "INFO", MONITOR, "1.4–HEAD", "scm.md 2.2, 4.4(b)",
        "{} has {} sufficientlyReplicated, {} deleting, {} underReplicated and {} unclosed containers"
        [TrackedNode, U64, U64, U64, U64] =>
        |m| {
            let (tracked_node, entities) = tracked(m.text(0))?;
            Some((ScmEvent::ReplicationStatus {
                tracked_node,
                sufficiently_replicated: m.u64(1)?,
                deleting: m.u64(2)?,
                under_replicated: m.u64(3)?,
                unclosed: m.u64(4)?,
            }, entities))
        },
    "admin_completed", "INFO", MONITOR, "1.3–HEAD", "scm.md 2.2, 4.4(b)",
        "Datanode {} has completed the admin workflow. The operational state has been set to {}" [Datanode, Word] =>
        |m| {
            let (uuid, entities) = datanode(m, 0)?;
            Some((ScmEvent::AdminCompleted { datanode: uuid, op_state: m.word(1)? }, entities))
        },
    "admin_entered_maintenance", "INFO", MONITOR, "1.3–HEAD", "scm.md 2.2",
        "Datanode {} has entered maintenance" [Datanode] => node,
    "admin_maintenance_ended", "INFO", MONITOR, "1.3–HEAD", "scm.md 2.2",
        "Datanode {} has ended maintenance automatically" [Datanode] => node,
    "admin_monitor_error", "ERROR", MONITOR, "1.3–HEAD", "scm.md 2.2",
        "Caught an error in the DatanodeAdminMonitor" [] => notice,

    // ---- §2.2 event handlers
    "node_healthy", "INFO", "org.apache.hadoop.hdds.scm.node.ReadOnlyHealthyToHealthyNodeHandler", "1.3–HEAD", "scm.md 2.2",
        "Datanode {} moved to HEALTHY state." [Datanode] => node,
    "admin_start_on_node", "INFO", "org.apache.hadoop.hdds.scm.node.StartDatanodeAdminHandler", "1.3–HEAD", "scm.md 2.2",
        "Admin start on datanode {}. Finalizing its pipelines {}" [Datanode, Pipelines] => node_pipelines,
    "pipeline_finalize_failed", "INFO", "org.apache.hadoop.hdds.scm.node.StartDatanodeAdminHandler", "1.3–HEAD", "scm.md 2.2",
        "Could not finalize pipeline={} for dn={}" [Pipeline, Datanode] =>
        |m| finalize_failed("StartDatanodeAdminHandler", m),
    "node_stale", "INFO", "org.apache.hadoop.hdds.scm.node.StaleNodeHandler", "1.3–HEAD", "scm.md 2.2",
        "Datanode {} moved to stale state. Finalizing its pipelines {}" [Datanode, Pipelines] => node_pipelines,
    "pipeline_finalize_failed", "INFO", "org.apache.hadoop.hdds.scm.node.StaleNodeHandler", "1.3–HEAD", "scm.md 2.2",
        "Could not finalize pipeline={} for dn={}" [Pipeline, Datanode] =>
        |m| finalize_failed("StaleNodeHandler", m),
    "node_dead", "INFO", DEAD, "1.3–HEAD", "scm.md 2.2, 5.2",
        "A dead datanode is detected. {}" [Datanode] => node,
    "dead_node_skipped", "INFO", DEAD, "2.2–HEAD", "scm.md 2.2",
        "Skip event for dead node {} since the current state is {}" [Datanode, Text] => node_state,
    "command_queue_cleared", "INFO", DEAD, "1.4–HEAD", "scm.md 2.2",
        "Clearing command queue of size {} for DN {}" [U64, Datanode] => queue_cleared,
    "dead_node_topology_kept", "INFO", DEAD, "2.2–HEAD", "scm.md 2.2",
        "Skipping topology removal for dead node {} whose current state is {}" [Datanode, Text] => node_state,
    "dead_node_cleanup_failed", "WARN", DEAD, "1.3–HEAD", "scm.md 2.2",
        "Exception while finalizing pipeline {}" [Pipeline] => notice_with_entities,
    "dead_node_cleanup_failed", "WARN", DEAD, "1.3–HEAD", "scm.md 2.2",
        "Exception while removing container replica #{} of container {}." [Text, Text] => notice_with_entities,
    "dead_node_cleanup_failed", "WARN", DEAD, "1.3–HEAD", "scm.md 2.2",
        "Container {} is not managed by ContainerManager." [Container] => notice_with_entities,
    "dead_node_unregistered", "ERROR", DEAD, "1.3–HEAD", "scm.md 2.2",
        "DeadNode event for a unregistered node: {}!" [Datanode] => node,
    "node_healthy_readonly", "INFO", "org.apache.hadoop.hdds.scm.node.HealthyReadOnlyNodeHandler", "1.3–HEAD", "scm.md 2.2, 5.2",
        "Datanode {} moved to HEALTHY READONLY state." [Datanode] => node,
    "readonly_pipeline_close_sent", "INFO", "org.apache.hadoop.hdds.scm.node.HealthyReadOnlyNodeHandler", "1.3–HEAD", "scm.md 2.2",
        "Sending close command for pipeline {} in state {} which uses {} datanode {}. This will send close commands for its containers."
        [Pipeline, Word, Word, Datanode] => notice_with_entities,
    "stale_pipelines_closing", "INFO", "org.apache.hadoop.hdds.scm.node.NodeAddressUpdateHandler", "1.3–HEAD", "scm.md 2.2",
        "Closing stale pipelines for datanode: {}" [Datanode] => node,
    "reregister_requested", "INFO", DISPATCHER, "1.3–HEAD", "scm.md 2.2",
        "SCM received heartbeat from an unregistered datanode {}. Asking datanode to re-register." [Datanode] => node,
    "heartbeat_dispatched", "DEBUG", DISPATCHER, "2.1–HEAD", "scm.md 2.2, 4.2",
        "Heartbeat dispatched for datanode {} with commands {}" [Datanode, Commands] =>
        |m| {
            let (uuid, entities) = datanode(m, 0)?;
            Some((ScmEvent::HeartbeatDispatched { datanode: uuid, commands: dispatched_commands(m.text(1)) }, entities))
        },

    // ---- §2.2 SCMNodeManager
    "op_state_command_scheduled", "INFO", NODE_MANAGER, "1.4–HEAD", "scm.md 2.2, 4.2 step 8",
        "Scheduling a command to update the operationalState persisted on {} as the reported value ({}, {}) does not match the value stored in SCM ({}, {})"
        [Datanode, Word, I64, Word, I64] => op_state_mismatch,
    "op_state_command_skipped", "WARN", NODE_MANAGER, "1.3–HEAD", "scm.md 2.2",
        "Skip sending SetNodeOperationalStateCommand, since current SCM is not leader." [] => notice,
    "follower_op_state_copied", "INFO", NODE_MANAGER, "1.4–HEAD", "scm.md 2.2, 4.2 steps 4 and 6",
        "Update the operationalState saved in follower SCM for {} as the reported value ({}, {}) does not match the value stored in SCM ({}, {})"
        [Datanode, Word, I64, Word, I64] => op_state_mismatch,
    "op_state_change_notified", "INFO", NODE_MANAGER, "2.1–HEAD", "scm.md 2.2",
        "Notifying ReplicationManager of node state change for {}: {} -> {}" [Datanode, Word, Word] =>
        |m| {
            let (uuid, entities) = datanode(m, 0)?;
            Some((ScmEvent::OpStateChangeNotified { datanode: uuid, from: m.word(1)?, to: m.word(2)? }, entities))
        },
    "heartbeat_unregistered_ignored", "ERROR", NODE_MANAGER, "1.3–HEAD", "scm.md 2.2",
        "SCM trying to process heartbeat from an unregistered node {}. Ignoring the heartbeat." [Datanode] => node,
    "datanode_registered", "INFO", NODE_MANAGER, "1.4–HEAD", "scm.md 2.2",
        "Registered datanode: {}" [Datanode] => registered,
    "datanode_address_updated", "INFO", NODE_MANAGER, "2.1–HEAD", "scm.md 2.2",
        "Updating datanode from {} to {}" [Datanode, Datanode] => notice_with_entities,
    "datanode_address_updated", "INFO", NODE_MANAGER, "1.4–HEAD", "scm.md 2.2",
        "Updated datanode to: {}" [Datanode] => notice_with_entities,
    "datanode_version_updated", "INFO", NODE_MANAGER, "2.0–HEAD", "scm.md 2.2",
        "Update the version for registered datanode {}, oldVersion = {}, newVersion = {}." [Datanode, Text, Text] => notice_with_entities,
    "datanode_ports_updated", "INFO", NODE_MANAGER, "HEAD (unreleased)", "scm.md 2.2",
        "Updating ports for registered datanode {}: {} -> {}" [Datanode, Text, Text] => notice_with_entities,
    "datanode_not_found", "ERROR", NODE_MANAGER, "1.3–HEAD", "scm.md 2.2",
        "Cannot find datanode {} from nodeStateManager" [Datanode] => notice_with_entities,
    "command_queue_cleared", "INFO", NODE_MANAGER, "2.0–HEAD", "scm.md 2.2",
        "Clearing command queue of size {} for DN {}" [U64, Datanode] => queue_cleared,
    "startup_safe_mode", "INFO", NODE_MANAGER, "1.3–HEAD", "scm.md 2.2",
        "Entering startup safe mode." [] => notice,

    // ---- §2.2 NodeStateManager
    "op_state_on_registration", "INFO", NODE_STATE, "1.3–HEAD", "scm.md 2.2",
        "Updating nodeOperationalState on registration as the datanode has a persisted state of {} and expiry of {}" [Word, I64] =>
        |m| Some((ScmEvent::OpStateOnRegistration { op_state: m.word(0)?, expiry: m.i64(1)? }, Vec::new())),
    "node_status_updated", "INFO", NODE_STATE, "2.1–HEAD", "scm.md 2.2",
        "Updated datanode {} {} to {} {}" [Datanode, NodeStatus, Unread, NodeStatus] =>
        |m| {
            let (uuid, entities) = datanode(m, 0)?;
            let (old_op_state, old_health) = node_status(m.text(1))?;
            let (new_op_state, new_health) = node_status(m.text(3))?;
            Some((ScmEvent::NodeStatusUpdated(Box::new(NodeStatusUpdated { datanode: uuid, old_op_state, old_health, new_op_state, new_health })), entities))
        },
    "node_invalid_transition", "WARN", NODE_STATE, "1.3–HEAD", "scm.md 2.2",
        "Invalid state transition of node {}. Current state: {}, life cycle event: {}" [Datanode, Text, Text] => notice_with_entities,
    "heartbeat_check_skipped", "INFO", NODE_STATE, "1.3–HEAD", "scm.md 2.2",
        "Detected long delay in scheduling HB processing thread. Skipping heartbeat checks for one iteration." [] => notice,
    "heartbeat_processing_slow", "ERROR", NODE_STATE, "1.3–HEAD", "scm.md 2.2",
        "Total time spend processing datanode HB's is greater than configured values for datanode heartbeats. Please adjust the heartbeat configs. Time Spend on HB processing: {} seconds Datanode heartbeat Interval: {} seconds."
        [Text, Text] => notice,
    }
}

// ---------------------------------------------------------------------------------------------
// Builders

fn scm(id: &str) -> Vec<Entity> {
    Entity::scm(id).into_iter().collect()
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

/// The datanode of placeholder `i` (`uuid(host/ip)`): its lower-case uuid and entity.
fn datanode(m: &Matched<'_>, i: usize) -> Option<(String, Vec<Entity>)> {
    let dn = m.datanode(i)?;
    Some((dn.uuid.to_ascii_lowercase(), vec![dn.entity()]))
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

/// The node a DatanodeAdminMonitorImpl line tracks: from 2.0.0 a `TrackedNode`, printed as
/// `…DatanodeAdminMonitorImpl$TrackedNode@<hex>` (its hash, which is the datanode's uuid hash);
/// in 1.4 the `DatanodeDetails` itself, `uuid(host/ip)`; up to 1.3 `uuid{ip: …, host: …, …}`.
/// The hash as hex, and the datanode when the line names it.
fn tracked(s: &str) -> Option<(String, Vec<Entity>)> {
    if s.contains("TrackedNode@") {
        return entity::tracked_node_hash(s).map(|h| (format!("{h:x}"), Vec::new()));
    }
    let (dn, len) = entity::datanode_details(s)?;
    if len != s.len() {
        return None;
    }
    let hash = entity::uuid_hash_code(dn.uuid)?;
    Some((format!("{hash:x}"), vec![dn.entity()]))
}

fn node(m: &Matched<'_>) -> Option<Built> {
    let (uuid, entities) = datanode(m, 0)?;
    Some((
        ScmEvent::Node {
            kind: m.kind,
            datanode: uuid,
            state: None,
        },
        entities,
    ))
}

fn node_state(m: &Matched<'_>) -> Option<Built> {
    let (uuid, entities) = datanode(m, 0)?;
    Some((
        ScmEvent::Node {
            kind: m.kind,
            datanode: uuid,
            state: Some(m.string(1)),
        },
        entities,
    ))
}

fn host(m: &Matched<'_>) -> Option<Built> {
    let name = m.text(0);
    let entity = Entity::datanode_host(name)?;
    Some((
        ScmEvent::Host {
            kind: m.kind,
            host: name.to_string(),
        },
        vec![entity],
    ))
}

fn notice_of(m: &Matched<'_>) -> ScmEvent {
    ScmEvent::Notice {
        kind: m.kind,
        values: m.values().iter().map(|v| v.to_string()).collect(),
    }
}

fn notice(m: &Matched<'_>) -> Option<Built> {
    Some((notice_of(m), Vec::new()))
}

fn ha_notice(m: &Matched<'_>) -> Option<Built> {
    let entities = m.values().iter().flat_map(|v| member_entities(v)).collect();
    Some((
        ScmEvent::HaNotice {
            kind: m.kind,
            values: m.values().iter().map(|v| v.to_string()).collect(),
        },
        entities,
    ))
}

/// A notice whose values name datanodes, pipelines or containers in any printed form.
fn notice_with_entities(m: &Matched<'_>) -> Option<Built> {
    let mut entities = Vec::new();
    for value in m.values() {
        entities.extend(datanodes_in(value));
        entities.extend(entity::find_pipelines(value).filter_map(|p| Entity::pipeline(p.value)));
        entities.extend(entity::find_containers(value).map(|c| Entity::Container(c.value)));
    }
    entities.dedup();
    Some((notice_of(m), entities))
}

fn service_status(m: &Matched<'_>) -> Option<Built> {
    Some((
        ScmEvent::ServiceStatus {
            service: m.string(0),
            status: m.word(1)?,
        },
        Vec::new(),
    ))
}

fn requested(action: AdminAction, m: &Matched<'_>) -> Option<Built> {
    let datanodes: Vec<Entity> = datanodes_in(m.text(1));
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
            force: m.bool(0)?,
            datanodes: uuids,
        },
        datanodes,
    ))
}

fn started(action: AdminAction, m: &Matched<'_>) -> Option<Built> {
    let (uuid, entities) = datanode(m, 0)?;
    Some((
        ScmEvent::AdminStarted {
            action,
            datanode: uuid,
        },
        entities,
    ))
}

fn not_started(action: AdminAction, m: &Matched<'_>) -> Option<Built> {
    let (uuid, entities) = datanode(m, 0)?;
    Some((
        ScmEvent::AdminNotStarted {
            kind: m.kind,
            action,
            datanode: uuid,
            op_state: m.word(1)?,
        },
        entities,
    ))
}

fn tracked_node(m: &Matched<'_>) -> Option<Built> {
    let (tracked_node, entities) = tracked(m.text(0))?;
    Some((
        ScmEvent::TrackedNode {
            kind: m.kind,
            tracked_node,
        },
        entities,
    ))
}

/// `Insufficient nodes. … Failing due to datanode : {}, container : {}`: the datanode and the
/// container that made the request fail.
fn insufficient_nodes(m: &Matched<'_>) -> Option<Built> {
    let mut entities = datanodes_in(m.text(4));
    entities.extend(m.container(5).map(Entity::Container));
    Some((notice_of(m), entities))
}

fn admin_container(m: &Matched<'_>) -> Option<Built> {
    let container = m.container(0)?;
    let mut entities = vec![Entity::Container(container)];
    entities.extend(datanodes_in(m.text(2)));
    Some((
        ScmEvent::AdminContainer {
            kind: m.kind,
            container,
            replica_count: m.string(1),
        },
        entities,
    ))
}

fn node_pipelines(m: &Matched<'_>) -> Option<Built> {
    let (uuid, mut entities) = datanode(m, 0)?;
    let pipelines: Vec<String> = entity::find_pipelines(m.text(1))
        .map(|p| p.value.to_ascii_lowercase())
        .collect();
    entities.extend(pipelines.iter().filter_map(|p| Entity::pipeline(p)));
    Some((
        ScmEvent::NodePipelines {
            kind: m.kind,
            datanode: uuid,
            pipelines,
        },
        entities,
    ))
}

fn finalize_failed(handler: &'static str, m: &Matched<'_>) -> Option<Built> {
    let (uuid, mut entities) = datanode(m, 1)?;
    let (pipeline, _) = entity::pipeline_id(m.text(0))?;
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

fn queue_cleared(m: &Matched<'_>) -> Option<Built> {
    let (uuid, entities) = datanode(m, 1)?;
    Some((
        ScmEvent::CommandQueueCleared {
            datanode: uuid,
            size: m.u64(0)?,
        },
        entities,
    ))
}

fn op_state_mismatch(m: &Matched<'_>) -> Option<Built> {
    let (uuid, entities) = datanode(m, 0)?;
    Some((
        ScmEvent::OpStateMismatch {
            kind: m.kind,
            datanode: uuid,
            reported: m.word(1)?,
            reported_expiry: m.i64(2)?,
            stored: m.word(3)?,
            stored_expiry: m.i64(4)?,
        },
        entities,
    ))
}

/// `DatanodeDetails.toDebugString()`: `<uuid>{ip: <ip>, host: <host>, ports: [...], …,
/// persistedOpState: IN_SERVICE, persistedOpStateExpiryEpochSec: 0}`.
fn registered(m: &Matched<'_>) -> Option<Built> {
    let text = m.text(0);
    let dn = m.datanode(0)?;
    let field = |name: &str| {
        let at = text.find(name)? + name.len();
        let rest = &text[at..];
        let end = rest.find([',', '}']).unwrap_or(rest.len());
        Some(rest[..end].trim())
    };
    Some((
        ScmEvent::Registered(Box::new(Registered {
            datanode: dn.uuid.to_ascii_lowercase(),
            host: dn.host.to_string(),
            ip: dn.ip.to_string(),
            persisted_op_state: field("persistedOpState: ").and_then(word),
            persisted_op_state_expiry: field("persistedOpStateExpiryEpochSec: ").and_then(num),
        })),
        vec![dn.entity()],
    ))
}

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
    Slot::Word.accepts(s).then(|| s.to_string())
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
    // ALLOCATE_BLOCK `sampleBlocks=[conID: C locID: L bcsId: B replicaIndex: R, …]` (2.0.0 on),
    // DELETE_KEY_BLOCK `KeyBlockToDelete=[BlockGroup[…, deletedBlocks=[conID: …]]]`: `BlockID`s,
    // read as DN audit's `blockData` is.
    for (key, value) in params.iter() {
        if matches!(key, "sampleBlocks" | "KeyBlockToDelete" | "blocks") {
            for m in entity::find_blocks(value) {
                entities.push(Entity::Container(m.value.container));
                entities.push(m.value.entity());
            }
        }
    }
    Typed {
        data: super::EventData::Scm(ScmEvent::Audit(Box::new(ScmAudit {
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
        }))),
        entities,
    }
}

const HA_PACKAGE: &str = "org.apache.hadoop.hdds.scm.ha.";

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

/// Types one SCM record, or `None` when no statement of this module matches.
pub fn parse(input: &Input<'_>) -> Option<Typed> {
    let record = input.record;
    if let Some(body) = input.audit {
        let is_scm_audit =
            input.component == Component::ScmAudit || record.logger.as_deref() == Some("SCMAudit");
        return is_scm_audit.then(|| audit(body));
    }
    if record.logger.as_deref() == Some("SCMAudit") {
        // An audit record in a stream whose component is not the audit's (a compose service).
        return parse_audit_body(&record.message)
            .ok()
            .map(|(body, _)| audit(&body));
    }
    let (statement, event, mut entities) = CATALOGUE.classify(input)?;
    if statement.info.class.starts_with(HA_PACKAGE) {
        own_member_from_thread(record.thread.as_deref(), &mut entities);
    }
    Some(Typed::new(event, entities))
}

#[cfg(test)]
mod tests;
