//! Layout: turns placed glyphs into lines, drops running headers, footers and page numbers, and rebuilds
//! paragraphs from the geometry of the lines.
//!
//! A paragraph ends where a line stops clearly short of the column's right margin (the next line's first
//! word would have fitted), where the gap to the next line is larger than the normal line spacing, where
//! the left edge moves (a first-line indent or an outdent), or where the font size changes. A paragraph
//! runs on across a page (or column) break when the last line before the break reaches the margin and the
//! first line after it is not indented (and the page was full). Footnotes are set aside so they do not
//! cut such a paragraph.
//!
//! Spaces the document draws as glyphs are text, as many as it draws, wherever they are; where it draws
//! none, the gap between two glyphs decides. Lines are joined with the spaces drawn at the break. Word
//! processors draw a line-end space when it fits before the margin, so where none is drawn although one
//! would have fitted, the text had none. Otherwise lines are joined with a space between words, none
//! between CJK characters, and between CJK and Latin text as the document spaces them within its lines;
//! a hyphen at a line end is kept (as in `dpkg-buildpackage`) unless the document spells the joined word
//! without it elsewhere, or the text is justified and the hyphen splits a lower-case word (`exam-ple`).

use std::collections::{HashMap, HashSet};

use super::content::{is_bad_char, Glyph, PageText};
pub(super) use super::glyphs::is_wide;
use crate::{Block, BlockKind};

/// Glyphs further apart than this many font sizes on one baseline belong to different lines (columns,
/// table cells).
const MAX_WORD_GAP: f64 = 5.0;
/// A gap wider than this many font sizes between two glyphs is a word space.
const SPACE_GAP: f64 = 0.15;
/// Between a CJK and a Latin glyph, only a gap wider than this many font sizes is a space.
const CJK_LATIN_SPACE_GAP: f64 = 0.3;

/// One line of text.
#[derive(Debug, Clone)]
pub(super) struct Line {
    pub text: String,
    /// Left edge of the first and right edge of the last non-space glyph.
    pub x0: f64,
    pub x1: f64,
    /// Baseline.
    pub y: f64,
    /// Dominant font size.
    pub size: f64,
    /// Width of the line's first unbreakable unit (a word, or a CJK character with its punctuation).
    pub first_unit: f64,
    /// Width of a space at the end of the line.
    pub space: f64,
    /// Non-space characters.
    pub chars: usize,
    /// The spaces drawn before the line's first and after its last visible glyph (`text` is trimmed).
    pub leading: String,
    pub trailing: String,
}

/// The lines of one page, in reading order.
#[derive(Debug, Clone, Default)]
pub(super) struct PageLines {
    pub width: f64,
    pub height: f64,
    pub lines: Vec<Line>,
}

/// Characters that may not start a line (they stay with the character before them).
fn no_line_start(c: char) -> bool {
    "，。、；：？！）」』】》〉”’…—·．〕］｝,.;:?!)]".contains(c)
}

fn is_blank(text: &str) -> bool {
    text.chars().all(|c| c.is_whitespace() || is_bad_char(c))
}

/// A line being collected.
struct RawLine {
    glyphs: Vec<usize>,
    y: f64,
    size: f64,
    x_start: f64,
    x_end: f64,
}

impl RawLine {
    fn accepts(&self, g: &Glyph) -> bool {
        let (small, large) = if g.size < self.size {
            (g.size, self.size)
        } else {
            (self.size, g.size)
        };
        let tolerance = if small < 0.85 * large {
            0.5 * large
        } else {
            0.3 * small
        };
        (g.y - self.y).abs() <= tolerance
            && g.x0 - self.x_end <= MAX_WORD_GAP * large
            && g.x0 >= self.x_start - 0.5 * large
    }

    fn add(&mut self, index: usize, g: &Glyph, blank: bool) {
        self.glyphs.push(index);
        self.x_end = self.x_end.max(g.x1);
        self.x_start = self.x_start.min(g.x0);
        if !blank && g.size > 1.15 * self.size {
            self.size = g.size;
            self.y = g.y;
        }
    }
}

/// Group a page's glyphs into lines.
pub(super) fn page_lines(page: &PageText) -> PageLines {
    let mut raw: Vec<RawLine> = Vec::new();
    let mut current: Option<usize> = None;
    for (index, g) in page.glyphs.iter().enumerate() {
        let blank = is_blank(page.glyph_text(g));
        let target = current
            .filter(|&i| raw.get(i).is_some_and(|l| l.accepts(g)))
            .or_else(|| {
                let start = raw.len().saturating_sub(16);
                (start..raw.len())
                    .rev()
                    .find(|&i| raw.get(i).is_some_and(|l| l.accepts(g)))
            });
        match target.and_then(|i| raw.get_mut(i).map(|l| (i, l))) {
            Some((i, line)) => {
                line.add(index, g, blank);
                current = Some(i);
            }
            None if blank => {}
            None => {
                raw.push(RawLine {
                    glyphs: vec![index],
                    y: g.y,
                    size: g.size,
                    x_start: g.x0,
                    x_end: g.x1,
                });
                current = Some(raw.len() - 1);
            }
        }
    }
    let mut lines: Vec<Line> = raw.iter().filter_map(|r| build_line(page, r)).collect();
    fix_reading_order(&mut lines);
    PageLines {
        width: page.width,
        height: page.height,
        lines,
    }
}

/// A glyph of a line with its usable text.
struct Item<'a> {
    glyph: &'a Glyph,
    /// The glyph's text without unmapped or control characters.
    text: String,
    /// Whether the glyph is a space (or shows nothing).
    blank: bool,
}

/// Leave out footnote and endnote reference marks: digits (or `*` `†` `‡`) set at most three quarters
/// the size of the line's largest glyphs and raised a fifth of that size above their baseline, as a
/// .docx reader leaves Word's reference marks out. A line of small text only keeps its digits.
fn drop_note_marks(items: &mut Vec<Item>) {
    let Some(big) = items
        .iter()
        .filter(|i| !i.blank)
        .max_by(|a, b| a.glyph.size.total_cmp(&b.glyph.size))
    else {
        return;
    };
    let (size, base) = (big.glyph.size, big.glyph.y);
    items.retain(|i| {
        let mark = !i.blank
            && i.text
                .chars()
                .all(|c| c.is_ascii_digit() || "*†‡¹²³⁴⁵⁶⁷⁸⁹⁰".contains(c));
        !(mark && i.glyph.size <= 0.75 * size && i.glyph.y - base >= 0.2 * size)
    });
}

