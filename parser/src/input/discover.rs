//! Walking the arguments into readable units.

use super::config::{ConfScopes, ConfigFile, Log4jConf, scope_of};
use super::names::{NameKind, classify};
use super::stream::{Origin, read_config};
use super::{ConfigKind, Discovery, InputUnit, UnitSource, Unreadable};
use std::collections::HashSet;
use std::fs;
use std::path::{Component as PathComponent, Path, PathBuf};
use std::sync::Arc;
use walkdir::WalkDir;

/// Finds every log stream, archive and configuration file in `paths` (`-` is stdin).
///
/// Directories are walked recursively in sorted order, following symlinks (a loop is skipped, a
/// file reached twice is read once). A log4j configuration applies to the files of its folder's
/// host: `<host>/conf/log4j.properties` to everything under `<host>/`, a top-level `conf/` to the
/// whole directory, and one named as an argument to every input. Files named as arguments are read
/// as logs whatever their name, unless it says archive or configuration.
pub fn discover(paths: &[PathBuf]) -> Discovery {
    let mut discovery = Discovery::default();
    let mut seen = HashSet::new();

    // Configuration files named as arguments apply to all other inputs, so they go first.
    let mut global: Option<Log4jConf> = None;
    let mut config_args = vec![false; paths.len()];
    for (i, path) in paths.iter().enumerate() {
        let NameKind::Config(kind) = classify(&file_name(path)) else {
            continue;
        };
        if !path.is_file() {
            continue;
        }
        config_args[i] = true;
        let display = display_path(path);
        if !first_visit(&mut seen, path, None) {
            discovery.skipped.push(display);
            continue;
        }
        if let Some(conf) = load_config(path, display, &display_path(path), kind, &mut discovery) {
            match &mut global {
                Some(merged) => merged.fill_from(&conf),
                None => global = Some(conf),
            }
        }
    }
    let global = global.map(Arc::new);

    let mut stdin_taken = false;
    for (argument, (path, _)) in paths
        .iter()
        .zip(&config_args)
        .enumerate()
        .filter(|(_, (_, is_config))| !**is_config)
    {
        let first_unit = discovery.units.len();
        add_argument(path, &mut discovery, &mut seen, &global, &mut stdin_taken);
        for unit in &mut discovery.units[first_unit..] {
            unit.argument = argument;
        }
    }
    discovery
}

/// The units of one argument (`-` is stdin, read once), added to `discovery`.
fn add_argument(
    path: &Path,
    discovery: &mut Discovery,
    seen: &mut HashSet<FileKey>,
    global: &Option<Arc<Log4jConf>>,
    stdin_taken: &mut bool,
) {
    if path.as_os_str() == "-" {
        if *stdin_taken {
            discovery.skipped.push("-".into());
        } else {
            *stdin_taken = true;
            discovery.units.push(stdin_unit(global.clone()));
        }
        return;
    }
    let display = display_path(path);
    match fs::metadata(path) {
        Err(e) => discovery.unreadable.push(Unreadable {
            path: display,
            reason: e.to_string(),
        }),
        Ok(meta) if meta.is_dir() => walk_directory(path, discovery, seen, global.clone()),
        Ok(meta) if let Some(kind) = special_file(&meta) => discovery.unreadable.push(Unreadable {
            path: display,
            reason: format!("not a regular file ({kind}): not read"),
        }),
        Ok(meta) => {
            if !first_visit(seen, path, Some(&meta)) {
                discovery.skipped.push(display);
                return;
            }
            // An archive argument's members are named without a prefix.
            discovery.units.push(InputUnit {
                source: UnitSource::Path(path.to_path_buf()),
                origin: Origin {
                    member_display_prefix: String::new(),
                    member_hint_prefix: format!("{display}!/"),
                    hint_path: display.clone(),
                    display,
                    log4j: global.clone(),
                    // A pipe (`<(zcat …)`) has no size worth reporting.
                    size: meta.is_file().then_some(meta.len()),
                    depth: 0,
                },
                argument: 0,
            });
        }
    }
}

