//! The conformance matrix: every JCS implementation run over every JCS vector in the corpus
//! (the imported suites, the hand-written cases and every finding campaigns saved), scored per
//! category, and beside it the table of every family that registers one over the corpus,
//! written as Markdown and as a colour-coded HTML page.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::bugs;
use crate::campaign::{Harness, Missing};
use crate::escape::{code_cell, html, markdown};
use crate::harness::family_table;
use crate::impls::External;
use crate::manifest::Manifest;
use crate::outcome::Outcome;
use crate::replay::{category, Miss, CATEGORIES};
use crate::table::{cell, Cell, Column, FamilyTable, Score, Table, COLOURS};
use crate::vector::VectorFile;

/// Where the report's numbers come from, so that two reports can be told apart.
#[derive(Debug, Clone, Default)]
pub struct Provenance {
    /// When it was made, UTC.
    pub generated: String,
    /// The commit canonfuzz was built from.
    pub commit: String,
    /// The corpus directory.
    pub corpus: String,
    /// SHA-256 of the corpus's manifest, which pins every vector file.
    pub manifest_sha256: String,
}

/// One part of the corpus scored per implementation and category, with every failure.
#[derive(Debug, Clone, Default)]
pub struct Scores {
    /// Scores by implementation, then category.
    pub scores: BTreeMap<String, BTreeMap<&'static str, Score>>,
    /// Vectors in each category.
    pub sizes: BTreeMap<&'static str, u64>,
    /// The vectors each implementation failed, by implementation and category.
    pub misses: BTreeMap<(String, &'static str), Vec<Miss>>,
}

/// The two parts of the JCS corpus: published and hand-written vectors, and the findings
/// campaigns saved, which are chosen because implementations disagree on them and so are
/// scored apart.
pub const PARTS: [(&str, &str, &str); 2] = [
    (
        "conformance",
        "JCS conformance by the rule each vector tests",
        "Published and hand-written vectors (the RFC 8785 suite and appendix B, the ES number files, the edge cases and rejections). Each cell: vectors passed / vectors run, inputs an implementation cannot be given left out; a rejection vector passes on any rejection. Rows say what the rule rests on, so that a parser's leniency (grammar, I-JSON) is not read as a canonicalization bug. A cell with failures opens to them and names the most severe bug they show.",
    ),
    (
        "findings",
        "JCS campaign findings",
        "The vectors campaigns saved (corpus/jcs/findings and regressions), each expected as the core answers. They are chosen because implementations disagree on them, so these cells say where a library departs, not how often it is right.",
    ),
];

/// The part of the corpus a vector file belongs to.
fn part_of(path: &str) -> usize {
    usize::from(path.contains("/findings/") || path.contains("/regressions/"))
}

/// The matrix: implementation (with version) × category, for each part of the corpus.
#[derive(Debug, Clone, Default)]
pub struct Matrix {
    /// Where the numbers come from.
    pub provenance: Provenance,
    /// Implementations in column order.
    pub implementations: Vec<Column>,
    /// Each part of [`PARTS`], in order.
    pub parts: Vec<Scores>,
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
                let category = category(test, replay.error_kind.as_deref());
                tests.push((
                    part_of(&entry.path),
                    &entry.path,
                    test.clone(),
                    category,
                    replay,
                ));
            }
        }
    }
    let manifest_bytes = std::fs::read(dir.join(crate::manifest::MANIFEST_FILE))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut matrix = Matrix {
        provenance: Provenance {
            generated: now_utc(),
            commit: env!("CANONFUZZ_COMMIT").to_string(),
            corpus: dir.display().to_string(),
            manifest_sha256: crate::manifest::sha256_hex(&manifest_bytes),
        },
        implementations: harness
            .implementations()
            .iter()
            .map(|i| {
                Column::of(
                    i.as_ref(),
                    crate::families::jcs::drivers::describe(i.as_ref()),
                )
            })
            .collect(),
        parts: vec![Scores::default(); PARTS.len()],
        families,
    };
    for (part, _, _, category, _) in &tests {
        *matrix.parts[*part].sizes.entry(category).or_default() += 1;
    }
    for chunk in tests.chunks(512) {
        let inputs: Vec<&[u8]> = chunk.iter().map(|t| t.4.input.as_slice()).collect();
        for ((part, file, test, category, replay), outcomes) in
            chunk.iter().zip(harness.outcomes(&inputs))
        {
            let scores = &mut matrix.parts[*part];
            for (column, outcome) in matrix.implementations.iter().zip(&outcomes) {
                if *outcome == Outcome::Unsupported {
                    continue;
                }
                let score = scores
                    .scores
                    .entry(column.name.clone())
                    .or_default()
                    .entry(category)
                    .or_default();
                score.run += 1;
                if replay.passes(outcome) {
                    score.passed += 1;
                } else {
                    scores
                        .misses
                        .entry((column.name.clone(), category))
                        .or_default()
                        .push(Miss::new(file, test, replay, outcome));
                }
            }
        }
    }
    Ok(matrix)
}

