//! Faithful scenarios: the sample bundles (`samples/HDDS-*`, each a bug or its look-alike with
//! its EXPECTED.json) replayed into the big bundle, every injection made distinct by rewriting
//! what identifies it, consistently in every line, file name and expected entity:
//!
//! - host names (`scm1`, `dn3.example.com`, `datanode-2`, compose services `scm1_1`) get an
//!   `x<k>` suffix on their first label;
//! - UUIDs and Ratis group ids get their last 12 hex digits mixed with `k` (one bijection per
//!   injection, so equal ids stay equal and the `group-` form of a pipeline stays its UUID's tail);
//! - container ids the sample's events name move by `k` million, long ids (block local ids,
//!   client ids, ≥ 10^15) by `k` × 10^12; order and equality between numbers are kept;
//! - key names get an `i<k>-` prefix on their last segment;
//! - dates move by whole days, so the injection lands inside the background's time range.
//!
//! Nothing is reworded: every line is the sample's own, with its identifiers renamed.

use crate::out::write_file;
use oztrace_analyzer::load::{Keep, ReadConfig, read_inputs_streaming};
use oztrace_parser::entity::Entity;
use regex::{Captures, Regex};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// One sample bundle that can be injected.
pub struct Sample {
    pub name: String,
    pub dir: PathBuf,
    pub expected: Vec<Expected>,
    /// The settings its rule reads, as the sample gives them (its ozone-site.xml, else the
    /// rule's default).
    settings: BTreeMap<String, String>,
    containers: BTreeSet<u64>,
    key_leaves: BTreeSet<String>,
    first_day: jiff::civil::Date,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Expected {
    pub rule: String,
    pub entity: String,
    pub confidence: String,
}

/// What one injection put where, and what a scan must find for it.
#[derive(Debug, Serialize)]
pub struct Injection {
    pub index: usize,
    pub sample: String,
    pub folder: String,
    pub control: bool,
    pub expected: Vec<Expected>,
}

static DATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(\d{4})-(\d{2})-(\d{2})").expect("regex"));
static UUID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-([0-9a-fA-F]{12})")
        .expect("regex")
});
static GROUP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"group-([0-9a-fA-F]{12})").expect("regex"));
static HOST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(ozn-scm-|datanode-?|scm-?|om-?|dn-?|ingest-?)\d+").expect("regex")
});
/// The first label of a DNS name with a number in it (`ozn-dn-07.corp.example.net`); a file name
/// (`collector-3.log`) has one label after the dot, a DNS name two or more.
static FQDN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z][A-Za-z-]*\d+\.[A-Za-z0-9-]+\.[A-Za-z]").expect("regex"));
static NUMBER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d+").expect("regex"));
static SETTING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)<name>\s*(.*?)\s*</name>\s*<value>\s*(.*?)\s*</value>").expect("regex")
});

/// Long ids (block local ids, client ids) start here.
const LONG_ID: u64 = 1_000_000_000_000_000;

/// Every sample under `root` with an EXPECTED.json, sorted by name.
pub fn samples(root: &Path) -> io::Result<Vec<Sample>> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("EXPECTED.json").is_file())
        // A look-alike that is what is still in flight where its logs end (`LOG-END`) means
        // something else inside a longer bundle: the copy then never arrived.
        .filter(|p| !p.join("LOG-END").is_file())
        .collect();
    dirs.sort();
    dirs.into_iter().map(|dir| sample(&dir)).collect()
}

