//! Ed25519's table over the corpus: every verifier's answers to the published edge cases
//! (speccheck, CCTV, Wycheproof), which a campaign prints beside its findings and the report
//! shows, since findings are chosen because they disagree and say nothing of how often a
//! verifier is right.

use std::collections::BTreeMap;
use std::path::Path;

use super::gen::Ed25519Case;
use super::Ed25519Test;
use crate::family::Panel;
use crate::manifest::Manifest;
use crate::outcome::Outcome;
use crate::table::{Cell, FamilyTable, Table};
use crate::vector::{Expectation, VectorFile};

/// A verification policy, by the speccheck cases it accepts.
#[derive(Debug, PartialEq, Eq)]
pub struct Policy {
    /// Its name.
    pub name: &'static str,
    /// Whether it accepts each speccheck case, in the cases' order.
    pub accepts: [bool; 12],
}

/// The policies a verifier's speccheck answers are measured against, from their texts:
/// - strict (the core's): canonical A and R of prime order, S below L, the cofactorless
///   equation; every speccheck case breaks one of these rules;
/// - RFC 8032 with its cofactored equation (§5.1.7): small- and mixed-order points pass
///   (cases 0-5), S must be below L (6, 7), and a non-canonical encoding fails decoding
///   (§5.1.3; 8-11);
/// - ZIP-215: cofactored, S below L, non-canonical A and R accepted and k hashed over the
///   bytes given, so case 8 (R non-canonical, k over the reduced bytes) fails while 10 passes,
///   its A being of small order, which the cofactored equation does not see. ed25519-zebra and
///   noble-ed25519, two independent ZIP-215 verifiers, answer all twelve so.
pub const POLICIES: [Policy; 3] = [
    Policy {
        name: "strict",
        accepts: [false; 12],
    },
    Policy {
        name: "RFC 8032 cofactored",
        accepts: [
            true, true, true, true, true, true, false, false, false, false, false, false,
        ],
    },
    Policy {
        name: "ZIP-215",
        accepts: [
            true, true, true, true, true, true, false, false, false, true, true, true,
        ],
    },
];

/// One speccheck case, by its title.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Speccheck {
    /// What the case is.
    pub title: String,
}

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
pub fn corpus_table(harness: &dyn Panel, corpus: &Path) -> Result<FamilyTable, String> {
    let (cases, rows) = rows(harness, corpus)?;
    Ok(FamilyTable {
        table: table(&cases, &rows),
        json: rows_to_json(&rows),
        implementations: Vec::new(),
    })
}

/// The corpus's published Ed25519 sets (speccheck, CCTV, Wycheproof), each set's tests.
fn published_sets(dir: &Path) -> Result<BTreeMap<&'static str, Vec<Ed25519Test>>, String> {
    let manifest = Manifest::read(dir)?;
    let mut cases: BTreeMap<&'static str, Vec<Ed25519Test>> = BTreeMap::new();
    for entry in manifest.files_of(crate::families::ed25519::SCHEMA) {
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
    Ok(cases)
}

/// For each of `tests`, whether each of `harness`'s implementations accepts it.
fn accepted(harness: &dyn Panel, tests: &[Ed25519Test]) -> Result<Vec<Vec<bool>>, String> {
    let hex = |v: &Option<String>| {
        v.as_deref()
            .map(crate::vector::from_hex)
            .transpose()
            .map(Option::unwrap_or_default)
    };
    let inputs = tests
        .iter()
        .map(|t| {
            Ok(Ed25519Case {
                key: hex(&t.public_key)?,
                msg: hex(&t.msg)?,
                sig: hex(&t.sig)?,
            }
            .encode())
        })
        .collect::<Result<Vec<_>, String>>()?;
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
}

/// The speccheck cases, and every verifier's row: its answers over the speccheck, CCTV and
/// Wycheproof cases.
pub fn rows(harness: &dyn Panel, dir: &Path) -> Result<(Vec<Speccheck>, Vec<VerifierRow>), String> {
    let cases = published_sets(dir)?;
    let set = |name: &str| cases.get(name).map(Vec::as_slice).unwrap_or_default();
    let (speccheck, cctv, wycheproof) = (
        accepted(harness, set("speccheck"))?,
        accepted(harness, set("cctv"))?,
        accepted(harness, set("wycheproof"))?,
    );
    let titles = set("speccheck")
        .iter()
        .map(|t| Speccheck {
            title: t.comment.clone(),
        })
        .collect();
    let rows = harness
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
        .collect();
    Ok((titles, rows))
}

/// How many speccheck cases `row` answers as `policy` does.
fn agreement(policy: &Policy, row: &VerifierRow) -> usize {
    policy
        .accepts
        .iter()
        .zip(&row.speccheck)
        .filter(|(want, accepted)| want == accepted)
        .count()
}

/// The policy `row` agrees with most (the first of a tie), with its agreement.
fn closest(row: &VerifierRow) -> (&'static Policy, usize) {
    POLICIES
        .iter()
        .map(|p| (p, agreement(p, row)))
        .fold(None, |best: Option<(&Policy, usize)>, (p, n)| match best {
            Some((_, m)) if m >= n => best,
            _ => Some((p, n)),
        })
        .unwrap_or((&POLICIES[0], 0))
}

