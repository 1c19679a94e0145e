//! `canonfuzz`: canonicalize JSON the RFC 8785 way, verify what signed-JSON protocols sign,
//! run differential campaigns and the conformance corpus. This file holds the command-line
//! definitions and hands each command to its module; the work is the library's, and every
//! exit status is chosen in `exit.rs`.

mod campaign;
mod canon;
mod corpus;
mod docs;
mod exit;
mod ink;
mod list;
mod profile;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use canonfuzz_core::jcs::DEFAULT_MAX_DEPTH;
use canonfuzz_diff::campaign::Config;
use canonfuzz_diff::family::Family;
use canonfuzz_diff::impls::External;
use canonfuzz_diff::import::SourceKind;
use canonfuzz_diff::mutants::{self, Mutant};
use canonfuzz_diff::{input, summary};
use clap::builder::PossibleValuesParser;
use clap::{Parser, Subcommand};

use crate::exit::{corpus_dir, usage_error};
use crate::ink::InkCommand;
use crate::profile::ChallengeCommand;
use crate::verify::{Ed25519Command, JwkCommand, JwsCommand, VmcpCommand};

const ABOUT: &str = "Differential fuzzing of signed-JSON implementations: JCS, Ed25519, JWS, \
verifiable-mcp, Merkle proofs and INK, against a strict verification core.";

const LONG_ABOUT: &str = "\
canonfuzz runs differential campaigns: it generates inputs aimed where implementations of \
signed-JSON protocols part ways, compares a strict verification core with independent Rust, \
Node and Python implementations, reads every disagreement as the bug of one party, and saves \
it as a conformance vector that the corpus replays from then on. The same core canonicalizes \
(RFC 8785) and verifies (Ed25519, JWS, verifiable-mcp, INK) from the command line.";

const EXAMPLES: &str = "\
Examples:
  canonfuzz diff                       the main job: a JCS campaign of 100,000 cases
  canonfuzz diff --family ed25519      another family (canonfuzz list families)
  canonfuzz diff --with mine='python3 adapter.py'
                                       your own implementation beside the others
  canonfuzz vectors --impl mine='python3 adapter.py' --junit out.xml
                                       the whole corpus through it, for a CI job
  canonfuzz report --upstream --out reports/
                                       one report per bug, for each library's maintainers
  canonfuzz list implementations       every implementation, its version and group
  canonfuzz canon doc.json             the canonical bytes of one document

Exit status: 0 success, 1 a bug of the core, rejected input or a failed check, 2 usage,
I/O or harness failure.";

