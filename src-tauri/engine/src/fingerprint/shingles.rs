//! Shingles: hashed runs of consecutive units (see `text::units`), the shortlist stage's keys. A shingle
//! starting at a CJK character spans [`CJK_SHINGLE`] units (characters), one starting at a word spans
//! [`WORD_SHINGLE`] units (words). Its 32-bit key is the low half of xxh3-64 (seed 0) over the
//! little-endian unit hashes. A paragraph's shingle set is sorted and deduplicated.

use xxhash_rust::xxh3::xxh3_64;

use crate::text::Unit;

/// Characters per shingle for CJK text.
pub const CJK_SHINGLE: usize = 4;
/// Words per shingle for other text.
pub const WORD_SHINGLE: usize = 3;

/// The sorted, deduplicated shingle keys of a unit sequence.
pub fn shingles(units: &[Unit]) -> Vec<u32> {
    let mut out = Vec::with_capacity(units.len());
    let mut buf = Vec::with_capacity(8 * CJK_SHINGLE);
    for (i, first) in units.iter().enumerate() {
        let k = if first.cjk { CJK_SHINGLE } else { WORD_SHINGLE };
        let Some(window) = units.get(i..i + k) else {
            break;
        };
        buf.clear();
        for u in window {
            buf.extend_from_slice(&u.hash.to_le_bytes());
        }
        out.push(xxh3_64(&buf) as u32);
    }
    if out.is_empty() && !units.is_empty() {
        // A paragraph shorter than one shingle still gets one key, so it can be found.
        buf.clear();
        for u in units {
            buf.extend_from_slice(&u.hash.to_le_bytes());
        }
        out.push(xxh3_64(&buf) as u32);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Encode keys for storage (little-endian u32s).
pub fn encode(keys: &[u32]) -> Vec<u8> {
    keys.iter().flat_map(|k| k.to_le_bytes()).collect()
}

/// Decode stored keys; a trailing partial key (a damaged row) is ignored.
pub fn decode(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::units;

    #[test]
    fn shared_text_shares_shingles() {
        let a = shingles(&units("软件包维护者需要定期检查错误报告"));
        let b = shingles(&units("每位软件包维护者需要定期检查"));
        let shared = a.iter().filter(|k| b.binary_search(k).is_ok()).count();
        assert!(shared >= 5, "{shared}");
        let c = shingles(&units("今天天气很好我们去公园散步"));
        assert_eq!(c.iter().filter(|k| a.binary_search(k).is_ok()).count(), 0);
    }

    #[test]
    fn encode_round_trips() {
        let keys = shingles(&units("the quick brown fox jumps over the lazy dog"));
        assert_eq!(keys.len(), 7);
        assert_eq!(decode(&encode(&keys)), keys);
    }
}
