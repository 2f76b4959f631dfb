//! Comparison units: the sequence that shingles and span alignment work on. A Chinese (or other CJK)
//! character is one unit; a run of letters or digits in other scripts is one unit (an English word);
//! whitespace and punctuation separate units and are never units themselves. Each unit carries the
//! `[start, end)` range, in Unicode scalar values, of the paragraph text it was read from, so copied spans
//! are reported on the text exactly as stored.

use xxhash_rust::xxh3::xxh3_64;

use super::normalize::{is_cjk, is_cjk_punctuation, normalize_char};
use super::script::{char_hash, phrase_at, Folder};

/// One unit of a paragraph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unit {
    /// xxh3-64 (seed 0) of the unit's normalised UTF-8 text.
    pub hash: u64,
    /// First character of the unit in the paragraph (Unicode scalar values).
    pub start: u32,
    /// One past the last character.
    pub end: u32,
    /// Whether the unit is a CJK character (otherwise a word or number).
    pub cjk: bool,
    /// For a CJK unit, its character folded to one script (see [`super::script`]); `'\0'` for a word.
    pub ch: char,
}

/// Split a paragraph into units.
pub fn units(text: &str) -> Vec<Unit> {
    let mut out = Vec::new();
    units_into(text, &mut out, &mut UnitsOnly);
    out
}

/// What one pass over a paragraph reads: its units, its normalised text and its size.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ReadParagraph {
    pub units: Vec<Unit>,
    /// Exactly [`super::normalize`] of the paragraph.
    pub normalized: String,
    /// Exactly [`super::non_ws_chars`] of the paragraph.
    pub non_ws_chars: usize,
    /// Exactly [`super::Letters::of`] the normalised text.
    pub letters: super::Letters,
}

/// A paragraph's units, normalised text and non-white-space character count, from one pass over it.
pub fn units_and_normalized(text: &str) -> ReadParagraph {
    let mut read = ReadParagraph::default();
    read_into(text, &mut read);
    read
}

/// [`units_and_normalized`] into `read`, whose buffers are reused (what it held is replaced): a
/// thread that reads paragraph after paragraph writes into memory that is already in the cache.
pub fn read_into(text: &str, read: &mut ReadParagraph) {
    let ReadParagraph {
        units,
        normalized,
        non_ws_chars,
        letters,
    } = read;
    normalized.clear();
    normalized.reserve(text.len());
    *non_ws_chars = 0;
    *letters = super::Letters::default();
    units_into(
        text,
        units,
        &mut Reading {
            normalized,
            non_ws_chars,
            letters,
        },
    );
}

/// What [`units_into`] tells its caller besides the units, as it reads.
trait OnChars {
    /// A source character that is not a unified Han ideograph.
    fn source(&mut self, c: char);
    /// One of its normalised characters, in order.
    fn normalized(&mut self, n: char);
    /// A run of `chars` unified Han ideographs (U+4E00..U+9FFF): source and normalised text alike.
    fn han_run(&mut self, run: &str, chars: usize);
}

/// [`units`]: nothing but the units.
struct UnitsOnly;

impl OnChars for UnitsOnly {
    fn source(&mut self, _: char) {}
    fn normalized(&mut self, _: char) {}
    fn han_run(&mut self, _: &str, _: usize) {}
}

/// [`read_into`]: the normalised text, its letters and the source's size, as they are read.
struct Reading<'r> {
    normalized: &'r mut String,
    non_ws_chars: &'r mut usize,
    letters: &'r mut super::Letters,
}

impl OnChars for Reading<'_> {
    #[inline]
    fn source(&mut self, c: char) {
        *self.non_ws_chars += usize::from(!c.is_whitespace());
    }

    #[inline]
    fn normalized(&mut self, n: char) {
        self.normalized.push(n);
        self.letters.add(n);
    }

    #[inline]
    fn han_run(&mut self, run: &str, chars: usize) {
        self.normalized.push_str(run);
        *self.non_ws_chars += chars;
        self.letters.ideographs += chars;
    }
}

/// The unified Han ideograph (U+4E00..U+9FFF) whose UTF-8 begins `bytes`, if one does: three bytes,
/// `E4 B8..BF`, then `E5`..`E9`.
#[inline]
fn han_at(bytes: &[u8]) -> Option<char> {
    let &[b0, b1, b2, ..] = bytes else {
        return None;
    };
    if !(0xE4..=0xE9).contains(&b0) || (b0 == 0xE4 && b1 < 0xB8) {
        return None;
    }
    // `bytes` is valid UTF-8, so the continuation bytes are there and well formed.
    char::from_u32(
        (u32::from(b0) & 0x0F) << 12 | (u32::from(b1) & 0x3F) << 6 | (u32::from(b2) & 0x3F),
    )
}

