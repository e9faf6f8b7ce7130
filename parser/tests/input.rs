//! The input layer against bundles built in temporary directories: directory walks, compressed
//! files, tarballs, corrupt inputs, rotation order and configuration files.

use flate2::write::GzEncoder;
use oztrace_parser::input::{
    Compression, ConfigFile, ConfigKind, Discovery, InputFile, StreamSink, Unreadable, discover,
};
use oztrace_parser::source::Component;
use std::cmp::Reverse;
use std::fs;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// Records everything the input layer hands over.
#[derive(Default)]
struct Collect {
    logs: Vec<(InputFile, String)>,
    configs: Vec<ConfigFile>,
    unreadable: Vec<Unreadable>,
    skipped: Vec<String>,
}

impl StreamSink for Collect {
    fn log(&mut self, file: &InputFile, reader: &mut dyn BufRead) -> io::Result<()> {
        let mut text = String::new();
        reader.read_to_string(&mut text)?;
        self.logs.push((file.clone(), text));
        Ok(())
    }
    fn config(&mut self, config: ConfigFile) {
        self.configs.push(config);
    }
    fn unreadable(&mut self, item: Unreadable) {
        self.unreadable.push(item);
    }
    fn skipped(&mut self, display: String) {
        self.skipped.push(display);
    }
}

impl Collect {
    fn displays(&self) -> Vec<&str> {
        self.logs.iter().map(|(f, _)| f.display.as_str()).collect()
    }
    fn text(&self, display: &str) -> &str {
        self.log(display).1.as_str()
    }
    fn log(&self, display: &str) -> &(InputFile, String) {
        self.logs
            .iter()
            .find(|(f, _)| f.display == display)
            .unwrap_or_else(|| panic!("no stream {display} in {:?}", self.displays()))
    }
}

fn read_all(paths: &[PathBuf]) -> (Discovery, Collect) {
    let discovery = discover(paths);
    let mut sink = Collect::default();
    for unit in &discovery.units {
        unit.read(&mut sink);
    }
    (discovery, sink)
}

/// A main-log line in the shipped RFA layout `%d{ISO8601} [%t] %p %c: %m%n`; the message is
/// SCMContext's `Update SafeModeStatus from {} to {}.` (hadoop-hdds/server-scm, HEAD 2026-08).
fn scm_line(minute: u32) -> String {
    format!(
        "2026-08-20 14:{minute:02}:10,331 [main] INFO org.apache.hadoop.hdds.scm.ha.SCMContext: \
         Update SafeModeStatus from INITIAL to PRE_CHECKS_PASSED.\n"
    )
}

/// An SCM audit line, `%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n` with
/// AuditMessage.formMessage's body (2.1.0+ JSON params).
fn audit_line(second: u32) -> String {
    format!(
        "2026-08-20 14:02:{second:02},331 | INFO  | SCMAudit | user=hadoop | ip=10.0.0.21 | \
         op=DECOMMISSION_NODES {{\"nodes\":\"[dn3.example.com]\",\"force\":\"false\"}} | ret=SUCCESS |  \n"
    )
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).expect("gzip");
    encoder.finish().expect("gzip")
}

fn zst(data: &[u8]) -> Vec<u8> {
    zstd::encode_all(data, 3).expect("zstd")
}

/// A tar with the member names written as given (`./x` stays `./x`, as `tar czf b.tgz .` writes).
/// A name ending in `/` is a directory entry.
fn tar(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, data) in members {
        let mut header = tar::Header::new_ustar();
        let field = &mut header.as_old_mut().name;
        field[..name.len()].copy_from_slice(name.as_bytes());
        header.set_entry_type(if name.ends_with('/') {
            tar::EntryType::Directory
        } else {
            tar::EntryType::Regular
        });
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append(&header, *data).expect("tar member");
    }
    builder.into_inner().expect("tar")
}

fn write(root: &Path, relative: &str, data: &[u8]) -> PathBuf {
    let path = root.join(relative);
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(&path, data).expect("write");
    path
}

