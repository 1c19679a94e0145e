//! INK containment, as seed 003 states it: transport scope by token version (a token without
//! `tokenVersion` is a legacy token, permitted on every transport during the migration window;
//! a versioned token permits its `allowedTransports`, by default only `ink_http`), the
//! handshake budgets (challenges per correlation, intents per sender per window), and the
//! counterparty check (only the handshake's initiator and responder may send on it). Errors
//! carry the seed's codes and messages.

use serde_json::Value;

use super::InkError;

/// Whether `token` permits `transport`.
pub fn transport_scope(token: &Value, transport: &str) -> Result<(), InkError> {
    if token.get("tokenVersion").is_none() {
        return Ok(());
    }
    let allowed: Vec<&str> = match token.get("allowedTransports") {
        None => vec!["ink_http"],
        Some(list) => list
            .as_array()
            .map(|l| l.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default(),
    };
    if allowed.contains(&transport) {
        Ok(())
    } else {
        Err(InkError::new(
            "transport_scope_violation",
            format!("Token does not permit transport: {transport}"),
        ))
    }
}

/// Whether one more challenge fits the per-correlation budget.
pub fn challenge_budget(sent_so_far: u64, max_per_correlation: u64) -> Result<(), InkError> {
    if sent_so_far >= max_per_correlation {
        return Err(InkError::new(
            "handshake_budget_exhausted",
            format!("Maximum challenges ({max_per_correlation}) reached for this correlation"),
        ));
    }
    Ok(())
}

/// Whether one more intent fits the sender's budget for the window.
pub fn sender_rate(
    sent_in_window: u64,
    max_per_window: u64,
    window_seconds: u64,
) -> Result<(), InkError> {
    if sent_in_window >= max_per_window {
        return Err(InkError::new(
            "sender_rate_limited",
            format!("Sender rate limit exceeded: {max_per_window} intents per {window_seconds}s"),
        ));
    }
    Ok(())
}

/// Whether `from` is one of the handshake's two participants.
pub fn counterparty(initiator: &str, responder: &str, from: &str) -> Result<(), InkError> {
    if from == initiator || from == responder {
        Ok(())
    } else {
        Err(InkError::new(
            "sender_mismatch",
            "Challenge sender is not a participant in this handshake",
        ))
    }
}