fn stdin_unit(log4j: Option<Arc<Log4jConf>>) -> InputUnit {
    InputUnit {
        source: UnitSource::Stdin,
        origin: Origin {
            display: "-".into(),
            hint_path: String::new(),
            // A tar on stdin is an archive argument: members named as in the archive.
            member_display_prefix: String::new(),
            member_hint_prefix: String::new(),
            log4j,
            size: None,
            depth: 0,
        },
        argument: 0,
    }
}

/// A file found in a directory walk, waiting for the walk's configuration files.
struct Found {
    path: PathBuf,
    relative: String,
    size: Option<u64>,
}

fn walk_directory(
    root: &Path,
    discovery: &mut Discovery,
    seen: &mut HashSet<FileKey>,
    global: Option<Arc<Log4jConf>>,
) {
    let hint_root = hint_root(root);
    let hint_path = |relative: &str| {
        if hint_root.is_empty() {
            relative.to_string()
        } else {
            format!("{hint_root}/{relative}")
        }
    };
    let mut scopes = ConfScopes::new(global);
    let mut found = Vec::new();
    for entry in WalkDir::new(root).follow_links(true).sort_by_file_name() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let path = e
                    .path()
                    .map(|p| relative_display(root, p))
                    .filter(|p| !p.is_empty());
                let path = path.unwrap_or_else(|| display_path(root));
                if e.loop_ancestor().is_some() {
                    discovery.skipped.push(path);
                } else {
                    let reason = e
                        .io_error()
                        .map_or_else(|| e.to_string(), ToString::to_string);
                    discovery.unreadable.push(Unreadable { path, reason });
                }
                continue;
            }
        };
        if entry.file_type().is_dir() {
            continue;
        }
        let relative = relative_display(root, entry.path());
        // One stat gives both the file's identity and its size.
        let meta = entry.metadata().ok();
        let name = classify(&entry.file_name().to_string_lossy());
        if !entry.file_type().is_file() {
            // Sockets, devices and FIFOs may never end: not read from a folder. One named as a
            // log is said so, as an input the user meant; the others are skipped as any file
            // that is not a log.
            if matches!(name, NameKind::Log | NameKind::Archive) {
                discovery.unreadable.push(Unreadable {
                    path: relative,
                    reason: not_regular_in_folder(meta.as_ref()),
                });
            } else {
                discovery.skipped.push(relative);
            }
            continue;
        }
        if !first_visit(seen, entry.path(), meta.as_ref()) {
            // A file seen before is read once.
            discovery.skipped.push(relative);
            continue;
        }
        match name {
            NameKind::Config(kind) => {
                let hint = hint_path(&relative);
                let scope = scope_of(&relative);
                if let Some(conf) = load_config(entry.path(), relative, &hint, kind, discovery) {
                    scopes.add(scope, conf);
                }
            }
            NameKind::Log | NameKind::Archive => {
                let size = meta.map(|m| m.len());
                found.push(Found {
                    path: entry.into_path(),
                    relative,
                    size,
                });
            }
            NameKind::UnreadArchive(format) => discovery.unreadable.push(Unreadable {
                path: relative,
                reason: unread_archive_reason(format),
            }),
            NameKind::Other => discovery.skipped.push(relative),
        }
    }
    for file in found {
        let hint = hint_path(&file.relative);
        discovery.units.push(InputUnit {
            source: UnitSource::Path(file.path),
            origin: Origin {
                member_display_prefix: format!("{}!/", file.relative),
                member_hint_prefix: format!("{hint}!/"),
                hint_path: hint,
                log4j: scopes.for_path(&file.relative),
                display: file.relative,
                size: file.size,
                depth: 0,
            },
            argument: 0,
        });
    }
}

