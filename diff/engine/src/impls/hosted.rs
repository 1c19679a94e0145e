//! Libraries of one runtime answered together by one worker process. Each library in a worker
//! of its own costs a runtime's start, its warm-up and the protocol's decoding and encoding per
//! input, per library; a host pays them once for all of its libraries, and hands each of them
//! the same input (the Node program parses it once for all of its JCS libraries, none of which
//! writes to what it is given). A campaign's batches and the minimizer's stages, which
//! ask all of a host's libraries together, go to the host; whatever asks one library alone
//! (the corpus runner, `--impls` naming only some of them) goes to that library's own worker,
//! as does an input the host crashed or hung on, so that a failure is put down to the library
//! that failed and no other.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::worker::{self, Runtime, WorkerImpl};
use super::{Implementation, Together};
use crate::outcome::Outcome;

/// The process answering for several libraries, and each library's own worker.
pub struct Host {
    together: WorkerImpl,
    alone: Vec<WorkerImpl>,
    /// Each library's share of the last reading of the host's processes, until the host
    /// answers again: a summary asks each library for its time, and every reading costs the
    /// host the CPU it spends answering it.
    shares: Mutex<Option<Vec<Duration>>>,
}

/// One library of a [`Host`].
pub struct Hosted {
    host: Arc<Host>,
    place: usize,
}

/// The libraries `(name, library)` of `family` in `runtime`'s worker program, voting in `group`, answered
/// together by one host. The program must answer for several libraries when named several,
/// as the Node worker does (`worker.mjs`, its opening comment).
fn host(
    family: &str,
    runtime: Runtime,
    libraries: &[(&'static str, &'static str)],
    group: &'static str,
) -> Vec<Box<dyn Implementation>> {
    let host = Arc::new(Host {
        together: worker::hosting(family, libraries.iter().map(|(_, l)| *l).collect(), runtime),
        alone: libraries
            .iter()
            .map(|(name, library)| WorkerImpl::new(family, name, library, group, runtime))
            .collect(),
        shares: Mutex::default(),
    });
    (0..libraries.len())
        .map(|place| {
            Box::new(Hosted {
                host: Arc::clone(&host),
                place,
            }) as Box<dyn Implementation>
        })
        .collect()
}

/// npm libraries `(name, library)` of `family` in the Node worker, voting in `group`, answered
/// together by one host.
pub fn node(
    family: &str,
    libraries: &[(&'static str, &'static str)],
    group: &'static str,
) -> Vec<Box<dyn Implementation>> {
    host(family, Runtime::Node, libraries, group)
}

impl Host {
    /// The CPU time of the host's processes that falls to each library, by place: each
    /// process's time in proportion to what the library took of the time its libraries said
    /// they took, and an even share of processes that ended before saying. All places are
    /// costed from one reading of the processes, which go on using CPU to answer it, and
    /// the reading stands until the host answers again.
    fn cpu_shares(&self) -> Vec<Duration> {
        let Ok(mut shares) = self.shares.lock() else {
            return self.read_shares();
        };
        shares.get_or_insert_with(|| self.read_shares()).clone()
    }

    /// [`Host::cpu_shares`], read anew.
    fn read_shares(&self) -> Vec<Duration> {
        let width = self.alone.len().max(1);
        // Asking may end a process, whose time then counts with the ended ones'.
        let said = self.together.spent();
        let even = self.together.ended() / u32::try_from(width).unwrap_or(u32::MAX);
        (0..width)
            .map(|place| {
                let mut share = even;
                for (cpu, spent) in &said {
                    let total: f64 = spent.iter().sum();
                    let part = match spent.get(place) {
                        Some(mine) if total > 0.0 => mine / total,
                        _ => 1.0 / width as f64,
                    };
                    share += cpu.mul_f64(part);
                }
                share
            })
            .collect()
    }

    /// Each input's outcomes, a row of one per library: the host's, and each library's own
    /// where the host failed.
    fn answer_together(&self, inputs: &[&[u8]]) -> Vec<Vec<Outcome>> {
        let width = self.alone.len();
        let mut flat = self.together.run_flat(inputs).into_iter();
        let mut rows: Vec<Vec<Outcome>> = inputs
            .iter()
            .map(|_| {
                let mut row: Vec<Outcome> = flat.by_ref().take(width).collect();
                row.resize(width, Outcome::Crashed("no answer".to_string()));
                row
            })
            .collect();
        let failed: Vec<usize> = rows
            .iter()
            .enumerate()
            .filter(|(_, row)| {
                row.iter()
                    .any(|o| matches!(o, Outcome::Crashed(_) | Outcome::TimedOut))
            })
            .map(|(k, _)| k)
            .collect();
        if failed.is_empty() {
            return rows;
        }
        let again: Vec<&[u8]> = failed
            .iter()
            .filter_map(|&k| inputs.get(k).copied())
            .collect();
        for (place, library) in self.alone.iter().enumerate() {
            for (&k, outcome) in failed.iter().zip(library.run_batch(&again)) {
                if let Some(slot) = rows.get_mut(k).and_then(|row| row.get_mut(place)) {
                    *slot = outcome;
                }
            }
        }
        rows
    }
}

