//! Baselines: fingerprints of known findings that a later scan leaves out of its report and its
//! exit status (`--baseline FILE`), written by `--write-baseline FILE`.

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
            })
            .collect();
        Baseline {
            schema: SCHEMA.to_string(),
            fingerprints: known.into_iter().collect(),
        }
    }

    pub fn contains(&self, fingerprint: &str) -> bool {
        self.fingerprints
            .iter()
            .any(|k| k.fingerprint == fingerprint)
    }

    /// Reads and checks a baseline file; the error names the file. Only a regular file of at
    /// most [`MAX_BASELINE_BYTES`] is read (`--baseline /dev/zero` would never end).
    pub fn load(path: &Path) -> Result<Baseline, String> {
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
