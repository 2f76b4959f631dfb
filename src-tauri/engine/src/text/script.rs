//! Traditional and Simplified Chinese folded to one form for comparison, so that a copy converted from
//! one script to the other (OpenCC `s2t`, `s2tw`, `s2hk`, `s2twp`, and back) reads as the same text.
//!
//! The data are OpenCC's dictionaries (`assets/opencc/`, Apache-2.0), embedded in the binary:
//!
//! * characters: a Taiwan or Hong Kong variant form is first taken to its standard Traditional form
//!   (`TWVariantsRev`, `HKVariantsRev`), then a Traditional character to its Simplified form
//!   (`TSCharacters`, the first candidate). A character without an entry is its own fold, so Simplified
//!   text is almost always unchanged; where a Simplified text uses a character that also has an entry
//!   (著, 乾), both texts fold it the same way.
//! * phrases: Taiwan vocabulary to Mainland vocabulary (`TWPhrasesRev`: 軟體 → 软件, 記憶體 → 内存,
//!   檔案 → 文件), both sides folded by character first; the longest phrase wins, over contiguous Chinese
//!   characters only.
//!
//! Only the comparison units (shingles and span alignment) are folded: paragraphs are stored and shown as
//! written, spans point into the original texts, and the seed SimHash keeps its definition.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

const TS_CHARACTERS: &str = include_str!("../../../../assets/opencc/TSCharacters.txt");
const TW_VARIANTS_REV: &str = include_str!("../../../../assets/opencc/TWVariantsRev.txt");
const HK_VARIANTS_REV: &str = include_str!("../../../../assets/opencc/HKVariantsRev.txt");
const TW_PHRASES_REV: &str = include_str!("../../../../assets/opencc/TWPhrasesRev.txt");

/// The block of Han characters looked up in a dense table (the CJK Unified Ideographs and Extension A);
/// others go through a map.
const DENSE_FIRST: u32 = 0x3400;
const DENSE_LAST: u32 = 0x9FFF;

/// Phrases are at most this many characters (TWPhrasesRev's longest is shorter).
const MAX_PHRASE: usize = 16;

struct Folding {
    /// `dense[c - DENSE_FIRST]`: the fold of `c`.
    dense: Vec<char>,
    other: FxHashMap<char, char>,
    /// Folded Taiwan phrase → folded Mainland phrase.
    phrases: FxHashMap<Vec<char>, Vec<char>>,
    /// `starts[c - DENSE_FIRST]`: whether a phrase begins with the folded character `c`.
    starts: Vec<bool>,
    longest: usize,
}

/// `key<TAB>candidate candidate…` lines: each key with its first candidate.
fn pairs(table: &'static str) -> impl Iterator<Item = (&'static str, &'static str)> {
    table.lines().filter_map(|line| {
        let (key, values) = line.split_once('\t')?;
        let first = values.split(' ').next()?;
        (!key.is_empty() && !first.is_empty()).then_some((key, first))
    })
}

fn single(s: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

fn folding() -> &'static Folding {
    static FOLDING: OnceLock<Folding> = OnceLock::new();
    FOLDING.get_or_init(|| {
        let mut variants: FxHashMap<char, char> = FxHashMap::default();
        for table in [TW_VARIANTS_REV, HK_VARIANTS_REV] {
            for (k, v) in pairs(table) {
                if let (Some(k), Some(v)) = (single(k), single(v)) {
                    variants.entry(k).or_insert(v);
                }
            }
        }
        let mut ts: FxHashMap<char, char> = FxHashMap::default();
        for (k, v) in pairs(TS_CHARACTERS) {
            if let (Some(k), Some(v)) = (single(k), single(v)) {
                ts.insert(k, v);
            }
        }
        let fold = |c: char| {
            let standard = variants.get(&c).copied().unwrap_or(c);
            ts.get(&standard).copied().unwrap_or(standard)
        };
        let dense: Vec<char> = (DENSE_FIRST..=DENSE_LAST)
            .map(|u| char::from_u32(u).map_or('\u{FFFD}', fold))
            .collect();
        let other: FxHashMap<char, char> = variants
            .keys()
            .chain(ts.keys())
            .filter(|c| !(DENSE_FIRST..=DENSE_LAST).contains(&(**c as u32)))
            .map(|&c| (c, fold(c)))
            .filter(|(c, f)| c != f)
            .collect();
        let mut phrases = FxHashMap::default();
        let mut starts = vec![false; dense.len()];
        let mut longest = 0;
        for (k, v) in pairs(TW_PHRASES_REV) {
            let key: Vec<char> = k.chars().map(fold).collect();
            let value: Vec<char> = v.chars().map(fold).collect();
            let han = |s: &[char]| {
                s.iter()
                    .all(|c| (DENSE_FIRST..=DENSE_LAST).contains(&(*c as u32)))
            };
            if key.len() < 2 || key.len() > MAX_PHRASE || !han(&key) || !han(&value) || key == value
            {
                continue;
            }
            starts[(key[0] as u32 - DENSE_FIRST) as usize] = true;
            longest = longest.max(key.len());
            phrases.entry(key).or_insert(value);
        }
        Folding {
            dense,
            other,
            phrases,
            starts,
            longest,
        }
    })
}

