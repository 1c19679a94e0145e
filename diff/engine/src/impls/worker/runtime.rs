//! The runtimes the harness's own workers run in (Node, Python, Rust), each prepared once from
//! its pinned lockfile, and how a worker process is launched.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The runtime a worker needs, and how to install its pinned dependencies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runtime {
    Node,
    Python,
    /// Rust libraries that cannot share the harness's build (`oracles/rust`, built on first use).
    Rust,
}

/// One runtime of the harness's own workers, prepared: its name, what it needs, and its
/// version or why it cannot run.
#[derive(Debug, Clone)]
pub struct Readiness {
    /// `node`, `python` or `rust`.
    pub runtime: &'static str,
    /// What it needs from the machine, as a person would install it.
    pub needs: &'static str,
    /// Its version, or why it cannot run (a tool's whole output, perhaps).
    pub state: Result<String, String>,
}

/// Prepares every runtime at once, installing what is missing (each install shown as a
/// set-up step), and says how each ended.
pub fn readiness() -> Vec<Readiness> {
    let all = [Runtime::Node, Runtime::Python, Runtime::Rust];
    std::thread::scope(|scope| {
        let started: Vec<_> = all
            .iter()
            .map(|&runtime| scope.spawn(move || prepared(runtime)))
            .collect();
        all.iter()
            .zip(started)
            .map(|(&runtime, started)| Readiness {
                runtime: runtime.name(),
                needs: runtime.needs(),
                state: started
                    .join()
                    .unwrap_or_else(|_| Err("its set-up panicked".to_string())),
            })
            .collect()
    })
}

impl Runtime {
    /// Its name, as `canonfuzz setup` shows it.
    fn name(self) -> &'static str {
        match self {
            Runtime::Node => "node",
            Runtime::Python => "python",
            Runtime::Rust => "rust",
        }
    }

    /// What it needs from the machine.
    fn needs(self) -> &'static str {
        match self {
            Runtime::Node => "Node 20 or later (node and npm on PATH) and the npm registry",
            Runtime::Python => "Python 3.11 or later (python3 with venv) and PyPI",
            Runtime::Rust => "Rust stable (cargo and rustc on PATH) and crates.io",
        }
    }

    pub(super) fn dir(self) -> PathBuf {
        let oracles = crate::impls::oracles::dir().unwrap_or_default();
        oracles.join(match self {
            Runtime::Node => "node",
            Runtime::Python => "python",
            Runtime::Rust => "rust",
        })
    }

    /// The worker's script, or for Rust its binary.
    pub(super) fn script(self) -> PathBuf {
        self.dir().join(match self {
            Runtime::Node => "worker.mjs",
            Runtime::Python => "worker.py",
            Runtime::Rust => "target/release/canonfuzz-rust-worker",
        })
    }

    /// The command that runs `script`.
    pub(super) fn command(self, script: &Path) -> Command {
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
    pub(super) fn prepare(self) -> Result<String, String> {
        crate::impls::oracles::dir()?;
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
                if let Some(built_by) = crate::impls::rust_build::recorded(&dir, &binary) {
                    return Ok(built_by);
                }
                let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
                let runtime = version(Path::new("rustc"))?;
                installing("rust workers: cargo build --release, once", || {
                    run(
                        "cargo build",
                        Command::new(cargo)
                            .args([
                                "build",
                                "--release",
                                "--locked",
                                "--quiet",
                                "--manifest-path",
                            ])
                            .arg(dir.join("Cargo.toml"))
                            .arg("--target-dir")
                            .arg(dir.join("target")),
                    )
                })?;
                crate::impls::rust_build::record(&dir, &binary, &runtime)?;
                Ok(runtime)
            }
        }
    }
}

