//! Ed25519's table over the corpus: every verifier's answers to the published edge cases
//! (speccheck, CCTV, Wycheproof), which a campaign prints beside its findings and the report
//! shows, since findings are chosen because they disagree and say nothing of how often a
//! verifier is right.

use std::collections::BTreeMap;
use std::path::Path;

use super::gen::Ed25519Case;
use super::Ed25519Test;
use crate::campaign::Harness;
use crate::manifest::Manifest;
use crate::outcome::Outcome;
use crate::report::{FamilyTable, Table};
use crate::vector::{Expectation, VectorFile};

/// One Ed25519 verifier's answers over the corpus's edge cases.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VerifierRow {
    /// The verifier.
    pub name: String,
    /// Accepted or not, per speccheck case in order.
    pub speccheck: Vec<bool>,
    /// CCTV cases accepted, and how many there are.
    pub cctv_accepted: (usize, usize),
    /// Wycheproof cases answered as Wycheproof publishes, and how many there are.
    pub wycheproof_agree: (usize, usize),
}

/// Ed25519's table: every verifier's answers over the corpus's published cases (the
/// speccheck, CCTV and Wycheproof verdicts), since campaign findings are chosen because they
/// disagree and say nothing of how often a verifier is right.
pub fn corpus_table(harness: &Harness, corpus: &Path) -> Result<FamilyTable, String> {
    let rows = rows(harness, corpus)?;
    Ok(FamilyTable {
        table: table(&rows),
        json: rows_to_json(&rows),
    })
}

/// Every verifier's row: its answers over the speccheck, CCTV and Wycheproof cases.
pub fn rows(harness: &Harness, dir: &Path) -> Result<Vec<VerifierRow>, String> {
    let manifest = Manifest::read(dir)?;
    let mut cases: BTreeMap<&'static str, Vec<Ed25519Test>> = BTreeMap::new();
    for entry in manifest.files_of(crate::vector::ED25519_SCHEMA) {
        let set = if entry.path.contains("speccheck") {
            "speccheck"
        } else if entry.path.contains("cctv") {
            "cctv"
        } else if entry.path.contains("wycheproof") {
            "wycheproof"
        } else {
            continue;
        };
        let file = VectorFile::read(&dir.join(&entry.path))?;
        cases.entry(set).or_default().extend(file.typed_tests()?);
    }
    let hex = |v: &Option<String>| {
        v.as_deref()
            .map(crate::vector::from_hex)
            .transpose()
            .map(Option::unwrap_or_default)
    };
    let encode = |t: &Ed25519Test| -> Result<Vec<u8>, String> {
        Ok(Ed25519Case {
            key: hex(&t.public_key)?,
            msg: hex(&t.msg)?,
            sig: hex(&t.sig)?,
        }
        .encode())
    };
    let set = |name: &str| cases.get(name).map(Vec::as_slice).unwrap_or_default();
    let verdicts = |name: &str| -> Result<Vec<Vec<bool>>, String> {
        let inputs = set(name)
            .iter()
            .map(encode)
            .collect::<Result<Vec<_>, _>>()?;
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        Ok(harness
            .outcomes(&refs)
            .into_iter()
            .map(|per_impl| {
                per_impl
                    .iter()
                    .map(|o| matches!(o, Outcome::Ok(_)))
                    .collect()
            })
            .collect())
    };
    let (speccheck, cctv, wycheproof) = (
        verdicts("speccheck")?,
        verdicts("cctv")?,
        verdicts("wycheproof")?,
    );
    Ok(harness
        .members()
        .iter()
        .enumerate()
        .map(|(i, member)| {
            let column = |rows: &[Vec<bool>]| -> Vec<bool> {
                rows.iter()
                    .map(|r| r.get(i).copied().unwrap_or(false))
                    .collect()
            };
            let cctv = column(&cctv);
            let agree = column(&wycheproof)
                .iter()
                .zip(set("wycheproof"))
                .filter(|(accepted, t)| **accepted == (t.result == Expectation::Valid))
                .count();
            VerifierRow {
                name: member.name.clone(),
                speccheck: column(&speccheck),
                cctv_accepted: (cctv.iter().filter(|a| **a).count(), cctv.len()),
                wycheproof_agree: (agree, wycheproof.len()),
            }
        })
        .collect())
}

/// The Ed25519 verifiers' accept/reject table.
fn table(rows: &[VerifierRow]) -> Table {
    let cases = rows.first().map_or(0, |r| r.speccheck.len());
    let mut columns = vec!["verifier".to_string()];
    columns.extend((0..cases).map(|i| i.to_string()));
    columns.extend(["CCTV accepted".to_string(), "Wycheproof".to_string()]);
    let rows = rows
        .iter()
        .map(|r| {
            let mut row = vec![(r.name.clone(), "cat")];
            row.extend(r.speccheck.iter().map(|&a| {
                if a {
                    ("✓".to_string(), "pass")
                } else {
                    ("✗".to_string(), "fail")
                }
            }));
            let (agree, total) = r.wycheproof_agree;
            row.push((format!("{}/{}", r.cctv_accepted.0, r.cctv_accepted.1), ""));
            row.push((
                format!("{agree}/{total}"),
                if agree == total { "pass" } else { "most" },
            ));
            row
        })
        .collect();
    Table {
        title: "Ed25519 verifiers",
        intro: "speccheck cases 0-11 (✓ accepted, ✗ rejected), CCTV edge cases accepted, Wycheproof cases answered as published.",
        columns,
        rows,
    }
}

/// The Ed25519 verifiers' accept/reject table in the `--summary-json` shape.
pub fn rows_to_json(rows: &[VerifierRow]) -> serde_json::Value {
    rows.iter()
        .map(|r| {
            serde_json::json!({
                "verifier": r.name,
                "speccheck_accepted": r.speccheck,
                "cctv_accepted": r.cctv_accepted.0,
                "cctv_cases": r.cctv_accepted.1,
                "wycheproof_as_published": r.wycheproof_agree.0,
                "wycheproof_cases": r.wycheproof_agree.1,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strict_policy_refuses_every_speccheck_case_and_all_but_one_cctv_case() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let harness = Harness::with(
            super::super::FAMILY,
            vec![
                Box::new(super::super::impls::core()),
                Box::new(super::super::impls::dalek_verify()),
            ],
        );
        let rows = rows(&harness, &dir).unwrap();
        let core = rows.iter().find(|r| r.name == "core").unwrap();
        // speccheck's README: every one of its 12 cases breaks some strict rule; CCTV flags
        // every case but its honest one; Wycheproof's verdicts are the strict ones.
        assert_eq!(core.speccheck, vec![false; 12]);
        assert_eq!(core.cctv_accepted, (1, 914));
        assert_eq!(core.wycheproof_agree, (151, 151));
        // dalek's verify accepts some of speccheck's small-order cases.
        let dalek = rows.iter().find(|r| r.name != "core").unwrap();
        assert!(dalek.speccheck.iter().any(|a| *a));
        let table = corpus_table(&harness, &dir).unwrap();
        assert!(table.table.to_markdown().contains("## Ed25519 verifiers"));
        assert_eq!(table.json[0]["cctv_accepted"], 1);
    }
}
