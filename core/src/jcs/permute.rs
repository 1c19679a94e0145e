//! Putting the members of an object already written to the output into canonical order in
//! place, so that reordering costs memory in proportion to the member count, not to the
//! bytes of the object.
//!
//! The members are blocks of different lengths. They are merge-sorted by their canonical
//! place, and each merge exchanges neighbouring runs of blocks by rotating their bytes
//! (symmetric merging, Kim and Kutzner, "Stable minimum storage merging by symmetric
//! comparisons", ESA 2004): every byte is moved O(log² n) times in the worst case, runs
//! already in order are not touched at all.

/// Reorders the blocks of `body` in place. Block `j` starts at `offsets[j]` and ends where
/// block `j + 1` starts (the last one at the end of `body`), and `ranks[j]` is its place in
/// the wanted order; the ranks are a permutation of `0..ranks.len()` and `offsets` has one
/// entry per rank, ascending. Both are left describing the blocks in their new order.
pub(crate) fn permute_blocks(body: &mut [u8], ranks: &mut [usize], offsets: &mut [usize]) {
    let mut blocks = Blocks {
        body,
        ranks,
        offsets,
    };
    let count = blocks.ranks.len();
    let mut width = 1;
    while width < count {
        let mut low = 0;
        while low + width < count {
            let mid = low + width;
            let high = mid.saturating_add(width).min(count);
            if blocks.rank(mid - 1) > blocks.rank(mid) {
                blocks.merge(low, mid, high);
            }
            low = high;
        }
        width = width.saturating_mul(2);
    }
}

/// The blocks of an object body, described by their ranks and start offsets.
struct Blocks<'a> {
    body: &'a mut [u8],
    ranks: &'a mut [usize],
    offsets: &'a mut [usize],
}

impl Blocks<'_> {
    fn rank(&self, i: usize) -> usize {
        self.ranks.get(i).copied().unwrap_or(usize::MAX)
    }

    fn offset(&self, i: usize) -> usize {
        self.offsets.get(i).copied().unwrap_or(self.body.len())
    }

    /// Exchanges blocks `a..m` and `m..b`: afterwards the blocks once at `m..b` come first.
    fn rotate(&mut self, a: usize, m: usize, b: usize) {
        let (start, split, end) = (self.offset(a), self.offset(m), self.offset(b));
        if let Some(bytes) = self.body.get_mut(start..end) {
            rotate_left(bytes, split - start);
        }
        if let Some(ranks) = self.ranks.get_mut(a..b) {
            rotate_left(ranks, m - a);
        }
        if let Some(offsets) = self.offsets.get_mut(a..b) {
            rotate_left(offsets, m - a);
            let (moved_forward, moved_back) = offsets.split_at_mut(b - m);
            for offset in moved_forward {
                *offset -= split - start;
            }
            for offset in moved_back {
                *offset += end - split;
            }
        }
    }

    /// Merges the sorted runs of blocks `a..m` and `m..b` into one sorted run. The recursion
    /// halves the range at each level, so its depth is at most log2 of the block count.
    fn merge(&mut self, a: usize, m: usize, b: usize) {
        if m - a == 1 {
            // One block to insert into m..b: find the first block ranked above it.
            let rank = self.rank(a);
            let place = self.first_above(m, b, |r| r > rank);
            self.rotate(a, m, place);
            return;
        }
        if b - m == 1 {
            let rank = self.rank(m);
            let place = self.first_above(a, m, |r| r > rank);
            self.rotate(place, m, b);
            return;
        }
        let mid = a + (b - a) / 2;
        let n = mid + m;
        let (mut start, mut r) = if m > mid {
            (n.saturating_sub(b), mid)
        } else {
            (a, m)
        };
        let p = n - 1;
        while start < r {
            let c = start + (r - start) / 2;
            if self.rank(p.saturating_sub(c)) >= self.rank(c) {
                start = c + 1;
            } else {
                r = c;
            }
        }
        let end = n - start;
        if start < m && m < end {
            self.rotate(start, m, end);
        }
        if a < start && start < mid {
            self.merge(a, start, mid);
        }
        if mid < end && end < b {
            self.merge(mid, end, b);
        }
    }

    /// The first block in `from..to`, ranked in ascending order, whose rank passes `above`;
    /// `to` when none does.
    fn first_above(&self, mut from: usize, mut to: usize, above: impl Fn(usize) -> bool) -> usize {
        while from < to {
            let half = from + (to - from) / 2;
            if above(self.rank(half)) {
                to = half;
            } else {
                from = half + 1;
            }
        }
        from
    }
}

/// A rotation whose shorter side is at most this many elements moves that side through a
/// buffer on the stack.
const BUFFERED: usize = 256;

