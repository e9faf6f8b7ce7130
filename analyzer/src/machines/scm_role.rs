//! `scm-role`: each SCM member's role (LEADER with its term, or FOLLOWER) as the SCM code sees it.
//!
//! The authority is `SCMContext` (`update <isLeader,term> from <a,b> to <c,d>`), which every SCM
//! code path consults (`SCMContext.isLeader()`); the `SCMStateMachine` Ratis callbacks log around
//! it (`current SCM … becomes leader of term N` → `updateLeaderAndTerm(true, N)`; `SCM … steps down
//! from being leader.` → `updateLeaderAndTerm(false, 0)`; `Leader changed to …, current SCM … is
//! still follower.`). Ratis `changes role` lines (kind `ratis_role_change`, the Ratis slice) are
//! used only on a host that logs none of those SCM lines. The SCM audit log gives a second,
//! default-on witness: `SEND_HEARTBEAT` carries `term` only when the SCM answered as leader
//! (`SCMDatanodeProtocolServer`), so a host whose main log lost its role lines (a missing rotation)
//! still gets its role, as an inferred step naming the SCMContext line that would have shown it.
//! Whether a host logs SCM role lines at all, and its SCM id, are read once from all its lines.
//!
//! Entity `scm:<scmId>` (the Ratis peer id, learnt from the host's own lines), else `scm:<host>`;
//! scope = the host.

use crate::kinds::{self, KindSet, Reads};
use crate::machine::{EntityStates, Machine, Replay, Row, State, Transition, allows};
use crate::machines::endpoint::SCM_AUDIT;
use crate::trace::{EventId, HostId, IdCursor, Trace};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::ratis::RatisEvent;
use oztrace_parser::catalog::scm::ScmEvent;
use oztrace_parser::entity::Entity;
use oztrace_parser::event::Event;
use oztrace_parser::source::Component;
use std::sync::{Arc, LazyLock};

pub const NAME: &str = "scm-role";

/// An audit line disagreeing with the role within this long after a logged role change is the
/// heartbeat that was in flight during the change, not a missed change.
const AUDIT_GRACE_MS: i64 = 2_000;

/// The SCMContext lines an audit-inferred step stands for.
const AUDIT_ELECTED: &str = "SCMContext INFO `update <isLeader,term> from <false,0> to <true,T>` (SCM audit SEND_HEARTBEAT has `term`)";
const AUDIT_STEP_DOWN: &str = "SCMContext INFO `update <isLeader,term> from <true,T> to <false,0>` (SCM audit SEND_HEARTBEAT has no `term`, or a higher one)";

/// What a line says of its SCM's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// It leads: `scm_became_leader`, `scm_role_update` to `<true,T>`, `scm_startup_role` LEADER,
    /// a Ratis `changes role` to LEADER, or (inferred) a SEND_HEARTBEAT audit with `term`.
    Elected,
    /// `scm_stepped_down`.
    SteppedDown,
    /// It follows: `scm_role_update` to `<false,0>`, `scm_leader_changed`, `scm_startup_role`
    /// FOLLOWER, a Ratis `changes role` to FOLLOWER, or (inferred) a SEND_HEARTBEAT audit without
    /// `term`.
    Follows,
}

/// A role as the table sees it: a leader's term matters only as known or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Unknown,
    Follower,
    /// A leader of a known term.
    Leader,
    /// A leader whose term no line printed (` scm role is LEADER` at startup).
    LeaderOfUnknownTerm,
}

