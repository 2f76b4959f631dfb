//! Fonts: how a string operand of a text-showing operator splits into character codes, what text each
//! code stands for, and how far each glyph advances.
//!
//! Text comes from the font's `/ToUnicode` CMap first. Without one (or for codes it leaves out), simple
//! fonts fall back to their `/Encoding` (a base encoding plus `/Differences` glyph names), and composite
//! fonts with a predefined Unicode or legacy CJK CMap decode the code itself. Codes that nothing maps are
//! reported as unmapped, so the caller can tell a document whose text cannot be decoded. Widths come from
//! `/Widths` (simple fonts) or `/W` and `/DW` (CID fonts); fonts without widths get an estimate.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use lopdf::{Dictionary, Document, Object};

use super::cmap::{CMap, CodeRange};
use super::glyphs::{glyph_name_to_text, is_wide};
use super::standard_widths;

/// Streams of a font (`/ToUnicode`, embedded CMaps) larger than this once decoded are ignored.
const MAX_FONT_STREAM: usize = 8 * 1024 * 1024;
/// At most this many `/W` entries are read.
const MAX_WIDTH_ENTRIES: usize = 200_000;

/// How a string is split into codes.
#[derive(Debug, Clone)]
enum CodeScheme {
    OneByte,
    TwoByte,
    /// Codespace ranges of an embedded CMap (or of the `/ToUnicode` map).
    Ranges(Vec<CodeRange>),
    /// Legacy multi-byte encodings: a byte for which the function is true starts a two-byte code.
    LeadByte(fn(u8) -> bool),
    /// UTF-16BE (two bytes, four for a surrogate pair).
    Utf16,
}

/// How a code turns into text when the `/ToUnicode` map does not cover it.
#[derive(Debug, Clone)]
enum Fallback {
    /// A table for the 256 codes of a simple font (empty string: unmapped).
    Table(Vec<String>),
    /// The code is a UTF-16BE unit sequence.
    Utf16,
    /// The code's bytes are text in this legacy encoding.
    Legacy(&'static encoding_rs::Encoding),
    /// Nothing: the code is unmapped.
    None,
}

/// How wide glyphs are, in text-space units per unit of font size.
#[derive(Debug, Clone)]
enum Widths {
    Simple {
        first: u32,
        widths: Vec<f64>,
        missing: Option<f64>,
        /// Metrics of a standard font for glyphs without a listed width.
        standard: Standard,
    },
    Cid {
        widths: HashMap<u32, f64>,
        default: f64,
    },
}

/// One decoded character code.
#[derive(Debug, Clone, Copy)]
pub(super) struct Code {
    /// Bytes of the string it used.
    pub len: usize,
    pub value: u32,
}

/// A font, ready to decode strings.
#[derive(Debug, Clone)]
pub(super) struct Font {
    scheme: CodeScheme,
    to_unicode: Option<CMap>,
    fallback: Fallback,
    /// Code-to-CID map of an embedded CMap (for widths).
    cid_map: Option<CMap>,
    /// Whether codes are CIDs (Identity CMaps).
    identity: bool,
    /// Whether the font uses a predefined CMap of Adobe's CJK collections (GB1, CNS1, Japan1, Korea1),
    /// whose printable ASCII codes (one byte, or UCS-2/UTF-16) are the collections' proportional Latin
    /// CIDs 1–95: the CIDs `/W` lists their widths by.
    latin_cids: bool,
    /// The `/BaseFont` of a composite font whose text cannot be known: not embedded, codes that are CIDs
    /// (Identity), and no `/ToUnicode` map. A glyph of it that nothing maps fails the document.
    pub unreadable: Option<String>,
    widths: Widths,
    /// Width of a space, in text-space units per unit of font size.
    pub space_width: f64,
    /// Glyph height relative to a standard 1000-unit font (Type3 fonts can scale glyphs differently).
    pub size_scale: f64,
    /// Whether the font writes vertically (`-V` CMaps).
    pub vertical: bool,
    /// A symbol font whose private-use codes (U+F0xx, as Word maps them) stand for list bullets.
    symbols: Symbols,
}

/// Symbol fonts whose bullets Word writes as private-use characters (U+F000 + the font's code).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Symbols {
    None,
    Symbol,
    Wingdings,
}

