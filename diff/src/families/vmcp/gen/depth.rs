//! The `vmcp_depth` cases: payloads nested past what the verifiers read.

use canonfuzz_props::vmcp::test_server as server;

use canonfuzz_core::vmcp::META_KEY;

use self::server::{jcs, provenance, sha256_label, IAT};
use super::Server;
use canonfuzz_rng::Rng;

/// A genuine response whose payload is nested deep, as text: deeper than some readers go,
/// near the core's bound, or past it.
pub(super) fn deep(rng: &mut Rng, server: &Server) -> String {
    let depth = rng.pick(&[100, 127, 129, 1_000, 5_000, 9_990, 9_997, 10_001, 12_000]);
    let inner = String::from_utf8_lossy(&jcs(&server.data)).into_owned();
    let payload = format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth));
    let text = format!("Nested {depth} levels");
    let wrapper = format!(
        r#"{{"content_digest":"{}","iat":{IAT},"payload":{payload},"payload_digest":"{}","provenance":{}}}"#,
        sha256_label(text.as_bytes()),
        sha256_label(payload.as_bytes()),
        String::from_utf8_lossy(&jcs(&provenance()))
    );
    let jws = server.signer.sign_bytes(&server.header, wrapper.as_bytes());
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{{"type":"text","text":"{text}"}}],"structuredContent":{payload},"_meta":{{"{META_KEY}":{}}}}}}}"#,
        server.signer.envelope(jws)
    )
}
