//! `scripts/campaign-table`, the README's table of campaign speeds: its figures are each
//! campaign summary's, the first round's with the others' in brackets; a campaign where the
//! core diverged is marked and exits 1, one that failed stops the table with exit 2; and it
//! reads the summaries the real command writes.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

use common::text;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A campaign summary with the figures the table reads, of 500 cases from seed 7.
fn summary(rate: f64, end_to_end: f64, cpu: &[(&str, f64)], findings: &[bool]) -> Value {
    json!({
        "cases": 500,
        "seed": 7,
        "cases_per_s": rate,
        "end_to_end_cases_per_s": end_to_end,
        "cases_cpu_s": cpu.iter().map(|(_, s)| s).sum::<f64>(),
        "implementations": cpu.iter().map(|(name, s)| json!({"name": name, "cpu_s": s})).collect::<Vec<_>>(),
        "findings": findings.iter().map(|new| json!({"new": new})).collect::<Vec<_>>(),
    })
}

/// scripts/campaign-table run with `args` against the stand-in canonfuzz, which answers as
/// `plan` says (family → its runs in order); the output and the arguments each family's
/// last run was given.
fn table(args: &[&str], plan: Value) -> (Output, tempfile::TempDir) {
    let state = tempfile::tempdir().unwrap();
    let output = Command::new("python3")
        .arg(repo().join("scripts/campaign-table"))
        .arg("--canonfuzz")
        .arg(repo().join("diff/tests/fixtures/fake_canonfuzz.py"))
        .args(args)
        .env("FAKE_STATE", state.path())
        .env("FAKE_PLAN", plan.to_string())
        .output()
        .expect("python3 runs scripts/campaign-table");
    (output, state)
}

