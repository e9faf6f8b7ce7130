//! Bug signatures, replayed over the event graph and the state machines' transitions.
//!
//! One rule per file, ruff-style: its [`RuleDoc`] says what it detects, why it matters, an
//! example, the evidence it uses and the loggers that sharpen it. Adding a rule touches its file,
//! its sample bundles and one line of [`registry`].

pub mod coverage;
pub mod dropped_actions;
pub mod overwritten_op_state;
pub mod premature_lease_close;
pub mod resurrected_container;
pub mod reused_write_future;

use oztrace_analyzer::Analysis;
use oztrace_analyzer::trace::EventId;
use oztrace_parser::entity::Entity;
use oztrace_parser::units::{TimeUnit, ValueError, parse_duration_ms, parse_size_bytes};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

/// How sure a finding is (the contract's words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// A precondition or an effect alone.
    Possible,
    /// Its effects plus the preconditions.
    Likely,
    /// The logs show the defect itself.
    Confirmed,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Possible => "possible",
            Confidence::Likely => "likely",
            Confidence::Confirmed => "confirmed",
        }
    }

    pub fn parse(s: &str) -> Option<Confidence> {
        Some(match s {
            "possible" => Confidence::Possible,
            "likely" => Confidence::Likely,
            "confirmed" => Confidence::Confirmed,
            _ => return None,
        })
    }
}

/// Fixed per rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Critical,
    High,
    Medium,
    Low,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
        }
    }
}

/// What an evidence line is to the finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Cause,
    Effect,
    Context,
}

/// One event of the minimal set that proves a finding, with a one-line reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    pub event: EventId,
    pub role: Role,
    pub note: String,
}

/// One (rule, entity) incident.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    pub entity: Entity,
    pub related: Vec<Entity>,
    pub confidence: Confidence,
    /// Why this confidence, in one line.
    pub reason: String,
    /// One sentence a support engineer can paste into a ticket.
    pub summary: String,
    pub evidence: Vec<Evidence>,
}

/// What the logs lack for a rule, and the lines that would close the gap.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Gap {
    pub rule: &'static str,
    pub missing: String,
    /// Lines to paste: `log4j.logger.<name>=<LEVEL>` or ozone-site.xml properties.
    pub enable: Vec<String>,
    pub hosts: Vec<String>,
}

/// A rule's documentation (`oztrace explain RULE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RuleDoc {
    pub id: &'static str,
    pub ticket: &'static str,
    pub severity: Severity,
    pub title: &'static str,
    /// What it detects.
    pub detects: &'static str,
    /// Why it matters.
    pub why: &'static str,
    /// An example of the log lines it flags.
    pub example: &'static str,
    /// The evidence it uses and how confidence is decided.
    pub evidence: &'static str,
    /// `log4j.logger.<name>=<LEVEL>` lines that sharpen it.
    pub loggers: &'static [&'static str],
    /// The logs it reads, for the report's coverage (`ran`, `partial` or `blind`).
    pub needs: &'static [coverage::Need],
    /// The settings it reads (`--set`, `ozone-site.xml`).
    pub settings: &'static [SettingDoc],
}

/// A setting a rule reads: its key, how its value parses and its default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SettingDoc {
    pub key: &'static str,
    #[serde(skip)]
    pub kind: SettingKind,
    pub default: &'static str,
}

/// How a setting's value parses (Hadoop's `Configuration` getters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingKind {
    /// `getTimeDuration`, a bare number in this unit.
    Duration(TimeUnit),
    /// `getStorageSize`.
    Size,
}

/// `--set` keys that name no setting a rule reads are refused, unless they start with this:
/// free-form settings for experiments, kept as given.
pub const FREE_FORM_PREFIX: &str = "x.";

/// Checks one `KEY=VALUE` against the settings the rules read: an unknown key (without
/// [`FREE_FORM_PREFIX`]) or a value that does not parse is an error that names the key.
pub fn check_setting(key: &str, value: &str) -> Result<(), String> {
    if key.starts_with(FREE_FORM_PREFIX) {
        return Ok(());
    }
    let Some(setting) = setting_doc(key) else {
        let known: BTreeSet<&str> = registry()
            .iter()
            .flat_map(|r| r.doc().settings.iter().map(|s| s.key))
            .collect();
        return Err(format!(
            "unknown setting `{key}` (rules read: {}; prefix a free-form key with `{FREE_FORM_PREFIX}`)",
            known.into_iter().collect::<Vec<_>>().join(", ")
        ));
    };
    setting
        .parse(value)
        .map(drop)
        .map_err(|e| format!("{key}: {e}"))
}

/// The registered setting of that key.
pub fn setting_doc(key: &str) -> Option<&'static SettingDoc> {
    registry()
        .into_iter()
        .flat_map(|r| r.doc().settings)
        .find(|s| s.key == key)
}

impl SettingDoc {
    /// The value in milliseconds (durations) or bytes (sizes).
    pub fn parse(&self, value: &str) -> Result<i64, ValueError> {
        match self.kind {
            SettingKind::Duration(bare) => parse_duration_ms(value, bare),
            SettingKind::Size => parse_size_bytes(value).map(|b| b.min(i64::MAX as u64) as i64),
        }
    }
}

/// Configuration the rules read: `--set KEY=VALUE` and `ozone-site.xml` found in the bundle.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// key → (value, where it came from).
    values: BTreeMap<String, (String, String)>,
}

impl Settings {
    pub fn set(&mut self, key: &str, value: &str, source: &str) {
        self.values
            .insert(key.to_string(), (value.to_string(), source.to_string()));
    }

