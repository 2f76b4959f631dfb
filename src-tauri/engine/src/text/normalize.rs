//! Character normalisation shared by tokens and units: NFKC (full-width letters, digits and punctuation
//! become their half-width forms, compatibility ideographs their unified forms) followed by lower-casing.
//! Each source character is normalised on its own so that every normalised character can be traced back
//! to the character of the paragraph it came from; offsets never drift.

use std::sync::OnceLock;

use unicode_normalization::UnicodeNormalization;

/// Whether `c` is written without spaces between words: Han ideographs, kana, Hangul syllables.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3400..=0x4DBF // CJK Extension A
        | 0x4E00..=0x9FFF // CJK Unified Ideographs
        | 0xAC00..=0xD7AF // Hangul syllables
        | 0xF900..=0xFAFF // CJK Compatibility Ideographs
        | 0x20000..=0x3FFFF // Extensions B and later
    )
}

/// Whether `c` is in a block of punctuation that has no letters or digits (general punctuation and most
/// CJK symbols and punctuation: quotes, dashes, ellipses, full stops, brackets). Lets the letter tests
/// skip Unicode's tables for the punctuation of Chinese text; a test checks every character it covers.
#[inline]
pub fn is_cjk_punctuation(c: char) -> bool {
    matches!(c as u32, 0x2000..=0x206F | 0x3000..=0x3004 | 0x3008..=0x3020)
}

/// Normalise one character: NFKC, then lower case. Calls `emit` for each resulting character (usually
/// one; a ligature or a compatibility character such as `㎏` gives several).
#[inline]
pub fn normalize_char(c: char, mut emit: impl FnMut(char)) {
    if c.is_ascii() {
        emit(c.to_ascii_lowercase());
        return;
    }
    // Fast paths, identical to the general rule (a test checks every character they cover): unified Han
    // ideographs are their own NFKC form and have no case; full-width ASCII (U+FF01..U+FF5E) is
    // NFKC-equivalent to the ASCII character 0xFEE0 below it; punctuation and kana come from a table.
    match c as u32 {
        0x4E00..=0x9FFF | 0x3400..=0x4DBF => return emit(c),
        u @ 0xFF01..=0xFF5E => {
            if let Some(a) = char::from_u32(u - 0xFEE0) {
                return emit(a.to_ascii_lowercase());
            }
        }
        u @ TABLE_FIRST..=TABLE_LAST => {
            if let Some(n) = char::from_u32(punctuation_table()[(u - TABLE_FIRST) as usize]) {
                return emit(n);
            }
        }
        _ => {}
    }
    slow_normalize_char(c, emit)
}

/// The block of characters whose normal forms are looked up in a table: general punctuation, letterlike
/// symbols, CJK symbols and punctuation, kana — the quotes, dashes, ellipses and full stops of Chinese text.
const TABLE_FIRST: u32 = 0x2000;
const TABLE_LAST: u32 = 0x30FF;

/// For each character of the table's block, its normal form when that is one character, else a value
/// that is no character (the general rule is then applied). Built once from the general rule.
fn punctuation_table() -> &'static [u32] {
    static TABLE: OnceLock<Vec<u32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (TABLE_FIRST..=TABLE_LAST)
            .map(|u| {
                let mut out = Vec::new();
                if let Some(c) = char::from_u32(u) {
                    slow_normalize_char(c, |n| out.push(n));
                }
                match out[..] {
                    [n] => n as u32,
                    _ => u32::MAX,
                }
            })
            .collect()
    })
}

/// The general rule: NFKC of the single character, then lower case.
fn slow_normalize_char(c: char, mut emit: impl FnMut(char)) {
    for n in std::iter::once(c).nfkc() {
        for l in n.to_lowercase() {
            emit(l);
        }
    }
}

/// Normalise a whole string (NFKC per character, lower case).
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        normalize_char(c, |n| out.push(n));
    }
    out
}

/// Number of characters of `text` that are not whitespace: the unit of every ratio in reports.
pub fn non_ws_chars(text: &str) -> usize {
    text.chars().filter(|c| !c.is_whitespace()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_width_becomes_half_width_and_lower_case() {
        assert_eq!(normalize("ＳＥＲＶＥＲ，ｔｅｘｔ１２３"), "server,text123");
        assert_eq!(normalize("Debian 软件包"), "debian 软件包");
    }

    #[test]
    fn fast_paths_agree_with_nfkc_and_lower_case() {
        let ranges = [
            0x3400..=0x4DBF,
            0x4E00..=0x9FFF,
            0xFF01..=0xFF5E,
            TABLE_FIRST..=TABLE_LAST,
        ];
        for c in ranges.into_iter().flatten().filter_map(char::from_u32) {
            let (mut fast, mut slow) = (String::new(), String::new());
            normalize_char(c, |n| fast.push(n));
            slow_normalize_char(c, |n| slow.push(n));
            assert_eq!(fast, slow, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn cjk_punctuation_has_no_letters_or_digits() {
        let ranges = [0x2000..=0x206F, 0x3000..=0x3004, 0x3008..=0x3020];
        for c in ranges.into_iter().flatten().filter_map(char::from_u32) {
            assert!(is_cjk_punctuation(c));
            assert!(
                !c.is_alphanumeric() && !c.is_alphabetic(),
                "U+{:04X}",
                c as u32
            );
        }
        assert!(!is_cjk_punctuation('〇') && !is_cjk_punctuation('a') && !is_cjk_punctuation('软'));
    }

    #[test]
    fn cjk_detection() {
        assert!(is_cjk('软'));
        assert!(is_cjk('の'));
        assert!(!is_cjk('a'));
        assert!(!is_cjk('，'));
    }

    #[test]
    fn non_whitespace_count_ignores_all_spaces() {
        assert_eq!(non_ws_chars("a b\u{3000}c\n"), 3);
    }
}
