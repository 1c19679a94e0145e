//! Implementations in other runtimes, run as long-lived worker processes that answer one
//! input per line, in batches (for JCS, the `canon --jsonl` protocol).
//!
//! Their dependencies are pinned (`oracles/node/package-lock.json`, `oracles/python/
//! requirements.txt` with hashes) and installed by the harness itself on first use. A worker
//! that crashes, hangs or answers garbage is restarted; the input it was on is recorded as
//! crashed or timed out, and the rest of the batch goes on.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde::Deserialize;

use super::Implementation;
use crate::outcome::{classify_message, Outcome};

/// How long a worker may take over one input before it is restarted.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// The runtime a worker needs, and how to install its pinned dependencies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Runtime {
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
        let version = |program: &Path| -> Result<String, String> {
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
        };
        match self {
            Runtime::Node => {
                let runtime = version(Path::new("node"))?;
                if !dir.join("node_modules/.package-lock.json").is_file() {
                    run(Command::new("npm")
                        .args([
                            "ci",
                            "--ignore-scripts",
                            "--no-audit",
                            "--no-fund",
                            "--loglevel=error",
                        ])
                        .current_dir(&dir))?;
                }
                Ok(runtime)
            }
            Runtime::Python => {
                let runtime = version(Path::new("python3"))?;
                let venv = dir.join(".venv");
                let stamp = venv.join("canonfuzz-requirements.txt");
                let wanted =
                    std::fs::read(dir.join("requirements.txt")).map_err(|e| e.to_string())?;
                if std::fs::read(&stamp).ok().as_deref() != Some(wanted.as_slice()) {
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
                        .current_dir(&dir))?;
                    std::fs::write(&stamp, &wanted).map_err(|e| e.to_string())?;
                }
                Ok(runtime)
            }
            Runtime::Rust => {
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
                Ok(runtime)
            }
        }
    }
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

/// A library run in a worker process.
pub struct WorkerImpl {
    name: &'static str,
    library: &'static str,
    group: &'static str,
    runtime: Runtime,
    script: PathBuf,
    timeout: Duration,
    pool: Mutex<Vec<Process>>,
}

impl WorkerImpl {
    fn new(
        name: &'static str,
        library: &'static str,
        group: &'static str,
        runtime: Runtime,
    ) -> WorkerImpl {
        WorkerImpl {
            name,
            library,
            group,
            runtime,
            script: runtime.script(),
            timeout: ANSWER_TIMEOUT,
            pool: Mutex::new(Vec::new()),
        }
    }

