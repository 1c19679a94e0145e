//! `diff` and `selftest`: a differential campaign, and the proof that one can turn red.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use canonfuzz_diff::campaign::{self, Config, Status};
use canonfuzz_diff::family::Family;
use canonfuzz_diff::{selftest, summary};

use crate::exit::{corpus_dir, rejected, usage_error};

pub(crate) fn diff(
    config: &Config,
    summary_json: Option<&Path>,
    detail: summary::Detail,
    only: Option<&str>,
) -> ExitCode {
    // The first Ctrl-C ends the campaign with a summary of what ran; a second ends the process.
    let _ = ctrlc::set_handler(|| {
        if campaign::INTERRUPTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
            std::process::exit(130);
        }
        eprintln!("\ncanonfuzz: interrupted; finishing the summary (Ctrl-C again to quit now)");
    });
    let summary = match campaign::run(config) {
        Ok(s) => s,
        Err(e) => return usage_error(format!("the campaign failed: {e}")),
    };
    let to_stdout = summary_json.is_some_and(|p| p == Path::new("-"));
    let human = |text: &str| {
        if to_stdout {
            eprint!("{text}");
        } else {
            print!("{text}");
        }
    };
    let terminal = if to_stdout {
        std::io::stderr().is_terminal()
    } else {
        std::io::stdout().is_terminal()
    };
    human(&summary::render(
        &summary,
        detail,
        summary::Paint::for_terminal(terminal),
        only,
    ));
    let mut json = summary::to_json(&summary);
    match canonfuzz_diff::harness::family_table(config.family, &config.impls, &corpus_dir(None)) {
        Some(Ok((table, _))) => {
            human(&table.table.to_markdown());
            json["verifier_table"] = table.json;
        }
        Some(Err(e)) => eprintln!("WARNING: no table over the corpus: {e}"),
        None => {}
    }
    if let Some(path) = summary_json {
        let mut text = serde_json::to_vec_pretty(&json).unwrap_or_default();
        text.push(b'\n');
        let written = if to_stdout {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(&text).and_then(|()| stdout.flush()) {
                Err(e) if !crate::exit::reader_gone(&e) => Err(format!("stdout: {e}")),
                _ => Ok(()),
            }
        } else {
            canonfuzz_diff::vector::write_atomically(path, &text)
        };
        if let Err(e) = written {
            return usage_error(format!("cannot write the summary JSON: {e}"));
        }
    }
    let status = summary.status();
    match status {
        Status::Clean | Status::CoreDiverges => {}
        Status::Unjudged => eprintln!(
            "canonfuzz: {}",
            summary::harness_failure(&summary)
                .unwrap_or_else(|| "the harness could not judge every case".to_string())
        ),
        // A campaign that did not run its cases has not shown the core agrees.
        Status::Interrupted => {
            eprintln!("canonfuzz: the campaign was interrupted before it ran every case")
        }
    }
    ExitCode::from(status.exit_code())
}

/// Plants every mutant of the chosen families and scores the campaign on them.
pub(crate) fn selftest(json: bool, seed: u64, families: &[String]) -> ExitCode {
    let chosen: Result<Vec<Family>, String> = if families.is_empty() {
        Ok(canonfuzz_diff::families::all().to_vec())
    } else {
        families
            .iter()
            .map(|name| canonfuzz_diff::families::named(name))
            .collect()
    };
    let chosen = match chosen {
        Ok(chosen) => chosen,
        Err(e) => return usage_error(e),
    };
    match selftest::run(seed, &chosen, std::io::stderr().is_terminal()) {
        Ok(run) => {
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&run.to_json()).unwrap_or_default()
                );
            } else {
                print!("{}", run.render());
            }
            if !run.complete() {
                usage_error("error[quorum]: the self-test needs every implementation of each family it runs; install the missing ones (see the README's set-up) and run it again".to_string())
            } else if run.passed() {
                ExitCode::SUCCESS
            } else {
                rejected()
            }
        }
        Err(e) => usage_error(format!("the self-test failed to run: {e}")),
    }
}
