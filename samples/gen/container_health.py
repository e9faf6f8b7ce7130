#!/usr/bin/env python3
"""Container-health samples: for each health rule a bundle it must flag and its look-alike, for Ratis
and EC (`python3 samples/gen/container_health.py` rewrites them all).

A cluster of seven datanodes and one SCM. A Ratis THREE container (#4101, on dn1-dn3) or an EC
rs-3-2-1024k container (#4201, index i on dn<i>) is created and closed; then each bundle's story
changes one thing. Lines are what Ozone prints (datanode.md 1.3 `ContainerLogger`; scm.md 2.2 admin
monitor, 2.3 report handlers, 2.5 ReplicationManager and its handlers), each cited in SOURCE.md.
The SCM's ReplicationManager prints a pass every five minutes until the end, as it does at INFO:
that is where the logs end for the health decisions.
"""
import json
import random

from ozlog import loggers as L
from ozlog.bundle import BundleDir, Records, daemon_log, entries, finding, main_log, site_xml
from ozlog.log4j import MIN, container_log_line, parse_time, sec
from ozlog.ozone import (affinity_executor, container_info, container_log_msg, datanode_details, delete_command,
                         random_uuid, replica_details, replicate_command, rm_pass, rm_sending)

T0 = parse_time("2026-10-05 09:00:00.000")
END = T0 + 120 * MIN
RATIS, EC = 4101, 4201
RATIS_BCSID, EC_BCSID = 812, 37
PIPELINE = "5d1f0c2a-7e4b-4c1d-9a3f-6b2e8d0c4f17"
EC_PIPELINE = "c3a9e1f4-2b7d-4e8a-b5c6-1d0f9e3a7b52"
EC_CONFIG = "EC{rs-3-2-1024k}"
RATIS_UNDER_REPLICATED = "org.apache.hadoop.hdds.scm.container.replication.RatisUnderReplicationHandler"
RATIS_OVER_REPLICATED = "org.apache.hadoop.hdds.scm.container.replication.RatisOverReplicationHandler"
QUASI_CLOSED_HANDLER = "org.apache.hadoop.hdds.scm.container.replication.health.QuasiClosedContainerHandler"

rng = random.Random(15)

# The `ozone debug log container` name of each rule's condition, as `oztrace containers` shows it.
LABEL = {"container-duplicate-open": "DUPLICATE_OPEN", "container-mismatched-replicas": "MISMATCHED_REPLICAS",
         "container-under-replicated": "UNDER_REPLICATED", "container-over-replicated": "OVER_REPLICATED",
         "container-unhealthy-replica": "UNHEALTHY", "container-quasi-closed-stuck": "QUASI_CLOSED_STUCK"}
ORDER = list(LABEL)


def LABELS(expected):
    """container -> labels, in the rules' order, from the bundle's expected findings."""
    out = {}
    for f in sorted(expected, key=lambda f: ORDER.index(f["rule"])):
        out.setdefault(int(f["entity"].split(":")[1]), []).append(LABEL[f["rule"]])
    return out


class Datanode:
    def __init__(self, n):
        self.host = "dn%d" % n
        self.uuid = random_uuid(rng)
        self.details = datanode_details(self.uuid, "dn%d.example.com" % n, "10.0.2.%d" % (10 + n))
        self.volume = "/data/disk%d/hdds" % (1 + n % 3)


DNS = [Datanode(n) for n in range(1, 8)]
DN = {d.host: d for d in DNS}


def findings(cid, *rules):
    """EXPECTED.json entries: each `(rule, confidence)` a finding on container `cid`."""
    return [finding(rule, "container:%d" % cid, confidence) for rule, confidence in rules]