/// What `program --version` prints, or why it cannot be run.
pub(super) fn version(program: &Path) -> Result<String, String> {
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
pub(super) fn prepare_node(dir: &Path) -> Result<String, String> {
    let runtime = version(Path::new("node"))?;
    let stamp = dir.join("node_modules/.canonfuzz-package-lock.json");
    let wanted = std::fs::read(dir.join("package-lock.json")).map_err(|e| e.to_string())?;
    if std::fs::read(&stamp).ok().as_deref() != Some(wanted.as_slice()) {
        installing("node workers: npm ci from package-lock.json", || {
            run(
                "npm ci",
                Command::new("npm")
                    .args([
                        "ci",
                        "--ignore-scripts",
                        "--no-audit",
                        "--no-fund",
                        "--loglevel=error",
                    ])
                    .current_dir(dir),
            )
        })?;
        std::fs::write(&stamp, &wanted).map_err(|e| e.to_string())?;
    }
    Ok(runtime)
}

/// Installs the Python workers' hash-checked requirements into a virtualenv in `dir`, unless
/// installed from these very requirements already; returns the virtualenv's Python version.
pub(super) fn prepare_python(dir: &Path) -> Result<String, String> {
    let venv = dir.join(".venv");
    let stamp = venv.join("canonfuzz-requirements.txt");
    let wanted = std::fs::read(dir.join("requirements.txt")).map_err(|e| e.to_string())?;
    if std::fs::read(&stamp).ok().as_deref() != Some(wanted.as_slice()) {
        version(Path::new("python3"))?;
        installing("python workers: a virtualenv, hash-checked wheels", || {
            run(
                "python3 -m venv",
                Command::new("python3")
                    .args(["-m", "venv", "--clear"])
                    .arg(&venv),
            )?;
            run(
                "pip install",
                Command::new(venv.join("bin/pip"))
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
                    .current_dir(dir),
            )
        })?;
        std::fs::write(&stamp, &wanted).map_err(|e| e.to_string())?;
    }
    // The interpreter the workers run is the virtualenv's, asked directly: a `python3` on
    // the path may be another one since, or a version manager's script that takes longer to
    // answer than the worker takes to start.
    version(&venv.join("bin/python"))
}

/// Runs `install`, one set-up step a person sees ([`crate::impls::setup`]) as `what`.
fn installing(what: &str, install: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    let step = crate::impls::setup::step(what);
    let done = install();
    step.end(&done);
    done
}

/// Runs one installer, `what` (`npm ci`); if it fails, why: `what` and the first thing it
/// printed (the line a person is shown), then the rest of its output and the whole command.
fn run(what: &str, command: &mut Command) -> Result<(), String> {
    let out = command
        .output()
        .map_err(|e| format!("{what}: cannot start: {e}\ncommand: {command:?}"))?;
    if out.status.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&out.stderr);
    let said = match said.trim() {
        "" => out.status.to_string(),
        said => said.to_string(),
    };
    Err(format!("{what}: {said}\ncommand: {command:?}"))
}

/// Prepares each runtime once per process, whichever implementation asks first.
pub(super) fn prepared(runtime: Runtime) -> Result<String, String> {
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

/// How a worker process is started.
#[derive(Debug, Clone)]
pub(super) enum Launch {
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
    pub(super) fn command(&self) -> Command {
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

    pub(super) fn shown(&self) -> String {
        match self {
            Launch::Library { library, .. } => format!("the {library} worker"),
            Launch::Host { libraries, .. } => {
                format!("the worker hosting {}", libraries.join(", "))
            }
            Launch::Command(line) => format!("`{line}`"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_installer_is_named_with_the_first_thing_it_said_and_its_command_after() {
        let failed = |script: &str| {
            run("npm ci", Command::new("sh").args(["-c", script]))
                .err()
                .unwrap_or_default()
        };
        let why = failed("echo; echo 'npm ERR! code ENOTFOUND' >&2; echo detail >&2; exit 3");
        let mut lines = why.lines();
        assert_eq!(lines.next(), Some("npm ci: npm ERR! code ENOTFOUND"));
        assert_eq!(lines.next(), Some("detail"));
        assert!(lines
            .next()
            .is_some_and(|l| l.starts_with("command: \"sh\"")));
        assert_eq!(
            crate::lines::first_line(&failed("exit 3")),
            "npm ci: exit status: 3"
        );
        assert_eq!(failed("true"), "");
    }
}
