#!/usr/bin/env python3
"""Reshapes bug bundles into two other ways clusters hand over their logs (issue 18).

The log lines stay those of the source bundle (made by its own generator from the Ozone source);
only how they reach the operator changes, so each reshaped bundle must give the same findings:

- `HDDS-16825-bug-writer-fails-after-autocommit-k8s-pods`: its three OMs as pods `om-0..2` of an
  `om` StatefulSet (`kubectl logs --prefix --timestamps`, audit files via `kubectl cp`).
- `HDDS-17269-bug-info-k8s-pods` from `HDDS-17269-bug-info`: the cluster as Ozone's Kubernetes
  definitions run it (`hadoop-ozone/dist/src/main/k8s/definitions/ozone/`, SCM HA overlay):
  StatefulSet pods `scm-0..2` and `datanode-0..3` behind headless services, so the datanodes print
  SCM addresses `scm-0.scm.default.svc.cluster.local:9861/...` and SCM prints datanodes as
  `uuid(datanode-0.datanode.default.svc.cluster.local/10.244.…)`; SCM node ids `scm0..scm2`
  prefix SCM thread names (scm-ha.yaml). The service logs are the containers' stdout in the
  shipped console layout `%d{ISO8601} [%t] %p %c{2}: %m%n` (log4j.properties `console` appender),
  taken with `kubectl logs --prefix --timestamps` (SCM pods, one after another in one file) and
  `kubectl logs <pod> --timestamps` (one file per datanode); the log4j2 audit and container logs,
  which go to files under `/var/log/hadoop` and not to stdout, copied out with `kubectl cp`.
- `HDDS-17400-bug-stale-open-replica-vector-export` from `HDDS-17400-bug-stale-open-replica`: a
  Vector agent on each host tails `/var/log/ozone/*.log` (`file` source: `message`, `file`,
  `host`, `source_type`, `timestamp` = when Vector read the line) into an aggregator whose file
  sink writes JSON lines (`encoding.codec = "json"`, keys sorted); stack traces stay one event per
  physical line (no multiline transform). Rotated files were read under their live name before
  they rotated. The bundle's `conf/ozone-site.xml` is attached as the operator would.

Deterministic (Python standard library only, gzip with mtime=0): `python3 samples/gen/reshape.py`
rewrites its bundles; their REPLAY files are kept.
"""
import gzip
import io
import json
import os
import re
import shutil
from datetime import datetime, timedelta, timezone

SAMPLES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) ")
FILE_LAYOUT = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) \[(.*?)\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) ([\w.$]+): (.*)$"
)


def read_text(path):
    data = open(path, "rb").read()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    return data.decode("utf-8")


def write_text(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = text.encode("utf-8")
    if path.endswith(".gz"):
        buf = io.BytesIO()
        with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, filename="") as gz:
            gz.write(data)
        data = buf.getvalue()
    with open(path, "wb") as f:
        f.write(data)


def log_time(header):
    """The log4j time of a header line (the samples run in UTC)."""
    return datetime.strptime(header, "%Y-%m-%d %H:%M:%S,%f").replace(tzinfo=timezone.utc)


def timed_lines(text):
    """Each line with the time of the record it belongs to (continuation lines: their header's)."""
    current = None
    for line in text.split("\n"):
        if line == "":
            continue
        m = HEADER.match(line)
        if m:
            current = log_time(m.group(1))
        yield current, line


def rfc3339_nano(t):
    """kubelet RFC3339NanoFixed (always nine digits)."""
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}" + "000Z"


def rfc3339_micro(t):
    """Vector's AutoSi form for a microsecond time."""
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}Z"


def console(line):
    """The file layout's header with the logger as `%c{2}` (the console appender)."""
    m = FILE_LAYOUT.match(line)
    if not m:
        return line
    parts = m.group(4).split(".")
    short = ".".join(parts[-2:])
    return f"{m.group(1)} [{m.group(2)}] {m.group(3)} {short}: {m.group(5)}"


def copy_meta(src, dst, source_note):
    for name in ("EXPECTED.json", "REPLAY"):
        if os.path.exists(os.path.join(src, name)) and not os.path.exists(os.path.join(dst, name)):
            shutil.copyfile(os.path.join(src, name), os.path.join(dst, name))
    with open(os.path.join(dst, "SOURCE.md"), "w") as f:
        f.write(source_note)


