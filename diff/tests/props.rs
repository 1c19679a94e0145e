//! The independent readings the verdicts and fuzz targets rest on, checked against the
//! campaign's generated documents and the corpus.

use canonfuzz_diff::manifest::Manifest;
use canonfuzz_diff::vector::{OutputTest, VectorFile};
use canonfuzz_props::jcs::properties::check_canonical;
use canonfuzz_props::read::problems::read;

#[test]
fn the_reading_and_the_core_agree_on_generated_documents() {
    // Two readings written apart: where the core accepts, the reading finds no problem;
    // where it refuses, it names one of the kinds the reading says may come first.
    for index in 0..20_000 {
        let (_, input) = canonfuzz_diff::families::jcs::gen::case(5, index);
        let reading = read(&input);
        match canonfuzz_core::jcs::canonicalize(&input) {
            Ok(_) => assert!(reading.problems.is_empty(), "{reading:?}: {input:?}"),
            Err(e) => assert!(
                reading.first_problems().contains(e.kind().as_str()),
                "core {} / reading {:?}: {:?}",
                e.kind().as_str(),
                reading.problems,
                String::from_utf8_lossy(&input)
            ),
        }
    }
}

#[test]
fn every_corpus_input_keeps_the_properties() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let manifest = Manifest::read(&dir).unwrap();
    let mut checked = 0;
    for entry in manifest.files_of(canonfuzz_diff::families::jcs::SCHEMA) {
        let file = VectorFile::read(&dir.join(&entry.path)).unwrap();
        for test in file.typed_tests::<OutputTest>().unwrap() {
            let input = test.input_bytes().unwrap();
            if let Err(e) = check_canonical(&input) {
                panic!("{} tcId {}: {e}", entry.path, test.tc_id);
            }
            checked += 1;
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn both_trees_accept_and_root_alike() {
    use canonfuzz_props::impls::Implementation;
    use canonfuzz_props::merkle::impls::{core, ct_merkle};
    use canonfuzz_props::outcome::Outcome;
    let mut accepted = 0;
    for i in 0..300 {
        let (_, input) = canonfuzz_diff::families::merkle::gen::case(11, i);
        let a = core().run_batch(&[&input]);
        let b = ct_merkle().run_batch(&[&input]);
        if let (Outcome::Ok(x), Outcome::Ok(y)) = (&a[0], &b[0]) {
            assert_eq!(x, y, "case {i}");
            accepted += 1;
        }
    }
    assert!(accepted > 100, "only {accepted} cases accepted by both");
}

#[test]
fn a_proof_node_split_in_two_is_refused_though_the_pieces_join_into_an_honest_proof() {
    use canonfuzz_props::impls::Implementation;
    use canonfuzz_props::merkle::impls::{core, ct_merkle};
    use canonfuzz_props::outcome::Outcome;
    // An honest proof with one node written as two strings of 12 and 20 bytes: joined, the
    // bytes are the same, but no node of a proof is shorter than a hash.
    let mut split = 0;
    for i in 0..300 {
        let (_, input) = canonfuzz_diff::families::merkle::gen::case(11, i);
        let honest = [
            core().run_batch(&[&input]),
            ct_merkle().run_batch(&[&input]),
        ];
        if !honest
            .iter()
            .all(|o| o[0] == Outcome::Ok(b"valid".to_vec()))
        {
            continue;
        }
        let mut case: serde_json::Value = serde_json::from_slice(&input).unwrap();
        let Some(proof) = case["proof"].as_array_mut().filter(|p| !p.is_empty()) else {
            continue;
        };
        let node = proof.remove(0);
        let (head, tail) = node.as_str().unwrap().split_at(24);
        proof.insert(0, serde_json::Value::from(tail));
        proof.insert(0, serde_json::Value::from(head));
        let bent = case.to_string();
        for (name, outcome) in [
            ("core", core().run_batch(&[bent.as_bytes()])),
            ("ct-merkle", ct_merkle().run_batch(&[bent.as_bytes()])),
        ] {
            assert!(
                matches!(outcome[0], Outcome::Rejected(_)),
                "case {i}: {name} accepted {bent}: {:?}",
                outcome[0]
            );
        }
        split += 1;
    }
    assert!(split > 50, "only {split} honest proofs to split");
}
