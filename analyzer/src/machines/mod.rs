//! The registry of reference state machines and causal linkers: adding a model is one module
//! and one line in each list.

pub mod container;
pub mod datanode_links;
pub mod endpoint;
pub mod lease;
pub mod node_admin;
pub mod ratis_member;
pub mod scm_role;

use crate::graph::Linker;
use crate::machine::Machine;

/// A fresh instance of every machine.
pub fn all() -> Vec<Box<dyn Machine>> {
    vec![
        Box::new(scm_role::ScmRole::new()),
        Box::new(node_admin::NodeAdmin::new()),
        Box::new(container::ContainerMachine::new()),
        Box::new(endpoint::EndpointMachine::new()),
        Box::new(ratis_member::RatisMember::new()),
        Box::new(lease::LeaseMachine::default()),
    ]
}

/// Every causal linker.
pub fn linkers() -> Vec<Box<dyn Linker>> {
    vec![
        Box::new(node_admin::OpStateCommandDelivery),
        Box::new(container::FailedWriteLinker),
        Box::new(container::ReplicaReported),
        Box::new(endpoint::CommandReceipt),
        Box::new(datanode_links::DatanodeLinks),
        Box::new(lease::OmLinker),
    ]
}
