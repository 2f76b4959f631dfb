//! Paragraphs from lines: where a paragraph ends (short line, gap, indent, size change, flow break)
//! and where it runs on across a page or column break; footnotes set aside.

use super::join::{join, BreakSpace, Vocabulary};
use super::lines::{Line, PageLines};
use super::metrics::Metrics;
use crate::paragraphs::is_bullet;
use crate::pdf::glyphs::is_wide;
use crate::{Block, BlockKind};

/// A paragraph being built.
pub(super) struct Para {
    pub(super) text: String,
    pub(super) lines: usize,
    pub(super) max_size: f64,
    /// Set aside as a footnote.
    pub(super) note: bool,
    /// Shares a baseline with the paragraph before or after it: a table cell.
    pub(super) cell: bool,
    /// Where its last line is (page, line) and that line's structure element (0 if untagged).
    pub(super) last: (usize, usize),
    pub(super) element: u32,
}

/// Rebuild the document's paragraphs from its pages' lines.
pub(crate) fn paragraphs(pages: &[PageLines]) -> Vec<Block> {
    let metrics = Metrics::measure(pages);
    let vocab = Vocabulary::build(pages, metrics.justified);
    let tags = tags_are_paragraphs(pages);
    let margins_of = |page: usize, line: usize| metrics.margins(page, line);
    let right_of = |page: usize, line: usize| margins_of(page, line).1;
    // How many lines open each page before the first paragraph break on it.
    let opening_lines: Vec<usize> = pages
        .iter()
        .enumerate()
        .map(|(p, page)| {
            let mut count = 1;
            for (i, pair) in page.lines.windows(2).enumerate() {
                let [a, b] = pair else { break };
                if ends_within_page(&metrics, count, margins_of(p, i), a, b) {
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
                        let margins = margins_of(page_index, line_index.saturating_sub(1));
                        (!ends_within_page(&metrics, para.lines, margins, a, line))
                            .then(|| BreakSpace::between(&metrics, margins.1, a, line))
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
            // A tagged paragraph that runs on to this page although other text was drawn after it on
            // the page before (a browser draws code blocks and figures last): it is continued, after
            // that text.
            if tags && line_index == 0 && line.element_first != 0 {
                let open =
                    out.iter().rev().take(16).position(|p| {
                        p.element == line.element_first && p.last.0 + 1 == page_index
                    });
                if let Some(back) = open.filter(|&back| back > 0) {
                    let index = out.len() - 1 - back;
                    let para = out.remove(index);
                    let (p, i) = para.last;
                    if let Some(a) = pages.get(p).and_then(|pg| pg.lines.get(i)) {
                        prev = Some((p, i, a));
                    }
                    out.push(para);
                }
            }
            // Beside the line before, on its baseline: both are table cells.
            let beside = prev.is_some_and(|(prev_page, _, a)| {
                prev_page == page_index
                    && (line.y - a.y).abs() <= 0.5 * a.size.max(line.size)
                    && line.x0 > a.x1
            });
            // A list item's marker set apart by a tab stop is not a cell of its own.
            let after_marker = beside
                && out
                    .last()
                    .is_some_and(|p| p.lines == 1 && is_marker(&p.text));
            let beside = beside && !after_marker;
            // A tagged document says which lines share a paragraph element.
            let tagged = prev.and_then(|(_, _, a)| {
                (tags && a.element_last != 0 && line.element_first != 0)
                    .then_some(a.element_last != line.element_first)
            });
            // A ruled table's cell is one paragraph, however its lines lie.
            let cells = prev.and_then(|(_, _, a)| {
                (a.cell.is_some() || line.cell.is_some()).then_some(a.cell != line.cell)
            });
            let breaks = match (prev, out.last()) {
                _ if cells.is_some() => cells.unwrap_or(true),
                _ if beside => true,
                _ if after_marker => false,
                _ if tagged.is_some() => tagged.unwrap_or(true),
                // The next number of a numbered list starts an item, even after a full line.
                (Some(_), Some(para)) if numbered_item(&para.text) && numbered_item(&line.text) => {
                    true
                }
                (Some((prev_page, prev_index, a)), Some(para))
                    if prev_page == page_index && line.y < a.y =>
                {
                    ends_within_page(
                        &metrics,
                        para.lines,
                        margins_of(prev_page, prev_index),
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
            let new_cell = beside && joint.is_none();
            if new_cell {
                if let Some(last) = out.last_mut() {
                    last.cell = true;
                }
            }
            add_line(&mut out, line, joint, &vocab);
            if new_cell || line.cell.is_some() {
                if let Some(last) = out.last_mut() {
                    last.cell = true;
                }
            }
            if let Some(last) = out.last_mut() {
                last.last = (page_index, line_index);
                last.element = line.element_last;
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

/// Whether a tagged document's structure elements are its paragraphs: nearly every line is tagged,
/// and of the pairs of lines one below the other on a page, some share an element and some do not
/// (neither one element per line nor one per page, as careless taggers write).
pub(super) fn tags_are_paragraphs(pages: &[PageLines]) -> bool {
    let (mut lines, mut tagged, mut same, mut differ) = (0usize, 0usize, 0usize, 0usize);
    for page in pages {
        lines += page.lines.len();
        tagged += page.lines.iter().filter(|l| l.element_first != 0).count();
        for pair in page.lines.windows(2) {
            if let [a, b] = pair {
                if a.element_last != 0 && b.element_first != 0 {
                    if a.element_last == b.element_first {
                        same += 1;
                    } else {
                        differ += 1;
                    }
                }
            }
        }
    }
    let pairs = same + differ;
    tagged * 10 >= lines * 9 && pairs > 0 && same * 5 >= pairs && differ * 20 >= pairs
}

/// A footnote's text without its mark (`1`, `12`, `¹`, `①`, `*` before the text; a longer number is
/// text, as in a year).
pub(super) fn without_note_mark(text: &str) -> String {
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

/// Whether a text is a list item's marker alone: a bullet, or an item number (`1.`, `2)`, `(3)`, `a.`).
pub(super) fn is_marker(text: &str) -> bool {
    let text = text.trim();
    let mut chars = text.chars();
    let bullet = chars.next().is_some_and(is_bullet) && chars.next().is_none();
    let inner = text.strip_prefix('(').unwrap_or(text);
    let label = inner.trim_end_matches(['.', ')', '、', '．', '）']);
    let numbered = label.len() < inner.len()
        && (1..=2).contains(&label.len())
        && (label.chars().all(|c| c.is_ascii_digit())
            || (label.len() == 1 && label.chars().all(|c| c.is_ascii_lowercase())));
    bullet || numbered
}

/// Whether a text starts with an item number: `1.`, `2)`, `(3)`, `4、`, followed by a space or by
/// text that is not a digit (not `1.5 GB`).
pub(super) fn numbered_item(text: &str) -> bool {
    let rest = text.strip_prefix(['(', '（']).unwrap_or(text);
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let mut after = rest[digits..].chars();
    (1..=3).contains(&digits)
        && after.next().is_some_and(|c| ".)、．）".contains(c))
        && after.next().is_some_and(|c| !c.is_ascii_digit())
}

/// Whether a line starts with a bullet: a list item, which starts a paragraph.
pub(super) fn starts_list_item(line: &Line) -> bool {
    let mut chars = line.text.chars();
    chars.next().is_some_and(is_bullet) && chars.next().is_some_and(char::is_whitespace)
}

/// Add a line to the last paragraph (`joint` says what the page shows at the break), or, when `joint` is
/// `None`, start a new one with it.
pub(super) fn add_line(
    paras: &mut Vec<Para>,
    line: &Line,
    joint: Option<BreakSpace>,
    vocab: &Vocabulary,
) {
    match (paras.last_mut(), joint) {
        (Some(para), Some(space)) => {
            join(&mut para.text, &line.text, &space, vocab);
            para.lines += 1;
            para.max_size = para.max_size.max(line.size);
        }
        _ => paras.push(Para {
            note: false,
            cell: false,
            last: (0, 0),
            element: 0,
            text: line.text.clone(),
            lines: 1,
            max_size: line.size,
        }),
    }
}

/// Where a page's footnotes start: the index of the first of the lines that end the page in a smaller
/// font, below all body text in the lower half of the page (the number of lines when there are none).
pub(super) fn footnotes_start(page: &PageLines, body_size: f64) -> usize {
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

/// Whether a line is centred between the margins: it touches neither margin, and its middle is the
/// column's (within half a font size).
pub(super) fn centred((left, right): (f64, f64), line: &Line) -> bool {
    line.x0 > left + 0.5
        && line.x1 < right - 0.5
        && ((line.x0 + line.x1) - (left + right)).abs() < line.size
}

/// Whether a line stops short of its margins (`left`, `right`): the next line's first unit would have
/// fitted after it, so the line break was not forced by the margin. A centred line followed by another
/// has the room on both its sides. Also true when the font size changes.
pub(super) fn ends_short(metrics: &Metrics, margins: (f64, f64), a: &Line, b: &Line) -> bool {
    let size = a.size.max(b.size);
    if (a.size - b.size).abs() > 0.15 * size {
        return true;
    }
    let (left, right) = margins;
    let room = if centred(margins, a) && centred(margins, b) {
        (right - left) - (a.x1 - a.x0)
    } else {
        right - a.x1
    };
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

/// Whether a paragraph of `lines` lines, last line `a` (with its `margins`), ends before `b`, the next
/// line below it on the same page.
pub(super) fn ends_within_page(
    metrics: &Metrics,
    lines: usize,
    margins: (f64, f64),
    a: &Line,
    b: &Line,
) -> bool {
    let size = a.size.max(b.size);
    if ends_short(metrics, margins, a, b) || (b.y - a.y).abs() <= 0.5 * size {
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
    // Lines of a centred paragraph move their left edge with their length.
    let moves = (b.x0 - a.x0).abs() > 0.5 * size && !(centred(margins, a) && centred(margins, b));
    // A centred line well in from the margin after a line that is not centred: a caption or a title
    // after a paragraph whose last line is full.
    let centring_starts =
        centred(margins, b) && !centred(margins, a) && b.x0 - margins.0 >= 3.0 * size;
    (lines >= 2 && moves) || centring_starts || starts_list_item(b)
}

/// Whether a paragraph ends at a page or column break, between `a` and `b` (each with the margins of its
/// line). `continuation` is, when `b` opens a page, the number of lines before the first paragraph break
/// there.
pub(super) fn ends_at_flow_break(
    metrics: &Metrics,
    lines: usize,
    ((left_a, right_a), a): ((f64, f64), &Line),
    ((left_b, _), b): ((f64, f64), &Line),
    continuation: Option<usize>,
) -> bool {
    if ends_short(metrics, (left_a, right_a), a, b) {
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
