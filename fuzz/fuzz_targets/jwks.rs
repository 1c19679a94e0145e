//! Any bytes as a JWK set: reading it must never panic, and a set read must be within the
//! core's bounds and hold the keys an independent JSON reader sees, each `kid` naming one key
//! (see `canonfuzz_props::jws::fuzz::jwks_check`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../asan_options.rs"]
mod asan_options;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) = canonfuzz_props::jws::fuzz::jwks_check(data) {
        panic!("{violation}");
    }
});
