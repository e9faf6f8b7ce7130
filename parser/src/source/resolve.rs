//! The host and component of each record, decided once here for every input shape.
//!
//! A stream's file name and folders say which host and component wrote it ([`super::hint_from_path`]),
//! but many streams hold several: docker-compose output, `kubectl logs --prefix`, a log shipper's
//! export, and the one-JVM MiniOzoneCluster output of Ozone's integration tests, where SCM, OM and
//! every datanode write into one `<TestClass>-output.txt`. [`SourceResolver`] reads each record's
//! own evidence, in this order:
//!
//! - host: what the line's wrapper names (compose service, pod, journald host, a shipper record's
//!   pod or host field), else the file's host, else the node id that prefixes the thread name
//!   (`HddsUtils.threadNamePrefix`: `<datanode uuid>-…`; Ratis `<peer id>@group-…`; MiniOzoneCluster
//!   HA node ids `omNode-1-…`, `scmNode-1-…`; HA service ids `scm1-…`, `om1-…`);
//! - component: an audit or container logger (`OMAudit`, `ContainerLog`, …) whatever the file; else
//!   what the wrapper names (container, compose service, unit); else the file's; else the logger,
//!   full or abbreviated; else what an earlier record of the same thread node id was; else the
//!   stream's one component, while its loggers have named only one.

use super::{Component, SourceHint};
use crate::entity::is_uuid;
use crate::record::Record;
use std::collections::HashMap;

/// A host name as other log lines print it, for comparing names: the first DNS label, lower-case,
/// without a `:port`; an IP address stays whole. `scm-0.scm.default.svc.cluster.local:9861`,
/// `SCM-0` and `scm-0` all give `scm-0`; `scm-0` and `scm-1` stay apart.
pub fn short_host(name: &str) -> String {
    let name = name.trim();
    if name.parse::<std::net::IpAddr>().is_ok() {
        return name.to_string();
    }
    let name = match name.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => name,
    };
    if name.parse::<std::net::Ipv4Addr>().is_ok() {
        return name.to_string();
    }
    name.split('.').next().unwrap_or(name).to_ascii_lowercase()
}

/// The node id a thread name starts with, and the role that id's form implies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThreadNode<'a> {
    pub id: &'a str,
    pub role: Option<Component>,
}

/// Reads the node id `HddsUtils.threadNamePrefix` (`"<id>-"`) or a Ratis member id (`<peer>@group-…`)
/// puts in front of a thread name. Datanodes use their uuid; SCM and OM their HA node id
/// (`scm1`, `om1`; MiniOzoneHAClusterImpl `scmNode-1`, `omNode-1`); Ratis peers of SCM are the
/// scmId uuid, so a uuid alone implies no role.
pub fn node_of_thread(thread: &str) -> Option<ThreadNode<'_>> {
    const UUID_LEN: usize = 36;
    if let Some(head) = thread.get(..UUID_LEN)
        && is_uuid(head)
        && thread[UUID_LEN..].starts_with(['-', '@'])
    {
        return Some(ThreadNode {
            id: head,
            role: None,
        });
    }
    const ROLES: &[(&str, Component)] = &[
        ("omNode-", Component::Om),
        ("scmNode-", Component::Scm),
        ("om", Component::Om),
        ("scm", Component::Scm),
    ];
    ROLES.iter().find_map(|&(prefix, role)| {
        let rest = thread.strip_prefix(prefix)?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        (digits > 0 && rest[digits..].starts_with(['-', '@'])).then(|| ThreadNode {
            id: &thread[..prefix.len() + digits],
            role: Some(role),
        })
    })
}

/// Which component the loggers of a stream have named so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StreamComponent {
    None,
    One(Component),
    Mixed,
}

/// Decides the host and component of each record of one stream (see the module doc).
#[derive(Debug)]
pub struct SourceResolver {
    file: SourceHint,
    nodes: HashMap<String, Component>,
    stream: StreamComponent,
}

/// One record's host (`None`: nothing names it) and component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved<'a> {
    pub host: Option<&'a str>,
    pub component: Component,
}

impl SourceResolver {
    pub fn new(file: SourceHint) -> SourceResolver {
        SourceResolver {
            file,
            nodes: HashMap::new(),
            stream: StreamComponent::None,
        }
    }

