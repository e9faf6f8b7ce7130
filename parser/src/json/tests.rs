//! Every record below was written for these tests from the tools' documented output formats
//! (../shared/ozone-logs/shippers.md, which cites each tool's source) around Ozone lines built
//! from the Ozone source: `EndpointStateMachine.java:242` (`Unable to communicate to SCM server
//! at {} past {} seconds.`), `ReplicationManager.java:385`, `SCMNodeManager` `Registered datanode:
//! {}`, the OM audit `AuditMessage` form, in the layouts of shippers.md 0.1.

use crate::record::{ReadOptions, Record, StreamSummary, read_records};
use crate::source::{Component, Level};
use crate::time::format_rfc3339;

fn read(text: &str) -> (Vec<Record>, StreamSummary) {
    let mut records = Vec::new();
    let (summary, error) = read_records(&mut text.as_bytes(), &ReadOptions::default(), &mut |r| {
        records.push(r)
    });
    assert!(error.is_none());
    (records, summary)
}

fn time(record: &Record) -> String {
    record.ts.map(format_rfc3339).unwrap_or_default()
}

const WARN: &str = "2027-06-12 10:38:25 WARN  EndpointStateMachine:242 - Unable to communicate to SCM server at scm-0.scm.default.svc.cluster.local:9861 past 60 seconds.";

#[test]
fn fluent_bit_records_name_pod_and_container() {
    // shippers.md 2.1: tail + multiline cri + kubernetes filter; a stack trace is one record per
    // line, two pods interleave.
    let text = format!(
        r#"{{"time":"2027-06-12T10:38:25.118734012Z","stream":"stdout","_p":"F","log":"{WARN}","kubernetes":{{"pod_name":"datanode-0","namespace_name":"default","labels":{{"app":"ozone","component":"datanode","statefulset.kubernetes.io/pod-name":"datanode-0"}},"host":"worker-2","container_name":"datanode"}}}}
{{"time":"2027-06-12T10:38:25.119000000Z","stream":"stdout","_p":"F","log":"2027-06-12 10:38:25 INFO  ReplicationManager:385 - Replication Monitor Thread took 12 milliseconds for processing 840 containers.","kubernetes":{{"pod_name":"scm-1","namespace_name":"default","host":"worker-1","container_name":"scm"}}}}
{{"time":"2027-06-12T10:38:25.11879Z","stream":"stdout","_p":"F","log":"java.net.ConnectException: Connection refused","kubernetes":{{"pod_name":"datanode-0","host":"worker-2","container_name":"datanode"}}}}
{{"time":"2027-06-12T10:38:25.118801331Z","stream":"stdout","_p":"F","log":"\tat org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:863)","kubernetes":{{"pod_name":"datanode-0","host":"worker-2","container_name":"datanode"}}}}
"#
    );
    let (records, summary) = read(&text);
    assert_eq!(
        summary.layout.as_deref(),
        Some("fluent-bit-jsonl+old-docker")
    );
    assert_eq!(records.len(), 2);
    let dn = records.iter().find(|r| r.line == 1).unwrap();
    assert_eq!(dn.host.as_deref(), Some("datanode-0"));
    assert_eq!(dn.component, Some(Component::Datanode));
    assert_eq!(dn.level, Some(Level::Warn));
    assert_eq!(dn.logger.as_deref(), Some("EndpointStateMachine"));
    assert_eq!(dn.continuation_lines, 2);
    assert!(dn.continuation.starts_with("java.net.ConnectException"));
    // The log4j time is the record's time (the k8s layout has whole seconds).
    assert_eq!(time(dn), "2027-06-12T10:38:25.000Z");
    let scm = records.iter().find(|r| r.line == 2).unwrap();
    assert_eq!(
        (scm.host.as_deref(), scm.component),
        (Some("scm-1"), Some(Component::Scm))
    );
    assert_eq!(summary.lines, 4);
    assert_eq!(summary.continuation_lines, 2);
}

