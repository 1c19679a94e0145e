//! The conformance matrix: every implementation run over every vector in the corpus (the
//! imported suites, the hand-written cases and every finding campaigns saved), scored per
//! category, written as Markdown and as a colour-coded HTML page.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::campaign::Harness;
use crate::families::ed25519::gen::Ed25519Case;
use crate::families::ed25519::Ed25519Test;
use crate::families::jws::gen::JwsCase;
use crate::families::jws::JwsTest;
use crate::family::Family;
use crate::manifest::Manifest;
use crate::outcome::Outcome;
use crate::vector::{Expectation, OutputTest, VectorFile};

/// The rows of the matrix, in order.
pub const CATEGORIES: [&str; 5] = ["numbers", "ordering", "escapes", "documents", "rejections"];

/// The category a vector belongs to: rejections by their result, the rest by their flags.
pub fn category(test: &OutputTest) -> &'static str {
    if test.result == Expectation::Invalid {
        return "rejections";
    }
    let has = |words: &[&str]| {
        test.flags
            .iter()
            .any(|f| words.iter().any(|w| f.to_lowercase().contains(w)))
    };
    if has(&["number", "tie", "appendixb"]) {
        "numbers"
    } else if has(&["order"]) {
        "ordering"
    } else if has(&["escape"]) {
        "escapes"
    } else {
        "documents"
    }
}

/// Passed and run counts for one implementation in one category.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    /// Vectors whose expected result the implementation gave.
    pub passed: u64,
    /// Vectors the implementation could be asked (unsupported ones left out).
    pub run: u64,
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

/// The table a family's campaign prints beside its findings, as Markdown and as JSON, when its
/// campaign registers one ([`crate::family::Spec::corpus_table`]).
pub fn campaign_table(
    family: Family,
    impls: &[String],
    corpus: &Path,
) -> Option<Result<(String, serde_json::Value), String>> {
    family.corpus_table().map(|table| table(impls, corpus))
}

/// Ed25519's table: every verifier's answers over the corpus's published cases (the
/// speccheck, CCTV and Wycheproof verdicts), since campaign findings are chosen because they
/// disagree and say nothing of how often a verifier is right.
pub fn ed25519_corpus_table(
    impls: &[String],
    corpus: &Path,
) -> Result<(String, serde_json::Value), String> {
    let (verifiers, _) = Harness::new(crate::families::ed25519::FAMILY, impls)?;
    let rows = ed25519_rows(&verifiers, corpus)?;
    Ok((ed25519_markdown(&rows), rows_to_json(&rows)))
}

pub fn ed25519_rows(harness: &Harness, dir: &Path) -> Result<Vec<VerifierRow>, String> {
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

/// One JWS verifier's agreement with the corpus's JWS vectors, by vector set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JwsRow {
    /// The verifier.
    pub name: String,
    /// Per set of vectors: answered as the vector expects, and run.
    pub sets: Vec<(usize, usize)>,
}

/// The sets of JWS vectors the report tells apart, by a word of their path.
const JWS_SETS: [(&str, &str); 3] = [
    ("rfc-and-rules", "RFC 8037 and rules"),
    ("verifiable-mcp", "verifiable-mcp"),
    ("findings", "campaign findings"),
];

