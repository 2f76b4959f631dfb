//! 64-bit SimHash over weighted tokens (Charikar; the seed papers' paragraph fingerprint). Each token is
//! hashed with xxh3-64, seed 0, over its normalised UTF-8 bytes; bit `i` of the fingerprint is set when
//! the weights of tokens with bit `i` set outweigh those without. The definition is fixed: changing it
//! bumps `FINGERPRINT_VERSION`.

use xxhash_rust::xxh3::xxh3_64;

/// SimHash of `(token, weight)` pairs. An empty input gives 0.
pub fn simhash<'a>(weighted: impl IntoIterator<Item = (&'a str, f32)>) -> u64 {
    let mut acc = [0f64; 64];
    for (token, weight) in weighted {
        let h = xxh3_64(token.as_bytes());
        let w = f64::from(weight);
        // `x += -w` is bit-for-bit `x -= w`; written without a branch so it vectorises.
        for (bit, slot) in acc.iter_mut().enumerate() {
            *slot += if h >> bit & 1 == 1 { w } else { -w };
        }
    }
    acc.iter()
        .enumerate()
        .filter(|(_, v)| **v > 0.0)
        .fold(0u64, |f, (bit, _)| f | 1 << bit)
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

    #[test]
    fn single_token_fingerprint_is_its_hash() {
        assert_eq!(simhash([("debian", 1.0)]), xxh3_64(b"debian"));
        assert_eq!(simhash(std::iter::empty()), 0);
    }

    #[test]
    fn similar_token_sets_are_close_and_different_ones_far() {
        let words: Vec<String> = (0..40).map(|i| format!("word{i}")).collect();
        let a = simhash(words.iter().map(|w| (w.as_str(), 1.0)));
        let b = simhash(words.iter().skip(2).map(|w| (w.as_str(), 1.0)));
        let other: Vec<String> = (100..140).map(|i| format!("word{i}")).collect();
        let c = simhash(other.iter().map(|w| (w.as_str(), 1.0)));
        assert!(hamming(a, b) < 12, "{}", hamming(a, b));
        assert!(hamming(a, c) > 20, "{}", hamming(a, c));
    }
}
