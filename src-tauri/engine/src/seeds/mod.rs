//! The seed papers' own fingerprint methods, each as its paper describes it, so that `check --method`,
//! `library duplicates --method` and `tongwen eval` can run them side by side with Tongwen's own
//! (docs/accuracy.md, "The seed methods", lists every choice made where a paper leaves a detail open):
//!
//! - `simhash-blocks` (seed 001): the TF-IDF SimHash of 002, indexed by its four 16-bit blocks (any
//!   signature within 3 bits shares a block), each candidate verified by its word-overlap ratio;
//! - `p-simhash` (seed 004, [`psimhash`]): TFC-normalised TF-IDF weights of the top 20 words, damped by
//!   their Jaccard co-occurrence, and position signatures mixed in with μ = 1.5;
//! - `drpkp` (seed 000, [`drpkp`]): one SimHash per paragraph over its 10 topic words (nouns and verbs
//!   by jieba-rs part-of-speech tags), weighted by frequency, context and position; a document is the
//!   set of its paragraphs' fingerprints, found through an inverted index of 16-bit blocks, Hamming ≤ 3;
//! - `minhash` and `minhash-one` (seed 003, [`minhash`]): 128 hash functions, or the 128 smallest
//!   values of one;
//! - `jaccard`, `containment` (003's Jaccard "based on the short article") and `cosine` (term-frequency
//!   vectors) over the words.
//!
//! Every method reads the same words: the engine's extraction, normalisation and jieba-rs segmentation,
//! without stop words, punctuation or numbers. Nothing here is stored: an index is built over the
//! library's texts when a check or a duplicates search asks for one of these methods (p-simhash's IDF
//! and co-occurrence statistics are the library's own, as the paper learns them from its training set).

pub mod drpkp;
pub mod minhash;
pub mod psimhash;

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::xxh3_64;

use crate::error::{Error, Result};
use crate::fingerprint::{hamming, Fingerprinter, Method};

/// Hamming distance within which two signatures are near duplicates (seeds 000, 001 and 004: 3 bits of
/// 64, after Manku et al.).
pub const NEAR_BITS: u32 = 3;

/// One thing compared: a paragraph, or a whole document (its paragraphs in order), with where its
/// first paragraph stands in its document (DRPKP weighs the first and last paragraphs).
#[derive(Debug, Clone, Copy)]
pub struct Item<'a> {
    pub paragraphs: &'a [String],
    /// Index of the item's first paragraph in its document.
    pub first: usize,
    /// Paragraphs of the whole document.
    pub document_paragraphs: usize,
}

impl<'a> Item<'a> {
    /// A whole document.
    pub fn document(paragraphs: &'a [String]) -> Self {
        Item {
            paragraphs,
            first: 0,
            document_paragraphs: paragraphs.len(),
        }
    }

    /// Paragraph `index` of a document of `of` paragraphs.
    pub fn paragraph(paragraph: &'a String, index: usize, of: usize) -> Self {
        Item {
            paragraphs: std::slice::from_ref(paragraph),
            first: index,
            document_paragraphs: of,
        }
    }

    fn text(&self) -> String {
        self.paragraphs.join("\n")
    }
}

/// What a method keeps of an item.
#[derive(Debug, Clone, PartialEq)]
pub enum Print {
    /// A 64-bit signature compared by Hamming distance (`simhash`, `p-simhash`).
    Bits(u64),
    /// `simhash-blocks`: the signature and the item's distinct words (sorted hashes) for verification.
    BitsWords(u64, Vec<u64>),
    /// `drpkp`: one signature per paragraph.
    Paragraphs(Vec<u64>),
    /// `minhash`: the smallest value of each hash function.
    Signature(Vec<u64>),
    /// `minhash-one`, `jaccard`, `containment`: a sorted set (the smallest hashes, or all words).
    Set(Vec<u64>),
    /// `cosine`: term frequencies, sorted by word hash, with the vector's norm.
    Counts(Vec<(u64, u32)>, f64),
    /// An item without content words (only numbers, punctuation or stop words): similar to nothing.
    Empty,
}

