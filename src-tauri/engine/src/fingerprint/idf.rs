//! The reference IDF table, as the SimHash's integer word weights. Weights must not depend on what the
//! library holds, or every stored fingerprint would go stale as documents are added; so IDF comes from a
//! fixed table: jieba's `idf.txt` (270k words, from a large general Chinese corpus), copied into
//! `assets/idf/jieba-idf.txt.gz` and versioned with the fingerprint definition. A word missing from the
//! table (most English words, new terms) gets the table's median IDF, as jieba's own TF-IDF extractor
//! does; a stop word weighs 0.
//!
//! A word's weight is its IDF in fixed point, `round(idf × 2^16)` ([`WEIGHT_ONE`]), so the SimHash sums
//! integers: exact, the same in any order, on any machine.

use std::io::Read;
use std::sync::OnceLock;

use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::xxh3_64;

/// Words in the small table of common words (about 128 KiB).
const COMMON_WORDS: usize = 8192;

/// The weight of IDF 1.0.
pub const WEIGHT_ONE: f64 = 65_536.0;

const IDF_GZ: &[u8] = include_bytes!("../../../../assets/idf/jieba-idf.txt.gz");

/// Word weights keyed by the word's xxh3-64 (seed 0) — the hash SimHash uses anyway, so each token is
/// hashed once, and a lookup touches one table slot instead of a slot and a string elsewhere in memory
/// (a test checks that no two words of the embedded table share a key).
///
/// The most common words (lowest IDF) are also kept in a small table that stays in the processor's
/// cache; most tokens of any text are found there.
#[derive(Debug)]
pub struct IdfTable {
    weights: FxHashMap<u64, u32>,
    common: FxHashMap<u64, u32>,
    median: u32,
}

/// IDF in fixed point (see the module notes).
fn quantize(idf: f64) -> u32 {
    // IDF values are small positive numbers (jieba's are below 20); the cast saturates anything else.
    (idf.max(0.0) * WEIGHT_ONE).round() as u32
}

impl IdfTable {
    /// The embedded table with the embedded stop words at weight 0, decompressed and parsed once per
    /// process.
    pub fn embedded() -> &'static IdfTable {
        static TABLE: OnceLock<IdfTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let mut text = String::new();
            // OK because the table is compiled into the binary and checked by the tests below: a failure
            // here is a build defect, not something a user's input can cause.
            flate2::read::GzDecoder::new(IDF_GZ)
                .read_to_string(&mut text)
                .expect("embedded IDF table is valid gzip'd UTF-8");
            IdfTable::parse(&text, crate::text::tokens::stop_words())
        })
    }

    /// Parse `word idf` lines; `stop_words` weigh 0 whether listed or not.
    pub fn parse<'a>(text: &str, stop_words: impl IntoIterator<Item = &'a str>) -> IdfTable {
        let mut weights = FxHashMap::with_capacity_and_hasher(300_000, Default::default());
        for line in text.lines() {
            let mut parts = line.split_whitespace();
            if let (Some(word), Some(value)) = (parts.next(), parts.next()) {
                if let Ok(v) = value.parse::<f64>() {
                    weights.insert(xxh3_64(word.as_bytes()), quantize(v));
                }
            }
        }
        let mut by_weight: Vec<(u32, u64)> = weights.iter().map(|(&h, &v)| (v, h)).collect();
        by_weight.sort_unstable();
        let median = by_weight
            .get(by_weight.len() / 2)
            .map_or(quantize(1.0), |p| p.0);
        for word in stop_words {
            weights.insert(xxh3_64(word.as_bytes()), 0);
        }
        let common = by_weight
            .iter()
            .take(COMMON_WORDS)
            .map(|&(_, h)| (h, weights[&h]))
            .collect();
        IdfTable {
            weights,
            common,
            median,
        }
    }

    /// Weight of a (normalised) word given its xxh3-64: its IDF in fixed point, 0 for a stop word, the
    /// median for an unknown word.
    #[inline]
    pub fn weight(&self, hash: u64) -> u32 {
        match self.common.get(&hash) {
            Some(&w) => w,
            None => self.weights.get(&hash).copied().unwrap_or(self.median),
        }
    }

    /// IDF of a (normalised) word, as used (0 for stop words, the median for unknown words).
    pub fn idf(&self, word: &str) -> f64 {
        f64::from(self.weight(xxh3_64(word.as_bytes()))) / WEIGHT_ONE
    }

    /// The default IDF for unknown words.
    pub fn median(&self) -> f64 {
        f64::from(self.median) / WEIGHT_ONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_table_loads_and_ranks_rare_words_higher() {
        let t = IdfTable::embedded();
        assert!(t.weights.len() > 250_000);
        // No real weight reaches the SimHash's cap.
        assert!(t
            .weights
            .values()
            .all(|&w| w < super::super::simhash::MAX_WEIGHT / 2));
        // Every distinct word has its own key.
        let mut text = String::new();
        flate2::read::GzDecoder::new(IDF_GZ)
            .read_to_string(&mut text)
            .unwrap();
        let words: std::collections::HashSet<&str> = text
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .chain(crate::text::tokens::stop_words().map(|w| -> &str { w }))
            .collect();
        assert_eq!(t.weights.len(), words.len());
        assert!(t.idf("生化学") > t.idf("中国"));
        assert_eq!(t.idf("debian-unknown-word"), t.median());
        assert!(t.median() > 5.0 && t.median() < 15.0, "{}", t.median());
        // Fixed point keeps the table's precision (its values have 6 decimals at most ~14).
        assert!((t.idf("中国") - 2.6).abs() < 1.0, "{}", t.idf("中国"));
    }

    #[test]
    fn stop_words_weigh_nothing_and_the_common_table_agrees() {
        let t = IdfTable::embedded();
        for w in ["的", "我们", "the", "is"] {
            assert_eq!(t.idf(w), 0.0, "{w}");
        }
        assert!(t.common.len() == COMMON_WORDS);
        for (h, w) in &t.common {
            assert_eq!(t.weights[h], *w);
        }
    }

    #[test]
    fn parse_rounds_to_fixed_point() {
        let t = IdfTable::parse("甲 1.5\n乙 2.0000076\n丙 x\n", ["丙"]);
        assert_eq!(t.weight(xxh3_64("甲".as_bytes())), 98_304);
        assert_eq!(t.weight(xxh3_64("乙".as_bytes())), 131_072);
        assert_eq!(t.weight(xxh3_64("丙".as_bytes())), 0);
    }
}
