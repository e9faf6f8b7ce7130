//! `oztrace-gen`: the command line of the bundle generator (see the library).
//!
//! `oztrace-gen --out /tmp/b --size 1G --inject 2`

use clap::Parser;
use oztrace_gen::{Gzip, Layout, Options};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "oztrace-gen",
    about = "Writes a generated Ozone support bundle"
)]
struct Args {
    /// The bundle folder to create (must not exist or be empty).
    #[arg(long)]
    out: PathBuf,
    /// Background bytes to write: `500M`, `1G`, `4G`, `64K`, or a byte count.
    #[arg(long, default_value = "100M", value_parser = parse_size)]
    size: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Datanodes of the background cluster (it also has 3 OMs and 3 SCMs).
    #[arg(long, default_value_t = 12)]
    datanodes: usize,
    /// Hours of log time the background covers (default: 72 per GiB of --size, at least 24, so
    /// a larger bundle is a longer run of the same cluster, as a real one is).
    #[arg(long)]
    hours: Option<i64>,
    #[arg(long, value_enum, default_value = "file")]
    layout: Layout,
    #[arg(long, value_enum, default_value = "rotated")]
    gzip: Gzip,
    /// Size at which a log file rotates.
    #[arg(long, default_value = "128M", value_parser = parse_size)]
    rotate: u64,
    /// How many times each sample (bug and look-alike) is injected.
    #[arg(long, default_value_t = 1)]
    inject: usize,
    /// The sample bundles to inject.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples"))]
    samples: PathBuf,
}

fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (number, unit) = match text.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}`: expected a size such as 500M or 1G"))?;
    let scale = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 1u64,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        _ => return Err(format!("`{text}`: unknown unit `{unit}`")),
    };
    Ok((value * scale as f64) as u64)
}

/// 72 hours of log time per GiB of background, at least a day.
fn hours_for(size: u64) -> i64 {
    ((size as f64 / (1u64 << 30) as f64) * 72.0)
        .round()
        .max(24.0) as i64
}

fn main() -> ExitCode {
    let args = Args::parse();
    let options = Options {
        out: args.out,
        size: args.size,
        seed: args.seed,
        datanodes: args.datanodes,
        hours: args.hours.unwrap_or_else(|| hours_for(args.size)),
        layout: args.layout,
        gzip: args.gzip,
        rotate: args.rotate,
        inject: args.inject,
        samples: args.samples,
    };
    match oztrace_gen::generate(&options) {
        Ok(summary) => {
            for name in &summary.skipped {
                eprintln!(
                    "oztrace-gen: not injecting {name}: its ozone-site.xml disagrees with the other samples'"
                );
            }
            eprintln!(
                "oztrace-gen: {} MiB of background, {} injections ({} findings expected) in {}",
                summary.background_bytes >> 20,
                summary.injections.len(),
                summary.expected().count(),
                options.out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("oztrace-gen: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_units() {
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("500M"), Ok(500 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("4X").is_err());
    }

    #[test]
    fn the_time_span_grows_with_the_size() {
        assert_eq!(hours_for(1 << 30), 72);
        assert_eq!(hours_for(4 << 30), 288);
        assert_eq!(hours_for(64 << 20), 24);
    }
}
