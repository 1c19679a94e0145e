//! The last value a thread computed, kept with the input it was computed from: callers that
//! ask about the same input in turn (a verdict's policies, the serde_json crates answering one
//! batch) share one computation instead of each making it again.

use std::cell::RefCell;
use std::rc::Rc;

/// A value and the input it was computed from.
pub(crate) struct Kept<K, V> {
    input: K,
    value: Rc<V>,
}

/// A thread's kept value, replaced by the next computation from another input.
pub(crate) type Slot<K, V> = RefCell<Option<Kept<K, V>>>;

/// The value `slot` keeps when `is_input` recognizes its input; otherwise `compute()`, kept in
/// the slot with `input()` in place of what was there.
pub(crate) fn kept_or<K, V>(
    slot: &Slot<K, V>,
    is_input: impl FnOnce(&K) -> bool,
    input: impl FnOnce() -> K,
    compute: impl FnOnce() -> V,
) -> Rc<V> {
    let mut slot = slot.borrow_mut();
    if let Some(kept) = slot.as_ref().filter(|kept| is_input(&kept.input)) {
        return Rc::clone(&kept.value);
    }
    let value = Rc::new(compute());
    *slot = Some(Kept {
        input: input(),
        value: Rc::clone(&value),
    });
    value
}
