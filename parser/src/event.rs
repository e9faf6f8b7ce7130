//! Typed events: the recorded trace.
//!
//! A record that the catalogue recognises becomes an [`Event`] with a stable `kind` (snake_case,
//! from the kinds registry in [`crate::catalog`]), the entities it names, and typed fields.

mod json;
pub use json::{JsonEntities, JsonFields, JsonLine};

use crate::catalog::datanode::DatanodeEvent;
use crate::catalog::ratis::Member;
use crate::catalog::{EventData, Typed, Unrecognized};
use crate::entity::Entity;
use crate::record::Record;
use crate::source::{Component, Level};
use serde::Serialize;
use std::sync::Arc;

/// Where one copy of an event was written (OM audit lines are written by every OM).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Copy {
    pub host: Arc<str>,
    pub file: Arc<str>,
    pub line: u64,
}

/// Names that repeat on almost every line of one stream, each kept once (looked up for every
/// record: a fast hash): thread and logger names, and Ratis members.
#[derive(Debug, Default)]
pub struct Names {
    names: rustc_hash::FxHashSet<Arc<str>>,
    members: rustc_hash::FxHashSet<Arc<Member>>,
    /// The last thread and logger names: a run of records mostly repeats them (an audit log's
    /// logger, every line), compared before any hash.
    last_thread: Option<Arc<str>>,
    last_logger: Option<Arc<str>>,
}

impl Names {
    /// The shared copy of `name`.
    pub fn get(&mut self, name: &str) -> Arc<str> {
        if let Some(known) = self.names.get(name) {
            return Arc::clone(known);
        }
        let name: Arc<str> = Arc::from(name);
        self.names.insert(Arc::clone(&name));
        name
    }

    /// [`Names::get`] through `last`, the last name of its kind.
    fn get_as(&mut self, name: &str, last: fn(&mut Names) -> &mut Option<Arc<str>>) -> Arc<str> {
        if let Some(known) = last(self).as_ref().filter(|known| ***known == *name) {
            return Arc::clone(known);
        }
        let shared = self.get(name);
        *last(self) = Some(Arc::clone(&shared));
        shared
    }

    /// Puts the shared copy of `value` from `known` in its place, or makes it the shared copy.
    fn share<T: Eq + std::hash::Hash + ?Sized>(
        known: &mut rustc_hash::FxHashSet<Arc<T>>,
        value: &mut Arc<T>,
    ) {
        match known.get(&**value) {
            Some(copy) => *value = Arc::clone(copy),
            None => {
                known.insert(Arc::clone(value));
            }
        }
    }

    /// Puts the shared copy of what `data` names that repeats across a stream in its place (the
    /// Ratis member, a container line's state and volume): a kept event lives until the
    /// analysis ends (issue 11).
    pub fn share_repeated(&mut self, data: &mut EventData) {
        match data {
            EventData::Ratis(ratis) => {
                if let Some(member) = ratis.member_mut() {
                    Names::share(&mut self.members, member);
                }
            }
            EventData::Datanode(DatanodeEvent::DnContainerState { state, volume, .. }) => {
                for name in [state, volume].into_iter().flatten() {
                    Names::share(&mut self.names, name);
                }
            }
            _ => {}
        }
    }
}

/// A record's thread and logger names, shared through its stream's [`Names`].
#[derive(Debug, Default)]
pub struct Named {
    pub thread: Option<Arc<str>>,
    pub logger: Option<Arc<str>>,
}

impl Named {
    /// The shared copies of `record`'s names.
    pub fn of(record: &Record, names: &mut Names) -> Named {
        Named {
            thread: (record.thread.as_deref()).map(|t| names.get_as(t, |n| &mut n.last_thread)),
            logger: (record.logger.as_deref()).map(|l| names.get_as(l, |n| &mut n.last_logger)),
        }
    }
}

/// One typed event. A kept event lives until the analysis ends: its lists and text are boxed,
/// their exact size without a growth slack, 8 bytes each smaller than a `Vec` (issue 11).
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub ts: Option<i64>,
    pub host: Arc<str>,
    pub component: Component,
    pub level: Option<Level>,
    /// Thread and logger names repeat on almost every line: shared, not copied, per stream.
    pub thread: Option<Arc<str>>,
    pub logger: Option<Arc<str>>,
    pub entities: Box<[Entity]>,
    pub data: EventData,
    pub file: Arc<str>,
    pub line: u64,
    pub continuation_lines: u32,
    /// The message's first line without the header.
    pub text: Box<str>,
    /// Every copy, when several hosts wrote the same event (empty otherwise).
    pub copies: Box<[Copy]>,
}

