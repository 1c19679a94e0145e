//! ekl's seed (000) as vectors: every fingerprint case with its published
//! fingerprint, the tool-result selection case, the challenge proof, and cases derived from
//! them by one change whose answer the profile's rules fix (a decoration the rules exclude
//! keeps the published fingerprint; a changed endpoint no longer matches the published proof),
//! with the rules' refusals.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::EklTest;
use crate::importer::{Importer, Reads};
use crate::provenance::{note, read_text};
use crate::vector::{tests_of, Expectation, Source, TestGroup, VectorFile};

#[derive(Deserialize)]
struct Seed<'a> {
    #[serde(borrow)]
    cases: Vec<Case<'a>>,
    #[serde(borrow)]
    result_selection: Selection<'a>,
    challenge: Challenge,
}

#[derive(Deserialize)]
struct Case<'a> {
    name: String,
    salt: String,
    #[serde(borrow)]
    value: &'a RawValue,
    fingerprint: String,
}

#[derive(Deserialize)]
struct Selection<'a> {
    #[serde(borrow)]
    result: &'a RawValue,
    fingerprinted: String,
    fingerprint: String,
}

#[derive(Deserialize)]
struct Challenge {
    provider_credential: String,
    challenge: String,
    endpoint: String,
    proof: String,
}

/// Reads the seed; an error names the line and column where the JSON breaks.
fn read<'a>(text: &'a str, path: &Path) -> Result<Seed<'a>, String> {
    serde_json::from_str(text).map_err(|e| {
        format!(
            "{}: line {}, column {}: {e}; the seed as received has a raw line feed where a U+2028 belongs (the seed README says so): read the repaired copy",
            path.display(),
            e.line(),
            e.column()
        )
    })
}

struct Tests(Vec<EklTest>);

impl Tests {
    fn add(&mut self, comment: &str, flag: &str, fill: impl FnOnce(&mut EklTest)) {
        let mut test = EklTest {
            tc_id: self.0.len() as u64 + 1,
            comment: comment.to_string(),
            flags: vec![flag.to_string()],
            ..EklTest::default()
        };
        fill(&mut test);
        self.0.push(test);
    }
}

fn fingerprint_test(t: &mut EklTest, salt: &str, input: &str, want: Result<&str, &str>) {
    t.salt = Some(salt.to_string());
    t.input = Some(input.to_string());
    match want {
        Ok(fingerprint) => t.expected = Some(fingerprint.to_string()),
        Err(kind) => {
            t.result = Expectation::Invalid;
            t.error_kind = Some(kind.to_string());
        }
    }
}

