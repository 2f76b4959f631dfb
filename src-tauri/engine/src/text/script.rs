//! Traditional and Simplified Chinese folded to one form for comparison, so that a copy converted from
//! one script to the other (OpenCC `s2t`, `s2tw`, `s2hk`, `s2twp`, and back) reads as the same text.
//!
//! The data are OpenCC's dictionaries (`assets/opencc/`, Apache-2.0), embedded in the binary:
//!
//! * characters: a Taiwan or Hong Kong variant form is first taken to its standard Traditional form
//!   (`TWVariants`, `HKVariants`, read backwards), then a Traditional character to its Simplified form
//!   (`TSCharacters`, the first candidate). A character without an entry is its own fold, so Simplified
//!   text is almost always unchanged; where a Simplified text uses a character that also has an entry
//!   (著, 乾), both texts fold it the same way.
//! * phrases: in a Traditional paragraph only (more Traditional-only characters than Simplified-only
//!   ones), Taiwan and Hong Kong vocabulary is folded to Mainland vocabulary (`TWPhrasesRev`,
//!   `HKPhrasesRev`: 軟體 → 软件, 記憶體 →
//!   内存, 檔案 → 文件, 程式 → 程序), both sides of the table folded by character first. A Simplified
//!   paragraph is never changed by phrases, so comparisons between Simplified texts are exactly what
//!   they were. The longest phrase wins (entries that map to themselves, such as 程序正義, keep a longer
//!   word from being cut), over contiguous Chinese characters only. The table folds a few words both
//!   regions use (執行 → 运行): such a word in a Taiwan text then differs from the Mainland text by
//!   that word, a gap the alignment bridges.
//!
//! Only the comparison units (shingles and span alignment) are folded: paragraphs are stored and shown as
//! written, spans point into the original texts, and the seed SimHash keeps its definition.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::xxh3_64;

const TS_CHARACTERS: &str = include_str!("../../../../assets/opencc/TSCharacters.txt");
const TW_VARIANTS: &str = include_str!("../../../../assets/opencc/TWVariants.txt");
const HK_VARIANTS: &str = include_str!("../../../../assets/opencc/HKVariants.txt");
const TW_PHRASES_REV: &str = include_str!("../../../../assets/opencc/TWPhrasesRev.txt");
const HK_PHRASES_REV: &str = include_str!("../../../../assets/opencc/HKPhrasesRev.txt");

/// The block of Han characters looked up in a dense table (the CJK Unified Ideographs and Extension A);
/// others go through a map.
const DENSE_FIRST: u32 = 0x3400;
const DENSE_LAST: u32 = 0x9FFF;

/// Phrases are at most this many characters (TWPhrasesRev's longest is shorter).
const MAX_PHRASE: usize = 16;

/// In an entry of [`Folding::dense`], the bits of the fold and its two marks.
const FOLD: u32 = 0x1F_FFFF;
/// A phrase of the table may begin with the fold.
const STARTS: u32 = 1 << 21;
/// The character is its own fold and the Simplified form of another character.
const SIMPLIFIED: u32 = 1 << 22;

struct Folding {
    /// `dense[c - DENSE_FIRST]`: the fold of `c` (bits [`FOLD`]), and whether a phrase may begin with
    /// it ([`STARTS`]) and `c` is a Simplified form ([`SIMPLIFIED`]): what [`Folder::fold_marked`] reads
    /// of a character, in one load instead of three (one from each of three tables).
    dense: Vec<u32>,
    /// `hashes[c - DENSE_FIRST]`: the unit hash of the fold of `c` ([`char_hash`]).
    hashes: Vec<u64>,
    other: FxHashMap<char, char>,
    /// Folded Taiwan phrase → folded Mainland phrase.
    phrases: FxHashMap<Vec<char>, Vec<char>>,
    /// `starts[c - DENSE_FIRST]`: whether a phrase begins with the folded character `c`.
    starts: Vec<bool>,
    /// The first two (folded) characters of every phrase.
    openings: rustc_hash::FxHashSet<(char, char)>,
    longest: usize,
}

