//! The bug samples rewritten into layouts they were not written in must give the same findings:
//! a support bundle arrives in whatever layout its cluster was configured with.
//!
//! Every main-log line in the shipped file layout (`%d{ISO8601} [%t] %p %c: %m%n`) is rewritten,
//! in plain and gzipped files alike; lines of other layouts (audit, dn-container, vendor,
//! compose) and continuation lines stay as they are, so each rewritten bundle also mixes layouts.

use regex::Regex;
use serde_json::Value;
use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;

/// A header line of the file layout: time, thread, level, logger, message.
fn file_layout() -> Regex {
    Regex::new(
        r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) \[(.*?)\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) ([\w.$]+): (.*)$",
    )
    .unwrap()
}

/// Rewrites one line; `header` holds the fields when the line is a file-layout header.
type Rewrite = fn(&str, Option<&regex::Captures<'_>>) -> String;

const REWRITES: &[(&str, Rewrite)] = &[
    // The console appender: `%c{2}`.
    ("console", |line, header| {
        let Some(c) = header else {
            return line.to_string();
        };
        let logger: Vec<&str> = c[4].rsplitn(3, '.').collect();
        let short = if logger.len() >= 2 {
            format!("{}.{}", logger[1], logger[0])
        } else {
            c[4].to_string()
        };
        format!("{} [{}] {} {}: {}", &c[1], &c[2], &c[3], short, &c[5])
    }),
    // Level before the thread, padded: `%d{ISO8601} %-5p [%t] %c: %m%n`.
    ("level-thread", |line, header| match header {
        Some(c) => format!("{} {:<5} [{}] {}: {}", &c[1], &c[3], &c[2], &c[4], &c[5]),
        None => line.to_string(),
    }),
    // log4j2's ISO8601 (`T`, `.` before the millis) and a `%-5p`.
    ("log4j2-iso", |line, header| {
        let Some(c) = header else {
            return line.to_string();
        };
        let ts = c[1].replacen(' ', "T", 1).replace(',', ".");
        format!("{ts} [{}] {:<5} {}: {}", &c[2], &c[3], &c[4], &c[5])
    }),
    // `kubectl logs --timestamps`: every physical line, continuation lines too, stamped.
    ("kubectl", |line, _| {
        format!("2026-01-01T00:00:00.123456789Z {line}")
    }),
];

fn rewrite_text(text: &str, header: &Regex, rewrite: Rewrite, crlf: bool) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.lines() {
        out.push_str(&rewrite(line, header.captures(line).as_ref()));
        out.push_str(if crlf { "\r\n" } else { "\n" });
    }
    out
}

fn copy_rewritten(from: &Path, to: &Path, rewrite: Rewrite, crlf: bool) {
    let header = file_layout();
    for entry in walk(from) {
        let relative = entry.strip_prefix(from).unwrap();
        let target = to.join(relative);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let bytes = std::fs::read(&entry).unwrap();
        let name = entry.file_name().unwrap().to_string_lossy().to_string();
        let is_log = name.contains(".log") || name.contains(".out");
        if !is_log {
            std::fs::write(&target, bytes).unwrap();
        } else if name.ends_with(".gz") {
            let mut text = String::new();
            flate2::read::MultiGzDecoder::new(bytes.as_slice())
                .read_to_string(&mut text)
                .unwrap();
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(rewrite_text(&text, &header, rewrite, crlf).as_bytes())
                .unwrap();
            std::fs::write(&target, gz.finish().unwrap()).unwrap();
        } else {
            let text = String::from_utf8(bytes).unwrap();
            std::fs::write(&target, rewrite_text(&text, &header, rewrite, crlf)).unwrap();
        }
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files.sort();
    files
}

fn findings(dir: &Path) -> Vec<(String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(["scan", "--format", "json"])
        .arg(dir)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut found: Vec<(String, String)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["entity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    found.sort();
    found
}

#[test]
fn bug_samples_give_the_same_findings_in_other_layouts() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut bugs: Vec<_> = std::fs::read_dir(&samples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains("-bug-"))
        .collect();
    bugs.sort();
    assert!(!bugs.is_empty());
    let header = file_layout();
    let mut failures = Vec::new();
    let mut exercised = 0;
    for bug in &bugs {
        let uses_file_layout = walk(bug).iter().any(|f| {
            std::fs::read_to_string(f)
                .map(|t| t.lines().any(|l| header.is_match(l)))
                .unwrap_or(false)
        });
        if !uses_file_layout {
            // Written in another layout (compose, vendor): nothing to rewrite.
            continue;
        }
        exercised += 1;
        let expected = findings(bug);
        assert!(!expected.is_empty(), "{} has findings", bug.display());
        for (i, (name, rewrite)) in REWRITES.iter().enumerate() {
            let dir = tempfile::tempdir().unwrap();
            // Every other rewrite also turns line endings into CRLF.
            copy_rewritten(bug, dir.path(), *rewrite, i % 2 == 1);
            let got = findings(dir.path());
            if got != expected {
                failures.push(format!(
                    "{} as {name}: {got:?}, expected {expected:?}",
                    bug.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    assert!(
        exercised >= 4,
        "only {exercised} bug samples use the file layout"
    );
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
