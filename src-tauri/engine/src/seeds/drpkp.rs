//! DRPKP (seed 000, Yu and Wang 2014): a fingerprint per paragraph over its topic words.
//!
//! 1. Part-of-speech tags from jieba-rs (the paper uses ICTCLAS); only nouns and verbs are kept (tags
//!    starting with `n` or `v`; English words, tagged `eng`, are kept too since jieba cannot tell their
//!    part of speech), stop words dropped.
//! 2. A word's probability in the paragraph is its count over the paragraph's kept words; the
//!    [`TOPIC_WORDS`] most probable (ties: first occurrence) are the paragraph's topic.
//! 3. Weight = frequency weight (the probability) + context weight + position weight. Context: the
//!    paragraph's normalised text is cut into windows of [`WINDOW_CHARS`] characters; a window holding
//!    `n` distinct topic words gives each of them `0.1 · n`, and a word keeps its largest. Position
//!    (the paper's formula (1) is not printed, so chosen here): [`FIRST_WEIGHT`] in a document's first
//!    paragraph (its title or lead), [`LAST_WEIGHT`] in its last, 0 elsewhere.
//! 4. A 64-bit SimHash of the weighted topic words (xxh3-64, seed 0, in place of Rabin's polynomial
//!    fingerprint: any well-mixed 64-bit word hash plays its role). A paragraph without topic words
//!    gets the xxh3-64 of its normalised text, so only an identical one matches it.
//! 5. A document is the set of its paragraphs' fingerprints; two paragraphs match within
//!    [`super::NEAR_BITS`] bits (the paper's Hamming threshold 3), found through an index of each
//!    fingerprint's four 16-bit blocks (the paper's inverted index, fingerprint → documents). The
//!    similarity of two documents is the share of the shorter one's paragraphs that match a paragraph
//!    of the other; of two single paragraphs, `1 − hamming / 64`.

use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::xxh3_64;

use crate::fingerprint::{hamming, Fingerprinter};
use crate::text::normalize;
use crate::text::tokens::is_content;

/// Topic words per paragraph (the paper's 10).
pub const TOPIC_WORDS: usize = 10;
/// Context window, in characters (the paper's 20).
pub const WINDOW_CHARS: usize = 20;
/// Position weight of a document's first paragraph.
pub const FIRST_WEIGHT: f64 = 0.2;
/// Position weight of a document's last paragraph.
pub const LAST_WEIGHT: f64 = 0.1;

/// The DRPKP fingerprint of paragraph `index` of a document of `of` paragraphs.
pub fn paragraph_signature(f: &Fingerprinter, text: &str, index: usize, of: usize) -> u64 {
    let normalized = normalize(text);
    let tokenizer = f.tokenizer();
    // (word, first character) of each kept word, in order.
    let kept: Vec<(&str, usize)> = tokenizer
        .jieba()
        .tag(&normalized, true)
        .into_iter()
        .filter(|t| {
            (t.tag.starts_with('n') || t.tag.starts_with('v') || t.tag == "eng")
                && is_content(t.word)
                && !tokenizer.is_stop_word(t.word)
        })
        .map(|t| (t.word, t.start))
        .collect();
    if kept.is_empty() {
        return xxh3_64(normalized.as_bytes());
    }
    // Counts, in order of first occurrence.
    let mut order: Vec<&str> = Vec::new();
    let mut count: FxHashMap<&str, usize> = FxHashMap::default();
    for &(w, _) in &kept {
        let c = count.entry(w).or_insert(0);
        if *c == 0 {
            order.push(w);
        }
        *c += 1;
    }
    let mut topic: Vec<&str> = order.clone();
    // Stable: ties keep their first occurrence's order.
    topic.sort_by(|a, b| count[b].cmp(&count[a]));
    topic.truncate(TOPIC_WORDS);

    let mut windows: FxHashMap<usize, Vec<&str>> = FxHashMap::default();
    for &(w, start) in &kept {
        if topic.contains(&w) {
            let list = windows.entry(start / WINDOW_CHARS).or_default();
            if !list.contains(&w) {
                list.push(w);
            }
        }
    }
    let mut context: FxHashMap<&str, f64> = FxHashMap::default();
    for words in windows.values() {
        let weight = 0.1 * words.len() as f64;
        for w in words {
            let c = context.entry(w).or_insert(0.0);
            *c = c.max(weight);
        }
    }
    let position = if index == 0 {
        FIRST_WEIGHT
    } else if index + 1 == of {
        LAST_WEIGHT
    } else {
        0.0
    };
    let mut v = [0.0f64; 64];
    for w in &topic {
        let weight =
            count[w] as f64 / kept.len() as f64 + context.get(w).copied().unwrap_or(0.0) + position;
        let h = xxh3_64(w.as_bytes());
        for (i, slot) in v.iter_mut().enumerate() {
            *slot += if h >> i & 1 == 1 { weight } else { -weight };
        }
    }
    v.iter()
        .enumerate()
        .filter(|(_, &x)| x > 0.0)
        .fold(0u64, |acc, (i, _)| acc | 1 << i)
}

/// Two items' similarity: of single paragraphs `1 − hamming / 64` when within [`super::NEAR_BITS`]
/// (else 0); of documents, the share of the shorter one's paragraphs within [`super::NEAR_BITS`] of a
/// paragraph of the other.
pub fn similarity(a: &[u64], b: &[u64]) -> f64 {
    match (a, b) {
        ([], _) | (_, []) => 0.0,
        // Within the paper's Hamming threshold only, as the block index finds no others.
        ([x], [y]) if hamming(*x, *y) <= super::NEAR_BITS => super::bits_similarity(*x, *y),
        ([_], [_]) => 0.0,
        _ => {
            let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
            let matched = short
                .iter()
                .filter(|&&x| long.iter().any(|&y| hamming(x, y) <= super::NEAR_BITS))
                .count();
            matched as f64 / short.len() as f64
        }
    }
}
