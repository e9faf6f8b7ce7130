//! What an operator on call gets from the binary (issue 14): remediation in every format, evidence
//! cut around what the rule read (`--wide` whole), times in a chosen zone, relative windows,
//! time-ordered events, help, man pages, completions, colour from the environment, and baselines
//! with reasons and expiry dates that SARIF keeps as suppressions.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const BUG: &str = "HDDS-17400-bug-stale-open-replica";
const OP_STATE: &str = "HDDS-17219-bug-follower-abort-race";

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn oztrace_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_oztrace"));
    command
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("oztrace runs")
}

fn oztrace(args: &[&str]) -> Output {
    oztrace_env(args, &[])
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn every_format_says_what_to_do_with_real_commands_for_this_finding() {
    let bug = sample(BUG);
    let text = stdout(&oztrace(&["scan", &bug]));
    assert!(text.contains("What to do:"), "{text}");
    assert!(
        text.contains("$ ozone admin container info --json 3107"),
        "{text}"
    );
    assert!(text.contains("$ ozone admin datanode list --id 9b662579-db39-42ac-871c-b77426507cfc"));
    assert!(text.contains("fix: open · https://issues.apache.org/jira/browse/HDDS-17400"));
    assert!(text.contains("Attach to a ticket:"));

    let doc: Value =
        serde_json::from_slice(&oztrace(&["scan", "--format", "json", &bug]).stdout).unwrap();
    let r = &doc["findings"][0]["remediation"];
    assert_eq!(
        r["ticket_url"],
        "https://issues.apache.org/jira/browse/HDDS-17400"
    );
    assert_eq!(r["fixed_in"], Value::Null);
    assert!(r["actions"].as_array().unwrap().iter().any(|a| {
        a.as_str()
            .unwrap()
            .ends_with(": ozone admin container info --json 3107")
    }));

    let md = stdout(&oztrace(&["scan", "--format", "markdown", &bug]));
    assert!(md.contains("**What to do:**"));
    assert!(md.contains("` ozone admin container info --json 3107 `"));
    assert!(md.contains("[HDDS-17400](https://issues.apache.org/jira/browse/HDDS-17400)"));

    let sarif: Value =
        serde_json::from_slice(&oztrace(&["scan", "--format", "sarif", &bug]).stdout).unwrap();
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let rule = rules
        .iter()
        .find(|r| r["id"] == "resurrected-container")
        .unwrap();
    assert_eq!(
        rule["helpUri"],
        "https://issues.apache.org/jira/browse/HDDS-17400"
    );
    assert!(
        rule["help"]["text"]
            .as_str()
            .unwrap()
            .contains("ozone admin container info")
    );

    // The datanode's host name comes from the evidence (`<uuid>(dn3.example.com/…)`).
    let text = stdout(&oztrace(&["scan", &sample(OP_STATE)]));
    assert!(
        text.contains("$ ozone admin datanode decommission dn3.example.com"),
        "{text}"
    );
}

#[test]
fn evidence_is_cut_around_what_the_rule_read_and_wide_prints_it_whole() {
    let dir = sample(OP_STATE);
    let cut = stdout(&oztrace(&["scan", &dir]));
    // The follower copy line: its decisive end survives, its middle is left out.
    let line = cut
        .lines()
        .find(|l| {
            l.trim_start()
                .starts_with("Update the operationalState saved in follower SCM")
        })
        .unwrap();
    assert!(line.contains(" … "), "{line}");
    assert!(
        line.ends_with("the value stored in SCM (IN_SERVICE, 0)"),
        "{line}"
    );
    assert!(line.trim().chars().count() <= 160);
    let wide = stdout(&oztrace(&["scan", "--wide", &dir]));
    assert!(
        wide.contains(
            "(DECOMMISSIONING, 0) does not match the value stored in SCM (IN_SERVICE, 0)"
        )
    );
    assert!(
        !wide
            .lines()
            .any(|l| l.starts_with("        ") && l.contains(" … "))
    );
    // The host column is as wide as the longest host, not a fixed eight.
    assert!(
        cut.contains("2026-11-28T02:04:10.007Z  scm1  cause    "),
        "{cut}"
    );
}

#[test]
fn display_tz_shows_local_times_and_says_so_while_json_stays_utc() {
    let dir = sample(OP_STATE);
    let text = stdout(&oztrace(&["scan", "--display-tz", "+02:00", &dir]));
    assert!(text.contains("Times are in +02:00"), "{text}");
    assert!(text.contains("2026-11-28T04:04:10.007+02:00"), "{text}");
    let default = stdout(&oztrace(&["scan", &dir]));
    assert!(default.contains("Times are UTC"));
    let json = stdout(&oztrace(&[
        "scan",
        "--format",
        "json",
        "--display-tz",
        "+02:00",
        &dir,
    ]));
    assert!(json.contains("\"2026-11-28T02:04:10.007Z\""));
    let replay = stdout(&oztrace(&[
        "replay",
        "--display-tz",
        "Asia/Kolkata",
        "--entity",
        "datanode:eeef75e3-b676-4243-868a-0f77f54eb9ab",
        &dir,
    ]));
    assert!(replay.starts_with("# times in Asia/Kolkata\n"));
    assert!(replay.contains("+05:30"));
}

#[test]
fn windows_take_dates_and_relative_times_on_every_reading_command() {
    let dir = sample(OP_STATE);
    // Every event of the sample is long before "1h ago": nothing is left.
    let out = oztrace(&["events", "--since", "1h ago", &dir]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let all = stdout(&oztrace(&["events", &dir])).lines().count();
    let day = stdout(&oztrace(&[
        "events",
        "--since",
        "2026-11-28 02:03",
        "--until",
        "2026-11-28",
        &dir,
    ]))
    .lines()
    .count();
    assert!(day > 0 && day < all, "{day} of {all}");
    let replay = stdout(&oztrace(&[
        "replay",
        "--until",
        "-100d",
        "--entity",
        "datanode:eeef75e3-b676-4243-868a-0f77f54eb9ab",
        &dir,
    ]));
    assert!(replay.starts_with("no events name"), "{replay}");
    let stats = stdout(&oztrace(&["stats", "--since", "2026-11-28 02:04", &dir]));
    assert!(
        stats.contains("Counts and time ranges are of the records from 2026-11-28T02:04:00.000Z")
    );
    let bad = oztrace(&["stats", "--since", "3 fortnights ago", &dir]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn events_come_in_time_order_across_files_and_input_order_on_request() {
    let dir = sample(BUG);
    let times = |out: &Output| -> Vec<String> {
        stdout(out)
            .lines()
            .filter_map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                v["ts"].as_str().map(str::to_string)
            })
            .collect()
    };
    let by_time = times(&oztrace(&["events", "--sort", "time", &dir]));
    let default = times(&oztrace(&["events", &dir]));
    assert_eq!(by_time, default, "small inputs are time-sorted by default");
    let mut sorted = by_time.clone();
    sorted.sort();
    assert_eq!(by_time, sorted);
    let input = times(&oztrace(&["events", "--sort", "input", &dir]));
    assert_ne!(input, by_time, "the sample's files overlap in time");
    assert_eq!(input.len(), by_time.len());
}

#[test]
fn help_lists_exit_codes_and_examples_and_man_writes_a_page_per_command() {
    for args in [vec!["--help"], vec!["scan", "--help"]] {
        let help = stdout(&oztrace(&args));
        assert!(help.contains("Exit status:"), "{args:?}");
        assert!(help.contains("  3  some input could not be read"));
        assert!(help.contains("Examples:"));
        assert!(help.contains("oztrace scan bundle.tar.gz --report report.html"));
    }
    let dir = tempfile::tempdir().unwrap();
    let out = oztrace(&["man", "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let main = std::fs::read_to_string(dir.path().join("oztrace.1")).unwrap();
    for command in [
        "scan",
        "events",
        "replay",
        "stats",
        "rules",
        "explain",
        "completions",
        "man",
    ] {
        let page = dir.path().join(format!("oztrace-{command}.1"));
        assert!(page.exists(), "{}", page.display());
        assert!(
            main.contains(&format!("oztrace\\-{command}(1)")),
            "oztrace.1 refers to it"
        );
    }
}

#[test]
fn completions_offer_rule_ids_and_entity_kinds() {
    let bash = stdout(&oztrace(&["completions", "bash"]));
    assert!(bash.contains("resurrected-container"));
    assert!(bash.contains("container:"));
    let fish = stdout(&oztrace(&["completions", "fish"]));
    assert!(fish.contains("overwritten-op-state"));
}

#[test]
fn colour_follows_no_color_and_clicolor_force_in_every_command() {
    let bug = sample(BUG);
    for args in [
        vec!["scan", bug.as_str()],
        vec!["rules"],
        vec!["explain", "dropped-actions"],
    ] {
        let forced = oztrace_env(&args, &[("CLICOLOR_FORCE", "1")]);
        assert!(
            stdout(&forced).contains('\x1b'),
            "{args:?}: CLICOLOR_FORCE colours"
        );
        let plain = oztrace(&args);
        assert!(
            !stdout(&plain).contains('\x1b'),
            "{args:?}: no colour into a pipe"
        );
        let flag = {
            let mut a = args.clone();
            a.push("--color=never");
            oztrace_env(&a, &[("CLICOLOR_FORCE", "1")])
        };
        assert!(
            !stdout(&flag).contains('\x1b'),
            "{args:?}: --color=never wins"
        );
    }
}

#[test]
fn baselines_carry_reasons_and_expire_and_sarif_keeps_suppressed_findings() {
    let bug = sample(BUG);
    let dir = tempfile::tempdir().unwrap();
    let written = dir.path().join("known.json");
    let out = oztrace(&["scan", "--write-baseline", written.to_str().unwrap(), &bug]);
    assert_eq!(out.status.code(), Some(1));
    let mut baseline: Value =
        serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
    baseline["fingerprints"][0]["reason"] = "known since the 2026-09 upgrade; OZ-4411".into();
    baseline["fingerprints"][0]["expires"] = "2999-12-31".into();
    let current = dir.path().join("current.json");
    std::fs::write(&current, baseline.to_string()).unwrap();
    let out = oztrace(&[
        "scan",
        "--baseline",
        current.to_str().unwrap(),
        "--format",
        "sarif",
        &bug,
    ]);
    assert_eq!(out.status.code(), Some(0), "the only finding is suppressed");
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "SARIF keeps the suppressed finding");
    assert_eq!(results[0]["suppressions"][0]["kind"], "external");
    assert_eq!(
        results[0]["suppressions"][0]["justification"],
        "known since the 2026-09 upgrade; OZ-4411"
    );
    let json: Value = serde_json::from_slice(
        &oztrace(&[
            "scan",
            "--baseline",
            current.to_str().unwrap(),
            "--format",
            "json",
            &bug,
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(json["findings"], Value::Array(Vec::new()));
    assert_eq!(json["suppressed"], 1);

    // Expired: the finding counts again, and standard error says why.
    baseline["fingerprints"][0]["expires"] = "2020-01-01".into();
    let expired = dir.path().join("expired.json");
    std::fs::write(&expired, baseline.to_string()).unwrap();
    let out = oztrace(&["scan", "--baseline", expired.to_str().unwrap(), &bug]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expired on 2020-01-01"));

    baseline["fingerprints"][0]["expires"] = "someday".into();
    std::fs::write(&expired, baseline.to_string()).unwrap();
    let out = oztrace(&["scan", "--baseline", expired.to_str().unwrap(), &bug]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_readme_shows_a_real_text_report_and_a_screenshot_of_the_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme.find("### What a report looks like").unwrap();
    let block = &readme[start..];
    let body = &block[block.find("```text\n").unwrap() + 8..];
    let excerpt = &body[..body.find("```").unwrap()];
    let actual = stdout(&oztrace(&["scan", &sample(OP_STATE)]));
    let shown: Vec<&str> = excerpt.lines().filter(|l| l.trim() != "…").collect();
    assert!(shown.len() > 15);
    for line in shown {
        assert!(
            actual.lines().any(|l| l == line),
            "README line not in the output: {line}"
        );
    }
    assert!(readme.contains("](docs/report-HDDS-17400.png)"));
    let png = std::fs::read(root.join("docs/report-HDDS-17400.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 50_000);
    assert!(
        !readme.contains("shared/"),
        "the README points into docs/, not the steering repo"
    );
}

/// Runs oztrace with standard output on a terminal: util-linux `script` gives the command a
/// pseudo-terminal and copies what it writes.
fn oztrace_on_terminal(args: &[&str], no_color: bool) -> String {
    let line = std::iter::once(env!("CARGO_BIN_EXE_oztrace"))
        .chain(args.iter().copied())
        .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
        .collect::<Vec<_>>()
        .join(" ");
    let mut command = Command::new("script");
    command
        .args(["-qec", &line, "/dev/null"])
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    if no_color {
        command.env("NO_COLOR", "1");
    }
    let out = command
        .output()
        .expect("util-linux script runs (Debian's bsdutils)");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn on_a_terminal_colour_is_on_unless_no_color_is_set() {
    let bug = sample(BUG);
    // Each command with a word its output holds, so a command that failed to run cannot pass.
    let every: [(&[&str], &str); 5] = [
        (&["scan", &bug], "resurrected-container"),
        (&["rules"], "dropped-actions"),
        (&["explain", "dropped-actions"], "HDDS-17269"),
        (&["replay", "--entity", "container:1051", &bug], "1051"),
        (&["stats", &bug], "scm1"),
    ];
    for (args, word) in every {
        let shown = oztrace_on_terminal(args, true);
        assert!(
            shown.contains(word),
            "{args:?}: ran on the terminal: {shown}"
        );
        assert!(
            !shown.contains('\x1b'),
            "{args:?}: NO_COLOR on a terminal: {shown}"
        );
    }
    // The commands that style their text colour it on a terminal.
    for (args, word) in &every[..3] {
        let shown = oztrace_on_terminal(args, false);
        assert!(
            shown.contains(word),
            "{args:?}: ran on the terminal: {shown}"
        );
        assert!(shown.contains('\x1b'), "{args:?}: colour on a terminal");
    }
}
