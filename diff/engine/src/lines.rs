//! Text for a person at a terminal: lines of at most 80 columns, broken at spaces, and the
//! first line of a message that may hold a tool's whole output.

/// The columns a line for a person takes at most.
pub const WIDTH: usize = 80;

/// `text` as lines of at most [`WIDTH`] characters, broken at spaces, each ending in a line
/// feed; lines after the first are indented by two spaces. A word longer than a line stands
/// alone on its own.
pub fn wrap(text: &str) -> String {
    wrap_with("", "  ", text)
}

/// [`wrap`], the first line led by `first` and the others by `rest`.
pub fn wrap_with(first: &str, rest: &str, text: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split(' ') {
        let len = line.chars().count();
        if !empty && len + 1 + word.chars().count() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = format!("{rest}{word}");
        } else {
            if !empty {
                line.push(' ');
            }
            line.push_str(word);
            empty = false;
        }
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The first line of a message that may hold a tool's whole output.
pub fn first_line(message: &str) -> &str {
    message
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bug_line_is_wrapped_whole_under_its_marker() {
        let head = "rust-serde_json (via serde_jcs, serde_json_canonicalizer, json-canon, \
                    canon-json), number_format: writes a number otherwise than ECMAScript";
        let shown = wrap_with("  new ", "        ", head);
        assert_eq!(
            shown,
            "  new rust-serde_json (via serde_jcs, serde_json_canonicalizer, json-canon,\n        \
             canon-json), number_format: writes a number otherwise than ECMAScript\n"
        );
        assert_eq!(wrap(" x"), " x\n");
    }
}
