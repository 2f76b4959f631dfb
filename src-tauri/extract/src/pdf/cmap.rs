//! CMap programs: the `/ToUnicode` maps that turn character codes into text, and the embedded encoding
//! CMaps of composite (Type0) fonts that split a string into codes and map codes to CIDs.
//!
//! Only the parts text extraction needs are read: `codespacerange`, `bfchar`, `bfrange` (both the
//! incrementing and the array form), `cidchar`, `cidrange` and the name given to `usecmap`. Anything else in
//! the program is skipped. Sizes are bounded so that a hostile map cannot make the reader allocate without
//! limit.

use std::collections::HashMap;

/// At most this many entries are read from one CMap (all sections together).
const MAX_ENTRIES: usize = 200_000;

/// A range of codes of one byte length; each byte of a code must lie between the bytes of `lo` and `hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct CodeRange {
    pub len: u8,
    pub lo: [u8; 4],
    pub hi: [u8; 4],
}

impl CodeRange {
    fn new(lo: &[u8], hi: &[u8]) -> Option<CodeRange> {
        if lo.is_empty() || lo.len() > 4 || lo.len() != hi.len() {
            return None;
        }
        let mut range = CodeRange {
            len: lo.len() as u8,
            lo: [0; 4],
            hi: [0; 4],
        };
        range.lo[..lo.len()].copy_from_slice(lo);
        range.hi[..hi.len()].copy_from_slice(hi);
        Some(range)
    }

    /// Whether the first `len` bytes of `bytes` form a code of this range.
    pub fn matches(&self, bytes: &[u8]) -> bool {
        let len = usize::from(self.len);
        bytes.len() >= len
            && bytes
                .iter()
                .zip(self.lo.iter().zip(self.hi.iter()))
                .take(len)
                .all(|(b, (lo, hi))| lo <= b && b <= hi)
    }
}

/// What a `bfrange` maps to.
#[derive(Debug, Clone)]
enum RangeTarget {
    /// The first code maps to these UTF-16 units; each next code increments the last unit.
    Base(Vec<u16>),
    /// One string per code of the range.
    List(Vec<String>),
}

#[derive(Debug, Clone)]
struct BfRange {
    len: u8,
    lo: u32,
    hi: u32,
    target: RangeTarget,
}

#[derive(Debug, Clone, Copy)]
struct CidRange {
    len: u8,
    lo: u32,
    hi: u32,
    cid: u32,
}

/// A parsed CMap program.
#[derive(Debug, Default, Clone)]
pub(super) struct CMap {
    pub codespace: Vec<CodeRange>,
    /// The CMap this one builds on (`/Name usecmap`), e.g. `Identity-H`.
    pub use_cmap: Option<String>,
    chars: HashMap<(u8, u32), String>,
    /// Sorted by `(len, lo)`.
    ranges: Vec<BfRange>,
    cid_chars: HashMap<(u8, u32), u32>,
    cid_ranges: Vec<CidRange>,
}

