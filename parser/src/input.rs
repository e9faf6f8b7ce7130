//! The input layer: finds every log stream in the user's arguments and hands each one,
//! decompressed, to a [`StreamSink`]. Inputs are only ever read, never written or extracted.
//!
//! [`discover`] walks the arguments (files, directories, archives, `-` for stdin) into
//! [`InputUnit`]s that can be read in parallel; each unit reads its streams in one pass.

mod config;
mod discover;
mod names;
mod stream;

pub use crate::source::RotationKey;
pub use config::{ConfigFile, Log4jConf, parse_hadoop_xml, parse_properties};
pub use discover::discover;

use crate::source::{Component, SourceHint, rotation_key, strip_suffix_ignore_case};
use serde::Serialize;
use std::io::{self, BufRead, Read, Seek};
use std::path::PathBuf;
use std::sync::Arc;
use stream::{Budget, Magic, Origin, read_stream, read_zip};

/// How a stream was compressed, from its magic bytes (never from its name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Compression {
    None,
    Gzip,
    Zstd,
    Bzip2,
    Xz,
    Lz4,
}

impl Compression {
    pub fn as_str(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Lz4 => "lz4",
        }
    }

    /// RFC 1952 `1f 8b`; zstd frame `28 b5 2f fd`; bzip2 `BZh` and a block size digit; xz
    /// `fd 37 7a 58 5a 00`; LZ4 frame `04 22 4d 18`.
    pub fn from_magic(head: &[u8]) -> Option<Compression> {
        let bzip2 = head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]);
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Compression::Gzip)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Compression::Zstd)
        } else if bzip2 {
            Some(Compression::Bzip2)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
            Some(Compression::Xz)
        } else if head.starts_with(&[0x04, 0x22, 0x4d, 0x18]) {
            Some(Compression::Lz4)
        } else {
            None
        }
    }
}

/// What reading one input may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Decompressed bytes allowed per raw byte read from an input (`--max-expand`), past 64 MiB:
    /// logs compress 10 to 50 times, a decompression bomb a thousand times and more.
    pub max_expand: u64,
}

impl Limits {
    pub const DEFAULT_MAX_EXPAND: u64 = 500;
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_expand: Limits::DEFAULT_MAX_EXPAND,
        }
    }
}

/// One log stream: a plain file, an archive member, or stdin.
#[derive(Debug, Clone)]
pub struct InputFile {
    /// The contract's `file` path, `/`-separated: relative to a directory argument; as typed for a
    /// file argument; the member path without `./` for an archive argument;
    /// `<relative archive path>!/<member>` for an archive inside a directory; `-` for stdin.
    pub display: String,
    /// Host and component from the file name and folders.
    pub hint: SourceHint,
    /// Which rotated stream the file belongs to and its age.
    pub rotation: RotationKey,
    /// The log4j configuration that applies to this host's files, if the input had one.
    pub log4j: Option<Arc<Log4jConf>>,
    /// Size on disk (compressed) or in the archive, when known.
    pub size: Option<u64>,
    /// The stream's own compression; a member of a `.tar.gz` is `None` unless it is itself compressed.
    pub compression: Compression,
}

impl InputFile {
    /// The ConversionPattern the configuration says wrote this file: the audit pattern of its
    /// component for log4j2 audit and container logs, the console pattern for `*.out` (the daemon's
    /// stdout/stderr), the file appender's for `*.log` and for vendor `*.log.out` (written by a
    /// rolling file appender). A hint: the layout must still be confirmed on the content.
    pub fn layout_pattern(&self) -> Option<&str> {
        let conf = self.log4j.as_deref()?;
        if let Some(component) = self.hint.component
            && component.is_audit_like()
        {
            let pattern = conf
                .audit_patterns
                .get(&component)
                .or_else(|| match component {
                    // om-sys-audit shares the OM audit layout (om-audit-log4j2.properties, 2.0.0+).
                    Component::OmSysAudit => conf.audit_patterns.get(&Component::OmAudit),
                    _ => None,
                });
            return pattern.map(String::as_str);
        }
        let stream = self.rotation.stream.as_str();
        let pattern = if strip_suffix_ignore_case(stream, ".log.out").is_some() {
            &conf.file_pattern
        } else if strip_suffix_ignore_case(stream, ".out").is_some() {
            &conf.console_pattern
        } else if strip_suffix_ignore_case(stream, ".log").is_some() {
            &conf.file_pattern
        } else {
            return None;
        };
        pattern.as_deref()
    }
}

