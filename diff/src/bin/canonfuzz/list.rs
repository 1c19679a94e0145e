//! `canonfuzz list`: the families a campaign can run and the implementations each compares,
//! with their versions, independence groups and how they are run, and the mutants each can
//! plant.

use std::process::ExitCode;

use canonfuzz_diff::escape::terminal;
use canonfuzz_diff::summary::clip;
use clap::ValueEnum;

use crate::exit::usage_error;
use clap::builder::PossibleValuesParser;

/// The arguments of `canonfuzz list`.
#[derive(clap::Args)]
pub(crate) struct ListArgs {
    /// What to list.
    #[arg(value_enum, default_value = "families")]
    pub(crate) what: What,
    /// Of this family only.
    #[arg(long, value_parser = PossibleValuesParser::new(canonfuzz_diff::families::names()))]
    pub(crate) family: Option<String>,
}

/// What `list` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum What {
    /// Each family: its name, what it compares and how many implementations.
    Families,
    /// Each implementation of each family: version, independence group, how it runs.
    Implementations,
    /// Each family's planted mutants, which `diff --plant` and the self-test put in the
    /// core's place: one a line, the family, the name and the bug.
    Mutants,
}

/// The widest a column of names is printed, so that a line fits 80 columns.
const NAME: usize = 26;
/// The widest a version is printed.
const VERSION: usize = 22;

/// Lists `what`, of `family` alone when one is given.
pub(crate) fn list(what: What, family: Option<&str>) -> ExitCode {
    let families = match family.map(canonfuzz_diff::families::named).transpose() {
        Ok(Some(f)) => vec![f],
        Ok(None) => canonfuzz_diff::families::all().to_vec(),
        Err(e) => return usage_error(e),
    };
    match what {
        What::Families => {
            println!("{:<8} {:>5}  compares", "family", "impls");
            for f in &families {
                println!(
                    "{:<8} {:>5}  {}",
                    f.name(),
                    f.implementations().len(),
                    f.title()
                );
            }
        }
        What::Implementations => {
            for (k, f) in families.iter().enumerate() {
                if k > 0 {
                    println!();
                }
                println!("{} ({})", f.name(), f.title());
                for i in f.implementations() {
                    let how = if i.in_process() {
                        "in process"
                    } else {
                        "worker"
                    };
                    println!(
                        "  {:<NAME$} {:<VERSION$} {:<16} {how}",
                        clip(&terminal(i.name()), NAME),
                        clip(&terminal(&i.version()), VERSION),
                        clip(&terminal(i.group()), 16),
                    );
                }
            }
        }
        What::Mutants => {
            for f in &families {
                for m in f.mutants() {
                    println!("{} {}: {}", f.name(), m.name, m.bug);
                }
            }
        }
    }
    ExitCode::SUCCESS
}

/// The values `--family` takes: every registered family, each with what its implementations
/// are, so that help lists them as the registry does.
pub(crate) fn family_values() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        canonfuzz_diff::families::all()
            .iter()
            .map(|f| clap::builder::PossibleValue::new(f.name()).help(f.title())),
    )
}
