//! Any bytes as an INK Authorization header: the parser must never panic and must accept
//! exactly INK's header pattern (see `canonfuzz_props::ink::fuzz::ink_header_check`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../asan_options.rs"]
mod asan_options;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) = canonfuzz_props::ink::fuzz::ink_header_check(data) {
        panic!("{violation}");
    }
});