    pub fn resolve<'a>(&'a mut self, record: &'a Record) -> Resolved<'a> {
        let component = self.component(record);
        // The thread is read only when nothing else names the host (most files say it).
        let host = record
            .host
            .as_deref()
            .or(self.file.host.as_deref())
            .or_else(|| {
                let node = node_of_thread(record.thread.as_deref()?)?;
                Some(node.id)
            });
        Resolved { host, component }
    }

    fn component(&mut self, record: &Record) -> Component {
        let logger = record.logger.as_deref();
        if let Some(audit) = logger.and_then(Component::from_audit_logger) {
            return audit;
        }
        if let Some(c) = record.component.or(self.file.component) {
            return c;
        }
        let from_logger = logger.and_then(Component::from_logger);
        let node = record.thread.as_deref().and_then(node_of_thread);
        if let Some(c) = from_logger {
            if let Some(node) = node {
                self.nodes.entry(node.id.to_string()).or_insert(c);
            }
            self.stream = match self.stream {
                StreamComponent::None => StreamComponent::One(c),
                StreamComponent::One(one) if one == c => self.stream,
                _ => StreamComponent::Mixed,
            };
            return c;
        }
        if let Some(node) = node
            && let Some(c) = self.nodes.get(node.id).copied().or(node.role)
        {
            return c;
        }
        match self.stream {
            StreamComponent::One(c) => c,
            // A `ContainerLogger` message (`ID=1042 | Index=0 | BCSID=… | State=…`) in a file
            // whose name does not say dn-container (renamed, exported): the dn-container layout
            // prints no logger, the message's head is the container log's own.
            _ if logger.is_none() && is_container_log_message(&record.message) => {
                Component::DnContainer
            }
            _ => Component::Unknown,
        }
    }
}

