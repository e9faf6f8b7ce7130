//! The event graph: typed events linked per host, per entity and by causality.
//!
//! Node `i` is event `i` of the [`Trace`]. Every edge carries its reason, so a rule that walks
//! back from an effect to its causes can say why each step belongs to the evidence.

use crate::trace::{EventId, Trace};
use oztrace_parser::entity::Entity;
use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;
use std::collections::{HashSet, VecDeque};

/// Why two events are linked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EdgeKind {
    /// The next typed event on the same host.
    Host,
    /// The next event naming the same entity.
    Entity(Entity),
    /// One event caused or reports the other (an SCM command and the datanode's receipt, a
    /// dn-container state change and SCM's report-handler line for that replica).
    Causal,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub kind: EdgeKind,
    /// Why a causal link holds (`<linker>: <reason>`); order edges derive theirs from the kind,
    /// so building them allocates nothing.
    causal_reason: String,
}

impl Edge {
    /// Why the two events are linked.
    pub fn reason(&self) -> Cow<'_, str> {
        match &self.kind {
            EdgeKind::Host => Cow::Borrowed("next event on the same host"),
            EdgeKind::Entity(entity) => Cow::Owned(format!("next event of {entity}")),
            EdgeKind::Causal => Cow::Borrowed(&self.causal_reason),
        }
    }
}

/// Finds causal links of one kind. Linkers live next to the state machine of their domain.
pub trait Linker: Sync {
    fn name(&self) -> &'static str;
    /// Pushes `(cause, effect, reason)` for every link it can prove from the trace.
    fn link(&self, trace: &Trace, out: &mut Vec<(EventId, EventId, String)>);
}

pub struct EventGraph {
    graph: DiGraph<EventId, Edge>,
}

impl EventGraph {
    pub fn build(trace: &Trace, linkers: &[&dyn Linker]) -> EventGraph {
        let mut graph = DiGraph::with_capacity(trace.events.len(), trace.events.len() * 2);
        for id in 0..trace.events.len() {
            graph.add_node(id);
        }
        let mut last_on_host: HashMap<&str, EventId> = HashMap::default();
        let mut last_of_entity: HashMap<&Entity, EventId> = HashMap::default();
        for (id, event) in trace.events.iter().enumerate() {
            if let Some(prev) = last_on_host.insert(&event.host, id) {
                graph.add_edge(
                    NodeIndex::new(prev),
                    NodeIndex::new(id),
                    Edge {
                        kind: EdgeKind::Host,
                        causal_reason: String::new(),
                    },
                );
            }
            for (i, entity) in event.entities.iter().enumerate() {
                // An event naming an entity twice links once (entity lists are short).
                if event.entities[..i].contains(entity) {
                    continue;
                }
                if let Some(prev) = last_of_entity.insert(entity, id) {
                    graph.add_edge(
                        NodeIndex::new(prev),
                        NodeIndex::new(id),
                        Edge {
                            kind: EdgeKind::Entity(entity.clone()),
                            causal_reason: String::new(),
                        },
                    );
                }
            }
        }
        // Linkers read the trace only: each on its own core, their links added in linker order.
        use rayon::prelude::*;
        let found: Vec<Vec<(EventId, EventId, String)>> = linkers
            .par_iter()
            .map(|linker| {
                let mut links = Vec::new();
                linker.link(trace, &mut links);
                links
            })
            .collect();
        for (linker, links) in linkers.iter().zip(found) {
            for (cause, effect, reason) in links {
                graph.add_edge(
                    NodeIndex::new(cause),
                    NodeIndex::new(effect),
                    Edge {
                        kind: EdgeKind::Causal,
                        causal_reason: format!("{}: {reason}", linker.name()),
                    },
                );
            }
        }
        EventGraph { graph }
    }

    /// Edges into `id`: its predecessors with the reason of each link.
    pub fn incoming(&self, id: EventId) -> impl Iterator<Item = (EventId, &Edge)> {
        self.graph
            .edges_directed(NodeIndex::new(id), Direction::Incoming)
            .map(|e| (e.source().index(), e.weight()))
    }

    /// Edges out of `id`.
    pub fn outgoing(&self, id: EventId) -> impl Iterator<Item = (EventId, &Edge)> {
        self.graph
            .edges_directed(NodeIndex::new(id), Direction::Outgoing)
            .map(|e| (e.target().index(), e.weight()))
    }

    /// Events reachable backwards from `id` over edges `follow` accepts, nearest first, at most
    /// `depth` steps away.
    pub fn walk_back(
        &self,
        id: EventId,
        depth: usize,
        follow: impl Fn(&Edge) -> bool,
    ) -> Vec<EventId> {
        let mut seen = HashSet::from([id]);
        let mut queue = VecDeque::from([(id, 0)]);
        let mut found = Vec::new();
        while let Some((at, d)) = queue.pop_front() {
            if d == depth {
                continue;
            }
            for (prev, edge) in self.incoming(at) {
                if follow(edge) && seen.insert(prev) {
                    found.push(prev);
                    queue.push_back((prev, d + 1));
                }
            }
        }
        found
    }

    pub fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::tests::event;

    struct SameLine;
    impl Linker for SameLine {
        fn name(&self) -> &'static str {
            "same-line"
        }
        fn link(&self, trace: &Trace, out: &mut Vec<(EventId, EventId, String)>) {
            out.push((0, trace.events.len() - 1, "test link".into()));
        }
    }

    #[test]
    fn host_entity_and_causal_edges_carry_reasons() {
        let c = Entity::Container(1);
        let trace = Trace::from_ordered(
            vec![
                event("scm1", "a", 1, Some(1), vec![c.clone()]),
                event("scm1", "a", 2, Some(2), vec![]),
                event("dn1", "b", 1, Some(3), vec![c.clone()]),
            ],
            0,
        );
        let graph = EventGraph::build(&trace, &[&SameLine]);
        let into_dn: Vec<_> = graph
            .incoming(2)
            .map(|(from, e)| (from, e.kind.clone()))
            .collect();
        assert!(into_dn.contains(&(0, EdgeKind::Entity(c.clone()))));
        assert!(into_dn.contains(&(0, EdgeKind::Causal)));
        assert_eq!(
            graph.incoming(1).next().map(|(f, e)| (f, e.kind.clone())),
            Some((0, EdgeKind::Host))
        );
        assert!(
            graph
                .incoming(2)
                .any(|(_, e)| e.reason() == "same-line: test link")
        );
        let entity_edge = graph
            .incoming(2)
            .find(|(_, e)| e.kind == EdgeKind::Entity(c.clone()))
            .unwrap();
        assert_eq!(entity_edge.1.reason(), "next event of container:1");
        let causes = graph.walk_back(2, 3, |e| e.kind == EdgeKind::Causal);
        assert_eq!(causes, vec![0]);
        assert_eq!(graph.walk_back(2, 0, |_| true), Vec::<EventId>::new());
    }
}
