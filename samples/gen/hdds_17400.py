#!/usr/bin/env python3
"""Sample bundles for rule `resurrected-container` (HDDS-17400, SCM).

Deterministic (fixed seeds; layouts and files through ozlog): `python3 samples/gen/hdds_17400.py` rewrites

  samples/HDDS-17400-bug-stale-open-replica/
  samples/HDDS-17400-bug-closed-wording-2-1/
  samples/HDDS-17400-control-stale-closed-replica-force-deleted/
  samples/HDDS-17400-control-newer-data-force-deleted/
  samples/HDDS-17400-control-empty-quasi-closed-resurrected/

Every log message below is built from a format string of /work/shared/ozone-logs/scm.md or
datanode.md (section given next to the template).  Where the catalogue gives no exact string the
bundle leaves the line out; the few exceptions (thread names not in the catalogue, stack frames)
are listed in each SOURCE.md under "Not from the catalogue".
"""
import random

from ozlog import loggers as L
from ozlog.bundle import (BundleDir, Records, audit_rollover, compose_entries, compose_v1_prefixes, daemon_log, entries,
                          finding, main_log, rfa_backup, site_xml)
from ozlog.log4j import (JDK17_POOL_TAIL, audit_lines, audit_msg, container_log_line, epoch_ms, frames, ms,
                         parse_time as T, sec)
from ozlog.ozone import (RM_RUNNING, SBDS_RUNNING, affinity_executor, blocks_added, close_command, connect_refused,
                         container_info, container_log_msg, ctx_leader, ctx_ready, datanode_details, dead_node,
                         delete_command, endpoint_thread, healthy_node, host_and_port, leader_change,
                         leader_notification, member_id, not_finalized, queue_cleared, random_uuid, ratis_group,
                         replica_details, replicate_command, rm_pass, rm_sending, role_change, scm_becomes_leader,
                         scm_leader_changed, scm_steps_down, stale_node, to_candidate, unable_to_communicate as unable)

RULE = "resurrected-container"

# ----------------------------------------------------------------------------------------------
# identities
# ----------------------------------------------------------------------------------------------
class DN:
    def __init__(self, name, uid, host, ip, disk):
        self.name, self.uuid, self.host, self.ip, self.disk = name, uid, host, ip, disk

    def __str__(self):
        return datanode_details(self.uuid, self.host, self.ip)


class SCM:
    def __init__(self, name, scm_id, host, ip):
        self.name, self.id, self.host, self.ip = name, scm_id, host, ip


# ----------------------------------------------------------------------------------------------
# a cluster: records per host, rendered per layout
# ----------------------------------------------------------------------------------------------
class Cluster:
    def __init__(self, seed, scms, dns, cluster_id, leader, term):
        self.rng = random.Random(seed)
        self.scms = scms
        self.dns = dns
        self.cluster_id = cluster_id
        self.group = ratis_group(cluster_id)
        self.leader = leader  # node id of the leader SCM
        self.term = term
        self.skew = {h: self.rng.randint(-180, 180) for h in [s.name for s in scms] + [d.name for d in dns]}
        self.rec = Records(self.skew)
        self.seq = 0
        self.cmd = 118840100 + self.rng.randint(0, 999)
        self.marks = {}

    # --- records --------------------------------------------------------------------------
    def log(self, host, t, level, thread, logger, msg, extra=None, mark=None):
        self.rec.add("main", host, t, (thread, level, logger, msg, extra or []), mark)

    def aud(self, host, t, user, ip, op, params, mark=None):
        self.rec.add("audit", host, t, audit_msg(user, ip, op, params, "SUCCESS"), mark)

    def cont(self, dn, t, level, cid, bcsid, state, suffix=None, mark=None):
        # ContainerLogger.getMessage (datanode.md 1.3)
        d = self.dn(dn)
        self.rec.add("dnc", dn, t, (level, container_log_msg(cid, bcsid, state, "/data/disk%d/hdds" % d.disk, suffix)), mark)

    def dn(self, name):
        return next(d for d in self.dns if d.name == name)

    def scm(self, name):
        return next(s for s in self.scms if s.name == name)

    def next_cmd(self):
        self.cmd += self.rng.randint(3, 40)
        return self.cmd

    def fp(self, scm, dn):
        """FixedThreadPoolWithAffinityExecutor thread; a DN maps to a fixed executor index."""
        return affinity_executor(scm, self.dns.index(self.dn(dn)) % 4)

    def followers(self):
        return [s.name for s in self.scms if s.name != self.leader]

    def member(self, scm):
        return member_id(self.scm(scm).id, self.group)

    def details(self, cid, cstate, sid, rstate, bcsid, dn, empty=False):
        """<D> of a replica reported by datanode `dn` (its origin)."""
        d = self.dn(dn)
        return replica_details(cid, cstate, sid, rstate, bcsid, d.uuid, d, empty)

    # --- output -------------------------------------------------------------------------
    def main_entries(self, host, layout, t0=None, t1=None):
        return entries(self.rec.get("main", host, t0, t1), main_log(layout))

    def audit_entries(self, host):
        return entries(self.rec.get("audit", host), lambda t, msg: audit_lines(t, "INFO", "SCMAudit", msg))

    def dnc_entries(self, host):
        return entries(self.rec.get("dnc", host), lambda t, p: [container_log_line(t, p[0], p[1])])

    def write_logs(self, b, layout, cut, scm_log, dn_log, per_host=True, fqdn=False, backup=rfa_backup, gz=False):
        """Every host's logs and conf/ozone-site.xml. scm_log / dn_log: file name patterns of the main
        logs (%s: the host); an SCM main log rolls at `cut` into backup(live log, 1). per_host: one
        folder per host, else flat; fqdn: file names carry the host name, else the node name."""
        def rel(node, pattern):
            return ("%s/" % node.name if per_host else "") + pattern % (node.host if fqdn else node.name)
        for s in self.scms:
            live = rel(s, scm_log)
            b.write(backup(live, 1), self.main_entries(s.name, layout, None, cut), gz=gz)
            b.write(live, self.main_entries(s.name, layout, cut, None))
            b.write(rel(s, "scm-audit-%s.log"), self.audit_entries(s.name))
        for d in self.dns:
            b.write(rel(d, dn_log), self.main_entries(d.name, layout))
            b.write(rel(d, "dn-container-%s.log"), self.dnc_entries(d.name))
        b.text("conf/ozone-site.xml", ozone_site(self.scms, AUDIT_DEBUG))


# ----------------------------------------------------------------------------------------------
# building blocks (each is a catalogued statement; section in the comment)
# ----------------------------------------------------------------------------------------------
def scm_failover(c, t, old, new, new_term, election_no):
    """scm.md 2.1 + 4.3 excerpt: old leader steps down, new one wins the election."""
    m_old, m_new = c.member(old), c.member(new)
    th = m_old + "-LeaderStateImpl"
    c.log(old, t, "INFO", th, L.RAFT_DIVISION, role_change(m_old, "LEADER", "FOLLOWER", new_term - 1, "StepDownReason:JVM_PAUSE"))
    c.log(old, t + ms(1), "INFO", th, L.SCM_STATE_MACHINE, scm_steps_down(c.scm(old).id))
    c.log(old, t + ms(1), "INFO", th, L.SCM_CONTEXT, ctx_leader(True, new_term - 1, False, 0))
    c.log(old, t + ms(1), "INFO", th, L.SCM_CONTEXT, ctx_ready(True, False))
    t2 = t + ms(5120)
    c.log(new, t2, "INFO", m_new + "-FollowerState", L.FOLLOWER_STATE, to_candidate(m_new + "-FollowerState", 5236, 5119))
    c.log(new, t2, "INFO", m_new + "-FollowerState", L.RAFT_DIVISION, role_change(m_new, "FOLLOWER", "CANDIDATE", new_term - 1, "changeToCandidate"))
    el = "%s-LeaderElection%d" % (m_new, election_no)
    t3 = t2 + ms(61)
    c.log(new, t3, "INFO", el, L.RAFT_DIVISION, role_change(m_new, "CANDIDATE", "LEADER", new_term, "changeToLeader"))
    c.log(new, t3 + ms(2), "INFO", el, L.SCM_STATE_MACHINE, scm_becomes_leader(c.scm(new).id, new_term))
    c.log(new, t3 + ms(2), "INFO", el, L.SCM_CONTEXT, ctx_leader(False, 0, True, new_term))
    smu = m_new + "-StateMachineUpdater"
    c.log(new, t3 + ms(131), "INFO", smu, L.SCM_CONTEXT, ctx_ready(False, True))
    c.log(new, t3 + ms(133), "INFO", smu, L.REPLICATION_MANAGER, RM_RUNNING)
    c.log(new, t3 + ms(134), "INFO", smu, L.BLOCK_DELETING_SERVICE, SBDS_RUNNING)
    for i, s in enumerate(x.name for x in c.scms if x.name != new):
        m = c.member(s)
        th = "%s-server-thread%d" % (c.scm(s).id, 2 + i)
        tt = t3 + ms(40 + 9 * i)
        c.log(s, tt, "INFO", th, L.RAFT_DIVISION, leader_change(m, "null", c.scm(new).id, new_term, "APPEND_ENTRIES", 5201 + 17 * i))
        c.log(s, tt + ms(1), "INFO", th, L.SCM_STATE_MACHINE, scm_leader_changed(c.scm(new).id, c.scm(s).id))


def rm_passes(c, t0, t1, every=300, ncont=1800, busy=None):
    """ReplicationManager pass summary on the leader (scm.md 2.5). busy: {time: [callback]}"""
    t = t0
    while t < t1:
        c.log(c.leader, t + ms(c.rng.randint(40, 260)), "INFO", c.leader + "-ReplicationMonitor", L.REPLICATION_MANAGER,
              rm_pass(c.rng.randint(31, 140), ncont + c.rng.randint(0, 12)))
        t += sec(every)


def rm_command(c, t, command, info, target, thread="ReplicationMonitor", mark=None):
    """The leader's ReplicationManager sends a command (scm.md 2.5); deadlines +10 min / +20 min in
    the leader's clock (see SOURCE.md)."""
    e = epoch_ms(lt(c, t))
    c.log(c.leader, t, "INFO", "%s-%s" % (c.leader, thread), L.REPLICATION_MANAGER,
          rm_sending(command, info, target, e + 600000, e + 1200000), mark=mark)


def lt(c, t):
    """a time as the leader's clock prints it"""
    return t + ms(c.skew[c.leader])


def on_every_scm(c, t, jitter, dn, logger, msg, mark=None):
    """A line every SCM prints when it handles a report of datanode `dn`, each up to `jitter` ms
    after t; the leader's is marked."""
    for s in c.scms:
        c.log(s.name, t + ms(c.rng.randint(0, jitter)), "INFO", c.fp(s.name, dn), logger, msg,
              mark=mark if s.name == c.leader else None)


def follower_cannot_close(c, dn, t, cid):
    """CloseContainerCommandHandler on a Ratis follower of the container's pipeline (datanode.md 2.6)."""
    c.log(dn, t, "INFO", c.dn(dn).uuid + "-CommandProcessorThread", L.CLOSE_CONTAINER_HANDLER,
          "Follower cannot close container #%d." % cid)


def close_replicas(c, cid, bcsid, members, t_closing, closing_step, t_closed, closed_step, mark=None):
    """dn-container CLOSING, then CLOSED, on each member (datanode.md 1.3)."""
    for i, m in enumerate(members):
        c.cont(m, t_closing + ms(closing_step * i), "INFO", cid, bcsid, "CLOSING")
        c.cont(m, t_closed + ms(closed_step * i), "INFO", cid, bcsid, "CLOSED", mark=mark and mark + "_dnclosed_" + m)


def quasi_close_replica(c, dn, t, after_ms, cid, bcsid, group, mark=None):
    """CLOSING, then QUASI_CLOSED when the container's Ratis group is removed (datanode.md 1.3)."""
    c.cont(dn, t, "INFO", cid, bcsid, "CLOSING")
    c.cont(dn, t + ms(after_ms), "WARN", cid, bcsid, "QUASI_CLOSED", "Ratis group removed. Group id: " + group, mark=mark)


