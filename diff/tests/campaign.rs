//! The differential campaign from the command line: summary, vectors, determinism of shards,
//! and the self-test's planted mutants.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use common::{corpus_copy, text};

fn canonfuzz(args: &[&str]) -> Output {
    common::canonfuzz(args, b"")
}

fn signatures(summary: &serde_json::Value) -> BTreeSet<String> {
    summary["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["signature"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_campaign_saves_vectors_that_the_corpus_replays() {
    let corpus = corpus_copy();
    let summary_path = corpus.path().join("summary.out");
    let out = canonfuzz(&[
        "diff",
        "--cases",
        "3000",
        "--seed",
        "5",
        "--out",
        corpus.path().to_str().unwrap(),
        "--summary-json",
        summary_path.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("3000 cases in"), "{stdout}");
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&summary_path).unwrap()).unwrap();
    assert_eq!(summary["family"], "jcs");
    assert_eq!(summary["seed"], 5);
    assert_eq!(summary["cases"], 3000);
    assert!(summary["cases_per_s"].as_f64().unwrap() > 0.0);
    let names: Vec<&str> = summary["implementations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "core",
            "serde_jcs",
            "serde_json_canonicalizer",
            "json-canon",
            "canon-json",
            "json-syntax",
            "jcs-admit",
            "acdp-jcs",
            "node-canonicalize",
            "node-json-canonicalize",
            "node-json-canon",
            "node-truestamp-canonify",
            "python-rfc8785",
            "python-jcs",
            "python-jsoncanon"
        ]
    );
    assert_eq!(summary["quorum"]["absent"], serde_json::json!([]));
    assert_eq!(summary["quorum"]["narrowed"], false);
    // The groups in process voted on every agreement, the workers on their share of them.
    let agreed = summary["verdicts"]["agree"].as_u64().unwrap();
    for group in ["rust-serde_json", "rust-json-syntax"] {
        assert_eq!(summary["voters"]["agree"][group], agreed, "{summary}");
    }
    for group in ["node-v8", "cpython"] {
        let voted = summary["voters"]["agree"][group].as_u64().unwrap();
        assert!(voted * 20 > agreed, "{group} did not vote: {summary}");
    }
    // Per kind of input, who answered it: every generator category, every group in each.
    let categories = summary["categories"].as_object().unwrap();
    let total: u64 = categories
        .values()
        .map(|c| c["cases"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 3000);
    for name in ["numbers", "ordering", "escapes", "structure", "rejections"] {
        let class = &categories[name];
        for group in [
            "canonfuzz-core",
            "rust-serde_json",
            "rust-json-syntax",
            "node-v8",
            "cpython",
        ] {
            let voted = class["voters"][group].as_u64().unwrap();
            assert!(
                voted > 0 && voted <= class["cases"].as_u64().unwrap(),
                "{name}: {group} answered {voted} cases"
            );
        }
    }
    let findings = summary["findings"].as_array().unwrap();
    assert!(
        !findings.is_empty(),
        "serde_json's nesting limit alone makes findings"
    );
    for f in findings {
        for key in ["signature", "diverging", "verdict", "input_hex", "outcomes"] {
            assert!(f.get(key).is_some(), "finding lacks {key}: {f}");
        }
        if let Some(vector) = f["vector"].as_str() {
            assert!(
                corpus.path().join(vector).is_file(),
                "{vector} was not written"
            );
        }
    }
    assert!(
        findings.iter().any(|f| f["vector"].is_string()),
        "no vector was written"
    );
    let replay = canonfuzz(&["vectors", corpus.path().to_str().unwrap()]);
    let replayed = text(&replay.stdout);
    assert_eq!(replay.status.code(), Some(0), "{replayed}");
    assert!(replayed.trim_end().ends_with(" passed, 0 failed"));
}

