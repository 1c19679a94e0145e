//! Reading documents nested past serde_json's limit. serde_json refuses more than 128 levels,
//! where the core accepts up to [`canonfuzz_core::jcs::DEFAULT_MAX_DEPTH`]; the properties that
//! take serde_json as their oracle read such documents again without the limit, on a stack
//! that holds serde_json's recursion (and the recursive drop of the value it builds).

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{self, SendError, Sender};
use std::sync::Mutex;

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

/// Whether serde_json refused a text for nesting deeper than it reads, rather than for
/// breaking the grammar.
pub(crate) fn too_deep(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("recursion limit exceeded")
}

/// `read(texts, false)`, and when serde_json refuses it for its depth, `read(texts, true)` on
/// the deep-stack thread, given copies of the texts. `Err` when that thread cannot be had.
pub(crate) fn read_at_any_depth<const N: usize, T: Send + 'static>(
    texts: [&[u8]; N],
    read: impl Fn([&[u8]; N], bool) -> Result<T, serde_json::Error> + Send + 'static,
) -> Result<Result<T, serde_json::Error>, String> {
    match read(texts, false) {
        Err(e) if too_deep(&e) => {
            let owned = texts.map(<[u8]>::to_vec);
            on_deep_stack(move || read(owned.each_ref().map(Vec::as_slice), true))
        }
        read => Ok(read),
    }
}

/// Work for the deep-stack thread.
type Job = Box<dyn FnOnce() + Send>;

/// Where jobs for the deep-stack thread are sent; `None` until the first deep reading.
static DEEP_THREAD: Mutex<Option<Sender<Job>>> = Mutex::new(None);

/// Runs `job` on a thread with a [`DEEP_STACK`] stack, kept from one call to the next: a
/// thread started for each reading spent longer mapping its stack and faulting in the pages
/// it touched than reading. A job that panics is reported to its caller alone.
pub fn on_deep_stack<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let (answer, answered) = mpsc::sync_channel(1);
    let job: Job = Box::new(move || {
        let _ = answer.send(job());
    });
    {
        let mut thread = DEEP_THREAD
            .lock()
            .map_err(|_| "the deep-stack thread's lock is poisoned".to_string())?;
        let unsent = match thread.as_ref() {
            Some(sender) => sender.send(job).err().map(|SendError(job)| job),
            None => Some(job),
        };
        if let Some(job) = unsent {
            let (sender, jobs) = mpsc::channel::<Job>();
            std::thread::Builder::new()
                .name("deep-reading".into())
                .stack_size(DEEP_STACK)
                .spawn(move || {
                    for job in jobs {
                        // A panic drops the job's answer, which its caller is told of.
                        let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
                    }
                })
                .map_err(|e| {
                    format!("cannot start a thread to read a deeply nested document: {e}")
                })?;
            sender
                .send(job)
                .map_err(|_| "the deep-stack thread stopped before its first job".to_string())?;
            *thread = Some(sender);
        }
    }
    answered
        .recv()
        .map_err(|_| "reading a deeply nested document panicked".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::unmarked::{read_value, Repeats};

    #[test]
    fn a_document_past_the_limit_is_read_on_a_deep_stack() {
        let depth = canonfuzz_core::jcs::DEFAULT_MAX_DEPTH;
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let read = |[text]: [&[u8]; 1], unbounded| {
            read_value(text, unbounded, Repeats::LastWins).map(|_| unbounded)
        };
        assert!(too_deep(&read([deep.as_bytes()], false).unwrap_err()));
        assert!(matches!(
            read_at_any_depth([deep.as_bytes()], read),
            Ok(Ok(true))
        ));
        // A refusal for anything else is not retried.
        assert!(matches!(read_at_any_depth([b"[01]"], read), Ok(Err(e)) if !too_deep(&e)));
        // A reading that panics is reported, and the thread goes on to the next.
        let panics = |[text]: [&[u8]; 1], unbounded: bool| {
            assert!(!unbounded, "a planted panic");
            read_value(text, unbounded, Repeats::LastWins).map(|_| unbounded)
        };
        let why = read_at_any_depth([deep.as_bytes()], panics).unwrap_err();
        assert!(why.contains("panicked"), "{why}");
        assert!(matches!(
            read_at_any_depth([deep.as_bytes()], read),
            Ok(Ok(true))
        ));
    }
}
