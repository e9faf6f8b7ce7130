//! What stands in front of the log4j line on a text line: the wrappers viewers, runtimes and
//! collectors put there, and who they say wrote the line.
//!
//! Each [`Framing`] is one documented output format (../shared/ozone-logs/shippers.md, sections 1.2,
//! 7.3, 8.1 and the sniffing table, section 10; ../shared/ozone-logs/README.md item 7):
//!
//! | framing | a line | the line's source |
//! |---|---|---|
//! | plain | `<log4j line>`, or `<RFC 3339 stamp> <log4j line>` (`kubectl logs --timestamps`, `docker logs -t`) | - |
//! | compose | `om2_1       \| …` (v1), `datanode4-1  \| …` (v2), a viewer stamp before or after | the service |
//! | kubectl-prefix | `[pod/<pod>/<container>] [<RFC3339NanoFixed> ]…` | the pod, the container |
//! | journald-short | `<time> <host> <ident>[<pid>]: …` (`-o short-iso`, `short-iso-precise`, `short`, `short-precise`) | the host |
//! | cri | `<RFC 3339> <stdout\|stderr> <F\|P>[:tags] …` (containerd/CRI-O files under `/var/log/pods`) | the stream |
//! | local-stamp | `YYYY-MM-DD HH:MM:SS …` (Docker Desktop's log view, in the viewer's local time) | - |
//! | ozone-insight | `[OM] …`, `[DATANODE-<id>] …` (`ozone insight logs`, `LogSubcommand.streamLog`) | the component, the id |
//!
//! The log4j time inside the line stays the record's time; a wrapper's time is kept for lines that
//! have none.

use crate::source::{Component, component_from_service};
use crate::time::{LocalTime, parse_rfc3339};

/// How the lines of a text stream are wrapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Framing {
    Plain,
    Compose,
    KubectlPrefix,
    JournalShort,
    Cri,
    LocalStamp,
    Insight,
}

impl Framing {
    /// Every framing, the plainest first (ties in detection go to the earlier one).
    pub const ALL: [Framing; 7] = [
        Framing::Plain,
        Framing::Compose,
        Framing::KubectlPrefix,
        Framing::JournalShort,
        Framing::Cri,
        Framing::LocalStamp,
        Framing::Insight,
    ];

    /// The name `oztrace stats` puts before the layout (`None` for plain lines).
    pub fn name(self) -> Option<&'static str> {
        match self {
            Framing::Plain => None,
            Framing::Compose => Some("compose"),
            Framing::KubectlPrefix => Some("kubectl-prefix"),
            Framing::JournalShort => Some("journald-short"),
            Framing::Cri => Some("cri"),
            Framing::LocalStamp => Some("local-stamp"),
            Framing::Insight => Some("ozone-insight"),
        }
    }

    /// Splits this framing's wrapper off `line`; `None` when the line does not carry it.
    pub fn split(self, line: &str) -> Option<Framed<'_>> {
        let framed = match self {
            Framing::Plain => Some(match split_viewer_stamp(line) {
                Some((time, rest)) => Framed::new(rest).at(WrapperTime::Utc(time)),
                None => Framed::new(line),
            }),
            Framing::Compose => split_compose(line),
            Framing::KubectlPrefix => split_kubectl(line),
            Framing::JournalShort => split_journal(line),
            Framing::Cri => split_cri(line),
            Framing::LocalStamp => {
                let (time, rest) = split_local_stamp(line)?;
                Some(Framed::new(rest).at(WrapperTime::Local(time)))
            }
            Framing::Insight => split_insight(line),
        }?;
        Some(Framed {
            framing: self,
            ..framed
        })
    }
}

/// A wrapper's own time for a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WrapperTime {
    /// A zoned stamp, as UTC epoch millis.
    Utc(i64),
    /// A local wall-clock time (read in the host's `--tz`).
    Local(LocalTime),
}

/// Who a wrapper says wrote a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineSource<'a> {
    /// Lines with the same key form one stream: a record's continuation lines carry its key.
    pub key: &'a str,
    /// The compose service, pod or host. Compose names are normalised by the reader, which sees
    /// the stream's replicas (see [`compose_host`]).
    pub host: Option<&'a str>,
    pub component: Option<Component>,
}

/// One line with its wrapper split off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Framed<'a> {
    pub framing: Framing,
    pub source: Option<LineSource<'a>>,
    pub time: Option<WrapperTime>,
    /// A CRI `P` piece: the line goes on in the next piece of the same stream.
    pub partial: bool,
    /// The line after the wrapper.
    pub rest: &'a str,
}

