//! `scan`'s prefilter: records no consumer can use are counted, never parsed.
//!
//! What dominates a real bundle at INFO is the OM audit: every OM writes ALLOCATE_KEY (or
//! CREATE_FILE), ALLOCATE_BLOCK and COMMIT_KEY for every key (om.md 1.3–1.5). Their only consumers
//! are the `om-lease` machine, its linker and `premature-lease-close`, and those declare
//! ([`ANCHORED`]) that they need a key's lines only when the key has an anchor: the
//! OpenKeyCleanupService auto-commit (`COMMIT_KEY` with `user= | ip=`, om.md 0.4), which is what
//! every lease finding starts from. The lease machine keeps its state per key, so leaving out
//! the keys without an auto-commit changes no transition of the others.
//!
//! So `scan` reads in two passes, both literal scans over the raw lines (memchr's memmem,
//! ripgrep-style) before any header is parsed:
//!
//! 1. every input, with the anchored kinds' lines skipped unless they are anchors themselves;
//!    the anchors' keys are collected from the typed trace;
//! 2. only when there are anchors, and only the OM audit streams of the hosts that wrote one
//!    (every OM writes every audit line; a key's earlier lines may be in older rotations of the
//!    same log): the anchored kinds' lines that name an anchored key's file name, typed and kept
//!    when their key is anchored.
//!
//! Skipped records are still counted (records and typed events of the coverage numbers): they
//! are OM audit records of a kind the catalogue types. `events` and `stats` read without the
//! prefilter. `replay --entity` reads what `scan` reads and every event naming its entity, in one
//! pass that reads the anchored kinds' lines of that entity only when it is a key ([`focused`]).
//! `tests/prefilter.rs` checks that findings and replays are identical with the prefilter on and
//! off, on every sample and on a generated bundle with injected scenarios.

use crate::kinds::Wanted;
use memchr::memmem::Finder;
use oztrace_parser::catalog::Typed;
use oztrace_parser::entity::Entity;
use oztrace_parser::record::Skip;
use std::collections::BTreeSet;
use std::sync::{Arc, LazyLock};

/// A consumer's declaration: the audit ops (and their kinds) it reads only for entities an
/// anchor names, and what marks an anchor.
pub struct Anchored {
    /// The consumer that declares it (a machine, linker or rule).
    pub consumer: &'static str,
    /// `(kind, audit op)`: records of these ops are of these kinds.
    pub ops: &'static [(&'static str, &'static str)],
    /// What stands right before ` | op=` in an anchor record (of one of `ops`).
    pub anchor_before_op: &'static str,
    /// The op of the anchor records.
    pub anchor_op: &'static str,
}

/// Every anchored declaration. The om-lease machine (and with it its linker and the
/// premature-lease-close rule, which start from its AUTO_COMMITTED steps) reads key audit lines
/// only for keys the OpenKeyCleanupService auto-committed (`user= | ip=`, om.md 0.4).
pub const ANCHORED: &[Anchored] = &[Anchored {
    consumer: crate::machines::lease::NAME,
    ops: &[
        ("om_audit_create", "CREATE_FILE"),
        ("om_audit_create", "ALLOCATE_KEY"),
        ("om_audit_allocate_block", "ALLOCATE_BLOCK"),
        ("om_audit_commit_key", "COMMIT_KEY"),
    ],
    anchor_before_op: "| user= | ip=",
    anchor_op: "COMMIT_KEY",
}];

/// Whether a typed record is kept as an event for `scan`: a consumer reads it (`wanted`), or it ties ids together for the trace's facts (it names a block, or a container and
/// its pipeline): other kinds (snapshots, service summaries no model reads) are counted only.
pub fn keeps(wanted: &Wanted, typed: &Typed) -> bool {
    wanted.wants(&typed.data)
        || wanted.names_any(&typed.entities)
        || typed.entities.iter().any(|e| match e {
            Entity::Block { .. } => true,
            Entity::Container(_) => typed
                .entities
                .iter()
                .any(|p| matches!(p, Entity::Pipeline(_) | Entity::Group(_))),
            _ => false,
        })
}

/// ` | op=`, found once per line (memchr's memmem); the op and what precedes it are then compared
/// in place.
static OP: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b" | op="));

/// Whether a raw line is a record of an anchored kind, and whether it is an anchor.
fn anchored_kind(line: &[u8]) -> Option<bool> {
    let at = OP.find(line)?;
    let rest = &line[at + 6..];
    let op_is = |op: &str| rest.starts_with(op.as_bytes()) && rest.get(op.len()) == Some(&b' ');
    ANCHORED.iter().find_map(|declared| {
        declared.ops.iter().any(|(_, op)| op_is(op)).then(|| {
            op_is(declared.anchor_op) && line[..at].ends_with(declared.anchor_before_op.as_bytes())
        })
    })
}

/// Whether an OM audit message (`user=… | ip=… | op=… {…} | ret=…`) is a record of an anchored
/// kind that the catalogue types whatever its fields (`stats` counts it without building it).
pub fn certainly_typed(message: &str) -> bool {
    static RET: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"} | ret="));
    let bytes = message.as_bytes();
    message.starts_with("user=") && anchored_kind(bytes).is_some() && RET.find(bytes).is_some()
}

/// Pass 1: skips the anchored kinds' records that are not anchors.
pub fn first_pass() -> Skip {
    Skip(Arc::new(|line: &[u8]| anchored_kind(line) == Some(false)))
}

