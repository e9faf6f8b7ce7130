//! Reference state machines: the framework every lifecycle model plugs into.
//!
//! A machine reads the trace in time order and reports each [`Transition`] of the entities it
//! models: the state before and after, the event that caused it, whether the step was inferred
//! (Ozone does not log it at INFO; the transition names the line that would have shown it) and
//! whether the model's transition table allows it. Each machine's table cites the Ozone code it
//! models.

use crate::kinds::{KindSet, Reads};
use crate::trace::{EventId, Trace};
use oztrace_parser::entity::Entity;
use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;
use std::hash::Hash;
use std::sync::{Arc, OnceLock};

/// A state label: a machine's own constant for the states it names, an owned string only for the
/// labels that print a value (a term, a count of queued tasks).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State(Cow<'static, str>);

impl State {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&'static str> for State {
    fn from(label: &'static str) -> State {
        State(Cow::Borrowed(label))
    }
}

impl From<String> for State {
    fn from(label: String) -> State {
        State(Cow::Owned(label))
    }
}

impl std::ops::Deref for State {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for State {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for State {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

/// One step of one entity in one machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    pub machine: &'static str,
    /// Shared with the trace's interned entity (or the machine's own copy): no clone per step.
    pub entity: Arc<Entity>,
    /// The member whose view this is, for state kept per member (an SCM's view of a datanode).
    pub scope: Option<Arc<str>>,
    pub from: State,
    pub to: State,
    pub event: EventId,
    /// For an inferred step: the log line (logger and level) that would have shown it.
    pub inferred: Option<&'static str>,
    /// The step is not in the machine's transition table: Ozone's model says it cannot happen.
    pub illegal: bool,
}

/// One legal step of a machine's transition table: from any state of `from`, `trigger` moves the
/// entity to `to`; `code` cites the Ozone (or Ratis) code that makes the step. A step a machine
/// replays that its table does not hold is `illegal`.
#[derive(Debug, Clone, Copy)]
pub struct Row<S: 'static, T> {
    pub from: &'static [S],
    pub trigger: T,
    pub to: S,
    pub code: &'static str,
}

/// Whether `table` holds the step `from --trigger--> to`.
pub fn allows<S: PartialEq, T: PartialEq>(table: &[Row<S, T>], from: S, trigger: T, to: S) -> bool {
    table
        .iter()
        .any(|row| row.trigger == trigger && row.to == to && row.from.contains(&from))
}

/// A lifecycle model.
pub trait Machine: Send {
    fn name(&self) -> &'static str;
    /// The kinds it reads: [`Machine::on_event`] sees only events of these kinds, and must do
    /// nothing with any other.
    fn consumes(&self) -> &'static [Reads];
    /// Steps the model over one event (in time order), pushing the transitions it causes.
    fn on_event(&mut self, trace: &Trace, id: EventId, out: &mut Vec<Transition>);
    /// Drops entities with no event since `before` (log time, epoch millis).
    fn evict(&mut self, before: i64);
}

/// Per-entity state with the time it was last touched, for eviction after `--retain`.
#[derive(Debug, Clone)]
pub struct EntityStates<K, S> {
    states: HashMap<K, (S, i64)>,
    /// No state was last touched before this: an eviction before it has nothing to drop and
    /// skips the pass over every state (with a long `--retain`, nearly every one).
    oldest: i64,
}

impl<K, S> Default for EntityStates<K, S> {
    fn default() -> Self {
        EntityStates {
            states: HashMap::default(),
            oldest: i64::MAX,
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
        self.oldest = self.oldest.min(seen);
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
        self.oldest = self.oldest.min(slot.1);
        &mut slot.0
    }

    /// Drops the states last touched before `before`.
    pub fn evict(&mut self, before: i64) {
        if before <= self.oldest {
            return;
        }
        let mut oldest = i64::MAX;
        self.states.retain(|_, (_, seen)| {
            let kept = *seen >= before;
            if kept {
                oldest = oldest.min(*seen);
            }
            kept
        });
        self.oldest = oldest;
    }

    /// Every live state, with its key.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &S)> {
        self.states.iter().map(|(k, (s, _))| (k, s))
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
}

/// One machine over the whole trace (the events of `reads`), evicting idle entities every few
/// thousand events.
pub(crate) fn replay_one(
    trace: &Trace,
    machine: &mut dyn Machine,
    reads: &KindSet,
    retain_ms: i64,
) -> Vec<Transition> {
    const EVICT_EVERY: usize = 4096;
    // Grown as steps come, not reserved by the events read: most events step nothing (on the
    // 4 GiB bench bundle 13 k steps from 165 k events read; a reservation held 20 MB).
    let mut transitions = Vec::new();
    // Every EVICT_EVERY-th event of the trace, read or not, evicts what is idle by then.
    let mut evict_at = (EVICT_EVERY - 1..trace.len())
        .step_by(EVICT_EVERY)
        .peekable();
    let evict = |machine: &mut dyn Machine, at: EventId| {
        if let Some(latest) = trace.latest_until(at) {
            machine.evict(latest.saturating_sub(retain_ms));
        }
    };
    for id in trace.of_kinds(reads) {
        while let Some(at) = evict_at.next_if(|&at| at < id) {
            evict(machine, at);
        }
        machine.on_event(trace, id, &mut transitions);
    }
    for at in evict_at {
        evict(machine, at);
    }
    transitions
}

/// All transitions of a replay: each machine's in event order, and each entity's, indexed at the
/// first question.
#[derive(Debug, Default)]
pub struct Replay {
    /// Each machine's transitions, in event order, machines in registry order (a few machines: a
    /// list). Kept apart, not merged into one list: a question names one machine or one event.
    by_machine: Vec<(&'static str, Vec<Transition>)>,
    /// Each entity's transitions (by machine and place in its list) in the order of
    /// [`Replay::transitions`], built at the first question: most replays are asked of few
    /// entities, or none.
    by_entity: OnceLock<EntityIndex>,
}

/// Each entity's transitions, by (machine, place in its list).
type EntityIndex = HashMap<Arc<Entity>, Vec<(u32, u32)>>;

impl Replay {
    /// Replays `machines` over the trace, each machine on its own core when there are several
    /// (they share nothing). Entities idle longer than `retain_ms` of log time are dropped from
    /// the machines' live state.
    pub fn run(trace: &Trace, machines: &mut [Box<dyn Machine>], retain_ms: i64) -> Replay {
        let by_machine = crate::cores::map_mut(machines, |machine| {
            let reads = KindSet::of(machine.consumes());
            let steps = replay_one(trace, machine.as_mut(), &reads, retain_ms);
            (machine.name(), steps)
        });
        Replay {
            by_machine,
            by_entity: OnceLock::new(),
        }
    }

