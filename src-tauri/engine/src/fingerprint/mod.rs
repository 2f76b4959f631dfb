//! Paragraph fingerprints, as stored in the library:
//! - the seed method's 64-bit SimHash of TF-IDF-weighted tokens (`simhash`, weights from `idf`);
//! - the shingle keys the shortlist stage indexes (`shingles`).
//!
//! Both are pure functions of the paragraph text and of data compiled into the binary (jieba's
//! dictionary, the stop-word lists, the IDF table), so stored fingerprints stay valid as the library
//! grows. [`FINGERPRINT_VERSION`] names the definition; every stored paragraph records it, and a library
//! opened by a Tongwen with another version is re-fingerprinted.

pub mod idf;
pub mod shingles;
pub mod simhash;

use crate::text::{units, Tokenizer};

pub use idf::IdfTable;
pub use simhash::{hamming, similarity};

/// Version of the fingerprint definition (tokenizer, stop words, IDF table, hashes, shingle sizes,
/// winnowing). 1: all shingles stored; 2: winnowed shingles (window 4).
pub const FINGERPRINT_VERSION: i64 = 2;

/// A paragraph's stored fingerprints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParagraphPrint {
    pub simhash: u64,
    /// Winnowed shingle keys, sorted (see [`shingles::winnowed`]).
    pub shingles: Vec<u32>,
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

    /// The TF-IDF-weighted SimHash of a paragraph (weight = term frequency × IDF).
    pub fn simhash(&self, paragraph: &str) -> u64 {
        self.tokenizer.with_tokens(paragraph, |tokens| {
            // Distinct tokens with their counts, in byte order: the floating-point totals are summed in
            // that order, so the bits are identical on every run and machine.
            let mut sorted = tokens.to_vec();
            sorted.sort_unstable();
            let weighted = sorted.chunk_by(|a, b| a == b).map(|run| {
                let t = run[0];
                (t, run.len() as f32 * self.idf.idf(t))
            });
            simhash::simhash(weighted)
        })
    }

    /// Both fingerprints of a paragraph.
    pub fn paragraph(&self, paragraph: &str) -> ParagraphPrint {
        ParagraphPrint {
            simhash: self.simhash(paragraph),
            shingles: shingles::winnowed(&units(paragraph)),
        }
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
    }

    const PINNED: &str = "9b19a83d6d1bfa04";

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
