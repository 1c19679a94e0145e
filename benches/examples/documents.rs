//! Writes the benchmark documents at 1 MiB into a directory (default `target/bench-documents`),
//! so other tools — `canonfuzz canon`, `/usr/bin/time -v`, other implementations — can be run
//! on exactly the bytes the benches measure.

fn main() -> std::io::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/bench-documents".to_string());
    std::fs::create_dir_all(&dir)?;
    for kind in canonfuzz_benches::DOCUMENTS {
        let path = std::path::Path::new(&dir).join(format!("{}_1MiB.json", kind.name));
        std::fs::write(&path, (kind.build)(1 << 20))?;
        println!("{}", path.display());
    }
    Ok(())
}
