//! Numbers: the strict RFC 8259 number grammar, and doubles written the way ECMAScript's
//! `Number.prototype.toString` writes them (RFC 8785 §3.2.2.3).

use std::ops::RangeInclusive;

use super::copy::copy_span;
use super::error::{describe_byte, BrokenRule, ErrorKind, Fault};
use super::shortest::shortest;
use super::to_double::{is_certainly_shortest, nearest_double};

/// Decimals with at most this many significant digits survive a trip through a double and
/// back (DBL_DIG), so the shortest round-trip digits of their double are their own digits.
const EXACT_DIGITS: usize = 15;

/// Decimal point positions (value = 0.d1 d2 ... × 10^point) whose values lie between 10^-307
/// and 10^308, well inside the normal doubles, where the DBL_DIG guarantee holds.
const NORMAL_POINTS: RangeInclusive<i32> = -306..=308;

/// 2^53 in decimal: every integer up to it is a double, and 16-digit ones are their own
/// shortest form.
const MAX_SAFE_INTEGER_16: &[u8; 16] = b"9007199254740992";

/// Significands of up to this many digits are exact in a `u64` (10^19 < 2^64).
const U64_DIGITS: usize = 19;

/// Exponents are read up to this magnitude, far beyond the length of any text (10^17 bytes):
/// the digits of a number move its decimal point by at most their count, so a larger
/// exponent leaves the point as far outside the double range as this one does.
const EXPONENT_CAP: i64 = 100_000_000_000_000_000;

/// Decimal point positions outside which every value rounds to zero or to infinity (the
/// doubles run from 0.49 × 10^-323 to 0.18 × 10^309), with room to spare.
const DOUBLE_POINTS: RangeInclusive<i32> = -400..=400;

/// Decimal point positions are kept within this bound, far outside [`DOUBLE_POINTS`].
const POINT_BOUND: i64 = 1 << 20;

/// A halfway point between two doubles has at most 767 significant digits, so digits past
/// this many can change a decimal's nearest double only by being nonzero.
const DECIDING_DIGITS: usize = 800;

/// Appends the ECMAScript `Number.prototype.toString` form of `value` to `out`: the shortest
/// digits that round-trip, laid out in plain or exponent notation by the rules of ECMA-262
/// §6.1.6.1.20; `-0` is written `0`.
///
/// Returns `false`, writing nothing, for NaN and the infinities, which JSON cannot represent.
pub fn write_number(value: f64, out: &mut Vec<u8>) -> bool {
    if value == 0.0 {
        out.push(b'0');
        return true;
    }
    let Some((s, k)) = shortest(value.abs()) else {
        return false;
    };
    if value < 0.0 {
        out.push(b'-');
    }
    write_decimal(s, k, out);
    true
}

/// Appends s × 10^k, s nonzero, in ECMAScript's layout.
fn write_decimal(s: u64, k: i32, out: &mut Vec<u8>) {
    let mut text = [0; 20];
    let mut start = text.len();
    let mut rest = s;
    for slot in text.iter_mut().rev() {
        *slot = b'0' + (rest % 10) as u8;
        start -= 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let head = text.get(start..).unwrap_or_default();
    Digits {
        head,
        tail: &[],
        point: k.saturating_add(head.len() as i32),
    }
    .write_es(out);
}

/// A JSON number as written, split into its parts.
struct Written<'a> {
    /// The text scanned, and where the number lies in it.
    input: &'a [u8],
    start: usize,
    end: usize,
    negative: bool,
    /// The integer digits.
    int: &'a [u8],
    /// The fraction digits, empty without a decimal point.
    frac: &'a [u8],
    /// The exponent, saturated at [`EXPONENT_CAP`]; 0 without one.
    exponent: i64,
    /// The exponent as written from its `e` or `E`, empty without one.
    exponent_text: &'a [u8],
}

/// Numbers of the commonest shapes, read by [`Written::scan_common`] without the general
/// scan: the first digit nonzero, no trailing fraction zero.
enum Common<'a> {
    /// An integer or decimal fraction without an exponent, at most [`EXACT_DIGITS`] digits
    /// (or a 16-digit integer up to 2^53), which is canonical as written and ends at the
    /// offset given.
    Canonical(usize),
    /// One digit, maybe a fraction, and an exponent: with at most [`EXACT_DIGITS`] digits
    /// in the normal range its own shortest form, to be laid out.
    Mantissa(Written<'a>, Digits<'a>),
    /// One digit, a fraction and an exponent, more than [`EXACT_DIGITS`] digits but few
    /// enough for a `u64`: a double's worth of digits, which the double decides.
    Long(Written<'a>, Digits<'a>),
}

/// The significant digits of a number — two runs of the text, those before and after the
/// decimal point, without leading or trailing zeros — and its decimal point position:
/// value = 0.d1 d2 ... dk × 10^point. No digits means zero.
struct Digits<'a> {
    head: &'a [u8],
    tail: &'a [u8],
    point: i32,
}