/// The whole report over the corpus at `dir`: the JCS implementations selected by `impls`
/// (empty selects all) and those `with` names, and every family's table; with the JCS
/// harness, which upstream reports minimize with, and the implementations that could not run.
pub fn conformance(
    impls: &[String],
    with: &[External],
    dir: &Path,
) -> Result<(Matrix, Harness, Missing), String> {
    let (jcs, mut missing) = Harness::choose(crate::families::jcs::FAMILY, impls, with)?;
    let mut tables = Vec::new();
    for family in crate::families::all() {
        if let Some(table) = family_table(*family, &[], dir) {
            let (table, more) = table?;
            missing.extend(more);
            tables.push(table);
        }
    }
    Ok((build(&jcs, tables, dir)?, jcs, missing))
}

/// The current time as `YYYY-MM-DD HH:MM UTC`.
fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3_600,
        rest % 3_600 / 60
    )
}

/// Failures listed per cell on the HTML page; the JSON carries all of them.
const LISTED_MISSES: usize = 200;

/// Failures listed per cell in the Markdown.
const LISTED_MISSES_MARKDOWN: usize = 10;

/// The anchor of one cell's failures.
fn anchor(part: &str, implementation: &str, category: &str) -> String {
    format!(
        "miss-{}",
        crate::escape::slug(&format!("{part}-{implementation}-{category}"))
    )
}

/// The report page's head and style, up to its provenance list.
const PAGE_HEAD: &str = concat!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        "<title>canonfuzz conformance matrix</title>\n<style>\n",
        "body{font-family:system-ui,sans-serif;margin:1rem;color:#222;max-width:100%}\n",
        "h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}h3{font-size:1rem}\n",
        "p,li,dd{max-width:60rem;line-height:1.4}\n",
        ".scroll{overflow-x:auto;max-width:100%}\n",
        "table{border-collapse:collapse;font-size:.85rem}\n",
        "th,td{border:1px solid #bbb;padding:.35em .5em;text-align:center;vertical-align:top}\n",
        "th{background:#f0f0f0;font-weight:600}\n",
        "td.pass{background:#b7e4c7}td.wrong{background:#f4a3a3}td.accepts{background:#f8c291}\n",
        "td.refuses{background:#ffe8a3}td.limit{background:#d6e6f5}td.partial{background:#eeeeee}\n",
        "td.none{background:#e6e6e6;color:#666}td.cat{text-align:left;font-weight:600}\n",
        "td a{color:inherit}\n",
        "dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}dt{font-weight:600}\n",
        "dd{margin:0;overflow-wrap:anywhere}\n",
        "section.misses{display:none;border-top:2px solid #888;margin-top:1rem}\n",
        "section.misses:target{display:block}\n",
        "section.misses td{text-align:left;font-family:ui-monospace,monospace;overflow-wrap:anywhere;max-width:24rem}\n",
        "@media (min-width:900px){body{margin:2rem}table{font-size:.9rem}}\n",
        "</style></head><body>\n<h1>canonfuzz conformance matrix</h1>\n<dl>",
);

