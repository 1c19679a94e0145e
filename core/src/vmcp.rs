//! org.jardenberg/verifiable-mcp 0.2.1: verifying a signed tool result, resource or JSON-RPC
//! error frame against the server's JWK set.
//!
//! # What a valid verdict means
//! A response is valid only when every member a client of that kind of response reads is
//! covered by the signature. The member tables ([`TOOL_RESULT_MEMBERS`],
//! [`RESOURCE_MEMBERS`], [`ERROR_MEMBERS`]) state it once: each member a response may carry
//! and what covers it. A member outside its table is refused as [`Rule::UnsignedMember`];
//! shapes JSON-RPC 2.0 forbids (a `result` beside an `error`, a `jsonrpc` other than `"2.0"`)
//! as [`Rule::ResponseShape`].
//!
//! The envelope sits at `result._meta["org.jardenberg/verifiable-mcp"]` (or `error.data[...]`
//! for error frames); only its `jws` is used. The JWS (typ `verifiable-mcp+jws`, alg pinned to
//! `EdDSA`, `kid` required and resolved in the set, fail closed) carries the RFC 8785 canonical
//! wrapper `{iat, payload, payload_digest, content_digest, provenance}` (optionally `exp`,
//! `nbf`); both digests are recomputed, the served structure must equal the signed payload, and
//! the times are held to the clock with [`SKEW_SECONDS`] of tolerance. Every rule is checked and
//! every failed one is named.
//!
//! # What a client reads, exactly
//! A served value is compared with the signed one as the strictest client reads it
//! ([`jcs::exact`]): numbers by their exact decimal value, so a served `12345678901234567891`
//! is not a signed `12345678901234567000` though both round to one double, while `1e2` is
//! `100`; and written in the same form (an integer literal for an integer literal) where no
//! double holds the value, as Python's `json` reads an integer literal as an exact integer and
//! any other number as a double, so a served `100000000000000000000000` is not a signed
//! `1e+23`; strings by their decoded text; objects by their members. A JSON-RPC `id` or error
//! `code` is read as an integer, so one written with a fraction or an exponent (`7.0`, `7e0`)
//! is refused ([`Rule::ResponseShape`]).
//!
//! # What is not signed, and the bounds
//! Members the tables allow but the signature does not cover — `_meta` beside the envelope,
//! the envelope's own convenience members, framing, the v0.1 siblings — and the response's
//! kind where its payload has the shape both kinds share are listed beside the verdict
//! ([`Verification::unsigned`]); [`Verification::strict`] refuses them. A refusal of many
//! members of one kind names the first [`LISTED`] and counts the rest, and a response that
//! holds more than [`MAX_OPEN_MEMBERS`] object members at once is refused before it is read,
//! so that neither memory nor the report grows with what a sender piles in.
//!
//! The whole response is checked once by the core's canonicalizer (so with its depth limit
//! and I-JSON's rules) and then read as written, its whitespace removed
//! ([`jcs::view::compact`]), through [`jcs::view`], which needs no recursion however deep the
//! payload.

use sha2::{Digest, Sha256};

use crate::jcs;
use crate::jcs::exact;
use crate::jcs::view::{compact, Object, Type, View};
use crate::jws::{self, Jwks, Profile};
use crate::shown::{quoted, Excerpt};

/// Members of one kind a refusal or a listing names before it counts the rest.
pub const LISTED: usize = 8;

/// Object members a response may hold at once (in objects open together), past which it is
/// refused unread: the canonicalizer keeps about a hundred bytes for each.
pub const MAX_OPEN_MEMBERS: usize = 1 << 18;

/// The `_meta` / `error.data` key of the envelope.
pub const META_KEY: &str = "org.jardenberg/verifiable-mcp";
/// The JWS `typ` the specification mandates.
pub const TYP: &str = "verifiable-mcp+jws";
/// Clock skew tolerated for `iat` and `nbf` in the future and for `exp` in the past, seconds.
pub const SKEW_SECONDS: u64 = 60;

/// A rule of the specification that a response can break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rule {
    /// The response is JSON and carries an envelope with a `jws` where the specification puts it.
    Envelope,
    /// The response has a shape JSON-RPC 2.0 and MCP allow: `jsonrpc` "2.0", an `id`, exactly
    /// one of `result` and `error`, members of the right types.
    ResponseShape,
    /// Every member a client reads is covered by the signature (see the member tables).
    UnsignedMember,
    /// The JWS verifies: typ, alg pinned to EdDSA, kid in the set, signature.
    Jws,
    /// The signed payload is the RFC 8785 canonical form of the wrapper.
    CanonicalWrapper,
    /// The wrapper has `iat`, `payload`, `payload_digest`, `provenance`, `content_digest`
    /// exactly when a text arm is served, integer `exp`/`nbf` if any, and no v0.1
    /// `content_hash*` keys.
    WrapperShape,
    /// `payload_digest` is the SHA-256 of the canonical payload.
    PayloadDigest,
    /// `content_digest` is the SHA-256 of the served text arm.
    ContentDigest,
    /// The served structure (`structuredContent` and `isError`, `contents`, the error frame)
    /// is the signed payload.
    ServedPayload,
    /// `iat` and `nbf` are not in the future, `exp` has not passed, `iat` is within the
    /// maximum age.
    Freshness,
}

impl Rule {
    /// The rule's stable name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Envelope => "envelope",
            Rule::ResponseShape => "response_shape",
            Rule::UnsignedMember => "unsigned_member",
            Rule::Jws => "jws",
            Rule::CanonicalWrapper => "canonical_wrapper",
            Rule::WrapperShape => "wrapper_shape",
            Rule::PayloadDigest => "payload_digest",
            Rule::ContentDigest => "content_digest",
            Rule::ServedPayload => "served_payload",
            Rule::Freshness => "freshness",
        }
    }

    /// Every rule, in the order checked.
    pub const ALL: [Rule; 10] = [
        Rule::Envelope,
        Rule::ResponseShape,
        Rule::UnsignedMember,
        Rule::Jws,
        Rule::CanonicalWrapper,
        Rule::WrapperShape,
        Rule::PayloadDigest,
        Rule::ContentDigest,
        Rule::ServedPayload,
        Rule::Freshness,
    ];

    /// The rule with this name.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// A broken rule and what about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The rule.
    pub rule: Rule,
    /// What was wrong, and where.
    pub message: String,
}

