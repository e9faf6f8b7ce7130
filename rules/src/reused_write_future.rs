//! `reused-write-future` (HDDS-17675): a datanode acknowledges and commits a WriteChunk whose data
//! it never wrote, because the new entry at a truncated log index reuses the pending write future
//! of the truncated entry (`ContainerStateMachine.writeChunkFutureMap` is keyed by index only).
//!
//! The reuse itself logs nothing at INFO (../shared/ozone-logs/datanode.md 3.A). On one datanode
//! the rule looks for the preconditions (its member of a pipeline steps down from LEADER, the log
//! is truncated, chunk writes are slow) and, after the truncation, the effects on that datanode
//! (`CHUNK_FILE_INCONSISTENCY`, `Unexpected read size` / `CONTAINER_INTERNAL_ERROR`, `Marked
//! Container UNHEALTHY`, dn-container `UNHEALTHY`). With ContainerStateMachine and
//! FilePerBlockStrategy at DEBUG (and the RaftLog / SegmentedRaftLogCache TRACE lines for context)
//! the defect itself is visible: an index that was truncated is applied as a WriteChunk of another
//! chunk, no chunk write was submitted for the new entry, and its chunk was never written.

use crate::RuleFamily;
use crate::coverage::{DATANODE_SERVICE_LOGS, Need};
use crate::{
    Confidence, Context, Evidence, Finding, Gap, Output, Role, RuleDoc, SettingDoc, Settings,
    Severity,
};
use oztrace_analyzer::facts::Facts;
use oztrace_analyzer::kinds::{Family, KindSet, Reads};
use oztrace_analyzer::machines::datanode_links::is_failed_or_slow;
use oztrace_analyzer::replicas::ReplicaState;
use oztrace_analyzer::trace::{EventId, Trace};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::datanode::{DatanodeEvent, DispatchError, DnAudit};
use oztrace_parser::catalog::ratis::RatisEvent;
use oztrace_parser::entity::{Entity, find_member_ids, group_of_pipeline};
use oztrace_parser::event::Event;
use oztrace_parser::source::Component;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

pub const ID: &str = "reused-write-future";

/// A truncation belongs to a leadership loss if the member stepped down at most this long before.
const STEP_DOWN_BEFORE_TRUNCATE_MS: i64 = 5 * 60 * 1000;
/// Slow-write evidence counts within this distance of the truncation: a pending write older than
/// `hdds.container.ratis.statemachine.write.wait.interval` (default 10 min) makes the next write
/// fail the state machine instead.
const SLOW_WRITE_WINDOW_MS: i64 = 10 * 60 * 1000;
/// A slow-op record (written when the op ends) shows a write pending at the truncation if it
/// ended at most this long before it...
const SLOW_OP_BEFORE_TRUNCATE_MS: i64 = 2 * 60 * 1000;
/// ... and started at most this long after it.
const SLOW_OP_START_AFTER_MS: i64 = 60 * 1000;
/// Effects are tied to a truncation on the same datanode up to this long after it: the missing
/// chunk shows when later chunks of its block arrive (seconds) or when it is read (any time
/// before the container is closed and scanned).
const EFFECT_WINDOW_MS: i64 = 24 * 3600 * 1000;
const DISK_CHECK_INTERVAL: &str = "hdds.datanode.periodic.disk.check.interval.minutes";
const FAILING_VOLUME_CONTAINERS: &str = "oztrace.reused-write-future.failing-volume.containers";
const NEAR_LEADERSHIP_CHANGE: &str = "oztrace.reused-write-future.near-leadership-change";

/// The settings [`Thresholds::from`] reads, in its order.
const SETTINGS: &[SettingDoc; 3] = &[
    SettingDoc {
        key: DISK_CHECK_INTERVAL,
        default: "60",
        default_from: "DatanodeConfiguration.PERIODIC_DISK_CHECK_INTERVAL_MINUTES_DEFAULT (minutes)",
        used_for: "the failing-volume window: a failing volume keeps failing reads and writes on its containers until \
the next periodic disk check fails it, so effects within one check interval of each other belong together",
    },
    SettingDoc {
        key: FAILING_VOLUME_CONTAINERS,
        default: "3",
        default_from: "oztrace: one truncation reuses the futures of the writes pending at that index, a chunk or two \
of the blocks in flight on that pipeline, so its effects touch one or two containers; three or more containers \
failing on one datanode within a disk-check interval is a failing volume (datanode.md 3.A look-alike)",
        used_for: "likely becomes possible, and a possible effect is dropped, when short reads or UNHEALTHY replicas hit \
this many containers of the datanode within the window",
    },
    SettingDoc {
        key: NEAR_LEADERSHIP_CHANGE,
        default: "30m",
        default_from: "oztrace: a reused future loses a chunk of a block that is still being written; the next chunk \
of that block shows the gap (CHUNK_FILE_INCONSISTENCY) as soon as it arrives, and a 256 MB block written at the \
slowest rate worth pipelining (~150 KB/s) is done in 30 minutes",
        used_for: "possible: an effect at most this long after a leadership change of a member on the same datanode, \
without the step-down, truncation and slow writes that make it likely",
    },
];

/// The thresholds [`SETTINGS`] give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Thresholds {
    failing_volume_window_ms: i64,
    failing_volume_containers: usize,
    near_leadership_change_ms: i64,
}

impl From<&Settings> for Thresholds {
    fn from(settings: &Settings) -> Thresholds {
        let [disk_check, containers, near] = SETTINGS;
        Thresholds {
            failing_volume_window_ms: settings.number(disk_check, 1) * 60_000,
            failing_volume_containers: usize::try_from(settings.number(containers, 1))
                .unwrap_or(usize::MAX),
            near_leadership_change_ms: settings.duration_ms(near),
        }
    }
}
/// A main-log effect and its dn-audit record are written within this distance.
const SAME_FAILURE_MS: i64 = 5_000;

/// Notes of the write failures that mark a replica UNHEALTHY (dn-audit, main log).
const WRITE_FAILURE_NOTES: [&str; 2] = [
    "a later chunk of this block found the block file short (CHUNK_FILE_INCONSISTENCY)",
    "WriteChunk failed CHUNK_FILE_INCONSISTENCY: the block file is shorter than the committed chunks",
];

const LOGGERS: &[(&str, &str)] = &[
    (
        "org.apache.hadoop.ozone.container.common.transport.server.ratis.ContainerStateMachine",
        "DEBUG",
    ),
    (
        "org.apache.hadoop.ozone.container.keyvalue.impl.FilePerBlockStrategy",
        "DEBUG",
    ),
    ("org.apache.ratis.server.raftlog.RaftLog", "TRACE"),
    (
        "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogCache",
        "TRACE",
    ),
];

