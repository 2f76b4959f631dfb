//! Plain-text files: encoding detection, decoding and paragraph splitting.
//!
//! How the encoding is chosen, in order:
//!
//! 1. An encoding given by the caller (`--encoding`) wins; a byte-order mark of that same encoding is
//!    dropped.
//! 2. A byte-order mark: UTF-8, UTF-16LE, UTF-16BE.
//! 3. UTF-16 without a BOM, recognised in the first 64 KiB by its NUL bytes (the high bytes of ASCII
//!    characters): at least 0.5% of the bytes, 90% of them at odd offsets (UTF-16LE) or at even ones
//!    (UTF-16BE), and the text decoded that way plausible (at most 2% errors, controls or private-use
//!    characters).
//! 4. Otherwise the file is refused as binary when more than 1% of its bytes (and at least four) are
//!    control characters (NUL, BEL, …; tabs, line and page breaks, backspace, ESC and Ctrl-Z are text).
//!    Trailing NUL padding is ignored.
//! 5. Valid UTF-8 (ASCII included) is UTF-8. UTF-8 with at most two errors plus one per thousand
//!    non-ASCII characters (damaged bytes) in a text of at least 100 non-ASCII characters is read as
//!    UTF-8 with U+FFFD in the damaged places.
//! 6. Otherwise `chardetng` guesses (GBK is read as its superset GB18030). chardetng rules an encoding
//!    out at its first error, so when it guesses a single-byte encoding, GB18030 and Big5 are preferred
//!    if at least 80% of the double-byte characters fall in their common-character areas and the text
//!    decodes with that tolerance. When the guess does not decode cleanly, it (if multi-byte), GB18030
//!    and then Big5 are tried with that tolerance.
//!
//! A decoder error in the last character of the file (a truncated file) is always tolerated. Text that
//! cannot be decoded gives [`ExtractError::UnknownEncoding`] (detected) or [`ExtractError::Malformed`]
//! (given by a BOM or by the caller). The encoding is reported by its WHATWG name (`UTF-8`, `gb18030`,
//! `Big5`, `UTF-16LE`, …).
//!
//! Decoded text keeps the file's characters except for stray C0 control characters, which are dropped,
//! and backspace overstrikes (`N\bN`, `_\bN` from `man` pages), which are resolved to the character
//! shown. Paragraphs are then cut by [`super::split_plain_text`]. Memory stays linear: the file, one
//! decoded copy and the paragraphs.

use std::borrow::Cow;

use encoding_rs::{DecoderResult, Encoding, BIG5, GB18030, GBK, UTF_16BE, UTF_16LE, UTF_8};

use super::{Block, ExtractError};

/// How many bytes of a file are examined to tell UTF-16 without a BOM from binary data.
const UTF16_SNIFF_BYTES: usize = 64 * 1024;

/// Decode `bytes` and split them into paragraphs. Returns the encoding's name and the paragraphs.
pub fn extract(
    bytes: &[u8],
    encoding: Option<&'static Encoding>,
) -> Result<(&'static str, Vec<Block>), ExtractError> {
    let (encoding, text) = decode(bytes, encoding)?;
    let text = clean_controls(text);
    let paragraphs = super::split_plain_text(&text);
    drop(text);
    Ok((
        encoding.name(),
        paragraphs.into_iter().map(Block::body).collect(),
    ))
}

/// The encoding for a `--encoding` value: any WHATWG label (`utf-8`, `gbk`, `gb2312`, `gb18030`, `big5`,
/// `utf-16le`, `utf-16be`, `shift_jis`, `windows-1252`, …) plus common aliases (`cp936`, `cp950`,
/// `utf16`, `ucs-2`, `utf-8-sig`, …). Case and surrounding spaces do not matter. GBK is decoded as its
/// superset GB18030 and reported as such.
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    let label = label.trim().to_ascii_lowercase();
    let alias = match label.as_str() {
        "cp936" | "ms936" | "windows-936" | "936" => "gbk",
        "gb-18030" | "gb_18030" | "cp54936" | "windows-54936" => "gb18030",
        "cp950" | "ms950" | "windows-950" | "950" | "big5hkscs" | "big5_hkscs" => "big5",
        "utf16" | "utf16le" | "utf-16-le" | "utf_16_le" | "utf_16le" | "ucs2" | "ucs-2le" => {
            "utf-16le"
        }
        "utf16be" | "utf-16-be" | "utf_16_be" | "utf_16be" | "ucs-2be" => "utf-16be",
        "utf8" | "utf_8" | "utf-8-sig" | "utf8-sig" | "utf_8_sig" | "cp65001" => "utf-8",
        "sjis" | "shift-jis" | "cp932" | "ms932" => "shift_jis",
        "cp949" | "uhc" => "euc-kr",
        "latin-1" | "latin_1" => "latin1",
        other => other,
    };
    Encoding::for_label_no_replacement(alias.as_bytes())
        .or_else(|| Encoding::for_label_no_replacement(alias.replace('_', "-").as_bytes()))
}