impl Together for Host {
    fn width(&self) -> usize {
        self.alone.len()
    }

    fn run_together(&self, inputs: &[&[u8]]) -> Vec<Vec<Outcome>> {
        let rows = self.answer_together(inputs);
        // The host has spent more: the next reading is a new one.
        if let Ok(mut shares) = self.shares.lock() {
            *shares = None;
        }
        rows
    }
}

impl Hosted {
    fn alone(&self) -> &WorkerImpl {
        // A host is built with one worker per place.
        &self.host.alone[self.place]
    }
}

impl Implementation for Hosted {
    fn name(&self) -> &str {
        self.alone().name()
    }

    fn version(&self) -> String {
        self.alone().version()
    }

    fn group(&self) -> &str {
        self.alone().group()
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        self.alone().run_batch(inputs)
    }

    fn in_process(&self) -> bool {
        false
    }

    /// Out when its own worker is, or when the host is: a host taken out answers nothing
    /// for any of its libraries.
    fn taken_out(&self) -> Option<String> {
        self.host
            .together
            .taken_out()
            .or_else(|| self.alone().taken_out())
    }

    fn uses(&self) -> Option<String> {
        self.host.together.uses()
    }

    fn available(&self) -> Result<(), String> {
        self.host.together.available()
    }

    /// Its share of the host's processes' time, and the time of its own.
    fn cpu(&self) -> Option<Duration> {
        Some(self.host.cpu_shares().get(self.place).copied()? + self.alone().cpu()?)
    }

