//! A canonfuzz worker for Rust libraries that cannot share the harness's build: answers one
//! input per line with one JSON line, in order. It speaks protocol 1: the first line is
//! `{"canonfuzz":1,"family":"<family>"}`, from which it takes the library named by its first
//! argument from that family's file in `families/`; it answers `{"canonfuzz":1,"name":…}` and
//! then reads each input as `{"input":"<base64>"}`, so that any byte can travel.

mod families;

use std::io::{self, BufRead, BufReader, BufWriter, Write};

use base64::Engine;
use serde_json::{json, Value};

/// The input a protocol 1 request line carries.
fn request(line: &[u8]) -> Result<Vec<u8>, String> {
    let request: Value = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    let text = request
        .get("input")
        .and_then(Value::as_str)
        .ok_or("no \"input\" string")?;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| e.to_string())
}

/// The library the first line's family has under `library`, or why there is none.
fn answer_of(hello: &[u8], library: &str) -> Result<families::Answer, String> {
    let hello = serde_json::from_slice::<Value>(hello)
        .ok()
        .filter(|h| h.get("canonfuzz") == Some(&json!(1)))
        .ok_or(r#"the first line is not the protocol's: {"canonfuzz":1,"family":…}"#)?;
    let family = hello
        .get("family")
        .and_then(Value::as_str)
        .ok_or("the first line names no family")?;
    families::library(family, library)
        .ok_or_else(|| format!("unknown library {library:?} of family {family:?}"))
}

fn main() {
    let library = std::env::args().nth(1).unwrap_or_default();
    std::panic::set_hook(Box::new(|_| {}));
    let mut input = BufReader::new(io::stdin());
    let mut out = BufWriter::new(io::stdout());
    let mut line = Vec::new();
    let mut answer = None;
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        let reply = match answer {
            None => match answer_of(&line, &library) {
                Ok(found) => {
                    answer = Some(found);
                    json!({"canonfuzz": 1, "name": library})
                }
                Err(why) => {
                    eprintln!("{why}");
                    std::process::exit(2);
                }
            },
            Some(answer) => match request(&line) {
                Ok(input) => answer(&input),
                Err(why) => {
                    json!({"error": {"kind": "crashed", "message": format!("not a protocol 1 request: {why}"), "offset": 0}})
                }
            },
        };
        if writeln!(out, "{reply}").is_err() {
            break;
        }
        // Answers go out whenever the input read so far is used up, so a batch never waits.
        if input.buffer().is_empty() && out.flush().is_err() {
            break;
        }
    }
    let _ = out.flush();
}