/// The vector file for the seed at `path` (the repaired copy).
pub fn profile(path: &Path) -> Result<VectorFile, String> {
    let text = read_text(path)?;
    let seed = read(&text, path)?;
    let salt = seed
        .cases
        .first()
        .map(|c| c.salt.clone())
        .ok_or("the seed has no cases")?;

    let mut values = Tests(Vec::new());
    for case in &seed.cases {
        values.add(&format!("seed case {:?}", case.name), "Seed", |t| {
            fingerprint_test(t, &case.salt, case.value.get(), Ok(&case.fingerprint))
        });
    }
    let value = seed.cases.first().map(|c| c.value.get()).unwrap_or("{}");
    for (comment, bad) in [
        (
            "a 31-byte salt",
            salt.get(..62).unwrap_or_default().to_string(),
        ),
        ("a 33-byte salt", format!("{salt}00")),
        (
            "an odd number of hex digits",
            salt.get(1..).unwrap_or_default().to_string(),
        ),
        ("a salt with a non-hex digit", salt.replacen('a', "g", 1)),
        ("an empty salt", String::new()),
    ] {
        values.add(comment, "SaltRule", |t| {
            fingerprint_test(t, &bad, value, Err("salt"))
        });
    }
    values.add(
        "a value with a duplicated member name is not I-JSON",
        "JsonRule",
        |t| fingerprint_test(t, &salt, r#"{"min_beds":3,"min_beds":4}"#, Err("json")),
    );

    let result = seed.result_selection.result.get();
    let body = seed.result_selection.fingerprinted.as_str();
    let published = seed.result_selection.fingerprint.as_str();
    let content_case = seed
        .cases
        .iter()
        .find(|c| c.value.get().starts_with('['))
        .ok_or("the seed has no content-array case")?;
    let content = content_case.value.get();
    let mut results = Tests(Vec::new());
    let result_test = |t: &mut EklTest, input: &str, want: Result<(&str, &str), &str>| match want {
        Ok((body, fingerprint)) => {
            fingerprint_test(t, &salt, input, Ok(fingerprint));
            t.result_body = Some(body.to_string());
        }
        Err(kind) => {
            fingerprint_test(t, &salt, input, Err(kind));
            t.result_body = Some("structuredContent".to_string());
        }
    };
    results.add(
        "seed result_selection: structuredContent is fingerprinted",
        "Seed",
        |t| result_test(t, result, Ok((body, published))),
    );
    let decorated = result
        .replace("\"isError\": false", "\"isError\": true")
        .replace(
            "\"outcome\": \"succeeded\"",
            "\"outcome\": \"failed\", \"added\": [1, 2]",
        );
    results.add(
        "the seed's result with isError and _meta changed: neither is fingerprinted",
        "Derived",
        |t| result_test(t, &decorated, Ok((body, published))),
    );
    results.add(
        "the seed's result as a JSON-RPC response's result",
        "Derived",
        |t| {
            result_test(
                t,
                &format!("{{\"jsonrpc\": \"2.0\", \"id\": 7, \"result\": {result}}}"),
                Ok((body, published)),
            )
        },
    );
    results.add(
        "no structuredContent: the seed's content-array case as a result's content",
        "Derived",
        |t| {
            result_test(
                t,
                &format!(
                    "{{\"content\": {content}, \"isError\": false, \"_meta\": {{\"ekl\": {{}}}}}}"
                ),
                Ok(("content", &content_case.fingerprint)),
            )
        },
    );
    results.add(
        "structuredContent null counts as absent: the content array is fingerprinted",
        "Derived",
        |t| {
            result_test(
                t,
                &format!("{{\"structuredContent\": null, \"content\": {content}}}"),
                Ok(("content", &content_case.fingerprint)),
            )
        },
    );
    results.add("a result with neither body", "ResultRule", |t| {
        result_test(t, r#"{"isError": false, "_meta": {}}"#, Err("no_body"))
    });
    results.add("content that is not an array", "ResultRule", |t| {
        result_test(
            t,
            r#"{"content": {"type": "text", "text": "x"}}"#,
            Err("content_not_array"),
        )
    });
    results.add("a result that is not an object", "ResultRule", |t| {
        result_test(t, content, Err("not_an_object"))
    });

    let c = &seed.challenge;
    let mut challenges = Tests(Vec::new());
    let challenge_test = |t: &mut EklTest, challenge: &str, endpoint: &str| {
        t.credential = Some(c.provider_credential.clone());
        t.challenge = Some(challenge.to_string());
        t.endpoint = Some(endpoint.to_string());
    };
    challenges.add("seed challenge: the proof computed", "Seed", |t| {
        challenge_test(t, &c.challenge, &c.endpoint);
        t.expected = Some(c.proof.clone());
    });
    challenges.add(
        "seed challenge: the published proof verifies",
        "Seed",
        |t| {
            challenge_test(t, &c.challenge, &c.endpoint);
            t.proof = Some(c.proof.clone());
        },
    );
    let invalid = |t: &mut EklTest, kind: &str| {
        t.result = Expectation::Invalid;
        t.error_kind = Some(kind.to_string());
    };
    challenges.add("the published proof for another endpoint", "Derived", |t| {
        challenge_test(t, &c.challenge, &format!("{}/other", c.endpoint));
        t.proof = Some(c.proof.clone());
        invalid(t, "proof_mismatch");
    });
    challenges.add(
        "the published proof for another challenge",
        "Derived",
        |t| {
            challenge_test(t, &c.challenge.replacen('9', "8", 1), &c.endpoint);
            t.proof = Some(c.proof.clone());
            invalid(t, "proof_mismatch");
        },
    );
    challenges.add("the challenge in uppercase hex", "ChallengeRule", |t| {
        challenge_test(t, &c.challenge.to_uppercase(), &c.endpoint);
        t.proof = Some(c.proof.clone());
        invalid(t, "challenge");
    });
    challenges.add("a proof cut to 31 bytes", "ChallengeRule", |t| {
        challenge_test(t, &c.challenge, &c.endpoint);
        t.proof = Some(c.proof.get(..62).unwrap_or_default().to_string());
        invalid(t, "proof_format");
    });

    let seed_source = Source {
        name: "ekl seed 000_6a8eaec34509c942 (repaired copy)".to_string(),
        url: None,
        version: None,
        license: None,
    };
    let mut numbered = 0;
    let mut group = |kind: &str, comment: &str, mut tests: Tests| -> Result<TestGroup, String> {
        for test in &mut tests.0 {
            numbered += 1;
            test.tc_id = numbered;
        }
        Ok(TestGroup {
            kind: kind.to_string(),
            source: seed_source.clone(),
            comment: comment.to_string(),
            tests: tests_of(&tests.0)?,
        })
    };
    let groups = vec![
        group("EklFingerprint", "SHA-256(salt ‖ JCS(value)), lowercase hex; the salt is exactly 32 bytes of hex.", values)?,
        group("EklResultFingerprint", "A tool result's structuredContent when present (and not null), else its content array; never isError, _meta or anything an adapter adds.", results)?,
        group("EklChallenge", "HMAC-SHA256 keyed with the lowercase hex SHA-256 of the credential, over the challenge hex and then the endpoint URL.", challenges)?,
    ];
    Ok(VectorFile {
        algorithm: "EKL".to_string(),
        schema: crate::families::ekl::SCHEMA.to_string(),
        number_of_tests: groups.iter().map(|g| g.tests.len()).sum(),
        header: vec!["ekl's salted fingerprints and endpoint challenge proof: every case of seed 000 with its published answer, cases derived from them by one change whose answer the profile's rules fix, and the rules' refusals. The seed as received is not valid JSON (a U+2028 became a raw line feed); this is read from the repaired copy.".to_string()],
        notes: BTreeMap::from([
            ("Seed".to_string(), note("BASIC", "A case of seed 000, with the answer the seed publishes.")),
            ("Derived".to_string(), note("EDGE_CASE", "A seed case changed in one way whose answer the profile's rules fix: excluded decorations keep the published fingerprint; a changed input no longer matches the published proof.")),
            ("SaltRule".to_string(), note("MALFORMED_INPUT", "The salt must be exactly 32 bytes given as hex.")),
            ("JsonRule".to_string(), note("MALFORMED_INPUT", "A fingerprinted value must be I-JSON, as JCS requires.")),
            ("ResultRule".to_string(), note("MALFORMED_INPUT", "A tool result must be an object with structuredContent or a content array.")),
            ("ChallengeRule".to_string(), note("MALFORMED_INPUT", "The challenge is the lowercase hex the endpoint sent; a proof is 32 bytes of hex.")),
        ]),
        test_groups: groups,
    })
}

/// The published source this family imports: ekl's seed.
pub const IMPORTERS: &[Importer] = &[Importer {
    name: "ekl-seed-cases",
    about: "The ekl seed (fixed JSON): fingerprints, result selection, challenge proof",
    target: "ekl/seed-000.json",
    reads: Reads::Path(profile),
}];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_as_received_fails_at_its_line_and_column() {
        let path = Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/ekl-seed-000-as-received.txt"
        ));
        let text = read_text(path).unwrap();
        let error = read(&text, path).err().unwrap();
        assert!(error.contains("line 50, column"), "{error}");
        assert!(error.contains("repaired copy"), "{error}");
    }
}
