//! `ed25519 verify`, `jws verify`, `vmcp verify` and `jwk thumbprint`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use canonfuzz_core::{jws, vmcp};
use clap::Subcommand;
use serde::Serialize;
use serde_json::value::RawValue;

use crate::escape::{json_lines, terminal};
use canonfuzz_core::shown::{quoted, Excerpt};

use crate::cli::exit::{read_or_exit, rejected, usage_error, Failure};

#[derive(Subcommand)]
pub(crate) enum JwsCommand {
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
        /// The compact token itself, or `-` (default) to read it from stdin.
        #[arg(value_name = "TOKEN|-", conflicts_with = "file")]
        token: Option<String>,
        /// Read the token from this file instead.
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
pub(crate) enum VmcpCommand {
    /// Verify an MCP tool result, resource or JSON-RPC response against the server's JWK set.
    ///
    /// Valid means the key the JWS names signed a canonical wrapper that is fresh at --now and
    /// covers every member a client of that kind of response reads, numbers by their exact
    /// value; members outside what the specification lets a response carry are refused, and
    /// what it lets a response carry unsigned (`_meta` beside the envelope, framing, v0.1
    /// siblings, a kind the payload does not bind) is listed, or with --strict refused. Exits
    /// 0 when every rule holds, 1 naming every rule that failed, 2 on usage or I/O errors.
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
        /// Refuse everything the response carries that the signature does not cover, instead
        /// of listing it.
        #[arg(long)]
        strict: bool,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
        /// The response file, or `-` (default) for stdin.
        #[arg(value_name = "RESULT.json|-")]
        file: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
pub(crate) enum JwkCommand {
    /// Print the RFC 7638 thumbprint of a JWK.
    Thumbprint {
        /// The JWK file, or `-` (default) for stdin.
        #[arg(value_name = "JWK.json|-")]
        file: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
pub(crate) enum Ed25519Command {
    /// Verify an Ed25519 signature under the core's strict policy: canonical A and R of prime
    /// order, S below L, the cofactorless equation. Prints `valid`, or `invalid: error[kind]`
    /// naming the rule broken. Exits 0 valid, 1 invalid, 2 on a usage or I/O error.
    Verify {
        /// The public key, 64 hex digits.
        #[arg(long, value_name = "HEX")]
        key: String,
        /// The signature, 128 hex digits.
        #[arg(long, value_name = "HEX")]
        sig: String,
        /// The message: a file, or `-` (default) for stdin, taken byte for byte.
        #[arg(value_name = "MESSAGE|-")]
        message: Option<PathBuf>,
    },
}

/// Verifies one Ed25519 signature over the message in `message`.
pub(crate) fn ed25519_verify(key: &str, sig: &str, message: Option<&Path>) -> ExitCode {
    let decode = |name: &str, hex: &str| {
        crate::vector::from_hex(hex).map_err(|e| usage_error(format!("--{name}: {e}")))
    };
    let (key, sig) = match (decode("key", key), decode("sig", sig)) {
        (Ok(key), Ok(sig)) => (key, sig),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    let message = match read_or_exit(message) {
        Ok(m) => m,
        Err(code) => return code,
    };
    match canonfuzz_core::ed25519::verify(&key, &message, &sig) {
        Ok(()) => {
            println!("valid");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("invalid: error[{}] {}", e.kind(), terminal(&e.to_string()));
            rejected()
        }
    }
}

/// Reads a key set (or, pinned, one key) file. A key set is what a server serves, so one the
/// core refuses is a rejected input (exit 1), as a refused response is.
pub(crate) fn read_keys<T>(
    path: &Path,
    parse: fn(&[u8]) -> Result<T, jws::JwsError>,
) -> Result<T, ExitCode> {
    let bytes = read_or_exit(Some(path))?;
    parse(&bytes).map_err(|e| {
        Failure::Rejected(Some(format!(
            "canonfuzz: {}: error[{}] {e}; the keys cannot be used, so nothing was verified",
            path.display(),
            e.kind()
        )))
        .exit()
    })
}

/// The keys a token is checked with: a set searched by kid, or one pinned key.
pub(crate) enum Keys {
    Set(jws::Jwks),
    Pinned(Box<jws::Jwk>),
}

/// Whether `text` has a compact token's shape: three base64url segments joined by dots.
fn token_shaped(text: &str) -> bool {
    text.split('.').count() == 3
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// The token in `path`, or on stdin, without the line break a file or a pipe adds.
fn read_token(path: Option<&Path>) -> Result<String, ExitCode> {
    Ok(String::from_utf8_lossy(&read_or_exit(path)?)
        .trim()
        .to_string())
}

pub(crate) fn jws_verify(
    jwks: Option<&Path>,
    jwk: Option<&Path>,
    typ: Option<String>,
    token: Option<String>,
    file: Option<&Path>,
) -> Result<ExitCode, ExitCode> {
    let keys = match (jwks, jwk) {
        (Some(set), _) => Keys::Set(read_keys(set, jws::Jwks::parse)?),
        (None, Some(key)) => Keys::Pinned(Box::new(read_keys(key, jws::Jwk::parse)?)),
        (None, None) => return Err(usage_error("give --jwks SET or --jwk KEY".into())),
    };
    let token = match (token.as_deref(), file) {
        (Some("-") | None, None) => read_token(None)?,
        (None, Some(path)) => read_token(Some(path))?,
        (Some(t), _) if !token_shaped(t) && Path::new(t).is_file() => {
            return Err(usage_error(format!(
                "{} is not a compact token (three segments joined by dots) but names a \
                 file; to read the token from it, give --file {}",
                quoted(t),
                terminal(t)
            )))
        }
        (Some(t), _) => t.to_string(),
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
            match v.kid.as_deref() {
                Some(kid) => println!("kid: {}", terminal(&quoted(kid))),
                None => println!("kid: (none)"),
            }
            match keys {
                Keys::Set(_) => println!(
                    "key: #{} in the set, RFC 7638 thumbprint {thumbprint}",
                    v.key_index
                ),
                Keys::Pinned(_) => {
                    println!("key: the pinned key, RFC 7638 thumbprint {thumbprint}")
                }
            }
            println!(
                "payload: {}",
                terminal(&String::from_utf8_lossy(&v.payload))
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("invalid: error[{}] {}", e.kind(), terminal(&e.to_string()));
            rejected()
        }
    })
}

pub(crate) fn vmcp_verify(
    jwks: &Path,
    now: Option<u64>,
    max_age: Option<u64>,
    strict: bool,
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
    let v = if strict { v.strict() } else { v };
    let out = if json {
        vmcp_json(&v).map_err(usage_error)?
    } else {
        vmcp_text(&v, &set, strict)
    };
    println!("{out}");
    Ok(if v.is_valid() {
        ExitCode::SUCCESS
    } else {
        rejected()
    })
}

/// A verification as `vmcp verify` prints it: the verdict alone on the first line, then one
/// line for each fact, every text from the input quoted and escaped for a terminal.
fn vmcp_text(v: &vmcp::Verification, set: &jws::Jwks, strict: bool) -> String {
    let mut lines = vec![if v.is_valid() { "valid" } else { "invalid" }.to_string()];
    if let Some(kind) = v.kind {
        lines.push(format!("kind: {}", kind.name()));
    }
    if let Some(kid) = &v.kid {
        lines.push(format!("kid: {}", terminal(&quoted(kid))));
    }
    if let (Some(i), Some(key)) = (v.key_index, v.key_index.and_then(|i| set.keys.get(i))) {
        lines.push(format!(
            "key: #{i} in the set, RFC 7638 thumbprint {}",
            key.thumbprint().unwrap_or_default()
        ));
    }
    for f in &v.failures {
        lines.push(format!(
            "failed [{}]: {}",
            f.rule.name(),
            terminal(&f.message)
        ));
    }
    if !strict {
        for u in &v.unsigned {
            lines.push(format!("unsigned: {}", terminal(&u.describe())));
        }
    }
    match &v.payload {
        Some(p) if v.is_valid() => lines.push(format!(
            "payload: {}",
            terminal(&String::from_utf8_lossy(p))
        )),
        Some(p) => lines.push(format!(
            "signed payload, shown cut as the response is invalid: {}",
            terminal(&quoted(&String::from_utf8_lossy(p)))
        )),
        None => {}
    }
    lines.join("\n")
}

/// A verification as `vmcp verify --json` writes it: one line, whatever line breaks the input
/// held, and every string from the input cut as messages cut it.
fn vmcp_json(v: &vmcp::Verification) -> Result<String, String> {
    let report = VmcpReport {
        failures: v
            .failures
            .iter()
            .map(|f| RuleFailure {
                message: &f.message,
                rule: f.rule.name(),
            })
            .collect(),
        key_index: v.key_index,
        kid: v.kid.as_deref().map(|k| Excerpt::of(k).plain()),
        kind: v.kind.map(vmcp::Kind::name),
        payload: v
            .payload
            .as_deref()
            .filter(|_| v.is_valid())
            .and_then(|p| serde_json::from_slice::<&RawValue>(p).ok()),
        unsigned: v
            .unsigned
            .iter()
            .map(|u| UnsignedReport {
                more: u.more,
                names: u.names.iter().map(Excerpt::plain).collect(),
                place: &u.place,
                what: u.what,
            })
            .collect(),
        valid: v.is_valid(),
    };
    serde_json::to_string(&report)
        .map(|out| json_lines(&out).into_owned())
        .map_err(|e| format!("cannot write the report as JSON: {e}"))
}

/// `vmcp verify --json`'s report, members in the order of their names. The payload, given
/// for a valid response alone, is the signed text itself, not a reading of it: serde_json's
/// `Value` would read a payload led by a member named `$serde_json::private::RawValue` as
/// another document than the one signed.
#[derive(Serialize)]
struct VmcpReport<'a> {
    failures: Vec<RuleFailure<'a>>,
    key_index: Option<usize>,
    kid: Option<String>,
    kind: Option<&'static str>,
    payload: Option<&'a RawValue>,
    unsigned: Vec<UnsignedReport<'a>>,
    valid: bool,
}

/// A failed rule in [`VmcpReport`].
#[derive(Serialize)]
struct RuleFailure<'a> {
    message: &'a str,
    rule: &'static str,
}

/// What the signature does not cover, in [`VmcpReport`].
#[derive(Serialize)]
struct UnsignedReport<'a> {
    more: usize,
    names: Vec<String>,
    place: &'a str,
    what: &'static str,
}

/// Prints the RFC 7638 thumbprint of the key in `file`.
pub(crate) fn thumbprint(file: Option<&Path>) -> ExitCode {
    match read_or_exit(file).map(|b| jws::Jwk::parse(&b).and_then(|k| k.thumbprint())) {
        Ok(Ok(t)) => {
            println!("{t}");
            ExitCode::SUCCESS
        }
        Ok(Err(e)) => Failure::Rejected(Some(format!("canonfuzz: error[{}] {e}", e.kind()))).exit(),
        Err(code) => code,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use canonfuzz_core::shown::invisible;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// A refusal's output stays under this, whatever the response.
    const REFUSAL_BOUND: usize = 64 << 10;

    /// A genuine signed tool result, its key set and a clock it is valid at: the corpus's
    /// forgeries file, test 10 (`exp` within the skew).
    fn genuine() -> (Value, jws::Jwks, u64) {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/vmcp/forgeries.json");
        let file: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let test = file["testGroups"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["tests"].as_array().unwrap())
            .find(|t| t["tcId"] == 10)
            .unwrap();
        assert_eq!(test["result"], "valid");
        let set = jws::Jwks::parse(test["jwks"].to_string().as_bytes()).unwrap();
        (test["response"].clone(), set, test["now"].as_u64().unwrap())
    }

    /// Where a hostile text goes: a member name in `_meta`, the envelope, `result` or the
    /// response, or a value of the envelope or of a forged protected header.
    #[derive(Debug, Clone, Copy)]
    enum Place {
        MetaName,
        EnvelopeName,
        ResultName,
        ResponseName,
        EnvelopeKid,
        HeaderAlg,
        HeaderKid,
        HeaderTyp,
    }

    /// Text that tries to leave its place: line breaks of every kind, terminal controls,
    /// invisible and blank characters, a verdict, quotes; sometimes a megabyte of it.
    fn hostile() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("\u{2028}".to_string()),
            Just("\u{2029}".to_string()),
            Just("\u{85}".to_string()),
            Just("\u{9b}31m".to_string()),
            Just("\u{1b}]0;owned\u{7}".to_string()),
            Just("\u{3164}".to_string()),
            Just("\u{200b}".to_string()),
            Just("\u{202e}".to_string()),
            Just("valid".to_string()),
            Just("\"\\".to_string()),
            "[a-z]{1,4}",
            any::<char>().prop_map(String::from),
        ];
        (prop::collection::vec(piece, 1..10), any::<bool>()).prop_map(|(pieces, long)| {
            let text = pieces.concat();
            let times = if long {
                (1 << 20) / text.len().max(1)
            } else {
                1
            };
            text.repeat(times)
        })
    }

