//! Ruled tables: the grid their rules draw, which cell each line of text is in, and the lines put in
//! the table's reading order (row by row, cell by cell, each cell's lines top to bottom), so that a
//! cell whose text wraps reads as one paragraph — the lattice reading of pdfplumber and Camelot.

use super::lines::Line;
use crate::pdf::content::Shape;

/// A rule is at most this thick (points) and at least this long.
const MAX_THICKNESS: f64 = 2.0;
const MIN_LENGTH: f64 = 4.0;
/// Rules closer than this (points) are one grid line; a rule's end this near another rule touches it.
const SNAP: f64 = 2.0;
/// Pages with more rules than this are drawings, not tables.
const MAX_RULES: usize = 1000;

/// A horizontal or vertical rule: `at` its x (vertical) or y (horizontal), from `lo` to `hi`.
#[derive(Debug, Clone, Copy)]
struct Rule {
    vertical: bool,
    at: f64,
    lo: f64,
    hi: f64,
}

impl Rule {
    fn touches(&self, other: &Rule) -> bool {
        if self.vertical == other.vertical {
            (self.at - other.at).abs() <= SNAP
                && self.lo <= other.hi + SNAP
                && other.lo <= self.hi + SNAP
        } else {
            let (v, h) = if self.vertical {
                (self, other)
            } else {
                (other, self)
            };
            v.at >= h.lo - SNAP && v.at <= h.hi + SNAP && h.at >= v.lo - SNAP && h.at <= v.hi + SNAP
        }
    }
}

/// The rules of painted paths: thin filled or stroked boxes, and the four edges of stroked rectangles.
fn rules(shapes: &[Shape]) -> Vec<Rule> {
    let mut out = Vec::new();
    for s in shapes {
        let (w, h) = (s.width(), s.height());
        if w <= MAX_THICKNESS && h >= MIN_LENGTH {
            out.push(Rule {
                vertical: true,
                at: (s.x0 + s.x1) / 2.0,
                lo: s.y0,
                hi: s.y1,
            });
        } else if h <= MAX_THICKNESS && w >= MIN_LENGTH {
            out.push(Rule {
                vertical: false,
                at: (s.y0 + s.y1) / 2.0,
                lo: s.x0,
                hi: s.x1,
            });
        } else if !s.filled && w >= MIN_LENGTH && h >= MIN_LENGTH {
            for (vertical, at) in [(true, s.x0), (true, s.x1), (false, s.y0), (false, s.y1)] {
                let (lo, hi) = if vertical { (s.y0, s.y1) } else { (s.x0, s.x1) };
                out.push(Rule {
                    vertical,
                    at,
                    lo,
                    hi,
                });
            }
        }
    }
    out
}

/// One ruled table: its column and row boundaries and the rules that draw them.
struct Grid {
    /// Column boundaries, left to right.
    xs: Vec<f64>,
    /// Row boundaries, top to bottom (descending y).
    ys: Vec<f64>,
    rules: Vec<Rule>,
}

impl Grid {
    /// The cell holding point `(x, y)`: `(row, column)` of its top left grid cell, merged cells
    /// (where no rule separates two grid cells) taken as one.
    fn cell(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let col = self.xs.windows(2).position(|w| x >= w[0] && x < w[1])?;
        let row = self.ys.windows(2).position(|w| y <= w[0] && y > w[1])?;
        let (mut row, mut col) = (row, col);
        // Merged with the cell to the left while no vertical rule crosses this row at the boundary.
        while col > 0 {
            let (Some(&x), Some(mid)) = (self.xs.get(col), self.row_middle(row)) else {
                break;
            };
            if self.has_rule(true, x, mid) {
                break;
            }
            col -= 1;
        }
        while row > 0 {
            let (Some(&y), Some(mid)) = (self.ys.get(row), self.col_middle(col)) else {
                break;
            };
            if self.has_rule(false, y, mid) {
                break;
            }
            row -= 1;
        }
        Some((row, col))
    }

    fn row_middle(&self, row: usize) -> Option<f64> {
        Some((self.ys.get(row)? + self.ys.get(row + 1)?) / 2.0)
    }

