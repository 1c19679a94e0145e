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
            bytes.rotate_left(split - start);
        }
        if let Some(ranks) = self.ranks.get_mut(a..b) {
            ranks.rotate_left(m - a);
        }
        if let Some(offsets) = self.offsets.get_mut(a..b) {
            offsets.rotate_left(m - a);
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
}
