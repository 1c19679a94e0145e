//! Libraries called inside this process, one input at a time: a panic is caught and recorded
//! as that input's crash, with its message, so one library's bug costs one answer, not a
//! batch, and does not scribble over the progress bar.

use std::cell::{Cell, RefCell};
use std::panic::{self, catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use super::Implementation;
use crate::outcome::Outcome;

/// A library adapter: its identity and the function that answers one input.
pub struct InProcess {
    /// The name in signatures and vectors.
    pub name: &'static str,
    /// The crate as Cargo.lock names it.
    pub krate: &'static str,
    /// The version pinned in Cargo.lock.
    pub version: &'static str,
    /// The independence group.
    pub group: &'static str,
    /// Answers one input.
    pub answer: fn(&[u8]) -> Outcome,
}

impl InProcess {
    /// The core itself, answering a family's inputs with `answer`.
    pub fn core(answer: fn(&[u8]) -> Outcome) -> InProcess {
        InProcess {
            name: "core",
            krate: "canonfuzz-core",
            version: env!("CARGO_PKG_VERSION"),
            group: super::CORE_GROUP,
            answer,
        }
    }
}

impl Implementation for InProcess {
    fn name(&self) -> &str {
        self.name
    }

    fn version(&self) -> String {
        self.version.to_string()
    }

    fn group(&self) -> &str {
        self.group
    }

    fn uses(&self) -> Option<String> {
        let lock = include_str!("../../../Cargo.lock");
        let crates = super::crypto_dependencies(lock, self.krate, Some(self.version));
        (!crates.is_empty()).then(|| crates.join(", "))
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        inputs
            .iter()
            .map(|input| {
                guarded(|| (self.answer)(input))
                    .unwrap_or_else(|message| Outcome::Crashed(format!("panicked: {message}")))
            })
            .collect()
    }
}

thread_local! {
    /// Whether this thread is inside an adapter call, where panics are recorded, not printed.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    /// The message of the last panic recorded on this thread.
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Runs `call`, catching a panic as its message. While the call runs, this thread's panics are
/// recorded, not reported by the process's panic hook — which under a fuzzer aborts the
/// process, so a third-party library's panic would otherwise look like the core's.
pub fn guarded<T>(call: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if GUARDED.with(Cell::get) {
                LAST_PANIC.with(|last| *last.borrow_mut() = info.to_string());
            } else {
                default(info);
            }
        }));
    });
    GUARDED.with(|g| g.set(true));
    let outcome = catch_unwind(AssertUnwindSafe(call));
    GUARDED.with(|g| g.set(false));
    outcome.map_err(|_| LAST_PANIC.with(|last| last.take()))
}

/// A verifier's verdict as an outcome: accepted (with what it returns), or rejected with a
/// kind (third parties' reasons are not compared, so they reject as `other`).
pub fn verdict<E>(result: Result<Vec<u8>, E>, kind: impl Fn(E) -> String) -> Outcome {
    match result {
        Ok(bytes) => Outcome::Ok(bytes),
        Err(e) => Outcome::Rejected(kind(e)),
    }
}

/// The kind every third-party rejection gets.
pub fn other<E>(_: E) -> String {
    "other".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_costs_one_answer() {
        let imp = InProcess {
            name: "panics-on-empty",
            krate: "none",
            version: "0",
            group: "test",
            answer: |input| {
                assert!(!input.is_empty(), "empty");
                Outcome::Ok(input.to_vec())
            },
        };
        let out = imp.run_batch(&[b"a", b"", b"b"]);
        assert_eq!(out[0], Outcome::Ok(b"a".to_vec()));
        assert!(matches!(&out[1], Outcome::Crashed(m) if m.contains("empty")));
        assert_eq!(out[2], Outcome::Ok(b"b".to_vec()));
    }
}
