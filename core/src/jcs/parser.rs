//! The one-pass canonicalizer: reads JSON text and writes canonical bytes as it goes.
//!
//! Nesting is tracked on a heap stack, never the call stack, so depth costs memory only up to
//! the configured limit. Object members are written in input order; when an object closes its
//! members are sorted by name and, only if they were out of order, moved into place within the
//! output.

use std::cmp::Ordering;

use super::copy::{copy_span, SHORT_SPAN};
use super::error::{describe_byte, BrokenRule, ErrorKind, Fault};
use super::number::parse_number;
use super::order::{cmp_utf16, sort_key};
use super::permute::permute_blocks;
use super::string::{parse_name, parse_value};
use super::word::word_at;

/// Buffers reused from one document to the next.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    frames: Vec<Frame>,
    members: Vec<Member>,
    names: Vec<u8>,
    /// A copy of a small object's body, for writing its members back in order.
    reorder: Vec<u8>,
    /// For reordering a large object in place: each member's canonical place, and where it starts.
    ranks: Vec<usize>,
    offsets: Vec<usize>,
    /// For an object sorted by comparisons, each member's [`sort_key`] of its name's second
    /// eight bytes.
    second_keys: Vec<u64>,
    /// Canonical member orders of recent objects, by member count.
    shapes: [Shape; SHAPES],
}

/// Bodies of out-of-order objects up to this size are copied aside and written back in
/// order, which is fastest; larger ones are reordered in place, so that memory stays within
/// the output and this bound.
const COPIED_BODY: usize = 16 * 1024;

/// Slots of the shape cache: objects of different member counts, such as a record and an
/// object nested in it, keep their shapes side by side.
const SHAPES: usize = 8;

/// The canonical order of an object whose names all appear unescaped in the input. Arrays
/// of records repeat the same names in the same order, and an object with the names of a
/// shape sorts as the shape did, without duplicates, so it needs neither sorting nor checking.
#[derive(Debug, Default)]
struct Shape {
    /// The input spans of the names, in the order written; empty when the slot is unused.
    names: Vec<(usize, usize)>,
    /// For each place in canonical order, the index of the member written there.
    order: Vec<usize>,
}

impl Shape {
    /// Whether `members` have this shape's names, in the same order.
    fn fits(&self, members: &[Member], input: &[u8]) -> bool {
        self.names.len() == members.len()
            && members
                .iter()
                .zip(&self.names)
                .all(|(m, &(s, e))| match m.name {
                    Name::Input(ms, me) => same_name(input, (ms, me), (s, e)),
                    Name::Decoded(..) => false,
                })
    }

