//! The shape the source keeps, read from the source itself: no import cycle between two
//! modules of a crate, so that each layer can be read, tested and moved without the ones
//! above it; the engine names no family; no function runs past about 80 lines outside tests
//! and the tables of cases that generators and importers are; and no file outside the core
//! holds more than 800 lines of code.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use common::tracked_files;

/// The longest a function may run, in lines from its signature to its closing brace.
const MOST_LINES: usize = 80;

/// The most lines of code a file outside the core may hold, comments, blank lines and tests
/// aside.
const MOST_CODE_LINES: usize = 800;

/// Functions that are tables of cases — a generator's or importer's list of variants, one
/// arm or entry each — by file and name: splitting them would scatter one list.
const TABLES: [(&str, &str); 10] = [
    ("diff/src/families/vmcp/envelopes.rs", "forgeries"),
    ("diff/src/families/vmcp/envelopes.rs", "envelopes"),
    ("diff/src/families/vmcp/envelopes.rs", "exact_and_unsigned"),
    ("diff/src/families/vmcp/gen/members.rs", "members"),
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

/// Each module of the crate at `src` and the modules of the same crate it names, those it
/// is part of aside.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    // The binary is a crate of its own; test modules may use what they test.
    let files: Vec<(String, Vec<String>)> = sources(src, &["tests", "bin"])
        .iter()
        .map(|f| (module_of(src, f), code(f)))
        .collect();
    let known: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).collect();
    files
        .iter()
        .map(|(module, lines)| {
            let text = without_strings(&lines.join("\n"));
            let named = paths(&text)
                .iter()
                .filter_map(|path| resolve(module, path, &known))
                // A module is part of each module above it, and may use what they hold.
                .filter(|t| t != module && !module.starts_with(&format!("{t}::")))
                .collect();
            (module.clone(), named)
        })
        .collect()
}

/// Code with the text of its string literals taken out, so that a path written in a message
/// is not read as one the code names.
fn without_strings(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        match (in_string, c) {
            (true, '\\') => {
                chars.next();
            }
            (_, '"') => {
                in_string = !in_string;
                out.push('"');
            }
            (true, _) => {}
            (false, c) => out.push(c),
        }
    }
    out
}

/// Every path of two or more segments the code names: in `use` declarations, with their
/// groups expanded (`use a::{b, c::{d}}` names `a::b` and `a::c::d`), and inline
/// (`crate::x::f()`, `super::y::Z`, `child::g()`).
fn paths(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let starts = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || c == ';' || c == '{' || c == '}' || c == ')');
        let tail = &rest[at + 4..];
        let end = tail.find(';').unwrap_or(tail.len());
        if starts {
            let tree = tail[..end].split_whitespace().collect::<Vec<_>>().join(" ");
            found.extend(expand(&tree));
        }
        rest = &tail[end..];
    }
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let boundary = i == 0 || !(word(bytes[i - 1]) || bytes[i - 1] == ':');
        if boundary && (bytes[i].is_ascii_alphabetic() || bytes[i] == '_') {
            let mut j = i;
            while j < bytes.len()
                && (word(bytes[j]) || (bytes[j] == ':' && bytes.get(j + 1) == Some(&':')))
            {
                j += if bytes[j] == ':' { 2 } else { 1 };
            }
            let path: String = bytes[i..j].iter().collect();
            let path = path.trim_end_matches(':').to_string();
            if path.contains("::") {
                found.push(path);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    found
}

/// The paths a `use` tree names, its groups expanded and renamings dropped.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        return vec![path.trim_end_matches("::").to_string()];
    };
    let prefix = tree[..open].trim();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut parts, mut depth, mut from) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[from..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .flat_map(expand)
        .map(|p| match p.as_str() {
            "self" => prefix.trim_end_matches("::").to_string(),
            _ => format!("{prefix}{p}"),
        })
        .collect()
}

