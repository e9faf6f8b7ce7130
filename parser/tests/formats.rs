//! Formats by content, not by name: every compression and archive format oztrace reads, in a
//! directory, as an argument and inside a tarball; text under a misleading name; binary files;
//! and the limits that keep a hostile input from taking unbounded memory.

use oztrace_parser::input::{
    Compression, ConfigFile, InputFile, Limits, StreamSink, Unreadable, discover,
};
use std::fs;
use std::io::{self, BufRead, Cursor, Write};
use std::path::{Path, PathBuf};

#[derive(Default)]
struct Collect {
    logs: Vec<(String, Compression, String)>,
    unreadable: Vec<Unreadable>,
    skipped: Vec<String>,
}

impl StreamSink for Collect {
    fn log(&mut self, file: &InputFile, reader: &mut dyn BufRead) -> io::Result<()> {
        let mut bytes = Vec::new();
        let result = reader.read_to_end(&mut bytes);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        self.logs
            .push((file.display.clone(), file.compression, text));
        result.map(|_| ())
    }
    fn config(&mut self, _config: ConfigFile) {}
    fn unreadable(&mut self, item: Unreadable) {
        self.unreadable.push(item);
    }
    fn skipped(&mut self, display: String) {
        self.skipped.push(display);
    }
}

fn read_within(paths: &[PathBuf], limits: &Limits) -> Collect {
    let discovery = discover(paths);
    let mut sink = Collect {
        unreadable: discovery.unreadable,
        skipped: discovery.skipped,
        ..Collect::default()
    };
    for unit in &discovery.units {
        unit.read_within(&mut sink, limits);
    }
    sink
}

fn read(paths: &[PathBuf]) -> Collect {
    read_within(paths, &Limits::default())
}

const LINE: &str = "2026-08-20 14:02:10,331 [main] INFO org.apache.hadoop.hdds.scm.ha.SCMContext: \
                    Update SafeModeStatus from INITIAL to PRE_CHECKS_PASSED.\n";

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn bz2(data: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut e =
        lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1)).unwrap();
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn lz4(data: &[u8]) -> Vec<u8> {
    let mut e = lz4_flex::frame::FrameEncoder::new(Vec::new());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in members {
        w.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn tar(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, data) in members {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        b.append_data(&mut header, name, *data).unwrap();
    }
    b.into_inner().unwrap()
}

fn write(root: &Path, relative: &str, data: &[u8]) -> PathBuf {
    let path = root.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, data).unwrap();
    path
}

fn sorted_logs(sink: &Collect) -> Vec<(&str, Compression, &str)> {
    let mut logs: Vec<_> = sink
        .logs
        .iter()
        .map(|(d, c, t)| (d.as_str(), *c, t.as_str()))
        .collect();
    logs.sort_by_key(|(display, _, _)| *display);
    logs
}

