//! What the six container-health rules share: the settings they read, the logs they need, the
//! kinds they consume, and how a health verdict of `oztrace_analyzer::replicas` becomes a
//! finding. Each rule file declares itself with `health_rule!`: its documentation, ticket,
//! severity and actions, and its id, which names the analyzer's
//! [`HealthKind`](oztrace_analyzer::replicas::HealthKind); the decisions are the analyzer's
//! ([`ContainerReplicas::health`]), which `oztrace containers` and `replay` read too.

use crate::coverage::Need;
use crate::{
    Action, Confidence, Context, Evidence, Finding, Output, Remediation, Role, RuleDoc, RuleFamily,
    SettingDoc, Settings, Severity,
};
use oztrace_analyzer::kinds::Reads;
use oztrace_analyzer::replicas::{
    self, Basis, ContainerReplicas, HealthConfig, HealthKind, Replication,
};
use oztrace_parser::entity::Entity;
use oztrace_parser::source::Component;

/// The kinds every health rule reads: the analyzer's replica index's.
pub const CONSUMES: &[Reads] = replicas::CONSUMES;

const REPLICATION: SettingDoc = SettingDoc {
    key: "ozone.server.default.replication",
    default: "3",
    default_from: "Ozone OMConfigKeys.OZONE_SERVER_DEFAULT_REPLICATION_DEFAULT (what `ozone debug log container` \
reads too)",
    used_for: "the replica count of a Ratis container whose replication no SCM line prints (an EC container's \
scheme comes from SCM lines, else from `ozone.replication` in ozone-site.xml when it names one, e.g. \
`rs-6-3-1024k`)",
};

const RM_INTERVAL: SettingDoc = SettingDoc {
    key: "hdds.scm.replication.thread.interval",
    default: "300s",
    default_from: "Ozone ReplicationManagerConfiguration",
    used_for: "a condition younger than two ReplicationManager passes at the end of the logs has not been \
acted on yet: no finding",
};

const EVENT_TIMEOUT: SettingDoc = SettingDoc {
    key: "hdds.scm.replication.event.timeout",
    default: "12m",
    default_from: "Ozone ReplicationManagerConfiguration",
    used_for: "a replicate, reconstruct or delete command sent this recently at the end of the logs is still \
in flight: the container is being repaired, no finding",
};

/// The settings of every health rule.
pub const SETTINGS: &[SettingDoc] = &[REPLICATION, RM_INTERVAL, EVENT_TIMEOUT];

/// The datanodes' container logs; SCM's lines sharpen the verdicts.
pub const NEEDS: &[Need] = &[
    Need::required("datanode container logs", &[Component::DnContainer]),
    Need::optional("SCM service logs", &[Component::Scm]),
];

/// Loggers whose lines the index reads when they are on.
pub const LOGGERS: &[&str] = &[
    "log4j.logger.org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler=DEBUG",
    "log4j.logger.org.apache.hadoop.hdds.scm.container.ContainerReportHandler=DEBUG",
];

/// The health decisions' settings: `--set`, else ozone-site.xml, else Ozone's defaults.
pub fn config(settings: &Settings) -> HealthConfig {
    let ratis_default = settings
        .get(REPLICATION.key)
        .and_then(|(v, _)| Replication::parse(v))
        .filter(|r| !r.is_ec())
        .unwrap_or(Replication::Ratis { factor: 3 });
    let ec_default = settings
        .get("ozone.replication")
        .and_then(|(v, _)| Replication::parse(v))
        .filter(|r| r.is_ec());
    HealthConfig {
        ratis_default,
        ec_default,
        rm_interval_ms: settings.duration_ms(&RM_INTERVAL),
        event_timeout_ms: settings.duration_ms(&EVENT_TIMEOUT),
    }
}

