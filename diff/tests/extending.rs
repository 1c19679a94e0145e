//! docs/extending.md walked: every program that registers an implementation by its name is a
//! file the page's table names, and within the worker programs a library is named only in
//! its runtime's manifests and its family's file. A contributor who follows the page edits
//! those files and no others; a list kept anywhere else (a script, a worker's table of every
//! library) fails here until the page says so or the list goes. Tests, prose and the corpus
//! aside; the benchmarks keep their own set of contenders, which the page calls optional.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::tracked_files;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_default()
}

/// The tracked files under `under` a contributor could edit: not tests, prose or the corpus.
fn programs(under: &str) -> Vec<String> {
    tracked_files(under)
        .into_iter()
        .filter(|f| {
            !f.ends_with(".md")
                && !f.starts_with("corpus/")
                && !f.starts_with("docs/")
                && !f.starts_with("benches/")
                && !f.starts_with("scripts/bench")
                && !f.contains("tests/")
                && !f.contains("fixtures/")
        })
        .collect()
}

/// Every path docs/extending.md's table names, `<family>` standing for any one family.
fn table_paths() -> Vec<String> {
    let page = read("docs/extending.md");
    // The table's rows, and the sentence after it that gives every JCS implementation a driver.
    let rows: Vec<&str> = page
        .lines()
        .filter(|l| l.starts_with("| a") || l.contains("also needs its `Driver`"))
        .collect();
    assert!(rows.len() >= 8, "read only {} rows", rows.len());
    rows.iter()
        .flat_map(|row| row.split('`').skip(1).step_by(2))
        .filter(|token| token.contains('/') || token.ends_with(".lock"))
        .map(str::to_string)
        .collect()
}

/// Whether `file` is one that `pattern` names: the path itself, a file under a folder, or
/// the path with one family's name for `<family>`.
fn matches(pattern: &str, file: &str) -> bool {
    let Some((head, tail)) = pattern.split_once("<family>") else {
        return pattern == file || (pattern.ends_with('/') && file.starts_with(pattern));
    };
    let Some(rest) = file.strip_prefix(head) else {
        return false;
    };
    let end = rest
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(rest.len());
    let (family, rest) = rest.split_at(end);
    !family.is_empty() && (rest == tail || (tail.ends_with('/') && rest.starts_with(tail)))
}

/// The files of `files` whose code (a Rust test module aside) quotes `name`.
fn quoting(files: &[String], name: &str) -> BTreeSet<String> {
    let quoted = [format!("\"{name}\""), format!("'{name}'")];
    files
        .iter()
        .filter(|f| {
            let text = read(f);
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            quoted.iter().any(|q| code.contains(q.as_str()))
        })
        .cloned()
        .collect()
}

#[test]
fn an_implementation_is_registered_only_where_the_page_says() {
    let allowed = table_paths();
    let programs = programs(".");
    let mut strays = Vec::new();
    for family in canonfuzz_diff::families::all() {
        for implementation in family.implementations().iter().skip(1) {
            let name = implementation.name();
            let found = quoting(&programs, name);
            assert!(!found.is_empty(), "{name}: registered nowhere");
            strays.extend(
                found
                    .into_iter()
                    .filter(|f| !allowed.iter().any(|p| matches(p, f)))
                    .map(|f| format!("{name}: {f}")),
            );
        }
    }
    assert!(strays.is_empty(), "named outside {allowed:#?}: {strays:#?}");
}

#[test]
fn a_worker_names_a_library_only_in_its_manifests_and_its_familys_file() {
    // The runtime's folder, its manifests and the files of its families.
    let runtimes = [
        (
            "diff/oracles/node",
            &["package.json", "package-lock.json"][..],
            "families/",
        ),
        ("diff/oracles/python", &["requirements.txt"], "families/"),
        (
            "diff/oracles/rust",
            &["Cargo.toml", "Cargo.lock"],
            "src/families/",
        ),
    ];
    let mut strays = Vec::new();
    for (folder, manifests, families) in runtimes {
        let files = programs(folder);
        assert!(files.len() > 3, "{folder}: read only {files:?}");
        let family_files: Vec<&String> = files
            .iter()
            .filter(|f| f.starts_with(&format!("{folder}/{families}")))
            .collect();
        for file in &family_files {
            // Every name a family's file quotes and another part of the worker names too.
            for name in quoted_names(&read(file)) {
                for other in quoting(&files, &name) {
                    let manifest = manifests.iter().any(|m| other == format!("{folder}/{m}"));
                    if !manifest && !other.starts_with(&format!("{folder}/{families}")) {
                        strays.push(format!("{name} ({file}): {other}"));
                    }
                }
            }
        }
    }
    assert!(strays.is_empty(), "{strays:#?}");
}

/// The names a family's file registers libraries under: the quoted keys of its table.
fn quoted_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in text.lines().map(str::trim) {
        for quote in ['"', '\''] {
            let Some(rest) = line.strip_prefix(quote) else {
                continue;
            };
            let Some((name, after)) = rest.split_once(quote) else {
                continue;
            };
            if after.trim_start().starts_with(':') || after.starts_with(", ") {
                names.insert(name.to_string());
            }
        }
        // A JavaScript table's unquoted key: `name: { load … }`.
        if let Some((key, _)) = line.split_once(": {") {
            if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                names.insert(key.to_string());
            }
        }
        if let Some(rest) = line.strip_prefix("(\"") {
            if let Some((name, _)) = rest.split_once('"') {
                names.insert(name.to_string());
            }
        }
    }
    names
}

#[test]
fn a_name_outside_the_page_is_seen() {
    let allowed = table_paths();
    let named = |file: &str| allowed.iter().any(|p| matches(p, file));
    assert!(named("diff/oracles/node/families/jcs.mjs"));
    assert!(named("diff/src/families/ink/mod.rs"));
    assert!(
        named("diff/src/families/jcs/drivers.rs")
            || read("docs/extending.md").contains("drivers.rs")
    );
    assert!(!named("diff/oracles/node/worker.mjs"));
    assert!(!named("scripts/nightly"));
    assert!(!named("diff/src/families/inkwell.rs"));
    let keys = quoted_names(concat!(
        "  'json-canon': { load },\n",
        "  canonicalize: { load },\n",
        "  (\"acdp-jcs\", |i| x),\n",
        " \"pymerkle\": (load, uses),\n",
    ));
    assert_eq!(
        keys.into_iter().collect::<Vec<_>>(),
        ["acdp-jcs", "canonicalize", "json-canon", "pymerkle"]
    );
}