def normal_close(c, t, cid, members, sid, mark=None):
    """DN-initiated close of a full container: DN CLOSING/CLOSED (datanode.md 1.3), SCM
    FINALIZE on the first CLOSING ICR and CLOSE on the first CLOSED ICR, on every SCM (scm.md 2.3)."""
    first = members[0]
    for i, m in enumerate(members):
        c.cont(m, t + ms(7 * i), "INFO", cid, sid, "CLOSING")
    on_every_scm(c, t + ms(60), 30, first, L.ICR_HANDLER,
                 "FINALIZE (i.e. CLOSING) " + c.details(cid, "OPEN", sid, "CLOSING", sid, first))
    # SCM's close command reaches the followers of the pipeline: only the Ratis leader (members[0]) closes
    for i, m in enumerate(members[1:]):
        follower_cannot_close(c, m, t + ms(650 + 40 * i + c.rng.randint(0, 200)), cid)
    tc = t + ms(1400 + c.rng.randint(0, 900))
    for i, m in enumerate(members):
        c.cont(m, tc + ms(11 * i), "INFO", cid, sid, "CLOSED")
    on_every_scm(c, tc + ms(70), 30, first, L.ICR_HANDLER, "CLOSE " + c.details(cid, "CLOSING", sid, "CLOSED", sid, first),
                 mark=mark)


def admin_close(c, t, ip, cid, members, bcsid, t_closing, closing_step, t_closed, closed_step, t_report):
    """`ozone admin container close` on the leader (audit), the replicas close, every SCM logs the
    first CLOSED report (of members[0])."""
    c.aud(c.leader, t, "hadoop", ip, "CLOSE_CONTAINER", '{"remoteUser":"hadoop","containerID":"%d"}' % cid)
    close_replicas(c, cid, bcsid, members, t_closing, closing_step, t_closed, closed_step)
    on_every_scm(c, t_report, 40, members[0], L.ICR_HANDLER,
                 "CLOSE " + c.details(cid, "CLOSING", bcsid, "CLOSED", bcsid, members[0]))


def delete_empty(c, t, cid, state, entered, pipeline, replicas, t_dn, step, mark):
    """ReplicationManager deletes an empty container: a delete command per replica (datanode,
    bcsid), then each datanode logs the deletion; entered: when the container entered `state`."""
    for i, (m, bcsid) in enumerate(replicas):
        rm_command(c, t + ms(i), delete_command(c.next_cmd(), cid), container_info(cid, state, lt(c, entered), pipeline),
                   c.dn(m), mark=mark + "_delete_" + m)
        c.cont(m, t_dn + ms(step * i), "INFO", cid, bcsid, state, "Empty container deleted", mark=mark + "_dndeleted_" + m)


def empty_quasi_closed_deleted(c, t_blocks, blocks, t, cid, sid, replicas, entered, pipeline, t_dn, step, mark):
    """The last blocks of a QUASI_CLOSED container go on its replicas (datanode, bcsid); then
    EmptyContainerHandler deletes the empty container (scm.md 2.5), announcing its resurrection rule."""
    origins = [m for m, _ in replicas]
    block_deletion(c, t_blocks, [(cid, origins, blocks)])
    c.log(c.leader, t, "INFO", c.leader + "-ReplicationMonitor", L.EMPTY_CONTAINER_HANDLER,
          "Deleting empty QUASI_CLOSED container #%d (container BCSID=%d, max replica BCSID=%d) with %d replicas from "
          "originIds: [%s]. If resurrected, container will transition to QUASI_CLOSED"
          % (cid, sid, sid, len(origins), ", ".join(c.dn(o).uuid for o in origins)), mark=mark + "_deleting")
    delete_empty(c, t + ms(1), cid, "QUASI_CLOSED", entered, pipeline, replicas, t_dn, step, mark)


def dn_returns(c, dn, t_start, t_register, t_back, user, mark):
    """A datanode back after a crash: its start-up lines, REGISTER on every SCM (audit), HEALTHY
    READONLY, then HEALTHY."""
    dn_start(c, dn, t_start)
    for s in c.scms:
        c.aud(s.name, t_register + ms(c.rng.randint(0, 30)), user, c.dn(dn).ip, "REGISTER",
              '{"datanodeDetails":"%s"}' % c.dn(dn), mark=mark + "_register" if s.name == c.leader else None)
    node_back(c, t_back, dn, mark=mark + "_back")


def resurrect(c, t, dn, cid, sid, rstate, bcsid, key_count, mark):
    """The FCR handler moves a DELETED container back to QUASI_CLOSED for a non-empty replica of `dn`
    (scm.md 2.3, 5.1-5.3): every SCM prints it; the followers then fail to submit the transition."""
    d = c.details(cid, "DELETED", sid, rstate, bcsid, dn)
    res = ("Resurrecting container #%d from DELETED to QUASI_CLOSED due to non-empty %s replica (keyCount=%d, BCSID=%d) "
           "from %s" % (cid, rstate, key_count, bcsid, d))
    c.log(c.leader, t, "INFO", c.fp(c.leader, dn), L.FCR_HANDLER, res, mark=mark + "_res")
    for f in c.followers():
        tf = t + ms(c.rng.randint(5, 25))
        c.log(f, tf, "INFO", c.fp(f, dn), L.FCR_HANDLER, res, mark=mark + "_res_follower_" + f)
        c.log(f, tf + ms(3), "ERROR", c.fp(f, dn), L.FCR_HANDLER, "Failed to process " + d, extra=fcr_failed_stack(c, f),
              mark=mark + "_failed_" + f)


def delete_deleted(c, t, dn, replicas, mark):
    """The FCR handler on replicas of DELETED containers (scm.md 2.3, 5.4): the leader sends a delete
    command for each, `force` for a non-empty one; the followers skip. replicas: (<D>, force)."""
    for i, (d, force) in enumerate(replicas):
        c.log(c.leader, t + ms(2 * i), "INFO", c.fp(c.leader, dn), L.FCR_HANDLER,
              "Sending %sDeleteContainerCommand due to DELETED for %s" % ("force" if force else "", d),
              mark=mark + ("_force" if force else "_delempty"))
    for f in c.followers():
        tf = t + ms(c.rng.randint(4, 30))
        for i, (d, _) in enumerate(replicas):
            c.log(f, tf + ms(2 * i), "WARN", c.fp(f, dn), L.FCR_HANDLER,
                  "Skip sending DeleteContainerCommand for " + d + ": " + not_leader(c, f), mark=mark + "_skip_" + f if i == 0 else None)


def replicate(c, t, cid, state, info, source, bcsid, targets, t_export, t_import, step, mark):
    """The under-replication handler copies a container from `source` to each target (scm.md 2.5,
    datanode.md 1.3)."""
    for i, tgt in enumerate(targets):
        rm_command(c, t + ms(2 * i), replicate_command(c.next_cmd(), cid, c.dn(tgt)), info, c.dn(source),
                   thread="UnderReplicatedProcessor", mark=mark + "_repl_" + tgt)
        c.cont(source, t_export + ms(step * i), "INFO", cid, bcsid, state, "Container exported")
        c.cont(tgt, t_import + ms(step * i), "INFO", cid, bcsid, state, "Container imported", mark=mark + "_imported_" + tgt)


def open_container(c, t, cid, members):
    for i, m in enumerate(members):
        c.cont(m, t + ms(4 * i), "INFO", cid, 0, "OPEN")


def block_file(c, dn, cid, local_id):
    d = c.dn(dn)
    return "/data/disk%d/hdds/CID-%s/current/containerDir0/%d/chunks/%d.block" % (d.disk, c.cluster_id, cid, local_id)


DN_BLOCK_DELETING = "BlockDeletingService#0"  # the datanode's BackgroundService thread (a guess, see SOURCE.md)


def local_ids(base, step, n):
    """n block localIDs: base + step * k for k = 1..n."""
    return [base + step * k for k in range(1, n + 1)]


def block_deletion(c, t, per_container):
    """Leader aggregate line (scm.md 2.6), DN 'Deleted block file' (datanode.md 2.5),
    follower 'Skip commit transactions' when the DNs report the delete status (scm.md 2.6).
    per_container: (container, datanodes, localIDs)."""
    nblocks = sum(len(ids) for _, _, ids in per_container)
    dns = sorted({d for _, members, _ in per_container for d in members})
    c.log(c.leader, t, "INFO", c.leader + "-SCMBlockDeletingService#0", L.BLOCK_DELETING_SERVICE,
          blocks_added(nblocks, len(dns), len(c.dns), c.rng.randint(3, 21)))
    for cid, members, ids in per_container:
        for m in members:
            tt = t + ms(30500 + c.rng.randint(0, 2500))
            for lid in ids:
                c.log(m, tt, "INFO", DN_BLOCK_DELETING, L.FILE_PER_BLOCK, "Deleted block file: %s" % block_file(c, m, cid, lid))
                tt += ms(c.rng.randint(1, 6))
    for f in c.followers():
        for k in range(min(2, len(dns))):
            c.log(f, t + ms(61000 + 900 * k), "INFO", "%s-EventQueue-DeleteBlockStatusForDeletedBlockLogImpl" % f, L.DELETED_BLOCK_LOG,
                  "Skip commit transactions since current SCM is not leader.")


def node_stale(c, t, dn, pipelines, mark=None):
    for s in c.scms:
        th = s.name + "-EventQueue-StaleNodeForStaleNodeHandler"
        tt = t + ms(c.rng.randint(0, 900))
        c.log(s.name, tt, "INFO", th, L.STALE_NODE_HANDLER, stale_node(c.dn(dn), ["Pipeline-" + p for p in pipelines]),
              mark=mark if s.name == c.leader else None)
        if s.name != c.leader:
            for p in pipelines:
                c.log(s.name, tt + ms(3), "INFO", th, L.STALE_NODE_HANDLER, not_finalized("Pipeline-" + p, c.dn(dn)))


def node_dead(c, t, dn, mark=None):
    for s in c.scms:
        th = s.name + "-EventQueue-DeadNodeForDeadNodeHandler"
        tt = t + ms(c.rng.randint(0, 900))
        c.log(s.name, tt, "INFO", th, L.DEAD_NODE_HANDLER, dead_node(c.dn(dn)), mark=mark if s.name == c.leader else None)
        c.log(s.name, tt + ms(c.rng.randint(60, 140)), "INFO", th, L.DEAD_NODE_HANDLER, queue_cleared(c.dn(dn)))


def node_back(c, t, dn, mark=None, via_readonly=True):
    for s in c.scms:
        tt = t + ms(c.rng.randint(0, 900))
        if via_readonly:
            c.log(s.name, tt, "INFO", s.name + "-EventQueue-HealthyReadonlyNodeForHealthyReadOnlyNodeHandler", L.HEALTHY_READONLY_HANDLER,
                  "Datanode %s moved to HEALTHY READONLY state." % c.dn(dn), mark=mark if s.name == c.leader else None)
        c.log(s.name, tt + ms(2), "INFO", s.name + "-EventQueue-HealthyReadonlyToHealthyNodeForReadOnlyHealthyToHealthyNodeHandler", L.READONLY_TO_HEALTHY_HANDLER,
              healthy_node(c.dn(dn)))


def not_leader(c, follower):
    return "org.apache.ratis.protocol.exceptions.NotLeaderException: Server %s is not the leader, suggested leader is: %s|%s:9894" % (
        c.member(follower), c.scm(c.leader).id, c.scm(c.leader).host)


