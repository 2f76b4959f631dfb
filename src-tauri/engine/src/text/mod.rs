//! Text processing: cleaning paragraphs, splitting plain text into paragraphs, normalisation, and the
//! token and character-unit streams that fingerprints and alignment are built from.

pub mod paragraphs;

pub use paragraphs::split_plain_text;

/// Clean one paragraph as read from a document: trim (including full-width indentation spaces) and turn
/// internal line breaks and tabs into single spaces. The result is the text Tongwen stores and reports; all
/// offsets into a paragraph refer to this text.
pub fn clean_paragraph(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}').chars() {
        if c == '\u{feff}' || c == '\u{200b}' {
            continue;
        }
        if c == '\n' || c == '\r' || c == '\t' || c == '\u{000b}' || c == '\u{000c}' {
            pending_space = true;
            continue;
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        out.push(c);
    }
    out
}
