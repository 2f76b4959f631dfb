//! Copying by translation, Chinese ↔ English (issue 20; not yet part of `check`): a Chinese word stands
//! for the English words of its dictionary glosses, an English word for its stem, and two paragraphs of
//! different languages are aligned sentence by sentence on the words they share that way.
//!
//! - **Lexicon**: `assets/lexicon/cedict-zh-en.txt.gz`, derived from CC-CEDICT (CC BY-SA 4.0, see its
//!   README): Simplified headword → English gloss words. Loaded once, gloss words stemmed.
//! - **Concepts**: an English word's Snowball (Porter 2) stem, as xxh3-64 (seed 0) of the stem; a Chinese
//!   word's concepts are those of its gloss words (a word the lexicon lacks: those of its characters);
//!   Latin words inside Chinese text (commands, names) stand for their own stems. Numbers, punctuation
//!   and stop words are left out.
//! - **Sentences**: a paragraph is cut after `。！？；!?`, and after `.` or `;` followed by whitespace
//!   (see [`split`]); each sentence
//!   has a language (Chinese when at least a fifth of its letters are ideographs), its words' concepts
//!   and its place in the paragraph (in `char`s).
//! - **Alignment**: a sentence of one language *translates* one of the other when each covers at least
//!   [`SENTENCE_COVER`] of the other's words (a word is covered when one of its concepts is the other
//!   sentence's); the [`translated share`](translation) of a paragraph is the share of its characters in
//!   sentences that translate some sentence of the source.

pub mod lexicon;

use rustc_hash::FxHashSet;
use xxhash_rust::xxh3::xxh3_64;

pub use lexicon::{stem, Lexicon};

use crate::text::normalize;
use crate::text::tokens::{is_content, Tokenizer};

/// The share of each sentence's words the other must cover for two sentences to be a translation pair.
pub const SENTENCE_COVER: f64 = 0.5;

/// The language of a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Chinese,
    English,
}

/// A sentence as the cross-language comparison sees it.
#[derive(Debug, Clone)]
pub struct Sentence {
    /// Where it is in its paragraph, in `char`s: `[start, end)`.
    pub start: usize,
    pub end: usize,
    pub language: Language,
    /// Each content word's concepts (one for an English word or a Latin token, its glosses' for a
    /// Chinese word); words without any are left out.
    pub words: Vec<Vec<u64>>,
    /// Every concept of the sentence.
    pub concepts: FxHashSet<u64>,
}

/// The concept key of an English stem (or a Latin token, or a number).
pub fn concept(stem: &str) -> u64 {
    xxh3_64(stem.as_bytes())
}

/// The paragraph's sentences with their concepts.
pub fn sentences(tokenizer: &Tokenizer, lexicon: &Lexicon, paragraph: &str) -> Vec<Sentence> {
    split(paragraph)
        .into_iter()
        .filter_map(|(start, end)| {
            let text: String = paragraph.chars().skip(start).take(end - start).collect();
            let normalized = normalize(&text);
            let language = language_of(&normalized);
            let mut words: Vec<Vec<u64>> = Vec::new();
            tokenizer.for_each_normalized_word(&normalized, |w| {
                if tokenizer.is_stop_word(w) {
                    return;
                }
                let keys = word_concepts(lexicon, w);
                if !keys.is_empty() {
                    words.push(keys);
                }
            });
            if words.is_empty() {
                return None;
            }
            let concepts = words.iter().flatten().copied().collect();
            Some(Sentence {
                start,
                end,
                language,
                words,
                concepts,
            })
        })
        .collect()
}

