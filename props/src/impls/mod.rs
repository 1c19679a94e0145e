//! Implementations under comparison, behind one trait: the core's JCS and Merkle answers and
//! the in-process libraries the fuzz targets compare them with. The harness adds the rest.

pub mod in_process;
pub mod jcs;
pub mod merkle;

use crate::outcome::Outcome;
use crate::verdict::Member;

/// The independence group of the core (and of anything standing in for it).
pub const CORE_GROUP: &str = "canonfuzz-core";

/// An implementation under comparison: answers the inputs of one family.
pub trait Implementation: Send + Sync {
    /// A short stable name, used in signatures and vectors.
    fn name(&self) -> &str;
    /// The pinned version of the implementation.
    fn version(&self) -> String;
    /// Implementations sharing code (a parser, a number formatter, curve arithmetic) share a
    /// group; the consensus counts one vote per group.
    fn group(&self) -> &str;
    /// Answers each input; one outcome per input, in order.
    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome>;
    /// Whether the implementation runs inside this process; others are waited on from a
    /// thread of their own.
    fn in_process(&self) -> bool {
        true
    }
    /// How the implementation is fed its input, in words, when it says so itself (a command
    /// run over the worker protocol does).
    fn driven(&self) -> Option<String> {
        None
    }
    /// Whether the implementation ran (a worker whose runtime is missing did not).
    fn available(&self) -> Result<(), String> {
        Ok(())
    }
}

/// The members of a comparison over `impls`: each one's name and independence group.
pub fn members(impls: &[Box<dyn Implementation>]) -> Vec<Member> {
    impls
        .iter()
        .map(|i| Member {
            name: i.name().to_string(),
            group: i.group().to_string(),
        })
        .collect()
}
