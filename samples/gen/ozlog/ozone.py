"""What Ozone and Ratis print: entity toStrings, thread names, commands and the log messages of the
lifecycles several bundles share (Ratis elections, SCM HA, node health, container reports, datanode
endpoints, process start and stop). Each is the format string the catalogue (/work/shared/ozone-logs/,
section next to it) quotes from the class named; a generator keeps the messages only its story needs."""
import uuid as _uuid

from ozlog.log4j import instant

# ---- identities -------------------------------------------------------------------------------------


def random_uuid(rng):
    """UUID.randomUUID(), drawn from a seeded rng."""
    return str(_uuid.UUID(int=rng.getrandbits(128), version=4))


def uuid_bits(u):
    """The two signed longs of a protobuf uuid128 {mostSigBits, leastSigBits}."""
    def signed(x):
        return x - (1 << 64) if x >= (1 << 63) else x
    i = _uuid.UUID(u).int
    return signed(i >> 64), signed(i & ((1 << 64) - 1))


def ratis_group(u):
    """RaftGroupId.toString of a pipeline or SCM cluster uuid: `group-` + its last 12 hex digits."""
    return "group-" + u.replace("-", "")[-12:].upper()


def member_id(peer, group):
    """A Ratis member (RaftGroupMemberId): `<peer>@<group>`."""
    return "%s@%s" % (peer, group)


def datanode_details(uuid, host, ip):
    """DatanodeDetails.toString: `uuid(host/ip)` (scm.md 3)."""
    return "%s(%s/%s)" % (uuid, host, ip)


def host_and_port(host, ip, port):
    """An endpoint as HostAndPort plus its InetAddress print it: `host:port/host/ip` (datanode.md 2.6)."""
    return "%s:%d/%s/%s" % (host, port, host, ip)


def block_id(cid, lid, bcs=0):
    """BlockID.toString of a Ratis block (datanode.md 4)."""
    return "conID: %d locID: %d bcsId: %d replicaIndex: null" % (cid, lid, bcs)


def replica_details(cid, cstate, sid, rstate, bcsid, origin, dn, empty=False, index=0):
    """AbstractContainerReportHandler.getDetailsForLogging <D> (scm.md 2.3); dn: DatanodeDetails."""
    return "Container #%d (%s, sid=%d) r%d (%s, bcsid=%d, origin=%s, %s) from dn %s" % (
        cid, cstate, sid, index, rstate, bcsid, origin, "empty" if empty else "non-empty", dn)


def container_info(cid, state, enter, pipeline, owner="om1"):
    """ContainerInfo.toString (scm.md 3); enter: the state's enter time."""
    return "ContainerInfo{id=#%d, state=%s, stateEnterTime=%s, pipelineID=Pipeline-%s, owner=%s}" % (
        cid, state, instant(enter), pipeline, owner)


def container_log_msg(cid, bcsid, state, volume, suffix=None, index=0):
    """ContainerLogger.getMessage of the dn-container log (datanode.md 1.3); index: the replica index
    (0 for Ratis, 1..data+parity for EC)."""
    msg = "ID=%d | Index=%d | BCSID=%d | State=%s | Volume=%s | DataChecksum=0" % (cid, index, bcsid, state, volume)
    return msg + " | " + suffix if suffix else msg


# ---- thread names (scm.md 1.3, datanode.md 1.4) ------------------------------------------------------
def ipc_handler(n, port):
    return "IPC Server handler %d on default port %d" % (n, port)


def affinity_executor(scm, i):
    """The SCM thread that processes one datanode's reports."""
    return "%s-FixedThreadPoolWithAffinityExecutor-%d-0" % (scm, i)


def endpoint_thread(dn_uuid, endpoint):
    """A datanode's task thread for one SCM or Recon endpoint (note the trailing space)."""
    return "%s-EndpointStateMachineTaskThread-%s-0 " % (dn_uuid, endpoint)


# ---- SCM commands and ReplicationManager (scm.md 2.5, 3) ---------------------------------------------
COMMAND_HEAD = 'cmdID: %d, encodedToken: "", term: 0, deadlineMsSinceEpoch: 0'


def close_command(cmd_id, cid, pipeline, force=False):
    return ("closeContainerCommand: " + COMMAND_HEAD + ", containerID: %d, pipelineID: Pipeline-%s, force: %s") % (
        cmd_id, cid, pipeline, "true" if force else "false")


def delete_command(cmd_id, cid, force=False, index=0):
    return ("deleteContainerCommand: " + COMMAND_HEAD + ", containerID: %d, replicaIndex: %d, force: %s") % (
        cmd_id, cid, index, "true" if force else "false")


def replicate_command(cmd_id, cid, target, index=0):
    return ("replicateContainerCommand: " + COMMAND_HEAD + ", containerId=%d, replicaIndex=%d, targetNode=%s, "
            "priority=NORMAL") % (cmd_id, cid, index, target)


def rm_sending(command, info, target, dn_deadline, scm_deadline):
    """ReplicationManager INFO when it sends a command to a datanode."""
    return "Sending command [%s] for container %s to %s with datanode deadline %d and scm deadline %d" % (
        command, info, target, dn_deadline, scm_deadline)


def rm_pass(took_ms, containers):
    return "Replication Monitor Thread took %d milliseconds for processing %d containers." % (took_ms, containers)


def blocks_added(blocks, dns, total, elapsed_ms):
    """SCMBlockDeletingService INFO on the leader (scm.md 2.6)."""
    return ("Totally added %d blocks to be deleted for %d datanodes / %d totalnodes, limit per iteration : "
            "500000blocks, task elapsed time: %dms" % (blocks, dns, total, elapsed_ms))