def fcr_failed_stack(c, follower):
    """Follower FCR: ERROR 'Failed to process <D>' + stack (scm.md 1.1, 2.3). Frames illustrative."""
    nle = not_leader(c, follower)
    return ["org.apache.hadoop.hdds.scm.exceptions.SCMException: " + nle] + frames(
        "org.apache.hadoop.hdds.scm.ha.invoker.ScmInvoker.translateException(ScmInvoker.java:118)",
        "org.apache.hadoop.hdds.scm.ha.invoker.ScmInvoker.invokeReplicateDirect(ScmInvoker.java:78)",
        "org.apache.hadoop.hdds.scm.container.ContainerStateManagerImpl$Invoker.transitionDeletingOrDeletedToTargetState(Unknown Source)",
        "org.apache.hadoop.hdds.scm.container.ContainerManagerImpl.transitionDeletingOrDeletedToTargetState(ContainerManagerImpl.java:341)",
        "org.apache.hadoop.hdds.scm.container.AbstractContainerReportHandler.updateContainerState(AbstractContainerReportHandler.java:412)",
        "org.apache.hadoop.hdds.scm.container.AbstractContainerReportHandler.processContainerReplica(AbstractContainerReportHandler.java:128)",
        "org.apache.hadoop.hdds.scm.container.ContainerReportHandler.processSingleReplica(ContainerReportHandler.java:227)",
        "org.apache.hadoop.hdds.scm.container.ContainerReportHandler.processContainerReplicas(ContainerReportHandler.java:205)",
        "org.apache.hadoop.hdds.scm.container.ContainerReportHandler.onMessage(ContainerReportHandler.java:170)",
        "org.apache.hadoop.hdds.server.events.FixedThreadPoolWithAffinityExecutor$ContainerReportProcessTask.run(FixedThreadPoolWithAffinityExecutor.java:276)",
        *JDK17_POOL_TAIL) + ["Caused by: " + nle] + frames(
        "org.apache.hadoop.hdds.scm.ha.SCMRatisServerImpl.submitRequest(SCMRatisServerImpl.java:232)",
        "org.apache.hadoop.hdds.scm.ha.invoker.ScmInvoker.invokeReplicateDirect(ScmInvoker.java:74)") + ["\t... 12 more"]


def unable_to_communicate(c, dn, t, scm, seconds):
    """datanode.md 2.6 EndpointStateMachine.logIfNeeded WARN + exception (1.5 shape)."""
    d, s = c.dn(dn), c.scm(scm)
    hp = host_and_port(s.host, s.ip, 9861)
    c.log(dn, t, "WARN", endpoint_thread(d.uuid, hp), L.ENDPOINT_STATE_MACHINE, unable(hp, seconds), extra=[
        connect_refused(d.host, d.ip, s.host)] + frames(
        "java.base/jdk.internal.reflect.NativeConstructorAccessorImpl.newInstance0(Native Method)",
        "java.base/jdk.internal.reflect.NativeConstructorAccessorImpl.newInstance(NativeConstructorAccessorImpl.java:77)",
        "java.base/java.lang.reflect.Constructor.newInstance(Constructor.java:499)",
        "org.apache.hadoop.net.NetUtils.wrapWithMessage(NetUtils.java:930)",
        "org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:905)",
        "org.apache.hadoop.ipc_.Client.getRpcResponse(Client.java:1597)",
        "org.apache.hadoop.ipc_.Client.call(Client.java:1539)",
        "org.apache.hadoop.ozone.protocolPB.StorageContainerDatanodeProtocolClientSideTranslatorPB.sendHeartbeat(StorageContainerDatanodeProtocolClientSideTranslatorPB.java:148)",
        "org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask.call(HeartbeatEndpointTask.java:155)",
        "org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask.call(HeartbeatEndpointTask.java:82)",
        "java.base/java.util.concurrent.FutureTask.run(FutureTask.java:264)", *JDK17_POOL_TAIL) + [
        "Caused by: java.net.ConnectException: Connection refused"] + frames(
        "java.base/sun.nio.ch.Net.pollConnect(Native Method)",
        "java.base/sun.nio.ch.Net.pollConnectNow(Net.java:672)") + [
        "\t... 14 more"])


def dn_start(c, dn, t):
    """datanode.md 2.6: DatanodeStateMachine startup INFO lines (pool size = 1 + #SCMs)."""
    d = c.dn(dn)
    c.log(dn, t, "INFO", "main", L.DATANODE_STATE_MACHINE, "Datanode State Machine Task Thread Pool size %d" % (1 + len(c.scms)))
    c.log(dn, t + ms(2311), "INFO", d.uuid + "-DatanodeStateMachineDaemonThread", L.DATANODE_STATE_MACHINE, "Ozone container server started.")


def new_pipeline(c, t, pipeline, members, leader_dn, term=1):
    """XceiverServerRatis 'Created group', CSM 'initialize', Ratis role/leader lines (datanode.md 2.1, 2.3, 2.4)."""
    gid = ratis_group(pipeline)
    for m in members:
        d = c.dn(m)
        mem = member_id(d.uuid, gid)
        tt = t + ms(c.rng.randint(0, 120))
        c.log(m, tt, "INFO", "%s-CreatePipelineCommandHandlerThread-0" % d.uuid, L.CONTAINER_STATE_MACHINE, "%s: initialize %s" % (d.uuid, gid))
        c.log(m, tt + ms(3), "INFO", "%s-CreatePipelineCommandHandlerThread-0" % d.uuid, L.XCEIVER_SERVER_RATIS, "Created group Pipeline-%s" % pipeline)
        if m == leader_dn:
            c.log(m, tt + ms(5150), "INFO", mem + "-FollowerState", L.RAFT_DIVISION, role_change(mem, "FOLLOWER", "CANDIDATE", term - 1, "changeToCandidate"))
            c.log(m, tt + ms(5212), "INFO", mem + "-LeaderElection1", L.RAFT_DIVISION, role_change(mem, "CANDIDATE", "LEADER", term, "changeToLeader"))
            c.log(m, tt + ms(5260), "INFO", mem + "-LeaderElection1", L.XCEIVER_SERVER_RATIS, leader_notification(gid, c.dn(leader_dn).uuid))
            continue
        else:
            c.log(m, tt + ms(5240), "INFO", "%s-server-thread1" % d.uuid, L.RAFT_DIVISION,
                  leader_change(mem, "null", c.dn(leader_dn).uuid, term, "APPEND_ENTRIES", 5100 + c.rng.randint(0, 300)))
        c.log(m, tt + ms(5260), "INFO", "%s-server-thread1" % d.uuid, L.XCEIVER_SERVER_RATIS, leader_notification(gid, c.dn(leader_dn).uuid))


# ----------------------------------------------------------------------------------------------
# shared config files
# ----------------------------------------------------------------------------------------------
def ozone_site(scms, extra):
    props = [
        ("ozone.scm.service.ids", "scmservice"),
        ("ozone.scm.nodes.scmservice", ",".join(s.name for s in scms)),
    ]
    for s in scms:
        props.append(("ozone.scm.address.scmservice." + s.name, s.host))
    props += [
        ("hdds.heartbeat.interval", "30s"),
        ("ozone.scm.stale.node.interval", "5m"),
        ("ozone.scm.dead.node.interval", "10m"),
        ("hdds.scm.replication.thread.interval", "300s"),
        ("hdds.container.report.interval", "60m"),
    ] + extra
    return site_xml(props, stylesheet=False)


AUDIT_DEBUG = [("ozone.audit.log.debug.cmd.list.scmaudit", "SEND_HEARTBEAT")]


def scenario(name, day, pipelines, seed, *cluster, **kw):
    """A bundle: its folder, its cluster (mk_cluster), pipeline ids drawn in the order named, and
    t("HH:MM:SS,mmm") -> that time on `day`."""
    b = BundleDir(name)
    c = mk_cluster(seed, *cluster, **kw)
    P = {k: random_uuid(c.rng) for k in pipelines}
    return b, c, P, lambda hms: T("%s %s" % (day, hms))


def mk_cluster(seed, domain, scm_net, dn_net, ndn, leader, term, cluster_id=None, hostfmt=None):
    rng = random.Random(seed * 7919)
    scms = []
    for i in range(1, 4):
        host = ("scm%d" % i) + domain
        scms.append(SCM("scm%d" % i, random_uuid(rng), host, "%s.%d" % (scm_net, 10 + i)))
    dns = []
    for i in range(1, ndn + 1):
        name = (hostfmt or "dn%d") % i
        dns.append(DN(name, random_uuid(rng), name + domain, "%s.%d" % (dn_net, 20 + i), 1 + (i % 3)))
    cid = cluster_id or random_uuid(rng)
    c = Cluster(seed, scms, dns, cid, leader, term)
    return c


# ==============================================================================================
# Bundle 1: HEAD/2.2 wording, stale OPEN replica resurrects DELETED container (confirmed)
# ==============================================================================================
def bundle1():
    b, c, P, t = scenario("HDDS-17400-bug-stale-open-replica", "2026-09-14", ("a", "b", "x", "d", "new"),
                          17401, ".example.com", "10.0.0", "10.0.1", 5, "scm1", 7)
    members = {"a": ["dn1", "dn3", "dn5"], "b": ["dn5", "dn2", "dn3"], "x": ["dn1", "dn2", "dn4"], "d": ["dn3", "dn4", "dn5"]}
    X, S, B, R = 3107, 4821, 4790, "dn4"

    # -- leadership at the start of the window: scm2 (term 6) -> scm1 (term 7)
    c.log("scm2", t("06:00:31,204"), "INFO", "scm2-ReplicationMonitor", L.REPLICATION_MANAGER,
          rm_pass(88, 1794))
    scm_failover(c, t("06:02:11,517"), "scm2", "scm1", 7, 12)
    rm_passes(c, t("06:03:05,000"), t("09:06:00,000"), ncont=1796)

    # -- routine container traffic (other containers)
    succeed(c, t("06:21:07,331"), 3098, 15532, t("06:21:39,120"), 3103, members["a"])
    admin_close(c, t("06:38:14,022"), "10.0.0.21", 3102, members["b"], 9874, t("06:38:14,640"), 9, t("06:38:15,902"), 13,
                t("06:38:16,011"))
    open_container(c, t("06:39:02,417"), 3106, members["b"])
    open_container(c, t("06:55:12,208"), X, members["x"])
    normal_close(c, t("07:04:48,115"), 3104, members["d"], 22310)
    block_deletion(c, t("06:15:40,118"), [(3087, members["a"], local_ids(113750153625600000, 1411, 4))])
    block_deletion(c, t("06:52:10,502"), [(3091, members["b"], local_ids(113750153625700000, 977, 3))])
    block_deletion(c, t("07:10:02,881"), [(3093, members["d"], local_ids(113750153625750000, 513, 2))])

    # -- R (dn4) host crashes at 07:12:40 (no shutdown line); dn1/dn2 keep writing #3107 up to BCSID S
    # -- SCM: stale, pipelines finalized, #3107 closes on dn1/dn2 at S, dead
    node_stale(c, t("07:17:44,092"), R, [P["x"], P["d"]], mark="b1_stale")
    follower_cannot_close(c, "dn2", t("07:17:46,127"), X)
    close_replicas(c, X, S, ["dn1", "dn2"], t("07:17:46,310"), 8, t("07:17:51,128"), 12, mark="b1")
    closed_at = t("07:17:51,233")
    on_every_scm(c, closed_at, 35, "dn1", L.ICR_HANDLER, "CLOSE " + c.details(X, "CLOSING", S, "CLOSED", S, "dn1"), mark="b1_close")
    node_dead(c, t("07:22:45,310"), R, mark="b1_dead")

    # -- the client deletes the keys of #3107 (8 blocks); dn1/dn2 delete them, dn4 is away
    x_blocks = local_ids(113750153626100000, 2203, 8)
    block_deletion(c, t("07:36:12,774"), [(X, ["dn1", "dn2"], x_blocks), (3098, members["a"], local_ids(113750153625810000, 311, 2))])
    succeed(c, t("07:49:30,610"), 3103, 16011, t("07:50:02,954"), 3109, members["a"])

    # -- RM deletes the empty CLOSED container #3107 (EmptyContainerHandler; CLOSED->DELETING->DELETED silent)
    delete_empty(c, t("08:13:05,020"), X, "CLOSED", closed_at, P["x"], [("dn1", S), ("dn2", S)], t("08:13:36,402"), 17, "b1")
    block_deletion(c, t("08:24:50,092"), [(3101, members["b"], local_ids(113750153625850000, 733, 5))])

    # -- dn4 (R) comes back: restart, re-register, DEAD -> HEALTHY_READONLY -> HEALTHY
    # before the crash dn4 had applied #3107 up to B and holds 6 of its blocks
    dn_returns(c, R, t("08:32:20,518"), t("08:32:27,330"), t("08:32:33,004"), "hadoop", "b1")
    # -- the FCR of dn4: the stale non-empty OPEN replica (bcsid B < sid S) resurrects #3107
    tres = t("08:32:58,617")
    resurrect(c, tres, R, X, S, "OPEN", B, 6, "b1")
    # -- aftermath on the leader: close the mismatched OPEN replica, then replicate the single origin
    info = container_info(X, "QUASI_CLOSED", lt(c, tres + ms(1)), P["x"])
    rm_command(c, t("08:33:05,020"), close_command(c.next_cmd(), X, P["x"]), info, c.dn(R), mark="b1_closecmd")
    quasi_close_replica(c, R, t("08:33:29,771"), 19, X, B, ratis_group(P["x"]), mark="b1_dnqc")
    new_pipeline(c, t("08:34:41,300"), P["new"], ["dn4", "dn2", "dn5"], "dn2")
    replicate(c, t("08:38:35,402"), X, "QUASI_CLOSED", info, R, B, ["dn3", "dn5"], t("08:39:11,005"), t("08:39:12,118"), 900,
              "b1")
    open_container(c, t("08:40:11,640"), 3113, ["dn4", "dn2", "dn5"])
    succeed(c, t("08:48:19,225"), 3109, 16502, t("08:48:51,093"), 3114, members["a"])
    block_deletion(c, t("08:55:31,660"), [(3102, members["b"], local_ids(113750153625910000, 409, 3))])

    # -- write files
    cut = t("07:30:00,000")
    c.write_logs(b, "file", cut, daemon_log("scm", "%s"), daemon_log("datanode", "%s"),
                 backup=lambda live, n: "%s-%d.gz" % (live, n), gz=True)
    old = Cluster(1, c.scms, c.dns, c.cluster_id, "scm2", 6)
    old.skew.update(c.skew)
    old.aud("scm2", T("2026-09-13 15:12:40,551"), "hadoop", "10.0.0.21", "CLOSE_CONTAINER", '{"remoteUser":"hadoop","containerID":"3049"}')
    old.aud("scm2", T("2026-09-13 15:13:02,914"), "hadoop", "10.0.0.21", "CLOSE_CONTAINER", '{"remoteUser":"hadoop","containerID":"3050"}')
    b.write(audit_rollover("scm2/scm-audit-scm2.log", "2026-09-13"), old.audit_entries("scm2"), gz=True)
    b.expected([finding(RULE, "container:%d" % X, "confirmed")])
    return b, c, dict(X=X, S=S, B=B, R=R, P=P)


