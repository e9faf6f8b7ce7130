//! Ratis lines as Ozone daemons print them: members, elections, truncation, write timeouts,
//! entities by component.

use super::*;
use crate::catalog::classify;
use crate::catalog::tests::{
    agreed, cut_lines_never_panic, events_of, logger_classes, record_of, records, short_logger,
    untyped_by_any_logger,
};
use crate::record::Record;

const DN1: &str = "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c";
const MEMBER: &str = "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4";

/// The member id of `s`, as the events carry it.
fn member_of(s: &str) -> Arc<Member> {
    let (id, len) = member_id(s).unwrap();
    Arc::new(Member {
        member: s[..len].to_owned(),
        peer: id.peer.to_owned(),
        group: format!("group-{}", id.group),
    })
}

/// Classifies every record of `text` (as a datanode log) into its Ratis event.
fn typed(text: &str) -> Vec<(RatisEvent, Vec<String>)> {
    events_of(text, Component::Datanode)
}

/// One line of each layout: the file layout with the full logger and the console/compose
/// layout with `%c{2}`.
fn both_layouts(thread: &str, level: &str, logger: &str, msg: &str) -> [String; 2] {
    let short = short_logger(logger);
    [
        format!("2026-03-04 10:12:01,118 [{thread}] {level} {logger}: {msg}\n"),
        format!("datanode-1  | 2026-03-04 10:12:01,118 [{thread}] {level} {short}: {msg}\n"),
    ]
}

fn one(thread: &str, level: &str, logger: &str, msg: &str) -> (RatisEvent, Vec<String>) {
    agreed(
        &both_layouts(thread, level, logger, msg),
        Component::Datanode,
    )
}

const DIV: &str = "org.apache.ratis.server.RaftServer$Division";
const WORKER: &str = "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker";

#[test]
fn role_change_reads_padded_roles() {
    let (e, entities) = one(
        &format!("{MEMBER}-LeaderStateImpl"),
        "INFO",
        DIV,
        &format!(
            "{MEMBER}: changes role from    LEADER to FOLLOWER at term 7 for StepDownReason:HIGHER_TERM"
        ),
    );
    assert_eq!(e.kind(), "ratis_role_change");
    let RatisEvent::RoleChange {
        member,
        from,
        to,
        term,
        reason,
    } = e
    else {
        panic!()
    };
    assert_eq!(
        (from.as_str(), to.as_str(), term),
        ("LEADER", "FOLLOWER", 7)
    );
    assert_eq!(reason, "StepDownReason:HIGHER_TERM");
    assert_eq!(member.peer, DN1);
    assert_eq!(member.group, "group-D2C8A1B9F0E4");
    assert_eq!(
        entities,
        vec!["group:D2C8A1B9F0E4".to_string(), format!("datanode:{DN1}")]
    );

    let (e, _) = one(
        "x",
        "INFO",
        DIV,
        &format!(
            "{MEMBER}: changes role from  FOLLOWER to CANDIDATE at term 5 for changeToCandidate"
        ),
    );
    assert!(matches!(e, RatisEvent::RoleChange { ref from, term: 5, .. } if from == "FOLLOWER"));
    let (e, _) = one(
        "x",
        "INFO",
        DIV,
        &format!("{MEMBER}: changes role from      null to FOLLOWER at term 0 for startAsFollower"),
    );
    assert!(matches!(e, RatisEvent::RoleChange { ref from, .. } if from == "null"));
}

#[test]
fn role_change_on_scm_names_the_scm() {
    let text = "2026-08-20 14:00:00,000 [x] INFO org.apache.ratis.server.RaftServer$Division: 1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5@group-112233445566: changes role from CANDIDATE to LEADER at term 5 for changeToLeader\n";
    let r = &records(text)[0];
    let t = classify(r, Component::Scm).unwrap();
    assert_eq!(t.data.kind(), "ratis_role_change");
    assert!(
        t.entities
            .contains(&Entity::Scm("1c0d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5".into()))
    );
    let t = classify(r, Component::Om).unwrap();
    assert!(t.entities.iter().any(|e| e.kind() == "om"));
}

