//! `premature-lease-close` (HDDS-16825): the lease hard limit auto-commits the file of a live
//! hsync writer at a length below what hsync acknowledged.
//!
//! Evidence chain (om.md 3.3, issue 6): the `om-lease` machine's AUTO_COMMITTED step (COMMIT_KEY
//! with empty `user=` and `ip=`) of key K at dataSize L, then
//! - the same writer failing COMMIT_KEY or ALLOCATE_BLOCK with KEY_NOT_FOUND ("entry is not found
//!   in the OpenKey table", "Open Key not found") at a dataSize above L: `confirmed`;
//! - else an offset above L that hsync had acknowledged before the auto-commit (an ALLOCATE_BLOCK
//!   `dataSize`, or a client `block written` dump tied to K): `likely` when the writer is seen
//!   active after the auto-commit (its failure at or below L, a tied `block written` line, an OM
//!   DEBUG hsync of K, a datanode slow-op or failure record on a block tied to K), else `possible`.
//!
//! A writer and its key are tied by key path and, when printed, clientID (`clientID >> 16` is the
//! open time, which must match the session's CREATE_FILE). Client `block written` lines carry no
//! key: a dump (the lines one stream prints at one hsync: same host, thread and millisecond) is
//! tied to K when its total length equals a length K's audit lines print, or when it names a block
//! already tied to K (by an earlier dump or an OM DEBUG `OmKeyInfo{…}` of K). A recoverLease never
//! produces a finding: a RECOVER_LEASE success, a delete or a re-create of K before the writer's
//! failure makes the failure the designed fencing path.
//!
//! The writers most exposed never leave their first block (an hsync'ing journal, WAL or log
//! shipper at a few hundred bytes a second): OM sees their CREATE_FILE, the auto-commit at the hard
//! limit and, days later with the default limits, their failure. Nothing ties those three but the
//! key, the CREATE's user and ip, and the clientID in the failure's open-key path, whose open time
//! must be the CREATE's: an older session of the same writer whose open key expired fails the same
//! way and is not the auto-committed one.

use crate::RuleFamily;
use crate::coverage::Need;
use crate::{
    Confidence, Context, Evidence, Finding, Gap, Output, Role, RuleDoc, SettingDoc, Settings,
    Severity,
};
use oztrace_analyzer::graph::{EdgeKind, EventGraph};
use oztrace_analyzer::kinds::{Family, KindSet, Reads};
use oztrace_analyzer::machines::datanode_links::is_failed_or_slow;
use oztrace_analyzer::machines::lease;
use oztrace_analyzer::trace::{EventId, Trace};
use oztrace_parser::audit::AuditRet;
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::datanode::DatanodeEvent;
use oztrace_parser::catalog::om::{KeyAudit, OmEvent};
use oztrace_parser::entity::{Entity, decode_client_id};
use oztrace_parser::event::Event;
use oztrace_parser::source::Component;
use std::collections::{BTreeSet, HashMap};

pub const ID: &str = "premature-lease-close";

/// The datanode audit kind (every dn-audit record; the datanode slice's catalogue).
pub const DN_AUDIT_KIND: &str = "dn_audit";

const HARD_LIMIT: &str = "ozone.om.lease.hard.limit";
const SOFT_LIMIT: &str = "ozone.om.lease.soft.limit";
const CLEANUP_INTERVAL: &str = "ozone.om.open.key.cleanup.service.interval";
/// The lease settings, in [`LeaseSettings`] order (hard, soft, interval).
const SETTINGS: &[SettingDoc; 3] = &[
    SettingDoc {
        key: HARD_LIMIT,
        default: "7d",
        default_from: "OMConfigKeys.OZONE_OM_LEASE_HARD_LIMIT_DEFAULT (ozone-default.xml)",
        used_for: "an hsynced open key idle this long is auto-committed; the reason says whether the \
auto-commit came within [last audited renewal + this, + this + the cleanup interval]",
    },
    SettingDoc {
        key: SOFT_LIMIT,
        default: "60s",
        default_from: "OzoneConfigKeys.OZONE_OM_LEASE_SOFT_LIMIT_DEFAULT (ozone-default.xml)",
        used_for: "named in the reason (recoverLease without force is accepted once the open key is idle this long)",
    },
    SettingDoc {
        key: CLEANUP_INTERVAL,
        default: "24h",
        default_from: "OMConfigKeys.OZONE_OM_OPEN_KEY_CLEANUP_SERVICE_INTERVAL_DEFAULT (ozone-default.xml)",
        used_for: "OpenKeyCleanupService runs this often, so an expired key waits up to one interval for its auto-commit",
    },
];

const CLIENT_LOGGER: &str = "org.apache.hadoop.ozone.client.io.BlockOutputStreamEntryPool";
const OM_COMMIT_LOGGER: &str = "org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest";

/// How far a clientID's open time may be from its CREATE_FILE line (leader clock vs. the
/// auditing OM, plus preExecute-to-apply latency), beyond the configured skew.
const OPEN_TIME_SLACK_MS: i64 = 5_000;

