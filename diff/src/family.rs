//! A family of inputs canonfuzz tests, behind one trait: its vector schema, its generator and
//! the parts of the input space it explores, the implementations that answer it, the core's
//! registered differences, how a finding becomes a vector and how a vector is checked against
//! the core, and its planted mutants. The campaign, comparison, minimizer, corpus runner,
//! self-test and command line are generic over it; each family lives in its own folder under
//! `families/`, registered once in [`crate::families::ALL`].

use std::fmt;
use std::hash::{Hash, Hasher};
use std::path::Path;

use serde::de::DeserializeOwned;

use crate::campaign::Harness;
use crate::compare::Rules;
use crate::impls::Implementation;
use crate::mutants::Mutant;
use crate::outcome::Outcome;
use crate::replay::Replay;
use crate::report::FamilyTable;
use crate::vector::{Head, Note, Test};

/// What part of a family's input space a case explores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Category {
    /// A stable lowercase name, unique across families; vectors carry it as a flag.
    pub name: &'static str,
    /// What the category's generator explores, for vectors' notes.
    pub description: &'static str,
    /// Whether its inputs are damaged on purpose: what must be rejected, and how.
    pub malformed: bool,
}

impl Category {
    /// A category of well-formed inputs, edge cases included.
    pub const fn new(name: &'static str, description: &'static str) -> Category {
        Category {
            name,
            description,
            malformed: false,
        }
    }

    /// The category's note in a vector file, under its name.
    pub fn note(self) -> Note {
        Note {
            bug_type: if self.malformed {
                "MALFORMED_INPUT"
            } else {
                "EDGE_CASE"
            }
            .to_string(),
            description: self.description.to_string(),
        }
    }
}

/// A family's table over the corpus, from the implementations of a harness.
pub type CorpusTable = fn(&Harness, &Path) -> Result<FamilyTable, String>;

/// Everything canonfuzz knows about one family. A new family implements this in its own
/// folder and adds one line to [`crate::families::ALL`].
pub trait Spec: Sync {
    /// A stable lowercase name, as `--family` takes it and vectors' directories use it.
    fn name(&self) -> &'static str;

    /// The `schema` every vector file of the family carries.
    fn schema(&self) -> &'static str;

    /// The `algorithm` of its vector files and the `type` of their test groups.
    fn vector_kind(&self) -> (&'static str, &'static str);

    /// Every category its generator draws from, in report order.
    fn categories(&self) -> &'static [Category];

    /// Case `index` of a campaign with `seed`: deterministic from those two alone.
    fn generate(&self, seed: u64, index: u64) -> (Category, Vec<u8>);

    /// Every implementation compared, the core first.
    fn implementations(&self) -> Vec<Box<dyn Implementation>>;

    /// Its registered, deliberate differences of the core, and the group whose answer stands
    /// in when the independent groups reach no consensus.
    fn rules(&self) -> Rules;

    /// Why that group.
    fn reference_reason(&self) -> &'static str;

    /// The family's table over the corpus, if it has one: the report shows it, and a campaign
    /// prints it beside its findings (which are chosen because they disagree and so say
    /// nothing of how often an implementation is right).
    fn corpus_table(&self) -> Option<CorpusTable> {
        None
    }

    /// The vector test of a campaign `input` whose expected outcome is `want` (an output or a
    /// rejection), with the shared fields of `head`; `None` when the family's vectors cannot
    /// state that expectation.
    fn test_for(&self, head: Head, input: &[u8], want: &Outcome) -> Option<Test>;

    /// Flags (with their notes) that describe an input beyond its category, in the order its
    /// vectors list them.
    fn input_flags(&self, _input: &[u8]) -> Vec<(String, Note)> {
        Vec::new()
    }

    /// The category a triaged fuzzer input is filed under, given the core's answer to it.
    fn category_of(&self, _input: &[u8], _core: &Outcome) -> Option<Category> {
        self.categories().first().copied()
    }

    /// How the family's vector tests are read and run against the core.
    fn vectors(&self) -> &dyn CheckTest;

    /// A vector test as a campaign input and what any implementation must answer to it, so
    /// that any implementation can be run over the corpus; `None` for a test no campaign
    /// input states (a thumbprint, a proof to check, a clock window).
    fn replay(&self, test: &Test) -> Option<Replay>;

