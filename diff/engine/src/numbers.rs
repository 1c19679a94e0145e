//! Number literals shrunk by their parts. The minimizer cuts bytes, so `1e20` and `1e16` are
//! the same to it, and a literal whose bug needs a large exponent offset by a long run of
//! zeros cannot lose a byte without changing its value. Here each number of an example is
//! rewritten by its parts while the bug still shows: its digits to one, a run of zeros
//! shortened with the exponent moved to keep the value, and its exponent bisected towards
//! zero — so the example is the shortest literal that shows the bug, and the exponent where
//! the bug starts (and where it stops, when that is near) is found and stated.

/// The exponents over which a bug was seen to show: bisection found that the one nearest zero
/// shows it and the next nearer does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exponents {
    /// The exponent nearest zero that shows it.
    pub from: i64,
    /// The farthest that does, when one past it was seen not to.
    pub to: Option<i64>,
    /// Whether exponents of the other sign were seen to show it from the same magnitude.
    pub either_sign: bool,
}

impl Exponents {
    /// Exponents from `from` on, and up to `to` when that is where it stops.
    pub fn new(from: i64, to: Option<i64>) -> Exponents {
        Exponents {
            from,
            to,
            either_sign: false,
        }
    }

    /// The exponents both `self` and `other` cover, as one range: the same magnitude on.
    pub fn union(self, other: Exponents) -> Exponents {
        if self.from.signum() != other.from.signum() {
            return Exponents {
                from: self.from.abs(),
                to: None,
                either_sign: true,
            };
        }
        let to = match (self.to, other.to) {
            (Some(a), Some(b)) if a.abs() >= b.abs() => Some(a),
            (Some(_), Some(b)) => Some(b),
            _ => None,
        };
        Exponents {
            to,
            either_sign: self.either_sign || other.either_sign,
            ..self
        }
    }

    /// The range in words, e.g. "from exponent 655,360 up", "exponents 16 to 20".
    pub fn words(&self) -> String {
        if self.either_sign {
            return format!(
                "exponents of {} and more, of either sign",
                grouped(self.from.abs())
            );
        }
        match self.to {
            Some(to) if to == self.from => format!("at exponent {} only", grouped(self.from)),
            Some(to) => {
                let (low, high) = (self.from.min(to), self.from.max(to));
                format!("exponents {} to {}", grouped(low), grouped(high))
            }
            None if self.from < 0 => format!("from exponent {} down", grouped(self.from)),
            None => format!("from exponent {} up", grouped(self.from)),
        }
    }
}

/// `n` with its thousands grouped by commas from 10,000 on.
fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let sign = if n < 0 { "-" } else { "" };
    if digits.len() <= 4 {
        return format!("{sign}{digits}");
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

/// A number literal by its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Literal {
    negative: bool,
    integer: String,
    fraction: String,
    /// The exponent's marker (`e` or `E`) and value, when written.
    exponent: Option<(char, i64)>,
}