/// Pass 2: reads only the anchored kinds' records (anchors excepted: pass 1 has them) that
/// name one of `keys` (by its last path segment; the caller keeps the events whose key matches).
pub fn second_pass(keys: &BTreeSet<Entity>) -> Skip {
    // `None`: a name that cannot be searched as printed, so every such record is read.
    let names: Option<Vec<Finder<'static>>> = keys
        .iter()
        .filter_map(|key| match key {
            Entity::Key(path) => Some(path.as_str()),
            _ => None,
        })
        .map(file_name)
        .collect::<Option<BTreeSet<&str>>>()
        .map(|names| {
            (names.into_iter())
                .map(|name| Finder::new(name.as_bytes()).into_owned())
                .collect()
        });
    Skip(Arc::new(move |line: &[u8]| {
        anchored_kind(line) != Some(false)
            || names
                .as_ref()
                .is_some_and(|names| !names.iter().any(|n| n.find(line).is_some()))
    }))
}

/// A key's file name (the last segment of its path) as its audit records print it, unless JSON
/// escapes it (a quote, a backslash, a control character) or there is none: then no literal
/// finds its records.
fn file_name(path: &str) -> Option<&str> {
    path.rsplit('/')
        .find(|s| !s.is_empty())
        .filter(|name| !name.bytes().any(|b| matches!(b, b'"' | b'\\') || b < 0x20))
}

/// `replay --entity`'s one pass: the anchored kinds' records (anchors too) are read only when
/// `entity` is a key and they name its file name, since a replay shows that entity's steps only,
/// the om-lease machine (the anchored kinds' consumer) keeps its state per key, and those records
/// name no other entity.
pub fn focused(entity: &Entity) -> Skip {
    let Entity::Key(path) = entity else {
        return Skip(Arc::new(|line: &[u8]| anchored_kind(line).is_some()));
    };
    let Some(name) = file_name(path) else {
        return Skip(Arc::new(|_: &[u8]| false));
    };
    let name = Finder::new(name.as_bytes()).into_owned();
    Skip(Arc::new(move |line: &[u8]| {
        anchored_kind(line).is_some() && name.find(line).is_none()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CREATE: &str = "2026-08-19 00:00:05,131 | INFO  | OMAudit | user=svc | ip=10.20.3.15 | op=CREATE_FILE {\"volume\":\"logs\",\"bucket\":\"raw\",\"key\":\"a/c.log\",\"dataSize\":\"0\",\"Transaction\":\"6402491\"} | ret=SUCCESS |  ";
    const AUTO: &str = "2026-08-19 02:00:05,131 | INFO  | OMAudit | user= | ip= | op=COMMIT_KEY {\"volume\":\"logs\",\"bucket\":\"raw\",\"key\":\"a/c.log\",\"dataSize\":\"9\",\"Transaction\":\"6402499\"} | ret=SUCCESS |  ";
    const RECOVER: &str = "2026-08-19 02:00:05,131 | INFO  | OMAudit | user=svc | ip=10.20.3.15 | op=RECOVER_LEASE {\"volume\":\"logs\",\"bucket\":\"raw\",\"key\":\"a/c.log\",\"Transaction\":\"6402500\"} | ret=SUCCESS |  ";

    #[test]
    fn the_first_pass_skips_key_lines_but_anchors_and_other_ops() {
        let skip = first_pass();
        assert!((skip.0)(CREATE.as_bytes()));
        assert!(!(skip.0)(AUTO.as_bytes()));
        assert!(!(skip.0)(RECOVER.as_bytes()));
        assert!(!(skip.0)(
            b"2026-08-19 00:00:05,131 [main] INFO a.B: something else"
        ));
    }

    #[test]
    fn the_second_pass_reads_only_anchored_keys_lines() {
        let keys = BTreeSet::from([Entity::Key("/logs/raw/a/c.log".into())]);
        let skip = second_pass(&keys);
        assert!(!(skip.0)(CREATE.as_bytes()));
        assert!(
            (skip.0)(AUTO.as_bytes()),
            "anchors were read by the first pass"
        );
        assert!(
            (skip.0)(RECOVER.as_bytes()),
            "other ops were read by the first pass"
        );
        assert!((skip.0)(CREATE.replace("c.log", "d.log").as_bytes()));
    }

    /// A file name JSON escapes is not printed as it is: every key line is read for it.
    #[test]
    fn a_key_whose_name_is_escaped_in_print_has_every_key_line_read() {
        let quoted = CREATE.replace("c.log", "c\\\"q.log");
        let keys = BTreeSet::from([Entity::Key("/logs/raw/a/c\"q.log".into())]);
        assert!(!(second_pass(&keys).0)(quoted.as_bytes()));
        assert!(!(second_pass(&keys).0)(CREATE.as_bytes()));
        assert!(!(focused(&keys.first().unwrap().clone()).0)(
            CREATE.as_bytes()
        ));
    }

    #[test]
    fn a_replay_reads_its_own_keys_lines_and_no_other_key_line() {
        let own = focused(&Entity::Key("/logs/raw/a/c.log".into()));
        for line in [CREATE, AUTO, RECOVER] {
            assert!(!(own.0)(line.as_bytes()), "{line}");
        }
        assert!((own.0)(CREATE.replace("c.log", "d.log").as_bytes()));
        assert!((own.0)(AUTO.replace("c.log", "d.log").as_bytes()));
        assert!(
            !(own.0)(RECOVER.replace("c.log", "d.log").as_bytes()),
            "not an anchored kind"
        );
        let container = focused(&Entity::Container(1));
        assert!((container.0)(CREATE.as_bytes()) && (container.0)(AUTO.as_bytes()));
        assert!(!(container.0)(RECOVER.as_bytes()));
        assert!(!(container.0)(
            b"2026-08-19 00:00:05,131 [main] INFO a.B: container #1 closed"
        ));
    }
}
