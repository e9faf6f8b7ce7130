#!/usr/bin/env python3
"""Sample bundles for rule `reused-write-future` (HDDS-17675, datanode).

Writes four bundles under samples/:
  HDDS-17675-bug-info/                  default INFO level, per-host folders, file layout
  HDDS-17675-bug-debug/                 same incident, DEBUG/TRACE loggers on, docker-compose console output
  HDDS-17675-control-clean-failover/    leader change + truncate, nothing pending, vendor layout (no thread)
  HDDS-17675-control-failing-disk/      Unexpected read size on a failing volume, no failover near it, vendor layout

Every template below is copied from /work/shared/ozone-logs/datanode.md (sections 1-4) or scm.md (2.3, 2.5,
3); where a value inside a template is not in the catalogue the constant is marked INFERRED and listed in
each bundle's SOURCE.md.  Python 3.11 standard library only, fixed seed, layouts and files through
ozlog: reruns give the same bytes.  Run: python3 samples/gen/hdds_17675.py
"""
import json
import random
from datetime import timedelta

from ozlog import loggers as L
from ozlog.bundle import (BundleDir, Records, audit_rollover, compose_entries, compose_v2_prefixes, daemon_log, entries,
                          finding, main_log)
from ozlog.log4j import (JDK17_POOL_TAIL, SHIPPED_CONSOLE_PROPERTIES, audit_lines, audit_msg, container_log_line,
                         epoch_ms, frames, json_params, logger_levels, ms, parse_time as T)
from ozlog.ozone import (block_id, close_command, container_info, container_log_msg, datanode_details, detected_timeout,
                         election_result, host_and_port, leader_change, leader_notification, member_id, ratis_group,
                         replica_details, replicate_command, rm_pass, rm_sending, role_change, to_candidate)

RULE = "reused-write-future"

# ----------------------------------------------------------------------------------------------------------
# Identities (consistent across all files of a bundle)
# ----------------------------------------------------------------------------------------------------------
CLUSTER = "CID-8d3f6a2e-1b7c-4e95-a0d4-6c2b9e7f1a35"
UUID = {
    "dn1": "a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60",
    "dn2": "6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71",
    "dn3": "c93b5a27-7f1e-4d2c-b6a8-5e4f3d2c1b82",
    "dn4": "1f7a3c58-9b2d-4e6f-a1c3-7d8e9f0a1b93",
}
# Ratis pipelines (3 nodes each)
P = "7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b"  # dn1, dn2, dn3  (the pipeline of the incident)
Q = "2d9f6b84-1c3e-4a5b-8d7f-e6c5b4a39281"  # dn2, dn3, dn4
R = "9a0c4e6f-3b5d-4c7e-9f1a-0b3d5f7e9c13"  # dn1, dn2, dn4
MEMBERS = {P: ["dn1", "dn2", "dn3"], Q: ["dn2", "dn3", "dn4"], R: ["dn1", "dn2", "dn4"]}
CONTAINERS = {P: [1042, 1043], Q: [1051, 1053], R: [1060]}
CHUNK = 4194304

# blocks of the incident (all localIDs are illustrative)
B = 113750153625600017  # container 1042, key 1: its last chunk is swallowed (read fails later)
C = 113750153625600023  # container 1042, key 2: chunk_1 swallowed, chunk_2 hits CHUNK_FILE_INCONSISTENCY
X = 113750153625600019  # container 1043: truncated term-6 entry 18342 (pending write)
Y = 113750153625600025  # container 1043: truncated term-6 entry 18343 (pending write)
Z = 113750153625600027  # container 1043: truncated term-6 entry 18344 (pending write)


def member(dn, p):
    return member_id(UUID[dn], ratis_group(p))


def ratis_dir(p):
    return f"/data/ratis/{p}/current"


def ti(term, idx):
    return f"(t:{term}, i:{idx})"


def chunk_info(lid, n, off, ln):
    return f"ChunkInfo{{chunkName='{lid}_chunk_{n}, offset={off}, len={ln}}}"


def proto_block_id(cid, lid):  # multi-line TextFormat of DatanodeBlockID (datanode.md 1.1 / 4)
    return f"containerID: {cid}\nlocalID: {lid}\nblockCommitSequenceId: 0\n"


# ----------------------------------------------------------------------------------------------------------
# Stack traces (class/method names from the catalogue; line numbers are illustrative)
# ----------------------------------------------------------------------------------------------------------
SCE = "org.apache.hadoop.hdds.scm.container.common.helpers.StorageContainerException"
DISPATCH_TAIL = [
    "\tat org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler.dispatchRequest(KeyValueHandler.java:322)",
    "\tat org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler.handle(KeyValueHandler.java:287)",
    "\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.dispatchRequest(HddsDispatcher.java:378)",
    "\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.lambda$dispatch$0(HddsDispatcher.java:198)",
    "\tat org.apache.hadoop.hdds.server.OzoneProtocolMessageDispatcher.processRequest(OzoneProtocolMessageDispatcher.java:87)",
    "\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.dispatch(HddsDispatcher.java:197)",
]


def stack_write_chunk(msg):
    return [f"{SCE}: {msg}",
            "\tat org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils.validateChunkSize(ChunkUtils.java:544)",
            "\tat org.apache.hadoop.ozone.container.keyvalue.impl.FilePerBlockStrategy.writeChunk(FilePerBlockStrategy.java:142)",
            "\tat org.apache.hadoop.ozone.container.keyvalue.impl.ChunkManagerDispatcher.writeChunk(ChunkManagerDispatcher.java:78)",
            "\tat org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler.handleWriteChunk(KeyValueHandler.java:1046)",
            ] + DISPATCH_TAIL + [
            "\tat org.apache.hadoop.ozone.container.common.transport.server.ratis.ContainerStateMachine.dispatchCommand(ContainerStateMachine.java:504)",
            "\tat org.apache.hadoop.ozone.container.common.transport.server.ratis.ContainerStateMachine.lambda$writeStateMachineData$3(ContainerStateMachine.java:588)",
            "\tat java.base/java.util.concurrent.CompletableFuture$AsyncSupply.run(CompletableFuture.java:1768)",
            ] + frames(*JDK17_POOL_TAIL)


def stack_read_chunk(msg):
    return [f"{SCE}: {msg}",
            "\tat org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils.checkSize(ChunkUtils.java:488)",
            "\tat org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils.readData(ChunkUtils.java:262)",
            "\tat org.apache.hadoop.ozone.container.keyvalue.impl.FilePerBlockStrategy.readChunk(FilePerBlockStrategy.java:203)",
            "\tat org.apache.hadoop.ozone.container.keyvalue.impl.ChunkManagerDispatcher.readChunk(ChunkManagerDispatcher.java:112)",
            "\tat org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler.handleReadChunk(KeyValueHandler.java:891)",
            ] + DISPATCH_TAIL + [
            "\tat org.apache.hadoop.ozone.container.common.transport.server.GrpcXceiverService$1.onNext(GrpcXceiverService.java:112)",
            "\tat org.apache.hadoop.ozone.container.common.transport.server.GrpcXceiverService$1.onNext(GrpcXceiverService.java:105)",
            "\tat org.apache.ratis.thirdparty.io.grpc.stub.ServerCalls$StreamingServerCallHandler$StreamingServerCallListener.onMessage(ServerCalls.java:262)",
            ] + frames(*JDK17_POOL_TAIL)


def stack_get_block(msg):
    return [f"{SCE}: {msg}",
            "\tat org.apache.hadoop.ozone.container.keyvalue.helpers.BlockUtils.verifyBCSId(BlockUtils.java:245)",
            "\tat org.apache.hadoop.ozone.container.keyvalue.impl.BlockManagerImpl.getBlock(BlockManagerImpl.java:287)",
            "\tat org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler.handleGetBlock(KeyValueHandler.java:702)",
            ] + DISPATCH_TAIL + [
            "\tat org.apache.hadoop.ozone.container.common.transport.server.GrpcXceiverService$1.onNext(GrpcXceiverService.java:112)",
            "\tat java.base/java.lang.Thread.run(Thread.java:840)"]


def stack_timeout(msg):
    return [f"org.apache.ratis.protocol.exceptions.TimeoutIOException: {msg}",
            "\tat org.apache.ratis.util.IOUtils.getFromFuture(IOUtils.java:89)",
            "\tat org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker$WriteLog.execute(SegmentedRaftLogWorker.java:590)",
            "\tat org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker.run(SegmentedRaftLogWorker.java:335)",
            "\tat java.base/java.lang.Thread.run(Thread.java:840)",
            "Caused by: java.util.concurrent.TimeoutException",
            "\tat java.base/java.util.concurrent.CompletableFuture.timedGet(CompletableFuture.java:1960)",
            "\tat java.base/java.util.concurrent.CompletableFuture.get(CompletableFuture.java:2095)",
            "\tat org.apache.ratis.util.IOUtils.getFromFuture(IOUtils.java:80)",
            "\t... 3 more"]


AUDIT_FRAMES = ["\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.dispatchRequest(HddsDispatcher.java:466)",
                "\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.lambda$dispatch$0(HddsDispatcher.java:198)"]


TEXT_FORMAT_ESCAPES = {0x07: "\\a", 0x08: "\\b", 0x0c: "\\f", 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t", 0x0b: "\\v",
                       0x22: '\\"', 0x27: "\\'", 0x5c: "\\\\"}


def escape_bytes(bs):
    """protobuf TextFormat.escapeBytes: C escapes, printable ASCII as is, the rest as 3-digit octal."""
    return "".join(TEXT_FORMAT_ESCAPES.get(b) or (chr(b) if 0x20 <= b < 0x7f else "\\%03o" % b) for b in bs)


