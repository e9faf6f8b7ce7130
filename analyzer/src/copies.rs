//! OM audit copies folded in a bounded window.
//!
//! Every OM writes the audit line of every request it applies (om.md 1.3): the contract folds the
//! copies into one event whose `copies` lists them all. Copies of one line are written when each
//! OM applies the same Ratis transaction, within seconds of each other, so the events of the OM
//! audit logs are folded as they come in one time order (`load::read_audit_merged`): an
//! event is held until [`AuditCopies::window_ms`] of log time has passed after it, its later
//! copies join it meanwhile, and it is handed on in arrival order. Memory is that window's
//! events, whatever the size of the logs.
//!
//! What makes two records copies (docs/cli-contract.md): the same `Transaction`, op, key (or
//! params) and ret (2.0.0 and later); without a `Transaction` (1.4), the same op, params and ret
//! as printed, from different OMs, within `--skew` of the first.

use oztrace_parser::audit::{AuditParts, PartsAt, parse_audit_parts};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::om::{AuditIdentity, AuditNames};
#[cfg(test)]
use oztrace_parser::event::Copy;
use oztrace_parser::event::Event;
use oztrace_parser::source::Component;
use rustc_hash::FxHasher;
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, PoisonError};

/// How long after its first copy a request's other copies may still be written: followers apply
/// a committed transaction within seconds; the clock skew between OMs comes on top.
pub const COPY_LAG_MS: i64 = 10_000;

/// What makes records copies of one request: the `Transaction` (or, printed, the message's
/// length) and a digest of the fields that must be equal, and whether they were compared as
/// printed (no `Transaction`). Two requests would have to share a transaction and a 64-bit digest
/// to be taken for copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CopyKey {
    transaction: u64,
    digest: u64,
    printed: bool,
}

/// The key by which `event`'s copies are found (`None`: it has none), computed where the event
/// is built, so that the merge only compares keys.
pub fn copy_key(event: &Event) -> Option<CopyKey> {
    if event.component != Component::OmAudit {
        return None;
    }
    let EventData::Om(om) = &event.data else {
        return None;
    };
    Some(key_of(&AuditIdentity::of_event(om)?, &event.text))
}

/// The [`copy_key`] of the event an OM audit record (`text` its message, `parts` its parts) is
/// typed as, before it is built: copies are told without building their events.
pub fn parts_copy_key(parts: &AuditParts<'_>, text: &str) -> CopyKey {
    key_of(&AuditIdentity::of_parts(parts), text)
}

/// What splitting an OM audit message gives the merge: its copy key, and where its parts are
/// ([`AuditParts::at`]); `None` for a message that is not an audit message.
pub type Split = Option<(CopyKey, Option<PartsAt>)>;

/// The [`Split`] of a message, split now.
pub fn split(message: &str) -> Split {
    let parts = parse_audit_parts(message).ok()?;
    Some((parts_copy_key(&parts, message), parts.at(message)))
}

/// How many messages [`AuditSplits`] remembers (192 bytes each). On the 1 GB bench bundle
/// (3.5 M OM audit records, 1.34 M of them distinct), 32 Ki slots split 1.43 M messages, 8 Ki
/// slots 1.70 M.
const SPLIT_SLOTS: usize = 1 << 15;

/// The splits of the OM audit messages met lately, shared by the readers of one merge: every OM
/// writes the audit line of every request, so each message comes once per OM, its copies
/// within seconds of log time, and the merge holds the readers that close to each other (a few
/// batches of records apart). The first reader to meet a message splits it; the others find
/// its split here by the message's 128-bit XXH3 digest. A split depends on the text alone, so
/// what is found is what splitting would give; a message forgotten (its slot taken by another)
/// is split again.
pub struct AuditSplits {
    slots: Box<[SplitSlot]>,
}

/// The digest and split of the last message whose digest chose the slot, under the slot's own
/// lock; digest 0 marks an empty slot (a message whose digest is 0 is split every time). The
/// lock and the digest share the slot's first cache line: a look-up that misses the cache
/// (the slot was last written by another core's reader) misses once.
#[repr(align(64))]
struct SplitSlot(Mutex<Remembered>);

#[derive(Clone, Copy)]
struct Remembered {
    digest: u128,
    split: Split,
}

impl std::fmt::Debug for AuditSplits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AuditSplits({SPLIT_SLOTS} slots)")
    }
}