#[test]
fn fluentd_and_fluent_bit_file_outputs() {
    // shippers.md 2.3 (Fluentd `out_file`: time, tag, record by tabs; docker `log` ends in `\n`,
    // `kubernetes_metadata` adds `docker.container_id`) and 2.2 (Fluent Bit `out_file`).
    let fluentd = format!(
        "2027-06-12T10:38:25+00:00\tkubernetes.var.log.containers.datanode-2_default_datanode-4b1f.log\t{{\"log\":\"{WARN}\\n\",\"stream\":\"stdout\",\"docker\":{{\"container_id\":\"4b1f\"}},\"kubernetes\":{{\"pod_name\":\"datanode-2\",\"container_name\":\"datanode\",\"host\":\"worker-3\"}}}}\n"
    );
    let (records, summary) = read(&fluentd);
    assert_eq!(summary.layout.as_deref(), Some("fluentd-jsonl+old-docker"));
    assert_eq!(records[0].host.as_deref(), Some("datanode-2"));
    assert!(records[0].message.ends_with("past 60 seconds."));
    let fluent_bit = format!(
        "kube.var.log.containers.scm-0_default_scm-3f9c.log: [1812796702.336912455, {{\"time\":\"2027-06-12T10:38:22.336912455Z\",\"stream\":\"stdout\",\"_p\":\"F\",\"log\":\"{}\",\"kubernetes\":{{\"pod_name\":\"scm-0\",\"container_name\":\"scm\"}}}}]\n",
        "2027-06-12 10:38:22,336 [scm0-ReplicationMonitor] INFO replication.ReplicationManager: Replication Monitor Thread took 12 milliseconds for processing 840 containers."
    );
    let (records, summary) = read(&fluent_bit);
    assert_eq!(summary.layout.as_deref(), Some("fluent-bit-jsonl+console"));
    assert_eq!(records[0].host.as_deref(), Some("scm-0"));
    assert_eq!(
        records[0].thread.as_deref(),
        Some("scm0-ReplicationMonitor")
    );
    assert_eq!(time(&records[0]), "2027-06-12T10:38:22.336Z");
}

#[test]
fn vector_kubernetes_and_file_sources() {
    // shippers.md 3.1/3.3: keys sorted; `pod_node_name` is the node, not the host.
    let k8s = format!(
        r#"{{"file":"/var/log/pods/default_datanode-0_8d3e/datanode/0.log","kubernetes":{{"container_name":"datanode","pod_labels":{{"component":"datanode"}},"pod_name":"datanode-0","pod_namespace":"default","pod_node_name":"worker-2","pod_owner":"StatefulSet/datanode"}},"message":"{WARN}","source_type":"kubernetes_logs","stream":"stdout","timestamp":"2027-06-12T10:38:25.118734012Z"}}
"#
    );
    let (records, summary) = read(&k8s);
    assert_eq!(summary.layout.as_deref(), Some("vector-jsonl+old-docker"));
    assert_eq!(records[0].host.as_deref(), Some("datanode-0"));
    assert_eq!(records[0].component, Some(Component::Datanode));
    // The file source: `host` is Vector's own; the path names the Ozone host.
    let file = r#"{"file":"/var/log/ozone/ozone-hadoop-scm-scm2.example.com.log","host":"collector-1","message":"2027-06-12 10:38:22,336 [scm2-ReplicationMonitor] INFO org.apache.hadoop.hdds.scm.container.replication.ReplicationManager: Replication Monitor Thread took 12 milliseconds for processing 840 containers.","source_type":"file","timestamp":"2027-06-12T10:40:00.000000001Z"}
"#;
    let (records, _) = read(file);
    assert_eq!(records[0].host.as_deref(), Some("scm2.example.com"));
    assert_eq!(records[0].component, Some(Component::Scm));
    assert_eq!(time(&records[0]), "2027-06-12T10:38:22.336Z");
}

