//! The `jcs_diff` target: structure-aware documents through the core and the in-process Rust
//! crates, judged by the JCS policies.
//!
//! Its inputs come in two shapes, told apart by the first byte: `0` followed by a document's
//! bytes (how seeds from the corpus are written), or anything else, whose bytes drive
//! `arbitrary` to build a document aimed where implementations differ.

use std::sync::OnceLock;

use arbitrary::Unstructured;

use crate::impls::Implementation;
use crate::jcs::impls::{rust_crates, CoreImpl};
use crate::jcs::policies::JCS_RULES;
use crate::panel::Panel;

/// Deepest nesting the structured generator builds.
const MAX_DEPTH: usize = 24;

/// The document a `jcs_diff` input stands for.
pub fn jcs_diff_document(data: &[u8]) -> Vec<u8> {
    match data.split_first() {
        Some((0, document)) => document.to_vec(),
        _ => {
            let mut u = Unstructured::new(data);
            let mut out = Vec::new();
            let _ = value(&mut u, 0, &mut out);
            out
        }
    }
}

/// The `jcs_diff` seed for a document: a zero byte, then the document.
pub fn jcs_diff_seed(document: &[u8]) -> Vec<u8> {
    let mut seed = vec![0];
    seed.extend_from_slice(document);
    seed
}

/// The `jcs_diff` target's comparison: `core` (the core itself when `None`) and the in-process
/// Rust crates ([`crate::jcs::impls::RUST_CRATES`]).
pub fn jcs_diff_panel(core: Option<Box<dyn Implementation>>) -> Panel {
    let mut impls = vec![core.unwrap_or_else(|| Box::new(CoreImpl))];
    impls.extend(rust_crates());
    Panel::new(JCS_RULES, impls)
}

/// Compares the core with the in-process implementations on `document`; returns the
/// signature when the core departs from them in a way no registered policy explains. With only
/// one independence group in process, that group's majority stands as the consensus.
pub fn jcs_diff_check(document: &[u8]) -> Result<(), String> {
    static PANEL: OnceLock<Panel> = OnceLock::new();
    PANEL
        .get_or_init(|| jcs_diff_panel(None))
        .diverges(document)
}

fn whitespace(u: &mut Unstructured, out: &mut Vec<u8>) -> arbitrary::Result<()> {
    if u.ratio(1, 4)? {
        out.extend_from_slice(u.choose(&[&b" "[..], b"\t", b"\r", b"\n", b"  \t"])?);
    }
    Ok(())
}

fn value(u: &mut Unstructured, depth: usize, out: &mut Vec<u8>) -> arbitrary::Result<()> {
    whitespace(u, out)?;
    let kinds = if depth >= MAX_DEPTH { 4 } else { 6 };
    match u.choose_index(kinds)? {
        0 => out.extend_from_slice(u.choose(&[&b"null"[..], b"true", b"false"])?),
        1 => number(u, out)?,
        2 => string(u, out)?,
        3 => {
            let raw: Vec<u8> = u.arbitrary()?;
            out.extend(raw.into_iter().take(8));
        }
        4 => {
            out.push(b'[');
            for i in 0..u.int_in_range(0..=4)? {
                if i > 0 {
                    out.push(b',');
                }
                value(u, depth + 1, out)?;
            }
            out.push(b']');
        }
        _ => {
            out.push(b'{');
            for i in 0..u.int_in_range(0..=4)? {
                if i > 0 {
                    out.push(b',');
                }
                whitespace(u, out)?;
                string(u, out)?;
                whitespace(u, out)?;
                out.push(b':');
                value(u, depth + 1, out)?;
            }
            out.push(b'}');
        }
    }
    whitespace(u, out)
}