def background(c, t, old_leader, election_no, t_failover, rm_window, ncont, traffic_window, pipes, cid0, bcs0, step):
    """How the window of bundles 2-5 starts: `old_leader` hands over to c.leader (term c.term), whose
    ReplicationManager then runs every 5 min, and the other pipelines' containers fill up and close
    (routine)."""
    scm_failover(c, t(t_failover), old_leader, c.leader, c.term, election_no)
    rm_passes(c, t(rm_window[0]), t(rm_window[1]), ncont=ncont)
    routine(c, t(traffic_window[0]), t(traffic_window[1]), pipes, cid0, bcs0, step=step)


def succeed(c, t_close, old, sid, t_open, new, members):
    """Container `old` fills up and closes (at sequence id `sid`); `new` opens on the same pipeline."""
    normal_close(c, t_close, old, members, sid)
    open_container(c, t_open, new, members)


def written(b, c, layout, cut, scm_log, dn_log, info, **files):
    """A control bundle's files (Cluster.write_logs), EXPECTED.json `[]`; -> (b, c, info)."""
    c.write_logs(b, layout, cut, scm_log, dn_log, **files)
    b.expected([])
    return b, c, info


def routine(c, t0, t1, pipes, cid0, bcs0, step=(1100, 1700)):
    """Unrelated traffic: containers fill up and close (FINALIZE/CLOSE on every SCM, CLOSING/CLOSED
    on the DNs), a new one opens on the same pipeline, and block deletion passes run."""
    t = t0 + sec(c.rng.randint(120, 500)) + ms(c.rng.randint(0, 999))
    cid, k = cid0, 0
    open_now = {}
    index = {tuple(p): bcs0 + c.rng.randint(0, 90000) for p in pipes}  # Ratis log index per pipeline
    while t < t1:
        members = pipes[k % len(pipes)]
        key = tuple(members)
        index[key] += c.rng.randint(900, 6000)
        if key in open_now:
            normal_close(c, t, open_now[key], list(members), index[key])
        cid += 1
        open_container(c, t + sec(31), cid, list(members))
        open_now[key] = cid
        if k % 2 == 1:
            victim = pipes[(k + 1) % len(pipes)]
            ids = [113750153700000000 + c.rng.randint(1, 10 ** 9) for _ in range(c.rng.randint(2, 5))]
            block_deletion(c, t + sec(c.rng.randint(200, 600)), [(cid0 - 20 - k, list(victim), sorted(ids))])
        k += 1
        t += sec(c.rng.randint(*step)) + ms(c.rng.randint(0, 999))
    return cid


# ==============================================================================================
# Bundle 2: 2.1.x wording (transitionDeletingToClosed, back to CLOSED), docker-compose console
# ==============================================================================================
def bundle2():
    b, c, P, t = scenario("HDDS-17400-bug-closed-wording-2-1", "2026-10-02", ("x", "y", "z"),
                          17402, "", "172.25.0", "172.25.0", 5, "scm2", 3, hostfmt="datanode%d")
    rng = c.rng
    members = {"x": ["datanode1", "datanode3", "datanode5"], "y": ["datanode2", "datanode4", "datanode1"], "z": ["datanode5", "datanode2", "datanode4"]}
    X, S, R = 1007, 1384, "datanode3"

    background(c, t, "scm1", 4, "10:00:12,408", ("10:01:40,000", "10:58:00,000"), 31,
               ("10:00:30,000", "10:55:00,000"), [members["y"], members["z"]], 1010, 2000, (700, 1000))
    # admin close of #1005 from the test script (audit on the leader)
    admin_close(c, t("10:03:21,774"), "172.25.0.30", 1005, members["z"], 1921, t("10:03:22,101"), 6, t("10:03:23,530"), 9,
                t("10:03:23,611"))
    succeed(c, t("10:01:49,660"), 1003, 1207, t("10:02:10,518"), X, members["x"])
    block_deletion(c, t("10:05:12,330"), [(1001, members["x"], local_ids(113750153611100000, 97, 3))])

    # -- datanode3 is paused (docker-compose pause) at 10:09:10; its #1007 replica stays OPEN at BCSID 1384
    node_stale(c, t("10:14:12,530"), R, [P["x"]], mark="b2_stale")
    follower_cannot_close(c, "datanode5", t("10:14:13,870"), X)
    close_replicas(c, X, S, ["datanode1", "datanode5"], t("10:14:14,008"), 5, t("10:14:16,442"), 8)
    closed_at = t("10:14:16,517")
    on_every_scm(c, closed_at, 30, "datanode1", L.ICR_HANDLER, "CLOSE " + c.details(X, "CLOSING", S, "CLOSED", S, "datanode1"),
                 mark="b2_close")
    node_dead(c, t("10:19:12,604"), R, mark="b2_dead")
    x_blocks = local_ids(113750153612200000, 4099, 9)
    block_deletion(c, t("10:21:47,219"), [(X, ["datanode1", "datanode5"], x_blocks)])
    delete_empty(c, t("10:26:40,020"), X, "CLOSED", closed_at, P["x"], [("datanode1", S), ("datanode5", S)], t("10:27:02,117"),
                 13, "b2")

    # -- datanode3 unpaused at 10:31:55: Ratis follower timer fires, SCM sees it back, closes its pipeline
    d3 = c.dn(R)
    gx = ratis_group(P["x"])
    mem = member_id(d3.uuid, gx)
    c.log(R, t("10:31:55,402"), "INFO", mem + "-FollowerState", L.FOLLOWER_STATE,
          to_candidate(mem + "-FollowerState", 1365117, 5046))
    c.log(R, t("10:31:55,403"), "INFO", mem + "-FollowerState", L.RAFT_DIVISION,
          role_change(mem, "FOLLOWER", "CANDIDATE", 1, "changeToCandidate"))
    node_back(c, t("10:31:58,117"), R, mark="b2_back")
    c.cont(R, t("10:32:26,804"), "INFO", X, S, "CLOSING", mark="b2_dnclosing")
    c.cont(R, t("10:32:26,825"), "WARN", X, S, "QUASI_CLOSED", "Ratis group removed. Group id: " + gx)
    tres = t("10:32:27,031")
    D = c.details(X, "DELETED", S, "CLOSING", S, R)
    line = "transitionDeletingToClosed due to non-empty CLOSED replica (keyCount=9) for " + D
    c.log(c.leader, tres, "INFO", c.fp(c.leader, R), L.ICR_HANDLER, line, mark="b2_res")
    for f in c.followers():
        tf = tres + ms(rng.randint(4, 30))
        c.log(f, tf, "INFO", c.fp(f, R), L.ICR_HANDLER, line, mark="b2_res_follower_" + f)
        c.log(f, tf + ms(2), "INFO", c.fp(f, R), L.ICR_HANDLER, "SCM_NOT_LEADER: Failed to process " + D, mark="b2_failed_" + f)
    # -- aftermath: RM force-closes the replica of the (now CLOSED) container, then replicates it
    info = container_info(X, "CLOSED", lt(c, tres + ms(1)), P["x"])
    rm_command(c, t("10:36:40,020"), close_command(c.next_cmd(), X, P["x"], force=True), info, d3, mark="b2_closecmd")
    c.cont(R, t("10:37:03,348"), "INFO", X, S, "CLOSED", mark="b2_dnclosed")
    replicate(c, t("10:42:10,377"), X, "CLOSED", info, R, S, ["datanode2", "datanode4"], t("10:42:28,610"), t("10:42:29,205"),
              700, "b2")

    # -- files: one interleaved docker-compose (v1) stream, console layout %c{2}
    services = [s.name + "_1" for s in c.scms] + [d.name + "_1" for d in c.dns]
    streams = [(n, c.rec.get("main", n[:-2]), main_log("console")) for n in services]
    b.write("docker-compose.log", compose_entries(streams, compose_v1_prefixes(services), order=lambda r, i: (r[0], i)))
    # audit files copied out of the containers: REGISTER of every DN at cluster start, admin close
    for s in c.scms:
        for i, d in enumerate(c.dns):
            c.aud(s.name, t("09:41:07,220") + ms(173 * i + rng.randint(0, 40)), "hadoop", d.ip, "REGISTER", '{"datanodeDetails":"%s"}' % d)
        b.write("%s/scm-audit-%s.log" % (s.name, s.name), c.audit_entries(s.name))
    for d in c.dns:
        b.write("%s/dn-container-%s.log" % (d.name, d.name), c.dnc_entries(d.name))
    b.text("docker-config", "\n".join([
        "OZONE-SITE.XML_ozone.scm.service.ids=scmservice",
        "OZONE-SITE.XML_ozone.scm.nodes.scmservice=scm1,scm2,scm3",
        "OZONE-SITE.XML_ozone.scm.address.scmservice.scm1=scm1",
        "OZONE-SITE.XML_ozone.scm.address.scmservice.scm2=scm2",
        "OZONE-SITE.XML_ozone.scm.address.scmservice.scm3=scm3",
        "OZONE-SITE.XML_ozone.scm.stale.node.interval=5m",
        "OZONE-SITE.XML_ozone.scm.dead.node.interval=10m",
        "OZONE-SITE.XML_hdds.heartbeat.interval=30s",
        "OZONE-SITE.XML_hdds.scm.replication.thread.interval=300s",
        "OZONE-SITE.XML_ozone.audit.log.debug.cmd.list.scmaudit=SEND_HEARTBEAT",
        "",
    ]))
    b.text(".env", "OZONE_IMAGE=apache/ozone:2.1.0\n")
    b.expected([finding(RULE, "container:%d" % X, "confirmed")])
    return b, c, dict(X=X, S=S, R=R, P=P)