/// Units of `text` into `out` (emptied first), telling `on` what is read (see [`OnChars`]).
#[inline(always)]
fn units_into(text: &str, out: &mut Vec<Unit>, on: &mut impl OnChars) {
    out.clear();
    out.reserve(text.len() / 2);
    let folder = Folder::get();
    // Whether a phrase may start here, and the paragraph's script marks (Traditional, Simplified).
    let mut marks = Marks::default();
    let mut word = String::new();
    let mut word_start = 0u32;
    let mut word_end = 0u32;
    let bytes = text.as_bytes();
    let mut at = 0;
    // Characters before `at`.
    let mut i = 0u32;
    while at < bytes.len() {
        // Unified Han ideographs, the common case, are their own normalised form and a unit each: a
        // run of them is read without decoding it as characters one by one.
        if let Some(c) = han_at(&bytes[at..]) {
            flush(out, &mut word, word_start, word_end);
            let run_start = at;
            let run_first = i;
            out.push(cjk_unit(folder, c, i, &mut marks));
            at += 3;
            i += 1;
            while let Some(c) = han_at(&bytes[at..]) {
                out.push(cjk_unit(folder, c, i, &mut marks));
                at += 3;
                i += 1;
            }
            on.han_run(&text[run_start..at], (i - run_first) as usize);
            continue;
        }
        let Some(c) = text[at..].chars().next() else {
            break;
        };
        at += c.len_utf8();
        on.source(c);
        normalize_char(c, |n| {
            on.normalized(n);
            if is_cjk(n) {
                flush(out, &mut word, word_start, word_end);
                out.push(cjk_unit(folder, n, i, &mut marks));
            } else if n.is_ascii_alphanumeric()
                || (!n.is_ascii() && !is_cjk_punctuation(n) && n.is_alphanumeric())
            {
                if word.is_empty() {
                    word_start = i;
                }
                word.push(n);
                word_end = i + 1;
            } else {
                flush(out, &mut word, word_start, word_end);
            }
        });
        i += 1;
    }
    flush(out, &mut word, word_start, word_end);
    if marks.phrase && marks.traditional > marks.simplified {
        *out = fold_phrases(folder, std::mem::take(out));
    }
}

/// The unit of a (normalised) CJK character at character `i`: the character folded to one script.
/// What the units of a paragraph say about Taiwan phrases and the paragraph's script.
#[derive(Default)]
struct Marks {
    phrase: bool,
    traditional: u32,
    simplified: u32,
}

#[inline]
fn cjk_unit(folder: Folder, c: char, i: u32, marks: &mut Marks) -> Unit {
    let (m, hash) = folder.fold_marked_hashed(c);
    let f = m.folded;
    marks.phrase |= m.starts;
    marks.traditional += u32::from(m.traditional);
    marks.simplified += u32::from(m.simplified);
    Unit {
        hash,
        start: i,
        end: i + 1,
        cjk: true,
        ch: f,
    }
}

/// In a Traditional paragraph, Taiwan words replaced by the units of their Mainland form (see
/// [`super::script`]), which together cover the original characters (記憶體 → 内 over 記憶, 存 over
/// 憶體), so spans still point into the text as written. Units without a phrase are returned as they
/// are, without a copy.
fn fold_phrases(folder: Folder, units: Vec<Unit>) -> Vec<Unit> {
    // Built only once a phrase is found; `done` units of `units` are in it.
    let mut out: Option<Vec<Unit>> = None;
    let mut done = 0;
    let mut run = ['\0'; 16];
    let mut i = 0;
    while i + 1 < units.len() {
        let (a, b) = (units[i], units[i + 1]);
        if !(a.cjk && b.cjk && b.start == a.end && folder.opens(a.ch, b.ch)) {
            i += 1;
            continue;
        }
        // The run of adjacent CJK units from here.
        let mut n = 0;
        while n < run.len()
            && i + n < units.len()
            && units[i + n].cjk
            && (n == 0 || units[i + n].start == units[i + n - 1].end)
        {
            run[n] = units[i + n].ch;
            n += 1;
        }
        let Some((n, to)) = phrase_at(&run[..n]) else {
            i += 1;
            continue;
        };
        let out = out.get_or_insert_with(|| Vec::with_capacity(units.len()));
        out.extend_from_slice(&units[done..i]);
        let from = &units[i..i + n];
        let m = to.len();
        for (k, &c) in to.iter().enumerate() {
            let first = from[(k * n / m).min(n - 1)];
            let last = from[((k + 1) * n).div_ceil(m).clamp(1, n) - 1];
            out.push(Unit {
                hash: char_hash(c),
                start: first.start,
                end: last.end.max(first.end),
                cjk: true,
                ch: c,
            });
        }
        i += n;
        done = i;
    }
    match out {
        None => units,
        Some(mut out) => {
            out.extend_from_slice(&units[done..]);
            out
        }
    }
}