/// The documentation of a health rule, from what is its own (`health_rule!`): what it shares
/// with the others (the settings, loggers, logs, kinds it reads, and what to attach to a ticket)
/// comes from here.
pub const fn doc(
    id: &'static str,
    ticket: &'static str,
    severity: Severity,
    markdown: &'static str,
    actions: &'static [Action],
) -> RuleDoc {
    RuleDoc {
        id,
        ticket,
        severity,
        markdown,
        consumes: CONSUMES,
        // The replicas index (the trace's), no machine.
        machines: &[],
        family: RuleFamily::Health,
        loggers: LOGGERS,
        settings: SETTINGS,
        remediation: Remediation {
            affected: "any release: a state of the cluster's containers, not a defect",
            fixed_in: None,
            fix: "A state of the cluster, not a defect of a release: the ReplicationManager repairs most of these on \
its own; the finding says it has not by the end of the logs.",
            actions,
            attach: &[
                "`ozone admin container info --json {container}`",
                "the dn-container logs of the datanodes this finding names, and the leader SCM's log",
                "`ozone debug log container --db=… info {container}` output, if it was run",
            ],
        },
        needs: NEEDS,
    }
}

/// The first action of every health rule.
pub const SEE_CONTAINER: Action = Action {
    purpose: "See the container and every replica as SCM knows them (state, BCSID, index, datanode)",
    command: Some("ozone admin container info --json {container}"),
};

/// The next action of most.
pub const SEE_REPORT: Action = Action {
    purpose: "See the ReplicationManager's count of containers in each health state",
    command: Some("ozone admin container report"),
};

/// Findings of the rule `rule` (the id of a `HealthKind`): one per container with that verdict.
pub fn check(rule: &'static str, context: &Context<'_>, out: &mut Output) {
    let trace = &context.analysis.trace;
    let index: &ContainerReplicas = trace.replicas();
    let config = config(context.settings);
    let Some(kind) = HealthKind::ALL.into_iter().find(|k| k.rule() == rule) else {
        return;
    };
    for (container, verdict) in index.verdicts(trace, &config, kind) {
        let (confidence, reason) = match verdict.basis {
            Basis::LogsAndScm => (
                Confidence::Confirmed,
                "the datanodes' container logs show it and an SCM line says the same",
            ),
            Basis::Logs => (
                Confidence::Likely,
                "the datanodes' container logs show it; no SCM line confirms it",
            ),
        };
        out.findings.push(Finding {
            rule,
            entity: Entity::Container(container),
            related: verdict
                .hosts
                .iter()
                .filter_map(|h| Entity::datanode_host(h))
                .collect(),
            confidence,
            reason: reason.to_string(),
            summary: format!(
                "Container {container} {}: {}.",
                verdict.label, verdict.summary
            ),
            evidence: verdict
                .evidence
                .into_iter()
                .map(|c| Evidence {
                    event: c.event,
                    role: if c.cause { Role::Cause } else { Role::Context },
                    note: c.note,
                })
                .collect(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    /// Each health rule's id is the analyzer's name for its kind, once each.
    #[test]
    fn the_health_rules_are_the_analyzers_six_kinds() {
        let health: Vec<&str> = registry()
            .into_iter()
            .filter(|r| r.doc().family == RuleFamily::Health)
            .map(|r| r.doc().id)
            .collect();
        let kinds: Vec<&str> = HealthKind::ALL.iter().map(|k| k.rule()).collect();
        assert_eq!(health, kinds);
    }

    #[test]
    fn the_replication_comes_from_ozone_site_else_the_default() {
        let mut settings = Settings::default();
        assert_eq!(
            config(&settings).ratis_default,
            Replication::Ratis { factor: 3 }
        );
        assert_eq!(config(&settings).ec_default, None);
        settings.set("ozone.server.default.replication", "1", "ozone-site.xml");
        settings.set("ozone.replication", "rs-6-3-1024k", "ozone-site.xml");
        settings.set(
            "hdds.scm.replication.event.timeout",
            "20m",
            "ozone-site.xml",
        );
        let c = config(&settings);
        assert_eq!(c.ratis_default, Replication::Ratis { factor: 1 });
        assert_eq!(c.ec_default.map(Replication::expected), Some(9));
        assert_eq!(c.event_timeout_ms, 20 * 60_000);
        // A Ratis `ozone.replication` is the client's, not an EC scheme.
        settings.set("ozone.replication", "3", "ozone-site.xml");
        assert_eq!(config(&settings).ec_default, None);
    }
}
