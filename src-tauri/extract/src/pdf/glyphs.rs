//! Character-level facts the other PDF modules share, kept below them so that none of them imports
//! another one upward: the text of a glyph name (fonts and CMaps both name glyphs) and whether a character
//! is set without spaces around it (fonts use it for default widths, the layout for joining lines).

use std::collections::HashMap;
use std::sync::OnceLock;

use lopdf::{Dictionary, Document, Object};

/// Whether a character is set without spaces around it (CJK ideographs, kana, CJK punctuation, full-width
/// forms). Hangul is not: Korean separates words with spaces.
pub(super) fn is_wide(c: char) -> bool {
    matches!(c,
        '\u{2E80}'..='\u{2FDF}'
        | '\u{3000}'..='\u{30FF}'
        | '\u{3100}'..='\u{31FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FF60}'
        | '\u{FFE0}'..='\u{FFE6}'
        | '\u{20000}'..='\u{3FFFF}')
}

/// The text of a glyph name (Adobe Glyph List names, `uniXXXX`, `uXXXX[XX]`, ligatures joined by `_`,
/// suffixes after `.`). Unknown names give an empty string.
pub(super) fn glyph_name_to_text(name: &[u8]) -> String {
    let name = String::from_utf8_lossy(name);
    let base = name.split('.').next().unwrap_or_default();
    base.split('_').map(glyph_component).collect()
}

fn glyph_component(name: &str) -> String {
    if name.is_empty() {
        return String::new();
    }
    if let Some(hex) = name.strip_prefix("uni") {
        if hex.len() >= 4 && hex.len() % 4 == 0 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            let units: Vec<u16> = hex
                .as_bytes()
                .chunks(4)
                .filter_map(|c| std::str::from_utf8(c).ok())
                .filter_map(|c| u16::from_str_radix(c, 16).ok())
                .collect();
            return String::from_utf16_lossy(&units);
        }
    }
    if let Some(hex) = name.strip_prefix('u') {
        if (4..=6).contains(&hex.len()) && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            if let Some(c) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
                return c.to_string();
            }
        }
    }
    lopdf_glyph(name).map(String::from).unwrap_or_default()
}

/// Look a glyph name up in lopdf's Adobe Glyph List (through a one-entry `/Differences`).
fn lopdf_glyph(name: &str) -> Option<char> {
    static CACHE: OnceLock<std::sync::Mutex<HashMap<String, Option<char>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Ok(cache) = cache.lock() {
        if let Some(c) = cache.get(name) {
            return *c;
        }
    }
    let doc = Document::new();
    let mut encoding = Dictionary::new();
    encoding.set(
        "Differences",
        Object::Array(vec![
            Object::Integer(0),
            Object::Name(name.as_bytes().to_vec()),
        ]),
    );
    let mut font = Dictionary::new();
    font.set("Type", Object::Name(b"Font".to_vec()));
    font.set("Encoding", Object::Dictionary(encoding));
    // Code 0 is unmapped in the standard encoding lopdf falls back to, so an unknown name gives nothing.
    let c = font
        .get_font_encoding(&doc)
        .ok()
        .and_then(|e| e.bytes_to_string(&[0]).ok())
        .and_then(|s| s.chars().next());
    if let Ok(mut cache) = cache.lock() {
        if cache.len() < 10_000 {
            cache.insert(name.to_string(), c);
        }
    }
    c
}