declare_rule! {
    /// WriteChunk committed without its data after a truncated entry's pending write was reused
    ///
    /// ## What it detects
    ///
    /// A datanode that lost leadership of a pipeline while its chunk writes were slow, had its
    /// Ratis log truncated, and then shows a missing or short chunk: CHUNK_FILE_INCONSISTENCY on a
    /// later chunk of the block, `Unexpected read size` / CONTAINER_INTERNAL_ERROR on a read, or
    /// the container marked UNHEALTHY. `ContainerStateMachine.writeStateMachineData` keeps pending
    /// chunk writes keyed by log index only, so a new WriteChunk at a truncated index reuses the
    /// old entry's future: the new chunk is never written but is acknowledged and committed.
    ///
    /// ## Why it matters
    ///
    /// The replica's BCSID and block metadata include a chunk its block file lacks; readers served
    /// by that replica fail, the container scanner skips OPEN containers, and the replica's
    /// acknowledgement counts towards a commit of data it does not hold.
    ///
    /// ## Example
    ///
    /// dn1's log (`samples/HDDS-17675-bug-info`): its member steps down, the log is truncated at
    /// 18342 while a write is slow, then a later chunk of block 113750153625600023 finds the block
    /// file short, the container is marked UNHEALTHY and a read comes back short:
    ///
    /// ```text
    /// 2026-08-19 10:21:07,013 [grpc-default-executor-9] INFO org.apache.ratis.server.RaftServer$Division: a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60@group-41A9C03D5E7B: changes role from    LEADER to FOLLOWER at term 7 for candidate:6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71
    /// 2026-08-19 10:21:08,412 [grpc-default-executor-11] INFO org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker: a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60@group-41A9C03D5E7B-SegmentedRaftLogWorker: Truncating segments truncate(18342)
    ///   toTruncate: (18001, 18344) isOpen? true, length=412733, newEndIndex=18341
    ///     toDelete: [], start index 18342
    /// 2026-08-19 10:21:10,731 [a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60@group-41A9C03D5E7B-SegmentedRaftLogWorker] WARN org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker: Timeout 0/~
    /// 2026-08-19 10:21:41,331 [a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60-ChunkWriter-3-0] WARN org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler: Operation: WriteChunk , Trace ID:  , Message: Chunk offset 8388608 does not match length 4194304 of blockFile 113750153625600023.block , Result: CHUNK_FILE_INCONSISTENCY , StorageContainerException Occurred.
    /// 2026-08-19 10:21:41,335 [a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60-ChunkWriter-3-0] INFO org.apache.hadoop.ozone.container.common.impl.HddsDispatcher: Marked Container UNHEALTHY, ContainerID: 1042
    /// 2026-08-19 10:21:57,604 [a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60-ChunkReader-7] ERROR org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils: Unexpected read size. expected: 4194304, actual: -1
    /// ```
    ///
    /// and its datanode audit log:
    ///
    /// ```text
    /// 2026-08-19 10:21:41,332 | ERROR | DNAudit | user=null | ip=null | op=WRITE_CHUNK {"blockData":"conID: 1042 locID: 113750153625600023 bcsId: 0 replicaIndex: null","offset":"8388608","size":"2097152","stage":"WRITE_DATA"} | ret=FAILURE | java.lang.Exception: Chunk offset 8388608 does not match length 4194304 of blockFile 113750153625600023.block
    /// ```
    ///
    /// Kinds: `ratis_role_change`, `ratis_log_truncate`, `ratis_write_timeout`, `dispatch_error`,
    /// `container_marked_unhealthy`, `chunk_unexpected_size`, `dn_audit`.
    ///
    /// ## Evidence and confidence
    ///
    /// Per datanode: a Ratis LEADER -> FOLLOWER step-down of its member, a log truncation of that
    /// member within minutes, slow writes around it (SegmentedRaftLogWorker `Timeout n/~`,
    /// dn-audit PERFORMANCE WRITE_CHUNK records, `Write chunk has taken`), and effects on the same
    /// datanode after the truncation, tied by datanode and time. The entity is the block when a
    /// line names it, else the container.
    ///
    /// - `confirmed`: the DEBUG lines show an index at or above the truncation whose old entry
    ///   submitted a chunk write, applied after the truncation as a WriteChunk of another chunk
    ///   (`Ignore chunk … in stage COMMIT_DATA` + `ApplyTransaction completed. cmd WriteChunk
    ///   logIndex i`) with no new `writeStateMachineData :` submit and no `Writing chunk` for that
    ///   chunk;
    /// - `likely`: all preconditions and an effect on a block or container;
    /// - `possible`: an effect near a leadership change or truncation of a member on that
    ///   datanode, without the other preconditions.
    ///
    /// ## Look-alikes
    ///
    /// - A leader change with a truncation and nothing pending loses no write and shows no effect
    ///   (`HDDS-17675-control-clean-failover`).
    /// - A failing volume: short reads or UNHEALTHY replicas on three or more containers of the
    ///   datanode within a disk-check interval are the disk, not a reused future; such effects
    ///   are dropped and a likely finding becomes possible (`HDDS-17675-control-failing-disk`).
    /// - An effect on a container that a line ties to another pipeline than the truncated one is
    ///   not counted.
    pub struct ReusedWriteFuture;
}

static DOC: RuleDoc = RuleDoc {
    id: ID,
    consumes: CONSUMES,
    machines: &[],
    ticket: "HDDS-17675",
    severity: Severity::High,
    family: RuleFamily::Signature,
    markdown: ReusedWriteFuture::MARKDOWN,
    settings: SETTINGS,
    loggers: &[
        "log4j.logger.org.apache.hadoop.ozone.container.common.transport.server.ratis.ContainerStateMachine=DEBUG",
        "log4j.logger.org.apache.hadoop.ozone.container.keyvalue.impl.FilePerBlockStrategy=DEBUG",
        "log4j.logger.org.apache.ratis.server.raftlog.RaftLog=TRACE",
        "log4j.logger.org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogCache=TRACE",
    ],
    needs: &[
        DATANODE_SERVICE_LOGS,
        Need::optional("datanode audit logs", &[Component::DnAudit]),
    ],
    remediation: REMEDIATION,
};

/// What an operator does about a chunk committed without its data (HDDS-17675).
const REMEDIATION: crate::Remediation = crate::Remediation {
    affected: "2.0.0 and later (HDDS-12469 reuses a pending chunk write keyed by log index \
only); the ticket lists 2.0.0 through 2.2.x.",
    fixed_in: None,
    fix: "Open. Proposed: bind a pending write to the term of its log entry, so a different \
entry at a truncated index starts its own write.",
    actions: &[
        crate::Action {
            purpose: "See the container's replicas and the datanode that holds the short block",
            command: Some("ozone admin container info --json {container}"),
        },
        crate::Action {
            purpose: "Close the container: the data scanner skips OPEN containers, and once it \
scans the closed replica SCM replaces it from a good copy",
            command: Some("ozone admin container close {container}"),
        },
        crate::Action {
            purpose: "Watch the replica turn UNHEALTHY and get replaced",
            command: Some("ozone admin container report"),
        },
        crate::Action {
            purpose: "Check that the bucket's keys read back from every replica (2.1 and later; \
2.0 also needs -o DIR)",
            command: Some("ozone debug replicas verify --checksums /<volume>/<bucket>"),
        },
    ],
    attach: &[
        "the datanode's log with the Ratis role change and truncation (this finding's evidence)",
        "the datanode's dn-audit log (WRITE_CHUNK, PUT_BLOCK, READ_CHUNK of the block)",
        "the other replicas' datanode logs for the same pipeline",
        "`ozone admin container info --json` of the container",
    ],
};

/// The kinds the rule reads: every Ratis line (member ids name the host's datanode), the
/// datanode's write, apply, chunk, dispatch and audit lines, and the SCM and OM lines that tie
/// containers, blocks and pipelines.
pub const CONSUMES: &[Reads] = &[
    Reads::Family(Family::Ratis),
    Reads::Where("dn_audit", is_failed_or_slow),
    Reads::Kind("dn_container_state"),
    Reads::Kind("dispatch_error"),
    Reads::Kind("chunk_unexpected_size"),
    Reads::Kind("chunk_write"),
    Reads::Kind("chunk_ignored"),
    Reads::Kind("csm_read_failed"),
    Reads::Kind("csm_write_submitted"),
    Reads::Kind("csm_write_completed"),
    Reads::Kind("csm_write_cancelled"),
    Reads::Kind("csm_apply_completed"),
    Reads::Kind("csm_apply_failed"),
    Reads::Kind("container_marked_unhealthy"),
    Reads::Family(Family::Scm),
    Reads::Family(Family::ScmContainer),
    Reads::Family(Family::Om),
];

