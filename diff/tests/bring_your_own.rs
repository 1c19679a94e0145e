//! An implementation outside canonfuzz, wrapped in one of the README's adapters, goes through a
//! campaign with `--with`: in protocol 1 (inputs as base64, so a raw line feed travels) and in
//! the plain form `canon --jsonl` speaks, each in its own independence group, named and
//! versioned as it says, and voting; and then through `vectors --impl` and the report.

mod common;

use std::path::Path;
use std::process::Command;

use canonfuzz_diff::impls::{worker, External, Implementation};
use canonfuzz_diff::outcome::Outcome;

fn adapter(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("adapters")
        .join(name)
        .display()
        .to_string()
}

fn campaign(with: &[String]) -> (Option<i32>, Option<serde_json::Value>, String) {
    let mut args = vec!["diff", "--family", "jcs", "--cases", "3000", "--no-save"];
    for w in with {
        args.extend(["--with", w.as_str()]);
    }
    args.extend(["--summary-json", "-", "-q"]);
    let out = Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(&args)
        .env("CANONFUZZ", env!("CARGO_BIN_EXE_canonfuzz"))
        .output()
        .unwrap();
    let summary = serde_json::from_slice(&out.stdout).ok();
    (out.status.code(), summary, common::text(&out.stderr))
}

fn implementation<'a>(summary: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    summary["implementations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not in {summary}"))
}

#[test]
fn adapters_join_a_campaign_in_their_own_groups() {
    let python = format!("sorted@pyjson=python3 {}", adapter("python_json_sorted.py"));
    let node = format!("nodesorted=node {}", adapter("node_json_sorted.mjs"));
    let plain = format!("plain={}", adapter("canon_jsonl.sh"));
    let (code, summary, stderr) = campaign(&[python, node, plain]);
    assert_eq!(code, Some(0), "{stderr}");
    let summary = summary.unwrap();
    let sorted = implementation(&summary, "sorted");
    assert_eq!(sorted["independent_group"], "pyjson");
    assert!(sorted["version"]
        .as_str()
        .unwrap()
        .starts_with("python-json-sorted 3."));
    assert_eq!(
        implementation(&summary, "nodesorted")["version"]
            .as_str()
            .unwrap()
            .split(' ')
            .next(),
        Some("node-json-sorted")
    );
    let plain = implementation(&summary, "plain");
    assert_eq!(plain["independent_group"], "plain");
    assert_eq!(plain["version"], "unknown (plain protocol)");
    for group in ["pyjson", "nodesorted", "plain"] {
        assert!(
            summary["quorum"]["present"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g == group),
            "{group} did not vote: {}",
            summary["quorum"]
        );
    }
    // Sorting keys by code point and printing numbers as Python does is not RFC 8785: the
    // comparison took place, and found it.
    let agreed = sorted["agreed"].as_u64().unwrap();
    let answered = sorted["answered"].as_u64().unwrap();
    assert!(answered > 2_000 && agreed < answered, "{sorted}");
    // The core, spoken to in the plain form, answers as the core wherever it is asked, and
    // is not asked what the plain form cannot carry.
    assert!(plain["answered"].as_u64().unwrap() < 3_000, "{plain}");
    for finding in summary["findings"].as_array().unwrap() {
        let (core, plain) = (&finding["outcomes"]["core"], &finding["outcomes"]["plain"]);
        assert!(
            plain == core || plain["status"] == "unsupported",
            "{finding}"
        );
    }
}

