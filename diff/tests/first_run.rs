//! A first run says what it is installing before it installs it: a campaign in a home with
//! no workers yet opens with a set-up line, rather than minutes of silence.

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

#[test]
fn a_first_campaign_opens_with_what_it_sets_up() {
    let home = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(["diff", "--cases", "10", "--no-save"])
        .env("CANONFUZZ_HOME", home.path())
        .current_dir(elsewhere.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    // Which corpus it reads comes first, then what it installs.
    let first = BufReader::new(stderr).lines().find(|l| {
        l.as_ref()
            .map_or(true, |l| !l.starts_with("canonfuzz: corpus "))
    });
    // Its set-up is another test's to finish; this one has seen how it starts, and ends it
    // with the installers it started (its process group).
    let group = format!("-{}", child.id());
    let killed = Command::new("kill").args(["-KILL", "--", &group]).status();
    assert!(killed.as_ref().is_ok_and(|s| s.success()), "{killed:?}");
    child.wait().unwrap();
    let first = first.expect("a line on stderr").unwrap();
    assert!(
        first.starts_with("canonfuzz set-up: ") && first.ends_with(" ..."),
        "{first}"
    );
}
