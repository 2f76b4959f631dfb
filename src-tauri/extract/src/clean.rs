//! Cleaning one paragraph as read from a document (every reader's blocks go through it in `finish`).

/// Clean one paragraph as read from a document: trim (including full-width indentation spaces) and turn
/// internal line breaks and tabs into single spaces. The result is the text Tongwen stores and reports; all
/// offsets into a paragraph refer to this text.
pub fn clean_paragraph(text: &str) -> String {
    let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    // One pass over the bytes: everything this removes is an ASCII control or a whole 3-byte character, so
    // the text between two of them is copied as a slice (most paragraphs are one slice).
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    let mut run = 0;
    let mut i = 0;
    while let Some(found) = find_byte(&b[i..], |x| {
        (x.wrapping_sub(0x09) < 5) | (x == 0xe2) | (x == 0xef)
    }) {
        i += found;
        let (skip, space) = match b[i] {
            b'\n' | b'\r' | b'\t' | 0x0b | 0x0c => (1, true),
            // U+FEFF and U+200B.
            0xef if b.get(i + 1..i + 3) == Some(&[0xbb, 0xbf]) => (3, false),
            0xe2 if b.get(i + 1..i + 3) == Some(&[0x80, 0x8b]) => (3, false),
            _ => {
                i += 1;
                continue;
            }
        };
        push_run(&mut out, &text[run..i], &mut pending_space);
        pending_space |= space;
        i += skip;
        run = i;
    }
    push_run(&mut out, &text[run..], &mut pending_space);
    out
}

/// Index of the first byte of `b` for which `hit` holds. Whole 32-byte chunks are tested without an
/// early exit, which the compiler turns into vector instructions; `hit` must be a pure byte test.
#[inline]
pub(crate) fn find_byte(b: &[u8], hit: impl Fn(u8) -> bool + Copy) -> Option<usize> {
    let mut start = 0;
    for chunk in b.chunks_exact(32) {
        if chunk.iter().fold(false, |any, &x| any | hit(x)) {
            break;
        }
        start += 32;
    }
    b[start..].iter().position(|&x| hit(x)).map(|p| start + p)
}

/// Append a run of kept text, preceded by the one space that stands for the line breaks and tabs before
/// it (none after a space).
fn push_run(out: &mut String, run: &str, pending_space: &mut bool) {
    if run.is_empty() {
        return;
    }
    if *pending_space && !out.ends_with(' ') {
        out.push(' ');
    }
    *pending_space = false;
    out.push_str(run);
}

/// Every string of up to `max_len` characters drawn from `alphabet` (for exhaustive tests of text scans).
#[cfg(test)]
pub(crate) fn all_strings(alphabet: &[char], max_len: u32) -> impl Iterator<Item = String> + '_ {
    let n = alphabet.len();
    (0..=max_len).flat_map(move |len| {
        (0..n.pow(len)).map(move |mut code| {
            let mut s = String::new();
            for _ in 0..len {
                s.push(alphabet[code % n]);
                code /= n;
            }
            s
        })
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

    #[test]
    fn find_byte_finds_the_first_hit_at_any_offset() {
        for len in [0, 1, 31, 32, 33, 64, 100] {
            assert_eq!(find_byte(&vec![b'a'; len], |x| x == b'\n'), None);
            for first in 0..len {
                let mut b = vec![b'a'; len];
                for later in (first..len).step_by(7) {
                    b[later] = b'\n';
                }
                assert_eq!(find_byte(&b, |x| x == b'\n'), Some(first), "{len} {first}");
            }
        }
    }

    /// The character-by-character definition the byte scan must match.
    fn clean_reference(text: &str) -> String {
        let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        let mut out = String::new();
        let mut pending_space = false;
        for c in text.chars() {
            if c == '\u{feff}' || c == '\u{200b}' {
                continue;
            }
            if matches!(c, '\n' | '\r' | '\t' | '\u{000b}' | '\u{000c}') {
                pending_space = true;
                continue;
            }
            if pending_space && !out.ends_with(' ') {
                out.push(' ');
            }
            pending_space = false;
            out.push(c);
        }
        out
    }

    #[test]
    fn clean_paragraph_matches_the_character_rule() {
        // Every string of up to 4 characters over an alphabet of the cases that matter, then longer
        // pseudo-random ones.
        let alphabet = [
            'a', ' ', '\n', '\r', '\t', '\u{0b}', '\u{0c}', '\u{feff}', '\u{200b}', '\u{200c}',
            '\u{2028}', '\u{3000}', '软', '“', '…',
        ];
        let n = alphabet.len();
        let mut checked = 0;
        for s in all_strings(&alphabet, 4) {
            assert_eq!(clean_paragraph(&s), clean_reference(&s), "{s:?}");
            checked += 1;
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            let mut s = String::new();
            for _ in 0..(x % 40) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s.push(alphabet[(x % n as u64) as usize]);
            }
            assert_eq!(clean_paragraph(&s), clean_reference(&s), "{s:?}");
            checked += 1;
        }
        assert!(checked > 50_000);
    }
}
