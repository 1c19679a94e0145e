//! Characters where JSON implementations differ, and their escapes: what the generators and
//! the structure-aware fuzz target build strings from.

/// Characters worth escaping or not: C0 controls, quote, backslash, solidus, DEL, C1,
/// U+2028/2029, noncharacters, the top of the BMP, astral characters, look-alikes.
pub const TRICKY: [char; 30] = [
    '\u{0}',
    '\u{8}',
    '\t',
    '\u{b}',
    '\u{c}',
    '\r',
    '\u{1f}',
    '"',
    '\\',
    '/',
    '\u{7f}',
    '\u{80}',
    '\u{9f}',
    '\u{a0}',
    'é',
    '\u{301}',
    '\u{2028}',
    '\u{2029}',
    '\u{d7ff}',
    '\u{e000}',
    '\u{fb33}',
    '\u{fdd0}',
    '\u{ff61}',
    '\u{fffd}',
    '\u{ffff}',
    '\u{10000}',
    '😀',
    '\u{1f602}',
    '\u{10ffff}',
    'a',
];

/// The `\uXXXX` escape (a pair of them for astral characters) of one character.
pub fn escape(c: char, upper: bool) -> String {
    let mut units = [0u16; 2];
    c.encode_utf16(&mut units)
        .iter()
        .map(|u| {
            if upper {
                format!("\\u{u:04X}")
            } else {
                format!("\\u{u:04x}")
            }
        })
        .collect()
}