/// Assemble a line's text and measurements from its glyphs.
fn build_line(page: &PageText, raw: &RawLine) -> Option<Line> {
    let mut glyphs: Vec<&Glyph> = raw
        .glyphs
        .iter()
        .filter_map(|&i| page.glyphs.get(i))
        .collect();
    if glyphs
        .windows(2)
        .any(|w| matches!(w, [a, b] if b.x0 < a.x0 - 0.3 * a.size))
    {
        glyphs.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    }
    let mut items: Vec<Item> = Vec::with_capacity(glyphs.len());
    for glyph in glyphs {
        let raw_text = page.glyph_text(glyph);
        let text: String = raw_text.chars().filter(|c| !is_bad_char(*c)).collect();
        let blank = text.chars().all(char::is_whitespace);
        if blank && !raw_text.chars().any(char::is_whitespace) {
            // Shows nothing readable (an unmapped glyph): not a word break either.
            continue;
        }
        // Overprinted duplicates (fake bold, shadows).
        let duplicate = items.iter().rev().find(|i| !i.blank).is_some_and(|p| {
            !blank
                && p.text == text
                && (glyph.x0 - p.glyph.x0).abs()
                    < 0.3 * (p.glyph.x1 - p.glyph.x0).max(0.05 * glyph.size)
                && (glyph.y - p.glyph.y).abs() < 0.2 * glyph.size
        });
        if !duplicate {
            items.push(Item { glyph, text, blank });
        }
    }
    drop_note_marks(&mut items);
    let first = items.iter().find(|i| !i.blank)?;
    let last = items.iter().rev().find(|i| !i.blank)?;

    let mut text = String::new();
    // The spaces drawn since the last visible glyph, and the spaces the line starts with.
    let mut drawn = DrawnSpaces::default();
    let mut leading = String::new();
    let mut prev: Option<&Item> = None;
    let mut sizes: Vec<(f64, usize)> = Vec::new();
    let mut chars = 0usize;
    for item in &items {
        if item.blank {
            drawn.add(item);
            continue;
        }
        let g = item.glyph;
        match prev {
            // Spaces the document draws are text: as many as it draws (a doubled space stays double),
            // between any two characters.
            Some(_) if !drawn.text.is_empty() => text.push_str(&drawn.text),
            Some(p) => {
                // Otherwise the gap decides: one space or none.
                let gap = g.x0 - p.glyph.x1;
                let size = g.size.max(p.glyph.size);
                let before_wide = p.text.chars().last().is_some_and(is_wide);
                let after_wide = item.text.chars().next().is_some_and(is_wide);
                let space = if before_wide && after_wide {
                    gap > 1.5 * size
                } else if before_wide || after_wide {
                    // Word processors set a small gap (about 0.2 em, "autospace") between CJK and Latin
                    // text that is not a space in the text.
                    gap > CJK_LATIN_SPACE_GAP * size
                } else {
                    gap > SPACE_GAP * size
                };
                if space && !text.ends_with(char::is_whitespace) {
                    text.push(' ');
                }
            }
            None => leading = std::mem::take(&mut drawn.text),
        }
        drawn = DrawnSpaces::default();
        text.push_str(&item.text);
        let n = item.text.chars().filter(|c| !c.is_whitespace()).count();
        chars += n;
        match sizes
            .iter_mut()
            .find(|(s, _)| (*s - g.size).abs() < 0.05 * g.size)
        {
            Some((_, count)) => *count += n,
            None => sizes.push((g.size, n)),
        }
        prev = Some(item);
    }
    let size = sizes
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(a.0.total_cmp(&b.0)))
        .map_or(first.glyph.size, |(s, _)| *s);
    let text = text.trim().to_string();
    if text.is_empty() {
        return None;
    }
    Some(Line {
        text,
        leading,
        trailing: drawn.text,
        x0: first.glyph.x0,
        x1: last.glyph.x1,
        y: raw.y,
        size,
        first_unit: first_unit(&items, size),
        space: last.glyph.space.clamp(0.2 * size, 0.5 * size),
        chars,
    })
}

/// The space glyphs drawn between two visible glyphs of a line (or before the first, or after the last).
#[derive(Default)]
struct DrawnSpaces<'a> {
    /// Their text: `' '`, or the no-break and ideographic spaces the document draws as such.
    text: String,
    last: Option<&'a Glyph>,
}

impl<'a> DrawnSpaces<'a> {
    /// Count a space glyph, unless it overprints the one before it (fake bold, shadows).
    fn add(&mut self, item: &Item<'a>) {
        let g = item.glyph;
        let overprint = self.last.is_some_and(|p| {
            (g.x0 - p.x0).abs() < 0.3 * (p.x1 - p.x0).max(0.05 * g.size)
                && (g.y - p.y).abs() < 0.2 * g.size
        });
        if !overprint {
            self.text.push_str(&item.text);
            self.last = Some(g);
        }
    }
}

/// Opening brackets and quotes: they may not end a line, so they stay with what follows.
fn is_opening(c: char) -> bool {
    "([{“‘（「『【《〈〔［｛".contains(c)
}

/// Quotation marks: Unicode line breaking allows no break on either side of them.
fn is_quote(c: char) -> bool {
    "\"'“”‘’«»".contains(c)
}

/// The width of the line's first unbreakable unit: a word (with the punctuation glued to it), or a CJK
/// character with the punctuation that may not start a line; an opening bracket takes the word after it.
fn first_unit(items: &[Item], size: f64) -> f64 {
    let mut rest = items.iter().skip_while(|i| i.blank);
    let Some(first) = rest.next() else { return 0.0 };
    let start = first.glyph.x0;
    let mut end = first.glyph.x1;
    let mut only_opening = first.text.chars().all(is_opening);
    let mut last_char = first.text.chars().last().unwrap_or(' ');
    for item in rest {
        if item.blank {
            if only_opening {
                continue;
            }
            break;
        }
        let Some(c) = item.text.chars().next() else {
            continue;
        };
        let separated = item.glyph.x0 - end > SPACE_GAP * size;
        // Unicode line breaking, roughly: no break before closing punctuation or after opening
        // punctuation, none on either side of quotes, none between a word and an opening bracket or
        // after closing CJK punctuation followed by a word; CJK characters break between each other.
        let joins = only_opening
            || (!separated
                && (no_line_start(c)
                    || is_quote(c)
                    || is_quote(last_char)
                    || is_opening(last_char)
                    || (is_opening(c) && !is_wide(last_char))
                    || (no_line_start(last_char) && is_wide(last_char) && !is_wide(c))
                    || !(is_wide(last_char) || is_wide(c) || last_char == '-')));
        if !joins {
            break;
        }
        end = item.glyph.x1;
        last_char = item.text.chars().last().unwrap_or(c);
        only_opening = only_opening && item.text.chars().all(is_opening);
    }
    (end - start).max(0.0)
}