    /// How many transitions the replay holds.
    pub fn len(&self) -> usize {
        self.by_machine.iter().map(|(_, list)| list.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every transition in the order of a sequential replay: by event, then machine (in registry
    /// order), each machine's own order kept.
    pub fn transitions(&self) -> impl Iterator<Item = &Transition> {
        self.places()
            .map(|(machine, at)| &self.by_machine[machine].1[at])
    }

    /// The (machine, place in its list) of every transition, in the order of
    /// [`Replay::transitions`]: a merge of the machines' lists (few machines: a scan of their
    /// heads).
    fn places(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut next = vec![0; self.by_machine.len()];
        std::iter::from_fn(move || {
            let (machine, _) = self
                .by_machine
                .iter()
                .zip(&next)
                .enumerate()
                .filter_map(|(machine, ((_, list), &at))| Some((machine, list.get(at)?.event)))
                .min_by_key(|&(machine, event)| (event, machine))?;
            let at = next[machine];
            next[machine] += 1;
            Some((machine, at))
        })
    }

    /// Transitions an event caused, machines in registry order.
    pub fn of_event(&self, id: EventId) -> impl Iterator<Item = &Transition> {
        self.by_machine.iter().flat_map(move |(_, list)| {
            let start = list.partition_point(|t| t.event < id);
            list[start..].iter().take_while(move |t| t.event == id)
        })
    }

    /// Transitions of one entity, in time order.
    pub fn of_entity(&self, entity: &Entity) -> impl Iterator<Item = &Transition> {
        let by_entity = self.by_entity.get_or_init(|| {
            let mut by_entity = EntityIndex::default();
            for (machine, at) in self.places() {
                let t = &self.by_machine[machine].1[at];
                let place = (machine as u32, at as u32);
                match by_entity.get_mut(&*t.entity) {
                    Some(list) => list.push(place),
                    None => {
                        by_entity.insert(Arc::clone(&t.entity), vec![place]);
                    }
                }
            }
            by_entity
        });
        by_entity
            .get(entity)
            .into_iter()
            .flatten()
            .map(|&(machine, at)| &self.by_machine[machine as usize].1[at as usize])
    }

    /// Transitions of one machine, in time order.
    pub fn of_machine(&self, machine: &str) -> std::slice::Iter<'_, Transition> {
        self.by_machine
            .iter()
            .find(|(name, _)| *name == machine)
            .map_or(&[][..], |(_, list)| list.as_slice())
            .iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::EntityId;
    use crate::trace::tests::event;

    /// An eviction drops exactly the states last touched before its time, however they were
    /// touched (a state with no time is dropped by the first), and what it keeps is dropped by a
    /// later one.
    #[test]
    fn eviction_drops_exactly_the_states_idle_before_its_time() {
        let mut states: EntityStates<u32, &str> = EntityStates::default();
        states.set(1, "a", Some(10));
        *states.entry_or(2, || "b", Some(20)) = "b";
        states.evict(5);
        assert_eq!(states.len(), 2);
        states.evict(15);
        assert_eq!((states.get(&1), states.get(&2)), (None, Some(&"b")));
        // Untimed: last touched at no time.
        states.entry_or(3, || "c", None);
        states.evict(0);
        assert_eq!((states.get(&3), states.len()), (None, 1));
        states.set(4, "d", None);
        states.evict(1);
        assert_eq!((states.get(&4), states.len()), (None, 1));
        // Touched again later: kept past its first time.
        states.entry_or(2, || "b", Some(40));
        states.evict(30);
        assert_eq!(states.get(&2), Some(&"b"));
        states.evict(41);
        assert!(states.is_empty());
    }

    /// Counts events per container: enough to test the replay plumbing.
    struct Counter(EntityStates<EntityId, u32>, &'static str);
    impl Machine for Counter {
        fn name(&self) -> &'static str {
            self.1
        }
        fn on_event(&mut self, trace: &Trace, id: EventId, out: &mut Vec<Transition>) {
            let e = trace.get(id);
            for &entity in trace.entity_ids_of(id) {
                let n = self.0.entry_or(entity, || 0, e.ts);
                *n += 1;
                out.push(Transition {
                    machine: self.1,
                    entity: Arc::clone(trace.entity(entity)),
                    scope: None,
                    from: (*n - 1).to_string().into(),
                    to: n.to_string().into(),
                    event: id,
                    inferred: None,
                    illegal: false,
                });
            }
        }
        fn consumes(&self) -> &'static [Reads] {
            &[Reads::Kind("unrecognized")]
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
        let mut machines: Vec<Box<dyn Machine>> = vec![
            Box::new(Counter(EntityStates::default(), "first")),
            Box::new(Counter(EntityStates::default(), "second")),
        ];
        let replay = Replay::run(&trace, &mut machines, 1000);
        let steps: Vec<_> = replay
            .of_entity(&c)
            .map(|t| (t.machine, t.from.as_str(), t.to.as_str()))
            .collect();
        // By event, then machine in registry order.
        assert_eq!(
            steps,
            vec![
                ("first", "0", "1"),
                ("second", "0", "1"),
                ("first", "1", "2"),
                ("second", "1", "2")
            ]
        );
        assert_eq!(replay.of_event(1).count(), 2);
        assert_eq!(replay.of_event(2).count(), 0);
        // Every step in the order of a sequential replay: by event, then machine.
        let all: Vec<_> = replay.transitions().map(|t| (t.event, t.machine)).collect();
        assert_eq!(
            all,
            [(0, "first"), (0, "second"), (1, "first"), (1, "second")]
        );
        assert_eq!(replay.len(), 4);
        // Each machine's own steps, in order.
        let second: Vec<_> = replay
            .of_machine("second")
            .map(|t| (t.event, t.to.as_str()))
            .collect();
        assert_eq!(second, vec![(0, "1"), (1, "2")]);
        assert_eq!(replay.of_machine("absent").count(), 0);

        let mut states: EntityStates<u32, &str> = EntityStates::default();
        states.set(1, "OPEN", Some(5));
        states.set(2, "OPEN", Some(50));
        states.evict(10);
        assert_eq!((states.get(&1), states.get(&2)), (None, Some(&"OPEN")));
    }
}
