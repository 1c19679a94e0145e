//! INK's checkpoint decision as campaign cases: C2SP checkpoint bodies as a log writes them —
//! an origin, a tree size and a root hash, a line each — and bent where readers differ: an
//! origin holding a character that is Unicode White_Space, a control, `+`, or one that some
//! readers take for a space and INK does not (U+FEFF, U+200B, U+180E), an origin around 256
//! UTF-16 code units in two-byte and astral characters; a size with a sign, a leading zero, at
//! and past 2^53 − 1; a root hash in uppercase, a digit short or long, with a carriage return;
//! the last line feed missing, a line added, a body past 1,024 UTF-16 code units.

use canonfuzz_rng::Rng;

/// Characters put into an origin: White_Space and controls INK refuses, `+`, and characters
/// that are neither but that some readers' notion of a space takes in.
const ODD: [char; 13] = [
    ' ', '\t', '\u{a0}', '\u{85}', '\u{2028}', '\u{3000}', '\u{7f}', '\u{9f}', '+', '\u{feff}',
    '\u{200b}', '\u{180e}', '\u{1c}',
];

/// A checkpoint body, as a log writes one or bent.
pub fn body(rng: &mut Rng) -> String {
    let mut origin = "example.com/ink-log".to_string();
    let mut size = rng
        .pick(&["5", "0", "9007199254740991", "123456"])
        .to_string();
    let mut root: String = (0..64)
        .map(|_| char::from(b"0123456789abcdef"[rng.index(16)]))
        .collect();
    let mut ending = "\n".to_string();
    match rng.index(12) {
        0 | 1 => {
            let at = rng.index(origin.len() + 1);
            origin.insert(at, rng.pick(&ODD));
        }
        2 => {
            let (c, units) = rng.pick(&[('é', 1), ('\u{1d400}', 2)]);
            let count = rng.pick(&[255usize, 256, 257]).div_ceil(units);
            origin = std::iter::repeat_n(c, count).collect();
        }
        3 => origin.clear(),
        4 => {
            size = rng
                .pick(&["05", "-5", "+5", "9007199254740992", "abc", "", "1e3", "5 "])
                .to_string()
        }
        5 => root = root.to_uppercase(),
        6 => root.truncate(63),
        7 => root.push('a'),
        8 => root.push('\r'),
        9 => ending = rng.pick(&["", "\n\n", "\nx"]).to_string(),
        10 => origin = "a".repeat(rng.pick(&[900usize, 1_000])),
        _ => {}
    }
    format!("{origin}\n{size}\n{root}{ending}")
}
