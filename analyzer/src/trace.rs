//! One time order across hosts: a merge of per-stream event buffers.
//!
//! Each stream (file or archive member) is parsed in one pass into a buffer of typed events.
//! Lines inside a stream can be slightly out of order (async appenders, several threads), so the
//! merge orders every event by time, keeping untimed events next to the event before them, then
//! by (host, file, line). It sorts the events' places (a radix sort of one column of times, the
//! few equal times then by host, file and line) and leaves the events in their streams' buffers,
//! each reached through its slot: events are large, and moving them (even once) costs more than
//! the merge's other work together (the merge is not streamed, since rules need the whole
//! trace). Hosts' clocks differ: rules compare events of different hosts with
//! [`Trace::before`], which allows `skew`.

use crate::facts::Facts;
use crate::kinds::{self, KindIndex, KindSet};
use crate::machines::container::life_cycle_state;
use crate::machines::endpoint::{self, Heartbeat, SCM_SIDE_KINDS, ScmSide, ScmSideOf, ScmSignal};
use crate::names::Names;
use crate::replicas::{ContainerReplicas, ReplicaState};
use either::Either;
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::datanode::DatanodeEvent;
use oztrace_parser::catalog::scm_container::{ReplicaAction, ScmContainerEvent};
use oztrace_parser::entity::{Entity, find_datanode_details, is_uuid};
use oztrace_parser::event::Event;
use oztrace_parser::source::{Component, Level, short_host};
use rustc_hash::FxHashMap as HashMap;
use std::sync::{Arc, OnceLock};

/// Index of an event in [`Trace::events`].
pub type EventId = usize;

/// An entity interned by the trace: a small integer standing for one [`Entity`], so that
/// indexes and machines key their maps by it instead of hashing and cloning its strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntityId(u32);

impl EntityId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A host interned by the trace (see [`EntityId`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HostId(u32);

impl HostId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// All typed events in one time order, with indexes by host and entity.
#[derive(Debug, Default)]
pub struct Trace {
    /// The events as their streams' buffers held them.
    streams: Vec<Vec<Event>>,
    /// Where each event is in `streams`, in trace order.
    slots: Vec<Slot>,
    /// Clock skew tolerated between hosts, in milliseconds (`--skew`).
    pub skew_ms: i64,
    /// Every host, once, by [`HostId`], with its short name ([`short_host`]).
    hosts: Vec<(Arc<str>, Arc<str>)>,
    host_ids: HashMap<Arc<str>, HostId>,
    /// The host of each event.
    event_host: Vec<HostId>,
    /// Events written by each host, by [`HostId`].
    by_host: Lists,
    /// Every entity the events name, once, by [`EntityId`].
    entities: Vec<Arc<Entity>>,
    entity_ids: HashMap<Arc<Entity>, EntityId>,
    /// The entities of event `i` are `event_entities[entity_start[i]..entity_start[i + 1]]`.
    event_entities: Vec<EntityId>,
    entity_start: Vec<u32>,
    /// Events naming each entity, by [`EntityId`].
    by_entity: Lists,
    /// The kind and time of each event, compact, for scans that skip most events. An untimed
    /// event carries the time of the event before it (so that `times` stays sorted in a trace
    /// in time order) and its bit in `untimed`.
    kinds: Vec<KindIndex>,
    components: Vec<Component>,
    times: Vec<i64>,
    untimed: Bits,
    /// Whether `times` is sorted ([`Trace::merge`] always is), so that [`Trace::between`] can
    /// search it.
    time_ordered: bool,
    /// Events of each kind, by [`KindIndex`].
    by_kind: Lists,
    /// Every `dn_container_state` line and its fields, in trace order: the most frequent kind,
    /// which several linkers, machines and rules read.
    container_state_ids: Vec<u32>,
    container_states: Vec<ContainerStateLine>,
    /// Every Ratis line whose member id names a datanode UUID, in trace order, and that UUID
    /// in lower case (`ratis_peers[at]`, as with `container_states`): every Ratis line teaches
    /// its host's datanode, and most (snapshots) teach nothing else.
    ratis_peer_ids: Vec<u32>,
    ratis_peer_at: Vec<u32>,
    ratis_peers: Vec<Arc<str>>,
    /// Every SCM container line that names a container, in trace order, and the datanode hosts
    /// its replica lines print (`scm_lines[at].datanode_host` is a place in `replica_hosts`):
    /// three consumers read every one, and most are the report handlers' CLOSE lines.
    scm_line_ids: Vec<u32>,
    scm_lines: Vec<ScmContainerLine>,
    replica_hosts: Vec<Arc<str>>,
    /// The cluster's facts, read from the whole trace at the first question.
    facts: OnceLock<Facts>,
    /// Every container's replicas, read from the whole trace at the first question.
    replicas: OnceLock<ContainerReplicas>,
    /// What the SCM-side events say, read by the readers' threads ([`StreamEntities`]) and
    /// ordered by the merge.
    scm_side: ScmSide,
    /// The SCM events whose message prints a datanode as `uuid(host/ip)`, in trace order.
    datanode_printers: Vec<EventId>,
}

impl Trace {
    /// Merges per-stream buffers into one order: by time (untimed events keep the time of the
    /// event before them in their stream, so they stay where their file put them), then host,
    /// file and line. Only places are sorted: the events stay where their streams put them,
    /// never moved nor held twice. Each event's host, kind and entities are interned while its
    /// stream is read in the order it was written, where its strings lie near each other in
    /// memory (in time order, every stream's events interleave and each entity's string is a
    /// cache miss).
    pub fn merge(streams: Vec<Vec<Event>>, skew_ms: i64) -> Trace {
        let streams = streams.into_iter().map(|events| (events, None)).collect();
        Trace::merge_interned(streams, skew_ms)
    }

    /// [`Trace::merge`] of streams whose entities and headers the threads that read them
    /// gathered ([`StreamEntities`]): the merge maps each stream's distinct entities to the
    /// trace's ids (read from the readers' [`SharedEntities`], else hashed here) and orders the
    /// streams' compact header columns, never opening an event. A stream without a table, or
    /// with a table of other events, is interned here.
    pub fn merge_interned(
        streams: Vec<(Vec<Event>, Option<StreamEntities>)>,
        skew_ms: i64,
    ) -> Trace {
        TraceBuilder::default().merge(Vec::new(), streams, skew_ms)
    }

    /// A trace of events already in time order (tests, replays of a recorded trace).
    pub fn from_ordered(events: Vec<Event>, skew_ms: i64) -> Trace {
        let mut entities = StreamEntities::of(&events);
        let mut columns = Columns::new();
        columns.reserve(std::iter::once(&entities));
        columns.read_stream(&mut entities);
        let mut trace = columns.index(skew_ms);
        trace.streams = vec![events];
        trace
    }

    pub fn get(&self, id: EventId) -> &Event {
        let slot = self.slots[id];
        &self.streams[slot.stream as usize][slot.index as usize]
    }

    /// How many events the trace holds.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Every event, in trace order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Event> {
        self.slots
            .iter()
            .map(|slot| &self.streams[slot.stream as usize][slot.index as usize])
    }

    /// Events naming `entity`, in time order.
    pub fn of_entity(&self, entity: &Entity) -> &[EventId] {
        self.entity_id(entity)
            .map_or(&[], |id| self.of_entity_id(id))
    }

    /// Events naming the interned entity `id`, in time order.
    pub fn of_entity_id(&self, id: EntityId) -> &[EventId] {
        self.by_entity.get(id.index())
    }

    /// The interned id of `entity`, if an event names it.
    pub fn entity_id(&self, entity: &Entity) -> Option<EntityId> {
        self.entity_ids.get(entity).copied()
    }

    /// The entity an id stands for (shared: cloning it is cheap).
    pub fn entity(&self, id: EntityId) -> &Arc<Entity> {
        &self.entities[id.index()]
    }

    /// The trace's shared copy of `entity`, looked up among what event `id` names first (a
    /// machine's entity is nearly always one its event names), else among every entity; a new
    /// copy when no event names it.
    pub fn shared(&self, id: EventId, entity: &Entity) -> Arc<Entity> {
        self.entity_ids_of(id)
            .iter()
            .map(|&e| &self.entities[e.index()])
            .find(|e| ***e == *entity)
            .or_else(|| self.entity_id(entity).map(|e| self.entity(e)))
            .cloned()
            .unwrap_or_else(|| Arc::new(entity.clone()))
    }

    /// The interned entities event `id` names, each once, in the order printed.
    pub fn entity_ids_of(&self, id: EventId) -> &[EntityId] {
        let (start, end) = (self.entity_start[id], self.entity_start[id + 1]);
        &self.event_entities[start as usize..end as usize]
    }

    /// Events written by `host`, in time order.
    pub fn of_host(&self, host: &str) -> &[EventId] {
        self.host_ids
            .get(host)
            .map_or(&[], |&h| self.by_host.get(h.index()))
    }

    /// Every host, once each, in order of first appearance.
    pub fn hosts(&self) -> impl Iterator<Item = &Arc<str>> {
        self.hosts.iter().map(|(name, _)| name)
    }

    /// The facts that tie the cluster's ids together ([`Facts`]), read once.
    pub fn facts(&self) -> &Facts {
        self.facts.get_or_init(|| Facts::build(self))
    }

    /// Every container's replicas and what SCM said of them ([`ContainerReplicas`]), read once.
    pub fn replicas(&self) -> &ContainerReplicas {
        self.replicas.get_or_init(|| ContainerReplicas::build(self))
    }

    /// What every SCM-side event says of a datanode's endpoint ([`ScmSignal`]), in trace order,
    /// read once: most SCM records are heartbeat audits, and the endpoint machine and
    /// `dropped-actions` both read every one.
    pub fn scm_signals(&self) -> &[(EventId, ScmSignal)] {
        &self.scm_side.signals
    }

    /// The SCM-side events whose signal is [`ScmSignal::Registered`], with it, in trace order.
    pub fn scm_registrations(&self) -> impl ExactSizeIterator<Item = &(EventId, ScmSignal)> {
        let signals = &self.scm_side.signals;
        (self.scm_side.registrations.iter()).map(|&at| &signals[at])
    }

    /// The `term` of event `id` if it is a `SEND_HEARTBEAT` audit (`Some(None)`: answered as
    /// follower), read once with [`Trace::scm_signals`]: no audit record is opened again.
    /// `cursor` walks on from the previous question's answer.
    pub fn heartbeat_term(&self, id: EventId, cursor: &mut IdCursor) -> Option<Option<u64>> {
        cursor.find(&self.scm_side.heartbeats, id).copied()
    }

    /// The `SEND_HEARTBEAT` audits that return no command setting an operational state, are no
    /// admin action and print no datanode (`uuid(host/ip)`), in trace order: read without
    /// opening them.
    pub fn quiet_heartbeats(&self) -> &[EventId] {
        &self.scm_side.quiet
    }

    /// The SCM events whose message prints a datanode as `uuid(host/ip)`
    /// ([`find_datanode_details`]), in trace order, found by the readers: the others' text need
    /// not be read for one.
    pub fn datanode_printers(&self) -> &[EventId] {
        &self.datanode_printers
    }

    /// Every `dn_container_state` line, in trace order, with its fields ([`ContainerStateLine`]):
    /// read without opening an event.
    pub fn container_state_lines(
        &self,
    ) -> impl ExactSizeIterator<Item = (EventId, &ContainerStateLine)> {
        self.container_state_ids
            .iter()
            .map(|&id| id as EventId)
            .zip(&self.container_states)
    }

    /// The fields of event `id` if it is a `dn_container_state` line.
    pub fn container_state_line(&self, id: EventId) -> Option<&ContainerStateLine> {
        let at = self
            .container_state_ids
            .binary_search(&u32::try_from(id).ok()?)
            .ok()?;
        Some(&self.container_states[at])
    }

    /// Every SCM container line that names a container, in trace order, with what it says
    /// ([`ScmContainerLine`]): read without opening an event. A line of the family that names no
    /// container (`rm_pass`, the block deletion lines) is not here.
    pub fn scm_container_lines(
        &self,
    ) -> impl ExactSizeIterator<Item = (EventId, &ScmContainerLine)> {
        self.scm_line_ids
            .iter()
            .map(|&id| id as EventId)
            .zip(&self.scm_lines)
    }

    /// The fields of SCM container line `id`, if it names a container, for a reader that asks in
    /// trace order: `cursor` walks on from its last answer.
    pub fn scm_container_line_from(
        &self,
        id: EventId,
        cursor: &mut IdCursor,
    ) -> Option<&ScmContainerLine> {
        let at = cursor.seek(&self.scm_line_ids, |&at| at as EventId, id)?;
        Some(&self.scm_lines[at])
    }

    /// The datanode host a replica line prints, as printed ([`ScmContainerLine::datanode_host`]).
    pub fn replica_host(&self, place: u32) -> &Arc<str> {
        &self.replica_hosts[place as usize]
    }

    /// How many places [`Trace::replica_host`] has: each spelling of a host, once per stream
    /// that prints it.
    pub fn replica_host_places(&self) -> usize {
        self.replica_hosts.len()
    }

    /// Every Ratis line whose member id's peer is a datanode UUID, with that UUID in lower case,
    /// in trace order (read without opening an event).
    pub fn ratis_peers(&self) -> impl ExactSizeIterator<Item = (EventId, &Arc<str>)> {
        self.ratis_peer_ids
            .iter()
            .zip(&self.ratis_peer_at)
            .map(|(&id, &at)| (id as EventId, &self.ratis_peers[at as usize]))
    }

    /// The datanode UUID (lower case) of Ratis line `id`'s member id, if it names one.
    pub fn ratis_peer(&self, id: EventId) -> Option<&Arc<str>> {
        let at = self
            .ratis_peer_ids
            .binary_search(&u32::try_from(id).ok()?)
            .ok()?;
        Some(&self.ratis_peers[self.ratis_peer_at[at] as usize])
    }

    /// [`Trace::ratis_peer`] for a reader that asks in trace order: `cursor` walks on from its
    /// last answer.
    pub fn ratis_peer_from(&self, id: EventId, cursor: &mut IdCursor) -> Option<&Arc<str>> {
        let at = cursor.seek(&self.ratis_peer_ids, |&at| at as EventId, id)?;
        Some(&self.ratis_peers[self.ratis_peer_at[at] as usize])
    }

    /// The kind of event `id`.
    pub fn kind_of(&self, id: EventId) -> KindIndex {
        self.kinds[id]
    }

    /// The component that wrote event `id` (from a compact column: no event is touched).
    pub fn component_of(&self, id: EventId) -> Component {
        self.components[id]
    }

    /// The time of event `id` (from a compact column: no event is touched).
    pub fn ts_of(&self, id: EventId) -> Option<i64> {
        (!self.untimed.get(id)).then(|| self.times[id])
    }

    /// Whether every timed event is at or after the timed events before it ([`Trace::merge`]'s
    /// traces always are).
    pub fn is_time_ordered(&self) -> bool {
        self.time_ordered
    }

    /// The events that can have a time within `from..=to`: every timed event in that window is
    /// in the range returned (untimed events in it are not in the window: callers still check
    /// each event's time). The whole trace when it is not in time order.
    pub fn between(&self, from: i64, to: i64) -> std::ops::Range<EventId> {
        if !self.time_ordered {
            return 0..self.times.len();
        }
        self.times.partition_point(|&t| t < from)..self.times.partition_point(|&t| t <= to)
    }

    /// [`Trace::between`] for windows asked in time order (a scan of the trace): each bound is
    /// found from where `cursor` left it ([`partition_from`]).
    pub fn between_from(
        &self,
        from: i64,
        to: i64,
        cursor: &mut WindowCursor,
    ) -> std::ops::Range<EventId> {
        if !self.time_ordered {
            return 0..self.times.len();
        }
        let times = &self.times;
        cursor.start = partition_from(times, cursor.start, |&t| t < from);
        cursor.end = partition_from(times, cursor.end, |&t| t <= to);
        cursor.start..cursor.end
    }

    /// Events of one kind, in time order.
    pub fn of_kind(&self, kind: &str) -> &[EventId] {
        self.by_kind.get(kinds::index_of(kind).index())
    }

    /// Events of the kinds in `set`, in time order: from their lists by kind when they are few
    /// (most consumers read a few rare kinds), else from a walk of every event's kind.
    pub fn of_kinds<'a>(&'a self, set: &'a KindSet) -> impl Iterator<Item = EventId> + 'a {
        let lists = || set.iter().map(|kind| self.by_kind.get(kind.index()));
        let listed: usize = lists().map(<[EventId]>::len).sum();
        if listed.saturating_mul(SPARSE_KINDS) < self.kinds.len() {
            let mut ids: Vec<EventId> = lists().flatten().copied().collect();
            ids.sort_unstable();
            Either::Left(ids.into_iter())
        } else {
            Either::Right(
                (self.kinds.iter().enumerate())
                    .filter(|(_, kind)| set.contains(**kind))
                    .map(|(id, _)| id),
            )
        }
    }

    /// The interned host of event `id`.
    pub fn host_of(&self, id: EventId) -> HostId {
        self.event_host[id]
    }

    /// How many distinct hosts wrote events.
    pub fn host_count(&self) -> usize {
        self.hosts.len()
    }

    /// A host's name as its events carry it.
    pub fn host_name(&self, host: HostId) -> &Arc<str> {
        &self.hosts[host.index()].0
    }

    /// A host's short name ([`short_host`]: first DNS label, lower-case; an address stays whole),
    /// computed once per host.
    pub fn short_host(&self, host: HostId) -> &Arc<str> {
        &self.hosts[host.index()].1
    }

    /// Every entity the events name, once each.
    pub fn entities(&self) -> impl Iterator<Item = &Entity> {
        self.entities.iter().map(|e| &**e)
    }

    /// Every interned entity's id.
    pub fn entity_ids(&self) -> impl Iterator<Item = EntityId> + use<> {
        (0..self.entities.len() as u32).map(EntityId)
    }

    /// Whether `a` can have happened before `b`: on one host by position in the trace, across
    /// hosts by time allowing the configured clock skew. Untimed events only order on one host.
    pub fn before(&self, a: EventId, b: EventId) -> bool {
        if self.event_host[a] == self.event_host[b] {
            return a < b;
        }
        match (self.ts_of(a), self.ts_of(b)) {
            (Some(ta), Some(tb)) => ta <= tb + self.skew_ms,
            _ => false,
        }
    }

    /// The latest time of the events up to `id` (included), if one has a time.
    pub fn latest_until(&self, id: EventId) -> Option<i64> {
        if self.time_ordered {
            // Each event carries the latest time before it (see `times`).
            return Some(self.times[id]).filter(|&ts| ts != i64::MIN);
        }
        (0..=id).filter_map(|at| self.ts_of(at)).max()
    }

    /// The latest time of the events of the kinds in `set`, if one has a time: in a trace in
    /// time order, the time of the last such timed event.
    pub fn latest_of_kinds(&self, set: &KindSet) -> Option<i64> {
        let mut timed = (0..self.len())
            .rev()
            .filter(|&id| set.contains(self.kinds[id]))
            .filter_map(|id| self.ts_of(id));
        if self.time_ordered {
            return timed.next();
        }
        timed.max()
    }

    /// Milliseconds from `a` to `b` (negative when `b` is earlier); `None` if either is untimed.
    pub fn elapsed(&self, a: EventId, b: EventId) -> Option<i64> {
        Some(self.ts_of(b)? - self.ts_of(a)?)
    }

    /// The `dn_container_state` lines among the events `ids` ([`Trace::container_state_lines`]
    /// of a window, found by a binary search).
    pub fn container_state_lines_in(
        &self,
        ids: std::ops::Range<EventId>,
    ) -> impl ExactSizeIterator<Item = (EventId, &ContainerStateLine)> {
        let at = |id: EventId| {
            self.container_state_ids
                .partition_point(|&line| (line as EventId) < id)
        };
        let (start, end) = (at(ids.start), at(ids.end));
        let end = end.max(start);
        self.container_state_ids[start..end]
            .iter()
            .map(|&id| id as EventId)
            .zip(&self.container_states[start..end])
    }
}

/// A reader's place in a list of entries by event id, in trace order ([`Trace::scm_signals`],
/// [`Trace::heartbeat_term`]): a reader that asks for events in trace order finds each entry from
/// the last one ([`partition_from`]), not by a search of the whole list.
#[derive(Debug, Default, Clone)]
pub struct IdCursor {
    /// Where the next entry asked for may be.
    next: usize,
}

impl IdCursor {
    /// The entry of event `id` in `list` (sorted by event id), if it has one; an event before
    /// the last one asked for is searched.
    pub fn find<'l, T>(&mut self, list: &'l [(EventId, T)], id: EventId) -> Option<&'l T> {
        let at = self.seek(list, |entry| entry.0, id)?;
        Some(&list[at].1)
    }

    /// The place of event `id` in `entries` (in order of the event ids `id_of` reads), if it is
    /// there.
    fn seek<E>(
        &mut self,
        entries: &[E],
        id_of: impl Fn(&E) -> EventId,
        id: EventId,
    ) -> Option<usize> {
        self.next = partition_from(entries, self.next, |entry| id_of(entry) < id);
        entries
            .get(self.next)
            .is_some_and(|entry| id_of(entry) == id)
            .then_some(self.next)
    }
}