impl Default for AuditSplits {
    fn default() -> AuditSplits {
        let empty = || {
            SplitSlot(Mutex::new(Remembered {
                digest: 0,
                split: None,
            }))
        };
        AuditSplits {
            slots: (0..SPLIT_SLOTS).map(|_| empty()).collect(),
        }
    }
}

impl AuditSplits {
    /// Starts the look-up of `message`'s split: its digest, and its slot fetched into the cache
    /// while the reader does other work. The slot was most likely last written by another core
    /// (another OM's reader), and waiting for it took most of a look-up's time.
    pub fn look_ahead<'a>(&'a self, message: &'a str) -> LookAhead<'a> {
        let digest = xxhash_rust::xxh3::xxh3_128(message.as_bytes());
        let slot = digest as usize % SPLIT_SLOTS;
        crate::cache::prefetch(&self.slots[slot]);
        LookAhead {
            splits: self,
            message,
            digest,
            slot,
        }
    }
}

/// A message whose split [`LookAhead::split`] will give, its slot on its way into the cache.
pub struct LookAhead<'a> {
    splits: &'a AuditSplits,
    message: &'a str,
    digest: u128,
    slot: usize,
}

impl LookAhead<'_> {
    /// The split of the message looked ahead for: remembered, or split now and remembered.
    pub fn split(self) -> Split {
        let LookAhead {
            splits,
            message,
            digest,
            slot,
        } = self;
        let slot = &splits.slots[slot].0;
        // Nothing panics while a slot is held: a poisoned lock holds a whole slot.
        let lock = || slot.lock().unwrap_or_else(PoisonError::into_inner);
        {
            let remembered = lock();
            if remembered.digest == digest && digest != 0 {
                return remembered.split;
            }
        }
        // Split outside the lock: other readers go on meanwhile.
        let split = split(message);
        *lock() = Remembered { digest, split };
        split
    }
}

fn key_of(identity: &AuditIdentity<'_>, text: &str) -> CopyKey {
    let Some(transaction) = identity.transaction else {
        // The message holds user, ip, op, params and ret exactly as printed.
        return CopyKey {
            transaction: text.len() as u64,
            digest: digest(|h| text.hash(h)),
            printed: true,
        };
    };
    let digest = digest(|h| {
        (identity.op, identity.ret).hash(h);
        match identity.names {
            AuditNames::Params(params) => {
                for (k, v) in params.iter() {
                    (k, v).hash(h);
                }
            }
            AuditNames::Key {
                volume,
                bucket,
                key,
            } => (volume, bucket, key).hash(h),
        }
    });
    CopyKey {
        transaction,
        digest,
        printed: false,
    }
}

/// A fast 64-bit digest of what `feed` writes.
fn digest(feed: impl Fn(&mut FxHasher)) -> u64 {
    let mut hasher = FxHasher::default();
    feed(&mut hasher);
    hasher.finish()
}

/// What the fold holds: an event, or what stands for one (the OM audit merge holds records
/// whose events are built only if they are not folded away). The fold reads where each was
/// written and lists the copies in the first.
pub trait Folded {
    /// Where one copy was written.
    type Copy;
    fn ts(&self) -> Option<i64>;
    /// Where it was written.
    fn copy(&self) -> Self::Copy;
    /// Whether two copies were written by one host.
    fn same_host(a: &Self::Copy, b: &Self::Copy) -> bool;
    fn copies(&self) -> &[Self::Copy];
    fn add_copy(&mut self, copy: Self::Copy);
    /// Puts its copies in their order (by host, file and line, each once), once they are all in.
    fn settle(&mut self);
}

/// Built events, as the tests fold them.
#[cfg(test)]
impl Folded for Event {
    type Copy = Copy;
    fn ts(&self) -> Option<i64> {
        self.ts
    }
    fn copy(&self) -> Copy {
        Copy {
            host: self.host.clone(),
            file: self.file.clone(),
            line: self.line,
        }
    }
    fn same_host(a: &Copy, b: &Copy) -> bool {
        a.host == b.host
    }
    fn copies(&self) -> &[Copy] {
        &self.copies
    }
    /// An event's copies are boxed at their exact size (few events have any): each added one
    /// makes a new box.
    fn add_copy(&mut self, copy: Copy) {
        let mut copies = std::mem::take(&mut self.copies).into_vec();
        copies.push(copy);
        self.copies = copies.into();
    }
    fn settle(&mut self) {
        let mut copies = std::mem::take(&mut self.copies).into_vec();
        copies.sort();
        copies.dedup();
        self.copies = copies.into();
    }
}

