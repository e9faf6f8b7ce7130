//! Which host and component a log stream, and each record in it, belongs to.

mod loggers;
mod resolve;

pub use resolve::{SourceResolver, node_of_thread, short_host};

use serde::Serialize;
use std::fmt;

/// The component that wrote a record, with the contract's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Component {
    Om,
    Scm,
    Datanode,
    Recon,
    S3g,
    OmAudit,
    OmSysAudit,
    ScmAudit,
    DnAudit,
    DnContainer,
    Client,
    Unknown,
}

impl Component {
    /// Every component, in declaration order (`component as usize` indexes it).
    pub const ALL: [Component; 12] = [
        Component::Om,
        Component::Scm,
        Component::Datanode,
        Component::Recon,
        Component::S3g,
        Component::OmAudit,
        Component::OmSysAudit,
        Component::ScmAudit,
        Component::DnAudit,
        Component::DnContainer,
        Component::Client,
        Component::Unknown,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Component::Om => "om",
            Component::Scm => "scm",
            Component::Datanode => "datanode",
            Component::Recon => "recon",
            Component::S3g => "s3g",
            Component::OmAudit => "om-audit",
            Component::OmSysAudit => "om-sys-audit",
            Component::ScmAudit => "scm-audit",
            Component::DnAudit => "dn-audit",
            Component::DnContainer => "dn-container",
            Component::Client => "client",
            Component::Unknown => "unknown",
        }
    }

    /// Audit and container logs use the log4j2 `|`-separated layouts.
    pub fn is_audit_like(self) -> bool {
        matches!(
            self,
            Component::OmAudit
                | Component::OmSysAudit
                | Component::ScmAudit
                | Component::DnAudit
                | Component::DnContainer
        )
    }

    /// The component an audit or container logger name (`%c{1}`, or a JSON layout's logger)
    /// belongs to: `OMAudit`, `OMSystemAudit`, `SCMAudit`, `DNAudit` (`*-audit-log4j2.properties`)
    /// and `ContainerLog` (`dn-container-log4j2.properties`).
    pub fn from_audit_logger(logger: &str) -> Option<Component> {
        Some(match logger {
            "OMAudit" => Component::OmAudit,
            "OMSystemAudit" => Component::OmSysAudit,
            "SCMAudit" => Component::ScmAudit,
            "DNAudit" => Component::DnAudit,
            "ContainerLog" => Component::DnContainer,
            _ => return None,
        })
    }

    /// The component a service logger name points to: a full name by its package
    /// (`org.apache.hadoop.hdds.scm.node.X`), an abbreviated one (`%c{2}` `node.SCMNodeManager`,
    /// `%c{1}` `SCMNodeManager`, `%c{3}` …) by its class, from the table of every Ozone class that
    /// has a logger ([`loggers`]); a class two components share is told apart by its package.
    pub fn from_logger(logger: &str) -> Option<Component> {
        const FULL: &[(&str, Component)] = &[
            ("org.apache.hadoop.hdds.scm.", Component::Scm),
            ("org.apache.hadoop.ozone.container.", Component::Datanode),
            ("org.apache.hadoop.hdds.container.", Component::Datanode),
            ("org.apache.hadoop.ozone.HddsDatanode", Component::Datanode),
            ("org.apache.hadoop.ozone.om.", Component::Om),
            ("org.apache.hadoop.ozone.recon.", Component::Recon),
            ("org.apache.hadoop.ozone.s3.", Component::S3g),
            ("org.apache.hadoop.ozone.client.", Component::Client),
            ("org.apache.hadoop.hdds.scm.storage.", Component::Client),
        ];
        if logger.starts_with("org.apache.") {
            // Longest prefix wins: `hdds.scm.storage` is the client's BlockOutputStream package.
            return FULL
                .iter()
                .filter(|(prefix, _)| logger.starts_with(prefix))
                .max_by_key(|(prefix, _)| prefix.len())
                .map(|&(_, c)| c);
        }
        // Inner-class loggers (`Outer$Inner`) are looked up by their outer class.
        let logger = logger.split('$').next().unwrap_or(logger);
        let lookup = |name: &str| {
            loggers::LOGGER_COMPONENTS
                .binary_search_by(|(key, _)| (*key).cmp(name))
                .ok()
                .map(|i| loggers::LOGGER_COMPONENTS[i].1)
        };
        let class_at = logger.rfind('.').map_or(0, |dot| dot + 1);
        lookup(&logger[class_at..]).or_else(|| {
            // `<package>.<Class>`: the logger's last two segments.
            let package_at = logger[..class_at.checked_sub(1)?]
                .rfind('.')
                .map_or(0, |dot| dot + 1);
            lookup(&logger[package_at..])
        })
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A log level as log4j prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    Trace,
    Debug,
    Info,
    Warn,
    Error,
    Fatal,
}

