//! Behaviour of the public API that the conformance vectors do not pin: positions, limits,
//! buffer handling and error precedence. Canonical outputs here are taken from RFC 8785's
//! text and examples.

use canonfuzz_core::jcs::*;

fn canon(input: &str) -> String {
    String::from_utf8(canonicalize(input.as_bytes()).unwrap()).unwrap()
}

fn reject(input: &[u8]) -> JcsError {
    canonicalize(input).unwrap_err()
}

#[test]
fn rfc_8785_section_3_2_4_example() {
    let input = r#"{
        "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
        "literals": [null, true, false]
    }"#;
    assert_eq!(
        canon(input),
        r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
    );
}

#[test]
fn integers_beyond_two_to_the_53_round_like_every_number() {
    assert_eq!(canon("9007199254740993"), "9007199254740992");
    assert_eq!(canon("-0"), "0");
    assert_eq!(canon("[-0.0,0e5]"), "[0,0]");
}

#[test]
fn thousand_levels_canonicalize() {
    let doc = format!("{}{}", "[".repeat(1000), "]".repeat(1000));
    assert_eq!(canon(&doc), doc);
    let doc = format!("{}1{}", r#"{"a":"#.repeat(1000), "}".repeat(1000));
    assert_eq!(canon(&doc), doc);
}

#[test]
fn a_million_brackets_end_in_a_clean_error() {
    let closed = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
    let e = reject(closed.as_bytes());
    assert_eq!(e.kind(), ErrorKind::DepthLimit);
    assert_eq!(e.offset(), DEFAULT_MAX_DEPTH);
    let open = "[".repeat(1_000_000);
    assert_eq!(reject(open.as_bytes()).kind(), ErrorKind::Syntax);
}

#[test]
fn depth_limit_is_configurable() {
    let mut c = Canonicalizer::new(Options { max_depth: 2 });
    assert!(c.canonicalize(b"[[1]]").is_ok());
    let e = c.canonicalize(b"[[[1]]]").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::DepthLimit, 2));
    assert!(c.canonicalize(b"[{\"a\":{}}]").is_err());
}

#[test]
fn errors_carry_kind_position_and_advice() {
    let e = reject(b"{\n  \"a\": 1,\n  \"\\u0061\": 2\n}");
    assert_eq!(e.kind(), ErrorKind::DuplicateKey);
    assert_eq!((e.line(), e.column(), e.offset()), (3, 3, 14));
    assert!(e.message().contains("duplicate member name \"a\""));
    assert!(e
        .to_string()
        .starts_with("error[duplicate_key] at line 3, column 3: "));

    let e = reject(b"[1,\n2,]");
    assert_eq!((e.kind(), e.line(), e.column()), (ErrorKind::Syntax, 2, 3));
    assert!(e.message().contains("found ']'"), "{}", e.message());
}

#[test]
fn each_kind_is_reported() {
    let cases: [(&[u8], ErrorKind, usize); 8] = [
        (b"[1 2]", ErrorKind::Syntax, 3),
        (b"[\"\xff\"]", ErrorKind::InvalidUtf8, 2),
        (b"\"\xc0\xaf\"", ErrorKind::InvalidUtf8, 1),
        (b"\"\xed\xa0\x80\"", ErrorKind::InvalidUtf8, 1),
        (b"[\"x\\ud800\"]", ErrorKind::LoneSurrogate, 3),
        (b"\"\\udc00\\ud800\"", ErrorKind::LoneSurrogate, 1),
        (b"{\"b\":1,\"a\":[1e400]}", ErrorKind::NumberOutOfRange, 12),
        (b"{\"a\":1,\"a\":2}", ErrorKind::DuplicateKey, 7),
    ];
    for (input, kind, offset) in cases {
        let e = reject(input);
        assert_eq!((e.kind(), e.offset()), (kind, offset), "{input:?}: {e}");
    }
}

/// A text that breaks an I-JSON rule, with the kind and offset of the error (a lone
/// surrogate's at its backslash), how to close it, and a later element or member that breaks
/// another rule.
struct Broken {
    prefix: &'static str,
    kind: ErrorKind,
    at: usize,
    closing: &'static str,
    another: &'static str,
}