impl<'a> Written<'a> {
    /// Scans the number starting at `start` by the RFC 8259 grammar.
    #[inline(always)]
    fn scan(input: &'a [u8], start: usize) -> Result<Written<'a>, Fault> {
        let mut pos = start;
        let negative = input.get(pos) == Some(&b'-');
        if negative {
            pos += 1;
        }
        let int_start = pos;
        pos = match input.get(pos) {
            Some(b'0') if input.get(pos + 1).is_some_and(u8::is_ascii_digit) => {
                return Err(Fault::syntax(
                    pos,
                    "a number may not start with a leading zero; write it without the zero",
                ));
            }
            Some(b'0') => pos + 1,
            Some(b'1'..=b'9') => skip_digits(input, pos),
            _ => return Err(missing_digit(input, pos, "after '-'")),
        };
        let int = span(input, int_start, pos);
        let mut frac: &[u8] = &[];
        if input.get(pos) == Some(&b'.') {
            let frac_start = pos + 1;
            pos = skip_digit_run(input, frac_start);
            if pos == frac_start {
                return Err(missing_digit(input, pos, "after the decimal point"));
            }
            frac = span(input, frac_start, pos);
        }
        let mut exponent = 0;
        let exponent_start = pos;
        if matches!(input.get(pos), Some(b'e' | b'E')) {
            let (end, value, digits) = read_exponent(input, pos);
            if digits == 0 {
                return Err(missing_digit(input, end, "in the exponent"));
            }
            (pos, exponent) = (end, value);
        }
        Ok(Written {
            input,
            start,
            end: pos,
            negative,
            int,
            frac,
            exponent,
            exponent_text: span(input, exponent_start, pos),
        })
    }

    /// Reads the number at `start` if it has one of the [`Common`] shapes; `None` leaves it
    /// to [`Written::scan`], grammar errors included.
    #[inline(always)]
    fn scan_common(input: &'a [u8], start: usize) -> Option<Common<'a>> {
        let negative = input.get(start) == Some(&b'-');
        let int_start = start + usize::from(negative);
        if !matches!(input.get(int_start), Some(b'1'..=b'9')) {
            return None;
        }
        let int_end = skip_digits(input, int_start + 1);
        let mut pos = int_end;
        let mut frac: &[u8] = &[];
        if input.get(pos) == Some(&b'.') {
            let frac_start = pos + 1;
            pos = skip_digit_run(input, frac_start);
            frac = span(input, frac_start, pos);
            if !matches!(frac.last(), Some(b'1'..=b'9')) {
                return None;
            }
        }
        let int = span(input, int_start, int_end);
        let len = int.len() + frac.len();
        let exponent_start = pos;
        if !matches!(input.get(pos), Some(b'e' | b'E')) {
            if len > EXACT_DIGITS && !(frac.is_empty() && is_safe_integer_16(int)) {
                return None;
            }
            return Some(Common::Canonical(pos));
        }
        if int_end - int_start != 1 || len > U64_DIGITS {
            return None;
        }
        let (end, exponent, digits) = read_exponent(input, pos);
        let point = bounded_point(1 + exponent);
        if digits == 0 {
            return None;
        }
        let written = Written {
            input,
            start,
            end,
            negative,
            int,
            frac,
            exponent,
            exponent_text: span(input, exponent_start, end),
        };
        let digits = Digits {
            head: int,
            tail: frac,
            point,
        };
        if len > EXACT_DIGITS {
            Some(Common::Long(written, digits))
        } else if NORMAL_POINTS.contains(&point) {
            Some(Common::Mantissa(written, digits))
        } else {
            None
        }
    }

    fn text(&self) -> &'a [u8] {
        span(self.input, self.start, self.end)
    }

    #[inline]
    fn digits(&self) -> Digits<'a> {
        let (head, tail, point) = if self.int == b"0" {
            let zeros = self.frac.iter().take_while(|&&b| b == b'0').count();
            let point = -i64::try_from(zeros).unwrap_or(i64::MAX);
            (&[][..], self.frac.get(zeros..).unwrap_or_default(), point)
        } else {
            let point = i64::try_from(self.int.len()).unwrap_or(i64::MAX);
            (self.int, self.frac, point)
        };
        // The point is exact before it is bounded: an exponent and a long run of digits
        // may bring each other back into the double range.
        let point = bounded_point(point.saturating_add(self.exponent));
        let trim = |run: &'a [u8]| {
            let zeros = run.iter().rev().take_while(|&&b| b == b'0').count();
            run.get(..run.len() - zeros).unwrap_or_default()
        };
        let tail = trim(tail);
        let head = if tail.is_empty() { trim(head) } else { head };
        Digits { head, tail, point }
    }

    /// Whether the text already has the layout ECMAScript gives these digits: in plain
    /// notation no exponent and no trailing zero; in exponent notation one nonzero digit
    /// before the point, no trailing zero and an exponent written `e`, sign, digits.
    fn is_es_layout(&self, digits: &Digits<'_>) -> bool {
        if digits.is_plain() {
            self.frac.last() != Some(&b'0') && self.exponent_text.is_empty()
        } else {
            self.is_es_mantissa()
                && matches!(self.exponent_text, [b'e', b'+' | b'-', b'1'..=b'9', ..])
        }
    }

    /// Whether the digits before the exponent are laid out as ECMAScript's exponent notation
    /// lays them out: one nonzero digit, then the rest after a point, no trailing zero.
    fn is_es_mantissa(&self) -> bool {
        matches!(self.int, [b'1'..=b'9']) && self.frac.last() != Some(&b'0')
    }

    /// Appends a [`Common::Mantissa`] number whose ECMAScript layout is plain notation: its
    /// digits before the point (zeros added), the point within them, or `0.` and zeros before
    /// them. All three are assembled in registers from the mantissa's sixteen bytes and the
    /// right one is chosen by selection, not by branches the mix of magnitudes in a document
    /// would mispredict. Returns false, writing nothing, when the input ends within those
    /// sixteen bytes.
    fn write_plain(&self, digits: &Digits<'_>, out: &mut Vec<u8>) -> bool {
        const ZEROS: u128 = u128::from_le_bytes([b'0'; 16]);
        const POINT_AND_ZEROS: u128 = u128::from_le_bytes(*b"0.00000000000000");
        const POINTS: u128 = u128::from_le_bytes([b'.'; 16]);
        let int_start = self.start + usize::from(self.negative);
        let Some(mantissa) = self
            .input
            .get(int_start..int_start + 16)
            .and_then(|b| <[u8; 16]>::try_from(b).ok())
        else {
            return false;
        };
        let mantissa = u128::from_le_bytes(mantissa);
        let k = digits.len() as u32;
        let n = digits.point;
        // The digits without the point after the first one.
        let d = ((mantissa & 0xFF) | (mantissa >> 16) << 8) & low_bytes(k);
        let (low, high, len) = if n > 0 {
            // The digits, zeros after them, and the point after n of them: cut before the
            // point when n >= k, after the digits when n < k.
            let padded = d | ZEROS & !low_bytes(k);
            let at = n.min(16) as u32;
            let point = low_bytes(at + 1) & !low_bytes(at) & POINTS;
            let low = padded & low_bytes(at) | point | (padded & !low_bytes(at)) << 8;
            let len = if n >= k as i32 {
                n as usize
            } else {
                k as usize + 1
            };
            (low, ZEROS, len)
        } else {
            // `0.`, -n zeros, the digits.
            let lead = 2 + n.clamp(-5, 0).unsigned_abs();
            (
                POINT_AND_ZEROS & low_bytes(lead) | d << (8 * lead),
                d >> (8 * (16 - lead)),
                (lead + k) as usize,
            )
        };
        if self.negative {
            out.push(b'-');
        }
        out.extend_from_slice(&low.to_le_bytes());
        out.extend_from_slice(&high.to_le_bytes());
        out.truncate(out.len() - (32 - len));
        true
    }

    /// Appends this number in ECMAScript's layout, taking its digits to be the shortest
    /// round-trip digits of its double; as written when that layout is already the text's.
    #[inline(always)]
    fn write_as_shortest(&self, digits: &Digits<'_>, out: &mut Vec<u8>) {
        if digits.is_zero() {
            out.push(b'0');
        } else if self.is_es_layout(digits) {
            copy_span(self.input, self.start, self.end, out);
        } else if !digits.is_plain() && self.is_es_mantissa() {
            let mantissa_end = self.end - self.exponent_text.len();
            copy_span(self.input, self.start, mantissa_end, out);
            write_exponent(digits.point, out);
        } else {
            if self.negative {
                out.push(b'-');
            }
            digits.write_es(out);
        }
    }
}