#[test]
fn directory_walk_names_files_relative_to_the_argument() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "scm1/ozone-hadoop-scm-scm1.log",
        scm_line(1).as_bytes(),
    );
    write(
        root,
        "scm1/ozone-hadoop-scm-scm1.out",
        scm_line(2).as_bytes(),
    );
    write(root, "scm1/scm-audit-scm1.log", audit_line(3).as_bytes());
    write(
        root,
        "flat/ozone-hadoop-datanode-dn-2.example.com.log",
        scm_line(4).as_bytes(),
    );
    write(root, "scm1/lib/ratis-server.jar", b"PK\x03\x04");
    write(root, "scm1/ozone-hadoop-scm-scm1.log.crc", b"\x00\x01");
    write(root, "README", b"collected by support");
    let single = write(root, "elsewhere/typed.log", scm_line(5).as_bytes());

    let (discovery, sink) = read_all(&[root.join("scm1"), root.join("flat"), single.clone()]);
    let typed = single.to_string_lossy().into_owned();
    assert_eq!(
        sink.displays(),
        [
            "ozone-hadoop-scm-scm1.log",
            "ozone-hadoop-scm-scm1.out",
            "scm-audit-scm1.log",
            "ozone-hadoop-datanode-dn-2.example.com.log",
            typed.as_str(),
        ]
    );
    assert_eq!(sink.text("scm-audit-scm1.log"), audit_line(3));
    assert_eq!(sink.text(&typed), scm_line(5));
    assert_eq!(
        discovery.skipped,
        ["lib/ratis-server.jar", "ozone-hadoop-scm-scm1.log.crc"]
    );
    assert!(discovery.unreadable.is_empty() && sink.unreadable.is_empty());

    // The folder named in the argument still counts for the host: `scm1` has no host in `…-scm.log`.
    let (file, _) = sink.log("scm-audit-scm1.log");
    assert_eq!(
        (file.hint.host.as_deref(), file.hint.component),
        (Some("scm1"), Some(Component::ScmAudit))
    );
    let (file, _) = sink.log("ozone-hadoop-datanode-dn-2.example.com.log");
    assert_eq!(file.hint.host.as_deref(), Some("dn-2.example.com"));
    assert_eq!(file.size, Some(scm_line(4).len() as u64));
    assert_eq!(file.compression, Compression::None);

    // A parent directory argument names files below it with their folders.
    let (_, sink) = read_all(&[root.to_path_buf()]);
    assert!(
        sink.displays().contains(&"scm1/scm-audit-scm1.log"),
        "{:?}",
        sink.displays()
    );
    assert!(sink.displays().contains(&"elsewhere/typed.log"));
}

#[test]
fn gzip_and_zstd_are_detected_by_magic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "om1/ozone-hadoop-om-om1.log.1.gz",
        &gz(scm_line(1).as_bytes()),
    );
    write(
        root,
        "om1/ozone-hadoop-om-om1.log.2.zst",
        &zst(scm_line(2).as_bytes()),
    );
    // Compressed without saying so in the name.
    write(
        root,
        "om1/ozone-hadoop-om-om1.log",
        &gz(scm_line(3).as_bytes()),
    );
    // A log4j roll that appended a second gzip member to the file.
    let mut concatenated = gz(scm_line(4).as_bytes());
    concatenated.extend(gz(scm_line(5).as_bytes()));
    write(root, "om1/ozone-hadoop-om-om1.log-3.gz", &concatenated);
    write(root, "om1/empty.log.gz", b"");

    let (_, sink) = read_all(&[root.to_path_buf()]);
    assert!(sink.unreadable.is_empty(), "{:?}", sink.unreadable);
    assert_eq!(sink.text("om1/ozone-hadoop-om-om1.log.1.gz"), scm_line(1));
    assert_eq!(sink.text("om1/ozone-hadoop-om-om1.log.2.zst"), scm_line(2));
    assert_eq!(sink.text("om1/ozone-hadoop-om-om1.log"), scm_line(3));
    assert_eq!(
        sink.text("om1/ozone-hadoop-om-om1.log-3.gz"),
        scm_line(4) + &scm_line(5)
    );
    assert_eq!(sink.text("om1/empty.log.gz"), "");
    let compression = |d| sink.log(d).0.compression;
    assert_eq!(
        compression("om1/ozone-hadoop-om-om1.log.1.gz"),
        Compression::Gzip
    );
    assert_eq!(
        compression("om1/ozone-hadoop-om-om1.log.2.zst"),
        Compression::Zstd
    );
    assert_eq!(
        compression("om1/ozone-hadoop-om-om1.log"),
        Compression::Gzip
    );
}