fn sample(dir: &Path) -> io::Result<Sample> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let expected: Vec<Expected> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("EXPECTED.json"))?)
            .map_err(|e| io::Error::other(format!("{name}/EXPECTED.json: {e}")))?;
    let mut site: BTreeMap<String, String> = BTreeMap::new();
    for path in files(dir)? {
        if path.file_name().is_some_and(|n| n == "ozone-site.xml") {
            let text = std::fs::read_to_string(&path)?;
            for c in SETTING.captures_iter(&text) {
                site.insert(c[1].to_string(), c[2].to_string());
            }
        }
    }
    // The rule of the sample's ticket (`HDDS-17400-…`), and what it reads.
    let settings = oztrace_rules::registry()
        .into_iter()
        .filter(|rule| name.starts_with(&format!("{}-", rule.doc().ticket)))
        .flat_map(|rule| rule.doc().settings)
        .map(|s| {
            let value = site.get(s.key).map_or(s.default, String::as_str);
            (s.key.to_string(), value.to_string())
        })
        .collect();
    // The sample's own ids, as the pipeline types them.
    let mut parsed = read_inputs_streaming(
        &[dir.to_path_buf()],
        &ReadConfig::new(Keep::Typed),
        &mut |_| {},
    );
    let mut containers = BTreeSet::new();
    let mut key_leaves = BTreeSet::new();
    let mut first_ms = i64::MAX;
    for event in parsed.take_events().iter().flatten() {
        if let Some(ts) = event.ts {
            first_ms = first_ms.min(ts);
        }
        for entity in &event.entities {
            match entity {
                Entity::Container(id) | Entity::Block { container: id, .. } => {
                    containers.insert(*id);
                }
                Entity::Key(key) => {
                    // A leaf that is a name, not a number or a date: those are rewritten as such.
                    let named =
                        |l: &&str| l.len() >= 3 && l.bytes().any(|b| b.is_ascii_alphabetic());
                    if let Some(leaf) = key.rsplit('/').next().filter(named) {
                        key_leaves.insert(leaf.to_string());
                    }
                }
                _ => {}
            }
        }
    }
    if first_ms == i64::MAX {
        return Err(io::Error::other(format!("{name}: no timed event")));
    }
    let first_day = crate::background::date_of(first_ms);
    Ok(Sample {
        name,
        dir: dir.to_path_buf(),
        expected,
        settings,
        containers,
        key_leaves,
        first_day,
    })
}

/// The settings most samples agree on, and the samples that agree with all of them (one
/// bundle has one ozone-site.xml: a sample whose rule needs another value, its own or the rule's
/// default, cannot be injected).
pub fn agreeing(samples: &[Sample]) -> (BTreeMap<String, String>, Vec<&Sample>, Vec<&Sample>) {
    let mut votes: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    for sample in samples {
        for (key, value) in &sample.settings {
            *votes.entry(key).or_default().entry(value).or_default() += 1;
        }
    }
    let consensus: BTreeMap<String, String> = votes
        .into_iter()
        .filter_map(|(key, values)| {
            let (value, _) = values
                .into_iter()
                .max_by_key(|(v, n)| (*n, std::cmp::Reverse(*v)))?;
            Some((key.to_string(), value.to_string()))
        })
        .collect();
    let (agree, disagree) = samples
        .iter()
        .partition(|s| s.settings.iter().all(|(k, v)| consensus.get(k) == Some(v)));
    (consensus, agree, disagree)
}

/// `consensus` as an ozone-site.xml.
pub fn site_xml(consensus: &BTreeMap<String, String>) -> String {
    let mut xml = String::from("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (key, value) in consensus {
        xml.push_str(&format!(
            "  <property>\n    <name>{key}</name>\n    <value>{value}</value>\n  </property>\n"
        ));
    }
    xml.push_str("</configuration>\n");
    xml
}

