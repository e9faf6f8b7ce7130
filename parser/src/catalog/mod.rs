//! The catalogue of Ozone log statements: record → typed event.
//!
//! One module per log family (`scm`, `scm_container`, `datanode`, `dn_endpoint`, `ratis`, `om`),
//! each owning its event enum and one `catalogue!` table. A row of the table is one log statement
//! as Ozone (or Ratis) writes it, and it is both the registry entry (`oztrace explain --kinds`,
//! [`kinds`]) and the matcher: nobody retypes its text elsewhere.
//!
//! # Adding a statement
//!
//! Add one row to its module's table, next to its class's rows:
//!
//! ```text
//! "admin_aborted", "WARN", MONITOR, "1.3–HEAD", "scm.md 2.2, 4.2 step 5",
//!     "Datanode {} has an operational state of {} when it should be undergoing …" [Datanode, Word] =>
//!     |m| { let (uuid, entities) = datanode(m, 0)?; Some((ScmEvent::AdminAborted { … }, entities)) },
//! ```
//!
//! - the kind (snake_case, the contract's `kind`; several rows may share one), the level, the
//!   class (qualified: its last segment is the logger the row is tried for; `via LOGGERS,` when the
//!   statement goes through other loggers, e.g. a helper through its caller's), the releases whose
//!   wording it is (checked by `scripts/check-catalogue-releases.py`) and the catalogue section in
//!   `../shared/ozone-logs`;
//! - the template: the exact format string, `{}` for each placeholder; a string concatenation is
//!   written with `{}` where a value goes, `String.format`'s `%s`/`%d` as `{}`. A statement that
//!   prints different wordings (releases, `flag ? "x" : ""` suffixes, two placeholders side by
//!   side) is one row per wording, longest first: rows are tried in table order;
//! - the [`template::Slot`] of each placeholder, the shape of what Ozone prints there (a `Datanode`
//!   is `uuid(host/ip)`, a `Word` an enum constant, `Unread` a value the event does not keep). A
//!   value must have its slot's shape for the row to match, so where a literal recurs in a
//!   message the split that types is the one taken, and a slot that spans lines (`BlockProto`,
//!   `Heartbeat`, …) makes the row read the continuation lines; compilation fails when the slots
//!   and the `{}` differ in number;
//! - the builder: `|m| …` gets the [`template::Matched`] values (`m.u64(1)?`, `m.datanode(0)`,
//!   `m.kind`, `m.input.record` for the thread or the stack trace) and returns the event and the
//!   entities it names, or `None` to let the next row try.
//!
//! `catalog/tests.rs` then fills the new template from its slots, classifies the line and expects
//! the kind and the values back: a slot the builder drops must be `Unread`.
//!
//! # How a record is typed
//!
//! The record's component picks the modules ([`classify`]); in a module the logger's class picks
//! its rows (full name or any `%c{n}` abbreviation, the package checked), each rejected by its
//! template's head or first literal in a few instructions. When the layout prints no logger, an
//! Aho-Corasick automaton over each template's longest literal keeps, in one pass, the rows whose
//! literal the message holds. Audit records and the dn-container log are read by their fields
//! (the tables' `structured` rows).

pub mod datanode;
pub mod dn_endpoint;
pub mod om;
pub mod ratis;
pub mod scm;
pub mod scm_container;
pub mod template;

use crate::audit::{AuditBody, parse_audit_body};
use crate::entity::Entity;
use crate::record::Record;
use crate::source::Component;
use serde::Serialize;

/// What the registry says about one event kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct KindInfo {
    /// Stable snake_case name (`oztrace events` `kind`).
    pub kind: &'static str,
    /// The log it is written to (`scm`, `scm-audit`, `datanode`, `dn-container`, …).
    pub log: &'static str,
    /// The Ozone or Ratis class that writes it.
    pub class: &'static str,
    pub level: &'static str,
    /// Releases whose wording the template matches (`1.4–HEAD`, `2.1.x`, …).
    pub releases: &'static str,
    /// The format string as written in the source (`{}` placeholders).
    pub template: &'static str,
    /// Where ../shared/ozone-logs documents it (`scm.md 2.3`).
    pub catalogue: &'static str,
}

