//! Verifiers composed from third-party crates that share no code with the core, written from
//! the protocols' own texts: json-syntax reads JSON, RFC 8785 is written over its values here
//! (UTF-16 member order, ECMAScript numbers by ryu-js), ring verifies Ed25519 and computes
//! SHA-256 and HMAC, the base64 crate decodes base64url, the time crate reads RFC 3339, and
//! bs58 decodes base58btc. Each family whose libraries run
//! as workers has one in process beside the core, so that a paced campaign hears an
//! independent voice on every case before it lets the workers pass it by.
//!
//! A judge refuses as `other`: its reasons are its own, and a refusal is compared as a
//! refusal. A document nested past [`json::SHALLOW`] levels is read on the deep-reading
//! thread, whose stack holds json-syntax's recursion; one past [`json::DEEPEST`], the bound the
//! core states, is refused.

pub mod json;
pub mod jws;

use crate::impls::Implementation;
use crate::outcome::Outcome;

/// The independence group of every judge: each reads JSON with json-syntax, which is what
/// they share with one another and with nothing the core links.
pub const GROUP: &str = "rust-json-syntax";

/// The crates judges are composed from, as Cargo.lock pins them.
pub const CRATES: [(&str, &str); 6] = [
    ("json-syntax", "0.12.5"),
    ("ryu-js", "1.0.3"),
    ("ring", "0.17.14"),
    ("base64", "0.22.1"),
    ("time", "0.3.55"),
    ("bs58", "0.5.1"),
];

/// One family's judge as a campaign implementation, answering in process.
pub struct Judge {
    /// Its name in signatures and vectors.
    pub name: &'static str,
    /// The crates it is composed from, by name ([`CRATES`] pins them).
    pub crates: &'static [&'static str],
    /// Its output for one campaign input, or why it has none.
    pub answer: fn(&[u8]) -> Result<Vec<u8>, Refusal>,
}

impl Judge {
    /// Its answer to one input: on this thread, or on the deep-reading thread when the input
    /// holds a document nested past what this thread's stack takes.
    fn outcome(&self, input: &[u8]) -> Outcome {
        let answer = self.answer;
        let guarded = move |input: &[u8]| {
            canonfuzz_props::impls::in_process::guarded(|| answer(input))
                .unwrap_or_else(|message| Err(Refusal::Crashed(message)))
        };
        let result = match guarded(input) {
            Err(Refusal::Deep) => {
                let owned = input.to_vec();
                canonfuzz_props::read::any_depth::on_deep_stack(move || {
                    json::DEEP.with(|deep| deep.set(true));
                    let result = guarded(&owned);
                    json::DEEP.with(|deep| deep.set(false));
                    result
                })
                .unwrap_or_else(|why| Err(Refusal::Crashed(why)))
            }
            result => result,
        };
        match result {
            Ok(out) => Outcome::Ok(out),
            Err(Refusal::Refused(_)) => Outcome::Rejected("other".to_string()),
            Err(Refusal::Crashed(why)) => Outcome::Crashed(format!("panicked: {why}")),
            Err(Refusal::Deep | Refusal::Unanswered) => Outcome::Unsupported,
        }
    }
}

impl Implementation for Judge {
    fn name(&self) -> &str {
        self.name
    }

    fn version(&self) -> String {
        let crates: Vec<String> = CRATES
            .iter()
            .filter(|(name, _)| self.crates.contains(name))
            .map(|(name, version)| format!("{name} {version}"))
            .collect();
        format!("composed of {}", crates.join(", "))
    }

    fn group(&self) -> &str {
        GROUP
    }

    fn uses(&self) -> Option<String> {
        Some("ring 0.17.14 (BoringSSL's Ed25519, SHA-256 and HMAC)".to_string())
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        inputs.iter().map(|input| self.outcome(input)).collect()
    }
}

/// Why a judge does not accept an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The input breaks a rule, said in words.
    Refused(String),
    /// The input holds a document nested deeper than this thread reads.
    Deep,
    /// The judge does not answer it: it is not a case of the judge's family.
    Unanswered,
    /// The judge panicked, with this message.
    Crashed(String),
}

/// A refusal for breaking the rule `why` says.
pub fn refused(why: impl Into<String>) -> Refusal {
    Refusal::Refused(why.into())
}

/// Refuses with `why` unless `holds`.
pub fn must(holds: bool, why: &str) -> Result<(), Refusal> {
    if holds {
        Ok(())
    } else {
        Err(refused(why))
    }
}

/// The lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The campaign case `input` read (every family's case is one JSON object).
pub fn case(input: &[u8]) -> Result<json_syntax::Value, Refusal> {
    let case = json::read(input)?;
    must(
        matches!(case, json_syntax::Value::Object(_)),
        "the case is not an object",
    )?;
    Ok(case)
}

/// SHA-256 of `data`, by ring.
pub fn sha256(data: &[u8]) -> Vec<u8> {
    ring::digest::digest(&ring::digest::SHA256, data)
        .as_ref()
        .to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A judge that writes the canonical form of its input.
    const CANONICAL: Judge = Judge {
        name: "canonical",
        crates: &["json-syntax", "ryu-js"],
        answer: |input| json::canonical(&json::read(input)?),
    };

    #[test]
    fn a_deep_document_is_read_on_a_stack_that_holds_it_up_to_the_core_s_bound() {
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let (deep, past) = (nested(json::DEEPEST), nested(json::DEEPEST + 1));
        let answers = CANONICAL.run_batch(&[deep.as_bytes(), past.as_bytes(), b"[1,]"]);
        assert_eq!(
            answers,
            [
                Outcome::Ok(deep.clone().into_bytes()),
                Outcome::Rejected("other".to_string()),
                Outcome::Rejected("other".to_string()),
            ]
        );
    }

    #[test]
    fn the_crates_judges_are_composed_of_are_the_ones_locked() {
        let lock =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock")).unwrap();
        for (name, version) in CRATES {
            let entry = format!("name = \"{name}\"\nversion = \"{version}\"");
            assert!(lock.contains(&entry), "{name} is not locked at {version}");
        }
    }
}