/// A number in one of the textual forms of the kinds of values that trip formatters.
fn number(u: &mut Unstructured, out: &mut Vec<u8>) -> arbitrary::Result<()> {
    if u.ratio(1, 8)? {
        let bits: u64 = u.arbitrary()?;
        let v = f64::from_bits(bits);
        if v.is_finite() {
            let text = if u.arbitrary()? {
                format!("{v:e}")
            } else {
                format!("{v:?}")
            };
            out.extend_from_slice(text.as_bytes());
            return Ok(());
        }
    }
    if u.arbitrary()? {
        out.push(b'-');
    }
    let mantissa: u64 = u.arbitrary()?;
    let digits = mantissa >> u.int_in_range(0..=63)?;
    out.extend_from_slice(digits.to_string().as_bytes());
    if u.arbitrary()? {
        out.push(b'.');
        let fraction: u32 = u.arbitrary()?;
        out.extend_from_slice(
            format!("{fraction:0width$}", width = u.int_in_range(1..=12)?).as_bytes(),
        );
    }
    if u.arbitrary()? {
        out.push(*u.choose(b"eE")?);
        out.extend_from_slice(u.choose(&[&b""[..], b"+", b"-"])?);
        let exponent: u16 = u.int_in_range(0..=400)?;
        out.extend_from_slice(
            format!("{exponent:0width$}", width = u.int_in_range(1..=4)?).as_bytes(),
        );
    }
    Ok(())
}

/// A string literal: characters raw or escaped (either hex case, short escapes), and now and
/// then a lone or reversed surrogate.
fn string(u: &mut Unstructured, out: &mut Vec<u8>) -> arbitrary::Result<()> {
    out.push(b'"');
    for _ in 0..u.int_in_range(0..=6)? {
        let c = if u.ratio(1, 4)? {
            u.arbitrary::<char>()?
        } else {
            *u.choose(&crate::jcs::tricky::TRICKY)?
        };
        match u.choose_index(6)? {
            0 | 1 => {
                let upper: bool = u.arbitrary()?;
                out.extend_from_slice(crate::jcs::tricky::escape(c, upper).as_bytes());
            }
            2 if u.ratio(1, 4)? => {
                let lone: u16 = u.int_in_range(0xD800..=0xDFFF)?;
                out.extend_from_slice(format!("\\u{lone:04x}").as_bytes());
            }
            3 => out.extend_from_slice(u.choose(&[
                &b"\\n"[..],
                b"\\t",
                b"\\\"",
                b"\\\\",
                b"\\/",
                b"\\b",
                b"\\f",
                b"\\r",
            ])?),
            _ => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out.push(b'"');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;

    #[test]
    fn serde_jsons_marker_name_is_explained_only_as_a_member_name() {
        // The in-process Rust crates refuse an object starting with the marker's name (the
        // core accepts it, as Node and Python do); as a string value it is nothing special.
        assert!(jcs_diff_check(br#"{"$serde_json::private::RawValue":0}"#).is_ok());
        assert!(jcs_diff_check(br#"{"\u0024serde_json::private::RawValue":[1]}"#).is_ok());
        assert!(jcs_diff_check(br#"["$serde_json::private::RawValue"]"#).is_ok());
        let document: &[u8] = br#"{"$serde_json::private::RawValue":0}"#;
        let evaluation = jcs_diff_panel(None).evaluate(document);
        assert!(
            matches!(evaluation.verdict, Verdict::Policy(p) if p.id == "serde-json-marker-name"),
            "{:?}",
            evaluation.verdict
        );
    }

    #[test]
    fn seeds_stand_for_their_document() {
        assert_eq!(jcs_diff_document(&jcs_diff_seed(b"[1e21]")), b"[1e21]");
    }

    #[test]
    fn structured_inputs_build_documents_shaped_like_json() {
        let mut parsed = 0;
        for i in 0..200u32 {
            let data: Vec<u8> = (0..256u32)
                .map(|j| (i.wrapping_mul(2654435761).wrapping_add(j * 40503) >> 7) as u8)
                .collect();
            let doc = jcs_diff_document(&data);
            parsed += usize::from(canonfuzz_core::jcs::canonicalize(&doc).is_ok());
        }
        assert!(
            parsed > 20,
            "only {parsed} of 200 documents were valid JSON"
        );
    }

    #[test]
    fn the_core_agrees_with_the_in_process_crates_on_the_corpus_seeds() {
        for doc in [
            &b"{\"b\":[1e21,0.1],\"a\":\"\\u00e9\"}"[..],
            b"{\"a\":1,\"a\":2}",
            b"[9007199254740993]",
        ] {
            assert_eq!(
                jcs_diff_check(doc),
                Ok(()),
                "{}",
                String::from_utf8_lossy(doc)
            );
        }
    }
}