/// Moves the first `mid` elements of `slice` to its end, as `<[T]>::rotate_left` does, in time
/// linear in the length whatever the split. The standard library's rotation goes on swapping
/// blocks down to single elements: where the two sides differ by a little, as two members of
/// nearly one length do, nearly every byte is swapped on its own, dozens of times slower than
/// an even split. Here blocks are swapped only while both sides are longer than the buffer,
/// and the shorter side is then moved through it.
fn rotate_left<T: Copy + Default>(mut slice: &mut [T], mut mid: usize) {
    loop {
        let left = mid.min(slice.len());
        let right = slice.len() - left;
        if left.min(right) <= BUFFERED {
            let mut buffer = [T::default(); BUFFERED];
            if left <= right {
                if let (Some(held), Some(side)) = (buffer.get_mut(..left), slice.get(..left)) {
                    held.copy_from_slice(side);
                }
                slice.copy_within(left.., 0);
                if let (Some(end), Some(held)) = (slice.get_mut(right..), buffer.get(..left)) {
                    end.copy_from_slice(held);
                }
            } else {
                if let (Some(held), Some(side)) = (buffer.get_mut(..right), slice.get(left..)) {
                    held.copy_from_slice(side);
                }
                slice.copy_within(..left, right);
                if let (Some(start), Some(held)) = (slice.get_mut(..right), buffer.get(..right)) {
                    start.copy_from_slice(held);
                }
            }
            return;
        }
        let whole = std::mem::take(&mut slice);
        // Both sides are longer than the buffer: the shorter one is swapped with the block of
        // its length at the far end of the other, which is where it belongs; the block it
        // displaced then lies beside the rest of its side, and the two are rotated next.
        if left <= right {
            let Some((front, back)) = whole.split_at_mut_checked(left) else {
                return;
            };
            if let Some(tail) = back.get_mut(right - left..) {
                front.swap_with_slice(tail);
            }
            slice = whole.get_mut(..right).unwrap_or_default();
        } else {
            let Some((front, back)) = whole.split_at_mut_checked(left) else {
                return;
            };
            if let Some(head) = front.get_mut(..right) {
                head.swap_with_slice(back);
            }
            slice = whole.get_mut(right..).unwrap_or_default();
            mid = left - right;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use canonfuzz_rng::Rng;

    /// A permutation of `0..n`: shuffled, reversed, sorted, or sorted but for a few swaps.
    fn permutation(rng: &mut Rng, n: usize) -> Vec<usize> {
        let mut ranks: Vec<usize> = (0..n).collect();
        match rng.index(4) {
            0 => ranks.reverse(),
            1 => {}
            2 => {
                for _ in 0..3.min(n) {
                    let (i, j) = (rng.index(n), rng.index(n));
                    ranks.swap(i, j);
                }
            }
            _ => {
                for i in (1..n).rev() {
                    let j = rng.index(i + 1);
                    ranks.swap(i, j);
                }
            }
        }
        ranks
    }

    #[test]
    fn blocks_of_any_length_end_in_rank_order() {
        // Expected: the blocks copied out one by one in rank order, the plain way.
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3_000 {
            let count = 1 + rng.index(40);
            let ranks = permutation(&mut rng, count);
            let blocks: Vec<Vec<u8>> = ranks
                .iter()
                .map(|&rank| {
                    let len = [0, 1, 2, 7, 30, 200][rng.index(6)];
                    (0..len).map(|i| (rank * 31 + i) as u8).collect()
                })
                .collect();
            let mut body: Vec<u8> = blocks.concat();
            let mut offsets: Vec<usize> = blocks
                .iter()
                .scan(0, |at, block| {
                    let start = *at;
                    *at += block.len();
                    Some(start)
                })
                .collect();
            let mut expected = vec![Vec::new(); count];
            for (block, &rank) in blocks.iter().zip(&ranks) {
                expected[rank] = block.clone();
            }
            let mut sorted_ranks = ranks.clone();
            permute_blocks(&mut body, &mut sorted_ranks, &mut offsets);
            assert_eq!(body, expected.concat(), "ranks {ranks:?}");
            assert_eq!(sorted_ranks, (0..count).collect::<Vec<_>>());
            let mut at = 0;
            for (offset, block) in offsets.iter().zip(&expected) {
                assert_eq!(*offset, at, "ranks {ranks:?}");
                at += block.len();
            }
        }
    }

    #[test]
    fn rotations_match_the_standard_librarys_at_every_split() {
        // Expected: `<[T]>::rotate_left`. Lengths around the buffer and splits near the middle,
        // where the sides differ by a few elements, take every path through the rounds.
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        let lengths = [
            0,
            1,
            2,
            BUFFERED,
            BUFFERED + 1,
            2 * BUFFERED + 1,
            3 * BUFFERED + 7,
            5_003,
        ];
        for &len in &lengths {
            let middle = len / 2;
            let splits = (0..=len).filter(|&mid| {
                mid <= 3 || len - mid <= 3 || mid.abs_diff(middle) <= 3 || rng.index(64) == 0
            });
            for mid in splits {
                let bytes: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
                let (mut expected, mut got) = (bytes.clone(), bytes);
                expected.rotate_left(mid);
                rotate_left(&mut got, mid);
                assert_eq!(got, expected, "{len} bytes split at {mid}");
                let words: Vec<usize> = (0..len).collect();
                let (mut expected, mut got) = (words.clone(), words);
                expected.rotate_left(mid);
                rotate_left(&mut got, mid);
                assert_eq!(got, expected, "{len} words split at {mid}");
            }
        }
    }
}
