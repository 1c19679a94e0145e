//! The core putting a 1 MiB object's two members in order in place, with their lengths a
//! byte, a few hundred bytes, or nothing apart. The bytes are rotated, and a rotation whose
//! two sides differ by a little must run as fast as one whose sides are equal: the standard
//! library's rotation swaps such sides nearly a byte at a time.

use canonfuzz_benches::lopsided_members;
use canonfuzz_core::jcs::Canonicalizer;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn reorder(c: &mut Criterion) {
    let mut group = c.benchmark_group("reorder_1MiB");
    let mut core = Canonicalizer::default();
    let mut out = Vec::new();
    for difference in [0, 1, 300] {
        let doc = lopsided_members(1 << 20, difference);
        group.throughput(Throughput::Bytes(doc.len() as u64));
        group.bench_function(format!("core, sides {difference} bytes apart"), |b| {
            b.iter(|| {
                out.clear();
                core.canonicalize_into(black_box(&doc), &mut out)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, reorder);
criterion_main!(benches);
