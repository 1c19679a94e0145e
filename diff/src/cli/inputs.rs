//! Where commands read from: the corpus directory, and a file or stdin.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The corpus a command uses ([`crate::corpus_home::nearest`]), said once on stderr with why
/// it was chosen; a carried corpus that cannot be unpacked ends the command with status 2.
pub(crate) fn corpus_dir(dir: Option<PathBuf>) -> PathBuf {
    match crate::corpus_home::nearest(dir) {
        Ok((dir, why)) => {
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| {
                let shown = crate::escape::terminal(&dir.display().to_string()).into_owned();
                eprintln!("canonfuzz: corpus {shown} ({why})");
            });
            dir
        }
        Err(why) => {
            eprintln!("error[corpus]: {}", crate::escape::terminal(&why));
            std::process::exit(2);
        }
    }
}

/// A file to read from, or stdin for `-` or none.
pub(crate) fn open_input(file: Option<&Path>) -> io::Result<Box<dyn Read>> {
    match file {
        None => Ok(Box::new(io::stdin().lock())),
        Some(p) if p == Path::new("-") => Ok(Box::new(io::stdin().lock())),
        Some(p) => Ok(Box::new(std::fs::File::open(p)?)),
    }
}
