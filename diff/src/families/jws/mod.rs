//! Compact JWS verification and RFC 7638 thumbprints (`canonfuzz_jws_v1`): the core against
//! jsonwebtoken and jwt-simple in process and josekit, jose, jwcrypto, PyJWT and joserfc as
//! workers, on tokens bent where base64url, headers, keys and signatures admit laxness.

pub mod fuzz;
pub mod gen;
pub mod impls;
pub mod judge;
pub mod mutants;
pub mod policies;
pub mod table;

use canonfuzz_core::jws;

use crate::compare::Rules;
use crate::family::{Category, CheckTest, CorpusTable, Facts, Family, Spec, Vectors};
use crate::impls::Implementation;
use crate::mutants::Mutant;
use crate::outcome::Outcome;
use crate::replay::Replay;
use crate::vector::{excerpt, Expectation, Head, Test};
use crate::vector::{stated_kind, stated_output};
use crate::workers;
use gen::JwsCase;

/// Compact JWS verification.
pub struct Jws;

/// The schema name of JWS verification and JWK thumbprint vector files.
pub const SCHEMA: &str = "canonfuzz_jws_v1";

/// The family, as registered.
pub const FAMILY: Family = Family::new(&Jws);

/// The family's constant facts.
const FACTS: Facts = Facts {
    name: "jws",
    title: "compact JWS and JWK verifiers",
    schema: SCHEMA,
    vector_kind: ("JWS", "JwsVerify"),
    categories: &gen::CATEGORIES,
    fields: &gen::FIELDS,
    reference_reason: "npm jose's answer, the JOSE library with the widest conformance suite",
    shares_with_core: &["jsonwebtoken", "jwt-simple"],
    sample_percent: 10,
    nightly_weight: 15,
    nightly_rate: 1500,
    decisions: &[
        "accepted",
        "malformed",
        "base64",
        "json",
        "shape",
        "alg_none",
        "unsupported_alg",
        "crit",
        "b64",
        "unknown_key",
        "key_mismatch",
        "signature",
    ],
};

impl Spec for Jws {
    fn fuzzing(&self) -> Option<&'static crate::fuzz_target::Fuzzing> {
        Some(&fuzz::FUZZING)
    }

    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn generate(&self, seed: u64, index: u64) -> (Category, Vec<u8>) {
        gen::case(seed, index)
    }

    fn implementations(&self) -> Vec<Box<dyn Implementation>> {
        vec![
            Box::new(impls::core()),
            Box::new(impls::jsonwebtoken_rust_crypto()),
            Box::new(impls::jsonwebtoken_ring()),
            Box::new(impls::jwt_simple()),
            Box::new(judge::JUDGE),
            Box::new(workers::rust(
                FACTS.name,
                "jsonwebtoken-aws_lc_rs",
                "jsonwebtoken-aws_lc_rs",
                "jsonwebtoken",
            )),
            Box::new(workers::rust(FACTS.name, "josekit", "josekit", "josekit")),
            Box::new(workers::node(FACTS.name, "jose", "jose", "panva-jose")),
            Box::new(workers::python(
                FACTS.name, "jwcrypto", "jwcrypto", "jwcrypto",
            )),
            Box::new(workers::python(FACTS.name, "pyjwt", "pyjwt", "pyjwt")),
            Box::new(workers::python(FACTS.name, "joserfc", "joserfc", "joserfc")),
        ]
    }

    fn rules(&self) -> Rules {
        Rules {
            family: "jws",
            policies: &policies::POLICIES,
            reference_group: "panva-jose",
        }
    }

    fn corpus_table(&self) -> Option<CorpusTable> {
        Some(table::corpus_table)
    }

    fn test_for(&self, head: Head, input: &[u8], want: &Outcome) -> Option<Test> {
        let case = JwsCase::parse(input)?;
        let test = JwsTest {
            expected: stated_output(want)?,
            token: Some(case.token),
            jwk: Some(case.jwk),
            error_kind: stated_kind(want),
            ..JwsTest::from_head(head)
        };
        Test::new(&test).ok()
    }

    fn vectors(&self) -> &dyn CheckTest {
        self
    }

    /// A token with the one key it names; a thumbprint test, or one whose answer turns on a
    /// `typ` profile, states no campaign input.
    fn replay(&self, test: &Test) -> Option<Replay> {
        let test: JwsTest = test.read().ok()?;
        if test.typ.is_some() && test.error_kind.as_deref() == Some("typ") {
            return None;
        }
        let token = test.token.clone()?;
        let jwk = key_for(&token, &test)?;
        Some(Replay {
            input: JwsCase { token, jwk }.encode(),
            result: test.result,
            output: test.expected.map(String::into_bytes),
            error_kind: None,
        })
    }

    fn mutants(&self) -> &'static [Mutant] {
        &mutants::MUTANTS
    }
}

