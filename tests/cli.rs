//! The input layer and the recorded trace through the binary: every layout, compose streams,
//! multi-line records, compression and archives, unreadable inputs, time zones, exit codes.

use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn oztrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(args)
        .output()
        .expect("oztrace runs")
}

fn jsonl(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn gzip(text: &str) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(text.as_bytes()).unwrap();
    enc.finish().unwrap()
}

const SCM_FILE: &str = "\
2026-08-20 14:12:03,551 [scm1-FixedThreadPoolWithAffinityExecutor-3-0] ERROR org.apache.hadoop.hdds.scm.container.ContainerReportHandler: Failed to process Container #1051
org.apache.hadoop.hdds.scm.exceptions.SCMException: not the leader
\tat org.apache.hadoop.hdds.scm.ha.invoker.ScmInvoker.translateException(ScmInvoker.java:118)
Caused by: org.apache.ratis.protocol.exceptions.NotLeaderException: Server x is not the leader
\t... 12 more
2026-08-20 14:12:04,000 [IPC Server handler 12 on default port 9861] INFO org.apache.hadoop.hdds.scm.node.SCMNodeManager: next
";

const VENDOR_DN: &str = "\
2026-08-20 14:12:05,100 INFO org.apache.ratis.server.RaftServer$Division: 3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4: changes role from    LEADER to FOLLOWER at term 7 for StepDownReason:HIGHER_TERM
2026-08-20 14:12:05,245 INFO org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker: 3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4-SegmentedRaftLogWorker: Truncating segments truncate(18342)
  toTruncate: (17901, 18345) isOpen? true, length=96231, newEndIndex=18341
    toDelete: [], start index 18342
";

const COMPOSE: &str = "\
scm1_1      | 2026-08-20 14:12:03,551 [main] ERROR container.ContainerReportHandler: failed
om1_1       | 2026-08-20 14:12:03,552 [main] INFO om.OzoneManager: started
scm1_1      | java.io.IOException: boom
scm1_1      | \tat org.X.y(X.java:1)
datanode_2  | 2026-08-20 14:12:03,553 [main] INFO statemachine.DatanodeStateMachine: up
";

const AUDIT: &str = "\
2025-11-04 08:00:05,003 | ERROR | OMAudit | user=hbase | ip=10.20.0.12 | op=RECOVER_LEASE {\"volume\":\"hbase\",\"bucket\":\"wal\",\"key\":\"k\",\"Transaction\":\"5123456\"} | ret=FAILURE | KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD org.apache.hadoop.ozone.om.exceptions.OMException: Open Key k updated recently
\tat org.apache.hadoop.ozone.om.request.file.OMRecoverLeaseRequest.doWork(OMRecoverLeaseRequest.java:228)
\tat org.apache.hadoop.ozone.om.request.file.OMRecoverLeaseRequest.validateAndUpdateCache(OMRecoverLeaseRequest.java:150) 
2025-11-03 10:00:00,117 | INFO  | OMAudit | user=hbase | ip=10.20.0.11 | op=CREATE_FILE {volume=hbase, bucket=wal, key=WALs/rs1/rs1.1762164000000, dataSize=0, Transaction=5001230} | ret=SUCCESS |  
";

fn bundle(dir: &Path) {
    write(&dir.join("scm1/ozone-hadoop-scm-scm1.log"), SCM_FILE);
    write(
        &dir.join("dn3/hadoop-cmf-ozone-HDDS_DATANODE-dn3.example.com.log.out"),
        VENDOR_DN,
    );
    write(&dir.join("compose/docker-compose.log"), COMPOSE);
    write(&dir.join("om1/om-audit-om1.log"), AUDIT);
}

fn by_file<'a>(events: &'a [Value], file: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["file"] == file).collect()
}

