//! Measurements of the whole document that judge line breaks: normal line spacing, margins of each
//! line's column, justification, body size.

use std::collections::HashMap;

use super::lines::{Line, PageLines};
use crate::pdf::glyphs::is_wide;

/// Measurements of the whole document used to judge line breaks.
pub(super) struct Metrics {
    /// Normal baseline distance by font size bucket (size rounded to half points).
    pub(super) spacing: HashMap<i64, f64>,
    /// Normal baseline distance as a multiple of the font size (for sizes without their own).
    pub(super) spacing_ratio: f64,
    /// The left and right margin of each line (of the column it is set in), by page.
    pub(super) margins: Vec<Vec<(f64, f64)>>,
    /// Whether lines are justified (most of them end at the right margin).
    pub(super) justified: bool,
    /// The same, judged on the lines that end in Latin text only (at least five of them): CJK lines
    /// end flush in ragged text too, so a Chinese document with an English paragraph set ragged is not
    /// justified there.
    pub(super) justified_latin: bool,
    /// The body text's font size.
    pub(super) body_size: f64,
    /// The lowest baseline a page's text may reach (estimated).
    pub(super) lowest_baseline: f64,
    /// Whether the document draws the spaces at its line ends (as word processors do when they fit),
    /// so that a line end without one had none in the text.
    pub(super) draws_line_end_spaces: bool,
}

pub(super) fn size_bucket(size: f64) -> i64 {
    (size * 2.0).round() as i64
}

pub(super) fn lower_quartile(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 4).copied()
}

impl Metrics {
    pub(super) fn measure(pages: &[PageLines]) -> Metrics {
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
            .filter(|l| l.chars >= 8 && l.cell.is_none())
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
    pub(super) fn lowest_baseline(&self, pages: &[PageLines]) -> f64 {
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

    pub(super) fn normal_spacing(&self, size: f64) -> f64 {
        self.spacing
            .get(&size_bucket(size))
            .copied()
            .unwrap_or(self.spacing_ratio * size)
    }

    pub(super) fn margins(&self, page: usize, line: usize) -> (f64, f64) {
        self.margins
            .get(page)
            .and_then(|m| m.get(line))
            .copied()
            .unwrap_or((0.0, f64::MAX))
    }
}

/// The left margin of a page: the leftmost line start shared by at least two lines.
pub(super) fn left_margin(lines: &[Line]) -> f64 {
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
pub(super) fn right_margin(page_width: f64, left: f64, observed: f64) -> f64 {
    let symmetric = page_width - left;
    if symmetric >= observed && symmetric - observed <= 0.06 * page_width {
        symmetric
    } else {
        observed
    }
}

/// The 95th percentile of the ends of lines with some text (the reach of a column without its
/// occasional overlong line).
pub(super) fn reach<'a>(lines: impl Iterator<Item = &'a Line>) -> Option<f64> {
    let mut ends: Vec<f64> = lines.filter(|l| l.chars >= 8).map(|l| l.x1).collect();
    ends.sort_by(f64::total_cmp);
    ends.get((ends.len() * 19 / 20).min(ends.len().saturating_sub(1)))
        .copied()
}

/// Where the columns of a page start: left edges shared by several lines that the lines to their left
/// do not cross.
pub(super) fn column_starts(lines: &[Line]) -> Vec<f64> {
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
pub(super) fn line_margins(page: &PageLines, observed_right: Option<f64>) -> Vec<(f64, f64)> {
    let lines = &page.lines;
    // A ruled table's cells are not columns of the page.
    let outside: Vec<Line>;
    let starts = if lines.iter().any(|l| l.cell.is_some()) {
        outside = lines.iter().filter(|l| l.cell.is_none()).cloned().collect();
        column_starts(&outside)
    } else {
        column_starts(lines)
    };
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

/// Narrow the right margin for indented blocks (quotations) whose lines end together short of it.
pub(super) fn block_rights(lines: &[Line], mut margins: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
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
