//! Benchmark inputs, generated deterministically so that every run and every machine measures
//! the same bytes.

/// A small deterministic generator (xorshift64*), enough to vary documents reproducibly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: [&str; 12] = [
    "Escudo", "Ct", "Dublin", "listing", "garage", "Ålesund", "café", "straße", "東京", "view",
    "pool", "😀",
];

/// A mixed document of about `target` bytes shaped like an MCP tool result: listings with
/// string prices, integer and fractional numbers, nested arrays, non-ASCII text and escapes,
/// written with members out of canonical order and some insignificant whitespace.
pub fn mixed_document(target: usize) -> Vec<u8> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
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
            rng.next() >> 11,
            rng.below(2) == 0,
        ));
    }
    out.push_str("], \"next_cursor\": null}, \"isError\": false}");
    out.into_bytes()
}