impl Digits<'_> {
    fn len(&self) -> usize {
        self.head.len() + self.tail.len()
    }

    /// The digits as an integer w and the power of ten q that scales it (value = w × 10^q),
    /// when w fits a `u64`.
    fn as_integer(&self) -> Option<(u64, i64)> {
        let len = self.len();
        if len > U64_DIGITS {
            return None;
        }
        let w = accumulate(accumulate(0, self.head), self.tail);
        Some((w, self.scale()))
    }

    /// The power of ten q that scales the digits read as an integer w: value = w × 10^q.
    fn scale(&self) -> i64 {
        i64::from(self.point) - self.len() as i64
    }

    fn is_zero(&self) -> bool {
        self.len() == 0
    }

    /// Whether these digits are the shortest round-trip digits of the double nearest them, so
    /// that no double need be computed: a normal value with at most [`EXACT_DIGITS`] digits,
    /// or a 16-digit integer no greater than 2^53.
    fn is_own_shortest(&self) -> bool {
        let len = self.len();
        NORMAL_POINTS.contains(&self.point)
            && (len <= EXACT_DIGITS
                || (len == 16
                    && self.point == 16
                    && self.head.iter().chain(self.tail).le(MAX_SAFE_INTEGER_16)))
    }

    /// The double nearest these digits when the first [`U64_DIGITS`] of them settle it:
    /// the value lies from w × 10^q up to (w + 1) × 10^q, w those digits as an integer, and
    /// rounding never reverses order, so when both ends round to one double the value does
    /// too. `None` when they round apart (the value is near a halfway point between two
    /// doubles) or the product cannot tell.
    fn bracketed_double(&self) -> Option<f64> {
        let from_head = self.head.len().min(U64_DIGITS);
        let from_tail = self.tail.len().min(U64_DIGITS - from_head);
        let head = self.head.get(..from_head).unwrap_or_default();
        let tail = self.tail.get(..from_tail).unwrap_or_default();
        let w = accumulate(accumulate(0, head), tail);
        let q = i64::from(self.point) - (head.len() + tail.len()) as i64;
        let low = nearest_double(w, q)?;
        (nearest_double(w.checked_add(1)?, q)? == low).then_some(low)
    }

    /// The double nearest these digits, by the standard library's reading of them rewritten
    /// as `0.DIGITSe±POINT`. Its reading of the text as written cannot be used: it misreads
    /// exponents from 655,360 up, which a long enough run of digits brings back into range
    /// (`1`, a million zeros and `e-1000000` are read as infinity). Beyond
    /// [`DECIDING_DIGITS`], the rest, which end in a nonzero digit once trailing zeros are
    /// trimmed, are stood for by one nonzero digit: no double lies nearer to the value than
    /// to that stand-in.
    fn nearest_double(&self) -> f64 {
        if self.is_zero() || self.point < *DOUBLE_POINTS.start() {
            return 0.0;
        }
        if self.point > *DOUBLE_POINTS.end() {
            return f64::INFINITY;
        }
        let len = self.len().min(DECIDING_DIGITS);
        let mut text = Vec::with_capacity(len + 12);
        text.extend_from_slice(b"0.");
        self.write_range(0, len, &mut text);
        if self.len() > DECIDING_DIGITS {
            text.push(b'1');
        }
        text.extend_from_slice(format!("e{}", self.point).as_bytes());
        std::str::from_utf8(&text)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .map_or(f64::NAN, f64::abs)
    }

    /// Whether ECMAScript writes this value in plain notation, digits and point as a JSON
    /// number without an exponent would have them.
    fn is_plain(&self) -> bool {
        -6 < self.point && self.point <= 21
    }

    /// Appends digits `from..to` of the significant digits.
    fn write_range(&self, from: usize, to: usize, out: &mut Vec<u8>) {
        let split = self.head.len();
        let head = self.head.get(from.min(split)..to.min(split));
        let tail = self
            .tail
            .get(from.saturating_sub(split)..to.saturating_sub(split));
        out.extend_from_slice(head.unwrap_or_default());
        out.extend_from_slice(tail.unwrap_or_default());
    }

    /// ECMA-262 Number::toString layout for a positive value with digits `s`, `k` of them,
    /// and decimal point position `n`.
    fn write_es(&self, out: &mut Vec<u8>) {
        let k = self.len();
        let n = self.point;
        match usize::try_from(n) {
            Ok(n) if k <= n && n <= 21 => {
                self.write_range(0, k, out);
                out.resize(out.len() + (n - k), b'0');
            }
            Ok(n) if 0 < n && n <= 21 => {
                self.write_range(0, n, out);
                out.push(b'.');
                self.write_range(n, k, out);
            }
            _ if -6 < n && n <= 0 => {
                out.extend_from_slice(b"0.");
                out.resize(out.len() + n.unsigned_abs() as usize, b'0');
                self.write_range(0, k, out);
            }
            _ => {
                self.write_range(0, 1, out);
                if k > 1 {
                    out.push(b'.');
                    self.write_range(1, k, out);
                }
                write_exponent(n, out);
            }
        }
    }
}