/// One for each place the reader checks a rule: a number, a string and a member name, read
/// alone or after a comma in a run of elements or members; a duplicate name where its object
/// closes; nesting past a depth of 2. The strings start with an escaped quote, so that one
/// read again from anywhere but its opening quote would end early.
const BROKEN: [Broken; 8] = {
    const fn broken(prefix: &'static str, kind: ErrorKind, at: usize) -> Broken {
        let in_object = matches!(prefix.as_bytes(), [b'[', b'{', .., b'1']);
        Broken {
            prefix,
            kind,
            at,
            closing: if in_object { "}]" } else { "]" },
            another: if in_object { ",\"c\":1e400" } else { ",1e400" },
        }
    }
    [
        broken("[1e400", ErrorKind::NumberOutOfRange, 1),
        broken("[0,1e400", ErrorKind::NumberOutOfRange, 3),
        broken("[\"\\\"\\ud800\"", ErrorKind::LoneSurrogate, 4),
        broken("[\"a\",\"\\\"\\udc00\"", ErrorKind::LoneSurrogate, 8),
        broken("[{\"\\\"\\ud800\":1", ErrorKind::LoneSurrogate, 5),
        broken("[{\"b\":1,\"\\\"\\ud800\":1", ErrorKind::LoneSurrogate, 11),
        broken("[{\"a\":1,\"a\":2}", ErrorKind::DuplicateKey, 8),
        broken("[[[1]]", ErrorKind::DepthLimit, 2),
    ]
};

fn reject_at_depth_2(input: &str) -> (ErrorKind, usize) {
    let e = Canonicalizer::new(Options { max_depth: 2 })
        .canonicalize(input.as_bytes())
        .unwrap_err();
    (e.kind(), e.offset())
}

#[test]
fn the_first_rule_broken_is_reported_when_the_grammar_holds() {
    for b in BROKEN {
        let alone = format!("{}{}", b.prefix, b.closing);
        assert_eq!(reject_at_depth_2(&alone), (b.kind, b.at), "{alone}");
        let twice = format!("{}{}{}", b.prefix, b.another, b.closing);
        assert_eq!(reject_at_depth_2(&twice), (b.kind, b.at), "{twice}");
    }
}

#[test]
fn grammar_errors_outrank_i_json_rules() {
    // The module's order: a grammar error anywhere after the first broken rule is reported,
    // at the byte that breaks the grammar, whichever rule came first and wherever the reader
    // found it. Each tail goes wrong at the byte its offset gives.
    for b in BROKEN {
        let after_close = format!("{} 1", b.closing);
        let tails = [
            (" x", 1),
            (",]", 1),
            (after_close.as_str(), b.closing.len() + 1),
        ];
        for (tail, wrong_at) in tails {
            let input = format!("{}{}", b.prefix, tail);
            let expected = (ErrorKind::Syntax, b.prefix.len() + wrong_at);
            assert_eq!(reject_at_depth_2(&input), expected, "{input}");
        }
    }
    let e = reject(b"[1, 2,] \xff");
    assert_eq!((e.kind(), e.offset()), (ErrorKind::InvalidUtf8, 8));
}

#[test]
fn canonicalize_into_appends_and_leaves_the_buffer_on_error() {
    let mut out = b"prefix:".to_vec();
    canonicalize_into(b"{\"b\":1,\"a\":2}", &mut out).unwrap();
    assert_eq!(out, b"prefix:{\"a\":2,\"b\":1}");
    assert!(canonicalize_into(b"{\"b\":1,", &mut out).is_err());
    assert_eq!(out, b"prefix:{\"a\":2,\"b\":1}");
}

#[test]
fn a_canonicalizer_can_be_reused_after_an_error() {
    let mut c = Canonicalizer::default();
    assert!(c.canonicalize(b"{\"a\":{\"b\":1,").is_err());
    assert_eq!(
        c.canonicalize(b"{\"z\":{\"y\":1,\"x\":2},\"a\":0}")
            .unwrap(),
        b"{\"a\":0,\"z\":{\"x\":2,\"y\":1}}"
    );
}

#[test]
fn nested_objects_sort_independently() {
    assert_eq!(
        canon(r#"{"b":{"d":1,"c":[{"f":1,"e":2}]},"a":[3,{"h":0,"g":0}]}"#),
        r#"{"a":[3,{"g":0,"h":0}],"b":{"c":[{"e":2,"f":1}],"d":1}}"#
    );
}

#[test]
fn names_sort_by_utf16_code_units_after_unescaping() {
    // RFC 8785 §3.2.3: U+10000 (a surrogate pair) sorts before U+FF61.
    assert_eq!(
        canon(r#"{"\uff61":1,"\ud800\udc00":2,"\u0062":3,"a":4}"#),
        "{\"a\":4,\"b\":3,\"\u{10000}\":2,\"\u{ff61}\":1}"
    );
}
