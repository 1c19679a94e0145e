//! Reading files and standard input within a size limit, so that no input — an endless pipe,
//! a huge file — can make the tool hold more than the limit in memory. Every command that
//! reads a document, a key set, a vector file or an artifact reads it here.
//!
//! The limit is one setting for the process: [`DEFAULT_MAX_INPUT`] unless the command line
//! raises or lowers it (`--max-input-bytes`). A line of a line protocol (`canon --jsonl`) is
//! held to the same limit, line by line.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The default limit: 32 MiB, far above any signed response, key set or vector file in use,
/// and small enough to refuse a runaway input within a second.
pub const DEFAULT_MAX_INPUT: u64 = 32 << 20;

static LIMIT: AtomicU64 = AtomicU64::new(DEFAULT_MAX_INPUT);

/// Sets the process's input limit, in bytes.
pub fn set_limit(bytes: u64) {
    LIMIT.store(bytes, Ordering::Relaxed);
}

/// The process's input limit, in bytes.
pub fn limit() -> u64 {
    LIMIT.load(Ordering::Relaxed)
}

/// Why an input could not be read.
#[derive(Debug)]
pub enum InputError {
    /// The input is larger than the limit.
    TooLarge {
        /// The file's name, or `stdin`.
        name: String,
        /// The limit it exceeds.
        limit: u64,
    },
    /// The input could not be opened or read.
    Io {
        /// The file's name, or `stdin`.
        name: String,
        /// The system's error.
        error: io::Error,
    },
}

impl InputError {
    /// A stable name for the error, as `error[kind]` shows it.
    pub fn kind(&self) -> &'static str {
        match self {
            InputError::TooLarge { .. } => "too_large",
            InputError::Io { .. } => "io",
        }
    }

    /// Whether the input was refused (exit status 1) rather than unreadable (2).
    pub fn is_refusal(&self) -> bool {
        matches!(self, InputError::TooLarge { .. })
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::TooLarge { name, limit } => write!(
                f,
                "error[too_large]: {name} is larger than the input limit of {} ({limit} bytes); \
                 if the input is genuine, raise the limit with --max-input-bytes",
                human(*limit)
            ),
            InputError::Io { name, error } => write!(f, "error[io]: cannot read {name}: {error}"),
        }
    }
}

impl std::error::Error for InputError {}

/// A byte count as people write it: `32 MiB`, `1.5 KiB`, `100 bytes`.
pub fn human(bytes: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if bytes >= size {
            let whole = bytes / size;
            let tenths = (bytes % size) * 10 / size;
            return if tenths == 0 {
                format!("{whole} {unit}")
            } else {
                format!("{whole}.{tenths} {unit}")
            };
        }
    }
    format!("{bytes} bytes")
}

/// Parses a size: a number of bytes, optionally with a binary unit (`K`, `KiB`, `M`, `MiB`,
/// `G`, `GiB`, any case).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let (digits, unit) = trimmed.split_at(split);
    let number: u64 = digits
        .parse()
        .map_err(|_| format!("{text:?} is not a size; write e.g. 1048576, 64KiB or 32MiB"))?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        other => return Err(format!("unknown size unit {other:?}; use KiB, MiB or GiB")),
    };
    number
        .checked_mul(scale)
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("{text:?} is not a size between 1 byte and 16 EiB"))
}

/// Reads all of `reader`, named `name`, refusing more than `limit` bytes.
pub fn read_bounded(reader: impl Read, name: &str, limit: u64) -> Result<Vec<u8>, InputError> {
    read_bounded_into(reader, name, limit, Vec::new())
}

/// [`read_bounded`] into `bytes`, whose capacity a caller that knows the size sets to it, so
/// that the buffer is not grown past it by doubling.
fn read_bounded_into(
    reader: impl Read,
    name: &str,
    limit: u64,
    mut bytes: Vec<u8>,
) -> Result<Vec<u8>, InputError> {
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| InputError::Io {
            name: name.to_string(),
            error,
        })?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge {
            name: name.to_string(),
            limit,
        });
    }
    Ok(bytes)
}

/// The entries of the folder `dir`, sorted, hidden ones (named with a leading `.`, such as an
/// atomic write's temporary file) left out.
pub fn listed(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let failed = |e: io::Error| format!("{}: {e}", dir.display());
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(failed)? {
        let entry = entry.map_err(failed)?;
        if !entry.file_name().to_string_lossy().starts_with('.') {
            paths.push(entry.path());
        }
    }
    paths.sort();
    Ok(paths)
}

/// Reads a file within the process's limit, into a buffer of the file's size; a file whose
/// size is known to exceed it is refused before any of it is read.
pub fn read_file(path: &Path) -> Result<Vec<u8>, InputError> {
    let name = path.display().to_string();
    let io = |error| InputError::Io {
        name: name.clone(),
        error,
    };
    let file = File::open(path).map_err(io)?;
    let limit = limit();
    let size = file.metadata().map_err(io)?.len();
    if size > limit {
        return Err(InputError::TooLarge { name, limit });
    }
    let bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    read_bounded_into(file, &name, limit, bytes)
}

/// Reads a file, or standard input for `-` or no file, within the process's limit.
pub fn read(file: Option<&Path>) -> Result<Vec<u8>, InputError> {
    match file {
        Some(path) if path != Path::new("-") => read_file(path),
        _ => read_bounded(io::stdin().lock(), "stdin", limit()),
    }
}

/// Reads a UTF-8 text file within the process's limit.
pub fn read_text(path: &Path) -> Result<String, String> {
    let bytes = read_file(path).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| format!("{}: not UTF-8: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_is_sorted_and_leaves_hidden_entries_out() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b", ".b.123.tmp", "a", ".hidden"] {
            std::fs::write(dir.path().join(name), b"").unwrap();
        }
        let names: Vec<String> = listed(dir.path())
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a", "b"]);
        let missing = listed(&dir.path().join("none")).unwrap_err();
        assert!(missing.contains("none"), "{missing}");
    }

    #[test]
    fn an_input_over_the_limit_is_refused_without_reading_the_rest() {
        let endless = io::repeat(b'[');
        match read_bounded(endless, "stdin", 1000) {
            Err(e @ InputError::TooLarge { .. }) => {
                assert!(e.is_refusal());
                assert!(
                    e.to_string().starts_with(
                        "error[too_large]: stdin is larger than the input limit of 1000 bytes"
                    ),
                    "{e}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(read_bounded(&b"[1]"[..], "x", 3).unwrap(), b"[1]");
        assert!(read_bounded(&b"[1]"[..], "x", 2).is_err());
    }

    #[test]
    fn a_file_is_read_into_a_buffer_of_its_own_size() {
        // Without the size, reading grows the buffer by doubling: 128 KiB for these 100,000
        // bytes, twice a mebibyte for a 1 MiB document.
        let path = std::env::temp_dir().join(format!("canonfuzz-input-{}", std::process::id()));
        std::fs::write(&path, vec![b' '; 100_000]).unwrap();
        let bytes = read_file(&path);
        std::fs::remove_file(&path).unwrap();
        let bytes = bytes.unwrap();
        assert_eq!(bytes.len(), 100_000);
        assert_eq!(bytes.capacity(), 100_000);
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64KiB"), Ok(64 << 10));
        assert_eq!(parse_size("32 mib"), Ok(32 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        for bad in ["", "0", "12 parsecs", "-1", "99999999999G"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(human(DEFAULT_MAX_INPUT), "32 MiB");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(10), "10 bytes");
    }
}
