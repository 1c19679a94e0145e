//! Ed25519 verification vectors. Wycheproof gives each test's result; CCTV gives each case's
//! edge-case flags and speccheck's cases are flagged from their published descriptions, and
//! for those two the result is derived from the flags by the core's policy (as ed25519-dalek's
//! validation-criteria tests do), so a change of policy shows up as changed vectors.

use std::collections::BTreeMap;
use std::path::Path;

use canonfuzz_core::ed25519::{policy_accepts, Flag};
use serde::Deserialize;

use super::Ed25519Test;
use crate::importer::{Importer, Reads};
use crate::provenance::{note, read_text, source};
use crate::vector::{tests_of, to_hex, Expectation, Note, TestGroup, VectorFile};

fn file(header: &str, notes: BTreeMap<String, Note>, groups: Vec<TestGroup>) -> VectorFile {
    VectorFile {
        algorithm: "Ed25519".to_string(),
        schema: crate::families::ed25519::SCHEMA.to_string(),
        number_of_tests: groups.iter().map(|g| g.tests.len()).sum(),
        header: vec![header.to_string()],
        notes,
        test_groups: groups,
    }
}

fn test(
    tc_id: u64,
    comment: String,
    flags: Vec<String>,
    key: &str,
    msg: &str,
    sig: &str,
    result: Expectation,
) -> Ed25519Test {
    Ed25519Test {
        tc_id,
        comment,
        flags,
        result,
        public_key: Some(key.to_lowercase()),
        msg: Some(msg.to_lowercase()),
        sig: Some(sig.to_lowercase()),
        ..Ed25519Test::default()
    }
}

/// Notes for the policy's flags, in CCTV's words.
pub(crate) fn policy_notes() -> BTreeMap<String, Note> {
    let describe = |flag: Flag| match flag {
        Flag::LowOrderA => "A is one of the eight small-order points.",
        Flag::LowOrderR => "R is one of the eight small-order points.",
        Flag::LowOrderComponentA => "A has a small-order component (mixed order).",
        Flag::LowOrderComponentR => "R has a small-order component (mixed order).",
        Flag::LowOrderResidue => "The signature verifies only under the cofactored equation.",
        Flag::NonCanonicalA => "A is a non-canonical point encoding.",
        Flag::NonCanonicalR => "R is a non-canonical point encoding.",
        Flag::ReencodedK => {
            "k is computed over the re-encoded (canonical) points, not the bytes given."
        }
        Flag::SOutOfRange => "S is not below the group order L.",
    };
    Flag::ALL
        .into_iter()
        .map(|f| (f.name().to_string(), note("EDGE_CASE", describe(f))))
        .collect()
}

fn derived(flags: &[String]) -> Result<Expectation, String> {
    let parsed: Vec<Flag> = flags
        .iter()
        .map(|f| Flag::from_name(f).ok_or_else(|| format!("unknown Ed25519 flag {f:?}")))
        .collect::<Result<_, _>>()?;
    Ok(if policy_accepts(&parsed) {
        Expectation::Valid
    } else {
        Expectation::Invalid
    })
}

#[derive(Deserialize)]
struct WycheproofFile {
    notes: BTreeMap<String, WycheproofNote>,
    #[serde(rename = "testGroups")]
    test_groups: Vec<WycheproofGroup>,
}

#[derive(Deserialize)]
struct WycheproofNote {
    #[serde(rename = "bugType")]
    bug_type: String,
    description: String,
}

#[derive(Deserialize)]
struct WycheproofGroup {
    #[serde(rename = "publicKey")]
    public_key: WycheproofKey,
    tests: Vec<WycheproofTest>,
}

#[derive(Deserialize)]
struct WycheproofKey {
    pk: String,
}

#[derive(Deserialize)]
struct WycheproofTest {
    #[serde(rename = "tcId")]
    tc_id: u64,
    comment: String,
    flags: Vec<String>,
    msg: String,
    sig: String,
    result: String,
}

