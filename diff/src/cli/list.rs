//! `canonfuzz list`: the families a campaign can run and the implementations each compares,
//! with their versions, independence groups and how they are run, and the mutants each can
//! plant.

use std::process::ExitCode;

use crate::escape::terminal;
use crate::summary::clip;
use clap::ValueEnum;

use crate::cli::exit::usage_error;

/// The arguments of `canonfuzz list`.
#[derive(clap::Args)]
pub(crate) struct ListArgs {
    /// What to list.
    #[arg(value_enum, default_value = "families")]
    pub(crate) what: What,
    /// Of this family only.
    #[arg(long, value_parser = family_values())]
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
    /// Each family's cargo-fuzz targets: one a line, the target, the family, `checks` (a
    /// property the nightly campaign and ClusterFuzzLite run) or `baseline` (speed only), and
    /// the cargo-fuzz directory it builds in.
    FuzzTargets,
    /// The nightly campaign's plan: one a line, the family, its weight in the differential
    /// budget and the cases per second a small CI runner manages.
    Nightly,
}

/// The widest a column of names is printed, so that a line fits 80 columns.
const NAME: usize = 26;
/// The widest a version is printed.
const VERSION: usize = 22;

/// Lists `what`, of `family` alone when one is given.
pub(crate) fn list(what: What, family: Option<&str>) -> ExitCode {
    let families = match family.map(crate::families::named).transpose() {
        Ok(Some(f)) => vec![f],
        Ok(None) => crate::families::all().to_vec(),
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
            let mut not_set_up = false;
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
                    let version = i.version();
                    not_set_up |= version.contains(crate::impls::worker::NOT_SET_UP);
                    println!(
                        "  {:<NAME$} {:<VERSION$} {:<16} {how}",
                        clip(&terminal(i.name()), NAME),
                        clip(&terminal(&version), VERSION),
                        clip(&terminal(i.group()), 16),
                    );
                }
            }
            if not_set_up {
                println!("\nnot set up: canonfuzz setup installs what is missing, or says what");
                println!("it needs");
            }
        }
        What::Mutants => {
            for f in &families {
                for m in f.mutants() {
                    println!("{} {}: {}", f.name(), m.name, m.bug);
                }
            }
        }
        What::FuzzTargets => {
            for f in &families {
                for t in f.fuzz_targets() {
                    let kind = if t.baseline { "baseline" } else { "checks" };
                    println!("{} {} {kind} {}", t.name, f.name(), t.dir);
                }
            }
        }
        What::Nightly => {
            for f in &families {
                let facts = f.facts();
                println!(
                    "{} {} {}",
                    f.name(),
                    facts.nightly_weight,
                    facts.nightly_rate
                );
            }
        }
    }
    ExitCode::SUCCESS
}

/// The values `--family` takes: every registered family, each with what its implementations
/// are, so that help lists them as the registry does.
pub(crate) fn family_values() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        crate::families::all()
            .iter()
            .map(|f| clap::builder::PossibleValue::new(f.name()).help(f.title())),
    )
}
