//! Reading one stream (a file, an archive member or stdin). What a stream is comes from its
//! content, never its name: compression (gzip, zstd, bzip2, xz, lz4) and containers (tar, zip)
//! by their magic bytes; what is left must look like text to be handed over as a log.

use super::config::{ConfScopes, scope_of};
use super::discover::unread_archive_reason;
use super::names::{NameKind, classify};
use super::{
    Compression, ConfigFile, ConfigKind, InputFile, Limits, Log4jConf, StreamSink, Unreadable,
};
use crate::source::{hint_from_path, rotation_key};
use std::cell::Cell;
use std::io::{self, BufReader, Read, Seek};
use std::rc::Rc;
use std::sync::Arc;

/// Configuration files are read whole; nothing Ozone ships comes near this.
const MAX_CONFIG_BYTES: u64 = 4 << 20;
/// Archives inside archives are followed this deep (a bundle of per-host tarballs is depth 1).
const MAX_ARCHIVE_DEPTH: usize = 4;
const READ_BUFFER_BYTES: usize = 64 * 1024;
const TAR_BLOCK: usize = 512;
/// How much of a stream's start decides whether it is text (as git does: 8000 bytes).
const SNIFF_BYTES: usize = 8000;
/// A tar header extension (GNU long name, pax record) larger than this is refused: real ones
/// hold a path of at most a few KiB, and the tar crate would read any size into memory.
const MAX_TAR_HEADER_BYTES: u64 = 64 * 1024;
/// A zip archive that is not a file on disk (inside a tarball, on stdin) is held in memory to be
/// read (its directory is at its end); larger ones are refused with a reason.
const MAX_SPOOLED_ZIP_BYTES: u64 = 64 << 20;
/// Decompressed bytes always allowed per input, whatever `--max-expand` says: small compressed
/// files of repeated lines legitimately expand far more than big ones.
const EXPAND_FLOOR_BYTES: u64 = 64 << 20;

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

    /// Whether this archive lies deeper than [`MAX_ARCHIVE_DEPTH`] (then it is unreadable).
    fn too_deep(&self, sink: &mut dyn StreamSink) -> bool {
        let deep = self.depth >= MAX_ARCHIVE_DEPTH;
        if deep {
            let reason = format!("archive nested more than {MAX_ARCHIVE_DEPTH} deep, not read");
            self.unreadable(sink, reason);
        }
        deep
    }

    fn file_name(&self) -> &str {
        self.display.rsplit('/').next().unwrap_or(&self.display)
    }

    /// The origin of a member `member` (`/`-separated, no leading `./`) of this archive.
    fn member(&self, member: &str, log4j: Option<Arc<Log4jConf>>, size: u64) -> Origin {
        let display = format!("{}{member}", self.member_display_prefix);
        let hint_path = format!("{}{member}", self.member_hint_prefix);
        Origin {
            member_display_prefix: format!("{display}!/"),
            member_hint_prefix: format!("{hint_path}!/"),
            display,
            hint_path,
            log4j,
            size: Some(size),
            depth: self.depth + 1,
        }
    }
}

/// The decompression budget of one input unit: every decoder, at any depth, may produce at most
/// `--max-expand` times the raw bytes read from the unit's file or stdin so far (past a floor).
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    max_expand: u64,
    /// Raw bytes read from the unit's source.
    raw: Rc<Cell<u64>>,
}

impl Budget {
    pub(crate) fn new(limits: &Limits) -> Budget {
        Budget {
            max_expand: limits.max_expand,
            raw: Rc::new(Cell::new(0)),
        }
    }

    /// The unit's source, counted.
    pub(crate) fn source<R>(&self, inner: R) -> RawCount<R> {
        RawCount {
            inner,
            raw: Rc::clone(&self.raw),
        }
    }

    fn allows(&self, produced: u64) -> bool {
        produced <= EXPAND_FLOOR_BYTES || produced <= self.raw.get().saturating_mul(self.max_expand)
    }
}

/// Counts the raw bytes read from a unit's source.
pub(crate) struct RawCount<R> {
    inner: R,
    raw: Rc<Cell<u64>>,
}

impl<R: Read> Read for RawCount<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.raw.set(self.raw.get() + n as u64);
        Ok(n)
    }
}

