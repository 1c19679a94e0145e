//! The README tells the truth as the code stands: its example of a campaign's bugs is what
//! the command it names prints, and the counts it quotes (vectors, planted mutants, the
//! adapters' lengths) are those of the tree.

use std::path::Path;
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md")).unwrap()
}

/// The fenced block that follows the first line naming `command` in backquotes.
fn block_after(text: &str, command: &str) -> String {
    let named = format!("`canonfuzz {command}`");
    let start = text
        .find(&named)
        .unwrap_or_else(|| panic!("the README names no {named}"));
    let rest = &text[start..];
    let open = rest.find("```\n").expect("a block after it") + 4;
    let close = rest[open..].find("```").expect("the block closed");
    rest[open..open + close].to_string()
}

#[test]
fn the_example_bugs_are_what_the_command_prints() {
    let command = "diff --cases 5000 --no-save";
    let shown = block_after(&readme(), command);
    assert!(shown.starts_with("bugs — "), "{shown}");
    let out = Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(command.split(' '))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{printed}");
    assert!(
        printed.contains(&shown),
        "the README shows\n{shown}\nwhere the command prints\n{printed}"
    );
}

/// The number the README writes just before `words`, commas aside.
fn quoted(text: &str, words: &str) -> u64 {
    let at = text
        .find(words)
        .unwrap_or_else(|| panic!("the README says no {words:?}"));
    let before: String = text[..at]
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .collect();
    before
        .chars()
        .rev()
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap()
}

#[test]
fn the_counts_the_readme_quotes_are_the_tree_s() {
    let text = readme();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifest = canonfuzz_diff::manifest::Manifest::read(&root.join("corpus")).unwrap();
    let vectors: u64 = manifest
        .files
        .iter()
        .map(|f| f.number_of_tests as u64)
        .sum();
    let said = quoted(&text, "vectors with their provenance");
    assert!(
        said <= vectors && vectors < said + 1_000,
        "{said} against {vectors}"
    );

    let mutants: usize = canonfuzz_diff::families::all()
        .iter()
        .map(|f| f.mutants().len())
        .sum();
    assert_eq!(quoted(&text, "planted mutants"), mutants as u64);

    let lengths: Vec<usize> = std::fs::read_dir(root.join("diff/adapters"))
        .unwrap()
        .map(|e| {
            std::fs::read_to_string(e.unwrap().path())
                .unwrap()
                .lines()
                .count()
        })
        .collect();
    let (least, most) = (lengths.iter().min().unwrap(), lengths.iter().max().unwrap());
    let range = format!("in {least} to {most} lines");
    let flat = text.replace('\n', " ");
    assert!(flat.contains(&range), "no {range:?} in the README");
}
