//! Background traffic of a healthy cluster at INFO, from the catalogued wordings (cited per
//! template; `oztrace explain --kinds` lists the typed ones) and the samples' own lines.
//!
//! What dominates a real bundle at INFO, and so this one: the OM audit, where every OM writes
//! ALLOCATE_KEY, ALLOCATE_BLOCK and COMMIT_KEY for every key (om.md 1.3–1.5; a successful hsync
//! writes none, and CreateKey audits as ALLOCATE_KEY). Datanodes add their container lifecycle
//! (dn-container `ContainerLogger` lines, DN audit CREATE_CONTAINER/CLOSE_CONTAINER: successful
//! WriteChunk/PutBlock are not audited, om.md 0.3) and Ratis snapshots; the SCM leader its
//! incremental container report CLOSE decisions, the ReplicationManager and block-deleting
//! service summaries; every OM its OpenKeyCleanupService summaries; every datanode its
//! DeleteBlocksCommandHandler summaries, a statement the catalogue does not type.

use crate::out::Files;
use crate::rng::Rng;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io;
use std::path::Path;

/// How the lines of daemon logs are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Layout {
    /// Ozone's default file appender: `%d{ISO8601} [%t] %-5p %c: %m%n` (as the samples).
    File,
    /// The same lines behind `kubectl logs --timestamps` stamps.
    Kubectl,
}

pub struct Plan {
    pub start_ms: i64,
    pub duration_ms: i64,
    pub target_bytes: u64,
    pub datanodes: usize,
    pub layout: Layout,
}

/// One datanode of the background cluster.
struct Datanode {
    host: String,
    uuid: String,
    ip: String,
    daemon: usize,
    audit: usize,
    container_log: usize,
}

/// A Ratis pipeline of three datanodes.
struct Pipeline {
    uuid: String,
    group: String,
    members: [usize; 3],
    term: u64,
    index: u64,
}

struct OpenContainer {
    id: u64,
    pipeline: usize,
    keys_left: u32,
    bcsid: u64,
}

/// Lines waiting for their time: (time, sequence, stream, line).
type Pending = BinaryHeap<Reverse<(i64, u64, usize, String)>>;

struct Sim<'a> {
    files: &'a mut Files,
    pending: Pending,
    seq: u64,
    layout: Layout,
}

impl Sim<'_> {
    fn at(&mut self, ts: i64, stream: usize, line: String) {
        self.seq += 1;
        self.pending.push(Reverse((ts, self.seq, stream, line)));
    }

    /// Writes every line due by `now`.
    fn flush(&mut self, now: i64) -> io::Result<()> {
        while let Some(Reverse((ts, ..))) = self.pending.peek() {
            if *ts > now {
                break;
            }
            let Some(Reverse((ts, _, stream, line))) = self.pending.pop() else {
                break;
            };
            match self.layout {
                Layout::File => self.files.line(stream, &line)?,
                Layout::Kubectl => {
                    let stamped = format!("{} {line}", kubectl_stamp(ts));
                    self.files.line(stream, &stamped)?
                }
            }
        }
        Ok(())
    }

    fn daemon(&mut self, ts: i64, stream: usize, thread: &str, logger: &str, message: &str) {
        let line = format!("{} [{thread}] INFO {logger}: {message}", log4j_time(ts));
        self.at(ts, stream, line);
    }

    fn audit(&mut self, ts: i64, stream: usize, logger: &str, message: &str) {
        let line = format!("{} | INFO  | {logger} | {message} |  ", log4j_time(ts));
        self.at(ts, stream, line);
    }
}

const VOLUMES: &[(&str, &str, &str, &str)] = &[
    // volume, bucket, key prefix, user
    ("logs", "raw", "apps/payments", "svc-collector"),
    ("hive", "warehouse", "sales/dt=", "hive"),
    ("s3v", "backups", "db/", "backup-svc"),
    ("ml", "features", "daily/part-", "spark"),
];