struct Held<E> {
    event: E,
    /// The time it is ordered by (the latest time of its file so far).
    placed: i64,
    key: Option<CopyKey>,
}

/// Folds OM audit copies of events that arrive in time order (see the module docs).
pub struct AuditCopies<E> {
    window_ms: i64,
    skew_ms: i64,
    held: VecDeque<Held<E>>,
    /// Arrival number of `held[0]`.
    first: u64,
    /// The latest held record of each key, by arrival number.
    open: rustc_hash::FxHashMap<CopyKey, u64>,
}

impl<E: Folded> AuditCopies<E> {
    /// Copies are looked for within `skew_ms` + [`COPY_LAG_MS`] of log time.
    pub fn new(skew_ms: i64) -> AuditCopies<E> {
        AuditCopies {
            window_ms: skew_ms.max(0) + COPY_LAG_MS,
            skew_ms,
            held: VecDeque::new(),
            first: 0,
            open: Default::default(),
        }
    }

    /// How long an event is held for its copies, in milliseconds of log time.
    pub fn window_ms(&self) -> i64 {
        self.window_ms
    }

    /// Takes the next event (in time order, `placed` its place in it; `key` its
    /// [`copy_key`]) and hands `out` the held events whose copies can no longer come, in arrival
    /// order, with their places. A copy of a held event is folded into it and given back.
    pub fn push(
        &mut self,
        event: E,
        key: Option<CopyKey>,
        placed: i64,
        out: &mut dyn FnMut(E, i64),
    ) -> Option<E> {
        while self
            .held
            .front()
            .is_some_and(|h| h.placed.saturating_add(self.window_ms) < placed)
        {
            self.emit_first(out);
        }
        if let Some(key) = key
            && let Some(&arrival) = self.open.get(&key)
            && let Some(first) = arrival
                .checked_sub(self.first)
                .and_then(|at| self.held.get_mut(at as usize))
            && joins(&first.event, &event, key, self.skew_ms)
        {
            if first.event.copies().is_empty() {
                let copy = first.event.copy();
                first.event.add_copy(copy);
            }
            first.event.add_copy(event.copy());
            return Some(event);
        }
        if let Some(key) = key {
            self.open.insert(key, self.first + self.held.len() as u64);
        }
        self.held.push_back(Held { event, placed, key });
        None
    }

    /// Hands out every held event.
    pub fn finish(mut self, out: &mut dyn FnMut(E, i64)) {
        while !self.held.is_empty() {
            self.emit_first(out);
        }
    }

    fn emit_first(&mut self, out: &mut dyn FnMut(E, i64)) {
        let Some(mut held) = self.held.pop_front() else {
            return;
        };
        if let Some(key) = held.key
            && self.open.get(&key) == Some(&self.first)
        {
            self.open.remove(&key);
        }
        self.first += 1;
        held.event.settle();
        out(held.event, held.placed);
    }
}

/// The events of `streams` (each in file order) in the fold's one time order: by the latest time
/// of their stream so far, then by stream. Each as (stream, place in it, the time it is placed at).
#[cfg(test)]
fn fold_order(streams: &[Vec<Event>]) -> Vec<(usize, usize, i64)> {
    use std::cmp::Reverse;
    // A stream's head is placed by its own time and the stream's latest: a key stays valid
    // until that stream moves on.
    let key = |event: &Event, latest: i64| event.ts.map_or(latest, |ts| ts.max(latest));
    let mut latest = vec![i64::MIN; streams.len()];
    let mut heads: std::collections::BinaryHeap<Reverse<(i64, usize, usize)>> = (streams.iter())
        .enumerate()
        .filter_map(|(n, events)| Some(Reverse((key(events.first()?, i64::MIN), n, 0))))
        .collect();
    let mut order = Vec::with_capacity(streams.iter().map(Vec::len).sum());
    while let Some(Reverse((placed, n, at))) = heads.pop() {
        latest[n] = placed;
        order.push((n, at, placed));
        if let Some(next) = streams[n].get(at + 1) {
            heads.push(Reverse((key(next, placed), n, at + 1)));
        }
    }
    order
}

