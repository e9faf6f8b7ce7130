//! The audit body (`user= | ip= | op= {params} | ret=`) and its params, in every syntax Ozone
//! printed: any text gives a value or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oztrace_parser::audit::{parse_audit_body, parse_audit_prefix, parse_params};

fuzz_target!(|text: &str| {
    let _ = parse_audit_body(text);
    let _ = parse_audit_prefix(text);
    let _ = parse_params(text);
});