/// Something that could not be read: the contract's `inputs.unreadable[]`, serialized as
/// `{"file", "reason"}` (the contract's names) plus `path`, the name it had first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    pub path: String,
    pub reason: String,
}

impl Serialize for Unreadable {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut entry = serializer.serialize_struct("Unreadable", 3)?;
        entry.serialize_field("file", &self.path)?;
        entry.serialize_field("path", &self.path)?;
        entry.serialize_field("reason", &self.reason)?;
        entry.end()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConfigKind {
    /// `log4j.properties`, and the log4j2 `*log4j2.properties` of the audit and container logs.
    Log4jProperties,
    OzoneSiteXml,
}

/// Receives what an [`InputUnit`] finds while it reads.
pub trait StreamSink {
    /// Called once per log stream with a decompressed, buffered reader. Return `Err` when reading
    /// the stream failed (e.g. a truncated gzip found mid-stream): the input layer then records it
    /// as unreadable with that error as the reason. What was read before the error stays the sink's.
    fn log(&mut self, file: &InputFile, reader: &mut dyn BufRead) -> io::Result<()>;
    /// A configuration file found inside an archive (those found in directories or named as
    /// arguments are in [`Discovery::configs`]).
    fn config(&mut self, config: ConfigFile);
    fn unreadable(&mut self, item: Unreadable);
    /// An archive member that is neither a log nor a configuration file.
    fn skipped(&mut self, _display: String) {}
}

/// A unit of parallel work: a plain file, one archive (read member by member in one pass), or
/// stdin. What a file holds is decided when it is read: a stream whose first block is a tar header
/// is read as an archive whatever its name.
#[derive(Debug, Clone)]
pub struct InputUnit {
    source: UnitSource,
    origin: Origin,
    /// The argument it was found under, by its place among the paths given to [`discover`].
    argument: usize,
}

#[derive(Debug, Clone)]
enum UnitSource {
    Path(PathBuf),
    Stdin,
}

impl InputUnit {
    /// The place, among the paths given to [`discover`], of the argument it was found under.
    pub fn argument(&self) -> usize {
        self.argument
    }

    /// Reads every stream of this unit into `sink` within the default [`Limits`].
    pub fn read(&self, sink: &mut dyn StreamSink) {
        self.read_within(sink, &Limits::default());
    }

    /// Reads every stream of this unit into `sink`. Never panics on bad input; failures go to
    /// [`StreamSink::unreadable`] and reading continues with the next stream where it can.
    pub fn read_within(&self, sink: &mut dyn StreamSink, limits: &Limits) {
        let budget = Budget::new(limits);
        match &self.source {
            UnitSource::Path(path) => match std::fs::File::open(path) {
                Ok(mut file) => {
                    if starts_as_zip(&mut file) {
                        // A zip archive on disk is read in place (its directory is at its end).
                        let reader = budget.source(io::BufReader::new(file));
                        read_zip(reader, &self.origin, sink, &budget);
                    } else {
                        let reader = Box::new(budget.source(file));
                        read_stream(reader, &self.origin, sink, &budget);
                    }
                }
                Err(e) => sink.unreadable(Unreadable {
                    path: self.origin.display.clone(),
                    reason: e.to_string(),
                }),
            },
            UnitSource::Stdin => read_stream(
                Box::new(budget.source(io::stdin().lock())),
                &self.origin,
                sink,
                &budget,
            ),
        }
    }

