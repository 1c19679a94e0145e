//! The JCS family's registered differences, beside the independent readings their predicates
//! rest on: the fuzz targets judge with them as campaigns do.

use std::collections::BTreeSet;

use crate::jcs::RUST_SERDE_JSON_GROUP;
use crate::read::for_judgment::{self, Unreadable};
use crate::read::problems;
use crate::verdict::{Excuse, Excused, Expect, Policy, Rules};

/// The kinds the core may name first for a document, by an independent reading of it. The
/// predicates here share one reading of an input (`problems::read_shared`): a verdict asks
/// them about it in turn.
fn first_problems(input: &[u8]) -> BTreeSet<&'static str> {
    problems::read_shared(input).first_problems()
}

/// Whether the document's first problems (see [`first_problems`]) include `kind`.
fn first_problem_is(input: &[u8], kind: &str) -> bool {
    first_problems(input).contains(kind)
}

fn duplicate_names(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(first_problem_is(input, "duplicate_key"))
}

fn lone_surrogates(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(first_problem_is(input, "lone_surrogate"))
}

fn number_range(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(first_problem_is(input, "number_out_of_range"))
}

fn past_depth_bound(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(first_problem_is(input, "depth_limit"))
}

/// The deepest nesting serde_json reads (its recursion limit refuses 128 levels), past which
/// it refuses what RFC 8785 allows.
const SERDE_JSON_DEPTH: usize = 127;

/// Whether a valid document nests deeper than serde_json reads but within the core's bound.
fn deeper_than_readers_go(input: &[u8]) -> Result<bool, Unreadable> {
    let r = problems::read_shared(input);
    Ok(r.problems.is_empty() && r.depth > SERDE_JSON_DEPTH)
}

/// The member name serde_json's raw-value feature reserves for its marker.
const MARKER: &str = "$serde_json::private::RawValue";

/// Whether a valid document has a member with serde_json's private marker name.
fn names_serde_json_marker(input: &[u8]) -> Result<bool, Unreadable> {
    let r = problems::read_shared(input);
    Ok(r.problems.is_empty() && r.names.contains(MARKER))
}

/// Whether a document without a problem has an object whose one member is named as serde_json's
/// private marker and holds a string that is itself JSON: serde_json's `Value` reads that object
/// as the JSON the string holds.
fn marker_holds_json(input: &[u8]) -> Result<bool, Unreadable> {
    if !names_serde_json_marker(input)? {
        return Ok(false);
    }
    let holds = for_judgment::judge(input, |value| {
        let mut pending = vec![&value];
        while let Some(v) = pending.pop() {
            match v {
                serde_json::Value::Array(items) => pending.extend(items),
                serde_json::Value::Object(members) => {
                    let holds_json = members.len() == 1
                        && members
                            .get(MARKER)
                            .and_then(serde_json::Value::as_str)
                            .is_some_and(|text| {
                                serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
                            });
                    if holds_json {
                        return true;
                    }
                    pending.extend(members.values());
                }
                _ => {}
            }
        }
        false
    })?;
    Ok(holds == Some(true))
}

/// Whether a document with a problem also has a member with serde_json's private marker
/// name, which the serde_json-based crates stop at before they reach the problem.
fn marker_beside_a_problem(input: &[u8]) -> Result<bool, Unreadable> {
    let r = problems::read_shared(input);
    Ok(!r.problems.is_empty() && r.names.contains(MARKER))
}

/// Whether the document has two or more distinct problems, counting nesting past what
/// serde_json reads as one (the serde_json-based crates meet it before anything after it).
fn several_problems(input: &[u8]) -> Result<bool, Unreadable> {
    let r = problems::read_shared(input);
    let too_deep_for_serde_json = r.depth > SERDE_JSON_DEPTH && !r.problems.contains("depth_limit");
    Ok(r.problems.len() + usize::from(too_deep_for_serde_json) >= 2)
}

