//! `container-mismatched-replicas` (HDDS-12697): CLOSED replicas of one container with different BCSIDs; a health rule (decided by
//! `oztrace_analyzer::replicas`, see [`crate::container_health`]).

use crate::Severity;
use crate::container_health::SEE_REPORT;

pub const ID: &str = "container-mismatched-replicas";

health_rule! {
    /// CLOSED replicas of one container with different BCSIDs
    ///
    /// ## What it detects
    ///
    /// Replicas of one container whose latest state is CLOSED with different BCSIDs (for EC, two
    /// replicas of the same index): once closed, every replica must hold the same committed data.
    /// This is the `MISMATCHED REPLICATION` verdict of `ozone debug log container info`.
    ///
    /// ## Why it matters
    ///
    /// A CLOSED replica behind the others misses committed blocks: a read served by it returns
    /// less than was acknowledged, and SCM ignores it (`Replica BCSID mismatched`) or deletes it only
    /// when it notices.
    ///
    /// ## Example
    ///
    /// dn1 and dn3 close #4101 at different BCSIDs (dn2's log is dn1's) (`samples/container-mismatched-replicas-bug-ratis-closed-behind`):
    ///
    /// ```text
    /// 2026-10-05 09:20:05,000 | INFO  | ID=4101 | Index=0 | BCSID=812 | State=CLOSED | Volume=/data/disk2/hdds | DataChecksum=0 |
    /// ```
    ///
    /// ```text
    /// 2026-10-05 09:20:07,000 | INFO  | ID=4101 | Index=0 | BCSID=790 | State=CLOSED | Volume=/data/disk1/hdds | DataChecksum=0 |
    /// ```
    ///
    /// Kinds: `dn_container_state`, `dn_container_state`.
    ///
    /// ## Evidence and confidence
    ///
    /// Cause: each CLOSED replica behind the highest BCSID of its group. Context: the others,
    /// and SCM's `Replica BCSID mismatched for …` when it printed one.
    ///
    /// - `confirmed`: SCM printed `Replica BCSID mismatched` for the container;
    /// - `likely`: the datanodes' container logs show it.
    ///
    /// ## Look-alikes
    ///
    /// - The stale replica deleted (`Container force deleted`) and copied again from a good one:
    ///   its latest state is DELETED (`container-mismatched-replicas-control-ratis-stale-replaced`).
    /// - A delete of the stale replica sent within `hdds.scm.replication.event.timeout` of the end:
    ///   being corrected.
    /// - EC replicas of different indexes hold their own BCSIDs
    ///   (`container-mismatched-replicas-control-ec-indexes-differ`).
    /// - Replicas still OPEN or CLOSING with different BCSIDs are still being written.
    pub struct ContainerMismatchedReplicas;
    ticket: "HDDS-12697",
    severity: Severity::Medium,
    actions: [SEE_REPORT],
}