/// The one key a test verifies its token with: its pinned `jwk`, or the one key of its set
/// that the token's `kid` names. Tests about the set itself (no kid, a kid two keys share)
/// name no single key.
fn key_for(token: &str, test: &JwsTest) -> Option<serde_json::Value> {
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

/// Every verifier of a JWS harness over the corpus's JWS verification vectors whose answer does
/// not turn on a `typ` profile and that name one key: answered as the vector expects (accepted
/// exactly when valid), by set.
pub fn jws_rows(harness: &Harness, dir: &Path) -> Result<Vec<JwsRow>, String> {
    let manifest = Manifest::read(dir)?;
    let mut sets: Vec<(Vec<Vec<u8>>, Vec<Expectation>)> = vec![(Vec::new(), Vec::new()); 3];
    for entry in manifest.files_of(crate::vector::JWS_SCHEMA) {
        let Some(set) = JWS_SETS
            .iter()
            .position(|(word, _)| entry.path.contains(word))
        else {
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
        })
        .collect();
    for (inputs, results) in &sets {
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let outcomes = harness.outcomes(&refs);
        for (i, row) in rows.iter_mut().enumerate() {
            let mut passed = 0;
            let mut run = 0;
            for (per_impl, result) in outcomes.iter().zip(results) {
                let Some(outcome) = per_impl.get(i).filter(|o| **o != Outcome::Unsupported) else {
                    continue;
                };
                run += 1;
                let accepted = matches!(outcome, Outcome::Ok(_));
                passed += usize::from(match result {
                    Expectation::Valid => accepted,
                    Expectation::Invalid => !accepted,
                    Expectation::Acceptable => true,
                });
            }
            row.sets.push((passed, run));
        }
    }
    Ok(rows)
}

/// The JWS verifiers' table.
fn jws_table(rows: &[JwsRow]) -> Table {
    let mut columns = vec!["verifier".to_string()];
    columns.extend(JWS_SETS.iter().map(|(_, title)| title.to_string()));
    let rows = rows
        .iter()
        .map(|r| {
            let mut row = vec![(r.name.clone(), "cat")];
            row.extend(r.sets.iter().map(|&(passed, run)| {
                cell(Some(&Score {
                    passed: passed as u64,
                    run: run as u64,
                }))
            }));
            row
        })
        .collect();
    Table {
        title: "JWS verifiers",
        intro: "Each cell: the corpus's JWS vectors answered as the vector expects (accepted exactly when valid) / run; each verifier is handed the one key the token names; vectors whose answer turns on a typ profile are left out.",
        columns,
        rows,
    }
}

/// The matrix: implementation (with version) × category.
#[derive(Debug, Clone, Default)]
pub struct Matrix {
    /// Implementations in column order, with their versions.
    pub implementations: Vec<(String, String)>,
    /// Scores by implementation, then category.
    pub scores: BTreeMap<String, BTreeMap<&'static str, Score>>,
    /// Vectors in each category.
    pub sizes: BTreeMap<&'static str, u64>,
    /// The Ed25519 verifiers' accept/reject table.
    pub ed25519: Vec<VerifierRow>,
    /// The JWS verifiers' agreement with the JWS vectors.
    pub jws: Vec<JwsRow>,
}

/// Whether an outcome is what the vector expects. Any rejection passes a rejection vector:
/// third parties' error kinds are only approximated.
fn passes(test: &OutputTest, outcome: &Outcome) -> bool {
    match (test.result, outcome) {
        (Expectation::Valid | Expectation::Acceptable, Outcome::Ok(out)) => {
            test.expected.as_deref().map(str::as_bytes) == Some(out.as_slice())
        }
        (Expectation::Invalid | Expectation::Acceptable, Outcome::Rejected(_)) => true,
        _ => false,
    }
}

/// The harnesses a report runs, one per family.
pub struct Harnesses<'a> {
    /// JCS canonicalizers, over the JCS vectors.
    pub jcs: &'a Harness,
    /// Ed25519 verifiers, over the Ed25519 edge cases.
    pub ed25519: &'a Harness,
    /// JWS verifiers, over the JWS vectors.
    pub jws: &'a Harness,
}

