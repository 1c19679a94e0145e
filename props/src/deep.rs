//! Reading documents nested past serde_json's limit. serde_json refuses more than 128 levels,
//! where the core accepts up to [`canonfuzz_core::jcs::DEFAULT_MAX_DEPTH`]; the properties that
//! take serde_json as their oracle read such documents again without the limit, on a stack
//! that holds serde_json's recursion (and the recursive drop of the value it builds).

use serde::Deserialize;
use serde_json::Value;

/// Stack for one deep reading: serde_json recurses once a level, in frames that a
/// sanitizer's build makes several times larger. Only the pages touched are committed.
const DEEP_STACK: usize = 1 << 30;

/// serde_json reading `text`, within its nesting limit or, when `unbounded`, without one.
pub(crate) fn reader(
    text: &[u8],
    unbounded: bool,
) -> serde_json::Deserializer<serde_json::de::SliceRead<'_>> {
    let mut reader = serde_json::Deserializer::from_slice(text);
    if unbounded {
        reader.disable_recursion_limit();
    }
    reader
}

/// `text` as serde_json's `from_slice` reads it into a value (nothing may follow it), within
/// its nesting limit or, when `unbounded`, without one.
pub(crate) fn read_value(text: &[u8], unbounded: bool) -> Result<Value, serde_json::Error> {
    let mut reader = reader(text, unbounded);
    let value = Value::deserialize(&mut reader)?;
    reader.end()?;
    Ok(value)
}

/// Whether serde_json refused a text for nesting deeper than it reads, rather than for
/// breaking the grammar.
pub(crate) fn too_deep(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("recursion limit exceeded")
}

/// `read(false)`, and when serde_json refuses it for its depth, `read(true)` on a thread of
/// its own with the stack that takes. `Err` when that thread cannot be had.
pub(crate) fn read_at_any_depth<T: Send>(
    read: impl Fn(bool) -> Result<T, serde_json::Error> + Sync,
) -> Result<Result<T, serde_json::Error>, String> {
    match read(false) {
        Err(e) if too_deep(&e) => std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(DEEP_STACK)
                .spawn_scoped(scope, || read(true))
                .map_err(|e| {
                    format!("cannot start a thread to read a deeply nested document: {e}")
                })?
                .join()
                .map_err(|_| "reading a deeply nested document panicked".to_string())
        }),
        read => Ok(read),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_past_the_limit_is_read_on_a_deep_stack() {
        let depth = canonfuzz_core::jcs::DEFAULT_MAX_DEPTH;
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let read = |unbounded| read_value(deep.as_bytes(), unbounded).map(|_| unbounded);
        assert!(too_deep(&read(false).unwrap_err()));
        assert!(matches!(read_at_any_depth(read), Ok(Ok(true))));
        // A refusal for anything else is not retried.
        let broken = |unbounded: bool| -> Result<bool, serde_json::Error> {
            read_value(b"[01]", unbounded).map(|_| unbounded)
        };
        assert!(matches!(read_at_any_depth(broken), Ok(Err(e)) if !too_deep(&e)));
    }
}
