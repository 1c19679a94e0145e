//! The implementations under comparison, behind one trait. In-process ones live in `rust.rs`;
//! Node and Python ones run as worker processes (`worker.rs`) speaking the `canon --jsonl`
//! line protocol.

mod core;
mod rust;
pub mod worker;

use crate::outcome::Outcome;

pub use self::core::{answer as core_answer, CoreImpl, CORE_GROUP};
pub use self::rust::{json_canon, serde_jcs, serde_json_canonicalizer};

/// A JCS canonicalizer under comparison.
pub trait Implementation: Send + Sync {
    /// A short stable name, used in signatures and vectors.
    fn name(&self) -> &str;
    /// The pinned version of the implementation.
    fn version(&self) -> String;
    /// Implementations sharing code (a parser, a number formatter) share a group; the
    /// consensus counts one vote per group.
    fn group(&self) -> &str;
    /// Canonicalizes each input; one outcome per input, in order.
    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome>;
    /// Whether the implementation runs inside this process; others are waited on from a
    /// thread of their own.
    fn in_process(&self) -> bool {
        true
    }
    /// Whether the implementation ran (a worker whose runtime is missing did not).
    fn available(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Every implementation the harness knows, the core first. `impls` selects by name; empty
/// selects all.
pub fn all(select: &[String]) -> Result<Vec<Box<dyn Implementation>>, String> {
    let every: Vec<Box<dyn Implementation>> = vec![
        Box::new(CoreImpl),
        Box::new(serde_jcs()),
        Box::new(serde_json_canonicalizer()),
        Box::new(json_canon()),
        Box::new(worker::node("node-canonicalize", "canonicalize")),
        Box::new(worker::node("node-json-canonicalize", "json-canonicalize")),
        Box::new(worker::python("python-rfc8785", "rfc8785")),
        Box::new(worker::python("python-jcs", "jcs")),
    ];
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
