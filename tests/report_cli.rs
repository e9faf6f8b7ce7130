//! The `scan` report surface driven through the binary, against ../shared/CLI-CONTRACT.md:
//! every format, determinism, exit codes 0 to 3, baselines, time windows, the HTML page, and
//! the completions and man page.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn oztrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("oztrace runs")
}

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A bundle the contract says has no findings (a control), and one with a known bug.
const CONTROL: &str = "HDDS-17400-control-stale-closed-replica-force-deleted";
const BUG: &str = "HDDS-17400-bug-stale-open-replica";

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn registered_rules() -> Vec<String> {
    let out = oztrace(&["rules"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    text.lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .filter(|id| id.contains('-') && !id.starts_with('`'))
        .map(str::to_string)
        .collect()
}

#[test]
fn json_is_the_contract_document_and_byte_identical_across_runs() {
    let first = oztrace(&["scan", "--format", "json", &sample(BUG)]);
    let second = oztrace(&["scan", "--format", "json", &sample(BUG)]);
    assert_eq!(first.stdout, second.stdout, "same input, same bytes");
    let doc = json(&first);
    assert_eq!(doc["schema"], "oztrace.findings/v1");
    assert_eq!(doc["tool"]["name"], "oztrace");
    assert_eq!(doc["tool"]["version"], env!("CARGO_PKG_VERSION"));
    assert!(doc["findings"].is_array() && doc["gaps"].is_array());
    assert!(doc["inputs"]["files"].as_u64().unwrap() > 10);
    assert!(doc["inputs"]["records"].as_u64().unwrap() > 0);
    assert_eq!(doc["inputs"]["unreadable"], Value::Array(Vec::new()));
    assert_eq!(doc["suppressed"], 0);
    assert!(doc.get("window").is_none());
    let findings = doc["findings"].as_array().unwrap();
    assert!(!findings.is_empty(), "{BUG} has findings to check");
    for f in findings {
        assert_eq!(f["fingerprint"].as_str().unwrap().len(), 16);
        for key in [
            "rule",
            "ticket",
            "severity",
            "confidence",
            "entity",
            "summary",
        ] {
            assert!(f[key].is_string(), "finding lacks {key}");
        }
    }
}

#[test]
fn every_format_reports_the_same_findings() {
    let dir = sample(BUG);
    let doc = json(&oztrace(&["scan", "--format", "json", &dir]));
    let findings = doc["findings"].as_array().unwrap();
    assert!(!findings.is_empty(), "{BUG} has findings to compare");

    let jsonl = stdout(&oztrace(&["scan", "--format", "jsonl", &dir]));
    let lines: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).expect("each jsonl line is JSON"))
        .collect();
    assert_eq!(
        lines.len(),
        findings.len() + 1,
        "one line per finding, then the summary"
    );
    let summary = lines.last().unwrap();
    assert_eq!(summary["schema"], "oztrace.summary/v1");
    assert_eq!(summary["inputs"], doc["inputs"]);
    assert_eq!(summary["gaps"], doc["gaps"]);
    for (line, finding) in lines.iter().zip(findings) {
        assert_eq!(line, finding);
    }

    let sarif: Value =
        serde_json::from_slice(&oztrace(&["scan", "--format", "sarif", &dir]).stdout).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "oztrace");
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), findings.len());
    for (result, finding) in results.iter().zip(findings) {
        assert_eq!(result["ruleId"], finding["rule"]);
        assert_eq!(
            result["partialFingerprints"]["oztrace/v1"],
            finding["fingerprint"]
        );
    }
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), registered_rules().len());
    for rule in rules {
        assert!(
            rule["help"]["text"].is_string(),
            "SARIF rules carry help text"
        );
    }

    let markdown = stdout(&oztrace(&["scan", "--format", "markdown", &dir]));
    assert!(markdown.starts_with("# oztrace findings\n"));
    assert!(markdown.contains("## Inputs\n"));
    for f in findings {
        assert!(markdown.contains(f["entity"].as_str().unwrap()));
    }

    let text = stdout(&oztrace(&["scan", &dir]));
    let headline = text.lines().next().unwrap();
    assert!(
        headline.starts_with(&format!("{} finding", findings.len())),
        "{headline}"
    );
    assert!(text.contains(&format!(
        "Inputs: {} files",
        doc["inputs"]["files"].as_u64().unwrap()
    )));
}

