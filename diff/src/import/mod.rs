//! Turns published third-party test data into conformance vectors, recording where each
//! expected result comes from. Expected outputs are always the source's own; where a source
//! gives a double as IEEE-754 bits, the input text is those bits written with 17 significant
//! digits by Rust's standard formatter (exact, so it parses back to the same bits), which
//! deliberately differs from the canonical text.

use std::path::{Path, PathBuf};

use crate::families::{
    ed25519::import as ed25519, ekl::import as ekl, jcs::import as jcs, vmcp::envelopes as vmcp,
};
use crate::manifest::Manifest;

/// A source of third-party vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SourceKind {
    /// The RFC 8785 reference suite: a directory with `input/`, `output/` and `outhex/`.
    Rfc8785Suite,
    /// RFC 8785 Appendix B, the number serialization samples (needs no path).
    Rfc8785AppendixB,
    /// The ES6 number file: lines of `<IEEE-754 bits in hex>,<Number.prototype.toString>`.
    Es6Numbers,
    /// Round-to-even digit ties: a TSV of input, expected output, layout branch.
    EsNumberTies,
    /// The adapter-profile seed (fixed JSON): each case's value and its JCS string.
    EklSeed,
    /// The adapter-profile seed (fixed JSON): fingerprints, result selection, challenge proof.
    EklProfile,
    /// Wycheproof's Ed25519 verification vectors (`ed25519_test.json`).
    WycheproofEd25519,
    /// The CCTV Ed25519 edge cases (`ed25519vectors.json`), with their flags.
    CctvEd25519,
    /// The 12 cases of "Taming the many EdDSAs" (`cases.json`).
    SpeccheckEd25519,
    /// verifiable-mcp responses signed with the deterministic test key (needs no path).
    VmcpEnvelopes,
    /// verifiable-mcp forgeries signed with the deterministic test key (needs no path).
    VmcpForgeries,
}

impl SourceKind {
    /// The vector file this source becomes, relative to the corpus directory.
    pub fn target(self) -> &'static str {
        match self {
            SourceKind::Rfc8785Suite => "jcs/rfc8785-suite.json",
            SourceKind::Rfc8785AppendixB => "jcs/rfc8785-appendix-b.json",
            SourceKind::Es6Numbers => "jcs/es6-numbers.json",
            SourceKind::EsNumberTies => "jcs/es-number-ties.json",
            SourceKind::EklSeed => "jcs/ekl-seed-000.json",
            SourceKind::EklProfile => "ekl/seed-000.json",
            SourceKind::WycheproofEd25519 => "ed25519/wycheproof.json",
            SourceKind::CctvEd25519 => "ed25519/cctv.json",
            SourceKind::SpeccheckEd25519 => "ed25519/speccheck.json",
            SourceKind::VmcpEnvelopes => "vmcp/signed-responses.json",
            SourceKind::VmcpForgeries => "vmcp/forgeries.json",
        }
    }
}

/// Converts `path` (ignored for Appendix B) into the source's vector file under `corpus`, then
/// rebuilds the manifest. Returns the file written and its test count.
pub fn import(
    kind: SourceKind,
    path: Option<&Path>,
    corpus: &Path,
) -> Result<(PathBuf, usize), String> {
    let need = || path.ok_or_else(|| format!("the {kind:?} source needs a path"));
    let vectors = match kind {
        SourceKind::Rfc8785Suite => jcs::rfc8785_suite(need()?)?,
        SourceKind::Rfc8785AppendixB => jcs::appendix_b()?,
        SourceKind::Es6Numbers => jcs::es6_numbers(need()?)?,
        SourceKind::EsNumberTies => jcs::es_number_ties(need()?)?,
        SourceKind::EklSeed => jcs::ekl_seed(need()?)?,
        SourceKind::EklProfile => ekl::profile(need()?)?,
        SourceKind::WycheproofEd25519 => ed25519::wycheproof(need()?)?,
        SourceKind::CctvEd25519 => ed25519::cctv(need()?)?,
        SourceKind::SpeccheckEd25519 => ed25519::speccheck(need()?)?,
        SourceKind::VmcpEnvelopes => vmcp::envelopes()?,
        SourceKind::VmcpForgeries => vmcp::forgeries()?,
    };
    let target = corpus.join(kind.target());
    vectors.write(&target)?;
    Manifest::build(corpus, crate::families::all())?.write(corpus)?;
    Ok((target, vectors.number_of_tests))
}
