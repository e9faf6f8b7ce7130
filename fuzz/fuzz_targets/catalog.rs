//! Catalogue dispatch: every record of any stream, typed as the component the first byte picks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oztrace_parser::catalog::classify;
use oztrace_parser::record::{ReadOptions, read_records};
use oztrace_parser::source::Component;

const COMPONENTS: [Component; 12] = [
    Component::Om,
    Component::Scm,
    Component::Datanode,
    Component::Recon,
    Component::S3g,
    Component::OmAudit,
    Component::OmSysAudit,
    Component::ScmAudit,
    Component::DnAudit,
    Component::DnContainer,
    Component::Client,
    Component::Unknown,
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, stream)) = data.split_first() else {
        return;
    };
    let component = COMPONENTS[usize::from(pick) % COMPONENTS.len()];
    read_records(&mut &stream[..], &ReadOptions::default(), &mut |record| {
        let _ = classify(&record, component);
    });
});