fn check(context: &Context<'_>, out: &mut Output) {
    let trace = &context.analysis.trace;
    let index = Index::build(trace);
    let thresholds = Thresholds::from(context.settings);
    let mut findings: BTreeMap<(Arc<str>, Entity), Draft> = BTreeMap::new();
    let mut gap_hosts: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for (host, facts) in &index.hosts {
        let truncations = facts.truncations_after_step_down(trace);
        for effect in &facts.effects {
            if let Some(draft) = assess(trace, &index, facts, &truncations, effect, &thresholds) {
                let key = (Arc::clone(host), draft.entity.clone());
                merge(&mut findings, key, draft);
            }
        }
        for t in &truncations {
            for proof in facts.proofs(trace, &index, t) {
                let Some(container) = proof.container else {
                    continue;
                };
                let entity = Entity::Block {
                    container,
                    local: proof.local,
                };
                let mut draft = Draft::new(entity.clone(), t);
                draft.confidence = Confidence::Confirmed;
                draft.reason = format!(
                    "DEBUG lines show index {}, truncated at {} after the step-down to term {}, re-applied as a WriteChunk of chunk {} with no chunk write submitted or done on this datanode",
                    proof.index, t.index, t.new_term, proof.chunk
                );
                draft.evidence.extend(t.cause_evidence());
                draft.evidence.extend(proof.evidence);
                merge(&mut findings, (Arc::clone(host), entity), draft);
            }
        }
        // Gaps: the preconditions are here, the confirming lines cannot be.
        let relevant = truncations
            .iter()
            .any(|t| !t.slow.is_empty() || facts.effects.iter().any(|e| t.precedes(trace, e.id)));
        if relevant {
            let missing: Vec<String> = LOGGERS
                .iter()
                .filter(|(logger, level)| !context.logging.enabled(host, logger, level))
                .map(|(logger, level)| format!("log4j.logger.{logger}={level}"))
                .collect();
            if !missing.is_empty() {
                gap_hosts
                    .entry(missing)
                    .or_default()
                    .insert(host.to_string());
            }
        }
    }
    // A container finding whose block findings exist on the same host is folded into them.
    let blocks: BTreeSet<(Arc<str>, u64)> = findings
        .keys()
        .filter_map(|(h, e)| match e {
            Entity::Block { container, .. } => Some((Arc::clone(h), *container)),
            _ => None,
        })
        .collect();
    let mut folded: Vec<(Arc<str>, u64, Draft)> = Vec::new();
    findings.retain(|(host, entity), draft| match entity {
        Entity::Container(c) if blocks.contains(&(Arc::clone(host), *c)) => {
            folded.push((Arc::clone(host), *c, draft.clone()));
            false
        }
        _ => true,
    });
    for (host, container, extra) in folded {
        for ((h, entity), draft) in findings.iter_mut() {
            if *h == host && matches!(entity, Entity::Block { container: c, .. } if *c == container)
            {
                // The replica's UNHEALTHY lines are an effect of this block's failed write
                // when they follow it; for the other blocks of the container, context.
                let own_write_failure = |at: EventId| {
                    draft.evidence.iter().any(|d| {
                        WRITE_FAILURE_NOTES.contains(&d.note.as_str())
                            && trace
                                .elapsed(d.event, at)
                                .is_some_and(|ms| (0..=SAME_FAILURE_MS).contains(&ms))
                    })
                };
                let mut added = Vec::new();
                for e in &extra.evidence {
                    if draft.evidence.iter().any(|d| d.event == e.event) {
                        continue;
                    }
                    let mut e = e.clone();
                    if e.role == Role::Effect && !own_write_failure(e.event) {
                        e.role = Role::Context;
                        e.note = format!("same replica (container {container}): {}", e.note);
                    }
                    added.push(e);
                }
                draft.evidence.extend(added);
            }
        }
    }
    for ((host, _), draft) in findings {
        out.findings.push(draft.finish(&host, &index));
    }
    for (enable, hosts) in gap_hosts {
        out.gaps.push(Gap {
            rule: ID,
            missing: "DEBUG/TRACE lines that show whether a truncated log index was reused without \
its chunk write (ContainerStateMachine writeStateMachineData/ApplyTransaction, FilePerBlockStrategy \
chunk writes, RaftLog appendEntry, SegmentedRaftLogCache truncate): at INFO this rule can only say likely"
                .to_string(),
            enable,
            hosts: hosts.into_iter().collect(),
        });
    }
}

// --- Facts per host -----------------------------------------------------------------------------

/// An effect of a missing chunk on one datanode.
#[derive(Debug, Clone)]
struct Effect {
    id: EventId,
    container: Option<u64>,
    local: Option<u64>,
    note: &'static str,
}

/// A truncation of a member's log shortly after that member stepped down from LEADER.
#[derive(Debug, Clone)]
struct Truncation<'t> {
    id: EventId,
    step_down: EventId,
    group: &'t str,
    index: u64,
    new_term: u64,
    /// Slow-write evidence around it (see [`HostFacts::slow_writes_near`]).
    slow: Vec<Evidence>,
}

impl Truncation<'_> {
    /// Whether `effect` comes after this truncation within the effect window.
    fn precedes(&self, trace: &Trace, effect: EventId) -> bool {
        effect > self.id
            && trace
                .elapsed(self.id, effect)
                .is_some_and(|ms| (0..=EFFECT_WINDOW_MS).contains(&ms))
    }

    fn cause_evidence(&self) -> Vec<Evidence> {
        let mut ev = vec![
            Evidence {
                event: self.step_down,
                role: Role::Cause,
                note: format!(
                    "this datanode's member of {} stepped down from LEADER at term {}",
                    self.group, self.new_term
                ),
            },
            Evidence {
                event: self.id,
                role: Role::Cause,
                note: format!(
                    "its log was truncated at index {}: entries it appended as leader were dropped",
                    self.index
                ),
            },
        ];
        ev.extend(self.slow.iter().cloned());
        ev
    }
}

#[derive(Debug, Clone)]
struct Submit<'t> {
    id: EventId,
    group: &'t str,
    index: u64,
    chunk: &'t str,
    container: Option<u64>,
    local: Option<u64>,
}

#[derive(Default)]
struct HostFacts<'t> {
    datanode: Option<String>,
    /// (event, group, term) of LEADER -> FOLLOWER.
    step_downs: Vec<(EventId, &'t str, u64)>,
    /// Every role change and truncation (for `possible`).
    leadership_changes: Vec<EventId>,
    /// (event, group, index).
    truncates: Vec<(EventId, &'t str, u64)>,
    write_timeouts: Vec<WriteTimeout>,
    /// (event, latency in ms when the record gives it).
    slow_ops: Vec<(EventId, Option<i64>)>,
    effects: Vec<Effect>,
    submits: Vec<Submit<'t>>,
    completions: Vec<Submit<'t>>,
    applies: Vec<Apply<'t>>,
    /// (event, chunk, thread).
    ignored: Vec<(EventId, &'t str, Option<&'t str>)>,
    written_chunks: BTreeSet<&'t str>,
    /// (event, group, index).
    cache_truncates: Vec<(EventId, &'t str, u64)>,
    /// (event, group, index, term).
    appends: Vec<(EventId, &'t str, u64, Option<u64>)>,
}

/// A `Timeout n/~` of a state machine data write: its group and entry when the line names them.
struct WriteTimeout {
    id: EventId,
    group: Option<String>,
    index: Option<u64>,
    term: Option<u64>,
}

/// A ContainerStateMachine `ApplyTransaction completed` line.
struct Apply<'t> {
    id: EventId,
    group: &'t str,
    cmd: &'t str,
    index: u64,
    result: &'t str,
}

/// What the rule reads per datanode host, with the cluster's facts (block → container →
/// group → pipeline) shared by the trace.
struct Index<'t> {
    hosts: BTreeMap<Arc<str>, HostFacts<'t>>,
    facts: &'t Facts,
}

fn is_datanode_side(component: Component) -> bool {
    matches!(
        component,
        Component::Datanode | Component::DnAudit | Component::DnContainer
    )
}

/// The Ratis kinds [`HostFacts::observe`] reads more than the member's datanode of.
const RATIS_STEPS: &[Reads] = &[
    Reads::Kind("ratis_role_change"),
    Reads::Kind("ratis_log_truncate"),
    Reads::Kind("ratis_write_timeout"),
    Reads::Kind("ratis_cache_truncate"),
    Reads::Kind("ratis_append_entry"),
];

/// The datanode kinds [`HostFacts::observe_datanode`] reads: one per variant it matches.
const DATANODE_STEPS: &[Reads] = &[
    Reads::Kind("dn_audit"),
    Reads::Kind("dispatch_error"),
    Reads::Kind("chunk_unexpected_size"),
    Reads::Kind("csm_read_failed"),
    Reads::Kind("container_marked_unhealthy"),
    Reads::Kind("dn_container_state"),
    Reads::Kind("csm_write_cancelled"),
    Reads::Kind("csm_write_submitted"),
    Reads::Kind("csm_write_completed"),
    Reads::Kind("csm_apply_completed"),
    Reads::Kind("chunk_ignored"),
    Reads::Kind("chunk_write"),
];

impl Index<'_> {
    fn build(trace: &Trace) -> Index<'_> {
        let mut index = Index {
            hosts: BTreeMap::new(),
            facts: trace.facts(),
        };
        // Each host's facts by its interned id: no map lookup per event.
        let mut by_host: Vec<Option<HostFacts<'_>>> = Vec::new();
        by_host.resize_with(trace.host_count(), || None);
        // Each host's datanode is the one its last Ratis member id names, from the trace's
        // compact column: most Ratis lines (snapshots) are not opened.
        let ratis = KindSet::of(&[Reads::Family(Family::Ratis)]);
        for (id, peer) in trace.ratis_peers() {
            if is_datanode_side(trace.component_of(id)) && ratis.contains(trace.kind_of(id)) {
                by_host[trace.host_of(id).index()]
                    .get_or_insert_default()
                    .learn_datanode(peer);
            }
        }
        // Only the kinds `observe` reads are opened, and of the ContainerLogger lines (the
        // trace's compact column, most of these kinds' events) only those of a replica that
        // became UNHEALTHY.
        let steps = KindSet::of(&[RATIS_STEPS, DATANODE_STEPS].concat())
            .without(&KindSet::of(&[Reads::Kind("dn_container_state")]));
        let mut opened: Vec<EventId> = trace.of_kinds(&steps).collect();
        opened.extend(
            (trace.container_state_lines())
                .filter(|(_, line)| line.state.is(ReplicaState::Unhealthy))
                .map(|(id, _)| id),
        );
        opened.sort_unstable();
        for id in opened {
            if is_datanode_side(trace.component_of(id)) {
                by_host[trace.host_of(id).index()]
                    .get_or_insert_default()
                    .observe(id, trace.get(id));
            }
        }
        for (host, facts) in trace.hosts().zip(by_host) {
            if let Some(facts) = facts {
                index.hosts.insert(Arc::clone(host), facts);
            }
        }
        index
    }

    fn container_of(&self, container: Option<u64>, local: Option<u64>) -> Option<u64> {
        container.or_else(|| local.and_then(|l| self.facts.container_of_block(l)))
    }

    /// Whether a line ties `container` to a group other than `group` (and none to `group`).
    fn tied_elsewhere(&self, container: u64, group: &str) -> bool {
        self.facts
            .groups_of_container(container)
            .is_some_and(|groups| !groups.contains_key(group))
    }
}

