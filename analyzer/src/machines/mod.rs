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
use crate::kinds::Wanted;
use crate::machine::Machine;

/// A fresh instance of every machine.
pub fn all() -> Vec<Box<dyn Machine>> {
    selected(MachineSet::ALL)
}

/// A fresh instance of each machine of `set`, in registry order.
pub fn selected(set: MachineSet) -> Vec<Box<dyn Machine>> {
    registry()
        .into_iter()
        .enumerate()
        .filter(|&(place, _)| set.has(place))
        .map(|(_, machine)| machine)
        .collect()
}

fn registry() -> Vec<Box<dyn Machine>> {
    vec![
        Box::new(scm_role::ScmRole::new()),
        Box::new(node_admin::NodeAdmin::new()),
        Box::new(container::ContainerMachine::new()),
        Box::new(endpoint::EndpointMachine::new()),
        Box::new(ratis_member::RatisMember::new()),
        Box::new(lease::LeaseMachine::default()),
    ]
}

/// Some of the registry's machines, a bit each by place (32 at most): a replay runs only those
/// whose transitions are read (`scan`: those its rules read, [`MachineSet::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MachineSet(u32);

impl MachineSet {
    pub const ALL: MachineSet = MachineSet(u32::MAX);

    /// The machines named `names` (a name no machine has adds none).
    pub fn of<'a>(names: impl IntoIterator<Item = &'a str>) -> MachineSet {
        let machines = registry();
        let mut set = 0;
        for name in names {
            if let Some(place) = machines.iter().position(|m| m.name() == name) {
                set |= 1 << place;
            }
        }
        MachineSet(set)
    }

    fn has(self, place: usize) -> bool {
        self.0 & 1 << place != 0
    }
}

/// The name of every machine, in registry order.
pub fn names() -> Vec<&'static str> {
    registry().iter().map(|m| m.name()).collect()
}

/// What the machines of `set` and every linker read (the linkers' edges are the report's causal
/// links, whatever the rules).
pub fn consumed(set: MachineSet) -> Wanted {
    let mut wanted = Wanted::new();
    for machine in selected(set) {
        wanted.add(machine.consumes());
    }
    for linker in linkers() {
        wanted.add(linker.consumes());
    }
    wanted
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{self, KindSet};
    use crate::load::{Keep, ReadConfig, build_trace, read_inputs_streaming};
    use crate::machine::replay_one;
    use std::path::PathBuf;

    #[test]
    fn a_set_of_machines_selects_those_it_names_in_registry_order() {
        let names = |set| selected(set).iter().map(|m| m.name()).collect::<Vec<_>>();
        let set = MachineSet::of([lease::NAME, "no-such-machine", scm_role::NAME]);
        assert_eq!(names(set), [scm_role::NAME, lease::NAME]);
        assert_eq!(names(MachineSet::of([])), Vec::<&str>::new());
        assert_eq!(names(MachineSet::ALL), super::names());
        assert!(super::names().len() <= 32, "a set has a bit per machine");
    }

    /// Machines and linkers declare catalogued kinds, and a machine sees only the events of the
    /// kinds it declares: on every sample, its transitions are the same as when it sees every
    /// event.
    #[test]
    fn every_machine_declares_catalogued_kinds_that_are_all_it_reads() {
        let (machines, linkers) = (all(), linkers());
        let declared = machines
            .iter()
            .map(|m| (m.name(), m.consumes()))
            .chain(linkers.iter().map(|l| (l.name(), l.consumes())));
        for (name, reads) in declared {
            assert_eq!(kinds::unknown(reads), Vec::<&str>::new(), "{name}");
        }
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples");
        let mut samples: Vec<PathBuf> = std::fs::read_dir(&root)
            .expect("samples")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("EXPECTED.json").is_file())
            .collect();
        samples.sort();
        assert!(samples.len() > 20);
        let mut stepped = 0;
        for sample in samples {
            let mut parsed = read_inputs_streaming(
                std::slice::from_ref(&sample),
                &ReadConfig::new(Keep::Typed),
                &mut |_| {},
            );
            let trace = build_trace(&mut parsed, 2_000);
            for (i, machine) in all().iter().enumerate() {
                let reads = KindSet::of(machine.consumes());
                let mut declared = all().swap_remove(i);
                let mut everything = all().swap_remove(i);
                let seen = replay_one(&trace, declared.as_mut(), &reads, i64::MAX);
                let all_events = replay_one(&trace, everything.as_mut(), &KindSet::all(), i64::MAX);
                assert!(
                    seen == all_events,
                    "{} on {}: the declared kinds miss events it reads",
                    machine.name(),
                    sample.display()
                );
                stepped += seen.len();
            }
        }
        assert!(stepped > 100);
    }
}
