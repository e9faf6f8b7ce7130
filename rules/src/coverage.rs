//! Which rules could run on the logs given. A rule is `blind` without a kind of log it needs
//! (it cannot find anything, and "no findings" says nothing about its bug), `partial` when a
//! host of the role lacks them or an optional kind is missing, `ran` otherwise.

use crate::RuleDoc;
use oztrace_parser::source::Component;
use serde::Serialize;
use std::collections::BTreeSet;

/// Logs a rule reads: any one of `components`, on every host of their role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Need {
    /// For people: "SCM service logs".
    pub what: &'static str,
    #[serde(skip)]
    pub components: &'static [Component],
    /// Without a required need the rule is blind; without an optional one it finds less.
    pub required: bool,
}

impl Need {
    pub const fn required(what: &'static str, components: &'static [Component]) -> Need {
        Need {
            what,
            components,
            required: true,
        }
    }

    pub const fn optional(what: &'static str, components: &'static [Component]) -> Need {
        Need {
            what,
            components,
            required: false,
        }
    }
}

/// Needs several rules share.
pub const DATANODE_SERVICE_LOGS: Need =
    Need::required("datanode service logs", &[Component::Datanode]);
pub const SCM_SERVICE_LOGS: Need = Need::required("SCM service logs", &[Component::Scm]);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ran,
    Partial,
    Blind,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ran => "ran",
            Status::Partial => "partial",
            Status::Blind => "blind",
        }
    }
}

/// One rule's coverage (the contract's `coverage[]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Coverage {
    pub rule: &'static str,
    pub status: Status,
    /// The components whose logs the rule reads.
    pub needs: Vec<&'static str>,
    /// What the logs lack, one sentence each: "needs SCM service logs (scm); none found".
    pub missing: Vec<String>,
    /// Hosts of a role the rule reads whose logs lack what it needs there.
    pub hosts_missing: Vec<String>,
}

/// The role a host plays, by the component of its logs.
fn role(component: Component) -> Option<&'static str> {
    use Component::*;
    match component {
        Scm | ScmAudit => Some("scm"),
        Datanode | DnAudit | DnContainer => Some("datanode"),
        Om | OmAudit | OmSysAudit => Some("om"),
        Recon | S3g | Client | Unknown => None,
    }
}

/// Each rule's coverage, given the (host, component) pairs the inputs hold logs of (a host
/// named `unknown` counts for presence, not for hosts missing).
pub fn coverage(docs: &[&RuleDoc], present: &BTreeSet<(String, Component)>) -> Vec<Coverage> {
    let hosts: BTreeSet<&str> = present.iter().map(|(h, _)| h.as_str()).collect();
    let present: BTreeSet<(String, Component)> = present
        .iter()
        .map(|(host, c)| (same_host(host, &hosts).to_string(), *c))
        .collect();
    docs.iter()
        .map(|doc| rule_coverage(doc, &present))
        .collect()
}

/// A docker-compose service (`scm1_1`, `datanode1-1`) is the host of that name without its
/// replica number when the inputs also hold that host's own folder (`scm1/`).
fn same_host<'a>(host: &'a str, hosts: &BTreeSet<&str>) -> &'a str {
    let base = host.trim_end_matches(|c: char| c.is_ascii_digit());
    match base.strip_suffix(['_', '-']) {
        Some(name) if base.len() < host.len() && hosts.contains(name) => name,
        _ => host,
    }
}

