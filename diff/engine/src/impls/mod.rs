//! The implementations under comparison, behind one trait. Each family lists its own (in
//! `families/<name>/`, its in-process adapters beside them; JCS and Merkle ones in
//! `canonfuzz_props::impls`, which the fuzz targets share); Node and Python ones, and Rust
//! ones whose features would clash with the harness's, run as worker processes (`worker/`)
//! speaking a line protocol, from the programs `oracles.rs` finds.

pub mod hosted;
pub mod oracles;
mod rust_build;
pub mod setup;
pub mod worker;

pub use canonfuzz_props::impls::crypto_dependencies;
pub use canonfuzz_props::impls::{in_process, Implementation, Together, CORE_GROUP};

/// An implementation outside the harness, given as `NAME=COMMAND` or `NAME@GROUP=COMMAND`:
/// a command that speaks the worker protocol, voting in its own independence group (named
/// after it) unless another is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct External {
    /// The name it goes by in summaries and vectors.
    pub name: String,
    /// Its independence group.
    pub group: String,
    /// The command, run by `sh -c`.
    pub command: String,
}

impl External {
    /// Reads `NAME=COMMAND` or `NAME@GROUP=COMMAND`.
    pub fn parse(spec: &str) -> Result<External, String> {
        let usage = || {
            format!("{spec:?} is not NAME=COMMAND or NAME@GROUP=COMMAND (e.g. mine=\"python3 adapter.py\")")
        };
        let (label, command) = spec.split_once('=').ok_or_else(usage)?;
        let (name, group) = label.split_once('@').unwrap_or((label, label));
        let plain = |s: &str| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        };
        if !plain(name)
            || !plain(group)
            || command.trim().is_empty()
            || name == crate::compare::CORE
        {
            return Err(usage());
        }
        Ok(External {
            name: name.to_string(),
            group: group.to_string(),
            command: command.to_string(),
        })
    }

    /// The implementation: a worker running the command on inputs of `family`.
    pub fn implementation(&self, family: &str) -> Box<dyn Implementation> {
        Box::new(worker::external(
            family,
            &self.name,
            &self.group,
            &self.command,
        ))
    }
}

/// [`select`], then the external implementations `with` (answering inputs of `family`) after
/// the selected ones; an external one may not take a name already in use.
pub fn choose(
    family: &str,
    every: Vec<Box<dyn Implementation>>,
    select: &[String],
    with: &[External],
) -> Result<Vec<Box<dyn Implementation>>, String> {
    let mut chosen = self::select(every, select)?;
    for external in with {
        if chosen.iter().any(|i| i.name() == external.name) {
            return Err(format!(
                "--with {}: the name is taken; give the implementation another",
                external.name
            ));
        }
        chosen.push(external.implementation(family));
    }
    Ok(chosen)
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
