//! The JCS family's importers: the RFC 8785 suite and Appendix B, the ES number files and
//! ekl's seed strings, each expected output the source's own. Where a source
//! gives a double as IEEE-754 bits, the input text is those bits written with 17 significant
//! digits by Rust's standard formatter (exact, so it parses back to the same bits), which
//! deliberately differs from the canonical text.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::importer::{Importer, Reads};
use crate::provenance::{note, read_text, source};
use crate::vector::{tests_of, Expectation, Note, OutputTest, Source, TestGroup, VectorFile};

/// RFC 8785 Appendix B: IEEE-754 bits and the serialization the RFC gives for them. The two
/// rows without a JSON representation (NaN, Infinity) are left out.
const APPENDIX_B: [(u64, &str); 24] = [
    (0x0000000000000000, "0"),
    (0x8000000000000000, "0"),
    (0x0000000000000001, "5e-324"),
    (0x8000000000000001, "-5e-324"),
    (0x7fefffffffffffff, "1.7976931348623157e+308"),
    (0xffefffffffffffff, "-1.7976931348623157e+308"),
    (0x4340000000000000, "9007199254740992"),
    (0xc340000000000000, "-9007199254740992"),
    (0x4430000000000000, "295147905179352830000"),
    (0x44b52d02c7e14af5, "9.999999999999997e+22"),
    (0x44b52d02c7e14af6, "1e+23"),
    (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
    (0x444b1ae4d6e2ef4e, "999999999999999700000"),
    (0x444b1ae4d6e2ef4f, "999999999999999900000"),
    (0x444b1ae4d6e2ef50, "1e+21"),
    (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
    (0x3eb0c6f7a0b5ed8d, "0.000001"),
    (0x41b3de4355555553, "333333333.3333332"),
    (0x41b3de4355555554, "333333333.33333325"),
    (0x41b3de4355555555, "333333333.3333333"),
    (0x41b3de4355555556, "333333333.3333334"),
    (0x41b3de4355555557, "333333333.33333343"),
    (0xbecbf647612f3696, "-0.0000033333333333333333"),
    (0x43143ff3c1cb0959, "1424953923781206.2"),
];

fn valid(
    tc_id: u64,
    comment: String,
    flags: &[&str],
    input: &[u8],
    expected: String,
) -> OutputTest {
    let mut test = OutputTest::with_input(tc_id, comment, input);
    test.flags = flags.iter().map(|f| f.to_string()).collect();
    test.expected = Some(expected);
    test.result = Expectation::Valid;
    test
}

/// The input text for a double given by its bits: 17 significant digits, which always parse
/// back to the same double.
fn double_input(bits: u64) -> Result<String, String> {
    let value = f64::from_bits(bits);
    let text = format!("{value:.16e}");
    match text.parse::<f64>() {
        Ok(back) if value.is_finite() && back.to_bits() == bits => Ok(text),
        _ => Err(format!("{bits:016x} has no finite JSON form ({text})")),
    }
}

fn number_file(
    header: &str,
    flag: (&str, Note),
    group_source: Source,
    rows: Vec<(u64, String)>,
) -> Result<VectorFile, String> {
    let mut tests = Vec::new();
    for (i, (bits, expected)) in rows.into_iter().enumerate() {
        let input = double_input(bits)?;
        tests.push(valid(
            i as u64 + 1,
            format!("IEEE-754 {bits:016x}"),
            &[flag.0],
            input.as_bytes(),
            expected,
        ));
    }
    Ok(file(
        vec![header.to_string()],
        BTreeMap::from([(flag.0.to_string(), flag.1)]),
        vec![group(group_source, String::new(), tests)?],
    ))
}

fn group(source: Source, comment: String, tests: Vec<OutputTest>) -> Result<TestGroup, String> {
    Ok(TestGroup {
        kind: "JcsCanonicalize".to_string(),
        source,
        comment,
        tests: tests_of(&tests)?,
    })
}

fn file(header: Vec<String>, notes: BTreeMap<String, Note>, groups: Vec<TestGroup>) -> VectorFile {
    VectorFile {
        algorithm: "JCS".to_string(),
        schema: crate::families::jcs::SCHEMA.to_string(),
        number_of_tests: groups.iter().map(|g| g.tests.len()).sum(),
        header,
        notes,
        test_groups: groups,
    }
}

pub fn rfc8785_suite(dir: &Path) -> Result<VectorFile, String> {
    let names = crate::input::listed(&dir.join("input"))?;
    let mut tests = Vec::new();
    for (i, input_path) in names.iter().enumerate() {
        let name = input_path.file_name().unwrap_or_default().to_string_lossy();
        let input = crate::input::read_file(input_path).map_err(|e| e.to_string())?;
        let expected = read_text(&dir.join("output").join(name.as_ref()))?;
        let stem = name.trim_end_matches(".json");
        let outhex = read_text(&dir.join("outhex").join(format!("{stem}.txt")))?;
        let hex: String = outhex.split_whitespace().collect();
        if hex.to_lowercase() != crate::vector::to_hex(expected.as_bytes()) {
            return Err(format!(
                "{name}: output/ and outhex/ disagree; the suite is damaged"
            ));
        }
        tests.push(valid(
            i as u64 + 1,
            format!("reference suite document {name}"),
            &["Rfc8785Suite"],
            &input,
            expected,
        ));
    }
    Ok(file(
        vec!["The RFC 8785 reference test suite: each input document and its canonical form (checked against the suite's hex copy).".to_string()],
        BTreeMap::from([(
            "Rfc8785Suite".to_string(),
            note("BASIC", "A document of the RFC 8785 reference suite: numbers, escapes, member order by UTF-16 code units, nesting."),
        )]),
        vec![group(
            source("cyberphone/json-canonicalization testdata", "https://github.com/cyberphone/json-canonicalization/tree/master/testdata", "19d51d7", "Apache-2.0"),
            String::new(),
            tests,
        )?],
    ))
}

pub fn es6_numbers(path: &Path) -> Result<VectorFile, String> {
    let mut rows = Vec::new();
    for (n, line) in read_text(path)?.lines().enumerate() {
        let (hex, expected) = line
            .split_once(',')
            .ok_or_else(|| format!("{}:{}: expected `bits,text`", path.display(), n + 1))?;
        let bits = u64::from_str_radix(hex, 16)
            .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        rows.push((bits, expected.to_string()));
    }
    number_file(
        "The first 10,000 lines of the ES6 number test file: random doubles and their ECMAScript Number.prototype.toString form.",
        ("EsNumber", note("BASIC", "Number serialization as ECMAScript writes it: shortest round-trip digits, layout by exponent.")),
        source("cyberphone/json-canonicalization es6testfile100m.txt (first 10^4 lines, regenerated with numgen.js)", "https://github.com/cyberphone/json-canonicalization/tree/master/testdata", "19d51d7", "Apache-2.0"),
        rows,
    )
}

pub fn appendix_b() -> Result<VectorFile, String> {
    number_file(
        "RFC 8785 Appendix B number serialization samples; NaN and Infinity have no JSON form and are left out.",
        ("AppendixB", note("EDGE_CASE", "A number the RFC itself gives: extremes, the 1e21 and 1e-7 layout boundaries, digit ties.")),
        source("RFC 8785 Appendix B", "https://www.rfc-editor.org/rfc/rfc8785#appendix-B", "June 2020", "IETF Trust"),
        APPENDIX_B.iter().map(|&(b, e)| (b, e.to_string())).collect(),
    )
}

pub fn es_number_ties(path: &Path) -> Result<VectorFile, String> {
    let mut tests = Vec::new();
    for (n, line) in read_text(path)?.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [input, expected, branch] = fields[..] else {
            return Err(format!(
                "{}:{}: expected three tab-separated fields",
                path.display(),
                n + 1
            ));
        };
        let flag = match branch {
            "decimal-point" => "TieDecimalPoint",
            "leading-zeros" => "TieLeadingZeros",
            "exponent" => "TieExponent",
            other => {
                return Err(format!(
                    "{}:{}: unknown layout branch {other:?}",
                    path.display(),
                    n + 1
                ))
            }
        };
        let id = tests.len() as u64 + 1;
        tests.push(valid(
            id,
            format!("digit tie, {branch} layout"),
            &["DigitTie", flag],
            input.as_bytes(),
            expected.to_string(),
        ));
    }
    Ok(file(
        vec!["Doubles whose shortest form sits on a round-to-even digit tie (ECMA-262 Number::toString step 5); expected outputs are String(Number(x)) from Node.".to_string()],
        BTreeMap::from([
            ("DigitTie".to_string(), note("EDGE_CASE", "Two shortest digit strings are equally close; ECMAScript takes the even one.")),
            ("TieDecimalPoint".to_string(), note("EDGE_CASE", "Written with a decimal point inside the digits.")),
            ("TieLeadingZeros".to_string(), note("EDGE_CASE", "Written as 0.000ddd.")),
            ("TieExponent".to_string(), note("EDGE_CASE", "Written in exponent notation.")),
        ]),
        vec![group(
            source("crate jcs-admit es-number-ties.tsv", "https://crates.io/crates/jcs-admit", "0.1.3", "MIT OR Apache-2.0"),
            String::new(),
            tests,
        )?],
    ))
}

#[derive(Deserialize)]
struct EklSeed<'a> {
    #[serde(borrow)]
    cases: Vec<EklCase<'a>>,
}