/// GBK's decoder is GB18030's; report the superset.
fn canonical(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == GBK {
        GB18030
    } else {
        encoding
    }
}

/// Pick the encoding and decode.
fn decode<'a>(
    bytes: &'a [u8],
    forced: Option<&'static Encoding>,
) -> Result<(&'static Encoding, Cow<'a, str>), ExtractError> {
    if let Some(encoding) = forced {
        let encoding = canonical(encoding);
        let body = match Encoding::for_bom(bytes) {
            Some((bom_encoding, len)) if canonical(bom_encoding) == encoding => &bytes[len..],
            _ => bytes,
        };
        return decode_known(encoding, body);
    }
    if let Some((encoding, len)) = Encoding::for_bom(bytes) {
        return decode_known(encoding, &bytes[len..]);
    }
    if bytes.contains(&0) {
        if let Some(encoding) = sniff_utf16(bytes) {
            return decode_known(encoding, bytes);
        }
    }
    let body = trim_nul_padding(bytes);
    if too_many_controls(bad_control_bytes(body), body.len()) {
        return Err(ExtractError::Binary);
    }
    if let Ok(text) = simdutf8::basic::from_utf8(body) {
        return Ok((UTF_8, Cow::Borrowed(text)));
    }
    if let Some(utf8) = Decoded::new(UTF_8, body, error_budget(body)) {
        if utf8.nearly_fits() {
            return Ok((UTF_8, Cow::Owned(utf8.text)));
        }
    }

    // Fed as unfinished so that a character cut off at the end does not rule the right encoding out.
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(body, false);
    let guess = canonical(detector.guess(None, chardetng::Utf8Detection::Deny));
    if guess.is_single_byte() {
        // chardetng rules an encoding out at its first error, so one damaged byte in a Chinese file
        // makes it guess a Western encoding. Prefer GB18030 or Big5 when nearly all double-byte
        // characters fall in the common-character area and the text nearly decodes.
        for (encoding, common) in [
            (GB18030, gb2312_share as fn(&[u8]) -> f64),
            (BIG5, big5_share),
        ] {
            if common(body) >= 0.8 {
                if let Some(decoded) = Decoded::new(encoding, body, error_budget(body)) {
                    if decoded.nearly_fits() {
                        return Ok((encoding, Cow::Owned(decoded.text)));
                    }
                }
            }
        }
    }
    // At most one error: a character cut off at the end.
    if let Some(decoded) = Decoded::new(guess, body, 1) {
        if decoded.errors() == 0 {
            return Ok((guess, Cow::Owned(decoded.text)));
        }
    }
    // Damaged text: the guess again (unless single-byte: a single-byte guess that fails is simply wrong),
    // then GB18030 and Big5, each with the tolerance for a few damaged characters.
    let mut candidates = Vec::with_capacity(3);
    if !guess.is_single_byte() {
        candidates.push(guess);
    }
    for encoding in [GB18030, BIG5] {
        if !candidates.contains(&encoding) {
            candidates.push(encoding);
        }
    }
    for encoding in candidates {
        if let Some(decoded) = Decoded::new(encoding, body, error_budget(body)) {
            if decoded.nearly_fits() {
                return Ok((encoding, Cow::Owned(decoded.text)));
            }
        }
    }
    Err(ExtractError::UnknownEncoding)
}

/// The most decoding errors any text of this size may have and still be accepted (see
/// [`Decoded::tolerable`] and [`Decoded::nearly_fits`]); decoding stops early beyond it.
fn error_budget(bytes: &[u8]) -> usize {
    3 + bytes.len() / 1000
}

