//! Reading the text eight bytes at a time, where a name or a run is short and a loop over
//! its bytes would cost a mispredicted exit each time.

/// The eight bytes of `input` from `at`, the first lowest, zeros past the input's end.
#[inline(always)]
pub(crate) fn word_at(input: &[u8], at: usize) -> u64 {
    match input.get(at..at + 8) {
        Some(bytes) => <[u8; 8]>::try_from(bytes).map_or(0, u64::from_le_bytes),
        None => input
            .get(at..)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .fold(0, |word, (i, &b)| word | u64::from(b) << (8 * i)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_eight_bytes_lowest_first_and_zeros_past_the_end() {
        let input: Vec<u8> = (1..=12).collect();
        for at in 0..=input.len() + 2 {
            let expected = (0..8).fold(0u64, |word, i| {
                word | u64::from(input.get(at + i).copied().unwrap_or(0)) << (8 * i)
            });
            assert_eq!(word_at(&input, at), expected, "{at}");
        }
    }
}
