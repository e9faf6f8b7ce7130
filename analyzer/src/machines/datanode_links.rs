//! Causal links on one datanode: a failed request and its dn-audit record, a replica marked
//! UNHEALTHY and its dn-container record, a Ratis step-down and the truncation that follows it.

use crate::graph::{Linker, Reason};
use crate::kinds::Reads;
use crate::trace::{EventId, Trace};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::datanode::DatanodeEvent;
use oztrace_parser::catalog::ratis::RatisEvent;

/// A request failure and its audit record are written by one dispatch within this time.
const SAME_DISPATCH_MS: i64 = 2_000;
/// A truncation follows the step-down once the new leader's appendEntries arrive.
const TRUNCATE_AFTER_STEP_DOWN_MS: i64 = 5 * 60 * 1000;

pub struct DatanodeLinks;

/// The kinds of the events that can be a cause.
const CAUSES: [&str; 3] = [
    "container_marked_unhealthy",
    "dispatch_error",
    "ratis_role_change",
];

/// A datanode audit record that says more than "done": a failure, or a performance record of a
/// slow operation. The successful ones (every CREATE_CONTAINER, CLOSE_CONTAINER, …) are what
/// fills a dn-audit log, and no consumer reads them.
pub fn is_failed_or_slow(data: &EventData) -> bool {
    matches!(data, EventData::Datanode(DatanodeEvent::DnAudit(audit)) if audit.ret == "FAILURE" || audit.perf.is_some())
}

/// `WriteChunk` → `WRITE_CHUNK` (ContainerProtos `Type` name → `DNAction` name).
fn audit_op(cmd: &str) -> String {
    let mut out = String::with_capacity(cmd.len() + 4);
    for (i, c) in cmd.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

impl Linker for DatanodeLinks {
    fn name(&self) -> &'static str {
        "datanode"
    }

    fn consumes(&self) -> &'static [Reads] {
        &[
            Reads::Kind("container_marked_unhealthy"),
            Reads::Kind("dn_container_state"),
            Reads::Kind("dispatch_error"),
            Reads::Where("dn_audit", is_failed_or_slow),
            Reads::Kind("ratis_role_change"),
            Reads::Kind("ratis_log_truncate"),
        ]
    }

    fn link(&self, trace: &Trace, out: &mut Vec<(EventId, EventId, Reason)>) {
        // The few events of the kinds that can be a cause, host by host (in name order), each
        // host's in trace order: no other event is looked at but their neighbours.
        let mut causes: Vec<EventId> = CAUSES
            .iter()
            .flat_map(|&kind| trace.of_kind(kind))
            .copied()
            .collect();
        causes.sort_by(|&a, &b| {
            let name = |id| trace.host_name(trace.host_of(id));
            name(a).cmp(name(b)).then(a.cmp(&b))
        });
        for cause in causes {
            let ids = trace.of_host(trace.host_name(trace.host_of(cause)));
            let n = ids.partition_point(|&e| e < cause);
            let later = ids[n + 1..].iter().copied().take_while(|&e| {
                trace
                    .elapsed(cause, e)
                    .is_none_or(|ms| ms <= TRUNCATE_AFTER_STEP_DOWN_MS)
            });
            match &trace.get(cause).data {
                EventData::Datanode(DatanodeEvent::ContainerMarkedUnhealthy { container }) => {
                    let found = neighbours(ids, n).find(|&e| {
                            within(trace, cause, e, SAME_DISPATCH_MS)
                                && matches!(&trace.get(e).data,
                                    EventData::Datanode(DatanodeEvent::DnContainerState { id, state: Some(s), .. })
                                    if id == container && &**s == "UNHEALTHY")
                        });
                    if let Some(effect) = found {
                        out.push((
                                cause,
                                effect,
                                format!("HddsDispatcher marked container {container} UNHEALTHY; ContainerLogger recorded it").into(),
                            ));
                    }
                }
                EventData::Datanode(DatanodeEvent::DispatchError(error)) => {
                    let message = &error.message;
                    let op = audit_op(&error.op);
                    let found = neighbours(ids, n).find(|&e| {
                            within(trace, cause, e, SAME_DISPATCH_MS)
                                && matches!(&trace.get(e).data,
                                    EventData::Datanode(DatanodeEvent::DnAudit(audit))
                                    if audit.op == op && audit.ret == "FAILURE" && !message.is_empty()
                                        && audit.throwable.as_deref().is_some_and(|t| t.contains(message.as_str())))
                        });
                    if let Some(effect) = found {
                        out.push((
                            cause,
                            effect,
                            format!("the failed {op} request and its dn-audit record").into(),
                        ));
                    }
                }
                EventData::Ratis(RatisEvent::RoleChange {
                    member, from, to, ..
                }) if from == "LEADER" && to == "FOLLOWER" => {
                    let found = later.into_iter().find(|&e| {
                            matches!(&trace.get(e).data,
                                EventData::Ratis(RatisEvent::LogTruncate { member: m, .. }) if m == member)
                        });
                    if let Some(effect) = found {
                        out.push((
                                cause,
                                effect,
                                format!(
                                    "{} stepped down; the new leader's entries truncated its uncommitted tail",
                                    member.member
                                ).into(),
                            ));
                    }
                }
                _ => {}
            }
        }
    }
}

