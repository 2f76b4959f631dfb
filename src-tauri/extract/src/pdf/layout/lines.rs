//! Placed glyphs to lines: glyphs on one baseline gathered, spaces drawn or judged from gaps, note
//! marks dropped, lines put in reading order.

use super::rules::{Band, PageRules, Rule};
use crate::pdf::content::{is_bad_char, Glyph, PageText, Shape};
use crate::pdf::glyphs::is_wide;

/// Glyphs further apart than this many font sizes on one baseline belong to different lines (columns,
/// table cells).
pub(super) const MAX_WORD_GAP: f64 = 5.0;
/// A gap wider than this many font sizes between two glyphs is a word space.
pub(super) const SPACE_GAP: f64 = 0.15;
/// Between a CJK and a Latin glyph, only a gap wider than this many font sizes is a space.
pub(super) const CJK_LATIN_SPACE_GAP: f64 = 0.3;

/// One line of text.
#[derive(Debug, Clone)]
pub(crate) struct Line {
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
    /// The tagged structure's paragraph-level elements of the line's first and last visible glyph
    /// (object numbers; 0 where untagged).
    pub element_first: u32,
    pub element_last: u32,
    /// The ruled table cell the line is in (see `tables`): table, row and column, in reading order.
    pub cell: Option<u32>,
}

/// The lines of one page, in reading order.
#[derive(Debug, Clone, Default)]
pub(crate) struct PageLines {
    pub width: f64,
    pub height: f64,
    pub lines: Vec<Line>,
}

/// Characters that may not start a line (they stay with the character before them).
pub(super) fn no_line_start(c: char) -> bool {
    "，。、；：？！）」』】》〉”’…—·．〕］｝,.;:?!)]".contains(c)
}

pub(super) fn is_blank(text: &str) -> bool {
    text.chars().all(|c| c.is_whitespace() || is_bad_char(c))
}

/// A line being collected.
pub(super) struct RawLine {
    pub(super) glyphs: Vec<usize>,
    pub(super) y: f64,
    pub(super) size: f64,
    pub(super) x_start: f64,
    pub(super) x_end: f64,
}