fn block_of(params: &oztrace_parser::audit::Params) -> (Option<u64>, Option<u64>) {
    params
        .get("blockData")
        .and_then(|b| oztrace_parser::entity::find_blocks(b).next())
        .map_or((None, None), |m| {
            (Some(m.value.container), Some(m.value.local))
        })
}

impl<'t> HostFacts<'t> {
    /// A Ratis line's member names datanode `peer` (a lower-case UUID).
    fn learn_datanode(&mut self, peer: &str) {
        if self.datanode.as_deref() != Some(peer) {
            self.datanode = Some(peer.to_string());
        }
    }

    fn observe(&mut self, id: EventId, event: &'t Event) {
        match &event.data {
            // The member's datanode is learnt by the caller, from the trace's compact column.
            EventData::Ratis(r) => {
                match r {
                    RatisEvent::RoleChange {
                        member,
                        from,
                        to,
                        term,
                        ..
                    } => {
                        self.leadership_changes.push(id);
                        if from == "LEADER" && to == "FOLLOWER" {
                            self.step_downs.push((id, member.group.as_str(), *term));
                        }
                    }
                    RatisEvent::LogTruncate { member, index, .. } => {
                        self.leadership_changes.push(id);
                        self.truncates.push((id, member.group.as_str(), *index));
                    }
                    RatisEvent::WriteTimeout(timeout) => {
                        // The entry names the pipeline; else the worker thread names the member.
                        let group = timeout
                            .pipeline
                            .as_deref()
                            .and_then(group_of_pipeline)
                            .or_else(|| {
                                event.thread.as_deref().and_then(|t| {
                                    find_member_ids(t).next().map(|m| m.value.group.to_owned())
                                })
                            })
                            .map(|g| format!("group-{g}"));
                        self.write_timeouts.push(WriteTimeout {
                            id,
                            group,
                            index: timeout.index,
                            term: timeout.term,
                        });
                    }
                    RatisEvent::CacheTruncate { member, index, .. } => {
                        self.cache_truncates
                            .push((id, member.group.as_str(), *index));
                    }
                    RatisEvent::AppendEntry {
                        member,
                        index: Some(i),
                        term,
                        ..
                    } => self.appends.push((id, member.group.as_str(), *i, *term)),
                    _ => {}
                }
            }
            EventData::Datanode(d) => self.observe_datanode(id, event, d),
            _ => {}
        }
    }

    fn observe_datanode(&mut self, id: EventId, event: &'t Event, d: &'t DatanodeEvent) {
        let mut effect = |container, local, note| {
            self.effects.push(Effect {
                id,
                container,
                local,
                note,
            })
        };
        match d {
            DatanodeEvent::DnAudit(audit) => {
                let DnAudit {
                    op,
                    ret,
                    params,
                    perf,
                    throwable,
                } = &**audit;
                let thrown = throwable.as_deref().unwrap_or("");
                let (container, local) = block_of(params);
                if let Some(perf) = perf.as_ref().filter(|_| op == "WRITE_CHUNK") {
                    let latency = perf.get("opLatencyMs").and_then(|ms| ms.parse().ok());
                    self.slow_ops.push((id, latency));
                } else if ret == "FAILURE"
                    && op == "WRITE_CHUNK"
                    && thrown.contains("does not match length")
                {
                    effect(container, local, WRITE_FAILURE_NOTES[0]);
                } else if ret == "FAILURE"
                    && op == "READ_CHUNK"
                    && thrown.contains("Unexpected read size")
                {
                    effect(
                        container,
                        local,
                        "a read of a committed chunk of this block found the block file short",
                    );
                }
            }
            DatanodeEvent::DispatchError(error) => {
                let DispatchError {
                    op,
                    result,
                    message,
                    local,
                    ..
                } = &**error;
                if result == "CHUNK_FILE_INCONSISTENCY" {
                    effect(
                        None,
                        *local,
                        "WriteChunk failed CHUNK_FILE_INCONSISTENCY: the block file is shorter than the committed chunks",
                    );
                } else if op == "ReadChunk"
                    && result == "CONTAINER_INTERNAL_ERROR"
                    && message.starts_with("Unexpected read size")
                {
                    effect(
                        None,
                        None,
                        "ReadChunk failed CONTAINER_INTERNAL_ERROR: Unexpected read size",
                    );
                }
            }
            DatanodeEvent::ChunkUnexpectedSize { of, .. } if of == "read" => {
                effect(
                    None,
                    None,
                    "ChunkUtils: the block file returned fewer bytes than the chunk length",
                );
            }
            DatanodeEvent::CsmReadFailed(failed)
                if failed.message.starts_with("Unexpected read size") =>
            {
                effect(
                    None,
                    None,
                    "the leader could not re-read a committed chunk for a follower",
                );
            }
            DatanodeEvent::ContainerMarkedUnhealthy { container } => {
                effect(
                    Some(*container),
                    None,
                    "the failed write marked this replica UNHEALTHY",
                );
            }
            DatanodeEvent::DnContainerState {
                id: container,
                state: Some(state),
                ..
            } if &**state == "UNHEALTHY" => {
                effect(
                    Some(*container),
                    None,
                    "dn-container: this replica became UNHEALTHY",
                );
            }
            DatanodeEvent::CsmWriteCancelled { .. } => self.slow_ops.push((id, None)),
            DatanodeEvent::CsmWriteSubmitted(line) | DatanodeEvent::CsmWriteCompleted(line) => {
                let write = Submit {
                    id,
                    group: &line.group,
                    index: line.index,
                    chunk: &line.chunk,
                    container: line.container,
                    local: line.local,
                };
                if matches!(d, DatanodeEvent::CsmWriteSubmitted(_)) {
                    self.submits.push(write);
                } else {
                    self.completions.push(write);
                }
            }
            DatanodeEvent::CsmApply(apply) if apply.completed => {
                if let Some(index) = apply.index {
                    self.applies.push(Apply {
                        id,
                        group: &apply.group,
                        cmd: &apply.cmd,
                        index,
                        result: &apply.result,
                    });
                }
            }
            DatanodeEvent::ChunkIgnored { chunk, stage, .. } if stage == "COMMIT_DATA" => {
                self.ignored.push((id, chunk, event.thread.as_deref()));
            }
            DatanodeEvent::ChunkWrite(write) if write.stage == "WRITE_DATA" => {
                self.written_chunks.insert(&write.chunk);
            }
            _ => {}
        }
    }

