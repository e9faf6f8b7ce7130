//! The replay half of record-and-replay, and the one pipeline that feeds it ([`load`]).
//!
//! [`trace`] merges per-stream event buffers into one time order across hosts; [`graph`] links
//! events per host, per entity and by causality; [`machine`] is the framework of reference state
//! machines and [`machines`] the models of Ozone's own lifecycles. Rules read all of these
//! through [`Analysis`].

pub mod graph;
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