/// Declares the log families once: `EventData` with a variant per family, its `kind`, each
/// family's event into its variant (and, for the tests, back) and the registry of every kind.
macro_rules! families {
    ($($variant:ident($module:ident::$event:ident)),* $(,)?) => {
        /// Typed fields of an event, per log family. Serialised untagged: the contract's
        /// `fields`.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum EventData {
            Unrecognized(Unrecognized),
            $($variant($module::$event),)*
        }

        impl EventData {
            pub fn kind(&self) -> &'static str {
                match self {
                    EventData::Unrecognized(_) => "unrecognized",
                    $(EventData::$variant(e) => e.kind(),)*
                }
            }
        }

        $(
            impl From<$module::$event> for EventData {
                fn from(event: $module::$event) -> EventData {
                    EventData::$variant(event)
                }
            }

            #[cfg(test)]
            impl TryFrom<EventData> for $module::$event {
                type Error = EventData;

                fn try_from(data: EventData) -> Result<$module::$event, EventData> {
                    match data {
                        EventData::$variant(event) => Ok(event),
                        other => Err(other),
                    }
                }
            }
        )*

        /// Every kind oztrace knows, with its Ozone source (`oztrace explain --kinds`).
        pub fn kinds() -> impl Iterator<Item = &'static KindInfo> {
            std::iter::empty()$(.chain($module::KINDS))*
        }
    };
}

families! {
    Ratis(ratis::RatisEvent),
    Scm(scm::ScmEvent),
    ScmContainer(scm_container::ScmContainerEvent),
    Datanode(datanode::DatanodeEvent),
    DnEndpoint(dn_endpoint::DnEndpointEvent),
    Om(om::OmEvent),
}

/// A record no template matched (`oztrace events --all`): no fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unrecognized {}

/// A recognised record: its fields and the entities it names.
#[derive(Debug, Clone, PartialEq)]
pub struct Typed {
    pub data: EventData,
    pub entities: Vec<Entity>,
}

impl Typed {
    pub fn new(event: impl Into<EventData>, entities: Vec<Entity>) -> Typed {
        Typed {
            data: event.into(),
            entities,
        }
    }
}

/// What a module's `parse` sees of one record.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    pub record: &'a Record,
    /// The record's component (from the file name, compose service or logger).
    pub component: Component,
    /// The parsed body of an audit record.
    pub audit: Option<&'a AuditBody>,
}

/// Types one record, or `None` when no catalogued statement matches it.
pub fn classify(record: &Record, component: Component) -> Option<Typed> {
    if record.headerless {
        return None;
    }
    let audit = if has_audit_message(component) {
        parse_audit_body(&record.message).ok().map(|(body, _)| body)
    } else {
        None
    };
    let input = Input {
        record,
        component,
        audit: audit.as_ref(),
    };
    let mut typed = match component {
        Component::Scm | Component::ScmAudit => scm::parse(&input)
            .or_else(|| scm_container::parse(&input))
            .or_else(|| ratis::parse(&input)),
        Component::Datanode | Component::DnAudit | Component::DnContainer => {
            dn_endpoint::parse(&input)
                .or_else(|| datanode::parse(&input))
                .or_else(|| ratis::parse(&input))
        }
        Component::Om | Component::OmAudit | Component::OmSysAudit | Component::Client => {
            om::parse(&input).or_else(|| ratis::parse(&input))
        }
        Component::Recon | Component::S3g | Component::Unknown => ratis::parse(&input)
            .or_else(|| scm::parse(&input))
            .or_else(|| scm_container::parse(&input))
            .or_else(|| datanode::parse(&input))
            .or_else(|| dn_endpoint::parse(&input))
            .or_else(|| om::parse(&input)),
    }?;
    // A line may print one entity several times (a block and its container, a list): once each,
    // in the order first printed.
    let mut i = 0;
    while i < typed.entities.len() {
        if typed.entities[..i].contains(&typed.entities[i]) {
            typed.entities.remove(i);
        } else {
            i += 1;
        }
    }
    Some(typed)
}

/// Whether the records of `component` are audit messages ([`AuditBody`]).
fn has_audit_message(component: Component) -> bool {
    component.is_audit_like() && component != Component::DnContainer
}

#[cfg(test)]
mod tests;