class Story:
    """The records of one bundle: dn-container lines per datanode, the SCM's log."""

    def __init__(self):
        self.records = Records()
        self.cmd = 7000
        self.truth = {}

    def dn(self, host, t, cid, bcsid, state, level="INFO", suffix=None, index=0, mark=None):
        d = DN[host]
        # The ground truth of the replica's latest state (`logLost` keeps the state it prints).
        latest = self.truth.setdefault(cid, {})
        if (host, index) not in latest or latest[(host, index)][0] <= t:
            latest[(host, index)] = (t, "LOST" if suffix == "Volume failure" else state, bcsid)
        msg = container_log_msg(cid, bcsid, state, d.volume, suffix, index=index)
        self.records.add("container", host, t, (level, msg), mark)

    def scm(self, t, logger, msg, level="INFO", thread="scm1-ReplicationMonitor", mark=None):
        self.records.add("scm", "scm1", t, (thread, level, logger, msg, ()), mark)

    def ratis_life(self, hosts=("dn1", "dn2", "dn3"), close=True):
        """#4101 created on its pipeline and closed at BCSID 812, SCM closing it on the first report."""
        for i, h in enumerate(hosts):
            self.dn(h, T0 + sec(1 + i), RATIS, 0, "OPEN")
        if close:
            for i, h in enumerate(hosts):
                self.dn(h, T0 + 20 * MIN + sec(i), RATIS, RATIS_BCSID, "CLOSING")
                self.dn(h, T0 + 20 * MIN + sec(5 + i), RATIS, RATIS_BCSID, "CLOSED")
            self.report("CLOSE", RATIS, "CLOSING", RATIS_BCSID, "CLOSED", RATIS_BCSID, hosts[0], T0 + 20 * MIN + sec(6))

    def ec_life(self, indexes=(1, 2, 3, 4, 5), bcsids=None):
        """#4201 (rs-3-2-1024k) created with index i on dn<i>, then closed."""
        for i in indexes:
            self.dn("dn%d" % i, T0 + sec(1 + i), EC, 0, "OPEN", index=i)
        for i in indexes:
            b = (bcsids or {}).get(i, EC_BCSID)
            self.dn("dn%d" % i, T0 + 20 * MIN + sec(i), EC, b, "CLOSING", index=i)
            self.dn("dn%d" % i, T0 + 20 * MIN + sec(6 + i), EC, b, "CLOSED", index=i)

    def report(self, action, cid, cstate, sid, rstate, bcsid, host, t, index=0):
        """An incremental report's decision (AbstractContainerReportHandler, scm.md 2.3)."""
        d = DN[host]
        self.scm(t, L.ICR_HANDLER, "%s %s" % (action, replica_details(cid, cstate, sid, rstate, bcsid, d.uuid,
                                                                        d.details, index=index)),
                 thread=affinity_executor("scm1", 1 + DNS.index(d) % 3))

    def command(self, t, command, cid, state, host, mark=None):
        """ReplicationManager `Sending command [...]` (scm.md 2.5)."""
        info = container_info(cid, state, T0 + 20 * MIN + sec(6), EC_PIPELINE if cid == EC else PIPELINE)
        self.scm(t, L.REPLICATION_MANAGER, rm_sending(command, info, DN[host].details, 1789000000000, 1789000360000),
                 thread="scm1-UnderReplicatedProcessor", mark=mark)

    def next_cmd(self):
        self.cmd += 1
        return self.cmd

    def containers(self, health):
        """CONTAINERS.json: per container, the replicas' latest states as the story wrote them, the
        healthy count and the conditions `oztrace containers` must show (health: container -> labels)."""
        out = []
        for cid in sorted(self.truth):
            replicas = [{"datanode": h, "index": i, "state": st, "bcsid": b}
                        for (h, i), (_, st, b) in sorted(self.truth[cid].items())]
            healthy = sum(1 for r in replicas if r["state"] in ("OPEN", "CLOSING", "QUASI_CLOSED", "CLOSED"))
            out.append({"container": cid, "healthy": healthy, "health": health.get(cid, []), "replicas": replicas})
        return out

    def write(self, name, expected, source, site=None, twice=None, health=None, log_end=False):
        """The bundle: `<dn>/dn-container-<dn>.log` per datanode, `scm1/ozone-hadoop-scm-scm1.log` with a
        ReplicationManager pass every five minutes to the end, and `conf/ozone-site.xml` when given."""
        t = T0
        while t <= END:
            self.scm(t + sec(2), L.REPLICATION_MANAGER, rm_pass(14, 2))
            t += 5 * MIN
        b = BundleDir(name)
        for d in DNS:
            recs = self.records.get("container", d.host)
            if recs:
                b.write("%s/dn-container-%s.log" % (d.host, d.host),
                        entries(recs, lambda t, p: [container_log_line(t, p[0], p[1])]))
                if d.host == twice:
                    # The same datanode's log collected a second time (a copy under another folder).
                    b.write("%s/collected-again/dn-container-%s.log" % (d.host, d.host),
                            entries(recs, lambda t, p: [container_log_line(t, p[0], p[1])]))
        b.write("scm1/" + daemon_log("scm", "scm1"), entries(self.records.get("scm", "scm1"), main_log("file")))
        if site:
            b.text("conf/ozone-site.xml", site_xml(site))
        b.expected(expected)
        if log_end:
            b.text("LOG-END", "The look-alike is a repair still in flight where these logs end: inside a longer "
                              "bundle the repair never completed, so oztrace-gen does not inject this sample.\n")
        b.text("CONTAINERS.json", json.dumps(self.containers(health or LABELS(expected)), indent=2) + "\n")
        b.text("SOURCE.md", SOURCE_HEAD % {"name": name} + source(b) + SOURCE_TAIL)
        return b


