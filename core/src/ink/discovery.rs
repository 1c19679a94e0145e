//! INK discovery gating, as seed 003 states it: what a GET of an agent's card returns for each
//! visibility — `public`: the full card to anyone; `network_only`: the full card to an
//! authenticated agent, else the redacted card; `capability_gated`: the full card only to a
//! holder of a valid capability token, else the redacted card; `private`: not found,
//! indistinguishable from no agent. The redacted card has exactly six members.

use serde_json::Value;

use super::InkError;
use crate::shown::quoted;

/// The members of a redacted card, all required, no others allowed.
pub const REDACTED_FIELDS: [&str; 6] = [
    "agentId",
    "displayName",
    "supportsInk",
    "discoveryMode",
    "visibility",
    "updatedAt",
];

/// What a card request gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disclosure {
    /// The whole card (HTTP 200).
    FullCard,
    /// The six redacted members (HTTP 200).
    RedactedCard,
    /// Nothing: HTTP 404.
    NotFound,
}

impl Disclosure {
    /// The seed's name for the result.
    pub fn name(self) -> &'static str {
        match self {
            Disclosure::FullCard => "full_card",
            Disclosure::RedactedCard => "redacted_card",
            Disclosure::NotFound => "not_found",
        }
    }

    /// The HTTP status answered.
    pub fn http_status(self) -> u16 {
        match self {
            Disclosure::NotFound => 404,
            _ => 200,
        }
    }
}

/// What a request for a card with `visibility` gets.
pub fn gate(
    visibility: &str,
    authenticated: bool,
    holds_capability: bool,
) -> Result<Disclosure, InkError> {
    Ok(match visibility {
        "public" => Disclosure::FullCard,
        "network_only" if authenticated => Disclosure::FullCard,
        "capability_gated" if holds_capability => Disclosure::FullCard,
        "network_only" | "capability_gated" => Disclosure::RedactedCard,
        "private" => Disclosure::NotFound,
        other => {
            return Err(InkError::new(
                "visibility",
                format!(
                    "{} is not public, network_only, capability_gated or private",
                    quoted(other)
                ),
            ))
        }
    })
}

/// Checks that a redacted card has exactly the six members.
pub fn check_redacted(card: &Value) -> Result<(), InkError> {
    let members = card
        .as_object()
        .ok_or_else(|| InkError::new("redacted_card", "a redacted card is an object"))?;
    if let Some(extra) = members
        .keys()
        .find(|k| !REDACTED_FIELDS.contains(&k.as_str()))
    {
        return Err(InkError::new(
            "redacted_card",
            format!("the redacted card leaks {}", quoted(extra)),
        ));
    }
    if let Some(missing) = REDACTED_FIELDS.iter().find(|f| !members.contains_key(**f)) {
        return Err(InkError::new(
            "redacted_card",
            format!("the redacted card lacks \"{missing}\""),
        ));
    }
    Ok(())
}