/// The partition point of `list` (the first entry `before` is false of, `before` true of a
/// prefix) found from `hint`, the last one found: by steps that double from there, then a search
/// of the last step, so that a reader moving on a little pays a little, and one that jumps far
/// (a fresh cursor, a reader of a few events of a long trace) a search, never a walk.
fn partition_from<E>(list: &[E], hint: usize, before: impl Fn(&E) -> bool) -> usize {
    let hint = hint.min(list.len());
    if hint > 0 && !before(&list[hint - 1]) {
        return list[..hint].partition_point(before);
    }
    let (mut low, mut step) = (hint, 1);
    while low + step <= list.len() && before(&list[low + step - 1]) {
        low += step;
        step *= 2;
    }
    let high = (low + step).min(list.len());
    low + list[low..high].partition_point(before)
}

/// Where the last window of [`Trace::between_from`] was.
#[derive(Debug, Default, Clone)]
pub struct WindowCursor {
    start: usize,
    end: usize,
}

/// The kind of ContainerLogger's lines (`dn_container_state`).
static CONTAINER_STATE: std::sync::LazyLock<KindIndex> =
    std::sync::LazyLock::new(|| kinds::index_of("dn_container_state"));

/// What a ContainerLogger line (`dn_container_state`) says, compact: read once at the merge,
/// where its stream's events lie together in memory, instead of by every consumer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContainerStateLine {
    pub container: u64,
    /// The replica index (EC), 0 when the line prints none, as replicas are keyed.
    pub index: u32,
    pub bcsid: Option<u64>,
    pub state: LineState,
    /// Written at ERROR (`logLost`, `logUnhealthy`).
    pub error: bool,
}

/// The state a ContainerLogger line prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineState {
    /// No state field.
    Absent,
    Known(ReplicaState),
    /// A word that is no `ContainerDataProto.State`: its consumers read it from the event.
    Other,
}

impl LineState {
    /// Whether the line printed exactly `state`.
    pub fn is(self, state: ReplicaState) -> bool {
        self == LineState::Known(state)
    }
}

impl ContainerStateLine {
    fn of(event: &Event) -> Option<ContainerStateLine> {
        let EventData::Datanode(DatanodeEvent::DnContainerState {
            id,
            index,
            bcsid,
            state,
            ..
        }) = &event.data
        else {
            return None;
        };
        Some(ContainerStateLine {
            container: *id,
            index: index.unwrap_or(0) as u32,
            bcsid: *bcsid,
            state: match state.as_deref() {
                None => LineState::Absent,
                Some(s) => ReplicaState::parse(s).map_or(LineState::Other, LineState::Known),
            },
            error: event.level == Some(Level::Error),
        })
    }
}

/// A state word a line prints, when its consumers read it often.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateWord {
    /// No state (`<D>`'s `NOT_FOUND`).
    Absent,
    /// A `LifeCycleState` ([`life_cycle_state`]).
    Known(&'static str),
    /// Another word: its consumers read it from the event.
    Other,
}

/// What an SCM container line says, compact: read once on the readers' pass, where the event is
/// still in cache, instead of by each of its consumers (the container machine, the replica
/// links, the replicas index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScmContainerLine {
    pub container: u64,
    /// The report handler's decision about a replica (`CLOSE <D>`, `FINALIZE (i.e. CLOSING) <D>`,
    /// ...; [`ScmContainerEvent::Replica`]), with the fields below; `None` for a line of another
    /// shape (commands, resurrections, failures, state changes, statements), whose consumers read
    /// the event and for which the fields below are not set.
    pub action: Option<ReplicaAction>,
    /// `<D>`'s container state.
    pub container_state: StateWord,
    pub replica_index: u32,
    pub replica_state: LineState,
    pub bcsid: u64,
    /// The datanode host `<D>` prints, by its place ([`Trace::replica_host`]).
    pub datanode_host: u32,
}

impl ScmContainerLine {
    /// What `data` says, if it names a container; the host `<D>` prints placed by `place`.
    fn of(data: &ScmContainerEvent, place: impl FnOnce(&str) -> u32) -> Option<ScmContainerLine> {
        let container = data.container()?;
        let mut line = ScmContainerLine {
            container,
            action: None,
            container_state: StateWord::Absent,
            replica_index: 0,
            replica_state: LineState::Absent,
            bcsid: 0,
            datanode_host: 0,
        };
        if let ScmContainerEvent::Replica(e) = data {
            let r = &e.replica;
            line.action = Some(e.action);
            line.container_state = match r.container_state.as_deref() {
                None => StateWord::Absent,
                Some(s) => life_cycle_state(s).map_or(StateWord::Other, StateWord::Known),
            };
            line.replica_index = r.replica_index;
            line.replica_state =
                ReplicaState::parse(&r.replica_state).map_or(LineState::Other, LineState::Known);
            line.bcsid = r.bcsid;
            line.datanode_host = place(&r.datanode_host);
        }
        Some(line)
    }

    /// Its host's place moved from a stream's table to the merge's, where that table begins
    /// at `start`.
    fn placed(self, start: u32) -> ScmContainerLine {
        ScmContainerLine {
            datanode_host: if self.action.is_some() {
                start + self.datanode_host
            } else {
                0
            },
            ..self
        }
    }
}

/// The merge, fed as the streams come: the thread that waits for the readers appends each
/// stream's table ([`StreamEntities`]) to the merge's columns while they read on
/// ([`TraceBuilder::append`]), so that what is left when the last stream is read is to order
/// the columns and index them ([`TraceBuilder::merge`]). Appending a table costs a few
/// microseconds whatever its size (its dozen lists are another core's writes): on the 1 GB bench
/// bundle's 965 streams, 3 ms of a 20 ms replay stage.
pub struct TraceBuilder {
    /// The table its streams' readers intern entities in ([`StreamEntities::of_shared`]).
    shared: Arc<SharedEntities>,
    columns: Columns,
    /// The lines of each stream appended, in order.
    lines: Vec<Narrow>,
}

impl Default for TraceBuilder {
    fn default() -> Self {
        TraceBuilder {
            shared: Arc::default(),
            columns: Columns::new(),
            lines: Vec::new(),
        }
    }
}

impl TraceBuilder {
    /// The table the readers intern the entities of the streams it takes in.
    pub fn shared(&self) -> &Arc<SharedEntities> {
        &self.shared
    }

    /// Whether [`TraceBuilder::append`] takes `table`: its entities are interned in
    /// [`TraceBuilder::shared`].
    pub fn takes(&self, table: &StreamEntities) -> bool {
        table
            .shared()
            .is_some_and(|of| Arc::ptr_eq(of, &self.shared))
    }

    /// Appends a stream's table, as its reader made it, to the merge's columns, when it takes it
    /// ([`TraceBuilder::takes`]): the table is then taken out of `table`, and the stream's
    /// events are the next of [`TraceBuilder::merge`]'s `appended`.
    pub fn append(&mut self, table: &mut Option<StreamEntities>) -> bool {
        let Some(mut table) = table.take_if(|table| self.takes(table)) else {
            return false;
        };
        self.columns.read_stream(&mut table);
        self.lines.push(table.lines_at);
        true
    }

    /// The trace of the streams appended, whose events are `appended` (one per stream appended,
    /// in order), and of `streams`, merged as [`Trace::merge_interned`] merges them.
    ///
    /// The merge takes the builder's shared table: streams interned in it are merged here only.
    pub fn merge(
        self,
        appended: Vec<Vec<Event>>,
        mut streams: Vec<(Vec<Event>, Option<StreamEntities>)>,
        skew_ms: i64,
    ) -> Trace {
        let TraceBuilder {
            shared,
            mut columns,
            mut lines,
        } = self;
        let counts = appended.iter().map(Vec::len);
        assert!(
            counts.eq(lines.iter().map(|lines| lines.low.len())),
            "the events of each stream appended, as many as its table's"
        );
        streams.retain(|(stream, _)| !stream.is_empty());
        // The entities the readers interned together, taken once: a stream interned into
        // another table (or one taken already) is interned here.
        let shared = if lines.is_empty() {
            (streams.iter()).find_map(|(_, table)| table.as_ref()?.shared().cloned())
        } else {
            Some(shared)
        };
        let shared = shared.and_then(|shared| Some((shared.take()?, shared)));
        let (interned, shared) = shared.unzip();
        assert!(
            interned.is_some() || lines.is_empty(),
            "the shared table of the streams appended is taken by their merge"
        );
        let (events, tables): (Vec<Vec<Event>>, Vec<StreamEntities>) = streams
            .into_iter()
            .map(|(events, entities)| {
                let entities = table_of(&events, entities, shared.as_ref());
                (events, entities)
            })
            .unzip();
        columns.reserve(tables.iter());
        columns.interned = interned.unwrap_or_default();
        // Each table is dropped once read but for its lines, which order events of one time.
        lines.reserve_exact(tables.len());
        let mut tables = tables.into_iter().peekable();
        while let Some(mut table) = tables.next() {
            // The next table is another thread's writes: its lines come while this one is read.
            if let Some(next) = tables.peek() {
                next.prefetch();
            }
            columns.read_stream(&mut table);
            lines.push(table.lines_at);
        }
        columns.sort(&lines);
        drop(lines);
        let mut trace = columns.index(skew_ms);
        trace.streams = appended;
        trace.streams.extend(events);
        trace
    }
}