/// Runs every JCS implementation over every JCS vector in the corpus at `dir`, every Ed25519
/// verifier over its Ed25519 edge cases, and every JWS verifier over its JWS vectors.
pub fn build(harnesses: &Harnesses, dir: &Path) -> Result<Matrix, String> {
    let harness = harnesses.jcs;
    let manifest = Manifest::read(dir)?;
    let mut tests = Vec::new();
    for entry in manifest.files_of(crate::vector::JCS_SCHEMA) {
        let file = VectorFile::read(&dir.join(&entry.path))?;
        for test in file.typed_tests::<OutputTest>()? {
            let input = test.input_bytes()?;
            tests.push((category(&test), test, input));
        }
    }
    let mut matrix = Matrix {
        implementations: harness
            .implementations()
            .iter()
            .map(|i| (i.name().to_string(), i.version()))
            .collect(),
        ..Matrix::default()
    };
    for (category, _, _) in &tests {
        *matrix.sizes.entry(category).or_default() += 1;
    }
    for chunk in tests.chunks(512) {
        let inputs: Vec<&[u8]> = chunk.iter().map(|(_, _, i)| i.as_slice()).collect();
        for ((category, test, _), outcomes) in chunk.iter().zip(harness.outcomes(&inputs)) {
            for ((name, _), outcome) in matrix.implementations.iter().zip(&outcomes) {
                let score = matrix
                    .scores
                    .entry(name.clone())
                    .or_default()
                    .entry(category)
                    .or_default();
                if *outcome != Outcome::Unsupported {
                    score.run += 1;
                    score.passed += u64::from(passes(test, outcome));
                }
            }
        }
    }
    matrix.ed25519 = ed25519_rows(harnesses.ed25519, dir)?;
    matrix.jws = jws_rows(harnesses.jws, dir)?;
    Ok(matrix)
}

fn cell(score: Option<&Score>) -> (String, &'static str) {
    match score {
        Some(s) if s.run > 0 => {
            let rate = s.passed as f64 / s.run as f64;
            let class = if s.passed == s.run {
                "pass"
            } else if rate >= 0.95 {
                "most"
            } else {
                "fail"
            };
            (
                format!("{}/{} ({:.1}%)", s.passed, s.run, 100.0 * rate),
                class,
            )
        }
        _ => ("n/a".to_string(), "none"),
    }
}

