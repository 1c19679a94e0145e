//! Any bytes as a value and as a tool result to fingerprint: the core must never panic, and a
//! result's fingerprint must equal that of its body canonicalized alone (see
//! `canonfuzz_props::ekl::fuzz::ekl_check`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../asan_options.rs"]
mod asan_options;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) = canonfuzz_props::ekl::fuzz::ekl_check(data) {
        panic!("{violation}");
    }
});