#[test]
fn archive_argument_members_are_named_without_dot_slash() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scm = scm_line(1);
    let audit_gz = gz(audit_line(2).as_bytes());
    let members: &[(&str, &[u8])] = &[
        ("./", b""),
        ("./scm1/", b""),
        ("./scm1/ozone-hadoop-scm-scm1.log", scm.as_bytes()),
        ("./scm1/scm-audit-scm1-2026-08-19-1.log.gz", &audit_gz),
        ("./scm1/bin/ozone", b"#!/bin/sh"),
    ];
    let tarball = tar(members);
    let tgz = write(dir.path(), "bundle.tar.gz", &gz(&tarball));
    let tzst = write(dir.path(), "bundle.tar.zst", &zst(&tarball));
    let plain = write(dir.path(), "bundle.tar", &tarball);
    // A tarball whose name does not say so is still read as one.
    let renamed = write(dir.path(), "bundle.bin", &gz(&tarball));

    for archive in [tgz, tzst, plain, renamed] {
        let (discovery, sink) = read_all(std::slice::from_ref(&archive));
        assert_eq!(discovery.units.len(), 1);
        assert_eq!(
            sink.displays(),
            [
                "scm1/ozone-hadoop-scm-scm1.log",
                "scm1/scm-audit-scm1-2026-08-19-1.log.gz"
            ],
            "{archive:?}"
        );
        assert_eq!(sink.text("scm1/ozone-hadoop-scm-scm1.log"), scm);
        assert_eq!(
            sink.text("scm1/scm-audit-scm1-2026-08-19-1.log.gz"),
            audit_line(2)
        );
        let (member, _) = sink.log("scm1/scm-audit-scm1-2026-08-19-1.log.gz");
        assert_eq!(member.compression, Compression::Gzip);
        assert_eq!(member.size, Some(audit_gz.len() as u64));
        assert_eq!(member.hint.host.as_deref(), Some("scm1"));
        assert_eq!(sink.skipped, ["scm1/bin/ozone"]);
        assert!(sink.unreadable.is_empty(), "{:?}", sink.unreadable);
    }
}

#[test]
fn archive_inside_a_directory_is_prefixed_with_its_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let inner = tar(&[("ozone-hadoop-datanode.log", scm_line(1).as_bytes())]);
    let outer = tar(&[
        ("logs/dn-container-dn4.log", scm_line(2).as_bytes()),
        ("nested/dn5.tgz", &gz(&inner)),
    ]);
    write(root, "a/dn3.tgz", &gz(&inner));
    write(root, "a/more.tar", &outer);

    let (_, sink) = read_all(&[root.to_path_buf()]);
    assert_eq!(
        sink.displays(),
        [
            "a/dn3.tgz!/ozone-hadoop-datanode.log",
            "a/more.tar!/logs/dn-container-dn4.log",
            "a/more.tar!/nested/dn5.tgz!/ozone-hadoop-datanode.log"
        ]
    );
    assert_eq!(
        sink.text("a/dn3.tgz!/ozone-hadoop-datanode.log"),
        scm_line(1)
    );
    // The archive's name stands for a folder: `dn3.tgz` is host dn3's bundle.
    let (file, _) = sink.log("a/dn3.tgz!/ozone-hadoop-datanode.log");
    assert_eq!(
        (file.hint.host.as_deref(), file.hint.component),
        (Some("dn3"), Some(Component::Datanode))
    );
    let (file, _) = sink.log("a/more.tar!/nested/dn5.tgz!/ozone-hadoop-datanode.log");
    assert_eq!(file.hint.host.as_deref(), Some("dn5"));
}