#[test]
fn events_all_reads_every_layout_into_contract_records() {
    let dir = tempfile::tempdir().unwrap();
    bundle(dir.path());
    let out = oztrace(&[
        "events",
        "--all",
        "--format",
        "jsonl",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let events = jsonl(&out);

    let scm = by_file(&events, "scm1/ozone-hadoop-scm-scm1.log");
    assert_eq!(scm.len(), 2);
    assert_eq!(scm[0]["ts"], "2026-08-20T14:12:03.551Z");
    assert_eq!(scm[0]["host"], "scm1");
    assert_eq!(scm[0]["component"], "scm");
    assert_eq!(scm[0]["level"], "ERROR");
    assert_eq!(
        scm[0]["thread"],
        "scm1-FixedThreadPoolWithAffinityExecutor-3-0"
    );
    assert_eq!(
        scm[0]["logger"],
        "org.apache.hadoop.hdds.scm.container.ContainerReportHandler"
    );
    assert_eq!(scm[0]["text"], "Failed to process Container #1051");
    assert_eq!(scm[0]["continuation_lines"], 4);
    assert_eq!(scm[1]["line"], 6);
    assert_eq!(
        scm[1]["thread"],
        "IPC Server handler 12 on default port 9861"
    );

    let dn = by_file(
        &events,
        "dn3/hadoop-cmf-ozone-HDDS_DATANODE-dn3.example.com.log.out",
    );
    assert_eq!(dn.len(), 2);
    assert_eq!(
        dn[0]["thread"],
        Value::Null,
        "the vendor layout has no thread"
    );
    assert_eq!(
        dn[0]["logger"],
        "org.apache.ratis.server.RaftServer$Division"
    );
    assert_eq!(dn[0]["component"], "datanode");
    assert_eq!(dn[1]["continuation_lines"], 2);

    let compose = by_file(&events, "compose/docker-compose.log");
    let hosts: Vec<&str> = compose
        .iter()
        .map(|e| e["host"].as_str().unwrap())
        .collect();
    // The replica suffix of an unscaled compose service goes (issue 18 item 1): the other
    // services reach it as `scm1`; `datanode_2` with no replica 1 in the stream stays whole.
    assert_eq!(hosts, vec!["scm1", "om1", "datanode_2"]);
    let components: Vec<&str> = compose
        .iter()
        .map(|e| e["component"].as_str().unwrap())
        .collect();
    assert_eq!(components, vec!["scm", "om", "datanode"]);
    assert_eq!(compose[0]["continuation_lines"], 2);
    assert_eq!(compose[0]["logger"], "container.ContainerReportHandler");

    let audit = by_file(&events, "om1/om-audit-om1.log");
    assert_eq!(audit.len(), 2);
    assert_eq!(audit[0]["component"], "om-audit");
    assert_eq!(audit[0]["logger"], "OMAudit");
    assert_eq!(audit[0]["continuation_lines"], 2);
    assert!(audit[0]["text"].as_str().unwrap().ends_with("ret=FAILURE"));

    for e in &events {
        for key in [
            "ts",
            "host",
            "component",
            "level",
            "thread",
            "logger",
            "kind",
            "entities",
            "fields",
            "file",
            "line",
            "continuation_lines",
            "text",
        ] {
            assert!(e.get(key).is_some(), "{key} missing in {e}");
        }
    }
}

#[test]
fn stats_names_layouts_and_counts_records() {
    let dir = tempfile::tempdir().unwrap();
    bundle(dir.path());
    let out = oztrace(&["stats", "--format", "json", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    let layout = |file: &str| {
        stats["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["file"] == file)
            .map(|f| {
                (
                    f["layout"].as_str().unwrap().to_string(),
                    f["records"].as_u64().unwrap(),
                )
            })
            .unwrap()
    };
    assert_eq!(layout("scm1/ozone-hadoop-scm-scm1.log"), ("file".into(), 2));
    assert_eq!(
        layout("dn3/hadoop-cmf-ozone-HDDS_DATANODE-dn3.example.com.log.out"),
        ("vendor".into(), 2)
    );
    assert_eq!(
        layout("compose/docker-compose.log"),
        ("compose+console".into(), 3)
    );
    assert_eq!(layout("om1/om-audit-om1.log"), ("audit".into(), 2));
    let text = oztrace(&["stats", dir.path().to_str().unwrap()]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("INFO-or-above typed"), "{text}");
}

#[test]
fn compressed_archived_and_corrupt_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("ozone-hadoop-scm-scm1.log.1.gz"), gzip(SCM_FILE)).unwrap();
    std::fs::write(
        root.join("ozone-hadoop-datanode-dn3.log.zst"),
        zstd::encode_all(VENDOR_DN.as_bytes(), 3).unwrap(),
    )
    .unwrap();
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::fast(),
    ));
    let mut header = tar::Header::new_gnu();
    header.set_size(AUDIT.len() as u64);
    header.set_mode(0o644);
    header.set_cksum();
    tar.append_data(&mut header, "./om1/om-audit-om1.log", AUDIT.as_bytes())
        .unwrap();
    std::fs::write(
        root.join("bundle.tar.gz"),
        tar.into_inner().unwrap().finish().unwrap(),
    )
    .unwrap();
    let mut corrupt = gzip(SCM_FILE);
    corrupt.truncate(corrupt.len() / 2);
    std::fs::write(root.join("ozone-hadoop-scm-scm2.log.gz"), corrupt).unwrap();

    let out = oztrace(&[
        "events",
        "--all",
        "--format",
        "jsonl",
        root.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(3), "a corrupt input exits 3");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ozone-hadoop-scm-scm2.log.gz"), "{stderr}");
    let events = jsonl(&out);
    let files: std::collections::BTreeSet<&str> =
        events.iter().map(|e| e["file"].as_str().unwrap()).collect();
    assert!(files.contains("ozone-hadoop-scm-scm1.log.1.gz"));
    assert!(files.contains("ozone-hadoop-datanode-dn3.log.zst"));
    assert!(
        files.contains("bundle.tar.gz!/om1/om-audit-om1.log"),
        "{files:?}"
    );
    assert_eq!(by_file(&events, "ozone-hadoop-scm-scm1.log.1.gz").len(), 2);

    let stats = oztrace(&["stats", "--format", "json", root.to_str().unwrap()]);
    assert_eq!(stats.status.code(), Some(3));
    let stats: Value = serde_json::from_slice(&stats.stdout).unwrap();
    let unreadable = stats["unreadable"].as_array().unwrap();
    assert_eq!(unreadable.len(), 1);
    assert!(
        unreadable[0]["path"]
            .as_str()
            .unwrap()
            .ends_with("ozone-hadoop-scm-scm2.log.gz")
    );
    assert!(!unreadable[0]["reason"].as_str().unwrap().is_empty());
}

#[test]
fn stdin_time_zones_and_usage_errors() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(["events", "--all", "--tz", "Europe/Berlin", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(SCM_FILE.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let events = jsonl(&out);
    assert_eq!(events[0]["file"], "-");
    assert_eq!(
        events[0]["ts"], "2026-08-20T12:12:03.551Z",
        "Berlin is UTC+2 in August"
    );

    assert_eq!(
        oztrace(&["events", "--tz", "Mars/Olympus", "-"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        oztrace(&["events", "--layout", "%d [%t"]).status.code(),
        Some(2)
    );
    assert_eq!(
        oztrace(&["stats"]).status.code(),
        Some(2),
        "no PATH is a usage error"
    );
    assert_eq!(oztrace(&["explain", "no-such-rule"]).status.code(), Some(2));
}

#[test]
fn forced_layout_reads_a_custom_pattern() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("ozone-hadoop-om-om1.log"),
        "2026-08-20 14:12:03,551 <WARN> {om1-OMStateMachineApplyTransactionThread - 0} org.apache.hadoop.ozone.om.X ~ hello\n",
    );
    let out = oztrace(&[
        "events",
        "--all",
        "--layout",
        "%d{ISO8601} <%p> {%t} %c ~ %m%n",
        dir.path().to_str().unwrap(),
    ]);
    let events = jsonl(&out);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["level"], "WARN");
    assert_eq!(
        events[0]["thread"],
        "om1-OMStateMachineApplyTransactionThread - 0"
    );
    assert_eq!(events[0]["text"], "hello");
}

#[cfg(feature = "parquet")]
#[test]
fn parquet_and_csv_are_written_and_read_back() {
    use polars::prelude::*;
    let dir = tempfile::tempdir().unwrap();
    bundle(dir.path());
    let frame = events_parquet(
        dir.path().to_str().unwrap(),
        &dir.path().join("trace.parquet"),
    )
    .finish()
    .unwrap();
    assert_eq!(frame.height(), 9);
    for column in [
        "ts",
        "host",
        "component",
        "level",
        "thread",
        "logger",
        "kind",
        "entities",
        "fields",
        "file",
        "line",
    ] {
        assert!(frame.column(column).is_ok(), "{column} missing");
    }
    assert!(matches!(
        frame.column("entities").unwrap().dtype(),
        DataType::List(_)
    ));
    // Typed for batch work: a UTC timestamp, categoricals, fields as a key/value map, the
    // record's text and continuation count, and the bundle it came from.
    assert!(matches!(
        frame.column("ts").unwrap().dtype(),
        DataType::Datetime(TimeUnit::Milliseconds, Some(tz)) if tz.as_str() == "UTC"
    ));
    for categorical in ["kind", "host", "component", "bundle"] {
        assert!(
            matches!(
                frame.column(categorical).unwrap().dtype(),
                DataType::Categorical(..)
            ),
            "{categorical}: {:?}",
            frame.column(categorical).unwrap().dtype()
        );
    }
    assert!(matches!(
        frame.column("fields").unwrap().dtype(),
        DataType::List(inner) if matches!(**inner, DataType::Struct(_))
    ));
    assert!(frame.column("text").is_ok() && frame.column("continuation_lines").is_ok());
    let bundles = frame
        .column("bundle")
        .unwrap()
        .cast(&DataType::String)
        .unwrap();
    let bundle = bundles.str().unwrap().get(0).unwrap().to_string();
    assert_eq!(bundle, dir.path().to_str().unwrap());

    let csv = dir.path().join("trace.csv");
    let out = oztrace(&[
        "events",
        "--all",
        "--format",
        "csv",
        "-o",
        csv.to_str().unwrap(),
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with(
        "ts,host,component,level,thread,logger,kind,entities,fields,file,line,ts_ms,text,continuation_lines,bundle"
    ));
    assert_eq!(text.lines().count(), 10);
}

/// Runs `events --all --format parquet -o PQ INPUT`, which must succeed, and opens what it wrote.
#[cfg(feature = "parquet")]
fn events_parquet(
    input: &str,
    pq: &std::path::Path,
) -> polars::prelude::ParquetReader<std::fs::File> {
    use polars::prelude::SerReader;
    let out = oztrace(&[
        "events",
        "--all",
        "--format",
        "parquet",
        "-o",
        pq.to_str().unwrap(),
        input,
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    polars::prelude::ParquetReader::new(std::fs::File::open(pq).unwrap())
}

/// Parquet streams as JSON Lines do: a bundle of more records than one row group holds is written
/// in several row groups (not held whole), with the rows and order of `--format jsonl`, each
/// naming its bundle.
#[cfg(feature = "parquet")]
#[test]
fn parquet_is_written_in_row_groups_with_the_rows_of_json_lines() {
    use polars::prelude::*;
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("bundle");
    let mut options = oztrace_gen::Options::new(bundle.clone());
    options.size = 12 << 20;
    options.hours = 6;
    options.rotate = 4 << 20;
    options.inject = 1;
    oztrace_gen::generate(&options).expect("generate");
    let bundle = bundle.to_str().unwrap();
    let mut reader = events_parquet(bundle, &dir.path().join("trace.parquet"));
    let groups = reader.get_metadata().unwrap().row_groups.len();
    let frame = reader.finish().unwrap();
    assert!(
        groups > 1,
        "{groups} row group(s) for {} rows",
        frame.height()
    );

    let out = oztrace(&[
        "events", "--all", "--format", "jsonl", "--sort", "time", bundle,
    ]);
    assert_eq!(out.status.code(), Some(0));
    let lines = jsonl(&out);
    assert_eq!(frame.height(), lines.len());
    let files = frame.column("file").unwrap().str().unwrap().clone();
    let numbers = frame.column("line").unwrap().u64().unwrap().clone();
    for (row, event) in lines.iter().enumerate() {
        let place = (files.get(row), numbers.get(row));
        let expected = (event["file"].as_str(), event["line"].as_u64());
        assert_eq!(place, expected, "row {row}");
    }
    let bundles = frame
        .column("bundle")
        .unwrap()
        .cast(&DataType::String)
        .unwrap();
    let bundles = bundles.str().unwrap();
    assert!((0..bundles.len()).all(|row| bundles.get(row) == Some(bundle)));
}

/// Without polars, `--format parquet` is refused before anything is read: a missing input is not
/// even looked at, and no file is written.
#[cfg(not(feature = "parquet"))]
#[test]
fn parquet_without_polars_is_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("trace.parquet");
    let out = oztrace(&[
        "events",
        "--format",
        "parquet",
        "-o",
        out_file.to_str().unwrap(),
        dir.path().join("missing").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`parquet` feature"), "{stderr}");
    assert!(
        !stderr.contains("missing"),
        "read before refusing: {stderr}"
    );
    assert!(!out_file.exists());
}

/// The fields of CSV rows (RFC 4180: quoted fields may hold commas, doubled quotes and line ends).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut field) = (Vec::new(), Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    rows
}

/// The rows of `oztrace events --format csv INPUTS`, which must succeed, its header first.
fn csv_events(inputs: &[&str]) -> Vec<Vec<String>> {
    let out = oztrace(&[&["events", "--format", "csv"][..], inputs].concat());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    csv_rows(&String::from_utf8(out.stdout).unwrap())
}

/// CSV needs no polars: its rows stream in the events' time order (as `--sort time` JSON Lines
/// give them), one per event, with the event's values and the bundle it was read from.
#[test]
fn csv_rows_are_the_events_in_time_order() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/HDDS-17269-bug-info");
    let sample = sample.to_str().unwrap();
    let rows = csv_events(&[sample]);
    let events = jsonl(&oztrace(&["events", "--sort", "time", sample]));
    assert_eq!(rows[0].len(), 15);
    assert_eq!(rows[0][0], "ts");
    assert_eq!(rows.len(), events.len() + 1);
    for (row, event) in rows[1..].iter().zip(&events) {
        assert_eq!(row.len(), 15, "{row:?}");
        let line = event["line"].as_u64().unwrap().to_string();
        assert_eq!(
            (&row[9], &row[10]),
            (&event["file"].as_str().unwrap().to_string(), &line)
        );
        assert_eq!(row[6], event["kind"].as_str().unwrap());
        assert_eq!(row[0], event["ts"].as_str().unwrap_or(""));
        let fields: Value = serde_json::from_str(&row[8]).unwrap();
        assert_eq!(fields, event["fields"], "{row:?}");
        assert_eq!(row[14], sample);
    }
}

/// CSV of several arguments streams as one argument does: each row names the argument its file was
/// found under, the OMs' copies of one audit record fold into one row across the arguments, and
/// the rows are the events of JSON Lines over the same arguments, in the same order.
#[test]
fn csv_rows_of_several_arguments_name_their_bundle_and_fold_copies_across_them() {
    let dir = tempfile::tempdir().unwrap();
    let line = |minute: u32, ms: u32, tx: u32| {
        format!(
            "2026-08-19 00:{minute:02}:01,{ms:03} | INFO  | OMAudit | user=svc | ip=10.0.0.1 | op=COMMIT_KEY {{\"volume\":\"v\",\"bucket\":\"b\",\"key\":\"k{tx}\",\"dataSize\":\"0\",\"Transaction\":\"{tx}\"}} | ret=SUCCESS |  \n"
        )
    };
    // The same two records, each OM a folder given as an argument of its own; om2 writes later.
    for (om, ms) in [("om1", 100), ("om2", 400)] {
        write(
            &dir.path().join(om).join("om-audit.log"),
            &[line(1, ms, 7001), line(2, ms, 7002)].concat(),
        );
    }
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/HDDS-17269-bug-info");
    let (om1, om2) = (dir.path().join("om1"), dir.path().join("om2"));
    let arguments = [
        om1.to_str().unwrap(),
        om2.to_str().unwrap(),
        sample.to_str().unwrap(),
    ];
    let rows = csv_events(&arguments);
    let events = jsonl(&oztrace(
        &[&["events", "--sort", "time"][..], &arguments].concat(),
    ));
    assert_eq!(
        rows.len(),
        events.len() + 1,
        "a header, then a row per event"
    );
    let audit: Vec<&Vec<String>> = rows.iter().filter(|r| r[2] == "om-audit").collect();
    assert_eq!(audit.len(), 2, "one row per Transaction: {audit:?}");
    for row in &audit {
        assert_eq!((row[1].as_str(), row[14].as_str()), ("om1", arguments[0]));
    }
    let sample_rows = rows[1..].iter().filter(|r| r[14] == arguments[2]).count();
    let alone = jsonl(&oztrace(&["events", arguments[2]])).len();
    assert_eq!(sample_rows, alone, "every event of the sample names it");
    assert_eq!(sample_rows + audit.len(), events.len());
    for (row, event) in rows[1..].iter().zip(&events) {
        let line = event["line"].as_u64().unwrap().to_string();
        let file = event["file"].as_str().unwrap().to_string();
        assert_eq!((&row[9], &row[10]), (&file, &line));
    }
}

#[test]
fn om_audit_copies_merge_into_one_event_while_other_files_stream() {
    let dir = tempfile::tempdir().unwrap();
    let line = |ms: u32| {
        format!(
            "2025-11-03 10:41:12,{ms:03} | INFO  | OMAudit | user=hbase | ip=10.20.0.11 | op=ALLOCATE_BLOCK {{\"volume\":\"hbase\",\"bucket\":\"wal\",\"key\":\"WALs/rs1/rs1.1762164000000\",\"dataSize\":\"268431871\",\"replicationType\":\"RATIS\",\"replicationFactor\":\"THREE\",\"clientID\":\"115485179904000017\",\"Transaction\":\"5002871\"}} | ret=SUCCESS |  \n"
        )
    };
    write(&dir.path().join("om1/om-audit-om1.log"), &line(118));
    write(&dir.path().join("om2/om-audit-om2.log"), &line(201));
    write(&dir.path().join("scm1/ozone-hadoop-scm-scm1.log"), SCM_FILE);
    let out = oztrace(&["events", "--all", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let events = jsonl(&out);
    let audit: Vec<&Value> = events
        .iter()
        .filter(|e| e["component"] == "om-audit")
        .collect();
    assert_eq!(audit.len(), 1, "one event for the Transaction: {audit:?}");
    assert_eq!(audit[0]["host"], "om1", "the earliest copy names the event");
    let copies: Vec<&str> = audit[0]["copies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["host"].as_str().unwrap())
        .collect();
    assert_eq!(copies, ["om1", "om2"]);
    assert_eq!(by_file(&events, "scm1/ozone-hadoop-scm-scm1.log").len(), 2);
}

/// Copies inside an archive (read in archive order, not side by side) fold as well; a copy written
/// past the copy window (`--skew` + 10 s) is an event of its own; each file keeps its order.
#[test]
fn om_audit_copies_fold_inside_archives_within_the_copy_window() {
    let dir = tempfile::tempdir().unwrap();
    let line = |time: &str, tx: u32| {
        format!(
            "2025-11-03 {time} | INFO  | OMAudit | user=hbase | ip=10.20.0.11 | op=COMMIT_KEY {{\"volume\":\"hbase\",\"bucket\":\"wal\",\"key\":\"WALs/rs1/f\",\"dataSize\":\"9\",\"Transaction\":\"{tx}\"}} | ret=SUCCESS |  \n"
        )
    };
    let om1 = line("10:41:12,118", 7) + &line("10:45:00,000", 8);
    // om2 applies transaction 8 half a minute later: past the window, not folded.
    let om2 = line("10:41:12,201", 7) + &line("10:45:30,000", 8);
    let mut tar = tar::Builder::new(Vec::new());
    for (path, text) in [
        ("om1/om-audit-om1.log", &om1),
        ("om2/om-audit-om2.log", &om2),
    ] {
        let mut header = tar::Header::new_gnu();
        header.set_size(text.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, path, text.as_bytes()).unwrap();
    }
    std::fs::write(dir.path().join("bundle.tar"), tar.into_inner().unwrap()).unwrap();
    for sort in ["input", "time"] {
        let out = oztrace(&["events", "--sort", sort, dir.path().to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0));
        let events = jsonl(&out);
        let seen: Vec<(String, u64, usize)> = events
            .iter()
            .map(|e| {
                let host = e["host"].as_str().unwrap().to_string();
                let copies = e["copies"].as_array().map_or(0, Vec::len);
                (host, e["line"].as_u64().unwrap(), copies)
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("om1".to_string(), 1, 2),
                ("om1".to_string(), 2, 0),
                ("om2".to_string(), 2, 0)
            ],
            "--sort {sort}"
        );
    }
}

#[test]
fn scan_timings_go_to_stderr_and_change_nothing_else() {
    let sample =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/HDDS-17400-bug-stale-open-replica");
    let sample = sample.to_str().unwrap();
    let plain = oztrace(&["scan", "--format", "json", sample]);
    let timed = oztrace(&["scan", "--format", "json", "--timings", sample]);
    assert_eq!(timed.status.code(), plain.status.code());
    assert_eq!(
        timed.stdout, plain.stdout,
        "--timings changes only standard error"
    );
    let stderr = String::from_utf8(timed.stderr).unwrap();
    let line = stderr
        .lines()
        .find(|l| l.starts_with(&format!("oztrace: timings for {sample}: read ")))
        .unwrap_or_else(|| panic!("no timings line in {stderr:?}"));
    let merged: usize = line
        .split("merged ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no event count in {line:?}"));
    assert!(merged > 0, "the sample's events are merged: {line}");
    assert!(line.contains("M events/s on "), "{line}");
    assert!(!String::from_utf8(plain.stderr).unwrap().contains("timings"));
}