/// Every registered policy difference of the JCS family, with its reason. Differences listed
/// here are reported as policy, never silently dropped. `error-precedence` comes first: where
/// a document has several problems and everyone rejects, the difference is which one is named,
/// not a rule the others skip.
pub const JCS_POLICIES: [Policy; 9] = [
    Policy {
        id: "error-precedence",
        core: Expect::RejectsFirstProblem(first_problems),
        excuses: Excuse::REJECTING,
        applies: several_problems,
        reason: "when a document breaks several rules the core reports invalid UTF-8 first, then the first grammar error, then the first I-JSON rule in reading order; others report whichever problem their parser meets, or the only one they check",
    },
    Policy {
        id: "duplicate-names",
        core: Expect::Rejects("duplicate_key"),
        excuses: Excuse::ANY,
        applies: duplicate_names,
        reason: "I-JSON (RFC 7493 §2.3), which RFC 8785 §3.1 requires, forbids duplicate member names; implementations that keep the last member sign a document whose meaning another parser may read differently",
    },
    Policy {
        id: "lone-surrogates",
        core: Expect::Rejects("lone_surrogate"),
        excuses: Excuse::ANY,
        applies: lone_surrogates,
        reason: "I-JSON (RFC 7493 §2.1) requires strings to be valid Unicode; an escaped lone surrogate has no UTF-8 form to canonicalize to",
    },
    Policy {
        id: "number-range",
        core: Expect::Rejects("number_out_of_range"),
        excuses: Excuse::ANY,
        applies: number_range,
        reason: "a number beyond the double range has no RFC 8785 §3.2.2.3 serialization; writing null or Infinity would change the value",
    },
    Policy {
        id: "depth-bound",
        core: Expect::Rejects("depth_limit"),
        excuses: Excuse::ANY,
        applies: past_depth_bound,
        reason: "the core bounds nesting (default 10,000 levels) so that no document can exhaust its memory; deeper documents are refused, not crashed on",
    },
    Policy {
        id: "deep-nesting",
        core: Expect::Accepts,
        excuses: Excuse::of(Excused::Rejecting("depth_limit")),
        applies: deeper_than_readers_go,
        reason: "RFC 8785 sets no nesting limit; the core accepts up to 10,000 levels where serde_json stops at 128 and CPython near 1,000",
    },
    Policy {
        id: "serde-json-marker-name",
        core: Expect::Accepts,
        excuses: Excuse::from(Excused::RejectingAny, &[RUST_SERDE_JSON_GROUP]),
        applies: names_serde_json_marker,
        reason: "a member named \"$serde_json::private::RawValue\" is an ordinary name to RFC 8785, and Node and Python accept it as the core does; the in-process Rust crates refuse an object that starts with it because serde_json's raw_value feature, which the core's dependency switches on for the whole build, reserves the name for its raw-value marker: as a syntax error, or as whatever the JSON its string holds breaks (\"1e400\" as a number out of range)",
    },
    Policy {
        id: "serde-json-marker-value",
        core: Expect::Accepts,
        excuses: Excuse::from(Excused::WritingOtherwise, &[RUST_SERDE_JSON_GROUP]),
        applies: marker_holds_json,
        reason: "an object whose one member is named \"$serde_json::private::RawValue\" and holds a string of JSON is that object to RFC 8785, and Node and Python write it as the core does; the in-process Rust crates canonicalize the JSON the string holds instead, because serde_json's raw_value feature, which the core's dependency switches on for the whole build, reads the object as its raw-value marker",
    },
    Policy {
        id: "serde-json-marker-kind",
        core: Expect::RejectsFirstProblem(first_problems),
        excuses: Excuse::from(Excused::RejectingAny, &[RUST_SERDE_JSON_GROUP]),
        applies: marker_beside_a_problem,
        reason: "a document that names serde_json's private marker (see serde-json-marker-name) and has a problem besides: the core names the problem an independent reading sees first, as Node and Python do, where the in-process Rust crates stop at the marker and report a syntax error",
    },
];