fn failure(rule: Rule, message: impl Into<String>) -> Failure {
    Failure {
        rule,
        message: message.into(),
    }
}

/// The outcome: valid when no rule failed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Verification {
    /// Every failed rule, in the order checked.
    pub failures: Vec<Failure>,
    /// What the response is, once its envelope was found.
    pub kind: Option<Kind>,
    /// The kid the JWS names.
    pub kid: Option<String>,
    /// Index into the key set of the key that verified the JWS.
    pub key_index: Option<usize>,
    /// The signed wrapper's canonical text, once the JWS verified.
    pub wrapper: Option<Vec<u8>>,
    /// The signed payload's canonical text, once the JWS verified.
    pub payload: Option<Vec<u8>>,
    /// What the response carries that the signature does not cover.
    pub unsigned: Vec<Unsigned>,
}

impl Verification {
    /// Whether every rule held.
    pub fn is_valid(&self) -> bool {
        self.failures.is_empty()
    }

    /// The verdict under strict reading: everything the response carries that the signature
    /// does not cover is refused as [`Rule::UnsignedMember`].
    pub fn strict(mut self) -> Verification {
        for unsigned in &self.unsigned {
            self.failures.push(failure(
                Rule::UnsignedMember,
                format!("{} (refused under strict reading)", unsigned.describe()),
            ));
        }
        self
    }

    fn fail(&mut self, rule: Rule, message: impl Into<String>) {
        self.failures.push(failure(rule, message));
    }
}

/// What a response is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A `tools/call` result.
    ToolResult,
    /// A `resources/read` result.
    Resource,
    /// A JSON-RPC error frame.
    ErrorFrame,
}

impl Kind {
    /// How the specification names the kind.
    pub fn name(self) -> &'static str {
        match self {
            Kind::ToolResult => "tools/call result",
            Kind::Resource => "resources/read result",
            Kind::ErrorFrame => "JSON-RPC error frame",
        }
    }
}

/// How the signature covers a member a response may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// Equal, canonically, to the signed payload (`structuredContent`; an error frame's `id`,
    /// `code`, `message` and `data` beside the envelope).
    Payload,
    /// `{"contents": ..}` equal to the signed payload, item 0's text the text arm.
    Contents,
    /// Exactly one `{"type":"text","text":..}` item, whose text `content_digest` binds.
    TextArm,
    /// A boolean the signed payload must agree with (`isError`, SPEC §8).
    ErrorFlag,
    /// The envelope's carrier (`_meta`, `error.data`): its envelope is checked; other `_meta`
    /// members are protocol metadata, not the response's answer, and are not covered.
    Carrier,
    /// Protocol framing (`jsonrpc`, `resultType`, the caching hints of SPEC §9) or the v0.1
    /// siblings SPEC §2 allows during dual-emit; no v0.2.1 client takes them as the answer, and
    /// they are not covered.
    Framing,
}

/// Something a response carries that the signature does not cover, listed beside the verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsigned {
    /// Where: `result._meta`, `result`, an envelope, or `kind` for the response's kind.
    pub place: String,
    /// What it is, and why the signature does not cover it.
    pub what: &'static str,
    /// The first [`LISTED`] names there (for `kind`, the kind it was read as), each cut to
    /// what a message shows of it.
    pub names: Vec<Excerpt>,
    /// How many more there are.
    pub more: usize,
}

impl Unsigned {
    /// The listing in one line.
    pub fn describe(&self) -> String {
        let more = match self.more {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        let names: Vec<String> = self.names.iter().map(ToString::to_string).collect();
        format!("{}: {}{more} — {}", self.place, names.join(", "), self.what)
    }
}

/// The first [`LISTED`] of `names`, as messages show them, and how many more there are.
fn listed(names: impl Iterator<Item = String>) -> (Vec<Excerpt>, usize) {
    let (mut first, mut more) = (Vec::new(), 0);
    for name in names {
        if first.len() < LISTED {
            first.push(Excerpt::of(&name));
        } else {
            more += 1;
        }
    }
    (first, more)
}

/// The members a `tools/call` result may carry, and how each is covered.
pub const TOOL_RESULT_MEMBERS: [(&str, Coverage); 7] = [
    ("content", Coverage::TextArm),
    ("structuredContent", Coverage::Payload),
    ("isError", Coverage::ErrorFlag),
    ("_meta", Coverage::Carrier),
    ("resultType", Coverage::Framing),
    ("signature", Coverage::Framing),
    ("provenance", Coverage::Framing),
];

/// The members a `resources/read` result may carry, and how each is covered.
pub const RESOURCE_MEMBERS: [(&str, Coverage); 7] = [
    ("contents", Coverage::Contents),
    ("_meta", Coverage::Carrier),
    ("resultType", Coverage::Framing),
    ("ttlMs", Coverage::Framing),
    ("cacheScope", Coverage::Framing),
    ("signature", Coverage::Framing),
    ("provenance", Coverage::Framing),
];

/// The members a JSON-RPC error frame's `error` may carry, and how each is covered (the
/// frame's `id` is covered too).
pub const ERROR_MEMBERS: [(&str, Coverage); 3] = [
    ("code", Coverage::Payload),
    ("message", Coverage::Payload),
    ("data", Coverage::Carrier),
];

/// The members of a JSON-RPC 2.0 response (§5).
const RESPONSE_MEMBERS: [&str; 4] = ["jsonrpc", "id", "result", "error"];

/// The parts of a response the verifier compares with what was signed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// What the response is.
    pub kind: Kind,
    /// The envelope's compact JWS.
    pub jws: String,
    /// The canonical text a client reads as the signed payload: a tool result's
    /// `structuredContent` (`None` when not served), `{"contents":..}` for a resource,
    /// `{"error":{..},"id":..}` for an error frame.
    pub payload: Option<Vec<u8>>,
    /// The text arm as served (decoded string), for tool results and resources.
    pub text: Option<String>,
    /// Whether a tool result is served as an error (`isError: true`).
    pub is_error: bool,
    /// Rules the response's shape already breaks, before any signature is looked at.
    pub refusals: Vec<Failure>,
    /// What the response carries that the signature does not cover, the envelope aside.
    pub unsigned: Vec<Unsigned>,
    /// The envelope's members beside `jws`, which the signed JWS may or may not vouch for.
    pub envelope: Envelope,
}

