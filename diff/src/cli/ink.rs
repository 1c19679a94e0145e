//! INK: `ink verify-request`, `ink verify-proof` and `ink decide`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;

use crate::escape::terminal;

use crate::cli::exit::{read_or_exit, rejected, usage_error};

#[derive(Subcommand)]
pub(crate) enum InkCommand {
    /// Check a request as an INK endpoint does: the Authorization header, the signature over
    /// the signature base against the sender's key history, live authentication, freshness
    /// (with --now) and the sender cross-check. Prints the decision; on rejection INK's error
    /// code, message and HTTP status. Exits 0 accepted, 1 rejected, 2 usage or I/O error.
    #[command(
        override_usage = "canonfuzz ink verify-request --path <PATH> --recipient <DID>
       --keys <FILE> [OPTIONS] [BODY|-]"
    )]
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
pub(crate) fn ink_decision(
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
                println!("accepted {}", terminal(&details.to_string()));
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
                    "rejected: HTTP {status} {{\"error\":\"{}\",\"message\":{}}}",
                    e.kind,
                    terminal(&format!("{:?}", e.message))
                );
            }
            rejected()
        }
    }
}

pub(crate) fn ink(command: InkCommand) -> Result<ExitCode, ExitCode> {
    use canonfuzz_core::ink::transport;
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
                    eprintln!("note: skipped {}", terminal(entry));
                }
                serde_json::json!({"sender": a.sender, "keyId": a.key.key_id, "keyStatus": a.key.status, "skippedKeys": skipped})
            });
            Ok(ink_decision(json, outcome))
        }
        InkCommand::Decide {
            category,
            list,
            json,
            file,
        } => decide(category, list, json, file.as_deref()),
        InkCommand::VerifyProof { json, file } => {
            let proof: serde_json::Value =
                match serde_json::from_slice(&read_or_exit(file.as_deref())?) {
                    Ok(v) => v,
                    Err(e) => return Err(usage_error(format!("the proof is not JSON: {e}"))),
                };
            let outcome =
                crate::families::ink::published::verify_proof(&proof).map_err(usage_error)?;
            Ok(ink_decision(json, outcome))
        }
    }
}

/// `canonfuzz ink decide`: one decision on an input, or with `list` every decision.
fn decide(
    category: Option<String>,
    list: bool,
    json: bool,
    file: Option<&Path>,
) -> Result<ExitCode, ExitCode> {
    if list {
        if json {
            let all: serde_json::Map<String, serde_json::Value> =
                crate::families::ink::published::DECISIONS
                    .iter()
                    .map(|(name, input)| (name.to_string(), serde_json::json!(input)))
                    .collect();
            println!("{}", serde_json::Value::Object(all));
        } else {
            for (name, input) in crate::families::ink::published::DECISIONS {
                println!("{name:<24} {input}");
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let category = category.unwrap_or_default();
    let Some((_, shape)) = crate::families::ink::published::DECISIONS
        .iter()
        .find(|(name, _)| *name == category)
    else {
        return Err(usage_error(format!(
            "unknown INK decision {category:?}; `canonfuzz ink decide --list` lists them"
        )));
    };
    let input = read_or_exit(file)?;
    let text = String::from_utf8_lossy(&input);
    match crate::families::ink::published::decide(&category, &text) {
        Ok(outcome) => Ok(ink_decision(json, outcome.map(serde_json::Value::Object))),
        Err(why) => Err(usage_error(format!(
            "the input is not a {category} case: {why}; it is {shape}"
        ))),
    }
}