/// The item's content words, in order, as xxh3-64 (seed 0) hashes of their normalised text.
pub fn word_hashes(f: &Fingerprinter, text: &str) -> Vec<u64> {
    f.tokenizer()
        .tokens(text)
        .iter()
        .map(|w| xxh3_64(w.as_bytes()))
        .collect()
}

fn sorted_set(mut words: Vec<u64>) -> Vec<u64> {
    words.sort_unstable();
    words.dedup();
    words
}

/// Shared elements of two sorted sets.
fn shared(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// `|A ∩ B| / |A ∪ B|` (0 for two empty sets).
pub fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let s = shared(a, b);
    let union = a.len() + b.len() - s;
    if union == 0 {
        0.0
    } else {
        s as f64 / union as f64
    }
}

/// `|A ∩ B| / min(|A|, |B|)`: seed 003's Jaccard "based on the short article" (0 when one is empty).
pub fn containment(a: &[u64], b: &[u64]) -> f64 {
    let smaller = a.len().min(b.len());
    if smaller == 0 {
        0.0
    } else {
        shared(a, b) as f64 / smaller as f64
    }
}

fn counts(words: &[u64]) -> (Vec<(u64, u32)>, f64) {
    let mut c: FxHashMap<u64, u32> = FxHashMap::default();
    for &w in words {
        *c.entry(w).or_default() += 1;
    }
    let mut v: Vec<(u64, u32)> = c.into_iter().collect();
    v.sort_unstable();
    let norm = v
        .iter()
        .map(|&(_, n)| f64::from(n) * f64::from(n))
        .sum::<f64>()
        .sqrt();
    (v, norm)
}

fn cosine(a: &[(u64, u32)], na: f64, b: &[(u64, u32)], nb: f64) -> f64 {
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    let (mut i, mut j, mut dot) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                dot += f64::from(a[i].1) * f64::from(b[j].1);
                i += 1;
                j += 1;
            }
        }
    }
    (dot / (na * nb)).min(1.0)
}

/// `1 - hamming / 64`, the seeds' similarity of two signatures.
pub fn bits_similarity(a: u64, b: u64) -> f64 {
    1.0 - f64::from(hamming(a, b)) / 64.0
}

/// How near two prints of `method` are, in [0, 1].
pub fn similarity(method: Method, a: &Print, b: &Print) -> f64 {
    match (a, b) {
        (Print::Bits(a), Print::Bits(b)) => bits_similarity(*a, *b),
        // 001: a candidate within the index's reach, verified by the share of the shorter item's words
        // that the other has.
        (Print::BitsWords(a, wa), Print::BitsWords(b, wb)) if hamming(*a, *b) <= NEAR_BITS => {
            containment(wa, wb)
        }
        (Print::Paragraphs(a), Print::Paragraphs(b)) => drpkp::similarity(a, b),
        (Print::Signature(a), Print::Signature(b)) => minhash::signature_similarity(a, b),
        (Print::Set(a), Print::Set(b)) => match method {
            Method::Containment => containment(a, b),
            _ => jaccard(a, b),
        },
        (Print::Counts(a, na), Print::Counts(b, nb)) => cosine(a, *na, b, *nb),
        _ => 0.0,
    }
}

/// How an index finds candidates for a print.
#[derive(Debug, Default)]
enum Lookup {
    /// Every item is compared (a signature's Hamming distance is one instruction).
    #[default]
    Scan,
    /// Items by the value of each 16-bit block of their signatures (`simhash-blocks`, `drpkp`).
    Blocks([FxHashMap<u16, Vec<u32>>; 4]),
    /// Items by each element of their sets or signatures' bands (minhash LSH, words).
    Inverted(FxHashMap<u64, Vec<u32>>),
}

