//! Any bytes as a compact JWS against a fixed key set and a pinned key: the verifier must never
//! panic, and must never accept a token that does not verify or hand its caller other bytes
//! than the token's payload (see `canonfuzz_props::jws::fuzz::jws_check`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../asan_options.rs"]
mod asan_options;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) = canonfuzz_props::jws::fuzz::jws_check(data) {
        panic!("{violation}");
    }
});
