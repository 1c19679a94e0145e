//! Upstream-ready reports: for every campaign finding a registered third-party library does
//! not pass, a Markdown file its maintainers can act on without canonfuzz — the library and
//! version, the minimal input as text and hex, the expected output with the rule and the
//! vector behind it, what the library answered, and a program in the library's own language
//! that shows it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::escape::{code_block, markdown};
use crate::families::jcs::drivers::{driver, Driver};
use crate::outcome::Outcome;
use crate::replay::{Miss, CATEGORIES};
use crate::report::Matrix;
use crate::vector::{readable, to_hex, Expectation};

/// One report: the library it goes to, the file it is written to, and its text.
#[derive(Debug, Clone)]
pub struct Upstream {
    /// The implementation's name.
    pub implementation: String,
    /// The file, relative to the output directory.
    pub path: PathBuf,
    /// The Markdown.
    pub text: String,
}

/// Every upstream report the matrix's campaign findings call for, in column order.
pub fn reports(matrix: &Matrix) -> Vec<Upstream> {
    let Some(findings) = matrix.parts.get(1) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // Campaigns save an input again when the implementations compared change.
    let mut seen = std::collections::BTreeSet::new();
    for column in &matrix.implementations {
        let Some(driver) = driver(&column.name) else {
            continue;
        };
        for (category, basis) in CATEGORIES {
            let Some(misses) = findings.misses.get(&(column.name.clone(), category)) else {
                continue;
            };
            for miss in misses {
                // RFC 8259 §9 lets a parser limit nesting: a refusal at the library's limit
                // is not a bug (a crash is).
                if miss.outcome == Outcome::Rejected("depth_limit".to_string()) {
                    continue;
                }
                let key = (column.name.clone(), miss.replay.input.clone());
                if !seen.insert(key) {
                    continue;
                }
                let stem = Path::new(&miss.file)
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                out.push(Upstream {
                    implementation: column.name.clone(),
                    path: PathBuf::from(&column.name).join(format!("{stem}-{}.md", miss.tc_id)),
                    text: report(driver, &column.version, (category, basis), miss),
                });
            }
        }
    }
    out
}

/// What the vector expects, in full.
fn expected(miss: &Miss) -> String {
    let kind = miss
        .replay
        .error_kind
        .as_deref()
        .map_or(String::new(), |k| {
            format!(" (canonfuzz names it {})", markdown(k))
        });
    match (miss.replay.result, &miss.replay.output) {
        (Expectation::Invalid, _) => format!("a rejection{kind}"),
        (Expectation::Acceptable, _) => "either a rejection or the canonical text".to_string(),
        (Expectation::Valid, Some(out)) => code_block(&readable(out), ""),
        (Expectation::Valid, None) => "an acceptance".to_string(),
    }
}

/// What the library answered, in full.
fn actual(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Ok(out) => code_block(&readable(out), ""),
        other => markdown(&other.to_string()),
    }
}

fn report(driver: &Driver, version: &str, rule: (&str, &str), miss: &Miss) -> String {
    let (category, basis) = rule;
    let input = &miss.replay.input;
    let (language, fence) = driver.language_name();
    let mut out = String::new();
    let _ = write!(
        out,
        "# {}: {}, on {}\n\n\
         - Library: {} ({}), installed with `{}`\n\
         - Driven as: {}\n\
         - Rule: {}\n\
         - Vector: corpus/{} tcId {} of canonfuzz — {}\n\n\
         ## Input ({} bytes)\n\n{}\n\nHex: `{}`\n\n\
         ## Expected\n\n{}\n\n## Actual\n\n{}\n\n\
         ## Reproduction ({language})\n\n{}\n",
        markdown(driver.name),
        markdown(category),
        markdown(&miss.input),
        markdown(driver.name),
        markdown(version),
        driver.setup,
        markdown(driver.how),
        markdown(basis),
        markdown(&miss.file),
        miss.tc_id,
        markdown(&miss.comment),
        input.len(),
        code_block(&readable(input), ""),
        to_hex(input),
        expected(miss),
        actual(&miss.outcome),
        code_block(&driver.reproduction(input), fence),
    );
    out
}

