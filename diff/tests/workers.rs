//! Worker processes that crash, hang or answer garbage are restarted; the input they were on is
//! recorded as crashed or timed out and the rest of the batch still gets answers.

use std::path::Path;
use std::time::Duration;

use canonfuzz_diff::impls::{worker, Implementation};
use canonfuzz_diff::outcome::Outcome;

#[test]
fn misbehaving_workers_are_restarted() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/faulty_worker.py");
    let faulty =
        worker::python("faulty", "none", "cpython").with_script(script, Duration::from_secs(2));
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
    let faulty =
        worker::python("faulty", "none", "cpython").with_script(script, Duration::from_secs(2));
    let outcomes = faulty.run_batch(&[b"[1,\n2]", b"x"]);
    assert_eq!(
        outcomes,
        vec![Outcome::Unsupported, Outcome::Ok(b"x".to_vec())]
    );
}
