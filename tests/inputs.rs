//! Every input shape of the README's table through the binary: `stats` names the shape and gives
//! each file its component and host; the events carry the host and component of their own record.
//! The lines are written for these tests from the Ozone source (format strings, thread names,
//! layouts) and the tools' documented output formats (../shared/ozone-logs/shippers.md).

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn oztrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oztrace"))
        .args(args)
        .output()
        .expect("oztrace runs")
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const DN0: &str = "4f6a2c1e-8b3d-4e2a-9c71-0d5e8f3a1b27";
const DN1: &str = "b2c7e9d4-1f6a-4c3b-8e52-7a9d0c4f6e13";

/// EndpointStateMachine.java:242 in Ozone's k8s layout `%d{yyyy-MM-dd HH:mm:ss} %-5p %c{1}:%L - %m%n`.
const K8S_WARN: &str = "2027-06-12 10:38:25 WARN  EndpointStateMachine:242 - Unable to communicate to SCM server at scm-0.scm.default.svc.cluster.local:9861 past 60 seconds.";
/// ReplicationManager.java:385 in the same layout.
const K8S_RM: &str = "2027-06-12 10:38:22 INFO  ReplicationManager:385 - Replication Monitor Thread took 12 milliseconds for processing 840 containers.";

fn shapes(dir: &Path) {
    // `kubectl logs --all-pods --prefix --timestamps` (shippers.md 8.1).
    write(
        &dir.join("kubectl-all.txt"),
        &format!(
            "[pod/scm-1/scm] 2027-06-12T10:38:22.336912455Z {K8S_RM}\n[pod/datanode-2/datanode] 2027-06-12T10:38:25.118734012Z {K8S_WARN}\n[pod/datanode-2/datanode] 2027-06-12T10:38:25.118801331Z \tat org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:863)\n[pod/scm-1/scm] 2027-06-12T10:38:52.336912455Z {}\n",
            K8S_RM.replace("10:38:22", "10:38:52")
        ),
    );
    // `kubectl logs datanode-0 > datanode-0.log` without --prefix: the name gives the pod.
    write(&dir.join("datanode-0.log"), &format!("{K8S_WARN}\n"));
    // Fluent Bit `file` output in `format plain` (shippers.md 2.1, 2.2).
    write(
        &dir.join("export/fluent-bit.jsonl"),
        &format!(
            "{{\"time\":\"2027-06-12T10:38:25.118734012Z\",\"stream\":\"stdout\",\"_p\":\"F\",\"log\":\"{K8S_WARN}\",\"kubernetes\":{{\"pod_name\":\"datanode-1\",\"namespace_name\":\"default\",\"host\":\"worker-2\",\"container_name\":\"datanode\"}}}}\n"
        ),
    );
    // logcli --output=jsonl (shippers.md 5.2).
    write(
        &dir.join("export/loki.json"),
        &format!(
            "{{\"labels\":{{\"container\":\"scm\",\"namespace\":\"default\",\"pod\":\"scm-2\",\"stream\":\"stdout\"}},\"line\":\"{K8S_RM}\",\"timestamp\":\"2027-06-12T10:38:22.336912455Z\"}}\n"
        ),
    );
    // journalctl -o json (shippers.md 7.2) over the shipped console layout `%c{2}`.
    write(
        &dir.join("journal/scm.json"),
        "{\"__CURSOR\":\"s=6c1f;i=2a41f\",\"__REALTIME_TIMESTAMP\":\"1812796702336958\",\"_PID\":\"48211\",\"SYSLOG_IDENTIFIER\":\"ozone\",\"_SYSTEMD_UNIT\":\"ozone-scm.service\",\"_HOSTNAME\":\"scm1.example.com\",\"MESSAGE\":\"2027-06-12 10:38:22,336 [scm1-ReplicationMonitor] INFO replication.ReplicationManager: Replication Monitor Thread took 12 milliseconds for processing 840 containers.\"}\n",
    );
    // journalctl -o short-iso (shippers.md 7.3).
    write(
        &dir.join("journal/dn.txt"),
        &format!(
            "2027-06-12T10:38:25+00:00 dn7.example.com ozone[48222]: 2027-06-12 10:38:25,118 [{DN0}-EndpointStateMachineTaskThread-scm1.example.com:9861-0 ] WARN statemachine.EndpointStateMachine: Unable to communicate to SCM server at scm1.example.com:9861 past 60 seconds.\n"
        ),
    );
    // JsonTemplateLayout EcsLayout.json for the OM audit (shippers.md 6.1): no host field, so the
    // folder names it.
    write(
        &dir.join("om-0/audit.json"),
        "{\"@timestamp\":\"2027-06-12T10:38:22.412Z\",\"ecs.version\":\"1.2.0\",\"log.level\":\"INFO\",\"message\":\"user=hadoop | ip=10.244.3.4 | op=COMMIT_KEY {\\\"volume\\\":\\\"vol1\\\",\\\"bucket\\\":\\\"bucket1\\\",\\\"key\\\":\\\"key1\\\",\\\"Transaction\\\":\\\"5003519\\\"} | ret=SUCCESS\",\"process.thread.name\":\"om1-OMStateMachineApplyTransactionThread - 0\",\"log.logger\":\"OMAudit\"}\n",
    );
    // `ozone insight logs scm.node-manager`: LogSubcommand's `[SCM] ` + LogStreamServlet's
    // `%d [%p|%c|%C{1}] %m%n`.
    write(
        &dir.join("insight.out"),
        &format!(
            "[SCM] 2026-08-20 14:02:10,331 [INFO|org.apache.hadoop.hdds.scm.node.SCMNodeManager|SCMNodeManager] Registered datanode: {DN0}(dn3.example.com/10.0.1.13)\n"
        ),
    );
    // Docker Desktop copy: the viewer's local time before the log4j line.
    write(
        &dir.join("desktop/om1.txt"),
        "2026-08-20 16:02:10 2026-08-20 14:02:10,331 [om1-OMStateMachineApplyTransactionThread - 0] INFO org.apache.hadoop.ozone.om.OzoneManager: started\n",
    );
    // 0.5.0-beta file names: `hadoop-<user>-<daemon>-<host>.log`.
    write(
        &dir.join("old/hadoop-hadoop-scm-scm9.log"),
        "2020-03-01 10:00:00,000 [main] INFO org.apache.hadoop.hdds.scm.node.SCMNodeManager: Entering startup safe mode.\n",
    );
}