    fn truncations_after_step_down(&self, trace: &Trace) -> Vec<Truncation<'t>> {
        self.truncates
            .iter()
            .filter_map(|(id, group, index)| {
                // The host's step-downs before the truncation, latest first, while one can still
                // be recent enough: a long trace's older ones are never read.
                let before =
                    &self.step_downs[..self.step_downs.partition_point(|(s, _, _)| s < id)];
                let truncated = trace.ts_of(*id);
                let recent = |s: EventId| match (trace.latest_until(s), truncated) {
                    (Some(latest), Some(at)) => at - latest <= STEP_DOWN_BEFORE_TRUNCATE_MS,
                    _ => true,
                };
                let &(step_down, _, term) = before
                    .iter()
                    .rev()
                    .take_while(|(s, _, _)| recent(*s))
                    .find(|(s, g, _)| {
                        g == group
                            && trace
                                .elapsed(*s, *id)
                                .is_some_and(|ms| (0..=STEP_DOWN_BEFORE_TRUNCATE_MS).contains(&ms))
                    })?;
                let mut t = Truncation {
                    id: *id,
                    step_down,
                    group,
                    index: *index,
                    new_term: term,
                    slow: Vec::new(),
                };
                t.slow = self.slow_writes_near(trace, &t);
                Some(t)
            })
            .collect()
    }

    /// Evidence of slow chunk writes around a truncation: a write timeout of a truncated entry
    /// first, else the slow-op records.
    fn slow_writes_near(&self, trace: &Trace, t: &Truncation) -> Vec<Evidence> {
        let near = |id: EventId| {
            trace
                .elapsed(t.id, id)
                .is_some_and(|ms| ms.abs() <= SLOW_WRITE_WINDOW_MS)
        };
        let mut out = Vec::new();
        for WriteTimeout {
            id,
            group,
            index,
            term,
        } in &self.write_timeouts
        {
            if !near(*id) || group.as_deref().is_some_and(|g| g != t.group) {
                continue;
            }
            let truncated =
                index.is_some_and(|i| i >= t.index) && term.is_some_and(|x| x < t.new_term);
            out.push(Evidence {
                event: *id,
                role: Role::Cause,
                note: if truncated {
                    format!(
                        "the data write of entry {} (term {}), at or above the truncation index, was still pending",
                        index.unwrap_or_default(),
                        term.unwrap_or_default()
                    )
                } else {
                    "a chunk write of this pipeline exceeded the Ratis sync timeout".to_string()
                },
            });
            if out.len() >= 2 {
                return out;
            }
        }
        if out.is_empty() {
            // A slow-op record is written when the op ends: it counts if the op was running
            // around the truncation (started before it, ended at most a little before it).
            let pending =
                |id: EventId, latency: Option<i64>| match (latency, trace.elapsed(t.id, id)) {
                    (Some(latency), Some(after)) => {
                        after >= -SLOW_OP_BEFORE_TRUNCATE_MS
                            && after - latency <= SLOW_OP_START_AFTER_MS
                    }
                    _ => near(id),
                };
            out.extend(
                self.slow_ops
                    .iter()
                    .filter(|(id, l)| pending(*id, *l))
                    .take(2)
                    .map(|(id, _)| Evidence {
                        event: *id,
                        role: Role::Cause,
                        note: "slow chunk write on this datanode (slow-op record)".to_string(),
                    }),
            );
        }
        out
    }

    /// The DEBUG proof for truncation `t`: indexes at or above it whose old entry submitted a
    /// chunk write, re-applied after the truncation as a WriteChunk of another chunk with no new
    /// submit and no chunk write.
    fn proofs(&self, trace: &Trace, index: &Index, t: &Truncation) -> Vec<Proof> {
        // The truncated entries' chunk writes (the latest submit per index at or above the
        // truncation), and the indexes that got a fresh submit after it.
        let mut old_submits: HashMap<u64, &Submit> = HashMap::new();
        let mut resubmitted: HashMap<u64, EventId> = HashMap::new();
        for s in self
            .submits
            .iter()
            .filter(|s| s.group == t.group && s.index >= t.index)
        {
            if s.id < t.id {
                old_submits.insert(s.index, s);
            } else {
                resubmitted.entry(s.index).or_insert(s.id);
            }
        }
        let mut proofs = Vec::new();
        if old_submits.is_empty() {
            return proofs;
        }
        let first_after = self.applies.partition_point(|a| a.id <= t.id);
        for Apply {
            id: apply,
            group,
            cmd,
            index: i,
            result,
        } in &self.applies[first_after..]
        {
            if *group != t.group || *cmd != "WriteChunk" || *result != "SUCCESS" {
                continue;
            }
            let Some(old) = old_submits.get(i) else {
                continue;
            };
            if resubmitted.get(i).is_some_and(|s| s < apply) {
                continue;
            }
            // The chunk of the applied entry: FilePerBlockStrategy's `Ignore chunk` just before
            // the apply, on the same executor thread.
            let apply_thread = trace.get(*apply).thread.as_deref();
            let before = self.ignored.partition_point(|(id, ..)| id < apply);
            let Some((ignored, chunk, _)) = self.ignored[..before]
                .iter()
                .rev()
                .take_while(|(id, ..)| {
                    *id > t.id
                        && trace
                            .elapsed(*id, *apply)
                            .is_some_and(|ms| (0..=1000).contains(&ms))
                })
                .find(|(_, _, thread)| apply_thread.is_none() || thread.as_deref() == apply_thread)
            else {
                continue;
            };
            if *chunk == old.chunk || self.written_chunks.contains(chunk) {
                continue;
            }
            let Some(local) = local_of_chunk(chunk) else {
                continue;
            };
            let container = index
                .hosts
                .values()
                .flat_map(|f| f.submits.iter())
                .find(|s| s.group == t.group && s.index == *i && s.local == Some(local))
                .and_then(|s| s.container)
                .or_else(|| index.container_of(None, Some(local)));
            let mut evidence = vec![Evidence {
                event: old.id,
                role: Role::Cause,
                note: format!(
                    "before the truncation, entry {i} (chunk {}) submitted its chunk write on this datanode",
                    old.chunk
                ),
            }];
            if let Some((id, ..)) = self.cache_truncates.iter().find(|(id, g, n)| {
                *id < t.id + 8
                    && *g == t.group
                    && *n == t.index
                    && trace.elapsed(*id, t.id).is_some_and(|ms| ms.abs() <= 5_000)
            }) {
                evidence.push(Evidence {
                    event: *id,
                    role: Role::Context,
                    note: "the cache truncation shows the stored entry's older term against the leader's".to_string(),
                });
            }
            if let Some((id, ..)) = self
                .appends
                .iter()
                .find(|(id, g, n, _)| *id > t.id && *id < *apply && *g == t.group && *n == *i)
            {
                evidence.push(Evidence {
                    event: *id,
                    role: Role::Context,
                    note: format!("the new leader's entry {i} was appended, with no chunk write submitted for it"),
                });
            }
            if let Some(done) = self.completions.iter().find(|c| {
                c.id > t.id && c.group == t.group && c.index == *i && c.chunk == old.chunk
            }) {
                evidence.push(Evidence {
                    event: done.id,
                    role: Role::Effect,
                    note: format!(
                        "the truncated entry's write ({}) completed the future now held by the new entry {i}",
                        old.chunk
                    ),
                });
            }
            evidence.push(Evidence {
                event: *ignored,
                role: Role::Effect,
                note: format!("chunk {chunk} is committed (COMMIT_DATA) but was never written on this datanode"),
            });
            evidence.push(Evidence {
                event: *apply,
                role: Role::Effect,
                note: format!("index {i} applied as a successful WriteChunk without its data"),
            });
            proofs.push(Proof {
                index: *i,
                chunk: chunk.to_string(),
                local,
                container,
                evidence,
            });
        }
        proofs
    }
}

struct Proof {
    index: u64,
    chunk: String,
    local: u64,
    container: Option<u64>,
    evidence: Vec<Evidence>,
}

/// `<localID>_chunk_<n>` → localID.
fn local_of_chunk(chunk: &str) -> Option<u64> {
    chunk.split_once("_chunk_")?.0.parse().ok()
}

// --- Findings -----------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct Draft {
    entity: Entity,
    confidence: Confidence,
    reason: String,
    evidence: Vec<Evidence>,
    groups: BTreeSet<String>,
}

impl Draft {
    fn new(entity: Entity, t: &Truncation) -> Draft {
        Draft {
            entity,
            confidence: Confidence::Possible,
            reason: String::new(),
            evidence: Vec::new(),
            groups: BTreeSet::from([t.group.to_string()]),
        }
    }

    fn finish(mut self, host: &str, index: &Index) -> Finding {
        let facts = index.hosts.get(host);
        let datanode = facts.and_then(|f| f.datanode.clone());
        let mut related: BTreeSet<Entity> = BTreeSet::new();
        if let Entity::Block { container, .. } = &self.entity {
            related.insert(Entity::Container(*container));
        }
        if let Some(dn) = datanode.as_deref().and_then(Entity::datanode) {
            related.insert(dn);
        }
        for g in &self.groups {
            related.extend(Entity::group(g));
            if let Some(p) = index.facts.pipeline_of_group(g) {
                related.extend(Entity::pipeline(p));
            }
        }
        self.evidence.sort_by_key(|e| e.event);
        self.evidence.dedup_by_key(|e| e.event);
        let who = datanode.map_or_else(|| host.to_string(), |d| format!("{host} ({d})"));
        let summary = match self.confidence {
            Confidence::Confirmed => format!(
                "{} on datanode {who} was committed without its chunk data: a WriteChunk at a truncated Ratis index reused the pending write of the truncated entry (HDDS-17675).",
                self.entity
            ),
            Confidence::Likely => format!(
                "{} on datanode {who} is short or inconsistent after the datanode lost leadership with slow chunk writes and its Ratis log was truncated; likely HDDS-17675 (a WriteChunk committed without its data).",
                self.entity
            ),
            Confidence::Possible => format!(
                "{} on datanode {who} shows a missing or short chunk near a Ratis leadership change; possibly HDDS-17675.",
                self.entity
            ),
        };
        Finding {
            rule: ID,
            entity: self.entity,
            related: related.into_iter().collect(),
            confidence: self.confidence,
            reason: self.reason,
            summary,
            evidence: self.evidence,
        }
    }
}

