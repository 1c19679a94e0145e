//! The conformance matrix: every JCS implementation run over every JCS vector in the corpus
//! (the imported suites, the hand-written cases and every finding campaigns saved), scored per
//! category, and beside it the table of every family that registers one over the corpus,
//! written as Markdown and as a colour-coded HTML page.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::campaign::{Harness, Missing};
use crate::family::Family;
use crate::impls::External;
use crate::manifest::Manifest;
use crate::outcome::Outcome;
use crate::replay::category;
use crate::vector::VectorFile;

/// The rows of the matrix, in order.
pub const CATEGORIES: [&str; 5] = ["numbers", "ordering", "escapes", "documents", "rejections"];

/// Passed and run counts for one implementation in one category.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    /// Vectors whose expected result the implementation gave.
    pub passed: u64,
    /// Vectors the implementation could be asked (unsupported ones left out).
    pub run: u64,
}

/// A family's table over the corpus ([`crate::family::Spec::corpus_table`]), and the same
/// for `--summary-json`.
#[derive(Debug, Clone)]
pub struct FamilyTable {
    /// The table, as both output formats render it.
    pub table: Table,
    /// Its rows as JSON.
    pub json: serde_json::Value,
}

/// The table of `family` over the corpus, from the implementations selected (empty selects
/// all), with those that could not run; `None` when the family registers no table.
pub fn family_table(
    family: Family,
    impls: &[String],
    corpus: &Path,
) -> Option<Result<(FamilyTable, Missing), String>> {
    let table = family.corpus_table()?;
    Some(
        Harness::new(family, impls)
            .and_then(|(harness, missing)| table(&harness, corpus).map(|t| (t, missing))),
    )
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
    /// The table of every family that registers one, in registry order.
    pub families: Vec<FamilyTable>,
}

/// Runs every implementation of `harness` over every JCS vector in the corpus at `dir`; the
/// families' tables are given.
pub fn build(harness: &Harness, families: Vec<FamilyTable>, dir: &Path) -> Result<Matrix, String> {
    let manifest = Manifest::read(dir)?;
    let family = harness.family();
    let mut tests = Vec::new();
    for entry in manifest.files_of(family.schema()) {
        let file = VectorFile::read(&dir.join(&entry.path))?;
        for test in file.tests() {
            if let Some(replay) = family.replay(test) {
                tests.push((category(test), replay));
            }
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
    for (category, _) in &tests {
        *matrix.sizes.entry(category).or_default() += 1;
    }
    for chunk in tests.chunks(512) {
        let inputs: Vec<&[u8]> = chunk.iter().map(|(_, r)| r.input.as_slice()).collect();
        for ((category, replay), outcomes) in chunk.iter().zip(harness.outcomes(&inputs)) {
            for ((name, _), outcome) in matrix.implementations.iter().zip(&outcomes) {
                let score = matrix
                    .scores
                    .entry(name.clone())
                    .or_default()
                    .entry(category)
                    .or_default();
                if *outcome != Outcome::Unsupported {
                    score.run += 1;
                    score.passed += u64::from(replay.passes(outcome));
                }
            }
        }
    }
    matrix.families = families;
    Ok(matrix)
}

/// The whole report over the corpus at `dir`: the JCS implementations selected by `impls`
/// (empty selects all) and those `with` names, and every family's table, with the
/// implementations that could not run.
pub fn conformance(
    impls: &[String],
    with: &[External],
    dir: &Path,
) -> Result<(Matrix, Missing), String> {
    let (jcs, mut missing) = Harness::choose(crate::families::jcs::FAMILY, impls, with)?;
    let mut tables = Vec::new();
    for family in Family::all() {
        if let Some(table) = family_table(*family, &[], dir) {
            let (table, more) = table?;
            missing.extend(more);
            tables.push(table);
        }
    }
    Ok((build(&jcs, tables, dir)?, missing))
}

/// A score's cell: its text and its colour class.
pub fn cell(score: Option<&Score>) -> (String, &'static str) {
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
#[derive(Debug, Clone)]
pub struct Table {
    /// The heading.
    pub title: &'static str,
    /// How to read it.
    pub intro: &'static str,
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows of cells: text and colour class (`pass`, `most`, `fail`, `none`, `cat` or none).
    pub rows: Vec<Vec<(String, &'static str)>>,
}

impl Table {
    /// The table as Markdown, under its heading.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        self.markdown(&mut out);
        out
    }

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
        let mut tables = vec![conformance];
        tables.extend(self.families.iter().map(|f| f.table.clone()));
        tables
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
    use crate::families::{ed25519, jws};
    use crate::impls::CoreImpl;

    #[test]
    fn the_core_passes_its_own_corpus_in_every_category() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let verifiers = Harness::with(ed25519::FAMILY, vec![Box::new(ed25519::impls::core())]);
        let tables = vec![ed25519::report::corpus_table(&verifiers, &dir).unwrap()];
        let jcs = Harness::with(crate::families::jcs::FAMILY, vec![Box::new(CoreImpl)]);
        let matrix = build(&jcs, tables, &dir).unwrap();
        for category in CATEGORIES {
            let score = matrix.scores["core"][category];
            assert!(score.run > 0, "{category} has no vectors");
            assert_eq!(score.passed, score.run, "{category}");
        }
        let markdown = matrix.markdown();
        assert!(markdown.contains("| numbers |"), "{markdown}");
        assert!(markdown.contains("## Ed25519 verifiers"), "{markdown}");
        assert!(matrix.html().contains("<td class=\"pass\">"));
    }

    #[test]
    fn the_families_with_a_table_are_those_that_register_one() {
        let with: Vec<&str> = Family::all()
            .iter()
            .filter(|f| f.corpus_table().is_some())
            .map(|f| f.name())
            .collect();
        assert_eq!(with, [ed25519::FAMILY.name(), jws::FAMILY.name()]);
    }
}