/// The JCS family's rules: RFC 8785 defers to ECMAScript, so V8's answer stands in.
pub const JCS_RULES: Rules = Rules {
    family: "jcs",
    policies: &JCS_POLICIES,
    reference_group: "node-v8",
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Outcome;
    use crate::verdict::*;

    fn members() -> Vec<Member> {
        members_of(&[
            ("core", "canonfuzz-core"),
            ("node", "node-v8"),
            ("py", "cpython"),
        ])
    }

    fn verdict(input: &str, core: Outcome, others: Outcome) -> Verdict {
        evaluate(
            &JCS_RULES,
            input.as_bytes(),
            &members(),
            &[core, others.clone(), others],
        )
        .verdict
    }

    fn ok() -> Outcome {
        Outcome::Ok(b"[]".to_vec())
    }

    fn err(kind: &str) -> Outcome {
        Outcome::Rejected(kind.to_string())
    }

    fn policy(v: Verdict) -> Option<&'static str> {
        match v {
            Verdict::Policy(p) => Some(p.id),
            _ => None,
        }
    }

    #[test]
    fn each_policy_holds_where_its_reason_does_and_nowhere_else() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let (past, within, beyond_serde, shallow) =
            (deep(10_001), deep(10_000), deep(200), deep(100));
        // (policy, core, others, an input where the reason holds, one where it does not)
        let cases: [(&str, Outcome, Outcome, &str, &str); 7] = [
            (
                "duplicate-names",
                err("duplicate_key"),
                ok(),
                r#"{"a":1,"\u0061":2}"#,
                r#"{"a":1,"\u00e9":2}"#,
            ),
            (
                "lone-surrogates",
                err("lone_surrogate"),
                ok(),
                r#"["\ud800"]"#,
                r#"["\ud83d\ude00"]"#,
            ),
            (
                "number-range",
                err("number_out_of_range"),
                ok(),
                "[1e400]",
                "[1e300]",
            ),
            ("depth-bound", err("depth_limit"), ok(), &past, &within),
            (
                "deep-nesting",
                ok(),
                err("depth_limit"),
                &beyond_serde,
                &shallow,
            ),
            (
                "error-precedence",
                err("duplicate_key"),
                err("lone_surrogate"),
                r#"{"a":1,"a":"\ud800"}"#,
                r#"{"a":1,"a":2,}"#,
            ),
            (
                "error-precedence",
                err("number_out_of_range"),
                err("duplicate_key"),
                r#"{"a":1e400,"a":1}"#,
                r#"{"a":1e400,"a":1,}"#,
            ),
        ];
        for (id, core, others, holds, not) in cases {
            assert_eq!(
                policy(verdict(holds, core.clone(), others.clone())),
                Some(id),
                "{id}: {holds:.40}"
            );
            assert_eq!(
                verdict(not, core, others),
                Verdict::CoreDiverges,
                "{id}: {not:.40}"
            );
        }
    }

    /// The verdict where the serde_json-based crates answer `serde` and the core `core`, the
    /// crates being the only others, as in the in-process fuzz target.
    fn beside_serde_json(input: &str, core: Outcome, serde: Outcome) -> Verdict {
        let members = members_of(&[
            ("core", "canonfuzz-core"),
            ("serde_jcs", RUST_SERDE_JSON_GROUP),
        ]);
        evaluate_with_quorum(&JCS_RULES, input.as_bytes(), &members, &[core, serde], 1).verdict
    }

    #[test]
    fn the_marker_policies_excuse_the_readers_that_read_the_marker() {
        let holds_json = r#"[{"$serde_json::private::RawValue":"[1]"}]"#;
        let as_written = Outcome::Ok(holds_json.as_bytes().to_vec());
        let as_marker = Outcome::Ok(b"[[1]]".to_vec());
        // The crates that read the marker are excused for writing the JSON it holds.
        assert_eq!(
            policy(beside_serde_json(
                holds_json,
                as_written.clone(),
                as_marker.clone()
            )),
            Some("serde-json-marker-value")
        );
        // Only a string of JSON is read in the object's place.
        let holds_no_json = r#"[{"$serde_json::private::RawValue":"x"}]"#;
        assert_eq!(
            beside_serde_json(holds_no_json, ok(), Outcome::Ok(b"x".to_vec())),
            Verdict::CoreDiverges
        );
        // Others than those readers are not excused: where they write the object as written,
        // a core that reads the marker diverges.
        assert_eq!(
            verdict(holds_json, as_marker.clone(), as_written.clone()),
            Verdict::CoreDiverges
        );
        // The crates refuse a marker-named object, as a syntax error or as whatever the JSON
        // its string holds breaks; only they are excused for it.
        let named = r#"{"$serde_json::private::RawValue":0}"#;
        assert_eq!(
            policy(beside_serde_json(named, ok(), err("syntax"))),
            Some("serde-json-marker-name")
        );
        let holds_a_big_number = r#"{"$serde_json::private::RawValue":"1e400"}"#;
        assert_eq!(
            policy(beside_serde_json(
                holds_a_big_number,
                ok(),
                err("number_out_of_range")
            )),
            Some("serde-json-marker-name")
        );
        assert_eq!(verdict(named, ok(), err("syntax")), Verdict::CoreDiverges);
        assert_eq!(
            beside_serde_json(r#"{"a":0}"#, ok(), err("syntax")),
            Verdict::CoreDiverges
        );
        // A valid document with the marker name is one the core accepts: refusing it diverges
        // even where the crates refuse it too.
        assert_eq!(
            beside_serde_json(named, err("syntax"), err("syntax")),
            Verdict::CoreDiverges
        );
        assert_eq!(
            beside_serde_json(holds_json, err("syntax"), as_marker),
            Verdict::CoreDiverges
        );
    }

    #[test]
    fn the_marker_name_explains_a_syntax_error_only_beside_the_problem_the_core_names() {
        // Found by the jcs_diff fuzz target: the Rust crates stop at the marker and say
        // `syntax`; the core, Node and Python name the invalid UTF-8 after it.
        let with = |first: &[u8], core: Outcome| {
            let mut input = first.to_vec();
            input.extend_from_slice(b":0,\"\xd6\":[]}");
            let members = members_of(&[
                ("core", "canonfuzz-core"),
                ("serde_jcs", RUST_SERDE_JSON_GROUP),
                ("json-canon", RUST_SERDE_JSON_GROUP),
            ]);
            let outcomes = [core, err("syntax"), err("syntax")];
            evaluate_with_quorum(&JCS_RULES, &input, &members, &outcomes, 1).verdict
        };
        let marker = br#"{"$serde_json::private::RawValue""#;
        assert_eq!(
            policy(with(marker, err("invalid_utf8"))),
            Some("serde-json-marker-kind")
        );
        assert_eq!(with(br#"{"a""#, err("invalid_utf8")), Verdict::CoreDiverges);
        // Where the marker is named, the core must still name the first problem, and refuse.
        assert_eq!(with(marker, err("depth_limit")), Verdict::CoreDiverges);
        assert_eq!(with(marker, ok()), Verdict::CoreDiverges);
    }

    #[test]
    fn a_false_rejection_of_a_valid_document_is_red_whatever_kind_it_names() {
        for kind in [
            "duplicate_key",
            "lone_surrogate",
            "number_out_of_range",
            "depth_limit",
            "syntax",
        ] {
            let v = verdict(r#"{"a":"\u00e9","b":[1.5]}"#, err(kind), ok());
            assert_eq!(v, Verdict::CoreDiverges, "{kind}");
        }
    }

    #[test]
    fn a_case_goes_to_the_policy_whose_reason_holds() {
        // A duplicate and a lone surrogate: the others reject too, so it is not the
        // "others keep the last member" reason but the precedence one.
        let v = verdict(
            r#"{"a":"\ud800","a":1}"#,
            err("duplicate_key"),
            err("lone_surrogate"),
        );
        assert_eq!(policy(v), Some("error-precedence"));
        // One problem that serde_json-based crates report as a syntax error: the core's kind
        // is the right one, and the policy about that problem explains it.
        let v = verdict(r#""\ud800""#, err("lone_surrogate"), err("syntax"));
        assert_eq!(policy(v), Some("lone-surrogates"));
        // A truncated document nested past serde_json's limit: the crates meet their depth
        // limit first, the core reports the truncation; not so where the nesting is shallow.
        let cut = |n: usize| "[".repeat(n);
        let v = verdict(&cut(200), err("syntax"), err("depth_limit"));
        assert_eq!(policy(v), Some("error-precedence"));
        assert_eq!(
            verdict(&cut(100), err("syntax"), err("depth_limit")),
            Verdict::CoreDiverges
        );
    }
}
