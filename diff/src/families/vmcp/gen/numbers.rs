//! Genuine responses that serve a signed number in another spelling: the same value written
//! otherwise, which a client reading numbers exactly must still find signed, and values that
//! only round to the signed one.

use serde_json::{json, Value};

use super::{Server, Shape};
use canonfuzz_rng::Rng;

/// The member name of the number [`served_number`] serves.
pub(super) const NUMBER_NAME: &str = "served_number";

/// Numbers as signed (canonical) and as served: written another way, the same number; or one
/// that rounds to the signed double, another number to a client that reads numbers exactly.
pub(super) const SERVED_NUMBERS: [(&str, &str); 9] = [
    ("100", "1e2"),
    ("100", "100.0"),
    ("0.5", "5e-1"),
    ("0", "-0"),
    ("12345678901234567000", "12345678901234567891"),
    ("9007199254740992", "9007199254740993"),
    ("1.0000000000000002", "1.00000000000000021"),
    ("0", "1e-400"),
    ("1e+21", "1000000000000000000001"),
];

/// A double of a kind servers send: a count, an amount, a small or a large measure, or any.
pub(super) fn measure(rng: &mut Rng) -> f64 {
    let v = match rng.index(5) {
        0 => rng.index(1_000_000) as f64,
        1 => rng.index(1_000_000) as f64 / 1000.0,
        2 => (1 + rng.index(999)) as f64 * 1e-9,
        3 => (1 + rng.index(999)) as f64 * 1e22,
        _ => f64::from_bits(rng.next_u64() & 0x7FEF_FFFF_FFFF_FFFF),
    };
    if rng.chance(20) {
        -v
    } else {
        v
    }
}

/// A number literal's sign, digits without leading or trailing zeros, and the power of ten
/// they are scaled by: `-1.50e3` is (true, "15", 2). Zero is ("0", 0).
pub(super) fn decimal(literal: &str) -> (bool, String, i64) {
    let (negative, unsigned) = match literal.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, literal),
    };
    let (mantissa, exponent) = unsigned
        .split_once(['e', 'E'])
        .map_or((unsigned, 0), |(m, e)| (m, e.parse::<i64>().unwrap_or(0)));
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{whole}{fraction}");
    let kept = all.trim_start_matches('0');
    let digits = kept.trim_end_matches('0');
    if digits.is_empty() {
        return (negative, "0".to_string(), 0);
    }
    let trailing = (kept.len() - digits.len()) as i64;
    (
        negative,
        digits.to_string(),
        exponent - fraction.len() as i64 + trailing,
    )
}

/// The number `canonical` stands for, written another way a client reads the same: with `E`
/// or `e`, an exponent with `+` or leading zeros, trailing zeros in the mantissa, the point
/// moved, or as a plain decimal with trailing zeros.
pub(super) fn respelled(rng: &mut Rng, canonical: &str) -> String {
    let (negative, digits, scale) = decimal(canonical);
    let sign = if negative { "-" } else { "" };
    let e = rng.pick(&["e", "E"]);
    let (plus, zeros) = (rng.chance(50), rng.index(3));
    let exponent = |n: i64| match (n < 0, plus) {
        (true, _) => format!("-{}{}", "0".repeat(zeros), -n),
        (false, true) => format!("+{}{n}", "0".repeat(zeros)),
        (false, false) => format!("{}{n}", "0".repeat(zeros)),
    };
    let padding = "0".repeat(1 + rng.index(3));
    let length = digits.len() as i64;
    match rng.index(4) {
        0 => format!(
            "{sign}{digits}{padding}{e}{}",
            exponent(scale - padding.len() as i64)
        ),
        1 => format!(
            "{sign}{}.{}{padding}{e}{}",
            digits.get(..1).unwrap_or("0"),
            digits.get(1..).unwrap_or_default(),
            exponent(scale + length - 1)
        ),
        2 if (0..30).contains(&scale) => {
            format!("{sign}{digits}{}.{padding}", "0".repeat(scale as usize))
        }
        2 if (-30..0).contains(&scale) => {
            let point = length + scale;
            let (whole, fraction) = if point > 0 {
                let (w, f) = digits.split_at(point as usize);
                (w.to_string(), f.to_string())
            } else {
                (
                    "0".to_string(),
                    format!("{}{digits}", "0".repeat((-point) as usize)),
                )
            };
            format!("{sign}{whole}.{fraction}{padding}")
        }
        _ => format!("{sign}0.{digits}{e}{}", exponent(scale + length)),
    }
}