SOURCE_HEAD = """# %(name)s

Generated by `samples/gen/container_health.py`. A cluster of seven datanodes (dn1-dn7) and one SCM
(scm1). Ratis container #4101 (RATIS/THREE) lives on dn1-dn3; EC container #4201 (EC{rs-3-2-1024k})
has replica index i on dn<i>.

"""

SOURCE_TAIL = """
## Templates

- dn-container lines: `ContainerLogger.getMessage` (`ID= | Index= | BCSID= | State= | Volume= |
  DataChecksum=`, with the message after), `logOpen`/`logClosing`/`logClosed` INFO, `logQuasiClosed`
  WARN, `logUnhealthy` and `logLost` ERROR, `logDeleted`/`logImported` INFO; the log4j2 layout of
  `dn-container-log4j2.properties` (datanode.md 1.3; Ozone 2.1.0-HEAD wording).
- SCM: `ReplicationManager` `Sending command [...]` and `Replication Monitor Thread took ...` (scm.md 2.5),
  the report handlers' `CLOSE <D>` (scm.md 2.3), `DatanodeAdminMonitorImpl` `Under Replicated Container`
  and `NodeDecommissionManager` `Starting Decommission/Maintenance for node` (scm.md 2.2),
  `RatisOverReplicationHandler` `Container {} is over replicated. ...`, `RatisUnderReplicationHandler`
  and `ECUnderReplicationHandler` `... will be sufficiently replicated after pending replicas are created`,
  `QuasiClosedContainerHandler` `Force closing container ...` (scm.md 2.5; Ozone 1.4.0-HEAD).
"""


def volume_lost(s, host, cid, bcsid, t, index=0):
    """`ContainerSet` on a failed volume: `logLost(data, "Volume failure")` at ERROR, the state kept."""
    s.dn(host, t, cid, bcsid, "CLOSED", level="ERROR", suffix="Volume failure", index=index, mark="lost")


def unhealthy(s, host, cid, bcsid, t, index=0):
    """`KeyValueHandler.markContainerUnhealthy` → `logUnhealthy` with the scan result."""
    d = DN[host]
    s.dn(host, t, cid, bcsid, "UNHEALTHY", level="ERROR", index=index, mark="unhealthy",
         suffix="Container has 1 error: MISSING_CHUNK for file %s/CID-3f1e/current/containerDir0/%d/chunks/"
                "113750153625600%d.block with exception: java.io.FileNotFoundException" % (d.volume, cid, index))


def imported(s, host, cid, bcsid, t, index=0):
    """A replica copied in by replication: `logImported` (`Container imported`, State=CLOSED)."""
    s.dn(host, t, cid, bcsid, "CLOSED", suffix="Container imported", index=index, mark="imported")


def decommission(s, host, t):
    s.scm(t, L.DECOMMISSION_MANAGER, "Starting Decommission for node %s" % DN[host].details,
          thread="IPC Server handler 3 on default port 9860", mark="admin")


def maintenance(s, host, t):
    s.scm(t, L.DECOMMISSION_MANAGER, "Starting Maintenance for node %s" % DN[host].details,
          thread="IPC Server handler 3 on default port 9860", mark="admin")


def ratis_replicas(hosts, state="CLOSED"):
    """DatanodeAdminMonitorImpl.replicaDetails: `Replicas{ContainerReplica{…},…}`."""
    return "Replicas{%s}" % ",".join(
        "ContainerReplica{#%d (%s) currentDN=%s (origin), bcsid=%d, keyCount=41, bytesUsed=171966464, non-empty, "
        "checksums=dataChecksum: 0}" % (RATIS, state, DN[h].details, RATIS_BCSID) for h in hosts)


