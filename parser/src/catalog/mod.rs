//! The catalogue of Ozone log statements: record → typed event.
//!
//! One module per log family, each owning its event enum, its kinds table ([`KindInfo`]: the
//! Ozone class, level, releases and exact template of every statement) and its `parse` function.
//! Dispatch never scans every template per line: the record's component (and logger) picks the
//! modules, and each module's literal prefilter (aho-corasick over constant fragments) picks the
//! few templates worth extracting with nom or one regex.

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

/// Typed fields of an event, per log family. Serialised untagged: the contract's `fields`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum EventData {
    Unrecognized(Unrecognized),
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

impl EventData {
    pub fn kind(&self) -> &'static str {
        match self {
            EventData::Unrecognized(_) => "unrecognized",
            EventData::Ratis(e) => e.kind(),
            EventData::Scm(e) => e.kind(),
            EventData::ScmContainer(e) => e.kind(),
            EventData::Datanode(e) => e.kind(),
            EventData::DnEndpoint(e) => e.kind(),
            EventData::Om(e) => e.kind(),
        }
    }
}

/// A recognised record: its fields and the entities it names.
#[derive(Debug, Clone, PartialEq)]
pub struct Typed {
    pub data: EventData,
    pub entities: Vec<Entity>,
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

/// Every kind oztrace knows, with its Ozone source (`oztrace explain --kinds`).
pub fn kinds() -> impl Iterator<Item = &'static KindInfo> {
    ratis::KINDS
        .iter()
        .chain(scm::KINDS)
        .chain(scm_container::KINDS)
        .chain(datanode::KINDS)
        .chain(dn_endpoint::KINDS)
        .chain(om::KINDS)
}

/// Types one record, or `None` when no catalogued statement matches it.
pub fn classify(record: &Record, component: Component) -> Option<Typed> {
    if record.headerless {
        return None;
    }
    let audit = if component.is_audit_like() && component != Component::DnContainer {
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

#[cfg(test)]
mod tests;
