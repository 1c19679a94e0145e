//! The core against serde_jcs on the 1 MiB numbers document and on each kind of number it
//! mixes, alone, measured in pairs as the ratios bench measures (fifteen rounds of 40 ms
//! slices): the core's nanoseconds a number and the ratio, median and interquartile range.
//! Which kinds fall short of a ratio, and by how much, says where the number path's time goes.
//! `cargo run --release -p canonfuzz-benches --example number_kinds`

use std::process::ExitCode;
use std::time::Duration;

use canonfuzz_benches::canonicalizers::{contenders, CORE};
use canonfuzz_benches::paired::{measure, Spread};
use canonfuzz_benches::{numbers, numbers_of_kind, NUMBER_KINDS};

fn main() -> ExitCode {
    let mut pair: Vec<_> = contenders()
        .into_iter()
        .filter(|c| c.name == CORE || c.name == "serde_jcs")
        .collect();
    let alone = (0..)
        .zip(NUMBER_KINDS)
        .map(|(k, name)| (format!("{k}: {name}"), numbers_of_kind(1 << 20, k)));
    let mixed = ("all four, at random".to_string(), numbers(1 << 20));
    println!("{:<30} {:>10} {:>18}", "kind", "ns/number", "÷ serde_jcs");
    for (name, doc) in alone.chain(std::iter::once(mixed)) {
        let count = doc.iter().filter(|&&b| b == b',').count() + 1;
        let measured = match measure(&mut pair, &doc, 15, Duration::from_millis(40), || {}) {
            Ok(measured) => measured,
            Err(e) => {
                eprintln!("number_kinds: {name}: {e}");
                return ExitCode::from(2);
            }
        };
        let core = Spread::of(&measured.core);
        let ratio = measured.ratios.first().map(|r| Spread::of(r));
        let shown = ratio.map_or("—".to_string(), |r| {
            format!("{:.2}× ({:.1}-{:.1})", r.median, r.q1, r.q3)
        });
        println!(
            "{name:<30} {:>10.1} {shown:>18}",
            core.median * 1e9 / count as f64
        );
    }
    ExitCode::SUCCESS
}