/// Writes the background of a cluster of 3 OMs, 3 SCMs and `plan.datanodes` datanodes into
/// `root` until `plan.target_bytes` are written.
pub fn generate(root: &Path, plan: &Plan, files: &mut Files, rng: &mut Rng) -> io::Result<()> {
    let mut oms = Vec::new();
    for i in 1..=3 {
        let host = format!("om{i}");
        let daemon = files.open(root.join(&host).join(format!("ozone-hadoop-om-{host}.log")))?;
        let audit = files.open(root.join(&host).join(format!("om-audit-{host}.log")))?;
        oms.push((host, daemon, audit));
    }
    let mut scms = Vec::new();
    for i in 1..=3 {
        let host = format!("scm{i}");
        let daemon = files.open(
            root.join(&host)
                .join(format!("ozone-hadoop-scm-{host}.log")),
        )?;
        scms.push((host, daemon));
    }
    let mut datanodes = Vec::new();
    for i in 1..=plan.datanodes.max(3) {
        let host = format!("dn{i}");
        let dir = root.join(&host);
        datanodes.push(Datanode {
            uuid: rng.uuid(),
            ip: format!("10.0.1.{}", 10 + i),
            daemon: files.open(dir.join(format!("ozone-hadoop-datanode-{host}.log")))?,
            audit: files.open(dir.join(format!("dn-audit-{host}.log")))?,
            container_log: files.open(dir.join(format!("dn-container-{host}.log")))?,
            host,
        });
    }
    let mut pipelines: Vec<Pipeline> = (0..datanodes.len())
        .map(|_| {
            let uuid = rng.uuid();
            let group = uuid[uuid.len() - 12..].to_ascii_uppercase();
            let mut members = [0; 3];
            let mut chosen = 0;
            while chosen < 3 {
                let dn = rng.below(datanodes.len() as u64) as usize;
                if !members[..chosen].contains(&dn) {
                    members[chosen] = dn;
                    chosen += 1;
                }
            }
            Pipeline {
                uuid,
                group,
                members,
                term: 1 + rng.below(5),
                index: 1000 + rng.below(100_000),
            }
        })
        .collect();

    let mut sim = Sim {
        files,
        pending: BinaryHeap::new(),
        seq: 0,
        layout: plan.layout,
    };
    // About 3.3 KB of OM audit per key: pace keys so the bytes fill the duration.
    let keys = (plan.target_bytes / 4_000).max(1);
    let mean_gap = (plan.duration_ms / keys as i64).max(1);
    let mut now = plan.start_ms;
    let mut transaction: u64 = 5_000_000;
    let mut next_container: u64 = 10_001;
    let mut open: Vec<OpenContainer> = Vec::new();
    let mut next_om_cleanup = now;
    let mut next_scm_summary = now;
    let mut next_snapshot = now;
    let mut next_delete_summary = now;
    let mut key_number: u64 = 0;
    while sim.files.total_bytes() < plan.target_bytes {
        now += 1 + rng.below(2 * mean_gap as u64) as i64;
        // Keep about three containers open to write into.
        while open.len() < 3 {
            let pipeline = rng.below(pipelines.len() as u64) as usize;
            let id = next_container;
            next_container += 1;
            for &m in &pipelines[pipeline].members {
                let dn = &datanodes[m];
                let ts = now + rng.below(40) as i64;
                // dn-audit (DNAudit): CREATE_CONTAINER is audited on success (om.md 0.3).
                sim.audit(
                    ts,
                    dn.audit,
                    "DNAudit",
                    &format!(
                        "user=null | ip=null | op=CREATE_CONTAINER {{\"containerID\":\"{id}\",\"containerType\":\"KeyValueContainer\"}} | ret=SUCCESS"
                    ),
                );
                container_log(&mut sim, ts + 1, dn, id, 0, "OPEN");
            }
            open.push(OpenContainer {
                id,
                pipeline,
                keys_left: 50 + rng.below(200) as u32,
                bcsid: 0,
            });
        }
        let slot = rng.below(open.len() as u64) as usize;
        write_key(&mut sim, rng, now, &oms, &mut transaction, &mut key_number);
        let container = &mut open[slot];
        container.bcsid += 1 + rng.below(6);
        pipelines[container.pipeline].index += 2 + rng.below(8);
        container.keys_left = container.keys_left.saturating_sub(1);
        if container.keys_left == 0 {
            let done = open.swap_remove(slot);
            close_container(
                &mut sim,
                rng,
                now,
                &done,
                &pipelines[done.pipeline],
                &datanodes,
                &scms[0],
            );
        }
        if now >= next_snapshot {
            next_snapshot = now + 60_000;
            let p = rng.below(pipelines.len() as u64) as usize;
            snapshot(&mut sim, rng, now, &mut pipelines[p], &datanodes);
        }
        if now >= next_delete_summary {
            next_delete_summary = now + 60_000;
            for dn in &datanodes {
                // DeleteBlocksCommandHandler.DeleteCmdWorker (Ozone HEAD), not catalogued.
                sim.daemon(
                    now + rng.below(2_000) as i64,
                    dn.daemon,
                    "DeleteBlocksCommandHandlerThread-0",
                    "org.apache.hadoop.ozone.container.common.statemachine.commandhandler.DeleteBlocksCommandHandler",
                    &format!(
                        "Summary of deleting container blocks, numOfTransactions={}, numOfContainers={}, numOfBlocks={}, commandId={}.",
                        1 + rng.below(20),
                        1 + rng.below(5),
                        1 + rng.below(200),
                        rng.below(1 << 40)
                    ),
                );
            }
        }
        if now >= next_scm_summary {
            next_scm_summary = now + 300_000;
            scm_summaries(
                &mut sim,
                rng,
                now,
                &scms[0],
                open.len() + next_container as usize,
            );
        }
        if now >= next_om_cleanup {
            next_om_cleanup = now + 600_000;
            for (host, daemon, _) in &oms {
                // OpenKeyCleanupService.call (om.md; the samples' wording), untyped.
                sim.daemon(
                    now + rng.below(5) as i64,
                    *daemon,
                    &format!("{host}-OpenKeyCleanupService#0"),
                    "org.apache.hadoop.ozone.om.service.OpenKeyCleanupService",
                    &format!(
                        "Number of expired open keys submitted for deletion: 0, for commit: 0, cleanupLimit: 1000, elapsed time: {}ms",
                        1 + rng.below(5)
                    ),
                );
            }
        }
        sim.flush(now - 120_000)?;
    }
    sim.flush(i64::MAX)
}

