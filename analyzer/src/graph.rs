//! The event graph: typed events linked by causality.
//!
//! A node stands for event `i` of the [`Trace`]; only the events some link names have one (a few
//! thousand of a trace's events), found by their id. Every edge carries its reason, so a rule that
//! walks back from an effect to its causes can say why each step belongs to the evidence. Per-host
//! and per-entity order is not duplicated here as edges: the trace's indexes hold it
//! ([`Trace::of_host`], [`Trace::of_entity`]), and nothing reads it from the graph.

use crate::kinds::Reads;
use crate::trace::{EventId, Trace};
use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use std::borrow::Cow;

/// Why two events are linked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EdgeKind {
    /// One event caused or reports the other (an SCM command and the datanode's receipt, a
    /// dn-container state change and SCM's report-handler line for that replica).
    Causal,
}

#[derive(Debug, Clone)]
pub struct Edge {
    pub kind: EdgeKind,
    /// The linker that found the link ([`Linker::name`]).
    linker: &'static str,
    cause: EventId,
    effect: EventId,
    /// Why the link holds, as the linker says it.
    causal_reason: Reason,
}

impl Edge {
    /// Why the two events are linked (`<linker>: <reason>`): written only when asked, for the few
    /// edges a report shows. `trace` is the trace the graph was built from.
    pub fn reason(&self, trace: &Trace) -> String {
        match &self.causal_reason {
            Reason::Said(reason) => format!("{}: {reason}", self.linker),
            Reason::Deferred(write) => {
                let reason = write(trace, self.cause, self.effect);
                format!("{}: {reason}", self.linker)
            }
        }
    }
}

/// A linker's reason for one link.
#[derive(Debug, Clone)]
pub enum Reason {
    /// Said when the link is found (a constant where it says no value).
    Said(Cow<'static, str>),
    /// Written from the trace and the two events when a report asks: for a linker that finds
    /// links by the thousand, which reports show a few of.
    Deferred(fn(&Trace, EventId, EventId) -> String),
}

impl From<String> for Reason {
    fn from(reason: String) -> Reason {
        Reason::Said(Cow::Owned(reason))
    }
}

impl From<&'static str> for Reason {
    fn from(reason: &'static str) -> Reason {
        Reason::Said(Cow::Borrowed(reason))
    }
}

/// Finds causal links of one kind. Linkers live next to the state machine of their domain.
pub trait Linker: Sync {
    fn name(&self) -> &'static str;
    /// The kinds whose events it links (see [`crate::kinds`]).
    fn consumes(&self) -> &'static [Reads];
    /// Pushes `(cause, effect, reason)` for every link it can prove from the trace.
    fn link(&self, trace: &Trace, out: &mut Vec<(EventId, EventId, Reason)>);
}

pub struct EventGraph {
    graph: DiGraph<EventId, Edge>,
    /// The events that have a node, in id order: node `i` stands for `linked[i]`.
    linked: Vec<EventId>,
}

impl EventGraph {
    pub fn build(trace: &Trace, linkers: &[&dyn Linker]) -> EventGraph {
        // Linkers read the trace only: each on its own core when there are several, their links
        // added in linker order.
        let found: Vec<Vec<(EventId, EventId, Reason)>> = crate::cores::map(linkers, |linker| {
            let mut links = Vec::new();
            linker.link(trace, &mut links);
            links
        });
        let mut linked: Vec<EventId> = found
            .iter()
            .flatten()
            .flat_map(|&(cause, effect, _)| [cause, effect])
            .collect();
        linked.sort_unstable();
        linked.dedup();
        let edges = found.iter().map(Vec::len).sum();
        let mut graph = DiGraph::with_capacity(linked.len(), edges);
        for &id in &linked {
            graph.add_node(id);
        }
        let mut graph = EventGraph { graph, linked };
        for (linker, links) in linkers.iter().zip(found) {
            for (cause, effect, reason) in links {
                // Every linked event has a node: where it sorts in `linked` is its index.
                let node = |id: EventId| NodeIndex::new(graph.linked.partition_point(|&e| e < id));
                graph.graph.add_edge(
                    node(cause),
                    node(effect),
                    Edge {
                        kind: EdgeKind::Causal,
                        linker: linker.name(),
                        cause,
                        effect,
                        causal_reason: reason,
                    },
                );
            }
        }
        graph
    }

