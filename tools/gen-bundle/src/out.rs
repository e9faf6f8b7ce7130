//! Log files as a cluster leaves them: each stream rotated at a size, rotations named
//! `<name>.N` (oldest highest) and, when asked, gzipped by a second thread as log4j's
//! `RollingFileAppender` with a `.gz` pattern does.

use flate2::Compression as Level;
use flate2::write::GzEncoder;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;

/// Which files end up gzipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Gzip {
    None,
    /// Rotated files (`name.N.gz`), the live file stays plain.
    Rotated,
    /// Every file, the live one too (`name.gz`): a bundle gzipped for transport.
    All,
}

/// One log stream being written.
pub struct Stream {
    /// The live file's path (`…/ozone-hadoop-om-om1.log`).
    path: PathBuf,
    writer: BufWriter<File>,
    part_bytes: u64,
    /// Finished parts, oldest first, as written (`<path>.part<i>`).
    parts: Vec<PathBuf>,
    pub bytes: u64,
}

/// Every stream of a bundle, and the thread that compresses finished parts.
pub struct Files {
    rotate_bytes: u64,
    gzip: Gzip,
    streams: Vec<Stream>,
    compress: Option<(mpsc::Sender<PathBuf>, JoinHandle<io::Result<()>>)>,
}

const WRITE_BUFFER: usize = 256 * 1024;

impl Files {
    pub fn new(rotate_bytes: u64, gzip: Gzip) -> Files {
        let compress = (gzip != Gzip::None).then(|| {
            let (sender, receiver) = mpsc::channel::<PathBuf>();
            let worker = std::thread::spawn(move || -> io::Result<()> {
                for path in receiver {
                    gzip_file(&path)?;
                }
                Ok(())
            });
            (sender, worker)
        });
        Files {
            rotate_bytes: rotate_bytes.max(1),
            gzip,
            streams: Vec::new(),
            compress,
        }
    }

    /// Opens a stream at `path` (its folder is created); returns its index.
    pub fn open(&mut self, path: PathBuf) -> io::Result<usize> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let first = part_path(&path, 0);
        self.streams.push(Stream {
            writer: BufWriter::with_capacity(WRITE_BUFFER, File::create(&first)?),
            path,
            part_bytes: 0,
            parts: vec![first],
            bytes: 0,
        });
        Ok(self.streams.len() - 1)
    }

    /// Appends one line (without its newline) to stream `i`, rotating first when it is full.
    pub fn line(&mut self, i: usize, line: &str) -> io::Result<()> {
        let stream = &mut self.streams[i];
        let n = line.len() as u64 + 1;
        if stream.part_bytes > 0 && stream.part_bytes + n > self.rotate_bytes {
            stream.writer.flush()?;
            let next = part_path(&stream.path, stream.parts.len());
            stream.writer = BufWriter::with_capacity(WRITE_BUFFER, File::create(&next)?);
            stream.parts.push(next);
            stream.part_bytes = 0;
        }
        stream.writer.write_all(line.as_bytes())?;
        stream.writer.write_all(b"\n")?;
        stream.part_bytes += n;
        stream.bytes += n;
        Ok(())
    }

    pub fn total_bytes(&self) -> u64 {
        self.streams.iter().map(|s| s.bytes).sum()
    }

    /// Flushes every stream, names the parts as rotations and compresses what is asked.
    pub fn finish(mut self) -> io::Result<()> {
        let mut to_compress = Vec::new();
        for stream in &mut self.streams {
            stream.writer.flush()?;
            let count = stream.parts.len();
            for (i, part) in stream.parts.iter().enumerate() {
                let age = count - 1 - i;
                let name = if age == 0 {
                    stream.path.clone()
                } else {
                    with_suffix(&stream.path, &format!(".{age}"))
                };
                std::fs::rename(part, &name)?;
                if self.gzip == Gzip::All || (self.gzip == Gzip::Rotated && age > 0) {
                    to_compress.push(name);
                }
            }
        }
        if let Some((sender, worker)) = self.compress.take() {
            for path in to_compress {
                // The worker only stops on an error, which join reports.
                if sender.send(path).is_err() {
                    break;
                }
            }
            drop(sender);
            worker
                .join()
                .map_err(|_| io::Error::other("the gzip thread panicked"))??;
        }
        Ok(())
    }
}

fn part_path(path: &Path, i: usize) -> PathBuf {
    with_suffix(path, &format!(".part{i}"))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// `name` → `name.gz` (mtime 0 in the header: the same bytes on every run).
pub fn gzip_file(path: &Path) -> io::Result<()> {
    let target = with_suffix(path, ".gz");
    let mut input = File::open(path)?;
    let output = BufWriter::with_capacity(WRITE_BUFFER, File::create(&target)?);
    let mut encoder = flate2::GzBuilder::new()
        .mtime(0)
        .write(output, Level::new(6));
    io::copy(&mut input, &mut encoder)?;
    encoder.finish()?.flush()?;
    std::fs::remove_file(path)
}

/// Writes `bytes` to `path`, gzipped when `gzip` (as `path.gz`).
pub fn write_file(path: &Path, bytes: &[u8], gzip: bool) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    if gzip {
        let file = File::create(with_suffix(path, ".gz"))?;
        let mut encoder: GzEncoder<File> =
            flate2::GzBuilder::new().mtime(0).write(file, Level::new(6));
        encoder.write_all(bytes)?;
        encoder.finish()?;
        Ok(())
    } else {
        std::fs::write(path, bytes)
    }
}
