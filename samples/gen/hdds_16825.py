#!/usr/bin/env python3
"""Sample bundles for rule `premature-lease-close` (HDDS-16825, OM).

Writes nine three-OM bundles under samples/:
  HDDS-16825-bug-writer-fails-after-autocommit       (2.2.0, JSON audit params, file layout)
  HDDS-16825-bug-allocate-above-autocommit-2-0       (2.0.0, {k=v} params, vendor layout, client DEBUG, DN audit)
  HDDS-16825-control-dead-writer                     (2.0.0, {k=v} params, vendor layout)
  HDDS-16825-control-live-writer-closes              (2.2.0, JSON params, file layout)
  HDDS-16825-control-recover-lease-fencing           (2.2.0, JSON params, file layout)
  HDDS-16825-bug-first-block-writer-2-0              (2.0.0, default lease settings, vendor layout)
  HDDS-16825-bug-first-block-allocate-fails-2-1      (2.1.0, flat bundle, FQDN file names, file layout)
  HDDS-16825-control-first-block-writers-2-2         (2.2.0, default lease settings, file layout)
  HDDS-16825-control-other-session-fails-2-0         (2.0.0, vendor layout)

Python 3.11 standard library only, fixed seeds; layouts, files and gzip (mtime=0) through ozlog:
reruns give identical bytes.
Every template below is the format string of the Ozone class named next to it; see the catalogue
/work/shared/ozone-logs/om.md (section numbers in comments) and each bundle's SOURCE.md.
"""
import datetime as dt
import os
import random

from ozlog import loggers as L
from ozlog.bundle import BundleDir, audit_rollover, finding, site_xml
from ozlog.log4j import (CONSOLE_APPENDER, DAY, HOUR, JDK17_POOL_TAIL, LAYOUTS, MIN, MS, audit_lines, audit_msg,
                         epoch_ms, frames, json_params, log_lines, logger_levels, map_params, parse_time as D, slf4j)
from ozlog.ozone import block_id

RULE = "premature-lease-close"

BLOCK = 268435456  # ozone.scm.block.size default 256MB


def client_id(t, counter):
    """UniqueId.next() on the leader: currentTimeMillis << 16 | counter (om.md 4)."""
    return (epoch_ms(t) << 16) | counter


def object_id(tx):
    """OmUtils.getObjectIdFromTxId(epoch=2, txId) as a signed long (om.md 4)."""
    return -9223372036854775808 + 256 * tx


# --------------------------------------------------------------------------------------------
# Release-specific stack frames (line numbers read at the tags ozone-2.0.0 / ozone-2.2.0).
# JDK frames are those of JDK 17 (UNVERIFIED: depends on the JDK the cluster runs).
# --------------------------------------------------------------------------------------------
JDK_TAIL = ["java.base/java.util.concurrent.CompletableFuture$AsyncSupply.run(CompletableFuture.java:1768)"] + JDK17_POOL_TAIL
PKG = "org.apache.hadoop.ozone.om.request"
APPLY_TAIL = {
    "2.2.0": [
        "org.apache.hadoop.ozone.protocolPB.OzoneManagerRequestHandler.lambda$handleWriteRequestImpl$0(OzoneManagerRequestHandler.java:425)",
        "org.apache.hadoop.ozone.util.MetricUtil.captureLatencyNs(MetricUtil.java:45)",
        "org.apache.hadoop.ozone.protocolPB.OzoneManagerRequestHandler.handleWriteRequestImpl(OzoneManagerRequestHandler.java:423)",
        "org.apache.hadoop.ozone.protocolPB.RequestHandler.handleWriteRequest(RequestHandler.java:62)",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine.runCommand(OzoneManagerStateMachine.java:671)",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine.lambda$applyTransaction$3(OzoneManagerStateMachine.java:474)",
    ] + JDK_TAIL,
    "2.1.0": [
        "org.apache.hadoop.ozone.protocolPB.OzoneManagerRequestHandler.lambda$handleWriteRequestImpl$0(OzoneManagerRequestHandler.java:418)",
        "org.apache.hadoop.ozone.util.MetricUtil.captureLatencyNs(MetricUtil.java:45)",
        "org.apache.hadoop.ozone.protocolPB.OzoneManagerRequestHandler.handleWriteRequestImpl(OzoneManagerRequestHandler.java:416)",
        "org.apache.hadoop.ozone.protocolPB.RequestHandler.handleWriteRequest(RequestHandler.java:62)",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine.runCommand(OzoneManagerStateMachine.java:599)",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine.lambda$applyTransaction$3(OzoneManagerStateMachine.java:415)",
    ] + JDK_TAIL,
    "2.0.0": [
        "org.apache.hadoop.ozone.protocolPB.OzoneManagerRequestHandler.lambda$handleWriteRequestImpl$0(OzoneManagerRequestHandler.java:419)",
        "org.apache.hadoop.ozone.util.MetricUtil.captureLatencyNs(MetricUtil.java:45)",
        "org.apache.hadoop.ozone.protocolPB.OzoneManagerRequestHandler.handleWriteRequestImpl(OzoneManagerRequestHandler.java:417)",
        "org.apache.hadoop.ozone.protocolPB.RequestHandler.handleWriteRequest(RequestHandler.java:62)",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine.runCommand(OzoneManagerStateMachine.java:558)",
        "org.apache.hadoop.ozone.om.ratis.OzoneManagerStateMachine.lambda$applyTransaction$2(OzoneManagerStateMachine.java:374)",
    ] + JDK_TAIL,
}
THROW_SITE = {
    ("2.2.0", "commit_fso"): PKG + ".key.OMKeyCommitRequestWithFSO.validateAndUpdateCache(OMKeyCommitRequestWithFSO.java:181)",
    ("2.0.0", "commit_fso"): PKG + ".key.OMKeyCommitRequestWithFSO.validateAndUpdateCache(OMKeyCommitRequestWithFSO.java:179)",
    ("2.1.0", "commit_fso"): PKG + ".key.OMKeyCommitRequestWithFSO.validateAndUpdateCache(OMKeyCommitRequestWithFSO.java:181)",
    # 2.0.0 / 2.1.0: the FSO subclass has its own validateAndUpdateCache (and logger)
    ("2.1.0", "allocate_fso"): PKG + ".key.OMAllocateBlockRequestWithFSO.validateAndUpdateCache(OMAllocateBlockRequestWithFSO.java:124)",
    ("2.2.0", "allocate"): PKG + ".key.OMAllocateBlockRequest.validateAndUpdateCache(OMAllocateBlockRequest.java:204)",
    ("2.2.0", "delete_fso"): PKG + ".key.OMKeyDeleteRequestWithFSO.validateAndUpdateCache(OMKeyDeleteRequestWithFSO.java:117)",
    ("2.1.0", "delete_fso"): PKG + ".key.OMKeyDeleteRequestWithFSO.validateAndUpdateCache(OMKeyDeleteRequestWithFSO.java:117)",
    ("2.0.0", "delete_fso"): PKG + ".key.OMKeyDeleteRequestWithFSO.validateAndUpdateCache(OMKeyDeleteRequestWithFSO.java:112)",
}
RECOVER_SITES = {
    ("2.2.0", "soft"): [PKG + ".file.OMRecoverLeaseRequest.doWork(OMRecoverLeaseRequest.java:228)",
                        PKG + ".file.OMRecoverLeaseRequest.validateAndUpdateCache(OMRecoverLeaseRequest.java:150)"],
    ("2.0.0", "closed"): [PKG + ".file.OMRecoverLeaseRequest.doWork(OMRecoverLeaseRequest.java:211)",
                          PKG + ".file.OMRecoverLeaseRequest.validateAndUpdateCache(OMRecoverLeaseRequest.java:152)"],
}
OMEX = "org.apache.hadoop.ozone.om.exceptions.OMException"

# Message templates (exact format strings, om.md 2.1 / 2.3 / 2.4 / 2.6; Key delete: OMKeyDeleteRequestWithFSO)
T_CLEANUP = ("Number of expired open keys submitted for deletion: {},"
             + " for commit: {}, cleanupLimit: {}, elapsed time: {}ms")
T_COMMIT_FAILED = "Key committed failed. Volume:{}, Bucket:{}, Key:{}. " + "Exception:{}"   # 4th {} stays literal
T_ALLOC_FAILED = "Allocate Block failed. Volume:{}, Bucket:{}, OpenKey:{}. " + "Exception:{}"  # 4th {} stays literal
T_DELETE_FAILED = "Key delete failed. Volume:{}, Bucket:{}, Key:{}."                        # ex is a real throwable
T_RECOVER_FAILED = "Fail for recovering lease. Volume:{}, Bucket:{}, Key:{}"                 # ex is a real throwable
# OMException messages
E_COMMIT_NF = "Failed to commit key, as {} entry is not found in the OpenKey table"         # + dbOpenFileKey
E_ALLOC_NF = "Open Key not found {}"
E_DELETE_NF = "Key not found. Key:{}"
E_SOFT = "Open Key {} updated recently and is inside soft limit period"
E_CLOSED = "Key: {} is already closed"
# Client (om.md 2.9), BlockOutputStreamEntryPool DEBUG
T_BLOCK_WRITTEN = "block written {}, length {} bcsID {}"


