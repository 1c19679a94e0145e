//! A family added from outside canonfuzz: this program registers the toy family (`toy/`) and,
//! run with `CANONFUZZ_TOY_CLI` set, is the `canonfuzz` command line over it and the built-in
//! families. Run by `cargo test`, it checks that the registration line is all the toy family
//! needs: the nightly script plans it, a campaign finds the lax decoder's bugs and saves them,
//! and the corpus check replays them.

mod toy;

use std::path::Path;
use std::process::{Command, ExitCode, Output};

use canonfuzz_diff::families;

/// One check: what went wrong, if anything.
type Check = fn() -> Result<(), String>;

/// Set in the environment of the copies of this program that act as the command line.
const AS_CLI: &str = "CANONFUZZ_TOY_CLI";

/// The line that adds the toy family, as a program of its own would write it.
fn register() -> Result<(), String> {
    families::register(&[toy::FAMILY])
}

fn main() -> ExitCode {
    if std::env::var_os(AS_CLI).is_some() {
        if let Err(why) = register() {
            eprintln!("error: {why}");
            return ExitCode::from(2);
        }
        return canonfuzz_diff::cli::main();
    }
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let checks: [(&str, Check); 4] = [
        (
            "registration_is_refused_for_a_taken_name_or_once_the_families_are_read",
            registration,
        ),
        (
            "the_nightly_plan_gives_the_toy_family_its_share",
            nightly_plan,
        ),
        (
            "a_campaign_blames_the_lax_decoder_and_the_corpus_check_replays_its_bugs",
            campaign_and_corpus,
        ),
        (
            "a_planted_bug_in_the_toy_core_turns_a_campaign_red",
            planted,
        ),
    ];
    if std::env::args().any(|a| a == "--list") {
        for (name, _) in checks {
            println!("{name}: test");
        }
        return ExitCode::SUCCESS;
    }
    let mut failed = 0;
    for (name, check) in checks {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        match check() {
            Ok(()) => println!("test {name} ... ok"),
            Err(why) => {
                failed += 1;
                println!("test {name} ... FAILED\n{why}");
            }
        }
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// This program as the command line: `args` run over the built-in families and the toy one.
fn toy_canonfuzz(args: &[&str]) -> Result<Output, String> {
    let program = std::env::current_exe().map_err(|e| e.to_string())?;
    Command::new(program)
        .args(args)
        .env(AS_CLI, "1")
        .output()
        .map_err(|e| e.to_string())
}

/// The built-in `canonfuzz`, which does not know the toy family.
fn canonfuzz(args: &[&str]) -> Result<Output, String> {
    Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(args)
        .output()
        .map_err(|e| e.to_string())
}

/// `output`'s exit code, with what it printed when it is not `want`.
fn expect_exit(output: &Output, want: i32, what: &str) -> Result<String, String> {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if output.status.code() == Some(want) {
        return Ok(stdout);
    }
    Err(format!(
        "{what}: exit {:?}, not {want}\n--- stdout\n{stdout}\n--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    ))
}

fn registration() -> Result<(), String> {
    let clash = families::register(&[families::jcs::FAMILY]);
    if !clash.as_ref().is_err_and(|why| why.contains("clashes")) {
        return Err(format!(
            "a second jcs family was not refused as a clash: {clash:?}"
        ));
    }
    register()?;
    let names = families::names();
    if names.last() != Some(&"toy") || names.len() != families::ALL.len() + 1 {
        return Err(format!(
            "the registry is not the built-in families and then toy: {names:?}"
        ));
    }
    let again = families::register(&[toy::FAMILY]);
    if again.is_ok() {
        return Err("a family was registered after the list had been read".into());
    }
    Ok(())
}

fn nightly_plan() -> Result<(), String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/nightly");
    let plan = |toy: bool| -> Result<String, String> {
        let mut command = Command::new(&script);
        command.args(["--plan", "--budget", "10m"]);
        if toy {
            let program = std::env::current_exe().map_err(|e| e.to_string())?;
            command.env("CANONFUZZ", program).env(AS_CLI, "1");
        } else {
            command.env("CANONFUZZ", env!("CARGO_BIN_EXE_canonfuzz"));
        }
        expect_exit(
            &command.output().map_err(|e| e.to_string())?,
            0,
            "scripts/nightly --plan",
        )
    };
    // 40 % of a 600 s budget goes to the campaigns, shared by weight, at each family's rate.
    let weights: u64 = families::ALL
        .iter()
        .chain([&toy::FAMILY])
        .map(|f| u64::from(f.facts().nightly_weight))
        .sum();
    let cases =
        240 * u64::from(toy::FACTS.nightly_weight) / weights * u64::from(toy::FACTS.nightly_rate);
    let line = format!("campaign toy: {cases} cases");
    let with_toy = plan(true)?;
    if !with_toy.lines().any(|l| l == line) {
        return Err(format!("no line {line:?} in the plan:\n{with_toy}"));
    }
    let built_in = plan(false)?;
    if built_in.contains("campaign toy") {
        return Err(format!(
            "the built-in binary plans the toy family:\n{built_in}"
        ));
    }
    Ok(())
}

fn campaign_and_corpus() -> Result<(), String> {
    let out = tempfile::tempdir().map_err(|e| e.to_string())?;
    let dir = out
        .path()
        .to_str()
        .ok_or("a temporary path that is not UTF-8")?;
    let refused = canonfuzz(&["diff", "--family", "toy", "--cases", "10", "--out", dir])?;
    expect_exit(&refused, 2, "the built-in binary given --family toy")?;
    let campaign = toy_canonfuzz(&[
        "diff",
        "--family",
        "toy",
        "--cases",
        "3000",
        "--out",
        dir,
        "--summary-json",
        "-",
    ])?;
    let summary = expect_exit(&campaign, 0, "a toy campaign")?;
    if !summary.contains("radix-pairs") {
        return Err(format!(
            "the summary names no bug of radix-pairs:\n{summary}"
        ));
    }
    let saved = std::fs::read_dir(out.path().join("toy"))
        .map_err(|e| format!("no toy vectors saved: {e}"))?
        .count();
    if saved == 0 {
        return Err("the campaign saved no toy vector".into());
    }
    let check = toy_canonfuzz(&["vectors", dir])?;
    let report = expect_exit(&check, 0, "the corpus check of the saved vectors")?;
    if !report.contains(" passed, 0 failed") || report.contains("\n0 passed") {
        return Err(format!(
            "the corpus check ran no vector or failed one:\n{report}"
        ));
    }
    let lax = toy_canonfuzz(&["vectors", dir, "--impl", "radix-pairs", "--family", "toy"])?;
    expect_exit(&lax, 1, "the saved vectors run against radix-pairs")?;
    // base16ct has no bug of its own, but decodes the empty text the policy has refused.
    let other = toy_canonfuzz(&["vectors", dir, "--impl", "base16ct", "--family", "toy"])?;
    let other = expect_exit(&other, 1, "the saved vectors run against base16ct")?;
    if !other.contains(" 1 failed") || !other.contains("\"\" expected error empty") {
        return Err(format!(
            "base16ct failed other than on the empty text:\n{other}"
        ));
    }
    Ok(())
}

fn planted() -> Result<(), String> {
    let campaign = toy_canonfuzz(&[
        "diff",
        "--family",
        "toy",
        "--cases",
        "3000",
        "--plant",
        "signed-pairs",
        "-q",
    ])?;
    expect_exit(
        &campaign,
        1,
        "a toy campaign with the signed-pairs mutant planted",
    )?;
    Ok(())
}
