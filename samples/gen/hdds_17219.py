#!/usr/bin/env python3
"""Sample bundles for rule `overwritten-op-state` (HDDS-17219, SCM HA).

Python 3.11 standard library only, deterministic (fixed seeds); layouts and files through ozlog.
Run from anywhere:  python3 samples/gen/hdds_17219.py
It rewrites samples/HDDS-17219-*/ next to this script's parent folder.

Every message template below is copied from /work/shared/ozone-logs/scm.md (section numbers in
the comments) or, for the Ratis lines, from apache/ratis RaftServerImpl.setRole /
ServerState.setLeader. A small discrete-event simulation of three SCMs (role, term, in-memory
op state per datanode, admin monitor tracked/pending/cancelled sets) and five datanodes
(persisted op state, heartbeats every 30 s to every SCM) decides which line each host prints.
"""
import heapq
import random
import uuid

from ozlog import loggers as L
from ozlog.bundle import (BundleDir, audit_rollover, compose_entries, compose_v2_prefixes, daemon_log, finding,
                          rfa_backup)
from ozlog.log4j import LAYOUTS, audit_lines, audit_msg, epoch_ms, from_epoch_ms, json_params, log_lines, parse_time
from ozlog.ozone import (RM_RUNNING, SBDS_RUNNING, affinity_executor, ctx_leader, ctx_ready, datanode_details,
                         dead_node, healthy_node, ipc_handler, leader_change, member_id, not_finalized, queue_cleared,
                         random_uuid, ratis_group, replica_details, rm_pass, role_change, scm_becomes_leader,
                         scm_leader_changed, scm_steps_down, stale_node)

RULE = "overwritten-op-state"

# ----------------------------------------------------------------------------------------------
ADMIN_STATES = ("DECOMMISSIONING", "ENTERING_MAINTENANCE", "IN_MAINTENANCE")
HB_MS = 30000       # hdds.heartbeat.interval default 30s
MON_MS = 30000      # ozone.scm.datanode.admin.monitor.interval default 30s


def ms_of(date, hms, ms=0):
    """Epoch milliseconds (the simulation's clock) of `date hms` UTC, plus ms."""
    return epoch_ms(parse_time("%s %s.000" % (date, hms))) + ms


def tracked_hex(u):
    """TrackedNode@<hex>: UUID.hashCode() (scm.md §3)."""
    v = uuid.UUID(u).int
    hilo = (v >> 64) ^ (v & ((1 << 64) - 1))
    return format(((hilo >> 32) ^ hilo) & 0xFFFFFFFF, "x")


class Node:
    def __init__(self, name, uid, host, ip):
        self.name, self.uid, self.host, self.ip = name, uid, host, ip

    def __str__(self):
        return datanode_details(self.uid, self.host, self.ip)

    @property
    def tracked(self):
        return "org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl$TrackedNode@" + tracked_hex(self.uid)


class Scm:
    def __init__(self, name, sid, host, ip, group, skew):
        self.name, self.sid, self.host, self.ip, self.skew = name, sid, host, ip, skew
        self.mid = member_id(sid, group)


class Cluster:
    def __init__(self, seed, dn_hosts, dn_ips, scm_hosts, scm_ips, skews):
        rng = random.Random(seed)
        cid = random_uuid(rng)
        self.cluster_id = "CID-" + cid
        self.group = ratis_group(cid)
        self.scms = [Scm("scm%d" % (i + 1), random_uuid(rng), scm_hosts[i], scm_ips[i], self.group, skews[i])
                     for i in range(3)]
        self.dns = [Node("dn%d" % (i + 1), random_uuid(rng), dn_hosts[i], dn_ips[i]) for i in range(len(dn_hosts))]
        self.pipes = {}
        self.rng = rng

    def scm(self, name):
        return next(s for s in self.scms if s.name == name)

    def dn(self, name):
        return next(d for d in self.dns if d.name == name)

    def new_pipe(self, members):
        pid = "Pipeline-" + random_uuid(self.rng)
        self.pipes[pid] = list(members)
        return pid


