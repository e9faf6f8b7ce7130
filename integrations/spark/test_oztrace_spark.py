"""The Spark job against `oztrace scan --each --dataset` on the sample bundles.

The job runs for real (`spark-submit --master local[2]`, the binary shipped with --files); its
tables must equal the ones oztrace writes for the same bundles, column types included, and each
engine must read the other's dataset. Run after a default-features build of the binary (the
path in $OZTRACE, else target/debug/oztrace): `.ci/run` does.
"""

import functools
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import oztrace_spark  # noqa: E402

BINARY = Path(os.environ.get("OZTRACE", ROOT / "target" / "debug" / "oztrace"))
SAMPLES = sorted(p for p in (ROOT / "samples").iterdir() if (p / "EXPECTED.json").is_file())
# A folder bundle the job tars itself (no hidden files in it: Spark's file sources skip those).
FOLDER_SAMPLE = "HDDS-17219-bug-follower-abort-race"
# A small, short-lived JVM on a 2-core CI machine: a few shuffle partitions instead of 200, the
# serial collector and C1 only (a test's few seconds of work never pay back C2's compiling).
JVM_OPTIONS = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1"
SMALL = {
    "spark.ui.enabled": "false",
    "spark.sql.shuffle.partitions": "2",
    "spark.driver.memory": "1g",
    "spark.driver.extraJavaOptions": JVM_OPTIONS,
}


def scanned(sample):
    """A sample's findings as `oztrace scan` reports them with every rule (a bug signature's
    bundle may also show its containers' health, which its EXPECTED.json leaves out)."""
    done = subprocess.run([str(BINARY), "scan", "--format", "json", str(sample)], capture_output=True, text=True)
    findings = json.loads(done.stdout)["findings"]
    # The ground truth holds: every finding EXPECTED.json lists is among them.
    found = {(f["rule"], f["entity"]) for f in findings}
    expected = {(e["rule"], e["entity"]) for e in json.loads((sample / "EXPECTED.json").read_text())}
    assert expected <= found, sample.name
    return findings


@functools.cache
def expected_rules():
    """Findings per rule over the bundles: every sample once, FOLDER_SAMPLE twice."""
    counts = {}
    for sample in [*SAMPLES, ROOT / "samples" / FOLDER_SAMPLE]:
        for finding in scanned(sample):
            counts[finding["rule"]] = counts.get(finding["rule"], 0) + 1
    return counts


def oztrace(*args, check=None):
    done = subprocess.run([str(BINARY), *map(str, args)], capture_output=True, text=True)
    if check is not None:
        assert done.returncode in check, done.stderr
    return done


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    """Every sample as a tarball, one gzipped, and one sample as a folder; a folder with a space
    in its name holds them."""
    assert BINARY.is_file(), f"{BINARY}: build oztrace first (cargo build), or set OZTRACE"
    root = tmp_path_factory.mktemp("bundles") / "fleet archive"
    root.mkdir()
    paths = []
    for i, sample in enumerate(SAMPLES):
        suffix = ".tar.gz" if i == 0 else ".tar"
        target = root / f"{sample.name}{suffix}"
        with tarfile.open(target, "w:gz" if i == 0 else "w") as tar:
            for item in sorted(sample.iterdir()):
                tar.add(item, arcname=item.name)
        paths.append(target)
    folder = root / "folders" / FOLDER_SAMPLE
    shutil.copytree(ROOT / "samples" / FOLDER_SAMPLE, folder)
    assert not any(p.name.startswith((".", "_")) for p in folder.rglob("*"))
    # The same sample as a tarball and as a folder: their ids take a parent folder each.
    paths.append(folder)
    return paths


