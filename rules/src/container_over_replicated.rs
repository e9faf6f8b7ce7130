//! `container-over-replicated` (HDDS-12653): container with more healthy replicas than its replication; a health rule (decided by
//! `oztrace_analyzer::replicas`, see [`crate::container_health`]).

use crate::Severity;
use crate::container_health::SEE_REPORT;

pub const ID: &str = "container-over-replicated";

health_rule! {
    /// Container with more healthy replicas than its replication
    ///
    /// ## What it detects
    ///
    /// A container with more healthy replicas than its replication on datanodes that are not
    /// leaving (for EC, an index held by two datanodes), with no delete sent for the extra.
    /// `ozone debug log container list --health=OVER_REPLICATED`.
    ///
    /// ## Why it matters
    ///
    /// The extra replica costs space, and it is a replica SCM may not know it can delete: a move or
    /// replication whose source was never removed, a datanode back from the dead with its old
    /// replicas.
    ///
    /// ## Example
    ///
    /// dn4 imports a fourth replica of #4101, and the leader SCM says so; no delete follows (`samples/container-over-replicated-bug-ratis-extra-copy`):
    ///
    /// ```text
    /// 2026-10-05 09:30:00,000 | INFO  | ID=4101 | Index=0 | BCSID=812 | State=CLOSED | Volume=/data/disk2/hdds | DataChecksum=0 | Container imported |
    /// ```
    ///
    /// ```text
    /// 2026-10-05 09:35:00,000 [scm1-OverReplicatedProcessor] INFO org.apache.hadoop.hdds.scm.container.replication.RatisOverReplicationHandler: Container #4101 is over replicated. Actual replica count is 4, with 0 pending delete(s). Expected replica count is 3.
    /// ```
    ///
    /// Kinds: `dn_container_state`, `rm_over_replicated`.
    ///
    /// ## Evidence and confidence
    ///
    /// Cause: the replicas that arrived after the expected count was reached. Context: the
    /// others, and `Container … is over replicated. … Expected replica count is N.`
    /// (RatisOverReplicationHandler) when SCM printed it.
    ///
    /// - `confirmed`: SCM's ReplicationManager printed the container over-replicated;
    /// - `likely`: the datanodes' container logs show it.
    ///
    /// ## Look-alikes
    ///
    /// - A decommissioning or maintenance datanode's replica and the copy that replaces it: the
    ///   leaving datanode's replica is not counted (`container-over-replicated-control-ratis-decommission`).
    /// - A delete of the extra sent within `hdds.scm.replication.event.timeout` of the end
    ///   (`container-over-replicated-control-ec-delete-in-flight`).
    /// - An extra younger than two ReplicationManager passes at the end of the logs.
    pub struct ContainerOverReplicated;
    ticket: "HDDS-12653",
    severity: Severity::Low,
    actions: [SEE_REPORT],
}