#[derive(Parser)]
#[command(
    name = "canonfuzz",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = EXAMPLES,
    max_term_width = 80
)]
pub(crate) struct Cli {
    /// Refuse any input (a file, stdin, one line of --jsonl) larger than this: bytes, or with
    /// a unit (64KiB, 32MiB, 1GiB). Refused input exits 1 with error[too_large].
    #[arg(long, global = true, value_name = "SIZE", default_value = "32MiB", value_parser = input::parse_size)]
    max_input_bytes: u64,
    /// Show less: no progress bar, and of a campaign only its headline, quorum and totals.
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Show more: every finding, with its signature, crashes and minimized input.
    #[arg(long, short, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a differential campaign: generate inputs, compare every implementation, minimize
    /// and save each disagreement as a vector.
    ///
    /// Exits 0 when every independence group voted and, on every case, the core agrees with
    /// their consensus or differs only by registered policy; 1 when the core diverges on any
    /// case; 2 when the harness failed (a case it could not judge included), a group could
    /// not vote (unless --allow-missing) or the campaign was interrupted.
    Diff {
        /// The family of inputs: jcs (canonicalizers), ed25519 (signature verifiers), jws
        /// (compact JWS verifiers), vmcp (verifiable-mcp response verifiers), merkle (RFC 9162
        /// roots and proofs), ekl (adapter-profile fingerprints and challenge proofs), ink
        /// (INK leaf hashes and signature bases), or any other registered family.
        #[arg(long, default_value = "jcs", value_parser = PossibleValuesParser::new(canonfuzz_diff::families::names()))]
        family: String,
        /// Number of cases to run (default 100,000 when --duration is not given either).
        #[arg(long, value_name = "N", conflicts_with = "duration")]
        cases: Option<u64>,
        /// Run for this long instead: e.g. 90s, 10m, 1h.
        #[arg(long, value_name = "D", value_parser = parse_duration)]
        duration: Option<Duration>,
        /// The seed every input derives from.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Batches in flight (default: twice the cores, since a batch waits on its workers),
        /// and at most as many processes per external implementation: one, and another for
        /// each batch that has waited a second for those running. Findings are minimized
        /// on twice as many threads, as each waits on one worker at a time.
        #[arg(long, value_name = "J")]
        jobs: Option<usize>,
        /// Compare the core with these implementations only (comma-separated names).
        #[arg(long, value_name = "a,b,...", value_delimiter = ',')]
        impls: Vec<String>,
        /// Also compare an implementation outside canonfuzz: a command that speaks the worker
        /// protocol (docs/worker-protocol.md), in its own independence group
        /// unless NAME@GROUP names one. Repeatable.
        #[arg(long = "with", value_name = "NAME[@GROUP]=COMMAND", value_parser = External::parse)]
        with: Vec<External>,
        /// Corpus directory findings are saved into (default: the repository's corpus/; with
        /// --with, none unless this is given).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Save no vectors.
        #[arg(long, conflicts_with = "out")]
        no_save: bool,
        /// Run shard I of N: the cases whose index is I modulo N.
        #[arg(long, value_name = "I/N", value_parser = parse_shard, default_value = "0/1")]
        shard: (u64, u64),
        /// Also write the summary as JSON to FILE (`-`: standard output, the summary for
        /// people then going to standard error).
        #[arg(long, value_name = "FILE")]
        summary_json: Option<PathBuf>,
        /// Compare without implementations that cannot run here instead of failing for want
        /// of a quorum (exit 2); the summary names the groups that did not vote.
        #[arg(long)]
        allow_missing: bool,
        /// Show the bugs of this implementation only (its own and those of the layer it is
        /// driven through).
        #[arg(long, value_name = "NAME")]
        only: Option<String>,
        /// Plant one of the self-test's mutants (`canonfuzz selftest` lists them) in the core's
        /// place, to see that these settings turn red on a known bug: the campaign should exit
        /// 1. Saves nothing.
        #[arg(long, value_name = "MUTANT", conflicts_with = "out")]
        plant: Option<String>,
    },
    /// List the families a campaign can run, or every implementation with its version,
    /// independence group and how it runs.
    List {
        /// What to list.
        #[arg(value_enum, default_value = "families")]
        what: list::What,
        /// Of this family only.
        #[arg(long, value_parser = PossibleValuesParser::new(canonfuzz_diff::families::names()))]
        family: Option<String>,
    },
    /// Write the RFC 8785 canonical form of a JSON text to stdout.
    ///
    /// On bad input, exits 1 and prints `error[<kind>] at line L, column C: <message>` to
    /// stderr. With --jsonl, reads one JSON text per line and answers each with one line:
    /// {"ok":"<canonical text>"} or {"error":{"kind":..,"message":..,"offset":N}}; exits 0
    /// unless reading fails.
    Canon {
        /// The input file; `-` or nothing reads stdin.
        #[arg(value_name = "FILE|-")]
        file: Option<PathBuf>,
        /// One JSON text per input line, one JSON answer per output line.
        #[arg(long)]
        jsonl: bool,
        /// Deepest nesting of arrays and objects accepted.
        #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH)]
        max_depth: usize,
    },
    /// Run every conformance vector in the corpus against the core.
    ///
    /// Checks the manifest (every file listed, digests and counts current) and each file's
    /// shape, runs every test, prints each failure with its file, tcId and input, and ends
    /// with `N passed, N failed`.
    ///
    /// With --impl, runs an implementation instead of the core, registered or your own, over
    /// every test of its family that a campaign input can state, and prints the bugs the
    /// tests it did not pass show (-v: every such test, and the counts per file), then its
    /// counts per category. --junit writes every test's verdict for a CI service; --allow
    /// accepts a bug by its rule and shape. Exits 0 when it passed all but allowed bugs, 1
    /// when it did not, 2 when it could not run.
    Vectors {
        /// The corpus directory.
        #[arg(value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The implementation to run: a registered name (e.g. serde_jcs, jose), or
        /// NAME[@GROUP]=COMMAND for a command that speaks the worker protocol.
        #[arg(long = "impl", value_name = "NAME|NAME=COMMAND")]
        implementation: Option<String>,
        /// The family the implementation belongs to (default: the one that has the name;
        /// for NAME=COMMAND, jcs).
        #[arg(long, value_parser = PossibleValuesParser::new(canonfuzz_diff::families::names()))]
        family: Option<String>,
        /// Write a JUnit XML report to FILE: a suite per vector file, a case per test.
        #[arg(long, value_name = "FILE", requires = "implementation")]
        junit: Option<PathBuf>,
        /// Allow a bug, by the RULE: SHAPE the output names it with (repeatable): its tests
        /// are reported as skipped and do not fail the run.
        #[arg(long, value_name = "RULE: SHAPE", requires = "implementation")]
        allow: Vec<String>,
    },
    /// Rebuild corpus/manifest.json from the vector files present.
    ///
    /// Run it after adding or editing a vector file; `canonfuzz vectors` refuses a manifest
    /// whose digests or counts are stale.
    Manifest {
        /// The corpus directory.
        #[arg(value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Verify an Ed25519 signature under the core's strict policy.
    Ed25519 {
        #[command(subcommand)]
        command: Ed25519Command,
    },
    /// Verify a compact JWS (EdDSA) against a JWK set.
    ///
    /// Prints the verdict, the kid and key used, and the payload. Exits 0 when the token
    /// verifies, 1 when it does not (saying which rule it breaks), 2 on a usage or I/O error.
    Jws {
        #[command(subcommand)]
        command: JwsCommand,
    },
    /// Verify a verifiable-mcp signed response.
    Vmcp {
        #[command(subcommand)]
        command: VmcpCommand,
    },
    /// JSON Web Key tools.
    Jwk {
        #[command(subcommand)]
        command: JwkCommand,
    },
    /// The adapter profile's salted fingerprint of one JSON value, or of a tool result's body.
    ///
    /// Prints SHA-256(salt ‖ JCS(value)) in lowercase hex. With --result the input is a whole
    /// MCP tool result (or a JSON-RPC response carrying one) and the fingerprint covers its
    /// structuredContent when present, else its content array; which one is said on stderr.
    /// Exits 1 when the input is not I-JSON or has no body, 2 on a bad salt or I/O error.
    Fingerprint {
        /// The salt: exactly 64 hex digits (32 bytes).
        #[arg(long, value_name = "HEX")]
        salt: String,
        /// The input is a tool result: fingerprint its body.
        #[arg(long)]
        result: bool,
        /// The input file, or `-` (default) for stdin.
        #[arg(value_name = "FILE|-")]
        file: Option<PathBuf>,
    },
    /// The adapter profile's endpoint challenge proof.
    Challenge {
        #[command(subcommand)]
        command: ChallengeCommand,
    },
    /// Print a completion script for a shell: `canonfuzz completions bash > /etc/bash_completion.d/canonfuzz`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print, as Markdown, every field of each family's input: the core entry point that reads
    /// it and the generator categories that vary it (docs/fields.md is this output).
    Fields {
        /// One family only.
        #[arg(long, value_parser = PossibleValuesParser::new(canonfuzz_diff::families::names()))]
        family: Option<String>,
    },
    /// Print the man page (roff) to stdout, or with --out write one page per command into DIR.
    Man {
        /// A directory for canonfuzz.1 and one canonfuzz-<command>.1 per command.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// INK: check a signed request or a Merkle proof, or take any other of INK's decisions.
    Ink {
        #[command(subcommand)]
        command: InkCommand,
    },
    /// Merge the findings of sharded campaigns (each shard's corpus directory) into a corpus.
    ///
    /// For each signature the vector from the lowest case index wins, as in one unsharded
    /// campaign over the same cases, so the result does not depend on which machine ran which
    /// shard; vectors the corpus already holds are kept.
    Merge {
        /// The shards' corpus directories.
        #[arg(required = true, value_name = "SHARD_DIR")]
        shards: Vec<PathBuf>,
        /// The corpus to merge into.
        #[arg(long, value_name = "DIR")]
        into: Option<PathBuf>,
    },
    /// Write a seed corpus per fuzz target from the vectors, documents of up to 64 KiB (default
    /// fuzz/corpus/<target>/).
    Seeds {
        /// The corpus directory the seeds come from.
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// Where the per-target seed directories go.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Turn fuzzer artifacts into regression vectors.
    ///
    /// Reproduces each artifact with its own target's check, minimizes it while that check
    /// fails (or, if it no longer fails, while every implementation answers as they do now),
    /// and writes a vector to corpus/<family>/regressions/ whose expected result comes from
    /// the independent implementations, so that cargo test replays it from then on. The jcs,
    /// jcs_diff and serde_json_parse targets file under jcs, merkle under merkle; the jws,
    /// vmcp, ekl and ink_header targets' inputs have no vector format, so their artifacts are
    /// reproduced and minimized only.
    Triage {
        /// Artifacts, e.g. fuzz/artifacts/jcs/crash-<digest>.
        #[arg(required = true, value_name = "ARTIFACT")]
        artifacts: Vec<PathBuf>,
        /// The target that produced them, when their path does not say.
        #[arg(long, value_name = "TARGET")]
        target: Option<String>,
        /// The corpus directory to write into.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Run every implementation over every vector in the corpus and write the conformance
    /// matrix (implementation × category, each cell leading to its failures) as Markdown, as
    /// a colour-coded HTML page and as JSON.
    Report {
        /// Where to write conformance.md, conformance.html and conformance.json.
        #[arg(long, value_name = "DIR", default_value = "target/canonfuzz-report")]
        out: PathBuf,
        /// Print the JSON (provenance, every cell and every failure) instead of the Markdown.
        #[arg(long)]
        json: bool,
        /// Also write an upstream-ready report for every campaign finding a third-party
        /// library does not pass, into DIR/upstream/<library>/.
        #[arg(long)]
        upstream: bool,
        /// The corpus directory.
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// Implementations to include besides the core (comma-separated names).
        #[arg(long, value_name = "a,b,...", value_delimiter = ',')]
        impls: Vec<String>,
        /// Also put a JCS implementation of your own in the matrix: a command that speaks the
        /// worker protocol. Repeatable.
        #[arg(long = "with", value_name = "NAME[@GROUP]=COMMAND", value_parser = External::parse)]
        with: Vec<External>,
    },
    /// Prove a campaign turns red on a wrong core: run every family with planted mutants of
    /// its core in the core's place.
    ///
    /// Each mutant (classic canonicalization bugs, false rejections with every JCS error kind
    /// and wrong kinds; Ed25519 small-order, non-canonical and S >= L acceptance; JWS padding,
    /// crit and typ ignored; Merkle off-by-one index, empty proof, duplicated odd node; fields
    /// left out of adapter-profile and INK hashes; verifiable-mcp holes) must show "core
    /// diverges" on a case where the real core does not, within its family's case budget.
    /// Exits 1 if one does not, 2 if an implementation could not run.
    Selftest {
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
        /// The seed the cases derive from.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Only these families (repeatable; default every family).
        #[arg(long = "family", value_name = "F")]
        families: Vec<String>,
    },
    /// Convert published third-party test data into a vector file in the corpus.
    Import {
        /// Which kind of data PATH holds.
        #[arg(value_enum)]
        source: SourceKind,
        /// The data (not needed for rfc8785-appendix-b).
        path: Option<PathBuf>,
        /// The corpus directory to write into.
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
    },
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

fn main() -> ExitCode {
    exit::quiet_on_closed_stdout();
    let cli = Cli::parse();
    input::set_limit(cli.max_input_bytes);
    let detail = match (cli.quiet, cli.verbose) {
        (true, _) => summary::Detail::Quiet,
        (_, true) => summary::Detail::Verbose,
        _ => summary::Detail::Normal,
    };
    match cli.command {
        Command::Canon {
            file,
            jsonl,
            max_depth,
        } => canon::canon(file, jsonl, max_depth),
        Command::Vectors {
            dir,
            implementation: None,
            ..
        } => corpus::vectors(corpus_dir(dir)),
        Command::Vectors {
            dir,
            implementation: Some(spec),
            family,
            junit,
            allow,
        } => corpus::replay(
            corpus_dir(dir),
            &spec,
            family.as_deref(),
            &corpus::Asked {
                detail,
                junit,
                allow,
            },
        ),
        Command::Manifest { dir } => corpus::manifest(dir),
        Command::List { what, family } => list::list(what, family.as_deref()),
        Command::Diff {
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
        } => {
            let family = match canonfuzz_diff::families::named(&family) {
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
                jobs: jobs.unwrap_or_else(|| {
                    2 * std::thread::available_parallelism().map_or(2, |n| n.get())
                }),
                impls,
                // An implementation of one's own writes nothing into the repository's corpus
                // unless --out says where.
                out: match (no_save, out, with.is_empty()) {
                    (true, _, _) | (false, None, false) => None,
                    (false, out, _) => Some(corpus_dir(out)),
                },
                with,
                shard,
                progress: !cli.quiet,
                allow_missing,
                known: Some(corpus_dir(known)),
                registry: canonfuzz_diff::families::all(),
                plant,
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
            campaign::diff(&config, summary_json.as_deref(), detail, only.as_deref())
        }
        Command::Jws {
            command:
                JwsCommand::Verify {
                    jwks,
                    jwk,
                    typ,
                    token,
                    file,
                },
        } => verify::jws_verify(jwks.as_deref(), jwk.as_deref(), typ, token, file.as_deref())
            .unwrap_or_else(|code| code),
        Command::Vmcp {
            command:
                VmcpCommand::Verify {
                    jwks,
                    now,
                    max_age,
                    strict,
                    json,
                    file,
                },
        } => verify::vmcp_verify(&jwks, now, max_age, strict, json, file.as_deref())
            .unwrap_or_else(|code| code),
        Command::Jwk {
            command: JwkCommand::Thumbprint { file },
        } => verify::thumbprint(file.as_deref()),
        Command::Ed25519 {
            command: Ed25519Command::Verify { key, sig, message },
        } => verify::ed25519_verify(&key, &sig, message.as_deref()),
        Command::Fingerprint { salt, result, file } => {
            profile::fingerprint(&salt, result, file.as_deref())
        }
        Command::Challenge { command } => profile::challenge(command),
        Command::Ink { command } => ink::ink(command).unwrap_or_else(|code| code),
        Command::Completions { shell } => docs::completions(shell),
        Command::Man { out } => docs::man(out.as_deref()),
        Command::Fields { family } => docs::fields(family.as_deref()),
        Command::Merge { shards, into } => corpus::merge(&shards, into),
        Command::Seeds { corpus, out } => corpus::seeds(corpus, out),
        Command::Triage {
            artifacts,
            target,
            out,
        } => corpus::triage(&artifacts, target.as_deref(), out),
        Command::Report {
            out,
            json,
            upstream,
            corpus,
            impls,
            with,
        } => corpus::report(
            &corpus::ReportOptions {
                out,
                json,
                upstream,
            },
            corpus,
            &impls,
            &with,
        ),
        Command::Selftest {
            json,
            seed,
            families,
        } => campaign::selftest(json, seed, &families),
        Command::Import {
            source,
            path,
            corpus,
        } => corpus::import_data(source, path.as_deref(), corpus),
    }
}