/// One key written by a client: ALLOCATE_KEY, one or more ALLOCATE_BLOCK, COMMIT_KEY, each
/// applied and audited by every OM (same Transaction; om.md 1.4–1.5, JSON form of 2.1+).
fn write_key(
    sim: &mut Sim<'_>,
    rng: &mut Rng,
    now: i64,
    oms: &[(String, usize, usize)],
    transaction: &mut u64,
    key_number: &mut u64,
) {
    let (volume, bucket, prefix, user) = VOLUMES[rng.below(VOLUMES.len() as u64) as usize];
    *key_number += 1;
    let key = format!(
        "{prefix}{:06}/part-{:05}.data",
        *key_number / 500,
        *key_number % 100_000
    );
    let ip = format!("10.20.{}.{}", 1 + rng.below(3), 10 + rng.below(40));
    let blocks = 1 + rng.below(3);
    let size = 1_000_000 + rng.below(256 * 1024 * 1024);
    let client_id = 116_000_000_000_000_000 + rng.below(1 << 40);
    let mut ts = now;
    let mut ops: Vec<(i64, String)> = Vec::new();
    *transaction += 1;
    ops.push((
        ts,
        format!(
            "user={user} | ip={ip} | op=ALLOCATE_KEY {{\"volume\":\"{volume}\",\"bucket\":\"{bucket}\",\"key\":\"{key}\",\"dataSize\":\"0\",\"replicationType\":\"RATIS\",\"replicationFactor\":\"THREE\",\"Transaction\":\"{transaction}\"}} | ret=SUCCESS"
        ),
    ));
    for _ in 1..blocks {
        ts += 200 + rng.below(3_000) as i64;
        *transaction += 1;
        ops.push((
            ts,
            format!(
                "user={user} | ip={ip} | op=ALLOCATE_BLOCK {{\"volume\":\"{volume}\",\"bucket\":\"{bucket}\",\"key\":\"{key}\",\"dataSize\":\"0\",\"replicationType\":\"RATIS\",\"replicationFactor\":\"THREE\",\"clientID\":\"{client_id}\",\"Transaction\":\"{transaction}\"}} | ret=SUCCESS"
            ),
        ));
    }
    ts += 200 + rng.below(3_000) as i64;
    *transaction += 1;
    ops.push((
        ts,
        format!(
            "user={user} | ip={ip} | op=COMMIT_KEY {{\"volume\":\"{volume}\",\"bucket\":\"{bucket}\",\"key\":\"{key}\",\"dataSize\":\"{size}\",\"replicationType\":\"RATIS\",\"replicationFactor\":\"THREE\",\"Transaction\":\"{transaction}\"}} | ret=SUCCESS"
        ),
    ));
    for (ts, message) in ops {
        for (_, _, audit) in oms {
            // Each OM applies the transaction a few milliseconds apart.
            let applied = ts + rng.below(25) as i64;
            sim.audit(applied, *audit, "OMAudit", &message);
        }
    }
}