impl Matrix {
    fn tables(&self) -> Vec<Table> {
        let mut tables = Vec::new();
        for ((key, title, intro), scores) in PARTS.iter().zip(&self.parts) {
            let mut columns = vec![Cell::new("category", ""), Cell::new("vectors", "")];
            columns.extend(self.implementations.iter().map(|c| {
                // The runtime is in the implementations' table; the heading keeps the
                // library's own version.
                let version = c.version.split(" (").next().unwrap_or_default();
                Cell::new(format!("{} {version}", c.name), "")
            }));
            let rows = CATEGORIES
                .iter()
                .filter(|(category, _)| scores.sizes.contains_key(category))
                .map(|(category, basis)| {
                    let mut row = vec![
                        Cell::new(*category, "cat").titled(*basis),
                        Cell::new(scores.sizes[category].to_string(), ""),
                    ];
                    row.extend(self.implementations.iter().map(|c| {
                        let misses = scores.misses.get(&(c.name.clone(), category));
                        let worst = misses.into_iter().flatten().filter_map(|m| {
                            bugs::key(crate::families::jcs::FAMILY, &m.observation(&c.name))
                                .map(|k| k.severity)
                        });
                        let mut cell = cell(
                            scores.scores.get(&c.name).and_then(|s| s.get(category)),
                            worst.min(),
                        );
                        if scores.misses.contains_key(&(c.name.clone(), category)) {
                            cell.link = Some(anchor(key, &c.name, category));
                        }
                        cell
                    }));
                    row
                })
                .collect();
            tables.push(Table {
                title,
                intro: intro.to_string(),
                columns,
                rows,
            });
        }
        tables.extend(self.families.iter().map(|f| f.table.clone()));
        tables
    }

    fn header_lines(&self) -> Vec<(String, String)> {
        let p = &self.provenance;
        vec![
            ("generated".to_string(), p.generated.clone()),
            ("canonfuzz commit".to_string(), p.commit.clone()),
            ("corpus".to_string(), p.corpus.clone()),
            (
                "corpus manifest SHA-256".to_string(),
                p.manifest_sha256.clone(),
            ),
        ]
    }

    /// Every implementation the report ran, with the title of its family's table.
    fn every_implementation(&self) -> Vec<(&str, &Column)> {
        let mut every: Vec<(&str, &Column)> =
            self.implementations.iter().map(|c| ("JCS", c)).collect();
        for family in &self.families {
            every.extend(
                family
                    .implementations
                    .iter()
                    .map(|c| (family.table.title, c)),
            );
        }
        every
    }

