//! INK's time decisions as campaign cases: a timestamp at the edges of INK's strict RFC 3339
//! grammar and of the calendar, answered as epoch milliseconds; and a message's freshness and
//! replay, its timestamp placed exactly on the window's edges (300,000 ms old, 30,000 ms
//! ahead), one millisecond and one second either side of them, or anywhere around, written
//! with offsets and fractions, its nonce at the length bounds (16 and 256 characters) and
//! among those seen or not.

use canonfuzz_rng::Rng;
use serde_json::{json, Value};

/// Instants the clocks stand at, epoch milliseconds: INK's corpus's, a leap day, the epoch,
/// before it, and the last millisecond of 9999.
const CLOCKS: [i64; 6] = [
    1_781_136_000_000,
    1_709_164_800_000,
    0,
    -59_042_995_200_000,
    1_781_136_000_123,
    253_402_300_799_999,
];

/// How far a message's timestamp is from the receiver's clock, milliseconds: on the window's
/// edges, a millisecond and a second either side of them, and inside.
const DRIFTS: [i64; 13] = [
    0, -300_000, -299_999, -300_001, -299_000, -301_000, 30_000, 29_999, 30_001, 29_000, 31_000,
    -20_000, 5,
];

/// Offsets east of UTC, minutes, that a timestamp may be written in.
const OFFSETS: [i64; 6] = [0, 0, 120, -300, 330, -720];

/// Days from 1970-01-01 to a civil date's (year, month, day), and back: the proleptic
/// Gregorian calendar.
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// An instant written as an INK timestamp: in the offset given (minutes east; 0 as `Z`,
/// `+00:00` or `-00:00`), with the millisecond written to `fraction` digits (none when it is
/// a whole second and `fraction` is 0; further digits are zeros).
pub fn written(rng: &mut Rng, ms: i64, offset: i64, fraction: usize) -> String {
    let local = ms + offset * 60_000;
    let (days, within) = (local.div_euclid(86_400_000), local.rem_euclid(86_400_000));
    let (year, month, day) = civil(days);
    let (hour, minute, second, milli) = (
        within / 3_600_000,
        within / 60_000 % 60,
        within / 1000 % 60,
        within % 1000,
    );
    let mut text = format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}");
    if fraction > 0 || milli != 0 {
        text.push_str(&format!(".{milli:03}"));
        text.push_str(&"0".repeat(fraction.saturating_sub(3)));
    }
    let zone = match offset {
        0 => rng.pick(&["Z", "Z", "+00:00", "-00:00"]).to_string(),
        east => format!(
            "{}{:02}:{:02}",
            if east < 0 { '-' } else { '+' },
            east.abs() / 60,
            east.abs() % 60
        ),
    };
    text.push_str(&zone);
    text
}

/// A well-formed timestamp of an instant, in a random offset and fraction.
fn spelled(rng: &mut Rng, ms: i64) -> String {
    let offset = rng.pick(&OFFSETS);
    let fraction = rng.pick(&[0, 3, 3, 6, 9]);
    written(rng, ms, offset, fraction)
}

/// Ways a timestamp breaks INK's grammar or the calendar, each applied to a well-formed one.
const DAMAGE: [fn(&str) -> String; 16] = [
    |t| t.replacen('T', "t", 1),
    |t| t.replacen('T', " ", 1),
    |t| t.replace('Z', "z"),
    |t| t.replacen('.', ",", 1),
    |t| t.get(..19).unwrap_or(t).to_string(),
    |t| t.get(..10).unwrap_or(t).to_string(),
    |t| format!("{}T24:00:00Z", t.get(..10).unwrap_or(t)),
    |t| format!("{}T23:59:60Z", t.get(..10).unwrap_or(t)),
    |t| format!("{}T23:60:00Z", t.get(..10).unwrap_or(t)),
    |_| "2026-13-11T00:00:00Z".to_string(),
    |_| "2026-02-29T00:00:00Z".to_string(),
    |_| "2026-06-31T00:00:00.000Z".to_string(),
    |t| format!("{}+25:00", t.get(..19).unwrap_or(t)),
    |t| format!("{}+00:70", t.get(..19).unwrap_or(t)),
    |t| format!("{}.{}Z", t.get(..19).unwrap_or(t), "1".repeat(45)),
    |_| String::new(),
];

