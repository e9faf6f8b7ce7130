//! The catalogue's own checks: every registered template, filled with values of its slots' shapes,
//! types as its kind with those values in the event; every kind read by its fields (audit logs,
//! the dn-container log) types from a record of its log.

use super::template::{Slot, Statement, logger_class};
use super::*;
use crate::record::{ReadOptions, read_records};

/// Every record of `text`, as the record reader splits it.
pub(super) fn records(text: &str) -> Vec<Record> {
    let mut out = Vec::new();
    let (_, error) = read_records(&mut text.as_bytes(), &ReadOptions::default(), &mut |r| {
        out.push(r)
    });
    assert!(error.is_none(), "{text}");
    out
}

/// Types `message` as written through `logger` with its continuation lines, as `component`.
pub(super) fn typed_by(
    logger: &str,
    message: &str,
    continuation: &str,
    component: Component,
) -> Option<Typed> {
    classify(&record_of(logger, message, continuation), component)
}

/// A module's event, as the tests take it out of [`EventData`].
pub(super) trait ModuleEvent:
    TryFrom<EventData, Error = EventData> + PartialEq + std::fmt::Debug
{
}

impl<E: TryFrom<EventData, Error = EventData> + PartialEq + std::fmt::Debug> ModuleEvent for E {}

fn module_event<E: ModuleEvent>(data: EventData) -> E {
    E::try_from(data).unwrap_or_else(|other| panic!("typed by another module: {other:?}"))
}

/// [`typed_by`] as the module's event `E`.
pub(super) fn event_by<E: ModuleEvent>(
    logger: &str,
    message: &str,
    continuation: &str,
    component: Component,
) -> Option<E> {
    typed_by(logger, message, continuation, component).map(|t| module_event(t.data))
}

/// Every record of `text` typed as `component` into the module's event `E`, with its entities.
pub(super) fn events_of<E: ModuleEvent>(text: &str, component: Component) -> Vec<(E, Vec<String>)> {
    records(text)
        .iter()
        .map(|r| {
            let t = classify(r, component).unwrap_or_else(|| panic!("untyped: {r:?}"));
            let entities = t.entities.iter().map(ToString::to_string).collect();
            (module_event(t.data), entities)
        })
        .collect()
}

/// The one event each of `texts` (one statement in several layouts) types as: all must agree.
pub(super) fn agreed<E: ModuleEvent>(texts: &[String], component: Component) -> (E, Vec<String>) {
    let mut results = texts.iter().map(|text| {
        let mut all = events_of(text, component);
        assert_eq!(all.len(), 1, "{text}");
        all.remove(0)
    });
    let first = results.next().expect("at least one layout");
    for other in results {
        assert_eq!(first, other, "layouts disagree: {texts:?}");
    }
    first
}

/// None of `messages` types through any logger in `tails`.
pub(super) fn untyped_by_any_logger<E: ModuleEvent>(messages: &[&str], tails: &[&str]) {
    for message in messages {
        for tail in tails {
            let typed = event_by::<E>(tail, message, "", Component::Datanode);
            assert!(typed.is_none(), "{tail}: {message}: {typed:?}");
        }
    }
}

/// Cuts each line (and the continuation lines under it) at every character and types the pieces
/// through every logger in `tails`: nothing may panic.
pub(super) fn cut_lines_never_panic<E: ModuleEvent>(
    lines: &[String],
    continuation: &str,
    tails: &[&str],
) {
    for line in lines {
        for (cut, _) in line.char_indices() {
            for tail in tails {
                let _ = event_by::<E>(tail, &line[..cut], continuation, Component::Datanode);
            }
        }
        for (cut, _) in continuation.char_indices() {
            for tail in tails {
                let _ = event_by::<E>(tail, line, &continuation[..cut], Component::Datanode);
            }
        }
    }
}

/// A logger as `%c{2}` prints it (`statemachine.EndpointStateMachine`).
pub(super) fn short_logger(logger: &str) -> String {
    let mut parts = logger.rsplit('.');
    let class = parts.next().unwrap_or(logger);
    match parts.next() {
        Some(package) => format!("{package}.{class}"),
        None => class.to_string(),
    }
}