/// A stream's entities and merge columns, made by the thread that read it while its events are
/// still near in memory: its distinct entities are interned once, by that thread in the readers'
/// shared table ([`StreamEntities::of_shared`]) or else by the merge ([`Trace::merge_interned`]),
/// instead of every entity of every event; the merge appends the stream's
/// columns with their places moved ([`Columns::read_stream`]) instead of working out each event's
/// (a branchy pass, on the one thread the merge has, over memory another core wrote). The fields
/// of the lines the rules read most (ContainerLogger's, SCM's) are read on the same pass.
#[derive(Debug, Default)]
pub struct StreamEntities {
    /// The stream's distinct entities, by local id.
    table: LocalEntities,
    /// The local ids the events name, each once per event, in order ([`InputEvent::named`]).
    names: Vec<u32>,
    /// Event `i` as the merge keeps it, its places the stream's: its run a place in `sources`,
    /// its entities in `names`, its compact fields in this stream's lists.
    events: Vec<InputEvent>,
    /// The time each event is ordered by ([`order_times`]).
    times: Vec<u64>,
    /// The line of event `i`, which orders events of one time and source.
    lines_at: Narrow,
    /// Where the events of each (host, file, component) begin, in order: a stream has one or a
    /// few.
    sources: Vec<(u32, Source)>,
    /// The `dn_container_state` lines, by their event's place in the stream, in order.
    lines: Vec<(u32, HeldLine)>,
    /// The datanode UUID of each Ratis line that names one ([`Trace::ratis_peers`]), by its
    /// place in `peer_names`.
    peers: Vec<(u32, u32)>,
    peer_names: Vec<Arc<str>>,
    /// The SCM container lines that name a container ([`Trace::scm_container_lines`]), by place,
    /// their hosts by place in `replica_hosts`.
    scm_lines: Vec<(u32, ScmContainerLine)>,
    replica_hosts: Vec<Arc<str>>,
    /// What each SCM-side event says ([`endpoint::scm_side_of`]), read here where the event is
    /// still in cache (at the merge, every one is a miss), compact: the datanodes it names (and
    /// the hosts registrations print) are in `datanodes`, the few close commands in `closes`.
    scm: Vec<(u32, ScmSaid)>,
    datanodes: Vec<Arc<str>>,
    closes: Vec<(u32, Vec<u64>)>,
}

impl StreamEntities {
    /// Starts fetching what [`Columns::read_stream`] reads of this table.
    fn prefetch(&self) {
        use crate::cache::prefetch_all;
        prefetch_all(&self.events);
        prefetch_all(&self.times);
        prefetch_all(&self.names);
        prefetch_all(&self.lines_at.low);
        prefetch_all(&self.lines);
        prefetch_all(&self.scm);
        prefetch_all(&self.peers);
        prefetch_all(&self.scm_lines);
        match &self.table {
            LocalEntities::Own(table) => {
                prefetch_all(table);
                for entity in table {
                    if let Some(name) = entity.name() {
                        prefetch_all(name.as_bytes());
                    }
                }
            }
            LocalEntities::Shared(_, ids) => prefetch_all(ids),
        }
        for (_, source) in &self.sources {
            prefetch_all(source.host.as_bytes());
            prefetch_all(source.file.as_bytes());
        }
    }

    /// [`StreamEntities::of`], its entities interned in `shared` on this thread: the merge then
    /// reads their ids instead of hashing them.
    pub fn of_shared(events: &[Event], shared: &Arc<SharedEntities>) -> StreamEntities {
        let mut interned = StreamEntities::of(events);
        if let LocalEntities::Own(table) = std::mem::take(&mut interned.table) {
            interned.table = match shared.ids_of(table) {
                Ok(ids) => LocalEntities::Shared(Arc::clone(shared), ids),
                Err(table) => LocalEntities::Own(table),
            };
        }
        interned
    }

    /// The shared table its entities are interned in, if any.
    fn shared(&self) -> Option<&Arc<SharedEntities>> {
        match &self.table {
            LocalEntities::Shared(shared, _) => Some(shared),
            LocalEntities::Own(_) => None,
        }
    }

    /// Interns the entities of a stream's events and makes its merge columns.
    pub fn of(events: &[Event]) -> StreamEntities {
        let mut ids: HashMap<&Entity, u32> = HashMap::default();
        let mut table = Vec::new();
        let mut uuids = rustc_hash::FxHashSet::default();
        let mut datanodes = Names::default();
        let mut peer_names = Names::default();
        let mut replica_hosts = Names::default();
        let mut interned = StreamEntities {
            events: Vec::with_capacity(events.len()),
            lines_at: Narrow::with_capacity(events.len()),
            ..StreamEntities::default()
        };
        for (i, event) in events.iter().enumerate() {
            let kind = kinds::index_of(event.kind());
            interned.lines_at.push(event.line);
            if !interned
                .sources
                .last()
                .is_some_and(|(_, source)| source.is(event))
            {
                interned.sources.push((i as u32, Source::of(event)));
            }
            let mut quiet = false;
            if kind == *CONTAINER_STATE
                && let Some(line) = ContainerStateLine::of(event)
            {
                interned.lines.push((i as u32, HeldLine::of(line)));
            } else if SCM_SIDE_KINDS.contains(kind)
                && let Some(of) = endpoint::scm_side_of(event, &mut uuids)
            {
                let (said, close) = ScmSaid::of(of, |datanode| datanodes.number(datanode));
                quiet = said.quiet();
                if let Some(close) = close {
                    interned.closes.push((i as u32, close));
                }
                interned.scm.push((i as u32, said));
            } else if let EventData::ScmContainer(data) = &event.data {
                if let Some(line) = ScmContainerLine::of(data, |host| replica_hosts.number(host)) {
                    interned.scm_lines.push((i as u32, line));
                }
            } else if let EventData::Ratis(ratis) = &event.data
                && let Some(member) = ratis.member()
                && is_uuid(&member.peer)
            {
                let peer = &member.peer;
                let place = if peer.bytes().any(|b| b.is_ascii_uppercase()) {
                    peer_names.number(&peer.to_ascii_lowercase())
                } else {
                    peer_names.number(peer)
                };
                interned.peers.push((i as u32, place));
            }
            let first = interned.names.len();
            for entity in &event.entities {
                let id = *ids.entry(entity).or_insert_with(|| {
                    table.push(entity.clone());
                    table.len() as u32 - 1
                });
                // An event naming an entity twice is indexed once.
                if !interned.names[first..].contains(&id) {
                    interned.names.push(id);
                }
            }
            interned.events.push(InputEvent::of(
                interned.sources.len() - 1,
                first,
                interned.names.len() - first,
                kind,
                InputEvent::flags_of(event, quiet),
            ));
        }
        interned.times = order_times(events.iter().map(|event| event.ts));
        interned.link_compact();
        // Held until the merge: without the growth slack.
        table.shrink_to_fit();
        interned.table = LocalEntities::Own(table);
        interned.names.shrink_to_fit();
        interned.lines_at.wide.shrink_to_fit();
        interned.sources.shrink_to_fit();
        interned.lines.shrink_to_fit();
        interned.peers.shrink_to_fit();
        interned.peer_names = peer_names.into_names();
        interned.scm_lines.shrink_to_fit();
        interned.replica_hosts = replica_hosts.into_names();
        interned.scm.shrink_to_fit();
        interned.datanodes = datanodes.into_names();
        interned.closes.shrink_to_fit();
        interned
    }

    /// Points each event at its place in the stream's compact lists ([`Compact`]); an event is
    /// in one list at most.
    fn link_compact(&mut self) {
        let events = &mut self.events;
        let mut link = |list: Compact, ats: &mut dyn Iterator<Item = u32>| {
            for (place, at) in ats.enumerate() {
                events[at as usize].compact = list.at(place);
            }
        };
        link(
            Compact::ContainerState,
            &mut self.lines.iter().map(|&(at, _)| at),
        );
        link(Compact::ScmSide, &mut self.scm.iter().map(|&(at, _)| at));
        link(
            Compact::RatisPeer,
            &mut self.peers.iter().map(|&(at, _)| at),
        );
        link(
            Compact::ScmContainer,
            &mut self.scm_lines.iter().map(|&(at, _)| at),
        );
    }

    /// Keeps the entities of the events `keep` flags (one flag per event, in order, as
    /// `Vec::retain` keeps the events themselves). Flags for another number of events empty the
    /// table: the merge then interns the stream itself. Its table of entities stays whole: the
    /// trace leaves out those no kept event names ([`Columns::index`]).
    pub fn retain(&mut self, keep: &[bool]) {
        if keep.len() != self.events() {
            *self = StreamEntities::default();
            return;
        }
        let mut names = Vec::new();
        let mut events = Vec::new();
        let mut lines_at = Narrow::default();
        let mut sources: Vec<(u32, Source)> = Vec::new();
        // The place of each kept event among the kept ones.
        let mut kept_at = Vec::with_capacity(keep.len());
        for (i, _) in keep.iter().enumerate().filter(|(_, keep)| **keep) {
            kept_at.resize(i, u32::MAX);
            kept_at.push(events.len() as u32);
            let first = names.len();
            names.extend_from_slice(self.names_of(i));
            let source = self.source_of(i);
            if !sources.last().is_some_and(|(_, last)| last == source) {
                sources.push((events.len() as u32, source.clone()));
            }
            let event = self.events[i];
            events.push(InputEvent::of(
                sources.len() - 1,
                first,
                names.len() - first,
                event.kind,
                event.flags,
            ));
            lines_at.push(self.lines_at.get(i));
        }
        self.times = order_times(
            (keep.iter().enumerate())
                .filter(|(_, keep)| **keep)
                .map(|(i, _)| self.time(i)),
        );
        renumber_kept(&mut self.lines, &kept_at);
        renumber_kept(&mut self.peers, &kept_at);
        renumber_kept(&mut self.scm_lines, &kept_at);
        renumber_kept(&mut self.scm, &kept_at);
        renumber_kept(&mut self.closes, &kept_at);
        self.names = names;
        self.events = events;
        self.lines_at = lines_at;
        self.sources = sources;
        self.link_compact();
    }

    /// Event `i`'s own time, if it has one.
    fn time(&self, i: usize) -> Option<i64> {
        (!self.events[i].untimed()).then(|| (self.times[i] ^ SIGN) as i64)
    }

    /// The source of event `i`.
    fn source_of(&self, i: usize) -> &Source {
        &self.sources[self.events[i].run as usize].1
    }

    /// How many events it holds the entities of.
    fn events(&self) -> usize {
        self.events.len()
    }

    fn names_of(&self, event: usize) -> &[u32] {
        &self.names[InputEvent::entities(&self.events, event, self.names.len())]
    }
}

/// The time each event is ordered by, as an unsigned number ([`SIGN`]): its own (`times`), else
/// (untimed) the time of the event before it, else the first time of all.
fn order_times(times: impl Iterator<Item = Option<i64>> + Clone) -> Vec<u64> {
    let mut last = times.clone().flatten().next().unwrap_or(i64::MIN);
    times
        .map(|ts| {
            if let Some(ts) = ts {
                last = ts;
            }
            last as u64 ^ SIGN
        })
        .collect()
}

/// The table of a stream: `interned` when it holds this stream's, its entities in its own table
/// or in the merge's `shared` one, else read here the same way.
fn table_of(
    events: &[Event],
    interned: Option<StreamEntities>,
    shared: Option<&Arc<SharedEntities>>,
) -> StreamEntities {
    interned
        .filter(|i| i.events() == events.len())
        .filter(|i| match &i.table {
            LocalEntities::Own(_) => true,
            LocalEntities::Shared(of, _) => shared.is_some_and(|shared| Arc::ptr_eq(of, shared)),
        })
        .unwrap_or_else(|| StreamEntities::of(events))
}

/// A stream's distinct entities, by local id: its own, or their ids in a [`SharedEntities`].
#[derive(Debug)]
enum LocalEntities {
    Own(Vec<Entity>),
    Shared(Arc<SharedEntities>, Vec<u32>),
}

impl Default for LocalEntities {
    fn default() -> Self {
        LocalEntities::Own(Vec::new())
    }
}

/// The entities of one load's streams, interned by the threads that read them
/// ([`StreamEntities::of_shared`]) while each stream's entities are still in their cache: the
/// merge, on one thread, then takes the table and maps each stream's entities by id, never
/// hashing one (0.75 ms of the merge on the 1 GB bench bundle).
#[derive(Debug)]
pub struct SharedEntities {
    /// `None` once the merge took it.
    interned: std::sync::Mutex<Option<Interned>>,
}

/// Interned entities in the order met, and the id of each.
#[derive(Debug, Default)]
struct Interned {
    table: Vec<Arc<Entity>>,
    ids: HashMap<Arc<Entity>, EntityId>,
}

impl Default for SharedEntities {
    fn default() -> Self {
        SharedEntities {
            interned: std::sync::Mutex::new(Some(Interned::default())),
        }
    }
}

impl SharedEntities {
    /// The id of each of `table`'s entities, new ones added; `table` back once the merge took
    /// the table.
    fn ids_of(&self, table: Vec<Entity>) -> Result<Vec<u32>, Vec<Entity>> {
        // A reader that panicked holding the lock left whole entries: the table stays usable.
        let mut interned = self.interned.lock().unwrap_or_else(|e| e.into_inner());
        let Some(interned) = interned.as_mut() else {
            return Err(table);
        };
        Ok((table.into_iter())
            .map(|entity| interned.intern(entity).0)
            .collect())
    }

    /// The table, for the merge: once.
    fn take(&self) -> Option<Interned> {
        (self.interned.lock().unwrap_or_else(|e| e.into_inner())).take()
    }
}

impl Interned {
    /// The id of `entity`, moved into the table if it is new there (not copied: freeing a copy
    /// costs as much as making one).
    fn intern(&mut self, entity: Entity) -> EntityId {
        if let Some(&id) = self.ids.get(&entity) {
            return id;
        }
        let id = EntityId(self.table.len() as u32);
        let shared = Arc::new(entity);
        self.table.push(Arc::clone(&shared));
        self.ids.insert(shared, id);
        id
    }
}

/// `n` in two 4-byte halves, low first: a reader's lists of small entries are then aligned
/// to 4 bytes, not 8.
fn halves(n: u64) -> [u32; 2] {
    [n as u32, (n >> 32) as u32]
}

/// The number [`halves`] split.
fn whole([low, high]: [u32; 2]) -> u64 {
    u64::from(low) | u64::from(high) << 32
}

/// A [`ContainerStateLine`] as a reader holds it until the merge: its numbers in 4-byte halves,
/// 28 bytes with its place rather than 40 (the most frequent kind).
#[derive(Debug, Clone, Copy)]
struct HeldLine {
    container: [u32; 2],
    bcsid: [u32; 2],
    index: u32,
    state: LineState,
    /// [`HeldLine::BCSID`], [`HeldLine::ERROR`].
    flags: u8,
}

impl HeldLine {
    const BCSID: u8 = 1;
    const ERROR: u8 = 2;

    fn of(line: ContainerStateLine) -> HeldLine {
        HeldLine {
            container: halves(line.container),
            bcsid: halves(line.bcsid.unwrap_or(0)),
            index: line.index,
            state: line.state,
            flags: if line.bcsid.is_some() {
                HeldLine::BCSID
            } else {
                0
            } | if line.error { HeldLine::ERROR } else { 0 },
        }
    }

    fn line(self) -> ContainerStateLine {
        ContainerStateLine {
            container: whole(self.container),
            index: self.index,
            bcsid: (self.flags & HeldLine::BCSID != 0).then(|| whole(self.bcsid)),
            state: self.state,
            error: self.flags & HeldLine::ERROR != 0,
        }
    }
}

/// What an SCM-side event says ([`ScmSideOf`]) in 16 bytes (20 with its event's place on the
/// readers): its datanode a place in a table, its close commands (rare) aside.
#[derive(Debug, Clone, Copy)]
struct ScmSaid {
    /// The heartbeat's term, when [`ScmSaid::TERM`] is set, in 4-byte halves (so that the
    /// struct aligns to 4 bytes, not 8); a registration's host, when [`ScmSaid::HOST`] is set,
    /// by its place in the datanodes' table in the first (a registration is no heartbeat).
    term: [u32; 2],
    /// The signal's datanode, by its place in the table.
    datanode: u32,
    flags: u8,
}

impl ScmSaid {
    const HEARTBEAT: u8 = 1;
    const QUIET: u8 = 2;
    const TERM: u8 = 4;
    const AUDIT: u8 = 8;
    /// Its close commands are aside.
    const CLOSES: u8 = 64;
    /// A registration that prints its datanode's host.
    const HOST: u8 = 128;
    /// Where the signal sits in the flags (bits 4 and 5): none, or one of the three below.
    const SIGNAL_SHIFT: u8 = 4;
    const REREGISTER: u8 = 1;
    const REGISTERED: u8 = 2;
    const ANSWERED: u8 = 3;

