//! Joining the lines of a paragraph: which space (if any) stands at a line break, and hyphens kept or
//! dropped by the document's own vocabulary.

use std::collections::HashSet;

use super::lines::{is_opening, no_line_start, Line, PageLines};
use super::metrics::Metrics;
use crate::pdf::glyphs::is_wide;

/// Words and spacing habits of the document, to decide how to join lines: whether a line-end hyphen is
/// hyphenation, whether a CJK character and a Latin word at a line break were spaced.
#[derive(Default)]
pub(super) struct Vocabulary {
    pub(super) words: HashSet<String>,
    pub(super) compounds: HashSet<String>,
    /// Whether the typesetter hyphenates: the text is justified and at least one line-end hyphen splits
    /// a word the document also spells whole. A word processor that does not hyphenate (LibreOffice and
    /// Word by default) justifies too, and its line-end hyphens are real (`apt-listchanges`).
    pub(super) justified: bool,
    /// Whether the document puts a space between CJK characters and Latin letters or digits within its
    /// lines at least as often as not (or has no such pairs).
    pub(super) cjk_latin_spaced: bool,
}

impl Vocabulary {
    pub(super) fn build(pages: &[PageLines], justified: bool) -> Vocabulary {
        let mut vocab = Vocabulary {
            justified,
            ..Vocabulary::default()
        };
        let (mut spaced, mut unspaced) = (0usize, 0usize);
        for line in pages.iter().flat_map(|p| p.lines.iter()) {
            let chars: Vec<char> = line.text.chars().collect();
            for (i, pair) in chars.windows(2).enumerate() {
                let &[a, b] = pair else { continue };
                if cjk_latin_pair(a, b) {
                    unspaced += 1;
                } else if b == ' ' && chars.get(i + 2).is_some_and(|&c| cjk_latin_pair(a, c)) {
                    spaced += 1;
                }
            }
            for token in line.text.split(|c: char| c.is_whitespace()) {
                let token = token.trim_matches(|c: char| !c.is_alphabetic());
                if token.is_empty() {
                    continue;
                }
                if token.contains('-') && !token.ends_with('-') {
                    vocab.compounds.insert(token.to_lowercase());
                }
                for word in token
                    .split(|c: char| !c.is_alphabetic())
                    .filter(|w| !w.is_empty())
                {
                    vocab.words.insert(word.to_lowercase());
                }
            }
        }
        vocab.cjk_latin_spaced = spaced >= unspaced;
        vocab.justified = justified && vocab.hyphenation_evidence(pages);
        vocab
    }

    /// Whether some line ends in a hyphen that splits a word the document spells whole elsewhere.
    pub(super) fn hyphenation_evidence(&self, pages: &[PageLines]) -> bool {
        pages.iter().any(|page| {
            page.lines.windows(2).any(|pair| {
                let [a, b] = pair else { return false };
                let Some(head) = a.text.strip_suffix('-') else {
                    return false;
                };
                let joined = crate::paragraphs::rejoined(head, &b.text);
                head.ends_with(char::is_alphabetic)
                    && b.text.starts_with(char::is_lowercase)
                    && self.words.contains(&joined.to_lowercase())
            })
        })
    }
}

/// A CJK character (not punctuation) next to a Latin letter or digit, either way round.
pub(super) fn cjk_latin_pair(a: char, b: char) -> bool {
    let cjk = |c: char| is_wide(c) && c.is_alphabetic();
    let latin = |c: char| c.is_ascii_alphanumeric();
    (cjk(a) && latin(b)) || (latin(a) && cjk(b))
}

/// What the page shows between two lines of a paragraph, where the text may have had spaces.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum BreakSpace {
    /// The spaces the document draws there: at the end of the first line or the start of the next.
    Drawn(String),
    /// None drawn where the document would have drawn one: it draws the spaces at its line ends, and
    /// one (as wide as the line's font sets it, with some room to spare) would have fitted between the
    /// first line and the right margin. The text had no space there.
    Absent,
    /// None drawn, and the page does not say whether the text had one (the document does not draw its
    /// line-end spaces, or one would not have fitted before the margin, where word processors leave
    /// it out).
    Unknown,
}

