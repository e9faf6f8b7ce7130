//! Reference state machines: the framework every lifecycle model plugs into.
//!
//! A machine reads the trace in time order and reports each [`Transition`] of the entities it
//! models: the state before and after, the event that caused it, whether the step was inferred
//! (Ozone does not log it at INFO; the transition names the line that would have shown it) and
//! whether the model's transition table allows it. Each machine's table cites the Ozone code it
//! models.

use crate::trace::{EventId, Trace};
use oztrace_parser::entity::Entity;
use rustc_hash::FxHashMap as HashMap;
use std::hash::Hash;
use std::sync::Arc;

/// One step of one entity in one machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    pub machine: &'static str,
    pub entity: Entity,
    /// The member whose view this is, for state kept per member (an SCM's view of a datanode).
    pub scope: Option<Arc<str>>,
    pub from: String,
    pub to: String,
    pub event: EventId,
    /// For an inferred step: the log line (logger and level) that would have shown it.
    pub inferred: Option<&'static str>,
    /// The step is not in the machine's transition table: Ozone's model says it cannot happen.
    pub illegal: bool,
}

/// A lifecycle model.
pub trait Machine: Send {
    fn name(&self) -> &'static str;
    /// Steps the model over one event (in time order), pushing the transitions it causes.
    fn on_event(&mut self, trace: &Trace, id: EventId, out: &mut Vec<Transition>);
    /// Drops entities with no event since `before` (log time, epoch millis).
    fn evict(&mut self, before: i64);
}

/// Per-entity state with the time it was last touched, for eviction after `--retain`.
#[derive(Debug, Clone)]
pub struct EntityStates<K, S> {
    states: HashMap<K, (S, i64)>,
}

impl<K, S> Default for EntityStates<K, S> {
    fn default() -> Self {
        EntityStates {
            states: HashMap::default(),
        }
    }
}

impl<K: Eq + Hash, S> EntityStates<K, S> {
    pub fn get(&self, key: &K) -> Option<&S> {
        self.states.get(key).map(|(s, _)| s)
    }

    pub fn get_mut(&mut self, key: &K) -> Option<&mut S> {
        self.states.get_mut(key).map(|(s, _)| s)
    }

    /// Sets the state, remembering `ts` (when known) as the last activity.
    pub fn set(&mut self, key: K, state: S, ts: Option<i64>) {
        let seen = ts
            .or_else(|| self.states.get(&key).map(|(_, t)| *t))
            .unwrap_or(i64::MIN);
        self.states.insert(key, (state, seen));
    }

    pub fn entry_or(&mut self, key: K, default: impl FnOnce() -> S, ts: Option<i64>) -> &mut S {
        let slot = self
            .states
            .entry(key)
            .or_insert_with(|| (default(), i64::MIN));
        if let Some(ts) = ts {
            slot.1 = slot.1.max(ts);
        }
        &mut slot.0
    }

    pub fn evict(&mut self, before: i64) {
        self.states.retain(|_, (_, seen)| *seen >= before);
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
}

/// One machine over the whole trace, evicting idle entities every few thousand events.
fn replay_one(trace: &Trace, machine: &mut dyn Machine, retain_ms: i64) -> Vec<Transition> {
    const EVICT_EVERY: usize = 4096;
    let mut transitions = Vec::new();
    let mut latest = i64::MIN;
    for id in 0..trace.events.len() {
        if let Some(ts) = trace.events[id].ts {
            latest = latest.max(ts);
        }
        machine.on_event(trace, id, &mut transitions);
        if id % EVICT_EVERY == EVICT_EVERY - 1 && latest != i64::MIN {
            machine.evict(latest.saturating_sub(retain_ms));
        }
    }
    transitions
}

/// All transitions of a replay, indexed by event and by entity.
#[derive(Debug, Default)]
pub struct Replay {
    pub transitions: Vec<Transition>,
    by_event: HashMap<EventId, Vec<usize>>,
    by_entity: HashMap<Entity, Vec<usize>>,
}

impl Replay {
    /// Replays `machines` over the trace, each machine on its own core when there are several
    /// (they share nothing); the transitions come out in the order of a sequential replay: by
    /// event, then machine. Entities idle longer than `retain_ms` of log time are dropped from
    /// the machines' live state.
    pub fn run(trace: &Trace, machines: &mut [Box<dyn Machine>], retain_ms: i64) -> Replay {
        use rayon::prelude::*;
        let per_machine: Vec<Vec<Transition>> = machines
            .par_iter_mut()
            .map(|machine| replay_one(trace, machine.as_mut(), retain_ms))
            .collect();
        let mut tagged: Vec<(EventId, usize, Transition)> = per_machine
            .into_iter()
            .enumerate()
            .flat_map(|(m, transitions)| transitions.into_iter().map(move |t| (t.event, m, t)))
            .collect();
        // Stable: each machine's own order is kept.
        tagged.sort_by_key(|(event, m, _)| (*event, *m));
        Replay::index(tagged.into_iter().map(|(_, _, t)| t).collect())
    }