def lines(b, rel, *needles):
    return b.loc(rel, *needles)


# ---------------------------------------------------------------------------------------------------
def under_replicated():
    s = Story()
    s.ratis_life()
    volume_lost(s, "dn2", RATIS, RATIS_BCSID, T0 + 40 * MIN)
    s.write("container-under-replicated-bug-ratis-volume-lost",
            findings(RATIS, ("container-under-replicated", "likely")),
            lambda b: "dn2's volume fails 20 minutes after #4101 closed (%s: `Volume failure`): the replica "
                      "is gone. Nothing replaces it in the next 80 minutes (SCM's ReplicationManager passes run, "
                      "no replicate command): 2 of 3 replicas. `container-under-replicated` flags it, likely.\n"
                      % lines(b, "dn2/dn-container-dn2.log", "Volume failure"))

    s = Story()
    s.ratis_life()
    volume_lost(s, "dn2", RATIS, RATIS_BCSID, T0 + 100 * MIN)
    s.command(T0 + 105 * MIN, replicate_command(s.next_cmd(), RATIS, DN["dn4"].details), RATIS, "CLOSED", "dn1",
              mark="replicate")
    s.scm(T0 + 110 * MIN, RATIS_UNDER_REPLICATED,
          "Container %d with replicas [ContainerReplica{#%d (CLOSED) currentDN=%s (origin), bcsid=%d, keyCount=41, "
          "bytesUsed=171966464, non-empty, checksums=dataChecksum: 0}] will be sufficiently replicated after pending "
          "replicas are created." % (RATIS, RATIS, DN["dn1"].details, RATIS_BCSID),
          thread="scm1-UnderReplicatedProcessor", mark="pending")
    s.write("container-under-replicated-control-ratis-replicating", [],
            lambda b: "The same loss on dn2 (%s), but 5 minutes later the ReplicationManager sends dn1 a "
                      "replicate command to dn4 (%s) and says the container will be sufficiently replicated "
                      "(%s): the copy is in flight at the end of the logs. `ozone debug log container list "
                      "--health=UNDER_REPLICATED` lists it; oztrace does not.\n"
                      % (lines(b, "dn2/dn-container-dn2.log", "Volume failure"), b.at("replicate"), b.at("pending")),
            log_end=True)

    s = Story()
    s.ratis_life()
    decommission(s, "dn3", T0 + 30 * MIN)
    s.scm(T0 + 31 * MIN, L.ADMIN_MONITOR,
          "Under Replicated Container #%d Container State: CLOSED Replica Count: 3 Healthy (I/D/M): 2/1/0 "
          "Unhealthy (I/D/M): 0/0/0 inFlightAdd: 0 inFightDel: 0 ReplicationFactor: 3 minMaintenance: 2; %s"
          % (RATIS, ratis_replicas(("dn1", "dn2", "dn3"))), thread="DatanodeAdminManager-0", mark="monitor")
    s.write("container-under-replicated-control-ratis-decommission", [],
            lambda b: "dn3 is decommissioned (%s); SCM's admin monitor prints #4101 as `Under Replicated "
                      "Container` with `Healthy (I/D/M): 2/1/0` (%s): two in service, one on the decommissioning "
                      "node, which still holds the data while the ReplicationManager copies it. No replica is "
                      "lost: no finding.\n" % (b.at("admin"), b.at("monitor")))

    s = Story()
    s.ec_life()
    volume_lost(s, "dn4", EC, EC_BCSID, T0 + 40 * MIN, index=4)
    s.write("container-under-replicated-bug-ec-index-lost",
            findings(EC, ("container-under-replicated", "likely")),
            lambda b: "dn4's volume fails with index 4 of #4201 on it (%s); no reconstruction follows in 80 "
                      "minutes: index 4 has no replica. The EC scheme comes from `conf/ozone-site.xml` "
                      "(`ozone.replication` rs-3-2-1024k).\n" % lines(b, "dn4/dn-container-dn4.log", "Volume failure"),
            site=[("ozone.replication.type", "EC"), ("ozone.replication", "rs-3-2-1024k")])

    s = Story()
    s.ec_life()
    volume_lost(s, "dn4", EC, EC_BCSID, T0 + 100 * MIN, index=4)
    sources = ", ".join("%s replicaIndex: %d" % (DN["dn%d" % i].details, i) for i in (1, 2, 3, 5))
    reconstruct = ('reconstructECContainersCommand: cmdID: %d, encodedToken: "", term: 0, deadlineMsSinceEpoch: 0, '
                   "containerID: %d, replicationConfig: %s, sources: [%s], targets: [%s], missingIndexes: [4]"
                   % (s.next_cmd(), EC, EC_CONFIG, sources, DN["dn6"].details))
    s.command(T0 + 110 * MIN, reconstruct, EC, "CLOSED", "dn6", mark="reconstruct")
    s.dn("dn6", T0 + 110 * MIN + sec(3), EC, 0, "RECOVERING", index=4, mark="recovering")
    s.write("container-under-replicated-control-ec-reconstructing", [],
            lambda b: "Index 4 is lost on dn4 (%s); the ReplicationManager sends dn6 a reconstruct command for "
                      "the missing index (%s) and dn6 creates it in RECOVERING (%s): reconstruction in flight.\n"
                      % (lines(b, "dn4/dn-container-dn4.log", "Volume failure"), b.at("reconstruct"),
                         b.at("recovering")),
            log_end=True)


