//! `diff` and `selftest`: a differential campaign, and the proof that one can turn red.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use crate::campaign::{self, Config, Status};
use crate::family::Family;
use crate::{selftest, summary};

use crate::cli::exit::{rejected, usage_error};
use crate::cli::inputs::corpus_dir;
use crate::impls::External;
use crate::mutants::{self, Mutant};
use std::path::PathBuf;
use std::time::Duration;

/// The arguments of `canonfuzz diff`.
#[derive(clap::Args)]
pub(crate) struct DiffArgs {
    /// The family of inputs (`canonfuzz list families` says what each covers).
    #[arg(long, default_value = "jcs", value_parser = crate::cli::list::family_values())]
    pub(crate) family: String,
    /// Number of cases to run (default 100,000 when --duration is not given either).
    #[arg(long, value_name = "N", conflicts_with = "duration")]
    pub(crate) cases: Option<u64>,
    /// Run for this long instead: e.g. 90s, 10m, 1h.
    #[arg(long, value_name = "D", value_parser = parse_duration)]
    pub(crate) duration: Option<Duration>,
    /// The seed every input derives from.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// Batches in flight (default: twice the cores, since a batch waits on its workers),
    /// and at most as many processes per external implementation: one, and another for
    /// each batch that has waited a second for those running. Findings are minimized
    /// on twice as many threads, as each waits on one worker at a time.
    #[arg(long, value_name = "J")]
    pub(crate) jobs: Option<usize>,
    /// Compare the core with these implementations only (comma-separated names).
    #[arg(long, value_name = "a,b,...", value_delimiter = ',')]
    pub(crate) impls: Vec<String>,
    /// Also compare an implementation outside canonfuzz: a command that speaks the worker
    /// protocol (docs/worker-protocol.md), in its own independence group
    /// unless NAME@GROUP names one. Repeatable.
    #[arg(long = "with", value_name = "NAME[@GROUP]=COMMAND", value_parser = External::parse)]
    pub(crate) with: Vec<External>,
    /// Corpus directory findings are saved into (default: the repository's corpus/; with
    /// --with, none unless this is given).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Save no vectors.
    #[arg(long, conflicts_with = "out")]
    pub(crate) no_save: bool,
    /// Run shard I of N: the cases whose index is I modulo N.
    #[arg(long, value_name = "I/N", value_parser = parse_shard, default_value = "0/1")]
    pub(crate) shard: (u64, u64),
    /// Also write the summary as JSON to FILE (`-`: standard output, the summary for
    /// people then going to standard error).
    #[arg(long, value_name = "FILE")]
    pub(crate) summary_json: Option<PathBuf>,
    /// Compare without implementations that cannot run here instead of failing for want
    /// of a quorum (exit 2); the summary names the groups that did not vote.
    #[arg(long)]
    pub(crate) allow_missing: bool,
    /// Show the bugs of this implementation only (its own and those of the layer it is
    /// driven through).
    #[arg(long, value_name = "NAME")]
    pub(crate) only: Option<String>,
    /// Plant one of the self-test's mutants (`canonfuzz list mutants` lists them) in the core's
    /// place, to see that these settings turn red on a known bug: the campaign should exit
    /// 1. Saves nothing.
    #[arg(long, value_name = "MUTANT", conflicts_with = "out")]
    pub(crate) plant: Option<String>,
    /// Ask every implementation every case, at the pace of the slowest. By default the
    /// workers answer at their own pace: every case on which the answers disagree, and a
    /// sample of the rest spread over the generator's categories (see docs/pacing.md).
    #[arg(long)]
    pub(crate) every_case: bool,
    /// Stop at the first case on which the core diverges, rather than run every case: the
    /// campaign then exits 1 with what it found so far.
    #[arg(long)]
    pub(crate) fail_fast: bool,
}

