//! Word tokens for the paragraph SimHash (the seed method): the paragraph is normalised (NFKC, lower
//! case), segmented with jieba-rs and its embedded dictionary (HMM on, so unknown Chinese words are still
//! found; English words come out whole), and punctuation, whitespace and pure numbers are dropped. Stop
//! words (`assets/stopwords/`, compiled in) are dropped from [`Tokenizer::tokens`]; the SimHash keeps
//! them at weight 0 (see `fingerprint::idf`), which comes to the same.

use jieba_rs::Jieba;
use rustc_hash::FxHashSet;

use super::normalize::{is_cjk_punctuation, normalize};
use super::words::Entry;

const STOPWORDS_ZH: &str = include_str!("../../../../assets/stopwords/zh.txt");
const STOPWORDS_EN: &str = include_str!("../../../../assets/stopwords/en.txt");

/// The embedded stop words (Chinese and English), as listed.
pub fn stop_words() -> impl Iterator<Item = &'static str> {
    STOPWORDS_ZH
        .lines()
        .chain(STOPWORDS_EN.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// jieba's default dictionary as loaded, written by `build.rs` (`Jieba::to_prebuilt`), aligned so that
/// its trie is read in place.
#[cfg(feature = "prebuilt-dictionary")]
static JIEBA_BLOB: &super::Aligned<[u8]> =
    &super::Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/jieba.bin")));

#[cfg(feature = "prebuilt-dictionary")]
const JIEBA_PREBUILT: &[u8] = &JIEBA_BLOB.0;

/// jieba with its default dictionary: with the `prebuilt-dictionary` feature, its records read from the
/// prebuilt bytes and its trie (most of the 21.5 MB) used in place, where it lies in the binary; else
/// loaded from jieba's own (about 60 ms, most of it inserting 349,045 words into its trie). Both give
/// the same instance (a test checks).
fn jieba() -> Jieba {
    #[cfg(feature = "prebuilt-dictionary")]
    {
        // OK because the bytes are written by build.rs from jieba's own dictionary and read by every
        // test: a failure here is a build defect, not something a user's input can cause.
        Jieba::from_prebuilt_static(JIEBA_PREBUILT)
            .expect("the embedded prebuilt jieba dictionary is valid")
    }
    #[cfg(not(feature = "prebuilt-dictionary"))]
    {
        Jieba::new()
    }
}

/// Segments paragraphs into the words that are weighted and hashed. Building one loads jieba's
/// dictionary (see [`jieba`]); it is `Sync`, so share one behind an `Arc`.
pub struct Tokenizer {
    jieba: Jieba,
    stopwords: FxHashSet<&'static str>,
}

impl std::fmt::Debug for Tokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokenizer")
            .field("stopwords", &self.stopwords.len())
            .finish()
    }
}

impl Default for Tokenizer {
    fn default() -> Self {
        Self::new()
    }
}

impl Tokenizer {
    pub fn new() -> Self {
        Tokenizer {
            jieba: jieba(),
            stopwords: stop_words().collect(),
        }
    }

    /// The jieba segmenter (used by benchmarks to measure raw segmentation speed).
    pub fn jieba(&self) -> &Jieba {
        &self.jieba
    }

    /// The paragraph's content words in order, normalised, without stop words, punctuation or numbers.
    pub fn tokens(&self, paragraph: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.for_each_word(paragraph, |w| {
            if !self.stopwords.contains(w) {
                out.push(w.to_owned());
            }
        });
        out
    }

    /// Whether `word` (normalised) is one of the embedded stop words.
    pub fn is_stop_word(&self, word: &str) -> bool {
        self.stopwords.contains(word)
    }

    /// Call `f` with each word of the paragraph that has a letter or ideograph, stop words included, in
    /// order, as slices of the normalised paragraph.
    pub fn for_each_word(&self, paragraph: &str, f: impl FnMut(&str)) {
        self.for_each_normalized_word(&normalize(paragraph), f);
    }

    /// [`Self::for_each_word`] on text that is already normalised (see [`normalize`]).
    pub fn for_each_normalized_word<'t>(&self, normalized: &'t str, mut f: impl FnMut(&'t str)) {
        for t in self.jieba.cut(normalized, true) {
            if is_content(t.word) {
                f(t.word);
            }
        }
    }
}