impl Literal {
    /// Reads a JSON number token; `None` for anything else, or an exponent past `i64`.
    fn read(raw: &[u8]) -> Option<Literal> {
        let text = std::str::from_utf8(raw).ok()?;
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exponent) = match rest.find(['e', 'E']) {
            Some(at) => {
                let marker = rest[at..].chars().next()?;
                let digits = &rest[at + 1..];
                let value: i64 = digits.strip_prefix('+').unwrap_or(digits).parse().ok()?;
                (&rest[..at], Some((marker, value)))
            }
            None => (rest, None),
        };
        let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        (!integer.is_empty() && digits(integer) && digits(fraction)).then(|| Literal {
            negative,
            integer: integer.to_string(),
            fraction: fraction.to_string(),
            exponent,
        })
    }

    fn write(&self) -> Vec<u8> {
        let mut out = String::new();
        if self.negative {
            out.push('-');
        }
        out.push_str(&self.integer);
        if !self.fraction.is_empty() {
            out.push('.');
            out.push_str(&self.fraction);
        }
        if let Some((marker, value)) = self.exponent {
            out.push(marker);
            out.push_str(&value.to_string());
        }
        out.into_bytes()
    }

    /// The power of ten of its first significant digit, `None` for zero.
    fn magnitude(&self) -> Option<i64> {
        let exponent = self.exponent.map_or(0, |(_, e)| e);
        if let Some(lead) = self.integer.bytes().position(|b| b != b'0') {
            return Some(exponent + (self.integer.len() - lead - 1) as i64);
        }
        let lead = self.fraction.bytes().position(|b| b != b'0')?;
        Some(exponent - lead as i64 - 1)
    }

    /// Itself as one digit of the same magnitude: `1e21` for `3459659078775916348297`.
    fn one_digit(&self) -> Option<Literal> {
        Some(Literal {
            negative: self.negative,
            integer: "1".to_string(),
            fraction: String::new(),
            exponent: Some(('e', self.magnitude()?)),
        })
    }

    /// The run of zeros that may shorten: leading zeros of a fraction after `0.`, or trailing
    /// zeros of an integer; its length, and the literal with `k` of them, its exponent moved
    /// to keep the value when `keep_value`.
    fn zero_run(&self, keep_value: bool) -> Option<(usize, WithRun<'_>)> {
        let exponent = self.exponent.map_or(0, |(_, e)| e);
        let marker = self.exponent.map_or('e', |(m, _)| m);
        let moved = move |by: i64| if keep_value { exponent + by } else { exponent };
        if self.integer == "0" {
            let run = self.fraction.bytes().take_while(|&b| b == b'0').count();
            let rest = self.fraction.get(run..)?;
            (!rest.is_empty() && run > 0).then_some(())?;
            let with = move |k: usize| Literal {
                fraction: format!("{}{rest}", "0".repeat(k)),
                exponent: Some((marker, moved(-((run - k) as i64)))),
                ..self.clone()
            };
            return Some((run, Box::new(with)));
        }
        let run = self
            .integer
            .bytes()
            .rev()
            .take_while(|&b| b == b'0')
            .count();
        let head = self.integer.get(..self.integer.len() - run)?;
        (self.fraction.is_empty() && run > 0 && !head.is_empty()).then_some(())?;
        let with = move |k: usize| Literal {
            integer: format!("{head}{}", "0".repeat(k)),
            exponent: Some((marker, moved((run - k) as i64))),
            ..self.clone()
        };
        Some((run, Box::new(with)))
    }
}

/// A literal with a given length of its run of zeros.
type WithRun<'a> = Box<dyn Fn(usize) -> Literal + 'a>;