# ==============================================================================================
# Bundle 3: stale CLOSED replica of a DELETED container is force-deleted (scm.md 5.4), vendor layout
# ==============================================================================================
def bundle3():
    b, c, P, t = scenario("HDDS-17400-control-stale-closed-replica-force-deleted", "2026-10-19", ("x", "q", "a", "b"),
                          17403, ".prod.example.net", "10.40.2", "10.40.3", 6, "scm3", 11)
    members = {"x": ["dn2", "dn5", "dn6"], "q": ["dn5", "dn1", "dn3"], "a": ["dn1", "dn4", "dn6"], "b": ["dn3", "dn2", "dn4"]}
    X, S, R, Y, SY = 51877, 771230, "dn5", 51850, 640118

    background(c, t, "scm1", 7, "01:30:44,105", ("01:32:10,000", "04:31:00,000"), 48211,
               ("01:31:00,000", "04:25:00,000"), [members["a"], members["b"]], 51890, 300000, (900, 1500))
    # #51877 closes normally on all three replicas (dn5 included) at S; #51850 was emptied and deleted earlier
    block_deletion(c, t("01:36:51,412"), [(51861, members["q"], local_ids(113750153990100000, 5557, 3))])
    succeed(c, t("01:40:58,306"), 51869, 770114, t("01:41:20,050"), X, members["x"])
    block_deletion(c, t("02:31:07,935"), [(51858, members["x"], local_ids(113750153990400000, 1213, 5))])
    normal_close(c, t("02:14:03,771"), X, members["x"], S, mark="b3_close")
    x_closed = t("02:14:05,602")
    # -- dn5 host fails at 02:40 (no shutdown line); stale, dead
    node_stale(c, t("02:45:31,118"), R, [P["x"], P["q"]], mark="b3_stale")
    node_dead(c, t("02:50:31,640"), R, mark="b3_dead")
    x_blocks = local_ids(113750154000300000, 8093, 3)
    block_deletion(c, t("03:05:44,210"), [(X, ["dn2", "dn6"], x_blocks)])
    delete_empty(c, t("03:37:10,020"), X, "CLOSED", x_closed, P["x"], [("dn2", S), ("dn6", S)], t("03:37:41,009"), 21, "b3")
    # -- dn5 restarted by the management agent at 04:10; re-registers, back to HEALTHY
    dn_returns(c, R, t("04:10:02,337"), t("04:10:09,118"), t("04:10:15,502"), "ozone", "b3")
    # -- FCR of dn5: stale CLOSED non-empty replica of DELETED #51877 (bcsid == sid) -> force delete;
    #    an empty replica of DELETED #51850 -> normal delete.  Followers take the same branch and skip.
    delete_deleted(c, t("04:10:40,226"), R, [(c.details(X, "DELETED", S, "CLOSED", S, R), True),
                                            (c.details(Y, "DELETED", SY, "CLOSED", SY, R, empty=True), False)], "b3")
    c.cont(R, t("04:11:12,540"), "INFO", X, S, "CLOSED", "Container force deleted", mark="b3_dnforce")
    c.cont(R, t("04:11:12,611"), "INFO", Y, SY, "CLOSED", "Empty container deleted")

    # -- files: vendor-managed (no thread), one flat folder
    return written(b, c, "vendor", t("02:30:00,000"), daemon_log("scm", "%s", vendor=True),
                   daemon_log("datanode", "%s", vendor=True), dict(X=X, S=S, R=R, Y=Y, P=P), per_host=False, fqdn=True)


# ==============================================================================================
# Bundle 4: 2.2/HEAD, a QUASI_CLOSED replica with newer data (bcsid above the sid) of a DELETED
# container is force-deleted (HDDS-11136 design, sid raised first: HDDS-16809); RFA, flat folder
# ==============================================================================================
def bundle4():
    b, c, P, t = scenario("HDDS-17400-control-newer-data-force-deleted", "2026-11-03", ("x", "o", "a", "b", "o2"),
                          17404, ".lab.example.org", "192.168.40", "192.168.41", 5, "scm2", 4)
    members = {"x": ["dn2", "dn3", "dn5"], "o": ["dn3", "dn1", "dn4"], "a": ["dn1", "dn4", "dn5"], "b": ["dn4", "dn5", "dn1"]}
    X, S1, S, B, R = 7731, 60391, 60409, 60417, "dn2"

    background(c, t, "scm3", 9, "09:20:03,912", ("09:21:30,000", "12:16:00,000"), 6020,
               ("09:20:30,000", "12:10:00,000"), [members["a"], members["b"]], 7740, 140000, (1000, 1600))
    block_deletion(c, t("09:31:44,090"), [(7702, members["o"], local_ids(113750154100100000, 907, 3))])
    succeed(c, t("09:48:05,873"), 7725, 59012, t("09:48:27,301"), X, members["x"])
    block_deletion(c, t("10:03:29,660"), [(7711, members["x"], local_ids(113750154100200000, 2111, 4))])
    # -- dn3 stalls (GC): stale, its pipelines are finalized; #7731 CLOSING, groups removed on all members.
    #    dn3/dn5 had applied up to S, the leader dn2 up to B: QUASI_CLOSED at different BCSIDs.
    # -- 10:12:31 the pipeline of #7731 is closed at once (slow-follower pipeline action from the leader
    #    dn2; neither the DN WARN nor the SCM handling is reproduced, see SOURCE.md). Group removal
    #    beats the Ratis close on every member: each replica quasi-closes at its own applied index.
    gx = ratis_group(P["x"])
    for m, bc, dt in (("dn2", B, 0), ("dn5", S, 61), ("dn3", S1, 140)):
        quasi_close_replica(c, m, t("10:12:31,402") + ms(dt), 17, X, bc, gx, mark="b4_dnqc_" + m)
    qc_at = t("10:12:31,622")
    on_every_scm(c, qc_at, 30, "dn5", L.ICR_HANDLER, "QUASI_CLOSE " + c.details(X, "CLOSING", S, "QUASI_CLOSED", S, "dn5"),
                 mark="b4_qc")
    # -- dn2's host loses power at 10:12:31,5 (its QUASI_CLOSED ICR never reached SCM); stale, dead
    node_stale(c, t("10:17:33,201"), R, [P["o2"]], mark="b4_stale")
    node_dead(c, t("10:22:33,517"), R, mark="b4_dead")
    # -- its blocks are deleted on dn3/dn5; the empty QUASI_CLOSED container (2 origins) is deleted by EmptyContainerHandler
    empty_quasi_closed_deleted(c, t("10:44:18,003"), local_ids(113750154100400000, 6607, 5), t("11:21:30,020"), X, S,
                               [("dn3", S1), ("dn5", S)], qc_at, P["x"], t("11:21:57,338"), 19, "b4")
    # -- dn2 repaired and restarted; its FCR carries the non-empty QUASI_CLOSED replica at B > S.
    #    updateContainerStats raises the sid to B first, so the branch is bcsid <= sid: force delete.
    dn_returns(c, R, t("11:48:12,905"), t("11:48:19,440"), t("11:48:25,117"), "ozone", "b4")
    delete_deleted(c, t("11:48:49,730"), R, [(c.details(X, "DELETED", B, "QUASI_CLOSED", B, R), True)], "b4")
    c.cont(R, t("11:49:20,502"), "INFO", X, B, "QUASI_CLOSED", "Container force deleted", mark="b4_dnforce")

    # -- files: RFA layout, flat folder, classic .log / .log.1 rotation, user "ozone"
    return written(b, c, "file", t("10:30:00,000"), daemon_log("scm", "%s", "ozone"),
                   daemon_log("datanode", "%s", "ozone"), dict(X=X, S=S, B=B, R=R, P=P), per_host=False)


# ==============================================================================================
# Bundle 5: empty QUASI_CLOSED container deleted, then resurrected by a replica with newer data
# (HDDS-14684 design); RFA, per-host folders
# ==============================================================================================
def bundle5():
    b, c, P, t = scenario("HDDS-17400-control-empty-quasi-closed-resurrected", "2026-11-21", ("x", "w", "a", "b", "new"),
                          17405, ".dc2.example.com", "10.8.0", "10.8.1", 6, "scm3", 9)
    members = {"x": ["dn1", "dn2", "dn3"], "w": ["dn4", "dn1", "dn6"], "a": ["dn2", "dn4", "dn5"], "b": ["dn5", "dn6", "dn3"]}
    X, S1, S, B, R = 20815, 88190, 88213, 88217, "dn1"

    background(c, t, "scm1", 21, "12:55:40,331", ("12:57:00,000", "15:01:00,000"), 9410,
               ("12:56:00,000", "14:58:00,000"), [members["a"], members["b"]], 20830, 70000, (900, 1400))
    block_deletion(c, t("13:02:15,804"), [(20790, members["w"], local_ids(113750154200100000, 743, 3))])
    succeed(c, t("13:10:41,377"), 20801, 86995, t("13:11:04,228"), X, members["x"])
    block_deletion(c, t("13:27:52,118"), [(20797, members["x"], local_ids(113750154200300000, 1609, 3))])
    # -- 13:40: dn1 loses its route to the SCMs (not to the other datanodes)
    for k, secs in enumerate(range(300, 3001, 300)):
        for j, s in enumerate(c.scms):
            unable_to_communicate(c, R, t("13:45:05,118") + sec(300 * k) + ms(40 * j), s.name, secs)
    # -- SCM: dn1 stale; pipelines finalized; dn2/dn3 have their group removed at S (dn1, the leader, applied up to B)
    node_stale(c, t("13:45:02,640"), R, [P["x"], P["w"]], mark="b5_stale")
    # -- the containers of the finalized pipelines go CLOSING; only the Ratis leader (dn1, cut off) could
    #    close them, so the followers log 'Follower cannot close'; ~66 s later the pipelines are closed on
    #    the followers and they quasi-close at their own applied index (the leader dn1 keeps B)
    for m, dt in (("dn2", 0), ("dn3", 27200)):
        follower_cannot_close(c, m, t("13:45:31,118") + ms(dt), X)
    gx = ratis_group(P["x"])
    for m, bc, tt in (("dn2", S1, "13:46:10,205"), ("dn3", S, "13:46:31,774")):
        quasi_close_replica(c, m, t(tt), 21, X, bc, gx, mark="b5_dnqc_" + m)
    qc_at = t("13:46:10,411")
    on_every_scm(c, qc_at, 30, "dn2", L.ICR_HANDLER, "QUASI_CLOSE " + c.details(X, "CLOSING", S1, "QUASI_CLOSED", S1, "dn2"),
                 mark="b5_qc")
    mx = member_id(c.dn(R).uuid, gx)
    c.log(R, t("13:46:36,907"), "INFO", mx + "-LeaderStateImpl", L.RAFT_DIVISION,
          role_change(mx, "LEADER", "FOLLOWER", 2, "StepDownReason:LOST_MAJORITY_HEARTBEATS"))
    node_dead(c, t("13:50:02,911"), R, mark="b5_dead")
    # -- old blocks of #20815 deleted on dn2/dn3 (the block committed at B is only on dn1 and its key still exists)
    empty_quasi_closed_deleted(c, t("14:02:33,480"), local_ids(113750154200700000, 3301, 4), t("14:22:00,020"), X, S,
                               [("dn2", S1), ("dn3", S)], qc_at, P["x"], t("14:22:31,160"), 23, "b5")
    # -- 14:31 the host dn1 is rebooted (network fixed); DN restarts, re-registers; FCR: OPEN replica at B > S
    dn_returns(c, R, t("14:31:10,772"), t("14:31:17,305"), t("14:31:23,448"), "hadoop", "b5")
    tres = t("14:31:48,052")
    resurrect(c, tres, R, X, B, "OPEN", B, 1, "b5")
    info = container_info(X, "QUASI_CLOSED", lt(c, tres + ms(1)), P["x"])
    rm_command(c, t("14:32:00,020"), close_command(c.next_cmd(), X, P["x"]), info, c.dn(R), mark="b5_closecmd")
    quasi_close_replica(c, R, t("14:32:19,630"), 22, X, B, gx, mark="b5_dnqc_dn1")
    new_pipeline(c, t("14:33:30,118"), P["new"], ["dn1", "dn5", "dn6"], "dn5")
    replicate(c, t("14:37:30,655"), X, "QUASI_CLOSED", info, R, B, ["dn4", "dn5"], t("14:38:01,844"), t("14:38:02,507"), 800,
              "b5")

    return written(b, c, "file", t("13:55:00,000"), daemon_log("scm", "%s"),
                   daemon_log("datanode", "%s"), dict(X=X, S=S, B=B, R=R, P=P))


