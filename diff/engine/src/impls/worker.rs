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

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering as AtomicOrdering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::Deserialize;

use crate::outcome::{classify_message, Outcome};
use canonfuzz_props::impls::Implementation;

/// How long a worker may take over one input before it is restarted.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a batch waits for one of a worker's processes to come back before it starts
/// another. A library that keeps up answers a batch in milliseconds and keeps one process, so
/// its runtime starts and warms up once; one that takes a second a batch (an Ed25519 verifier
/// in plain JavaScript) gets a process per batch in flight.
const GROW_AFTER: Duration = Duration::from_secs(1);

/// The runtime a worker needs, and how to install its pinned dependencies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Runtime {
    Node,
    Python,
    /// Rust libraries that cannot share the harness's build (`oracles/rust`, built on first use).
    Rust,
}

impl Runtime {
    fn dir(self) -> PathBuf {
        let oracles = super::oracles::dir().unwrap_or_else(|_| super::oracles::location().0);
        oracles.join(match self {
            Runtime::Node => "node",
            Runtime::Python => "python",
            Runtime::Rust => "rust",
        })
    }

    /// The worker's script, or for Rust its binary.
    fn script(self) -> PathBuf {
        self.dir().join(match self {
            Runtime::Node => "worker.mjs",
            Runtime::Python => "worker.py",
            Runtime::Rust => "target/release/canonfuzz-rust-worker",
        })
    }

    /// The command that runs `script`.
    fn command(self, script: &Path) -> Command {
        match self {
            Runtime::Node => {
                let mut c = Command::new("node");
                c.arg(script);
                c
            }
            Runtime::Python => {
                let mut c = Command::new(self.dir().join(".venv/bin/python"));
                c.arg(script);
                c
            }
            Runtime::Rust => Command::new(script),
        }
    }

    /// Installs the pinned dependencies unless they already are; returns the runtime's
    /// version, or why the runtime cannot be used. Concurrent canonfuzz processes take turns
    /// through a lock file, so only one installs.
    fn prepare(self) -> Result<String, String> {
        super::oracles::dir()?;
        let dir = self.dir();
        let lock = std::fs::File::create(dir.join(".install.lock"))
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        lock.lock()
            .map_err(|e| format!("cannot lock {}: {e}", dir.display()))?;
        match self {
            Runtime::Node => prepare_node(&dir),
            Runtime::Python => prepare_python(&dir),
            Runtime::Rust => {
                let binary = self.script();
                if let Some(built_by) = super::rust_build::recorded(&dir, &binary) {
                    return Ok(built_by);
                }
                let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
                let runtime = version(Path::new("rustc"))?;
                run(Command::new(cargo)
                    .args([
                        "build",
                        "--release",
                        "--locked",
                        "--quiet",
                        "--manifest-path",
                    ])
                    .arg(dir.join("Cargo.toml"))
                    .arg("--target-dir")
                    .arg(dir.join("target")))?;
                super::rust_build::record(&dir, &binary, &runtime)?;
                Ok(runtime)
            }
        }
    }
}

/// What `program --version` prints, or why it cannot be run.
fn version(program: &Path) -> Result<String, String> {
    let out = Command::new(program)
        .arg("--version")
        .output()
        .map_err(|e| format!("{} not found ({e})", program.display()))?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    Ok(if text.is_empty() {
        String::from_utf8_lossy(&out.stderr).trim().to_string()
    } else {
        text
    })
}

/// Installs the Node workers' dependencies in `dir` from its lockfile, unless installed
/// from this very lockfile already; returns Node's version.
fn prepare_node(dir: &Path) -> Result<String, String> {
    let runtime = version(Path::new("node"))?;
    let stamp = dir.join("node_modules/.canonfuzz-package-lock.json");
    let wanted = std::fs::read(dir.join("package-lock.json")).map_err(|e| e.to_string())?;
    if std::fs::read(&stamp).ok().as_deref() != Some(wanted.as_slice()) {
        run(Command::new("npm")
            .args([
                "ci",
                "--ignore-scripts",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
            ])
            .current_dir(dir))?;
        std::fs::write(&stamp, &wanted).map_err(|e| e.to_string())?;
    }
    Ok(runtime)
}

