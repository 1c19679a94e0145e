//! The structure-aware minimizer: shrinks an input while a property (in the harness: "the
//! disagreement keeps its signature") holds. Documents shaped like JSON are cut as trees: drop
//! members and elements, hoist children, shorten strings, simplify numbers; anything else, and
//! whatever the tree steps leave, is cut byte by byte.

use std::collections::HashMap;

use crate::tree::{nesting, parse, skip_ws, string_token, Node};

/// Candidates are judged in batches, so that worker round trips are shared.
pub trait Judge {
    /// The index of the first candidate, in order, for which the property still holds, if
    /// any: every candidate before it was judged and does not keep it, and those after it
    /// need not be judged at all, since the minimizer only ever takes the first.
    fn first_kept(&mut self, candidates: &[Vec<u8>]) -> Option<usize>;
}

/// A judge that names the first kept candidate itself, and so may leave those after it
/// unjudged.
pub struct FirstKept<F>(pub F);

impl<F: FnMut(&[Vec<u8>]) -> Option<usize>> Judge for FirstKept<F> {
    fn first_kept(&mut self, candidates: &[Vec<u8>]) -> Option<usize> {
        (self.0)(candidates)
    }
}

/// A closure that judges every candidate it is given.
impl<F: FnMut(&[Vec<u8>]) -> Vec<bool>> Judge for F {
    fn first_kept(&mut self, candidates: &[Vec<u8>]) -> Option<usize> {
        self(candidates).into_iter().position(|kept| kept)
    }
}

/// Candidates are judged this many at a time, smallest first; the first chunk holding one that
/// keeps the property ends the round.
const CHUNK: usize = 64;

/// The most bytes of candidates the minimizer writes out for one input, over all its rounds:
/// a bound a document of a mebibyte reaches after some dozens of candidates, and one of a few
/// kilobytes never does, so that the memory and the time one finding costs stay bounded.
const BYTE_BUDGET: usize = 64 << 20;

/// The first candidate of `chunk` the judge keeps, asking it only of those it has not judged
/// (each remembered in `judged`, up to the first kept).
fn first_kept(
    judge: &mut dyn Judge,
    judged: &mut HashMap<Vec<u8>, bool>,
    chunk: &[Vec<u8>],
) -> Option<Vec<u8>> {
    let mut fresh: Vec<Vec<u8>> = Vec::new();
    for c in chunk {
        if !judged.contains_key(c) && !fresh.contains(c) {
            fresh.push(c.clone());
        }
    }
    let first = if fresh.is_empty() {
        None
    } else {
        judge.first_kept(&fresh)
    };
    let judged_fresh = first.map_or(fresh.len(), |k| k + 1);
    judged.extend(
        fresh
            .into_iter()
            .take(judged_fresh)
            .enumerate()
            .map(|(k, c)| (c, Some(k) == first)),
    );
    chunk
        .iter()
        .find(|c| judged.get(*c).copied().unwrap_or(false))
        .cloned()
}