/// Wycheproof's vectors, results as published.
pub fn wycheproof(path: &Path) -> Result<VectorFile, String> {
    let parsed: WycheproofFile =
        serde_json::from_str(&read_text(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    let notes = parsed
        .notes
        .into_iter()
        .map(|(k, n)| (k, note(&n.bug_type, &n.description)))
        .collect();
    let mut groups = Vec::new();
    for g in parsed.test_groups {
        let mut tests = Vec::new();
        for t in g.tests {
            let result = match t.result.as_str() {
                "valid" => Expectation::Valid,
                "invalid" => Expectation::Invalid,
                _ => Expectation::Acceptable,
            };
            tests.push(test(
                t.tc_id,
                t.comment,
                t.flags,
                &g.public_key.pk,
                &t.msg,
                &t.sig,
                result,
            ));
        }
        groups.push(TestGroup {
            kind: "Ed25519Verify".to_string(),
            source: source(
                "C2SP/wycheproof testvectors_v1/ed25519_test.json",
                "https://github.com/C2SP/wycheproof",
                "dac1dd4",
                "Apache-2.0",
            ),
            comment: String::new(),
            tests: tests_of(&tests)?,
        });
    }
    Ok(file("Wycheproof's Ed25519 verification tests, with the results Wycheproof gives (it has no small-order or cofactored cases).", notes, groups))
}

#[derive(Deserialize)]
struct CctvCase {
    number: u64,
    key: String,
    sig: String,
    msg: String,
    flags: Option<Vec<String>>,
}

/// CCTV's edge cases, results derived from their flags by the policy.
pub fn cctv(path: &Path) -> Result<VectorFile, String> {
    let cases: Vec<CctvCase> =
        serde_json::from_str(&read_text(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut tests = Vec::new();
    for c in cases {
        let flags = c.flags.unwrap_or_default();
        let result = derived(&flags)?;
        let msg = to_hex(c.msg.as_bytes());
        tests.push(test(
            c.number + 1,
            format!("CCTV case {} (message {:?})", c.number, c.msg),
            flags,
            &c.key,
            &msg,
            &c.sig,
            result,
        ));
    }
    Ok(file(
        "The CCTV Ed25519 edge cases: every combination of small-order, mixed-order and non-canonical A and R; each verifies under some reading of RFC 8032, and the result here is the strict policy's verdict on its flags.",
        policy_notes(),
        vec![TestGroup {
            kind: "Ed25519Verify".to_string(),
            source: source("C2SP/CCTV ed25519/ed25519vectors.json", "https://github.com/C2SP/CCTV/tree/main/ed25519", "main", "CC0-1.0 OR ISC"),
            comment: "Messages are the ASCII strings CCTV gives, here as hex.".to_string(),
            tests: tests_of(&tests)?,
        }],
    ))
}

#[derive(Deserialize)]
struct SpeccheckCase {
    message: String,
    pub_key: String,
    signature: String,
}

/// The edge cases of each speccheck case, from the case descriptions published with them
/// ("Taming the many EdDSAs", Chalkias, Garillot, Nikolaenko, SSR 2020).
const SPECCHECK: [(&str, &[&str]); 12] = [
    (
        "S = 0 with small-order A and R",
        &["low_order_A", "low_order_R"],
    ),
    ("small-order A", &["low_order_A"]),
    ("small-order R", &["low_order_R"]),
    (
        "mixed-order A and R, passing both equations",
        &["low_order_component_A", "low_order_component_R"],
    ),
    (
        "mixed-order A and R, passing the cofactored equation only",
        &[
            "low_order_component_A",
            "low_order_component_R",
            "low_order_residue",
        ],
    ),
    (
        "mixed-order A, pre-reduced 8h: passes the cofactored equation only",
        &["low_order_component_A", "low_order_residue"],
    ),
    ("S > L", &["s_out_of_range"]),
    ("S much larger than L", &["s_out_of_range"]),
    (
        "non-canonical R, hash over the reduced bytes",
        &["non_canonical_R", "reencoded_k"],
    ),
    (
        "non-canonical R, hash over the bytes given",
        &["non_canonical_R"],
    ),
    (
        "non-canonical A, hash over the reduced bytes",
        &["non_canonical_A", "reencoded_k"],
    ),
    (
        "non-canonical A, hash over the bytes given",
        &["non_canonical_A"],
    ),
];

/// speccheck's 12 cases, results derived from their flags by the policy.
pub fn speccheck(path: &Path) -> Result<VectorFile, String> {
    let cases: Vec<SpeccheckCase> =
        serde_json::from_str(&read_text(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    if cases.len() != SPECCHECK.len() {
        return Err(format!(
            "{}: expected {} cases, found {}",
            path.display(),
            SPECCHECK.len(),
            cases.len()
        ));
    }
    let mut tests = Vec::new();
    for (i, (c, (what, flags))) in cases.iter().zip(SPECCHECK).enumerate() {
        let flags: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
        let result = derived(&flags)?;
        tests.push(test(
            i as u64 + 1,
            format!("speccheck case {i}: {what}"),
            flags,
            &c.pub_key,
            &c.message,
            &c.signature,
            result,
        ));
    }
    Ok(file(
        "The 12 speccheck cases, each flagged from its published description; the result is the strict policy's verdict on the flags.",
        policy_notes(),
        vec![TestGroup {
            kind: "Ed25519Verify".to_string(),
            source: source("novifinancial/ed25519-speccheck cases.json", "https://github.com/novifinancial/ed25519-speccheck", "6551933", "Apache-2.0"),
            comment: String::new(),
            tests: tests_of(&tests)?,
        }],
    ))
}

/// The published sources this family imports: Wycheproof, CCTV and speccheck.
pub const IMPORTERS: &[Importer] = &[
    Importer {
        name: "wycheproof-ed25519",
        about: "Wycheproof's Ed25519 verification vectors (`ed25519_test.json`)",
        target: "ed25519/wycheproof.json",
        reads: Reads::Path(wycheproof),
    },
    Importer {
        name: "cctv-ed25519",
        about: "The CCTV Ed25519 edge cases (`ed25519vectors.json`), with their flags",
        target: "ed25519/cctv.json",
        reads: Reads::Path(cctv),
    },
    Importer {
        name: "speccheck-ed25519",
        about: "The 12 cases of \"Taming the many EdDSAs\" (`cases.json`)",
        target: "ed25519/speccheck.json",
        reads: Reads::Path(speccheck),
    },
];
