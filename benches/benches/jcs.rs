//! Canonicalization throughput of the core against every in-process implementation in the
//! differential harness (serde_jcs, serde_json_canonicalizer, json-canon) and against the
//! floor every canonicalizer pays: serde_json's own parse + `to_vec`, on the same inputs — the
//! documented set at 1 KiB, 64 KiB and 1 MiB. Each implementation is timed alone; the ratios
//! between them come from the `ratios` bench, which interleaves them.

use canonfuzz_benches::canonicalizers::contenders;
use canonfuzz_benches::{DOCUMENTS, SIZES};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn canonicalization(c: &mut Criterion) {
    let mut contenders = contenders();
    for kind in DOCUMENTS {
        for (size_name, size) in SIZES {
            let doc = (kind.build)(size);
            let mut group = c.benchmark_group(format!("{}_{size_name}", kind.name));
            group.throughput(Throughput::Bytes(doc.len() as u64));
            for contender in &mut contenders {
                group.bench_function(contender.name, |b| {
                    b.iter(|| (contender.run)(black_box(&doc)))
                });
            }
            group.finish();
        }
    }
}

criterion_group!(benches, canonicalization);
criterion_main!(benches);
