//! A finding's remediation: its rule's [`oztrace_rules::Remediation`] with the commands filled
//! in for the finding's own container, datanode, key or pipeline.

use super::EvidenceDoc;
use oztrace_rules::RuleDoc;
use serde::Serialize;

/// `remediation` of a finding in the JSON document (the contract's `actions`, `fixed_in` and
/// `ticket_url`, plus `affected`, `fix` and `attach`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RemediationDoc {
    /// One line per step, `purpose: command` when the step is a command.
    pub actions: Vec<String>,
    pub fixed_in: Option<&'static str>,
    pub ticket_url: String,
    pub affected: &'static str,
    pub fix: &'static str,
    pub attach: Vec<&'static str>,
    /// The steps as (purpose, filled command), for the views that set commands apart.
    #[serde(skip)]
    pub steps: Vec<(String, Option<String>)>,
}

impl RemediationDoc {
    pub fn of(doc: &RuleDoc, entities: &[&str], evidence: &[EvidenceDoc]) -> RemediationDoc {
        let values = Placeholders::of(entities, evidence);
        let steps: Vec<(String, Option<String>)> = doc
            .remediation
            .actions
            .iter()
            .map(|a| (values.fill(a.purpose), a.command.map(|c| values.fill(c))))
            .collect();
        RemediationDoc {
            actions: steps
                .iter()
                .map(|(purpose, command)| match command {
                    Some(command) => format!("{purpose}: {command}"),
                    None => purpose.clone(),
                })
                .collect(),
            fixed_in: doc.remediation.fixed_in,
            ticket_url: doc.ticket_url(),
            affected: doc.remediation.affected,
            fix: doc.remediation.fix,
            attach: doc.remediation.attach.to_vec(),
            steps,
        }
    }

    /// `fixed in 2.3.0`, or `open` while no release has the fix.
    pub fn status(&self) -> String {
        match self.fixed_in {
            Some(release) => format!("fixed in {release}"),
            None => "open".to_string(),
        }
    }
}

/// The values a finding gives the placeholders of its rule's commands.
#[derive(Debug, Default)]
struct Placeholders {
    container: Option<String>,
    datanode: Option<String>,
    datanode_host: Option<String>,
    key: Option<String>,
    bucket: Option<String>,
    pipeline: Option<String>,
}

impl Placeholders {
    /// From the finding's entity and related entities (first one of a kind wins), and the host
    /// name Ozone prints after a datanode UUID (`<uuid>(dn3.example.com/10.0.1.13)`).
    fn of(entities: &[&str], evidence: &[EvidenceDoc]) -> Placeholders {
        let mut values = Placeholders::default();
        for entity in entities {
            let Some((kind, id)) = entity.split_once(':') else {
                continue;
            };
            match kind {
                "container" => {
                    values.container.get_or_insert_with(|| id.to_string());
                }
                "block" => {
                    let container = id.split(':').next().unwrap_or(id);
                    values
                        .container
                        .get_or_insert_with(|| container.to_string());
                }
                "datanode" => match id.strip_prefix("host=") {
                    Some(host) => {
                        values.datanode_host.get_or_insert_with(|| host.to_string());
                    }
                    None => {
                        values.datanode.get_or_insert_with(|| id.to_string());
                    }
                },
                "key" => {
                    values.key.get_or_insert_with(|| id.to_string());
                    let parts: Vec<&str> = id.split('/').filter(|p| !p.is_empty()).collect();
                    if parts.len() >= 2 {
                        values
                            .bucket
                            .get_or_insert_with(|| format!("/{}/{}", parts[0], parts[1]));
                    }
                }
                "pipeline" => {
                    values.pipeline.get_or_insert_with(|| id.to_string());
                }
                _ => {}
            }
        }
        if values.datanode_host.is_none()
            && let Some(uuid) = &values.datanode
        {
            let marker = format!("{uuid}(");
            values.datanode_host = evidence.iter().find_map(|e| {
                let at = e.text.find(&marker)? + marker.len();
                let rest = &e.text[at..];
                let end = rest.find(['/', ')'])?;
                let host = &rest[..end];
                (!host.is_empty() && !host.contains(char::is_whitespace)).then(|| host.to_string())
            });
        }
        values
    }

    fn fill(&self, template: &str) -> String {
        let slots: [(&str, &Option<String>, &str); 6] = [
            ("{container}", &self.container, "<container-id>"),
            ("{datanode_host}", &self.datanode_host, "<datanode-host>"),
            ("{datanode}", &self.datanode, "<datanode-uuid>"),
            ("{key}", &self.key, "/<volume>/<bucket>/<key>"),
            ("{bucket}", &self.bucket, "/<volume>/<bucket>"),
            ("{pipeline}", &self.pipeline, "<pipeline-id>"),
        ];
        let mut out = template.to_string();
        for (slot, value, unknown) in slots {
            if out.contains(slot) {
                out = out.replace(slot, value.as_deref().unwrap_or(unknown));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_come_from_the_finding_and_unknown_ones_stay_visible() {
        let values = Placeholders::of(
            &[
                "block:1042:113750153625600017",
                "datanode:a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60",
            ],
            &[],
        );
        assert_eq!(
            values.fill("ozone admin container close {container}"),
            "ozone admin container close 1042"
        );
        assert_eq!(
            values.fill("ozone admin datanode decommission {datanode_host}"),
            "ozone admin datanode decommission <datanode-host>"
        );
        let key = Placeholders::of(&["key:/vol/bucket/dir/file.log"], &[]);
        assert_eq!(
            key.fill("ozone sh key info {key}; ozone admin om list-open-files --prefix {bucket}"),
            "ozone sh key info /vol/bucket/dir/file.log; ozone admin om list-open-files --prefix /vol/bucket"
        );
    }

    /// Ozone commands (and their flags used here) read from Ozone's picocli `@Command` classes
    /// (hadoop-ozone/cli-admin, hadoop-hdds/tools, cli-shell, debug) of 2.0.0 to master; a rule
    /// that names another command must be checked against the source and added here.
    const REAL_COMMANDS: &[&str] = &[
        "ozone admin scm roles",
        "ozone admin container info --json ",
        "ozone admin container info ",
        "ozone admin container list --state OPEN",
        "ozone admin container close ",
        "ozone admin container report",
        "ozone admin datanode list --id ",
        "ozone admin datanode decommission ",
        "ozone admin datanode status decommission --json",
        "ozone admin om list-open-files --prefix ",
        "ozone sh key info ",
        "ozone debug replicas verify --checksums ",
    ];

    #[test]
    fn every_rule_has_remediation_with_real_admin_commands() {
        for rule in oztrace_rules::registry() {
            let doc = rule.doc();
            let r = &doc.remediation;
            assert!(!r.affected.is_empty() && !r.fix.is_empty(), "{}", doc.id);
            assert!(!r.attach.is_empty(), "{} says what to attach", doc.id);
            let commands: Vec<&str> = r.actions.iter().filter_map(|a| a.command).collect();
            assert!(
                commands.iter().any(|c| c.starts_with("ozone admin ")),
                "{} has an ozone admin command",
                doc.id
            );
            for command in commands {
                assert!(
                    REAL_COMMANDS.iter().any(|real| command.starts_with(real)),
                    "{}: `{command}` is not a command checked against Ozone's source",
                    doc.id
                );
            }
            assert_eq!(
                doc.ticket_url(),
                format!("https://issues.apache.org/jira/browse/{}", doc.ticket)
            );
        }
    }
}
