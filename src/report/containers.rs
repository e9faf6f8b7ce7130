//! The container views `ozone debug log container` has, read from the analyzer's replica index:
//! `oztrace containers` (its `list`: one line per container with state, replicas expected and
//! seen, health and last change) and the `info` table `oztrace replay --entity container:N`
//! starts with (each replica's history with BCSID, time, index and message).

use crate::when::DisplayZone;
use oztrace_analyzer::Analysis;
use oztrace_analyzer::replicas::{ContainerRecord, HealthConfig, HealthKind, ReplicaState, Seen};
use oztrace_parser::catalog::EventData;
use oztrace_parser::catalog::datanode::DatanodeEvent;
use oztrace_parser::time::format_rfc3339;
use serde::Serialize;
use std::fmt::Write;

/// One line of `oztrace containers`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContainerRow {
    pub container: u64,
    /// `RATIS/THREE`, `EC{rs-6-3-1024k}`; `None` when neither SCM nor the settings say.
    pub replication: Option<String>,
    /// Where the replication comes from: `scm` (a line printed it) or `settings`.
    pub replication_from: Option<&'static str>,
    /// The state most replicas are in.
    pub state: String,
    pub expected: Option<u32>,
    /// Replicas the logs show, whatever their state (DELETED ones left out).
    pub seen: u32,
    /// Of those, the ones holding the data (OPEN, CLOSING, QUASI_CLOSED, CLOSED).
    pub healthy: u32,
    /// `ozone debug log container`'s names of its conditions (`UNDER_REPLICATED`, `OPEN-UNHEALTHY`, …).
    pub health: Vec<&'static str>,
    /// The health rules that flag it.
    pub rules: Vec<&'static str>,
    /// Each replica's latest state (what `list --lifecycle` shows), by datanode and index.
    pub replicas: Vec<ReplicaRow>,
    /// The latest replica state change: its time (RFC 3339) and datanode.
    pub last_change: Option<String>,
    #[serde(skip)]
    pub last_ms: Option<i64>,
    pub last_host: Option<String>,
}

/// One replica's latest state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReplicaRow {
    pub datanode: String,
    pub index: u32,
    pub state: &'static str,
    pub bcsid: Option<u64>,
}

/// Which containers `oztrace containers` lists.
pub struct Filter<'a> {
    /// Those with one of these conditions (none: any).
    pub health: &'a [HealthKind],
    /// Those with a replica whose latest state is one of these (none: any).
    pub states: &'a [ReplicaState],
    /// At most this many (0: all).
    pub limit: usize,
}

/// The containers of the trace that pass `filter`, by id, and how many matched.
pub fn rows(
    analysis: &Analysis,
    config: &HealthConfig,
    filter: &Filter<'_>,
) -> (Vec<ContainerRow>, usize) {
    let Filter {
        health,
        states,
        limit,
    } = *filter;
    let trace = &analysis.trace;
    let index = trace.replicas();
    let mut out = Vec::new();
    let mut matched = 0;
    for (id, record) in index.containers() {
        if record.replicas.is_empty()
            || !states.is_empty()
                && !record
                    .replicas
                    .iter()
                    .any(|r| states.contains(&r.latest().state))
        {
            continue;
        }
        let verdicts = index.health(trace, id, config);
        if !health.is_empty() && !verdicts.iter().any(|v| health.contains(&v.kind)) {
            continue;
        }
        matched += 1;
        if limit > 0 && out.len() >= limit {
            continue;
        }
        let replication = record.replication(config);
        let last = record.last_change(trace);
        let seen = record
            .replicas
            .iter()
            .filter(|r| r.latest().state.as_str() != "DELETED")
            .count() as u32;
        out.push(ContainerRow {
            container: id,
            replication: replication.map(|r| r.to_string()),
            replication_from: replication.map(|_| {
                if record.replication.is_some() {
                    "scm"
                } else {
                    "settings"
                }
            }),
            state: record.state(),
            expected: replication.map(|r| r.expected()),
            seen,
            healthy: record.healthy().count() as u32,
            health: verdicts.iter().map(|v| v.label).collect(),
            replicas: record
                .replicas
                .iter()
                .map(|r| ReplicaRow {
                    datanode: r.host.to_string(),
                    index: r.index,
                    state: r.latest().state.as_str(),
                    bcsid: r.latest().bcsid,
                })
                .collect(),
            rules: verdicts.iter().map(|v| v.kind.rule()).collect(),
            last_change: last.map(|(ts, _)| format_rfc3339(ts)),
            last_ms: last.map(|(ts, _)| ts),
            last_host: last.map(|(_, id)| {
                record
                    .replicas
                    .iter()
                    .find(|r| r.latest().event == id)
                    .map_or_else(String::new, |r| r.host.to_string())
            }),
        });
    }
    (out, matched)
}

