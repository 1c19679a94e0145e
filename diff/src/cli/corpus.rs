//! The corpus commands: `vectors`, `manifest`, `merge`, `seeds`, `triage`, `report`, `import`.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::bugs::Bug;
use crate::campaign::Harness;
use crate::conformance::run_corpus;
use crate::escape::{terminal, terminal_lines};
use crate::impls::External;
use crate::import::{import, importers};
use crate::manifest::Manifest;
use crate::summary::{write_bugs, Detail, Paint, SHOWN_BUGS};
use crate::vector::excerpt;
use crate::{fuzzing, junit, matrix, merge, replay, triage, upstream};

use crate::cli::exit::{rejected, usage_error};
use crate::cli::inputs::corpus_dir;
use crate::summary;

/// The arguments of `canonfuzz vectors`.
#[derive(clap::Args)]
pub(crate) struct VectorsArgs {
    /// The corpus directory.
    #[arg(value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
    /// The implementation to run: a registered name (e.g. serde_jcs, jose), or
    /// NAME[@GROUP]=COMMAND for a command that speaks the worker protocol.
    #[arg(long = "impl", value_name = "NAME|NAME=COMMAND")]
    pub(crate) implementation: Option<String>,
    /// The family the implementation belongs to (default: the one that has the name;
    /// for NAME=COMMAND, jcs).
    #[arg(long, value_parser = crate::cli::list::family_values())]
    pub(crate) family: Option<String>,
    /// Write a JUnit XML report to FILE: a suite per vector file, a case per test.
    #[arg(long, value_name = "FILE", requires = "implementation")]
    pub(crate) junit: Option<PathBuf>,
    /// Allow a bug, by the RULE: SHAPE the output names it with (repeatable): its tests
    /// are reported as skipped and do not fail the run.
    #[arg(long, value_name = "RULE: SHAPE", requires = "implementation")]
    pub(crate) allow: Vec<String>,
    /// Also write the implementation's counts and bugs as JSON to FILE.
    #[arg(long, value_name = "FILE", requires = "implementation")]
    pub(crate) summary_json: Option<PathBuf>,
    /// Also write an upstream-ready report for each bug of the JCS implementation into DIR,
    /// each example minimized for it, with an index in DIR/README.md.
    #[arg(long, value_name = "DIR", requires = "implementation")]
    pub(crate) upstream: Option<PathBuf>,
}

/// Runs `canonfuzz vectors`: the corpus against the core, or with --impl against the
/// implementation it names.
pub(crate) fn vectors_command(args: VectorsArgs, detail: summary::Detail) -> ExitCode {
    let dir = corpus_dir(args.dir);
    match args.implementation {
        None => vectors(dir),
        Some(spec) => replay(
            dir,
            &spec,
            args.family.as_deref(),
            &Asked {
                detail,
                junit: args.junit,
                allow: args.allow,
                summary_json: args.summary_json,
                upstream: args.upstream,
            },
        ),
    }
}

/// The arguments of `canonfuzz manifest`.
#[derive(clap::Args)]
pub(crate) struct ManifestArgs {
    /// The corpus directory.
    #[arg(value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
}

/// The arguments of `canonfuzz merge`.
#[derive(clap::Args)]
pub(crate) struct MergeArgs {
    /// The shards' corpus directories.
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub(crate) shards: Vec<PathBuf>,
    /// The corpus to merge into.
    #[arg(long, value_name = "DIR")]
    pub(crate) into: Option<PathBuf>,
}

/// The arguments of `canonfuzz seeds`.
#[derive(clap::Args)]
pub(crate) struct SeedsArgs {
    /// The corpus directory the seeds come from.
    #[arg(long, value_name = "DIR")]
    pub(crate) corpus: Option<PathBuf>,
    /// Where the per-target seed directories go.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
}

/// The arguments of `canonfuzz triage`.
#[derive(clap::Args)]
pub(crate) struct TriageArgs {
    /// Artifacts, e.g. fuzz/artifacts/jcs/crash-<digest>.
    #[arg(required = true, value_name = "ARTIFACT")]
    pub(crate) artifacts: Vec<PathBuf>,
    /// The target that produced them, when their path does not say.
    #[arg(long, value_name = "TARGET")]
    pub(crate) target: Option<String>,
    /// The corpus directory to write into.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
}