impl<R: Seek> Seek for RawCount<R> {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// What a stream's first bytes say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Magic {
    Compressed(Compression),
    Zip,
    Tar,
    Text,
    /// Not text, and no format oztrace knows.
    Binary,
}

impl Magic {
    pub(crate) fn of(head: &[u8]) -> Magic {
        if let Some(codec) = Compression::from_magic(head) {
            Magic::Compressed(codec)
        } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
            Magic::Zip
        } else if is_tar_header(head) {
            Magic::Tar
        } else if looks_like_text(head) {
            Magic::Text
        } else {
            Magic::Binary
        }
    }
}

/// No NUL byte (git's test for binary files), and at most one byte in ten a control character
/// other than tab, newline, carriage return, form feed and escape (colour codes).
fn looks_like_text(head: &[u8]) -> bool {
    if head.contains(&0) {
        return false;
    }
    let control = head
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b)) || b == 0x7f)
        .count();
    control * 10 <= head.len()
}

/// Reads a stream, whatever it holds, into the sink: decoded, unpacked, or handed over as a log.
pub(crate) fn read_stream(
    raw: Box<dyn Read + '_>,
    origin: &Origin,
    sink: &mut dyn StreamSink,
    budget: &Budget,
) {
    let (head, raw) = match peek(raw, SNIFF_BYTES) {
        Ok(peeked) => peeked,
        Err(e) => return origin.unreadable(sink, format!("read failed: {e}")),
    };
    let (compression, decoded): (Compression, Box<dyn Read + '_>) = match Magic::of(&head) {
        Magic::Compressed(codec) => match decoder(codec, raw) {
            Ok(decoder) => (
                codec,
                Box::new(Decoding {
                    inner: decoder,
                    codec: codec.as_str(),
                    produced: 0,
                    budget: budget.clone(),
                }),
            ),
            Err(e) => return origin.unreadable(sink, format!("{} decoder: {e}", codec.as_str())),
        },
        _ => (Compression::None, raw),
    };
    let (head, decoded) = if compression == Compression::None {
        (head, decoded)
    } else {
        match peek(decoded, SNIFF_BYTES) {
            Ok(peeked) => peeked,
            Err(e) => return origin.unreadable(sink, e.to_string()),
        }
    };
    match Magic::of(&head) {
        Magic::Tar => read_archive(decoded, origin, sink, budget),
        Magic::Zip => match spool(decoded) {
            Ok(bytes) => read_zip(io::Cursor::new(bytes), origin, sink, budget),
            Err(e) => origin.unreadable(sink, e.to_string()),
        },
        Magic::Compressed(codec) => origin.unreadable(
            sink,
            format!(
                "{} data inside {}: compressed twice, not read",
                codec.as_str(),
                compression.as_str()
            ),
        ),
        // Old (v7) tar headers carry no magic: a tar name is enough to try.
        Magic::Binary if classify(origin.file_name()) == NameKind::Archive => {
            read_archive(decoded, origin, sink, budget)
        }
        Magic::Binary => origin.unreadable(
            sink,
            "binary content: not text, and no compression or archive format oztrace reads \
             (gzip, zstd, bzip2, xz, lz4, tar, zip) by its magic bytes"
                .to_string(),
        ),
        // `EXPECTED.json`, tool configs: a `.json` file is a log only when it holds log records.
        Magic::Text
            if crate::source::strip_suffix_ignore_case(
                crate::source::strip_compression_ext(origin.file_name()),
                ".json",
            )
            .is_some()
                && !crate::json::may_hold_records(&head) =>
        {
            sink.skipped(origin.display.clone())
        }
        Magic::Text => {
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
    }
}

fn decoder<'a>(codec: Compression, raw: Box<dyn Read + 'a>) -> io::Result<Box<dyn Read + 'a>> {
    Ok(match codec {
        Compression::None => raw,
        // log4j rolls can leave several gzip members in one file; read them all.
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(raw)),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(raw)?),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(raw)),
        // xz -9 needs 64 MiB of dictionary; a header asking for more is refused, not allocated.
        Compression::Xz => Box::new(lzma_rust2::XzReader::new_mem_limit(raw, true, 256 << 10)),
        Compression::Lz4 => Box::new(lz4_flex::frame::FrameDecoder::new(raw)),
    })
}

