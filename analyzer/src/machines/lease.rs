//! `om-lease`: the open-key lease of each key and writer session (key, clientID), as OM models it.
//!
//! The session opens with CREATE_FILE / ALLOCATE_KEY (`OMFileCreateRequest`, `OMKeyCreateRequest`:
//! creation time = modification time M = now), each successful ALLOCATE_BLOCK renews M
//! (`OMAllocateBlockRequest`), the first hsync of the key marks it hsynced (`hsyncClientId` in the
//! open key, `OmKeyHSyncUtil.isHSyncedPreviously`) and renews M once; later hsyncs do not.
//! `OmMetadataManagerImpl.getExpiredOpenKeys` selects an hsynced key once `M <= now - hard limit`
//! and `OpenKeyCleanupService` commits it (COMMIT_KEY with `user= | ip=`); a non-hsynced key past
//! `ozone.om.open.key.expire.threshold` is deleted (OMSystemAudit OPEN_KEY_CLEANUP).
//! `OMRecoverLeaseRequest` sets `leaseRecovery` (no auto-commit any more) and the recovering
//! client's COMMIT_KEY closes the file. A writer whose open key is gone gets KEY_NOT_FOUND (or
//! KEY_UNDER_LEASE_RECOVERY) on its next COMMIT_KEY or ALLOCATE_BLOCK.
//!
//! hsync leaves no audit line (om.md 0.1): the step to HSYNCED is observed only from the OM DEBUG
//! line `isHSync = true, …` of `org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest`, and
//! otherwise inferred (an ALLOCATE_BLOCK carrying a non-zero `dataSize`, which hsync writers set
//! to their last hsync offset, or an auto-commit, which only hsynced keys get).
//!
//! Timers: the lease limits (`ozone.om.lease.hard.limit`, `ozone.om.lease.soft.limit`, the cleanup
//! interval) are [`LeaseLimits`]. The timer's firing (HSYNCED → LEASE_EXPIRED) is not logged: it is
//! inferred at the auto-commit, and flagged illegal when it comes before M + hard limit, only when
//! the limits came from configuration ([`LeaseLimits::configured`]; with the defaults, 7d, a
//! cluster configured shorter would be flagged wrongly).
//!
//! Entity `key:/<volume>/<bucket>/<key>`; scope `client:<clientID>` once a line prints it.

use crate::graph::{Linker, Reason};
use crate::kinds::{Family, KindSet, Reads};
use crate::machine::{EntityStates, Machine, Row, Transition, allows};
use crate::trace::{EntityId, EventId, Trace};
use oztrace_parser::audit::AuditRet;
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::om::{KeyAudit, OmEvent};
use oztrace_parser::entity::Entity;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub const NAME: &str = "om-lease";

/// The OM DEBUG line that shows an hsync (and would turn inferred HSYNCED steps into observed ones).
pub const HSYNC_LINE: &str = "OM DEBUG `isHSync = true, isRecovery = …` \
     (log4j.logger.org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest=DEBUG)";
const CREATE_LINE: &str = "OMAudit CREATE_FILE / ALLOCATE_KEY of this session (before the logs)";
const EXPIRY_LINE: &str = "OpenKeyCleanupService DEBUG `hsync'ed openKeys committed in current iteration` \
     (log4j.logger.org.apache.hadoop.ozone.om.service.OpenKeyCleanupService=DEBUG)";

/// What moves a lease.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// `om_audit_create` SUCCESS (CREATE_FILE, ALLOCATE_KEY).
    Create,
    /// `om_audit_allocate_block` SUCCESS of a session whose create is not in the logs (the key's
    /// first line, or another clientID): the create is inferred.
    SessionSeen,
    /// `om_audit_allocate_block` SUCCESS: M renewed.
    AllocateBlock,
    /// An hsync: `om_key_commit_request` with isHSync=true, or inferred from an ALLOCATE_BLOCK
    /// with a non-zero `dataSize` or from an auto-commit.
    Hsync,
    /// The hard-limit timer: M + `ozone.om.lease.hard.limit` passed (inferred at the auto-commit).
    HardLimit,
    /// `om_audit_commit_key` SUCCESS with empty `user=` and `ip=`.
    AutoCommit,
    /// `om_audit_recover_lease` SUCCESS.
    RecoverLease,
    /// `om_audit_commit_key` SUCCESS by a user.
    Commit,
    /// COMMIT_KEY or ALLOCATE_BLOCK FAILURE with KEY_NOT_FOUND or KEY_UNDER_LEASE_RECOVERY.
    KeyGone,
    /// `om_sys_open_key_cleanup`, or `om_audit` DELETE_KEY SUCCESS.
    Delete,
}

