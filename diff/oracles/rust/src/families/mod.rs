//! The libraries the worker runs, one file per family: adding a library touches its
//! family's file and the manifest and lockfile only, and adding a family its file (the build
//! script declares every file of this folder and maps the family's name to its libraries).

use serde_json::Value;

/// One input's answer line.
pub type Answer = fn(&[u8]) -> Value;

include!(concat!(env!("OUT_DIR"), "/families.rs"));

/// The answer function of `family`'s library `name`.
pub fn library(family: &str, name: &str) -> Option<Answer> {
    libraries(family)?
        .iter()
        .find(|(library, _)| *library == name)
        .map(|&(_, answer)| answer)
}