#[test]
fn every_compression_and_archive_format_is_read_in_folders_and_tarballs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let bytes = LINE.as_bytes();
    write(root, "dn1/ozone-hadoop-datanode-dn1.log.1.bz2", &bz2(bytes));
    write(root, "dn1/ozone-hadoop-datanode-dn1.log.2.xz", &xz(bytes));
    write(root, "dn1/ozone-hadoop-datanode-dn1.log.3.lz4", &lz4(bytes));
    write(
        root,
        "dn2.zip",
        &zip(&[("dn2/ozone-hadoop-datanode-dn2.log", bytes), ("dn2/", b"")]),
    );
    let inner = tar(&[("scm1/ozone-hadoop-scm-scm1.log", bytes)]);
    write(root, "scm1.tar.xz", &xz(&inner));
    write(
        root,
        "scm2.tar.bz2",
        &bz2(&tar(&[("scm2/ozone-hadoop-scm-scm2.log", bytes)])),
    );
    // A zip inside a tarball, and tar inside lz4 with a name that says nothing.
    let zipped = zip(&[("om1/ozone-hadoop-om-om1.log", bytes)]);
    write(root, "om1.tar", &tar(&[("om1.zip", &zipped)]));
    write(
        root,
        "om2.log.lz4",
        &lz4(&tar(&[("om2/ozone-hadoop-om-om2.log", bytes)])),
    );
    let sink = read(&[root.to_path_buf()]);
    assert_eq!(sink.unreadable, []);
    assert_eq!(
        sorted_logs(&sink),
        [
            (
                "dn1/ozone-hadoop-datanode-dn1.log.1.bz2",
                Compression::Bzip2,
                LINE
            ),
            (
                "dn1/ozone-hadoop-datanode-dn1.log.2.xz",
                Compression::Xz,
                LINE
            ),
            (
                "dn1/ozone-hadoop-datanode-dn1.log.3.lz4",
                Compression::Lz4,
                LINE
            ),
            (
                "dn2.zip!/dn2/ozone-hadoop-datanode-dn2.log",
                Compression::None,
                LINE
            ),
            (
                "om1.tar!/om1.zip!/om1/ozone-hadoop-om-om1.log",
                Compression::None,
                LINE
            ),
            (
                "om2.log.lz4!/om2/ozone-hadoop-om-om2.log",
                Compression::None,
                LINE
            ),
            (
                "scm1.tar.xz!/scm1/ozone-hadoop-scm-scm1.log",
                Compression::None,
                LINE
            ),
            (
                "scm2.tar.bz2!/scm2/ozone-hadoop-scm-scm2.log",
                Compression::None,
                LINE
            ),
        ]
    );

    // A zip named as an argument: members without a prefix, read in place.
    let sink = read(&[root.join("dn2.zip")]);
    assert_eq!(
        sorted_logs(&sink),
        [("dn2/ozone-hadoop-datanode-dn2.log", Compression::None, LINE)]
    );
}

#[test]
fn names_do_not_decide_what_a_file_is() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // Text named .gz is text; gzip named .log is gzip; a zip named .log is an archive.
    write(root, "scm1/ozone-hadoop-scm-scm1.log.gz", LINE.as_bytes());
    write(root, "scm2/ozone-hadoop-scm-scm2.log", &gz(LINE.as_bytes()));
    write(
        root,
        "om1/ozone-hadoop-om-om1.log",
        &zip(&[("ozone-hadoop-om-om1.log.1", LINE.as_bytes())]),
    );
    let sink = read(&[root.to_path_buf()]);
    assert_eq!(sink.unreadable, []);
    assert_eq!(
        sorted_logs(&sink),
        [
            (
                "om1/ozone-hadoop-om-om1.log!/ozone-hadoop-om-om1.log.1",
                Compression::None,
                LINE
            ),
            ("scm1/ozone-hadoop-scm-scm1.log.gz", Compression::None, LINE),
            ("scm2/ozone-hadoop-scm-scm2.log", Compression::Gzip, LINE),
        ]
    );
}

#[test]
fn binary_files_and_unknown_containers_are_unreadable_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut random = Vec::new();
    let mut x: u32 = 12345;
    for _ in 0..4096 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        random.push((x >> 16) as u8);
    }
    write(root, "dn1/ozone-hadoop-datanode-dn1.log", &random);
    // 7-Zip: a known magic, but not a format oztrace reads.
    let mut seven = b"7z\xbc\xaf\x27\x1c\x00\x04".to_vec();
    seven.extend_from_slice(&random);
    let elsewhere = tempfile::tempdir().unwrap();
    let seven_path = write(elsewhere.path(), "bundle.7z", &seven);
    write(
        root,
        "dn2/ozone-hadoop-datanode-dn2.log.gz",
        &gz(&[0u8; 100_000]),
    );
    // An archive format oztrace does not read, in a folder: named, not skipped.
    write(root, "old/bundle.rar", b"Rar!\x1a\x07\x00");
    let mut paths = vec![root.to_path_buf(), seven_path];
    paths.sort();
    let sink = read(&paths);
    let mut bad: Vec<(&str, &str)> = sink
        .unreadable
        .iter()
        .map(|u| (u.path.as_str(), u.reason.as_str()))
        .collect();
    bad.sort();
    let names: Vec<&str> = bad.iter().map(|(p, _)| *p).collect();
    let mut expected = vec![
        "dn1/ozone-hadoop-datanode-dn1.log",
        "dn2/ozone-hadoop-datanode-dn2.log.gz",
        "old/bundle.rar",
        seven_display(&paths),
    ];
    expected.sort();
    assert_eq!(names, expected);
    for (path, reason) in &bad {
        let says = if path.ends_with(".rar") {
            "RAR archive: not a format oztrace reads"
        } else {
            "binary content"
        };
        assert!(reason.starts_with(says), "{path}: {reason}");
    }
    assert!(sink.logs.is_empty());
}