impl BreakSpace {
    /// The break between line `a`, whose column ends at `right`, and line `b`.
    pub(super) fn between(metrics: &Metrics, right: f64, a: &Line, b: &Line) -> BreakSpace {
        let drawn = format!("{}{}", a.trailing, b.leading);
        if !drawn.is_empty() {
            BreakSpace::Drawn(drawn)
        } else if metrics.draws_line_end_spaces && right - a.x1 >= a.space + 0.1 * a.size {
            BreakSpace::Absent
        } else {
            BreakSpace::Unknown
        }
    }
}

/// Append a line to a paragraph. `space` is what the page shows at the break.
pub(super) fn join(para: &mut String, line: &str, space: &BreakSpace, vocab: &Vocabulary) {
    let line = line.trim_start();
    let trimmed_len = para.trim_end().len();
    para.truncate(trimmed_len);
    if let BreakSpace::Drawn(spaces) = space {
        // After a hyphen too: a hyphen followed by a space does not split a word.
        para.push_str(spaces);
        para.push_str(line);
        return;
    }
    let mut tail = para.chars().rev();
    let (Some(a), Some(b)) = (tail.next(), line.chars().next()) else {
        para.push_str(line);
        return;
    };
    let before = tail.next();
    if a == '\u{AD}' {
        para.pop();
        para.push_str(line);
        return;
    }
    // A break right after a hyphen that does not join two words (`--option`), where the text had no
    // space: nothing to undo, and no space.
    if matches!(a, '-' | '\u{2010}')
        && !before.is_some_and(char::is_alphanumeric)
        && b.is_alphanumeric()
        && *space == BreakSpace::Absent
    {
        para.push_str(line);
        return;
    }
    if matches!(a, '-' | '\u{2010}')
        && before.is_some_and(char::is_alphanumeric)
        && b.is_alphanumeric()
    {
        if before.is_some_and(char::is_alphabetic) && b.is_alphabetic() {
            let head: String = para
                .chars()
                .rev()
                .skip(1)
                .take_while(|c| c.is_alphabetic())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let rest: String = line.chars().take_while(|c| c.is_alphabetic()).collect();
            let joined = format!("{head}{rest}").to_lowercase();
            let compound = format!("{head}-{rest}").to_lowercase();
            // Hyphenation when the document spells the word whole elsewhere, or, in justified text
            // (where typesetters hyphenate), when a lower-case word is split; a compound the document
            // spells with its hyphen keeps it.
            let lower = |s: &str| s.chars().all(char::is_lowercase);
            let split_word =
                vocab.words.contains(&joined) || (vocab.justified && lower(&head) && lower(&rest));
            if split_word && !vocab.compounds.contains(&compound) {
                para.pop();
            }
        }
        para.push_str(line);
        return;
    }
    let spaced = match (is_wide(a), is_wide(b)) {
        // CJK text breaks between any two characters.
        (true, true) => false,
        // Between a CJK character and a Latin word, when the page does not show whether there was a
        // space ("中文 English" wrapped at its space ends the line without one): as the document sets
        // such pairs within its lines. Not next to CJK punctuation, nor between a word and the
        // punctuation that holds on to it.
        (true, false) => {
            *space == BreakSpace::Unknown
                && vocab.cjk_latin_spaced
                && a.is_alphabetic()
                && !no_line_start(b)
        }
        (false, true) => {
            *space == BreakSpace::Unknown
                && vocab.cjk_latin_spaced
                && b.is_alphabetic()
                && !is_opening(a)
        }
        (false, false) => true,
    };
    if spaced {
        para.push(' ');
    }
    para.push_str(line);
}
