//! What the rules' tests share: log text typed by the real catalogue ([`events`], from
//! `oztrace-testkit`), analysed, and one rule run over it.

use crate::{Context, LoggingCoverage, Output, Rule, Settings};
use oztrace_analyzer::trace::Trace;
use oztrace_analyzer::{Analysis, ReplayOptions};
use oztrace_parser::event::Event;
pub use oztrace_testkit::events;

/// The clock skew the tests' traces tolerate between hosts (`--skew` 2 s).
pub const SKEW_MS: i64 = 2_000;

/// `rule` over the streams, merged in time order and analysed, with the default settings and no
/// DEBUG logger on.
pub fn run(rule: &dyn Rule, streams: Vec<Vec<Event>>) -> Output {
    run_with(
        rule,
        streams,
        &Settings::default(),
        &LoggingCoverage::default(),
    )
}

/// [`run`] with settings and the loggers the hosts have at DEBUG or TRACE.
pub fn run_with(
    rule: &dyn Rule,
    streams: Vec<Vec<Event>>,
    settings: &Settings,
    logging: &LoggingCoverage,
) -> Output {
    let analysis = Analysis::run(Trace::merge(streams, SKEW_MS), ReplayOptions::default());
    let context = Context {
        analysis: &analysis,
        settings,
        logging,
    };
    let mut out = Output::default();
    rule.check(&context, &mut out);
    out
}