impl CMap {
    /// Parse a CMap program. Never fails: what cannot be read is left out.
    pub fn parse(data: &[u8]) -> CMap {
        let mut cmap = CMap::default();
        let mut lexer = Lexer { data, pos: 0 };
        let mut entries = 0usize;
        let mut last_name: Option<String> = None;
        while let Some(token) = lexer.next_token() {
            if entries > MAX_ENTRIES {
                break;
            }
            match token {
                Token::Name(name) => last_name = Some(String::from_utf8_lossy(name).into_owned()),
                Token::Word(b"usecmap") => cmap.use_cmap = last_name.take(),
                Token::Word(b"begincodespacerange") => {
                    while let Some(Token::Hex(lo)) = lexer.next_token() {
                        let Some(Token::Hex(hi)) = lexer.next_token() else {
                            break;
                        };
                        entries += 1;
                        if let Some(range) = CodeRange::new(&lo, &hi) {
                            cmap.codespace.push(range);
                        }
                    }
                }
                Token::Word(b"beginbfchar") => {
                    while let Some(Token::Hex(src)) = lexer.next_token() {
                        entries += 1;
                        let text = match lexer.next_token() {
                            Some(Token::Hex(dst)) => utf16_be(&dst),
                            Some(Token::Name(name)) => super::glyphs::glyph_name_to_text(name),
                            _ => break,
                        };
                        if let Some(key) = code_key(&src) {
                            cmap.chars.insert(key, text);
                        }
                    }
                }
                Token::Word(b"beginbfrange") => {
                    while let Some(Token::Hex(lo)) = lexer.next_token() {
                        let Some(Token::Hex(hi)) = lexer.next_token() else {
                            break;
                        };
                        entries += 1;
                        let target = match lexer.next_token() {
                            Some(Token::Hex(dst)) => RangeTarget::Base(utf16_units(&dst)),
                            Some(Token::ArrayOpen) => {
                                let mut list = Vec::new();
                                while let Some(Token::Hex(dst)) = lexer.next_token() {
                                    entries += 1;
                                    if entries > MAX_ENTRIES {
                                        break;
                                    }
                                    list.push(utf16_be(&dst));
                                }
                                RangeTarget::List(list)
                            }
                            _ => break,
                        };
                        if let (Some((len, lo)), Some((hi_len, hi))) =
                            (code_key(&lo), code_key(&hi))
                        {
                            if len == hi_len && lo <= hi {
                                cmap.ranges.push(BfRange {
                                    len,
                                    lo,
                                    hi,
                                    target,
                                });
                            }
                        }
                    }
                }
                Token::Word(b"begincidchar") => {
                    while let Some(Token::Hex(src)) = lexer.next_token() {
                        entries += 1;
                        let Some(Token::Word(cid)) = lexer.next_token() else {
                            break;
                        };
                        if let (Some(key), Some(cid)) = (code_key(&src), parse_u32(cid)) {
                            cmap.cid_chars.insert(key, cid);
                        }
                    }
                }
                Token::Word(b"begincidrange") => {
                    while let Some(Token::Hex(lo)) = lexer.next_token() {
                        entries += 1;
                        let Some(Token::Hex(hi)) = lexer.next_token() else {
                            break;
                        };
                        let Some(Token::Word(cid)) = lexer.next_token() else {
                            break;
                        };
                        if let (Some((len, lo)), Some((hi_len, hi)), Some(cid)) =
                            (code_key(&lo), code_key(&hi), parse_u32(cid))
                        {
                            if len == hi_len && lo <= hi {
                                cmap.cid_ranges.push(CidRange { len, lo, hi, cid });
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        cmap.ranges.sort_by_key(|r| (r.len, r.lo));
        cmap
    }

    /// Whether the map gives text for any code.
    pub fn has_text(&self) -> bool {
        !self.chars.is_empty() || !self.ranges.is_empty()
    }

    /// Whether the map gives CIDs.
    pub fn has_cids(&self) -> bool {
        !self.cid_chars.is_empty() || !self.cid_ranges.is_empty()
    }

    /// The text for the code `code` of `len` bytes, if the map has it.
    pub fn text(&self, len: u8, code: u32) -> Option<String> {
        if let Some(text) = self.chars.get(&(len, code)) {
            return Some(text.clone());
        }
        // The last range starting at or before the code.
        let idx = self
            .ranges
            .partition_point(|r| (r.len, r.lo) <= (len, code));
        let range = self.ranges.get(idx.checked_sub(1)?)?;
        if range.len != len || code > range.hi {
            return None;
        }
        let offset = code - range.lo;
        match &range.target {
            RangeTarget::Base(units) => {
                let mut units = units.clone();
                let last = units.last_mut()?;
                *last = last.wrapping_add(offset as u16);
                Some(String::from_utf16_lossy(&units))
            }
            RangeTarget::List(list) => list.get(offset as usize).cloned(),
        }
    }

    /// The CID for a code, if the map has it.
    pub fn cid(&self, len: u8, code: u32) -> Option<u32> {
        if let Some(cid) = self.cid_chars.get(&(len, code)) {
            return Some(*cid);
        }
        self.cid_ranges
            .iter()
            .find(|r| r.len == len && r.lo <= code && code <= r.hi)
            .map(|r| r.cid + (code - r.lo))
    }

    /// Every code that maps to a single space, as `(len, code)`.
    pub fn space_codes(&self) -> Vec<(u8, u32)> {
        let mut codes: Vec<(u8, u32)> = self
            .chars
            .iter()
            .filter(|(_, text)| text.as_str() == " ")
            .map(|(key, _)| *key)
            .collect();
        for range in &self.ranges {
            if let RangeTarget::Base(units) = &range.target {
                if let [unit] = units.as_slice() {
                    if *unit <= 0x20 && u32::from(0x20 - *unit) <= range.hi - range.lo {
                        codes.push((range.len, range.lo + u32::from(0x20 - *unit)));
                    }
                }
            }
        }
        codes.sort_unstable();
        codes
    }
}

/// A code's byte length and value.
fn code_key(bytes: &[u8]) -> Option<(u8, u32)> {
    if bytes.is_empty() || bytes.len() > 4 {
        return None;
    }
    Some((
        bytes.len() as u8,
        bytes.iter().fold(0u32, |acc, b| (acc << 8) | u32::from(*b)),
    ))
}

fn parse_u32(word: &[u8]) -> Option<u32> {
    std::str::from_utf8(word).ok()?.parse().ok()
}

fn utf16_units(bytes: &[u8]) -> Vec<u16> {
    if bytes.len() == 1 {
        // Malformed single byte: read it as the code point itself.
        return bytes.iter().map(|b| u16::from(*b)).collect();
    }
    bytes
        .chunks(2)
        .map(|pair| match pair {
            [hi, lo] => u16::from_be_bytes([*hi, *lo]),
            [hi] => u16::from(*hi),
            _ => 0xFFFD,
        })
        .collect()
}

/// Decode a UTF-16BE destination string.
pub(super) fn utf16_be(bytes: &[u8]) -> String {
    String::from_utf16_lossy(&utf16_units(bytes))
}

enum Token<'a> {
    Hex(Vec<u8>),
    Name(&'a [u8]),
    Word(&'a [u8]),
    ArrayOpen,
    Other,
}

struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
}

fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace()
        || b == 0
        || matches!(
            b,
            b'[' | b']' | b'<' | b'>' | b'(' | b')' | b'/' | b'%' | b'{' | b'}'
        )
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn next_token(&mut self) -> Option<Token<'a>> {
        loop {
            let b = self.peek()?;
            if b.is_ascii_whitespace() || b == 0 {
                self.pos += 1;
            } else if b == b'%' {
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == b'\n' || c == b'\r' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
        let b = self.peek()?;
        self.pos += 1;
        Some(match b {
            b'<' if self.peek() == Some(b'<') => {
                self.pos += 1;
                Token::Other
            }
            b'<' => {
                let mut out = Vec::new();
                let mut high: Option<u8> = None;
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == b'>' {
                        break;
                    }
                    let Some(v) = (c as char).to_digit(16) else {
                        continue;
                    };
                    let v = v as u8;
                    match high.take() {
                        Some(h) => out.push((h << 4) | v),
                        None => high = Some(v),
                    }
                }
                if let Some(h) = high {
                    out.push(h << 4);
                }
                Token::Hex(out)
            }
            b'>' => {
                if self.peek() == Some(b'>') {
                    self.pos += 1;
                }
                Token::Other
            }
            b'[' => Token::ArrayOpen,
            b'(' => {
                let mut depth = 1usize;
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    match c {
                        b'\\' => self.pos += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                Token::Other
            }
            b'/' => {
                let start = self.pos;
                while self.peek().is_some_and(|c| !is_delimiter(c)) {
                    self.pos += 1;
                }
                Token::Name(self.data.get(start..self.pos).unwrap_or_default())
            }
            b']' | b')' | b'{' | b'}' => Token::Other,
            _ => {
                let start = self.pos - 1;
                while self.peek().is_some_and(|c| !is_delimiter(c)) {
                    self.pos += 1;
                }
                Token::Word(self.data.get(start..self.pos).unwrap_or_default())
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_chars_ranges_and_codespace() {
        let cmap = CMap::parse(
            b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
              1 begincodespacerange <0000> <FFFF> endcodespacerange\n\
              2 beginbfchar <0003> <0020> <0044> <00660069> endbfchar\n\
              2 beginbfrange <0010> <0012> <4E2D> <0020> <0021> [<0041> <0042>] endbfrange\n\
              endcmap CMapName currentdict /CMap defineresource pop end end",
        );
        assert_eq!(cmap.codespace.len(), 1);
        assert_eq!(cmap.text(2, 3).as_deref(), Some(" "));
        assert_eq!(cmap.text(2, 0x44).as_deref(), Some("fi"));
        assert_eq!(cmap.text(2, 0x11).as_deref(), Some("\u{4E2E}"));
        assert_eq!(cmap.text(2, 0x21).as_deref(), Some("B"));
        assert_eq!(cmap.text(2, 0x13), None);
        assert_eq!(cmap.text(1, 0x11), None);
        assert_eq!(cmap.space_codes(), vec![(2, 3)]);
    }

    #[test]
    fn reads_cid_ranges() {
        let cmap = CMap::parse(
            b"/Identity-H usecmap 1 begincidrange <0100> <01FF> 500 endcidrange 1 begincidchar <0020> 1 endcidchar",
        );
        assert_eq!(cmap.use_cmap.as_deref(), Some("Identity-H"));
        assert_eq!(cmap.cid(2, 0x0102), Some(502));
        assert_eq!(cmap.cid(2, 0x0020), Some(1));
        assert_eq!(cmap.cid(2, 0x0300), None);
    }

    #[test]
    fn survives_garbage() {
        for data in [
            &b"<<<<[[[(((("[..],
            b"beginbfrange <00> [",
            b"beginbfchar <",
            b"%\n<zz>",
        ] {
            let _ = CMap::parse(data);
        }
    }
}