impl Symbols {
    fn of(base_font: &[u8]) -> Symbols {
        let name = String::from_utf8_lossy(base_font);
        let name = name.rsplit('+').next().unwrap_or_default();
        if name.starts_with("Symbol") {
            Symbols::Symbol
        } else if name.starts_with("Wingdings") {
            Symbols::Wingdings
        } else {
            Symbols::None
        }
    }

    /// The bullet a private-use character of this font draws, if it is one.
    fn bullet(self, c: char) -> Option<char> {
        let code = u32::from(c).checked_sub(0xF000).filter(|&v| v <= 0xFF)?;
        match (self, code) {
            (Symbols::Symbol, 0xB7) => Some('•'),
            (Symbols::Wingdings, 0x6C) => Some('●'),
            (Symbols::Wingdings, 0x6E) => Some('■'),
            (Symbols::Wingdings, 0x71) => Some('❑'),
            (Symbols::Wingdings, 0x75) => Some('◆'),
            (Symbols::Wingdings, 0x76) => Some('❖'),
            (Symbols::Wingdings, 0x9F) => Some('•'),
            (Symbols::Wingdings, 0xA7) => Some('▪'),
            (Symbols::Wingdings, 0xD8) => Some('➢'),
            (Symbols::Wingdings, 0xFC) => Some('✓'),
            _ => None,
        }
    }
}

impl Font {
    /// A stand-in for a font the document does not define: one-byte codes, nothing mapped.
    pub fn missing() -> Font {
        Font {
            scheme: CodeScheme::OneByte,
            to_unicode: None,
            fallback: Fallback::None,
            cid_map: None,
            identity: false,
            latin_cids: false,
            unreadable: None,
            widths: Widths::Simple {
                first: 0,
                widths: Vec::new(),
                missing: Some(0.5),
                standard: Standard::Proportional(&standard_widths::HELVETICA),
            },
            space_width: 0.25,
            size_scale: 1.0,
            vertical: false,
            symbols: Symbols::None,
        }
    }

    /// Read a font dictionary.
    pub fn load(doc: &Document, dict: &Dictionary) -> Font {
        let subtype = name_of(doc, dict.get(b"Subtype").ok()).unwrap_or_default();
        let to_unicode = stream_data(doc, dict.get(b"ToUnicode").ok())
            .map(|data| CMap::parse(&data))
            .filter(CMap::has_text);
        let mut font = if subtype == b"Type0" {
            Font::composite(doc, dict, to_unicode)
        } else {
            Font::simple(doc, dict, &subtype, to_unicode)
        };
        font.space_width = font.find_space_width();
        font.symbols = Symbols::of(&name_of(doc, dict.get(b"BaseFont").ok()).unwrap_or_default());
        font
    }

