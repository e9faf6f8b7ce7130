//! Event fixtures shared by the tests of the crates above the parser (the analyzer, the rules, the
//! binary), as ripgrep's `searcher/src/testutil.rs` is for its searcher: events typed by the real
//! catalogue, from log text or from one message, and hand-built events for what no line shows.
//! The parser's own tests cannot use it (they would see a second copy of its types).

use oztrace_parser::catalog::{self, EventData, Unrecognized};
use oztrace_parser::event::{Event, Names};
use oztrace_parser::record::{ReadOptions, Record, read_records};
use oztrace_parser::source::Component;
use std::sync::Arc;

/// An event of `host` and `component` carrying `data`, with nothing else known: no time, level,
/// thread, logger, entities, text or copies, line 0 of `<host>.log`. A test sets what it needs with
/// struct update syntax: `Event { ts: Some(5), line: 2, ..event("scm1", Component::Scm, data) }`.
pub fn event(host: &str, component: Component, data: EventData) -> Event {
    Event {
        ts: None,
        host: host.into(),
        component,
        level: None,
        thread: None,
        logger: None,
        entities: Box::default(),
        data,
        file: format!("{host}.log").into(),
        line: 0,
        continuation_lines: 0,
        text: Box::default(),
        copies: Box::default(),
    }
}

/// [`event`] of no kind (`unrecognized`), for what only a record's place matters to.
pub fn untyped(host: &str, component: Component) -> Event {
    event(host, component, EventData::Unrecognized(Unrecognized {}))
}

/// The event of one message of `component` on `host` as `logger` writes it (no logger for the
/// audit and dn-container layouts), typed by the catalogue: a message of several lines carries
/// its stack trace. Panics when no template matches: the test's line is wrong.
pub fn message(host: &str, component: Component, logger: Option<&str>, message: &str) -> Event {
    let (first, continuation) = message.split_once('\n').unwrap_or((message, ""));
    let record = Record {
        logger: logger.map(str::to_string),
        message: first.to_string(),
        continuation: continuation.to_string(),
        continuation_lines: continuation.lines().count() as u32,
        ..Record::default()
    };
    let typed = catalog::classify(&record, component)
        .unwrap_or_else(|| panic!("no template matches {message:?}"));
    Event::of_record(
        record,
        Some(typed),
        host.into(),
        component,
        format!("{host}.log").into(),
        &mut Names::default(),
    )
}

/// The events of a log file's text on `host` (`<host>.log`, any layout oztrace reads), typed by
/// the catalogue, and the messages of the records no template matched.
pub fn typed(host: &str, component: Component, text: &str) -> (Vec<Event>, Vec<String>) {
    let (host, file): (Arc<str>, Arc<str>) = (host.into(), format!("{host}.log").into());
    let mut events = Vec::new();
    let mut untyped = Vec::new();
    let mut names = Names::default();
    let (_, error) = read_records(
        &mut text.as_bytes(),
        &ReadOptions::default(),
        &mut |record| match catalog::classify(&record, component) {
            Some(typed) => events.push(Event::of_record(
                record,
                Some(typed),
                Arc::clone(&host),
                component,
                Arc::clone(&file),
                &mut names,
            )),
            None => untyped.push(record.message),
        },
    );
    assert!(
        error.is_none(),
        "reading from memory cannot fail: {error:?}"
    );
    (events, untyped)
}

/// [`typed`] where every record must be typed: panics naming the lines no template matched.
pub fn events(host: &str, component: Component, text: &str) -> Vec<Event> {
    let (events, untyped) = typed(host, component, text);
    assert!(untyped.is_empty(), "{host}: untyped lines {untyped:?}");
    events
}
