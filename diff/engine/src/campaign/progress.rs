//! A campaign's progress on a terminal (a bar with rate and ETA), and as a line every ten
//! seconds where stderr is no terminal.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Config;

pub(super) fn progress_bar(config: &Config) -> ProgressBar {
    let bar = match config.cases {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new(0),
    };
    if !config.progress {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(bar_style(
        "{spinner} {elapsed_precise} [{wide_bar}] {human_pos}/{human_len} cases  {rate}  findings: {msg}  ETA {eta}",
    ));
    bar.set_message("0");
    bar
}

/// A progress bar's style from `template`, in which `{rate}` is the cases per second as a
/// whole number.
pub(crate) fn bar_style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", state.per_sec());
            },
        )
        .progress_chars("=> ")
}

/// Seconds between the progress lines of a campaign whose standard error is no terminal.
pub(super) const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Prints the progress bar's state as a line every [`PROGRESS_EVERY`] until `stopped`: a
/// campaign logged to a file or a CI job shows that it moves, and how fast.
pub(super) fn progress_lines(bar: &ProgressBar, stopped: &std::sync::atomic::AtomicBool) {
    let mut last = Instant::now();
    while !stopped.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        if last.elapsed() < PROGRESS_EVERY {
            continue;
        }
        last = Instant::now();
        let (done, total) = (bar.position(), bar.length().unwrap_or(0));
        let rate = bar.per_sec();
        let eta = match total.checked_sub(done) {
            Some(left) if rate > 0.0 && total > 0 => format!(", ETA {:.0}s", left as f64 / rate),
            _ => String::new(),
        };
        eprintln!(
            "canonfuzz: {done}/{total} cases, {rate:.0} cases/s, {} findings{eta}",
            bar.message()
        );
    }
}