/// Writes injection `k` of `sample` under `root/<folder>`, its first day moved to `day`.
pub fn inject(
    sample: &Sample,
    k: usize,
    day: jiff::civil::Date,
    root: &Path,
    gzip: bool,
) -> io::Result<Injection> {
    let rewrite = Rewrite {
        k: k as u64,
        days: (day - sample.first_day).get_days() as i64,
        containers: &sample.containers,
        key_leaves: &sample.key_leaves,
    };
    let folder = format!("injected/{k:03}-{}", sample.name);
    for path in files(&sample.dir)? {
        let relative = path
            .strip_prefix(&sample.dir)
            .map_err(io::Error::other)?
            .to_string_lossy()
            .replace('\\', "/");
        let name = relative.rsplit('/').next().unwrap_or(&relative);
        // The bundle's own conf/ozone-site.xml holds the settings; log4j files describe the
        // sample's hosts only through its DEBUG lines, which come along.
        if [
            "EXPECTED.json",
            "REPLAY",
            "SOURCE.md",
            "ozone-site.xml",
            "log4j.properties",
        ]
        .contains(&name)
        {
            continue;
        }
        let bytes = std::fs::read(&path)?;
        let (text, was_gzip) = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut text = String::new();
            io::Read::read_to_string(
                &mut flate2::read::MultiGzDecoder::new(&bytes[..]),
                &mut text,
            )?;
            (text, true)
        } else {
            (String::from_utf8_lossy(&bytes).into_owned(), false)
        };
        let rewritten: String = text
            .split_inclusive('\n')
            .map(|line| rewrite.line(line))
            .collect();
        let target_name = rewrite.line(relative.trim_end_matches(".gz"));
        let target = root.join(&folder).join(target_name);
        // Plain files stay plain unless the whole bundle is gzipped; gzipped ones stay gzipped.
        write_file(&target, rewritten.as_bytes(), was_gzip || gzip)?;
    }
    Ok(Injection {
        index: k,
        sample: sample.name.clone(),
        folder,
        control: sample.expected.is_empty(),
        expected: sample
            .expected
            .iter()
            .map(|e| Expected {
                rule: e.rule.clone(),
                entity: rewrite.line(&e.entity),
                confidence: e.confidence.clone(),
            })
            .collect(),
    })
}

fn files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

struct Rewrite<'a> {
    k: u64,
    days: i64,
    containers: &'a BTreeSet<u64>,
    key_leaves: &'a BTreeSet<String>,
}