impl Tokenizer {
    /// The id table ([`super::word_ids_if_ready`]) when it is ready and `jieba` is the dictionary it was
    /// built from (as many words), else empty.
    fn ids(&self) -> &'static [u64] {
        let ids = super::word_ids_if_ready();
        if ids.len() == self.jieba.word_count() {
            ids
        } else {
            &[]
        }
    }

    /// [`Self::for_each_normalized_word`], with each word's hash ([`super::words::word_hash`]) and
    /// what the embedded word table holds for it ([`super::WordTable::get`]). What the table holds for a
    /// word the segmenter took from its dictionary is read by its id from the id table
    /// ([`super::word_ids`]), without a probe; any other word is looked up by its hash.
    pub fn for_each_looked_up_word<'t>(
        &self,
        normalized: &'t str,
        mut f: impl FnMut(&'t str, u64, Option<Entry<'static>>),
    ) {
        let table = super::word_table();
        let mut words = Vec::new();
        self.looked_up_words(normalized, &mut words);
        for w in &words {
            f(w.word(normalized), w.hash, table.by_id(w.packed));
        }
    }
}

/// A content word of a paragraph with what the word table holds for it, as
/// [`Tokenizer::looked_up_words`] gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LookedUp {
    /// Where the word lies in the normalised paragraph (bytes).
    pub start: u32,
    pub len: u32,
    /// [`super::words::word_hash`] of the word.
    pub hash: u64,
    /// The word's packed entry in the word table ([`super::WordTable::by_id`]).
    pub packed: u64,
}

impl LookedUp {
    /// The word, in the normalised paragraph it was read from.
    pub fn word<'t>(&self, normalized: &'t str) -> &'t str {
        let start = self.start as usize;
        normalized
            .get(start..start + self.len as usize)
            .unwrap_or_default()
    }
}

/// In [`LookedUp::packed`] between the two passes of [`Tokenizer::looked_up_words`]: a word to look up
/// by its hash (the segmenter gave it no id).
const BY_HASH: u64 = u64::MAX - 1;

impl Tokenizer {
    /// [`Self::for_each_looked_up_word`]'s words and entries, in order, into `out` (emptied first),
    /// in two passes: the segmenter's, which records each content word with its id, then the lookups.
    /// A word's lookup is a load that mostly misses the cache (the id table is 2.8 MB); made one after
    /// another in a loop of nothing else, they overlap instead of each waiting inside the segmenter's
    /// pass for the one before it.
    pub fn looked_up_words(&self, normalized: &str, out: &mut Vec<LookedUp>) {
        out.clear();
        let table = super::word_table();
        let ids = self.ids();
        let base = normalized.as_ptr() as usize;
        self.jieba.cut_with_ids(normalized, true, |word, id| {
            if !is_content(word) {
                return;
            }
            out.push(LookedUp {
                start: (word.as_ptr() as usize - base) as u32,
                len: word.len() as u32,
                hash: super::words::word_hash(word),
                packed: id
                    .filter(|&id| id < ids.len())
                    .map_or(BY_HASH, |id| id as u64),
            });
        });
        for w in out.iter_mut() {
            w.packed = match w.packed {
                BY_HASH => table.get_packed(w.hash),
                id => ids[id as usize],
            };
        }
    }
}

