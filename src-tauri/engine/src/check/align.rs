//! Span alignment, the verification stage: finds which parts of a submission paragraph were copied from a
//! library paragraph, tolerating small edits.
//!
//! Both paragraphs are unit sequences (`text::units`: CJK characters and words). The steps:
//! 1. *Seeds*: maximal exact common runs of at least `seed` units (3 CJK characters or 2 words), found
//!    through a hash table of the source's `seed`-grams.
//! 2. *Chains*: seeds that follow each other in the same order in both paragraphs, each gap at most `gap`
//!    units on either side, are chained (longest-path dynamic programming weighted by matched units).
//!    A chain is one copied passage with its small insertions, deletions and substitutions bridged, like
//!    WCopyfind's "imperfections to bridge".
//! 3. The best chain is taken, its seeds removed, and the search repeats, so reordered sentences give one
//!    chain each. A chain counts when it matches at least `min_match` units and at least half of the
//!    submission units it spans.
//! 4. *Damaged words* (a character replaced, as OCR output and careless retyping leave them) are bridged:
//!    a gap of the same width on both sides (up to `gap`) whose units pair up alike (equal, or words the
//!    caller's `near` test accepts: [`near_words`]), two in three at least, is copied text: it counts
//!    towards the half and does not split the passage; and a passage grows over alike units at its ends. So a
//!    copy with 4 % of its characters replaced still reads as the copy it is. Seeds stay exact, so text
//!    that shares no exact run is never aligned by this.
//!
//! Results are unit ranges; `check` turns them into character offsets.

use std::collections::HashMap;

use crate::text::units::mostly_cjk;
use crate::text::Unit;

/// Alignment settings for one script family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlignParams {
    /// Shortest exact run used as a seed, in units.
    pub seed: usize,
    /// Largest gap bridged between two seeds of one passage, in units, on each side.
    pub gap: usize,
    /// Fewest matched units for a passage to count.
    pub min_match: usize,
    /// Gaps up to this many units (on both sides) count as copied (edited) text; a wider gap still
    /// links two seeds into one passage but is not itself counted as copied.
    pub bridge: usize,
}

/// Settings for CJK text (units are characters) and for other text (units are words). The defaults follow
/// the conventions users know: a passage counts from 13 matching Chinese characters (the CNKI-style
/// thesis check's rule) or 6 matching words (WCopyfind's default shortest phrase); seeds of 3 characters or
/// 2 words; one passage bridges gaps up to 8 characters or 4 words, and gaps up to 4 characters or 2
/// words count as edited copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlignSettings {
    pub cjk: AlignParams,
    pub words: AlignParams,
}

impl Default for AlignSettings {
    fn default() -> Self {
        AlignSettings {
            cjk: AlignParams {
                seed: 3,
                gap: 8,
                min_match: 13,
                bridge: 4,
            },
            words: AlignParams {
                seed: 2,
                gap: 4,
                min_match: 6,
                bridge: 2,
            },
        }
    }
}

impl AlignSettings {
    /// The parameters for a submission paragraph, by its dominant script.
    pub fn for_units(&self, units: &[Unit]) -> AlignParams {
        if mostly_cjk(units) {
            self.cjk
        } else {
            self.words
        }
    }
}

/// One aligned passage: `[start, end)` unit ranges in the submission (`q`) and the source (`s`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub q_start: usize,
    pub q_end: usize,
    pub s_start: usize,
    pub s_end: usize,
    /// Units matched exactly inside the passage.
    pub matched: usize,
}

#[derive(Debug, Clone, Copy)]
struct Seed {
    i: usize,
    j: usize,
    len: usize,
}

/// Most seeds considered per pair (repetitive text could otherwise make the quadratic chaining slow).
const MAX_SEEDS: usize = 4096;
/// How many earlier seeds a seed may be chained to.
const CHAIN_WINDOW: usize = 128;

/// Align a submission paragraph with a source paragraph. `near(i, j)` says whether the submission's unit
/// `i` is a damaged copy of the source's unit `j` (see [`near_words`]; never asked of equal units).
/// Segments are sorted by submission position.
pub fn align(
    q: &[Unit],
    s: &[Unit],
    params: &AlignParams,
    near: &dyn Fn(usize, usize) -> bool,
) -> Vec<Segment> {
    let seeds = seeds(q, s, params.seed.max(1));
    let alike = |i: usize, j: usize| q[i].hash == s[j].hash || near(i, j);
    let mut segments = chains(&seeds, params, &alike, (q.len(), s.len()));
    segments.sort_by_key(|g| (g.q_start, g.s_start));
    segments
}

