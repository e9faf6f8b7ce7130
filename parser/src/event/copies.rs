//! OM audit copies folded in one batch (`events --format csv|parquet`): every OM writes the audit
//! line of every request it applies (om.md 1.3), and the contract folds the copies into one event
//! whose `copies` lists them all.

use super::{Copy, Event};
use crate::catalog::EventData;
use crate::catalog::om::OmEvent;
use crate::source::Component;
use std::collections::HashMap;

/// What makes two OM audit records copies of one request.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum CopyKey {
    /// 2.0.0+: (`Transaction`, op, key entity or params, ret).
    Transaction(u64, String, String, String),
    /// 1.4 (no `Transaction`): op, params and ret as printed; copies must be within the skew.
    Printed(String),
}

fn copy_key(event: &Event) -> Option<CopyKey> {
    if event.component != Component::OmAudit {
        return None;
    }
    let EventData::Om(om) = &event.data else {
        return None;
    };
    let (op, transaction, target, ret) = match om {
        OmEvent::AuditCreate(a)
        | OmEvent::AuditAllocateBlock(a)
        | OmEvent::AuditCommitKey(a)
        | OmEvent::AuditRecoverLease(a) => (
            a.op.as_str(),
            a.transaction,
            a.entity().to_string(),
            a.ret.as_str(),
        ),
        OmEvent::Audit(a) => (
            a.op.as_str(),
            a.transaction,
            serde_json::to_string(&a.params).unwrap_or_default(),
            a.ret.as_str(),
        ),
        _ => return None,
    };
    Some(match transaction {
        Some(tx) => CopyKey::Transaction(tx, op.to_string(), target, ret.to_string()),
        // The message text holds user, ip, op, params and ret exactly as printed.
        None => CopyKey::Printed(event.text.to_string()),
    })
}

/// Folds the copies of one OM audit record written by several OMs into one event: the earliest
/// copy (by time, then host, file, line) stays, with `copies` listing every copy; the others
/// are removed from their streams. Records with a `Transaction` merge on (`Transaction`, op, key,
/// ret); records without one only when op, params and ret are equal, on different hosts, within
/// `skew_ms` of the first. Only OM audit events are indexed.
pub fn merge_audit_copies(streams: &mut [Vec<Event>], skew_ms: i64) {
    let mut groups: HashMap<CopyKey, Vec<(usize, usize)>> = HashMap::new();
    for (s, events) in streams.iter().enumerate() {
        for (i, event) in events.iter().enumerate() {
            if let Some(key) = copy_key(event) {
                groups.entry(key).or_default().push((s, i));
            }
        }
    }
    let mut removed: Vec<Vec<usize>> = vec![Vec::new(); streams.len()];
    for (key, mut members) in groups {
        if members.len() < 2 {
            continue;
        }
        let order = |&(s, i): &(usize, usize)| {
            let e: &Event = &streams[s][i];
            (
                e.ts.unwrap_or(i64::MAX),
                e.host.clone(),
                e.file.clone(),
                e.line,
            )
        };
        members.sort_by_key(order);
        let clusters: Vec<Vec<(usize, usize)>> = match key {
            CopyKey::Transaction(..) => vec![members],
            CopyKey::Printed(_) => cluster_within_skew(streams, members, skew_ms),
        };
        for cluster in clusters {
            if cluster.len() < 2 {
                continue;
            }
            let mut copies: Vec<Copy> = cluster
                .iter()
                .map(|&(s, i)| {
                    let e = &streams[s][i];
                    Copy {
                        host: e.host.clone(),
                        file: e.file.clone(),
                        line: e.line,
                    }
                })
                .collect();
            copies.sort();
            copies.dedup();
            let (ks, ki) = cluster[0];
            streams[ks][ki].copies = copies.into();
            for &(s, i) in &cluster[1..] {
                removed[s].push(i);
            }
        }
    }
    for (events, mut gone) in streams.iter_mut().zip(removed) {
        if gone.is_empty() {
            continue;
        }
        gone.sort_unstable();
        let mut index = 0;
        let mut next = gone.iter().peekable();
        events.retain(|_| {
            let drop = next.peek() == Some(&&index);
            if drop {
                next.next();
            }
            index += 1;
            !drop
        });
    }
}

