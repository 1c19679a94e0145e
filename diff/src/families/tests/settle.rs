//! The engine's `settle` on the JCS family: a difference is labelled by what the library does
//! with what its host parser hands it.

use crate::bugs::{key, Observation};
use crate::families::jcs;
use crate::outcome::Outcome;
use canonfuzz_engine::settle::settle;

fn observation(implementation: &str, input: &str, expected: &str) -> Observation {
    Observation {
        implementation: implementation.to_string(),
        input: input.as_bytes().to_vec(),
        expected: Outcome::Rejected(expected.to_string()),
        actual: Outcome::Ok(b"{\"a\":0}".to_vec()),
        category: "rejections".to_string(),
        vector: None,
        cases: 1,
        new: false,
        first_met: None,
    }
}

/// Settles `o`, the library answering `library` and the core `core` to what its host parser
/// hands it, and returns the settled observation with the text it was asked about.
fn settled(o: Observation, core: Outcome, library: Outcome) -> (Observation, Vec<Vec<u8>>) {
    let asked = std::sync::Mutex::new(Vec::new());
    let ask = |_: &str, inputs: &[&[u8]]| {
        asked
            .lock()
            .unwrap()
            .extend(inputs.iter().map(|i| i.to_vec()));
        Some(vec![(core.clone(), library.clone()); inputs.len()])
    };
    let mut out = settle(jcs::FAMILY, vec![o], &ask);
    (out.remove(0), asked.into_inner().unwrap())
}

#[test]
fn a_library_that_answers_right_on_what_its_parser_hands_it_shows_the_parsers_departure() {
    // JSON.parse hands the library {"a":0}: the lone surrogate never reaches it.
    let o = observation(
        "node-canonicalize",
        r#"{"a":"\ud800","a":0}"#,
        "lone_surrogate",
    );
    let naive = key(jcs::FAMILY, &o).unwrap();
    assert_eq!(
        (naive.blamed.as_str(), naive.shape.as_str()),
        ("node-canonicalize", "accepts a lone surrogate")
    );
    let ok = Outcome::Ok(b"{\"a\":0}".to_vec());
    let (o, asked) = settled(o, ok.clone(), ok);
    assert_eq!(asked, vec![br#"{"a":0}"#.to_vec()]);
    let settled = key(jcs::FAMILY, &o).unwrap();
    assert_eq!(
        (
            settled.blamed.as_str(),
            settled.rule.as_str(),
            settled.shape.as_str()
        ),
        ("JSON.parse", "I-JSON", "accepts a duplicate member name")
    );
}

#[test]
fn a_library_that_answers_wrong_there_shows_its_own_bug_on_that_input() {
    // python-jcs is handed {"a":"\ud800"} and accepts it: the bug is its own, and its
    // example holds no repeated name.
    let o = observation("python-jcs", r#"{"a":0,"a":"\ud800"}"#, "duplicate_key");
    let accepted = Outcome::Ok(br#"{"a":"\ud800"}"#.to_vec());
    let (o, _) = settled(o, Outcome::Rejected("lone_surrogate".into()), accepted);
    assert_eq!(o.input, br#"{"a":"\ud800"}"#);
    let settled = key(jcs::FAMILY, &o).unwrap();
    assert_eq!(
        (settled.blamed.as_str(), settled.shape.as_str()),
        ("python-jcs", "accepts a lone surrogate")
    );
}

#[test]
fn what_no_host_parser_reads_otherwise_is_not_asked_again() {
    // json-syntax reads the text itself; a crash is a bug whatever the parser did.
    let mut crashed = observation("python-jcs", r#"{"a":0,"a":1}"#, "duplicate_key");
    crashed.actual = Outcome::Crashed("boom".into());
    for o in [
        observation("json-syntax", r#"{"a":0,"a":1}"#, "duplicate_key"),
        crashed,
    ] {
        let before = key(jcs::FAMILY, &o);
        let (o, asked) = settled(o, Outcome::Unsupported, Outcome::Unsupported);
        assert!(asked.is_empty());
        assert_eq!(key(jcs::FAMILY, &o), before);
    }
}
