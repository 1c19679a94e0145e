//! INK's judge, from INK's definitions: a body is committed under INK's JSON profile (RFC 8785
//! and I-JSON, every number a safe integer — |n| ≤ 2^53 − 1, no fraction, no −0 — nesting at
//! most 32 deep, at most 10,000 values, a canonical form of at most 1 MiB); an audit event's
//! leaf is SHA-256(0x00 ‖ JCS(event without agentSignature)); a request's signature base is
//! `ink/0.1`, method, path, recipient, JCS(body) and timestamp, one per line, no field holding
//! a line break (answered as its SHA-256). Composed from json-syntax, ring and RFC 8785 as
//! [`crate::judge`] writes it.

use json_syntax::Value;

use crate::judge::json::{self, double, text};
use crate::judge::{self, hex, must, refused, sha256, Judge, Refusal};

/// The judge, as the family lists it.
pub const JUDGE: Judge = Judge {
    name: "rust-ink",
    answer: compute,
};

/// The deepest nesting INK's profile takes.
const MAX_DEPTH: usize = 32;
/// The most values a body may hold.
const MAX_VALUES: usize = 10_000;
/// The largest canonical body, in bytes.
const MAX_CANONICAL: usize = 1 << 20;
/// The largest safe integer, 2^53 − 1.
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// The case's leaf hash or signature base hash, as lowercase hex.
fn compute(input: &[u8]) -> Result<Vec<u8>, Refusal> {
    let case = judge::case(input)?;
    let field = |name: &str| text(&case, name).ok_or(Refusal::Unanswered);
    let digest = match field("op")? {
        "leaf" => {
            let event = profiled(field("event")?)?;
            let Value::Object(mut members) = event else {
                return Err(refused("an audit event is an object"));
            };
            let _ = members.remove_unique("agentSignature");
            let mut data = vec![0];
            data.extend(json::canonical(&Value::Object(members))?);
            sha256(&data)
        }
        "base" => {
            let fields = ["method", "path", "recipientDid", "timestamp"].map(field);
            let [method, path, recipient, timestamp] = fields;
            let (method, path, recipient, timestamp) = (method?, path?, recipient?, timestamp?);
            for value in [method, path, recipient, timestamp] {
                must(!value.contains(['\n', '\r']), "a field holds a line break")?;
            }
            let body = json::canonical(&profiled(field("body")?)?)?;
            let mut base = format!("ink/0.1\n{method}\n{path}\n{recipient}\n").into_bytes();
            base.extend(body);
            base.push(b'\n');
            base.extend_from_slice(timestamp.as_bytes());
            sha256(&base)
        }
        _ => return Err(Refusal::Unanswered),
    };
    Ok(hex(&digest).into_bytes())
}

/// A body read and held to INK's profile.
fn profiled(text: &str) -> Result<Value, Refusal> {
    let value = json::read(text.as_bytes())?;
    let mut pending = vec![(&value, 1usize)];
    let mut values = 0;
    while let Some((v, depth)) = pending.pop() {
        values += 1;
        must(values <= MAX_VALUES, "the body holds too many values")?;
        match v {
            Value::Array(items) => {
                must(depth <= MAX_DEPTH, "the body nests too deep")?;
                pending.extend(items.iter().map(|item| (item, depth + 1)));
            }
            Value::Object(members) => {
                must(depth <= MAX_DEPTH, "the body nests too deep")?;
                pending.extend(members.iter().map(|e| (&e.value, depth + 1)));
            }
            Value::Number(n) => {
                let n = double(n.as_str())?;
                must(
                    n.fract() == 0.0 && n.abs() <= MAX_SAFE && !(n == 0.0 && n.is_sign_negative()),
                    "a number is not a safe integer",
                )?;
            }
            _ => {}
        }
    }
    must(
        json::canonical(&value)?.len() <= MAX_CANONICAL,
        "the canonical body is too large",
    )?;
    Ok(value)
}
