//! Which event kinds each consumer reads.
//!
//! Every machine, linker and rule declares the kinds it consumes ([`Reads`], next to its doc and
//! table). The replay hands a machine only the events of its kinds; the trace indexes events by
//! kind ([`crate::trace::Trace::of_kinds`]) so that linkers and rules visit those alone; and
//! `scan`'s prefilter ([`crate::prefilter`]) leaves unparsed the records no consumer reads.
//!
//! A kind is a catalogued kind's name (`oztrace explain --kinds`), or every kind of one catalogue
//! family (an [`oztrace_parser::catalog::EventData`] variant) for a consumer that reads something
//! from all of them (a host's datanode learnt from any Ratis member id).

use oztrace_parser::catalog::{self, EventData, KindInfo};
use oztrace_parser::entity::Entity;
use rustc_hash::FxHashMap as HashMap;
use std::sync::LazyLock;

/// A family of kinds: one catalogue module, one [`catalog::EventData`] variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Ratis,
    Scm,
    ScmContainer,
    Datanode,
    DnEndpoint,
    Om,
}

impl Family {
    pub fn kinds(self) -> &'static [KindInfo] {
        match self {
            Family::Ratis => catalog::ratis::KINDS,
            Family::Scm => catalog::scm::KINDS,
            Family::ScmContainer => catalog::scm_container::KINDS,
            Family::Datanode => catalog::datanode::KINDS,
            Family::DnEndpoint => catalog::dn_endpoint::KINDS,
            Family::Om => catalog::om::KINDS,
        }
    }
}

/// What a consumer reads.
#[derive(Debug, Clone, Copy)]
pub enum Reads {
    /// One kind, by its name.
    Kind(&'static str),
    /// Every kind of a family.
    Family(Family),
    /// Every kind of a family but one, whose events the consumer passes over (most SCM records
    /// are audits a machine of SCM's service log never reads).
    FamilyBut(Family, &'static str),
    /// The events of one kind that pass a test: the consumer ignores the others (`scan` keeps
    /// an event of the kind when any consumer's test passes or another reads the whole kind).
    Where(&'static str, EventTest),
}

/// A test of an event's fields ([`Reads::Where`]).
pub type EventTest = fn(&EventData) -> bool;

/// A dense number per kind: the catalogue's kinds in registry order, then `unrecognized`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KindIndex(u16);

impl KindIndex {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

struct Table {
    names: Vec<&'static str>,
    index: HashMap<&'static str, KindIndex>,
}

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    let mut names: Vec<&'static str> = Vec::new();
    let mut index = HashMap::default();
    for name in catalog::kinds()
        .map(|k| k.kind)
        .chain(["unrecognized", OTHER])
    {
        index.entry(name).or_insert_with(|| {
            names.push(name);
            KindIndex(names.len() as u16 - 1)
        });
    }
    Table { names, index }
});

/// The index of a kind name the registry does not list (read by every consumer: a kind the
/// declarations cannot name is never left out).
const OTHER: &str = "<not in the kinds registry>";

/// The index of `kind`; a name the registry does not list shares one index that every
/// [`KindSet`] holds.
pub fn index_of(kind: &str) -> KindIndex {
    let table = &*TABLE;
    table
        .index
        .get(kind)
        .or_else(|| table.index.get(OTHER))
        .copied()
        .unwrap_or(KindIndex(0))
}

/// How many kind indexes there are.
pub fn count() -> usize {
    TABLE.names.len()
}

/// The name of a kind index.
pub fn name(kind: KindIndex) -> &'static str {
    TABLE.names[kind.index()]
}

/// A set of kinds, for a membership test per event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindSet(Vec<bool>);

impl KindSet {
    /// The kinds `reads` names (and the unlisted ones, see [`index_of`]).
    pub fn of(reads: &[Reads]) -> KindSet {
        let mut set = vec![false; count()];
        set[index_of(OTHER).index()] = true;
        for read in reads {
            match read {
                Reads::Kind(kind) | Reads::Where(kind, _) => set[index_of(kind).index()] = true,
                Reads::Family(family) => {
                    for info in family.kinds() {
                        set[index_of(info.kind).index()] = true;
                    }
                }
                Reads::FamilyBut(family, but) => {
                    for info in family.kinds().iter().filter(|info| info.kind != *but) {
                        set[index_of(info.kind).index()] = true;
                    }
                }
            }
        }
        KindSet(set)
    }

    /// Every kind.
    pub fn all() -> KindSet {
        KindSet(vec![true; count()])
    }

    pub fn contains(&self, kind: KindIndex) -> bool {
        self.0[kind.index()]
    }

    pub fn contains_name(&self, kind: &str) -> bool {
        self.contains(index_of(kind))
    }

