//! A hand-made report for tests: three hosts, two findings, a causal link, an untimed line, and
//! log text written to break out of HTML, Markdown and terminals.

use super::{Document, ReportInputs};
use oztrace_analyzer::Analysis;
use oztrace_analyzer::graph::{EventGraph, Linker, Reason};
use oztrace_analyzer::machine::Replay;
use oztrace_analyzer::trace::{EventId, Trace};
use oztrace_parser::entity::Entity;
use oztrace_parser::event::Event;
use oztrace_parser::input::Unreadable;
use oztrace_parser::source::{Component, Level};
use oztrace_parser::time::format_rfc3339;
use oztrace_rules::{Confidence, Evidence, Finding, Gap, Output, Role};
use std::sync::Arc;

/// 2026-08-20T11:02:47.000Z
pub const T0: i64 = 1_787_223_767_000;
pub const HOSTILE_SCRIPT: &str = "<script>alert(\"pwned\")</script>";
pub const HOSTILE_ATTR: &str = "\" onmouseover=\"alert(1)";
pub const HOSTILE_IMG: &str = "'><img src=x onerror=alert(2)>";
pub const DATANODE: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13";

fn event(ts: Option<i64>, host: &str, component: Component, line: u64, text: &str) -> Event {
    Event {
        ts,
        level: Some(Level::Info),
        file: Arc::from(format!("{host}/ozone-{}.log", component.as_str())),
        line,
        text: text.into(),
        ..oztrace_testkit::untyped(host, component)
    }
}

/// Links the SCM close (event 0) to dn2's report of it (event 2).
struct CloseReported;

impl Linker for CloseReported {
    fn name(&self) -> &'static str {
        "close-reported"
    }
    fn consumes(&self) -> &'static [oztrace_analyzer::kinds::Reads] {
        &[]
    }
    fn link(&self, _trace: &Trace, out: &mut Vec<(EventId, EventId, Reason)>) {
        out.push((0, 2, "dn2 reports the replica SCM closed".into()));
    }
}

pub fn analysis() -> Analysis {
    let events = vec![
        event(
            Some(T0),
            "scm1",
            Component::Scm,
            1234,
            "Container #1051 is closed",
        ),
        event(
            Some(T0 + 500),
            "dn1",
            Component::Datanode,
            77,
            &format!("{HOSTILE_SCRIPT} and {HOSTILE_ATTR}"),
        ),
        event(Some(T0 + 1200), "dn2", Component::Datanode, 9, HOSTILE_IMG),
        event(
            None,
            "dn1",
            Component::Datanode,
            78,
            "\x1b[31mred\x1b[0m `x` | y",
        ),
        event(
            Some(T0 + 3000),
            "scm1",
            Component::Scm,
            1300,
            "heartbeat dropped",
        ),
    ];
    let trace = Trace::from_ordered(events, 2000);
    let graph = EventGraph::build(&trace, &[&CloseReported]);
    let replay = Replay::run(&trace, &mut [], i64::MAX);
    Analysis {
        trace,
        graph,
        replay,
    }
}

pub fn output() -> Output {
    let evidence = |event, role, note: &str| Evidence {
        event,
        role,
        note: note.to_string(),
    };
    Output {
        findings: vec![
            Finding {
                rule: "dropped-actions",
                entity: Entity::Key("/vol/bucket/<b>key</b>".into()),
                related: Vec::new(),
                confidence: Confidence::Possible,
                reason: "only the effect is logged".into(),
                summary: "Heartbeat actions were dropped for <b>key</b>.".into(),
                evidence: vec![evidence(4, Role::Cause, "dropped")],
            },
            Finding {
                rule: "resurrected-container",
                entity: Entity::Container(1051),
                related: vec![Entity::Datanode(DATANODE.into())],
                confidence: Confidence::Confirmed,
                reason: "SCM closed the container and a stale replica brought it back".into(),
                summary: "Container 1051 was resurrected by a stale replica.".into(),
                // Out of order on purpose: the report sorts evidence by time.
                evidence: vec![
                    evidence(2, Role::Effect, "stale replica reported"),
                    evidence(3, Role::Context, "no time"),
                    evidence(0, Role::Cause, "SCM closes the container"),
                    evidence(1, Role::Context, "hostile text"),
                ],
            },
        ],
        gaps: vec![Gap {
            rule: "dropped-actions",
            missing: "heartbeat actions at DEBUG".into(),
            enable: vec![
                "log4j.logger.org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask=DEBUG"
                    .into(),
            ],
            hosts: vec!["dn2".into(), "dn1".into()],
        }],
    }
}

pub fn inputs() -> ReportInputs {
    ReportInputs {
        files: 3,
        bytes: 4096,
        records: 40,
        typed_events: 5,
        unrecognized: 35,
        unreadable: vec![Unreadable {
            path: "dn3/ozone.log.gz".into(),
            reason: "corrupt gzip stream".into(),
        }],
        hosts: vec!["dn1".into(), "dn2".into(), "scm1".into()],
        components: vec!["datanode", "scm"],
        releases: vec!["2.0.0".into()],
        first_seen: Some(format_rfc3339(T0 - 60_000)),
        last_seen: Some(format_rfc3339(T0 + 1200)),
        first_ms: Some(T0 - 60_000),
        last_ms: Some(T0 + 1200),
    }
}

pub fn document() -> Document {
    // No rule registered: both findings are of the default severity whatever the registry holds.
    Document::build_with(&analysis(), &output(), inputs(), |_| None)
}