/// The arguments of `canonfuzz selftest`.
#[derive(clap::Args)]
pub(crate) struct SelftestArgs {
    /// Print the results as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// The seed the cases derive from.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// Only these families (repeatable; default every family).
    #[arg(long = "family", value_name = "F")]
    pub(crate) families: Vec<String>,
}

/// The summary as JSON, into `path` or onto stdout.
fn write_json(path: &Path, to_stdout: bool, json: &serde_json::Value) -> Result<(), String> {
    let mut text = serde_json::to_vec_pretty(json).unwrap_or_default();
    text.push(b'\n');
    if !to_stdout {
        return crate::vector::write_atomically(path, &text);
    }
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&text).and_then(|()| stdout.flush()) {
        Err(e) if !crate::cli::exit::reader_gone(&e) => Err(format!("stdout: {e}")),
        _ => Ok(()),
    }
}

pub(crate) fn diff(
    config: &Config,
    summary_json: Option<&Path>,
    detail: summary::Detail,
    only: Option<&str>,
) -> ExitCode {
    // The first Ctrl-C ends the campaign with a summary of what ran; a second ends the process.
    let _ = ctrlc::set_handler(|| {
        if campaign::INTERRUPTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
            std::process::exit(130);
        }
        eprintln!("\ncanonfuzz: interrupted; finishing the summary (Ctrl-C again to quit now)");
    });
    let summary = match campaign::run(config) {
        Ok(s) => s,
        Err(e) => return usage_error(format!("the campaign failed: {e}")),
    };
    let to_stdout = summary_json.is_some_and(|p| p == Path::new("-"));
    let human = |text: &str| {
        if to_stdout {
            eprint!("{text}");
        } else {
            print!("{text}");
        }
    };
    let terminal = if to_stdout {
        std::io::stderr().is_terminal()
    } else {
        std::io::stdout().is_terminal()
    };
    human(&summary::render(
        &summary,
        detail,
        summary::Paint::for_terminal(terminal),
        only,
    ));
    if let Some(out) = &config.out {
        if summary.findings.iter().any(|f| f.new && f.vector.is_some()) {
            let folder = out.join(config.family.name()).join("findings");
            let shown = crate::escape::terminal(&folder.display().to_string()).into_owned();
            human(&crate::lines::wrap(&format!(
                "new findings saved in {shown}"
            )));
        }
    }
    let mut json = summary::to_json(&summary);
    match crate::harness::family_table(config.family, &config.impls, &corpus_dir(None)) {
        Some(Ok((table, _))) => {
            human(&if terminal {
                table.table.to_text()
            } else {
                table.table.to_markdown()
            });
            json["verifier_table"] = table.json;
        }
        Some(Err(e)) => eprintln!("WARNING: no table over the corpus: {e}"),
        None => {}
    }
    if let Some(path) = summary_json {
        if let Err(e) = write_json(path, to_stdout, &json) {
            return usage_error(format!("cannot write the summary JSON: {e}"));
        }
    }
    let status = summary.status();
    match status {
        Status::Clean | Status::CoreDiverges => {}
        Status::Unjudged => eprintln!(
            "canonfuzz: {}",
            summary::harness_failure(&summary)
                .unwrap_or_else(|| "the harness could not judge every case".to_string())
        ),
        // A campaign that did not run its cases has not shown the core agrees.
        Status::Interrupted => {
            eprintln!("canonfuzz: the campaign was interrupted before it ran every case")
        }
    }
    ExitCode::from(status.exit_code())
}