    fn composite(doc: &Document, dict: &Dictionary, to_unicode: Option<CMap>) -> Font {
        let descendant = deref(doc, dict.get(b"DescendantFonts").ok())
            .and_then(|o| o.as_array().ok())
            .and_then(|a| a.first())
            .and_then(|o| deref(doc, Some(o)))
            .and_then(|o| o.as_dict().ok());
        let encoding = deref(doc, dict.get(b"Encoding").ok());
        let mut latin_cids = false;
        let mut scheme = CodeScheme::TwoByte;
        let mut fallback = Fallback::None;
        let mut cid_map = None;
        let identity: bool;
        let mut vertical = false;
        match encoding {
            Some(Object::Name(name)) => {
                let name = String::from_utf8_lossy(name);
                vertical = name.ends_with("-V");
                identity = name.starts_with("Identity");
                if !identity {
                    (scheme, fallback) = predefined_cmap(&name);
                    latin_cids = !matches!(fallback, Fallback::None);
                }
            }
            Some(Object::Stream(stream)) => {
                let cmap = stream
                    .get_plain_content_with_limit(MAX_FONT_STREAM)
                    .map(|data| CMap::parse(&data))
                    .unwrap_or_default();
                let base = cmap.use_cmap.clone().unwrap_or_default();
                vertical = name_of(doc, stream.dict.get(b"CMapName").ok())
                    .is_some_and(|n| n.ends_with(b"-V"))
                    || base.ends_with("-V");
                if !cmap.codespace.is_empty() {
                    scheme = CodeScheme::Ranges(cmap.codespace.clone());
                } else if base.starts_with("Identity") || base.is_empty() {
                    scheme = CodeScheme::TwoByte;
                } else {
                    (scheme, fallback) = predefined_cmap(&base);
                    latin_cids = !matches!(fallback, Fallback::None) && !cmap.has_cids();
                }
                identity = base.starts_with("Identity") && !cmap.has_cids();
                if cmap.has_cids() {
                    cid_map = Some(cmap);
                }
            }
            _ => identity = true,
        }
        // A ToUnicode map with its own codespace describes the codes better than a guess.
        if matches!(scheme, CodeScheme::TwoByte) && !identity {
            if let Some(ranges) = to_unicode.as_ref().map(|c| c.codespace.clone()) {
                if !ranges.is_empty() {
                    scheme = CodeScheme::Ranges(ranges);
                }
            }
        }
        let widths = descendant.map_or(
            Widths::Cid {
                widths: HashMap::new(),
                default: 1.0,
            },
            |d| cid_widths(doc, d),
        );
        let embedded = descendant
            .and_then(|d| deref(doc, d.get(b"FontDescriptor").ok()))
            .and_then(|o| o.as_dict().ok())
            .is_some_and(|fd| {
                [&b"FontFile"[..], b"FontFile2", b"FontFile3"]
                    .iter()
                    .any(|k| fd.has(k))
            });
        let unreadable = (identity && !embedded && to_unicode.is_none()).then(|| {
            let name = name_of(doc, dict.get(b"BaseFont").ok()).unwrap_or_default();
            String::from_utf8_lossy(&name).into_owned()
        });
        Font {
            scheme,
            to_unicode,
            fallback,
            cid_map,
            identity,
            latin_cids,
            unreadable,
            widths,
            space_width: 0.25,
            size_scale: 1.0,
            vertical,
            symbols: Symbols::None,
        }
    }

    fn simple(doc: &Document, dict: &Dictionary, subtype: &[u8], to_unicode: Option<CMap>) -> Font {
        let base_font = name_of(doc, dict.get(b"BaseFont").ok()).unwrap_or_default();
        let base_font = String::from_utf8_lossy(&base_font).into_owned();
        let descriptor =
            deref(doc, dict.get(b"FontDescriptor").ok()).and_then(|o| o.as_dict().ok());
        let symbolic_name = base_font.contains("Symbol") || base_font.contains("Dingbats");
        let default_base: &[u8] = if subtype == b"TrueType" {
            b"WinAnsiEncoding"
        } else {
            b"StandardEncoding"
        };
        let table = match deref(doc, dict.get(b"Encoding").ok()) {
            Some(Object::Name(name)) => {
                base_table(name).unwrap_or_else(|| base_table_or_empty(default_base))
            }
            Some(Object::Dictionary(enc)) => {
                let mut table = match name_of(doc, enc.get(b"BaseEncoding").ok()) {
                    Some(name) => {
                        base_table(&name).unwrap_or_else(|| base_table_or_empty(default_base))
                    }
                    None if symbolic_name => vec![String::new(); 256],
                    None => base_table_or_empty(default_base),
                };
                apply_differences(doc, enc, &mut table);
                table
            }
            _ if symbolic_name => vec![String::new(); 256],
            _ => base_table_or_empty(default_base),
        };

        let font_matrix_scale = if subtype == b"Type3" {
            deref(doc, dict.get(b"FontMatrix").ok())
                .and_then(|o| o.as_array().ok())
                .and_then(|a| {
                    let x = number(doc, a.first())?;
                    let y = number(doc, a.get(3))?;
                    Some((x, y))
                })
                .filter(|(x, y)| x.is_finite() && y.is_finite() && *x != 0.0 && *y != 0.0)
                .unwrap_or((0.001, 0.001))
        } else {
            (0.001, 0.001)
        };
        let first =
            number(doc, dict.get(b"FirstChar").ok()).map_or(0, |v| v.clamp(0.0, 255.0) as u32);
        let widths: Vec<f64> = deref(doc, dict.get(b"Widths").ok())
            .and_then(|o| o.as_array().ok())
            .map(|a| {
                a.iter()
                    .take(256)
                    .map(|w| number(doc, Some(w)).unwrap_or(0.0) * font_matrix_scale.0)
                    .collect()
            })
            .unwrap_or_default();
        let missing = descriptor
            .and_then(|d| number(doc, d.get(b"MissingWidth").ok()))
            .filter(|w| *w > 0.0)
            .map(|w| w * font_matrix_scale.0);
        Font {
            scheme: CodeScheme::OneByte,
            to_unicode,
            fallback: Fallback::Table(table),
            cid_map: None,
            identity: false,
            latin_cids: false,
            unreadable: None,
            widths: Widths::Simple {
                first,
                widths,
                missing,
                standard: Standard::for_font(&base_font),
            },
            space_width: 0.25,
            size_scale: if subtype == b"Type3" {
                type3_size_scale(doc, dict, font_matrix_scale.1)
            } else {
                1.0
            },
            vertical: false,
            symbols: Symbols::None,
        }
    }