def over_replicated():
    s = Story()
    s.ratis_life()
    imported(s, "dn4", RATIS, RATIS_BCSID, T0 + 30 * MIN)
    s.scm(T0 + 35 * MIN, RATIS_OVER_REPLICATED,
          "Container #%d is over replicated. Actual replica count is 4, with 0 pending delete(s). Expected replica "
          "count is 3." % RATIS, thread="scm1-OverReplicatedProcessor", mark="over")
    s.write("container-over-replicated-bug-ratis-extra-copy",
            findings(RATIS, ("container-over-replicated", "confirmed")),
            lambda b: "dn4 imports a fourth replica of #4101 (%s) and no source is removed; SCM's "
                      "RatisOverReplicationHandler says it is over replicated (%s) but no delete command follows "
                      "in 85 minutes.\n" % (b.at("imported"), b.at("over")))

    s = Story()
    s.ratis_life()
    decommission(s, "dn3", T0 + 25 * MIN)
    imported(s, "dn4", RATIS, RATIS_BCSID, T0 + 30 * MIN)
    s.write("container-over-replicated-control-ratis-decommission", [],
            lambda b: "dn3 is decommissioned (%s) and its replica of #4101 is copied to dn4 (%s): four CLOSED "
                      "replicas, one on a leaving node. Not over-replicated.\n" % (b.at("admin"), b.at("imported")))

    s = Story()
    s.ec_life()
    imported(s, "dn6", EC, EC_BCSID, T0 + 30 * MIN, index=2)
    s.write("container-over-replicated-bug-ec-index-twice",
            findings(EC, ("container-over-replicated", "likely")),
            lambda b: "dn6 imports index 2 of #4201 (%s) while dn2 still holds it; no delete follows: index 2 "
                      "has two replicas.\n" % b.at("imported"))

    s = Story()
    s.ec_life()
    imported(s, "dn6", EC, EC_BCSID, T0 + 100 * MIN, index=2)
    s.command(T0 + 110 * MIN, delete_command(s.next_cmd(), EC, force=True, index=2), EC, "CLOSED", "dn6",
              mark="delete")
    s.write("container-over-replicated-control-ec-delete-in-flight", [],
            lambda b: "Index 2 is copied to dn6 (%s) and the ReplicationManager sends dn6 a delete for it ten "
                      "minutes later (%s): being corrected at the end of the logs.\n"
                      % (b.at("imported"), b.at("delete")),
            log_end=True)


