//! How many times faster the core canonicalizes each document of the set than every other
//! contender, measured in pairs (`canonfuzz_benches::paired`): the core and the others take
//! turns in short slices, so that both sides of a ratio run under the same load of a shared
//! machine. Prints the median ratio and its interquartile range over the rounds, and writes
//! them to `target/ratios.json` for `scripts/bench-table`.
//!
//! `cargo bench -p canonfuzz-benches --bench ratios -- [--rounds N] [--slice-ms MS]
//! [--out PATH] [FILTER ...]`, a filter keeping the groups (`mcp_result_1MiB`) that contain it
//! and a relative `--out` taken from the workspace's root. The record says when the run
//! started, so that runs kept from several hours or nights can be told apart.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use canonfuzz_benches::canonicalizers::{contenders, CORE};
use canonfuzz_benches::paired::{measure, Rounds, Spread};
use canonfuzz_benches::{DOCUMENTS, SIZES};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};

const USAGE: &str = "usage: cargo bench -p canonfuzz-benches --bench ratios -- \
                     [--rounds N] [--slice-ms MS] [--out PATH] [FILTER ...]";

/// Criterion's options that take a value, and those that do not: `cargo bench -p
/// canonfuzz-benches -- OPTIONS` passes them here too.
const CRITERION_OPTIONS: [&str; 12] = [
    "--warm-up-time",
    "--measurement-time",
    "--sample-size",
    "--nresamples",
    "--noise-threshold",
    "--confidence-level",
    "--significance-level",
    "--save-baseline",
    "--baseline",
    "--baseline-lenient",
    "--profile-time",
    "--output-format",
];
const CRITERION_SWITCHES: [&str; 5] = [
    "--noplot",
    "--quick",
    "--discard-baseline",
    "--verbose",
    "--quiet",
];

struct Options {
    rounds: usize,
    slice: Duration,
    out: String,
    /// Off in a test run (`--test`), which only checks that every group runs.
    write: bool,
    filters: Vec<String>,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        rounds: 15,
        slice: Duration::from_millis(40),
        out: default_out(),
        write: true,
        filters: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |flag: &str| {
            args.next()
                .and_then(|v| v.parse::<u64>().ok())
                .filter(|&v| v > 0)
                .ok_or(format!("{flag} needs a whole number above 0"))
        };
        match arg.as_str() {
            // cargo bench passes --bench to every bench binary, and the options after `--`
            // to all of them: criterion's are for the other benches.
            "--bench" => {}
            "--test" => {
                (options.rounds, options.slice, options.write) =
                    (1, Duration::from_millis(1), false)
            }
            flag if CRITERION_SWITCHES.contains(&flag) => {}
            flag if CRITERION_OPTIONS.contains(&flag) => {
                args.next();
            }
            "--rounds" => options.rounds = number("--rounds")? as usize,
            "--slice-ms" => options.slice = Duration::from_millis(number("--slice-ms")?),
            "--out" => options.out = from_workspace(&args.next().ok_or("--out needs a path")?),
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            filter => options.filters.push(filter.to_string()),
        }
    }
    if options.write {
        let folder = Path::new(&options.out).parent().unwrap_or(Path::new("."));
        if !folder.is_dir() {
            return Err(format!(
                "cannot write {}: the folder {} does not exist; create it or pass another --out",
                options.out,
                folder.display()
            ));
        }
    }
    Ok(options)
}

/// `path` taken from the workspace's root when relative: cargo runs a bench in its package's
/// folder, but a path typed beside `cargo bench` at the root means one from there.
fn from_workspace(path: &str) -> String {
    match workspace() {
        Some(root) if Path::new(path).is_relative() => root.join(path).display().to_string(),
        _ => path.to_string(),
    }
}

/// The workspace's root, the benches package's parent.
fn workspace() -> Option<&'static Path> {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent()
}

/// `ratios.json` in the target directory: `CARGO_TARGET_DIR` when set, else the workspace's.
fn default_out() -> String {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| workspace().map(|w| w.join("target")))
        .unwrap_or_else(|| PathBuf::from("target"));
    target.join("ratios.json").display().to_string()
}

