//! Records the commit the harness is built from, for the report's provenance header.

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["describe", "--always", "--dirty", "--abbrev=12"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "unknown (not built from a git checkout)".to_string());
    println!("cargo:rustc-env=CANONFUZZ_COMMIT={commit}");
    for watched in ["../.git/HEAD", "../.git/index", "../.git/refs/heads"] {
        println!("cargo:rerun-if-changed={watched}");
    }
}
