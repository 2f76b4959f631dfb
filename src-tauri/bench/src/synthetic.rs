//! Synthetic library paragraphs for the benchmarks (`tongwen-bench`, `cargo bench -p tongwen-bench`), so
//! a library can be grown to millions of paragraphs from a small real corpus, identically on every run.
//!
//! A synthetic paragraph has a random SimHash and as many winnowed shingle keys and concept keys (of the
//! same language) as a real paragraph drawn at random, 90% of them random and 10% taken from that real
//! paragraph, so keys common in real text get long posting lists as the library grows. Its text is a placeholder, never shortlisted by
//! real text except through those shared keys.

use tongwen_engine::crosslang::CONCEPT_BIT;
use tongwen_engine::extract::{BlockKind, Format};
use tongwen_engine::library::{NewDocument, NewParagraph};

/// Generator of synthetic paragraphs modelled on real paragraphs' keys (xorshift64*, fixed seed).
#[derive(Debug, Clone)]
pub struct Synthetic {
    state: u64,
    real: Vec<Vec<u32>>,
}

impl Synthetic {
    /// `real`: the winnowed keys of real paragraphs (at least one).
    pub fn new(real: Vec<Vec<u32>>) -> Self {
        Synthetic {
            state: 0x7f4a_7c15_9e37_79b9,
            real,
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
                if self.below(10) == 0 {
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
}