/// An envelope as served: where it is, and its members beside `jws` with their values as
/// written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Envelope {
    /// Where it is, as a path.
    pub place: String,
    /// Each member's name and value text.
    pub members: Vec<(String, Vec<u8>)>,
}

/// The clock the time rules are held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// The current time, Unix seconds.
    pub now: u64,
    /// The oldest acceptable `iat`, in seconds before `now`; `None` accepts any age.
    pub max_age: Option<u64>,
}

impl Clock {
    /// A clock at `now` with no maximum age.
    pub fn at(now: u64) -> Clock {
        Clock { now, max_age: None }
    }
}

fn sha256_label(bytes: &[u8]) -> String {
    format!("sha256:{}", crate::ekl::to_hex(&Sha256::digest(bytes)))
}

/// Compares two digests in time independent of where they differ.
fn digest_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Verifies the parts of a response.
pub fn verify_served(served: &Served, jwks: &Jwks, clock: Clock) -> Verification {
    let mut v = Verification {
        failures: served.refusals.clone(),
        kind: Some(served.kind),
        unsigned: served.unsigned.clone(),
        ..Verification::default()
    };
    let profile = Profile {
        typ: Some(TYP.to_string()),
    };
    let verified = match jws::verify(&served.jws, jwks, &profile) {
        Ok(verified) => verified,
        Err(e) => {
            v.fail(Rule::Jws, e.to_string());
            list_envelope(&served.envelope, None, &mut v.unsigned);
            return v;
        }
    };
    list_envelope(&served.envelope, Some(&verified), &mut v.unsigned);
    if verified.header.get("alg").and_then(|a| a.as_str()) != Some("EdDSA") {
        v.fail(Rule::Jws, "alg must be EdDSA (§10 pins it)");
    }
    v.kid = verified.kid.clone();
    v.key_index = Some(verified.key_index);
    let canonical = match jcs::canonicalize(&verified.payload) {
        Ok(c) => c,
        Err(e) => {
            v.fail(
                Rule::CanonicalWrapper,
                format!("the signed payload is not I-JSON: {e}"),
            );
            return v;
        }
    };
    if canonical != verified.payload {
        v.fail(
            Rule::CanonicalWrapper,
            "the signed payload is not in RFC 8785 canonical form",
        );
    }
    match View::new(&canonical).and_then(|w| w.object()) {
        Some(wrapper) => {
            check_wrapper(&mut v, &wrapper, served, clock);
            v.payload = wrapper.get("payload").map(|p| p.bytes().to_vec());
        }
        None => v.fail(
            Rule::WrapperShape,
            "the signed payload is not a JSON object",
        ),
    }
    v.wrapper = Some(canonical);
    v
}

/// An optional time member of the wrapper: absent, or a non-negative integer.
fn time_member(v: &mut Verification, wrapper: &Object, name: &str) -> Option<u64> {
    let member = wrapper.get(name)?;
    let time = member.as_u64();
    if time.is_none() {
        v.fail(
            Rule::WrapperShape,
            format!("the wrapper's {name} is not a non-negative integer (Unix seconds)"),
        );
    }
    time
}

fn check_wrapper(v: &mut Verification, wrapper: &Object, served: &Served, clock: Clock) {
    let iat = wrapper.get("iat").and_then(|i| i.as_u64());
    if iat.is_none() {
        v.fail(Rule::WrapperShape, "the wrapper has no integer iat");
    }
    if wrapper.get("provenance").map(|p| p.kind()) != Some(Type::Object) {
        v.fail(Rule::WrapperShape, "the wrapper has no provenance object");
    }
    if let Some(stale) = wrapper
        .members()
        .iter()
        .map(|m| m.name())
        .find(|k| k.starts_with("content_hash"))
    {
        v.fail(
            Rule::WrapperShape,
            format!(
                "the wrapper carries the v0.1 key {}, which v0.2.1 bans",
                quoted(&stale)
            ),
        );
    }
    let payload = wrapper.get("payload");
    match (
        payload,
        wrapper.get("payload_digest").and_then(|d| d.as_str()),
    ) {
        (Some(payload), Some(signed)) => {
            if !digest_eq(&sha256_label(payload.bytes()), &signed) {
                v.fail(
                    Rule::PayloadDigest,
                    "payload_digest is not the SHA-256 of the canonical payload",
                );
            }
        }
        (None, _) => v.fail(Rule::WrapperShape, "the wrapper has no payload"),
        (_, None) => v.fail(Rule::WrapperShape, "the wrapper has no payload_digest"),
    }
    check_content_digest(v, wrapper, served);
    if let (Some(served_payload), Some(signed)) = (&served.payload, payload) {
        if let Err(mismatch) = exact::same_value(served_payload, signed.bytes()) {
            v.fail(
                Rule::ServedPayload,
                format!(
                    "the served {} differs from the signed payload: {mismatch}",
                    match served.kind {
                        Kind::ToolResult => "structuredContent",
                        Kind::Resource => "contents",
                        Kind::ErrorFrame => "error frame (id, code, message, data)",
                    }
                ),
            );
        }
    }
    if served.kind == Kind::ToolResult {
        let signed_error = payload
            .and_then(|p| p.get("isError"))
            .and_then(|e| e.as_bool())
            == Some(true);
        if served.is_error != signed_error {
            v.fail(
                Rule::ServedPayload,
                format!(
                    "isError is served as {}, but the signed payload {} (§8)",
                    served.is_error,
                    if signed_error {
                        "is an isError payload"
                    } else {
                        "is not an isError payload"
                    }
                ),
            );
        }
    }
    check_times(v, wrapper, iat, clock);
}