    fn col_middle(&self, col: usize) -> Option<f64> {
        Some((self.xs.get(col)? + self.xs.get(col + 1)?) / 2.0)
    }

    fn has_rule(&self, vertical: bool, at: f64, across: f64) -> bool {
        self.rules.iter().any(|r| {
            r.vertical == vertical && (r.at - at).abs() <= SNAP && r.lo <= across && r.hi >= across
        })
    }
}

/// The distinct positions of rules (within [`SNAP`]), ascending.
fn positions(rules: &[Rule], vertical: bool) -> Vec<f64> {
    let mut at: Vec<f64> = rules
        .iter()
        .filter(|r| r.vertical == vertical)
        .map(|r| r.at)
        .collect();
    at.sort_by(f64::total_cmp);
    at.dedup_by(|b, a| *b - *a <= SNAP);
    at
}

/// The page's ruled tables: groups of touching rules with at least two columns' and two rows'
/// boundaries.
fn grids(shapes: &[Shape]) -> Vec<Grid> {
    let rules = rules(shapes);
    if rules.len() > MAX_RULES {
        return Vec::new();
    }
    // Connected groups (union-find).
    let mut parent: Vec<usize> = (0..rules.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while let Some(&p) = parent.get(i) {
            if p == i {
                break;
            }
            let grand = parent.get(p).copied().unwrap_or(p);
            if let Some(slot) = parent.get_mut(i) {
                *slot = grand;
            }
            i = p;
        }
        i
    }
    for i in 0..rules.len() {
        for j in i + 1..rules.len() {
            if let (Some(a), Some(b)) = (rules.get(i), rules.get(j)) {
                if a.touches(b) {
                    let (ra, rb) = (root(&mut parent, i), root(&mut parent, j));
                    if let Some(slot) = parent.get_mut(ra) {
                        *slot = rb;
                    }
                }
            }
        }
    }
    let mut groups: Vec<(usize, Vec<Rule>)> = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let r = root(&mut parent, i);
        match groups.iter_mut().find(|(g, _)| *g == r) {
            Some((_, members)) => members.push(*rule),
            None => groups.push((r, vec![*rule])),
        }
    }
    groups
        .into_iter()
        .filter_map(|(_, rules)| {
            let xs = positions(&rules, true);
            let mut ys = positions(&rules, false);
            ys.reverse();
            (xs.len() >= 2 && ys.len() >= 2).then_some(Grid { xs, ys, rules })
        })
        .collect()
}

/// Give each line inside a ruled table its cell (see [`Line::cell`]) and put the table's lines in its
/// reading order, in the places its lines held.
pub(super) fn assign_cells(lines: &mut [Line], shapes: &[Shape]) {
    let grids = grids(shapes);
    if grids.is_empty() {
        return;
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); grids.len()];
    for (i, line) in lines.iter_mut().enumerate() {
        let (x, y) = ((line.x0 + line.x1) / 2.0, line.y + 0.3 * line.size);
        let found = grids
            .iter()
            .enumerate()
            .find_map(|(t, g)| g.cell(x, y).map(|(row, col)| (t, row, col)));
        if let Some((t, row, col)) = found {
            line.cell = Some(cell_id(t, row, col));
            if let Some(m) = members.get_mut(t) {
                m.push(i);
            }
        }
    }
    for slots in members {
        let mut ordered: Vec<Line> = slots
            .iter()
            .filter_map(|&i| lines.get(i).cloned())
            .collect();
        ordered.sort_by(|a, b| {
            a.cell
                .cmp(&b.cell)
                .then(b.y.total_cmp(&a.y))
                .then(a.x0.total_cmp(&b.x0))
        });
        for (&slot, line) in slots.iter().zip(ordered) {
            if let Some(place) = lines.get_mut(slot) {
                *place = line;
            }
        }
    }
}

/// A cell's id: table, row and column, ordered as the table reads.
fn cell_id(table: usize, row: usize, col: usize) -> u32 {
    let clamp = |v: usize| v.min(1023) as u32;
    (clamp(table) << 20) | (clamp(row) << 10) | clamp(col)
}
