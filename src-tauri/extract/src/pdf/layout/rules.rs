//! Rules (thin painted lines and boxes) a page draws: the lines of ruled tables, and the horizontal
//! rules of tables ruled only across (three-line tables).

use crate::pdf::content::Shape;

/// A rule is at most this thick (points) and at least this long.
pub(super) const MAX_THICKNESS: f64 = 2.0;
pub(super) const MIN_LENGTH: f64 = 4.0;
/// Rules closer than this (points) are one grid line; a rule's end this near another rule touches it.
pub(super) const SNAP: f64 = 2.0;
/// Pages with more rules than this are drawings, not tables (and the grid, which compares every pair
/// of rules, stays within a few times the cost of reading the rules).
pub(super) const MAX_RULES: usize = 300;

/// A horizontal or vertical rule: `at` its x (vertical) or y (horizontal), from `lo` to `hi`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rule {
    pub(super) vertical: bool,
    pub(super) at: f64,
    pub(super) lo: f64,
    pub(super) hi: f64,
    /// An edge of a stroked rectangle (a frame, a box around inline code) rather than a line of its
    /// own: it bounds a table's grid but does not cut a line of text.
    pub(super) edge: bool,
}

impl Rule {
    pub(super) fn touches(&self, other: &Rule) -> bool {
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
                edge: false,
            });
        } else if h <= MAX_THICKNESS && w >= MIN_LENGTH {
            out.push(Rule {
                vertical: false,
                at: (s.y0 + s.y1) / 2.0,
                lo: s.x0,
                hi: s.x1,
                edge: false,
            });
        } else if !s.filled && w >= MIN_LENGTH && h >= MIN_LENGTH {
            for (vertical, at) in [(true, s.x0), (true, s.x1), (false, s.y0), (false, s.y1)] {
                let (lo, hi) = if vertical { (s.y0, s.y1) } else { (s.x0, s.x1) };
                out.push(Rule {
                    vertical,
                    at,
                    lo,
                    hi,
                    edge: true,
                });
            }
        }
    }
    out
}

/// A table ruled only across: `(top, bottom, left, right)`.
pub(super) type Band = (f64, f64, f64, f64);

/// A page's rules and the tables ruled only across they draw, found once per page.
pub(super) struct PageRules {
    pub(super) rules: Vec<Rule>,
    pub(super) bands: Vec<Band>,
}

impl PageRules {
    pub(super) fn of(shapes: &[Shape]) -> PageRules {
        let rules = rules(shapes);
        let bands = bands(&rules);
        PageRules { rules, bands }
    }
}

/// Tables ruled only across: stacks of horizontal rules of one extent that touch no vertical rule, as
/// `(top, bottom, left, right)`: three rules with the first two at most a header row apart (the
/// three-line table), or two rules at most [`MAX_TWO_RULE_BAND`] apart; a page's header and footer
/// rules are neither.
fn bands(rules: &[Rule]) -> Vec<Band> {
    if rules.len() > MAX_RULES {
        return Vec::new();
    }
    let verticals: Vec<&Rule> = rules.iter().filter(|r| r.vertical).collect();
    // Horizontal rules drawn cell by cell are joined end to end into the table's.
    let mut across: Vec<Rule> = rules
        .iter()
        .filter(|r| !r.vertical && !verticals.iter().any(|v| v.touches(r)))
        .copied()
        .collect();
    across.sort_by(|a, b| a.at.total_cmp(&b.at).then(a.lo.total_cmp(&b.lo)));
    let mut joined: Vec<Rule> = Vec::with_capacity(across.len());
    for r in across {
        match joined.last_mut() {
            Some(last) if (last.at - r.at).abs() <= SNAP && r.lo <= last.hi + SNAP => {
                last.hi = last.hi.max(r.hi);
            }
            _ => joined.push(r),
        }
    }
    let mut bands: Vec<(f64, f64, Vec<f64>)> = Vec::new();
    for r in &joined {
        match bands
            .iter_mut()
            .find(|b| (b.0 - r.lo).abs() <= SNAP && (b.1 - r.hi).abs() <= SNAP)
        {
            Some(b) => b.2.push(r.at),
            None => bands.push((r.lo, r.hi, vec![r.at])),
        }
    }
    let mut out = Vec::new();
    for (left, right, mut ats) in bands {
        ats.sort_by(|a, b| b.total_cmp(a));
        ats.dedup_by(|b, a| *a - *b <= SNAP);
        // Rules top to bottom, taken as three-line tables (top, below the header row, bottom) or as
        // tables ruled above and below; tables of one width stacked on a page are told apart so.
        let mut i = 0;
        while let Some(&top) = ats.get(i) {
            let next = ats.get(i + 1).copied();
            let third = ats.get(i + 2).copied();
            match (next, third) {
                (Some(header), Some(bottom)) if top - header <= MAX_HEADER_ROW => {
                    out.push((top, bottom, left, right));
                    i += 3;
                }
                (Some(bottom), _) if top - bottom <= MAX_TWO_RULE_BAND => {
                    out.push((top, bottom, left, right));
                    i += 2;
                }
                _ => i += 1,
            }
        }
    }
    out
}

/// The tallest header row of a three-line table, in points.
const MAX_HEADER_ROW: f64 = 60.0;
/// The tallest table ruled only above and below, in points.
const MAX_TWO_RULE_BAND: f64 = 200.0;