    /// Adds every kind of `other`.
    pub fn extend(&mut self, other: &KindSet) {
        for (mine, theirs) in self.0.iter_mut().zip(&other.0) {
            *mine |= *theirs;
        }
    }

    /// The kinds of this set that `other` lacks.
    pub fn without(&self, other: &KindSet) -> KindSet {
        KindSet(
            (self.0.iter().zip(&other.0))
                .map(|(&mine, &theirs)| mine && !theirs)
                .collect(),
        )
    }

    /// The kinds in the set, by index.
    pub fn iter(&self) -> impl Iterator<Item = KindIndex> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, held)| **held)
            .map(|(i, _)| KindIndex(i as u16))
    }
}

/// Which events the consumers read: whole kinds, kinds of which they read only the events that
/// pass a test ([`Reads::Where`]), and every event that names an entity (`replay --entity`).
#[derive(Debug, Clone)]
pub struct Wanted {
    whole: KindSet,
    tested: Vec<(KindIndex, EventTest)>,
    naming: Vec<Entity>,
}

impl Wanted {
    pub fn new() -> Wanted {
        Wanted {
            whole: KindSet::of(&[]),
            tested: Vec::new(),
            naming: Vec::new(),
        }
    }

    /// Adds every event that names `entity`, whatever its kind.
    pub fn naming(&mut self, entity: Entity) {
        self.naming.push(entity);
    }

    /// Whether one of `entities` (an event's) is one the consumers read every event of.
    pub fn names_any(&self, entities: &[Entity]) -> bool {
        entities.iter().any(|e| self.naming.contains(e))
    }

    /// Adds what one consumer reads.
    pub fn add(&mut self, reads: &[Reads]) {
        for read in reads {
            match read {
                Reads::Where(kind, test) => self.tested.push((index_of(kind), *test)),
                whole => self.whole.extend(&KindSet::of(std::slice::from_ref(whole))),
            }
        }
    }

    /// Adds what `other` reads.
    pub fn extend(&mut self, other: &Wanted) {
        self.whole.extend(&other.whole);
        self.tested.extend(other.tested.iter().copied());
        self.naming.extend(other.naming.iter().cloned());
    }

    /// Whether a consumer reads an event of `data`.
    pub fn wants(&self, data: &EventData) -> bool {
        let kind = index_of(data.kind());
        self.whole.contains(kind)
            || self
                .tested
                .iter()
                .any(|(tested, test)| *tested == kind && test(data))
    }
}

impl Default for Wanted {
    fn default() -> Self {
        Wanted::new()
    }
}

/// The names `reads` declares that the registry does not list (a typo would silently leave
/// events out; the consumers' tests assert this is empty).
pub fn unknown(reads: &[Reads]) -> Vec<&'static str> {
    reads
        .iter()
        .filter_map(|r| match r {
            Reads::Kind(kind) | Reads::Where(kind, _)
                if !TABLE.index.contains_key(kind) || *kind == OTHER =>
            {
                Some(*kind)
            }
            Reads::FamilyBut(family, but) if !family.kinds().iter().any(|k| k.kind == *but) => {
                Some(*but)
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_numbered_once_and_sets_hold_what_they_read() {
        let set = KindSet::of(&[Reads::Kind("scm_audit"), Reads::Family(Family::Ratis)]);
        assert!(set.contains_name("scm_audit"));
        assert!(set.contains_name("ratis_role_change"));
        assert!(!set.contains_name("om_audit_create"));
        assert!(!set.contains_name("unrecognized"));
        // A kind nobody catalogued is read by every consumer.
        assert!(set.contains_name("some_future_kind"));
        assert_eq!(name(index_of("scm_audit")), "scm_audit");
        assert_eq!(
            unknown(&[Reads::Kind("scm_audit"), Reads::Kind("scm_audti")]),
            ["scm_audti"]
        );
        assert!(KindSet::all().contains_name("unrecognized"));
        let without = set.without(&KindSet::of(&[Reads::Family(Family::Ratis)]));
        assert!(without.contains_name("scm_audit"));
        assert!(!without.contains_name("ratis_role_change"));
        assert!(
            !without.contains_name("some_future_kind"),
            "both sets hold it"
        );
        let but = KindSet::of(&[Reads::FamilyBut(Family::Scm, "scm_audit")]);
        assert!(!but.contains_name("scm_audit"));
        assert!(Family::Scm.kinds().len() > 1);
        for info in Family::Scm.kinds().iter().filter(|k| k.kind != "scm_audit") {
            assert!(but.contains_name(info.kind), "{}", info.kind);
        }
        assert_eq!(
            unknown(&[Reads::FamilyBut(Family::Scm, "ratis_role_change")]),
            ["ratis_role_change"],
            "a kind of another family"
        );
    }
}
