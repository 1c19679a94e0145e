//! Copying the short spans of input a canonicalizer writes out as they were read, such as
//! numbers already in canonical form, without a general memory copy for each.

/// Spans longer than this go to the general copy.
const SHORT: usize = 32;

/// Appends `input[start..end]` to `out`. A short span is copied as whole eight-byte words
/// read from the input, the excess cut off afterwards (near the end of the input, where no
/// whole word is left, the rest is copied as it is): a store or two instead of a call to a
/// general copy.
#[inline]
pub(crate) fn copy_span(input: &[u8], start: usize, end: usize, out: &mut Vec<u8>) {
    if end.saturating_sub(start) > SHORT {
        out.extend_from_slice(input.get(start..end).unwrap_or_default());
        return;
    }
    let mut pos = start;
    while pos < end {
        let Some(word) = input
            .get(pos..pos + 8)
            .and_then(|c| <[u8; 8]>::try_from(c).ok())
        else {
            out.extend_from_slice(input.get(pos..end).unwrap_or_default());
            return;
        };
        out.extend_from_slice(&word);
        pos += 8;
    }
    out.truncate(out.len() - (pos - end));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_exactly_the_span_wherever_it_lies() {
        let input: Vec<u8> = (0..80).collect();
        for start in 0..=input.len() {
            for end in start..=input.len() {
                let mut out = vec![255];
                copy_span(&input, start, end, &mut out);
                assert_eq!(out[1..], input[start..end], "{start}..{end}");
                assert_eq!(out[0], 255);
            }
        }
    }
}