@pytest.fixture(scope="module")
def datasets(bundles, tmp_path_factory):
    out = tmp_path_factory.mktemp("datasets")
    local, spark = out / "local", out / "spark"
    done = oztrace("scan", "--each", *bundles, "--format", "jsonl", "--dataset", local, check=(1,))
    assert (local / "dataset.json").is_file(), done.stderr
    missing = bundles[0].parent / "no-such-bundle-*.tar.gz"
    job = subprocess.run(
        [
            "spark-submit",
            "--master",
            "local[2]",
            *(arg for key, value in SMALL.items() for arg in ("--conf", f"{key}={value}")),
            "--files",
            str(BINARY),
            str(HERE / "oztrace_spark.py"),
            "--out",
            str(spark),
            *map(str, bundles),
            str(missing),
        ],
        capture_output=True,
        text=True,
    )
    assert job.returncode == 0, job.stderr[-5000:]
    # spark-submit passes the driver's standard error on to its standard output.
    output = (job.stdout + job.stderr).splitlines()
    total = [line for line in output if line.startswith("oztrace_spark:")]
    # The pattern that matches nothing is the one failed bundle.
    findings = sum(expected_rules().values())
    assert total == [f"oztrace_spark: {len(bundles) + 1} bundles, 1 failed; {findings} findings -> {spark}"]
    return local, spark


@pytest.fixture(scope="module")
def reader():
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master("local[1]").appName("oztrace-test")
    for key, value in SMALL.items():
        builder = builder.config(key, value)
    spark = (
        builder.config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
        .getOrCreate()
    )
    yield spark
    spark.stop()


def table(spark, root, name):
    """A table as Spark reads it: its schema and its rows (as sorted JSON lines)."""
    frame = spark.read.option("basePath", str(root / name)).parquet(str(root / name))
    rows = [json.dumps(r.asDict(recursive=True), sort_keys=True, default=str) for r in frame.collect()]
    return frame.schema, sorted(rows)


def test_the_job_writes_the_tables_scan_dataset_writes(datasets, reader, bundles):
    local, spark = datasets
    for name in ("findings", "evidence"):
        local_schema, local_rows = table(reader, local, name)
        spark_schema, spark_rows = table(reader, spark, name)
        assert [(f.name, f.dataType) for f in spark_schema] == [
            (f.name, f.dataType) for f in local_schema
        ], name
        assert spark_rows == local_rows, name
        assert len(local_rows) > 0, name
    # Bundles: equal but for `path` (a URI in Spark) and the pattern that matched nothing.
    local_schema, local_rows = table(reader, local, "bundles")
    spark_schema, spark_rows = table(reader, spark, "bundles")
    assert [(f.name, f.dataType) for f in spark_schema] == [(f.name, f.dataType) for f in local_schema]

    def by_bundle(rows):
        return {row["bundle"]: row for row in map(json.loads, rows)}

    local_rows, spark_rows = by_bundle(local_rows), by_bundle(spark_rows)
    failed = spark_rows.pop("no-such-bundle-*")
    assert failed["error"] == "no such file or directory" and failed["files"] is None
    assert set(spark_rows) == set(local_rows)
    assert len(local_rows) == len(bundles)
    for bundle, row in local_rows.items():
        theirs = dict(spark_rows[bundle])
        # Hadoop qualifies the path it was given.
        assert theirs.pop("path") == "file:" + row.pop("path").rstrip("/"), bundle
        assert theirs == row, bundle
        assert row["error"] is None and row["files"] > 0, bundle
    # The sample given twice (tarball and folder) is two bundles told apart by their folders.
    assert f"folders/{FOLDER_SAMPLE}" in local_rows and f"fleet archive/{FOLDER_SAMPLE}" in local_rows


