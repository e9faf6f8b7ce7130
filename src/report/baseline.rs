//! Baselines: fingerprints of known findings that a later scan leaves out of its report and its
//! exit status (`--baseline FILE`), written by `--write-baseline FILE`. An entry may say why it
//! is accepted (`reason`) and until when (`expires`, a date or RFC 3339 time): after that date
//! the finding is reported again.

use super::Document;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;

pub const SCHEMA: &str = "oztrace.baseline/v1";
/// A baseline lists one line per known finding: far below this.
pub const MAX_BASELINE_BYTES: u64 = 16 << 20;

/// One known finding: its fingerprint, with the rule and entity it was computed from so that a
/// person reading the file knows what it silences.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Known {
    pub fingerprint: String,
    pub rule: String,
    pub entity: String,
    /// Why the finding is accepted (SARIF shows it as the suppression's justification).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Until when: `2026-12-31` (through that day, UTC) or an RFC 3339 time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
}

/// The baseline file: `{"schema": "oztrace.baseline/v1", "fingerprints": [...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    pub schema: String,
    pub fingerprints: Vec<Known>,
}

impl Baseline {
    /// Every finding of the document, sorted by fingerprint (deterministic file contents).
    pub fn of(document: &Document) -> Baseline {
        let known: BTreeSet<Known> = document
            .findings
            .iter()
            .map(|f| Known {
                fingerprint: f.fingerprint.clone(),
                rule: f.rule.to_string(),
                entity: f.entity.clone(),
                reason: None,
                expires: None,
            })
            .collect();
        Baseline {
            schema: SCHEMA.to_string(),
            fingerprints: known.into_iter().collect(),
        }
    }

    /// The entry that suppresses a finding with this fingerprint, if any.
    pub fn entry(&self, fingerprint: &str) -> Option<&Known> {
        self.fingerprints
            .iter()
            .find(|k| k.fingerprint == fingerprint)
    }

    pub fn contains(&self, fingerprint: &str) -> bool {
        self.entry(fingerprint).is_some()
    }

    /// Reads and checks a baseline file; the error names the file. Entries that expired before
    /// `now_ms` are dropped, each named on standard error, so their findings count again.
    pub fn load(path: &Path, now_ms: i64) -> Result<Baseline, String> {
        let mut baseline = Baseline::read(path)?;
        let mut kept = Vec::new();
        for known in baseline.fingerprints.drain(..) {
            match known.expires.as_deref().map(expiry_ms) {
                None => kept.push(known),
                Some(Err(e)) => {
                    return Err(format!(
                        "--baseline {}: entry {} ({}): {e}",
                        path.display(),
                        known.fingerprint,
                        known.entity
                    ));
                }
                Some(Ok(until)) if until >= now_ms => kept.push(known),
                Some(Ok(_)) => eprintln!(
                    "oztrace: --baseline {}: the entry for {} {} expired on {}; its finding is \
                     reported again",
                    path.display(),
                    known.rule,
                    known.entity,
                    known.expires.as_deref().unwrap_or_default()
                ),
            }
        }
        baseline.fingerprints = kept;
        Ok(baseline)
    }

    /// Only a regular file of at most [`MAX_BASELINE_BYTES`] is read (`--baseline /dev/zero`
    /// would never end).
    fn read(path: &Path) -> Result<Baseline, String> {
        let fail = |reason: String| format!("--baseline {}: {reason}", path.display());
        let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
        let meta = file.metadata().map_err(|e| fail(e.to_string()))?;
        if !meta.is_file() {
            return Err(fail("not a regular file".into()));
        }
        let mut text = String::new();
        file.take(MAX_BASELINE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| fail(e.to_string()))?;
        if text.len() as u64 > MAX_BASELINE_BYTES {
            return Err(fail(format!(
                "larger than {} MiB: not a baseline file",
                MAX_BASELINE_BYTES >> 20
            )));
        }
        let baseline: Baseline = serde_json::from_str(&text)
            .map_err(|e| format!("--baseline {}: not a baseline file: {e}", path.display()))?;
        if baseline.schema != SCHEMA {
            return Err(format!(
                "--baseline {}: schema `{}`, expected `{SCHEMA}`",
                path.display(),
                baseline.schema
            ));
        }
        Ok(baseline)
    }

    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        let mut s = serde_json::to_string_pretty(self)?;
        s.push('\n');
        Ok(s)
    }
}

/// The last millisecond an `expires` value covers: a date means through its end (UTC).
fn expiry_ms(expires: &str) -> Result<i64, String> {
    crate::when::parse_time_bound(
        expires,
        &oztrace_parser::time::Zone::Utc,
        crate::when::Bound::Until,
        0,
    )
    .map_err(|e| format!("expires: {e}"))
}