#[test]
fn colour_follows_the_color_flag() {
    let dir = sample(CONTROL);
    let always = stdout(&oztrace(&["scan", "--color", "always", &dir]));
    assert!(always.contains("\x1b[1m"), "--color always paints");
    let never = stdout(&oztrace(&["scan", "--color", "never", &dir]));
    assert!(!never.contains('\x1b'));
    // Standard output is a pipe here: auto means no colour.
    let auto = stdout(&oztrace(&["scan", &dir]));
    assert!(!auto.contains('\x1b'));
    let no_color = Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(["scan", "--color", "auto", &dir])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&no_color.stdout).contains('\x1b'));
}

#[test]
fn exit_0_for_a_bundle_without_findings() {
    let out = oztrace(&["scan", "--format", "json", &sample(CONTROL)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json(&out)["findings"], Value::Array(Vec::new()));
}

/// Bug bundles (samples whose EXPECTED.json lists findings) with the rule of their first
/// expected finding.
fn bug_samples() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut found: Vec<(String, String)> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let expected = std::fs::read_to_string(e.path().join("EXPECTED.json")).ok()?;
            let expected: Vec<Value> = serde_json::from_str(&expected).ok()?;
            let rule = expected.first()?["rule"].as_str()?.to_string();
            Some((e.file_name().to_string_lossy().into_owned(), rule))
        })
        .collect();
    found.sort();
    found
}