    /// The compact form of `of`, its datanode (and a registration's host) placed by `place`, and
    /// its close commands if it has any.
    fn of(of: ScmSideOf, mut place: impl FnMut(&Arc<str>) -> u32) -> (ScmSaid, Option<Vec<u64>>) {
        let mut said = ScmSaid {
            term: [0; 2],
            datanode: 0,
            flags: 0,
        };
        if let Some(heartbeat) = of.heartbeat {
            said.flags |= ScmSaid::HEARTBEAT;
            if heartbeat.quiet {
                said.flags |= ScmSaid::QUIET;
            }
            if let Some(term) = heartbeat.term {
                said.flags |= ScmSaid::TERM;
                said.term = halves(term);
            }
        }
        let mut close = None;
        let (signal, datanode, audit) = match of.signal {
            None => return (said, None),
            Some(ScmSignal::Reregister { datanode, audit }) => {
                (ScmSaid::REREGISTER, datanode, audit)
            }
            Some(ScmSignal::Registered {
                datanode,
                host,
                audit,
            }) => {
                if let Some(host) = host {
                    said.flags |= ScmSaid::HOST;
                    said.term[0] = place(&host);
                }
                (ScmSaid::REGISTERED, datanode, audit)
            }
            Some(ScmSignal::Answered {
                datanode,
                close_containers,
            }) => {
                if !close_containers.is_empty() {
                    said.flags |= ScmSaid::CLOSES;
                    close = Some(close_containers);
                }
                (ScmSaid::ANSWERED, datanode, false)
            }
        };
        said.flags |= signal << ScmSaid::SIGNAL_SHIFT;
        if audit {
            said.flags |= ScmSaid::AUDIT;
        }
        said.datanode = place(&datanode);
        (said, close)
    }

    fn is(self, flag: u8) -> bool {
        self.flags & flag != 0
    }

    fn heartbeat(&self) -> bool {
        self.is(ScmSaid::HEARTBEAT)
    }

    fn quiet(&self) -> bool {
        self.is(ScmSaid::HEARTBEAT) && self.is(ScmSaid::QUIET)
    }

    fn signals(&self) -> bool {
        self.signal() != 0
    }

    fn signal(self) -> u8 {
        (self.flags >> ScmSaid::SIGNAL_SHIFT) & 3
    }

    /// Whether its close commands are aside.
    fn closes(self) -> bool {
        self.is(ScmSaid::CLOSES)
    }

    /// Its datanode's place moved from a stream's table to the merge's (`places`: the merge's
    /// place of each of the stream's).
    fn placed(self, places: &[u32]) -> ScmSaid {
        let mut term = self.term;
        if self.is(ScmSaid::HOST) {
            term[0] = places[term[0] as usize];
        }
        ScmSaid {
            datanode: if self.signals() {
                places[self.datanode as usize]
            } else {
                0
            },
            term,
            ..self
        }
    }

    /// What it says, its datanode read from `datanodes`, with its close commands `close`.
    fn side(self, datanodes: &Names, close: Option<Vec<u64>>) -> ScmSideOf {
        let set = |flag: u8| self.is(flag);
        let heartbeat = set(ScmSaid::HEARTBEAT).then(|| Heartbeat {
            term: set(ScmSaid::TERM).then(|| whole(self.term)),
            quiet: set(ScmSaid::QUIET),
        });
        let datanode = || Arc::clone(datanodes.name(self.datanode));
        let audit = set(ScmSaid::AUDIT);
        let signal = match self.signal() {
            ScmSaid::REREGISTER => Some(ScmSignal::Reregister {
                datanode: datanode(),
                audit,
            }),
            ScmSaid::REGISTERED => Some(ScmSignal::Registered {
                datanode: datanode(),
                host: set(ScmSaid::HOST).then(|| Arc::clone(datanodes.name(self.term[0]))),
                audit,
            }),
            ScmSaid::ANSWERED => Some(ScmSignal::Answered {
                datanode: datanode(),
                close_containers: close.unwrap_or_default(),
            }),
            _ => None,
        };
        ScmSideOf { heartbeat, signal }
    }
}

/// Keeps the items of the events a window keeps, renumbered as their place among those
/// (`kept_at[i]`: event `i`'s place, `u32::MAX` when dropped; missing past the last kept one).
fn renumber_kept<T>(items: &mut Vec<(u32, T)>, kept_at: &[u32]) {
    items.retain_mut(|(at, _)| match kept_at.get(*at as usize) {
        Some(&kept) if kept != u32::MAX => {
            *at = kept;
            true
        }
        _ => false,
    });
}

/// What [`Trace`]'s indexes need of each event, in input order, and the hosts and entities
/// interned on the way (numbered as met in that order: [`Columns::index`] renumbers them as met in
/// the trace's order).
struct Columns {
    /// Input event `i` (numbered in the order streams were read), in one record: the trace's
    /// order reads the input scattered, and meets one cache line per event this way, not one
    /// per column.
    events: Vec<InputEvent>,
    /// The time each input event is ordered by, as an unsigned number in the same order
    /// ([`SIGN`]): its own, else (untimed) the time of the event before it in its stream, else the
    /// stream's first.
    times: Vec<u64>,
    /// The input events in the trace's order ([`Columns::sort`]).
    order: Vec<u32>,
    /// The buffer the sort went through when it sorted places (none when it sorted times packed
    /// with their places, [`sort_by_time`]), reused: fresh memory costs a page fault per 4 KiB.
    spare: Vec<u32>,
    /// The runs of events from one source, in input order ([`InputEvent::run`]).
    runs: Vec<Run>,
    sources: Sources,
    /// How many streams were read.
    streams: u32,
    /// The fields of the `dn_container_state` lines, what the SCM-side events say, the Ratis
    /// lines' datanodes and the SCM container lines, in input order; an event's `compact` is its
    /// list ([`Compact`]) and place in it ([`NONE`] for an event in none).
    container_states: Vec<ContainerStateLine>,
    /// What the SCM-side events say, compact, their datanodes by place in `datanodes` and their
    /// close commands in `closes`, by place in `scm`. Each datanode is copied once, here: a clone
    /// of a reader's copy writes its count where that reader's core last did (a miss on every
    /// event that names one).
    scm: Vec<ScmSaid>,
    datanodes: Names,
    closes: Vec<(u32, Vec<u64>)>,
    /// The Ratis lines' datanodes, by place in `peer_names`.
    peers: Vec<u32>,
    peer_names: Vec<Arc<str>>,
    /// The SCM container lines, their hosts by place in `replica_hosts`.
    scm_lines: Vec<ScmContainerLine>,
    replica_hosts: Vec<Arc<str>>,
    /// The entities of the input events ([`InputEvent::first_entity`]), each once per event, by
    /// [`EntityId`]: eight bytes each, so that their memory becomes the trace's per-entity lists.
    entities: Vec<u64>,
    host_names: Vec<Arc<str>>,
    host_ids: HashMap<Arc<str>, HostId>,
    /// The readers' shared table, and the entities of streams interned here.
    interned: Interned,
    /// How many events each kind, host and entity has: their lists are allocated once. The
    /// entities' counts reach the largest id an event names (the readers' shared table may hold
    /// others, which no event kept names).
    kind_counts: Vec<usize>,
    host_counts: Vec<usize>,
    entity_counts: Vec<usize>,
}

/// What the merge keeps of an input event ([`Columns::events`]), in 16 bytes aligned as an
/// [`EventId`], so that their memory becomes the trace's per-kind lists.
#[derive(Debug, Clone, Copy)]
#[repr(align(8))]
struct InputEvent {
    /// Its run of events from one source, by place in [`Columns::runs`].
    run: u32,
    /// Its compact fields' list and place ([`Compact`]), [`NONE`] for none.
    compact: u32,
    /// Where its entities begin in [`Columns::entities`], and how many (at most [`MANY`]: past
    /// that, they end where the next input event's begin, events being read in input order).
    /// The count spares the merge, which reads events scattered, a second event's cache line.
    first_entity: u32,
    kind: KindIndex,
    /// [`InputEvent::UNTIMED`], [`InputEvent::PRINTS_DATANODE`].
    flags: u8,
    named: u8,
}

/// The most entities [`InputEvent::named`] counts.
const MANY: u8 = u8::MAX;

impl InputEvent {
    /// It has no time of its own.
    const UNTIMED: u8 = 1;
    /// An SCM event whose message prints a datanode as `uuid(host/ip)` ([`Trace::datanode_printers`]).
    const PRINTS_DATANODE: u8 = 2;

    /// An event of run `run` whose `named` entities begin at `first_entity`, in no compact list.
    fn of(run: usize, first_entity: usize, named: usize, kind: KindIndex, flags: u8) -> Self {
        InputEvent {
            run: run as u32,
            compact: NONE,
            first_entity: first_entity as u32,
            kind,
            flags,
            named: named.min(usize::from(MANY)) as u8,
        }
    }

    /// The flags of `event`; `quiet`: it is a quiet heartbeat ([`Heartbeat::quiet`]).
    fn flags_of(event: &Event, quiet: bool) -> u8 {
        let mut flags = 0;
        if event.ts.is_none() {
            flags |= InputEvent::UNTIMED;
        }
        // A quiet heartbeat was found to print no datanode already.
        if matches!(event.data, EventData::Scm(_))
            && !quiet
            && find_datanode_details(&event.text).next().is_some()
        {
            flags |= InputEvent::PRINTS_DATANODE;
        }
        flags
    }

    fn untimed(self) -> bool {
        self.flags & InputEvent::UNTIMED != 0
    }

    fn prints_datanode(self) -> bool {
        self.flags & InputEvent::PRINTS_DATANODE != 0
    }

    /// Where the entities of `events[at]` are, among `named` in all: its first and its count,
    /// else (past [`MANY`]) up to the next event's first.
    fn entities(events: &[InputEvent], at: usize, named: usize) -> std::ops::Range<usize> {
        let event = events[at];
        let start = event.first_entity as usize;
        if event.named < MANY {
            return start..start + usize::from(event.named);
        }
        start
            ..events
                .get(at + 1)
                .map_or(named, |next| next.first_entity as usize)
    }

    /// The event with its places moved by `by`: its run, its first entity and its place in its
    /// compact list (by that list's).
    fn moved(self, by: &Moved) -> InputEvent {
        InputEvent {
            run: self.run + by.run,
            compact: match Compact::of(self.compact) {
                Some((list, place)) => list.at(place + by.lists[list as usize]),
                None => NONE,
            },
            first_entity: self.first_entity + by.entity,
            ..self
        }
    }
}

/// Where a stream's places begin in the merge's columns ([`InputEvent::moved`]).
struct Moved {
    run: u32,
    entity: u32,
    /// By [`Compact`].
    lists: [usize; 4],
}

/// Events in a row from one source: its host, component and (host, file) pair, and where its
/// events are.
#[derive(Debug, Clone, Copy)]
struct Run {
    /// The stream that holds them, and the input number of the stream's first event.
    stream: u32,
    stream_start: u32,
    host: HostId,
    component: Component,
    /// By [`Sources`]' number.
    source: u32,
}

impl Run {
    /// Where input event `index`, one of the run's, is.
    fn slot(&self, index: u32) -> Slot {
        Slot {
            stream: self.stream,
            index: index - self.stream_start,
        }
    }
}

impl Columns {
    /// Empty columns, with an empty entity table (the merge puts the readers' shared one in).
    fn new() -> Columns {
        Columns {
            events: Vec::new(),
            times: Vec::new(),
            order: Vec::new(),
            spare: Vec::new(),
            runs: Vec::new(),
            sources: Sources::default(),
            streams: 0,
            container_states: Vec::new(),
            scm: Vec::new(),
            datanodes: Names::default(),
            closes: Vec::new(),
            peers: Vec::new(),
            peer_names: Vec::new(),
            scm_lines: Vec::new(),
            replica_hosts: Vec::new(),
            entities: Vec::new(),
            host_names: Vec::new(),
            host_ids: HashMap::default(),
            interned: Interned::default(),
            kind_counts: vec![0; kinds::count()],
            host_counts: Vec::new(),
            entity_counts: Vec::new(),
        }
    }