declare_rule! {
    /// OM auto-commits the file of a live hsync writer at the lease hard limit, below what hsync acknowledged
    ///
    /// ## What it detects
    ///
    /// An OpenKeyCleanupService auto-commit (OMAudit COMMIT_KEY with empty `user=` and `ip=`) of a
    /// key whose writer was still alive, at a dataSize below the offset its hsync calls had
    /// acknowledged. hsync does not renew the open key's modification time after the first hsync
    /// of a block, so a writer that stays in one block longer than `ozone.om.lease.hard.limit`
    /// looks idle to OM and its file is closed at the length of its last OM-reaching hsync. A
    /// writer that never leaves its first block shows only its CREATE_FILE, the auto-commit and,
    /// much later, its own KEY_NOT_FOUND failure; the rule follows the key across the rotated
    /// audit files in between.
    ///
    /// ## Why it matters
    ///
    /// Everything the writer hsynced in its current block after the first hsync there is missing
    /// from the closed file, and the writer is not told: its hsync calls keep succeeding (they
    /// reach only the datanodes) and its first error comes when it closes the stream or needs a
    /// new block. Readers (HBase WAL replay, log shippers) see a truncated file.
    ///
    /// ## Example
    ///
    /// An OM audit log (`samples/HDDS-16825-bug-writer-fails-after-autocommit`): the collector
    /// creates its file and allocates a block at 536866190 bytes, the cleanup service commits the
    /// file at 536872942, and the writer's own commit at 651208334 fails:
    ///
    /// ```text
    /// 2026-08-18 20:14:03,173 | INFO  | OMAudit | user=svc-collector | ip=10.20.3.15 | op=CREATE_FILE {"volume":"logs","bucket":"raw","key":"apps/payments/2026-08-18/collector-3.log","dataSize":"0","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"6402166"} | ret=SUCCESS |
    /// 2026-08-18 20:47:52,059 | INFO  | OMAudit | user=svc-collector | ip=10.20.3.15 | op=ALLOCATE_BLOCK {"volume":"logs","bucket":"raw","key":"apps/payments/2026-08-18/collector-3.log","dataSize":"536866190","replicationType":"RATIS","replicationFactor":"THREE","clientID":"117118339855548433","Transaction":"6402203"} | ret=SUCCESS |
    /// 2026-08-18 22:53:41,415 | INFO  | OMAudit | user= | ip= | op=COMMIT_KEY {"volume":"logs","bucket":"raw","key":"apps/payments/2026-08-18/collector-3.log","dataSize":"536872942","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"6402389"} | ret=SUCCESS |
    /// 2026-08-19 00:00:07,267 | ERROR | OMAudit | user=svc-collector | ip=10.20.3.15 | op=COMMIT_KEY {"volume":"logs","bucket":"raw","key":"apps/payments/2026-08-18/collector-3.log","dataSize":"651208334","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"6402496"} | ret=FAILURE | KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Failed to commit key, as /-9223372036854567936/-9223372036854511104/-9223372035216110336/collector-3.log/117118339855548433 entry is not found in the OpenKey table
    /// ```
    ///
    /// and the leader OM's log, the cleanup run that committed it:
    ///
    /// ```text
    /// 2026-08-18 22:53:41,485 [om1-OpenKeyCleanupService#0] INFO org.apache.hadoop.ozone.om.service.OpenKeyCleanupService: Number of expired open keys submitted for deletion: 0, for commit: 1, cleanupLimit: 1000, elapsed time: 56ms
    /// ```
    ///
    /// Kinds: `om_audit_create`, `om_audit_allocate_block`, `om_audit_commit_key`,
    /// `om_audit_commit_key`, `open_key_cleanup_summary`.
    ///
    /// ## Evidence and confidence
    ///
    /// Cause: the auto-commit (COMMIT_KEY, empty user and ip; copies on every OM are one event).
    /// Context: the session's CREATE_FILE/ALLOCATE_KEY, its last ALLOCATE_BLOCK (the last lease
    /// renewal OM audits), the ALLOCATE_BLOCK or client `block written` dump with an acknowledged
    /// offset above the committed length, and the leader's `submitted for … for commit: N`
    /// summary. Effect: the writer's COMMIT_KEY/ALLOCATE_BLOCK FAILURE KEY_NOT_FOUND (tied by key
    /// and clientID or user/ip), the OM ERROR for it, client `block written` lines and datanode
    /// slow-op records on the key's blocks after the auto-commit.
    ///
    /// - `confirmed`: the writer fails KEY_NOT_FOUND at a dataSize above the committed one;
    /// - `likely`: an acknowledged offset above the committed length before the auto-commit and
    ///   the writer seen active after it;
    /// - `possible`: that offset alone (a dead writer loses its trailing hsyncs the same way, but
    ///   its liveness is not shown).
    ///
    /// The lease settings come from `--set`, else ozone-site.xml, else Ozone's defaults; the
    /// finding's reason says which applied. The clientID of a failure names the auto-committed
    /// session when its open time is within the clock skew (`--skew`) plus 5 s of that session's
    /// CREATE_FILE: the clientID is made on the leader when the request arrives, the CREATE_FILE
    /// line when it is applied, milliseconds apart.
    ///
    /// ## Look-alikes
    ///
    /// - A dead writer: the auto-commit at or above every length it reported loses nothing it was
    ///   told was kept, and nothing of the writer follows (`HDDS-16825-control-dead-writer`).
    /// - A live writer that needs a new block within the hard limit renews its lease with every
    ///   ALLOCATE_BLOCK and closes its file itself (`HDDS-16825-control-live-writer-closes`).
    /// - A recoverLease (RECOVER_LEASE success), a delete or a re-create of the key before the
    ///   writer's failure: the failure is the designed fencing path
    ///   (`HDDS-16825-control-recover-lease-fencing`).
    /// - First-block writers that close before the hard limit, are fenced, or die
    ///   (`HDDS-16825-control-first-block-writers-2-2`).
    /// - The failure of another session of the same writer on the same key, whose clientID's
    ///   open time is not the auto-committed session's
    ///   (`HDDS-16825-control-other-session-fails-2-0`).
    pub struct PrematureLeaseClose;
}

