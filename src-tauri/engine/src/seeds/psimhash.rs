//! P-Simhash (seed 004, Zhang et al. 2022), as the paper gives it:
//!
//! 1. Words: jieba segmentation without stop words (the engine's words).
//! 2. Weights: TFC-normalised TF-IDF, formula (3):
//!    `w_t = (m_t / M) · lg(N / n_t + 0.01)`, divided by the L2 norm over the item's words, where
//!    `m_t` counts `t` in the item, `M` the item's words, `N` the corpus items and `n_t` those holding
//!    `t` (a word the corpus lacks counts as held by one).
//! 3. The top [`TOP_WORDS`] words by weight (ties by hash) are the features.
//! 4. Co-occurrence damping (J-Tidf, formulas (5) and (6)): `J(x, y) = f11 / (f01 + f10 + f11) ×
//!    1 / (1 + lg √(1 + Σ (x_k − y_k)² / n))` over the corpus (`f11` items with both, `f01 + f10`
//!    items with one, the sum over the `n` items with both, of the two words' counts). Choice: each
//!    feature `y` is damped by the strongest feature ranked above it, `w'_y = max(0, w_y − max_x w_x ·
//!    J(x, y))`; the first keeps its weight.
//! 5. Position signature (PBDR): each occurrence position `p` (index among the item's words) is mapped to
//!    one of 64 dimensions by xxh3-64 of `p` (little-endian u64) with seed [`POSITION_SEED`]; the counts
//!    minus their mean, signs taken, are the word's position signature `Sig'`.
//! 6. `SigFnl = μ · Sig + (1 − μ) · Sig'` with bits as ±1, μ = [`MU`]; weighted by `w'`, summed, signs
//!    taken: the 64-bit signature. Word hashes are xxh3-64, seed 0.
//!
//! The corpus is the library being searched (the paper learns its statistics from a training split).

use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::xxh3_64_with_seed;

/// Features per item (the paper's m = 20).
pub const TOP_WORDS: usize = 20;
/// Weight of the word hash against the position signature (the paper's μ = 1.5).
pub const MU: f64 = 1.5;
/// Seed of the position-to-dimension map.
pub const POSITION_SEED: u64 = 0x5053_494d; // "PSIM"

/// Document frequencies and postings of a corpus's words.
#[derive(Debug, Default)]
pub struct Corpus {
    items: usize,
    /// Word → (item, count), by item.
    postings: FxHashMap<u64, Vec<(u32, u32)>>,
}

impl Corpus {
    /// Statistics of items given by their words.
    pub fn new(items: &[Vec<u64>]) -> Corpus {
        let mut postings: FxHashMap<u64, Vec<(u32, u32)>> = FxHashMap::default();
        for (i, words) in items.iter().enumerate() {
            let mut c: FxHashMap<u64, u32> = FxHashMap::default();
            for &w in words {
                *c.entry(w).or_default() += 1;
            }
            let mut c: Vec<(u64, u32)> = c.into_iter().collect();
            c.sort_unstable();
            for (w, n) in c {
                postings.entry(w).or_default().push((i as u32, n));
            }
        }
        Corpus {
            items: items.len(),
            postings,
        }
    }

    fn df(&self, word: u64) -> usize {
        self.postings.get(&word).map_or(0, Vec::len)
    }

    /// Formula (5): Jaccard co-occurrence of two words, corrected by the spread of their counts.
    pub fn jaccard(&self, x: u64, y: u64) -> f64 {
        let (Some(px), Some(py)) = (self.postings.get(&x), self.postings.get(&y)) else {
            return 0.0;
        };
        let (mut i, mut j, mut both, mut spread) = (0, 0, 0usize, 0.0);
        while i < px.len() && j < py.len() {
            match px[i].0.cmp(&py[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    let d = f64::from(px[i].1) - f64::from(py[j].1);
                    spread += d * d;
                    both += 1;
                    i += 1;
                    j += 1;
                }
            }
        }
        if both == 0 {
            return 0.0;
        }
        let one = px.len() + py.len() - 2 * both;
        let j = both as f64 / (one + both) as f64;
        j / (1.0 + (1.0 + spread / both as f64).sqrt().log10())
    }
}

/// The P-Simhash signature of an item's words against `corpus`.
pub fn signature(words: &[u64], corpus: &Corpus) -> u64 {
    if words.is_empty() {
        return 0;
    }
    let mut positions: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
    for (p, &w) in words.iter().enumerate() {
        positions.entry(w).or_default().push(p);
    }
    let total = words.len() as f64;
    let n = corpus.items.max(1) as f64;
    let mut weights: Vec<(u64, f64)> = positions
        .iter()
        .map(|(&w, ps)| {
            let df = corpus.df(w).max(1) as f64;
            (w, ps.len() as f64 / total * (n / df + 0.01).log10())
        })
        .collect();
    let norm = weights.iter().map(|(_, x)| x * x).sum::<f64>().sqrt();
    if norm > 0.0 {
        for (_, x) in &mut weights {
            *x /= norm;
        }
    }
    weights.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    weights.truncate(TOP_WORDS);

    let mut v = [0.0f64; 64];
    for (k, &(y, wy)) in weights.iter().enumerate() {
        let damp = weights[..k]
            .iter()
            .map(|&(x, wx)| wx * corpus.jaccard(x, y))
            .fold(0.0, f64::max);
        let w = (wy - damp).max(0.0);
        if w == 0.0 {
            continue;
        }
        let sig = y;
        let pos = position_signature(positions.get(&y).map_or(&[][..], Vec::as_slice));
        for (i, slot) in v.iter_mut().enumerate() {
            let s = if sig >> i & 1 == 1 { 1.0 } else { -1.0 };
            let s2 = if pos >> i & 1 == 1 { 1.0 } else { -1.0 };
            *slot += w * (MU * s + (1.0 - MU) * s2);
        }
    }
    v.iter()
        .enumerate()
        .filter(|(_, &x)| x > 0.0)
        .fold(0u64, |acc, (i, _)| acc | 1 << i)
}

/// PBDR: a word's positions mapped to 64 dimensions, counts minus their mean, signs.
pub fn position_signature(positions: &[usize]) -> u64 {
    let mut counts = [0.0f64; 64];
    for &p in positions {
        let dim = xxh3_64_with_seed(&(p as u64).to_le_bytes(), POSITION_SEED) % 64;
        counts[dim as usize] += 1.0;
    }
    let mean = positions.len() as f64 / 64.0;
    counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c - mean > 0.0)
        .fold(0u64, |acc, (i, _)| acc | 1 << i)
}
