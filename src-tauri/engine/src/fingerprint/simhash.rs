//! 64-bit SimHash over weighted tokens (Charikar; the seed papers' paragraph fingerprint). Each token
//! occurrence is hashed with xxh3-64, seed 0, over its normalised UTF-8 bytes and carries its word's
//! integer weight (see `idf`); bit `i` of the fingerprint is set when the occurrences whose hash has bit
//! `i` set weigh more than half of all occurrences together (Charikar's "weights with the bit outweigh
//! those without", in integers). Summing per occurrence is the TF × IDF weighting. The sums are exact
//! integers, so the order of the tokens does not matter and the bits are identical on every machine. The
//! definition is fixed: changing it bumps `FINGERPRINT_VERSION`.

/// For each byte value, a mask per bit: all ones where the bit is set. Selecting a weight with `&`
/// through this table lets the 64 counters be updated eight at a time without a branch.
static BYTE_MASKS: [[u64; 8]; 256] = {
    let mut t = [[0u64; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            if b >> j & 1 == 1 {
                t[b][j] = u64::MAX;
            }
            j += 1;
        }
        b += 1;
    }
    t
};

/// Running SimHash sums of one paragraph.
#[derive(Debug, Clone)]
pub struct SimHasher {
    with_bit: [u64; 64],
    total: u64,
}

impl Default for SimHasher {
    fn default() -> Self {
        SimHasher {
            with_bit: [0; 64],
            total: 0,
        }
    }
}

impl SimHasher {
    /// Add one token occurrence: its xxh3-64 and its weight.
    #[inline]
    pub fn add(&mut self, hash: u64, weight: u32) {
        let w = u64::from(weight);
        self.total += w;
        for (k, counters) in self.with_bit.chunks_exact_mut(8).enumerate() {
            let masks = &BYTE_MASKS[(hash >> (8 * k)) as u8 as usize];
            for (c, m) in counters.iter_mut().zip(masks) {
                *c += w & m;
            }
        }
    }

    /// The fingerprint. No tokens (or only weightless ones) give 0.
    pub fn finish(&self) -> u64 {
        self.with_bit
            .iter()
            .enumerate()
            .filter(|(_, &c)| u128::from(c) * 2 > u128::from(self.total))
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