    fn together(&self) -> Option<(&dyn Together, usize)> {
        Some((self.host.as_ref(), self.place))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// The harness's host of the npm JCS libraries.
    fn npm() -> Vec<Box<dyn Implementation>> {
        node(
            "jcs",
            &[
                ("node-canonicalize", "canonicalize"),
                ("node-json-canonicalize", "json-canonicalize"),
                ("node-json-canon", "json-canon"),
                ("node-truestamp-canonify", "@truestamp/canonify"),
            ],
            "node-v8",
        )
    }

    /// A host of `libraries` played by the misbehaving test worker, as is each library alone.
    fn faulty(libraries: &[&'static str]) -> Host {
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/faulty_worker.py");
        let timeout = Duration::from_secs(2);
        Host {
            shares: Mutex::default(),
            together: worker::hosting("jcs", libraries.to_vec(), Runtime::Python)
                .with_script(script.clone(), timeout),
            alone: libraries
                .iter()
                .map(|l| {
                    WorkerImpl::new("jcs", l, l, "cpython", Runtime::Python)
                        .with_script(script.clone(), timeout)
                })
                .collect(),
        }
    }

    #[test]
    fn a_host_answers_for_each_library_what_it_answers_alone() {
        let libraries = npm();
        let (host, _) = libraries[0].together().expect("a hosted library");
        assert_eq!(host.width(), 4);
        // Where the npm libraries part (corpus/jcs/findings): a lone surrogate, an overflowing
        // number, a repeated name; and valid JSON, a syntax error, invalid UTF-8, a document
        // too deep for them, nothing at all.
        let deep = format!("{}{}", "[".repeat(1_001), "]".repeat(1_001));
        let inputs: Vec<&[u8]> = vec![
            br#"["\uDBFF\uDBFF",1e999]"#,
            br#"[{"b":0,"b":0},[1e999,"\udc00"]]"#,
            r#"[{"｡":0,"｡":9878524473846609},"\ud800"]"#.as_bytes(),
            br#"{"b":[1e3,-0,0.1],"a":"\u00e9"}"#,
            b"[1,",
            b"[\"\xff\"]",
            deep.as_bytes(),
            b"",
        ];
        let rows = host.run_together(&inputs);
        assert_eq!(rows.len(), inputs.len());
        for (place, library) in libraries.iter().enumerate() {
            let alone = library.run_batch(&inputs);
            for ((row, own), input) in rows.iter().zip(&alone).zip(&inputs) {
                assert_eq!(
                    row.get(place),
                    Some(own),
                    "{} on {:?}",
                    library.name(),
                    String::from_utf8_lossy(input)
                );
            }
        }
        // Three different answers to one input: an answer put in another library's place
        // would show.
        let first = rows.first().expect("a row");
        let mut classes: Vec<&Outcome> = Vec::new();
        for outcome in first {
            if !classes.contains(&outcome) {
                classes.push(outcome);
            }
        }
        assert_eq!(classes.len(), 3, "{first:?}");
    }

    #[test]
    fn an_input_a_host_fails_on_is_asked_of_each_library_alone() {
        let host = faulty(&["first", "second"]);
        let inputs: [&[u8]; 3] = [b"a", b"crash-together", b"b"];
        let ok = |s: &str| Outcome::Ok(s.as_bytes().to_vec());
        assert_eq!(
            host.run_together(&inputs),
            [
                vec![ok("a"), ok("a")],
                vec![ok("crash-together"), ok("crash-together")],
                vec![ok("b"), ok("b")],
            ]
        );
        // Had the host's crash stood, both libraries would have been put down as crashed,
        // even where it had answered for one of them before it failed.
        let flat = host
            .together
            .run_flat(&[b"a", b"crash-together", b"half", b"b"]);
        assert!(
            matches!(
                flat.as_slice(),
                [a1, a2, Outcome::Crashed(_), Outcome::Crashed(_), Outcome::Crashed(_), Outcome::Crashed(_), b1, b2]
                    if [a1, a2] == [&ok("a"); 2] && [b1, b2] == [&ok("b"); 2]
            ),
            "{flat:?}"
        );
    }

    #[test]
    fn a_host_that_cannot_speak_takes_each_of_its_libraries_out() {
        let host = Arc::new(faulty(&["first", "second"]));
        let libraries: Vec<Hosted> = (0..2)
            .map(|place| Hosted {
                host: Arc::clone(&host),
                place,
            })
            .collect();
        let garbage: Vec<&[u8]> = vec![b"garbage"; worker::GARBAGE_LIMIT as usize];
        host.run_together(&garbage[1..]);
        assert!(libraries.iter().all(|l| l.taken_out().is_none()));
        host.run_together(&garbage[..1]);
        for library in &libraries {
            let why = library.taken_out().expect("taken out with its host");
            assert!(why.contains("not the worker protocol"), "{why}");
        }
    }

    /// The two libraries' shares of `host`'s time once it has burnt 300 ms more answering
    /// one input.
    fn burn(host: &Host) -> [Duration; 2] {
        let burn = Outcome::Ok(b"burn:300".to_vec());
        assert_eq!(
            host.run_together(&[b"burn:300"]),
            [vec![burn.clone(), burn]]
        );
        let [first, second] = host.cpu_shares()[..] else {
            panic!("two shares");
        };
        [first, second]
    }

    /// A stand-in host of two `libraries` that has burnt 300 ms answering one input, and the
    /// two libraries' shares of its time, each at least most of what was burnt.
    fn shares_after_burning(libraries: &[&'static str; 2]) -> (Host, [Duration; 2]) {
        let host = faulty(libraries);
        let [first, second] = burn(&host);
        assert!(first >= Duration::from_millis(90), "{first:?}");
        (host, [first, second])
    }

    #[test]
    fn a_hosts_cpu_time_is_divided_by_what_each_library_took() {
        // The stand-in spends 100 ms on each answer about the time its libraries took: shares
        // of two readings of its time would not be in the ratio it gives.
        let (_, [first, second]) = shares_after_burning(&["first", "dear"]);
        // The stand-in says the second library took twice the first's time.
        let ratio = second.as_secs_f64() / first.as_secs_f64();
        assert!((ratio - 2.0).abs() < 0.01, "{first:?} and {second:?}");
    }

    #[test]
    fn a_hosts_libraries_are_costed_from_one_reading_until_it_answers_again() {
        // The stand-in spends 100 ms on each answer about the time its libraries took: had
        // each library of a summary asked anew, each would carry the readings before its own.
        let (host, shares) = shares_after_burning(&["first", "dear"]);
        let host = Arc::new(host);
        let costed: Vec<Option<Duration>> = (0..2)
            .map(|place| {
                Hosted {
                    host: Arc::clone(&host),
                    place,
                }
                .cpu()
            })
            .collect();
        assert_eq!(costed, shares.map(Some));
        // Once the host has answered again, what it spent is read anew.
        let [first, _] = burn(&host);
        assert!(first >= shares[0] + Duration::from_millis(90), "{first:?}");
    }

    #[test]
    fn a_host_that_does_not_say_what_its_libraries_took_is_ended_and_its_time_shared() {
        let (host, [first, second]) = shares_after_burning(&["first", "silent"]);
        // No answer to the request: the process is ended (a late one would be read as the
        // next batch's answer) and its time split evenly.
        assert_eq!(first, second);
        assert!(host.together.spent().is_empty());
        let ok = |s: &str| Outcome::Ok(s.as_bytes().to_vec());
        assert_eq!(host.run_together(&[b"a"]), [vec![ok("a"), ok("a")]]);
    }
}
