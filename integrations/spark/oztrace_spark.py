#!/usr/bin/env python3
"""oztrace over an archive of support bundles, on Spark.

Each bundle (a tarball, a zip, a log file, or a folder of logs) on any Hadoop filesystem (local,
HDFS, s3a://, ofs://) is one task: its bytes go to the executor, which writes them (a folder as a
tar) to its local disk and runs `oztrace scan --format jsonl` on them, and the findings, their evidence and one row per bundle are written as
the Parquet tables of an oztrace dataset (docs/dataset.md), the same tables `oztrace scan --each
--dataset DIR` writes, so that `oztrace query DIR` and Spark SQL read either. A bundle that cannot
be scanned is a `bundles` row with its `error`, never a failed job.

    spark-submit --files target/release/oztrace integrations/spark/oztrace_spark.py \\
        --out s3a://support/oztrace/2026-12 's3a://support/bundles/2026-12-*/*.tar.gz'

See integrations/spark/README.md for YARN and Kubernetes.
"""

import argparse
import datetime
import io
import json
import os
import signal
import subprocess
import sys
import tarfile
import tempfile

SCHEMA = "oztrace.dataset/v1"

# The tables, as src/dataset.rs declares them: (name, kind) per column of the files, and the
# column the folders partition by (written last, as Spark's partitionBy and polars read it).
TEXT, INT, TIME, TEXT_LIST = "text", "int", "time", "text_list"
UNREADABLE = [("file", TEXT), ("reason", TEXT)]
GAP = [("rule", TEXT), ("missing", TEXT), ("enable", TEXT_LIST), ("hosts", TEXT_LIST)]
COVERAGE = [
    ("rule", TEXT),
    ("status", TEXT),
    ("needs", TEXT_LIST),
    ("missing", TEXT_LIST),
    ("hosts_missing", TEXT_LIST),
]
TABLES = {
    "findings": (
        "rule",
        [
            ("bundle", TEXT),
            ("ticket", TEXT),
            ("family", TEXT),
            ("severity", TEXT),
            ("confidence", TEXT),
            ("reason", TEXT),
            ("entity", TEXT),
            ("related", TEXT_LIST),
            ("summary", TEXT),
            ("first_seen", TIME),
            ("last_seen", TIME),
            ("hosts", TEXT_LIST),
            ("fingerprint", TEXT),
        ],
    ),
    "evidence": (
        None,
        [
            ("bundle", TEXT),
            ("rule", TEXT),
            ("fingerprint", TEXT),
            ("seq", INT),
            ("role", TEXT),
            ("ts", TIME),
            ("host", TEXT),
            ("component", TEXT),
            ("file", TEXT),
            ("line", INT),
            ("text", TEXT),
            ("note", TEXT),
        ],
    ),
    "bundles": (
        "bundle",
        [
            ("path", TEXT),
            ("exit_code", INT),
            ("error", TEXT),
            ("tool_version", TEXT),
            ("files", INT),
            ("bytes", INT),
            ("records", INT),
            ("typed_events", INT),
            ("unrecognized", INT),
            ("unreadable", UNREADABLE),
            ("hosts", TEXT_LIST),
            ("components", TEXT_LIST),
            ("releases", TEXT_LIST),
            ("first_seen", TIME),
            ("last_seen", TIME),
            ("findings", INT),
            ("suppressed", INT),
            ("gaps", GAP),
            ("coverage", COVERAGE),
            ("warnings", TEXT_LIST),
        ],
    ),
}

# Extensions a bundle's id leaves out, longest first (as src/dataset.rs; a test there compares).
ARCHIVE_EXTENSIONS = (
    ".tar.zstd",
    ".tar.bz2",
    ".tar.lz4",
    ".tar.zst",
    ".tar.gz",
    ".tar.xz",
    ".zstd",
    ".tbz2",
    ".tar",
    ".tbz",
    ".tgz",
    ".txz",
    ".zip",
    ".zst",
    ".bz2",
    ".lz4",
    ".gz",
    ".xz",
)
# Single files oztrace reads as archives (tar, alone or compressed, and zip); any other file is
# sent inside a tar under its name.
ARCHIVES = tuple(e for e in ARCHIVE_EXTENSIONS if e.startswith(".t") or e == ".zip")