/// The transition table: a step it lacks is `illegal` (a leader of one term leading another
/// without stepping down, a step-down while following). Becoming leader of a term at or below one
/// this SCM led is illegal too: Ratis terms only grow.
pub const TRANSITIONS: &[Row<Standing, Trigger>] = &[
    Row {
        from: &[
            Standing::Unknown,
            Standing::Follower,
            Standing::LeaderOfUnknownTerm,
        ],
        trigger: Trigger::Elected,
        to: Standing::Leader,
        code: "SCMStateMachine.notifyLeaderChanged (this SCM won) → SCMContext.updateLeaderAndTerm(true, term); \
               SCMDatanodeProtocolServer audits `term` only when SCMContext.isLeader()",
    },
    Row {
        from: &[Standing::Unknown, Standing::Follower],
        trigger: Trigger::Elected,
        to: Standing::LeaderOfUnknownTerm,
        code: "SCMHAManagerImpl.start ` scm role is {} peers {}`",
    },
    Row {
        from: &[
            Standing::Unknown,
            Standing::Leader,
            Standing::LeaderOfUnknownTerm,
        ],
        trigger: Trigger::SteppedDown,
        to: Standing::Follower,
        code: "SCMStateMachine.notifyNotLeader (Ratis LeaderStateImpl.stop) → updateLeaderAndTerm(false, 0)",
    },
    Row {
        from: &[
            Standing::Unknown,
            Standing::Leader,
            Standing::LeaderOfUnknownTerm,
        ],
        trigger: Trigger::Follows,
        to: Standing::Follower,
        code: "SCMContext.updateLeaderAndTerm(false, 0); SCMStateMachine.notifyLeaderChanged (another \
               SCM won; on a deposed leader notifyNotLeader came first, inferred); \
               SCMDatanodeProtocolServer omits `term` when not leader",
    },
];

/// An SCM's role; [`TRANSITIONS`] says which steps between roles are legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Unknown,
    Leader(Option<u64>),
    Follower,
}

impl Role {
    fn standing(self) -> Standing {
        match self {
            Role::Unknown => Standing::Unknown,
            Role::Follower => Standing::Follower,
            Role::Leader(Some(_)) => Standing::Leader,
            Role::Leader(None) => Standing::LeaderOfUnknownTerm,
        }
    }

    pub fn label(self) -> State {
        match self {
            Role::Unknown => "UNKNOWN".into(),
            Role::Leader(Some(term)) => format!("LEADER term {term}").into(),
            Role::Leader(None) => "LEADER".into(),
            Role::Follower => "FOLLOWER".into(),
        }
    }

    fn is_leader(self) -> bool {
        matches!(self, Role::Leader(_))
    }
}

#[derive(Debug, Clone)]
struct HostState {
    role: Role,
    /// Highest term this SCM led.
    max_led_term: Option<u64>,
    /// Time of the last role line from the main log.
    last_logged_change: Option<i64>,
    entity: Arc<Entity>,
}

#[derive(Default)]
pub struct ScmRole {
    hosts: EntityStates<HostId, HostState>,
    /// Per host, once asked: its entity and whether it logs SCM role lines.
    known: Vec<Option<(Arc<Entity>, bool)>>,
    /// Per host, read at the first question: the first of its lines that prints its own scmId
    /// and whether it logs an SCM role line.
    lines: Option<HostLines>,
    /// Where the next event's heartbeat may be ([`Trace::heartbeat_term`]).
    heartbeats: IdCursor,
}

/// What the few lines of the kinds [`own_scm_id`] and [`Signal::Logged`] read say of each host,
/// by [`HostId`]: read from those kinds' events, not from every line of every SCM.
struct HostLines {
    first_own_id: Vec<Option<EventId>>,
    logs_roles: Vec<bool>,
}

impl HostLines {
    fn read(trace: &Trace) -> HostLines {
        let of_kinds = |kinds: &'static KindSet| {
            kinds
                .iter()
                .flat_map(|kind| trace.of_kind(kinds::name(kind)))
                .copied()
        };
        let mut first_own_id: Vec<Option<EventId>> = vec![None; trace.host_count()];
        for id in of_kinds(&OWN_ID_KINDS) {
            let first = &mut first_own_id[trace.host_of(id).index()];
            if first.is_none_or(|first| id < first) && own_scm_id(trace.get(id)).is_some() {
                *first = Some(id);
            }
        }
        let mut logs_roles = vec![false; trace.host_count()];
        let mut cursor = IdCursor::default();
        for id in of_kinds(&LOGGED_KINDS) {
            let logs = &mut logs_roles[trace.host_of(id).index()];
            if !*logs && matches!(signal(trace, id, &mut cursor), Some(Signal::Logged(_))) {
                *logs = true;
            }
        }
        HostLines {
            first_own_id,
            logs_roles,
        }
    }
}

