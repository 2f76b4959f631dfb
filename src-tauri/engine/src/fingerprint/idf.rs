//! The reference IDF table. Weights must not depend on what the library holds, or every stored fingerprint
//! would go stale as documents are added; so IDF comes from a fixed table: jieba's `idf.txt` (270k words,
//! from a large general Chinese corpus), copied into `assets/idf/jieba-idf.txt.gz` and versioned with the
//! fingerprint definition. A word missing from the table (most English words, new terms) gets the table's
//! median IDF, as jieba's own TF-IDF extractor does.

use std::io::Read;
use std::sync::OnceLock;

use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::xxh3_64;

/// Words in the small table of common words (about 200 KiB).
const COMMON_WORDS: usize = 8192;

const IDF_GZ: &[u8] = include_bytes!("../../../../assets/idf/jieba-idf.txt.gz");

/// The IDF table and its default for unknown words. Words are keyed by their xxh3-64 (seed 0) rather
/// than their text: a lookup then touches one table slot instead of a slot and a string elsewhere in
/// memory (a test checks that no two words of the embedded table share a key).
///
/// The most common words (lowest IDF) are also kept in a small table that stays in the processor's
/// cache; most tokens of any text are found there.
#[derive(Debug)]
pub struct IdfTable {
    idf: FxHashMap<u64, f32>,
    common: FxHashMap<u64, f32>,
    median: f32,
}

impl IdfTable {
    /// The embedded table, decompressed and parsed once per process.
    pub fn embedded() -> &'static IdfTable {
        static TABLE: OnceLock<IdfTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let mut text = String::new();
            // OK because the table is compiled into the binary and checked by the tests below: a failure
            // here is a build defect, not something a user's input can cause.
            flate2::read::GzDecoder::new(IDF_GZ)
                .read_to_string(&mut text)
                .expect("embedded IDF table is valid gzip'd UTF-8");
            IdfTable::parse(&text)
        })
    }

    /// Parse `word idf` lines.
    pub fn parse(text: &str) -> IdfTable {
        let mut idf = FxHashMap::with_capacity_and_hasher(300_000, Default::default());
        for line in text.lines() {
            let mut parts = line.split_whitespace();
            if let (Some(word), Some(value)) = (parts.next(), parts.next()) {
                if let Ok(v) = value.parse::<f32>() {
                    idf.insert(xxh3_64(word.as_bytes()), v);
                }
            }
        }
        let mut by_idf: Vec<(f32, u64)> = idf.iter().map(|(&h, &v)| (v, h)).collect();
        by_idf.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let median = by_idf.get(by_idf.len() / 2).map_or(1.0, |p| p.0);
        let common = by_idf
            .iter()
            .take(COMMON_WORDS)
            .map(|&(v, h)| (h, v))
            .collect();
        IdfTable {
            idf,
            common,
            median,
        }
    }

    /// IDF of a (normalised) word, or the median for unknown words.
    pub fn idf(&self, word: &str) -> f32 {
        let h = xxh3_64(word.as_bytes());
        self.common
            .get(&h)
            .or_else(|| self.idf.get(&h))
            .copied()
            .unwrap_or(self.median)
    }

    /// The default IDF for unknown words.
    pub fn median(&self) -> f32 {
        self.median
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_table_loads_and_ranks_rare_words_higher() {
        let t = IdfTable::embedded();
        assert!(t.idf.len() > 250_000);
        // Every distinct word has its own key.
        let mut text = String::new();
        flate2::read::GzDecoder::new(IDF_GZ)
            .read_to_string(&mut text)
            .unwrap();
        let words: std::collections::HashSet<&str> = text
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert_eq!(t.idf.len(), words.len());
        assert!(t.idf("生化学") > t.idf("中国"));
        assert_eq!(t.idf("debian-unknown-word"), t.median());
        assert!(t.median() > 5.0 && t.median() < 15.0, "{}", t.median());
    }
}