fn check_content_digest(v: &mut Verification, wrapper: &Object, served: &Served) {
    let content_digest = wrapper.get("content_digest").map(|d| d.as_str());
    match (served.kind, content_digest, &served.text) {
        (Kind::ErrorFrame, Some(_), _) => v.fail(
            Rule::WrapperShape,
            "an error wrapper carries no content_digest (§8)",
        ),
        (Kind::ErrorFrame, None, _) => {}
        (_, None | Some(None), _) => v.fail(
            Rule::WrapperShape,
            "the wrapper has no content_digest string",
        ),
        (_, Some(Some(_)), None) => v.fail(
            Rule::ContentDigest,
            "no text arm is served to bind content_digest to",
        ),
        (_, Some(Some(signed)), Some(text)) => {
            if !digest_eq(&sha256_label(text.as_bytes()), &signed) {
                v.fail(
                    Rule::ContentDigest,
                    "content_digest is not the SHA-256 of the served text arm",
                );
            }
        }
    }
}

fn check_times(v: &mut Verification, wrapper: &Object, iat: Option<u64>, clock: Clock) {
    let exp = time_member(v, wrapper, "exp");
    let nbf = time_member(v, wrapper, "nbf");
    let latest = clock.now.saturating_add(SKEW_SECONDS);
    for (name, time) in [("iat", iat), ("nbf", nbf)] {
        if let Some(t) = time.filter(|t| *t > latest) {
            v.fail(
                Rule::Freshness,
                format!(
                    "{name} {t} is in the future (now {}, {SKEW_SECONDS} s of skew allowed)",
                    clock.now
                ),
            );
        }
    }
    if let Some(exp) = exp.filter(|e| clock.now >= e.saturating_add(SKEW_SECONDS)) {
        v.fail(
            Rule::Freshness,
            format!(
                "exp {exp} has passed (now {}, {SKEW_SECONDS} s of skew allowed)",
                clock.now
            ),
        );
    }
    if let (Some(max_age), Some(iat)) = (clock.max_age, iat) {
        if clock.now.saturating_sub(iat) > max_age {
            v.fail(
                Rule::Freshness,
                format!("iat {iat} is older than {max_age} seconds"),
            );
        }
    }
}

/// The envelope's `jws` in `holder[META_KEY]`.
fn envelope_jws(holder: Option<View>, place: &str) -> Result<String, Failure> {
    holder
        .and_then(|h| h.get(META_KEY))
        .and_then(|e| e.get("jws"))
        .and_then(|j| j.as_str())
        .ok_or_else(|| {
            failure(
                Rule::Envelope,
                format!("no envelope with a jws string at {place}[\"{META_KEY}\"]"),
            )
        })
}

/// Refuses the members of `object` (at `place`) that `table` does not list: the first
/// [`LISTED`] by name, the rest counted.
fn refuse_unlisted(
    object: &Object,
    table: &[(&str, Coverage)],
    place: &str,
    kind: Kind,
    refusals: &mut Vec<Failure>,
) {
    let unlisted = object
        .members()
        .iter()
        .map(|m| m.name())
        .filter(|name| !table.iter().any(|(listed, _)| listed == name));
    let (names, more) = listed(unlisted);
    for name in &names {
        refusals.push(failure(
            Rule::UnsignedMember,
            format!(
                "{place}[{name}]: a client of a {} may read this member, and the signature does not cover it",
                kind.name()
            ),
        ));
    }
    if more > 0 {
        refusals.push(failure(
            Rule::UnsignedMember,
            format!("{place}: {more} more members a client may read, unsigned"),
        ));
    }
}

/// Lists the members of `object` (at `place`) that `keep` picks as unsigned, `what` saying
/// why.
fn list_unsigned(
    object: Option<View<'_>>,
    place: &str,
    keep: impl Fn(&str) -> bool,
    what: &'static str,
    unsigned: &mut Vec<Unsigned>,
) {
    let Some(object) = object else {
        return;
    };
    let (names, more) = listed(object.members().map(|m| m.name()).filter(|n| keep(n)));
    if !names.is_empty() {
        unsigned.push(Unsigned {
            place: place.to_string(),
            what,
            names,
            more,
        });
    }
}

/// The envelope in `holder` as served: where it is, and its members beside `jws` with their
/// values as written.
fn envelope_members(holder: Option<View<'_>>, place: &str) -> Envelope {
    let members = holder
        .and_then(|h| h.get(META_KEY))
        .map(|e| {
            e.members()
                .filter(|m| m.name() != "jws")
                .map(|m| (m.name(), m.value.bytes().to_vec()))
                .collect()
        })
        .unwrap_or_default();
    Envelope {
        place: format!("{place}[\"{META_KEY}\"]"),
        members,
    }
}

