#!/usr/bin/env python3
"""Sample bundles for rule `dropped-actions` (HDDS-17269, datanode endpoint task backlog).

Writes seven bundles next to this script's parent folder:
  samples/HDDS-17269-bug-info/                     INFO only, per-host folders, file layout
  samples/HDDS-17269-bug-debug/                    same story, HeartbeatEndpointTask & co at DEBUG,
                                                   docker-compose v2 console output (%c{2})
  samples/HDDS-17269-control-slow-scm-recovers/    slow SCM leader that recovers, vendor layout
  samples/HDDS-17269-bug-info-no-action/           bug-info's restart and backlog, no container action logged
  samples/HDDS-17269-bug-scm-hang-restart-vendor/  2.2.0: the leader stalls and is restarted, every datanode's
                                                   backlog replays after its reregister; vendor layout, no thread
  samples/HDDS-17269-control-scm-restart-single-reregister/  2.2.0: planned restart, one reregister each
  samples/HDDS-17269-control-slow-leader-other-scm-restarts/ slow leader recovers while a follower restarts

Python 3.11 standard library only, deterministic (fixed seed, gzip mtime=0).
Every message template is quoted from /work/shared/ozone-logs/{datanode,scm}.md (section numbers in
the comments and in each bundle's SOURCE.md); values in it are made up but consistent.
"""
import gzip
import json
import os
import random
import shutil
import uuid
from datetime import datetime, timedelta

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../samples

# --------------------------------------------------------------------------------------------------
# Loggers (full names; %c{2} keeps the last two segments)
L_RDS = "org.apache.hadoop.ozone.container.common.states.datanode.RunningDatanodeState"
L_ESM = "org.apache.hadoop.ozone.container.common.statemachine.EndpointStateMachine"
L_HBT = "org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask"
L_SCTX = "org.apache.hadoop.ozone.container.common.statemachine.StateContext"
L_DSM = "org.apache.hadoop.ozone.container.common.statemachine.DatanodeStateMachine"
L_CCH = "org.apache.hadoop.ozone.container.common.statemachine.commandhandler.CloseContainerCommandHandler"
L_DISP = "org.apache.hadoop.ozone.container.common.impl.HddsDispatcher"
L_KVH = "org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler"
L_CHU = "org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils"
L_XSR = "org.apache.hadoop.ozone.container.common.transport.server.ratis.XceiverServerRatis"
L_DIV = "org.apache.ratis.server.RaftServer$Division"
L_FST = "org.apache.ratis.server.impl.FollowerState"
L_LEL = "org.apache.ratis.server.impl.LeaderElection"
L_SSM = "org.apache.hadoop.hdds.scm.ha.SCMStateMachine"
L_SCTXS = "org.apache.hadoop.hdds.scm.ha.SCMContext"
L_HAM = "org.apache.hadoop.hdds.scm.ha.SCMHAManagerImpl"
L_NM = "org.apache.hadoop.hdds.scm.node.SCMNodeManager"
L_HBD = "org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher"
L_CRH = "org.apache.hadoop.hdds.scm.container.ContainerReportHandler"
L_ICRH = "org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler"
L_RM = "org.apache.hadoop.hdds.scm.container.replication.ReplicationManager"
L_SBDS = "org.apache.hadoop.hdds.scm.block.SCMBlockDeletingService"

HB_MS = 30000  # hdds.heartbeat.interval (default 30s)


def s64(x):
    return x - (1 << 64) if x >= (1 << 63) else x


def uuid_bits(u):
    i = uuid.UUID(u).int
    return s64(i >> 64), s64(i & ((1 << 64) - 1))


class Cluster:
    """Identities. `style` selects host names / IPs (example.com vs docker-compose)."""

    def __init__(self, style, wording="head"):
        """wording: "head" (HEAD 78d5650c: HostAndPort endpoints, EnumMap ports) or "2.2" (2.1.0-2.2.0:
        InetSocketAddress endpoints `host/ip:port`, `… at {}:{} for past {} seconds.`, List ports)."""
        self.style = style
        self.wording = wording
        self.cluster_id = "CID-5e7a1c3d-2b4f-4a6e-9d8c-0f1e2a3b4c5d"
        self.group = "group-0F1E2A3B4C5D"
        self.scm_ids = {
            "scm1": "1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5",
            "scm2": "2d1e3f40-5b6c-4d7e-9f80-a1b2c3d4e5f6",
            "scm3": "3e2f4051-6c7d-4e8f-a091-b2c3d4e5f607",
        }
        self.dn_ids = {
            "dn1": "9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40",
            "dn2": "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27",
            "dn3": "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13",
            "dn4": "6c4b2a19-3e5d-4f7a-8b9c-1d2e3f4a5b6c",
        }
        if style == "compose":
            self.scm_host = {s: s for s in self.scm_ids}
            self.scm_ip = {"scm1": "172.25.0.11", "scm2": "172.25.0.12", "scm3": "172.25.0.13"}
            self.dn_host = {d: "datanode" + d[2:] for d in self.dn_ids}
            self.dn_ip = {"dn1": "172.25.0.21", "dn2": "172.25.0.22", "dn3": "172.25.0.23", "dn4": "172.25.0.24"}
            self.disks = ["/data/hdds1", "/data/hdds2"]
        else:
            self.scm_host = {s: s + ".example.com" for s in self.scm_ids}
            self.scm_ip = {"scm1": "10.20.0.11", "scm2": "10.20.0.12", "scm3": "10.20.0.13"}
            self.dn_host = {d: d + ".example.com" for d in self.dn_ids}
            self.dn_ip = {"dn1": "10.20.1.11", "dn2": "10.20.1.12", "dn3": "10.20.1.13", "dn4": "10.20.1.14"}
            self.disks = ["/data/disk1/hdds", "/data/disk2/hdds"]
        # Ratis pipelines (RATIS/THREE)
        self.pipelines = {
            "P1": ("8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d", ["dn1", "dn2", "dn3"]),
            "P2": ("5e0c1d2a-9b7f-4c3e-a1d2-6f8e0b4c7a91", ["dn2", "dn3", "dn4"]),
            "P3": ("d2c8a1b9-6e4f-4d3a-8b2c-7f1ed2c8a1b9", ["dn1", "dn3", "dn4"]),
        }

    # DatanodeDetails.toString: uuid(host/ip)  (scm.md section 3, datanode.md section 4)
    def dd(self, d):
        return "%s(%s/%s)" % (self.dn_ids[d], self.dn_host[d], self.dn_ip[d])

    # HostAndPort.toString: host:port/<InetAddress>, InetAddress = host/ip  (datanode.md 2.6, 4)
    def hp(self, s):
        return "%s:9861/%s/%s" % (self.scm_host[s], self.scm_host[s], self.scm_ip[s])

    def ep(self, s):
        """The endpoint as RunningDatanodeState / the endpoint thread name print it (datanode.md 2.6)."""
        if self.wording == "2.2":   # InetSocketAddress.toString: host/ip:port
            return "%s/%s:9861" % (self.scm_host[s], self.scm_ip[s])
        return self.hp(s)

    def unable(self, s, seconds):
        """EndpointStateMachine.logIfNeeded WARN (datanode.md 2.6; 2.1.0-2.2.0 wording read at the tags)."""
        if self.wording == "2.2":   # address.getAddress() + ":" + address.getPort()
            return "Unable to communicate to SCM server at %s/%s:9861 for past %d seconds." % (
                self.scm_host[s], self.scm_ip[s], seconds)
        return "Unable to communicate to SCM server at %s past %d seconds." % (self.hp(s), seconds)

    def hp_recon(self):
        if self.style == "compose":
            return "recon:9891/recon/172.25.0.31"
        return "recon.example.com:9891/recon.example.com/10.20.0.21"

    def prefix(self, d):  # HddsUtils.threadNamePrefix(uuid) = "<uuid>-"  (datanode.md 1.4)
        return self.dn_ids[d] + "-"

    def t_daemon(self, d):
        return self.prefix(d) + "DatanodeStateMachineDaemonThread"

    def t_endpoint(self, d, s):
        # <dn>EndpointStateMachineTaskThread-<HostAndPort>-%d  (trailing space!)  datanode.md 1.4
        return self.prefix(d) + "EndpointStateMachineTaskThread-" + self.ep(s) + "-0 "

    # SCMNodeManager "Registered datanode: {}" with DatanodeDetails.toDebugString() (scm.md 2.2).
    # HEAD 78d5650c keeps ports in an EnumMap, so `ports` prints as a map {NAME=NAME=port, ...}
    # (releases <= 2.2.0 print a List: [HTTP=9882, ...] as in the scm.md example).
    def debug_string(self, d):
        ports = "{STANDALONE=STANDALONE=9859, RATIS=RATIS=9858, REPLICATION=REPLICATION=9886, " \
                "RATIS_ADMIN=RATIS_ADMIN=9857, RATIS_SERVER=RATIS_SERVER=9856, HTTP=HTTP=9882, " \
                "CLIENT_RPC=CLIENT_RPC=19864}"
        if self.wording == "2.2":   # List<Port>: [NAME=port, ...] (DatanodeDetails at ozone-2.2.0)
            ports = "[HTTP=9882, CLIENT_RPC=19864, STANDALONE=9859, RATIS=9858, RATIS_ADMIN=9857, " \
                    "RATIS_SERVER=9856, REPLICATION=9886]"
        return ("%s{ip: %s, host: %s, ports: %s, networkLocation: /default-rack, certSerialId: null, "
                "persistedOpState: IN_SERVICE, persistedOpStateExpiryEpochSec: 0}"
                % (self.dn_ids[d], self.dn_ip[d], self.dn_host[d], ports))


