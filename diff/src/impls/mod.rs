//! The implementations under comparison, behind one trait, by family. In-process libraries
//! are adapted in `ed25519.rs` and `jws.rs` (JCS and Merkle in `canonfuzz_props::impls`);
//! Node and Python ones, and Rust ones whose features would clash with the harness's, run as
//! worker processes (`worker.rs`) speaking a line protocol, from the programs `oracles.rs`
//! finds.

pub mod ed25519;
pub mod ekl;
pub mod ink;
pub mod jws;
pub mod oracles;
pub mod vmcp;
pub mod worker;

pub use canonfuzz_props::impls::jcs::{answer as core_answer, rust_crates, CoreImpl};
pub use canonfuzz_props::impls::{in_process, merkle, Implementation, CORE_GROUP};

/// Every JCS canonicalizer, the core first.
pub fn jcs() -> Vec<Box<dyn Implementation>> {
    let mut every: Vec<Box<dyn Implementation>> = vec![Box::new(CoreImpl)];
    every.extend(rust_crates());
    every.extend([
        Box::new(worker::node("node-canonicalize", "canonicalize", "node-v8"))
            as Box<dyn Implementation>,
        Box::new(worker::node(
            "node-json-canonicalize",
            "json-canonicalize",
            "node-v8",
        )),
        Box::new(worker::python("python-rfc8785", "rfc8785", "cpython")),
        Box::new(worker::python("python-jcs", "jcs", "cpython")),
    ]);
    every
}

/// Every Ed25519 verifier, the core first.
pub fn ed25519() -> Vec<Box<dyn Implementation>> {
    vec![
        Box::new(ed25519::core()),
        Box::new(ed25519::dalek_verify()),
        Box::new(ed25519::dalek_verify_strict()),
        Box::new(ed25519::zebra()),
        Box::new(ed25519::compact()),
        Box::new(ed25519::ring()),
        Box::new(worker::node("node-crypto", "crypto", "openssl")),
        Box::new(worker::node("noble-ed25519", "@noble/ed25519", "noble")),
        Box::new(worker::python("pynacl", "pynacl", ed25519::LIBSODIUM_GROUP)),
    ]
}

/// Every JWS verifier, the core first.
pub fn jws() -> Vec<Box<dyn Implementation>> {
    vec![
        Box::new(jws::core()),
        Box::new(jws::jsonwebtoken_rust_crypto()),
        Box::new(jws::jsonwebtoken_ring()),
        Box::new(jws::jwt_simple()),
        Box::new(worker::rust(
            "jsonwebtoken-aws_lc_rs",
            "jsonwebtoken-aws_lc_rs",
            "jsonwebtoken",
        )),
        Box::new(worker::rust("josekit", "josekit", "josekit")),
        Box::new(worker::node("jose", "jose", "panva-jose")),
        Box::new(worker::python("jwcrypto", "jwcrypto", "jwcrypto")),
        Box::new(worker::python("pyjwt", "pyjwt", "pyjwt")),
        Box::new(worker::python("joserfc", "joserfc", "joserfc")),
    ]
}

/// Every adapter-profile implementation, the core first.
pub fn ekl() -> Vec<Box<dyn Implementation>> {
    vec![
        Box::new(ekl::core()),
        Box::new(worker::python("python-ekl", "ekl", "cpython")),
        Box::new(worker::node("node-ekl", "ekl", "node-v8")),
    ]
}

/// Every INK leaf-hash and signature-base implementation, the core first.
pub fn ink() -> Vec<Box<dyn Implementation>> {
    vec![
        Box::new(ink::core()),
        Box::new(worker::python("python-ink", "ink", "cpython")),
        Box::new(worker::node("node-ink", "ink", "node-v8")),
    ]
}

/// Every verifiable-mcp response verifier, the core first.
pub fn vmcp() -> Vec<Box<dyn Implementation>> {
    vec![
        Box::new(vmcp::core()),
        Box::new(worker::node("node-vmcp", "vmcp", "node-v8")),
        Box::new(worker::python("python-vmcp", "vmcp", "cpython")),
    ]
}

/// Every Merkle tree and proof verifier, the core first.
pub fn merkle() -> Vec<Box<dyn Implementation>> {
    vec![
        Box::new(merkle::core()),
        Box::new(merkle::ct_merkle()),
        Box::new(worker::python("pymerkle", "pymerkle", "pymerkle")),
    ]
}

/// The implementations of `every` named in `select` (empty selects all), the core always
/// first; an unknown name is an error that lists the known ones.
pub fn select(
    every: Vec<Box<dyn Implementation>>,
    select: &[String],
) -> Result<Vec<Box<dyn Implementation>>, String> {
    if select.is_empty() {
        return Ok(every);
    }
    for name in select {
        if !every.iter().any(|i| i.name() == name) {
            let known: Vec<&str> = every.iter().map(|i| i.name()).collect();
            return Err(format!(
                "unknown implementation {name:?}; known: {}",
                known.join(", ")
            ));
        }
    }
    Ok(every
        .into_iter()
        .filter(|i| i.name() == "core" || select.iter().any(|s| s == i.name()))
        .collect())
}
