//! What preparing the workers' runtimes shows a person: each step that installs something
//! (npm ci, a virtualenv, the Rust worker's build) says what it does as it starts, ticks its
//! elapsed time on a terminal, and ends with how long it took or why it failed. A first run
//! spends minutes here; it says so within a second rather than sit silent.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::escape::terminal;

static SHOWN: AtomicBool = AtomicBool::new(true);

/// Whether set-up steps are shown (on standard error); they are unless a program turns them
/// off, as `--quiet` does.
pub fn show(shown: bool) {
    SHOWN.store(shown, Ordering::Relaxed);
}

/// The bars of the steps running at once, one line each.
fn bars() -> &'static MultiProgress {
    static BARS: OnceLock<MultiProgress> = OnceLock::new();
    BARS.get_or_init(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()))
}

/// One set-up step under way.
pub(crate) struct Step {
    what: String,
    started: Instant,
    bar: Option<ProgressBar>,
}

/// Starts showing `what` (one line: the runtime and the command).
pub(crate) fn step(what: &str) -> Step {
    let shown = SHOWN.load(Ordering::Relaxed);
    let bar = (shown && std::io::stderr().is_terminal()).then(|| {
        let bar = bars().add(ProgressBar::new_spinner());
        let style = ProgressStyle::with_template("{spinner} set-up: {msg}  {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        bar.set_message(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    });
    if shown && bar.is_none() {
        eprintln!("canonfuzz set-up: {what} ...");
    }
    Step {
        what: what.to_string(),
        started: Instant::now(),
        bar,
    }
}

impl Step {
    /// Ends the step with its outcome: how long it took, or the first line of why it failed.
    pub(crate) fn end<T>(self, outcome: &Result<T, String>) {
        if !SHOWN.load(Ordering::Relaxed) {
            return;
        }
        let line = ended(&self.what, self.started.elapsed(), outcome);
        match self.bar {
            Some(bar) => bar.finish_with_message(line),
            None => eprintln!("canonfuzz set-up: {line}"),
        }
    }
}

/// A step's last line: `what`, then `done in 12.3 s` or `failed: ` and the first line of why.
fn ended<T>(what: &str, took: Duration, outcome: &Result<T, String>) -> String {
    match outcome {
        Ok(_) => format!("{what}: done in {:.1} s", took.as_secs_f64()),
        Err(why) => format!(
            "{what}: failed: {}",
            terminal(crate::lines::first_line(why))
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_ends_with_its_time_or_the_first_line_of_why_it_failed() {
        let took = Duration::from_millis(12_340);
        assert_eq!(
            ended::<()>("node workers: npm ci", took, &Ok(())),
            "node workers: npm ci: done in 12.3 s"
        );
        let why = "\n  npm ERR! code ENOTFOUND\nnpm ERR! network request failed\n".to_string();
        assert_eq!(
            ended::<()>("node workers: npm ci", took, &Err(why)),
            "node workers: npm ci: failed: npm ERR! code ENOTFOUND"
        );
        let forged = "a\u{1b}[2Jb\nsecond".to_string();
        assert!(!ended::<()>("x", took, &Err(forged)).contains('\u{1b}'));
    }
}