/// `key<TAB>candidate candidate…` lines (`#` starts a comment line): each key with its first candidate.
fn pairs(table: &'static str) -> impl Iterator<Item = (&'static str, &'static str)> {
    entries(table).filter_map(|(key, mut values)| Some((key, values.next()?)))
}

/// Every key with all its candidates.
fn entries(
    table: &'static str,
) -> impl Iterator<Item = (&'static str, impl Iterator<Item = &'static str>)> {
    table
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|line| {
            let (key, values) = line.split_once('\t')?;
            (!key.is_empty()).then(|| (key, values.split(' ').filter(|v| !v.is_empty())))
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
        // `TWVariants`/`HKVariants` map a standard character to its regional forms: read backwards.
        for table in [TW_VARIANTS, HK_VARIANTS] {
            for (standard, forms) in entries(table) {
                let Some(standard) = single(standard) else {
                    continue;
                };
                for form in forms.filter_map(single) {
                    if form != standard {
                        variants.entry(form).or_insert(standard);
                    }
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
        let folds: Vec<char> = (DENSE_FIRST..=DENSE_LAST)
            .map(|u| char::from_u32(u).map_or('\u{FFFD}', fold))
            .collect();
        let other: FxHashMap<char, char> = variants
            .keys()
            .chain(ts.keys())
            .filter(|c| !(DENSE_FIRST..=DENSE_LAST).contains(&(**c as u32)))
            .map(|&c| (c, fold(c)))
            .filter(|(c, f)| c != f)
            .collect();
        let mut simplified = vec![false; folds.len()];
        for (k, v) in pairs(TS_CHARACTERS) {
            if let (Some(k), Some(v)) = (single(k), single(v)) {
                let u = v as u32;
                if k != v && (DENSE_FIRST..=DENSE_LAST).contains(&u) && fold(v) == v {
                    simplified[(u - DENSE_FIRST) as usize] = true;
                }
            }
        }
        let mut phrases = FxHashMap::default();
        let mut starts = vec![false; folds.len()];
        let mut longest = 0;
        let mut openings = rustc_hash::FxHashSet::default();
        for (k, v) in pairs(TW_PHRASES_REV).chain(pairs(HK_PHRASES_REV)) {
            let key: Vec<char> = k.chars().map(fold).collect();
            let value: Vec<char> = v.chars().map(fold).collect();
            let han = |s: &[char]| {
                s.iter()
                    .all(|c| (DENSE_FIRST..=DENSE_LAST).contains(&(*c as u32)))
            };
            if key.len() < 2 || key.len() > MAX_PHRASE || !han(&key) || !han(&value) {
                continue;
            }
            starts[(key[0] as u32 - DENSE_FIRST) as usize] = true;
            longest = longest.max(key.len());
            openings.insert((key[0], key[1]));
            phrases.entry(key).or_insert(value);
        }
        let in_dense = |c: char| (DENSE_FIRST..=DENSE_LAST).contains(&(c as u32));
        let dense = folds
            .iter()
            .zip(&simplified)
            .map(|(&f, &simplified)| {
                let starts = in_dense(f) && starts[(f as u32 - DENSE_FIRST) as usize];
                f as u32 | if starts { STARTS } else { 0 } | if simplified { SIMPLIFIED } else { 0 }
            })
            .collect();
        let hashes = folds.iter().map(|&f| char_hash(f)).collect();
        Folding {
            dense,
            hashes,
            other,
            phrases,
            starts,
            openings,
            longest,
        }
    })
}

/// The one form of a (normalised) Chinese character: Simplified, standard form.
#[inline]
pub fn fold_char(c: char) -> char {
    Folder::get().fold(c).0
}

/// Whether a phrase of the table may begin with the folded character `c`.
#[cfg(test)]
fn may_start_phrase(c: char) -> bool {
    Folder::get().starts(c)
}

/// The hash of a CJK unit's (folded) character (`units::Unit::hash`): xxh3-64 (seed 0) of its UTF-8.
#[inline]
pub(crate) fn char_hash(c: char) -> u64 {
    let mut buf = [0u8; 4];
    xxh3_64(c.encode_utf8(&mut buf).as_bytes())
}

/// A character's fold and marks (see [`Folder::fold_marked`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Marked {
    pub(crate) folded: char,
    /// A phrase of the table may begin with `folded`.
    pub(crate) starts: bool,
    pub(crate) traditional: bool,
    pub(crate) simplified: bool,
}

/// The folding tables, fetched once per paragraph rather than once per character.
#[derive(Clone, Copy)]
pub(crate) struct Folder(&'static Folding);

impl Folder {
    #[inline]
    pub(crate) fn get() -> Folder {
        Folder(folding())
    }

    /// The fold of `c`, and whether a phrase of the table may begin with that fold.
    #[inline]
    pub(crate) fn fold(self, c: char) -> (char, bool) {
        let u = c as u32;
        if (DENSE_FIRST..=DENSE_LAST).contains(&u) {
            let (f, starts, _) = self.dense(c);
            (f, starts)
        } else {
            let f = self.0.other.get(&c).copied().unwrap_or(c);
            (f, self.starts(f))
        }
    }

    /// A character of the dense block: its fold, whether a phrase may begin with the fold, and whether
    /// it is a Simplified form.
    #[inline]
    fn dense(self, c: char) -> (char, bool, bool) {
        let e = self.0.dense[(c as u32 - DENSE_FIRST) as usize];
        (
            char::from_u32(e & FOLD).unwrap_or(c),
            e & STARTS != 0,
            e & SIMPLIFIED != 0,
        )
    }

    /// [`Self::fold`] of `c`, and whether `c` (as written) is a Traditional character (its fold differs)
    /// or the Simplified form of another character: the two counts that tell a paragraph's script (see
    /// [`script_of`]). One load for a character of the dense block.
    #[inline]
    pub(crate) fn fold_marked(self, c: char) -> Marked {
        let (folded, starts, simplified) = if (DENSE_FIRST..=DENSE_LAST).contains(&(c as u32)) {
            self.dense(c)
        } else {
            let (f, starts) = self.fold(c);
            (f, starts, false)
        };
        Marked {
            folded,
            starts,
            traditional: folded != c,
            simplified: folded == c && simplified,
        }
    }

    /// [`Self::fold_marked`] of `c` with the unit hash of its fold ([`char_hash`]), which
    /// a character of the dense block has precomputed.
    #[inline]
    pub(crate) fn fold_marked_hashed(self, c: char) -> (Marked, u64) {
        let u = c as u32;
        let m = self.fold_marked(c);
        let hash = if (DENSE_FIRST..=DENSE_LAST).contains(&u) {
            self.0.hashes[(u - DENSE_FIRST) as usize]
        } else {
            char_hash(m.folded)
        };
        (m, hash)
    }

    /// Whether a phrase of the table begins with the folded characters `a`, `b`.
    #[inline]
    pub(crate) fn opens(self, a: char, b: char) -> bool {
        self.starts(a) && self.0.openings.contains(&(a, b))
    }

    /// Whether a phrase of the table may begin with the folded character `f`.
    #[inline]
    pub(crate) fn starts(self, f: char) -> bool {
        let u = f as u32;
        (DENSE_FIRST..=DENSE_LAST).contains(&u) && self.0.starts[(u - DENSE_FIRST) as usize]
    }
}

/// The longest Taiwan phrase of the table at the start of `folded` (folded characters), as (its length,
/// the folded Mainland phrase it becomes).
pub(crate) fn phrase_at(folded: &[char]) -> Option<(usize, &'static [char])> {
    let f = folding();
    (2..=folded.len().min(f.longest))
        .rev()
        .find_map(|n| f.phrases.get(&folded[..n]).map(|v| (n, v.as_slice())))
}

/// Which script a text is written in, as far as its characters tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
        let marked = Folder(f).fold_marked(c);
        traditional += usize::from(marked.traditional);
        simplified += usize::from(marked.simplified);
    }
    if traditional > simplified {
        Script::Traditional
    } else {
        Script::Simplified
    }
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
    fn one_load_gives_the_fold_and_both_script_marks() {
        // Against the definitions: Traditional where the fold differs, Simplified where the character
        // is its own fold and the Simplified form of another character in OpenCC's table.
        let folder = Folder::get();
        let simplified_forms: rustc_hash::FxHashSet<char> = pairs(TS_CHARACTERS)
            .filter_map(|(k, v)| {
                let (k, v) = (single(k)?, single(v)?);
                let dense = (DENSE_FIRST..=DENSE_LAST).contains(&(v as u32));
                (k != v && dense && fold_char(v) == v).then_some(v)
            })
            .collect();
        let (mut traditional, mut simplified, mut starts) = (0, 0, 0);
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let m = folder.fold_marked(c);
            assert_eq!((m.folded, m.starts), folder.fold(c), "{c}");
            assert_eq!(m.starts, folder.starts(m.folded), "{c}");
            assert_eq!(m.traditional, m.folded != c, "{c}");
            assert_eq!(m.simplified, simplified_forms.contains(&c), "{c}");
            traditional += usize::from(m.traditional);
            simplified += usize::from(m.simplified);
            starts += usize::from(m.starts);
        }
        assert!(
            traditional > 3000 && simplified > 2500 && starts > 500,
            "{traditional} {simplified} {starts}"
        );
        assert_eq!(fold_char('體'), '体');
        assert!(folder.fold_marked('体').simplified && folder.fold_marked('體').traditional);
    }

    #[test]
    fn taiwan_vocabulary_folds_to_mainland_vocabulary() {
        for (tw, cn) in [
            ("軟體", "软件"),
            ("記憶體", "内存"),
            ("檔案", "文件"),
            ("程式", "程序"),
        ] {
            let folded: Vec<char> = fold(tw).chars().collect();
            assert!(may_start_phrase(folded[0]), "{tw}");
            let (n, to) = phrase_at(&folded).expect(tw);
            assert_eq!(n, folded.len());
            assert_eq!(to.iter().collect::<String>(), cn);
        }
        // An entry that maps to itself keeps the longer word whole.
        let folded: Vec<char> = fold("程序正義").chars().collect();
        assert_eq!(phrase_at(&folded).map(|(n, _)| n), Some(4));
    }

    #[test]
    fn units_of_a_converted_paragraph_are_the_units_of_its_original() {
        let chars = |t: &str| -> String {
            crate::text::units(t)
                .iter()
                .map(|u| if u.cjk { u.ch } else { '_' })
                .collect()
        };
        let hashes =
            |t: &str| -> Vec<u64> { crate::text::units(t).iter().map(|u| u.hash).collect() };
        let cn = "我的电脑内存不够，软件文件很大，程序无法启动。Debian 系统";
        let tw = "我的電腦記憶體不夠，軟體檔案很大，程式無法啟動。Debian 系統";
        assert_eq!(chars(tw), chars(cn));
        assert_eq!(hashes(tw), hashes(cn));
        // Spans stay on the Taiwan text: 記憶體 (characters 4..7) gives two units over it.
        let units = crate::text::units(tw);
        let ranges: Vec<(u32, u32)> = units[4..6].iter().map(|u| (u.start, u.end)).collect();
        assert_eq!(ranges, [(4, 6), (5, 7)]);
        assert_eq!(units.last().map(|u| u.end), Some(tw.chars().count() as u32));
        // A Simplified paragraph is never changed by phrases: 文件 and 程序 stay.
        assert_eq!(chars("文件程序"), "文件程序");
    }

    #[test]
    fn a_paragraph_mixing_scripts_compares_as_its_simplified_form() {
        let units =
            |t: &str| -> Vec<u64> { crate::text::units(t).iter().map(|u| u.hash).collect() };
        // Half converted (a student who converted one sentence), and variant forms of Hong Kong text.
        let mixed = "這是第一句話，用於測試。这是第二句话，没有转换。";
        let simplified = "这是第一句话，用于测试。这是第二句话，没有转换。";
        assert_eq!(units(mixed), units(simplified));
        assert_eq!(units("兌換僞鈔"), units("兑换伪钞"));
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