class Bundle:
    def __init__(self, slug, version, layout, seed, start_tx, leader="om1", flat=False, domain=""):
        """flat: every file in the bundle's top folder (host only in the file names); domain: appended
        to the OM ids in file names (`om1.example.com`)."""
        self.slug = slug
        self.flat = flat
        self.name = {h: h + domain for h in ("om1", "om2", "om3")}
        self.path_host = {}
        self.version = version
        self.json = version != "2.0.0"
        self.layout = layout
        self.rng = random.Random(seed)
        self.tx = start_tx
        self.oms = ["om1", "om2", "om3"]
        self.leader = leader
        # host clock offsets (seconds)
        self.skew = {"om1": 0.0, "om2": 0.083, "om3": -0.047}
        self.events = []   # OM write requests: applied on every OM
        self.files = {}    # relpath -> list of (time, seq, lines)
        self.seq = 0
        self.tx_of = {}    # event label -> Transaction
        self.out = None    # the BundleDir, once written

    # ---- low-level emit --------------------------------------------------------------------
    def emit(self, path, t, lines):
        self.seq += 1
        self.files.setdefault(path, []).append((t, self.seq, lines))

    def host_t(self, host, t):
        return t + dt.timedelta(seconds=self.skew.get(host, 0.0))

    def params(self, d):
        return json_params(d) if self.json else map_params(d)

    def host_file(self, host, name):
        path = name if self.flat else "%s/%s" % (host, name)
        self.path_host[path] = host
        return path

    def main_path(self, host):
        return self.host_file(host, "ozone-hadoop-om-%s.log" % self.name[host])

    def audit_path(self, host):
        return self.host_file(host, "om-audit-%s.log" % self.name[host])

    def sys_path(self, host):
        return self.host_file(host, "om-sys-audit-%s.log" % self.name[host])

    def om_main(self, host, t, thread, level, logger, msg, extra=None):
        self.emit(self.main_path(host), t, log_lines(self.layout, t, thread, level, logger, msg, extra or ()))

    # ---- OM write requests (applied on all OMs) --------------------------------------------
    def kv(self, vol, bucket, key, size, repl=True):
        d = {"volume": vol, "bucket": bucket, "key": key, "dataSize": str(size)}
        if repl:
            d["replicationType"] = "RATIS"
            d["replicationFactor"] = "THREE"
        return d

    def write(self, t, op, params, user, ip, label=None, exc=None, err=None):
        """exc = (result_code, message, throw_site_frames); err = (logger, message) for the OM ERROR line."""
        self.events.append(dict(t=t, kind="audit", op=op, params=params, user=user, ip=ip,
                                label=label, exc=exc, err=err))

    def create(self, t, vol, bucket, key, user, ip, counter, lag_ms, hsync_ms=None, label=None):
        """CREATE_FILE of a writer and, hsync_ms later, its first hsync (reaches OM, no audit line);
        -> its clientID, UniqueId.next() on the leader lag_ms before the create (om.md 4)."""
        cid = client_id(t - lag_ms * MS, counter)
        self.write(t, "CREATE_FILE", self.kv(vol, bucket, key, 0), user, ip, label=label and label + "_create")
        if hsync_ms is not None:
            self.silent(t + hsync_ms * MS, label=label and label + "_first_hsync")
        return cid

    def allocate(self, t, vol, bucket, key, size, cid, user, ip, **kw):
        """ALLOCATE_BLOCK of the writer `cid`; size: the offset of its last acknowledged hsync."""
        p = self.kv(vol, bucket, key, size)
        p["clientID"] = str(cid)
        self.write(t, "ALLOCATE_BLOCK", p, user, ip, **kw)

    def new_blocks(self, times, vol, bucket, key, cid, user, ip, slack, hsync_ms):
        """A writer crosses into a new block at each time (renewing its lease): ALLOCATE_BLOCK with the
        offset of its last hsync (up to `slack` bytes short of the block end), then its first hsync
        in the new block; -> the offset where the last block starts."""
        off = 0
        for t in times:
            off += BLOCK - self.rng.randint(*slack)
            self.allocate(t, vol, bucket, key, off, cid, user, ip)
            self.silent(t + self.rng.randint(*hsync_ms) * MS)
            off = (off // BLOCK + 1) * BLOCK
        return off

    def silent(self, t, n=1, label=None):
        """Ratis entries with no audit line (hsync commits, purges ...)."""
        self.events.append(dict(t=t, kind="silent", n=n, label=label))

    def sysaudit(self, t, op, params):
        self.events.append(dict(t=t, kind="sys", op=op, params=params))

    def flush_events(self):
        self.events.sort(key=lambda e: e["t"])
        last = {h: dt.datetime.min for h in self.oms}
        for e in self.events:
            if e["kind"] == "silent":
                self.tx += e["n"]
                if e["label"]:
                    self.tx_of[e["label"]] = self.tx
                continue
            self.tx += 1
            if self.rng.random() < 0.18:      # unaudited entries of other services in between
                self.tx += self.rng.randint(1, 3)
            tx = self.tx
            if e.get("label"):
                self.tx_of[e["label"]] = tx
            for h in self.oms:
                delay = 0 if h == self.leader else self.rng.randint(2, 31)
                ta = e["t"] + delay * MS
                if ta <= last[h]:
                    ta = last[h] + MS
                last[h] = ta
                th = self.host_t(h, ta)
                if e["kind"] == "sys":
                    self.sys_audit(h, th, e["op"], e["params"])
                    continue
                p = dict(e["params"])
                p["Transaction"] = str(tx)
                ret = "FAILURE" if e["exc"] else "SUCCESS"
                msg = audit_msg(e["user"], e["ip"], e["op"], self.params(p), ret)
                throwable = ()
                if e["exc"]:
                    code, emsg, site = e["exc"]
                    # OMException.toString, then the throw site and the apply thread's frames
                    throwable = ["%s %s: %s" % (code, OMEX, emsg)] + frames(*site, *APPLY_TAIL[self.version])
                    if e["err"]:
                        logger, emsg_log = e["err"]
                        self.om_main(h, th, "%s-OMStateMachineApplyTransactionThread - 0" % h, "ERROR",
                                     logger, emsg_log, throwable)
                    th = th + self.rng.randint(0, 1) * MS
                self.emit(self.audit_path(h), th, audit_lines(th, "ERROR" if throwable else "INFO",
                                                              "OMAudit", msg, throwable))

    def sys_audit(self, host, t, op, params):
        """OMSystemAudit: user=null (no RPC caller), ip empty, no Transaction (om.md 1.4)."""
        self.emit(self.sys_path(host), t, audit_lines(t, "INFO", "OMSystemAudit",
                                                      audit_msg("null", "", op, self.params(params), "SUCCESS")))

    # ---- OpenKeyCleanupService (leader only) ------------------------------------------------
    def cleanup_ticks(self, first, end, interval, actions):
        """actions: list of (due_time, task, fn) ; fn(t_submit) registers the request(s).
        Two summary lines per run: DEFAULT (OBS) task first, then FILE_SYSTEM_OPTIMIZED (om.md 2.1)."""
        t = first
        pending = sorted(actions, key=lambda a: a[0])
        ticks = []
        while t < end:
            thread = "%s-OpenKeyCleanupService#0" % self.leader
            for task in ("DEFAULT", "FSO"):
                due = [a for a in pending if a[1] == task and a[0] <= t]
                ndel = ncommit = 0
                elapsed = self.rng.randint(1, 4) if task == "DEFAULT" else self.rng.randint(1, 6)
                for a in due:
                    pending.remove(a)
                    kind = a[3]
                    a[2](t + self.rng.randint(6, 14) * MS)
                    if kind == "delete":
                        ndel += 1
                    else:
                        ncommit += 1
                    elapsed += self.rng.randint(28, 74)
                tl = t + elapsed * MS
                self.om_main(self.leader, self.host_t(self.leader, tl), thread, "INFO", L.OPEN_KEY_CLEANUP,
                             slf4j(T_CLEANUP, ndel, ncommit, 1000, elapsed))
                ticks.append((task, tl, ndel, ncommit))
                t = tl + self.rng.randint(0, 1) * MS
            t = t + interval + self.rng.randint(0, 3) * MS
        assert not pending, "cleanup action never ran: %r" % pending
        return ticks

    # ---- output ------------------------------------------------------------------------------
    def finish(self, audit_rotation, extra_files=None):
        """Writes the bundle: main logs whole, audit logs rolled over by audit_rotation(host, t) ->
        the date of the file a line goes to."""
        self.flush_events()
        self.out = BundleDir(self.slug)
        for path, recs in sorted(self.files.items()):
            recs.sort(key=lambda e: (e[0], e[1]))
            base = os.path.basename(path)
            if not (base.startswith("om-audit-") or base.startswith("om-sys-audit-")):
                self.out.write(path, [(e[2], None) for e in recs])
                continue
            host = self.path_host.get(path, path.split("/")[0])
            groups = []
            for e in recs:
                key = audit_rotation(host, e[0])
                if groups and groups[-1][0] == key:
                    groups[-1][1].append((e[2], None))
                else:
                    groups.append((key, [(e[2], None)]))
            for key, lines in groups[:-1]:
                self.out.write(audit_rollover(path, key), lines, gz=True)
            self.out.write(path, groups[-1][1])
        for path, text in (extra_files or {}).items():
            self.out.text(path, text)


def startup_sysaudit_22(b, starts, leader="om1"):
    """OMSystemAudit at the last OM start (2.1.0+): STARTUP (HashMap order) and the first LEADER_CHANGE."""
    for h in b.oms:
        b.sys_audit(h, starts[h], "STARTUP", {"NewOmState": "RUNNING", "OmState": "INITIALIZED"})
    tl = max(starts.values()) + 4_118 * MS
    for h in b.oms:
        b.sys_audit(h, tl + b.rng.randint(1, 40) * MS, "LEADER_CHANGE", {"previousLeader": "NONE", "newLeader": leader})


def startup_sysaudit_20(b, starts, after):
    """2.0.0 OMSystemAudit only knows STARTUP: the active file still holds the line of the last start."""
    for h in b.oms:
        b.sys_audit(h, starts[h] + after, "STARTUP", {"NewOmState": "RUNNING", "OmState": "INITIALIZED"})


def daily(host, t):
    """2.2.0 om-audit filePattern %d{yyyy-MM-dd}-%i, TimeBasedTriggeringPolicy interval=1 (one file per day)."""
    return t.strftime("%Y-%m-%d")


def hms_periods(starts):
    """2.0.0 filePattern %d{yyyy-MM-dd-HH-mm-ss}-%i with interval=86400 (seconds): periods of 24h
    counted from each OM's start; the rolled file carries the period's start (UNVERIFIED detail)."""
    def key(host, t):
        s = starts[host]
        k = int((t - s) // DAY)
        return (s + k * DAY).strftime("%Y-%m-%d-%H-%M-%S")
    return key


BASE_SITE = [
    ("ozone.om.service.ids", "omservice"),
    ("ozone.om.nodes.omservice", "om1,om2,om3"),
    ("ozone.om.address.omservice.om1", "om1.example.com:9862"),
    ("ozone.om.address.omservice.om2", "om2.example.com:9862"),
    ("ozone.om.address.omservice.om3", "om3.example.com:9862"),
    ("ozone.om.ratis.enable", "true"),
    ("ozone.scm.names", "scm1.example.com,scm2.example.com,scm3.example.com"),
    ("ozone.fs.hsync.enabled", "true"),
    ("ozone.client.hbase.enhancements.allowed", "true"),
    ("ozone.scm.block.size", "256MB"),
]

def lease_site(hard_limit):
    """ozone-site.xml of a bundle that sets the lease hard limit and a 10 min cleanup interval."""
    return site_xml(BASE_SITE + [("ozone.om.lease.hard.limit", hard_limit),
                                 ("ozone.om.open.key.cleanup.service.interval", "10m")])


STARTS_22 = {
    "HDDS-16825-bug-writer-fails-after-autocommit": {"om1": D("2026-08-12 09:14:02.331"), "om2": D("2026-08-12 09:16:40.902"),
                                                     "om3": D("2026-08-12 09:19:11.517")},
    "HDDS-16825-control-live-writer-closes": {"om1": D("2026-08-27 14:30:55.104"), "om2": D("2026-08-27 14:33:20.660"),
                                              "om3": D("2026-08-27 14:35:48.013")},
    "HDDS-16825-control-recover-lease-fencing": {"om1": D("2026-09-30 07:02:13.870"), "om2": D("2026-09-30 07:04:51.332"),
                                                 "om3": D("2026-09-30 07:07:30.596")},
}

LOG4J_VENDOR = """# OM / DN log4j.properties as shipped by the vendor-managed install (no thread in the layout)
log4j.rootLogger=${hadoop.root.logger}
hadoop.root.logger=INFO,RFA
log4j.appender.RFA=org.apache.log4j.RollingFileAppender
log4j.appender.RFA.File=${hadoop.log.dir}/${hadoop.log.file}
log4j.appender.RFA.MaxFileSize=256MB
log4j.appender.RFA.MaxBackupIndex=10
log4j.appender.RFA.layout=org.apache.log4j.PatternLayout
log4j.appender.RFA.layout.ConversionPattern=%s
""" % LAYOUTS["vendor"]


# ============================================================================================
# Common background traffic
# ============================================================================================
def traffic(b, start, end, n, fso_users, obs_users):
    """Other users' writes: ofs file writes in FSO buckets (CREATE_FILE, ALLOCATE_BLOCK with dataSize 0
    for non-hsync writers, COMMIT_KEY) and S3/OBS puts (ALLOCATE_KEY, COMMIT_KEY)."""
    rng = b.rng
    span = (end - start).total_seconds()
    counter = 3
    for i in range(n):
        t = start + dt.timedelta(seconds=rng.uniform(0, span - 900))
        counter += rng.randint(1, 40)
        if rng.random() < 0.6:
            user, ip, vol, bucket, prefix = rng.choice(fso_users)
            key = prefix % dict(i=i, d=t.strftime("%Y%m%d"), h=t.strftime("%H"), r=rng.randint(0, 99999))
            size = rng.choice([rng.randint(2_000, 9_000_000), rng.randint(9_000_000, 700_000_000)])
            b.write(t, "CREATE_FILE", b.kv(vol, bucket, key, 0), user, ip)
            cid = client_id(t - rng.randint(3, 12) * MS, counter)
            tt = t
            for blk in range(1, (size - 1) // BLOCK + 1):
                tt = tt + dt.timedelta(seconds=rng.uniform(4, 40))
                b.allocate(tt, vol, bucket, key, 0, cid, user, ip)
            tt = tt + dt.timedelta(seconds=rng.uniform(0.3, 50))
            b.write(tt, "COMMIT_KEY", b.kv(vol, bucket, key, size), user, ip)
        else:
            user, ip, vol, bucket, prefix = rng.choice(obs_users)
            key = prefix % dict(i=i, d=t.strftime("%Y%m%d"), h=t.strftime("%H"), r=rng.randint(0, 99999))
            size = rng.randint(1_024, 60_000_000)
            b.write(t, "ALLOCATE_KEY", b.kv(vol, bucket, key, size), user, ip)
            b.write(t + dt.timedelta(seconds=rng.uniform(0.05, 3.0)), "COMMIT_KEY",
                    b.kv(vol, bucket, key, size), user, ip)


def failed_delete(b, t, user, ip, vol, bucket, key):
    """A DELETE_KEY of a missing file: audit FAILURE + OM ERROR with a real stack trace (noise)."""
    site = [THROW_SITE[(b.version, "delete_fso")]]
    b.write(t, "DELETE_KEY", {"volume": vol, "bucket": bucket, "key": key}, user, ip,
            exc=("KEY_NOT_FOUND", slf4j(E_DELETE_NF, key), site),
            err=(L.KEY_DELETE_FSO, slf4j(T_DELETE_FAILED, vol, bucket, key)))


def auto_commit(b, vol, bkt, key, length, label=None):
    """The OpenKeyCleanupService auto-commit of an hsync'ed key idle past the hard limit: COMMIT_KEY with
    blank user and ip (om.md 0.4); -> the cleanup action (cleanup_ticks)."""
    def run(t):
        b.write(t, "COMMIT_KEY", b.kv(vol, bkt, key, length), "", "", label=label)
    return run


def open_keys_deleted(b, listed=None):
    """An OpenKeyCleanupService deletion of open keys that were never hsync'ed: the DeleteOpenKeys
    request writes no OMAudit line; 2.1.0+ writes OMSystemAudit OPEN_KEY_CLEANUP listing `listed`
    (`volume=…, bucket=…, key=…`), 2.0.0 nothing."""
    def run(t):
        b.silent(t)
        if listed:
            b.sysaudit(t + MS, "OPEN_KEY_CLEANUP", {"numOpenKeysDeleted": "1", "openKeysDeleted": "[{%s}]" % listed})
    return run


# ============================================================================================
# 1. bug: live writer auto-committed, its close then fails KEY_NOT_FOUND (2.2.0)
# ============================================================================================
def bundle_writer_fails():
    b = Bundle("HDDS-16825-bug-writer-fails-after-autocommit", "2.2.0", "file", 1682501, 6_402_110)
    start, end = D("2026-08-18 19:30:00.000"), D("2026-08-19 01:20:00.000")
    hard, interval = 2 * HOUR, 10 * MIN
    VOL, BKT = "logs", "raw"
    vol_id, bkt_id, dir_tx = object_id(812), object_id(1034), 6_401_037   # dir created 2026-08-18 00:00 (outside bundle)
    user, ip = "svc-collector", "10.20.3.15"
    key = "apps/payments/2026-08-18/collector-3.log"
    fname = "collector-3.log"

    # victim writer: opened at 20:14:03, fills two blocks fast (backfill), then trickles inside block 3
    t_create = D("2026-08-18 20:14:03.217")
    cid = b.create(t_create, VOL, BKT, key, user, ip, 17, 11, 912, label="victim")
    t_b2 = D("2026-08-18 20:31:47.604")
    b.allocate(t_b2, VOL, BKT, key, 268_428_517, cid, user, ip, label="victim_alloc2")
    b.silent(t_b2 + 1_207 * MS)                                         # first hsync in block 2
    t_b3 = D("2026-08-18 20:47:52.081")
    b.allocate(t_b3, VOL, BKT, key, 536_866_190, cid, user, ip, label="victim_alloc3")
    L_AUTO = 536_872_942
    b.silent(t_b3 + 1_033 * MS, label="victim_hsync_b3")                # first hsync in block 3 -> fileTable = L_AUTO
    # ... DN-only hsyncs every few seconds from here on, invisible to OM ...

    # healthy look-alike: another collector, faster stream, new block every 40-60 min, closes at midnight
    u2, ip2 = "svc-collector", "10.20.3.16"
    key2 = "apps/orders/2026-08-18/collector-4.log"
    t2 = D("2026-08-18 19:52:41.338")
    cid2 = b.create(t2, VOL, BKT, key2, u2, ip2, 4, 9, 640)
    off = b.new_blocks([D("2026-08-18 " + tb) for tb in ["20:38:10.417", "21:29:55.902", "22:14:03.118", "23:02:47.560",
                                                          "23:47:31.004"]],
                       VOL, BKT, key2, cid2, u2, ip2, (900, 9000), (600, 1900))
    b.write(D("2026-08-19 00:00:06.772"), "COMMIT_KEY", b.kv(VOL, BKT, key2, off + 98_311_406), u2, ip2)

    # midnight rotation of both collectors: new day directories and files
    t_mid = D("2026-08-19 00:00:05.131")
    b.write(t_mid, "CREATE_DIRECTORY", b.kv(VOL, BKT, "apps/payments/2026-08-19", 0, repl=False), user, ip)
    b.write(t_mid + 401 * MS, "CREATE_DIRECTORY", b.kv(VOL, BKT, "apps/orders/2026-08-19", 0, repl=False), u2, ip2)
    # the victim's close: COMMIT_KEY FAILURE, dataSize far above L_AUTO
    t_fail = D("2026-08-19 00:00:07.309")
    L_CLOSE = 651_208_334
    db_open = "/%d/%d/%d/%s/%d" % (vol_id, bkt_id, object_id(dir_tx), fname, cid)
    b.write(t_fail, "COMMIT_KEY", b.kv(VOL, BKT, key, L_CLOSE), user, ip, label="victim_fail",
            exc=("KEY_NOT_FOUND", slf4j(E_COMMIT_NF, db_open), [THROW_SITE[("2.2.0", "commit_fso")]]),
            err=(L.KEY_COMMIT, slf4j(T_COMMIT_FAILED, VOL, BKT, key)))
    # the new files of the new day (they are young when the bundle ends)
    b.write(D("2026-08-19 00:00:08.554"), "CREATE_FILE",
            b.kv(VOL, BKT, "apps/payments/2026-08-19/collector-3.log", 0), user, ip)
    b.silent(D("2026-08-19 00:00:09.460"))
    b.write(D("2026-08-19 00:00:08.990"), "CREATE_FILE",
            b.kv(VOL, BKT, "apps/orders/2026-08-19/collector-4.log", 0), u2, ip2)
    b.silent(D("2026-08-19 00:00:09.702"))
    b.allocate(D("2026-08-19 00:46:12.340"), VOL, BKT, "apps/orders/2026-08-19/collector-4.log", 268_430_022,
               client_id(D("2026-08-19 00:00:08.981"), 11), u2, ip2)

    traffic(b, start, end, 140,
            [("hive", "10.20.2.31", "hive", "warehouse", "sales/dt=%(d)s/part-%(r)05d-c000.snappy.parquet"),
             ("hive", "10.20.2.32", "hive", "warehouse", "clicks/dt=%(d)s/hr=%(h)s/part-%(r)05d.orc"),
             ("spark", "10.20.2.40", "spark", "events", "checkpoints/job-%(r)05d/offsets/%(i)d")],
            [("backup-svc", "10.20.0.40", "s3v", "backups", "db/%(d)s/chunk-%(r)05d"),
             ("etl", "10.20.0.41", "s3v", "staging", "ingest/%(d)s/batch-%(i)04d.json")])
    failed_delete(b, D("2026-08-18 21:06:44.912"), "hive", "10.20.2.31", "hive", "warehouse",
                  "sales/dt=20260817/_temporary/0")

    # OpenKeyCleanupService on the leader om1, every 10 min
    autocommit = auto_commit(b, VOL, BKT, key, L_AUTO, "victim_auto")

    delete_abandoned = open_keys_deleted(b, "volume=s3v, bucket=backups, key=db/20260811/chunk-40417")
    ticks = b.cleanup_ticks(D("2026-08-18 19:33:41.208"), end, interval,
                            [(t_b3 + hard, "FSO", autocommit, "commit"),
                             (D("2026-08-18 21:50:00.000"), "DEFAULT", delete_abandoned, "delete")])
    startup_sysaudit_22(b, STARTS_22[b.slug])
    site = lease_site("2h")
    b.finish(daily, {"conf/ozone-site.xml": site})
    return b, dict(key=key, cid=cid, L_AUTO=L_AUTO, L_CLOSE=L_CLOSE, t_b3=t_b3, ticks=ticks)


# ============================================================================================
# 2. bug (likely): ALLOCATE_BLOCK above the auto-committed length, writer active afterwards (2.0.0)
# ============================================================================================
def bundle_allocate_above():
    starts = {"om1": D("2026-07-14 18:12:40.000"), "om2": D("2026-07-14 18:16:05.000"),
              "om3": D("2026-07-14 18:19:44.000")}
    b = Bundle("HDDS-16825-bug-allocate-above-autocommit-2-0", "2.0.0", "vendor", 1682502, 3_118_940)
    start, end = D("2026-07-21 15:50:00.000"), D("2026-07-21 21:10:00.000")
    hard, interval = HOUR, 10 * MIN
    VOL, BKT = "ingest", "events"
    user, ip = "ingest", "10.20.4.21"
    key = "streams/clicks/part-0007.log"
    key8 = "streams/clicks/part-0008.log"

    # victim stream (partition 7): thread part-0007-writer on host ingest1
    t_create = D("2026-07-21 16:42:10.533")
    cid = b.create(t_create, VOL, BKT, key, user, ip, 23, 8)
    L_AUTO = 5_312
    C1, B1 = 3012, 113750153625653249
    C2, B2 = 3044, 113750153625661837
    cl = "ingest1/ingest-agent.log"

    def cline(t, thread, msg):
        b.emit(cl, t, log_lines("console", t, thread, "DEBUG", L.BLOCK_OUTPUT_POOL, msg))

    th7 = "part-0007-writer"
    t = t_create + 1_044 * MS
    b.silent(t + 6 * MS)                           # first hsync -> OM (length 5312)
    bcs = 18_227
    length = L_AUTO
    cline(t, th7, slf4j(T_BLOCK_WRITTEN, block_id(C1, B1, bcs), length, bcs))
    # steady hsyncs every ~2 min until block 1 is nearly full at ~18:10
    t_alloc = D("2026-07-21 18:10:33.187")
    D_ALLOC = 268_401_377
    n = 44
    for i in range(1, n + 1):
        t = t_create + dt.timedelta(seconds=120 * i + b.rng.uniform(-9, 9))
        bcs += b.rng.randint(140, 420)
        length = L_AUTO + (D_ALLOC - L_AUTO) * i // n
        cline(t, th7, slf4j(T_BLOCK_WRITTEN, block_id(C1, B1, bcs), length, bcs))
    bcs_b1_last = bcs
    b.allocate(t_alloc, VOL, BKT, key, D_ALLOC, cid, user, ip)
    # partition 7 goes quiet: no hsync in block 2 until 20:31 -> no OM-reaching hsync after the allocation

    # auto-commit at the first leader run >= t_alloc + 1h
    autocommit = auto_commit(b, VOL, BKT, key, L_AUTO)

    # writer resumes at 20:31: PutBlock on block 2 (slow on dn2), then the hsync lists both blocks.
    t_res = D("2026-07-21 20:31:18.262")
    b.emit("dn2/dn-audit-dn2.log", t_res - 93 * MS,
           audit_lines(t_res - 93 * MS, "INFO", "DNAudit",
                             "user=null | ip=null | op=PUT_BLOCK {blockData=[blockId=%s, size=3145728]} | ret=null"
                             " | perf={preOpLatencyMs=0, opLatencyMs=1873}" % block_id(C2, B2, 0)))
    cline(t_res, th7, slf4j(T_BLOCK_WRITTEN, block_id(C1, B1, bcs_b1_last + 37), BLOCK, bcs_b1_last + 37))
    cline(t_res, th7, slf4j(T_BLOCK_WRITTEN, block_id(C2, B2, 47_812), 3_145_728, 47_812))
    # the hsync then goes to OM (first hsync in block 2) and fails KEY_NOT_FOUND: no audit, no ERROR (om.md 0.1)
    b.silent(t_res + 9 * MS)

    # partition 8 (same agent, thread part-0008-writer): healthy, closes normally
    th8 = "part-0008-writer"
    t8 = D("2026-07-21 19:02:27.740")
    cid8 = b.create(t8, VOL, BKT, key8, user, ip, 5, 7)
    C8a, B8a = 3044, 113750153625660911
    C8b, B8b = 3051, 113750153625664170
    bcs8 = 39_880
    blocks = [[C8a, B8a, 0, bcs8]]          # containerID, localID, length in block, bcsId
    t = t8 + 911 * MS
    b.silent(t + 5 * MS)
    off = 0
    first_in_block = True
    while t < D("2026-07-21 20:52:00.000"):
        step = b.rng.randint(4_000_000, 6_300_000)
        if blocks[-1][2] + step > BLOCK:
            # block full -> ALLOCATE_BLOCK carrying the offset of the last hsync
            b.allocate(t - 2_100 * MS, VOL, BKT, key8, off, cid8, user, ip)
            rest = BLOCK - blocks[-1][2]
            blocks[-1][2] = BLOCK
            blocks[-1][3] += b.rng.randint(20, 90)
            blocks.append([C8b, B8b, step - rest, 44_020])
            first_in_block = True
        else:
            blocks[-1][2] += step
            blocks[-1][3] += b.rng.randint(60, 300)
        off += step
        for c, l, ln, bc in blocks:
            cline(t, th8, slf4j(T_BLOCK_WRITTEN, block_id(c, l, bc), ln, bc))
        if first_in_block:
            b.silent(t + 4 * MS)
            first_in_block = False
        t = t + dt.timedelta(seconds=120 + b.rng.uniform(-10, 10))
    b.write(t, "COMMIT_KEY", b.kv(VOL, BKT, key8, off), user, ip)
    # a slow PutBlock of partition 8 as well (not the victim's block)
    tp = D("2026-07-21 19:47:03.318")
    b.emit("dn1/dn-audit-dn1.log", tp, audit_lines(
        tp, "INFO", "DNAudit", "user=null | ip=null | op=PUT_BLOCK {blockData=[blockId=%s, size=%d]} | ret=null"
        " | perf={preOpLatencyMs=0, opLatencyMs=641}" % (block_id(C8a, B8a, 40_311), 201_342_177)))

    traffic(b, start, end, 120,
            [("spark", "10.20.2.40", "ingest", "events", "compacted/dt=%(d)s/part-%(r)05d.parquet"),
             ("hive", "10.20.2.31", "hive", "warehouse", "clicks/dt=%(d)s/hr=%(h)s/part-%(r)05d.orc")],
            [("backup-svc", "10.20.0.40", "s3v", "backups", "db/%(d)s/chunk-%(r)05d")])
    failed_delete(b, D("2026-07-21 17:21:09.006"), "spark", "10.20.2.40", "ingest", "events",
                  "compacted/dt=20260720/_SUCCESS")

    # DN audit traffic: container creation / close (audited on success)
    for h, tt, op, cidn in [("dn1", "16:05:12.410", "CLOSE_CONTAINER", 3008), ("dn2", "16:05:12.433", "CLOSE_CONTAINER", 3008),
                            ("dn3", "16:05:12.472", "CLOSE_CONTAINER", 3008), ("dn2", "17:58:40.101", "CREATE_CONTAINER", 3044),
                            ("dn3", "17:58:40.119", "CREATE_CONTAINER", 3044), ("dn1", "17:58:40.126", "CREATE_CONTAINER", 3044),
                            ("dn1", "19:33:27.915", "CREATE_CONTAINER", 3051), ("dn2", "19:33:27.940", "CREATE_CONTAINER", 3051),
                            ("dn3", "19:33:27.962", "CREATE_CONTAINER", 3051), ("dn1", "20:12:55.208", "CLOSE_CONTAINER", 3012),
                            ("dn2", "20:12:55.231", "CLOSE_CONTAINER", 3012), ("dn3", "20:12:55.260", "CLOSE_CONTAINER", 3012)]:
        t = D("2026-07-21 " + tt)
        prm = ("{containerID=%d, containerType=KeyValueContainer}" % cidn if op == "CREATE_CONTAINER"
               else "{containerID=%d}" % cidn)
        b.emit("%s/dn-audit-%s.log" % (h, h), t, audit_lines(
            t, "INFO", "DNAudit", "user=null | ip=null | op=%s %s | ret=SUCCESS" % (op, prm)))

    delete_abandoned = open_keys_deleted(b)
    ticks = b.cleanup_ticks(D("2026-07-21 15:54:52.611"), end, interval,
                            [(t_alloc + hard, "FSO", autocommit, "commit"),
                             (D("2026-07-21 17:00:00.000"), "DEFAULT", delete_abandoned, "delete")])
    startup_sysaudit_20(b, starts, 2_317 * MS)
    site = lease_site("1h")
    client_l4j = ("# log4j.properties of the ingest agent (Ozone client 2.0.0)\nlog4j.rootLogger=INFO,console\n"
                  + CONSOLE_APPENDER + logger_levels([(L.BLOCK_OUTPUT_POOL, "DEBUG")]))
    b.finish(hms_periods(starts), {"conf/ozone-site.xml": site, "conf/log4j.properties": LOG4J_VENDOR,
                                   "ingest1/conf/log4j.properties": client_l4j})
    return b, dict(key=key, cid=cid, L_AUTO=L_AUTO, D_ALLOC=D_ALLOC, t_alloc=t_alloc, ticks=ticks,
                   B2=(C2, B2), B1=(C1, B1))


# ============================================================================================
# 3. control: dead writer auto-committed (2.0.0)
# ============================================================================================
def bundle_dead_writer():
    starts = {"om1": D("2026-06-29 03:02:40.000"), "om2": D("2026-06-29 03:06:03.000"),
              "om3": D("2026-06-29 03:09:51.000")}
    b = Bundle("HDDS-16825-control-dead-writer", "2.0.0", "vendor", 1682503, 2_508_300)
    start, end = D("2026-07-03 00:40:00.000"), D("2026-07-03 05:30:00.000")
    hard, interval = 2 * HOUR, 10 * MIN
    VOL, BKT = "hbase", "wal"
    # WALs of rs1/rs2 roll every hour (healthy, closed by their writer)
    for rs, ipx, cnt in [("rs1", "10.20.0.11", 7), ("rs2", "10.20.0.12", 9)]:
        for hh in range(1, 6):
            t = D("2026-07-03 %02d:00:00.000" % hh) + b.rng.randint(90, 900) * MS
            k = "WALs/%s/%s.%d" % (rs, rs, epoch_ms(t) - 40)
            b.write(t, "CREATE_FILE", b.kv(VOL, BKT, k, 0), "hbase", ipx)
            b.silent(t + b.rng.randint(300, 900) * MS)
            size = b.rng.randint(40_000_000, 250_000_000)
            if hh < 5:
                b.write(t + HOUR + b.rng.randint(200, 2200) * MS, "COMMIT_KEY", b.kv(VOL, BKT, k, size), "hbase", ipx)
    # victim look-alike: a log collector whose host dies at ~02:32, right after its first hsync in block 2
    VOLC, BKTC = "logs", "raw"
    cuser, cip = "svc-collector", "10.20.3.17"
    t_create = D("2026-07-03 02:00:00.221")
    k3 = "apps/inventory/2026-07-03/collector-5.log.1"
    cid3 = b.create(t_create, VOLC, BKTC, k3, cuser, cip, 3, 10, 744)
    t_alloc = D("2026-07-03 02:31:40.010")
    b.allocate(t_alloc, VOLC, BKTC, k3, 268_435_000, cid3, cuser, cip)
    L_AUTO = 268_439_113
    b.silent(t_alloc + 871 * MS)    # first hsync in block 2 = last hsync of the writer (host crash ~02:32)

    autocommit = auto_commit(b, VOLC, BKTC, k3, L_AUTO)
    # an operator later runs a lease recovery on the file: it is already closed (ofs treats that as success)
    t_rl = D("2026-07-03 04:52:03.114")
    b.write(t_rl, "RECOVER_LEASE", {"volume": VOLC, "bucket": BKTC, "key": k3}, "ops", "10.20.0.5",
            exc=("KEY_ALREADY_CLOSED", slf4j(E_CLOSED, k3), RECOVER_SITES[("2.0.0", "closed")]),
            err=(L.RECOVER_LEASE, slf4j(T_RECOVER_FAILED, VOLC, BKTC, k3)))
    # the rebuilt host starts the collector again: a new file (new clientID)
    t_new = D("2026-07-03 04:58:31.502")
    k3b = "apps/inventory/2026-07-03/collector-5.log.2"
    b.write(t_new, "CREATE_FILE", b.kv(VOLC, BKTC, k3b, 0), cuser, cip)
    b.silent(t_new + 610 * MS)

    traffic(b, start, end, 90,
            [("hive", "10.20.2.31", "hive", "warehouse", "sales/dt=%(d)s/part-%(r)05d-c000.snappy.parquet")],
            [("backup-svc", "10.20.0.40", "s3v", "backups", "db/%(d)s/chunk-%(r)05d")])
    ticks = b.cleanup_ticks(D("2026-07-03 00:42:40.377"), end, interval,
                            [(t_alloc + hard, "FSO", autocommit, "commit")])
    startup_sysaudit_20(b, starts, 2_102 * MS)
    site = lease_site("2h")
    b.finish(hms_periods(starts), {"conf/ozone-site.xml": site, "conf/log4j.properties": LOG4J_VENDOR})
    return b, dict(key=k3, L_AUTO=L_AUTO, t_alloc=t_alloc, ticks=ticks)


# ============================================================================================
# 4. control: live hsync writer renews its lease by allocating blocks and closes normally (2.2.0)
# ============================================================================================
def bundle_live_writer():
    b = Bundle("HDDS-16825-control-live-writer-closes", "2.2.0", "file", 1682504, 7_020_415)
    start, end = D("2026-09-01 17:40:00.000"), D("2026-09-02 00:40:00.000")
    interval = 10 * MIN
    VOL, BKT = "logs", "raw"
    user, ip = "svc-collector", "10.20.3.16"
    key = "apps/orders/2026-09-01/collector-4.log"
    t0 = D("2026-09-01 18:02:11.045")
    cid = b.create(t0, VOL, BKT, key, user, ip, 9, 10, 702)
    allocs = ["19:41:03.388", "21:17:40.912", "22:53:12.006"]     # gaps < 2h
    off = b.new_blocks([D("2026-09-01 " + tb) for tb in allocs], VOL, BKT, key, cid, user, ip, (700, 9000), (500, 1500))
    t_close = D("2026-09-02 00:00:04.517")
    L_CLOSE = off + 141_044_270
    b.write(t_close, "COMMIT_KEY", b.kv(VOL, BKT, key, L_CLOSE), user, ip)
    b.write(t_close - 1_402 * MS, "CREATE_DIRECTORY", b.kv(VOL, BKT, "apps/orders/2026-09-02", 0, repl=False), user, ip)
    b.write(t_close + 1_288 * MS, "CREATE_FILE", b.kv(VOL, BKT, "apps/orders/2026-09-02/collector-4.log", 0), user, ip)
    b.silent(t_close + 2_004 * MS)
    # a short-lived hsync writer (job log) that closes after 25 minutes without allocating
    k2 = "apps/batch/run-8812/driver.log"
    t2 = D("2026-09-01 20:05:33.870")
    b.write(t2, "CREATE_FILE", b.kv(VOL, BKT, k2, 0), "svc-batch", "10.20.3.30")
    b.silent(t2 + 511 * MS)
    b.write(t2 + 25 * MIN + 3_117 * MS, "COMMIT_KEY", b.kv(VOL, BKT, k2, 18_331_590), "svc-batch", "10.20.3.30")

    traffic(b, start, end, 130,
            [("hive", "10.20.2.31", "hive", "warehouse", "sales/dt=%(d)s/part-%(r)05d-c000.snappy.parquet"),
             ("spark", "10.20.2.40", "spark", "events", "checkpoints/job-%(r)05d/offsets/%(i)d")],
            [("backup-svc", "10.20.0.40", "s3v", "backups", "db/%(d)s/chunk-%(r)05d"),
             ("etl", "10.20.0.41", "s3v", "staging", "ingest/%(d)s/batch-%(i)04d.json")])
    failed_delete(b, D("2026-09-01 22:19:50.441"), "spark", "10.20.2.40", "spark", "events",
                  "checkpoints/job-00417/offsets/12")

    delete_abandoned = open_keys_deleted(b, "volume=s3v, bucket=staging, key=ingest/20260825/batch-0311.json")
    ticks = b.cleanup_ticks(D("2026-09-01 17:46:02.955"), end, interval,
                            [(D("2026-09-01 20:20:00.000"), "DEFAULT", delete_abandoned, "delete")])
    startup_sysaudit_22(b, STARTS_22[b.slug])
    site = lease_site("2h")
    b.finish(daily, {"conf/ozone-site.xml": site})
    return b, dict(key=key, L_CLOSE=L_CLOSE, ticks=ticks)


# ============================================================================================
# 5. control: recoverLease fencing, then the old writer fails KEY_NOT_FOUND (2.2.0)
# ============================================================================================
def bundle_recover_lease():
    b = Bundle("HDDS-16825-control-recover-lease-fencing", "2.2.0", "file", 1682505, 8_881_207)
    start, end = D("2026-10-05 22:20:00.000"), D("2026-10-06 01:40:00.000")
    VOL, BKT = "hbase", "wal"
    vol_id, bkt_id, dir_tx = object_id(701), object_id(745), 5_102_377
    rip = "10.20.0.14"
    t_create = D("2026-10-05 23:00:00.412")
    key = "WALs/rs4/rs4.%d" % (epoch_ms(t_create) - 37)
    fname = key.split("/")[-1]
    cid = b.create(t_create, VOL, BKT, key, "hbase", rip, 21, 9, 580)
    t_alloc = D("2026-10-05 23:38:51.640")
    b.allocate(t_alloc, VOL, BKT, key, 268_433_905, cid, "hbase", rip)
    b.silent(t_alloc + 622 * MS)
    # rs4 stalls in a long GC pause at ~23:39:05; the master (10.20.0.10) splits its WALs
    mip = "10.20.0.10"
    rl = {"volume": VOL, "bucket": BKT, "key": key}
    soft = ("KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD", slf4j(E_SOFT, key), RECOVER_SITES[("2.2.0", "soft")])
    for tt in ["23:39:12.530", "23:39:16.602"]:
        b.write(D("2026-10-05 " + tt), "RECOVER_LEASE", rl, "hbase", mip, exc=soft,
                err=(L.RECOVER_LEASE, slf4j(T_RECOVER_FAILED, VOL, BKT, key)))
    t_rl = D("2026-10-05 23:40:20.713")
    b.write(t_rl, "RECOVER_LEASE", rl, "hbase", mip)
    L_R = 268_435_456 + 1_906_331      # block 2 length as finalized on the datanodes
    b.write(t_rl + 688 * MS, "COMMIT_KEY", b.kv(VOL, BKT, key, L_R), "hbase", mip)
    # rs4 wakes up at 23:41:02: its write hits the finalized block, it asks for a new block and fails
    t_fail = D("2026-10-05 23:41:02.955")
    D_LAST = 268_435_456 + 1_874_019    # offset of rs4's last successful hsync
    db_open = "/%d/%d/%d/%s/%d" % (vol_id, bkt_id, object_id(dir_tx), fname, cid)
    b.allocate(t_fail, VOL, BKT, key, D_LAST, cid, "hbase", rip,
               exc=("KEY_NOT_FOUND", slf4j(E_ALLOC_NF, db_open), [THROW_SITE[("2.2.0", "allocate")]]),
               err=(L.ALLOCATE_BLOCK, slf4j(T_ALLOC_FAILED, VOL, BKT, db_open)))
    # rs4 aborts; it comes back at 23:52 with a new WAL
    t_new = D("2026-10-05 23:52:47.118")
    k_new = "WALs/rs4/rs4.%d" % (epoch_ms(t_new) - 44)
    b.write(t_new, "CREATE_FILE", b.kv(VOL, BKT, k_new, 0), "hbase", rip)
    b.silent(t_new + 700 * MS)
    b.write(D("2026-10-06 00:52:49.904"), "COMMIT_KEY", b.kv(VOL, BKT, k_new, 83_110_466), "hbase", rip)
    # other region servers' WALs roll hourly
    for rsx, ipx in [("rs1", "10.20.0.11"), ("rs2", "10.20.0.12")]:
        for day, hh in (("2026-10-05", 22), ("2026-10-05", 23), ("2026-10-06", 0), ("2026-10-06", 1)):
            t = D("%s %02d:00:00.000" % (day, hh)) + b.rng.randint(100, 900) * MS
            k = "WALs/%s/%s.%d" % (rsx, rsx, epoch_ms(t) - 35)
            b.write(t, "CREATE_FILE", b.kv(VOL, BKT, k, 0), "hbase", ipx)
            b.silent(t + b.rng.randint(300, 900) * MS)
            if hh != 1:
                b.write(t + HOUR + b.rng.randint(100, 1900) * MS, "COMMIT_KEY",
                        b.kv(VOL, BKT, k, b.rng.randint(30_000_000, 200_000_000)), "hbase", ipx)
    traffic(b, start, end, 80,
            [("hbase", "10.20.0.11", "hbase", "data", "data/default/usertable/%(r)05d/cf/%(i)d")],
            [("backup-svc", "10.20.0.40", "s3v", "backups", "db/%(d)s/chunk-%(r)05d")])
    ticks = b.cleanup_ticks(D("2026-10-05 22:27:19.806"), end, 10 * MIN, [])
    startup_sysaudit_22(b, STARTS_22[b.slug])
    site = lease_site("2h")
    b.finish(daily, {"conf/ozone-site.xml": site})
    return b, dict(key=key, cid=cid, L_R=L_R, D_LAST=D_LAST, ticks=ticks)


# ============================================================================================
# First-block writers (issue 13): a slow hsync writer that never leaves its first block is seen by
# OM three times only: CREATE_FILE, the auto-commit at the hard limit, and its own failure much later.
# Default lease settings (7d hard limit, 24h cleanup interval): the story spans rotated audit files
# over more than a week.
# ============================================================================================
def open_first_block(b, t_create, vol, bkt, key, user, ip, counter):
    """CREATE_FILE, then the first hsync of the key (reaches OM, renews M once, no audit line)."""
    return b.create(t_create, vol, bkt, key, user, ip, counter, b.rng.randint(6, 14), b.rng.randint(500, 1100))


def close_fails(b, t, vol, bkt, key, size, user, ip, db_open):
    """The writer's close after its open key is gone: COMMIT_KEY FAILURE KEY_NOT_FOUND + OM ERROR (om.md 2.3)."""
    b.write(t, "COMMIT_KEY", b.kv(vol, bkt, key, size), user, ip, label="fail",
            exc=("KEY_NOT_FOUND", slf4j(E_COMMIT_NF, db_open), [THROW_SITE[(b.version, "commit_fso")]]),
            err=(L.KEY_COMMIT, slf4j(T_COMMIT_FAILED, vol, bkt, key)))


def fso_open_key(vol_tx, bkt_tx, dir_tx, fname, cid):
    """FSO dbOpenFileKey `/<volumeId>/<bucketId>/<parentId>/<fileName>/<clientID>` (om.md 4)."""
    return "/%d/%d/%d/%s/%d" % (object_id(vol_tx), object_id(bkt_tx), object_id(dir_tx), fname, cid)


LEDGER_TRAFFIC = (
    [("hive", "10.20.2.31", "hive", "warehouse", "sales/dt=%(d)s/part-%(r)05d-c000.snappy.parquet"),
     ("spark", "10.20.2.40", "spark", "events", "checkpoints/job-%(r)05d/offsets/%(i)d")],
    [("backup-svc", "10.20.0.40", "s3v", "backups", "db/%(d)s/chunk-%(r)05d"),
     ("etl", "10.20.0.41", "s3v", "staging", "ingest/%(d)s/batch-%(i)04d.json")])


# 6. bug: first-block writer auto-committed after 7 days, its close fails (2.0.0, vendor layout)
def bundle_first_block_2_0():
    starts = {"om1": D("2026-05-02 03:41:17.000"), "om2": D("2026-05-02 03:44:52.000"),
              "om3": D("2026-05-02 03:48:09.000")}
    b = Bundle("HDDS-16825-bug-first-block-writer-2-0", "2.0.0", "vendor", 1682506, 4_410_072)
    start, end = D("2026-05-02 04:10:00.000"), D("2026-05-13 08:30:00.000")
    hard = 7 * DAY                                # ozone.om.lease.hard.limit default (not set in ozone-site.xml)
    VOL, BKT = "ledgers", "journal"
    user = "svc-ledger"
    # ledger-1 and ledger-3 roll their journal segment on every restart, well inside the hard limit
    l1, l3 = "10.20.5.31", "10.20.5.33"
    for ip, name, seg, t_open, t_close, size in [
            (l1, "ledger-1", 391, "2026-05-02 04:31:10.228", "2026-05-06 14:02:37.611", 114_870_299),
            (l1, "ledger-1", 392, "2026-05-06 14:02:39.004", "2026-05-12 20:41:12.773", 163_201_874),
            (l3, "ledger-3", 287, "2026-05-02 04:35:51.960", "2026-05-09 02:15:40.317", 178_022_615),
            (l3, "ledger-3", 288, "2026-05-09 02:15:41.802", "2026-05-12 21:52:05.126", 97_436_118)]:
        k = "%s/journal/segment-%010d.log" % (name, seg)
        open_first_block(b, D(t_open), VOL, BKT, k, user, ip, b.rng.randint(2, 60))
        b.write(D(t_close), "COMMIT_KEY", b.kv(VOL, BKT, k, size), user, ip)
    for ip, name, seg, t_open in [(l1, "ledger-1", 393, "2026-05-12 20:41:14.390"),
                                  (l3, "ledger-3", 289, "2026-05-12 21:52:06.551")]:
        open_first_block(b, D(t_open), VOL, BKT, "%s/journal/segment-%010d.log" % (name, seg), user, ip,
                         b.rng.randint(2, 60))
    # ledger-2: its previous segment closes at a clean restart; the new one stays in block 1 for 8 days
    ip2 = "10.20.5.32"
    b.write(D("2026-05-04 11:23:05.970"), "COMMIT_KEY",
            b.kv(VOL, BKT, "ledger-2/journal/segment-0000000417.log", 71_388_120), user, ip2)
    fname = "segment-0000000418.log"
    key = "ledger-2/journal/" + fname
    t_create = D("2026-05-04 11:23:07.412")
    cid = b.create(t_create, VOL, BKT, key, user, ip2, 41, 9, 893, label="victim")
    t_first = t_create + 893 * MS                     # M = t_first; fileTable length = L_AUTO
    L_AUTO = 1_536
    # ... ~300 B/s of hsync'ed records, datanode-only, for eight days ...

    autocommit = auto_commit(b, VOL, BKT, key, L_AUTO, "victim_auto")

    # rolling upgrade on 2026-05-12: ledger-2 closes its segment, which OM committed 17 hours earlier
    t_fail = D("2026-05-12 21:17:33.806")
    L_CLOSE = 218_061_447
    close_fails(b, t_fail, VOL, BKT, key, L_CLOSE, user, ip2, fso_open_key(1_207, 1_311, 3_902_554, fname, cid))
    open_first_block(b, t_fail + 1_644 * MS, VOL, BKT, "ledger-2/journal/segment-0000000419.log", user, ip2, 7)

    traffic(b, start, end, 260, *LEDGER_TRAFFIC)
    failed_delete(b, D("2026-05-07 10:51:30.449"), "hive", "10.20.2.31", "hive", "warehouse",
                  "sales/dt=20260506/_temporary/0")

    delete_abandoned = open_keys_deleted(b)
    ticks = b.cleanup_ticks(starts["om1"] + 4_611 * MS, end, DAY,
                            [(t_first + hard, "FSO", autocommit, "commit"),
                             (D("2026-05-08 00:00:00.000"), "DEFAULT", delete_abandoned, "delete")])
    startup_sysaudit_20(b, starts, 2_260 * MS)
    b.finish(hms_periods(starts), {"conf/ozone-site.xml": site_xml(BASE_SITE), "conf/log4j.properties": LOG4J_VENDOR})
    return b, dict(key=key, cid=cid, L_AUTO=L_AUTO, L_CLOSE=L_CLOSE, t_create=t_create, t_fail=t_fail, ticks=ticks)


# 7. bug: first-block writer auto-committed, fails at the block boundary (2.1.0, flat bundle, FQDN names)
def bundle_first_block_allocate_2_1():
    starts = {"om1": D("2026-10-19 22:05:40.118"), "om2": D("2026-10-19 22:08:03.502"),
              "om3": D("2026-10-19 22:10:31.977")}
    b = Bundle("HDDS-16825-bug-first-block-allocate-fails-2-1", "2.1.0", "file", 1682507, 9_771_305,
               leader="om2", flat=True, domain=".example.com")
    start, end = D("2026-10-19 22:30:00.000"), D("2026-10-31 06:00:00.000")
    hard = 7 * DAY
    VOL, BKT = "logs", "archive"
    user = "svc-shipper"
    # gw-1 ships ~1.3 KB/s: a new block every ~2.4 days renews its lease
    ip1 = "10.20.6.12"
    k1 = "edge/gw-1/audit-000114.log"
    cid1 = open_first_block(b, D("2026-10-20 02:14:36.770"), VOL, BKT, k1, user, ip1, 12)
    b.new_blocks([D(tb) for tb in ["2026-10-22 09:31:02.118", "2026-10-24 17:05:49.660", "2026-10-27 00:48:13.207",
                                   "2026-10-29 08:22:57.941"]], VOL, BKT, k1, cid1, user, ip1, (700, 9_000), (400, 1_500))
    # gw-3 ships ~320 B/s: its segment stays in block 1 for nine days
    ip3 = "10.20.6.14"
    fname = "audit-000071.log"
    key = "edge/gw-3/" + fname
    t_create = D("2026-10-21 09:12:55.301")
    cid = b.create(t_create, VOL, BKT, key, user, ip3, 33, 12, 712, label="victim")
    t_first = t_create + 712 * MS
    L_AUTO = 3_112

    autocommit = auto_commit(b, VOL, BKT, key, L_AUTO, "victim_auto")

    # the writer reaches the end of block 1: ALLOCATE_BLOCK with its last hsync offset fails
    t_fail = D("2026-10-30 05:40:18.227")
    D_FAIL = 268_433_721
    db_open = fso_open_key(388, 2_904, 9_702_118, fname, cid)
    b.allocate(t_fail, VOL, BKT, key, D_FAIL, cid, user, ip3, label="fail",
               exc=("KEY_NOT_FOUND", slf4j(E_ALLOC_NF, db_open), [THROW_SITE[("2.1.0", "allocate_fso")]]),
               err=(L.ALLOCATE_BLOCK_FSO, slf4j(T_ALLOC_FAILED, VOL, BKT, db_open)))
    # the shipper reopens a new segment and resends from its checkpoint
    open_first_block(b, t_fail + 3_019 * MS, VOL, BKT, "edge/gw-3/audit-000072.log", user, ip3, 5)

    traffic(b, start, end, 240, *LEDGER_TRAFFIC)
    failed_delete(b, D("2026-10-25 13:07:44.580"), "spark", "10.20.2.40", "spark", "events",
                  "checkpoints/job-00912/offsets/40")

    delete_abandoned = open_keys_deleted(b, "volume=s3v, bucket=staging, key=ingest/20261017/batch-0072.json")
    # om2 leads from 22:10:36; its cleanup runs keep the phase of its start (22:08:03) and print as leader only
    ticks = b.cleanup_ticks(D("2026-10-20 22:08:03.914"), end, DAY,
                            [(t_first + hard, "FSO", autocommit, "commit"),
                             (D("2026-10-24 00:00:00.000"), "DEFAULT", delete_abandoned, "delete")])
    startup_sysaudit_22(b, starts, leader="om2")
    b.finish(hms_periods(starts), {"ozone-site.xml": site_xml(BASE_SITE)})
    return b, dict(key=key, cid=cid, L_AUTO=L_AUTO, D_FAIL=D_FAIL, t_create=t_create, t_fail=t_fail,
                   ticks=ticks, k1=k1)


# 8. control: first-block writers that close in time, are fenced by recoverLease, or are dead (2.2.0)
def bundle_first_block_controls_2_2():
    starts = {"om1": D("2026-11-30 06:12:44.210"), "om2": D("2026-11-30 06:15:10.871"),
              "om3": D("2026-11-30 06:17:38.054")}
    b = Bundle("HDDS-16825-control-first-block-writers-2-2", "2.2.0", "file", 1682508, 12_004_771)
    start, end = D("2026-11-30 06:30:00.000"), D("2026-12-10 12:00:00.000")
    hard = 7 * DAY
    VOL, BKT = "ledgers", "journal"
    user = "svc-ledger"
    # W1: ledger-1 stays in block 1 for 6 days 21 hours and closes its segment itself
    ip1 = "10.20.5.31"
    k1 = "ledger-1/journal/segment-0000000512.log"
    open_first_block(b, D("2026-12-01 08:02:41.118"), VOL, BKT, k1, user, ip1, 19)
    b.write(D("2026-12-08 05:10:02.664"), "COMMIT_KEY", b.kv(VOL, BKT, k1, 178_433_012), user, ip1)
    open_first_block(b, D("2026-12-08 05:10:04.015"), VOL, BKT, "ledger-1/journal/segment-0000000513.log",
                     user, ip1, 20)
    # W2: ledger-3 is partitioned; the ledger auditor fences its segment with recoverLease, then ledger-3
    # comes back and its close fails KEY_NOT_FOUND (no auto-commit involved)
    ip3, auditor = "10.20.5.33", "10.20.5.40"
    f2 = "segment-0000000301.log"
    k2 = "ledger-3/journal/" + f2
    t2 = D("2026-12-02 14:30:09.602")
    cid2 = open_first_block(b, t2, VOL, BKT, k2, user, ip3, 44)
    t_rl = D("2026-12-05 16:04:12.330")
    b.write(t_rl, "RECOVER_LEASE", {"volume": VOL, "bucket": BKT, "key": k2}, user, auditor)
    L_R = 81_220_544
    b.write(t_rl + 802 * MS, "COMMIT_KEY", b.kv(VOL, BKT, k2, L_R), user, auditor)
    t_f2 = D("2026-12-05 16:21:47.093")
    L_F2 = 81_519_330
    close_fails(b, t_f2, VOL, BKT, k2, L_F2, user, ip3, fso_open_key(1_207, 1_311, 11_480_662, f2, cid2))
    open_first_block(b, t_f2 + 2_210 * MS, VOL, BKT, "ledger-3/journal/segment-0000000302.log", user, ip3, 3)
    # W3: ledger-2's host dies a few hours after it opened its segment: auto-committed at the hard limit,
    # nothing of the writer follows; the re-provisioned ledger-2 opens a new segment
    ip2 = "10.20.5.32"
    k3 = "ledger-2/journal/segment-0000000460.log"
    t3 = D("2026-12-01 19:44:20.505")
    open_first_block(b, t3, VOL, BKT, k3, user, ip2, 8)
    L_AUTO3 = 2_048

    autocommit = auto_commit(b, VOL, BKT, k3, L_AUTO3, "auto")
    open_first_block(b, D("2026-12-09 10:03:55.870"), VOL, BKT, "ledger-2/journal/segment-0000000461.log",
                     user, ip2, 2)

    traffic(b, start, end, 240, *LEDGER_TRAFFIC)
    failed_delete(b, D("2026-12-04 09:12:03.007"), "hive", "10.20.2.31", "hive", "warehouse",
                  "sales/dt=20261203/_temporary/0")
    ticks = b.cleanup_ticks(starts["om1"] + 3_980 * MS, end, DAY,
                            [(t3 + 1_000 * MS + hard, "FSO", autocommit, "commit")])
    startup_sysaudit_22(b, starts)
    b.finish(daily, {"conf/ozone-site.xml": site_xml(BASE_SITE)})
    return b, dict(k1=k1, k2=k2, k3=k3, cid2=cid2, L_R=L_R, L_F2=L_F2, L_AUTO3=L_AUTO3, ticks=ticks)


# 9. control: a dead first-block writer is auto-committed; a stale older session of the same key, same
# user and ip, fails KEY_NOT_FOUND afterwards (2.0.0, vendor layout)
def bundle_other_session_2_0():
    starts = {"om1": D("2026-03-08 01:02:03.000"), "om2": D("2026-03-08 01:05:29.000"),
              "om3": D("2026-03-08 01:08:47.000")}
    b = Bundle("HDDS-16825-control-other-session-fails-2-0", "2.0.0", "vendor", 1682509, 2_177_430)
    start, end = D("2026-03-08 01:30:00.000"), D("2026-03-19 10:00:00.000")
    hard, expire = 7 * DAY, 7 * DAY     # ozone.om.lease.hard.limit, ozone.om.open.key.expire.threshold
    VOL, BKT = "ingest", "raw"
    user, ip = "svc-ingest", "10.20.4.27"
    fname = "stream.log"
    key = "sensors/site-12/" + fname
    # session B: the agent opens the stream (no hsync yet) and hangs on a dead NFS spool at 16:41
    t_b = D("2026-03-09 16:20:11.847")
    cid_b = b.create(t_b, VOL, BKT, key, user, ip, 3, 7)
    # session A: the watchdog starts a new agent process on the same stream; it hsyncs, then is killed
    t_a = D("2026-03-09 16:52:30.114")
    cid_a = b.create(t_a, VOL, BKT, key, user, ip, 9, 10, 655, label="a")
    t_a_first = t_a + 655 * MS
    L_AUTO = 4_096

    autocommit = auto_commit(b, VOL, BKT, key, L_AUTO, "auto")

    expire_b = open_keys_deleted(b)   # B's open key: never hsync'ed, creation time past the threshold
    # the agent is moved to ingest4 on 2026-03-10 and writes a file of its own there
    open_first_block(b, D("2026-03-10 09:35:12.402"), VOL, BKT, "sensors/site-12/stream-ingest4.log",
                     user, "10.20.4.28", 14)
    # B wakes up when the spool is remounted, flushes what it buffered and closes: its open key is gone
    t_fail = D("2026-03-18 11:46:02.590")
    L_B = 41_903_223
    close_fails(b, t_fail, VOL, BKT, key, L_B, user, ip, fso_open_key(611, 698, 2_101_904, fname, cid_b))

    traffic(b, start, end, 240,
            [("hive", "10.20.2.31", "hive", "warehouse", "sales/dt=%(d)s/part-%(r)05d-c000.snappy.parquet")],
            [("backup-svc", "10.20.0.40", "s3v", "backups", "db/%(d)s/chunk-%(r)05d")])
    failed_delete(b, D("2026-03-13 22:40:19.300"), "hive", "10.20.2.31", "hive", "warehouse",
                  "sales/dt=20260312/_temporary/0")
    ticks = b.cleanup_ticks(starts["om1"] + 5_004 * MS, end, DAY,
                            [(t_a_first + hard, "FSO", autocommit, "commit"),
                             (t_b + expire, "FSO", expire_b, "delete")])
    startup_sysaudit_20(b, starts, 2_418 * MS)
    b.finish(hms_periods(starts), {"conf/ozone-site.xml": site_xml(BASE_SITE), "conf/log4j.properties": LOG4J_VENDOR})
    return b, dict(key=key, cid_a=cid_a, cid_b=cid_b, L_AUTO=L_AUTO, L_B=L_B, t_a=t_a, t_b=t_b, ticks=ticks)


# ============================================================================================
# EXPECTED.json and SOURCE.md (line numbers are looked up in the files just written)
# ============================================================================================
TEMPLATES_COMMON = """\
## Templates used

| Template (as written) | Catalogue | Ozone class, level | Releases |
|---|---|---|---|
| audit record `%d{DEFAULT} \\| %-5level \\| %c{1} \\| %msg \\| %throwable{3} %n`; success ends `\\|  `, failure = exception line + two `\\tat` frames, the last with a trailing space | om.md 1.2 | `om-audit-log4j2.properties`, `AuditMessage.formMessage` | all |
| `user=U \\| ip=I \\| op=OP {params} \\| ret=R`; params {PARAMS} | om.md 0.5, 1.2 | `AuditMessage` ({PCLASS}) | {REL} |
| `"Transaction"` appended last to every write-request audit map; every OM writes the line at apply | om.md 0.6, 1.2 | `OMAuditLogger.log` | 2.0.0+ |
| `op=CREATE_FILE` volume, bucket, key, dataSize, replicationType, replicationFactor | om.md 1.4, 1.5 | `OMFileCreateRequestWithFSO` INFO (audit) | {REL} |
| `op=ALLOCATE_BLOCK` … + `clientID` | om.md 1.4, 1.5 | `OMAllocateBlockRequest` INFO/ERROR (audit) | {REL} |
| `op=COMMIT_KEY` (close, recovery commit, and the OpenKeyCleanupService auto-commit with `user= \\| ip=`) | om.md 0.4, 1.4, 1.5 | `OMKeyCommitRequestWithFSO` (audit) | {REL} |
| `op=ALLOCATE_KEY` / `op=COMMIT_KEY` (S3/OBS puts of other users) | om.md 1.3, 1.4 | `OMKeyCreateRequest`, `OMKeyCommitRequest` (audit) | {REL} |
| `op=DELETE_KEY {volume, bucket, key, Transaction} \\| ret=FAILURE \\| KEY_NOT_FOUND …OMException: Key not found. Key:<key>` (noise) | not in om.md; read at the tags: audit map `buildLightKeyArgsAuditMap` (dataSize/replicationConfig are only added once the key is found) | `OMKeyDeleteRequestWithFSO` | {REL} |
| `Number of expired open keys submitted for deletion: {}, for commit: {}, cleanupLimit: {}, elapsed time: {}ms` (leader only, thread `om1-OpenKeyCleanupService#0`, two lines per run: OBS task, then FSO task) | om.md 2.1 | `OpenKeyCleanupService` INFO | 2.0.0–2.2.0 (line 242 at each tag) |
| `Key delete failed. Volume:{}, Bucket:{}, Key:{}.` + full stack trace | not in om.md; `OMKeyDeleteRequestWithFSO` line 215 (2.0.0), 226 (2.1.0), 228 (2.2.0) | `OMKeyDeleteRequestWithFSO` ERROR | {REL} |
| stack traces: `OMException.toString()` = `<RESULT> org.apache.hadoop.ozone.om.exceptions.OMException: <msg>`, then the apply-thread frames | om.md 1.1 | throw sites read at the tags (see generator `THROW_SITE`, `APPLY_TAIL`) | {REL} |
"""


COMMON_NOTES = [
    "- All hosts write UTC. OM clocks: om2 about +83 ms and om3 about -47 ms from om1; followers apply 2-31 ms after the leader. "
    "Every write-request audit line is on all three OMs with the same `Transaction`.",
    "- Generated by `samples/gen/hdds_16825.py` (fixed seeds). Unverified details, as the catalogue also marks them: the JDK "
    "frames (JDK 17 line numbers), javac lambda indices in the frames, the blank `user= | ip=` of the auto-commit (om.md 5 "
    "open item), `dataSize` 0 in ALLOCATE_BLOCK of non-hsync writers (om.md 1.4), CREATE_DIRECTORY params without "
    "replication fields (an ofs mkdir sets no type/factor; inferred), and objectIds derived from creating transactions (om.md 4).",
]


LAYOUT_NAMES = {"file": "shipped file layout", "vendor": "vendor layout without thread"}


def om_layout(b):
    """SOURCE.md's sentence on the OM main logs' layout, from the layout the bundle writes them in."""
    return "OM main logs use the %s `%s`" % (LAYOUT_NAMES[b.layout], LAYOUTS[b.layout])


def write_docs(b, expected, release, layouts, templates_extra, story, chain, benign=None, notes=None):
    b.out.expected(expected)
    pcls = "`formatParamsAsJson`, Jackson, all values strings" if b.json else "`Map.toString()` of a LinkedHashMap"
    params = "JSON `{\"k\":\"v\",...}`" if b.json else "`{k=v, k=v}`"
    out = ["# %s" % b.slug, "", "Release: **%s**. %s" % (release, layouts), "", "## Story", "", story.strip(), "",
           TEMPLATES_COMMON.replace("{PARAMS}", params).replace("{PCLASS}", pcls).replace("{REL}", release.split()[0]).rstrip()]
    out += templates_extra
    out += ["", "## Evidence chain" if not benign else "## Lines a rule must read (and why this is benign)", ""]
    out += chain
    if benign:
        out += ["", "### Why this is not HDDS-16825", ""] + benign
    out += ["", "## Notes", ""] + (notes or []) + COMMON_NOTES
    b.out.text("SOURCE.md", "\n".join(out) + "\n")


def docs_writer_fails(b, m):
    k = m["key"]
    a = "om1/om-audit-om1-2026-08-18-1.log.gz"
    write_docs(
        b, [finding(RULE, "key:/logs/raw/" + k, "confirmed")],
        "2.2.0 (JSON audit params, daily audit rotation `-%d{yyyy-MM-dd}-%i.log.gz`)",
        om_layout(b) + ". "
        "`conf/ozone-site.xml` sets `ozone.om.lease.hard.limit=2h` and `ozone.om.open.key.cleanup.service.interval=10m`. "
        "OM om1 is the leader throughout; om2 runs ~83 ms ahead, om3 ~47 ms behind.",
        [
            "| `op=OPEN_KEY_CLEANUP {\"numOpenKeysDeleted\":\"1\",\"openKeysDeleted\":\"[{volume=…, bucket=…, key=…}]\"}`, `op=STARTUP`, `op=LEADER_CHANGE` with `user=null \\| ip=` | om.md 1.4 | `OMOpenKeysDeleteRequest`, `OzoneManager.start`, `OzoneManagerStateMachine.notifyLeaderChanged` (OMSystemAudit) | 2.1.0+ |",
            "| `Key committed failed. Volume:{}, Bucket:{}, Key:{}. Exception:{}` (4th `{}` stays literal, stack trace follows; logged on every OM) | om.md 1.1, 2.3 | `OMKeyCommitRequest` ERROR (FSO failures use this logger) | 2.2.0 |",
            "| `Failed to commit key, as <dbOpenFileKey> entry is not found in the OpenKey table` (KEY_NOT_FOUND) | om.md 2.3 | `OMKeyCommitRequestWithFSO` line 181 | 2.2.0 |",
        ],
        """
A log collector (`svc-collector` at 10.20.3.15) writes `ofs://omservice/logs/raw/%s` and hsyncs it
every few seconds. It backfills fast at first, so it crosses two block boundaries (ALLOCATE_BLOCK at
20:31:47 and 20:47:52, each carrying the offset of its last hsync). Its first hsync in block 3 reaches OM
(no audit line, om.md 0.1) and stores length %d in the fileTable. From then on it writes about 10 KB/s and
stays in block 3, so every later hsync goes to the datanodes only and nothing refreshes the open key's
modification time. Two hours after the last ALLOCATE_BLOCK the leader's OpenKeyCleanupService auto-commits
the file at %d (blank `user= | ip=`). The writer does not notice. At the midnight rotation it closes the
stream: COMMIT_KEY FAILURE KEY_NOT_FOUND with dataSize %d, i.e. about %d MB of hsync-acknowledged data
are not in the closed file. All three OMs log the audit lines and the ERROR.

Look-alikes in the same bundle: a second collector (10.20.3.16, `apps/orders/…/collector-4.log`) renews
its lease with an ALLOCATE_BLOCK every 40-60 min and closes normally at 00:00:06; an abandoned OBS key
is deleted by the same service (`submitted for deletion: 1`, OMSystemAudit `OPEN_KEY_CLEANUP`); other
users' traffic (hive, spark, S3 puts) and a failed DELETE_KEY with a stack trace. The new day's files
(created 00:00:08) are younger than the hard limit when the bundle ends.
""" % (k, m["L_AUTO"], m["L_AUTO"], m["L_CLOSE"], (m["L_CLOSE"] - m["L_AUTO"]) // 1_000_000),
        [
            "1. %s CREATE_FILE of the key by `svc-collector`/10.20.3.15 (same line on om2/om3: %s, %s)."
            % (b.out.loc(a, "CREATE_FILE", k), b.out.loc("om2/om-audit-om2-2026-08-18-1.log.gz", "CREATE_FILE", k),
               b.out.loc("om3/om-audit-om3-2026-08-18-1.log.gz", "CREATE_FILE", k)),
            "2. %s and %s ALLOCATE_BLOCK with `clientID` %d (= open time 20:14:03.206 << 16 | 17) and "
            "dataSize 268428517 / 536866190: the last one (20:47:52) is T_last, the lease is not renewed after it."
            % (b.out.loc(a, "ALLOCATE_BLOCK", k, nth=1), b.out.loc(a, "ALLOCATE_BLOCK", k, nth=2), m["cid"]),
            "3. %s leader OpenKeyCleanupService, FSO task: `submitted for deletion: 0, for commit: 1` at 22:53:41 "
            "(2h05m49s after T_last; hard limit 2h, interval 10m)." % b.out.loc("om1/ozone-hadoop-om-om1.log", "for commit: 1"),
            "4. %s the auto-commit: `user= | ip= | op=COMMIT_KEY` dataSize %d (om2 %s, om3 %s, same Transaction)."
            % (b.out.loc(a, "user= | ip=", k), m["L_AUTO"], b.out.loc("om2/om-audit-om2-2026-08-18-1.log.gz", "user= | ip=", k),
               b.out.loc("om3/om-audit-om3-2026-08-18-1.log.gz", "user= | ip=", k)),
            "5. %s the writer's own close, COMMIT_KEY `ret=FAILURE` `KEY_NOT_FOUND … Failed to commit key, as "
            "/…/collector-3.log/%d entry is not found in the OpenKey table`, dataSize %d > %d. The trailing path "
            "component is the clientID of step 2. (om2 %s, om3 %s)"
            % (b.out.loc("om1/om-audit-om1.log", "ret=FAILURE", k), m["cid"], m["L_CLOSE"], m["L_AUTO"],
               b.out.loc("om2/om-audit-om2.log", "ret=FAILURE", k), b.out.loc("om3/om-audit-om3.log", "ret=FAILURE", k)),
            "6. %s (and om2 %s, om3 %s) OM ERROR `Key committed failed. Volume:logs, Bucket:raw, Key:%s. Exception:{}` "
            "with the KEY_NOT_FOUND stack trace." % (b.out.loc("om1/ozone-hadoop-om-om1.log", "Key committed failed"),
                                                     b.out.loc("om2/ozone-hadoop-om-om2.log", "Key committed failed"),
                                                     b.out.loc("om3/ozone-hadoop-om-om3.log", "Key committed failed"), k),
            "",
            "Also present (not evidence): the healthy collector-4 stream, e.g. its last ALLOCATE_BLOCK %s and its close %s; "
            "the OBS open-key deletion %s / %s." % (
                b.out.loc(a, "ALLOCATE_BLOCK", "collector-4.log", nth=5),
                b.out.loc("om1/om-audit-om1.log", "COMMIT_KEY", "apps/orders/2026-08-18/collector-4.log"),
                b.out.loc("om1/ozone-hadoop-om-om1.log", "submitted for deletion: 1"),
                b.out.loc("om1/om-sys-audit-om1.log", "OPEN_KEY_CLEANUP")),
        ],
        notes=[
            "- The FSO path in the exception is `/<volumeObjectId>/<bucketObjectId>/<parentObjectId>/collector-3.log/<clientID>`; "
            "objectIds are `(2<<62)|(txId<<8)` of the creating transactions 812 (volume), 1034 (bucket) and 6401037 (the "
            "day directory, created at 2026-08-18 00:00, before this bundle). See om.md 4.",
            "- Ratis indices without an audit line (hsync commits, DeleteOpenKeys, other services) leave gaps in `Transaction`.",
        ])


def docs_allocate_above(b, m):
    k = m["key"]
    c2, b2 = m["B2"]
    c1, b1 = m["B1"]
    r = "om1/om-audit-om1-2026-07-20-18-12-40-1.log.gz"
    write_docs(
        b, [finding(RULE, "key:/ingest/events/" + k, "likely")],
        "2.0.0 (`{k=v, ...}` audit params; OMAudit rotation `-%d{yyyy-MM-dd-HH-mm-ss}-%i.log.gz` every 86400 s counted from each OM's start; OMSystemAudit knows only STARTUP)",
        om_layout(b) + " (`conf/log4j.properties`). "
        "The ingest agent's log (`ingest1/ingest-agent.log`) uses the Ozone console layout `%d{ISO8601} [%t] %p %c{2}: %m%n` "
        "with DEBUG on `org.apache.hadoop.ozone.client.io.BlockOutputStreamEntryPool` only (`ingest1/conf/log4j.properties`). "
        "`conf/ozone-site.xml` sets `ozone.om.lease.hard.limit=1h`, cleanup interval `10m`. Leader om1 throughout.",
        [
            "| `op=STARTUP {NewOmState=RUNNING, OmState=INITIALIZED}` with `user=null \\| ip=` (HashMap order), the only OMSystemAudit action in 2.0.0 | om.md 5 | `OzoneManager.start` | 2.0.0 |",
            "| `block written conID: C locID: L bcsId: N replicaIndex: null, length <bytes in that block> bcsID N` (one line per stream entry at every hsync and close) | om.md 2.9 | `BlockOutputStreamEntryPool` DEBUG | 2.0.0 |",
            "| DN `op=PUT_BLOCK {blockData=[blockId=conID: C locID: L bcsId: B replicaIndex: null, size=S]} \\| ret=null \\| perf={preOpLatencyMs=0, opLatencyMs=N}` (slow op only) | om.md 2.10, datanode.md 1.2 | `HddsDispatcher.performanceAudit` INFO | 2.0.0 |",
            "| DN `op=CREATE_CONTAINER {containerID=…, containerType=KeyValueContainer}`, `op=CLOSE_CONTAINER {containerID=…}` `ret=SUCCESS` | datanode.md 1.2 | `HddsDispatcher` INFO | 2.0.0 |",
        ],
        """
An ingest agent (`ingest` at 10.20.4.21, host `ingest1`) writes one hsync'ed file per partition. Partition 7
(`%s`, thread `part-0007-writer`) is opened at 16:42:10; its first hsync (length %d) reaches OM and is what
the fileTable holds. It then hsyncs every ~2 minutes inside block 1 (datanode only; every hsync prints
`block written` lines in the agent log). At 18:10:33 block 1 is full and the writer allocates block 2:
ALLOCATE_BLOCK carries dataSize %d, the offset of its last (acknowledged) hsync. Partition 7 then goes quiet:
records trickle in, but no hsync is issued in block 2 for more than two hours, so OM never learns of any
length beyond %d. One hour after the allocation the leader auto-commits the file at dataSize %d
(blank user/ip). That drops %d bytes that hsync had acknowledged (everything in block 1 after the first hsync), and
block 2 is not in the committed location list.

At 20:31:18 the writer is demonstrably alive on this key: it flushes block 2 (`%d:%d`), dn2 records the slow
PutBlock, and the agent logs the hsync's two `block written` lines (block 1 full, block 2 at 3 MB). That hsync
is the first in block 2, so it goes to OM, and OM rejects it KEY_NOT_FOUND. An hsync leaves no audit and no ERROR (om.md 0.1), so
the bundle contains **no** KEY_NOT_FOUND line: the failure is only visible to the application.
Partition 8 (thread `part-0008-writer`, `%s`) runs in the same agent over the same period, crosses a block
boundary normally and closes at ~20:50 with COMMIT_KEY; it has its own slow PutBlock on dn1.
""" % (k, m["L_AUTO"], m["D_ALLOC"], m["L_AUTO"], m["L_AUTO"], m["D_ALLOC"] - m["L_AUTO"], c2, b2,
       "streams/clicks/part-0008.log"),
        [
            "1. %s CREATE_FILE `%s` by ingest/10.20.4.21." % (b.out.loc(r, "CREATE_FILE", k), k),
            "2. %s first `block written` of thread part-0007-writer: `conID: %d locID: %d`, length %d (the first hsync; this "
            "length is what OM will auto-commit)." % (b.out.loc("ingest1/ingest-agent.log", "part-0007-writer", nth=1), c1, b1, m["L_AUTO"]),
            "3. %s last `block written` before the allocation: length %d." % (
                b.out.loc("ingest1/ingest-agent.log", "part-0007-writer", "length %d " % m["D_ALLOC"]), m["D_ALLOC"]),
            "4. %s ALLOCATE_BLOCK SUCCESS, `dataSize=%d`, `clientID=%d` at 18:10:33 (T_last; om2/om3 write the same Transaction)."
            % (b.out.loc(r, "ALLOCATE_BLOCK", k), m["D_ALLOC"], m["cid"]),
            "5. %s leader: `submitted for deletion: 0, for commit: 1` at 19:14:52 (1h04m after T_last)."
            % b.out.loc("om1/ozone-hadoop-om-om1.log", "for commit: 1"),
            "6. %s auto-commit `user= | ip= | op=COMMIT_KEY {… key=%s, dataSize=%d …}`: **%d < %d** of step 4 "
            "(om2 %s, om3 %s)." % (b.out.loc("om1/om-audit-om1.log", "user= | ip=", k), k, m["L_AUTO"], m["L_AUTO"], m["D_ALLOC"],
                                   b.out.loc("om2/om-audit-om2.log", "user= | ip=", k), b.out.loc("om3/om-audit-om3.log", "user= | ip=", k)),
            "7. %s dn2 slow `PUT_BLOCK` on `conID: %d locID: %d` at 20:31:18 (after the auto-commit)." % (
                b.out.loc("dn2/dn-audit-dn2.log", "PUT_BLOCK"), c2, b2),
            "8. %s and %s part-0007-writer's hsync at 20:31:18: block 1 at 268435456 and block 2 `conID: %d locID: %d` "
            "length 3145728. Same thread as steps 2-3, so the block in step 7 belongs to this key's writer. (Lengths of the block-1 lines equal the "
            "audit dataSize values of steps 4 and 6.)" % (
                b.out.loc("ingest1/ingest-agent.log", "part-0007-writer", "length 268435456"),
                b.out.loc("ingest1/ingest-agent.log", "part-0007-writer", "locID: %d" % b2), c2, b2),
            "",
            "No COMMIT_KEY/ALLOCATE_BLOCK FAILURE exists for this key, which is why the confidence is `likely`, not `confirmed`: "
            "the bundle shows the preconditions (acknowledged length above the committed one, writer active after the "
            "commit) but not the writer's error.",
        ],
        notes=[
            "- The partition-8 stream is the decoy for the block join: its blocks are in the same container 3044 "
            "(`locID 113750153625660911`), its slow PutBlock is on dn1, and its lines interleave with partition 7's.",
            "- In a real cluster the auto-commit also moves the uncommitted block 2 to the deleted table and KeyDeletingService "
            "logs INFO `Send {} key(s) to SCM, first {} keys: {}` on the leader. That line is left out because its BlockGroup "
            "format is not in the catalogue.",
            "- 2.0.0 writes `om-sys-audit-<host>.log` (OMSystemAudit exists since HDDS-11306) but has no OPEN_KEY_CLEANUP / "
            "LEADER_CHANGE actions. Each file holds only the STARTUP line of the last OM start (2026-07-14), because no later "
            "event has triggered a rollover. The OBS open-key deletion at ~17:00 (`submitted for deletion: 1`) therefore has no audit line at all.",
        ])


def docs_dead_writer(b, m):
    k = m["key"]
    r = "om1/om-audit-om1-2026-07-02-03-02-40-1.log.gz"
    write_docs(
        b, [], "2.0.0 (`{k=v, ...}` audit params, OMAudit rotation `-%d{yyyy-MM-dd-HH-mm-ss}-%i.log.gz`)",
        om_layout(b) + ". Hard limit `2h`, cleanup interval `10m`.",
        [
            "| `op=RECOVER_LEASE {volume, bucket, key, Transaction} \\| ret=FAILURE \\| KEY_ALREADY_CLOSED …: Key: <key> is already closed` | om.md 1.5, 3.7 A | `OMRecoverLeaseRequest` line 211 | 2.0.0 |",
            "| `Fail for recovering lease. Volume:{}, Bucket:{}, Key:{}` + stack trace (3 placeholders, real throwable) | om.md 2.6 | `OMRecoverLeaseRequest` ERROR | 2.0.0 |",
            "| `op=STARTUP {NewOmState=RUNNING, OmState=INITIALIZED}` (OMSystemAudit, last OM start) | om.md 5 | `OzoneManager.start` | 2.0.0 |",
        ],
        """
A log collector on 10.20.3.17 opens `%s` at 02:00:00, writes quickly and crosses into block 2 at 02:31:40
(ALLOCATE_BLOCK dataSize 268435000). Its first hsync in block 2 (length %d, no audit line) is also its last:
the host crashes at ~02:32. Nothing from that clientID follows. At the first cleanup run after the two-hour
hard limit, 04:32, the leader auto-commits the file at %d, which is **at or above** every length the writer
reported (the last ALLOCATE_BLOCK said 268435000). At 04:52 an operator (`ops`, 10.20.0.5) runs a lease recovery
on the file and gets KEY_ALREADY_CLOSED. The rebuilt collector opens a new file `…collector-5.log.2`.
Background: HBase WALs of rs1/rs2 roll hourly (created and closed by their writers well within 2h), hive and
S3 traffic.
""" % (k, m["L_AUTO"], m["L_AUTO"]),
        [
            "1. %s CREATE_FILE by svc-collector/10.20.3.17." % b.out.loc(r, "CREATE_FILE", k),
            "2. %s ALLOCATE_BLOCK dataSize 268435000 at 02:31:40, the writer's last OM-visible act (T_last)." % b.out.loc(r, "ALLOCATE_BLOCK", k),
            "3. %s leader `for commit: 1` at 04:32 (T_last + 2h + under one interval)." % b.out.loc("om1/ozone-hadoop-om-om1.log", "for commit: 1"),
            "4. %s auto-commit `user= | ip= | op=COMMIT_KEY` dataSize %d ≥ 268435000." % (
                b.out.loc("om1/om-audit-om1.log", "user= | ip=", k), m["L_AUTO"]),
            "5. %s RECOVER_LEASE FAILURE KEY_ALREADY_CLOSED by **ops/10.20.0.5**, not the writer; OM ERROR %s."
            % (b.out.loc("om1/om-audit-om1.log", "RECOVER_LEASE", k), b.out.loc("om1/ozone-hadoop-om-om1.log", "Fail for recovering lease")),
        ],
        benign=[
            "- No ALLOCATE_BLOCK of the key has a dataSize above the auto-committed %d, and no activity of the writer "
            "(user/ip/clientID, block, key) follows T_last: the writer is dead and no hsync-acknowledged length is dropped." % m["L_AUTO"],
            "- The only post-commit failure on the key is a RECOVER_LEASE KEY_ALREADY_CLOSED from another client. "
            "om.md 3.2 7c lists that pattern among the outcomes of the bug, so a rule that treats any failure after a blank-user "
            "commit as the writer's would flag this bundle. The writer never failed here: it was already gone.",
            "- Designed behaviour per HDDS-10141 (the hard limit closes files of dead writers).",
        ])


def docs_live_writer(b, m):
    k = m["key"]
    r = "om1/om-audit-om1-2026-09-01-1.log.gz"
    write_docs(
        b, [], "2.2.0 (JSON audit params, daily audit rotation)",
        om_layout(b) + ". Hard limit `2h`, cleanup interval `10m`.",
        [
            "| `op=OPEN_KEY_CLEANUP`, `op=STARTUP`, `op=LEADER_CHANGE` (OMSystemAudit, `user=null \\| ip=`) | om.md 1.4 | `OMOpenKeysDeleteRequest`, `OzoneManager`, `OzoneManagerStateMachine` | 2.1.0+ |",
        ],
        """
A collector (`svc-collector` at 10.20.3.16) keeps `%s` open for six hours with hsync, far longer than the
two-hour hard limit, but it writes fast enough to need a new block every ~95 minutes: every ALLOCATE_BLOCK
renews the open key's modification time, so the file never expires. It closes normally at midnight
(COMMIT_KEY by the writer, dataSize %d). OpenKeyCleanupService runs every 10 minutes and commits nothing
(`for commit: 0` on every run); one run deletes an abandoned non-hsync OBS key (`for deletion: 1` +
OMSystemAudit OPEN_KEY_CLEANUP). A short hsync'ed job log (svc-batch) opens and closes within 25 minutes. Background traffic and a failed DELETE_KEY.
""" % (k, m["L_CLOSE"]),
        [
            "1. %s CREATE_FILE at 18:02:11." % b.out.loc(r, "CREATE_FILE", k),
            "2. %s, %s, %s ALLOCATE_BLOCKs (gaps 99, 96, 96 min, all < 2h); dataSize = the last hsync offsets."
            % (b.out.loc(r, "ALLOCATE_BLOCK", k, nth=1), b.out.loc(r, "ALLOCATE_BLOCK", k, nth=2), b.out.loc(r, "ALLOCATE_BLOCK", k, nth=3)),
            "3. %s COMMIT_KEY SUCCESS by the writer at 00:00:04, dataSize %d." % (b.out.loc("om1/om-audit-om1.log", "COMMIT_KEY", k), m["L_CLOSE"]),
            "4. %s (the deletion run) and all other runs in `om1/ozone-hadoop-om-om1.log`: `for commit: 0`." % b.out.loc(
                "om1/ozone-hadoop-om-om1.log", "submitted for deletion: 1"),
        ],
        benign=[
            "- No blank-user COMMIT_KEY exists in the bundle, and no KEY_NOT_FOUND.",
            "- A naive rule that flags any hsync'ed file open longer than `ozone.om.lease.hard.limit` (CREATE_FILE 18:02 → close 00:00 = 6h) "
            "would fire here. The lease is measured from the last ALLOCATE_BLOCK, and the longest gap is 99 min.",
            "- The OPEN_KEY_CLEANUP / `submitted for deletion: 1` is a non-hsync key of another user (normal 7-day expiry), not this file.",
        ])


def docs_recover_lease(b, m):
    k = m["key"]
    r = "om1/om-audit-om1-2026-10-05-1.log.gz"
    write_docs(
        b, [], "2.2.0 (JSON audit params, daily audit rotation)",
        om_layout(b) + ". Hard limit `2h`, soft limit default 60 s.",
        [
            "| `op=RECOVER_LEASE {volume, bucket, key, Transaction}` SUCCESS / FAILURE `KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD …: Open Key <key> updated recently and is inside soft limit period` | om.md 1.5, 2.6 | `OMRecoverLeaseRequest` (lines 228 / 150) | 2.2.0 |",
            "| `Fail for recovering lease. Volume:{}, Bucket:{}, Key:{}` + stack trace | om.md 2.6 | `OMRecoverLeaseRequest` ERROR | 2.2.0 |",
            "| `Allocate Block failed. Volume:{}, Bucket:{}, OpenKey:{}. Exception:{}` (literal `{}` + stack trace), `Open Key not found <dbOpenFileKey>` | om.md 2.4 | `OMAllocateBlockRequest` ERROR, line 204 | 2.2.0 |",
            "| `op=STARTUP`, `op=LEADER_CHANGE` (OMSystemAudit of the last OM start; no later system event, so no rollover) | om.md 1.4 | `OzoneManager`, `OzoneManagerStateMachine` | 2.1.0+ |",
        ],
        """
HBase region server rs4 (10.20.0.14) writes WAL `%s` (hsync). At 23:38:51 it allocates block 2 (dataSize
268433905) and, seconds later, stalls in a long GC pause. The master (hbase at 10.20.0.10) considers rs4
dead and splits its WALs: its first two recoverLease calls fall inside the 60 s soft limit after the
allocation and are rejected (KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD, ERROR on every OM), the third at 23:40:20
succeeds, and the master's recovery COMMIT_KEY (dataSize %d, the length finalized on the datanodes) follows
0.7 s later. At 23:41:02 rs4 wakes up, its write hits the finalized block and it asks for a new one:
ALLOCATE_BLOCK FAILURE KEY_NOT_FOUND `Open Key not found …/%d`, with dataSize %d (its last hsync offset).
rs4 aborts and comes back at 23:52 with a new WAL. Other region servers roll their WALs hourly.
""" % (k, m["L_R"], m["cid"], m["D_LAST"]),
        [
            "1. %s CREATE_FILE by hbase/10.20.0.14; %s ALLOCATE_BLOCK clientID %d at 23:38:51." % (
                b.out.loc(r, "CREATE_FILE", k), b.out.loc(r, "ALLOCATE_BLOCK", k, "SUCCESS"), m["cid"]),
            "2. %s, %s RECOVER_LEASE FAILURE KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD by hbase/10.20.0.10 (ERROR %s)." % (
                b.out.loc(r, "RECOVER_LEASE", k, nth=1), b.out.loc(r, "RECOVER_LEASE", k, nth=2),
                b.out.loc("om1/ozone-hadoop-om-om1.log", "Fail for recovering lease")),
            "3. %s RECOVER_LEASE SUCCESS by hbase/10.20.0.10 at 23:40:20; %s its recovery COMMIT_KEY (same user/ip, dataSize %d)."
            % (b.out.loc(r, "RECOVER_LEASE", k, "SUCCESS"), b.out.loc(r, "COMMIT_KEY", k), m["L_R"]),
            "4. %s ALLOCATE_BLOCK FAILURE KEY_NOT_FOUND by the old writer hbase/10.20.0.14, dataSize %d; OM ERROR %s (also om2/om3)."
            % (b.out.loc(r, "ALLOCATE_BLOCK", k, "FAILURE"), m["D_LAST"], b.out.loc("om1/ozone-hadoop-om-om1.log", "Allocate Block failed")),
        ],
        benign=[
            "- The COMMIT_KEY before the writer's failure carries a user and ip (the recovering master), and it is preceded by a "
            "successful RECOVER_LEASE on the key: this is explicit lease recovery, the designed fencing path (om.md 3.7 C). "
            "It is not the OpenKeyCleanupService auto-commit (`user= | ip=`), and no blank-user COMMIT_KEY exists in the bundle.",
            "- Recovery takes the length from the datanodes, so the recovery commit (%d) is not below the fenced writer's "
            "last acknowledged offset (%d): nothing hsynced is lost." % (m["L_R"], m["D_LAST"]),
            "- A naive rule keyed on a writer's KEY_NOT_FOUND after someone else's COMMIT_KEY would flag %s." % b.out.loc(
                r, "ALLOCATE_BLOCK", k, "FAILURE"),
            "- The soft-limit behaviour the issue asks about (recovery accepted while the writer may still hsync inside one block) "
            "is explicitly not a defect claim in HDDS-16825.",
        ])


FIRST_BLOCK_NOTE = (
    "- Lease settings are the defaults: `ozone.om.lease.hard.limit` 7d and `ozone.om.open.key.cleanup.service.interval` "
    "24h (`OMConfigKeys`, `ozone-default.xml`); `ozone-site.xml` does not set them. The first run of "
    "OpenKeyCleanupService is at the leader's start (initial delay 0) and then every 24 h, so the auto-commit comes "
    "between 7 and 8 days after the writer's last lease renewal (here its first hsync, about a second after CREATE_FILE).")


def docs_first_block_2_0(b, m):
    k = m["key"]
    a = "om1/om-audit-om1-*.log.gz"
    write_docs(
        b, [finding(RULE, "key:/ledgers/journal/" + k, "confirmed")],
        "2.0.0 (`{k=v, ...}` audit params; OMAudit rotation `-%d{yyyy-MM-dd-HH-mm-ss}-%i.log.gz` every 86400 s counted from each OM's start, 11 days of rotated files)",
        om_layout(b) + " (`conf/log4j.properties`). "
        "One folder per OM host. Leader om1 throughout.",
        [
            "| `Key committed failed. Volume:{}, Bucket:{}, Key:{}. Exception:{}` (4th `{}` stays literal, stack trace follows; every OM) | om.md 1.1, 2.3 | `OMKeyCommitRequest` ERROR, line 479 (FSO failures use this logger) | 2.0.0 |",
            "| `Failed to commit key, as <dbOpenFileKey> entry is not found in the OpenKey table` (KEY_NOT_FOUND) | om.md 2.3 | `OMKeyCommitRequestWithFSO` line 179 | 2.0.0 |",
            "| `op=STARTUP {NewOmState=RUNNING, OmState=INITIALIZED}` with `user=null \\| ip=`, the only OMSystemAudit action in 2.0.0 | om.md 5 | `OzoneManager.start` | 2.0.0 |",
        ],
        """
A ledger service writes journal segments to `ofs://omservice/ledgers/journal/`, one open segment per
ledger node, hsync'ing every record. Its three nodes write about 300 bytes/s each, so a segment stays in
its first 256 MB block for weeks; a node rolls its segment when it restarts. ledger-2 restarts cleanly on
2026-05-04 at 11:23 and opens `%s` (CREATE_FILE by `svc-ledger`/10.20.5.32). Its first hsync reaches OM
about a second later (no audit line) and stores length %d; every later hsync goes to the datanodes only,
because the writer never needs a second block. OM sees nothing more of this writer for eight days. On
2026-05-12 at 03:41, the first OpenKeyCleanupService run more than 7 days after that first hsync, the leader
auto-commits the file at %d bytes (blank `user= | ip=`). At 21:17 that evening a rolling upgrade restarts
ledger-2: closing the segment fails KEY_NOT_FOUND at dataSize %d, on every OM, with the OM ERROR and its
stack trace. About 218 MB that hsync had acknowledged are not in the closed file.

Look-alikes in the same bundle: ledger-1 and ledger-3 also stay in their first block and close their
segments themselves before the hard limit (4d9h, 6d6h, 6d21h and 3d19h after their CREATE_FILE), and open new
ones; ledger-2's previous segment closes normally at the restart on 05-04; other users' traffic, an OBS
open-key deletion (`submitted for deletion: 1`, no audit line in 2.0.0) and a failed DELETE_KEY.
""" % (k, m["L_AUTO"], m["L_AUTO"], m["L_CLOSE"]),
        [
            "1. %s CREATE_FILE of the segment by `svc-ledger`/10.20.5.32 on 2026-05-04 11:23:07 (om2 %s, om3 %s). No clientID "
            "is audited here (om.md 0.2)." % (b.out.locf(a, "CREATE_FILE", k), b.out.locf("om2/om-audit-om2-*.log.gz", "CREATE_FILE", k),
                                              b.out.locf("om3/om-audit-om3-*.log.gz", "CREATE_FILE", k)),
            "2. Nothing of this key for eight days: no ALLOCATE_BLOCK (the writer never leaves block 1), no audit of hsync.",
            "3. %s leader om1, FSO task: `submitted for deletion: 0, for commit: 1` on 2026-05-12 03:41 (7d16h after step 1)."
            % b.out.loc("om1/ozone-hadoop-om-om1.log", "for commit: 1"),
            "4. %s the auto-commit `user= | ip= | op=COMMIT_KEY {… dataSize=%d …}` (om2 %s, om3 %s, same Transaction)."
            % (b.out.locf(a, "user= | ip=", k), m["L_AUTO"], b.out.locf("om2/om-audit-om2-*.log.gz", "user= | ip=", k),
               b.out.locf("om3/om-audit-om3-*.log.gz", "user= | ip=", k)),
            "5. %s the writer's close: COMMIT_KEY `ret=FAILURE` by the same user and ip as step 1, `KEY_NOT_FOUND … Failed to "
            "commit key, as /…/%s/%d entry is not found in the OpenKey table`, dataSize %d > %d. The clientID in the path "
            "decodes (`>> 16`) to 2026-05-04 11:23:07.403, the time of step 1. (om2 %s, om3 %s)"
            % (b.out.locf("om1/om-audit-om1*.log*", "ret=FAILURE", k), k.split("/")[-1], m["cid"], m["L_CLOSE"], m["L_AUTO"],
               b.out.locf("om2/om-audit-om2*.log*", "ret=FAILURE", k), b.out.locf("om3/om-audit-om3*.log*", "ret=FAILURE", k)),
            "6. %s (om2 %s, om3 %s) OM ERROR `Key committed failed. Volume:ledgers, Bucket:journal, Key:%s. Exception:{}` "
            "with the KEY_NOT_FOUND stack trace." % (b.out.loc("om1/ozone-hadoop-om-om1.log", "Key committed failed"),
                                                     b.out.loc("om2/ozone-hadoop-om-om2.log", "Key committed failed"),
                                                     b.out.loc("om3/ozone-hadoop-om-om3.log", "Key committed failed"), k),
        ],
        notes=[
            FIRST_BLOCK_NOTE,
            "- The FSO path in the exception is `/<volumeObjectId>/<bucketObjectId>/<parentObjectId>/%s/<clientID>` with "
            "objectIds `(2<<62)|(txId<<8)` of the creating transactions 1207, 1311 and 3902554 (before the bundle)." % k.split("/")[-1],
        ])


def docs_first_block_allocate_2_1(b, m):
    k = m["key"]
    a = "om-audit-om1.example.com-*.log.gz"
    write_docs(
        b, [finding(RULE, "key:/logs/archive/" + k, "confirmed")],
        "2.1.0 (JSON audit params; 2.1.0 still rotates OMAudit as `-%d{yyyy-MM-dd-HH-mm-ss}-%i.log.gz` every 86400 s, the daily `-%d{yyyy-MM-dd}-%i` pattern came with 2.2.0)",
        "Flat bundle (every file in one folder, hosts only in the file names `om1.example.com` …), shipped file layout "
        "`%d{ISO8601} [%t] %p %c: %m%n`. om2 is the leader throughout (its OpenKeyCleanupService runs keep the phase of "
        "its start, 22:08).",
        [
            "| `op=OPEN_KEY_CLEANUP {\"numOpenKeysDeleted\":\"1\",\"openKeysDeleted\":\"[{volume=…, bucket=…, key=…}]\"}`, `op=STARTUP`, `op=LEADER_CHANGE` with `user=null \\| ip=` | om.md 1.4 | `OMOpenKeysDeleteRequest`, `OzoneManager.start`, `OzoneManagerStateMachine.notifyLeaderChanged` (OMSystemAudit) | 2.1.0+ |",
            "| `Allocate Block failed. Volume:{}, Bucket:{}, OpenKey:{}. Exception:{}` (4th `{}` literal, stack trace follows; every OM) | om.md 2.4 | `OMAllocateBlockRequestWithFSO` ERROR, line 181: in 2.0.0 and 2.1.0 the FSO subclass has its own `validateAndUpdateCache` and logger (2.2.0 moved it to the base class) | 2.1.0 |",
            "| `Open Key not found <dbOpenFileKey>` (KEY_NOT_FOUND) | om.md 2.4 | `OMAllocateBlockRequestWithFSO` line 124 | 2.1.0 |",
        ],
        """
A log shipper (`svc-shipper`) archives the audit stream of three edge gateways into
`ofs://omservice/logs/archive/edge/<gw>/audit-<n>.log`, one hsync'ed segment per gateway, rolled at 1 GB.
gw-3 (10.20.6.14) sends about 320 bytes/s: its segment `%s`, opened on 2026-10-21 at 09:12:55, stays in its
first block for nine days. Its first hsync stored length %d at OM; nothing else reaches OM. On 2026-10-28 at
22:08, the first run of the leader's OpenKeyCleanupService more than 7 days later, om2 auto-commits the file
at %d bytes. The shipper does not notice (its hsync calls go to the datanodes). On 2026-10-30 at 05:40 the
segment reaches the end of its first block: the writer asks for block 2 and ALLOCATE_BLOCK fails
KEY_NOT_FOUND `Open Key not found /…/%d` with dataSize %d (the offset of its last hsync), on every OM,
with the OM ERROR. The shipper opens `audit-000072.log` and resends from its checkpoint.

Look-alike in the same bundle: gw-1 (10.20.6.12) sends about 1.3 KB/s and allocates a new block every ~2.4
days, which renews its lease; it is never auto-committed. Other users' traffic, an OBS open-key deletion
(OMSystemAudit OPEN_KEY_CLEANUP) and a failed DELETE_KEY.
""" % (k, m["L_AUTO"], m["L_AUTO"], m["cid"], m["D_FAIL"]),
        [
            "1. %s CREATE_FILE by `svc-shipper`/10.20.6.14 on 2026-10-21 09:12:55 (om2 %s, om3 %s)."
            % (b.out.locf(a, "CREATE_FILE", k), b.out.locf("om-audit-om2.example.com-*.log.gz", "CREATE_FILE", k),
               b.out.locf("om-audit-om3.example.com-*.log.gz", "CREATE_FILE", k)),
            "2. %s leader om2, FSO task: `submitted for deletion: 0, for commit: 1` on 2026-10-28 22:08 (7d12h55m after step 1)."
            % b.out.loc("ozone-hadoop-om-om2.example.com.log", "for commit: 1"),
            "3. %s the auto-commit `user= | ip= | op=COMMIT_KEY {…\"dataSize\":\"%d\"…}` (om2 %s, om3 %s, same Transaction)."
            % (b.out.locf(a, "user= | ip=", k), m["L_AUTO"], b.out.locf("om-audit-om2.example.com-*.log.gz", "user= | ip=", k),
               b.out.locf("om-audit-om3.example.com-*.log.gz", "user= | ip=", k)),
            "4. %s the writer's ALLOCATE_BLOCK `ret=FAILURE` by the same user and ip as step 1, `\"clientID\":\"%d\"` "
            "(`>> 16` = 2026-10-21 09:12:55.289, step 1), dataSize %d > %d, `KEY_NOT_FOUND … Open Key not found /…/%s/%d`."
            " (om2 %s, om3 %s)" % (b.out.locf("om-audit-om1.example.com*.log*", "ret=FAILURE", k), m["cid"], m["D_FAIL"], m["L_AUTO"],
                                   k.split("/")[-1], m["cid"], b.out.locf("om-audit-om2.example.com*.log*", "ret=FAILURE", k),
                                   b.out.locf("om-audit-om3.example.com*.log*", "ret=FAILURE", k)),
            "5. %s (om2 %s, om3 %s) OM ERROR `Allocate Block failed. Volume:logs, Bucket:archive, OpenKey:/…/%d. Exception:{}` "
            "with the KEY_NOT_FOUND stack trace." % (b.out.loc("ozone-hadoop-om-om1.example.com.log", "Allocate Block failed"),
                                                     b.out.loc("ozone-hadoop-om-om2.example.com.log", "Allocate Block failed"),
                                                     b.out.loc("ozone-hadoop-om-om3.example.com.log", "Allocate Block failed"), m["cid"]),
        ],
        notes=[
            FIRST_BLOCK_NOTE,
            "- OM clocks: om2 about +83 ms and om3 about -47 ms from om1; the leader (om2) applies first.",
        ])


def docs_first_block_controls_2_2(b, m):
    r = "om1/om-audit-om1-*.log.gz"
    write_docs(
        b, [], "2.2.0 (JSON audit params, daily audit rotation `-%d{yyyy-MM-dd}-%i.log.gz`, ten days)",
        om_layout(b) + ", one folder per OM host. Leader om1.",
        [
            "| `op=RECOVER_LEASE {volume, bucket, key, Transaction}` SUCCESS | om.md 1.5, 2.6 | `OMRecoverLeaseRequest` | 2.2.0 |",
            "| `Key committed failed. Volume:{}, Bucket:{}, Key:{}. Exception:{}` + stack trace, `Failed to commit key, as <dbOpenFileKey> entry is not found in the OpenKey table` | om.md 2.3 | `OMKeyCommitRequest` ERROR line 501, `OMKeyCommitRequestWithFSO` line 181 | 2.2.0 |",
            "| `op=STARTUP`, `op=LEADER_CHANGE` (OMSystemAudit of the last OM start) | om.md 1.4 | `OzoneManager`, `OzoneManagerStateMachine` | 2.1.0+ |",
        ],
        """
The ledger service of the first-block bug bundles, on a 2.2.0 cluster with the default lease settings.
Three segments never leave their first block, and none of them is the bug:
- ledger-1 (10.20.5.31) keeps `%s` open for 6 days 21 hours and closes it itself (COMMIT_KEY SUCCESS),
  before the 7-day hard limit; it opens the next segment.
- ledger-3 (10.20.5.33) is cut off by a network partition on 2026-12-05. The ledger auditor (`svc-ledger`
  at 10.20.5.40) fences its segment `%s`: RECOVER_LEASE SUCCESS, then the recovery COMMIT_KEY at %d (the
  length on the datanodes). When the partition heals, ledger-3 closes the segment and gets KEY_NOT_FOUND
  at dataSize %d, with the OM ERROR on every OM. No auto-commit is involved: lease recovery is the designed
  fencing path and it loses nothing that was acknowledged.
- ledger-2 (10.20.5.32) opens `%s` on 2026-12-01 and its host dies that night. On 2026-12-09 at 06:12, the
  first cleanup run more than 7 days after its first hsync, the leader auto-commits the file at %d bytes.
  Nothing of the writer follows (the re-provisioned node opens a new segment, another key): a dead writer,
  which is what the hard limit is for.
""" % (m["k1"], m["k2"], m["L_R"], m["L_F2"], m["k3"], m["L_AUTO3"]),
        [
            "1. %s CREATE_FILE of ledger-1's segment; %s its COMMIT_KEY SUCCESS by the writer 6d21h later."
            % (b.out.locf(r, "CREATE_FILE", m["k1"]), b.out.locf(r, "COMMIT_KEY", m["k1"])),
            "2. %s CREATE_FILE of ledger-3's segment; %s RECOVER_LEASE SUCCESS by 10.20.5.40; %s the recovery COMMIT_KEY "
            "(user and ip of the recoverer); %s ledger-3's COMMIT_KEY FAILURE KEY_NOT_FOUND (clientID %d = its own session); "
            "%s OM ERROR." % (b.out.locf(r, "CREATE_FILE", m["k2"]), b.out.locf(r, "RECOVER_LEASE", m["k2"]),
                              b.out.locf(r, "COMMIT_KEY", m["k2"], "10.20.5.40"), b.out.locf(r, "ret=FAILURE", m["k2"]),
                              m["cid2"], b.out.loc("om1/ozone-hadoop-om-om1.log", "Key committed failed")),
            "3. %s CREATE_FILE of ledger-2's segment; %s leader `for commit: 1`; %s the auto-commit (`user= | ip=`), "
            "dataSize %d. No later line of that key." % (
                b.out.locf(r, "CREATE_FILE", m["k3"]), b.out.loc("om1/ozone-hadoop-om-om1.log", "for commit: 1"),
                b.out.locf("om1/om-audit-om1*.log*", "user= | ip=", m["k3"]), m["L_AUTO3"]),
        ],
        benign=[
            "- ledger-1: the writer closes its own file before the hard limit; OM never auto-commits it. A rule that flags "
            "hsync writers that never leave their first block for days would fire here.",
            "- ledger-3: the writer fails KEY_NOT_FOUND after a commit it did not make, at a dataSize above the committed one, "
            "which is what the bug looks like at close. But the commit came from an explicit RECOVER_LEASE (a user and ip, "
            "preceded by RECOVER_LEASE SUCCESS), not from OpenKeyCleanupService: the designed fencing path (om.md 3.7 C).",
            "- ledger-2: auto-committed at the hard limit, but nothing shows its writer alive afterwards and no offset above "
            "the committed length was ever acknowledged to OM: a dead writer (om.md 3.7 A).",
        ],
        notes=[FIRST_BLOCK_NOTE])


def docs_other_session_2_0(b, m):
    k = m["key"]
    r = "om1/om-audit-om1-*.log.gz"
    write_docs(
        b, [], "2.0.0 (`{k=v, ...}` audit params; OMAudit rotation `-%d{yyyy-MM-dd-HH-mm-ss}-%i.log.gz`, eleven days)",
        om_layout(b) + ", one folder per OM host. Leader om1.",
        [
            "| `Key committed failed. Volume:{}, Bucket:{}, Key:{}. Exception:{}` + stack trace, `Failed to commit key, as <dbOpenFileKey> entry is not found in the OpenKey table` | om.md 2.3 | `OMKeyCommitRequest` ERROR line 479, `OMKeyCommitRequestWithFSO` line 179 | 2.0.0 |",
            "| `op=STARTUP {NewOmState=RUNNING, OmState=INITIALIZED}` (OMSystemAudit, last OM start) | om.md 5 | `OzoneManager.start` | 2.0.0 |",
        ],
        """
An ingest agent (`svc-ingest` on ingest3, 10.20.4.27) appends sensor records to `%s`. On 2026-03-09 at
16:20 it opens the stream (session B, clientID %d) and, before its first hsync, hangs on a dead NFS spool.
At 16:52 its watchdog starts a second agent process on the same host, which opens the same file again
(session A, clientID %d): OM allows it, B's open key was never hsync'ed. A hsyncs once (length %d, no
audit line) and is killed on 2026-03-10 when the agent moves to ingest4 (which writes a file of its own).
On 2026-03-17 at 01:02 the leader's cleanup run handles both open keys in one FSO task (`submitted for
deletion: 1, for commit: 1`): B's, not hsync'ed and created more than `ozone.om.open.key.expire.threshold`
(7d) ago, is deleted (no audit line in 2.0.0); A's, hsync'ed and idle past the hard limit, is auto-committed
at %d bytes. On 2026-03-18 the spool is remounted, B wakes up, flushes what it buffered and closes: COMMIT_KEY
FAILURE KEY_NOT_FOUND at dataSize %d, by the same user and ip as A's CREATE_FILE, with the OM ERROR.
""" % (k, m["cid_b"], m["cid_a"], m["L_AUTO"], m["L_AUTO"], m["L_B"]),
        [
            "1. %s CREATE_FILE at 16:20:11 (session B) and %s CREATE_FILE at 16:52:30 (session A), both `svc-ingest`/10.20.4.27."
            % (b.out.locf(r, "CREATE_FILE", k), b.out.locf(r, "CREATE_FILE", k, nth=2)),
            "2. %s leader `submitted for deletion: 1, for commit: 1`; %s A's auto-commit (`user= | ip=`, dataSize %d)."
            % (b.out.loc("om1/ozone-hadoop-om-om1.log", "for commit: 1"), b.out.locf(r, "user= | ip=", k), m["L_AUTO"]),
            "3. %s COMMIT_KEY FAILURE KEY_NOT_FOUND at dataSize %d, `…/%s/%d entry is not found in the OpenKey table`; "
            "%s OM ERROR." % (b.out.locf("om1/om-audit-om1*.log*", "ret=FAILURE", k), m["L_B"], k.split("/")[-1], m["cid_b"],
                              b.out.loc("om1/ozone-hadoop-om-om1.log", "Key committed failed")),
        ],
        benign=[
            "- The failing request is not the auto-committed session's writer: the clientID in its path, %d, decodes (`>> 16`) "
            "to 2026-03-09 16:20:11.840, session B's CREATE_FILE, not 16:52:30 (session A, the one OM auto-committed). Its "
            "open key was deleted by the non-hsync expiry, not committed under it." % m["cid_b"],
            "- Key, user and ip all match A's CREATE_FILE, and the dataSize is far above the auto-committed one: a rule that "
            "ties the failure by key and user/ip alone reports `confirmed` here.",
            "- Session A is a dead writer: nothing of it follows the auto-commit, and OM never saw an offset above %d." % m["L_AUTO"],
        ],
        notes=[
            FIRST_BLOCK_NOTE,
            "- `ozone.om.open.key.expire.threshold` (7d, `OMConfigKeys`) deletes open keys that were never hsync'ed by their "
            "creation time; hsync'ed ones are auto-committed by their modification time against the hard limit (om.md 2.2).",
        ])


def main():
    info = {}
    for fn, doc in ((bundle_writer_fails, docs_writer_fails), (bundle_allocate_above, docs_allocate_above),
                    (bundle_dead_writer, docs_dead_writer), (bundle_live_writer, docs_live_writer),
                    (bundle_recover_lease, docs_recover_lease),
                    (bundle_first_block_2_0, docs_first_block_2_0),
                    (bundle_first_block_allocate_2_1, docs_first_block_allocate_2_1),
                    (bundle_first_block_controls_2_2, docs_first_block_controls_2_2),
                    (bundle_other_session_2_0, docs_other_session_2_0)):
        b, meta = fn()
        doc(b, meta)
        info[b.slug] = (b, meta)
        print(b.slug, {k: v for k, v in meta.items() if k != "ticks"})
    return info


if __name__ == "__main__":
    main()