/// Installs the Python workers' hash-checked requirements into a virtualenv in `dir`, unless
/// installed from these very requirements already; returns the virtualenv's Python version.
fn prepare_python(dir: &Path) -> Result<String, String> {
    let venv = dir.join(".venv");
    let stamp = venv.join("canonfuzz-requirements.txt");
    let wanted = std::fs::read(dir.join("requirements.txt")).map_err(|e| e.to_string())?;
    if std::fs::read(&stamp).ok().as_deref() != Some(wanted.as_slice()) {
        version(Path::new("python3"))?;
        run(Command::new("python3")
            .args(["-m", "venv", "--clear"])
            .arg(&venv))?;
        run(Command::new(venv.join("bin/pip"))
            .args([
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--require-hashes",
                "--only-binary",
                ":all:",
                "--no-deps",
                "-r",
                "requirements.txt",
            ])
            .current_dir(dir))?;
        std::fs::write(&stamp, &wanted).map_err(|e| e.to_string())?;
    }
    // The interpreter the workers run is the virtualenv's, asked directly: a `python3` on
    // the path may be another one since, or a version manager's script that takes longer to
    // answer than the worker takes to start.
    version(&venv.join("bin/python"))
}

fn run(command: &mut Command) -> Result<(), String> {
    let shown = format!("{command:?}");
    let out = command.output().map_err(|e| format!("{shown}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{shown} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Prepares each runtime once per process, whichever implementation asks first.
fn prepared(runtime: Runtime) -> Result<String, String> {
    static NODE: OnceLock<Result<String, String>> = OnceLock::new();
    static PYTHON: OnceLock<Result<String, String>> = OnceLock::new();
    static RUST: OnceLock<Result<String, String>> = OnceLock::new();
    let cell = match runtime {
        Runtime::Node => &NODE,
        Runtime::Python => &PYTHON,
        Runtime::Rust => &RUST,
    };
    cell.get_or_init(|| runtime.prepare()).clone()
}

/// The protocol's first line, which the harness sends before any input.
const HELLO: &str = r#"{"canonfuzz":1}"#;

/// How a worker process is started.
#[derive(Debug, Clone)]
enum Launch {
    /// A pinned library in one of the harness's own worker programs.
    Library {
        runtime: Runtime,
        script: PathBuf,
        library: &'static str,
        /// The dependency whose pinned version is the library's: the library itself unless
        /// it computes with another ([`WorkerImpl::pinned_as`]).
        package: &'static str,
    },
    /// Several libraries of one of the harness's worker programs in one process, which
    /// answers each input once per library, in this order.
    Host {
        runtime: Runtime,
        script: PathBuf,
        libraries: Vec<&'static str>,
    },
    /// A command given on the command line, run by `sh -c`.
    Command(String),
}

impl Launch {
    fn command(&self) -> Command {
        let (runtime, script, libraries) = match self {
            Launch::Library {
                runtime,
                script,
                library,
                ..
            } => (runtime, script, std::slice::from_ref(library)),
            Launch::Host {
                runtime,
                script,
                libraries,
            } => (runtime, script, libraries.as_slice()),
            Launch::Command(line) => {
                let mut command = Command::new("sh");
                command.arg("-c").arg(line);
                return command;
            }
        };
        let mut command = runtime.command(script);
        command.args(libraries).current_dir(runtime.dir());
        command
    }

    fn shown(&self) -> String {
        match self {
            Launch::Library { library, .. } => format!("the {library} worker"),
            Launch::Host { libraries, .. } => {
                format!("the worker hosting {}", libraries.join(", "))
            }
            Launch::Command(line) => format!("`{line}`"),
        }
    }
}

/// What a worker said of itself in answer to the protocol's first line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    /// Whether it speaks protocol 1 (inputs as base64) rather than the plain form.
    pub framed: bool,
    /// The implementation and its version, as a protocol-1 worker names them.
    pub version: Option<String>,
    /// What it computes with underneath (a crypto library and its version), if it says.
    pub uses: Option<String>,
}

/// An implementation run in a worker process.
pub struct WorkerImpl {
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
        name: &'static str,
        library: &'static str,
        group: &'static str,
        runtime: Runtime,
    ) -> WorkerImpl {
        WorkerImpl::launched(
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

    fn launched(name: &str, group: &str, launch: Launch) -> WorkerImpl {
        WorkerImpl {
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

/// The crate a library of the Rust worker is: the JWS verifier named for its backend is
/// jsonwebtoken.
fn rust_crate(library: &str) -> &str {
    library.strip_suffix("-aws_lc_rs").unwrap_or(library)
}

/// An implementation outside the harness: `command`, run by `sh -c`, speaking the worker
/// protocol, named `name` and voting in `group`.
pub fn external(name: &str, group: &str, command: &str) -> WorkerImpl {
    WorkerImpl::launched(name, group, Launch::Command(command.to_string()))
}

/// The libraries of `runtime`'s worker program in one process, which answers each input once
/// per library, in this order.
pub(super) fn hosting(libraries: Vec<&'static str>, runtime: Runtime) -> WorkerImpl {
    let name = libraries.join(", ");
    WorkerImpl::launched(
        &name,
        "",
        Launch::Host {
            runtime,
            script: runtime.script(),
            libraries,
        },
    )
}

/// npm library (or Node built-in) `library` in a Node worker, voting in `group`.
pub fn node(name: &'static str, library: &'static str, group: &'static str) -> WorkerImpl {
    WorkerImpl::new(name, library, group, Runtime::Node)
}

/// Rust library `library` in the isolated Rust worker, voting in `group`.
pub fn rust(name: &'static str, library: &'static str, group: &'static str) -> WorkerImpl {
    WorkerImpl::new(name, library, group, Runtime::Rust)
}

/// PyPI library `library` in a Python worker, voting in `group`.
pub fn python(name: &'static str, library: &'static str, group: &'static str) -> WorkerImpl {
    WorkerImpl::new(name, library, group, Runtime::Python)
}

/// Why a worker's pool cannot be used: a thread panicked holding its lock.
fn poisoned<T>(_: T) -> String {
    "a worker pool was poisoned".to_string()
}

/// A worker's processes that are waiting for a batch, and how many it has running in all.
#[derive(Default)]
struct Pool {
    idle: Vec<Process>,
    running: usize,
}

struct Process {
    child: Child,
    stdin: ChildStdin,
    answers: Answers,
    /// What the worker answered to the protocol's first line.
    hello: Hello,
    /// The end of what the worker wrote to standard error, read as it goes by `reader`.
    stderr: Arc<Mutex<Vec<u8>>>,
    reader: std::thread::JoinHandle<()>,
}

/// The unit of the times in `/proc/<pid>/stat`: Linux's USER_HZ, 100 on every architecture
/// it supports.
const CLOCK_TICKS_PER_SECOND: u64 = 100;

/// Bytes of a worker's standard error kept to explain its failure.
const STDERR_KEPT: usize = 4096;

/// How much lower than the harness's own a worker's scheduling priority is (`nice`): in a
/// paced campaign the implementations in process set the rate, and a worker, busy with its
/// own queue, takes the cores they leave.
const WORKER_NICENESS: &str = "10";

/// `command` run at the worker's lower priority, through `nice`, where the system has it.
fn yielding(command: Command) -> Command {
    static NICE: OnceLock<bool> = OnceLock::new();
    let has_nice = *NICE.get_or_init(|| {
        Command::new("nice")
            .arg("true")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if !has_nice {
        return command;
    }
    let mut niced = Command::new("nice");
    niced
        .args(["-n", WORKER_NICENESS])
        .arg(command.get_program())
        .args(command.get_args());
    if let Some(dir) = command.get_current_dir() {
        niced.current_dir(dir);
    }
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => niced.env(key, value),
            None => niced.env_remove(key),
        };
    }
    niced
}

impl Process {
    /// Starts a worker and asks it which form of the protocol it speaks.
    fn spawn(launch: &Launch, timeout: Duration) -> Result<Process, String> {
        let mut child = yielding(launch.command())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", launch.shown()))?;
        let stdin = child.stdin.take().ok_or("worker has no stdin")?;
        let stdout = child.stdout.take().ok_or("worker has no stdout")?;
        let mut errors = child.stderr.take().ok_or("worker has no stderr")?;
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&stderr);
        let reader = std::thread::spawn(move || {
            let mut chunk = [0u8; 1024];
            while let Ok(n @ 1..) = errors.read(&mut chunk) {
                let Ok(mut kept) = kept.lock() else { break };
                kept.extend_from_slice(chunk.get(..n).unwrap_or_default());
                let excess = kept.len().saturating_sub(STDERR_KEPT);
                kept.drain(..excess);
            }
        });
        let (send, chunks) = mpsc::channel();
        std::thread::spawn(move || forward_lines(stdout, &send));
        let mut process = Process {
            child,
            stdin,
            answers: Answers {
                chunks,
                chunk: Vec::new(),
                at: 0,
            },
            hello: Hello {
                framed: false,
                version: None,
                uses: None,
            },
            stderr,
            reader,
        };
        let asked = writeln!(process.stdin, "{HELLO}").and_then(|()| process.stdin.flush());
        let first = match asked {
            Ok(()) => process.answers.next(timeout).ok().map(<[u8]>::to_vec),
            Err(_) => None,
        };
        let Some(first) = first else {
            let stderr = process.kill();
            return Err(with_stderr(
                &format!(
                    "{} did not answer the protocol's first line {HELLO} within {} s",
                    launch.shown(),
                    timeout.as_secs()
                ),
                &stderr,
            ));
        };
        process.hello = read_hello(&first);
        Ok(process)
    }

    /// The CPU time the process has used, user and system, from `/proc` (Linux); `None`
    /// where that cannot be read.
    fn cpu(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        // The fields after the command name, which is in parentheses and may hold anything:
        // state is the first of them, user time the twelfth and system time the thirteenth.
        let fields: Vec<&str> = stat
            .get(stat.rfind(')')? + 1..)?
            .split_whitespace()
            .collect();
        let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
        Some(Duration::from_millis(
            (ticks(11)? + ticks(12)?) * 1000 / CLOCK_TICKS_PER_SECOND,
        ))
    }

    /// Ends the worker and gives the end of its standard error, `""` when it wrote none.
    fn kill(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The reader ends when the pipe closes; a grandchild holding it open must not hang us.
        for _ in 0..50 {
            if self.reader.is_finished() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let kept = self.stderr.lock().map(|k| k.clone()).unwrap_or_default();
        String::from_utf8_lossy(&kept).trim().to_string()
    }
}

/// Sends what `stdout` holds to `send` as it arrives, in chunks of whole lines (each with its
/// `\n`, but the last line of the stream), so that a batch's answers cost a few messages and
/// wake-ups rather than one each.
fn forward_lines(stdout: impl Read, send: &mpsc::Sender<Vec<u8>>) {
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut partial = Vec::new();
    loop {
        let buffered = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buffered) => buffered,
        };
        let taken = buffered.len();
        match buffered.iter().rposition(|&b| b == b'\n') {
            Some(last) => {
                partial.extend_from_slice(buffered.get(..=last).unwrap_or_default());
                reader.consume(last + 1);
                if send.send(std::mem::take(&mut partial)).is_err() {
                    return;
                }
            }
            None => {
                partial.extend_from_slice(buffered);
                reader.consume(taken);
            }
        }
    }
    if !partial.is_empty() {
        let _ = send.send(partial);
    }
}

/// A worker's answer lines, read from the chunks [`forward_lines`] sends.
struct Answers {
    chunks: Receiver<Vec<u8>>,
    /// The chunk being read, and where its next line starts.
    chunk: Vec<u8>,
    at: usize,
}

impl Answers {
    /// The next line, its `\n` included; waits up to `timeout` when none has arrived.
    fn next(&mut self, timeout: Duration) -> Result<&[u8], RecvTimeoutError> {
        if self.at >= self.chunk.len() {
            self.chunk = self.chunks.recv_timeout(timeout)?;
            self.at = 0;
        }
        let rest = self.chunk.get(self.at..).unwrap_or_default();
        let len = rest
            .iter()
            .position(|&b| b == b'\n')
            .map_or(rest.len(), |end| end + 1);
        let line = rest.get(..len).unwrap_or_default();
        self.at += len;
        Ok(line)
    }
}

/// `why`, followed by what the worker last wrote to standard error, if anything.
fn with_stderr(why: &str, stderr: &str) -> String {
    match stderr.lines().rev().find(|l| !l.trim().is_empty()) {
        None => why.to_string(),
        Some(_) => format!("{why}; its stderr ended: {}", stderr.replace('\n', " | ")),
    }
}

#[derive(Deserialize)]
struct Answer {
    ok: Option<String>,
    error: Option<AnswerError>,
    #[serde(default)]
    unsupported: bool,
}

#[derive(Deserialize)]
struct AnswerError {
    kind: String,
    message: String,
}

/// The form a worker speaks, from its answer to the protocol's first line: a protocol-1 worker
/// answers `{"canonfuzz":1,"name":…,"version":…,"uses":…}`; a plain one answers the line as
/// an input.
fn read_hello(line: &[u8]) -> Hello {
    #[derive(Deserialize)]
    struct Greeting {
        canonfuzz: u64,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        version: Option<String>,
        #[serde(default)]
        uses: Option<String>,
    }
    match serde_json::from_slice::<Greeting>(line) {
        Ok(g) if g.canonfuzz == 1 => Hello {
            framed: true,
            version: match (g.name, g.version) {
                (Some(name), Some(version)) => Some(format!("{name} {version}")),
                (name, version) => name.or(version),
            },
            uses: g.uses,
        },
        _ => Hello {
            framed: false,
            version: None,
            uses: None,
        },
    }
}

/// How protocol 1 wraps an input's base64 into a request line.
const REQUEST_HEAD: &[u8] = br#"{"input":""#;
const REQUEST_TAIL: &[u8] = b"\"}\n";

/// The length of `input` in padded base64.
fn base64_len(input: &[u8]) -> usize {
    input.len().div_ceil(3) * 4
}

/// One input as a request line in the form the worker speaks, appended to `line`; the base64
/// is written in place, not built apart and copied.
fn request(input: &[u8], framed: bool, line: &mut Vec<u8>) {
    if framed {
        line.extend_from_slice(REQUEST_HEAD);
        let start = line.len();
        line.resize(start + base64_len(input), 0);
        match line
            .get_mut(start..)
            .map(|space| STANDARD.encode_slice(input, space))
        {
            Some(Ok(written)) => line.truncate(start + written),
            // The space is the encoding's exact length; were it not, the input would still
            // go whole rather than empty.
            _ => {
                line.truncate(start);
                line.extend_from_slice(STANDARD.encode(input).as_bytes());
            }
        }
        line.extend_from_slice(REQUEST_TAIL);
    } else {
        line.extend_from_slice(input);
        line.push(b'\n');
    }
}

/// The length of [`request`]'s line for `input`.
fn request_len(input: &[u8], framed: bool) -> usize {
    if framed {
        REQUEST_HEAD.len() + base64_len(input) + REQUEST_TAIL.len()
    } else {
        input.len() + 1
    }
}

/// How a garbage answer's outcome begins.
const GARBAGE: &str = "answered garbage";

/// Reads one protocol answer; anything else is garbage. An answer whose text escapes a lone
/// surrogate (a lax library's output, which no Unicode text holds) is read with U+FFFD in its
/// place. A verifier's `rejected` is not classified: its reasons are not compared.
fn parse_answer(line: &[u8]) -> Outcome {
    match plain_ok(line) {
        Some(text) => Outcome::Ok(text.to_vec()),
        None => read_answer(line),
    }
}

/// [`parse_answer`] by the JSON parser alone.
fn read_answer(line: &[u8]) -> Outcome {
    let read = serde_json::from_slice::<Answer>(line)
        .or_else(|_| serde_json::from_slice::<Answer>(&without_lone_surrogates(line)));
    match read {
        Ok(Answer {
            ok: None,
            error: None,
            unsupported: true,
        }) => Outcome::Unsupported,
        Ok(Answer {
            ok: Some(ok),
            error: None,
            unsupported: false,
        }) => Outcome::Ok(ok.into_bytes()),
        Ok(Answer {
            ok: None,
            error: Some(error),
            unsupported: false,
        }) => match error.kind.as_str() {
            "other" => Outcome::Rejected(classify_message(&error.message)),
            "rejected" => Outcome::Rejected("other".to_string()),
            "crashed" => Outcome::Crashed(error.message),
            _ => Outcome::Rejected(error.kind),
        },
        _ => Outcome::Crashed(format!("{GARBAGE}: {:?}", String::from_utf8_lossy(line))),
    }
}

/// The text of the commonest answer, `{"ok":"…"}` whose string holds no escape, read without
/// a JSON parser: `None` for any other line, which the parser then reads. A string without a
/// backslash, a quote or a control character, in valid UTF-8, is its own text.
fn plain_ok(line: &[u8]) -> Option<&[u8]> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let text = line.strip_prefix(br#"{"ok":""#)?.strip_suffix(br#""}"#)?;
    let plain = text.iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\');
    (plain && std::str::from_utf8(text).is_ok()).then_some(text)
}

/// `line` with every `\uXXXX` escape of an unpaired surrogate replaced by `\ufffd`.
fn without_lone_surrogates(line: &[u8]) -> Vec<u8> {
    let unit = |at: usize| -> Option<u16> {
        let digits = line.get(at..at + 6)?;
        if digits.get(..2)? != b"\\u" {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(digits.get(2..)?).ok()?, 16).ok()
    };
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while let Some(&byte) = line.get(i) {
        if byte != b'\\' {
            out.push(byte);
            i += 1;
            continue;
        }
        let step = match unit(i) {
            Some(0xd800..=0xdbff) if matches!(unit(i + 6), Some(0xdc00..=0xdfff)) => 12,
            Some(0xd800..=0xdfff) => {
                out.extend_from_slice(b"\\ufffd");
                i += 6;
                continue;
            }
            Some(_) => 6,
            None => 2,
        };
        out.extend_from_slice(
            line.get(i..i + step)
                .unwrap_or_else(|| line.get(i..).unwrap_or_default()),
        );
        i += step;
    }
    out
}

/// Whether the plain form of the protocol can carry `input` unchanged (protocol 1 carries any).
pub fn expressible(input: &[u8]) -> bool {
    !input.contains(&b'\n') && input.last() != Some(&b'\r')
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
                let spawned = Process::spawn(&self.launch, self.timeout);
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

/// A host's request for the time each of its libraries has taken.
const SPENT: &[u8] = b"{\"canonfuzz\":\"spent\"}\n";

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
        let runtime = prepared(runtime).unwrap_or_else(|_| "runtime missing".to_string());
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

    /// A stream that hands out at most `step` bytes a read.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            let (now, later) = self.data.split_at(n);
            buf[..n].copy_from_slice(now);
            self.data = later;
            Ok(n)
        }
    }

    #[test]
    fn answer_lines_come_whole_however_the_stream_is_cut() {
        // Short lines, an empty one, one longer than the reader's buffer, and a last line
        // without its newline.
        let long = "x".repeat(200_000);
        let lines = [
            "{\"ok\":\"1\"}\n".to_string(),
            "\n".to_string(),
            format!("{{\"ok\":\"{long}\"}}\n"),
            "{\"unsupported\":true}\n".to_string(),
            "{\"ok\":\"end\"}".to_string(),
        ];
        let stream = lines.concat();
        for step in [1, 3, 7, 4096, 1 << 20] {
            let (send, chunks) = mpsc::channel();
            forward_lines(
                Trickle {
                    data: stream.as_bytes(),
                    step,
                },
                &send,
            );
            drop(send);
            let mut answers = Answers {
                chunks,
                chunk: Vec::new(),
                at: 0,
            };
            for want in &lines {
                let got = answers.next(Duration::from_secs(1)).unwrap();
                assert_eq!(got, want.as_bytes(), "read {step} bytes at a time");
            }
            assert_eq!(
                answers.next(Duration::from_millis(10)),
                Err(RecvTimeoutError::Disconnected),
                "read {step} bytes at a time"
            );
        }
    }

    #[test]
    fn answers_are_parsed_or_called_garbage() {
        assert_eq!(
            parse_answer(br#"{"ok":"[1]"}"#),
            Outcome::Ok(b"[1]".to_vec())
        );
        assert_eq!(
            parse_answer(br#"{"error":{"kind":"syntax","message":"x","offset":0}}"#),
            Outcome::Rejected("syntax".into())
        );
        assert_eq!(
            parse_answer(
                br#"{"error":{"kind":"other","message":"Infinity is not allowed","offset":0}}"#
            ),
            Outcome::Rejected("number_out_of_range".into())
        );
        assert_eq!(
            parse_answer(br#"{"error":{"kind":"rejected","message":"bad signature","offset":0}}"#),
            Outcome::Rejected("other".into())
        );
        assert_eq!(
            parse_answer(br#"{"unsupported":true}"#),
            Outcome::Unsupported
        );
        assert!(matches!(
            parse_answer(b"Traceback (most recent call last):"),
            Outcome::Crashed(_)
        ));
    }

    #[test]
    fn an_answer_read_without_the_parser_is_what_the_parser_reads() {
        let lines: [&[u8]; 17] = [
            br#"{"ok":"[1,2]"}"#,
            b"{\"ok\":\"[\xc3\xa9,\xf0\x9f\x98\x80]\"}\n",
            br#"{"ok":"[1,\"a\"]"}"#,
            b"{\"ok\":\"\"}\n",
            b"{\"ok\":\"x\"}\r\n",
            br#"{"ok":"a\nb"}"#,
            br#"{"ok":"\u0041"}"#,
            b"{\"ok\":\"tab\there\"}",
            b"{\"ok\":\"\x7f\"}",
            b"{\"ok\":\"\xff\"}",
            b"{\"ok\":\"\xed\xa0\x80\"}",
            br#"{"ok":"x"}"}"#,
            br#"{"ok":"x" }"#,
            b"{\"ok\":\"x\"}  ",
            br#"{"ok" :"x"}"#,
            br#"{"ok":"x","unsupported":false}"#,
            br#"{"ok":"x"#,
        ];
        let mut fast = 0;
        for line in lines {
            fast += usize::from(plain_ok(line).is_some());
            assert_eq!(
                parse_answer(line),
                read_answer(line),
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
        assert_eq!(
            fast, 4,
            "the four lines without escapes are read without the parser"
        );
    }

    #[test]
    fn an_answer_escaping_a_lone_surrogate_is_read_with_a_replacement_character() {
        assert_eq!(
            parse_answer(br#"{"ok":"\"\ud800\" \\ud800 \ud83d\ude00 \udc00"}"#),
            Outcome::Ok(
                "\"\u{fffd}\" \\ud800 \u{1f600} \u{fffd}"
                    .as_bytes()
                    .to_vec()
            )
        );
    }

    #[test]
    fn protocol_one_sends_base64_and_the_plain_form_the_bytes() {
        let mut line = Vec::new();
        request(b"[1,\n2]", true, &mut line);
        request(b"[1]", false, &mut line);
        assert_eq!(line, b"{\"input\":\"WzEsCjJd\"}\n[1]\n");
        let hello = read_hello(br#"{"canonfuzz":1,"name":"lib","version":"2.0"}"#);
        assert_eq!(hello.version.as_deref(), Some("lib 2.0"));
        assert!(hello.framed);
        assert!(!read_hello(br#"{"ok":"{\"canonfuzz\":1}"}"#).framed);
        assert_eq!(hello.uses, None);
    }

    #[test]
    fn the_builtin_workers_read_a_request_of_any_json_shape() {
        // The harness's own shape is read without a JSON parser; any other spelling of the
        // same request must mean the same, and a request that is none is answered as such.
        let lines = concat!(
            "{\"canonfuzz\":1}\n",
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
        let crypto = node("node-crypto", "crypto", "openssl");
        let uses = crypto.uses().expect("node:crypto names its OpenSSL");
        assert!(uses.starts_with("node:crypto, OpenSSL "), "{uses}");
        assert_eq!(node("n", "canonicalize", "v8").uses(), None);
        let noble = node("noble-ed25519", "@noble/ed25519", "noble")
            .uses()
            .unwrap();
        assert!(noble.ends_with(&format!("SHA-512 from {uses}")), "{noble}");
        let python = python("jwcrypto", "jwcrypto", "jwcrypto");
        assert!(python.uses().unwrap().starts_with("cryptography "));
        let rust = rust("josekit", "josekit", "josekit");
        assert!(rust.uses().unwrap().starts_with("openssl "));
    }

    #[test]
    fn a_worker_is_costed_by_its_processes_cpu_time() {
        let worker = python("python-rfc8785", "rfc8785", "cpython");
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
        assert_eq!(external("mine", "mine", "cat").cpu(), None);
    }

    /// The test worker, answering `sleep:MS` after MS milliseconds.
    fn sleeper() -> WorkerImpl {
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/faulty_worker.py");
        python("sleeper", "none", "cpython").with_script(script, Duration::from_secs(10))
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

    #[test]
    fn newlines_cannot_cross_the_line_protocol() {
        assert!(expressible(b"[1,\t2]\r "));
        assert!(!expressible(b"[1,\n2]"));
        assert!(!expressible(b"[1]\r"));
    }
}
