//! Typed events: the recorded trace.
//!
//! A record that the catalogue recognises becomes an [`Event`] with a stable `kind` (snake_case,
//! from the kinds registry in [`crate::catalog`]), the entities it names, and typed fields.

mod copies;
mod json;

pub use copies::merge_audit_copies;

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

/// Thread and logger names of one stream, each kept once (looked up for every record: a fast
/// hash).
#[derive(Debug, Default)]
pub struct Names(rustc_hash::FxHashSet<Arc<str>>);

impl Names {
    /// The shared copy of `name`.
    pub fn get(&mut self, name: String) -> Arc<str> {
        if let Some(known) = self.0.get(name.as_str()) {
            return Arc::clone(known);
        }
        let name: Arc<str> = Arc::from(name);
        self.0.insert(Arc::clone(&name));
        name
    }
}

/// A record's thread and logger names, shared through its stream's [`Names`].
#[derive(Debug, Default)]
pub struct Named {
    pub thread: Option<Arc<str>>,
    pub logger: Option<Arc<str>>,
}

impl Named {
    /// Takes `record`'s names out of it.
    pub fn take(record: &mut Record, names: &mut Names) -> Named {
        Named {
            thread: record.thread.take().map(|t| names.get(t)),
            logger: record.logger.take().map(|l| names.get(l)),
        }
    }
}

/// One typed event.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub ts: Option<i64>,
    pub host: Arc<str>,
    pub component: Component,
    pub level: Option<Level>,
    /// Thread and logger names repeat on almost every line: shared, not copied, per stream.
    pub thread: Option<Arc<str>>,
    pub logger: Option<Arc<str>>,
    pub entities: Vec<Entity>,
    pub data: EventData,
    pub file: Arc<str>,
    pub line: u64,
    pub continuation_lines: u32,
    /// The message's first line without the header.
    pub text: String,
    /// Every copy, when several hosts wrote the same event (empty otherwise).
    pub copies: Vec<Copy>,
}

impl Event {
    /// The event of one record read from `file`: its header, and the catalogue's fields and
    /// entities (`None`: an unrecognized record, kept by `events --all`).
    pub fn of_record(
        mut record: Record,
        typed: Option<Typed>,
        host: Arc<str>,
        component: Component,
        file: Arc<str>,
        names: &mut Names,
    ) -> Event {
        let named = Named::take(&mut record, names);
        Event::of_named(record, typed, host, component, file, named)
    }

    /// [`Event::of_record`] of a record whose thread and logger names were taken out of it.
    pub fn of_named(
        record: Record,
        typed: Option<Typed>,
        host: Arc<str>,
        component: Component,
        file: Arc<str>,
        named: Named,
    ) -> Event {
        let (data, mut entities) = match typed {
            Some(typed) => (typed.data, typed.entities),
            None => (EventData::Unrecognized(Unrecognized {}), Vec::new()),
        };
        // A kept event lives until the analysis ends: a pushed list's growth slack (room for
        // four entities where most name one or two) is not kept with it (issue 11).
        entities.shrink_to_fit();
        Event {
            ts: record.ts,
            host,
            component,
            level: record.level,
            thread: named.thread,
            logger: named.logger,
            entities,
            data,
            file,
            line: record.line,
            continuation_lines: record.continuation_lines,
            text: record.message,
            copies: Vec::new(),
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
        assert!(size <= 296, "Event is {size} bytes");
    }
}