/// Decode with an encoding that is not in doubt (given by the caller, a BOM or the UTF-16 sniffer).
fn decode_known<'a>(
    encoding: &'static Encoding,
    body: &'a [u8],
) -> Result<(&'static Encoding, Cow<'a, str>), ExtractError> {
    let valid_utf8 = if encoding == UTF_8 {
        simdutf8::basic::from_utf8(body).ok()
    } else {
        None
    };
    let text = match valid_utf8 {
        Some(text) => Cow::Borrowed(text),
        None => match Decoded::new(encoding, body, error_budget(body)) {
            Some(decoded) if decoded.tolerable() => Cow::Owned(decoded.text),
            _ => {
                return Err(ExtractError::Malformed {
                    encoding: encoding.name(),
                })
            }
        },
    };
    if too_many_controls(bad_control_count(text.chars()), text.chars().count()) {
        return Err(ExtractError::Binary);
    }
    Ok((encoding, text))
}

/// A decoding with its errors counted (each error became one U+FFFD).
struct Decoded {
    text: String,
    errors: usize,
    /// The last error was an incomplete character at the very end of the input.
    truncated_end: bool,
}

impl Decoded {
    /// Decode `bytes`; `None` as soon as there are more than `max_errors` errors. Decodes through a small
    /// buffer: encoding_rs's `decode_to_string*` touches every page of the string's spare capacity on
    /// each call, which is quadratic when errors make it return often.
    fn new(encoding: &'static Encoding, bytes: &[u8], max_errors: usize) -> Option<Self> {
        let mut decoder = encoding.new_decoder_without_bom_handling();
        let mut text = String::with_capacity(bytes.len() + bytes.len() / 2);
        let mut buf = vec![0u8; 64 * 1024];
        let mut pos = 0;
        let mut errors = 0;
        let mut truncated_end = false;
        loop {
            let (result, read, written) =
                decoder.decode_to_utf8_without_replacement(&bytes[pos..], &mut buf, true);
            pos += read;
            // encoding_rs writes valid UTF-8; a failure here would be its bug, counted as an error.
            match std::str::from_utf8(&buf[..written]) {
                Ok(s) => text.push_str(s),
                Err(_) => errors += 1,
            }
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::OutputFull => {}
                DecoderResult::Malformed(_, _) => {
                    errors += 1;
                    if errors > max_errors {
                        return None;
                    }
                    truncated_end = pos == bytes.len();
                    text.push('\u{fffd}');
                }
            }
        }
        text.shrink_to_fit();
        Some(Decoded {
            text,
            errors,
            truncated_end,
        })
    }

    /// Errors other than a character cut off at the end of the file.
    fn errors(&self) -> usize {
        self.errors - usize::from(self.truncated_end)
    }

    /// Few enough errors for text whose encoding is known: two, plus one per thousand characters.
    fn tolerable(&self) -> bool {
        let errors = self.errors();
        errors == 0 || errors <= 2 + self.text.chars().count() / 1000
    }

    /// Few enough errors to believe a guessed multi-byte encoding: two, plus one per thousand non-ASCII
    /// characters, in a text of at least 100 non-ASCII characters (text in another encoding gives errors
    /// at a far higher rate).
    fn nearly_fits(&self) -> bool {
        let errors = self.errors();
        let non_ascii = self
            .text
            .chars()
            .filter(|&c| !c.is_ascii() && c != '\u{fffd}')
            .count();
        (errors == 0 && non_ascii > 0) || (non_ascii >= 100 && errors <= 2 + non_ascii / 1000)
    }
}

/// Share of GB18030 double-byte characters that lie in the GB2312 area (symbols and the 6,763 common
/// hanzi). Western text read as GB18030 pairs an accented letter with an ASCII byte, outside that area.
fn gb2312_share(bytes: &[u8]) -> f64 {
    let (mut common, mut total) = (0usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        if lead < 0x80 {
            i += 1;
            continue;
        }
        total += 1;
        match bytes.get(i + 1) {
            Some(0x30..=0x39) => i += 4,
            Some(&trail) => {
                if (0xa1..=0xf7).contains(&lead) && (0xa1..=0xfe).contains(&trail) {
                    common += 1;
                }
                i += 2;
            }
            None => i += 1,
        }
    }
    share(common, total)
}

/// Share of Big5 double-byte characters among symbols and frequently used characters (lead bytes
/// 0xA1–0xC6).
fn big5_share(bytes: &[u8]) -> f64 {
    let (mut common, mut total) = (0usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        if lead < 0x80 {
            i += 1;
            continue;
        }
        total += 1;
        match bytes.get(i + 1) {
            Some(&trail) => {
                if (0xa1..=0xc6).contains(&lead)
                    && ((0x40..=0x7e).contains(&trail) || (0xa1..=0xfe).contains(&trail))
                {
                    common += 1;
                }
                i += 2;
            }
            None => i += 1,
        }
    }
    share(common, total)
}

