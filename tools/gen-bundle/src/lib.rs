//! A seeded, deterministic generator of multi-host Ozone support bundles of a chosen size (MB to
//! several GB), in a chosen layout, rotated and gzipped as asked, with background traffic of a
//! healthy cluster and every sample bundle (each rule's bug and its look-alike) injected a chosen
//! number of times. Next to the logs: `EXPECTED.json` (every finding a scan must give: the
//! samples' EXPECTED.json with the injections' ids) and `INJECTIONS.json` (what went where).
//!
//! The `oztrace-gen` binary is its command line; `scripts/bench.sh` and the recall test use it.

mod background;
mod inject;
mod out;
mod rng;

pub use background::Layout;
pub use inject::{Expected, Injection};
pub use out::Gzip;

use background::Plan;
use out::Files;
use std::path::PathBuf;

/// What to generate.
#[derive(Debug, Clone)]
pub struct Options {
    /// The bundle folder to create (must not exist or be empty).
    pub out: PathBuf,
    /// Background bytes to write.
    pub size: u64,
    pub seed: u64,
    /// Datanodes of the background cluster (it also has 3 OMs and 3 SCMs).
    pub datanodes: usize,
    /// Hours of log time the background covers.
    pub hours: i64,
    pub layout: Layout,
    pub gzip: Gzip,
    /// Size at which a log file rotates.
    pub rotate: u64,
    /// How many times each sample is injected.
    pub inject: usize,
    /// The sample bundles to inject.
    pub samples: PathBuf,
}

impl Options {
    /// Defaults for a bundle at `out`: 100 MiB, seed 1, 12 datanodes over 72 hours, the file
    /// layout, gzipped rotations at 128 MiB, each sample injected once.
    pub fn new(out: PathBuf) -> Options {
        Options {
            out,
            size: 100 << 20,
            seed: 1,
            datanodes: 12,
            hours: 72,
            layout: Layout::File,
            gzip: Gzip::Rotated,
            rotate: 128 << 20,
            inject: 1,
            samples: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples")),
        }
    }
}

/// What a run wrote.
#[derive(Debug)]
pub struct Summary {
    pub background_bytes: u64,
    pub injections: Vec<Injection>,
    /// Samples left out because their settings disagree with the others'.
    pub skipped: Vec<String>,
}

impl Summary {
    pub fn expected(&self) -> impl Iterator<Item = &Expected> {
        self.injections.iter().flat_map(|i| &i.expected)
    }
}

/// 2026-08-20 00:00:00 UTC.
const START_MS: i64 = 1_787_184_000_000;

/// Writes the bundle.
pub fn generate(args: &Options) -> Result<Summary, String> {
    let at = |what: &'static str| {
        let out = args.out.display().to_string();
        move |e: std::io::Error| format!("{what} {out}: {e}")
    };
    if args.out.exists()
        && std::fs::read_dir(&args.out)
            .map_err(at("reading"))?
            .next()
            .is_some()
    {
        return Err(format!(
            "{} exists and is not empty: refusing to write into it",
            args.out.display()
        ));
    }
    let mut rng = rng::Rng::new(args.seed);
    let plan = Plan {
        start_ms: START_MS,
        duration_ms: args.hours.max(1) * 3_600_000,
        target_bytes: args.size,
        datanodes: args.datanodes,
        layout: args.layout,
    };
    let mut files = Files::new(args.rotate, args.gzip);
    background::generate(&args.out, &plan, &mut files, &mut rng).map_err(at("writing"))?;
    let background_bytes = files.total_bytes();
    files.finish().map_err(at("writing"))?;

    let samples = inject::samples(&args.samples)
        .map_err(|e| format!("reading samples {}: {e}", args.samples.display()))?;
    let (settings, usable, skipped) = inject::agreeing(&samples);
    out::write_file(
        &args.out.join("conf/ozone-site.xml"),
        inject::site_xml(&settings).as_bytes(),
        false,
    )
    .map_err(at("writing"))?;
    let total = usable.len() * args.inject;
    let start_day = background::date_of(START_MS);
    let mut injections = Vec::new();
    for round in 0..args.inject {
        for (i, sample) in usable.iter().enumerate() {
            let k = round * usable.len() + i;
            // Spread over the background's days, a day apart at most.
            let day_offset = (k as i64 * args.hours.max(24) / 24) / total.max(1) as i64;
            let day = start_day
                .checked_add(jiff::Span::new().days(day_offset))
                .map_err(|e| e.to_string())?;
            let gzip_all = args.gzip == Gzip::All;
            injections
                .push(inject::inject(sample, k, day, &args.out, gzip_all).map_err(at("writing"))?);
        }
    }
    let expected: Vec<&inject::Expected> = injections.iter().flat_map(|i| &i.expected).collect();
    let json = |value: serde_json::Result<String>| value.unwrap_or_else(|_| "[]".into()) + "\n";
    out::write_file(
        &args.out.join("EXPECTED.json"),
        json(serde_json::to_string_pretty(&expected)).as_bytes(),
        false,
    )
    .map_err(at("writing"))?;
    out::write_file(
        &args.out.join("INJECTIONS.json"),
        json(serde_json::to_string_pretty(&injections)).as_bytes(),
        false,
    )
    .map_err(at("writing"))?;
    Ok(Summary {
        background_bytes,
        injections,
        skipped: skipped.iter().map(|s| s.name.clone()).collect(),
    })
}