impl Level {
    pub fn parse(s: &str) -> Option<Level> {
        Some(match s {
            "TRACE" => Level::Trace,
            "DEBUG" => Level::Debug,
            "INFO" => Level::Info,
            "WARN" | "WARNING" => Level::Warn,
            "ERROR" => Level::Error,
            "FATAL" => Level::Fatal,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Trace => "TRACE",
            Level::Debug => "DEBUG",
            Level::Info => "INFO",
            Level::Warn => "WARN",
            Level::Error => "ERROR",
            Level::Fatal => "FATAL",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the name of a file (and the folders above it) says about its stream.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceHint {
    pub host: Option<String>,
    pub component: Option<Component>,
}

/// The component a docker-compose service name or host name suggests: `om2_1`, `scm1`,
/// `datanode-2`, `dn3`, `ozone-datanode-2`, `s3g`, `recon`.
pub fn component_from_service(name: &str) -> Option<Component> {
    let lower = name.to_ascii_lowercase();
    let stem = lower
        .trim_start_matches("ozone-")
        .trim_start_matches("ozone_");
    const PREFIXES: &[(&str, Component)] = &[
        ("datanode", Component::Datanode),
        ("dn", Component::Datanode),
        ("scm", Component::Scm),
        ("om", Component::Om),
        ("recon", Component::Recon),
        ("s3g", Component::S3g),
        ("s3", Component::S3g),
    ];
    PREFIXES.iter().find_map(|&(prefix, component)| {
        let rest = stem.strip_prefix(prefix)?;
        // `om2_1`, `dn-3`, `scm`: the role name ends where digits or separators start.
        (rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_digit() || "-_.".contains(c)))
            .then_some(component)
    })
}

#[cfg(test)]
mod service_tests {
    use super::*;

    #[test]
    fn compose_service_names() {
        assert_eq!(component_from_service("om2_1"), Some(Component::Om));
        assert_eq!(
            component_from_service("datanode4-1"),
            Some(Component::Datanode)
        );
        assert_eq!(component_from_service("dn-2"), Some(Component::Datanode));
        assert_eq!(component_from_service("scm1"), Some(Component::Scm));
        assert_eq!(
            component_from_service("ozone-datanode-2"),
            Some(Component::Datanode)
        );
        assert_eq!(component_from_service("s3g"), Some(Component::S3g));
        assert_eq!(component_from_service("omega"), None);
        assert_eq!(component_from_service("kdc"), None);
    }

    #[test]
    fn abbreviated_loggers_name_their_component() {
        // The loggers of issue 18 item 2, as `%c{2}` and `%c{1}` print them.
        for (logger, component) in [
            ("statemachine.EndpointStateMachine", Component::Datanode),
            ("keyvalue.KeyValueHandler", Component::Datanode),
            ("om.OzoneManager", Component::Om),
            ("pipeline.SCMPipelineManager", Component::Scm),
            ("ReplicationManager", Component::Scm),
            ("EndpointStateMachine", Component::Datanode),
            (
                "common.statemachine.EndpointStateMachine",
                Component::Datanode,
            ),
            ("io.BlockOutputStreamEntryPool", Component::Client),
            ("XceiverServerRatis$RaftServerRpcImpl", Component::Datanode),
            // One simple name, two components: the package tells them apart.
            ("block.BlockManagerImpl", Component::Scm),
            ("impl.BlockManagerImpl", Component::Datanode),
        ] {
            assert_eq!(Component::from_logger(logger), Some(component), "{logger}");
        }
        for logger in [
            "BlockManagerImpl",
            "impl.RaftServerImpl",
            "server.RaftServer$Division",
            "org.apache.ratis.server.impl.RaftServerImpl",
            "ipc.Server",
            "",
        ] {
            assert_eq!(Component::from_logger(logger), None, "{logger}");
        }
    }
}

/// Which rotated log stream a file belongs to, and how old it is within that stream.
///
/// Files with the same `stream` are one logical log cut by rotation; sort by
/// `(stream, Reverse(age))` to read the oldest part first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RotationKey {
    /// The display path without compression extension and rotation suffix.
    pub stream: String,
    /// 0 for the live file; a higher value is an older file.
    pub age: u64,
}

/// Dated rotations (`-2026-08-20-1.log`, `.log.2026-08-20`) get an age counted down from here,
/// so a later date or a higher log4j2 `%i` (newer with the default `fileIndex=max`) is younger.
const DATED_AGE_BASE: u64 = 1_000_000_000_000_000_000;

/// The extensions a log file ends with before any rotation suffix.
const LOG_EXTENSIONS: &[&str] = &[".log", ".out", ".txt", ".json", ".jsonl", ".ndjson"];
const COMPRESSION_EXTENSIONS: &[&str] = &[".gz", ".zst", ".zstd", ".bz2", ".xz", ".lz4"];
const ARCHIVE_EXTENSIONS: &[&str] = &[
    ".tar.gz",
    ".tar.zst",
    ".tar.zstd",
    ".tgz",
    ".tzst",
    ".tar.bz2",
    ".tbz2",
    ".tbz",
    ".tar.xz",
    ".txz",
    ".tar.lz4",
    ".tar",
    ".zip",
];

/// Splits a rotation suffix off a log file's path (compression extension included) and says how
/// old the file is. Forms understood, newest first within each:
/// - log4j 1 `RollingFileAppender` and vendor files: `x.log.1`, `x.log.2.gz`, `x.log.out.1`, `x.out.3`;
/// - reload4j `FixedWindowRollingPolicy` as shipped by Ozone (`FileNamePattern=…/${hadoop.log.file}-%i.gz`): `x.log-1.gz`;
/// - `DailyRollingFileAppender` (`DatePattern=.yyyy-MM-dd`): `x.log.2026-08-20`;
/// - log4j2 audit and container logs: `<name>-<yyyy-MM-dd>-<i>.log.gz` (2.1.0+) and
///   `<name>-<yyyy-MM-dd-HH-mm-ss>-<i>.log.gz` (2.0.0 and earlier).
pub fn rotation_key(display: &str) -> RotationKey {
    let (folder, name) = match display.rfind('/') {
        Some(i) => display.split_at(i + 1),
        None => ("", display),
    };
    let (base, age) = split_rotation(strip_compression_ext(name));
    RotationKey {
        stream: format!("{folder}{base}"),
        age,
    }
}

/// `name` without a trailing `.gz` / `.zst` / `.zstd`.
pub(crate) fn strip_compression_ext(name: &str) -> &str {
    COMPRESSION_EXTENSIONS
        .iter()
        .find_map(|ext| strip_suffix_ignore_case(name, ext))
        .unwrap_or(name)
}

/// `name` without a trailing tar archive extension, if it has one.
pub(crate) fn strip_archive_ext(name: &str) -> Option<&str> {
    ARCHIVE_EXTENSIONS
        .iter()
        .find_map(|ext| strip_suffix_ignore_case(name, ext))
}

/// ASCII-case-insensitive `strip_suffix`. The suffix is ASCII, so the cut is on a char boundary.
pub(crate) fn strip_suffix_ignore_case<'a>(s: &'a str, suffix: &str) -> Option<&'a str> {
    let cut = s.len().checked_sub(suffix.len())?;
    let tail = s.as_bytes().get(cut..)?;
    if tail.eq_ignore_ascii_case(suffix.as_bytes()) {
        s.get(..cut)
    } else {
        None
    }
}

