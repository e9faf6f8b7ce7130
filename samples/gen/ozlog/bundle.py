"""Writing a sample bundle: its folder, log records per host, rotated and gzipped files,
docker-compose output, EXPECTED.json, and the `file:line` lookups SOURCE.md cites."""
import datetime as dt
import glob
import gzip
import io
import json
import os
import shutil

from ozlog.log4j import log_lines

SAMPLES = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEEP = ("REPLAY",)  # written by hand (samples/README.md): a rerun keeps it


def gzip_bytes(data, name=""):
    """One gzip member with mtime 0 (a rerun gives the same bytes); `name` goes into the header."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename=name, mode="wb", fileobj=buf, mtime=0) as g:
        g.write(data)
    return buf.getvalue()


def write_lines(path, lines, gz=False, gz_name=""):
    """A log file of `lines` (each ended by \\n); gzipped when `gz`."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = "".join(line + "\n" for line in lines).encode()
    with open(path, "wb") as f:
        f.write(gzip_bytes(data, gz_name) if gz else data)


def file_lines(path):
    """The lines of a written file, decompressed (the last is '' after the final newline)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return f.read().split("\n")


def audit_rollover(live, date, i=1):
    """The log4j2 rollover of audit log `x.log`: `x-<date>-<i>.log.gz`, `date` as its filePattern prints
    it: %d{yyyy-MM-dd} (daily, 2.2.0 on) or %d{yyyy-MM-dd-HH-mm-ss} (OMAudit 2.0.0-2.1.0)."""
    assert live.endswith(".log"), live
    return "%s-%s-%d.log.gz" % (live[:-len(".log")], date, i)


def rfa_backup(live, n):
    """A RollingFileAppender backup of `live`: `<live>.<n>`, 1 the newest."""
    return "%s.%d" % (live, n)


VENDOR_ROLES = {"scm": "STORAGE_CONTAINER_MANAGER", "datanode": "HDDS_DATANODE"}


def daemon_log(role, host, user="hadoop", vendor=False):
    """The main log of an Ozone daemon: `ozone-<user>-<role>-<host>.log` as `ozone --daemon` names it, or
    `hadoop-cmf-ozone-<ROLE>-<host>.log.out` on vendor-managed installs."""
    if vendor:
        return "hadoop-cmf-ozone-%s-%s.log.out" % (VENDOR_ROLES[role], host)
    return "ozone-%s-%s-%s.log" % (user, role, host)


def site_xml(props, stylesheet=True):
    """A Hadoop configuration file (ozone-site.xml) with `props` in order."""
    head = ['<?xml version="1.0" encoding="UTF-8"?>']
    if stylesheet:
        head.append('<?xml-stylesheet type="text/xsl" href="configuration.xsl"?>')
    body = "".join("  <property>\n    <name>%s</name>\n    <value>%s</value>\n  </property>\n" % kv for kv in props)
    return "\n".join(head + ["<configuration>"]) + "\n" + body + "</configuration>\n"


class Records:
    """Log records of a simulated cluster per (stream, host), each `(t, seq, payload, mark)`: `t` in the
    host's clock (its skew in ms added), `seq` the order of creation, `mark` a key SOURCE.md can cite."""

    def __init__(self, skew=None):
        self.skew = skew or {}
        self.recs = {}
        self.seq = 0

    def add(self, stream, host, t, payload, mark=None):
        self.seq += 1
        off = self.skew.get(host, 0)
        t += off if isinstance(t, int) else dt.timedelta(milliseconds=off)
        self.recs.setdefault((stream, host), []).append((t, self.seq, payload, mark))

    def get(self, stream, host, since=None, until=None):
        """The records of one stream in time order, those in [since, until) when given."""
        out = sorted(self.recs.get((stream, host), []), key=lambda r: (r[0], r[1]))
        return [r for r in out if (since is None or r[0] >= since) and (until is None or r[0] < until)]


def main_log(layout):
    """render(t, payload) of main-log records whose payload is (thread, level, logger, msg, extra)."""
    return lambda t, p: log_lines(layout, t, *p)


def entries(records, render):
    """(lines, mark) per record for BundleDir.write; render(t, payload) -> lines."""
    return [(render(t, payload), mark) for t, _, payload, mark in records]


def compose_v2_prefixes(names):
    """`docker compose logs` (v2): `<service>-<n>` padded to the longest name, then `  | `."""
    width = max(len(n) for n in names)
    return {n: n.ljust(width) + "  | " for n in names}


