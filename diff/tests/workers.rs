//! Worker processes that crash, hang or answer garbage are restarted; the input they were on is
//! recorded as crashed or timed out and the rest of the batch still gets answers.

use std::path::Path;
use std::time::Duration;

use canonfuzz_diff::impls::{worker, Implementation};
use canonfuzz_diff::outcome::Outcome;
use canonfuzz_diff::workers;

#[test]
fn misbehaving_workers_are_restarted() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/faulty_worker.py");
    let faulty = workers::python("jcs", "faulty", "none", "cpython")
        .with_script(script, Duration::from_secs(2));
    if let Err(why) = faulty.available() {
        panic!("the Python runtime could not be prepared: {why}");
    }
    let inputs: [&[u8]; 7] = [b"a", b"crash", b"b", b"hang", b"c", b"garbage", b"d"];
    let outcomes = faulty.run_batch(&inputs);
    let ok = |s: &str| Outcome::Ok(s.as_bytes().to_vec());
    assert_eq!(outcomes[0], ok("a"));
    // A crash is explained by what the worker last wrote to its stderr.
    assert!(
        matches!(&outcomes[1], Outcome::Crashed(why) if why.contains("its stderr ended: faulty worker: asked to crash")),
        "{:?}",
        outcomes[1]
    );
    assert_eq!(outcomes[2], ok("b"));
    assert_eq!(outcomes[3], Outcome::TimedOut);
    assert_eq!(outcomes[4], ok("c"));
    assert!(
        matches!(outcomes[5], Outcome::Crashed(_)),
        "{:?}",
        outcomes[5]
    );
    assert_eq!(outcomes[6], ok("d"));
}

#[test]
fn inputs_the_line_protocol_cannot_carry_are_unsupported() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/faulty_worker.py");
    let faulty = workers::python("jcs", "faulty", "none", "cpython")
        .with_script(script, Duration::from_secs(2));
    let outcomes = faulty.run_batch(&[b"[1,\n2]", b"x"]);
    assert_eq!(
        outcomes,
        vec![Outcome::Unsupported, Outcome::Ok(b"x".to_vec())]
    );
}

#[test]
fn libraries_slow_on_deep_nesting_are_not_asked_past_their_limit() {
    // PyPI jcs takes time quadratic in the nesting and is not asked past 500 levels; the npm
    // libraries recurse on a stack V8 sizes differently from run to run and are not asked past
    // 1,000. At the limit, with the least text that nests so deep, they still answer.
    let nested = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    let answered = |o: &Outcome| matches!(o, Outcome::Ok(_));
    for (imp, limit) in [
        (workers::python("jcs", "python-jcs", "jcs", "cpython"), 500),
        (
            workers::node(
                "jcs",
                "node-json-canonicalize",
                "json-canonicalize",
                "node-v8",
            ),
            1000,
        ),
    ] {
        if let Err(why) = imp.available() {
            panic!("{} could not be prepared: {why}", imp.name());
        }
        let (at, past) = (nested(limit), nested(limit + 1));
        let padded = format!("{past}{}", " ".repeat(4 * limit));
        // Brackets inside strings do not nest, whatever escapes come before them; and a string
        // that ends in an escaped backslash ends there, so the brackets after it, up to the
        // next string, do.
        let at_with_strings = format!(
            r#"{}["\\","\"{}",{{"k[":"]"}}]{}"#,
            "[".repeat(limit - 2),
            "[{".repeat(limit),
            "]".repeat(limit - 2)
        );
        let past_after_string = format!(r#"["\\",{},"]"]"#, nested(limit));
        let outcomes = imp.run_batch(&[
            at.as_bytes(),
            at_with_strings.as_bytes(),
            past.as_bytes(),
            padded.as_bytes(),
            past_after_string.as_bytes(),
        ]);
        for (k, outcome) in outcomes.iter().enumerate().take(2) {
            assert!(answered(outcome), "{} on text {k}: {outcome:?}", imp.name());
        }
        let unsupported: Vec<bool> = outcomes[2..]
            .iter()
            .map(|o| *o == Outcome::Unsupported)
            .collect();
        assert_eq!(unsupported, [true, true, true], "{}", imp.name());
    }
}

#[test]
fn a_worker_answering_garbage_in_a_row_is_taken_out_and_one_that_recovers_is_not() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/faulty_worker.py");
    let faulty = workers::python("jcs", "faulty", "none", "cpython")
        .with_script(script, Duration::from_secs(2));
    let garbage = worker::GARBAGE_LIMIT as usize;
    // One short of the limit, then a good answer: the count starts again.
    let mut inputs: Vec<&[u8]> = vec![b"garbage"; garbage - 1];
    inputs.push(b"a");
    inputs.extend(vec![b"garbage" as &[u8]; garbage - 1]);
    let outcomes = faulty.run_batch(&inputs);
    assert_eq!(outcomes[garbage - 1], Outcome::Ok(b"a".to_vec()));
    assert_eq!(faulty.taken_out(), None);
    // The limit reached in a row: taken out, named, and asked nothing more.
    let outcomes = faulty.run_batch(&[b"garbage", b"b"]);
    assert!(matches!(outcomes[0], Outcome::Crashed(_)), "{outcomes:?}");
    assert_eq!(outcomes[1], Outcome::Unsupported);
    let why = faulty.taken_out().expect("taken out at the limit");
    assert!(why.contains("not the worker protocol"), "{why}");
    assert_eq!(faulty.run_batch(&[b"c"]), vec![Outcome::Unsupported]);
}
