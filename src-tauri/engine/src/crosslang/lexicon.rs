//! The Chinese → English lexicon and English stemming.

use std::io::Read;
use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::FxHashMap;

use super::concept;

const LEXICON_GZ: &[u8] = include_bytes!("../../../../assets/lexicon/cedict-zh-en.txt.gz");

/// An English word's Snowball English (Porter 2) stem, lower-cased.
pub fn stem(word: &str) -> String {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    let lower = word.to_lowercase();
    STEMMER
        .get_or_init(|| Stemmer::create(Algorithm::English))
        .stem(&lower)
        .into_owned()
}

/// Simplified Chinese headwords and the concepts (stemmed English gloss words) each stands for.
#[derive(Debug, Default)]
pub struct Lexicon {
    words: FxHashMap<Box<str>, Box<[u64]>>,
    /// How many headwords each concept glosses (a measure of how general it is).
    headwords: FxHashMap<u64, u32>,
}

impl Lexicon {
    /// The embedded lexicon (CC-CEDICT), decompressed, stemmed and parsed once per process.
    pub fn embedded() -> &'static Lexicon {
        static LEXICON: OnceLock<Lexicon> = OnceLock::new();
        LEXICON.get_or_init(Lexicon::load)
    }

    /// Decompress and parse the embedded lexicon (what [`Lexicon::embedded`] does once).
    pub fn load() -> Lexicon {
        let mut text = String::new();
        // OK because the file is compiled into the binary and read by the tests: a failure here is a
        // build defect, not something a user's input can cause.
        flate2::read::GzDecoder::new(LEXICON_GZ)
            .read_to_string(&mut text)
            .expect("embedded lexicon is valid gzip'd UTF-8");
        Lexicon::parse(&text)
    }

    /// Parse `headword<TAB>word word …` lines (`#` lines are comments).
    pub fn parse(text: &str) -> Lexicon {
        let mut stems: FxHashMap<&str, u64> = FxHashMap::default();
        let mut words = FxHashMap::default();
        let mut headwords: FxHashMap<u64, u32> = FxHashMap::default();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let Some((head, glosses)) = line.split_once('\t') else {
                continue;
            };
            let mut keys: Vec<u64> = glosses
                .split_whitespace()
                .map(|w| *stems.entry(w).or_insert_with(|| concept(&stem(w))))
                .collect();
            keys.sort_unstable();
            keys.dedup();
            for &k in &keys {
                *headwords.entry(k).or_default() += 1;
            }
            if !keys.is_empty() {
                words.insert(head.into(), keys.into_boxed_slice());
            }
        }
        Lexicon { words, headwords }
    }

    /// How many headwords have `concept` among their glosses: 0 for a word the dictionary never uses
    /// (a name, a command), thousands for "use" or "make".
    pub fn generality(&self, concept: u64) -> u32 {
        self.headwords.get(&concept).copied().unwrap_or(0)
    }

    /// The concepts `word` (Simplified Chinese, normalised) stands for; empty when the lexicon lacks it.
    pub fn translations(&self, word: &str) -> &[u64] {
        self.words.get(word).map_or(&[], |k| k)
    }

    /// Headwords.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}
