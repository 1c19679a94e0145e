//! The `jcs` fuzz target's check against the `serde_json_parse` target's work, serde_json
//! reading a document into a `Value`, natively (no coverage instrumentation): every file of
//! a directory, such as a corpus the target grew, through each in turn from memory, several
//! passes, and the core's own first pass alone. What the check costs beyond the reading
//! bounds how near the target's executions a second can come to the baseline's. Then the
//! core's pass and the reading again, by the core's answer (accepted, or the kind of error),
//! so that the inputs where the core does more than serde_json are named.
//! `cargo run --release -p canonfuzz-benches --example fuzz_check DIR [PASSES]`

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use canonfuzz_core::jcs::Canonicalizer;
use canonfuzz_props::jcs::properties::check_canonical;

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
    let mut core_pass = |f: &[u8]| {
        out.clear();
        black_box(canonicalizer.canonicalize_into(f, &mut out).is_ok());
    };
    let core = per_input(&files, passes, &mut core_pass);
    let read = per_input(&files, passes, serde_reading);
    println!(
        "{} inputs, {passes} passes: the check {check:.2} µs an input (the core's first pass \
         alone {core:.2} µs), serde_json's reading {read:.2} µs; the reading is {:.2} of the \
         check",
        files.len(),
        read / check
    );
    print_by_outcome(&files, passes, &mut core_pass);
    ExitCode::SUCCESS
}

/// serde_json reading a document into a `Value`: the `serde_json_parse` target's work.
fn serde_reading(input: &[u8]) {
    black_box(serde_json::from_slice::<serde_json::Value>(input).is_ok());
}

/// The core's pass and serde_json's reading over the inputs of each answer the core gives:
/// how many, their bytes, the microseconds of each in all, and the part of the core's excess
/// over the reading that the group accounts for.
fn print_by_outcome(files: &[Vec<u8>], passes: u32, core_pass: &mut impl FnMut(&[u8])) {
    let mut groups: BTreeMap<&str, Vec<Vec<u8>>> = BTreeMap::new();
    for file in files {
        let outcome = canonfuzz_core::jcs::canonicalize(file)
            .map_or_else(|e| e.kind().as_str(), |_| "accepted");
        groups.entry(outcome).or_default().push(file.clone());
    }
    let totals: Vec<(&str, usize, usize, f64, f64)> = groups
        .iter()
        .map(|(outcome, inputs)| {
            let count = inputs.len();
            let whole = |per: f64| per * count as f64;
            let core = whole(per_input(inputs, passes, &mut *core_pass));
            let read = whole(per_input(inputs, passes, serde_reading));
            (
                *outcome,
                count,
                inputs.iter().map(Vec::len).sum(),
                core,
                read,
            )
        })
        .collect();
    let excess: f64 = totals.iter().map(|t| t.3 - t.4).sum();
    println!(
        "\nby the core's answer, µs over all of a group's inputs (one pass):\n{:<20} {:>7} {:>11} {:>9} {:>9} {:>7}",
        "answer", "inputs", "bytes", "core", "serde", "excess"
    );
    for (outcome, count, bytes, core, read) in totals {
        println!(
            "{outcome:<20} {count:>7} {bytes:>11} {core:>9.0} {read:>9.0} {:>6.0}%",
            100.0 * (core - read) / excess
        );
    }
}
