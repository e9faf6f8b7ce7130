//! One index of cluster facts: what ties the ids of one cluster together, read once from the
//! whole trace (on first use) for every machine, linker and rule that needs it, instead of each
//! building its own.
//!
//! - block → container: every line that prints a block id (`conID: C locID: L`, `#C/L`);
//! - container → Ratis group → pipeline: the lines that name a container with its group or
//!   pipeline (Ratis write timeouts, the datanode state machine's writes, SCM's
//!   `ContainerInfo{…}`), each tie with the first line that shows it;
//! - host ↔ datanode UUID ([`DatanodeHosts`]).
//!
//! Time-ordered facts have their own indexes: events by kind ([`Trace::of_kind`]: step-downs,
//! truncations, leader changes), and each SCM's leadership from the `scm-role` machine
//! ([`crate::machines::scm_role::role_at`]).

use crate::machines::endpoint::DatanodeHosts;
use crate::trace::{EventId, Trace};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::datanode::{CsmWrite, DatanodeEvent};
use oztrace_parser::catalog::ratis::{RatisEvent, WriteTimeout};
use oztrace_parser::entity::{Entity, group_of_pipeline};
use oztrace_parser::event::Event;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

/// What an interned entity is, as [`Facts::build`] reads it.
#[derive(Clone, Copy)]
enum Class {
    Block { container: u64, local: u64 },
    Container,
    Pipeline,
    Other,
}

#[derive(Debug, Default)]
pub struct Facts {
    /// Each datanode's host, from the datanode's own lines and SCM's registrations.
    pub datanode_hosts: DatanodeHosts,
    container_of_local: HashMap<u64, u64>,
    groups_of_container: HashMap<u64, BTreeMap<String, EventId>>,
    pipeline_of_group: HashMap<String, String>,
}

impl Facts {
    /// Reads the trace through its indexes, never every event: each block's last line, and only
    /// the events that can tie a container to a group (the kinds that tie by their fields, the
    /// lines naming both a container and a pipeline).
    pub fn build(trace: &Trace) -> Facts {
        let mut facts = Facts {
            datanode_hosts: DatanodeHosts::learn(trace),
            ..Facts::default()
        };
        // What each interned entity is, read once: the events name few distinct entities many
        // times each.
        let classes: Vec<Class> = trace
            .entity_ids()
            .map(|e| match &**trace.entity(e) {
                Entity::Block { container, local } => Class::Block {
                    container: *container,
                    local: *local,
                },
                Entity::Container(_) => Class::Container,
                Entity::Pipeline(_) => Class::Pipeline,
                _ => Class::Other,
            })
            .collect();
        // A local id's container is the one the last line that printed it named (of two blocks
        // on one line, the one printed later): each block's last line, in trace order.
        let mut last_lines: Vec<(EventId, usize, u64, u64)> = Vec::new();
        let mut ties: Vec<EventId> = Vec::new();
        for e in trace.entity_ids() {
            match classes[e.index()] {
                Class::Block { container, local } => {
                    if let Some(&last) = trace.of_entity_id(e).last() {
                        let printed = trace.entity_ids_of(last).iter().position(|&n| n == e);
                        last_lines.push((last, printed.unwrap_or(0), local, container));
                    }
                }
                Class::Pipeline => ties.extend(trace.of_entity_id(e).iter().filter(|&&id| {
                    trace
                        .entity_ids_of(id)
                        .iter()
                        .any(|n| matches!(classes[n.index()], Class::Container))
                })),
                Class::Container | Class::Other => {}
            }
        }
        last_lines.sort_unstable();
        for (_, _, local, container) in last_lines {
            facts.container_of_local.insert(local, container);
        }
        for kind in [
            "ratis_write_timeout",
            "csm_write_submitted",
            "csm_write_completed",
        ] {
            ties.extend_from_slice(trace.of_kind(kind));
        }
        ties.sort_unstable();
        ties.dedup();
        for id in ties {
            facts.tie(id, trace.get(id));
        }
        facts
    }

    /// The container of a block, by its local id (the last line that printed both).
    pub fn container_of_block(&self, local: u64) -> Option<u64> {
        self.container_of_local.get(&local).copied()
    }

    /// The Ratis groups (`group-<HEX>`) a line ties `container` to, each with the first such line.
    pub fn groups_of_container(&self, container: u64) -> Option<&BTreeMap<String, EventId>> {
        self.groups_of_container.get(&container)
    }

    /// The pipeline of a Ratis group (`group-<HEX>`), when a line printed the pipeline id.
    pub fn pipeline_of_group(&self, group: &str) -> Option<&str> {
        self.pipeline_of_group.get(group).map(String::as_str)
    }