#[test]
fn elasticsearch_exports_nested_dotted_and_search_pages() {
    // shippers.md 4.2: elasticdump lines (`_source` as Beats sent it: nested), out of order.
    let dump = format!(
        r#"{{"_index":".ds-logs-kubernetes.container_logs-default","_id":"b","_score":1,"_source":{{"@timestamp":"2027-06-12T10:38:25.119Z","message":"\tat org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:863)","stream":"stdout","kubernetes":{{"pod":{{"name":"datanode-0"}},"container":{{"name":"datanode"}}}},"host":{{"name":"worker-2"}}}}}}
{{"_index":".ds-logs-kubernetes.container_logs-default","_id":"a","_score":1,"_source":{{"@timestamp":"2027-06-12T10:38:25.118Z","message":"{WARN}","stream":"stdout","kubernetes":{{"pod":{{"name":"datanode-0"}},"container":{{"name":"datanode"}}}},"host":{{"name":"worker-2"}}}}}}
{{"_index":"x","_id":"c","_source":{{"@timestamp":"2027-06-12T10:38:26.000Z","message":"2027-06-12 10:38:26 INFO  SCMNodeManager:412 - Registered datanode: x","kubernetes.pod.name":"scm-2","kubernetes.container.name":"scm"}}}}
"#
    );
    let (records, summary) = read(&dump);
    assert_eq!(summary.layout.as_deref(), Some("elastic-jsonl+old-docker"));
    assert_eq!(records.len(), 2);
    // Put back in time order: the frame joins its header record (JSON line 2).
    assert_eq!(records[0].line, 2);
    assert_eq!(records[0].host.as_deref(), Some("datanode-0"));
    assert_eq!(records[0].continuation_lines, 1);
    assert_eq!(records[1].host.as_deref(), Some("scm-2"));
    assert_eq!(records[1].component, Some(Component::Scm));

    // One `_search` page, pretty-printed: each hit's record points at the hit's line.
    let page = format!(
        "{{\n  \"took\" : 5,\n  \"timed_out\" : false,\n  \"hits\" : {{\n    \"total\" : {{ \"value\" : 2, \"relation\" : \"eq\" }},\n    \"hits\" : [\n      {{\n        \"_index\" : \"logs\",\n        \"_source\" : {{ \"@timestamp\" : \"2027-06-12T10:38:25.118Z\", \"message\" : \"{WARN}\", \"kubernetes\" : {{ \"pod_name\" : \"datanode-1\" }} }}\n      }},\n      {{\n        \"_index\" : \"logs\",\n        \"_source\" : {{ \"@timestamp\" : \"2027-06-12T10:38:26.000Z\", \"message\" : \"2027-06-12 10:38:26 INFO  SCMNodeManager:412 - Registered datanode: x\", \"host\" : {{ \"name\" : \"scm3.example.com\" }} }}\n      }}\n    ]\n  }}\n}}\n"
    );
    let (records, summary) = read(&page);
    assert_eq!(summary.layout.as_deref(), Some("elastic-search+old-docker"));
    assert_eq!(records.len(), 2);
    assert_eq!(
        (records[0].line, records[0].host.as_deref()),
        (7, Some("datanode-1"))
    );
    assert_eq!(
        (records[1].line, records[1].host.as_deref()),
        (11, Some("scm3.example.com"))
    );
    assert_eq!(summary.lines, 17);
}

