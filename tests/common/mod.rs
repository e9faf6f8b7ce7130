//! What the integration tests share.
// Each test binary compiles this module and uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Far above what any run needs on a loaded 2-core machine: reaching it means a hang.
pub const HANG: Duration = Duration::from_secs(120);

pub fn oztrace() -> Command {
    Command::new(env!("CARGO_BIN_EXE_oztrace"))
}

/// Waits for `child`, killing it and failing the test if it runs past [`HANG`].
pub fn finish(mut child: Child, what: &str) -> Output {
    let start = Instant::now();
    loop {
        match child.try_wait().expect("wait") {
            Some(_) => return child.wait_with_output().expect("output"),
            None if start.elapsed() > HANG => {
                let _ = child.kill();
                panic!("{what}: still running after {HANG:?}: a hang");
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// Runs oztrace with standard output a pipe whose reading end is closed at once.
pub fn closed_pipe(args: &[&str]) -> Output {
    let mut child = oztrace()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    finish(child, &args.join(" "))
}

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