    /// Split the next code off `bytes` (which must not be empty).
    pub fn next_code(&self, bytes: &[u8]) -> Code {
        let take = |len: usize| -> Code {
            let len = len.clamp(1, bytes.len().max(1));
            Code {
                len,
                value: bytes
                    .iter()
                    .take(len)
                    .fold(0u32, |acc, b| (acc << 8) | u32::from(*b)),
            }
        };
        match &self.scheme {
            CodeScheme::OneByte => take(1),
            CodeScheme::TwoByte => take(2),
            CodeScheme::Ranges(ranges) => {
                for len in 1..=4u8 {
                    if ranges.iter().any(|r| r.len == len && r.matches(bytes)) {
                        return take(usize::from(len));
                    }
                }
                // No range matches: use the shortest code length the map has.
                take(ranges.iter().map(|r| usize::from(r.len)).min().unwrap_or(1))
            }
            CodeScheme::LeadByte(is_lead) => match bytes.first() {
                Some(b) if is_lead(*b) => take(2),
                _ => take(1),
            },
            CodeScheme::Utf16 => match bytes {
                [hi, _, ..] if (0xD8..0xDC).contains(hi) => take(4),
                _ => take(2),
            },
        }
    }

    /// Whether word spacing (`Tw`) applies to this code: a single-byte code 32.
    pub fn is_word_space(code: Code) -> bool {
        code.len == 1 && code.value == 32
    }

