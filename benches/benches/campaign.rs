//! Differential cases per second, per family: a batch of generated cases run through every
//! in-process implementation of the family and evaluated, the loop a campaign repeats.
//! Implementations in worker processes (Node, Python, the isolated Rust worker) are left out,
//! so the figure is the harness's own; `canonfuzz diff` reports the whole campaign's rate.

use canonfuzz_diff::campaign::Harness;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Cases per measured batch.
const BATCH: u64 = 256;

fn cases(c: &mut Criterion) {
    let mut group = c.benchmark_group("campaign");
    group.throughput(Throughput::Elements(BATCH));
    for &family in canonfuzz_diff::families::all() {
        let in_process = family
            .implementations()
            .into_iter()
            .filter(|i| i.in_process())
            .collect();
        let harness = Harness::with(family, in_process);
        let inputs: Vec<Vec<u8>> = (0..BATCH).map(|i| family.generate(1, i).1).collect();
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        group.bench_function(family.name(), |b| b.iter(|| harness.run(&refs).len()));
    }
    group.finish();
}

criterion_group!(benches, cases);
criterion_main!(benches);