const ANY: &[LeaseState] = &[
    LeaseState::None,
    LeaseState::Open,
    LeaseState::Hsynced,
    LeaseState::Expired,
    LeaseState::Recovering,
    LeaseState::AutoCommitted,
    LeaseState::Recovered,
    LeaseState::Closed,
    LeaseState::Deleted,
    LeaseState::WriterFailed,
];

/// The transition table: the machine replays a step the table lacks as `illegal`. An expiry
/// before M + the hard limit is illegal too, when the limits were configured ([`LeaseLimits`]).
pub const TRANSITIONS: &[Row<LeaseState, Trigger>] = &[
    Row {
        from: ANY,
        trigger: Trigger::Create,
        to: LeaseState::Open,
        code: "OMFileCreateRequest / OMKeyCreateRequest.validateAndUpdateCache (M = creation time)",
    },
    Row {
        from: ANY,
        trigger: Trigger::SessionSeen,
        to: LeaseState::Open,
        code: "the session was opened before the logs (or by another client of the key)",
    },
    Row {
        from: &[LeaseState::Open],
        trigger: Trigger::AllocateBlock,
        to: LeaseState::Open,
        code: "OMAllocateBlockRequest.validateAndUpdateCache: openKeyInfo.setModificationTime",
    },
    Row {
        from: &[LeaseState::Hsynced],
        trigger: Trigger::AllocateBlock,
        to: LeaseState::Hsynced,
        code: "OMAllocateBlockRequest.validateAndUpdateCache: openKeyInfo.setModificationTime",
    },
    Row {
        from: &[LeaseState::None, LeaseState::Open],
        trigger: Trigger::Hsync,
        to: LeaseState::Hsynced,
        code: "OMKeyCommitRequest(WithFSO) with isHSync: OmKeyHSyncUtil.isHSyncedPreviously; \
               BlockOutputStreamEntryPool.hsyncKey sets keyArgs.dataSize to the last hsync offset",
    },
    Row {
        from: &[LeaseState::Hsynced],
        trigger: Trigger::HardLimit,
        to: LeaseState::Expired,
        code: "OmMetadataManagerImpl.getExpiredOpenKeys: modificationTime <= now - leaseHardLimit",
    },
    Row {
        from: &[LeaseState::Expired],
        trigger: Trigger::AutoCommit,
        to: LeaseState::AutoCommitted,
        code: "OpenKeyCleanupService submits a CommitKeyRequest built from the fileTable/keyTable entry",
    },
    Row {
        from: &[LeaseState::None, LeaseState::Open, LeaseState::Hsynced],
        trigger: Trigger::RecoverLease,
        to: LeaseState::Recovering,
        code: "OMRecoverLeaseRequest: leaseRecovery=true, M = now",
    },
    Row {
        from: &[LeaseState::Recovering],
        trigger: Trigger::Commit,
        to: LeaseState::Recovered,
        code: "the recovering client's commit (OMKeyCommitRequest with recovery)",
    },
    Row {
        from: &[LeaseState::None, LeaseState::Open, LeaseState::Hsynced],
        trigger: Trigger::Commit,
        to: LeaseState::Closed,
        code: "OMKeyCommitRequest (KeyOutputStream.close)",
    },
    Row {
        from: &[
            LeaseState::None,
            LeaseState::Expired,
            LeaseState::Recovering,
            LeaseState::AutoCommitted,
            LeaseState::Recovered,
            LeaseState::Closed,
            LeaseState::Deleted,
        ],
        trigger: Trigger::KeyGone,
        to: LeaseState::WriterFailed,
        code: "OMKeyCommitRequest / OMAllocateBlockRequest: open key gone (an open key does not \
               vanish without a logged close, recovery or deletion)",
    },
    Row {
        from: ANY,
        trigger: Trigger::Delete,
        to: LeaseState::Deleted,
        code: "OMOpenKeysDeleteRequest, OMKeyDeleteRequest",
    },
];

/// Whether the table holds `from --trigger--> to`.
fn legal(from: LeaseState, trigger: Trigger, to: LeaseState) -> bool {
    allows(TRANSITIONS, from, trigger, to)
}

/// The lease settings the timers use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaseLimits {
    pub hard_ms: i64,
    pub soft_ms: i64,
    pub cleanup_interval_ms: i64,
    /// The values came from `--set` or ozone-site.xml, not the defaults.
    pub configured: bool,
}