    /// Room for the streams `tables` describe, reserved at once: grown, a column is copied and
    /// its pages touched again.
    fn reserve<'a>(&mut self, tables: impl Iterator<Item = &'a StreamEntities> + Clone) {
        let total = |count: fn(&StreamEntities) -> usize| tables.clone().map(count).sum();
        let events = total(StreamEntities::events);
        self.events.reserve(events);
        self.times.reserve(events);
        self.runs.reserve(total(|t| t.sources.len()));
        self.container_states.reserve(total(|t| t.lines.len()));
        // At most one per event of an SCM-side kind.
        self.scm.reserve(total(|t| t.scm.len()));
        self.peers.reserve(total(|t| t.peers.len()));
        self.scm_lines.reserve(total(|t| t.scm_lines.len()));
        self.entities.reserve(total(|t| t.names.len()));
    }

    /// Appends a stream's columns, entities and compact fields from its table `interned`
    /// ([`table_of`]), their places moved to the merge's.
    fn read_stream(&mut self, interned: &mut StreamEntities) {
        let stream = Slot {
            stream: self.streams,
            index: self.events.len() as u32,
        };
        self.streams += 1;
        let moved = Moved {
            run: self.runs.len() as u32,
            entity: self.entities.len() as u32,
            lists: [
                self.container_states.len(),
                self.scm.len(),
                self.peers.len(),
                self.scm_lines.len(),
            ],
        };
        let events = interned.events();
        for (at, (first, source)) in interned.sources.iter().enumerate() {
            let end = interned
                .sources
                .get(at + 1)
                .map_or(events, |&(next, _)| next as usize);
            self.read_run(stream, source, end - *first as usize);
        }
        // The trace's id of each of the stream's entities.
        let ids: Vec<u32> = match std::mem::take(&mut interned.table) {
            LocalEntities::Own(table) => (table.into_iter())
                .map(|entity| self.interned.intern(entity).0)
                .collect(),
            // Read before the merge takes the shared table, too ([`TraceBuilder::append`]).
            LocalEntities::Shared(_, ids) => ids,
        };
        let named = ids.iter().max().map_or(0, |&most| most as usize + 1);
        if named > self.entity_counts.len() {
            self.entity_counts.resize(named, 0);
        }
        for &local in &interned.names {
            let id = ids[local as usize];
            self.entities.push(u64::from(id));
            self.entity_counts[id as usize] += 1;
        }
        (self.container_states).extend(interned.lines.iter().map(|(_, line)| line.line()));
        let datanodes: Vec<u32> = (interned.datanodes.iter())
            .map(|name| self.datanodes.number(name))
            .collect();
        let mut closes = std::mem::take(&mut interned.closes).into_iter().peekable();
        for (place, &(at, said)) in interned.scm.iter().enumerate() {
            if let Some((_, close)) = closes.next_if(|&(of, _)| of == at) {
                self.closes.push((
                    (moved.lists[Compact::ScmSide as usize] + place) as u32,
                    close,
                ));
            }
            self.scm.push(said.placed(&datanodes));
        }
        // The stream's names follow the others' (moved, not looked up: streams share few).
        let peers_start = self.peer_names.len() as u32;
        self.peer_names.append(&mut interned.peer_names);
        (self.peers).extend(interned.peers.iter().map(|&(_, peer)| peers_start + peer));
        let hosts_start = self.replica_hosts.len() as u32;
        self.replica_hosts.append(&mut interned.replica_hosts);
        (self.scm_lines).extend(
            interned
                .scm_lines
                .iter()
                .map(|(_, line)| line.placed(hosts_start)),
        );
        for event in &interned.events {
            self.kind_counts[event.kind.index()] += 1;
            self.events.push(event.moved(&moved));
        }
        self.times.extend_from_slice(&interned.times);
    }

    /// Adds a run of `events` events from `source`, in the stream whose first event is input
    /// event `stream.index`.
    fn read_run(&mut self, stream: Slot, source: &Source, events: usize) {
        // Consecutive runs mostly share their host's name (one per stream).
        let host = match self.runs.last() {
            Some(run) if Arc::ptr_eq(&self.host_names[run.host.index()], &source.host) => run.host,
            _ => self.host_id_or_insert(&source.host),
        };
        self.host_counts[host.index()] += events;
        let source_id = self.sources.of(source);
        self.runs.push(Run {
            stream: stream.stream,
            stream_start: stream.index,
            host,
            component: source.component,
            source: source_id,
        });
    }

    fn host_id_or_insert(&mut self, name: &Arc<str>) -> HostId {
        if let Some(&host) = self.host_ids.get(name) {
            return host;
        }
        let host = HostId(self.host_names.len() as u32);
        self.host_names.push(Arc::clone(name));
        self.host_ids.insert(Arc::clone(name), host);
        self.host_counts.push(0);
        host
    }

    /// Puts the input events in the trace's order: by time, then by source (host, then file),
    /// line and place in the input; `lines` are the streams' lines.
    fn sort(&mut self, lines: &[Narrow]) {
        let ByTime {
            mut order,
            spare,
            ties,
        } = sort_by_time(&self.times);
        self.spare = spare;
        // Sources compare by their names' order, held as one rank each.
        let rank = self.sources.ranks();
        let (events, runs) = (&self.events, &self.runs);
        let run = |at: u32| &runs[events[at as usize].run as usize];
        let line = |at: u32| {
            let slot = run(at).slot(at);
            lines[slot.stream as usize].get(slot.index as usize)
        };
        for tie in ties {
            // Lines read only for events of one source: mostly ties are across sources.
            order[tie.start as usize..tie.end as usize].sort_unstable_by(|&a, &b| {
                let rank = |at: u32| rank[run(at).source as usize];
                (rank(a).cmp(&rank(b)))
                    .then_with(|| line(a).cmp(&line(b)))
                    .then(a.cmp(&b))
            });
        }
        self.order = order;
    }

    /// The indexes of a trace whose event `k` is input event `order[k]` (in input order if
    /// never [`Columns::sort`]ed), hosts and entities numbered by first appearance in that order.
    fn index(mut self, skew_ms: i64) -> Trace {
        if self.order.len() != self.events.len() {
            self.order = (0..self.events.len() as u32).collect();
        }
        let events = self.order.len();
        let mut trace = Trace {
            skew_ms,
            ..Trace::default()
        };
        let lines = self.container_states.len();
        trace.container_state_ids.reserve_exact(lines);
        // Where in the readers' order each line is, in trace order.
        let mut container_state_at = Vec::with_capacity(lines);
        trace.ratis_peer_ids.reserve_exact(self.peers.len());
        trace.ratis_peer_at.reserve_exact(self.peers.len());
        trace.scm_line_ids.reserve_exact(self.scm_lines.len());
        let mut scm_line_at = Vec::with_capacity(self.scm_lines.len());
        let said = |what: fn(&ScmSaid) -> bool| self.scm.iter().filter(|said| what(said)).count();
        let side = &mut trace.scm_side;
        side.heartbeats.reserve_exact(said(ScmSaid::heartbeat));
        side.quiet.reserve_exact(said(ScmSaid::quiet));
        side.signals.reserve_exact(said(ScmSaid::signals));
        let (order, inputs, runs) = (&self.order, &self.events, &self.runs);
        let input = |from: u32| inputs[from as usize];
        let run_of = |from: u32| &runs[input(from).run as usize];
        // A pass per column, each over the trace's order: as many instructions as one loop that
        // fills them all, but each loop is short and its loads independent, so that more of
        // them are in flight (the merge 11.0 -> 9.7 ms on the 1 GB bench bundle).
        trace.slots = order.iter().map(|&from| run_of(from).slot(from)).collect();
        trace.kinds = order.iter().map(|&from| input(from).kind).collect();
        trace.components = order.iter().map(|&from| run_of(from).component).collect();
        let mut last = i64::MIN;
        let mut time_ordered = true;
        trace.times = (order.iter())
            .map(|&from| {
                if !input(from).untimed() {
                    // A timed event is ordered by its own time.
                    let ts = (self.times[from as usize] ^ SIGN) as i64;
                    time_ordered &= ts >= last;
                    last = ts;
                }
                last
            })
            .collect();
        trace.time_ordered = time_ordered;
        trace.untimed = Bits::of(order.iter().map(|&from| input(from).untimed()));
        for (id, &from) in order.iter().enumerate() {
            if input(from).prints_datanode() {
                trace.datanode_printers.push(id);
            }
            match Compact::of(input(from).compact) {
                Some((Compact::ContainerState, at)) => {
                    trace.container_state_ids.push(id as u32);
                    container_state_at.push(at as u32);
                }
                Some((Compact::ScmSide, at)) => {
                    let said = self.scm[at];
                    let close = said.closes().then(|| {
                        let place = self.closes.partition_point(|&(of, _)| (of as usize) < at);
                        std::mem::take(&mut self.closes[place].1)
                    });
                    trace.scm_side.push(id, said.side(&self.datanodes, close));
                }
                Some((Compact::RatisPeer, at)) => {
                    trace.ratis_peer_ids.push(id as u32);
                    trace.ratis_peer_at.push(self.peers[at]);
                }
                Some((Compact::ScmContainer, at)) => {
                    trace.scm_line_ids.push(id as u32);
                    scm_line_at.push(at as u32);
                }
                None => {}
            }
        }
        let mut entity_rank = vec![UNSEEN; self.interned.table.len()];
        let mut entities = 0;
        trace.event_entities.reserve_exact(self.entities.len());
        let mut entity_start = std::mem::take(&mut self.spare);
        entity_start.clear();
        entity_start.reserve_exact(events + 1);
        entity_start.push(0);
        entity_start.extend(order.iter().map(|&from| {
            let named = InputEvent::entities(inputs, from as usize, self.entities.len());
            trace
                .event_entities
                .extend(self.entities[named].iter().map(|&entity| {
                    EntityId(rank_of(&mut entity_rank[entity as usize], &mut entities))
                }));
            trace.event_entities.len() as u32
        }));
        trace.entity_start = entity_start;
        // Last, in the place of the input numbers: `order` becomes the hosts.
        let mut host_rank = vec![UNSEEN; self.host_names.len()];
        let mut hosts = 0;
        for from in &mut self.order {
            *from = rank_of(&mut host_rank[run_of(*from).host.index()], &mut hosts);
        }
        trace.event_host = self.order.into_iter().map(HostId).collect();
        // Each list filled on a pass of its own, in trace order: a few streams of writes at a time,
        // in the memory of columns read already (fresh memory costs a page fault per 4 KiB).
        trace.by_kind = Lists::of(
            &self.kind_counts,
            trace.kinds.iter().map(|kind| kind.index()).enumerate(),
            as_ids(self.events),
        );
        trace.by_host = Lists::of(
            &in_rank_order(self.host_counts, &host_rank),
            trace.event_host.iter().map(|host| host.index()).enumerate(),
            as_ids(self.times),
        );
        let named = (0..events).flat_map(|id| {
            trace
                .entity_ids_of(id)
                .iter()
                .map(move |entity| (id, entity.index()))
        });
        let by_entity = Lists::of(
            &in_rank_order(self.entity_counts, &entity_rank),
            named,
            as_ids(self.entities),
        );
        trace.by_entity = by_entity;
        // Put in trace order where they are: read in that order by every consumer.
        trace.container_states = gather(&self.container_states, &container_state_at);
        trace.ratis_peers = self.peer_names;
        trace.scm_lines = gather(&self.scm_lines, &scm_line_at);
        trace.replica_hosts = self.replica_hosts;
        trace.hosts = in_rank_order(self.host_names, &host_rank)
            .into_iter()
            .map(|name| {
                let short: Arc<str> = Arc::from(short_host(&name));
                (name, short)
            })
            .collect();
        trace.host_ids = self.host_ids;
        for host in trace.host_ids.values_mut() {
            *host = HostId(host_rank[host.index()]);
        }
        // Only the entities a kept event names: a window's tables and the readers' shared one
        // hold others.
        trace.entities = in_rank_order(self.interned.table, &entity_rank);
        trace.entity_ids = self.interned.ids;
        trace.entity_ids.retain(|_, entity| {
            *entity = EntityId(entity_rank[entity.index()]);
            *entity != EntityId(UNSEEN)
        });
        trace
    }
}

/// [`Trace::of_kinds`] sorts the lists of its kinds when they hold fewer than one event in this
/// many: sorting a few costs less than testing the kind of every event.
const SPARSE_KINDS: usize = 16;

/// Flipping the sign bit orders `i64`s as `u64`s ([`Columns::times`]).
const SIGN: u64 = 1 << 63;

/// What [`sort_by_time`] hands back.
struct ByTime {
    /// The places of the times, sorted by time, equal times in their order.
    order: Vec<u32>,
    /// The buffer the sort went through (empty if none), for reuse.
    spare: Vec<u32>,
    /// The runs of `order` of two or more equal times, in order.
    ties: Vec<std::ops::Range<u32>>,
}

/// The places of `times` sorted by time, equal times in their order: a radix sort (least
/// significant digit first) of the bits in which the times differ, a few passes for a trace's
/// days or weeks.
fn sort_by_time(times: &[u64]) -> ByTime {
    let (Some(&min), Some(&max)) = (times.iter().min(), times.iter().max()) else {
        return ByTime {
            order: Vec::new(),
            spare: Vec::new(),
            ties: Vec::new(),
        };
    };
    let time_bits = u64::BITS - (max - min).leading_zeros();
    let place_bits = u64::BITS - (times.len() as u64).leading_zeros();
    if time_bits + place_bits <= u64::BITS {
        // Each time above its place in one number: a pass reads its digits in the numbers it
        // moves, in order, instead of gathering each from `times`.
        let packed = (times.iter().enumerate())
            .map(|(at, &time)| (time - min) << place_bits | at as u64)
            .collect();
        let (sorted, _) = radix_sort(packed, place_bits, time_bits, |packed| packed);
        let place = (1 << place_bits) - 1;
        let order = sorted
            .iter()
            .map(|&packed| (packed & place) as u32)
            .collect();
        // Read from the sorted numbers, in order: from `times`, each would be a miss.
        let ties = runs_of_equal(&sorted, |packed| packed >> place_bits);
        return ByTime {
            order,
            spare: Vec::new(),
            ties,
        };
    }
    let places = (0..times.len() as u32).collect();
    let (order, spare) = radix_sort(places, 0, time_bits, |at| times[at as usize] - min);
    let ties = runs_of_equal(&order, |at| times[at as usize]);
    ByTime { order, spare, ties }
}

/// The runs of two or more neighbours of `items` with the same `key`.
fn runs_of_equal<T: Copy>(items: &[T], key: impl Fn(T) -> u64) -> Vec<std::ops::Range<u32>> {
    let mut runs = Vec::new();
    let mut start = 0;
    for end in 1..=items.len() {
        if end == items.len() || key(items[end]) != key(items[start]) {
            if end - start > 1 {
                runs.push(start as u32..end as u32);
            }
            start = end;
        }
    }
    runs
}

/// `items` stably sorted by bits `low..low + bits` of their `key`, and the buffer the passes went
/// through (empty if none ran).
fn radix_sort<T: Copy + Default>(
    mut from: Vec<T>,
    low: u32,
    bits: u32,
    key: impl Fn(T) -> u64,
) -> (Vec<T>, Vec<T>) {
    let passes = bits.div_ceil(RADIX_BITS);
    if passes == 0 {
        return (from, Vec::new());
    }
    // Digits of even width: fewer buckets when the bits split evenly.
    let width = bits.div_ceil(passes);
    let mask = (1u64 << width) - 1;
    let mut to = vec![T::default(); from.len()];
    let mut offsets = vec![0usize; 1 << width];
    for pass in 0..passes {
        let shift = low + pass * width;
        let digit = |item: T| (key(item) >> shift & mask) as usize;
        offsets.fill(0);
        for &item in &from {
            offsets[digit(item)] += 1;
        }
        let mut sum = 0;
        for offset in &mut offsets {
            (*offset, sum) = (sum, sum + *offset);
        }
        for &item in &from {
            let place = &mut offsets[digit(item)];
            to[*place] = item;
            *place += 1;
        }
        std::mem::swap(&mut from, &mut to);
    }
    (from, to)
}

/// The most bits a pass of [`sort_by_time`] orders by: its buckets' counts stay in the cache.
const RADIX_BITS: u32 = 11;

/// A host or entity not yet met in the trace's order ([`Columns::index`]).
const UNSEEN: u32 = u32::MAX;

/// An input event with no compact fields ([`Columns::compact_of`]).
const NONE: u32 = u32::MAX;

/// Which of [`Columns`]' compact lists an event's fields are in: the top two bits of its
/// `compact_of` entry, its place in the list the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Compact {
    ContainerState,
    ScmSide,
    RatisPeer,
    ScmContainer,
}

impl Compact {
    const SHIFT: u32 = 30;

    fn at(self, place: usize) -> u32 {
        let entry = (self as u32) << Compact::SHIFT | place as u32;
        debug_assert!(place < 1 << Compact::SHIFT && entry != NONE);
        entry
    }

    fn of(entry: u32) -> Option<(Compact, usize)> {
        let place = (entry & ((1 << Compact::SHIFT) - 1)) as usize;
        match entry >> Compact::SHIFT {
            _ if entry == NONE => None,
            0 => Some((Compact::ContainerState, place)),
            1 => Some((Compact::ScmSide, place)),
            2 => Some((Compact::RatisPeer, place)),
            _ => Some((Compact::ScmContainer, place)),
        }
    }
}

/// The number of a host or entity in the trace's order: `rank` if it was met before, else the
/// next number (`met` so far).
fn rank_of(rank: &mut u32, met: &mut u32) -> u32 {
    if *rank == UNSEEN {
        *rank = *met;
        *met += 1;
    }
    *rank
}

/// Lists of event ids, one per kind, host or entity, in one allocation: list `k` is
/// `ids[starts[k]..starts[k + 1]]`.
#[derive(Debug, Default)]
struct Lists {
    ids: Vec<EventId>,
    starts: Vec<usize>,
}

impl Lists {
    /// Lists of `counts[k]` ids each, filled from `entries` (an id and its list) in order, in
    /// `buffer` when it holds as many ids (its spare capacity given back; else in fresh memory,
    /// zeroed by the system).
    fn of(
        counts: &[usize],
        entries: impl Iterator<Item = (EventId, usize)>,
        buffer: Vec<EventId>,
    ) -> Lists {
        let mut starts = Vec::with_capacity(counts.len() + 1);
        starts.push(0);
        let mut total = 0;
        for &count in counts {
            total += count;
            starts.push(total);
        }
        let mut ids = if buffer.len() == total {
            let mut buffer = buffer;
            buffer.shrink_to_fit();
            buffer
        } else {
            vec![0; total]
        };
        let mut next = starts[..counts.len()].to_vec();
        for (id, list) in entries {
            ids[next[list]] = id;
            next[list] += 1;
        }
        Lists { ids, starts }
    }

    /// List `list`, empty if there is none.
    fn get(&self, list: usize) -> &[EventId] {
        match (self.starts.get(list), self.starts.get(list + 1)) {
            (Some(&start), Some(&end)) => &self.ids[start..end],
            _ => &[],
        }
    }
}