/// The head every `ContainerLogger` message starts with (datanode.md 1.3).
fn is_container_log_message(message: &str) -> bool {
    crate::entity::dn_container_log_id(message).is_some()
        && message.contains(" | Index=")
        && message.contains(" | BCSID=")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_container_log_message_names_its_component_in_any_file() {
        assert!(is_container_log_message(
            "ID=1042 | Index=0 | BCSID=88213 | State=CLOSING | Volume=/data/disk3/hdds | DataChecksum=0"
        ));
        assert!(is_container_log_message(
            "ID=7 | Index=3 | BCSID=0 | State=OPEN"
        ));
        assert!(!is_container_log_message("ID=7 is not a container line"));
        assert!(!is_container_log_message(
            "user=null | ip=null | op=CREATE_CONTAINER"
        ));
    }

    #[test]
    fn short_hosts_keep_ordinals_apart() {
        assert_eq!(
            short_host("scm-0.scm.default.svc.cluster.local:9861"),
            "scm-0"
        );
        assert_eq!(short_host("SCM-1"), "scm-1");
        assert_eq!(short_host("datanode-2"), "datanode-2");
        assert_eq!(short_host("dn3.example.com:9858"), "dn3");
        assert_eq!(short_host("10.0.1.13"), "10.0.1.13");
        assert_eq!(short_host("10.0.1.13:9858"), "10.0.1.13");
        assert_eq!(short_host("::1"), "::1");
    }

    #[test]
    fn thread_name_prefixes_name_the_node() {
        // HddsUtils.threadNamePrefix(datanodeUuid) + "EndpointStateMachineTaskThread-…" (datanode.md 1.4).
        let dn = node_of_thread(
            "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c-EndpointStateMachineTaskThread-scm1:9861-0 ",
        )
        .unwrap();
        assert_eq!(
            (dn.id, dn.role),
            ("3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c", None)
        );
        // Ratis memberId-StateMachineUpdater.
        let member = node_of_thread(
            "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4-StateMachineUpdater",
        );
        assert_eq!(member.unwrap().id, "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c");
        // MiniOzoneHAClusterImpl OM_NODE_ID_PREFIX "omNode-" and SCM_NODE_ID_PREFIX "scmNode-".
        let om = node_of_thread("omNode-2-OMStateMachineApplyTransactionThread - 0").unwrap();
        assert_eq!((om.id, om.role), ("omNode-2", Some(Component::Om)));
        // An OM's Ratis peer id is its node id: `omNode-1@group-…-StateMachineUpdater`.
        let om = node_of_thread("omNode-1@group-C5BA1605619E-StateMachineUpdater").unwrap();
        assert_eq!(om.id, "omNode-1");
        let scm = node_of_thread("scm1-DatanodeAdminManager-0").unwrap();
        assert_eq!((scm.id, scm.role), ("scm1", Some(Component::Scm)));
        for other in [
            "main",
            "IPC Server handler 3 on default port 9861",
            "grpc-default-executor-3",
            "omega-1",
            "scm-thread",
        ] {
            assert_eq!(node_of_thread(other), None, "{other}");
        }
    }

    fn record(logger: &str, thread: &str) -> Record {
        Record {
            logger: Some(logger.to_string()),
            thread: Some(thread.to_string()),
            ..Record::default()
        }
    }

    #[test]
    fn one_jvm_output_gives_each_record_its_node_and_component() {
        // MiniOzoneCluster test output: no host or component in `TestX-output.txt`.
        let mut resolver = SourceResolver::new(SourceHint::default());
        let dn1 = "3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c";
        let dn2 = "8d1e5a3b-2c4f-4a6e-9b7d-0f1e2d3c4b5a";
        let r = record(
            "statemachine.EndpointStateMachine",
            &format!("{dn1}-EndpointStateMachineTaskThread-localhost:41233-0 "),
        );
        assert_eq!(
            resolver.resolve(&r),
            Resolved {
                host: Some(dn1),
                component: Component::Datanode
            }
        );
        let r = record(
            "node.SCMNodeManager",
            "IPC Server handler 3 on default port 41233",
        );
        assert_eq!(
            resolver.resolve(&r),
            Resolved {
                host: None,
                component: Component::Scm
            }
        );
        // A Ratis logger says nothing; the thread's node id was seen with a datanode logger.
        let r = record(
            "impl.RaftServerImpl",
            &format!("{dn1}@group-D2C8A1B9F0E4-StateMachineUpdater"),
        );
        assert_eq!(resolver.resolve(&r).component, Component::Datanode);
        let r = record(
            "impl.RaftServerImpl",
            &format!("{dn2}@group-D2C8A1B9F0E4-FollowerState"),
        );
        assert_eq!(
            resolver.resolve(&r),
            Resolved {
                host: Some(dn2),
                component: Component::Unknown
            }
        );
        let r = record("impl.RaftServerImpl", "omNode-1-server-thread1");
        assert_eq!(
            resolver.resolve(&r),
            Resolved {
                host: Some("omNode-1"),
                component: Component::Om
            }
        );
    }

    #[test]
    fn file_hints_wrappers_and_audit_loggers() {
        let mut resolver = SourceResolver::new(SourceHint {
            host: Some("om-0".into()),
            component: Some(Component::Om),
        });
        // OM runs SCM client classes: the file's component wins over the logger's package.
        let r = record(
            "org.apache.hadoop.hdds.scm.proxy.SCMBlockLocationFailoverProxyProvider",
            "main",
        );
        assert_eq!(
            resolver.resolve(&r),
            Resolved {
                host: Some("om-0"),
                component: Component::Om
            }
        );
        // An audit logger interleaved into the console (shippers.md 9.1).
        let r = record("OMAudit", "IPC Server handler 1 on default port 9862");
        assert_eq!(resolver.resolve(&r).component, Component::OmAudit);
        let wrapped = Record {
            host: Some("scm-1".into()),
            component: Some(Component::Scm),
            ..record("ReplicationManager", "scm1-ReplicationMonitor")
        };
        assert_eq!(
            resolver.resolve(&wrapped),
            Resolved {
                host: Some("scm-1"),
                component: Component::Scm
            }
        );
    }

    #[test]
    fn a_single_component_stream_lends_its_component_to_ratis_lines() {
        let mut resolver = SourceResolver::new(SourceHint::default());
        resolver.resolve(&record("keyvalue.KeyValueHandler", "ChunkWriter-0-0"));
        let ratis = record(
            "org.apache.ratis.server.RaftServer$Division",
            "grpc-default-executor-1",
        );
        assert_eq!(resolver.resolve(&ratis).component, Component::Datanode);
        resolver.resolve(&record("om.OzoneManager", "main"));
        assert_eq!(resolver.resolve(&ratis).component, Component::Unknown);
    }
}
