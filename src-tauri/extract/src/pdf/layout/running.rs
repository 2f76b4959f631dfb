//! Running headers, footers and page numbers: lines repeated at the same place on many pages, and
//! lone numbers at a page's edge, dropped before paragraphs are rebuilt.

use std::collections::{HashMap, HashSet};

use super::lines::{Line, PageLines};

/// A page number on its own: `12`, `- 12 -`, `xii`, `Page 3`, `3 / 10`, `第 3 页`.
pub(super) fn is_page_number(text: &str) -> bool {
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
pub(super) fn is_roman_numeral(s: &str) -> bool {
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
pub(crate) fn remove_running_heads(pages: &mut [PageLines]) {
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