def test_each_engine_reads_the_other_dataset(datasets, reader):
    local, spark = datasets
    query = (
        "SELECT rule, count(*) AS findings, count(DISTINCT bundle) AS bundles "
        "FROM findings GROUP BY rule ORDER BY rule"
    )
    answers = [oztrace("query", root, query, "--format", "json", check=(0,)).stdout for root in (local, spark)]
    expected = expected_rules()
    assert answers[0] == answers[1] and answers[0].count("\n") == len(expected)
    reader.read.parquet(str(spark / "findings")).createOrReplaceTempView("spark_findings")
    reader.read.parquet(str(local / "findings")).createOrReplaceTempView("local_findings")
    counts = [
        reader.sql(f"SELECT rule, count(*) AS n FROM {view} GROUP BY rule ORDER BY rule").collect()
        for view in ("spark_findings", "local_findings")
    ]
    assert counts[0] == counts[1]
    assert {row["rule"]: row["n"] for row in counts[0]} == expected
    # Both families are there: the bug signatures and the container-health rules.
    families = reader.sql("SELECT DISTINCT family FROM spark_findings ORDER BY family").collect()
    assert [row["family"] for row in families] == ["health", "signature"]


def test_bundle_ids_are_those_of_oztrace():
    assert oztrace_spark.bundle_ids(
        ["t/2026/a/bundle.tar.gz", "t/2027/a/bundle.tgz", "t/2027/b/bundle", "t/other"]
    ) == ["2026/a/bundle", "2027/a/bundle", "b/bundle", "other"]
    assert oztrace_spark.bundle_ids(["s3a://fleet/2026/SR-7.tar.zst", "file:/data/SR-8.ZIP"]) == ["SR-7", "SR-8"]
    with pytest.raises(ValueError):
        oztrace_spark.bundle_ids(["a/x", "a/x/"])


def test_a_bundle_oztrace_cannot_scan_is_a_row_with_its_error(tmp_path):
    bundle = {"id": "b", "path": "hdfs:///b.tar", "name": "b.tar", "folder": False, "count": 1}
    files = [("b.tar", b"")]
    killed = tmp_path / "killed"
    killed.write_text("#!/bin/sh\nkill -9 $$\n")
    failing = tmp_path / "failing"
    failing.write_text("#!/bin/sh\necho 'oztrace: --set x: expected KEY=VALUE' >&2\nexit 2\n")
    for script in (killed, failing):
        script.chmod(0o755)
    cases = [
        (killed, "oztrace was killed by SIGKILL"),
        (failing, "oztrace exited with 2: oztrace: --set x: expected KEY=VALUE"),
        (tmp_path / "absent", "cannot run"),
    ]
    for binary, error in cases:
        findings, evidence, row = oztrace_spark.scan_bundle(bundle, files, str(binary), [], 60, "0.1.0")
        assert findings == [] and evidence == []
        assert row["error"].startswith(error), row
        assert row["bundle"] == "b" and row["files"] is None and row["unreadable"] == []
    # Fewer files than listed (one vanished): the bundle is not scanned half.
    short = dict(bundle, count=2)
    _, _, row = oztrace_spark.scan_bundle(short, files, str(BINARY), [], 60, "0.1.0")
    assert row["error"] == "OSError: 1 of its 2 files could not be read"


def test_rows_are_made_from_oztrace_jsonl(tmp_path):
    sample = ROOT / "samples" / "HDDS-17400-bug-stale-open-replica"
    archive = tmp_path / "s.tar"
    with tarfile.open(archive, "w") as tar:
        for item in sorted(sample.iterdir()):
            tar.add(item, arcname=item.name)
    code, stdout, error = oztrace_spark.scan(str(BINARY), str(tmp_path), "s.tar", [], 60)
    assert (code, error) == (1, None)
    findings, evidence, row = oztrace_spark.rows_of("s", "file:/s.tar", "0.1.0", code, stdout)
    expected = json.loads((sample / "EXPECTED.json").read_text())
    assert [(f["rule"], f["entity"]) for f in findings] == [(e["rule"], e["entity"]) for e in expected]
    assert len(evidence) == len(json.loads(oztrace("scan", "--format", "json", sample).stdout)["findings"][0]["evidence"])
    assert [e["seq"] for e in evidence] == list(range(len(evidence)))
    assert row["findings"] == 1 and row["exit_code"] == 1 and row["files"] == 20
    assert row["first_seen"].tzinfo is not None and "scm1" in row["hosts"]
