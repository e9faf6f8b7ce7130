//! Bad input mixed into a copy of a good bug bundle (issue 12): every case a new user hit, each
//! run under a time limit (a hang is a failure), none may panic, the bad files are named with
//! their reason in `inputs.unreadable` and on stderr, the finding in the good files is still
//! reported, and no input changes.

mod common;

use common::{closed_pipe, finish, oztrace};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BUNDLE: &str = "samples/HDDS-17400-bug-stale-open-replica";

/// Runs oztrace with `args` (stdin from `input`), drains its output, under the hang guard.
fn run(args: &[&str], input: &[u8]) -> Output {
    let what = format!("oztrace {}", args.join(" "));
    let mut child = oztrace()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("oztrace runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stderr.read_to_end(&mut bytes);
        bytes
    });
    let output = finish(child, &what);
    feeder.join().expect("stdin feeder");
    let output = Output {
        status: output.status,
        stdout: out_reader.join().expect("stdout"),
        stderr: err_reader.join().expect("stderr"),
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked") && output.status.code() != Some(101),
        "{what}: panic: {stderr}"
    );
    output
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("exit code, not a signal")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn write(path: &Path, data: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, data).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// SHA-256 of every file under `root`, by relative path.
fn checksums(root: &Path) -> BTreeMap<PathBuf, String> {
    walkdir::WalkDir::new(root)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let digest = Sha256::digest(std::fs::read(e.path()).unwrap());
            let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            (e.path().strip_prefix(root).unwrap().to_path_buf(), hex)
        })
        .collect()
}

/// A gzip stream whose tar holds a GNU long name entry of `name_len` bytes, built from gzip
/// members (a decoder reads them as one stream), so that a 1 GiB name is a 1 MiB file.
fn tar_gz_with_long_name(name_len: usize) -> Vec<u8> {
    let mut header = tar::Header::new_gnu();
    header.set_path("././@LongLink").unwrap();
    header.set_entry_type(tar::EntryType::GNULongName);
    header.set_size(name_len as u64);
    header.set_cksum();
    let mut out = gz(header.as_bytes());
    let chunk = gz(&vec![b'a'; 1 << 20]);
    for _ in 0..name_len >> 20 {
        out.extend_from_slice(&chunk);
    }
    out.extend(gz(&[0u8; 1024]));
    out
}

/// The bad files mixed into the bundle, with what their reason must say.
fn mix_bad_inputs(bundle: &Path) -> Vec<(&'static str, &'static str)> {
    // The panic line of the issue, alone in a file: text in no known layout.
    write(
        &bundle.join("scm1/viewer-stamp.log"),
        b"2026-09-14T07:33 INFO something happened here\n",
    );
    // A README under a log name, and binary garbage.
    write(
        &bundle.join("dn1/notes.log"),
        b"# Notes\n\nThis bundle was collected on the 14th.\nSee the ticket for details.\n",
    );
    let garbage: Vec<u8> = (0u32..65536)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    write(
        &bundle.join("dn2/ozone-hadoop-datanode-dn2.log.7"),
        &garbage,
    );
    // 5 MB of zeros, gzipped: not text.
    write(
        &bundle.join("dn3/ozone-hadoop-datanode-dn3.log.2.gz"),
        &gz(&vec![0u8; 5 << 20]),
    );
    // A tarball whose GNU long name is 1 GiB.
    write(
        &bundle.join("scm2-logs.tar.gz"),
        &tar_gz_with_long_name(1 << 30),
    );
    // A truncated gzip.
    let good = gz(&std::fs::read(bundle.join("dn4/ozone-hadoop-datanode-dn4.log")).unwrap());
    write(
        &bundle.join("dn4/ozone-hadoop-datanode-dn4.log.1.gz"),
        &good[..good.len() / 2],
    );
    // The line that took 37 s to match, inside a good log (no reason: it is read).
    let mut long = std::fs::read(bundle.join("dn5/ozone-hadoop-datanode-dn5.log")).unwrap();
    long.extend_from_slice(b"2026-09-14 09:00:00,000 [");
    long.extend(b"] INFO : ".repeat(104_000));
    long.push(b'\n');
    write(&bundle.join("dn5/ozone-hadoop-datanode-dn5.log.1"), &long);
    // The current SCM log, which holds the finding, as text under a `.gz` name.
    std::fs::rename(
        bundle.join("scm1/ozone-hadoop-scm-scm1.log"),
        bundle.join("scm1/ozone-hadoop-scm-scm1.log.gz"),
    )
    .unwrap();
    vec![
        ("scm1/viewer-stamp.log", "unrecognized format"),
        ("dn1/notes.log", "unrecognized format"),
        ("dn2/ozone-hadoop-datanode-dn2.log.7", "binary content"),
        ("dn3/ozone-hadoop-datanode-dn3.log.2.gz", "binary content"),
        ("scm2-logs.tar.gz", "larger than 64 KiB"),
        ("dn4/ozone-hadoop-datanode-dn4.log.1.gz", "gzip"),
    ]
}

