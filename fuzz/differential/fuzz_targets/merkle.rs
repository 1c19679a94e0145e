//! Any bytes as a Merkle case (root, inclusion or consistency proof): the core must never
//! panic and must agree with ct-merkle wherever no registered policy says otherwise (see
//! `canonfuzz_props::merkle::fuzz::merkle_check`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../asan_options.rs"]
mod asan_options;

fuzz_target!(|data: &[u8]| {
    if let Err(signature) = canonfuzz_props::merkle::fuzz::merkle_check(data) {
        panic!("{signature}");
    }
});
