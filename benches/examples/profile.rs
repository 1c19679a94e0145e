//! Canonicalizes one benchmark document many times with the core, for profilers:
//! `valgrind --tool=callgrind target/release/examples/profile numbers 1048576 5`.

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "mcp_result".to_string());
    let size = args.next().and_then(|s| s.parse().ok()).unwrap_or(1 << 20);
    let repeats: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let Some(kind) = canonfuzz_benches::DOCUMENTS.iter().find(|k| k.name == name) else {
        eprintln!("no document named {name}");
        std::process::exit(2);
    };
    let doc = (kind.build)(size);
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
