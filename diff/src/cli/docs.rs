//! `completions` and `man`, generated from the command-line definitions, and `fields`, from the
//! families' field lists.

use std::path::Path;
use std::process::ExitCode;

use crate::family::fields_markdown;

use crate::cli::exit::{print_bytes, usage_error};
use crate::cli::Cli;
use std::path::PathBuf;

/// The arguments of `canonfuzz completions`.
#[derive(clap::Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

/// The arguments of `canonfuzz fields`.
#[derive(clap::Args)]
pub(crate) struct FieldsArgs {
    /// One family only.
    #[arg(long, value_parser = crate::cli::list::family_values())]
    pub(crate) family: Option<String>,
}

/// The arguments of `canonfuzz man`.
#[derive(clap::Args)]
pub(crate) struct ManArgs {
    /// A directory for canonfuzz.1 and one canonfuzz-<command>.1 per command.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
}

/// Writes the man pages generated from the command-line definitions.
pub(crate) fn man(out: Option<&Path>) -> ExitCode {
    let command = <Cli as clap::CommandFactory>::command();
    let Some(dir) = out else {
        let mut page = Vec::new();
        return match clap_mangen::Man::new(command).render(&mut page) {
            Ok(()) => print_bytes(&page, "the man page"),
            Err(e) => usage_error(format!("cannot write the man page: {e}")),
        };
    };
    match std::fs::create_dir_all(dir).and_then(|()| clap_mangen::generate_to(command, dir)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => usage_error(format!("cannot write the man pages: {e}")),
    }
}

/// Prints the completion script for `shell`.
pub(crate) fn completions(shell: clap_complete::Shell) -> ExitCode {
    let mut command = <Cli as clap::CommandFactory>::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "canonfuzz", &mut script);
    print_bytes(&script, "the completion script")
}

/// Prints the field list of one family, or of all.
pub(crate) fn fields(family: Option<&str>) -> ExitCode {
    let families = match family.map(crate::families::named).transpose() {
        Ok(Some(one)) => vec![one],
        Ok(None) => crate::families::all().to_vec(),
        Err(e) => return usage_error(e),
    };
    print!("{}", fields_markdown(&families));
    ExitCode::SUCCESS
}
