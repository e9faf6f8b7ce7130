//! oztrace: finds known Apache Ozone distributed-systems bugs in cluster logs.

mod cli;
mod commands;
mod dataset;
mod export;
mod output;
mod query;
mod report;
mod sort;
mod when;

use clap::Parser;
use std::process::ExitCode;

/// Exit statuses (docs/cli-contract.md).
pub mod exit {
    pub const OK: u8 = 0;
    pub const FINDINGS: u8 = 1;
    pub const USAGE: u8 = 2;
    pub const UNREADABLE: u8 = 3;
    pub const INTERNAL: u8 = 4;
}

/// An error that ends a command, with the exit status it maps to.
#[derive(Debug)]
pub enum Failure {
    /// Bad arguments or configuration: nothing analysed.
    Usage(String),
    /// Something failed inside oztrace after it started analysing.
    Internal(String),
    /// Standard output was closed (`oztrace … | head`): the run ends quietly with 0.
    OutputClosed,
}

fn main() -> ExitCode {
    grow_heaps_whole();
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(Failure::Usage(message)) => {
            output::warn(&message);
            ExitCode::from(exit::USAGE)
        }
        Err(Failure::Internal(message)) => {
            output::warn(&format!("internal error: {message}"));
            ExitCode::from(exit::INTERNAL)
        }
        Err(Failure::OutputClosed) => ExitCode::from(exit::OK),
    }
}

/// glibc grows a thread's heap a few pages at a time, an `mprotect` call each; the threads that
/// type events (readers, the OM audit fold's builders) allocate most of a full read's memory.
/// A top pad of a whole heap (64 MiB, untouched until used) maps each heap in one call:
/// `scan --no-prefilter` of 1 GB merged in 1.75-1.9 s instead of 2.6 s, system time 2.6 s -> 1.65
/// s, peak RSS the same; the prefiltered scan, `stats` and `events` measured the same.
/// An mmap threshold of the largest a heap allows (32 MiB, fixed rather than glibc's rising
/// one) keeps blocks below it in the heaps, where freed memory is reused: the merge is carved
/// from the block the loader touched for it while the readers worked (`oztrace_analyzer::load`'s
/// warm heap). `events` peaks about 6 MB higher for it (38 -> 45 MB on 1 GB).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn grow_heaps_whole() {
    // SAFETY: mallopt only sets a parameter of glibc's allocator; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn grow_heaps_whole() {}
