//! INK's replay defence: a message's timestamp must sit inside the receiver's freshness window
//! (at most five minutes old, at most 30 seconds ahead, both bounds inclusive) and its nonce
//! must be well formed and not seen before.

use super::{time, InkError};

/// How old a message may be, in milliseconds.
pub const MAX_AGE_MS: i64 = 300_000;
/// How far ahead of the receiver's clock a message may be, in milliseconds.
pub const MAX_SKEW_MS: i64 = 30_000;
/// The shortest nonce accepted, in characters.
pub const MIN_NONCE_LEN: usize = 16;
/// The longest nonce accepted, in characters.
pub const MAX_NONCE_LEN: usize = 256;

/// Checks one message against the receiver's clock and the nonces it has seen.
pub fn check<'a>(
    message_timestamp: &str,
    receiver_clock: &str,
    nonce: &str,
    seen: impl IntoIterator<Item = &'a str>,
) -> Result<(), InkError> {
    let len = nonce.chars().count();
    if !(MIN_NONCE_LEN..=MAX_NONCE_LEN).contains(&len) {
        return Err(InkError::new(
            "nonce",
            format!("the nonce is {len} characters; INK takes {MIN_NONCE_LEN} to {MAX_NONCE_LEN}"),
        ));
    }
    let sent = time::parse(message_timestamp)?;
    let now = time::parse(receiver_clock)?;
    if now - sent > MAX_AGE_MS {
        return Err(InkError::new(
            "stale",
            format!(
                "the message is {} ms old; at most {MAX_AGE_MS} ms",
                now - sent
            ),
        ));
    }
    if sent - now > MAX_SKEW_MS {
        return Err(InkError::new(
            "future",
            format!(
                "the message is {} ms ahead of this clock; at most {MAX_SKEW_MS} ms",
                sent - now
            ),
        ));
    }
    if seen.into_iter().any(|n| n == nonce) {
        return Err(InkError::new("replay", "the nonce has been seen before"));
    }
    Ok(())
}