/// The arguments of `canonfuzz report`.
#[derive(clap::Args)]
pub(crate) struct ReportArgs {
    /// Where to write conformance.md, conformance.html and conformance.json.
    #[arg(long, value_name = "DIR", default_value = "target/canonfuzz-report")]
    pub(crate) out: PathBuf,
    /// Print the JSON (provenance, every cell and every failure) instead of the Markdown.
    #[arg(long)]
    pub(crate) json: bool,
    /// Also write an upstream-ready report for every campaign finding a third-party
    /// library does not pass, into DIR/upstream/<library>/.
    #[arg(long)]
    pub(crate) upstream: bool,
    /// The corpus directory.
    #[arg(long, value_name = "DIR")]
    pub(crate) corpus: Option<PathBuf>,
    /// Implementations to include besides the core (comma-separated names).
    #[arg(long, value_name = "a,b,...", value_delimiter = ',')]
    pub(crate) impls: Vec<String>,
    /// Also put a JCS implementation of your own in the matrix: a command that speaks the
    /// worker protocol. Repeatable.
    #[arg(long = "with", value_name = "NAME[@GROUP]=COMMAND", value_parser = External::parse)]
    pub(crate) with: Vec<External>,
}

/// The arguments of `canonfuzz import`.
#[derive(clap::Args)]
pub(crate) struct ImportArgs {
    /// Which kind of data PATH holds.
    #[arg(value_parser = source_values())]
    pub(crate) source: String,
    /// The data (not needed for rfc8785-appendix-b).
    pub(crate) path: Option<PathBuf>,
    /// The corpus directory to write into.
    #[arg(long, value_name = "DIR")]
    pub(crate) corpus: Option<PathBuf>,
}

pub(crate) fn vectors(dir: PathBuf) -> ExitCode {
    if !dir.is_dir() {
        return usage_error(format!(
            "{} is not a directory: pass the corpus directory (a clone's corpus/)",
            dir.display()
        ));
    }
    let report = run_corpus(&dir);
    for failure in &report.failures {
        println!("{}", terminal_lines(&failure.to_string()));
    }
    println!("{}", terminal_lines(&report.summary()));
    if report.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        rejected()
    }
}

/// What `vectors --impl` is asked to show and write besides its counts.
pub(crate) struct Asked {
    /// How much to print.
    pub detail: Detail,
    /// Where to write a JUnit XML report.
    pub junit: Option<PathBuf>,
    /// The bugs to allow, by rule and shape.
    pub allow: Vec<String>,
    /// Where to write the counts and bugs as JSON.
    pub summary_json: Option<PathBuf>,
    /// Where to write upstream reports of its bugs.
    pub upstream: Option<PathBuf>,
}

