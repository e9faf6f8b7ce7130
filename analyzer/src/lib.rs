//! The replay half of record-and-replay, and the one pipeline that feeds it ([`load()`]).
//!
//! [`load()`] reads the inputs (files across cores, [`prefilter`] for `scan`); [`trace`] merges
//! per-stream event buffers into one time order across hosts; [`graph`] links events by
//! causality; [`machine`] is the framework of reference state machines and [`machines`] the
//! models of Ozone's own lifecycles. Rules read all of these through [`Analysis`].
//!
//! # Memory
//!
//! Memory follows the events the consumers need, not the input's size:
//!
//! - The bulk of a bundle (OM audit key records) is counted, never parsed or kept, unless its key
//!   has an anchor its consumers declare ([`prefilter::ANCHORED`]); untyped records are never
//!   kept; thread and logger names are shared per stream.
//! - The merge permutes one vector in place (events are never held twice); the graph holds causal
//!   edges only, per-host and per-entity order being the trace's indexes.
//!
//! What is kept is still every event of the kinds the machines and rules read, from the whole
//! input: a 4 GB generated bundle keeps about twice what a 1 GB one does (284 MB against 152 MB
//! peak RSS, `scripts/bench.sh`). The design that makes memory follow live entity state, left to
//! do, replaces the whole-trace vector with a time-ordered k-way merge across streams (each
//! stream is read in order already; a heap of stream heads gives the global order, with
//! `--skew` of look-ahead) feeding the machines as it goes, and keeps per entity only:
//!
//! - low-volume kinds (role changes, truncations, step-downs, admin-state and container-state
//!   changes), retained for the whole run;
//! - high-volume kinds (per-key audit, per-chunk and per-report lines, heartbeats), retained
//!   while their entity is live (its machine state not terminal) or within the window the
//!   consumers declare around an anchor (as [`prefilter::ANCHORED`] does for keys), and evicted
//!   after `--retain` of log time or at their lifecycle's end.
//!
//! Rules then read per-entity histories and one shared index of cluster facts (block →
//! container → pipeline, host ↔ datanode UUID, leadership intervals) maintained by the merge,
//! instead of scanning `trace.events` and building their own indexes; each rule's whole-trace
//! scans (`trace.events.iter()`) become queries of those indexes.

pub mod copies;
pub mod facts;
pub mod graph;
pub mod kinds;
pub mod load;
pub mod machine;
pub mod machines;
pub mod prefilter;
pub mod trace;

pub use load::{LoadOptions, Loaded, load};

use graph::{EventGraph, Linker};
use machine::{Machine, Replay};
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
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            retain_ms: 14 * 24 * 3600 * 1000,
        }
    }
}

impl Analysis {
    /// Builds the graph and replays every registered machine over the trace.
    pub fn run(trace: Trace, options: ReplayOptions) -> Analysis {
        let linkers = machines::linkers();
        let linker_refs: Vec<&dyn Linker> = linkers.iter().map(|l| l.as_ref()).collect();
        let mut models: Vec<Box<dyn Machine>> = machines::all();
        // The graph and the machines read the trace only: both at once.
        let (graph, replay) = rayon::join(
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