# ==============================================================================================
# SOURCE.md
# ==============================================================================================
TPL = {
    "role": ("`{}: changes role from {} to {} at term {} for {}` (roles padded to 9: `   LEADER`, ` FOLLOWER`)", "Ratis RaftServerImpl via `RaftServer$Division`, INFO", "scm.md 2.1, datanode.md 2.1/1.5", "ratis 3.x (all Ozone releases in scope)"),
    "leader": ("`{}: change Leader from {} to {} at term {} for {}{}` (suffix `, leader elected after <n>ms`)", "Ratis ServerState via `RaftServer$Division`, INFO", "scm.md 2.1, datanode.md 2.1", "ratis 3.x"),
    "cand": ("`{}: change to CANDIDATE, lastRpcElapsedTime:{}, electionTimeout:{}`", "Ratis FollowerState, INFO", "datanode.md 2.1", "ratis 3.x"),
    "becomes": ("`\"current SCM \" + scmId + \" becomes leader of term \" + term`", "SCMStateMachine, INFO", "scm.md 2.1", "HEAD (same text in 2.x)"),
    "steps": ("`\"SCM \" + scmId + \" steps down from being leader.\"`", "SCMStateMachine, INFO", "scm.md 2.1", "HEAD"),
    "changed": ("`\"Leader changed to \" + newLeaderId + \", current SCM \" + scmId + \" is still follower.\"`", "SCMStateMachine, INFO", "scm.md 2.1", "HEAD"),
    "ctx": ("`update <isLeader,term> from <{},{}> to <{},{}>` / `update <isLeaderReady> from <{}> to <{}>`", "SCMContext, INFO", "scm.md 2.1", "HEAD"),
    "svc": ("`Service {} transitions to RUNNING.` / `notifyStatusChanged:RUNNING`", "ReplicationManager / SCMBlockDeletingService, INFO", "scm.md 2.1", "HEAD"),
    "stale": ("`Datanode {} moved to stale state. Finalizing its pipelines {}`; followers also `Could not finalize pipeline={} for dn={}`", "StaleNodeHandler, INFO", "scm.md 2.2 (health handlers)", "HEAD"),
    "dead": ("`A dead datanode is detected. {}` / `Clearing command queue of size {} for DN {}`", "DeadNodeHandler, INFO", "scm.md 2.2, 5.3", "HEAD"),
    "hro": ("`Datanode {} moved to HEALTHY READONLY state.`", "HealthyReadOnlyNodeHandler, INFO", "scm.md 2.2", "HEAD"),
    "healthy": ("`Datanode {} moved to HEALTHY state.`", "ReadOnlyHealthyToHealthyNodeHandler, INFO", "scm.md 2.2", "HEAD"),
    "finalize": ("`FINALIZE (i.e. CLOSING) {}` with `<D>`", "AbstractContainerReportHandler (logger ContainerReportHandler / IncrementalContainerReportHandler), INFO, printed on followers too", "scm.md 2.3", "HEAD (`<D>` format); 2.1.x assumed same"),
    "close": ("`CLOSE {}` with `<D>`", "same, INFO", "scm.md 2.3", "HEAD"),
    "qclose": ("`QUASI_CLOSE {}` with `<D>`", "same, INFO", "scm.md 2.3", "HEAD"),
    "res": ("`Resurrecting container {} from {} to QUASI_CLOSED due to non-empty {} replica (keyCount={}, BCSID={}) from {}`", "same (ContainerReportHandler for an FCR), INFO", "scm.md 2.3, 5.1-5.3", ">= 2.2.0 / HEAD (HDDS-14684)"),
    "res21": ("`transitionDeletingToClosed due to non-empty CLOSED replica (keyCount={}) for {}`", "same (IncrementalContainerReportHandler for an ICR), INFO", "scm.md 2.3 (version history), 5.4 rule sketch", "2.1.x"),
    "failed": ("`Failed to process {}` + SCMException(NotLeaderException) stack", "ContainerReportHandler (FCR), ERROR", "scm.md 1.1, 2.3, 5.3", "HEAD"),
    "failedicr": ("`SCM_NOT_LEADER: Failed to process {}` (no stack)", "IncrementalContainerReportHandler (ICR), INFO", "scm.md 2.3, 5.1", "HEAD; assumed unchanged in 2.1.x"),
    "force": ("`Sending {}DeleteContainerCommand due to {} for {}` -> `Sending forceDeleteContainerCommand due to DELETED for <D>` / `Sending DeleteContainerCommand due to DELETED for <D>`", "ContainerReportHandler, INFO (leader only)", "scm.md 2.3, 5.4", "HEAD"),
    "skip": ("`\"Skip sending DeleteContainerCommand for \" + <D> + \": \" + nle`", "ContainerReportHandler, WARN (followers)", "scm.md 2.3, 5.4", "HEAD"),
    "rmpass": ("`Replication Monitor Thread took {} milliseconds for processing {} containers.`", "ReplicationManager, INFO", "scm.md 2.5", "HEAD"),
    "rmsend": ("`Sending command [{}] for container {} to {} with datanode deadline {} and scm deadline {}` (delete / close / replicate command toString, ContainerInfo)", "ReplicationManager, INFO", "scm.md 2.5, 3", "HEAD; in bundle 2 assumed unchanged in 2.1.x"),
    "emptyqc": ("`Deleting empty QUASI_CLOSED container {} (container BCSID={}, max replica BCSID={}) with {} replicas from originIds: [{}]. If resurrected, container will transition to QUASI_CLOSED`", "EmptyContainerHandler, INFO", "scm.md 2.5", ">= 2.2.0 / HEAD"),
    "sbds": ("`Totally added {} blocks to be deleted for {} datanodes / {} totalnodes, limit per iteration : {}blocks, task elapsed time: {}ms`", "SCMBlockDeletingService, INFO (leader)", "scm.md 2.6", "HEAD"),
    "skipcommit": ("`Skip commit transactions since current SCM is not leader.`", "DeletedBlockLogImpl, INFO (followers)", "scm.md 2.6", "HEAD"),
    "audit_reg": ("audit `op=REGISTER {\"datanodeDetails\":\"<uuid>(<host>/<ip>)\"}`", "SCMAudit (log4j2 audit layout), INFO", "scm.md 1.2", "JSON params: >= 2.1.0"),
    "audit_close": ("audit `op=CLOSE_CONTAINER {\"remoteUser\":\"..\",\"containerID\":\"..\"}`", "SCMAudit, INFO", "scm.md 1.2", ">= 2.1.0"),
    "dnc": ("dn-container `ID= | Index= | BCSID= | State= | Volume= | DataChecksum=` [+ ` | Ratis group removed. Group id: group-XXXX` (WARN, QUASI_CLOSED) / `Empty container deleted` / `Container force deleted` / `Container exported` / `Container imported`]", "ContainerLogger (`ContainerLog`), INFO/WARN", "datanode.md 1.3", "HEAD (DataChecksum field: see below for 2.1)"),
    "fpb": ("`Deleted block file: {}`", "FilePerBlockStrategy, INFO", "datanode.md 2.5", "HEAD"),
    "dsm": ("`Datanode State Machine Task Thread Pool size {}` / `Ozone container server started.`", "DatanodeStateMachine, INFO", "datanode.md 2.6", "HEAD"),
    "pipe": ("`{}: initialize {}` (CSM), `Created group {}` and `Leader change notification received for group: {} with new leaderId: {}` (XceiverServerRatis)", "ContainerStateMachine / XceiverServerRatis, INFO", "datanode.md 2.3, 2.4", "HEAD"),
    "unable": ("`Unable to communicate to {} server at {} past {} seconds.` + exception", "EndpointStateMachine, WARN", "datanode.md 2.6, 1.5", "HEAD"),
    "follower_cc": ("`Follower cannot close container #{}.`", "CloseContainerCommandHandler, INFO", "datanode.md 2.6", "HEAD"),
}


def tpl_table(keys):
    rows = ["| template | class, level | catalogue | release |", "|---|---|---|---|"]
    for k in keys:
        a, b_, c_, d = TPL[k]
        rows.append("| %s | %s | %s | %s |" % (a, b_, c_, d))
    return "\n".join(rows)


NOT_CATALOGUED = """Not from the catalogue (flagged on purpose):
* Thread names `scmN-SCMBlockDeletingService#0` (SCM) and `BlockDeletingService#0` (DN) are not in the catalogue's
  thread tables; they are a guess at the BackgroundService naming. `main` for the DN start-up line is a guess too.
* Stack frames below the exception header lines (file names, line numbers, `$Invoker`, `Unknown Source`) are illustrative,
  as the catalogue says of its own example; the exception header lines are exactly the catalogue's.
* The RM deadlines are `+600000` / `+1200000` ms after the line's own time. The catalogue examples are not consistent
  (one uses +30/+40 min with a 2025 epoch, the other +10/+20 min); only the order datanode < scm deadline is certain.
* `encodedToken: ""` everywhere (security off); the catalogue prints `"…"` in one close-command example.
* `Deleting empty QUASI_CLOSED container {}`: the catalogue does not say whether `{}` is `#id` or a ContainerInfo; `#id`
  is used, and `originIds: [{}]` is filled with comma-space separated origin UUIDs.
* `Could not finalize pipeline={} for dn={}` on followers is printed without a stack trace (the catalogue shows no throwable).
"""


