//! Canonicalization throughput of the core against serde_jcs and against the floor every
//! canonicalizer pays: serde_json's own parse + `to_vec`.

use canonfuzz_benches::mixed_document;
use canonfuzz_core::jcs::Canonicalizer;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn canonicalization(c: &mut Criterion) {
    for (name, size) in [
        ("mixed_1KiB", 1 << 10),
        ("mixed_64KiB", 64 << 10),
        ("mixed_1MiB", 1 << 20),
    ] {
        let doc = mixed_document(size);
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Bytes(doc.len() as u64));
        let mut canonicalizer = Canonicalizer::default();
        let mut out = Vec::with_capacity(doc.len());
        group.bench_function("canonfuzz_core", |b| {
            b.iter(|| {
                out.clear();
                canonicalizer
                    .canonicalize_into(black_box(&doc), &mut out)
                    .is_ok()
            })
        });
        group.bench_function("serde_jcs", |b| {
            b.iter(|| {
                let value: serde_json::Value = serde_json::from_slice(black_box(&doc)).ok()?;
                serde_jcs::to_vec(&value).ok()
            })
        });
        group.bench_function("serde_json_parse_to_vec", |b| {
            b.iter(|| {
                let value: serde_json::Value = serde_json::from_slice(black_box(&doc)).ok()?;
                serde_json::to_vec(&value).ok()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, canonicalization);
criterion_main!(benches);