/// Lists the envelope's members that the signed JWS does not vouch for: those the
/// specification does not define, and those that say otherwise than the JWS (`alg` and `kid`
/// against its header, `spec` and `signed` against what 0.2.1 signs). The JWS wins where they
/// disagree (§2), but a client that shows them shows what nobody signed.
fn list_envelope(
    envelope: &Envelope,
    header: Option<&jws::Verified>,
    unsigned: &mut Vec<Unsigned>,
) {
    let signed_says = |name: &str| -> Option<String> {
        match name {
            "alg" => header
                .and_then(|h| h.header.get("alg"))
                .and_then(|a| a.as_str())
                .map(str::to_string),
            "kid" => header.and_then(|h| h.kid.clone()),
            "spec" => Some("0.2.1".to_string()),
            "signed" => Some("wrapper".to_string()),
            _ => None,
        }
    };
    let unvouched = envelope.members.iter().filter(|(name, value)| {
        let served = View::new(value).and_then(|v| v.as_str());
        served.is_none() || served != signed_says(name)
    });
    let (names, more) = listed(unvouched.map(|(name, _)| name.clone()));
    if !names.is_empty() {
        unsigned.push(Unsigned {
            place: envelope.place.clone(),
            what: "envelope members the signed JWS does not vouch for: not defined by the specification, or saying otherwise than the JWS, which wins (§2)",
            names,
            more,
        });
    }
}

/// Checks the JSON-RPC 2.0 frame around a result or error.
fn check_frame(root: &Object, refusals: &mut Vec<Failure>) {
    let shape = |message: String| failure(Rule::ResponseShape, message);
    if root.get("jsonrpc").and_then(|j| j.as_str()).as_deref() != Some("2.0") {
        refusals.push(shape(
            "a JSON-RPC response carries jsonrpc \"2.0\" (JSON-RPC 2.0 §5)".into(),
        ));
    }
    match root.get("id") {
        Some(id) if matches!(id.kind(), Type::String | Type::Null) => {}
        Some(id) if id.kind() == Type::Number && exact::written_as_integer(id.bytes()) => {}
        _ => refusals.push(shape(
            "a JSON-RPC response carries an id that is a string, an integer or null (§5); a client reads a number id as an integer, so one written with a fraction or an exponent is another id"
                .into(),
        )),
    }
    match (root.get("result"), root.get("error")) {
        (Some(_), Some(_)) => refusals.push(shape(
            "a JSON-RPC response carries result or error, never both (§5): a client may read either"
                .into(),
        )),
        (None, None) => refusals.push(shape(
            "a JSON-RPC response carries a result or an error (§5)".into(),
        )),
        _ => {}
    }
    for member in root.members() {
        let name = member.name();
        if !RESPONSE_MEMBERS.contains(&name.as_str()) {
            refusals.push(shape(format!(
                "{}: not a member of a JSON-RPC 2.0 response (§5)",
                quoted(&name)
            )));
        }
    }
}

/// The text of `{"error":{..},"id":..}` as a client of an error frame reads it, as written:
/// `code`, `message`, and `data` less the envelope (left out when nothing else is in it).
fn error_view(root: &Object, error: &Object) -> Vec<u8> {
    let mut text = b"{\"error\":{".to_vec();
    let mut first = true;
    for member in error.members() {
        let value = match member.name() {
            name if name == "data" => {
                let rest: Vec<_> = member
                    .value
                    .members()
                    .filter(|m| m.name() != META_KEY)
                    .collect();
                if rest.is_empty() {
                    continue;
                }
                let mut data = b"{".to_vec();
                for (i, m) in rest.iter().enumerate() {
                    if i > 0 {
                        data.push(b',');
                    }
                    data.extend_from_slice(m.literal);
                    data.push(b':');
                    data.extend_from_slice(m.value.bytes());
                }
                data.push(b'}');
                data
            }
            _ => member.value.bytes().to_vec(),
        };
        if !first {
            text.push(b',');
        }
        first = false;
        text.extend_from_slice(member.literal);
        text.push(b':');
        text.extend_from_slice(&value);
    }
    text.extend_from_slice(b"},\"id\":");
    text.extend_from_slice(root.get("id").map_or(&b"null"[..], |i| i.bytes()));
    text.push(b'}');
    text
}

fn served_error(
    root: &Object,
    error: View,
    mut refusals: Vec<Failure>,
    unsigned: Vec<Unsigned>,
) -> Result<Served, Failure> {
    let kind = Kind::ErrorFrame;
    let error = error
        .object()
        .ok_or_else(|| failure(Rule::Envelope, "error is not a JSON object"))?;
    refuse_unlisted(&error, &ERROR_MEMBERS, "error", kind, &mut refusals);
    if error.get("code").and_then(|c| c.as_i64()).is_none() {
        refusals.push(failure(
            Rule::ResponseShape,
            "error.code is an integer, written as one (JSON-RPC 2.0 §5.1): a client reads it as an integer",
        ));
    }
    if error.get("message").map(|m| m.kind()) != Some(Type::String) {
        refusals.push(failure(
            Rule::ResponseShape,
            "error.message is a string (JSON-RPC 2.0 §5.1)",
        ));
    }
    let jws = envelope_jws(error.get("data"), "error.data")?;
    Ok(Served {
        kind,
        jws,
        payload: Some(error_view(root, &error)),
        text: None,
        is_error: false,
        refusals,
        unsigned,
        envelope: envelope_members(error.get("data"), "error.data"),
    })
}

/// The text arm of a tool result's `content`: exactly one text item.
fn tool_text(content: Option<View>, refusals: &mut Vec<Failure>) -> Option<String> {
    let content = content?;
    let mut items = content.items();
    let first = items.next();
    if content.kind() != Type::Array {
        refusals.push(failure(
            Rule::ResponseShape,
            "result.content is an array of content items",
        ));
        return None;
    }
    if items.next().is_some() {
        refusals.push(failure(
            Rule::UnsignedMember,
            "result.content[1]: content_digest covers item 0 only (§6), so later items are unsigned",
        ));
    }
    let first = first?;
    let text = first.get("text").and_then(|t| t.as_str());
    let only_text = first.get("type").and_then(|t| t.as_str()).as_deref() == Some("text")
        && text.is_some()
        && first.members().count() == 2;
    if !only_text {
        refusals.push(failure(
            Rule::UnsignedMember,
            "result.content[0]: the text arm is {\"type\":\"text\",\"text\":..} and nothing else; other members are unsigned",
        ));
    }
    text
}