impl Default for LeaseLimits {
    /// `OMConfigKeys` defaults: hard limit 7d, soft limit 60s, cleanup interval 24h.
    fn default() -> Self {
        LeaseLimits {
            hard_ms: 7 * 24 * 3_600_000,
            soft_ms: 60_000,
            cleanup_interval_ms: 24 * 3_600_000,
            configured: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaseState {
    None,
    Open,
    Hsynced,
    /// The hard-limit timer fired: getExpiredOpenKeys would select the key (not logged).
    Expired,
    Recovering,
    AutoCommitted,
    Recovered,
    Closed,
    Deleted,
    WriterFailed,
}

impl LeaseState {
    pub fn label(self) -> &'static str {
        match self {
            LeaseState::None => "NONE",
            LeaseState::Open => "OPEN",
            LeaseState::Hsynced => "HSYNCED",
            LeaseState::Expired => "LEASE_EXPIRED",
            LeaseState::Recovering => "RECOVERING",
            LeaseState::AutoCommitted => "AUTO_COMMITTED",
            LeaseState::Recovered => "RECOVERED",
            LeaseState::Closed => "CLOSED",
            LeaseState::Deleted => "DELETED",
            LeaseState::WriterFailed => "WRITER_FAILED",
        }
    }

    fn is_open(self) -> bool {
        matches!(self, LeaseState::Open | LeaseState::Hsynced)
    }
}

/// One key's lease.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyLease {
    pub state: LeaseState,
    /// The session's clientID, once an ALLOCATE_BLOCK or an error message prints it.
    pub client: Option<u64>,
    pub blocks_allocated: u32,
    /// Last audited renewal of M (create, allocate block, recover lease).
    pub renewed_at: Option<i64>,
}

impl Default for KeyLease {
    fn default() -> Self {
        KeyLease {
            state: LeaseState::None,
            client: None,
            blocks_allocated: 0,
            renewed_at: None,
        }
    }
}

pub struct LeaseMachine {
    limits: LeaseLimits,
    keys: EntityStates<EntityId, KeyLease>,
    /// `client:<clientID>` scopes, made once per session.
    scopes: rustc_hash::FxHashMap<u64, Arc<str>>,
}

impl Default for LeaseMachine {
    fn default() -> Self {
        LeaseMachine::new(LeaseLimits::default())
    }
}

impl LeaseMachine {
    pub fn new(limits: LeaseLimits) -> LeaseMachine {
        LeaseMachine {
            limits,
            keys: EntityStates::default(),
            scopes: Default::default(),
        }
    }

    /// The live lease of `key` in `trace`, if any.
    pub fn lease(&self, trace: &Trace, key: &Entity) -> Option<&KeyLease> {
        self.keys.get(&trace.entity_id(key)?)
    }
}

/// The key an OM event is about: the first key it names (a key audit line and the commit request
/// DEBUG line name exactly one).
fn key_of(trace: &Trace, id: EventId) -> Option<EntityId> {
    trace
        .entity_ids_of(id)
        .iter()
        .copied()
        .find(|&e| matches!(**trace.entity(e), Entity::Key(_)))
}

/// Pushes one step.
struct Step<'a> {
    out: &'a mut Vec<Transition>,
    entity: &'a Arc<Entity>,
    event: EventId,
    scopes: &'a mut rustc_hash::FxHashMap<u64, Arc<str>>,
}

impl Step<'_> {
    /// The step `from --trigger--> to`, illegal when the table lacks it.
    fn push(
        &mut self,
        lease: &KeyLease,
        from: LeaseState,
        trigger: Trigger,
        to: LeaseState,
        inferred: Option<&'static str>,
    ) {
        self.push_checked(lease, from, to, inferred, !legal(from, trigger, to));
    }

    fn push_checked(
        &mut self,
        lease: &KeyLease,
        from: LeaseState,
        to: LeaseState,
        inferred: Option<&'static str>,
        illegal: bool,
    ) {
        let scope = lease.client.map(|c| {
            Arc::clone(
                self.scopes
                    .entry(c)
                    .or_insert_with(|| Arc::from(format!("client:{c}"))),
            )
        });
        self.out.push(Transition {
            machine: NAME,
            entity: Arc::clone(self.entity),
            scope,
            from: from.label().into(),
            to: to.label().into(),
            event: self.event,
            inferred,
            illegal,
        });
    }
}

fn is_key_gone(audit: &KeyAudit) -> bool {
    matches!(
        audit.result.as_deref(),
        Some("KEY_NOT_FOUND" | "KEY_UNDER_LEASE_RECOVERY")
    )
}