fn share(part: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        part as f64 / total as f64
    }
}

/// Files padded with NUL bytes (preallocated, or cut short by a crash) are text up to the padding.
fn trim_nul_padding(bytes: &[u8]) -> &[u8] {
    let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    &bytes[..end]
}

/// Control characters that do not occur in text. Tab, line and page breaks, backspace (overstrike),
/// ESC (terminal colours) and Ctrl-Z (old end-of-file marker) do; so do C1 controls in decoded text.
fn is_bad_control(c: char) -> bool {
    match c {
        '\t' | '\n' | '\r' | '\u{0b}' | '\u{0c}' | '\u{08}' | '\u{1a}' | '\u{1b}' => false,
        c => c < ' ' || c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c),
    }
}

/// Binary: more than 1% control characters (and more than a handful).
fn too_many_controls(bad: usize, total: usize) -> bool {
    bad >= 4 && bad * 100 > total
}

/// [`bad_control_count`] of the bytes read as Latin-1, without a branch per byte.
fn bad_control_bytes(bytes: &[u8]) -> usize {
    static BAD: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut b = 0;
        while b < 0x20 {
            t[b] = !matches!(b, 0x09..=0x0d | 0x08 | 0x1a | 0x1b) as u8;
            b += 1;
        }
        t
    };
    bytes
        .iter()
        .map(|&b| usize::from(BAD[usize::from(b)]))
        .sum()
}

fn bad_control_count(chars: impl Iterator<Item = char>) -> usize {
    chars.filter(|&c| c < ' ' && is_bad_control(c)).count()
}

/// Guess UTF-16 without a BOM from the first bytes. ASCII characters in UTF-16 have a NUL high byte:
/// at odd offsets in UTF-16LE, at even ones in UTF-16BE. The NUL bytes (at least 0.5% of the sample)
/// must sit at least 90% on one side, and the text decoded that way must be plausible: at most 2% errors,
/// control characters or private-use characters.
fn sniff_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(UTF16_SNIFF_BYTES) & !1];
    let (mut even, mut odd) = (0usize, 0usize);
    for pair in sample.chunks_exact(2) {
        even += usize::from(pair[0] == 0);
        odd += usize::from(pair[1] == 0);
    }
    let nuls = even + odd;
    if nuls == 0 || nuls * 200 < sample.len() {
        return None;
    }
    let encoding = if odd * 10 >= nuls * 9 {
        UTF_16LE
    } else if even * 10 >= nuls * 9 {
        UTF_16BE
    } else {
        return None;
    };
    let decoded = Decoded::new(encoding, sample, sample.len())?;
    let mut total = 0usize;
    let mut bad = decoded.errors;
    for c in decoded.text.chars() {
        total += 1;
        if is_bad_control(c)
            || ('\u{e000}'..='\u{f8ff}').contains(&c)
            || matches!(c, '\u{fffe}' | '\u{ffff}')
        {
            bad += 1;
        }
    }
    (bad * 50 <= total).then_some(encoding)
}

