//! Upstream-ready reports: one per bug an implementation has itself — a registered
//! third-party library, or one given on the command line — grouped by the behaviour they
//! show, each a Markdown file its maintainers can act on without canonfuzz: the implementation
//! and version, the rule and clause, the smallest input on which that implementation still
//! shows the bug, the expected output against the actual from where they part, a program that
//! reproduces it (in the library's own language, or through the adapter's command), and every
//! other vector of the bug. What the host parser a library is driven through did is not sent
//! to the library: the index names it apart.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;

use crate::bugs::{self, Bug, Observation, Severity};
use crate::campaign::Harness;
use crate::escape::{code_block, markdown, slug};
use crate::families::jcs::drivers::{driver, Driver};
use crate::families::jcs::FAMILY;
use crate::matrix::Matrix;
use crate::outcome::Outcome;
use crate::replay::CATEGORIES;
use crate::vector::to_hex;

/// Who a report goes to, and how it reproduces a finding.
#[derive(Debug, Clone)]
pub enum Recipient {
    /// A registered library, driven as its driver says.
    Registered(&'static Driver),
    /// An implementation given as a command that speaks the worker protocol.
    Own {
        /// Its name.
        name: String,
        /// The command, run by `sh -c`.
        command: String,
    },
}

impl Recipient {
    /// The recipient named `name` among `harness`'s implementations: a registered library,
    /// or one given as a command; `None` for the core and for a host parser.
    pub fn of(harness: &Harness, name: &str) -> Option<Recipient> {
        if let Some(d) = driver(name) {
            return Some(Recipient::Registered(d));
        }
        let command = harness
            .implementations()
            .iter()
            .find(|i| i.name() == name)?
            .command()?;
        Some(Recipient::Own {
            name: name.to_string(),
            command,
        })
    }

    /// The implementation's name.
    pub fn name(&self) -> &str {
        match self {
            Recipient::Registered(d) => d.name,
            Recipient::Own { name, .. } => name,
        }
    }

    /// Whether it was given on the command line: its reports lead the index.
    fn own(&self) -> bool {
        matches!(self, Recipient::Own { .. })
    }

    /// The report's lines saying how it is installed and driven.
    fn provenance(&self) -> String {
        match self {
            Recipient::Registered(d) => format!(
                "installed with `{}`\n- Driven as: {}",
                d.setup,
                markdown(d.how)
            ),
            Recipient::Own { command, .. } => format!(
                "given to canonfuzz with `--with`\n- Driven as: the command {}, over canonfuzz's worker protocol (version 1)",
                markdown(command)
            ),
        }
    }

    /// The reproduction's language and code fence tag.
    fn language(&self) -> (&'static str, &'static str) {
        match self {
            Recipient::Registered(d) => d.language_name(),
            Recipient::Own { .. } => ("through the adapter, in a POSIX shell", "sh"),
        }
    }