#[test]
fn corrupt_and_truncated_gzip_beside_good_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let long: String = (0..2000).map(|i| scm_line(i % 60)).collect();
    let compressed = gz(long.as_bytes());
    write(root, "dn1/a-good.log", scm_line(1).as_bytes());
    write(
        root,
        "dn1/b-truncated.log.gz",
        &compressed[..compressed.len() / 2],
    );
    let mut corrupt = compressed.clone();
    for byte in corrupt.iter_mut().skip(20).take(40) {
        *byte ^= 0x5a;
    }
    write(root, "dn1/c-corrupt.log.gz", &corrupt);
    write(root, "dn1/d-zeroed.log.gz", &[0u8; 4096]);
    write(root, "dn1/e-good.log.gz", &gz(scm_line(2).as_bytes()));
    write(root, "dn1/f-truncated.log.zst", &zst(long.as_bytes())[..64]);

    let (discovery, sink) = read_all(&[root.to_path_buf()]);
    assert_eq!(discovery.units.len(), 6);
    assert_eq!(sink.text("dn1/a-good.log"), scm_line(1));
    assert_eq!(sink.text("dn1/e-good.log.gz"), scm_line(2));
    let bad: Vec<&str> = sink.unreadable.iter().map(|u| u.path.as_str()).collect();
    assert_eq!(
        bad,
        [
            "dn1/b-truncated.log.gz",
            "dn1/c-corrupt.log.gz",
            "dn1/d-zeroed.log.gz",
            "dn1/f-truncated.log.zst"
        ]
    );
    for item in &sink.unreadable {
        assert!(!item.reason.is_empty());
    }
    assert!(
        sink.unreadable[0].reason.contains("gzip"),
        "{:?}",
        sink.unreadable[0]
    );
    assert!(
        sink.unreadable[2].reason.contains("magic"),
        "{:?}",
        sink.unreadable[2]
    );
    assert!(
        sink.unreadable[3].reason.contains("zstd"),
        "{:?}",
        sink.unreadable[3]
    );
    // Failed streams are not delivered as if complete.
    assert_eq!(sink.displays(), ["dn1/a-good.log", "dn1/e-good.log.gz"]);
    assert_eq!(
        serde_json::to_value(&sink.unreadable[0]).expect("json")["path"],
        serde_json::json!("dn1/b-truncated.log.gz")
    );
}

#[test]
fn truncated_and_corrupt_tarballs_keep_the_members_before_the_damage() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    // Enough distinct text that half the gzip stream ends inside the second member.
    let long: String = (0..4000)
        .map(|i| format!("{i:08x} {}", scm_line(i % 60)))
        .collect();
    let first = scm_line(1);
    let tarball = tar(&[
        ("first.log", first.as_bytes()),
        ("second.log", long.as_bytes()),
    ]);
    let compressed = gz(&tarball);
    write(root, "cut.tar.gz", &compressed[..compressed.len() / 2]);
    let plain_cut = &tarball[..512 + 512 + 512 + 1000];
    write(root, "cut.tar", plain_cut);
    let mut bad_header = tarball.clone();
    bad_header[1024 + 10] ^= 0x01; // second member's header (first.log's data fits one block)
    write(root, "badheader.tar", &bad_header);

    for archive in ["cut.tar.gz", "cut.tar", "badheader.tar"] {
        let (_, sink) = read_all(&[root.join(archive)]);
        assert_eq!(sink.text("first.log"), first, "{archive}");
        assert!(
            !sink.displays().contains(&"second.log"),
            "{archive}: a damaged member is not delivered"
        );
        assert!(!sink.unreadable.is_empty(), "{archive}");
    }
    let (_, sink) = read_all(&[root.join("cut.tar")]);
    assert_eq!(sink.unreadable[0].path, "second.log");
    assert!(
        sink.unreadable[0].reason.contains("truncated"),
        "{:?}",
        sink.unreadable
    );
    let (_, sink) = read_all(&[root.join("badheader.tar")]);
    let typed = root.join("badheader.tar").to_string_lossy().into_owned();
    assert_eq!(sink.unreadable.len(), 1);
    assert_eq!(sink.unreadable[0].path, typed);
    assert!(
        sink.unreadable[0].reason.contains("after member first.log"),
        "{:?}",
        sink.unreadable
    );
    let (_, sink) = read_all(&[root.join("cut.tar.gz")]);
    assert!(
        sink.unreadable
            .iter()
            .any(|u| u.path == "second.log" && u.reason.contains("gzip")),
        "{:?}",
        sink.unreadable
    );
}