/// Items of one method with a lookup structure: a library (or a class of documents) to search.
#[derive(Debug)]
pub struct SeedIndex {
    method: Method,
    prints: Vec<Print>,
    lookup: Lookup,
    corpus: Option<psimhash::Corpus>,
}

impl SeedIndex {
    /// Fingerprint `items` with `method` (parallel) and index them.
    pub fn build(method: Method, f: &Fingerprinter, items: &[Item<'_>]) -> SeedIndex {
        let corpus = (method == Method::PSimhash).then(|| {
            let words: Vec<Vec<u64>> = items
                .par_iter()
                .map(|i| word_hashes(f, &i.text()))
                .collect();
            psimhash::Corpus::new(&words)
        });
        let mut index = SeedIndex {
            method,
            prints: Vec::new(),
            lookup: Lookup::Scan,
            corpus,
        };
        index.prints = items.par_iter().map(|i| index.print(f, i)).collect();
        index.lookup = index.make_lookup();
        index
    }

    /// The method's print of an item (a library's or a submission's).
    pub fn print(&self, f: &Fingerprinter, item: &Item<'_>) -> Print {
        let text = || item.text();
        // Signatures of no words are all alike (0): such an item matches nothing. (DRPKP keeps its
        // own rule for paragraphs without topic words; sets and signatures of nothing match nothing.)
        match self.method {
            Method::PSimhash => {
                let words = word_hashes(f, &text());
                match &self.corpus {
                    Some(corpus) if !words.is_empty() => {
                        Print::Bits(psimhash::signature(&words, corpus))
                    }
                    _ => Print::Empty,
                }
            }
            Method::SimhashBlocks => {
                let t = text();
                let words = sorted_set(word_hashes(f, &t));
                if words.is_empty() {
                    Print::Empty
                } else {
                    Print::BitsWords(f.simhash(&t), words)
                }
            }
            Method::Drpkp => Print::Paragraphs(
                item.paragraphs
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        drpkp::paragraph_signature(f, p, item.first + i, item.document_paragraphs)
                    })
                    .collect(),
            ),
            Method::Minhash => {
                Print::Signature(minhash::signature(&sorted_set(word_hashes(f, &text()))))
            }
            Method::MinhashOne => Print::Set(minhash::bottom(sorted_set(word_hashes(f, &text())))),
            Method::Jaccard | Method::Containment => {
                Print::Set(sorted_set(word_hashes(f, &text())))
            }
            Method::Cosine => {
                let (c, n) = counts(&word_hashes(f, &text()));
                Print::Counts(c, n)
            }
            // The paragraph SimHash of 002 (and, for the verified method, the same: it has no print
            // of its own here).
            Method::Simhash | Method::Verified => {
                let t = text();
                if word_hashes(f, &t).is_empty() {
                    Print::Empty
                } else {
                    Print::Bits(f.simhash(&t))
                }
            }
        }
    }

    fn make_lookup(&self) -> Lookup {
        match self.method {
            Method::SimhashBlocks | Method::Drpkp => {
                let mut blocks: [FxHashMap<u16, Vec<u32>>; 4] = Default::default();
                for (i, p) in self.prints.iter().enumerate() {
                    for sig in signatures(p) {
                        for (b, map) in blocks.iter_mut().enumerate() {
                            let list = map.entry(block(sig, b)).or_default();
                            if list.last() != Some(&(i as u32)) {
                                list.push(i as u32);
                            }
                        }
                    }
                }
                Lookup::Blocks(blocks)
            }
            Method::Minhash
            | Method::MinhashOne
            | Method::Jaccard
            | Method::Containment
            | Method::Cosine => {
                let mut map: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
                for (i, p) in self.prints.iter().enumerate() {
                    for key in keys(p) {
                        map.entry(key).or_default().push(i as u32);
                    }
                }
                Lookup::Inverted(map)
            }
            Method::Simhash | Method::PSimhash | Method::Verified => Lookup::Scan,
        }
    }

    pub fn len(&self) -> usize {
        self.prints.len()
    }

    pub fn is_empty(&self) -> bool {
        self.prints.is_empty()
    }

    /// The print of item `i`.
    pub fn item(&self, i: usize) -> &Print {
        &self.prints[i]
    }

    /// Every pair of items at least `floor` similar, among items in groups (a document's paragraphs, or
    /// one item per document) of different groups: `groups[i]` is item `i`'s group, ascending, of
    /// `count` groups. Each item is searched against the items of later groups, a group's items in
    /// parallel; `progress(group)` follows each group and `cancel` is looked at before it. Pairs are
    /// `(item, later group's item, similarity)`, each pair once.
    pub fn pairs_by_group(
        &self,
        groups: &[usize],
        count: usize,
        floor: f64,
        progress: &mut dyn FnMut(usize),
        cancel: &AtomicBool,
    ) -> Result<Vec<(usize, usize, f64)>> {
        let mut pairs = Vec::new();
        let mut start = 0;
        for group in 0..count {
            if cancel.load(Ordering::Relaxed) {
                return Err(Error::Cancelled);
            }
            let end = start + groups[start..].iter().take_while(|&&g| g == group).count();
            let found: Vec<(usize, usize, f64)> = (start..end)
                .into_par_iter()
                .flat_map_iter(|i| {
                    self.search(self.item(i), floor, usize::MAX, |j| groups[j] <= group)
                        .into_iter()
                        .map(move |(j, s)| (i, j, s))
                })
                .collect();
            pairs.extend(found);
            start = end;
            progress(group);
        }
        Ok(pairs)
    }

    /// Items at least `floor` similar to `print` (and above 0), most similar first (ties by item), at
    /// most `limit`, leaving out those `skip` rejects.
    pub fn search(
        &self,
        print: &Print,
        floor: f64,
        limit: usize,
        skip: impl Fn(usize) -> bool,
    ) -> Vec<(usize, f64)> {
        let candidates: Vec<u32> = match &self.lookup {
            Lookup::Scan => (0..self.prints.len() as u32).collect(),
            Lookup::Blocks(blocks) => {
                let mut c: Vec<u32> = signatures(print)
                    .into_iter()
                    .flat_map(|sig| {
                        blocks.iter().enumerate().flat_map(move |(b, map)| {
                            map.get(&block(sig, b)).into_iter().flatten().copied()
                        })
                    })
                    .collect();
                c.sort_unstable();
                c.dedup();
                c
            }
            Lookup::Inverted(map) => {
                let mut c: Vec<u32> = keys(print)
                    .into_iter()
                    .flat_map(|k| map.get(&k).into_iter().flatten().copied())
                    .collect();
                c.sort_unstable();
                c.dedup();
                c
            }
        };
        let mut found: Vec<(usize, f64)> = candidates
            .into_iter()
            .map(|i| i as usize)
            .filter(|&i| !skip(i))
            .filter_map(|i| {
                let s = similarity(self.method, print, &self.prints[i]);
                (s > 0.0 && s >= floor - 1e-9).then_some((i, s))
            })
            .collect();
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        found.truncate(limit);
        found
    }
}

/// Block `b` (0–3, from the low bits) of a 64-bit signature.
fn block(sig: u64, b: usize) -> u16 {
    (sig >> (16 * b)) as u16
}

/// The signatures a block index files a print under.
fn signatures(p: &Print) -> Vec<u64> {
    match p {
        Print::Bits(s) | Print::BitsWords(s, _) => vec![*s],
        Print::Paragraphs(v) => v.clone(),
        _ => Vec::new(),
    }
}

/// The keys an inverted index files a print under: its set's elements, or its minhash bands.
fn keys(p: &Print) -> Vec<u64> {
    match p {
        Print::Set(s) => s.clone(),
        Print::Counts(c, _) => c.iter().map(|&(w, _)| w).collect(),
        Print::Signature(s) => minhash::bands(s),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
