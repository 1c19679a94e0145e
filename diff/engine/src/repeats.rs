//! Answers to short inputs a campaign has already asked. Generated inputs of a few bytes recur
//! (`""`, `[]`, a lone digit: about one case in eight at the JCS defaults), and every
//! implementation answers the same bytes the same way, so a repeat is judged from the
//! answers its first occurrence got instead of being asked again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Inputs shorter than this are remembered: nearly all repeats are, and their answers are
/// small.
const REMEMBERED_BELOW: usize = 16;

/// The most inputs remembered, which bounds the memory a long campaign gives to them.
const REMEMBERED_AT_MOST: usize = 1 << 15;

/// The answers remembered, by input, and how many cases they have answered.
pub struct Repeats<A> {
    answers: Mutex<HashMap<Vec<u8>, A>>,
    repeated: AtomicU64,
}

impl<A> Default for Repeats<A> {
    fn default() -> Self {
        Repeats {
            answers: Mutex::new(HashMap::new()),
            repeated: AtomicU64::new(0),
        }
    }
}

impl<A: Clone> Repeats<A> {
    /// The answer to every input, in order: remembered ones as they were, and the rest from
    /// one call of `ask` on each distinct input not remembered.
    pub fn answer(&self, inputs: &[&[u8]], ask: impl FnOnce(&[&[u8]]) -> Vec<A>) -> Vec<A> {
        let remembered = |input: &[u8]| input.len() < REMEMBERED_BELOW;
        // Per input: where its answer comes from, `Ok` remembered, `Err(k)` the k-th asked.
        let mut asked: Vec<&[u8]> = Vec::new();
        let mut first_asked: HashMap<&[u8], usize> = HashMap::new();
        let sources: Vec<Result<A, usize>> = {
            let known = self.answers.lock().ok();
            inputs
                .iter()
                .map(|&input| {
                    if !remembered(input) {
                        asked.push(input);
                        return Err(asked.len() - 1);
                    }
                    if let Some(answer) = known.as_ref().and_then(|k| k.get(input)) {
                        return Ok(answer.clone());
                    }
                    Err(*first_asked.entry(input).or_insert_with(|| {
                        asked.push(input);
                        asked.len() - 1
                    }))
                })
                .collect()
        };
        let answers = ask(&asked);
        if let Ok(mut known) = self.answers.lock() {
            for (input, answer) in asked.iter().zip(&answers) {
                if remembered(input) && known.len() < REMEMBERED_AT_MOST {
                    known.insert(input.to_vec(), answer.clone());
                }
            }
        }
        let repeats = inputs.len() - asked.len();
        self.repeated.fetch_add(repeats as u64, Ordering::Relaxed);
        // An answer is cloned only for the inputs that repeat it; its last reader takes it.
        let mut readers = vec![0usize; answers.len()];
        for source in &sources {
            if let Some(count) = source.as_ref().err().and_then(|&k| readers.get_mut(k)) {
                *count += 1;
            }
        }
        let mut answers: Vec<Option<A>> = answers.into_iter().map(Some).collect();
        sources
            .into_iter()
            .filter_map(|source| match source {
                Ok(answer) => Some(answer),
                Err(k) => {
                    let left = readers.get_mut(k)?;
                    *left -= 1;
                    let answer = answers.get_mut(k)?;
                    if *left == 0 {
                        answer.take()
                    } else {
                        answer.clone()
                    }
                }
            })
            .collect()
    }

    /// The cases answered from memory so far.
    pub fn repeated(&self) -> u64 {
        self.repeated.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers each input with its length and the number of the call that asked it, and
    /// records every input asked.
    fn counting<'a>(
        calls: &'a mut u32,
        log: &'a mut Vec<Vec<u8>>,
    ) -> impl FnOnce(&[&[u8]]) -> Vec<(usize, u32)> + 'a {
        *calls += 1;
        let call = *calls;
        move |inputs| {
            log.extend(inputs.iter().map(|i| i.to_vec()));
            inputs.iter().map(|i| (i.len(), call)).collect()
        }
    }

    #[test]
    fn a_short_input_is_asked_once_and_its_repeats_get_its_answer() {
        let repeats = Repeats::default();
        let (mut calls, mut log) = (0, Vec::new());
        let long = [b'x'; REMEMBERED_BELOW];
        let first = repeats.answer(&[b"[]", b"1", b"[]", &long], counting(&mut calls, &mut log));
        assert_eq!(first, [(2, 1), (1, 1), (2, 1), (REMEMBERED_BELOW, 1)]);
        assert_eq!(log, [b"[]".to_vec(), b"1".to_vec(), long.to_vec()]);
        log.clear();
        let second = repeats.answer(&[b"1", &long, b"{}"], counting(&mut calls, &mut log));
        // `1` comes from the first call; the long input is asked again, as is anything new.
        assert_eq!(second, [(1, 1), (REMEMBERED_BELOW, 2), (2, 2)]);
        assert_eq!(log, [long.to_vec(), b"{}".to_vec()]);
        assert_eq!(repeats.repeated(), 2);
    }

    #[test]
    fn no_more_than_the_bound_is_remembered() {
        let repeats = Repeats::default();
        let inputs: Vec<Vec<u8>> = (0..REMEMBERED_AT_MOST as u32 + 10)
            .map(|i| i.to_le_bytes().to_vec())
            .collect();
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        repeats.answer(&refs, |asked| asked.iter().map(|i| i.len()).collect());
        assert_eq!(
            repeats.answers.lock().map(|k| k.len()).ok(),
            Some(REMEMBERED_AT_MOST)
        );
    }
}
