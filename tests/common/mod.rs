//! What the integration tests share.
// Each test binary compiles this module and uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every sample bundle (a folder of `samples/` with an EXPECTED.json), sorted.
pub fn samples() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("samples/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("EXPECTED.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// The order of the contract's confidence words.
pub fn rank(confidence: &str) -> u8 {
    match confidence {
        "possible" => 1,
        "likely" => 2,
        "confirmed" => 3,
        other => panic!("unknown confidence {other}"),
    }
}