    fn place() -> impl Strategy<Value = Place> {
        prop_oneof![
            Just(Place::MetaName),
            Just(Place::EnvelopeName),
            Just(Place::ResultName),
            Just(Place::ResponseName),
            Just(Place::EnvelopeKid),
            Just(Place::HeaderAlg),
            Just(Place::HeaderKid),
            Just(Place::HeaderTyp),
        ]
    }

    /// `response` with `text` put at `place`.
    fn plant(response: &mut Value, place: Place, text: &str) {
        let envelope = &mut response["result"]["_meta"][vmcp::META_KEY];
        let header = |name: &str, envelope: &Value| {
            let jws = envelope["jws"].as_str().unwrap_or_default().to_string();
            let (_, rest) = jws.split_once('.').unwrap_or_default();
            let mut header = json!({"alg": "EdDSA", "typ": vmcp::TYP, "kid": "k"});
            header[name] = json!(text);
            format!(
                "{}.{rest}",
                jws::base64url_encode(header.to_string().as_bytes())
            )
        };
        match place {
            Place::MetaName => response["result"]["_meta"][text] = json!(1),
            Place::EnvelopeName => envelope[text] = json!(1),
            Place::ResultName => response["result"][text] = json!(1),
            Place::ResponseName => response[text] = json!(1),
            Place::EnvelopeKid => envelope["kid"] = json!(text),
            Place::HeaderAlg => envelope["jws"] = json!(header("alg", envelope)),
            Place::HeaderKid => envelope["jws"] = json!(header("kid", envelope)),
            Place::HeaderTyp => envelope["jws"] = json!(header("typ", envelope)),
        }
    }

