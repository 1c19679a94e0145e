//! A core that falsely rejects valid documents, or names the wrong kind, is red however its
//! rejection is worded: the JCS policies explain a difference only where an independent reading
//! of the input shows their reason.

mod common;

use canonfuzz_diff::impls::in_process::InProcess;
use canonfuzz_diff::outcome::Outcome;

/// The core, except that documents holding `needle` are refused with `kind`.
fn refusing(input: &[u8], needle: &[u8], kind: &str) -> Outcome {
    if input.windows(needle.len()).any(|w| w == needle) {
        return Outcome::Rejected(kind.to_string());
    }
    match canonfuzz_core::jcs::canonicalize(input) {
        Ok(out) => Outcome::Ok(out),
        Err(e) => Outcome::Rejected(e.kind().as_str().to_string()),
    }
}

fn diverging(core: fn(&[u8]) -> Outcome) -> usize {
    common::diverging(
        canonfuzz_diff::families::jcs::FAMILY,
        Box::new(InProcess::core(core)),
        1,
        3_000,
    )
}

#[test]
fn false_rejections_named_as_any_policy_kind_are_red() {
    // The mutant the verdicts issue tried: every document with a \u00 escape refused as a
    // duplicate name; and the same with the other kinds the policies are about.
    let mutants: [fn(&[u8]) -> Outcome; 4] = [
        |i| refusing(i, br"\u00", "duplicate_key"),
        |i| refusing(i, br"\u00", "lone_surrogate"),
        |i| refusing(i, b"e", "number_out_of_range"),
        |i| refusing(i, b"[[", "depth_limit"),
    ];
    for (n, mutant) in mutants.into_iter().enumerate() {
        assert!(diverging(mutant) > 0, "mutant {n} stayed green");
    }
}

#[test]
fn the_core_itself_is_green() {
    assert_eq!(diverging(|i| refusing(i, b"\x00never\x00", "syntax")), 0);
}