/// The memory of `items` as as many ids (zero), for [`Lists::of`]: the same allocation when an
/// item is a whole number of ids, aligned as one (the standard library collects in place).
fn as_ids<T>(items: Vec<T>) -> Vec<EventId> {
    items.into_iter().map(|_| 0).collect()
}

/// `items` reordered so that item `k` is the one at `from[k]`: each load independent of the
/// others, so that many misses are in flight (following the permutation's cycles in place
/// waits for each miss before the next).
fn gather<T: Copy>(items: &[T], from: &[u32]) -> Vec<T> {
    from.iter().map(|&at| items[at as usize]).collect()
}

/// `items` reordered so that item `i` is at `rank[i]`, placed in one pass (not sorted); an item
/// never met ([`UNSEEN`]) is left out.
fn in_rank_order<T>(items: Vec<T>, rank: &[u32]) -> Vec<T> {
    let mut placed: Vec<Option<T>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    for (item, &rank) in items.into_iter().zip(rank) {
        if let Some(place) = placed.get_mut(rank as usize) {
            *place = Some(item);
        }
    }
    placed.into_iter().flatten().collect()
}

/// Where an event is: its stream's buffer and its place in it.
#[derive(Debug, Clone, Copy)]
struct Slot {
    stream: u32,
    index: u32,
}

/// Where a run of a stream's events comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Source {
    host: Arc<str>,
    file: Arc<str>,
    component: Component,
}

impl Source {
    fn of(event: &Event) -> Source {
        Source {
            host: Arc::clone(&event.host),
            file: Arc::clone(&event.file),
            component: event.component,
        }
    }

    /// Whether `event` comes from here: a stream's events share their names' copies.
    fn is(&self, event: &Event) -> bool {
        (Arc::ptr_eq(&self.host, &event.host) || self.host == event.host)
            && (Arc::ptr_eq(&self.file, &event.file) || self.file == event.file)
            && self.component == event.component
    }
}

/// A number per event in four bytes when it is less than `u32::MAX` above `base` (a stream's
/// lines), the others kept aside: a reader's columns cost half the memory, held until the merge.
#[derive(Debug, Default)]
struct Narrow {
    base: u64,
    low: Vec<u32>,
    /// The numbers that do not fit, by their event, in order; `low` holds `u32::MAX` for them.
    wide: Vec<(u32, u64)>,
}

impl Narrow {
    fn with_capacity(events: usize) -> Narrow {
        Narrow {
            low: Vec::with_capacity(events),
            ..Narrow::default()
        }
    }

    fn push(&mut self, number: u64) {
        match u32::try_from(number.wrapping_sub(self.base)) {
            Ok(low) if low != u32::MAX => self.low.push(low),
            _ => {
                self.wide.push((self.low.len() as u32, number));
                self.low.push(u32::MAX);
            }
        }
    }

    fn get(&self, i: usize) -> u64 {
        match self.low[i] {
            u32::MAX => {
                let at = self.wide.partition_point(|&(at, _)| (at as usize) < i);
                self.wide[at].1
            }
            low => self.base.wrapping_add(u64::from(low)),
        }
    }
}

/// One bit per event, in order.
#[derive(Debug, Default)]
struct Bits {
    words: Vec<u64>,
    len: usize,
}

impl Bits {
    fn with_capacity(bits: usize) -> Bits {
        Bits {
            words: Vec::with_capacity(bits.div_ceil(64)),
            len: 0,
        }
    }

    /// The bits `bits` yields, in order.
    fn of(bits: impl ExactSizeIterator<Item = bool>) -> Bits {
        let mut all = Bits::with_capacity(bits.len());
        for bit in bits {
            all.push(bit);
        }
        all
    }

    fn push(&mut self, set: bool) {
        if self.len.is_multiple_of(64) {
            self.words.push(0);
        }
        self.words[self.len / 64] |= u64::from(set) << (self.len % 64);
        self.len += 1;
    }

    fn get(&self, at: usize) -> bool {
        self.words[at / 64] & (1 << (at % 64)) != 0
    }
}

/// The (host, file) pairs events come from, numbered as met. A stream's events share one host
/// and one file name, so an event whose names are the previous event's is not looked up.
#[derive(Default)]
struct Sources {
    names: Vec<(Arc<str>, Arc<str>)>,
    /// Kept in order of the names as they are met, most while the readers still read
    /// ([`TraceBuilder::append`]): the merge reads the ranks off ([`Sources::ranks`]) instead
    /// of sorting a thousand paths.
    ids: std::collections::BTreeMap<(Arc<str>, Arc<str>), u32>,
    last: u32,
}

impl Sources {
    fn of(&mut self, source: &Source) -> u32 {
        if let Some((host, file)) = self.names.get(self.last as usize)
            && Arc::ptr_eq(host, &source.host)
            && Arc::ptr_eq(file, &source.file)
        {
            return self.last;
        }
        let next = self.names.len() as u32;
        let id = *self
            .ids
            .entry((Arc::clone(&source.host), Arc::clone(&source.file)))
            .or_insert(next);
        if id == next {
            self.names
                .push((Arc::clone(&source.host), Arc::clone(&source.file)));
        }
        self.last = id;
        id
    }