#[test]
fn loki_exports_newest_first_are_put_back_in_order() {
    // shippers.md 5.2: logcli `--output=jsonl`, direction backward (newest first).
    let text = format!(
        r#"{{"labels":{{"container":"datanode","namespace":"default","pod":"datanode-0","stream":"stdout"}},"line":"\tat org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:863)","timestamp":"2027-06-12T10:38:25.118801331Z"}}
{{"labels":{{"container":"datanode","namespace":"default","pod":"datanode-0","stream":"stdout"}},"line":"{WARN}","timestamp":"2027-06-12T10:38:25.118734012Z"}}
"#
    );
    let (records, summary) = read(&text);
    assert_eq!(summary.layout.as_deref(), Some("loki-jsonl+old-docker"));
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].line, 2);
    assert_eq!(records[0].host.as_deref(), Some("datanode-0"));
    assert_eq!(records[0].continuation_lines, 1);
    // shippers.md 5.3: a `query_range` response, values `[ns epoch, line]`, newest first.
    let query = format!(
        r#"{{"status":"success","data":{{"resultType":"streams","result":[{{"stream":{{"container":"datanode","pod":"datanode-3"}},"values":[["1812796705118801331","\tat org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:863)"],["1812796705118734012","{WARN}"]]}}],"stats":{{}}}}}}
"#
    );
    let (records, summary) = read(&query);
    assert_eq!(summary.layout.as_deref(), Some("loki-query+old-docker"));
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].host.as_deref(), Some("datanode-3"));
    assert_eq!(records[0].continuation_lines, 1);
}

#[test]
fn journald_json_and_json_seq() {
    // shippers.md 7.2: every value a string; `-o json-seq` puts RS before each object; a value
    // with non-UTF-8 bytes is an array of numbers.
    let text = "\u{1e}{\"__CURSOR\":\"s=6c1f;i=2a41f\",\"__REALTIME_TIMESTAMP\":\"1812796702336958\",\"PRIORITY\":\"6\",\"_TRANSPORT\":\"stdout\",\"_PID\":\"48211\",\"_COMM\":\"java\",\"SYSLOG_IDENTIFIER\":\"ozone\",\"_SYSTEMD_UNIT\":\"ozone-scm.service\",\"_HOSTNAME\":\"scm1.example.com\",\"MESSAGE\":\"2027-06-12 10:38:22,336 [scm1-ReplicationMonitor] INFO replication.ReplicationManager: Replication Monitor Thread took 12 milliseconds for processing 840 containers.\"}\n\u{1e}{\"__CURSOR\":\"s=6c1f;i=2a420\",\"__REALTIME_TIMESTAMP\":\"1812796702412406\",\"_PID\":\"48211\",\"_SYSTEMD_UNIT\":\"ozone-scm.service\",\"_HOSTNAME\":\"scm1.example.com\",\"MESSAGE\":[9,97,116,32,120,46,89,46,122,40,89,46,106,97,118,97,58,49,41,32,255]}\n";
    let (records, summary) = read(text);
    assert_eq!(summary.layout.as_deref(), Some("journald-json+console"));
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].host.as_deref(), Some("scm1.example.com"));
    assert_eq!(records[0].component, Some(Component::Scm));
    assert_eq!(records[0].continuation, "\tat x.Y.z(Y.java:1) \u{fffd}");
}

#[test]
fn stern_and_docker_json_file() {
    // shippers.md 8.2: stern `-o json`.
    let stern = format!(
        r#"{{"message":"{WARN}","nodeName":"worker-2","namespace":"default","podName":"datanode-1","containerName":"datanode","labels":{{}}}}
"#
    );
    let (records, summary) = read(&stern);
    assert_eq!(summary.layout.as_deref(), Some("stern-json+old-docker"));
    assert_eq!(records[0].host.as_deref(), Some("datanode-1"));
    // shippers.md 1.1: docker json-file escapes tab as \u0009 and `<>&`; a line over 16 KiB is
    // split into pieces, all but the last without `\n`.
    let long = "x".repeat(20_000);
    let docker = format!(
        "{{\"log\":\"2027-06-12 10:38:25,118 [main] WARN org.apache.hadoop.ozone.container.common.statemachine.EndpointStateMachine: a \\u003cinit\\u003e \\u0026 {}\",\"stream\":\"stdout\",\"time\":\"2027-06-12T10:38:25.118734012Z\"}}\n{{\"log\":\"{}\\n\",\"stream\":\"stdout\",\"time\":\"2027-06-12T10:38:25.118734013Z\"}}\n{{\"log\":\"\\u0009at org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:863)\\n\",\"stream\":\"stdout\",\"time\":\"2027-06-12T10:38:25.11879Z\"}}\n",
        &long[..16_000],
        &long[16_000..]
    );
    let (records, summary) = read(&docker);
    assert_eq!(summary.layout.as_deref(), Some("docker-json+file"));
    assert_eq!(records.len(), 1);
    assert!(records[0].message.starts_with("a <init> & x"));
    assert_eq!(records[0].message.len(), "a <init> & ".len() + 20_000);
    assert_eq!(records[0].continuation_lines, 1);
}