/// A word's concepts: an ideograph word's glosses (or its characters' when the lexicon lacks it), an
/// English word's stem, a number itself.
fn word_concepts(lexicon: &Lexicon, word: &str) -> Vec<u64> {
    if word.chars().any(is_ideograph) {
        let glosses = lexicon.translations(word);
        if !glosses.is_empty() {
            return glosses.to_vec();
        }
        let mut keys: Vec<u64> = word
            .chars()
            .flat_map(|c| lexicon.translations(c.encode_utf8(&mut [0; 4])).to_vec())
            .collect();
        keys.sort_unstable();
        keys.dedup();
        return keys;
    }
    if is_content(word) {
        let s = stem(word);
        if s.chars().count() > 1 {
            return vec![concept(&s)];
        }
    }
    Vec::new()
}

fn is_ideograph(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

fn language_of(normalized: &str) -> Language {
    let (mut han, mut letters) = (0usize, 0usize);
    for c in normalized.chars() {
        if is_ideograph(c) {
            han += 1;
        } else if c.is_alphabetic() {
            letters += 1;
        }
    }
    if han * 5 >= (han + letters).max(1) {
        Language::Chinese
    } else {
        Language::English
    }
}

/// Sentence bounds (in `char`s) of a paragraph: after `。！？；!?`, and after `.` or `;` followed by
/// whitespace or the end; closing quotes and brackets after the stop stay with the sentence, and the
/// whitespace between sentences with none.
pub fn split(paragraph: &str) -> Vec<(usize, usize)> {
    let chars: Vec<char> = paragraph.chars().collect();
    let closing = |c: char| matches!(c, '”' | '’' | '"' | '\'' | ')' | '）' | '」' | '』');
    let mut out = Vec::new();
    let mut push = |mut s: usize, e: usize| {
        while s < e && chars[s].is_whitespace() {
            s += 1;
        }
        if s < e {
            out.push((s, e));
        }
    };
    let (mut start, mut i) = (0, 0);
    while i < chars.len() {
        let mut end = i + 1;
        while end < chars.len() && closing(chars[end]) {
            end += 1;
        }
        let stop = match chars[i] {
            '。' | '！' | '？' | '；' | '!' | '?' => true,
            '.' | ';' => end == chars.len() || chars[end].is_whitespace(),
            _ => false,
        };
        if stop {
            push(start, end);
            start = end;
            i = end;
        } else {
            i += 1;
        }
    }
    push(start, chars.len());
    out
}

/// The share of `a`'s words that have a concept in `b`.
pub fn cover(a: &Sentence, b: &Sentence) -> f64 {
    if a.words.is_empty() {
        return 0.0;
    }
    let covered = a
        .words
        .iter()
        .filter(|keys| keys.iter().any(|k| b.concepts.contains(k)))
        .count();
    covered as f64 / a.words.len() as f64
}

/// A sentence of the submission and the source sentence it translates, with how well (the smaller of
/// the two covers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SentencePair {
    pub submission: (usize, usize),
    pub source: (usize, usize),
    pub score: f64,
}

/// How much of `submission` (its sentences) translates `source`: the sentence pairs (each submission
/// sentence with its best source sentence of the other language, when both cover at least
/// [`SENTENCE_COVER`]) and the share of the submission's characters in them.
pub fn translation(submission: &[Sentence], source: &[Sentence]) -> (Vec<SentencePair>, f64) {
    let mut pairs = Vec::new();
    for s in submission {
        let best = source
            .iter()
            .filter(|t| t.language != s.language)
            .map(|t| (cover(s, t).min(cover(t, s)), t))
            .max_by(|x, y| x.0.total_cmp(&y.0));
        if let Some((score, t)) = best.filter(|b| b.0 >= SENTENCE_COVER) {
            pairs.push(SentencePair {
                submission: (s.start, s.end),
                source: (t.start, t.end),
                score,
            });
        }
    }
    let total: usize = submission.iter().map(|s| s.end - s.start).sum();
    let translated: usize = pairs.iter().map(|p| p.submission.1 - p.submission.0).sum();
    let share = if total == 0 {
        0.0
    } else {
        translated as f64 / total as f64
    };
    (pairs, share)
}

#[cfg(test)]
mod tests;
