//! `ratis-member`: one datanode's member of one Ratis group (a pipeline), as Ratis and the
//! ContainerStateMachine log it: role and term, the last log truncation, and write outcomes.
//!
//! The entity is the group (`group:<12 HEX>`); the scope is the datanode (its UUID, the Ratis
//! peer id, or the host when no line has named the UUID yet). Roles follow
//! `RaftServerImpl.changeToFollower/changeToCandidate/changeToLeader` (ratis-3.2.1, logged by
//! `setRole`); a truncation is `SegmentedRaftLog.appendImpl` → `truncate(index)` on entries that
//! conflict with the leader's, which Raft allows only on a follower (Leader Append-Only).
//! Write outcomes are `SegmentedRaftLogWorker` `Timeout n/~` (a state machine data write, i.e. a
//! chunk write, slower than `hdds.container.ratis.statemachinedata.sync.timeout`) and
//! `ContainerStateMachine` write failures.

use crate::kinds::{Family, KindSet, Reads};
use crate::machine::{EntityStates, Machine, Transition};
use crate::trace::{EventId, HostId, IdCursor, Trace};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::datanode::DatanodeEvent;
use oztrace_parser::catalog::ratis::RatisEvent;
use oztrace_parser::entity::{Entity, group_of_pipeline};
use oztrace_parser::source::Component;
use std::sync::{Arc, LazyLock};

pub const NAME: &str = "ratis-member";

/// What moves a member: a role change (named by Ratis's `changeTo*` method), a truncation, or a
/// write outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    ChangeToFollower,
    ChangeToCandidate,
    ChangeToLeader,
    ChangeToListener,
    Truncate,
    WriteTimeout,
    WriteFailed,
}

/// (from, trigger, to, the code that does it). `*` means any role, unchanged.
pub const TRANSITIONS: &[(&str, Trigger, &str, &str)] = &[
    (
        "null",
        Trigger::ChangeToFollower,
        "FOLLOWER",
        "RaftServerImpl.start -> startAsFollower",
    ),
    (
        "null",
        Trigger::ChangeToListener,
        "LISTENER",
        "RaftServerImpl.start -> startAsListener",
    ),
    (
        "FOLLOWER",
        Trigger::ChangeToCandidate,
        "CANDIDATE",
        "FollowerState election timeout -> RaftServerImpl.changeToCandidate",
    ),
    (
        "FOLLOWER",
        Trigger::ChangeToFollower,
        "FOLLOWER",
        "RaftServerImpl.changeToFollower on a higher term (vote request or appendEntries)",
    ),
    (
        "CANDIDATE",
        Trigger::ChangeToLeader,
        "LEADER",
        "LeaderElection PASSED -> RaftServerImpl.changeToLeader",
    ),
    (
        "CANDIDATE",
        Trigger::ChangeToFollower,
        "FOLLOWER",
        "LeaderElection REJECTED / DISCOVERED_A_NEW_TERM, or a leader's appendEntries -> RaftServerImpl.changeToFollower",
    ),
    (
        "CANDIDATE",
        Trigger::ChangeToCandidate,
        "CANDIDATE",
        "LeaderElection retries at a higher term",
    ),
    (
        "LEADER",
        Trigger::ChangeToFollower,
        "FOLLOWER",
        "LeaderStateImpl.stepDown (HIGHER_TERM, LOST_MAJORITY_HEARTBEATS, STATE_MACHINE_EXCEPTION, ...) or a higher-term request -> RaftServerImpl.changeToFollower",
    ),
    (
        "LISTENER",
        Trigger::ChangeToFollower,
        "FOLLOWER",
        "RaftServerImpl.setConfiguration promotes a listener",
    ),
    (
        "FOLLOWER",
        Trigger::ChangeToListener,
        "LISTENER",
        "RaftServerImpl.setConfiguration demotes a follower",
    ),
    (
        "FOLLOWER",
        Trigger::Truncate,
        "FOLLOWER",
        "SegmentedRaftLog.appendImpl -> StateMachine.truncate + truncate(index) on conflicting entries (RaftServerImpl.appendEntriesAsync)",
    ),
    (
        "LISTENER",
        Trigger::Truncate,
        "LISTENER",
        "SegmentedRaftLog.appendImpl on a listener",
    ),
    (
        "null",
        Trigger::Truncate,
        "null",
        "a truncation before any role line (role unknown)",
    ),
    (
        "*",
        Trigger::WriteTimeout,
        "*",
        "SegmentedRaftLogWorker.WriteLog.execute: stateMachine.data().write not done within the sync timeout",
    ),
    (
        "*",
        Trigger::WriteFailed,
        "*",
        "ContainerStateMachine.writeStateMachineData failure (result not ignorable, or exception)",
    ),
];