/// Shrinks `input` while `judge` says the property holds, trying at most `budget` candidates
/// and writing at most [`BYTE_BUDGET`] bytes of them. Every accepted step makes the input
/// strictly shorter, so it ends. A judge answers the same for the same bytes, so a candidate
/// already judged (in an earlier round, or twice in one) is not asked again; it still counts
/// against the budget, so the result does not depend on the memory.
pub fn minimize(input: &[u8], judge: &mut dyn Judge, budget: usize) -> Vec<u8> {
    let mut current = input.to_vec();
    let mut judged: HashMap<Vec<u8>, bool> = HashMap::new();
    let mut spent = 0;
    let mut bytes_left = BYTE_BUDGET;
    while spent < budget && bytes_left > 0 {
        let tree = parse(&current);
        let whole = tree.as_ref().map(Node::to_bytes);
        // Without a tree, the whitespace goes in one step all the same, and so does all but
        // the depth.
        let mut candidates = match (&tree, &whole) {
            (Some(tree), Some(whole)) => tree_candidates(tree, whole),
            _ => [without_whitespace(&current), bare_nesting(&current)]
                .into_iter()
                .flatten()
                .map(|with| {
                    Candidate::Splice(
                        &current,
                        Edit {
                            from: 0,
                            to: current.len(),
                            with,
                        },
                    )
                })
                .collect(),
        };
        candidates.extend(byte_candidates(&current));
        candidates.retain(|c| c.len() < current.len());
        candidates.sort_by_key(Candidate::len);
        // Written a chunk at a time, the twin of the one before left out, up to the budget.
        let mut order = candidates.iter();
        let mut left = budget - spent;
        let mut last: Option<Vec<u8>> = None;
        let mut smaller = None;
        loop {
            let mut chunk: Vec<Vec<u8>> = Vec::with_capacity(CHUNK);
            while chunk.len() < CHUNK && left > 0 && bytes_left > 0 {
                let Some(candidate) = order.next() else { break };
                let bytes = candidate.write();
                bytes_left = bytes_left.saturating_sub(bytes.len());
                if chunk.last().or(last.as_ref()) != Some(&bytes) {
                    chunk.push(bytes);
                    left -= 1;
                }
            }
            if chunk.is_empty() {
                break;
            }
            spent += chunk.len();
            smaller = first_kept(judge, &mut judged, &chunk);
            if smaller.is_some() {
                break;
            }
            last = chunk.pop();
        }
        match smaller {
            Some(c) => current = c,
            None => break,
        }
    }
    current
}

/// A candidate before it is written out. A round proposes thousands of them, each about as
/// long as the input, and usually keeps one of its first few chunks; so they are sorted by
/// the length they will have, and only those judged are written.
enum Candidate<'a> {
    /// A part of a text.
    Part(&'a [u8]),
    /// `base` with an edit made.
    Splice(&'a [u8], Edit),
}

impl Candidate<'_> {
    /// The length of the candidate written out.
    fn len(&self) -> usize {
        match self {
            Candidate::Part(part) => part.len(),
            Candidate::Splice(base, Edit { from, to, with }) => {
                base.len() - (to - from) + with.len()
            }
        }
    }

    /// The candidate's bytes.
    fn write(&self) -> Vec<u8> {
        match self {
            Candidate::Part(part) => part.to_vec(),
            Candidate::Splice(base, Edit { from, to, with }) => {
                let mut out = Vec::with_capacity(self.len());
                out.extend_from_slice(base.get(..*from).unwrap_or_default());
                out.extend_from_slice(with);
                out.extend_from_slice(base.get(*to..).unwrap_or_default());
                out
            }
        }
    }
}

/// The tree's compact text `whole`, then every reduction of it ([`edits`]).
fn tree_candidates<'a>(tree: &Node, whole: &'a [u8]) -> Vec<Candidate<'a>> {
    let mut found = Vec::new();
    edits(tree, whole, 0..whole.len(), &mut found);
    let mut out = Vec::with_capacity(found.len() + 1);
    out.push(Candidate::Part(whole));
    out.extend(found.into_iter().map(|edit| Candidate::Splice(whole, edit)));
    out
}

/// One change to a text: the bytes `from..to` give way to `with`. A tree's reductions are
/// edits of its compact text (one node, or one member's name); a byte cut is an edit of the
/// input with nothing in its place.
struct Edit {
    from: usize,
    to: usize,
    with: Vec<u8>,
}

/// How many bytes `node` takes in compact text.
fn written_len(node: &Node) -> usize {
    match node {
        Node::Scalar(raw) => raw.len(),
        Node::Array(items) => 1 + items.len().max(1) + items.iter().map(written_len).sum::<usize>(),
        Node::Object(members) => {
            1 + members.len().max(1)
                + members
                    .iter()
                    .map(|(name, value)| name.len() + 1 + written_len(value))
                    .sum::<usize>()
        }
    }
}