    /// The node of event `id`, if a link names it.
    fn node(&self, id: EventId) -> Option<NodeIndex> {
        self.linked.binary_search(&id).ok().map(NodeIndex::new)
    }

    /// Edges into `id`: its predecessors with the reason of each link.
    pub fn incoming(&self, id: EventId) -> impl Iterator<Item = (EventId, &Edge)> {
        self.node(id).into_iter().flat_map(move |node| {
            self.graph
                .edges_directed(node, Direction::Incoming)
                .map(|e| (self.linked[e.source().index()], e.weight()))
        })
    }

    /// Edges out of `id`.
    pub fn outgoing(&self, id: EventId) -> impl Iterator<Item = (EventId, &Edge)> {
        self.node(id).into_iter().flat_map(move |node| {
            self.graph
                .edges_directed(node, Direction::Outgoing)
                .map(|e| (self.linked[e.target().index()], e.weight()))
        })
    }

    pub fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::tests::event;
    use oztrace_parser::entity::Entity;

    struct SameLine;
    impl Linker for SameLine {
        fn name(&self) -> &'static str {
            "same-line"
        }
        fn consumes(&self) -> &'static [Reads] {
            &[]
        }
        fn link(&self, trace: &Trace, out: &mut Vec<(EventId, EventId, Reason)>) {
            out.push((0, trace.len() - 1, "test link".into()));
        }
    }

    /// Two links out of the first event, none touching the third.
    struct Fan;
    impl Linker for Fan {
        fn name(&self) -> &'static str {
            "fan"
        }
        fn consumes(&self) -> &'static [Reads] {
            &[]
        }
        fn link(&self, _trace: &Trace, out: &mut Vec<(EventId, EventId, Reason)>) {
            out.push((0, 1, "first".into()));
            out.push((0, 3, Reason::Deferred(|_, a, b| format!("{a} then {b}"))));
        }
    }

    #[test]
    fn only_linked_events_have_edges_each_listed_latest_first() {
        let trace = Trace::from_ordered(
            (1..=4)
                .map(|line| event("scm1", "a", line, Some(line as i64), vec![]))
                .collect(),
            0,
        );
        let graph = EventGraph::build(&trace, &[&Fan]);
        // As petgraph lists a node's edges: the latest link first.
        assert_eq!(
            graph.outgoing(0).map(|(to, _)| to).collect::<Vec<_>>(),
            [3, 1]
        );
        let reasons: Vec<_> = graph.outgoing(0).map(|(_, e)| e.reason(&trace)).collect();
        assert_eq!(reasons, ["fan: 0 then 3", "fan: first"]);
        assert_eq!(
            graph.incoming(3).map(|(from, _)| from).collect::<Vec<_>>(),
            [0]
        );
        assert_eq!(
            graph.incoming(1).map(|(from, _)| from).collect::<Vec<_>>(),
            [0]
        );
        assert_eq!(
            (graph.incoming(2).count(), graph.outgoing(2).count()),
            (0, 0)
        );
        assert_eq!(graph.outgoing(3).count(), 0);
        assert_eq!(graph.incoming(9).count(), 0);
    }

    #[test]
    fn causal_edges_carry_reasons_and_order_stays_in_the_trace() {
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
            .map(|(from, e)| (from, e.kind.clone(), e.reason(&trace)))
            .collect();
        assert_eq!(
            into_dn,
            [(0, EdgeKind::Causal, "same-line: test link".to_string())]
        );
        assert_eq!(graph.outgoing(0).map(|(to, _)| to).collect::<Vec<_>>(), [2]);
        assert_eq!(graph.incoming(1).count(), 0);
        assert_eq!(graph.edge_count(), 1);
        assert_eq!(trace.of_entity(&c), &[0, 2]);
        assert_eq!(trace.of_host("scm1"), &[0, 1]);
    }
}