impl RawLine {
    pub(super) fn accepts(&self, g: &Glyph) -> bool {
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

    pub(super) fn add(&mut self, index: usize, g: &Glyph, blank: bool) {
        self.glyphs.push(index);
        self.x_end = self.x_end.max(g.x1);
        self.x_start = self.x_start.min(g.x0);
        if !blank && g.size > 1.15 * self.size {
            self.size = g.size;
            self.y = g.y;
        }
    }
}

/// Group a page's glyphs into lines: a vertical rule between two glyphs (a table's) or a column of text
/// starts (a table without rules) separates them.
pub(crate) fn page_lines(page: &PageText, page_rules: &PageRules) -> PageLines {
    let rules = VerticalRules::of(&page_rules.rules);
    let joins = |l: &RawLine, g: &Glyph| l.accepts(g) && !rules.between(l.x_end, g);
    let mut raw: Vec<RawLine> = Vec::new();
    let mut current: Option<usize> = None;
    for (index, g) in page.glyphs.iter().enumerate() {
        let blank = is_blank(page.glyph_text(g));
        let target = current
            .filter(|&i| raw.get(i).is_some_and(|l| joins(l, g)))
            .or_else(|| {
                let start = raw.len().saturating_sub(16);
                (start..raw.len())
                    .rev()
                    .find(|&i| raw.get(i).is_some_and(|l| joins(l, g)))
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
    let raw = split_at_aligned_columns(page, raw, &page_rules.bands);
    let mut lines: Vec<Line> = raw.iter().filter_map(|r| build_line(page, r)).collect();
    mark_drawn_bullets(&mut lines, &page.shapes);
    fix_reading_order(&mut lines);
    PageLines {
        width: page.width,
        height: page.height,
        lines,
    }
}

/// A page's vertical rules drawn as lines of their own (not a frame's edges), by position.
struct VerticalRules(Vec<Rule>);

impl VerticalRules {
    fn of(rules: &[Rule]) -> VerticalRules {
        let mut vertical: Vec<Rule> = rules
            .iter()
            .filter(|r| r.vertical && !r.edge)
            .copied()
            .collect();
        vertical.sort_by(|a, b| a.at.total_cmp(&b.at));
        VerticalRules(vertical)
    }

    /// Whether a rule stands between `x_end` (where a line's glyphs end) and glyph `g`, across its baseline.
    fn between(&self, x_end: f64, g: &Glyph) -> bool {
        if self.0.is_empty() || g.x0 - x_end < 0.05 * g.size {
            return false;
        }
        let from = self.0.partition_point(|r| r.at < x_end);
        self.0
            .get(from..)
            .unwrap_or_default()
            .iter()
            .take_while(|r| r.at <= g.x0)
            .any(|r| r.lo <= g.y + 0.3 * g.size && r.hi >= g.y)
    }
}

/// Where text resumes after each gap of at least `gap` font sizes between two glyphs of a line.
fn resumes_after_gaps(page: &PageText, line: &RawLine, gap: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let mut prev: Option<&Glyph> = None;
    for g in line.glyphs.iter().filter_map(|&i| page.glyphs.get(i)) {
        if is_blank(page.glyph_text(g)) {
            continue;
        }
        if prev.is_some_and(|p| g.x0 - p.x1 >= gap * g.size.max(p.size)) {
            out.push(g.x0);
        }
        prev = Some(g);
    }
    out
}

/// A gap between two glyphs of a line this many font sizes wide may separate table columns.
const COLUMN_GAP: f64 = 0.8;
/// Inside a table ruled only across, a gap this many font sizes wide may separate cells.
const BAND_COLUMN_GAP: f64 = 0.4;
/// Lines in a row that must share a column start for a table without rules to be seen.
const MIN_TABLE_ROWS: usize = 3;

/// Split the lines of a table drawn without rules into its cells: where at least [`MIN_TABLE_ROWS`]
/// consecutive lines each have a gap of [`COLUMN_GAP`] font sizes after which text starts at the same
/// place, each line is cut there (as pdfminer and poppler cut text runs at wide gaps, but only where
/// the rows agree, so that a justified line's stretched space is never taken for a column).
fn split_at_aligned_columns(page: &PageText, raw: Vec<RawLine>, bands: &[Band]) -> Vec<RawLine> {
    // Per line: the x where text resumes after each wide gap.
    let starts: Vec<Vec<f64>> = raw
        .iter()
        .map(|line| resumes_after_gaps(page, line, COLUMN_GAP))
        .collect();
    let shares = |i: usize, x: f64| {
        starts
            .get(i)
            .is_some_and(|s| s.iter().any(|&sx| (sx - x).abs() <= 1.0))
    };
    let mut cuts: Vec<Vec<f64>> = vec![Vec::new(); raw.len()];
    for (i, line_starts) in starts.iter().enumerate() {
        for &x in line_starts {
            if cuts
                .get(i)
                .is_some_and(|c| c.iter().any(|&cx| (cx - x).abs() <= 1.0))
            {
                continue;
            }
            // A run of consecutive lines, one below the other, sharing the column start.
            let mut end = i + 1;
            while end < raw.len()
                && shares(end, x)
                && raw
                    .get(end)
                    .zip(raw.get(end - 1))
                    .is_some_and(|(b, a)| b.y < a.y && a.y - b.y <= 3.0 * a.size.max(b.size))
            {
                end += 1;
            }
            if end - i >= MIN_TABLE_ROWS {
                for row in cuts.iter_mut().take(end).skip(i) {
                    row.push(x);
                }
            }
        }
    }
    // Inside a table ruled only across, a gap of [`BAND_COLUMN_GAP`] separates cells where the text
    // after it starts where another of the table's lines starts a piece (a column): the rules say it
    // is a table, and a cell's wrapped text ends just a cell's padding before the next.
    for &(top, bottom, left, right) in bands {
        let members: Vec<usize> = (0..raw.len())
            .filter(|&i| {
                raw.get(i).is_some_and(|l| {
                    l.y < top && l.y > bottom && l.x_start >= left - 2.0 && l.x_end <= right + 2.0
                })
            })
            .collect();
        let candidates: Vec<(usize, Vec<f64>)> = members
            .iter()
            .filter_map(|&i| Some((i, resumes_after_gaps(page, raw.get(i)?, BAND_COLUMN_GAP))))
            .collect();
        let starts_elsewhere = |line: usize, x: f64| {
            candidates.iter().any(|(other, xs)| {
                *other != line
                    && (raw
                        .get(*other)
                        .is_some_and(|l| (l.x_start - x).abs() <= 1.0)
                        || xs.iter().any(|&ox| (ox - x).abs() <= 1.0))
            })
        };
        for (i, xs) in &candidates {
            for &x in xs {
                if starts_elsewhere(*i, x) {
                    if let Some(row) = cuts.get_mut(*i) {
                        row.push(x);
                    }
                }
            }
        }
    }
    if cuts.iter().all(Vec::is_empty) {
        return raw;
    }
    let mut out = Vec::with_capacity(raw.len());
    for (line, row_cuts) in raw.into_iter().zip(cuts) {
        if row_cuts.is_empty() {
            out.push(line);
            continue;
        }
        let mut piece: Option<RawLine> = None;
        for &index in &line.glyphs {
            let Some(g) = page.glyphs.get(index) else {
                continue;
            };
            let cut = row_cuts.iter().any(|&x| (g.x0 - x).abs() <= 1.0);
            match piece.as_mut() {
                Some(p) if !cut => p.add(index, g, is_blank(page.glyph_text(g))),
                _ => {
                    out.extend(piece.take());
                    piece = Some(RawLine {
                        glyphs: vec![index],
                        y: line.y,
                        size: line.size,
                        x_start: g.x0,
                        x_end: g.x1,
                    });
                }
            }
        }
        out.extend(piece);
    }
    out
}

/// Give a line the bullet a browser draws as a shape (a small filled disc or square just left of the
/// line's first glyph, at its middle height) as the text `• `, as word processors write it.
fn mark_drawn_bullets(lines: &mut [Line], shapes: &[Shape]) {
    let bullets: Vec<&Shape> = shapes
        .iter()
        .filter(|s| s.filled && s.width() > 0.5 && s.height() > 0.5)
        .filter(|s| (0.6..=1.6).contains(&(s.width() / s.height())))
        .collect();
    if bullets.is_empty() {
        return;
    }
    for i in 0..lines.len() {
        let Some(line) = lines.get(i) else { continue };
        let size = line.size;
        let found = bullets.iter().find(|s| {
            let middle = (s.y0 + s.y1) / 2.0;
            s.width() <= 0.6 * size
                && s.width() >= 0.15 * size
                && s.x1 < line.x0
                && line.x0 - s.x1 <= 2.5 * size
                && middle >= line.y
                && middle <= line.y + 0.7 * size
        });
        let Some(bullet) = found else { continue };
        let x0 = bullet.x0;
        // Nothing else on the baseline between the bullet and the line.
        let blocked = lines
            .iter()
            .any(|o| (o.y - line.y).abs() < 0.3 * size && o.x1 <= line.x0 && o.x1 > x0);
        if let (false, Some(line)) = (blocked, lines.get_mut(i)) {
            line.text.insert_str(0, "• ");
            line.x0 = x0;
        }
    }
}

/// A glyph of a line with its usable text.
pub(super) struct Item<'a> {
    pub(super) glyph: &'a Glyph,
    /// The glyph's text without unmapped or control characters.
    pub(super) text: String,
    /// Whether the glyph is a space (or shows nothing).
    pub(super) blank: bool,
}

/// Leave out footnote and endnote reference marks: digits (or `*` `†` `‡`) set at most three quarters
/// the size of the line's largest glyphs and raised a fifth of that size above their baseline, as a
/// .docx reader leaves Word's reference marks out. A line of small text only keeps its digits.
pub(super) fn drop_note_marks(items: &mut Vec<Item>) {
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
pub(super) fn build_line(page: &PageText, raw: &RawLine) -> Option<Line> {
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
        element_first: first.glyph.element,
        element_last: last.glyph.element,
        cell: None,
    })
}

/// The space glyphs drawn between two visible glyphs of a line (or before the first, or after the last).
#[derive(Default)]
pub(super) struct DrawnSpaces<'a> {
    /// Their text: `' '`, or the no-break and ideographic spaces the document draws as such.
    pub(super) text: String,
    pub(super) last: Option<&'a Glyph>,
}

impl<'a> DrawnSpaces<'a> {
    /// Count a space glyph, unless it overprints the one before it (fake bold, shadows).
    pub(super) fn add(&mut self, item: &Item<'a>) {
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
pub(super) fn is_opening(c: char) -> bool {
    "([{“‘（「『【《〈〔［｛".contains(c)
}

/// Quotation marks: Unicode line breaking allows no break on either side of them.
pub(super) fn is_quote(c: char) -> bool {
    "\"'“”‘’«»".contains(c)
}

/// The width of the line's first unbreakable unit: a word (with the punctuation glued to it), or a CJK
/// character with the punctuation that may not start a line; an opening bracket takes the word after it.
pub(super) fn first_unit(items: &[Item], size: f64) -> f64 {
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
pub(super) fn fix_reading_order(lines: &mut [Line]) {
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