#[test]
fn rotated_files_sort_oldest_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let main = "scm1/ozone-hadoop-scm-scm1.log";
    let audit = "scm1/scm-audit-scm1";
    write(root, &format!("{main}.2.gz"), &gz(scm_line(1).as_bytes()));
    write(root, &format!("{main}.1"), scm_line(2).as_bytes());
    write(root, main, scm_line(3).as_bytes());
    write(
        root,
        &format!("{audit}-2026-08-20-1.log.gz"),
        &gz(audit_line(2).as_bytes()),
    );
    write(root, &format!("{audit}.log"), audit_line(3).as_bytes());
    write(
        root,
        &format!("{audit}-2026-08-19-1.log.gz"),
        &gz(audit_line(1).as_bytes()),
    );

    let (_, sink) = read_all(&[root.to_path_buf()]);
    let mut files: Vec<&InputFile> = sink.logs.iter().map(|(f, _)| f).collect();
    files.sort_by_key(|f| (f.rotation.stream.clone(), Reverse(f.rotation.age)));
    let order: Vec<&str> = files.iter().map(|f| f.display.as_str()).collect();
    assert_eq!(
        order,
        [
            "scm1/ozone-hadoop-scm-scm1.log.2.gz",
            "scm1/ozone-hadoop-scm-scm1.log.1",
            "scm1/ozone-hadoop-scm-scm1.log",
            "scm1/scm-audit-scm1-2026-08-19-1.log.gz",
            "scm1/scm-audit-scm1-2026-08-20-1.log.gz",
            "scm1/scm-audit-scm1.log",
        ]
    );
    assert_eq!(files[0].rotation.stream, main);
    assert_eq!(files[3].rotation.stream, "scm1/scm-audit-scm1.log");
    for file in &files[3..] {
        assert_eq!(file.hint.host.as_deref(), Some("scm1"));
        assert_eq!(file.hint.component, Some(Component::ScmAudit));
    }
}

/// hadoop-ozone/dist/src/shell/conf/log4j.properties with a vendor-style file layout.
const HOST_LOG4J: &str = "hadoop.root.logger=INFO,console\n\
    log4j.rootLogger=${hadoop.root.logger}\n\
    log4j.appender.RFA=org.apache.log4j.rolling.RollingFileAppender\n\
    log4j.appender.RFA.layout.ConversionPattern=%d{ISO8601} %p %c: %m%n\n\
    log4j.appender.console=org.apache.log4j.ConsoleAppender\n\
    log4j.appender.console.layout.ConversionPattern=%d{ISO8601} [%t] %p %c{2}: %m%n\n\
    log4j.logger.org.apache.hadoop.hdds.scm.node.SCMNodeManager=DEBUG\n";
const TOP_LOG4J: &str =
    "log4j.appender.RFA.layout.ConversionPattern=%d{ISO8601} [%t] %p %c: %m%n\n";
/// scm-audit-log4j2.properties (2.1.0+ rolls `-%d{yyyy-MM-dd}-%i.log.gz`).
const SCM_AUDIT_LOG4J2: &str = "appender.rolling.type=RollingFile\n\
    appender.rolling.fileName =${sys:hadoop.log.dir}/scm-audit-${hostName}.log\n\
    appender.rolling.filePattern=${sys:hadoop.log.dir}/scm-audit-${hostName}-%d{yyyy-MM-dd}-%i.log.gz\n\
    appender.rolling.layout.pattern=%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n\n";