impl ScmRole {
    pub fn new() -> ScmRole {
        ScmRole::default()
    }

    /// The SCM id of a host (the first of its own lines that prints it) and whether any of its
    /// lines is an SCM role line (then Ratis lines do not move its role), read once per host into
    /// `known`.
    fn host_facts<'k>(
        known: &'k mut Vec<Option<(Arc<Entity>, bool)>>,
        lines: &mut Option<HostLines>,
        trace: &Trace,
        host_id: HostId,
    ) -> &'k (Arc<Entity>, bool) {
        if known.len() < trace.host_count() {
            known.resize(trace.host_count(), None);
        }
        known[host_id.index()].get_or_insert_with(|| {
            let lines = lines.get_or_insert_with(|| HostLines::read(trace));
            let host = trace.host_name(host_id);
            let entity = lines.first_own_id[host_id.index()]
                .and_then(|id| own_scm_id(trace.get(id)))
                .and_then(|id| Entity::scm(&id))
                .or_else(|| Entity::scm(host))
                .unwrap_or_else(|| Entity::Scm(host.to_string()));
            let entity = match trace.entity_id(&entity) {
                Some(id) => Arc::clone(trace.entity(id)),
                None => Arc::new(entity),
            };
            (entity, lines.logs_roles[host_id.index()])
        })
    }
}

/// The kinds of the lines [`own_scm_id`] reads.
static OWN_ID_KINDS: LazyLock<KindSet> = LazyLock::new(|| {
    KindSet::of(&[
        Reads::Kind("scm_became_leader"),
        Reads::Kind("scm_stepped_down"),
        Reads::Kind("scm_leader_changed"),
        Reads::Kind("scm_apply_transaction"),
        Reads::Kind("ratis_role_change"),
    ])
});

/// The kinds of the SCM's own role lines ([`Signal::Logged`]).
static LOGGED_KINDS: LazyLock<KindSet> = LazyLock::new(|| KindSet::of(&LOGGED));

/// The scmId a line prints as its own: SCMStateMachine lines name it; Ratis member ids
/// (`<peer>@group-…`) in SCM logs are the SCM's own.
fn own_scm_id(event: &Event) -> Option<String> {
    match &event.data {
        EventData::Scm(ScmEvent::BecameLeader { scm_id, .. })
        | EventData::Scm(ScmEvent::SteppedDown { scm_id })
        | EventData::Scm(ScmEvent::LeaderChanged { scm_id, .. }) => Some(scm_id.clone()),
        EventData::Scm(ScmEvent::ApplyTransaction { member, .. }) => {
            member.split('@').next().map(str::to_string)
        }
        EventData::Ratis(RatisEvent::RoleChange { member, .. })
            if event.component == Component::Scm =>
        {
            Some(member.peer.clone())
        }
        _ => None,
    }
}

/// What one event says about its host's role.
enum Signal {
    /// A line of the SCM's own role code (authoritative).
    Logged(Role),
    /// A Ratis role line.
    Ratis(Role),
    /// The audit's witness; inferred when it changes the state.
    Audit(Role),
}