canonfuzz_engine::vector_test! {
    /// One compact JWS verification against a key set (looked up by `kid`) or a pinned key,
    /// or one JWK's RFC 7638 thumbprint.
    pub struct JwsTest {
        /// The payload a verified token carries, or the thumbprint of `jwk`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub expected: Option<String>,
    } then {
        /// The error kind of a rejection.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub error_kind: Option<String>,
        /// The compact token to verify.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub token: Option<String>,
        /// The key set a token's `kid` is looked up in.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub jwks: Option<serde_json::Value>,
        /// The `typ` the profile requires, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub typ: Option<String>,
        /// The pinned key a `token` is verified with; without a token, the key whose thumbprint is `expected`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub jwk: Option<serde_json::Value>,
    }
}

impl Vectors for Jws {
    type Test = JwsTest;

    fn lint(&self, test: &JwsTest) -> Vec<String> {
        match (&test.token, &test.jwks, &test.jwk) {
            (Some(_), Some(_), None) | (Some(_), None, Some(_)) | (None, None, Some(_)) => Vec::new(),
            _ => vec!["a JWS test is a `token` with `jwks` (looked up by kid) or with `jwk` (pinned), or a `jwk` alone (its thumbprint)".to_string()],
        }
    }

    fn check(&self, test: &JwsTest) -> Result<(), String> {
        check(test)
    }
}

/// Runs one JWS test: a token verified against its key set (valid: the payload is
/// `expected`; invalid: the error's kind is `errorKind`), or a JWK's thumbprint.
fn check(test: &JwsTest) -> Result<(), String> {
    let comment = crate::escape::terminal(&test.comment);
    if let (None, Some(jwk)) = (&test.token, &test.jwk) {
        let got = jws::Jwk::parse(jwk.to_string().as_bytes())
            .and_then(|k| k.thumbprint())
            .map_err(|e| format!("{comment}\n    got:      {e}"))?;
        let want = test.expected.as_deref().unwrap_or_default();
        return if got == want {
            Ok(())
        } else {
            Err(format!(
                "{comment}\n    expected: {want}\n    got:      {got}"
            ))
        };
    }
    let token = test.token.as_deref().unwrap_or_default();
    let profile = jws::Profile {
        typ: test.typ.clone(),
    };
    let verified = match &test.jwk {
        Some(key) => jws::Jwk::parse(key.to_string().as_bytes())
            .and_then(|key| jws::verify_with_key(token, &key, &profile)),
        None => jws::Jwks::parse(test_jwks_text(test).as_bytes())
            .and_then(|set| jws::verify(token, &set, &profile)),
    };
    match (verified, test.result) {
        (Ok(v), Expectation::Valid | Expectation::Acceptable) => {
            let want = test.expected.as_deref().unwrap_or_default();
            if v.payload == want.as_bytes() {
                Ok(())
            } else {
                Err(format!(
                    "{comment}\n    expected payload: {}\n    got:              {}",
                    excerpt(want.as_bytes()),
                    excerpt(&v.payload)
                ))
            }
        }
        (Err(e), Expectation::Invalid | Expectation::Acceptable) => match &test.error_kind {
            Some(kind) if kind != e.kind() => Err(format!(
                "{comment}\n    expected: error[{kind}]\n    got:      error[{}] {e}",
                e.kind()
            )),
            _ => Ok(()),
        },
        (Ok(_), _) => Err(format!(
            "{comment}\n    expected: error[{}]\n    got:      verified",
            test.error_kind.as_deref().unwrap_or("any")
        )),
        (Err(e), _) => Err(format!(
            "{comment}\n    expected: verified\n    got:      error[{}] {e}",
            e.kind()
        )),
    }
}

/// The text of the key set a test carries.
fn test_jwks_text(test: &JwsTest) -> String {
    test.jwks
        .as_ref()
        .map(|v| v.to_string())
        .unwrap_or_default()
}

/// The one key a test verifies its token with: its pinned `jwk`, or the one key of its set
/// that the token's `kid` names. Tests about the set itself (no kid, a kid two keys share)
/// name no single key.
pub(crate) fn key_for(token: &str, test: &JwsTest) -> Option<serde_json::Value> {
    if let Some(jwk) = &test.jwk {
        return Some(jwk.clone());
    }
    let keys = test.jwks.as_ref()?.get("keys")?.as_array()?;
    let header: serde_json::Value = token
        .split('.')
        .next()
        .and_then(crate::families::jws::gen::lax_decode)
        .and_then(|h| serde_json::from_slice(&h).ok())?;
    let kid = header.get("kid")?;
    match keys
        .iter()
        .filter(|k| k.get("kid") == Some(kid))
        .collect::<Vec<_>>()
        .as_slice()
    {
        [key] => Some((*key).clone()),
        _ => None,
    }
}
