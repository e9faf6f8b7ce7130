"""Logger names: the fully qualified name of the class that logs (catalogue section "Loggers" of
om.md, scm.md, datanode.md)."""

# ---- Ratis (inside SCM and datanodes) ----------------------------------------------------------------
RAFT_DIVISION = "org.apache.ratis.server.RaftServer$Division"
FOLLOWER_STATE = "org.apache.ratis.server.impl.FollowerState"
LEADER_ELECTION = "org.apache.ratis.server.impl.LeaderElection"
ROLE_INFO = "org.apache.ratis.server.impl.RoleInfo"
SM_UPDATER = "org.apache.ratis.server.impl.StateMachineUpdater"
RAFT_LOG = "org.apache.ratis.server.raftlog.RaftLog"
RAFT_LOG_CACHE = "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogCache"
RAFT_LOG_WORKER = "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker"

# ---- SCM ---------------------------------------------------------------------------------------------
SCM_STATE_MACHINE = "org.apache.hadoop.hdds.scm.ha.SCMStateMachine"
SCM_CONTEXT = "org.apache.hadoop.hdds.scm.ha.SCMContext"
SCM_HA_MANAGER = "org.apache.hadoop.hdds.scm.ha.SCMHAManagerImpl"
SCM_STARTER = "org.apache.hadoop.hdds.scm.server.StorageContainerManagerStarter"
HEARTBEAT_DISPATCHER = "org.apache.hadoop.hdds.scm.server.SCMDatanodeHeartbeatDispatcher"
NODE_MANAGER = "org.apache.hadoop.hdds.scm.node.SCMNodeManager"
DECOMMISSION_MANAGER = "org.apache.hadoop.hdds.scm.node.NodeDecommissionManager"
ADMIN_MONITOR = "org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl"
START_ADMIN_HANDLER = "org.apache.hadoop.hdds.scm.node.StartDatanodeAdminHandler"
STALE_NODE_HANDLER = "org.apache.hadoop.hdds.scm.node.StaleNodeHandler"
DEAD_NODE_HANDLER = "org.apache.hadoop.hdds.scm.node.DeadNodeHandler"
HEALTHY_READONLY_HANDLER = "org.apache.hadoop.hdds.scm.node.HealthyReadOnlyNodeHandler"
READONLY_TO_HEALTHY_HANDLER = "org.apache.hadoop.hdds.scm.node.ReadOnlyHealthyToHealthyNodeHandler"
FCR_HANDLER = "org.apache.hadoop.hdds.scm.container.ContainerReportHandler"
ICR_HANDLER = "org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler"
REPLICATION_MANAGER = "org.apache.hadoop.hdds.scm.container.replication.ReplicationManager"
EMPTY_CONTAINER_HANDLER = "org.apache.hadoop.hdds.scm.container.replication.health.EmptyContainerHandler"
BLOCK_DELETING_SERVICE = "org.apache.hadoop.hdds.scm.block.SCMBlockDeletingService"
DELETED_BLOCK_LOG = "org.apache.hadoop.hdds.scm.block.DeletedBlockLogImpl"

# ---- datanode ----------------------------------------------------------------------------------------
DATANODE_STATE_MACHINE = "org.apache.hadoop.ozone.container.common.statemachine.DatanodeStateMachine"
RUNNING_DATANODE_STATE = "org.apache.hadoop.ozone.container.common.states.datanode.RunningDatanodeState"
ENDPOINT_STATE_MACHINE = "org.apache.hadoop.ozone.container.common.statemachine.EndpointStateMachine"
HEARTBEAT_ENDPOINT_TASK = "org.apache.hadoop.ozone.container.common.states.endpoint.HeartbeatEndpointTask"
STATE_CONTEXT = "org.apache.hadoop.ozone.container.common.statemachine.StateContext"
CLOSE_CONTAINER_HANDLER = \
    "org.apache.hadoop.ozone.container.common.statemachine.commandhandler.CloseContainerCommandHandler"
HDDS_DISPATCHER = "org.apache.hadoop.ozone.container.common.impl.HddsDispatcher"
KEY_VALUE_HANDLER = "org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler"
CHUNK_UTILS = "org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils"
FILE_PER_BLOCK = "org.apache.hadoop.ozone.container.keyvalue.impl.FilePerBlockStrategy"
XCEIVER_SERVER_RATIS = "org.apache.hadoop.ozone.container.common.transport.server.ratis.XceiverServerRatis"
CONTAINER_STATE_MACHINE = "org.apache.hadoop.ozone.container.common.transport.server.ratis.ContainerStateMachine"
ON_DEMAND_SCANNER = "org.apache.hadoop.ozone.container.ozoneimpl.OnDemandContainerDataScanner"  # INFERRED class name

# ---- OM ----------------------------------------------------------------------------------------------
OPEN_KEY_CLEANUP = "org.apache.hadoop.ozone.om.service.OpenKeyCleanupService"
KEY_COMMIT = "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest"  # FSO failures too (om.md 2.3)
ALLOCATE_BLOCK = "org.apache.hadoop.ozone.om.request.key.OMAllocateBlockRequest"  # 2.2.0: final in the base class
ALLOCATE_BLOCK_FSO = "org.apache.hadoop.ozone.om.request.key.OMAllocateBlockRequestWithFSO"  # 2.0.0 / 2.1.0
KEY_DELETE_FSO = "org.apache.hadoop.ozone.om.request.key.OMKeyDeleteRequestWithFSO"
RECOVER_LEASE = "org.apache.hadoop.ozone.om.request.file.OMRecoverLeaseRequest"

# ---- Ozone client ------------------------------------------------------------------------------------
BLOCK_OUTPUT_POOL = "org.apache.hadoop.ozone.client.io.BlockOutputStreamEntryPool"