/// Runs the implementation `spec` names over the corpus `dir`: its bugs, then its counts.
pub(crate) fn replay(dir: PathBuf, spec: &str, family: Option<&str>, asked: &Asked) -> ExitCode {
    let family = match family.map(crate::families::named).transpose() {
        Ok(f) => f,
        Err(e) => return usage_error(e),
    };
    let (family, implementation) = match crate::families::resolve(spec, family) {
        Ok(found) => found,
        Err(e) => return usage_error(e),
    };
    if let Err(why) = implementation.available() {
        return usage_error(format!("{} cannot run: {why}", implementation.name()));
    }
    let replayed = match replay::replay_corpus(family, implementation.as_ref(), &dir) {
        Ok(r) => r,
        Err(e) => return usage_error(e),
    };
    let name = implementation.name();
    let core = family.implementations().remove(0);
    let bugs = replayed.bugs(family, implementation.as_ref(), core.as_ref());
    let allowed = |bug: &Bug| asked.allow.contains(&bug.allowance());
    if let Some(path) = &asked.junit {
        let title = format!("canonfuzz vectors: {name} ({} family)", family.name());
        let xml = junit::report(&title, &replayed, &bugs, allowed);
        if let Err(e) = std::fs::write(path, xml) {
            return usage_error(format!("cannot write {}: {e}", path.display()));
        }
    }
    if asked.detail == Detail::Verbose {
        print_misses(&replayed);
    }
    if let Some(path) = &asked.summary_json {
        let bugs: Vec<(&Bug, bool)> = bugs.iter().map(|(b, _)| (b, allowed(b))).collect();
        if let Err(e) = write_summary(path, name, family.name(), &replayed, &bugs) {
            return usage_error(e);
        }
    }
    if let Some(dir) = &asked.upstream {
        let found = bugs.iter().map(|(b, _)| b.clone()).collect();
        match upstream_reports(family, spec, found, dir) {
            Ok(line) => println!("{line}"),
            Err(e) => return usage_error(e),
        }
    }
    let shown: Vec<&Bug> = bugs.iter().map(|(b, _)| b).collect();
    let failing = print_bugs(&shown, asked);
    let categories: Vec<String> = replayed
        .categories
        .iter()
        .map(|(c, (passed, run))| format!("{} {passed}/{run}", terminal(c)))
        .collect();
    println!("by category: {}", categories.join(", "));
    let (passed, run) = replayed.total();
    println!(
        "{} {} ({} family): {passed} of {run} passed, {} failed, {} left out (unsupported, or \
         no campaign input states them)",
        terminal(name),
        terminal(&implementation.version()),
        family.name(),
        run - passed,
        replayed.left_out
    );
    if failing == 0 {
        ExitCode::SUCCESS
    } else {
        rejected()
    }
}

/// Prints every failed test with its input, what was expected and what came, then each
/// file's tally.
fn print_misses(replayed: &replay::Replayed) {
    for miss in &replayed.misses {
        println!(
            "FAIL {} tcId {} {:?}\n    input:    {}\n    expected: {}\n    got:      {}",
            terminal(&miss.file),
            miss.tc_id,
            miss.flags,
            terminal(&miss.input),
            terminal(&miss.expected),
            terminal(&miss.got)
        );
    }
    let width = replayed.files.keys().map(String::len).max().unwrap_or(0);
    println!();
    for (file, (passed, run)) in &replayed.files {
        println!("{:width$}  {passed}/{run}", terminal(file));
    }
}

/// Prints `bugs`: those that fail the run, the allowed ones, and the refusals naming another
/// problem apart; returns how many fail it.
fn print_bugs(bugs: &[&Bug], asked: &Asked) -> usize {
    let allowed = |bug: &Bug| asked.allow.contains(&bug.allowance());
    let (counted, renamed): (Vec<&Bug>, Vec<&Bug>) =
        bugs.iter().copied().partition(|b| b.key.severity.is_bug());
    let (failing, allowing): (Vec<&Bug>, Vec<&Bug>) =
        counted.into_iter().partition(|b| !allowed(b));
    print!("{}", bug_list(&failing, &allowing, asked));
    let renamed: Vec<Bug> = renamed.into_iter().cloned().collect();
    let mut note = String::new();
    summary::renamed_note(
        &mut note,
        &renamed,
        asked.detail,
        Paint::for_terminal(std::io::stdout().is_terminal()),
        "test",
    );
    print!("{note}");
    failing.len()
}

/// Writes the upstream reports of `found`, the bugs of the implementation `spec` names, into
/// `dir`, each example minimized for it against the core; says where.
fn upstream_reports(
    family: crate::family::Family,
    spec: &str,
    found: Vec<Bug>,
    dir: &Path,
) -> Result<String, String> {
    if family != crate::families::jcs::FAMILY {
        return Err(format!(
            "--upstream writes reports for JCS implementations, not for the {} family",
            family.name()
        ));
    }
    let (_, implementation) = crate::families::resolve(spec, Some(family))?;
    let harness = Harness::with(
        family,
        vec![family.implementations().remove(0), implementation],
    );
    let (reports, unsent) = upstream::reports_of(found, &harness);
    let (index, count) = upstream::write_reports(&reports, &unsent, dir)?;
    Ok(format!(
        "wrote {count} upstream reports, indexed in {}",
        terminal(&index.display().to_string())
    ))
}

