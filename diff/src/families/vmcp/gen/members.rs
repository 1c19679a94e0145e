//! The `vmcp_members` forgeries: members added, moved, duplicated or nulled in a genuine
//! response, branches mixed and text arms changed, where the signature does not reach.

use canonfuzz_props::vmcp::test_server as server;

use canonfuzz_core::vmcp::META_KEY;
use serde_json::{json, Value};

use self::server::{provenance, sha256_label};
use super::numbers::served_number;
use super::{result_of, Server, Shape};
use canonfuzz_rng::Rng;

/// A genuine response bent at its members: the response, or its text when a value cannot
/// hold the change (a duplicate name).
pub(super) fn members(rng: &mut Rng, server: &Server) -> Result<Value, String> {
    let mut r = server.response();
    let framed = server.shape != Shape::Bare;
    match rng.index(18) {
        0 => {
            let name = rng.pick(&[
                "notes",
                "summary",
                "data",
                "structuredcontent",
                "annotations",
            ]);
            result_of(&mut r)[name] = json!("unsigned");
        }
        1 if framed => {
            if r.get("error").is_some() {
                r["result"] = json!({"structuredContent": {"ok": true}, "content": [{"type": "text", "text": "ok"}]});
            } else {
                r["error"] = json!({"code": -32000, "message": "unsigned"});
            }
        }
        2 => {
            let branch = rng.pick(&["structuredContent", "contents", "content", "isError"]);
            let value = match branch {
                "isError" => json!(rng.chance(50)),
                "content" => json!([{"type": "text", "text": "unsigned"}]),
                "contents" => json!([{"uri": "https://attacker.example/", "text": "unsigned"}]),
                _ => json!({"unsigned": true}),
            };
            result_of(&mut r)[branch] = value;
        }
        3 => {
            if let Some(result) = result_of(&mut r).as_object_mut() {
                result.remove(rng.pick(&["structuredContent", "content", "isError", "contents"]));
            }
        }
        4 => {
            let result = result_of(&mut r);
            if result.get("structuredContent").is_some() {
                result["structuredContent"] = Value::Null;
            } else if result.get("contents").is_some() {
                result["contents"][0]["uri"] = json!("https://attacker.example/");
            } else if let Some(error) = r.get_mut("error") {
                error["message"] = json!("a different message");
            }
        }
        5 => {
            if let Some(items) = result_of(&mut r)["content"].as_array_mut() {
                items.push(json!({"type": "text", "text": "unsigned"}));
            }
        }
        6 => {
            if let Some(item) = result_of(&mut r)["content"].get_mut(0) {
                item[rng.pick(&["annotations", "_meta", "mimeType"])] = json!({"priority": 1});
            }
        }
        7 => {
            if let Some(text) = result_of(&mut r)["content"][0]["text"].as_str() {
                let changed = format!("{text}{}", rng.pick(&[" ", "\u{200b}", "!", "\n"]));
                result_of(&mut r)["content"][0]["text"] = json!(changed);
            }
        }
        8 => {
            let result = result_of(&mut r);
            if result.get("isError").is_some() {
                result["isError"] = json!(false);
            } else {
                result["isError"] = json!(true);
            }
        }
        9 => {
            if let Some(error) = r.get_mut("error") {
                match rng.index(3) {
                    0 => error["data"]["hint"] = json!("unsigned"),
                    1 => error["note"] = json!("unsigned"),
                    _ => r["id"] = json!(1000 + rng.index(1000)),
                }
            } else if framed {
                r["id"] = json!("another-request");
            }
        }
        10 => {
            let result = result_of(&mut r);
            let envelope = result["_meta"].clone();
            result["_meta"] = json!({});
            if result
                .get("structuredContent")
                .is_some_and(Value::is_object)
            {
                result["structuredContent"]["_meta"] = envelope;
            } else if let Some(item) = result["content"].get_mut(0) {
                item["_meta"] = envelope;
            }
        }
        11 if framed => match rng.index(3) {
            0 => r["jsonrpc"] = json!("1.0"),
            1 => r["debug"] = json!({"unsigned": true}),
            _ => {
                if let Some(frame) = r.as_object_mut() {
                    frame.remove("id");
                }
            }
        },
        12 => {
            let text = r.to_string();
            let (name, forged) = if text.contains("\"structuredContent\":") {
                ("\"structuredContent\":", "{\"forged\":true}")
            } else if text.contains("\"message\":") {
                ("\"message\":", "\"forged\"")
            } else {
                ("\"content\":", "[{\"type\":\"text\",\"text\":\"forged\"}]")
            };
            let twice = if rng.chance(50) {
                text.replacen(name, &format!("{name}{forged},{name}"), 1)
            } else {
                let at = text.find(name).map_or(0, |i| i + name.len());
                let end = value_end(&text, at);
                format!("{},{name}{forged}{}", &text[..end], &text[end..])
            };
            return Err(twice);
        }
        13 => {
            result_of(&mut r)["_meta"]["deployment.example/trace"] = json!({"id": rng.index(9)});
            if framed {
                let (sibling, value) = if rng.chance(50) {
                    ("signature", json!("deprecated v0.1 sibling"))
                } else {
                    ("provenance", provenance())
                };
                result_of(&mut r)[sibling] = value;
            }
        }
        14 => {
            // The envelope's convenience members, which the JWS header overrules.
            let meta = &mut result_of(&mut r)["_meta"][META_KEY];
            for (name, value) in [
                ("kid", json!("convenience-kid")),
                ("alg", json!("RS256")),
                ("spec", json!(rng.pick(&["0.1", "0.3.0", ""]))),
                ("signed", json!(rng.pick(&["payload", "content"]))),
            ] {
                if rng.chance(60) {
                    meta[name] = value;
                }
            }
        }
        15 if rng.chance(15) => {
            // The wrapper signed in a text that is not its canonical form.
            let pretty = serde_json::to_string_pretty(&server.wrapper()).unwrap_or_default();
            let jws = server.signer.sign_bytes(&server.header, pretty.as_bytes());
            let envelope = if r.get("error").is_some() {
                &mut r["error"]["data"][META_KEY]
            } else {
                &mut result_of(&mut r)["_meta"][META_KEY]
            };
            envelope["jws"] = json!(jws);
        }
        15 => {
            // The signed wrapper itself bent, and signed so: its provenance not an object, a
            // digest that covers nothing served, or a member no reader looks at.
            let mut extra = server.extra.clone();
            let (name, value) = match rng.index(6) {
                0 => ("provenance", json!("test operator")),
                1 => ("provenance", Value::Null),
                2 => ("provenance", json!([provenance()])),
                3 => ("content_digest", json!(sha256_label(b"other text"))),
                4 => ("payload_digest", json!(sha256_label(b"{}"))),
                _ => ("note", json!("signed, read by no one")),
            };
            extra.insert(name.into(), value);
            let bent = Server {
                signer: server.signer,
                shape: server.shape,
                data: server.data.clone(),
                id: server.id.clone(),
                extra,
                header: server.header.clone(),
                number: None,
            };
            return Ok(bent.response());
        }
        16 => return Err(served_number(rng, server)),
        _ => {
            // A character inside the signature, so that its bits, not unused ones, change.
            if let Some(jws) = result_of(&mut r)["_meta"][META_KEY]["jws"].as_str() {
                let at = jws.len().saturating_sub(20);
                let flipped: String = jws
                    .char_indices()
                    .map(|(i, c)| match (i == at, c) {
                        (true, 'A') => 'B',
                        (true, _) => 'A',
                        (false, c) => c,
                    })
                    .collect();
                result_of(&mut r)["_meta"][META_KEY]["jws"] = json!(flipped);
            }
        }
    }
    Ok(r)
}

/// The end of the JSON value starting at byte `at` of `text` (a container, string or scalar).
pub(super) fn value_end(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in bytes.iter().enumerate().skip(at) {
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => {
                in_string = false;
                if depth == 0 {
                    return i + 1;
                }
            }
            (false, _, b'"') => in_string = true,
            (false, _, b'[' | b'{') => depth += 1,
            (false, _, b']' | b'}') => {
                if depth <= 1 {
                    return i + usize::from(depth == 1);
                }
                depth -= 1;
            }
            (false, _, b',') if depth == 0 => return i,
            _ => {}
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_ends_where_its_json_ends() {
        let text = r#"{"a":{"b":"}"},"c":[1,[2]],"d":3}"#;
        assert_eq!(&text[5..value_end(text, 5)], r#"{"b":"}"}"#);
        assert_eq!(&text[19..value_end(text, 19)], "[1,[2]]");
        assert_eq!(&text[31..value_end(text, 31)], "3");
    }
}
