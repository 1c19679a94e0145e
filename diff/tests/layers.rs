//! The shape the source keeps, read from the source itself: no import cycle between two
//! modules of a crate, so that each layer can be read, tested and moved without the ones
//! above it; the engine names no family; and no function runs past about 80 lines outside
//! tests and the tables of cases that generators and importers are.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest a function may run, in lines from its signature to its closing brace.
const MOST_LINES: usize = 85;

/// Functions that are tables of cases — a generator's or importer's list of variants, one
/// arm or entry each — by file and name: splitting them would scatter one list.
const TABLES: [(&str, &str); 10] = [
    ("diff/src/families/vmcp/envelopes.rs", "forgeries"),
    ("diff/src/families/vmcp/envelopes.rs", "envelopes"),
    ("diff/src/families/vmcp/envelopes.rs", "exact_and_unsigned"),
    ("diff/src/families/vmcp/gen.rs", "members"),
    ("diff/src/families/ekl/import.rs", "profile"),
    ("diff/src/families/ink/published.rs", "seed_case"),
    ("diff/src/families/ink/published.rs", "decide"),
    ("diff/src/families/ed25519/gen.rs", "case"),
    ("diff/src/families/merkle/gen.rs", "case"),
    ("diff/src/families/jws/gen.rs", "header_variant"),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every Rust file under `dir`, recursively, the folders named in `skip` left out.
fn sources(dir: &Path, skip: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("a folder entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if path.is_dir() {
                if !skip.contains(&name) {
                    pending.push(path);
                }
            } else if name.ends_with(".rs") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// A file's code before its test module, without comment lines.
fn code(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("a readable source");
    text.lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(str::to_string)
        .collect()
}

/// The module path of `file` under `src` (`a/b.rs` and `a/b/mod.rs` are `a::b`).
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file
        .strip_prefix(src)
        .expect("under src")
        .with_extension("");
    let parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| p != "mod" && p != "lib")
        .collect();
    parts.join("::")
}

/// Each module of the crate at `src` and the modules of the same crate it names.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    // The binary is a crate of its own; test modules may use what they test.
    let files: Vec<(String, Vec<String>)> = sources(src, &["tests", "bin"])
        .iter()
        .map(|f| (module_of(src, f), code(f)))
        .collect();
    let known: BTreeSet<&str> = files.iter().map(|(m, _)| m.as_str()).collect();
    // The longest known module a path names.
    let target = |path: &str| -> Option<String> {
        let parts: Vec<&str> = path.split("::").collect();
        (1..=parts.len())
            .rev()
            .map(|n| parts[..n].join("::"))
            .find(|m| known.contains(m.as_str()))
    };
    let mut edges = BTreeMap::new();
    for (module, lines) in &files {
        let mut named = BTreeSet::new();
        for line in lines {
            for (prefix, base) in [("crate::", String::new()), ("super::", parent(module))] {
                for (at, _) in line.match_indices(prefix) {
                    let path: String = line[at + prefix.len()..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                        .collect();
                    let full = if base.is_empty() {
                        path
                    } else {
                        format!("{base}::{path}")
                    };
                    if let Some(t) = target(full.trim_end_matches(':')) {
                        if t != *module {
                            named.insert(t);
                        }
                    }
                }
            }
        }
        edges.insert(module.clone(), named);
    }
    edges
}

fn parent(module: &str) -> String {
    module
        .rsplit_once("::")
        .map_or(String::new(), |(p, _)| p.to_string())
}

/// The groups of two or more modules that import each other, directly or through others.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut pending = vec![from.to_string()];
        while let Some(m) = pending.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    pending.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|m| (m, reach(m))).collect();
    let mut groups: Vec<BTreeSet<String>> = Vec::new();
    for (m, from_m) in &reached {
        let group: BTreeSet<String> = from_m
            .iter()
            .filter(|o| reached.get(o).is_some_and(|r| r.contains(*m)))
            .cloned()
            .collect();
        if group.len() > 1 && !groups.contains(&group) {
            groups.push(group);
        }
    }
    groups
}

