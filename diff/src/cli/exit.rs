//! The one place a command's exit status is chosen: 0 success, 1 rejected input or a failed
//! check, 2 usage, I/O or harness failure (a campaign's, from its status, by
//! `campaign::Status::exit_code`, which the self-test holds each mutant to); and reading an
//! input with its failure's exit status.

use std::io;
use std::path::Path;
use std::process::ExitCode;

use crate::escape::terminal;
use crate::input;

/// Why a command did not succeed.
pub(crate) enum Failure {
    /// The input was rejected or a check failed (exit 1); the message, when the command has
    /// not said it already, goes to stderr as it is.
    Rejected(Option<String>),
    /// A usage, I/O or harness failure (exit 2); the message goes to stderr after
    /// `canonfuzz: `.
    Usage(String),
}

impl Failure {
    /// Says why, and gives the exit status.
    pub(crate) fn exit(self) -> ExitCode {
        match self {
            Failure::Rejected(message) => {
                if let Some(m) = message {
                    eprintln!("{}", terminal(&m));
                }
                ExitCode::from(1)
            }
            Failure::Usage(message) => {
                eprintln!("canonfuzz: {}", terminal(&message));
                ExitCode::from(2)
            }
        }
    }
}

/// A usage, I/O or harness failure: says why, exits 2.
pub(crate) fn usage_error(message: String) -> ExitCode {
    Failure::Usage(message).exit()
}

/// A rejection the command has already reported: exits 1.
pub(crate) fn rejected() -> ExitCode {
    Failure::Rejected(None).exit()
}

/// Reads a file, or stdin for `-` or nothing, within the input limit; on failure says why
/// and gives the exit status: 1 for an input refused as too large, 2 when it cannot be read.
pub(crate) fn read_or_exit(file: Option<&Path>) -> Result<Vec<u8>, ExitCode> {
    input::read(file).map_err(|e| {
        if e.is_refusal() {
            Failure::Rejected(Some(format!("canonfuzz: {e}"))).exit()
        } else {
            Failure::Usage(e.to_string()).exit()
        }
    })
}

/// Ends the command quietly, with exit 0, when what it prints to stdout has no reader any
/// more (`canonfuzz vectors -v | head`): the reader took what it wanted. Any other panic is
/// reported as before.
pub(crate) fn quiet_on_closed_stdout() {
    let report = std::panic::take_hook();
    // What the printing macros panic with on EPIPE (32 on every Unix).
    let closed = format!(
        "failed printing to stdout: {}",
        io::Error::from_raw_os_error(32)
    );
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message == closed {
            std::process::exit(0);
        }
        report(info);
    }));
}

/// Whether a write failed because its reader closed the pipe: then the command has done
/// what was asked of it, and ends with the exit status it would have had.
pub(crate) fn reader_gone(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}

/// Writes `bytes` to stdout: exit 0 once written, or once the reader has closed the pipe;
/// 2 when it cannot be written.
pub(crate) fn print_bytes(bytes: &[u8], what: &str) -> ExitCode {
    use std::io::Write as _;
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if !reader_gone(&e) => usage_error(format!("cannot write {what}: {e}")),
        _ => ExitCode::SUCCESS,
    }
}