#[inline]
fn flush(out: &mut Vec<Unit>, word: &mut String, start: u32, end: u32) {
    if !word.is_empty() {
        out.push(Unit {
            hash: xxh3_64(word.as_bytes()),
            start,
            end,
            cjk: false,
            ch: '\0',
        });
        word.clear();
    }
}

/// Whether a sequence of units is mostly CJK characters.
pub fn mostly_cjk(units: &[Unit]) -> bool {
    let cjk = units.iter().filter(|u| u.cjk).count();
    cjk * 2 > units.len()
}

#[cfg(test)]
mod tests {
    use super::super::script::fold_char;
    use super::*;

    #[test]
    fn chinese_characters_and_english_words_are_units_with_offsets() {
        let u = units("用 Debian 打包，ｏｋ!");
        let ranges: Vec<(u32, u32, bool)> = u.iter().map(|u| (u.start, u.end, u.cjk)).collect();
        assert_eq!(
            ranges,
            vec![
                (0, 1, true),
                (2, 8, false),
                (9, 10, true),
                (10, 11, true),
                (12, 14, false)
            ]
        );
        assert_eq!(u[1].hash, xxh3_64(b"debian"));
        assert_eq!(u[4].hash, xxh3_64(b"ok"), "full-width letters normalise");
    }

    #[test]
    fn one_pass_gives_the_same_units_normalised_text_and_size() {
        for text in [
            "",
            "用 Debian 打包，ｏｋ!",
            "ﬁle ㎏ Ⅻ 〇々〆 “引号”…… ＡＢＣ１２３ Ǆ İstanbul ß 한국어 カタカナ 𠀀",
            "\u{3000}\u{3000}第一行 第二行\t",
            "㐀 豈 English and 中文 mixed",
            // The Han block's edges and its UTF-8 neighbours: ䷿ (U+4DFF, E4 B7 BF) is a hexagram,
            // 一 (U+4E00) and 鿿 (U+9FFF) are ideographs, ꀀ (U+A000) is Yi.
            "䷿一鿿ꀀ一a鿿，䷿",
            "abc一二三def四五",
        ] {
            let read = units_and_normalized(text);
            assert_eq!(read.units, units(text), "{text:?}");
            // Each CJK unit is the character it points at, folded.
            let chars: Vec<char> = text.chars().collect();
            for u in read.units.iter().filter(|u| u.cjk) {
                assert_eq!(u.end, u.start + 1, "{text:?}");
                let mut normalised = String::new();
                normalize_char(chars[u.start as usize], |n| normalised.push(n));
                assert_eq!(
                    Some(u.ch),
                    normalised.chars().next().map(fold_char),
                    "{text:?}"
                );
                assert_eq!(u.hash, char_hash(u.ch), "{text:?}");
            }
            assert_eq!(read.normalized, super::super::normalize(text), "{text:?}");
            assert_eq!(
                read.letters,
                super::super::Letters::of(&read.normalized),
                "{text:?}"
            );
            assert_eq!(
                read.non_ws_chars,
                super::super::non_ws_chars(text),
                "{text:?}"
            );
        }
        // The pass's own count: every character, alone and between others, against `char::is_whitespace`.
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let expected = usize::from(!c.is_whitespace());
            let alone = units_and_normalized(&format!("{c}")).non_ws_chars;
            assert_eq!(alone, expected, "U+{:04X}", c as u32);
            let between = units_and_normalized(&format!("x{c}软")).non_ws_chars;
            assert_eq!(between, expected + 2, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn punctuation_and_spacing_changes_do_not_change_units() {
        let a: Vec<u64> = units("Hello, world. 你好！")
            .iter()
            .map(|u| u.hash)
            .collect();
        let b: Vec<u64> = units("hello   world 你好").iter().map(|u| u.hash).collect();
        assert_eq!(a, b);
    }
}