static DOC: RuleDoc = RuleDoc {
    id: ID,
    consumes: CONSUMES,
    machines: &[lease::NAME],
    ticket: "HDDS-16825",
    severity: Severity::High,
    family: RuleFamily::Signature,
    markdown: PrematureLeaseClose::MARKDOWN,
    settings: SETTINGS,
    loggers: &[
        "log4j.logger.org.apache.hadoop.ozone.client.io.BlockOutputStreamEntryPool=DEBUG",
        "log4j.logger.org.apache.hadoop.ozone.om.request.key.OMKeyCommitRequest=DEBUG",
        "log4j.logger.org.apache.hadoop.ozone.om.service.OpenKeyCleanupService=DEBUG",
    ],
    needs: &[
        Need::required("OM audit logs", &[Component::OmAudit]),
        Need::optional("OM service logs", &[Component::Om]),
    ],
    remediation: REMEDIATION,
};

/// What an operator does about a file closed under a live hsync writer (HDDS-16825).
const REMEDIATION: crate::Remediation = crate::Remediation {
    affected: "2.0.0 and later (the lease hard limit of HDDS-10141 with the per-block hsync of \
HDDS-9387), through 2.2.x and master.",
    fixed_in: None,
    fix: "Open. Proposed: expire an hsynced key only when its committed entry is older than the \
hard limit too, and have clients update OM at least every \
ozone.client.hsync.om.update.interval.",
    actions: &[
        crate::Action {
            purpose: "See the closed file's length (below what the writer's hsync calls \
acknowledged)",
            command: Some("ozone sh key info {key}"),
        },
        crate::Action {
            purpose: "List the files still open for writing in the bucket: hsynced ones that \
stay in one block are next",
            command: Some("ozone admin om list-open-files --prefix {bucket}"),
        },
        crate::Action {
            purpose: "Until a fix ships, raise ozone.om.lease.hard.limit in the OMs' \
ozone-site.xml above the longest time a writer stays in one block, then restart the OMs (it is \
not reconfigurable at run time)",
            command: None,
        },
        crate::Action {
            purpose: "Write again, from its source, what the writer hsynced after its first \
hsync in the last block: it is not in the closed file, and the writer was not told",
            command: None,
        },
    ],
    attach: &[
        "every OM's log around the automatic commit (OpenKeyCleanupService, this finding's \
evidence)",
        "the OM audit log for the key (ALLOCATE_BLOCK, COMMIT_KEY, the hsync commits)",
        "the writer's client log, with the error at close",
        "the OMs' ozone-site.xml (ozone.om.lease.hard.limit) and `ozone sh key info` of the key",
    ],
};

/// The kinds the rule reads: the OM's audit, cleanup and key lines, the client's block lines,
/// and the datanodes' failed or slow audit records of the blocks written.
pub const CONSUMES: &[Reads] = &[
    Reads::Family(Family::Om),
    Reads::Where("dn_audit", is_failed_or_slow),
];

fn check(context: &Context<'_>, out: &mut Output) {
    let trace = &context.analysis.trace;
    let limits = LeaseSettings::from(context.settings);
    let mut auto_commits: Vec<EventId> = context
        .analysis
        .replay
        .of_machine(lease::NAME)
        .filter(|t| t.to == "AUTO_COMMITTED")
        .map(|t| t.event)
        .collect();
    auto_commits.dedup();
    if auto_commits.is_empty() {
        return;
    }
    let dumps = Dumps::index(trace);
    let key_infos = KeyInfos::index(trace);
    let mut unconfirmed_hosts: BTreeSet<String> = BTreeSet::new();
    let mut writer_ips: BTreeSet<String> = BTreeSet::new();
    for auto in auto_commits {
        let Some(incident) =
            Incident::build(&context.analysis.graph, trace, auto, &dumps, &key_infos)
        else {
            continue;
        };
        match incident.finding(trace, &limits, &dumps) {
            Some(finding) => {
                if finding.confidence < Confidence::Confirmed {
                    unconfirmed_hosts.extend(om_hosts(trace.get(auto)));
                    writer_ips.extend(incident.writer_ip.clone());
                }
                out.findings.push(finding);
            }
            None => {
                unconfirmed_hosts.extend(om_hosts(trace.get(auto)));
                writer_ips.extend(incident.writer_ip.clone());
            }
        }
    }
    gaps(context, &dumps, unconfirmed_hosts, writer_ips, out);
}