    /// Planted bugs of the core, each of which a campaign must turn red on.
    fn mutants(&self) -> &'static [Mutant];

    /// Cases the self-test gives each mutant to be found in: a small fraction of a default
    /// campaign (100,000 cases), so a mutant found within them is found by every campaign of
    /// the README.
    fn selftest_budget(&self) -> u64 {
        5_000
    }

    /// The longest a mutant's minimized case may be, not counting two bytes per level of its
    /// nesting, for the self-test to count it found; `None` sets no bound.
    fn minimized_bound(&self) -> Option<usize> {
        None
    }
}

/// How a family's vector tests are read and checked against the core, on its own test type.
pub trait Vectors: Sync {
    /// The family's test type, which refuses fields it does not know.
    type Test: DeserializeOwned;

    /// What is wrong with a test's shape that its type alone cannot express, one message per
    /// problem.
    fn lint(&self, test: &Self::Test) -> Vec<String>;

    /// Runs one test against the core: `Err` says what was expected and what the core did.
    fn check(&self, test: &Self::Test) -> Result<(), String>;
}

/// What the corpus runner learns of one test.
#[derive(Debug)]
pub struct Checked {
    /// Problems with the test's shape.
    pub problems: Vec<String>,
    /// Whether the core passed it, or why not (including a test that cannot be read).
    pub passed: Result<(), String>,
}

/// A family's [`Vectors`] behind a trait object: reads a file's test as the family's type.
pub trait CheckTest: Sync {
    /// Reads `test` as the family's test type, lints it and runs it.
    fn check_test(&self, test: &Test) -> Checked;
}

impl<V: Vectors> CheckTest for V {
    fn check_test(&self, test: &Test) -> Checked {
        match test.read::<V::Test>() {
            Ok(typed) => Checked {
                problems: self.lint(&typed),
                passed: self.check(&typed),
            },
            Err(why) => Checked {
                problems: Vec::new(),
                passed: Err(why),
            },
        }
    }
}

/// A handle to a registered family; compared, ordered and hashed by name.
#[derive(Clone, Copy)]
pub struct Family(&'static dyn Spec);

impl Family {
    /// The handle of a family's definition, for its registration.
    pub const fn new(spec: &'static dyn Spec) -> Family {
        Family(spec)
    }

    /// Every registered family.
    pub fn all() -> &'static [Family] {
        &crate::families::ALL
    }

    /// The family with this name.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::all().iter().copied().find(|f| f.name() == name)
    }

    /// The family a schema name belongs to.
    pub fn from_schema(schema: &str) -> Option<Family> {
        Family::all().iter().copied().find(|f| f.schema() == schema)
    }

    /// Every family's name, for `--family`.
    pub fn names() -> Vec<&'static str> {
        Family::all().iter().map(|f| f.name()).collect()
    }

    /// The family with this name, or an error that lists the known ones.
    pub fn named(name: &str) -> Result<Family, String> {
        Family::from_name(name).ok_or_else(|| {
            format!(
                "unknown family {name:?}; choose one of: {}",
                Family::names().join(", ")
            )
        })
    }

    /// The category of this family with this name.
    pub fn category(self, name: &str) -> Option<Category> {
        self.categories().iter().copied().find(|c| c.name == name)
    }
}

impl std::ops::Deref for Family {
    type Target = dyn Spec;

    fn deref(&self) -> &Self::Target {
        self.0
    }
}

impl PartialEq for Family {
    fn eq(&self, other: &Family) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Family {}

impl Hash for Family {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn names_schemas_and_category_names_are_unique() {
        let mut names = std::collections::BTreeSet::new();
        let mut schemas = std::collections::BTreeSet::new();
        let mut categories = BTreeMap::new();
        for family in Family::all() {
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
            assert_eq!(Family::from_name(family.name()), Some(*family));
            assert_eq!(Family::from_schema(family.schema()), Some(*family));
        }
        assert!(Family::named("nonesuch").unwrap_err().contains("jcs, "));
    }

    #[test]
    fn every_category_is_generated_and_only_those() {
        for family in Family::all() {
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
        for family in Family::all() {
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
}
