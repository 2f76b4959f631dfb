//! Text processing of paragraphs as read (by `extract`): normalisation, the word tokens the paragraph
//! SimHash is built from, the character/word units that shingles and span alignment work on, and the
//! word table (every word's IDF weight and concepts, built when Tongwen is compiled).

pub mod normalize;
pub mod script;
pub mod tokens;
pub mod units;
pub mod words;

pub use normalize::{non_ws_chars, normalize};
pub use tokens::Tokenizer;
pub use units::{units, units_and_normalized, ReadParagraph, Unit};
pub use words::WordTable;

/// Whether `c` is a Han ideograph (the unified block, extension A and the compatibility block).
#[inline]
pub fn is_ideograph(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

/// `char::is_alphabetic`, answered without its table for the punctuation of Chinese text: ASCII,
/// general punctuation (U+2000..U+206F, none alphabetic) and CJK symbols and punctuation
/// (U+3000..U+303F, by [`CJK_SYMBOLS_ALPHABETIC`]). A test checks every character of those blocks.
#[inline]
fn is_letter(c: char) -> bool {
    match c as u32 {
        0..=0x7F => c.is_ascii_alphabetic(),
        0x2000..=0x206F => false,
        u @ 0x3000..=0x303F => CJK_SYMBOLS_ALPHABETIC >> (u - 0x3000) & 1 != 0,
        _ => c.is_alphabetic(),
    }
}

/// Bit `k`: U+3000 + `k` is alphabetic (々, 〆, 〇, the Hangzhou numerals, the kana repeat marks…).
const CJK_SYMBOLS_ALPHABETIC: u64 = 0x1F3E_03FE_0000_00E0;

/// A text's ideographs and other letters, counted to tell its language (see
/// `crosslang::language_of`): counted while the text is read for something else, it costs no pass of
/// its own.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Letters {
    pub ideographs: usize,
    pub others: usize,
}

impl Letters {
    /// Count one (normalised) character.
    #[inline]
    pub fn add(&mut self, c: char) {
        if is_ideograph(c) {
            self.ideographs += 1;
        } else if is_letter(c) {
            self.others += 1;
        }
    }

    /// The letters of a whole text.
    pub fn of(text: &str) -> Letters {
        let mut letters = Letters::default();
        text.chars().for_each(|c| letters.add(c));
        letters
    }

    /// Whether the text is Chinese: at least a fifth of its letters are ideographs.
    pub fn mostly_chinese(self) -> bool {
        self.ideographs * 5 >= (self.ideographs + self.others).max(1)
    }
}

#[cfg(target_endian = "big")]
compile_error!("the embedded word table is read in place as little-endian words");

/// A blob `build.rs` wrote, aligned for reading as `u64`s.
#[repr(C, align(8))]
pub(crate) struct Aligned<B: ?Sized>(pub(crate) B);

static WORD_TABLE: &Aligned<[u8]> =
    &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/words.bin")));

/// The embedded word table (see [`words`]): read in place, nothing parsed.
pub fn word_table() -> &'static WordTable {
    static TABLE: std::sync::OnceLock<WordTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        // OK because the blob is written by build.rs from the embedded assets and checked by the
        // tests: a failure here is a build defect, not something a user's input can cause.
        let words: &'static [u64] = bytemuck::try_cast_slice(&WORD_TABLE.0)
            .expect("the embedded word table is aligned u64 words");
        WordTable::new(std::borrow::Cow::Borrowed(words))
            .expect("the embedded word table has its magic, format and sizes")
    })
}

/// The id table of jieba's default dictionary (see [`words::build_ids`]), written by `build.rs` with
/// the `prebuilt-dictionary` feature (whose dictionary gives the same ids).
#[cfg(feature = "prebuilt-dictionary")]
static WORD_IDS: &Aligned<[u8]> =
    &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/word-ids.bin")));

static IDS: std::sync::OnceLock<&'static [u64]> = std::sync::OnceLock::new();

/// The id table of jieba's default dictionary (see [`words::build_ids`]): each word's packed entry in
/// the word table, by its id. Embedded with the `prebuilt-dictionary` feature (2.8 MB, read in place);
/// without it (the desktop app, which loads the dictionary as its window opens), built by the first call
/// (tens of milliseconds): adding documents to a library asks for it, a check does not (see
/// [`word_ids_if_ready`]).
pub fn word_ids() -> &'static [u64] {
    IDS.get_or_init(|| {
        #[cfg(feature = "prebuilt-dictionary")]
        {
            // OK because the blob is written by build.rs and checked by the tests: a failure here is
            // a build defect, not something a user's input can cause.
            let words: &'static [u64] = bytemuck::try_cast_slice(&WORD_IDS.0)
                .expect("the embedded id table is aligned u64 words");
            words::ids_of(words).expect("the embedded id table has its magic and size")
        }
        #[cfg(not(feature = "prebuilt-dictionary"))]
        {
            let ids: &'static [u64] = Vec::leak(build_word_ids());
            words::ids_of(ids).expect("an id table just built has its magic and size")
        }
    })
}

/// The id table when it costs nothing to have: embedded, or built already by [`word_ids`]; else empty
/// (words are then looked up by their hash, with the same answers).
pub fn word_ids_if_ready() -> &'static [u64] {
    if cfg!(feature = "prebuilt-dictionary") {
        word_ids()
    } else {
        IDS.get().copied().unwrap_or(&[])
    }
}

/// The id table of jieba's default dictionary, built from it and the word table (what `build.rs`
/// embeds with the `prebuilt-dictionary` feature), header included.
pub fn build_word_ids() -> Vec<u64> {
    words::build_ids(word_table(), jieba_rs::Jieba::default_dict_words())
}

/// Convert a `[start, end)` range in Unicode scalar values to UTF-16 code units.
pub fn utf16_range(text: &str, range: [usize; 2]) -> [usize; 2] {
    let mut out = [0, 0];
    let mut units = 0;
    for (i, c) in text.chars().enumerate() {
        if i == range[0] {
            out[0] = units;
        }
        if i == range[1] {
            out[1] = units;
            return out;
        }
        units += c.len_utf16();
    }
    if range[0] >= text.chars().count() {
        out[0] = units;
    }
    out[1] = units;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_of_the_punctuation_blocks_are_alphabetic_ones() {
        for u in (0..0x80).chain(0x2000..0x2070).chain(0x3000..0x3040) {
            let c = char::from_u32(u).unwrap();
            assert_eq!(is_letter(c), c.is_alphabetic(), "U+{u:04X}");
        }
        assert!(is_letter('〇') && !is_letter('。') && is_letter('é') && !is_letter('—'));
    }

    #[test]
    fn utf16_ranges_count_astral_characters_twice() {
        // 𠀀 (U+20000) is one scalar value and two UTF-16 code units.
        assert_eq!(utf16_range("a𠀀bc", [1, 3]), [1, 4]);
        assert_eq!(utf16_range("a𠀀bc", [2, 4]), [3, 5]);
        assert_eq!(utf16_range("抄袭", [0, 2]), [0, 2]);
    }
}