    /// Each source's rank in (host, file) order.
    fn ranks(&self) -> Vec<u32> {
        let mut rank = vec![0; self.names.len()];
        for (place, &id) in self.ids.values().enumerate() {
            rank[id as usize] = place as u32;
        }
        rank
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::kinds::{Family, Reads};
    use std::collections::BTreeSet;

    pub(crate) fn event(
        host: &str,
        file: &str,
        line: u64,
        ts: Option<i64>,
        entities: Vec<Entity>,
    ) -> Event {
        Event {
            ts,
            entities: entities.into(),
            file: file.into(),
            line,
            ..oztrace_testkit::untyped(host, Component::Scm)
        }
    }

    /// What a trace says of each event (host, line, the entities it names), in order, then its
    /// entities, for comparing two merges of the same streams.
    fn said(trace: &Trace) -> Vec<(String, u64, Vec<Entity>)> {
        (0..trace.len())
            .map(|id| {
                let named = (trace.entity_ids_of(id).iter())
                    .map(|&e| (**trace.entity(e)).clone())
                    .collect();
                let event = trace.get(id);
                (event.host.to_string(), event.line, named)
            })
            .chain((trace.entities()).map(|e| (String::new(), 0, vec![e.clone()])))
            .collect()
    }

    /// Streams whose readers interned their entities in one shared table merge as streams that
    /// each have their own: the same entities, ids and lists, with a window, a stream interned
    /// in another shared table, and a second merge of the same streams (the table was taken).
    #[test]
    fn streams_interned_in_a_shared_table_merge_as_streams_with_their_own() {
        let c = Entity::Container;
        let streams = [
            vec![
                event("dn1", "a", 1, Some(10), vec![c(1), c(2)]),
                event("dn1", "a", 2, Some(30), vec![c(3)]),
            ],
            vec![
                event("dn2", "b", 1, Some(20), vec![c(2), c(4)]),
                event("dn2", "b", 2, Some(40), vec![c(1)]),
            ],
            vec![event("dn3", "c", 1, Some(25), vec![c(4), c(5)])],
        ];
        let own = |keep_first: bool| {
            let streams = streams.iter().enumerate().map(|(i, events)| {
                let mut table = StreamEntities::of(events);
                let mut events = events.clone();
                if i == 0 && !keep_first {
                    table.retain(&[false, true]);
                    events.remove(0);
                }
                (events, Some(table))
            });
            Trace::merge_interned(streams.collect(), 0)
        };
        // The third stream's reader interned it in another table.
        let interned = |tables: &[Arc<SharedEntities>; 2], keep_first: bool| {
            let streams = streams.iter().enumerate().map(|(i, events)| {
                let mut table = StreamEntities::of_shared(events, &tables[usize::from(i == 2)]);
                let mut events = events.clone();
                if i == 0 && !keep_first {
                    table.retain(&[false, true]);
                    events.remove(0);
                }
                (events, Some(table))
            });
            streams.collect::<Vec<_>>()
        };
        let tables = [Arc::default(), Arc::default()];
        let merged = Trace::merge_interned(interned(&tables, true), 0);
        assert_eq!(said(&merged), said(&own(true)));
        assert_eq!(merged.of_entity(&c(4)), [1, 2]);
        // The table was taken: these streams are interned again by the merge.
        let again = Trace::merge_interned(interned(&tables, true), 0);
        assert_eq!(said(&again), said(&own(true)));
        let tables = [Arc::default(), Arc::default()];
        let trace = Trace::merge_interned(interned(&tables, false), 0);
        assert_eq!(said(&trace), said(&own(false)));
        assert_eq!(
            trace.entity_id(&c(1)).map(|e| trace.of_entity_id(e).len()),
            Some(1)
        );
    }

    /// Streams appended to a [`TraceBuilder`] as their readers hand them, one of them windowed,
    /// merge with the streams it did not take (interned in another table, or in none) into the
    /// trace the merge makes of all of them: the same order, events, entities and lists.
    #[test]
    fn streams_appended_as_read_merge_as_the_merge_reads_them() {
        let c = Entity::Container;
        let streams = [
            vec![
                event("dn1", "a", 1, Some(5), vec![c(9)]),
                event("dn1", "a", 2, Some(10), vec![c(1), c(2)]),
                event("dn1", "a", 3, Some(30), vec![c(3)]),
            ],
            vec![
                event("dn2", "b", 1, Some(10), vec![c(2), c(4)]),
                event("dn2", "b", 2, None, vec![c(1)]),
            ],
            vec![event("dn3", "c", 1, Some(10), vec![c(4), c(5)])],
            vec![event("dn0", "d", 7, Some(30), vec![c(1)])],
        ];
        // Without the first stream's first event, as a window drops it.
        let kept = |i: usize, events: &[Event]| events[usize::from(i == 0)..].to_vec();
        let windowed = |i: usize, mut table: StreamEntities| {
            if i == 0 {
                table.retain(&[false, true, true]);
            }
            table
        };
        let whole = Trace::merge_interned(
            (streams.iter().enumerate())
                .map(|(i, events)| {
                    let table = windowed(i, StreamEntities::of(events));
                    (kept(i, events), Some(table))
                })
                .collect(),
            0,
        );
        let mut builder = TraceBuilder::default();
        let other = Arc::default();
        let (mut appended, mut left) = (Vec::new(), Vec::new());
        for (i, events) in streams.iter().enumerate() {
            let table = match i {
                2 => StreamEntities::of_shared(events, &other),
                3 => StreamEntities::of(events),
                _ => StreamEntities::of_shared(events, builder.shared()),
            };
            let mut table = Some(windowed(i, table));
            if builder.append(&mut table) {
                appended.push(kept(i, events));
            } else {
                left.push((kept(i, events), table));
            }
        }
        assert_eq!((appended.len(), left.len()), (2, 2));
        let trace = builder.merge(appended, left, 0);
        assert_eq!(said(&trace), said(&whole));
        assert_eq!(trace.of_entity(&c(1)), whole.of_entity(&c(1)));
        assert_eq!(trace.of_host("dn2"), whole.of_host("dn2"));
        assert_eq!(trace.entity_id(&c(9)), None);
    }

    /// An entity that only events outside a window name is not in the trace: no id, not listed,
    /// and a machine asking for its shared copy gets a fresh one instead of a panic.
    #[test]
    fn an_entity_named_only_outside_the_window_is_not_interned() {
        let (gone, kept) = (Entity::Container(1), Entity::Container(2));
        let events = vec![
            event("dn1", "a", 1, Some(10), vec![gone.clone(), kept.clone()]),
            event("dn1", "a", 2, Some(20), vec![kept.clone()]),
        ];
        let mut table = StreamEntities::of(&events);
        table.retain(&[false, true]);
        let trace = Trace::merge_interned(vec![(events[1..].to_vec(), Some(table))], 0);
        assert_eq!(trace.entity_id(&gone), None);
        assert_eq!(trace.of_entity(&gone), [] as [EventId; 0]);
        assert_eq!(*trace.shared(0, &gone), gone);
        assert_eq!(trace.entities().collect::<Vec<_>>(), [&kept]);
        assert_eq!(trace.entity_ids().count(), 1);
        assert_eq!(trace.of_entity(&kept), [0]);
    }

    /// An event naming more entities than its record counts ([`MANY`]) keeps them all, in the
    /// merge and through a window, and the events after it keep theirs.
    #[test]
    fn an_event_naming_hundreds_of_entities_keeps_them_all() {
        let many: Vec<Entity> = (0..300).map(Entity::Container).collect();
        let events = vec![
            event("dn1", "a", 1, Some(10), vec![Entity::Container(999)]),
            event("dn1", "a", 2, Some(20), many.clone()),
            event("dn1", "a", 3, Some(30), vec![Entity::Container(1000)]),
        ];
        let named = |trace: &Trace, id: EventId| -> Vec<Entity> {
            (trace.entity_ids_of(id).iter())
                .map(|&e| (**trace.entity(e)).clone())
                .collect()
        };
        let trace =
            Trace::merge_interned(vec![(events.clone(), Some(StreamEntities::of(&events)))], 0);
        assert_eq!(named(&trace, 1), many);
        assert_eq!(named(&trace, 2), [Entity::Container(1000)]);
        let mut table = StreamEntities::of(&events);
        table.retain(&[false, true, true]);
        let trace = Trace::merge_interned(vec![(events[1..].to_vec(), Some(table))], 0);
        assert_eq!(named(&trace, 0), many);
        assert_eq!(named(&trace, 1), [Entity::Container(1000)]);
        assert_eq!(trace.of_entity(&Entity::Container(1000)), [1]);
    }

    /// A window's table ([`StreamEntities::retain`]) merges as a table made from the events it
    /// kept: the same order, times, kinds, entities (and no other) and compact lines
    /// (ContainerLogger's, SCM's container lines, the SCM side, the Ratis peers), for windows
    /// that drop a stream's first events, its last, or every other one.
    #[test]
    fn a_windowed_table_merges_as_a_table_of_the_kept_events() {
        let sample = |path: &str, component: Component| {
            let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/");
            let text = std::fs::read_to_string(format!("{root}{path}")).expect("sample");
            oztrace_testkit::typed("host1", component, &text).0
        };
        let streams = [
            sample(
                "HDDS-17400-bug-closed-wording-2-1/docker-compose.log",
                Component::Scm,
            ),
            sample(
                "HDDS-17400-control-newer-data-force-deleted/dn-container-dn5.log",
                Component::DnContainer,
            ),
            sample(
                "HDDS-17269-bug-debug/scm1/scm-audit-scm1.log",
                Component::ScmAudit,
            ),
            sample(
                "HDDS-17269-bug-debug/docker-compose.log",
                Component::Datanode,
            ),
        ];
        // What the merge made of a stream, as comparable text.
        let merged = |events: Vec<Event>, table: StreamEntities| {
            let trace = Trace::merge_interned(vec![(events, Some(table))], 0);
            let mut said: Vec<String> = (0..trace.len())
                .map(|id| {
                    let event = trace.get(id);
                    let entities: Vec<&Entity> = (trace.entity_ids_of(id).iter())
                        .map(|&e| &**trace.entity(e))
                        .collect();
                    let kind = trace.kind_of(id);
                    let line = event.line;
                    format!("{line} {:?} {kind:?} {entities:?}", trace.ts_of(id))
                })
                .collect();
            said.extend(trace.container_state_lines().map(|l| format!("{l:?}")));
            // A host by its name: a window's table keeps the places of the stream's hosts.
            said.extend(trace.scm_container_lines().map(|(id, line)| {
                let host = trace.replica_host(line.datanode_host);
                let line = ScmContainerLine {
                    datanode_host: 0,
                    ..*line
                };
                format!("{id} {line:?} {host}")
            }));
            said.extend(trace.scm_signals().iter().map(|s| format!("{s:?}")));
            said.push(format!("{:?}", trace.quiet_heartbeats()));
            said.extend(trace.ratis_peers().map(|p| format!("{p:?}")));
            // Only the entities the kept events name, in the order they are first named.
            said.extend(trace.entities().map(|e| format!("{e:?}")));
            said
        };
        for events in streams {
            assert!(
                events.len() > 10,
                "{}: {} events only",
                events.first().map_or("?", |e| &*e.file),
                events.len()
            );
            let n = events.len();
            for keep in [
                (0..n).map(|i| i >= n / 3).collect::<Vec<_>>(),
                (0..n).map(|i| i < n / 2).collect(),
                (0..n).map(|i| i % 2 == 1).collect(),
            ] {
                let mut flags = keep.iter();
                let mut kept = events.clone();
                kept.retain(|_| *flags.next().expect("a flag per event"));
                let mut windowed = StreamEntities::of(&events);
                windowed.retain(&keep);
                let fresh = StreamEntities::of(&kept);
                assert_eq!(
                    merged(kept.clone(), windowed),
                    merged(kept.clone(), fresh),
                    "{}",
                    events[0].file
                );
            }
        }
    }

    /// Events of one time and source order by line, also past `u32::MAX`, whatever stream holds
    /// them (one file collected twice).
    #[test]
    fn events_of_one_time_and_source_order_by_their_whole_line() {
        let wide = 1 << 40;
        let streams = [
            vec![
                event("dn1", "a", wide + 5, Some(10), vec![]),
                event("dn1", "a", 7, Some(20), vec![]),
            ],
            vec![
                event("dn1", "a", wide + 1, Some(10), vec![]),
                event("dn1", "a", 3, Some(20), vec![]),
            ],
        ];
        let trace = Trace::merge(streams.to_vec(), 0);
        let lines: Vec<u64> = trace.iter().map(|e| e.line).collect();
        assert_eq!(lines, [wide + 1, wide + 5, 3, 7]);
    }

    /// Times far apart (before a stream's first, weeks after it) and lines too wide for the
    /// readers' four-byte column (past `u32::MAX`) keep their value and their place in the
    /// order, a window included.
    #[test]
    fn times_and_lines_too_wide_for_the_readers_columns_keep_their_order() {
        let weeks = 60 * 24 * 3_600_000;
        let a = vec![
            event("dn1", "a", 1, None, vec![]),
            event("dn1", "a", 2, Some(1_000), vec![]),
            event("dn1", "a", 3, Some(1_000 + weeks), vec![]),
            // Out of order: before the stream's first time.
            event("dn1", "a", 4, Some(-5), vec![]),
            event("dn1", "a", 1 << 40, Some(1_000 + weeks), vec![]),
            event("dn1", "a", (1 << 40) + 1, None, vec![]),
        ];
        let b = vec![
            event("dn2", "b", u64::from(u32::MAX), Some(1_000 + weeks), vec![]),
            event("dn2", "b", 2, Some(500), vec![]),
        ];
        let interned = |streams: &[Vec<Event>]| {
            streams
                .iter()
                .map(|events| (events.clone(), Some(StreamEntities::of(events))))
                .collect::<Vec<_>>()
        };
        let streams = vec![a, b];
        let trace = Trace::merge_interned(interned(&streams), 0);
        let order: Vec<(&str, u64, Option<i64>)> =
            trace.iter().map(|e| (&*e.file, e.line, e.ts)).collect();
        let expected = vec![
            ("a", 4, Some(-5)),
            ("b", 2, Some(500)),
            ("a", 1, None),
            ("a", 2, Some(1_000)),
            ("a", 3, Some(1_000 + weeks)),
            ("a", 1 << 40, Some(1_000 + weeks)),
            ("a", (1 << 40) + 1, None),
            ("b", u64::from(u32::MAX), Some(1_000 + weeks)),
        ];
        assert_eq!(order, expected);
        let times: Vec<Option<i64>> = (0..trace.len()).map(|id| trace.ts_of(id)).collect();
        let printed: Vec<Option<i64>> = expected.iter().map(|&(_, _, ts)| ts).collect();
        assert_eq!(times, printed);
        // A window keeps the columns of the events it keeps.
        let mut cut = interned(&streams);
        let keep = [false, false, true, true, true, true];
        cut[0].1.as_mut().expect("interned").retain(&keep);
        let mut keep = keep.iter();
        cut[0].0.retain(|_| *keep.next().expect("a flag per event"));
        let trace = Trace::merge_interned(cut, 0);
        let order: Vec<(&str, u64)> = trace.iter().map(|e| (&*e.file, e.line)).collect();
        assert_eq!(
            order,
            vec![
                ("a", 4),
                ("b", 2),
                ("a", 3),
                ("a", 1 << 40),
                ("a", (1 << 40) + 1),
                ("b", u64::from(u32::MAX)),
            ]
        );
    }

    /// What the readers keep of the SCM side (compact, by place in their stream) is what the
    /// SCM-side events say, read in trace order, a window included.
    #[test]
    fn the_scm_side_read_by_the_readers_is_what_the_events_say() {
        let audit = |ts: &str, uuid: &str, command: &str| {
            format!(
                "2026-09-14 02:09:{ts} | INFO  | SCMAudit | user=hadoop | ip=172.25.0.22 | \
                 op=SEND_HEARTBEAT {{\"datanodeUUID\":\"{uuid}\",\"term\":\"6\",\
                 \"command\":\"{command}\"}} | ret=SUCCESS | \n"
            )
        };
        let (a, b) = (
            "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27",
            "B2C7E9D4-1F6A-4C3B-8E52-7A9D0C4F6E13",
        );
        let close = "[commandType: closeContainerCommand closeContainerCommandProto { \
                     containerID: 12 pipelineID { id { } } force: false } term: 6]";
        let reregister = "[commandType: reregisterCommand reregisterCommandProto { } term: 0]";
        let text = [
            audit("41,715", a, "[]"),
            audit("42,100", b, reregister),
            audit("43,200", a, close),
            audit("44,300", b, "[]"),
        ]
        .concat();
        let events = oztrace_testkit::events("scm1", Component::ScmAudit, &text);
        let expected = |trace: &Trace| {
            let mut side = ScmSide::default();
            let mut uuids = rustc_hash::FxHashSet::default();
            for id in 0..trace.len() {
                if let Some(of) = endpoint::scm_side_of(trace.get(id), &mut uuids) {
                    side.push(id, of);
                }
            }
            side
        };
        let check = |trace: &Trace, signals: usize| {
            let side = expected(trace);
            assert_eq!(side.signals.len(), signals);
            assert_eq!(trace.scm_signals(), side.signals.as_slice());
            assert_eq!(trace.quiet_heartbeats(), side.quiet.as_slice());
            let mut cursor = IdCursor::default();
            for &(id, term) in &side.heartbeats {
                assert_eq!(trace.heartbeat_term(id, &mut cursor), Some(term));
            }
        };
        let table = StreamEntities::of(&events);
        let trace = Trace::merge_interned(vec![(events.clone(), Some(table))], 0);
        check(&trace, 4);
        assert!(matches!(
            &trace.scm_signals()[2].1,
            ScmSignal::Answered { close_containers, .. } if close_containers == &[12]
        ));
        // A window that drops the first two keeps the others' entries, renumbered.
        let keep = [false, false, true, true];
        let mut table = StreamEntities::of(&events);
        table.retain(&keep);
        let mut kept = events;
        let mut flags = keep.iter();
        kept.retain(|_| *flags.next().expect("a flag per event"));
        let trace = Trace::merge_interned(vec![(kept, Some(table))], 0);
        check(&trace, 2);
        assert_eq!(trace.scm_signals()[1].1.datanode(), b.to_ascii_lowercase());
    }

    /// The readers flag the SCM events whose message prints a datanode as `uuid(host/ip)`: a
    /// REGISTER audit and a heartbeat with a command that print one, not a quiet heartbeat; the
    /// flags follow their events through the merge and a window.
    #[test]
    fn the_datanode_printers_are_the_scm_events_that_print_uuid_host_ip() {
        let audit = |ts: &str, op: &str, params: &str| {
            format!(
                "2026-09-14 02:11:{ts} | INFO  | SCMAudit | user=hadoop | ip=172.25.0.24 | \
                 op={op} {{{params}}} | ret=SUCCESS | \n"
            )
        };
        let uuid = "6c4b2a19-3e5d-4f7a-8b9c-1d2e3f4a5b6c";
        let details = format!("{uuid}(datanode4/172.25.0.24)");
        let scm = [
            audit(
                "05,151",
                "REGISTER",
                &format!("\"datanodeDetails\":\"{details}\""),
            ),
            audit(
                "06,000",
                "SEND_HEARTBEAT",
                &format!("\"datanodeUUID\":\"{uuid}\",\"command\":\"[]\""),
            ),
            audit(
                "07,000",
                "SEND_HEARTBEAT",
                &format!(
                    "\"datanodeUUID\":\"{uuid}\",\"command\":\"[commandType: \
                     reregisterCommand reregisterCommandProto {{ }} term: 0] for {details}\""
                ),
            ),
        ]
        .concat();
        let scm = oztrace_testkit::events("scm1", Component::ScmAudit, &scm);
        let expected = |trace: &Trace| -> Vec<EventId> {
            (0..trace.len())
                .filter(|&id| {
                    let event = trace.get(id);
                    matches!(event.data, EventData::Scm(_))
                        && find_datanode_details(&event.text).next().is_some()
                })
                .collect()
        };
        let trace = Trace::merge_interned(vec![(scm.clone(), Some(StreamEntities::of(&scm)))], 0);
        assert_eq!(trace.len(), 3);
        assert_eq!(trace.quiet_heartbeats().len(), 1);
        let printers = expected(&trace);
        assert_eq!(
            printers.len(),
            2,
            "the REGISTER and the heartbeat with a command"
        );
        assert_eq!(trace.datanode_printers(), printers.as_slice());
        let registrations: Vec<_> = trace.scm_registrations().collect();
        assert_eq!(registrations.len(), 1, "the REGISTER alone");
        // Its printed host read by the readers, through the merge's table.
        assert!(matches!(
            registrations[0],
            (0, ScmSignal::Registered { datanode, host: Some(host), audit: true })
                if **datanode == *uuid && **host == *"datanode4"
        ));
        // A window that drops the REGISTER audit keeps the other's flag.
        let mut table = StreamEntities::of(&scm);
        table.retain(&[false, true, true]);
        let trace = Trace::merge_interned(vec![(scm[1..].to_vec(), Some(table))], 0);
        assert_eq!(trace.datanode_printers(), [1]);
        assert_eq!(trace.datanode_printers(), expected(&trace).as_slice());
    }

    /// What the readers keep of the SCM container lines (compact, by place in their stream, their
    /// hosts by place in their stream's table) is what the events say, in trace order across
    /// streams, a window included; a line naming no container is not kept.
    #[test]
    fn the_scm_container_lines_read_by_the_readers_are_what_the_events_say() {
        use crate::machines::container::tests::scm_event;
        const ICR: &str = "org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler";
        const RM: &str = "org.apache.hadoop.hdds.scm.container.replication.ReplicationManager";
        let d = |container: u64, cstate: &str, rstate: &str, bcsid: u64, index: u32, dn: &str| {
            let cstate = match cstate {
                "NOT_FOUND" => "NOT_FOUND".to_string(),
                state => format!("{state}, sid={bcsid}"),
            };
            format!(
                "Container #{container} ({cstate}) r{index} ({rstate}, bcsid={bcsid}, \
                 origin=9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40, non-empty) from dn \
                 9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40({dn}/10.0.1.11)"
            )
        };
        let send = "Sending command [closeContainerCommand: containerID: 31, force: false] for \
                    container ContainerInfo{id=#31, state=CLOSING} to \
                    9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40(dn1.example.com/10.0.1.11) with datanode \
                    deadline 1 and scm deadline 2";
        let scm1 = vec![
            scm_event(
                "scm1",
                1,
                30,
                ICR,
                &format!(
                    "CLOSE {}",
                    d(11, "CLOSING", "CLOSED", 40, 0, "dn1.example.com")
                ),
            ),
            scm_event(
                "scm1",
                2,
                10,
                RM,
                "Replication Monitor Thread took 5 milliseconds for processing 9 containers.",
            ),
            scm_event("scm1", 3, 50, RM, send),
            scm_event(
                "scm1",
                4,
                60,
                ICR,
                &format!(
                    "FINALIZE (i.e. CLOSING) {}",
                    d(12, "HALF_OPEN", "ODD", 7, 3, "DN6.example.com")
                ),
            ),
        ];
        let scm2 = vec![
            scm_event(
                "scm2",
                1,
                20,
                ICR,
                &format!(
                    "QUASI_CLOSE {}",
                    d(13, "CLOSING", "QUASI_CLOSED", 9, 0, "dn6.example.com")
                ),
            ),
            scm_event(
                "scm2",
                2,
                40,
                "org.apache.hadoop.hdds.scm.container.ContainerReportHandler",
                &format!(
                    "CONTAINER_NOT_FOUND for {}",
                    d(14, "NOT_FOUND", "OPEN", 0, 0, "dn1.example.com")
                ),
            ),
            scm_event(
                "scm2",
                3,
                70,
                ICR,
                &format!(
                    "CLOSE {}",
                    d(11, "CLOSING", "CLOSED", 40, 0, "dn1.example.com")
                ),
            ),
        ];
        // What each event says, read here from its `<D>` alone.
        let check = |trace: &Trace, lines: usize| {
            let mut expected = Vec::new();
            for id in 0..trace.len() {
                let EventData::ScmContainer(data) = &trace.get(id).data else {
                    panic!("only SCM container lines");
                };
                let Some(container) = data.container() else {
                    continue;
                };
                let replica = match data {
                    ScmContainerEvent::Replica(e) => Some((e.action, &e.replica)),
                    _ => None,
                };
                expected.push((id, container, replica));
            }
            assert_eq!(trace.scm_container_lines().len(), lines);
            assert_eq!(expected.len(), lines);
            let mut cursor = IdCursor::default();
            for ((id, line), &(want_id, container, replica)) in
                trace.scm_container_lines().zip(&expected)
            {
                assert_eq!((id, line.container), (want_id, container));
                assert_eq!(trace.scm_container_line_from(id, &mut cursor), Some(line));
                let Some((action, r)) = replica else {
                    assert_eq!(line.action, None);
                    continue;
                };
                assert_eq!(line.action, Some(action));
                let state = match line.container_state {
                    StateWord::Absent => None,
                    StateWord::Known(state) => Some(state.to_string()),
                    StateWord::Other => Some("HALF_OPEN".to_string()),
                };
                assert_eq!(state, r.container_state);
                let replica_state = match line.replica_state {
                    LineState::Known(state) => state.as_str(),
                    LineState::Other => "ODD",
                    LineState::Absent => "",
                };
                assert_eq!(replica_state, r.replica_state);
                assert_eq!((line.bcsid, line.replica_index), (r.bcsid, r.replica_index));
                assert_eq!(&**trace.replica_host(line.datanode_host), r.datanode_host);
            }
            // Lines that name no container are not in the column.
            for id in 0..trace.len() {
                let named = expected.iter().any(|&(at, _, _)| at == id);
                let found = trace.scm_container_line_from(id, &mut IdCursor::default());
                assert_eq!(found.is_some(), named);
            }
        };
        let interned = |streams: &[Vec<Event>]| {
            streams
                .iter()
                .map(|events| (events.clone(), Some(StreamEntities::of(events))))
                .collect::<Vec<_>>()
        };
        let trace = Trace::merge_interned(interned(&[scm1.clone(), scm2.clone()]), 0);
        check(&trace, 6);
        let order: Vec<u64> = trace
            .scm_container_lines()
            .map(|(_, l)| l.container)
            .collect();
        assert_eq!(order, [13, 11, 14, 31, 12, 11]);
        // A window that drops scm1's first and last lines keeps the others', renumbered.
        let keep = [false, true, true, false];
        let mut streams = interned(&[scm1, scm2]);
        streams[0].1.as_mut().expect("interned").retain(&keep);
        let mut flags = keep.iter();
        streams[0]
            .0
            .retain(|_| *flags.next().expect("a flag per event"));
        let trace = Trace::merge_interned(streams, 0);
        check(&trace, 4);
        let order: Vec<u64> = trace
            .scm_container_lines()
            .map(|(_, l)| l.container)
            .collect();
        assert_eq!(order, [13, 14, 31, 11]);
    }

    /// The radix sort orders by every bit in which times differ (a stream with no time at all
    /// sorts first, at `i64::MIN`), keeps equal times in input order, and hands back its buffer.
    #[test]
    fn sort_by_time_is_a_stable_sort_of_any_times() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let spans = [0, 1, 7, 1 << 11, 1 << 12, 1 << 33, u64::MAX];
        // With the extremes, the times do not fit beside their places in one number; without,
        // all but the widest spans do.
        for (span, extremes) in spans
            .into_iter()
            .flat_map(|span| [(span, true), (span, false)])
        {
            let mut times: Vec<u64> = (0..3000)
                .map(|_| (1 << 62) + next() % span.saturating_add(1).max(1) / 2)
                .collect();
            // Repeated times, and the extremes an untimed stream and a negative time give.
            times.extend_from_slice(&[times[5], times[5]]);
            if extremes {
                times.extend_from_slice(&[0, i64::MIN as u64 ^ SIGN, u64::MAX]);
            }
            let mut expected: Vec<u32> = (0..times.len() as u32).collect();
            expected.sort_by_key(|&at| times[at as usize]);
            let ByTime { order, spare, ties } = sort_by_time(&times);
            assert_eq!(order, expected, "span {span}, extremes {extremes}");
            assert!(spare.is_empty() || spare.len() == times.len());
            let expected_ties: Vec<_> = (order
                .chunk_by(|&a, &b| times[a as usize] == times[b as usize]))
            .scan(0, |start, run| {
                *start += run.len() as u32;
                Some(*start - run.len() as u32..*start)
            })
            .filter(|run| run.len() > 1)
            .collect();
            assert!(!expected_ties.is_empty());
            assert_eq!(ties, expected_ties, "span {span}, extremes {extremes}");
        }
        assert_eq!(sort_by_time(&[]).order, Vec::<u32>::new());
        let five = sort_by_time(&[5, 5, 5]);
        assert_eq!(five.order, [0, 1, 2]);
        assert_eq!(five.ties.len(), 1);
        assert_eq!(five.ties[0], 0..3);
    }