/// A `ContainerLogger` line (datanode.md; dn-container log4j2 layout, as the samples).
fn container_log(sim: &mut Sim<'_>, ts: i64, dn: &Datanode, id: u64, bcsid: u64, state: &str) {
    let disk = 1 + id % 4;
    let line = format!(
        "{} | INFO  | ID={id} | Index=0 | BCSID={bcsid} | State={state} | Volume=/data/disk{disk}/hdds | DataChecksum=0 |  ",
        log4j_time(ts)
    );
    sim.at(ts, dn.container_log, line);
}

/// A full container closes: CLOSING and CLOSED on each replica, DN audit CLOSE_CONTAINER, and the
/// SCM leader's incremental-report CLOSE decision for the first CLOSED replica (scm.md 2.x).
fn close_container(
    sim: &mut Sim<'_>,
    rng: &mut Rng,
    now: i64,
    container: &OpenContainer,
    pipeline: &Pipeline,
    datanodes: &[Datanode],
    leader: &(String, usize),
) {
    let id = container.id;
    let bcsid = container.bcsid;
    let mut first_closed: Option<(i64, &Datanode)> = None;
    for &m in &pipeline.members {
        let dn = &datanodes[m];
        let closing = now + 500 + rng.below(500) as i64;
        container_log(sim, closing, dn, id, bcsid, "CLOSING");
        let closed = closing + 200 + rng.below(800) as i64;
        sim.audit(
            closed,
            dn.audit,
            "DNAudit",
            &format!("user=null | ip=null | op=CLOSE_CONTAINER {{\"containerID\":\"{id}\"}} | ret=SUCCESS"),
        );
        container_log(sim, closed + 1, dn, id, bcsid, "CLOSED");
        if first_closed.is_none_or(|(t, _)| closed < t) {
            first_closed = Some((closed, dn));
        }
    }
    if let Some((closed, dn)) = first_closed {
        let (scm, daemon) = leader;
        sim.daemon(
            closed + 30 + rng.below(200) as i64,
            *daemon,
            &format!("{scm}-FixedThreadPoolWithAffinityExecutor-0-0"),
            "org.apache.hadoop.hdds.scm.container.IncrementalContainerReportHandler",
            &format!(
                "CLOSE Container #{id} (CLOSING, sid={bcsid}) r0 (CLOSED, bcsid={bcsid}, origin={uuid}, non-empty) from dn {uuid}({host}.example.com/{ip})",
                uuid = dn.uuid,
                host = dn.host,
                ip = dn.ip
            ),
        );
    }
}