#[test]
fn exit_1_for_a_finding_at_or_above_fail_on_unless_baselined() {
    let registered = registered_rules();
    let bugs = bug_samples();
    let (bundle, _) = bugs
        .iter()
        .find(|(_, rule)| registered.contains(rule))
        .expect("a bug bundle of a registered rule");
    let dir = sample(bundle);
    let out = oztrace(&["scan", "--format", "json", &dir]);
    assert_eq!(out.status.code(), Some(1), "{bundle}");
    let doc = json(&out);
    let findings = doc["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    // --fail-on above every finding's confidence gives 0.
    let rank = |c: &str| {
        ["possible", "likely", "confirmed"]
            .iter()
            .position(|x| *x == c)
    };
    let highest = findings
        .iter()
        .filter_map(|f| rank(f["confidence"].as_str()?))
        .max()
        .unwrap();
    if highest < 2 {
        let above = ["possible", "likely", "confirmed"][highest + 1];
        let out = oztrace(&["scan", "--fail-on", above, &dir]);
        assert_eq!(out.status.code(), Some(0), "--fail-on {above}");
    }
    let out = oztrace(&["scan", "--fail-on", "possible", &dir]);
    assert_eq!(out.status.code(), Some(1));
    // A baseline of this run's findings silences them, and the report says how many.
    let tmp = tempfile::tempdir().unwrap();
    let baseline = tmp.path().join("baseline.json");
    let baseline = baseline.to_str().unwrap();
    let wrote = oztrace(&["scan", "--write-baseline", baseline, &dir]);
    assert_eq!(
        wrote.status.code(),
        Some(1),
        "writing a baseline keeps the status"
    );
    let quiet = oztrace(&["scan", "--format", "json", "--baseline", baseline, &dir]);
    assert_eq!(
        quiet.status.code(),
        Some(0),
        "a baselined finding does not fail"
    );
    let quiet = json(&quiet);
    assert_eq!(quiet["findings"], Value::Array(Vec::new()));
    assert_eq!(quiet["suppressed"], findings.len());
    let text = stdout(&oztrace(&["scan", "--baseline", baseline, &dir]));
    assert!(text.contains(&format!("{} suppressed by the baseline", findings.len())));
}

#[test]
fn exit_2_for_usage_errors_with_nothing_analysed() {
    let dir = sample(CONTROL);
    let missing_baseline = std::env::temp_dir().join("oztrace-no-such-baseline.json");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["scan", "--format", "yaml", &dir], "yaml"),
        (vec!["scan", "--no-such-flag", &dir], "--no-such-flag"),
        (
            vec!["scan", "--rules", "no-such-rule", &dir],
            "invalid value 'no-such-rule'",
        ),
        (
            vec!["scan", "--skip", "no-such-rule", &dir],
            "invalid value 'no-such-rule'",
        ),
        (vec!["scan", "--fail-on", "sure", &dir], "sure"),
        (vec!["scan", "--since", "yesterday", &dir], "--since"),
        (
            vec!["scan", "--until", "2026-13-01 00:00:00", &dir],
            "--until",
        ),
        (
            vec![
                "scan",
                "--since",
                "2026-08-02T00:00:00Z",
                "--until",
                "2026-08-01T00:00:00Z",
                &dir,
            ],
            "later than",
        ),
        (
            vec![
                "scan",
                "--baseline",
                missing_baseline.to_str().unwrap(),
                &dir,
            ],
            "--baseline",
        ),
        (
            vec!["scan", "--each", "--report", "x.html", &dir],
            "--report",
        ),
        (
            vec!["explain", "no-such-rule"],
            "invalid value 'no-such-rule'",
        ),
        (
            vec!["explain", "resurected-container"],
            "a similar value exists: 'resurrected-container'",
        ),
        (
            vec!["scan", "--display-tz", "Mars/Olympus", &dir],
            "Mars/Olympus",
        ),
        (vec!["completions", "tcsh"], "tcsh"),
    ];
    for (args, message) in cases {
        let out = oztrace(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            out.stdout.is_empty(),
            "{args:?}: nothing analysed, nothing printed"
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    // A baseline of another schema is a configuration error too.
    let dir2 = tempfile::tempdir().unwrap();
    let other = dir2.path().join("other.json");
    std::fs::write(&other, r#"{"schema": "something/v2", "fingerprints": []}"#).unwrap();
    let out = oztrace(&["scan", "--baseline", other.to_str().unwrap(), &dir]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("something/v2"));
}

/// A directory with one good log (copied from a sample) and a `.gz` that is not gzip inside.
fn bundle_with_corrupt_gz() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let good = Path::new(&sample(CONTROL))
        .join("hadoop-cmf-ozone-STORAGE_CONTAINER_MANAGER-scm1.prod.example.net.log.out.1");
    let root = dir.path().join("bundle");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::copy(&good, root.join(good.file_name().unwrap())).unwrap();
    let mut corrupt =
        std::fs::File::create(root.join("hadoop-cmf-ozone-HDDS_DATANODE-dn1.log.out.2.gz"))
            .unwrap();
    // The gzip magic, then garbage: the stream fails partway in.
    corrupt
        .write_all(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03this is not deflate data at all")
        .unwrap();
    (dir, root)
}

#[test]
fn exit_3_when_an_input_cannot_be_read_and_the_rest_is_still_analysed() {
    let (_guard, root) = bundle_with_corrupt_gz();
    let out = oztrace(&["scan", "--format", "json", root.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = json(&out);
    let unreadable = doc["inputs"]["unreadable"].as_array().unwrap();
    assert_eq!(unreadable.len(), 1);
    assert!(
        unreadable[0]["path"]
            .as_str()
            .unwrap()
            .ends_with("dn1.log.out.2.gz")
    );
    assert!(
        doc["inputs"]["records"].as_u64().unwrap() > 0,
        "the good file was read"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("dn1.log.out.2.gz"));
    // 3 comes before 1 and regardless of --fail-on.
    let out = oztrace(&["scan", "--fail-on", "confirmed", root.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stdout(&out).contains("unreadable: "));
}

#[test]
fn write_baseline_creates_a_baseline_file_and_baseline_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("known.json");
    let path = path.to_str().unwrap();
    let bug = sample(BUG);
    let doc = json(&oztrace(&["scan", "--format", "json", &bug]));
    oztrace(&["scan", "--write-baseline", path, &bug]);
    let baseline: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(baseline["schema"], "oztrace.baseline/v1");
    let mut known: Vec<(&str, &str, &str)> = baseline["fingerprints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["fingerprint"].as_str().unwrap(),
                k["rule"].as_str().unwrap(),
                k["entity"].as_str().unwrap(),
            )
        })
        .collect();
    let mut found: Vec<(&str, &str, &str)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["fingerprint"].as_str().unwrap(),
                f["rule"].as_str().unwrap(),
                f["entity"].as_str().unwrap(),
            )
        })
        .collect();
    let written_order = known.clone();
    known.sort();
    assert_eq!(written_order, known, "sorted by fingerprint");
    found.sort();
    assert_eq!(known, found);
    let again = oztrace(&["scan", "--format", "json", "--baseline", path, &bug]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(json(&again)["findings"], Value::Array(Vec::new()));
}

