//! The ekl family's commands, ekl's salted fingerprints and challenge proofs:
//! `fingerprint` and `challenge prove|verify`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use canonfuzz_core::ekl;
use clap::Subcommand;

use crate::escape::terminal;

use crate::cli::exit::{read_or_exit, rejected, usage_error};

/// The arguments of `canonfuzz fingerprint`.
#[derive(clap::Args)]
pub(crate) struct FingerprintArgs {
    /// The salt: exactly 64 hex digits (32 bytes).
    #[arg(long, value_name = "HEX")]
    pub(crate) salt: String,
    /// The input is a tool result: fingerprint its body.
    #[arg(long)]
    pub(crate) result: bool,
    /// The input file, or `-` (default) for stdin.
    #[arg(value_name = "FILE|-")]
    pub(crate) file: Option<PathBuf>,
}

#[derive(Subcommand)]
pub(crate) enum ChallengeCommand {
    /// Print the proof: HMAC-SHA256 keyed with the hex SHA-256 of the credential, over the
    /// challenge hex and the endpoint URL.
    #[command(
        override_usage = "canonfuzz challenge prove --credential-file <FILE> --challenge <HEX>
       --endpoint <URL> [OPTIONS]"
    )]
    Prove {
        #[command(flatten)]
        inputs: ChallengeInputs,
    },
    /// Check a proof in constant time; exit 0 when it matches, 1 when it does not.
    #[command(
        override_usage = "canonfuzz challenge verify --credential-file <FILE> --challenge <HEX>
       --endpoint <URL> --proof <HEX> [OPTIONS]"
    )]
    Verify {
        #[command(flatten)]
        inputs: ChallengeInputs,
        /// The proof to check, 64 hex digits.
        #[arg(long, value_name = "HEX")]
        proof: String,
    },
}

#[derive(clap::Args)]
pub(crate) struct ChallengeInputs {
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

pub(crate) fn fingerprint(salt: &str, result: bool, file: Option<&Path>) -> ExitCode {
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
            eprintln!("error[{}]: {}", e.kind(), terminal(&e.to_string()));
            rejected()
        }
    }
}

pub(crate) fn challenge(command: ChallengeCommand) -> ExitCode {
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
                    rejected()
                }
                Err(e) => usage_error(format!("error[{}]: {e}", e.kind())),
            }
        }
    }
}