/// Content streams usually draw text in reading order. When a page's lines jump up and down instead, sort
/// them top to bottom, left to right.
fn fix_reading_order(lines: &mut [Line]) {
    if lines.len() < 4 {
        return;
    }
    let jumps = lines
        .windows(2)
        .filter(|w| match w {
            [a, b] => b.y > a.y + 0.5 * a.size && b.x0 < a.x1 && a.x0 < b.x1,
            _ => false,
        })
        .count();
    if jumps * 4 > lines.len() {
        // Rows first (baselines within a fraction of the font size of the row's top line), then left to
        // right within a row; keys, so that the order is total.
        lines.sort_by(|a, b| b.y.total_cmp(&a.y));
        let mut rows = Vec::with_capacity(lines.len());
        let mut row = 0usize;
        let mut row_y = f64::INFINITY;
        for line in lines.iter() {
            if row_y - line.y >= 0.3 * line.size {
                row += 1;
                row_y = line.y;
            }
            rows.push(row);
        }
        let mut keyed: Vec<(usize, Line)> = rows.into_iter().zip(lines.iter().cloned()).collect();
        keyed.sort_by(|(ra, a), (rb, b)| ra.cmp(rb).then(a.x0.total_cmp(&b.x0)));
        for (slot, (_, line)) in lines.iter_mut().zip(keyed) {
            *slot = line;
        }
    }
}

/// A page number on its own: `12`, `- 12 -`, `xii`, `Page 3`, `3 / 10`, `第 3 页`.
fn is_page_number(text: &str) -> bool {
    let t: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase();
    let t = t.trim_matches(|c: char| {
        matches!(c, '-' | '–' | '—' | '·' | '•' | '[' | ']' | '(' | ')' | '|')
    });
    let t = t.strip_prefix("page").unwrap_or(t);
    let t = t
        .strip_prefix('第')
        .and_then(|r| r.strip_suffix('页'))
        .unwrap_or(t);
    if t.is_empty() || t.chars().count() > 12 {
        return false;
    }
    let is_number = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let is_roman = |s: &str| is_roman_numeral(s);
    if is_number(t) || is_roman(t) {
        return true;
    }
    let parts: Vec<&str> = t.split(['/', '-']).collect();
    matches!(parts.as_slice(), [a, b] if is_number(a) && is_number(b))
        || matches!(t.split("of").collect::<Vec<_>>().as_slice(), [a, b] if is_number(a) && is_number(b))
}

/// A lower-case Roman numeral below 4000 (`xii`, `iv`).
fn is_roman_numeral(s: &str) -> bool {
    if s.is_empty() || s.len() > 15 {
        return false;
    }
    let mut rest = s;
    for _ in 0..3 {
        rest = rest.strip_prefix('m').unwrap_or(rest);
    }
    for (one, five, ten) in [('c', 'd', 'm'), ('x', 'l', 'c'), ('i', 'v', 'x')] {
        let nine: String = [one, ten].iter().collect();
        let four: String = [one, five].iter().collect();
        if let Some(r) = rest
            .strip_prefix(nine.as_str())
            .or_else(|| rest.strip_prefix(four.as_str()))
        {
            rest = r;
            continue;
        }
        rest = rest.strip_prefix(five).unwrap_or(rest);
        for _ in 0..3 {
            rest = rest.strip_prefix(one).unwrap_or(rest);
        }
    }
    rest.is_empty()
}

/// Drop running headers and footers (lines near the top or bottom that repeat, digits aside, at the same
/// height on most pages) and lone page numbers at the top or bottom of a page.
pub(super) fn remove_running_heads(pages: &mut [PageLines]) {
    const EDGE_LINES: usize = 3;
    let n = pages.len();
    let key = |line: &Line| -> String {
        let mut k = String::new();
        for c in line.text.chars().filter(|c| !c.is_whitespace()) {
            if c.is_ascii_digit() {
                if !k.ends_with('#') {
                    k.push('#');
                }
            } else {
                k.push(c);
            }
        }
        k
    };
    // Candidates: the lines nearest each page's top and bottom; outermost ones sit on the top or bottom
    // baseline itself.
    let edge_indices = |page: &PageLines| -> Vec<(usize, bool)> {
        let mut order: Vec<usize> = (0..page.lines.len()).collect();
        order.sort_by(|&a, &b| {
            let ya = page.lines.get(a).map_or(0.0, |l| l.y);
            let yb = page.lines.get(b).map_or(0.0, |l| l.y);
            yb.total_cmp(&ya)
        });
        let top = order
            .first()
            .and_then(|&i| page.lines.get(i))
            .map_or(0.0, |l| l.y);
        let bottom = order
            .last()
            .and_then(|&i| page.lines.get(i))
            .map_or(0.0, |l| l.y);
        let mut out = Vec::new();
        for (rank, &i) in order.iter().enumerate() {
            let Some(line) = page.lines.get(i) else {
                continue;
            };
            let outermost =
                (line.y - top).abs() < 0.5 * line.size || (line.y - bottom).abs() < 0.5 * line.size;
            let from_edge = rank.min(order.len() - 1 - rank);
            if from_edge < EDGE_LINES || outermost {
                out.push((i, outermost));
            }
        }
        out
    };
    let mut seen: HashMap<String, Vec<(usize, f64)>> = HashMap::new();
    for (p, page) in pages.iter().enumerate() {
        for (i, _) in edge_indices(page) {
            if let Some(line) = page.lines.get(i) {
                seen.entry(key(line)).or_default().push((p, line.y));
            }
        }
    }
    for p in 0..n {
        let Some(page) = pages.get(p) else { continue };
        let mut drop: HashSet<usize> = HashSet::new();
        for (i, outermost) in edge_indices(page) {
            let Some(line) = page.lines.get(i) else {
                continue;
            };
            let repeats = seen.get(&key(line)).map_or(0, |hits| {
                let mut pages_hit: Vec<usize> = hits
                    .iter()
                    .filter(|(_, y)| (y - line.y).abs() <= 0.25 * line.size.max(4.0))
                    .map(|(q, _)| *q)
                    .collect();
                pages_hit.dedup();
                pages_hit.len()
            });
            // Text repeated at the same height on other pages: on most pages anywhere near the edge, or
            // on the edge itself (chapter-specific running heads repeat on a few pages only).
            let long_enough = key(line).chars().count() >= 4;
            let repeated = repeats >= 2 && (repeats * 2 >= n || (outermost && long_enough));
            let lone_number = outermost && is_page_number(&line.text) && {
                // Apart from the text above or below it (other text on its baseline does not count).
                let nearest = page
                    .lines
                    .iter()
                    .map(|other| (other.y - line.y).abs())
                    .filter(|dy| *dy > 0.5 * line.size)
                    .fold(f64::INFINITY, f64::min);
                nearest > 1.5 * line.size
            };
            if repeated || lone_number {
                drop.insert(i);
            }
        }
        if let Some(page) = pages.get_mut(p) {
            let mut index = 0;
            page.lines.retain(|_| {
                let keep = !drop.contains(&index);
                index += 1;
                keep
            });
        }
    }
}