#[test]
fn bad_files_are_named_and_the_good_files_still_give_the_finding() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("bundle");
    copy_dir(Path::new(BUNDLE), &bundle);
    let expected = mix_bad_inputs(&bundle);
    let before = checksums(dir.path());
    let bundle_arg = bundle.to_str().unwrap();

    let out = run(&["scan", bundle_arg, "/dev/zero", "--format", "json"], b"");
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings: Vec<(&str, &str, &str)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap(),
                f["entity"].as_str().unwrap(),
                f["confidence"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        findings,
        [("resurrected-container", "container:3107", "confirmed")]
    );
    let unreadable: BTreeMap<&str, &str> = doc["inputs"]["unreadable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| (u["file"].as_str().unwrap(), u["reason"].as_str().unwrap()))
        .collect();
    let stderr = stderr(&out);
    for (file, reason) in &expected {
        let got = unreadable
            .get(file)
            .unwrap_or_else(|| panic!("{file} is not unreadable: {unreadable:?}"));
        assert!(got.contains(reason), "{file}: {got}");
        assert!(
            stderr.contains(&format!("cannot read {file}: {got}")),
            "{stderr}"
        );
    }
    assert!(unreadable["/dev/zero"].contains("character device"));
    assert_eq!(unreadable.len(), expected.len() + 1, "{unreadable:?}");
    // The evidence came from the text file named `.gz`.
    assert!(
        doc["findings"][0]["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["file"] == "scm1/ozone-hadoop-scm-scm1.log.gz" && e["role"] == "cause")
    );

    // Every command reads the same inputs without a panic or a hang; none changes them.
    for args in [
        vec!["stats", bundle_arg],
        vec!["stats", bundle_arg, "--format", "json"],
        vec!["events", bundle_arg],
        vec!["events", "--all", bundle_arg],
        vec!["replay", bundle_arg, "--entity", "container:3107"],
        vec!["scan", "--each", bundle_arg, BUNDLE],
    ] {
        let out = run(&args, b"");
        assert_eq!(code(&out), 3, "{args:?}: {}", self::stderr(&out));
    }
    assert_eq!(checksums(dir.path()), before, "an input changed");
}

#[test]
fn outputs_never_overwrite_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("bundle");
    copy_dir(Path::new(BUNDLE), &bundle);
    let log = bundle.join("scm1/ozone-hadoop-scm-scm1.log");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&log, dir.path().join("link.html")).unwrap();
    let before = checksums(dir.path());
    let (b, l) = (bundle.to_str().unwrap(), log.to_str().unwrap());
    let link = dir.path().join("link.html");
    let link = link.to_str().unwrap();
    for args in [
        vec!["scan", b, "--report", l],
        vec!["scan", b, "--write-baseline", l],
        vec!["scan", b, "--report", link],
        vec!["scan", l, "--report", l],
        vec!["events", b, "-o", l],
    ] {
        let out = run(&args, b"");
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(
            stderr(&out).contains("one of the inputs"),
            "{}",
            stderr(&out)
        );
    }
    assert_eq!(checksums(dir.path()), before);

    // A new output is written whole, by rename, and nothing else is left beside it.
    let report = dir.path().join("out/report.html");
    std::fs::create_dir_all(report.parent().unwrap()).unwrap();
    let out = run(&["scan", b, "--report", report.to_str().unwrap()], b"");
    assert_eq!(code(&out), 1);
    let page = std::fs::read_to_string(&report).unwrap();
    assert!(page.contains("container:3107") && page.trim_end().ends_with("</html>"));
    let left: Vec<_> = std::fs::read_dir(report.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["report.html"]);
    // An output folder that does not exist is a usage error before anything is read.
    let out = run(&["scan", b, "--report", "/nonexistent/dir/r.html"], b"");
    assert_eq!(code(&out), 2);
}

