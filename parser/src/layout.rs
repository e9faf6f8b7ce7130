//! The layouts real Ozone deployments write, and detection of the one a file uses.
//!
//! Each layout is the log4j ConversionPattern that produces it, compiled by [`crate::pattern`].
//! Sources: `hadoop-ozone/dist/src/shell/conf/log4j.properties` (RFA/DRFA file layout and the
//! `%c{2}` console layout), `*-audit-log4j2.properties` and `dn-container-log4j2.properties`
//! (log4j2 `|` layouts), and layouts seen in logs posted from real clusters
//! (../shared/ozone-logs/README.md): vendor-managed without thread, `[%t]-%c` glued, the test
//! layout, old docker images without millis, and console output without a timestamp.
//!
//! In front of the log4j header a line may carry a docker-compose prefix (`om2_1       | `,
//! `datanode4-1  | `) naming the service, and a viewer's own RFC 3339 stamp
//! (`docker compose logs -t`).

use crate::pattern::{Header, Pattern};
use crate::time::parse_rfc3339;
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
    ("no-timestamp", "[%t] %p %c: %m%n"),
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

/// What stands in front of the log4j header on a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinePrefix<'a> {
    /// The docker-compose service, without its padding: the host.
    pub service: Option<&'a str>,
    /// A viewer's own stamp (RFC 3339 with an offset), as UTC epoch millis.
    pub viewer_time: Option<i64>,
    /// The line after the prefixes.
    pub rest: &'a str,
}

/// Splits a compose prefix (when `compose`) and viewer stamps off a line.
pub fn split_prefix(line: &str, compose: bool) -> LinePrefix<'_> {
    let mut prefix = LinePrefix {
        service: None,
        viewer_time: None,
        rest: line,
    };
    if !compose {
        // `kubectl logs --timestamps` and `docker logs -t` stamp every physical line.
        if let Some((time, after)) = split_viewer_stamp(line) {
            prefix.viewer_time = Some(time);
            prefix.rest = after;
        }
        return prefix;
    }
    let mut rest = line;
    // A viewer stamp before the compose prefix.
    if let Some((time, after)) = split_viewer_stamp(rest)
        && compose_service(after).is_some()
    {
        prefix.viewer_time = Some(time);
        rest = after;
    }
    if let Some((service, after)) = compose_service(rest) {
        prefix.service = Some(service);
        rest = after;
        // `docker compose logs -t` puts its stamp after the prefix.
        if let Some((time, after)) = split_viewer_stamp(rest) {
            prefix.viewer_time = Some(time);
            rest = after;
        }
    }
    prefix.rest = rest;
    prefix
}

/// `om2_1       | rest` → (`om2_1`, `rest`); v2 `datanode4-1  | `; the service starts with a letter.
fn compose_service(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    if !bytes.first()?.is_ascii_alphabetic() {
        return None;
    }
    let name_len = bytes
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        .count();
    let after_name = &line[name_len..];
    let padded = after_name.trim_start_matches(' ');
    let rest = padded
        .strip_prefix("| ")
        .or_else(|| padded.strip_prefix('|').filter(|r| r.is_empty()))?;
    Some((&line[..name_len], rest))
}

/// `2026-08-20T14:02:10.331847000Z rest`: an RFC 3339 stamp with `T` and an offset.
fn split_viewer_stamp(line: &str) -> Option<(i64, &str)> {
    let bytes = line.as_bytes();
    if bytes.len() < 21 || bytes.get(10) != Some(&b'T') || !bytes[0].is_ascii_digit() {
        return None;
    }
    let end = line.find(' ')?;
    let stamp = &line[..end];
    // The offset follows the seconds (byte 19); bytes, since the text may be shorter or not ASCII.
    let after_seconds = stamp.as_bytes().get(19..).unwrap_or_default();
    if !(stamp.ends_with('Z') || after_seconds.iter().any(|b| matches!(b, b'+' | b'-'))) {
        return None;
    }
    Some((parse_rfc3339(stamp)?, &line[end + 1..]))
}

/// A file's layout as detected from its first lines.
#[derive(Debug, Clone)]
pub struct Detected {
    pub layout: Arc<Layout>,
    pub compose: bool,
}