fn ends_with_log_ext(s: &str) -> bool {
    LOG_EXTENSIONS
        .iter()
        .any(|ext| strip_suffix_ignore_case(s, ext).is_some())
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// A rotation index; more than nine digits is not an index but part of a name.
fn parse_index(s: &str) -> Option<u64> {
    if is_digits(s) && s.len() <= 9 {
        s.parse().ok()
    } else {
        None
    }
}

/// Splits the rotation suffix off a file name that has no compression extension.
pub(crate) fn split_rotation(name: &str) -> (String, u64) {
    // `x.log.3`, `x.log.out.2`, and DRFA `x.log.2026-08-20`.
    if let Some((head, tail)) = name.rsplit_once('.')
        && ends_with_log_ext(head)
    {
        if let Some(index) = parse_index(tail) {
            return (head.to_string(), index);
        }
        if let Some(stamp) = parse_date_stamp(&tail.split('-').collect::<Vec<_>>()) {
            return (head.to_string(), dated_age(stamp, 0));
        }
    }
    // FixedWindowRollingPolicy `x.log-3`.
    if let Some((head, tail)) = name.rsplit_once('-')
        && ends_with_log_ext(head)
        && let Some(index) = parse_index(tail)
    {
        return (head.to_string(), index);
    }
    // log4j2 `<name>-<date>[-<time>]-<i>.log`.
    for ext in LOG_EXTENSIONS {
        if let Some(stem) = strip_suffix_ignore_case(name, ext)
            && let Some((prefix, age)) = split_dated_stem(stem)
        {
            let ext = name.get(stem.len()..).unwrap_or(ext);
            return (format!("{prefix}{ext}"), age);
        }
    }
    (name.to_string(), 0)
}

/// `stem` = `<prefix>-yyyy-MM-dd[-HH-mm-ss][-i]` → (`<prefix>`, age).
fn split_dated_stem(stem: &str) -> Option<(&str, u64)> {
    // Token counts after the prefix: date+time+index, date+time, date+index, date.
    for (tokens, has_index) in [(7, true), (6, false), (4, true), (3, false)] {
        let mut parts: Vec<&str> = stem.rsplitn(tokens + 1, '-').collect();
        if parts.len() != tokens + 1 {
            continue;
        }
        let prefix = parts.pop().unwrap_or_default();
        if prefix.is_empty() {
            continue;
        }
        parts.reverse();
        let (stamp_parts, index) = if has_index {
            match parts.split_last() {
                Some((last, rest)) => match parse_index(last) {
                    Some(i) => (rest, i),
                    None => continue,
                },
                None => continue,
            }
        } else {
            (&parts[..], 0)
        };
        if let Some(stamp) = parse_date_stamp(stamp_parts) {
            return Some((prefix, dated_age(stamp, index)));
        }
    }
    None
}

/// `["2026","08","20"]` or with `"HH"`, `"mm"`, `"ss"` following → `yyyyMMddHHmmss` as a number.
fn parse_date_stamp(parts: &[&str]) -> Option<u64> {
    if !(3..=6).contains(&parts.len()) {
        return None;
    }
    // Field width and upper bound: year, month, day, hour, minute, second.
    const FIELDS: [(usize, u64); 6] = [(4, 9999), (2, 12), (2, 31), (2, 23), (2, 59), (2, 59)];
    let mut stamp = 0u64;
    for (i, &(width, max)) in FIELDS.iter().enumerate() {
        let value = match parts.get(i) {
            Some(p) if p.len() == width && is_digits(p) => {
                p.parse::<u64>().ok().filter(|v| *v <= max)?
            }
            Some(_) => return None,
            None => 0,
        };
        stamp = if i == 0 { value } else { stamp * 100 + value };
    }
    Some(stamp)
}

fn dated_age(stamp: u64, index: u64) -> u64 {
    DATED_AGE_BASE - (stamp * 10_000 + index.min(9_999))
}

/// The role a token names: the `ozone` subcommand in file names, or a host/pod name prefix.
fn role_component(token: &str) -> Option<Component> {
    Some(match token.to_ascii_lowercase().as_str() {
        "om" => Component::Om,
        "scm" => Component::Scm,
        "datanode" | "dn" => Component::Datanode,
        "recon" => Component::Recon,
        "s3g" => Component::S3g,
        _ => return None,
    })
}

/// `om1`, `scm2`, `dn3`, `datanode-4`, `datanode_4`: a host named after its role.
fn role_numbered(name: &str) -> Option<Component> {
    let without_digits = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if without_digits.len() == name.len() {
        return None;
    }
    role_component(
        without_digits
            .strip_suffix(['-', '_'])
            .unwrap_or(without_digits),
    )
}

/// A kubernetes pod of a StatefulSet: `ozone-datanode-2`, `<release>-ozone-om-0`.
fn pod_name(name: &str) -> Option<Component> {
    let (rest, ordinal) = name.rsplit_once('-')?;
    if !is_digits(ordinal) {
        return None;
    }
    let (_, role) = rest.rsplit_once('-')?;
    role_component(role)
}

/// Vendor-managed (Cloudera Manager) role names in `hadoop-cmf-<service>-<ROLE>-<host>.log.out`.
const VENDOR_ROLES: &[(&str, Component)] = &[
    ("OZONE_MANAGER", Component::Om),
    ("STORAGE_CONTAINER_MANAGER", Component::Scm),
    ("HDDS_DATANODE", Component::Datanode),
    ("OZONE_DATANODE", Component::Datanode),
    ("OZONE_RECON", Component::Recon),
    ("RECON", Component::Recon),
    ("S3_GATEWAY", Component::S3g),
];

/// log4j2 file name prefixes (`${hostName}` follows). `s3g-audit` has no component of its own.
const AUDIT_PREFIXES: &[(&str, Option<Component>)] = &[
    ("om-sys-audit", Some(Component::OmSysAudit)),
    ("om-audit", Some(Component::OmAudit)),
    ("scm-audit", Some(Component::ScmAudit)),
    ("dn-audit", Some(Component::DnAudit)),
    ("dn-container", Some(Component::DnContainer)),
    ("s3g-audit", None),
];

/// Whether a file name (without compression and rotation) starts like a log4j2 audit or container log.
pub(crate) fn has_audit_prefix(name: &str) -> bool {
    AUDIT_PREFIXES.iter().any(|(prefix, _)| {
        name.get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
    })
}

/// Whether an extension-less name is a host or pod named after a role (`om1`, `ozone-om-0`).
pub(crate) fn is_role_host_name(name: &str) -> bool {
    role_numbered(name).is_some() || pod_name(name).is_some()
}

/// What a path says about the host and component of the log stream it names.
///
/// The file name decides first: `ozone-<user>-<om|scm|datanode|recon|s3g>-<host>.log` (the host may
/// contain dots and dashes), `om-audit-<host>.log` and the other log4j2 names, vendor
/// `hadoop-cmf-<service>-<ROLE>-<host>.log.out`, kubernetes pods (`ozone-datanode-2.log`) and
/// role-named hosts (`om1.log`), all in their rotated forms. What the name leaves open is taken from
/// the nearest folder that looks like a host (`scm2/`, `bundle/dn3/logs/`, `ozone-om-0/`,
/// `dn-2.example.com/`, an IP); a folder named only after a role (`datanode/`) gives the component.
/// An archive segment `b.tgz!/` counts as folder `b`; `.` and `..` are resolved lexically.
pub fn hint_from_path(path: &str) -> SourceHint {
    let mut components: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                components.pop();
            }
            _ => components.push(part),
        }
    }
    // A trailing separator names a folder, not a file.
    let name = if path.ends_with(['/', '\\']) {
        ""
    } else {
        components.pop().unwrap_or_default()
    };
    let mut hint = hint_from_file_name(name);
    for folder in components.iter().rev() {
        if hint.host.is_some() && hint.component.is_some() {
            break;
        }
        let folder = match folder.strip_suffix('!') {
            Some(archive) => strip_archive_ext(archive).unwrap_or(archive),
            None => folder,
        };
        let (host, component) = folder_hint(folder);
        if hint.host.is_none() {
            hint.host = host;
        }
        if hint.component.is_none() {
            hint.component = component;
        }
    }
    // Nothing names the host: a numbered folder holding the file (`ingest1/agent.log`,
    // `edge-3/client.log`) is one machine's logs.
    if hint.host.is_none()
        && let Some(parent) = components.last()
        && is_numbered_name(parent)
    {
        hint.host = Some((*parent).to_string());
    }
    hint
}