    /// A program that feeds the implementation `input` exactly as canonfuzz does and prints
    /// what it answers.
    fn reproduction(&self, input: &[u8]) -> String {
        match self {
            Recipient::Registered(d) => d.reproduction(input),
            Recipient::Own { command, .. } if input.len() > crate::runs::LONG => format!(
                "# The worker protocol's greeting, then the input in base64; the second line\n# printed is the answer.\ninput=$({} | base64 | tr -d '\\n')\nprintf '%s\\n' '{{\"canonfuzz\":1}}' \"{{\\\"input\\\":\\\"$input\\\"}}\" |\n  {command}\n",
                crate::runs::shell(input)
            ),
            Recipient::Own { command, .. } => format!(
                "# The worker protocol's greeting, then the input in base64; the second line\n# printed is the answer.\nprintf '%s\\n' '{{\"canonfuzz\":1}}' '{{\"input\":\"{}\"}}' |\n  {command}\n",
                STANDARD.encode(input)
            ),
        }
    }
}

/// One report: the library it goes to, the file it is written to, and its text.
#[derive(Debug, Clone)]
pub struct Upstream {
    /// The implementation's name.
    pub implementation: String,
    /// The bug it reports.
    pub bug: Bug,
    /// The file, relative to the output directory.
    pub path: PathBuf,
    /// The Markdown.
    pub text: String,
}

/// What the index says of the bugs no library is sent a report for.
#[derive(Debug, Clone, Default)]
pub struct Unsent {
    /// Bugs of the host parser a library is driven through.
    pub parsers: Vec<Bug>,
    /// Refusals at a stated limit, and refusals naming another problem: no rule is broken.
    pub allowed: Vec<Bug>,
}

/// Every campaign finding a registered library or one given as a command misses, as
/// observations of its bugs settled by experiment; a vector that accepts a rejection of any
/// kind stands for the problem the core names in it.
fn observations(matrix: &Matrix, harness: &Harness) -> Vec<Observation> {
    let mut out = missed(matrix, harness);
    let core = harness
        .implementations()
        .iter()
        .position(|i| i.name() == crate::compare::CORE);
    let open: Vec<usize> = (0..out.len())
        .filter(|&i| out[i].expected == Outcome::Rejected(String::new()))
        .collect();
    let inputs: Vec<&[u8]> = open.iter().map(|&i| out[i].input.as_slice()).collect();
    let answers = harness.outcomes_of(&inputs, |k| Some(k) == core);
    for (i, answers) in open.into_iter().zip(answers) {
        let named =
            bugs::named_rejection(out[i].expected.clone(), core.and_then(|k| answers.get(k)));
        out[i].expected = named;
    }
    crate::settle::settle_with(harness, out)
}

/// Every campaign finding a registered library or one given as a command misses, each as
/// the vector expects it.
fn missed(matrix: &Matrix, harness: &Harness) -> Vec<Observation> {
    let Some(findings) = matrix.parts.get(1) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for column in &matrix.implementations {
        if Recipient::of(harness, &column.name).is_none() {
            continue;
        }
        for (category, _) in CATEGORIES {
            for miss in findings
                .misses
                .get(&(column.name.clone(), category))
                .into_iter()
                .flatten()
            {
                out.push(miss.observation(&column.name));
            }
        }
    }
    out
}

/// Every upstream report the matrix's campaign findings call for, most severe first, with
/// the bugs no library is sent; each example minimized for its library with `harness`.
pub fn reports(matrix: &Matrix, harness: &Harness) -> (Vec<Upstream>, Unsent) {
    reports_of(bugs::group(FAMILY, observations(matrix, harness)), harness)
}

/// The reports `bugs` call for, those of implementations given as commands first and then most
/// severe first, with the bugs no implementation is sent; each example minimized for its
/// implementation with `harness`.
pub fn reports_of(found: Vec<Bug>, harness: &Harness) -> (Vec<Upstream>, Unsent) {
    let mut unsent = Unsent::default();
    let mut sent = Vec::new();
    for mut bug in found {
        let Some(recipient) = Recipient::of(harness, &bug.key.blamed) else {
            unsent.parsers.push(bug);
            continue;
        };
        if matches!(bug.key.severity, Severity::AtLimit | Severity::OtherProblem) {
            unsent.allowed.push(bug);
            continue;
        }
        bug.shown_by(bugs::smallest(harness, &bug));
        sent.push((recipient, bug));
    }
    let (recipients, found): (Vec<Recipient>, Vec<Bug>) = sent.into_iter().unzip();
    let mut sent: Vec<(Recipient, Bug)> = bugs::one_per_cause(found)
        .into_iter()
        .filter_map(|bug| {
            let recipient = recipients
                .iter()
                .find(|r| r.name() == bug.key.blamed)?
                .clone();
            Some((recipient, bug))
        })
        .collect();
    sent.sort_by_key(|(recipient, _)| !recipient.own());
    let out = sent
        .into_iter()
        .enumerate()
        .map(|(k, (recipient, bug))| {
            let version = harness
                .implementations()
                .iter()
                .find(|i| i.name() == recipient.name())
                .map_or(String::new(), |i| i.version());
            let path = PathBuf::from(slug(recipient.name())).join(format!(
                "{:02}-{}-{}.md",
                k + 1,
                slug(&bug.key.rule),
                slug(&bug.key.shape)
            ));
            Upstream {
                implementation: recipient.name().to_string(),
                text: report(&recipient, &version, &bug),
                path,
                bug,
            }
        })
        .collect();
    (out, unsent)
}

/// The clause behind a rule, as the corpus's categories state it.
fn clause(rule: &str) -> &'static str {
    CATEGORIES
        .iter()
        .find(|(name, _)| *name == rule)
        .map_or("RFC 8785", |(_, basis)| basis)
}

/// An answer, in full.
fn answer(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Ok(out) => code_block(&crate::runs::shown(out), ""),
        Outcome::Rejected(kind) if kind.is_empty() => "a rejection".to_string(),
        Outcome::Rejected(kind) => format!("a rejection (canonfuzz names it {})", markdown(kind)),
        other => markdown(&other.to_string()),
    }
}