fn merge(
    findings: &mut BTreeMap<(Arc<str>, Entity), Draft>,
    key: (Arc<str>, Entity),
    draft: Draft,
) {
    match findings.get_mut(&key) {
        None => {
            findings.insert(key, draft);
        }
        Some(kept) => {
            if draft.confidence > kept.confidence {
                kept.confidence = draft.confidence;
                kept.reason = draft.reason;
            }
            kept.groups.extend(draft.groups);
            for e in draft.evidence {
                if !kept.evidence.iter().any(|k| k.event == e.event) {
                    kept.evidence.push(e);
                }
            }
        }
    }
}

/// Short reads or UNHEALTHY replicas in several containers of one datanode around `at`: a failing
/// volume (datanode.md 3.A's look-alike), not isolated chunks lost after a truncation.
fn failing_volume(
    trace: &Trace,
    index: &Index,
    facts: &HostFacts,
    at: EventId,
    thresholds: &Thresholds,
) -> bool {
    let containers: BTreeSet<u64> = facts
        .effects
        .iter()
        .filter(|e| {
            trace
                .elapsed(at, e.id)
                .is_some_and(|ms| ms.abs() <= thresholds.failing_volume_window_ms)
        })
        .filter_map(|e| index.container_of(e.container, e.local))
        .collect();
    containers.len() >= thresholds.failing_volume_containers
}