#[test]
fn special_files_stdin_and_empty_inputs_end_promptly() {
    let out = run(
        &["scan", "-"],
        b"2026-09-14T07:33 INFO something happened here\n",
    );
    assert_eq!(code(&out), 3);
    assert!(stderr(&out).contains("cannot read -: unrecognized format"));
    let out = run(&["scan", "/dev/zero"], b"");
    assert_eq!(code(&out), 3);
    assert!(stderr(&out).contains("/dev/zero: not a regular file (character device)"));
    let out = run(&["scan", BUNDLE, "--baseline", "/dev/zero"], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--baseline /dev/zero: not a regular file"));
    // Zeros through a pipe: binary, refused at once.
    let out = run(&["scan", "-"], &vec![0u8; 4 << 20]);
    assert_eq!(code(&out), 3);
    assert!(stderr(&out).contains("binary content"));
    let empty = tempfile::tempdir().unwrap();
    let out = run(
        &["scan", empty.path().to_str().unwrap(), "--format", "json"],
        b"",
    );
    assert_eq!(code(&out), 3);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        doc["inputs"]["unreadable"][0]["reason"]
            .as_str()
            .unwrap()
            .starts_with("nothing to scan")
    );
}

#[test]
fn a_zip_bundle_given_directly_is_read_as_an_archive() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bundle.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    for entry in walkdir::WalkDir::new(BUNDLE) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let name = entry.path().strip_prefix(BUNDLE).unwrap().to_str().unwrap();
            zip.start_file(name, zip::write::SimpleFileOptions::default())
                .unwrap();
            zip.write_all(&std::fs::read(entry.path()).unwrap())
                .unwrap();
        }
    }
    zip.finish().unwrap();
    let out = run(&["scan", path.to_str().unwrap(), "--format", "json"], b"");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["findings"][0]["entity"], "container:3107");
    assert_eq!(doc["inputs"]["unreadable"], serde_json::json!([]));
}

/// When no rule could run on what was read, the headline does not say a bare "No findings."
/// (which says the rules ran and found nothing): it says none could run.
#[test]
fn a_scan_on_which_no_rule_could_run_says_so_in_its_headline() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("app.log"),
        "2026-01-01 00:00:00,000 [main] INFO  com.example.App: started\n",
    )
    .unwrap();
    let path = dir.path().to_str().unwrap();
    for format in ["text", "markdown"] {
        let out = run(&["scan", path, "--format", format], b"");
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("No findings: no rule could run on what the logs hold"),
            "{text}"
        );
        assert!(!text.contains("No findings."), "{text}");
        assert!(text.contains("Coverage: 0 of "), "{text}");
    }
}

