//! The replay half of record-and-replay, and the one pipeline that feeds it ([`load()`]).
//!
//! [`load()`] reads the inputs (files across cores, [`prefilter`] for `scan`); [`trace`] merges
//! per-stream event buffers into one time order across hosts and indexes it; [`graph`] links events by
//! causality; [`machine`] is the framework of reference state machines and [`machines`] the
//! models of Ozone's own lifecycles. Rules read all of these through [`Analysis`].
//!
//! # Memory
//!
//! Memory follows the events the consumers read, not the input's size:
//!
//! - Every machine, linker and rule declares the kinds it consumes ([`kinds`]), and every rule
//!   the machines whose steps it reads: `scan` replays only those machines. `scan` parses
//!   only what can be read: the bulk of a bundle (OM audit key records) is counted, never parsed,
//!   unless its key has an anchor its consumers declare ([`prefilter::ANCHORED`]); a typed record
//!   of a kind no consumer reads (snapshots, service summaries, successful datanode audit
//!   records) is counted and dropped ([`prefilter::keeps`]); untyped records are never kept.
//! - The trace interns entities and hosts ([`trace::EntityId`], [`trace::HostId`]); its indexes
//!   (by host, entity and kind) and the machines key their state by those ids; transitions share
//!   the interned entities and carry constant state labels.
//! - OM audit copies are folded in a bounded window as the OM audit logs are read side by side
//!   ([`copies`], `load::read_audit_merged`): `events` holds that window, not the logs.
//! - The graph holds causal edges only, per-host and per-entity order being the trace's indexes;
//!   the cluster's facts (block → container → group → pipeline, host ↔ datanode) are one index
//!   read once ([`facts`]).
//!
//! What is kept is still every event of the kinds the consumers read, from the whole input: on
//! the generated bundles, 72 hours of a cluster per GiB, `scan` peaks at about 81 MB at 1 GiB and
//! 182 MB at 4 GiB (288 hours), most of it the datanodes' container lifecycle and Ratis lines.
//! The rest of the design, left to do: a time-ordered k-way merge of every stream (as
//! `load::read_audit_merged` does for the OM audit) feeding the machines as it goes, with
//! per-entity retention: low-volume kinds (role changes, truncations, step-downs, admin-state and
//! container-state changes) for the whole run, high-volume kinds (per-replica lifecycle lines,
//! heartbeats, snapshots) only while their entity is live or near a declared anchor, evicted
//! after `--retain` or their lifecycle's end; the rules then read per-entity histories and
//! [`facts`] instead of the whole trace.

mod cache;
pub mod copies;
pub mod cores;
pub mod facts;
pub mod graph;
pub mod kinds;
pub mod load;
pub mod machine;
pub mod machines;
mod names;
pub mod prefilter;
pub mod replicas;
pub mod trace;

pub use load::{LoadOptions, Loaded, load};

use graph::{EventGraph, Linker};
use machine::{Machine, Replay};
use machines::MachineSet;
use trace::Trace;

/// Everything rules read: the trace, its graph and the machines' transitions.
pub struct Analysis {
    pub trace: Trace,
    pub graph: EventGraph,
    pub replay: Replay,
}

/// Options of the replay.
#[derive(Debug, Clone, Copy)]
pub struct ReplayOptions {
    /// Entities idle longer than this (log time) are dropped from live state (`--retain`).
    pub retain_ms: i64,
    /// The machines replayed: every one, or (`scan`) those whose transitions its rules read.
    pub machines: MachineSet,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            retain_ms: 14 * 24 * 3600 * 1000,
            machines: MachineSet::ALL,
        }
    }
}

impl Analysis {
    /// Builds the graph and replays the machines `options` selects over the trace.
    pub fn run(trace: Trace, options: ReplayOptions) -> Analysis {
        let linkers = machines::linkers();
        let linker_refs: Vec<&dyn Linker> = linkers.iter().map(|l| l.as_ref()).collect();
        let mut models: Vec<Box<dyn Machine>> = machines::selected(options.machines);
        // The graph and the machines read the trace only: both at once.
        let (graph, replay) = cores::join(
            || EventGraph::build(&trace, &linker_refs),
            || Replay::run(&trace, &mut models, options.retain_ms),
        );
        Analysis {
            trace,
            graph,
            replay,
        }
    }
}