def fresh(dst):
    keep = {}
    if os.path.exists(os.path.join(dst, "REPLAY")):
        keep["REPLAY"] = open(os.path.join(dst, "REPLAY")).read()
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    for name, text in keep.items():
        with open(os.path.join(dst, name), "w") as f:
            f.write(text)


# ------------------------------------------------------------------------------------------------
# Kubernetes pods

# Per source bundle: its hosts' pods, the pod IPs, the SCM node ids the overlay renames.
K8S = {
    "HDDS-17269-bug-info": {
        "dst": "HDDS-17269-bug-info-k8s-pods",
        "pods": {"scm1": "scm-0", "scm2": "scm-1", "scm3": "scm-2",
                 "dn1": "datanode-0", "dn2": "datanode-1", "dn3": "datanode-2", "dn4": "datanode-3"},
        # One per pod, as the CNI hands them out.
        "ips": {"10.20.0.11": "10.244.1.12", "10.20.0.12": "10.244.2.9", "10.20.0.13": "10.244.3.15",
                "10.20.0.21": "10.244.1.31",
                "10.20.1.11": "10.244.1.7", "10.20.1.12": "10.244.2.7", "10.20.1.13": "10.244.3.7",
                "10.20.1.14": "10.244.4.7"},
        # SCM node ids (HddsUtils.threadNamePrefix): scm0..scm2 in the SCM HA overlay.
        "threads": {"[scm1-": "[scm0-", "[scm2-": "[scm1-", "[scm3-": "[scm2-"},
    },
    "HDDS-16825-bug-writer-fails-after-autocommit": {
        "dst": "HDDS-16825-bug-writer-fails-after-autocommit-k8s-pods",
        # An `om` StatefulSet of three; the OM node ids (`ozone.om.nodes.omservice`) stay om1..om3.
        "pods": {"om1": "om-0", "om2": "om-1", "om3": "om-2"},
        "ips": {},
        "threads": {},
    },
}
SERVICE = {"scm": "scm", "dn": "datanode", "om": "om"}
CONTAINER = {"scm": "scm", "dn": "datanode", "om": "om"}


def role_of(host):
    return re.match(r"[a-z]+", host).group(0)


def k8s_rename(text, spec):
    for host, pod in spec["pods"].items():
        text = text.replace(f"{host}.example.com", f"{pod}.{SERVICE[role_of(host)]}.default.svc.cluster.local")
    text = text.replace("recon.example.com", "recon-0.recon.default.svc.cluster.local")
    for old, new in spec["ips"].items():
        text = text.replace(old, new)
    for old, new in spec["threads"].items():
        text = text.replace(old, new)
    return text


def k8s_pods(src_name, spec):
    src = os.path.join(SAMPLES, src_name)
    dst = os.path.join(SAMPLES, spec["dst"])
    fresh(dst)
    prefixed = {}
    for folder in sorted(os.listdir(src)):
        if folder == "conf":
            shutil.copytree(os.path.join(src, folder), os.path.join(dst, folder))
            for root, _, names in os.walk(os.path.join(dst, folder)):
                for name in names:
                    path = os.path.join(root, name)
                    write_text(path, k8s_rename(read_text(path), spec))
            continue
        if folder not in spec["pods"]:
            continue
        pod = spec["pods"][folder]
        role = role_of(folder)
        for name in sorted(os.listdir(os.path.join(src, folder))):
            text = k8s_rename(read_text(os.path.join(src, folder, name)), spec)
            if name.startswith("ozone-hadoop-"):
                # Container stdout through the console appender, stamped by the kubelet (the
                # runtime receives each line a few hundred microseconds after log4j wrote it).
                out = []
                for i, (t, line) in enumerate(timed_lines(text)):
                    stamp = rfc3339_nano(t + timedelta(microseconds=180 + 3 * (i % 50)))
                    out.append(f"{stamp} {console(line)}")
                if role == "dn":
                    write_text(os.path.join(dst, f"{pod}.log"), "\n".join(out) + "\n")
                else:
                    prefix = f"[pod/{pod}/{CONTAINER[role]}] "
                    prefixed.setdefault(role, []).extend(prefix + line for line in out)
            else:
                # log4j2 files under /var/log/hadoop, named after the pod (`${hostName}`).
                renamed = name.replace(f"-{folder}", f"-{pod}")
                write_text(os.path.join(dst, pod, "var/log/hadoop", renamed), text + ("" if text.endswith("\n") else "\n"))
    for role, lines in prefixed.items():
        write_text(os.path.join(dst, f"kubectl-logs-{SERVICE[role]}.txt"), "\n".join(lines) + "\n")
    copy_meta(src, dst, K8S_SOURCE_MD[src_name])


