//! Any bytes as an MCP response through the verifiable-mcp verifier: it must never panic, and
//! must never call valid a response whose client would read something the signature does not
//! cover (see `canonfuzz_props::vmcp::fuzz::vmcp_check`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../asan_options.rs"]
mod asan_options;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) = canonfuzz_props::vmcp::fuzz::vmcp_check(data) {
        panic!("{violation}");
    }
});