impl Rewrite<'_> {
    fn line(&self, line: &str) -> String {
        let line = DATE.replace_all(line, |c: &Captures| self.date(c));
        let line = UUID.replace_all(&line, |c: &Captures| {
            let whole = &c[0];
            format!("{}{}", &whole[..24], self.hex12(&c[1]))
        });
        let line = GROUP.replace_all(&line, |c: &Captures| format!("group-{}", self.hex12(&c[1])));
        let line = self.hosts(&line);
        let line = self.numbers(&line);
        self.keys(&line)
    }

    fn date(&self, c: &Captures) -> String {
        let parsed = (c[1].parse::<i16>(), c[2].parse::<i8>(), c[3].parse::<i8>());
        let (Ok(y), Ok(m), Ok(d)) = parsed else {
            return c[0].to_string();
        };
        jiff::civil::Date::new(y, m, d)
            .and_then(|date| date.checked_add(jiff::Span::new().days(self.days)))
            .map_or_else(|_| c[0].to_string(), |date| date.to_string())
    }

    /// 12 hex digits mixed with `k`, in the case they came in.
    fn hex12(&self, hex: &str) -> String {
        let value = u64::from_str_radix(hex, 16).unwrap_or(0);
        let mask = (self.k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) & 0xFFFF_FFFF_FFFF;
        let mixed = format!("{:012x}", value ^ mask);
        if hex.chars().any(|c| c.is_ascii_uppercase()) {
            mixed.to_ascii_uppercase()
        } else {
            mixed
        }
    }

    fn hosts(&self, line: &str) -> String {
        let line = self.host_labels(line, &HOST);
        self.host_labels(&line, &FQDN)
    }

    /// Appends `x<k>` to every match of `pattern` (up to its first dot) that stands alone.
    fn host_labels(&self, line: &str, pattern: &Regex) -> String {
        let mut out = String::with_capacity(line.len() + 16);
        let mut last = 0;
        for m in pattern.find_iter(line) {
            let end = m.start() + m.as_str().find('.').unwrap_or(m.len());
            let before = line[..m.start()].chars().next_back();
            let after = line[end..].chars().next();
            if before.is_some_and(|c| c.is_ascii_alphanumeric())
                || after.is_some_and(|c| c.is_ascii_alphanumeric())
            {
                continue;
            }
            out.push_str(&line[last..end]);
            out.push_str(&format!("x{}", self.k));
            last = end;
        }
        out.push_str(&line[last..]);
        out
    }

    fn numbers(&self, line: &str) -> String {
        let bytes = line.as_bytes();
        NUMBER
            .replace_all(line, |c: &Captures| {
                let m = c.get(0).expect("match");
                let text = m.as_str();
                let before = bytes[..m.start()].last().copied();
                let after = bytes.get(m.end()).copied();
                // Negative ids (OM object ids) and the parts of dates and versions stay.
                let in_date = after == Some(b'-') || before == Some(b'-') || before == Some(b'.');
                // Minutes, seconds and milliseconds of a time.
                let in_time = matches!(before, Some(b':' | b',')) && text.len() <= 3;
                let Ok(value) = text.parse::<u64>() else {
                    return text.to_string();
                };
                if in_date || in_time || before.is_some_and(|b| b.is_ascii_alphabetic()) {
                    text.to_string()
                } else if value >= LONG_ID {
                    (value + self.k * 1_000_000_000_000).to_string()
                } else if self.containers.contains(&value) {
                    (value + self.k * 1_000_000).to_string()
                } else {
                    text.to_string()
                }
            })
            .into_owned()
    }

    fn keys(&self, line: &str) -> String {
        let mut line = line.to_string();
        for leaf in self.key_leaves {
            let mut out = String::with_capacity(line.len() + 8);
            let mut last = 0;
            for (at, _) in line.match_indices(leaf.as_str()) {
                let before = line[..at].chars().next_back();
                let after = line[at + leaf.len()..].chars().next();
                if before.is_some_and(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
                    || after.is_some_and(|c| c.is_ascii_alphanumeric())
                {
                    continue;
                }
                out.push_str(&line[last..at]);
                out.push_str(&format!("i{}-", self.k));
                last = at;
            }
            out.push_str(&line[last..]);
            line = out;
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_keep_relations_and_make_injections_distinct() {
        let containers = BTreeSet::from([3107]);
        let leaves = BTreeSet::from(["c.log".to_string()]);
        let rewrite = Rewrite {
            k: 2,
            days: 3,
            containers: &containers,
            key_leaves: &leaves,
        };
        let line = "2026-09-14 07:49:32,764 [scm1-X] INFO a.B: Container #3107 (DELETED, sid=3107) r0 from dn 512a11dc-eeae-449b-b5bf-37d777090c45(dn1.example.com/10.0.1.21) group-37D777090C45 block 113750153625600017 key /v/b/c.log/-9223372036854567936 scm1_1";
        let out = rewrite.line(line);
        assert!(
            out.starts_with("2026-09-17 07:49:32,764 [scm1x2-X]"),
            "{out}"
        );
        assert!(
            out.contains("Container #2003107 (DELETED, sid=2003107)"),
            "{out}"
        );
        assert!(out.contains("(dn1x2.example.com/10.0.1.21)"), "{out}");
        assert!(out.contains("113752153625600017"), "{out}");
        assert!(out.contains("/v/b/i2-c.log/-9223372036854567936"), "{out}");
        assert!(out.contains("scm1x2_1"), "{out}");
        assert_eq!(
            rewrite.line("from ozn-dn-07.corp.example.net/10.1.2.3 Log4j2.x collector-3.log"),
            "from ozn-dn-07x2.corp.example.net/10.1.2.3 Log4j2.x collector-3.log"
        );
        assert_eq!(
            rewrite.line("[pod/om-0/om] om-audit-om-0-2026-08-26-1.log.gz"),
            "[pod/om-0x2/om] om-audit-om-0x2-2026-08-29-1.log.gz"
        );
        // The group id is its pipeline UUID's tail, mixed the same way.
        let uuid_tail = &out[out.find("512a11dc").unwrap() + 24..][..12];
        let group = &out[out.find("group-").unwrap() + 6..][..12];
        assert_eq!(uuid_tail.to_ascii_uppercase(), group);
        assert_ne!(uuid_tail, "37d777090c45");
        assert_ne!(rewrite.line(line), Rewrite { k: 3, ..rewrite }.line(line));
    }
}