def unhealthy_replica():
    s = Story()
    s.ratis_life()
    unhealthy(s, "dn2", RATIS, RATIS_BCSID, T0 + 40 * MIN)
    s.write("container-unhealthy-replica-bug-ratis-missing-chunk",
            findings(RATIS, ("container-unhealthy-replica", "likely"), ("container-under-replicated", "likely")),
            lambda b: "The scanner finds a chunk missing in dn2's replica of #4101 (%s): UNHEALTHY, and "
                      "nothing replaces or deletes it. The container is also a healthy replica short.\n"
                      % b.at("unhealthy"))

    s = Story()
    s.ratis_life()
    unhealthy(s, "dn2", RATIS, RATIS_BCSID, T0 + 40 * MIN)
    s.command(T0 + 44 * MIN, replicate_command(s.next_cmd(), RATIS, DN["dn4"].details), RATIS, "CLOSED", "dn1")
    imported(s, "dn4", RATIS, RATIS_BCSID, T0 + 46 * MIN)
    s.command(T0 + 50 * MIN, delete_command(s.next_cmd(), RATIS, force=True), RATIS, "CLOSED", "dn2",
              mark="delete")
    s.dn("dn2", T0 + 50 * MIN + sec(2), RATIS, RATIS_BCSID, "DELETED", suffix="Container force deleted",
         mark="deleted")
    s.write("container-unhealthy-replica-control-ratis-replaced", [],
            lambda b: "dn2's replica goes UNHEALTHY (%s); the ReplicationManager copies a good one to dn4 (%s) "
                      "and deletes dn2's (%s, %s). Handled.\n"
                      % (b.at("unhealthy"), b.at("imported"), b.at("delete"), b.at("deleted")))

    s = Story()
    s.ratis_life(close=False)
    for i, h in enumerate(("dn1", "dn2")):
        s.dn(h, T0 + 20 * MIN + sec(i), RATIS, RATIS_BCSID, "CLOSING")
        s.dn(h, T0 + 20 * MIN + sec(5 + i), RATIS, RATIS_BCSID, "CLOSED", mark="closed")
    # dn3 keeps writing other containers: it is alive, its #4101 stays OPEN.
    s.dn("dn3", T0 + 60 * MIN, 4102, 0, "OPEN", mark="alive")
    s.write("container-unhealthy-replica-bug-ratis-open-unhealthy",
            findings(RATIS, ("container-unhealthy-replica", "likely")),
            lambda b: "dn1 and dn2 close #4101 (%s); dn3, alive (%s), never does: its replica is still OPEN "
                      "100 minutes later (OPEN-UNHEALTHY in `ozone debug log container info`).\n"
                      % (b.at("closed"), b.at("alive")),
            health={RATIS: ["OPEN-UNHEALTHY"]})

    s = Story()
    s.ratis_life(close=False)
    maintenance(s, "dn3", T0 + 15 * MIN)
    for i, h in enumerate(("dn1", "dn2")):
        s.dn(h, T0 + 20 * MIN + sec(i), RATIS, RATIS_BCSID, "CLOSING")
        s.dn(h, T0 + 20 * MIN + sec(5 + i), RATIS, RATIS_BCSID, "CLOSED", mark="closed")
    s.write("container-unhealthy-replica-control-ratis-open-in-maintenance", [],
            lambda b: "dn3 goes into maintenance (%s) before #4101 closes on dn1 and dn2 (%s): its replica "
                      "stays OPEN because the datanode is down by request.\n" % (b.at("admin"), b.at("closed")))

    s = Story()
    s.ec_life()
    unhealthy(s, "dn3", EC, EC_BCSID, T0 + 40 * MIN, index=3)
    s.write("container-unhealthy-replica-bug-ec-index-unhealthy",
            findings(EC, ("container-unhealthy-replica", "likely"), ("container-under-replicated", "likely")),
            lambda b: "Index 3 of #4201 goes UNHEALTHY on dn3 (%s) and stays so; index 3 has no healthy "
                      "replica either.\n" % b.at("unhealthy"))

    s = Story()
    s.ec_life()
    unhealthy(s, "dn3", EC, EC_BCSID, T0 + 40 * MIN, index=3)
    s.dn("dn6", T0 + 45 * MIN, EC, 0, "RECOVERING", index=3, mark="recovering")
    s.dn("dn6", T0 + 46 * MIN, EC, EC_BCSID, "RECOVERING", index=3)
    s.dn("dn6", T0 + 46 * MIN + sec(1), EC, EC_BCSID, "CLOSING", index=3)
    s.dn("dn6", T0 + 46 * MIN + sec(2), EC, EC_BCSID, "CLOSED", index=3, mark="rebuilt")
    s.command(T0 + 50 * MIN, delete_command(s.next_cmd(), EC, force=True, index=3), EC, "CLOSED", "dn3",
              mark="delete")
    s.dn("dn3", T0 + 50 * MIN + sec(2), EC, EC_BCSID, "DELETED", suffix="Container force deleted", index=3,
         mark="deleted")
    s.write("container-unhealthy-replica-control-ec-reconstructed", [],
            lambda b: "Index 3 goes UNHEALTHY on dn3 (%s); dn6 rebuilds it (RECOVERING, then CLOSED: %s, %s) and "
                      "dn3's is deleted (%s).\n" % (b.at("unhealthy"), b.at("recovering"), b.at("rebuilt"),
                                                    b.at("deleted")))


