//! The registry of reference state machines and causal linkers: adding a model is one module
//! and one line in each list.

pub mod datanode_links;
pub mod ratis_member;

use crate::graph::Linker;
use crate::machine::Machine;

/// A fresh instance of every machine.
pub fn all() -> Vec<Box<dyn Machine>> {
    vec![Box::new(ratis_member::RatisMember::new())]
}

/// Every causal linker.
pub fn linkers() -> Vec<Box<dyn Linker>> {
    vec![Box::new(datanode_links::DatanodeLinks)]
}