#[test]
fn leader_change_and_stale_leader() {
    let (e, _) = one(
        "grpc-default-executor-12",
        "INFO",
        DIV,
        &format!(
            "{MEMBER}: change Leader from null to 8a1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e at term 7 for APPEND_ENTRIES, leader elected after 113ms"
        ),
    );
    assert_eq!(
        e,
        RatisEvent::LeaderChange {
            member: member_of(MEMBER),
            old_leader: None,
            new_leader: Some("8a1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e".into()),
            term: 7,
            op: "APPEND_ENTRIES".into(),
            elected_after_ms: Some(113),
        }
    );
    let (e, _) = one(
        "x",
        "INFO",
        DIV,
        &format!("{MEMBER}: change Leader from {DN1} to null at term 8 for changeToCandidate"),
    );
    assert!(matches!(
        e,
        RatisEvent::LeaderChange {
            new_leader: None,
            elected_after_ms: None,
            term: 8,
            ..
        }
    ));
    let (e, _) = one(
        "x",
        "WARN",
        DIV,
        &format!(
            "{MEMBER}: Failed to recognize {DN1} as leader for APPEND_ENTRIES since peerTerm = 5 < currentTerm = 7"
        ),
    );
    assert!(matches!(
        e,
        RatisEvent::StaleLeaderRejected {
            peer_term: 5,
            current_term: 7,
            ..
        }
    ));
}

#[test]
fn leader_state_lines() {
    let (e, _) = one(
        "x",
        "WARN",
        DIV,
        &format!(
            "{MEMBER}-LeaderStateImpl: Lost leadership on term: 7. Election timeout: 5000ms. In charge for: 61234ms. Conf: -1: peers:[]|listeners:[], old=null"
        ),
    );
    assert_eq!(e.kind(), "ratis_lost_leadership");
    assert!(matches!(
        e,
        RatisEvent::LostLeadership {
            term: 7,
            election_timeout_ms: Some(5000),
            in_charge_ms: Some(61234),
            ..
        }
    ));
    let (e, _) = one(
        "x",
        "WARN",
        DIV,
        &format!("{MEMBER}-LeaderStateImpl: Failed to step down for term 7"),
    );
    assert!(matches!(e, RatisEvent::StepDownFailed { term: 7, .. }));
}