#[test]
fn since_and_until_limit_the_analysis_and_say_so() {
    let dir = sample(BUG);
    let all = json(&oztrace(&["scan", "--format", "json", &dir]));
    let out = oztrace(&[
        "scan",
        "--format",
        "json",
        "--since",
        "1970-01-01 00:00:00",
        "--until",
        "2999-12-31T23:59:59Z",
        &dir,
    ]);
    assert_eq!(
        out.status.code(),
        all["findings"].as_array().map(|f| i32::from(!f.is_empty()))
    );
    let wide = json(&out);
    assert_eq!(wide["window"]["since"], "1970-01-01T00:00:00.000Z");
    assert_eq!(wide["window"]["until"], "2999-12-31T23:59:59.000Z");
    assert_eq!(wide["window"]["events"], all["inputs"]["typed_events"]);
    assert_eq!(wide["findings"], all["findings"]);
    let before = json(&oztrace(&[
        "scan",
        "--format",
        "json",
        "--until",
        "2000-01-01 00:00:00",
        &dir,
    ]));
    assert_eq!(before["window"]["events"], 0);
    assert_eq!(before["findings"], Value::Array(Vec::new()));
    let text = stdout(&oztrace(&["scan", "--until", "2000-01-01 00:00:00", &dir]));
    assert!(text.contains("analysed 0 events from the start to 2000-01-01T00:00:00.000Z"));
}

#[test]
fn report_writes_a_self_contained_page() {
    let dir = tempfile::tempdir().unwrap();
    let page_path = dir.path().join("report.html");
    let out = oztrace(&[
        "scan",
        "--format",
        "json",
        "--report",
        page_path.to_str().unwrap(),
        &sample(BUG),
    ]);
    let doc = json(&out);
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("Content-Security-Policy"));
    assert_eq!(page.matches("<script").count(), 1);
    // The only addresses are the rules' JIRA tickets, as links; nothing is loaded.
    let without_tickets = page.replace("https://issues.apache.org/jira/browse/HDDS-", "");
    assert!(!without_tickets.contains("http:") && !without_tickets.contains("https:"));
    assert!(!page.contains(" src="));
    // The overview, then one timeline per finding.
    assert_eq!(
        page.matches("<svg class=\"lanes\"").count(),
        doc["findings"].as_array().unwrap().len() + 1
    );
    assert!(page.contains(&format!(
        "{} files, {} bytes",
        doc["inputs"]["files"], doc["inputs"]["bytes"]
    )));
}

