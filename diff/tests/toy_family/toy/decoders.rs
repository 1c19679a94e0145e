//! The toy family's decoders: its strict reference decoder in the core's place, base16ct
//! from RustCrypto, and a decoder of pairs by `u8::from_str_radix`, which reads a lone last
//! digit as a byte and a `+` as a sign: the bugs a campaign must find and blame on it. Both
//! libraries decode the empty text, which the core refuses by the family's policy.

use canonfuzz_diff::impls::in_process::InProcess;
use canonfuzz_diff::impls::Implementation;
use canonfuzz_diff::mutants::Mutant;
use canonfuzz_diff::outcome::Outcome;

/// The value of one hexadecimal digit, either case.
fn digit(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// Bytes as lowercase hexadecimal: every decoder's output, so that outputs compare as text.
fn lower_hex(bytes: &[u8]) -> Outcome {
    Outcome::Ok(
        bytes
            .iter()
            .flat_map(|b| format!("{b:02x}").into_bytes())
            .collect(),
    )
}

/// Decodes `input` by the rules: an even count of digits, at least two, nothing else.
fn strict(input: &[u8]) -> Outcome {
    if input.is_empty() {
        return Outcome::Rejected("empty".into());
    }
    if !input.len().is_multiple_of(2) {
        return Outcome::Rejected("length".into());
    }
    let pairs: Option<Vec<u8>> = input
        .chunks(2)
        .map(|pair| Some((digit(*pair.first()?)? << 4) | digit(*pair.get(1)?)?))
        .collect();
    pairs.map_or(Outcome::Rejected("digit".into()), |bytes| lower_hex(&bytes))
}

/// Decodes each pair (or lone last digit) with `u8::from_str_radix`.
fn by_radix(input: &[u8]) -> Outcome {
    let pairs: Option<Vec<u8>> = input
        .chunks(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).ok()?;
            u8::from_str_radix(text, 16).ok()
        })
        .collect();
    pairs.map_or(Outcome::Rejected("digit".into()), |bytes| lower_hex(&bytes))
}

/// Every decoder the family compares, the core's stand-in first.
pub fn every() -> Vec<Box<dyn Implementation>> {
    vec![
        Box::new(InProcess::core(strict)),
        Box::new(InProcess {
            name: "base16ct",
            krate: "base16ct",
            version: "1.0.0",
            group: "base16ct",
            answer: |input| match base16ct::mixed::decode_vec(input) {
                Ok(bytes) => lower_hex(&bytes),
                Err(base16ct::Error::InvalidLength) => Outcome::Rejected("length".into()),
                Err(_) => Outcome::Rejected("digit".into()),
            },
        }),
        Box::new(InProcess {
            name: "radix-pairs",
            krate: "canonfuzz-diff",
            version: env!("CARGO_PKG_VERSION"),
            group: "radix-pairs",
            answer: by_radix,
        }),
    ]
}

/// The core's stand-in with planted bugs, which a campaign must turn red on.
pub const MUTANTS: [Mutant; 2] = [
    Mutant {
        family: super::FAMILY,
        name: "signed-pairs",
        bug: "each pair read by u8::from_str_radix, so \"+f\" decodes",
        answer: |input| {
            if input.is_empty() || !input.len().is_multiple_of(2) {
                return strict(input);
            }
            by_radix(input)
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "odd-length-accepted",
        bug: "an odd number of digits read as if a leading zero were implied",
        answer: |input| {
            if input.len().is_multiple_of(2) {
                return strict(input);
            }
            strict(&[b"0", input].concat())
        },
    },
];
