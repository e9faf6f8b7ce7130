//! Entity extraction over the catalogues' example messages (/work/shared/ozone-logs scm.md §4.3,
//! §5.3, §5.4; datanode.md §1.5, §3.A, §3.B; om.md §3.6), i.e. the `%m` part of main-log records.

use oztrace_parser::entity::{
    Entity, OpenKeyPath, TrackedNodeMap, decode_client_id, find_blocks, find_containers,
    find_datanode_details, find_groups, find_member_ids, find_pipelines, find_term_indexes,
    group_of_pipeline, key_entity, om_log_key, open_key_path,
};

const DN1: &str = "9e1d3b5a-7c2f-4a8e-b6d1-3f5c7e9a2b40";
const DN3: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27";
const DN5: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13";
const PIPE: &str = "8a1f2e3d-4c5b-4a69-b7d8-0e1f2a3b4c5d";

/// The entities a line names, in order of appearance, without repeats.
fn entities(msg: &str) -> Vec<String> {
    let mut found: Vec<(usize, Entity)> = Vec::new();
    found.extend(find_datanode_details(msg).map(|m| (m.span.start, m.value.entity())));
    found.extend(find_containers(msg).map(|m| (m.span.start, Entity::Container(m.value))));
    found.extend(find_blocks(msg).map(|m| (m.span.start, m.value.entity())));
    found.extend(
        find_pipelines(msg).filter_map(|m| Some((m.span.start, Entity::pipeline(m.value)?))),
    );
    found.extend(find_groups(msg).filter_map(|m| Some((m.span.start, Entity::group(m.value)?))));
    found.sort_by_key(|(at, _)| *at);
    let mut names: Vec<String> = Vec::new();
    for (_, entity) in found {
        let name = entity.to_string();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

#[test]
fn scm_container_lifecycle_lines() {
    let resurrect = format!(
        "Resurrecting container #1051 from DELETED to QUASI_CLOSED due to non-empty OPEN replica (keyCount=37, BCSID=4790) \
         from Container #1051 (DELETED, sid=4821) r0 (OPEN, bcsid=4790, origin={DN5}, non-empty) from dn {DN5}(dn5.example.com/10.0.1.15)"
    );
    assert_eq!(
        entities(&resurrect),
        ["container:1051".to_string(), format!("datanode:{DN5}")]
    );

    let replicate = format!(
        "Sending command [replicateContainerCommand: cmdID: 119003360, encodedToken: \"\", term: 0, deadlineMsSinceEpoch: 0, \
         containerId=1051, replicaIndex=0, targetNode={DN1}(dn1.example.com/10.0.1.11), priority=NORMAL] for container \
         ContainerInfo{{id=#1051, state=QUASI_CLOSED, stateEnterTime=2026-08-20T11:02:47.391Z, pipelineID=Pipeline-{PIPE}, owner=om1}} \
         to {DN5}(dn5.example.com/10.0.1.15) with datanode deadline 1755688923870 and scm deadline 1755689523870"
    );
    assert_eq!(
        entities(&replicate),
        [
            "container:1051".to_string(),
            format!("datanode:{DN1}"),
            format!("pipeline:{PIPE}"),
            format!("datanode:{DN5}"),
        ]
    );

    // 2.0.0 ContainerInfo prints PipelineID=<uuid> inside pipelineID=.
    let old = format!(
        "ContainerInfo{{id=#7, state=CLOSED, stateEnterTime=x, pipelineID=PipelineID={PIPE}, owner=om1}}"
    );
    assert_eq!(
        entities(&old),
        ["container:7".to_string(), format!("pipeline:{PIPE}")]
    );

    let follower = "org.apache.hadoop.hdds.scm.exceptions.SCMException: org.apache.ratis.protocol.exceptions.NotLeaderException: \
                    Server 2d1e3f40-5b6c-4d7e-9f80-a1b2c3d4e5f6@group-112233445566 is not the leader, suggested leader is: \
                    1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5|scm1.example.com:9894";
    let member = find_member_ids(follower).next().unwrap().value;
    assert_eq!(
        (Entity::scm(member.peer).unwrap().to_string(), member.group),
        (
            "scm:2d1e3f40-5b6c-4d7e-9f80-a1b2c3d4e5f6".to_string(),
            "112233445566"
        )
    );
}

#[test]
fn scm_admin_lines_and_tracked_nodes() {
    let lines = [
        format!(
            "Force flag = false. Checking if decommission is possible for dns: [{DN3}(dn3.example.com/10.0.1.13)]"
        ),
        format!(
            "Admin start on datanode {DN3}(dn3.example.com/10.0.1.13). Finalizing its pipelines [Pipeline-5e0c1d2a-9b7f-4c3e-a1d2-6f8e0b4c7a91]"
        ),
        format!(
            "Datanode {DN5}(dn5.example.com/10.0.1.15) moved to stale state. Finalizing its pipelines [Pipeline-{PIPE}]"
        ),
    ];
    assert_eq!(entities(&lines[0]), [format!("datanode:{DN3}")]);
    assert_eq!(
        entities(&lines[1]),
        [
            format!("datanode:{DN3}"),
            "pipeline:5e0c1d2a-9b7f-4c3e-a1d2-6f8e0b4c7a91".to_string()
        ]
    );

    let mut tracked = TrackedNodeMap::new();
    for line in &lines {
        tracked.observe(line);
    }
    let recommissioned = "Recommissioned node org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl$TrackedNode@d71c744d";
    let progress = "org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl$TrackedNode@2fb0b161 has 412 sufficientlyReplicated, \
                    3 deleting, 0 underReplicated and 0 unclosed containers";
    assert_eq!(tracked.resolve_in(recommissioned), Entity::datanode(DN3));
    assert_eq!(tracked.resolve_in(progress), Entity::datanode(DN5));
    // `412 sufficientlyReplicated` and `0 unclosed containers` are counts, not containers.
    assert!(entities(progress).is_empty());
}

#[test]
fn datanode_ratis_and_container_lines() {
    let role = "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4: changes role from    LEADER to FOLLOWER at term 7 for StepDownReason:HIGHER_TERM";
    let member = find_member_ids(role).next().unwrap().value;
    assert_eq!(
        Entity::datanode(member.peer).unwrap().to_string(),
        "datanode:3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c"
    );
    assert_eq!(entities(role), ["group:D2C8A1B9F0E4"]);

    let timeout = "Timeout 10s: WriteLog:18342: (t:6, i:18342), STATEMACHINELOGENTRY, cmdType: WriteChunk traceID: \"\" containerID: 1042 \
                   datanodeUuid: \"3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c\" pipelineID: \"d2c8a1b9-f0e4-4a5b-8c6d-0e1fd2c8a1b9\" writeChunk { blockID { \
                   containerID: 1042 localID: 113750153625600017 blockCommitSequenceId: 0 } chunkData { chunkName: \"113750153625600017_chunk_2\" } }";
    assert_eq!(
        entities(timeout),
        [
            "container:1042",
            "pipeline:d2c8a1b9-f0e4-4a5b-8c6d-0e1fd2c8a1b9",
            "block:1042:113750153625600017",
        ]
    );
    let term_index = find_term_indexes(timeout).next().unwrap().value;
    assert_eq!((term_index.term, term_index.index), (Some(6), Some(18342)));
    // The CSM's Ratis group is the pipeline's.
    assert_eq!(
        group_of_pipeline("d2c8a1b9-f0e4-4a5b-8c6d-0e1fd2c8a1b9").as_deref(),
        Some("0E1FD2C8A1B9")
    );

    let close = "pipeline Action CLOSE on pipeline Pipeline-5e0c1d2a-9b7f-4c3e-a1d2-6f8e0b4c7a91.Reason : x";
    assert_eq!(
        entities(close),
        ["pipeline:5e0c1d2a-9b7f-4c3e-a1d2-6f8e0b4c7a91"]
    );
    assert_eq!(
        entities("Marked Container UNHEALTHY, ContainerID: 2077"),
        ["container:2077"]
    );
    assert_eq!(
        entities(
            "Operation: WriteChunk , Trace ID:  , Message: Chunk offset 12582912 does not match length 8388608 of blockFile 113750153625600017.block , Result: CHUNK_FILE_INCONSISTENCY , StorageContainerException Occurred."
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        entities(
            "Corruption detected in container [1042]. Marking it UNHEALTHY. Container has 1 error: MISSING_CHUNK for file f with exception: java.io.IOException: Missing chunk=113750153625600017_chunk_3 with expected length=4194304 for block conID: 1042 locID: 113750153625600017 bcsId: 18360 replicaIndex: null"
        ),
        ["container:1042", "block:1042:113750153625600017"]
    );
}

#[test]
fn om_lines_and_client_ids() {
    let failed = "Key committed failed. Volume:hbase, Bucket:wal, Key:WALs/rs1/rs1.1762164000000. Exception:{}";
    let key = om_log_key(failed).unwrap();
    assert_eq!(
        key.entity(),
        Some(key_entity("hbase", "wal", "WALs/rs1/rs1.1762164000000"))
    );
    assert_eq!(
        key.entity().unwrap().to_string(),
        "key:/hbase/wal/WALs/rs1/rs1.1762164000000"
    );

    let exception = "KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Failed to commit key, as \
                     /-9223372036854567936/-9223372036854511360/-9223372035710148352/rs1.1762164000000/115485179904000017 \
                     entry is not found in the OpenKey table";
    let path = exception
        .split(" as ")
        .nth(1)
        .and_then(|rest| rest.strip_suffix(" entry is not found in the OpenKey table"))
        .unwrap();
    let Some(OpenKeyPath::Fso {
        file_name,
        client_id,
        ..
    }) = open_key_path(path)
    else {
        panic!("not an FSO open key: {path}");
    };
    assert_eq!(file_name, "rs1.1762164000000");
    // The session was opened at the CREATE_FILE time, 2025-11-03T10:00:00Z.
    assert_eq!(decode_client_id(client_id), (1762164000000, 17));

    let client = "block written conID: 4021 locID: 115816896921600001 bcsId: 90188 replicaIndex: null, length 45190211 bcsID 90188";
    assert_eq!(
        entities(client),
        ["container:4021", "block:4021:115816896921600001"]
    );
}
