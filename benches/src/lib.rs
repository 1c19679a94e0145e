//! Benchmark inputs, generated deterministically so that every run and every machine measures
//! the same bytes, from the one seeded generator (`canonfuzz_rng`).

use canonfuzz_diff::vector::from_hex;
use canonfuzz_rng::Rng;

pub mod canonicalizers;
pub mod paired;

const WORDS: [&str; 12] = [
    "Escudo", "Ct", "Dublin", "listing", "garage", "Ålesund", "café", "straße", "東京", "view",
    "pool", "😀",
];

/// A mixed document of about `target` bytes shaped like an MCP tool result: listings with
/// string prices, integer and fractional numbers, nested arrays, non-ASCII text and escapes,
/// written with members out of canonical order and some insignificant whitespace.
pub fn mixed_document(target: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut out = String::from("{\"structuredContent\": {\"listings\": [");
    let mut first = true;
    while out.len() < target {
        if !first {
            out.push_str(",\n  ");
        }
        first = false;
        let word = |rng: &mut Rng| WORDS[rng.below(WORDS.len() as u64) as usize];
        out.push_str(&format!(
            "{{\"price\": \"{}.00\", \"address\": \"{} {} \\\"{}\\\"\", \"beds\": {}, \
             \"lat\": {}, \"lng\": {}, \"score\": {:e}, \"tags\": [\"{}\", \"{}\\n\"], \
             \"id\": {}, \"é\": null, \"open\": {}}}",
            100_000 + rng.below(2_000_000),
            rng.below(9999),
            word(&mut rng),
            word(&mut rng),
            rng.below(7),
            37.0 + rng.below(1_000_000) as f64 / 1e6,
            -122.0 - rng.below(1_000_000) as f64 / 1e6,
            rng.below(1 << 53) as f64 / 7.0,
            word(&mut rng),
            word(&mut rng),
            rng.next_u64() >> 11,
            rng.below(2) == 0,
        ));
    }
    out.push_str("], \"next_cursor\": null}, \"isError\": false}");
    out.into_bytes()
}

/// One document of the benchmark set: a name and a generator for a target size in bytes.
pub struct DocumentKind {
    /// The name benches and BENCHMARKS.md use.
    pub name: &'static str,
    /// What it exercises.
    pub about: &'static str,
    /// Builds a document of about the given size.
    pub build: fn(usize) -> Vec<u8>,
}

/// Audit events and checkpoints as INK's witness logs them: short ASCII names, DIDs,
/// timestamps, safe integers, hashes.
pub fn ink_events(target: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x1234_5678_9ABC_DEF1);
    let mut out = String::from("{\"events\":[");
    let mut first = true;
    while out.len() < target {
        if !first {
            out.push(',');
        }
        first = false;
        let n = rng.below(1 << 40);
        out.push_str(&format!(
            "{{\"type\":\"connection_request\",\"id\":\"evt-{n}\",\"messageId\":\"msg-{}\",\
             \"agentId\":\"did:web:agent-{}.example\",\"counterpartyId\":\"did:web:agent-{}.example\",\
             \"seq\":{},\"timestamp\":\"2026-06-15T12:{:02}:{:02}.000Z\",\
             \"checkpoint\":{{\"treeSize\":{},\"rootHash\":\"{:016x}{:016x}{:016x}{:016x}\"}},\
             \"agentSignature\":\"{:016x}{:016x}{:016x}{:016x}{:016x}\"}}",
            rng.below(1000),
            rng.below(50),
            rng.below(50),
            rng.below(1 << 30),
            rng.below(60),
            rng.below(60),
            rng.below(1 << 40),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
        ));
    }
    out.push_str("]}");
    out.into_bytes()
}

/// An array of numbers in every layout ECMAScript uses: integers, fractions, exponents, tiny
/// and huge magnitudes.
pub fn numbers(target: usize) -> Vec<u8> {
    numbers_of(target, None)
}

/// The kinds of number [`numbers`] mixes at random, in the order [`numbers_of_kind`] takes.
pub const NUMBER_KINDS: [&str; 4] = [
    "integers below 10^6",
    "doubles from random bits",
    "three-decimal fractions",
    "multiples of 10^21",
];

/// [`numbers`] with every number of one kind (an index into [`NUMBER_KINDS`]), drawn as the
/// mixed document draws that kind: what each costs alone, where the branch predictor knows
/// the next number's kind.
pub fn numbers_of_kind(target: usize, kind: u64) -> Vec<u8> {
    numbers_of(target, Some(kind))
}