def path_parts(path):
    """The `/`-separated parts of a path or URI, the last without its archive extension."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts:
        return ["root"]
    last = parts[-1]
    for ext in ARCHIVE_EXTENSIONS:
        if len(last) > len(ext) and last.lower().endswith(ext):
            parts[-1] = last[: -len(ext)]
            break
    return parts


def bundle_ids(paths):
    """A bundle's id: its name without an archive extension; names that clash take as many
    parent folders as tell them apart (the rule of `oztrace scan --dataset`)."""
    parts = [path_parts(p) for p in paths]
    ids = []
    for i, mine in enumerate(parts):
        clashing = [other for j, other in enumerate(parts) if j != i and other[-1] == mine[-1]]
        if mine in clashing:
            raise ValueError(f"{paths[i]} is given twice; name each bundle once")
        depth = next(
            (
                n
                for n in range(1, len(mine) + 1)
                if all(other[len(other) - n :] != mine[len(mine) - n :] for other in clashing)
            ),
            len(mine),
        )
        ids.append("/".join(mine[len(mine) - depth :]))
    return ids


def time_of(text):
    """An RFC 3339 time of oztrace's JSON as an aware datetime (UTC), or None."""
    if text is None:
        return None
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def empty_bundle_row(columns):
    """A bundles row with every value the scan would have given unknown."""
    return {name: ([] if isinstance(kind, list) or kind == TEXT_LIST else None) for name, kind in columns}


def rows_of(bundle, path, tool_version, code, stdout, error=None):
    """The findings, evidence and bundles rows (dicts) of one bundle from `oztrace scan --format
    jsonl -`, as `scan --dataset` makes them from the same document."""
    _, columns = TABLES["bundles"]
    row = empty_bundle_row(columns)
    row.update(bundle=bundle, path=path, exit_code=code, error=error, tool_version=tool_version)
    if error is not None:
        return [], [], row
    findings, evidence, summary = [], [], None
    for line in stdout.splitlines():
        value = json.loads(line)
        if value.get("schema") == "oztrace.summary/v1":
            summary = value
            continue
        findings.append(
            {
                "bundle": bundle,
                "rule": value["rule"],
                "ticket": value["ticket"],
                "family": value["family"],
                "severity": value["severity"],
                "confidence": value["confidence"],
                "reason": value["confidence_reason"],
                "entity": value["entity"],
                "related": value["related"],
                "summary": value["summary"],
                "first_seen": time_of(value["first_seen"]),
                "last_seen": time_of(value["last_seen"]),
                "hosts": value["hosts"],
                "fingerprint": value["fingerprint"],
            }
        )
        for seq, e in enumerate(value["evidence"]):
            evidence.append(
                {
                    "bundle": bundle,
                    "rule": value["rule"],
                    "fingerprint": value["fingerprint"],
                    "seq": seq,
                    "role": e["role"],
                    "ts": time_of(e["ts"]),
                    "host": e["host"],
                    "component": e["component"],
                    "file": e["file"],
                    "line": e["line"],
                    "text": e["text"],
                    "note": e["note"],
                }
            )
    if summary is None:
        raise ValueError("no summary line: the report was cut off")
    inputs = summary["inputs"]
    row.update(
        files=inputs["files"],
        bytes=inputs["bytes"],
        records=inputs["records"],
        typed_events=inputs["typed_events"],
        unrecognized=inputs["unrecognized"],
        unreadable=[
            {"file": u.get("file", u.get("path")), "reason": u["reason"]}
            for u in inputs["unreadable"]
        ],
        hosts=inputs["hosts"],
        components=inputs["components"],
        releases=inputs["releases"],
        first_seen=time_of(inputs["first_seen"]),
        last_seen=time_of(inputs["last_seen"]),
        findings=len(findings),
        suppressed=summary.get("suppressed", 0),
        gaps=[
            {"rule": g["rule"], "missing": g["missing"], "enable": g["enable"], "hosts": g["hosts"]}
            for g in summary["gaps"]
        ],
        coverage=[{name: c[name] for name, _ in COVERAGE} for c in summary["coverage"]],
        # Present only when there are any.
        warnings=summary.get("warnings", []),
    )
    return findings, evidence, row


