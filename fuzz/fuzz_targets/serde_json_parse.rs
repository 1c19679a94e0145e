//! The baseline the `jcs` target's speed is measured against: serde_json parsing the same
//! bytes into a `Value`, with no checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../asan_options.rs"]
mod asan_options;

fuzz_target!(|data: &[u8]| {
    let _ = serde_json::from_slice::<serde_json::Value>(data);
});