    /// The text a code stands for: `None` when nothing maps it. A symbol font's bullet drawn as a
    /// private-use character is the bullet.
    pub fn text(&self, code: Code) -> Option<Cow<'_, str>> {
        let text = self.mapped_text(code)?;
        if self.symbols != Symbols::None {
            let mut chars = text.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                if let Some(bullet) = self.symbols.bullet(c) {
                    return Some(Cow::Owned(bullet.to_string()));
                }
            }
        }
        Some(text)
    }

    fn mapped_text(&self, code: Code) -> Option<Cow<'_, str>> {
        let len = code.len as u8;
        if let Some(map) = &self.to_unicode {
            if let Some(text) = map.text(len, code.value) {
                return Some(Cow::Owned(text));
            }
        }
        match &self.fallback {
            Fallback::Table(table) => table
                .get(code.value as usize)
                .filter(|t| !t.is_empty())
                .map(|t| Cow::Borrowed(t.as_str())),
            Fallback::Utf16 => {
                let units = [(code.value >> 16) as u16, code.value as u16];
                let units = if code.len > 2 {
                    &units[..]
                } else {
                    &units[1..]
                };
                let text = String::from_utf16(units).ok()?;
                Some(Cow::Owned(text))
            }
            Fallback::Legacy(encoding) => {
                let bytes = code.value.to_be_bytes();
                let bytes = bytes.get(4usize.saturating_sub(code.len)..)?;
                let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
                (!had_errors).then(|| Cow::Owned(text.into_owned()))
            }
            Fallback::None => None,
        }
    }

    /// The glyph's advance for a code, in text-space units per unit of font size.
    pub fn width(&self, code: Code, text: Option<&str>) -> f64 {
        match &self.widths {
            Widths::Simple {
                first,
                widths,
                missing,
                standard,
            } => code
                .value
                .checked_sub(*first)
                .and_then(|i| widths.get(i as usize))
                .copied()
                .or(*missing)
                .unwrap_or_else(|| standard.width(text)),
            Widths::Cid { widths, default } => {
                let cid = if self.identity {
                    Some(code.value)
                } else if let Some(map) = &self.cid_map {
                    map.cid(code.len as u8, code.value)
                } else if self.latin_cids && (0x20..=0x7E).contains(&code.value) {
                    Some(code.value - 0x1F)
                } else {
                    None
                };
                match cid.and_then(|cid| widths.get(&cid)) {
                    Some(&w) => w,
                    // A proportional Latin glyph of a collection without its own width is about half
                    // an em; `/DW` is the ideographs' width.
                    None if self.latin_cids && cid.is_some_and(|c| (1..=95).contains(&c)) => 0.5,
                    None => *default,
                }
            }
        }
    }

    fn find_space_width(&self) -> f64 {
        let mut candidates: Vec<Code> = Vec::new();
        if let Some(map) = &self.to_unicode {
            candidates.extend(map.space_codes().into_iter().map(|(len, value)| Code {
                len: usize::from(len),
                value,
            }));
        }
        if let Fallback::Table(table) = &self.fallback {
            if let Some(i) = table.iter().position(|t| t == " ") {
                candidates.push(Code {
                    len: 1,
                    value: i as u32,
                });
            }
        }
        if matches!(self.scheme, CodeScheme::OneByte) {
            candidates.push(Code { len: 1, value: 32 });
        }
        candidates
            .into_iter()
            .map(|code| self.width(code, Some(" ")))
            .find(|w| *w > 0.05 && *w < 1.5)
            .unwrap_or(0.25)
    }
}

/// How tall a Type3 font's glyphs are relative to an ordinary font: its `/FontBBox` height in text
/// space (glyph space scaled by `/FontMatrix`), as a fraction of the usual 1000-unit em.
fn type3_size_scale(doc: &Document, dict: &Dictionary, matrix_y: f64) -> f64 {
    let height = deref(doc, dict.get(b"FontBBox").ok())
        .and_then(|o| o.as_array().ok())
        .and_then(|a| Some((number(doc, a.get(1))?, number(doc, a.get(3))?)))
        .map(|(bottom, top)| ((top - bottom) * matrix_y).abs())
        .filter(|h| *h > 0.0);
    height.map_or(1.0, |h| h.clamp(0.2, 5.0))
}

/// Widths of a CID font: `/DW` and `/W`.
fn cid_widths(doc: &Document, font: &Dictionary) -> Widths {
    let default = number(doc, font.get(b"DW").ok()).map_or(1.0, |w| w / 1000.0);
    let mut widths = HashMap::new();
    if let Some(array) = deref(doc, font.get(b"W").ok()).and_then(|o| o.as_array().ok()) {
        let mut i = 0;
        while i < array.len() && widths.len() < MAX_WIDTH_ENTRIES {
            let Some(start) = number(doc, array.get(i)) else {
                break;
            };
            let start = start.max(0.0) as u32;
            match array.get(i + 1).and_then(|o| deref(doc, Some(o))) {
                Some(Object::Array(list)) => {
                    for (k, w) in list.iter().enumerate().take(MAX_WIDTH_ENTRIES) {
                        if let Some(w) = number(doc, Some(w)) {
                            widths.insert(start.saturating_add(k as u32), w / 1000.0);
                        }
                    }
                    i += 2;
                }
                Some(_) => {
                    let (Some(end), Some(w)) =
                        (number(doc, array.get(i + 1)), number(doc, array.get(i + 2)))
                    else {
                        break;
                    };
                    let end =
                        (end.max(0.0) as u32).min(start.saturating_add(MAX_WIDTH_ENTRIES as u32));
                    for cid in start..=end {
                        widths.insert(cid, w / 1000.0);
                    }
                    i += 3;
                }
                None => break,
            }
        }
    }
    Widths::Cid { widths, default }
}

