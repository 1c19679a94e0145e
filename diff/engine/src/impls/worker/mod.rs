//! Implementations in other runtimes, run as long-lived worker processes that answer one
//! input per line, in batches, over the worker protocol (README, "Testing your own
//! implementation"): the harness's first line asks which form the worker speaks; a worker of
//! protocol 1 says so, with its name and version, and then takes each input as base64, so
//! every byte travels; any other worker is spoken to in the plain form `canon --jsonl` uses,
//! one input per line, which cannot carry a line feed.
//!
//! Their dependencies are pinned (`oracles/node/package-lock.json`, `oracles/python/
//! requirements.txt` with hashes) and installed by the harness itself on first use. A worker
//! that crashes, hangs or answers garbage is restarted; the input it was on is recorded as
//! crashed or timed out, and the rest of the batch goes on.

mod pool;
mod protocol;
mod runtime;

pub use runtime::{readiness, Readiness};

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering as AtomicOrdering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::outcome::Outcome;
use canonfuzz_props::impls::Implementation;

use pool::{poisoned, with_stderr, Pool, Process};
pub use protocol::{expressible, Hello};
use protocol::{hello, parse_answer, request, request_len, GARBAGE, SPENT};
pub(super) use runtime::Runtime;
use runtime::{prepared, Launch};

/// How long a worker may take over one input before it is restarted.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a batch waits for one of a worker's processes to come back before it starts
/// another. A library that keeps up answers a batch in milliseconds and keeps one process, so
/// its runtime starts and warms up once; one that takes a second a batch (an Ed25519 verifier
/// in plain JavaScript) gets a process per batch in flight.
const GROW_AFTER: Duration = Duration::from_secs(1);

/// An implementation run in a worker process.
pub struct WorkerImpl {
    /// The family whose inputs it answers, named in the protocol's first line.
    family: String,
    name: String,
    group: String,
    launch: Launch,
    timeout: Duration,
    pool: Mutex<Pool>,
    /// Signalled whenever a process returns to the pool or a place in it frees up.
    returned: Condvar,
    hello: OnceLock<Result<Hello, String>>,
    /// CPU time of the processes that have ended, read as each was ended.
    ended_cpu: Mutex<Duration>,
    /// Answer lines per input: one, or a host's one per library.
    width: usize,
    /// Garbage answers in a row, over every process: a worker that does not speak the
    /// protocol is taken out after [`GARBAGE_LIMIT`] rather than restarted on every input.
    garbage: AtomicU32,
    /// Why the worker was taken out, once it was.
    out: OnceLock<String>,
}

/// Garbage answers in a row after which a worker is taken out: more than any crash-prone
/// library gives (a crash restarts the process and is counted apart), few enough that a
/// command that does not speak the protocol stops a campaign within seconds.
pub const GARBAGE_LIMIT: u32 = 8;

impl WorkerImpl {
    pub(super) fn new(
        family: &str,
        name: &'static str,
        library: &'static str,
        group: &'static str,
        runtime: Runtime,
    ) -> WorkerImpl {
        WorkerImpl::launched(
            family,
            name,
            group,
            Launch::Library {
                runtime,
                script: runtime.script(),
                library,
                package: library,
            },
        )
    }

    /// The same worker, its version read as that of the pinned dependency `package`: a
    /// family's worker that computes with a library of its runtime (a JCS or signature
    /// library) is versioned by it.
    pub fn pinned_as(mut self, package: &'static str) -> WorkerImpl {
        if let Launch::Library { package: p, .. } = &mut self.launch {
            *p = package;
        }
        self
    }

    fn launched(family: &str, name: &str, group: &str, launch: Launch) -> WorkerImpl {
        WorkerImpl {
            family: family.to_string(),
            name: name.to_string(),
            group: group.to_string(),
            timeout: ANSWER_TIMEOUT,
            pool: Mutex::new(Pool::default()),
            returned: Condvar::new(),
            hello: OnceLock::new(),
            ended_cpu: Mutex::new(Duration::ZERO),
            garbage: AtomicU32::new(0),
            out: OnceLock::new(),
            width: match &launch {
                Launch::Host { libraries, .. } => libraries.len(),
                Launch::Library { .. } | Launch::Command(_) => 1,
            },
            launch,
        }
    }