#[test]
fn every_family_saves_vectors_that_the_corpus_replays() {
    for (family, policy, implementations) in [
        ("ed25519", "strict-ed25519", 9),
        ("jws", "b64-refused", 11),
        ("merkle", "empty-prefix", 3),
        ("ekl", "challenge-lowercase-hex", 4),
        ("ink", "field-line-breaks", 4),
        ("vmcp", "one-text-arm", 4),
    ] {
        let corpus = corpus_copy();
        let summary_path = corpus.path().join("summary.out");
        let out = canonfuzz(&[
            "diff",
            "--family",
            family,
            "--cases",
            "2000",
            "--out",
            corpus.path().to_str().unwrap(),
            "--summary-json",
            summary_path.to_str().unwrap(),
        ]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
        let summary: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&summary_path).unwrap()).unwrap();
        assert_eq!(summary["family"], family);
        assert!(
            summary["missing"].as_array().unwrap().is_empty(),
            "{summary}"
        );
        assert_eq!(
            summary["implementations"].as_array().unwrap().len(),
            implementations,
            "{family}"
        );
        let findings = summary["findings"].as_array().unwrap();
        assert!(
            findings.iter().any(|f| f["policy"] == policy),
            "{family}: no {policy} finding in {stdout}"
        );
        for f in findings {
            let vector = f["vector"].as_str().unwrap();
            assert!(
                vector.starts_with(&format!("{family}/findings/")),
                "{vector}"
            );
            assert!(corpus.path().join(vector).is_file(), "{vector} missing");
        }
        let replay = canonfuzz(&["vectors", corpus.path().to_str().unwrap()]);
        let replayed = text(&replay.stdout);
        assert_eq!(replay.status.code(), Some(0), "{replayed}");
        if family == "ed25519" {
            let table = summary["verifier_table"].as_array().unwrap();
            assert_eq!(table.len(), 9, "every verifier has a row");
            // The strict policy accepts no speccheck case; ed25519-dalek's verify, with
            // RFC 8032's cofactorless equation and no point checks, accepts case 0 (small-order
            // A and R, S = 0), as the speccheck paper's table says.
            assert_eq!(
                table[0]["speccheck_accepted"],
                serde_json::json!(vec![false; 12])
            );
            assert_eq!(table[1]["verifier"], "ed25519-dalek-verify");
            assert_eq!(table[1]["speccheck_accepted"][0], true);
            // ZIP-215's rules (cofactored equation, S below L, A and R taken as encoded, k
            // over the bytes given) accept speccheck's cases 0-5 and 9-11; ed25519-zebra and
            // noble-ed25519 implement them apart from each other. A verifier that stopped
            // computing, such as a worker hashing with the wrong function, refuses them all.
            let zip215 = [
                true, true, true, true, true, true, false, false, false, true, true, true,
            ];
            for name in ["ed25519-zebra", "noble-ed25519"] {
                let row = table.iter().find(|r| r["verifier"] == name).unwrap();
                assert_eq!(
                    row["speccheck_accepted"],
                    serde_json::json!(zip215),
                    "{name}"
                );
            }
            assert!(stdout.contains("## Ed25519 verifiers"), "{stdout}");
        }
    }
}

