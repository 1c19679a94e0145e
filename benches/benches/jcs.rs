//! Canonicalization throughput of the core against every in-process implementation in the
//! differential harness (serde_jcs, serde_json_canonicalizer, json-canon) and against the
//! floor every canonicalizer pays: serde_json's own parse + `to_vec`, on the same inputs — the
//! documented set at 1 KiB, 64 KiB and 1 MiB.

use canonfuzz_benches::DOCUMENTS;
use canonfuzz_core::jcs::Canonicalizer;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn parse(doc: &[u8]) -> Option<serde_json::Value> {
    serde_json::from_slice(doc).ok()
}

fn canonicalization(c: &mut Criterion) {
    for kind in DOCUMENTS {
        for (size_name, size) in [("1KiB", 1 << 10), ("64KiB", 64 << 10), ("1MiB", 1 << 20)] {
            let doc = (kind.build)(size);
            let mut group = c.benchmark_group(format!("{}_{size_name}", kind.name));
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
                b.iter(|| serde_jcs::to_vec(&parse(black_box(&doc))?).ok())
            });
            group.bench_function("serde_json_canonicalizer", |b| {
                b.iter(|| serde_json_canonicalizer::to_vec(&parse(black_box(&doc))?).ok())
            });
            group.bench_function("json_canon", |b| {
                b.iter(|| json_canon::to_vec(&parse(black_box(&doc))?).ok())
            });
            group.bench_function("serde_json_parse_to_vec", |b| {
                b.iter(|| serde_json::to_vec(&parse(black_box(&doc))?).ok())
            });
            group.finish();
        }
    }
}

criterion_group!(benches, canonicalization);
criterion_main!(benches);
