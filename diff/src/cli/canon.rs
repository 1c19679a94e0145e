//! `canon`: the canonical bytes of one document, or of each line.

use std::io::{self, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::input;
use canonfuzz_core::jcs::{Canonicalizer, Options};

use crate::cli::exit::{print_bytes, read_or_exit, reader_gone, usage_error, Failure};
use crate::cli::inputs::open_input;
use canonfuzz_core::jcs::DEFAULT_MAX_DEPTH;

/// The arguments of `canonfuzz canon`.
#[derive(clap::Args)]
pub(crate) struct CanonArgs {
    /// The input file; `-` or nothing reads stdin.
    #[arg(value_name = "FILE|-")]
    pub(crate) file: Option<PathBuf>,
    /// One JSON text per input line, one JSON answer per output line.
    #[arg(long)]
    pub(crate) jsonl: bool,
    /// Deepest nesting of arrays and objects accepted.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH)]
    pub(crate) max_depth: usize,
}

pub(crate) fn canon(file: Option<PathBuf>, jsonl: bool, max_depth: usize) -> ExitCode {
    let name = file
        .as_ref()
        .map_or("stdin".into(), |p| p.display().to_string());
    let mut canonicalizer = Canonicalizer::new(Options { max_depth });
    let stdout = io::stdout().lock();
    if jsonl {
        let reader = match open_input(file.as_deref()) {
            Ok(r) => r,
            Err(e) => return usage_error(format!("cannot open {name}: {e}")),
        };
        return match crate::canon::run_jsonl(
            BufReader::with_capacity(1 << 16, reader),
            stdout,
            &mut canonicalizer,
            input::limit(),
        ) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) if reader_gone(&e) => ExitCode::SUCCESS,
            Err(e) => usage_error(format!("reading {name} or writing stdout failed: {e}")),
        };
    }
    let input = match read_or_exit(file.as_deref()) {
        Ok(b) => b,
        Err(code) => return code,
    };
    match canonicalizer.canonicalize(&input) {
        Ok(out) => {
            drop(stdout);
            print_bytes(&out, "the canonical form")
        }
        Err(e) => Failure::Rejected(Some(e.to_string())).exit(),
    }
}
