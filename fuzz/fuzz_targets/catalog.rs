//! Catalogue dispatch: every record of any stream, typed as the component the first byte picks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oztrace_parser::catalog::classify;
use oztrace_parser::record::{ReadOptions, read_records};
use oztrace_parser::source::Component;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, stream)) = data.split_first() else {
        return;
    };
    let component = Component::ALL[usize::from(pick) % Component::ALL.len()];
    read_records(&mut &stream[..], &ReadOptions::default(), &mut |record| {
        let _ = classify(&record, component);
    });
});
