//! The engine's `bugs` on the registered families.

use crate::families::{jcs, jws};
use canonfuzz_engine::bugs::*;
use canonfuzz_engine::outcome::Outcome;

fn seen(implementation: &str, input: &str, expected: Outcome, actual: Outcome) -> Observation {
    Observation {
        implementation: implementation.to_string(),
        input: input.as_bytes().to_vec(),
        expected,
        actual,
        category: "documents".to_string(),
        vector: None,
        cases: 1,
        new: true,
        first_met: None,
    }
}

fn ok(text: &str) -> Outcome {
    Outcome::Ok(text.as_bytes().to_vec())
}

fn rejected(kind: &str) -> Outcome {
    Outcome::Rejected(kind.to_string())
}

#[test]
fn one_behaviour_on_many_inputs_is_one_bug_and_two_are_two() {
    // RFC 8785 §3.2.2.3: ECMAScript writes 4e-9 and 1e-7; a library padding the
    // exponent writes 4e-09 and 1e-07, one bug however many inputs show it.
    let bugs = group(
        jcs::FAMILY,
        vec![
            seen("lib", "[4e-9]", ok("[4e-9]"), ok("[4e-09]")),
            seen(
                "lib",
                "{\"a\":1e-7}",
                ok("{\"a\":1e-7}"),
                ok("{\"a\":1e-07}"),
            ),
            seen(
                "lib",
                "[1e21]",
                ok("[1e+21]"),
                ok("[1000000000000000000000]"),
            ),
            seen("lib", "[1]", ok("[1]"), ok("[1]")),
        ],
    );
    assert_eq!(bugs.len(), 2, "{bugs:#?}");
    assert!(bugs.iter().all(|b| b.key.rule == "numbers"));
    let padded = bugs.iter().find(|b| b.cases == 2).unwrap();
    assert_eq!(padded.example.input, b"[4e-9]");
    assert_ne!(bugs[0].key.shape, bugs[1].key.shape);
}

#[test]
fn severity_orders_wrong_bytes_above_acceptance_above_refusal_at_a_limit() {
    let bugs = group(
        jcs::FAMILY,
        vec![
            seen("a", "[[1]]", ok("[[1]]"), rejected("depth_limit")),
            seen(
                "a",
                "{\"\":\"\\ud800\"}",
                rejected("lone_surrogate"),
                ok("{\"\":\"\\ud800\"}"),
            ),
            seen("a", "[4e-9]", ok("[4e-9]"), ok("[4e-09]")),
            seen(
                "a",
                "[1]",
                ok("[1]"),
                Outcome::Crashed("index 32 out of range for 31".into()),
            ),
        ],
    );
    let order: Vec<Severity> = bugs.iter().map(|b| b.key.severity).collect();
    assert_eq!(
        order,
        [
            Severity::Crash,
            Severity::WrongBytes,
            Severity::AcceptsInvalid,
            Severity::AtLimit
        ]
    );
    assert_eq!(bugs[0].key.shape, "crashes: index N out of range for N");
}

#[test]
fn duplicate_names_are_blamed_on_the_parser_that_merges_them_not_the_library() {
    let input = "{\"a\":1,\"a\":2}";
    let via_parse = seen(
        "node-canonicalize",
        input,
        rejected("duplicate_key"),
        ok("{\"a\":2}"),
    );
    let reads_text = seen(
        "json-syntax",
        input,
        rejected("duplicate_key"),
        ok("{\"a\":2}"),
    );
    assert_eq!(key(jcs::FAMILY, &via_parse).unwrap().blamed, "JSON.parse");
    assert_eq!(key(jcs::FAMILY, &reads_text).unwrap().blamed, "json-syntax");
    // What the library does with the value it is given stays the library's.
    let numbers = seen(
        "node-canonicalize",
        "[1e400]",
        rejected("number_out_of_range"),
        ok("[null]"),
    );
    assert_eq!(
        key(jcs::FAMILY, &numbers).unwrap().blamed,
        "node-canonicalize"
    );
    // Two libraries through one parser: one bug of the parser, both named.
    let other = seen(
        "node-json-canon",
        input,
        rejected("duplicate_key"),
        ok("{\"a\":2}"),
    );
    let bugs = group(jcs::FAMILY, vec![via_parse, other]);
    assert_eq!(bugs.len(), 1);
    assert_eq!(bugs[0].implementations.len(), 2);
}