/// The table's rows, each as its cells, by family.
fn rows(output: &Output) -> Vec<Vec<String>> {
    text(&output.stdout)
        .lines()
        .skip_while(|line| !line.starts_with("| family"))
        .skip(2)
        .map(|line| {
            line.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn each_row_holds_the_first_rounds_figures_and_the_others_in_brackets() {
    let ok = |s: Value| json!({"status": 0, "summary": s});
    let plan = json!({
        "alpha": [
            ok(summary(20041.4, 20028.0, &[("slow", 2.1), ("core", 0.5), ("slower", 5.0)], &[true, false])),
            ok(summary(15386.0, 15379.0, &[("slow", 2.8), ("core", 0.6), ("slower", 7.0)], &[false, false])),
            ok(summary(17000.0, 16990.0, &[("slow", 2.5), ("core", 0.4), ("slower", 6.0)], &[false, false])),
        ],
        "gamma": [
            ok(summary(1093.0, 1092.6, &[("noble", 131.2)], &[])),
            ok(summary(1167.0, 1166.9, &[("noble", 122.0)], &[])),
            ok(summary(1100.0, 1099.9, &[("noble", 125.0)], &[])),
        ],
    });
    let (output, state) = table(&["--rounds", "3", "--cases", "500", "alpha", "gamma"], plan);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let rows = rows(&output);
    assert_eq!(rows.len(), 2, "{}", text(&output.stdout));
    assert_eq!(
        rows[0][..4],
        [
            "alpha",
            "20,041 (15,386–17,000)",
            "20,028 (15,379–16,990)",
            "2 (1) (then 2 (0))"
        ]
    );
    // The costliest two of the first round, with the same two's cost in the others.
    assert_eq!(
        rows[0][5],
        "7.6 (8.9–10.4) (slower 5.0 (6.0–7.0), slow 2.1 (2.5–2.8))"
    );
    assert_eq!(
        rows[1][..4],
        [
            "gamma",
            "1,093 (1,100–1,167)",
            "1,093 (1,100–1,167)",
            "0 (0)"
        ]
    );
    assert_eq!(
        rows[1][5],
        "131.2 (122.0–125.0) (noble 131.2 (122.0–125.0))"
    );
    // Every campaign ran as the table says: with its family, no vectors saved, the cases asked.
    let args = std::fs::read_to_string(state.path().join("gamma.args")).unwrap();
    assert!(
        args.starts_with("diff --family gamma --no-save -q --summary-json "),
        "{args}"
    );
    assert!(args.ends_with(" --cases 500"), "{args}");
    let head = text(&output.stdout);
    assert!(head.contains("500 cases a campaign, seed 7"), "{head}");
    assert!(
        head.contains(" --rounds 3 --cases 500 alpha gamma`"),
        "{head}"
    );
    // Progress: a line a campaign, each naming its round and family.
    let progress = text(&output.stderr);
    assert!(progress.contains("[6/6] round 3, gamma"), "{progress}");
}

#[test]
fn a_divergence_is_marked_and_exits_1_and_a_failed_campaign_stops_the_table_with_2() {
    let run = |status: i32| json!({"status": status, "summary": summary(100.0, 90.0, &[("x", 1.0)], &[false])});
    let plan = json!({"alpha": [run(0), run(1)], "beta": [run(0), run(0)]});
    let (output, _) = table(&["alpha", "beta"], plan);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let names: Vec<String> = rows(&output).into_iter().map(|r| r[0].clone()).collect();
    assert_eq!(names, ["alpha (core diverged)", "beta"]);
    // Without families named, every family `canonfuzz list families` lists runs: gamma has
    // no planned run, so the stand-in fails on it, and the table stops there.
    let failed = json!({"status": 2, "stderr": "error[harness]: the worker beta-py exited"});
    let plan = json!({"alpha": [run(0)], "beta": [failed]});
    let (output, state) = table(&["--rounds", "1"], plan);
    assert_eq!(output.status.code(), Some(2));
    let said = text(&output.stderr);
    assert!(said.contains("the beta campaign failed (exit 2)"), "{said}");
    assert!(said.contains("the worker beta-py exited"), "{said}");
    assert!(rows(&output).is_empty());
    assert!(!state.path().join("gamma.args").exists());
    // So is one that exits 2 after writing its summary (a group that could not vote), and
    // one that exits 0 with no readable summary.
    let (output, _) = table(&["alpha"], json!({"alpha": [run(2)]}));
    assert_eq!(output.status.code(), Some(2));
    assert!(rows(&output).is_empty());
    let (output, _) = table(&["alpha"], json!({"alpha": [{"status": 0}]}));
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("its summary"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn the_harness_is_charged_the_commands_cpu_less_the_implementations() {
    // The stand-in spends half a CPU second and says its implementations took 0.2 of it.
    let plan = json!({"alpha": [{
        "status": 0, "burn": 0.5, "summary": summary(100.0, 90.0, &[("x", 0.2)], &[]),
    }]});
    let (output, _) = table(&["--rounds", "1", "alpha"], plan);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let harness: f64 = rows(&output)[0][6].parse().unwrap();
    assert!((0.25..=0.45).contains(&harness), "{harness}");
}

#[test]
fn a_family_the_command_does_not_register_is_a_usage_error() {
    let (output, state) = table(&["alpha", "delta"], json!({}));
    assert_eq!(output.status.code(), Some(2));
    let said = text(&output.stderr);
    assert!(
        said.contains("no family 'delta'; the registered ones: alpha, beta, gamma"),
        "{said}"
    );
    assert!(std::fs::read_dir(state.path()).unwrap().next().is_none());
    let (output, _) = table(&["--rounds", "0"], json!({}));
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--rounds takes a whole number"));
}

#[test]
fn it_reads_the_summary_the_real_command_writes() {
    let output = Command::new("python3")
        .arg(repo().join("scripts/campaign-table"))
        .arg("--canonfuzz")
        .arg(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(["--rounds", "1", "--cases", "300", "merkle"])
        .output()
        .expect("python3 runs scripts/campaign-table");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let head = text(&output.stdout);
    assert!(head.contains("; 300 cases a campaign, seed 1\n"), "{head}");
    let rows = rows(&output);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row[0], "merkle");
    assert_eq!(
        row[3], "1 (0)",
        "the repository corpus's one Merkle finding, known"
    );
    for (cell, what) in [(&row[1], "cases/s"), (&row[2], "end to end")] {
        let rate: f64 = cell.replace(',', "").parse().unwrap_or(0.0);
        assert!(rate > 0.0, "{what}: {cell}");
    }
    assert!(row[5].contains("pymerkle"), "{}", row[5]);
}

#[test]
fn the_least_busy_worker_behind_is_named_with_its_share_of_the_run() {
    let paced = |busy: f64, passed: u64| {
        let mut s = summary(1000.0, 900.0, &[("core", 1.0), ("noble", 9.0)], &[]);
        s["elapsed_s"] = json!(10.0);
        s["implementations"][1]["pace"] =
            json!({"escalated": 5, "sampled": 5, "passed": passed, "busy": busy});
        json!({"status": 0, "summary": s})
    };
    let plan = json!({"alpha": [paced(9.4, 80), paced(9.9, 0)]});
    let (output, _state) = table(&["--rounds", "2", "alpha"], plan);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let rows = rows(&output);
    // The first round's noble fell behind and had a round in flight 94% of the run; in the
    // second it answered every case.
    assert_eq!(rows[0][7], "94% noble (kept up)");
}