/// Every reduction of `node`, which `whole` holds in compact text at `span`, in the order the
/// minimizer tries them: children hoisted in its place, children dropped one at a time, member
/// names shortened, then each child's own reductions. Each is written as an edit of `whole`
/// rather than as a copy of the tree, so a deep document costs its length per candidate and
/// not its length times its depth.
fn edits(node: &Node, whole: &[u8], span: std::ops::Range<usize>, out: &mut Vec<Edit>) {
    let (at, end) = (span.start, span.end);
    let bytes = |from: usize, to: usize| whole.get(from..to).unwrap_or_default();
    match node {
        Node::Scalar(raw) => out.extend(scalar_variants(raw).into_iter().map(|with| Edit {
            from: at,
            to: end,
            with,
        })),
        Node::Array(items) => {
            let mut spans = Vec::with_capacity(items.len());
            let mut from = at + 1;
            for item in items {
                let to = from + written_len(item);
                spans.push((from, to));
                from = to + 1;
            }
            out.extend(spans.iter().map(|&(from, to)| Edit {
                from: at,
                to: end,
                with: bytes(from, to).to_vec(),
            }));
            out.extend((0..spans.len()).map(|dropped| Edit {
                from: at,
                to: end,
                with: enclosed(b'[', &spans, dropped, whole, b']'),
            }));
            for (item, &(from, to)) in items.iter().zip(&spans) {
                edits(item, whole, from..to, out);
            }
        }
        Node::Object(members) => {
            let mut spans = Vec::with_capacity(members.len());
            let mut from = at + 1;
            for (name, value) in members {
                let value_from = from + name.len() + 1;
                let to = value_from + written_len(value);
                spans.push((from, value_from, to));
                from = to + 1;
            }
            out.extend(spans.iter().map(|&(_, value_from, to)| Edit {
                from: at,
                to: end,
                with: bytes(value_from, to).to_vec(),
            }));
            let whole_members: Vec<(usize, usize)> =
                spans.iter().map(|&(from, _, to)| (from, to)).collect();
            out.extend((0..spans.len()).map(|dropped| Edit {
                from: at,
                to: end,
                with: enclosed(b'{', &whole_members, dropped, whole, b'}'),
            }));
            for ((name, value), &(from, value_from, to)) in members.iter().zip(&spans) {
                out.extend(scalar_variants(name).into_iter().map(|with| Edit {
                    from,
                    to: value_from - 1,
                    with,
                }));
                edits(value, whole, value_from..to, out);
            }
        }
    }
}

/// The parts of `whole` at `spans`, but for the one at `dropped`, comma-separated between
/// `open` and `close`.
fn enclosed(
    open: u8,
    spans: &[(usize, usize)],
    dropped: usize,
    whole: &[u8],
    close: u8,
) -> Vec<u8> {
    let mut out = vec![open];
    for (k, &(from, to)) in spans.iter().enumerate() {
        if k == dropped {
            continue;
        }
        if out.len() > 1 {
            out.push(b',');
        }
        out.extend_from_slice(whole.get(from..to).unwrap_or_default());
    }
    out.push(close);
    out
}

/// String variants never number more than this per string and round, so that a long string
/// costs a bounded number of copies of itself.
const MAX_STRING_VARIANTS: usize = 128;

/// Simpler forms of one raw token.
fn scalar_variants(raw: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    if raw.first() == Some(&b'"') {
        // Drop a run of units (escape sequences or UTF-8 characters): half of them, then
        // quarters, down to one unit at a time.
        let body = &raw[1..raw.len().saturating_sub(1).max(1)];
        let mut starts = Vec::new();
        let mut i = 0;
        while i < body.len() {
            starts.push(i);
            i += unit_len(&body[i..]);
        }
        starts.push(body.len());
        let units = starts.len() - 1;
        let mut size = units.div_ceil(2);
        while size >= 1 && out.len() < MAX_STRING_VARIANTS {
            let mut first = 0;
            while first < units && out.len() < MAX_STRING_VARIANTS {
                let last = (first + size).min(units);
                let mut shorter = vec![b'"'];
                shorter.extend_from_slice(&body[..starts[first]]);
                shorter.extend_from_slice(&body[starts[last]..]);
                shorter.push(b'"');
                out.push(shorter);
                first += size;
            }
            if size == 1 {
                break;
            }
            size = size.div_ceil(2);
        }
    } else {
        for simple in [&b"0"[..], b"1", b"null", b"-0", b"0.0", b"1.0", b"1e1"] {
            out.push(simple.to_vec());
        }
        // A long integer as a number of its magnitude written with an exponent, low and high,
        // so that one past the doubles stays past them in a few bytes.
        let (sign, digits) = match raw.strip_prefix(b"-") {
            Some(digits) => (&b"-"[..], digits),
            None => (&b""[..], raw),
        };
        if digits.len() > 4 && digits.iter().all(u8::is_ascii_digit) {
            for lead in [b'1', b'9'] {
                let mut magnitude = sign.to_vec();
                magnitude.push(lead);
                magnitude.extend_from_slice(format!("e{}", digits.len() - 1).as_bytes());
                out.push(magnitude);
            }
        }
        // Runs of characters dropped, half the token's, then quarters, down to one at a time,
        // a bounded number of them: a token of a megabyte costs as many copies of itself as
        // one of a hundred bytes.
        let mut size = raw.len().div_ceil(2);
        let mut dropped = 0;
        while size >= 1 && dropped < MAX_STRING_VARIANTS {
            let mut first = 0;
            while first < raw.len() && dropped < MAX_STRING_VARIANTS {
                let last = (first + size).min(raw.len());
                let mut shorter = raw.get(..first).unwrap_or_default().to_vec();
                shorter.extend_from_slice(raw.get(last..).unwrap_or_default());
                out.push(shorter);
                dropped += 1;
                first += size;
            }
            if size == 1 {
                break;
            }
            size = size.div_ceil(2);
        }
    }
    out
}