/// `ingest1`, `edge-3`, `client_2`: a letter first, a digit last, nothing but letters, digits,
/// `-` and `_` between.
fn is_numbered_name(s: &str) -> bool {
    s.len() <= 63
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.ends_with(|c: char| c.is_ascii_digit())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn hint_from_file_name(name: &str) -> SourceHint {
    let (base, _) = split_rotation(strip_compression_ext(name));
    let mut stem = base.as_str();
    while let Some(shorter) = LOG_EXTENSIONS
        .iter()
        .find_map(|ext| strip_suffix_ignore_case(stem, ext))
    {
        stem = shorter;
    }
    let hint = |host: &str, component| SourceHint {
        host: (!host.is_empty()).then(|| host.to_string()),
        component,
    };
    if stem.is_empty() {
        return SourceHint::default();
    }
    if let Some(vendor) = strip_prefix_ignore_case(stem, "hadoop-cmf-") {
        for &(role, component) in VENDOR_ROLES {
            let marker = format!("-{role}");
            if let Some(at) = vendor.find(&marker) {
                let rest = vendor.get(at + marker.len()..).unwrap_or_default();
                if rest.is_empty() || rest.starts_with('-') {
                    return hint(rest.get(1..).unwrap_or_default(), Some(component));
                }
            }
        }
        return SourceHint::default();
    }
    for &(prefix, component) in AUDIT_PREFIXES {
        if let Some(rest) = strip_prefix_ignore_case(stem, prefix)
            && (rest.is_empty() || rest.starts_with('-'))
        {
            return hint(rest.get(1..).unwrap_or_default(), component);
        }
    }
    // kubelet `/var/log/containers/<pod>_<namespace>_<container>-<id>.log`; host names have no `_`.
    let stem = stem.split('_').next().unwrap_or(stem);
    // `ozone-<user>-<role>-<host>` (ozone-functions.sh, 1.0.0 on); `hadoop-<user>-<role>-<host>`
    // (hadoop-functions.sh `HADOOP_LOGFILE`, 0.5.0-beta and earlier).
    if let Some(rest) = strip_prefix_ignore_case(stem, "ozone-")
        .or_else(|| strip_prefix_ignore_case(stem, "hadoop-"))
    {
        // `ozone-<user>-<role>-<host>`: the first role after the user; else `ozone-<role>-…`.
        let mut offsets = Vec::new();
        let mut start = 0;
        for token in rest.split('-') {
            offsets.push((start, token));
            start += token.len() + 1;
        }
        let role_at = offsets
            .iter()
            .skip(1)
            .find(|(_, t)| role_component(t).is_some())
            .or_else(|| offsets.first().filter(|(_, t)| role_component(t).is_some()));
        if let Some(&(at, role)) = role_at {
            let host = rest.get(at + role.len() + 1..).unwrap_or_default();
            // `ozone-datanode-2` is a pod: its whole name is the host name.
            let host = if at == 0 && is_digits(host) {
                stem
            } else {
                host
            };
            return hint(host, role_component(role));
        }
    }
    if let Some(component) = role_numbered(stem).or_else(|| pod_name(stem)) {
        return hint(stem, Some(component));
    }
    if let Some(component) = role_component(stem) {
        return hint("", Some(component));
    }
    SourceHint::default()
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.as_bytes().get(..prefix.len())?;
    if head.eq_ignore_ascii_case(prefix.as_bytes()) {
        s.get(prefix.len()..)
    } else {
        None
    }
}

/// What a folder name says: a host (and its role when the name has one), or only a role.
fn folder_hint(folder: &str) -> (Option<String>, Option<Component>) {
    // kubelet `/var/log/pods/<namespace>_<pod>_<pod uid>/<container>/<n>.log`.
    let parts: Vec<&str> = folder.split('_').collect();
    if let [namespace, pod, uid] = parts[..]
        && !namespace.is_empty()
        && !pod.is_empty()
        && uid.len() >= 32
        && uid.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')
    {
        return (
            Some(pod.to_string()),
            role_numbered(pod).or_else(|| pod_name(pod)),
        );
    }
    if let Some(component) = role_numbered(folder).or_else(|| pod_name(folder)) {
        return (Some(folder.to_string()), Some(component));
    }
    if let Some(component) = role_component(folder) {
        return (None, Some(component));
    }
    if is_ipv4(folder) || is_aws_ip_name(folder) || is_generic_host(folder) {
        return (Some(folder.to_string()), None);
    }
    if let Some(first_label) = fqdn_first_label(folder) {
        let component = role_numbered(first_label).or_else(|| pod_name(first_label));
        return (Some(folder.to_string()), component);
    }
    (None, None)
}

fn is_ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts
            .iter()
            .all(|p| p.len() <= 3 && is_digits(p) && p.parse::<u16>().is_ok_and(|v| v <= 255))
}

