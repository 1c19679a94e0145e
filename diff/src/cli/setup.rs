//! `canonfuzz setup`: the workers' runtimes installed ahead of a campaign, and per runtime
//! whether it is ready or what it needs.

use std::process::ExitCode;

use crate::escape::terminal;
use crate::impls::worker::{readiness, Readiness};
use crate::lines::{first_line, wrap};

/// Installs every runtime that is not yet, then prints one block per runtime; exits 1 when
/// one cannot run.
pub(crate) fn setup(verbose: bool) -> ExitCode {
    crate::workers::carry();
    let states = readiness();
    print!("{}", report(&states, verbose));
    match crate::impls::oracles::dir() {
        Ok(dir) => println!("workers: {}", terminal(&dir.display().to_string())),
        Err(why) => println!("workers: {}", terminal(&why)),
    }
    if states.iter().all(|s| s.state.is_ok()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Each runtime's line: ready and its version, or missing with the first line of why (all of
/// it with `verbose`) and what it needs.
fn report(states: &[Readiness], verbose: bool) -> String {
    let mut out = String::new();
    for state in states {
        match &state.state {
            Ok(version) => out.push_str(&wrap(&format!(
                "{:<7} ready: {}",
                state.runtime,
                terminal(first_line(version))
            ))),
            Err(why) => {
                let shown = if verbose {
                    why.as_str()
                } else {
                    first_line(why)
                };
                out.push_str(&wrap(&format!(
                    "{:<7} missing: {}",
                    state.runtime,
                    terminal(shown)
                )));
                out.push_str(&wrap(&format!(
                    "{:<7} needs {}",
                    state.runtime, state.needs
                )));
            }
        }
    }
    if !verbose && states.iter().any(|s| s.state.is_err()) {
        out.push_str("(canonfuzz setup -v shows each failure whole)\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_runtime_shows_the_first_line_of_why_and_what_it_needs() {
        let states = [
            Readiness {
                runtime: "node",
                needs: "Node 20",
                state: Ok("v20.11.1\n".to_string()),
            },
            Readiness {
                runtime: "rust",
                needs: "Rust stable (cargo and rustc on PATH) and crates.io",
                state: Err("cargo build failed: error: no network\nbacktrace:\n  0: x".to_string()),
            },
        ];
        let shown = report(&states, false);
        assert_eq!(
            shown,
            "node    ready: v20.11.1\n\
             rust    missing: cargo build failed: error: no network\n\
             rust    needs Rust stable (cargo and rustc on PATH) and crates.io\n\
             (canonfuzz setup -v shows each failure whole)\n"
        );
        assert!(report(&states, true).contains("backtrace"));
        assert!(shown.lines().all(|l| l.chars().count() <= 80), "{shown}");
    }
}