def source1(b, c, v):
    X, S, B, R = v["X"], v["S"], v["B"], v["R"]
    r = c.dn(R)
    w = b.at
    md = f"""# HDDS-17400 bug: stale OPEN replica resurrects a DELETED container (2.2 / HEAD wording)

Rule `resurrected-container`, entity `container:{X}`, expected confidence **confirmed**.

## Story
Cluster on 2.2/HEAD: three SCMs (`scm1` leader of term 7 after `scm2` stepped down at 06:02, `scm2`, `scm3`),
five datanodes `dn1`..`dn5`. Container #{X} (RATIS/THREE) is OPEN on pipeline `Pipeline-{v['P']['x']}` (dn1, dn2, dn4).

1. 07:12:40 the host of dn4 = `{r}` crashes (its main log just stops; no shutdown line). dn1 and dn2 keep
   writing #{X}; dn4's copy stays OPEN at BCSID {B}.
2. 07:17:4x every SCM marks dn4 stale and finalizes its pipelines; #{X} is closed through Ratis on dn1/dn2
   at BCSID {S}: `CLOSE Container #{X} (CLOSING, sid={S}) …` on all three SCMs. 07:22:4x dn4 is dead on every SCM.
3. 07:36 the keys are deleted; dn1/dn2 delete the 8 block files of #{X}. 08:13 the leader's RM deletes the empty
   CLOSED container (`deleteContainerCommand` to dn1, dn2; dn-container `Empty container deleted`).
   CLOSED -> DELETING -> DELETED is not logged at INFO.
4. 08:32:20 dn4 is restarted, re-registers (audit `REGISTER` on every SCM), moves DEAD -> HEALTHY READONLY -> HEALTHY,
   and its full container report carries the stale OPEN replica (6 blocks, BCSID {B} < sid {S}).
5. 08:32:58 the leader **resurrects #{X} from DELETED to QUASI_CLOSED**; both followers print the same line and then
   `Failed to process …` with the NotLeaderException stack.
6. Aftermath on the leader: RM `closeContainerCommand` to dn4 (mismatched OPEN replica); dn4 quasi-closes the
   replica when its old Ratis group is removed; RM `replicateContainerCommand` x2 (single origin, under-replicated),
   dn3/dn5 `Container imported`. No `Force closing …`, no new `deleteContainerCommand` for #{X} until the end (09:05).

## Evidence chain (rule should cite)
| role | file:line | what it shows |
|---|---|---|
| context | {w('b1_stale')} | leader: dn4 stale, pipeline of #{X} finalized |
| context | {w('b1_close')} | leader prints **sid={S}** for #{X} (CLOSE from dn1, bcsid {S}) |
| context | {w('b1_dead')} | leader: `A dead datanode is detected.` dn4 |
| context | {w('b1_delete_dn1')}, {w('b1_delete_dn2')} | RM deletes empty CLOSED #{X} |
| context | {w('b1_dndeleted_dn1')}, {w('b1_dndeleted_dn2')} | dn1/dn2 `Empty container deleted` (BCSID {S}) |
| context | {w('b1_register')} | dn4 re-registers (audit, leader) |
| context | {w('b1_back')} | leader: dn4 `moved to HEALTHY READONLY state.` |
| **cause** | {w('b1_res')} | leader: `Resurrecting container #{X} from DELETED to QUASI_CLOSED due to non-empty OPEN replica (keyCount=6, BCSID={B}) from Container #{X} (DELETED, sid={S}) r0 (OPEN, bcsid={B}, …)`: bcsid {B} < sid {S} |
| (ignore) | {w('b1_res_follower_scm2')}, {w('b1_res_follower_scm3')} | follower copies of the same line |
| (ignore) | {w('b1_failed_scm2')}, {w('b1_failed_scm3')} | follower `Failed to process` + NotLeaderException stack: proves they are followers |
| effect | {w('b1_closecmd')} | RM close command to dn4 for QUASI_CLOSED #{X} |
| effect | {w('b1_repl_dn3')}, {w('b1_repl_dn5')} | RM replicates the resurrected data |
| effect | {w('b1_imported_dn3')}, {w('b1_imported_dn5')} | copies of the stale replica land on dn3/dn5 |
| effect | {w('b1_dnqc')} | dn4's replica quasi-closed at BCSID {B} |

Leader identity: `scm1/ozone-hadoop-scm-scm1.log-1.gz` (first lines: `becomes leader of term 7`, `update <isLeader,term> from <false,0> to <true,7>`);
scm2 steps down in `scm2/ozone-hadoop-scm-scm2.log-1.gz`.

## Templates
{tpl_table(['role','cand','leader','becomes','steps','changed','ctx','svc','stale','dead','hro','healthy','finalize','close','res','failed','rmpass','rmsend','sbds','skipcommit','audit_reg','audit_close','dnc','fpb','dsm','pipe','follower_cc'])}

Entities: `DatanodeDetails` `uuid(host/ip)`, `<D>` = `Container #<id> (<state>, sid=<n>) r0 (<state>, bcsid=<n>, origin=<uuid>, empty|non-empty) from dn <dn>`,
`ContainerInfo{{…}}`, `Pipeline-<uuid>`, Ratis group `group-<last 12 hex of the cluster id>` (scm.md 3, 1.3).

## Layouts and files
* SCM and DN main logs: RFA `%d{{ISO8601}} [%t] %p %c: %m%n` (full logger), `scmN/ozone-hadoop-scm-scmN.log` plus one older
  rotation `ozone-hadoop-scm-scmN.log-1.gz` (the catalogue's shipped `FileNamePattern=${{hadoop.log.file}}-%i.gz`).
  DN: `dnN/ozone-hadoop-datanode-dnN.log`.
* SCM audit: log4j2 audit layout, `scmN/scm-audit-scmN.log`; `scm2` also has yesterday's `scm-audit-scm2-2026-09-13-1.log.gz`.
  `conf/ozone-site.xml` sets `ozone.audit.log.debug.cmd.list.scmaudit=SEND_HEARTBEAT`, so heartbeats are audited at DEBUG and are absent
  (this avoids inventing the shortDebugString of close/delete/replicate command protos, which the catalogue does not give).
* `dnN/dn-container-dnN.log`: dn-container layout. Times are UTC; hosts drift by up to ±180 ms.

## Left out on purpose
* `Sending close command for pipeline … HEALTHY READONLY` (scm.md 5.2 step 4): the pipelines of dn4 were already
  destroyed by the dead-node handling and the catalogue does not give the placeholders; the SCM-side handling of
  dn4's unknown pipeline report and the DN-side group removal are not logged at INFO (only the dn-container WARN).
* DeletedBlockLog `Container: #X was deleted for the transaction: …` (DeletedBlocksTransaction toString not catalogued).
* STARTUP_MSG banner of the restarted DN (format not in the catalogue).

{NOT_CATALOGUED}"""
    b.text("SOURCE.md", md)


def source2(b, c, v):
    X, S, R = v["X"], v["S"], v["R"]
    r = c.dn(R)
    w = b.at
    md = f"""# HDDS-17400 bug on 2.1.x: `transitionDeletingToClosed` of a DELETED container for a stale replica

Rule `resurrected-container`, entity `container:{X}`, expected confidence **confirmed** (the replica's BCSID
equals the printed sid, and an earlier line printed a sequence id at or above it: issue 5's rule).

## Story
docker-compose test cluster on `apache/ozone:2.1.0` (see `.env`, `docker-config`): `scm1`..`scm3`, `datanode1`..`datanode5`.
The bundle is `docker-compose logs --no-color --tail=…` (compose v1 prefixes, all services interleaved) plus the
audit and dn-container files copied out of the containers. At 10:00 `scm1` (term 2) steps down and `scm2` leads term 3.

1. #{X} (RATIS/THREE) is OPEN on datanode1, datanode3, datanode5. 10:09 the tester runs `docker-compose pause datanode3`
   = `{r}` (no log line; its replica stays OPEN).
2. 10:14 all SCMs mark datanode3 stale and finalize its pipeline; #{X} closes on datanode1/datanode5 at BCSID {S}
   (`CLOSE Container #{X} (CLOSING, sid={S}) r0 (CLOSED, bcsid={S}, …)`). 10:19 datanode3 is dead.
3. 10:21 the 9 blocks of #{X} are deleted on datanode1/datanode5; 10:26:40 RM deletes the empty CLOSED container.
4. 10:31:55 `docker-compose unpause datanode3`: its Ratis follower timer fires (`change to CANDIDATE, lastRpcElapsedTime:1365117ms`),
   every SCM sees it back (HEALTHY READONLY, HEALTHY). Its old pipeline is closed, the group removed, and the replica goes
   CLOSING then QUASI_CLOSED (dn-container). The CLOSING ICR reaches the SCMs first.
5. 10:32:27 leader `scm2`: **`transitionDeletingToClosed due to non-empty CLOSED replica (keyCount=9) for Container #{X} (DELETED, sid={S}) r0 (CLOSING, bcsid={S}, …)`**:
   the container goes back to CLOSED (2.1.x target state). Followers print the same line and `SCM_NOT_LEADER: Failed to process …`.
6. Aftermath: RM force-closes datanode3's replica (CLOSED container, QUASI_CLOSED replica with bcsid == sid), then replicates
   it to datanode2/datanode4. Nothing deletes #{X} again (log ends 10:55).

Why **confirmed**: the replica's BCSID equals the sid in the line (`bcsid={S}`, `sid={S}`). With B == S the line
alone cannot prove staleness (the caveat of scm.md 5.2: a newer replica would have raised the sid to its own BCSID
before the line rendered), but the earlier CLOSE line printed sid {S} for #{X} before the deletion, so the container's
sequence id was already at the replica's BCSID: the replica holds nothing newer than the deleted container. The issue
text makes that `confirmed` ("BCSID equals the printed sid and an earlier line shows a sequence id at or above the
BCSID"). Without the earlier line the rule could only say `likely`, from the CLOSING replica of a DELETED container and
datanode3 being dead ({w('b2_dead')}) and back ({w('b2_back')}) minutes before.

## Evidence chain
| role | file:line | what it shows |
|---|---|---|
| context | {w('b2_stale')} | leader scm2: datanode3 stale, pipeline finalized |
| context | {w('b2_close')} | leader: `CLOSE … sid={S}` for #{X} (sid equal to, not above, the later BCSID) |
| context | {w('b2_dead')} | leader: datanode3 dead |
| context | {w('b2_delete_datanode1')}, {w('b2_delete_datanode5')} | RM deletes empty CLOSED #{X} |
| context | {w('b2_dndeleted_datanode1')}, {w('b2_dndeleted_datanode5')} | `Empty container deleted` |
| context | {w('b2_back')} | leader: datanode3 HEALTHY READONLY |
| context | {w('b2_dnclosing')} | datanode3's replica CLOSING at BCSID {S} (dn-container) |
| **cause** | {w('b2_res')} | leader `transitionDeletingToClosed … for Container #{X} (DELETED, sid={S}) r0 (CLOSING, bcsid={S}, …, non-empty)` |
| (ignore) | {w('b2_res_follower_scm1')}, {w('b2_res_follower_scm3')} | follower copies |
| (ignore) | {w('b2_failed_scm1')}, {w('b2_failed_scm3')} | follower `SCM_NOT_LEADER: Failed to process …` |
| effect | {w('b2_closecmd')} | RM force close to datanode3 for CLOSED #{X} |
| effect | {w('b2_repl_datanode2')}, {w('b2_repl_datanode4')} | RM replicates the resurrected replica |
| effect | {w('b2_imported_datanode2')}, {w('b2_imported_datanode4')} | `Container imported` |

Leader identity: `scm2_1` lines `becomes leader of term 3` / `update <isLeader,term> from <false,0> to <true,3>` near the top of `docker-compose.log`.

## Templates
{tpl_table(['role','cand','leader','becomes','steps','changed','ctx','svc','stale','dead','hro','healthy','finalize','close','res21','failedicr','rmpass','rmsend','sbds','skipcommit','audit_reg','audit_close','dnc','fpb','follower_cc'])}

## Layouts and files
* `docker-compose.log`: console layout `%d{{ISO8601}} [%t] %p %c{{2}}: %m%n` (logger abbreviated to two segments, e.g.
  `container.IncrementalContainerReportHandler`, `server.RaftServer$Division`), compose v1 prefix `<service>_1` padded to the
  longest name + ` | `, every service in one stream, sorted by time as `docker-compose logs` would interleave them.
* `scmN/scm-audit-scmN.log` (audit layout, JSON params of 2.1.0; only REGISTER at cluster start 09:41 and one admin CLOSE_CONTAINER,
  since `docker-config` demotes SEND_HEARTBEAT to DEBUG), `datanodeN/dn-container-datanodeN.log`.
* Host names are the compose service names (`datanode3`), IPs on 172.25.0.0/24.

## 2.1.x wording: what is certain and what is assumed
* Certain (catalogue scm.md 2.3 version history and 5.4): the `transitionDeletingToClosed due to non-empty CLOSED replica (keyCount={{}}) for {{}}`
  text, that it says CLOSED whatever the replica state, that the target state is CLOSED, `<D>` with `sid=`, `Pipeline-<uuid>` ids (>= 2.1.0).
* Assumed from HEAD (the catalogue does not list 2.1.x for these): the follower line `SCM_NOT_LEADER: Failed to process {{}}`, the RM
  `Sending command […]` text and command toStrings, the node-handler lines, `DataChecksum=` in dn-container lines.
* The RM close command for a CLOSED container with a QUASI_CLOSED replica is printed with `force: true`; the catalogue does not say
  which value MismatchedReplicasHandler uses there.
* A real unpaused datanode would log a few more Ratis election attempts before its group is removed; their LeaderElection lines
  need the conf string, which the catalogue does not give, so they are left out.

{NOT_CATALOGUED}"""
    b.text("SOURCE.md", md)


