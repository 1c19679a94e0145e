//! The verifiable-mcp specification's own test vectors, kept in the corpus as published and
//! run as published: each case's verdict from the core's verifier against the one the
//! specification gives.

use std::path::Path;

use canonfuzz_core::jcs::canonicalize;
use canonfuzz_core::jws::Jwks;
use canonfuzz_core::vmcp::{self, Kind, Served};
use serde::Deserialize;
use serde_json::Value;

use crate::family::PublishedFile;

/// The schema name the manifest gives the verifiable-mcp test-vector files.
pub const PUBLISHED_SCHEMA: &str = "verifiable-mcp-test-vectors";

/// A verifiable-mcp test-vector file (`test-vectors/v0.2.1.json` of the specification).
#[derive(Debug, Deserialize)]
pub struct VmcpVectors {
    /// `org.jardenberg/verifiable-mcp`.
    pub spec: String,
    /// The specification version the vectors are for.
    pub spec_version: String,
    /// The key set the tokens verify against.
    pub jwks: serde_json::Value,
    /// The cases.
    pub cases: Vec<VmcpCase>,
}

/// One published case.
#[derive(Debug, Deserialize)]
pub struct VmcpCase {
    /// The case's name.
    pub name: String,
    /// `pass` or `fail`.
    pub expect: String,
    /// `tools/call`, `resources/read` or `error`.
    pub kind: String,
    /// The wrapper as served.
    pub wrapper: serde_json::Value,
    /// The text arm as served, if any.
    pub content_text: Option<String>,
    /// The envelope's JWS.
    pub jws: String,
}

impl VmcpVectors {
    /// Reads a file if it is one.
    pub fn parse(bytes: &[u8]) -> Option<VmcpVectors> {
        serde_json::from_slice::<VmcpVectors>(bytes)
            .ok()
            .filter(|v| v.spec == vmcp::META_KEY)
    }

    /// Runs every case; per case its name and, when the verifier's verdict differs from the
    /// published one, why.
    fn cases(&self) -> Vec<(String, Result<(), String>)> {
        let jwks = match Jwks::parse(self.jwks.to_string().as_bytes()) {
            Ok(j) => j,
            Err(e) => {
                return vec![(
                    "jwks".to_string(),
                    Err(format!("the published key set is unusable: {e}")),
                )]
            }
        };
        self.cases
            .iter()
            .map(|case| {
                let kind = match case.kind.as_str() {
                    "resources/read" => Kind::Resource,
                    "error" => Kind::ErrorFrame,
                    _ => Kind::ToolResult,
                };
                let payload = case.wrapper.get("payload");
                let served = Served {
                    kind,
                    jws: case.jws.clone(),
                    payload: payload.and_then(|p| canonicalize(p.to_string().as_bytes()).ok()),
                    text: case.content_text.clone(),
                    is_error: payload.and_then(|p| p.get("isError")) == Some(&Value::Bool(true)),
                    refusals: Vec::new(),
                    unsigned: Vec::new(),
                    envelope: vmcp::Envelope::default(),
                };
                // The published cases carry no clock: they are checked at their own iat.
                let now = case.wrapper.get("iat").and_then(Value::as_u64).unwrap_or(0);
                let verdict = vmcp::verify_served(&served, &jwks, vmcp::Clock::at(now));
                let failed: Vec<String> = verdict
                    .failures
                    .iter()
                    .map(|f| format!("{}: {}", f.rule.name(), f.message))
                    .collect();
                let outcome = match (case.expect.as_str(), verdict.is_valid()) {
                    ("pass", true) | ("fail", false) => Ok(()),
                    ("pass", false) => Err(format!(
                        "published as pass, rejected: {}",
                        failed.join("; ")
                    )),
                    _ => Err("published as fail, accepted".to_string()),
                };
                (case.name.clone(), outcome)
            })
            .collect()
    }
}

impl PublishedFile for VmcpVectors {
    fn schema(&self) -> &'static str {
        PUBLISHED_SCHEMA
    }

    fn count(&self) -> usize {
        self.cases.len()
    }

    fn run(&self, _dir: &Path) -> Vec<(String, Result<(), String>)> {
        self.cases()
    }
}
