//! Bug signatures, replayed over the event graph and the state machines' transitions.
//!
//! One rule per file, ruff-style. A rule is a unit struct declared with [`declare_rule!`], named
//! after its id (`resurrected-container` is `resurrected_container.rs` declaring
//! `pub struct ResurrectedContainer;` and `pub const ID`); its doc comment is its documentation in
//! Markdown ([`Section`]s: what it detects, why it matters, an example, the evidence, the
//! look-alikes), which `oztrace explain` prints. Its [`RuleDoc`] adds the ticket, severity,
//! settings, loggers, logs it needs and remediation, and one line of [`registry`] registers it.
//! `scripts/new-rule` writes all of that, and the sample bundles, for a new rule. A container
//! health rule is declared with `health_rule!` instead, which takes the rest from
//! [`container_health`].

/// Declares a rule: its unit struct, documented in Markdown (the first line the title, then one
/// `## ` heading per [`Section`] in order), and its [`Rule`] made of the module's `static DOC:
/// RuleDoc` and `fn check(context: &Context<'_>, out: &mut Output)`. The doc comment is kept as
/// `MARKDOWN` for [`RuleDoc::markdown`], so that `oztrace explain` prints what rustdoc shows.
macro_rules! declare_rule {
    ($(#[doc = $line:literal])+ pub struct $name:ident;) => {
        $(#[doc = $line])+
        pub struct $name;

        impl $name {
            /// The doc comment above, one line each.
            pub const MARKDOWN: &'static str = concat!($($line, "\n"),+);
        }

        impl crate::Rule for $name {
            fn doc(&self) -> &'static crate::RuleDoc {
                &DOC
            }

            fn check(&self, context: &crate::Context<'_>, out: &mut crate::Output) {
                check(context, out)
            }
        }
    };
}

/// Declares a container-health rule: [`declare_rule!`] with the `DOC` and `check` that every
/// health rule shares ([`container_health`]), from what is its own: its doc comment, ticket,
/// severity and the actions after [`container_health::SEE_CONTAINER`]. The module's `ID` is the
/// rule id, which names the analyzer's `HealthKind` whose verdicts it reports.
macro_rules! health_rule {
    (
        $(#[doc = $line:literal])+
        pub struct $name:ident;
        ticket: $ticket:literal,
        severity: $severity:expr,
        actions: [$($action:expr),* $(,)?] $(,)?
    ) => {
        declare_rule! {
            $(#[doc = $line])+
            pub struct $name;
        }

        static DOC: crate::RuleDoc = crate::container_health::doc(
            ID,
            $ticket,
            $severity,
            $name::MARKDOWN,
            &[crate::container_health::SEE_CONTAINER, $($action),*],
        );

        fn check(context: &crate::Context<'_>, out: &mut crate::Output) {
            crate::container_health::check(ID, context, out);
        }
    };
}

pub mod container_duplicate_open;
pub mod container_health;
pub mod container_mismatched_replicas;
pub mod container_over_replicated;
pub mod container_quasi_closed_stuck;
pub mod container_under_replicated;
pub mod container_unhealthy_replica;
pub mod coverage;
pub mod dropped_actions;
pub mod overwritten_op_state;
pub mod premature_lease_close;
pub mod resurrected_container;
pub mod reused_write_future;

use oztrace_analyzer::Analysis;
use oztrace_analyzer::kinds::{Reads, Wanted};
use oztrace_analyzer::machines::MachineSet;
use oztrace_analyzer::trace::EventId;
use oztrace_parser::entity::Entity;
use oztrace_parser::units::{TimeUnit, ValueError, parse_duration_ms};
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
#[derive(Debug, Clone, Copy, Serialize)]
pub struct RuleDoc {
    pub id: &'static str,
    pub ticket: &'static str,
    pub severity: Severity,
    /// The rule struct's doc comment ([`declare_rule!`]): the title, then the [`Section`]s.
    pub markdown: &'static str,
    /// The kinds of events it reads from the trace (see `oztrace_analyzer::kinds`); the trace's
    /// facts it reads besides are declared there.
    #[serde(skip)]
    pub consumes: &'static [Reads],
    /// The state machines whose transitions it reads, by name (`oztrace_analyzer::machines`):
    /// `scan` replays only the machines its rules read.
    #[serde(skip)]
    pub machines: &'static [&'static str],
    /// Its family: a bug signature, or a container health check.
    pub family: RuleFamily,
    /// `log4j.logger.<name>=<LEVEL>` lines that sharpen it.
    pub loggers: &'static [&'static str],
    /// The settings it reads (`--set`, else `ozone-site.xml` in the bundle, else the default).
    pub settings: &'static [SettingDoc],
    /// What an operator does about a finding.
    pub remediation: Remediation,
    /// The logs it reads, for the report's coverage (`ran`, `partial` or `blind`).
    pub needs: &'static [coverage::Need],
}

/// The sections of a rule's documentation, each a `## ` heading of its doc comment, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Detects,
    Why,
    /// Log lines it flags in ```` ```text ```` blocks (each block one log file), then a line
    /// ``Kinds: `kind`, …`` naming what each record of the blocks classifies as, in order.
    Example,
    /// The evidence it cites and how confidence is decided.
    Evidence,
    /// What looks like the bug and is not flagged, and why.
    LookAlikes,
}

