//! The JCS generator: deterministic from the campaign seed and the case index alone (so
//! shards and thread counts never change which input a case gets), structure-aware, and
//! weighted toward where implementations are known to differ. Every generator that needs a
//! JSON document (ekl's, INK's, verifiable-mcp's) draws it from here.

mod mutate;
mod numbers;
mod strings;
mod structure;

use crate::family::{Category, Field};
use crate::tree::Node;
pub use canonfuzz_props::jcs::tricky::{escape, TRICKY};
pub use canonfuzz_rng::Rng;

/// Number formatting and parsing.
pub const NUMBERS: Category = Category::new("numbers", "Found by the number generator.");
/// Member order and names.
pub const ORDERING: Category = Category::new("ordering", "Found by the member-name generator.");
/// String escapes and Unicode.
pub const ESCAPES: Category = Category::new("escapes", "Found by the string generator.");
/// Whitespace, nesting and mixed documents.
pub const STRUCTURE: Category =
    Category::new("structure", "Found by the whole-document generator.");
/// Byte-level damage to valid documents: what must be rejected, and how.
pub const REJECTIONS: Category = Category {
    name: "rejections",
    description: "Found by the byte-level damage generator.",
    malformed: true,
};

/// Every JCS category, in report order.
pub const CATEGORIES: [Category; 5] = [NUMBERS, ORDERING, ESCAPES, STRUCTURE, REJECTIONS];

/// Every scalar token of a document, with every member name as a string token, read by the
/// lenient syntax tree; none for a text that is not shaped like JSON.
fn tokens(input: &[u8]) -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    let mut pending: Vec<Node> = crate::tree::parse(input).into_iter().collect();
    while let Some(node) = pending.pop() {
        match node {
            Node::Scalar(raw) => found.push(raw),
            Node::Array(items) => pending.extend(items),
            Node::Object(members) => {
                for (name, value) in members {
                    found.push([b"name:", &name[..]].concat());
                    pending.push(value);
                }
            }
        }
    }
    found
}

/// The tokens of a document that `keep` picks, as text.
fn picked(input: &[u8], keep: fn(&[u8]) -> bool) -> Vec<String> {
    tokens(input)
        .into_iter()
        .filter(|t| keep(t))
        .map(|t| String::from_utf8_lossy(&t).into_owned())
        .collect()
}

/// Every part of a JCS input, a document the core's canonicalizer reads whole.
pub const FIELDS: [Field; 7] = [
    Field {
        name: "member names",
        read_by: "jcs::canonicalize: order and escapes",
        varied_by: &[ORDERING, ESCAPES, STRUCTURE],
        values: Some(|input| picked(input, |t| t.starts_with(b"name:"))),
    },
    Field {
        name: "numbers",
        read_by: "jcs::canonicalize: ECMAScript number form",
        varied_by: &[NUMBERS, STRUCTURE],
        values: Some(|input| picked(input, |t| matches!(t.first(), Some(b'-' | b'0'..=b'9')))),
    },
    Field {
        name: "strings",
        read_by: "jcs::canonicalize: escapes",
        varied_by: &[ESCAPES, STRUCTURE],
        values: Some(|input| picked(input, |t| t.first() == Some(&b'"'))),
    },
    Field {
        name: "literals",
        read_by: "jcs::canonicalize",
        varied_by: &[STRUCTURE],
        values: Some(|input| picked(input, |t| matches!(t.first(), Some(b't' | b'f' | b'n')))),
    },
    Field {
        name: "nesting",
        read_by: "jcs::canonicalize: the depth bound",
        varied_by: &[STRUCTURE],
        values: Some(|input| {
            vec![canonfuzz_props::read::problems::read(input)
                .depth
                .to_string()]
        }),
    },
    Field {
        name: "whitespace",
        read_by: "jcs::canonicalize",
        varied_by: &[STRUCTURE],
        values: Some(|input| {
            input
                .iter()
                .filter(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                .map(|b| format!("{b:02x}"))
                .collect()
        }),
    },
    Field {
        name: "bytes",
        read_by: "jcs::canonicalize: what it refuses, and as which kind",
        varied_by: &[REJECTIONS],
        values: Some(|input| {
            canonfuzz_props::read::problems::read(input)
                .first_problems()
                .into_iter()
                .map(str::to_string)
                .collect()
        }),
    },
];

/// The input for case `index` of a JCS campaign with `seed`.
pub fn case(seed: u64, index: u64) -> (Category, Vec<u8>) {
    let mut rng = Rng::for_case(seed, index);
    let category = match rng.index(100) {
        0..=34 => NUMBERS,
        35..=54 => ORDERING,
        55..=74 => ESCAPES,
        75..=87 => STRUCTURE,
        _ => REJECTIONS,
    };
    let mut out = Vec::new();
    match category {
        NUMBERS => numbers::document(&mut rng, &mut out),
        ORDERING => strings::object_with_tricky_names(&mut rng, &mut out),
        ESCAPES => strings::document(&mut rng, &mut out),
        STRUCTURE => structure::document(&mut rng, &mut out),
        _ => mutate::damaged(&mut rng, &mut out),
    }
    (category, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The length of the longest common prefix of two names' UTF-8 bytes.
    fn shared_bytes(a: &str, b: &str) -> usize {
        a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
    }

    #[test]
    fn member_names_share_long_prefixes_and_part_across_the_surrogate_range() {
        let (mut objects, mut sharing, mut parting) = (0, 0, 0);
        for i in 0..20_000 {
            let (category, input) = case(1, i);
            let Some(crate::tree::Node::Object(members)) = crate::tree::parse(&input) else {
                continue;
            };
            if category != ORDERING {
                continue;
            }
            objects += 1;
            let names: Vec<String> = members
                .iter()
                .filter_map(|(name, _)| serde_json::from_slice::<String>(name).ok())
                .collect();
            let pairs = names
                .iter()
                .enumerate()
                .flat_map(|(k, a)| names.iter().skip(k + 1).map(move |b| (a, b)));
            let long: Vec<(&String, &String)> = pairs
                .filter(|(a, b)| a != b && shared_bytes(a, b) >= 8)
                .collect();
            sharing += usize::from(!long.is_empty());
            // UTF-16 order and UTF-8 order disagree after the shared prefix.
            parting += usize::from(long.iter().any(|(a, b)| {
                a.encode_utf16().cmp(b.encode_utf16()) != a.as_bytes().cmp(b.as_bytes())
            }));
        }
        assert!(objects > 3_000, "{objects} objects");
        assert!(
            sharing * 5 >= objects,
            "{sharing} of {objects} share 8 bytes"
        );
        assert!(parting * 50 >= objects, "{parting} of {objects} part");
    }

    #[test]
    fn cases_depend_on_seed_and_index_only() {
        assert_eq!(case(7, 12345), case(7, 12345));
        assert_ne!(case(7, 1).1, case(8, 1).1);
    }
}
