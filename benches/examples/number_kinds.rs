//! Times the core on the 1 MiB numbers document and on each kind of number it mixes, alone:
//! nanoseconds a number, the lowest of five passes of fifty.
//! `cargo run --release -p canonfuzz-benches --example number_kinds`

use std::time::Instant;

use canonfuzz_benches::{numbers, numbers_of_kind, NUMBER_KINDS};
use canonfuzz_core::jcs::Canonicalizer;

fn main() {
    let mixed = ("all four, at random".to_string(), numbers(1 << 20));
    let alone = (0..)
        .zip(NUMBER_KINDS)
        .map(|(k, name)| (format!("{k}: {name}"), numbers_of_kind(1 << 20, k)));
    let mut canonicalizer = Canonicalizer::default();
    println!("{:<30} {:>10} {:>8}", "kind", "ns/number", "MiB/s");
    for (name, doc) in alone.chain(std::iter::once(mixed)) {
        let count = doc.iter().filter(|&&b| b == b',').count() + 1;
        let mut out = Vec::with_capacity(doc.len());
        let mut best = f64::MAX;
        for _ in 0..5 {
            let started = Instant::now();
            for _ in 0..50 {
                out.clear();
                if let Err(e) = canonicalizer.canonicalize_into(&doc, &mut out) {
                    eprintln!("{name}: {e}");
                    std::process::exit(1);
                }
            }
            best = best.min(started.elapsed().as_secs_f64() / 50.0);
        }
        let mib_s = doc.len() as f64 / best / f64::from(1 << 20);
        println!(
            "{name:<30} {:>10.1} {mib_s:>8.0}",
            best * 1e9 / count as f64
        );
    }
}