/// Splits time-ordered identical records into copies: one per host, all within `skew_ms` of the
/// cluster's first record.
fn cluster_within_skew(
    streams: &[Vec<Event>],
    members: Vec<(usize, usize)>,
    skew_ms: i64,
) -> Vec<Vec<(usize, usize)>> {
    let mut clusters: Vec<Vec<(usize, usize)>> = Vec::new();
    for member in members {
        let e = &streams[member.0][member.1];
        let fits = clusters.last().is_some_and(|cluster| {
            let first = &streams[cluster[0].0][cluster[0].1];
            let close = match (first.ts, e.ts) {
                (Some(a), Some(b)) => (b - a).abs() <= skew_ms,
                _ => false,
            };
            close && cluster.iter().all(|&(s, i)| streams[s][i].host != e.host)
        });
        match clusters.last_mut() {
            Some(cluster) if fits => cluster.push(member),
            _ => clusters.push(vec![member]),
        }
    }
    clusters
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::classify;
    use crate::record::{ReadOptions, read_records};

    const JSON_AUTO_COMMIT: &str = r#"2025-11-10 23:17:41,906 | INFO  | OMAudit | user= | ip= | op=COMMIT_KEY {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","dataSize":"1184","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"5771020"} | ret=SUCCESS |  "#;

    fn audit_event(host: &str, line: u64, ts: i64, text: &str) -> Event {
        let mut records = Vec::new();
        let (_, error) = read_records(&mut text.as_bytes(), &ReadOptions::default(), &mut |r| {
            records.push(r)
        });
        assert!(error.is_none(), "{text}");
        let r = &records[0];
        let t = classify(r, Component::OmAudit).expect("typed");
        Event {
            ts: Some(ts),
            host: host.into(),
            component: Component::OmAudit,
            level: r.level,
            thread: None,
            logger: r.logger.as_deref().map(Into::into),
            entities: t.entities.into(),
            data: t.data,
            file: format!("{host}/om-audit-{host}.log").into(),
            line,
            continuation_lines: 0,
            text: r.message.as_str().into(),
            copies: Box::default(),
        }
    }

    #[test]
    fn audit_copies_merge_by_transaction_and_by_skew_without_one() {
        let no_tx = "2024-01-01 00:00:00,000 | INFO  | OMAudit | user=u | ip=1.2.3.4 | op=COMMIT_KEY {volume=v, bucket=b, key=k, dataSize=1} | ret=SUCCESS |  ";
        let mut streams = vec![
            vec![
                audit_event("om1", 5, 1_000, JSON_AUTO_COMMIT),
                audit_event("om1", 6, 10_000, no_tx),
                audit_event("om1", 7, 20_000, no_tx),
            ],
            vec![
                audit_event("om2", 3, 1_083, JSON_AUTO_COMMIT),
                audit_event("om2", 4, 10_500, no_tx),
            ],
            vec![
                audit_event("om3", 9, 953, JSON_AUTO_COMMIT),
                audit_event("om3", 10, 15_000, no_tx),
            ],
        ];
        merge_audit_copies(&mut streams, 2_000);
        // The transaction's earliest copy is om3's (953 ms); om1 and om2 lose theirs.
        assert_eq!(
            streams[2][0]
                .copies
                .iter()
                .map(|c| &*c.host)
                .collect::<Vec<_>>(),
            ["om1", "om2", "om3"]
        );
        assert_eq!(streams[2][0].copies[0].line, 5);
        // Without Transaction: om1@10s and om2@10.5s merge; om3@15s and om1@20s stay apart.
        assert_eq!(streams[0].len(), 2);
        assert_eq!(streams[0][0].line, 6);
        assert_eq!(streams[0][0].copies.len(), 2);
        assert!(streams[0][1].copies.is_empty());
        assert!(streams[1].is_empty());
        assert_eq!(streams[2].len(), 2);
        assert!(streams[2][1].copies.is_empty());
    }
}