#[derive(Deserialize)]
struct EklCase<'a> {
    name: String,
    #[serde(borrow)]
    value: &'a RawValue,
    jcs: String,
}

pub fn ekl_seed(path: &Path) -> Result<VectorFile, String> {
    let text = read_text(path)?;
    let seed: EklSeed = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: line {}, column {}: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    let tests = seed
        .cases
        .iter()
        .enumerate()
        .map(|(i, case)| {
            valid(
                i as u64 + 1,
                format!("seed case {:?}", case.name),
                &["EklSeed"],
                case.value.get().as_bytes(),
                case.jcs.clone(),
            )
        })
        .collect();
    Ok(file(
        vec!["The JCS strings of ekl's fingerprint cases (seed 000): each case's value exactly as the seed writes it, and the canonical text the seed gives. The seed as received broke a U+2028 into a raw line feed; this is read from the repaired copy.".to_string()],
        BTreeMap::from([(
            "EklSeed".to_string(),
            note("BASIC", "A value whose canonical form a real protocol document fixes."),
        )]),
        vec![group(
            Source { name: "ekl seed 000_6a8eaec34509c942 (fixed copy)".to_string(), url: None, version: None, license: None },
            String::new(),
            tests,
        )?],
    ))
}

/// The published sources this family imports: the RFC 8785 suite and Appendix B, the ES
/// number files, and ekl's seed as JCS cases.
pub const IMPORTERS: &[Importer] = &[
    Importer {
        name: "rfc8785-suite",
        about: "The RFC 8785 reference suite: a directory with `input/`, `output/` and `outhex/`",
        target: "jcs/rfc8785-suite.json",
        reads: Reads::Path(rfc8785_suite),
    },
    Importer {
        name: "rfc8785-appendix-b",
        about: "RFC 8785 Appendix B, the number serialization samples (needs no path)",
        target: "jcs/rfc8785-appendix-b.json",
        reads: Reads::BuiltIn(appendix_b),
    },
    Importer {
        name: "es6-numbers",
        about: "The ES6 number file: lines of `<IEEE-754 bits in hex>,<Number.prototype.toString>`",
        target: "jcs/es6-numbers.json",
        reads: Reads::Path(es6_numbers),
    },
    Importer {
        name: "es-number-ties",
        about: "Round-to-even digit ties: a TSV of input, expected output, layout branch",
        target: "jcs/es-number-ties.json",
        reads: Reads::Path(es_number_ties),
    },
    Importer {
        name: "ekl-seed-strings",
        about: "The ekl seed (fixed JSON): each case's value and its JCS string",
        target: "jcs/ekl-seed-000.json",
        reads: Reads::Path(ekl_seed),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_inputs_round_trip_and_differ_from_canonical_text() {
        assert_eq!(
            double_input(0x3ff0000000000000).unwrap(),
            "1.0000000000000000e0"
        );
        assert_eq!(
            double_input(0x8000000000000000).unwrap(),
            "-0.0000000000000000e0"
        );
        assert!(double_input(0x7ff0000000000000).is_err());
    }
}
