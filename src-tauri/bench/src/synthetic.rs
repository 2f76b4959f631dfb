//! Synthetic library paragraphs for the benchmarks (`tongwen-bench`, `cargo bench -p tongwen-bench`), so
//! a library can be grown to millions of paragraphs from a small real corpus, identically on every run.
//!
//! A synthetic paragraph has a random SimHash and as many winnowed shingle keys and concept keys (of the
//! same language) as a real paragraph drawn at random (its model):
//! - shingle keys: 90% random, 10% taken from the model (shingles are specific: real text shares few);
//! - concept keys, [`Synthetic::new`]: the same (what `tongwen-bench` and `tongwen-server-bench` measure
//!   speed and size with; real concepts' posting lists stay short);
//! - concept keys, [`Synthetic::with_real_concepts`]: half taken from the model, half drawn from all real
//!   paragraphs' concept keys of that language, each as often as real paragraphs hold it. Every concept
//!   key is a real one and keeps its share of the library as the library grows (a concept in 1% of the
//!   real paragraphs is in about 1% of a 10M-paragraph library), and half of each real paragraph's
//!   concepts recur in one synthetic paragraph in every so many: the statistics of real text, repeated
//!   with edits (what `tongwen-translation-bench` measures the translation search's recall with).
//!
//! Its text is a placeholder, never shortlisted by real text except through those shared keys.

use tongwen_engine::crosslang::{CHINESE_BIT as CHINESE, CONCEPT_BIT};
use tongwen_engine::extract::{BlockKind, Format};
use tongwen_engine::library::{NewDocument, NewParagraph};

/// Generator of synthetic paragraphs modelled on real paragraphs' keys (xorshift64*, fixed seed).
#[derive(Debug, Clone)]
pub struct Synthetic {
    state: u64,
    real: Vec<Vec<u32>>,
    /// Every real concept key, as often as real paragraphs hold it: English, Chinese (empty: concept
    /// keys are drawn like shingle keys).
    concepts: [Vec<u32>; 2],
}

impl Synthetic {
    /// `real`: the winnowed keys of real paragraphs (at least one).
    pub fn new(real: Vec<Vec<u32>>) -> Self {
        Synthetic {
            state: 0x7f4a_7c15_9e37_79b9,
            real,
            concepts: [Vec::new(), Vec::new()],
        }
    }

    /// Synthetic paragraphs whose concept keys are real ones (see the module notes).
    pub fn with_real_concepts(real: Vec<Vec<u32>>) -> Self {
        let mut concepts = [Vec::new(), Vec::new()];
        for &k in real.iter().flatten() {
            if k & CONCEPT_BIT != 0 {
                concepts[usize::from(k & CHINESE != 0)].push(k);
            }
        }
        Synthetic {
            concepts,
            ..Synthetic::new(real)
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// One synthetic paragraph's keys, sorted and deduplicated.
    pub fn keys(&mut self) -> Vec<u32> {
        let model = self.below(self.real.len());
        let len = self.real.get(model).map_or(0, Vec::len);
        let mut keys: Vec<u32> = (0..len)
            .map(|i| {
                let real = self.real[model][i];
                let pool = usize::from(real & CHINESE != 0);
                if real & CONCEPT_BIT != 0 && !self.concepts[pool].is_empty() {
                    // A real concept key: the model's, or one of the real paragraphs' of its language.
                    if self.below(2) == 0 {
                        real
                    } else {
                        let j = self.below(self.concepts[pool].len());
                        self.concepts[pool][j]
                    }
                } else if self.below(10) == 0 {
                    real
                } else if real & CONCEPT_BIT == 0 {
                    // A shingle key: 31 bits.
                    self.next_u64() as u32 & !CONCEPT_BIT
                } else {
                    // A concept key of the real paragraph's language.
                    (real & 0xC000_0000) | (self.next_u64() as u32 & 0x3FFF_FFFF)
                }
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// Document number `no` of `count` synthetic paragraphs.
    pub fn document(&mut self, no: usize, count: usize) -> NewDocument {
        NewDocument {
            title: format!("synthetic-{no}"),
            path: format!("synthetic/{no}"),
            format: Format::Txt,
            bytes: 0,
            content_hash: format!("synthetic-{no}"),
            paragraphs: (0..count)
                .map(|i| {
                    let shingles = self.keys();
                    NewParagraph {
                        text: format!("synthetic paragraph {no}.{i}"),
                        kind: BlockKind::Body,
                        level: None,
                        chars: 0,
                        simhash: self.next_u64(),
                        shingles,
                    }
                })
                .collect(),
            meta: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_sequence_every_run_and_some_real_keys_shared() {
        let real: Vec<Vec<u32>> = vec![(0..200).collect()];
        let mut a = Synthetic::new(real.clone());
        let mut b = Synthetic::new(real);
        let (ka, kb) = (a.keys(), b.keys());
        assert_eq!(ka, kb);
        let shared = ka.iter().filter(|&&k| k < 200).count();
        assert!((5..=40).contains(&shared), "{shared} of 200 keys shared");
        let doc = a.document(7, 3);
        assert_eq!(doc.paragraphs.len(), 3);
        assert_eq!(doc.title, "synthetic-7");
    }

    #[test]
    fn concept_keys_are_real_ones_of_the_same_language_half_of_them_the_models() {
        let set = |from: u32, chinese: bool| -> Vec<u32> {
            let tag = CONCEPT_BIT | if chinese { CHINESE } else { 0 };
            (from..from + 100).map(|k| tag | k).collect()
        };
        let (a, b, c) = (set(0, false), set(1000, false), set(2000, true));
        let mut s = Synthetic::with_real_concepts(vec![a.clone(), b.clone(), c.clone()]);
        let (mut english, mut other_models) = (0, 0);
        for _ in 0..300 {
            let keys = s.keys();
            if keys[0] & CHINESE != 0 {
                assert!(keys.iter().all(|k| c.contains(k)), "{keys:?}");
                continue;
            }
            assert!(
                keys.iter().all(|k| a.contains(k) || b.contains(k)),
                "{keys:?}"
            );
            // The model is the set most of its keys come from; about a quarter come from the other.
            let in_a = keys.iter().filter(|k| a.contains(k)).count();
            english += keys.len();
            other_models += in_a.min(keys.len() - in_a);
        }
        let share = other_models as f64 / english as f64;
        assert!((0.15..0.4).contains(&share), "{share}");
    }
}
