//! The layouts real Ozone deployments write, and detection of the one a file uses.
//!
//! Each layout is the log4j ConversionPattern that produces it, compiled by [`crate::pattern`].
//! Sources: `hadoop-ozone/dist/src/shell/conf/log4j.properties` (RFA/DRFA file layout and the
//! `%c{2}` console layout), `*-audit-log4j2.properties` and `dn-container-log4j2.properties`
//! (log4j2 `|` layouts), and layouts seen in logs posted from real clusters
//! (../shared/ozone-logs/README.md): vendor-managed without thread, `[%t]-%c` glued, the test
//! layout, old docker images without millis, and console output without a timestamp.
//!
//! In front of the log4j header a line may carry a wrapper ([`crate::frame`]: a docker-compose
//! prefix, `kubectl logs --prefix`, journalctl, a viewer's stamp, …); detection picks the wrapper
//! and the layout together.

use crate::frame::Framing;
use crate::pattern::{Header, Pattern};
use crate::source::Level;
use std::sync::{Arc, OnceLock};

/// A named, compiled layout.
#[derive(Debug, Clone)]
pub struct Layout {
    pub name: String,
    pub pattern: Pattern,
}

impl Layout {
    pub fn custom(pattern: &str) -> Result<Layout, crate::pattern::PatternError> {
        Ok(Layout {
            name: format!("custom `{pattern}`"),
            pattern: Pattern::compile(pattern)?,
        })
    }
}

/// Built-in layouts, most specific first so that ties in detection go to the stricter pattern.
const BUILTIN_PATTERNS: &[(&str, &str)] = &[
    // log4j2 audit appenders (OMAudit, OMSystemAudit, SCMAudit, DNAudit).
    (
        "audit",
        "%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n",
    ),
    // dn-container-log4j2.properties (ContainerLog).
    (
        "dn-container",
        "%d{DEFAULT} | %-5level | %msg | %throwable{3} %n",
    ),
    ("test", "%d{ISO8601} [%t] %p %c{2} (%F:%M(%L)) - %m%n"),
    // RFA/DRFA (`%c`) and console (`%c{2}`) match the same lines; see `Layout::display_name`.
    ("file", "%d{ISO8601} [%t] %p %c: %m%n"),
    ("glued", "%d{ISO8601} %p [%t]-%c: %m%n"),
    // Hadoop distributions that put the level before the thread.
    ("level-thread", "%d{ISO8601} %p [%t] %c: %m%n"),
    ("vendor", "%d{ISO8601} %p %c: %m%n"),
    ("old-docker", "%d{yyyy-MM-dd HH:mm:ss} %-5p %c{1}:%L - %m%n"),
    // `ozone insight logs`: LogStreamServlet's `%d [%p|%c|%C{1}] %m%n`. `%C{1}` repeats the
    // logger's class, so it is spelled as a conversion whose text is not kept.
    ("insight", "%d [%p|%c|%X{C}] %m%n"),
    // Layouts without `%d`, and headers whose time was cut off: untimed records.
    ("no-timestamp", "[%t] %p %c: %m%n"),
    ("no-timestamp-test", "%-5p %c{2} (%F:%M(%L)) - %m%n"),
    ("no-timestamp-old-docker", "%-5p %c{1}:%L - %m%n"),
    ("no-timestamp-vendor", "%p %c: %m%n"),
];

/// The built-in layouts, compiled once.
pub fn builtin_layouts() -> &'static [Arc<Layout>] {
    static LAYOUTS: OnceLock<Vec<Arc<Layout>>> = OnceLock::new();
    LAYOUTS.get_or_init(|| {
        BUILTIN_PATTERNS
            .iter()
            .map(|(name, pattern)| {
                Arc::new(Layout {
                    name: (*name).to_string(),
                    pattern: Pattern::compile(pattern).expect("built-in layouts compile"),
                })
            })
            .collect()
    })
}

/// The name `oztrace stats` shows: the file and console layouts differ only in how the logger
/// is abbreviated, which the logger names themselves reveal.
pub fn display_name(layout: &Layout, sample_logger: Option<&str>) -> String {
    match (layout.name.as_str(), sample_logger) {
        ("file", Some(logger)) if logger.matches('.').count() <= 1 => "console".to_string(),
        _ => layout.name.clone(),
    }
}

