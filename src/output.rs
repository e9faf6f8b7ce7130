//! What oztrace writes: standard output, and the files of `--report`, `--write-baseline`,
//! `events -o` and `query -o`. A closed pipe ends a run quietly (as ripgrep does); a full disk is
//! one line and exit 4. Output files are never one of the inputs and never half-written: each is a
//! temporary file next to its target, renamed over it once everything is written (a `--dataset`
//! folder likewise, see `dataset.rs`).

use crate::Failure;
use std::collections::HashSet;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// An error writing output: a closed pipe (`oztrace … | head`) ends the run quietly, anything
/// else (a full disk) is an internal error that says what was being written.
pub fn write_failure(what: &str, e: std::io::Error) -> Failure {
    if e.kind() == ErrorKind::BrokenPipe {
        Failure::OutputClosed
    } else {
        Failure::Internal(format!("writing {what}: {e}"))
    }
}

/// Writes `bytes` to standard output and flushes it.
pub fn emit_bytes(bytes: &[u8]) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| write_failure("to standard output", e))
}

/// A line on standard error, `oztrace: ` first. A closed standard error is not worth a panic.
pub fn warn(message: &str) {
    let _ = writeln!(std::io::stderr(), "oztrace: {message}");
}

/// A file to be written at the end of a run: a temporary file in the target's folder until
/// [`OutputFile::commit`] renames it over the target.
pub struct OutputFile {
    flag: &'static str,
    target: PathBuf,
    temp: NamedTempFile,
}

impl OutputFile {
    /// Creates the temporary file now, so that an unwritable folder is a usage error before
    /// anything is read.
    pub fn create(flag: &'static str, target: &Path) -> Result<OutputFile, Failure> {
        let folder = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let name = target.file_name().ok_or_else(|| {
            Failure::Usage(format!("{flag} {}: not a file name", target.display()))
        })?;
        let prefix = format!(".{}.", name.to_string_lossy());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // As `File::create` would: readable by others unless the umask says otherwise (a
        // temporary file is private by default).
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let temp = builder
            .tempfile_in(folder)
            .map_err(|e| Failure::Usage(format!("{flag} {}: {e}", target.display())))?;
        Ok(OutputFile {
            flag,
            target: target.to_path_buf(),
            temp,
        })
    }

    pub fn writer(&mut self) -> &mut std::fs::File {
        self.temp.as_file_mut()
    }

    /// Writes `contents` and renames the file over its target.
    pub fn write_and_commit(mut self, contents: &[u8]) -> Result<(), Failure> {
        let what = format!("{} {}", self.flag, self.target.display());
        self.writer()
            .write_all(contents)
            .map_err(|e| write_failure(&what, e))?;
        self.commit()
    }

    /// Flushes the file to disk and renames it over its target.
    pub fn commit(self) -> Result<(), Failure> {
        let what = format!("{} {}", self.flag, self.target.display());
        self.temp
            .as_file()
            .sync_all()
            .map_err(|e| write_failure(&what, e))?;
        self.temp
            .persist(&self.target)
            .map(drop)
            .map_err(|e| write_failure(&what, e.error))
    }
}

/// Refuses (usage error, nothing read) an output path that is an existing input file: named
/// as an argument or found in an input folder, by device and inode, so that links are caught.
pub fn refuse_inputs_as_outputs(
    inputs: &[PathBuf],
    outputs: &[(&str, &Path)],
) -> Result<(), Failure> {
    let existing: Vec<(&str, &Path, FileId)> = outputs
        .iter()
        .filter_map(|(flag, path)| Some((*flag, *path, FileId::of(path)?)))
        .collect();
    if existing.is_empty() {
        return Ok(());
    }
    let mut ids = HashSet::new();
    for input in inputs.iter().filter(|p| p.as_os_str() != "-") {
        for entry in walkdir::WalkDir::new(input)
            .follow_links(true)
            .into_iter()
            .flatten()
        {
            if entry.file_type().is_file()
                && let Some(id) = FileId::of(entry.path())
            {
                ids.insert(id);
            }
        }
    }
    match existing.iter().find(|(_, _, id)| ids.contains(id)) {
        Some((flag, path, _)) => Err(Failure::Usage(format!(
            "{flag} {}: that is one of the inputs; choose another file (inputs are only read)",
            path.display()
        ))),
        None => Ok(()),
    }
}

/// What identifies a file whatever path reaches it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg(not(unix))]
    Canonical(PathBuf),
}

impl FileId {
    fn of(path: &Path) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::metadata(path).ok()?;
            Some(FileId::Inode(meta.dev(), meta.ino()))
        }
        #[cfg(not(unix))]
        {
            std::fs::canonicalize(path).ok().map(FileId::Canonical)
        }
    }
}