/// The module of the crate `path`, named in `module`, leads to, if any: `crate::` from the
/// root, `super::` from the parent, `self::` and a child module's name from `module` itself.
fn resolve(module: &str, path: &str, known: &BTreeSet<String>) -> Option<String> {
    let mut segments: Vec<&str> = path.split("::").collect();
    let mut base: Vec<String> = match segments.first() {
        Some(&"crate") => {
            segments.remove(0);
            Vec::new()
        }
        Some(&"self") => {
            segments.remove(0);
            module
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        }
        Some(&"super") => {
            let mut base: Vec<String> = module
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            while segments.first() == Some(&"super") {
                segments.remove(0);
                base.pop();
            }
            base
        }
        _ => module
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
    };
    base.extend(segments.iter().map(|s| s.to_string()));
    (1..=base.len())
        .rev()
        .map(|n| base[..n].join("::"))
        .find(|m| known.contains(m))
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
    let found: Vec<(&str, Vec<BTreeSet<String>>)> = ["props/src", "diff/engine/src", "diff/src"]
        .into_iter()
        .map(|crate_src| {
            let edges = imports(&root().join(crate_src));
            assert!(edges.len() > 10, "{crate_src}: read only {edges:?}");
            (crate_src, cycles(&edges))
        })
        .filter(|(_, cycles)| !cycles.is_empty())
        .collect();
    assert!(found.is_empty(), "{found:#?}");
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
fn paths_in_use_groups_inline_and_relative_to_the_module_are_read() {
    // The two cycles the reader once missed: a parent naming its child by a relative path
    // (`families` → `families::jcs`) closing a loop through an inline `crate::` call, and a
    // `use` group (`import` → `families::jcs::import`).
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |path: &str, text: &str| {
        let file = src.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    };
    write(
        "lib.rs",
        "pub mod conformance;\npub mod families;\npub mod import;\n",
    );
    write(
        "conformance.rs",
        "pub fn run() { let _ = crate::families::all(); }\n",
    );
    write(
        "families/mod.rs",
        "pub mod jcs;\npub fn all() -> u8 { jcs::FAMILY }\n",
    );
    write(
        "families/jcs/mod.rs",
        "pub mod import;\nuse crate::conformance::run;\npub const FAMILY: u8 = 1;\n",
    );
    write(
        "families/jcs/import.rs",
        "use crate::import::note;\nuse super::FAMILY;\npub fn suite() { note(\"crate::conformance::x\"); }\n",
    );
    write(
        "import/mod.rs",
        "use crate::families::{jcs::import as jcs, self};\npub fn note(_: &str) {}\n",
    );
    let edges = imports(src);
    let names = |m: &str| edges[m].iter().cloned().collect::<Vec<_>>();
    assert_eq!(names("conformance"), ["families"]);
    assert_eq!(names("families"), ["families::jcs"]);
    // The child's `super::FAMILY` names the module it is part of, and the string names nothing.
    assert_eq!(names("families::jcs::import"), ["import"]);
    assert_eq!(names("import"), ["families", "families::jcs::import"]);
    let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(
        cycles(&edges),
        [
            set(&["conformance", "families", "families::jcs"]),
            set(&["families::jcs::import", "import"])
        ]
    );
}

#[test]
fn the_engine_names_no_family() {
    let families = canonfuzz_diff::families::names();
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

#[test]
fn props_judges_any_family_outside_the_family_folders() {
    // Modules of props outside a family's folder (the verdict, the readers, the panel) name no
    // family's module, so a family's policies and properties live in its folder alone.
    let families = canonfuzz_diff::families::names();
    let edges = imports(&root().join("props/src"));
    let family_of = |module: &str| {
        let top = module.split("::").next().unwrap_or_default().to_string();
        families.contains(&top.as_str()).then_some(top)
    };
    assert!(edges.keys().any(|m| family_of(m).is_some()), "{edges:?}");
    let crossing: Vec<String> = edges
        .iter()
        .filter(|(module, _)| family_of(module).is_none())
        .flat_map(|(module, named)| {
            named
                .iter()
                .filter(|n| family_of(n).is_some())
                .map(move |n| format!("{module} names {n}"))
        })
        .collect();
    assert!(crossing.is_empty(), "{crossing:#?}");
}

/// The lines of code of a Rust, Python or JavaScript source: neither blank nor comment (a
/// docstring counts as one), and for Rust none from its test module on.
fn code_lines(text: &str, extension: &str) -> usize {
    let mut count = 0;
    let mut in_docstring = false;
    for line in text.lines().map(str::trim) {
        if extension == "rs" && line.starts_with("#[cfg(test)]") {
            break;
        }
        let quotes = line.matches("\"\"\"").count();
        if extension == "py" && (in_docstring || line.starts_with("\"\"\"")) {
            in_docstring ^= quotes % 2 == 1;
            continue;
        }
        let comment = match extension {
            "py" => line.starts_with('#'),
            _ => line.starts_with("//") || line.starts_with("/*") || line.starts_with('*'),
        };
        count += usize::from(!line.is_empty() && !comment);
    }
    count
}

/// The files git tracks, by path from the repository's root, tests and the corpus aside.
fn tracked() -> Vec<String> {
    tracked_files(".")
        .into_iter()
        .filter(|f| !f.starts_with("corpus/") && !f.contains("tests/"))
        .collect()
}

/// The tracked files, outside the published seeds kept as received, that spell `words`.
fn spelling(words: &[&str]) -> Vec<String> {
    tracked_files(".")
        .into_iter()
        .filter(|f| !f.starts_with("diff/tests/fixtures/"))
        .filter(|f| {
            let text = std::fs::read(root().join(f)).unwrap_or_default();
            let text = String::from_utf8_lossy(&text).to_lowercase();
            words.iter().any(|w| text.contains(w))
        })
        .collect()
}

#[test]
fn the_ekl_family_has_one_name() {
    // The protocol names its profile for adapters `ekl`; no second name for it.
    let other = [
        ["adapter", " profile"].concat(),
        ["adapter", "-profile"].concat(),
    ];
    let found = spelling(&[&other[0], &other[1]]);
    assert!(found.is_empty(), "{found:?} call ekl by another name");
}

#[test]
fn a_second_name_is_seen() {
    assert!(spelling(&["toy family"]).contains(&"docs/extending.md".to_string()));
}

#[test]
fn no_file_outside_the_core_holds_more_than_800_lines_of_code() {
    let found: Vec<(usize, String)> = tracked()
        .into_iter()
        .filter(|f| !f.starts_with("core/"))
        .filter_map(|f| {
            let extension = f.rsplit_once('.')?.1.to_string();
            ["rs", "py", "mjs", "js"]
                .contains(&extension.as_str())
                .then(|| {
                    let text = std::fs::read_to_string(root().join(&f)).unwrap();
                    (code_lines(&text, &extension), f)
                })
        })
        .collect();
    assert!(found.len() > 100, "read only {} files", found.len());
    let long: Vec<String> = found
        .iter()
        .filter(|(lines, _)| *lines > MOST_CODE_LINES)
        .map(|(lines, path)| format!("{path}: {lines} lines of code"))
        .collect();
    assert!(long.is_empty(), "split these by what they hold: {long:#?}");
}

#[test]
fn lines_of_code_leave_out_comments_docstrings_and_tests() {
    let rust = "//! doc\nfn a() {}\n\n    // note\nfn b() {}\n#[cfg(test)]\nmod tests {}\n";
    assert_eq!(code_lines(rust, "rs"), 2);
    let python =
        "\"\"\"Module.\n\nMore.\"\"\"\n# note\ndef a():\n    \"\"\"One.\"\"\"\n    return 1\n";
    assert_eq!(code_lines(python, "py"), 2);
    let js = "/**\n * doc\n */\n// note\nexport const a = 1;\n";
    assert_eq!(code_lines(js, "mjs"), 1);
}

/// Whether `text` names `word` as a word of its own (not inside a longer name).
fn names_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let part = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !part(before) && !part(after)
    })
}

