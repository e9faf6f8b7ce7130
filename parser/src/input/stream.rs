//! Reading one stream (a file, an archive member or stdin): compression is sniffed from the magic
//! bytes, and a stream whose name or first block says tar is read member by member.

use super::config::{ConfScopes, scope_of};
use super::names::{NameKind, classify};
use super::{Compression, ConfigFile, ConfigKind, InputFile, Log4jConf, StreamSink, Unreadable};
use crate::source::{hint_from_path, rotation_key};
use std::io::{self, BufReader, Read};
use std::sync::Arc;

/// Configuration files are read whole; nothing Ozone ships comes near this.
const MAX_CONFIG_BYTES: u64 = 4 << 20;
/// Archives inside archives are followed this deep (a bundle of per-host tarballs is depth 1).
const MAX_ARCHIVE_DEPTH: usize = 4;
const READ_BUFFER_BYTES: usize = 64 * 1024;
const TAR_BLOCK: usize = 512;

/// Where a stream comes from and how to name what is inside it.
#[derive(Debug, Clone)]
pub(crate) struct Origin {
    /// The contract's `file` path of this stream.
    pub display: String,
    /// The path [`hint_from_path`] reads host and component from: the display path behind the
    /// argument as typed, so that `bundle/scm1` contributes its folder names.
    pub hint_path: String,
    /// What member paths are prefixed with should the stream be an archive: `""` for an archive
    /// argument, `<display>!/` for an archive found in a directory or in another archive.
    pub member_display_prefix: String,
    pub member_hint_prefix: String,
    pub log4j: Option<Arc<Log4jConf>>,
    pub size: Option<u64>,
    pub depth: usize,
}

impl Origin {
    fn unreadable(&self, sink: &mut dyn StreamSink, reason: String) {
        sink.unreadable(Unreadable {
            path: self.display.clone(),
            reason,
        });
    }

    fn file_name(&self) -> &str {
        self.display.rsplit('/').next().unwrap_or(&self.display)
    }
}

/// Decodes `raw` and hands it to the sink as a log stream, or reads it as a tar archive.
pub(crate) fn read_stream(raw: Box<dyn Read + '_>, origin: &Origin, sink: &mut dyn StreamSink) {
    let (magic, raw) = match peek(raw, 4) {
        Ok(peeked) => peeked,
        Err(e) => return origin.unreadable(sink, format!("read failed: {e}")),
    };
    let compression = Compression::from_magic(&magic);
    if let Some(named) = Compression::from_name(origin.file_name())
        && compression == Compression::None
        && !magic.is_empty()
    {
        let codec = named.as_str();
        return origin.unreadable(
            sink,
            format!("named as {codec} but does not start with the {codec} magic bytes"),
        );
    }
    let decoded: Box<dyn Read + '_> = match compression {
        Compression::None => raw,
        Compression::Gzip => {
            // log4j rolls can leave several gzip members in one file; read them all.
            Box::new(Decoding {
                inner: flate2::read::MultiGzDecoder::new(raw),
                codec: "gzip",
            })
        }
        Compression::Zstd => match zstd::stream::read::Decoder::new(raw) {
            Ok(decoder) => Box::new(Decoding {
                inner: decoder,
                codec: "zstd",
            }),
            Err(e) => return origin.unreadable(sink, format!("zstd decoder: {e}")),
        },
    };
    let (head, decoded) = match peek(decoded, TAR_BLOCK) {
        Ok(peeked) => peeked,
        Err(e) => return origin.unreadable(sink, e.to_string()),
    };
    if classify(origin.file_name()) == NameKind::Archive || is_tar_header(&head) {
        return read_archive(decoded, origin, sink);
    }
    // `EXPECTED.json`, tool configs: a `.json` file is a log only when it holds log records.
    if crate::source::strip_suffix_ignore_case(
        crate::source::strip_compression_ext(origin.file_name()),
        ".json",
    )
    .is_some()
        && !crate::json::may_hold_records(&head)
    {
        return sink.skipped(origin.display.clone());
    }
    let file = InputFile {
        display: origin.display.clone(),
        hint: hint_from_path(&origin.hint_path),
        rotation: rotation_key(&origin.display),
        log4j: origin.log4j.clone(),
        size: origin.size,
        compression,
    };
    let mut reader = BufReader::with_capacity(READ_BUFFER_BYTES, decoded);
    if let Err(e) = sink.log(&file, &mut reader) {
        origin.unreadable(sink, e.to_string());
    }
}

