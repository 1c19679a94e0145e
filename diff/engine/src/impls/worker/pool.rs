//! A worker's processes: started at low priority, grown while batches wait, each read line by
//! line on a thread of its own with its stderr kept, costed by CPU time and ended whole.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use super::protocol::{read_hello, Hello};
use super::runtime::Launch;

/// Why a worker's pool cannot be used: a thread panicked holding its lock.
pub(super) fn poisoned<T>(_: T) -> String {
    "a worker pool was poisoned".to_string()
}

/// A worker's processes that are waiting for a batch, and how many it has running in all.
#[derive(Default)]
pub(super) struct Pool {
    pub(super) idle: Vec<Process>,
    pub(super) running: usize,
}

pub(super) struct Process {
    pub(super) child: Child,
    pub(super) stdin: ChildStdin,
    pub(super) answers: Answers,
    /// What the worker answered to the protocol's first line.
    pub(super) hello: Hello,
    /// The end of what the worker wrote to standard error, read as it goes by `reader`.
    pub(super) stderr: Arc<Mutex<Vec<u8>>>,
    pub(super) reader: std::thread::JoinHandle<()>,
}

/// The unit of the times in `/proc/<pid>/stat`: Linux's USER_HZ, 100 on every architecture
/// it supports.
pub(super) const CLOCK_TICKS_PER_SECOND: u64 = 100;

/// Bytes of a worker's standard error kept to explain its failure.
pub(super) const STDERR_KEPT: usize = 4096;

/// How much lower than the harness's own a worker's scheduling priority is (`nice`): in a
/// paced campaign the implementations in process set the rate, and a worker, busy with its
/// own queue, takes the cores they leave.
pub(super) const WORKER_NICENESS: &str = "10";

/// `command` run at the worker's lower priority, through `nice`, where the system has it.
pub(super) fn yielding(command: Command) -> Command {
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
    pub(super) fn spawn(
        launch: &Launch,
        hello: &str,
        timeout: Duration,
    ) -> Result<Process, String> {
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
        let asked = writeln!(process.stdin, "{hello}").and_then(|()| process.stdin.flush());
        let first = match asked {
            Ok(()) => process.answers.next(timeout).ok().map(<[u8]>::to_vec),
            Err(_) => None,
        };
        let Some(first) = first else {
            let stderr = process.kill();
            return Err(with_stderr(
                &format!(
                    "{} did not answer the protocol's first line {hello} within {} s",
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
    pub(super) fn cpu(&self) -> Option<Duration> {
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
    pub(super) fn kill(mut self) -> String {
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
pub(super) fn forward_lines(stdout: impl Read, send: &mpsc::Sender<Vec<u8>>) {
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
pub(super) struct Answers {
    pub(super) chunks: Receiver<Vec<u8>>,
    /// The chunk being read, and where its next line starts.
    pub(super) chunk: Vec<u8>,
    pub(super) at: usize,
}

impl Answers {
    /// The next line, its `\n` included; waits up to `timeout` when none has arrived.
    pub(super) fn next(&mut self, timeout: Duration) -> Result<&[u8], RecvTimeoutError> {
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
pub(super) fn with_stderr(why: &str, stderr: &str) -> String {
    match stderr.lines().rev().find(|l| !l.trim().is_empty()) {
        None => why.to_string(),
        Some(_) => format!("{why}; its stderr ended: {}", stderr.replace('\n', " | ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

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
}