impl Section {
    pub const ALL: [Section; 5] = [
        Section::Detects,
        Section::Why,
        Section::Example,
        Section::Evidence,
        Section::LookAlikes,
    ];

    pub fn heading(self) -> &'static str {
        match self {
            Section::Detects => "What it detects",
            Section::Why => "Why it matters",
            Section::Example => "Example",
            Section::Evidence => "Evidence and confidence",
            Section::LookAlikes => "Look-alikes",
        }
    }
}

impl RuleDoc {
    /// The Apache JIRA page of the rule's ticket.
    pub fn ticket_url(&self) -> String {
        format!("https://issues.apache.org/jira/browse/{}", self.ticket)
    }

    /// The doc comment's first line.
    pub fn title(&self) -> &'static str {
        self.markdown.lines().next().unwrap_or_default().trim()
    }

    /// The doc comment after the title: the sections with their headings, as Markdown.
    pub fn body(&self) -> String {
        let lines: Vec<&str> = self.lines().skip(1).collect();
        trim_blank(&lines)
    }

    /// One section's text, as Markdown without its heading (empty when the doc lacks it).
    pub fn section(&self, section: Section) -> String {
        let heading = format!("## {}", section.heading());
        let lines: Vec<&str> = self
            .lines()
            .skip_while(|line| *line != heading)
            .skip(1)
            .take_while(|line| !line.starts_with("## "))
            .collect();
        trim_blank(&lines)
    }

    /// The doc comment's lines without the space `///` leaves before the text.
    fn lines(&self) -> impl Iterator<Item = &'static str> {
        self.markdown
            .lines()
            .map(|line| line.strip_prefix(' ').unwrap_or(line))
    }
}

/// Lines joined, without the blank ones they start and end with.
fn trim_blank(lines: &[&str]) -> String {
    let start = lines.iter().position(|l| !l.trim().is_empty());
    let end = lines.iter().rposition(|l| !l.trim().is_empty());
    match (start, end) {
        (Some(start), Some(end)) => lines[start..=end].join("\n"),
        _ => String::new(),
    }
}

/// What an operator does about a finding of a rule: which releases have the defect, whether a
/// release fixes it, what to run now, and what a ticket needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Remediation {
    /// The Ozone releases that have the defect, and since when.
    pub affected: &'static str,
    /// The first release with the fix; `None` while the ticket is open.
    pub fixed_in: Option<&'static str>,
    /// The state of the fix in words (the proposed change while it is open).
    pub fix: &'static str,
    /// Immediate actions, in order: check, then repair.
    pub actions: &'static [Action],
    /// What to attach to a ticket (or to the Ozone JIRA issue).
    pub attach: &'static [&'static str],
}

/// One step an operator takes. Commands are real `ozone admin …` (or `ozone sh`/`ozone debug`)
/// commands; `{container}`, `{datanode}`, `{datanode_host}`, `{key}` and `{pipeline}` are filled
/// from the finding when it names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Action {
    /// What the step is for.
    pub purpose: &'static str,
    /// The command to run, if the step is one.
    pub command: Option<&'static str>,
}

/// A setting a rule reads: an Ozone key where Ozone has one, else an `oztrace.<rule>.<name>`
/// key for a threshold of the rule's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SettingDoc {
    pub key: &'static str,
    pub default: &'static str,
    /// Where the default comes from: the Ozone constant, or why the rule chose it.
    pub default_from: &'static str,
    /// What the rule does with it.
    pub used_for: &'static str,
}

/// How a setting's values parse, as its default is written: a duration (Hadoop's
/// `getTimeDuration`; a bare number is milliseconds, the unit the rules read durations in) when
/// the default carries a unit, else a whole number of at least 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingKind {
    Duration,
    Number,
}

impl SettingDoc {
    pub fn kind(&self) -> SettingKind {
        if self.default.trim().parse::<i64>().is_ok() {
            SettingKind::Number
        } else {
            SettingKind::Duration
        }
    }

