//! The canonicalizers the benchmarks compare: the core, three of the Rust crates the
//! differential harness runs in process (each after serde_json's parse, as they must), and the
//! floor any canonicalizer pays, serde_json's own parse + `to_vec` of the same document. One
//! list, so that the criterion bench and the paired-ratio bench time the same work.

use std::hint::black_box;

use canonfuzz_core::jcs::Canonicalizer;

/// One implementation under comparison: its name in the tables, and a run over a document
/// that says whether the document was canonicalized.
pub struct Contender {
    /// The name criterion's results and BENCHMARKS.md use.
    pub name: &'static str,
    /// How it canonicalizes a document.
    pub run: Run,
}

/// Canonicalizes a document; false when it refused it.
pub type Run = Box<dyn FnMut(&[u8]) -> bool>;

/// The name of the core among [`contenders`], the one every ratio is taken against.
pub const CORE: &str = "canonfuzz_core";

/// A contender that parses with serde_json and writes the value with `to_vec`.
fn after_parse<E: 'static>(
    name: &'static str,
    to_vec: fn(&serde_json::Value) -> Result<Vec<u8>, E>,
) -> Contender {
    Contender {
        name,
        run: Box::new(move |doc| {
            serde_json::from_slice::<serde_json::Value>(doc)
                .is_ok_and(|v| to_vec(&v).map(black_box).is_ok())
        }),
    }
}

/// Every contender, the core first. The core keeps its buffers from one run to the next, as
/// a caller canonicalizing many documents would; every output passes through `black_box`, so
/// that none is optimized away.
pub fn contenders() -> Vec<Contender> {
    let mut core = Canonicalizer::default();
    let mut out = Vec::new();
    vec![
        Contender {
            name: CORE,
            run: Box::new(move |doc| {
                out.clear();
                core.canonicalize_into(doc, &mut out).is_ok() && !black_box(&out).is_empty()
            }),
        },
        after_parse("serde_jcs", serde_jcs::to_vec),
        after_parse("serde_json_canonicalizer", serde_json_canonicalizer::to_vec),
        after_parse("json_canon", json_canon::to_vec),
        after_parse("serde_json_parse_to_vec", serde_json::to_vec),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_contender_canonicalizes_every_benchmark_document_and_refuses_a_broken_one() {
        for mut contender in contenders() {
            for kind in crate::DOCUMENTS {
                assert!(
                    (contender.run)(&(kind.build)(1 << 10)),
                    "{} on {}",
                    contender.name,
                    kind.name
                );
            }
            assert!(!(contender.run)(b"[1,"), "{} accepts [1,", contender.name);
        }
    }
}