/// Drop stray control characters and resolve backspace overstrikes (`N\bN` and `_\bN` show `N`).
fn clean_controls(text: Cow<'_, str>) -> Cow<'_, str> {
    // Bytes first: every character handled below is a byte below 0x20 other than a line or page break
    // or tab, DEL, or a C1 control (UTF-8 0xC2 0x80..=0x9F).
    let suspect = |b: u8| {
        (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)) || b == 0x7f || b == 0xc2
    };
    // Or-ed over blocks of 64 bytes, so the scan has no branch per byte.
    if !text
        .as_bytes()
        .chunks(64)
        .any(|block| block.iter().fold(false, |a, &b| a | suspect(b)))
        || !text.chars().any(|c| c == '\u{08}' || is_bad_control(c))
    {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\u{08}' {
            if out.chars().next_back().is_some_and(|p| p != '\n') {
                out.pop();
            }
        } else if !is_bad_control(c) {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(blocks: &[Block]) -> Vec<&str> {
        blocks.iter().map(|b| b.text.as_str()).collect()
    }

    fn utf16le(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    fn utf16be(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_be_bytes).collect()
    }

    const ZH: &str = "自由软件是指尊重用户和社区自由的软件。\n\n粗略地讲，就是用户可以自由运行、复制、分发、学习、修改和改进该软件。\n";
    const EN: &str = "Free software means software that respects users' freedom.\n\nRoughly, it means that users may run, copy, distribute, study, change and improve it.\n";

    #[test]
    fn control_byte_count_agrees_with_the_character_rule() {
        let bytes: Vec<u8> = (0..=255u8)
            .chain(b"text\x01\x1f\t\n".iter().copied())
            .collect();
        assert_eq!(
            bad_control_bytes(&bytes),
            bad_control_count(bytes.iter().map(|&b| char::from(b)))
        );
        assert_eq!(
            bad_control_bytes(&bytes),
            24 + 2,
            "0x00-0x1f less the 8 allowed"
        );
    }

    #[test]
    fn utf8_with_and_without_bom() {
        let (enc, blocks) = extract(ZH.as_bytes(), None).unwrap();
        assert_eq!(enc, "UTF-8");
        assert_eq!(blocks.len(), 2);
        let mut bom = b"\xef\xbb\xbf".to_vec();
        bom.extend_from_slice(ZH.replace('\n', "\r\n").as_bytes());
        let (enc, bom_blocks) = extract(&bom, None).unwrap();
        assert_eq!(enc, "UTF-8");
        assert_eq!(bom_blocks, blocks);
        assert!(!bom_blocks[0].text.starts_with('\u{feff}'));
    }

    #[test]
    fn utf16_with_bom() {
        let mut le = vec![0xff, 0xfe];
        le.extend(utf16le(ZH));
        let (enc, blocks) = extract(&le, None).unwrap();
        assert_eq!(enc, "UTF-16LE");
        assert_eq!(texts(&blocks)[0], "自由软件是指尊重用户和社区自由的软件。");
        let mut be = vec![0xfe, 0xff];
        be.extend(utf16be(EN));
        let (enc, blocks) = extract(&be, None).unwrap();
        assert_eq!(enc, "UTF-16BE");
        assert_eq!(blocks.len(), 2);
    }

    #[test]
    fn utf16_without_bom() {
        for text in [ZH, EN] {
            let (enc, blocks) = extract(&utf16le(text), None).unwrap();
            assert_eq!(enc, "UTF-16LE");
            assert_eq!(blocks.len(), 2);
            let (enc, blocks2) = extract(&utf16be(text), None).unwrap();
            assert_eq!(enc, "UTF-16BE");
            assert_eq!(blocks2, blocks);
        }
    }

    #[test]
    fn gb18030_gbk_and_big5_are_detected() {
        let (gb, _, _) = GB18030.encode(ZH);
        let (enc, blocks) = extract(&gb, None).unwrap();
        assert_eq!(enc, "gb18030");
        assert_eq!(
            texts(&blocks)[1],
            "粗略地讲，就是用户可以自由运行、复制、分发、学习、修改和改进该软件。"
        );
        let tw = "自由軟體是指尊重使用者和社群自由的軟體。\n\n粗略地講，就是使用者可以自由執行、複製、散布、學習、修改和改進該軟體。\n";
        let (big5, _, had_errors) = BIG5.encode(tw);
        assert!(!had_errors);
        let (enc, blocks) = extract(&big5, None).unwrap();
        assert_eq!(enc, "Big5");
        assert_eq!(
            texts(&blocks)[0],
            "自由軟體是指尊重使用者和社群自由的軟體。"
        );
    }

    #[test]
    fn explicit_encoding_wins() {
        let (gb, _, _) = GB18030.encode(ZH);
        let (enc, blocks) = extract(&gb, encoding_for_label("gbk")).unwrap();
        assert_eq!(enc, "gb18030");
        assert_eq!(blocks.len(), 2);
        // Forcing UTF-8 on GB18030 bytes is refused rather than garbled.
        assert!(matches!(
            extract(&gb, Some(UTF_8)),
            Err(ExtractError::Malformed { encoding: "UTF-8" })
        ));
        // Forcing Latin-1 on UTF-8 is obeyed.
        let (enc, _) = extract("café\n".as_bytes(), encoding_for_label("latin1")).unwrap();
        assert_eq!(enc, "windows-1252");
    }

    #[test]
    fn labels() {
        for (label, name) in [
            ("UTF-8", "UTF-8"),
            ("utf8", "UTF-8"),
            ("utf-8-sig", "UTF-8"),
            ("gbk", "GBK"),
            ("GB2312", "GBK"),
            ("cp936", "GBK"),
            ("gb18030", "gb18030"),
            ("big5", "Big5"),
            ("cp950", "Big5"),
            ("utf-16le", "UTF-16LE"),
            ("utf-16", "UTF-16LE"),
            ("UTF-16BE", "UTF-16BE"),
            ("utf_16_be", "UTF-16BE"),
            (" Shift_JIS ", "Shift_JIS"),
            ("latin1", "windows-1252"),
        ] {
            assert_eq!(
                encoding_for_label(label).map(Encoding::name),
                Some(name),
                "{label}"
            );
        }
        assert_eq!(encoding_for_label("klingon"), None);
        assert_eq!(encoding_for_label("iso-2022-kr"), None);
    }

    #[test]
    fn binary_is_refused() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend((0..4000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
        assert!(matches!(extract(&png, None), Err(ExtractError::Binary)));
        let elf: Vec<u8> = b"\x7fELF\x02\x01\x01"
            .iter()
            .copied()
            .chain(std::iter::repeat_n(0u8, 100))
            .chain(b"some text".iter().copied())
            .chain(std::iter::repeat_n(1u8, 10))
            .collect();
        assert!(matches!(extract(&elf, None), Err(ExtractError::Binary)));
        // Control characters without NUL bytes.
        let ctl: Vec<u8> = (0..2000u32).map(|i| (i % 40) as u8 + 1).collect();
        assert!(matches!(extract(&ctl, None), Err(ExtractError::Binary)));
    }

    #[test]
    fn nul_padding_and_stray_controls_are_tolerated() {
        let mut padded = EN.as_bytes().to_vec();
        padded.extend(std::iter::repeat_n(0u8, 300));
        let (enc, blocks) = extract(&padded, None).unwrap();
        assert_eq!(enc, "UTF-8");
        assert_eq!(blocks.len(), 2);
        let (_, blocks) =
            extract("a stray\u{7}bell in a line of text.\n".as_bytes(), None).unwrap();
        assert_eq!(texts(&blocks), vec!["a straybell in a line of text."]);
    }

    #[test]
    fn a_stray_nul_does_not_make_utf16() {
        let mut text = EN.repeat(5).into_bytes();
        text[40] = 0;
        let (enc, blocks) = extract(&text, None).unwrap();
        assert_eq!(enc, "UTF-8");
        assert_eq!(blocks.len(), 10);
    }

    #[test]
    fn overstrike_is_resolved() {
        let man = "N\u{8}NA\u{8}AM\u{8}ME\u{8}E\n\n_\u{8}l_\u{8}s lists files.\n";
        let (_, blocks) = extract(man.as_bytes(), None).unwrap();
        assert_eq!(texts(&blocks), vec!["NAME", "ls lists files."]);
    }

    #[test]
    fn damaged_text_is_tolerated_or_refused() {
        // A character cut in half at the end of a GB18030 file.
        let (gb, _, _) = GB18030.encode(ZH.trim_end());
        let cut = &gb[..gb.len() - 1];
        let (enc, blocks) = extract(cut, None).unwrap();
        assert_eq!(enc, "gb18030");
        assert!(blocks[1].text.starts_with("粗略地讲"));
        // One bad byte in the middle of a GB18030 file.
        let long_zh = ZH.repeat(20);
        let (gb, _, _) = GB18030.encode(&long_zh);
        let mut damaged = gb.into_owned();
        damaged[300] = 0xff;
        assert_eq!(extract(&damaged, None).unwrap().0, "gb18030");
        // Western text is not mistaken for damaged Chinese.
        let (latin, _, _) = encoding_rs::WINDOWS_1252
            .encode("Der Müller läuft über die Straße. Größe und Maß sind wichtig für Bäcker.\n");
        assert_eq!(extract(&latin, None).unwrap().0, "windows-1252");
        // One bad byte in a long UTF-8 text.
        let mut long = ZH.repeat(100).into_bytes();
        long[500] = 0xff;
        let (enc, _) = extract(&long, None).unwrap();
        assert_eq!(enc, "UTF-8");
        // UTF-8 cut in the middle of its last character.
        let cut = &ZH.as_bytes()[..ZH.len() - 2];
        assert_eq!(extract(cut, None).unwrap().0, "UTF-8");
        // A UTF-16LE BOM followed by unpaired surrogates.
        let mut junk = vec![0xff, 0xfe];
        junk.extend([0x00, 0xd8, 0x41, 0x00].repeat(10));
        assert!(matches!(
            extract(&junk, None),
            Err(ExtractError::Malformed {
                encoding: "UTF-16LE"
            })
        ));
    }

    fn fixture(name: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/txt")
            .join(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The files of `tests/fixtures/txt/` (see its README.md), through the whole extraction pipeline.
    #[test]
    fn fixtures() {
        let read = |name: &str| {
            crate::extract_bytes(
                &fixture(name),
                Some("txt"),
                &crate::ExtractOptions::default(),
            )
        };
        let zh0 = "自由软件是指尊重用户和社区自由的软件。粗略地讲，就是用户可以自由运行、复制、分发、学习、修改和改进该软件。";
        for (name, encoding, count, first) in [
            ("utf8-bom-crlf.txt", "UTF-8", 3, zh0),
            ("gb18030.txt", "gb18030", 3, zh0),
            ("big5.txt", "Big5", 2, "自由軟體是指尊重使用者和社群自由的軟體。粗略地講，就是使用者可以自由執行、複製、散布、學習、修改和改進該軟體。"),
            ("utf16le-bom.txt", "UTF-16LE", 3, zh0),
            ("utf16be-nobom.txt", "UTF-16BE", 2, "The Debian Free Software Guidelines are a set of rules that decide whether a piece of software can be included in the main archive of the distribution. They were written in 1997 and have hardly changed since, although their interpretation has been refined in many long discussions on the mailing lists."),
            ("windows-1252.txt", "windows-1252", 1, "Der Müller läuft über die Straße. Größe und Maß sind wichtig für Bäcker und Köche."),
            ("wrapped-en.txt", "UTF-8", 2, "The Debian Free Software Guidelines are a set of rules that decide whether a piece of software can be included in the main archive of the distribution. They were written in 1997 and have hardly changed since, although their interpretation has been refined in many long discussions on the mailing lists."),
            ("wrapped-zh.txt", "UTF-8", 2, zh0),
            ("gb18030-damaged.txt", "gb18030", 30, zh0),
        ] {
            let extracted = read(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(extracted.encoding, Some(encoding), "{name}");
            assert_eq!(extracted.paragraphs.len(), count, "{name}");
            assert_eq!(extracted.paragraphs[0].text, first, "{name}");
        }
        let wrapped = read("wrapped-en.txt").expect("wrapped-en");
        assert!(wrapped.paragraphs[1]
            .text
            .ends_with("not part of the distribution proper."));
        let gb = read("gb18030.txt").expect("gb18030");
        assert_eq!(gb.paragraphs[2].text, "扩展汉字如㐀与䶵也应当正确解码。");
        let damaged = read("gb18030-damaged.txt").expect("damaged");
        let replaced: usize = damaged
            .paragraphs
            .iter()
            .map(|p| p.text.matches('\u{fffd}').count())
            .sum();
        assert_eq!(replaced, 1);
        assert!(matches!(read("binary.txt"), Err(ExtractError::Binary)));
    }

    #[test]
    fn ascii_only_is_utf8() {
        let (enc, blocks) = extract(EN.as_bytes(), None).unwrap();
        assert_eq!(enc, "UTF-8");
        assert_eq!(blocks.len(), 2);
    }
}

/// Peak-memory check on a large file: `TONGWEN_BIG_TXT=/path/file.txt cargo test -p tongwen-engine --lib
/// -- --ignored big_file`, or run the test binary under `/usr/bin/time -v`.
#[cfg(test)]
mod big_file_tests {
    #[test]
    #[ignore = "needs TONGWEN_BIG_TXT"]
    fn big_file() {
        let Some(path) = std::env::var_os("TONGWEN_BIG_TXT") else {
            return;
        };
        let start = std::time::Instant::now();
        let bytes = std::fs::read(&path).expect("TONGWEN_BIG_TXT");
        let extracted =
            crate::extract_bytes(&bytes, Some("txt"), &crate::ExtractOptions::default())
                .expect("extract");
        eprintln!(
            "{} bytes, {:?}, {} paragraphs in {:?}",
            bytes.len(),
            extracted.encoding,
            extracted.paragraphs.len(),
            start.elapsed()
        );
    }
}