#[test]
fn no_program_outside_the_registry_lists_the_families() {
    // A program or script that names every family is a list of them a new family would
    // have to join; the registry (families/mod.rs) is the only one. Tests, prose and the
    // corpus aside.
    let families = canonfuzz_diff::families::names();
    let programs: Vec<String> = tracked()
        .into_iter()
        .filter(|f| {
            [".rs", ".py", ".mjs", ".js", ".sh", ".yml", ".toml"]
                .iter()
                .any(|e| f.ends_with(e))
                || f.starts_with("scripts/")
                || f.starts_with(".ci/")
        })
        .collect();
    assert!(
        programs.len() > 100,
        "read only {} programs",
        programs.len()
    );
    let lists: Vec<&String> = programs
        .iter()
        .filter(|f| f.as_str() != "diff/src/families/mod.rs")
        .filter(|f| {
            let text = std::fs::read_to_string(root().join(f)).unwrap_or_default();
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            families.iter().all(|name| names_word(code, name))
        })
        .collect();
    assert!(lists.is_empty(), "these list every family: {lists:?}");
}

#[test]
fn a_list_of_the_families_is_seen() {
    let names = canonfuzz_diff::families::names();
    let every = format!("for f in {}; do run $f; done", names.join(" "));
    assert!(names.iter().all(|name| names_word(&every, name)));
    let one_short = format!("for f in {}; do run $f; done", names[1..].join(" "));
    assert!(!names.iter().all(|name| names_word(&one_short, name)));
    assert!(!names_word("jcs_diff inkwell merkle2", "ink"));
    assert!(names_word("(ink)", "ink"));
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
