//! `container-duplicate-open` (HDDS-12776): container created OPEN more often than it has replicas; a health rule (decided by
//! `oztrace_analyzer::replicas`, see [`crate::container_health`]).

use crate::{Action, Severity};

pub const ID: &str = "container-duplicate-open";

health_rule! {
    /// Container created OPEN more often than it has replicas
    ///
    /// ## What it detects
    ///
    /// A container whose datanodes logged `State=OPEN` (`ContainerLogger.logOpen`, written only when
    /// `KeyValueHandler` creates the container) more often than it has replicas: the same datanode
    /// creating it again, more datanodes than the Ratis factor creating it, or, for EC, two datanodes
    /// creating the same replica index. This is `ozone debug log container duplicate-open` and the
    /// first verdict of its `info`, for Ratis and EC.
    ///
    /// ## Why it matters
    ///
    /// A container is created once per pipeline member. A second creation is a second life of the
    /// container on that datanode (a create applied again after the replica went missing, a container
    /// id allocated twice): the replicas no longer share one history, and what SCM counts as replicas
    /// may hold different data.
    ///
    /// ## Example
    ///
    /// dn1's container log: it creates #4101, creates it again three minutes later, then closes it (`samples/container-duplicate-open-bug-ratis-created-twice`):
    ///
    /// ```text
    /// 2026-10-05 09:00:01,000 | INFO  | ID=4101 | Index=0 | BCSID=0 | State=OPEN | Volume=/data/disk2/hdds | DataChecksum=0 |
    /// 2026-10-05 09:03:00,000 | INFO  | ID=4101 | Index=0 | BCSID=0 | State=OPEN | Volume=/data/disk2/hdds | DataChecksum=0 |
    /// 2026-10-05 09:20:05,000 | INFO  | ID=4101 | Index=0 | BCSID=812 | State=CLOSED | Volume=/data/disk2/hdds | DataChecksum=0 |
    /// ```
    ///
    /// Kinds: `dn_container_state`, `dn_container_state`, `dn_container_state`.
    ///
    /// ## Evidence and confidence
    ///
    /// Cause: each OPEN beyond the first on one datanode, and (Ratis) each datanode's first OPEN
    /// beyond the factor's first OPENs in time order, or (EC) a second datanode's OPEN of an index.
    /// Context: the first OPENs. The factor is the one SCM printed for the container, else
    /// `ozone.server.default.replication`.
    ///
    /// - `likely`: the datanodes' container logs show it (no SCM line reports a duplicate creation).
    ///
    /// ## Look-alikes
    ///
    /// - The same log collected twice in a bundle (the same line, host and time): one creation
    ///   (`container-duplicate-open-control-ratis-log-collected-twice`).
    /// - An EC container opens one replica per index on as many datanodes as data plus parity
    ///   (`rs-3-2-1024k`: five); a count against the Ratis factor would flag it
    ///   (`container-duplicate-open-control-ec-one-per-index`).
    /// - An EC reconstruction target creates the missing index in `RECOVERING`, not `OPEN`.
    pub struct ContainerDuplicateOpen;
    ticket: "HDDS-12776",
    severity: Severity::Medium,
    actions: [
        Action {
            purpose: "Check the datanodes this finding names for the container's directories (one per volume) and compare their BCSIDs",
            command: Some("ozone admin container info --json {container}"),
        },
    ],
}
