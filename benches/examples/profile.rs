//! Canonicalizes one benchmark document many times with the core, for profilers:
//! `valgrind --tool=callgrind target/release/examples/profile numbers 1048576 5`. A name that
//! is not one of the set's is read as a file, whose size argument is then ignored:
//! `target/release/examples/profile doc.json 0 300`.

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "mcp_result".to_string());
    let size = args.next().and_then(|s| s.parse().ok()).unwrap_or(1 << 20);
    let repeats: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let doc = match canonfuzz_benches::DOCUMENTS.iter().find(|k| k.name == name) {
        Some(kind) => (kind.build)(size),
        None => std::fs::read(&name).unwrap_or_else(|e| {
            eprintln!("{name}: no document of the benchmark set has this name, and as a file: {e}");
            std::process::exit(2);
        }),
    };
    let mut canonicalizer = canonfuzz_core::jcs::Canonicalizer::default();
    let mut out = Vec::with_capacity(doc.len());
    for _ in 0..repeats {
        out.clear();
        if let Err(e) = canonicalizer.canonicalize_into(&doc, &mut out) {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
    println!("{} bytes in, {} bytes out", doc.len(), out.len());
}