    /// Each implementation's totals over each part, as lines for an 80-column terminal.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "JCS over corpus manifest {} (canonfuzz {})\n{:<26} {:>22} {:>22}\n",
            self.provenance
                .manifest_sha256
                .get(..12)
                .unwrap_or_default(),
            self.provenance.commit,
            "implementation",
            "conformance passed",
            "findings passed"
        );
        for c in &self.implementations {
            let totals: Vec<String> = self
                .parts
                .iter()
                .map(|scores| {
                    let (passed, run) = scores.scores.get(&c.name).map_or((0, 0), |s| {
                        s.values()
                            .fold((0, 0), |(p, r), v| (p + v.passed, r + v.run))
                    });
                    format!("{passed}/{run}")
                })
                .collect();
            let _ = writeln!(
                out,
                "{:<26} {:>22} {:>22}",
                crate::escape::terminal(&c.name),
                totals.first().map_or("", String::as_str),
                totals.get(1).map_or("", String::as_str)
            );
        }
        out
    }

    /// The report as Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::from("# canonfuzz conformance matrix\n\n");
        for (key, value) in self.header_lines() {
            let _ = writeln!(out, "- {}: {}", markdown(&key), markdown(&value));
        }
        out.push_str(
            "\n| family | implementation | version | computes with | group | driven as |\n|---|---|---|---|---|---|\n",
        );
        for (family, c) in self.every_implementation() {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                markdown(family),
                markdown(&c.name),
                markdown(&c.version),
                markdown(&c.uses),
                markdown(&c.group),
                markdown(&c.driven)
            );
        }
        out.push_str("\nRows:\n\n");
        for (category, basis) in CATEGORIES {
            let _ = writeln!(out, "- {category}: {basis}");
        }
        let _ = writeln!(out, "\n{COLOURS}");
        for table in self.tables() {
            table.markdown(&mut out);
        }
        for ((key, title, _), scores) in PARTS.iter().zip(&self.parts) {
            for ((name, category), misses) in &scores.misses {
                let _ = write!(
                    out,
                    "\n<a id=\"{}\"></a>\n### {title}: {}, {category} ({} failed)\n\n| file | tcId | flags | input | expected | got |\n|---|---|---|---|---|---|\n",
                    anchor(key, name, category),
                    markdown(name),
                    misses.len()
                );
                for m in misses.iter().take(LISTED_MISSES_MARKDOWN) {
                    let _ = writeln!(
                        out,
                        "| {} | {} | {} | {} | {} | {} |",
                        markdown(&m.file),
                        m.tc_id,
                        markdown(&m.flags.join(" ")),
                        code_cell(&m.input),
                        code_cell(&m.expected),
                        code_cell(&m.got)
                    );
                }
                if misses.len() > LISTED_MISSES_MARKDOWN {
                    let _ = writeln!(
                        out,
                        "\n{} more: conformance.html and conformance.json list them.",
                        misses.len() - LISTED_MISSES_MARKDOWN
                    );
                }
            }
        }
        out
    }

    /// The report as a self-contained HTML page: colour-coded cells, each with failures
    /// leading to them, readable from a phone's width up, with nothing loaded from outside.
    pub fn html(&self) -> String {
        let mut out = String::from(PAGE_HEAD);
        for (key, value) in self.header_lines() {
            let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", html(&key), html(&value));
        }
        out.push_str("</dl>\n<h2>Implementations</h2>\n<div class=\"scroll\"><table>\n<tr><th>family</th><th>implementation</th><th>version</th><th>computes with</th><th>group</th><th>driven as</th></tr>\n");
        for (family, c) in self.every_implementation() {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td class=\"cat\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                html(family),
                html(&c.name),
                html(&c.version),
                html(&c.uses),
                html(&c.group),
                html(&c.driven)
            );
        }
        out.push_str("</table></div>\n<h2>Rows</h2>\n<ul>");
        for (category, basis) in CATEGORIES {
            let _ = write!(out, "<li><b>{}</b>: {}</li>", html(category), html(basis));
        }
        let _ = writeln!(
            out,
            "</ul>\n<p>{} Green: all passed; grey: none could be given.</p>",
            html(COLOURS)
        );
        for table in self.tables() {
            table.html(&mut out);
        }
        self.misses_html(&mut out);
        out.push_str("</body></html>\n");
        out
    }

    /// Each cell's failures, as a section of the page its cell leads to.
    fn misses_html(&self, out: &mut String) {
        for ((key, title, _), scores) in PARTS.iter().zip(&self.parts) {
            for ((name, category), misses) in &scores.misses {
                let _ = write!(
                out,
                "<section class=\"misses\" id=\"{}\"><h3>{}: {}, {} ({} failed)</h3>\n<div class=\"scroll\"><table><tr><th>file</th><th>tcId</th><th>flags</th><th>input</th><th>expected</th><th>got</th></tr>\n",
                anchor(key, name, category),
                html(title),
                html(name),
                html(category),
                misses.len()
            );
                for m in misses.iter().take(LISTED_MISSES) {
                    let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    html(&m.file),
                    m.tc_id,
                    html(&m.flags.join(" ")),
                    html(&m.input),
                    html(&m.expected),
                    html(&m.got)
                );
                }
                out.push_str("</table></div>\n");
                if misses.len() > LISTED_MISSES {
                    let _ = writeln!(
                        out,
                        "<p>{} more: conformance.json lists every failure.</p>",
                        misses.len() - LISTED_MISSES
                    );
                }
                out.push_str("</section>\n");
            }
        }
    }

    /// The report as JSON: provenance, implementations, every cell and every failure.
    pub fn json(&self) -> serde_json::Value {
        let p = &self.provenance;
        let parts: serde_json::Map<String, serde_json::Value> = PARTS
            .iter()
            .zip(&self.parts)
            .map(|((key, _, _), scores)| {
                let cells: Vec<serde_json::Value> = self
                    .implementations
                    .iter()
                    .flat_map(|c| {
                        CATEGORIES
                            .iter()
                            .filter(|(category, _)| scores.sizes.contains_key(category))
                            .map(move |(category, _)| (c, *category))
                    })
                    .map(|(c, category)| {
                        let score = scores
                            .scores
                            .get(&c.name)
                            .and_then(|s| s.get(category))
                            .copied()
                            .unwrap_or_default();
                        let misses: Vec<serde_json::Value> = scores
                            .misses
                            .get(&(c.name.clone(), category))
                            .map(|m| m.iter().map(Miss::to_json).collect())
                            .unwrap_or_default();
                        serde_json::json!({
                            "implementation": c.name,
                            "category": category,
                            "passed": score.passed,
                            "run": score.run,
                            "failures": misses,
                        })
                    })
                    .collect();
                let sizes: serde_json::Map<String, serde_json::Value> = scores
                    .sizes
                    .iter()
                    .map(|(k, v)| (k.to_string(), (*v).into()))
                    .collect();
                (
                    key.to_string(),
                    serde_json::json!({"vectors": sizes, "cells": cells}),
                )
            })
            .collect();
        serde_json::json!({
            "provenance": {
                "generated": p.generated,
                "commit": p.commit,
                "corpus": p.corpus,
                "manifestSha256": p.manifest_sha256,
            },
            "implementations": self.every_implementation().iter().map(|(family, c)| serde_json::json!({
                "table": family,
                "name": c.name,
                "version": c.version,
                "uses": c.uses,
                "group": c.group,
                "driven": c.driven,
            })).collect::<Vec<_>>(),
            "categories": CATEGORIES.iter().map(|(c, basis)| serde_json::json!({"category": c, "basis": basis})).collect::<Vec<_>>(),
            "jcs": parts,
            "families": self.families.iter().map(|f| serde_json::json!({"title": f.table.title, "rows": f.json})).collect::<Vec<_>>(),
        })
    }

    /// Writes `conformance.md`, `conformance.html` and `conformance.json` into `out`;
    /// returns their paths.
    pub fn write(&self, out: &Path) -> Result<[PathBuf; 3], String> {
        std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
        let md = out.join("conformance.md");
        let html = out.join("conformance.html");
        let json = out.join("conformance.json");
        crate::vector::write_atomically(&md, self.markdown().as_bytes())?;
        crate::vector::write_atomically(&html, self.html().as_bytes())?;
        let mut text = serde_json::to_vec_pretty(&self.json()).map_err(|e| e.to_string())?;
        text.push(b'\n');
        crate::vector::write_atomically(&json, &text)?;
        Ok([md, html, json])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bugs::Severity;
    use crate::families::{ed25519, jws};
    use canonfuzz_props::jcs::impls::CoreImpl;

    /// The matrix of the repository's corpus run by a core that orders members by UTF-8
    /// bytes: failures in the ordering cells, each with its rows.
    fn utf8_order_matrix() -> Matrix {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let mutant = crate::mutants::find(crate::families::jcs::FAMILY, "utf8-member-order")
            .unwrap()
            .implementation();
        let jcs = Harness::with(crate::families::jcs::FAMILY, vec![Box::new(mutant)]);
        build(&jcs, Vec::new(), &dir).unwrap()
    }

    #[test]
    fn nothing_in_a_cell_can_leave_it() {
        use crate::escape::hostile::{safe_for_a_terminal, HOSTILE};
        let table = Table {
            title: "hostile",
            intro: HOSTILE.into(),
            columns: vec![Cell::new(HOSTILE, "").titled(HOSTILE)],
            rows: vec![vec![Cell::new(HOSTILE, "wrong").titled(HOSTILE)]],
        };
        let md = table.to_markdown();
        safe_for_a_terminal(&md, md.lines().count());
        // Every row keeps its one cell: no `|` from the text splits it.
        for row in md.lines().filter(|l| l.starts_with('|')) {
            assert_eq!(
                row.matches('|').count() - row.matches("\\|").count(),
                2,
                "{row}"
            );
        }
        let mut page = String::new();
        table.html(&mut page);
        safe_for_a_terminal(&page, page.lines().count());
        assert!(!page.contains("<script") && !page.contains("'x'"), "{page}");
    }

    #[test]
    fn the_core_passes_its_own_corpus_in_every_category() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let verifiers = Harness::with(ed25519::FAMILY, vec![Box::new(ed25519::impls::core())]);
        let tables = vec![ed25519::table::corpus_table(&verifiers, &dir).unwrap()];
        let jcs = Harness::with(crate::families::jcs::FAMILY, vec![Box::new(CoreImpl)]);
        let matrix = build(&jcs, tables, &dir).unwrap();
        for (category, _) in CATEGORIES {
            let score = matrix.parts[0].scores["core"][category];
            assert!(score.run > 0, "{category} has no vectors");
            assert_eq!(score.passed, score.run, "{category}");
        }
        assert!(matrix.parts[1].scores["core"]
            .values()
            .all(|s| s.passed == s.run));
        assert!(matrix.parts.iter().all(|p| p.misses.is_empty()));
        let markdown = matrix.markdown();
        assert!(markdown.contains("| numbers |"), "{markdown}");
        assert!(markdown.contains("## Ed25519 verifiers"), "{markdown}");
        assert!(markdown.contains("corpus manifest SHA-256"), "{markdown}");
        assert!(matrix.html().contains("<td class=\"pass\">"));
        let json = matrix.json();
        assert_eq!(
            json["provenance"]["manifestSha256"].as_str().unwrap().len(),
            64
        );
        assert_eq!(
            json["implementations"][0]["driven"],
            crate::families::jcs::drivers::CORE_HOW
        );
    }

    #[test]
    fn a_cell_with_failures_leads_to_each_of_them() {
        let matrix = utf8_order_matrix();
        let (key, misses) = matrix.parts[0]
            .misses
            .iter()
            .find(|((_, category), _)| *category == "ordering")
            .expect("the mutant fails ordering vectors");
        let score = matrix.parts[0].scores[&key.0]["ordering"];
        assert_eq!(misses.len() as u64, score.run - score.passed);
        let id = anchor("conformance", &key.0, "ordering");
        let html = matrix.html();
        assert!(
            html.contains(&format!("<a href=\"#{id}\">")),
            "the cell does not link"
        );
        assert!(html.contains(&format!("<section class=\"misses\" id=\"{id}\">")));
        let first = &misses[0];
        assert!(html.contains(&format!("<td>{}</td><td>{}</td>", first.file, first.tc_id)));
        let json = matrix.json();
        let cell = json["jcs"]["conformance"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["category"] == "ordering")
            .unwrap()
            .clone();
        assert_eq!(cell["failures"].as_array().unwrap().len(), misses.len());
        assert_eq!(cell["failures"][0]["tcId"], first.tc_id);
        assert!(matrix.markdown().contains(&format!("](#{id})")));
    }

    #[test]
    fn a_hostile_file_name_flag_and_input_change_no_row_or_line_of_any_report() {
        use crate::escape::hostile::HOSTILE;
        let plain = utf8_order_matrix();
        let mut hostile = plain.clone();
        let file =
            "x\n12 passed, 0 failed\n| a | b |<img src=x onerror=alert(1)>\u{1b}[2J\u{2028}`.json";
        for misses in hostile.parts[0].misses.values_mut() {
            for m in misses.iter_mut() {
                m.file = file.to_string();
                for flag in &mut m.flags {
                    *flag = format!("{HOSTILE}``|``");
                }
                m.input = format!("{HOSTILE}``` `");
                m.got = "\\`|".to_string();
            }
        }
        let rows = |md: &str| -> Vec<usize> {
            md.lines()
                .filter(|l| l.starts_with('|'))
                .map(|l| l.matches('|').count() - l.matches("\\|").count())
                .collect()
        };
        let (before, after) = (plain.markdown(), hostile.markdown());
        assert_eq!(after.lines().count(), before.lines().count(), "{after}");
        assert_eq!(rows(&after), rows(&before), "{after}");
        assert!(
            !after.lines().any(|l| l.trim() == "12 passed, 0 failed"),
            "{after}"
        );
        assert!(!after.contains('\u{1b}') && !after.contains('\u{2028}'));
        let escaped = |opener: &str| {
            after
                .match_indices(opener)
                .all(|(i, _)| after[..i].ends_with('\\'))
        };
        assert!(escaped("<img") && escaped("| a | b |"), "{after}");
        // Inside code, the text as it is: no backslash but the pipe's.
        assert!(after.contains("```` x\\nvalid"), "{after}");
        assert!(after.contains("| ``\\`\\|`` |"), "{after}");
        let (before, after) = (plain.html(), hostile.html());
        assert_eq!(after.lines().count(), before.lines().count());
        assert_eq!(
            after.matches("<tr>").count(),
            before.matches("<tr>").count()
        );
        assert!(!after.contains("<img") && !after.contains('\u{2028}'));
        let json = serde_json::to_string_pretty(&hostile.json()).unwrap();
        assert_eq!(
            json.lines().count(),
            serde_json::to_string_pretty(&plain.json())
                .unwrap()
                .lines()
                .count()
        );
    }

    #[test]
    fn a_cell_is_coloured_by_what_its_failures_cost_not_by_how_many_passed() {
        let score = |passed| Score { passed, run: 100 };
        // One wrong byte in a hundred outranks ninety-nine refusals at a stated limit.
        let wrong = cell(Some(&score(99)), Some(Severity::WrongBytes));
        let limit = cell(Some(&score(1)), Some(Severity::AtLimit));
        assert_eq!((wrong.class, limit.class), ("wrong", "limit"));
        assert!(wrong.text.ends_with("wrong bytes"), "{}", wrong.text);
        assert_eq!(cell(Some(&score(100)), None).class, "pass");
        // Failures of no known severity are taken for the worst.
        assert_eq!(cell(Some(&score(50)), None).class, "wrong");
        // Over the corpus, a core ordering members by UTF-8 bytes writes wrong bytes.
        let matrix = utf8_order_matrix();
        let ordering = matrix.tables()[0]
            .rows
            .iter()
            .find(|row| row[0].text == "ordering")
            .map(|row| row[2].clone())
            .unwrap();
        assert_eq!(ordering.class, "wrong", "{ordering:?}");
    }

    #[test]
    fn the_families_with_a_table_are_those_that_register_one() {
        let with: Vec<&str> = crate::families::all()
            .iter()
            .filter(|f| f.corpus_table().is_some())
            .map(|f| f.name())
            .collect();
        assert_eq!(with, [ed25519::FAMILY.name(), jws::FAMILY.name()]);
    }
}