fn numbers_of(target: usize, only: Option<u64>) -> Vec<u8> {
    let mut rng = Rng::new(0x0F0F_1E1E_2D2D_3C3C);
    let mut out = String::from("[");
    while out.len() < target {
        if out.len() > 1 {
            out.push(',');
        }
        let bits = rng.next_u64();
        let value = match only.unwrap_or(bits % 4) {
            0 => (rng.next_u64() % 1_000_000) as f64,
            1 => f64::from_bits((bits >> 2) & 0x7FEF_FFFF_FFFF_FFFF),
            2 => (rng.next_u64() % 10_000_000) as f64 / 1000.0,
            _ => (rng.next_u64() % 1_000_000) as f64 * 1e21,
        };
        if value.is_finite() {
            out.push_str(&format!("{value:e}"));
        } else {
            out.push('0');
        }
    }
    out.push(']');
    out.into_bytes()
}

/// Objects whose member names are non-ASCII and astral, written out of UTF-16 order.
pub fn unicode_names(target: usize) -> Vec<u8> {
    const NAMES: [&str; 10] = [
        "\u{e9}t\u{e9}",
        "\u{fb01}n",
        "\u{ff21}",
        "\u{1f511}",
        "\u{1d400}x",
        "\u{20ac}",
        "\u{6771}\u{4eac}",
        "z\u{1f600}",
        "\u{e000}",
        "a\u{30a2}",
    ];
    let mut rng = Rng::new(0x5151_7272_9393_B4B4);
    let mut out = String::from("[");
    while out.len() < target {
        if out.len() > 1 {
            out.push(',');
        }
        out.push('{');
        for i in 0..8 {
            if i > 0 {
                out.push(',');
            }
            // The member's position makes its name unique in the object.
            let name = NAMES[rng.below(NAMES.len() as u64) as usize];
            out.push_str(&format!("\"{name}{i}\":{}", rng.below(100)));
        }
        out.push('}');
    }
    out.push(']');
    out.into_bytes()
}

/// Strings dense with escapes: controls, quotes, backslashes, `\u` forms of ASCII and of
/// surrogate pairs.
pub fn escapes(target: usize) -> Vec<u8> {
    const PIECES: [&str; 8] = [
        "\\n",
        "\\t",
        "\\\"",
        "\\\\",
        "\\u0041",
        "\\ud83d\\ude00",
        "\\u00e9",
        "\\u001f",
    ];
    let mut rng = Rng::new(0xE5CA_9E5C_A9E5_CA9E);
    let mut out = String::from("[");
    while out.len() < target {
        if out.len() > 1 {
            out.push(',');
        }
        out.push('"');
        for _ in 0..24 {
            out.push_str(PIECES[rng.below(PIECES.len() as u64) as usize]);
            out.push(char::from(b'a' + rng.below(26) as u8));
        }
        out.push('"');
    }
    out.push(']');
    out.into_bytes()
}

/// Arrays and objects nested a hundred levels deep, repeated to size.
pub fn deep(target: usize) -> Vec<u8> {
    let unit = format!("{}1{}", "[{\"a\":".repeat(50), "}]".repeat(50));
    let mut out = String::from("[");
    while out.len() < target {
        if out.len() > 1 {
            out.push(',');
        }
        out.push_str(&unit);
    }
    out.push(']');
    out.into_bytes()
}

/// An object of about `target` bytes whose two members are out of order and, each taken with
/// the comma after it as the core moves them, differ in length by `difference` bytes: the
/// core puts an object this large in order in place, rotating its bytes, and the lengths of
/// the two sides of a rotation decide how it runs.
pub fn lopsided_members(target: usize, difference: usize) -> Vec<u8> {
    // `"b":"…",` and `"a":"…",`: the two blocks are their strings and seven bytes more.
    let first = target.saturating_sub(difference) / 2;
    let mut out = String::from("{\"b\":\"");
    out.push_str(&"x".repeat(first));
    out.push_str("\",\"a\":\"");
    out.push_str(&"y".repeat(first + difference));
    out.push_str("\"}");
    out.into_bytes()
}

/// The sizes every document of the set is measured at, with their names in the tables.
pub const SIZES: [(&str, usize); 3] = [("1KiB", 1 << 10), ("64KiB", 64 << 10), ("1MiB", 1 << 20)];

/// The benchmark set.
pub const DOCUMENTS: [DocumentKind; 6] = [
    DocumentKind {
        name: "mcp_result",
        about: "an MCP tool result: listings with string prices, numbers, nested arrays, non-ASCII text, escapes, out-of-order members and whitespace",
        build: mixed_document,
    },
    DocumentKind {
        name: "ink_events",
        about: "INK audit events with checkpoints: DIDs, timestamps, safe integers, hashes",
        build: ink_events,
    },
    DocumentKind {
        name: "numbers",
        about: "an array of numbers in every ECMAScript layout",
        build: numbers,
    },
    DocumentKind {
        name: "unicode_names",
        about: "objects with non-ASCII and astral member names out of UTF-16 order",
        build: unicode_names,
    },
    DocumentKind {
        name: "escapes",
        about: "strings dense with escapes, including surrogate pairs",
        build: escapes,
    },
    DocumentKind {
        name: "deep",
        about: "arrays and objects nested 100 levels, repeated",
        build: deep,
    },
];

