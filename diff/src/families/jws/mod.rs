//! Compact JWS verification and RFC 7638 thumbprints (`canonfuzz_jws_v1`): the core against
//! jsonwebtoken and jwt-simple in process and josekit, jose, jwcrypto, PyJWT and joserfc as
//! workers, on tokens bent where base64url, headers, keys and signatures admit laxness.

pub mod gen;
pub mod impls;
pub mod mutants;
pub mod policies;

use canonfuzz_core::jws;

use crate::compare::Rules;
use crate::family::{Category, Family, Spec};
use crate::findings::stated_kind;
use crate::impls::{worker, Implementation};
use crate::mutants::Mutant;
use crate::vector::{excerpt, Expectation, TestCase};
use gen::JwsCase;

/// Compact JWS verification.
pub struct Jws;

/// The family, as registered.
pub const FAMILY: Family = Family::new(&Jws);

impl Spec for Jws {
    fn name(&self) -> &'static str {
        "jws"
    }

    fn schema(&self) -> &'static str {
        crate::vector::JWS_SCHEMA
    }

    fn vector_kind(&self) -> (&'static str, &'static str) {
        ("JWS", "JwsVerify")
    }

    fn categories(&self) -> &'static [Category] {
        &gen::CATEGORIES
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
            Box::new(worker::rust(
                "jsonwebtoken-aws_lc_rs",
                "jsonwebtoken-aws_lc_rs",
                "jsonwebtoken",
            )),
            Box::new(worker::rust("josekit", "josekit", "josekit")),
            Box::new(worker::node("jose", "jose", "panva-jose")),
            Box::new(worker::python("jwcrypto", "jwcrypto", "jwcrypto")),
            Box::new(worker::python("pyjwt", "pyjwt", "pyjwt")),
            Box::new(worker::python("joserfc", "joserfc", "joserfc")),
        ]
    }

    fn rules(&self) -> Rules {
        Rules {
            family: "jws",
            policies: &policies::POLICIES,
            reference_group: "panva-jose",
        }
    }

    fn reference_reason(&self) -> &'static str {
        "npm jose's answer, the JOSE library with the widest conformance suite"
    }

    fn test_for(&self, input: &[u8], kind: Option<&str>) -> Option<TestCase> {
        let case = JwsCase::parse(input)?;
        Some(TestCase {
            token: Some(case.token),
            jwk: Some(case.jwk),
            error_kind: stated_kind(kind),
            ..TestCase::default()
        })
    }

    fn lint(&self, test: &TestCase) -> Vec<String> {
        match (&test.token, &test.jwks, &test.jwk) {
            (Some(_), Some(_), None) | (Some(_), None, Some(_)) | (None, None, Some(_)) => Vec::new(),
            _ => vec!["a JWS test is a `token` with `jwks` (looked up by kid) or with `jwk` (pinned), or a `jwk` alone (its thumbprint)".to_string()],
        }
    }

    fn check(&self, test: &TestCase) -> Result<(), String> {
        check(test)
    }

    fn mutants(&self) -> &'static [Mutant] {
        &mutants::MUTANTS
    }
}

/// Runs one JWS test: a token verified against its key set (valid: the payload is
/// `expected`; invalid: the error's kind is `errorKind`), or a JWK's thumbprint.
fn check(test: &TestCase) -> Result<(), String> {
    let comment = &test.comment;
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
fn test_jwks_text(test: &TestCase) -> String {
    test.jwks
        .as_ref()
        .map(|v| v.to_string())
        .unwrap_or_default()
}

/// The key set a test carries.
pub(crate) fn test_jwks(test: &TestCase) -> Result<jws::Jwks, String> {
    jws::Jwks::parse(test_jwks_text(test).as_bytes())
        .map_err(|e| format!("{}: the test's key set is unusable: {e}", test.comment))
}
