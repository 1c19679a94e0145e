//! Planted mutants of the core: each is one family's core with one classic bug, standing in for
//! the core so that the self-test can show a campaign turns red on it. A mutant is the core's
//! answer changed where its bug bites and the core's answer everywhere else. Each family's
//! are in its folder (`families/<name>/mutants.rs`).

use crate::family::Family;
use crate::outcome::Outcome;

pub use crate::family::Mutant;

/// The mutant of `family` named `name`.
pub fn find(family: Family, name: &str) -> Option<&'static Mutant> {
    family.mutants().iter().find(|m| m.name == name)
}

/// A campaign input that is a JSON object with member `name` set to `value`; `None` when the
/// input is not an object.
pub fn with_member(input: &[u8], name: &str, value: serde_json::Value) -> Option<Vec<u8>> {
    let mut case: serde_json::Value = serde_json::from_slice(input).ok()?;
    case.as_object_mut()?.insert(name.to_string(), value);
    Some(case.to_string().into_bytes())
}

/// The answer `core` gives to the input with member `name` emptied: a computation that leaves
/// that field out. Inputs that are not objects are answered as they are.
pub fn without_member(input: &[u8], name: &str, core: fn(&[u8]) -> Outcome) -> Outcome {
    match with_member(input, name, serde_json::Value::from("")) {
        Some(emptied) => core(&emptied),
        None => core(input),
    }
}