impl<'a> Framed<'a> {
    pub(crate) fn new(rest: &'a str) -> Framed<'a> {
        Framed {
            framing: Framing::Plain,
            source: None,
            time: None,
            partial: false,
            rest,
        }
    }

    fn at(mut self, time: WrapperTime) -> Framed<'a> {
        self.time = Some(time);
        self
    }

    fn from(mut self, source: LineSource<'a>) -> Framed<'a> {
        self.source = Some(source);
        self
    }
}

/// `om2_1       | rest` → (`om2_1`, `rest`); v2 `datanode4-1  | `; the service starts with a letter.
fn compose_service(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    if !bytes.first()?.is_ascii_alphabetic() || memchr::memchr(b'|', bytes).is_none() {
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

fn split_compose(line: &str) -> Option<Framed<'_>> {
    let mut time = None;
    let mut rest = line;
    // A viewer stamp before the compose prefix.
    if let Some((t, after)) = split_viewer_stamp(rest)
        && compose_service(after).is_some()
    {
        time = Some(t);
        rest = after;
    }
    let (service, mut rest) = compose_service(rest)?;
    // `docker compose logs -t` puts its stamp after the prefix.
    if let Some((t, after)) = split_viewer_stamp(rest) {
        time = Some(t);
        rest = after;
    }
    let framed = Framed::new(rest).from(LineSource {
        key: service,
        host: Some(service),
        component: component_from_service(service),
    });
    Some(match time {
        Some(t) => framed.at(WrapperTime::Utc(t)),
        None => framed,
    })
}

/// The host a compose service stands for. Compose names a service's containers
/// `<service>_<n>` (v1) or `<service>-<n>` (v2); the other services reach the container by the
/// service name (`scm1:9861`), so the replica suffix goes, unless the stream shows the service
/// scaled (`--scale datanode=3`: `datanode-1`, `datanode-2`, … are different hosts).
pub fn compose_host(service: &str, scaled: impl Fn(&str) -> bool) -> &str {
    match replica_of(service) {
        Some((stem, 1)) if !scaled(stem) => stem,
        _ => service,
    }
}

/// `datanode-2` → (`datanode`, 2); `om1_1` → (`om1`, 1).
pub fn replica_of(service: &str) -> Option<(&str, u32)> {
    let (stem, n) = service.rsplit_once(['-', '_'])?;
    if stem.is_empty() || n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((stem, n.parse().ok()?))
}

/// `[pod/datanode-0/datanode] 2027-06-12T10:38:25.118734012Z rest` (kubectl `logs.go`: the prefix
/// `[pod/<pod>/<container>] `, then the kubelet's `--timestamps` stamp when asked for).
fn split_kubectl(line: &str) -> Option<Framed<'_>> {
    let inner = line.strip_prefix("[pod/")?;
    let close = inner.find("] ")?;
    let (pod, container) = inner[..close].split_once('/')?;
    if pod.is_empty() || container.is_empty() || container.contains(['/', ']']) {
        return None;
    }
    let rest = &inner[close + 2..];
    let source = LineSource {
        key: &line[1..close + 5],
        host: Some(pod),
        component: component_from_service(container).or_else(|| component_from_service(pod)),
    };
    Some(match split_viewer_stamp(rest) {
        Some((time, after)) => Framed::new(after).from(source).at(WrapperTime::Utc(time)),
        None => Framed::new(rest).from(source),
    })
}

/// journalctl's short modes (`output_short` in systemd `logs-show.c`):
/// `2027-06-12T10:38:22+00:00 scm1.example.com ozone[48211]: rest` (short-iso, `+0000` before
/// systemd 255; short-iso-precise adds microseconds) and `Jun 12 10:38:22[.336958] host ident[pid]: `
/// (short, short-precise: no year, local time; the log4j time decides).
fn split_journal(line: &str) -> Option<Framed<'_>> {
    let (time, after_time) = if line.as_bytes().first()?.is_ascii_digit() {
        let end = line.find(' ')?;
        let stamp = &line[..end];
        if stamp.as_bytes().get(10) != Some(&b'T') {
            return None;
        }
        (parse_rfc3339(stamp), &line[end + 1..])
    } else {
        // `Jun 12 10:38:22.336958 `: month, day (space-padded), time.
        let month = line.get(..4)?;
        if !month.ends_with(' ') || !month.as_bytes()[0].is_ascii_uppercase() {
            return None;
        }
        let rest = line[4..].trim_start_matches(' ');
        let (day, rest) = rest.split_once(' ')?;
        let (clock, rest) = rest.split_once(' ')?;
        if day.is_empty() || !day.bytes().all(|b| b.is_ascii_digit()) || clock.len() < 8 {
            return None;
        }
        if clock.as_bytes()[2] != b':' {
            return None;
        }
        (None, rest)
    };
    let (host, after_host) = after_time.split_once(' ')?;
    let colon = after_host.find(": ")?;
    let ident = &after_host[..colon];
    // `ident[pid]` or `ident`; no spaces inside.
    if host.is_empty() || ident.is_empty() || ident.contains(' ') {
        return None;
    }
    let rest = &after_host[colon + 2..];
    let name = ident.split('[').next().unwrap_or(ident);
    let source = LineSource {
        key: &after_time[..host.len() + 1 + colon],
        host: Some(host),
        component: component_from_service(name),
    };
    let framed = Framed::new(rest).from(source);
    Some(match time {
        Some(t) => framed.at(WrapperTime::Utc(t)),
        None => framed,
    })
}

