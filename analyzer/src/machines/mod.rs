//! The registry of reference state machines and causal linkers: adding a model is one module
//! and one line in each list.

use crate::graph::Linker;
use crate::machine::Machine;

pub mod node_admin;
pub mod scm_role;

/// A fresh instance of every machine.
pub fn all() -> Vec<Box<dyn Machine>> {
    vec![
        Box::new(scm_role::ScmRole::new()),
        Box::new(node_admin::NodeAdmin::new()),
    ]
}

/// Every causal linker.
pub fn linkers() -> Vec<Box<dyn Linker>> {
    vec![Box::new(node_admin::OpStateCommandDelivery)]
}