/// Timestamps at the grammar's and the calendar's edges that INK takes.
const EDGES: [&str; 8] = [
    "2024-02-29T00:00:00Z",
    "0099-01-01T00:00:00Z",
    "0000-01-01T00:00:00Z",
    "1969-12-31T23:59:59.9999Z",
    "9999-12-31T23:59:59.999+00:00",
    "2026-06-11T00:00:00.1230000000000000000000000000000000000000000Z",
    "2026-06-11T00:00:00-00:00",
    "2026-06-11T23:30:00-23:59",
];

/// A timestamp as a sender may write one: well formed at an instant near the clocks, at an
/// edge INK takes, or damaged.
pub fn timestamp(rng: &mut Rng) -> String {
    match rng.index(4) {
        0 => rng.pick(&EDGES).to_string(),
        1 => {
            let clock = rng.pick(&CLOCKS);
            let base = spelled(rng, clock);
            rng.pick(&DAMAGE)(&base)
        }
        _ => {
            let ms = rng.pick(&CLOCKS) + rng.index(100_000_000) as i64 - 50_000_000;
            let ms = ms.min(253_402_300_799_999);
            spelled(rng, ms)
        }
    }
}

/// A nonce of `len` characters, sometimes with a character beyond ASCII or the BMP, which
/// counts once.
fn nonce(rng: &mut Rng, len: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut chars: Vec<char> = (0..len)
        .map(|_| char::from(ALPHABET[rng.index(ALPHABET.len())]))
        .collect();
    if len > 0 && rng.chance(20) {
        let at = rng.index(len);
        chars[at] = rng.pick(&['é', '😀', 'ß']);
    }
    chars.into_iter().collect()
}

/// A freshness and replay case: the message's timestamp and the receiver's clock, the nonce
/// and the nonces seen.
pub fn freshness(rng: &mut Rng) -> Value {
    let clock = rng.pick(&CLOCKS);
    let drift = if rng.chance(20) {
        rng.index(800_000) as i64 - 600_000
    } else {
        rng.pick(&DRIFTS)
    };
    let mut message = spelled(rng, clock + drift);
    let mut receiver = spelled(rng, clock);
    if rng.chance(8) {
        message = timestamp(rng);
    } else if rng.chance(4) {
        receiver = timestamp(rng);
    }
    let length = rng.pick(&[16, 16, 17, 32, 64, 15, 255, 256, 257, 0]);
    let nonce = nonce(rng, length);
    let others: Vec<String> = (0..rng.index(4)).map(|_| self::nonce(rng, 24)).collect();
    let seen: Vec<String> = match rng.index(5) {
        0 => vec![nonce.clone()],
        1 => others.iter().cloned().chain([nonce.clone()]).collect(),
        2 => vec![nonce.to_uppercase()],
        _ => others,
    };
    json!({
        "op": "replay",
        "messageTimestamp": message,
        "receiverClock": receiver,
        "nonce": nonce,
        "previouslySeenNonces": seen,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use canonfuzz_core::ink::time::parse;

    #[test]
    fn written_instants_read_back_as_the_instant() {
        let mut rng = Rng::new(3);
        for ms in CLOCKS
            .iter()
            .flat_map(|c| DRIFTS.iter().map(move |d| c + d))
        {
            for offset in OFFSETS {
                let text = written(&mut rng, ms, offset, 3);
                if text.as_bytes().get(4) != Some(&b'-') {
                    // Past 9999 in its local time: no four-digit year writes it.
                    continue;
                }
                assert_eq!(parse(&text).map_err(|e| e.to_string()), Ok(ms), "{text}");
            }
        }
        // INK's corpus (timestamp-validity): the same instant as Z and as +02:00.
        assert_eq!(
            written(&mut rng, 1_781_136_000_000, 120, 0),
            "2026-06-11T02:00:00+02:00"
        );
    }
}