#[test]
fn rules_that_could_not_run_are_named() {
    let dn: Vec<String> = ["dn1", "dn2", "dn3"]
        .iter()
        .map(|h| format!("{BUNDLE}/{h}"))
        .collect();
    let mut args = vec!["scan"];
    args.extend(dn.iter().map(String::as_str));
    let out = run(&args, b"");
    assert_eq!(code(&out), 0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("No findings."));
    assert!(text.contains("blind resurrected-container: needs SCM service logs (scm); none found"));
    assert!(text.contains("blind premature-lease-close: needs OM audit logs (om-audit)"));
    args.extend(["--format", "sarif"]);
    let out = run(&args, b"");
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    let blind: Vec<&str> = notes
        .iter()
        .filter(|n| n["properties"]["status"] == "blind")
        .map(|n| n["associatedRule"]["id"].as_str().unwrap())
        .collect();
    for rule in [
        "overwritten-op-state",
        "premature-lease-close",
        "dropped-actions",
        "resurrected-container",
    ] {
        assert!(blind.contains(&rule), "{rule} is not blind: {blind:?}");
    }
    assert!(!blind.contains(&"reused-write-future"), "{blind:?}");
    for format in ["markdown", "jsonl"] {
        let mut with_format = args[..args.len() - 2].to_vec();
        with_format.extend(["--format", format]);
        let out = run(&with_format, b"");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("resurrected-container") && text.contains("blind"),
            "{format}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.html");
    let mut with_report = args[..args.len() - 2].to_vec();
    with_report.extend(["--report", report.to_str().unwrap()]);
    run(&with_report, b"");
    let page = std::fs::read_to_string(&report).unwrap();
    assert!(page.contains("<h2>Coverage</h2>") && page.contains("blind resurrected-container"));
}

