//! AddressSanitizer's defaults for every fuzz target; an `ASAN_OPTIONS` variable overrides
//! them. ASan keeps the call stack of each allocation and each free, one copy per distinct
//! stack, for as long as the process runs, and the readers these targets drive recurse, so
//! nearly every new nesting of a document adds stacks. With ASan's 30 frames `jcs_diff`
//! reached libFuzzer's 2 GB limit on them alone, and with 15 it still grew; with one frame
//! kept (ASan's least) it holds steady. A report still gives the whole stack of the bad
//! access; to see where the memory was allocated and freed, replay the artifact with
//! `ASAN_OPTIONS=malloc_context_size=30`.

/// Read by ASan as it starts.
#[no_mangle]
pub extern "C" fn __asan_default_options() -> *const std::ffi::c_char {
    c"malloc_context_size=1".as_ptr()
}