/// Measurements of the whole document used to judge line breaks.
struct Metrics {
    /// Normal baseline distance by font size bucket (size rounded to half points).
    spacing: HashMap<i64, f64>,
    /// Normal baseline distance as a multiple of the font size (for sizes without their own).
    spacing_ratio: f64,
    /// The left and right margin of each line (of the column it is set in), by page.
    margins: Vec<Vec<(f64, f64)>>,
    /// Whether lines are justified (most of them end at the right margin).
    justified: bool,
    /// The same, judged on the lines that end in Latin text only (at least five of them): CJK lines
    /// end flush in ragged text too, so a Chinese document with an English paragraph set ragged is not
    /// justified there.
    justified_latin: bool,
    /// The body text's font size.
    body_size: f64,
    /// The lowest baseline a page's text may reach (estimated).
    lowest_baseline: f64,
    /// Whether the document draws the spaces at its line ends (as word processors do when they fit),
    /// so that a line end without one had none in the text.
    draws_line_end_spaces: bool,
}

fn size_bucket(size: f64) -> i64 {
    (size * 2.0).round() as i64
}

fn lower_quartile(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 4).copied()
}

impl Metrics {
    fn measure(pages: &[PageLines]) -> Metrics {
        let mut by_size: HashMap<i64, Vec<f64>> = HashMap::new();
        let mut ratios = Vec::new();
        let mut size_weight: HashMap<i64, usize> = HashMap::new();
        for page in pages {
            for line in &page.lines {
                *size_weight.entry(size_bucket(line.size)).or_default() += line.chars;
            }
            for pair in page.lines.windows(2) {
                let [a, b] = pair else { continue };
                let dy = a.y - b.y;
                if (b.size - a.size).abs() <= 0.1 * a.size && dy > 0.5 * a.size && dy < 3.0 * a.size
                {
                    by_size.entry(size_bucket(a.size)).or_default().push(dy);
                    ratios.push(dy / a.size);
                }
            }
        }
        let spacing = by_size
            .into_iter()
            .filter(|(_, v)| v.len() >= 3)
            .filter_map(|(k, mut v)| Some((k, lower_quartile(&mut v)?)))
            .collect();
        let spacing_ratio = lower_quartile(&mut ratios).unwrap_or(1.2);
        let body_size = size_weight
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map_or(10.0, |(k, _)| *k as f64 / 2.0);

        // The right edge the text reaches: a high percentile of line ends, so a stray overlong line does
        // not count.
        let mut ends: Vec<f64> = pages
            .iter()
            .flat_map(|p| p.lines.iter())
            .filter(|l| l.chars >= 8)
            .map(|l| l.x1)
            .collect();
        ends.sort_by(f64::total_cmp);
        let observed_right = ends
            .get((ends.len() * 19 / 20).min(ends.len().saturating_sub(1)))
            .copied();
        let margins: Vec<Vec<(f64, f64)>> = pages
            .iter()
            .map(|page| line_margins(page, observed_right))
            .collect();
        let (mut full, mut counted) = (0usize, 0usize);
        let (mut full_latin, mut counted_latin) = (0usize, 0usize);
        for (page, page_margins) in pages.iter().zip(&margins) {
            for (line, (_, right)) in page.lines.iter().zip(page_margins) {
                if line.chars >= 8 {
                    let flush = (right - line.x1).abs() < 1.0;
                    counted += 1;
                    full += usize::from(flush);
                    if !line.text.chars().last().is_some_and(is_wide) {
                        counted_latin += 1;
                        full_latin += usize::from(flush);
                    }
                }
            }
        }
        let mut metrics = Metrics {
            // Word processors draw a line-end space when it fits before the margin; typesetters that
            // place words by their gaps draw none.
            draws_line_end_spaces: pages
                .iter()
                .flat_map(|p| p.lines.iter())
                .any(|l| !l.trailing.is_empty()),
            spacing,
            spacing_ratio,
            margins,
            justified: counted >= 5 && full * 100 >= counted * 35,
            justified_latin: counted_latin >= 5 && full_latin * 100 >= counted_latin * 35,
            body_size,
            lowest_baseline: f64::NEG_INFINITY,
        };
        metrics.lowest_baseline = metrics.lowest_baseline(pages);
        metrics
    }