/// The role after `trigger` from `from`, if the table allows it.
pub fn next_role(from: &str, trigger: Trigger) -> Option<&'static str> {
    TRANSITIONS.iter().find_map(|&(f, t, to, _)| {
        (t == trigger && (f == from || f == "*")).then(|| if to == "*" { "" } else { to })
    })
}

fn role_trigger(to: &str) -> Option<Trigger> {
    Some(match to {
        "FOLLOWER" => Trigger::ChangeToFollower,
        "CANDIDATE" => Trigger::ChangeToCandidate,
        "LEADER" => Trigger::ChangeToLeader,
        "LISTENER" => Trigger::ChangeToListener,
        _ => return None,
    })
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct MemberState {
    role: String,
    term: u64,
    truncated: Option<u64>,
    write_timeouts: u32,
    write_failures: u32,
}

impl MemberState {
    fn render(&self) -> String {
        let mut s = format!("{} t{}", self.role, self.term);
        if let Some(index) = self.truncated {
            s.push_str(&format!(" truncated<{index}"));
        }
        if self.write_timeouts > 0 {
            s.push_str(&format!(" write-timeouts={}", self.write_timeouts));
        }
        if self.write_failures > 0 {
            s.push_str(&format!(" write-failures={}", self.write_failures));
        }
        s
    }
}

impl Default for MemberState {
    fn default() -> Self {
        MemberState {
            role: "null".into(),
            term: 0,
            truncated: None,
            write_timeouts: 0,
            write_failures: 0,
        }
    }
}

/// The `ratis-member` machine.
#[derive(Default)]
pub struct RatisMember {
    members: EntityStates<(Arc<str>, String), MemberState>,
    /// Host (by [`HostId`]) → datanode UUID, learnt from member ids on that host.
    datanode_of_host: Vec<Option<Arc<str>>>,
    /// Where the next Ratis line's peer may be ([`Trace::ratis_peer_from`]).
    peers: IdCursor,
}

impl RatisMember {
    pub fn new() -> RatisMember {
        RatisMember::default()
    }

    fn scope(&self, trace: &Trace, host: HostId) -> Arc<str> {
        Arc::clone(
            self.datanode_of_host[host.index()]
                .as_ref()
                .unwrap_or_else(|| trace.host_name(host)),
        )
    }
}

/// The kinds that step a member ([`RatisMember::on_event`]); the other Ratis lines only teach
/// their host's datanode.
static STEPS: LazyLock<KindSet> = LazyLock::new(|| {
    KindSet::of(&[
        Reads::Kind("ratis_role_change"),
        Reads::Kind("ratis_log_truncate"),
        Reads::Kind("ratis_write_timeout"),
        Reads::Kind("csm_write_failed"),
        Reads::Kind("csm_write_failed_close_server"),
    ])
});

fn is_datanode(component: Component) -> bool {
    matches!(component, Component::Datanode)
}

/// The kinds [`RatisMember`] reads: every Ratis line (any member id teaches the host's datanode),
/// and the datanode's failed state machine writes.
pub const CONSUMES: &[Reads] = &[
    Reads::Family(Family::Ratis),
    Reads::Kind("csm_write_failed"),
    Reads::Kind("csm_write_failed_close_server"),
];

impl Machine for RatisMember {
    fn name(&self) -> &'static str {
        NAME
    }

    fn consumes(&self) -> &'static [Reads] {
        CONSUMES
    }

    fn on_event(&mut self, trace: &Trace, id: EventId, out: &mut Vec<Transition>) {
        if !is_datanode(trace.component_of(id)) {
            return;
        }
        if self.datanode_of_host.is_empty() {
            self.datanode_of_host = vec![None; trace.host_count()];
        }
        let host = trace.host_of(id);
        // Any member id teaches the host's datanode: from the trace's compact column.
        if let Some(peer) = trace.ratis_peer_from(id, &mut self.peers) {
            let known = &mut self.datanode_of_host[host.index()];
            if known.as_deref() != Some(&**peer) {
                *known = Some(Arc::clone(peer));
            }
        }
        // Only the kinds that step a member are opened (most Ratis lines are snapshots).
        if !STEPS.contains(trace.kind_of(id)) {
            return;
        }
        let event = trace.get(id);
        // Which (datanode, group) and what happened.
        let (group, step) = match &event.data {
            EventData::Ratis(r) => match r {
                RatisEvent::RoleChange {
                    member,
                    from,
                    to,
                    term,
                    ..
                } => (
                    member.group.clone(),
                    Step::Role(from.clone(), to.clone(), *term),
                ),
                RatisEvent::LogTruncate { member, index, .. } => {
                    (member.group.clone(), Step::Truncate(*index))
                }
                RatisEvent::WriteTimeout(timeout) => {
                    let group = timeout
                        .pipeline
                        .as_deref()
                        .and_then(group_of_pipeline)
                        .map(|g| format!("group-{g}"))
                        .or_else(|| {
                            event.thread.as_deref().and_then(|t| {
                                oztrace_parser::entity::find_member_ids(t)
                                    .next()
                                    .map(|m| format!("group-{}", m.value.group))
                            })
                        });
                    match group {
                        Some(g) => (g, Step::Outcome(Trigger::WriteTimeout)),
                        None => return,
                    }
                }
                _ => return,
            },
            EventData::Datanode(DatanodeEvent::CsmWriteFailed(failed)) => {
                (failed.group.clone(), Step::Outcome(Trigger::WriteFailed))
            }
            EventData::Datanode(DatanodeEvent::CsmWriteFailedCloseServer { group }) => {
                (group.clone(), Step::Outcome(Trigger::WriteFailed))
            }
            _ => return,
        };
        let Some(Entity::Group(hex)) = Entity::group(&group) else {
            return;
        };
        let scope = self.scope(trace, host);
        let key = (Arc::clone(&scope), hex.clone());
        let state = self.members.entry_or(key, MemberState::default, event.ts);
        let entity = trace.shared(id, &Entity::Group(hex));
        let mut push = |from: String, to: String, inferred: Option<&'static str>, illegal: bool| {
            out.push(Transition {
                machine: NAME,
                entity: Arc::clone(&entity),
                scope: Some(Arc::clone(&scope)),
                from: from.into(),
                to: to.into(),
                event: id,
                inferred,
                illegal,
            });
        };
        match step {
            Step::Role(from, to, term) => {
                if state.role != from {
                    // The line that moved the member into `from` is missing (before the first
                    // log file, rotated away, or a gap in the bundle): infer it.
                    let before = state.render();
                    state.role = from.clone();
                    push(
                        before,
                        state.render(),
                        Some(
                            "RaftServer$Division INFO `<memberId>: changes role from <role> to <this line's old role> at term <T> for <reason>`",
                        ),
                        false,
                    );
                }
                let before = state.render();
                let legal = role_trigger(&to)
                    .and_then(|t| next_role(&from, t))
                    .is_some_and(|r| r == to);
                let term_ok = term >= state.term;
                state.role = to;
                state.term = state.term.max(term);
                push(before, state.render(), None, !(legal && term_ok));
            }
            Step::Truncate(index) => {
                let before = state.render();
                let legal = next_role(&state.role, Trigger::Truncate).is_some();
                state.truncated = Some(index);
                push(before, state.render(), None, !legal);
            }
            Step::Outcome(trigger) => {
                let before = state.render();
                match trigger {
                    Trigger::WriteTimeout => state.write_timeouts += 1,
                    _ => state.write_failures += 1,
                }
                push(before, state.render(), None, false);
            }
        }
    }

    fn evict(&mut self, before: i64) {
        self.members.evict(before);
    }
}