/// The events of `streams`, their copies folded, in the fold's time order: the fold of built
/// events that the merge's fold of records held unbuilt (`load::fold_audit`) is tested against.
#[cfg(test)]
pub fn fold_streams(streams: Vec<Vec<Event>>, skew_ms: i64) -> Vec<Event> {
    let order = fold_order(&streams);
    let mut slots: Vec<Vec<Option<Event>>> = streams
        .into_iter()
        .map(|events| events.into_iter().map(Some).collect())
        .collect();
    let mut copies = AuditCopies::new(skew_ms);
    let mut out = Vec::new();
    for (stream, index, placed) in order {
        if let Some(event) = slots[stream][index].take() {
            let key = copy_key(&event);
            copies.push(event, key, placed, &mut |e, _| out.push(e));
        }
    }
    copies.finish(&mut |e, _| out.push(e));
    out
}

/// Whether `event` is a copy of the held `first`: always with a `Transaction`; as printed, only
/// from another OM within the skew of the first.
fn joins<E: Folded>(first: &E, event: &E, key: CopyKey, skew_ms: i64) -> bool {
    if !key.printed {
        return true;
    }
    let close = matches!((first.ts(), event.ts()), (Some(a), Some(b)) if (b - a).abs() <= skew_ms);
    if !close {
        return false;
    }
    let copy = event.copy();
    !E::same_host(&first.copy(), &copy) && first.copies().iter().all(|c| !E::same_host(c, &copy))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    const TX: &str = "2026-08-19 00:00:05,131 | INFO  | OMAudit | user=svc | ip=10.20.3.15 | op=COMMIT_KEY {\"volume\":\"logs\",\"bucket\":\"raw\",\"key\":\"a/c.log\",\"dataSize\":\"9\",\"Transaction\":\"6402499\"} | ret=SUCCESS |  ";
    const NO_TX: &str = "2024-01-01 00:00:00,000 | INFO  | OMAudit | user=u | ip=1.2.3.4 | op=COMMIT_KEY {volume=v, bucket=b, key=k, dataSize=1} | ret=SUCCESS |  ";

    fn audit(host: &str, line: u64, ts: i64, text: &str) -> Event {
        Event {
            ts: Some(ts),
            file: format!("{host}/om-audit-{host}.log").into(),
            line,
            ..oztrace_testkit::events(host, Component::OmAudit, text).remove(0)
        }
    }

    fn fold(events: Vec<Event>) -> Vec<Event> {
        let mut copies = AuditCopies::new(2_000);
        let mut out = Vec::new();
        for event in events {
            let placed = event.ts.unwrap_or(i64::MIN);
            let key = copy_key(&event);
            copies.push(event, key, placed, &mut |e, _| out.push(e));
        }
        copies.finish(&mut |e, _| out.push(e));
        out
    }

    fn hosts(event: &Event) -> Vec<&str> {
        event.copies.iter().map(|c| &*c.host).collect()
    }

    #[test]
    fn the_key_read_from_a_messages_parts_is_the_key_of_its_event() {
        let lines = [
            TX,
            NO_TX,
            // Another op: its params, not its key.
            "2026-08-19 00:00:05,131 | INFO  | OMAudit | user=svc | ip=10.20.3.15 | op=DELETE_KEY {\"volume\":\"logs\",\"bucket\":\"raw\",\"key\":\"a/c.log\",\"Transaction\":\"7\"} | ret=SUCCESS |  ",
            // A key op that names no key.
            "2026-08-19 00:00:05,131 | INFO  | OMAudit | user=svc | ip=10.20.3.15 | op=ALLOCATE_BLOCK {\"volume\":\"logs\",\"bucket\":\"raw\",\"Transaction\":\"9\"} | ret=FAILURE |  ",
            // Escapes: read by serde_json, not as printed.
            "2026-08-19 00:00:05,131 | INFO  | OMAudit | user=svc | ip=10.20.3.15 | op=COMMIT_KEY {\"volume\":\"logs\",\"bucket\":\"raw\",\"key\":\"a\\\"q\",\"Transaction\":\"8\"} | ret=SUCCESS |  ",
            "2024-01-01 00:00:00,000 | INFO  | OMAudit | user=u | ip=1.2.3.4 | op=RENAME_KEY {volume=v, bucket=b, key=k, toKeyName=k2} | ret=SUCCESS |  ",
        ];
        for line in lines {
            let event = audit("om1", 1, 0, line);
            let parts = oztrace_parser::audit::parse_audit_parts(&event.text).expect(line);
            assert_eq!(
                Some(parts_copy_key(&parts, &event.text)),
                copy_key(&event),
                "{line}"
            );
        }
    }

    #[test]
    fn copies_fold_by_transaction_and_by_skew_without_one() {
        let out = fold(vec![
            audit("om3", 9, 953, TX),
            audit("om1", 5, 1_000, TX),
            audit("om2", 3, 1_083, TX),
            audit("om1", 6, 10_000, NO_TX),
            audit("om2", 4, 10_500, NO_TX),
            audit("om3", 10, 15_000, NO_TX),
            audit("om1", 7, 20_000, NO_TX),
        ]);
        let summary: Vec<(&str, u64, Vec<&str>)> =
            out.iter().map(|e| (&*e.host, e.line, hosts(e))).collect();
        assert_eq!(
            summary,
            vec![
                // The transaction's first copy is om3's; om1 and om2 join it.
                ("om3", 9, vec!["om1", "om2", "om3"]),
                // Without Transaction: om1@10s and om2@10.5s fold; om3@15s and om1@20s stay apart.
                ("om1", 6, vec!["om1", "om2"]),
                ("om3", 10, vec![]),
                ("om1", 7, vec![]),
            ]
        );
    }

    #[test]
    fn a_copy_past_the_window_is_its_own_event_and_order_is_kept() {
        let late = COPY_LAG_MS + 2_000 + 1;
        let out = fold(vec![
            audit("om1", 1, 0, TX),
            audit("om1", 2, 5, NO_TX),
            audit("om2", 1, late, TX),
        ]);
        let lines: Vec<(&str, u64, usize)> = out
            .iter()
            .map(|e| (&*e.host, e.line, e.copies.len()))
            .collect();
        assert_eq!(lines, vec![("om1", 1, 0), ("om1", 2, 0), ("om2", 1, 0)]);
    }

    /// Messages of every kind the readers meet: with a `Transaction`, printed (1.4), with a
    /// perf map (no parts kept), and not an audit message at all.
    fn messages(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| match i % 4 {
                0 => format!(
                    "user=svc | ip=10.20.3.{} | op=COMMIT_KEY {{\"volume\":\"logs\",\"bucket\":\"raw\",\"key\":\"a/{i}.log\",\"dataSize\":\"{i}\",\"Transaction\":\"{i}\"}} | ret=SUCCESS",
                    i % 250
                ),
                1 => format!("user=u | ip=1.2.3.4 | op=CREATE_KEY {{volume=v, bucket=b, key=k{i}, dataSize=1}} | ret=SUCCESS"),
                2 => format!("user=u | ip=1.2.3.4 | op=COMMIT_KEY {{volume=v, bucket=b, key=k{i}}} | ret=SUCCESS | perf={{\"opLatencyMs\":\"{i}\"}}"),
                _ => format!("Starting OM {i}"),
            })
            .collect()
    }

    #[test]
    fn a_remembered_split_is_the_split_of_the_message_also_once_forgotten() {
        let splits = AuditSplits::default();
        // Twice the slots: later messages take the slots of earlier ones, met again after.
        let messages = messages(2 * SPLIT_SLOTS);
        for _ in 0..2 {
            for message in &messages {
                assert_eq!(
                    format!("{:?}", splits.look_ahead(message).split()),
                    format!("{:?}", split(message)),
                    "{message}"
                );
            }
        }
        let kinds = |m: &String| {
            (
                split(m).is_some(),
                split(m).is_some_and(|(_, at)| at.is_some()),
            )
        };
        let seen: BTreeSet<(bool, bool)> = messages.iter().map(kinds).collect();
        assert_eq!(
            seen.len(),
            3,
            "audit messages with and without parts kept, and others"
        );
    }

    #[test]
    fn readers_sharing_splits_each_get_the_split_of_their_message() {
        let splits = AuditSplits::default();
        let messages = messages(4096);
        std::thread::scope(|scope| {
            for reader in 0..3 {
                let (splits, messages) = (&splits, &messages);
                scope.spawn(move || {
                    // Each reader a little ahead of or behind the others, as the OMs' logs are.
                    for message in messages.iter().skip(reader * 7) {
                        assert_eq!(
                            format!("{:?}", splits.look_ahead(message).split()),
                            format!("{:?}", split(message))
                        );
                    }
                });
            }
        });
    }
}
