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