/// Plants every mutant of the chosen families and scores the campaign on them.
pub(crate) fn selftest(json: bool, seed: u64, families: &[String]) -> ExitCode {
    let chosen: Result<Vec<Family>, String> = if families.is_empty() {
        Ok(crate::families::all().to_vec())
    } else {
        families
            .iter()
            .map(|name| crate::families::named(name))
            .collect()
    };
    let chosen = match chosen {
        Ok(chosen) => chosen,
        Err(e) => return usage_error(e),
    };
    match selftest::run(seed, &chosen, std::io::stderr().is_terminal()) {
        Ok(run) => {
            if json {
                println!(
                    "{}",
                    crate::escape::json_lines(
                        &serde_json::to_string_pretty(&run.to_json()).unwrap_or_default()
                    )
                );
            } else {
                print!("{}", run.render());
            }
            if !run.complete() {
                usage_error("error[quorum]: the self-test needs every implementation of each family it runs; install the missing ones (see the README's set-up) and run it again".to_string())
            } else if run.passed() {
                ExitCode::SUCCESS
            } else {
                rejected()
            }
        }
        Err(e) => usage_error(format!("the self-test failed to run: {e}")),
    }
}

/// Runs `canonfuzz diff`: checks what the arguments name, then the campaign.
pub(crate) fn diff_command(args: DiffArgs, quiet: bool, detail: summary::Detail) -> ExitCode {
    let DiffArgs {
        family,
        cases,
        duration,
        seed,
        jobs,
        impls,
        with,
        out,
        no_save,
        shard,
        summary_json,
        allow_missing,
        only,
        plant,
        every_case,
        fail_fast,
    } = args;
    let family = match crate::families::named(&family) {
        Ok(family) => family,
        Err(e) => return usage_error(e),
    };
    let plant = match plant.map(|name| planted(family, &name)).transpose() {
        Ok(plant) => plant,
        Err(e) => return usage_error(e),
    };
    // Findings are known by the corpus they are saved into, or with --with by the
    // repository's, whose findings stay known whatever else is compared.
    let known = out.clone().filter(|_| with.is_empty());
    let config = Config {
        family,
        cases,
        duration,
        seed,
        jobs: jobs
            .unwrap_or_else(|| 2 * std::thread::available_parallelism().map_or(2, |n| n.get())),
        impls,
        // An implementation of one's own writes nothing into the repository's corpus
        // unless --out says where.
        out: match (no_save, out, with.is_empty()) {
            (true, _, _) | (false, None, false) => None,
            (false, out, _) => Some(corpus_dir(out)),
        },
        with,
        shard,
        progress: !quiet,
        allow_missing,
        known: Some(corpus_dir(known)),
        registry: crate::families::all(),
        plant,
        every_case,
        fail_fast,
    };
    if let Some(name) = &only {
        let known: Vec<String> = family
            .implementations()
            .iter()
            .map(|i| i.name().to_string())
            .chain(config.with.iter().map(|w| w.name.clone()))
            .collect();
        if !known.contains(name) {
            return usage_error(format!(
                "--only {name:?}: no implementation of the {} family is called that; choose one of {}",
                family.name(),
                known.join(", ")
            ));
        }
    }
    diff(&config, summary_json.as_deref(), detail, only.as_deref())
}

fn parse_duration(text: &str) -> Result<Duration, String> {
    let (number, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(text.len()),
    );
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration such as 90s, 10m or 1h"))?;
    let seconds = match unit {
        "" | "s" => value,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        _ => return Err(format!("unknown unit {unit:?}; use s, m or h")),
    };
    Ok(Duration::from_secs_f64(seconds))
}

/// The mutant of `family` named `name`, or an error that lists the family's mutants.
fn planted(family: Family, name: &str) -> Result<&'static Mutant, String> {
    mutants::find(family, name).ok_or_else(|| {
        let names: Vec<&str> = family.mutants().iter().map(|m| m.name).collect();
        format!(
            "the {} family has no mutant {name:?}; plant one of: {}",
            family.name(),
            names.join(", ")
        )
    })
}

fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(i, n)| Some((i.parse::<u64>().ok()?, n.parse::<u64>().ok()?)));
    match parsed {
        Some((i, n)) if n > 0 && i < n => Ok((i, n)),
        _ => Err(format!(
            "{text:?} is not a shard I/N with I < N, such as 0/4"
        )),
    }
}
