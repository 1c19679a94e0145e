//! Implementations under comparison, behind one trait; each family's folder holds its own
//! in-process ones, and the harness adds the rest.

pub mod in_process;

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
    /// What the implementation computes with underneath (its crypto library and version),
    /// for the report's provenance, when known.
    fn uses(&self) -> Option<String> {
        None
    }
    /// How the implementation is fed its input, in words, when it says so itself (a command
    /// run over the worker protocol does).
    fn driven(&self) -> Option<String> {
        None
    }
    /// The command line run over the worker protocol, for an implementation given as one:
    /// what a report's reproduction runs.
    fn command(&self) -> Option<String> {
        None
    }
    /// Whether the implementation ran (a worker whose runtime is missing did not).
    fn available(&self) -> Result<(), String> {
        Ok(())
    }
    /// The CPU time its own processes have used so far, when it runs in processes of its own
    /// whose time can be read: what it costs, apart from the harness and from whatever else
    /// shares the machine.
    fn cpu(&self) -> Option<std::time::Duration> {
        None
    }
    /// Why the implementation was taken out of the comparison while it ran (a worker that
    /// answered too many inputs in a row with lines that are not the protocol), if it was:
    /// from then on its answers are unsupported, and a campaign stops unless told to go on
    /// without it.
    fn taken_out(&self) -> Option<String> {
        None
    }
    /// The host that answers this implementation's inputs together with other
    /// implementations', and this one's place among them, when one does: asked of all its
    /// implementations at once, a host reads each input once for every one of them.
    fn together(&self) -> Option<(&dyn Together, usize)> {
        None
    }
}

/// Several implementations answered by one process, each input asked once for all of them.
pub trait Together: Send + Sync {
    /// How many implementations it answers for.
    fn width(&self) -> usize;
    /// Every input's outcomes, one per implementation in place order.
    fn run_together(&self, inputs: &[&[u8]]) -> Vec<Vec<Outcome>>;
}

/// Crates that do an implementation's cryptography, as `uses` names them.
const CRYPTO_CRATES: [&str; 7] = [
    "aws-lc-rs",
    "curve25519-dalek",
    "ed25519-compact",
    "ed25519-dalek",
    "openssl",
    "ring",
    "sha2",
];

/// The crypto crates that `krate` (at `version`, or its only version) depends on in the
/// Cargo.lock text `lock`, each as `name version`.
pub fn crypto_dependencies(lock: &str, krate: &str, version: Option<&str>) -> Vec<String> {
    // Each package: its name, version and dependency entries (`name` or `name version ...`).
    let packages: Vec<(&str, &str, Vec<&str>)> = lock
        .split("[[package]]")
        .filter_map(|block| {
            let field = |key: &str| {
                block.lines().find_map(|l| {
                    l.strip_prefix(key)
                        .and_then(|rest| rest.trim().strip_prefix('='))
                        .map(|v| v.trim().trim_matches('"'))
                })
            };
            let dependencies = block
                .split_once("dependencies = [")
                .map(|(_, rest)| rest.split(']').next().unwrap_or_default())
                .map(|list| {
                    list.lines()
                        .map(|l| l.trim().trim_end_matches(',').trim_matches('"'))
                        .filter(|l| !l.is_empty())
                        .collect()
                })
                .unwrap_or_default();
            Some((field("name ")?, field("version ")?, dependencies))
        })
        .collect();
    let Some((_, _, dependencies)) = packages
        .iter()
        .find(|(n, v, _)| *n == krate && version.is_none_or(|want| want == *v))
    else {
        return Vec::new();
    };
    dependencies
        .iter()
        .filter_map(|entry| {
            let mut parts = entry.split_whitespace();
            let name = parts.next()?;
            if !CRYPTO_CRATES.contains(&name) {
                return None;
            }
            let version = match parts.next() {
                Some(v) => v,
                None => packages.iter().find(|(n, _, _)| *n == name)?.1,
            };
            Some(format!("{name} {version}"))
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::crypto_dependencies;

    #[test]
    fn the_crypto_crates_under_a_crate_are_read_from_its_lockfile_entry() {
        let lock = r#"
[[package]]
name = "jwt"
version = "1.0.0"
dependencies = [
 "ed25519-dalek",
 "ring 0.17.14",
 "serde",
]

[[package]]
name = "jwt"
version = "2.0.0"
dependencies = [
 "aws-lc-rs",
]

[[package]]
name = "ed25519-dalek"
version = "2.2.0"
"#;
        assert_eq!(
            crypto_dependencies(lock, "jwt", Some("1.0.0")),
            ["ed25519-dalek 2.2.0", "ring 0.17.14"]
        );
        assert!(crypto_dependencies(lock, "jwt", Some("3.0.0")).is_empty());
        assert!(crypto_dependencies(lock, "ed25519-dalek", None).is_empty());
        // The real lockfile: jsonwebtoken 12 verifies with ed25519-dalek, 9 with ring.
        let real = include_str!("../../../Cargo.lock");
        let twelve = crypto_dependencies(real, "jsonwebtoken", Some("12.0.0"));
        assert!(
            twelve.iter().any(|c| c.starts_with("ed25519-dalek ")),
            "{twelve:?}"
        );
        let nine = crypto_dependencies(real, "jsonwebtoken", Some("9.3.1"));
        assert!(nine.iter().any(|c| c.starts_with("ring ")), "{nine:?}");
    }
}