/// A record of `message` written through `logger`, with its continuation lines (the modules'
/// tests build what the record reader would).
pub(super) fn record_of(logger: &str, message: &str, continuation: &str) -> Record {
    Record {
        line: 1,
        logger: Some(logger.to_owned()),
        message: message.to_owned(),
        continuation: continuation.to_owned(),
        continuation_lines: continuation.lines().count() as u32,
        ..Record::default()
    }
}

/// The simple class name of every logger a table's statements are written through.
pub(super) fn logger_classes<E>(statements: &[Statement<E>]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = statements
        .iter()
        .flat_map(|s| s.loggers().iter())
        .map(|l| logger_class(l.split(' ').next().unwrap_or(l)))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Kinds a filled template cannot produce on its own, and why.
const NOT_GENERATED: &[(&str, &str)] = &[(
    "container_report_not_leader",
    "the full report's `Failed to process {}` is container_report_failed's template: the \
     NotLeaderException in the stack trace under it makes it this kind",
)];

fn uuid(n: usize) -> String {
    format!(
        "{:08x}-7a4d-4e8b-9c0f-{:012x}",
        0x3f2b_9c00 + n,
        0x5d6e_7f8a_0000 + n
    )
}

fn datanode(n: usize) -> String {
    format!("{}(dn{n}.example.com/10.0.1.{n})", uuid(n))
}

fn letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

/// A value of `slot`'s shape for placeholder `i`, and what of it the event must show (`None` for
/// a value the statement does not read).
fn sample(slot: Slot, i: usize) -> (String, Option<String>) {
    let n = 7001 + i;
    let same = |v: String| (v.clone(), Some(v));
    match slot {
        Slot::Text => same(format!("note-{i}")),
        Slot::Unread => (format!("unread-{i}"), None),
        Slot::Heartbeat => (
            format!(
                "datanodeDetails {{\n  uuid: \"{}\"\n}}\ncontainerActions {{\n  containerActions {{\n    containerID: {n}\n    action: CLOSE\n    reason: CONTAINER_FULL\n  }}\n}}",
                uuid(900 + i)
            ),
            Some(n.to_string()),
        ),
        Slot::U64 => same(n.to_string()),
        Slot::I64 => same(format!("-{n}")),
        Slot::Bool => same(i.is_multiple_of(2).to_string()),
        Slot::Word => same(format!("STATE_{}", letter(i))),
        Slot::Datanode => (datanode(i), Some(uuid(i))),
        Slot::Member => (
            format!("{}@group-{:012X}", uuid(200 + i), 0xC0FFEE + i),
            Some(uuid(200 + i)),
        ),
        Slot::Daemon => (
            format!(
                "{}@group-{:012X}-LeaderElection{i}",
                uuid(200 + i),
                0xC0FFEE + i
            ),
            Some(uuid(200 + i)),
        ),
        Slot::Group => {
            let hex = format!("{:012X}", 0xBEEF00 + i);
            (format!("group-{hex}"), Some(hex))
        }
        Slot::Pipeline => (format!("PipelineID={}", uuid(300 + i)), Some(uuid(300 + i))),
        Slot::Container => (format!("#{n}"), Some(n.to_string())),
        Slot::Replica => (
            format!(
                "Container #{n} (DELETED, sid=60417) r0 (QUASI_CLOSED, bcsid=60417, origin={}, non-empty) from dn {}",
                uuid(700 + i),
                datanode(800 + i)
            ),
            Some(n.to_string()),
        ),
        Slot::Block => (
            format!("conID: {n} locID: 113750153625600017 bcsId: 0 replicaIndex: null"),
            Some(n.to_string()),
        ),
        Slot::BlockProto => (
            format!("containerID: {n}\nlocalID: 113750153625600017\nblockCommitSequenceId: 0\n"),
            Some(n.to_string()),
        ),
        Slot::ChunkInfo => (
            format!("ChunkInfo{{chunkName='113750153625600017_chunk_{n}, offset=0, len=4194304}}"),
            Some(format!("113750153625600017_chunk_{n}")),
        ),
        Slot::KeyInfo => (
            format!(
                "OmKeyInfo{{volumeName='vol{i}', bucketName='bucket', keyName='key', dataSize={n}, keyLocationVersions=[version:0 isMultipartKey:false conID 1 locID 2 bcsID 3 || ],\n acls=[user:hadoop:a[ACCESS]]}}"
            ),
            Some(n.to_string()),
        ),
        Slot::ScanResult => (
            format!(
                "Container has 1 error: MISSING_CHUNK_{} for file /data/hdds/{n}/chunks/1.block",
                letter(i)
            ),
            Some(format!("MISSING_CHUNK_{}", letter(i))),
        ),
        Slot::Flag => ("force".to_string(), Some("true".to_string())),
        // Term and index alike: statements read one or both.
        Slot::TermIndex => (format!("(t:{n}, i:{n})"), Some(n.to_string())),
        Slot::LogEntry => (
            format!("(t:{n}, i:{n}), STATEMACHINELOGENTRY, client-1A2B, cid=7"),
            Some(n.to_string()),
        ),
        Slot::LogEntries => (
            format!("[(t:{n}, i:{n}), STATEMACHINELOGENTRY, client-1A2B, cid=7]"),
            Some(n.to_string()),
        ),
        Slot::RaftReply => (
            format!("{}<-{}#0:OK-t{n}", uuid(1000 + i), uuid(1100 + i)),
            Some(uuid(1000 + i)),
        ),
        Slot::Name => same(format!("node-{i}.example.com")),
        Slot::Datanodes => (
            format!("[{}, {}]", datanode(400 + i), datanode(500 + i)),
            Some(uuid(400 + i)),
        ),
        Slot::Pipelines => (
            format!("[PipelineID={}]", uuid(600 + i)),
            Some(uuid(600 + i)),
        ),
        Slot::TrackedNode => {
            let hash = format!("{:x}", 0xd71c_7400_u32 + i as u32);
            (
                format!(
                    "org.apache.hadoop.hdds.scm.node.DatanodeAdminMonitorImpl$TrackedNode@{hash}"
                ),
                Some(hash),
            )
        }
        Slot::NodeStatus => {
            let op = format!("DECOMMISSIONING_{}", letter(i));
            (format!("{op}(no expiry)-STALE"), Some(op))
        }
        Slot::Truncation => (
            format!(
                "truncate({n})\n  toTruncate: ({}, {}) isOpen? true, length=412733, newEndIndex={}\n    toDelete: []",
                n - 300,
                n + 2,
                n - 1
            ),
            Some(n.to_string()),
        ),
        Slot::Duration => (format!("{n}ms"), Some(n.to_string())),
        Slot::Commands => (
            format!(
                "[setNodeOperationalStateCommand: cmdID: {n}, encodedToken: \"\", term: 5, deadlineMsSinceEpoch: 0, opState: IN_SERVICE, stateExpiryEpochSeconds: 0]"
            ),
            Some(n.to_string()),
        ),
    }
}

/// The template with each `{}` replaced by its value in order, as SLF4J renders it (a
/// placeholder without a value stays `{}`).
pub(super) fn render<S: AsRef<str>>(template: &str, values: &[S]) -> String {
    let mut out = String::new();
    let mut parts = template.split("{}");
    out.push_str(parts.next().unwrap_or(""));
    for (i, part) in parts.enumerate() {
        out.push_str(values.get(i).map_or("{}", AsRef::as_ref));
        out.push_str(part);
    }
    out
}

/// The components whose logs a statement is written to.
fn components(log: &str) -> Vec<Component> {
    if log == "daemon" {
        return vec![Component::Datanode, Component::Scm, Component::Om];
    }
    let c = Component::ALL.into_iter().find(|c| c.as_str() == log);
    vec![c.unwrap_or_else(|| panic!("no component for log {log}"))]
}

/// Renders every statement of a table with each of its loggers, in full and abbreviated,
/// classifies it as the log it is written to, and checks the kind and the values; returns the
/// failures.
fn check<E>(statements: &'static [Statement<E>]) -> Vec<String> {
    let mut failures = Vec::new();
    for s in statements {
        let kind = s.info.kind;
        // Only the rows that share another kind's template; the kind's other rows are checked.
        if NOT_GENERATED.iter().any(|(k, _)| *k == kind)
            && statements
                .iter()
                .any(|o| o.info.kind != kind && o.info.template == s.info.template)
        {
            continue;
        }
        let samples: Vec<(String, Option<String>)> = s
            .slots
            .iter()
            .enumerate()
            .map(|(i, slot)| sample(*slot, i))
            .collect();
        let values: Vec<String> = samples.iter().map(|(v, _)| v.clone()).collect();
        let message = render(s.info.template, &values);
        let level: String = s
            .info
            .level
            .chars()
            .take_while(char::is_ascii_uppercase)
            .collect();
        let loggers = s.loggers().iter().flat_map(|logger| {
            let logger = logger.split(' ').next().unwrap_or(logger);
            // In full (RFA layout) and as the console layout's `%c{2}` abbreviates it.
            let short = logger
                .rmatch_indices('.')
                .nth(1)
                .map(|(at, _)| &logger[at + 1..]);
            std::iter::once(logger).chain(short)
        });
        for logger in loggers {
            let text = format!("2026-08-20 14:02:10,318 [main] {level} {logger}: {message}\n");
            let records = records(&text);
            assert_eq!(records.len(), 1, "{text}");
            for component in components(s.info.log) {
                let Some(typed) = classify(&records[0], component) else {
                    failures.push(format!("{kind}: untyped as {component}: {text}"));
                    continue;
                };
                if typed.data.kind() != kind {
                    failures.push(format!(
                        "{kind}: typed as {} ({component}): {text}",
                        typed.data.kind()
                    ));
                    continue;
                }
                let shown = format!(
                    "{} {}",
                    serde_json::to_string(&typed.data).expect("events serialise"),
                    typed
                        .entities
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                for (value, witness) in &samples {
                    if let Some(witness) = witness
                        && !shown.contains(witness.as_str())
                    {
                        failures.push(format!(
                            "{kind}: the value {value:?} is not in the event {shown} ({text})"
                        ));
                    }
                }
            }
        }
    }
    failures
}

/// `$f` applied to every module's statement table, in `kinds()` order.
macro_rules! each_table {
    ($f:ident) => {
        [
            $f(ratis::STATEMENTS),
            $f(scm::STATEMENTS),
            $f(scm_container::STATEMENTS),
            $f(datanode::STATEMENTS),
            $f(dn_endpoint::STATEMENTS),
            $f(om::STATEMENTS),
        ]
        .concat()
    };
}

fn infos<E>(statements: &'static [Statement<E>]) -> Vec<&'static KindInfo> {
    statements.iter().map(|s| &s.info).collect()
}

#[test]
fn every_template_filled_with_its_slots_types_as_its_kind_with_those_values() {
    let mut failures = each_table!(check);
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The records of the kinds read by their fields rather than a message template (audit logs by
/// op, the dn-container log): a record of each, and what of it the event must show.
const STRUCTURED: &[(&str, &str, &str)] = &[
    (
        "scm_audit",
        "SCMAudit | user=dn | ip=10.0.1.13 | op=SEND_HEARTBEAT {\"datanodeUUID\":\"3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a7001\"} | ret=SUCCESS |",
        "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a7001",
    ),
    (
        "om_audit_create",
        "OMAudit | user=u | ip=10.0.0.1 | op=CREATE_FILE {\"volume\":\"v\",\"bucket\":\"b\",\"key\":\"k7001\"} | ret=SUCCESS |",
        "k7001",
    ),
    (
        "om_audit_allocate_block",
        "OMAudit | user=u | ip=10.0.0.1 | op=ALLOCATE_BLOCK {\"volume\":\"v\",\"bucket\":\"b\",\"key\":\"k\",\"clientID\":\"7001\"} | ret=SUCCESS |",
        "7001",
    ),
    (
        "om_audit_commit_key",
        "OMAudit | user= | ip= | op=COMMIT_KEY {\"volume\":\"v\",\"bucket\":\"b\",\"key\":\"k\",\"dataSize\":\"7001\"} | ret=SUCCESS |",
        "7001",
    ),
    (
        "om_audit_recover_lease",
        "OMAudit | user=u | ip=10.0.0.1 | op=RECOVER_LEASE {\"volume\":\"v\",\"bucket\":\"b\",\"key\":\"k7001\"} | ret=SUCCESS |",
        "k7001",
    ),
    (
        "om_audit",
        "OMAudit | user=u | ip=10.0.0.1 | op=DELETE_KEY {\"volume\":\"v\",\"bucket\":\"b\",\"key\":\"k7001\"} | ret=SUCCESS |",
        "k7001",
    ),
    (
        "om_sys_startup",
        "OMSystemAudit | user=null | ip= | op=STARTUP {NewOmState=RUNNING7001, OmState=INITIALIZED} | ret=SUCCESS |",
        "RUNNING7001",
    ),
    (
        "om_sys_leader_change",
        "OMSystemAudit | user=null | ip= | op=LEADER_CHANGE {previousLeader=om1, newLeader=om7001} | ret=SUCCESS |",
        "om7001",
    ),
    (
        "om_sys_open_key_cleanup",
        "OMSystemAudit | user=null | ip= | op=OPEN_KEY_CLEANUP {numOpenKeysDeleted=1, openKeysDeleted=[{volume=v, bucket=b, key=k7001}]} | ret=SUCCESS |",
        "k7001",
    ),
    (
        "om_sys_audit",
        "OMSystemAudit | user=null | ip= | op=DIRECTORY_DELETION {deleted=7001} | ret=SUCCESS |",
        "7001",
    ),
    (
        "dn_audit",
        "DNAudit | user=null | ip=null | op=CREATE_CONTAINER {\"containerID\":\"7001\"} | ret=SUCCESS |",
        "7001",
    ),
    (
        "dn_container_state",
        "ID=7001 | Index=0 | BCSID=7002 | State=CLOSED | Volume=/data/hdds1 | DataChecksum=0 |",
        "7002",
    ),
];

#[test]
fn every_structured_kind_types_from_its_record() {
    let statements: Vec<&KindInfo> = each_table!(infos);
    let structured: Vec<&KindInfo> = kinds().filter(|k| !statements.contains(k)).collect();
    assert_eq!(
        structured.len(),
        STRUCTURED.len(),
        "a record per structured kind"
    );
    for info in structured {
        let (_, body, witness) = STRUCTURED
            .iter()
            .find(|(kind, ..)| *kind == info.kind)
            .unwrap_or_else(|| panic!("no record of {}", info.kind));
        let text = format!("2026-08-20 14:02:10,318 | INFO  | {body}  \n");
        let records = records(&text);
        assert_eq!(records.len(), 1, "{text}");
        let component = components(info.log)[0];
        let typed = classify(&records[0], component)
            .unwrap_or_else(|| panic!("{}: untyped: {text}", info.kind));
        assert_eq!(typed.data.kind(), info.kind, "{text}");
        let shown = format!(
            "{} {:?}",
            serde_json::to_string(&typed.data).expect("events serialise"),
            typed.entities
        );
        assert!(
            shown.contains(witness),
            "{}: {witness} not in {shown}",
            info.kind
        );
    }
}

#[test]
fn kinds_that_are_not_generated_are_registered() {
    for (kind, reason) in NOT_GENERATED {
        assert!(kinds().any(|k| k.kind == *kind), "{kind}: {reason}");
        assert!(!reason.is_empty());
    }
}
