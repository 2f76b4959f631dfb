//! The Chinese → English lexicon and English stemming. The lexicon is the word table's concepts
//! (`text::words`): built when Tongwen is compiled, read in place.

use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};

use crate::text::words::{stem_with, word_hash, BuildError, Concepts, WordTable};

/// An English word's Snowball English (Porter 2) stem, lower-cased.
pub fn stem(word: &str) -> String {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    stem_with(
        STEMMER.get_or_init(|| Stemmer::create(Algorithm::English)),
        word,
    )
}

/// Simplified Chinese headwords and the concepts (stemmed English gloss words) each stands for.
#[derive(Debug, Clone)]
pub struct Lexicon {
    table: WordTable,
}

impl Lexicon {
    /// The embedded lexicon (CC-CEDICT): the embedded word table, nothing to load.
    pub fn embedded() -> &'static Lexicon {
        static LEXICON: OnceLock<Lexicon> = OnceLock::new();
        LEXICON.get_or_init(|| Lexicon {
            table: crate::text::word_table().clone(),
        })
    }

    /// A lexicon of `headword<TAB>word word …` lines (`#` lines are comments), built at run time the
    /// way the embedded one is built when Tongwen is compiled.
    pub fn parse(text: &str) -> Result<Lexicon, BuildError> {
        Ok(Lexicon {
            table: WordTable::from_text("", text, [])?,
        })
    }

    /// How many headwords have `concept` among their glosses: 0 for a word the dictionary never uses
    /// (a name, a command), thousands for "use" or "make".
    pub fn generality(&self, concept: u64) -> u32 {
        self.table.generality(concept)
    }

    /// The concepts `word` (Simplified Chinese, normalised) stands for; empty when the lexicon lacks it.
    pub fn translations(&self, word: &str) -> Concepts<'_> {
        self.translations_of(word_hash(word))
    }

    /// [`Self::translations`] of the word whose [`word_hash`] is `hash`.
    #[inline]
    pub fn translations_of(&self, hash: u64) -> Concepts<'_> {
        self.table.get(hash).map_or(Concepts::NONE, |e| e.concepts)
    }

    /// Headwords.
    pub fn len(&self) -> usize {
        self.table.headwords()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