#[test]
fn log4j2_json_layouts_carry_the_record() {
    // shippers.md 6.1 (JsonTemplateLayout EcsLayout.json: flat dotted keys, UTC millis).
    let ecs = r#"{"@timestamp":"2027-06-12T10:38:22.412Z","ecs.version":"1.2.0","log.level":"INFO","message":"user=hadoop | ip=10.244.3.4 | op=COMMIT_KEY {\"volume\":\"vol1\",\"bucket\":\"bucket1\",\"key\":\"key1\",\"dataSize\":\"1048576\",\"replicationType\":\"RATIS\",\"replicationFactor\":\"THREE\",\"Transaction\":\"5003519\"} | ret=SUCCESS","process.thread.name":"om1-OMStateMachineApplyTransactionThread - 0","log.logger":"OMAudit"}
"#;
    let (records, summary) = read(ecs);
    assert_eq!(summary.layout.as_deref(), Some("ecs-json"));
    assert_eq!(records[0].logger.as_deref(), Some("OMAudit"));
    assert_eq!(records[0].level, Some(Level::Info));
    assert!(records[0].message.starts_with("user=hadoop | ip="));
    assert_eq!(time(&records[0]), "2027-06-12T10:38:22.412Z");
    // 6.3: ecs-logging-java EcsLayout, `"log.level": "WARN"` with a space, service.node.name.
    let ecs_java = r#"{"@timestamp":"2027-06-12T10:38:25.118Z","log.level": "WARN","message":"Unable to communicate to SCM server at scm-0.scm.default.svc.cluster.local:9861 past 60 seconds.","ecs.version": "1.2.0","service.name":"ozone-datanode","service.node.name":"datanode-0","process.thread.name":"4f6a2c1e-8a4b-4c5d-9e6f-7a8b9c0d1e2f-EndpointStateMachineTaskThread-scm-0.scm.default.svc.cluster.local:9861-0 ","log.logger":"org.apache.hadoop.ozone.container.common.statemachine.EndpointStateMachine","error.type":"java.net.ConnectException","error.message":"Connection refused","error.stack_trace":"java.net.ConnectException: Connection refused\n\tat org.apache.hadoop.net.NetUtils.wrapException(NetUtils.java:863)"}
"#;
    let (records, _) = read(ecs_java);
    assert_eq!(records[0].host.as_deref(), Some("datanode-0"));
    assert_eq!(records[0].component, Some(Component::Datanode));
    assert_eq!(records[0].continuation_lines, 2);
    // GelfLayout.json: epoch seconds as a number, syslog severity code.
    let gelf = r#"{"version":"1.1","host":"om-0","short_message":"user=hadoop | ip=10.244.3.4 | op=COMMIT_KEY {} | ret=SUCCESS","timestamp":1812796702.412000000,"level":6,"_logger":"OMAudit","_thread":"om1-OMStateMachineApplyTransactionThread - 0"}
"#;
    let (records, summary) = read(gelf);
    assert_eq!(summary.layout.as_deref(), Some("gelf-json"));
    assert_eq!(
        (records[0].host.as_deref(), records[0].level),
        (Some("om-0"), Some(Level::Info))
    );
    assert_eq!(time(&records[0]), "2027-06-12T10:38:22.412Z");
    // 6.2: JsonLayout as shipped (`compact=false`, `complete=true`): pretty-printed objects in an
    // array, `\r\n` line ends; `instant` in seconds and nanos.
    let json_layout = "[\r\n{\r\n  \"instant\" : {\r\n    \"epochSecond\" : 1812796702,\r\n    \"nanoOfSecond\" : 412000000\r\n  },\r\n  \"thread\" : \"om1-OMStateMachineApplyTransactionThread - 0\",\r\n  \"level\" : \"INFO\",\r\n  \"loggerName\" : \"OMAudit\",\r\n  \"marker\" : {\r\n    \"name\" : \"WRITE\"\r\n  },\r\n  \"message\" : \"user=hadoop | ip=10.244.3.4 | op=COMMIT_KEY {} | ret=SUCCESS\",\r\n  \"endOfBatch\" : false\r\n}\r\n, {\r\n  \"timeMillis\" : 1812796703000,\r\n  \"thread\" : \"main\",\r\n  \"level\" : \"ERROR\",\r\n  \"loggerName\" : \"OMAudit\",\r\n  \"message\" : \"user=hadoop | ip=10.244.3.4 | op=DELETE_KEY {} | ret=FAILURE\",\r\n  \"thrown\" : {\r\n    \"name\" : \"org.apache.hadoop.ozone.om.exceptions.OMException\",\r\n    \"message\" : \"KEY_NOT_FOUND\"\r\n  }\r\n}\r\n]\r\n";
    let (records, summary) = read(json_layout);
    assert_eq!(summary.layout.as_deref(), Some("log4j2-json"));
    assert_eq!(records.len(), 2);
    assert_eq!((records[0].line, records[1].line), (2, 16));
    assert_eq!(time(&records[0]), "2027-06-12T10:38:22.412Z");
    assert_eq!(
        records[1].continuation,
        "org.apache.hadoop.ozone.om.exceptions.OMException: KEY_NOT_FOUND"
    );
    assert_eq!(summary.lines, 27);
    // LogstashJsonEventLayoutV1.json.
    let logstash = r#"{"@version":1,"@timestamp":"2027-06-12T12:38:22.412+02:00","source_host":"om-1","message":"user=hadoop | ip=10.244.3.4 | op=COMMIT_KEY {} | ret=SUCCESS","thread_name":"main","level":"INFO","logger_name":"OMAudit"}
"#;
    let (records, summary) = read(logstash);
    assert_eq!(summary.layout.as_deref(), Some("logstash-json"));
    assert_eq!(records[0].host.as_deref(), Some("om-1"));
    assert_eq!(time(&records[0]), "2027-06-12T10:38:22.412Z");
}