/// The kinds [`LeaseMachine`] reads: the key audit, key deletions and open-key cleanup, and the
/// commit request DEBUG line that shows an hsync.
pub const CONSUMES: &[Reads] = &[
    Reads::Kind("om_audit_create"),
    Reads::Kind("om_audit_allocate_block"),
    Reads::Kind("om_audit_commit_key"),
    Reads::Kind("om_audit_recover_lease"),
    Reads::Kind("om_audit"),
    Reads::Kind("om_sys_open_key_cleanup"),
    Reads::Kind("om_key_commit_request"),
];

impl Machine for LeaseMachine {
    fn name(&self) -> &'static str {
        NAME
    }

    fn consumes(&self) -> &'static [Reads] {
        CONSUMES
    }

    fn on_event(&mut self, trace: &Trace, id: EventId, out: &mut Vec<Transition>) {
        let event = trace.get(id);
        let EventData::Om(om) = &event.data else {
            return;
        };
        let ts = event.ts;
        let key_id = key_of(trace, id);
        let key = key_id.map(|k| Arc::clone(trace.entity(k)));
        match om {
            OmEvent::AuditCreate(a) if a.succeeded() => {
                let (Some(key_id), Some(key)) = (key_id, &key) else {
                    return;
                };
                let lease = self.keys.entry_or(key_id, KeyLease::default, ts);
                let from = lease.state;
                *lease = KeyLease {
                    state: LeaseState::Open,
                    client: None,
                    blocks_allocated: 0,
                    renewed_at: ts,
                };
                let lease = *lease;
                Step {
                    out,
                    entity: key,
                    event: id,
                    scopes: &mut self.scopes,
                }
                .push(&lease, from, Trigger::Create, LeaseState::Open, None);
            }
            OmEvent::AuditAllocateBlock(a) if a.succeeded() => {
                let (Some(key_id), Some(key)) = (key_id, &key) else {
                    return;
                };
                let lease = self.keys.entry_or(key_id, KeyLease::default, ts);
                let mut step = Step {
                    out,
                    entity: key,
                    event: id,
                    scopes: &mut self.scopes,
                };
                let new_session =
                    lease.client.is_some() && a.client_id.is_some() && lease.client != a.client_id;
                if lease.state == LeaseState::None || new_session {
                    let from = lease.state;
                    *lease = KeyLease {
                        state: LeaseState::Open,
                        client: a.client_id,
                        ..KeyLease::default()
                    };
                    step.push(
                        lease,
                        from,
                        Trigger::SessionSeen,
                        LeaseState::Open,
                        Some(CREATE_LINE),
                    );
                } else if !lease.state.is_open() {
                    // A block allocated to a key that is no longer open: the table has no such step.
                    let from = lease.state;
                    lease.state = LeaseState::Open;
                    lease.client = a.client_id.or(lease.client);
                    step.push(lease, from, Trigger::AllocateBlock, LeaseState::Open, None);
                }
                lease.client = a.client_id.or(lease.client);
                lease.blocks_allocated += 1;
                lease.renewed_at = ts.or(lease.renewed_at);
                let before = lease.state;
                let hsynced = a.data_size.is_some_and(|d| d > 0);
                if hsynced && legal(before, Trigger::Hsync, LeaseState::Hsynced) {
                    lease.state = LeaseState::Hsynced;
                    step.push(
                        lease,
                        before,
                        Trigger::Hsync,
                        LeaseState::Hsynced,
                        Some(HSYNC_LINE),
                    );
                } else {
                    step.push(lease, before, Trigger::AllocateBlock, before, None);
                }
            }
            OmEvent::KeyCommitRequest { is_hsync: true, .. } => {
                let (Some(key_id), Some(key)) = (key_id, &key) else {
                    return;
                };
                let lease = self.keys.entry_or(key_id, KeyLease::default, ts);
                if legal(lease.state, Trigger::Hsync, LeaseState::Hsynced) {
                    let from = lease.state;
                    lease.state = LeaseState::Hsynced;
                    Step {
                        out,
                        entity: key,
                        event: id,
                        scopes: &mut self.scopes,
                    }
                    .push(
                        lease,
                        from,
                        Trigger::Hsync,
                        LeaseState::Hsynced,
                        None,
                    );
                }
            }
            OmEvent::AuditCommitKey(a) if a.succeeded() => {
                let (Some(key_id), Some(key)) = (key_id, &key) else {
                    return;
                };
                let limits = self.limits;
                let lease = self.keys.entry_or(key_id, KeyLease::default, ts);
                let mut step = Step {
                    out,
                    entity: key,
                    event: id,
                    scopes: &mut self.scopes,
                };
                let from = lease.state;
                if a.system {
                    // Only hsynced keys are auto-committed: an hsync not seen is inferred.
                    if legal(from, Trigger::Hsync, LeaseState::Hsynced) {
                        lease.state = LeaseState::Hsynced;
                        step.push(
                            lease,
                            from,
                            Trigger::Hsync,
                            LeaseState::Hsynced,
                            Some(HSYNC_LINE),
                        );
                    }
                    let mut before = lease.state;
                    if legal(before, Trigger::HardLimit, LeaseState::Expired) {
                        // The timer fired unlogged; before M + the hard limit is illegal too
                        // (configured limits only).
                        let early = limits.configured
                            && matches!((lease.renewed_at, ts), (Some(m), Some(t)) if t - m < limits.hard_ms);
                        lease.state = LeaseState::Expired;
                        step.push_checked(
                            lease,
                            before,
                            LeaseState::Expired,
                            Some(EXPIRY_LINE),
                            early,
                        );
                        before = LeaseState::Expired;
                    }
                    lease.state = LeaseState::AutoCommitted;
                    step.push(
                        lease,
                        before,
                        Trigger::AutoCommit,
                        LeaseState::AutoCommitted,
                        None,
                    );
                } else {
                    let to = if from == LeaseState::Recovering {
                        LeaseState::Recovered
                    } else {
                        LeaseState::Closed
                    };
                    lease.state = to;
                    step.push(lease, from, Trigger::Commit, to, None);
                }
            }
            OmEvent::AuditRecoverLease(a) if a.succeeded() => {
                let (Some(key_id), Some(key)) = (key_id, &key) else {
                    return;
                };
                let lease = self.keys.entry_or(key_id, KeyLease::default, ts);
                let from = lease.state;
                lease.state = LeaseState::Recovering;
                lease.renewed_at = ts.or(lease.renewed_at);
                Step {
                    out,
                    entity: key,
                    event: id,
                    scopes: &mut self.scopes,
                }
                .push(
                    lease,
                    from,
                    Trigger::RecoverLease,
                    LeaseState::Recovering,
                    None,
                );
            }
            OmEvent::AuditCommitKey(a) | OmEvent::AuditAllocateBlock(a)
                if a.ret == AuditRet::Failure && !a.system && is_key_gone(a) =>
            {
                let (Some(key_id), Some(key)) = (key_id, &key) else {
                    return;
                };
                let lease = self.keys.entry_or(key_id, KeyLease::default, ts);
                let from = lease.state;
                if from == LeaseState::WriterFailed {
                    return;
                }
                lease.client = lease.client.or(a.client_id);
                lease.state = LeaseState::WriterFailed;
                Step {
                    out,
                    entity: key,
                    event: id,
                    scopes: &mut self.scopes,
                }
                .push(
                    lease,
                    from,
                    Trigger::KeyGone,
                    LeaseState::WriterFailed,
                    None,
                );
            }
            OmEvent::SysOpenKeyCleanup { .. } => {
                for &key in trace.entity_ids_of(id) {
                    self.delete(trace, key, id, ts, out);
                }
            }
            OmEvent::Audit(a) if a.ret == AuditRet::Success && a.op == "DELETE_KEY" => {
                for &key in trace.entity_ids_of(id) {
                    self.delete(trace, key, id, ts, out);
                }
            }
            _ => {}
        }
    }

    fn evict(&mut self, before: i64) {
        self.keys.evict(before);
    }
}