enum Step {
    Role(String, String, u64),
    Truncate(u64),
    Outcome(Trigger),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Replay;
    use oztrace_parser::catalog::ratis::{Member, WriteTimeout};
    use oztrace_parser::event::Event;

    const DN1: &str = "a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60";

    fn member() -> Arc<Member> {
        Arc::new(Member {
            member: format!("{DN1}@group-41A9C03D5E7B"),
            peer: DN1.into(),
            group: "group-41A9C03D5E7B".into(),
        })
    }

    fn event(line: u64, data: EventData) -> Event {
        Event {
            ts: Some(line as i64 * 1000),
            line,
            ..oztrace_testkit::event("dn1", Component::Datanode, data)
        }
    }

    fn role(line: u64, from: &str, to: &str, term: u64) -> Event {
        event(
            line,
            EventData::Ratis(RatisEvent::RoleChange {
                member: member(),
                from: from.into(),
                to: to.into(),
                term,
                reason: String::new(),
            }),
        )
    }

    fn truncate(line: u64, index: u64) -> Event {
        event(
            line,
            EventData::Ratis(RatisEvent::LogTruncate {
                member: member(),
                index,
                segment_start: None,
                segment_end: None,
                new_end_index: None,
            }),
        )
    }

    fn run(events: Vec<Event>) -> Vec<(String, String, bool, bool)> {
        let trace = Trace::from_ordered(events, 0);
        let mut machines: Vec<Box<dyn Machine>> = vec![Box::new(RatisMember::new())];
        let replay = Replay::run(&trace, &mut machines, i64::MAX);
        replay
            .transitions()
            .map(|t| {
                assert_eq!(t.scope.as_deref(), Some(DN1));
                assert_eq!(*t.entity, Entity::Group("41A9C03D5E7B".into()));
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
    fn peers_walked_in_order_or_back_are_the_searched_ones() {
        let untyped = Event {
            line: 2,
            ts: Some(2000),
            ..oztrace_testkit::untyped("dn1", Component::Datanode)
        };
        let trace = Trace::from_ordered(
            vec![role(1, "null", "FOLLOWER", 1), untyped, truncate(3, 7)],
            0,
        );
        let mut cursor = IdCursor::default();
        for id in [0, 1, 2, 0, 2, 1] {
            assert_eq!(trace.ratis_peer_from(id, &mut cursor), trace.ratis_peer(id));
        }
        assert_eq!(trace.ratis_peer(2).map(|p| &**p), Some(DN1));
        assert_eq!(trace.ratis_peer(1), None);
    }

    #[test]
    fn leader_steps_down_then_truncates() {
        let steps = run(vec![
            role(1, "null", "FOLLOWER", 5),
            role(2, "FOLLOWER", "CANDIDATE", 5),
            role(3, "CANDIDATE", "LEADER", 6),
            role(4, "LEADER", "FOLLOWER", 7),
            truncate(5, 18342),
        ]);
        assert_eq!(
            steps,
            vec![
                ("null t0".into(), "FOLLOWER t5".into(), false, false),
                ("FOLLOWER t5".into(), "CANDIDATE t5".into(), false, false),
                ("CANDIDATE t5".into(), "LEADER t6".into(), false, false),
                ("LEADER t6".into(), "FOLLOWER t7".into(), false, false),
                (
                    "FOLLOWER t7".into(),
                    "FOLLOWER t7 truncated<18342".into(),
                    false,
                    false
                ),
            ]
        );
    }

    #[test]
    fn illegal_steps_are_flagged_and_missing_ones_inferred() {
        let steps = run(vec![
            role(1, "FOLLOWER", "LEADER", 3),
            truncate(2, 10),
            role(3, "CANDIDATE", "FOLLOWER", 2),
        ]);
        // The logs start with the member already FOLLOWER: inferred.
        assert_eq!(
            steps[0],
            ("null t0".into(), "FOLLOWER t0".into(), true, false)
        );
        // FOLLOWER -> LEADER skips the election; a leader never truncates.
        assert_eq!(
            steps[1],
            ("FOLLOWER t0".into(), "LEADER t3".into(), false, true)
        );
        assert_eq!(
            steps[2],
            (
                "LEADER t3".into(),
                "LEADER t3 truncated<10".into(),
                false,
                true
            )
        );
        // The member was LEADER; the line moving it to CANDIDATE is missing: inferred.
        assert!(steps[3].2);
        assert_eq!(steps[3].1, "CANDIDATE t3 truncated<10");
        // The term went back from 3 to 2: illegal.
        assert_eq!(
            steps[4],
            (
                "CANDIDATE t3 truncated<10".into(),
                "FOLLOWER t3 truncated<10".into(),
                false,
                true
            )
        );
    }

    #[test]
    fn write_outcomes_count_on_the_member() {
        let timeout = event(
            2,
            EventData::Ratis(RatisEvent::WriteTimeout(Box::new(WriteTimeout {
                retry: 0,
                max_retries: None,
                term: Some(6),
                index: Some(18342),
                cmd: None,
                container: None,
                local: None,
                chunk: None,
                pipeline: Some("7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b".into()),
                datanode: None,
            }))),
        );
        let failed = event(
            3,
            EventData::Datanode(DatanodeEvent::CsmWriteFailedCloseServer {
                group: "group-41A9C03D5E7B".into(),
            }),
        );
        let steps = run(vec![
            role(0, "null", "FOLLOWER", 5),
            role(1, "FOLLOWER", "CANDIDATE", 5),
            role(1, "CANDIDATE", "LEADER", 6),
            timeout,
            failed,
        ]);
        assert_eq!(steps[3].1, "LEADER t6 write-timeouts=1");
        assert_eq!(steps[4].1, "LEADER t6 write-timeouts=1 write-failures=1");
        assert!(steps.iter().all(|s| !s.3));
    }

    #[test]
    fn table_lookups() {
        assert_eq!(
            next_role("LEADER", Trigger::ChangeToFollower),
            Some("FOLLOWER")
        );
        assert_eq!(next_role("LEADER", Trigger::ChangeToCandidate), None);
        assert_eq!(next_role("LEADER", Trigger::Truncate), None);
        assert_eq!(next_role("CANDIDATE", Trigger::WriteTimeout), Some(""));
    }

    #[test]
    fn eviction_forgets_idle_members() {
        let mut machine = RatisMember::new();
        let trace = Trace::from_ordered(vec![role(1, "null", "FOLLOWER", 1)], 0);
        let mut out = Vec::new();
        machine.on_event(&trace, 0, &mut out);
        assert_eq!(machine.members.len(), 1);
        machine.evict(5_000);
        assert!(machine.members.is_empty());
    }
}
