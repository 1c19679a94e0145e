//! The `jcs` fuzz target's check against the `serde_json_parse` target's work, serde_json
//! reading a document into a `Value`, natively (no coverage instrumentation): every file of
//! a directory, such as a corpus the target grew, through each in turn from memory, several
//! passes, and the core's own first pass alone. What the check costs beyond the reading
//! bounds how near the target's executions a second can come to the baseline's.
//! `cargo run --release -p canonfuzz-benches --example fuzz_check DIR [PASSES]`

use std::hint::black_box;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use canonfuzz_core::jcs::Canonicalizer;
use canonfuzz_props::properties::check_canonical;

/// Every file directly in `dir`, read.
fn inputs(dir: &Path) -> std::io::Result<Vec<Vec<u8>>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_file() {
            files.push(std::fs::read(path)?);
        }
    }
    Ok(files)
}

/// Microseconds an input of `run` over every input, `passes` times.
fn per_input(files: &[Vec<u8>], passes: u32, mut run: impl FnMut(&[u8])) -> f64 {
    let start = Instant::now();
    for _ in 0..passes {
        for file in files {
            run(black_box(file));
        }
    }
    start.elapsed().as_secs_f64() * 1e6 / (f64::from(passes) * files.len() as f64)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, passes) = match args.as_slice() {
        [dir] => (dir, Ok(20)),
        [dir, passes] => (dir, passes.parse::<u32>()),
        _ => {
            eprintln!("usage: fuzz_check DIR [PASSES]  (a directory of fuzz inputs; 20 passes)");
            return ExitCode::from(2);
        }
    };
    let Ok(passes @ 1..) = passes else {
        eprintln!("fuzz_check: PASSES is a whole number of at least 1");
        return ExitCode::from(2);
    };
    let files = match inputs(Path::new(dir)) {
        Ok(files) if !files.is_empty() => files,
        Ok(_) => {
            eprintln!("fuzz_check: {dir} holds no files; give a corpus directory");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("fuzz_check: cannot read {dir}: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(violation) = files.iter().find_map(|f| check_canonical(f).err()) {
        eprintln!("fuzz_check: an input breaks the check: {violation}");
        return ExitCode::from(1);
    }
    let check = per_input(&files, passes, |f| {
        black_box(check_canonical(f).is_ok());
    });
    let mut canonicalizer = Canonicalizer::default();
    let mut out = Vec::new();
    let core = per_input(&files, passes, |f| {
        out.clear();
        black_box(canonicalizer.canonicalize_into(f, &mut out).is_ok());
    });
    let read = per_input(&files, passes, |f| {
        black_box(serde_json::from_slice::<serde_json::Value>(f).is_ok());
    });
    println!(
        "{} inputs, {passes} passes: the check {check:.2} µs an input (the core's first pass \
         alone {core:.2} µs), serde_json's reading {read:.2} µs; the reading is {:.2} of the \
         check",
        files.len(),
        read / check
    );
    ExitCode::SUCCESS
}