/// Picks the layout (and whether lines carry compose prefixes) that reads most of `lines`.
/// `preferred` (from `--layout` or the bundle's log4j.properties) wins when it reads at least as
/// many lines as the best built-in; otherwise detection falls back to the built-ins.
pub fn detect(lines: &[String], preferred: Option<&Arc<Layout>>) -> Option<Detected> {
    let non_empty = lines.iter().filter(|l| !l.trim().is_empty()).count();
    let with_prefix = lines
        .iter()
        .filter(|l| compose_service(l).is_some() || split_prefix(l, true).service.is_some())
        .count();
    let compose = non_empty > 0 && with_prefix * 2 > non_empty;
    let score = |layout: &Layout| {
        lines
            .iter()
            .filter(|l| {
                layout
                    .pattern
                    .parse(split_prefix(l, compose).rest)
                    .is_some()
            })
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
    best.map(|(_, layout)| Detected {
        layout: Arc::clone(layout),
        compose,
    })
}

/// Parses a header with the file's layout, then with the other built-ins for lines that could
/// be a header of another layout (mixed streams); stack-trace lines skip the fallback.
pub fn parse_header<'a>(
    line: &'a str,
    primary: &Layout,
) -> Option<(Header<'a>, Option<&'static Arc<Layout>>)> {
    if let Some(h) = primary.pattern.parse(line) {
        return Some((h, None));
    }
    if !line
        .as_bytes()
        .first()
        .is_some_and(|b| b.is_ascii_digit() || *b == b'[')
    {
        return None;
    }
    builtin_layouts()
        .iter()
        .filter(|l| l.name != primary.name)
        .find_map(|l| l.pattern.parse(line).map(|h| (h, Some(l))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Level;

    fn by_name(name: &str) -> &'static Arc<Layout> {
        builtin_layouts().iter().find(|l| l.name == name).unwrap()
    }

    fn detect_name(lines: &[&str]) -> (String, bool) {
        let owned: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        let d = detect(&owned, None).unwrap();
        (d.layout.name.clone(), d.compose)
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
    fn compose_prefixes_v1_v2_and_viewer_stamps() {
        let p = split_prefix(
            "om2_1       | 2026-08-20 14:02:10,331 [main] INFO om.OzoneManager: up",
            true,
        );
        assert_eq!(p.service, Some("om2_1"));
        assert!(p.rest.starts_with("2026-08-20 14:02:10,331 [main]"));

        let p = split_prefix("datanode4-1  | \tat org.X.y(X.java:1)", true);
        assert_eq!(p.service, Some("datanode4-1"));
        assert_eq!(p.rest, "\tat org.X.y(X.java:1)");

        let p = split_prefix(
            "scm1_1  | 2026-08-20T14:02:10.331847000Z [main] INFO node.SCMNodeManager: x",
            true,
        );
        assert_eq!(p.service, Some("scm1_1"));
        assert_eq!(
            p.viewer_time.map(crate::time::format_rfc3339).as_deref(),
            Some("2026-08-20T14:02:10.331Z")
        );
        assert!(p.rest.starts_with("[main] INFO"));

        let p = split_prefix("2026-08-20T14:02:10.331Z dn-2  | [t] WARN a.B: y", true);
        assert_eq!(p.service, Some("dn-2"));
        assert!(p.viewer_time.is_some());

        // Audit lines are not compose lines.
        let audit = "2026-08-20 14:02:10,331 | INFO  | SCMAudit | user=hadoop";
        assert_eq!(split_prefix(audit, true).service, None);
        assert_eq!(split_prefix("om1_1 | x", false).service, None);

        // `kubectl logs --timestamps`: a stamp, no service.
        let p = split_prefix(
            "2026-08-20T14:02:10.331847123Z 2026-08-20 14:02:10,331 [main] INFO a.B: x",
            false,
        );
        assert_eq!(
            (p.service, p.rest),
            (None, "2026-08-20 14:02:10,331 [main] INFO a.B: x")
        );
        assert!(p.viewer_time.is_some());
        // A log4j2 ISO8601 date is no viewer stamp.
        let log4j2 = "2026-08-20T14:02:10,331 [main] INFO a.B: x";
        assert_eq!(split_prefix(log4j2, false).rest, log4j2);
        // Short or non-ASCII stamp-like words are no stamps (and no panic).
        for line in [
            "2026-09-14T07:33 INFO something happened here",
            "2026-09-14T07:33:0é+ INFO x",
            "2026-09-14T€ INFO something happened here",
        ] {
            assert_eq!(split_prefix(line, false).rest, line);
            assert_eq!(split_prefix(line, true).rest, line);
        }
    }

    #[test]
    fn detects_compose_streams() {
        let (name, compose) = detect_name(&[
            "om1_1       | 2026-08-20 14:02:10,331 [main] INFO om.OzoneManager: a",
            "scm1_1      | 2026-08-20 14:02:10,332 [main] INFO node.SCMNodeManager: b",
            "scm1_1      | \tat org.X.y(X.java:1)",
        ]);
        assert_eq!((name.as_str(), compose), ("file", true));
        let (name, compose) = detect_name(&[
            "dn-2  | [grpc-default-executor-3] INFO impl.RaftServerImpl: a",
            "dn-1  | [main] WARN statemachine.EndpointStateMachine: b",
        ]);
        assert_eq!((name.as_str(), compose), ("no-timestamp", true));
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