/// The code scheme and fallback decoding of a predefined CMap name.
fn predefined_cmap(name: &str) -> (CodeScheme, Fallback) {
    fn high(b: u8) -> bool {
        b >= 0x81
    }
    fn sjis(b: u8) -> bool {
        (0x81..=0x9F).contains(&b) || (0xE0..=0xFC).contains(&b)
    }
    if name.contains("UCS2") || name.contains("UTF16") {
        return (CodeScheme::Utf16, Fallback::Utf16);
    }
    type Legacy = (fn(u8) -> bool, &'static encoding_rs::Encoding);
    let legacy: Option<Legacy> = if name.starts_with("GB") {
        Some((high, encoding_rs::GB18030))
    } else if name.contains("B5") || name.contains("CNS-EUC") {
        Some((high, encoding_rs::BIG5))
    } else if name.contains("RKSJ") {
        Some((sjis, encoding_rs::SHIFT_JIS))
    } else if name.starts_with("KSC") {
        Some((high, encoding_rs::EUC_KR))
    } else if name.contains("EUC") {
        Some((high, encoding_rs::EUC_JP))
    } else {
        None
    };
    match legacy {
        Some((lead, encoding)) => (CodeScheme::LeadByte(lead), Fallback::Legacy(encoding)),
        None => (CodeScheme::TwoByte, Fallback::None),
    }
}

/// The metrics used for glyphs whose font lists no width (the standard 14 fonts need not).
#[derive(Debug, Clone, Copy)]
enum Standard {
    Monospace,
    Proportional(&'static standard_widths::Table),
}

impl Standard {
    /// The standard font closest to a `/BaseFont` name (Helvetica for anything unknown).
    fn for_font(base_font: &str) -> Standard {
        use standard_widths::*;
        // Subset fonts are named `ABCDEF+Name`.
        let name = base_font.rsplit('+').next().unwrap_or(base_font);
        let bold = name.contains("Bold") || name.contains("Black") || name.contains("Heavy");
        let italic = name.contains("Italic") || name.contains("Oblique");
        if name.contains("Courier") || name.contains("Mono") {
            Standard::Monospace
        } else if name.contains("Times") || name.contains("Roman") || name.contains("Serif") {
            Standard::Proportional(match (bold, italic) {
                (true, true) => &TIMES_BOLD_ITALIC,
                (true, false) => &TIMES_BOLD,
                (false, true) => &TIMES_ITALIC,
                (false, false) => &TIMES_ROMAN,
            })
        } else if bold {
            Standard::Proportional(&HELVETICA_BOLD)
        } else {
            Standard::Proportional(&HELVETICA)
        }
    }

    /// The advance of a glyph showing `text`, in em.
    fn width(self, text: Option<&str>) -> f64 {
        let c = text.and_then(|t| t.chars().next());
        match (self, c) {
            (Standard::Monospace, _) => 0.6,
            (_, Some(c)) if is_wide(c) => 1.0,
            (Standard::Proportional(table), Some(c)) => u32::from(c)
                .checked_sub(0x20)
                .and_then(|i| table.get(i as usize))
                .filter(|w| **w > 0)
                .map_or(0.5, |w| f64::from(*w) / 1000.0),
            (Standard::Proportional(_), None) => 0.5,
        }
    }
}

/// The table of a named base encoding, from lopdf's tables.
fn base_table(name: &[u8]) -> Option<Vec<String>> {
    static TABLES: OnceLock<Vec<(&'static [u8], Vec<String>)>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let doc = Document::new();
        [
            &b"StandardEncoding"[..],
            b"WinAnsiEncoding",
            b"MacRomanEncoding",
            b"MacExpertEncoding",
        ]
        .into_iter()
        .map(|name| {
            let mut font = Dictionary::new();
            font.set("Type", Object::Name(b"Font".to_vec()));
            font.set("Encoding", Object::Name(name.to_vec()));
            let table = match font.get_font_encoding(&doc) {
                Ok(encoding) => (0..=255u8)
                    .map(|b| encoding.bytes_to_string(&[b]).unwrap_or_default())
                    .collect(),
                Err(_) => vec![String::new(); 256],
            };
            (name, table)
        })
        .collect()
    });
    tables
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| t.clone())
}

fn base_table_or_empty(name: &[u8]) -> Vec<String> {
    base_table(name).unwrap_or_else(|| vec![String::new(); 256])
}

