//! Numbers: the strict RFC 8259 number grammar, and doubles written the way ECMAScript's
//! `Number.prototype.toString` writes them (RFC 8785 §3.2.2.3).

use super::error::{describe_byte, ErrorKind, Fault};

/// Decimals with at most this many significant digits survive a trip through a double and
/// back (DBL_DIG), so the shortest round-trip digits of their double are their own digits.
const EXACT_DIGITS: usize = 15;

/// Appends the ECMAScript `Number.prototype.toString` form of `value` to `out`: the shortest
/// digits that round-trip, laid out in plain or exponent notation by the rules of ECMA-262
/// §6.1.6.1.20; `-0` is written `0`.
///
/// Returns `false`, writing nothing, for NaN and the infinities, which JSON cannot represent.
pub fn write_number(value: f64, out: &mut Vec<u8>) -> bool {
    if !value.is_finite() {
        return false;
    }
    if value == 0.0 {
        out.push(b'0');
        return true;
    }
    if value < 0.0 {
        out.push(b'-');
    }
    let mut buffer = ryu::Buffer::new();
    let shortest = Decimal::from_shortest(buffer.format_finite(value.abs()));
    shortest.write_es(out);
    true
}

/// A positive decimal `0.d1 d2 ... dk × 10^n` with `d1 != 0` and `dk != 0`.
struct Decimal {
    digits: [u8; 20],
    len: usize,
    point: i32,
}

impl Decimal {
    /// Reads the digits and exponent out of a shortest round-trip representation such as
    /// `1.5e-7`, `123.0` or `0.001`.
    fn from_shortest(text: &str) -> Decimal {
        let (mantissa, exponent) = match text.split_once(['e', 'E']) {
            Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
            None => (text, 0),
        };
        let mut decimal = Decimal {
            digits: [0; 20],
            len: 0,
            point: exponent,
        };
        let mut before_point = true;
        for b in mantissa.bytes() {
            match b {
                b'.' => before_point = false,
                b'0'..=b'9' => {
                    if decimal.len == 0 && b == b'0' {
                        if !before_point {
                            decimal.point -= 1;
                        }
                        continue;
                    }
                    if before_point {
                        decimal.point += 1;
                    }
                    if let Some(slot) = decimal.digits.get_mut(decimal.len) {
                        *slot = b;
                        decimal.len += 1;
                    }
                }
                _ => {}
            }
        }
        while decimal.len > 1 && decimal.digits().last() == Some(&b'0') {
            decimal.len -= 1;
        }
        decimal
    }

    fn digits(&self) -> &[u8] {
        self.digits.get(..self.len).unwrap_or_default()
    }

    /// ECMA-262 Number::toString layout for a positive value with digits `s`, `k` of them,
    /// and decimal point position `n`.
    fn write_es(&self, out: &mut Vec<u8>) {
        let digits = self.digits();
        let k = digits.len() as i32;
        let n = self.point;
        if k <= n && n <= 21 {
            out.extend_from_slice(digits);
            out.resize(out.len() + (n - k) as usize, b'0');
        } else if 0 < n && n <= 21 {
            let (int, frac) = digits.split_at(n as usize);
            out.extend_from_slice(int);
            out.push(b'.');
            out.extend_from_slice(frac);
        } else if -6 < n && n <= 0 {
            out.extend_from_slice(b"0.");
            out.resize(out.len() + (-n) as usize, b'0');
            out.extend_from_slice(digits);
        } else {
            let (first, rest) = digits.split_at(1.min(digits.len()));
            out.extend_from_slice(first);
            if !rest.is_empty() {
                out.push(b'.');
                out.extend_from_slice(rest);
            }
            let exponent = n - 1;
            out.push(b'e');
            out.push(if exponent < 0 { b'-' } else { b'+' });
            write_small_decimal(exponent.unsigned_abs(), out);
        }
    }
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
/// With `strict` off, numbers beyond the double range are written as `0` instead of rejected,
/// so that the rest of the document can still be checked for grammar errors.
pub(crate) fn parse_number(
    input: &[u8],
    start: usize,
    out: &mut Vec<u8>,
    strict: bool,
) -> Result<usize, Fault> {
    let digit_at = |i: usize| input.get(i).is_some_and(u8::is_ascii_digit);
    let mut pos = start;
    let negative = input.get(pos) == Some(&b'-');
    if negative {
        pos += 1;
    }
    let int_start = pos;
    match input.get(pos) {
        Some(b'0') => {
            pos += 1;
            if digit_at(pos) {
                return Err(Fault::syntax(
                    int_start,
                    "a number may not start with a leading zero; write it without the zero",
                ));
            }
        }
        Some(b'1'..=b'9') => {
            while digit_at(pos) {
                pos += 1;
            }
        }
        _ => {
            return Err(Fault::syntax(
                pos,
                format!(
                    "expected a digit after '-', found {}",
                    describe_byte(input, pos)
                ),
            ))
        }
    }
    let int_digits = pos - int_start;
    let int_is_zero = input.get(int_start) == Some(&b'0');
    let mut has_exponent = false;
    let mut frac_digits = 0;
    let mut frac_leading_zeros = 0;
    if input.get(pos) == Some(&b'.') {
        pos += 1;
        let frac_start = pos;
        if !digit_at(pos) {
            return Err(Fault::syntax(
                pos,
                format!(
                    "expected a digit after the decimal point, found {}",
                    describe_byte(input, pos)
                ),
            ));
        }
        while digit_at(pos) {
            pos += 1;
        }
        frac_digits = pos - frac_start;
        frac_leading_zeros = input
            .get(frac_start..pos)
            .unwrap_or_default()
            .iter()
            .take_while(|&&b| b == b'0')
            .count();
    }
    if matches!(input.get(pos), Some(b'e' | b'E')) {
        has_exponent = true;
        pos += 1;
        if matches!(input.get(pos), Some(b'+' | b'-')) {
            pos += 1;
        }
        if !digit_at(pos) {
            return Err(Fault::syntax(
                pos,
                format!(
                    "expected a digit in the exponent, found {}",
                    describe_byte(input, pos)
                ),
            ));
        }
        while digit_at(pos) {
            pos += 1;
        }
    }
    let text = input.get(start..pos).unwrap_or_default();
    if !has_exponent {
        if frac_digits == 0 && int_digits <= EXACT_DIGITS {
            out.extend_from_slice(if text == b"-0" { b"0" } else { text });
            return Ok(pos);
        }
        // A decimal already in canonical form: few enough digits to be the shortest form of
        // its double, no trailing zero, and (below 1) fewer than six leading zeros, past which
        // ECMAScript switches to exponent notation.
        let significant = if int_is_zero {
            frac_digits - frac_leading_zeros
        } else {
            int_digits + frac_digits
        };
        let canonical = frac_digits > 0
            && text.last() != Some(&b'0')
            && significant <= EXACT_DIGITS
            && (!int_is_zero || frac_leading_zeros < 6);
        if canonical {
            out.extend_from_slice(text);
            return Ok(pos);
        }
    }
    let value = std::str::from_utf8(text)
        .ok()
        .and_then(|t| t.parse::<f64>().ok())
        .unwrap_or(f64::NAN);
    if !write_number(value, out) {
        if strict {
            return Err(Fault::new(
                ErrorKind::NumberOutOfRange,
                start,
                format!(
                    "the number {} is beyond the IEEE-754 double range that I-JSON allows; \
                     send a value this large as a string",
                    String::from_utf8_lossy(text.get(..40).unwrap_or(text))
                ),
            ));
        }
        out.push(b'0');
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
