//! The JCS generator: deterministic from the campaign seed and the case index alone (so
//! shards and thread counts never change which input a case gets), structure-aware, and
//! weighted toward where implementations are known to differ. Every generator that needs a
//! JSON document (the adapter profile's, INK's, verifiable-mcp's) draws it from here.

mod mutate;
mod numbers;
mod strings;
mod structure;

use crate::family::Category;
pub use canonfuzz_props::tricky::{escape, TRICKY};
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

    #[test]
    fn cases_depend_on_seed_and_index_only() {
        assert_eq!(case(7, 12345), case(7, 12345));
        assert_ne!(case(7, 1).1, case(8, 1).1);
    }
}