/// The hosts that wrote an event (every copy).
fn om_hosts(event: &Event) -> Vec<String> {
    if event.copies.is_empty() {
        vec![event.host.to_string()]
    } else {
        event.copies.iter().map(|c| c.host.to_string()).collect()
    }
}

/// Gaps matter only where an auto-commit exists and the lines that would confirm or clear it
/// (the writer's hsyncs) cannot be in the logs.
fn gaps(
    context: &Context<'_>,
    dumps: &Dumps,
    om_hosts: BTreeSet<String>,
    writer_ips: BTreeSet<String>,
    out: &mut Output,
) {
    if om_hosts.is_empty() {
        return;
    }
    if dumps.dumps.is_empty() && !writer_ips.is_empty() {
        out.gaps.push(Gap {
            rule: ID,
            missing: "the writer's hsync progress after its last OM-visible act (client `block written` lines), \
which would show whether it was alive when OM auto-committed its file"
                .to_string(),
            enable: vec![format!("log4j.logger.{CLIENT_LOGGER}=DEBUG")],
            hosts: writer_ips.into_iter().collect(),
        });
    }
    let missing_om: Vec<String> = om_hosts
        .into_iter()
        .filter(|h| !context.logging.enabled(h, OM_COMMIT_LOGGER, "DEBUG"))
        .collect();
    if !missing_om.is_empty() {
        out.gaps.push(Gap {
            rule: ID,
            missing: "OM's record of hsync commits (no audit line is written for hsync) and the blocks of the \
auto-committed key"
                .to_string(),
            enable: vec![format!("log4j.logger.{OM_COMMIT_LOGGER}=DEBUG")],
            hosts: missing_om,
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Settings

/// One lease setting and where its value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub ms: i64,
    pub text: String,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseSettings {
    pub hard: Setting,
    pub soft: Setting,
    pub interval: Setting,
}

impl From<&Settings> for LeaseSettings {
    fn from(settings: &Settings) -> LeaseSettings {
        let read = |doc: &SettingDoc| -> Setting {
            if let Some((value, source)) = settings.get(doc.key)
                && let Ok(ms) = doc.parse(value)
            {
                return Setting {
                    ms,
                    text: value.trim().to_string(),
                    source: source.to_string(),
                };
            }
            Setting {
                ms: doc.parse(doc.default).unwrap_or(0),
                text: doc.default.to_string(),
                source: "default".to_string(),
            }
        };
        let [hard, soft, interval] = SETTINGS;
        LeaseSettings {
            hard: read(hard),
            soft: read(soft),
            interval: read(interval),
        }
    }
}

impl LeaseSettings {
    fn describe(&self) -> String {
        let one = |name: &str, s: &Setting| format!("{name} {} ({})", s.text, s.source);
        format!(
            "{}, {}, {}",
            one("hard limit", &self.hard),
            one("soft limit", &self.soft),
            one("cleanup interval", &self.interval)
        )
    }
}

fn human(ms: i64) -> String {
    let s = ms / 1000;
    match s {
        s if s >= 86_400 => format!("{}d{}h", s / 86_400, (s % 86_400) / 3_600),
        s if s >= 3_600 => format!("{}h{:02}m", s / 3_600, (s % 3_600) / 60),
        s if s >= 60 => format!("{}m{:02}s", s / 60, s % 60),
        s => format!("{s}s"),
    }
}

// ---------------------------------------------------------------------------------------------
// Client `block written` dumps

/// The `block written` lines one output stream printed at one hsync or close.
#[derive(Debug, Clone)]
struct Dump {
    ts: Option<i64>,
    events: Vec<EventId>,
    blocks: Vec<Entity>,
    total: u64,
}

/// One stream's lines at one hsync: host, file, thread, millisecond.
type DumpKey<'a> = (&'a str, &'a str, Option<&'a str>, Option<i64>);

#[derive(Debug, Default)]
struct Dumps {
    dumps: Vec<Dump>,
    by_total: HashMap<u64, Vec<usize>>,
    by_block: HashMap<Entity, Vec<usize>>,
}

impl Dumps {
    fn index(trace: &Trace) -> Dumps {
        let mut open: HashMap<DumpKey<'_>, usize> = HashMap::new();
        let mut dumps = Dumps::default();
        let om = KindSet::of(&[Reads::Family(Family::Om)]);
        for id in trace.of_kinds(&om) {
            let event = trace.get(id);
            let EventData::Om(OmEvent::ClientBlockWritten { length, .. }) = &event.data else {
                continue;
            };
            let Some(block) = event.entities.first() else {
                continue;
            };
            let key = (
                &*event.host,
                &*event.file,
                event.thread.as_deref(),
                event.ts,
            );
            let at = *open.entry(key).or_insert_with(|| {
                dumps.dumps.push(Dump {
                    ts: event.ts,
                    events: Vec::new(),
                    blocks: Vec::new(),
                    total: 0,
                });
                dumps.dumps.len() - 1
            });
            let dump = &mut dumps.dumps[at];
            dump.events.push(id);
            dump.blocks.push(block.clone());
            dump.total += length;
        }
        for (i, dump) in dumps.dumps.iter().enumerate() {
            dumps.by_total.entry(dump.total).or_default().push(i);
            for block in &dump.blocks {
                dumps.by_block.entry(block.clone()).or_default().push(i);
            }
        }
        dumps
    }
}

/// OM DEBUG `Key commit … omKeyInfo = OmKeyInfo{…}` lines by (volume, bucket, keyName as printed).
#[derive(Debug, Default)]
struct KeyInfos {
    by_name: HashMap<(String, String, String), Vec<EventId>>,
}

impl KeyInfos {
    fn index(trace: &Trace) -> KeyInfos {
        let mut infos = KeyInfos::default();
        let om = KindSet::of(&[Reads::Family(Family::Om)]);
        for id in trace.of_kinds(&om) {
            let event = trace.get(id);
            if let Some(OmEvent::KeyCommitResult(result)) = om_event(event) {
                infos
                    .by_name
                    .entry((
                        result.volume.clone(),
                        result.bucket.clone(),
                        result.key_name.clone(),
                    ))
                    .or_default()
                    .push(id);
            }
        }
        infos
    }

    /// The lines of a key: by its full path, or (FSO keys print the leaf only) by its file name.
    fn of<'a>(
        &'a self,
        (volume, bucket, key): (&str, &str, &str),
    ) -> impl Iterator<Item = EventId> + 'a {
        let full = (volume.to_string(), bucket.to_string(), key.to_string());
        let leaf = key.rsplit('/').next().unwrap_or(key);
        let by_leaf =
            (leaf != key).then(|| (volume.to_string(), bucket.to_string(), leaf.to_string()));
        let found: Vec<EventId> = [Some(full), by_leaf]
            .into_iter()
            .flatten()
            .filter_map(|k| self.by_name.get(&k))
            .flatten()
            .copied()
            .collect();
        found.into_iter()
    }
}

// ---------------------------------------------------------------------------------------------
// One auto-commit and what surrounds it

#[derive(Debug)]
struct Incident {
    key: Entity,
    volume: String,
    bucket: String,
    key_name: String,
    auto: EventId,
    committed: Option<u64>,
    create: Option<EventId>,
    allocs: Vec<EventId>,
    client: Option<u64>,
    writer_user: Option<String>,
    writer_ip: Option<String>,
    /// The writer's KEY_NOT_FOUND failures after the auto-commit (no fencing in between).
    failures: Vec<EventId>,
    /// OM main-log ERROR lines for those failures.
    errors: Vec<EventId>,
    /// Lines showing the writer alive after the auto-commit (besides failures).
    activity: Vec<EventId>,
    /// Dumps tied to the key, and the blocks they name.
    dumps: Vec<usize>,
    blocks: BTreeSet<Entity>,
    /// The leader's cleanup summary that submitted the commit.
    summary: Option<EventId>,
}

fn key_audit(event: &Event) -> Option<&KeyAudit> {
    match &event.data {
        EventData::Om(om) => om.key_audit(),
        _ => None,
    }
}

fn om_event(event: &Event) -> Option<&OmEvent> {
    match &event.data {
        EventData::Om(om) => Some(om),
        _ => None,
    }
}

fn is_key_not_found(a: &KeyAudit) -> bool {
    a.result.as_deref() == Some("KEY_NOT_FOUND")
        && a.exception.as_deref().is_some_and(|m| {
            m.contains("entry is not found in the OpenKey table")
                || m.contains("Open Key not found")
        })
}

/// A request that ends the session or fences its writer: recoverLease, delete, re-create.
fn fences(event: &Event) -> bool {
    match om_event(event) {
        Some(OmEvent::AuditRecoverLease(a) | OmEvent::AuditCreate(a)) => a.succeeded(),
        Some(OmEvent::Audit(a)) => {
            a.ret == AuditRet::Success
                && matches!(a.op.as_str(), "DELETE_KEY" | "DELETE_KEYS" | "RENAME_KEY")
        }
        Some(OmEvent::SysOpenKeyCleanup { .. }) => true,
        _ => false,
    }
}

impl Incident {
    fn build(
        graph: &EventGraph,
        trace: &Trace,
        auto: EventId,
        dumps: &Dumps,
        key_infos: &KeyInfos,
    ) -> Option<Incident> {
        let auto_event = trace.get(auto);
        let auto_audit = key_audit(auto_event)?;
        let committed = auto_audit.data_size;
        let key = auto_audit.entity();
        let ids = trace.of_entity(&key);
        // The key's events are in trace order: found by a search, not a walk of its history.
        let at = ids.binary_search(&auto).ok()?;
        // The session: back to its CREATE_FILE / ALLOCATE_KEY.
        let mut create = None;
        let mut allocs = Vec::new();
        for &id in ids[..at].iter().rev() {
            match om_event(trace.get(id)) {
                Some(OmEvent::AuditCreate(a)) if a.succeeded() => {
                    create = Some(id);
                    break;
                }
                Some(OmEvent::AuditAllocateBlock(a)) if a.succeeded() => allocs.push(id),
                Some(OmEvent::AuditCommitKey(a)) if a.succeeded() => break,
                _ => {}
            }
        }
        allocs.reverse();
        let session_audits: Vec<&KeyAudit> = create
            .iter()
            .chain(&allocs)
            .filter_map(|&id| key_audit(trace.get(id)))
            .collect();
        let client = session_audits.iter().rev().find_map(|a| a.client_id);
        let writer = session_audits.iter().rev().find(|a| !a.user.is_empty());
        let mut incident = Incident {
            key: key.clone(),
            volume: auto_audit.volume.clone(),
            bucket: auto_audit.bucket.clone(),
            key_name: auto_audit.key.clone(),
            auto,
            committed,
            create,
            allocs,
            client,
            writer_user: writer.map(|a| a.user.clone()),
            writer_ip: writer.map(|a| a.ip.clone()),
            failures: Vec::new(),
            errors: Vec::new(),
            activity: Vec::new(),
            dumps: Vec::new(),
            blocks: BTreeSet::new(),
            summary: None,
        };
        incident.after(trace, &ids[at + 1..]);
        // The `om-lease` linker ties each failure to the OM ERROR lines logged for it, and the
        // auto-commit to the leader's cleanup run that submitted it.
        incident.errors = incident
            .failures
            .iter()
            .flat_map(|&f| graph.outgoing(f))
            .filter(|(_, edge)| edge.kind == EdgeKind::Causal)
            .map(|(id, _)| id)
            .collect();
        // The earliest copy first, as for the audit lines.
        incident.errors.sort_unstable();
        incident.errors.dedup();
        incident.summary = graph
            .incoming(auto)
            .filter(|(id, edge)| {
                edge.kind == EdgeKind::Causal
                    && matches!(
                        om_event(trace.get(*id)),
                        Some(OmEvent::OpenKeyCleanupSummary { .. })
                    )
            })
            .map(|(id, _)| id)
            .min();
        incident.tie_dumps(trace, dumps, key_infos);
        Some(incident)
    }

    fn session_start(&self, trace: &Trace) -> Option<i64> {
        self.create
            .or_else(|| self.allocs.first().copied())
            .and_then(|id| trace.get(id).ts)
    }

    /// Whether a failure's printed identity (clientID, else user and ip) is this session's writer.
    fn is_writer(&self, trace: &Trace, a: &KeyAudit) -> bool {
        if a.system {
            return false;
        }
        match (a.client_id, self.client) {
            (Some(theirs), Some(ours)) => return theirs == ours,
            (Some(theirs), None) => {
                if let Some(start) = self.create.and_then(|id| trace.get(id).ts) {
                    let opened = decode_client_id(theirs).0;
                    return (opened - start).abs() <= trace.skew_ms + OPEN_TIME_SLACK_MS;
                }
            }
            _ => {}
        }
        match (&self.writer_user, &self.writer_ip) {
            (Some(user), Some(ip)) => &a.user == user && &a.ip == ip,
            _ => true,
        }
    }

    /// The writer's failures and activity after the auto-commit, up to a fencing request.
    fn after(&mut self, trace: &Trace, later: &[EventId]) {
        for &id in later {
            let event = trace.get(id);
            if fences(event) {
                break;
            }
            match om_event(event) {
                Some(OmEvent::AuditCommitKey(a) | OmEvent::AuditAllocateBlock(a))
                    if a.ret == AuditRet::Failure && self.is_writer(trace, a) =>
                {
                    if is_key_not_found(a) {
                        self.failures.push(id);
                    } else {
                        self.activity.push(id);
                    }
                }
                Some(OmEvent::KeyCommitRequest { is_hsync: true, .. }) => self.activity.push(id),
                _ => {}
            }
        }
    }

    /// Lengths the key's lines print, with the latest time a dump showing that length can have.
    fn known_lengths(&self, trace: &Trace) -> Vec<(u64, Option<i64>)> {
        let mut lengths = Vec::new();
        for &id in self.allocs.iter().chain([&self.auto]).chain(&self.failures) {
            let event = trace.get(id);
            if let Some(size) = key_audit(event)
                .and_then(|a| a.data_size)
                .filter(|&d| d > 0)
            {
                lengths.push((size, event.ts));
            }
        }
        lengths
    }

    /// The auto-commit's volume, bucket and key as printed.
    fn auto_key(&self) -> (&str, &str, &str) {
        (&self.volume, &self.bucket, &self.key_name)
    }

    fn tie_dumps(&mut self, trace: &Trace, dumps: &Dumps, key_infos: &KeyInfos) {
        let start = self.session_start(trace).map(|t| t - trace.skew_ms);
        let in_session = |d: &Dump| match (start, d.ts) {
            (Some(s), Some(t)) => t >= s,
            _ => start.is_none(),
        };
        let mut tied: Vec<usize> = Vec::new();
        for (length, until) in self.known_lengths(trace) {
            for &i in dumps.by_total.get(&length).into_iter().flatten() {
                let d = &dumps.dumps[i];
                let before = match (d.ts, until) {
                    (Some(t), Some(u)) => t <= u + trace.skew_ms,
                    _ => true,
                };
                if in_session(d) && before && !tied.contains(&i) {
                    tied.push(i);
                }
            }
        }
        // OM DEBUG `Key commit … omKeyInfo = OmKeyInfo{…}` of this key names its blocks.
        let mut frontier: Vec<Entity> = key_infos
            .of(self.auto_key())
            .flat_map(|id| trace.get(id).entities.iter())
            .filter(|e| e.kind() == "block")
            .cloned()
            .collect();
        for &i in &tied {
            frontier.extend(dumps.dumps[i].blocks.iter().cloned());
        }
        while let Some(block) = frontier.pop() {
            if !self.blocks.insert(block.clone()) {
                continue;
            }
            for &i in dumps.by_block.get(&block).into_iter().flatten() {
                if in_session(&dumps.dumps[i]) && !tied.contains(&i) {
                    tied.push(i);
                    frontier.extend(dumps.dumps[i].blocks.iter().cloned());
                }
            }
        }
        tied.sort_by_key(|&i| dumps.dumps[i].ts);
        self.dumps = tied;
        // Writer activity after the auto-commit: its hsyncs on the client and slow or failed
        // datanode operations on its blocks.
        let auto_ts = trace.get(self.auto).ts;
        for &i in &self.dumps {
            let d = &dumps.dumps[i];
            if matches!((d.ts, auto_ts), (Some(t), Some(a)) if t > a) {
                self.activity.extend(d.events.first());
            }
        }
        if let Some(a) = auto_ts {
            for block in &self.blocks {
                for &id in trace.of_entity(block) {
                    let e = trace.get(id);
                    if e.ts.is_some_and(|t| t > a) && is_datanode_activity(e, block) {
                        self.activity.push(id);
                    }
                }
            }
        }
        self.activity.sort_unstable();
        self.activity.dedup();
    }

    /// The largest offset hsync had acknowledged before the auto-commit, and the line showing it.
    fn acknowledged_before(&self, trace: &Trace, dumps_index: &Dumps) -> Option<(u64, EventId)> {
        let auto_ts = trace.get(self.auto).ts;
        let from_allocs = self.allocs.iter().filter_map(|&id| {
            key_audit(trace.get(id))
                .and_then(|a| a.data_size)
                .map(|d| (d, id))
        });
        let from_dumps = self.dumps.iter().filter_map(|&i| {
            let d = &dumps_index.dumps[i];
            let before = matches!((d.ts, auto_ts), (Some(t), Some(a)) if t <= a);
            before.then(|| (d.total, *d.events.last().unwrap_or(&self.auto)))
        });
        from_allocs.chain(from_dumps).max_by_key(|(d, _)| *d)
    }

    fn finding(&self, trace: &Trace, limits: &LeaseSettings, dumps: &Dumps) -> Option<Finding> {
        let committed = self.committed?;
        let bigger_failure = self.failures.iter().copied().find(|&id| {
            key_audit(trace.get(id))
                .and_then(|a| a.data_size)
                .is_some_and(|d| d > committed)
        });
        let acknowledged = self
            .acknowledged_before(trace, dumps)
            .filter(|(d, _)| *d > committed);
        let alive_after = !self.failures.is_empty() || !self.activity.is_empty();
        let (confidence, why) = if let Some(f) = bigger_failure {
            let size = key_audit(trace.get(f))
                .and_then(|a| a.data_size)
                .unwrap_or(0);
            (
                Confidence::Confirmed,
                format!(
                    "the writer failed KEY_NOT_FOUND at dataSize {size} after OM auto-committed the key at {committed} ({} bytes the writer had written are not in the file)",
                    size - committed
                ),
            )
        } else if let Some((offset, _)) = acknowledged {
            if alive_after {
                (
                    Confidence::Likely,
                    format!(
                        "hsync had acknowledged offset {offset} before OM auto-committed the key at {committed}, and the writer is seen active after the commit (no KEY_NOT_FOUND failure of it in the logs)"
                    ),
                )
            } else {
                (
                    Confidence::Possible,
                    format!(
                        "hsync had acknowledged offset {offset} before OM auto-committed the key at {committed}, but nothing shows the writer alive afterwards (a dead writer loses its trailing hsyncs the same way)"
                    ),
                )
            }
        } else {
            return None;
        };
        let timing = self.timing(trace, limits);
        let mut evidence = vec![Evidence {
            event: self.auto,
            role: Role::Cause,
            note: format!(
                "OpenKeyCleanupService auto-commit (empty user and ip) at dataSize {committed}"
            ),
        }];
        if let Some(create) = self.create {
            evidence.push(Evidence {
                event: create,
                role: Role::Context,
                note: "the writer's session opens (no clientID is audited here)".to_string(),
            });
        }
        if let Some(&last) = self.allocs.last() {
            evidence.push(Evidence {
                event: last,
                role: Role::Context,
                note: "the last ALLOCATE_BLOCK before the auto-commit: the last lease renewal OM audits".to_string(),
            });
        }
        if let Some((offset, id)) = acknowledged {
            evidence.push(Evidence {
                event: id,
                role: Role::Context,
                note: format!(
                    "hsync had acknowledged offset {offset} > {committed} before the auto-commit"
                ),
            });
        }
        if let Some(summary) = self.summary {
            evidence.push(Evidence {
                event: summary,
                role: Role::Context,
                note: "the leader's OpenKeyCleanupService run that submitted the auto-commit"
                    .to_string(),
            });
        }
        for &f in &self.failures {
            let size = key_audit(trace.get(f)).and_then(|a| a.data_size);
            evidence.push(Evidence {
                event: f,
                role: Role::Effect,
                note: format!(
                    "the writer's request fails KEY_NOT_FOUND at dataSize {}: its open key was committed under it",
                    size.map_or("?".to_string(), |s| s.to_string())
                ),
            });
        }
        if let Some(&error) = self.errors.first() {
            evidence.push(Evidence {
                event: error,
                role: Role::Effect,
                note: "OM ERROR for the writer's failed request".to_string(),
            });
        }
        // One client line and one datanode line suffice to show the writer alive.
        let mut shown_client = false;
        let mut shown_dn = false;
        for &id in &self.activity {
            let e = trace.get(id);
            let is_client = e.kind() == "client_block_written";
            let is_dn = e.kind() == DN_AUDIT_KIND;
            if (is_client && shown_client) || (is_dn && shown_dn) {
                continue;
            }
            shown_client |= is_client;
            shown_dn |= is_dn;
            let note = if is_client {
                "the writer's client logs an hsync on a block of this key after the auto-commit"
            } else if is_dn {
                "a datanode records a slow or failed operation on a block of this key after the auto-commit"
            } else {
                "the writer acts on the key after the auto-commit"
            };
            evidence.push(Evidence {
                event: id,
                role: Role::Effect,
                note: note.to_string(),
            });
        }
        let summary = format!(
            "OM auto-committed {} at {committed} bytes (lease hard limit, {}) while its writer{} {}.",
            self.key,
            limits.hard.text,
            self.client
                .map_or(String::new(), |c| format!(" (clientID {c})")),
            match confidence {
                Confidence::Confirmed =>
                    "was still writing: the writer's next request failed KEY_NOT_FOUND and the bytes it wrote after the committed length are missing from the file",
                Confidence::Likely =>
                    "was still writing: hsync-acknowledged bytes beyond the committed length are missing from the file",
                Confidence::Possible =>
                    "had hsync-acknowledged bytes beyond the committed length, which are missing from the file",
            }
        );
        Some(Finding {
            rule: ID,
            entity: self.key.clone(),
            related: self.blocks.iter().cloned().collect(),
            confidence,
            reason: format!("{why}; {timing}; {}", limits.describe()),
            summary,
            evidence,
        })
    }

    /// How long after the last audited lease renewal the auto-commit came, against the limit.
    fn timing(&self, trace: &Trace, limits: &LeaseSettings) -> String {
        let last = self.allocs.last().copied().or(self.create);
        let Some(idle) = last.and_then(|l| trace.elapsed(l, self.auto)) else {
            return "the session's last lease renewal is not in the logs".to_string();
        };
        let window = limits.hard.ms + limits.interval.ms;
        if idle + trace.skew_ms < limits.hard.ms {
            format!(
                "the auto-commit came {} after the last audited renewal, before the hard limit: the settings may not be the cluster's, or an unaudited first hsync renewed the lease",
                human(idle)
            )
        } else if idle > window + trace.skew_ms {
            format!(
                "the auto-commit came {} after the last audited renewal, later than hard limit + cleanup interval (an unaudited first hsync renewed the lease, or the cleanup backlog)",
                human(idle)
            )
        } else {
            format!(
                "the auto-commit came {} after the last audited renewal, within hard limit + one cleanup interval",
                human(idle)
            )
        }
    }
}

/// A datanode audit record (the datanode catalogue's `dn_audit`: fields `op`, `ret`, `perf`) of a
/// write on `block` that shows its writer active: a slow-op PERFORMANCE record (`perf` present)
/// or a failure of PUT_BLOCK / WRITE_CHUNK. Successful writes are never audited (om.md 0.3), and
/// other ops on the block (DELETE_BLOCK after the auto-commit dropped it, FINALIZE_BLOCK of a
/// lease recovery) are not the writer's.
/// A datanode audit record of the writer's block that shows it writing: a slow (PERFORMANCE) or
/// failed PUT_BLOCK or WRITE_CHUNK.
fn is_datanode_activity(event: &Event, block: &Entity) -> bool {
    let EventData::Datanode(DatanodeEvent::DnAudit(audit)) = &event.data else {
        return false;
    };
    matches!(audit.op.as_str(), "PUT_BLOCK" | "WRITE_CHUNK")
        && (audit.perf.is_some() || audit.ret == "FAILURE")
        && event.entities.contains(block)
}

#[cfg(test)]
mod tests;
