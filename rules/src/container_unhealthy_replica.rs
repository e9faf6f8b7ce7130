//! `container-unhealthy-replica` (HDDS-12653): container with an UNHEALTHY replica, or left OPEN on a replica (OPEN-UNHEALTHY); a health rule (decided by
//! `oztrace_analyzer::replicas`, see [`crate::container_health`]).

use crate::{Action, Severity};

pub const ID: &str = "container-unhealthy-replica";

health_rule! {
    /// Container with an UNHEALTHY replica, or left OPEN on a replica (OPEN-UNHEALTHY)
    ///
    /// ## What it detects
    ///
    /// A replica whose latest state is UNHEALTHY (`ContainerLogger.logUnhealthy`, with the scan result
    /// that marked it) and that nothing is deleting; or, when none is, a replica still OPEN two
    /// ReplicationManager passes after another replica of the container moved on (CLOSING, CLOSED,
    /// QUASI_CLOSED): Ozone's OPEN-UNHEALTHY. `ozone debug log container list --health=UNHEALTHY`
    /// and the UNHEALTHY and OPEN_UNHEALTHY verdicts of its `info`.
    ///
    /// ## Why it matters
    ///
    /// An UNHEALTHY replica serves no reads and does not count as a copy: the container is a replica
    /// short until SCM replaces it. A replica left OPEN keeps accepting nothing the others have, and
    /// its container cannot close: SCM's OpenContainerHandler closes it only when it sees the
    /// mismatch.
    ///
    /// ## Example
    ///
    /// dn2's container log: the scanner marks its replica of #4101 UNHEALTHY and nothing replaces it (`samples/container-unhealthy-replica-bug-ratis-missing-chunk`):
    ///
    /// ```text
    /// 2026-10-05 09:40:00,000 | ERROR | ID=4101 | Index=0 | BCSID=812 | State=UNHEALTHY | Volume=/data/disk3/hdds | DataChecksum=0 | Container has 1 error: MISSING_CHUNK for file /data/disk3/hdds/CID-3f1e/current/containerDir0/4101/chunks/1137501536256000.block with exception: java.io.FileNotFoundException |
    /// ```
    ///
    /// Kinds: `dn_container_state`.
    ///
    /// ## Evidence and confidence
    ///
    /// Cause: the UNHEALTHY line of each replica (its scan result says why), or the OPEN replicas'
    /// last lines. Context: the replica that moved on first.
    ///
    /// - `likely`: the datanodes' container logs show it.
    ///
    /// ## Look-alikes
    ///
    /// - An UNHEALTHY replica SCM deleted and replaced: its latest state is DELETED
    ///   (`container-unhealthy-replica-control-ratis-replaced`,
    ///   `container-unhealthy-replica-control-ec-reconstructed`); a delete sent to it within
    ///   `hdds.scm.replication.event.timeout` of the end is the same, in flight.
    /// - A replica left OPEN on a datanode in maintenance or decommissioning: the datanode went away
    ///   by request (`container-unhealthy-replica-control-ratis-open-in-maintenance`).
    /// - Replicas closing one after the other within two ReplicationManager passes.
    pub struct ContainerUnhealthyReplica;
    ticket: "HDDS-12653",
    severity: Severity::Medium,
    actions: [
        Action {
            purpose: "See the scan result of the UNHEALTHY replica in the datanode's log and check its volume",
            command: Some("ozone admin datanode list --id {datanode}"),
        },
    ],
}
