//! `container-quasi-closed-stuck` (HDDS-12653): ratis container stuck QUASI_CLOSED; a health rule (decided by
//! `oztrace_analyzer::replicas`, see [`crate::container_health`]).

use crate::Severity;
use crate::container_health::SEE_REPORT;

pub const ID: &str = "container-quasi-closed-stuck";

health_rule! {
    /// Ratis container stuck QUASI_CLOSED
    ///
    /// ## What it detects
    ///
    /// A Ratis container whose healthy replicas are all QUASI_CLOSED (`ContainerLogger.logQuasiClosed`,
    /// with the reason: the Ratis group removed, the pipeline gone) two ReplicationManager passes
    /// after the first quasi-close, with no `Force closing container …` or `FORCE_CLOSE` from SCM.
    /// `ozone debug log container list --health=QUASI_CLOSED_STUCK`, which counts three or more
    /// QUASI_CLOSED datanodes not superseded by CLOSED; this rule asks every healthy replica.
    ///
    /// ## Why it matters
    ///
    /// SCM force-closes a QUASI_CLOSED container once enough origins have quasi-closed it; a
    /// container that stays QUASI_CLOSED is not writable, is not counted as closed for decommission
    /// and maintenance, and keeps its replicas' differing data unresolved (QUASI_CLOSED_STUCK in the
    /// ReplicationManager's report).
    ///
    /// ## Example
    ///
    /// #4101's pipeline is removed and its replicas quasi-close at three BCSIDs (dn1 and dn3 shown); SCM never force-closes it (`samples/container-quasi-closed-stuck-bug-ratis-never-force-closed`):
    ///
    /// ```text
    /// 2026-10-05 09:20:05,000 | WARN  | ID=4101 | Index=0 | BCSID=812 | State=QUASI_CLOSED | Volume=/data/disk2/hdds | DataChecksum=0 | Ratis group removed. Group id: group-6B2E8D0C4F17 |
    /// ```
    ///
    /// ```text
    /// 2026-10-05 09:20:07,000 | WARN  | ID=4101 | Index=0 | BCSID=790 | State=QUASI_CLOSED | Volume=/data/disk1/hdds | DataChecksum=0 | Ratis group removed. Group id: group-6B2E8D0C4F17 |
    /// ```
    ///
    /// Kinds: `dn_container_state`, `dn_container_state`.
    ///
    /// ## Evidence and confidence
    ///
    /// Cause: each healthy replica's quasi-close line. EC containers never quasi-close (their close is
    /// forced), so the rule reads Ratis containers only.
    ///
    /// - `likely`: the datanodes' container logs show it.
    ///
    /// ## Look-alikes
    ///
    /// - Quasi-closed, then force-closed by SCM's QuasiClosedContainerHandler and CLOSED on the
    ///   datanodes (`container-quasi-closed-stuck-control-ratis-force-closed`).
    /// - A quasi-close younger than two ReplicationManager passes at the end of the logs.
    /// - An EC container: its close is forced, it never quasi-closes
    ///   (`container-quasi-closed-stuck-control-ec-closed`).
    pub struct ContainerQuasiClosedStuck;
    ticket: "HDDS-12653",
    severity: Severity::Medium,
    actions: [SEE_REPORT],
}