/// `w` followed by `digits` (ASCII digits, few enough that the result fits), eight at a time
/// where it can: a digit at a time the multiplications form one long chain.
fn accumulate(w: u64, digits: &[u8]) -> u64 {
    let mut chunks = digits.chunks_exact(8);
    let w = chunks.by_ref().fold(w, |w, chunk| {
        let eight = <[u8; 8]>::try_from(chunk).map_or(0, eight_digits);
        w.wrapping_mul(100_000_000).wrapping_add(eight)
    });
    chunks.remainder().iter().fold(w, |w, &digit| {
        w.wrapping_mul(10).wrapping_add(u64::from(digit & 0x0F))
    })
}

/// The significand of a [`Common::Long`] number, one `lead` digit and 15 to 18 fraction
/// digits, as an integer; `None` for other lengths. Read as two words of eight digits and the
/// one to three leading ones without a loop, whose exit would depend on the length, which
/// varies from one double to the next.
fn long_significand(lead: &[u8], fraction: &[u8]) -> Option<u64> {
    let (&[lead], len) = (lead, fraction.len()) else {
        return None;
    };
    let word = |from: usize| {
        let bytes = fraction.get(from..from + 8)?;
        <[u8; 8]>::try_from(bytes).ok().map(u64::from_le_bytes)
    };
    // The digits before the last sixteen, none to three: the lead and the first two of the
    // fraction, weighted by the length.
    const WEIGHTS: [[u64; 3]; 4] = [[0, 0, 0], [1, 0, 0], [10, 1, 0], [100, 10, 1]];
    let extra = len.checked_sub(15)?;
    let [w0, w1, w2] = *WEIGHTS.get(extra)?;
    let low = word(len - 8)?;
    // The eight digits before those: shifted in from one place later, the first of them the
    // lead digit itself when the fraction has only fifteen.
    let first = extra.checked_sub(1).and_then(|i| fraction.get(i));
    let middle = word(extra)? << 8 | u64::from(first.copied().unwrap_or(lead));
    let digit = |i: usize| u64::from(fraction.get(i).map_or(0, |b| b & 0x0F));
    let top = u64::from(lead & 0x0F) * w0 + digit(0) * w1 + digit(1) * w2;
    Some(
        top * 10_000_000_000_000_000
            + eight_digits(middle.to_le_bytes()) * 100_000_000
            + eight_digits(low.to_le_bytes()),
    )
}

/// The value of eight ASCII digits, the first most significant: adjacent digits are combined
/// into pairs, pairs into fours and fours into the whole by three multiplications in one word.
fn eight_digits(chunk: [u8; 8]) -> u64 {
    const PAIRS_TO_FOURS_LOW: u64 = 100 + (1_000_000 << 32);
    const PAIRS_TO_FOURS_HIGH: u64 = 1 + (10_000 << 32);
    const ALTERNATE: u64 = 0x0000_00FF_0000_00FF;
    let digits = u64::from_le_bytes(chunk).wrapping_sub(0x3030_3030_3030_3030);
    let pairs = digits.wrapping_mul(10).wrapping_add(digits >> 8);
    ((pairs & ALTERNATE)
        .wrapping_mul(PAIRS_TO_FOURS_LOW)
        .wrapping_add((pairs >> 16 & ALTERNATE).wrapping_mul(PAIRS_TO_FOURS_HIGH)))
        >> 32
}

/// A mask of the lowest `count` bytes of a word, `count` at most 16.
fn low_bytes(count: u32) -> u128 {
    const MASKS: [u128; 17] = {
        let mut masks = [0; 17];
        let mut rest: &mut [u128] = &mut masks;
        let mut mask = 0;
        while let [slot, tail @ ..] = rest {
            *slot = mask;
            mask = mask << 8 | 0xFF;
            rest = tail;
        }
        masks
    };
    MASKS.get(count as usize).copied().unwrap_or(u128::MAX)
}

/// Reads the exponent whose `e` or `E` is at `pos`: returns the offset after it, its value
/// (saturated at [`EXPONENT_CAP`]) and how many digits it has, none being an error.
#[inline(always)]
fn read_exponent(input: &[u8], mut pos: usize) -> (usize, i64, usize) {
    pos += 1;
    let sign = input.get(pos).copied();
    if matches!(sign, Some(b'+' | b'-')) {
        pos += 1;
    }
    let digits_start = pos;
    let mut magnitude = 0;
    while let Some(&digit) = input.get(pos).filter(|b| b.is_ascii_digit()) {
        magnitude = (magnitude * 10 + i64::from(digit & 0x0F)).min(EXPONENT_CAP);
        pos += 1;
    }
    let value = if sign == Some(b'-') {
        -magnitude
    } else {
        magnitude
    };
    (pos, value, pos - digits_start)
}

