//! `canonfuzz`: canonicalize JSON the RFC 8785 way and run the conformance corpus.

use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use canonfuzz_core::jcs::{Canonicalizer, Options, DEFAULT_MAX_DEPTH};
use canonfuzz_diff::conformance::run_corpus;
use canonfuzz_diff::import::{import, SourceKind};
use canonfuzz_diff::manifest::Manifest;
use clap::{Parser, Subcommand};

const ABOUT: &str =
    "Test signed-JSON implementations: strict RFC 8785 canonicalization and a conformance corpus.";

const LONG_ABOUT: &str = "\
canonfuzz canonicalizes JSON exactly as RFC 8785 (JCS) requires, holds input to I-JSON \
(RFC 7493), and replays a corpus of conformance vectors against its core.

Every rejection has a stable kind: syntax, invalid_utf8, lone_surrogate, duplicate_key, \
number_out_of_range, depth_limit.";

const EXAMPLES: &str = "\
Examples:
  canonfuzz canon doc.json                 canonical bytes of one document on stdout
  echo '{\"b\":1,\"a\":1e21}' | canonfuzz canon   prints {\"a\":1e+21,\"b\":1}
  canonfuzz canon --jsonl cases.jsonl      one answer line per input line
  canonfuzz vectors                        run every vector in corpus/
  canonfuzz manifest                       re-count and re-digest corpus/ after editing it

Exit status: 0 success, 1 rejected input or failed vectors, 2 usage or I/O error.";

#[derive(Parser)]
#[command(name = "canonfuzz", version, about = ABOUT, long_about = LONG_ABOUT, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write the RFC 8785 canonical form of a JSON text to stdout.
    ///
    /// On bad input, exits 1 and prints `error[<kind>] at line L, column C: <message>` to
    /// stderr. With --jsonl, reads one JSON text per line and answers each with one line:
    /// {"ok":"<canonical text>"} or {"error":{"kind":..,"message":..,"offset":N}}; exits 0
    /// unless reading fails.
    Canon {
        /// The input file; `-` or nothing reads stdin.
        #[arg(value_name = "FILE|-")]
        file: Option<PathBuf>,
        /// One JSON text per input line, one JSON answer per output line.
        #[arg(long)]
        jsonl: bool,
        /// Deepest nesting of arrays and objects accepted.
        #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH)]
        max_depth: usize,
    },
    /// Run every conformance vector in the corpus against the core.
    ///
    /// Checks the manifest (every file listed, digests and counts current) and each file's
    /// shape, runs every test, prints each failure with its file, tcId and input, and ends
    /// with `N passed, N failed`.
    Vectors {
        /// The corpus directory.
        #[arg(value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Rebuild corpus/manifest.json from the vector files present.
    ///
    /// Run it after adding or editing a vector file; `canonfuzz vectors` refuses a manifest
    /// whose digests or counts are stale.
    Manifest {
        /// The corpus directory.
        #[arg(value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Convert published third-party test data into a vector file in the corpus.
    Import {
        /// Which kind of data PATH holds.
        #[arg(value_enum)]
        source: SourceKind,
        /// The data (not needed for rfc8785-appendix-b).
        path: Option<PathBuf>,
        /// The corpus directory to write into.
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
    },
}

/// The corpus directory: the one given, else `./corpus`, else the repository's own.
fn corpus_dir(dir: Option<PathBuf>) -> PathBuf {
    dir.unwrap_or_else(|| {
        let local = PathBuf::from("corpus");
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        if local.is_dir() || !repo.is_dir() {
            local
        } else {
            repo
        }
    })
}

fn usage_error(message: String) -> ExitCode {
    eprintln!("canonfuzz: {message}");
    ExitCode::from(2)
}

fn open_input(file: Option<&Path>) -> io::Result<Box<dyn Read>> {
    match file {
        None => Ok(Box::new(io::stdin().lock())),
        Some(p) if p == Path::new("-") => Ok(Box::new(io::stdin().lock())),
        Some(p) => Ok(Box::new(std::fs::File::open(p)?)),
    }
}

fn canon(file: Option<PathBuf>, jsonl: bool, max_depth: usize) -> ExitCode {
    let name = file
        .as_ref()
        .map_or("stdin".into(), |p| p.display().to_string());
    let mut canonicalizer = Canonicalizer::new(Options { max_depth });
    let mut reader = match open_input(file.as_deref()) {
        Ok(r) => r,
        Err(e) => return usage_error(format!("cannot open {name}: {e}")),
    };
    let stdout = io::stdout().lock();
    if jsonl {
        return match canonfuzz_diff::canon::run_jsonl(
            BufReader::with_capacity(1 << 16, reader),
            stdout,
            &mut canonicalizer,
        ) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => usage_error(format!("reading {name} or writing stdout failed: {e}")),
        };
    }
    let mut input = Vec::new();
    if let Err(e) = reader.read_to_end(&mut input) {
        return usage_error(format!("cannot read {name}: {e}"));
    }
    match canonicalizer.canonicalize(&input) {
        Ok(out) => {
            let mut stdout = stdout;
            match stdout.write_all(&out).and_then(|()| stdout.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => usage_error(format!("writing stdout failed: {e}")),
            }
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

fn vectors(dir: PathBuf) -> ExitCode {
    let report = run_corpus(&dir);
    for failure in &report.failures {
        println!("{failure}");
    }
    println!("{}", report.summary());
    if report.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Canon {
            file,
            jsonl,
            max_depth,
        } => canon(file, jsonl, max_depth),
        Command::Vectors { dir } => vectors(corpus_dir(dir)),
        Command::Manifest { dir } => {
            let dir = corpus_dir(dir);
            match Manifest::build(&dir).and_then(|m| m.write(&dir).map(|()| m)) {
                Ok(m) => {
                    let tests: usize = m.files.iter().map(|f| f.number_of_tests).sum();
                    println!(
                        "{}: {} files, {tests} tests",
                        dir.join("manifest.json").display(),
                        m.files.len()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error(e),
            }
        }
        Command::Import {
            source,
            path,
            corpus,
        } => match import(source, path.as_deref(), &corpus_dir(corpus)) {
            Ok((target, count)) => {
                println!("wrote {count} tests to {}", target.display());
                ExitCode::SUCCESS
            }
            Err(e) => usage_error(e),
        },
    }
}
