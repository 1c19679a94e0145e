//! The worker programs of every family, carried in the binary (the Node, Python and Rust
//! workers with each family's files and the pinned lockfiles, from `diff/oracles`), and the
//! families' workers built from them: a worker made here finds its program whichever part of
//! the crate asks for it first.

use canonfuzz_engine::impls::oracles::Carried;
use canonfuzz_engine::impls::worker::WorkerImpl;
use canonfuzz_engine::impls::{hosted, worker, Implementation};

include!(concat!(env!("OUT_DIR"), "/oracle_files.rs"));

/// The workers of the registered families, as the engine unpacks and runs them.
pub static CARRIED: Carried = Carried {
    files: FILES,
    build_dir: env!("CANONFUZZ_BUILD_DIR"),
    version: env!("CARGO_PKG_VERSION"),
};

/// Makes these the worker programs of this process ([`canonfuzz_engine::impls::oracles::carry`]).
pub fn carry() {
    canonfuzz_engine::impls::oracles::carry(&CARRIED);
}

/// npm library (or Node built-in) `library` of `family` in the Node worker ([`worker::node`]).
pub fn node(
    family: &str,
    name: &'static str,
    library: &'static str,
    group: &'static str,
) -> WorkerImpl {
    carry();
    worker::node(family, name, library, group)
}

/// PyPI library `library` of `family` in the Python worker ([`worker::python`]).
pub fn python(
    family: &str,
    name: &'static str,
    library: &'static str,
    group: &'static str,
) -> WorkerImpl {
    carry();
    worker::python(family, name, library, group)
}

/// Rust library `library` of `family` in the isolated Rust worker ([`worker::rust`]).
pub fn rust(
    family: &str,
    name: &'static str,
    library: &'static str,
    group: &'static str,
) -> WorkerImpl {
    carry();
    worker::rust(family, name, library, group)
}

/// npm libraries of `family` hosted in one Node process ([`hosted::node`]).
pub fn hosted_node(
    family: &str,
    libraries: &[(&'static str, &'static str)],
    group: &'static str,
) -> Vec<Box<dyn Implementation>> {
    carry();
    hosted::node(family, libraries, group)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_binary_carries_every_tracked_worker_file() {
        // A file added to diff/oracles must be carried too, or an installed binary lacks it.
        let root = Path::new(env!("CANONFUZZ_ORACLES_SOURCE"));
        let carried: Vec<&str> = FILES.iter().map(|(p, _)| *p).collect();
        let listed = std::process::Command::new("git")
            .args(["ls-files", "."])
            .current_dir(root)
            .output()
            .unwrap();
        assert!(listed.status.success(), "git ls-files failed");
        let tracked: Vec<String> = String::from_utf8_lossy(&listed.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        for path in &tracked {
            assert!(carried.contains(&path.as_str()), "{path} is not carried");
        }
        assert_eq!(tracked.len(), carried.len());
        for &(path, bytes) in FILES {
            assert_eq!(std::fs::read(root.join(path)).unwrap(), bytes, "{path}");
        }
    }
}