/// One table of the report: a heading, a sentence on how to read it, column headings, and
/// rows of cells with a colour class each. Both output formats render the same tables.
struct Table {
    title: &'static str,
    intro: &'static str,
    columns: Vec<String>,
    rows: Vec<Vec<(String, &'static str)>>,
}

/// The Ed25519 verifiers' accept/reject table.
fn ed25519_table(rows: &[VerifierRow]) -> Table {
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

impl Table {
    fn markdown(&self, out: &mut String) {
        let _ = write!(out, "\n## {}\n\n{}\n\n|", self.title, self.intro);
        for column in &self.columns {
            let _ = write!(out, " {column} |");
        }
        let _ = write!(out, "\n|{}\n", "---|".repeat(self.columns.len()));
        for row in &self.rows {
            out.push('|');
            for (text, _) in row {
                let _ = write!(out, " {text} |");
            }
            out.push('\n');
        }
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

/// The Ed25519 verifiers' accept/reject table as Markdown, as a campaign prints it.
pub fn ed25519_markdown(rows: &[VerifierRow]) -> String {
    let mut out = String::new();
    ed25519_table(rows).markdown(&mut out);
    out
}

impl Matrix {
    fn tables(&self) -> Vec<Table> {
        let mut columns = vec!["category".to_string(), "vectors".to_string()];
        columns.extend(self.implementations.iter().map(|(n, v)| format!("{n} {v}")));
        let rows =
            CATEGORIES
                .iter()
                .map(|category| {
                    let mut row = vec![
                        (category.to_string(), "cat"),
                        (
                            self.sizes.get(category).copied().unwrap_or(0).to_string(),
                            "",
                        ),
                    ];
                    row.extend(self.implementations.iter().map(|(name, _)| {
                        cell(self.scores.get(name).and_then(|s| s.get(category)))
                    }));
                    row
                })
                .collect();
        let conformance = Table {
            title: "Conformance by category",
            intro: "Each cell: vectors passed / vectors run (inputs an implementation cannot be given are left out). A rejection vector passes on any rejection. In the HTML page, green: all passed; yellow: at least 95%; red: fewer; grey: none could be given.",
            columns,
            rows,
        };
        vec![
            conformance,
            ed25519_table(&self.ed25519),
            jws_table(&self.jws),
        ]
    }

    /// The report as Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::from("# canonfuzz conformance matrix\n");
        for table in self.tables() {
            table.markdown(&mut out);
        }
        out
    }

    /// The report as a self-contained HTML page with colour-coded cells.
    pub fn html(&self) -> String {
        let escape = |s: &str| {
            s.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        let mut out = String::from(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>canonfuzz conformance matrix</title>\n<style>\nbody{font-family:system-ui,sans-serif;margin:2em;color:#222}\ntable{border-collapse:collapse}\nth,td{border:1px solid #bbb;padding:.45em .7em;text-align:center}\nth{background:#f0f0f0}\ntd.pass{background:#b7e4c7}\ntd.most{background:#ffe8a3}\ntd.fail{background:#f4a3a3}\ntd.none{background:#e6e6e6;color:#777}\ntd.cat{text-align:left;font-weight:600}\n</style></head><body>\n<h1>canonfuzz conformance matrix</h1>\n",
        );
        for table in self.tables() {
            let _ = write!(
                out,
                "<h2>{}</h2>\n<p>{}</p>\n<table>\n<tr>",
                table.title,
                escape(table.intro)
            );
            for column in &table.columns {
                let _ = write!(out, "<th>{}</th>", escape(column));
            }
            out.push_str("</tr>\n");
            for row in &table.rows {
                out.push_str("<tr>");
                for (text, class) in row {
                    if class.is_empty() {
                        let _ = write!(out, "<td>{}</td>", escape(text));
                    } else {
                        let _ = write!(out, "<td class=\"{class}\">{}</td>", escape(text));
                    }
                }
                out.push_str("</tr>\n");
            }
            out.push_str("</table>\n");
        }
        out.push_str("</body></html>\n");
        out
    }

    /// Writes `conformance.md` and `conformance.html` into `out`; returns their paths.
    pub fn write(&self, out: &Path) -> Result<(PathBuf, PathBuf), String> {
        std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
        let md = out.join("conformance.md");
        let html = out.join("conformance.html");
        crate::vector::write_atomically(&md, self.markdown().as_bytes())?;
        crate::vector::write_atomically(&html, self.html().as_bytes())?;
        Ok((md, html))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impls::CoreImpl;

    #[test]
    fn the_core_passes_its_own_corpus_in_every_category() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let verifiers = Harness::with(
            crate::families::ed25519::FAMILY,
            vec![
                Box::new(crate::families::ed25519::impls::core()),
                Box::new(crate::families::ed25519::impls::dalek_verify()),
            ],
        );
        let jws = Harness::with(
            crate::families::jws::FAMILY,
            vec![Box::new(crate::families::jws::impls::core())],
        );
        let matrix = build(
            &Harnesses {
                jcs: &Harness::with(crate::families::jcs::FAMILY, vec![Box::new(CoreImpl)]),
                ed25519: &verifiers,
                jws: &jws,
            },
            &dir,
        )
        .unwrap();
        for category in CATEGORIES {
            let score = matrix.scores["core"][category];
            assert!(score.run > 0, "{category} has no vectors");
            assert_eq!(score.passed, score.run, "{category}");
        }
        assert!(matrix.markdown().contains("| numbers |"));
        assert!(matrix.html().contains("<td class=\"pass\">"));
        let core = matrix.ed25519.iter().find(|r| r.name == "core").unwrap();
        // The strict policy rejects every speccheck case and accepts only CCTV's unflagged one.
        assert_eq!(core.speccheck, vec![false; 12]);
        assert_eq!(core.cctv_accepted, (1, 914));
        assert_eq!(core.wycheproof_agree, (151, 151));
        // The core answers every JWS vector it can be given as the vector expects.
        let core = &matrix.jws[0];
        for &(passed, run) in &core.sets {
            assert!(run > 0);
            assert_eq!(passed, run);
        }
        assert!(matrix.markdown().contains("## JWS verifiers"));
    }
}