/// The length of the escape or character at the start of a string body.
fn unit_len(body: &[u8]) -> usize {
    match body {
        [b'\\', b'u', ..] => body.len().min(6),
        [b'\\', ..] => body.len().min(2),
        [b, ..] if *b >= 0xF0 => body.len().min(4),
        [b, ..] if *b >= 0xE0 => body.len().min(3),
        [b, ..] if *b >= 0xC0 => body.len().min(2),
        _ => 1,
    }
}

/// Byte-level candidates never number more than this per round.
const MAX_BYTE_CANDIDATES: usize = 2_000;

/// The input with one chunk removed, for chunk sizes halving down to one byte; the input with
/// as many bytes peeled off both ends; and the input with its outer nesting levels removed,
/// half of them, a quarter, and so on, which halves deep nesting of any shape.
fn byte_candidates(input: &[u8]) -> Vec<Candidate<'_>> {
    let mut out: Vec<Candidate> = unnested(input).into_iter().map(Candidate::Part).collect();
    let mut peel = input.len() / 4;
    while peel >= 1 {
        out.push(Candidate::Part(&input[peel..input.len() - peel]));
        peel /= 2;
    }
    let mut size = input.len() / 2;
    while size >= 1 && out.len() < MAX_BYTE_CANDIDATES {
        let mut start = 0;
        while start < input.len() {
            let end = (start + size).min(input.len());
            out.push(Candidate::Splice(
                input,
                Edit {
                    from: start,
                    to: end,
                    with: Vec::new(),
                },
            ));
            start += size;
        }
        size /= 2;
    }
    out
}

/// The input without the JSON whitespace outside its strings, when it has some: the step the
/// tree candidates begin with (the tree's compact text), for an input the tree reader does not
/// take, such as a document nested past its depth.
fn without_whitespace(input: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(input.len());
    let mut pos = 0;
    while let Some(&b) = input.get(pos) {
        match b {
            b' ' | b'\t' | b'\n' | b'\r' => pos += 1,
            b'"' => {
                let start = pos;
                match string_token(input, &mut pos) {
                    Some(token) => out.extend_from_slice(&token),
                    None => {
                        out.extend_from_slice(input.get(start..).unwrap_or_default());
                        break;
                    }
                }
            }
            _ => {
                out.push(b);
                pos += 1;
            }
        }
    }
    (out.len() < input.len()).then_some(out)
}

/// Empty arrays nested as deep as the input's brackets outside its strings, when that is
/// shorter than the input: a document too deep for the tree reader shows its disagreement by
/// its depth more often than by anything else it holds, and this is that depth at its
/// smallest, proposed in one step rather than reached a chunk a round.
fn bare_nesting(input: &[u8]) -> Option<Vec<u8>> {
    let deepest = nesting(input);
    let mut out = vec![b'['; deepest];
    out.resize(2 * deepest, b']');
    (deepest > 0 && out.len() < input.len()).then_some(out)
}

