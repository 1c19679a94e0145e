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

#[test]
fn grammar_errors_outrank_i_json_rules() {
    assert_eq!(reject(b"[1e400, }").kind(), ErrorKind::Syntax);
    assert_eq!(reject(b"{\"a\":1,\"a\":2} x").kind(), ErrorKind::Syntax);
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