#[test]
fn the_column_marks_the_first_character_that_differs_however_far_in() {
    for (want, got, marked) in [
        (
            "{\"aaaaaaaaaaaaaaaa\":4e-9}",
            "{\"aaaaaaaaaaaaaaaa\":4e-09}",
            ('9', '0'),
        ),
        ("[\"é\u{10000}x\"]", "[\"é\u{10000}y\"]", ('x', 'y')),
        ("[\"\u{e9}\"]", "[\"\u{e8}\"]", ('é', 'è')),
    ] {
        let (shown_want, shown_got, column) = parted(&ok(want), &ok(got));
        let at = |text: &str| text.chars().nth(column.unwrap());
        assert_eq!(
            (at(&shown_want), at(&shown_got)),
            (Some(marked.0), Some(marked.1))
        );
    }
    assert_eq!(parted(&ok("1"), &rejected("syntax")).2, None);
}

#[test]
fn an_answer_that_meets_the_expected_one_is_no_bug() {
    assert!(key(
        jcs::FAMILY,
        &seen("a", "x", rejected(""), rejected("syntax"))
    )
    .is_none());
    assert!(key(
        jcs::FAMILY,
        &seen("a", "x", rejected("syntax"), rejected("other"))
    )
    .is_none());
    assert!(key(jcs::FAMILY, &seen("a", "x", ok("1"), Outcome::Unsupported)).is_none());
    let other = key(
        jcs::FAMILY,
        &seen("a", "x", rejected("syntax"), rejected("depth_limit")),
    );
    assert_eq!(other.unwrap().severity, Severity::OtherProblem);
}

#[test]
fn a_family_without_its_own_words_files_a_difference_under_the_case_category() {
    let mut o = seen("jose", "x", rejected("base64"), ok("{}"));
    o.category = "base64url".to_string();
    let key = key(jws::FAMILY, &o).unwrap();
    assert_eq!(
        (key.rule.as_str(), key.shape.as_str(), key.blamed.as_str()),
        ("base64url", "accepts what is refused as base64", "jose")
    );
}

#[test]
fn one_departure_has_one_rule_and_shape_whichever_command_meets_it() {
    // A campaign files its cases under the generator's category ("rejections"), the corpus
    // under the vector's ("grammar"): the bug is named by what was answered, not by either.
    let campaign = |expected: Outcome, actual: Outcome| {
        let mut o = seen("lib", "\u{feff}[1]", expected, actual);
        o.category = "rejections".to_string();
        key(jcs::FAMILY, &o).unwrap()
    };
    let corpus = |expected: Outcome, actual: Outcome| {
        let mut o = seen("lib", "\u{feff}[1]", expected, actual);
        o.category = "grammar".to_string();
        key(jcs::FAMILY, &o).unwrap()
    };
    for (expected, actual) in [
        (rejected("invalid_utf8"), rejected("syntax")),
        (rejected("invalid_utf8"), ok("[1]")),
        (rejected("lone_surrogate"), ok("[1]")),
    ] {
        let (a, b) = (
            campaign(expected.clone(), actual.clone()),
            corpus(expected, actual),
        );
        assert_eq!(a, b);
        assert_ne!(a.rule, "rejections");
    }
    // A consensus of libraries that name no problem ("other") stands for the problem the
    // core names, as a vector stating it does.
    let named = named_rejection(rejected("other"), Some(&rejected("lone_surrogate")));
    assert_eq!(
        campaign(named, ok("[1]")),
        corpus(rejected("lone_surrogate"), ok("[1]"))
    );
    // Naming another problem is listed under the rule of the one expected, and is no bug.
    let renamed = campaign(rejected("invalid_utf8"), rejected("syntax"));
    assert_eq!(
        (renamed.rule.as_str(), renamed.severity.is_bug()),
        ("grammar", false)
    );
}
