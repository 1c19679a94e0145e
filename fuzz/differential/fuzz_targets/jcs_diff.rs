//! Structure-aware documents through the core and the in-process JCS crates; a disagreement
//! that the policy registry does not explain aborts with its signature
//! (see `canonfuzz_props::jcs::fuzz`). `canonfuzz triage` turns the artifact into a vector.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../asan_options.rs"]
mod asan_options;

fuzz_target!(|data: &[u8]| {
    let document = canonfuzz_props::jcs::fuzz::jcs_diff_document(data);
    if let Err(signature) = canonfuzz_props::jcs::fuzz::jcs_diff_check(&document) {
        panic!("the core diverges: {signature}");
    }
});