    /// A value in milliseconds (durations) or as the number it is.
    pub fn parse(&self, value: &str) -> Result<i64, ValueError> {
        match self.kind() {
            SettingKind::Duration => parse_duration_ms(value, TimeUnit::Milliseconds),
            SettingKind::Number => parse_count(value),
        }
    }
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

    /// The value and its source (`--set`, a file path), if any.
    pub fn get(&self, key: &str) -> Option<(&str, &str)> {
        self.values.get(key).map(|(v, s)| (v.as_str(), s.as_str()))
    }

    /// A duration setting in milliseconds, read as `Configuration.getTimeDuration` reads it (a
    /// bare number is milliseconds); the documented default when unset or not a positive duration.
    pub fn duration_ms(&self, doc: &SettingDoc) -> i64 {
        let parse = |v: &str| parse_duration_ms(v, TimeUnit::Milliseconds).ok();
        self.get(doc.key)
            .and_then(|(v, _)| parse(v))
            .filter(|&ms| ms > 0)
            .or_else(|| parse(doc.default))
            .unwrap_or(0)
    }

    /// A whole-number setting; the documented default when unset or not a number of at least `min`.
    pub fn number(&self, doc: &SettingDoc, min: i64) -> i64 {
        self.get(doc.key)
            .and_then(|(v, _)| parse_count(v).ok())
            .filter(|&n| n >= min)
            .or_else(|| doc.default.parse().ok())
            .unwrap_or(min)
    }
}

/// A whole number of at least 0, as `Configuration.getInt` / `getLong` read it.
fn parse_count(value: &str) -> Result<i64, ValueError> {
    value
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|&n| n >= 0)
        .ok_or_else(|| {
            ValueError::new(format!(
                "`{}` is not a whole number of at least 0",
                value.trim()
            ))
        })
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

/// The two families of rules: the signatures of known Ozone bugs, and the health of the
/// cluster's containers (what `ozone debug log container` checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleFamily {
    Signature,
    Health,
}

impl RuleFamily {
    /// A finding's `family`, as the contract names it: `signature` or `health`.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleFamily::Signature => "signature",
            RuleFamily::Health => "health",
        }
    }
}

/// A rule, as [`declare_rule!`] implements it.
pub trait Rule: Sync {
    fn doc(&self) -> &'static RuleDoc;
    fn check(&self, context: &Context<'_>, out: &mut Output);
}

/// Every rule, in contract order.
pub fn registry() -> Vec<&'static dyn Rule> {
    vec![
        &reused_write_future::ReusedWriteFuture,
        &overwritten_op_state::OverwrittenOpState,
        &premature_lease_close::PrematureLeaseClose,
        &dropped_actions::DroppedActions,
        &resurrected_container::ResurrectedContainer,
        &container_duplicate_open::ContainerDuplicateOpen,
        &container_mismatched_replicas::ContainerMismatchedReplicas,
        &container_under_replicated::ContainerUnderReplicated,
        &container_over_replicated::ContainerOverReplicated,
        &container_unhealthy_replica::ContainerUnhealthyReplica,
        &container_quasi_closed_stuck::ContainerQuasiClosedStuck,
    ]
}

/// What `rules` read.
pub fn consumed(rules: &[&'static dyn Rule]) -> Wanted {
    let mut wanted = Wanted::new();
    for rule in rules {
        wanted.add(rule.doc().consumes);
    }
    wanted
}

/// The machines whose transitions `rules` read.
pub fn machines(rules: &[&'static dyn Rule]) -> MachineSet {
    MachineSet::of(
        rules
            .iter()
            .flat_map(|rule| rule.doc().machines.iter().copied()),
    )
}

/// The contract's fingerprint: the first 16 hex digits of SHA-256 of `rule + "\n" + entity`.
pub fn fingerprint(rule: &str, entity: &Entity) -> String {
    let digest = Sha256::digest(format!("{rule}\n{entity}").as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs the selected rules; incidents of one (rule, entity) merge into one finding with the
/// highest confidence and the union of evidence.
pub fn run(context: &Context<'_>, rules: &[&'static dyn Rule]) -> Output {
    // Rules read the analysis only: each on its own core when there are several, their output in
    // registry order.
    let outputs = oztrace_analyzer::cores::map(rules, |rule| {
        let mut out = Output::default();
        rule.check(context, &mut out);
        out
    });
    let mut out = Output::default();
    for part in outputs {
        out.findings.extend(part.findings);
        out.gaps.extend(part.gaps);
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
mod testing;
#[cfg(test)]
mod tests;