#[test]
fn a_json_layout_record_inside_a_shipper_record() {
    // shippers.md 2.1 Merge_Log off: the ECS record stays a string in `log`.
    let text = r#"{"time":"2027-06-12T10:38:25.118734012Z","stream":"stdout","log":"{\"@timestamp\":\"2027-06-12T10:38:25.118Z\",\"log.level\":\"WARN\",\"message\":\"Unable to communicate to SCM server at scm-0:9861 past 60 seconds.\",\"ecs.version\":\"1.2.0\",\"log.logger\":\"org.apache.hadoop.ozone.container.common.statemachine.EndpointStateMachine\"}","kubernetes":{"pod_name":"datanode-4","container_name":"datanode"}}
"#;
    let (records, _) = read(text);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].host.as_deref(), Some("datanode-4"));
    assert_eq!(records[0].level, Some(Level::Warn));
    assert!(records[0].message.starts_with("Unable to communicate"));
}

#[test]
fn json_that_is_no_log_is_kept_as_unrecognized_records() {
    let (records, summary) = read("{\"rule\":\"dropped-actions\",\"entity\":\"datanode:x\"}\n");
    assert_eq!(records.len(), 1);
    assert!(records[0].headerless);
    assert_eq!(summary.layout, None);
    assert_eq!(summary.records, 0);
    // A thread in brackets is no JSON.
    let (records, summary) = read("[main] INFO node.SCMNodeManager: no time\n");
    assert_eq!(summary.layout.as_deref(), Some("no-timestamp"));
    assert!(!records[0].headerless);
}