/// The input without its first `k` opening levels (`[`, or `{` and a member name) and the `k`
/// matching closers at its end, for `k` halving from half the levels down to one.
fn unnested(input: &[u8]) -> Vec<&[u8]> {
    // Where each outer level's content starts, and the closer it needs.
    let mut opens = Vec::new();
    let mut pos = 0;
    loop {
        skip_ws(input, &mut pos);
        let closer = match input.get(pos) {
            Some(b'[') => b']',
            Some(b'{') => b'}',
            _ => break,
        };
        let mut at = pos + 1;
        if closer == b'}' {
            skip_ws(input, &mut at);
            if input.get(at) != Some(&b'"') || string_token(input, &mut at).is_none() {
                break;
            }
            skip_ws(input, &mut at);
            if input.get(at) != Some(&b':') {
                break;
            }
            at += 1;
        }
        pos = at;
        opens.push((pos, closer));
    }
    // Where each outer level's content ends, outermost first.
    let mut closes = Vec::new();
    let mut end = input.len();
    for &(_, closer) in &opens {
        while end > 0 && matches!(input[end - 1], b' ' | b'\t' | b'\n' | b'\r') {
            end -= 1;
        }
        if end == 0 || input[end - 1] != closer {
            break;
        }
        end -= 1;
        closes.push(end);
    }
    let mut out = Vec::new();
    let mut k = closes.len() / 2;
    while k >= 1 {
        let (from, to) = (opens[k - 1].0, closes[k - 1]);
        if from <= to {
            out.push(&input[from..to]);
        }
        k /= 2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tree one reduction away from `node`, built by copying the tree: what the edits
    /// must write.
    fn variants(node: &Node) -> Vec<Node> {
        let mut out = Vec::new();
        match node {
            Node::Scalar(raw) => out.extend(scalar_variants(raw).into_iter().map(Node::Scalar)),
            Node::Array(items) => {
                out.extend(items.iter().cloned());
                for i in 0..items.len() {
                    let mut fewer = items.clone();
                    fewer.remove(i);
                    out.push(Node::Array(fewer));
                }
                for (i, item) in items.iter().enumerate() {
                    for variant in variants(item) {
                        let mut changed = items.clone();
                        changed[i] = variant;
                        out.push(Node::Array(changed));
                    }
                }
            }
            Node::Object(members) => {
                out.extend(members.iter().map(|(_, v)| v.clone()));
                for i in 0..members.len() {
                    let mut fewer = members.clone();
                    fewer.remove(i);
                    out.push(Node::Object(fewer));
                }
                for (i, (name, value)) in members.iter().enumerate() {
                    for shorter in scalar_variants(name) {
                        let mut changed = members.clone();
                        changed[i].0 = shorter;
                        out.push(Node::Object(changed));
                    }
                    for variant in variants(value) {
                        let mut changed = members.clone();
                        changed[i].1 = variant;
                        out.push(Node::Object(changed));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn a_refused_candidate_is_not_asked_again_and_still_counts() {
        // Property: the document still holds both 1e21 and "x". Later rounds propose again
        // many cuts earlier rounds refused, and a round can propose one cut twice: without the
        // memory, 283 candidates are asked here where 249 are distinct.
        let input: &[u8] = br#"{"a":[1,2,{"b":"xyz","c":1e21}],"d":["x","long string here"]}"#;
        let holds = |c: &[u8]| c.windows(4).any(|w| w == b"1e21") && c.contains(&b'x');
        let mut asked: Vec<Vec<u8>> = Vec::new();
        let mut judge = |cs: &[Vec<u8>]| {
            asked.extend(cs.iter().cloned());
            cs.iter().map(|c| holds(c)).collect()
        };
        let out = minimize(input, &mut judge, 10_000);
        let distinct: std::collections::HashSet<&Vec<u8>> = asked.iter().collect();
        assert_eq!(distinct.len(), asked.len(), "a candidate was asked twice");
        assert!(
            holds(&out) && out.len() < 20,
            "{}",
            String::from_utf8_lossy(&out)
        );
    }

    #[test]
    fn shrinks_to_the_part_that_matters() {
        // Property: the text still holds the number 1e21 somewhere.
        let mut judge = |cs: &[Vec<u8>]| {
            cs.iter()
                .map(|c| c.windows(4).any(|w| w == b"1e21"))
                .collect()
        };
        let out = minimize(
            br#"{"a":[1,2,{"b":"xyz","c":1e21}],"d":"long string here"}"#,
            &mut judge,
            10_000,
        );
        assert_eq!(out, b"1e21");
    }

    #[test]
    fn an_integer_past_the_doubles_shrinks_to_its_magnitude() {
        // Property: the text holds a number no double holds (as Rust's parser reads it).
        let past = |c: &[u8]| {
            std::str::from_utf8(c).is_ok_and(|t| {
                t.trim_matches(|c| c == '[' || c == ']')
                    .parse::<f64>()
                    .is_ok_and(f64::is_infinite)
            })
        };
        let mut judge = |cs: &[Vec<u8>]| cs.iter().map(|c| past(c)).collect();
        let input = format!("[-3{}]", "7".repeat(308));
        assert_eq!(minimize(input.as_bytes(), &mut judge, 10_000), b"9e308");
    }

    #[test]
    fn a_large_document_costs_a_bounded_number_of_bytes() {
        // Property: the string is longer than a mebibyte, as INK's bound on a body has it.
        // The candidates written, all about as long, stay within the byte budget.
        let input = format!("[\"{}\",1]", "x".repeat(1 << 20));
        let mut written = 0;
        let mut judge = |cs: &[Vec<u8>]| {
            written += cs.iter().map(Vec::len).sum::<usize>();
            cs.iter().map(|c| c.len() > (1 << 20)).collect()
        };
        let out = minimize(input.as_bytes(), &mut judge, 10_000);
        assert!(out.len() > 1 << 20);
        assert!(written <= BYTE_BUDGET + (1 << 21), "{written}");
    }

    #[test]
    fn shrinks_strings_by_units() {
        let mut judge = |cs: &[Vec<u8>]| {
            cs.iter()
                .map(|c| {
                    c.windows(6).any(|w| w == b"\\ud800")
                        && matches!(parse(c), Some(Node::Array(_)))
                })
                .collect()
        };
        let out = minimize(br#"["ab\u0041\ud800c\u00e9"]"#, &mut judge, 10_000);
        assert_eq!(out, br#"["\ud800"]"#);
    }

    #[test]
    fn bytes_that_are_not_json_shrink_too() {
        let mut judge = |cs: &[Vec<u8>]| cs.iter().map(|c| c.contains(&0xff)).collect();
        assert_eq!(minimize(b"[1,2,\xff,3", &mut judge, 10_000), b"\xff");
    }

    #[test]
    fn deep_nesting_is_peeled() {
        let deep = format!("{}{}", "[".repeat(3000), "]".repeat(3000));
        let mut judge = |cs: &[Vec<u8>]| {
            cs.iter()
                .map(|c| {
                    c.len() >= 258
                        && c.starts_with(b"[[")
                        && c.ends_with(b"]]")
                        && c.iter().filter(|&&b| b == b'[').count() * 2 == c.len()
                })
                .collect()
        };
        let out = minimize(deep.as_bytes(), &mut judge, 10_000);
        assert!(out.len() < 600, "{}", out.len());
    }

    #[test]
    fn nesting_of_objects_halves_in_few_rounds() {
        // Levels of 5 bytes open and 1 byte close: peeling equal ends cannot halve them.
        let deep = format!("{}1{}", r#"{"a":"#.repeat(3000), "}".repeat(3000));
        let mut judge = |cs: &[Vec<u8>]| {
            cs.iter()
                .map(|c| {
                    let n = c.iter().filter(|&&b| b == b'}').count();
                    n >= 100
                        && *c == format!("{}1{}", r#"{"a":"#.repeat(n), "}".repeat(n)).as_bytes()
                })
                .collect()
        };
        // Four rounds of 64 candidates; without halving the levels, all 3,000 are left.
        let out = minimize(deep.as_bytes(), &mut judge, 300);
        let levels = out.iter().filter(|&&b| b == b'}').count();
        assert!((100..200).contains(&levels), "{levels} levels left");
    }

    #[test]
    fn whitespace_leaves_a_document_too_deep_for_the_tree_in_one_round() {
        // Past the tree reader's depth, with strings that hold a space and escapes.
        let levels = 250;
        let spaced = format!(
            "{}\"a b\\\" c\" ,\t\"\\\\\" ,\n1{}",
            "[ ".repeat(levels),
            " ]\n".repeat(levels)
        );
        let compact = format!(
            "{}\"a b\\\" c\",\"\\\\\",1{}",
            "[".repeat(levels),
            "]".repeat(levels)
        );
        let ws = |b: &&u8| matches!(**b, b' ' | b'\t' | b'\n');
        // Kept: only whitespace taken away, and none from inside the first string.
        let mut judge = |cs: &[Vec<u8>]| {
            cs.iter()
                .map(|c| {
                    c.iter()
                        .filter(|b| !ws(b))
                        .eq(compact.as_bytes().iter().filter(|b| !ws(b)))
                        && c.windows(9).any(|w| w == br#""a b\" c""#)
                })
                .collect()
        };
        let out = minimize(spaced.as_bytes(), &mut judge, 64);
        assert_eq!(String::from_utf8_lossy(&out), compact);
    }

    #[test]
    fn a_document_too_deep_for_the_tree_keeps_its_depth_alone_in_one_round() {
        // Past the tree reader's depth, with brackets and an escaped quote in a string, a
        // sibling object whose string closes brackets, and whitespace.
        let spaced = format!(
            "{} \"[\\\"[[{{\", 2, {}true{}, {{\"a\": \"]]\"}}{}",
            "[".repeat(150),
            "[ ".repeat(100),
            " ]".repeat(100),
            "]".repeat(150)
        );
        // Kept: JSON text, as the core reads it, at least 250 deep.
        let mut core = canonfuzz_core::jcs::Canonicalizer::default();
        let mut judge = |cs: &[Vec<u8>]| {
            cs.iter()
                .map(|c| core.canonicalize(c).is_ok() && nesting(c) >= 250)
                .collect()
        };
        let out = minimize(spaced.as_bytes(), &mut judge, 64);
        let bare = format!("{}{}", "[".repeat(250), "]".repeat(250));
        assert_eq!(String::from_utf8_lossy(&out), bare);
    }

    #[test]
    fn edits_write_what_copying_the_tree_writes() {
        let deep = format!("{}\"deep\",0{}", "[".repeat(40), "]".repeat(40));
        let documents: [&[u8]; 6] = [
            br#"{"a":[1,2,{"b":"xyz","c":1e21}],"d":["x","long string here"]}"#,
            br#" [ [] , {} , [ { "k" : [ -0.0 , "\u00e9" ] } ] , "s" ] "#,
            br#"{"":{"":{"":[[[[1]]]]}},"z":null,"z":true}"#,
            br#""just a string""#,
            b"12345",
            deep.as_bytes(),
        ];
        for document in documents {
            let tree = parse(document).expect("a JSON document");
            let mut copied = vec![tree.to_bytes()];
            copied.extend(variants(&tree).iter().map(Node::to_bytes));
            let whole = tree.to_bytes();
            let written: Vec<Vec<u8>> = tree_candidates(&tree, &whole)
                .iter()
                .map(Candidate::write)
                .collect();
            assert_eq!(written, copied, "{}", String::from_utf8_lossy(document));
        }
    }

    #[test]
    fn the_budget_is_respected() {
        let mut calls = 0;
        let mut judge = |cs: &[Vec<u8>]| {
            calls += cs.len();
            vec![false; cs.len()]
        };
        minimize(&[b'x'; 200], &mut judge, 50);
        assert!(calls <= 50);
    }

    #[test]
    fn a_long_string_costs_a_bounded_number_of_copies() {
        let long = format!("\"{}\"", "ab".repeat(50_000));
        let variants = scalar_variants(long.as_bytes());
        assert_eq!(variants.len(), MAX_STRING_VARIANTS);
        assert_eq!(variants[0].len(), 50_002, "the first halves the string");
        let short = scalar_variants(br#""abc""#);
        assert!(short.contains(&br#""bc""#.to_vec()) && short.contains(&br#""ab""#.to_vec()));
    }
}