    /// The same worker running another script, with another time limit per answer: how the
    /// restart logic is tested against workers that crash, hang or answer garbage on purpose.
    pub fn with_script(mut self, script: PathBuf, timeout: Duration) -> WorkerImpl {
        if let Launch::Library { script: s, .. } | Launch::Host { script: s, .. } = &mut self.launch
        {
            *s = script;
        }
        self.timeout = timeout;
        self
    }

    /// What the worker said of itself, from the first process started.
    pub fn hello(&self) -> Result<Hello, String> {
        self.hello
            .get_or_init(|| {
                let process = self.checkout()?;
                let hello = process.hello.clone();
                self.give_back(process);
                Ok(hello)
            })
            .clone()
    }

    fn runtime(&self) -> Option<Runtime> {
        match &self.launch {
            Launch::Library { runtime, .. } | Launch::Host { runtime, .. } => Some(*runtime),
            Launch::Command(_) => None,
        }
    }
}

/// What a worker's version says of its runtime when that cannot run here
/// (`canonfuzz setup` says why).
pub const NOT_SET_UP: &str = "not set up";

/// The crate a library of the Rust worker is: the JWS verifier named for its backend is
/// jsonwebtoken.
fn rust_crate(library: &str) -> &str {
    library.strip_suffix("-aws_lc_rs").unwrap_or(library)
}

/// An implementation outside the harness: `command`, run by `sh -c`, speaking the worker
/// protocol, named `name`, voting in `group` and answering inputs of `family`.
pub fn external(family: &str, name: &str, group: &str, command: &str) -> WorkerImpl {
    WorkerImpl::launched(family, name, group, Launch::Command(command.to_string()))
}

/// The libraries of `runtime`'s worker program in one process, which answers each input once
/// per library, in this order.
pub(super) fn hosting(family: &str, libraries: Vec<&'static str>, runtime: Runtime) -> WorkerImpl {
    let name = libraries.join(", ");
    WorkerImpl::launched(
        family,
        &name,
        "",
        Launch::Host {
            runtime,
            script: runtime.script(),
            libraries,
        },
    )
}

/// npm library (or Node built-in) `library` of `family` in a Node worker, voting in `group`.
pub fn node(
    family: &str,
    name: &'static str,
    library: &'static str,
    group: &'static str,
) -> WorkerImpl {
    WorkerImpl::new(family, name, library, group, Runtime::Node)
}

/// Rust library `library` of `family` in the isolated Rust worker, voting in `group`.
pub fn rust(
    family: &str,
    name: &'static str,
    library: &'static str,
    group: &'static str,
) -> WorkerImpl {
    WorkerImpl::new(family, name, library, group, Runtime::Rust)
}

/// PyPI library `library` of `family` in a Python worker, voting in `group`.
pub fn python(
    family: &str,
    name: &'static str,
    library: &'static str,
    group: &'static str,
) -> WorkerImpl {
    WorkerImpl::new(family, name, library, group, Runtime::Python)
}

impl WorkerImpl {
    /// Ends `process`, counting the CPU time it used; gives the end of its standard error.
    fn end(&self, process: Process) -> String {
        if let (Some(used), Ok(mut ended)) = (process.cpu(), self.ended_cpu.lock()) {
            *ended += used;
        }
        let stderr = process.kill();
        self.release_place();
        stderr
    }

    /// A process for one batch: an idle one, or the first, or a new one once the batch has
    /// waited [`GROW_AFTER`] for one to come back.
    fn checkout(&self) -> Result<Process, String> {
        let mut pool = self.pool.lock().map_err(poisoned)?;
        let asked = Instant::now();
        loop {
            if let Some(process) = pool.idle.pop() {
                return Ok(process);
            }
            let waited = asked.elapsed();
            if pool.running == 0 || waited >= GROW_AFTER {
                pool.running += 1;
                drop(pool);
                let spawned = Process::spawn(&self.launch, &hello(&self.family), self.timeout);
                if spawned.is_err() {
                    self.release_place();
                }
                return spawned;
            }
            pool = self
                .returned
                .wait_timeout(pool, GROW_AFTER.saturating_sub(waited))
                .map_err(poisoned)?
                .0;
        }
    }

    /// Returns a process that answered its batch to the pool, for the next batch.
    fn give_back(&self, process: Process) {
        if let Ok(mut pool) = self.pool.lock() {
            pool.idle.push(process);
        }
        self.returned.notify_one();
    }

    /// Counts a process that ended, or never started, out of the pool.
    fn release_place(&self) {
        if let Ok(mut pool) = self.pool.lock() {
            pool.running = pool.running.saturating_sub(1);
        }
        self.returned.notify_one();
    }