/// The cases of a corpus file in the Wycheproof layout (`testGroups`, each with its `tests`),
/// named by its path under `corpus/`.
fn corpus_cases(name: &str) -> Result<Vec<serde_json::Value>, String> {
    let path = format!("{}/../corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let file: serde_json::Value =
        serde_json::from_slice(&text).map_err(|e| format!("{path}: {e}"))?;
    Ok(file["testGroups"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|group| group["tests"].as_array().into_iter().flatten())
        .cloned()
        .collect())
}

/// A verifiable-mcp 0.2.1 tool result and its server's JWK set, as JSON bytes: the first
/// valid case of corpus/vmcp/signed-responses.json, so that verification is measured on a
/// response the vectors already prove verifies.
pub fn signed_response() -> Result<(Vec<u8>, Vec<u8>, u64), String> {
    let name = "vmcp/signed-responses.json";
    let case = corpus_cases(name)?
        .into_iter()
        .find(|case| case["result"] == "valid")
        .ok_or_else(|| format!("{name}: no valid case"))?;
    let bytes = |v: &serde_json::Value| serde_json::to_vec(v).map_err(|e| e.to_string());
    let now = case["now"]
        .as_u64()
        .ok_or_else(|| format!("{name}: the valid case has no now"))?;
    Ok((bytes(&case["response"])?, bytes(&case["jwks"])?, now))
}

/// The valid cases of `corpus/ed25519/wycheproof.json` (Wycheproof's Ed25519 tests, the
/// results as published): public key, message and signature, for timing verifications that
/// must check each key afresh, as a campaign's do.
pub fn valid_ed25519_signatures() -> Result<Vec<[Vec<u8>; 3]>, String> {
    let name = "ed25519/wycheproof.json";
    let hex = |v: &serde_json::Value| -> Result<Vec<u8>, String> {
        let text = v
            .as_str()
            .ok_or_else(|| format!("{name}: {v} is not hex"))?;
        from_hex(text).map_err(|e| format!("{name}: {e}"))
    };
    corpus_cases(name)?
        .iter()
        .filter(|case| case["result"] == "valid")
        .map(|case| {
            Ok([
                hex(&case["publicKey"])?,
                hex(&case["msg"])?,
                hex(&case["sig"])?,
            ])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_document_is_valid_json_the_size_asked_and_the_same_each_time() {
        for kind in DOCUMENTS {
            for size in [1 << 10, 64 << 10, 1 << 20] {
                let doc = (kind.build)(size);
                assert!(
                    doc.len() >= size && doc.len() < size + (8 << 10),
                    "{} {}",
                    kind.name,
                    doc.len()
                );
                assert_eq!(doc, (kind.build)(size), "{}", kind.name);
                serde_json::from_slice::<serde_json::Value>(&doc).unwrap();
                canonfuzz_core::jcs::canonicalize(&doc).unwrap();
            }
        }
    }

    #[test]
    fn the_signed_response_verifies() {
        use canonfuzz_core::{jws::Jwks, vmcp};
        let (response, jwks, now) = signed_response().unwrap();
        let jwks = Jwks::parse(&jwks).unwrap();
        let clock = vmcp::Clock::at(now);
        assert!(vmcp::verify_response(&response, &jwks, clock).is_valid());
        let mut forged: serde_json::Value = serde_json::from_slice(&response).unwrap();
        forged["result"]["isError"] = true.into();
        let forged = serde_json::to_vec(&forged).unwrap();
        assert!(!vmcp::verify_response(&forged, &jwks, clock).is_valid());
    }

    #[test]
    fn lopsided_members_differ_by_the_bytes_asked_and_come_out_swapped() {
        for difference in [0, 1, 300] {
            let doc = lopsided_members(1 << 20, difference);
            let value: serde_json::Value = serde_json::from_slice(&doc).unwrap();
            let (b, a) = (value["b"].as_str().unwrap(), value["a"].as_str().unwrap());
            assert_eq!(a.len() - b.len(), difference);
            assert!(doc.len().abs_diff(1 << 20) < 32, "{}", doc.len());
            // RFC 8785 §3.2.3: "a" before "b", each string as written.
            let expected = format!("{{\"a\":\"{a}\",\"b\":\"{b}\"}}");
            let out = canonfuzz_core::jcs::canonicalize(&doc).unwrap();
            assert!(out == expected.as_bytes(), "{difference}");
        }
    }
}