/// Whether word `a` (of a submission) is word `b` (of a source) with a character or two damaged: both at
/// least 4 characters, lengths within one of each other, and at most one edit apart, case aside; one
/// more edit from 8 characters, and one more where the lengths differ (OCR reads `d` as `cl` and `m` as
/// `rn`: `clpkg` for `dpkg`). `unprivilegud` for `unprivileged` is near; `data` for `date` is too,
/// which is why only units between or beside exact runs are ever asked.
pub fn near_words(a: &[char], b: &[char]) -> bool {
    let (n, m) = (a.len(), b.len());
    if n.min(m) < 4 || n.abs_diff(m) > 1 {
        return false;
    }
    let limit = 1 + usize::from(n.min(m) >= 8) + usize::from(n != m);
    // Banded Levenshtein distance on lower-cased characters, giving up past `limit`.
    let low = |c: char| c.to_lowercase().next().unwrap_or(c);
    let mut prev: Vec<usize> = (0..=m).collect();
    for i in 1..=n {
        let mut cur = vec![usize::MAX / 2; m + 1];
        cur[0] = i;
        let (lo, hi) = (i.saturating_sub(limit).max(1), (i + limit).min(m));
        for j in lo..=hi {
            let cost = usize::from(low(a[i - 1]) != low(b[j - 1]));
            cur[j] = (prev[j - 1] + cost).min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        if cur.iter().min().is_some_and(|&d| d > limit) {
            return false;
        }
        prev = cur;
    }
    prev[m] <= limit
}

fn gram_key(units: &[Unit]) -> u64 {
    units.iter().fold(0x9E37_79B9_7F4A_7C15u64, |acc, u| {
        (acc.rotate_left(23) ^ u.hash).wrapping_mul(0x2545_F491_4F6C_DD1D)
    })
}

/// Maximal exact common runs of at least `k` units.
fn seeds(q: &[Unit], s: &[Unit], k: usize) -> Vec<Seed> {
    if q.len() < k || s.len() < k {
        return Vec::new();
    }
    let mut grams: HashMap<u64, Vec<usize>> = HashMap::with_capacity(s.len());
    for j in 0..=s.len() - k {
        grams.entry(gram_key(&s[j..j + k])).or_default().push(j);
    }
    let eq = |i: usize, j: usize| q[i].hash == s[j].hash;
    let mut out = Vec::new();
    for i in 0..=q.len() - k {
        let Some(js) = grams.get(&gram_key(&q[i..i + k])) else {
            continue;
        };
        for &j in js {
            if i > 0 && j > 0 && eq(i - 1, j - 1) {
                continue; // not left-maximal: part of a seed found earlier
            }
            let mut len = 0;
            while i + len < q.len() && j + len < s.len() && eq(i + len, j + len) {
                len += 1;
            }
            if len >= k {
                out.push(Seed { i, j, len });
                if out.len() >= MAX_SEEDS {
                    return out;
                }
            }
        }
    }
    out
}

/// When the gap between seeds `a` and `b` is a run of damaged copy (the same width on both sides, at
/// most `gap`, and at least two of every three units alike their counterparts: a one-letter word such
/// as the `e` of `e.g.` cannot be told damaged), how many of its units are alike.
fn damaged_gap(
    a: &Seed,
    b: &Seed,
    gap: usize,
    alike: &dyn Fn(usize, usize) -> bool,
) -> Option<usize> {
    let (gq, gs) = (b.i - (a.i + a.len), b.j - (a.j + a.len));
    if gq != gs || gq == 0 || gq > gap {
        return None;
    }
    let same = (0..gq)
        .filter(|k| alike(a.i + a.len + k, a.j + a.len + k))
        .count();
    (same * 3 >= gq * 2).then_some(same)
}

/// Repeatedly extract the heaviest chain of collinear seeds.
fn chains(
    seeds: &[Seed],
    params: &AlignParams,
    alike: &dyn Fn(usize, usize) -> bool,
    (q_len, s_len): (usize, usize),
) -> Vec<Segment> {
    let mut seeds: Vec<Seed> = seeds.to_vec();
    seeds.sort_by_key(|s| (s.i, s.j));
    let n = seeds.len();
    let mut used = vec![false; n];
    let mut out = Vec::new();
    let mut score = vec![0usize; n];
    let mut prev: Vec<Option<usize>> = vec![None; n];
    loop {
        let mut best: Option<usize> = None;
        for b in 0..n {
            if used[b] {
                continue;
            }
            let sb = seeds[b];
            score[b] = sb.len;
            prev[b] = None;
            for a in (b.saturating_sub(CHAIN_WINDOW)..b).rev() {
                if used[a] {
                    continue;
                }
                let sa = seeds[a];
                let (a_qend, a_send) = (sa.i + sa.len, sa.j + sa.len);
                if a_qend > sb.i || a_send > sb.j {
                    continue;
                }
                let (gq, gs) = (sb.i - a_qend, sb.j - a_send);
                if gq > params.gap || gs > params.gap {
                    continue;
                }
                if score[a] + sb.len > score[b] {
                    score[b] = score[a] + sb.len;
                    prev[b] = Some(a);
                }
            }
            if best.is_none_or(|x| score[b] > score[x]) {
                best = Some(b);
            }
        }
        let Some(end) = best else { break };
        if score[end] < params.min_match {
            break;
        }
        // Walk the chain forwards, splitting it where a gap is wider than `bridge`.
        let mut members = Vec::new();
        let mut cur = Some(end);
        while let Some(c) = cur {
            used[c] = true;
            members.push(seeds[c]);
            cur = prev[c];
        }
        members.reverse();
        let (q_lo, q_hi) = (members[0].i, end_q(&members));
        // Each part of the submission belongs to one passage: seeds inside this passage's submission
        // range (repeats of a phrase elsewhere in the source) are spent with it; a seed reaching out of
        // the range keeps its outside part (the longer one) if that is still a seed.
        let mut trimmed = false;
        for (k, sd) in seeds.iter_mut().enumerate() {
            if used[k] || sd.i >= q_hi || sd.i + sd.len <= q_lo {
                continue;
            }
            let left = q_lo.saturating_sub(sd.i);
            let right = (sd.i + sd.len).saturating_sub(q_hi);
            if left.max(right) < params.seed.max(1) {
                used[k] = true;
            } else if left >= right {
                sd.len = left;
            } else {
                let cut = sd.len - right;
                sd.i += cut;
                sd.j += cut;
                sd.len = right;
                trimmed = true;
            }
        }
        if trimmed {
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&k| (seeds[k].i, seeds[k].j));
            seeds = order.iter().map(|&k| seeds[k]).collect();
            used = order.iter().map(|&k| used[k]).collect();
        }
        let damaged: Vec<Option<usize>> = members
            .windows(2)
            .map(|w| damaged_gap(&w[0], &w[1], params.gap, alike))
            .collect();
        let matched: usize =
            members.iter().map(|m| m.len).sum::<usize>() + damaged.iter().flatten().sum::<usize>();
        if matched * 2 < q_hi - q_lo {
            continue;
        }
        let mut piece = Segment {
            q_start: members[0].i,
            q_end: members[0].i + members[0].len,
            s_start: members[0].j,
            s_end: members[0].j + members[0].len,
            matched: members[0].len,
        };
        let mut pieces = Vec::new();
        for (m, damaged) in members[1..].iter().zip(&damaged) {
            let (gq, gs) = (m.i - piece.q_end, m.j - piece.s_end);
            if gq.max(gs) > params.bridge && damaged.is_none() {
                pieces.push(piece);
                piece = Segment {
                    q_start: m.i,
                    q_end: m.i,
                    s_start: m.j,
                    s_end: m.j,
                    matched: 0,
                };
            }
            piece.q_end = m.i + m.len;
            piece.s_end = m.j + m.len;
            piece.matched += m.len;
        }
        pieces.push(piece);
        grow_over_damage(&mut pieces, alike, (q_len, s_len));
        out.extend(pieces);
    }
    out
}