fn seven_display(paths: &[PathBuf]) -> &str {
    paths
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "7z"))
        .and_then(|p| p.to_str())
        .unwrap()
}

#[test]
fn a_decompression_bomb_stops_at_the_budget_and_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // 80 MiB of one repeated log line (past the 64 MiB floor), gzip-compressed about 300:1:
    // 80 gzip members of 1 MiB each, as log4j rolls may append them.
    let chunk = LINE.repeat((1 << 20) / LINE.len());
    let text = chunk.repeat(80);
    let path = write(
        root,
        "scm1/ozone-hadoop-scm-scm1.log.gz",
        &gz(chunk.as_bytes()).repeat(80),
    );
    let sink = read_within(std::slice::from_ref(&path), &Limits { max_expand: 100 });
    assert_eq!(sink.unreadable.len(), 1, "{:?}", sink.unreadable);
    let item = &sink.unreadable[0];
    assert_eq!(item.path, path.to_str().unwrap());
    assert!(item.reason.contains("--max-expand 100"), "{}", item.reason);
    assert!(
        item.reason.contains("decompression bomb"),
        "{}",
        item.reason
    );
    // What was read before the stop is kept; the default budget reads it all.
    assert!(sink.logs[0].2.len() > 60 << 20);
    let sink = read(std::slice::from_ref(&path));
    assert_eq!(sink.unreadable, []);
    assert_eq!(sink.logs[0].2.len(), text.len());
}

/// A GNU tar long name entry (type `L`) whose declared size is far beyond any path.
fn tar_with_long_name(name_len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut header = tar::Header::new_gnu();
    header.set_path("././@LongLink").unwrap();
    header.set_entry_type(tar::EntryType::GNULongName);
    header.set_size(name_len as u64);
    header.set_cksum();
    out.extend_from_slice(header.as_bytes());
    out.extend(std::iter::repeat_n(b'a', name_len));
    out.resize(out.len().div_ceil(512) * 512, 0);
    let mut file = tar::Header::new_gnu();
    file.set_path("x.log").unwrap();
    file.set_size(LINE.len() as u64);
    file.set_cksum();
    out.extend_from_slice(file.as_bytes());
    out.extend_from_slice(LINE.as_bytes());
    out.resize(out.len().div_ceil(512) * 512 + 1024, 0);
    out
}

#[test]
fn tar_header_extensions_are_size_limited() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // A real long name is read; a 4 MiB one is refused before it is held in memory.
    let long_member = format!("dn1/{}/ozone-hadoop-datanode-dn1.log", "d".repeat(300));
    let mut builder = tar::Builder::new(Vec::new());
    let mut header = tar::Header::new_gnu();
    header.set_size(LINE.len() as u64);
    builder
        .append_data(&mut header, &long_member, LINE.as_bytes())
        .unwrap();
    let good = write(root, "good.tar", &builder.into_inner().unwrap());
    let bad = write(root, "bad.tar.gz", &gz(&tar_with_long_name(4 << 20)));
    let sink = read(&[good, bad.clone()]);
    assert_eq!(
        sorted_logs(&sink),
        [(long_member.as_str(), Compression::None, LINE)]
    );
    assert_eq!(sink.unreadable.len(), 1);
    assert_eq!(sink.unreadable[0].path, bad.to_str().unwrap());
    assert!(
        sink.unreadable[0].reason.contains("larger than 64 KiB"),
        "{}",
        sink.unreadable[0].reason
    );
}