    /// Counts a failed answer towards taking the worker out when it was garbage, and takes it
    /// out at the [`GARBAGE_LIMIT`]th in a row.
    fn count_garbage(&self, why: &str) {
        if !why.starts_with(GARBAGE) {
            self.garbage.store(0, AtomicOrdering::Relaxed);
            return;
        }
        if self.garbage.fetch_add(1, AtomicOrdering::Relaxed) + 1 >= GARBAGE_LIMIT {
            let _ = self.out.set(format!(
                "it answered {GARBAGE_LIMIT} inputs in a row with lines that are not the worker protocol (the last: {}); check that the command speaks it (docs/your-implementation.md)",
                why.strip_prefix(GARBAGE).unwrap_or(why).trim_start_matches(':').trim()
            ));
        }
    }

    /// Runs inputs the worker's form of the protocol can carry, restarting the worker after a
    /// crash or hang; `width` outcomes an input, in order. An input the worker fails on fails
    /// whole: the answers it had from the worker so far are dropped.
    fn run_expressible(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        let width = self.width;
        let mut outcomes = Vec::with_capacity(inputs.len() * width);
        while outcomes.len() < inputs.len() * width {
            if self.out.get().is_some() {
                outcomes.resize(inputs.len() * width, Outcome::Unsupported);
                break;
            }
            let rest = inputs.get(outcomes.len() / width..).unwrap_or_default();
            let mut process = match self.checkout() {
                Ok(p) => p,
                Err(e) => {
                    outcomes.resize(inputs.len() * width, Outcome::Crashed(e));
                    break;
                }
            };
            let framed = process.hello.framed;
            let mut batch = Vec::with_capacity(rest.iter().map(|i| request_len(i, framed)).sum());
            for input in rest {
                request(input, framed, &mut batch);
            }
            let writer_ok = process
                .stdin
                .write_all(&batch)
                .and_then(|()| process.stdin.flush())
                .is_ok();
            // Set when the process fails: with the failed input's outcome, or none when
            // nothing could be written and the input is to be tried again.
            let mut failure: Option<Option<Outcome>> = (!writer_ok).then_some(None);
            'inputs: for _ in rest {
                for _ in 0..width {
                    let failed = match process.answers.next(self.timeout) {
                        Ok(line) => match parse_answer(line) {
                            Outcome::Crashed(why) => {
                                self.count_garbage(&why);
                                Outcome::Crashed(why)
                            }
                            outcome => {
                                self.garbage.store(0, AtomicOrdering::Relaxed);
                                outcomes.push(outcome);
                                continue;
                            }
                        },
                        Err(RecvTimeoutError::Timeout) => Outcome::TimedOut,
                        Err(RecvTimeoutError::Disconnected) => {
                            Outcome::Crashed("the worker process exited".to_string())
                        }
                    };
                    failure = Some(Some(failed));
                    break 'inputs;
                }
            }
            match failure {
                None => self.give_back(process),
                Some(failed) => {
                    let stderr = self.end(process);
                    outcomes.truncate(outcomes.len() - outcomes.len() % width);
                    let failed = match failed {
                        Some(Outcome::Crashed(why)) => {
                            Some(Outcome::Crashed(with_stderr(&why, &stderr)))
                        }
                        other => other,
                    };
                    if let Some(failed) = failed {
                        outcomes.extend(std::iter::repeat_n(failed, width));
                    }
                }
            }
        }
        outcomes
    }

    /// Every input's outcomes, `width` of them an input; an input the worker's form of the
    /// protocol cannot carry is unsupported, and all are when the worker cannot run.
    pub(super) fn run_flat(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        let width = self.width;
        let framed = match self.available().and_then(|()| self.hello()) {
            Ok(hello) => hello.framed,
            Err(_) => return vec![Outcome::Unsupported; inputs.len() * width],
        };
        let carried = |input: &[u8]| framed || expressible(input);
        let sendable: Vec<&[u8]> = inputs.iter().copied().filter(|i| carried(i)).collect();
        let mut answers = self.run_expressible(&sendable).into_iter();
        let mut outcomes = Vec::with_capacity(inputs.len() * width);
        for input in inputs {
            for _ in 0..width {
                outcomes.push(if carried(input) {
                    answers
                        .next()
                        .unwrap_or(Outcome::Crashed("no answer".to_string()))
                } else {
                    Outcome::Unsupported
                });
            }
        }
        outcomes
    }

    /// Per process waiting in the pool, its CPU time and what it says each library it hosts
    /// has taken (`{"canonfuzz":"spent"}`), in milliseconds. A process that does not say is
    /// ended, its time counted with [`WorkerImpl::ended`]'s: an answer it gave late would be
    /// read as the next batch's.
    pub(super) fn spent(&self) -> Vec<(Duration, Vec<f64>)> {
        #[derive(Deserialize)]
        struct Spent {
            spent: Vec<f64>,
        }
        let waiting: Vec<Process> = match self.pool.lock() {
            Ok(mut pool) => pool.idle.drain(..).collect(),
            Err(_) => return Vec::new(),
        };
        let mut said = Vec::new();
        for mut process in waiting {
            let asked = process
                .stdin
                .write_all(SPENT)
                .and_then(|()| process.stdin.flush());
            let spent = asked
                .ok()
                .and_then(|()| process.answers.next(self.timeout).ok())
                .and_then(|line| serde_json::from_slice::<Spent>(line).ok())
                .map(|s| s.spent)
                .filter(|spent| spent.len() == self.width);
            match spent {
                Some(spent) => {
                    // A process whose time cannot be read is kept, and costed at nothing.
                    if let Some(cpu) = process.cpu() {
                        said.push((cpu, spent));
                    }
                    self.give_back(process);
                }
                None => {
                    self.end(process);
                }
            }
        }
        said
    }

    /// The CPU time of the processes that have ended.
    pub(super) fn ended(&self) -> Duration {
        self.ended_cpu.lock().map(|d| *d).unwrap_or_default()
    }
}

