//! The engine's `without_vector` on the registered families.

use crate::families::jcs;
use canonfuzz_engine::without_vector::*;
use std::collections::BTreeMap;
use std::path::Path;

fn finding(input: &[u8], case: u64) -> Remembered {
    Remembered {
        input: input.to_vec(),
        seed: 1,
        case,
    }
}

#[test]
fn findings_are_remembered_in_signature_order_and_read_back() {
    let corpus = tempfile::tempdir().unwrap();
    let family = jcs::FAMILY;
    assert_eq!(read(corpus.path(), family).unwrap(), BTreeMap::new());
    remember(
        corpus.path(),
        family,
        [
            ("jcs: b".to_string(), finding(b"[1e400]", 7)),
            ("jcs: a".to_string(), finding(b"\"\xff\"", 3)),
        ],
    )
    .unwrap();
    let text = std::fs::read_to_string(corpus.path().join(path(family))).unwrap();
    assert_eq!(
        text,
        "{\"signature\":\"jcs: a\",\"seed\":1,\"case\":3,\"inputHex\":\"22ff22\"}\n\
         {\"signature\":\"jcs: b\",\"seed\":1,\"case\":7,\"input\":\"[1e400]\"}\n"
    );
    let read_back = read(corpus.path(), family).unwrap();
    assert_eq!(read_back.get("jcs: a"), Some(&finding(b"\"\xff\"", 3)));
    assert_eq!(read_back.get("jcs: b"), Some(&finding(b"[1e400]", 7)));
}

#[test]
fn a_record_already_there_is_kept() {
    let corpus = tempfile::tempdir().unwrap();
    let family = jcs::FAMILY;
    let at = |case| {
        [(
            "jcs: a".to_string(),
            finding(format!("[{case}]").as_bytes(), case),
        )]
    };
    remember(corpus.path(), family, at(50)).unwrap();
    let file = corpus.path().join(path(family));
    let written = std::fs::read(&file).unwrap();
    remember(corpus.path(), family, at(10)).unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), written);
    // Also when it comes with one that is new.
    let other = ("jcs: b".to_string(), finding(b"[]", 70));
    remember(corpus.path(), family, at(10).into_iter().chain([other])).unwrap();
    let now = read(corpus.path(), family).unwrap();
    assert_eq!(now["jcs: a"], finding(b"[50]", 50));
    assert_eq!(now["jcs: b"], finding(b"[]", 70));
}

#[test]
fn the_repository_corpus_remembers_only_findings_it_has_no_vector_of() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut remembered = 0;
    for &family in crate::families::all() {
        for signature in read(&corpus, family).unwrap().keys() {
            let vector = crate::findings::vector_path(family, signature);
            assert!(!corpus.join(&vector).exists(), "{vector}: {signature}");
            remembered += 1;
        }
    }
    assert!(
        remembered > 0,
        "the default JCS campaign meets findings no vector states"
    );
}

#[test]
fn a_bad_line_is_named_with_what_to_do() {
    let corpus = tempfile::tempdir().unwrap();
    let family = jcs::FAMILY;
    let file = corpus.path().join(path(family));
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        "{\"signature\":\"s\",\"seed\":1,\"case\":1,\"input\":\"1\"}\n{\"case\":2}\n",
    )
    .unwrap();
    let e = read(corpus.path(), family).unwrap_err();
    assert!(
        e.contains("without-vector.jsonl:2: ") && e.contains("can be deleted"),
        "{e}"
    );
    std::fs::write(&file, "{\"signature\":\"s\",\"seed\":1,\"case\":1}\n").unwrap();
    let e = read(corpus.path(), family).unwrap_err();
    assert!(
        e.contains(":1: the finding has neither input nor inputHex"),
        "{e}"
    );
}