    /// Where the text area of the pages ends. Pages that stop higher than the others may have ended a
    /// paragraph; with few pages to compare, the bottom margin is taken to equal the top one.
    fn lowest_baseline(&self, pages: &[PageLines]) -> f64 {
        let full_pages = pages.len().saturating_sub(1);
        let observed = pages
            .iter()
            .take(full_pages)
            .filter_map(|p| p.lines.iter().map(|l| l.y).min_by(f64::total_cmp))
            .fold(f64::INFINITY, f64::min);
        if full_pages >= 4 {
            // The median page bottom: robust to pages that end early and to footnotes set lower.
            let mut bottoms: Vec<f64> = pages
                .iter()
                .take(full_pages)
                .filter_map(|p| p.lines.iter().map(|l| l.y).min_by(f64::total_cmp))
                .collect();
            bottoms.sort_by(f64::total_cmp);
            return bottoms.get(bottoms.len() / 2).copied().unwrap_or(observed);
        }
        let Some((height, top)) = pages
            .iter()
            .filter_map(|p| {
                Some((
                    p.height,
                    p.lines.iter().map(|l| l.y).max_by(f64::total_cmp)?,
                ))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
        else {
            return observed;
        };
        let mirrored = height - top - 0.5 * self.normal_spacing(self.body_size);
        mirrored.min(observed)
    }

    fn normal_spacing(&self, size: f64) -> f64 {
        self.spacing
            .get(&size_bucket(size))
            .copied()
            .unwrap_or(self.spacing_ratio * size)
    }

    fn margins(&self, page: usize, line: usize) -> (f64, f64) {
        self.margins
            .get(page)
            .and_then(|m| m.get(line))
            .copied()
            .unwrap_or((0.0, f64::MAX))
    }
}

/// The left margin of a page: the leftmost line start shared by at least two lines.
fn left_margin(lines: &[Line]) -> f64 {
    let mut starts: Vec<f64> = lines.iter().map(|l| l.x0).collect();
    starts.sort_by(f64::total_cmp);
    starts
        .windows(2)
        .find_map(|w| match w {
            [a, b] if b - a < 1.0 => Some(*a),
            _ => None,
        })
        .or_else(|| starts.first().copied())
        .unwrap_or(0.0)
}

/// The right margin of text that starts at `left`: `observed` (how far lines reach), or, when it lies
/// just beyond that, the margin equal to the left one, as word processors set by default (the true
/// margin of ragged text, whose lines stop short of it).
fn right_margin(page_width: f64, left: f64, observed: f64) -> f64 {
    let symmetric = page_width - left;
    if symmetric >= observed && symmetric - observed <= 0.06 * page_width {
        symmetric
    } else {
        observed
    }
}

/// The 95th percentile of the ends of lines with some text (the reach of a column without its
/// occasional overlong line).
fn reach<'a>(lines: impl Iterator<Item = &'a Line>) -> Option<f64> {
    let mut ends: Vec<f64> = lines.filter(|l| l.chars >= 8).map(|l| l.x1).collect();
    ends.sort_by(f64::total_cmp);
    ends.get((ends.len() * 19 / 20).min(ends.len().saturating_sub(1)))
        .copied()
}

/// Where the columns of a page start: left edges shared by several lines that the lines to their left
/// do not cross.
fn column_starts(lines: &[Line]) -> Vec<f64> {
    let mut xs: Vec<f64> = lines
        .iter()
        .filter(|l| l.chars >= 8)
        .map(|l| l.x0)
        .collect();
    xs.sort_by(f64::total_cmp);
    let mut clusters: Vec<(f64, usize)> = Vec::new();
    for x in xs {
        match clusters.last_mut() {
            Some((start, count)) if x - *start < 2.0 => *count += 1,
            _ => clusters.push((x, 1)),
        }
    }
    let mut starts: Vec<f64> = Vec::new();
    for (x, count) in clusters {
        if count < 3 {
            continue;
        }
        let Some(&prev) = starts.last() else {
            starts.push(x);
            continue;
        };
        let region: Vec<&Line> = lines
            .iter()
            .filter(|l| l.chars >= 8 && l.x0 >= prev - 2.0 && l.x0 < x - 2.0)
            .collect();
        let crossing = region.iter().filter(|l| l.x1 > x + 1.0).count();
        if region.len() >= 3 && crossing * 10 < region.len() * 3 {
            starts.push(x);
        }
    }
    starts
}

/// The margins each line of a page is measured against: those of its column (the page's when it has
/// one), narrowed for indented blocks (quotations) whose lines end together short of the margin.
fn line_margins(page: &PageLines, observed_right: Option<f64>) -> Vec<(f64, f64)> {
    let lines = &page.lines;
    let starts = column_starts(lines);
    let margins = if starts.len() <= 1 {
        let left = left_margin(lines);
        let observed = observed_right.unwrap_or(page.width - left).min(page.width);
        vec![(left, right_margin(page.width, left, observed)); lines.len()]
    } else {
        let column_of = |l: &Line| starts.iter().rposition(|s| l.x0 >= s - 2.0).unwrap_or(0);
        // A line that reaches into the next column spans the page (a title, an abstract).
        let spans = |l: &Line| {
            starts
                .get(column_of(l) + 1)
                .is_some_and(|next| l.x1 > next + 1.0)
        };
        let first = starts.first().copied().unwrap_or(0.0);
        let rights: Vec<f64> = (0..starts.len())
            .map(|k| {
                let next = starts.get(k + 1).copied();
                let observed = reach(lines.iter().filter(|l| column_of(l) == k && !spans(l)))
                    .or(next)
                    .unwrap_or(page.width);
                if next.is_none() {
                    right_margin(page.width, first, observed)
                } else {
                    observed
                }
            })
            .collect();
        let page_right = rights.last().copied().unwrap_or(page.width);
        lines
            .iter()
            .map(|l| {
                if spans(l) {
                    (first, page_right)
                } else {
                    let k = column_of(l);
                    (
                        starts.get(k).copied().unwrap_or(first),
                        rights.get(k).copied().unwrap_or(page_right),
                    )
                }
            })
            .collect()
    };
    block_rights(lines, margins)
}

/// Words and spacing habits of the document, to decide how to join lines: whether a line-end hyphen is
/// hyphenation, whether a CJK character and a Latin word at a line break were spaced.
#[derive(Default)]
struct Vocabulary {
    words: HashSet<String>,
    compounds: HashSet<String>,
    /// Whether the typesetter hyphenates: the text is justified and at least one line-end hyphen splits
    /// a word the document also spells whole. A word processor that does not hyphenate (LibreOffice and
    /// Word by default) justifies too, and its line-end hyphens are real (`apt-listchanges`).
    justified: bool,
    /// Whether the document puts a space between CJK characters and Latin letters or digits within its
    /// lines at least as often as not (or has no such pairs).
    cjk_latin_spaced: bool,
}

impl Vocabulary {
    fn build(pages: &[PageLines], justified: bool) -> Vocabulary {
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
    fn hyphenation_evidence(&self, pages: &[PageLines]) -> bool {
        pages.iter().any(|page| {
            page.lines.windows(2).any(|pair| {
                let [a, b] = pair else { return false };
                let Some(head) = a.text.strip_suffix('-') else {
                    return false;
                };
                let head: String = head
                    .chars()
                    .rev()
                    .take_while(|c| c.is_alphabetic())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let rest: String = b.text.chars().take_while(|c| c.is_alphabetic()).collect();
                !head.is_empty()
                    && rest.chars().next().is_some_and(char::is_lowercase)
                    && self.words.contains(&format!("{head}{rest}").to_lowercase())
            })
        })
    }
}

/// A CJK character (not punctuation) next to a Latin letter or digit, either way round.
fn cjk_latin_pair(a: char, b: char) -> bool {
    let cjk = |c: char| is_wide(c) && c.is_alphabetic();
    let latin = |c: char| c.is_ascii_alphanumeric();
    (cjk(a) && latin(b)) || (latin(a) && cjk(b))
}

/// What the page shows between two lines of a paragraph, where the text may have had spaces.
#[derive(Debug, Clone, PartialEq)]
enum BreakSpace {
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
    fn between(metrics: &Metrics, right: f64, a: &Line, b: &Line) -> BreakSpace {
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
fn join(para: &mut String, line: &str, space: &BreakSpace, vocab: &Vocabulary) {
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

/// A paragraph being built.
struct Para {
    text: String,
    lines: usize,
    max_size: f64,
    /// Set aside as a footnote.
    note: bool,
    /// Shares a baseline with the paragraph before or after it: a table cell.
    cell: bool,
}

/// Rebuild the document's paragraphs from its pages' lines.
pub(super) fn paragraphs(pages: &[PageLines]) -> Vec<Block> {
    let metrics = Metrics::measure(pages);
    let vocab = Vocabulary::build(pages, metrics.justified);
    let right_of = |page: usize, line: usize| metrics.margins(page, line).1;
    // How many lines open each page before the first paragraph break on it.
    let opening_lines: Vec<usize> = pages
        .iter()
        .enumerate()
        .map(|(p, page)| {
            let mut count = 1;
            for (i, pair) in page.lines.windows(2).enumerate() {
                let [a, b] = pair else { break };
                if ends_within_page(&metrics, count, right_of(p, i), a, b) {
                    break;
                }
                count += 1;
            }
            count
        })
        .collect();
    // Footnotes interrupt a paragraph that runs on to the next page: they are set aside and come out
    // after it.
    let notes_from: Vec<usize> = pages
        .iter()
        .map(|page| footnotes_start(page, metrics.body_size))
        .collect();
    let has_notes = |page: usize| {
        let lines = pages.get(page).map_or(0, |p| p.lines.len());
        notes_from.get(page).is_some_and(|&start| start < lines)
    };
    let mut out: Vec<Para> = Vec::new();
    let mut notes: Vec<Para> = Vec::new();
    let mut prev: Option<(usize, usize, &Line)> = None;
    for (page_index, page) in pages.iter().enumerate() {
        let first_note = notes_from.get(page_index).copied().unwrap_or(usize::MAX);
        let mut prev_note: Option<&Line> = None;
        for (line_index, line) in page.lines.iter().enumerate() {
            if line_index >= first_note {
                let joint = match (prev_note, notes.last()) {
                    (Some(a), Some(para)) => {
                        let right = right_of(page_index, line_index.saturating_sub(1));
                        (!ends_within_page(&metrics, para.lines, right, a, line))
                            .then(|| BreakSpace::between(&metrics, right, a, line))
                    }
                    _ => None,
                };
                add_line(&mut notes, line, joint, &vocab);
                if let Some(note) = notes.last_mut() {
                    note.note = true;
                }
                prev_note = Some(line);
                continue;
            }
            let breaks = match (prev, out.last()) {
                (Some((prev_page, prev_index, a)), Some(para))
                    if prev_page == page_index && line.y < a.y =>
                {
                    ends_within_page(
                        &metrics,
                        para.lines,
                        right_of(prev_page, prev_index),
                        a,
                        line,
                    )
                }
                (Some((prev_page, prev_index, a)), Some(para)) => {
                    // Whether the page was full says nothing when footnotes took its bottom.
                    let continuation = (line_index == 0 && !has_notes(prev_page))
                        .then(|| opening_lines.get(page_index).copied().unwrap_or(1));
                    ends_at_flow_break(
                        &metrics,
                        para.lines,
                        (metrics.margins(prev_page, prev_index), a),
                        (metrics.margins(page_index, line_index), line),
                        continuation,
                    )
                }
                _ => true,
            };
            let joint = match prev {
                Some((prev_page, prev_index, a)) if !breaks => Some(BreakSpace::between(
                    &metrics,
                    right_of(prev_page, prev_index),
                    a,
                    line,
                )),
                _ => None,
            };
            if joint.is_none() {
                out.append(&mut notes);
            }
            // Beside the line before, on its baseline: both are table cells.
            let beside = prev.is_some_and(|(prev_page, _, a)| {
                prev_page == page_index
                    && (line.y - a.y).abs() <= 0.5 * a.size.max(line.size)
                    && line.x0 > a.x1
            });
            let new_cell = beside && joint.is_none();
            if new_cell {
                if let Some(last) = out.last_mut() {
                    last.cell = true;
                }
            }
            add_line(&mut out, line, joint, &vocab);
            if new_cell {
                if let Some(last) = out.last_mut() {
                    last.cell = true;
                }
            }
            prev = Some((page_index, line_index, line));
        }
    }
    out.append(&mut notes);
    out.into_iter()
        .map(|p| {
            let heading = p.lines <= 2
                && p.text.chars().count() <= 200
                && p.max_size >= 1.15 * metrics.body_size;
            if p.note {
                Block::new(without_note_mark(&p.text), BlockKind::Footnote)
            } else if p.cell {
                Block::new(p.text, BlockKind::Table)
            } else if heading {
                Block::heading(p.text)
            } else {
                Block::body(p.text)
            }
        })
        .collect()
}

/// A footnote's text without its mark (`1`, `12`, `¹`, `①`, `*` before the text; a longer number is
/// text, as in a year).
fn without_note_mark(text: &str) -> String {
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    let rest = if (1..=2).contains(&digits) {
        &text[digits..]
    } else {
        text.trim_start_matches(|c: char| "¹²³⁴⁵⁶⁷⁸⁹⁰*†‡".contains(c) || ('①'..='⑳').contains(&c))
    };
    if rest.trim().is_empty() {
        text.to_string()
    } else {
        rest.trim_start().to_string()
    }
}

/// Whether a line starts with a bullet: a list item, which starts a paragraph.
fn starts_list_item(line: &Line) -> bool {
    let mut chars = line.text.chars();
    chars.next().is_some_and(|c| "•◦▪▫●○■□◆◇►▶➢✓‣⁃".contains(c))
        && chars.next().is_some_and(char::is_whitespace)
}

/// Add a line to the last paragraph (`joint` says what the page shows at the break), or, when `joint` is
/// `None`, start a new one with it.
fn add_line(paras: &mut Vec<Para>, line: &Line, joint: Option<BreakSpace>, vocab: &Vocabulary) {
    match (paras.last_mut(), joint) {
        (Some(para), Some(space)) => {
            join(&mut para.text, &line.text, &space, vocab);
            para.lines += 1;
            para.max_size = para.max_size.max(line.size);
        }
        _ => paras.push(Para {
            note: false,
            cell: false,
            text: line.text.clone(),
            lines: 1,
            max_size: line.size,
        }),
    }
}

/// Where a page's footnotes start: the index of the first of the lines that end the page in a smaller
/// font, below all body text in the lower half of the page (the number of lines when there are none).
fn footnotes_start(page: &PageLines, body_size: f64) -> usize {
    let lines = &page.lines;
    let is_note = |l: &Line| l.size <= 0.85 * body_size && l.y < 0.5 * page.height;
    let notes = lines.iter().rev().take_while(|l| is_note(l)).count();
    let start = lines.len() - notes;
    let body = lines.get(..start).unwrap_or_default();
    let body_bottom = body
        .iter()
        .filter(|l| l.size > 0.85 * body_size)
        .map(|l| l.y)
        .fold(f64::INFINITY, f64::min);
    let notes_top = lines
        .get(start..)
        .unwrap_or_default()
        .iter()
        .map(|l| l.y)
        .fold(f64::NEG_INFINITY, f64::max);
    if notes == 0 || body_bottom.is_infinite() || notes_top >= body_bottom {
        lines.len()
    } else {
        start
    }
}

/// Narrow the right margin for indented blocks (quotations) whose lines end together short of it.
fn block_rights(lines: &[Line], mut margins: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    let mut start = 0;
    while let Some(first) = lines.get(start) {
        let mut end = start + 1;
        while let (Some(prev), Some(next)) = (lines.get(end - 1), lines.get(end)) {
            if (next.x0 - first.x0).abs() >= 1.0 || next.y >= prev.y {
                break;
            }
            end += 1;
        }
        let run = lines.get(start..end).unwrap_or_default();
        let (left, right) = margins.get(start).copied().unwrap_or((0.0, f64::MAX));
        if run.len() >= 2 && first.x0 > left + first.size {
            let run_right = run.iter().map(|l| l.x1).fold(f64::NEG_INFINITY, f64::max);
            let flush = run.iter().filter(|l| run_right - l.x1 < 0.5).count();
            if flush >= 2 && run_right < right - first.size {
                // A first line indented further than the block still belongs to it when it ends flush.
                let from = match start
                    .checked_sub(1)
                    .and_then(|i| lines.get(i).map(|l| (i, l)))
                {
                    Some((i, l)) if l.x0 > first.x0 && (run_right - l.x1).abs() < 0.5 => i,
                    _ => start,
                };
                for slot in margins.iter_mut().take(end).skip(from) {
                    slot.1 = run_right;
                }
            }
        }
        start = end;
    }
    margins
}

/// Whether a line stops short of `right`: the next line's first unit would have fitted after it, so the
/// line break was not forced by the margin. Also true when the font size changes.
fn ends_short(metrics: &Metrics, right: f64, a: &Line, b: &Line) -> bool {
    let size = a.size.max(b.size);
    if (a.size - b.size).abs() > 0.15 * size {
        return true;
    }
    let room = right - a.x1;
    let both_wide =
        a.text.chars().last().is_some_and(is_wide) && b.text.chars().next().is_some_and(is_wide);
    let needed = b.first_unit + if both_wide { 0.0 } else { a.space };
    let justified = if a.text.chars().last().is_some_and(is_wide) {
        metrics.justified
    } else {
        metrics.justified_latin
    };
    room > needed + 0.1 * a.size || (justified && room > 1.5 * a.size)
}

/// Whether a paragraph of `lines` lines, last line `a` (with right margin `right`), ends before `b`, the
/// next line below it on the same page.
fn ends_within_page(metrics: &Metrics, lines: usize, right: f64, a: &Line, b: &Line) -> bool {
    let size = a.size.max(b.size);
    if ends_short(metrics, right, a, b) || (b.y - a.y).abs() <= 0.5 * size {
        // Stops short, or another piece of text on the same baseline (a table cell, a second column).
        return true;
    }
    let dy = a.y - b.y;
    let normal = metrics.normal_spacing(a.size);
    if dy > normal + 0.4 * size && dy > 1.2 * normal {
        return true;
    }
    // The left edge moves: a first-line indent, or the end of an indented block. The second line of a
    // paragraph may start left of its first (a first-line indent) or right of it (a hanging indent).
    (lines >= 2 && (b.x0 - a.x0).abs() > 0.5 * size) || starts_list_item(b)
}

/// Whether a paragraph ends at a page or column break, between `a` and `b` (each with the margins of its
/// line). `continuation` is, when `b` opens a page, the number of lines before the first paragraph break
/// there.
fn ends_at_flow_break(
    metrics: &Metrics,
    lines: usize,
    ((left_a, right_a), a): ((f64, f64), &Line),
    ((left_b, _), b): ((f64, f64), &Line),
    continuation: Option<usize>,
) -> bool {
    if ends_short(metrics, right_a, a, b) {
        return true;
    }
    let size = a.size.max(b.size);
    // The paragraph runs on unless the next line is indented more (or, after a second line, less) than
    // the paragraph's body, or starts a list item.
    let indent_b = b.x0 - left_b;
    let indent_a = if lines >= 2 { a.x0 - left_a } else { 0.0 };
    if indent_b > indent_a + 0.5 * size
        || (lines >= 2 && indent_b < indent_a - 0.5 * size)
        || starts_list_item(b)
    {
        return true;
    }
    // A paragraph that runs on fills its page: when there was room for more lines below `a`, the page
    // ended with the paragraph. With room for exactly one line, the page may also have ended a line early
    // to keep two lines together on the next page (widow control).
    let Some(continuation) = continuation else {
        return false;
    };
    let spacing = metrics.normal_spacing(a.size);
    let free_lines = (a.y - metrics.lowest_baseline) / spacing;
    free_lines >= 1.9 || (free_lines >= 0.95 && continuation != 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str, x0: f64, x1: f64, y: f64) -> Line {
        Line {
            text: text.to_string(),
            x0,
            x1,
            y,
            size: 11.0,
            first_unit: 30.0,
            space: 3.0,
            chars: text.chars().filter(|c| !c.is_whitespace()).count(),
            leading: String::new(),
            trailing: String::new(),
        }
    }

    #[test]
    fn joins_lines() {
        let mut vocab = Vocabulary::default();
        vocab.words.insert("example".into());
        let mut s = String::from("an exam-");
        join(&mut s, "ple here", &BreakSpace::Unknown, &vocab);
        assert_eq!(s, "an example here");
        let mut s = String::from("dpkg-");
        join(&mut s, "buildpackage", &BreakSpace::Unknown, &vocab);
        assert_eq!(s, "dpkg-buildpackage");
        let mut s = String::from("(0-");
        join(&mut s, "9A-Z)", &BreakSpace::Unknown, &vocab);
        assert_eq!(s, "(0-9A-Z)");
        vocab.justified = true;
        let mut s = String::from("manip-");
        join(&mut s, "ulation", &BreakSpace::Unknown, &vocab);
        assert_eq!(s, "manipulation");
        let mut s = String::from("Debian-");
        join(&mut s, "based", &BreakSpace::Unknown, &vocab);
        assert_eq!(s, "Debian-based");
        let mut s = String::from("中文");
        join(&mut s, "文本", &BreakSpace::Unknown, &vocab);
        assert_eq!(s, "中文文本");
        let mut s = String::from("word");
        join(&mut s, "next", &BreakSpace::Unknown, &vocab);
        assert_eq!(s, "word next");
    }

    #[test]
    fn justified_text_hyphenates_only_with_evidence() {
        let page = |texts: &[&str]| PageLines {
            width: 612.0,
            height: 792.0,
            lines: texts
                .iter()
                .enumerate()
                .map(|(i, t)| line(t, 90.0, 522.0, 700.0 - 14.0 * i as f64))
                .collect(),
        };
        // A word processor that justifies without hyphenating: the line-end hyphen is real.
        let plain = page(&["install apt-", "listchanges to read the news"]);
        let vocab = Vocabulary::build(std::slice::from_ref(&plain), true);
        assert!(!vocab.justified);
        let mut s = String::from("install apt-");
        join(&mut s, "listchanges to read", &BreakSpace::Unknown, &vocab);
        assert_eq!(s, "install apt-listchanges to read");
        // A typesetter that hyphenates: one split word is spelled whole elsewhere.
        let typeset = page(&[
            "the manip-",
            "ulation of packages; manipulation again; apt-",
            "listchanges",
        ]);
        let vocab = Vocabulary::build(std::slice::from_ref(&typeset), true);
        assert!(vocab.justified);
        // Without justification there is no hyphenation at all.
        assert!(!Vocabulary::build(std::slice::from_ref(&typeset), false).justified);
    }

    #[test]
    fn page_numbers() {
        for t in [
            "12",
            "- 12 -",
            "xii",
            "Page 3",
            "3 / 10",
            "第 3 页",
            "Page 3 of 10",
        ] {
            assert!(is_page_number(t), "{t}");
        }
        for t in ["1990 was a year", "Chapter", "mixed", "vivid"] {
            assert!(!is_page_number(t), "{t}");
        }
    }

    #[test]
    fn paragraphs_from_geometry() {
        let body = |y: f64, text: &str, x1: f64| line(text, 90.0, x1, y);
        let page = PageLines {
            width: 612.0,
            height: 792.0,
            lines: vec![
                body(700.0, "first paragraph line one", 522.0),
                body(685.0, "first paragraph line two", 521.5),
                body(670.0, "ends short.", 300.0),
                body(655.0, "second paragraph", 522.0),
                body(640.0, "still second", 522.0),
                body(617.0, "third after a gap", 522.0),
                body(602.0, "and more", 400.0),
                line("indented fourth", 110.0, 522.0, 587.0),
                body(572.0, "fourth goes on", 522.0),
                body(557.0, "fourth ends", 200.0),
            ],
        };
        let blocks = paragraphs(&[page]);
        let texts: Vec<&str> = blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "first paragraph line one first paragraph line two ends short.",
                "second paragraph still second",
                "third after a gap and more",
                "indented fourth fourth goes on fourth ends",
            ]
        );
    }

    #[test]
    fn two_columns() {
        let col = |x0: f64, x1: f64, y: f64, text: &str| line(text, x0, x1, y);
        let mut lines = Vec::new();
        // Left column: a paragraph of four lines, then one that runs into the right column.
        for (i, y) in [700.0, 686.0, 672.0].iter().enumerate() {
            lines.push(col(72.0, 300.0, *y, &format!("left one {i}")));
        }
        lines.push(col(72.0, 180.0, 658.0, "left one ends."));
        for (i, y) in [644.0, 630.0, 616.0].iter().enumerate() {
            lines.push(col(72.0, 299.5, *y, &format!("left two {i}")));
        }
        for (i, y) in [700.0, 686.0].iter().enumerate() {
            lines.push(col(312.0, 540.0, *y, &format!("right {i}")));
        }
        lines.push(col(312.0, 400.0, 672.0, "right ends."));
        lines.push(col(312.0, 540.0, 644.0, "third paragraph"));
        lines.push(col(312.0, 540.0, 630.0, "third goes on"));
        lines.push(col(312.0, 420.0, 616.0, "third ends."));
        let page = PageLines {
            width: 612.0,
            height: 792.0,
            lines,
        };
        let texts: Vec<String> = paragraphs(&[page]).into_iter().map(|b| b.text).collect();
        assert_eq!(
            texts,
            [
                "left one 0 left one 1 left one 2 left one ends.",
                "left two 0 left two 1 left two 2 right 0 right 1 right ends.",
                "third paragraph third goes on third ends.",
            ]
        );
    }

    #[test]
    fn footnotes_do_not_split_a_paragraph() {
        let body = |y: f64, text: &str, x1: f64| line(text, 90.0, x1, y);
        let note = |y: f64, text: &str, x1: f64| Line {
            size: 8.0,
            ..line(text, 90.0, x1, y)
        };
        let mut first = Vec::new();
        for i in 0..40 {
            first.push(body(
                700.0 - 14.0 * f64::from(i),
                &format!("body {i}"),
                522.0,
            ));
        }
        first.push(note(100.0, "1 A footnote that runs over", 522.0));
        first.push(note(90.0, "two lines.", 200.0));
        let second = vec![
            body(700.0, "the paragraph ends here.", 300.0),
            body(672.0, "Another one.", 200.0),
        ];
        let pages = [
            PageLines {
                width: 612.0,
                height: 792.0,
                lines: first,
            },
            PageLines {
                width: 612.0,
                height: 792.0,
                lines: second,
            },
        ];
        let blocks = paragraphs(&pages);
        let kinds: Vec<BlockKind> = blocks.iter().map(|b| b.kind).collect();
        let texts: Vec<String> = blocks.into_iter().map(|b| b.text).collect();
        assert_eq!(texts.len(), 3, "{texts:#?}");
        assert!(
            texts[0].starts_with("body 0 body 1")
                && texts[0].ends_with("body 39 the paragraph ends here.")
        );
        // The note's mark is left out, as Word's are.
        assert_eq!(texts[1], "A footnote that runs over two lines.");
        assert_eq!(kinds[1..], [BlockKind::Footnote, BlockKind::Body]);
        assert_eq!(texts[2], "Another one.");
    }

    #[test]
    fn jumbled_lines_are_put_in_reading_order() {
        let mut lines: Vec<Line> = [3.0, 0.0, 4.0, 1.0, 2.0, 5.0]
            .iter()
            .map(|i| line(&format!("line {i}"), 90.0, 522.0, 700.0 - 14.0 * i))
            .collect();
        lines.push(line("right of 2", 300.0, 522.0, 672.5));
        fix_reading_order(&mut lines);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "line 0",
                "line 1",
                "line 2",
                "right of 2",
                "line 3",
                "line 4",
                "line 5"
            ]
        );
    }
}
