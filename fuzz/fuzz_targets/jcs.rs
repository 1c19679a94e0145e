//! Any bytes into the canonicalizer: it must never panic, and whatever it accepts must come
//! out canonical (see `canonfuzz_props::jcs::properties::check_canonical`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../asan_options.rs"]
mod asan_options;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) = canonfuzz_props::jcs::properties::check_canonical(data) {
        panic!("{violation}");
    }
});