/// The one form of a (normalised) Chinese character: Simplified, standard form.
#[inline]
pub fn fold_char(c: char) -> char {
    let u = c as u32;
    let f = folding();
    if (DENSE_FIRST..=DENSE_LAST).contains(&u) {
        f.dense[(u - DENSE_FIRST) as usize]
    } else {
        f.other.get(&c).copied().unwrap_or(c)
    }
}

/// Whether a Taiwan phrase may begin with the folded character `c`.
#[inline]
pub(crate) fn may_start_phrase(c: char) -> bool {
    let u = c as u32;
    (DENSE_FIRST..=DENSE_LAST).contains(&u) && folding().starts[(u - DENSE_FIRST) as usize]
}

/// The longest Taiwan phrase at the start of `folded` (folded characters), as (its length, the Mainland
/// phrase it folds to).
pub(crate) fn phrase_at(folded: &[char]) -> Option<(usize, &'static [char])> {
    let f = folding();
    (2..=folded.len().min(f.longest))
        .rev()
        .find_map(|n| f.phrases.get(&folded[..n]).map(|v| (n, v.as_slice())))
}

/// Which script a text is written in, as far as its characters tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Script {
    /// Holds characters that only Traditional text uses (and none that only Simplified text uses).
    Traditional,
    /// Everything else: Simplified Chinese, or text whose characters are the same in both scripts.
    Simplified,
}

/// The script of `text`: Traditional when more of its Chinese characters change under folding than
/// there are characters that are Simplified forms of another character.
pub fn script_of(text: &str) -> Script {
    let f = folding();
    let (mut traditional, mut simplified) = (0usize, 0usize);
    for c in text.chars() {
        let u = c as u32;
        if !(DENSE_FIRST..=DENSE_LAST).contains(&u) {
            continue;
        }
        let folded = f.dense[(u - DENSE_FIRST) as usize];
        if folded != c {
            traditional += 1;
        } else if simplified_only(c) {
            simplified += 1;
        }
    }
    if traditional > simplified {
        Script::Traditional
    } else {
        Script::Simplified
    }
}

/// Whether `c` is the Simplified form of some other (Traditional) character.
fn simplified_only(c: char) -> bool {
    static SIMPLIFIED: OnceLock<rustc_hash::FxHashSet<char>> = OnceLock::new();
    SIMPLIFIED
        .get_or_init(|| {
            pairs(TS_CHARACTERS)
                .filter_map(|(k, v)| Some((single(k)?, single(v)?)))
                .filter(|(k, v)| k != v)
                .map(|(_, v)| v)
                .filter(|v| fold_char(*v) == *v)
                .collect()
        })
        .contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold(s: &str) -> String {
        s.chars().map(fold_char).collect()
    }

    #[test]
    fn characters_and_variant_forms_fold_to_simplified() {
        assert_eq!(
            fold("這是一個測試段落，用於檢查繁體與簡體。"),
            "这是一个测试段落，用于检查繁体与简体。"
        );
        assert_eq!(
            fold("这是一个测试段落"),
            "这是一个测试段落",
            "Simplified is left as it is"
        );
        // Taiwan and Hong Kong variant forms: 僞/偽, 啓/啟, 兌/兑 fold alike.
        assert_eq!(fold_char('偽'), fold_char('僞'));
        assert_eq!(fold_char('啟'), fold_char('啓'));
        assert_eq!(fold_char('兌'), fold_char('兑'));
        assert_eq!(fold_char('A'), 'A');
    }

    #[test]
    fn taiwan_phrases_fold_to_mainland_vocabulary() {
        let folded: Vec<char> = fold("記憶體").chars().collect();
        let (n, to) = phrase_at(&folded).expect("a phrase");
        assert_eq!(n, 3);
        assert_eq!(to.iter().collect::<String>(), "内存");
        for (tw, cn) in [("軟體", "软件"), ("檔案", "文件"), ("程式", "程序")] {
            let folded: Vec<char> = fold(tw).chars().collect();
            assert!(may_start_phrase(folded[0]), "{tw}");
            let (_, to) = phrase_at(&folded).expect(tw);
            assert_eq!(to.iter().collect::<String>(), cn);
        }
        assert!(phrase_at(&fold("软件").chars().collect::<Vec<_>>()).is_none());
    }

    #[test]
    fn scripts_are_told_apart() {
        assert_eq!(
            script_of("我的電腦記憶體不夠，軟體檔案很大。"),
            Script::Traditional
        );
        assert_eq!(
            script_of("我的电脑内存不够，软件文件很大。"),
            Script::Simplified
        );
        assert_eq!(script_of("Plain English."), Script::Simplified);
    }
}
