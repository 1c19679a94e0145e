//! The toy family's cases: up to seven random bytes (none at times) written in hexadecimal
//! of mixed case, then a digit dropped, or one replaced by a character that is not a digit.

use canonfuzz_diff::family::{Category, Field};
use canonfuzz_rng::Rng;

/// Well-formed hexadecimal.
pub const DIGITS: Category = Category::new("toy_digits", "Random bytes in hexadecimal, or none.");
/// An odd count of digits.
pub const ODD: Category = Category {
    malformed: true,
    ..Category::new("toy_odd", "Hexadecimal with a digit dropped.")
};
/// A character that is not a digit.
pub const STRAY: Category = Category {
    malformed: true,
    ..Category::new(
        "toy_stray",
        "Hexadecimal with one digit replaced by another character.",
    )
};

/// Every category, in report order.
pub const CATEGORIES: [Category; 3] = [DIGITS, ODD, STRAY];

/// The one field of a toy case: the whole text.
pub const FIELDS: [Field; 1] = [Field {
    name: "the text",
    read_by: "the decoder",
    varied_by: &CATEGORIES,
    values: Some(|input| vec![String::from_utf8_lossy(input).into_owned()]),
}];

/// Characters that are not hexadecimal digits, some of which a lax reader takes for one.
const STRAYS: [u8; 6] = [b'+', b'-', b'g', b'G', b' ', b'x'];

/// Case `index` of a campaign with `seed`.
pub fn case(seed: u64, index: u64) -> (Category, Vec<u8>) {
    let mut rng = Rng::for_case(seed, index);
    let mut text: Vec<u8> = (0..rng.index(8))
        .flat_map(|_| {
            let byte = rng.next_u64() as u8;
            let pair = format!("{byte:02x}");
            if rng.chance(50) {
                pair.to_uppercase()
            } else {
                pair
            }
            .into_bytes()
        })
        .collect();
    let category = rng.pick(&CATEGORIES);
    if text.is_empty() {
        return (DIGITS, text);
    }
    let at = rng.index(text.len());
    if category == ODD {
        text.remove(at);
    } else if category == STRAY {
        text[at] = rng.pick(&STRAYS);
    }
    (category, text)
}