/// How a served number literal is spelled, for the field list: `E`, an exponent with `+` or
/// leading zeros, trailing zeros in a fraction, or plain.
pub(super) fn spelling(literal: &str) -> &'static str {
    let exponent = literal.split_once(['e', 'E']).map(|(_, e)| e);
    let fraction = literal
        .split(['e', 'E'])
        .next()
        .and_then(|m| m.split_once('.'));
    if literal.contains('E') {
        "E"
    } else if exponent.is_some_and(|e| e.starts_with('+')) {
        "e+"
    } else if exponent.is_some_and(|e| e.trim_start_matches('-').starts_with('0')) {
        "exponent with leading zeros"
    } else if fraction.is_some_and(|(_, f)| f.ends_with('0')) {
        "trailing zeros"
    } else {
        "plain"
    }
}

/// A genuine response, as text, that serves a number otherwise than it was signed: in its
/// payload (`structuredContent`, a resource's contents, an error frame's `data`), as one of the
/// fixed pairs or a number written another way a client reads the same; or, for an error
/// frame, as its `id` or `code` written with a fraction or an exponent.
pub(super) fn served_number(rng: &mut Rng, server: &Server) -> String {
    let (signed, served) = if rng.chance(50) {
        let (signed, served) = rng.pick(&SERVED_NUMBERS);
        (signed.to_string(), served.to_string())
    } else {
        let signed = ryu_js::Buffer::new()
            .format_finite(measure(rng))
            .to_string();
        let served = respelled(rng, &signed);
        (signed, served)
    };
    let number: Value = serde_json::from_str(&signed).unwrap_or(Value::Null);
    let data = match &server.data {
        Value::Object(members) => {
            let mut members = members.clone();
            members.insert(NUMBER_NAME.into(), number.clone());
            Value::Object(members)
        }
        other => json!({"result": other, NUMBER_NAME: number}),
    };
    let bent = Server {
        signer: server.signer,
        shape: server.shape,
        data,
        id: json!(7),
        extra: server.extra.clone(),
        header: server.header.clone(),
        number: Some(number.clone()),
    };
    let text = bent.response().to_string();
    let (from, to) = match (bent.shape, rng.index(3)) {
        (Shape::ErrorFrame, 0) => (
            "\"id\":7".to_string(),
            rng.pick(&["\"id\":7.0", "\"id\":7e0"]).to_string(),
        ),
        (Shape::ErrorFrame, 1) => (
            "\"code\":-32602".to_string(),
            rng.pick(&["\"code\":-32602.0", "\"code\":-3.2602e4"])
                .to_string(),
        ),
        _ => (
            format!("\"{NUMBER_NAME}\":{number}"),
            format!("\"{NUMBER_NAME}\":{served}"),
        ),
    };
    text.replacen(&from, &to, 1)
}

#[cfg(test)]
mod tests {
    use super::super::case;
    use super::super::fields::served_spelling;
    use super::*;

    #[test]
    fn served_numbers_come_in_every_spelling_a_client_reads_alike() {
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..20_000 {
            seen.extend(served_spelling(&case(1, i).1));
        }
        for spelling in [
            "E",
            "e+",
            "exponent with leading zeros",
            "trailing zeros",
            "plain",
        ] {
            assert!(seen.contains(spelling), "{spelling}: {seen:?}");
        }
        // Each respelling is the canonical number's exact value, as bigdecimal reads both.
        let mut rng = Rng::new(5);
        for _ in 0..2_000 {
            let signed = ryu_js::Buffer::new()
                .format_finite(measure(&mut rng))
                .to_string();
            let served = respelled(&mut rng, &signed);
            assert!(serde_json::from_str::<Value>(&served).is_ok(), "{served}");
            assert!(
                canonfuzz_props::read::exact_numbers::Numbers::Exact.same(&served, &signed),
                "{signed} {served}"
            );
        }
    }
}
