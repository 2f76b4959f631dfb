//! Paragraph fingerprints, as stored in the library:
//! - the seed method's 64-bit SimHash of TF-IDF-weighted tokens (`simhash`, weights from `idf`);
//! - the shingle keys the shortlist stage indexes (`shingles`);
//! - the concept keys the cross-language shortlist indexes (`crate::crosslang::index_keys`).
//!
//! All three are pure functions of the paragraph text and of data compiled into the binary (jieba's
//! dictionary, the stop-word lists, the IDF table, the lexicon (CC-CEDICT and the learned pairs) and the Snowball stemmer), so
//! stored fingerprints stay valid as the library grows; a change to any of them changes the
//! definition. [`FINGERPRINT_VERSION`] names the definition; every stored paragraph records it, and a library
//! opened by a Tongwen with another version is re-fingerprinted.

pub mod idf;
pub mod method;
pub mod shingles;
pub mod simhash;

use std::cell::RefCell;

use crate::crosslang::{self, Lexicon};
use crate::text::tokens::LookedUp;
use crate::text::units::read_into;
use crate::text::words::{self, Concepts};
use crate::text::{normalize, ReadParagraph, Tokenizer};

pub use idf::IdfTable;
pub use method::Method;
pub use simhash::{hamming, similarity, SimHasher};

/// Version of the fingerprint definition (tokenizer, stop words, IDF table, hashes, shingle sizes,
/// winnowing). 1: all shingles stored; 2: winnowed shingles (window 4); 3: integer SimHash weights
/// (fixed-point IDF summed per occurrence, stop words at weight 0) and shingle keys mixed from the unit
/// hashes instead of hashed again; 4: shingle units folded to one Chinese script (Traditional and
/// Simplified characters, variant forms and Taiwan vocabulary, `text::script`); 5: shingle keys of 31
/// bits, and concept keys (top bit set) stored with them for copies across Chinese and English; 6: the
/// lexicon's learned pairs (`assets/lexicon/learned-zh-en.txt.gz`) in the concept keys; 7: up to 48
/// concept keys stored per paragraph instead of 32 (`crosslang::MAX_STORED_CONCEPTS`).
pub const FINGERPRINT_VERSION: i64 = 7;

/// A paragraph's stored fingerprints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParagraphPrint {
    pub simhash: u64,
    /// Winnowed shingle keys, sorted (see [`shingles::winnowed`]).
    pub shingles: Vec<u32>,
    /// Concept keys, sorted (see [`crosslang::stored_keys`]).
    pub concepts: Vec<u32>,
    /// The paragraph's characters that are not white space (stored beside the fingerprints; counted in
    /// the same pass).
    pub chars: u64,
}

/// Computes fingerprints. Cheap to share: holds a tokenizer and the embedded IDF table.
#[derive(Debug)]
pub struct Fingerprinter {
    tokenizer: Tokenizer,
    idf: &'static IdfTable,
}

impl Default for Fingerprinter {
    fn default() -> Self {
        Self::new()
    }
}

impl Fingerprinter {
    pub fn new() -> Self {
        Fingerprinter {
            tokenizer: Tokenizer::new(),
            idf: IdfTable::embedded(),
        }
    }

    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// The Chinese → English lexicon of the cross-language comparison, loaded the first time it is
    /// needed (a comparison within one language never loads it).
    pub fn lexicon(&self) -> &'static Lexicon {
        Lexicon::embedded()
    }

    /// The TF-IDF-weighted SimHash of a paragraph: every occurrence of a word adds its IDF weight.
    pub fn simhash(&self, paragraph: &str) -> u64 {
        self.simhash_normalized(&normalize(paragraph))
    }

    /// [`Self::simhash`] of a paragraph already normalised (see [`normalize`]).
    fn simhash_normalized(&self, normalized: &str) -> u64 {
        with_scratch(|scratch| self.simhash_and_concepts(normalized, &mut scratch.words, None))
    }

    /// [`Self::simhash_normalized`], also collecting the words' indexed concepts into `concepts` (one
    /// pass of the segmenter for both). `words` is scratch space.
    fn simhash_and_concepts(
        &self,
        normalized: &str,
        words: &mut Vec<LookedUp>,
        concepts: Option<&mut ConceptScratch>,
    ) -> u64 {
        let mut h = SimHasher::default();
        // One lookup gives a word's weight and concepts: by its dictionary id when the segmenter took
        // it from its dictionary, else by its hash (`Tokenizer::looked_up_words`). Only stop words
        // weigh 0 (a test checks the embedded table).
        let table = self.idf.table();
        self.tokenizer.looked_up_words(normalized, words);
        match concepts {
            // A Chinese word's concepts are read after the paragraph's words (see
            // `words::ranked_concepts_of_all`), all together.
            Some(ConceptScratch {
                distinct,
                later,
                slots,
                ranked,
            }) => {
                later.clear();
                for w in words.iter() {
                    let entry = table.by_id(w.packed);
                    let weight = table.weight_of(entry);
                    h.add(w.hash, weight);
                    if weight != 0 {
                        let glosses = entry.map_or(Concepts::NONE, |e| e.concepts);
                        crosslang::push_ranked_concepts_later(
                            w.word(normalized),
                            w.hash,
                            glosses,
                            later,
                            distinct,
                        );
                    }
                }
                ranked.clear();
                words::ranked_concepts_of_all(later, slots, ranked);
                distinct.extend(ranked.iter().copied());
            }
            None => {
                for w in words.iter() {
                    h.add(w.hash, table.weight_of(table.by_id(w.packed)));
                }
            }
        }
        h.finish()
    }

    /// Every fingerprint of a paragraph, as the library stores them.
    pub fn paragraph(&self, paragraph: &str) -> ParagraphPrint {
        self.prints(paragraph, true)
    }

    /// The SimHash and shingle keys of a paragraph, without concept keys (`concepts` is empty): what a
    /// comparison within one language needs (a class compared with itself).
    pub fn same_language(&self, paragraph: &str) -> ParagraphPrint {
        self.prints(paragraph, false)
    }

    fn prints(&self, paragraph: &str, with_concepts: bool) -> ParagraphPrint {
        with_scratch(|scratch| {
            let Scratch {
                read,
                words,
                concepts,
                shingles,
            } = scratch;
            // One pass normalises the text for the segmenter and reads the units for the shingles.
            read_into(paragraph, read);
            concepts.distinct.clear();
            let simhash = self.simhash_and_concepts(
                &read.normalized,
                words,
                with_concepts.then_some(&mut *concepts),
            );
            let concepts = if with_concepts {
                let language = crosslang::language_of_letters(read.letters);
                concepts.distinct.take_stored_keys(language)
            } else {
                Vec::new()
            };
            ParagraphPrint {
                simhash,
                shingles: shingles::winnowed_with(&read.units, shingles),
                concepts,
                chars: read.non_ws_chars as u64,
            }
        })
    }
}