/// One effect on one datanode: which truncation it follows, and how sure that makes it.
fn assess(
    trace: &Trace,
    index: &Index,
    facts: &HostFacts,
    truncations: &[Truncation],
    effect: &Effect,
    thresholds: &Thresholds,
) -> Option<Draft> {
    let container = index.container_of(effect.container, effect.local);
    let (container, local) = match container {
        Some(c) => (c, effect.local),
        // A main-log line without a container: borrow the block of its dn-audit record.
        None => {
            // Effects are in time order: the twin is among those written within
            // SAME_FAILURE_MS of it.
            let within = |other: &Effect| {
                trace
                    .elapsed(effect.id, other.id)
                    .is_some_and(|ms| ms.abs() <= SAME_FAILURE_MS)
            };
            let at = facts.effects.partition_point(|e| e.id < effect.id);
            let from = at
                - facts.effects[..at]
                    .iter()
                    .rev()
                    .take_while(|e| within(e))
                    .count();
            let to = at + facts.effects[at..].iter().take_while(|e| within(e)).count();
            let twin = facts.effects[from..to].iter().find(|other| {
                other.id != effect.id
                    && other.container.is_some()
                    && (effect.local.is_none() || other.local == effect.local)
            })?;
            (twin.container?, twin.local)
        }
    };
    let entity = match local {
        Some(local) => Entity::Block { container, local },
        None => Entity::Container(container),
    };
    let effect_evidence = Evidence {
        event: effect.id,
        role: Role::Effect,
        note: effect.note.to_string(),
    };
    // The latest truncation after a step-down that precedes the effect on this datanode, on a
    // pipeline no line contradicts for this container.
    if let Some(t) = truncations
        .iter()
        .rev()
        .find(|t| t.precedes(trace, effect.id) && !index.tied_elsewhere(container, t.group))
    {
        let mut draft = Draft::new(entity, t);
        draft.evidence = t.cause_evidence();
        let slow = &t.slow;
        if slow.is_empty() {
            draft.confidence = Confidence::Possible;
            draft.reason = format!(
                "a step-down and a log truncation of {} precede the effect on this datanode, but no slow chunk write is logged around them",
                t.group
            );
        } else {
            draft.confidence = Confidence::Likely;
            draft.reason = format!(
                "this datanode stepped down from LEADER of {}, its log was truncated at {} while chunk writes were slow, and then this {} showed a missing chunk; the reuse itself is not logged at INFO",
                t.group,
                t.index,
                draft.entity.kind()
            );
        }
        if draft.confidence == Confidence::Likely
            && failing_volume(trace, index, facts, effect.id, thresholds)
        {
            draft.confidence = Confidence::Possible;
            draft.reason = format!(
                "a step-down, a truncation of {} and slow writes precede the effect, but short reads or UNHEALTHY replicas in {} or more containers of this datanode within one disk-check interval point to a failing volume",
                t.group, thresholds.failing_volume_containers
            );
        }
        if let Some(tie) = index
            .facts
            .groups_of_container(container)
            .and_then(|g| g.get(t.group))
        {
            draft.reason.push_str(&format!(
                " (a log line ties container {container} to {})",
                t.group
            ));
            draft.evidence.push(Evidence {
                event: *tie,
                role: Role::Context,
                note: format!(
                    "names container {container} with the pipeline of {}",
                    t.group
                ),
            });
        }
        draft.evidence.push(effect_evidence);
        return Some(draft);
    }
    // `possible`: an effect near a leadership change or truncation of a member on this datanode.
    let before = facts
        .leadership_changes
        .partition_point(|id| *id < effect.id);
    let near = facts.leadership_changes[..before].last().filter(|id| {
        trace
            .elapsed(**id, effect.id)
            .is_some_and(|ms| (0..=thresholds.near_leadership_change_ms).contains(&ms))
    })?;
    let group = match &trace.get(*near).data {
        EventData::Ratis(r) => r.member().map(|m| m.group.clone()),
        _ => None,
    }?;
    if index.tied_elsewhere(container, &group)
        || failing_volume(trace, index, facts, effect.id, thresholds)
    {
        return None;
    }
    Some(Draft {
        entity,
        confidence: Confidence::Possible,
        reason: format!(
            "a missing or short chunk follows a leadership change of {group} on this datanode, without the step-down, truncation and slow writes that make it likely"
        ),
        evidence: vec![
            Evidence {
                event: *near,
                role: Role::Context,
                note: format!("leadership change or truncation of {group} on this datanode"),
            },
            effect_evidence,
        ],
        groups: BTreeSet::from([group]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rule;
    use crate::testing::{events, run_with};
    use crate::{LoggingCoverage, Settings};

    const DN1: &str = "a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60";
    const M1: &str = "a41c7e92-5d3b-4f8a-9e06-1b2c3d4e5f60@group-41A9C03D5E7B";
    const RS: &str = "org.apache.ratis.server.RaftServer$Division";
    const WORKER: &str = "org.apache.ratis.server.raftlog.segmented.SegmentedRaftLogWorker";

    fn main_log(lines: &[(&str, &str, &str, &str)]) -> String {
        lines
            .iter()
            .map(|(time, level, logger, msg)| {
                format!("2026-08-19 {time} [t] {level} {logger}: {msg}\n")
            })
            .collect()
    }

    fn scan(streams: Vec<Vec<Event>>, logging: &LoggingCoverage) -> Output {
        run_with(&ReusedWriteFuture, streams, &Settings::default(), logging)
    }

    /// dn1's main log and dn-audit log.
    fn dn1(main: &str, audit: &str) -> Vec<Vec<Event>> {
        vec![
            events("dn1", Component::Datanode, main),
            events("dn1", Component::DnAudit, audit),
        ]
    }

    /// The rule over dn1's logs, no DEBUG logger on.
    fn scan_dn1(main: &str, audit: &str) -> Output {
        scan(dn1(main, audit), &LoggingCoverage::default())
    }

    /// The findings of the two blocks of container 1042 whose writes and reads the effects show
    /// failing, at these confidences.
    fn blocks_17_and_23(at_17: Confidence, at_23: Confidence) -> Vec<(String, Confidence)> {
        vec![
            ("block:1042:17".to_string(), at_17),
            ("block:1042:23".to_string(), at_23),
        ]
    }

    fn all_at(out: &Output, confidence: Confidence) -> bool {
        out.findings.iter().all(|f| f.confidence == confidence)
    }

    /// dn1 stands for election in the group, ~1.7 minutes before the effects.
    fn candidacy() -> String {
        format!(
            "2026-08-19 10:20:00,000 [t] INFO {RS}: {M1}: changes role from  FOLLOWER to CANDIDATE at term 7 for changeToCandidate\n"
        )
    }

    /// A slow WriteChunk of container 1042 that ties it to the pipeline `pipeline`.
    fn timeout_of_1042_on(pipeline: &str) -> String {
        format!(
            "2026-08-19 10:21:00,000 [w] WARN {WORKER}: Timeout 0/~\norg.apache.ratis.protocol.exceptions.TimeoutIOException: Timeout 10s: WriteLog:5: (t:2, i:5), STATEMACHINELOGENTRY, cmdType: WriteChunk containerID: 1042 pipelineID: \"{pipeline}\" writeChunk {{ blockID {{ containerID: 1042 localID: 1 blockCommitSequenceId: 0 }} }}\n"
        )
    }

    /// Short reads in two more containers soon after the effects: with container 1042's, three
    /// containers at once, a failing volume.
    const OTHER_CONTAINERS_SHORT_READS: &str = "\
2026-08-19 10:22:00,000 | ERROR | DNAudit | user=null | ip=null | op=READ_CHUNK {\"blockData\":\"conID: 1012 locID: 5 bcsId: 9 replicaIndex: null\",\"offset\":\"0\",\"size\":\"4194304\"} | ret=FAILURE | java.lang.Exception: Unexpected read size. expected: 4194304, actual: 1048576
2026-08-19 10:22:30,000 | ERROR | DNAudit | user=null | ip=null | op=READ_CHUNK {\"blockData\":\"conID: 1017 locID: 6 bcsId: 9 replicaIndex: null\",\"offset\":\"0\",\"size\":\"4194304\"} | ret=FAILURE | java.lang.Exception: Unexpected read size. expected: 4194304, actual: 1048576
";

    fn preconditions(slow: bool) -> String {
        let mut lines = vec![
            (
                "10:21:07,013",
                "INFO",
                RS,
                format!(
                    "{M1}: changes role from    LEADER to FOLLOWER at term 7 for candidate:6e8d0f13-2a4b-4c7d-8e9f-0a1b2c3d4e71"
                ),
            ),
            (
                "10:21:08,412",
                "INFO",
                WORKER,
                format!(
                    "{M1}-SegmentedRaftLogWorker: Truncating segments truncate(18342)\n  toTruncate: (18001, 18344) isOpen? true, length=412733, newEndIndex=18341\n    toDelete: [], start index 18342"
                ),
            ),
        ];
        if slow {
            lines.push(("10:21:10,731", "WARN", WORKER, format!("Timeout 0/~\norg.apache.ratis.protocol.exceptions.TimeoutIOException: Timeout 10s: WriteLog:18342: (t:6, i:18342), STATEMACHINELOGENTRY, cmdType: WriteChunk traceID: \"\" containerID: 1043 datanodeUuid: \"{DN1}\" pipelineID: \"7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b\" writeChunk {{ blockID {{ containerID: 1043 localID: 19 blockCommitSequenceId: 0 }} chunkData {{ chunkName: \"19_chunk_0\" }} }}")));
        }
        let owned: Vec<(&str, &str, &str, &str)> = lines
            .iter()
            .map(|(a, b, c, d)| (*a, *b, *c, d.as_str()))
            .collect();
        main_log(&owned)
    }

    const EFFECTS_MAIN: &str = "\
2026-08-19 10:21:41,331 [c] WARN org.apache.hadoop.ozone.container.keyvalue.KeyValueHandler: Operation: WriteChunk , Trace ID:  , Message: Chunk offset 8388608 does not match length 4194304 of blockFile 23.block , Result: CHUNK_FILE_INCONSISTENCY , StorageContainerException Occurred.
2026-08-19 10:21:41,335 [c] INFO org.apache.hadoop.ozone.container.common.impl.HddsDispatcher: Marked Container UNHEALTHY, ContainerID: 1042
2026-08-19 10:21:57,604 [r] ERROR org.apache.hadoop.ozone.container.keyvalue.helpers.ChunkUtils: Unexpected read size. expected: 4194304, actual: -1
";
    const EFFECTS_AUDIT: &str = "\
2026-08-19 10:21:41,332 | ERROR | DNAudit | user=null | ip=null | op=WRITE_CHUNK {\"blockData\":\"conID: 1042 locID: 23 bcsId: 0 replicaIndex: null\",\"offset\":\"8388608\",\"size\":\"2097152\",\"stage\":\"WRITE_DATA\"} | ret=FAILURE | java.lang.Exception: Chunk offset 8388608 does not match length 4194304 of blockFile 23.block
2026-08-19 10:21:57,606 | ERROR | DNAudit | user=null | ip=null | op=READ_CHUNK {\"blockData\":\"conID: 1042 locID: 17 bcsId: 18345 replicaIndex: null\",\"offset\":\"12582912\",\"size\":\"4194304\"} | ret=FAILURE | java.lang.Exception: Unexpected read size. expected: 4194304, actual: -1
";

    fn found(out: &Output) -> Vec<(String, Confidence)> {
        out.findings
            .iter()
            .map(|f| (f.entity.to_string(), f.confidence))
            .collect()
    }

    #[test]
    fn bug_at_info_is_likely_per_block_with_a_gap() {
        let out = scan_dn1(&(preconditions(true) + EFFECTS_MAIN), EFFECTS_AUDIT);
        assert_eq!(
            found(&out),
            blocks_17_and_23(Confidence::Likely, Confidence::Likely)
        );
        let f = &out.findings[1];
        assert!(f.related.contains(&Entity::Datanode(DN1.into())));
        assert!(f.related.contains(&Entity::Group("41A9C03D5E7B".into())));
        // The container-level UNHEALTHY line joins the block findings of its container: an
        // effect of block 23's failed write, context for block 17.
        let unhealthy = |f: &Finding| {
            f.evidence
                .iter()
                .find(|e| e.note.contains("marked this replica UNHEALTHY"))
                .map(|e| e.role)
        };
        assert_eq!(unhealthy(f), Some(Role::Effect));
        assert_eq!(unhealthy(&out.findings[0]), Some(Role::Context));
        assert!(
            f.evidence
                .iter()
                .any(|e| e.role == Role::Cause && e.note.contains("still pending"))
        );
        assert_eq!(out.gaps.len(), 1);
        assert_eq!(out.gaps[0].hosts, vec!["dn1".to_string()]);
        assert_eq!(out.gaps[0].enable.len(), 4);
        assert!(
            out.gaps[0].enable.contains(
                &"log4j.logger.org.apache.ratis.server.raftlog.RaftLog=TRACE".to_string()
            )
        );
    }

    #[test]
    fn effects_without_slow_writes_are_possible() {
        let out = scan_dn1(&(preconditions(false) + EFFECTS_MAIN), EFFECTS_AUDIT);
        assert!(all_at(&out, Confidence::Possible), "{:?}", found(&out));
        assert_eq!(out.findings.len(), 2);
    }

    #[test]
    fn effect_on_another_datanode_is_not_tied_to_the_truncate() {
        let out = scan(
            vec![
                events("dn1", Component::Datanode, &preconditions(true)),
                events("dn2", Component::DnAudit, EFFECTS_AUDIT),
            ],
            &LoggingCoverage::default(),
        );
        assert!(out.findings.is_empty(), "{:?}", found(&out));
        // The preconditions are there: the gap says which loggers would show the reuse.
        assert_eq!(out.gaps.len(), 1);
    }

    const PERF_FAR: &str = "2026-08-19 10:12:10,000 | INFO  | DNAudit | user=null | ip=null | op=WRITE_CHUNK {\"blockData\":\"conID: 1060 locID: 9 bcsId: 0 replicaIndex: null\",\"offset\":\"0\",\"size\":\"4194304\",\"stage\":\"WRITE_DATA\"} | ret=null | perf={preOpLatencyMs=0, opLatencyMs=1200} |  \n";
    const PERF_PENDING: &str = "2026-08-19 10:21:22,407 | INFO  | DNAudit | user=null | ip=null | op=WRITE_CHUNK {\"blockData\":\"conID: 1043 locID: 19 bcsId: 0 replicaIndex: null\",\"offset\":\"0\",\"size\":\"4194304\",\"stage\":\"WRITE_DATA\"} | ret=null | perf={preOpLatencyMs=0, opLatencyMs=21704} |  \n";

    #[test]
    fn clean_failover_is_silent() {
        // A slow op that ended nine minutes before the truncation was not pending at it.
        let out = scan_dn1(&preconditions(false), PERF_FAR);
        assert!(out.findings.is_empty());
        assert!(out.gaps.is_empty());
    }

    #[test]
    fn a_slow_op_running_across_the_truncation_counts_as_slow_writes() {
        let out = scan_dn1(
            &(preconditions(false) + EFFECTS_MAIN),
            &(PERF_PENDING.to_string() + EFFECTS_AUDIT),
        );
        assert_eq!(out.findings.len(), 2);
        assert!(all_at(&out, Confidence::Likely), "{:?}", found(&out));
        assert!(
            out.findings[0]
                .evidence
                .iter()
                .any(|e| e.note.contains("slow-op"))
        );
    }

    #[test]
    fn failing_disk_without_leadership_change_is_silent() {
        let out = scan(
            vec![
                events("dn3", Component::Datanode, EFFECTS_MAIN),
                events("dn3", Component::DnAudit, EFFECTS_AUDIT),
            ],
            &LoggingCoverage::default(),
        );
        assert!(out.findings.is_empty());
        assert!(out.gaps.is_empty());
    }

    #[test]
    fn effects_near_a_role_change_are_possible_unless_a_volume_is_failing() {
        let role = candidacy();
        let out = scan_dn1(&role, EFFECTS_AUDIT);
        assert_eq!(
            found(&out),
            blocks_17_and_23(Confidence::Possible, Confidence::Possible)
        );
        assert!(out.gaps.is_empty());
        // Short reads in three containers at once: a failing volume, silent.
        let out = scan_dn1(
            &role,
            &(EFFECTS_AUDIT.to_string() + OTHER_CONTAINERS_SHORT_READS),
        );
        assert!(out.findings.is_empty(), "{:?}", found(&out));
    }

    #[test]
    fn thresholds_come_from_the_settings() {
        let defaults = Thresholds::from(&Settings::default());
        assert_eq!(
            defaults,
            Thresholds {
                failing_volume_window_ms: 3_600_000,
                failing_volume_containers: 3,
                near_leadership_change_ms: 1_800_000,
            }
        );
        let mut settings = Settings::default();
        settings.set(DISK_CHECK_INTERVAL, "15", "ozone-site.xml");
        settings.set(FAILING_VOLUME_CONTAINERS, "0", "--set");
        settings.set(NEAR_LEADERSHIP_CHANGE, "1m", "--set");
        let t = Thresholds::from(&settings);
        assert_eq!(t.failing_volume_window_ms, 900_000);
        // Not a usable count: the default stays.
        assert_eq!(t.failing_volume_containers, 3);
        assert_eq!(t.near_leadership_change_ms, 60_000);

        // The possible-near-a-role-change scenario: effects ~1.7 min after the role change.
        let role = candidacy();
        let mut near = Settings::default();
        near.set(NEAR_LEADERSHIP_CHANGE, "1m", "--set");
        let out = run_with(
            &ReusedWriteFuture,
            dn1(&role, EFFECTS_AUDIT),
            &near,
            &LoggingCoverage::default(),
        );
        assert!(out.findings.is_empty(), "{:?}", found(&out));
        let out = run_with(
            &ReusedWriteFuture,
            dn1(&role, EFFECTS_AUDIT),
            &Settings::default(),
            &LoggingCoverage::default(),
        );
        assert_eq!(out.findings.len(), 2);
    }

    #[test]
    fn a_failing_volume_after_a_truncation_is_only_possible() {
        let out = scan_dn1(
            &preconditions(true),
            &(EFFECTS_AUDIT.to_string() + OTHER_CONTAINERS_SHORT_READS),
        );
        assert_eq!(out.findings.len(), 4);
        assert!(all_at(&out, Confidence::Possible), "{:?}", found(&out));
        assert!(out.findings[0].reason.contains("failing volume"));
    }

    #[test]
    fn container_tied_to_another_pipeline_is_not_counted() {
        // A timeout line ties container 1042 to another pipeline than the truncated one.
        let other = timeout_of_1042_on("2d9f6b84-1c3e-4a5b-8d7f-e6c5b4a39281");
        let out = scan_dn1(&(other + &preconditions(true)), EFFECTS_AUDIT);
        assert!(
            out.findings
                .iter()
                .all(|f| f.confidence < Confidence::Likely),
            "{:?}",
            found(&out)
        );
    }

    #[test]
    fn a_line_naming_container_and_pipeline_is_context() {
        let same = timeout_of_1042_on("7e3b1c52-9a4d-4f18-b6e2-41a9c03d5e7b");
        let out = scan_dn1(&(same + &preconditions(true)), EFFECTS_AUDIT);
        assert_eq!(out.findings.len(), 2);
        for f in &out.findings {
            assert_eq!(f.confidence, Confidence::Likely);
            assert!(f.reason.contains("ties container 1042"));
            // The tying line is also the slow-write evidence here: listed once.
            assert_eq!(f.evidence.iter().filter(|e| e.event == 0).count(), 1);
        }
    }

    #[test]
    fn debug_lines_confirm_the_reuse() {
        let csm =
            "org.apache.hadoop.ozone.container.common.transport.server.ratis.ContainerStateMachine";
        let fpbs = "org.apache.hadoop.ozone.container.keyvalue.impl.FilePerBlockStrategy";
        let debug = format!(
            "\
2026-08-19 10:21:00,813 [g] DEBUG {csm}: group-41A9C03D5E7B: writeChunk writeStateMachineData : blockIdcontainerID: 1043
localID: 25
blockCommitSequenceId: 0
 logIndex 18343 chunkName 25_chunk_0
2026-08-19 10:21:00,815 [w] DEBUG {fpbs}: Writing chunk ChunkInfo{{chunkName='25_chunk_0, offset=0, len=4194304}} (overwrite: false) in stage WRITE_DATA to file /d/1043/chunks/25.block
"
        );
        let after = format!(
            "\
2026-08-19 10:21:23,118 [w] DEBUG {csm}: group-41A9C03D5E7B: writeChunk writeStateMachineData  completed: blockIdcontainerID: 1043
localID: 25
blockCommitSequenceId: 0
 logIndex 18343 chunkName 25_chunk_0
2026-08-19 10:21:24,080 [op] DEBUG {fpbs}: Ignore chunk ChunkInfo{{chunkName='17_chunk_3, offset=12582912, len=4194304}} in stage COMMIT_DATA
2026-08-19 10:21:24,081 [op] DEBUG {csm}: gid group-41A9C03D5E7B : ApplyTransaction completed. cmd WriteChunk logIndex 18343 msg :  Container Result: SUCCESS
"
        );
        let mut logging = LoggingCoverage::default();
        for (logger, level) in LOGGERS {
            logging.record("dn1", logger, level);
        }
        let out = scan(
            dn1(
                &(debug.clone() + &preconditions(true) + &after + EFFECTS_MAIN),
                EFFECTS_AUDIT,
            ),
            &logging,
        );
        assert_eq!(
            found(&out),
            blocks_17_and_23(Confidence::Confirmed, Confidence::Likely)
        );
        assert!(out.gaps.is_empty());
        let f = &out.findings[0];
        assert!(f.reason.contains("18343"));
        assert!(f.evidence.iter().any(|e| e.note.contains("never written")));

        // The same apply after a fresh submit and chunk write of the new entry is no proof.
        let resubmitted = after.replace(
            "2026-08-19 10:21:24,080",
            &format!("2026-08-19 10:21:09,000 [g] DEBUG {fpbs}: Writing chunk ChunkInfo{{chunkName='17_chunk_3, offset=12582912, len=4194304}} (overwrite: false) in stage WRITE_DATA to file /d/1042/chunks/17.block\n2026-08-19 10:21:24,080"),
        );
        let out = scan(
            dn1(
                &(debug + &preconditions(true) + &resubmitted + EFFECTS_MAIN),
                EFFECTS_AUDIT,
            ),
            &logging,
        );
        assert!(all_at(&out, Confidence::Likely), "{:?}", found(&out));
    }

    #[test]
    fn documentation_names_the_loggers() {
        assert_eq!(ReusedWriteFuture.doc().id, "reused-write-future");
        assert_eq!(ReusedWriteFuture.doc().loggers.len(), LOGGERS.len());
        for (logger, level) in LOGGERS {
            assert!(
                ReusedWriteFuture
                    .doc()
                    .loggers
                    .contains(&format!("log4j.logger.{logger}={level}").as_str())
            );
        }
        assert_eq!(
            local_of_chunk("113750153625600017_chunk_3"),
            Some(113750153625600017)
        );
        assert_eq!(local_of_chunk("x"), None);
    }
}