/// A file's layout as detected from its first lines.
#[derive(Debug, Clone)]
pub struct Detected {
    pub layout: Arc<Layout>,
    /// The wrapper in front of the log4j line.
    pub framing: Framing,
}

/// Picks the wrapper and the layout that read the most of `lines` as headers; on a tie, a timed
/// layout (`[pod/scm-0/scm] 2027-… [t] INFO …` is no untimed `[%t] %p` line with a long thread),
/// then the earlier wrapper. A wrapper other than plain must frame most non-blank lines. `preferred` (from `--layout` or the bundle's
/// log4j.properties) wins when it reads at least as many lines as the best built-in; otherwise
/// detection falls back to the built-ins.
pub fn detect<S: AsRef<str>>(lines: &[S], preferred: Option<&Arc<Layout>>) -> Option<Detected> {
    let non_empty = lines
        .iter()
        .filter(|l| !l.as_ref().trim().is_empty())
        .count();
    let mut best: Option<((usize, bool), Detected)> = None;
    for framing in Framing::ALL {
        let rests: Vec<&str> = lines
            .iter()
            .filter_map(|l| framing.split(l.as_ref()).map(|f| f.rest))
            .collect();
        if framing != Framing::Plain && rests.len() * 2 <= non_empty {
            continue;
        }
        if let Some((count, layout)) = best_layout(&rests, preferred)
            && let score = (count, layout.pattern.has_time())
            && best.as_ref().is_none_or(|(b, _)| score > *b)
        {
            best = Some((
                score,
                Detected {
                    layout: Arc::clone(layout),
                    framing,
                },
            ));
        }
    }
    best.map(|(_, detected)| detected)
}

fn best_layout<'l>(
    lines: &[&str],
    preferred: Option<&'l Arc<Layout>>,
) -> Option<(usize, &'l Arc<Layout>)> {
    let score = |layout: &Layout| {
        lines
            .iter()
            .filter(|l| layout.pattern.parse(l).is_some())
            .count()
    };
    let mut best: Option<(usize, &Arc<Layout>)> = None;
    for layout in builtin_layouts() {
        let s = score(layout);
        if s > 0 && best.is_none_or(|(b, _)| s > b) {
            best = Some((s, layout));
        }
    }
    if let Some(preferred) = preferred {
        let s = score(preferred);
        if s > 0 && best.is_none_or(|(b, _)| s >= b) {
            best = Some((s, preferred));
        }
    }
    best
}

/// Parses a header with the file's layout, then with the other built-ins for lines that could
/// be a header of another layout (mixed streams, headers cut off before the level); stack-trace
/// lines skip the fallback.
pub fn parse_header<'a>(
    line: &'a str,
    primary: &Layout,
) -> Option<(Header<'a>, Option<&'static Arc<Layout>>)> {
    if let Some(h) = primary.pattern.parse(line) {
        return Some((h, None));
    }
    if !could_be_header(line) {
        return None;
    }
    builtin_layouts()
        .iter()
        .filter(|l| l.name != primary.name)
        .find_map(|l| l.pattern.parse(line).map(|h| (h, Some(l))))
}