/// Grow each piece of a passage over alike units at its ends (never into its neighbours), so damaged
/// words at a passage's edge are part of it.
fn grow_over_damage(
    pieces: &mut [Segment],
    alike: &dyn Fn(usize, usize) -> bool,
    (q_len, s_len): (usize, usize),
) {
    for k in 0..pieces.len() {
        let (q_floor, s_floor) = match k.checked_sub(1).map(|p| pieces[p]) {
            Some(p) => (p.q_end, p.s_end),
            None => (0, 0),
        };
        let (q_ceil, s_ceil) = pieces
            .get(k + 1)
            .map_or((q_len, s_len), |n| (n.q_start, n.s_start));
        let g = &mut pieces[k];
        while g.q_start > q_floor && g.s_start > s_floor && alike(g.q_start - 1, g.s_start - 1) {
            g.q_start -= 1;
            g.s_start -= 1;
        }
        while g.q_end < q_ceil && g.s_end < s_ceil && alike(g.q_end, g.s_end) {
            g.q_end += 1;
            g.s_end += 1;
        }
    }
}

fn end_q(members: &[Seed]) -> usize {
    members.last().map_or(0, |m| m.i + m.len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::units;

    fn covered(q: &str, s: &str) -> (Vec<Segment>, f64) {
        let (qu, su) = (units(q), units(s));
        let params = AlignSettings::default().for_units(&qu);
        let chars = |t: &str| t.chars().collect::<Vec<char>>();
        let (qc, sc) = (chars(q), chars(s));
        let near = |i: usize, j: usize| {
            let (a, b) = (&qu[i], &su[j]);
            !a.cjk
                && !b.cjk
                && near_words(
                    &qc[a.start as usize..a.end as usize],
                    &sc[b.start as usize..b.end as usize],
                )
        };
        let segs = align(&qu, &su, &params, &near);
        let mut hit = vec![false; qu.len()];
        for g in &segs {
            hit[g.q_start..g.q_end].iter_mut().for_each(|h| *h = true);
        }
        let share = hit.iter().filter(|h| **h).count() as f64 / qu.len() as f64;
        (segs, share)
    }

    const ZH: &str = "如果你想成为一名好的维护者，你应该定期检查 Debian 错误跟踪系统中你的软件包的错误报告。错误跟踪系统包含了针对你的软件包的所有未解决的错误。";
    const EN: &str = "If you want to be a good maintainer, you should periodically check the Debian bug tracking system for your packages. The BTS contains all the open bugs against your packages.";

    #[test]
    fn exact_copy_is_fully_covered() {
        let (segs, share) = covered(ZH, ZH);
        assert_eq!(segs.len(), 1);
        assert_eq!(share, 1.0);
        assert_eq!(covered(EN, EN).1, 1.0);
    }

    #[test]
    fn insertion_deletion_and_substitution_are_bridged() {
        // zh: a few characters substituted, one inserted, one deleted.
        let edited = "如果你想成为一位好的维护者，你需要定期检查 Debian 错误追踪系统中你软件包的错误报告。错误跟踪系统包含了针对你的软件包的全部未解决错误。";
        let (segs, share) = covered(edited, ZH);
        assert!(share > 0.9, "{share} {segs:?}");
        assert_eq!(segs.len(), 1, "one passage: {segs:?}");
        // en: words inserted, deleted, substituted.
        let edited = "If you really want to be a good maintainer, you must periodically check the Debian bug tracking system for packages. The BTS contains all open bugs filed against your packages.";
        let (segs, share) = covered(edited, EN);
        assert!(share > 0.9, "{share} {segs:?}");
        assert_eq!(segs.len(), 1, "{segs:?}");
    }

    #[test]
    fn damaged_words_are_bridged_and_kept_at_the_edges() {
        // A sentence of the Debian Policy with eight characters replaced as OCR leaves them, two damaged
        // words one clean word apart, and damaged words first and last.
        let source = "no: Declares that neither root nor fakeroot is required. Package builders (e.g. dpkg-buildpackage) may choose to invoke any target in debian/rules with an unprivileged user.";
        let damaged = "no: eeclares that neither toot nor fakero0t is required. Package builders (c.g. clpkg-buildpackage) may choose fo invoke any target in debian/nules witn an unprivilegud uscr.";
        let (segs, share) = covered(damaged, source);
        assert!(share > 0.95, "{share} {segs:?}");
        assert_eq!(segs.len(), 1, "one passage: {segs:?}");
        // The same words changed into other words are not damage: the passage stops.
        let other = "no: Declares that neither bread nor cheese is required. Package builders (e.g. dpkg-buildpackage) may choose to invoke any target in debian/rules with an unprivileged user.";
        let (segs, _) = covered(other, source);
        let (qu, su) = (units(other), units(source));
        let gap: Vec<&Segment> = segs
            .iter()
            .filter(|g| g.q_start <= 4 && g.q_end > 6)
            .collect();
        assert!(
            gap.is_empty(),
            "bread and cheese are copied text: {segs:?} {qu:?} {su:?}"
        );
    }

    #[test]
    fn near_words_are_one_edit_apart_and_long_enough() {
        let w = |s: &str| s.chars().collect::<Vec<char>>();
        for (a, b) in [
            ("eeclares", "Declares"),
            ("unprivilegud", "unprivileged"),
            ("clpkg", "dpkg"),
            ("fakero0t", "fakeroot"),
            ("parameters", "pararneters"),
        ] {
            assert!(near_words(&w(a), &w(b)), "{a} ~ {b}");
        }
        for (a, b) in [
            ("toot", "root"),
            ("the", "tho"),
            ("bread", "root"),
            ("form", "from"),
            ("package", "packages!!"),
            ("cheese", "fakeroot"),
        ] {
            assert_eq!(near_words(&w(a), &w(b)), a == "toot", "{a} ~ {b}");
        }
    }

    #[test]
    fn reordered_sentences_give_one_passage_each() {
        let reordered = "The BTS contains all the open bugs against your packages. If you want to be a good maintainer, you should periodically check the Debian bug tracking system for your packages.";
        let (segs, share) = covered(reordered, EN);
        assert_eq!(segs.len(), 2, "{segs:?}");
        assert_eq!(share, 1.0);
        assert!(
            segs[0].s_start > segs[1].s_start,
            "first passage comes from later in the source"
        );
    }

    #[test]
    fn reordered_chinese_sentences_are_all_found() {
        let reordered = "错误跟踪系统包含了针对你的软件包的所有未解决的错误。如果你想成为一名好的维护者，你应该定期检查 Debian 错误跟踪系统中你的软件包的错误报告。";
        let (segs, share) = covered(reordered, ZH);
        assert!(segs.len() >= 2, "{segs:?}");
        assert_eq!(share, 1.0);
    }

    #[test]
    fn partial_chinese_copy_covers_only_the_copied_part() {
        let filler =
            "多边形主要用于放置标志和特殊的图形形状，它们由位图转换工具生成并保存在图纸中。";
        let q = format!("{filler}{ZH}");
        let (segs, share) = covered(&q, ZH);
        let copied = units(ZH).len() as f64 / units(&q).len() as f64;
        assert!((share - copied).abs() < 0.03, "{share} vs {copied}");
        assert!(
            segs.iter().all(|g| g.q_start >= units(filler).len()),
            "{segs:?}"
        );
    }

    #[test]
    fn a_short_shared_phrase_is_not_a_passage() {
        // 12 identical characters: below the 13-character minimum.
        let q = "我们在实验中发现错误跟踪系统包含了很多有趣的现象值得研究。";
        assert!(covered(q, ZH).0.is_empty());
    }

    #[test]
    fn partial_copy_covers_only_the_copied_part() {
        let q = format!("{EN} Poly-polygons are used mainly to place logos and special graphic shapes on a drawing sheet made by the editor.");
        let (_, share) = covered(&q, EN);
        let copied = units(EN).len() as f64 / units(&q).len() as f64;
        assert!((share - copied).abs() < 0.05, "{share} vs {copied}");
    }

    #[test]
    fn unrelated_text_on_the_same_topic_is_not_matched() {
        let other = "Debian 的软件包由维护者上传到归档中，上传之前应当使用 lintian 检查软件包是否符合政策的要求。";
        let (segs, share) = covered(other, ZH);
        assert!(segs.is_empty(), "{segs:?} {share}");
        let other = "Every package in Debian has a maintainer who should read the bug reports filed against it and answer the users who sent them.";
        assert!(covered(other, EN).0.is_empty());
    }
}
