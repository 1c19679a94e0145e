//! `canonfuzz`: canonicalize JSON the RFC 8785 way, verify what signed-JSON protocols sign,
//! run differential campaigns and the conformance corpus. This file holds the command-line
//! definitions and hands each command to its module; the work is the library's, and every
//! exit status is chosen in `exit.rs`.

mod campaign;
mod canon;
mod corpus;
mod docs;
mod ekl;
mod exit;
mod ink;
mod inputs;
mod list;
mod setup;
mod verify;

use std::process::ExitCode;

use crate::{input, summary};
use clap::{Parser, Subcommand};

use crate::cli::ekl::ChallengeCommand;
use crate::cli::ink::InkCommand;
use crate::cli::verify::{Ed25519Command, JwkCommand, JwsCommand, VmcpCommand};

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
  canonfuzz diff                     the main job: 100,000 JCS cases
  canonfuzz diff --family ed25519    another family (canonfuzz list families)
  canonfuzz diff --with mine='python3 adapter.py'
                                     your own implementation beside the others
  canonfuzz vectors --impl mine='python3 adapter.py' --junit out.xml
                                     the whole corpus through it, for a CI job
  canonfuzz report --upstream --out reports/
                                     a report per bug, for its maintainers
  canonfuzz list implementations     each implementation, version and group
  canonfuzz setup                    install the workers' runtimes ahead
  canonfuzz canon doc.json           the canonical bytes of one document

Exit status: 0 success; 1 a bug of the core, rejected input or a failed
check; 2 usage, I/O or harness failure.";

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
    Diff(campaign::DiffArgs),
    /// List the families a campaign can run, or every implementation with its version,
    /// independence group and how it runs.
    List(list::ListArgs),
    /// Install the workers' runtimes now rather than in the first campaign, and say of each
    /// (Node, Python, Rust) whether it is ready or what it needs.
    ///
    /// Runs npm ci, creates the Python virtualenv and builds the Rust worker where they are
    /// missing or stale, showing each step, then prints one line per runtime: its version, or
    /// the first line of why it cannot run (-v: all of it) and what to install. Exits 0 when
    /// every runtime is ready, 1 when one is not.
    Setup,
    /// Write the RFC 8785 canonical form of a JSON text to stdout.
    ///
    /// On bad input, exits 1 and prints `error[<kind>] at line L, column C: <message>` to
    /// stderr. With --jsonl, reads one JSON text per line and answers each with one line:
    /// {"ok":"<canonical text>"} or {"error":{"kind":..,"message":..,"offset":N}}; exits 0
    /// unless reading fails.
    Canon(canon::CanonArgs),
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
    Vectors(corpus::VectorsArgs),
    /// Rebuild corpus/manifest.json from the vector files present.
    ///
    /// Run it after adding or editing a vector file; `canonfuzz vectors` refuses a manifest
    /// whose digests or counts are stale.
    Manifest(corpus::ManifestArgs),
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
    /// ekl's salted fingerprint of one JSON value, or of a tool result's body.
    ///
    /// Prints SHA-256(salt ‖ JCS(value)) in lowercase hex. With --result the input is a whole
    /// MCP tool result (or a JSON-RPC response carrying one) and the fingerprint covers its
    /// structuredContent when present, else its content array; which one is said on stderr.
    /// Exits 1 when the input is not I-JSON or has no body, 2 on a bad salt or I/O error.
    Fingerprint(ekl::FingerprintArgs),
    /// ekl's endpoint challenge proof.
    Challenge {
        #[command(subcommand)]
        command: ChallengeCommand,
    },
    /// Print a completion script for a shell: `canonfuzz completions bash > /etc/bash_completion.d/canonfuzz`.
    Completions(docs::CompletionsArgs),
    /// Print, as Markdown, every field of each family's input: the core entry point that reads
    /// it and the generator categories that vary it (docs/fields.md is this output).
    Fields(docs::FieldsArgs),
    /// Print the man page (roff) to stdout, or with --out write one page per command into DIR.
    Man(docs::ManArgs),
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
    Merge(corpus::MergeArgs),
    /// Write a seed corpus per fuzz target from the vectors, documents of up to 64 KiB (default
    /// fuzz/corpus/<target>/).
    Seeds(corpus::SeedsArgs),
    /// Turn fuzzer artifacts into regression vectors.
    ///
    /// Reproduces each artifact with its own target's check, minimizes it while that check
    /// fails (or, if it no longer fails, while every implementation answers as they do now),
    /// and writes a vector to corpus/<family>/regressions/ whose expected result comes from
    /// the independent implementations, so that cargo test replays it from then on. A target
    /// whose inputs its family's vectors do not hold has its minimized input kept as it is,
    /// in corpus/fuzz/<target>/, which cargo test replays through that target's check.
    Triage(corpus::TriageArgs),
    /// Run every implementation over every vector in the corpus and write the conformance
    /// matrix (implementation × category, each cell leading to its failures) as Markdown, as
    /// a colour-coded HTML page and as JSON.
    Report(corpus::ReportArgs),
    /// Prove a campaign turns red on a wrong core: run every family with planted mutants of
    /// its core in the core's place.
    ///
    /// Each mutant (classic canonicalization bugs, false rejections with every JCS error kind
    /// and wrong kinds; Ed25519 small-order, non-canonical and S >= L acceptance; JWS padding,
    /// crit and typ ignored; Merkle off-by-one index, empty proof, duplicated odd node; fields
    /// left out of ekl and INK hashes; verifiable-mcp holes) must show "core
    /// diverges" on a case where the real core does not, within its family's case budget.
    /// Exits 1 if one does not, 2 if an implementation could not run.
    Selftest(campaign::SelftestArgs),
    /// Convert published third-party test data into a vector file in the corpus.
    Import(corpus::ImportArgs),
}

