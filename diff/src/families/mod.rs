//! The registered families, one folder each. To add one, write its folder (a `mod.rs` that
//! implements [`crate::family::Spec`], with its generator, implementations, policies and
//! mutants beside it) and add it to [`ALL`]. A program of its own can add families beside
//! these ([`register`]) and run the whole command line on them.

pub mod ed25519;
pub mod ekl;
pub mod ink;
pub mod jcs;
pub mod jws;
pub mod merkle;
pub mod vmcp;

use std::sync::OnceLock;

use crate::family::Family;
use crate::impls::Implementation;

/// Every family, in the order reports and `--family all` take them.
pub const ALL: &[Family] = &[
    jcs::FAMILY,
    ed25519::FAMILY,
    jws::FAMILY,
    vmcp::FAMILY,
    ekl::FAMILY,
    merkle::FAMILY,
    ink::FAMILY,
];

/// The families of this process: [`ALL`], and those a program adds with [`register`].
static REGISTRY: OnceLock<Vec<Family>> = OnceLock::new();

/// Every registered family: [`ALL`], then any a program added ([`register`]). The first call
/// fixes the list, and makes the families' worker programs this process's
/// ([`crate::workers::carry`]).
pub fn all() -> &'static [Family] {
    REGISTRY.get_or_init(built_in).as_slice()
}

/// Adds `more` to the families of this process, after [`ALL`]: for a program that builds the
/// `canonfuzz` command line ([`crate::cli::main`]) around families of its own. Refused once the
/// list has been read, or when a family's name or schema is already taken.
pub fn register(more: &[Family]) -> Result<(), String> {
    let mut families = built_in();
    for &family in more {
        if let Some(taken) = families
            .iter()
            .find(|f| f.name() == family.name() || f.schema() == family.schema())
        {
            return Err(format!(
                "the family {:?} (schema {:?}) clashes with the registered {:?}; give it a \
                 name and a schema of its own",
                family.name(),
                family.schema(),
                taken.name()
            ));
        }
        families.push(family);
    }
    REGISTRY.set(families).map_err(|_| {
        "the families were read before these were registered; register them first".to_string()
    })
}

/// [`ALL`], with their worker programs carried.
fn built_in() -> Vec<Family> {
    crate::workers::carry();
    ALL.to_vec()
}

/// The family with this name.
pub fn from_name(name: &str) -> Option<Family> {
    all().iter().copied().find(|f| f.name() == name)
}

/// The family a schema name belongs to.
pub fn from_schema(schema: &str) -> Option<Family> {
    all().iter().copied().find(|f| f.schema() == schema)
}

/// Every family's name, for `--family`.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|f| f.name()).collect()
}

/// The family with this name, or an error that lists the known ones.
pub fn named(name: &str) -> Result<Family, String> {
    from_name(name).ok_or_else(|| {
        format!(
            "unknown family {name:?}; choose one of: {}",
            names().join(", ")
        )
    })
}

/// The implementation `spec` names: a registered one by name (in `family`, or in the one
/// family that has it), or `NAME[@GROUP]=COMMAND`, a command of `family` (default JCS) that
/// speaks the worker protocol.
pub fn resolve(
    spec: &str,
    family: Option<Family>,
) -> Result<(Family, Box<dyn Implementation>), String> {
    if spec.contains('=') {
        let external = crate::impls::External::parse(spec)?;
        let family = family.unwrap_or(jcs::FAMILY);
        return Ok((family, external.implementation(family.name())));
    }
    let searched: Vec<Family> = family.map_or_else(|| all().to_vec(), |f| vec![f]);
    let mut found: Vec<(Family, Box<dyn Implementation>)> = searched
        .iter()
        .flat_map(|f| {
            f.implementations()
                .into_iter()
                .filter(|i| i.name() == spec)
                .map(|i| (*f, i))
        })
        .collect();
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(format!(
            "no implementation is named {spec:?}{}; give one a family lists (canonfuzz diff \
             --family F names them in its summary), or NAME=COMMAND for your own",
            family.map_or(String::new(), |f| format!(" in the {} family", f.name()))
        )),
        _ => Err(format!(
            "{spec:?} names an implementation in the families {}; choose one with --family",
            found
                .iter()
                .map(|(f, _)| f.name())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

#[cfg(test)]
mod tests;
