//! `canonfuzz`: canonicalize JSON the RFC 8785 way and run the conformance corpus.

use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use canonfuzz_core::jcs::{Canonicalizer, Options, DEFAULT_MAX_DEPTH};
use canonfuzz_core::{ekl, jws, vmcp};
use canonfuzz_diff::campaign::{self, Config, Harness};
use canonfuzz_diff::conformance::run_corpus;
use canonfuzz_diff::family::Family;
use canonfuzz_diff::import::{import, SourceKind};
use canonfuzz_diff::manifest::Manifest;
use canonfuzz_diff::vector::excerpt;
use canonfuzz_diff::{fuzzing, input, merge, report, selftest, summary, triage};
use clap::{Parser, Subcommand};
use std::io::IsTerminal;

const ABOUT: &str =
    "Test signed-JSON implementations: strict RFC 8785 canonicalization and a conformance corpus.";

const LONG_ABOUT: &str = "\
canonfuzz canonicalizes JSON exactly as RFC 8785 (JCS) requires, holds input to I-JSON \
(RFC 7493), and replays a corpus of conformance vectors against its core.

Every rejection has a stable kind: syntax, invalid_utf8, lone_surrogate, duplicate_key, \
number_out_of_range, depth_limit.";

const EXAMPLES: &str = "\
Examples:
  canonfuzz canon doc.json                 canonical bytes of one document on stdout
  echo '{\"b\":1,\"a\":1e21}' | canonfuzz canon   prints {\"a\":1e+21,\"b\":1}
  canonfuzz canon --jsonl cases.jsonl      one answer line per input line
  canonfuzz vectors                        run every vector in corpus/
  canonfuzz manifest                       re-count and re-digest corpus/ after editing it

Exit status: 0 success, 1 rejected input or failed vectors, 2 usage or I/O error.";

#[derive(Parser)]
#[command(name = "canonfuzz", version, about = ABOUT, long_about = LONG_ABOUT, after_help = EXAMPLES)]
struct Cli {
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
    Vectors {
        /// The corpus directory.
        #[arg(value_name = "DIR")]
        dir: Option<PathBuf>,
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
    /// Run a differential campaign: generate inputs, compare every implementation, minimize
    /// and save each disagreement as a vector.
    ///
    /// Exits 0 when the core agrees with the consensus of the independent implementations or
    /// differs only by registered policy, 1 when the core has a new divergence, 2 when the
    /// harness itself failed.
    Diff {
        /// The family of inputs: jcs (canonicalizers), ed25519 (signature verifiers), jws
        /// (compact JWS verifiers), vmcp (verifiable-mcp response verifiers), merkle (RFC 9162
        /// roots and proofs), ekl (adapter-profile fingerprints and challenge proofs) or ink
        /// (INK leaf hashes and signature bases).
        #[arg(long, default_value = "jcs", value_parser = ["jcs", "ed25519", "jws", "vmcp", "merkle", "ekl", "ink"])]
        family: String,
        /// Number of cases to run (default 100,000 when --duration is not given either).
        #[arg(long, value_name = "N")]
        cases: Option<u64>,
        /// Run for this long instead: e.g. 90s, 10m, 1h.
        #[arg(long, value_name = "D", value_parser = parse_duration)]
        duration: Option<Duration>,
        /// The seed every input derives from.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Batches in flight, and worker processes per external implementation (default:
        /// twice the cores, since a batch waits on its workers).
        #[arg(long, value_name = "J")]
        jobs: Option<usize>,
        /// Compare the core with these implementations only (comma-separated names).
        #[arg(long, value_name = "a,b,...", value_delimiter = ',')]
        impls: Vec<String>,
        /// Corpus directory findings are saved into.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Save no vectors.
        #[arg(long)]
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
    /// Write a seed corpus per fuzz target from the vectors (default fuzz/corpus/<target>/).
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
    /// Reproduces each artifact as its target saw it, minimizes it while it fails the same
    /// way (or, if it no longer fails, while every implementation answers as they do now), and
    /// writes a vector to corpus/jcs/regressions/ whose expected result comes from the
    /// independent implementations, so that cargo test replays it from then on.
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
    /// matrix (implementation × category) as Markdown and as a colour-coded HTML page.
    Report {
        /// Where to write conformance.md and conformance.html.
        #[arg(long, value_name = "DIR", default_value = "target/canonfuzz-report")]
        out: PathBuf,
        /// The corpus directory.
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// Implementations to include besides the core (comma-separated names).
        #[arg(long, value_name = "a,b,...", value_delimiter = ',')]
        impls: Vec<String>,
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

#[derive(Subcommand)]
enum JwsCommand {
    /// Verify one token.
    ///
    /// With --jwks the token's kid picks the key (a token without kid, or naming no key of
    /// the set, is refused: a set is never searched by position); with --jwk the one key given
    /// is pinned, and a kid in the token must be its kid.
    Verify {
        /// The JWK set (`{"keys":[...]}`) to verify against.
        #[arg(
            long,
            value_name = "FILE",
            required_unless_present = "jwk",
            conflicts_with = "jwk"
        )]
        jwks: Option<PathBuf>,
        /// One JWK to verify against, pinned.
        #[arg(long, value_name = "FILE")]
        jwk: Option<PathBuf>,
        /// The typ the token must carry.
        #[arg(long, value_name = "TYP")]
        typ: Option<String>,
        /// The token, a file holding it, or `-` (default) for stdin.
        #[arg(value_name = "TOKEN|FILE|-")]
        token: Option<String>,
    },
}

#[derive(Subcommand)]
enum VmcpCommand {
    /// Verify an MCP tool result, resource or JSON-RPC response against the server's JWK set.
    ///
    /// Valid means the key the JWS names signed a canonical wrapper that is fresh at --now and
    /// covers every member a client of that kind of response reads; members outside what the
    /// specification lets a response carry are refused. Exits 0 when every rule holds, 1
    /// naming every rule that failed, 2 on usage or I/O errors.
    Verify {
        /// The server's JWK set.
        #[arg(long, value_name = "FILE")]
        jwks: PathBuf,
        /// The current time (Unix seconds) that iat, nbf and exp are held to (default: the
        /// system clock).
        #[arg(long, value_name = "UNIX")]
        now: Option<u64>,
        /// The oldest acceptable iat, in seconds before now (default: any age).
        #[arg(long, value_name = "SECONDS")]
        max_age: Option<u64>,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
        /// The response file, or `-` (default) for stdin.
        #[arg(value_name = "RESULT.json|-")]
        file: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum JwkCommand {
    /// Print the RFC 7638 thumbprint of a JWK.
    Thumbprint {
        /// The JWK file, or `-` (default) for stdin.
        #[arg(value_name = "JWK.json|-")]
        file: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum ChallengeCommand {
    /// Print the proof: HMAC-SHA256 keyed with the hex SHA-256 of the credential, over the
    /// challenge hex and the endpoint URL.
    Prove {
        #[command(flatten)]
        inputs: ChallengeInputs,
    },
    /// Check a proof in constant time; exit 0 when it matches, 1 when it does not.
    Verify {
        #[command(flatten)]
        inputs: ChallengeInputs,
        /// The proof to check, 64 hex digits.
        #[arg(long, value_name = "HEX")]
        proof: String,
    },
}

#[derive(Subcommand)]
enum InkCommand {
    /// Check a request as an INK endpoint does: the Authorization header, the signature over
    /// the signature base against the sender's key history, live authentication, freshness
    /// (with --now) and the sender cross-check. Prints the decision; on rejection INK's error
    /// code, message and HTTP status. Exits 0 accepted, 1 rejected, 2 usage or I/O error.
    VerifyRequest {
        /// The HTTP method.
        #[arg(long, default_value = "POST")]
        method: String,
        /// The request path.
        #[arg(long)]
        path: String,
        /// This endpoint's DID.
        #[arg(long, value_name = "DID")]
        recipient: String,
        /// The Authorization header's value.
        #[arg(
            long,
            value_name = "HEADER",
            required_unless_present = "no_authorization"
        )]
        authorization: Option<String>,
        /// The request carries no Authorization header (INK rejects it, HTTP 401).
        #[arg(long, conflicts_with = "authorization")]
        no_authorization: bool,
        /// The key directory: a JSON object from each sender DID to its key history, an array
        /// of entries (keyId, publicKeyHex, status, validFrom, validUntil, revokedAt). Only
        /// the history of the DID the body's `from` names is used; entries that cannot verify
        /// the request are reported, not passed over.
        #[arg(long, value_name = "FILE")]
        keys: PathBuf,
        /// Let retired keys authenticate (a rotation grace window).
        #[arg(long)]
        allow_retired: bool,
        /// The receiver's clock (an INK timestamp); checks freshness when given.
        #[arg(long, value_name = "TIMESTAMP")]
        now: Option<String>,
        /// Print the decision as JSON.
        #[arg(long)]
        json: bool,
        /// The body file, or `-` (default) for stdin.
        #[arg(value_name = "BODY|-")]
        body: Option<PathBuf>,
    },
    /// Take any of INK's decisions on an input written as INK's conformance corpus writes a
    /// case's input (INK's own field names): checkpoints, audit responses and receipts, leaf
    /// hashes, signature bases, key rotation, principals, timestamps, replay, agent cards and
    /// the seed's witness, containment and discovery rules. Prints the decision and what an
    /// acceptance yields (a leaf hash, a canonical form, a key id...). Exits 0 accepted,
    /// 1 rejected, 2 when the input is not such a case or on I/O error.
    Decide {
        /// The decision, named as INK's corpus names its category (see --list).
        #[arg(required_unless_present = "list", value_name = "CATEGORY")]
        category: Option<String>,
        /// List every decision and the members its input has.
        #[arg(long)]
        list: bool,
        /// Print the decision as JSON.
        #[arg(long)]
        json: bool,
        /// The input file, or `-` (default) for stdin.
        #[arg(value_name = "INPUT.json|-")]
        file: Option<PathBuf>,
    },
    /// Check a Merkle proof given as JSON: `{"index","size","leafHash","proof","root"}` for
    /// inclusion, `{"first","firstRoot","second","secondRoot","proof"}` for consistency
    /// (hashes as lowercase hex). Exits 0 valid, 1 invalid, 2 usage or I/O error.
    VerifyProof {
        /// Print the decision as JSON.
        #[arg(long)]
        json: bool,
        /// The proof file, or `-` (default) for stdin.
        #[arg(value_name = "PROOF.json|-")]
        file: Option<PathBuf>,
    },
}

/// Prints an INK decision, as text or JSON, and gives its exit status.
fn ink_decision(
    json: bool,
    outcome: Result<serde_json::Value, canonfuzz_core::ink::InkError>,
) -> ExitCode {
    use canonfuzz_core::ink::transport::http_status;
    match outcome {
        Ok(details) => {
            if json {
                println!(
                    "{}",
                    serde_json::json!({"decision": "accepted", "details": details})
                );
            } else {
                println!("accepted {details}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            let status = http_status(&e);
            if json {
                println!(
                    "{}",
                    serde_json::json!({"decision": "rejected", "httpStatus": status,
                        "error": {"error": e.kind, "message": e.message}})
                );
            } else {
                println!(
                    "rejected: HTTP {status} {{\"error\":\"{}\",\"message\":{:?}}}",
                    e.kind, e.message
                );
            }
            ExitCode::from(1)
        }
    }
}

fn ink(command: InkCommand) -> Result<ExitCode, ExitCode> {
    use canonfuzz_core::ink::{merkle, transport, InkError};
    match command {
        InkCommand::VerifyRequest {
            method,
            path,
            recipient,
            authorization,
            no_authorization: _,
            keys,
            allow_retired,
            now,
            json,
            body,
        } => {
            let directory = read_or_exit(Some(&keys))?;
            let directory: serde_json::Map<String, serde_json::Value> =
                serde_json::from_slice(&directory).map_err(|e| {
                    usage_error(format!(
                        "{}: {e}; give a JSON object from each sender DID to its key history, {{\"did:...\": [{{\"keyId\":..,\"publicKeyHex\":..,\"status\":..}}]}}",
                        keys.display()
                    ))
                })?;
            let body = read_or_exit(body.as_deref())?;
            let outcome = transport::verify_request(&transport::Request {
                method: &method,
                path: &path,
                recipient_did: &recipient,
                body: &body,
                authorization: authorization.as_deref(),
                keys: &directory,
                allow_retired,
                now: now.as_deref(),
            })
            .map(|a| {
                let skipped: Vec<String> = a.key.skipped.iter().map(ToString::to_string).collect();
                for entry in skipped.iter().filter(|_| !json) {
                    eprintln!("note: skipped {entry}");
                }
                serde_json::json!({"sender": a.sender, "keyId": a.key.key_id, "keyStatus": a.key.status, "skippedKeys": skipped})
            });
            Ok(ink_decision(json, outcome))
        }
        InkCommand::Decide {
            list: true, json, ..
        } => {
            if json {
                let all: serde_json::Map<String, serde_json::Value> =
                    canonfuzz_diff::ink::DECISIONS
                        .iter()
                        .map(|(name, input)| (name.to_string(), serde_json::json!(input)))
                        .collect();
                println!("{}", serde_json::Value::Object(all));
            } else {
                for (name, input) in canonfuzz_diff::ink::DECISIONS {
                    println!("{name:<24} {input}");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        InkCommand::Decide {
            category,
            json,
            file,
            ..
        } => {
            let category = category.unwrap_or_default();
            let Some((_, shape)) = canonfuzz_diff::ink::DECISIONS
                .iter()
                .find(|(name, _)| *name == category)
            else {
                return Err(usage_error(format!(
                    "unknown INK decision {category:?}; `canonfuzz ink decide --list` lists them"
                )));
            };
            let input = read_or_exit(file.as_deref())?;
            let text = String::from_utf8_lossy(&input);
            match canonfuzz_diff::ink::decide(&category, &text) {
                Ok(outcome) => Ok(ink_decision(json, outcome.map(serde_json::Value::Object))),
                Err(why) => Err(usage_error(format!(
                    "the input is not a {category} case: {why}; it is {shape}"
                ))),
            }
        }
        InkCommand::VerifyProof { json, file } => {
            let proof: serde_json::Value =
                match serde_json::from_slice(&read_or_exit(file.as_deref())?) {
                    Ok(v) => v,
                    Err(e) => return Err(usage_error(format!("the proof is not JSON: {e}"))),
                };
            let text = |name: &str| proof.get(name).and_then(|v| v.as_str()).unwrap_or_default();
            let number = |name: &str| proof.get(name).and_then(|v| v.as_u64());
            let path = || -> Result<Vec<merkle::Hash>, InkError> {
                proof
                    .get("proof")
                    .and_then(|p| p.as_array())
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                    .iter()
                    .map(|h| merkle::parse_hash(h.as_str().unwrap_or_default(), "a proof node"))
                    .collect()
            };
            const INCLUSION: &str = r#"{"index","size","leafHash","proof","root"}"#;
            const CONSISTENCY: &str = r#"{"first","firstRoot","second","secondRoot","proof"}"#;
            let inclusion = number("index").zip(number("size"));
            let consistency = number("first").zip(number("second"));
            let (form, needs, shape) = match (inclusion, consistency) {
                (Some(_), _) => ("inclusion", ["leafHash", "proof", "root"], INCLUSION),
                (_, Some(_)) => ("consistency", ["firstRoot", "secondRoot", "proof"], CONSISTENCY),
                (None, None) => {
                    return Err(usage_error(format!(
                        "the proof has neither index and size nor first and second; give {INCLUSION} or {CONSISTENCY}"
                    )))
                }
            };
            if let Some(name) = needs.iter().find(|n| proof.get(**n).is_none()) {
                let ink_form = if form == "inclusion" {
                    " (or INK's own form, nodes from the root down, with `canonfuzz ink decide merkle-inclusion`)"
                } else {
                    ""
                };
                return Err(usage_error(format!(
                    "the {form} proof has no {name:?}; give {shape}{ink_form}"
                )));
            }
            let outcome = (|| match (inclusion, consistency) {
                (Some((index, size)), _) => merkle::verify_inclusion(
                    index,
                    size,
                    &merkle::parse_hash(text("leafHash"), "leafHash")?,
                    &path()?,
                    &merkle::parse_hash(text("root"), "root")?,
                ),
                (_, first_second) => {
                    let (first, second) = first_second.unwrap_or_default();
                    merkle::verify_consistency(
                        first,
                        second,
                        &merkle::parse_hash(text("firstRoot"), "firstRoot")?,
                        &merkle::parse_hash(text("secondRoot"), "secondRoot")?,
                        &path()?,
                    )
                }
            })();
            Ok(ink_decision(
                json,
                outcome.map(|()| serde_json::json!({"proof": "valid"})),
            ))
        }
    }
}

#[derive(clap::Args)]
struct ChallengeInputs {
    /// A file holding the provider credential (one trailing line break is not part of it).
    #[arg(long, value_name = "FILE")]
    credential_file: PathBuf,
    /// The challenge, as the lowercase hex the endpoint sent.
    #[arg(long, value_name = "HEX")]
    challenge: String,
    /// The endpoint URL the proof binds.
    #[arg(long, value_name = "URL")]
    endpoint: String,
}

fn fingerprint(salt: &str, result: bool, file: Option<&Path>) -> ExitCode {
    let salt = match ekl::Salt::from_hex(salt) {
        Ok(s) => s,
        Err(e) => return usage_error(format!("--salt: {e}")),
    };
    let input = match read_or_exit(file) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let computed = if result {
        ekl::result_fingerprint(&salt, &input).map(|(body, fingerprint)| {
            eprintln!("fingerprint of the result's {}", body.name());
            fingerprint
        })
    } else {
        ekl::fingerprint(&salt, &input)
    };
    match computed {
        Ok(fingerprint) => {
            println!("{fingerprint}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error[{}]: {e}", e.kind());
            ExitCode::from(1)
        }
    }
}

fn challenge(command: ChallengeCommand) -> ExitCode {
    let (ChallengeCommand::Prove { inputs } | ChallengeCommand::Verify { inputs, .. }) = &command;
    let credential = match read_or_exit(Some(&inputs.credential_file)) {
        Ok(mut bytes) => {
            for end in [b'\n', b'\r'] {
                if bytes.last() == Some(&end) {
                    bytes.pop();
                }
            }
            bytes
        }
        Err(code) => return code,
    };
    let (challenge, endpoint) = (&inputs.challenge, &inputs.endpoint);
    match &command {
        ChallengeCommand::Prove { .. } => {
            match ekl::challenge_proof(&credential, challenge, endpoint) {
                Ok(proof) => {
                    println!("{proof}");
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error(format!("error[{}]: {e}", e.kind())),
            }
        }
        ChallengeCommand::Verify { proof, .. } => {
            match ekl::verify_challenge(&credential, challenge, endpoint, proof) {
                Ok(()) => {
                    println!("valid");
                    ExitCode::SUCCESS
                }
                Err(e @ ekl::EklError::ProofMismatch) => {
                    println!("invalid: {e}");
                    ExitCode::from(1)
                }
                Err(e) => usage_error(format!("error[{}]: {e}", e.kind())),
            }
        }
    }
}

/// Reads a file, or stdin for `-` or nothing, within the input limit; on failure says why
/// and gives the exit status: 1 for an input refused as too large, 2 when it cannot be read.
fn read_or_exit(file: Option<&Path>) -> Result<Vec<u8>, ExitCode> {
    input::read(file).map_err(|e| {
        eprintln!("canonfuzz: {e}");
        ExitCode::from(if e.is_refusal() { 1 } else { 2 })
    })
}

/// Reads a key set (or, pinned, one key) file.
fn read_keys<T>(path: &Path, parse: fn(&[u8]) -> Result<T, jws::JwsError>) -> Result<T, ExitCode> {
    let bytes = read_or_exit(Some(path))?;
    parse(&bytes).map_err(|e| usage_error(format!("{}: error[{}] {e}", path.display(), e.kind())))
}

/// The keys a token is checked with: a set searched by kid, or one pinned key.
enum Keys {
    Set(jws::Jwks),
    Pinned(Box<jws::Jwk>),
}

fn jws_verify(
    jwks: Option<&Path>,
    jwk: Option<&Path>,
    typ: Option<String>,
    token: Option<String>,
) -> Result<ExitCode, ExitCode> {
    let keys = match (jwks, jwk) {
        (Some(set), _) => Keys::Set(read_keys(set, jws::Jwks::parse)?),
        (None, Some(key)) => Keys::Pinned(Box::new(read_keys(key, jws::Jwk::parse)?)),
        (None, None) => return Err(usage_error("give --jwks SET or --jwk KEY".into())),
    };
    let token = match token.as_deref() {
        Some(t) if t.matches('.').count() == 2 && !Path::new(t).exists() => t.to_string(),
        other => String::from_utf8_lossy(&read_or_exit(other.map(Path::new))?)
            .trim()
            .to_string(),
    };
    let profile = jws::Profile { typ };
    let verified = match &keys {
        Keys::Set(set) => jws::verify(&token, set, &profile),
        Keys::Pinned(key) => jws::verify_with_key(&token, key, &profile),
    };
    Ok(match verified {
        Ok(v) => {
            let key = match &keys {
                Keys::Set(set) => set.keys.get(v.key_index),
                Keys::Pinned(key) => Some(key.as_ref()),
            };
            let thumbprint = key.map_or_else(String::new, |k| {
                k.thumbprint().unwrap_or_else(|e| format!("(none: {e})"))
            });
            println!("valid");
            println!("kid: {}", v.kid.as_deref().unwrap_or("(none)"));
            match keys {
                Keys::Set(_) => println!(
                    "key: #{} in the set, RFC 7638 thumbprint {thumbprint}",
                    v.key_index
                ),
                Keys::Pinned(_) => {
                    println!("key: the pinned key, RFC 7638 thumbprint {thumbprint}")
                }
            }
            println!("payload: {}", String::from_utf8_lossy(&v.payload));
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("invalid: error[{}] {e}", e.kind());
            ExitCode::from(1)
        }
    })
}

fn vmcp_verify(
    jwks: &Path,
    now: Option<u64>,
    max_age: Option<u64>,
    json: bool,
    file: Option<&Path>,
) -> Result<ExitCode, ExitCode> {
    let set = read_keys(jwks, jws::Jwks::parse)?;
    let response = read_or_exit(file)?;
    let now = now.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let v = vmcp::verify_response(&response, &set, vmcp::Clock { now, max_age });
    let payload = v
        .payload
        .as_deref()
        .and_then(|p| serde_json::from_slice::<serde_json::Value>(p).ok());
    if json {
        let failures: Vec<serde_json::Value> = v
            .failures
            .iter()
            .map(|f| serde_json::json!({"rule": f.rule.name(), "message": f.message}))
            .collect();
        let out = serde_json::json!({
            "valid": v.is_valid(),
            "kind": v.kind.map(vmcp::Kind::name),
            "kid": v.kid,
            "key_index": v.key_index,
            "failures": failures,
            "payload": payload,
        });
        println!("{out}");
    } else {
        println!("{}", if v.is_valid() { "valid" } else { "invalid" });
        if let Some(kind) = v.kind {
            println!("kind: {}", kind.name());
        }
        if let Some(kid) = &v.kid {
            println!("kid: {kid}");
        }
        if let (Some(i), Some(key)) = (v.key_index, v.key_index.and_then(|i| set.keys.get(i))) {
            println!(
                "key: #{i} in the set, RFC 7638 thumbprint {}",
                key.thumbprint().unwrap_or_default()
            );
        }
        for f in &v.failures {
            println!("failed [{}]: {}", f.rule.name(), f.message);
        }
        if let Some(p) = &v.payload {
            println!("payload: {}", String::from_utf8_lossy(p));
        }
    }
    Ok(if v.is_valid() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The corpus directory: the one given, else `$CANONFUZZ_CORPUS`, else `./corpus`, else the
/// build tree's while it exists.
fn corpus_dir(dir: Option<PathBuf>) -> PathBuf {
    dir.or_else(|| std::env::var_os("CANONFUZZ_CORPUS").map(PathBuf::from))
        .unwrap_or_else(|| {
            let local = PathBuf::from("corpus");
            let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
            if local.is_dir() || !repo.is_dir() {
                local
            } else {
                repo
            }
        })
}

/// Writes the man pages generated from the command-line definitions.
fn man(out: Option<&Path>) -> ExitCode {
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

fn usage_error(message: String) -> ExitCode {
    eprintln!("canonfuzz: {message}");
    ExitCode::from(2)
}

fn open_input(file: Option<&Path>) -> io::Result<Box<dyn Read>> {
    match file {
        None => Ok(Box::new(io::stdin().lock())),
        Some(p) if p == Path::new("-") => Ok(Box::new(io::stdin().lock())),
        Some(p) => Ok(Box::new(std::fs::File::open(p)?)),
    }
}

fn canon(file: Option<PathBuf>, jsonl: bool, max_depth: usize) -> ExitCode {
    let name = file
        .as_ref()
        .map_or("stdin".into(), |p| p.display().to_string());
    let mut canonicalizer = Canonicalizer::new(Options { max_depth });
    let stdout = io::stdout().lock();
    if jsonl {
        let reader = match open_input(file.as_deref()) {
            Ok(r) => r,
            Err(e) => return usage_error(format!("cannot open {name}: {e}")),
        };
        return match canonfuzz_diff::canon::run_jsonl(
            BufReader::with_capacity(1 << 16, reader),
            stdout,
            &mut canonicalizer,
            input::limit(),
        ) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => usage_error(format!("reading {name} or writing stdout failed: {e}")),
        };
    }
    let input = match read_or_exit(file.as_deref()) {
        Ok(b) => b,
        Err(code) => return code,
    };
    match canonicalizer.canonicalize(&input) {
        Ok(out) => {
            let mut stdout = stdout;
            match stdout.write_all(&out).and_then(|()| stdout.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => usage_error(format!("writing stdout failed: {e}")),
            }
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

fn vectors(dir: PathBuf) -> ExitCode {
    if !dir.is_dir() {
        return usage_error(format!(
            "{} is not a directory: pass the corpus directory (a clone's corpus/)",
            dir.display()
        ));
    }
    let report = run_corpus(&dir);
    for failure in &report.failures {
        println!("{failure}");
    }
    println!("{}", report.summary());
    if report.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn diff(config: &Config, summary_json: Option<&Path>, detail: summary::Detail) -> ExitCode {
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
    ));
    let mut json = summary::to_json(&summary);
    if config.family == Family::Ed25519 {
        let dir = corpus_dir(None);
        match Harness::new(Family::Ed25519, &config.impls)
            .and_then(|(verifiers, _)| report::ed25519_rows(&verifiers, &dir))
        {
            Ok(rows) => {
                human(&report::ed25519_markdown(&rows));
                json["verifier_table"] = report::rows_to_json(&rows);
            }
            Err(e) => eprintln!("WARNING: no accept/reject table: {e}"),
        }
    }
    if let Some(path) = summary_json {
        let mut text = serde_json::to_vec_pretty(&json).unwrap_or_default();
        text.push(b'\n');
        let written = if to_stdout {
            let mut stdout = io::stdout().lock();
            stdout
                .write_all(&text)
                .and_then(|()| stdout.flush())
                .map_err(|e| format!("stdout: {e}"))
        } else {
            canonfuzz_diff::vector::write_atomically(path, &text)
        };
        if let Err(e) = written {
            return usage_error(format!("cannot write the summary JSON: {e}"));
        }
    }
    if summary.core_diverges() {
        ExitCode::from(1)
    } else if summary.interrupted {
        // A campaign that did not run its cases has not shown the core agrees.
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

fn main() -> ExitCode {
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
        } => canon(file, jsonl, max_depth),
        Command::Vectors { dir } => vectors(corpus_dir(dir)),
        Command::Manifest { dir } => {
            let dir = corpus_dir(dir);
            match Manifest::build(&dir).and_then(|m| m.write(&dir).map(|()| m)) {
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
        Command::Diff {
            family,
            cases,
            duration,
            seed,
            jobs,
            impls,
            out,
            no_save,
            shard,
            summary_json,
            allow_missing,
        } => {
            let Some(family) = Family::from_name(&family) else {
                return usage_error(format!("unknown family {family:?}"));
            };
            let known = out.clone();
            let config = Config {
                family,
                cases,
                duration,
                seed,
                jobs: jobs.unwrap_or_else(|| {
                    2 * std::thread::available_parallelism().map_or(2, |n| n.get())
                }),
                impls,
                out: (!no_save).then(|| corpus_dir(out)),
                shard,
                progress: !cli.quiet,
                allow_missing,
                known: Some(corpus_dir(known)),
            };
            diff(&config, summary_json.as_deref(), detail)
        }
        Command::Jws {
            command:
                JwsCommand::Verify {
                    jwks,
                    jwk,
                    typ,
                    token,
                },
        } => jws_verify(jwks.as_deref(), jwk.as_deref(), typ, token).unwrap_or_else(|code| code),
        Command::Vmcp {
            command:
                VmcpCommand::Verify {
                    jwks,
                    now,
                    max_age,
                    json,
                    file,
                },
        } => vmcp_verify(&jwks, now, max_age, json, file.as_deref()).unwrap_or_else(|code| code),
        Command::Jwk {
            command: JwkCommand::Thumbprint { file },
        } => match read_or_exit(file.as_deref())
            .map(|b| jws::Jwk::parse(&b).and_then(|k| k.thumbprint()))
        {
            Ok(Ok(t)) => {
                println!("{t}");
                ExitCode::SUCCESS
            }
            Ok(Err(e)) => {
                eprintln!("canonfuzz: error[{}] {e}", e.kind());
                ExitCode::from(1)
            }
            Err(code) => code,
        },
        Command::Fingerprint { salt, result, file } => fingerprint(&salt, result, file.as_deref()),
        Command::Challenge { command } => challenge(command),
        Command::Ink { command } => ink(command).unwrap_or_else(|code| code),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "canonfuzz", &mut io::stdout());
            ExitCode::SUCCESS
        }
        Command::Man { out } => man(out.as_deref()),
        Command::Merge { shards, into } => {
            let into = corpus_dir(into);
            match merge::merge(&shards, &into) {
                Ok(added) => {
                    for path in &added {
                        println!("added {path}");
                    }
                    println!("{} vectors merged into {}", added.len(), into.display());
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error(e),
            }
        }
        Command::Seeds { corpus, out } => {
            let out = out.unwrap_or_else(|| corpus_dir(None).join("../fuzz/corpus"));
            match fuzzing::write_seeds(&corpus_dir(corpus), &out) {
                Ok(n) => {
                    println!(
                        "wrote seeds from {n} documents, every JWS, verifiable-mcp and adapter-profile vector and 256 Merkle cases for {} into {}",
                        fuzzing::TARGETS.join(", "),
                        out.display()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error(e),
            }
        }
        Command::Triage {
            artifacts,
            target,
            out,
        } => {
            let corpus = corpus_dir(out);
            let harness = match Harness::new(Family::Jcs, &[]) {
                Ok((h, missing)) => {
                    for (name, why) in &missing {
                        eprintln!("WARNING: {name} did not run: {why}");
                    }
                    h
                }
                Err(e) => return usage_error(e),
            };
            for artifact in &artifacts {
                let result = triage::target_of(artifact, target.as_deref())
                    .and_then(|t| triage::triage(&harness, artifact, &t, &corpus));
                match result {
                    Ok(t) => {
                        println!("{} ({})", t.artifact.display(), t.target);
                        match &t.failure {
                            Some(f) => println!("  reproduces: {f}"),
                            None => println!("  no longer reproduces; kept as a regression vector"),
                        }
                        println!(
                            "  minimized ({} bytes): {}",
                            t.minimized.len(),
                            excerpt(&t.minimized)
                        );
                        println!("  {}", t.signature);
                        match &t.vector {
                            Some(v) => println!("  vector: {}", corpus.join(v).display()),
                            None => {
                                println!("  no vector: no implementation gives an expected result")
                            }
                        }
                    }
                    Err(e) => return usage_error(e),
                }
            }
            ExitCode::SUCCESS
        }
        Command::Report { out, corpus, impls } => {
            let built = Harness::new(Family::Jcs, &impls).and_then(|(jcs, mut missing)| {
                let (ed25519, more) = Harness::new(Family::Ed25519, &[])?;
                missing.extend(more);
                let (jws, more) = Harness::new(Family::Jws, &[])?;
                missing.extend(more);
                for (name, why) in &missing {
                    eprintln!("WARNING: {name} did not run: {why}");
                }
                let harnesses = report::Harnesses {
                    jcs: &jcs,
                    ed25519: &ed25519,
                    jws: &jws,
                };
                report::build(&harnesses, &corpus_dir(corpus))
            });
            match built.and_then(|m| m.write(&out).map(|paths| (m, paths))) {
                Ok((matrix, (md, html))) => {
                    print!("{}", matrix.markdown());
                    println!("\nwrote {} and {}", md.display(), html.display());
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error(e),
            }
        }
        Command::Selftest {
            json,
            seed,
            families,
        } => {
            let chosen: Result<Vec<Family>, String> = if families.is_empty() {
                Ok(Family::ALL.to_vec())
            } else {
                families
                    .iter()
                    .map(|name| {
                        Family::from_name(name).ok_or_else(|| format!("unknown family {name:?}"))
                    })
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
                            serde_json::to_string_pretty(&run.to_json()).unwrap_or_default()
                        );
                    } else {
                        print!("{}", run.render());
                    }
                    if !run.complete() {
                        eprintln!("error[quorum]: the self-test needs every implementation of each family it runs; install the missing ones (see the README's set-up) and run it again");
                        ExitCode::from(2)
                    } else if run.passed() {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::from(1)
                    }
                }
                Err(e) => usage_error(format!("the self-test failed to run: {e}")),
            }
        }
        Command::Import {
            source,
            path,
            corpus,
        } => match import(source, path.as_deref(), &corpus_dir(corpus)) {
            Ok((target, count)) => {
                println!("wrote {count} tests to {}", target.display());
                ExitCode::SUCCESS
            }
            Err(e) => usage_error(e),
        },
    }
}