# ---- Ratis (datanode.md 2.1, scm.md 2.1) -------------------------------------------------------------
def role_change(member, old, new, term, reason):
    """RaftServerImpl.setRole: the old role padded to 9."""
    return "%s: changes role from %9s to %s at term %d for %s" % (member, old, new, term, reason)


def leader_change(member, old, new, term, op, elected_ms=None):
    """ServerState.setLeader; a new leader carries `, leader elected after <n>ms`."""
    suffix = ", leader elected after %dms" % elected_ms if elected_ms is not None else ""
    return "%s: change Leader from %s to %s at term %d for %s%s" % (member, old, new, term, op, suffix)


def to_candidate(state, elapsed_ms, timeout_ms):
    """FollowerState on an election timeout; state: the FollowerState (`<member>-FollowerState`)."""
    return "%s: change to CANDIDATE, lastRpcElapsedTime:%dms, electionTimeout:%dms" % (state, elapsed_ms, timeout_ms)


def election_result(election, phase, result="PASSED", round_no=0):
    """LeaderElection: `<member>-LeaderElection<n> <PRE_VOTE|ELECTION> round <r>: result <R>`."""
    return "%s %s round %d: result %s" % (election, phase, round_no, result)


def leader_notification(group, leader):
    """XceiverServerRatis on a datanode (datanode.md 2.4)."""
    return "Leader change notification received for group: %s with new leaderId: %s" % (group, leader)


# ---- SCM HA (scm.md 2.1) -----------------------------------------------------------------------------
def scm_becomes_leader(scm_id, term):
    return "current SCM %s becomes leader of term %d" % (scm_id, term)


def scm_steps_down(scm_id):
    return "SCM %s steps down from being leader." % scm_id


def scm_leader_changed(leader_id, scm_id):
    return "Leader changed to %s, current SCM %s is still follower." % (leader_id, scm_id)


def ctx_leader(was_leader, old_term, is_leader, new_term):
    """SCMContext.updateLeaderAndTerm."""
    return "update <isLeader,term> from <%s,%d> to <%s,%d>" % (
        str(was_leader).lower(), old_term, str(is_leader).lower(), new_term)


def ctx_ready(was_ready, is_ready):
    return "update <isLeaderReady> from <%s> to <%s>" % (str(was_ready).lower(), str(is_ready).lower())


RM_RUNNING = "Service ReplicationManager transitions to RUNNING."
SBDS_RUNNING = "notifyStatusChanged:RUNNING"


# ---- node health on SCM (scm.md 2.2) -----------------------------------------------------------------
def stale_node(dn, pipelines):
    """StaleNodeHandler; pipelines: their ids as PipelineID prints them (`Pipeline-<uuid>`)."""
    return "Datanode %s moved to stale state. Finalizing its pipelines [%s]" % (dn, ", ".join(pipelines))


def not_finalized(pipeline, dn):
    """StaleNodeHandler / StartDatanodeAdminHandler on a follower SCM."""
    return "Could not finalize pipeline=%s for dn=%s" % (pipeline, dn)


def dead_node(dn):
    return "A dead datanode is detected. %s" % dn


def queue_cleared(dn, size=0):
    return "Clearing command queue of size %d for DN %s" % (size, dn)


def healthy_node(dn):
    return "Datanode %s moved to HEALTHY state." % dn


# ---- datanode endpoints (datanode.md 2.6) ------------------------------------------------------------
def detected_timeout(endpoint):
    """RunningDatanodeState WARN when an endpoint task outlives the heartbeat interval."""
    return "Detected timeout: Timeout occurred on endpoint: %s" % endpoint


def unable_to_communicate(endpoint, seconds):
    """EndpointStateMachine.logIfNeeded WARN (HEAD wording, endpoint a HostAndPort)."""
    return "Unable to communicate to SCM server at %s past %d seconds." % (endpoint, seconds)


def connect_refused(host, ip, dest, port=9861):
    """Hadoop NetUtils.wrapException of a refused connection: the exception line."""
    return ("java.net.ConnectException: Call From %s/%s to %s:%d failed on connection exception: "
            "java.net.ConnectException: Connection refused; For more details see:  "
            "http://wiki.apache.org/hadoop/ConnectionRefused" % (host, ip, dest, port))


# ---- process start and stop (HddsServerUtil.startupShutdownMessage; not in the catalogue, read at
#      ozone-2.2.0) ------------------------------------------------------------------------------------
def _banner(prefix, lines):
    rule = "*" * 60
    return "%s\n/%s\n%s\n%s/" % (prefix, rule, "\n".join(prefix + line for line in lines), rule)


def startup_msg(daemon, host, ip, version, build, classpath, conf, java="17.0.12", args="[]"):
    """The multi-line STARTUP_MSG INFO a daemon logs first (StringUtils.createStartupShutdownMessage)."""
    fields = [("host", "%s/%s" % (host, ip)), ("version", version), ("build", build), ("java", java), ("args", args),
              ("classpath", classpath), ("conf", conf)]
    return _banner("STARTUP_MSG: ", ["Starting " + daemon] + ["%11s = %s" % kv for kv in fields])


def shutdown_msg(daemon, host, ip):
    """The SHUTDOWN_MSG INFO of the shutdown hook."""
    return _banner("SHUTDOWN_MSG: ", ["Shutting down %s at %s/%s" % (daemon, host, ip)])
