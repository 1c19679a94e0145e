//! Whether a served JSON value is the one that was signed, as the strictest client reads it:
//! every number by its exact decimal value, strings by their decoded text, objects by the set
//! of their members. Signed text is canonical (RFC 8785), so its numbers are the shortest
//! forms of doubles; a served number that only rounds to the same double — `12345678901234567891`
//! for a signed `12345678901234567000`, `1e-400` for a signed `0` — is another number to a
//! client that reads integers or decimals exactly, and is not the signed one. Another way of
//! writing the same number (`1e2` for `100`, `-0` for `0`) is.
//!
//! The comparison is linear in the text however deep it nests: the served value's canonical
//! form must be the signed text, and each served number the exact value of the double the
//! signed text writes.

/// Exponents of more digits than this are not compared: such a number is equal to no signed
/// one, which fails closed (the only number it could equal is zero written absurdly).
const EXPONENT_DIGITS: usize = 18;

/// A number literal as sign, significant digits (no leading or trailing zeros) and the power
/// of ten of the first of them; zero has no digits and no sign.
#[derive(Debug, PartialEq, Eq)]
struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    point: i64,
}

impl Decimal {
    /// Whether a double holds this value exactly, for an integer value: its odd part
    /// (digits × 5^k for digits × 10^k, factors of two set aside) is below 2^53. A value
    /// with a fraction is answered no, which fails closed; such a value is never compared
    /// here, as no integer literal writes it.
    fn is_a_double(&self) -> bool {
        if self.digits.is_empty() {
            return true;
        }
        let Ok(count) = i64::try_from(self.digits.len()) else {
            return false;
        };
        let Some(k) = self
            .point
            .checked_sub(count)
            .and_then(|k| u32::try_from(k).ok())
        else {
            return false;
        };
        if count > 19 || k > 22 {
            return false;
        }
        let digits = self.digits.iter().fold(0u64, |n, d| {
            n.wrapping_mul(10)
                .wrapping_add(u64::from(d.wrapping_sub(b'0')))
        });
        let odd = u128::from(digits >> digits.trailing_zeros());
        odd.checked_mul(5u128.pow(k)).is_some_and(|m| m < 1 << 53)
    }
}

/// Reads a JSON number literal; `None` for text that is not one, or whose exponent is past
/// [`EXPONENT_DIGITS`].
fn decimal(literal: &[u8]) -> Option<Decimal> {
    let (negative, rest) = match literal.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, literal),
    };
    let mantissa_end = rest
        .iter()
        .position(|b| matches!(b, b'e' | b'E'))
        .unwrap_or(rest.len());
    let (mantissa, exponent) = rest.split_at(mantissa_end);
    let (integer, fraction) = match mantissa.iter().position(|&b| b == b'.') {
        Some(dot) => (
            mantissa.get(..dot)?,
            mantissa.get(dot + 1..).filter(|f| !f.is_empty())?,
        ),
        None => (mantissa, &b""[..]),
    };
    let all_digits = |t: &[u8]| t.iter().all(u8::is_ascii_digit);
    if integer.is_empty() || !all_digits(integer) || !all_digits(fraction) {
        return None;
    }
    let exponent: i64 = match exponent.get(1..) {
        None => 0,
        Some(text) => {
            let (sign, digits) = match text.first() {
                Some(b'-') => (-1, text.get(1..)?),
                Some(b'+') => (1, text.get(1..)?),
                _ => (1, text),
            };
            let digits: &[u8] = match digits.iter().position(|&b| b != b'0') {
                Some(first) => digits.get(first..)?,
                None if !digits.is_empty() => &[],
                None => return None,
            };
            if !all_digits(digits) || digits.len() > EXPONENT_DIGITS {
                return None;
            }
            let value = digits
                .iter()
                .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
            sign * value
        }
    };
    let all: Vec<u8> = integer.iter().chain(fraction).copied().collect();
    let leading = all.iter().take_while(|d| **d == b'0').count();
    let trailing = all.iter().rev().take_while(|d| **d == b'0').count();
    if leading == all.len() {
        return Some(Decimal {
            negative: false,
            digits: Vec::new(),
            point: 0,
        });
    }
    let digits = all.get(leading..all.len() - trailing)?.to_vec();
    let before_point = i64::try_from(integer.len()).ok()? - i64::try_from(leading).ok()?;
    Some(Decimal {
        negative,
        digits,
        point: before_point.checked_add(exponent)?,
    })
}