impl Event {
    /// The event of one record read from `file`: its header, and the catalogue's fields and
    /// entities (`None`: an unrecognized record, kept by `events --all`).
    pub fn of_record(
        record: Record,
        typed: Option<Typed>,
        host: Arc<str>,
        component: Component,
        file: Arc<str>,
        names: &mut Names,
    ) -> Event {
        let named = Named::of(&record, names);
        let mut typed = typed;
        if let Some(typed) = &mut typed {
            names.share_repeated(&mut typed.data);
        }
        Event::of_named(record, typed, host, component, file, named)
    }

    /// [`Event::of_record`] of a record whose thread and logger names are `named`.
    pub fn of_named(
        record: Record,
        typed: Option<Typed>,
        host: Arc<str>,
        component: Component,
        file: Arc<str>,
        named: Named,
    ) -> Event {
        let (data, entities) = match typed {
            Some(typed) => (typed.data, typed.entities),
            None => (EventData::Unrecognized(Unrecognized {}), Vec::new()),
        };
        Event {
            ts: record.ts,
            host,
            component,
            level: record.level,
            thread: named.thread,
            logger: named.logger,
            entities: entities.into(),
            data,
            file,
            line: record.line,
            continuation_lines: record.continuation_lines,
            text: record.message.into(),
            copies: Box::default(),
        }
    }

    pub fn kind(&self) -> &'static str {
        self.data.kind()
    }

    /// Whether this event names `entity`.
    pub fn names(&self, entity: &Entity) -> bool {
        self.entities.contains(entity)
    }
}

#[cfg(test)]
mod tests {
    /// The replay merge and `events` move every event by value, so an event is as costly as its
    /// largest payload: the large ones are boxed (issue 11). A new payload that fails this guard
    /// belongs in a box too.
    #[test]
    fn events_stay_small_to_move() {
        let size = std::mem::size_of::<super::Event>();
        assert!(size <= 256, "Event is {size} bytes");
    }

    /// A stream's events of one Ratis member hold one copy of it; another member its own.
    #[test]
    fn a_streams_ratis_members_are_shared() {
        use crate::catalog::EventData;
        use crate::catalog::ratis::{Member, RatisEvent};
        use std::sync::Arc;
        let snapshot = |peer: &str, index| {
            let group = "group-4C2B3A1F0E9D".to_string();
            EventData::Ratis(RatisEvent::SnapshotTaken {
                member: Arc::new(Member {
                    member: format!("{peer}@{group}"),
                    peer: peer.to_string(),
                    group,
                }),
                index,
            })
        };
        let shared = |names: &mut super::Names, mut data: EventData| {
            names.share_repeated(&mut data);
            match data {
                EventData::Ratis(RatisEvent::SnapshotTaken { member, .. }) => member,
                other => panic!("not a snapshot: {other:?}"),
            }
        };
        let peer = "8f0c3b2a-1d4e-4f5a-9b6c-7d8e9f0a1b2c";
        let other = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
        let mut names = super::Names::default();
        let first = shared(&mut names, snapshot(peer, 1));
        let again = shared(&mut names, snapshot(peer, 2));
        let another = shared(&mut names, snapshot(other, 3));
        assert!(Arc::ptr_eq(&first, &again));
        assert!(!Arc::ptr_eq(&first, &another));
        assert_eq!(another.peer, other);
    }

    #[test]
    fn a_streams_container_states_and_volumes_are_shared() {
        use super::{DatanodeEvent, EventData, Names};
        use std::sync::Arc;
        let line = |id, state: &str, volume: &str| {
            EventData::Datanode(DatanodeEvent::DnContainerState {
                id,
                index: Some(0),
                bcsid: None,
                state: Some(Arc::from(state)),
                volume: Some(Arc::from(volume)),
                message: None,
            })
        };
        let shared = |names: &mut Names, mut data: EventData| {
            names.share_repeated(&mut data);
            match data {
                EventData::Datanode(DatanodeEvent::DnContainerState {
                    state: Some(state),
                    volume: Some(volume),
                    ..
                }) => (state, volume),
                other => panic!("not a container line: {other:?}"),
            }
        };
        let mut names = Names::default();
        let first = shared(&mut names, line(1, "CLOSED", "/data/disk1/hdds"));
        let again = shared(&mut names, line(2, "CLOSED", "/data/disk1/hdds"));
        let other = shared(&mut names, line(3, "OPEN", "/data/disk2/hdds"));
        assert!(Arc::ptr_eq(&first.0, &again.0) && Arc::ptr_eq(&first.1, &again.1));
        assert_eq!((&*other.0, &*other.1), ("OPEN", "/data/disk2/hdds"));
        assert!(!Arc::ptr_eq(&first.0, &other.0));
    }
}
