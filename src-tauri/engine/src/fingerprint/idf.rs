//! The reference IDF table, as the SimHash's integer word weights. Weights must not depend on what the
//! library holds, or every stored fingerprint would go stale as documents are added; so IDF comes from a
//! fixed table: jieba's `idf.txt` (270k words, from a large general Chinese corpus), copied into
//! `assets/idf/jieba-idf.txt.gz` and versioned with the fingerprint definition. A word missing from the
//! table (most English words, new terms) gets the table's median IDF, as jieba's own TF-IDF extractor
//! does; a stop word weighs 0.
//!
//! A word's weight is its IDF in fixed point, `round(idf × 2^16)` ([`WEIGHT_ONE`]), so the SimHash sums
//! integers: exact, the same in any order, on any machine.

use std::sync::OnceLock;

use xxhash_rust::xxh3::xxh3_64;

use crate::text::words::{BuildError, WordTable, NO_WEIGHT};

pub use crate::text::words::WEIGHT_ONE;

/// Word weights keyed by the word's xxh3-64 (seed 0) — the hash SimHash uses anyway, so each token is
/// hashed once, and a lookup touches one table slot instead of a slot and a string elsewhere in memory
/// (building the table fails when two words share a key).
///
/// The table is the word table's weights (`text::words`): built when Tongwen is compiled, read in
/// place; its most common words (lowest IDF) also have a small table that stays in the processor's
/// cache, where most tokens of any text are found.
#[derive(Debug, Clone)]
pub struct IdfTable {
    table: WordTable,
}

impl IdfTable {
    /// The embedded table with the embedded stop words at weight 0: the embedded word table.
    pub fn embedded() -> &'static IdfTable {
        static TABLE: OnceLock<IdfTable> = OnceLock::new();
        TABLE.get_or_init(|| IdfTable {
            table: crate::text::word_table().clone(),
        })
    }

    /// A table of `word idf` lines, `stop_words` at weight 0 whether listed or not, built at run time
    /// the way the embedded one is built when Tongwen is compiled.
    pub fn parse<'s>(
        text: &str,
        stop_words: impl IntoIterator<Item = &'s str>,
    ) -> Result<IdfTable, BuildError> {
        Ok(IdfTable {
            table: WordTable::from_text(text, "", stop_words)?,
        })
    }

    /// Weight of a (normalised) word given its xxh3-64: its IDF in fixed point, 0 for a stop word, the
    /// median for an unknown word.
    #[inline]
    pub fn weight(&self, hash: u64) -> u32 {
        self.table.weight(hash)
    }

    /// IDF of a (normalised) word, as used (0 for stop words, the median for unknown words).
    pub fn idf(&self, word: &str) -> f64 {
        f64::from(self.weight(xxh3_64(word.as_bytes()))) / WEIGHT_ONE
    }

    /// The word table the weights are read from.
    pub fn table(&self) -> &WordTable {
        &self.table
    }

    /// The default IDF for unknown words.
    pub fn median(&self) -> f64 {
        f64::from(self.table.median()) / WEIGHT_ONE
    }

    /// Words with a weight of their own (in the IDF table or a stop word); walks the whole table, for
    /// tests and statistics.
    pub fn len(&self) -> usize {
        self.table
            .iter()
            .filter(|(_, e)| e.weight != NO_WEIGHT)
            .count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;
    use crate::text::words::COMMON_WORDS;

    const IDF_GZ: &[u8] = include_bytes!("../../../../assets/idf/jieba-idf.txt.gz");

    fn idf_text() -> String {
        let mut text = String::new();
        flate2::read::GzDecoder::new(IDF_GZ)
            .read_to_string(&mut text)
            .unwrap();
        text
    }

    #[test]
    fn embedded_table_loads_and_ranks_rare_words_higher() {
        let t = IdfTable::embedded();
        assert!(t.len() > 250_000);
        // No real weight reaches the SimHash's cap.
        assert!(t.table.iter().all(
            |(_, e)| e.weight == NO_WEIGHT || e.weight < super::super::simhash::MAX_WEIGHT / 2
        ));
        // Every distinct word has its own key.
        let text = idf_text();
        let words: std::collections::HashSet<&str> = text
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .chain(crate::text::tokens::stop_words().map(|w| -> &str { w }))
            .collect();
        assert_eq!(t.len(), words.len());
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
        let common: Vec<u64> = t.table.common().collect();
        assert_eq!(common.len(), COMMON_WORDS);
        let whole: std::collections::HashMap<u64, u32> =
            t.table.iter().map(|(h, e)| (h, e.weight)).collect();
        for h in common {
            assert_eq!(t.weight(h), whole[&h]);
        }
    }

    #[test]
    fn parse_rounds_to_fixed_point() {
        let t = IdfTable::parse("甲 1.5\n乙 2.0000076\n丙 x\n", ["丙"]).unwrap();
        assert_eq!(t.weight(xxh3_64("甲".as_bytes())), 98_304);
        assert_eq!(t.weight(xxh3_64("乙".as_bytes())), 131_072);
        assert_eq!(t.weight(xxh3_64("丙".as_bytes())), 0);
    }
}