def source3(b, c, v):
    X, S, Y = v["X"], v["S"], v["Y"]
    w = b.at
    md = f"""# HDDS-17400 control: stale CLOSED replica of a DELETED container is force-deleted (benign, scm.md 5.4)

EXPECTED `[]`.

## Story
Vendor-managed 2.2/HEAD cluster (`*.prod.example.net`), SCM leader `scm3` (term 11 from 01:30), six datanodes.
#{X} closes normally on dn2, dn5 and dn6 at BCSID {S} (02:14, `CLOSE … sid={S}`) and **dn5's replica is CLOSED too**.
02:40 dn5's host fails; 02:45 stale, 02:50 dead. 03:05 the blocks of #{X} are deleted on dn2/dn6, 03:37 RM deletes the
empty CLOSED container. 04:10 the management agent restarts dn5: REGISTER, HEALTHY READONLY, HEALTHY; its FCR carries
the CLOSED non-empty replica of #{X} with bcsid {S} == sid and an empty CLOSED replica of the long-deleted #{Y}.
The leader sends `forceDeleteContainerCommand` for #{X} and a normal `DeleteContainerCommand` for #{Y}; the followers take
the same branch and log `Skip sending DeleteContainerCommand … NotLeaderException`. dn5 logs `Container force deleted`.

## Why it is benign, and what a naive rule would flag
The container stays DELETED: the CLOSED replica with bcsid <= sid goes to the force-delete branch (HDDS-14416/HDDS-14684),
there is **no** `Resurrecting …` / `transitionDeletingToClosed` / `Moving container …` line anywhere.
A naive rule keyed on "DELETED container + non-empty replica from a datanode that was dead and came back" would flag
{w('b3_force')} (leader `Sending forceDeleteContainerCommand due to DELETED for Container #{X} (DELETED, sid={S}) r0 (CLOSED, bcsid={S}, …, non-empty)`)
together with {w('b3_dead')} / {w('b3_back')}.

| file:line | what it shows |
|---|---|
| {w('b3_close')} | leader: #{X} CLOSE at sid {S} (all three replicas CLOSED) |
| {w('b3_stale')}, {w('b3_dead')} | leader: dn5 stale, dead |
| {w('b3_delete_dn2')}, {w('b3_delete_dn6')} | RM deletes empty CLOSED #{X} |
| {w('b3_register')} | dn5 re-registers (audit) |
| {w('b3_back')} | dn5 HEALTHY READONLY |
| {w('b3_force')} | leader: force delete of the stale CLOSED replica (the look-alike) |
| {w('b3_delempty')} | leader: normal delete of an empty replica of DELETED #{Y} |
| {w('b3_skip_scm1')}, {w('b3_skip_scm2')} | followers: `Skip sending DeleteContainerCommand … NotLeaderException` |
| {w('b3_dnforce')} | dn5: `Container force deleted` |

## Templates
{tpl_table(['becomes','steps','changed','ctx','svc','role','cand','leader','stale','dead','hro','healthy','finalize','close','force','skip','rmpass','rmsend','sbds','skipcommit','audit_reg','dnc','fpb','dsm','follower_cc'])}

## Layouts and files
* Vendor layout without thread `%d{{ISO8601}} %p %c: %m%n`, role-named files in one flat folder:
  `hadoop-cmf-ozone-STORAGE_CONTAINER_MANAGER-<fqdn>.log.out` (+ `.log.out.1`), `hadoop-cmf-ozone-HDDS_DATANODE-<fqdn>.log.out`.
* `scm-audit-<fqdn>.log` (audit layout; SEND_HEARTBEAT demoted to DEBUG by the site config, so only REGISTER appears),
  `dn-container-<fqdn>.log`.
* The layout has no `%t`, so leadership must come from `becomes leader of term 11` / SCMContext lines in `…scm3….log.out.1`.

{NOT_CATALOGUED}"""
    b.text("SOURCE.md", md)


def source4(b, c, v):
    X, S, B = v["X"], v["S"], v["B"]
    w = b.at
    md = f"""# HDDS-17400 control: a replica with newer data of a DELETED container is force-deleted (2.2/HEAD)

EXPECTED `[]`.

## Story
2.2/HEAD cluster (`*.lab.example.org`), leader `scm2` (term 4 from 09:20), five datanodes.
#{X} (RATIS/THREE) is OPEN on dn2 (Ratis leader), dn3, dn5. At 10:12:31 its pipeline is closed at once (after a slow-follower
pipeline action of dn2; that WARN and the SCM pipeline handling are not reproduced, see below). Group removal wins over the Ratis
close on every member, so each replica quasi-closes at its own applied index: dn3 at 60391, dn5 at {S}, **dn2 (leader) at {B}**
(`Ratis group removed. Group id: …`). dn5's ICR gives `QUASI_CLOSE Container #{X} (CLOSING, sid={S}) …`; dn3's is silent.
dn2's host loses power at 10:12:31.5, right after it quasi-closed: its ICR never reaches SCM. dn2 stale 10:17, dead 10:22.
The old blocks of #{X} are deleted on dn3/dn5 (10:44); 11:21 EmptyContainerHandler deletes the empty QUASI_CLOSED container
(`Deleting empty QUASI_CLOSED container #{X} (container BCSID={S}, max replica BCSID={S}) … If resurrected, container will transition to QUASI_CLOSED`).
11:48 dn2 is back (restart, REGISTER, HEALTHY READONLY, HEALTHY). Its FCR carries the **non-empty QUASI_CLOSED replica with
BCSID {B} > {S}**. `updateContainerStats` first raises the sid to {B}, so the bcsid <= sid branch runs: the leader force-deletes it
(`Sending forceDeleteContainerCommand due to DELETED for Container #{X} (DELETED, sid={B}) r0 (QUASI_CLOSED, bcsid={B}, …, non-empty)`),
followers log `Skip sending DeleteContainerCommand …`, dn2 logs `Container force deleted`.

## Why it is not this bug
This is the force-delete branch of HDDS-11136/HDDS-14684 working as designed today (the sid-raise before the check is
HDDS-16809, a different issue): the container stays DELETED, nothing is resurrected, there is no `Resurrecting …` line.
A naive rule that looks at "non-empty replica of a DELETED container from a returning dead datanode with a BCSID that differs from
the earlier sid" would flag {w('b4_force')}.

| file:line | what it shows |
|---|---|
| {w('b4_dnqc_dn2')} | dn2 quasi-closes at {B} (newer data) |
| {w('b4_dnqc_dn5')}, {w('b4_dnqc_dn3')} | dn5 at {S}, dn3 at 60391 |
| {w('b4_qc')} | leader: `QUASI_CLOSE … sid={S}` |
| {w('b4_stale')}, {w('b4_dead')} | leader: dn2 stale, dead |
| {w('b4_deleting')} | leader: `Deleting empty QUASI_CLOSED container #{X} (container BCSID={S}, …)` |
| {w('b4_delete_dn3')}, {w('b4_delete_dn5')} | RM delete commands |
| {w('b4_register')}, {w('b4_back')} | dn2 returns |
| {w('b4_force')} | leader: force delete with `sid={B}` (raised), `bcsid={B}` (the look-alike) |
| {w('b4_skip_scm1')}, {w('b4_skip_scm3')} | followers skip the delete |
| {w('b4_dnforce')} | dn2: `Container force deleted` |

## Templates
{tpl_table(['role','cand','leader','becomes','steps','changed','ctx','svc','stale','dead','hro','healthy','finalize','close','qclose','emptyqc','force','skip','rmpass','rmsend','sbds','skipcommit','audit_reg','dnc','fpb','dsm','follower_cc'])}

## Layouts and files
* RFA layout with full logger and thread, one flat folder, daemon user `ozone`: `ozone-ozone-scm-scmN.log` and its older rotation
  `ozone-ozone-scm-scmN.log.1`, `ozone-ozone-datanode-dnN.log`, `scm-audit-scmN.log`, `dn-container-dnN.log`, `conf/ozone-site.xml`.

## Left out on purpose
* The slow-follower pipeline action that closed the pipeline: the DN WARN `pipeline Action {{}} on pipeline {{}}.Reason : {{}}` needs the
  `handlePipelineFailure` reason whose first part (`name`) the catalogue does not resolve, and the SCM-side handler line is not catalogued.

{NOT_CATALOGUED}"""
    b.text("SOURCE.md", md)


def source5(b, c, v):
    X, S, B = v["X"], v["S"], v["B"]
    w = b.at
    md = f"""# HDDS-17400 control: an empty QUASI_CLOSED container is deleted and resurrected by a replica with newer data (HDDS-14684, designed)

EXPECTED `[]`.

## Story
2.2/HEAD cluster (`*.dc2.example.com`), leader `scm3` (term 9 from 12:55), six datanodes.
#{X} is OPEN on dn1 (Ratis leader), dn2, dn3. At 13:40 a firewall change rejects dn1's traffic to the SCM ports (dn1 keeps talking to
dn2/dn3 and to the client): dn1 logs `Unable to communicate to SCM server … past N seconds.` (Connection refused) every 300 s per SCM.
13:45 the SCMs mark dn1 stale and finalize its pipelines. The containers go CLOSING; only the Ratis leader could close them, and it
gets no commands, so dn2/dn3 log `Follower cannot close container #{X}.`. When the pipeline is closed on the followers, dn2's group is
removed first (quasi-closed at 88190, `QUASI_CLOSE … sid=88190` on every SCM), dn3's 21 s later at {S} (its ICR raises the sid to {S}
silently); the client's last PutBlock at index {B} is committed by dn1+dn3 and applied on dn1 only. dn1 steps down
(`LOST_MAJORITY_HEARTBEATS`); 13:50 dn1 is dead. The old blocks are deleted on dn2/dn3 (14:02), and at 14:22 EmptyContainerHandler deletes the
empty QUASI_CLOSED container: `Deleting empty QUASI_CLOSED container #{X} (container BCSID={S}, max replica BCSID={S}) … If resurrected, container will transition to QUASI_CLOSED`.
14:31 dn1 is rebooted with the fixed firewall: REGISTER, HEALTHY READONLY, HEALTHY. Its FCR carries the OPEN replica with the live block
(keyCount=1, **BCSID {B} > {S}**), and the leader resurrects #{X} to QUASI_CLOSED, as HDDS-14684 designed. The `sid=` in that line is
already {B} because `updateContainerStats` raised it. RM closes the replica and replicates it (single origin).

## Why it is benign, and what a naive rule would flag
The resurrecting replica holds **newer** data than the container had when it was deleted: {B} > {S}, and {S} is printed before the
deletion ({w('b5_deleting')}, also 88190 at {w('b5_qc')}). The `Deleting empty QUASI_CLOSED container … If resurrected, container will
transition to QUASI_CLOSED` line announces exactly this resurrection. A naive rule would flag {w('b5_res')}
(`Resurrecting container #{X} from DELETED to QUASI_CLOSED due to non-empty OPEN replica (keyCount=1, BCSID={B}) from Container #{X} (DELETED, sid={B}) r0 (OPEN, bcsid={B}, …)`):
OPEN replica, bcsid == sid in the line, from a datanode that was dead ({w('b5_dead')}) and came back ({w('b5_back')}), followed by close and
replication. The discriminator is the earlier printed sequence id ({S} < {B}).

| file:line | what it shows |
|---|---|
| {w('b5_stale')} | leader: dn1 stale, pipelines finalized |
| {w('b5_dnqc_dn2')}, {w('b5_dnqc_dn3')} | dn2 quasi-closed at 88190, dn3 at {S} |
| {w('b5_qc')} | leader: `QUASI_CLOSE … sid=88190` |
| {w('b5_dead')} | leader: dn1 dead |
| {w('b5_deleting')} | leader: `Deleting empty QUASI_CLOSED container #{X} (container BCSID={S}, max replica BCSID={S}) …` |
| {w('b5_delete_dn2')}, {w('b5_delete_dn3')} | RM delete commands |
| {w('b5_register')}, {w('b5_back')} | dn1 returns |
| {w('b5_res')} | leader: the designed resurrection (look-alike) |
| {w('b5_res_follower_scm1')}, {w('b5_res_follower_scm2')}; {w('b5_failed_scm1')}, {w('b5_failed_scm2')} | follower copies + `Failed to process` stacks |
| {w('b5_closecmd')}, {w('b5_repl_dn4')}, {w('b5_repl_dn5')} | RM close and replicate |
| {w('b5_dnqc_dn1')} | dn1's replica quasi-closed at {B} |

Other rules: dn1's `Unable to communicate` WARNs are connection-refused failures (the heartbeat fails fast), with **no**
`Detected timeout` line and no dn-container change on dn1 during the outage, so `dropped-actions` must not fire either.

## Templates
{tpl_table(['role','cand','leader','becomes','steps','changed','ctx','svc','stale','dead','hro','healthy','finalize','close','qclose','emptyqc','res','failed','rmpass','rmsend','sbds','skipcommit','audit_reg','dnc','fpb','dsm','pipe','unable','follower_cc'])}

## Layouts and files
* RFA layout (full logger, thread), one folder per host, classic rotation names: `scmN/ozone-hadoop-scm-scmN.log` + `.log.1`,
  `dnN/ozone-hadoop-datanode-dnN.log`, `scmN/scm-audit-scmN.log`, `dnN/dn-container-dnN.log`, `conf/ozone-site.xml`.

## Left out on purpose
* dn1's repeated Ratis election attempts after it stepped down (LeaderElection lines need the conf string, not in the catalogue).
* The `Connection refused` exception text and frames follow Hadoop's `NetUtils.wrapException` wording (not in the catalogue beyond the
  example's first line).

{NOT_CATALOGUED}"""
    b.text("SOURCE.md", md)


if __name__ == "__main__":
    for fn, src in ((bundle1, source1), (bundle2, source2), (bundle3, source3), (bundle4, source4), (bundle5, source5)):
        b, c, info = fn()
        src(b, c, info)
        print(b.name, sum(n for _, n in b.files), "lines")