/// A zip archive that is not a file on disk, read into memory up to [`MAX_SPOOLED_ZIP_BYTES`].
fn spool(reader: Box<dyn Read + '_>) -> io::Result<Vec<u8>> {
    read_at_most(reader, MAX_SPOOLED_ZIP_BYTES, || {
        format!(
            "zip archive inside another stream larger than {} MiB: not read (name the .zip \
             file itself as an argument)",
            MAX_SPOOLED_ZIP_BYTES >> 20
        )
    })
}

/// Reads a zip archive's members as a tar archive's are read (see [`read_archive`]).
pub(crate) fn read_zip<R: Read + Seek>(
    reader: R,
    origin: &Origin,
    sink: &mut dyn StreamSink,
    budget: &Budget,
) {
    if origin.too_deep(sink) {
        return;
    }
    let mut archive = match zip::ZipArchive::new(reader) {
        Ok(archive) => archive,
        Err(e) => return origin.unreadable(sink, format!("not a readable zip archive: {e}")),
    };
    let mut scopes = ConfScopes::new(origin.log4j.clone());
    for index in 0..archive.len() {
        let entry = match archive.by_index(index) {
            Ok(entry) => entry,
            Err(e) => {
                sink.unreadable(Unreadable {
                    path: format!("{}#{index}", origin.display),
                    reason: format!("zip member {index}: {e}"),
                });
                continue;
            }
        };
        if entry.is_dir() {
            continue;
        }
        let member = normalize_member(&String::from_utf8_lossy(entry.name_raw()));
        if entry.is_symlink() {
            sink.skipped(format!("{}{member}", origin.member_display_prefix));
            continue;
        }
        let size = entry.size();
        let decoded = Decoding {
            inner: entry,
            codec: "zip",
            produced: 0,
            budget: budget.clone(),
        };
        read_member(
            Box::new(decoded),
            &member,
            size,
            origin,
            &mut scopes,
            sink,
            budget,
        );
    }
}

/// Reads a tar archive in one pass. A `log4j.properties` member applies to the members after it
/// in its scope (the folder holding its `conf/`), on top of what `origin.log4j` says: a single
/// pass cannot apply it to members that came before. Entries are read raw so that header
/// extensions (GNU long names, pax records) are size-checked before they are read.
fn read_archive(
    reader: Box<dyn Read + '_>,
    origin: &Origin,
    sink: &mut dyn StreamSink,
    budget: &Budget,
) {
    if origin.too_deep(sink) {
        return;
    }
    let mut archive = tar::Archive::new(reader);
    let entries = match archive.entries() {
        Ok(entries) => entries.raw(true),
        Err(e) => return origin.unreadable(sink, format!("not a readable tar archive: {e}")),
    };
    let mut scopes = ConfScopes::new(origin.log4j.clone());
    let mut last_member: Option<String> = None;
    // A GNU long name or pax `path` for the next entry.
    let mut next_path: Option<Vec<u8>> = None;
    let fail = |reason: String, last: &Option<String>, sink: &mut dyn StreamSink| {
        let reason = match last {
            Some(member) => format!("tar archive unreadable after member {member}: {reason}"),
            None => format!("not a readable tar archive: {reason}"),
        };
        origin.unreadable(sink, reason);
    };
    for entry in entries {
        let mut entry = match entry {
            Ok(entry) => entry,
            Err(e) => return fail(e.to_string(), &last_member, sink),
        };
        let entry_type = entry.header().entry_type();
        if entry_type.is_gnu_longname() || entry_type.is_pax_local_extensions() {
            let data = match read_header_extension(&mut entry) {
                Ok(data) => data,
                Err(e) => return fail(e.to_string(), &last_member, sink),
            };
            if entry_type.is_gnu_longname() {
                let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
                next_path = Some(data[..end].to_vec());
                continue;
            }
            for extension in tar::PaxExtensions::new(&data).flatten() {
                match extension.key() {
                    Ok("path") => next_path = Some(extension.value_bytes().to_vec()),
                    // The tar crate's raw entries keep the header's size; a member whose size
                    // only a pax record can say (8 GiB and more) would be read misaligned.
                    Ok("size") => {
                        return fail(
                            "a pax size record (a member of 8 GiB or more) is not supported".into(),
                            &last_member,
                            sink,
                        );
                    }
                    _ => {}
                }
            }
            continue;
        }
        // GNU long link names (of links, which are skipped), folders and pax global headers
        // (`git archive` writes one) carry no file.
        if entry_type.is_gnu_longlink()
            || entry_type.is_dir()
            || entry_type.is_pax_global_extensions()
        {
            continue;
        }
        let raw_path = next_path
            .take()
            .unwrap_or_else(|| entry.path_bytes().into_owned());
        let member = normalize_member(&String::from_utf8_lossy(&raw_path));
        last_member = Some(member.clone());
        if !(entry_type.is_file() || entry_type.is_contiguous()) {
            // Links, devices, sparse files: no log stream of their own.
            sink.skipped(format!("{}{member}", origin.member_display_prefix));
            continue;
        }
        let size = entry.size();
        let reader = ExactLength {
            inner: entry,
            remaining: size,
            total: size,
        };
        read_member(
            Box::new(reader),
            &member,
            size,
            origin,
            &mut scopes,
            sink,
            budget,
        );
    }
}

