//! What a file's name says it is: a log, an archive, a configuration file, or something else.

use super::ConfigKind;
use crate::source::{
    has_audit_prefix, is_role_host_name, strip_archive_ext, strip_compression_ext,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameKind {
    Log,
    Archive,
    /// An archive format oztrace does not read (`.7z`, `.rar`): it may hold logs, so it is
    /// reported unreadable, not skipped.
    UnreadArchive(&'static str),
    Config(ConfigKind),
    Other,
}

/// Archive formats that bundles arrive in and oztrace does not read.
const UNREAD_ARCHIVES: &[(&str, &str)] = &[(".7z", "7-Zip"), (".rar", "RAR")];

/// Last extensions that make a `.log`-looking name something else (`x.log.crc`, `x.log.lck`).
const NOT_TEXT: &[&str] = &[
    "crc",
    "lck",
    "lock",
    "pid",
    "swp",
    "jar",
    "class",
    "so",
    "bin",
    "db",
    "sst",
    "idx",
    "xml",
    "properties",
    "7z",
    "rar",
    "png",
    "jpg",
    "html",
];

/// Classifies a file by its name alone (the last path component).
pub(crate) fn classify(name: &str) -> NameKind {
    // macOS AppleDouble companions (`._x.log`) that tarballs made on a Mac carry: binary metadata.
    if name.starts_with("._") {
        return NameKind::Other;
    }
    let lower = name.to_ascii_lowercase();
    if strip_archive_ext(&lower).is_some() {
        return NameKind::Archive;
    }
    if let Some((_, format)) = UNREAD_ARCHIVES.iter().find(|(ext, _)| lower.ends_with(ext)) {
        return NameKind::UnreadArchive(format);
    }
    // Ozone ships `log4j.properties` for the daemons and `<om|scm|dn>-audit-log4j2.properties`,
    // `dn-container-log4j2.properties` for the log4j2 logs.
    if lower == "log4j.properties" || lower.ends_with("log4j2.properties") {
        return NameKind::Config(ConfigKind::Log4jProperties);
    }
    if lower == "ozone-site.xml" {
        return NameKind::Config(ConfigKind::OzoneSiteXml);
    }
    let plain = strip_compression_ext(&lower);
    let segments: Vec<&str> = plain.split('.').collect();
    let is_log_segment = |s: &&str| {
        let s = match s.split_once('-') {
            // FixedWindowRollingPolicy `x.log-3`.
            Some((ext, index))
                if !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()) =>
            {
                ext
            }
            _ => s,
        };
        // JSON exports of log shippers (`.json` only when its first bytes say so: see
        // `json::may_hold_records`).
        matches!(s, "log" | "out" | "txt" | "json" | "jsonl" | "ndjson")
    };
    let last = segments.last().copied().unwrap_or_default();
    // RocksDB write-ahead logs (`000123.log` in om.db / scm.db) are binary.
    let rocksdb_wal = segments.len() == 2 && segments[0].bytes().all(|b| b.is_ascii_digit());
    if segments.len() >= 2
        && segments.iter().skip(1).any(is_log_segment)
        && !NOT_TEXT.contains(&last)
        && !rocksdb_wal
    {
        return NameKind::Log;
    }
    if has_audit_prefix(plain) || (segments.len() == 1 && is_role_host_name(plain)) {
        return NameKind::Log;
    }
    NameKind::Other
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_by_name() {
        for name in [
            "ozone-hadoop-om-om1.log",
            "ozone-hadoop-om-om1.log.3",
            "ozone-hadoop-om-om1.log.2.gz",
            "ozone-hadoop-om-om1.log-4.gz",
            "ozone-hadoop-om-om1.out",
            "ozone-hadoop-om-om1.log.2026-08-20",
            "om-audit-om1-2026-08-20-1.log.gz",
            "hadoop-cmf-ozone-OZONE_MANAGER-h.example.com.log.out.2.gz",
            "dn-container-dn1.log.zst",
            "kubectl-logs.txt",
            "fluent-bit-export.jsonl",
            "logcli.ndjson.gz",
            "elasticdump.json",
            "ozone-om-0",
            "scm1",
        ] {
            assert_eq!(classify(name), NameKind::Log, "{name}");
        }
    }

    #[test]
    fn everything_else() {
        assert_eq!(classify("bundle.tar.gz"), NameKind::Archive);
        assert_eq!(classify("scm1.tgz"), NameKind::Archive);
        assert_eq!(classify("logs.tar.zst"), NameKind::Archive);
        assert_eq!(classify("dn1.zip"), NameKind::Archive);
        assert_eq!(classify("logs.tar.xz"), NameKind::Archive);
        assert_eq!(classify("bundle.7z"), NameKind::UnreadArchive("7-Zip"));
        assert_eq!(classify("ozone.log.bz2"), NameKind::Log);
        assert_eq!(
            classify("log4j.properties"),
            NameKind::Config(ConfigKind::Log4jProperties)
        );
        assert_eq!(
            classify("om-audit-log4j2.properties"),
            NameKind::Config(ConfigKind::Log4jProperties)
        );
        assert_eq!(
            classify("ozone-site.xml"),
            NameKind::Config(ConfigKind::OzoneSiteXml)
        );
        for name in [
            "core-site.xml",
            "ozone-shell-log4j.properties",
            "ozone.log.crc",
            "000123.log",
            "._ozone-hadoop-om-om1.log",
            "ratis.jar",
            "ozone",
            "README",
        ] {
            assert_eq!(classify(name), NameKind::Other, "{name}");
        }
    }
}