/// Writes `vectors --impl`'s counts and bugs (each with whether it is allowed) as JSON.
fn write_summary(
    path: &Path,
    name: &str,
    family: &str,
    replayed: &replay::Replayed,
    bugs: &[(&Bug, bool)],
) -> Result<(), String> {
    let (passed, run) = replayed.total();
    let summary = serde_json::json!({
        "implementation": name,
        "family": family,
        "passed": passed,
        "run": run,
        "left_out": replayed.left_out,
        "bugs": bugs.iter().map(|(b, allowed)| {
            let mut bug = b.to_json();
            bug["allowed"] = (*allowed).into();
            bug
        }).collect::<Vec<_>>(),
    });
    std::fs::write(path, format!("{summary:#}\n"))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The bugs that fail the run, at most a screenful unless verbose, then the allowed ones by
/// the words that allow them, and any `--allow` that allowed nothing.
fn bug_list(failing: &[&Bug], allowing: &[&Bug], asked: &Asked) -> String {
    let mut out = String::new();
    let paint = Paint::for_terminal(std::io::stdout().is_terminal());
    let shown = match asked.detail {
        Detail::Verbose => failing.len(),
        _ => SHOWN_BUGS,
    };
    out.push_str(&format!("\nbugs — {}, most severe first\n", failing.len()));
    write_bugs(&mut out, failing.iter().copied().take(shown), paint, "test");
    if failing.len() > shown {
        out.push_str(&format!(
            "  ... and {} more: -v lists them all\n",
            failing.len() - shown
        ));
    }
    for bug in allowing {
        out.push_str(&format!(
            "allowed: {} ({} test{})\n",
            terminal(&bug.allowance()),
            bug.cases,
            if bug.cases == 1 { "" } else { "s" }
        ));
    }
    for allow in &asked.allow {
        if !allowing.iter().any(|b| b.allowance() == *allow) {
            out.push_str(&format!(
                "note: --allow {:?} allows no bug of this run; remove it\n",
                terminal(allow)
            ));
        }
    }
    out.push('\n');
    out
}

/// Rebuilds the manifest of the corpus `dir`.
pub(crate) fn manifest(dir: Option<PathBuf>) -> ExitCode {
    let dir = corpus_dir(dir);
    match Manifest::build(&dir, crate::families::all()).and_then(|m| m.write(&dir).map(|()| m)) {
        Ok(m) => {
            let tests: usize = m.files.iter().map(|f| f.number_of_tests).sum();
            println!(
                "{}: {} files, {tests} tests",
                dir.join("manifest.json").display(),
                m.files.len()
            );
            ExitCode::SUCCESS
        }
        Err(e) => usage_error(e),
    }
}

/// Merges the shards' findings into the corpus `into`.
pub(crate) fn merge(shards: &[PathBuf], into: Option<PathBuf>) -> ExitCode {
    let into = corpus_dir(into);
    match merge::merge(shards, &into) {
        Ok(added) => {
            for path in &added {
                println!("added {}", terminal(path));
            }
            println!("{} vectors merged into {}", added.len(), into.display());
            ExitCode::SUCCESS
        }
        Err(e) => usage_error(e),
    }
}

/// Writes a seed corpus per fuzz target from the corpus's vectors.
pub(crate) fn seeds(corpus: Option<PathBuf>, out: Option<PathBuf>) -> ExitCode {
    let out = out.unwrap_or_else(|| corpus_dir(None).join("../fuzz/corpus"));
    match fuzzing::write_seeds(&corpus_dir(corpus), &out) {
        Ok(n) => {
            println!(
                "wrote {n} seeds for {} into {}",
                fuzzing::target_names(),
                out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => usage_error(e),
    }
}

/// Turns fuzzer artifacts into regression vectors in the corpus `out`, each compared by the
/// implementations of its target's family (each family's set up once, on first need), or
/// into kept inputs for a target whose inputs no vector holds.
pub(crate) fn triage(
    artifacts: &[PathBuf],
    target: Option<&str>,
    out: Option<PathBuf>,
) -> ExitCode {
    let corpus = corpus_dir(out);
    let mut harnesses: Vec<Harness> = Vec::new();
    for artifact in artifacts {
        let target = match triage::target_of(artifact, target) {
            Ok(t) => t,
            Err(e) => return usage_error(e),
        };
        let harness = match target.family {
            Some(family) => match harnesses.iter().position(|h| h.family() == family) {
                Some(i) => harnesses.get(i),
                None => match Harness::new(family, &[]) {
                    Ok((h, missing)) => {
                        warn_not_run(&missing);
                        harnesses.push(h);
                        harnesses.last()
                    }
                    Err(e) => return usage_error(e),
                },
            },
            None => None,
        };
        match triage::triage(harness, artifact, &target, &corpus) {
            Ok(t) => {
                println!("{} ({})", t.artifact.display(), t.target);
                match &t.failure {
                    Some(f) => println!("  reproduces: {}", terminal(f)),
                    None => println!("  no longer reproduces"),
                }
                println!(
                    "  minimized ({} bytes): {}",
                    t.minimized.len(),
                    excerpt(&t.minimized)
                );
                if let Some(signature) = &t.signature {
                    println!("  {}", terminal(signature));
                }
                match &t.saved {
                    Ok(v) => println!("  saved: {}", corpus.join(v).display()),
                    Err(why) => println!("  not saved: {}", terminal(why)),
                }
            }
            Err(e) => return usage_error(e),
        }
    }
    ExitCode::SUCCESS
}

/// What `canonfuzz report` writes and prints.
pub(crate) struct ReportOptions {
    /// The output directory.
    pub out: PathBuf,
    /// JSON on standard output instead of Markdown.
    pub json: bool,
    /// Upstream reports too.
    pub upstream: bool,
}

/// Writes the conformance report of every implementation over the corpus.
pub(crate) fn report(
    options: &ReportOptions,
    corpus: Option<PathBuf>,
    impls: &[String],
    with: &[External],
) -> ExitCode {
    let corpus = corpus_dir(corpus);
    let built = matrix::conformance(impls, with, &corpus).map(|(matrix, harness, missing)| {
        warn_not_run(&missing);
        (matrix, harness)
    });
    let written = built.and_then(|(m, harness)| {
        let paths = m.write(&options.out)?;
        let upstream = if options.upstream {
            Some(upstream::write(
                &m,
                &harness,
                &options.out.join("upstream"),
            )?)
        } else {
            None
        };
        Ok((m, paths, upstream))
    });
    match written {
        Ok((matrix, [md, html, json], upstream)) => {
            if options.json {
                println!("{:#}", matrix.json());
            } else {
                print!("{}", terminal_lines(&matrix.summary()));
            }
            eprintln!(
                "\nwrote {}, {} and {}",
                md.display(),
                html.display(),
                json.display()
            );
            if let Some((index, count)) = upstream {
                eprintln!(
                    "wrote {count} upstream reports, indexed in {}",
                    index.display()
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => usage_error(e),
    }
}

/// The sources `canonfuzz import` takes: every family's, each with what it is.
fn source_values() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        importers()
            .into_iter()
            .map(|i| clap::builder::PossibleValue::new(i.name).help(i.about)),
    )
}

/// Converts published third-party data into a vector file in the corpus.
pub(crate) fn import_data(source: &str, path: Option<&Path>, corpus: Option<PathBuf>) -> ExitCode {
    let Some(importer) = importers().into_iter().find(|i| i.name == source) else {
        return usage_error(format!(
            "unknown source {source:?}: see canonfuzz import --help"
        ));
    };
    match import(&importer, path, &corpus_dir(corpus)) {
        Ok((target, count)) => {
            println!("wrote {count} tests to {}", target.display());
            ExitCode::SUCCESS
        }
        Err(e) => usage_error(e),
    }
}

/// A warning on stderr for each implementation that did not run, then where to learn more.
fn warn_not_run(missing: &[(String, String)]) {
    for (name, why) in missing {
        eprint!("{}", summary::not_run(name, "did not run", why, false));
    }
    if !missing.is_empty() {
        eprint!("{}", summary::NOT_RUN_HINT);
    }
}