/// Reads a GNU long name or pax extension, refusing one over [`MAX_TAR_HEADER_BYTES`].
fn read_header_extension(entry: &mut impl Read) -> io::Result<Vec<u8>> {
    read_at_most(entry, MAX_TAR_HEADER_BYTES, || {
        format!(
            "a tar header extension (GNU long name or pax record) larger than {} KiB",
            MAX_TAR_HEADER_BYTES >> 10
        )
    })
}

/// One archive member: a log or nested archive (read as a stream), a configuration file, or
/// something else (skipped).
fn read_member(
    reader: Box<dyn Read + '_>,
    member: &str,
    size: u64,
    origin: &Origin,
    scopes: &mut ConfScopes,
    sink: &mut dyn StreamSink,
    budget: &Budget,
) {
    let name = member.rsplit('/').next().unwrap_or(member);
    let inner = origin.member(member, scopes.for_path(member), size);
    match classify(name) {
        NameKind::Log | NameKind::Archive => read_stream(reader, &inner, sink, budget),
        NameKind::Config(kind) => match read_config(reader) {
            Ok(text) => {
                let config = ConfigFile::parse(inner.display, &inner.hint_path, kind, &text);
                if kind == ConfigKind::Log4jProperties {
                    scopes.add(
                        scope_of(member),
                        Log4jConf::from_properties(&config.properties),
                    );
                }
                sink.config(config);
            }
            Err(e) => sink.unreadable(Unreadable {
                path: inner.display,
                reason: e.to_string(),
            }),
        },
        NameKind::UnreadArchive(format) => sink.unreadable(Unreadable {
            path: inner.display,
            reason: unread_archive_reason(format),
        }),
        NameKind::Other => sink.skipped(inner.display),
    }
}

/// A member path, `/`-separated, without a leading `./` or `/`.
fn normalize_member(raw: &str) -> String {
    let mut path = raw;
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
    let bytes = read_at_most(reader, MAX_CONFIG_BYTES, || {
        format!(
            "configuration file larger than {} MiB, not read",
            MAX_CONFIG_BYTES >> 20
        )
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Reads to the end, refusing more than `limit` bytes with the reason `too_large` gives.
fn read_at_most(
    reader: impl Read,
    limit: u64,
    too_large: impl FnOnce() -> String,
) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::other(too_large()));
    }
    Ok(bytes)
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

/// Names decoder errors, so that an unreadable stream says why ("corrupt or truncated gzip
/// data: …"), and stops a decompression bomb at the input's budget.
struct Decoding<R> {
    inner: R,
    codec: &'static str,
    produced: u64,
    budget: Budget,
}

impl<R: Read> Read for Decoding<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("corrupt or truncated {} data: {e}", self.codec),
            )
        })?;
        self.produced += n as u64;
        if !self.budget.allows(self.produced) {
            return Err(io::Error::other(format!(
                "{} data expands more than {} times the {} compressed bytes read \
                 (--max-expand {}): a decompression bomb? stopped after {} MiB",
                self.codec,
                self.budget.max_expand,
                self.budget.raw.get(),
                self.budget.max_expand,
                self.produced >> 20
            )));
        }
        Ok(n)
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
