//! The implementations under comparison, behind one trait. Each family lists its own (in
//! `families/<name>/`, its in-process adapters beside them; JCS and Merkle ones in
//! `canonfuzz_props::impls`, which the fuzz targets share); Node and Python ones, and Rust
//! ones whose features would clash with the harness's, run as worker processes (`worker.rs`)
//! speaking a line protocol, from the programs `oracles.rs` finds.

pub mod oracles;
pub mod worker;

pub use canonfuzz_props::impls::jcs::{answer as core_answer, rust_crates, CoreImpl};
pub use canonfuzz_props::impls::{in_process, merkle, Implementation, CORE_GROUP};

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