fn signal(trace: &Trace, id: EventId, heartbeats: &mut IdCursor) -> Option<Signal> {
    // The heartbeat audits (most SCM records) are read from the trace's digest of them.
    if let Some(term) = trace.heartbeat_term(id, heartbeats) {
        return Some(Signal::Audit(match term {
            Some(term) => Role::Leader(Some(term)),
            None => Role::Follower,
        }));
    }
    // Another audit says nothing of the role: it is not opened.
    if trace.kind_of(id) == *SCM_AUDIT {
        return None;
    }
    let event = trace.get(id);
    match &event.data {
        EventData::Scm(ScmEvent::BecameLeader { term, .. }) => {
            Some(Signal::Logged(Role::Leader(Some(*term))))
        }
        EventData::Scm(ScmEvent::RoleUpdate {
            is_leader,
            new_term,
            ..
        }) => Some(Signal::Logged(if *is_leader {
            Role::Leader(u64::try_from(*new_term).ok())
        } else {
            Role::Follower
        })),
        EventData::Scm(ScmEvent::SteppedDown { .. } | ScmEvent::LeaderChanged { .. }) => {
            Some(Signal::Logged(Role::Follower))
        }
        EventData::Scm(ScmEvent::StartupRole { role, .. }) => {
            Some(Signal::Logged(if role.trim() == "LEADER" {
                Role::Leader(None)
            } else {
                Role::Follower
            }))
        }
        EventData::Ratis(RatisEvent::RoleChange { to, term, .. })
            if event.component == Component::Scm =>
        {
            Some(Signal::Ratis(if to.trim() == "LEADER" {
                Role::Leader(Some(*term))
            } else {
                Role::Follower
            }))
        }
        _ => None,
    }
}

/// The kinds [`ScmRole`] reads: the SCM's own role lines, its Ratis role changes, and the heartbeat
/// audit whose term witnesses the role.
pub const CONSUMES: &[Reads] = &[
    LOGGED[0],
    LOGGED[1],
    LOGGED[2],
    LOGGED[3],
    LOGGED[4],
    Reads::Kind("scm_audit"),
    Reads::Kind("ratis_role_change"),
];

/// The SCM's own role lines ([`Signal::Logged`]).
const LOGGED: [Reads; 5] = [
    Reads::Kind("scm_became_leader"),
    Reads::Kind("scm_role_update"),
    Reads::Kind("scm_stepped_down"),
    Reads::Kind("scm_leader_changed"),
    Reads::Kind("scm_startup_role"),
];