K8S_SOURCE_MD = {}
K8S_SOURCE_MD["HDDS-17269-bug-info"] = """# HDDS-17269-bug-info-k8s-pods: the HDDS-17269-bug-info cluster as Kubernetes pods

Generated by `samples/gen/reshape.py` from `HDDS-17269-bug-info` (read its SOURCE.md for the story,
the identities and the evidence chain: every log line is that bundle's, only hosts and the way the
logs were taken change). Same findings: `dropped-actions` on
`datanode:4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27`, `possible`.

## Cluster
Ozone's own Kubernetes definitions (`hadoop-ozone/dist/src/main/k8s/definitions/ozone/`, SCM HA
overlay `definitions/scm-ha.yaml`; ../shared/ozone-logs/shippers.md section 9.1): StatefulSets `scm`
(pods `scm-0..2`, SCM node ids `scm0..scm2`, so SCM threads are `scm0-ReplicationMonitor` …) and
`datanode` (pods `datanode-0..3`), headless services, namespace `default`. Host names in the lines
are the pods' FQDNs (`scm-0.scm.default.svc.cluster.local`, `datanode-1.datanode.default.svc.cluster.local`),
IPs are pod IPs (`10.244.x.y`). dn1..dn4 of the source bundle are `datanode-0..3`, scm1..3 are `scm-0..2`.

## Files
- `kubectl-logs-scm.txt`: `kubectl logs --prefix --timestamps` of the three SCM pods (container
  `scm`), one pod after the other (kubectl reads the sources one by one without `-f`): every
  physical line is `[pod/<pod>/scm] <RFC3339NanoFixed> <line>` (kubectl `pkg/cmd/logs/logs.go`;
  kubelet `--timestamps`).
- `datanode-N.log`: `kubectl logs datanode-N --timestamps > datanode-N.log`.
- The stdout lines are in the shipped console layout `%d{ISO8601} [%t] %p %c{2}: %m%n`
  (`hadoop-ozone/dist/src/shell/conf/log4j.properties`, appender `console`): loggers are
  abbreviated (`statemachine.EndpointStateMachine`, `node.SCMNodeManager`).
- `<pod>/var/log/hadoop/{scm-audit,dn-audit,dn-container}-<pod>.log` (and scm-0's audit rotation
  `scm-audit-scm-0-2026-09-14-1.log.gz`): the log4j2 files, which never reach stdout, copied with
  `kubectl cp <pod>:/var/log/hadoop …`; `${hostName}` is the pod name.

## What it checks
Hosts of a StatefulSet stay apart (`scm-0`, `scm-1`, `scm-2`; `datanode-0..3`): the datanode's endpoint
to `scm-0` is matched with scm-0's own audit and main-log lines, not merged with scm-1's and scm-2's.
"""


# ------------------------------------------------------------------------------------------------
# Vector JSON-lines export

VEC_SRC = "HDDS-17400-bug-stale-open-replica"
VEC_DST = "HDDS-17400-bug-stale-open-replica-vector-export"
ROTATION = re.compile(r"^(.*?)(?:-\d{4}-\d\d-\d\d-\d+\.log\.gz|\.log-\d+\.gz)$")


def live_name(name):
    """`scm-audit-scm2-2026-09-13-1.log.gz` → `scm-audit-scm2.log`; `x.log-1.gz` → `x.log`."""
    m = ROTATION.match(name)
    return (m.group(1) + ".log") if m else name


def vector_export():
    src = os.path.join(SAMPLES, VEC_SRC)
    dst = os.path.join(SAMPLES, VEC_DST)
    fresh(dst)
    events = []
    seq = 0
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path) or folder == "conf":
            continue
        names = sorted(os.listdir(path))
        # Rotated files first: they hold the older lines of the same stream.
        names.sort(key=lambda n: (live_name(n), n == live_name(n)))
        for name in names:
            file = f"/var/log/ozone/{live_name(name)}"
            for i, (t, line) in enumerate(timed_lines(read_text(os.path.join(path, name)))):
                read_at = t + timedelta(microseconds=650 + 7 * (i % 100))
                events.append((read_at, seq, {
                    "file": file,
                    "host": folder,
                    "message": line,
                    "source_type": "file",
                    "timestamp": rfc3339_micro(read_at),
                }))
                seq += 1
    # The aggregator writes events as they arrive from the agents: in read-time order.
    events.sort(key=lambda e: (e[0], e[1]))
    lines = [json.dumps(e[2], sort_keys=True, separators=(",", ":"), ensure_ascii=False) for e in events]
    write_text(os.path.join(dst, "vector-export.jsonl"), "\n".join(lines) + "\n")
    shutil.copytree(os.path.join(src, "conf"), os.path.join(dst, "conf"))
    copy_meta(src, dst, VEC_SOURCE_MD)