#[test]
fn settings_are_checked_before_anything_is_read() {
    for (set, says) in [
        (
            "ozone.om.lease.hard.limit=banana",
            "ozone.om.lease.hard.limit: `banana` is not a duration",
        ),
        ("ozone.om.lease.hard.limit=-5h", "cannot be negative"),
        (
            "ozone.om.lease.hard.limit=1e400",
            "`1e400` is not a duration",
        ),
        (
            "ozone.om.lease.hard.limt=2h",
            "unknown setting `ozone.om.lease.hard.limt`",
        ),
        ("hdds.heartbeat.interval", "expected KEY=VALUE"),
    ] {
        let out = run(&["scan", BUNDLE, "--set", set], b"");
        assert_eq!(code(&out), 2, "{set}");
        assert!(stderr(&out).contains(says), "{set}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{set}: nothing analysed");
    }
    let out = run(
        &[
            "scan",
            BUNDLE,
            "--set",
            "x.team=storage",
            "--set",
            "hdds.heartbeat.interval=10s",
        ],
        b"",
    );
    assert_eq!(code(&out), 1);

    // A bad ozone-site.xml value: a warning naming file and key, the default applies, said so.
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("bundle");
    copy_dir(Path::new(BUNDLE), &bundle);
    write(
        &bundle.join("conf/ozone-site.xml"),
        b"<configuration><property><name>ozone.om.lease.hard.limit</name><value>7 days</value></property></configuration>",
    );
    let out = run(&["scan", bundle.to_str().unwrap(), "--format", "json"], b"");
    assert_eq!(code(&out), 1);
    let warning = "conf/ozone-site.xml: ozone.om.lease.hard.limit: `7 days` is not a duration";
    assert!(stderr(&out).contains(warning), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let said = doc["warnings"][0].as_str().unwrap();
    assert!(
        said.contains(warning) && said.ends_with("the default 7d applies"),
        "{said}"
    );

    // An ozone-site.xml that is not well-formed: a warning naming the file and the XML parser's
    // reason with its position; none of its settings are read and the bundle still gives its finding.
    write(
        &bundle.join("conf/ozone-site.xml"),
        b"<configuration>\n<property><name>ozone.om.lease.hard.limit</name><value>7 days</value>\n</configuration>\n",
    );
    let out = run(&["scan", bundle.to_str().unwrap(), "--format", "json"], b"");
    assert_eq!(code(&out), 1);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings = doc["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let said = warnings[0].as_str().unwrap();
    assert!(
        said.starts_with("conf/ozone-site.xml: not well-formed XML: ")
            && said.contains("at 3:1")
            && said.ends_with("none of its settings are read, the defaults apply"),
        "{said}"
    );
    assert!(stderr(&out).contains(said), "{}", stderr(&out));
    assert_eq!(doc["findings"][0]["entity"], "container:3107");
}

#[test]
fn a_closed_pipe_ends_quietly_and_a_full_disk_is_one_line() {
    for args in [
        vec!["explain", "--kinds"],
        vec!["rules"],
        vec!["stats", BUNDLE],
        vec!["events", BUNDLE],
        vec!["scan", BUNDLE],
        vec!["scan", "--each", BUNDLE, BUNDLE],
        vec!["replay", BUNDLE, "--entity", "container:3107"],
        vec!["man"],
    ] {
        let out = closed_pipe(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
    // `| head -1` after the first line: the rest of the writes fail and the run still ends 0.
    // More reports (5 KB each) than a pipe holds (64 KiB): bundles analysed at once could
    // otherwise all be written before the pipe closes.
    let mut args = vec!["scan", "--each"];
    args.extend(std::iter::repeat_n(BUNDLE, 40));
    let mut child = oztrace()
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 8];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = finish(child, "scan --each | head");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    if Path::new("/dev/full").exists() {
        for args in [
            vec!["rules"],
            vec!["scan", BUNDLE],
            vec!["explain", "--kinds"],
        ] {
            let child = oztrace()
                .args(&args)
                .stdout(
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open("/dev/full")
                        .unwrap(),
                )
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let out = finish(child, "> /dev/full");
            assert_eq!(out.status.code(), Some(4), "{args:?}");
            let err = stderr(&out);
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains("No space left on device"), "{err}");
        }
    }
}

#[test]
fn long_lines_are_cut_counted_in_stats_and_marked_in_events() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("scm1/ozone-hadoop-scm-scm1.log");
    let mut text =
        b"2026-08-20 14:02:10,331 [main] INFO org.apache.hadoop.hdds.scm.ha.SCMContext: \
Update SafeModeStatus from INITIAL to PRE_CHECKS_PASSED."
            .to_vec();
    text.extend(std::iter::repeat_n(b'x', 3 << 20));
    text.push(b'\n');
    write(&log, &text);
    let out = run(&["stats", log.to_str().unwrap(), "--format", "json"], b"");
    assert_eq!(code(&out), 0);
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    let file = &stats["files"][0];
    assert_eq!(file["truncated_records"], 1);
    assert!(file["bytes_not_kept"].as_u64().unwrap() > 2 << 20);
    let out = run(&["events", "--all", log.to_str().unwrap()], b"");
    let event: Value =
        serde_json::from_slice(out.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    let shown = event["text"].as_str().unwrap();
    assert!(shown.ends_with("bytes not kept]") && shown.len() < 300 << 10);
}

#[cfg(unix)]
#[test]
fn a_fifo_given_directly_is_read_like_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("scm1.log");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let log = std::fs::read(Path::new(BUNDLE).join("scm1/ozone-hadoop-scm-scm1.log")).unwrap();
    let target = fifo.clone();
    let writer = std::thread::spawn(move || {
        std::fs::OpenOptions::new()
            .write(true)
            .open(target)
            .unwrap()
            .write_all(&log)
    });
    let out = run(&["stats", fifo.to_str().unwrap(), "--format", "json"], b"");
    writer.join().unwrap().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(stats["files"][0]["records"].as_u64().unwrap() > 10);
}

#[cfg(unix)]
#[test]
fn a_fifo_named_as_a_log_in_a_folder_is_listed_unread_not_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let log = Path::new(BUNDLE).join("scm1/ozone-hadoop-scm-scm1.log");
    std::fs::copy(&log, dir.path().join("ozone-hadoop-scm-scm1.log")).unwrap();
    for name in ["ozone-hadoop-datanode-dn9.log", "notes.fifo"] {
        let made = Command::new("mkfifo")
            .arg(dir.path().join(name))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
    }
    // No writer ever opens them: reading either would hang the scan.
    let out = run(
        &["scan", dir.path().to_str().unwrap(), "--format", "json"],
        b"",
    );
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let unreadable = doc["inputs"]["unreadable"].as_array().unwrap();
    assert_eq!(unreadable.len(), 1, "{unreadable:?}");
    assert_eq!(unreadable[0]["file"], "ozone-hadoop-datanode-dn9.log");
    assert!(unreadable[0]["reason"].as_str().unwrap().contains("FIFO"));
    assert!(stderr(&out).contains("ozone-hadoop-datanode-dn9.log"));
    assert!(doc["inputs"]["records"].as_u64().unwrap() > 10);
}