def compose_v1_prefixes(names):
    """docker-compose v1: `<service>_<n>` padded to the longest name, then ` | `."""
    width = max(len(n) for n in names)
    return {n: n.ljust(width) + " | " for n in names}


def compose_entries(streams, prefix, order=lambda r, i: (r[0], r[1])):
    """docker compose output: the records of every service interleaved, each physical line behind the
    service's prefix. streams: (service, records, render) in service order; order(record, index of
    the service) sorts them (default: time, then creation)."""
    merged = []
    for i, (name, records, render) in enumerate(streams):
        merged += [(order(r, i), name, r, render) for r in records]
    merged.sort(key=lambda m: m[0])
    return [([prefix[name] + line for line in render(r[0], r[2])], r[3]) for _, name, r, render in merged]


def finding(rule, entity, confidence):
    """One EXPECTED.json entry: the finding `oztrace scan` must give, at this confidence or above."""
    return {"rule": rule, "entity": entity, "confidence": confidence}


class BundleDir:
    """A bundle folder samples/<name>/ being rewritten: everything in it but `keep` goes. gzip_names:
    a gzipped file carries its name in the gzip header, as `gzip FILE` writes it (log4j2's rollover
    writes none)."""

    def __init__(self, name, keep=KEEP, gzip_names=False):
        self.name = name
        self.dir = os.path.join(SAMPLES, name)
        self.gzip_names = gzip_names
        self.where = {}   # mark -> ["rel:line", ...] where the marked records start
        self.files = []   # (rel, number of lines) in the order written
        if os.path.isdir(self.dir):
            for e in os.listdir(self.dir):
                if e not in keep:
                    p = os.path.join(self.dir, e)
                    shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
        os.makedirs(self.dir, exist_ok=True)

    def path(self, rel):
        return os.path.join(self.dir, rel)

    def write(self, rel, entries, gz=False):
        """A log file from (lines, mark) per record."""
        lines = []
        for record, mark in entries:
            if mark is not None:
                self.where.setdefault(mark, []).append("%s:%d" % (rel, len(lines) + 1))
            lines += record
        gz_name = os.path.basename(rel)[:-len(".gz")] if gz and self.gzip_names else ""
        write_lines(self.path(rel), lines, gz, gz_name)
        self.files.append((rel, len(lines)))

    def write_split(self, files, records, render):
        """One log over rotated files: files are (rel, until, gz), oldest first, the live one last with
        until None; a record goes to the first file whose `until` it is below."""
        buckets = [[] for _ in files]
        for r in records:
            i = next(i for i, (_, until, _) in enumerate(files) if until is None or r[0] < until)
            buckets[i].append(r)
        for (rel, _, gz), bucket in zip(files, buckets):
            self.write(rel, entries(bucket, render), gz)

    def text(self, rel, content):
        os.makedirs(os.path.dirname(self.path(rel)), exist_ok=True)
        with open(self.path(rel), "w", newline="\n") as f:
            f.write(content)

    def expected(self, findings):
        self.text("EXPECTED.json", json.dumps(findings, indent=2) + "\n")

    def at(self, mark):
        """Where a marked record was written: `rel:line`, several joined by ', '."""
        return ", ".join(self.where[mark])

    # ---- lookups in the files written, for SOURCE.md ----------------------------------------------
    def lines(self, rel):
        return file_lines(self.path(rel))

    def loc(self, rel, *needles, nth=1):
        """'`rel:N`' of the nth line containing every needle (1-based, decompressed); `rel` may be a
        glob that matches one file."""
        if "*" in rel:
            cands = sorted(glob.glob(self.path(rel)))
            assert len(cands) == 1, (rel, cands)
            rel = os.path.relpath(cands[0], self.dir)
        return self.locf(rel, *needles, nth=nth)

    def locf(self, pattern, *needles, nth=1):
        """`loc` over the rotated files of one log: a glob, gzipped rotations first, the live file last."""
        cands = sorted(glob.glob(self.path(pattern)), key=lambda p: (not p.endswith(".gz"), p))
        k = 0
        for full in cands:
            for n, line in enumerate(file_lines(full), 1):
                if all(x in line for x in needles):
                    k += 1
                    if k == nth:
                        return "`%s:%d`" % (os.path.relpath(full, self.dir), n)
        raise AssertionError("not found: %s %r" % (pattern, needles))

    def count(self, rel, *needles):
        return sum(1 for line in self.lines(rel) if all(x in line for x in needles))