/// The number tokens of JSON text (outside strings), as byte ranges.
fn number_spans(input: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(&b) = input.get(pos) {
        match b {
            b'"' => {
                if crate::tree::string_token(input, &mut pos).is_none() {
                    break;
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = pos;
                let _ = crate::tree::scalar_token(input, &mut pos);
                out.push((start, pos.max(start + 1)));
            }
            _ => pos += 1,
        }
    }
    out
}

/// `input` with each number written as its shape alone: its sign, and whether it has an
/// exponent — what a bisection moves (the exponent, the runs of digits and where the point
/// stands in them) left out.
pub fn shape(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut at = 0;
    for (from, to) in number_spans(input) {
        out.extend_from_slice(input.get(at..from).unwrap_or_default());
        at = to;
        let raw = input.get(from..to).unwrap_or_default();
        let Some(l) = Literal::read(raw) else {
            out.extend_from_slice(raw);
            continue;
        };
        let sign = if l.negative { "-" } else { "" };
        let exponent = if l.exponent.is_some() { "eN" } else { "" };
        out.extend_from_slice(format!("{sign}N{exponent}").as_bytes());
    }
    out.extend_from_slice(input.get(at..).unwrap_or_default());
    out
}

/// Numbers of an example tried alone, at most.
const ALONE: usize = 64;

/// Numbers of an example this pass rewrites, at most.
const NUMBERS: usize = 4;

/// `input` with each of its first numbers rewritten by its parts while `keeps` holds, and the
/// exponents over which the last number with a bisected exponent shows the bug, when found.
/// `keeps` must hold for `input`; it is asked at most some dozens of times a number.
pub fn refine(input: &[u8], keeps: &mut dyn FnMut(&[u8]) -> bool) -> (Vec<u8>, Option<Exponents>) {
    let mut current = input.to_vec();
    let mut found = None;
    // A number's bug shows on the number alone, which cutting bytes out of a document of a
    // megabyte may never reach.
    for (from, to) in number_spans(input).into_iter().take(ALONE) {
        let alone = input.get(from..to).unwrap_or_default();
        if alone.len() < current.len() && keeps(alone) {
            current = alone.to_vec();
            break;
        }
    }
    for k in 0..NUMBERS {
        let Some(&(from, to)) = number_spans(&current).get(k) else {
            break;
        };
        let Some(literal) = current.get(from..to).and_then(Literal::read) else {
            continue;
        };
        let (rest, head) = (current.get(to..).unwrap_or_default().to_vec(), from);
        let with = |l: &Literal| {
            let mut out = current.get(..head).unwrap_or_default().to_vec();
            out.extend_from_slice(&l.write());
            out.extend_from_slice(&rest);
            out
        };
        let (literal, exponents) = refine_literal(literal, &mut |l| keeps(&with(l)));
        current = with(&literal);
        found = exponents.or(found);
    }
    (current, found)
}

/// One literal rewritten by its parts while `keeps` holds of it.
fn refine_literal(
    mut literal: Literal,
    keeps: &mut dyn FnMut(&Literal) -> bool,
) -> (Literal, Option<Exponents>) {
    let length = |l: &Literal| l.write().len();
    if let Some(one) = literal.one_digit() {
        if length(&one) < length(&literal) && keeps(&one) {
            literal = one;
        }
    }
    literal = shorter_run(literal, true, keeps);
    let Some((marker, exponent)) = literal.exponent else {
        return (smaller_integer(literal, keeps), None);
    };
    let at = |e: i64| Literal {
        exponent: Some((marker, e)),
        ..literal.clone()
    };
    let sign = exponent.signum();
    let magnitude = exponent.unsigned_abs().min(1 << 40) as usize;
    let nearest = smallest(0, magnitude, &mut |m| keeps(&at(sign * m as i64))) as i64 * sign;
    if nearest == 0 {
        return (at(0), None);
    }
    // How far it goes: one past the original exponent, and as far again, bisected.
    let far = magnitude.saturating_mul(2).saturating_add(16);
    let to = if keeps(&at(sign * far as i64)) {
        None
    } else {
        let last = largest(magnitude, far, &mut |m| keeps(&at(sign * m as i64)));
        Some(sign * last as i64)
    };
    let exponents = Exponents::new(nearest, to);
    // Where the exponent must stay, the run may still shorten at the cost of the value.
    (shorter_run(at(nearest), false, keeps), Some(exponents))
}

/// `literal`, an integer written in full, as an integer of the fewest digits that `keeps` holds
/// of, bisected down towards where the bug starts (2^53 + 1 for one of a double's rounding).
fn smaller_integer(literal: Literal, keeps: &mut dyn FnMut(&Literal) -> bool) -> Literal {
    let Ok(value) = literal.integer.parse::<u128>() else {
        return literal;
    };
    if !literal.fraction.is_empty() || literal.exponent.is_some() || value == 0 {
        return literal;
    }
    let at = |v: u128| Literal {
        integer: v.to_string(),
        ..literal.clone()
    };
    // The fewest digits first: the largest integers of each length (two of them, since a
    // double's rounding spares every other one), then a bisection below the one that shows it.
    let digits = literal.integer.len() as u32;
    for d in 1..digits {
        let top = 10u128.pow(d) - 1;
        let Some(high) = [top, top - 2].into_iter().find(|&v| keeps(&at(v))) else {
            continue;
        };
        let (mut low, mut high) = (10u128.pow(d - 1), high);
        while low < high {
            let mid = low + (high - low) / 2;
            if keeps(&at(mid)) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return at(high);
    }
    literal
}

/// `literal` with its run of zeros bisected to the shortest for which `keeps` holds, the value
/// kept by the exponent when `keep_value`.
fn shorter_run(
    literal: Literal,
    keep_value: bool,
    keeps: &mut dyn FnMut(&Literal) -> bool,
) -> Literal {
    let shortened = literal.zero_run(keep_value).and_then(|(run, with)| {
        let k = smallest(0, run, &mut |k| keeps(&with(k)));
        (k < run).then(|| with(k))
    });
    shortened.unwrap_or(literal)
}

/// The smallest `k` in `low..=high` for which `holds`, bisecting on the promise that it holds
/// from some `k` on and holds at `high`.
fn smallest(low: usize, high: usize, holds: &mut dyn FnMut(usize) -> bool) -> usize {
    let (mut low, mut high) = (low, high);
    while low < high {
        let mid = low + (high - low) / 2;
        if holds(mid) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    high
}

/// The largest `k` in `low..high` for which `holds`, on the promise that it holds at `low`
/// and up to some `k`, and not at `high`.
fn largest(low: usize, high: usize, holds: &mut dyn FnMut(usize) -> bool) -> usize {
    let (mut low, mut high) = (low, high);
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if holds(mid) {
            low = mid;
        } else {
            high = mid;
        }
    }
    low
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Refines `input` for a property of its first number's value as `f64` parses it and of
    /// its exponent as written.
    fn refined(input: &str, holds: impl Fn(&str) -> bool) -> (String, Option<Exponents>) {
        let mut asked = 0;
        let (out, exponents) = refine(input.as_bytes(), &mut |c| {
            asked += 1;
            holds(std::str::from_utf8(c).unwrap())
        });
        assert!(asked < 200, "{asked} asked");
        (String::from_utf8(out).unwrap(), exponents)
    }

    fn exponent(text: &str) -> i64 {
        let number = text.trim_matches(|c| c == '[' || c == ']');
        Literal::read(number.as_bytes())
            .and_then(|l| l.exponent)
            .map_or(0, |(_, e)| e)
    }

    #[test]
    fn digits_go_to_one_and_the_exponent_to_where_the_bug_starts_and_stops() {
        // A library dropping the + of exponents 21 and up (ECMAScript writes 1e+21 from 1e21,
        // RFC 8785 §3.2.2.3): the property holds of every value of 1e21 or more.
        let big = |t: &str| {
            t.trim_matches(|c| c == '[' || c == ']')
                .parse::<f64>()
                .is_ok_and(|v| v >= 1e21)
        };
        // The number alone shows it, with one digit, from exponent 21.
        let (out, exponents) = refined("[3459659078775916348297]", big);
        assert_eq!(out, "1e21");
        assert_eq!(exponents, Some(Exponents::new(21, None)));
        assert_eq!(exponents.unwrap().words(), "from exponent 21 up");
        // Python writes 1e+16 to 1e+20 where ECMAScript writes the digits in full.
        let python = |t: &str| {
            let v: f64 = t.trim_matches(|c| c == '[' || c == ']').parse().unwrap();
            (1e16..1e21).contains(&v)
        };
        let (out, exponents) = refined("[78454582171985699.5]", python);
        assert_eq!(out, "1e16");
        assert_eq!(exponents.unwrap().words(), "exponents 16 to 20");
    }

    #[test]
    fn a_run_of_zeros_shortens_with_the_exponent_keeping_the_value() {
        // A reader that misreads exponents of 655,360 and up, which a value needs a run of
        // zeros as long to stay finite: the run and the exponent shrink together.
        // The value must stay within the doubles (past them the answer is another), so the
        // run is at least 655,360 - 309 long.
        let zeros = |t: &str| t[2..].bytes().take_while(|&b| b == b'0').count() as i64;
        let misread = |t: &str| exponent(t) >= 655_360 && exponent(t) - zeros(t) - 1 <= 308;
        let input = format!("[0.{}1e1000002]", "0".repeat(999_999));
        let (out, exponents) = refined(&input, misread);
        assert_eq!(exponent(&out), 655_360);
        assert_eq!(exponent(&out) - zeros(&out) - 1, 308, "{}", &out[..20]);
        // It starts at 655,360; where it stops depends on the run the value was kept with.
        assert_eq!(exponents.map(|e| e.from), Some(655_360));
        // Trailing zeros of an integer, the other way.
        let (out, _) = refined("[100000e-3]", |t| t.contains('e'));
        assert_eq!(out, "1e0");
    }

    #[test]
    fn a_shape_leaves_out_what_a_bisection_moves() {
        let a = format!("[0.{}5e655360]", "0".repeat(655_357));
        let b = format!("[0.{}3e655360]", "0".repeat(655_000));
        assert_eq!(shape(a.as_bytes()), shape(b.as_bytes()));
        assert_eq!(shape(a.as_bytes()), b"[NeN]");
        let c = format!("[5{}e-655360]", "0".repeat(655_000));
        assert_eq!(shape(a.as_bytes()), shape(c.as_bytes()));
        for other in [
            "[5]",
            "[-0.05e655360]",
            "[0.05e-655360,1]",
            "[\"0.05e655360\"]",
        ] {
            assert_ne!(shape(a.as_bytes()), shape(other.as_bytes()), "{other}");
        }
    }

    #[test]
    fn an_integer_goes_down_to_where_the_bug_starts() {
        // A library writing integers as written: wrong from 2^53 + 1, which a double rounds.
        let rounded = |t: &str| t.parse::<u64>().is_ok_and(|n| n as f64 as u64 != n);
        let (out, exponents) = refined("50897881484818089", rounded);
        assert_eq!((out.len(), exponents), (16, None), "{out}");
        assert!(rounded(&out) && out.parse::<u64>().unwrap() > 1 << 53);
    }

    #[test]
    fn a_property_that_needs_every_digit_keeps_them() {
        let (out, exponents) = refined("[0.30000000000000004]", |t| t.contains("04"));
        assert_eq!((out.as_str(), exponents), ("0.30000000000000004", None));
        // Strings are not numbers.
        let (out, _) = refined("[\"12e5\",12e5]", |t| t.contains("\"12e5\"") && t.len() > 8);
        assert!(out.starts_with("[\"12e5\","), "{out}");
    }
}