#[test]
fn protocol_one_carries_every_byte_and_the_plain_form_leaves_out_what_it_cannot() {
    let framed = worker::external(
        "jcs",
        "framed",
        "framed",
        &format!("python3 {}", adapter("python_json_sorted.py")),
    );
    let plain = worker::external(
        "jcs",
        "plain",
        "plain",
        &format!("{} canon --jsonl", env!("CARGO_BIN_EXE_canonfuzz")),
    );
    let inputs: [&[u8]; 2] = [b"{\"b\":1,\n\"a\":2}", b"[1]\r"];
    assert_eq!(
        framed.run_batch(&inputs),
        vec![
            Outcome::Ok(b"{\"a\":2,\"b\":1}".to_vec()),
            Outcome::Ok(b"[1]".to_vec())
        ]
    );
    assert_eq!(
        plain.run_batch(&inputs),
        vec![Outcome::Unsupported, Outcome::Unsupported]
    );
    assert_eq!(
        plain.run_batch(&[b"[1, 2]"]),
        vec![Outcome::Ok(b"[1,2]".to_vec())]
    );
}

#[test]
fn a_command_that_cannot_start_or_never_answers_is_named_with_why() {
    let silent = worker::external("jcs", "silent", "silent", "sleep 60");
    // The test's own timeout would be 10 s; a worker that never answers its first line is
    // refused once that passes, with the command named.
    let why = silent.available().unwrap_err();
    assert!(
        why.contains("`sleep 60` did not answer the protocol's first line"),
        "{why}"
    );
    // A campaign without one of its groups is red, and says which and why.
    let (code, _, stderr) = campaign(&["broken=exit 3".to_string()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("broken: `exit 3` did not answer"),
        "{stderr}"
    );
}

#[test]
fn external_specs_are_read_or_refused_with_the_form_they_take() {
    assert_eq!(
        External::parse("mine@lib=python3 a.py").unwrap(),
        External {
            name: "mine".into(),
            group: "lib".into(),
            command: "python3 a.py".into()
        }
    );
    assert_eq!(External::parse("mine=x").unwrap().group, "mine");
    for bad in ["mine", "=x", "mine=", "a b=x", "core=x"] {
        let why = External::parse(bad).unwrap_err();
        assert!(why.contains("NAME=COMMAND"), "{bad}: {why}");
    }
}

#[test]
fn an_adapter_goes_through_vectors_and_the_report() {
    let sorted = format!("sorted=python3 {}", adapter("python_json_sorted.py"));
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("junit.xml");
    let junit_arg = junit.to_str().unwrap();
    let out = common::canonfuzz(&["vectors", "--impl", &sorted, "--junit", junit_arg], b"");
    let stdout = common::text(&out.stdout);
    // It fails what RFC 8785 asks and Python's json module does otherwise, read as bugs:
    // ECMAScript writes 1e-7 where Python writes 1e-07 (RFC 8785 §3.2.2.3).
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("sorted, numbers: pads the exponent with zeros"),
        "{stdout}"
    );
    assert!(!stdout.contains("FAIL jcs/"), "{stdout}");
    assert!(stdout.contains("by category: "), "{stdout}");
    assert!(stdout.contains("sorted python-json-sorted 3."), "{stdout}");
    // Verbose, every failing test.
    let out = common::canonfuzz(&["vectors", "-v", "--impl", &sorted], b"");
    assert!(common::text(&out.stdout).contains("FAIL jcs/"));
    // Asked, it writes the adapter's upstream reports, each example minimized for it.
    let upstream = dir.path().join("upstream");
    let out = common::canonfuzz(
        &[
            "vectors",
            "--impl",
            &sorted,
            "--upstream",
            upstream.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        common::text(&out.stdout).contains("upstream reports, indexed in"),
        "{}",
        common::text(&out.stdout)
    );
    let index = std::fs::read_to_string(upstream.join("README.md")).unwrap();
    assert!(
        index.contains("| sorted | numbers | [pads the exponent with zeros](sorted/"),
        "{index}"
    );
    // A CI service reads every test, and each failure names its bug.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let root = doc.root_element();
    let failures: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .filter_map(|n| n.attribute("message"))
        .collect();
    assert_eq!(
        root.attribute("failures"),
        Some(failures.len().to_string().as_str())
    );
    assert!(failures.contains(&"sorted, numbers: pads the exponent with zeros"));
    // Allowing every bug it shows, by the words the output names them with, passes the run
    // and reports their tests as skipped.
    let mut allowances: Vec<&str> = failures
        .iter()
        .filter_map(|m| m.split_once(", ").map(|(_, rest)| rest))
        .collect();
    allowances.sort_unstable();
    allowances.dedup();
    let mut args = vec!["vectors", "--impl", &sorted, "--junit", junit_arg];
    for allowance in &allowances {
        args.extend(["--allow", allowance]);
    }
    let out = common::canonfuzz(&args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stdout));
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("failures"), Some("0"));
    assert_eq!(
        doc.root_element().attribute("skipped"),
        Some(failures.len().to_string().as_str())
    );
    // Allowing all but one still fails.
    let out = common::canonfuzz(&args[..args.len() - 2], b"");
    assert_eq!(out.status.code(), Some(1));
    let report = dir.path().join("report");
    let dir_arg = report.to_str().unwrap();
    let out = common::canonfuzz(
        &[
            "report",
            "--out",
            dir_arg,
            "--json",
            "--impls",
            "serde_jcs",
            "--with",
            &sorted,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    // The JSON names how the adapter is driven and lists the vectors it failed.
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let column = json["implementations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "sorted")
        .unwrap();
    assert!(column["driven"]
        .as_str()
        .unwrap()
        .contains("python_json_sorted.py"));
    let failed = json["jcs"]["conformance"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["implementation"] == "sorted")
        .map(|c| c["failures"].as_array().unwrap().len())
        .sum::<usize>();
    assert!(failed > 0, "the adapter's failures are not listed");
    let markdown = std::fs::read_to_string(report.join("conformance.md")).unwrap();
    let header = markdown
        .lines()
        .find(|l| l.starts_with("| category |"))
        .unwrap();
    assert!(
        header.contains("| sorted python-json-sorted 3."),
        "{header}"
    );
}

#[test]
fn ones_own_implementation_turns_no_known_finding_new_and_writes_nothing_unasked() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let listing = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(corpus.join("jcs/findings"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let manifest = || std::fs::read(corpus.join("manifest.json")).unwrap();
    let (before, manifest_before) = (listing(), manifest());
    let sorted = format!("mine=python3 {}", adapter("python_json_sorted.py"));
    // Without --no-save and without --out: with --with, nothing is saved.
    let out = Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(["diff", "--family", "jcs", "--cases", "3000", "-q"])
        .args(["--with", &sorted, "--summary-json", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    assert_eq!((listing(), manifest()), (before, manifest_before));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = summary["findings"].as_array().unwrap();
    // The findings among the registered implementations are known as they were without it.
    let known = findings.iter().filter(|f| f["new"] == false).count();
    assert!(known * 2 > findings.len(), "{known} of {}", findings.len());
    // And its bugs are its own, listed with it.
    let bugs = summary["bugs"].as_array().unwrap();
    assert!(bugs.iter().any(|b| b["blamed"] == "mine"), "{bugs:?}");
}

#[test]
fn an_implementation_taken_out_is_not_counted_as_voting() {
    // `cat` echoes each request: never the protocol. With --allow-missing the campaign goes
    // on without it, and says it compared without its group.
    let out = common::canonfuzz(
        &[
            "diff",
            "--cases",
            "2000",
            "-q",
            "--impls",
            "serde_jcs",
            "--with",
            "junk=cat",
            "--allow-missing",
            "--summary-json",
            "-",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let quorum = &json["quorum"];
    assert!(quorum["needed"]
        .as_array()
        .unwrap()
        .contains(&"junk".into()));
    assert!(!quorum["present"]
        .as_array()
        .unwrap()
        .contains(&"junk".into()));
    assert_eq!(quorum["absent"], serde_json::json!(["junk"]));
    let missing = json["missing"].as_array().unwrap();
    assert!(missing
        .iter()
        .any(|m| m["name"] == "junk" && m["reason"].as_str().unwrap().contains("taken out")));
    assert!(common::text(&out.stderr).contains("compared without junk"));
}
