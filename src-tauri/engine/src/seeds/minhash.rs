//! MinHash (seed 003, Zhang 2017), over an item's set of distinct words (xxh3-64 hashes, seed 0):
//!
//! - `minhash` (003's MinMultiHash): [`HASHES`] hash functions, `h_i(w)` = xxh3-64 of the word's hash
//!   (little-endian u64) with seed `i + 1`; the signature keeps each function's smallest value, and two
//!   signatures' similarity is the share of positions where they agree (Broder's estimate of the
//!   Jaccard similarity). Candidates are found by locality-sensitive hashing: [`BANDS`] bands of
//!   [`ROWS`] rows, an item a candidate when one band is equal (so pairs below a Jaccard of about 0.3
//!   are rarely compared, the usual price of MinHash LSH).
//! - `minhash-one` (003's MinOneHash): the [`HASHES`] smallest word hashes of the one hash function;
//!   two items' similarity is the Jaccard similarity of those two sets (003's steps 2–4).

use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

/// Hash functions (and the bottom-k set's size).
pub const HASHES: usize = 128;
/// LSH bands and rows per band (`BANDS × ROWS = HASHES`).
pub const BANDS: usize = 32;
pub const ROWS: usize = 4;

/// The many-hash signature of a set of word hashes (all `u64::MAX` for an empty set).
pub fn signature(words: &[u64]) -> Vec<u64> {
    (0..HASHES as u64)
        .map(|i| {
            words
                .iter()
                .map(|w| xxh3_64_with_seed(&w.to_le_bytes(), i + 1))
                .min()
                .unwrap_or(u64::MAX)
        })
        .collect()
}

/// The share of positions where two signatures agree (0 when either is empty).
pub fn signature_similarity(a: &[u64], b: &[u64]) -> f64 {
    if a.len() != b.len() || a.is_empty() || a[0] == u64::MAX || b[0] == u64::MAX {
        return 0.0;
    }
    a.iter().zip(b).filter(|(x, y)| x == y).count() as f64 / a.len() as f64
}

/// The LSH keys of a signature: one per band, mixing the band's number and values.
pub fn bands(signature: &[u64]) -> Vec<u64> {
    if signature.first() == Some(&u64::MAX) {
        return Vec::new();
    }
    signature
        .chunks(ROWS)
        .enumerate()
        .map(|(b, rows)| {
            let mut bytes = Vec::with_capacity(8 * (ROWS + 1));
            bytes.extend_from_slice(&(b as u64).to_le_bytes());
            for r in rows {
                bytes.extend_from_slice(&r.to_le_bytes());
            }
            xxh3_64(&bytes)
        })
        .collect()
}

/// The one-hash bottom-k set: the [`HASHES`] smallest of a sorted set of word hashes.
pub fn bottom(mut sorted_words: Vec<u64>) -> Vec<u64> {
    sorted_words.truncate(HASHES);
    sorted_words
}