/// The most object members `text` holds at once, in objects open together, counted without
/// reading it: the colons outside strings at each open level.
fn open_members(text: &[u8]) -> usize {
    let (mut open, mut most, mut levels) = (0usize, 0usize, Vec::new());
    for (_, b, outside) in jcs::view::structure(text) {
        match (outside, b) {
            (true, b'{' | b'[') => levels.push(0usize),
            (true, b'}' | b']') => open = open.saturating_sub(levels.pop().unwrap_or(0)),
            (true, b':') => {
                if let Some(level) = levels.last_mut() {
                    *level += 1;
                }
                open += 1;
                most = most.max(open);
            }
            _ => {}
        }
    }
    most
}

/// What a response of the resource shape shares with a tool result: the signature says not
/// which of the two it answers.
const SHARED_SHAPE: &str = "the response's kind: SPEC §1 signs a tools/call payload and a resources/read payload alike, and this payload ({\"contents\": [..]} alone) verifies as either, so the client must check that it asked for this kind";

/// Finds the envelope and served parts in an MCP result, or in a JSON-RPC response carrying
/// a result or an error, the rules its shape breaks, and what it carries unsigned.
pub fn served_parts(response: &[u8]) -> Result<Served, Failure> {
    let members = open_members(response);
    if members > MAX_OPEN_MEMBERS {
        return Err(failure(
            Rule::Envelope,
            format!(
                "the response holds {members} object members at once, more than the {MAX_OPEN_MEMBERS} a verifier reads; it is refused unread"
            ),
        ));
    }
    jcs::canonicalize(response)
        .map_err(|e| failure(Rule::Envelope, format!("the response is not I-JSON: {e}")))?;
    let written = compact(response);
    let root = View::new(&written)
        .and_then(|r| r.object())
        .ok_or_else(|| failure(Rule::Envelope, "the response is not a JSON object"))?;
    let mut refusals = Vec::new();
    let mut unsigned = Vec::new();
    let framed = RESPONSE_MEMBERS.iter().any(|m| root.get(m).is_some());
    let result = if framed {
        check_frame(&root, &mut refusals);
        if let Some(error) = root.get("error") {
            return served_error(&root, error, refusals, unsigned);
        }
        root.get("result").and_then(|r| r.object())
    } else {
        Some(root)
    };
    let result = result.ok_or_else(|| failure(Rule::Envelope, "result is not a JSON object"))?;
    let jws = envelope_jws(result.get("_meta"), "result._meta")?;
    list_unsigned(
        result.get("_meta"),
        "result._meta",
        |n| n != META_KEY,
        "metadata beside the envelope, which the signature does not cover",
        &mut unsigned,
    );
    let found = Served {
        kind: Kind::ToolResult,
        jws,
        payload: None,
        text: None,
        is_error: false,
        refusals,
        unsigned,
        envelope: envelope_members(result.get("_meta"), "result._meta"),
    };
    Ok(match result.get("contents") {
        Some(contents) => served_resource(&result, contents, &written, framed, found),
        None => served_tool(&result, &written, framed, found),
    })
}

/// Whether a member of a result is protocol framing by `table`.
fn framing(table: &'static [(&'static str, Coverage)]) -> impl Fn(&str) -> bool {
    move |n: &str| table.contains(&(n, Coverage::Framing))
}

/// A result of the resource shape, `contents` its resource contents: its refusals and
/// unsigned members added to those `found` holds.
fn served_resource(
    result: &Object<'_>,
    contents: View<'_>,
    written: &[u8],
    framed: bool,
    mut found: Served,
) -> Served {
    let kind = Kind::Resource;
    refuse_unlisted(
        result,
        &RESOURCE_MEMBERS,
        "result",
        kind,
        &mut found.refusals,
    );
    if contents.kind() != Type::Array {
        found.refusals.push(failure(
            Rule::ResponseShape,
            "result.contents is an array of resource contents",
        ));
    }
    list_unsigned(
        result_view(written, framed),
        "result",
        framing(&RESOURCE_MEMBERS),
        "protocol framing, caching hints or v0.1 siblings, which the signature does not cover",
        &mut found.unsigned,
    );
    found.unsigned.push(Unsigned {
        place: "kind".into(),
        what: SHARED_SHAPE,
        names: vec![Excerpt::of(kind.name())],
        more: 0,
    });
    let mut payload = b"{\"contents\":".to_vec();
    payload.extend_from_slice(contents.bytes());
    payload.push(b'}');
    let text = contents
        .items()
        .next()
        .and_then(|first| first.get("text"))
        .and_then(|t| t.as_str());
    Served {
        kind,
        payload: Some(payload),
        text,
        is_error: false,
        ..found
    }
}

/// A result of the tool-result shape: its refusals and unsigned members added to those
/// `found` holds.
fn served_tool(result: &Object<'_>, written: &[u8], framed: bool, mut found: Served) -> Served {
    let kind = Kind::ToolResult;
    refuse_unlisted(
        result,
        &TOOL_RESULT_MEMBERS,
        "result",
        kind,
        &mut found.refusals,
    );
    list_unsigned(
        result_view(written, framed),
        "result",
        framing(&TOOL_RESULT_MEMBERS),
        "protocol framing or v0.1 siblings, which the signature does not cover",
        &mut found.unsigned,
    );
    let is_error = match result.get("isError") {
        None => false,
        Some(flag) => flag.as_bool().unwrap_or_else(|| {
            found
                .refusals
                .push(failure(Rule::ResponseShape, "result.isError is a boolean"));
            true
        }),
    };
    let text = tool_text(result.get("content"), &mut found.refusals);
    let payload = result.get("structuredContent");
    let resource_shaped = payload.is_some_and(|p| {
        p.kind() == Type::Object
            && p.members().count() == 1
            && p.get("contents").is_some_and(|c| c.kind() == Type::Array)
    });
    if resource_shaped {
        found.unsigned.push(Unsigned {
            place: "kind".into(),
            what: SHARED_SHAPE,
            names: vec![Excerpt::of(kind.name())],
            more: 0,
        });
    }
    Served {
        kind,
        payload: payload.map(|s| s.bytes().to_vec()),
        text,
        is_error,
        ..found
    }
}