/// Whether two JSON number literals name the same exact decimal value.
pub fn same_number(a: &[u8], b: &[u8]) -> bool {
    matches!((decimal(a), decimal(b)), (Some(x), Some(y)) if x == y)
}

/// The number literals of JSON text, as written: outside strings, each starts with a minus
/// or a digit and runs on through the characters numbers are made of.
fn number_literals(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let end = std::iter::once((text.len(), b' ', true));
    super::view::structure(text)
        .chain(end)
        .scan(None, move |start, (i, b, outside)| {
            let goes_on = outside && matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E');
            Some(match *start {
                Some(from) if !goes_on => {
                    *start = None;
                    text.get(from..i)
                }
                None if outside && matches!(b, b'0'..=b'9' | b'-') => {
                    *start = Some(i);
                    None
                }
                _ => None,
            })
        })
        .flatten()
}

/// How a served value differs from the signed one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// Another value even as doubles: members, items, strings, literals or numbers differ.
    Value,
    /// The same doubles, but `served` (at most [`SHOWN_DIGITS`] characters of it) is another
    /// number than the `signed` one it rounds to.
    Number {
        /// The served literal as written, cut short when long.
        served: String,
        /// The signed number, as RFC 8785 writes it.
        signed: String,
    },
    /// The same decimal value, but one of `served` and `signed` is written as an integer and
    /// the other is not, and that value is no double: a client that reads integer literals as
    /// exact integers and other numbers as doubles (Python's `json`) reads two values.
    Reading {
        /// The served literal as written, cut short when long.
        served: String,
        /// The signed number, as RFC 8785 writes it.
        signed: String,
    },
}

/// How much of a long served number a [`Mismatch`] keeps.
pub const SHOWN_DIGITS: usize = 40;

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::Value => f.write_str("it is another value"),
            Mismatch::Number { served, signed } => write!(
                f,
                "it serves the number {served} where {signed} was signed: they round to one \
                 double, but a client that reads numbers exactly reads another value"
            ),
            Mismatch::Reading { served, signed } => write!(
                f,
                "it serves the number {served} where {signed} was signed: one decimal value, \
                 but no double holds it, and a client that reads an integer literal as an exact \
                 integer and any other number as a double (Python's json) reads the one as \
                 an integer and the other as the nearest double, another value"
            ),
        }
    }
}

/// Whether the served JSON text `served` is the signed canonical text `signed` to a client
/// that reads numbers exactly: see the module. Its canonical form must be `signed` — the same
/// members, items, strings and doubles — and each of its numbers must be exactly the number
/// RFC 8785 writes for its double, which is the signed number; both in one pass each.
pub fn same_value(served: &[u8], signed: &[u8]) -> Result<(), Mismatch> {
    if !matches!(super::canonicalize(served), Ok(canonical) if canonical == signed) {
        return Err(Mismatch::Value);
    }
    for literal in number_literals(served) {
        let shortest = super::canonicalize(literal).map_err(|_| Mismatch::Value)?;
        let exact = same_number(literal, &shortest);
        let read_alike = written_as_integer(literal) == written_as_integer(&shortest)
            || decimal(literal).is_some_and(|d| d.is_a_double());
        if !exact || !read_alike {
            let shown = literal.get(..SHOWN_DIGITS).unwrap_or(literal);
            let cut = if shown.len() < literal.len() {
                "…"
            } else {
                ""
            };
            let served = format!("{}{cut}", String::from_utf8_lossy(shown));
            let signed = String::from_utf8_lossy(&shortest).into_owned();
            return Err(if exact {
                Mismatch::Reading { served, signed }
            } else {
                Mismatch::Number { served, signed }
            });
        }
    }
    Ok(())
}

