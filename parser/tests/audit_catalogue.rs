//! Every complete example audit line in the catalogues (/work/shared/ozone-logs: scm.md §1.2,
//! datanode.md §1.2 and §3.A, om.md §1.5, §2.10 and §3), read through `parse_audit_prefix` the way
//! the log4j2 layout `%d | %-5level | %c{1} | %msg | %throwable{3} %n` lays them out, plus the
//! ≤ 2.0.0 `Map.toString` rendering of the same params.

use oztrace_parser::audit::{
    AuditBody, AuditRet, ParamSyntax, Params, parse_audit_body, parse_audit_prefix, parse_params,
};

/// Splits an audit line as the layout printed it: time, level, logger, then the message followed
/// by ` | <throwable>` (the throwable is empty on success). Returns the level, logger, parsed body
/// and the first throwable line.
fn read_line(line: &str) -> (&str, &str, AuditBody, ParamSyntax, &str) {
    let mut fields = line.splitn(4, " | ");
    let _time = fields.next().unwrap();
    let level = fields.next().unwrap().trim_end();
    let logger = fields.next().unwrap();
    let rest = fields.next().unwrap();
    let (body, syntax, end) = parse_audit_prefix(rest).unwrap_or_else(|e| panic!("{line}\n{e}"));
    let tail = &rest[end..];
    let throwable = tail
        .strip_prefix(" |")
        .unwrap_or_else(|| panic!("no ` |` after the message: {tail:?}"))
        .trim();
    // The strict parser accepts exactly the message.
    assert_eq!(parse_audit_body(&rest[..end]).unwrap().0, body);
    (level, logger, body, syntax, throwable)
}

fn pairs(params: &Params) -> Vec<(&str, &str)> {
    params.iter().collect()
}

/// `AbstractMap.toString()` of the same entries: what 2.0.0 and earlier print.
fn as_java_map(params: &Params) -> String {
    let entries: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{{{}}}", entries.join(", "))
}

const SCM_LINES: &[&str] = &[
    r#"2026-08-20 14:02:10,331 | INFO  | SCMAudit | user=hadoop | ip=10.0.0.21 | op=DECOMMISSION_NODES {"nodes":"[dn3.example.com]","force":"false"} | ret=SUCCESS |  "#,
    r#"2026-08-20 15:40:02,019 | INFO  | SCMAudit | user=hadoop | ip=10.0.0.21 | op=DECOMMISSION_NODES {"nodes":"[dn3.example.com]"} | ret=SUCCESS |  "#,
    r#"2026-08-20 16:00:00,004 | INFO  | SCMAudit | user=hadoop | ip=10.0.0.21 | op=START_MAINTENANCE_NODES {"endInHours":"4","nodes":"[dn4.example.com]","force":"false"} | ret=SUCCESS |  "#,
    r#"2026-08-20 14:07:41,118 | INFO  | SCMAudit | user=hadoop | ip=10.0.1.13 | op=SEND_HEARTBEAT {"datanodeUUID":"4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27","term":"5","command":"[commandType: setNodeOperationalStateCommand setNodeOperationalStateCommandProto { cmdId: 117359301 nodeOperationalState: IN_SERVICE stateExpiryEpochSeconds: 0 } term: 5 encodedToken: \"\" deadlineMsSinceEpoch: 0]"} | ret=SUCCESS |  "#,
    r#"2026-08-20 14:07:41,120 | INFO  | SCMAudit | user=hadoop | ip=10.0.1.13 | op=SEND_HEARTBEAT {"datanodeUUID":"4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27","command":"[]"} | ret=SUCCESS |  "#,
];