/// Why an archive of a format oztrace does not read is unreadable.
pub(crate) fn unread_archive_reason(format: &str) -> String {
    format!("{format} archive: not a format oztrace reads (extract it, or repack as tar or zip)")
}

/// Reads and records a configuration file; returns its log4j settings if it is a log4j file.
fn load_config(
    path: &Path,
    display: String,
    hint_path: &str,
    kind: ConfigKind,
    discovery: &mut Discovery,
) -> Option<Log4jConf> {
    let text = match fs::File::open(path).and_then(read_config) {
        Ok(text) => text,
        Err(e) => {
            discovery.unreadable.push(Unreadable {
                path: display,
                reason: e.to_string(),
            });
            return None;
        }
    };
    let config = ConfigFile::parse(display, hint_path, kind, &text);
    let conf = (kind == ConfigKind::Log4jProperties)
        .then(|| Log4jConf::from_properties(&config.properties));
    discovery.configs.push(config);
    conf
}

/// What a file that is neither a regular file, a folder nor a FIFO is: devices (`/dev/zero` has
/// no end) and sockets are not read. A FIFO (`<(zcat …)`) is read like stdin.
fn special_file(meta: &fs::Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    if kind.is_file() || kind.is_dir() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return None;
        }
        if kind.is_char_device() {
            return Some("character device");
        }
        if kind.is_block_device() {
            return Some("block device");
        }
        if kind.is_socket() {
            return Some("socket");
        }
    }
    Some("special file")
}

/// Why a file of a folder that is no regular file is not read: a FIFO can be read only as an
/// argument, where the user says it has an end.
fn not_regular_in_folder(meta: Option<&fs::Metadata>) -> String {
    let kind = meta.map_or(Some("special file"), special_file);
    match kind {
        Some(kind) => format!("not a regular file ({kind}): not read"),
        None => "a named pipe (FIFO) in a folder: not read, as it may never end; name it as an \
                 argument to read it"
            .to_string(),
    }
}

/// True the first time a file is met, however it is reached (a symlink, `./`, two arguments); a
/// path that cannot be resolved counts as new, and fails later when opened. `meta`: the file's
/// metadata (symlinks followed), when the caller has it.
fn first_visit(seen: &mut HashSet<FileKey>, path: &Path, meta: Option<&fs::Metadata>) -> bool {
    file_key(path, meta).is_none_or(|key| seen.insert(key))
}

/// What identifies a file: its device and inode where the system has them (one `stat`, which
/// the walk makes anyway), else its canonical path (a `readlink` per component of the path: most
/// of a large bundle's discovery, which runs before any file is read).
#[cfg(unix)]
type FileKey = (u64, u64);
#[cfg(not(unix))]
type FileKey = PathBuf;

#[cfg(unix)]
fn file_key(path: &Path, meta: Option<&fs::Metadata>) -> Option<FileKey> {
    use std::os::unix::fs::MetadataExt;
    let key = |meta: &fs::Metadata| (meta.dev(), meta.ino());
    match meta {
        Some(meta) => Some(key(meta)),
        None => fs::metadata(path).ok().map(|meta| key(&meta)),
    }
}

#[cfg(not(unix))]
fn file_key(path: &Path, _: Option<&fs::Metadata>) -> Option<FileKey> {
    fs::canonicalize(path).ok()
}

/// The folder names a directory argument contributes to host hints: as typed, or, for `.`, `..`
/// and `/`, the name of the folder it resolves to.
fn hint_root(root: &Path) -> String {
    match root.components().next_back() {
        Some(PathComponent::Normal(_)) => display_path(root),
        _ => fs::canonicalize(root)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default(),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A path as typed, `/`-separated.
fn display_path(path: &Path) -> String {
    let shown = path.to_string_lossy();
    if cfg!(windows) {
        shown.replace('\\', "/")
    } else {
        shown.into_owned()
    }
}

/// `path` relative to `root`, `/`-separated.
fn relative_display(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