/// A Ratis snapshot of one pipeline on each member (ContainerStateMachine.takeSnapshot and
/// StateMachineUpdater, the samples' wording).
fn snapshot(
    sim: &mut Sim<'_>,
    rng: &mut Rng,
    now: i64,
    pipeline: &mut Pipeline,
    datanodes: &[Datanode],
) {
    let (term, index) = (pipeline.term, pipeline.index);
    for &m in &pipeline.members {
        let dn = &datanodes[m];
        let ts = now + rng.below(50) as i64;
        let thread = format!("{}@group-{}-StateMachineUpdater", dn.uuid, pipeline.group);
        let csm =
            "org.apache.hadoop.ozone.container.common.transport.server.ratis.ContainerStateMachine";
        sim.daemon(
            ts,
            dn.daemon,
            &thread,
            csm,
            &format!(
                "group-{}: Taking a snapshot at:(t:{term}, i:{index}) file /data/ratis/{}/sm/snapshot.{term}_{index}",
                pipeline.group, pipeline.uuid
            ),
        );
        let took = 3 + rng.below(10);
        sim.daemon(
            ts + took as i64,
            dn.daemon,
            &thread,
            csm,
            &format!(
                "group-{}: Finished taking a snapshot at:(t:{term}, i:{index}) file:/data/ratis/{}/sm/snapshot.{term}_{index} took: {took} ms",
                pipeline.group, pipeline.uuid
            ),
        );
        sim.daemon(
            ts + took as i64 + 1,
            dn.daemon,
            &thread,
            "org.apache.ratis.server.impl.StateMachineUpdater",
            &format!("{thread}: Took a snapshot at index {index}"),
        );
    }
}

/// The SCM leader's periodic summaries (ReplicationManager, SCMBlockDeletingService), untyped.
fn scm_summaries(
    sim: &mut Sim<'_>,
    rng: &mut Rng,
    now: i64,
    leader: &(String, usize),
    containers: usize,
) {
    let (scm, daemon) = leader;
    sim.daemon(
        now,
        *daemon,
        &format!("{scm}-ReplicationMonitor"),
        "org.apache.hadoop.hdds.scm.container.replication.ReplicationManager",
        &format!(
            "Replication Monitor Thread took {} milliseconds for processing {containers} containers.",
            5 + rng.below(150)
        ),
    );
    sim.daemon(
        now + 1_000 + rng.below(1_000) as i64,
        *daemon,
        &format!("{scm}-SCMBlockDeletingService#0"),
        "org.apache.hadoop.hdds.scm.block.SCMBlockDeletingService",
        &format!(
            "Totally added {} blocks to be deleted for 3 datanodes / {} totalnodes, limit per iteration : 500000blocks, task elapsed time: {}ms",
            rng.below(500),
            3 + rng.below(20),
            5 + rng.below(30)
        ),
    );
}

/// `2026-08-20 14:12:03,551` (UTC).
pub fn log4j_time(ms: i64) -> String {
    let (date, h, m, s, milli) = civil(ms);
    format!("{date} {h:02}:{m:02}:{s:02},{milli:03}")
}

/// `2026-08-20T14:12:03.551000000Z`, as `kubectl logs --timestamps` prints.
fn kubectl_stamp(ms: i64) -> String {
    let (date, h, m, s, milli) = civil(ms);
    format!("{date}T{h:02}:{m:02}:{s:02}.{milli:03}000000Z")
}

/// The UTC day of epoch milliseconds.
pub fn date_of(ms: i64) -> jiff::civil::Date {
    jiff::civil::Date::constant(1970, 1, 1)
        .checked_add(jiff::Span::new().days(ms.div_euclid(86_400_000)))
        .unwrap_or(jiff::civil::Date::constant(1970, 1, 1))
}

fn civil(ms: i64) -> (String, i64, i64, i64, i64) {
    thread_local! {
        /// The last day formatted: lines come in time order, so this almost always hits.
        static DAY: std::cell::RefCell<(i64, String)> = const { std::cell::RefCell::new((i64::MIN, String::new())) };
    }
    let days = ms.div_euclid(86_400_000);
    let of_day = ms.rem_euclid(86_400_000);
    let date = DAY.with_borrow_mut(|(day, text)| {
        if *day != days {
            *day = days;
            *text = date_of(ms).to_string();
        }
        text.clone()
    });
    (
        date,
        of_day / 3_600_000,
        of_day / 60_000 % 60,
        of_day / 1_000 % 60,
        of_day % 1_000,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_log4j_and_kubectl_stamps() {
        // 2026-08-20T14:12:03.551Z
        let ms = 1_787_235_123_551;
        assert_eq!(log4j_time(ms), "2026-08-20 14:12:03,551");
        assert_eq!(kubectl_stamp(ms), "2026-08-20T14:12:03.551000000Z");
    }
}