# --------------------------------------------------------------------------------------------------
class Bundle:
    """Collects records per file, renders them sorted by (host-local time, sequence)."""

    def __init__(self, name, cl, day, layout, skew):
        self.name = name
        self.cl = cl
        self.day = day
        self.layout = layout  # "file" | "compose" | "vendor"
        self.skew = skew      # host -> ms
        self.recs = {}        # stream key -> list of (t, seq, lines)
        self.seq = 0

    def ts(self, host, t):
        dt = self.day + timedelta(milliseconds=t + self.skew.get(host, 0))
        return dt.strftime("%Y-%m-%d %H:%M:%S,") + "%03d" % (dt.microsecond // 1000)

    def _add(self, key, host, t, lines):
        self.seq += 1
        self.recs.setdefault(key, []).append((t + self.skew.get(host, 0), self.seq, lines))

    # main log, log4j1:  %d{ISO8601} [%t] %p %c: %m%n  (or %c{2}, or without [%t])
    def log(self, host, t, level, thread, logger, msg, extra=()):
        if self.layout == "compose":
            logger = ".".join(logger.split(".")[-2:])
            head = "%s [%s] %s %s: %s" % (self.ts(host, t), thread, level, logger, msg)
        elif self.layout == "vendor":
            head = "%s %s %s: %s" % (self.ts(host, t), level, logger, msg)
        else:
            head = "%s [%s] %s %s: %s" % (self.ts(host, t), thread, level, logger, msg)
        body = msg.split("\n")
        lines = [head.split("\n")[0]] + body[1:] + list(extra)
        self._add(("main", host), host, t, lines)

    # log4j2 audit:  %d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n
    def audit(self, host, t, kind, level, user, ip, op, params, ret, perf=None, throwable=None):
        msg = "user=%s | ip=%s | op=%s %s | ret=%s" % (user, ip, op, params, ret)
        if perf:
            msg += " | perf=" + perf
        if throwable:
            lines = ["%s | %-5s | %s | %s | %s" % (self.ts(host, t), level, kind, msg, throwable[0])]
            lines += [fr + " " if i == len(throwable) - 2 else fr for i, fr in enumerate(throwable[1:])]
        else:
            lines = ["%s | %-5s | %s | %s |  " % (self.ts(host, t), level, kind, msg)]
        self._add(("audit", host), host, t, lines)

    # dn-container log4j2:  %d{DEFAULT} | %-5level | %msg | %throwable{3} %n
    def container(self, host, t, level, cid, bcsid, state, vol, suffix=None):
        msg = "ID=%d | Index=0 | BCSID=%d | State=%s | Volume=%s | DataChecksum=0" % (cid, bcsid, state, vol)
        if suffix:
            msg += " | " + suffix
        self._add(("dnc", host), host, t, ["%s | %-5s | %s |  " % (self.ts(host, t), level, msg)])

    def sorted_lines(self, key, t_from=None, t_to=None):
        out = []
        for t, _, lines in sorted(self.recs.get(key, []), key=lambda r: (r[0], r[1])):
            if t_from is not None and t < t_from:
                continue
            if t_to is not None and t >= t_to:
                continue
            out.extend(lines)
        return out


def write_text(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for ln in lines:
            f.write(ln + "\n")


def write_gz(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = "".join(ln + "\n" for ln in lines).encode("utf-8")
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as g:
            g.write(data)


# --------------------------------------------------------------------------------------------------
# Multi-line exceptions (continuation lines of EndpointStateMachine.logIfNeeded WARN).
# Message text: Hadoop NetUtils.wrapException (not quoted in the catalogue beyond "...": see SOURCE.md).
def heartbeat_call_frames(wrap_line):
    """The frames between a wrapped IPC exception and the heartbeat task's thread; `wrap_line` is
    the NetUtils.wrapException line of the exception class."""
    return [
        "\tat sun.reflect.NativeConstructorAccessorImpl.newInstance0(Native Method)",
        "\tat sun.reflect.NativeConstructorAccessorImpl.newInstance(NativeConstructorAccessorImpl.java:62)",
        "\tat sun.reflect.DelegatingConstructorAccessorImpl.newInstance(DelegatingConstructorAccessorImpl.java:45)",
        "\tat java.lang.reflect.Constructor.newInstance(Constructor.java:423)",
        "\tat org.apache.hadoop.net.NetUtils.wrapWithMessage(NetUtils.java:930)",
        "\tat org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:%d)" % wrap_line,
        "\tat org.apache.hadoop.ipc_.Client.getRpcResponse(Client.java:1588)",
        "\tat org.apache.hadoop.ipc_.Client.call(Client.java:1530)",
        "\tat org.apache.hadoop.ipc_.Client.call(Client.java:1427)",
        "\tat org.apache.hadoop.ipc_.ProtobufRpcEngine$Invoker.invoke(ProtobufRpcEngine.java:258)",
        "\tat org.apache.hadoop.ipc_.ProtobufRpcEngine$Invoker.invoke(ProtobufRpcEngine.java:139)",
        "\tat com.sun.proxy.$Proxy38.submitRequest(Unknown Source)",
        "\tat org.apache.hadoop.ozone.protocolPB.StorageContainerDatanodeProtocolClientSideTranslatorPB.submitRequest(StorageContainerDatanodeProtocolClientSideTranslatorPB.java:105)",
        "\tat org.apache.hadoop.ozone.protocolPB.StorageContainerDatanodeProtocolClientSideTranslatorPB.sendHeartbeat(StorageContainerDatanodeProtocolClientSideTranslatorPB.java:137)",
        "\tat org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask.call(HeartbeatEndpointTask.java:161)",
        "\tat org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask.call(HeartbeatEndpointTask.java:82)",
        "\tat java.util.concurrent.FutureTask.run(FutureTask.java:266)",
        "\tat java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)",
        "\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)",
        "\tat java.lang.Thread.run(Thread.java:750)",
    ]


def connect_exc(cl, d, s):
    return [
        "java.net.ConnectException: Call From %s/%s to %s:9861 failed on connection exception: "
        "java.net.ConnectException: Connection refused; For more details see:  "
        "http://wiki.apache.org/hadoop/ConnectionRefused" % (cl.dn_host[d], cl.dn_ip[d], cl.scm_host[s]),
    ] + heartbeat_call_frames(845) + [
        "Caused by: java.net.ConnectException: Connection refused",
        "\tat sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)",
        "\tat sun.nio.ch.SocketChannelImpl.finishConnect(SocketChannelImpl.java:716)",
        "\tat org.apache.hadoop.net.SocketIOWithTimeout.connect(SocketIOWithTimeout.java:205)",
        "\tat org.apache.hadoop.net.NetUtils.connect(NetUtils.java:586)",
        "\tat org.apache.hadoop.ipc_.Client$Connection.setupConnection(Client.java:700)",
        "\tat org.apache.hadoop.ipc_.Client$Connection.setupIOstreams(Client.java:804)",
        "\tat org.apache.hadoop.ipc_.Client$Connection.access$3800(Client.java:421)",
        "\tat org.apache.hadoop.ipc_.Client.getConnection(Client.java:1645)",
        "\tat org.apache.hadoop.ipc_.Client.call(Client.java:1473)",
        "\t... 15 more",
    ]


def eof_exc(cl, d, s):
    """The call in flight when the SCM process dies (Hadoop NetUtils.wrapException, EOFException)."""
    return [
        'java.io.EOFException: End of File Exception between local host is: "%s/%s"; destination host is: '
        '"%s":9861; : java.io.EOFException; For more details see:  http://wiki.apache.org/hadoop/EOFException'
        % (cl.dn_host[d], cl.dn_ip[d], cl.scm_host[s]),
    ] + heartbeat_call_frames(879) + [
        "Caused by: java.io.EOFException",
        "\tat java.io.DataInputStream.readInt(DataInputStream.java:392)",
        "\tat org.apache.hadoop.ipc_.Client$IpcStreams.readResponse(Client.java:1922)",
        "\tat org.apache.hadoop.ipc_.Client$Connection.receiveRpcResponse(Client.java:1238)",
        "\tat org.apache.hadoop.ipc_.Client$Connection.run(Client.java:1134)",
    ]


def timeout_exc(cl, d, s, port):
    return [
        "java.net.SocketTimeoutException: Call From %s/%s to %s:9861 failed on socket timeout exception: "
        "java.net.SocketTimeoutException: 5000 millis timeout while waiting for channel to be ready for read. "
        "ch : java.nio.channels.SocketChannel[connected local=/%s:%d remote=%s/%s:9861]; For more details see:  "
        "http://wiki.apache.org/hadoop/SocketTimeout"
        % (cl.dn_host[d], cl.dn_ip[d], cl.scm_host[s], cl.dn_ip[d], port, cl.scm_host[s], cl.scm_ip[s]),
    ] + heartbeat_call_frames(869) + [
        "Caused by: java.net.SocketTimeoutException: 5000 millis timeout while waiting for channel to be ready for read. "
        "ch : java.nio.channels.SocketChannel[connected local=/%s:%d remote=%s/%s:9861]"
        % (cl.dn_ip[d], port, cl.scm_host[s], cl.scm_ip[s]),
        "\tat org.apache.hadoop.net.SocketIOWithTimeout.doIO(SocketIOWithTimeout.java:163)",
        "\tat org.apache.hadoop.net.SocketInputStream.read(SocketInputStream.java:161)",
        "\tat org.apache.hadoop.net.SocketInputStream.read(SocketInputStream.java:131)",
        "\tat java.io.FilterInputStream.read(FilterInputStream.java:133)",
        "\tat java.io.BufferedInputStream.fill(BufferedInputStream.java:246)",
        "\tat java.io.BufferedInputStream.read(BufferedInputStream.java:265)",
        "\tat java.io.FilterInputStream.read(FilterInputStream.java:83)",
        "\tat org.apache.hadoop.ipc_.Client$Connection$PingInputStream.read(Client.java:563)",
        "\tat java.io.DataInputStream.readInt(DataInputStream.java:387)",
        "\tat org.apache.hadoop.ipc_.Client$IpcStreams.readResponse(Client.java:1922)",
        "\tat org.apache.hadoop.ipc_.Client$Connection.receiveRpcResponse(Client.java:1238)",
        "\tat org.apache.hadoop.ipc_.Client$Connection.run(Client.java:1134)",
    ]


# --------------------------------------------------------------------------------------------------
# Protobuf TextFormat (multi-line) of SCMHeartbeatRequestProto for HeartbeatEndpointTask DEBUG
# "Sending heartbeat message : {}" (datanode.md 2.6).  Field order = field numbers of
# ScmServerDatanodeHeartbeatProtocol.proto / hdds.proto at HEAD 78d5650c.
def hb_proto(cl, d, node_report=None, icrs=(), actions=(), pipeline_reports=None):
    ind = "  "
    out = ["datanodeDetails {"]
    hi, lo = uuid_bits(cl.dn_ids[d])
    out.append(ind + 'uuid: "%s"' % cl.dn_ids[d])
    out.append(ind + 'ipAddress: "%s"' % cl.dn_ip[d])
    out.append(ind + 'hostName: "%s"' % cl.dn_host[d])
    for name, val in [("STANDALONE", 9859), ("RATIS", 9858), ("REPLICATION", 9886), ("RATIS_ADMIN", 9857),
                      ("RATIS_SERVER", 9856), ("HTTP", 9882), ("CLIENT_RPC", 19864)]:
        out += [ind + "ports {", ind * 2 + 'name: "%s"' % name, ind * 2 + "value: %d" % val, ind + "}"]
    out.append(ind + 'networkName: "%s"' % cl.dn_ids[d])
    out.append(ind + 'networkLocation: "/default-rack"')
    out.append(ind + "persistedOpState: IN_SERVICE")
    out.append(ind + "persistedOpStateExpiry: 0")
    out.append(ind + "currentVersion: 4")
    out += [ind + "uuid128 {", ind * 2 + "mostSigBits: %d" % hi, ind * 2 + "leastSigBits: %d" % lo, ind + "}"]
    out += [ind + "id {", ind * 2 + "uuid {", ind * 3 + "mostSigBits: %d" % hi, ind * 3 + "leastSigBits: %d" % lo,
            ind * 2 + "}", ind + "}"]
    out.append("}")
    if node_report:
        out.append("nodeReport {")
        for (suuid, loc, cap, used, rem, committed) in node_report["storage"]:
            out += [ind + "storageReport {",
                    ind * 2 + 'storageUuid: "%s"' % suuid,
                    ind * 2 + 'storageLocation: "%s"' % loc,
                    ind * 2 + "capacity: %d" % cap,
                    ind * 2 + "scmUsed: %d" % used,
                    ind * 2 + "remaining: %d" % rem,
                    ind * 2 + "storageType: DISK",
                    ind * 2 + "failed: false",
                    ind * 2 + "committed: %d" % committed,
                    ind * 2 + "freeSpaceToSpare: %d" % node_report["spare"],
                    ind + "}"]
        out += [ind + "metadataStorageReport {",
                ind * 2 + 'storageLocation: "%s"' % node_report["meta"],
                ind * 2 + "storageType: DISK",
                ind * 2 + "capacity: 107374182400",
                ind * 2 + "scmUsed: 1833172992",
                ind * 2 + "remaining: 96122863616",
                ind * 2 + "failed: false",
                ind + "}"]
        out.append("}")
    for rep in icrs:
        cid, state, size, used, keys, bcsid = rep
        out += ["incrementalContainerReport {", ind + "report {",
                ind * 2 + "containerID: %d" % cid,
                ind * 2 + "state: %s" % state,
                ind * 2 + "size: %d" % size,
                ind * 2 + "used: %d" % used,
                ind * 2 + "keyCount: %d" % keys,
                ind * 2 + "blockCommitSequenceId: %d" % bcsid,
                ind * 2 + 'originNodeId: "%s"' % cl.dn_ids[d],
                ind * 2 + "replicaIndex: 0",
                ind * 2 + "isEmpty: false",
                ind * 2 + "dataChecksum: 0",
                ind + "}", "}"]
    if actions:
        out.append("containerActions {")
        for cid, reason in actions:
            out += [ind + "containerActions {", ind * 2 + "containerID: %d" % cid, ind * 2 + "action: CLOSE",
                    ind * 2 + "reason: %s" % reason, ind + "}"]
        out.append("}")
    if pipeline_reports:
        out.append("pipelineReports {")
        for pid, leader in pipeline_reports:
            phi, plo = uuid_bits(pid)
            out += [ind + "pipelineReport {", ind * 2 + "pipelineID {", ind * 3 + 'id: "%s"' % pid,
                    ind * 3 + "uuid128 {", ind * 4 + "mostSigBits: %d" % phi, ind * 4 + "leastSigBits: %d" % plo,
                    ind * 3 + "}", ind * 2 + "}", ind * 2 + "isLeader: %s" % ("true" if leader else "false"),
                    ind + "}"]
        out.append("}")
    out += ["dataNodeLayoutVersion {", ind + "metadataLayoutVersion: 9", ind + "softwareLayoutVersion: 9", "}"]
    out += ["commandQueueReport {", "}"]
    return "\n".join(out)


# SCM audit "command" value: TextFormat.shortDebugString(SCMCommandProto), JSON-escaped (scm.md 1.2)
def cmd_reregister():
    return 'commandType: reregisterCommand reregisterCommandProto { } term: 0 encodedToken: \\"\\" deadlineMsSinceEpoch: 0'


def cmd_close(cid, pid, cmd_id, term):
    hi, lo = uuid_bits(pid)
    return ('commandType: closeContainerCommand closeContainerCommandProto { containerID: %d pipelineID { id: \\"%s\\" '
            'uuid128 { mostSigBits: %d leastSigBits: %d } } cmdId: %d force: false } term: %d encodedToken: \\"\\" '
            'deadlineMsSinceEpoch: 0' % (cid, pid, hi, lo, cmd_id, term))


def cmd_delete_blocks(n, cmd_id, term):
    # constructCommandAuditMap summary for deleteBlocksCommand (scm.md 1.2)
    return ('commandType: deleteBlocksCommand deleteTransactionsCount: %d cmdID: %d encodedToken: \\"\\" '
            'deadlineMsSinceEpoch: 0' % (n, cmd_id))


def audit_hb(b, cl, scm, t, d, term, cmds):
    # SEND_HEARTBEAT {"datanodeUUID":..., "term":... (leader only), "command":"[...]"} (scm.md 1.2)
    if term is not None:
        p = '{"datanodeUUID":"%s","term":"%d","command":"[%s]"}' % (cl.dn_ids[d], term, ", ".join(cmds))
    else:
        p = '{"datanodeUUID":"%s","command":"[%s]"}' % (cl.dn_ids[d], ", ".join(cmds))
    b.audit(scm, t, "SCMAudit", "INFO", "hadoop", cl.dn_ip[d], "SEND_HEARTBEAT", p, "SUCCESS")


def D(cl, cid, cstate, sid, rstate, bcsid, d, origin=None, empty=False):
    # detailsForLogging (scm.md 2.3)
    return "Container #%d (%s, sid=%d) r0 (%s, bcsid=%d, origin=%s, %s) from dn %s" % (
        cid, cstate, sid, rstate, bcsid, cl.dn_ids[origin or d], "empty" if empty else "non-empty", cl.dd(d))


def ms(h, m, s=0.0):
    return int(round(((h * 60 + m) * 60 + s) * 1000))


SCMS = ["scm1", "scm2", "scm3"]
DNS = ["dn1", "dn2", "dn3", "dn4"]
HB_PHASE = {"dn1": 3217, "dn2": 11708, "dn3": 19455, "dn4": 25931}


def ipc_thread(rng, port=9861):
    return "IPC Server handler %d on default port %d" % (rng.randrange(0, 10), port)


# --------------------------------------------------------------------------------------------------
# Heartbeat simulation of one datanode (RunningDatanodeState / EndpointStateMachine, datanode.md 3.B):
# every cycle builds one task per endpoint from the endpoint state *at build time* and submits it to
# the endpoint's single-thread executor; the daemon thread waits at most one interval (await) and
# logs "Detected timeout" for a task that did not finish; triggerHeartbeat() interrupts the wait and
# starts the next cycle at once; a reregister answer or a GETVERSION task also make the next cycle
# start at once (setNextHB(now)).
class Sim:
    def __init__(self, b, cl, rng, debug_dn, t0, t1, leader_term):
        self.b, self.cl, self.rng = b, cl, rng
        self.debug_dn = debug_dn        # datanode whose log4j.properties has the DEBUG loggers
        self.t0, self.t1 = t0, t1
        self.leader_term = leader_term  # function t -> (leader scm, term)
        self.down = {}                  # scm -> (stop, reachable again)
        self.hang = {}                  # scm -> (from, killed): accepts calls, answers none, then dies
        self.slow = {}                  # (dn, scm) -> list of (from, to): calls answered only at `to`
        self.scm_proc = {}              # scm -> function t -> bool: process/RM up (for leader-only services)
        self.cmdq = {}                  # (dn, scm) -> list of (ready_t, cmd_str)
        self.triggers = {d: [] for d in DNS}
        self.pending = {}               # (dn, scm) -> list of (t, kind, payload) kind in action/icr
        self.delivered = []             # (t, dn, scm, actions, icrs, processed: bool)
        self.cycle_no = {d: 48211 + i * 7 for i, d in enumerate(DNS)}
        self.on_deliver = []            # callbacks(sim, t, dn, scm, actions, icrs)
        self.on_command = []            # callbacks(sim, t, dn, scm, cmd)
        self.rereg = {d: [] for d in DNS}  # reregister answers processed in HEARTBEAT state (setNextHB(now))
        self.reg = {}

    def j(self, a, b_):
        return self.rng.randint(a, b_)

    def raise_event(self, d, t, actions=(), icrs=(), trigger=True):
        for s in SCMS:
            q = self.pending.setdefault((d, s), [])
            for a in actions:
                q.append((t, "action", a))
            for r in icrs:
                q.append((t, "icr", r))
        if trigger:
            self.triggers[d].append(t + 1)

    def drain(self, d, s, t):
        q = self.pending.get((d, s), [])
        acts = [p for (tt, k, p) in q if k == "action" and tt <= t]
        icrs = [p for (tt, k, p) in q if k == "icr" and tt <= t]
        self.pending[(d, s)] = [x for x in q if x[0] > t]
        return acts, icrs

    def put_back_icrs(self, d, s, t, icrs):
        # HeartbeatEndpointTask IOException path: ICRs (and command status) are put back, actions are not
        for r in icrs:
            self.pending.setdefault((d, s), []).append((t, "icr", r))

    def call(self, d, s, start):
        """-> (outcome, arrival_at_scm, done).  Down SCM: connection refused, the proxy retries
        (ozone.scm.heartbeat.rpc-retry-count 15 x 1 s) and fails after ~16 s unless the SCM comes back
        meanwhile.  Slow SCM: the call is answered when the SCM catches up, if that is within the
        ~95 s the retries of the 5 s ozone.scm.heartbeat.rpc-timeout allow; otherwise it fails."""
        reach = start
        h0, killed = self.hang.get(s, (None, None))
        if h0 is not None and h0 <= start < killed:
            if start + 95_000 < killed:
                return "fail_timeout", None, start + 95_000 + self.j(200, 900)
            return "fail_reset", None, killed + self.j(1, 40)   # the process dies: the socket is closed
        dn0, dn1 = self.down.get(s, (None, None))
        if dn0 is not None and dn0 <= start < dn1:
            if start + 15_600 < dn1:
                return "fail_connect", None, start + 15_000 + self.j(300, 1100)
            reach = dn1 + self.j(20, 400)
        for (a, z) in self.slow.get((d, s), []):
            if a <= reach < z:
                if z - start <= 95_000:
                    arr = z + self.j(1, 30)
                    return "ok", arr, arr + self.j(3, 9)
                return "fail_timeout", None, start + 95_000 + self.j(200, 900)
        arr = reach + self.j(2, 9)
        return "ok", arr, arr + self.j(2, 8)

    def registered(self, d, s, t):
        return self.reg[(d, s)] <= t if self.reg.get((d, s)) is not None else True

    def run(self, d):
        b, cl = self.b, self.cl
        dbg = (d == self.debug_dn)
        state_ev = {s: [(-1, "HEARTBEAT")] for s in SCMS}
        prev_done = {s: -1 for s in SCMS}
        missed = {s: 0 for s in SCMS}
        last_nr = {s: -10 ** 9 for s in SCMS}

        def state_at(s, t):
            st = "HEARTBEAT"
            for (tt, v) in state_ev[s]:
                if tt <= t:
                    st = v
            return st

        c = self.t0 - ((self.t0 - HB_PHASE[d]) % HB_MS) + HB_MS
        while c < self.t1:
            if dbg:
                self.cycle_no[d] += 1
                b.log(d, c, "DEBUG", cl.t_daemon(d), L_DSM, "Executing cycle Number : %d" % self.cycle_no[d])
            immediate_at = None
            dones = {}
            for s in SCMS:
                kind = state_at(s, c)
                start = max(c, prev_done[s] + 1)
                if kind == "GETVERSION":
                    immediate_at = c  # setNextHB(now) at build time
                    out, arr, done = self.call(d, s, start)
                    if out == "ok":
                        b.audit(s, arr, "SCMAudit", "INFO", "hadoop", cl.dn_ip[d], "GET_VERSION", "{}", "SUCCESS")
                        state_ev[s].append((done, "REGISTER"))
                elif kind == "REGISTER":
                    out, arr, done = self.call(d, s, start)
                    if out == "ok":
                        b.log(s, arr, "INFO", ipc_thread(self.rng), L_NM, "Registered datanode: %s" % cl.debug_string(d))
                        b.audit(s, arr + 2, "SCMAudit", "INFO", "hadoop", cl.dn_ip[d], "REGISTER",
                                '{"datanodeDetails":"%s"}' % cl.dd(d), "SUCCESS")
                        self.reg[(d, s)] = arr
                        state_ev[s].append((done, "HEARTBEAT"))
                else:
                    acts, icrs = self.drain(d, s, start)
                    nr = start - last_nr[s] >= 59_500
                    if nr:
                        last_nr[s] = start
                    out, arr, done = self.call(d, s, start)
                    if dbg:
                        pr = [(cl.pipelines[p][0], p == "P2") for p in ("P1", "P2")] if nr else None
                        b.log(d, start, "DEBUG", cl.t_endpoint(d, s), L_HBT, "Sending heartbeat message : " +
                              hb_proto(cl, d, self.node_report(d, start) if nr else None,
                                       [r for r in icrs], [a for a in acts], pr))
                    if out != "ok":
                        if missed[s] % 10 == 0:
                            if out == "fail_connect":
                                exc = connect_exc(cl, d, s)
                            elif out == "fail_reset":
                                exc = eof_exc(cl, d, s)
                            else:
                                exc = timeout_exc(cl, d, s, 40000 + self.j(1000, 20000))
                            b.log(d, done, "WARN", cl.t_endpoint(d, s), L_ESM,
                                  cl.unable(s, missed[s] * HB_MS // 1000), exc)
                        if dbg:
                            b.log(d, done + 1, "DEBUG", cl.t_endpoint(d, s), L_SCTX,
                                  "endpoint: %s, size of reportsToPutBack: %d" % (cl.hp(s), len(icrs)))
                        self.put_back_icrs(d, s, start, icrs)
                        self.delivered.append((start, d, s, acts, [], "lost_ioexception"))
                        missed[s] += 1
                    elif not self.registered(d, s, arr):
                        # SCMDatanodeHeartbeatDispatcher: unregistered -> ReregisterCommand, nothing processed
                        leader, term = self.leader_term(arr)
                        b.log(s, arr, "INFO", ipc_thread(self.rng), L_HBD,
                              "SCM received heartbeat from an unregistered datanode %s. Asking datanode to re-register."
                              % cl.dd(d))
                        audit_hb(b, cl, s, arr + 1, d, term if s == leader else None, [cmd_reregister()])
                        self.delivered.append((start, d, s, acts, icrs, "dropped_reregister"))
                        if state_at(s, done) == "HEARTBEAT":
                            state_ev[s].append((done, "GETVERSION"))
                            self.rereg[d].append(done)
                            if dbg:
                                b.log(d, done, "DEBUG", cl.t_endpoint(d, s), L_HBT,
                                      "Received SCM notification to register. Interrupt HEARTBEAT and transit to GETVERSION state.")
                        elif dbg:
                            b.log(d, done, "DEBUG", cl.t_endpoint(d, s), L_HBT,
                                  "Illegal state %s found, expecting HEARTBEAT." % state_at(s, done))
                        missed[s] = 0
                    else:
                        leader, term = self.leader_term(arr)
                        q = self.cmdq.get((d, s), [])
                        cmds = [x for x in q if x[0] <= arr]
                        self.cmdq[(d, s)] = [x for x in q if x[0] > arr]
                        audit_hb(b, cl, s, arr + 1, d, term if s == leader else None, [x[1] for x in cmds])
                        self.delivered.append((start, d, s, acts, icrs, "processed"))
                        for cb in self.on_deliver:
                            cb(self, arr, d, s, acts, icrs)
                        for x in cmds:
                            for cb in self.on_command:
                                cb(self, done, d, s, x)
                        missed[s] = 0
                prev_done[s] = done
                dones[s] = done
            # await: at most one interval (Detected timeout for a task still running at its end);
            # setNextHB(now) (GETVERSION built, reregister answered) -> next cycle right after the await;
            # triggerHeartbeat() interrupts the await or the sleep -> next cycle at once.
            wait_end = min(c + HB_MS, max(dones.values()))
            nxt = c + HB_MS
            if immediate_at is not None or any(c < r <= wait_end for r in self.rereg[d]):
                nxt = min(nxt, wait_end + self.j(2, 6))
            trig = [x for x in self.triggers[d] if c < x < nxt]
            for s in SCMS:
                if dones[s] > c + HB_MS and not trig:
                    b.log(d, c + HB_MS + self.j(4, 15), "WARN", cl.t_daemon(d), L_RDS,
                          "Detected timeout: Timeout occurred on endpoint: %s" % cl.ep(s))
            c = min(trig) if trig else nxt

    def node_report(self, d, t):
        cl = self.cl
        base = DNS.index(d)
        cap = 1967317549056
        rem2 = 412316860416 - base * 1024 ** 3
        if getattr(self, "vol_full", None) and d == self.vol_full[0]:
            rem2 = 33285996544 if t < self.vol_full[1] else 4194304
        return {"storage": [
            ("DS-%s-71f2-4c1e-9b0a-2e61a9c4d30%d" % (cl.dn_ids[d][:8], base), cl.disks[0], cap,
             811748179968 + base * 2 ** 30, 1090871296000, 5368709120),
            ("DS-%s-0b5d-4f7e-a3c2-8d14f6b2e90%d" % (cl.dn_ids[d][24:32], base), cl.disks[1], cap,
             cap - rem2 - 98784247808, rem2, 5368709120)],
            "spare": 19673175490, "meta": "/data/metadata/ratis"}


def routine(b, cl, rng, sim, created, slow_ops, full_vol=None):
    """Unrelated traffic: new containers (dn-container OPEN + CREATE_CONTAINER audit, ICR + trigger),
    slow-op PERFORMANCE audit records (datanode.md 1.2, 1.3)."""
    for (t, cid, pipe) in created:
        for i, d in enumerate(cl.pipelines[pipe][1]):
            tt = t + i * rng.randint(3, 40)
            vol = cl.disks[cid % 2]
            if full_vol and d == full_vol[0] and t > full_vol[1]:
                vol = cl.disks[0]
            b.container(d, tt, "INFO", cid, 0, "OPEN", vol)
            b.audit(d, tt + 1, "DNAudit", "INFO", "null", "null", "CREATE_CONTAINER",
                    '{"containerID":"%d","containerType":"KeyValueContainer"}' % cid, "SUCCESS")
            sim.raise_event(d, tt + 2, icrs=[(cid, "OPEN", 5368709120, 0, 0, 0)])
    for (t, d, cid, loc, off, lat) in slow_ops:
        b.audit(d, t, "DNAudit", "INFO", "null", "null", "WRITE_CHUNK",
                '{"blockData":"conID: %d locID: %d bcsId: 0 replicaIndex: null","offset":"%d","size":"4194304",'
                '"stage":"WRITE_DATA"}' % (cid, loc, off), "null",
                perf="{preOpLatencyMs=0, opLatencyMs=%d}" % lat)


def leader_services(b, sim, rng, t0, t1, running):
    """ReplicationManager pass every 5 min and SCMBlockDeletingService passes on the leader (scm.md 2.5, 2.6);
    deleteBlocks commands go out with the next heartbeats (audit summary form, scm.md 1.2)."""
    t = t0 + 47_113
    while t < t1:
        ld, term = sim.leader_term(t)
        if running(ld, t):
            b.log(ld, t, "INFO", ld + "-ReplicationMonitor", L_RM,
                  "Replication Monitor Thread took %d milliseconds for processing %d containers." % (rng.randint(3, 19), 57))
        t += 300_000
    t = t0 + 95_402
    cmd = 119200400
    while t < t1:
        ld, term = sim.leader_term(t)
        if running(ld, t):
            dns = rng.sample([d for d in DNS], 3)
            n = rng.randint(2, 5)
            b.log(ld, t, "INFO", ld + "-SCMBlockDeletingService", L_SBDS,
                  "Totally added %d blocks to be deleted for %d datanodes / %d totalnodes, limit per iteration : "
                  "500000blocks, task elapsed time: %dms" % (n * 3 * 12, 3, 4, rng.randint(4, 31)))
            for d in dns:
                cmd += rng.randint(3, 17)
                sim.cmdq.setdefault((d, ld), []).append((t + 5, cmd_delete_blocks(n, cmd, term)))
        t += 60_000 * rng.randint(2, 4)


def container_close_flow(b, cl, sim, cid, pipe_key, sid, when_ready, leader, term, cmd_id, skip=()):
    """Leader queues closeContainerCommand for each replica (delivered in the heartbeat response, audit);
    each DN: dn-container CLOSING -> (Ratis close) CLOSED + CLOSE_CONTAINER audit, ICRs trigger heartbeats;
    every SCM logs the ICR `CLOSE <D>` (scm.md 2.3)."""
    pid, members = cl.pipelines[pipe_key]
    for d in members:
        sim.cmdq.setdefault((d, leader), []).append((when_ready, cmd_close(cid, pid, cmd_id, term)))

    def on_cmd(sim_, t, d, s, x):
        if ("containerID: %d " % cid) not in x[1] or d in skip:
            return
        if sim_.debug_dn == d:
            b.log(d, t + 1, "DEBUG", cl.t_endpoint(d, s), L_HBT, "Received SCM container close request for container %d" % cid)
            b.log(d, t + 9, "DEBUG", cl.prefix(d) + "CommandProcessorThread", L_CCH,
                  "Processing Close Container command container #%d" % cid)
        vol = cl.disks[cid % 2]
        tc = t + sim_.j(12, 30)
        b.container(d, tc, "INFO", cid, sid, "CLOSING", vol)
        sim_.raise_event(d, tc + 1, icrs=[(cid, "CLOSING", 5368709120, 4831838208, 1152, sid)])
        tcl = tc + 1_150 + members.index(d) * sim_.j(20, 60)
        b.audit(d, tcl - 3, "DNAudit", "INFO", "null", "null", "CLOSE_CONTAINER", '{"containerID":"%d"}' % cid, "SUCCESS")
        b.container(d, tcl, "INFO", cid, sid, "CLOSED", vol)
        sim_.raise_event(d, tcl + 1, icrs=[(cid, "CLOSED", 5368709120, 4831838208, 1152, sid)])
        sim_.closed_icr.append((tcl + 1, d, cid, sid))
    sim.on_command.append(on_cmd)


def close_icr_lines(b, cl, sim):
    """SCM side of the CLOSED ICRs: every SCM that processed the heartbeat carrying it logs CLOSE <D>
    for the first CLOSED replica only: `CLOSE {}` is printed for a CLOSING container (scm.md 2.3),
    and that first replica closes it, so later CLOSED replicas of a CLOSED container log nothing."""
    closed = set()
    for (t, d, s, acts, icrs, how) in sorted(sim.delivered, key=lambda x: x[0]):
        if how != "processed":
            continue
        for r in icrs:
            if r[1] == "CLOSED" and (s, r[0]) not in closed:
                closed.add((s, r[0]))
                b.log(s, t + sim.j(30, 60), "INFO", "%s-FixedThreadPoolWithAffinityExecutor-%d-0" % (s, DNS.index(d)),
                      L_ICRH, "CLOSE " + D(cl, r[0], "CLOSING", r[5], "CLOSED", r[5], d))


# --------------------------------------------------------------------------------------------------
def scm_restart_lines(b, cl, restart_up, t_elect, t_ready):
    """Startup of the three SCMs after the service restart (scm.md 2.1, 2.2; Ratis lines datanode.md 2.1)."""
    peers = "[%s|%s:9894, %s|%s:9894, %s|%s:9894]" % tuple(x for s in SCMS for x in (cl.scm_ids[s], cl.scm_host[s]))
    mid = lambda s: "%s@%s" % (cl.scm_ids[s], cl.group)
    for s in SCMS:
        t = restart_up[s]
        b.log(s, t, "INFO", "main", L_HAM, " scm role is FOLLOWER peers %s" % peers)
        b.log(s, t + 2_310 + DNS.index("dn2") * 17, "INFO", "main", L_NM, "Entering startup safe mode.")
    te = t_elect
    b.log("scm1", te, "INFO", mid("scm1") + "-FollowerState", L_FST,
          "%s-FollowerState: change to CANDIDATE, lastRpcElapsedTime:5204ms, electionTimeout:5187ms" % mid("scm1"))
    b.log("scm1", te + 1, "INFO", mid("scm1") + "-FollowerState", L_DIV,
          "%s: changes role from  FOLLOWER to CANDIDATE at term 6 for changeToCandidate" % mid("scm1"))
    b.log("scm1", te + 688, "INFO", mid("scm1") + "-LeaderElection1", L_LEL,
          "%s-LeaderElection1 ELECTION round 0: result PASSED" % mid("scm1"))
    b.log("scm1", te + 690, "INFO", mid("scm1") + "-LeaderElection1", L_DIV,
          "%s: changes role from CANDIDATE to LEADER at term 7 for changeToLeader" % mid("scm1"))
    b.log("scm1", te + 693, "INFO", mid("scm1") + "-LeaderElection1", L_SSM,
          "current SCM %s becomes leader of term 7" % cl.scm_ids["scm1"])
    b.log("scm1", te + 693, "INFO", mid("scm1") + "-LeaderElection1", L_SCTXS,
          "update <isLeader,term> from <false,0> to <true,7>")
    b.log("scm1", te + 1_402, "INFO", mid("scm1") + "-StateMachineUpdater", L_SCTXS,
          "update <isLeaderReady> from <false> to <true>")
    for s, dt in (("scm2", 731), ("scm3", 1_290)):
        tt = te + dt
        b.log(s, tt, "INFO", "grpc-default-executor-0", L_DIV,
              "%s: change Leader from null to %s at term 7 for APPEND_ENTRIES, leader elected after %dms"
              % (mid(s), cl.scm_ids["scm1"], tt - restart_up[s] - 4_100))
        b.log(s, tt + 2, "INFO", "grpc-default-executor-0", L_SSM,
              "Leader changed to %s, current SCM %s is still follower." % (cl.scm_ids["scm1"], cl.scm_ids[s]))
        b.log(s, tt + 1_915, "INFO", mid(s) + "-StateMachineUpdater", L_SSM,
              "Follower caught up with leader: lastAppliedIndex=884215, leaderCommitOnStart=884215")
    b.log("scm1", t_ready, "INFO", "scm1-SCM-SafeMode-Log-0", L_RM, "Service ReplicationManager transitions to RUNNING.")
    b.log("scm1", t_ready + 40, "INFO", "scm1-SCM-SafeMode-Log-0", L_SBDS, "notifyStatusChanged:RUNNING")


def build_bug(debug, action=True):
    """action=False: the same restart and backlog with no container action raised meanwhile (the
    mechanism alone, HDDS-17269-bug-info-no-action)."""
    cl = Cluster("compose" if debug else "example")
    day = datetime(2026, 9, 14)
    skew = {"scm1": 0, "scm2": 143, "scm3": -87, "dn1": 212, "dn2": -64, "dn3": 31, "dn4": 176}
    if debug:
        skew = {}  # docker-compose: all containers read the same host clock
    name = "HDDS-17269-bug-debug" if debug else "HDDS-17269-bug-info" if action else "HDDS-17269-bug-info-no-action"
    b = Bundle(name, cl, day, "compose" if debug else "file", skew)
    t0 = ms(2, 9, 35) if debug else ms(2, 0, 0)
    t1 = ms(2, 17, 50) if debug else ms(2, 25, 0)
    rng = random.Random(17269 + (1 if debug else 0) + (0 if action else 3))
    C = 2043                               # dn2 replica on the volume that fills up; its close action is dropped

    stop = {"scm1": ms(2, 10, 2.31), "scm2": ms(2, 10, 3.12), "scm3": ms(2, 10, 3.88)}
    reach = {"scm1": ms(2, 11, 5.04), "scm2": ms(2, 10, 49.51), "scm3": ms(2, 10, 50.87)}
    restart_up = {"scm1": ms(2, 10, 28.406), "scm2": ms(2, 10, 31.118), "scm3": ms(2, 10, 34.731)}
    t_elect, t_ready = ms(2, 10, 40.902), ms(2, 11, 31.512)

    def leader_term(t):
        return ("scm1", 6 if t < stop["scm1"] else 7)

    sim = Sim(b, cl, rng, "dn2" if debug else None, t0, t1, leader_term)
    sim.down = {s: (stop[s], reach[s]) for s in SCMS}
    sim.reg = {}
    for s in SCMS:
        for d in DNS:
            sim.reg[(d, s)] = 10 ** 12  # lost at the restart; set again by the REGISTER task
    # registration valid before the stop: registered() checks reg <= t, so keep a per-time view
    sim.registered = lambda d, s, t: (t < stop[s]) or (sim.reg[(d, s)] <= t)
    # dn2 -> scm1: the first heartbeat after the restart waits in scm1's call queue (registration storm)
    SLOW_FROM, SLOW_TO = ms(2, 11, 5.04), ms(2, 12, 37.9)
    sim.slow = {("dn2", "scm1"): [(SLOW_FROM, SLOW_TO)]}
    VOL_FULL = ms(2, 12, 35.417)
    sim.vol_full = ("dn2", VOL_FULL)
    sim.closed_icr = []

    created = [(ms(2, 1, 30.4), C, "P1"), (ms(2, 6, 12.9), 2044, "P2"), (ms(2, 9, 48.3), 2045, "P2"),
               (ms(2, 15, 44.2), 2046, "P3")]
    slow_ops = [(ms(2, 3, 18.1), "dn3", 2040, 113750153625600211, 8388608, 612),
                (ms(2, 7, 55.6), "dn1", C, 113750153625600245, 4194304, 733),
                (ms(2, 9, 40.3), "dn4", 2044, 113750153625600252, 4194304, 2207),
                (ms(2, 13, 9.8), "dn4", 2044, 113750153625600263, 0, 1045),
                (ms(2, 14, 3.1), "dn2", 2045, 113750153625600270, 8388608, 934),
                (ms(2, 20, 41.2), "dn3", 2046, 113750153625600301, 12582912, 587)]
    created = [x for x in created if t0 <= x[0] < t1]
    slow_ops = [x for x in slow_ops if t0 <= x[0] < t1]
    routine(b, cl, rng, sim, created, slow_ops, ("dn2", VOL_FULL))

    def running(s, t):
        return not (stop[s] <= t < t_ready)
    leader_services(b, sim, rng, t0, t1, running)
    scm_restart_lines(b, cl, restart_up, t_elect, t_ready)

    # routine close of full container 2038 (P1) before the restart
    if t0 < ms(2, 4, 21.0):
        container_close_flow(b, cl, sim, 2038, "P1", 51234, ms(2, 4, 21.0), "scm1", 6, 118840112)

    # dn2: the write that finds the volume full (HddsDispatcher WARN, datanode.md 2.5 / 3.B step 4).
    # The CONTAINER_FULL close action is queued for every SCM endpoint without a log line.
    if action:
        b.log("dn2", VOL_FULL, "WARN", cl.prefix("dn2") + "ChunkWriter-1-0", L_DISP,
              "Triggered immediate heartbeat because of full volume.")
        sim.raise_event("dn2", VOL_FULL, actions=[(C, "CONTAINER_FULL")])

    for d in ("dn1", "dn3", "dn4", "dn2"):
        sim.run(d)
    close_icr_lines(b, cl, sim)
    recon_timeout(b, cl, "dn3", ms(2, 19, 19.47) if not debug else ms(2, 16, 49.46))
    return b, sim


def recon_timeout(b, cl, d, t):
    """Benign look-alike (datanode.md 3.B): one Detected timeout for the Recon endpoint."""
    b.log(d, t, "WARN", cl.t_daemon(d), L_RDS, "Detected timeout: Timeout occurred on endpoint: %s" % cl.hp_recon())


# --------------------------------------------------------------------------------------------------
def build_control():
    cl = Cluster("example")
    day = datetime(2026, 9, 21)
    skew = {"scm1": 0, "scm2": -121, "scm3": 98, "dn1": 57, "dn2": -190, "dn3": 133, "dn4": -42}
    b = Bundle("HDDS-17269-control-slow-scm-recovers", cl, day, "vendor", skew)
    t0, t1 = ms(14, 30, 0), ms(14, 50, 0)
    rng = random.Random(17269 + 7)
    C = 2041                                  # P3 = dn1, dn3, dn4; dn3's replica becomes UNHEALTHY
    SLOW_FROM, SLOW_TO = ms(14, 33, 2.0), ms(14, 34, 40.0)   # scm1 (leader) answers datanode RPCs late
    T_UNH = ms(14, 34, 2.614)

    sim = Sim(b, cl, rng, None, t0, t1, lambda t: ("scm1", 6))
    sim.reg = {}
    sim.closed_icr = []
    for d in DNS:
        sim.slow[(d, "scm1")] = [(SLOW_FROM, SLOW_TO)]
    # dn1's call that started at 14:33:03.2 is the only one that exhausts its retries (> 95 s, see Sim.call)

    created = [(ms(14, 31, 5.5), 2047, "P2"), (ms(14, 41, 27.0), 2048, "P1")]
    slow_ops = [(ms(14, 32, 40.3), "dn4", C, 113750153625600377, 4194304, 688),
                (ms(14, 33, 58.9), "dn3", C, 113750153625600377, 8388608, 2411),
                (ms(14, 44, 12.7), "dn2", 2047, 113750153625600390, 0, 540)]
    routine(b, cl, rng, sim, created, slow_ops)
    leader_services(b, sim, rng, t0, t1, lambda s, t: not (SLOW_FROM <= t < SLOW_TO))

    # dn3: short write -> UNHEALTHY (datanode.md 2.5 ChunkUtils/KeyValueHandler/HddsDispatcher, 1.2, 1.3)
    d = "dn3"
    thr = cl.prefix(d) + "ChunkWriter-3-0"
    loc = 113750153625600377
    b.log(d, T_UNH - 6, "ERROR", thr, L_CHU, "Unexpected write size. expected: 4194304, actual: 1048576")
    b.log(d, T_UNH - 5, "WARN", thr, L_KVH,
          "Operation: WriteChunk , Trace ID:  , Message: Unexpected write size. expected: 4194304, actual: 1048576 , "
          "Result: INVALID_WRITE_SIZE , StorageContainerException Occurred.",
          ["org.apache.hadoop.hdds.scm.container.common.helpers.StorageContainerException: Unexpected write size. "
           "expected: 4194304, actual: 1048576",
           "\tat org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils.checkSize(ChunkUtils.java:488)",
           "\tat org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils.writeData(ChunkUtils.java:142)",
           "\tat org.apache.hadoop.ozone.container.keyvalue.impl.FilePerBlockStrategy.writeChunk(FilePerBlockStrategy.java:157)",
           "\tat org.apache.hadoop.ozone.container.keyvalue.impl.ChunkManagerDispatcher.writeChunk(ChunkManagerDispatcher.java:74)",
           "\tat org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler.handleWriteChunk(KeyValueHandler.java:1010)",
           "\tat org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler.dispatchRequest(KeyValueHandler.java:273)",
           "\tat org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler.handle(KeyValueHandler.java:236)",
           "\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.dispatchRequest(HddsDispatcher.java:372)",
           "\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.lambda$dispatch$0(HddsDispatcher.java:198)",
           "\tat org.apache.hadoop.hdds.server.OzoneProtocolMessageDispatcher.processRequest(OzoneProtocolMessageDispatcher.java:89)",
           "\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.dispatch(HddsDispatcher.java:197)",
           "\tat org.apache.hadoop.ozone.container.common.transport.server.ratis.ContainerStateMachine.dispatchCommand(ContainerStateMachine.java:552)",
           "\tat org.apache.hadoop.ozone.container.common.transport.server.ratis.ContainerStateMachine.lambda$writeStateMachineData$3(ContainerStateMachine.java:643)",
           "\tat java.util.concurrent.CompletableFuture$AsyncSupply.run(CompletableFuture.java:1604)",
           "\tat java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)",
           "\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)",
           "\tat java.lang.Thread.run(Thread.java:750)"])
    b.audit(d, T_UNH - 4, "DNAudit", "ERROR", "null", "null", "WRITE_CHUNK",
            '{"blockData":"conID: %d locID: %d bcsId: 0 replicaIndex: null","offset":"12582912","size":"4194304",'
            '"stage":"WRITE_DATA"}' % (C, loc), "FAILURE",
            throwable=["java.lang.Exception: Unexpected write size. expected: 4194304, actual: 1048576",
                       "\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.dispatchRequest(HddsDispatcher.java:466)",
                       "\tat org.apache.hadoop.ozone.container.common.impl.HddsDispatcher.lambda$dispatch$0(HddsDispatcher.java:198)"])
    b.container(d, T_UNH - 1, "ERROR", C, 61877, "UNHEALTHY", cl.disks[1],
                "Container has 1 error: WRITE_FAILURE for file %s/%s/current/containerDir1/%d with exception: "
                "org.apache.hadoop.hdds.scm.container.common.helpers.StorageContainerException"
                % (cl.disks[1], cl.cluster_id, C))
    b.log(d, T_UNH, "INFO", thr, L_DISP, "Marked Container UNHEALTHY, ContainerID: %d" % C)
    sim.raise_event(d, T_UNH + 2, actions=[(C, "CONTAINER_UNHEALTHY")],
                    icrs=[(C, "UNHEALTHY", 5368709120, 3221225472, 771, 61877)])

    state = {"finalized": False}

    def on_deliver(sim_, t, dn, s, acts, icrs):
        for r in icrs:
            if r[0] == C and r[1] == "UNHEALTHY":
                # ICR handler prints FINALIZE on every SCM; only the leader applies it (scm.md 2.3)
                b.log(s, t + sim_.j(25, 45), "INFO", "%s-FixedThreadPoolWithAffinityExecutor-%d-0" % (s, DNS.index(dn)),
                      L_ICRH, "FINALIZE (i.e. CLOSING) " + D(cl, C, "OPEN", 61877, "UNHEALTHY", 61877, dn))
                if s == "scm1":
                    state["finalized"] = True
        for a in acts:
            if a[0] == C and s == "scm1":
                # leader: CloseContainerEventHandler sends closeContainerCommand to every replica
                container_close_flow(b, cl, sim_, C, "P3", 61877, t + 60, "scm1", 6, 118990871, skip=("dn3",))
    sim.on_deliver.append(on_deliver)

    # unrelated: full container 2039 (P2) closed normally later on
    container_close_flow(b, cl, sim, 2039, "P2", 60412, ms(14, 44, 10.2), "scm1", 6, 119003360)

    for d in ("dn3", "dn1", "dn4", "dn2"):
        sim.run(d)
    close_icr_lines(b, cl, sim)
    recon_timeout(b, cl, "dn4", ms(14, 46, 55.95))
    return b, sim


# --------------------------------------------------------------------------------------------------
# SCM process restarts (HddsServerUtil.startupShutdownMessage banners, logger StorageContainerManagerStarter;
# read at ozone-2.0.0..2.2.0, not in scm.md) and the Ratis failover they cause (scm.md 2.1, datanode.md 2.1).
L_STARTER = "org.apache.hadoop.hdds.scm.server.StorageContainerManagerStarter"
REVISION = {"2.2.0": "95bda680b952d164706dc0b8debbcad805b6a32c",          # git rev-parse ozone-2.2.0^{commit}
            "2.3.0-SNAPSHOT": "78d5650c313f2fa0731bdf08b76d4604090dabca"}  # HEAD the catalogue quotes


def scm_stop_lines(b, cl, s, t):
    """`ozone --daemon stop scm`: SIGTERM (SignalLogger ERROR), then the shutdown hook's banner."""
    b.log(s, t, "ERROR", "SIGTERM handler", L_STARTER, "RECEIVED SIGNAL 15: SIGTERM")
    b.log(s, t + 37, "INFO", "shutdown-hook-0", L_STARTER,
          "SHUTDOWN_MSG: \n/************************************************************\n"
          "SHUTDOWN_MSG: Shutting down StorageContainerManager at %s/%s\n"
          "************************************************************/" % (cl.scm_host[s], cl.scm_ip[s]))


def scm_start_lines(b, cl, s, t, version):
    """Start of one SCM process: banner (classpath and conf shortened with `…`), role, safe mode."""
    peers = "[%s|%s:9894, %s|%s:9894, %s|%s:9894]" % tuple(x for z in SCMS for x in (cl.scm_ids[z], cl.scm_host[z]))
    b.log(s, t, "INFO", "main", L_STARTER,
          "STARTUP_MSG: \n/************************************************************\n"
          "STARTUP_MSG: Starting StorageContainerManager\n"
          "STARTUP_MSG:        host = %s/%s\n"
          "STARTUP_MSG:     version = %s\n"
          "STARTUP_MSG:       build = https://github.com/apache/ozone.git/%s\n"
          "STARTUP_MSG:        java = 17.0.12\n"
          "STARTUP_MSG:        args = []\n"
          "STARTUP_MSG:   classpath = /opt/ozone/etc/hadoop:/opt/ozone/share/ozone/lib/hdds-server-scm-%s.jar:…\n"
          "STARTUP_MSG:        conf = {hdds.heartbeat.interval=30s, ozone.scm.names=scm1.example.com,scm2.example.com,"
          "scm3.example.com, ozone.scm.ratis.enable=true, …}\n"
          "************************************************************/" % (cl.scm_host[s], cl.scm_ip[s], version,
                                                                             REVISION[version], version))
    b.log(s, t + 4_711, "INFO", "main", L_HAM, " scm role is FOLLOWER peers %s" % peers)
    b.log(s, t + 7_020, "INFO", "main", L_NM, "Entering startup safe mode.")


def failover_lines(b, cl, new, old, term, t_elect):
    """`new` wins the election after `old` stopped answering (FollowerState timeout); the third SCM follows."""
    mid = lambda s: "%s@%s" % (cl.scm_ids[s], cl.group)
    b.log(new, t_elect, "INFO", mid(new) + "-FollowerState", L_FST,
          "%s-FollowerState: change to CANDIDATE, lastRpcElapsedTime:5731ms, electionTimeout:5126ms" % mid(new))
    b.log(new, t_elect + 1, "INFO", mid(new) + "-FollowerState", L_DIV,
          "%s: changes role from  FOLLOWER to CANDIDATE at term %d for changeToCandidate" % (mid(new), term - 1))
    b.log(new, t_elect + 702, "INFO", mid(new) + "-LeaderElection1", L_LEL,
          "%s-LeaderElection1 ELECTION round 0: result PASSED" % mid(new))
    b.log(new, t_elect + 704, "INFO", mid(new) + "-LeaderElection1", L_DIV,
          "%s: changes role from CANDIDATE to LEADER at term %d for changeToLeader" % (mid(new), term))
    b.log(new, t_elect + 707, "INFO", mid(new) + "-LeaderElection1", L_SSM,
          "current SCM %s becomes leader of term %d" % (cl.scm_ids[new], term))
    b.log(new, t_elect + 707, "INFO", mid(new) + "-LeaderElection1", L_SCTXS,
          "update <isLeader,term> from <false,0> to <true,%d>" % term)
    b.log(new, t_elect + 1_350, "INFO", mid(new) + "-StateMachineUpdater", L_SCTXS,
          "update <isLeaderReady> from <false> to <true>")
    third = [s for s in SCMS if s not in (new, old)][0]
    b.log(third, t_elect + 760, "INFO", "grpc-default-executor-2", L_SSM,
          "Leader changed to %s, current SCM %s is still follower." % (cl.scm_ids[new], cl.scm_ids[third]))


def rejoin_lines(b, cl, s, leader, term, t):
    """A restarted SCM learns the leader from its first AppendEntries and catches up."""
    mid = "%s@%s" % (cl.scm_ids[s], cl.group)
    b.log(s, t, "INFO", "grpc-default-executor-0", L_DIV,
          "%s: change Leader from null to %s at term %d for APPEND_ENTRIES, leader elected after 9312ms"
          % (mid, cl.scm_ids[leader], term))
    b.log(s, t + 2, "INFO", "grpc-default-executor-0", L_SSM,
          "Leader changed to %s, current SCM %s is still follower." % (cl.scm_ids[leader], cl.scm_ids[s]))
    b.log(s, t + 1_884, "INFO", mid + "-StateMachineUpdater", L_SSM,
          "Follower caught up with leader: lastAppliedIndex=1307718, leaderCommitOnStart=1307741")


def build_scm1_restart(hung):
    """2.2.0 cluster (2.1.0-2.2.0 endpoint wording), vendor layout without thread. scm1, the leader, is
    restarted by the operator and scm2 takes over. hung=True: scm1 first stalls in a stop-the-world GC for
    3.5 minutes; its datanode port still accepts connections, so every datanode queues heartbeat tasks
    for it (HDDS-17269-bug-scm-hang-restart-vendor). hung=False: a planned restart of a healthy scm1, no
    backlog (HDDS-17269-control-scm-restart-single-reregister)."""
    cl = Cluster("example", wording="2.2")
    day = datetime(2026, 10, 6)
    skew = {"scm1": 0, "scm2": 71, "scm3": -118, "dn1": 164, "dn2": -39, "dn3": 92, "dn4": -207}
    name = "HDDS-17269-bug-scm-hang-restart-vendor" if hung else "HDDS-17269-control-scm-restart-single-reregister"
    b = Bundle(name, cl, day, "vendor", skew)
    t0, t1 = ms(9, 40, 0), ms(10, 4, 0)
    rng = random.Random(17269 + (11 if hung else 12))
    T_HANG = ms(9, 47, 12.418)                  # scm1 pauses (GC): nothing answers, the kernel still accepts
    T_KILL = ms(9, 50, 40.103) if hung else ms(9, 49, 55.230)
    T_UP = T_KILL + 21_844                      # the new process starts ...
    T_REACH = T_UP + 17_305                     # ... and opens its datanode port
    T_ELECT = (T_HANG if hung else T_KILL) + 5_914
    T_REJOIN = T_UP + 12_617

    def leader_term(t):
        return ("scm1", 11) if t < T_ELECT + 707 else ("scm2", 12)

    sim = Sim(b, cl, rng, None, t0, t1, leader_term)
    if hung:
        sim.hang = {"scm1": (T_HANG, T_KILL)}
    sim.down = {"scm1": (T_KILL, T_REACH)}
    sim.reg = {}
    for d in DNS:
        sim.reg[(d, "scm1")] = 10 ** 12         # scm1's registrations die with the process
    sim.registered = lambda d, s, t: s != "scm1" or t < T_KILL or sim.reg[(d, s)] <= t
    sim.closed_icr = []

    created = [(ms(9, 42, 18.6), 2061, "P2"), (ms(9, 55, 3.9), 2062, "P3")]
    slow_ops = [(ms(9, 44, 51.2), "dn4", 2061, 113750153625601106, 4194304, 812),
                (ms(9, 58, 27.7), "dn1", 2062, 113750153625601131, 0, 1503)]
    routine(b, cl, rng, sim, created, slow_ops)
    leader_services(b, sim, rng, t0, t1,
                    lambda s, t: not (s == "scm1" and (T_HANG if hung else T_KILL) <= t))
    if hung:
        failover_lines(b, cl, "scm2", "scm1", 12, T_ELECT)
    scm_stop_lines(b, cl, "scm1", T_KILL)
    if not hung:
        failover_lines(b, cl, "scm2", "scm1", 12, T_ELECT)
    scm_start_lines(b, cl, "scm1", T_UP, "2.2.0")
    rejoin_lines(b, cl, "scm1", "scm2", 12, T_REJOIN)
    for d in ("dn2", "dn4", "dn1", "dn3"):
        sim.run(d)
    close_icr_lines(b, cl, sim)
    recon_timeout(b, cl, "dn3", ms(10, 0, 49.02))
    return b, sim


def build_slow_leader_other_restart():
    """HEAD wording, file layout: scm1 (leader) answers datanode calls late for ~95 s (busy handlers) and
    recovers without a restart, so every datanode queues a few heartbeat tasks for it and they burst out
    when it answers; meanwhile scm3 (a follower) is restarted and answers each datanode's next heartbeat
    with one reregister (HDDS-17269-control-slow-leader-other-scm-restarts)."""
    cl = Cluster("example")
    day = datetime(2026, 11, 2)
    skew = {"scm1": 0, "scm2": -93, "scm3": 54, "dn1": 131, "dn2": -22, "dn3": 187, "dn4": -145}
    b = Bundle("HDDS-17269-control-slow-leader-other-scm-restarts", cl, day, "file", skew)
    t0, t1 = ms(14, 0, 0), ms(14, 22, 0)
    rng = random.Random(17269 + 21)
    SLOW_FROM, SLOW_TO = ms(14, 6, 4.0), ms(14, 7, 31.0)
    T_KILL = ms(14, 6, 20.512)
    T_UP = T_KILL + 19_480
    T_REACH = T_UP + 16_902

    sim = Sim(b, cl, rng, None, t0, t1, lambda t: ("scm1", 9))
    for d in DNS:
        sim.slow[(d, "scm1")] = [(SLOW_FROM, SLOW_TO)]
    sim.down = {"scm3": (T_KILL, T_REACH)}
    sim.reg = {}
    for d in DNS:
        sim.reg[(d, "scm3")] = 10 ** 12
    sim.registered = lambda d, s, t: s != "scm3" or t < T_KILL or sim.reg[(d, s)] <= t
    sim.closed_icr = []

    created = [(ms(14, 2, 41.3), 2071, "P1"), (ms(14, 12, 9.8), 2072, "P2")]
    slow_ops = [(ms(14, 5, 12.4), "dn2", 2071, 113750153625601402, 8388608, 977)]
    routine(b, cl, rng, sim, created, slow_ops)
    leader_services(b, sim, rng, t0, t1, lambda s, t: not (SLOW_FROM <= t < SLOW_TO))
    scm_stop_lines(b, cl, "scm3", T_KILL)
    scm_start_lines(b, cl, "scm3", T_UP, "2.3.0-SNAPSHOT")
    rejoin_lines(b, cl, "scm3", "scm1", 9, T_UP + 11_930)
    for d in ("dn1", "dn2", "dn3", "dn4"):
        sim.run(d)
    close_icr_lines(b, cl, sim)
    return b, sim


# --------------------------------------------------------------------------------------------------
def write_bundle_file_layout(b, out, split_at):
    """Bundle 1: one folder per host, RFA file layout, rotations."""
    cl = b.cl
    for s in SCMS:
        write_text(os.path.join(out, s, "ozone-hadoop-scm-%s.log" % s), b.sorted_lines(("main", s)))
        lines_old = b.sorted_lines(("audit", s), None, split_at)
        lines_new = b.sorted_lines(("audit", s), split_at, None)
        if s == "scm1":
            write_gz(os.path.join(out, s, "scm-audit-%s-%s-1.log.gz" % (s, b.day.strftime("%Y-%m-%d"))), lines_old)
            write_text(os.path.join(out, s, "scm-audit-%s.log" % s), lines_new)
        else:
            write_text(os.path.join(out, s, "scm-audit-%s.log" % s), lines_old + lines_new)
    for d in DNS:
        host = cl.dn_host[d].split(".")[0]
        write_text(os.path.join(out, host, "ozone-hadoop-datanode-%s.log" % host), b.sorted_lines(("main", d)))
        write_text(os.path.join(out, host, "dn-audit-%s.log" % host), b.sorted_lines(("audit", d)))
        write_text(os.path.join(out, host, "dn-container-%s.log" % host), b.sorted_lines(("dnc", d)))


def write_bundle_compose(b, out):
    """Bundle 2: docker-compose v2 console output, all services interleaved, %c{2}."""
    cl = b.cl
    svc = {s: s + "-1" for s in SCMS}
    svc.update({d: "datanode%s-1" % d[2:] for d in DNS})
    width = max(len(v) for v in svc.values())
    merged = []
    for host in SCMS + DNS:
        for t, sq, lines in b.recs.get(("main", host), []):
            pre = svc[host].ljust(width) + "  | "
            merged.append((t, sq, [pre + ln for ln in lines]))
    merged.sort(key=lambda r: (r[0], r[1]))
    write_text(os.path.join(out, "docker-compose.log"), [ln for _, _, ls in merged for ln in ls])
    for s in SCMS:
        write_text(os.path.join(out, s, "scm-audit-%s.log" % s), b.sorted_lines(("audit", s)))
    for d in DNS:
        host = cl.dn_host[d]
        write_text(os.path.join(out, host, "dn-audit-%s.log" % host), b.sorted_lines(("audit", d)))
        write_text(os.path.join(out, host, "dn-container-%s.log" % host), b.sorted_lines(("dnc", d)))


def write_bundle_vendor(b, out):
    """Bundle 3: flat folder, vendor-managed file names, layout without thread."""
    cl = b.cl
    for s in SCMS:
        h = cl.scm_host[s]
        write_text(os.path.join(out, "hadoop-cmf-ozone-STORAGE_CONTAINER_MANAGER-%s.log.out" % h),
                   b.sorted_lines(("main", s)))
        write_text(os.path.join(out, "scm-audit-%s.log" % h), b.sorted_lines(("audit", s)))
    for d in DNS:
        h = cl.dn_host[d]
        write_text(os.path.join(out, "hadoop-cmf-ozone-HDDS_DATANODE-%s.log.out" % h), b.sorted_lines(("main", d)))
        write_text(os.path.join(out, "dn-audit-%s.log" % h), b.sorted_lines(("audit", d)))
        write_text(os.path.join(out, "dn-container-%s.log" % h), b.sorted_lines(("dnc", d)))


# --------------------------------------------------------------------------------------------------
# SOURCE.md / EXPECTED.json of the bundles added for issue 13 (line numbers looked up in the files written)
def _lines(out, rel):
    full = os.path.join(out, rel)
    if rel.endswith(".gz"):
        with gzip.open(full, "rt") as f:
            return f.read().split("\n")
    with open(full) as f:
        return f.read().split("\n")


def loc(out, rel, *needles, nth=1):
    """`rel:N` of the nth line containing every needle."""
    k = 0
    for n, line in enumerate(_lines(out, rel), 1):
        if all(x in line for x in needles):
            k += 1
            if k == nth:
                return "`%s:%d`" % (rel, n)
    raise AssertionError("not found: %s %r" % (rel, needles))


def count(out, rel, *needles):
    return sum(1 for line in _lines(out, rel) if all(x in line for x in needles))


def write_docs(out, expected, text):
    with open(os.path.join(out, "EXPECTED.json"), "w") as f:
        f.write(json.dumps(expected, indent=2) + "\n")
    with open(os.path.join(out, "SOURCE.md"), "w") as f:
        f.write(text.strip() + "\n")


TEMPLATES_22 = """\
| template (exact) | class, level | catalogue | release |
|---|---|---|---|
| `Detected timeout: {}` with `Timeout occurred on endpoint: ` + `InetSocketAddress` (`host/ip:port`) | RunningDatanodeState WARN | datanode.md 2.6, 3.B | 2.1.0–2.2.0 (`endpoint.getAddress()`, read at ozone-2.2.0 line 112; HEAD prints HostAndPort) |
| `Unable to communicate to {} server at {}:{} for past {} seconds.` + throwable (logged when `missedCount % 10 == 0`) | EndpointStateMachine WARN | datanode.md 2.6 | 2.1.0–2.2.0 (ozone-2.2.0 line 240) |
| `SCM received heartbeat from an unregistered datanode {}. Asking datanode to re-register.` | SCMDatanodeHeartbeatDispatcher INFO | scm.md 2.2 | ozone-2.2.0 line 91 |
| `Registered datanode: {}` with `toDebugString` (`ports: [NAME=port, …]`, a List up to 2.2.0) | SCMNodeManager INFO | scm.md 2.2 | ozone-2.2.0 line 448 |
| audit `SEND_HEARTBEAT {"datanodeUUID":…,"term":…,"command":"[…]"}` (HashMap order datanodeUUID, term, command; term only on the leader), `GET_VERSION {}`, `REGISTER {"datanodeDetails":"uuid(host/ip)"}` | SCMAudit INFO | scm.md 1.2 | ozone-2.2.0 `SCMDatanodeProtocolServer.sendHeartbeat` |
| `STARTUP_MSG: ` / `SHUTDOWN_MSG: ` banners (`Starting StorageContainerManager`, `host = <host/ip>`, version, build, java, args, classpath, conf; `Shutting down StorageContainerManager at <host/ip>`) | StorageContainerManagerStarter INFO (`HddsServerUtil.startupShutdownMessage`) | not in scm.md; read at ozone-2.2.0 `HddsServerUtil` lines 794/825 | 2.0.0–2.2.0 |
| `RECEIVED SIGNAL 15: SIGTERM` | StorageContainerManagerStarter ERROR (`SignalLogger`) | not in scm.md; `SignalLogger` line 70 at ozone-2.1.0 | 2.0.0–2.2.0 (not typed by oztrace) |
| ` scm role is {} peers {}`, `current SCM {} becomes leader of term {}`, `Leader changed to {}, current SCM {} is still follower.`, `Follower caught up with leader: …`, `update <isLeader,term> …`, `update <isLeaderReady> …`, `Entering startup safe mode.` | SCMHAManagerImpl / SCMStateMachine / SCMContext / SCMNodeManager INFO | scm.md 2.1, 2.2 | ozone-2.2.0 |
| `{}: changes role from  FOLLOWER to CANDIDATE …`, `… CANDIDATE to LEADER …`, `{}-FollowerState: change to CANDIDATE, …`, `… ELECTION round 0: result PASSED`, `change Leader from null to … at term … for APPEND_ENTRIES, leader elected after …` | Ratis RaftServer$Division / FollowerState / LeaderElection INFO | datanode.md 2.1 | ratis 3.x |
| dn-container, dn-audit (CREATE_CONTAINER, slow WRITE_CHUNK PERFORMANCE), RM and block-deletion passes | as in `HDDS-17269-bug-info/SOURCE.md` | datanode.md 1.2, 1.3; scm.md 2.5, 2.6 | 2.2.0 |
"""

NOT_CATALOGUED = """\
- Exception texts of the stack traces are Hadoop `NetUtils.wrapException` wording (socket timeout, connection
  refused, and `End of File Exception between local host is: …` for the call in flight when the SCM process
  dies), frames of Ozone's forked `org.apache.hadoop.ipc_` client; line numbers illustrative.
- The STARTUP_MSG banner's `build` URL (`VersionInfo.getUrl`) and the shortened `classpath` and `conf` values
  (real ones run to kilobytes) are not quoted from a real log."""


def docs_hang_restart(out):
    dn = lambda d: "hadoop-cmf-ozone-HDDS_DATANODE-%s.example.com.log.out" % d
    scm = lambda s: "hadoop-cmf-ozone-STORAGE_CONTAINER_MANAGER-%s.example.com.log.out" % s
    cl = Cluster("example", wording="2.2")
    rows = []
    for d in DNS:
        rows.append("| %s | %s | %d `Detected timeout … scm1.example.com/10.20.0.11:9861`, first %s | %d, first %s | %s |" % (
            d, cl.dn_ids[d], count(out, dn(d), "Detected timeout", "scm1."), loc(out, dn(d), "Detected timeout", "scm1."),
            count(out, scm("scm1"), "unregistered datanode", cl.dn_ids[d]),
            loc(out, scm("scm1"), "unregistered datanode", cl.dn_ids[d]),
            loc(out, scm("scm1"), "Registered datanode", cl.dn_ids[d])))
    expected = [{"rule": "dropped-actions", "entity": "datanode:" + cl.dn_ids[d], "confidence": "possible"} for d in DNS]
    write_docs(out, expected, """
# HDDS-17269-bug-scm-hang-restart-vendor: the SCM leader stalls, is restarted, and every datanode's queued heartbeats run after its reregister (INFO only, no container action logged)

Generated by `samples/gen/hdds_17269.py` (`build_scm1_restart(hung=True)`). Default log levels (root INFO).
Expected: `possible` on every datanode (the mechanism alone: nothing at INFO names a container action).

## Cluster, layout, files
Ozone **2.2.0** (datanode endpoint wording of 2.1.0–2.2.0: `host/ip:port`), same identities as
`HDDS-17269-bug-info` (example.com hosts, SCM and DN UUIDs, pipelines P1–P3), 2026-10-06 09:40–10:04 UTC, host
clocks skewed by up to ±207 ms. Flat folder, vendor-managed names and the vendor layout **without thread**
`%%d{ISO8601} %%p %%c: %%m%%n`: `hadoop-cmf-ozone-STORAGE_CONTAINER_MANAGER-scmN.example.com.log.out`,
`hadoop-cmf-ozone-HDDS_DATANODE-dnN.example.com.log.out`, plus `scm-audit-<host>.log`, `dn-audit-<host>.log`,
`dn-container-<host>.log`. `hdds.heartbeat.interval` and the heartbeat RPC settings are the defaults (30 s;
16 attempts of 5 s with 15 sleeps of 1 s, ~95 s per stuck call).

## Story
scm1 leads at term 11. At 09:47:12 it stalls in a stop-the-world GC: its datanode port still accepts
connections but nothing is answered, and its Ratis server stops too, so scm2 wins the election at 09:47:19
(term 12; %s, scm3 %s). Every datanode's heartbeat task for scm1 stays in flight; RunningDatanodeState queues
one more per cycle without cancelling the old one: a `Detected timeout` every 30 s on every datanode, and each
stuck call fails after ~95 s (`Unable to communicate … for past 0 seconds.` with a SocketTimeoutException,
later failures are throttled). At 09:50:40 the operator stops scm1 (%s `RECEIVED SIGNAL 15: SIGTERM`, %s
SHUTDOWN_MSG); the call in flight dies with an EOFException, queued calls get connection refused. scm1 starts
again at 09:51:02 (%s STARTUP_MSG, ` scm role is FOLLOWER`), follows scm2, and opens its datanode port at
09:51:19 with no registrations. Each datanode's next queued heartbeat gets a reregister (the endpoint moves to
GETVERSION), and the heartbeats still queued behind it, built in HEARTBEAT state before the restart, run back
to back and get another reregister each: 4 per datanode within ~30 ms, then GET_VERSION and REGISTER. Those
queued heartbeats drained whatever container actions and ICRs were pending for scm1 and scm1 processed none
of them. At INFO no container action is logged (a full container's close action is queued silently), so the
bundle shows the mechanism, not a lost action.

| datanode | uuid | backlog for scm1 | reregister answers before REGISTER | `Registered datanode` |
|---|---|---|---|---|
%s

Unrelated: containers 2061/2062 created, slow WRITE_CHUNK PERFORMANCE records, RM and block deletion on the
leader (scm1, then scm2), one `Detected timeout` for the **Recon** endpoint on dn3 at 10:00:49.

## Evidence chain (what a rule should cite, per datanode)
1. The run of consecutive `Detected timeout` lines for scm1's endpoint (one queued task each), with the
   `Unable to communicate` WARN of the first stuck call.
2. scm1's restart: SHUTDOWN_MSG and STARTUP_MSG between its last normal SEND_HEARTBEAT answer to the datanode
   and its first reregister; the failover to scm2 on scm2/scm3.
3. The reregister answers for the datanode (`SCM received heartbeat from an unregistered datanode …`, audit
   `SEND_HEARTBEAT … reregisterCommand`), more than one before `Registered datanode` / audit REGISTER.
4. Gap: `HeartbeatEndpointTask`, `StateContext` DEBUG (datanode.md 3.B) would show the container actions the
   queued heartbeats carried.

## Templates used
%s
## Not in the catalogue: what I did
%s
- SCM lines of the GC pause itself (JvmPauseMonitor) and the Ratis lines of the stalled leader are left out: none
  is in the catalogue, and a paused JVM prints nothing until it resumes.
""" % (loc(out, scm("scm2"), "becomes leader of term 12"), loc(out, scm("scm3"), "Leader changed to"),
       loc(out, scm("scm1"), "RECEIVED SIGNAL"), loc(out, scm("scm1"), "SHUTDOWN_MSG: "),
       loc(out, scm("scm1"), "STARTUP_MSG: "), "\n".join(rows), TEMPLATES_22, NOT_CATALOGUED))


def docs_restart_single(out):
    scm = lambda s: "hadoop-cmf-ozone-STORAGE_CONTAINER_MANAGER-%s.example.com.log.out" % s
    cl = Cluster("example", wording="2.2")
    rows = "\n".join("| %s | %d, %s | %s |" % (
        d, count(out, scm("scm1"), "unregistered datanode", cl.dn_ids[d]),
        loc(out, scm("scm1"), "unregistered datanode", cl.dn_ids[d]),
        loc(out, scm("scm1"), "Registered datanode", cl.dn_ids[d])) for d in DNS)
    write_docs(out, [], """
# HDDS-17269-control-scm-restart-single-reregister: the SCM leader is restarted, every datanode re-registers after one reregister, no backlog

Generated by `samples/gen/hdds_17269.py` (`build_scm1_restart(hung=False)`). Default log levels (root INFO).
Expected: `[]`.

## Cluster, layout, files
As `HDDS-17269-bug-scm-hang-restart-vendor` (Ozone 2.2.0, flat folder, vendor layout without thread), 2026-10-06
09:40–10:04 UTC.

## Story
A planned restart of scm1, the leader at term 11, while it is healthy: %s SIGTERM, %s SHUTDOWN_MSG at 09:49:55,
scm2 wins the election (%s, term 12), scm1 starts again at 09:50:17 (%s) and opens its datanode port at 09:50:34
without registrations. While scm1 is down, heartbeats to it fail with connection refused after their ~15 s of
retries, within the 30 s interval: no `Detected timeout` for scm1 anywhere, no task queues. Each datanode's next
heartbeat gets exactly one reregister, then GET_VERSION and REGISTER:

| datanode | reregister answers, first | `Registered datanode` |
|---|---|---|
%s

Unrelated: containers 2061/2062, slow-op records, RM/deletion passes, one `Detected timeout` for the **Recon**
endpoint on dn3 at 10:00:49.

## Why it is benign
The HDDS-17269 loss needs heartbeats queued before the SCM lost the registration to run after its first
reregister. With no backlog there is nothing queued: the one heartbeat answered with reregister is the one in
flight (the datanode moves to GETVERSION and its next task is built for that state). A rule that flags every
SCM restart, every reregister, or a restart plus a Recon timeout would fire here.

## Templates used
%s
## Not in the catalogue: what I did
%s
""" % (loc(out, scm("scm1"), "RECEIVED SIGNAL"), loc(out, scm("scm1"), "SHUTDOWN_MSG: "),
       loc(out, scm("scm2"), "becomes leader of term 12"), loc(out, scm("scm1"), "STARTUP_MSG: "), rows,
       TEMPLATES_22, NOT_CATALOGUED))


def docs_no_action(out):
    cl = Cluster("example")
    dn2 = "dn2/ozone-hadoop-datanode-dn2.log"
    s1 = "scm1/ozone-hadoop-scm-scm1.log"
    write_docs(out, [{"rule": "dropped-actions", "entity": "datanode:" + cl.dn_ids["dn2"], "confidence": "possible"}], """
# HDDS-17269-bug-info-no-action: heartbeats queued behind a slow first heartbeat run after the reregister; no container action is logged (INFO only)

Generated by `samples/gen/hdds_17269.py` (`build_bug(debug=False, action=False)`). Default log levels (root
INFO). Expected: `possible` on dn2 (`datanode:%s`), from the mechanism alone.

## Cluster, layout, files
Identical to `HDDS-17269-bug-info` (same hosts, UUIDs, pipelines, clocks, file layout `%%d{ISO8601} [%%t] %%p %%c: %%m%%n`
in one folder per host, scm1's audit rotated into `scm-audit-scm1-2026-09-14-1.log.gz`), 2026-09-14 02:00–02:25.

## Story
The same SCM service restart at 02:10 as `HDDS-17269-bug-info` (%s ` scm role is FOLLOWER`, %s scm1 `becomes leader of
term 7`), and the same stuck first heartbeat of dn2 to scm1: answered only at 02:12:37.9 while RunningDatanodeState
queues one task per cycle (%s, %s, %s: three `Detected timeout`). No volume fills up this time, so no line names a
container action: whatever actions were pending for scm1 are invisible at INFO (a full container's close action is
queued without a line). scm1 answers the stuck heartbeat and the three queued ones with reregister, four in
~30 ms (%s, … ; audit %s …), before `Registered datanode` (%s). The three queued heartbeats, built in HEARTBEAT state
before the reregister, ran after it: that is how HDDS-17269 drains and drops actions.

Contrast inside the bundle: dn1, dn3, dn4 get exactly one reregister from each SCM (no backlog).

## Evidence chain
1. the backlog: the three `Detected timeout` lines above, the `Unable to communicate … past 0 seconds.` WARN of dn2 (%s);
2. scm1's restart between its last normal answer to dn2 and its first reregister (main log lines above);
3. four reregister answers for dn2 before its REGISTER;
4. gap: HeartbeatEndpointTask / StateContext DEBUG on dn2 would show what the queued heartbeats carried.

## Templates used
As `HDDS-17269-bug-info/SOURCE.md` (HEAD wording), without the `Triggered immediate heartbeat because of full volume.` line.
""" % (cl.dn_ids["dn2"], loc(out, s1, " scm role is FOLLOWER"), loc(out, s1, "becomes leader of term 7"),
       loc(out, dn2, "Detected timeout", "scm1.", nth=1), loc(out, dn2, "Detected timeout", "scm1.", nth=2),
       loc(out, dn2, "Detected timeout", "scm1.", nth=3), loc(out, s1, "unregistered datanode", cl.dn_ids["dn2"]),
       loc(out, "scm1/scm-audit-scm1.log", "reregisterCommand", cl.dn_ids["dn2"]),
       loc(out, s1, "Registered datanode", cl.dn_ids["dn2"]), loc(out, dn2, "Unable to communicate", "scm1.")))


def docs_slow_leader_other_restart(out):
    cl = Cluster("example")
    rows = "\n".join("| %s | %d (%s) | %s | %d |" % (
        d, count(out, "%s/ozone-hadoop-datanode-%s.log" % (d, d), "Detected timeout", "scm1."),
        loc(out, "%s/ozone-hadoop-datanode-%s.log" % (d, d), "Detected timeout", "scm1."),
        loc(out, "scm3/ozone-hadoop-scm-scm3.log", "unregistered datanode", cl.dn_ids[d]),
        count(out, "scm3/ozone-hadoop-scm-scm3.log", "unregistered datanode", cl.dn_ids[d])) for d in DNS)
    write_docs(out, [], """
# HDDS-17269-control-slow-leader-other-scm-restarts: the SCM leader is slow and recovers without a restart while a follower SCM restarts

Generated by `samples/gen/hdds_17269.py` (`build_slow_leader_other_restart()`). Default log levels (root INFO).
Expected: `[]`.

## Cluster, layout, files
Same identities as `HDDS-17269-bug-info`, HEAD wording (HostAndPort endpoints), one folder per host, file layout
`%%d{ISO8601} [%%t] %%p %%c: %%m%%n`, scm1's audit rotated at 14:10 (`scm-audit-scm1-2026-11-02-1.log.gz`),
2026-11-02 14:00–14:22 UTC. scm1 leads at term 9 throughout.

## Story
14:06:04 – 14:07:31 scm1's datanode handlers fall behind (busy call queue): every heartbeat to scm1 waits and is
answered late, so every datanode logs two `Detected timeout` for scm1's endpoint and its queued heartbeats burst
out when scm1 catches up, all answered normally (plain SEND_HEARTBEAT audits with `"term":"9"`, no reregister).
At 14:06:20 scm3, a follower, is restarted (%s SHUTDOWN_MSG, %s STARTUP_MSG); when it opens its port each datanode's
next heartbeat to scm3 gets exactly one reregister, then GET_VERSION and REGISTER.

| datanode | timeouts for scm1 (first) | reregister from scm3 | reregisters from scm3 |
|---|---|---|---|
%s

## Why it is benign
The backlog is on scm1's endpoint and scm1 never lost a registration: the queued heartbeats reach an SCM that knows
the datanode and are processed. The reregisters come from scm3, whose endpoint had no backlog (each datanode's
endpoints have their own executors and queues), and there is one per datanode. A rule that pairs any backlog with any
reregister of the same datanode, or that counts reregisters across SCMs, would flag all four datanodes.

## Templates used
As `HDDS-17269-bug-info/SOURCE.md` (HEAD wording), plus the STARTUP_MSG/SHUTDOWN_MSG banners and `RECEIVED SIGNAL 15:
SIGTERM` of `HDDS-17269-bug-scm-hang-restart-vendor/SOURCE.md`.

## Not in the catalogue: what I did
%s
""" % (loc(out, "scm3/ozone-hadoop-scm-scm3.log", "SHUTDOWN_MSG: "), loc(out, "scm3/ozone-hadoop-scm-scm3.log", "STARTUP_MSG: "),
       rows, NOT_CATALOGUED))


LOG4J_DEBUG = """\
# log4j.properties of service datanode2 (mounted as /opt/hadoop/etc/hadoop/log4j.properties in
# docker-compose.yaml for datanode2 only; the other services use the image default).
# Based on hadoop-ozone/dist/src/shell/conf/log4j.properties.
hadoop.root.logger=INFO,console
hadoop.log.dir=.
hadoop.log.file=hadoop.log
log4j.rootLogger=${hadoop.root.logger}
log4j.threshold=ALL
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} [%t] %p %c{2}: %m%n
log4j.logger.org.apache.ratis.conf.ConfUtils=WARN
log4j.logger.org.apache.ratis.grpc.client.GrpcClientProtocolClient=WARN

# HDDS-17269 investigation (datanode.md 3.B "DEBUG loggers an operator must enable")
log4j.logger.org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask=DEBUG
log4j.logger.org.apache.hadoop.ozone.container.common.states.endpoint.VersionEndpointTask=DEBUG
log4j.logger.org.apache.hadoop.ozone.container.common.statemachine.StateContext=DEBUG
log4j.logger.org.apache.hadoop.ozone.container.common.statemachine.DatanodeStateMachine=DEBUG
log4j.logger.org.apache.hadoop.ozone.container.common.statemachine.commandhandler.CloseContainerCommandHandler=DEBUG
"""


def main():
    out1 = os.path.join(ROOT, "HDDS-17269-bug-info")
    out2 = os.path.join(ROOT, "HDDS-17269-bug-debug")
    out3 = os.path.join(ROOT, "HDDS-17269-control-slow-scm-recovers")
    out4 = os.path.join(ROOT, "HDDS-17269-bug-info-no-action")
    out5 = os.path.join(ROOT, "HDDS-17269-bug-scm-hang-restart-vendor")
    out6 = os.path.join(ROOT, "HDDS-17269-control-scm-restart-single-reregister")
    out7 = os.path.join(ROOT, "HDDS-17269-control-slow-leader-other-scm-restarts")
    keep = ("EXPECTED.json", "SOURCE.md", "REPLAY")
    for o in (out1, out2, out3, out4, out5, out6, out7):
        if os.path.isdir(o):
            for e in os.listdir(o):
                if e not in keep:
                    p = os.path.join(o, e)
                    shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    b1, _ = build_bug(debug=False)
    write_bundle_file_layout(b1, out1, ms(2, 6, 0))
    b2, _ = build_bug(debug=True)
    write_bundle_compose(b2, out2)
    write_text(os.path.join(out2, "conf", "log4j.properties"), LOG4J_DEBUG.rstrip("\n").split("\n"))
    b3, _ = build_control()
    write_bundle_vendor(b3, out3)
    b4, _ = build_bug(debug=False, action=False)
    write_bundle_file_layout(b4, out4, ms(2, 6, 0))
    b5, _ = build_scm1_restart(hung=True)
    write_bundle_vendor(b5, out5)
    b6, _ = build_scm1_restart(hung=False)
    write_bundle_vendor(b6, out6)
    b7, _ = build_slow_leader_other_restart()
    write_bundle_file_layout(b7, out7, ms(14, 10, 0))
    docs_no_action(out4)
    docs_hang_restart(out5)
    docs_restart_single(out6)
    docs_slow_leader_other_restart(out7)


if __name__ == "__main__":
    main()