#[test]
fn conf_folder_applies_to_its_host() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    // The host's files sort before its conf/ folder: the walk must still apply it.
    write(
        root,
        "scm1/a/ozone-hadoop-scm-scm1.log",
        scm_line(1).as_bytes(),
    );
    write(
        root,
        "scm1/ozone-hadoop-scm-scm1.out",
        scm_line(2).as_bytes(),
    );
    write(root, "scm1/scm-audit-scm1.log", audit_line(3).as_bytes());
    write(root, "scm1/conf/log4j.properties", HOST_LOG4J.as_bytes());
    write(
        root,
        "scm1/conf/scm-audit-log4j2.properties",
        SCM_AUDIT_LOG4J2.as_bytes(),
    );
    write(root, "conf/log4j.properties", TOP_LOG4J.as_bytes());
    write(root, "om1/ozone-hadoop-om-om1.log", scm_line(4).as_bytes());

    let (discovery, sink) = read_all(&[root.to_path_buf()]);
    let pattern = |d| sink.log(d).0.layout_pattern().map(str::to_string);
    assert_eq!(
        pattern("scm1/a/ozone-hadoop-scm-scm1.log").as_deref(),
        Some("%d{ISO8601} %p %c: %m%n")
    );
    assert_eq!(
        pattern("scm1/ozone-hadoop-scm-scm1.out").as_deref(),
        Some("%d{ISO8601} [%t] %p %c{2}: %m%n")
    );
    assert_eq!(
        pattern("scm1/scm-audit-scm1.log").as_deref(),
        Some("%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n")
    );
    // om1 has no conf of its own: the top-level conf/ applies.
    assert_eq!(
        pattern("om1/ozone-hadoop-om-om1.log").as_deref(),
        Some("%d{ISO8601} [%t] %p %c: %m%n")
    );
    let scm_conf = sink
        .log("scm1/a/ozone-hadoop-scm-scm1.log")
        .0
        .log4j
        .clone()
        .expect("conf");
    assert_eq!(
        scm_conf
            .logger_levels
            .get("org.apache.hadoop.hdds.scm.node.SCMNodeManager")
            .map(String::as_str),
        Some("DEBUG")
    );

    let configs: Vec<(&str, Option<&str>)> = discovery
        .configs
        .iter()
        .map(|c| (c.display.as_str(), c.host.as_deref()))
        .collect();
    assert_eq!(
        configs,
        [
            ("conf/log4j.properties", None),
            ("scm1/conf/log4j.properties", Some("scm1")),
            ("scm1/conf/scm-audit-log4j2.properties", Some("scm1")),
        ]
    );
    assert!(
        discovery
            .configs
            .iter()
            .all(|c| c.kind == ConfigKind::Log4jProperties)
    );
}

#[test]
fn conf_inside_an_archive_applies_to_the_members_after_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = scm_line(1);
    let members: &[(&str, &[u8])] = &[
        ("scm1/early.log", log.as_bytes()),
        ("scm1/conf/log4j.properties", HOST_LOG4J.as_bytes()),
        ("scm1/ozone-hadoop-scm-scm1.log", log.as_bytes()),
        ("om1/ozone-hadoop-om-om1.log", log.as_bytes()),
    ];
    let archive = write(dir.path(), "bundle.tgz", &gz(&tar(members)));
    // A log4j.properties named as an argument applies everywhere its host's own does not.
    let global = write(dir.path(), "global/log4j.properties", TOP_LOG4J.as_bytes());

    let (discovery, sink) = read_all(&[archive, global]);
    let pattern = |d| sink.log(d).0.layout_pattern().map(str::to_string);
    assert_eq!(
        pattern("scm1/early.log").as_deref(),
        Some("%d{ISO8601} [%t] %p %c: %m%n")
    );
    assert_eq!(
        pattern("scm1/ozone-hadoop-scm-scm1.log").as_deref(),
        Some("%d{ISO8601} %p %c: %m%n")
    );
    assert_eq!(
        pattern("om1/ozone-hadoop-om-om1.log").as_deref(),
        Some("%d{ISO8601} [%t] %p %c: %m%n")
    );
    assert_eq!(sink.configs.len(), 1);
    assert_eq!(sink.configs[0].display, "scm1/conf/log4j.properties");
    assert_eq!(sink.configs[0].host.as_deref(), Some("scm1"));
    assert_eq!(discovery.configs.len(), 1);
}

#[test]
fn ozone_site_xml_properties() {
    let dir = tempfile::tempdir().expect("tempdir");
    let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<configuration>
  <property>
    <name>ozone.scm.names</name>
    <value>scm1.example.com,scm2.example.com,scm3.example.com</value>
  </property>
  <property>
    <name>ozone.audit.log.debug.cmd.list.omaudit</name>
    <value>ALLOCATE_BLOCK,COMMIT_KEY</value>
    <description>ops audited at DEBUG &amp; hidden at INFO</description>
  </property>
</configuration>
"#;
    write(dir.path(), "om1/conf/ozone-site.xml", xml.as_bytes());
    write(dir.path(), "om1/conf/core-site.xml", xml.as_bytes());
    let (discovery, sink) = read_all(&[dir.path().to_path_buf()]);
    assert!(sink.logs.is_empty());
    assert_eq!(discovery.configs.len(), 1);
    let site = &discovery.configs[0];
    assert_eq!(
        (site.display.as_str(), site.host.as_deref(), site.kind),
        (
            "om1/conf/ozone-site.xml",
            Some("om1"),
            ConfigKind::OzoneSiteXml
        )
    );
    assert_eq!(
        site.properties
            .get("ozone.audit.log.debug.cmd.list.omaudit")
            .map(String::as_str),
        Some("ALLOCATE_BLOCK,COMMIT_KEY")
    );
    assert_eq!(site.properties.len(), 2);
    assert_eq!(discovery.skipped, ["om1/conf/core-site.xml"]);
}