    fn index(transitions: Vec<Transition>) -> Replay {
        let mut by_event: HashMap<EventId, Vec<usize>> = HashMap::default();
        let mut by_entity: HashMap<Entity, Vec<usize>> = HashMap::default();
        for (i, t) in transitions.iter().enumerate() {
            by_event.entry(t.event).or_default().push(i);
            by_entity.entry(t.entity.clone()).or_default().push(i);
        }
        Replay {
            transitions,
            by_event,
            by_entity,
        }
    }

    /// Transitions an event caused.
    pub fn of_event(&self, id: EventId) -> impl Iterator<Item = &Transition> {
        self.by_event
            .get(&id)
            .into_iter()
            .flatten()
            .map(|&i| &self.transitions[i])
    }

    /// Transitions of one entity, in time order.
    pub fn of_entity(&self, entity: &Entity) -> impl Iterator<Item = &Transition> {
        self.by_entity
            .get(entity)
            .into_iter()
            .flatten()
            .map(|&i| &self.transitions[i])
    }

    /// Transitions of one machine, in time order.
    pub fn of_machine(&self, machine: &str) -> impl Iterator<Item = &Transition> {
        self.transitions
            .iter()
            .filter(move |t| t.machine == machine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::tests::event;

    /// Counts events per container: enough to test the replay plumbing.
    struct Counter(EntityStates<Entity, u32>);
    impl Machine for Counter {
        fn name(&self) -> &'static str {
            "counter"
        }
        fn on_event(&mut self, trace: &Trace, id: EventId, out: &mut Vec<Transition>) {
            let e = trace.get(id);
            for entity in &e.entities {
                let n = self.0.entry_or(entity.clone(), || 0, e.ts);
                *n += 1;
                out.push(Transition {
                    machine: "counter",
                    entity: entity.clone(),
                    scope: None,
                    from: (*n - 1).to_string(),
                    to: n.to_string(),
                    event: id,
                    inferred: None,
                    illegal: false,
                });
            }
        }
        fn evict(&mut self, before: i64) {
            self.0.evict(before);
        }
    }

    #[test]
    fn replay_indexes_transitions_and_evicts_idle_entities() {
        let c = Entity::Container(1);
        let trace = Trace::from_ordered(
            vec![
                event("scm1", "a", 1, Some(0), vec![c.clone()]),
                event("scm1", "a", 2, Some(10), vec![c.clone()]),
            ],
            0,
        );
        let mut machines: Vec<Box<dyn Machine>> = vec![Box::new(Counter(EntityStates::default()))];
        let replay = Replay::run(&trace, &mut machines, 1000);
        let steps: Vec<_> = replay
            .of_entity(&c)
            .map(|t| (t.from.as_str(), t.to.as_str()))
            .collect();
        assert_eq!(steps, vec![("0", "1"), ("1", "2")]);
        assert_eq!(replay.of_event(1).count(), 1);

        let mut states: EntityStates<u32, &str> = EntityStates::default();
        states.set(1, "OPEN", Some(5));
        states.set(2, "OPEN", Some(50));
        states.evict(10);
        assert_eq!((states.get(&1), states.get(&2)), (None, Some(&"OPEN")));
    }
}
