//! Verification throughput: salted fingerprints of MCP tool results, Ed25519 signatures under
//! keys seen for the first time, EdDSA JWS compact signatures, and whole verifiable-mcp
//! envelopes, per second, on the document set, Wycheproof's valid signatures and a published
//! signed response.

use canonfuzz_benches::{mixed_document, signed_response, valid_ed25519_signatures};
use canonfuzz_core::ed25519;
use canonfuzz_core::ekl::{fingerprint, Salt};
use canonfuzz_core::jws::{self, Jwks, Profile};
use canonfuzz_core::vmcp;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn fingerprints(c: &mut Criterion) {
    let salt = Salt::from_hex(&"5a".repeat(32)).expect("a 32-byte salt");
    let mut group = c.benchmark_group("fingerprint");
    for (size_name, size) in [("1KiB", 1 << 10), ("64KiB", 64 << 10)] {
        let result = mixed_document(size);
        group.throughput(Throughput::Elements(1));
        group.bench_function(size_name, |b| {
            b.iter(|| fingerprint(&salt, black_box(&result)).is_ok())
        });
    }
    group.finish();
}

fn signatures(c: &mut Criterion) {
    let (response, jwks, now) = signed_response().expect("corpus/vmcp/signed-responses.json");
    let clock = vmcp::Clock::at(now);
    let jwks = Jwks::parse(&jwks).expect("the vector's JWK set");
    let served = vmcp::served_parts(&response).expect("the vector's envelope");
    let profile = Profile {
        typ: Some(vmcp::TYP.to_string()),
    };
    assert!(vmcp::verify_response(&response, &jwks, clock).is_valid());
    let signatures = valid_ed25519_signatures().expect("corpus/ed25519/wycheproof.json");
    assert!(signatures
        .iter()
        .all(|[key, msg, sig]| ed25519::verify(key, msg, sig).is_ok()));
    let mut group = c.benchmark_group("verify");
    group.throughput(Throughput::Elements(signatures.len() as u64));
    group.bench_function("ed25519", |b| {
        b.iter(|| {
            signatures
                .iter()
                .all(|[key, msg, sig]| ed25519::verify(black_box(key), msg, sig).is_ok())
        })
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("jws", |b| {
        b.iter(|| jws::verify(black_box(&served.jws), &jwks, &profile).is_ok())
    });
    group.bench_function("vmcp_envelope", |b| {
        b.iter(|| vmcp::verify_response(black_box(&response), &jwks, clock).is_valid())
    });
    group.finish();
}

criterion_group!(benches, fingerprints, signatures);
criterion_main!(benches);