#[cfg(unix)]
#[test]
fn missing_paths_dangling_links_and_loops_do_not_stop_the_rest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "b/ozone-hadoop-om-om1.log", scm_line(1).as_bytes());
    std::os::unix::fs::symlink(root.join("b/missing.log"), root.join("b/dangling.log"))
        .expect("symlink");
    std::os::unix::fs::symlink(root.join("b"), root.join("b/loop")).expect("symlink");
    std::os::unix::fs::symlink(
        root.join("b/ozone-hadoop-om-om1.log"),
        root.join("b/z-again.log"),
    )
    .expect("symlink");
    let locked = write(root, "b/locked.log", scm_line(2).as_bytes());
    fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o000))
        .expect("chmod");
    let can_read_locked = fs::File::open(&locked).is_ok(); // root reads anything

    let missing = root.join("nope");
    let (discovery, sink) = read_all(&[missing.clone(), root.join("b")]);
    assert_eq!(discovery.unreadable[0].path, missing.to_string_lossy());
    assert_eq!(discovery.unreadable[1].path, "dangling.log");
    assert_eq!(discovery.unreadable.len(), 2);
    // The symlinked copy is read once and the loop is not followed.
    assert_eq!(discovery.skipped, ["loop", "z-again.log"]);
    assert!(sink.displays().contains(&"ozone-hadoop-om-om1.log"));
    if !can_read_locked {
        assert_eq!(
            sink.unreadable
                .iter()
                .map(|u| u.path.as_str())
                .collect::<Vec<_>>(),
            ["locked.log"]
        );
    }
}

/// A file is read once however it is reached: named again with another spelling, inside a
/// folder also given, or through a hard link (the same bytes under two names).
#[test]
fn a_file_reached_several_ways_is_read_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let log = write(root, "b/ozone-hadoop-om-om1.log", scm_line(1).as_bytes());
    write(root, "b/ozone-hadoop-om-om2.log", scm_line(2).as_bytes());
    fs::hard_link(&log, root.join("b/z-linked.log")).expect("hard link");
    let respelled = root.join("b/./ozone-hadoop-om-om1.log");
    let discovery = discover(&[log.clone(), respelled, root.join("b")]);
    let units: Vec<&str> = discovery.units.iter().map(|u| u.display()).collect();
    assert_eq!(units, [&*log.to_string_lossy(), "ozone-hadoop-om-om2.log"]);
    assert_eq!(
        discovery.skipped,
        [
            root.join("b/./ozone-hadoop-om-om1.log")
                .to_string_lossy()
                .into_owned(),
            "ozone-hadoop-om-om1.log".to_string(),
            "z-linked.log".to_string(),
        ]
    );
}

#[test]
fn stdin_is_one_unit_however_often_it_is_named() {
    // Only discovered here: reading would consume the test runner's stdin.
    let discovery = discover(&["-".into(), "-".into()]);
    assert_eq!(
        discovery
            .units
            .iter()
            .map(|u| u.display())
            .collect::<Vec<_>>(),
        ["-"]
    );
    assert_eq!(discovery.skipped, ["-"]);
}

#[test]
fn units_can_be_read_on_worker_threads() {
    fn send_and_sync<T: Send + Sync>(_: &T) {}
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "om1/ozone-hadoop-om-om1.log",
        scm_line(1).as_bytes(),
    );
    let discovery = discover(&[dir.path().to_path_buf()]);
    send_and_sync(&discovery.units);
    let texts: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = discovery
            .units
            .iter()
            .map(|unit| {
                scope.spawn(move || {
                    let mut sink = Collect::default();
                    unit.read(&mut sink);
                    sink.logs
                        .into_iter()
                        .map(|(_, text)| text)
                        .collect::<String>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("worker"))
            .collect()
    });
    assert_eq!(texts, [scm_line(1)]);
}