/// `2027-06-12T10:38:25.118734012Z stdout F rest` (containerd `redirectLogs`, kubelet `parseCRILog`).
fn split_cri(line: &str) -> Option<Framed<'_>> {
    let (time, rest) = split_viewer_stamp(line)?;
    let (stream, rest) = rest.split_once(' ')?;
    if !matches!(stream, "stdout" | "stderr") {
        return None;
    }
    let (tags, rest) = match rest.split_once(' ') {
        Some(split) => split,
        // An empty line is `… stdout F` with nothing after the tag.
        None => (rest, ""),
    };
    let partial = match tags.split(':').next() {
        Some("F") => false,
        Some("P") => true,
        _ => return None,
    };
    let mut framed = Framed::new(rest)
        .from(LineSource {
            key: stream,
            host: None,
            component: None,
        })
        .at(WrapperTime::Utc(time));
    framed.partial = partial;
    Some(framed)
}

/// `2024-05-13 10:22:31 rest`: a local time without millis before the line.
fn split_local_stamp(line: &str) -> Option<(LocalTime, &str)> {
    let b = line.as_bytes();
    if b.len() < 20 || b[19] != b' ' {
        return None;
    }
    let shape = b"dddd-dd-dd dd:dd:dd";
    let fits = shape.iter().zip(b).all(|(s, c)| match s {
        b'd' => c.is_ascii_digit(),
        _ => s == c,
    });
    if !fits {
        return None;
    }
    let num = |r: std::ops::Range<usize>| line[r].parse::<i16>().ok();
    let time = LocalTime {
        year: num(0..4)?,
        month: num(5..7)? as i8,
        day: num(8..10)? as i8,
        hour: num(11..13)? as i8,
        minute: num(14..16)? as i8,
        second: num(17..19)? as i8,
        milli: 0,
    };
    Some((time, &line[20..]))
}

/// `[OM] rest`, `[DATANODE-3] rest`: `"[" + Component.prefix() + "] "` (insight `LogSubcommand`),
/// where `prefix()` is the type (`SCM`, `OM`, `DATANODE`, `S3G`, `RECON`) and `-<id>` when the
/// component has an id.
fn split_insight(line: &str) -> Option<Framed<'_>> {
    let inner = line.strip_prefix('[')?;
    let close = inner.find("] ")?;
    let prefix = &inner[..close];
    let (kind, id) = match prefix.split_once('-') {
        Some((kind, id)) if !id.is_empty() => (kind, Some(id)),
        Some(_) => return None,
        None => (prefix, None),
    };
    let component = match kind {
        "SCM" => Component::Scm,
        "OM" => Component::Om,
        "DATANODE" => Component::Datanode,
        "S3G" => Component::S3g,
        "RECON" => Component::Recon,
        _ => return None,
    };
    Some(Framed::new(&inner[close + 2..]).from(LineSource {
        key: prefix,
        host: id,
        component: Some(component),
    }))
}