    /// Characters a reader that splits lines at any Unicode break splits at (Python's
    /// `str.splitlines()`).
    const BREAKS: [char; 10] = [
        '\n', '\r', '\u{b}', '\u{c}', '\u{1c}', '\u{1d}', '\u{1e}', '\u{85}', '\u{2028}',
        '\u{2029}',
    ];

    /// Line starts `vmcp verify` writes; no other line may appear.
    const LINES: [&str; 8] = [
        "valid",
        "invalid",
        "kind: ",
        "kid: ",
        "key: #",
        "failed [",
        "unsigned: ",
        "payload: ",
    ];

    fn check_outputs(response: &Value, set: &jws::Jwks, now: u64) -> Result<(), TestCaseError> {
        let v = vmcp::verify_response(response.to_string().as_bytes(), set, vmcp::Clock::at(now));
        for strict in [false, true] {
            let v = if strict {
                v.clone().strict()
            } else {
                v.clone()
            };
            let text = vmcp_text(&v, set, strict);
            if !v.is_valid() {
                prop_assert!(text.len() < REFUSAL_BOUND, "{} bytes", text.len());
            }
            let mut lines = text.split('\n');
            prop_assert_eq!(
                lines.next(),
                Some(if v.is_valid() { "valid" } else { "invalid" })
            );
            for line in lines {
                prop_assert!(
                    LINES.iter().any(|start| line.starts_with(start))
                        || line.starts_with("signed payload, shown cut"),
                    "a line from the input: {:?}",
                    line
                );
                prop_assert!(!line.chars().any(invisible), "{:?}", line);
            }
            let json = vmcp_json(&v).unwrap();
            if !v.is_valid() {
                prop_assert!(json.len() < REFUSAL_BOUND, "{} bytes", json.len());
            }
            prop_assert!(
                !json.contains(BREAKS) && !json.chars().any(invisible),
                "{}",
                json
            );
            let read: Value = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(&read["valid"], &json!(v.is_valid()));
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn no_response_makes_a_refusal_long_or_forges_a_line(
            planted in prop::collection::vec((place(), hostile()), 1..4)
        ) {
            let (mut response, set, now) = genuine();
            for (place, text) in &planted {
                plant(&mut response, *place, text);
            }
            check_outputs(&response, &set, now)?;
        }
    }

    #[test]
    fn the_genuine_response_is_valid_and_a_planted_long_name_is_cut() {
        let (mut response, set, now) = genuine();
        let v = vmcp::verify_response(response.to_string().as_bytes(), &set, vmcp::Clock::at(now));
        assert!(v.is_valid(), "{:?}", v.failures);
        let name = format!("x\nvalid\u{2028}{}", "n".repeat(3_500_000));
        for place in [Place::MetaName, Place::EnvelopeName, Place::ResultName] {
            plant(&mut response, place, &name);
        }
        let v = vmcp::verify_response(response.to_string().as_bytes(), &set, vmcp::Clock::at(now));
        assert!(!v.is_valid());
        let text = vmcp_text(&v, &set, false);
        assert!(text.len() < 4096, "{text}");
        assert_eq!(text.matches("(3500010 bytes, sha256:").count(), 3, "{text}");
        let json = vmcp_json(&v).unwrap();
        assert!(json.len() < 4096, "{json}");
        assert!(json.contains("x\\nvalid\\u2028nnn"), "{json}");
    }
}
