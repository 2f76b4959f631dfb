//! Ruled tables: the grid their rules draw, which cell each line of text is in, and the lines put in
//! the table's reading order (row by row, cell by cell, each cell's lines top to bottom), so that a
//! cell whose text wraps reads as one paragraph — the lattice reading of pdfplumber and Camelot.

use super::lines::Line;
use super::rules::{PageRules, Rule, MAX_RULES, SNAP};

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
fn grids(rules: &[Rule]) -> Vec<Grid> {
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
            // One box (a framed note or sidebar) is not a table: at least two cells.
            (xs.len() >= 2 && ys.len() >= 2 && xs.len() + ys.len() >= 5).then_some(Grid {
                xs,
                ys,
                rules,
            })
        })
        .collect()
}

/// Give each line inside a ruled table its cell (see [`Line::cell`]) and put the table's lines in its
/// reading order, in the places its lines held. Tables ruled only across (three-line tables, the
/// usual form in Chinese theses) get their cells from the text's columns and rows.
pub(super) fn assign_cells(lines: &mut [Line], page: &PageRules) {
    if page.rules.is_empty() {
        return;
    }
    let grids = grids(&page.rules);
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
    for (band, &(top, bottom, left, right)) in page.bands.iter().enumerate() {
        let table = grids.len() + band;
        let inside: Vec<usize> = (0..lines.len())
            .filter(|&i| {
                lines.get(i).is_some_and(|l| {
                    l.cell.is_none()
                        && l.y < top
                        && l.y > bottom
                        && l.x0 >= left - SNAP
                        && l.x1 <= right + SNAP
                })
            })
            .collect();
        if let Some(cells) = open_cells(lines, &inside) {
            for (&i, (row, col)) in inside.iter().zip(cells) {
                if let Some(line) = lines.get_mut(i) {
                    line.cell = Some(cell_id(table, row, col));
                }
            }
            members.push(inside);
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

/// The cells of the lines `inside` a table ruled only across, as `(row, column)` each: columns are
/// the spans of x that the lines cover (separated by white space down the whole table), rows start
/// at a baseline where the first column has text or more than half the columns do (a baseline with
/// less continues the cells above it). `None` when the lines make fewer than two columns or rows.
fn open_cells(lines: &[Line], inside: &[usize]) -> Option<Vec<(usize, usize)>> {
    let pieces: Vec<&Line> = inside.iter().filter_map(|&i| lines.get(i)).collect();
    let mut spans: Vec<(f64, f64)> = pieces.iter().map(|l| (l.x0, l.x1)).collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut columns: Vec<(f64, f64)> = Vec::new();
    for (x0, x1) in spans {
        match columns.last_mut() {
            Some(c) if x0 <= c.1 + SNAP => c.1 = c.1.max(x1),
            _ => columns.push((x0, x1)),
        }
    }
    let column_of = |l: &Line| {
        let middle = (l.x0 + l.x1) / 2.0;
        columns
            .iter()
            .position(|c| middle >= c.0 - SNAP && middle <= c.1 + SNAP)
            .unwrap_or(0)
    };
    // Baselines, top to bottom.
    let mut baselines: Vec<f64> = Vec::new();
    let mut ys: Vec<(f64, f64)> = pieces.iter().map(|l| (l.y, l.size)).collect();
    ys.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (y, size) in ys {
        if baselines.last().is_none_or(|&b| b - y > 0.3 * size) {
            baselines.push(y);
        }
    }
    if columns.len() < 2 || baselines.len() < 2 {
        return None;
    }
    let baseline_of = |l: &Line| {
        baselines
            .iter()
            .position(|&b| (b - l.y).abs() <= 0.3 * l.size)
            .unwrap_or(0)
    };
    let mut row_of_baseline = Vec::with_capacity(baselines.len());
    let mut row = 0usize;
    for k in 0..baselines.len() {
        let occupied: Vec<usize> = pieces
            .iter()
            .filter(|l| baseline_of(l) == k)
            .map(|l| column_of(l))
            .collect();
        let starts = occupied.contains(&0) || occupied.len() * 2 > columns.len();
        if k > 0 && starts {
            row += 1;
        }
        row_of_baseline.push(row);
    }
    Some(
        pieces
            .iter()
            .map(|l| {
                let r = row_of_baseline.get(baseline_of(l)).copied().unwrap_or(0);
                (r, column_of(l))
            })
            .collect(),
    )
}

/// A cell's id: table, row and column, ordered as the table reads.
fn cell_id(table: usize, row: usize, col: usize) -> u32 {
    let clamp = |v: usize| v.min(1023) as u32;
    (clamp(table) << 20) | (clamp(row) << 10) | clamp(col)
}
