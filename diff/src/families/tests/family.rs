//! The engine's `family` on the registered families.

use crate::families::all;
use canonfuzz_engine::outcome::Outcome;
use canonfuzz_engine::vector::Head;
use std::collections::BTreeMap;

#[test]
fn names_schemas_and_category_names_are_unique() {
    let mut names = std::collections::BTreeSet::new();
    let mut schemas = std::collections::BTreeSet::new();
    let mut categories = BTreeMap::new();
    for family in all() {
        assert!(names.insert(family.name()), "{family:?} registered twice");
        assert!(
            schemas.insert(family.schema()),
            "{family:?}'s schema reused"
        );
        for c in family.categories() {
            // Families may share a category (the JCS generator's), never its name.
            let first = *categories.entry(c.name).or_insert(c);
            assert_eq!(first, c, "two categories are named {}", c.name);
        }
        assert_eq!(crate::families::from_name(family.name()), Some(*family));
        assert_eq!(crate::families::from_schema(family.schema()), Some(*family));
    }
    assert!(crate::families::named("nonesuch")
        .unwrap_err()
        .contains("jcs, "));
}

/// Cases per field check: enough that a variant one case in a few hundred draws shows.
const REACH_CASES: u64 = 3_000;

#[test]
fn every_field_is_varied_by_the_categories_said_to_vary_it() {
    let mut problems = Vec::new();
    for family in all() {
        let mut by_category: BTreeMap<&str, Vec<Vec<u8>>> = BTreeMap::new();
        for i in 0..REACH_CASES {
            let (category, input) = family.generate(1, i);
            by_category.entry(category.name).or_default().push(input);
        }
        if family.fields().is_empty() {
            problems.push(format!("{family:?} lists no field"));
        }
        for field in family.fields() {
            if field.varied_by.is_empty() {
                problems.push(format!(
                    "{family:?}: no category varies the field {:?}, which {} reads; make a generator vary it and name its category",
                    field.name, field.read_by
                ));
            }
            let mut seen = std::collections::BTreeSet::new();
            for category in field.varied_by {
                let cases = by_category
                    .get(category.name)
                    .map_or(&[][..], Vec::as_slice);
                let carried: Vec<String> = cases
                    .iter()
                    .flat_map(|input| field.values_in(input))
                    .collect();
                if carried.is_empty() {
                    problems.push(format!(
                        "{family:?}: no case of category {} (of the first {REACH_CASES}) carries the field {:?}, which it is said to vary",
                        category.name, field.name
                    ));
                }
                seen.extend(carried);
            }
            if !field.varied_by.is_empty() && seen.len() < 2 {
                problems.push(format!(
                    "{family:?}: the field {:?} takes one value in the first {REACH_CASES} cases of the categories said to vary it: {seen:?}",
                    field.name
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The member paths of a JSON value, arrays' elements as `*`.
fn member_paths(
    value: &serde_json::Value,
    at: &str,
    paths: &mut std::collections::BTreeSet<String>,
) {
    match value {
        serde_json::Value::Object(members) => {
            for (name, member) in members {
                let escaped = name.replace('~', "~0").replace('/', "~1");
                let path = format!("{at}/{escaped}");
                member_paths(member, &path, paths);
                paths.insert(path);
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                member_paths(item, &format!("{at}/*"), paths);
            }
        }
        _ => {}
    }
}

#[test]
fn every_member_a_case_carries_is_a_listed_field() {
    for family in all() {
        let listed: Vec<&str> = family
            .fields()
            .iter()
            .map(|f| f.name)
            .filter(|name| name.starts_with('/'))
            .collect();
        // A family whose input is one document names parts of it, not members.
        if listed.is_empty() {
            continue;
        }
        let covered = |path: &str| {
            listed.iter().any(|name| {
                *name == path
                    || name.starts_with(&format!("{path}/"))
                    || path.starts_with(&format!("{name}/"))
            })
        };
        let mut paths = std::collections::BTreeSet::new();
        for i in 0..REACH_CASES {
            let (_, input) = family.generate(1, i);
            let case = canonfuzz_props::read::for_judgment::case(&input).unwrap();
            member_paths(&serde_json::Value::Object(case), "", &mut paths);
        }
        let unlisted: Vec<&String> = paths.iter().filter(|p| !covered(p)).collect();
        assert!(
            unlisted.is_empty(),
            "{family:?}: its cases carry fields its field list does not name: {unlisted:?}"
        );
    }
}

/// Cases per decision check: enough that the rarest decision (JCS's nesting past 10,000
/// levels, about one case in 5,000) shows several times.
const DECISION_CASES: u64 = 30_000;

#[test]
fn every_decision_of_the_core_is_generated_and_named() {
    let mut problems = Vec::new();
    for family in all() {
        let core = family.implementations().remove(0);
        let inputs: Vec<Vec<u8>> = (0..DECISION_CASES)
            .map(|i| family.generate(1, i).1)
            .collect();
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let mut made = std::collections::BTreeSet::new();
        for answer in core.run_batch(&refs) {
            made.insert(match answer {
                Outcome::Ok(_) => "accepted".to_string(),
                Outcome::Rejected(kind) => kind,
                other => format!("{other}"),
            });
        }
        let declared: std::collections::BTreeSet<String> = family
            .facts()
            .decisions
            .iter()
            .map(|d| d.to_string())
            .collect();
        for missing in declared.difference(&made) {
            problems.push(format!(
                "{family:?}: no case of the first {DECISION_CASES} reaches the decision {missing}; make a generator reach it"
            ));
        }
        for unnamed in made.difference(&declared) {
            problems.push(format!(
                "{family:?}: the core answers {unnamed}, a decision the family does not name"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_decisions_of_a_core_that_lists_its_own_are_all_named() {
    let named = |family: canonfuzz_engine::family::Family| -> Vec<String> {
        family
            .facts()
            .decisions
            .iter()
            .map(|d| d.to_string())
            .collect()
    };
    let jcs: Vec<String> = std::iter::once("accepted".to_string())
        .chain(canonfuzz_core::jcs::ErrorKind::ALL.map(|k| k.as_str().to_string()))
        .collect();
    assert_eq!(named(crate::families::jcs::FAMILY), jcs);
    let vmcp: Vec<String> = std::iter::once("accepted".to_string())
        .chain(canonfuzz_core::vmcp::Rule::ALL.map(|r| r.name().to_string()))
        .collect();
    assert_eq!(named(crate::families::vmcp::FAMILY), vmcp);
}

#[test]
fn every_category_is_generated_and_only_those() {
    for family in all() {
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..2_000 {
            let (category, _) = family.generate(1, i);
            assert!(
                family.categories().contains(&category),
                "{family:?} generated {} it does not declare",
                category.name
            );
            seen.insert(category.name);
        }
        assert_eq!(
            seen.len(),
            family.categories().len(),
            "{family:?} never generated some of its categories in 2,000 cases: saw {seen:?}"
        );
    }
}

#[test]
fn a_vector_written_from_the_cores_answer_is_one_the_core_passes() {
    for family in all() {
        let core = family.implementations().remove(0);
        let mut written = 0;
        for i in 0..300 {
            let (_, input) = family.generate(3, i);
            let Some(want) = core.run_batch(&[&input]).pop() else {
                continue;
            };
            let result = match want {
                Outcome::Ok(_) => crate::vector::Expectation::Valid,
                Outcome::Rejected(_) => crate::vector::Expectation::Invalid,
                _ => continue,
            };
            let head = Head {
                tc_id: 1,
                comment: format!("case {i}"),
                flags: family
                    .input_flags(&input)
                    .into_iter()
                    .map(|(f, _)| f)
                    .collect(),
                result,
                ..Head::default()
            };
            let Some(test) = family.test_for(head, &input, &want) else {
                continue;
            };
            let checked = family.vectors().check_test(&test);
            assert!(
                checked.problems.is_empty(),
                "{family:?} case {i}: {:?}",
                checked.problems
            );
            assert_eq!(checked.passed, Ok(()), "{family:?} case {i}");
            written += 1;
        }
        assert!(
            written >= 200,
            "{family:?} wrote only {written} of 300 cases"
        );
    }
}