fn summary(values: &[f64]) -> Value {
    let spread = Spread::of(values);
    json!({
        "median": spread.median,
        "q1": spread.q1,
        "q3": spread.q3,
        "min": spread.min,
        "max": spread.max,
    })
}

fn run(options: &Options) -> Result<(), String> {
    let mut contenders = contenders();
    if contenders.first().map(|c| c.name) != Some(CORE) {
        return Err("the core must be the first contender".into());
    }
    let groups: Vec<_> = DOCUMENTS
        .iter()
        .flat_map(|kind| SIZES.iter().map(move |&(name, size)| (kind, name, size)))
        .filter(|(kind, name, _)| {
            let group = format!("{}_{name}", kind.name);
            options.filters.is_empty() || options.filters.iter().any(|f| group.contains(f))
        })
        .collect();
    if groups.is_empty() {
        return Err(format!("no group matches {:?}", options.filters));
    }
    let bar = ProgressBar::new((groups.len() * options.rounds) as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:<20} [{wide_bar}] {pos}/{len} rounds  {per_sec}  ETA {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let started = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut results = Vec::new();
    let mut table = Vec::new();
    for (kind, size_name, size) in groups {
        let doc = (kind.build)(size);
        bar.set_message(format!("{}_{size_name}", kind.name));
        let Rounds {
            core: core_times,
            ratios,
        } = measure(&mut contenders, &doc, options.rounds, options.slice, || {
            bar.inc(1)
        })?;
        let mib = doc.len() as f64 / f64::from(1 << 20);
        let speeds: Vec<f64> = core_times.iter().map(|t| mib / t).collect();
        let mut against = Vec::new();
        for (contender, values) in contenders.iter().skip(1).zip(&ratios) {
            let mut entry = summary(values);
            entry["name"] = json!(contender.name);
            against.push(entry);
        }
        let core = summary(&speeds);
        table.push((
            kind.name,
            size_name,
            core["median"].as_f64(),
            against.clone(),
        ));
        results.push(json!({
            "document": kind.name,
            "size": size_name,
            "bytes": doc.len(),
            "core_mib_s": core,
            "against": against,
        }));
    }
    bar.finish_and_clear();
    print_table(&table);
    let record = json!({
        "started_unix": started,
        "rounds": options.rounds,
        "slice_ms": options.slice.as_millis() as u64,
        "results": results,
    });
    if !options.write {
        return Ok(());
    }
    let text = serde_json::to_string_pretty(&record).map_err(|e| e.to_string())?;
    std::fs::write(&options.out, text + "\n")
        .map_err(|e| format!("cannot write {}: {e}; pass another --out", options.out))?;
    println!("\nwritten to {}", options.out);
    Ok(())
}

/// The core's median speed and each contender's median ratio, its interquartile range below:
/// eighty columns for the four contenders.
fn print_table(table: &[(&str, &str, Option<f64>, Vec<Value>)]) {
    let Some((_, _, _, first)) = table.first() else {
        return;
    };
    let short = |name: &str| name.chars().take(12).collect::<String>();
    print!("{:<20} {:>6}", "median ratio", "MiB/s");
    for entry in first {
        print!(" {:>12}", short(entry["name"].as_str().unwrap_or("")));
    }
    println!();
    for (doc, size, speed, against) in table {
        print!(
            "{:<20} {:>6.0}",
            format!("{doc}_{size}"),
            speed.unwrap_or(f64::NAN)
        );
        for entry in against {
            print!(" {:>11.2}×", entry["median"].as_f64().unwrap_or(f64::NAN));
        }
        println!();
        print!("{:<27}", "");
        for entry in against {
            let q = |k: &str| entry[k].as_f64().unwrap_or(f64::NAN);
            print!(" {:>12}", format!("{:.1}-{:.1}", q("q1"), q("q3")));
        }
        println!();
    }
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(e) => {
            eprintln!("ratios: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ratios: {e}");
            ExitCode::from(2)
        }
    }
}
