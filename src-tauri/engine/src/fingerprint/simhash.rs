//! 64-bit SimHash over weighted tokens (Charikar; the seed papers' paragraph fingerprint). Each token
//! occurrence is hashed with xxh3-64, seed 0, over its normalised UTF-8 bytes and carries its word's
//! integer weight (see `idf`); bit `i` of the fingerprint is set when the occurrences whose hash has bit
//! `i` set weigh more than half of all occurrences together (Charikar's "weights with the bit outweigh
//! those without", in integers). Summing per occurrence is the TF × IDF weighting. The sums are exact
//! integers, so the order of the tokens does not matter and the bits are identical on every machine. The
//! definition is fixed: changing it bumps `FINGERPRINT_VERSION`.

/// The largest weight: IDF 32 in fixed point, far above any real IDF (jieba's stay below 20). Larger
/// weights are capped, which keeps [`SPILL`] occurrences within a 32-bit counter.
pub const MAX_WEIGHT: u32 = (1 << 21) - 1;

/// Occurrences summed in 32-bit counters before they are added to the 64-bit totals:
/// `SPILL × MAX_WEIGHT < 2^32`.
const SPILL: u32 = 2048;

/// For each byte value, a mask per bit: all ones where the bit is set. Selecting a weight with `&`
/// through this table lets the 64 counters be updated eight at a time without a branch.
static BYTE_MASKS: [[u32; 8]; 256] = {
    let mut t = [[0u32; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            if b >> j & 1 == 1 {
                t[b][j] = u32::MAX;
            }
            j += 1;
        }
        b += 1;
    }
    t
};

/// Running SimHash sums of one paragraph. The sums are exact: occurrences are added into 32-bit counters
/// (half the work of 64-bit ones) that are moved into 64-bit totals every [`SPILL`] occurrences.
#[derive(Debug, Clone)]
pub struct SimHasher {
    with_bit: [u64; 64],
    recent: [u32; 64],
    pending: u32,
    total: u64,
}

impl Default for SimHasher {
    fn default() -> Self {
        SimHasher {
            with_bit: [0; 64],
            recent: [0; 64],
            pending: 0,
            total: 0,
        }
    }
}

impl SimHasher {
    /// Add one token occurrence: its xxh3-64 and its weight (capped at [`MAX_WEIGHT`]).
    #[inline]
    pub fn add(&mut self, hash: u64, weight: u32) {
        if self.pending == SPILL {
            self.spill();
        }
        self.pending += 1;
        let w = weight.min(MAX_WEIGHT);
        self.total += u64::from(w);
        for (k, counters) in self.recent.chunks_exact_mut(8).enumerate() {
            let masks = &BYTE_MASKS[(hash >> (8 * k)) as u8 as usize];
            for (c, m) in counters.iter_mut().zip(masks) {
                *c += w & m;
            }
        }
    }

    fn spill(&mut self) {
        for (total, recent) in self.with_bit.iter_mut().zip(&mut self.recent) {
            *total += u64::from(std::mem::take(recent));
        }
        self.pending = 0;
    }

    /// The fingerprint. No tokens (or only weightless ones) give 0.
    pub fn finish(&self) -> u64 {
        self.with_bit
            .iter()
            .zip(&self.recent)
            .enumerate()
            .filter(|(_, (&c, &r))| (u128::from(c) + u128::from(r)) * 2 > u128::from(self.total))
            .fold(0u64, |f, (bit, _)| f | 1 << bit)
    }
}

/// SimHash of `(token hash, weight)` occurrences.
pub fn simhash(weighted: impl IntoIterator<Item = (u64, u32)>) -> u64 {
    let mut h = SimHasher::default();
    for (hash, weight) in weighted {
        h.add(hash, weight);
    }
    h.finish()
}

/// Hamming distance between two fingerprints.
#[inline]
pub fn hamming(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

/// The seed method's similarity: `1 - hamming / 64`.
pub fn similarity(hamming: u32) -> f64 {
    1.0 - f64::from(hamming) / 64.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use xxhash_rust::xxh3::xxh3_64;

    fn words(range: std::ops::Range<u32>) -> Vec<(u64, u32)> {
        range
            .map(|i| (xxh3_64(format!("word{i}").as_bytes()), 1))
            .collect()
    }

    #[test]
    fn single_token_fingerprint_is_its_hash() {
        assert_eq!(simhash([(xxh3_64(b"debian"), 7)]), xxh3_64(b"debian"));
        assert_eq!(simhash(std::iter::empty()), 0);
        assert_eq!(simhash([(xxh3_64(b"debian"), 0)]), 0, "weightless");
    }

    #[test]
    fn each_bit_is_a_weighted_vote() {
        // Bit 0 set in a (weight 3), clear in b (weight 2) and c (weight 2): 3 of 7 is not a majority.
        let (a, b, c) = (0b01, 0b10, 0b00);
        assert_eq!(simhash([(a, 3), (b, 2), (c, 2)]), 0b00);
        assert_eq!(simhash([(a, 5), (b, 2), (c, 2)]), 0b01);
        // A tie clears the bit; the order of occurrences does not matter.
        assert_eq!(simhash([(a, 2), (b, 2)]), 0);
        assert_eq!(
            simhash([(a, 5), (b, 4), (c, 1)]),
            simhash([(c, 1), (b, 4), (a, 5)])
        );
        // Every byte of the hash reaches its own counters.
        assert_eq!(simhash([(1 << 63 | 1 << 9, 1)]), 1 << 63 | 1 << 9);
        // Weights are capped.
        assert_eq!(simhash([(a, u32::MAX), (b, MAX_WEIGHT), (c, 1)]), 0b00);
    }

    #[test]
    fn sums_stay_exact_past_the_32_bit_counters() {
        // 5,000 heaviest occurrences with bit 0 set (more than 2^32 in all) against as many, plus one,
        // without: one more without wins, one more with wins.
        let heavy = std::iter::repeat_n((1u64, MAX_WEIGHT), 5_000);
        let light = std::iter::repeat_n((0u64, MAX_WEIGHT), 5_000);
        assert_eq!(
            simhash(heavy.clone().chain(light.clone()).chain([(0, 1)])),
            0
        );
        assert_eq!(simhash(heavy.chain(light).chain([(1, 1)])), 1);
    }

    #[test]
    fn similar_token_sets_are_close_and_different_ones_far() {
        let a = simhash(words(0..40));
        let b = simhash(words(2..40));
        let c = simhash(words(100..140));
        assert!(hamming(a, b) < 12, "{}", hamming(a, b));
        assert!(hamming(a, c) > 20, "{}", hamming(a, c));
    }
}
