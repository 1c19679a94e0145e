//! INK's principal decision as campaign cases: agent ids of each of INK's prefixes (`tulpa:`,
//! `ink:`, `key:`, `raw:`) and others, with key bodies well encoded (`z` and base58btc of the
//! Ed25519 multicodec and 32 bytes) and badly (another multicodec, too short, a leading `1`,
//! characters outside base58, no `z`), empty, and around INK's bound of 512 UTF-16 code units.

use canonfuzz_rng::Rng;

/// base58btc's alphabet.
const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// `bytes` in base58btc.
fn base58(bytes: &[u8]) -> String {
    let mut digits: Vec<u8> = Vec::new();
    for &byte in bytes {
        let mut carry = u32::from(byte);
        for d in digits.iter_mut() {
            carry += u32::from(*d) << 8;
            *d = (carry % 58) as u8;
            carry /= 58;
        }
        while carry > 0 {
            digits.push((carry % 58) as u8);
            carry /= 58;
        }
    }
    let zeros = bytes.iter().take_while(|b| **b == 0).count();
    std::iter::repeat_n('1', zeros)
        .chain(
            digits
                .iter()
                .rev()
                .map(|d| char::from(ALPHABET[usize::from(*d)])),
        )
        .collect()
}

/// A multibase body: `z` and base58btc of a multicodec prefix and key bytes, well formed or
/// not.
fn key_body(rng: &mut Rng) -> String {
    let mut key: Vec<u8> = (0..32).map(|_| rng.index(256) as u8).collect();
    let prefix: &[u8] = match rng.index(10) {
        0 => &[0xec, 0x01],
        1 => {
            key.truncate(rng.index(31));
            &[0xed, 0x01]
        }
        _ => &[0xed, 0x01],
    };
    let encoded = base58(&[prefix, &key[..]].concat());
    match rng.index(10) {
        0 => format!("z1{encoded}"),
        1 => format!("z{}0", encoded.get(1..).unwrap_or_default()),
        2 => encoded,
        3 => format!("Z{encoded}"),
        _ => format!("z{encoded}"),
    }
}

/// An agent id as a sender may write one.
pub fn agent_id(rng: &mut Rng) -> String {
    match rng.index(10) {
        0 => String::new(),
        1 => {
            // Around 512 UTF-16 code units: ASCII, two-byte and astral characters.
            let filler = rng.pick(&["a", "é", "😀"]);
            let units = filler.encode_utf16().count();
            let count = rng.pick(&[503usize, 504, 505]).div_ceil(units);
            format!("did:web:{}", filler.repeat(count))
        }
        2 => format!("did:web:{}.example", rng.pick(&["b", "tulpa", "ink"])),
        3 => format!(
            "{}{}",
            rng.pick(&["raw:", "key:", "raw:tulpa:"]),
            key_body(rng)
        ),
        _ => format!("{}{}", rng.pick(&["tulpa:", "ink:"]), key_body(rng)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base58_writes_as_the_bs58_crate_does() {
        let mut rng = Rng::new(9);
        for length in [0, 1, 2, 3, 31, 34] {
            for zeros in 0..3 {
                let mut bytes = vec![0; zeros];
                bytes.extend((0..length).map(|_| rng.index(256) as u8));
                assert_eq!(
                    base58(&bytes),
                    bs58::encode(&bytes).into_string(),
                    "{bytes:?}"
                );
            }
        }
        assert_eq!(base58(&[0, 0, 1]), "112");
    }
}
