//! What the rules' tests share: log text typed by the real catalogue ([`events`], from
//! `oztrace-testkit`), analysed, and one rule run over it.

use crate::{Context, LoggingCoverage, Output, Rule, Settings};
use oztrace_analyzer::trace::Trace;
use oztrace_analyzer::{Analysis, ReplayOptions};
use oztrace_parser::event::Event;
use oztrace_parser::source::Component;
pub use oztrace_testkit::events;

/// The events of `(host, component, line)`s (a line without its newline), each numbered by its
/// place in the list, as one file's lines.
pub fn numbered<'a>(lines: impl IntoIterator<Item = (&'a str, Component, String)>) -> Vec<Event> {
    let mut all = Vec::new();
    for (n, (host, component, line)) in lines.into_iter().enumerate() {
        all.extend(
            events(host, component, &(line + "\n"))
                .into_iter()
                .map(|mut event| {
                    event.line = n as u64 + 1;
                    event
                }),
        );
    }
    all
}

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