# ----------------------------------------------------------------------------------------------
class Sim:
    """Discrete-event model of the SCM-side op-state handling (scm.md §4.1)."""

    def __init__(self, cl, seed, start, end, leader, term, cmd_base):
        self.cl, self.rng = cl, random.Random(seed)
        self.start, self.end = start, end
        self.q, self.seq = [], 0
        self.recs = {s.name: [] for s in cl.scms}
        self.role = {s.name: ("L", term) if s.name == leader else ("F", 0) for s in cl.scms}
        self.ready = {s.name: s.name == leader for s in cl.scms}
        ins = ("IN_SERVICE", 0)
        self.stored = {s.name: {d.name: ins for d in cl.dns} for s in cl.scms}
        self.lastrep = {s.name: {d.name: ins for d in cl.dns} for s in cl.scms}
        self.dnstate = {d.name: ins for d in cl.dns}
        self.health = {s.name: {d.name: "HEALTHY" for d in cl.dns} for s in cl.scms}
        self.alive = {d.name: True for d in cl.dns}
        self.tracked = {s.name: [] for s in cl.scms}
        self.pending = {s.name: [] for s in cl.scms}
        self.cancelled = {s.name: [] for s in cl.scms}
        self.open_pipes = set(cl.pipes)
        self.apply_override = {}    # dn -> absolute apply time of the next command
        self.race_write_delay = {}  # (scm, dn) -> ms between abort WARN and the IN_SERVICE write
        self.after_tick = {}        # (scm, t_tick) -> callable
        self.pipe_close_delay = 1800
        self.counts = {}            # dn -> fn(scm, t) -> (suff, deleting, under, unclosed)
        self.cmdid = cmd_base
        self.ipc = {s.name: self.rng.randrange(0, 10) for s in cl.scms}
        self.tags = {}
        self.hb_hook = {}           # (scm, dn) -> (from_t, fn(t)) replaces one heartbeat's processing
        self.hb_phase = {}
        self.mon_phase = {}
        self.affinity = {d.name: i % 4 for i, d in enumerate(cl.dns)}

    # -- event queue --
    def at(self, t, fn, *args):
        self.seq += 1
        heapq.heappush(self.q, (t, self.seq, fn, args))

    def run(self):
        while self.q:
            t, _, fn, args = heapq.heappop(self.q)
            if t > self.end:
                break
            self.now = t
            fn(t, *args)

    # -- records --
    def log(self, s, t, thread, level, logger, msg, cont=None, tag=None):
        self.seq += 1
        r = dict(t=t, seq=self.seq, kind="main", thread=thread, level=level, logger=logger, msg=msg,
                 cont=cont or [], tag=tag)
        self.recs[s].append(r)
        return r

    def audit(self, s, t, user, ip, op, params, tag=None):
        self.seq += 1
        r = dict(t=t, seq=self.seq, kind="audit", level="INFO", msg=audit_msg(user, ip, op, params, "SUCCESS"), tag=tag)
        self.recs[s].append(r)
        return r

    def tag(self, name, rec):
        self.tags.setdefault(name, []).append(rec)

    # -- helpers --
    def ipc_thread(self, s, port=9861):
        self.ipc[s] = (self.ipc[s] + self.rng.choice([1, 2, 3, 5, 7])) % 10
        return ipc_handler(self.ipc[s] if port == 9861 else self.ipc[s] % 4, port)

    def ev_thread(self, s, what):
        return "%s-EventQueue-%s" % (s, what)

    def is_leader(self, s):
        return self.role[s][0] == "L"

    def leader(self):
        for s, r in self.role.items():
            if r[0] == "L":
                return s
        return None

    def moved_healthy(self, s, t, d):
        # ReadOnlyHealthyToHealthyNodeHandler INFO (scm.md §2.2): fires on every op-state change
        # of a HEALTHY node.
        if self.health[s][d.name] == "HEALTHY":
            return self.log(s, t, self.ev_thread(s, "HealthyReadonlyToHealthyNodeForReadOnlyHealthyToHealthyNodeHandler"),
                            "INFO", L.READONLY_TO_HEALTHY_HANDLER, healthy_node(d))
        if self.health[s][d.name] == "DEAD":
            # NodeStateManager.setNodeOperationalState fires the event of the node's current health:
            # DEAD_NODE -> DeadNodeHandler runs again.
            self.dead_lines(s, t, d)

    def write_op(self, s, t, d, state, expiry=0):
        old = self.stored[s][d.name]
        self.stored[s][d.name] = (state, expiry)
        if old != (state, expiry) and old[0] != state:
            self.at(t + 1, lambda tt, s=s, d=d: self.moved_healthy(s, tt, d))

    # -- datanode heartbeats (scm.md §2.2 SCMNodeManager, §1.2 SEND_HEARTBEAT audit) --
    def schedule_heartbeats(self, phases):
        for d in self.cl.dns:
            ph = phases[d.name]
            self.hb_phase[d.name] = ph
            t = self.start + ph
            while t <= self.end:
                self.at(t, self.hb_round, d)
                t += HB_MS

    def hb_round(self, t, d, extra=None):
        if not self.alive[d.name]:
            return
        for s in self.cl.scms:
            self.at(t + self.rng.randrange(2, 40), self.hb_at, d, s.name)
        if extra:
            extra(t)

    def cmd_entry(self, state, expiry, term):
        self.cmdid += self.rng.randrange(3, 4000)
        return ("commandType: setNodeOperationalStateCommand setNodeOperationalStateCommandProto { cmdId: %d "
                "nodeOperationalState: %s stateExpiryEpochSeconds: %d } term: %d encodedToken: \"\" "
                "deadlineMsSinceEpoch: 0" % (self.cmdid, state, expiry, term))

    def hb_at(self, t, d, s):
        hook = self.hb_hook.get((s, d.name))
        if hook and t >= hook[0]:
            del self.hb_hook[(s, d.name)]
            return hook[1](t)
        rep = self.dnstate[d.name]
        st = self.stored[s][d.name]
        th = self.ipc_thread(s)
        cmds = []
        role, term = self.role[s]
        last = self.lastrep[s][d.name]
        if role == "L":
            if rep[0] != last[0] and rep[0] in ("ENTERING_MAINTENANCE", "DECOMMISSIONING", "IN_SERVICE"):
                r = self.log(s, t, th, "INFO", L.NODE_MANAGER, "Notifying ReplicationManager of node state change for %s: %s -> %s"
                             % (d, last[0], rep[0]))
                self.tag("notify:%s:%s:%s>%s" % (s, d.name, last[0], rep[0]), r)
            if rep != st:
                r = self.log(s, t, th, "INFO", L.NODE_MANAGER,
                             "Scheduling a command to update the operationalState persisted on %s as the reported value "
                             "(%s, %d) does not match the value stored in SCM (%s, %d)" % (d, rep[0], rep[1], st[0], st[1]))
                self.tag("sched:%s:%s:%s>%s" % (s, d.name, rep[0], st[0]), r)
                cmds.append(self.cmd_entry(st[0], st[1], term))
                ap = None
                ov = self.apply_override.get(d.name)
                if ov is not None and t >= ov[0]:   # (not_before, apply_at)
                    ap = self.apply_override.pop(d.name)[1]
                if ap is None:
                    ap = t + self.rng.randrange(700, 1400)
                self.at(ap, self.dn_apply, d, st)
        else:
            if rep != st:
                r = self.log(s, t, th, "INFO", L.NODE_MANAGER,
                             "Update the operationalState saved in follower SCM for %s as the reported value (%s, %d) "
                             "does not match the value stored in SCM (%s, %d)" % (d, rep[0], rep[1], st[0], st[1]))
                self.tag("copy:%s:%s:%s>%s" % (s, d.name, st[0], rep[0]), r)
                self.write_op(s, t, d, rep[0], rep[1])
        self.lastrep[s][d.name] = rep
        if role == "L":
            params = {"datanodeUUID": d.uid, "term": str(term), "command": "[" + ", ".join(cmds) + "]"}
        else:
            params = {"datanodeUUID": d.uid, "command": "[]"}
        r = self.audit(s, t + self.rng.randrange(0, 2), "hadoop", d.ip, "SEND_HEARTBEAT",
                       json_params(params))
        if cmds:
            self.tag("hbcmd:%s:%s" % (s, d.name), r)

    def dn_apply(self, t, d, state):
        self.dnstate[d.name] = state

    # -- admin monitor (scm.md §2.2 DatanodeAdminMonitorImpl, code order: cancelled, pending,
    #    transitioning, summary) --
    def schedule_monitor(self, phases):
        for s in self.cl.scms:
            t = self.start + phases[s.name]
            self.mon_phase[s.name] = phases[s.name]
            while t <= self.end:
                self.at(t, self.tick, s.name)
                t += MON_MS

    def tick(self, t, s):
        th = "%s-DatanodeAdminManager-0" % s
        tt = t
        for d in list(self.cancelled[s]):
            self.cancelled[s].remove(d)
            if d in self.tracked[s]:
                self.tracked[s].remove(d)
            self.write_op(s, tt, d, "IN_SERVICE", 0)
            r = self.log(s, tt, th, "INFO", L.ADMIN_MONITOR, "Recommissioned node %s" % d.tracked)
            self.tag("recommissioned:%s:%s" % (s, d.name), r)
            tt += 1
        for d in list(self.pending[s]):
            self.pending[s].remove(d)
            self.at(tt + 2, self.admin_start, s, d)
            if d not in self.tracked[s]:
                self.tracked[s].append(d)
        for d in list(self.tracked[s]):
            st = self.stored[s][d.name]
            tt += self.rng.randrange(1, 3)
            if st[0] not in ADMIN_STATES:
                r = self.log(s, tt, th, "WARN", L.ADMIN_MONITOR,
                             "Datanode %s has an operational state of %s when it should be undergoing decommission or "
                             "maintenance. Aborting admin for this node." % (d, st[0]))
                self.tag("abort:%s:%s" % (s, d.name), r)
                self.tracked[s].remove(d)
                race = self.race_write_delay.pop((s, d.name), None)
                if race is None:
                    self.write_op(s, tt, d, "IN_SERVICE", 0)
                else:
                    # the heartbeat thread runs between the monitor's status read and its write
                    delay, during = race
                    during(tt)
                    self.at(tt + delay, lambda x, s=s, d=d: self.write_op(s, x, d, "IN_SERVICE", 0))
                    tt += delay + 1
                continue
            if self.health[s][d.name] == "DEAD" and st[0] != "IN_MAINTENANCE":
                r = self.log(s, tt, th, "ERROR", L.ADMIN_MONITOR, "Datanode %s is dead but is not IN_MAINTENANCE. Aborting the admin "
                             "workflow for this node" % d)
                self.tag("deadabort:%s:%s" % (s, d.name), r)
                self.tracked[s].remove(d)
                self.write_op(s, tt, d, "IN_SERVICE", 0)
                continue
            if st[0] == "IN_MAINTENANCE":
                continue
            pl = [p for p in self.cl.pipes if p in self.open_pipes and d.name in self.cl.pipes[p]]
            if pl:
                self.log(s, tt, th, "INFO", L.ADMIN_MONITOR, "Waiting for pipelines to close for %s. There are %d pipelines"
                         % (d.tracked, len(pl)))
                continue
            if self.lastrep[s][d.name][0] != st[0]:
                continue
            c = self.counts.get(d.name, lambda s_, t_: (40, 0, 0, 0))(s, t)
            self.log(s, tt, th, "INFO", L.ADMIN_MONITOR, "%s has %d sufficientlyReplicated, %d deleting, %d underReplicated and %d "
                     "unclosed containers" % ((d.tracked,) + tuple(c)))
            if c[2] == 0 and c[3] == 0:
                if st[0] == "DECOMMISSIONING":
                    self.write_op(s, tt, d, "DECOMMISSIONED", 0)
                    r = self.log(s, tt, th, "INFO", L.ADMIN_MONITOR, "Datanode %s has completed the admin workflow. The operational "
                                 "state has been set to DECOMMISSIONED" % d)
                    self.tag("completed:%s:%s" % (s, d.name), r)
                    self.tracked[s].remove(d)
                else:
                    r = self.log(s, tt, th, "INFO", L.ADMIN_MONITOR, "Datanode %s has entered maintenance" % d)
                    self.tag("entered:%s:%s" % (s, d.name), r)
                    self.write_op(s, tt, d, "IN_MAINTENANCE", st[1])
        if self.tracked[s] or self.pending[s]:
            tt += self.rng.randrange(1, 4)
            r = self.log(s, tt, th, "INFO", L.ADMIN_MONITOR, "There are %d nodes tracked for decommission and maintenance.  %d pending "
                         "nodes." % (len(self.tracked[s]), len(self.pending[s])))
            self.tag("there-are:%s" % s, r)
        cb = self.after_tick.pop((s, t), None)
        if cb:
            cb(tt)

    def admin_start(self, t, s, d):
        pl = [p for p in self.cl.pipes if p in self.open_pipes and d.name in self.cl.pipes[p]]
        th = self.ev_thread(s, "StartAdminOnNodeForStartDatanodeAdminHandler")
        r = self.log(s, t, th, "INFO", L.START_ADMIN_HANDLER, "Admin start on datanode %s. Finalizing its pipelines [%s]" % (d, ", ".join(pl)))
        self.tag("adminstart:%s:%s" % (s, d.name), r)
        if self.is_leader(s):
            for p in pl:
                self.at(t + self.pipe_close_delay + self.rng.randrange(0, 300), self.close_pipe, p)
        else:
            for i, p in enumerate(pl):
                self.log(s, t + 3 + i, th, "INFO", L.START_ADMIN_HANDLER, not_finalized(p, d))

    def close_pipe(self, t, p):
        self.open_pipes.discard(p)

    # -- admin RPCs on the leader (scm.md §2.2 NodeDecommissionManager, §1.2 audit) --
    def decommission(self, t, s, d, typed, admin_ip="10.0.0.21"):
        th = self.ipc_thread(s, 9860)
        self.log(s, t, th, "INFO", L.DECOMMISSION_MANAGER, "Force flag = false. Checking if decommission is possible for dns: [%s]" % d)
        r = self.log(s, t + 11, th, "INFO", L.DECOMMISSION_MANAGER, "Starting Decommission for node %s" % d)
        self.tag("startdecom:%s:%s" % (s, d.name), r)
        self.write_op(s, t + 11, d, "DECOMMISSIONING", 0)
        self.pending[s].append(d)
        r = self.audit(s, t + 13, "hadoop", admin_ip, "DECOMMISSION_NODES",
                       '{"nodes":"[%s]","force":"false"}' % typed)
        self.tag("auditdecom:%s:%s" % (s, d.name), r)

    def recommission(self, t, s, d, typed, admin_ip="10.0.0.21"):
        th = self.ipc_thread(s, 9860)
        r = self.log(s, t, th, "INFO", L.DECOMMISSION_MANAGER, "Queued node %s for recommission" % d)
        self.tag("queued:%s:%s" % (s, d.name), r)
        if d in self.pending[s]:
            self.pending[s].remove(d)
        self.cancelled[s].append(d)
        r = self.audit(s, t + 8, "hadoop", admin_ip, "DECOMMISSION_NODES", '{"nodes":"[%s]"}' % typed)
        self.tag("auditrecom:%s:%s" % (s, d.name), r)

    def start_maintenance(self, t, s, d, typed, hours, admin_ip="10.0.0.21"):
        th = self.ipc_thread(s, 9860)
        expiry = (t // 1000) + hours * 3600
        self.log(s, t, th, "INFO", L.DECOMMISSION_MANAGER, "Force flag = false. Checking if maintenance is possible for dns: [%s]" % d)
        self.write_op(s, t + 9, d, "ENTERING_MAINTENANCE", expiry)
        self.log(s, t + 10, th, "INFO", L.DECOMMISSION_MANAGER, "Starting Maintenance for node %s" % d)
        self.pending[s].append(d)
        self.audit(s, t + 12, "hadoop", admin_ip, "START_MAINTENANCE_NODES",
                   '{"endInHours":"%d","nodes":"[%s]","force":"false"}' % (hours, typed))

    # -- leadership (scm.md §2.1; Ratis RaftServerImpl.setRole pads the old role to 9) --
    def _role_line(self, s, t, th, old, new, term, reason):
        sc = self.cl.scm(s)
        return self.log(s, t, th, "INFO", L.RAFT_DIVISION, role_change(sc.mid, old, new, term, reason))

    def step_down(self, t, s, reason="StepDownReason:JVM_PAUSE"):
        sc = self.cl.scm(s)
        term = self.role[s][1]
        th = sc.mid + "-LeaderStateImpl"
        r = self._role_line(s, t, th, "LEADER", "FOLLOWER", term, reason)
        self.tag("raft-stepdown:%s" % s, r)
        r = self.log(s, t + 1, th, "INFO", L.SCM_STATE_MACHINE, scm_steps_down(sc.sid))
        self.tag("stepdown:%s" % s, r)
        r = self.log(s, t + 1, th, "INFO", L.SCM_CONTEXT, ctx_leader(True, term, False, 0))
        self.tag("ctx-false:%s" % s, r)
        self.log(s, t + 1, th, "INFO", L.SCM_CONTEXT, ctx_ready(True, False))
        self.log(s, t + 2, th, "INFO", L.RAFT_DIVISION, leader_change(sc.mid, sc.sid, "null", term, reason))
        self.role[s] = ("F", 0)
        self.ready[s] = False

    def to_candidate(self, t, s, term, election_no, known_leader=None):
        sc = self.cl.scm(s)
        self._role_line(s, t, sc.mid + "-FollowerState", "FOLLOWER", "CANDIDATE", term, "changeToCandidate")
        if known_leader:  # ServerState.initElection -> setLeader(null, phase)
            self.log(s, t + 2, "%s-LeaderElection%d" % (sc.mid, election_no), "INFO", L.RAFT_DIVISION,
                     leader_change(sc.mid, self.cl.scm(known_leader).sid, "null", term, "PRE_VOTE"))

    def candidate_to_follower(self, t, s, term, reason, th=None):
        sc = self.cl.scm(s)
        self._role_line(s, t, th or (sc.mid + "-LeaderElection%d" % self.rng.randrange(20, 90)), "CANDIDATE",
                        "FOLLOWER", term, reason)

    def become_leader(self, t, s, term, election_no, elected_after):
        sc = self.cl.scm(s)
        th = "%s-LeaderElection%d" % (sc.mid, election_no)
        r = self._role_line(s, t, th, "CANDIDATE", "LEADER", term, "changeToLeader")
        self.tag("raft-leader:%s" % s, r)
        # ServerState.setLeader calls notifyLeaderChanged before it logs "change Leader"
        r = self.log(s, t + 1, th, "INFO", L.SCM_STATE_MACHINE, scm_becomes_leader(sc.sid, term))
        self.tag("becomes-leader:%s" % s, r)
        r = self.log(s, t + 1, th, "INFO", L.SCM_CONTEXT, ctx_leader(False, 0, True, term))
        self.tag("ctx-true:%s" % s, r)
        self.role[s] = ("L", term)
        tt = t + 2
        for d in self.cl.dns:  # NodeDecommissionManager.onBecomeLeader -> continueAdminForNode
            if self.stored[s][d.name][0] in ADMIN_STATES:
                r = self.log(s, tt, th, "INFO", L.DECOMMISSION_MANAGER, "Continue admin for datanode %s" % d)
                self.tag("continue:%s:%s" % (s, d.name), r)
                if d not in self.pending[s]:
                    self.pending[s].append(d)
                tt += 1
        self.log(s, tt + 1, th, "INFO", L.RAFT_DIVISION, leader_change(sc.mid, "null", sc.sid, term, "becomeLeader", elected_after))
        self.at(tt + self.rng.randrange(90, 160), self.leader_ready, s)

    def leader_ready(self, t, s):
        sc = self.cl.scm(s)
        th = sc.mid + "-StateMachineUpdater"
        self.log(s, t, th, "INFO", L.SCM_CONTEXT, ctx_ready(False, True))
        self.log(s, t + 1, th, "INFO", L.REPLICATION_MANAGER, RM_RUNNING)
        self.log(s, t + 2, th, "INFO", L.BLOCK_DELETING_SERVICE, SBDS_RUNNING)
        self.ready[s] = True

    def follower_learns(self, t, s, leader, term, elected_after, th=None):
        sc, lc = self.cl.scm(s), self.cl.scm(leader)
        th = th or "%s-server-thread%d" % (sc.sid, self.rng.randrange(1, 6))
        r = self.log(s, t, th, "INFO", L.SCM_STATE_MACHINE, scm_leader_changed(lc.sid, sc.sid))
        self.tag("leader-changed:%s" % s, r)
        self.log(s, t, th, "INFO", L.RAFT_DIVISION, leader_change(sc.mid, "null", lc.sid, term, "appendEntries", elected_after))

    def follower_new_term(self, t, s, old_leader, term, th=None):
        # ServerState.updateCurrentTerm -> setLeader(null, "updateCurrentTerm") on a vote request of a higher term
        sc = self.cl.scm(s)
        th = th or "%s-server-thread%d" % (sc.sid, self.rng.randrange(1, 6))
        self.log(s, t, th, "INFO", L.RAFT_DIVISION, leader_change(sc.mid, self.cl.scm(old_leader).sid, "null", term, "updateCurrentTerm"))

    def failover(self, old, new, term, election_no, t_candidate, t_third, t_elected, t_learns, t_down=None,
                 down_since=None):
        """A leader change (epoch-ms times): `old` steps down at t_down (JVM pause) unless it already did
        at down_since; `new` becomes a candidate and wins `term`; the third SCM moves to the new term on
        new's vote request; then the third and the old leader learn the leader (t_learns)."""
        third = next(x.name for x in self.cl.scms if x.name not in (old, new))
        if t_down is not None:
            self.at(t_down, lambda t: self.step_down(t, old))
            elected_from, old_from, known = t_candidate + 2, t_down + 2, old
        else:
            elected_from = old_from = down_since
            known = None
        self.at(t_candidate, lambda t: self.to_candidate(t, new, term - 1, election_no, known_leader=known))
        self.at(t_third, lambda t: self.follower_new_term(t, third, old, term))
        self.at(t_elected, lambda t: self.become_leader(t, new, term, election_no, t - elected_from))
        self.at(t_learns[0], lambda t: self.follower_learns(t, third, new, term, t - t_third))
        self.at(t_learns[1], lambda t: self.follower_learns(t, old, new, term, t - old_from))

    def wins_back(self, new, term, election_no, t_candidate, rival, t_yield, yield_thread, t_elected, down_since,
                  learners):
        """`new`, which stepped down at down_since, wins `term` back: `rival`, a candidate too, steps back
        on new's vote request (on its server thread yield_thread); learners: (scm, when it learns the
        leader, when it became a candidate itself, its thread or None)."""
        self.at(t_candidate, lambda t: self.to_candidate(t, new, term - 1, election_no))
        self.at(t_yield, lambda t: self.candidate_to_follower(t, rival, term - 1, "candidate:" + self.cl.scm(new).sid,
                                                              th="%s-server-thread%d" % (self.cl.scm(rival).sid, yield_thread)))
        self.at(t_elected, lambda t: self.become_leader(t, new, term, election_no, t - (down_since + 2)))
        for s, t_learns, candidacy, th in learners:
            self.at(t_learns, lambda t, s=s, candidacy=candidacy, th=th:
                    self.follower_learns(t, s, new, term, t - (candidacy + 2), th=th))

    def icr_races_abort(self, t_icr, cid, sid, d, others, close_after, s, write_delay):
        """Container `cid` on datanode d turns CLOSING (replicas d + others): the ICR triggers an early
        heartbeat round, and the round reaches SCM `s` between its admin monitor's status read and its
        IN_SERVICE write (write_delay ms later) (scm.md §4.2 steps 5, 6)."""
        self.at(t_icr, lambda t: self.container_close(t, cid, sid, [d] + others, close_after=close_after))

        def triggered(t):
            for x in self.cl.scms:
                if x.name != s:
                    self.at(t + self.rng.randrange(4, 30), self.hb_at, d, x.name)
        self.at(t_icr, triggered)
        self.race_write_delay[(s, d.name)] = (write_delay, lambda tt: self.hb_at(tt + 1, d, s))

    # -- health (scm.md §2.2 *NodeHandler) --
    def stale(self, t, d):
        for s in self.cl.scms:
            tt = t + s.skew // 10 + self.rng.randrange(0, 400)
            pl = [p for p in self.cl.pipes if p in self.open_pipes and d.name in self.cl.pipes[p]]
            self.health[s.name][d.name] = "STALE"
            self.log(s.name, tt, self.ev_thread(s.name, "StaleNodeForStaleNodeHandler"), "INFO", L.STALE_NODE_HANDLER,
                     stale_node(d, pl))

    def dead(self, t, d):
        for s in self.cl.scms:
            tt = t + self.rng.randrange(0, 400)
            self.health[s.name][d.name] = "DEAD"
            r = self.dead_lines(s.name, tt, d)
            self.tag("dead:%s:%s" % (s.name, d.name), r)

    def dead_lines(self, s, t, d):
        th = self.ev_thread(s, "DeadNodeForDeadNodeHandler")
        r = self.log(s, t, th, "INFO", L.DEAD_NODE_HANDLER, dead_node(d))
        self.log(s, t + self.rng.randrange(40, 120), th, "INFO", L.DEAD_NODE_HANDLER, queue_cleared(d))
        return r

    # -- unrelated container traffic (scm.md §2.3, printed on every SCM) --
    def container_close(self, t, cid, sid, members, first_dn=None, close_after=2100):
        # FINALIZE: the first replica turns CLOSING (container full on the datanode, which sends an ICR);
        # CLOSE: the first CLOSED replica after the leader's close command
        first = first_dn or members[0]
        for s in self.cl.scms:
            th = affinity_executor(s.name, self.affinity[first.name])
            tt = t + self.rng.randrange(3, 30)
            self.log(s.name, tt, th, "INFO", L.ICR_HANDLER, "FINALIZE (i.e. CLOSING) "
                     + replica_details(cid, "OPEN", sid, "CLOSING", sid, first.uid, first))
            closer = members[1]
            th2 = affinity_executor(s.name, self.affinity[closer.name])
            self.log(s.name, tt + close_after + self.rng.randrange(0, 900), th2, "INFO", L.ICR_HANDLER,
                     "CLOSE " + replica_details(cid, "CLOSING", sid, "CLOSED", sid, closer.uid, closer))

    def rm_loop(self, first, every_ms, ncont):
        t = first
        while t <= self.end:
            self.at(t, self._rm, ncont)
            t += every_ms

    def _rm(self, t, ncont):
        s = self.leader()
        if s and self.ready[s]:
            self.log(s, t, "%s-ReplicationMonitor" % s, "INFO", L.REPLICATION_MANAGER,
                     rm_pass(self.rng.randrange(3, 40), ncont))


# ----------------------------------------------------------------------------------------------
# Output: layouts from scm.md §1.1 / README "Layouts"; a written record is marked by its id()

def main_lines(r, layout, skew):
    return log_lines(layout, from_epoch_ms(r["t"] + skew), r["thread"], r["level"], r["logger"], r["msg"], r["cont"])


def main_entries(recs, layout, skew):
    return [(main_lines(r, layout, skew), id(r)) for r in recs]


def audit_entries(recs, skew):
    return [(audit_lines(from_epoch_ms(r["t"] + skew), r["level"], "SCMAudit", r["msg"]), id(r)) for r in recs]


def sorted_recs(recs, kind, lo=None, hi=None):
    out = [r for r in recs if r["kind"] == kind and (lo is None or r["t"] >= lo) and (hi is None or r["t"] < hi)]
    out.sort(key=lambda r: (r["t"], r["seq"]))
    return out


def write_hosts(name, sim, date, findings, splits=None):
    """The bundle with per-host folders of the three SCMs (write_host), EXPECTED.json `findings`;
    splits: scm -> (split_main, split_audit)."""
    w = BundleDir(name)
    for s in ("scm1", "scm2", "scm3"):
        write_host(w, sim, s, date, *(splits or {}).get(s, ()))
    w.expected(findings)
    return w


def write_host(w, sim, s, date, split_main=None, split_audit=None):
    """Per-host folder with ozone-hadoop-scm-<host>.log (+ .log.1 before split_main) and
    scm-audit-<host>.log (+ the day's gz rollover before split_audit)."""
    skew, recs = sim.cl.scm(s).skew, sim.recs[s]
    main, audit = "%s/%s" % (s, daemon_log("scm", s)), "%s/scm-audit-%s.log" % (s, s)
    if split_main:
        w.write(rfa_backup(main, 1), main_entries(sorted_recs(recs, "main", hi=split_main), "file", skew))
    w.write(main, main_entries(sorted_recs(recs, "main", lo=split_main), "file", skew))
    if split_audit:
        w.write(audit_rollover(audit, date), audit_entries(sorted_recs(recs, "audit", hi=split_audit), skew), gz=True)
    w.write(audit, audit_entries(sorted_recs(recs, "audit", lo=split_audit), skew))


# ----------------------------------------------------------------------------------------------
DN_HOSTS = ["dn%d.example.com" % i for i in range(1, 6)]
DN_IPS = ["10.0.1.%d" % (10 + i) for i in range(1, 6)]
SCM_HOSTS = ["scm%d.example.com" % i for i in range(1, 4)]
SCM_IPS = ["10.0.0.%d" % (10 + i) for i in range(1, 4)]


def base_cluster(seed, skews=(0, 140, -95), dn_hosts=DN_HOSTS, dn_ips=DN_IPS, scm_hosts=SCM_HOSTS, scm_ips=SCM_IPS):
    cl = Cluster(seed, dn_hosts, dn_ips, scm_hosts, scm_ips, skews)
    d = cl.dns
    # Ratis pipelines: two RATIS/THREE pipelines per node, plus one RATIS/ONE each
    cl.new_pipe([d[0].name, d[2].name, d[3].name])
    cl.new_pipe([d[1].name, d[2].name, d[4].name])
    cl.new_pipe([d[0].name, d[1].name, d[3].name])
    cl.new_pipe([d[2].name, d[3].name, d[4].name])
    for x in d:
        cl.new_pipe([x.name])
    return cl


def common_sim(cl, seed, date, window, leader, term, cmd_base, hb_phases_ms, mon_phases_ms, closes):
    """The simulation of `date` from window[0] to window[1] (HH:MM:SS): heartbeats, admin monitor
    ticks and ReplicationManager passes at their phases, unrelated container closes (closes: see
    unrelated_closes)."""
    t0, t1 = ms_of(date, window[0]), ms_of(date, window[1])
    sim = Sim(cl, seed, t0, t1, leader, term, cmd_base)
    sim.schedule_heartbeats({cl.dns[i].name: hb_phases_ms[i] for i in range(len(cl.dns))})
    sim.schedule_monitor({cl.scms[i].name: mon_phases_ms[i] for i in range(3)})
    sim.rm_loop(t0 + 117_431, 300_000, 1482)
    unrelated_closes(sim, date, closes)
    return sim


def unrelated_closes(sim, date, plan):
    """plan: (HH:MM:SS, container, sequence id, members) of containers that fill up and close."""
    dn = {d.name: d for d in sim.cl.dns}
    for hms, cid, sid, members in plan:
        t = ms_of(date, hms, sim.rng.randrange(0, 999))
        sim.at(t, lambda tt, c=cid, s=sid, m=members: sim.container_close(tt, c, s, [dn[x] for x in m]))


# ----------------------------------------------------------------------------------------------
TEMPLATES = """## Templates used (all from `/work/shared/ozone-logs/scm.md`, Ozone HEAD 78d5650c313f; the
op-state / admin-monitor wording is the same in ozone-2.0.0, 2.1.0 and 2.2.0 as far as the
catalogue says; PipelineID prints as `Pipeline-<uuid>`, the >= 2.1.0 form, scm.md §3)

| Template | Class, level | Catalogue |
|---|---|---|
| `Force flag = {}. Checking if decommission is possible for dns: {}` | NodeDecommissionManager INFO | scm.md §2.2 |
| `Starting Decommission for node {}` | NodeDecommissionManager INFO | §2.2 |
| `Queued node {} for recommission` | NodeDecommissionManager INFO | §2.2, §4.4(a) |
| `Continue admin for datanode {}` | NodeDecommissionManager INFO (onBecomeLeader) | §2.2, §4.2 step 7 |
| `Force flag = {}. Checking if maintenance is possible for dns: {}`, `Starting Maintenance for node {}` | NodeDecommissionManager INFO | §2.2 |
| `There are {} nodes tracked for decommission and maintenance.  {} pending nodes.` | DatanodeAdminMonitorImpl INFO | §2.2 |
| `Datanode {} has an operational state of {} when it should be undergoing decommission or maintenance. Aborting admin for this node.` | DatanodeAdminMonitorImpl WARN | §2.2, §4.2 step 5 |
| `Datanode {} is dead but is not IN_MAINTENANCE. Aborting the admin workflow for this node` | DatanodeAdminMonitorImpl ERROR | §2.2, §4.4(c) |
| `Recommissioned node {}` (TrackedNode@hex) | DatanodeAdminMonitorImpl INFO | §2.2, §3 |
| `Waiting for pipelines to close for {}. There are {} pipelines` | DatanodeAdminMonitorImpl INFO | §2.2 |
| `{} has {} sufficientlyReplicated, {} deleting, {} underReplicated and {} unclosed containers` | DatanodeAdminMonitorImpl INFO | §2.2, §4.4(b) |
| `Datanode {} has completed the admin workflow. The operational state has been set to {}` | DatanodeAdminMonitorImpl INFO | §2.2, §4.4(b) |
| `Datanode {} has entered maintenance` | DatanodeAdminMonitorImpl INFO | §2.2 |
| `Admin start on datanode {}. Finalizing its pipelines {}` / `Could not finalize pipeline={} for dn={}` | StartDatanodeAdminHandler INFO | §2.2 |
| `Datanode {} moved to HEALTHY state.` | ReadOnlyHealthyToHealthyNodeHandler INFO | §2.2 (fires on every op-state change of a HEALTHY node) |
| `Scheduling a command to update the operationalState persisted on {} as the reported value ({}, {}) does not match the value stored in SCM ({}, {})` | SCMNodeManager INFO (leader) | §2.2, §4.2 step 8 |
| `Update the operationalState saved in follower SCM for {} as the reported value ({}, {}) does not match the value stored in SCM ({}, {})` | SCMNodeManager INFO (follower) | §2.2, §4.2 steps 4, 6 |
| `Notifying ReplicationManager of node state change for {}: {} -> {}` | SCMNodeManager INFO (leader) | §2.2 |
| `Datanode {} moved to stale state. Finalizing its pipelines {}`, `A dead datanode is detected. {}`, `Clearing command queue of size {} for DN {}` | StaleNodeHandler / DeadNodeHandler INFO | §2.2 |
| `current SCM <id> becomes leader of term <T>`, `Leader changed to <id>, current SCM <id> is still follower.`, `SCM <id> steps down from being leader.` | SCMStateMachine INFO | §2.1 |
| `update <isLeader,term> from <{},{}> to <{},{}>`, `update <isLeaderReady> from <{}> to <{}>` | SCMContext INFO | §2.1 |
| `{}: changes role from {} to {} at term {} for {}` (old role padded to 9, as in the catalogue's examples) | Ratis RaftServer$Division INFO | §2.1; reasons `changeToCandidate`, `changeToLeader`, `candidate:<peerId>`, `APPEND_ENTRIES`, `StepDownReason:JVM_PAUSE` from §2.1/§4.3, `REJECTED` = LeaderElection `ResultAndTerm.toString()` (apache/ratis LeaderElection.askForVotes -> changeToFollowerAndPersistMetadata(term, r)) |
| `{}: change Leader from {} to {} at term {} for {}{}` (suffix `, leader elected after <N>ms`) | Ratis RaftServer$Division INFO | §2.1; ops `becomeLeader` (ServerState.becomeLeader), the step-down reason, `PRE_VOTE` (initElection), `appendEntries` |
| `Service ReplicationManager transitions to RUNNING.`, `notifyStatusChanged:RUNNING` | ReplicationManager / SCMBlockDeletingService INFO | §2.1 |
| `Replication Monitor Thread took {} milliseconds for processing {} containers.` | ReplicationManager INFO | §2.5 |
| `FINALIZE (i.e. CLOSING) {}`, `CLOSE {}` with `<D>` = `Container #<cid> (<state>, sid=<sid>) r0 (<state>, bcsid=<b>, origin=<uuid>, non-empty) from dn <dn>` | IncrementalContainerReportHandler INFO | §2.3 |
| Audit `op=DECOMMISSION_NODES {"nodes":"[h]","force":"false"}`, recommission `{"nodes":"[h]"}` (no `force`), `op=START_MAINTENANCE_NODES {"endInHours":"N","nodes":"[h]","force":"false"}` | SCMAudit INFO | §1.2 |
| Audit `op=SEND_HEARTBEAT {"datanodeUUID":"<u>","term":"<T>","command":"[...]"}` (leader) / `{"datanodeUUID":"<u>","command":"[]"}` (follower); command entry `commandType: setNodeOperationalStateCommand setNodeOperationalStateCommandProto { cmdId: N nodeOperationalState: S stateExpiryEpochSeconds: E } term: T encodedToken: \\"\\" deadlineMsSinceEpoch: 0` | SCMAudit INFO | §1.2 |

Threads (scm.md §1.3): `IPC Server handler <n> on default port 9860` (admin RPC), `… 9861` (heartbeats),
`scmN-DatanodeAdminManager-0`, `scmN-EventQueue-<Event>For<Handler>`, `scmN-FixedThreadPoolWithAffinityExecutor-<i>-0`,
`scmN-ReplicationMonitor`, `<scmId>@group-<12HEX>-LeaderStateImpl|-FollowerState|-LeaderElection<N>|-StateMachineUpdater`,
`<scmId>-server-thread<N>`.
TrackedNode hex = `UUID.hashCode()` as in scm.md §3 (checked against the catalogue's two examples).

Not in the catalogue, so deliberately **not** written (a real log would have them):
Ratis `LeaderElection` vote-round lines (`… round N: submit vote requests at term T for <conf>`, `… received N response(s)…`,
`  Response i: …`), because the catalogue does not give the `RaftConfiguration` / `RequestVoteReply` toString;
`Registered datanode:` start-up lines (no SCM restart in the windows); a JVM-pause warning before
`StepDownReason:JVM_PAUSE` (its wording is not catalogued); ContainerReplicaCount details of
`Under Replicated Container …` / `Unclosed Container …` lines; datanode-side logs (the datanode's apply of
`SetNodeOperationalStateCommand` is not catalogued in datanode.md).
"""


def clock_skews(cl):
    """`scm2 -60 ms, scm3 +170 ms relative to scm1`: each SCM's clock against the one without skew."""
    ref = next(s for s in cl.scms if s.skew == 0)
    others = ", ".join("%s %+d ms" % (s.name, s.skew) for s in cl.scms if s is not ref)
    return "%s relative to %s" % (others, ref.name)


def rfa_layouts(cl):
    """SOURCE.md's layout lines of a bundle written by `write_hosts` in the shipped RFA layout."""
    return ["- RFA layout `%s`, per-host folders, `ozone-hadoop-scm-<host>.log`." % LAYOUTS["file"],
            "- Audit: `scm-audit-<host>.log`. Times UTC; %s." % clock_skews(cl)]


def source_md(w, sim, title, layouts, story, chain, benign=None, notes=None):
    out = ["# %s" % title, "", "## Layouts and files", ""]
    out += layouts
    out += ["", "Files (lines):", ""]
    out += ["- `%s` (%d)" % f for f in w.files]
    out += ["", "## Story", "", story.strip(), "", "## Evidence chain", ""]
    out += [evidence(w, sim, e) for e in chain]
    if benign:
        out += ["", "## Why this is benign / what a naive rule would flag", "", benign.strip()]
    if notes:
        out += ["", "## Notes and ambiguities", "", notes.strip()]
    out += ["", TEMPLATES]
    w.text("SOURCE.md", "\n".join(out) + "\n")


def evidence(w, sim, entry):
    """A line of the evidence chain: (tag, what[, which of the tagged records]) -> '- `file:line`: what';
    a string stays as it is."""
    if isinstance(entry, str):
        return entry
    tag, what, *idx = entry
    r = sim.tags[tag][idx[0] if idx else 0]
    return "- `%s`: %s" % (w.at(id(r)), what)


# ----------------------------------------------------------------------------------------------
# Bundle 1: full chain of scm.md §4.2, RFA layout, per-host folders.
def bundle1():
    date = "2026-11-28"
    cl = base_cluster(1721901)
    d3, d5 = cl.dn("dn3"), cl.dn("dn5")
    sim = common_sim(cl, 11, date, ("01:40:00", "02:21:30"), "scm1", 7, 117359301,
                     hb_phases_ms=[3217, 9840, 1204, 17655, 24603], mon_phases_ms=[10003, 17512, 26871],
                     closes=[("01:47:33", 2031, 18442, ["dn1", "dn2", "dn4"]),
                            ("01:58:02", 2036, 9120, ["dn4", "dn1", "dn2"]),
                            ("02:10:41", 2052, 7730, ["dn2", "dn4", "dn1"]),
                            ("02:16:09", 2055, 12004, ["dn1", "dn4", "dn2"])])
    # dn5 goes into maintenance first (6 h): it stays tracked on scm1 for the whole window
    sim.at(ms_of(date, "01:41:12", 204), lambda t: sim.start_maintenance(t, "scm1", d5, "dn5.example.com", 6))
    sim.counts["dn5"] = lambda s, t: (38, 0, 0, 0)
    # 1. decommission of dn3 accepted on the leader scm1 (term 7)
    sim.at(ms_of(date, "02:03:14", 318), lambda t: sim.decommission(t, "scm1", d3, "dn3.example.com"))
    # the datanode holds the DECOMMISSIONING command (busy command thread) past its next heartbeat
    sim.apply_override["dn3"] = (sim.start, ms_of(date, "02:04:09", 951))
    # 2. scm1 steps down after delivering the command (SEND_HEARTBEAT 02:03:31 carries it)
    sim.at(ms_of(date, "02:03:36", 118), lambda t: sim.step_down(t, "scm1"))
    # failed elections: scm2's log is behind scm1, scm3's Ratis link is down; no leader answers dn3
    sim.at(ms_of(date, "02:03:41", 655), lambda t: sim.to_candidate(t, "scm2", 7, 31, known_leader="scm1"))
    sim.at(ms_of(date, "02:03:41", 902), lambda t: sim.to_candidate(t, "scm3", 7, 12, known_leader="scm1"))
    # 3. the early heartbeat round of dn3 (triggered by the ICR of container #2050) reaches scm1
    #    between the monitor's status read and its IN_SERVICE write
    sim.icr_races_abort(ms_of(date, "02:04:10", 1), 2050, 20318, d3, [cl.dn("dn1"), cl.dn("dn4")], 14300, "scm1", 3)
    # 4. scm1 wins the next election (term 11) before dn3's next heartbeat (02:04:31)
    sim.at(ms_of(date, "02:04:20", 377), lambda t: sim.candidate_to_follower(t, "scm3", 7, "APPEND_ENTRIES",
                                                                            th=cl.scm("scm3").sid + "-server-thread2"))
    sim.wins_back("scm1", 11, 44, ms_of(date, "02:04:14", 512), "scm2", ms_of(date, "02:04:14", 700), 3,
                  ms_of(date, "02:04:14", 931), ms_of(date, "02:03:36", 118),
                  [("scm2", ms_of(date, "02:04:15", 12), ms_of(date, "02:03:41", 655), None),
                   ("scm3", ms_of(date, "02:04:20", 378), ms_of(date, "02:03:41", 902), cl.scm("scm3").sid + "-server-thread2")])
    sim.run()

    w = write_hosts("HDDS-17219-bug-follower-abort-race", sim, date,
                    [finding(RULE, "datanode:" + d3.uid, "confirmed")],
                    {"scm1": (ms_of(date, "01:58:00"), ms_of(date, "01:55:00"))})
    s1 = cl.scm("scm1")
    chain = [
        ("auditdecom:scm1:dn3", "DECOMMISSION_NODES `{\"nodes\":\"[dn3.example.com]\",\"force\":\"false\"}` SUCCESS on the leader scm1 (term 7)"),
        ("startdecom:scm1:dn3", "`Starting Decommission for node` dn3 on scm1"),
        ("sched:scm1:dn3:IN_SERVICE>DECOMMISSIONING", "leader scm1 pushes DECOMMISSIONING: reported (IN_SERVICE, 0), stored (DECOMMISSIONING, 0)"),
        ("hbcmd:scm1:dn3", "SEND_HEARTBEAT with `term 7` and `nodeOperationalState: DECOMMISSIONING`: the datanode got the command"),
        ("stepdown:scm1", "scm1 steps down (`SCM … steps down from being leader.`)"),
        ("ctx-false:scm1", "`update <isLeader,term> from <true,7> to <false,0>`: scm1 is a follower from here"),
        ("adminstart:scm1:dn3", "the follower's monitor still takes dn3 into tracking (`Admin start …`, then `Could not finalize pipeline=…`)"),
        ("there-are:scm1", "precondition (step 3): follower scm1 still prints `There are 2 nodes tracked …` (dn5, dn3)",
         next(i for i, r in enumerate(sim.tags["there-are:scm1"]) if r["t"] > ms_of(date, "02:03:36", 200))),
        ("copy:scm1:dn3:DECOMMISSIONING>IN_SERVICE", "step 4: follower scm1 copies the stale (IN_SERVICE, 0) report over its (DECOMMISSIONING, 0)"),
        ("abort:scm1:dn3", "**step 5: WARN abort with op state IN_SERVICE on scm1 while its last SCMContext line is `to <false,0>`** (cause)"),
        ("copy:scm1:dn3:IN_SERVICE>DECOMMISSIONING", "**step 6: 1 ms later the heartbeat copy (DECOMMISSIONING, 0) over (IN_SERVICE, 0)**; the two `moved to HEALTHY state.` lines follow (copy, then the unlogged abort write)"),
        ("becomes-leader:scm1", "step 7: scm1 re-elected, `becomes leader of term 11`"),
        ("ctx-true:scm1", "`update <isLeader,term> from <false,0> to <true,11>`"),
        ("continue:scm1:dn5", "onBecomeLeader prints `Continue admin` for dn5 (IN_MAINTENANCE) only: **no `Continue admin for datanode` dn3**"),
        ("sched:scm1:dn3:DECOMMISSIONING>IN_SERVICE", "**step 8 (effect): leader scm1 `Scheduling … reported value (DECOMMISSIONING, 0) … stored in SCM (IN_SERVICE, 0)`**"),
        ("hbcmd:scm1:dn3", "SEND_HEARTBEAT `\"term\":\"11\"` with `nodeOperationalState: IN_SERVICE` … `term: 11`: the datanode is told IN_SERVICE", -1),
        ("notify:scm1:dn3:DECOMMISSIONING>IN_SERVICE", "next heartbeat: `Notifying ReplicationManager … DECOMMISSIONING -> IN_SERVICE`"),
        "- Absent everywhere (step 9): audit `DECOMMISSION_NODES` without `force`, `Queued node … for recommission`, "
        "`Recommissioned node …TrackedNode@%s`, `Datanode … has completed the admin workflow`." % tracked_hex(d3.uid),
        "- Context on the followers: scm2/scm3 copy (DECOMMISSIONING, 0) at 02:04:10 and (IN_SERVICE, 0) at 02:05:01 "
        "(benign follower copies); no SCM answered dn3 as leader between 02:03:36 and 02:04:14 (SEND_HEARTBEAT "
        "lines without `term` on all three hosts), so the term-7 command was not dropped by the datanode.",
    ]
    story = """
Cluster: scm1 `%s`, scm2 `%s`, scm3 `%s`, Ratis group `%s`; datanodes dn1..dn5
(`dn<N>.example.com/10.0.1.1<N>`). Target dn3 = `%s` (TrackedNode@%s). dn5 is in maintenance
(6 h) from 01:41 and stays tracked on scm1 the whole time, which is why scm1 prints `Continue admin`
for dn5 (and not for dn3) when it is re-elected.

scm1 (leader, term 7) accepts the decommission of dn3 at 02:03:14 and, at dn3's heartbeat of
02:03:31, sends SetNodeOperationalStateCommand(DECOMMISSIONING). The datanode's command thread is
busy and keeps the command queued. At 02:03:36 scm1 steps down (JVM pause). scm2's log is behind and
scm3's Ratis link is down, so the elections fail for ~38 s and no SCM answers dn3 as leader. On
scm1, now a follower, the admin monitor keeps dn3 tracked; dn3's regular heartbeat of 02:04:01 still
reports IN_SERVICE and is copied. At 02:04:10 the monitor tick reads IN_SERVICE and logs the abort
WARN; the datanode has just applied the command, and its early heartbeat round (triggered by the ICR of
container #2050) reports DECOMMISSIONING, which the heartbeat thread copies 1 ms later; then the
abort write puts IN_SERVICE back. scm1 wins the election at 02:04:14 (term 11) before dn3's next
heartbeat; onBecomeLeader sees IN_SERVICE for dn3 and does not continue the workflow. At 02:04:31
scm1, as leader, sends IN_SERVICE with term 11 and the datanode applies it: the accepted
decommission is silently dropped (HDDS-17219 §Mechanism and §Trigger, the failed-election variant
the issue gives as the practical case).
""" % (s1.sid, cl.scm("scm2").sid, cl.scm("scm3").sid, cl.group, d3, tracked_hex(d3.uid))
    layouts = ["- RFA layout `%d{ISO8601} [%t] %p %c: %m%n` (full logger), per-host folders `scm1/` `scm2/` `scm3/`,"
               " `ozone-hadoop-scm-<host>.log` (scm1 also `.log.1`, the older part).",
               "- Audit: log4j2 `%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n`, `scm-audit-<host>.log`;"
               " scm1 also `scm-audit-scm1-2026-11-28-1.log.gz` (size roll-over, older part).",
               "- Times UTC. Host clocks: %s." % clock_skews(cl)]
    notes = """
- scm.md §4.3 shows the interim leader (scm2) logging `Continue admin` in its own term, before scm1's
  follower copy of IN_SERVICE. The issue says no newer leader may answer the datanode in that heartbeat
  round (else `StateContext.getNextCommand` drops the term-7 command, or the interim leader sends
  IN_SERVICE itself), and names "a failed election that A wins again" as the practical case. This bundle
  follows the issue: there is no interim leader, so no SCM prints `Continue admin for datanode` dn3.
  A rule must not require the interim leader's `Continue admin` line.
- The early heartbeat round at 02:04:10 is tied to an ICR (datanode.md 3.B: ICRs trigger an immediate
  heartbeat): container #2050 on dn3 became full and the datanode marked it CLOSING (datanode.md 3.B step 4);
  the FINALIZE line from dn3 is printed on all three SCMs at the same moment. Its CLOSE line follows only
  after scm1 is leader again (the close command needs a leader).
- The scm2 / scm3 election rounds between 02:03:41 and 02:04:14 are only visible as role lines; the
  LeaderElection round lines are left out (not catalogued).
"""
    source_md(w, sim, "HDDS-17219 bug: follower abort races a heartbeat, SCM re-elected (confirmed)", layouts, story, chain, notes=notes)
    return w


# ----------------------------------------------------------------------------------------------
# Bundle 2: same defect, vendor layout without thread; the re-elected SCM's older rotation (which
# holds the follower abort WARN) is not in the bundle.
def bundle2():
    date = "2026-11-29"
    dn_hosts = ["ozn-dn-%02d.corp.example.net" % i for i in range(1, 6)]
    dn_ips = ["10.20.1.%d" % (10 + i) for i in range(1, 6)]
    scm_hosts = ["ozn-scm-%02d.corp.example.net" % i for i in range(1, 4)]
    scm_ips = ["10.20.0.%d" % (10 + i) for i in range(1, 4)]
    cl = base_cluster(1721902, skews=(-210, 0, 65), dn_hosts=dn_hosts, dn_ips=dn_ips, scm_hosts=scm_hosts,
                      scm_ips=scm_ips)
    d4 = cl.dn("dn4")
    sim = common_sim(cl, 22, date, ("09:08:00", "09:37:40"), "scm2", 23, 2200381774,
                     hb_phases_ms=[14960, 2231, 26412, 8402, 19987], mon_phases_ms=[5311, 20101, 13702],
                     closes=[("09:11:52", 5102, 40211, ["dn1", "dn3", "dn2"]),
                            ("09:17:05", 5108, 38876, ["dn3", "dn5", "dn1"]),
                            ("09:29:44", 5126, 12093, ["dn5", "dn1", "dn3"]),
                            ("09:34:18", 5131, 20877, ["dn2", "dn3", "dn1"])])
    sim.at(ms_of(date, "09:21:47", 552), lambda t: sim.decommission(t, "scm2", d4, "ozn-dn-04.corp.example.net",
                                                                   admin_ip="10.20.9.40"))
    sim.apply_override["dn4"] = (sim.start, ms_of(date, "09:22:50", 50))
    sim.at(ms_of(date, "09:22:13", 40), lambda t: sim.step_down(t, "scm2"))
    sim.at(ms_of(date, "09:22:18", 311), lambda t: sim.to_candidate(t, "scm3", 23, 8, known_leader="scm2"))
    sim.at(ms_of(date, "09:22:18", 874), lambda t: sim.candidate_to_follower(t, "scm3", 24, "REJECTED",
                                                                            th=cl.scm("scm3").mid + "-LeaderElection8"))
    sim.at(ms_of(date, "09:22:24", 702), lambda t: sim.to_candidate(t, "scm1", 24, 17, known_leader="scm2"))
    sim.icr_races_abort(ms_of(date, "09:22:50", 97), 5119, 31460, d4, [cl.dn("dn1"), cl.dn("dn3")], 9800, "scm2", 2)
    sim.wins_back("scm2", 26, 52, ms_of(date, "09:22:54", 903), "scm1", ms_of(date, "09:22:55", 101), 4,
                  ms_of(date, "09:22:55", 288), ms_of(date, "09:22:13", 40),
                  [("scm1", ms_of(date, "09:22:55", 367), ms_of(date, "09:22:24", 702), None),
                   ("scm3", ms_of(date, "09:22:55", 371), ms_of(date, "09:22:18", 311), None)])
    sim.run()

    w = BundleDir("HDDS-17219-bug-reelected-no-continue")
    cut = ms_of(date, "09:22:52", 0)   # scm2's .log.out starts here; .log.out.1 is not in the bundle
    for sc in cl.scms:
        recs = sorted_recs(sim.recs[sc.name], "main", lo=cut if sc.name == "scm2" else None)
        w.write("%s/%s" % (sc.host, daemon_log("scm", sc.host, vendor=True)), main_entries(recs, "vendor", sc.skew))
        w.write("%s/scm-audit-%s.log" % (sc.host, sc.host), audit_entries(sorted_recs(sim.recs[sc.name], "audit"), sc.skew))
    w.expected([finding(RULE, "datanode:" + d4.uid, "likely")])
    s2 = cl.scm("scm2")
    chain = [
        ("auditdecom:scm2:dn4", "DECOMMISSION_NODES (`force` false) SUCCESS on ozn-scm-02 (scm2), leader of term 23 (its SEND_HEARTBEAT lines carry `\"term\":\"23\"`)"),
        ("hbcmd:scm2:dn4", "SEND_HEARTBEAT `term 23` delivering `nodeOperationalState: DECOMMISSIONING` to dn4"),
        "- `ozn-scm-02…/scm-audit-…log`: from 09:22:13 to 09:22:55 scm2's SEND_HEARTBEAT lines have no `term` key: scm2 was not leader (the main-log step-down lines are in the missing rotation)",
        ("copy:scm1:dn4:IN_SERVICE>DECOMMISSIONING", "scm1 (follower) copies (DECOMMISSIONING, 0) at 09:22:50: the datanode had applied the decommission"),
        ("copy:scm3:dn4:IN_SERVICE>DECOMMISSIONING", "same on scm3"),
        ("raft-leader:scm2", "scm2 wins the election of term 26 (Ratis)"),
        ("becomes-leader:scm2", "`current SCM %s becomes leader of term 26`" % s2.sid),
        ("ctx-true:scm2", "`update <isLeader,term> from <false,0> to <true,26>`; **no `Continue admin for datanode` dn4 follows** (nothing is logged by onBecomeLeader)"),
        ("sched:scm2:dn4:DECOMMISSIONING>IN_SERVICE", "**effect: leader scm2 `Scheduling … reported value (DECOMMISSIONING, 0) … stored in SCM (IN_SERVICE, 0)`**"),
        ("hbcmd:scm2:dn4", "SEND_HEARTBEAT `\"term\":\"26\"` with `nodeOperationalState: IN_SERVICE` … `term: 26`", -1),
        ("notify:scm2:dn4:DECOMMISSIONING>IN_SERVICE", "`Notifying ReplicationManager … DECOMMISSIONING -> IN_SERVICE`"),
        ("copy:scm1:dn4:DECOMMISSIONING>IN_SERVICE", "followers follow the datanode back to IN_SERVICE"),
        "- Absent: any recommission (audit `DECOMMISSION_NODES` without `force`, `Queued node … for recommission`, "
        "`Recommissioned node …TrackedNode@%s`), any `has completed the admin workflow`, and the follower abort WARN "
        "(it is in scm2's `.log.out.1`, which is not in the bundle). Hence `likely`, not `confirmed`." % tracked_hex(d4.uid),
    ]
    story = """
Vendor-managed cluster: SCMs `ozn-scm-01..03.corp.example.net` (HA node ids scm1..scm3; scm2 = `%s`),
datanodes `ozn-dn-01..05.corp.example.net` (10.20.1.11-15). Target dn4 = `%s`.

scm2, leader of term 23, accepts the decommission of dn4 at 09:21:47 and pushes DECOMMISSIONING at
09:22:08 (audit). scm2 loses leadership at 09:22:13; scm3 and scm1 fail to get elected for ~42 s.
The datanode applies the command late (09:22:50); its early heartbeat round, triggered by the ICR of
container #5119, is copied by the followers scm1 and scm3. scm2 wins term 26 at 09:22:55, prints no
`Continue admin` for dn4, and at dn4's next heartbeat (09:23:08) tells it IN_SERVICE with term 26.
The generator runs the same race as bundle 1 on scm2 (abort WARN at 09:22:50 while follower, with the
heartbeat copy between read and write), but scm2's main log rolled over at 09:22:52 and the support
bundle holds only the current `.log.out` of each role, so the abort and the step-down lines of scm2
are not in it. What is left is the effect (the re-elected leader sending IN_SERVICE to a node whose
decommission was accepted and applied) plus the preconditions (accepted decommission, loss of
leadership visible in scm2's audit terms and in the other SCMs' Ratis lines, re-election without
`Continue admin`, no recommission).
""" % (s2.sid, d4)
    layouts = ["- Vendor layout without thread `%d{ISO8601} %p %c: %m%n` (full logger), one folder per host (FQDN),"
               " `hadoop-cmf-ozone-STORAGE_CONTAINER_MANAGER-<host>.log.out`.",
               "- Audit: log4j2 audit layout, `scm-audit-<host>.log` per host.",
               "- Times UTC. Clocks: ozn-scm-01 -210 ms, ozn-scm-03 +65 ms relative to ozn-scm-02.",
               "- Admin ran from 10.20.9.40; hosts typed as FQDN."]
    notes = """
- The first line of scm2's `.log.out` is scm2's candidacy at 09:22:54; the follower-state lines before
  it are in the missing `.log.out.1`. The audit file of scm2 is complete (log4j2 audit rolls daily).
- scm3's election at term 24 is REJECTED (its log is behind); scm1's election rounds at term 25 time out
  (no role change is logged for a TIMEOUT round); scm1 then steps back for scm2's higher term
  (`candidate:<scm2 id>`). LeaderElection round lines are not written (not catalogued).
"""
    source_md(w, sim, "HDDS-17219 bug: re-elected SCM pushes IN_SERVICE, abort lines not in the bundle (likely)", layouts,
              story, chain, notes=notes)
    return w


# ----------------------------------------------------------------------------------------------
# Bundle 3: control, an operator's recommission on the leader.
def bundle3():
    date = "2026-11-27"
    cl = base_cluster(1721903, skews=(55, -130, 0))
    d2 = cl.dn("dn2")
    sim = common_sim(cl, 33, date, ("13:45:00", "14:19:30"), "scm1", 3, 88210554,
                     hb_phases_ms=[6620, 21877, 12010, 28301, 3345], mon_phases_ms=[24012, 9310, 2207],
                     closes=[("13:49:12", 1207, 5521, ["dn3", "dn4", "dn5"]),
                            ("13:58:40", 1213, 6109, ["dn1", "dn4", "dn3"]),
                            ("14:07:02", 1219, 4478, ["dn4", "dn5", "dn3"]),
                            ("14:15:31", 1224, 7012, ["dn5", "dn1", "dn4"])])
    # an unrelated leader change well before the admin work: scm1 -> scm3 (term 4)
    sim.failover("scm1", "scm3", 4, 5, ms_of(date, "13:52:36", 212), ms_of(date, "13:52:36", 240), ms_of(date, "13:52:36", 611),
                 (ms_of(date, "13:52:36", 702), ms_of(date, "13:52:36", 719)), t_down=ms_of(date, "13:52:31", 480))
    # decommission of dn2 on the leader scm3, slow replication, then the operator recommissions
    sim.at(ms_of(date, "14:02:12", 87), lambda t: sim.decommission(t, "scm3", d2, "dn2.example.com"))
    sim.counts["dn2"] = lambda s, t: (19 + (t - ms_of(date, "14:02:12")) // 60000, 1,
                                      max(3, 21 - (t - ms_of(date, "14:02:12")) // 60000), 0)
    sim.at(ms_of(date, "14:09:40", 118), lambda t: sim.recommission(t, "scm3", d2, "dn2.example.com"))
    sim.run()
    w = write_hosts("HDDS-17219-control-real-recommission", sim, date, [])
    chain = [
        ("becomes-leader:scm3", "unrelated leadership change at 13:52: scm3 leader of term 4 (nothing tracked then)"),
        ("auditdecom:scm3:dn2", "DECOMMISSION_NODES with `\"force\":\"false\"` on the leader scm3"),
        ("startdecom:scm3:dn2", "`Starting Decommission for node` dn2"),
        ("sched:scm3:dn2:IN_SERVICE>DECOMMISSIONING", "leader pushes DECOMMISSIONING"),
        ("notify:scm3:dn2:IN_SERVICE>DECOMMISSIONING", "dn2 reports DECOMMISSIONING"),
        ("queued:scm3:dn2", "**operator recommission: `Queued node … for recommission`**"),
        ("auditrecom:scm3:dn2", "**audit `DECOMMISSION_NODES {\"nodes\":\"[dn2.example.com]\"}` with no `force` key = recommission**"),
        ("recommissioned:scm3:dn2", "`Recommissioned node …TrackedNode@%s` (= dn2)" % tracked_hex(d2.uid)),
        ("sched:scm3:dn2:DECOMMISSIONING>IN_SERVICE", "look-alike: leader `Scheduling … (DECOMMISSIONING, 0) … (IN_SERVICE, 0)`"),
        ("hbcmd:scm3:dn2", "SEND_HEARTBEAT `term 4` with `nodeOperationalState: IN_SERVICE`", -1),
        ("notify:scm3:dn2:DECOMMISSIONING>IN_SERVICE", "`Notifying ReplicationManager … DECOMMISSIONING -> IN_SERVICE`"),
        ("copy:scm1:dn2:DECOMMISSIONING>IN_SERVICE", "followers copy IN_SERVICE"),
    ]
    benign = """
The IN_SERVICE push is the operator's recommission (scm.md §4.4(a)): the recommission audit without
`force`, `Queued node` and `Recommissioned node` all precede the `Scheduling … (DECOMMISSIONING, 0) …
(IN_SERVICE, 0)` line on the same leader in the same term. There is no abort WARN anywhere, and the
leader change at 13:52 happened before the decommission. A rule keyed on the `Scheduling …
DECOMMISSIONING … IN_SERVICE` line alone, or on "leader change + decommission + IN_SERVICE push", would
flag dn2 here.
"""
    story = """
scm1 leads at term 3 until 13:52:31, when it steps down and scm3 is elected for term 4 (nothing is
tracked then). At 14:02:12 the operator decommissions dn2 (`%s`) through scm3. The datanode applies
DECOMMISSIONING, pipelines close, replication is slow (the monitor reports under-replicated
containers every tick). At 14:09:40 the operator changes their mind and recommissions dn2; the next
monitor tick puts it back IN_SERVICE and the leader pushes IN_SERVICE to the datanode.
""" % d2
    layouts = rfa_layouts(cl)
    source_md(w, sim, "HDDS-17219 control: operator recommission after a decommission", layouts, story, chain, benign=benign)
    return w


# ----------------------------------------------------------------------------------------------
# Bundle 4: control, leader fails over during a decommission; the new leader continues it.
def bundle4():
    date = "2026-11-26"
    cl = base_cluster(1721904, skews=(0, -60, 170))
    d1 = cl.dn("dn1")
    sim = common_sim(cl, 44, date, ("10:05:00", "10:33:00"), "scm1", 2, 5093321,
                     hb_phases_ms=[16004, 7712, 25520, 1190, 11876], mon_phases_ms=[9611, 14203, 27730],
                     closes=[("10:08:27", 711, 3309, ["dn2", "dn3", "dn5"]),
                            ("10:21:50", 719, 2871, ["dn3", "dn5", "dn4"]),
                            ("10:28:13", 722, 4120, ["dn4", "dn2", "dn3"])])
    t_done = ms_of(date, "10:19:00")
    sim.counts["dn1"] = lambda s, t: ((31, 0, 9, 0) if t < ms_of(date, "10:17:00") else
                                      (37, 1, 3, 0) if t < t_done else (40, 1, 0, 0))
    sim.at(ms_of(date, "10:12:03", 644), lambda t: sim.decommission(t, "scm1", d1, "10.0.1.11:9858"))
    sim.failover("scm1", "scm2", 3, 3, ms_of(date, "10:15:27", 803), ms_of(date, "10:15:27", 840), ms_of(date, "10:15:28", 96),
                 (ms_of(date, "10:15:28", 160), ms_of(date, "10:15:28", 171)), t_down=ms_of(date, "10:15:22", 517))
    sim.run()
    w = write_hosts("HDDS-17219-control-failover-continues", sim, date, [])
    chain = [
        ("auditdecom:scm1:dn1", "DECOMMISSION_NODES `{\"nodes\":\"[10.0.1.11:9858]\",\"force\":\"false\"}` on leader scm1 (term 2)"),
        ("startdecom:scm1:dn1", "`Starting Decommission for node` dn1"),
        ("notify:scm1:dn1:IN_SERVICE>DECOMMISSIONING", "dn1 reports DECOMMISSIONING before the failover"),
        ("copy:scm2:dn1:IN_SERVICE>DECOMMISSIONING", "followers copied DECOMMISSIONING"),
        ("stepdown:scm1", "scm1 steps down"),
        ("becomes-leader:scm2", "scm2 leader of term 3"),
        ("continue:scm2:dn1", "**`Continue admin for datanode` dn1 on the new leader**"),
        ("adminstart:scm2:dn1", "scm2 tracks dn1 (`Admin start … Finalizing its pipelines []`)"),
        ("completed:scm2:dn1", "**leader scm2: `has completed the admin workflow … DECOMMISSIONED`**"),
        ("sched:scm2:dn1:DECOMMISSIONING>DECOMMISSIONED", "leader pushes DECOMMISSIONED (not IN_SERVICE)"),
        ("hbcmd:scm2:dn1", "SEND_HEARTBEAT `term 3` with `nodeOperationalState: DECOMMISSIONED`", -1),
        ("completed:scm1:dn1", "look-alike: the stepped-down scm1, still tracking dn1, also completes it locally (follower write, scm.md §4.4 variant)"),
        ("copy:scm1:dn1:DECOMMISSIONED>DECOMMISSIONING", "scm1 then copies the datanode's DECOMMISSIONING back until the datanode applies DECOMMISSIONED"),
    ]
    benign = """
The failover happens after the datanode has reported DECOMMISSIONING to every SCM, so the new leader
scm2 has DECOMMISSIONING in memory, prints `Continue admin for datanode` for dn1, and finishes the
workflow: the node ends DECOMMISSIONED and no SCM ever sends IN_SERVICE. There is no abort WARN. A rule
that flags "follower still tracking nodes" (`There are 1 nodes tracked…` on scm1 after `to <false,0>`),
or any admin-monitor write on a follower (`has completed the admin workflow` on scm1 while follower),
would fire here; the issue says those follower writes are the decision the leader makes anyway and are
not the harmful case.
"""
    story = """
scm1 (leader, term 2) decommissions dn1 (`%s`, typed as `10.0.1.11:9858`) at 10:12:03; dn1 applies
DECOMMISSIONING, its pipelines close and replication starts. scm1 steps down at 10:15:22 (JVM pause) and
scm2 wins term 3 half a second after the election starts; scm2 continues the admin workflow. Around
10:19 the containers are sufficiently replicated: scm1 (follower, still tracking) writes DECOMMISSIONED
locally on its tick, scm2 (leader) completes the workflow and pushes DECOMMISSIONED to the datanode.
""" % d1
    layouts = rfa_layouts(cl)
    source_md(w, sim, "HDDS-17219 control: failover during decommission, new leader continues it", layouts, story, chain,
              benign=benign)
    return w


# ----------------------------------------------------------------------------------------------
# Bundle 5: control, the node dies during its decommission. docker-compose console output.
def bundle5():
    date = "2026-11-25"
    dn_hosts = ["ozone-datanode-%d.ozone_default" % i for i in range(1, 6)]
    dn_ips = ["172.18.0.%d" % (4 + i) for i in range(1, 6)]
    cl = base_cluster(1721905, skews=(0, 0, 0), dn_hosts=dn_hosts, dn_ips=dn_ips,
                      scm_hosts=["scm1", "scm2", "scm3"], scm_ips=["172.18.0.2", "172.18.0.3", "172.18.0.4"])
    d3 = cl.dn("dn3")
    sim = common_sim(cl, 55, date, ("16:10:00", "16:35:30"), "scm2", 9, 90012,
                     hb_phases_ms=[4410, 12980, 20355, 27040, 8821], mon_phases_ms=[18022, 3344, 11901],
                     closes=[("16:12:40", 31, 1902, ["dn1", "dn2", "dn4"]),
                            ("16:24:06", 38, 2255, ["dn4", "dn5", "dn2"])])
    sim.counts["dn3"] = lambda s, t: (6, 0, 14, 0)
    sim.at(ms_of(date, "16:14:41", 330), lambda t: sim.decommission(t, "scm2", d3, "ozone-datanode-3",
                                                                   admin_ip="172.18.0.11"))
    # the datanode container is killed at 16:17:31 (last heartbeat 16:17:20)
    sim.at(ms_of(date, "16:17:31", 0), lambda t: sim.alive.__setitem__("dn3", False))
    sim.at(ms_of(date, "16:22:21", 540), lambda t: sim.stale(t, d3))    # ozone.scm.stale.node.interval 5m
    sim.at(ms_of(date, "16:27:21", 560), lambda t: sim.dead(t, d3))     # ozone.scm.dead.node.interval 10m
    sim.run()
    w = BundleDir("HDDS-17219-control-node-dies")
    services = [sc.name + "-1" for sc in cl.scms]
    streams = [(n, [(r["t"], r["seq"], r, id(r)) for r in sorted_recs(sim.recs[n[:-2]], "main")],
                lambda t, r: main_lines(r, "console", 0)) for n in services]
    w.write("docker-compose.log", compose_entries(streams, compose_v2_prefixes(services)))
    for sc in cl.scms:
        w.write("%s/scm-audit-%s.log" % (sc.name, sc.name), audit_entries(sorted_recs(sim.recs[sc.name], "audit"), 0))
    w.expected([])
    chain = [
        ("auditdecom:scm2:dn3", "DECOMMISSION_NODES (`force` false) on the leader scm2 (term 9)"),
        ("startdecom:scm2:dn3", "`Starting Decommission for node` dn3"),
        ("notify:scm2:dn3:IN_SERVICE>DECOMMISSIONING", "dn3 applied DECOMMISSIONING"),
        ("dead:scm2:dn3", "**`A dead datanode is detected.` dn3 on the leader** (stale 5 min earlier on all SCMs)"),
        ("deadabort:scm2:dn3", "**ERROR `Datanode … is dead but is not IN_MAINTENANCE. Aborting the admin workflow for this node`** on the leader (by design, scm.md §4.4(c))"),
        "- the IN_SERVICE write of that abort fires DEAD_NODE again: a second `A dead datanode is detected.` / `Clearing command queue` pair follows on scm2",
    ]
    benign = """
The admin workflow is aborted because the datanode is dead (scm.md §4.4(c)): the ERROR on the leader is
preceded by `moved to stale state` and `A dead datanode is detected.` for the same datanode, there is no
leadership change during the decommission, no follower abort WARN and no `Scheduling … (IN_SERVICE …)`
push (a dead node gets no heartbeat response). The intent is dropped by design. A rule that treats any
"decommission accepted, then aborted, no recommission" as the bug would flag dn3.
"""
    story = """
docker-compose cluster (project `ozone`): scm1..scm3 (scm2 leader, term 9), five datanodes
`ozone-datanode-N.ozone_default` (172.18.0.5-9). At 16:14:41 the operator decommissions
`ozone-datanode-3` (`%s`). The datanode applies DECOMMISSIONING; replication is slow (14
under-replicated containers each tick). At 16:17:31 the datanode container is killed; SCM marks it
stale at 16:22 and dead at 16:27, and the leader's next monitor tick aborts the workflow.
""" % d3
    layouts = ["- `docker-compose.log`: `docker compose logs` output of scm1/scm2/scm3 (compose v2 prefix `scmN-1  | `),"
               " console layout `%d{ISO8601} [%t] %p %c{2}: %m%n` (logger shortened to 2 segments), services interleaved.",
               "- Audit copied out of the containers: `scmN/scm-audit-scmN.log`. All containers share the host clock (UTC)."]
    notes = """
- Stale/dead timing uses the defaults `ozone.scm.stale.node.interval` 5m and `ozone.scm.dead.node.interval` 10m.
- The second `A dead datanode is detected.` after the abort write is inferred from scm.md §2.2 ("when the op
  state changes, NodeStateManager.setNodeOperationalState calls fireHealthStateEvent(oldHealth)"; for a DEAD
  node that is the DEAD_NODE event).
"""
    source_md(w, sim, "HDDS-17219 control: datanode dies during decommission", layouts, story, chain, benign=benign,
              notes=notes)
    return w


# ----------------------------------------------------------------------------------------------
# Bundle 6: control, an abort on a (re-elected) leader after an operator's recommission.
NLE_FRAMES = [
    "\tat org.apache.hadoop.hdds.scm.ha.SCMRatisServerImpl.triggerNotLeaderException(SCMRatisServerImpl.java:344)",
    "\tat org.apache.hadoop.hdds.scm.ha.SCMContext.getTermOfLeader(SCMContext.java:128)",
    "\tat org.apache.hadoop.hdds.scm.node.SCMNodeManager.processHeartbeat(SCMNodeManager.java:604)",
    "\tat org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher.dispatch(SCMDatanodeHeartbeatDispatcher.java:93)",
    "\tat org.apache.hadoop.hdds.scm.server.SCMDatanodeProtocolServer.sendHeartbeat(SCMDatanodeProtocolServer.java:292)",
    "\tat org.apache.hadoop.ozone.protocolPB.StorageContainerDatanodeProtocolServerSideTranslatorPB.sendHeartbeat(StorageContainerDatanodeProtocolServerSideTranslatorPB.java:96)",
    "\tat org.apache.hadoop.ozone.protocolPB.StorageContainerDatanodeProtocolServerSideTranslatorPB.processMessage(StorageContainerDatanodeProtocolServerSideTranslatorPB.java:118)",
    "\tat org.apache.hadoop.hdds.server.OzoneProtocolMessageDispatcher.processRequest(OzoneProtocolMessageDispatcher.java:89)",
    "\tat org.apache.hadoop.ozone.protocolPB.StorageContainerDatanodeProtocolServerSideTranslatorPB.submitRequest(StorageContainerDatanodeProtocolServerSideTranslatorPB.java:91)",
    "\tat org.apache.hadoop.ipc_.ProtobufRpcEngine$Server$ProtoBufRpcInvoker.call(ProtobufRpcEngine.java:484)",
    "\tat org.apache.hadoop.ipc_.RPC$Server.call(RPC.java:1007)",
    "\tat org.apache.hadoop.ipc_.Server$RpcCall.run(Server.java:1083)",
    "\tat org.apache.hadoop.ipc_.Server$RpcCall.run(Server.java:1011)",
    "\tat java.base/java.security.AccessController.doPrivileged(Native Method)",
    "\tat java.base/javax.security.auth.Subject.doAs(Subject.java:423)",
    "\tat org.apache.hadoop.security.UserGroupInformation.doAs(UserGroupInformation.java:1899)",
    "\tat org.apache.hadoop.ipc_.Server$Handler.run(Server.java:3149)",
]


def bundle6():
    date = "2026-11-24"
    cl = base_cluster(1721906, skews=(0, 210, -40))
    d4 = cl.dn("dn4")
    sim = common_sim(cl, 66, date, ("20:00:00", "20:29:30"), "scm1", 4, 61170093,
                     hb_phases_ms=[9930, 24410, 2875, 17902, 13001], mon_phases_ms=[3303, 21588, 15020],
                     closes=[("20:03:18", 4410, 9921, ["dn5", "dn2", "dn3"]),
                            ("20:18:55", 4416, 8806, ["dn3", "dn1", "dn5"]),
                            ("20:25:37", 4421, 10340, ["dn1", "dn5", "dn2"])])
    sim.counts["dn4"] = lambda s, t: (12, 0, 27, 0)
    sim.at(ms_of(date, "20:06:10", 415), lambda t: sim.decommission(t, "scm1", d4, "dn4.example.com"))
    # failover 1: scm1 -> scm2 (term 5); scm2 continues the decommission, scm1 keeps tracking dn4
    sim.failover("scm1", "scm2", 5, 9, ms_of(date, "20:09:10", 433), ms_of(date, "20:09:10", 470), ms_of(date, "20:09:10", 712),
                 (ms_of(date, "20:09:10", 790), ms_of(date, "20:09:10", 802)), t_down=ms_of(date, "20:09:05", 202))
    # operator recommission on scm2
    sim.at(ms_of(date, "20:13:52", 731), lambda t: sim.recommission(t, "scm2", d4, "dn4.example.com"))
    # dn4's command thread is slow: IN_SERVICE (term 5) is applied after the next heartbeat
    t_r2 = ms_of(date, "20:15:17", 902)
    sim.apply_override["dn4"] = (ms_of(date, "20:14:00"), ms_of(date, "20:15:19", 114))

    def flip(t):
        # scm2 processes dn4's heartbeat while it steps down (scm.md §2.2 WARN "Skip sending ...")
        s, sc = "scm2", cl.scm("scm2")
        th = sim.ipc_thread(s)
        st, rep = sim.stored[s]["dn4"], sim.dnstate["dn4"]
        r = sim.log(s, t, th, "INFO", L.NODE_MANAGER, "Scheduling a command to update the operationalState persisted on %s as the "
                    "reported value (%s, %d) does not match the value stored in SCM (%s, %d)" % (d4, rep[0], rep[1], st[0], st[1]))
        sim.tag("sched-flip:scm2", r)
        sim.step_down(t + 1, s)
        sim.log(s, t + 2, th, "WARN", L.SCM_CONTEXT, "getTerm is invoked when not leader.")
        r = sim.log(s, t + 2, th, "WARN", L.NODE_MANAGER, "Skip sending SetNodeOperationalStateCommand, since current SCM is not leader.",
                    cont=["org.apache.ratis.protocol.exceptions.NotLeaderException: Server %s is not the leader" % sc.mid]
                    + NLE_FRAMES)
        sim.tag("skip:scm2", r)
        sim.lastrep[s]["dn4"] = rep
        sim.audit(s, t + 3, "hadoop", d4.ip, "SEND_HEARTBEAT",
                  json_params({"datanodeUUID": d4.uid, "command": "[]"}))
    sim.hb_hook[("scm2", "dn4")] = (t_r2, flip)
    # after applying IN_SERVICE the datanode sends an early heartbeat round (ICR)
    sim.at(ms_of(date, "20:15:19", 230), lambda t: [sim.at(t + sim.rng.randrange(3, 25), sim.hb_at, d4, s.name)
                                                     for s in cl.scms])
    # failover 2: scm1 wins term 6 before its next admin-monitor tick (20:15:33)
    sim.failover("scm2", "scm1", 6, 21, ms_of(date, "20:15:23", 18), ms_of(date, "20:15:23", 60), ms_of(date, "20:15:23", 377),
                 (ms_of(date, "20:15:23", 441), ms_of(date, "20:15:23", 452)), down_since=ms_of(date, "20:15:17", 905))
    sim.run()
    w = write_hosts("HDDS-17219-control-leader-abort-after-recommission", sim, date, [])
    chain = [
        ("auditdecom:scm1:dn4", "DECOMMISSION_NODES (`force` false) on leader scm1 (term 4)"),
        ("stepdown:scm1", "scm1 steps down; it keeps dn4 tracked"),
        ("continue:scm2:dn4", "scm2 (term 5) `Continue admin for datanode` dn4"),
        ("queued:scm2:dn4", "**operator recommission on the leader scm2: `Queued node … for recommission`**"),
        ("auditrecom:scm2:dn4", "**audit `DECOMMISSION_NODES {\"nodes\":\"[dn4.example.com]\"}` (no `force`)**"),
        ("recommissioned:scm2:dn4", "`Recommissioned node …TrackedNode@%s`" % tracked_hex(d4.uid)),
        ("sched:scm2:dn4:DECOMMISSIONING>IN_SERVICE", "scm2 pushes IN_SERVICE (term 5)"),
        ("sched-flip:scm2", "next heartbeat while scm2 steps down: `Scheduling …`, then"),
        ("skip:scm2", "WARN `Skip sending SetNodeOperationalStateCommand, since current SCM is not leader.` + NotLeaderException stack"),
        ("copy:scm1:dn4:DECOMMISSIONING>IN_SERVICE", "follower scm1 copies the datanode's IN_SERVICE (the recommission reached the datanode)"),
        ("becomes-leader:scm1", "scm1 re-elected, term 6; no `Continue admin` for dn4 (correct: it is IN_SERVICE)"),
        ("abort:scm1:dn4", "**look-alike: WARN abort with op state IN_SERVICE on scm1 while leader** (stale tracking entry from term 4)"),
    ]
    benign = """
The IN_SERVICE state comes from the operator's recommission (audit without `force`, `Queued node`,
`Recommissioned node` on scm2), and the datanode had applied it before scm1 was re-elected. scm1's
monitor still held dn4 from its own term 4 (trackedNodes is not cleared on step-down), so its first tick
as leader reads IN_SERVICE and logs the abort WARN; the write is IN_SERVICE over IN_SERVICE (no `moved to
HEALTHY state.` follows) and the datanode is never told anything it did not already have. There is no
heartbeat copy of DECOMMISSIONING between the WARN and the write, the WARN is on a leader (last SCMContext
line `to <true,6>`), and scm1 never logs `Scheduling … (DECOMMISSIONING …) … (IN_SERVICE …)`. A rule that
flags every abort WARN with IN_SERVICE, or "step-down + re-election without Continue admin + abort", or
the `Scheduling … DECOMMISSIONING … IN_SERVICE` line on scm2, would flag dn4.
"""
    story = """
scm1 (term 4) decommissions dn4 (`%s`) at 20:06:10; the datanode applies it, replication is slow (27
under-replicated containers each tick). scm1 steps down at 20:09:05 and scm2 wins term 5, continues the
admin workflow; scm1, now a follower, keeps tracking dn4. At 20:13:52 the operator recommissions dn4 via
scm2, which pushes IN_SERVICE at the next heartbeat. The datanode's command thread is slow; at the
following heartbeat scm2 is just stepping down (WARN + NotLeaderException stack). The datanode applies
IN_SERVICE at 20:15:19 and its early heartbeat round is copied by the followers. scm1 wins term 6 at
20:15:23, and its next monitor tick (as leader) aborts the stale tracking entry for dn4.
""" % d4
    layouts = rfa_layouts(cl)
    notes = """
- `getTerm is invoked when not leader.` (SCMContext WARN) and `Skip sending SetNodeOperationalStateCommand,
  since current SCM is not leader.` are from scm.md §2.1/§2.2. The NotLeaderException message form
  `Server <memberId> is not the leader` (no suggested leader: none is known during the step-down) and the
  stack frames (class names, line numbers, the `org.apache.hadoop.ipc_` package of Ozone's forked IPC) are
  illustrative: the catalogue gives only the first frame of a similar trace.
"""
    source_md(w, sim, "HDDS-17219 control: abort on a re-elected leader after an operator recommission", layouts, story,
              chain, benign=benign, notes=notes)
    return w


BUNDLES = (bundle1, bundle2, bundle3, bundle4, bundle5, bundle6)


if __name__ == "__main__":
    for b in BUNDLES:
        w = b()
        print(w.dir, sum(n for _, n in w.files))