const DN_LINES: &[&str] = &[
    r#"2026-03-04 10:12:03,878 | ERROR | DNAudit | user=null | ip=null | op=WRITE_CHUNK {"blockData":"conID: 1042 locID: 113750153625600017 bcsId: 0 replicaIndex: null","offset":"12582912","size":"4194304","stage":"WRITE_DATA"} | ret=FAILURE | java.lang.Exception: Chunk offset 12582912 does not match length 8388608 of blockFile 113750153625600017.block"#,
    r#"2026-03-04 11:02:17,552 | ERROR | DNAudit | user=null | ip=null | op=READ_CHUNK {"blockData":"conID: 1042 locID: 113750153625600017 bcsId: 18360 replicaIndex: null","offset":"12582912","size":"4194304"} | ret=FAILURE | java.lang.Exception: Unexpected read size. expected: 4194304, actual: -1"#,
    r#"2025-11-11 03:12:44,901 | INFO  | DNAudit | user=null | ip=null | op=PUT_BLOCK {"blockData":"[blockId=conID: 4021 locID: 115816896921600001 bcsId: 90190 replicaIndex: null, size=45219840]"} | ret=null | perf={preOpLatencyMs=0, opLatencyMs=731} |  "#,
    r#"2025-11-10 23:02:13,551 | INFO  | DNAudit | user=null | ip=null | op=PUT_BLOCK {"blockData":"[blockId=conID: 4021 locID: 115816896921600001 bcsId: 90188 replicaIndex: null, size=45190211]"} | ret=null | perf={preOpLatencyMs=0, opLatencyMs=612} | "#,
];

const OM_LINES: &[&str] = &[
    r#"2025-11-03 10:00:00,117 | INFO  | OMAudit | user=hbase | ip=10.20.0.11 | op=CREATE_FILE {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","dataSize":"0","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"5001230"} | ret=SUCCESS |  "#,
    r#"2025-11-03 10:41:12,118 | INFO  | OMAudit | user=hbase | ip=10.20.0.11 | op=ALLOCATE_BLOCK {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","dataSize":"268431871","replicationType":"RATIS","replicationFactor":"THREE","clientID":"115485179904000017","Transaction":"5002871"} | ret=SUCCESS |  "#,
    r#"2025-11-03 11:02:40,331 | INFO  | OMAudit | user=hbase | ip=10.20.0.11 | op=COMMIT_KEY {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","dataSize":"300118016","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"5003519"} | ret=SUCCESS |  "#,
    r#"2025-11-04 08:00:05,003 | INFO  | OMAudit | user=hbase | ip=10.20.0.12 | op=RECOVER_LEASE {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","Transaction":"5123456"} | ret=SUCCESS |  "#,
    r#"2025-11-04 08:00:05,611 | INFO  | OMAudit | user=hbase | ip=10.20.0.12 | op=COMMIT_KEY {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","dataSize":"45219840","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"5123461"} | ret=SUCCESS |  "#,
    r#"2025-11-04 08:00:05,003 | ERROR | OMAudit | user=hbase | ip=10.20.0.12 | op=RECOVER_LEASE {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","Transaction":"5123456"} | ret=FAILURE | KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD org.apache.hadoop.ozone.om.exceptions.OMException: Open Key WALs/rs1/rs1.1762164000000 updated recently and is inside soft limit period"#,
    r#"2025-11-10 23:17:41,906 | INFO  | OMAudit | user= | ip= | op=COMMIT_KEY {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","dataSize":"1184","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"5771020"} | ret=SUCCESS |  "#,
    r#"2025-11-10 23:17:41,890 | INFO  | OMSystemAudit | user=null | ip= | op=OPEN_KEY_CLEANUP {"numOpenKeysDeleted":"1","openKeysDeleted":"[{volume=vol1, bucket=b1, key=tmp/part-0000}]"} | ret=SUCCESS |  "#,
    r#"2025-11-09 02:11:09,774 | INFO  | OMSystemAudit | user=null | ip= | op=LEADER_CHANGE {"previousLeader":"om1","newLeader":"om2"} | ret=SUCCESS |  "#,
    r#"2025-11-12 14:03:10,552 | ERROR | OMAudit | user=hbase | ip=10.20.0.11 | op=COMMIT_KEY {"volume":"hbase","bucket":"wal","key":"WALs/rs1/rs1.1762164000000","dataSize":"87311540","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"5893377"} | ret=FAILURE | KEY_NOT_FOUND org.apache.hadoop.ozone.om.exceptions.OMException: Failed to commit key, as /-9223372036854567936/-9223372036854511360/-9223372035710148352/rs1.1762164000000/115485179904000017 entry is not found in the OpenKey table"#,
    r#"2025-11-03 09:00:00,221 | INFO  | OMAudit | user=hbase | ip=10.20.0.13 | op=CREATE_FILE {"volume":"hbase","bucket":"wal","key":"WALs/rs3/rs3.1762160400000","dataSize":"0","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"4998002"} | ret=SUCCESS |  "#,
    r#"2025-11-03 12:31:40,010 | INFO  | OMAudit | user=hbase | ip=10.20.0.13 | op=ALLOCATE_BLOCK {"volume":"hbase","bucket":"wal","key":"WALs/rs3/rs3.1762160400000","dataSize":"268435000","replicationType":"RATIS","replicationFactor":"THREE","clientID":"115484943974400003","Transaction":"5011190"} | ret=SUCCESS |  "#,
    r#"2025-11-10 23:17:41,803 | INFO  | OMAudit | user= | ip= | op=COMMIT_KEY {"volume":"hbase","bucket":"wal","key":"WALs/rs3/rs3.1762160400000","dataSize":"268439113","replicationType":"RATIS","replicationFactor":"THREE","Transaction":"5771017"} | ret=SUCCESS |  "#,
    r#"2025-11-11 02:00:03,114 | ERROR | OMAudit | user=hbase | ip=10.20.0.12 | op=RECOVER_LEASE {"volume":"hbase","bucket":"wal","key":"WALs/rs3/rs3.1762160400000","Transaction":"5780001"} | ret=FAILURE | KEY_ALREADY_CLOSED org.apache.hadoop.ozone.om.exceptions.OMException: Key: WALs/rs3/rs3.1762160400000 is already closed"#,
];