/// The `containers` table for people.
pub fn text(rows: &[ContainerRow], matched: usize, zone: &DisplayZone) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<10} {:<18} {:<13} {:>8} {:>6} {:>7}  {:<30} LAST CHANGE",
        "CONTAINER", "REPLICATION", "STATE", "EXPECTED", "SEEN", "HEALTHY", "HEALTH"
    );
    for row in rows {
        let last = match (row.last_ms, &row.last_host) {
            (Some(ms), Some(host)) => format!("{} {host}", zone.format(ms)),
            _ => "-".into(),
        };
        let _ = writeln!(
            out,
            "{:<10} {:<18} {:<13} {:>8} {:>6} {:>7}  {:<30} {last}",
            row.container,
            row.replication.as_deref().unwrap_or("?"),
            row.state,
            row.expected.map_or("?".into(), |e| e.to_string()),
            row.seen,
            row.healthy,
            if row.health.is_empty() {
                "HEALTHY".to_string()
            } else {
                row.health.join(",")
            },
        );
    }
    let _ = writeln!(
        out,
        "{} container{} listed{}",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" },
        if matched > rows.len() {
            format!(" of {matched} (--limit 0 lists all)")
        } else {
            String::new()
        }
    );
    out
}

/// The `oztrace.containers/v1` document.
#[derive(Debug, Serialize)]
pub struct ContainersDoc<'a> {
    pub schema: &'static str,
    pub matched: usize,
    pub containers: &'a [ContainerRow],
}

pub fn json(rows: &[ContainerRow], matched: usize) -> Result<String, serde_json::Error> {
    let doc = ContainersDoc {
        schema: "oztrace.containers/v1",
        matched,
        containers: rows,
    };
    Ok(serde_json::to_string_pretty(&doc)? + "\n")
}

pub fn csv(rows: &[ContainerRow]) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "container",
        "replication",
        "state",
        "expected",
        "seen",
        "healthy",
        "health",
        "rules",
        "last_change",
        "last_host",
    ])?;
    for row in rows {
        w.write_record([
            row.container.to_string(),
            row.replication.clone().unwrap_or_default(),
            row.state.clone(),
            row.expected.map(|e| e.to_string()).unwrap_or_default(),
            row.seen.to_string(),
            row.healthy.to_string(),
            row.health.join(";"),
            row.rules.join(";"),
            row.last_change.clone().unwrap_or_default(),
            row.last_host.clone().unwrap_or_default(),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The `info` view of one container: a verdict line, then per replica (datanode and index) each
/// state it was seen in, with time, BCSID, where it was printed and the message.
pub fn info(
    analysis: &Analysis,
    container: u64,
    config: &HealthConfig,
    zone: &DisplayZone,
) -> String {
    let trace = &analysis.trace;
    let index = trace.replicas();
    let Some(record) = index.get(container).filter(|r| !r.replicas.is_empty()) else {
        return String::new();
    };
    let mut out = String::new();
    let verdicts = index.health(trace, container, config);
    let _ = writeln!(
        out,
        "replicas of container {container} ({})",
        summary(record, config)
    );
    let _ = writeln!(
        out,
        "health: {}",
        if verdicts.is_empty() {
            "no condition found".to_string()
        } else {
            verdicts
                .iter()
                .map(|v| format!("{} ({})", v.label, v.kind.rule()))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    for v in &verdicts {
        let _ = writeln!(out, "  {}: {}", v.label, v.summary);
    }
    let _ = writeln!(
        out,
        "{:<10} {:>5}  {:<24} {:<13} {:>7}  {:<14} MESSAGE",
        "DATANODE", "INDEX", "TIME", "STATE", "BCSID", "SEEN IN"
    );
    let mut replicas: Vec<_> = record.replicas.iter().collect();
    replicas.sort_by(|a, b| (&a.host, a.index).cmp(&(&b.host, b.index)));
    for r in replicas {
        for step in &r.steps {
            let event = trace.get(step.event);
            let (seen, message) = match &step.seen {
                Seen::Datanode => {
                    let message = match &event.data {
                        EventData::Datanode(DatanodeEvent::DnContainerState {
                            message, ..
                        }) => message.clone().unwrap_or_default(),
                        _ => String::new(),
                    };
                    ("dn-container".to_string(), message)
                }
                Seen::Scm => (
                    format!("{} report", trace.host_name(trace.host_of(step.event))),
                    event.kind().to_string(),
                ),
            };
            let _ = writeln!(
                out,
                "{:<10} {:>5}  {:<24} {:<13} {:>7}  {:<14} {}",
                r.host,
                r.index,
                zone.format_or_dash(step.ts(trace)),
                step.state,
                step.bcsid.map_or("-".into(), |b| b.to_string()),
                seen,
                message
            );
        }
    }
    out.push('\n');
    out
}

/// `RATIS/THREE, 3 expected, 3 seen, 2 healthy`.
fn summary(record: &ContainerRecord, config: &HealthConfig) -> String {
    let replication = record.replication(config);
    let seen = record
        .replicas
        .iter()
        .filter(|r| r.latest().state.as_str() != "DELETED")
        .count();
    format!(
        "{}, {} expected{}, {seen} seen, {} healthy",
        replication.map_or("replication unknown".into(), |r| r.to_string()),
        replication.map_or("?".into(), |r| r.expected().to_string()),
        match (replication, record.replication) {
            (Some(_), Some(_)) => " as SCM printed it",
            (Some(_), None) => " from the settings",
            _ => "",
        },
        record.healthy().count()
    )
}