    /// A stream without a single time sorts before every timed one; its events keep their
    /// order.
    #[test]
    fn a_stream_without_times_comes_first_in_its_order() {
        let timed = vec![
            event("dn1", "a", 1, Some(1_700_000_000_000), vec![]),
            event("dn1", "a", 2, Some(-3), vec![]),
        ];
        let untimed = vec![
            event("scm1", "b", 9, None, vec![]),
            event("scm1", "b", 4, None, vec![]),
        ];
        let trace = Trace::merge(vec![timed, untimed], 0);
        let order: Vec<(&str, u64)> = trace.iter().map(|e| (&*e.file, e.line)).collect();
        assert_eq!(order, [("b", 4), ("b", 9), ("a", 2), ("a", 1)]);
    }

    /// The merge's columns read already become id lists in their own allocation.
    #[test]
    fn the_columns_read_become_id_lists_in_their_own_memory() {
        fn same_memory<T: Clone>(item: T) {
            let items = vec![item; 1000];
            let at = items.as_ptr() as usize;
            let ids = as_ids(items);
            assert_eq!((ids.as_ptr() as usize, ids.len()), (at, 1000));
            assert!(ids.iter().all(|&id| id == 0));
        }
        same_memory(7u64);
        same_memory(InputEvent {
            run: 1,
            compact: NONE,
            first_entity: 2,
            kind: kinds::index_of("dn_container_state"),
            flags: InputEvent::UNTIMED | InputEvent::PRINTS_DATANODE,
            named: 3,
        });
        assert_eq!(std::mem::size_of::<InputEvent>(), 16);
    }

    /// Lists in one allocation: each list its ids in order, none out of range.
    #[test]
    fn lists_hold_each_list_in_order() {
        let entries = [(0, 2), (1, 0), (2, 2), (3, 2), (4, 0)];
        let lists = Lists::of(&[2, 0, 3], entries.into_iter(), vec![7; 5]);
        assert_eq!(lists.get(0), [1, 4]);
        assert_eq!(lists.get(1), [] as [EventId; 0]);
        assert_eq!(lists.get(2), [0, 2, 3]);
        assert_eq!(lists.get(3), [] as [EventId; 0]);
    }

    #[test]
    fn merges_streams_by_time_and_keeps_untimed_in_place() {
        let a = vec![
            event("scm1", "a", 1, Some(10), vec![]),
            event("scm1", "a", 2, None, vec![]),
            event("scm1", "a", 3, Some(30), vec![]),
        ];
        let b = vec![
            event("dn1", "b", 1, Some(20), vec![]),
            // Out of order inside its file: an async appender wrote it late.
            event("dn1", "b", 2, Some(5), vec![]),
        ];
        let trace = Trace::merge(vec![a, b], 2000);
        let order: Vec<(&str, u64)> = trace.iter().map(|e| (&*e.file, e.line)).collect();
        assert_eq!(
            order,
            vec![("b", 2), ("a", 1), ("a", 2), ("b", 1), ("a", 3)]
        );
    }

    /// The events of some kinds are those whose kind is one of them, in trace order, whether
    /// they are few (read from the lists by kind) or many (a walk of every event's kind).
    #[test]
    fn the_events_of_some_kinds_are_in_trace_order_few_or_many() {
        let root = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../samples/HDDS-17269-bug-debug/"
        );
        let stream = |path: &str, component: Component| {
            let text = std::fs::read_to_string(format!("{root}{path}")).expect("sample");
            oztrace_testkit::typed("host1", component, &text).0
        };
        let trace = Trace::merge(
            vec![
                stream("scm1/scm-audit-scm1.log", Component::ScmAudit),
                stream("docker-compose.log", Component::Datanode),
            ],
            0,
        );
        let present: BTreeSet<KindIndex> = (0..trace.len()).map(|id| trace.kind_of(id)).collect();
        // Each kind, and each two kinds (whose events interleave).
        let of = |kinds: &[KindIndex]| {
            let reads: Vec<Reads> = (kinds.iter())
                .map(|&k| Reads::Kind(kinds::name(k)))
                .collect();
            KindSet::of(&reads)
        };
        let mut sets: Vec<KindSet> = (present.iter())
            .flat_map(|&a| present.iter().map(move |&b| [a, b]))
            .map(|pair| of(&pair))
            .collect();
        sets.push(KindSet::all());
        sets.push(KindSet::of(&[Reads::Family(Family::DnEndpoint)]));
        let (mut few, mut many) = (0, 0);
        for set in &sets {
            let walked: Vec<EventId> = (0..trace.len())
                .filter(|&id| set.contains(trace.kind_of(id)))
                .collect();
            if walked.len() * SPARSE_KINDS < trace.len() {
                few += 1;
            } else {
                many += 1;
            }
            assert_eq!(trace.of_kinds(set).collect::<Vec<_>>(), walked);
        }
        assert!(
            few > 1 && many > 1,
            "{few} sets of few events, {many} of many"
        );
    }

    /// The end of the logs for the kinds a consumer reads: the last timed event of those kinds in
    /// a trace in time order (an untimed one after it is passed over), else the greatest time.
    #[test]
    fn the_latest_time_of_some_kinds_is_their_last_timed_events() {
        let ordered = Trace::from_ordered(
            vec![
                event("scm1", "a", 1, Some(10), vec![]),
                event("dn1", "b", 1, Some(20), vec![]),
                event("scm1", "a", 2, None, vec![]),
            ],
            0,
        );
        assert_eq!(ordered.latest_of_kinds(&KindSet::all()), Some(20));
        assert_eq!(ordered.latest_of_kinds(&KindSet::of(&[])), None);
        let unordered = Trace::from_ordered(
            vec![
                event("scm1", "a", 1, Some(30), vec![]),
                event("dn1", "b", 1, Some(10), vec![]),
            ],
            0,
        );
        assert_eq!(unordered.latest_of_kinds(&KindSet::all()), Some(30));
    }

    #[test]
    fn time_windows_are_id_ranges_and_untimed_events_stay_untimed() {
        let ordered = Trace::from_ordered(
            vec![
                event("scm1", "a", 1, Some(10), vec![]),
                event("scm1", "a", 2, None, vec![]),
                event("dn1", "b", 1, Some(20), vec![]),
                event("dn1", "b", 2, Some(20), vec![]),
                event("scm1", "a", 3, Some(30), vec![]),
            ],
            0,
        );
        assert_eq!(ordered.between(20, 20), 2..4);
        assert_eq!(ordered.between(11, 29), 2..4);
        // The untimed event sits between 10 and 20: inside a window that holds both ends.
        assert_eq!(ordered.between(10, 20), 0..4);
        assert_eq!(ordered.between(31, 40), 5..5);
        assert_eq!((ordered.ts_of(1), ordered.ts_of(2)), (None, Some(20)));
        let latest: Vec<Option<i64>> = (0..5).map(|id| ordered.latest_until(id)).collect();
        assert_eq!(latest, [Some(10), Some(10), Some(20), Some(20), Some(30)]);
        // Walked on from the last window, forward or back, the same ranges as searched.
        let mut cursor = WindowCursor::default();
        for (from, to) in [
            (10, 20),
            (11, 29),
            (20, 20),
            (31, 40),
            (11, 29),
            (0, 5),
            (0, 100),
        ] {
            assert_eq!(
                ordered.between_from(from, to, &mut cursor),
                ordered.between(from, to)
            );
        }
        // Out of time order (a test's hand-made trace): every event may be in any window.
        let unordered = Trace::from_ordered(
            vec![
                event("scm1", "a", 1, Some(30), vec![]),
                event("dn1", "b", 1, Some(10), vec![]),
            ],
            0,
        );
        assert_eq!(unordered.between(10, 10), 0..2);
        assert_eq!(unordered.latest_until(1), Some(30));
        assert_eq!(
            unordered.between_from(10, 10, &mut WindowCursor::default()),
            0..2
        );
    }

    /// From any hint, the same point as a search of the whole list; a far jump asks about a
    /// logarithmic number of entries, not every one between (a fresh cursor far into a long
    /// trace walked every entry before it, quadratic over a machine's hosts).
    #[test]
    fn partition_from_any_hint_is_the_partition_point_and_jumps_by_search() {
        let list: Vec<u32> = [0, 0, 3, 3, 3, 7, 9, 9, 12].to_vec();
        for bound in 0..14 {
            for hint in 0..=list.len() + 2 {
                assert_eq!(
                    partition_from(&list, hint, |&x| x < bound),
                    list.partition_point(|&x| x < bound),
                    "bound {bound} hint {hint}"
                );
            }
        }
        let long: Vec<u32> = (0..1_000_000).collect();
        for (hint, bound) in [(0, 999_999), (999_999, 3), (10, 500_000)] {
            let asked = std::cell::Cell::new(0);
            let at = partition_from(&long, hint, |&x| {
                asked.set(asked.get() + 1);
                x < bound
            });
            assert_eq!(at, bound as usize);
            assert!(asked.get() <= 45, "{} asked from {hint}", asked.get());
        }
    }

    #[test]
    fn ties_in_time_order_by_host_then_file_then_line() {
        // One stream may hold several sources (the OM audit logs folded into one).
        let folded = vec![
            event("om2", "audit", 7, Some(10), vec![]),
            event("om1", "audit", 9, Some(10), vec![]),
        ];
        let other = vec![
            event("om1", "app", 3, Some(10), vec![]),
            event("om1", "audit", 2, Some(10), vec![]),
        ];
        let trace = Trace::merge(vec![folded, other], 2000);
        let order: Vec<(&str, &str, u64)> =
            trace.iter().map(|e| (&*e.host, &*e.file, e.line)).collect();
        assert_eq!(
            order,
            vec![
                ("om1", "app", 3),
                ("om1", "audit", 2),
                ("om1", "audit", 9),
                ("om2", "audit", 7)
            ]
        );
    }

    #[test]
    fn entities_interned_by_the_readers_index_as_the_merge_would() {
        let (c, d) = (Entity::Container(7), Entity::Pipeline("p".into()));
        let streams = || {
            vec![
                vec![
                    event(
                        "scm1",
                        "a",
                        1,
                        Some(10),
                        vec![c.clone(), d.clone(), c.clone()],
                    ),
                    event("scm1", "a", 2, Some(30), vec![d.clone()]),
                ],
                vec![
                    event("dn1", "b", 1, Some(20), vec![d.clone()]),
                    event("dn1", "b", 2, Some(40), vec![]),
                ],
            ]
        };
        let interned = |streams: Vec<Vec<Event>>| -> Vec<(Vec<Event>, Option<StreamEntities>)> {
            streams
                .into_iter()
                .map(|s| {
                    let entities = StreamEntities::of(&s);
                    (s, Some(entities))
                })
                .collect()
        };
        // A table of other events (one was added after it was made) is not used.
        let mut stale = interned(streams());
        stale[1]
            .0
            .push(event("dn1", "b", 3, Some(50), vec![c.clone()]));
        let mut with_late_c = streams();
        with_late_c[1].push(event("dn1", "b", 3, Some(50), vec![c.clone()]));
        for (plain, merged) in [
            (streams(), Trace::merge_interned(interned(streams()), 0)),
            (with_late_c, Trace::merge_interned(stale, 0)),
        ] {
            let plain = Trace::merge(plain, 0);
            assert_eq!(merged.entities().collect::<Vec<_>>(), [&c, &d]);
            assert_eq!(merged.of_entity(&c), plain.of_entity(&c));
            assert_eq!(merged.of_entity(&d), [0, 1, 2]);
            for id in 0..merged.len() {
                assert_eq!(merged.entity_ids_of(id), plain.entity_ids_of(id));
            }
        }
        assert_eq!(Trace::merge(streams(), 0).of_entity(&c), [0]);
        // The window keeps a table in step with its stream's events.
        let mut windowed = interned(streams());
        let keep = [true, false];
        if let Some(entities) = &mut windowed[0].1 {
            entities.retain(&keep);
        }
        windowed[0].0.truncate(1);
        // Flags that are not one per event leave nothing the merge could misread.
        if let Some(entities) = &mut windowed[1].1 {
            entities.retain(&[true]);
        }
        let trace = Trace::merge_interned(windowed, 0);
        assert_eq!(trace.of_entity(&d), [0, 1]);
        assert_eq!(trace.entity_ids_of(0).len(), 2);
    }

    #[test]
    fn indexes_and_skew_tolerant_order() {
        let c = Entity::Container(7);
        let trace = Trace::from_ordered(
            vec![
                event("scm1", "a", 1, Some(1_000), vec![c.clone(), c.clone()]),
                event("dn1", "b", 1, Some(900), vec![c.clone()]),
                event("dn1", "b", 2, None, vec![]),
            ],
            200,
        );
        assert_eq!(trace.of_entity(&c), &[0, 1]);
        assert_eq!(trace.of_host("dn1"), &[1, 2]);
        // dn1's clock may be behind by up to 200 ms: scm1@1000 can precede dn1@900.
        assert!(trace.before(0, 1));
        assert!(trace.before(1, 0));
        assert!(!trace.before(0, 2));
        assert_eq!(trace.elapsed(1, 0), Some(100));
    }
}