impl Implementation for WorkerImpl {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> String {
        let (runtime, library, package) = match &self.launch {
            Launch::Library {
                runtime,
                library,
                package,
                ..
            } => (*runtime, *library, *package),
            Launch::Host { libraries, .. } => return libraries.join(", "),
            Launch::Command(_) => {
                return match self.hello() {
                    Ok(Hello {
                        version: Some(version),
                        ..
                    }) => version,
                    Ok(_) => "unknown (plain protocol)".to_string(),
                    Err(_) => "did not start".to_string(),
                }
            }
        };
        let pinned = match runtime {
            Runtime::Node => std::fs::read_to_string(runtime.dir().join("package.json"))
                .ok()
                .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
                .and_then(|v| v["dependencies"][package].as_str().map(str::to_string))
                .or_else(|| (library == "crypto").then(|| "built-in".to_string())),
            Runtime::Python => std::fs::read_to_string(runtime.dir().join("requirements.txt"))
                .ok()
                .and_then(|text| {
                    text.lines().find_map(|l| {
                        l.strip_prefix(&format!("{package}=="))
                            .map(|v| v.split_whitespace().next().unwrap_or_default().to_string())
                    })
                }),
            Runtime::Rust => std::fs::read_to_string(runtime.dir().join("Cargo.lock"))
                .ok()
                .and_then(|text| {
                    let krate = rust_crate(library);
                    let entry = format!("name = \"{krate}\"\nversion = \"");
                    let at = text.find(&entry)? + entry.len();
                    text.get(at..)?.split('"').next().map(str::to_string)
                }),
        };
        let runtime = prepared(runtime).unwrap_or_else(|_| NOT_SET_UP.to_string());
        format!(
            "{} ({runtime})",
            pinned.unwrap_or_else(|| "unknown".to_string())
        )
    }

    fn uses(&self) -> Option<String> {
        if let Launch::Library {
            runtime: Runtime::Rust,
            library,
            ..
        } = &self.launch
        {
            let lock = std::fs::read_to_string(Runtime::Rust.dir().join("Cargo.lock")).ok()?;
            let crates =
                canonfuzz_props::impls::crypto_dependencies(&lock, rust_crate(library), None);
            return (!crates.is_empty()).then(|| crates.join(", "));
        }
        self.available().ok()?;
        self.hello().ok()?.uses
    }

    fn driven(&self) -> Option<String> {
        self.command()
            .map(|line| format!("`{line}`, over the worker protocol"))
    }

    fn command(&self) -> Option<String> {
        match &self.launch {
            Launch::Command(line) => Some(line.clone()),
            Launch::Library { .. } | Launch::Host { .. } => None,
        }
    }

    fn group(&self) -> &str {
        &self.group
    }

    fn taken_out(&self) -> Option<String> {
        self.out.get().cloned()
    }

    fn available(&self) -> Result<(), String> {
        if let Some(runtime) = self.runtime() {
            prepared(runtime)?;
        }
        self.hello().map(|_| ())
    }