    /// The display path of the file, archive, or `-`.
    pub fn display(&self) -> &str {
        &self.origin.display
    }

    /// Bytes on disk, when known (for progress).
    pub fn size(&self) -> Option<u64> {
        self.origin.size
    }

    /// The log this unit is a file of (its rotations share it), told apart across arguments:
    /// two arguments' `om-audit.log` have one display path (each relative to its argument) but
    /// are two logs.
    pub fn log_key(&self) -> RotationKey {
        rotation_key(&self.origin.hint_path)
    }
}

/// Reads any byte stream as standard input is read (sniffed, decoded, unpacked), naming it
/// `display`; archive members are named as in the archive.
pub fn read_reader(reader: impl Read, display: &str, sink: &mut dyn StreamSink, limits: &Limits) {
    let origin = Origin {
        display: display.to_string(),
        hint_path: display.to_string(),
        member_display_prefix: String::new(),
        member_hint_prefix: String::new(),
        log4j: None,
        size: None,
        depth: 0,
    };
    let budget = Budget::new(limits);
    read_stream(Box::new(budget.source(reader)), &origin, sink, &budget);
}

/// Whether a seekable file starts with a zip header; the file is left at its start.
fn starts_as_zip(file: &mut std::fs::File) -> bool {
    let mut head = [0u8; 4];
    let read = file.read(&mut head).unwrap_or(0);
    file.seek(io::SeekFrom::Start(0)).is_ok() && Magic::of(&head[..read]) == Magic::Zip
}

/// What [`discover`] found in the arguments.
#[derive(Debug, Default)]
pub struct Discovery {
    /// In argument order; a directory's files in sorted walk order.
    pub units: Vec<InputUnit>,
    /// Paths that could not be opened or walked (read-time failures go to the sink).
    pub unreadable: Vec<Unreadable>,
    /// Configuration files named as arguments or found in directories.
    pub configs: Vec<ConfigFile>,
    /// Display paths of files that are neither logs nor configuration, of symlink loops, and of
    /// files reached a second time (through a symlink or a repeated argument).
    pub skipped: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{hint_from_path, rotation_key};
    use std::io::{Cursor, Write};

    #[derive(Default)]
    struct Streams {
        logs: Vec<(String, Compression, String)>,
        unreadable: Vec<Unreadable>,
    }

    impl StreamSink for Streams {
        fn log(&mut self, file: &InputFile, reader: &mut dyn BufRead) -> io::Result<()> {
            let mut text = String::new();
            reader.read_to_string(&mut text)?;
            self.logs
                .push((file.display.clone(), file.compression, text));
            Ok(())
        }
        fn config(&mut self, _config: ConfigFile) {}
        fn unreadable(&mut self, item: Unreadable) {
            self.unreadable.push(item);
        }
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(data).expect("gzip");
        encoder.finish().expect("gzip")
    }

    /// Feeds bytes to the stdin unit's reader, as `zcat … | oztrace scan -` would.
    fn read_as_stdin(bytes: Vec<u8>) -> Streams {
        let discovery = discover(&[PathBuf::from("-")]);
        let unit = discovery.units.first().expect("stdin unit");
        let mut sink = Streams::default();
        read_stream(
            Box::new(Cursor::new(bytes)),
            &unit.origin,
            &mut sink,
            &Budget::new(&Limits::default()),
        );
        sink
    }