def mismatched():
    s = Story()
    s.ratis_life(close=False)
    for i, (h, bcsid) in enumerate((("dn1", RATIS_BCSID), ("dn2", RATIS_BCSID), ("dn3", 790))):
        s.dn(h, T0 + 20 * MIN + sec(i), RATIS, bcsid, "CLOSING")
        s.dn(h, T0 + 20 * MIN + sec(5 + i), RATIS, bcsid, "CLOSED", mark="closed-" + h)
    s.write("container-mismatched-replicas-bug-ratis-closed-behind",
            findings(RATIS, ("container-mismatched-replicas", "likely")),
            lambda b: "dn3 closes #4101 at BCSID 790 (%s) while dn1 and dn2 close at 812: a CLOSED replica "
                      "missing 22 committed transactions, never corrected.\n" % b.at("closed-dn3"))

    s = Story()
    s.ratis_life(close=False)
    for i, (h, bcsid) in enumerate((("dn1", RATIS_BCSID), ("dn2", RATIS_BCSID), ("dn3", 790))):
        s.dn(h, T0 + 20 * MIN + sec(i), RATIS, bcsid, "CLOSING")
        s.dn(h, T0 + 20 * MIN + sec(5 + i), RATIS, bcsid, "CLOSED", mark="closed-" + h)
    s.command(T0 + 25 * MIN, delete_command(s.next_cmd(), RATIS, force=True), RATIS, "CLOSED", "dn3")
    s.dn("dn3", T0 + 25 * MIN + sec(2), RATIS, 790, "DELETED", suffix="Container force deleted", mark="deleted")
    s.command(T0 + 30 * MIN, replicate_command(s.next_cmd(), RATIS, DN["dn4"].details), RATIS, "CLOSED", "dn1")
    imported(s, "dn4", RATIS, RATIS_BCSID, T0 + 32 * MIN)
    s.write("container-mismatched-replicas-control-ratis-stale-replaced", [],
            lambda b: "dn3 closes at 790 (%s); SCM force-deletes it (%s) and copies a good replica to dn4 (%s).\n"
                      % (b.at("closed-dn3"), b.at("deleted"), b.at("imported")))

    s = Story()
    s.ec_life()
    s.dn("dn6", T0 + 30 * MIN, EC, 29, "CLOSED", suffix="Container imported", index=2, mark="stale")
    s.dn("dn2", T0 + 31 * MIN, EC, 0, "DELETED", suffix="Container force deleted", index=2, mark="deleted")
    s.dn("dn7", T0 + 33 * MIN, EC, EC_BCSID, "CLOSED", suffix="Container imported", index=2, mark="good")
    s.write("container-mismatched-replicas-bug-ec-index-copies-differ",
            findings(EC, ("container-mismatched-replicas", "likely"), ("container-over-replicated", "likely")),
            lambda b: "Index 2 of #4201 ends on dn6 at BCSID 29 (an old copy imported, %s) and on dn7 at 37 "
                      "(%s) after dn2's is deleted (%s): two CLOSED copies of one index that differ, and one too "
                      "many.\n" % (b.at("stale"), b.at("good"), b.at("deleted")))

    s = Story()
    s.ec_life(bcsids={4: 36, 5: 36})
    s.write("container-mismatched-replicas-control-ec-indexes-differ", [],
            lambda b: "#4201 closes with indexes 1-3 at BCSID 37 and the parity indexes 4-5 at 36: different "
                      "indexes keep their own BCSIDs. Nothing to flag.\n")


