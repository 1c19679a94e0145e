//! `scripts/time-to-bug`, the harness's headline speed: it plants every mutant of a family
//! and hunts the corpus's known bugs with the real command, and says which it found and how
//! fast.

mod common;

use std::path::Path;
use std::process::Command;

use common::text;

fn time_to_bug(args: &[&str]) -> std::process::Output {
    Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/time-to-bug"))
        .arg("--canonfuzz")
        .arg(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(args)
        .output()
        .expect("python3 runs scripts/time-to-bug")
}

#[test]
fn it_finds_every_mutant_of_a_family_and_says_how_fast() {
    let output = time_to_bug(&["--seeds", "1", "--cases", "2000", "--compare", "merkle"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    let mutants = std::process::Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(["list", "mutants", "--family", "merkle"])
        .output()
        .unwrap();
    let planted = text(&mutants.stdout).lines().count();
    assert!(planted > 0);
    for mode in ["paced", "every case"] {
        let row = out
            .lines()
            .find(|l| l.starts_with(&format!("| merkle | mutants | {mode} |")))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(row.contains(&format!(" {planted}/{planted} ")), "{row}");
        assert!(
            out.contains(&format!(
                "- {mode}: {planted} of {planted} mutant runs found"
            )),
            "{out}"
        );
    }
    assert!(
        out.contains("| merkle | third-party bugs | paced |"),
        "{out}"
    );
}

#[test]
fn a_mutant_no_campaign_finds_fails_the_run() {
    // One case cannot show every mutant: the run says which it missed and exits 1.
    let output = time_to_bug(&["--seeds", "1", "--cases", "1", "jcs"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(out.contains("Not found in every run"), "{out}");
    assert!(out.contains("- jcs, paced: "), "{out}");
}

#[test]
fn an_unknown_family_is_a_usage_error() {
    let output = time_to_bug(&["nonesuch"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("no family nonesuch"));
}