/// The Ed25519 verifiers' accept/reject table, each speccheck answer coloured by whether it
/// is the answer of the policy the verifier follows most closely.
fn table(cases: &[Speccheck], rows: &[VerifierRow]) -> Table {
    let mut columns = vec![Cell::new("verifier", ""), Cell::new("closest policy", "")];
    columns.extend(
        cases
            .iter()
            .enumerate()
            .map(|(i, c)| Cell::new(i.to_string(), "").titled(c.title.clone())),
    );
    columns.extend(POLICIES.iter().map(|p| Cell::new(p.name, "")));
    columns.extend([Cell::new("CCTV accepted", ""), Cell::new("Wycheproof", "")]);
    let score = |agree: usize, total: usize| {
        Cell::new(
            format!("{agree}/{total}"),
            if agree == total { "pass" } else { "partial" },
        )
    };
    let rows = rows
        .iter()
        .map(|r| {
            let (policy, _) = closest(r);
            let mut row = vec![Cell::new(r.name.clone(), "cat"), Cell::new(policy.name, "")];
            row.extend(cases.iter().zip(&r.speccheck).zip(policy.accepts).map(
                |((case, &accepted), want)| {
                    let text = if accepted {
                        "✓ accepts"
                    } else {
                        "✗ rejects"
                    };
                    // A departure is coloured by its severity: accepting what the policy
                    // refuses costs more than refusing what it accepts.
                    let class = match (want, accepted) {
                        (w, a) if w == a => "pass",
                        (false, true) => "accepts",
                        _ => "refuses",
                    };
                    Cell::new(text, class).titled(case.title.clone())
                },
            ));
            row.extend(
                POLICIES
                    .iter()
                    .map(|p| score(agreement(p, r), p.accepts.len())),
            );
            let (agree, total) = r.wycheproof_agree;
            row.push(Cell::new(
                format!("{}/{}", r.cctv_accepted.0, r.cctv_accepted.1),
                "",
            ));
            row.push(score(agree, total));
            row
        })
        .collect();
    Table {
        title: "Ed25519 verifiers",
        intro: "Each speccheck case (the columns 0-11, titled below) accepted or rejected, green where the answer is that of the policy the verifier follows most closely (named in its second column), orange where it accepts what that policy refuses and yellow where it refuses what that policy accepts; then how many of the 12 each policy would answer alike: strict (the core's), RFC 8032 with the cofactored equation, ZIP-215. CCTV: edge cases accepted; Wycheproof: cases answered as published.".to_string(),
        columns,
        rows,
    }
}

/// The Ed25519 verifiers' accept/reject table in the `--summary-json` shape.
pub fn rows_to_json(rows: &[VerifierRow]) -> serde_json::Value {
    rows.iter()
        .map(|r| {
            let policies: serde_json::Map<String, serde_json::Value> = POLICIES
                .iter()
                .map(|p| (p.name.to_string(), agreement(p, r).into()))
                .collect();
            serde_json::json!({
                "verifier": r.name,
                "closest_policy": closest(r).0.name,
                "speccheck_as_policy": policies,
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
    use crate::harness::Harness;

    #[test]
    fn the_strict_policy_refuses_every_speccheck_case_and_all_but_one_cctv_case() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let harness = Harness::with(
            super::super::FAMILY,
            vec![
                Box::new(super::super::impls::core()),
                Box::new(super::super::impls::dalek_verify()),
                Box::new(super::super::impls::zebra()),
            ],
        );
        let (cases, rows) = rows(&harness, &dir).unwrap();
        let core = rows.iter().find(|r| r.name == "core").unwrap();
        assert_eq!(cases.len(), 12);
        assert_eq!(closest(core).0.name, "strict");
        assert_eq!(agreement(&POLICIES[0], core), 12);
        // speccheck's README: every one of its 12 cases breaks some strict rule; CCTV flags
        // every case but its honest one; Wycheproof's verdicts are the strict ones.
        assert_eq!(core.speccheck, vec![false; 12]);
        assert_eq!(core.cctv_accepted, (1, 914));
        assert_eq!(core.wycheproof_agree, (151, 151));
        // dalek's verify accepts some of speccheck's small-order cases.
        let dalek = rows
            .iter()
            .find(|r| r.name == "ed25519-dalek-verify")
            .unwrap();
        // The ZIP-215 column as an independent ZIP-215 verifier answers it.
        let zebra = rows.iter().find(|r| r.name == "ed25519-zebra").unwrap();
        assert_eq!(closest(zebra), (&POLICIES[2], 12));
        assert!(dalek.speccheck.iter().any(|a| *a));
        let table = corpus_table(&harness, &dir).unwrap();
        assert!(table.table.to_markdown().contains("## Ed25519 verifiers"));
        assert_eq!(table.json[0]["cctv_accepted"], 1);
    }
}