/// Lines checked by what their event must match: (thread, logger, message, check).
type Expected = (String, &'static str, String, fn(&RatisEvent) -> bool);

fn check_all(cases: Vec<Expected>) {
    for (thread, logger, message, expected) in cases {
        let (e, _) = one(&thread, "INFO", logger, &message);
        assert!(expected(&e), "{message}: {e:?}");
    }
}

#[test]
fn votes_and_appends() {
    check_all(vec![
        (
            "grpc-default-executor-9".into(),
            DIV,
            format!(
                "{MEMBER}: receive requestVote(PRE_VOTE, 6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71, group-D2C8A1B9F0E4, 6, (t:6, i:18341))"
            ),
            |e| matches!(e, RatisEvent::VoteRequest { candidate_term: 6, candidate_last_index: Some(18341), phase, .. } if phase == "PRE_VOTE"),
        ),
        (
            "x".into(),
            DIV,
            format!(
                "{MEMBER} replies to ELECTION vote request: 6e8d<-3f2b#0:OK-t7. Peer's state: {MEMBER}:t7, leader=null"
            ),
            |e| matches!(e, RatisEvent::VoteReply { phase, .. } if phase == "ELECTION"),
        ),
        (
            "x".into(),
            DIV,
            format!(
                "{MEMBER}: appendEntries* reply 6e8d<-3f2b#0:FAIL-t7,INCONSISTENCY,nextIndex=18342,followerCommit=18341,matchIndex=-1"
            ),
            |e| matches!(e, RatisEvent::AppendReply { next_index: Some(18342), result: Some(r), .. } if r == "INCONSISTENCY"),
        ),
        (
            "x".into(),
            DIV,
            format!(
                "{MEMBER}: Failed appendEntries as previous log entry ((t:7, i:18342)) is not found"
            ),
            |e| {
                matches!(
                    e,
                    RatisEvent::AppendPreviousMissing {
                        previous_term: Some(7),
                        previous_index: Some(18342),
                        ..
                    }
                )
            },
        ),
    ]);
}

#[test]
fn elections_follower_state_and_role_daemons() {
    const ELECTION: &str = "org.apache.ratis.server.impl.LeaderElection";
    const FOLLOWER: &str = "org.apache.ratis.server.impl.FollowerState";
    let name = format!("{MEMBER}-LeaderElection3");
    check_all(vec![
        (
            name.clone(),
            ELECTION,
            format!("{name} PRE_VOTE round 0: submit vote requests at term 5 for conf=-1"),
            |e| matches!(e, RatisEvent::ElectionSubmit { round: 0, term: 5, election, .. } if election == "LeaderElection3"),
        ),
        (
            name.clone(),
            ELECTION,
            format!("{name} PRE_VOTE round 0: result REJECTED"),
            |e| matches!(e, RatisEvent::ElectionResult { result, .. } if result == "REJECTED"),
        ),
        (
            name.clone(),
            ELECTION,
            format!("{name}: ELECTION PASSED received 2 response(s) and 0 exception(s):"),
            |e| matches!(e, RatisEvent::ElectionResponses { responses: 2, exceptions: 0, result, .. } if result == "PASSED"),
        ),
        (
            "x".into(),
            FOLLOWER,
            format!(
                "{MEMBER}-FollowerState: change to CANDIDATE, lastRpcElapsedTime:5219ms, electionTimeout:5012ms"
            ),
            |e| {
                matches!(
                    e,
                    RatisEvent::ElectionTimeout {
                        last_rpc_elapsed_ms: Some(5219),
                        election_timeout_ms: Some(5012),
                        ..
                    }
                )
            },
        ),
        (
            "x".into(),
            FOLLOWER,
            format!(
                "{MEMBER}: change to CANDIDATE, lastRpcElapsedTime:5236ms, electionTimeout:5119ms"
            ),
            |e| matches!(e, RatisEvent::ElectionTimeout { member, last_rpc_elapsed_ms: Some(5236), .. } if member.member == MEMBER),
        ),
        (
            "x".into(),
            "org.apache.ratis.server.impl.RoleInfo",
            format!("{DN1}: shutdown {MEMBER}-LeaderStateImpl"),
            |e| matches!(e, RatisEvent::RoleDaemon { action, daemon, .. } if action == "shutdown" && daemon == "LeaderStateImpl"),
        ),
    ]);
    // A response names the replier's peer.
    let (e, entities) = one(
        &name,
        "INFO",
        ELECTION,
        &format!("  Response 0: {DN1}<-6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71#0:OK-t6"),
    );
    assert!(matches!(
        e,
        RatisEvent::ElectionResponse {
            granted: true,
            index: 0,
            ..
        }
    ));
    assert_eq!(
        entities,
        vec!["datanode:6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71".to_string()]
    );
}

#[test]
fn log_truncate_reads_the_continuation_lines() {
    let text = format!(
        "2026-03-04 10:12:01,245 [grpc-default-executor-12] INFO {WORKER}: {MEMBER}-SegmentedRaftLogWorker: Truncating segments truncate(18342)\n  toTruncate: (17901, 18345) isOpen? true, length=96231, newEndIndex=18341\n    toDelete: [], start index 18342\n\
         dn1 | 2026-03-04 10:12:01,245 [grpc-default-executor-12] INFO segmented.SegmentedRaftLogWorker: {MEMBER}-SegmentedRaftLogWorker: Truncating segments truncate(18342)\n\
         dn1 |   toTruncate: (17901, 18345) isOpen? true, length=96231, newEndIndex=18341\n\
         dn1 |     toDelete: [], start index 18342\n"
    );
    // The two layouts cannot share a stream: read them one by one.
    let (file, compose) = text.split_at(text.find("dn1 |").unwrap());
    for part in [file, compose] {
        let all = typed(part);
        assert_eq!(all.len(), 1, "{part}");
        let (e, entities) = &all[0];
        assert_eq!(e.kind(), "ratis_log_truncate");
        assert!(matches!(
            e,
            RatisEvent::LogTruncate {
                index: 18342,
                segment_start: Some(17901),
                segment_end: Some(18345),
                new_end_index: Some(18341),
                ..
            }
        ));
        assert!(entities.contains(&"group:D2C8A1B9F0E4".to_string()));
    }
}

#[test]
fn segment_lines() {
    let w = format!("{MEMBER}-SegmentedRaftLogWorker");
    let cases = [
        (
            format!(
                "{w}: Truncated log file /data/ratis/x/current/log_inprogress_17901 to length 96231 and moved it to /data/ratis/x/current/log_17901-18341"
            ),
            "ratis_log_file_truncated",
        ),
        (
            format!(
                "{w}: Deleted RaftLog segment for truncate(18342): path=/data/ratis/x/current/log_18342-18400"
            ),
            "ratis_segment_deleted",
        ),
        (
            format!("{w}: Rolling segment log-17501_18000 to index:18000"),
            "ratis_segment_rolling",
        ),
        (
            format!("{w}: Rolled log segment from /a/log_inprogress_17501 to /a/log_17501-18000"),
            "ratis_segment_rolled",
        ),
        (
            format!("{w}: Starting segment from index:18001"),
            "ratis_segment_started",
        ),
        (
            format!("{w}: created new log segment /a/log_inprogress_18001"),
            "ratis_segment_created",
        ),
        (
            format!(
                "{w}: writeStateMachineData failed for index 18342, entry=(t:6, i:18342), STATEMACHINELOGENTRY, x"
            ),
            "ratis_write_sm_data_failed",
        ),
    ];
    for (msg, kind) in cases {
        let (e, _) = one(&w, "INFO", WORKER, &msg);
        assert_eq!(e.kind(), kind, "{msg}");
    }
    let (e, _) = one(
        &w,
        "INFO",
        WORKER,
        &format!("{w}: Truncated log file /a to length 96231 and moved it to /b"),
    );
    assert!(matches!(
        e,
        RatisEvent::LogFileTruncated {
            length: Some(96231),
            ..
        }
    ));
    let (e, _) = one(
        &w,
        "INFO",
        WORKER,
        &format!("{w}: Rolling segment log-17501_18000 to index:18000"),
    );
    assert!(matches!(
        e,
        RatisEvent::SegmentRolling {
            index: Some(18000),
            ..
        }
    ));
}

#[test]
fn write_timeout_names_the_pending_entry() {
    let text = format!(
        "2026-03-04 10:11:58,402 [{MEMBER}-SegmentedRaftLogWorker] WARN {WORKER}: Timeout 0/~\n\
org.apache.ratis.protocol.exceptions.TimeoutIOException: Timeout 10s: WriteLog:18342: (t:6, i:18342), STATEMACHINELOGENTRY, cmdType: WriteChunk traceID: \"\" containerID: 1043 datanodeUuid: \"{DN1}\" pipelineID: \"7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b\" writeChunk {{ blockID {{ containerID: 1043 localID: 113750153625600019 blockCommitSequenceId: 0 }} chunkData {{ chunkName: \"113750153625600019_chunk_0\" offset: 0 len: 4194304 }} }}, container path=/data/disk2/hdds/1043-writeStateMachineData\n\
\tat org.apache.ratis.util.IOUtils.getFromFuture(IOUtils.java:89)\n"
    );
    let all = typed(&text);
    let (e, entities) = &all[0];
    assert_eq!(
        e,
        &RatisEvent::WriteTimeout(Box::new(WriteTimeout {
            retry: 0,
            max_retries: None,
            term: Some(6),
            index: Some(18342),
            cmd: Some("WriteChunk".into()),
            container: Some(1043),
            local: Some(113750153625600019),
            chunk: Some("113750153625600019_chunk_0".into()),
            pipeline: Some("7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b".into()),
            datanode: Some(DN1.into()),
        }))
    );
    for want in [
        "group:41A9C03D5E7B",
        "container:1043",
        "block:1043:113750153625600019",
        "pipeline:7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b",
    ] {
        assert!(entities.contains(&want.to_string()), "{want}: {entities:?}");
    }
    let (e, _) = one("x", "WARN", WORKER, "Timeout 3/5");
    assert!(matches!(
        &e,
        RatisEvent::WriteTimeout(timeout) if matches!(**timeout, WriteTimeout {
            retry: 3,
            max_retries: Some(5),
            index: None,
            ..
        })
    ));
}

#[test]
fn raft_log_and_cache_trace_lines() {
    let rl = "org.apache.ratis.server.raftlog.RaftLog";
    let (e, entities) = one("x", "DEBUG", rl, "truncateIndex=18342, arrayIndex=0");
    assert_eq!(
        e,
        RatisEvent::TruncateIndex {
            truncate_index: 18342,
            array_index: 0
        }
    );
    assert!(entities.is_empty());
    let (e, _) = one("x", "DEBUG", rl, "truncateIndex=-1, arrayIndex=0");
    assert!(matches!(
        e,
        RatisEvent::TruncateIndex {
            truncate_index: -1,
            ..
        }
    ));
    let (e, _) = one(
        "x",
        "TRACE",
        rl,
        &format!(
            "{MEMBER}-SegmentedRaftLog: appendEntry (t:7, i:18343), STATEMACHINELOGENTRY, 626@client-3E8A41D7C2B9"
        ),
    );
    assert!(
        matches!(e, RatisEvent::AppendEntry { term: Some(7), index: Some(18343), ref body, .. } if body == "STATEMACHINELOGENTRY")
    );
    let (e, _) = one(
        "x",
        "TRACE",
        rl,
        &format!(
            "{MEMBER}-SegmentedRaftLog: appendEntry (t:7, i:18342), CONFIGURATIONENTRY(current:id: \"a\""
        ),
    );
    assert!(matches!(e, RatisEvent::AppendEntry { ref body, .. } if body == "CONFIGURATIONENTRY"));
    let (e, _) = one(
        "x",
        "TRACE",
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogCache",
        &format!(
            "{MEMBER}-SegmentedRaftLogCache: truncate to 18342, arrayIndex=0, ti=(t:7, i:18342), storedEntry=(t:6, i:18342), entries=[(t:7, i:18343), STATEMACHINELOGENTRY, 626@client-3E8A41D7C2B9, (t:7, i:18344), STATEMACHINELOGENTRY, 418@client-1]"
        ),
    );
    assert_eq!(
        e,
        RatisEvent::CacheTruncate {
            member: member_of(MEMBER),
            index: 18342,
            new_term: Some(7),
            stored_term: Some(6),
            new_indexes: vec![18343, 18344],
        }
    );
}

#[test]
fn updater_lines() {
    let up = "org.apache.ratis.server.impl.StateMachineUpdater";
    let (e, _) = one(
        "x",
        "INFO",
        up,
        &format!("{MEMBER}-StateMachineUpdater: Took a snapshot at index 17585"),
    );
    assert!(matches!(e, RatisEvent::SnapshotTaken { index: 17585, .. }));
    let (e, _) = one(
        "x",
        "ERROR",
        up,
        &format!(
            "Exception while {MEMBER}-StateMachineUpdater: applying txn index=18345, nextLog=(t:7, i:18346)"
        ),
    );
    assert!(matches!(
        e,
        RatisEvent::ApplyFailed {
            index: Some(18345),
            ..
        }
    ));
}

#[test]
fn layouts_without_a_logger_still_type() {
    let message =
        format!("{MEMBER}: changes role from    LEADER to FOLLOWER at term 7 for APPEND_ENTRIES");
    let rec = Record {
        logger: None,
        ..record_of("", &message, "")
    };
    let t = classify(&rec, Component::Datanode).unwrap();
    assert_eq!(t.data.kind(), "ratis_role_change");
}

#[test]
fn bad_input_is_not_typed_and_never_panics() {
    let bad = [
        "",
        "@group-",
        "x@group-D2C8A1B9F0E4: changes role from",
        "x@group-D2C8A1B9F0E4: changes role from LEADER to FOLLOWER at term x for y",
        "x@group-D2C8A1B9F0E4: change Leader from a to b at term",
        "Timeout x/~",
        "truncateIndex=a, arrayIndex=0",
        "é@group-D2C8A1B9F0E4-SegmentedRaftLogWorker: Truncating segments truncate(",
    ];
    untyped_by_any_logger::<RatisEvent>(&bad, &logger_classes(STATEMENTS));
}

#[test]
fn cut_lines_never_panic_in_any_logger() {
    let lines = [
        format!("{MEMBER}: changes role from    LEADER to FOLLOWER at term 7 for candidate:{DN1}"),
        format!(
            "{MEMBER}: change Leader from null to {DN1} at term 7 for APPEND_ENTRIES, leader elected after 58ms"
        ),
        format!("{MEMBER}-SegmentedRaftLogWorker: Truncating segments truncate(18342)"),
        format!(
            "{MEMBER}-SegmentedRaftLogCache: truncate to 18342, arrayIndex=0, ti=(t:7, i:18342), storedEntry=(t:6, i:18342), entries=[(t:7, i:18343)]"
        ),
        format!(
            "{MEMBER}-SegmentedRaftLog: appendEntry (t:7, i:18343), STATEMACHINELOGENTRY, 626@client-3E8A41D7C2B9"
        ),
        format!(
            "{MEMBER}-LeaderElection3: ELECTION PASSED received 2 response(s) and 0 exception(s):"
        ),
        format!(
            "{MEMBER}: receive requestVote(PRE_VOTE, {DN1}, group-D2C8A1B9F0E4, 6, (t:6, i:18341))"
        ),
        "Timeout 0/~".to_string(),
        "  Response 0: a<-b#0:OK-t6".to_string(),
    ];
    let continuation = "  toTruncate: (17901, 18345) isOpen? true, length=96231, newEndIndex=18341\nWriteLog:1: (t:6, i:1), STATEMACHINELOGENTRY, containerID: 5 pipelineID: \"é";
    cut_lines_never_panic::<RatisEvent>(&lines, continuation, &logger_classes(STATEMENTS));
}

#[test]
fn every_kind_is_registered() {
    let m = || member_of(MEMBER);
    let samples = [
        RatisEvent::RoleChange {
            member: m(),
            from: String::new(),
            to: String::new(),
            term: 0,
            reason: String::new(),
        },
        RatisEvent::LeaderChange {
            member: m(),
            old_leader: None,
            new_leader: None,
            term: 0,
            op: String::new(),
            elected_after_ms: None,
        },
        RatisEvent::StaleLeaderRejected {
            member: m(),
            leader: String::new(),
            op: String::new(),
            peer_term: 0,
            current_term: 0,
        },
        RatisEvent::LostLeadership {
            member: m(),
            term: 0,
            election_timeout_ms: None,
            in_charge_ms: None,
        },
        RatisEvent::StepDownFailed {
            member: m(),
            term: 0,
        },
        RatisEvent::ElectionTimeout {
            member: m(),
            last_rpc_elapsed_ms: None,
            election_timeout_ms: None,
        },
        RatisEvent::RoleDaemon {
            member: m(),
            action: String::new(),
            daemon: String::new(),
        },
        RatisEvent::ElectionSubmit {
            member: m(),
            election: String::new(),
            phase: String::new(),
            round: 0,
            term: 0,
        },
        RatisEvent::ElectionResult {
            member: m(),
            election: String::new(),
            phase: String::new(),
            round: 0,
            result: String::new(),
        },
        RatisEvent::ElectionResponses {
            member: m(),
            election: String::new(),
            phase: String::new(),
            result: String::new(),
            responses: 0,
            exceptions: 0,
        },
        RatisEvent::ElectionResponse {
            index: 0,
            reply: String::new(),
            requestor: String::new(),
            replier: String::new(),
            granted: false,
        },
        RatisEvent::VoteRequest {
            member: m(),
            phase: String::new(),
            candidate: String::new(),
            candidate_term: 0,
            candidate_last_index: None,
        },
        RatisEvent::VoteReply {
            member: m(),
            phase: String::new(),
            reply: String::new(),
        },
        RatisEvent::AppendReply {
            member: m(),
            result: None,
            next_index: None,
            reply: String::new(),
        },
        RatisEvent::AppendPreviousMissing {
            member: m(),
            previous_term: None,
            previous_index: None,
        },
        RatisEvent::LogTruncate {
            member: m(),
            index: 0,
            segment_start: None,
            segment_end: None,
            new_end_index: None,
        },
        RatisEvent::LogFileTruncated {
            member: m(),
            file: String::new(),
            length: None,
            moved_to: String::new(),
        },
        RatisEvent::SegmentDeleted {
            member: m(),
            reason: String::new(),
            path: String::new(),
        },
        RatisEvent::SegmentRolling {
            member: m(),
            segment: String::new(),
            index: None,
        },
        RatisEvent::SegmentRolled {
            member: m(),
            from: String::new(),
            to: String::new(),
        },
        RatisEvent::SegmentStarted {
            member: m(),
            index: None,
        },
        RatisEvent::SegmentCreated {
            member: m(),
            path: String::new(),
        },
        RatisEvent::WriteTimeout(Box::new(WriteTimeout {
            retry: 0,
            max_retries: None,
            term: None,
            index: None,
            cmd: None,
            container: None,
            local: None,
            chunk: None,
            pipeline: None,
            datanode: None,
        })),
        RatisEvent::WriteStateMachineDataFailed {
            member: m(),
            index: 0,
            term: None,
        },
        RatisEvent::TruncateIndex {
            truncate_index: 0,
            array_index: 0,
        },
        RatisEvent::AppendEntry {
            member: m(),
            term: None,
            index: None,
            body: String::new(),
        },
        RatisEvent::CacheTruncate {
            member: m(),
            index: 0,
            new_term: None,
            stored_term: None,
            new_indexes: vec![],
        },
        RatisEvent::SnapshotTaken {
            member: m(),
            index: 0,
        },
        RatisEvent::ApplyFailed {
            member: m(),
            index: None,
        },
    ];
    let kinds: std::collections::BTreeSet<&str> = KINDS.iter().map(|k| k.kind).collect();
    assert_eq!(samples.len(), kinds.len());
    for s in &samples {
        assert!(KINDS.iter().any(|k| k.kind == s.kind()), "{}", s.kind());
    }
}

#[test]
fn role_change_serialises_the_contract_fields() {
    let (e, _) = one(
        "x",
        "INFO",
        DIV,
        &format!("{MEMBER}: changes role from    LEADER to FOLLOWER at term 7 for candidate:{DN1}"),
    );
    let json = serde_json::to_value(&e).unwrap();
    for field in ["member", "peer", "group", "from", "to", "term", "reason"] {
        assert!(json.get(field).is_some(), "{field}: {json}");
    }
}
