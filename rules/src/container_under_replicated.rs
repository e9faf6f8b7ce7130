//! `container-under-replicated` (HDDS-12653): container lost a replica that was not replaced; a health rule (decided by
//! `oztrace_analyzer::replicas`, see [`crate::container_health`]).

use crate::container_health::SEE_REPORT;
use crate::{Action, Severity};

pub const ID: &str = "container-under-replicated";

health_rule! {
    /// Container lost a replica that was not replaced
    ///
    /// ## What it detects
    ///
    /// A container with fewer healthy replicas than its replication (for EC, an index with no healthy
    /// replica) because a replica's data went away in the logs (`Volume failure`, UNHEALTHY, force
    /// deleted) and no copy replaced it by the end of the logs. `ozone debug log container list
    /// --health=UNDER_REPLICATED`, which counts the replicas the logs show and so flags every
    /// container whose other datanodes' logs are missing; this rule needs the loss itself.
    ///
    /// ## Why it matters
    ///
    /// One more loss and the container's data is gone (Ratis ONE after a loss, EC beyond its
    /// parity). The ReplicationManager repairs it within a few passes unless it cannot (no targets,
    /// overloaded sources, a stuck command).
    ///
    /// ## Example
    ///
    /// dn2's container log: #4101 closes, then its volume fails; no copy follows in the 80 minutes the logs go on (`samples/container-under-replicated-bug-ratis-volume-lost`):
    ///
    /// ```text
    /// 2026-10-05 09:20:06,000 | INFO  | ID=4101 | Index=0 | BCSID=812 | State=CLOSED | Volume=/data/disk3/hdds | DataChecksum=0 |
    /// 2026-10-05 09:40:00,000 | ERROR | ID=4101 | Index=0 | BCSID=812 | State=CLOSED | Volume=/data/disk3/hdds | DataChecksum=0 | Volume failure |
    /// ```
    ///
    /// Kinds: `dn_container_state`, `dn_container_state`.
    ///
    /// ## Evidence and confidence
    ///
    /// Cause: the line where each lost replica left its healthy state. Context: the replicas still
    /// healthy, the replicate or reconstruct commands sent after the loss that never completed, and
    /// SCM's admin monitor `Under Replicated Container` line when its in-service, decommissioning and
    /// maintenance replicas together fall short of the replication.
    ///
    /// - `confirmed`: the logs show the loss and SCM's admin monitor counts the container short;
    /// - `likely`: the logs show the loss and no copy by the end.
    ///
    /// ## Look-alikes
    ///
    /// - Being replicated or reconstructed right now: a replicate or reconstruct command (or
    ///   `… will be sufficiently replicated after pending replicas are created`) sent within
    ///   `hdds.scm.replication.event.timeout` of the end, or a `RECOVERING` replica of the lost index
    ///   (`container-under-replicated-control-ratis-replicating`,
    ///   `container-under-replicated-control-ec-reconstructing`).
    /// - A decommissioning or maintenance datanode's replica: SCM's admin monitor says `Under
    ///   Replicated Container` while it copies the replica elsewhere, but the data is still there
    ///   (`container-under-replicated-control-ratis-decommission`).
    /// - A loss younger than two ReplicationManager passes at the end of the logs.
    /// - A container SCM is deleting, and replicas the bundle has no logs of.
    pub struct ContainerUnderReplicated;
    ticket: "HDDS-12653",
    severity: Severity::Medium,
    actions: [
        SEE_REPORT,
        Action {
            purpose: "See why the ReplicationManager did not copy it (no targets, overloaded sources) in the leader SCM's log",
            command: Some("ozone admin scm roles"),
        },
    ],
}