#[test]
fn every_catalogue_line_parses_and_both_syntaxes_agree() {
    for line in SCM_LINES.iter().chain(DN_LINES).chain(OM_LINES) {
        let (level, logger, body, syntax, throwable) = read_line(line);
        assert_eq!(syntax, ParamSyntax::Json, "{line}");
        assert!(!body.params.is_empty(), "{line}");
        // Failures carry the throwable, and only they do.
        assert_eq!(body.ret == AuditRet::Failure, level == "ERROR", "{line}");
        assert_eq!(
            body.ret == AuditRet::Failure,
            !throwable.is_empty(),
            "{line}"
        );
        assert!(
            ["SCMAudit", "DNAudit", "OMAudit", "OMSystemAudit"].contains(&logger),
            "{line}"
        );

        // 2.0.0 printed the same map with Map.toString: values with `, `, `=`, `{}` and `[]`
        // must come back entry for entry.
        let old = as_java_map(&body.params);
        let (map, map_syntax) = parse_params(&old).unwrap_or_else(|e| panic!("{old}\n{e}"));
        assert_eq!(map_syntax, ParamSyntax::JavaMap, "{old}");
        assert_eq!(map, body.params, "{old}");
    }
}

#[test]
fn scm_heartbeat_keeps_order_and_unescapes_the_command() {
    let (_, _, body, _, _) = read_line(SCM_LINES[3]);
    assert_eq!(
        (body.user.as_str(), body.ip.as_str()),
        ("hadoop", "10.0.1.13")
    );
    assert_eq!(body.op, "SEND_HEARTBEAT");
    let keys: Vec<&str> = body.params.iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["datanodeUUID", "term", "command"]);
    assert_eq!(
        body.params.get("command"),
        Some(
            "[commandType: setNodeOperationalStateCommand setNodeOperationalStateCommandProto { cmdId: 117359301 \
             nodeOperationalState: IN_SERVICE stateExpiryEpochSeconds: 0 } term: 5 encodedToken: \"\" deadlineMsSinceEpoch: 0]"
        )
    );
    // The follower's heartbeat has no term: how a recommission differs from a decommission too.
    let (_, _, follower, _, _) = read_line(SCM_LINES[4]);
    assert_eq!(follower.params.get("term"), None);
    let (_, _, recommission, _, _) = read_line(SCM_LINES[1]);
    assert_eq!(recommission.params.get("force"), None);
}

#[test]
fn dn_performance_records_print_ret_null_and_perf() {
    for line in &DN_LINES[2..] {
        let (level, _, body, _, throwable) = read_line(line);
        assert_eq!((level, throwable), ("INFO", ""));
        assert_eq!(body.ret, AuditRet::Null);
        assert_eq!((body.user.as_str(), body.ip.as_str()), ("null", "null"));
        let perf = body.perf.expect("perf map");
        assert_eq!(pairs(&perf)[0], ("preOpLatencyMs", "0"));
        assert_eq!(perf.get("opLatencyMs").map(str::len), Some(3));
    }
    let (_, _, failure, _, throwable) = read_line(DN_LINES[0]);
    assert_eq!(failure.perf, None);
    assert!(throwable.starts_with("java.lang.Exception: Chunk offset 12582912"));
    assert_eq!(
        pairs(&failure.params),
        [
            (
                "blockData",
                "conID: 1042 locID: 113750153625600017 bcsId: 0 replicaIndex: null"
            ),
            ("offset", "12582912"),
            ("size", "4194304"),
            ("stage", "WRITE_DATA"),
        ]
    );
}