    /// Records container ↔ group ties from lines that name both.
    fn tie(&mut self, id: EventId, event: &Event) {
        // The boxed payload cannot be matched through, so it is taken out first.
        let write_timeout = match &event.data {
            EventData::Ratis(RatisEvent::WriteTimeout(timeout)) => Some(&**timeout),
            _ => None,
        };
        let (container, group) = match (&event.data, write_timeout) {
            (
                _,
                Some(WriteTimeout {
                    container: Some(c),
                    pipeline: Some(p),
                    ..
                }),
            ) => {
                let Some(g) = group_of_pipeline(p) else {
                    return;
                };
                self.pipeline_of_group
                    .insert(format!("group-{g}"), p.clone());
                (*c, format!("group-{g}"))
            }
            (
                EventData::Datanode(
                    DatanodeEvent::CsmWriteSubmitted(CsmWrite {
                        group,
                        container: Some(c),
                        ..
                    })
                    | DatanodeEvent::CsmWriteCompleted(CsmWrite {
                        group,
                        container: Some(c),
                        ..
                    }),
                ),
                _,
            ) => (*c, group.clone()),
            // Any other line that names exactly one container and one pipeline
            // (SCM `ContainerInfo{id=#C, … pipelineID=Pipeline-…}`).
            _ => {
                let containers: Vec<u64> = event
                    .entities
                    .iter()
                    .filter_map(|e| match e {
                        Entity::Container(c) => Some(*c),
                        _ => None,
                    })
                    .collect();
                let pipelines: Vec<&str> = event
                    .entities
                    .iter()
                    .filter_map(|e| match e {
                        Entity::Pipeline(p) => Some(p.as_str()),
                        _ => None,
                    })
                    .collect();
                match (containers.as_slice(), pipelines.as_slice()) {
                    ([c], [p]) if event.text.contains("ContainerInfo{") => {
                        let Some(g) = group_of_pipeline(p) else {
                            return;
                        };
                        self.pipeline_of_group
                            .insert(format!("group-{g}"), (*p).to_owned());
                        (*c, format!("group-{g}"))
                    }
                    _ => return,
                }
            }
        };
        self.groups_of_container
            .entry(container)
            .or_default()
            .entry(group)
            .or_insert(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::tests::event;

    const PIPELINE: &str = "8f2b4c6d-1a3e-4f50-9b7c-2d4e6f8a0b1c";

    #[test]
    fn blocks_containers_groups_and_pipelines_are_tied_once_for_all() {
        let mut info = event(
            "scm1",
            "scm.log",
            1,
            Some(1_000),
            vec![Entity::Container(1051), Entity::Pipeline(PIPELINE.into())],
        );
        info.text =
            format!("ContainerInfo{{id=#1051, state=OPEN, pipelineID=PipelineID={PIPELINE}}}")
                .into();
        let block = event(
            "dn1",
            "dn-audit.log",
            1,
            Some(2_000),
            vec![Entity::Block {
                container: 1051,
                local: 7,
            }],
        );
        let trace = Trace::from_ordered(vec![info, block], 0);
        let facts = trace.facts();
        assert_eq!(facts.container_of_block(7), Some(1051));
        assert_eq!(facts.container_of_block(8), None);
        let group = format!(
            "group-{}",
            PIPELINE[PIPELINE.len() - 12..].to_ascii_uppercase()
        );
        let groups = facts.groups_of_container(1051).expect("tied");
        assert_eq!(groups.get(&group), Some(&0));
        assert_eq!(facts.pipeline_of_group(&group), Some(PIPELINE));
        // Asked again: the same facts, read once.
        assert!(std::ptr::eq(facts, trace.facts()));
    }

    /// A local id printed with two containers belongs to the one the last line printed (on one
    /// line, the one printed later), however often the other was printed before.
    #[test]
    fn a_blocks_container_is_the_one_its_last_line_printed() {
        let block = |container, local| Entity::Block { container, local };
        let line = |n: u64, entities: Vec<Entity>| {
            event("dn1", "dn-audit.log", n, Some(n as i64 * 1_000), entities)
        };
        let trace = Trace::from_ordered(
            vec![
                line(1, vec![block(1051, 7)]),
                line(2, vec![block(1052, 7)]),
                line(3, vec![block(1051, 7), block(2001, 9), block(2000, 9)]),
                line(4, vec![block(1052, 8)]),
                line(5, vec![block(2000, 9), block(2001, 9)]),
            ],
            0,
        );
        let facts = trace.facts();
        assert_eq!(facts.container_of_block(7), Some(1051));
        assert_eq!(facts.container_of_block(8), Some(1052));
        assert_eq!(facts.container_of_block(9), Some(2001));
    }
}
