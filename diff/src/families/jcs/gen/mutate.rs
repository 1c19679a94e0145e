//! Byte-level damage to valid documents: truncation, bit flips, invalid UTF-8, overlong forms.

use super::{structure, Rng};

const BAD_UTF8: [&[u8]; 8] = [
    b"\xff",
    b"\x80",
    b"\xc3",
    b"\xc0\xaf",
    b"\xe0\x80\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xef\xbb\xbf",
];

/// A valid mixed document with one kind of damage.
pub fn damaged(rng: &mut Rng, out: &mut Vec<u8>) {
    structure::document(rng, out);
    let at = rng.index(out.len() + 1);
    match rng.index(4) {
        0 => out.truncate(at),
        1 => {
            if let Some(b) = out.get_mut(at) {
                *b ^= 1 << rng.index(8);
            }
        }
        2 => {
            let bad = rng.pick(&BAD_UTF8);
            let tail = out.split_off(at);
            out.extend_from_slice(bad);
            out.extend_from_slice(&tail);
        }
        _ => {
            let insert = rng.pick(&[&b","[..], b"]", b"}", b"\"", b":", b"\\", b"-", b"0"]);
            let tail = out.split_off(at);
            out.extend_from_slice(insert);
            out.extend_from_slice(&tail);
        }
    }
}