def write_bundle(folder, name, files, is_folder):
    """Writes the bundle into `folder` as one file oztrace reads: an archive as it is, else a
    tar of the file (under its name) or of the folder's files (under their paths in it), in
    name order. Returns the file's name."""
    if not is_folder and name.lower().endswith(ARCHIVES):
        with open(os.path.join(folder, name), "wb") as out:
            out.write(files[0][1])
        return name
    archive = "bundle.tar"
    with tarfile.open(os.path.join(folder, archive), mode="w") as tar:
        for member, content in sorted(files):
            info = tarfile.TarInfo(member)
            info.size = len(content)
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(content))
    return archive


def scan(binary, folder, archive, scan_args, timeout):
    """Runs `oztrace scan --format jsonl ARCHIVE` in `folder`: (exit code, stdout, error or
    None). Exit 0, 1 (findings), 3 (unreadable files) and 4 (an input failed inside oztrace) come
    with a whole report; anything else, a signal or a timeout is the bundle's error."""
    command = [binary, "scan", "--format", "jsonl", *scan_args, archive]
    try:
        done = subprocess.run(command, cwd=folder, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", f"oztrace did not finish within {timeout} s"
    except OSError as e:
        return None, "", f"cannot run {binary}: {e}"
    stderr = done.stderr.decode("utf-8", "replace").strip().splitlines()
    last = stderr[-1] if stderr else ""
    if done.returncode < 0:
        name = signal.Signals(-done.returncode).name
        return done.returncode, "", f"oztrace was killed by {name}; {last}".rstrip("; ")
    if done.returncode not in (0, 1, 3, 4):
        return done.returncode, "", f"oztrace exited with {done.returncode}: {last}"
    return done.returncode, done.stdout.decode("utf-8"), None


def scan_bundle(bundle, files, binary, scan_args, timeout, tool_version):
    """One bundle's rows; whatever goes wrong is its error row. The bundle is written to a file
    on the executor's local disk first: oztrace reads OM audit logs in two passes (the second
    only for the keys a rule anchors), which a file allows and standard input does not."""
    try:
        if len(files) != bundle["count"]:
            raise OSError(f"{bundle['count'] - len(files)} of its {bundle['count']} files could not be read")
        with tempfile.TemporaryDirectory(prefix="oztrace-") as folder:
            archive = write_bundle(folder, bundle["name"], files, bundle["folder"])
            code, stdout, error = scan(binary, folder, archive, scan_args, timeout)
        return rows_of(bundle["id"], bundle["path"], tool_version, code, stdout, error)
    except Exception as e:  # noqa: BLE001 - a bundle's failure is its row, never the job's
        return rows_of(bundle["id"], bundle["path"], tool_version, None, "", f"{type(e).__name__}: {e}")


def spark_type(kind):
    from pyspark.sql import types as T

    if isinstance(kind, list):
        return T.ArrayType(
            T.StructType([T.StructField(name, spark_type(k), True) for name, k in kind]), True
        )
    return {
        TEXT: T.StringType(),
        INT: T.LongType(),
        TIME: T.TimestampType(),
        TEXT_LIST: T.ArrayType(T.StringType(), True),
    }[kind]


def spark_schema(table):
    """A table's Spark schema: its file columns, then its partition column."""
    from pyspark.sql import types as T

    partition, columns = TABLES[table]
    fields = [T.StructField(name, spark_type(kind), True) for name, kind in columns]
    if partition:
        fields.append(T.StructField(partition, T.StringType(), True))
    return T.StructType(fields)


def as_tuple(table, row):
    partition, columns = TABLES[table]
    names = [name for name, _ in columns] + ([partition] if partition else [])
    return tuple(row[name] for name in names)


def escape_glob(path):
    """A path Hadoop reads literally (its glob characters escaped)."""
    return "".join("\\" + c if c in "\\{}[]*?" else c for c in path)


def hidden(member):
    """Whether Spark's file sources skip a file of a folder bundle: a name starting with `.` or
    `_` (Hadoop's hidden files), in the file's path inside the bundle."""
    return any(part.startswith((".", "_")) for part in member.split("/")) or member.endswith(
        "._COPYING_"
    )


def list_bundles(spark, patterns, max_bytes):
    """Each path or glob's matches, in name order, as bundles: their files (URI, path in the
    bundle, size) or, for a pattern that matches nothing or a bundle too large, the error."""
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    bundles = []
    for pattern in patterns:
        hadoop_path = jvm.org.apache.hadoop.fs.Path(pattern)
        fs = hadoop_path.getFileSystem(conf)
        matches = fs.globStatus(hadoop_path) or []
        if len(matches) == 0:
            bundles.append({"path": pattern, "folder": False, "files": [], "error": "no such file or directory"})
            continue
        for status in sorted(matches, key=lambda s: s.getPath().toString()):
            root = status.getPath()
            bundle = {"path": root.toString(), "folder": status.isDirectory(), "files": [], "error": None}
            if status.isDirectory():
                prefix = root.toUri().getPath().rstrip("/") + "/"
                listing = fs.listFiles(root, True)
                while listing.hasNext():
                    f = listing.next()
                    member = f.getPath().toUri().getPath()[len(prefix) :]
                    if not hidden(member):
                        bundle["files"].append((f.getPath().toString(), member, f.getLen()))
            else:
                bundle["files"].append((root.toString(), root.getName(), status.getLen()))
            size = sum(f[2] for f in bundle["files"])
            if size > max_bytes:
                bundle["error"] = f"the bundle holds {size} bytes, more than --max-bundle-bytes {max_bytes}"
            bundles.append(bundle)
    for bundle, bundle_id in zip(bundles, bundle_ids([b["path"] for b in bundles])):
        bundle["id"] = bundle_id
        bundle["name"] = bundle["path"].rstrip("/").rsplit("/", 1)[-1]
    return bundles


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bundles", nargs="+", help="bundle paths or globs (any Hadoop filesystem)")
    parser.add_argument("--out", required=True, help="the dataset folder to write (must not exist)")
    parser.add_argument(
        "--oztrace",
        default="oztrace",
        help="the oztrace binary: the name it was shipped under with --files (default), or a "
        "local path, which the job ships itself",
    )
    parser.add_argument(
        "--scan-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="an argument for `oztrace scan` (repeatable): --scan-arg=--tz=Europe/Berlin",
    )
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per bundle (default 3600)")
    parser.add_argument(
        "--max-bundle-bytes",
        type=int,
        default=1 << 30,
        help="larger bundles are error rows, not read (a task holds its bundle in memory; "
        "default 1 GiB)",
    )
    args = parser.parse_args(argv)

    from pyspark import SparkFiles, StorageLevel
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("oztrace").getOrCreate()
    sc = spark.sparkContext
    # Times as oztrace writes them (UTC, milliseconds); partition values stay text.
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    spark.conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MILLIS")
    spark.conf.set("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
    # Listing the bundles' files: as many tasks as cores, not one per file (the default caps at
    # 10000 tasks, each costing more than listing a file does).
    spark.conf.set("spark.sql.sources.parallelPartitionDiscovery.parallelism", str(sc.defaultParallelism))

    out = sc._jvm.org.apache.hadoop.fs.Path(args.out)
    out_fs = out.getFileSystem(sc._jsc.hadoopConfiguration())
    if out_fs.exists(out) and len(out_fs.listStatus(out)) > 0:
        parser.error(f"--out {args.out} exists and is not empty; a dataset is written into a new folder")

    name = os.path.basename(args.oztrace)
    if os.path.isfile(args.oztrace) and not os.path.isfile(SparkFiles.get(name)):
        sc.addFile(os.path.abspath(args.oztrace))
    driver_binary = SparkFiles.get(name)
    version = subprocess.run([driver_binary, "--version"], capture_output=True, text=True, check=True)
    tool_version = version.stdout.split()[-1]
    # A task runs oztrace on the cores Spark gives it.
    scan_args = ["-j", sc.getConf().get("spark.task.cpus", "1"), *args.scan_arg]

    bundles = list_bundles(spark, args.bundles, args.max_bundle_bytes)
    readable = [i for i, b in enumerate(bundles) if b["error"] is None]
    driver_rows = [
        rows_of(b["id"], b["path"], tool_version, None, "", b["error"])
        for b in bundles
        if b["error"] is not None
    ]
    described = sc.broadcast(
        {
            i: {**{k: bundles[i][k] for k in ("id", "path", "name", "folder")}, "count": len(bundles[i]["files"])}
            for i in readable
        }
    )
    files = [(uri, i, member) for i in readable for uri, member, _ in bundles[i]["files"]]
    by_uri = sc.broadcast({uri: (i, member) for uri, i, member in files})

    def task(partition):
        binary = SparkFiles.get(name)
        if not os.access(binary, os.X_OK):
            os.chmod(binary, 0o755)
        for index, contents in partition:
            contents = [c for c in contents if c is not None]
            yield scan_bundle(described.value[index], contents, binary, scan_args, args.timeout, tool_version)

    keyed = sc.emptyRDD()
    if files:
        content = spark.read.format("binaryFile").load([escape_glob(uri) for uri, _, _ in files])
        keyed = (
            content.select("path", "content")
            .rdd.filter(lambda r: r.path in by_uri.value)
            .map(lambda r: (by_uri.value[r.path][0], (by_uri.value[r.path][1], bytes(r.content))))
        )
    # Every readable bundle gets its task, an empty folder too: one bundle per partition of the
    # grouped RDD (the markers' own partitions do not matter, so there are as many as cores).
    slots = max(1, len(readable))
    order = {index: slot for slot, index in enumerate(readable)}
    markers = sc.parallelize([(i, None) for i in readable], sc.defaultParallelism)
    results = (
        keyed.union(markers)
        .groupByKey(numPartitions=slots, partitionFunc=lambda index: order[index])
        .mapPartitions(task)
        .union(sc.parallelize(driver_rows, 1))
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    # Every bundle is scanned once, here, one task each; the tables are then written from the
    # kept rows by a few tasks, not by one per bundle (coalesce after the rows are kept, so that
    # it cannot fold the scanning tasks together).
    total = results.map(lambda r: (1, int(r[2]["error"] is not None), len(r[0]))).reduce(
        lambda a, b: tuple(x + y for x, y in zip(a, b))
    )
    kept = results.coalesce(max(sc.defaultParallelism, len(bundles) // 1000))

    def frame(table, rows):
        return spark.createDataFrame(rows.map(lambda row: as_tuple(table, row)), spark_schema(table))

    findings = frame("findings", kept.flatMap(lambda r: r[0]))
    evidence = frame("evidence", kept.flatMap(lambda r: r[1]))
    rows = frame("bundles", kept.map(lambda r: r[2]))
    root = args.out.rstrip("/")
    findings.repartition("rule").write.mode("errorifexists").partitionBy("rule").parquet(f"{root}/findings")
    evidence.coalesce(max(1, len(bundles) // 1000)).write.mode("errorifexists").parquet(f"{root}/evidence")
    rows.write.mode("errorifexists").partitionBy("bundle").parquet(f"{root}/bundles")

    # The marker last: a folder without it is not a (whole) dataset.
    marker = json.dumps(
        {
            "schema": SCHEMA,
            "tables": ["findings", "evidence", "bundles"],
            "tool": {"name": "oztrace", "version": tool_version},
        },
        separators=(",", ":"),
    )
    stream = out_fs.create(sc._jvm.org.apache.hadoop.fs.Path(f"{root}/dataset.json"), False)
    stream.write(bytearray((marker + "\n").encode()))
    stream.close()

    print(f"oztrace_spark: {total[0]} bundles, {total[1]} failed; {total[2]} findings -> {args.out}", file=sys.stderr)
    results.unpersist()
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