/// Whether a JSON number literal is written as an integer: digits, after an optional minus,
/// with no fraction and no exponent — how a client that reads a JSON-RPC `id` or `code` as an
/// integer can read it.
pub fn written_as_integer(literal: &[u8]) -> bool {
    let digits = literal.strip_prefix(b"-").unwrap_or(literal);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jcs::canonicalize;

    fn same(served: &str, signed: &str) -> bool {
        let signed = canonicalize(signed.as_bytes()).unwrap();
        same_value(served.as_bytes(), &signed).is_ok()
    }

    #[test]
    fn one_number_written_any_way_is_the_same_number() {
        for (a, b) in [
            ("100", "1e2"),
            ("100", "1E+2"),
            ("100", "100.000"),
            ("0.5", "5e-1"),
            ("0", "-0"),
            ("0", "0e999999999999999999"),
            ("-1.5", "-15e-1"),
            ("1e+21", "1000000000000000000000"),
            ("12345678901234567000", "1.2345678901234567e19"),
        ] {
            assert!(same_number(a.as_bytes(), b.as_bytes()), "{a} {b}");
        }
    }

    #[test]
    fn numbers_that_round_to_one_double_are_different_numbers() {
        for (a, b) in [
            ("12345678901234567000", "12345678901234567891"),
            ("1.0000000000000002", "1.00000000000000021"),
            ("0", "1e-400"),
            ("9007199254740992", "9007199254740993"),
            ("1", "-1"),
            ("1", "10"),
            ("1", "1e9999999999999999999"),
        ] {
            assert!(!same_number(a.as_bytes(), b.as_bytes()), "{a} {b}");
        }
        for not_a_number in ["", "-", "1e", "1.", ".5", "1e+", "0x1", "1e1.5"] {
            assert!(
                !same_number(not_a_number.as_bytes(), b"1"),
                "{not_a_number}"
            );
        }
    }

    #[test]
    fn values_compare_as_an_exact_client_reads_them() {
        let signed = r#"{"b":[1,"\u00e9",null,true],"a":{"n":100}}"#;
        assert!(same(
            r#"{ "a" : {"n":1e2}, "b":[1.0,"é",null,true]}"#,
            signed
        ));
        assert!(same(
            r#"{"a":{"n":100},"b":[1,"\u00E9",null,true]}"#,
            signed
        ));
        for served in [
            r#"{"a":{"n":100.00000000000000001},"b":[1,"é",null,true]}"#,
            r#"{"a":{"n":100},"b":[1,"é",null,false]}"#,
            r#"{"a":{"n":100},"b":[1,"é",null]}"#,
            r#"{"a":{"n":100},"b":[1,"é",null,true],"c":0}"#,
            r#"{"a":{"n":100}}"#,
            r#"{"a":{"n":"100"},"b":[1,"é",null,true]}"#,
            r#"{"a":{"n":100},"a":{"n":100}}"#,
        ] {
            assert!(!same(served, signed), "{served}");
        }
        assert!(!same(
            r#"{"a":{"n":100},"b":[1,"é",null,true],"c":"1e2"}"#,
            signed
        ));
        // As deep as the canonicalizer reads.
        let deep = |n: usize, inner: &str| format!("{}{inner}{}", "[".repeat(n), "]".repeat(n));
        assert!(same(&deep(9_000, "1.0"), &deep(9_000, "1")));
        assert!(!same(
            &deep(9_000, "1.00000000000000001"),
            &deep(9_000, "1")
        ));
        assert!(same(r#"[0.1, 1e21, -0, 5e-324]"#, "[0.1,1e21,0,5e-324]"));
        assert!(!same("[0.1000000000000000055511151231257827]", "[0.1]"));
    }

    #[test]
    fn an_integer_literal_and_another_form_agree_only_where_a_double_holds_the_value() {
        // Python 3.11: json.loads('12345678901234567000') == json.loads('1.2345678901234567e19')
        // is False (12345678901234567000 against 12345678901234567168.0), and
        // json.loads('100000000000000000000000') == json.loads('1e+23') is False (against
        // 99999999999999991611392.0); json.loads('100') == json.loads('1e2'),
        // json.loads('1e+21') == json.loads('1000000000000000000000') (5^21 < 2^53),
        // json.loads('9007199254740992') == json.loads('9.007199254740992e15') and
        // json.loads('0') == json.loads('-0.0') are True.
        for (served, signed) in [
            ("1.2345678901234567e19", "12345678901234567000"),
            ("100000000000000000000000", "1e+23"),
            ("-100000000000000000000000", "-1e+23"),
            ("12345678901234567e3", "12345678901234567000"),
            ("1000000000000000000000000", "1e+24"),
        ] {
            let mismatch = same_value(
                format!("[{served}]").as_bytes(),
                format!("[{signed}]").as_bytes(),
            );
            assert_eq!(
                mismatch,
                Err(Mismatch::Reading {
                    served: served.into(),
                    signed: signed.into()
                }),
                "{served}"
            );
        }
        for (served, signed) in [
            ("1e2", "100"),
            ("1000000000000000000000", "1e+21"),
            ("9.007199254740992e15", "9007199254740992"),
            ("-0.0", "0"),
            ("1.0", "1"),
            ("15e-1", "1.5"),
            ("12345678901234567000", "12345678901234567000"),
            ("4.5e15", "4500000000000000"),
        ] {
            assert!(
                same(&format!("[{served}]"), &format!("[{signed}]")),
                "{served}"
            );
        }
        let deep = |n: usize, inner: &str| format!("{}{inner}{}", "[".repeat(n), "]".repeat(n));
        assert!(matches!(
            same_value(
                deep(3_000, "1.2345678901234567e19").as_bytes(),
                deep(3_000, "12345678901234567000").as_bytes()
            ),
            Err(Mismatch::Reading { .. })
        ));
    }

    #[test]
    fn a_mismatch_names_the_served_number_and_the_signed_one() {
        let signed = canonicalize(br#"{"v":12345678901234567000}"#).unwrap();
        let mismatch = same_value(br#"{"v":12345678901234567891}"#, &signed).unwrap_err();
        assert_eq!(
            mismatch,
            Mismatch::Number {
                served: "12345678901234567891".into(),
                signed: "12345678901234567000".into()
            }
        );
        let long = format!("[1.{}1]", "0".repeat(100));
        let Err(Mismatch::Number { served, signed }) = same_value(long.as_bytes(), b"[1]") else {
            panic!("{long}");
        };
        assert_eq!(served, format!("1.{}…", "0".repeat(SHOWN_DIGITS - 2)));
        assert_eq!(signed, "1");
        assert_eq!(same_value(b"[2]", b"[1]"), Err(Mismatch::Value));
    }

    #[test]
    fn number_literals_are_found_outside_strings_alone() {
        let text = br#"{"a\"1":[1,-2.5e3, 0],"b\\":"7","c":{"d":10E+2}}"#;
        let found: Vec<&[u8]> = number_literals(text).collect();
        assert_eq!(found, [&b"1"[..], b"-2.5e3", b"0", b"10E+2"]);
        assert_eq!(number_literals(b"-0.5").collect::<Vec<_>>(), [b"-0.5"]);
    }

    #[test]
    fn integers_are_digits_alone() {
        for yes in ["7", "-32602", "0"] {
            assert!(written_as_integer(yes.as_bytes()), "{yes}");
        }
        for no in ["7.0", "7e0", "-3.2602e4", "", "-"] {
            assert!(!written_as_integer(no.as_bytes()), "{no}");
        }
    }
}