/// Events of the host around position `n` (its trace order is time order), nearest ones only,
/// so a burst of errors stays linear.
fn neighbours(ids: &[EventId], n: usize) -> impl Iterator<Item = EventId> + '_ {
    const SPAN: usize = 256;
    ids[n.saturating_sub(SPAN)..(n + SPAN + 1).min(ids.len())]
        .iter()
        .copied()
}

/// Whether `b` is within `ms` of `a` (either side), both timed.
fn within(trace: &Trace, a: EventId, b: EventId, ms: i64) -> bool {
    a != b && trace.elapsed(a, b).is_some_and(|d| d.abs() <= ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oztrace_parser::audit::Params;
    use oztrace_parser::catalog::datanode::{DispatchError, DnAudit};
    use oztrace_parser::catalog::ratis::Member;
    use oztrace_parser::event::Event;
    use oztrace_parser::source::Component;
    use std::sync::Arc;

    fn event(host: &str, ts: i64, component: Component, data: EventData) -> Event {
        Event {
            ts: Some(ts),
            line: ts as u64,
            ..oztrace_testkit::event(host, component, data)
        }
    }

    fn member() -> Arc<Member> {
        Arc::new(Member {
            member: "a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60@group-41A9C03D5E7B".into(),
            peer: "a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60".into(),
            group: "group-41A9C03D5E7B".into(),
        })
    }

    #[test]
    fn links_failures_unhealthy_replicas_and_truncations_on_one_host() {
        let dispatch = DatanodeEvent::DispatchError(Box::new(DispatchError {
            op: "WriteChunk".into(),
            trace_id: String::new(),
            message: "Chunk offset 8 does not match length 4 of blockFile 1.block".into(),
            result: "CHUNK_FILE_INCONSISTENCY".into(),
            chunk_offset: Some(8),
            file_length: Some(4),
            local: Some(1),
        }));
        let audit = |host| {
            event(
                host,
                10_001,
                Component::DnAudit,
                EventData::Datanode(DatanodeEvent::DnAudit(Box::new(DnAudit {
                    op: "WRITE_CHUNK".into(),
                    ret: "FAILURE".into(),
                    params: Params::new(),
                    perf: None,
                    throwable: Some("java.lang.Exception: Chunk offset 8 does not match length 4 of blockFile 1.block".into()),
                }))),
            )
        };
        let events = vec![
            event(
                "dn1",
                1_000,
                Component::Datanode,
                EventData::Ratis(RatisEvent::RoleChange {
                    member: member(),
                    from: "LEADER".into(),
                    to: "FOLLOWER".into(),
                    term: 7,
                    reason: String::new(),
                }),
            ),
            event(
                "dn1",
                2_000,
                Component::Datanode,
                EventData::Ratis(RatisEvent::LogTruncate {
                    member: member(),
                    index: 5,
                    segment_start: None,
                    segment_end: None,
                    new_end_index: None,
                }),
            ),
            event(
                "dn1",
                10_000,
                Component::Datanode,
                EventData::Datanode(dispatch),
            ),
            audit("dn2"),
            audit("dn1"),
            event(
                "dn1",
                10_002,
                Component::Datanode,
                EventData::Datanode(DatanodeEvent::ContainerMarkedUnhealthy { container: 1042 }),
            ),
            event(
                "dn1",
                10_003,
                Component::DnContainer,
                EventData::Datanode(DatanodeEvent::DnContainerState {
                    id: 1042,
                    index: Some(0),
                    bcsid: Some(1),
                    state: Some("UNHEALTHY".into()),
                    volume: None,
                    message: None,
                }),
            ),
        ];
        let trace = Trace::from_ordered(events, 0);
        let mut out = Vec::new();
        DatanodeLinks.link(&trace, &mut out);
        let pairs: Vec<(EventId, EventId)> = out.iter().map(|(a, b, _)| (*a, *b)).collect();
        assert_eq!(pairs, vec![(0, 1), (2, 4), (5, 6)]);
        assert!(matches!(&out[1].2, Reason::Said(r) if r.contains("WRITE_CHUNK")));
        assert_eq!(
            audit_op("GetCommittedBlockLength"),
            "GET_COMMITTED_BLOCK_LENGTH"
        );
    }
}