/// `2026-08-20T14:02:10.331847000Z rest`: an RFC 3339 stamp with `T` and an offset.
pub fn split_viewer_stamp(line: &str) -> Option<(i64, &str)> {
    let bytes = line.as_bytes();
    if bytes.len() < 21 || bytes.get(10) != Some(&b'T') || !bytes[0].is_ascii_digit() {
        return None;
    }
    let end = line.find(' ')?;
    let stamp = &line[..end];
    if !(stamp.ends_with('Z') || stamp.get(19..)?.contains(['+', '-'])) {
        return None;
    }
    Some((parse_rfc3339(stamp)?, &line[end + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::format_rfc3339;

    fn utc(framed: &Framed<'_>) -> Option<String> {
        match framed.time {
            Some(WrapperTime::Utc(t)) => Some(format_rfc3339(t)),
            _ => None,
        }
    }

    #[test]
    fn compose_prefixes_v1_v2_and_viewer_stamps() {
        let p = Framing::Compose
            .split("om2_1       | 2026-08-20 14:02:10,331 [main] INFO om.OzoneManager: up")
            .unwrap();
        assert_eq!(p.source.unwrap().host, Some("om2_1"));
        assert_eq!(p.source.unwrap().component, Some(Component::Om));
        assert!(p.rest.starts_with("2026-08-20 14:02:10,331 [main]"));

        let p = Framing::Compose
            .split("datanode4-1  | \tat org.X.y(X.java:1)")
            .unwrap();
        assert_eq!(p.source.unwrap().key, "datanode4-1");
        assert_eq!(p.rest, "\tat org.X.y(X.java:1)");

        let p = Framing::Compose
            .split("scm1_1  | 2026-08-20T14:02:10.331847000Z [main] INFO node.SCMNodeManager: x")
            .unwrap();
        assert_eq!(utc(&p).as_deref(), Some("2026-08-20T14:02:10.331Z"));
        assert!(p.rest.starts_with("[main] INFO"));

        let p = Framing::Compose
            .split("2026-08-20T14:02:10.331Z dn-2  | [t] WARN a.B: y")
            .unwrap();
        assert_eq!(p.source.unwrap().host, Some("dn-2"));
        assert!(p.time.is_some());

        // Audit lines are not compose lines.
        let audit = "2026-08-20 14:02:10,331 | INFO  | SCMAudit | user=hadoop";
        assert_eq!(Framing::Compose.split(audit), None);
    }

    #[test]
    fn compose_replica_suffix_goes_only_for_an_unscaled_service() {
        let unscaled = |_: &str| false;
        assert_eq!(compose_host("scm1-1", unscaled), "scm1");
        assert_eq!(compose_host("om2_1", unscaled), "om2");
        assert_eq!(compose_host("datanode-2", unscaled), "datanode-2");
        assert_eq!(compose_host("scm", unscaled), "scm");
        let scaled = |stem: &str| stem == "datanode";
        assert_eq!(compose_host("datanode-1", scaled), "datanode-1");
        assert_eq!(compose_host("scm-1", scaled), "scm");
    }

    #[test]
    fn plain_lines_and_viewer_stamps() {
        // `kubectl logs --timestamps`: RFC3339NanoFixed, then the line.
        let p = Framing::Plain
            .split("2026-08-20T14:02:10.331847123Z 2026-08-20 14:02:10,331 [main] INFO a.B: x")
            .unwrap();
        assert_eq!(p.rest, "2026-08-20 14:02:10,331 [main] INFO a.B: x");
        assert!(p.time.is_some() && p.source.is_none());
        // A log4j2 ISO8601 date is no viewer stamp.
        let log4j2 = "2026-08-20T14:02:10,331 [main] INFO a.B: x";
        assert_eq!(Framing::Plain.split(log4j2).unwrap().rest, log4j2);
        // Short or non-ASCII stamp-like words are no stamps (and no panic).
        for line in [
            "2026-09-14T07:33 INFO something happened here",
            "2026-09-14T07:33:0é+ INFO x",
            "2026-09-14T€ INFO something happened here",
        ] {
            assert_eq!(split_viewer_stamp(line), None);
            assert_eq!(Framing::Plain.split(line).unwrap().rest, line);
            assert_eq!(Framing::Compose.split(line), None);
        }
    }

    #[test]
    fn kubectl_prefix_with_and_without_timestamps() {
        // shippers.md 8.1, kubectl `pkg/cmd/logs/logs.go`.
        let p = Framing::KubectlPrefix
            .split("[pod/datanode-0/datanode] 2027-06-12T10:38:25.118734012Z 2027-06-12 10:38:25 WARN  EndpointStateMachine:242 - Unable to communicate to SCM server at scm-0.scm.default.svc.cluster.local:9861 past 60 seconds.")
            .unwrap();
        let source = p.source.unwrap();
        assert_eq!(
            (source.key, source.host, source.component),
            (
                "pod/datanode-0/datanode",
                Some("datanode-0"),
                Some(Component::Datanode)
            )
        );
        assert_eq!(utc(&p).as_deref(), Some("2027-06-12T10:38:25.118Z"));
        assert!(p.rest.starts_with("2027-06-12 10:38:25 WARN"));
        let p = Framing::KubectlPrefix
            .split("[pod/scm-0/init] 2027-06-12 10:38:22,336 [main] INFO ha.SCMHAManagerImpl: x")
            .unwrap();
        assert_eq!(p.source.unwrap().component, Some(Component::Scm));
        assert_eq!(p.time, None);
        assert_eq!(Framing::KubectlPrefix.split("[main] INFO a.B: x"), None);
    }

    #[test]
    fn journalctl_short_modes() {
        // shippers.md 7.3 (systemd `logs-show.c` `output_short`).
        let line = "2027-06-12T10:38:22+00:00 scm1.example.com ozone[48211]: 2027-06-12 10:38:22,336 [scm1-ReplicationMonitor] INFO replication.ReplicationManager: Replication Monitor Thread took 12 milliseconds for processing 840 containers.";
        let p = Framing::JournalShort.split(line).unwrap();
        assert_eq!(p.source.unwrap().host, Some("scm1.example.com"));
        assert_eq!(p.source.unwrap().key, "scm1.example.com ozone[48211]");
        assert_eq!(utc(&p).as_deref(), Some("2027-06-12T10:38:22.000Z"));
        assert!(p.rest.starts_with("2027-06-12 10:38:22,336 [scm1-"));
        // Before systemd 255: `+0000`.
        let old = line.replacen("+00:00", "+0000", 1);
        assert!(Framing::JournalShort.split(&old).unwrap().time.is_some());
        let precise = "Jun 12 10:38:22.412406 scm1.example.com ozone[48211]:         at org.apache.hadoop.hdds.scm.ha.invoker.ScmInvoker.invokeReplicateDirect(ScmInvoker.java:78)";
        let p = Framing::JournalShort.split(precise).unwrap();
        assert_eq!(p.source.unwrap().host, Some("scm1.example.com"));
        assert_eq!(p.time, None);
        assert!(p.rest.trim_start().starts_with("at org.apache"));
        assert_eq!(
            Framing::JournalShort.split("2026-08-20 14:02:10,331 [main] INFO a.B: x"),
            None
        );
    }

    #[test]
    fn cri_lines_and_pieces() {
        // shippers.md 1.2.
        let p = Framing::Cri
            .split("2027-06-12T10:38:25.118801331Z stdout F \tat org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:863)")
            .unwrap();
        assert_eq!(
            p.rest,
            "\tat org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:863)"
        );
        assert!(!p.partial);
        let p = Framing::Cri
            .split("2027-06-12T10:39:01.402118007Z stdout P 2027-06-12 10:39:01 INFO  first piece")
            .unwrap();
        assert!(p.partial);
        assert_eq!(p.source.unwrap().key, "stdout");
        assert_eq!(
            Framing::Cri.split("2027-06-12T10:39:01Z 2027-06-12 x"),
            None
        );
    }

    #[test]
    fn docker_desktop_local_stamp() {
        let p = Framing::LocalStamp
            .split("2024-05-13 10:22:31 2024-05-13 08:22:31,123 [main] INFO om.OzoneManager: x")
            .unwrap();
        assert_eq!(
            p.time,
            Some(WrapperTime::Local(LocalTime {
                year: 2024,
                month: 5,
                day: 13,
                hour: 10,
                minute: 22,
                second: 31,
                milli: 0
            }))
        );
        assert!(p.rest.starts_with("2024-05-13 08:22:31,123 [main]"));
        assert_eq!(
            Framing::LocalStamp.split("2024-05-13 08:22:31,123 [main] INFO a: b"),
            None
        );
    }

    #[test]
    fn ozone_insight_prefix() {
        // LogSubcommand: "[" + logComponent.prefix() + "] " + line.
        let p = Framing::Insight
            .split("[OM] 2026-08-20 14:02:10,331 [INFO|org.apache.hadoop.ozone.om.OzoneManager|OzoneManager] x")
            .unwrap();
        assert_eq!(p.source.unwrap().component, Some(Component::Om));
        assert_eq!(p.source.unwrap().host, None);
        let p = Framing::Insight
            .split("[DATANODE-3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c] 2026-08-20 14:02:10,331 [INFO|a.B|B] x")
            .unwrap();
        assert_eq!(
            p.source.unwrap().host,
            Some("3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c")
        );
        assert_eq!(Framing::Insight.split("[main] INFO a.B: x"), None);
    }
}