/// Run `f` with this thread's [`Scratch`]. Fingerprinting never calls back into itself, so the
/// scratch is never borrowed twice; if it were, a fresh one would do the same work.
fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    thread_local! {
        static SCRATCH: RefCell<Scratch> = RefCell::default();
    }
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut held) => {
            let out = f(&mut held);
            held.release_if_huge();
            out
        }
        Err(_) => f(&mut Scratch::default()),
    })
}

/// The most memory one of [`Scratch`]'s buffers keeps between paragraphs: one enormous paragraph (a
/// whole book in one, from a file without paragraph breaks) does not stay in every thread's memory.
const SCRATCH_KEPT: usize = 1 << 20;

impl Scratch {
    fn release_if_huge(&mut self) {
        fn release<T>(buf: &mut Vec<T>) {
            if buf.capacity() * std::mem::size_of::<T>() > SCRATCH_KEPT {
                *buf = Vec::new();
            }
        }
        if self.read.normalized.capacity() > SCRATCH_KEPT {
            self.read.normalized = String::new();
        }
        release(&mut self.read.units);
        release(&mut self.words);
        release(&mut self.shingles);
        release(&mut self.concepts.later);
        release(&mut self.concepts.slots);
        release(&mut self.concepts.ranked);
    }
}

/// What fingerprinting keeps on each thread from one paragraph to the next: its working buffers, so
/// that a paragraph's passes write into memory that is already in the cache instead of new memory
/// (what is stored is still a new vector per paragraph). Measured on eval-dev's Chinese text, see
/// docs/speed.md ("Buffers kept per thread").
#[derive(Default)]
struct Scratch {
    read: ReadParagraph,
    /// The paragraph's words with their entries in the word table.
    words: Vec<LookedUp>,
    concepts: ConceptScratch,
    /// The shingles in text order, before winnowing.
    shingles: Vec<u32>,
}