/// Where two outputs first part, marked under them, when both are outputs.
fn parting(expected: &Outcome, actual: &Outcome) -> String {
    let (want, got, Some(column)) = bugs::parted(expected, actual) else {
        return String::new();
    };
    format!(
        "They first differ at the marked character:\n\n{}\n",
        code_block(
            &format!(
                "expected: {want}\nactual:   {got}\n          {}^",
                " ".repeat(column)
            ),
            ""
        )
    )
}

fn report(recipient: &Recipient, version: &str, bug: &Bug) -> String {
    let example = &bug.example;
    let input = &example.input;
    let (language, fence) = recipient.language();
    let mut out = String::new();
    let _ = write!(
        out,
        "# {}: {}\n\n\
         - Implementation: {} ({}), {}\n\
         - Rule: {} — {}\n\
         - Severity: {}\n\
         - Seen in {} canonfuzz vectors\n\n\
         ## Input ({} bytes, the smallest on which this implementation still shows it)\n\n{}\n\n{}\n\n\
         ## Expected\n\n{}\n\n## Actual\n\n{}\n\n{}\
         ## Reproduction ({language})\n\n{}\n",
        markdown(recipient.name()),
        markdown(&bug.key.shape),
        markdown(recipient.name()),
        markdown(version),
        recipient.provenance(),
        markdown(&bug.key.rule),
        markdown(clause(&bug.key.rule)),
        markdown(bug.key.severity.words()),
        bug.vectors.len(),
        input.len(),
        code_block(&crate::runs::shown(input), ""),
        if input.len() > crate::runs::LONG {
            "Each run of one byte repeated is written ⟨count × byte⟩; the reproduction below builds it in full.".to_string()
        } else {
            format!("Hex: `{}`", to_hex(input))
        },
        answer(&example.expected),
        answer(&example.actual),
        parting(&example.expected, &example.actual),
        code_block(&recipient.reproduction(input), fence),
    );
    if let Some(exponents) = bug.exponents {
        let _ = write!(
            out,
            "\n## Where it starts\n\nThe number in the input shows it for {}; bisecting its exponent found where (the input above is the shortest literal that shows it).\n",
            exponents.words()
        );
    }
    if !bug.also.is_empty() {
        let _ = write!(
            out,
            "\n## The same cause, seen otherwise\n\nWith other values of that number's parameters, the same misreading also shows as:\n\n"
        );
        for key in &bug.also {
            let _ = writeln!(
                out,
                "- {}: {} ({})",
                markdown(&key.rule),
                markdown(&key.shape),
                markdown(key.severity.words())
            );
        }
    }
    let _ = write!(out, "\n## Vectors of this bug\n\n");
    for v in &bug.vectors {
        let _ = writeln!(out, "- corpus/{}", markdown(v));
    }
    out
}

/// Writes every report the matrix's campaign findings call for under `dir`, and an index of
/// them; returns the index's path and the count written.
pub fn write(matrix: &Matrix, harness: &Harness, dir: &Path) -> Result<(PathBuf, usize), String> {
    let (reports, unsent) = reports(matrix, harness);
    write_reports(&reports, &unsent, dir)
}

