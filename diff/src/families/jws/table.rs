//! JWS's table over the corpus: every verifier's agreement with the corpus's JWS vectors, by
//! set, which a campaign prints beside its findings and the report shows.

use std::path::Path;

use super::gen::JwsCase;
use super::{key_for, JwsTest};
use crate::bugs::Severity;
use crate::family::Panel;
use crate::manifest::Manifest;
use crate::outcome::Outcome;
use crate::table::{cell, Cell, FamilyTable, Score, Table};
use crate::vector::{Expectation, VectorFile};

/// The family's table: every verifier's agreement with the JWS vectors, by set.
pub fn corpus_table(harness: &dyn Panel, corpus: &Path) -> Result<FamilyTable, String> {
    let rows = rows(harness, corpus)?;
    let json = rows
        .iter()
        .map(|r| {
            let sets: serde_json::Map<String, serde_json::Value> = SETS
                .iter()
                .zip(&r.sets)
                .map(|((word, _), (passed, run))| {
                    (
                        word.to_string(),
                        serde_json::json!({"passed": passed, "run": run}),
                    )
                })
                .collect();
            serde_json::json!({"verifier": r.name, "sets": sets})
        })
        .collect();
    Ok(FamilyTable {
        table: table(&rows),
        json,
        implementations: Vec::new(),
    })
}

/// One JWS verifier's agreement with the corpus's JWS vectors, by vector set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JwsRow {
    /// The verifier.
    pub name: String,
    /// Per set of vectors: answered as the vector expects, and run.
    pub sets: Vec<(usize, usize)>,
    /// Per set of vectors: the most severe way it answered otherwise, if it did.
    pub worst: Vec<Option<Severity>>,
}

/// The sets of JWS vectors the report tells apart, by a word of their path.
const SETS: [(&str, &str); 3] = [
    ("rfc-and-rules", "RFC 8037 and rules"),
    ("verifiable-mcp", "verifiable-mcp"),
    ("findings", "campaign findings"),
];

/// Every verifier of a JWS harness over the corpus's JWS verification vectors whose answer does
/// not turn on a `typ` profile and that name one key: answered as the vector expects (accepted
/// exactly when valid), by set.
pub fn rows(harness: &dyn Panel, dir: &Path) -> Result<Vec<JwsRow>, String> {
    let manifest = Manifest::read(dir)?;
    let mut sets: Vec<(Vec<Vec<u8>>, Vec<Expectation>)> = vec![(Vec::new(), Vec::new()); 3];
    for entry in manifest.files_of(crate::families::jws::SCHEMA) {
        let Some(set) = SETS.iter().position(|(word, _)| entry.path.contains(word)) else {
            continue;
        };
        let file = VectorFile::read(&dir.join(&entry.path))?;
        let typ_free = |t: &&JwsTest| t.typ.is_none() || t.error_kind.as_deref() != Some("typ");
        for test in file.typed_tests::<JwsTest>()?.iter().filter(typ_free) {
            let Some(token) = &test.token else {
                continue;
            };
            let Some(jwk) = key_for(token, test) else {
                continue;
            };
            if let Some((inputs, results)) = sets.get_mut(set) {
                inputs.push(
                    JwsCase {
                        token: token.clone(),
                        jwk,
                    }
                    .encode(),
                );
                results.push(test.result);
            }
        }
    }
    let mut rows: Vec<JwsRow> = harness
        .members()
        .iter()
        .map(|m| JwsRow {
            name: m.name.clone(),
            sets: Vec::new(),
            worst: Vec::new(),
        })
        .collect();
    for (inputs, results) in &sets {
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let outcomes = harness.outcomes(&refs);
        for (i, row) in rows.iter_mut().enumerate() {
            let mut passed = 0;
            let mut run = 0;
            let mut worst = None;
            for (per_impl, result) in outcomes.iter().zip(results) {
                let Some(outcome) = per_impl.get(i).filter(|o| **o != Outcome::Unsupported) else {
                    continue;
                };
                run += 1;
                let failed = match (result, outcome) {
                    (Expectation::Invalid, Outcome::Ok(_)) => Some(Severity::AcceptsInvalid),
                    (Expectation::Valid, Outcome::Crashed(_) | Outcome::TimedOut) => {
                        Some(Severity::Crash)
                    }
                    (Expectation::Valid, Outcome::Rejected(_)) => Some(Severity::RefusesValid),
                    _ => None,
                };
                passed += usize::from(failed.is_none());
                if let Some(f) = failed {
                    worst = Some(worst.map_or(f, |w: Severity| w.min(f)));
                }
            }
            row.sets.push((passed, run));
            row.worst.push(worst);
        }
    }
    Ok(rows)
}

/// The JWS verifiers' table.
fn table(rows: &[JwsRow]) -> Table {
    let mut columns = vec![Cell::new("verifier", "")];
    columns.extend(SETS.iter().map(|(_, title)| Cell::new(*title, "")));
    let rows = rows
        .iter()
        .map(|r| {
            let mut row = vec![Cell::new(r.name.clone(), "cat")];
            row.extend(r.sets.iter().zip(&r.worst).map(|(&(passed, run), &worst)| {
                cell(
                    Some(&Score {
                        passed: passed as u64,
                        run: run as u64,
                    }),
                    worst,
                )
            }));
            row
        })
        .collect();
    Table {
        title: "JWS verifiers",
        intro: "Each cell: the corpus's JWS vectors answered as the vector expects (accepted exactly when valid) / run; each verifier is handed the one key the token names; vectors whose answer turns on a typ profile are left out.".to_string(),
        columns,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Harness;

    #[test]
    fn the_core_answers_every_jws_vector_it_can_be_given_as_the_vector_expects() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let harness = Harness::with(
            super::super::FAMILY,
            vec![Box::new(super::super::impls::core())],
        );
        let table = corpus_table(&harness, &dir).unwrap();
        let core = &rows(&harness, &dir).unwrap()[0];
        for &(passed, run) in &core.sets {
            assert!(run > 0);
            assert_eq!(passed, run);
        }
        assert!(table.table.to_markdown().contains("## JWS verifiers"));
        assert_eq!(table.json[0]["sets"]["findings"]["run"], core.sets[2].1);
    }
}