def write_chunk_short(rng, dn, p, cid, lid, n, off, ln, vol):
    """CSM smProtoToString: TextFormat.shortDebugString(request) + ", container path=" + path (datanode.md 2.2).
    The checksumData part is INFERRED from the ChunkInfo/ChecksumData proto (CRC32, 16 KiB per checksum)."""
    sums = " ".join('checksums: "%s"' % escape_bytes(bytes(rng.randrange(256) for _ in range(4)))
                    for _ in range(ln // 16384))
    return (f'cmdType: WriteChunk traceID: "" containerID: {cid} datanodeUuid: "{UUID[dn]}" pipelineID: "{p}" '
            f'writeChunk {{ blockID {{ containerID: {cid} localID: {lid} blockCommitSequenceId: 0 }} '
            f'chunkData {{ chunkName: "{lid}_chunk_{n}" offset: {off} len: {ln} '
            f'checksumData {{ type: CRC32 bytesPerChecksum: 16384 {sums} }} }} }}, '
            f'container path={cpath(vol, cid)}')


def cpath(vol, cid):
    return f"/data/disk{vol}/hdds/{CLUSTER}/current/containerDir0/{cid}"


def bpath(vol, cid, lid):
    return f"{cpath(vol, cid)}/chunks/{lid}.block"


# ----------------------------------------------------------------------------------------------------------
# Bundle: records per (host, stream), rendered per layout
# ----------------------------------------------------------------------------------------------------------
HOSTS = ("scm1", "dn1", "dn2", "dn3", "dn4")


class Bundle:
    def __init__(self, name, hosts, skew, scm_prefix="scm1-"):
        self.out = BundleDir(name, gzip_names=True)
        self.h = hosts  # logical -> dict(name, fqdn, ip)
        self.rec = Records(skew)
        self.scm_prefix = scm_prefix

    def dd(self, dn):
        return datanode_details(UUID[dn], self.h[dn]["fqdn"], self.h[dn]["ip"])

    def main(self, host, t, level, thread, logger, msg, exc=None, mark=None):
        self.rec.add("main", host, t, (thread, level, logger, msg, exc or []), mark)

    def audit(self, host, t, level, body, exc=None, mark=None):
        self.rec.add("audit", host, t, (level, body, exc or ()), mark)

    def cont(self, host, t, level, msg, mark=None):
        self.rec.add("container", host, t, (level, msg), mark)

    def write_logs(self, layout, per_host=True, rot_main=None, rot_audit=None):
        """Every host's logs. File names carry the host's short name, on vendor installs its FQDN;
        per_host: one folder per host, else flat. The console layout is docker compose output: the
        main logs of all services in one docker-compose.log. rot_main: host -> [(until, backup
        suffix)], oldest first (`.N`, `.N.gz`); rot_audit: dn -> [(until, rollover date)]."""
        names = {x: self.h[x]["name"] for x in HOSTS}
        if layout == "console":
            self.out.write("docker-compose.log", compose_entries(
                [(names[x], self.rec.get("main", x), main_log(layout)) for x in HOSTS], compose_v2_prefixes(names.values())))
        for host in HOSTS:
            folder = names[host] + "/" if per_host else ""
            name = self.h[host]["fqdn"] if layout == "vendor" else names[host]
            if layout != "console":
                live = folder + daemon_log("scm" if host == "scm1" else "datanode", name, vendor=layout == "vendor")
                files = [(live + suffix, until, suffix.endswith(".gz")) for until, suffix in (rot_main or {}).get(host, [])]
                self.out.write_split(files + [(live, None, False)], self.rec.get("main", host), main_log(layout))
            if host == "scm1":
                continue
            audit = folder + f"dn-audit-{name}.log"
            files = [(audit_rollover(audit, date), until, True) for until, date in (rot_audit or {}).get(host, [])]
            self.out.write_split(files + [(audit, None, False)], self.rec.get("audit", host), dn_audit)
            self.out.write(folder + f"dn-container-{name}.log",
                           entries(self.rec.get("container", host), lambda t, p: [container_log_line(t, *p)]))


def dn_audit(t, payload):
    level, body, exc = payload
    return audit_lines(t, level, "DNAudit", body, exc)


# ----------------------------------------------------------------------------------------------------------
# Message templates (catalogue section in the comment)
# ----------------------------------------------------------------------------------------------------------
def m_notify(p, leader_uuid):  # 2.1 / 2.4 XceiverServerRatis
    return leader_notification(ratis_group(p), leader_uuid)


def m_truncating(worker, idx, seg_start, seg_end, length):  # 2.2 (multi-line TruncationSegments)
    return (f"{worker}: Truncating segments truncate({idx})\n"
            f"  toTruncate: ({seg_start}, {seg_end}) isOpen? true, length={length}, newEndIndex={idx - 1}\n"
            f"    toDelete: [], start index {idx}")


def m_kvh(op, msg, result):  # 2.5 ContainerUtils.logAndReturnError
    return f"Operation: {op} , Trace ID:  , Message: {msg} , Result: {result} , StorageContainerException Occurred."


def audit_body(op, params, ret, perf=None):  # 1.2 AuditMessage.formMessage; DNAudit has no user or ip
    return audit_msg("null", "null", op, json_params(dict(sorted(params.items()))), ret, perf)


def cont_msg(cid, bcsid, state, vol, suffix=None):  # 1.3 ContainerLogger.getMessage
    return container_log_msg(cid, bcsid, state, f"/data/disk{vol}/hdds", suffix)


# ----------------------------------------------------------------------------------------------------------
# Routine traffic
# ----------------------------------------------------------------------------------------------------------
class Group:
    def __init__(self, p, t0, idx0, rate, epochs):
        self.p, self.t0, self.idx0, self.rate = p, t0, idx0, rate
        self.epochs = epochs  # list of (from_t, term, leader)

    def idx(self, t):
        return self.idx0 + int((t - self.t0).total_seconds() * self.rate)

    def terleader_change(self, t):
        cur = self.epochs[0]
        for e in self.epochs:
            if e[0] <= t:
                cur = e
        return cur[1], cur[2]


def vol_of(dn, cid):
    if cid in (1042, 1043) and dn == "dn1":
        return 2
    return 1 + (cid + int(UUID[dn][:2], 16)) % 3


def routine(b, rng, start, end, groups, dns, scm="scm1", seg=500, quiet=()):
    """Segment rolls, snapshots, slow-op PERFORMANCE audit records, RM passes."""
    for g in groups:
        # segment rolls at every multiple of `seg`
        k = g.idx(start) // seg + 1
        while True:
            boundary = k * seg
            t = g.t0 + timedelta(seconds=(boundary - g.idx0) / g.rate)
            if t >= end:
                break
            if t > start:
                s0 = boundary - seg + 1
                for dn in MEMBERS[g.p]:
                    if dn not in dns:
                        continue
                    tt = t + ms(rng.randrange(5, 60))
                    w = f"{member(dn, g.p)}-SegmentedRaftLogWorker"
                    b.main(dn, tt, "INFO", w, L.RAFT_LOG_WORKER, f"{w}: Rolling segment log-{s0}_{boundary} to index:{boundary}")
                    b.main(dn, tt + ms(2), "INFO", w, L.RAFT_LOG_WORKER,
                           f"{w}: Rolled log segment from {ratis_dir(g.p)}/log_inprogress_{s0} to "
                           f"{ratis_dir(g.p)}/log_{s0}-{boundary}")
                    b.main(dn, tt + ms(3), "INFO", w, L.RAFT_LOG_WORKER, f"{w}: Starting segment from index:{boundary + 1}")
                    b.main(dn, tt + ms(5), "INFO", w, L.RAFT_LOG_WORKER,
                           f"{w}: created new log segment {ratis_dir(g.p)}/log_inprogress_{boundary + 1}")
            k += 1
        # snapshots every ~23 minutes
        t = start + timedelta(minutes=rng.randrange(3, 20))
        while t < end:
            term, _ = g.terleader_change(t)
            idx = g.idx(t)
            for dn in MEMBERS[g.p]:
                if dn not in dns:
                    continue
                tt = t + ms(rng.randrange(0, 400))
                smu = f"{member(dn, g.p)}-StateMachineUpdater"
                f = f"/data/ratis/{g.p}/sm/snapshot.{term}_{idx}"
                took = rng.randrange(2, 9)
                b.main(dn, tt, "INFO", smu, L.CONTAINER_STATE_MACHINE, f"{ratis_group(g.p)}: Taking a snapshot at:{ti(term, idx)} file {f}")
                b.main(dn, tt + ms(took), "INFO", smu, L.CONTAINER_STATE_MACHINE,
                       f"{ratis_group(g.p)}: Finished taking a snapshot at:{ti(term, idx)} file:{f} took: {took} ms")
                b.main(dn, tt + ms(took + 1), "INFO", smu, L.SM_UPDATER, f"{smu}: Took a snapshot at index {idx}")
            t += timedelta(minutes=23, seconds=rng.randrange(0, 90))
    # slow-op PERFORMANCE records (threshold assumed 500 ms), a few per host per hour
    span = (end - start).total_seconds()
    for dn in dns:
        n = int(span / 3600 * 4) + 1
        for _ in range(n):
            t = start + timedelta(seconds=rng.uniform(0, span))
            gs = [g for g in groups if dn in MEMBERS[g.p]]
            if not gs:
                continue
            g = rng.choice(gs)
            cid = rng.choice(CONTAINERS[g.p])
            if (dn, cid) in quiet:
                continue
            lid = 113750153625600000 + rng.randrange(101, 999)
            if rng.random() < 0.7:
                n_ = rng.randrange(0, 4)
                body = audit_body("WRITE_CHUNK", {"blockData": block_id(cid, lid), "offset": str(n_ * CHUNK),
                                                  "size": str(CHUNK), "stage": "WRITE_DATA"}, "null",
                                  rng.randrange(510, 1400))
            else:
                body = audit_body("PUT_BLOCK", {"blockData": f"[blockId={block_id(cid, lid)}, size={CHUNK * rng.randrange(1, 5)}]"},
                                  "null", rng.randrange(505, 900))
            b.audit(dn, t, "INFO", body)
    # SCM ReplicationManager passes every 5 minutes
    if scm:
        t = start.replace(second=0, microsecond=0) + timedelta(minutes=1)
        while t < end:
            b.main(scm, t + ms(rng.randrange(1, 40)), "INFO", f"{b.scm_prefix}ReplicationMonitor", L.REPLICATION_MANAGER,
                   rm_pass(rng.randrange(2, 14), rng.randrange(55, 61)))
            t += timedelta(minutes=5)


def create_container(b, rng, t, p, cid):
    for dn in MEMBERS[p]:
        tt = t + ms(rng.randrange(0, 30))
        b.audit(dn, tt, "INFO", audit_body("CREATE_CONTAINER", {"containerID": str(cid), "containerType": "KeyValueContainer"},
                                           "SUCCESS"))
        b.cont(dn, tt + ms(1), "INFO", cont_msg(cid, 0, "OPEN", vol_of(dn, cid)))


def close_container(b, rng, t, p, cid, bcsid, scm="scm1", skip=(), cmd0=4400, enter=None):
    """SCM RM close command per replica, DN CLOSING / CLOSED, CLOSE_CONTAINER audit, ICR CLOSE on SCM."""
    enter = enter or t - ms(rng.randrange(300, 900))
    k = 0
    for dn in MEMBERS[p]:
        if dn in skip:
            continue
        k += 1
        ts = t + ms(3 * k)
        b.main(scm, ts, "INFO", f"{b.scm_prefix}ReplicationMonitor", L.REPLICATION_MANAGER,
               rm_sending(close_command(cmd0 + k, cid, p), container_info(cid, "CLOSING", enter, p), b.dd(dn),
                          epoch_ms(ts) + 1800000, epoch_ms(ts) + 2400000))
    k = 0
    first = True
    for dn in MEMBERS[p]:
        if dn in skip:
            continue
        k += 1
        tc = t + ms(900 + 40 * k)
        b.cont(dn, tc, "INFO", cont_msg(cid, bcsid, "CLOSING", vol_of(dn, cid)))
        tcl = t + ms(1700 + 35 * k)
        b.audit(dn, tcl, "INFO", audit_body("CLOSE_CONTAINER", {"containerID": str(cid)}, "SUCCESS"))
        b.cont(dn, tcl + ms(1), "INFO", cont_msg(cid, bcsid, "CLOSED", vol_of(dn, cid)))
        if first:
            b.main(scm, tcl + ms(310), "INFO", f"{b.scm_prefix}FixedThreadPoolWithAffinityExecutor-{int(UUID[dn][0], 16) % 4}-0",
                   L.ICR_HANDLER, "CLOSE " + replica_details(cid, "CLOSING", bcsid, "CLOSED", bcsid, UUID[dn], b.dd(dn)))
            first = False


def election(b, p, new, old, term, last, el_no, t, rpc_ms, grpc, prevote, vote, responders, step_down, won_ms, learners):
    """A leader election on pipeline p won by `new`, as RaftServer$Division, LeaderElection and RoleInfo
    log it at INFO (datanode.md 2.1). At t new's FollowerState times out (rpc_ms: lastRpcElapsedTime,
    electionTimeout); the election is for term + 1, `last` the last log index of `term`.
    grpc: voter -> its grpc-default-executor number; prevote, vote: ({voter: when the vote request
    arrives}, when the round passes); responders: the voters whose answers count; step_down: (time,
    ms to its RoleInfo start line, mark) of the old leader, which steps down on the higher-term request;
    won_ms: the new leader's "elected after"; learners: (voter, time, grpc, elected-after ms, mark) as
    each learns the leader from its first append."""
    G, mn = ratis_group(p), member(new, p)
    fs, le = f"{mn}-FollowerState", f"{mn}-LeaderElection{el_no}"
    b.main(new, t, "INFO", fs, L.FOLLOWER_STATE, to_candidate(fs, *rpc_ms))
    b.main(new, t + ms(1), "INFO", fs, L.RAFT_DIVISION, role_change(mn, "FOLLOWER", "CANDIDATE", term, "changeToCandidate"))
    b.main(new, t + ms(1), "INFO", fs, L.ROLE_INFO, f"{UUID[new]}: shutdown {fs}")
    b.main(new, t + ms(2), "INFO", fs, L.ROLE_INFO, f"{UUID[new]}: start {le}")
    for phase, vote_term, (arrivals, passed) in (("PRE_VOTE", term, prevote), ("ELECTION", term + 1, vote)):
        for d, ta in arrivals.items():
            b.main(d, ta, "INFO", f"grpc-default-executor-{grpc[d]}", L.RAFT_DIVISION,
                   f"{member(d, p)}: receive requestVote({phase}, {UUID[new]}, {G}, {vote_term}, {ti(term, last)})")
        if phase == "ELECTION":
            mo, go = member(old, p), f"grpc-default-executor-{grpc[old]}"
            t_down, start_after, mark = step_down
            b.main(old, t_down, "INFO", go, L.RAFT_DIVISION, role_change(mo, "LEADER", "FOLLOWER", term + 1, f"candidate:{UUID[new]}"),
                   mark=mark)
            b.main(old, t_down + ms(1), "INFO", go, L.ROLE_INFO, f"{UUID[old]}: shutdown {mo}-LeaderStateImpl")
            b.main(old, t_down + ms(start_after), "INFO", go, L.ROLE_INFO, f"{UUID[old]}: start {mo}-FollowerState")
        b.main(new, passed, "INFO", le, L.LEADER_ELECTION,
               f"{le}: {phase} PASSED received {len(responders)} response(s) and 0 exception(s):")
        for i, d in enumerate(responders):
            b.main(new, passed, "INFO", le, L.LEADER_ELECTION,
                   f"  Response {i}: {UUID[new]}<-{UUID[d]}#0:OK-t{vote_term}-last:{ti(term, last)}")
        b.main(new, passed + ms(1), "INFO", le, L.LEADER_ELECTION, election_result(le, phase))
    won = vote[1] + ms(2)
    b.main(new, won, "INFO", le, L.RAFT_DIVISION, role_change(mn, "CANDIDATE", "LEADER", term + 1, "changeToLeader"))
    b.main(new, won, "INFO", le, L.ROLE_INFO, f"{UUID[new]}: shutdown {le}")
    b.main(new, won + ms(1), "INFO", le, L.RAFT_DIVISION, leader_change(mn, "null", UUID[new], term + 1, "becomeLeader", won_ms))
    b.main(new, won + ms(2), "INFO", le, L.XCEIVER_SERVER_RATIS, m_notify(p, UUID[new]))
    for d, tl, g, elected_ms, mark in learners:
        th = f"grpc-default-executor-{g}"
        b.main(d, tl, "INFO", th, L.RAFT_DIVISION, leader_change(member(d, p), "null", UUID[new], term + 1, "APPEND_ENTRIES", elected_ms),
               mark=mark)
        b.main(d, tl + ms(1), "INFO", th, L.XCEIVER_SERVER_RATIS, m_notify(p, UUID[new]))


def noise_election(b, p, old, new, term, last, t0, el_no, grpc_old=3, grpc_third=5):
    """Leader change on another pipeline, logs identical on all members: no truncation (nothing uncommitted).
    The old leader steps down when it sees the higher-term vote request (reason candidate:<peer>)."""
    third = [d for d in MEMBERS[p] if d not in (old, new)][0]
    election(b, p, new, old, term, last, el_no, t0, (5544, 5201), {third: grpc_third, old: grpc_old},
             ({third: t0 + ms(17), old: t0 + ms(17)}, t0 + ms(40)), ({third: t0 + ms(58), old: t0 + ms(58)}, t0 + ms(83)),
             [third, old], (t0 + ms(59), 1, None), 86,
             [(third, t0 + ms(112), grpc_third, 95, None), (old, t0 + ms(113), grpc_old, 96, None)])


def benign_unknown_bcsid(b, t, dn, cid, want, have, lid):
    msg = f"Unable to find the block with bcsID {want}. Container {cid} bcsId is {have}."
    b.main(dn, t, "WARN", f"{UUID[dn]}-ChunkReader-3", L.KEY_VALUE_HANDLER, m_kvh("GetBlock", msg, "UNKNOWN_BCSID"),
           stack_get_block(msg))
    b.audit(dn, t + ms(1), "ERROR", audit_body("GET_BLOCK", {"blockData": block_id(cid, lid, want)}, "FAILURE"),
            [f"java.lang.Exception: {msg}"] + AUDIT_FRAMES)


def recon_timeout(b, t, dn, fqdn="recon.example.com", ip="10.20.0.30"):
    b.main(dn, t, "WARN", f"{UUID[dn]}-DatanodeStateMachineDaemonThread", L.RUNNING_DATANODE_STATE,
           detected_timeout(host_and_port(fqdn, ip, 9891)))


# ----------------------------------------------------------------------------------------------------------
# The incident (bug bundles): Ratis log model of pipeline P around the failover
# ----------------------------------------------------------------------------------------------------------
CLIENT_B = "client-3E8A41D7C2B9"
CLIENT_C = "client-91F0D2A4B6E3"
CLIENT_XYZ = "client-5A2C8E1F0B34"
CLIENT_O = "client-07B6D5E4F3A2"


def p_entries(day):
    """(index, term, append time on leader, kind, cid, lid, chunk#, offset, len, client, callId)."""
    t = lambda s: T(f"{day} {s}")
    e = []
    # term 6, leader dn1 (committed; dn2/dn3 have them)
    pre = [
        ("WC", 1043, 113750153625600009, 2, 2 * CHUNK, CHUNK), ("WC", 1042, 113750153625600015, 1, CHUNK, CHUNK),
        ("WC", 1043, 113750153625600009, 3, 3 * CHUNK, CHUNK), ("PB", 1043, 113750153625600009, None, None, 4 * CHUNK),
        ("WC", 1042, 113750153625600015, 2, 2 * CHUNK, CHUNK), ("WC", 1042, 113750153625600015, 3, 3 * CHUNK, 1048576),
        ("PB", 1042, 113750153625600015, None, None, 3 * CHUNK + 1048576), ("WC", 1043, 113750153625600011, 0, 0, CHUNK),
        ("WC", 1043, 113750153625600011, 1, CHUNK, 2097152), ("PB", 1043, 113750153625600011, None, None, CHUNK + 2097152),
        ("WC", 1042, B, 0, 0, CHUNK), ("WC", 1042, B, 1, CHUNK, CHUNK), ("WC", 1043, 113750153625600021, 0, 0, CHUNK),
        ("WC", 1043, 113750153625600021, 1, CHUNK, CHUNK), ("WC", 1042, B, 2, 2 * CHUNK, CHUNK),
        ("WC", 1042, C, 0, 0, CHUNK), ("WC", 1043, 113750153625600021, 2, 2 * CHUNK, CHUNK),
        ("WC", 1043, 113750153625600021, 3, 3 * CHUNK, 1048576), ("PB", 1043, 113750153625600021, None, None, 3 * CHUNK + 1048576),
        ("WC", 1043, 113750153625600013, 0, 0, CHUNK), ("WC", 1043, 113750153625600013, 1, CHUNK, 524288),
        ("PB", 1043, 113750153625600013, None, None, CHUNK + 524288),
    ]
    t0 = t("10:20:44.120")
    call = {CLIENT_B: 611, CLIENT_C: 402, CLIENT_XYZ: 1280, CLIENT_O: 2230}
    for i, (k, cid, lid, n, off, ln) in enumerate(pre):
        cl = CLIENT_B if lid == B else CLIENT_C if lid == C else CLIENT_O
        call[cl] += 1
        e.append((18320 + i, 6, t0 + ms(int(i * 745)), k, cid, lid, n, off, ln, cl, call[cl]))
    # term 6, appended by dn1 only (dn1 -> dn2/dn3 traffic lost): truncated later
    for j, lid in enumerate((X, Y, Z)):
        call[CLIENT_XYZ] += 1
        e.append((18342 + j, 6, t("10:21:00.702") + ms(110 * j), "WC", 1043, lid, 0, 0, CHUNK, CLIENT_XYZ, call[CLIENT_XYZ]))
    retry_calls = {X: call[CLIENT_XYZ] - 2, Y: call[CLIENT_XYZ] - 1, Z: call[CLIENT_XYZ]}
    # term 7, leader dn2
    e.append((18342, 7, t("10:21:07.041"), "CONF", None, None, None, None, None, None, None))
    post = [
        ("10:21:08.262", "WC", 1042, B, 3, 3 * CHUNK, CHUNK, CLIENT_B, 626),
        ("10:21:08.270", "WC", 1042, C, 1, CHUNK, CHUNK, CLIENT_C, 418),
        ("10:21:08.290", "PB", 1042, B, None, None, 4 * CHUNK, CLIENT_B, 627),
        ("10:21:08.301", "WC", 1043, X, 0, 0, CHUNK, CLIENT_XYZ, retry_calls[X]),
        ("10:21:08.305", "WC", 1043, Y, 0, 0, CHUNK, CLIENT_XYZ, retry_calls[Y]),
        ("10:21:08.309", "WC", 1043, Z, 0, 0, CHUNK, CLIENT_XYZ, retry_calls[Z]),
        ("10:21:09.120", "WC", 1043, X, 1, CHUNK, 1048576, CLIENT_XYZ, retry_calls[Z] + 1),
        ("10:21:09.402", "PB", 1043, X, None, None, CHUNK + 1048576, CLIENT_XYZ, retry_calls[Z] + 2),
        ("10:21:09.733", "WC", 1043, Y, 1, CHUNK, 3145728, CLIENT_XYZ, retry_calls[Z] + 3),
        ("10:21:10.051", "PB", 1043, Y, None, None, CHUNK + 3145728, CLIENT_XYZ, retry_calls[Z] + 4),
        ("10:21:10.380", "WC", 1043, Z, 1, CHUNK, 524288, CLIENT_XYZ, retry_calls[Z] + 5),
        ("10:21:10.644", "PB", 1043, Z, None, None, CHUNK + 524288, CLIENT_XYZ, retry_calls[Z] + 6),
        ("10:21:16.905", "WC", 1043, 113750153625600031, 0, 0, CHUNK, CLIENT_O, call[CLIENT_O] + 1),
        ("10:21:18.212", "WC", 1043, 113750153625600031, 1, CHUNK, CHUNK, CLIENT_O, call[CLIENT_O] + 2),
        ("10:21:19.530", "WC", 1043, 113750153625600031, 2, 2 * CHUNK, 2097152, CLIENT_O, call[CLIENT_O] + 3),
        ("10:21:19.874", "PB", 1043, 113750153625600031, None, None, 2 * CHUNK + 2097152, CLIENT_O, call[CLIENT_O] + 4),
        ("10:21:41.280", "WC", 1042, C, 2, 2 * CHUNK, 2097152, CLIENT_C, 419),
        ("10:21:41.622", "PB", 1042, C, None, None, 2 * CHUNK + 2097152, CLIENT_C, 420),
        ("10:21:44.080", "WC", 1043, 113750153625600033, 0, 0, CHUNK, CLIENT_O, call[CLIENT_O] + 5),
        ("10:21:45.392", "WC", 1043, 113750153625600033, 1, CHUNK, 1048576, CLIENT_O, call[CLIENT_O] + 6),
        ("10:21:45.711", "PB", 1043, 113750153625600033, None, None, CHUNK + 1048576, CLIENT_O, call[CLIENT_O] + 7),
    ]
    post.sort(key=lambda r: r[0])
    for i, (s, k, cid, lid, n, off, ln, cl, cidx) in enumerate(post):
        e.append((18343 + i, 7, t(s), k, cid, lid, n, off, ln, cl, cidx))
    return e


def debug_entry_lines(b, rng, e, dn, p, t_app, t_done, t_apply, leader, write_new=True, batch_head=False,
                      skip_apply=False, mark=None):
    """DEBUG/TRACE lines of one log entry on one member (bug-debug bundle only)."""
    idx, term, _, kind, cid, lid, n, off, ln, cl, call = e
    mem = member(dn, p)
    grpc = f"grpc-default-executor-{rng.randrange(2, 9)}"
    if not leader and batch_head is not False:
        b.main(dn, t_app - ms(1), "DEBUG", grpc, L.RAFT_LOG, f"truncateIndex={batch_head[0]}, arrayIndex={batch_head[1]}")
    if kind == "CONF":
        b.main(dn, t_app, "TRACE", grpc, L.RAFT_LOG,
               f"{mem}-SegmentedRaftLog: appendEntry {ti(term, idx)}, CONFIGURATIONENTRY{peers_conf(b)}")
        return
    b.main(dn, t_app, "TRACE", grpc, L.RAFT_LOG,
           f"{mem}-SegmentedRaftLog: appendEntry {ti(term, idx)}, STATEMACHINELOGENTRY, {call}@{cl}",
           mark=mark and f"{mark}_trace")
    if kind == "WC":
        vol = vol_of(dn, cid)
        if write_new:
            b.main(dn, t_app + ms(1), "DEBUG", grpc, L.CONTAINER_STATE_MACHINE,
                   f"{ratis_group(p)}: writeChunk writeStateMachineData : blockId{proto_block_id(cid, lid)} logIndex {idx} "
                   f"chunkName {lid}_chunk_{n}", mark=mark and f"{mark}_submit")
            if t_done is not None:
                cw = f"{UUID[dn]}-ChunkWriter-{lid % 20}-0"
                b.main(dn, t_app + ms(3), "DEBUG", cw, L.FILE_PER_BLOCK,
                       f"Writing chunk {chunk_info(lid, n, off, ln)} (overwrite: false) in stage WRITE_DATA to file "
                       f"{bpath(vol, cid, lid)}")
                b.main(dn, t_done, "DEBUG", cw, L.CONTAINER_STATE_MACHINE,
                       f"{ratis_group(p)}: writeChunk writeStateMachineData  completed: blockId{proto_block_id(cid, lid)} "
                       f"logIndex {idx} chunkName {lid}_chunk_{n}")
        if t_apply is not None and not skip_apply:
            op = f"{UUID[dn]}-ContainerOp-{p}-{cid % 10}"
            b.main(dn, t_apply, "DEBUG", op, L.FILE_PER_BLOCK, f"Ignore chunk {chunk_info(lid, n, off, ln)} in stage COMMIT_DATA",
                   mark=mark and f"{mark}_ignore")
            b.main(dn, t_apply + ms(1), "DEBUG", op, L.CONTAINER_STATE_MACHINE,
                   f"gid {ratis_group(p)} : ApplyTransaction completed. cmd WriteChunk logIndex {idx} msg :  Container Result: SUCCESS")
    elif kind == "PB" and t_apply is not None and not skip_apply:
        op = f"{UUID[dn]}-ContainerOp-{p}-{cid % 10}"
        b.main(dn, t_apply, "DEBUG", op, L.CONTAINER_STATE_MACHINE,
               f"gid {ratis_group(p)} : ApplyTransaction completed. cmd PutBlock logIndex {idx} msg :  Container Result: SUCCESS",
               mark=mark and f"{mark}_apply")


def peers_conf(b):  # INFERRED: LogProtoUtils CONFIGURATIONENTRY with RaftPeerProto.toString (TextFormat)
    ps = ",".join(f'id: "{UUID[d]}"\naddress: "{b.h[d]["ip"]}:9858"\n' for d in MEMBERS[P])
    return f"(current:{ps}, old:)"


def incident(b, rng, day, debug):
    """dn1 = old leader with slow /data/disk2; dn2 = new leader (term 7); dn3 = follower."""
    t = lambda s: T(f"{day} {s}")
    G = ratis_group(P)
    m1 = member("dn1", P)
    w1 = f"{m1}-SegmentedRaftLogWorker"
    ents = p_entries(day)

    # --- 1. slow writes on dn1's disk2 (PERFORMANCE records; data writes of 1042/1043 while leader)
    slow = {}
    for e in ents:
        idx, term, ta, kind, cid, lid, n, off, ln, cl, call = e
        if term == 6 and kind == "WC" and idx < 18342:
            lat = rng.randrange(2300, 9800) if ta > t("10:20:50.000") else rng.randrange(1100, 4200)
            slow[idx] = lat
            b.audit("dn1", ta + ms(lat), "INFO",
                    audit_body("WRITE_CHUNK", {"blockData": block_id(cid, lid), "offset": str(off), "size": str(ln),
                                               "stage": "WRITE_DATA"}, "null", lat),
                    mark="perf_slow" if idx == 18335 else None)
    # the three pending writes of the truncated entries (complete long after the truncation)
    stale_done = {18342: t("10:21:22.406"), 18343: t("10:21:23.118"), 18344: t("10:21:24.027")}
    for e in ents:
        idx, term, ta, kind, cid, lid, n, off, ln, cl, call = e
        if term == 6 and idx in stale_done:
            b.audit("dn1", stale_done[idx] + ms(1), "INFO",
                    audit_body("WRITE_CHUNK", {"blockData": block_id(cid, lid), "offset": str(off), "size": str(ln),
                                               "stage": "WRITE_DATA"}, "null",
                               int((stale_done[idx] - ta).total_seconds() * 1000)),
                    mark=f"perf_stale_{idx}")

    # --- 2. Ratis WriteLog of 18342 waits for its pending data write (SegmentedRaftLogWorker WARN Timeout n/~)
    x = ents[22]
    assert x[0] == 18342 and x[1] == 6
    msg = (f"Timeout 10s: WriteLog:18342: {ti(6, 18342)}, STATEMACHINELOGENTRY, "
           f"{write_chunk_short(rng, 'dn1', P, 1043, X, 0, 0, CHUNK, 2)}-writeStateMachineData")
    b.main("dn1", t("10:21:10.731"), "WARN", w1, L.RAFT_LOG_WORKER, "Timeout 0/~", stack_timeout(msg), mark="timeout0")
    b.main("dn1", t("10:21:20.740"), "WARN", w1, L.RAFT_LOG_WORKER, "Timeout 1/~", stack_timeout(msg))

    # --- 3. election on dn2/dn3 (dn1's outgoing traffic lost 10:21:00.8 - 10:21:09.6)
    election(b, P, "dn2", "dn1", 6, 18341, 17, t("10:21:06.944"), (6241, 5132), {"dn3": 4, "dn1": 9},
             ({"dn3": t("10:21:06.961"), "dn1": t("10:21:06.963")}, t("10:21:06.983")),
             ({"dn3": t("10:21:07.004"), "dn1": t("10:21:07.012")}, t("10:21:07.038")), ["dn3"],
             (t("10:21:07.013"), 2, "role_change"), 1097,
             [("dn3", t("10:21:07.071"), 4, 1127, None), ("dn1", t("10:21:07.071"), 11, 58, "leader_change")])
    # dn1: first append from dn2 (previous entry (t:7, i:18342) unknown -> INCONSISTENCY), then the truncation
    b.main("dn1", t("10:21:07.074"), "INFO", "grpc-default-executor-11", L.RAFT_DIVISION,
           f"{m1}: Failed appendEntries as previous log entry ({ti(7, 18342)}) is not found")
    b.main("dn1", t("10:21:07.075"), "INFO", "grpc-default-executor-11", L.RAFT_DIVISION,
           f"{m1}: appendEntries* reply {UUID['dn2']}<-{UUID['dn1']}#0:FAIL-t7,INCONSISTENCY,nextIndex=18342,"
           f"followerCommit=18341,matchIndex=-1")
    t_tr = t("10:21:08.412")
    batch1 = [e for e in ents if e[1] == 7 and e[0] <= 18345]
    if debug:
        ent_s = ", ".join(
            f"{ti(7, e[0])}, CONFIGURATIONENTRY{peers_conf(b)}" if e[3] == "CONF"
            else f"{ti(7, e[0])}, STATEMACHINELOGENTRY, {e[10]}@{e[9]}" for e in batch1)
        b.main("dn1", t_tr - ms(2), "DEBUG", "grpc-default-executor-11", L.RAFT_LOG, "truncateIndex=18342, arrayIndex=0")
        b.main("dn1", t_tr - ms(1), "TRACE", "grpc-default-executor-11", L.RAFT_LOG_CACHE,
               f"{m1}-SegmentedRaftLogCache: truncate to 18342, arrayIndex=0, ti={ti(7, 18342)}, "
               f"storedEntry={ti(6, 18342)}, entries=[{ent_s}]", mark="dbg_cache_truncate")
    b.main("dn1", t_tr, "INFO", "grpc-default-executor-11", L.RAFT_LOG_WORKER, m_truncating(w1, 18342, 18001, 18344, 412733),
           mark="truncate")

    # --- 4. the new entries on every member (DEBUG only) and what dn1 shows at INFO
    # dn1's log worker is stuck behind the pending writes until 10:21:24.03, so its applies of 18343.. wait too
    b.main("dn1", t("10:21:24.031"), "INFO", w1, L.RAFT_LOG_WORKER,
           f"{w1}: Truncated log file {ratis_dir(P)}/log_inprogress_18001 to length 412733 and moved it to "
           f"{ratis_dir(P)}/log_18001-18341")
    last_apply = {}
    for e in ents:
        idx, term, ta, kind, cid, lid, n, off, ln, cl, call = e
        # leader side + follower receive times
        if term == 6:
            leader, fol = "dn1", (["dn2", "dn3"] if idx < 18342 else [])
        else:
            leader, fol = "dn2", ["dn1", "dn3"]
        if not debug:
            continue
        if term == 6 and idx >= 18342:
            continue  # dn1 only; written explicitly below
        for dn in [leader] + fol:
            is_leader = dn == leader
            t_app = ta if is_leader else ta + ms(rng.randrange(6, 25))
            if dn == "dn1" and term == 7 and idx <= 18345:
                t_app = t_tr + ms(1 + idx - 18342)
            elif dn == "dn1" and term == 7 and idx <= 18348:
                t_app = max(t_app, t_tr + ms(200))
            # data write duration
            if dn == "dn1" and term == 6:
                t_done = ta + ms(slow.get(idx, 0)) if idx < 18342 else stale_done[idx]
            else:
                t_done = t_app + ms(rng.randrange(18, 70))
            if dn == "dn1" and term == 7 and 18349 <= idx <= 18358 and kind == "WC":
                t_done = max(t_done, t("10:21:24.150") + ms(300 * (idx - 18349)))  # FIFO behind the retries
            t_apply = max(t_done, t_app) + ms(rng.randrange(25, 80)) if kind != "CONF" else None
            if kind == "PB":
                t_apply = t_app + ms(rng.randrange(30, 90))
            if t_apply is not None:  # Ratis applies in index order
                t_apply = max(t_apply, last_apply.get(dn, t_apply) + ms(1))
            write_new = True
            skip_apply = False
            no_done = False
            if dn == "dn1" and term == 7 and lid in (X, Y, Z) and n == 0:
                no_done = True  # written after the stale task, as an overwrite (logged below)
            if dn == "dn1" and term == 6 and idx >= 18342:
                t_apply = None  # truncated, never applied
            if dn == "dn1" and term == 7:
                if idx in (18343, 18344):
                    write_new = False  # THE BUG: writeStateMachineData returns the pending future of (t:6, i:idx)
                    t_apply = t("10:21:24.080") + ms(4 * (idx - 18343))
                elif idx == 18345:
                    t_apply = t("10:21:24.092")
                elif 18346 <= idx <= 18356:
                    t_apply = max(t_apply, t("10:21:24.100") + ms(5 * (idx - 18346)))
                if lid in (X, Y, Z) and n == 0:
                    t_apply = max(t_apply, t("10:21:24.900") + ms(350 * (idx - 18346)))
                if lid == C and n == 2:
                    no_done = True  # fails in the chunk executor: CHUNK_FILE_INCONSISTENCY, logged below
                    skip_apply = True  # GAP: apply on an UNHEALTHY container not catalogued
                if lid == C and kind == "PB":
                    skip_apply = True  # GAP: PutBlock on an UNHEALTHY container not catalogued
            head = False if is_leader else (-1, 0)
            if dn == "dn1" and term == 7 and idx <= 18345:
                head = False  # covered by the truncate batch above
            mk = None
            if term == 7 and idx in (18343, 18344, 18345) and dn in ("dn1", "dn2"):
                mk = f"dbg_{dn}_{idx}"
            if term == 7 and lid == C and n == 2 and dn == "dn1":
                mk = f"dbg_{dn}_{idx}"
            debug_entry_lines(b, rng, e, dn, P, t_app, None if (not write_new or no_done) else t_done, t_apply,
                              is_leader, write_new=write_new, batch_head=head, skip_apply=skip_apply, mark=mk)
            if t_apply is not None:
                last_apply[dn] = t_apply

    # stale completions in DEBUG (the old task completes the future now held by the new entry)
    if debug:
        for idx in (18342, 18343, 18344):
            e = [x for x in ents if x[0] == idx and x[1] == 6][0]
            _, _, ta, _, cid, lid, n, off, ln, cl, call = e
            mem = member("dn1", P)
            grpc = "grpc-default-executor-6"
            cw = f"{UUID['dn1']}-ChunkWriter-{lid % 20}-0"
            b.main("dn1", ta, "TRACE", grpc, L.RAFT_LOG,
                   f"{mem}-SegmentedRaftLog: appendEntry {ti(6, idx)}, STATEMACHINELOGENTRY, {call}@{cl}")
            b.main("dn1", ta + ms(1), "DEBUG", grpc, L.CONTAINER_STATE_MACHINE,
                   f"{G}: writeChunk writeStateMachineData : blockId{proto_block_id(cid, lid)} logIndex {idx} "
                   f"chunkName {lid}_chunk_{n}", mark=f"dbg_submit6_{idx}")
            b.main("dn1", ta + ms(3), "DEBUG", cw, L.FILE_PER_BLOCK,
                   f"Writing chunk {chunk_info(lid, n, off, ln)} (overwrite: false) in stage WRITE_DATA to file "
                   f"{bpath(2, cid, lid)}")
            b.main("dn1", stale_done[idx], "DEBUG", cw, L.CONTAINER_STATE_MACHINE,
                   f"{G}: writeChunk writeStateMachineData  completed: blockId{proto_block_id(cid, lid)} "
                   f"logIndex {idx} chunkName {lid}_chunk_{n}", mark=f"dbg_stale_done_{idx}")

    # retries of X/Y/Z overwrite the chunk the stale task wrote (WARN, both modes)
    for k, (lid, tw) in enumerate(((X, "10:21:22.409"), (Y, "10:21:23.121"), (Z, "10:21:24.030"))):
        cw = f"{UUID['dn1']}-ChunkWriter-{lid % 20}-0"
        b.main("dn1", t(tw), "WARN", cw, L.CHUNK_UTILS,
               f"Duplicate write chunk request. Chunk overwrite without explicit request. {chunk_info(lid, 0, 0, CHUNK)}",
               mark=f"dup_{k}")
        if debug:
            idx = 18346 + k
            b.main("dn1", t(tw) + ms(1), "DEBUG", cw, L.FILE_PER_BLOCK,
                   f"Writing chunk {chunk_info(lid, 0, 0, CHUNK)} (overwrite: true) in stage WRITE_DATA to file "
                   f"{bpath(2, 1043, lid)}")
            b.main("dn1", t(tw) + ms(rng.randrange(400, 700)), "DEBUG", cw, L.CONTAINER_STATE_MACHINE,
                   f"{G}: writeChunk writeStateMachineData  completed: blockId{proto_block_id(1043, lid)} "
                   f"logIndex {idx} chunkName {lid}_chunk_0")
        b.audit("dn1", t(tw) + ms(rng.randrange(600, 1200)), "INFO",
                audit_body("WRITE_CHUNK", {"blockData": block_id(1043, lid), "offset": "0", "size": str(CHUNK),
                                           "stage": "WRITE_DATA"}, "null", rng.randrange(13100, 15200)))

    # --- 5. later chunk of block C on dn1: CHUNK_FILE_INCONSISTENCY -> container 1042 UNHEALTHY
    tc = t("10:21:41.331")
    cw = f"{UUID['dn1']}-ChunkWriter-{C % 20}-0"
    msg = f"Chunk offset {2 * CHUNK} does not match length {CHUNK} of blockFile {C}.block"
    b.main("dn1", tc, "WARN", cw, L.KEY_VALUE_HANDLER, m_kvh("WriteChunk", msg, "CHUNK_FILE_INCONSISTENCY"), stack_write_chunk(msg),
           mark="inconsistency")
    b.audit("dn1", tc + ms(1), "ERROR",
            audit_body("WRITE_CHUNK", {"blockData": block_id(1042, C), "offset": str(2 * CHUNK), "size": "2097152",
                                       "stage": "WRITE_DATA"}, "FAILURE"),
            [f"java.lang.Exception: {msg}"] + AUDIT_FRAMES, mark="audit_inconsistency")
    b.main("dn1", tc + ms(4), "INFO", cw, L.HDDS_DISPATCHER, "Marked Container UNHEALTHY, ContainerID: 1042", mark="unhealthy")
    b.cont("dn1", tc + ms(3), "ERROR",
           cont_msg(1042, 18345, "UNHEALTHY", 2,
                    f"Container has 1 error: WRITE_FAILURE for file {cpath(2, 1042)} with exception: {SCE}"),
           mark="cont_unhealthy")
    if debug:
        b.main("dn1", tc + ms(6), "DEBUG", cw, L.CONTAINER_STATE_MACHINE,
               f"{G}: writeChunk writeStateMachineData  completed: blockId{proto_block_id(1042, C)} logIndex 18359 "
               f"chunkName {C}_chunk_2")

    # --- 6. SCM: ICR with the UNHEALTHY replica, container closed on the healthy replicas
    b.main("scm1", tc + ms(512), "INFO", f"{b.scm_prefix}FixedThreadPoolWithAffinityExecutor-2-0", L.ICR_HANDLER,
           "FINALIZE (i.e. CLOSING) " + replica_details(1042, "OPEN", 18345, "UNHEALTHY", 18345, UUID["dn1"], b.dd("dn1")),
           mark="scm_finalize")
    close_container(b, rng, t("10:22:10.207"), P, 1042, 18360, skip=("dn1",), cmd0=4417, enter=tc + ms(530))

    # --- 7. read of block B's last chunk served by dn1 (the chunk that was never written there)
    tr = t("10:21:57.604")
    rd = f"{UUID['dn1']}-ChunkReader-7"
    msg = f"Unexpected read size. expected: {CHUNK}, actual: -1"
    b.main("dn1", tr, "ERROR", rd, L.CHUNK_UTILS, msg, mark="read_size")
    b.main("dn1", tr + ms(1), "WARN", rd, L.KEY_VALUE_HANDLER, m_kvh("ReadChunk", msg, "CONTAINER_INTERNAL_ERROR"), stack_read_chunk(msg),
           mark="read_kvh")
    b.audit("dn1", tr + ms(2), "ERROR",
            audit_body("READ_CHUNK", {"blockData": block_id(1042, B, 18345), "offset": str(3 * CHUNK), "size": str(CHUNK)},
                       "FAILURE"),
            [f"java.lang.Exception: {msg}"] + AUDIT_FRAMES, mark="audit_read")


# ----------------------------------------------------------------------------------------------------------
# Bundle 1: bug, INFO, per-host file layout
# ----------------------------------------------------------------------------------------------------------
def hosts(dn, scm):
    """The hosts of a bundle: dn(i) -> (name, fqdn, ip) of datanode i = 1..4; scm: the same of scm1."""
    h = {"dn%d" % i: dict(zip(("name", "fqdn", "ip"), dn(i))) for i in range(1, 5)}
    h["scm1"] = dict(zip(("name", "fqdn", "ip"), scm))
    return h


def hosts_example():
    return hosts(lambda i: ("dn%d" % i, "dn%d.example.com" % i, "10.20.1.%d" % (10 + i)),
                 ("scm1", "scm1.example.com", "10.20.0.11"))


def groups_for(day, failover=True):
    t = lambda s: T(f"{day} {s}")
    gp = Group(P, t("10:21:00.700"), 18341, 0.62,
               [(t("00:00:00.000"), 6, "dn1")] + ([(t("10:21:07.040"), 7, "dn2")] if failover else []))
    gq = Group(Q, t("10:00:00.000"), 9120, 0.35, [(t("00:00:00.000"), 3, "dn3"), (t("09:22:31.600"), 4, "dn2")])
    gr = Group(R, t("10:00:00.000"), 5010, 0.21, [(t("00:00:00.000"), 4, "dn4")])
    return [gp, gq, gr]


def bug_info():
    day = "2026-08-19"
    t = lambda s: T(f"{day} {s}")
    b = Bundle("HDDS-17675-bug-info", hosts_example(), {"dn1": 0, "dn2": 112, "dn3": -87, "dn4": 41, "scm1": 18})
    rng = random.Random(17675)
    start, end = t("08:40:00.000"), t("11:12:00.000")
    routine(b, rng, start, end, groups_for(day), ["dn1", "dn2", "dn3", "dn4"],
            quiet={("dn1", 1042), ("dn1", 1043)})
    create_container(b, rng, t("09:02:14.310"), R, 1060)
    close_container(b, rng, t("09:31:40.118"), Q, 1048, 8177, cmd0=4301)
    create_container(b, rng, t("09:31:52.944"), Q, 1053)
    benign_unknown_bcsid(b, t("09:47:21.506"), "dn3", 1051, 8893, 8890, 113750153625600004)
    noise_election(b, Q, "dn3", "dn2", 3, groups_for(day)[1].idx(t("09:22:31.500")), t("09:22:31.500"), 9)
    recon_timeout(b, t("10:05:30.002"), "dn4")
    recon_timeout(b, t("10:47:00.011"), "dn2")
    incident(b, rng, day, debug=False)
    close_container(b, rng, t("10:52:03.550"), R, 1060, 5672, cmd0=4519)
    create_container(b, rng, t("10:52:20.031"), R, 1061)
    b.write_logs("file", rot_main={"dn1": [(t("10:00:00.000"), ".1")], "dn2": [(t("10:00:00.000"), ".1")]},
                 rot_audit={"dn1": [(t("10:00:00.000"), day)]})
    return b


# ----------------------------------------------------------------------------------------------------------
# Bundle 2: bug with DEBUG/TRACE, docker-compose console output
# ----------------------------------------------------------------------------------------------------------
LOG4J_DEBUG = (
    "# log4j.properties shipped in the compose environment (hadoop-ozone/dist/src/shell/conf/log4j.properties\n"
    "# plus the loggers datanode.md section 3.A lists for HDDS-17675)\n"
    + SHIPPED_CONSOLE_PROPERTIES
    + "\n# HDDS-17675 investigation\n"
    + logger_levels([(L.CONTAINER_STATE_MACHINE, "DEBUG"), (L.FILE_PER_BLOCK, "DEBUG"), (L.RAFT_LOG, "TRACE"),
                     (L.RAFT_LOG_CACHE, "TRACE")]))


def hosts_compose():
    return hosts(lambda i: ("datanode-%d" % i, "ozone-datanode-%d.ozone_default" % i, "172.18.0.%d" % (5 + i)),
                 ("scm-1", "ozone-scm-1.ozone_default", "172.18.0.3"))


def other_group_debug(b, rng, g, t0, t1, n_entries):
    """Unrelated traffic on pipelines Q and R in the debug window (all their members log DEBUG/TRACE)."""
    leader = g.terleader_change(t0)[1]
    term = g.terleader_change(t0)[0]
    idx = g.idx(t0)
    cid = CONTAINERS[g.p][0]
    lid = 113750153625600000 + rng.randrange(300, 900)
    n = 0
    last = {}
    span = (t1 - t0).total_seconds()
    for k in range(n_entries):
        ta = t0 + timedelta(seconds=span * (k + rng.random() * 0.5) / n_entries)
        idx += 1
        if n == 3:
            e = (idx, term, ta, "PB", cid, lid, None, None, 4 * CHUNK, CLIENT_O, 900 + k)
            lid = 113750153625600000 + rng.randrange(300, 900)
            n = 0
        else:
            e = (idx, term, ta, "WC", cid, lid, n, n * CHUNK, CHUNK, CLIENT_O, 900 + k)
            n += 1
        for dn in MEMBERS[g.p]:
            isl = dn == leader
            t_app = ta if isl else ta + ms(rng.randrange(5, 20))
            t_done = t_app + ms(rng.randrange(15, 60))
            t_apply = (t_done if e[3] == "WC" else t_app) + ms(rng.randrange(25, 70))
            t_apply = max(t_apply, last.get(dn, t_apply) + ms(1))
            last[dn] = t_apply
            debug_entry_lines(b, rng, e, dn, g.p, t_app, t_done, t_apply, isl, batch_head=False if isl else (-1, 0))


def bug_debug():
    day = "2026-08-19"
    t = lambda s: T(f"{day} {s}")
    b = Bundle("HDDS-17675-bug-debug", hosts_compose(),
               {"dn1": 0, "dn2": 0, "dn3": 0, "dn4": 0, "scm1": 0}, scm_prefix="")
    rng = random.Random(176752)
    start, end = t("10:12:00.000"), t("10:27:30.000")
    groups = groups_for(day)
    routine(b, rng, start, end, groups, ["dn1", "dn2", "dn3", "dn4"], quiet={("dn1", 1042), ("dn1", 1043)})
    for g in groups[1:]:
        other_group_debug(b, rng, g, t("10:20:40.000"), t("10:22:20.000"), 14)
    incident(b, rng, day, debug=True)
    b.write_logs("console")
    b.out.text("conf/log4j.properties", LOG4J_DEBUG)
    return b


# ----------------------------------------------------------------------------------------------------------
# Bundle 3: control, clean failover with truncation (vendor layout, flat folder)
# ----------------------------------------------------------------------------------------------------------
def clean_failover():
    day = "2026-08-21"
    t = lambda s: T(f"{day} {s}")
    b = Bundle("HDDS-17675-control-clean-failover", hosts_example(),
               {"dn1": 0, "dn2": -64, "dn3": 133, "dn4": 22, "scm1": -9})
    rng = random.Random(176753)
    start, end = t("13:05:00.000"), t("15:02:00.000")
    gp = Group(P, t("14:10:31.500"), 24761, 0.55, [(t("00:00:00.000"), 9, "dn1"), (t("14:10:37.421"), 10, "dn2")])
    gq = Group(Q, t("13:00:00.000"), 12280, 0.33, [(t("00:00:00.000"), 3, "dn3"), (t("14:52:10.400"), 4, "dn4")])
    gr = Group(R, t("13:00:00.000"), 7005, 0.2, [(t("00:00:00.000"), 5, "dn4")])
    routine(b, rng, start, end, [gp, gq, gr], ["dn1", "dn2", "dn3", "dn4"], quiet={("dn1", 1042), ("dn1", 1043)})
    create_container(b, rng, t("13:20:11.804"), Q, 1054)
    noise_election(b, Q, "dn3", "dn4", 3, gq.idx(t("14:52:10.300")), t("14:52:10.300"), 12, grpc_old=6, grpc_third=1)
    recon_timeout(b, t("13:31:00.004"), "dn3")
    benign_unknown_bcsid(b, t("13:44:02.117"), "dn2", 1060, 7402, 7399, 113750153625600141)
    m1 = member("dn1", P)
    w1 = f"{m1}-SegmentedRaftLogWorker"
    # dn1 (leader, term 9) loses its outgoing traffic for ~8 s; its two last entries are not replicated.
    # Their data writes finish at once (no slow disk): the write futures are gone before the truncation.
    election(b, P, "dn2", "dn1", 9, 24761, 31, t("14:10:36.312"), (5810, 5377), {"dn3": 2, "dn1": 5},
             ({"dn3": t("14:10:36.330"), "dn1": t("14:10:36.331")}, t("14:10:36.352")),
             ({"dn3": t("14:10:36.371"), "dn1": t("14:10:37.421")}, t("14:10:36.402")), ["dn3"],
             (t("14:10:37.422"), 2, "role_change"), 1006,
             [("dn3", t("14:10:36.430"), 2, 1031, None), ("dn1", t("14:10:37.861"), 8, 439, None)])
    b.main("dn1", t("14:10:37.864"), "INFO", "grpc-default-executor-8", L.RAFT_DIVISION,
           f"{m1}: Failed appendEntries as previous log entry ({ti(10, 24762)}) is not found")
    b.main("dn1", t("14:10:37.865"), "INFO", "grpc-default-executor-8", L.RAFT_DIVISION,
           f"{m1}: appendEntries* reply {UUID['dn2']}<-{UUID['dn1']}#0:FAIL-t10,INCONSISTENCY,nextIndex=24762,"
           f"followerCommit=24761,matchIndex=-1")
    b.main("dn1", t("14:10:37.990"), "INFO", "grpc-default-executor-8", L.RAFT_LOG_WORKER,
           m_truncating(w1, 24762, 24501, 24763, 301884), mark="truncate")
    b.main("dn1", t("14:10:37.996"), "INFO", w1, L.RAFT_LOG_WORKER,
           f"{w1}: Truncated log file {ratis_dir(P)}/log_inprogress_24501 to length 301884 and moved it to "
           f"{ratis_dir(P)}/log_24501-24761")
    # the client retries of the two truncated WriteChunks overwrite the (already written) chunks: benign
    for k, (lid, tw) in enumerate(((113750153625600131, "14:10:38.112"), (113750153625600133, "14:10:38.140"))):
        b.main("dn1", t(tw), "WARN", f"{UUID['dn1']}-ChunkWriter-{lid % 20}-0", L.CHUNK_UTILS,
               f"Duplicate write chunk request. Chunk overwrite without explicit request. {chunk_info(lid, 0, 0, CHUNK)}",
               mark=f"dup_{k}")
    # normal life afterwards: 1042 fills up and closes on all three replicas with the same BCSID
    close_container(b, rng, t("14:38:12.611"), P, 1042, 25802, cmd0=5120)
    create_container(b, rng, t("14:38:30.090"), P, 1044)
    b.write_logs("vendor", per_host=False)
    return b


# ----------------------------------------------------------------------------------------------------------
# Bundle 4: control, failing disk on dn3 (vendor layout without thread, rotations incl. .log.out.2.gz)
# ----------------------------------------------------------------------------------------------------------
def failing_disk():
    day = "2026-08-22"
    t = lambda s: T(f"{day} {s}")
    b = Bundle("HDDS-17675-control-failing-disk", hosts_example(),
               {"dn1": 0, "dn2": 57, "dn3": -141, "dn4": 88, "scm1": 12})
    rng = random.Random(176754)
    start, end = t("00:30:00.000"), t("03:40:00.000")
    gp = Group(P, t("01:00:00.000"), 31020, 0.5, [(t("00:00:00.000"), 11, "dn1")])
    gq = Group(Q, t("01:00:00.000"), 15204, 0.31, [(t("00:00:00.000"), 4, "dn3")])
    gr = Group(R, t("01:00:00.000"), 8801, 0.19, [(t("00:00:00.000"), 5, "dn4")])
    routine(b, rng, start, end, [gp, gq, gr], ["dn1", "dn2", "dn3", "dn4"])
    benign_unknown_bcsid(b, t("01:12:40.331"), "dn1", 1043, 30904, 30901, 113750153625600210)
    # old CLOSED containers on dn3's /data/disk3: a batch job reads them; the disk returns short reads
    bad = [  # (container, pipeline of origin, localID, chunk#, actual, scan kind)
        (1012, Q, 113750153625599871, 2, 1048576, "INCONSISTENT_CHUNK_LENGTH"),
        (1017, P, 113750153625599903, 0, -1, "MISSING_CHUNK"),
        (1023, Q, 113750153625599957, 5, 0, "INCONSISTENT_CHUNK_LENGTH"),
        (1017, P, 113750153625599911, 1, 2617344, None),
    ]
    bcs = {1012: 6011, 1017: 20144, 1023: 7790}
    t0 = t("02:41:07.214")
    scanned = set()
    for k, (cid, p, lid, n, actual, kind) in enumerate(bad):
        tr = t0 + timedelta(seconds=41 * k + rng.randrange(0, 9), milliseconds=rng.randrange(0, 999))
        rd = f"{UUID['dn3']}-ChunkReader-{rng.randrange(1, 12)}"
        msg = f"Unexpected read size. expected: {CHUNK}, actual: {actual}"
        b.main("dn3", tr, "ERROR", rd, L.CHUNK_UTILS, msg, mark=f"read_size_{k}")
        b.main("dn3", tr + ms(1), "WARN", rd, L.KEY_VALUE_HANDLER, m_kvh("ReadChunk", msg, "CONTAINER_INTERNAL_ERROR"),
               stack_read_chunk(msg), mark=f"read_kvh_{k}")
        b.audit("dn3", tr + ms(2), "ERROR",
                audit_body("READ_CHUNK", {"blockData": block_id(cid, lid, bcs[cid] - 17 * (k + 1)),
                                          "offset": str(n * CHUNK), "size": str(CHUNK)}, "FAILURE"),
                [f"java.lang.Exception: {msg}"] + AUDIT_FRAMES, mark=f"audit_read_{k}")
        if kind and cid not in scanned:
            scanned.add(cid)
            f = bpath(3, cid, lid)
            if kind == "MISSING_CHUNK":
                err = (f"MISSING_CHUNK for file {f} with exception: java.io.IOException: Missing chunk={lid}_chunk_{n} "
                       f"with expected length={CHUNK} for block {block_id(cid, lid, bcs[cid] - 17 * (k + 1))}")
            else:
                err = (f"INCONSISTENT_CHUNK_LENGTH for file {f} with exception: java.io.IOException: Inconsistent read "
                       f"for chunk={lid}_chunk_{n} expected length={CHUNK} actual length={max(actual, 0)} for block "
                       f"{block_id(cid, lid, bcs[cid] - 17 * (k + 1))}")
            ts = tr + ms(rng.randrange(900, 4000))
            b.main("dn3", ts, "ERROR", f"{UUID['dn3']}-OnDemandContainerDataScanner-0", L.ON_DEMAND_SCANNER,
                   f"Corruption detected in container [{cid}]. Marking it UNHEALTHY. Container has 1 error: {err}",
                   mark=f"scan_{cid}")
            b.cont("dn3", ts + ms(6), "ERROR", cont_msg(cid, bcs[cid], "UNHEALTHY", 3, f"Container has 1 error: {err}"),
                   mark=f"cont_unhealthy_{cid}")
            src = "dn2" if p == Q else "dn1"
            tgt = "dn1" if p == Q else "dn4"
            trm = ts + timedelta(minutes=3, milliseconds=rng.randrange(0, 900))
            b.main("scm1", trm, "INFO", "scm1-UnderReplicatedProcessor", L.REPLICATION_MANAGER,
                   rm_sending(replicate_command(6100 + k, cid, b.dd(tgt)),
                              container_info(cid, "CLOSED", T("2026-08-20 16:02:44.318"), p), b.dd(src),
                              epoch_ms(trm) + 1800000, epoch_ms(trm) + 2400000), mark=f"scm_replicate_{cid}")
    close_container(b, rng, t("01:48:33.402"), Q, 1051, 15760, cmd0=5901)
    create_container(b, rng, t("01:48:51.870"), Q, 1055)
    # vendor-managed layout (no thread), per-host folders, role-named files with .log.out.N rotations
    b.write_logs("vendor", rot_main={"dn3": [(t("01:30:00.000"), ".2.gz"), (t("02:30:00.000"), ".1")],
                                     "dn2": [(t("02:05:00.000"), ".1")]})
    return b


# ----------------------------------------------------------------------------------------------------------
# EXPECTED.json and SOURCE.md (written by the generator so that file:line stays exact)
# ----------------------------------------------------------------------------------------------------------
EXPECTED = {
    "HDDS-17675-bug-info": [
        finding(RULE, f"block:1042:{B}", "likely"),
        finding(RULE, f"block:1042:{C}", "likely"),
    ],
    "HDDS-17675-bug-debug": [
        finding(RULE, f"block:1042:{B}", "confirmed"),
        finding(RULE, f"block:1042:{C}", "confirmed"),
    ],
    "HDDS-17675-control-clean-failover": [],
    "HDDS-17675-control-failing-disk": [],
}

IDS_MD = f"""## Identities

| what | value |
|---|---|
| cluster | `{CLUSTER}` |
| dn1 / dn2 / dn3 / dn4 | `{UUID['dn1']}` / `{UUID['dn2']}` / `{UUID['dn3']}` / `{UUID['dn4']}` |
| pipeline P (dn1, dn2, dn3) | `Pipeline-{P}`, Ratis `{ratis_group(P)}` |
| pipeline Q (dn2, dn3, dn4) | `Pipeline-{Q}`, Ratis `{ratis_group(Q)}` |
| pipeline R (dn1, dn2, dn4) | `Pipeline-{R}`, Ratis `{ratis_group(R)}` |
| containers | 1042, 1043 on P; 1048, 1051, 1053-1055 on Q; 1060, 1061 on R; 1012, 1017, 1023 old CLOSED |
"""

TEMPLATES_MD = """## Templates used (catalogue = /work/shared/ozone-logs/)

Wording is the catalogue's (apache/ozone HEAD 78d5650c, Ratis 3.2.1). Audit params as JSON and
`Pipeline-<uuid>` need Ozone >= 2.1.0, so the bundles stand for a 2.1.x/2.2.x cluster (HDDS-17675 affects
2.0.0-2.2.2); I did not re-check each string at the `ozone-2.1.0`/`ozone-2.2.0` tags.

| template | catalogue | class (logger), level |
|---|---|---|
| `{}: changes role from {} to {} at term {} for {}` (old role `%9s`: `   LEADER`, ` FOLLOWER`) | datanode.md 1.5, 2.1 | RaftServerImpl (`org.apache.ratis.server.RaftServer$Division`), INFO |
| `{}: change Leader from {} to {} at term {} for {}{}` (`, leader elected after <n>ms`) | datanode.md 2.1 | ServerState (`RaftServer$Division`), INFO |
| `{}: receive requestVote({}, {}, {}, {}, {})` | datanode.md 2.1 | RaftServerImpl, INFO |
| `{}: change to CANDIDATE, lastRpcElapsedTime:{}, electionTimeout:{}` | datanode.md 2.1 | FollowerState, INFO |
| `{}: shutdown {}` / `{}: start {}` | datanode.md 2.1 | RoleInfo, INFO |
| `{}: {} {} received {} response(s) and {} exception(s):` + `  Response {}: {}`; `{} {} round {}: result {}` | datanode.md 2.1 | LeaderElection, INFO |
| `{}: Failed appendEntries as previous log entry ({}) is not found`; `{}: appendEntries* reply {}` (INCONSISTENCY) | datanode.md 2.1, 4 | RaftServerImpl, INFO |
| `Leader change notification received for group: {} with new leaderId: {}` | datanode.md 2.1, 2.4 | XceiverServerRatis, INFO |
| `{}: Truncating segments truncate(N)` / `  toTruncate: ...` / `    toDelete: [], start index N` (3 lines) | datanode.md 1.1, 1.5, 2.2 | SegmentedRaftLogWorker, INFO |
| `{}: Truncated log file {} to length {} and moved it to {}` | datanode.md 2.2 | SegmentedRaftLogWorker, INFO |
| `Timeout 0/~` + `TimeoutIOException: Timeout 10s: WriteLog:<i>: (t:T, i:I), STATEMACHINELOGENTRY, <smProtoToString>-writeStateMachineData` | datanode.md 2.2, 3.A step 1 | SegmentedRaftLogWorker, WARN |
| `{}: Rolling segment {} to index:{}`, `{}: Rolled log segment from {} to {}`, `{}: Starting segment from index:{}`, `{}: created new log segment {}` | datanode.md 2.2 | SegmentedRaftLogWorker, INFO |
| `{}: Taking a snapshot at:{} file {}`, `{}: Finished taking a snapshot at:{} file:{} took: {} ms` / `{}: Took a snapshot at index {}` | datanode.md 2.3 / 2.2 | ContainerStateMachine / StateMachineUpdater, INFO |
| `Operation: {} , Trace ID: {} , Message: {} , Result: {} , StorageContainerException Occurred.` + stack | datanode.md 2.5 | KeyValueHandler (ContainerUtils.logAndReturnError), WARN |
| `Chunk offset <o> does not match length <l> of blockFile <localID>.block` (CHUNK_FILE_INCONSISTENCY) | datanode.md 2.5, 3.A step 6 | ChunkUtils.validateChunkSize (exception text) |
| `Marked Container UNHEALTHY, ContainerID: {}` | datanode.md 2.5 | HddsDispatcher, INFO |
| `Unexpected read size. expected: %d, actual: %d` | datanode.md 2.5, 3.A step 7 | ChunkUtils, ERROR |
| `Duplicate write chunk request. Chunk overwrite without explicit request. {}` (`ChunkInfo{chunkName='..., offset=.., len=..}`) | datanode.md 2.5, 3.A step 6, 4 | ChunkUtils, WARN |
| `Unable to find the block with bcsID <b>. Container <c> bcsId is <b'>.` (UNKNOWN_BCSID, benign noise) | datanode.md 2.5 | BlockUtils (exception text) via KeyValueHandler WARN |
| `Detected timeout: Timeout occurred on endpoint: <recon HostAndPort>` (benign Recon timeout) | datanode.md 2.6, 3.B | RunningDatanodeState, WARN |
| dn-audit `user=null | ip=null | op=OP {json} | ret=...` (+ ` | perf={preOpLatencyMs=0, opLatencyMs=N}` with `ret=null`), failures 3 lines | datanode.md 1.2 | DNAudit (log4j2 audit layout) |
| dn-container `ID= | Index= | BCSID= | State= | Volume= | DataChecksum=` (+ ScanResult for UNHEALTHY) | datanode.md 1.3 | ContainerLogger |
| `FINALIZE (i.e. CLOSING) {}`, `CLOSE {}` with `Container #<id> (<state>, sid=..) r0 (<state>, bcsid=.., origin=.., non-empty) from dn <uuid>(<host>/<ip>)` | scm.md 2.3 | IncrementalContainerReportHandler, INFO |
| `Sending command [{}] for container {} to {} with datanode deadline {} and scm deadline {}` with `ContainerInfo{id=#.., state=.., stateEnterTime=.., pipelineID=Pipeline-.., owner=om1}` | scm.md 2.5, 3 | ReplicationManager, INFO |
| `Replication Monitor Thread took {} milliseconds for processing {} containers.` | scm.md 2.5 | ReplicationManager, INFO |
"""

DEBUG_TEMPLATES_MD = """| `{}: writeChunk writeStateMachineData : blockId{} logIndex {} chunkName {}` (blockId = multi-line DatanodeBlockID TextFormat) | datanode.md 2.3, 1.1, 4 | ContainerStateMachine, DEBUG |
| `<gid>: writeChunk writeStateMachineData  completed: blockId<..> logIndex <i> chunkName <n>` (two spaces) | datanode.md 2.3 | ContainerStateMachine, DEBUG |
| `gid {} : ApplyTransaction completed. cmd {} logIndex {} msg : {} Container Result: {}` | datanode.md 2.3 | ContainerStateMachine, DEBUG |
| `Writing chunk {} (overwrite: {}) in stage {} to file {}`, `Ignore chunk {} in stage {}` | datanode.md 2.5 | FilePerBlockStrategy, DEBUG |
| `truncateIndex={}, arrayIndex={}` | datanode.md 2.2 | SegmentedRaftLog (`org.apache.ratis.server.raftlog.RaftLog`), DEBUG |
| `{}: appendEntry {}` | datanode.md 2.2, 3.A | SegmentedRaftLog (`...raftlog.RaftLog`), TRACE |
| `{}: truncate to {}, arrayIndex={}, ti={}, storedEntry={}, entries={}` | datanode.md 2.2 | SegmentedRaftLogCache, TRACE |
"""

INFERRED_COMMON = """## Values the catalogue does not give (inferred; say so if you rely on them)

* Ratis segment name in `Rolling segment log-<start>_<end>`, the paths under `/data/ratis/<pipeline>/current/`
  and snapshot files `/data/ratis/<pipeline>/sm/snapshot.<term>_<index>`.
* The `change Leader ... for becomeLeader` op string on the new leader (only `APPEND_ENTRIES` is in the catalogue).
* Executor indices: `ChunkWriter-<localID % 20>-0`, `ContainerOp-<pipeline>-<containerID % 10>`; slow-op
  threshold 500 ms; `ChunkReader-<n>` for standalone reads.
* Stack frames after the first one and all line numbers are illustrative (the catalogue gives the first frame only).
* The `checksumData { type: CRC32 bytesPerChecksum: 16384 checksums: "..." }` part of the WriteChunk
  shortDebugString in the `Timeout` exception comes from the ChunkInfo/ChecksumData proto, not the catalogue
  (which elides it with `...`); `version`/`encodedToken` fields are not printed.
* `Caused by: java.util.concurrent.TimeoutException` under the TimeoutIOException.

## Lines real Ozone would print that are left out (catalogue lacks the wording)

* LeaderElection `submit vote requests at term {} for {}` (the `ConfAndTerm` rendering is not given) and
  RaftServerImpl `{} replies to {} vote request: {}. Peer's state: {}`; a `change Leader from <old> to null`
  line at the term update (the catalogue's own excerpt shows none).
"""


def source_md(name, w):
    if name == "HDDS-17675-bug-info":
        return f"""# HDDS-17675-bug-info: stale write future reused after truncation (default INFO level)

Rule `reused-write-future` (HDDS-17675). Expected: two findings, `likely` (effects + preconditions, the
reuse itself is not logged at INFO; CLI-CONTRACT confidence words).

## Layout
Per-host folders, file layout `%d{{ISO8601}} [%t] %p %c: %m%n` (full logger). dn1 and dn2 main logs
rotated at 10:00 (`.log.1` older); dn1 audit rotated into `dn-audit-dn1-2026-08-19-1.log.gz`. Audit and
container logs use the log4j2 layouts of datanode.md 1.2/1.3. UTC; host clocks skewed (dn2 +112 ms,
dn3 -87 ms, dn4 +41 ms, scm1 +18 ms). Generated by `samples/gen/hdds_17675.py` (seed 17675).

{IDS_MD}
Blocks: B = `{B}` (container 1042, key 1), C = `{C}` (1042, key 2); X/Y/Z = `{X}`, `{Y}`, `{Z}` (1043).

## Story
* 08:40-11:12 routine traffic on pipelines P, Q, R: segment rolls, snapshots, slow-op PERFORMANCE audit
  records, container create/close (1048, 1053, 1060, 1061), a benign UNKNOWN_BCSID GetBlock on dn3, two Recon
  `Detected timeout`s, and a leader change on pipeline Q at 09:22 (dn3 LEADER -> FOLLOWER, **no truncation**).
* From 10:20:45 dn1's `/data/disk2` (containers 1042, 1043) is slow: WRITE_CHUNK PERFORMANCE records of 1-10 s.
* dn1 leads P at term 6. At 10:21:00.7 it appends WriteChunks X, Y, Z chunk_0 at indices 18342-18344; its
  outgoing traffic is lost for a few seconds, so dn2/dn3 never get them, and their data writes are queued
  behind the slow disk. `Timeout 0/~` / `1/~` for `WriteLog:18342` show the pending write (X).
* dn2 wins term 7; dn1 steps down (`candidate:`), learns the leader, and truncates at 18342 (its entries
  18342-18344 of term 6). dn2's log puts its startup CONFIGURATIONENTRY at 18342, **B chunk_3 (last chunk of B)
  at 18343, C chunk_1 at 18344**, PutBlock(B) at 18345.
* On dn1 the new 18343/18344 reuse the pending futures of Y and Z (not logged): B chunk_3 and C chunk_1 are
  never written on dn1, the entries are acked and applied, PutBlock(B) commits BCSID 18345.
* The stale writes finish at 10:21:22-24 (PERFORMANCE records with 21.7-23.1 s latency); the client retries of
  X, Y, Z overwrite what they wrote (`Duplicate write chunk request`, benign by itself).
* 10:21:41 C chunk_2 (offset 8388608) arrives: C's block file on dn1 is only 4194304 long ->
  CHUNK_FILE_INCONSISTENCY, container 1042 marked UNHEALTHY on dn1 only; SCM FINALIZEs 1042 from the ICR and
  closes it on dn2/dn3 (BCSID 18360).
* 10:21:57 a reader served by dn1 reads B chunk_3 (offset 12582912): `Unexpected read size. expected:
  4194304, actual: -1` (B's file on dn1 ends at 12582912), CONTAINER_INTERNAL_ERROR, READ_CHUNK FAILURE.
  dn2/dn3 hold the chunk (nothing logged there).

## Evidence chain (file:line)
Preconditions (dn1, group {ratis_group(P)}):
* `{w['perf_slow']}` (and the lines around it): dn-audit PERFORMANCE WRITE_CHUNK records of 1-10 s on 1042/1043.
* `{w['role_change']}`: `changes role from    LEADER to FOLLOWER at term 7 for candidate:{UUID['dn2']}`.
* `{w['leader_change']}`: `change Leader from null to {UUID['dn2']} at term 7 for APPEND_ENTRIES`.
* `{w['truncate']}`: `Truncating segments truncate(18342)` (3 lines), newEndIndex=18341, on the member that was
  LEADER 1.4 s earlier; its last appended index was 18344.
* `{w['timeout0']}`: WARN `Timeout 0/~`, `WriteLog:18342: (t:6, i:18342)` WriteChunk of container 1043: a data
  write of a truncated entry was still pending at the truncation (10 s after append, 2.3 s after truncation).
* `{w['perf_stale_18342']}`, `{w['perf_stale_18343']}`, `{w['perf_stale_18344']}`: those pending writes finish
  21.7-23.1 s after they started, 14-16 s after the truncation.
Effects (dn1 only):
* `{w['inconsistency']}`: WARN `Operation: WriteChunk ... Chunk offset 8388608 does not match length 4194304
  of blockFile {C}.block , Result: CHUNK_FILE_INCONSISTENCY` -> block `1042:{C}`; audit `{w['audit_inconsistency']}`.
* `{w['unhealthy']}`: `Marked Container UNHEALTHY, ContainerID: 1042`; dn-container `{w['cont_unhealthy']}`
  `State=UNHEALTHY ... WRITE_FAILURE`; SCM `{w['scm_finalize']}` `FINALIZE (i.e. CLOSING) Container #1042 (OPEN,
  ...) r0 (UNHEALTHY, ...) from dn {UUID['dn1']}(dn1.example.com/10.20.1.11)` with the later close command
  naming `pipelineID=Pipeline-{P}` (joins container 1042 to {ratis_group(P)}).
* `{w['read_size']}`: ERROR `Unexpected read size. expected: 4194304, actual: -1`; `{w['read_kvh']}`: WARN
  `Operation: ReadChunk ... Result: CONTAINER_INTERNAL_ERROR`; audit `{w['audit_read']}` READ_CHUNK FAILURE
  `blockData: conID: 1042 locID: {B} bcsId: 18345` -> block `1042:{B}` (the block name is only in the audit line).
Not the bug by itself: `{w['dup_0']}`-`{w['dup_2']}` `Duplicate write chunk request` (client retries of the
truncated entries), the Q leader change at 09:22 (no truncate), UNKNOWN_BCSID on dn3, Recon timeouts.

Why `likely`, not `confirmed`: at INFO nothing shows which index B chunk_3 / C chunk_1 had or that their
futures were reused (datanode.md 3.A "Not logged at all").

{TEMPLATES_MD}
{INFERRED_COMMON}* On dn1, after 1042 is UNHEALTHY, the COMMIT_DATA apply of C chunk_2 and PutBlock(C) would be
  rejected with CONTAINER_UNHEALTHY (KeyValueHandler WARN + dn-audit FAILURE) and the CloseContainer Ratis
  transaction is applied on an UNHEALTHY replica; the catalogue gives neither message, so these lines are
  absent. Reads from an UNHEALTHY container are assumed to be served (catalogue 3.A step 7 sequence).
"""
    if name == "HDDS-17675-bug-debug":
        return f"""# HDDS-17675-bug-debug: the same incident with DEBUG/TRACE loggers on (docker-compose)

Rule `reused-write-future` (HDDS-17675). Expected: the same two blocks, `confirmed`: the DEBUG lines show the
reused future itself.

## Layout
`docker-compose.log`: compose v2 output of services `scm-1`, `datanode-1..4` interleaved, prefix
`<service> | ` padded (`datanode-1  | `, `scm-1       | `) on every physical line including stack traces and
multi-line messages; console layout `%d{{ISO8601}} [%t] %p %c{{2}}: %m%n` (`ratis.ContainerStateMachine`,
`server.RaftServer$Division`, `raftlog.RaftLog`, ...). Non-HA SCM, so SCM thread names carry no `scm1-` prefix.
Per-service `datanode-N/dn-audit-datanode-N.log` and `dn-container-datanode-N.log` (log4j2 layouts).
`conf/log4j.properties` switches on ContainerStateMachine and FilePerBlockStrategy at DEBUG,
`org.apache.ratis.server.raftlog.RaftLog` and `...segmented.SegmentedRaftLogCache` at TRACE, on all datanodes.
Hosts `ozone-datanode-N.ozone_default/172.18.0.x`; one clock (same docker host). Window 10:12-10:27.

{IDS_MD}
Blocks as in bug-info: B = `{B}`, C = `{C}` (1042); X/Y/Z = `{X}`, `{Y}`, `{Z}` (1043).

## Story
Identical to HDDS-17675-bug-info (same indices, times, blocks), plus the DEBUG/TRACE lines of every log entry
on every member of P, and of a little traffic on Q and R.

## Evidence chain (file:line; all in docker-compose.log unless named)
The index -> block mapping (new leader dn2, term 7):
* `{w['dbg_dn2_18343_trace']}`/`{w['dbg_dn2_18343_submit']}`: dn2 `appendEntry (t:7, i:18343)` and
  `writeChunk writeStateMachineData : blockIdcontainerID: 1042 / localID: {B} / ... logIndex 18343 chunkName {B}_chunk_3`.
* `{w['dbg_dn2_18344_submit']}`: dn2 `... localID: {C} ... logIndex 18344 chunkName {C}_chunk_1`.
The old entries at those indices on dn1 (term 6, still writing):
* `{w['dbg_submit6_18342']}`, `{w['dbg_submit6_18343']}`, `{w['dbg_submit6_18344']}`: dn1 submits X, Y, Z chunk_0 at
  logIndex 18342-18344 (term 6, `appendEntry (t:6, i:...)` just above), each followed by `Writing chunk ...
  in stage WRITE_DATA` on its ChunkWriter.
* `{w['role_change']}` LEADER -> FOLLOWER at term 7; `{w['leader_change']}` new leader dn2.
* `{w['dbg_cache_truncate']}`: TRACE `truncate to 18342, arrayIndex=0, ti=(t:7, i:18342), storedEntry=(t:6, i:18342),
  entries=[... (t:7, i:18343), STATEMACHINELOGENTRY, 626@{CLIENT_B}, (t:7, i:18344), ...]` (multi-line: the
  CONFIGURATIONENTRY prints peer protos); `{w['truncate']}` INFO `Truncating segments truncate(18342)`.
The reuse (dn1):
* `{w['dbg_dn1_18343_trace']}`, `{w['dbg_dn1_18344_trace']}`: dn1 `appendEntry (t:7, i:18343)` / `(t:7, i:18344)` with
  **no** following `writeChunk writeStateMachineData : ... logIndex 18343|18344` line (the only ones for those
  indices on dn1 are the term-6 submits above) and no `Writing chunk ... {B}_chunk_3|{C}_chunk_1`.
* `{w['dbg_stale_done_18343']}`, `{w['dbg_stale_done_18344']}`: `writeStateMachineData  completed: blockId ... localID:
  {Y}|{Z} ... logIndex 18343|18344`: the truncated term-6 tasks complete the futures now held by the term-7 entries.
* `{w['dbg_dn1_18343_ignore']}`, `{w['dbg_dn1_18344_ignore']}`: `Ignore chunk ChunkInfo{{chunkName='{B}_chunk_3, ...}} in stage
  COMMIT_DATA` + `ApplyTransaction completed. cmd WriteChunk logIndex 18343 ... SUCCESS` (same for C chunk_1 at
  18344); `{w['dbg_dn1_18345_apply']}`: `ApplyTransaction completed. cmd PutBlock logIndex 18345` (BCSID 18345).
  Compare dn2 `{w['dbg_dn2_18343_ignore']}` and `{w['dbg_dn2_18345_apply']}`, which did write the data first.
Effects (as in bug-info):
* `{w['timeout0']}` `Timeout 0/~` (WriteLog:18342 pending); `{w['inconsistency']}` CHUNK_FILE_INCONSISTENCY on C
  (after dn1's fresh submit of 18359 at `{w['dbg_dn1_18359_submit']}`); `{w['unhealthy']}` Marked UNHEALTHY;
  `datanode-1/dn-container-datanode-1.log:1` State=UNHEALTHY; `{w['scm_finalize']}` SCM FINALIZE;
  `{w['read_size']}`/`{w['read_kvh']}` Unexpected read size / CONTAINER_INTERNAL_ERROR for B chunk_3; audit
  `{w['audit_read']}` READ_CHUNK FAILURE (`locID: {B}`), `{w['audit_inconsistency']}` WRITE_CHUNK FAILURE (`locID: {C}`);
  PERFORMANCE records `{w['perf_slow']}`.., stale completions `{w['perf_stale_18342']}`-`{w['perf_stale_18344']}`.

{TEMPLATES_MD}{DEBUG_TEMPLATES_MD}
{INFERRED_COMMON}* **Catalogue disagreement**: datanode.md 3.A says RaftLog TRACE `appendEntry` prints the WriteChunk
  shortDebugString. In Ratis 3.x `SegmentedRaftLog.appendEntryImpl` logs `LogProtoUtils.toLogEntryString(entry)`
  with no state-machine formatter, i.e. `(t:T, i:I), STATEMACHINELOGENTRY, <callId>@client-<12 HEX>`
  (`ClientInvocationId.toString` = `longId + "@" + clientId`); checked in the Ratis source. The bundle follows
  the source, so the TRACE line does not name the block; the CSM DEBUG lines do.
* `entries=` of the cache TRACE is `LogProtoUtils.toLogEntriesString` (a List of the same strings); the startup
  CONFIGURATIONENTRY renders `(current:<RaftPeerProto.toString() joined by ','>, old:)`, multi-line TextFormat;
  the peer fields shown (`id`, `address` with port 9858) are my guess.
* Log names `<memberId>-SegmentedRaftLog` / `<memberId>-SegmentedRaftLogCache`; `truncateIndex=-1, arrayIndex=0`
  for a batch without conflict (the cache code initialises truncateIndex to -1).
* The CSM `completed` DEBUG line after a CHUNK_FILE_INCONSISTENCY result (CSM treats the result as OK) and no
  `Writing chunk` DEBUG line for that failed write (validation precedes it).
* The submit DEBUG line is logged on a `grpc-default-executor-N` thread (catalogue 1.4: free text).
* Omitted for lack of wording, as in bug-info: dn1's rejected apply of C chunk_2 (18359) and PutBlock(C)
  (18360) on the UNHEALTHY container (their `ApplyTransaction` DEBUG lines too), the CloseContainer transaction,
  and `Removing data corresponding to log index {{}} min index {{}} from cache` (catalogue does not say when it fires).
"""
    if name == "HDDS-17675-control-clean-failover":
        return f"""# HDDS-17675-control-clean-failover: leader change with truncation, nothing pending (benign)

Expected `[]`.

## Layout
Flat folder, vendor-managed file names (`hadoop-cmf-ozone-HDDS_DATANODE-<fqdn>.log.out`,
`hadoop-cmf-ozone-STORAGE_CONTAINER_MANAGER-scm1.example.com.log.out`) and the vendor layout without thread
`%d{{ISO8601}} %p %c: %m%n`; `dn-audit-<fqdn>.log`, `dn-container-<fqdn>.log`. UTC, clocks skewed (dn2 -64 ms,
dn3 +133 ms). Day 2026-08-21, 13:05-15:02. Same cluster identities as the bug bundles.

{IDS_MD}
## Story
* dn1 leads P at term 9. At 14:10:3x its outgoing traffic is lost for a few seconds; its last two WriteChunks
  (24762, 24763; blocks `113750153625600131`, `113750153625600133` of 1043) are not replicated. Their data writes
  finish at once (no slow disk: no PERFORMANCE records for dn1's 1042/1043, no `Timeout n/~`), so no write
  future is left in the map when the truncation comes.
* dn2 wins term 10; dn1 steps down (`candidate:`), truncates at 24762 (same shape as the bug).
* The clients' retries of those two chunks overwrite what dn1 already wrote: two `Duplicate write chunk
  request` WARNs (benign).
* Life goes on: 1042 fills and closes on all three replicas with the same BCSID 25802 (CLOSING/CLOSED in all
  three dn-container logs, one SCM `CLOSE` ICR line), 1044 is created; an unrelated leader change on Q at
  14:52 (dn3 LEADER -> FOLLOWER, no truncation); a benign UNKNOWN_BCSID on dn2 and a Recon timeout on dn3.
* No CHUNK_FILE_INCONSISTENCY, no `Marked Container UNHEALTHY`, no `Unexpected read size`, no UNHEALTHY replica.

## What a naive rule would flag (file:line)
* `{w['role_change']}` `changes role from    LEADER to FOLLOWER at term 10 for candidate:{UUID['dn2']}` and
  `{w['truncate']}` `Truncating segments truncate(24762)` on the same member 0.6 s later: the full Ratis-side
  precondition of datanode.md 3.A (b).
* `{w['dup_0']}`, `{w['dup_1']}` `Duplicate write chunk request` right after the truncation.
Why benign: no sign of a pending data write at the truncation (no slow-op records, no `Timeout n/~`), and no
effect afterwards on any block or container of P (datanode.md 3.A benign look-alike). A precondition alone.

{TEMPLATES_MD}
{INFERRED_COMMON}"""
    if name == "HDDS-17675-control-failing-disk":
        return f"""# HDDS-17675-control-failing-disk: short reads from a failing volume on dn3 (benign for this rule)

Expected `[]` (a disk problem, not HDDS-17675).

## Layout
Per-host folders, vendor-managed file names and layout without thread `%d{{ISO8601}} %p %c: %m%n`; dn3's
main log rotated as `.log.out.2.gz` (oldest), `.log.out.1`, `.log.out`; dn2 as `.log.out.1`, `.log.out`.
`dn-audit-<fqdn>.log`, `dn-container-<fqdn>.log`. UTC, clocks skewed (dn3 -141 ms, dn4 +88 ms). Day
2026-08-22, 00:30-03:40. Same cluster identities.

{IDS_MD}
## Story
* Routine traffic on P, Q, R (segment rolls, snapshots, slow-op records, 1051 closes, 1055 is created, a benign
  UNKNOWN_BCSID on dn1). No role change, no election and no truncation anywhere in the bundle.
* 02:41-02:43 a batch job reads old CLOSED containers 1012, 1017, 1023 whose replicas on dn3 live on the
  failing `/data/disk3`: four ReadChunks on four blocks in three containers return short (`actual: 1048576`,
  `-1`, `0`, `2617344`). After each first failure the on-demand scan marks the container UNHEALTHY
  (`INCONSISTENT_CHUNK_LENGTH` / `MISSING_CHUNK`), dn-container `State=UNHEALTHY`, and SCM re-replicates each
  container from a healthy replica.

## What a naive rule would flag (file:line)
* `{w['read_size_0']}`, `{w['read_size_1']}`, `{w['read_size_2']}`, `{w['read_size_3']}`: `Unexpected read size`
  (ERROR) with `{w['read_kvh_0']}`.. `Operation: ReadChunk ... Result: CONTAINER_INTERNAL_ERROR`; audits
  `{w['audit_read_0']}`, `{w['audit_read_1']}`, `{w['audit_read_2']}`, `{w['audit_read_3']}`.
* `{w['scan_1012']}`, `{w['scan_1017']}`, `{w['scan_1023']}` `Corruption detected ... Marking it UNHEALTHY`;
  `{w['cont_unhealthy_1012']}`.. dn-container `State=UNHEALTHY`; SCM `{w['scm_replicate_1012']}`..
Why benign: the effect alone. No LEADER -> FOLLOWER and no `Truncating segments` on dn3 (or anywhere) near it;
many blocks of several CLOSED containers on one volume, some with partial reads, instead of isolated chunks
right after a truncate (datanode.md 3.A, second benign look-alike).

{TEMPLATES_MD}| `Corruption detected in container [{{}}]. Marking it UNHEALTHY. {{}}` (ScanResult `Container has 1 error: INCONSISTENT_CHUNK_LENGTH|MISSING_CHUNK for file <f> with exception: java.io.IOException: ...`) | datanode.md 2.5 | ContainerScanHelper via the on-demand scanner's logger, ERROR |
| `Sending command [replicateContainerCommand: ..., containerId=<c>, replicaIndex=0, targetNode=<dn>, priority=NORMAL] for container ContainerInfo{{...}} to <dn> ...` | scm.md 2.5 | ReplicationManager, INFO |

{INFERRED_COMMON}* The on-demand scanner's logger name `org.apache.hadoop.ozone.container.ozoneimpl.OnDemandContainerDataScanner`
  (the catalogue names only ContainerScanHelper "logger of the scanner"); the vendor layout hides its thread.
* The volume-failure messages a failing disk normally adds (`onFailure(volume)`, volume checker) are absent:
  the catalogue mentions them but gives no wording. No IOException-based read failures either, for the same reason.
"""
    raise KeyError(name)


# ----------------------------------------------------------------------------------------------------------
def main():
    out = {}
    for name, fn in (("HDDS-17675-bug-info", bug_info), ("HDDS-17675-bug-debug", bug_debug),
                     ("HDDS-17675-control-clean-failover", clean_failover),
                     ("HDDS-17675-control-failing-disk", failing_disk)):
        b = fn()
        where = {mark: b.out.at(mark) for mark in b.out.where}
        b.out.expected(EXPECTED[name])
        b.out.text("SOURCE.md", source_md(name, where))
        out[name] = where
    # evidence locations (file:line of each marked record), also cited in SOURCE.md
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