/// A token is content when it has a letter or ideograph and is not only digits and punctuation.
pub fn is_content(word: &str) -> bool {
    // Han ideographs first: they are most words, and `is_alphabetic` looks them up in a slow table.
    word.chars().any(|c| {
        matches!(c as u32, 0x4E00..=0x9FFF) || (!is_cjk_punctuation(c) && c.is_alphabetic())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "prebuilt-dictionary")]
    #[test]
    fn the_prebuilt_dictionary_is_jiebas_own() {
        // build.rs wrote the embedded bytes; jieba's dictionary loaded now gives the same bytes, they read
        // back into an instance that writes them again, and both segment alike.
        let loaded = Jieba::new();
        let prebuilt = Jieba::from_prebuilt(JIEBA_PREBUILT).unwrap();
        let in_place = Jieba::from_prebuilt_static(JIEBA_PREBUILT).unwrap();
        assert_eq!(
            JIEBA_PREBUILT.as_ptr() as usize % 8,
            0,
            "the blob is aligned"
        );
        assert!(
            loaded.to_prebuilt() == JIEBA_PREBUILT,
            "the embedded dictionary is stale"
        );
        assert!(prebuilt.to_prebuilt() == JIEBA_PREBUILT);
        let text =
            "我们的 Debian 软件包在2023年发布了，维护者应当定期检查错误跟踪系统。C++ and c# code, \
                    lintian --pedantic, 中華人民共和國的繁體字。";
        let words = |j: &Jieba| -> Vec<String> {
            j.cut(text, true)
                .iter()
                .map(|t| t.word.to_owned())
                .collect()
        };
        assert_eq!(words(&prebuilt), words(&loaded));
        assert_eq!(words(&in_place), words(&loaded));
        assert!(in_place.to_prebuilt() == JIEBA_PREBUILT);
        assert!(prebuilt.has_word("软件包") && !prebuilt.has_word("软件包裹"));
        // A word added to the instance read in place copies its trie first; the embedded bytes stay.
        let mut added = Jieba::from_prebuilt_static(JIEBA_PREBUILT).unwrap();
        added.add_word("软件包裹", Some(100_000), None);
        assert!(added.has_word("软件包裹") && added.has_word("软件包"));
        assert!(!in_place.has_word("软件包裹"));
    }

    #[cfg(feature = "prebuilt-dictionary")]
    #[test]
    fn bytes_that_are_not_a_prebuilt_dictionary_are_refused() {
        for bad in [
            &b""[..],
            b"JIEBAPB\x00",
            &JIEBA_PREBUILT[..JIEBA_PREBUILT.len() / 2],
            &JIEBA_PREBUILT[..JIEBA_PREBUILT.len() - 1],
        ] {
            assert!(Jieba::from_prebuilt(bad).is_err(), "{} bytes", bad.len());
            assert!(
                Jieba::from_prebuilt_static(bad).is_err(),
                "{} bytes",
                bad.len()
            );
        }
        let mut longer = JIEBA_PREBUILT.to_vec();
        longer.push(0);
        assert!(Jieba::from_prebuilt(&longer).is_err());
        assert!(Jieba::from_prebuilt_static(Box::leak(longer.into_boxed_slice())).is_err());
    }

    #[test]
    fn words_looked_up_by_their_ids_are_the_words_looked_up_by_their_hash() {
        let t = Tokenizer::new();
        // Built here where it is not embedded (as adding documents builds it).
        crate::text::word_ids();
        assert_eq!(
            t.ids().len(),
            t.jieba.word_count(),
            "the id table fits the dictionary"
        );
        let table = crate::text::word_table();
        let text = normalize(
            "我们的 Debian 软件包在2023年发布了，维护者应当定期检查错误跟踪系统。C++ and c# code, \
             lintian --pedantic, 中華人民共和國的繁體字。一个陌生的词：龘靐齉。",
        );
        let (mut by_id, mut cut_ids) = (0, 0);
        let mut looked_up = Vec::new();
        t.for_each_looked_up_word(&text, |word, hash, entry| {
            looked_up.push((word, hash, entry))
        });
        let mut expected = Vec::new();
        t.for_each_normalized_word(&text, |word| {
            let hash = crate::text::words::word_hash(word);
            expected.push((word, hash, table.get(hash)));
        });
        assert_eq!(looked_up, expected);
        // The same words and entries in two passes.
        let mut batch = Vec::new();
        t.looked_up_words(&text, &mut batch);
        let batch: Vec<_> = batch
            .iter()
            .map(|w| (w.word(&text), w.hash, table.by_id(w.packed)))
            .collect();
        assert_eq!(batch, expected);
        // Most Chinese words came from the dictionary, with ids that name them (English words have none).
        let mut content = 0;
        t.jieba.cut_with_ids(&text, true, |word, id| {
            cut_ids += 1;
            let chinese = word.chars().any(|c| matches!(c as u32, 0x4E00..=0x9FFF));
            content += usize::from(chinese);
            if let Some(id) = id {
                by_id += usize::from(chinese);
                assert_eq!(t.jieba.word_id(word), Some(id), "{word}");
                let table = crate::text::word_table();
                let hash = crate::text::words::word_hash(word);
                assert_eq!(table.by_id(t.ids()[id]), table.get(hash), "{word}");
            }
        });
        let cut: Vec<&str> = t.jieba.cut(&text, true).iter().map(|t| t.word).collect();
        assert_eq!(cut_ids, cut.len());
        assert!(
            by_id * 4 > content * 3,
            "{by_id} of {content} Chinese words had an id"
        );
    }

    #[test]
    fn chinese_and_english_tokens_without_stop_words_or_numbers() {
        let t = Tokenizer::new();
        let tokens = t.tokens("我们的 Debian 软件包在2023年发布了，The package is READY.");
        assert!(tokens.contains(&"软件包".to_string()), "{tokens:?}");
        assert!(tokens.contains(&"debian".to_string()), "{tokens:?}");
        assert!(tokens.contains(&"package".to_string()), "{tokens:?}");
        assert!(tokens.contains(&"ready".to_string()), "{tokens:?}");
        for gone in ["我们", "的", "the", "is", "2023", "，", " ", "."] {
            assert!(
                !tokens.iter().any(|t| t == gone),
                "{gone:?} kept in {tokens:?}"
            );
        }
    }
}
