//! What an imported vector records of where it came from: a note on a flag, the source it was
//! converted from, and the source's text as read. Every family's importer uses these, and
//! none of them knows the families.

use std::path::Path;

use crate::vector::{Note, Source};

/// A flag's note: the kind of bug it marks and what it means.
pub fn note(bug_type: &str, description: &str) -> Note {
    Note {
        bug_type: bug_type.to_string(),
        description: description.to_string(),
    }
}

/// The published source a vector file was converted from.
pub fn source(name: &str, url: &str, version: &str, license: &str) -> Source {
    Source {
        name: name.to_string(),
        url: Some(url.to_string()),
        version: Some(version.to_string()),
        license: Some(license.to_string()),
    }
}

/// A source file's text, within the input limit.
pub fn read_text(path: &Path) -> Result<String, String> {
    crate::input::read_text(path)
}