impl LeaseMachine {
    fn delete(
        &mut self,
        trace: &Trace,
        key: EntityId,
        id: EventId,
        ts: Option<i64>,
        out: &mut Vec<Transition>,
    ) {
        let lease = self.keys.entry_or(key, KeyLease::default, ts);
        let from = lease.state;
        lease.state = LeaseState::Deleted;
        Step {
            out,
            entity: trace.entity(key),
            event: id,
            scopes: &mut self.scopes,
        }
        .push(lease, from, Trigger::Delete, LeaseState::Deleted, None);
    }
}

/// How far from an auto-commit's audit line the leader's cleanup summary can be (the summary is
/// printed after the task's submissions return).
const SUMMARY_WINDOW_MS: i64 = 60_000;

/// Causal links of the OM lease domain:
/// - the leader's `… submitted for deletion: D, for commit: N …` run → the N auto-commits
///   (COMMIT_KEY with empty user and ip) nearest to it;
/// - a failed request's audit line → the OM ERROR each OM logs for it (`Key committed failed`,
///   `Allocate Block failed`, `Fail for recovering lease`, …): same key (or, for an FSO open key
///   printed by object ids, same clientID), within the clock skew.
pub struct OmLinker;

fn audit_of(trace: &Trace, id: EventId) -> Option<&KeyAudit> {
    match &trace.get(id).data {
        EventData::Om(om) => om.key_audit(),
        _ => None,
    }
}