    /// The same worker running another script of the same protocol, with another time limit
    /// per answer: how the restart logic is tested against workers that crash, hang or answer
    /// garbage on purpose.
    pub fn with_script(mut self, script: PathBuf, timeout: Duration) -> WorkerImpl {
        self.script = script;
        self.timeout = timeout;
        self
    }
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

struct Process {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<Vec<u8>>,
    /// The end of what the worker wrote to standard error, read as it goes by `reader`.
    stderr: Arc<Mutex<Vec<u8>>>,
    reader: std::thread::JoinHandle<()>,
}

/// Bytes of a worker's standard error kept to explain its failure.
const STDERR_KEPT: usize = 4096;

impl Process {
    fn spawn(runtime: Runtime, script: &Path, library: &str) -> Result<Process, String> {
        let mut child = runtime
            .command(script)
            .arg(library)
            .current_dir(runtime.dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the {library} worker: {e}"))?;
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
        let (send, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if send.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            answers,
            stderr,
            reader,
        })
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

/// Reads one protocol answer; anything else is garbage.
/// A verifier's `rejected` is not classified: its reasons are not compared.
fn parse_answer(line: &[u8]) -> Outcome {
    match serde_json::from_slice::<Answer>(line) {
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
        _ => Outcome::Crashed(format!(
            "answered garbage: {:?}",
            String::from_utf8_lossy(line)
        )),
    }
}

/// Whether the line protocol can carry `input` unchanged.
pub fn expressible(input: &[u8]) -> bool {
    !input.contains(&b'\n') && input.last() != Some(&b'\r')
}

impl WorkerImpl {
    fn checkout(&self) -> Result<Process, String> {
        let pooled = self.pool.lock().ok().and_then(|mut p| p.pop());
        match pooled {
            Some(p) => Ok(p),
            None => Process::spawn(self.runtime, &self.script, self.library),
        }
    }

    /// Runs the expressible inputs, restarting the worker after a crash or hang.
    fn run_expressible(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        let mut outcomes = Vec::with_capacity(inputs.len());
        while outcomes.len() < inputs.len() {
            let rest = inputs.get(outcomes.len()..).unwrap_or_default();
            let mut process = match self.checkout() {
                Ok(p) => p,
                Err(e) => {
                    outcomes.extend(rest.iter().map(|_| Outcome::Crashed(e.clone())));
                    break;
                }
            };
            let mut batch = Vec::new();
            for input in rest {
                batch.extend_from_slice(input);
                batch.push(b'\n');
            }
            let writer_ok = process
                .stdin
                .write_all(&batch)
                .and_then(|()| process.stdin.flush())
                .is_ok();
            let mut failure = (!writer_ok).then_some(None);
            for _ in rest {
                match process.answers.recv_timeout(self.timeout) {
                    Ok(line) => match parse_answer(&line) {
                        Outcome::Crashed(why) => {
                            failure = Some(Some(why));
                            break;
                        }
                        outcome => outcomes.push(outcome),
                    },
                    Err(RecvTimeoutError::Timeout) => {
                        outcomes.push(Outcome::TimedOut);
                        failure = Some(None);
                        break;
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        failure = Some(Some("the worker process exited".to_string()));
                        break;
                    }
                }
            }
            match failure {
                None => {
                    if let Ok(mut pool) = self.pool.lock() {
                        pool.push(process);
                    }
                }
                Some(crash) => {
                    let stderr = process.kill();
                    if let Some(why) = crash {
                        outcomes.push(Outcome::Crashed(with_stderr(&why, &stderr)));
                    }
                }
            }
        }
        outcomes
    }
}

impl Implementation for WorkerImpl {
    fn name(&self) -> &str {
        self.name
    }

    fn version(&self) -> String {
        // The adapter-profile and INK workers compute with their runtime's JCS library; the
        // verifiable-mcp verifiers are named by their signature library.
        let package = match (self.library, self.runtime) {
            ("ekl" | "ink", Runtime::Node) => "canonicalize",
            ("ekl" | "ink", _) => "rfc8785",
            ("vmcp", Runtime::Node) => "jose",
            ("vmcp", _) => "pynacl",
            (library, _) => library,
        };
        let pinned = match self.runtime {
            Runtime::Node => std::fs::read_to_string(self.runtime.dir().join("package.json"))
                .ok()
                .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
                .and_then(|v| v["dependencies"][package].as_str().map(str::to_string))
                .or_else(|| (self.library == "crypto").then(|| "built-in".to_string())),
            Runtime::Python => std::fs::read_to_string(self.runtime.dir().join("requirements.txt"))
                .ok()
                .and_then(|text| {
                    text.lines().find_map(|l| {
                        l.strip_prefix(&format!("{package}=="))
                            .map(|v| v.split_whitespace().next().unwrap_or_default().to_string())
                    })
                }),
            Runtime::Rust => std::fs::read_to_string(self.runtime.dir().join("Cargo.lock"))
                .ok()
                .and_then(|text| {
                    let krate = self.library.split('-').next().unwrap_or(self.library);
                    let entry = format!("name = \"{krate}\"\nversion = \"");
                    let at = text.find(&entry)? + entry.len();
                    text.get(at..)?.split('"').next().map(str::to_string)
                }),
        };
        let runtime = prepared(self.runtime).unwrap_or_else(|_| "runtime missing".to_string());
        format!(
            "{} ({runtime})",
            pinned.unwrap_or_else(|| "unknown".to_string())
        )
    }

    fn group(&self) -> &str {
        self.group
    }

    fn available(&self) -> Result<(), String> {
        prepared(self.runtime).map(|_| ())
    }

    fn in_process(&self) -> bool {
        false
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        if self.available().is_err() {
            return inputs.iter().map(|_| Outcome::Unsupported).collect();
        }
        let sendable: Vec<&[u8]> = inputs.iter().copied().filter(|i| expressible(i)).collect();
        let mut answers = self.run_expressible(&sendable).into_iter();
        inputs
            .iter()
            .map(|input| {
                if expressible(input) {
                    answers
                        .next()
                        .unwrap_or(Outcome::Crashed("no answer".to_string()))
                } else {
                    Outcome::Unsupported
                }
            })
            .collect()
    }
}

impl Drop for WorkerImpl {
    fn drop(&mut self) {
        if let Ok(mut pool) = self.pool.lock() {
            for process in pool.drain(..) {
                process.kill();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn newlines_cannot_cross_the_line_protocol() {
        assert!(expressible(b"[1,\t2]\r "));
        assert!(!expressible(b"[1,\n2]"));
        assert!(!expressible(b"[1]\r"));
    }
}