/// A decimal point position, exact while within [`POINT_BOUND`] and bounded there beyond it,
/// where the value is zero or infinite all the same.
fn bounded_point(point: i64) -> i32 {
    point.clamp(-POINT_BOUND, POINT_BOUND) as i32
}

/// Whether `digits` are 16 digits no greater than 2^53, compared as one big-endian word.
fn is_safe_integer_16(digits: &[u8]) -> bool {
    <[u8; 16]>::try_from(digits)
        .is_ok_and(|d| u128::from_be_bytes(d) <= u128::from_be_bytes(*MAX_SAFE_INTEGER_16))
}

/// Returns the offset of the first byte at or after `pos` that is not an ASCII digit.
fn skip_digits(input: &[u8], mut pos: usize) -> usize {
    while input.get(pos).is_some_and(u8::is_ascii_digit) {
        pos += 1;
    }
    pos
}

/// Returns the offset of the first byte at or after `pos` that is not an ASCII digit, eight
/// bytes at a time: for the fraction, whose length varies most, a mispredicted exit from a
/// byte loop costs more than testing a word.
fn skip_digit_run(input: &[u8], mut pos: usize) -> usize {
    while let Some(word) = input
        .get(pos..pos + 8)
        .and_then(|c| <[u8; 8]>::try_from(c).ok())
    {
        let flags = non_digits(u64::from_le_bytes(word));
        if flags != 0 {
            return pos + (flags.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    skip_digits(input, pos)
}

/// Sets the high bit of each byte of `word` that is not an ASCII digit; the lowest set bit
/// is exact (a carry can only disturb the bytes above a byte that is flagged anyway).
fn non_digits(word: u64) -> u64 {
    const HIGH_NIBBLES: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const THREES: u64 = 0x3030_3030_3030_3030;
    const LOW_SEVEN: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // A digit is 0x30-0x39: its high nibble is 3, and still is after adding 6.
    let outside = (word & HIGH_NIBBLES) ^ THREES;
    let above_nine = (word.wrapping_add(0x0606_0606_0606_0606) & HIGH_NIBBLES) ^ THREES;
    let nonzero = outside | above_nine;
    ((nonzero & LOW_SEVEN).wrapping_add(LOW_SEVEN) | nonzero) & !LOW_SEVEN
}

/// The error for a number whose digits stop short: after '-', after the point, in the
/// exponent.
#[cold]
fn missing_digit(input: &[u8], pos: usize, place: &str) -> Fault {
    Fault::syntax(
        pos,
        format!(
            "expected a digit {place}, found {}",
            describe_byte(input, pos)
        ),
    )
}

/// Returns `buf[start..end]`; callers only ask for ranges they scanned.
fn span(buf: &[u8], start: usize, end: usize) -> &[u8] {
    buf.get(start..end).unwrap_or_default()
}

/// Appends the exponent of ECMAScript's exponent notation for decimal point position `point`:
/// `e`, the sign, the digits.
fn write_exponent(point: i32, out: &mut Vec<u8>) {
    let exponent = point.saturating_sub(1);
    out.push(b'e');
    out.push(if exponent < 0 { b'-' } else { b'+' });
    write_small_decimal(exponent.unsigned_abs(), out);
}

/// Appends a decimal exponent, which for a double never exceeds three digits.
fn write_small_decimal(value: u32, out: &mut Vec<u8>) {
    let digit = |d: u32| b'0' + (d % 10) as u8;
    if value >= 100 {
        out.push(digit(value / 100));
    }
    if value >= 10 {
        out.push(digit(value / 10));
    }
    out.push(digit(value));
}

/// Scans the number starting at `start` and appends its canonical form to `out`.
/// Returns the offset just past the number.
///
/// Most numbers never become doubles: when the digits as written are their own shortest
/// round-trip form ([`Digits::is_own_shortest`]) they are only laid out the ECMAScript way,
/// or copied when already laid out so. The rest — more than 15 significant digits, or
/// magnitudes near the ends of the double range — are converted to the nearest double (from
/// their digits as an integer; when they are too many for one, from the first 19 of them
/// and the next integer up, which bracket the value; and by the standard library's parse
/// of the digits under a small exponent when neither decides, see
/// [`Digits::nearest_double`]) and written from its shortest digits, found
/// as an integer and compared with the digits as written, which are copied when they are
/// the same.
///
/// A number beyond the double range breaks a rule, noted in `broken`, and is written as `0`,
/// so that the rest of the document can still be checked for grammar errors.
pub(crate) fn parse_number(
    input: &[u8],
    start: usize,
    out: &mut Vec<u8>,
    broken: &mut BrokenRule,
) -> Result<usize, Fault> {
    match Written::scan_common(input, start) {
        Some(Common::Canonical(end)) => {
            copy_span(input, start, end, out);
            return Ok(end);
        }
        Some(Common::Mantissa(written, digits)) => {
            if !(digits.is_plain() && written.write_plain(&digits, out)) {
                written.write_as_shortest(&digits, out);
            }
            return Ok(written.end);
        }
        Some(Common::Long(written, digits)) => {
            let integer = long_significand(digits.head, digits.tail).map(|w| (w, digits.scale()));
            write_via_double(&written, &digits, integer, out, broken);
            return Ok(written.end);
        }
        None => {}
    }
    let written = Written::scan(input, start)?;
    let end = written.end;
    let digits = written.digits();
    if digits.is_zero() || digits.is_own_shortest() {
        written.write_as_shortest(&digits, out);
        return Ok(end);
    }
    write_via_double(&written, &digits, digits.as_integer(), out, broken);
    Ok(end)
}

/// Appends the number `written`, whose significant digits are `digits` — as an integer w
/// and power of ten q in `integer` when they fit — from the double nearest it: as written
/// when its digits are the double's shortest, else from those.
#[inline(always)]
fn write_via_double(
    written: &Written<'_>,
    digits: &Digits<'_>,
    integer: Option<(u64, i64)>,
    out: &mut Vec<u8>,
    broken: &mut BrokenRule,
) {
    if integer.is_some_and(|(w, q)| is_certainly_shortest(w, q)) {
        written.write_as_shortest(digits, out);
        return;
    }
    write_from_double(written, digits, integer, out, broken)
}

/// [`write_via_double`] when the product alone cannot tell: the double itself and its
/// shortest digits.
fn write_from_double(
    written: &Written<'_>,
    digits: &Digits<'_>,
    integer: Option<(u64, i64)>,
    out: &mut Vec<u8>,
    broken: &mut BrokenRule,
) {
    let text = written.text();
    let magnitude = match integer {
        Some((w, q)) => nearest_double(w, q),
        None => digits.bracketed_double(),
    }
    .unwrap_or_else(|| digits.nearest_double());
    if magnitude == 0.0 {
        out.push(b'0');
        return;
    }
    match shortest(magnitude) {
        Some((s, k)) if integer == Some((s, i64::from(k))) => {
            written.write_as_shortest(digits, out);
        }
        Some((s, k)) => {
            if written.negative {
                out.push(b'-');
            }
            write_decimal(s, k, out);
        }
        None => {
            broken.note(|| {
                Fault::new(
                    ErrorKind::NumberOutOfRange,
                    written.start,
                    format!(
                        "the number {} is beyond the IEEE-754 double range that I-JSON \
                         allows; send a value this large as a string",
                        String::from_utf8_lossy(text.get(..40).unwrap_or(text))
                    ),
                )
            });
            out.push(b'0');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use canonfuzz_rng::Rng;

    fn es(value: f64) -> String {
        let mut out = Vec::new();
        assert!(write_number(value, &mut out));
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn layout_boundaries_follow_ecma_262() {
        // Expected strings are String(x) in ECMAScript (ECMA-262 Number::toString).
        assert_eq!(es(1e21), "1e+21");
        assert_eq!(es(1e20), "100000000000000000000");
        assert_eq!(es(1e-7), "1e-7");
        assert_eq!(es(1e-6), "0.000001");
        assert_eq!(es(-0.0), "0");
        assert_eq!(es(1.5), "1.5");
        assert_eq!(es(-1.25e-10), "-1.25e-10");
        assert_eq!(es(123e30), "1.23e+32");
        assert_eq!(es(5e-324), "5e-324");
    }

    #[test]
    fn non_finite_values_are_refused() {
        let mut out = Vec::new();
        assert!(!write_number(f64::NAN, &mut out));
        assert!(!write_number(f64::INFINITY, &mut out));
        assert!(out.is_empty());
    }

    /// `count` random decimal digits.
    fn digits(rng: &mut Rng, count: u64) -> String {
        (0..count)
            .map(|_| char::from(b'0' + rng.below(10) as u8))
            .collect()
    }

    /// A JSON number in any of the layouts the grammar allows: 1-20 significant digits,
    /// leading and trailing zeros, a decimal point anywhere, exponents in every spelling
    /// reaching past both ends of the double range, and the integers around 2^53.
    fn any_number(rng: &mut Rng) -> String {
        let sign = if rng.below(3) == 0 { "-" } else { "" };
        if rng.below(8) == 0 {
            let near_2_53 = 9_007_199_254_740_992 + rng.below(16) - 8;
            return format!("{sign}{near_2_53}");
        }
        let first = 1 + rng.below(9);
        let count = rng.below(20);
        let mut digits = format!("{first}{}", digits(rng, count));
        let trailing_zeros = rng.below(4) as usize;
        digits.push_str(&"0".repeat(trailing_zeros));
        let point = rng.below(digits.len() as u64 + 1) as usize;
        let (int, frac) = digits.split_at(point);
        let int = if int.is_empty() { "0" } else { int };
        let mut text = format!("{sign}{int}");
        if !frac.is_empty() || rng.below(4) == 0 {
            let zeros = "0".repeat(rng.below(8) as usize);
            let frac = if frac.is_empty() { "0" } else { frac };
            text = if int == "0" {
                format!("{sign}0.{zeros}{frac}")
            } else {
                format!("{text}.{frac}")
            };
        }
        if rng.below(4) != 0 {
            let marker = ["e", "E", "e+", "e-", "E-", "e0", "e-00"][rng.below(7) as usize];
            let magnitude = match rng.below(3) {
                0 => rng.below(25),
                1 => 290 + rng.below(40),
                _ => rng.below(400),
            };
            text = format!("{text}{marker}{magnitude}");
        }
        text
    }

    #[test]
    fn long_significands_match_the_standard_parse() {
        // Every length a long mantissa can have, and lengths it cannot, against std's parse
        // of the same digits.
        let mut rng = Rng::new(0x4528_21E6_38D0_1377);
        for _ in 0..50_000 {
            let lead = char::from(b'1' + rng.below(9) as u8).to_string();
            let count = 12 + rng.below(10);
            let fraction = digits(&mut rng, count);
            let expected = (15..=18)
                .contains(&count)
                .then(|| format!("{lead}{fraction}").parse().unwrap());
            let got = long_significand(lead.as_bytes(), fraction.as_bytes());
            assert_eq!(got, expected, "{lead}.{fraction}");
        }
        assert_eq!(long_significand(b"12", b"345678901234567"), None);
    }

    #[test]
    fn every_layout_matches_an_independent_ecmascript_formatter() {
        // Expected: ryu-js (an ECMAScript Number::toString) of the double that the standard
        // library's correctly rounded parse gives; the core takes most of these without a
        // double at all. Each number is read at the end of the input and again followed by
        // more text, as in a document, where paths that read whole words ahead apply.
        let mut rng = Rng::new(0x243F_6A88_85A3_08D3);
        for _ in 0..200_000 {
            let text = any_number(&mut rng);
            let value: f64 = text.parse().unwrap();
            let expected = if value == 0.0 {
                "0".to_string()
            } else {
                ryu_js::Buffer::new().format_finite(value).to_string()
            };
            for input in [text.clone(), format!("{text},  0123456789abcdef")] {
                let mut out = Vec::new();
                let mut broken = BrokenRule::default();
                let result = parse_number(input.as_bytes(), 0, &mut out, &mut broken);
                assert_eq!(broken.is_broken(), value.is_infinite(), "{input}");
                if value.is_infinite() {
                    assert_eq!(out, b"0", "{input}");
                    continue;
                }
                assert_eq!(result.ok(), Some(text.len()), "{input}");
                assert_eq!(String::from_utf8_lossy(&out), expected, "{input}");
            }
        }
    }

    #[test]
    fn exponent_notation_of_random_doubles_matches_an_independent_formatter() {
        // Doubles of every magnitude in Rust's shortest exponent notation (one digit, a
        // fraction, `e`), as number-heavy documents write them, and with one or two digits
        // more, so that the written digits are not the shortest; expected as above.
        let mut rng = Rng::new(0x1319_8A2E_0370_7344);
        for _ in 0..100_000 {
            let bits = rng.next_u64() & 0x7FFF_FFFF_FFFF_FFFF;
            let value = f64::from_bits(bits);
            if !value.is_finite() || value == 0.0 {
                continue;
            }
            let shortest = format!("{value:e}");
            let (mantissa, exponent) = shortest.split_once('e').unwrap();
            let point = if mantissa.contains('.') { "" } else { "." };
            let count = 1 + rng.below(2);
            let extra = digits(&mut rng, count);
            for text in [
                shortest.clone(),
                format!("-{mantissa}{point}{extra}e{exponent}"),
            ] {
                let value: f64 = text.parse().unwrap();
                let mut out = Vec::new();
                let mut broken = BrokenRule::default();
                let result = parse_number(text.as_bytes(), 0, &mut out, &mut broken);
                assert_eq!(broken.is_broken(), value.is_infinite(), "{text}");
                if value.is_infinite() {
                    assert_eq!(out, b"0", "{text}");
                    continue;
                }
                let expected = if value == 0.0 {
                    "0".to_string()
                } else {
                    ryu_js::Buffer::new().format_finite(value).to_string()
                };
                assert_eq!(result.ok(), Some(text.len()), "{text}");
                assert_eq!(String::from_utf8_lossy(&out), expected, "{text}");
            }
        }
    }

    /// A number of `digits` (ASCII digits, the first nonzero) times 10^-`scale`, written
    /// with a random sign, in plain notation or as one digit, a fraction and an exponent.
    fn written(rng: &mut Rng, digits: &str, scale: i64) -> (bool, String) {
        let negative = rng.below(2) == 0;
        let sign = if negative { "-" } else { "" };
        let plain_point = digits.len() as i64 - scale;
        let text = if rng.below(2) == 0 && (1..=digits.len() as i64).contains(&plain_point) {
            let (int, frac) = digits.split_at(plain_point as usize);
            let frac = if frac.is_empty() {
                String::new()
            } else {
                format!(".{frac}")
            };
            format!("{sign}{int}{frac}")
        } else {
            let (lead, rest) = digits.split_at(1);
            format!("{sign}{lead}.{rest}e{}", plain_point - 1)
        };
        (negative, text)
    }

    /// What ECMAScript writes for the double `magnitude`, negated when `negative`.
    fn es_of(negative: bool, magnitude: f64) -> String {
        let sign = if negative { "-" } else { "" };
        format!("{sign}{}", ryu_js::Buffer::new().format_finite(magnitude))
    }

    #[test]
    fn long_digit_runs_near_halfway_points_round_by_ieee_754() {
        // For doubles v = m × 2^e (m of 53 bits, e from -30 to 74) the halfway point h to
        // the next double up, (2m + 1) × 2^(e-1), has an exact decimal expansion within 128
        // bits; most have 20 to 38 significant digits. Expected, by IEEE 754's round half to
        // even: h itself goes to whichever of the two doubles is even; h and a far nonzero
        // digit to the upper; the digits of h less one unit in their last place, followed
        // by nines, to v. Written by ryu-js, an independent ECMAScript formatter.
        let mut rng = Rng::new(0xA409_3822_299F_31D0);
        for _ in 0..30_000 {
            let e = rng.below(105) as i32 - 30;
            let m = (1u64 << 52) | (rng.next_u64() >> 12);
            let below = m as f64 * 2f64.powi(e);
            let above = (m + 1) as f64 * 2f64.powi(e);
            let (h, scale) = if e >= 1 {
                (u128::from(2 * m + 1) << (e - 1), 0)
            } else {
                let k = 1 - e;
                (u128::from(2 * m + 1) * 5u128.pow(k as u32), i64::from(k))
            };
            let even = if m.is_multiple_of(2) { below } else { above };
            let zeros = "0".repeat(rng.below(40) as usize);
            let nines = "9".repeat(1 + rng.below(40) as usize);
            let extra = zeros.len() as i64 + 1;
            let cases = [
                (h.to_string(), scale, even),
                (format!("{h}{zeros}1"), scale + extra, above),
                (
                    format!("{}{nines}", h - 1),
                    scale + nines.len() as i64,
                    below,
                ),
            ];
            for (digits, scale, expected) in cases {
                let (negative, text) = written(&mut rng, &digits, scale);
                assert_eq!(
                    canonical(&text).as_deref(),
                    Ok(es_of(negative, expected).as_str()),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn a_bracket_of_digits_a_u64_holds_is_their_own_double() {
        // The bracket's ends are w and w + 1 units in the last place: 12.34 and 12.35, which
        // round apart, or 123456789.123456789 and the next, which round together. Expected:
        // the standard library's parse of the digits.
        let cases = [
            ("12", "34", 2, None),
            ("", "5", -3, None),
            ("123456789", "123456789", 9, Some("123456789.123456789")),
            ("1234567890", "123456789", 10, Some("1234567890.123456789")),
            ("1234567890123456789", "", 19, Some("1234567890123456789")),
        ];
        for (head, tail, point, expected) in cases {
            let (head, tail) = (head.as_bytes(), tail.as_bytes());
            let digits = Digits { head, tail, point };
            let expected = expected.map(|text| text.parse::<f64>().unwrap());
            assert_eq!(digits.bracketed_double(), expected, "{head:?} {tail:?}");
        }
    }

    #[test]
    fn random_long_digit_runs_match_the_standard_parse() {
        // 20 to 60 significant digits at every magnitude of the double range; expected:
        // ryu-js of the standard library's correctly rounded parse (exponents this small
        // are ones it reads right).
        let mut rng = Rng::new(0xB7E1_5162_8AED_2A6A);
        for _ in 0..100_000 {
            let count = 19 + rng.below(41);
            let first = 1 + rng.below(9);
            let mut digits = format!("{first}{}", digits(&mut rng, count));
            digits.push(char::from(b'1' + rng.below(9) as u8));
            let scale = rng.below(700) as i64 - 350 + digits.len() as i64;
            let (negative, text) = written(&mut rng, &digits, scale);
            let value: f64 = text.parse().unwrap();
            let expected = if value == 0.0 {
                Ok("0".to_string())
            } else if value.is_infinite() {
                Err("out of range".to_string())
            } else {
                Ok(es_of(negative, value.abs()))
            };
            assert_eq!(canonical(&text), expected, "{text}");
        }
    }

    /// The canonical form of the number `text`, or the rule it breaks.
    fn canonical(text: &str) -> Result<String, String> {
        let mut out = Vec::new();
        let mut broken = BrokenRule::default();
        let end = parse_number(text.as_bytes(), 0, &mut out, &mut broken)
            .map_err(|f| format!("{f:?}"))?;
        assert_eq!(end, text.len(), "{text}");
        if broken.is_broken() {
            return Err("out of range".into());
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    #[test]
    fn an_exponent_and_a_long_run_of_digits_bring_each_other_back_into_range() {
        // Expected: exact arithmetic on the digits as written (0.0…01e(n+1) is 10), each
        // rounded to the nearest double; V8's JSON.parse and JSON.stringify give the same for
        // n = 1,000, 100,000 and 1,000,000. The standard library misreads exponents from
        // 655,360 up; 1,000,001 was past the core's own bound on exponents.
        for n in [655_360, 1_000_001] {
            let zeros = "0".repeat(n);
            let cases = [
                (format!("0.{}1e{}", &zeros[1..], n + 1), "10"),
                (format!("1{zeros}e-{n}"), "1"),
                (format!("-25{zeros}e-{}", n + 1), "-2.5"),
                // 2^53 + 1 and a little more: above the halfway point, so up to 2^53 + 2.
                (
                    format!("9007199254740993{zeros}1e-{}", n + 1),
                    "9007199254740994",
                ),
                (
                    format!("0.{zeros}1e99999999999999999999999"),
                    "out of range",
                ),
                (format!("1{zeros}e-99999999999999999999999"), "0"),
            ];
            for (text, expected) in cases {
                let got = canonical(&text).unwrap_or_else(|e| e);
                assert_eq!(
                    got,
                    expected,
                    "{}...{}",
                    &text[..20],
                    &text[text.len() - 30..]
                );
            }
        }
    }

    #[test]
    fn digits_past_the_deciding_ones_count_only_as_nonzero() {
        // Expected: IEEE 754 round half to even. 2^53 + 1 lies halfway between 2^53 and
        // 2^53 + 2 and goes to the even 2^53; any nonzero digit after it, however far out,
        // puts it above halfway. 2^-1075, halfway between 0 and the least subnormal,
        // likewise goes to 0, and to 5e-324 with a digit more. V8 agrees on each.
        let zeros = "0".repeat(DECIDING_DIGITS + 100);
        let half_least = concat!(
            "2.4703282292062327208828439643411068618252990130716238221279284125033775363510",
            "437593264991818081799618989828234772285886546332835517796989819938739800539093",
            "906315035659515570226392290858392449105184435931802849936536152500319370457678",
            "249219365623669863658480757001585769269903706311928279558551332927834338409351",
            "978015531246597263579574622766465272827220056374006485499977096599470454020828",
            "166226237857393450736339007967761930577506740176324673600968951340535537458516",
            "661134223766678604162159680461914467291840300530057530849048765391711386591646",
            "239524912623653881879636239373280423891018672348497668235089863388587925628302",
            "755995657524455507255189313690836254779186948667994968324049705821028513185451",
            "396213837722826145437693412532098591327667236328125",
        );
        let cases = [
            (format!("9007199254740993.{zeros}"), "9007199254740992"),
            (format!("9007199254740993.{zeros}1"), "9007199254740994"),
            (format!("{half_least}e-324"), "0"),
            (format!("{half_least}{zeros}1e-324"), "5e-324"),
            // The ends of the range, read through the same path: Number.MAX_VALUE and
            // Number.MIN_VALUE as ECMAScript writes them.
            (
                format!("1.7976931348623157{zeros}1e308"),
                "1.7976931348623157e+308",
            ),
            (format!("4.9406564584124654{zeros}1e-324"), "5e-324"),
        ];
        for (text, expected) in cases {
            assert_eq!(canonical(&text).as_deref(), Ok(expected), "{text}");
        }
    }
}