impl Machine for ScmRole {
    fn name(&self) -> &'static str {
        NAME
    }

    fn consumes(&self) -> &'static [Reads] {
        CONSUMES
    }

    fn on_event(&mut self, trace: &Trace, id: EventId, out: &mut Vec<Transition>) {
        let Some(signal) = signal(trace, id, &mut self.heartbeats) else {
            return;
        };
        // Host and time from the trace's columns: a heartbeat audit's event is not opened.
        let host_id = trace.host_of(id);
        let host = trace.host_name(host_id);
        let ts = trace.ts_of(id);
        // Borrowed: most events (heartbeats that agree) change nothing and clone nothing.
        let (entity, has_scm_lines) =
            ScmRole::host_facts(&mut self.known, &mut self.lines, trace, host_id);
        if matches!(signal, Signal::Ratis(_)) && *has_scm_lines {
            return;
        }
        let state = self.hosts.entry_or(
            host_id,
            || HostState {
                role: Role::Unknown,
                max_led_term: None,
                last_logged_change: None,
                entity: Arc::clone(entity),
            },
            ts,
        );
        let mut from = state.role;
        // An audit term above the one this SCM leads: it lost and regained leadership between two
        // heartbeats with the main-log lines missing; both steps are inferred.
        if let (Signal::Audit(Role::Leader(Some(new))), Role::Leader(Some(old))) = (&signal, from)
            && *new > old
            && state
                .last_logged_change
                .zip(ts)
                .is_none_or(|(change, ts)| ts - change > AUDIT_GRACE_MS)
        {
            out.push(Transition {
                machine: NAME,
                entity: state.entity.clone(),
                scope: Some(Arc::clone(host)),
                from: from.label(),
                to: Role::Follower.label(),
                event: id,
                inferred: Some(AUDIT_STEP_DOWN),
                illegal: !allows(
                    TRANSITIONS,
                    from.standing(),
                    Trigger::Follows,
                    Standing::Follower,
                ),
            });
            from = Role::Follower;
            state.role = from;
        }
        let (to, inferred): (Role, Option<&'static str>) = match signal {
            Signal::Logged(role) => {
                let to = match (from, role) {
                    // `update … to <true,T>` after `becomes leader of term T` repeats it.
                    (Role::Leader(Some(t)), Role::Leader(None)) => Role::Leader(Some(t)),
                    _ => role,
                };
                let inferred = (from.is_leader()
                    && matches!(
                        trace.get(id).data,
                        EventData::Scm(ScmEvent::LeaderChanged { .. })
                    ))
                .then_some("SCMStateMachine INFO `SCM {} steps down from being leader.`");
                (to, inferred)
            }
            Signal::Ratis(role) => (role, None),
            Signal::Audit(role) => {
                let agrees = match (from, role) {
                    (Role::Leader(Some(a)), Role::Leader(Some(b))) => a == b,
                    (Role::Leader(None), Role::Leader(_)) => true,
                    (a, b) => a == b,
                };
                let in_grace = match (state.last_logged_change, ts) {
                    (Some(change), Some(ts)) => ts - change <= AUDIT_GRACE_MS,
                    _ => false,
                };
                if agrees || in_grace {
                    return;
                }
                let line = if role.is_leader() {
                    AUDIT_ELECTED
                } else {
                    AUDIT_STEP_DOWN
                };
                (role, Some(line))
            }
        };
        let trigger = if to.is_leader() {
            Trigger::Elected
        } else if matches!(
            trace.get(id).data,
            EventData::Scm(ScmEvent::SteppedDown { .. })
        ) {
            Trigger::SteppedDown
        } else {
            Trigger::Follows
        };
        // A step-down line while following is a step (an illegal one); other repeats are none.
        if from == to && trigger != Trigger::SteppedDown {
            return;
        }
        let term_went_back = match to {
            Role::Leader(Some(t)) => state.max_led_term.is_some_and(|max| t <= max),
            _ => false,
        };
        let illegal =
            !allows(TRANSITIONS, from.standing(), trigger, to.standing()) || term_went_back;
        if let Role::Leader(Some(t)) = to {
            state.max_led_term = Some(state.max_led_term.map_or(t, |m| m.max(t)));
        }
        if inferred.is_none() {
            state.last_logged_change = ts.or(state.last_logged_change);
        }
        state.role = to;
        out.push(Transition {
            machine: NAME,
            entity: state.entity.clone(),
            scope: Some(Arc::clone(host)),
            from: from.label(),
            to: to.label(),
            event: id,
            inferred,
            illegal,
        });
    }

    fn evict(&mut self, before: i64) {
        self.hosts.evict(before);
    }
}

/// The role of SCM `host` at event `at` (after it), from the `scm-role` transitions: `None` before
/// the first thing the logs say about it.
pub fn is_leader(analysis_replay: &Replay, trace: &Trace, host: &str, at: EventId) -> Option<bool> {
    let _ = trace; // Positions in `trace` are the event ids transitions carry.
    role_at(analysis_replay, host, at).map(|t| t.to.starts_with("LEADER"))
}

/// The last `scm-role` transition of `host` at or before event `at`. `Replay::run` steps events
/// in order and this machine reports each step at its own event, so the search starts at `at`
/// and walks back through this machine's transitions.
pub fn role_at<'r>(replay: &'r Replay, host: &str, at: EventId) -> Option<&'r Transition> {
    let steps = replay.of_machine(NAME).as_slice();
    let end = steps.partition_point(|t| t.event <= at);
    steps[..end]
        .iter()
        .rev()
        .find(|t| t.scope.as_deref() == Some(host))
}