def duplicate_open():
    s = Story()
    s.ratis_life()
    s.dn("dn1", T0 + 3 * MIN, RATIS, 0, "OPEN", mark="again")
    s.write("container-duplicate-open-bug-ratis-created-twice",
            findings(RATIS, ("container-duplicate-open", "likely")),
            lambda b: "dn1 creates #4101 (%s) and creates it OPEN again three minutes later (%s): a second "
                      "life of the container on dn1.\n" % (lines(b, "dn1/dn-container-dn1.log", "State=OPEN"),
                                                             b.at("again")))

    s = Story()
    s.ratis_life()
    s.write("container-duplicate-open-control-ratis-log-collected-twice", [],
            lambda b: "The bundle holds dn1's container log twice (`dn1/` and `dn1/collected-again/`): every "
                      "OPEN of dn1 appears twice, same time, same line. One creation.\n", twice="dn1")

    s = Story()
    s.ec_life()
    s.dn("dn6", T0 + sec(9), EC, 0, "OPEN", index=2, mark="second")
    s.dn("dn6", T0 + 10 * MIN, EC, 0, "DELETED", suffix="Empty container deleted", index=2, mark="deleted")
    s.write("container-duplicate-open-bug-ec-index-created-twice",
            findings(EC, ("container-duplicate-open", "likely")),
            lambda b: "dn2 creates index 2 of #4201 and dn6 creates index 2 as well (%s); dn6's empty copy is "
                      "deleted later (%s), but two datanodes held the same index OPEN.\n"
                      % (b.at("second"), b.at("deleted")))

    s = Story()
    s.ec_life()
    s.write("container-duplicate-open-control-ec-one-per-index", [],
            lambda b: "#4201 opens five replicas, one per index on dn1-dn5: five OPENs is rs-3-2's count, not "
                      "a duplicate (a count against the Ratis factor 3 would flag it).\n")


def quasi_closed_stuck():
    reason = "Ratis group removed. Group id: group-%s" % PIPELINE.replace("-", "")[-12:].upper()
    for name, forced in (("container-quasi-closed-stuck-bug-ratis-never-force-closed", False),
                         ("container-quasi-closed-stuck-control-ratis-force-closed", True)):
        s = Story()
        s.ratis_life(close=False)
        for i, (h, bcsid) in enumerate((("dn1", RATIS_BCSID), ("dn2", 805), ("dn3", 790))):
            s.dn(h, T0 + 20 * MIN + sec(i), RATIS, bcsid, "CLOSING")
            s.dn(h, T0 + 20 * MIN + sec(5 + i), RATIS, bcsid, "QUASI_CLOSED", level="WARN", suffix=reason,
                 mark="qc")
        s.report("QUASI_CLOSE", RATIS, "CLOSING", RATIS_BCSID, "QUASI_CLOSED", RATIS_BCSID, "dn1",
                 T0 + 20 * MIN + sec(6))
        if forced:
            s.scm(T0 + 25 * MIN, QUASI_CLOSED_HANDLER, "Force closing container #%d with BCSID %d, which is in "
                  "QUASI_CLOSED state." % (RATIS, RATIS_BCSID), mark="force")
            s.dn("dn1", T0 + 26 * MIN, RATIS, RATIS_BCSID, "CLOSED", mark="closed")
            for h in ("dn2", "dn3"):
                s.command(T0 + 30 * MIN, delete_command(s.next_cmd(), RATIS, force=True), RATIS, "CLOSED", h)
                s.dn(h, T0 + 30 * MIN + sec(2), RATIS, 805 if h == "dn2" else 790, "DELETED",
                     suffix="Container force deleted")
            for h in ("dn4", "dn5"):
                imported(s, h, RATIS, RATIS_BCSID, T0 + 33 * MIN)
            s.write(name, [], lambda b: "#4101's pipeline is removed and its three replicas quasi-close (%s); "
                    "SCM force-closes it at the highest BCSID (%s), dn1 closes (%s), and the lower replicas are "
                    "replaced by copies. Not stuck.\n" % (b.at("qc"), b.at("force"), b.at("closed")))
        else:
            s.write(name, findings(RATIS, ("container-quasi-closed-stuck", "likely")),
                    lambda b: "#4101's pipeline is removed and its three replicas quasi-close at three BCSIDs "
                    "(%s); SCM never force-closes it in the 100 minutes left.\n" % b.at("qc"))

    s = Story()
    s.ec_life()
    s.write("container-quasi-closed-stuck-control-ec-closed", [],
            lambda b: "EC container #4201 closes with a forced close on every index: EC replicas never "
                      "quasi-close, so the rule reads Ratis containers only.\n")


if __name__ == "__main__":
    under_replicated()
    over_replicated()
    unhealthy_replica()
    mismatched()
    duplicate_open()
    quasi_closed_stuck()