    fn in_process(&self) -> bool {
        false
    }

    /// The CPU time of every process started for it, those ended and those still running: for
    /// a library of the harness's own workers, whose process is the runtime itself. A command
    /// of the user's may run the implementation in a child of its shell, whose time is not
    /// counted, so none is given for it.
    fn cpu(&self) -> Option<Duration> {
        if matches!(self.launch, Launch::Command(_)) {
            return None;
        }
        let ended = *self.ended_cpu.lock().ok()?;
        let pool = self.pool.lock().ok()?;
        pool.idle
            .iter()
            .try_fold(ended, |sum, process| Some(sum + process.cpu()?))
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        self.run_flat(inputs)
    }
}

impl Drop for WorkerImpl {
    /// Ends every process left in the pool. Nothing will read their standard error now, so
    /// each is killed and reaped without waiting for its reader to see the pipe close: a
    /// campaign's end waits on none of them.
    fn drop(&mut self) {
        if let Ok(mut pool) = self.pool.lock() {
            let mut ending: Vec<Process> = pool.idle.drain(..).collect();
            for process in &mut ending {
                let _ = process.child.kill();
            }
            for mut process in ending {
                let _ = process.child.wait();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::process::Stdio;

    use protocol::read_hello;

    #[test]
    fn the_builtin_workers_load_the_family_the_first_line_names() {
        // Each runtime's worker takes a library from the family its first line names, and
        // refuses, saying why, a library of another family or a first line without one.
        for (runtime, family, library, other) in [
            (Runtime::Node, "jcs", "canonicalize", "ed25519"),
            (Runtime::Python, "merkle", "pymerkle", "jcs"),
            (Runtime::Rust, "jws", "josekit", "jcs"),
        ] {
            runtime.prepare().unwrap();
            let ask = |first: &str| {
                let mut child = runtime
                    .command(&runtime.script())
                    .arg(library)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                let mut stdin = child.stdin.take().unwrap();
                stdin.write_all(format!("{first}\n").as_bytes()).unwrap();
                drop(stdin);
                child.wait_with_output().unwrap()
            };
            let greeted = ask(&hello(family));
            assert!(greeted.status.success(), "{library}: {greeted:?}");
            let said = read_hello(String::from_utf8_lossy(&greeted.stdout).trim().as_bytes());
            assert!(said.framed, "{library}: {greeted:?}");
            for (first, why) in [
                (hello(other), "unknown library"),
                (r#"{"canonfuzz":1}"#.to_string(), "family"),
                (hello("../jcs"), "family"),
            ] {
                let refused = ask(&first);
                let stderr = String::from_utf8_lossy(&refused.stderr);
                assert_eq!(
                    refused.status.code(),
                    Some(2),
                    "{library}, {first}: {stderr}"
                );
                assert!(stderr.contains(why), "{library}, {first}: {stderr}");
            }
        }
    }

    #[test]
    fn the_builtin_workers_read_a_request_of_any_json_shape() {
        // The harness's own shape is read without a JSON parser; any other spelling of the
        // same request must mean the same, and a request that is none is answered as such.
        let lines = concat!(
            "{\"canonfuzz\":1,\"family\":\"jcs\"}\n",
            "{\"input\":\"WzFd\"}\n",
            "{ \"input\" : \"WzFd\" }\n",
            "{\"input\":\"WzFd\",\"x\":\"y\"}\n",
            "{\"input\":\"Wz\\u0046d\"}\n",
            "{\"input\":1}\n",
            "{\"input\":\"WzFd\"\n",
        );
        // A host answers each request once per library, a refused one too.
        for (runtime, libraries) in [
            (Runtime::Node, &["canonicalize"][..]),
            (Runtime::Node, &["canonicalize", "json-canon"]),
            (Runtime::Python, &["rfc8785"]),
        ] {
            let library = libraries.join(",");
            let width = libraries.len();
            runtime.prepare().unwrap();
            let mut child = runtime
                .command(&runtime.script())
                .args(libraries)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(lines.as_bytes())
                .unwrap();
            let out = child.wait_with_output().unwrap();
            let answers: Vec<&[u8]> = out.stdout.split(|&b| b == b'\n').collect();
            assert_eq!(
                answers.len(),
                2 + 6 * width,
                "{library}: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            let outcomes: Vec<Outcome> = answers
                .iter()
                .skip(1)
                .take(6 * width)
                .map(|a| parse_answer(a))
                .collect();
            let (same, refused) = outcomes.split_at(4 * width);
            for (i, same) in same.iter().enumerate() {
                assert_eq!(same, &Outcome::Ok(b"[1]".to_vec()), "{library}, answer {i}");
            }
            for refused in refused {
                assert!(
                    matches!(refused, Outcome::Crashed(why) if why.contains("not a protocol 1 request")),
                    "{library}: {refused:?}"
                );
            }
        }
    }

    #[test]
    fn the_builtin_workers_say_what_their_verifiers_compute_with() {
        let crypto = node("ed25519", "node-crypto", "crypto", "openssl");
        let uses = crypto.uses().expect("node:crypto names its OpenSSL");
        assert!(uses.starts_with("node:crypto, OpenSSL "), "{uses}");
        assert_eq!(node("jcs", "n", "canonicalize", "v8").uses(), None);
        let noble = node("ed25519", "noble-ed25519", "@noble/ed25519", "noble")
            .uses()
            .unwrap();
        assert!(noble.ends_with(&format!("SHA-512 from {uses}")), "{noble}");
        let python = python("jws", "jwcrypto", "jwcrypto", "jwcrypto");
        assert!(python.uses().unwrap().starts_with("cryptography "));
        let rust = rust("jws", "josekit", "josekit", "josekit");
        assert!(rust.uses().unwrap().starts_with("openssl "));
    }

    #[test]
    fn a_worker_is_costed_by_its_processes_cpu_time() {
        let worker = python("jcs", "python-rfc8785", "rfc8785", "cpython");
        let inputs: Vec<Vec<u8>> = (0..3_000)
            .map(|i| format!("{{\"b\":[{i}.5e3,\"\\u00e9\"],\"a\":{i}}}").into_bytes())
            .collect();
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let started = std::time::Instant::now();
        let outcomes = worker.run_batch(&refs);
        let waited = started.elapsed();
        assert!(outcomes.iter().all(|o| matches!(o, Outcome::Ok(_))));
        let cpu = worker
            .cpu()
            .expect("a worker's processes are read from /proc");
        // Starting CPython and canonicalizing 3,000 documents take well over 10 ms of CPU, and
        // one process cannot use more CPU than the wall time it ran.
        assert!(cpu >= Duration::from_millis(10), "{cpu:?}");
        assert!(
            cpu <= waited + Duration::from_secs(1),
            "{cpu:?} in {waited:?}"
        );
        assert_eq!(external("jcs", "mine", "mine", "cat").cpu(), None);
    }

    /// The test worker, answering `sleep:MS` after MS milliseconds.
    fn sleeper() -> WorkerImpl {
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/faulty_worker.py");
        python("jcs", "sleeper", "none", "cpython").with_script(script, Duration::from_secs(10))
    }

    /// Runs `batches` batches of the one input `line` at once; the processes started for them.
    fn processes_for(worker: &WorkerImpl, batches: usize, line: &str) -> usize {
        std::thread::scope(|scope| {
            for _ in 0..batches {
                scope.spawn(|| {
                    let answers = worker.run_batch(&[line.as_bytes()]);
                    assert_eq!(answers, [Outcome::Ok(line.as_bytes().to_vec())]);
                });
            }
        });
        worker.pool.lock().map(|p| p.idle.len()).unwrap_or_default()
    }

    #[test]
    fn a_worker_that_keeps_up_keeps_one_process() {
        // Three batches of 0.3 s each: the last waits 0.6 s, less than GROW_AFTER.
        assert_eq!(processes_for(&sleeper(), 3, "sleep:300"), 1);
    }

    #[test]
    fn a_worker_that_falls_behind_gets_a_process_per_waiting_batch() {
        // Two batches of 1.5 s: the second waits GROW_AFTER, then starts its own process.
        assert_eq!(processes_for(&sleeper(), 2, "sleep:1500"), 2);
    }

    #[test]
    fn a_dropped_worker_leaves_no_process_behind() {
        let worker = sleeper();
        assert_eq!(processes_for(&worker, 2, "sleep:1500"), 2);
        let pids: Vec<u32> = worker
            .pool
            .lock()
            .map(|p| p.idle.iter().map(|process| process.child.id()).collect())
            .unwrap_or_default();
        drop(worker);
        // Killed and reaped: not even a zombie is left in the process table.
        for pid in pids {
            assert!(
                !Path::new(&format!("/proc/{pid}")).exists(),
                "process {pid} outlived its worker"
            );
        }
    }
}
