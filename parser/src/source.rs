//! Which host and component a log stream belongs to.

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

    /// The component an audit logger name (`%c{1}`) belongs to.
    pub fn from_audit_logger(logger: &str) -> Option<Component> {
        Some(match logger {
            "OMAudit" => Component::OmAudit,
            "OMSystemAudit" => Component::OmSysAudit,
            "SCMAudit" => Component::ScmAudit,
            "DNAudit" => Component::DnAudit,
            _ => return None,
        })
    }

    /// The component a service logger name points to, full (`org.apache.hadoop.hdds.scm.node.X`)
    /// or abbreviated by `%c{2}` (`node.SCMNodeManager`) — the latter only for unambiguous packages.
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
        // Longest prefix wins: `hdds.scm.storage` is the client's BlockOutputStream package.
        FULL.iter()
            .filter(|(prefix, _)| logger.starts_with(prefix))
            .max_by_key(|(prefix, _)| prefix.len())
            .map(|&(_, c)| c)
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
    let stem = lower.trim_start_matches("ozone-").trim_start_matches("ozone_");
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
        assert_eq!(component_from_service("datanode4-1"), Some(Component::Datanode));
        assert_eq!(component_from_service("dn-2"), Some(Component::Datanode));
        assert_eq!(component_from_service("scm1"), Some(Component::Scm));
        assert_eq!(component_from_service("ozone-datanode-2"), Some(Component::Datanode));
        assert_eq!(component_from_service("s3g"), Some(Component::S3g));
        assert_eq!(component_from_service("omega"), None);
        assert_eq!(component_from_service("kdc"), None);
    }
}
