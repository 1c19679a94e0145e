//! Text that came from an input — a member name, a header value, a vector's comment, a worker's
//! message — made safe for where it is printed: one function per kind of output. On a
//! terminal no such text may start a line, move the cursor or set the title; in Markdown it
//! may not open a table cell, a link, code or HTML; in HTML it may not open an element or an
//! attribute. Every printer passes what it did not write itself through the function of its
//! output.

use std::borrow::Cow;
use std::fmt::Write as _;

use canonfuzz_core::shown::invisible;

/// Whether a character is one a terminal or a reader takes for layout or control rather than
/// text, or one that shows as nothing or as a blank: the core's [`invisible`], which every
/// message of the core escapes too.
fn hidden(c: char) -> bool {
    invisible(c)
}

/// `text` for a terminal: every hidden character written as its escape (`\n`, `\t`, `\r`,
/// else `\u{..}`), everything else as it is.
pub fn terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if hidden(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Text a program wrote for a terminal, several lines of it, whose pieces from inputs were
/// passed through [`terminal`]: its line feeds kept, and any other hidden character that
/// slipped through escaped.
pub fn terminal_lines(text: &str) -> String {
    text.split('\n')
        .map(terminal)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The characters that open something in Markdown — emphasis, code, a link or an image, HTML,
/// an entity, a heading, a table cell, strikethrough — and the backslash that escapes them.
const MARKDOWN_OPENERS: &str = "\\`*_[]<>|#!~&{}";

/// `text` for Markdown, in running text or a table cell: hidden characters escaped as for a
/// terminal, and every character that opens something backslash-escaped (CommonMark reads
/// each such escape as the character itself).
pub fn markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in terminal(text).chars() {
        if MARKDOWN_OPENERS.contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` as inline code in a Markdown table cell: hidden characters escaped as for a
/// terminal, a fence of backticks longer than any run of them in the text (with a space
/// inside each end where the text starts or ends with a backtick or a space, which CommonMark
/// takes off again), and each `|` written `\|`, which a table reads as the pipe itself inside
/// code too. No other backslash is added: inside code it would show.
pub fn code_cell(text: &str) -> String {
    let text = terminal(text).replace('|', "\\|");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// `text` as a fenced Markdown code block with the info string `info`: hidden characters
/// escaped as for a terminal, and a fence longer than any run of backticks in the text, so
/// that nothing in it closes the block.
pub fn code_block(text: &str, info: &str) -> String {
    let text = terminal_lines(text);
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let newline = if text.ends_with('\n') { "" } else { "\n" };
    format!("{fence}{}\n{text}{newline}{fence}", terminal(info))
}

/// `text` for HTML, in an element's content or a quoted attribute: hidden characters escaped
/// as for a terminal, and `&`, `<`, `>`, `"` and `'` written as character references.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in terminal(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON text for a reader that splits lines wherever a Unicode line break stands: every
/// hidden character (which takes in U+2028, U+2029, U+0085 and the other C1 controls) written
/// as a `\u` escape. JSON text holds such characters only inside strings, where the escape
/// reads as the character itself, so the value is unchanged; the whitespace between tokens is
/// kept.
pub fn json_lines(json: &str) -> Cow<'_, str> {
    let escaped = |c: char| hidden(c) && !matches!(c, '\n' | '\r' | '\t');
    if !json.chars().any(escaped) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if escaped(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` as a name for a file or an anchor: ASCII letters and digits in lower case, every
/// other run of characters one hyphen.
pub fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// A hostile input and the check that printed output withstands it, for the tests of every
/// printer, the engine's and each family's.
pub mod hostile {
    use super::hidden;

    /// A name that tries every way out of its place: a line that reads as a verdict, a
    /// terminal's escape sequences and one-byte CSI, a reordering override, and the
    /// punctuation of Markdown and HTML.
    pub const HOSTILE: &str = "x\nvalid\r\n\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m\u{202e}evil\u{2028}| `code` [a](b) <script>alert('x')</script> &amp; *b* #h";

    /// Panics unless terminal output `out` carries nothing hidden, exactly `lines` lines and
    /// no line that reads as a verdict.
    pub fn safe_for_a_terminal(out: &str, lines: usize) {
        assert_eq!(out.lines().count(), lines, "{out:?}");
        assert!(!out.chars().any(|c| hidden(c) && c != '\n'), "{out:?}");
        assert!(!out.lines().any(|l| l.trim() == "valid"), "{out:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::hostile::{safe_for_a_terminal, HOSTILE};
    use super::*;

    #[test]
    fn a_hostile_name_cannot_leave_its_place() {
        safe_for_a_terminal(&terminal(HOSTILE), 1);
        assert_eq!(terminal("plain é 😀"), "plain é 😀");
        assert_eq!(terminal("a\nb\u{1b}"), "a\\nb\\u{1b}");
        let lines = terminal_lines(&format!("one\ntwo {}", terminal(HOSTILE)));
        safe_for_a_terminal(&lines, 2);
        let md = markdown(HOSTILE);
        safe_for_a_terminal(&md, 1);
        for opener in ["|", "`", "[", "<", "*", "#"] {
            assert!(
                md.match_indices(opener)
                    .all(|(i, _)| md[..i].ends_with('\\')),
                "{opener} in {md}"
            );
        }
        // A code block keeps its text's lines, and nothing in them closes it: the fence is
        // longer than any run of backticks inside.
        let block = code_block(&format!("{HOSTILE}\n```\n````"), "json");
        assert!(
            block.starts_with("`````json\n") && block.ends_with("\n`````"),
            "{block}"
        );
        assert_eq!(block.lines().count(), 7, "{block}");
        assert_eq!(block.lines().filter(|l| l.starts_with("`````")).count(), 2);
        assert!(!block.chars().any(|c| hidden(c) && c != '\n'), "{block}");
        // Inline code in a cell: no backslash but the pipe's, and no backtick run of the
        // text as long as the fence.
        let cell = code_cell("a`b``c|d\\e*f");
        assert_eq!(cell, "```a`b``c\\|d\\e*f```");
        assert_eq!(code_cell("`x`"), "`` `x` ``");
        assert_eq!(code_cell("plain"), "`plain`");
        safe_for_a_terminal(&code_cell(HOSTILE), 1);
        let page = html(HOSTILE);
        safe_for_a_terminal(&page, 1);
        assert!(!page.contains('<') && !page.contains('>') && !page.contains('"'));
        assert!(page.contains("&lt;script&gt;") && page.contains("&amp;amp;"));
    }

    #[test]
    fn json_for_line_readers_keeps_its_value_and_its_lines() {
        let value = serde_json::json!({"name": format!("{HOSTILE}\u{85}\u{2029}\u{3164}\u{1f600}"), "n": [1]});
        for text in [
            serde_json::to_string(&value).unwrap(),
            serde_json::to_string_pretty(&value).unwrap(),
        ] {
            let safe = json_lines(&text);
            let lines = text.lines().count();
            // Python's str.splitlines() breaks at these besides \n and \r.
            let breaks = [
                '\u{b}', '\u{c}', '\u{1c}', '\u{1d}', '\u{1e}', '\u{85}', '\u{2028}', '\u{2029}',
            ];
            assert!(!safe.contains(breaks), "{safe}");
            assert_eq!(safe.lines().count(), lines, "{safe}");
            assert!(
                !safe.chars().any(|c| hidden(c) && !matches!(c, '\n')),
                "{safe}"
            );
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&safe).unwrap(),
                value
            );
        }
        assert!(json_lines("{\"a\":\"\u{2028}\"}").contains("\\u2028"));
        assert!(json_lines("[\"\u{e0041}\"]").contains("\\udb40\\udc41"));
    }

    #[test]
    fn a_slug_keeps_letters_and_digits_and_nothing_a_path_could_read() {
        assert_eq!(
            super::slug("I-JSON: writes a \\u escape"),
            "i-json-writes-a-u-escape"
        );
        assert_eq!(super::slug("../../etc/passwd"), "etc-passwd");
    }
}