VEC_SOURCE_MD = """# HDDS-17400-bug-stale-open-replica-vector-export: the same cluster's logs as a Vector export

Generated by `samples/gen/reshape.py` from `HDDS-17400-bug-stale-open-replica` (read its SOURCE.md for
the story, identities and evidence chain: every log line is that bundle's). Same findings:
`resurrected-container` on `container:3107`.

## Pipeline (../shared/ozone-logs/shippers.md section 3)
A Vector agent on every host runs the `file` source on `/var/log/ozone/*.log` (the service logs, the
SCM audit and the datanodes' dn-container logs) and forwards to an aggregator whose `file` sink writes
newline-delimited JSON (`encoding.codec = "json"`). Each event is
`{"file":…,"host":…,"message":…,"source_type":"file","timestamp":…}`, keys sorted (Vector objects
are BTreeMaps): `message` the line without its newline, `file` the path read, `host` the host Vector
runs on, `timestamp` the time Vector read the line (sources/file.cue `_current_timestamp`), RFC 3339
UTC. No multiline transform: a stack trace is one event per physical line. The aggregator writes
events in read-time order, so hosts and files interleave.

Rotated files (`ozone-hadoop-scm-scmN.log-1.gz`, `scm-audit-scm2-2026-09-13-1.log.gz`) were read
while they were the live file: their lines carry the live name. `conf/ozone-site.xml` is attached by
the operator as in the source bundle.

## What it checks
The JSON lines are detected by content (`vector-jsonl`); host and component come from the `file`
path (`/var/log/ozone/ozone-hadoop-scm-scm1.log` is scm1's SCM log), a stack trace's lines join
their record by `file`, and the log4j time inside `message` is the event time.
"""


K8S_SOURCE_MD["HDDS-16825-bug-writer-fails-after-autocommit"] = """# HDDS-16825-bug-writer-fails-after-autocommit-k8s-pods: the same OM HA cluster as Kubernetes pods

Generated by `samples/gen/reshape.py` from `HDDS-16825-bug-writer-fails-after-autocommit` (read its
SOURCE.md for the story, identities and evidence chain: every log line is that bundle's, only host
names and the way the logs were taken change). Same findings: `premature-lease-close` on
`key:/logs/raw/apps/payments/2026-08-18/collector-3.log`, `confirmed`.

## Cluster
The three OMs run as a StatefulSet `om` of three pods `om-0..2` behind the headless service `om`
(namespace `default`), so their FQDNs are `om-0.om.default.svc.cluster.local` …; the OM node ids of
the HA service (`ozone.om.nodes.omservice`, in `conf/ozone-site.xml`) stay `om1..om3`, so OM thread
names and the system audit's `newLeader` keep them. om1..om3 of the source bundle are `om-0..2`.

## Files
- `kubectl-logs-om.txt`: `kubectl logs --prefix --timestamps` of the three OM pods (container `om`),
  one pod after the other; the lines in the shipped console layout `%d{ISO8601} [%t] %p %c{2}: %m%n`.
- `<pod>/var/log/hadoop/{om-audit,om-sys-audit}-<pod>.log` and their dated rotations: the log4j2
  files, copied with `kubectl cp`; `${hostName}` is the pod name.
- `conf/ozone-site.xml`: the operator's configuration (the ConfigMap), addresses renamed.

## What it checks
`om-0`, `om-1` and `om-2` stay three hosts: each OM's audit copy of a transaction is merged as a copy,
not as one host's duplicate, and the abbreviated OM loggers (`om.OzoneManager`,
`service.OpenKeyCleanupService`) give component `om`.
"""


if __name__ == "__main__":
    for source, spec in K8S.items():
        k8s_pods(source, spec)
    vector_export()