#[test]
fn om_auto_commit_has_empty_user_and_ip() {
    let (_, _, auto, _, _) = read_line(OM_LINES[6]);
    assert_eq!((auto.user.as_str(), auto.ip.as_str()), ("", ""));
    assert_eq!(auto.params.get("dataSize"), Some("1184"));
    assert_eq!(auto.params.get("Transaction"), Some("5771020"));

    // The same record written by 2.0.0 (om.md §1.5).
    let old = "user= | ip= | op=COMMIT_KEY {volume=hbase, bucket=wal, key=WALs/rs1/rs1.1762164000000, \
               dataSize=1184, replicationType=RATIS, replicationFactor=THREE, Transaction=5771020} | ret=SUCCESS";
    let (old_body, syntax) = parse_audit_body(old).unwrap();
    assert_eq!(syntax, ParamSyntax::JavaMap);
    assert_eq!(old_body, auto);
}

#[test]
fn system_audit_value_holding_a_java_list_stays_one_value() {
    let (_, _, body, _, _) = read_line(OM_LINES[7]);
    assert_eq!(
        pairs(&body.params),
        [
            ("numOpenKeysDeleted", "1"),
            (
                "openKeysDeleted",
                "[{volume=vol1, bucket=b1, key=tmp/part-0000}]"
            ),
        ]
    );
}

#[test]
fn old_releases_nested_maps_null_params_and_kerberos_users() {
    // OMKeysDeleteRequest ≤ 2.0.0: deletedKeysList holds `{…}, {…}`.
    let msg = "user=hbase/rs1.example.com@EXAMPLE.COM | ip=172.xx.x.151 | op=DELETE_KEYS {volume=hbase, bucket=wal, \
               deletedKeysList={key=a, dataSize=1, replicationConfig=RATIS/THREE}, {key=b, dataSize=2, replicationConfig=RATIS/THREE}, \
               unDeletedKeysList=, deletedKeySourceType=, Transaction=77} | ret=SUCCESS";
    let (body, syntax) = parse_audit_body(msg).unwrap();
    assert_eq!(syntax, ParamSyntax::JavaMap);
    assert_eq!(body.user, "hbase/rs1.example.com@EXAMPLE.COM");
    assert_eq!(body.ip, "172.xx.x.151");
    assert_eq!(
        pairs(&body.params),
        [
            ("volume", "hbase"),
            ("bucket", "wal"),
            (
                "deletedKeysList",
                "{key=a, dataSize=1, replicationConfig=RATIS/THREE}, {key=b, dataSize=2, replicationConfig=RATIS/THREE}"
            ),
            ("unDeletedKeysList", ""),
            ("deletedKeySourceType", ""),
            ("Transaction", "77"),
        ]
    );

    // SCMDatanodeProtocolServer GET_VERSION passes a null map: ≤ 2.0.0 prints `null`, later `{}`.
    let (old, old_syntax) =
        parse_audit_body("user=dn | ip=... | op=GET_VERSION null | ret=SUCCESS").unwrap();
    let (new, new_syntax) =
        parse_audit_body("user=dn | ip=... | op=GET_VERSION {} | ret=SUCCESS").unwrap();
    assert_eq!(
        (old_syntax, new_syntax),
        (ParamSyntax::Null, ParamSyntax::Empty)
    );
    assert_eq!(old, new);
    assert!(new.params.is_empty());
    assert_eq!(new.ip, "...");
}

#[test]
fn elided_catalogue_shorthand_is_an_error_not_a_panic() {
    // om.md §3.7 B abbreviates params with `…`; that is not what Ozone prints.
    let msg = r#"user=hbase | ip=10.20.0.11 | op=ALLOCATE_BLOCK {…,"dataSize":"268434112",…,"clientID":"115490370355200005","Transaction":"5290011"} | ret=SUCCESS"#;
    let err = parse_audit_body(msg).unwrap_err();
    assert!(err.column > 40, "{err}");
}