/// Runs the `canonfuzz` command line on this process's arguments, over the registered
/// families ([`crate::families::all`]), and says how it ended.
pub fn main() -> ExitCode {
    exit::quiet_on_closed_stdout();
    let cli = Cli::parse();
    input::set_limit(cli.max_input_bytes);
    crate::impls::setup::show(!cli.quiet);
    let detail = match (cli.quiet, cli.verbose) {
        (true, _) => summary::Detail::Quiet,
        (_, true) => summary::Detail::Verbose,
        _ => summary::Detail::Normal,
    };
    match cli.command {
        Command::Canon(args) => canon::canon(args.file, args.jsonl, args.max_depth),
        Command::Vectors(args) => corpus::vectors_command(args, detail),
        Command::Manifest(args) => corpus::manifest(args.dir),
        Command::List(args) => list::list(args.what, args.family.as_deref()),
        Command::Setup => setup::setup(cli.verbose),
        Command::Diff(args) => campaign::diff_command(args, cli.quiet, detail),
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
        Command::Fingerprint(args) => {
            ekl::fingerprint(&args.salt, args.result, args.file.as_deref())
        }
        Command::Challenge { command } => ekl::challenge(command),
        Command::Ink { command } => ink::ink(command).unwrap_or_else(|code| code),
        Command::Completions(args) => docs::completions(args.shell),
        Command::Man(args) => docs::man(args.out.as_deref()),
        Command::Fields(args) => docs::fields(args.family.as_deref()),
        Command::Merge(args) => corpus::merge(&args.shards, args.into),
        Command::Seeds(args) => corpus::seeds(args.corpus, args.out),
        Command::Triage(args) => corpus::triage(&args.artifacts, args.target.as_deref(), args.out),
        Command::Report(args) => corpus::report(
            &corpus::ReportOptions {
                out: args.out,
                json: args.json,
                upstream: args.upstream,
            },
            args.corpus,
            &args.impls,
            &args.with,
        ),
        Command::Selftest(args) => campaign::selftest(args.json, args.seed, &args.families),
        Command::Import(args) => {
            corpus::import_data(&args.source, args.path.as_deref(), args.corpus)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_examples_and_exit_statuses_are_printed_as_written() {
        // Each line fits 80 columns, so clap wraps none of them mid-phrase.
        let help = Cli::command().render_long_help().to_string();
        assert!(help.contains(EXAMPLES), "{help}");
    }
}