/// Reads a tar archive in one pass. A `log4j.properties` member applies to the members after it
/// in its scope (the folder holding its `conf/`), on top of what `origin.log4j` says: a single
/// pass cannot apply it to members that came before.
fn read_archive(reader: Box<dyn Read + '_>, origin: &Origin, sink: &mut dyn StreamSink) {
    if origin.depth >= MAX_ARCHIVE_DEPTH {
        return origin.unreadable(
            sink,
            format!("archive nested more than {MAX_ARCHIVE_DEPTH} deep, not read"),
        );
    }
    let mut archive = tar::Archive::new(reader);
    let entries = match archive.entries() {
        Ok(entries) => entries,
        Err(e) => return origin.unreadable(sink, format!("not a readable tar archive: {e}")),
    };
    let mut scopes = ConfScopes::new(origin.log4j.clone());
    let mut last_member: Option<String> = None;
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let reason = match &last_member {
                    Some(member) => format!("tar archive unreadable after member {member}: {e}"),
                    None => format!("not a readable tar archive: {e}"),
                };
                return origin.unreadable(sink, reason);
            }
        };
        let entry_type = entry.header().entry_type();
        // Folders, and pax global headers (`git archive` writes one) that carry no file.
        if entry_type.is_dir() || entry_type.is_pax_global_extensions() {
            continue;
        }
        let member = member_path(&entry);
        let display = format!("{}{member}", origin.member_display_prefix);
        last_member = Some(member.clone());
        if !(entry_type.is_file() || entry_type.is_contiguous()) {
            // Links, devices, sparse files: no log stream of their own.
            sink.skipped(display);
            continue;
        }
        let size = entry.size();
        let name = member.rsplit('/').next().unwrap_or(&member);
        let hint_path = format!("{}{member}", origin.member_hint_prefix);
        let reader = ExactLength {
            inner: entry,
            remaining: size,
            total: size,
        };
        match classify(name) {
            NameKind::Log | NameKind::Archive => {
                let inner = Origin {
                    member_display_prefix: format!("{display}!/"),
                    member_hint_prefix: format!("{hint_path}!/"),
                    display,
                    hint_path,
                    log4j: scopes.for_path(&member),
                    size: Some(size),
                    depth: origin.depth + 1,
                };
                read_stream(Box::new(reader), &inner, sink);
            }
            NameKind::Config(kind) => match read_config(reader) {
                Ok(text) => {
                    let config = ConfigFile::parse(display, &hint_path, kind, &text);
                    if kind == ConfigKind::Log4jProperties {
                        scopes.add(
                            scope_of(&member),
                            Log4jConf::from_properties(&config.properties),
                        );
                    }
                    sink.config(config);
                }
                Err(e) => sink.unreadable(Unreadable {
                    path: display,
                    reason: e.to_string(),
                }),
            },
            NameKind::Other => sink.skipped(display),
        }
    }
}

/// The member's path, `/`-separated, without a leading `./` or `/`.
fn member_path<R: Read>(entry: &tar::Entry<'_, R>) -> String {
    let raw = match entry.path() {
        Ok(path) => path.to_string_lossy().into_owned(),
        Err(_) => String::from_utf8_lossy(&entry.path_bytes()).into_owned(),
    };
    let mut path = raw.as_str();
    loop {
        if let Some(rest) = path.strip_prefix("./") {
            path = rest;
        } else if let Some(rest) = path.strip_prefix('/') {
            path = rest;
        } else {
            return path.to_string();
        }
    }
}

/// Reads a configuration file whole, refusing one larger than [`MAX_CONFIG_BYTES`].
pub(crate) fn read_config(reader: impl Read) -> io::Result<String> {
    let mut bytes = Vec::new();
    reader.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(io::Error::other(format!(
            "configuration file larger than {} MiB, not read",
            MAX_CONFIG_BYTES >> 20
        )));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Reads up to `n` bytes and returns them with a reader that yields them again, then the rest.
fn peek<'a>(mut reader: Box<dyn Read + 'a>, n: usize) -> io::Result<(Vec<u8>, Box<dyn Read + 'a>)> {
    let mut head = Vec::with_capacity(n);
    (&mut reader).take(n as u64).read_to_end(&mut head)?;
    let replay = io::Cursor::new(head.clone());
    Ok((head, Box::new(replay.chain(reader))))
}

/// A POSIX or GNU tar header: `ustar` magic at offset 257 and a matching checksum.
fn is_tar_header(block: &[u8]) -> bool {
    let (Some(magic), Some(checksum_field)) = (block.get(257..262), block.get(148..156)) else {
        return false;
    };
    if magic != b"ustar" || block.len() < TAR_BLOCK {
        return false;
    }
    let digits: String = checksum_field
        .iter()
        .map(|&b| b as char)
        .filter(|c| !matches!(c, '\0' | ' '))
        .collect();
    let Ok(recorded) = u32::from_str_radix(&digits, 8) else {
        return false;
    };
    let sum: u32 = block
        .iter()
        .take(TAR_BLOCK)
        .enumerate()
        .map(|(i, &b)| {
            if (148..156).contains(&i) {
                u32::from(b' ')
            } else {
                u32::from(b)
            }
        })
        .sum();
    sum == recorded
}

/// Names decoder errors, so that an unreadable stream says why: "corrupt or truncated gzip data: …".
struct Decoding<R> {
    inner: R,
    codec: &'static str,
}

impl<R: Read> Read for Decoding<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("corrupt or truncated {} data: {e}", self.codec),
            )
        })
    }
}

/// A tar member ends silently where a truncated archive ends; this turns that into an error.
struct ExactLength<R> {
    inner: R,
    remaining: u64,
    total: u64,
}

impl<R: Read> Read for ExactLength<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() && self.remaining > 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "archive member truncated after {} of {} bytes",
                    self.total - self.remaining,
                    self.total
                ),
            ));
        }
        self.remaining = self.remaining.saturating_sub(n as u64);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tar_header_detection() {
        let mut header = tar::Header::new_gnu();
        header.set_path("x.log").expect("path");
        header.set_size(0);
        header.set_cksum();
        assert!(is_tar_header(header.as_bytes()));
        let mut corrupt = header.as_bytes().to_vec();
        corrupt[0] ^= 1;
        assert!(!is_tar_header(&corrupt));
        assert!(!is_tar_header(b"2026-08-20 10:00:00,000 [main] INFO x: y"));
    }

    #[test]
    fn truncated_member_is_an_error() {
        let mut reader = ExactLength {
            inner: &b"abc"[..],
            remaining: 5,
            total: 5,
        };
        let mut out = Vec::new();
        let err = reader.read_to_end(&mut out).expect_err("truncated");
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        assert_eq!(out, b"abc");
        assert!(err.to_string().contains("3 of 5 bytes"), "{err}");
    }
}