#[test]
fn shards_together_find_what_one_run_finds() {
    let run = |shard: &str, cases: &str| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        // Shards split the cases, and a paced shard samples its own batches; what each finds
        // with every case asked of everyone is what one run finds.
        let out = canonfuzz(&[
            "diff",
            "--every-case",
            "--cases",
            cases,
            "--seed",
            "9",
            "--no-save",
            "--jobs",
            "2",
            "--shard",
            shard,
            "--summary-json",
            path.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
        serde_json::from_slice::<serde_json::Value>(&std::fs::read(path).unwrap()).unwrap()
    };
    let whole = run("0/1", "2000");
    let mut halves = signatures(&run("0/2", "1000"));
    halves.extend(signatures(&run("1/2", "1000")));
    assert_eq!(signatures(&whole), halves);
    assert_eq!(signatures(&whole), signatures(&run("0/1", "2000")));
}

#[test]
fn merged_shards_write_what_one_run_writes() {
    let campaign = |shard: &str, cases: &str, out: &Path| {
        let run = canonfuzz(&[
            "diff",
            "--every-case",
            "--cases",
            cases,
            "--seed",
            "3",
            "--shard",
            shard,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stdout));
    };
    // Corpora without findings, so that only what these campaigns write is compared.
    let fresh = || {
        let dir = corpus_copy();
        std::fs::remove_dir_all(dir.path().join("jcs/findings")).unwrap();
        assert_eq!(
            canonfuzz(&["manifest", dir.path().to_str().unwrap()])
                .status
                .code(),
            Some(0)
        );
        dir
    };
    let whole = fresh();
    campaign("0/1", "1200", whole.path());
    let (a, b, merged) = (fresh(), fresh(), fresh());
    campaign("0/2", "600", a.path());
    campaign("1/2", "600", b.path());
    let run = canonfuzz(&[
        "merge",
        a.path().to_str().unwrap(),
        b.path().to_str().unwrap(),
        "--into",
        merged.path().to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let files = |root: &Path| -> Vec<(String, Vec<u8>)> {
        let dir = root.join("jcs/findings");
        let mut all: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| {
                d.map(|e| e.unwrap())
                    .map(|e| {
                        (
                            e.file_name().to_string_lossy().into_owned(),
                            std::fs::read(e.path()).unwrap(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        all.sort();
        all
    };
    let expected = files(whole.path());
    assert!(!expected.is_empty(), "the campaign wrote no vectors");
    assert_eq!(files(merged.path()), expected);
}

#[test]
fn bad_arguments_are_usage_errors() {
    let out = canonfuzz(&["diff", "--shard", "3/2"]);
    assert_eq!(out.status.code(), Some(2));
    let out = canonfuzz(&["diff", "--impls", "nonesuch", "--cases", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown implementation \"nonesuch\""));
}

/// Runs `canonfuzz` with a PATH that has Python but no Node.
fn without_node(args: &[&str]) -> Output {
    let python = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(text(&python.stdout).trim(), bin.path().join("python3")).unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(args)
        .env("PATH", bin.path())
        .output()
        .unwrap()
}

#[test]
fn a_campaign_without_its_quorum_is_red_unless_told_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let summary_path = dir.path().join("summary.json");
    let summary = |path: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    };
    let base = ["diff", "--family", "vmcp", "--cases", "300", "--no-save"];
    // Python's runtime is prepared with the ordinary PATH first: a virtualenv made through the
    // temporary python3 link below would point at a directory that is gone after the test.
    let prepare = canonfuzz(&[&base[..], &["--impls", "python-vmcp"]].concat());
    assert_eq!(prepare.status.code(), Some(0), "{}", text(&prepare.stderr));
    let out = without_node(&base);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no quorum") && stderr.contains("node-v8"),
        "{stderr}"
    );
    let mut allowed = base.to_vec();
    allowed.extend([
        "--allow-missing",
        "--summary-json",
        summary_path.to_str().unwrap(),
    ]);
    let out = without_node(&allowed);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("WARNING: compared without node-v8"));
    let s = summary(&summary_path);
    assert_eq!(s["quorum"]["absent"], serde_json::json!(["node-v8"]));
    assert_eq!(s["quorum"]["allow_missing"], true);
    // With every implementation, every group votes, and the summary counts their votes.
    let mut full = base.to_vec();
    full.extend(["--summary-json", summary_path.to_str().unwrap()]);
    let out = canonfuzz(&full);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = summary(&summary_path);
    assert_eq!(s["quorum"]["absent"], serde_json::json!([]));
    assert_eq!(
        s["quorum"]["present"],
        serde_json::json!(["cpython", "node-v8", "rust-json-syntax"])
    );
    // The core and the judge in process voted on every agreement, the workers on their share.
    let agree = &s["voters"]["agree"];
    let agreed = s["verdicts"]["agree"].as_u64().unwrap();
    for group in ["canonfuzz-core", "rust-json-syntax"] {
        assert_eq!(agree[group].as_u64().unwrap(), agreed, "{group}: {s}");
    }
    for group in ["cpython", "node-v8"] {
        assert!(agree[group].as_u64().unwrap() * 20 > agreed, "{group}: {s}");
    }
}

#[test]
fn a_summary_json_of_dash_goes_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(["diff", "--family", "merkle", "--cases", "300", "--no-save"])
        .args(["--summary-json", "-"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["cases"], 300);
    assert!(text(&out.stderr).contains("300 cases in"));
    assert!(!dir.path().join("-").exists(), "a file named - was written");
}

#[test]
fn a_summary_json_that_cannot_be_written_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, b"").unwrap();
    let path = blocker.join("summary.json");
    let out = canonfuzz(&[
        "diff",
        "--family",
        "merkle",
        "--cases",
        "100",
        "--no-save",
        "--summary-json",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("cannot write the summary JSON"));
    assert!(!path.exists());
}

#[test]
fn the_tool_runs_outside_the_clone_with_its_workers_unpacked_into_its_home() {
    let home = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(["diff", "--cases", "300", "--no-save"])
        .args(["--impls", "node-canonicalize,python-rfc8785"])
        .env("CANONFUZZ_HOME", home.path())
        .current_dir(elsewhere.path())
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("300 cases in"), "{stdout}");
    assert!(stdout.contains("cpython, node-v8"), "{stdout}");
    let oracles = home.path().join("oracles");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("oracles");
    for file in [
        "node/worker.mjs",
        "python/worker.py",
        "python/requirements.txt",
    ] {
        assert_eq!(
            std::fs::read(oracles.join(file)).unwrap(),
            std::fs::read(source.join(file)).unwrap(),
            "{file}"
        );
    }
    assert!(oracles.join("node/node_modules").is_dir());
    assert!(oracles.join("python/.venv").is_dir());
}

#[test]
fn an_interrupted_campaign_ends_with_a_partial_summary_and_is_not_green() {
    // A corpus without findings, so that the first one met is saved where it can be seen.
    let corpus = corpus_copy();
    let findings = corpus.path().join("jcs/findings");
    std::fs::remove_dir_all(&findings).unwrap();
    let rebuilt = canonfuzz(&["manifest", corpus.path().to_str().unwrap()]);
    assert_eq!(rebuilt.status.code(), Some(0));
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(["diff", "--cases", "100000000"])
        .args(["--impls", "serde_jcs,node-canonicalize"])
        .args(["--out", corpus.path().to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt once the campaign has saved a finding as it met it.
    let started = std::time::Instant::now();
    while std::fs::read_dir(&findings).map_or(0, |d| d.count()) == 0 {
        assert!(started.elapsed().as_secs() < 120, "no finding was saved");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let signal = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(signal.success());
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("of 100000000 cases (interrupted)") && stdout.contains("left unminimized"),
        "{stdout}"
    );
    assert!(stdout.contains("findings ("), "{stdout}");
    // What it found is saved as found, and says it is not minimized.
    let saved: Vec<_> = std::fs::read_dir(&findings)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(!saved.is_empty(), "{stdout}");
    assert!(
        saved.iter().all(|v| v.contains("not minimized")),
        "{stdout}"
    );
}

#[test]
fn a_campaign_creates_the_corpus_it_saves_into() {
    // With one verifier beside the core, the first finding has no consensus and so no vector:
    // the corpus folder must exist before any vector is written.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("new/corpus");
    let run = canonfuzz(&[
        "diff",
        "--family",
        "jws",
        "--cases",
        "200",
        "--impls",
        "pyjwt",
        "--allow-missing",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert!(out.join("manifest.json").is_file());
}

/// A JCS campaign of `cases` cases from `seed` saving into `dir/corpus`, green, with its
/// summary written to `dir/<summary>`: its standard output (verbose, every finding listed),
/// its findings' signatures, and its findings as the summary gives them.
fn campaign_into(
    dir: &Path,
    cases: &str,
    seed: &str,
    summary: &str,
) -> (String, BTreeSet<String>, Vec<serde_json::Value>) {
    let summary = dir.join(summary);
    let corpus = dir.join("corpus");
    // Paced, as by default: these runs compare what two campaigns of one seed found, which
    // the seed alone decides.
    let out = canonfuzz(&[
        "diff",
        "-v",
        "--cases",
        cases,
        "--seed",
        seed,
        "--out",
        corpus.to_str().unwrap(),
        "--summary-json",
        summary.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let read: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    let findings = read["findings"].as_array().unwrap().clone();
    (text(&out.stdout), signatures(&read), findings)
}

#[test]
fn a_campaign_minimizes_only_the_findings_its_corpus_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    let run = |name: &str| campaign_into(dir.path(), "2000", "9", name);
    let vectors = |findings: &[serde_json::Value]| -> Vec<(String, Vec<u8>)> {
        findings
            .iter()
            .filter_map(|f| f["vector"].as_str())
            .map(|v| (v.to_string(), std::fs::read(corpus.join(v)).unwrap()))
            .collect()
    };
    // Into an empty corpus every finding is new, minimized and written.
    let (first_stdout, signed, first) = run("first.json");
    assert!(
        !first.is_empty(),
        "serde_json's nesting limit alone makes findings"
    );
    for f in &first {
        assert_eq!(
            (&f["new"], &f["minimized"]),
            (&true.into(), &true.into()),
            "{f}"
        );
    }
    let written = vectors(&first);
    assert!(!written.is_empty(), "no vector was written");
    // Again, every finding is known: none is minimized again, each names the vector that
    // holds it, and no vector changes.
    let (stdout, signed_again, again) = run("again.json");
    assert_eq!(signed_again, signed);
    for f in &again {
        assert_eq!(
            (&f["new"], &f["minimized"]),
            (&false.into(), &false.into()),
            "{f}"
        );
    }
    assert_eq!(vectors(&again), written);
    assert!(stdout.contains("no new findings;"), "{stdout}");
    // Each finding's line shows the input its vector holds, as when it was minimized.
    let lines = |stdout: &str| -> Vec<String> {
        stdout
            .lines()
            .filter(|l| l.ends_with(".json"))
            .map(|l| l.trim_start().trim_start_matches("new ").trim().to_string())
            .collect()
    };
    assert!(!lines(&first_stdout).is_empty(), "{first_stdout}");
    assert_eq!(lines(&stdout), lines(&first_stdout));
    assert!(
        stdout.contains(&format!("{} known, minimized in the corpus", again.len())),
        "{stdout}"
    );
}

#[test]
fn a_finding_no_vector_can_state_is_remembered_and_not_minimized_again() {
    // Seed 1's case 3,727 nests past serde_json's 128 levels, where the implementation groups
    // reach no consensus and the group that stands in for one does not answer alike: no
    // vector can state an expected result for it.
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    let run = |name: &str| {
        let (stdout, _, findings) = campaign_into(dir.path(), "4000", "1", name);
        (stdout, findings)
    };
    let without = |findings: &[serde_json::Value]| -> Vec<serde_json::Value> {
        findings
            .iter()
            .filter(|f| f["vector"].is_null())
            .cloned()
            .collect()
    };
    let (_, first) = run("first.json");
    let unvectored = without(&first);
    assert_eq!(unvectored.len(), 1, "{unvectored:?}");
    assert_eq!(unvectored[0]["new"], true);
    assert_eq!(unvectored[0]["minimized"], true);
    let memory = corpus.join("jcs/findings/without-vector.jsonl");
    let remembered = std::fs::read_to_string(&memory).unwrap();
    assert!(
        remembered.contains(unvectored[0]["signature"].as_str().unwrap()),
        "{remembered}"
    );
    // Again: known by the memory, so not minimized, and shown by the input it remembers.
    let (stdout, again) = run("again.json");
    let unvectored_again = without(&again);
    assert_eq!(unvectored_again.len(), 1, "{unvectored_again:?}");
    assert_eq!(unvectored_again[0]["new"], false);
    assert_eq!(unvectored_again[0]["minimized"], false);
    assert!(stdout.contains("no new findings;"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&memory).unwrap(), remembered);
    let shown = |stdout: &str| -> Vec<String> {
        stdout
            .lines()
            .filter(|l| l.trim_end().ends_with(" -"))
            .map(|l| l.trim_start().trim_start_matches("new ").trim().to_string())
            .collect()
    };
    let (first_again, _) = {
        std::fs::remove_file(&memory).unwrap();
        run("third.json")
    };
    assert!(!shown(&first_again).is_empty(), "{first_again}");
    assert_eq!(shown(&stdout), shown(&first_again));
}

#[test]
fn each_bugs_example_is_minimized_for_the_implementation_it_is_shown_for() {
    // The default campaign's findings are minimized to keep every implementation's answer;
    // a bug's example need only keep one implementation's difference.
    let out = canonfuzz(&["diff", "--no-save", "-q", "--summary-json", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut inputs: std::collections::BTreeMap<&str, usize> = Default::default();
    for f in summary["findings"].as_array().unwrap() {
        if let Some(vector) = f["vector"].as_str() {
            inputs.insert(vector, f["input_hex"].as_str().unwrap().len() / 2);
        }
    }
    let mut shorter = 0;
    for bug in summary["bugs"].as_array().unwrap() {
        // A bug merged with others of its cause holds their vectors too, whose examples show
        // another label.
        if !bug["also"].as_array().unwrap().is_empty() {
            continue;
        }
        let example = bug["example"]["input_hex"].as_str().unwrap().len() / 2;
        let smallest_finding = bug["vectors"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| inputs.get(v.as_str().unwrap()))
            .min()
            .copied()
            .unwrap_or(usize::MAX);
        assert!(example <= smallest_finding, "{bug}");
        shorter += usize::from(example < smallest_finding);
    }
    assert!(
        shorter > 0,
        "no example was minimized for its implementation"
    );
}