#[test]
fn no_import_cycle_spans_two_modules() {
    for crate_src in ["diff/engine/src", "diff/src"] {
        let edges = imports(&root().join(crate_src));
        assert!(edges.len() > 10, "{crate_src}: read only {edges:?}");
        assert_eq!(
            cycles(&edges),
            Vec::<BTreeSet<String>>::new(),
            "{crate_src}"
        );
    }
}

#[test]
fn a_cycle_is_seen() {
    let edges: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(m, to)| (m.to_string(), to.into_iter().map(str::to_string).collect()))
    .collect();
    let expected: BTreeSet<String> = ["a", "b", "c"].into_iter().map(str::to_string).collect();
    assert_eq!(cycles(&edges), vec![expected]);
}

#[test]
fn the_engine_names_no_family() {
    let families = ["jcs", "ed25519", "jws", "vmcp", "ekl", "merkle", "ink"];
    let manifest = std::fs::read_to_string(root().join("diff/engine/Cargo.toml")).unwrap();
    assert!(!manifest.contains("canonfuzz-diff"));
    for file in sources(&root().join("diff/engine/src"), &[]) {
        for line in code(&file) {
            assert!(
                !line.contains("families::")
                    && !families.iter().any(|f| line.contains(&format!("::{f}::"))),
                "{}: {line}",
                file.display()
            );
        }
    }
}

/// Each function of `file` longer than [`MOST_LINES`]: its name and length.
fn long_functions(file: &Path) -> Vec<(String, usize)> {
    let lines = code(file);
    let mut long = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        let name = line
            .split_once("fn ")
            .filter(|(before, _)| {
                let before = before.trim();
                before.is_empty()
                    || before.ends_with("pub")
                    || before.ends_with(')')
                    || before.ends_with("const")
            })
            .map(|(_, after)| {
                after
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .filter(|n| !n.is_empty() && !line.trim_end().ends_with(';'));
        let Some(name) = name else {
            i += 1;
            continue;
        };
        let (mut depth, mut opened, mut end) = (0i64, false, i);
        for (j, l) in lines.iter().enumerate().skip(i) {
            for c in braces(l) {
                depth += if c == '{' { 1 } else { -1 };
                opened = true;
            }
            end = j;
            if opened && depth == 0 {
                break;
            }
        }
        if end + 1 - i > MOST_LINES {
            long.push((name, end + 1 - i));
        }
        i = end + 1;
    }
    long
}

/// The braces of a line of code, outside string and character literals.
fn braces(line: &str) -> Vec<char> {
    let mut found = Vec::new();
    let mut chars = line.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        match (in_string, c) {
            (true, '\\') => {
                chars.next();
            }
            (_, '"') => in_string = !in_string,
            (false, '\'') => {
                // A character literal ('{', '\'', '\u{7b}') or a lifetime.
                let rest: String = chars.clone().take(10).collect();
                if let Some(close) = rest.find('\'') {
                    if close <= 8 && !rest[..close].contains(' ') && close > 0 {
                        for _ in 0..=close {
                            chars.next();
                        }
                    }
                }
            }
            (false, '{' | '}') => found.push(c),
            _ => {}
        }
    }
    found
}

#[test]
fn no_function_runs_past_about_80_lines() {
    let mut long = Vec::new();
    for crate_src in ["core/src", "props/src", "diff/engine/src", "diff/src"] {
        for file in sources(&root().join(crate_src), &["tests"]) {
            let shown = file
                .strip_prefix(root())
                .unwrap_or(&file)
                .to_string_lossy()
                .into_owned();
            for (name, lines) in long_functions(&file) {
                if !TABLES.contains(&(shown.as_str(), name.as_str())) {
                    long.push(format!("{shown}: {name}, {lines} lines"));
                }
            }
        }
    }
    assert!(long.is_empty(), "split these: {long:#?}");
}

#[test]
fn a_long_function_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long.rs");
    let body = "    let x = '{';\n".repeat(MOST_LINES);
    std::fs::write(
        &file,
        format!("fn short() {{}}\n\npub fn long() {{\n{body}}}\n"),
    )
    .unwrap();
    assert_eq!(
        long_functions(&file),
        [("long".to_string(), MOST_LINES + 2)]
    );
}