    /// Each unit knows the argument it was found under, by place among all the arguments (a
    /// configuration argument counts too), whether a folder's file, a file or an archive.
    #[test]
    fn units_name_the_argument_they_were_found_under() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |relative: &str| {
            let path = dir.path().join(relative);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, "x\n").expect("write");
            path
        };
        let a = write("a/om1/om-audit.log")
            .parent()
            .unwrap()
            .parent()
            .unwrap()
            .to_path_buf();
        write("a/om1/om-audit.log.1");
        let conf = write("log4j.properties");
        let b = write("b/om-audit.log");
        let discovery = discover(&[a.clone(), conf, b, a]);
        let arguments: Vec<(String, usize)> = (discovery.units.iter())
            .map(|u| (u.display().to_string(), u.argument()))
            .collect();
        let b_display = dir.path().join("b/om-audit.log").display().to_string();
        assert_eq!(
            arguments,
            [
                ("om1/om-audit.log".to_string(), 0),
                ("om1/om-audit.log.1".to_string(), 0),
                (b_display, 2),
            ]
        );
    }

    #[test]
    fn stdin_is_sniffed_for_compression_and_tar() {
        let line = "2026-08-20 14:02:10,331 [main] INFO org.apache.hadoop.hdds.scm.ha.SCMContext: \
                    Update SafeModeStatus from INITIAL to PRE_CHECKS_PASSED.\n";
        let sink = read_as_stdin(gzip(line.as_bytes()));
        assert_eq!(
            sink.logs,
            [("-".to_string(), Compression::Gzip, line.to_string())]
        );

        let mut builder = tar::Builder::new(Vec::new());
        let mut header = tar::Header::new_gnu();
        header.set_size(line.len() as u64);
        header.set_cksum();
        builder
            .append_data(
                &mut header,
                "scm1/ozone-hadoop-scm-scm1.log",
                line.as_bytes(),
            )
            .expect("tar");
        let sink = read_as_stdin(gzip(&builder.into_inner().expect("tar")));
        assert_eq!(
            sink.logs,
            [(
                "scm1/ozone-hadoop-scm-scm1.log".to_string(),
                Compression::None,
                line.to_string()
            )]
        );
        assert!(sink.unreadable.is_empty());

        let sink = read_as_stdin(gzip(line.as_bytes())[..20].to_vec());
        assert!(sink.logs.is_empty());
        assert_eq!(sink.unreadable.len(), 1);
        assert_eq!(sink.unreadable[0].path, "-");
    }

    #[test]
    fn layout_pattern_by_file_kind() {
        let audit = "%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n";
        let container = "%d{DEFAULT} | %-5level | %msg | %throwable{3} %n";
        let conf = Arc::new(Log4jConf {
            file_pattern: Some("%d{ISO8601} %p %c: %m%n".into()),
            console_pattern: Some("%d{ISO8601} [%t] %p %c{2}: %m%n".into()),
            audit_patterns: [
                (Component::OmAudit, audit.to_string()),
                (Component::DnContainer, container.to_string()),
            ]
            .into_iter()
            .collect(),
            logger_levels: Default::default(),
        });
        let pattern = |display: &str| {
            let file = InputFile {
                display: display.into(),
                hint: hint_from_path(display),
                rotation: rotation_key(display),
                log4j: Some(conf.clone()),
                size: None,
                compression: Compression::None,
            };
            file.layout_pattern().map(str::to_string)
        };
        assert_eq!(
            pattern("ozone-hadoop-om-om1.log.2.gz").as_deref(),
            conf.file_pattern.as_deref()
        );
        assert_eq!(
            pattern("ozone-hadoop-om-om1.out.1").as_deref(),
            conf.console_pattern.as_deref()
        );
        // Cloudera Manager's `.log.out` is written by its rolling file appender.
        assert_eq!(
            pattern("hadoop-cmf-ozone-OZONE_MANAGER-om1.log.out.2.gz").as_deref(),
            conf.file_pattern.as_deref()
        );
        assert_eq!(
            pattern("om-sys-audit-om1-2026-08-20-1.log.gz").as_deref(),
            Some(audit)
        );
        assert_eq!(pattern("dn-container-dn1.log").as_deref(), Some(container));
        assert_eq!(pattern("scm-audit-scm1.log"), None);
        assert_eq!(pattern("kubectl-logs.txt"), None);
    }
}
