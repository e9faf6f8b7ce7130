use super::*;
use crate::testing;
use crate::{LoggingCoverage, Settings};
use oztrace_parser::catalog::datanode::DnAudit;
use oztrace_parser::source::Component;

const KEY: &str = "key:/logs/raw/apps/c.log";
const CLIENT: &str = "117118339855548433";

/// One OM audit line of key `apps/c.log` at `time` (`HH:MM:SS` on 2026-08-18).
fn audit(time: &str, user: &str, op: &str, extra: &str, ret: &str, throwable: &str) -> String {
    let ip = if user.is_empty() { "" } else { "10.20.3.15" };
    let level = if ret == "FAILURE" { "ERROR" } else { "INFO " };
    format!(
        "2026-08-18 {time},000 | {level} | OMAudit | user={user} | ip={ip} | op={op} {{\"volume\":\"logs\",\"bucket\":\"raw\",\"key\":\"apps/c.log\"{extra}}} | ret={ret} | {throwable}"
    )
}

fn size(n: u64) -> String {
    format!(r#","dataSize":"{n}","replicationType":"RATIS","replicationFactor":"THREE""#)
}

fn alloc(time: &str, data_size: u64, client: &str) -> String {
    alloc_with(time, data_size, client, "SUCCESS", "")
}

/// An ALLOCATE_BLOCK with its outcome.
fn alloc_with(time: &str, data_size: u64, client: &str, ret: &str, throwable: &str) -> String {
    audit(
        time,
        "svc",
        "ALLOCATE_BLOCK",
        &format!(r#"{},"clientID":"{client}""#, size(data_size)),
        ret,
        throwable,
    )
}

fn create(time: &str) -> String {
    audit(time, "svc", "CREATE_FILE", &size(0), "SUCCESS", "")
}

fn auto_commit(time: &str, data_size: u64) -> String {
    audit(time, "", "COMMIT_KEY", &size(data_size), "SUCCESS", "")
}

fn writer_close_fails(time: &str, data_size: u64, client: &str) -> String {
    audit(
        time,
        "svc",
        "COMMIT_KEY",
        &size(data_size),
        "FAILURE",
        &format!(
            "KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Failed to commit key, as /-9223372036854567936/-9223372036854511104/-9223372035216110336/c.log/{client} entry is not found in the OpenKey table"
        ),
    )
}

/// Another client (HBase's master) recovers the lease.
fn recover_lease(time: &str) -> String {
    audit(time, "hbase", "RECOVER_LEASE", "", "SUCCESS", "")
}

fn block_written(time: &str, thread: &str, local: u64, length: u64) -> String {
    format!(
        "2026-08-18 {time},262 [{thread}] DEBUG io.BlockOutputStreamEntryPool: block written conID: 3012 locID: {local} bcsId: 7 replicaIndex: null, length {length} bcsID 7"
    )
}

fn om(line: String) -> (&'static str, Component, String) {
    ("om1", Component::OmAudit, line)
}

fn client(line: String) -> (&'static str, Component, String) {
    ("ingest1", Component::Client, line)
}

/// When [`auto_committed`]'s key is created, gets its last block and is auto-committed, 2h05m
/// after that block with the 2h hard limit.
const AFTER_2H: [&str; 3] = ["20:14:03", "20:47:52", "22:53:41"];

/// The key's story up to the auto-commit, at `times` (create, allocate, commit): a block allocated
/// once the writer had hsynced `acknowledged` bytes, the file auto-committed at `committed`.
fn auto_committed(
    [created, allocated, commit]: [&str; 3],
    acknowledged: u64,
    committed: u64,
) -> Vec<(&'static str, Component, String)> {
    vec![
        om(create(created)),
        om(alloc(allocated, acknowledged, CLIENT)),
        om(auto_commit(commit, committed)),
    ]
}

/// [`auto_committed`] after 2h, then the close of session `client` failing at 23:59:59 with `failed` bytes.
fn writer_fails_after_auto_commit(
    acknowledged: u64,
    committed: u64,
    failed: u64,
    client: &str,
) -> Output {
    let mut lines = auto_committed(AFTER_2H, acknowledged, committed);
    lines.push(om(writer_close_fails("23:59:59", failed, client)));
    run(&lines)
}

fn hard_2h() -> Settings {
    let mut settings = Settings::default();
    settings.set(HARD_LIMIT, "2h", "conf/ozone-site.xml");
    settings
}

fn run_with(
    lines: &[(&str, Component, String)],
    settings: &Settings,
    logging: &LoggingCoverage,
) -> Output {
    testing::run_with(
        &PrematureLeaseClose,
        vec![testing::numbered(lines.iter().cloned())],
        settings,
        logging,
    )
}

fn run(lines: &[(&str, Component, String)]) -> Output {
    run_with(lines, &hard_2h(), &LoggingCoverage::default())
}

/// [`run`] with Ozone's default lease settings.
fn run_default_limits(lines: &[(&str, Component, String)]) -> Output {
    run_with(lines, &Settings::default(), &LoggingCoverage::default())
}

fn confidence(out: &Output) -> Option<Confidence> {
    assert!(out.findings.len() <= 1, "{:?}", out.findings);
    out.findings.first().map(|f| {
        assert_eq!(f.entity.to_string(), KEY);
        f.confidence
    })
}

#[test]
fn writer_failing_above_the_committed_length_is_confirmed() {
    let out = writer_fails_after_auto_commit(536866190, 536872942, 651208334, CLIENT);
    assert_eq!(confidence(&out), Some(Confidence::Confirmed));
    let finding = &out.findings[0];
    assert!(
        finding
            .reason
            .contains("hard limit 2h (conf/ozone-site.xml)"),
        "{}",
        finding.reason
    );
    assert!(
        finding.reason.contains("soft limit 60s (default)"),
        "{}",
        finding.reason
    );
    assert!(
        finding
            .reason
            .contains("within hard limit + one cleanup interval"),
        "{}",
        finding.reason
    );
    let roles: Vec<(EventId, Role)> = finding.evidence.iter().map(|e| (e.event, e.role)).collect();
    assert_eq!(
        roles,
        vec![
            (2, Role::Cause),
            (0, Role::Context),
            (1, Role::Context),
            (3, Role::Effect)
        ]
    );
    assert!(
        out.gaps
            .iter()
            .all(|g| !g.enable[0].contains("BlockOutputStreamEntryPool"))
    );
}

#[test]
fn acknowledged_offset_above_the_commit_is_likely_with_a_live_writer_and_possible_without() {
    let before = vec![
        om(create("16:42:10")),
        client(block_written("16:42:11", "w7", 11, 5312)),
        client(block_written("18:10:11", "w7", 11, 268401377)),
        om(alloc("18:10:33", 268401377, CLIENT)),
        om(auto_commit("19:14:52", 5312)),
    ];
    let out = run(&before);
    assert_eq!(confidence(&out), Some(Confidence::Possible));
    assert!(
        out.findings[0]
            .reason
            .starts_with("hsync had acknowledged offset 268401377")
    );

    let mut live = before.clone();
    // The writer's next hsync lists block 1 (tied by the lengths above) and its new block 2.
    live.push(client(block_written("20:31:18", "w7", 11, 268435456)));
    live.push(client(block_written("20:31:18", "w7", 12, 3145728)));
    // Another writer in the same process: not tied.
    live.push(client(block_written("20:32:00", "w8", 99, 77)));
    let out = run(&live);
    assert_eq!(confidence(&out), Some(Confidence::Likely));
    let finding = &out.findings[0];
    assert_eq!(
        finding.related,
        vec![
            Entity::Block {
                container: 3012,
                local: 11
            },
            Entity::Block {
                container: 3012,
                local: 12
            }
        ]
    );
    let effects: Vec<EventId> = finding
        .evidence
        .iter()
        .filter(|e| e.role == Role::Effect)
        .map(|e| e.event)
        .collect();
    assert_eq!(effects, vec![5], "the first client line after the commit");
}

#[test]
fn a_failure_at_or_below_the_commit_shows_a_live_writer_but_not_the_loss() {
    let out = writer_fails_after_auto_commit(536866190, 536800000, 536800000, CLIENT);
    assert_eq!(confidence(&out), Some(Confidence::Likely));
}

#[test]
fn dead_writer_is_silent_and_asks_for_client_debug() {
    // The writer's last act is its block allocation at 02:31:40; it is gone at the auto-commit.
    let dead = auto_committed(["00:31:00", "02:31:40", "04:32:00"], 268435000, 268439113);
    let mut lines = dead.clone();
    lines.push(om(audit(
        "06:00:03",
        "ops",
        "RECOVER_LEASE",
        r#","Transaction":"5""#,
        "FAILURE",
        "KEY_ALREADY_CLOSED org.apache.hadoop.ozone.om.exceptions.OMException: Key: apps/c.log is already closed",
    )));
    let out = run(&lines);
    assert_eq!(confidence(&out), None);
    let client_gap = out
        .gaps
        .iter()
        .find(|g| g.enable[0].contains("BlockOutputStreamEntryPool"))
        .expect("client gap");
    assert_eq!(client_gap.hosts, vec!["10.20.3.15".to_string()]);
    // With OM DEBUG on, only the client gap remains.
    let mut logging = LoggingCoverage::default();
    logging.record("om1", OM_COMMIT_LOGGER, "DEBUG");
    let out = run_with(&dead, &hard_2h(), &logging);
    assert_eq!(out.gaps.len(), 1);
}

#[test]
fn recover_lease_fencing_never_produces_a_finding() {
    let fenced = "KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Open Key not found /-1/-2/-3/c.log/117118339855548433";
    // No auto-commit: a recovery and the fenced writer.
    let out = run(&[
        om(create("23:00:00")),
        om(alloc("23:38:51", 268433905, CLIENT)),
        om(recover_lease("23:40:20")),
        om(audit(
            "23:40:21",
            "hbase",
            "COMMIT_KEY",
            &size(270341787),
            "SUCCESS",
            "",
        )),
        om(alloc_with("23:41:02", 270309475, CLIENT, "FAILURE", fenced)),
    ]);
    assert_eq!(confidence(&out), None);
    assert!(out.gaps.is_empty());
    // An auto-commit, then a recoverLease (or a re-create) succeeding before the writer's
    // failure: the failure belongs to the fencing, and nothing else shows acknowledged bytes
    // above the commit. Without the fence the same failure confirms.
    let chain = |fence: Option<String>| {
        let mut lines = auto_committed(["20:00:00", "20:10:00", "22:11:00"], 100, 100);
        lines.extend(fence.map(om));
        lines.push(om(writer_close_fails("23:00:00", 900, CLIENT)));
        run(&lines)
    };
    assert_eq!(confidence(&chain(None)), Some(Confidence::Confirmed));
    assert_eq!(confidence(&chain(Some(recover_lease("22:30:00")))), None);
    assert_eq!(confidence(&chain(Some(create("22:30:00")))), None);
}

#[test]
fn live_writer_closing_normally_is_silent() {
    let out = run(&[
        om(create("18:02:11")),
        om(alloc("19:41:00", 268435000, CLIENT)),
        om(alloc("21:17:00", 536870000, CLIENT)),
        om(audit(
            "23:59:59",
            "svc",
            "COMMIT_KEY",
            &size(946350638),
            "SUCCESS",
            "",
        )),
    ]);
    assert_eq!(confidence(&out), None);
    assert!(out.gaps.is_empty());
}

#[test]
fn another_sessions_failure_is_not_the_writer() {
    let out = writer_fails_after_auto_commit(100, 200, 651208334, "117118339855540000");
    assert_eq!(confidence(&out), None);
}

#[test]
fn early_auto_commit_says_the_settings_may_not_match() {
    let out = run_default_limits(&auto_committed(
        ["20:14:03", "20:47:52", "21:00:00"],
        536866190,
        100,
    ));
    let reason = &out.findings[0].reason;
    assert!(reason.contains("before the hard limit"), "{reason}");
    assert!(reason.contains("hard limit 7d (default)"), "{reason}");
}

#[test]
fn durations_and_setting_sources() {
    let mut settings = Settings::default();
    settings.set(SOFT_LIMIT, "3s", "--set");
    settings.set(HARD_LIMIT, "bogus", "conf/ozone-site.xml");
    let limits = LeaseSettings::from(&settings);
    assert_eq!(
        (limits.soft.ms, limits.soft.source.as_str()),
        (3_000, "--set")
    );
    assert_eq!(
        (limits.hard.ms, limits.hard.source.as_str()),
        (7 * 86_400_000, "default")
    );
    assert_eq!(limits.interval.ms, 86_400_000);
}

/// The `fields` of the datanode catalogue's `dn_audit` kind (contract: op, ret, params, perf).
/// A dn-audit record of a block write, with the entities the catalogue gives it.
fn dn_audit(op: &str, ret: &str, perf: bool, entities: &[Entity]) -> Event {
    let perf = perf.then(|| {
        [("preOpLatencyMs", "0"), ("opLatencyMs", "1873")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    });
    let data = EventData::Datanode(DatanodeEvent::DnAudit(Box::new(DnAudit {
        op: op.into(),
        ret: ret.into(),
        params: [(
            "blockData".to_string(),
            "[blockId=conID: 3044 locID: 113750153625661837 bcsId: 0 replicaIndex: null, size=3145728]".to_string(),
        )]
        .into_iter()
        .collect(),
        perf,
        throwable: None,
    })));
    Event {
        ts: Some(0),
        logger: Some("DNAudit".into()),
        entities: entities.into(),
        file: "dn2/dn-audit-dn2.log".into(),
        line: 1,
        ..oztrace_testkit::event("dn2", Component::DnAudit, data)
    }
}

#[test]
fn datanode_records_count_only_for_writes_on_tied_blocks() {
    let tied = Entity::Block {
        container: 3044,
        local: 113750153625661837,
    };
    let other = Entity::Block {
        container: 3044,
        local: 113750153625660911,
    };
    let on_tied = [Entity::Container(3044), tied.clone()];
    let on_other = [Entity::Container(3044), other];
    assert!(is_datanode_activity(
        &dn_audit("PUT_BLOCK", "null", true, &on_tied),
        &tied
    ));
    assert!(is_datanode_activity(
        &dn_audit("WRITE_CHUNK", "FAILURE", false, &on_tied),
        &tied
    ));
    assert!(!is_datanode_activity(
        &dn_audit("PUT_BLOCK", "null", true, &on_other),
        &tied
    ));
    assert!(!is_datanode_activity(
        &dn_audit("DELETE_BLOCK", "SUCCESS", false, &on_tied),
        &tied
    ));
    assert!(!is_datanode_activity(
        &dn_audit("PUT_BLOCK", "SUCCESS", false, &on_tied),
        &tied
    ));
}

#[test]
fn block_boundary_failure_confirms_and_cites_the_fso_om_error() {
    let open_key =
        format!("/-9223372036854567936/-9223372036854511104/-9223372035216110336/c.log/{CLIENT}");
    let not_found = format!(
        "KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Open Key not found {open_key}"
    );
    let mut lines = auto_committed(AFTER_2H, 268430000, 268431000);
    lines.push(om(alloc_with(
        "23:10:00", 536870000, CLIENT, "FAILURE", &not_found,
    )));
    lines.push((
        "om1",
        Component::Om,
        format!(
            "2026-08-18 23:10:00,001 [om1-OMStateMachineApplyTransactionThread - 0] ERROR org.apache.hadoop.ozone.om.request.key.OMAllocateBlockRequest: Allocate Block failed. Volume:logs, Bucket:raw, OpenKey:{open_key}. Exception:{{}}"
        ),
    ));
    let out = run(&lines);
    assert_eq!(confidence(&out), Some(Confidence::Confirmed));
    let effects: Vec<EventId> = out.findings[0]
        .evidence
        .iter()
        .filter(|e| e.role == Role::Effect)
        .map(|e| e.event)
        .collect();
    assert_eq!(effects, vec![3, 4]);
}

#[test]
fn om_debug_key_info_ties_blocks_even_by_leaf_name() {
    let debug = (
        "om1",
        Component::Om,
        "2026-08-18 20:48:00,000 [om1-OMStateMachineApplyTransactionThread - 0] DEBUG org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequestWithFSO: Key commit succeeded with isHSync = true, omKeyInfo = OmKeyInfo{volumeName='logs', bucketName='raw', keyName='c.log', dataSize=536870000, keyLocationVersions=[version:0 isMultipartKey:false conID 3012 locID 50 bcsID 3 || ], creationTime=1, modificationTime=2, replicationConfig=RATIS/THREE, encInfo=null, fileChecksum=null, isFile=true, fileName='c.log', acls=[]}".to_string(),
    );
    let head = [
        om(create("20:14:03")),
        om(alloc("20:47:52", 536866190, CLIENT)),
    ];
    let tail = [
        om(auto_commit("22:53:41", 536800000)),
        // The writer's next hsync: no length the audit prints, only the block ties it.
        client(block_written("23:10:00", "sync.3", 50, 1234567)),
    ];
    let without: Vec<_> = head.iter().chain(&tail).cloned().collect();
    assert_eq!(confidence(&run(&without)), Some(Confidence::Possible));
    let with: Vec<_> = head.iter().cloned().chain([debug]).chain(tail).collect();
    let out = run(&with);
    assert_eq!(confidence(&out), Some(Confidence::Likely));
    assert_eq!(
        out.findings[0].related,
        vec![Entity::Block {
            container: 3012,
            local: 50
        }]
    );
}

/// `line` moved from 2026-08-18 to `day`.
fn on(day: &str, line: String) -> String {
    line.replacen("2026-08-18", day, 1)
}

/// The writer that never leaves its first block (issue 13): OM sees its CREATE_FILE, the
/// auto-commit 7d16h later with the default limits, and its failing close that evening.
#[test]
fn first_block_writer_over_a_week_with_default_limits_is_confirmed() {
    // clientID >> 16 = 2026-08-04 11:23:06.990, the CREATE_FILE below.
    let session = "117036979716096041";
    let out = run_default_limits(&[
        om(on("2026-08-04", create("11:23:07"))),
        om(on("2026-08-12", auto_commit("03:41:21", 1_536))),
        om(on(
            "2026-08-12",
            writer_close_fails("21:17:33", 218_061_447, session),
        )),
    ]);
    assert_eq!(confidence(&out), Some(Confidence::Confirmed));
    let reason = &out.findings[0].reason;
    assert!(
        reason.contains(
            "7d16h after the last audited renewal, within hard limit + one cleanup interval"
        ),
        "{reason}"
    );
    assert!(reason.contains("hard limit 7d (default)"), "{reason}");
    let roles: Vec<Role> = out.findings[0].evidence.iter().map(|e| e.role).collect();
    assert_eq!(roles, vec![Role::Cause, Role::Context, Role::Effect]);
}

/// Same key, user and ip, a far larger dataSize: but the failing clientID opened its session
/// half an hour before the auto-committed session's CREATE_FILE (a stale older session whose
/// open key expired), so it is not that writer.
#[test]
fn an_older_session_of_the_same_writer_failing_after_the_auto_commit_is_silent() {
    let older = "117036849561600003"; // >> 16 = 2026-08-04 10:50:00
    let out = run_default_limits(&[
        om(on("2026-08-04", create("10:50:00"))),
        om(on("2026-08-04", create("11:23:07"))),
        om(on("2026-08-12", auto_commit("03:41:21", 4_096))),
        om(on(
            "2026-08-13",
            writer_close_fails("11:46:02", 41_903_223, older),
        )),
    ]);
    assert_eq!(confidence(&out), None);
}
