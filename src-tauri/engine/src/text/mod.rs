//! Text processing: cleaning paragraphs, splitting plain text into paragraphs, normalisation, the word
//! tokens the paragraph SimHash is built from, and the character/word units that shingles and span
//! alignment work on.

pub mod normalize;
pub mod paragraphs;
pub mod tokens;
pub mod units;

pub use normalize::{non_ws_chars, normalize};
pub use paragraphs::split_plain_text;
pub use tokens::Tokenizer;
pub use units::{units, Unit};

/// Clean one paragraph as read from a document: trim (including full-width indentation spaces) and turn
/// internal line breaks and tabs into single spaces. The result is the text Tongwen stores and reports; all
/// offsets into a paragraph refer to this text.
pub fn clean_paragraph(text: &str) -> String {
    let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    // Most paragraphs have nothing to change inside: one byte scan decides.
    if !needs_cleaning(text.as_bytes()) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if c == '\u{feff}' || c == '\u{200b}' {
            continue;
        }
        if matches!(c, '\n' | '\r' | '\t' | '\u{000b}' | '\u{000c}') {
            pending_space = true;
            continue;
        }
        if pending_space {
            if !out.ends_with(' ') {
                out.push(' ');
            }
            pending_space = false;
        }
        out.push(c);
    }
    out
}

/// Whether UTF-8 text holds a line break, tab, U+FEFF (EF BB BF) or U+200B (E2 80 8B).
fn needs_cleaning(b: &[u8]) -> bool {
    b.iter().enumerate().any(|(i, &x)| match x {
        b'\n' | b'\r' | b'\t' | 0x0b | 0x0c => true,
        0xef => b.get(i + 1..i + 3) == Some(&[0xbb, 0xbf]),
        0xe2 => b.get(i + 1..i + 3) == Some(&[0x80, 0x8b]),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_paragraph_trims_indent_and_joins_lines() {
        assert_eq!(
            clean_paragraph("\u{3000}\u{3000}第一行\n第二行 \r\n"),
            "第一行 第二行"
        );
        assert_eq!(clean_paragraph("\u{feff}a\tb"), "a b");
        assert_eq!(clean_paragraph("软件\u{200b}包，“维护”"), "软件包，“维护”");
        assert_eq!(clean_paragraph("a\u{feff}b\u{0c}c"), "ab c");
        assert_eq!(
            clean_paragraph("　全角缩进，“引号”…… "),
            "全角缩进，“引号”……"
        );
    }
}