/// Apply an encoding dictionary's `/Differences` to a table.
fn apply_differences(doc: &Document, encoding: &Dictionary, table: &mut [String]) {
    let Some(diffs) = deref(doc, encoding.get(b"Differences").ok()).and_then(|o| o.as_array().ok())
    else {
        return;
    };
    let mut code: i64 = 0;
    for item in diffs.iter().take(4096) {
        match deref(doc, Some(item)) {
            Some(Object::Integer(n)) => code = *n,
            Some(Object::Real(n)) if n.is_finite() => code = *n as i64,
            Some(Object::Name(name)) => {
                if let Some(slot) = usize::try_from(code).ok().and_then(|i| table.get_mut(i)) {
                    *slot = glyph_name_to_text(name);
                }
                code = code.saturating_add(1);
            }
            _ => {}
        }
    }
}

fn deref<'a>(doc: &'a Document, object: Option<&'a Object>) -> Option<&'a Object> {
    doc.dereference(object?).ok().map(|(_, o)| o)
}

fn name_of(doc: &Document, object: Option<&Object>) -> Option<Vec<u8>> {
    deref(doc, object)?.as_name().ok().map(<[u8]>::to_vec)
}

pub(super) fn number(doc: &Document, object: Option<&Object>) -> Option<f64> {
    let value = match deref(doc, object)? {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => f64::from(*r),
        _ => return None,
    };
    value.is_finite().then_some(value)
}

/// The decoded data of a stream object (bounded).
fn stream_data(doc: &Document, object: Option<&Object>) -> Option<Vec<u8>> {
    deref(doc, object)?
        .as_stream()
        .ok()?
        .get_plain_content_with_limit(MAX_FONT_STREAM)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyph_names() {
        assert_eq!(glyph_name_to_text(b"A"), "A");
        assert_eq!(glyph_name_to_text(b"quoteright"), "\u{2019}");
        assert_eq!(glyph_name_to_text(b"uni4E2D"), "中");
        assert_eq!(glyph_name_to_text(b"u1F600"), "\u{1F600}");
        assert_eq!(glyph_name_to_text(b"f_i"), "fi");
        assert_eq!(glyph_name_to_text(b"a.sc"), "a");
        assert_eq!(glyph_name_to_text(b"g123"), "");
        assert_eq!(glyph_name_to_text(b".notdef"), "");
    }

    #[test]
    fn base_tables() {
        let win = base_table(b"WinAnsiEncoding").unwrap_or_default();
        assert_eq!(win.get(0x41).map(String::as_str), Some("A"));
        assert_eq!(win.get(0x93).map(String::as_str), Some("\u{201C}"));
        let std = base_table(b"StandardEncoding").unwrap_or_default();
        assert_eq!(std.get(0x27).map(String::as_str), Some("\u{2019}"));
    }

    #[test]
    fn standard_font_widths() {
        let helvetica = Standard::for_font("Helvetica");
        assert!((helvetica.width(Some("A")) - 0.667).abs() < 1e-9);
        assert!((Standard::for_font("ABCDEF+Arial-BoldMT").width(Some("A")) - 0.722).abs() < 1e-9);
        assert!((Standard::for_font("Times-Roman").width(Some("a")) - 0.444).abs() < 1e-9);
        assert!((Standard::for_font("Courier-Bold").width(Some("W")) - 0.6).abs() < 1e-9);
        assert!((helvetica.width(Some("中")) - 1.0).abs() < 1e-9);
        assert!((helvetica.width(None) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn code_splitting() {
        let mut font = Font::missing();
        font.scheme = CodeScheme::LeadByte(|b| b >= 0x81);
        font.fallback = Fallback::Legacy(encoding_rs::GB18030);
        let bytes = [0x41, 0xD6, 0xD0];
        let a = font.next_code(&bytes);
        assert_eq!((a.len, a.value), (1, 0x41));
        let zh = font.next_code(&bytes[1..]);
        assert_eq!(zh.len, 2);
        assert_eq!(font.text(zh).as_deref(), Some("中"));
        // A truncated two-byte code does not read past the end.
        let cut = font.next_code(&bytes[2..]);
        assert_eq!(cut.len, 1);
    }
}