fn rule_coverage(doc: &RuleDoc, present: &BTreeSet<(String, Component)>) -> Coverage {
    let mut status = Status::Ran;
    let mut missing = Vec::new();
    let mut hosts_missing = BTreeSet::new();
    let mut needs = BTreeSet::new();
    for need in doc.needs {
        needs.extend(need.components.iter().map(|c| c.as_str()));
        let names: Vec<&str> = need.components.iter().map(|c| c.as_str()).collect();
        let label = format!("{} ({})", need.what, names.join(" or "));
        let found = present.iter().any(|(_, c)| need.components.contains(c));
        if !found {
            missing.push(format!("needs {label}; none found"));
            status = status.max(if need.required {
                Status::Blind
            } else {
                Status::Partial
            });
            continue;
        }
        let roles: BTreeSet<&str> = need.components.iter().filter_map(|c| role(*c)).collect();
        let hosts_of_role: BTreeSet<&str> = present
            .iter()
            .filter(|(host, c)| host != "unknown" && role(*c).is_some_and(|r| roles.contains(r)))
            .map(|(host, _)| host.as_str())
            .collect();
        let lacking: Vec<&str> = hosts_of_role
            .into_iter()
            .filter(|host| {
                !need
                    .components
                    .iter()
                    .any(|c| present.contains(&(host.to_string(), *c)))
            })
            .collect();
        if !lacking.is_empty() {
            missing.push(format!("{label} missing on {}", lacking.join(", ")));
            hosts_missing.extend(lacking.iter().map(|h| h.to_string()));
            status = status.max(Status::Partial);
        }
    }
    Coverage {
        rule: doc.id,
        status,
        needs: needs.into_iter().collect(),
        missing,
        hosts_missing: hosts_missing.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use std::collections::BTreeMap;

    fn present(pairs: &[(&str, Component)]) -> BTreeSet<(String, Component)> {
        pairs.iter().map(|(h, c)| (h.to_string(), *c)).collect()
    }

    /// Each rule's status and the hosts missing what it needs, by rule id.
    fn by_rule(pairs: &[(&str, Component)]) -> BTreeMap<&'static str, (Status, Vec<String>)> {
        let docs: Vec<&RuleDoc> = registry().into_iter().map(|r| r.doc()).collect();
        coverage(&docs, &present(pairs))
            .into_iter()
            .map(|c| (c.rule, (c.status, c.hosts_missing)))
            .collect()
    }

    #[test]
    fn datanode_logs_alone_leave_scm_and_om_rules_blind() {
        use Component::*;
        let result = by_rule(&[
            ("dn1", Datanode),
            ("dn1", DnAudit),
            ("dn2", Datanode),
            ("dn2", DnAudit),
        ]);
        assert_eq!(result["reused-write-future"].0, Status::Ran);
        for rule in [
            "overwritten-op-state",
            "premature-lease-close",
            "dropped-actions",
            "resurrected-container",
        ] {
            assert_eq!(result[rule].0, Status::Blind, "{rule}");
        }
        let docs: Vec<&RuleDoc> = registry().into_iter().map(|r| r.doc()).collect();
        let blind = coverage(&docs, &present(&[("dn1", Datanode)]))
            .into_iter()
            .find(|c| c.rule == "resurrected-container")
            .expect("registered");
        assert_eq!(blind.missing, ["needs SCM service logs (scm); none found"]);
        assert_eq!(blind.needs, ["scm"]);
    }

    #[test]
    fn a_host_without_the_needed_logs_makes_a_rule_partial() {
        use Component::*;
        let result = by_rule(&[
            ("scm1", Scm),
            ("scm1", ScmAudit),
            ("scm2", ScmAudit),
            ("dn1", Datanode),
            ("dn1", DnAudit),
            ("dn1", DnContainer),
            ("om1", Om),
            ("om1", OmAudit),
        ]);
        let resurrected = &result["resurrected-container"];
        assert_eq!(resurrected.0, Status::Partial);
        // A compose service of a host with its own folder is that host; `dn-2` is its own.
        let compose = by_rule(&[
            ("scm1", ScmAudit),
            ("scm1_1", Scm),
            ("scm2", Scm),
            ("dn-2", Scm),
        ]);
        assert_eq!(
            compose["resurrected-container"].0,
            Status::Ran,
            "{compose:?}"
        );
        let compose = by_rule(&[("scm1", ScmAudit), ("scm3_1", Scm)]);
        assert_eq!(compose["resurrected-container"].1, ["scm1"]);
        assert_eq!(resurrected.1, ["scm2"]);
        assert_eq!(result["dropped-actions"], (Status::Ran, Vec::new()));
    }
}