/// Writes `reports` under `dir`, and an index of them (implementations given as commands
/// first, then most severe first) and of the bugs `unsent`; returns the index's path and the
/// count written.
pub fn write_reports(
    reports: &[Upstream],
    unsent: &Unsent,
    dir: &Path,
) -> Result<(PathBuf, usize), String> {
    let mut index = String::from(
        "# Upstream reports\n\nOne file per bug an implementation has itself, those of implementations given with `--with` first, then most severe first: each shows the smallest input on which that implementation still shows the bug.\n\n| severity | implementation | rule | bug | vectors |\n|---|---|---|---|---|\n",
    );
    for r in reports {
        let full = dir.join(&r.path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        crate::vector::write_atomically(&full, r.text.as_bytes())?;
        let _ = writeln!(
            index,
            "| {} | {} | {} | [{}]({}) | {} |",
            r.bug.key.severity.words(),
            markdown(&r.implementation),
            markdown(&r.bug.key.rule),
            markdown(&r.bug.key.shape),
            r.path.display(),
            r.bug.vectors.len()
        );
    }
    let listed = |title: &str, why: &str, bugs: &[Bug], index: &mut String| {
        if bugs.is_empty() {
            return;
        }
        let _ = write!(index, "\n## {title}\n\n{why}\n\n| who | through | rule | behaviour | vectors |\n|---|---|---|---|---|\n");
        for b in bugs {
            let through: Vec<&str> = b.implementations.iter().map(String::as_str).collect();
            let _ = writeln!(
                index,
                "| {} | {} | {} | {} | {} |",
                markdown(&b.key.blamed),
                markdown(&through.join(", ")),
                markdown(&b.key.rule),
                markdown(&b.key.shape),
                b.vectors.len()
            );
        }
    };
    listed(
        "Not sent: the host parser's",
        "The library is given the value its host parser made of the text, and cannot see what the parser dropped or let through.",
        &unsent.parsers,
        &mut index,
    );
    listed(
        "Not sent: allowed",
        "Refusals at a nesting limit (RFC 8259 §9 lets a parser set one) and refusals naming another problem break no rule.",
        &unsent.allowed,
        &mut index,
    );
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join("README.md");
    crate::vector::write_atomically(&path, index.as_bytes())?;
    Ok((path, reports.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bugs::BugKey;
    use crate::campaign::Harness;
    use crate::families::jcs;
    use crate::impls::worker;
    use crate::workers;
    use canonfuzz_props::jcs::impls::CoreImpl;

    fn code(text: &str, fence: &str) -> String {
        let open = format!("```{fence}\n");
        let start = text.find(&open).unwrap() + open.len();
        let end = start + text[start..].find("```").unwrap();
        text[start..end].to_string()
    }

    #[test]
    fn nothing_a_vector_or_a_library_says_leaves_its_place_in_a_report() {
        use crate::escape::hostile::HOSTILE;
        let input = format!("[\"{}\"]\n```\n# forged", HOSTILE.replace('"', ""));
        let example = Observation {
            implementation: HOSTILE.into(),
            input: input.into_bytes(),
            expected: Outcome::Ok(format!("```\n{HOSTILE}").into_bytes()),
            actual: Outcome::Ok(format!("```\n{HOSTILE}!").into_bytes()),
            category: HOSTILE.into(),
            vector: Some(HOSTILE.into()),
            cases: 1,
            new: false,
            first_met: None,
        };
        let bug = Bug {
            key: BugKey {
                severity: Severity::WrongBytes,
                blamed: HOSTILE.into(),
                rule: HOSTILE.into(),
                shape: HOSTILE.into(),
            },
            implementations: [HOSTILE.to_string()].into(),
            cases: 1,
            vectors: [HOSTILE.to_string()].into(),
            example,
            new: false,
            first_met: None,
            exponents: None,
            also: Vec::new(),
        };
        let driver = Recipient::Registered(&crate::families::jcs::drivers::DRIVERS[0]);
        let own = Recipient::Own {
            name: HOSTILE.into(),
            command: format!("python3 x.py # {HOSTILE}\n```\n# forged"),
        };
        for recipient in [driver, own] {
            let text = report(&recipient, HOSTILE, &bug);
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
            assert_eq!((headings, fence), (6, None), "{text}");
        }
    }

    fn harness() -> Harness {
        Harness::with(
            jcs::FAMILY,
            vec![
                Box::new(CoreImpl),
                Box::new(workers::node(
                    "jcs",
                    "node-json-canonicalize",
                    "json-canonicalize",
                    "node-v8",
                )),
                Box::new(workers::python(
                    "jcs",
                    "python-jsoncanon",
                    "jsoncanon",
                    "cpython",
                )),
            ],
        )
    }

    #[test]
    fn one_report_per_bug_none_for_a_host_parser_each_minimal_for_its_library() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let harness = harness();
        let matrix = crate::matrix::build(&harness, Vec::new(), &dir).unwrap();
        let (reports, unsent) = reports(&matrix, &harness);
        let misses: usize = matrix.parts[1].misses.values().map(Vec::len).sum();
        // Far fewer reports than misses, one per (library, behaviour).
        let mut keys: Vec<(String, String, String)> = reports
            .iter()
            .map(|r| {
                (
                    r.implementation.clone(),
                    r.bug.key.rule.clone(),
                    r.bug.key.shape.clone(),
                )
            })
            .collect();
        keys.dedup();
        assert_eq!(keys.len(), reports.len());
        assert!(
            reports.len() * 4 < misses,
            "{} reports of {misses} misses",
            reports.len()
        );
        // Duplicate names never reach a library driven through JSON.parse or json.loads.
        assert!(reports.iter().all(|r| r.bug.key.blamed == r.implementation));
        assert!(!reports
            .iter()
            .any(|r| r.bug.key.shape.contains("duplicate")));
        // Nor does an example whose names repeat: what the library does there is hidden
        // behind what its parser kept.
        for r in &reports {
            assert_eq!(
                jcs::reading::host_reading(&r.implementation, &r.bug.example.input),
                None,
                "{}",
                r.text
            );
        }
        let parsers: Vec<&str> = unsent
            .parsers
            .iter()
            .map(|b| b.key.blamed.as_str())
            .collect();
        assert!(
            parsers.contains(&"JSON.parse") && parsers.contains(&"json.loads"),
            "{parsers:?}"
        );
        // Each example is minimal for its library: the exponent padding shows on one number.
        let padded = reports
            .iter()
            .find(|r| r.bug.key.shape == "pads the exponent with zeros")
            .expect("python-jsoncanon pads exponents");
        assert!(
            padded.bug.example.input.len() <= 6,
            "{:?}",
            String::from_utf8_lossy(&padded.bug.example.input)
        );
        // Minimized for its library, an example is never longer than the smallest input of its
        // vectors, and for some bugs shorter: the vectors were minimized for every
        // implementation at once.
        let grouped = bugs::group(FAMILY, observations(&matrix, &harness));
        let mut shorter = 0;
        for r in &reports {
            let vectors = grouped.iter().find(|b| b.key == r.bug.key).unwrap();
            assert!(r.bug.example.input.len() <= vectors.example.input.len());
            shorter += usize::from(r.bug.example.input.len() < vectors.example.input.len());
        }
        assert!(shorter > 0, "no example was shortened for its library");
        for r in &reports {
            assert!(!r.bug.vectors.is_empty());
            // Asked again, the library still shows the same bug on the example.
            let seen = harness
                .outcomes_of(&[&r.bug.example.input], |_| true)
                .pop()
                .unwrap();
            let names: Vec<&str> = harness.implementations().iter().map(|i| i.name()).collect();
            let at = names.iter().position(|n| *n == r.implementation).unwrap();
            let again = Observation {
                expected: seen[0].clone(),
                actual: seen[at].clone(),
                ..r.bug.example.clone()
            };
            assert_eq!(
                bugs::key(FAMILY, &again).as_ref(),
                Some(&r.bug.key),
                "{}",
                r.text
            );
        }
    }

    #[test]
    fn an_implementation_given_as_a_command_gets_its_reports_first_reproduced_by_its_command() {
        let adapter = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/python_json_sorted.py");
        let command = format!("python3 {}", adapter.display());
        let harness = Harness::with(
            jcs::FAMILY,
            vec![
                Box::new(CoreImpl),
                Box::new(workers::node(
                    "jcs",
                    "node-json-canonicalize",
                    "json-canonicalize",
                    "node-v8",
                )),
                Box::new(worker::external("jcs", "mine", "mine", &command)),
            ],
        );
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let matrix = crate::matrix::build(&harness, Vec::new(), &dir).unwrap();
        let (reports, _) = reports(&matrix, &harness);
        let mine = reports
            .iter()
            .take_while(|r| r.implementation == "mine")
            .count();
        assert!(mine > 0, "no report for the command");
        assert!(reports[mine..].iter().all(|r| r.implementation != "mine"));
        assert!(
            reports.len() > mine,
            "the registered library's reports are gone"
        );
        // Python's json module writes 1e+20 where ECMAScript writes the integer in full
        // (RFC 8785 §3.2.2.3): the report says so, and its program shows it.
        let exponent = reports
            .iter()
            .find(|r| r.bug.key.shape == "writes an exponent where ECMAScript writes none")
            .expect("the sorted-json adapter writes exponents");
        assert_eq!(exponent.path.parent(), Some(Path::new("mine")));
        let program = code(&exponent.text, "sh");
        assert!(program.contains(&command), "{program}");
        let out = std::process::Command::new("sh")
            .args(["-c", &program])
            .output()
            .unwrap();
        let answers = String::from_utf8(out.stdout).unwrap();
        let actual = code(
            &exponent.text[exponent.text.find("## Actual").unwrap()..],
            "",
        );
        let answer: serde_json::Value =
            serde_json::from_str(answers.lines().nth(1).unwrap()).unwrap();
        assert_eq!(answer["ok"].as_str(), Some(actual.trim_end()), "{answers}");
    }

    #[test]
    fn one_cause_is_one_report_stating_where_it_starts() {
        // jcs-admit reads numbers with Rust's str::parse::<f64>, which stops adding exponent
        // digits once it passes 65,536: exponents of 655,360 and up are misread. What that
        // makes of the answer (another value, or a refusal) depends on the rest of the
        // literal; the corpus holds both, and they are one bug.
        let harness = Harness::with(
            jcs::FAMILY,
            vec![
                Box::new(CoreImpl),
                Box::new(canonfuzz_props::jcs::impls::JcsAdmitImpl),
            ],
        );
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let matrix = crate::matrix::build(&harness, Vec::new(), &dir).unwrap();
        let grouped = bugs::group(FAMILY, observations(&matrix, &harness));
        let misreadings = grouped
            .iter()
            .filter(|b| b.key.rule == "numbers" && b.key.severity.is_bug())
            .count();
        assert!(misreadings > 1, "{grouped:#?}");
        let (reports, _) = reports(&matrix, &harness);
        let numbers: Vec<&Upstream> = reports
            .iter()
            .filter(|r| r.bug.key.rule == "numbers")
            .collect();
        assert_eq!(
            numbers.len(),
            1,
            "{:#?}",
            reports.iter().map(|r| &r.bug.key).collect::<Vec<_>>()
        );
        let report = numbers[0];
        assert_eq!(report.bug.exponents.map(|e| e.from.abs()), Some(655_360));
        assert!(!report.bug.also.is_empty());
        assert!(report.text.contains("655,360"), "{}", report.text);
        // The example is one number, as short as a literal with that exponent and a value the
        // doubles hold can be: its run of zeros no longer than the exponent less 308.
        let input = String::from_utf8(report.bug.example.input.clone()).unwrap();
        assert!(input.len() < 655_360 + 16, "{}", input.len());
        assert!(
            input.len() < 8_192 || report.text.len() < 8_192,
            "{}",
            report.text.len()
        );
    }

    #[test]
    fn what_is_blamed_on_a_host_parser_that_parser_lets_through_alone() {
        // Fed the parser alone, with no library after it, the inputs whose acceptance is blamed
        // on it are accepted: the leniency is the parser's. (A library cannot be fed a value
        // with two equal names directly: neither language can build one.)
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let harness = harness();
        let matrix = crate::matrix::build(&harness, Vec::new(), &dir).unwrap();
        let (_, unsent) = reports(&matrix, &harness);
        let mut checked = 0;
        for bug in unsent
            .parsers
            .iter()
            .filter(|b| b.key.severity == Severity::AcceptsInvalid)
        {
            let (program, args): (&str, &[&str]) = match bug.key.blamed.as_str() {
                "JSON.parse" => (
                    "node",
                    &[
                        "-e",
                        "JSON.parse(Buffer.from(process.argv[1], 'hex').toString('utf8'))",
                    ],
                ),
                "json.loads" => (
                    "python3",
                    &[
                        "-c",
                        "import json,sys; json.loads(bytes.fromhex(sys.argv[1]).decode())",
                    ],
                ),
                other => panic!("no way to run {other} alone"),
            };
            let status = std::process::Command::new(program)
                .args(args)
                .arg(to_hex(&bug.example.input))
                .status()
                .unwrap();
            assert!(
                status.success(),
                "{} refused {:?} alone",
                bug.key.blamed,
                String::from_utf8_lossy(&bug.example.input)
            );
            // And the parser refuses what the rules refuse for another reason: the check can fail.
            let status = std::process::Command::new(program)
                .args(args)
                .arg(to_hex(b"{\"a\":1,"))
                .stderr(std::process::Stdio::null())
                .status()
                .unwrap();
            assert!(!status.success());
            checked += 1;
        }
        assert_eq!(checked, 2, "{unsent:#?}");
    }

    #[test]
    fn every_reported_bug_has_a_program_that_shows_it() {
        let harness = harness();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let matrix = crate::matrix::build(&harness, Vec::new(), &dir).unwrap();
        let (reports, _) = reports(&matrix, &harness);
        let reports: Vec<Upstream> = reports
            .into_iter()
            .filter(|r| r.implementation == "node-json-canonicalize")
            .collect();
        assert!(!reports.is_empty());
        // The program, run as the report says, prints what the report calls the library's
        // answer, for an accepted and a mangled output alike.
        crate::workers::carry();
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