/// The leader term in a `scm-role` state label (`LEADER term 7`).
pub fn term_of(label: &str) -> Option<u64> {
    label.strip_prefix("LEADER term ")?.parse().ok()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use oztrace_parser::audit::Params;
    use oztrace_parser::catalog::scm::ScmAudit;

    const SCM1: &str = "1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5";

    pub(crate) fn scm_event(host: &str, line: u64, ts: i64, data: ScmEvent) -> Event {
        let mut e = crate::trace::tests::event(host, "scm.log", line, Some(ts), vec![]);
        e.data = EventData::Scm(data);
        e
    }

    pub(crate) fn heartbeat(host: &str, line: u64, ts: i64, term: Option<u64>) -> Event {
        let mut e = scm_event(
            host,
            line,
            ts,
            ScmEvent::Audit(Box::new(ScmAudit {
                user: "hadoop".into(),
                ip: "10.0.1.13".into(),
                op: "SEND_HEARTBEAT".into(),
                params: Params::new(),
                ret: "SUCCESS".into(),
                term,
                action: None,
                force: None,
                nodes: Vec::new(),
                commands: Vec::new(),
            })),
        );
        e.file = "scm-audit.log".into();
        e.component = Component::ScmAudit;
        e
    }

    pub(crate) fn role_update(host: &str, line: u64, ts: i64, leader: bool, term: i64) -> Event {
        scm_event(
            host,
            line,
            ts,
            ScmEvent::RoleUpdate {
                was_leader: !leader,
                old_term: if leader { 0 } else { term },
                is_leader: leader,
                new_term: if leader { term } else { 0 },
            },
        )
    }

    fn replay(events: Vec<Event>) -> (Trace, Replay) {
        let trace = Trace::from_ordered(events, 2000);
        let mut machines: Vec<Box<dyn Machine>> = vec![Box::new(ScmRole::new())];
        let replay = Replay::run(&trace, &mut machines, i64::MAX);
        (trace, replay)
    }

    fn steps(replay: &Replay) -> Vec<(String, String, bool, bool)> {
        replay
            .of_machine(NAME)
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

    #[test]
    fn step_down_and_re_election_from_scm_lines() {
        let (trace, replay) = replay(vec![
            scm_event(
                "scm1",
                1,
                0,
                ScmEvent::BecameLeader {
                    scm_id: SCM1.into(),
                    term: 3,
                },
            ),
            role_update("scm1", 2, 1, true, 3),
            scm_event(
                "scm1",
                3,
                100,
                ScmEvent::SteppedDown {
                    scm_id: SCM1.into(),
                },
            ),
            role_update("scm1", 4, 101, false, 3),
            scm_event(
                "scm1",
                5,
                200,
                ScmEvent::BecameLeader {
                    scm_id: SCM1.into(),
                    term: 5,
                },
            ),
            role_update("scm1", 6, 201, true, 5),
        ]);
        assert_eq!(
            steps(&replay),
            vec![
                ("UNKNOWN".into(), "LEADER term 3".into(), false, false),
                ("LEADER term 3".into(), "FOLLOWER".into(), false, false),
                ("FOLLOWER".into(), "LEADER term 5".into(), false, false),
            ]
        );
        let t = replay.of_machine(NAME).next().unwrap();
        assert_eq!(*t.entity, Entity::Scm(SCM1.into()));
        assert_eq!(t.scope.as_deref(), Some("scm1"));
        assert_eq!(is_leader(&replay, &trace, "scm1", 0), Some(true));
        assert_eq!(is_leader(&replay, &trace, "scm1", 3), Some(false));
        assert_eq!(is_leader(&replay, &trace, "scm1", 5), Some(true));
        assert_eq!(is_leader(&replay, &trace, "scm2", 5), None);
        assert_eq!(term_of(&role_at(&replay, "scm1", 5).unwrap().to), Some(5));
    }

    #[test]
    fn audit_terms_infer_a_role_change_missing_from_the_main_log() {
        let (trace, replay) = replay(vec![
            heartbeat("scm2", 1, 0, Some(23)),
            heartbeat("scm2", 2, 30_000, Some(23)),
            // The main log rotation with the step-down is missing: the audit stops carrying `term`.
            heartbeat("scm2", 3, 60_000, None),
            scm_event(
                "scm2",
                4,
                90_000,
                ScmEvent::BecameLeader {
                    scm_id: SCM1.into(),
                    term: 26,
                },
            ),
            // In flight during the election: no term, within the grace window.
            heartbeat("scm2", 5, 90_500, None),
            heartbeat("scm2", 6, 100_000, Some(26)),
        ]);
        assert_eq!(
            steps(&replay),
            vec![
                ("UNKNOWN".into(), "LEADER term 23".into(), true, false),
                ("LEADER term 23".into(), "FOLLOWER".into(), true, false),
                ("FOLLOWER".into(), "LEADER term 26".into(), false, false),
            ]
        );
        assert_eq!(is_leader(&replay, &trace, "scm2", 2), Some(false));
        assert_eq!(is_leader(&replay, &trace, "scm2", 4), Some(true));
    }

    #[test]
    fn a_higher_audit_term_infers_a_step_down_and_a_re_election() {
        let (_, replay) = replay(vec![
            heartbeat("scm1", 1, 0, Some(6)),
            heartbeat("scm1", 2, 30_000, Some(7)),
            // A lower term than one it led: terms never go back.
            heartbeat("scm1", 3, 60_000, Some(5)),
        ]);
        assert_eq!(
            steps(&replay),
            vec![
                ("UNKNOWN".into(), "LEADER term 6".into(), true, false),
                ("LEADER term 6".into(), "FOLLOWER".into(), true, false),
                ("FOLLOWER".into(), "LEADER term 7".into(), true, false),
                ("LEADER term 7".into(), "LEADER term 5".into(), true, true),
            ]
        );
    }

    #[test]
    fn idle_hosts_are_evicted_after_retain() {
        let trace = Trace::from_ordered(
            vec![
                role_update("scm1", 1, 0, true, 3),
                role_update("scm1", 2, 100_000, false, 3),
            ],
            0,
        );
        let mut machine = ScmRole::new();
        let mut out = Vec::new();
        machine.on_event(&trace, 0, &mut out);
        machine.evict(50_000);
        machine.on_event(&trace, 1, &mut out);
        assert_eq!(out[1].from, "UNKNOWN");
    }

    #[test]
    fn illegal_steps_are_flagged() {
        let (_, replay) = replay(vec![
            scm_event(
                "scm1",
                1,
                0,
                ScmEvent::BecameLeader {
                    scm_id: SCM1.into(),
                    term: 7,
                },
            ),
            // Leader of another term without a step-down between.
            scm_event(
                "scm1",
                2,
                10_000,
                ScmEvent::BecameLeader {
                    scm_id: SCM1.into(),
                    term: 9,
                },
            ),
            scm_event(
                "scm1",
                3,
                20_000,
                ScmEvent::SteppedDown {
                    scm_id: SCM1.into(),
                },
            ),
            // A step-down while follower.
            scm_event(
                "scm1",
                4,
                30_000,
                ScmEvent::SteppedDown {
                    scm_id: SCM1.into(),
                },
            ),
            // A term this SCM already led.
            scm_event(
                "scm1",
                5,
                40_000,
                ScmEvent::BecameLeader {
                    scm_id: SCM1.into(),
                    term: 8,
                },
            ),
        ]);
        let illegal: Vec<bool> = replay.of_machine(NAME).map(|t| t.illegal).collect();
        assert_eq!(illegal, vec![false, true, false, true, true]);
    }

    #[test]
    fn a_deposed_leader_learning_the_new_leader_infers_its_step_down() {
        let (_, replay) = replay(vec![
            role_update("scm1", 1, 0, true, 4),
            scm_event(
                "scm1",
                2,
                5_000,
                ScmEvent::LeaderChanged {
                    leader: "x".into(),
                    scm_id: SCM1.into(),
                },
            ),
        ]);
        let last = replay.of_machine(NAME).last().unwrap();
        assert_eq!(
            (last.from.as_str(), last.to.as_str()),
            ("LEADER term 4", "FOLLOWER")
        );
        assert!(last.inferred.unwrap().contains("steps down"));
    }
}