/// `ip-10-0-1-23`, the EC2 default host name.
fn is_aws_ip_name(s: &str) -> bool {
    strip_prefix_ignore_case(s, "ip-").is_some_and(|rest| is_ipv4(&rest.replace('-', ".")))
}

/// `host3`, `node-2`, `worker1`.
fn is_generic_host(s: &str) -> bool {
    let without_digits = s.trim_end_matches(|c: char| c.is_ascii_digit());
    without_digits.len() < s.len()
        && matches!(
            without_digits
                .strip_suffix('-')
                .unwrap_or(without_digits)
                .to_ascii_lowercase()
                .as_str(),
            "host" | "node" | "worker"
        )
}

/// A fully qualified host name (`dn-2.example.com`, or `om1.local` when the first label is a role host):
/// returns its first label. Version folders (`ozone-2.0.0`) and `logs.old` are not host names.
fn fqdn_first_label(s: &str) -> Option<&str> {
    let labels: Vec<&str> = s.split('.').collect();
    let (first, last) = (labels.first()?, labels.last()?);
    let well_formed = labels.iter().all(|l| {
        !l.is_empty()
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    });
    let tld = last.len() >= 2 && last.bytes().all(|b| b.is_ascii_alphabetic());
    let enough_labels = labels.len() >= 3 || (labels.len() == 2 && role_numbered(first).is_some());
    (well_formed && tld && enough_labels).then_some(*first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(path: &str, host: Option<&str>, component: Option<Component>) {
        let hint = hint_from_path(path);
        assert_eq!(
            (hint.host.as_deref(), hint.component),
            (host, component),
            "{path}"
        );
    }

    #[test]
    fn ozone_daemon_file_names() {
        // ozone-functions.sh: `ozone-${OZONE_IDENT_STRING}-${OZONE_SUBCMD}-${HOSTNAME}.log`
        check(
            "ozone-hadoop-scm-scm1.log",
            Some("scm1"),
            Some(Component::Scm),
        );
        check(
            "ozone-hadoop-om-om1.example.com.log",
            Some("om1.example.com"),
            Some(Component::Om),
        );
        check(
            "logs/ozone-hadoop-datanode-dn-2.example.com.log",
            Some("dn-2.example.com"),
            Some(Component::Datanode),
        );
        check(
            "ozone-ozone-om-om1.example.com.log.3",
            Some("om1.example.com"),
            Some(Component::Om),
        );
        check(
            "ozone-hadoop-recon-r1.log.2.gz",
            Some("r1"),
            Some(Component::Recon),
        );
        check(
            "ozone-hadoop-s3g-gw-1.out",
            Some("gw-1"),
            Some(Component::S3g),
        );
        check(
            "ozone-hadoop-scm-scm2.log-4.gz",
            Some("scm2"),
            Some(Component::Scm),
        );
        check(
            "ozone-hadoop-scm-scm2.log.2026-08-20",
            Some("scm2"),
            Some(Component::Scm),
        );
        // A host that itself contains a role word.
        check(
            "ozone-hadoop-om-scm-colocated-1.log",
            Some("scm-colocated-1"),
            Some(Component::Om),
        );
        // No host in the name: the folder gives it.
        check(
            "scm2/ozone-hadoop-scm.log",
            Some("scm2"),
            Some(Component::Scm),
        );
        // 0.5.0-beta and earlier: hadoop-functions.sh
        // `HADOOP_LOGFILE="hadoop-${HADOOP_IDENT_STRING}-${HADOOP_SUBCMD}-${HOSTNAME}.log"`.
        check(
            "hadoop-hadoop-scm-scm1.example.com.log",
            Some("scm1.example.com"),
            Some(Component::Scm),
        );
        check(
            "logs/hadoop-ozone-datanode-dn7.out.2",
            Some("dn7"),
            Some(Component::Datanode),
        );
        check(
            "hadoop-hadoop-om-om-0.log",
            Some("om-0"),
            Some(Component::Om),
        );
    }

    #[test]
    fn kubelet_pod_folders_and_json_exports() {
        // `/var/log/pods/<namespace>_<pod>_<uid>/<container>/<restart>.log` (shippers.md 1).
        check(
            "var/log/pods/default_datanode-2_8d3e5a1b-2c4f-4a6e-9b7d-0f1e2d3c4b5a/datanode/0.log",
            Some("datanode-2"),
            Some(Component::Datanode),
        );
        check("export/scm-0.jsonl", Some("scm-0"), Some(Component::Scm));
    }

    #[test]
    fn a_numbered_folder_names_the_host_when_nothing_else_does() {
        check("ingest1/ingest-agent.log", Some("ingest1"), None);
        check("bundle/edge-3/client.log", Some("edge-3"), None);
        // Only the folder holding the file, and only a numbered name.
        check("case12345/logs/client.log", None, None);
        check("ozone-2.0.0/client.log", None, None);
        // The file name still wins.
        check(
            "ingest1/ozone-hadoop-om-om2.log",
            Some("om2"),
            Some(Component::Om),
        );
    }

    #[test]
    fn log4j2_file_names() {
        check("om-audit-om1.log", Some("om1"), Some(Component::OmAudit));
        check(
            "om-sys-audit-om1.example.com.log",
            Some("om1.example.com"),
            Some(Component::OmSysAudit),
        );
        check(
            "scm-audit-scm-3-2026-08-19-1.log.gz",
            Some("scm-3"),
            Some(Component::ScmAudit),
        );
        check(
            "dn-audit-dn1-2026-08-19-10-15-00-2.log.gz",
            Some("dn1"),
            Some(Component::DnAudit),
        );
        check(
            "dn-container-dn-4.example.com.log",
            Some("dn-4.example.com"),
            Some(Component::DnContainer),
        );
        check("s3g-audit-gw1.log", Some("gw1"), None);
        check("om1/om-audit.log", Some("om1"), Some(Component::OmAudit));
    }

    #[test]
    fn vendor_and_kubernetes_names() {
        check(
            "hadoop-cmf-ozone-OZONE_MANAGER-om1.example.com.log.out",
            Some("om1.example.com"),
            Some(Component::Om),
        );
        check(
            "hadoop-cmf-ozone1-STORAGE_CONTAINER_MANAGER-scm-2.corp.local.log.out.1",
            Some("scm-2.corp.local"),
            Some(Component::Scm),
        );
        check(
            "hadoop-cmf-ozone-HDDS_DATANODE-dn7.log.out.2.gz",
            Some("dn7"),
            Some(Component::Datanode),
        );
        check(
            "hadoop-cmf-ozone-RECON-r.example.com.log.out",
            Some("r.example.com"),
            Some(Component::Recon),
        );
        check(
            "hadoop-cmf-ozone-S3_GATEWAY-gw1.log.out",
            Some("gw1"),
            Some(Component::S3g),
        );
        check(
            "ozone-datanode-2.log",
            Some("ozone-datanode-2"),
            Some(Component::Datanode),
        );
        check("ozone-om-0", Some("ozone-om-0"), Some(Component::Om));
        check(
            "ozone-om-0/stdout.txt",
            Some("ozone-om-0"),
            Some(Component::Om),
        );
        check(
            "containers/ozone-scm-1_default_scm-0a1b2c.log",
            Some("ozone-scm-1"),
            Some(Component::Scm),
        );
        check(
            "datanode4.log",
            Some("datanode4"),
            Some(Component::Datanode),
        );
        check("om.log", None, Some(Component::Om));
    }

    #[test]
    fn host_folders() {
        check(
            "bundle/dn3/logs/app.log",
            Some("dn3"),
            Some(Component::Datanode),
        );
        check(
            "bundle/datanode-4/app.log",
            Some("datanode-4"),
            Some(Component::Datanode),
        );
        check(
            "bundle/dn-2.example.com/logs/app.log",
            Some("dn-2.example.com"),
            Some(Component::Datanode),
        );
        check(
            "bundle/h7.example.com/logs/app.log",
            Some("h7.example.com"),
            None,
        );
        check(
            "b/scm1.example.com/x.log",
            Some("scm1.example.com"),
            Some(Component::Scm),
        );
        check("b/10.0.1.15/x.log", Some("10.0.1.15"), None);
        check("b/ip-10-0-1-15/x.log", Some("ip-10-0-1-15"), None);
        check("b/node3/x.log", Some("node3"), None);
        check("dn1/datanode/x.log", Some("dn1"), Some(Component::Datanode));
        // Neither a version folder nor `logs.old` is a host; `..` is resolved.
        check("ozone-2.0.0/logs.old/x.log", None, None);
        check("scm1/../x.log", None, None);
        // An archive counts as a folder named after it.
        check(
            "bundle/om2.tar.gz!/logs/x.log",
            Some("om2"),
            Some(Component::Om),
        );
        // The file name wins over the folder.
        check(
            "scm1/om-audit-om1.log",
            Some("om1"),
            Some(Component::OmAudit),
        );
        check("scm1/", Some("scm1"), Some(Component::Scm));
    }

    #[test]
    fn rotation_of_rolling_appenders() {
        assert_eq!(
            rotation_key("om1/ozone-hadoop-om-om1.log"),
            RotationKey {
                stream: "om1/ozone-hadoop-om-om1.log".into(),
                age: 0
            }
        );
        let key = |d| rotation_key(d);
        assert_eq!(
            key("a/x.log.1"),
            RotationKey {
                stream: "a/x.log".into(),
                age: 1
            }
        );
        assert_eq!(
            key("a/x.log.2.gz"),
            RotationKey {
                stream: "a/x.log".into(),
                age: 2
            }
        );
        assert_eq!(
            key("a/x.log-3.gz"),
            RotationKey {
                stream: "a/x.log".into(),
                age: 3
            }
        );
        assert_eq!(
            key("x.log.out.2.gz"),
            RotationKey {
                stream: "x.log.out".into(),
                age: 2
            }
        );
        assert_eq!(
            key("x.out.1"),
            RotationKey {
                stream: "x.out".into(),
                age: 1
            }
        );
        assert_eq!(key("x.log.zst").age, 0);
        // A host ending in digits is not a rotation.
        assert_eq!(
            key("om-audit-dn-2.log"),
            RotationKey {
                stream: "om-audit-dn-2.log".into(),
                age: 0
            }
        );
    }

    #[test]
    fn rotation_of_dated_files() {
        let current = rotation_key("om1/om-audit-om1.log");
        let day19 = rotation_key("om1/om-audit-om1-2026-08-19-1.log.gz");
        let day20_1 = rotation_key("om1/om-audit-om1-2026-08-20-1.log.gz");
        let day20_2 = rotation_key("om1/om-audit-om1-2026-08-20-2.log.gz");
        let old_style = rotation_key("om1/om-audit-om1-2026-08-20-10-15-00-1.log.gz");
        for key in [&day19, &day20_1, &day20_2, &old_style] {
            assert_eq!(key.stream, current.stream);
        }
        // Older is higher; log4j2's default `fileIndex=max` makes a higher %i newer.
        assert!(day19.age > day20_1.age && day20_1.age > day20_2.age && day20_2.age > current.age);
        assert!(day20_1.age > old_style.age);
        let drfa_19 = rotation_key("x.log.2026-08-19");
        let drfa_20 = rotation_key("x.log.2026-08-20");
        assert_eq!(drfa_19.stream, "x.log");
        assert!(drfa_19.age > drfa_20.age && drfa_20.age > 0);
        // Not a date: month 13.
        assert_eq!(rotation_key("a-2026-13-01-1.log").age, 0);
    }

    #[test]
    fn non_ascii_names_do_not_panic() {
        for path in [
            "é.log",
            "ozone-é-om-ü.log.ü",
            "-",
            "",
            "!/",
            "a!/b!/c.gz",
            "é-2026-08-20-1.log",
        ] {
            let _ = hint_from_path(path);
            let _ = rotation_key(path);
        }
        check(
            "ozone-hadoop-om-höst.log",
            Some("höst"),
            Some(Component::Om),
        );
    }
}
