//! Copying the short spans of input a canonicalizer writes out as they were read, such as
//! numbers already in canonical form, without a general memory copy for each.

/// Spans longer than this go to the general copy.
pub(crate) const SHORT_SPAN: usize = 32;

/// Appends `input[start..end]` to `out`. A short span is copied as one block of [`SHORT_SPAN`]
/// bytes read from the input, the excess cut off afterwards: two vector stores whatever the
/// span's length, instead of a call to a general copy or a loop whose exit depends on it.
/// Near the end of the input, where no whole block is left, the span is copied as it is.
#[inline]
pub(crate) fn copy_span(input: &[u8], start: usize, end: usize, out: &mut Vec<u8>) {
    let len = end.saturating_sub(start);
    if len <= SHORT_SPAN {
        if let Some(block) = input
            .get(start..start + SHORT_SPAN)
            .and_then(|b| <[u8; SHORT_SPAN]>::try_from(b).ok())
        {
            out.extend_from_slice(&block);
            out.truncate(out.len() - (SHORT_SPAN - len));
            return;
        }
    }
    out.extend_from_slice(input.get(start..end).unwrap_or_default());
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