    /// The value of a registered setting in milliseconds or bytes, and where it came from;
    /// `None` when it is not set (values are checked when they are set).
    pub fn parsed(&self, setting: &SettingDoc) -> Option<(i64, &str)> {
        let (value, source) = self.get(setting.key)?;
        setting.parse(value).ok().map(|v| (v, source))
    }

    /// The value and its source (`--set`, a file path), if any.
    pub fn get(&self, key: &str) -> Option<(&str, &str)> {
        self.values.get(key).map(|(v, s)| (v.as_str(), s.as_str()))
    }
}

/// Which loggers each host had at DEBUG/TRACE, from `log4j.properties` in the bundle and from the
/// DEBUG/TRACE lines actually seen.
#[derive(Debug, Clone, Default)]
pub struct LoggingCoverage {
    /// host → logger name → lowest level seen or configured (`DEBUG`, `TRACE`).
    verbose: BTreeMap<String, BTreeMap<String, String>>,
}

impl LoggingCoverage {
    pub fn record(&mut self, host: &str, logger: &str, level: &str) {
        let levels = self.verbose.entry(host.to_string()).or_default();
        let slot = levels
            .entry(logger.to_string())
            .or_insert_with(|| level.to_string());
        if level == "TRACE" {
            *slot = "TRACE".to_string();
        }
    }

    /// Whether `host` logs `logger` (a full name, or the `%c{2}` tail of one) at `level` or finer.
    pub fn enabled(&self, host: &str, logger: &str, level: &str) -> bool {
        let Some(levels) = self.verbose.get(host) else {
            return false;
        };
        levels.iter().any(|(name, have)| {
            let matches = name == logger
                || logger.starts_with(&format!("{name}."))
                || logger.ends_with(&format!(".{name}"))
                || name.ends_with(&format!(".{logger}"));
            matches && (have == "TRACE" || have == level)
        })
    }
}

/// What a rule sees.
pub struct Context<'a> {
    pub analysis: &'a Analysis,
    pub settings: &'a Settings,
    pub logging: &'a LoggingCoverage,
}

/// What a rule reports.
#[derive(Debug, Default)]
pub struct Output {
    pub findings: Vec<Finding>,
    pub gaps: Vec<Gap>,
}

pub trait Rule: Sync {
    fn doc(&self) -> &'static RuleDoc;
    fn check(&self, context: &Context<'_>, out: &mut Output);
}

/// Every rule, in contract order.
pub fn registry() -> Vec<&'static dyn Rule> {
    vec![
        &reused_write_future::RULE,
        &overwritten_op_state::OverwrittenOpState,
        &premature_lease_close::PrematureLeaseClose,
        &dropped_actions::DroppedActions,
        &resurrected_container::RULE,
    ]
}

/// The contract's fingerprint: the first 16 hex digits of SHA-256 of `rule + "\n" + entity`.
pub fn fingerprint(rule: &str, entity: &Entity) -> String {
    let digest = Sha256::digest(format!("{rule}\n{entity}").as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs the selected rules; incidents of one (rule, entity) merge into one finding with the
/// highest confidence and the union of evidence.
pub fn run(context: &Context<'_>, rules: &[&'static dyn Rule]) -> Output {
    let mut out = Output::default();
    for rule in rules {
        rule.check(context, &mut out);
    }
    let mut merged: BTreeMap<(&'static str, Entity), Finding> = BTreeMap::new();
    for finding in out.findings.drain(..) {
        match merged.entry((finding.rule, finding.entity.clone())) {
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(finding);
            }
            std::collections::btree_map::Entry::Occupied(mut slot) => {
                let kept = slot.get_mut();
                if finding.confidence > kept.confidence {
                    kept.confidence = finding.confidence;
                    kept.reason = finding.reason;
                    kept.summary = finding.summary;
                }
                for e in finding.evidence {
                    if !kept.evidence.iter().any(|k| k.event == e.event) {
                        kept.evidence.push(e);
                    }
                }
                let related: BTreeSet<Entity> =
                    kept.related.drain(..).chain(finding.related).collect();
                kept.related = related.into_iter().collect();
            }
        }
    }
    out.findings = merged.into_values().collect();
    out.gaps.sort();
    out.gaps.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_is_sha256_prefix_of_rule_and_entity() {
        // printf 'resurrected-container\ncontainer:1051' | sha256sum | cut -c1-16
        assert_eq!(
            fingerprint("resurrected-container", &Entity::Container(1051)),
            "8e6488650462a0f2"
        );
    }

    #[test]
    fn confidence_orders_and_parses() {
        assert!(Confidence::Possible < Confidence::Likely);
        assert!(Confidence::Likely < Confidence::Confirmed);
        assert_eq!(Confidence::parse("likely"), Some(Confidence::Likely));
        assert_eq!(Confidence::parse("sure"), None);
    }

    #[test]
    fn logging_coverage_matches_full_and_abbreviated_names() {
        let mut cov = LoggingCoverage::default();
        cov.record(
            "dn1",
            "org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask",
            "DEBUG",
        );
        assert!(cov.enabled("dn1", "endpoint.HeartbeatEndpointTask", "DEBUG"));
        assert!(cov.enabled(
            "dn1",
            "org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask",
            "DEBUG"
        ));
        assert!(!cov.enabled("dn1", "org.apache.ratis.server.raftlog.RaftLog", "TRACE"));
        assert!(!cov.enabled("dn2", "endpoint.HeartbeatEndpointTask", "DEBUG"));
    }
}