    /// Remembers the names of `members`, if none is escaped.
    fn remember(&mut self, members: &[Member]) {
        self.names.clear();
        for member in members {
            match member.name {
                Name::Input(s, e) => self.names.push((s, e)),
                Name::Decoded(..) => {
                    self.names.clear();
                    return;
                }
            }
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Frame {
    Array,
    Object {
        /// Index of the object's first entry in `Scratch::members`.
        first_member: usize,
        /// Length of `Scratch::names` when the object opened.
        names_len: usize,
        /// Offset in the output just past the `{`.
        body_start: usize,
    },
}

/// Where a member's decoded name is kept: in the input when it has no escapes, otherwise in
/// `Scratch::names`.
#[derive(Debug, Clone, Copy)]
enum Name {
    Input(usize, usize),
    Decoded(usize, usize),
}

#[derive(Debug, Clone, Copy)]
struct Member {
    name: Name,
    /// Input offset of the name's opening quote, for error messages.
    name_offset: usize,
    /// The decoded name is ASCII, so plain byte order is its UTF-16 order.
    ascii: bool,
    /// The name's [`sort_key`], which decides most comparisons alone; set when the object
    /// closes.
    key: u64,
    /// Where the member's `"name":value` bytes start in the output.
    start: usize,
}

#[cold]
fn invalid_literal(pos: usize, word: &[u8]) -> Fault {
    Fault::syntax(
        pos,
        format!(
            "invalid literal; the only bare words in JSON are true, false and null (expected {})",
            String::from_utf8_lossy(word)
        ),
    )
}

/// Whether two names in the input are the same bytes. A name of at most eight bytes, most of
/// them, is compared as one masked word read from the input, not by a call to memcmp.
fn same_name(input: &[u8], (s1, e1): (usize, usize), (s2, e2): (usize, usize)) -> bool {
    let len = e1.wrapping_sub(s1);
    if len != e2.wrapping_sub(s2) {
        return false;
    }
    if len > 8 {
        return span(input, s1, e1) == span(input, s2, e2);
    }
    let mask = u64::MAX.checked_shr(8 * (8 - len) as u32).unwrap_or(0);
    (word_at(input, s1) ^ word_at(input, s2)) & mask == 0
}

/// Returns `buf[start..end]`; the parser only asks for ranges it recorded itself.
fn span(buf: &[u8], start: usize, end: usize) -> &[u8] {
    buf.get(start..end).unwrap_or_default()
}

pub(crate) struct Parser<'a, 'b> {
    input: &'a [u8],
    pos: usize,
    out: &'b mut Vec<u8>,
    scratch: &'b mut Scratch,
    max_depth: usize,
    /// Whether the innermost open container is an array, kept beside the frames so that
    /// runs of array elements need not look it up.
    in_array: bool,
    /// The first of I-JSON's extra rules (unique names, paired surrogates, the double range,
    /// depth) the document broke, once it has broken one. Kept outside the parser, so that
    /// lending it to a call lends no part of the parser, whose fields then stay in registers.
    broken: &'b mut BrokenRule,
}

impl<'a, 'b> Parser<'a, 'b> {
    pub(crate) fn new(
        input: &'a [u8],
        out: &'b mut Vec<u8>,
        scratch: &'b mut Scratch,
        max_depth: usize,
        broken: &'b mut BrokenRule,
    ) -> Self {
        scratch.frames.clear();
        scratch.members.clear();
        scratch.names.clear();
        for shape in &mut scratch.shapes {
            shape.names.clear();
        }
        Parser {
            input,
            pos: 0,
            out,
            scratch,
            max_depth,
            in_array: false,
            broken,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    /// Skips RFC 8259's four whitespace characters, each found by a bit test: a match on
    /// them compiled to a jump, mispredicted where the spacing of a text varies.
    fn skip_whitespace(&mut self) {
        const WHITESPACE: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\n' | 1 << b'\r';
        while let Some(&b) = self.input.get(self.pos) {
            if b > b' ' || WHITESPACE >> b & 1 == 0 {
                break;
            }
            self.pos += 1;
        }
    }

    fn unexpected(&self, expected: &str) -> Fault {
        let found = describe_byte(self.input, self.pos);
        Fault::syntax(self.pos, format!("expected {expected}, found {found}"))
    }

    /// Canonicalizes the whole input. A document that breaks an I-JSON rule is read on to
    /// its end without the rules, so that a grammar error anywhere in it is what is reported
    /// (see the module's "Which error is reported"), in one reading.
    pub(crate) fn run(mut self) -> Result<(), Fault> {
        self.read()?;
        std::mem::take(self.broken).into_result()
    }

    /// Reads the whole input, stopping at the first grammar error.
    fn read(&mut self) -> Result<(), Fault> {
        self.skip_whitespace();
        if self.pos == self.input.len() {
            return Err(Fault::syntax(
                self.pos,
                "the input holds no JSON value; expected an object, array, string, number, \
                 true, false or null",
            ));
        }
        loop {
            if self.value()? {
                continue;
            }
            if self.after_value()? {
                return Ok(());
            }
        }
    }

    /// Parses one value at the current position. A container is only opened (with its first
    /// member's name, if it has members); returns true when a value is due next.
    fn value(&mut self) -> Result<bool, Fault> {
        self.skip_whitespace();
        match self.peek() {
            Some(b'{') => self.open_object(),
            Some(b'[') => self.open_array(),
            Some(b'"') => {
                self.pos = parse_value(self.input, self.pos, self.out, self.broken)?;
                self.more_scalars()?;
                Ok(false)
            }
            Some(b'-' | b'0'..=b'9') => {
                self.pos = parse_number(self.input, self.pos, self.out, self.broken)?;
                self.more_scalars()?;
                Ok(false)
            }
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            _ => Err(self.unexpected("a JSON value")),
        }
    }

    /// In an array, parses the strings and numbers that follow the element just parsed
    /// straight after a comma: runs of scalars, the bulk of many documents, taken in one
    /// loop rather than a trip through the value loop each.
    fn more_scalars(&mut self) -> Result<(), Fault> {
        while self.in_array {
            self.pos = match self.input.get(self.pos..self.pos + 2) {
                Some([b',', b'"']) => {
                    self.out.push(b',');
                    parse_value(self.input, self.pos + 1, self.out, self.broken)?
                }
                Some([b',', b'-' | b'0'..=b'9']) => {
                    self.out.push(b',');
                    parse_number(self.input, self.pos + 1, self.out, self.broken)?
                }
                _ => break,
            };
        }
        Ok(())
    }

    /// Copies `true`, `false` or `null`; the length is a constant so the copy is too.
    fn literal<const N: usize>(&mut self, word: &'static [u8; N]) -> Result<bool, Fault> {
        if self.input.get(self.pos..self.pos + N) == Some(word.as_slice()) {
            self.out.extend_from_slice(word);
            self.pos += N;
            Ok(false)
        } else {
            Err(invalid_literal(self.pos, word))
        }
    }

    fn push_frame(&mut self, frame: Frame) {
        if self.scratch.frames.len() >= self.max_depth {
            let (pos, max_depth) = (self.pos, self.max_depth);
            self.broken.note(|| {
                Fault::new(
                    ErrorKind::DepthLimit,
                    pos,
                    format!(
                        "arrays and objects are nested more than {max_depth} levels deep; \
                         flatten the document, or raise the limit (--max-depth) if its source \
                         is trusted"
                    ),
                )
            });
        }
        self.in_array = matches!(frame, Frame::Array);
        self.scratch.frames.push(frame);
    }

    fn pop_frame(&mut self) {
        self.scratch.frames.pop();
        self.in_array = matches!(self.scratch.frames.last(), Some(Frame::Array));
    }

    fn open_array(&mut self) -> Result<bool, Fault> {
        self.push_frame(Frame::Array);
        self.out.push(b'[');
        self.pos += 1;
        self.skip_whitespace();
        Ok(self.peek() != Some(b']'))
    }

    fn open_object(&mut self) -> Result<bool, Fault> {
        self.push_frame(Frame::Object {
            first_member: self.scratch.members.len(),
            names_len: self.scratch.names.len(),
            body_start: self.out.len() + 1,
        });
        self.out.push(b'{');
        self.pos += 1;
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            Ok(false)
        } else {
            self.member_name()?;
            Ok(true)
        }
    }

    /// Parses `"name":` and records the member.
    #[inline(always)]
    fn member_name(&mut self) -> Result<(), Fault> {
        self.skip_whitespace();
        if self.peek() != Some(b'"') {
            return Err(self.unexpected("a member name in double quotes"));
        }
        let name_offset = self.pos;
        let start = self.out.len();
        let names_start = self.scratch.names.len();
        let parsed = parse_name(
            self.input,
            self.pos,
            self.out,
            &mut self.scratch.names,
            self.broken,
        )?;
        self.pos = parsed.end;
        let name = if parsed.escaped {
            Name::Decoded(names_start, self.scratch.names.len())
        } else {
            Name::Input(name_offset + 1, parsed.end - 1)
        };
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(self.unexpected("':' after the member name"));
        }
        self.pos += 1;
        self.out.push(b':');
        self.scratch.members.push(Member {
            name,
            name_offset,
            ascii: parsed.ascii,
            key: 0,
            start,
        });
        Ok(())
    }

    /// Handles what may follow a complete value: separators and closing brackets, as many as
    /// there are. Returns true when the document is complete, false when another value is due.
    fn after_value(&mut self) -> Result<bool, Fault> {
        loop {
            self.skip_whitespace();
            // Only the kind of the open container is read here, and its fields only when an
            // object closes: copying the whole frame just pushed would stall on store
            // forwarding.
            let in_array = match self.scratch.frames.last() {
                None => {
                    return if self.pos == self.input.len() {
                        Ok(true)
                    } else {
                        Err(self.unexpected("the end of the input after the JSON value"))
                    };
                }
                Some(Frame::Array) => true,
                Some(Frame::Object { .. }) => false,
            };
            match (self.peek(), in_array) {
                (Some(b','), _) => {
                    self.pos += 1;
                    self.out.push(b',');
                    if !in_array {
                        self.member_name()?;
                    }
                    return Ok(false);
                }
                (Some(b']'), true) => {
                    self.pos += 1;
                    self.out.push(b']');
                    self.pop_frame();
                }
                (Some(b'}'), false) => {
                    if let Some(&Frame::Object {
                        first_member,
                        names_len,
                        body_start,
                    }) = self.scratch.frames.last()
                    {
                        if let Err(duplicate) = self.close_object(first_member, body_start) {
                            self.broken.note(|| duplicate);
                        }
                        self.scratch.members.truncate(first_member);
                        self.scratch.names.truncate(names_len);
                    }
                    self.pos += 1;
                    self.out.push(b'}');
                    self.pop_frame();
                }
                (_, true) => return Err(self.unexpected("',' or ']' after an array element")),
                (_, false) => return Err(self.unexpected("',' or '}' after an object member")),
            }
        }
    }

    /// Puts the members of the object being closed in canonical order, rejecting duplicates.
    fn close_object(&mut self, first_member: usize, body_start: usize) -> Result<(), Fault> {
        if self.broken.is_broken() {
            return Ok(());
        }
        let input = self.input;
        let close = self.out.len();
        let Scratch {
            members,
            names,
            reorder,
            ranks,
            offsets,
            second_keys,
            shapes,
            ..
        } = &mut *self.scratch;
        let members = members.get_mut(first_member..).unwrap_or_default();
        if members.len() < 2 {
            return Ok(());
        }
        let Some(shape) = shapes.get_mut(members.len() % SHAPES) else {
            return Ok(());
        };
        if !shape.fits(members, input) {
            sort_members(members, input, names, second_keys, shape)?;
        }
        if shape.order.iter().enumerate().all(|(i, &at)| i == at) {
            return Ok(());
        }
        let body = self.out.get(body_start..).unwrap_or_default();
        if body.len() <= COPIED_BODY {
            reorder.clear();
            reorder.extend_from_slice(body);
            // Room past the last member, so that it too is copied as a short span.
            reorder.extend_from_slice(&[0; SHORT_SPAN]);
            self.out.truncate(body_start);
            for (i, &at) in shape.order.iter().enumerate() {
                if i > 0 {
                    self.out.push(b',');
                }
                // A member ends where the comma before the next one is, the last where the
                // object closes.
                let start = members.get(at).map_or(close, |m| m.start);
                let end = members.get(at + 1).map_or(close, |m| m.start - 1);
                copy_span(
                    reorder,
                    start.saturating_sub(body_start),
                    end.saturating_sub(body_start),
                    self.out,
                );
            }
            return Ok(());
        }
        // Each member is moved with the comma after it; the last one borrows a comma for the
        // while.
        ranks.clear();
        ranks.resize(members.len(), 0);
        for (place, &at) in shape.order.iter().enumerate() {
            if let Some(rank) = ranks.get_mut(at) {
                *rank = place;
            }
        }
        offsets.clear();
        offsets.extend(members.iter().map(|m| m.start.saturating_sub(body_start)));
        self.out.push(b',');
        if let Some(body) = self.out.get_mut(body_start..) {
            permute_blocks(body, ranks, offsets);
        }
        self.out.pop();
        Ok(())
    }
}

/// Objects of up to this many members are ordered by [`rank_by_keys`] when their keys differ.
const RANKED: usize = 16;

/// Puts in `order` (holding `0..n`) the canonical order of `members` when they are few and
/// their sort keys all differ, which then decide it alone and also rule out duplicate
/// names; returns false, `order` unchanged, otherwise. Each member's place is the count of
/// keys below its own: comparisons that are summed, not branched on, where a comparison
/// sort of names in random order would mispredict about every other one.
fn rank_by_keys(members: &[Member], order: &mut [usize]) -> bool {
    if members.len() > RANKED {
        return false;
    }
    let mut keys = [0u64; RANKED];
    for (slot, member) in keys.iter_mut().zip(members) {
        *slot = member.key;
    }
    let keys = keys.get(..members.len()).unwrap_or_default();
    let mut places = [0usize; RANKED];
    let mut ties = 0;
    for (place, &key) in places.iter_mut().zip(keys) {
        *place = keys.iter().map(|&other| usize::from(other < key)).sum();
        ties += keys
            .iter()
            .map(|&other| usize::from(other == key))
            .sum::<usize>();
    }
    if ties != keys.len() {
        return false;
    }
    for (member, &place) in places.iter().take(keys.len()).enumerate() {
        if let Some(slot) = order.get_mut(place) {
            *slot = member;
        }
    }
    true
}

/// Finds the canonical order of `members` by their decoded names and records it in `shape`,
/// or rejects the first duplicate name.
fn sort_members(
    members: &mut [Member],
    input: &[u8],
    names: &[u8],
    second_keys: &mut Vec<u64>,
    shape: &mut Shape,
) -> Result<(), Fault> {
    // The text a member's name lies in, and where.
    let located = |m: &Member| match m.name {
        Name::Input(s, e) => (input, s, e),
        Name::Decoded(s, e) => (names, s, e),
    };
    let name_of = |m: &Member| {
        let (text, start, end) = located(m);
        span(text, start, end)
    };
    for member in members.iter_mut() {
        let (text, start, end) = located(member);
        member.key = sort_key(text, start, end, member.ascii);
    }
    // When either name is ASCII, the first difference involves an ASCII byte, where byte
    // order and UTF-16 order agree.
    let names_order = |a: &Member, b: &Member| {
        if a.ascii || b.ascii {
            name_of(a).cmp(name_of(b))
        } else {
            cmp_utf16(name_of(a), name_of(b))
        }
    };
    let order_of = |a: &Member, b: &Member| a.key.cmp(&b.key).then_with(|| names_order(a, b));
    let mut order: Vec<usize> = std::mem::take(&mut shape.order);
    order.clear();
    order.extend(0..members.len());
    let in_order = members
        .windows(2)
        .all(|pair| matches!(pair, [a, b] if order_of(a, b) == Ordering::Less));
    if !in_order && !rank_by_keys(members, &mut order) {
        // Names that share their first eight bytes are common (URIs, prefixed names, fuzzed
        // text); their next eight decide most comparisons without reading the names again.
        second_keys.clear();
        second_keys.extend(members.iter().map(|m| {
            let (text, start, end) = located(m);
            sort_key(text, (start + 8).min(end), end, m.ascii)
        }));
        let second = |i: usize| second_keys.get(i).copied().unwrap_or(0);
        order.sort_unstable_by(|&a, &b| match (members.get(a), members.get(b)) {
            (Some(x), Some(y)) => x
                .key
                .cmp(&y.key)
                .then_with(|| second(a).cmp(&second(b)))
                .then_with(|| names_order(x, y)),
            _ => Ordering::Equal,
        });
        if let Some((second, first, member)) = first_duplicate(&order, members, name_of) {
            shape.names.clear();
            return Err(Fault::new(
                ErrorKind::DuplicateKey,
                second,
                format!(
                    "duplicate member name {} (first at byte {first}); I-JSON requires \
                     unique names after unescaping: remove or rename one of them",
                    crate::shown::quoted(&String::from_utf8_lossy(name_of(&member)))
                ),
            ));
        }
    }
    shape.remember(members);
    shape.order = order;
    Ok(())
}

/// The earliest duplicate name of `members` sorted as `order`: the offset of its first
/// repeat, of its first occurrence, and the member.
fn first_duplicate<'n>(
    order: &[usize],
    members: &[Member],
    name_of: impl Fn(&Member) -> &'n [u8],
) -> Option<(usize, usize, Member)> {
    // Equal names sort next to each other, in no set order among themselves: a name's
    // first repeat is the second lowest offset of its run, and the object's first
    // duplicate is the earliest of those.
    let mut duplicate = None;
    // The run of equal names the last member read belongs to: its lowest offset, and its
    // second lowest once the name has come again.
    let (mut first, mut repeat) = (usize::MAX, usize::MAX);
    let mut last: Option<&Member> = None;
    for member in order.iter().filter_map(|&i| members.get(i)) {
        let at = member.name_offset;
        match last {
            Some(head) if head.key == member.key && name_of(head) == name_of(member) => {
                (first, repeat) = if at < first {
                    (at, first)
                } else {
                    (first, repeat.min(at))
                };
            }
            _ => {
                earliest_repeat(last, first, repeat, &mut duplicate);
                (first, repeat) = (at, usize::MAX);
            }
        }
        last = Some(member);
    }
    earliest_repeat(last, first, repeat, &mut duplicate);
    duplicate
}

/// Keeps in `earliest` (repeat offset, first offset, member) the name whose first repeat
/// comes first in the input: the run of `member`'s name, whose lowest offsets are `first`
/// and `repeat` (`usize::MAX` when the name came once), if it repeats before the one kept.
fn earliest_repeat(
    member: Option<&Member>,
    first: usize,
    repeat: usize,
    earliest: &mut Option<(usize, usize, Member)>,
) {
    if let Some(member) = member.filter(|_| repeat != usize::MAX) {
        if earliest.is_none_or(|(kept, _, _)| repeat < kept) {
            *earliest = Some((repeat, first, *member));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{canonicalize, ErrorKind};
    use canonfuzz_rng::Rng;

    #[test]
    fn whitespace_is_the_four_characters_of_rfc_8259() {
        // RFC 8259 §2: ws = %x20 / %x09 / %x0A / %x0D, and nothing else, between tokens.
        for b in 0..=u8::MAX {
            let ws = matches!(b, 0x20 | 0x09 | 0x0A | 0x0D);
            // The byte itself at each `_`, not a character's encoding of it.
            let text = |at: &str| -> Vec<u8> {
                at.bytes().map(|c| if c == b'_' { b } else { c }).collect()
            };
            // Spots where no other byte makes a JSON text: none glues onto `true`.
            for at in ["_[true]", "[_true]", "[true_,true]", "{_\"a\"_:_true_}_"] {
                let accepted = canonicalize(&text(at)).is_ok();
                assert_eq!(accepted, ws, "byte {b:#04x} at the _ of {at}");
            }
        }
    }

    /// An array of objects, the members of each written in the given order, with their
    /// names as written (escapes allowed) and as decoded; every value is the member's index.
    fn document(objects: &[&[(&str, &str)]]) -> (String, String) {
        let written = objects.iter().map(|members| {
            let body: Vec<String> = members
                .iter()
                .enumerate()
                .map(|(i, (name, _))| format!("\"{name}\":{i}"))
                .collect();
            format!("{{{}}}", body.join(","))
        });
        // RFC 8785 §3.2.3: members sorted by the UTF-16 code units of their decoded names,
        // here by the standard library's encoder.
        let canonical = objects.iter().map(|members| {
            let mut sorted: Vec<(usize, &str)> = members
                .iter()
                .map(|(_, decoded)| *decoded)
                .enumerate()
                .collect();
            sorted.sort_by(|a, b| a.1.encode_utf16().cmp(b.1.encode_utf16()));
            let body: Vec<String> = sorted
                .iter()
                .map(|(i, name)| format!("\"{name}\":{i}"))
                .collect();
            format!("{{{}}}", body.join(","))
        });
        let join = |parts: Vec<String>| format!("[{}]", parts.join(","));
        (join(written.collect()), join(canonical.collect()))
    }

    #[test]
    fn records_of_one_shape_and_their_neighbours_each_sort_by_their_own_names() {
        // Records repeat a remembered order; objects of the same size with other names,
        // escaped names, empty and long names, and names in order must each get their own.
        const LONG: &str = "a name longer than eight bytes";
        const LONGER: &str = "a name longer than eight bytes!";
        let record: &[(&str, &str)] = &[("price", "price"), ("id", "id"), ("name", "name")];
        let objects: &[&[(&str, &str)]] = &[
            record,
            record,
            &[("b", "b"), ("a", "a"), ("c", "c")],
            record,
            &[("pr\\u0069ce", "price"), ("id", "id"), ("name", "name")],
            &[("price", "price"), ("id", "id"), ("nam", "nam")],
            &[("a", "a"), ("b", "b"), ("c", "c")],
            &[
                ("\u{ff61}", "\u{ff61}"),
                ("\u{1f600}", "\u{1f600}"),
                ("z", "z"),
            ],
            &[("z", "z"), ("", ""), ("a", "a")],
            &[("z", "z"), ("", ""), ("a", "a")],
            &[("z", "z"), ("y", "y"), ("a", "a")],
            &[(LONG, LONG), ("", ""), ("a", "a")],
            &[(LONGER, LONGER), ("", ""), ("a", "a")],
            record,
            // The same lengths and first bytes as the object before, in another order: only
            // the later bytes, up to the eighth, tell the names apart.
            &[("ab", "ab"), ("aa", "aa"), ("c", "c")],
            &[("aa", "aa"), ("ab", "ab"), ("c", "c")],
            &[
                ("abcdefgh", "abcdefgh"),
                ("abcdefga", "abcdefga"),
                ("c", "c"),
            ],
            &[
                ("abcdefga", "abcdefga"),
                ("abcdefgh", "abcdefgh"),
                ("c", "c"),
            ],
        ];
        let (written, expected) = document(objects);
        let canonical = canonicalize(written.as_bytes()).unwrap();
        assert_eq!(String::from_utf8(canonical).unwrap(), expected);
    }

    #[test]
    fn small_objects_are_ordered_by_utf16_whether_or_not_their_keys_differ() {
        // Objects of every size around the ranked ones, names shuffled: ASCII, non-ASCII and
        // astral, some sharing their first eight bytes so that keys tie, and some their first
        // sixteen, differing after them where UTF-16 and UTF-8 disagree; expected by the
        // standard library's UTF-16 encoder, as in `document`.
        const NAMES: [&str; 20] = [
            "a",
            "b",
            "\u{e9}",
            "\u{ff61}",
            "\u{1f600}",
            "\u{e000}x",
            "z",
            "",
            "abcdefgh1",
            "abcdefgh2",
            "\u{1f511}\u{1f511}a",
            "\u{1f511}\u{1f511}b",
            "abcdefgh",
            "abcdefgh\u{ff61}",
            "abcdefgh\u{1f600}",
            "\u{1f511}\u{1f511}\u{e000}",
            "\u{1f511}\u{1f511}\u{10000}",
            "abcdefghijklmnop",
            "abcdefghijklmnop\u{ff61}",
            "abcdefghijklmnop\u{1f600}",
        ];
        let mut rng = Rng::new(0x6A09_E667_F3BC_C908);
        for _ in 0..3_000 {
            let count = 2 + rng.index(18);
            let mut names: Vec<String> = (0..count)
                .map(|i| format!("{}{}", NAMES[rng.index(NAMES.len())], "#".repeat(i / 12)))
                .collect();
            names.sort();
            names.dedup();
            rng.shuffle(&mut names);
            let members: Vec<(&str, &str)> = names.iter().map(|n| (&**n, &**n)).collect();
            let (written, expected) = document(&[&members]);
            let canonical = canonicalize(written.as_bytes()).unwrap();
            assert_eq!(String::from_utf8(canonical).unwrap(), expected);
        }
    }

    #[test]
    fn objects_too_large_to_copy_are_reordered_in_place() {
        // Objects past COPIED_BODY, members of every size in a shuffled order, one nested in
        // another; expected: names sorted by the standard library's UTF-16 encoder, each
        // with its own value.
        use super::COPIED_BODY;
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        let object = |members: &[(String, String)]| {
            let body: Vec<String> = members
                .iter()
                .map(|(n, v)| format!("\"{n}\":{v}"))
                .collect();
            format!("{{{}}}", body.join(","))
        };
        let sorted = |members: &[(String, String)]| {
            let mut sorted = members.to_vec();
            sorted.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            sorted
        };
        for count in [2, 3, 17, 300] {
            let mut members: Vec<(String, String)> = (0..count)
                .map(|i| {
                    let name = ["k", "\u{e9}", "\u{1f511}", "\u{ff21}"][i % 4].repeat(1 + i / 4);
                    let len = [0, 3, 40, COPIED_BODY / 2][rng.index(4)];
                    (name, format!("\"{}\"", "v".repeat(len)))
                })
                .collect();
            rng.shuffle(&mut members);
            let inner = members.clone();
            members.push(("nested".to_string(), object(&inner)));
            let written = object(&members);
            let mut canonical: Vec<(String, String)> = sorted(&members);
            for (name, value) in &mut canonical {
                if name == "nested" {
                    *value = object(&sorted(&inner));
                }
            }
            let output = canonicalize(written.as_bytes()).unwrap();
            assert_eq!(
                String::from_utf8(output).unwrap(),
                object(&canonical),
                "{count}"
            );
        }
    }

    /// A value as written and in canonical form: the forms RFC 8785 §3.2.2 gives scalars
    /// (ECMAScript numbers, minimal string escapes) and containers (§3.2.3 member order).
    const VALUES: [(&str, &str); 14] = [
        ("1", "1"),
        ("-0", "0"),
        ("1.50", "1.5"),
        ("2e0", "2"),
        ("1E2", "100"),
        ("-7.5e-7", "-7.5e-7"),
        ("\"a\"", "\"a\""),
        ("\"\\u0041\\/\"", "\"A/\""),
        ("true", "true"),
        ("null", "null"),
        ("[ ]", "[]"),
        ("{\"b\":1, \"a\":[2,\"x\"]}", "{\"a\":[2,\"x\"],\"b\":1}"),
        ("[\"s\" , 3,4]", "[\"s\",3,4]"),
        ("{\"b\":\"1\",\"a\":-2}", "{\"a\":-2,\"b\":\"1\"}"),
    ];

    #[test]
    fn array_elements_in_runs_keep_their_order_and_forms() {
        // Arrays of scalars with and without whitespace around the commas, nested in arrays
        // and in object members, where a run of elements must stop at the container's end.
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let separators = [",", ",", " ,", ", ", "\n,\t"];
        for _ in 0..2_000 {
            let count = 1 + rng.index(6);
            let picks: Vec<(&str, &str)> = (0..count)
                .map(|_| VALUES[rng.index(VALUES.len())])
                .collect();
            let mut written = String::from("[");
            for (i, (text, _)) in picks.iter().enumerate() {
                if i > 0 {
                    written.push_str(separators[rng.index(separators.len())]);
                }
                written.push_str(text);
            }
            written.push(']');
            let canonical: Vec<&str> = picks.iter().map(|(_, c)| *c).collect();
            let canonical = format!("[{}]", canonical.join(","));
            for (outer, expected) in [
                (written.clone(), canonical.clone()),
                (
                    format!("[{written},{written}]"),
                    format!("[{canonical},{canonical}]"),
                ),
                (
                    format!("{{\"z\":{written},\"y\":1,\"x\":\"2\"}}"),
                    format!("{{\"x\":\"2\",\"y\":1,\"z\":{canonical}}}"),
                ),
            ] {
                let output = canonicalize(outer.as_bytes()).unwrap();
                assert_eq!(String::from_utf8(output).unwrap(), expected, "{outer}");
            }
        }
    }

    #[test]
    fn an_element_run_stops_at_the_first_bad_element() {
        // Each error is placed at the byte that breaks the grammar (RFC 8259 §5 and §6).
        for (input, at) in [
            ("[1,2,]", 5),
            ("[1,,2]", 3),
            ("[\"a\",-]", 6),
            ("[1,\"a\",01]", 7),
            ("[1,\"a]", 3),
            ("{\"a\":1,2}", 7),
        ] {
            let error = canonicalize(input.as_bytes()).unwrap_err();
            assert_eq!(error.kind(), ErrorKind::Syntax, "{input}");
            assert_eq!(error.offset(), at, "{input}: {error}");
        }
    }

    #[test]
    fn a_name_given_again_is_refused_at_its_first_repeat() {
        // Objects past the size the ranked order takes, so that they are sorted, each with
        // one or two names given several times: the error lies at the earliest repeat of a
        // name in the input and names that name's first place, however the sort lays out
        // equal names.
        let mut rng = Rng::new(19);
        for _ in 0..2_000 {
            let count = 17 + rng.index(60);
            let mut names: Vec<String> = (0..count).map(|i| format!("n{i:03}")).collect();
            for _ in 0..1 + rng.index(2) {
                let again = names[rng.index(count)].clone();
                for _ in 0..1 + rng.index(5) {
                    names.push(again.clone());
                }
            }
            rng.shuffle(&mut names);
            let members: Vec<String> = names
                .iter()
                .enumerate()
                .map(|(i, name)| format!("\"{name}\":{i}"))
                .collect();
            let input = format!("{{{}}}", members.join(","));
            // Where each member's name starts, and the first place of each name.
            let mut at = 1;
            let mut first_place = std::collections::HashMap::new();
            let mut repeat = None;
            for (member, name) in members.iter().zip(&names) {
                let first = *first_place.entry(name).or_insert(at);
                if first != at && repeat.is_none() {
                    repeat = Some((at, first, name));
                }
                at += member.len() + 1;
            }
            let (at, first, name) = repeat.unwrap();
            let error = canonicalize(input.as_bytes()).unwrap_err();
            assert_eq!(error.kind(), ErrorKind::DuplicateKey, "{input}");
            assert_eq!(error.offset(), at, "{input}: {error}");
            let says = format!("\"{name}\" (first at byte {first})");
            assert!(error.message().contains(&says), "{input}: {error}");
        }
    }

    #[test]
    fn a_duplicate_after_a_remembered_shape_is_refused() {
        let input = r#"[{"b":0,"a":1},{"b":0,"a":1},{"b":0,"b":1}]"#;
        let error = canonicalize(input.as_bytes()).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::DuplicateKey);
        // Placed at the second occurrence of the name.
        assert_eq!(Some(error.offset()), input.rfind(r#""b""#));
        // A name that matches the remembered one in its first byte alone is not that name.
        let input = r#"[{"ab":0,"ac":1},{"ab":0,"ab":1}]"#;
        let error = canonicalize(input.as_bytes()).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::DuplicateKey);
        assert_eq!(Some(error.offset()), input.rfind(r#""ab""#));
    }
}