/// Writes every report under `dir`, and an index of them; returns the index's path and the
/// count written.
pub fn write(matrix: &Matrix, dir: &Path) -> Result<(PathBuf, usize), String> {
    let reports = reports(matrix);
    let mut index = String::from(
        "# Upstream reports\n\nOne file per campaign finding a library does not pass, grouped by library.\n\n| library | reports |\n|---|---|\n",
    );
    let mut counts: Vec<(String, usize)> = Vec::new();
    for r in &reports {
        let full = dir.join(&r.path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        crate::vector::write_atomically(&full, r.text.as_bytes())?;
        match counts.last_mut() {
            Some((name, n)) if *name == r.implementation => *n += 1,
            _ => counts.push((r.implementation.clone(), 1)),
        }
    }
    for (name, n) in &counts {
        let _ = writeln!(index, "| [{}]({name}/) | {n} |", markdown(name));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join("README.md");
    crate::vector::write_atomically(&path, index.as_bytes())?;
    Ok((path, reports.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::Harness;
    use crate::families::jcs;
    use crate::impls::{worker, CoreImpl};

    fn code(text: &str, fence: &str) -> String {
        let open = format!("```{fence}\n");
        let start = text.find(&open).unwrap() + open.len();
        let end = start + text[start..].find("```").unwrap();
        text[start..end].to_string()
    }

    #[test]
    fn nothing_a_vector_or_a_library_says_leaves_its_place_in_a_report() {
        use crate::escape::tests::HOSTILE;
        use crate::vector::{Expectation, Head};
        let input = format!("[\"{}\"]\n```\n# forged", HOSTILE.replace('"', ""));
        let replay = crate::replay::Replay {
            input: input.clone().into_bytes(),
            result: Expectation::Valid,
            output: Some(format!("```\n{HOSTILE}").into_bytes()),
            error_kind: None,
        };
        let head = Head {
            tc_id: 1,
            comment: HOSTILE.into(),
            ..Head::default()
        };
        let miss = Miss::new(HOSTILE, &head, &replay, &Outcome::Crashed(HOSTILE.into()));
        let driver = &crate::families::jcs::drivers::DRIVERS[0];
        let text = report(driver, HOSTILE, (HOSTILE, HOSTILE), &miss);
        // The report's own headings, and no other: nothing opened a heading, and every code
        // block closed where it was meant to.
        let mut fence: Option<usize> = None;
        let mut headings = 0;
        for line in text.lines() {
            let ticks = line.chars().take_while(|&c| c == '`').count();
            match fence {
                Some(open) if ticks >= open && line.trim_end_matches('`').is_empty() => {
                    fence = None
                }
                Some(_) => {}
                None if ticks >= 3 => fence = Some(ticks),
                None => {
                    headings += usize::from(line.starts_with('#'));
                    // Outside code, no HTML opens: every `<` is escaped.
                    let bare = line
                        .match_indices('<')
                        .any(|(i, _)| !line[..i].ends_with('\\'));
                    assert!(!bare, "{line}");
                }
            }
        }
        assert_eq!((headings, fence), (5, None), "{text}");
    }

    #[test]
    fn every_finding_a_library_fails_gets_a_report_whose_program_shows_it() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let harness = Harness::with(
            jcs::FAMILY,
            vec![
                Box::new(CoreImpl),
                Box::new(worker::node(
                    "node-json-canonicalize",
                    "json-canonicalize",
                    "node-v8",
                )),
            ],
        );
        let matrix = crate::report::build(&harness, Vec::new(), &dir).unwrap();
        let reports = reports(&matrix);
        let misses: usize = matrix.parts[1]
            .misses
            .iter()
            .filter(|((name, _), _)| name == "node-json-canonicalize")
            .map(|(_, m)| m.len())
            .sum();
        assert!(
            !reports.is_empty() && reports.len() <= misses,
            "{} of {misses}",
            reports.len()
        );
        assert!(reports
            .iter()
            .all(|r| r.implementation == "node-json-canonicalize"));
        assert!(matrix.parts[1]
            .misses
            .keys()
            .all(|(name, _)| name != "core"));
        // The program, run as the report says, prints what the report calls the library's
        // answer, for an accepted and a mangled output alike.
        let oracles = crate::impls::oracles::dir().unwrap().join("node");
        let mut checked = 0;
        for r in reports
            .iter()
            .filter(|r| r.text.contains("## Actual\n\n```\n"))
            .take(3)
        {
            let program = oracles.join(".upstream-test.mjs");
            std::fs::write(&program, code(&r.text, "js")).unwrap();
            let out = std::process::Command::new("node")
                .arg(&program)
                .current_dir(&oracles)
                .output()
                .unwrap();
            let _ = std::fs::remove_file(&program);
            let printed = crate::escape::terminal_lines(&String::from_utf8_lossy(&out.stdout));
            let actual = code(&r.text[r.text.find("## Actual").unwrap()..], "");
            assert_eq!(printed.trim_end(), actual.trim_end(), "{}", r.text);
            checked += 1;
        }
        assert!(checked > 0, "no report states an accepted output");
    }
}