#[test]
fn one_line_search_pages_past_the_text_line_cap_are_read_whole() {
    // A `_search` page as curl writes it: one line, here of 400 hits (about 460 KiB).
    let hit = format!(
        r#"{{"_index":"logs","_id":"x","_score":1,"_source":{{"@timestamp":"2027-06-12T10:38:25.118Z","message":"{WARN}","kubernetes":{{"pod":{{"name":"datanode-0"}},"container":{{"name":"datanode"}}}},"host":{{"name":"worker-2"}},"padding":"{}"}}}}"#,
        "p".repeat(900)
    );
    let hits = vec![hit; 400].join(",");
    let page = format!(
        r#"{{"took":5,"timed_out":false,"hits":{{"total":{{"value":400,"relation":"eq"}},"hits":[{hits}]}}}}"#
    );
    assert!(page.len() > crate::record::MAX_LINE_BYTES);
    let (records, summary) = read(&format!("{page}\n"));
    assert_eq!(summary.layout.as_deref(), Some("elastic-search+old-docker"));
    assert_eq!(records.len(), 400);
    assert!(
        records
            .iter()
            .all(|r| r.host.as_deref() == Some("datanode-0"))
    );
    assert_eq!((summary.truncated_records, summary.bytes_not_kept), (0, 0));
}

#[test]
fn a_long_log_line_in_a_record_is_cut_and_the_records_after_it_are_read() {
    // A shipper record whose log line is longer than a line is kept, between two ordinary ones.
    let record = |pod: &str, log: &str| {
        format!(
            r#"{{"time":"2027-06-12T10:38:25.118734012Z","stream":"stdout","_p":"F","log":"{log}","kubernetes":{{"pod_name":"{pod}","container_name":"datanode"}}}}"#
        )
    };
    let long = format!("{WARN} {}", "x".repeat(300 << 10));
    let text = [
        record("datanode-0", WARN),
        record("datanode-1", &long),
        record("datanode-2", WARN),
    ]
    .join("\n");
    let (records, summary) = read(&format!("{text}\n"));
    let hosts: Vec<_> = records.iter().map(|r| r.host.as_deref().unwrap()).collect();
    assert_eq!(hosts, ["datanode-0", "datanode-1", "datanode-2"]);
    let cut = &records[1];
    assert!(cut.message.len() < crate::record::MAX_LINE_BYTES);
    assert!(
        cut.message.ends_with(" bytes not kept]"),
        "{}",
        &cut.message[..80]
    );
    assert_eq!(summary.truncated_records, 1);
    assert!(summary.bytes_not_kept > 40 << 10);

    // A Fluentd `out_file` line (no JSON value at its start) is a text line: cut at the cap,
    // its record is lost as JSON, but it ends there and the next line is read.
    let fluentd = |log: &str| {
        format!(
            "2027-06-12T10:38:25+00:00\tkubernetes.var.log.containers.dn.log\t{{\"log\":\"{log}\\n\",\"stream\":\"stdout\",\"kubernetes\":{{\"pod_name\":\"datanode-2\",\"container_name\":\"datanode\"}}}}"
        )
    };
    let text = [fluentd(WARN), fluentd(&long), fluentd(WARN)].join("\n");
    let (records, summary) = read(&format!("{text}\n"));
    assert_eq!(records.iter().filter(|r| !r.headerless).count(), 2);
    let lost: Vec<_> = records.iter().filter(|r| r.headerless).collect();
    assert_eq!(lost.len(), 1);
    assert!(lost[0].message.ends_with(" bytes not kept]"));
    assert_eq!(summary.lines, 3);
    assert!(summary.truncated_records >= 1);
    assert!(summary.bytes_not_kept > 40 << 10);
}