/// `oztrace events --format jsonl [extra] DIR`, one value per line.
fn events(dir: &Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["events", "--format", "jsonl"];
    args.extend_from_slice(extra);
    args.push(dir.to_str().unwrap());
    let out = oztrace(&args);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn stats(dir: &Path) -> Vec<Value> {
    let out = oztrace(&["stats", "--format", "json", dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc["unreadable"].as_array().unwrap().is_empty(), "{doc}");
    doc["files"].as_array().unwrap().clone()
}

#[test]
fn stats_names_every_shape_with_its_component_and_host() {
    let dir = tempfile::tempdir().unwrap();
    shapes(dir.path());
    let files = stats(dir.path());
    let row = |file: &str| {
        let f = files
            .iter()
            .find(|f| f["file"] == file)
            .unwrap_or_else(|| panic!("{file} not read: {files:?}"));
        (
            f["layout"].as_str().unwrap_or("?").to_string(),
            f["component"].as_str().unwrap().to_string(),
            f["host"].as_str().unwrap().to_string(),
        )
    };
    let expect = |file: &str, layout: &str, component: &str, host: &str| {
        assert_eq!(
            row(file),
            (layout.to_string(), component.to_string(), host.to_string()),
            "{file}"
        );
    };
    expect(
        "kubectl-all.txt",
        "kubectl-prefix+old-docker",
        "scm",
        "scm-1",
    );
    expect("datanode-0.log", "old-docker", "datanode", "datanode-0");
    expect(
        "export/fluent-bit.jsonl",
        "fluent-bit-jsonl+old-docker",
        "datanode",
        "datanode-1",
    );
    expect("export/loki.json", "loki-jsonl+old-docker", "scm", "scm-2");
    expect(
        "journal/scm.json",
        "journald-json+console",
        "scm",
        "scm1.example.com",
    );
    expect(
        "journal/dn.txt",
        "journald-short+console",
        "datanode",
        "dn7.example.com",
    );
    expect("om-0/audit.json", "ecs-json", "om-audit", "om-0");
    expect("insight.out", "ozone-insight+insight", "scm", "unknown");
    expect("desktop/om1.txt", "local-stamp+file", "om", "om1");
    expect("old/hadoop-hadoop-scm-scm9.log", "file", "scm", "scm9");
}

#[test]
fn each_record_keeps_its_own_host_and_time() {
    let dir = tempfile::tempdir().unwrap();
    shapes(dir.path());
    let events = events(dir.path(), &["--all"]);
    let of = |file: &str| -> Vec<&Value> { events.iter().filter(|e| e["file"] == file).collect() };
    let kubectl = of("kubectl-all.txt");
    let hosts: Vec<&str> = kubectl
        .iter()
        .map(|e| e["host"].as_str().unwrap())
        .collect();
    assert_eq!(hosts, ["scm-1", "datanode-2", "scm-1"]);
    assert_eq!(kubectl[1]["component"], "datanode");
    assert_eq!(kubectl[1]["continuation_lines"], 1);
    // The log4j time, not the kubelet's.
    assert_eq!(kubectl[1]["ts"], "2027-06-12T10:38:25.000Z");
    let desktop = of("desktop/om1.txt");
    assert_eq!(desktop[0]["ts"], "2026-08-20T14:02:10.331Z");
    let audit = of("om-0/audit.json");
    assert_eq!(audit[0]["kind"], "om_audit_commit_key");
    assert_eq!(audit[0]["line"], 1);
}

/// A MiniOzoneCluster test's `<TestClass>-output.txt`: SCM, OM and two datanodes in one JVM, in
/// the test layout `%d{ISO8601} [%t] %-5p %c{2} (%F:%M(%L)) - %m%n` (hadoop-ozone/*/src/test/
/// resources/log4j.properties); thread names carry the node id (`HddsUtils.threadNamePrefix`,
/// Ratis member ids, MiniOzoneHAClusterImpl `omNode-`/`scmNode-`).
#[test]
fn one_jvm_test_output_gives_each_record_its_node_and_component() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "\
2026-05-04 11:20:31,102 [IPC Server handler 3 on default port 41233] INFO  node.SCMNodeManager (SCMNodeManager.java:register(412)) - Registered datanode: {DN0}(localhost/127.0.0.1)
2026-05-04 11:20:31,140 [{DN0}-EndpointStateMachineTaskThread-localhost:41233-0 ] WARN  statemachine.EndpointStateMachine (EndpointStateMachine.java:logIfNeeded(242)) - Unable to communicate to SCM server at localhost:41233 past 60 seconds.
java.net.ConnectException: Connection refused
2026-05-04 11:20:31,150 [{DN1}-EndpointStateMachineTaskThread-localhost:41233-0 ] WARN  statemachine.EndpointStateMachine (EndpointStateMachine.java:logIfNeeded(242)) - Unable to communicate to SCM server at localhost:41233 past 60 seconds.
2026-05-04 11:20:32,001 [{DN1}@group-41A9C03D5E7B-LeaderElection1] INFO  server.RaftServer$Division (RaftServerImpl.java:setRole(381)) - {DN1}@group-41A9C03D5E7B: changes role from CANDIDATE to LEADER at term 1 for changeToLeader
2026-05-04 11:20:33,500 [omNode-1@group-C5BA1605619E-LeaderElection2] INFO  server.RaftServer$Division (RaftServerImpl.java:setRole(381)) - omNode-1@group-C5BA1605619E: changes role from CANDIDATE to LEADER at term 1 for changeToLeader
"
    );
    write(
        &dir.path().join("TestContainerReplication-output.txt"),
        &text,
    );
    let events = events(dir.path(), &[]);
    let got: Vec<(String, String, String)> = events
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_string(),
                e["component"].as_str().unwrap().to_string(),
                e["host"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let row = |kind: &str, component: &str, host: &str| {
        (kind.to_string(), component.to_string(), host.to_string())
    };
    assert_eq!(
        got,
        vec![
            row("datanode_registered", "scm", "unknown"),
            row("endpoint_unreachable", "datanode", DN0),
            row("endpoint_unreachable", "datanode", DN1),
            // A Ratis logger names no component: the thread's node id was seen as a datanode.
            row("ratis_role_change", "datanode", DN1),
            row("ratis_role_change", "om", "omNode-1"),
        ]
    );
}

/// Per-host folders given as arguments of their own (`oztrace events om1/ om2/`) may hold logs of
/// one name, since each file is named relative to its argument: each folder's rotations are still
/// a log of their own, and the OMs' copies of one audit record fold into one event with a copy per
/// OM, as when their parent folder is the argument (taken for one log, the two folders' rotations
/// were read one after the other, and the copies of each file's first record were left apart).
#[test]
fn same_named_logs_of_two_arguments_are_two_logs() {
    let dir = tempfile::tempdir().unwrap();
    let record = |minute: u32, op: &str, tx: u32| {
        format!(
            "2026-08-19 00:{minute:02}:01,{:03} | INFO  | OMAudit | user=svc | ip=10.0.0.1 | op={op} {{\"volume\":\"v\",\"bucket\":\"b\",\"key\":\"a\",\"dataSize\":\"0\",\"Transaction\":\"{tx}\"}} | ret=SUCCESS |  \n",
            tx % 1000
        )
    };
    for om in ["om1", "om2"] {
        let log = dir.path().join(om);
        let older = [record(0, "ALLOCATE_KEY", 10), record(5, "COMMIT_KEY", 11)].concat();
        write(&log.join("om-audit.log.1"), &older);
        let current = [record(10, "ALLOCATE_KEY", 12), record(15, "COMMIT_KEY", 13)].concat();
        write(&log.join("om-audit.log"), &current);
    }
    let events = |args: &[&Path]| -> Vec<Value> {
        let mut command: Vec<&str> = vec!["events", "--format", "jsonl"];
        command.extend(args.iter().map(|p| p.to_str().unwrap()));
        let out = oztrace(&command);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (om1, om2) = (dir.path().join("om1"), dir.path().join("om2"));
    for listed in [events(&[dir.path()]), events(&[&om1, &om2])] {
        assert_eq!(listed.len(), 4, "{listed:?}");
        for event in &listed {
            let hosts: Vec<&str> = event["copies"]
                .as_array()
                .expect("copies")
                .iter()
                .map(|c| c["host"].as_str().unwrap())
                .collect();
            assert_eq!(hosts, ["om1", "om2"], "{event}");
        }
    }
}