/// A line starting with a digit (a date), `[` (a thread) or a level and a space.
fn could_be_header(line: &str) -> bool {
    match line.as_bytes().first() {
        Some(b) if b.is_ascii_digit() || *b == b'[' => true,
        Some(b) if b.is_ascii_uppercase() => line
            .split_once(' ')
            .is_some_and(|(word, _)| Level::parse(word).is_some()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_name(name: &str) -> &'static Arc<Layout> {
        builtin_layouts().iter().find(|l| l.name == name).unwrap()
    }

    fn detect_name(lines: &[&str]) -> (String, Framing) {
        let d = detect(lines, None).unwrap();
        (d.layout.name.clone(), d.framing)
    }

    #[test]
    fn detects_each_builtin_layout() {
        let cases: &[(&str, &str)] = &[
            (
                "audit",
                "2026-08-20 14:02:10,331 | INFO  | SCMAudit | user=hadoop | ip=10.0.0.21 | op=DECOMMISSION_NODES {\"nodes\":\"[dn3]\",\"force\":\"false\"} | ret=SUCCESS |  ",
            ),
            (
                "dn-container",
                "2026-03-04 10:15:22,481 | INFO  | ID=1042 | Index=0 | BCSID=88213 | State=CLOSING | Volume=/data/disk3/hdds | DataChecksum=0 |  ",
            ),
            (
                "test",
                "2026-01-02 03:04:05,678 [main] INFO node.SCMNodeManager (SCMNodeManager.java:register(412)) - Registered",
            ),
            (
                "file",
                "2026-08-20 14:02:10,331 [scm1-DatanodeAdminManager-0] INFO org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl: msg",
            ),
            (
                "glued",
                "2026-08-20 14:02:10,331 INFO [IPC Server handler 3 on default port 9861]-org.apache.hadoop.hdds.scm.node.SCMNodeManager: msg",
            ),
            (
                "vendor",
                "2026-08-20 14:02:10,331 INFO org.apache.hadoop.hdds.scm.node.SCMNodeManager: msg",
            ),
            (
                "old-docker",
                "2021-03-01 10:00:01 INFO  SCMNodeManager:412 - Registered Data node",
            ),
            ("no-timestamp", "[main] INFO node.SCMNodeManager: msg"),
            // `%-5p` instead of `%p`, log4j2's `T` in ISO8601, a kubectl stamp in front.
            (
                "file",
                "2026-08-20 14:02:10,331 [main] INFO  org.apache.hadoop.hdds.scm.node.SCMNodeManager: msg",
            ),
            (
                "file",
                "2026-08-20T14:02:10,331 [main] WARN  org.apache.hadoop.hdds.scm.node.SCMNodeManager: msg",
            ),
            (
                "file",
                "2026-08-20T14:02:10.331847123Z 2026-08-20 14:02:10,331 [main] INFO org.apache.hadoop.ozone.om.OzoneManager: msg",
            ),
            (
                "vendor",
                "2026-08-20 14:02:10,331 INFO  org.apache.hadoop.hdds.scm.node.SCMNodeManager: msg",
            ),
        ];
        for (name, line) in cases {
            assert_eq!(
                detect_name(&[line, "\tat x.Y.z(Y.java:1)"]).0,
                *name,
                "{line}"
            );
        }
    }

    #[test]
    fn console_layout_is_named_by_its_loggers() {
        let file = by_name("file");
        assert_eq!(display_name(file, Some("node.SCMNodeManager")), "console");
        assert_eq!(
            display_name(file, Some("org.apache.hadoop.hdds.scm.node.SCMNodeManager")),
            "file"
        );
    }

    #[test]
    fn detects_compose_streams() {
        let (name, framing) = detect_name(&[
            "om1_1       | 2026-08-20 14:02:10,331 [main] INFO om.OzoneManager: a",
            "scm1_1      | 2026-08-20 14:02:10,332 [main] INFO node.SCMNodeManager: b",
            "scm1_1      | \tat org.X.y(X.java:1)",
        ]);
        assert_eq!((name.as_str(), framing), ("file", Framing::Compose));
        let (name, framing) = detect_name(&[
            "dn-2  | [grpc-default-executor-3] INFO impl.RaftServerImpl: a",
            "dn-1  | [main] WARN statemachine.EndpointStateMachine: b",
        ]);
        assert_eq!((name.as_str(), framing), ("no-timestamp", Framing::Compose));
    }

    #[test]
    fn detects_wrappers_by_content() {
        // shippers.md 8.1: `kubectl logs --prefix --timestamps`, Ozone's k8s layout.
        let (name, framing) = detect_name(&[
            "[pod/datanode-0/datanode] 2027-06-12T10:38:25.118734012Z 2027-06-12 10:38:25 WARN  EndpointStateMachine:242 - Unable to communicate to SCM server at scm-0.scm.default.svc.cluster.local:9861 past 60 seconds.",
            "[pod/datanode-0/datanode] 2027-06-12T10:38:25.118801331Z \tat org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:863)",
        ]);
        assert_eq!(
            (name.as_str(), framing),
            ("old-docker", Framing::KubectlPrefix)
        );
        // shippers.md 7.3: journalctl -o short-iso over the shipped console layout.
        let (name, framing) = detect_name(&[
            "2027-06-12T10:38:22+00:00 scm1.example.com ozone[48211]: 2027-06-12 10:38:22,336 [scm1-ReplicationMonitor] INFO replication.ReplicationManager: Replication Monitor Thread took 12 milliseconds for processing 840 containers.",
        ]);
        assert_eq!((name.as_str(), framing), ("file", Framing::JournalShort));
        // Docker Desktop: the viewer's local time before the log4j time.
        let (name, framing) = detect_name(&[
            "2024-05-13 10:22:31 2024-05-13 08:22:31,123 [main] INFO om.OzoneManager: x",
        ]);
        assert_eq!((name.as_str(), framing), ("file", Framing::LocalStamp));
        // The old docker layout itself starts with such a stamp: plain wins the tie.
        let (name, framing) =
            detect_name(&["2021-03-01 10:00:01 INFO  SCMNodeManager:412 - Registered Data node"]);
        assert_eq!((name.as_str(), framing), ("old-docker", Framing::Plain));
        // LogSubcommand + LogStreamServlet `%d [%p|%c|%C{1}] %m%n`.
        let (name, framing) = detect_name(&[
            "[SCM] 2026-08-20 14:02:10,331 [INFO|org.apache.hadoop.hdds.scm.node.SCMNodeManager|SCMNodeManager] Registered datanode: x",
        ]);
        assert_eq!((name.as_str(), framing), ("insight", Framing::Insight));
    }

    #[test]
    fn headers_without_a_time() {
        // The test layout with its date cut off (issue 18 item 6).
        let (name, _) = detect_name(&[
            "INFO  node.SCMNodeManager (SCMNodeManager.java:register(412)) - Registered datanode: x",
        ]);
        assert_eq!(name, "no-timestamp-test");
        let (h, _) = parse_header(
            "WARN  EndpointStateMachine:242 - Unable to communicate to SCM server at scm-0:9861 past 60 seconds.",
            by_name("file"),
        )
        .unwrap();
        assert_eq!((h.time, h.level), (None, Some(Level::Warn)));
        assert_eq!(h.logger, Some("EndpointStateMachine"));
        let (h, _) = parse_header(
            "ERROR org.apache.hadoop.ozone.om.OzoneManager: failed",
            by_name("file"),
        )
        .unwrap();
        assert_eq!(h.message, "failed");
        assert!(parse_header("INFORMATION: nothing", by_name("file")).is_none());
    }

    #[test]
    fn preferred_layout_falls_back_when_it_reads_nothing() {
        let custom = Arc::new(Layout::custom("%d{ISO8601} <%p> %c - %m").unwrap());
        let lines = vec![
            "2026-08-20 14:02:10,331 [main] INFO org.apache.hadoop.ozone.om.OzoneManager: a"
                .to_string(),
        ];
        assert_eq!(detect(&lines, Some(&custom)).unwrap().layout.name, "file");
        let lines = vec!["2026-08-20 14:02:10,331 <INFO> org.apache.X - a".to_string()];
        assert!(
            detect(&lines, Some(&custom))
                .unwrap()
                .layout
                .name
                .starts_with("custom")
        );
    }

    #[test]
    fn header_fallback_for_mixed_streams_but_not_for_stack_frames() {
        let file = by_name("file");
        let (h, other) = parse_header(
            "2026-08-20 14:02:10,331 INFO org.apache.hadoop.hdds.scm.node.SCMNodeManager: v",
            file,
        )
        .unwrap();
        assert_eq!(other.map(|l| l.name.as_str()), Some("vendor"));
        assert_eq!(h.level, Some(Level::Info));
        assert!(parse_header("\tat org.apache.X.y(X.java:1)", file).is_none());
        assert!(parse_header("Caused by: java.io.IOException: x", file).is_none());
    }
}