impl Linker for OmLinker {
    fn name(&self) -> &'static str {
        "om-lease"
    }

    fn consumes(&self) -> &'static [Reads] {
        &[Reads::Family(Family::Om)]
    }

    fn link(&self, trace: &Trace, out: &mut Vec<(EventId, EventId, Reason)>) {
        let mut auto_commits: Vec<(i64, EventId)> = Vec::new();
        let mut summaries: Vec<(i64, EventId, u64)> = Vec::new();
        let mut failures_by_client: HashMap<u64, Vec<EventId>> = HashMap::new();
        let mut errors: Vec<EventId> = Vec::new();
        let om = KindSet::of(&[Reads::Family(Family::Om)]);
        for id in trace.of_kinds(&om) {
            let event = trace.get(id);
            let EventData::Om(om) = &event.data else {
                continue;
            };
            match om {
                OmEvent::AuditCommitKey(a) if a.system && a.succeeded() => {
                    auto_commits.extend(event.ts.map(|t| (t, id)));
                }
                OmEvent::OpenKeyCleanupSummary {
                    submitted_for_commit,
                    ..
                } if *submitted_for_commit > 0 => {
                    summaries.extend(event.ts.map(|t| (t, id, *submitted_for_commit)));
                }
                OmEvent::KeyCommitFailed(_)
                | OmEvent::AllocateBlockFailed(_)
                | OmEvent::RecoverLeaseFailed(_)
                | OmEvent::KeyCreateFailed(_)
                | OmEvent::FileCreateFailed(_) => errors.push(id),
                _ => {
                    if let Some(a) = om.key_audit()
                        && a.ret == AuditRet::Failure
                        && let Some(client) = a.client_id
                    {
                        failures_by_client.entry(client).or_default().push(id);
                    }
                }
            }
        }
        let mut taken: HashSet<EventId> = HashSet::new();
        for (ts, summary, count) in summaries {
            let mut near: Vec<(i64, EventId)> = auto_commits
                .iter()
                .filter(|(t, id)| {
                    (t - ts).abs() <= SUMMARY_WINDOW_MS + trace.skew_ms && !taken.contains(id)
                })
                .map(|&(t, id)| ((t - ts).abs(), id))
                .collect();
            near.sort_unstable();
            for (_, id) in near.into_iter().take(count as usize) {
                taken.insert(id);
                out.push((
                    summary,
                    id,
                    format!("OpenKeyCleanupService run submitted {count} auto-commit(s)").into(),
                ));
            }
        }
        for error in errors {
            let e = trace.get(error);
            let Some(ts) = e.ts else { continue };
            let client = match &e.data {
                EventData::Om(OmEvent::AllocateBlockFailed(f)) => f.client_id,
                _ => None,
            };
            let candidates: Vec<EventId> = match e.entities.first() {
                Some(key) => trace.of_entity(key).to_vec(),
                None => client
                    .and_then(|c| failures_by_client.get(&c))
                    .cloned()
                    .unwrap_or_default(),
            };
            let cause = candidates.into_iter().find(|&id| {
                audit_of(trace, id).is_some_and(|a| a.ret == AuditRet::Failure)
                    && trace
                        .get(id)
                        .ts
                        .is_some_and(|t| (t - ts).abs() <= trace.skew_ms)
            });
            if let Some(cause) = cause {
                out.push((
                    cause,
                    error,
                    format!("OM ERROR on {} for the failed request", e.host).into(),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oztrace_parser::event::Event;
    use oztrace_parser::source::Component;

    const KEY: &str = "key:/hbase/wal/WALs/rs1/f";

    fn audit(ts: i64, user: &str, op: &str, params: &str, ret: &str, throwable: &str) -> Event {
        let ip = if user.is_empty() { "" } else { "10.0.0.1" };
        let level = if ret == "FAILURE" { "ERROR" } else { "INFO " };
        let line = format!(
            "2025-11-03 10:00:00,117 | {level} | OMAudit | user={user} | ip={ip} | op={op} {{\"volume\":\"hbase\",\"bucket\":\"wal\",\"key\":\"WALs/rs1/f\"{params}}} | ret={ret} | {throwable}\n"
        );
        let event = oztrace_testkit::events("om1", Component::OmAudit, &line).remove(0);
        Event {
            ts: Some(ts),
            file: "om1/om-audit-om1.log".into(),
            line: ts as u64,
            ..event
        }
    }

    fn steps(events: Vec<Event>, limits: LeaseLimits) -> Vec<(String, String, bool, bool)> {
        let trace = Trace::from_ordered(events, 0);
        let mut machine = LeaseMachine::new(limits);
        let mut out = Vec::new();
        for id in 0..trace.len() {
            machine.on_event(&trace, id, &mut out);
        }
        let key: Entity = KEY.parse().unwrap();
        out.into_iter()
            .filter(|t| *t.entity == key)
            .map(|t| {
                (
                    t.from.to_string(),
                    t.to.to_string(),
                    t.inferred.is_some(),
                    t.illegal,
                )
            })
            .collect()
    }

    fn s(from: &str, to: &str, inferred: bool, illegal: bool) -> (String, String, bool, bool) {
        (from.to_string(), to.to_string(), inferred, illegal)
    }

    const NOT_FOUND: &str = "KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Failed to commit key, as /hbase/wal/WALs/rs1/f/7 entry is not found in the OpenKey table";
    const HOUR: i64 = 3_600_000;

    #[test]
    fn live_writer_auto_committed_then_failing() {
        let limits = LeaseLimits {
            hard_ms: 2 * HOUR,
            configured: true,
            ..LeaseLimits::default()
        };
        let got = steps(
            vec![
                audit(
                    0,
                    "hbase",
                    "CREATE_FILE",
                    r#","dataSize":"0""#,
                    "SUCCESS",
                    "",
                ),
                audit(
                    HOUR,
                    "hbase",
                    "ALLOCATE_BLOCK",
                    r#","dataSize":"5000","clientID":"7""#,
                    "SUCCESS",
                    "",
                ),
                audit(
                    3 * HOUR + 5,
                    "",
                    "COMMIT_KEY",
                    r#","dataSize":"1184""#,
                    "SUCCESS",
                    "",
                ),
                audit(
                    4 * HOUR,
                    "hbase",
                    "COMMIT_KEY",
                    r#","dataSize":"9000""#,
                    "FAILURE",
                    NOT_FOUND,
                ),
            ],
            limits,
        );
        assert_eq!(
            got,
            vec![
                s("NONE", "OPEN", false, false),
                s("OPEN", "HSYNCED", true, false),
                s("HSYNCED", "LEASE_EXPIRED", true, false),
                s("LEASE_EXPIRED", "AUTO_COMMITTED", false, false),
                s("AUTO_COMMITTED", "WRITER_FAILED", false, false),
            ]
        );
    }

    #[test]
    fn auto_commit_before_the_configured_hard_limit_is_illegal() {
        let configured = LeaseLimits {
            hard_ms: 2 * HOUR,
            configured: true,
            ..LeaseLimits::default()
        };
        let events = || {
            vec![
                audit(
                    0,
                    "hbase",
                    "CREATE_FILE",
                    r#","dataSize":"0""#,
                    "SUCCESS",
                    "",
                ),
                audit(HOUR, "", "COMMIT_KEY", r#","dataSize":"10""#, "SUCCESS", ""),
            ]
        };
        let got = steps(events(), configured);
        assert_eq!(got[2], s("HSYNCED", "LEASE_EXPIRED", true, true));
        assert_eq!(
            got[1],
            s("OPEN", "HSYNCED", true, false),
            "hsync inferred from the auto-commit"
        );
        // With the defaults the timer is not trusted.
        let got = steps(events(), LeaseLimits::default());
        assert_eq!(got[2], s("HSYNCED", "LEASE_EXPIRED", true, false));
        assert_eq!(
            got.last(),
            Some(&s("LEASE_EXPIRED", "AUTO_COMMITTED", false, false))
        );
    }

    #[test]
    fn recovery_close_and_fenced_writer() {
        let got = steps(
            vec![
                audit(
                    0,
                    "hbase",
                    "CREATE_FILE",
                    r#","dataSize":"0""#,
                    "SUCCESS",
                    "",
                ),
                audit(
                    10,
                    "hbase",
                    "ALLOCATE_BLOCK",
                    r#","dataSize":"0","clientID":"7""#,
                    "SUCCESS",
                    "",
                ),
                audit(20, "hbase", "RECOVER_LEASE", "", "SUCCESS", ""),
                audit(
                    30,
                    "hbase",
                    "COMMIT_KEY",
                    r#","dataSize":"50""#,
                    "SUCCESS",
                    "",
                ),
                audit(
                    40,
                    "hbase",
                    "ALLOCATE_BLOCK",
                    r#","dataSize":"60","clientID":"7""#,
                    "FAILURE",
                    "KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Open Key not found /hbase/wal/WALs/rs1/f/7",
                ),
            ],
            LeaseLimits::default(),
        );
        assert_eq!(
            got,
            vec![
                s("NONE", "OPEN", false, false),
                s("OPEN", "OPEN", false, false),
                s("OPEN", "RECOVERING", false, false),
                s("RECOVERING", "RECOVERED", false, false),
                s("RECOVERED", "WRITER_FAILED", false, false),
            ]
        );
    }

    #[test]
    fn illegal_steps_are_flagged() {
        let got = steps(
            vec![
                audit(
                    0,
                    "hbase",
                    "CREATE_FILE",
                    r#","dataSize":"0""#,
                    "SUCCESS",
                    "",
                ),
                // KEY_NOT_FOUND while the key is open: something unlogged removed it.
                audit(
                    10,
                    "hbase",
                    "COMMIT_KEY",
                    r#","dataSize":"60""#,
                    "FAILURE",
                    NOT_FOUND,
                ),
                // A block allocated to a key whose writer already failed.
                audit(
                    20,
                    "hbase",
                    "ALLOCATE_BLOCK",
                    r#","dataSize":"0","clientID":"7""#,
                    "SUCCESS",
                    "",
                ),
                audit(
                    30,
                    "hbase",
                    "COMMIT_KEY",
                    r#","dataSize":"60""#,
                    "SUCCESS",
                    "",
                ),
                audit(
                    40,
                    "hbase",
                    "COMMIT_KEY",
                    r#","dataSize":"60""#,
                    "SUCCESS",
                    "",
                ),
            ],
            LeaseLimits::default(),
        );
        assert_eq!(
            got,
            vec![
                s("NONE", "OPEN", false, false),
                s("OPEN", "WRITER_FAILED", false, true),
                s("WRITER_FAILED", "OPEN", false, true),
                s("OPEN", "OPEN", false, false),
                s("OPEN", "CLOSED", false, false),
                s("CLOSED", "CLOSED", false, true),
            ]
        );
    }

    #[test]
    fn eviction_drops_idle_keys() {
        let trace = Trace::from_ordered(
            vec![audit(
                5,
                "hbase",
                "CREATE_FILE",
                r#","dataSize":"0""#,
                "SUCCESS",
                "",
            )],
            0,
        );
        let mut machine = LeaseMachine::default();
        machine.on_event(&trace, 0, &mut Vec::new());
        let key: Entity = KEY.parse().unwrap();
        assert_eq!(
            machine.lease(&trace, &key).map(|l| l.state),
            Some(LeaseState::Open)
        );
        machine.evict(10);
        assert_eq!(machine.lease(&trace, &key), None);
    }

    #[test]
    fn linker_ties_cleanup_run_and_errors_to_audit_lines() {
        let error = |line: &str| {
            let event =
                oztrace_testkit::events("om2", Component::Om, &format!("{line}\n")).remove(0);
            Event {
                file: "om2/om.log".into(),
                line: 1,
                ..event
            }
        };
        let mut auto = audit(0, "", "COMMIT_KEY", r#","dataSize":"10""#, "SUCCESS", "");
        auto.ts = Some(1_762_164_000_117);
        let mut summary = error(
            "2025-11-03 10:00:00,200 [om1-OpenKeyCleanupService#0] INFO org.apache.hadoop.ozone.om.service.OpenKeyCleanupService: Number of expired open keys submitted for deletion: 0, for commit: 1, cleanupLimit: 1000, elapsed time: 94ms",
        );
        summary.host = "om1".into();
        let mut fail = audit(
            0,
            "hbase",
            "COMMIT_KEY",
            r#","dataSize":"20""#,
            "FAILURE",
            NOT_FOUND,
        );
        fail.ts = Some(1_762_164_001_000);
        let err = error(
            "2025-11-03 10:00:01,050 [om2-OMStateMachineApplyTransactionThread - 0] ERROR org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest: Key committed failed. Volume:hbase, Bucket:wal, Key:WALs/rs1/f. Exception:{}",
        );
        let trace = Trace::from_ordered(vec![auto, summary, fail, err], 2_000);
        let mut links = Vec::new();
        OmLinker.link(&trace, &mut links);
        let pairs: Vec<(EventId, EventId)> = links.iter().map(|(a, b, _)| (*a, *b)).collect();
        assert_eq!(pairs, vec![(1, 0), (2, 3)]);
    }
}