/// The result object of the compact response `written`: itself when it is not framed.
fn result_view(written: &[u8], framed: bool) -> Option<View<'_>> {
    let root = View::new(written)?;
    if framed {
        root.get("result")
    } else {
        Some(root)
    }
}

/// Verifies a whole MCP result or JSON-RPC response.
pub fn verify_response(response: &[u8], jwks: &Jwks, clock: Clock) -> Verification {
    match served_parts(response) {
        Ok(served) => verify_served(&served, jwks, clock),
        Err(failure) => Verification {
            failures: vec![failure],
            ..Verification::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENVELOPE: &str = r#"{"org.jardenberg/verifiable-mcp":{"jws":"a.b.c"}}"#;

    fn tool(extra: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{{"type":"text","text":"hi"}}],"structuredContent":{{"a":1}},"_meta":{ENVELOPE}{extra}}}}}"#
        )
    }

    fn refusals(response: &str) -> Vec<(Rule, String)> {
        served_parts(response.as_bytes())
            .unwrap()
            .refusals
            .into_iter()
            .map(|f| (f.rule, f.message))
            .collect()
    }

    fn rules(response: &str) -> Vec<Rule> {
        refusals(response).into_iter().map(|(r, _)| r).collect()
    }

    #[test]
    fn a_plain_tool_result_has_nothing_to_refuse() {
        let served = served_parts(tool("").as_bytes()).unwrap();
        assert_eq!(served.kind, Kind::ToolResult);
        assert_eq!(served.jws, "a.b.c");
        assert_eq!(served.payload.as_deref(), Some(&br#"{"a":1}"#[..]));
        assert_eq!(served.text.as_deref(), Some("hi"));
        assert!(served.refusals.is_empty(), "{:?}", served.refusals);
        let framing = r#","signature":"v0.1","provenance":{},"resultType":"complete""#;
        assert_eq!(rules(&tool(framing)), []);
    }

    #[test]
    fn members_outside_the_table_are_unsigned() {
        let found = refusals(&tool(r#","notes":"read me""#));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, Rule::UnsignedMember);
        assert!(
            found[0].1.starts_with(r#"result["notes"]:"#),
            "{}",
            found[0].1
        );
        let resource = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"contents":[{{"uri":"u","text":"t"}}],"structuredContent":{{"x":1}},"_meta":{ENVELOPE}}}}}"#
        );
        assert_eq!(
            served_parts(resource.as_bytes()).unwrap().kind,
            Kind::Resource
        );
        assert_eq!(rules(&resource), [Rule::UnsignedMember]);
        let two_items = tool("").replace(
            r#"{"type":"text","text":"hi"}"#,
            r#"{"text":"hi","type":"text"},{"text":"more","type":"text"}"#,
        );
        assert_eq!(rules(&two_items), [Rule::UnsignedMember]);
        let annotated = tool("").replace(
            r#"{"type":"text","text":"hi"}"#,
            r#"{"annotations":{"priority":1},"text":"hi","type":"text"}"#,
        );
        assert_eq!(rules(&annotated), [Rule::UnsignedMember]);
    }

    #[test]
    fn shapes_json_rpc_forbids_are_refused() {
        let both = tool("").replace(
            r#""id":1,"#,
            r#""id":1,"error":{"code":1,"message":"m","data":{"org.jardenberg/verifiable-mcp":{"jws":"x.y.z"}}},"#,
        );
        assert!(rules(&both).contains(&Rule::ResponseShape));
        for broken in [
            tool("").replace(r#""2.0""#, r#""1.0""#),
            tool("").replace(r#""id":1,"#, ""),
            tool("").replace(r#""id":1,"#, r#""id":[1],"#),
            tool("").replace(r#""id":1,"#, r#""id":1,"extra":true,"#),
            tool(r#","isError":"yes""#),
        ] {
            assert_eq!(rules(&broken), [Rule::ResponseShape], "{broken}");
        }
    }

    #[test]
    fn an_error_frame_is_read_as_its_client_reads_it() {
        let frame = r#"{"jsonrpc":"2.0","id":"r1","error":{"code":-32602,"message":"m","data":{"hint":"h","org.jardenberg/verifiable-mcp":{"jws":"x.y.z"}}}}"#;
        let served = served_parts(frame.as_bytes()).unwrap();
        assert_eq!(served.kind, Kind::ErrorFrame);
        assert_eq!(
            served.payload.as_deref(),
            Some(&br#"{"error":{"code":-32602,"message":"m","data":{"hint":"h"}},"id":"r1"}"#[..])
        );
        let bare = frame.replace(r#""hint":"h","#, "");
        assert_eq!(
            served_parts(bare.as_bytes()).unwrap().payload.as_deref(),
            Some(&br#"{"error":{"code":-32602,"message":"m"},"id":"r1"}"#[..])
        );
        assert_eq!(
            rules(&frame.replace(r#""code":-32602,"#, r#""code":-32602,"note":1,"#)),
            [Rule::UnsignedMember]
        );
    }

    #[test]
    fn a_deep_payload_is_read_to_the_canonicalizer_s_limit() {
        let depth = jcs::DEFAULT_MAX_DEPTH - 10;
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let response = tool("").replace(r#"{"a":1}"#, &deep);
        let served = served_parts(response.as_bytes()).unwrap();
        assert_eq!(served.payload.as_deref(), Some(deep.as_bytes()));
        assert!(served.refusals.is_empty());
    }

    #[test]
    fn without_an_envelope_there_is_nothing_to_verify() {
        let failure = served_parts(tool("").replace(ENVELOPE, "{}").as_bytes()).unwrap_err();
        assert_eq!(failure.rule, Rule::Envelope);
        let failure = served_parts(b"[1]").unwrap_err();
        assert_eq!(failure.rule, Rule::Envelope);
    }

    #[test]
    fn served_values_are_kept_as_written() {
        let served = served_parts(
            tool("")
                .replace(r#"{"a":1}"#, r#"{ "a" : 1E2 }"#)
                .as_bytes(),
        )
        .unwrap();
        assert_eq!(served.payload.as_deref(), Some(&br#"{"a":1E2}"#[..]));
        // Escapes in names and values are read as a client decodes them.
        let escaped = tool("").replace(r#""jsonrpc":"2.0""#, r#""jsonrpc":"2\u002e0""#);
        assert_eq!(rules(&escaped), []);
    }

    #[test]
    fn an_id_or_code_is_read_as_an_integer() {
        for id in ["7.0", "7e0", "-1.5"] {
            let response = tool("").replace(r#""id":1,"#, &format!(r#""id":{id},"#));
            assert_eq!(rules(&response), [Rule::ResponseShape], "{id}");
        }
        let frame = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"m","data":{"org.jardenberg/verifiable-mcp":{"jws":"x.y.z"}}}}"#;
        assert_eq!(rules(frame), []);
        for code in ["-32602.0", "-3.2602e4"] {
            let response = frame.replace("-32602", code);
            assert_eq!(rules(&response), [Rule::ResponseShape], "{code}");
        }
    }

    #[test]
    fn many_unsigned_members_are_named_by_the_first_and_counted() {
        let extra: String = (0..20).map(|i| format!(r#","m{i}":0"#)).collect();
        let found = refusals(&tool(&extra));
        assert_eq!(found.len(), LISTED + 1);
        assert!(found.iter().all(|(rule, _)| *rule == Rule::UnsignedMember));
        assert!(
            found[LISTED].1.contains("12 more members"),
            "{}",
            found[LISTED].1
        );
    }

    #[test]
    fn a_response_holding_too_many_members_is_refused_unread() {
        let many: String = (0..=MAX_OPEN_MEMBERS)
            .map(|i| format!(r#","m{i}":0"#))
            .collect();
        let failure = served_parts(tool(&many).as_bytes()).unwrap_err();
        assert_eq!(failure.rule, Rule::Envelope);
        assert!(
            failure.message.contains("refused unread"),
            "{}",
            failure.message
        );
        // As many, one after another in closed objects, are read.
        let closed: String = (0..=MAX_OPEN_MEMBERS / 2)
            .map(|i| format!(r#"{{"m":{i}}},"#))
            .collect();
        let records = tool("").replace(r#"{"a":1}"#, &format!("[{closed}0]"));
        assert!(served_parts(records.as_bytes()).is_ok());
        assert_eq!(open_members(br#"{"a":{"b":1,"c":[{"d":2}]},"e":"{:}"}"#), 4);
    }

    #[test]
    fn what_the_signature_does_not_cover_is_listed() {
        let meta = r#"{"org.jardenberg/verifiable-mcp":{"jws":"a.b.c","kid":"k","spec":"0.2.1","note":1},"trace":{"id":1}}"#;
        let response =
            tool(r#","resultType":"complete","signature":"v0.1""#).replace(ENVELOPE, meta);
        let served = served_parts(response.as_bytes()).unwrap();
        assert!(served.refusals.is_empty(), "{:?}", served.refusals);
        let v = verify_served(
            &served,
            &Jwks::parse(br#"{"keys":[]}"#).unwrap(),
            Clock::at(0),
        );
        let places: Vec<(&str, Vec<&str>)> = v
            .unsigned
            .iter()
            .map(|u| {
                (
                    u.place.as_str(),
                    u.names.iter().map(|n| n.start.as_str()).collect(),
                )
            })
            .collect();
        // The envelope's spec says what 0.2.1 signs; its kid cannot be vouched for by a JWS
        // that did not verify, and `note` the specification does not define.
        assert_eq!(
            places,
            [
                ("result._meta", vec!["trace"]),
                ("result", vec!["resultType", "signature"]),
                (
                    r#"result._meta["org.jardenberg/verifiable-mcp"]"#,
                    vec!["kid", "note"]
                ),
            ]
        );
        assert!(served_parts(tool("").as_bytes())
            .unwrap()
            .unsigned
            .is_empty());
        // A payload of the shape a resource read has verifies as either kind.
        let shared = tool("").replace(r#"{"a":1}"#, r#"{"contents":[{"uri":"u","text":"t"}]}"#);
        let kinds: Vec<String> = served_parts(shared.as_bytes())
            .unwrap()
            .unsigned
            .into_iter()
            .filter(|u| u.place == "kind")
            .flat_map(|u| u.names)
            .map(|n| n.plain())
            .collect();
        assert_eq!(kinds, ["tools/call result"]);
        let resource = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"contents":[{{"uri":"u","text":"t"}}],"_meta":{ENVELOPE}}}}}"#
        );
        let listed = served_parts(resource.as_bytes()).unwrap().unsigned;
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].place, "kind");
        // Under strict reading, each listing is a refusal.
        let strict: Vec<Failure> = v
            .strict()
            .failures
            .into_iter()
            .filter(|f| f.message.ends_with("(refused under strict reading)"))
            .collect();
        assert_eq!(strict.len(), 3, "{strict:?}");
    }
}