/// The concept keys' working buffers (see [`Fingerprinter::simhash_and_concepts`]).
#[derive(Default)]
struct ConceptScratch {
    distinct: crosslang::DistinctConcepts,
    /// The glosses of the paragraph's Chinese words, read together at the end.
    later: Vec<Concepts<'static>>,
    slots: Vec<(&'static [u64], usize)>,
    ranked: Vec<(u32, u64)>,
}

impl ParagraphPrint {
    /// Every key the library indexes the paragraph by (shingle keys, then concept keys), as stored.
    pub fn index_keys(&self) -> Vec<u32> {
        let mut keys = Vec::with_capacity(self.shingles.len() + self.concepts.len());
        keys.extend_from_slice(&self.shingles);
        keys.extend_from_slice(&self.concepts);
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_is_stable_across_runs() {
        // Pinned value: if this changes, the fingerprint definition changed and FINGERPRINT_VERSION must
        // be bumped (stored libraries would otherwise compare old prints with new ones).
        let f = Fingerprinter::new();
        let p = f.paragraph("Debian 软件包维护者应当定期检查错误跟踪系统。");
        assert_eq!(
            p.simhash,
            f.simhash("Debian 软件包维护者应当定期检查错误跟踪系统。")
        );
        assert_eq!(format!("{:016x}", p.simhash), PINNED);
        let keys: Vec<String> = p
            .shingles
            .iter()
            .take(4)
            .map(|k| format!("{k:08x}"))
            .collect();
        assert_eq!(keys, PINNED_KEYS);
        let concepts: Vec<String> = p
            .concepts
            .iter()
            .take(4)
            .map(|k| format!("{k:08x}"))
            .collect();
        assert_eq!(concepts, PINNED_CONCEPTS);
        assert!(p.shingles.iter().all(|k| k & crosslang::CONCEPT_BIT == 0));
        assert!(p.concepts.iter().all(|k| k & crosslang::CONCEPT_BIT != 0));
    }

    const PINNED_CONCEPTS: [&str; 4] = ["c4855b3a", "c50ec651", "c7a7e774", "c7ca2a61"];

    const PINNED_KEYS: [&str; 4] = ["0c7288b4", "11c97d13", "2cfdc032", "3a4bf29f"];

    const PINNED: &str = "9b19a83d6d1bfa04";

    #[test]
    fn same_language_prints_are_the_stored_ones_without_concepts() {
        let f = Fingerprinter::new();
        let text = "Debian 软件包维护者应当定期检查错误跟踪系统。";
        let (all, same) = (f.paragraph(text), f.same_language(text));
        assert_eq!((same.simhash, &same.shingles), (all.simhash, &all.shingles));
        assert!(same.concepts.is_empty() && !all.concepts.is_empty());
    }

    #[test]
    fn a_thread_that_fingerprinted_other_paragraphs_gives_the_same_prints() {
        // The buffers kept per thread are emptied between paragraphs: a paragraph's prints do not depend
        // on what the thread read before it (a long paragraph that grew them, another script, another
        // language, the comparison without concept keys).
        let f = Fingerprinter::new();
        let letters = |i: usize| -> String {
            [i / 676, i / 26 % 26, i % 26]
                .iter()
                .map(|&k| char::from(b'a' + k as u8))
                .collect()
        };
        let long: String = (0..3000).map(|i| format!("zq{} ", letters(i))).collect();
        let paragraphs = [
            long.as_str(),
            "繁體中文的軟體與記憶體，程式設計師在檔案裡寫入資料。",
            "Debian 软件包维护者应当定期检查错误跟踪系统。",
            "The maintainer checks the bug tracker of every package regularly.",
            "",
            "短",
        ];
        let fresh: Vec<(ParagraphPrint, ParagraphPrint)> = paragraphs
            .iter()
            .map(|p| {
                std::thread::scope(|s| {
                    s.spawn(|| (f.paragraph(p), f.same_language(p)))
                        .join()
                        .unwrap()
                })
            })
            .collect();
        assert!(fresh[0].0.concepts.len() >= crosslang::MAX_STORED_CONCEPTS);
        assert!(!fresh[1].0.concepts.is_empty() && !fresh[2].0.concepts.is_empty());
        for round in 0..2 {
            let order: Vec<usize> = if round == 0 {
                (0..paragraphs.len()).collect()
            } else {
                (0..paragraphs.len()).rev().collect()
            };
            for i in order {
                let p = paragraphs[i];
                assert_eq!(f.same_language(p), fresh[i].1, "{round} {i}");
                assert_eq!(f.paragraph(p), fresh[i].0, "{round} {i}");
                assert_eq!(f.simhash(p), fresh[i].0.simhash, "{round} {i}");
            }
        }
    }

    #[test]
    fn an_enormous_paragraph_does_not_stay_in_the_threads_memory() {
        let f = Fingerprinter::new();
        let huge: String = (0..60_000).map(|i| format!("w{} ", i % 5000)).collect();
        let kept = || {
            with_scratch(|s| {
                let bytes = |n: usize, size: usize| n * size;
                [
                    bytes(
                        s.read.units.capacity(),
                        std::mem::size_of::<crate::text::Unit>(),
                    ),
                    bytes(s.words.capacity(), std::mem::size_of::<LookedUp>()),
                    bytes(s.shingles.capacity(), 4),
                ]
            })
        };
        let print = f.paragraph(&huge);
        assert!(print.shingles.len() > 1000 && !print.concepts.is_empty());
        assert!(kept().iter().all(|&b| b <= SCRATCH_KEPT), "{:?}", kept());
        // An ordinary paragraph keeps its buffers for the next one.
        f.paragraph("Debian 软件包维护者应当定期检查错误跟踪系统。");
        assert!(kept().iter().all(|&b| b > 0), "{:?}", kept());
    }

    #[test]
    fn edited_copy_is_closer_than_unrelated_text() {
        let f = Fingerprinter::new();
        let a = f.simhash("如果你想成为一名好的维护者，你应该定期检查 Debian 错误跟踪系统中你的软件包的错误报告。");
        let b = f.simhash(
            "如果你想成为好的维护者，应该定期检查 Debian 错误跟踪系统里你的软件包错误报告。",
        );
        let c = f.simhash("今天的天气非常好，我们一起去公园散步，看见了很多美丽的花朵和树木。");
        assert!(
            hamming(a, b) < hamming(a, c),
            "{} vs {}",
            hamming(a, b),
            hamming(a, c)
        );
    }
}
