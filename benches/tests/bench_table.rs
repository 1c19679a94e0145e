//! `scripts/bench-table`'s target check over several paired runs: a target is met in a run
//! only when its lowest median reaches the bound and the run measured every cell it covers;
//! and `--also`, a second run's criterion figure in brackets after the first's.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

/// A paired record holding only the MCP result's cells against serde_jcs, at `sizes`, each
/// with median `median`.
fn record(started: u64, median: f64, sizes: &[&str]) -> Value {
    let results: Vec<Value> = sizes
        .iter()
        .map(|size| {
            let spread =
                json!({"median": median, "q1": median, "q3": median, "min": median, "max": median});
            let mut entry = spread.clone();
            entry["name"] = json!("serde_jcs");
            json!({
                "document": "mcp_result",
                "size": size,
                "bytes": 1,
                "core_mib_s": spread,
                "against": [entry],
            })
        })
        .collect();
    json!({"started_unix": started, "rounds": 1, "slice_ms": 1, "results": results})
}

/// The targets table `scripts/bench-table` prints for `records`, as its rows by target name.
fn target_rows(records: &[Value]) -> Vec<(String, Vec<String>)> {
    let dir = tempfile::tempdir().expect("temporary folder");
    let mut command = Command::new("python3");
    command
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/bench-table"))
        .arg("-");
    for (i, record) in records.iter().enumerate() {
        let path = dir.path().join(format!("run{i}.json"));
        std::fs::write(&path, record.to_string()).expect("write a record");
        command.arg(path);
    }
    let output = command.output().expect("python3 runs scripts/bench-table");
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8 tables");
    text.lines()
        .skip_while(|line| !line.starts_with("| target"))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<String> = line
                .trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect();
            (cells[0].clone(), cells[1..].to_vec())
        })
        .collect()
}

fn row(rows: &[(String, Vec<String>)], name: &str) -> Vec<String> {
    rows.iter()
        .find(|(n, _)| n == name)
        .map(|(_, cells)| cells.clone())
        .unwrap_or_else(|| panic!("no row {name} in {rows:?}"))
}

const ALL: [&str; 3] = ["1KiB", "64KiB", "1MiB"];

#[test]
fn a_target_is_met_in_the_runs_that_reach_its_bound_over_every_cell() {
    let rows = target_rows(&[
        record(1_764_633_600, 12.0, &ALL),
        record(1_764_637_200, 11.99, &ALL),
        record(1_764_640_800, 20.0, &["1MiB"]),
    ]);
    // 12× is the bound itself, so met; just below is not.
    assert_eq!(
        row(&rows, "mcp_result 1 MiB ≥ 12× serde_jcs"),
        [
            "12.00× (12.0–12.0)",
            "11.99× (12.0–12.0)",
            "20.00× (20.0–20.0)",
            "2 of 3"
        ]
    );
    // The third run measured one size of three: well above 8×, yet not every size.
    assert_eq!(
        row(&rows, "mcp_result ≥ 8× serde_jcs at every size"),
        [
            "12.00× (12.0–12.0)",
            "11.99× (12.0–12.0)",
            "20.00× (20.0–20.0, 1 of 3 sizes)",
            "2 of 3"
        ]
    );
    // No run measured the others, so they have no row.
    assert!(rows.iter().all(|(name, _)| name.starts_with("mcp_result")));
}

#[test]
fn a_single_run_says_yes_or_no_and_columns_are_labelled_by_start_time() {
    let rows = target_rows(&[record(1_764_633_600, 7.5, &ALL)]);
    assert_eq!(
        row(&rows, "mcp_result ≥ 8× serde_jcs at every size"),
        ["7.50× (7.5–7.5)", "no"]
    );
    let dir = tempfile::tempdir().expect("temporary folder");
    let path = dir.path().join("r.json");
    std::fs::write(&path, record(1_764_633_600, 9.0, &ALL).to_string()).expect("write");
    let output = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/bench-table"))
        .arg("-")
        .args([&path, &path])
        .output()
        .expect("python3 runs scripts/bench-table");
    let text = String::from_utf8_lossy(&output.stdout);
    // 1_764_633_600 is 2025-12-02 00:00 UTC.
    assert!(
        text.contains("| target | 2025-12-02 00:00 | 2025-12-02 00:00 | met in |"),
        "{text}"
    );
}

#[test]
fn no_results_at_all_is_a_usage_failure() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let output = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/bench-table"))
        .arg("-")
        .arg(dir.path().join("missing.json"))
        .output()
        .expect("python3 runs scripts/bench-table");
    assert_eq!(output.status.code(), Some(2));
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(errors.contains("missing.json"), "{errors}");
    assert!(
        errors.contains("cargo bench -p canonfuzz-benches"),
        "{errors}"
    );
}

/// Writes criterion's files for one benchmark under `root`: its median in ns and its
/// throughput, as criterion records them.
fn criterion_result(root: &Path, group: &str, function: &str, median_ns: f64, throughput: Value) {
    let dir = root.join(group).join(function).join("new");
    std::fs::create_dir_all(&dir).expect("criterion folder");
    let estimates = json!({"median": {"point_estimate": median_ns}});
    std::fs::write(dir.join("estimates.json"), estimates.to_string()).expect("estimates");
    let benchmark = json!({"throughput": throughput});
    std::fs::write(dir.join("benchmark.json"), benchmark.to_string()).expect("benchmark");
}

#[test]
fn a_second_run_is_shown_in_brackets_after_each_criterion_figure() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    // 1 MiB in 1 ms is 1000 MiB/s, in 2 ms 500; one element in 100 µs is 10,000 a second.
    let mib = json!({"Bytes": 1 << 20});
    criterion_result(
        &first,
        "mcp_result_1MiB",
        "canonfuzz_core",
        1e6,
        mib.clone(),
    );
    criterion_result(
        &second,
        "mcp_result_1MiB",
        "canonfuzz_core",
        2e6,
        mib.clone(),
    );
    criterion_result(&first, "mcp_result_1MiB", "serde_jcs", 2e7, mib);
    criterion_result(&first, "verify", "jws", 1e5, json!({"Elements": 1}));
    criterion_result(&second, "verify", "jws", 4e4, json!({"Elements": 1}));
    let output = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/bench-table"))
        .arg("--also")
        .arg(&second)
        .arg(&first)
        .arg(dir.path().join("no-ratios.json"))
        .output()
        .expect("python3 runs scripts/bench-table");
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    // serde_jcs ran in the first run only: its second figure is a dash.
    assert!(
        text.contains("| mcp_result | 1MiB | 1000 (500) | 50 (—) | — | — | — |"),
        "{text}"
    );
    assert!(text.contains("| verify/jws | 10,000 (25,000) |"), "{text}");

    let missing = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/bench-table"))
        .arg("--also")
        .arg(dir.path().join("nowhere"))
        .arg(&first)
        .output()
        .expect("python3 runs scripts/bench-table");
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("nowhere"),
        "{missing:?}"
    );
}
