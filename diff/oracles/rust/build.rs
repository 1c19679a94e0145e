//! One module per file of `src/families/`, and the table from a family's name to its
//! libraries: the worker learns the family from the protocol's first line, and a family is its
//! file alone.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let dir = manifest.join("src/families");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut families: Vec<String> = std::fs::read_dir(&dir)
        .expect("src/families is readable")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_stem()?.to_str()?.to_string();
            let module = path.extension()? == "rs" && name != "mod";
            module.then_some(name)
        })
        .collect();
    families.sort();
    let mut out = String::new();
    for family in &families {
        let file = dir.join(format!("{family}.rs"));
        writeln!(
            out,
            "#[path = {:?}]\npub mod {family};",
            file.display().to_string()
        )
        .expect("a String");
    }
    out.push_str(
        "\n/// The libraries of `family`, by the name the harness asks for.\n\
         pub fn libraries(family: &str) -> Option<&'static [(&'static str, Answer)]> {\n    \
         match family {\n",
    );
    for family in &families {
        writeln!(out, "        {family:?} => Some({family}::LIBRARIES),").expect("a String");
    }
    out.push_str("        _ => None,\n    }\n}\n");
    let generated = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(generated.join("families.rs"), out).expect("OUT_DIR is writable");
}