#[test]
fn rules_explain_completions_and_man_page() {
    let rules = oztrace(&["rules"]);
    assert_eq!(rules.status.code(), Some(0));
    for id in registered_rules() {
        let explain = oztrace(&["explain", &id]);
        assert_eq!(explain.status.code(), Some(0));
        assert!(stdout(&explain).starts_with(&id));
    }
    let bash = oztrace(&["completions", "bash"]);
    assert_eq!(bash.status.code(), Some(0));
    let bash = stdout(&bash);
    assert!(bash.contains("_oztrace()") && bash.contains("--write-baseline"));
    let zsh = stdout(&oztrace(&["completions", "zsh"]));
    assert!(zsh.starts_with("#compdef oztrace"));
    let man = oztrace(&["man"]);
    assert_eq!(man.status.code(), Some(0));
    let man = stdout(&man);
    assert!(man.contains(".TH oztrace 1"));
    assert!(man.contains("scan"));
}

/// `explain` lists every setting a rule reads with its default and where the default comes from.
#[test]
fn explain_lists_the_settings_each_rule_reads() {
    for rule in oztrace_rules::registry() {
        let doc = rule.doc();
        let text = stdout(&oztrace(&["explain", doc.id]));
        assert_eq!(
            text.contains("Settings it reads"),
            !doc.settings.is_empty(),
            "{text}"
        );
        for setting in doc.settings {
            let line = format!("{} = {}", setting.key, setting.default);
            assert!(text.contains(&line), "{}: no `{line}`", doc.id);
            assert!(
                text.contains(&format!("default from: {}", setting.default_from)),
                "{}: {}",
                doc.id,
                setting.key
            );
        }
    }
}

/// A setting from `--set` reaches the rule: with a 10 s heartbeat interval the 30 s apart
/// `Detected timeout` lines are no longer one backlog, so the mechanism is not shown.
#[test]
fn heartbeat_interval_setting_changes_what_is_a_backlog() {
    let bundle = sample("HDDS-17269-bug-info-no-action");
    assert_eq!(oztrace(&["scan", &bundle]).status.code(), Some(1));
    let out = oztrace(&["scan", &bundle, "--set", "hdds.heartbeat.interval=10s"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn each_input_is_its_own_cluster_and_json_stays_one_document_per_line() {
    let bug = sample("HDDS-17400-bug-stale-open-replica");
    let control = sample("HDDS-17400-control-stale-closed-replica-force-deleted");
    let out = oztrace(&["scan", "--each", "--format", "json", &bug, &control]);
    assert_eq!(out.status.code(), Some(1), "the bug input has a finding");
    let docs: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one compact document per line"))
        .collect();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0]["input"], bug.as_str());
    assert_eq!(docs[0]["findings"][0]["entity"], "container:3107");
    assert_eq!(docs[1]["input"], control.as_str());
    assert_eq!(docs[1]["findings"], Value::Array(vec![]));

    let lines = oztrace(&["scan", "--each", "--format", "jsonl", &bug, &control]);
    for line in stdout(&lines).lines() {
        let value: Value = serde_json::from_str(line).unwrap();
        assert!(value["input"].is_string(), "{line}");
    }
    // The total goes to standard error, so that standard output stays one document per input.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("total: 2 inputs, 1 with findings; 1 findings (1 high)"),
        "{stderr}"
    );

    // SARIF: one log, one run per input, each run naming its input.
    let sarif = oztrace(&["scan", "--each", "--format", "sarif", &bug, &control]);
    assert_eq!(sarif.status.code(), Some(1));
    let log = json(&sarif);
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["properties"]["input"], bug.as_str());
    assert_eq!(runs[0]["results"].as_array().unwrap().len(), 1);
    assert_eq!(runs[1]["properties"]["input"], control.as_str());
    assert_eq!(runs[1]["results"], Value::Array(vec![]));
    assert_ne!(
        runs[0]["automationDetails"]["id"],
        runs[1]["automationDetails"]["id"]
    );

    // Text ends with the total.
    let text = oztrace(&["scan", "--each", &bug, &control]);
    let text = stdout(&text);
    assert!(
        text.trim_end()
            .ends_with("== total: 2 inputs, 1 with findings; 1 findings (1 high); 0 suppressed by the baseline; 0 inputs with unreadable files"),
        "{text}"
    );
}
