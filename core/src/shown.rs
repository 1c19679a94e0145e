//! Text from an input as the core's messages show it: quoted, every character that does not
//! show as itself escaped, and cut to [`SHOWN_CHARS`] characters with the whole text's length
//! and digest. A member name, header value or kid a sender chose is echoed this way, so that
//! no message grows with the input and no look-alike reads as the name it imitates.

use sha2::{Digest, Sha256};

use crate::ekl::to_hex;

/// Characters of an input's text a message shows before it cuts the rest.
pub const SHOWN_CHARS: usize = 64;

/// Whether a character does not show as itself: controls (C0, DEL, C1), the line and
/// paragraph separators, spaces other than U+0020, format characters (Unicode general
/// category Cf), default-ignorable code points (which render as nothing, such as U+3164
/// HANGUL FILLER and the variation selectors), the blank braille pattern and the two
/// noncharacters U+FFFE and U+FFFF. The ranges are those of the Unicode Character Database
/// (UnicodeData.txt for Cf and Zs, DerivedCoreProperties.txt for Default_Ignorable_Code_Point).
pub fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{a0}'
                | '\u{ad}'
                | '\u{34f}'
                | '\u{600}'..='\u{605}'
                | '\u{61c}'
                | '\u{6dd}'
                | '\u{70f}'
                | '\u{890}'..='\u{891}'
                | '\u{8e2}'
                | '\u{115f}'..='\u{1160}'
                | '\u{1680}'
                | '\u{17b4}'..='\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{2000}'..='\u{200f}'
                | '\u{2028}'..='\u{202f}'
                | '\u{205f}'..='\u{206f}'
                | '\u{2800}'
                | '\u{3000}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fffb}'
                | '\u{fffe}'..='\u{ffff}'
                | '\u{110bd}'
                | '\u{110cd}'
                | '\u{13430}'..='\u{1343f}'
                | '\u{1bca0}'..='\u{1bca3}'
                | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0000}'..='\u{e0fff}'
        )
}

/// An input's text as a message keeps it: whole, or its first [`SHOWN_CHARS`] characters with
/// the whole text's length in bytes and SHA-256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// The text, or its first [`SHOWN_CHARS`] characters.
    pub start: String,
    /// The whole text's length in bytes.
    pub bytes: usize,
    /// The whole text's SHA-256 in hex, when `start` is not all of it.
    pub sha256: Option<String>,
}

impl Excerpt {
    /// The excerpt of `text`.
    pub fn of(text: &str) -> Excerpt {
        let end = text
            .char_indices()
            .nth(SHOWN_CHARS)
            .map_or(text.len(), |(i, _)| i);
        let start = text.get(..end).unwrap_or_default().to_string();
        let sha256 = (end < text.len()).then(|| to_hex(&Sha256::digest(text.as_bytes())));
        Excerpt {
            start,
            bytes: text.len(),
            sha256,
        }
    }

    /// The excerpt unquoted, as a program reading JSON takes it: the text itself when whole,
    /// else its start, an ellipsis, and the whole text's length and digest.
    pub fn plain(&self) -> String {
        match &self.sha256 {
            None => self.start.clone(),
            Some(digest) => format!("{}…{}", self.start, self.cut(digest)),
        }
    }

    fn cut(&self, digest: &str) -> String {
        format!(" ({} bytes, sha256:{digest})", self.bytes)
    }
}

/// Quoted, with `\"`, `\\`, `\n`, `\r`, `\t` and `\u{..}` escapes for what does not show as
/// itself; a text cut short ends its quote with an ellipsis, and its length and digest follow.
impl std::fmt::Display for Excerpt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("\"")?;
        for c in self.start.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if invisible(c) => write!(f, "\\u{{{:x}}}", u32::from(c))?,
                c => write!(f, "{c}")?,
            }
        }
        match &self.sha256 {
            None => f.write_str("\""),
            Some(digest) => write!(f, "…\"{}", self.cut(digest)),
        }
    }
}

/// `text` quoted as a message shows an input's text: see [`Excerpt`].
pub fn quoted(text: &str) -> String {
    Excerpt::of(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole_with_what_does_not_show_escaped() {
        assert_eq!(quoted("kid-1"), "\"kid-1\"");
        assert_eq!(quoted("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
        assert_eq!(quoted("é 😀"), "\"é 😀\"");
        // U+3164 HANGUL FILLER, U+200B ZERO WIDTH SPACE, U+00A0 NO-BREAK SPACE, U+2028, C1
        // U+009B (CSI), U+E0041 TAG LATIN CAPITAL LETTER A, U+FE0F VARIATION SELECTOR-16.
        assert_eq!(
            quoted("\u{3164}\u{200b}\u{a0}\u{2028}\u{9b}\u{e0041}\u{fe0f}"),
            r#""\u{3164}\u{200b}\u{a0}\u{2028}\u{9b}\u{e0041}\u{fe0f}""#
        );
        assert_eq!(Excerpt::of("kid").plain(), "kid");
    }

    #[test]
    fn the_unicode_databases_invisible_characters_are_escaped_and_letters_are_not() {
        // Cf (UnicodeData.txt): ARABIC NUMBER SIGN, SOFT HYPHEN, ZERO WIDTH JOINER, WORD
        // JOINER, BYTE ORDER MARK, INTERLINEAR ANNOTATION ANCHOR, LANGUAGE TAG.
        // Default_Ignorable_Code_Point (DerivedCoreProperties.txt): COMBINING GRAPHEME JOINER,
        // HANGUL CHOSEONG FILLER, KHMER VOWEL INHERENT AQ, HALFWIDTH HANGUL FILLER, U+E0FFF.
        for c in [
            '\u{600}',
            '\u{ad}',
            '\u{200d}',
            '\u{2060}',
            '\u{feff}',
            '\u{fff9}',
            '\u{e0001}',
            '\u{34f}',
            '\u{115f}',
            '\u{17b4}',
            '\u{ffa0}',
            '\u{e0fff}',
            '\u{85}',
            '\u{7f}',
        ] {
            assert!(invisible(c), "U+{:04X}", u32::from(c));
        }
        for c in [
            'a', 'é', 'ㄱ', '가', '\u{2010}', '\u{2030}', '\u{2070}', '😀', '\u{1100}',
        ] {
            assert!(!invisible(c), "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn long_text_is_cut_with_its_length_and_digest() {
        let long = "n".repeat(3_500_000);
        let shown = quoted(&long);
        assert!(shown.len() < 200, "{shown}");
        // SHA-256 of 3,500,000 'n' bytes, from `python3 -c "import hashlib;
        // print(hashlib.sha256(b'n' * 3500000).hexdigest())"`.
        let digest = "07212f8cb45c32537581543691b67a7923f5d876dcc453b64c15f2922a8c6bd2";
        assert_eq!(
            shown,
            format!(
                "\"{}…\" (3500000 bytes, sha256:{digest})",
                "n".repeat(SHOWN_CHARS)
            )
        );
        let excerpt = Excerpt::of(&long);
        assert_eq!(excerpt.bytes, 3_500_000);
        assert!(excerpt.plain().starts_with(&"n".repeat(SHOWN_CHARS)));
        // Cut at a character, not a byte.
        let wide = "é".repeat(SHOWN_CHARS + 1);
        assert_eq!(Excerpt::of(&wide).start, "é".repeat(SHOWN_CHARS));
        assert_eq!(Excerpt::of(&"é".repeat(SHOWN_CHARS)).sha256, None);
    }
}
