//! `canonfuzz`: the command line over the registered families ([`canonfuzz_diff::cli`]).

use std::process::ExitCode;

fn main() -> ExitCode {
    canonfuzz_diff::cli::main()
}
