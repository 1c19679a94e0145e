//! `completions` and `man`, generated from the command-line definitions, and `fields`, from the
//! families' field lists.

use std::io;
use std::path::Path;
use std::process::ExitCode;

use canonfuzz_diff::family::{fields_markdown, Family};

use crate::exit::usage_error;
use crate::Cli;

/// Writes the man pages generated from the command-line definitions.
pub(crate) fn man(out: Option<&Path>) -> ExitCode {
    let command = <Cli as clap::CommandFactory>::command();
    let written = match out {
        None => clap_mangen::Man::new(command).render(&mut io::stdout()),
        Some(dir) => {
            std::fs::create_dir_all(dir).and_then(|()| clap_mangen::generate_to(command, dir))
        }
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => usage_error(format!("cannot write the man page: {e}")),
    }
}

/// Prints the completion script for `shell`.
pub(crate) fn completions(shell: clap_complete::Shell) -> ExitCode {
    let mut command = <Cli as clap::CommandFactory>::command();
    clap_complete::generate(shell, &mut command, "canonfuzz", &mut io::stdout());
    ExitCode::SUCCESS
}

/// Prints the field list of one family, or of all.
pub(crate) fn fields(family: Option<&str>) -> ExitCode {
    let families = match family.map(Family::named).transpose() {
        Ok(Some(one)) => vec![one],
        Ok(None) => Family::all().to_vec(),
        Err(e) => return usage_error(e),
    };
    print!("{}", fields_markdown(&families));
    ExitCode::SUCCESS
}
