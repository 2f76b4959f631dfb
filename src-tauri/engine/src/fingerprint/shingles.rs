//! Shingles: hashed runs of consecutive units (see `text::units`), the shortlist stage's keys. A shingle
//! starting at a CJK character spans [`CJK_SHINGLE`] units (characters), one starting at a word spans
//! [`WORD_SHINGLE`] units (words). Its 31-bit key mixes the units' xxh3-64 hashes (already uniform) in
//! order: `k = (rotl(k, 26) ^ h) × 0x9E3779B97F4A7C15` from `k = 0` over the units, then the top 31 bits
//! of `(k ^ k >> 29) × 0xBF58476D1CE4E5B9` (keys with the top bit set are concept keys, `crosslang`).
//!
//! The library stores and indexes a *winnowed* sample of a paragraph's shingles (Schleimer, Wilkerson
//! and Aiken 2003): in every window of [`WINNOW_WINDOW`] consecutive shingles the smallest key is kept
//! (the rightmost on ties). About 2/(w+1) = 40% of the keys remain, and any passage the submission shares
//! with a library paragraph that is at least `WINNOW_WINDOW + CJK_SHINGLE - 1` = 7 characters (or 6
//! words) long is guaranteed to share a stored key. The submission is winnowed the same way and only its
//! kept keys are looked up: within a passage both texts share, both keep the minimum of the same windows,
//! so the guarantee holds for the pair (the property MOSS relies on), with 40% of the lookups. On
//! eval-dev looking up every shingle instead changes no score; at 1M library paragraphs it costs 1.4x
//! the check time.

use crate::text::Unit;

/// Characters per shingle for CJK text.
pub const CJK_SHINGLE: usize = 4;
/// Words per shingle for other text.
pub const WORD_SHINGLE: usize = 3;

/// Shingles per winnowing window.
pub const WINNOW_WINDOW: usize = 4;

/// The sorted, deduplicated shingle keys of a unit sequence (all of them: the submission side).
pub fn shingles(units: &[Unit]) -> Vec<u32> {
    sorted(sequence(units))
}

/// The winnowed keys of a unit sequence, sorted and deduplicated (what the library stores).
pub fn winnowed(units: &[Unit]) -> Vec<u32> {
    winnowed_with(units, &mut Vec::new())
}

/// [`winnowed`], with the shingles in text order written into `scratch` (emptied first), which the
/// caller keeps from one paragraph to the next.
pub fn winnowed_with(units: &[Unit], scratch: &mut Vec<u32>) -> Vec<u32> {
    sequence_into(units, scratch);
    sorted(winnow(scratch, WINNOW_WINDOW))
}

fn sorted(mut keys: Vec<u32>) -> Vec<u32> {
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The minimum of every window of `w` keys (rightmost on ties), in order, without repeating a pick. The
/// window's minimum is carried from one window to the next and only searched again when it leaves.
fn winnow(seq: &[u32], w: usize) -> Vec<u32> {
    if seq.len() <= w {
        return seq.iter().min().copied().into_iter().collect();
    }
    let rightmost_min = |from: usize| {
        (from..from + w).fold(from, |best, i| if seq[i] <= seq[best] { i } else { best })
    };
    let mut out = Vec::with_capacity(2 * seq.len() / (w + 1) + 2);
    let mut best = rightmost_min(0);
    out.push(seq[best]);
    for start in 1..=seq.len() - w {
        let new = start + w - 1;
        let pick = if best < start {
            rightmost_min(start)
        } else if seq[new] <= seq[best] {
            new
        } else {
            best
        };
        if pick != best {
            out.push(seq[pick]);
            best = pick;
        }
    }
    out
}

/// The key of a run of units (see the module notes).
#[inline]
fn key(units: &[Unit]) -> u32 {
    let k = units.iter().fold(0u64, |k, u| {
        (k.rotate_left(26) ^ u.hash).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    });
    // 31 bits: keys with the top bit set are the concept keys stored beside these (`crosslang`).
    ((k ^ k >> 29).wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 33) as u32
}

/// Shingle keys in text order.
fn sequence(units: &[Unit]) -> Vec<u32> {
    let mut out = Vec::new();
    sequence_into(units, &mut out);
    out
}

/// [`sequence`] into `out`, emptied first.
fn sequence_into(units: &[Unit], out: &mut Vec<u32>) {
    out.clear();
    out.reserve(units.len());
    for (i, first) in units.iter().enumerate() {
        let k = if first.cjk { CJK_SHINGLE } else { WORD_SHINGLE };
        let Some(window) = units.get(i..i + k) else {
            break;
        };
        out.push(key(window));
    }
    if out.is_empty() && !units.is_empty() {
        // A paragraph shorter than one shingle still gets one key, so it can be found.
        out.push(key(units));
    }
}

/// Encode keys for storage (little-endian u32s).
pub fn encode(keys: &[u32]) -> Vec<u8> {
    keys.iter().flat_map(|k| k.to_le_bytes()).collect()
}

/// Decode stored keys; a trailing partial key (a damaged row) is ignored.
pub fn decode(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
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
    fn winnowing_keeps_a_key_of_every_shared_passage_of_seven_characters() {
        let lib = "维护者需要定期检查错误报告并及时回复用户的问题";
        let kept = winnowed(&units(lib));
        let all = shingles(&units(lib));
        assert!(
            kept.len() < all.len() && kept.len() * 3 >= all.len(),
            "{kept:?}"
        );
        assert!(kept.iter().all(|k| all.binary_search(k).is_ok()));
        // Every 7-character passage of the library paragraph, copied into other text, shares a key.
        let chars: Vec<char> = lib.chars().collect();
        for start in 0..=chars.len() - 7 {
            let passage: String = chars[start..start + 7].iter().collect();
            let sub = shingles(&units(&format!("今天天气很好{passage}我们去公园")));
            assert!(
                kept.iter().any(|k| sub.binary_search(k).is_ok()),
                "{passage}"
            );
        }
    }

    #[test]
    fn winnowing_picks_the_rightmost_minimum_of_every_window() {
        let naive = |seq: &[u32], w: usize| {
            let mut out = Vec::new();
            let mut last = None;
            for start in 0..=seq.len() - w {
                let best = (start..start + w)
                    .rev()
                    .min_by_key(|&i| seq[i])
                    .unwrap_or(start);
                if last != Some(best) {
                    out.push(seq[best]);
                    last = Some(best);
                }
            }
            out
        };
        let mut x = 1u32;
        for len in 5..200 {
            let seq: Vec<u32> = (0..len)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    (x >> 16) % 23 // small values: many ties
                })
                .collect();
            assert_eq!(
                winnow(&seq, WINNOW_WINDOW),
                naive(&seq, WINNOW_WINDOW),
                "{seq:?}"
            );
        }
        assert_eq!(winnow(&[3, 1, 2], 4), vec![1]);
    }

    #[test]
    fn encode_round_trips() {
        let keys = shingles(&units("the quick brown fox jumps over the lazy dog"));
        assert_eq!(keys.len(), 7);
        assert_eq!(decode(&encode(&keys)).collect::<Vec<_>>(), keys);
    }
}
