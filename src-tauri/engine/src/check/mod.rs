//! Checking a submission against the library (the read path).
//!
//! Methods ([`Method`]):
//! - [`Method::Verified`] (default): a shortlist of library paragraphs sharing character/word shingles
//!   with the submission paragraph (`index`), then span alignment (`align`) that finds the copied passages.
//!   Similarity is *containment*: the share of the submission paragraph's non-whitespace characters that
//!   lie in passages copied from that source.
//! - [`Method::Simhash`]: the seed method, paragraph SimHash only; similarity is `1 - hamming / 64` and
//!   no spans are found.
//! - The other seed papers' methods (`crate::seeds`): each paragraph compared whole by the method's
//!   own print and similarity, through an index built over the library's paragraphs for the check; no
//!   spans are found.
//!
//! Each method is a [`Comparison`] (how a paragraph is prepared and shortlisted, how a candidate is
//! judged); the checker runs them all the same way, so a new method is one more implementation.
//! Either way every match also carries the seed fingerprint's Hamming distance. The checker keeps every
//! match it verified (up to [`CheckSettings::keep`] per paragraph); the threshold and `--top` are applied
//! when the report is built, so the desktop app can re-filter without re-checking.

pub mod align;
mod column;
pub mod index;
mod index_file;
pub mod shortlist;
pub mod translation;

use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::fingerprint::{hamming, shingles, similarity, Fingerprinter};
use crate::library::{SourceParagraph, Sources};
use crate::seeds::{Item, SeedIndex};
use crate::text::{units, Unit};

pub use crate::fingerprint::Method;
pub use crate::library::shortlist::{Candidate, KeyQuery, Shortlist};
pub use align::{AlignParams, AlignSettings};
pub use index::Index;
pub use translation::TRANSLATION_THRESHOLD;

/// Shortlist pruning: a candidate is verified only if it shares at least `1 / BEST_SHARED_RATIO` as many
/// keys as the paragraph's best candidate ...
pub const BEST_SHARED_RATIO: u32 = 4;
/// ... and at least this share of the keys a whole copy would share (the paragraph's winnowed keys) ...
pub const MIN_SHARED_FRACTION: f64 = 0.1;
/// ... or, in a long paragraph, at least this many keys: what a copied passage of 13 Chinese characters
/// or 10 words always shares (its 10 or 8 shingles hold 2 disjoint winnowing windows, each keeping one
/// key), so a copied sentence inside one's own paragraph is verified however long the paragraph.
/// Library paragraphs of the same field share stock phrases with most submissions; without these
/// floors each of them costs a database read and an alignment.
pub const MIN_PASSAGE_KEYS: u32 = 2;

/// Checker settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CheckSettings {
    pub method: Method,
    /// Library paragraphs verified per submission paragraph.
    pub candidates: usize,
    /// Matches kept per submission paragraph (before the report's threshold and `--top`).
    pub keep: usize,
    pub align: AlignSettings,
    /// Copies by translation (Chinese ↔ English, [`translation`]): reported at or above this share;
    /// `None` turns the search off. Only [`Method::Verified`] searches.
    pub translation: Option<f64>,
}

impl Default for CheckSettings {
    fn default() -> Self {
        CheckSettings {
            method: Method::Verified,
            candidates: 32,
            keep: 10,
            align: AlignSettings::default(),
            translation: Some(TRANSLATION_THRESHOLD),
        }
    }
}

/// A copied passage: `[start, end)` character offsets (Unicode scalar values) into the submission
/// paragraph and into the source paragraph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SpanPair {
    pub submission: [usize; 2],
    pub source: [usize; 2],
}

/// What part of the submission paragraph a match covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extent {
    /// The copied passages found by alignment.
    Spans(Vec<SpanPair>),
    /// The whole paragraph (a method that compares whole paragraphs, such as the seed SimHash).
    WholeParagraph,
}

/// A library paragraph found for a submission paragraph.
#[derive(Debug, Clone)]
pub struct Match {
    pub source: Arc<SourceParagraph>,
    /// In [0, 1]: copied share (verified) or 1 - hamming/64 (simhash).
    pub similarity: f64,
    /// Hamming distance between the two paragraph SimHashes.
    pub hamming: u32,
    pub extent: Extent,
    /// A translation (Chinese ↔ English): the spans are the aligned sentences and the similarity the
    /// share of the paragraph in them.
    pub cross_language: bool,
    /// A translation under the translation threshold (a few translated sentences in the writer's own
    /// paragraph): its sentences count in the figures, as copied passages under the threshold do, and it
    /// flags nothing, whatever the report's threshold.
    pub below_own_threshold: bool,
}

impl Match {
    /// The copied passages (none for a whole-paragraph method).
    pub fn spans(&self) -> &[SpanPair] {
        match &self.extent {
            Extent::Spans(spans) => spans,
            Extent::WholeParagraph => &[],
        }
    }

    /// The character ranges of the submission paragraph this match covers.
    pub fn covered_ranges(&self) -> Vec<[usize; 2]> {
        match &self.extent {
            Extent::Spans(spans) => spans.iter().map(|s| s.submission).collect(),
            Extent::WholeParagraph => vec![[0, usize::MAX]],
        }
    }
}

/// One submission paragraph and what was found for it, best first.
#[derive(Debug, Clone)]
pub struct ParagraphResult {
    pub text: String,
    /// The document marks this paragraph as a heading (a report's chapters start at headings).
    pub heading: bool,
    /// Where the document's footnote and endnote references stand (character offsets; see
    /// `extract::Block::notes`): a quotation cited by a note.
    pub notes: Vec<usize>,
    pub matches: Vec<Match>,
}

/// What a comparison method needs to see of the library.
struct Context<'a> {
    shortlist: &'a dyn Shortlist,
    /// Every library fingerprint, when they are held here (the SimHash method needs them).
    local: Option<&'a Index>,
    /// Paragraphs of this document are never candidates (a class's submission against the others).
    exclude_document: Option<i64>,
    fingerprinter: &'a Fingerprinter,
    settings: &'a CheckSettings,
}

/// A submission paragraph as a method prepared it: its units (when the method aligns), its SimHash
/// (when already computed) and its shortlisted library paragraphs.
struct Prepared {
    units: Vec<Unit>,
    simhash: Option<u64>,
    candidates: Vec<Candidate>,
}

/// A candidate as a method judged it: its similarity and what it covers.
struct Verdict {
    similarity: f64,
    extent: Extent,
}

/// One way of comparing paragraphs. [`Checker::check`] runs every method the same way: prepare and
/// shortlist each submission paragraph, fetch the candidates' texts once, judge each candidate.
trait Comparison: Sync {
    /// Whether the method compares unit sequences (then candidates' texts are split into units).
    fn uses_units(&self) -> bool;
    /// Fingerprint the submission's paragraphs and shortlist library paragraphs for each.
    fn prepare(&self, cx: &Context<'_>, paragraphs: &[String]) -> Result<Vec<Prepared>>;
    /// Judge one candidate; `None` when it is not a match.
    fn judge(
        &self,
        cx: &Context<'_>,
        text: &str,
        prepared: &Prepared,
        candidate: &Candidate,
        source: (&str, &[Unit]),
    ) -> Option<Verdict>;
}

/// [`Method::Verified`]: shingle shortlist, then span alignment.
struct Verified;

impl Comparison for Verified {
    fn uses_units(&self) -> bool {
        true
    }

    fn prepare(&self, cx: &Context<'_>, paragraphs: &[String]) -> Result<Vec<Prepared>> {
        // The submission's winnowed keys are looked up: inside a passage shared with a library paragraph
        // both sides keep the minimum of the same windows, so a whole copy shares about all of them.
        let read: Vec<(Vec<Unit>, Vec<u32>)> = paragraphs
            .par_iter()
            .map(|text| {
                let units = units(text);
                let keys = shingles::winnowed(&units);
                (units, keys)
            })
            .collect();
        let queries: Vec<KeyQuery<'_>> = read
            .iter()
            .map(|(_, keys)| KeyQuery {
                keys,
                min_shared: if keys.len() >= 4 { 2 } else { 1 },
            })
            .collect();
        let lists =
            cx.shortlist
                .shortlist_each(&queries, cx.settings.candidates, cx.exclude_document)?;
        Ok(read
            .into_iter()
            .zip(lists)
            .map(|((units, keys), list)| {
                let best = list.first().map_or(0, |c| c.1);
                let floor =
                    ((keys.len() as f64 * MIN_SHARED_FRACTION).ceil() as u32).min(MIN_PASSAGE_KEYS);
                let candidates = list
                    .into_iter()
                    .take_while(|&(_, shared)| {
                        shared * BEST_SHARED_RATIO >= best && shared >= floor
                    })
                    .map(|(candidate, _)| candidate)
                    .collect();
                Prepared {
                    units,
                    simhash: None,
                    candidates,
                }
            })
            .collect())
    }

    fn judge(
        &self,
        cx: &Context<'_>,
        text: &str,
        prepared: &Prepared,
        _candidate: &Candidate,
        (source, source_units): (&str, &[Unit]),
    ) -> Option<Verdict> {
        let (similarity, spans) = verify(
            text,
            source,
            &prepared.units,
            source_units,
            &cx.settings.align,
        )?;
        Some(Verdict {
            similarity,
            extent: Extent::Spans(spans),
        })
    }
}

/// [`Method::Simhash`]: the nearest paragraph SimHashes, similarity `1 - hamming / 64`.
struct Simhash;

impl Comparison for Simhash {
    fn uses_units(&self) -> bool {
        false
    }

    fn prepare(&self, cx: &Context<'_>, paragraphs: &[String]) -> Result<Vec<Prepared>> {
        let index = cx.local.ok_or(Error::Internal(
            "the SimHash method needs every library fingerprint in memory",
        ))?;
        Ok(paragraphs
            .par_iter()
            .map(|text| {
                let print = cx.fingerprinter.simhash(text);
                let candidates = index
                    .nearest(print, 64, cx.settings.keep, cx.exclude_document)
                    .into_iter()
                    .map(|(slot, _)| index.candidate(slot))
                    .collect();
                Prepared {
                    units: Vec::new(),
                    simhash: Some(print),
                    candidates,
                }
            })
            .collect())
    }

    fn judge(
        &self,
        _cx: &Context<'_>,
        _text: &str,
        prepared: &Prepared,
        candidate: &Candidate,
        _source: (&str, &[Unit]),
    ) -> Option<Verdict> {
        let print = prepared.simhash?;
        Some(Verdict {
            similarity: similarity(hamming(print, candidate.simhash)),
            extent: Extent::WholeParagraph,
        })
    }
}

impl Method {
    fn comparison(self) -> &'static dyn Comparison {
        match self {
            Method::Verified => &Verified,
            // The seed methods search their own index (`Checker::check_seeds`).
            _ => &Simhash,
        }
    }
}

/// Checks documents against an open library (or any other [`Sources`] with its [`Shortlist`]: an
/// [`Index`], or the library's server).
pub struct Checker<'a> {
    library: &'a dyn Sources,
    shortlist: &'a dyn Shortlist,
    local: Option<&'a Index>,
    fingerprinter: &'a Fingerprinter,
    settings: CheckSettings,
    /// The seed method's index of the library (in the [`Index`]'s slot order), for those methods.
    seeds: Option<&'a SeedIndex>,
    /// Library paragraphs the cross-language verification has read.
    readings: translation::Readings,
}

impl<'a> Checker<'a> {
    pub fn new(
        library: &'a dyn Sources,
        index: &'a Index,
        fingerprinter: &'a Fingerprinter,
        settings: CheckSettings,
    ) -> Self {
        Checker {
            library,
            shortlist: index,
            local: Some(index),
            fingerprinter,
            settings,
            seeds: None,
            readings: Default::default(),
        }
    }

    /// A checker whose shortlists are answered by the library's server ([`Method::Verified`] only:
    /// the other methods compare with every paragraph and need an [`Index`]).
    pub fn on_server(
        library: &'a dyn Sources,
        shortlist: &'a dyn Shortlist,
        fingerprinter: &'a Fingerprinter,
        settings: CheckSettings,
    ) -> Self {
        Checker {
            library,
            shortlist,
            local: None,
            fingerprinter,
            settings,
            seeds: None,
            readings: Default::default(),
        }
    }

    /// Forget the library paragraphs the cross-language verification has read (a checker keeps them
    /// for its next checks): the next check reads its candidates as a first check does.
    pub fn clear_readings(&self) {
        self.readings.clear();
    }

    /// Search with a seed method's index of the library's paragraphs (built over the same library, one
    /// item per [`Index`] slot, in slot order).
    pub fn with_seeds(mut self, seeds: Option<&'a SeedIndex>) -> Self {
        self.seeds = seeds;
        self
    }

    /// Check a document's paragraphs.
    pub fn check(&self, paragraphs: &[String]) -> Result<Vec<ParagraphResult>> {
        self.check_excluding(paragraphs, None)
    }

    /// Check a document's paragraphs, never matching those of document `exclude` (the document itself,
    /// when it is also in the index).
    pub fn check_excluding(
        &self,
        paragraphs: &[String],
        exclude: Option<i64>,
    ) -> Result<Vec<ParagraphResult>> {
        if let (true, Some(seeds)) = (self.settings.method.is_seed(), self.seeds) {
            let index = self.local.ok_or(Error::Internal(
                "a seed method needs every library fingerprint in memory",
            ))?;
            return self.check_seeds(index, seeds, paragraphs, exclude);
        }
        let method = self.settings.method.comparison();
        let cx = Context {
            shortlist: self.shortlist,
            local: self.local,
            exclude_document: exclude,
            fingerprinter: self.fingerprinter,
            settings: &self.settings,
        };
        // 1. Fingerprint the submission (parallel) and shortlist candidates (in memory, or one query
        // to the library's server for the whole submission).
        let prepared: Vec<Prepared> = method.prepare(&cx, paragraphs)?;

        // 2. Fetch the candidates' texts once each, in one pass over the database (one connection),
        // then split them into units (parallel).
        let sources = fetch(
            self.library,
            prepared.iter().flat_map(|p| p.candidates.iter()),
            |text| {
                if method.uses_units() {
                    units(text)
                } else {
                    Vec::new()
                }
            },
        )?;

        // 3. Judge every candidate (parallel). The submission's SimHash, which every match carries,
        // is computed only for paragraphs with a match.
        let (fingerprinter, keep) = (self.fingerprinter, self.settings.keep);
        let mut results = paragraphs
            .par_iter()
            .zip(prepared.par_iter())
            .map(|(text, p)| {
                let found: Vec<(&Candidate, &Arc<SourceParagraph>, Verdict)> = p
                    .candidates
                    .iter()
                    .filter_map(|c| {
                        let (src, src_units) = sources.get(&c.paragraph_id)?;
                        let verdict = method.judge(&cx, text, p, c, (&src.text, src_units))?;
                        Some((c, src, verdict))
                    })
                    .collect();
                let print = match (p.simhash, found.is_empty()) {
                    (Some(print), _) => print,
                    (None, true) => 0,
                    (None, false) => fingerprinter.simhash(text),
                };
                let mut matches: Vec<Match> = found
                    .into_iter()
                    .map(|(c, src, verdict)| Match {
                        source: Arc::clone(src),
                        similarity: verdict.similarity,
                        hamming: hamming(print, c.simhash),
                        extent: verdict.extent,
                        cross_language: false,
                        below_own_threshold: false,
                    })
                    .collect();
                sort_matches(&mut matches);
                matches.truncate(keep);
                ParagraphResult {
                    text: text.clone(),
                    heading: false,
                    notes: Vec::new(),
                    matches,
                }
            })
            .collect::<Vec<_>>();
        if let (Method::Verified, Some(threshold)) =
            (self.settings.method, self.settings.translation)
        {
            translation::add_translations(
                self.library,
                self.shortlist,
                &self.readings,
                self.fingerprinter,
                threshold,
                keep,
                exclude,
                &mut results,
            )?;
        }
        Ok(results)
    }
}

/// The candidates' library paragraphs by paragraph id, each fetched once (one pass over the library)
/// and read by `read` (in parallel).
fn fetch<'c, T: Send>(
    library: &dyn Sources,
    candidates: impl Iterator<Item = &'c Candidate>,
    read: impl Fn(&str) -> T + Sync,
) -> Result<HashMap<i64, (Arc<SourceParagraph>, T)>> {
    fetch_ids(library, distinct_ids(candidates), read)
}

/// The distinct paragraph ids of `candidates`, in order.
fn distinct_ids<'c>(candidates: impl Iterator<Item = &'c Candidate>) -> Vec<i64> {
    let mut ids: Vec<i64> = candidates.map(|c| c.paragraph_id).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// [`fetch`] of paragraphs by their (distinct) ids.
fn fetch_ids<T: Send>(
    library: &dyn Sources,
    ids: Vec<i64>,
    read: impl Fn(&str) -> T + Sync,
) -> Result<HashMap<i64, (Arc<SourceParagraph>, T)>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(library
        .source_paragraphs(&ids)?
        .into_par_iter()
        .map(|(id, src)| {
            let read = read(&src.text);
            (id, (Arc::new(src), read))
        })
        .collect())
}

/// Best first: similarity, then the nearer SimHash, then the library's order.
fn sort_matches(matches: &mut [Match]) {
    matches.sort_by(|a, b| {
        b.similarity
            .total_cmp(&a.similarity)
            .then(a.hamming.cmp(&b.hamming))
            .then(a.source.paragraph_id.cmp(&b.source.paragraph_id))
    });
}

impl Checker<'_> {
    /// A seed method's check: each paragraph's print searched in the method's index; a match covers
    /// the whole paragraph, with the method's similarity.
    fn check_seeds(
        &self,
        index: &Index,
        seeds: &SeedIndex,
        paragraphs: &[String],
        exclude: Option<i64>,
    ) -> Result<Vec<ParagraphResult>> {
        let (fingerprinter, keep) = (self.fingerprinter, self.settings.keep);
        let of = paragraphs.len();
        let hits: Vec<Vec<(index::Slot, f64)>> = paragraphs
            .par_iter()
            .enumerate()
            .map(|(i, text)| {
                let print = seeds.print(fingerprinter, &Item::paragraph(text, i, of));
                seeds
                    .search(&print, 0.0, keep, |item| {
                        exclude.is_some_and(|d| index.document_id(item as index::Slot) == d)
                    })
                    .into_iter()
                    .map(|(item, s)| (item as index::Slot, s))
                    .collect()
            })
            .collect();
        let mut ids: Vec<i64> = hits
            .iter()
            .flatten()
            .map(|&(slot, _)| index.paragraph_id(slot))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let sources: HashMap<i64, Arc<SourceParagraph>> = self
            .library
            .source_paragraphs(&ids)?
            .into_iter()
            .map(|(id, p)| (id, Arc::new(p)))
            .collect();
        Ok(paragraphs
            .par_iter()
            .zip(hits)
            .map(|(text, hits)| {
                let print = if hits.is_empty() {
                    0
                } else {
                    fingerprinter.simhash(text)
                };
                let matches = hits
                    .into_iter()
                    .filter_map(|(slot, similarity)| {
                        let source = sources.get(&index.paragraph_id(slot))?;
                        Some(Match {
                            source: Arc::clone(source),
                            similarity,
                            hamming: hamming(print, index.simhash(slot)),
                            extent: Extent::WholeParagraph,
                            cross_language: false,
                            below_own_threshold: false,
                        })
                    })
                    .collect();
                ParagraphResult {
                    text: text.clone(),
                    heading: false,
                    notes: Vec::new(),
                    matches,
                }
            })
            .collect())
    }
}

/// Align and measure: the copied share of the submission paragraph and the copied spans, or `None` when
/// nothing was copied.
fn verify(
    text: &str,
    source: &str,
    q: &[Unit],
    s: &[Unit],
    settings: &AlignSettings,
) -> Option<(f64, Vec<SpanPair>)> {
    let params = settings.for_units(q);
    // The two texts as characters, made only if a damaged word is looked at.
    let (q_chars, s_chars) = (OnceCell::new(), OnceCell::new());
    let near = |i: usize, j: usize| {
        let (a, b) = (&q[i], &s[j]);
        if a.cjk || b.cjk {
            return false;
        }
        let qc = q_chars.get_or_init(|| text.chars().collect::<Vec<char>>());
        let sc = s_chars.get_or_init(|| source.chars().collect::<Vec<char>>());
        match (unit_chars(qc, a), unit_chars(sc, b)) {
            (Some(x), Some(y)) => align::near_words(x, y),
            _ => false,
        }
    };
    let segments = align::align(q, s, &params, &near);
    if segments.is_empty() {
        return None;
    }
    let spans: Vec<SpanPair> = segments
        .iter()
        .map(|g| SpanPair {
            submission: [q[g.q_start].start as usize, span_end(text, q, g.q_end)],
            source: [s[g.s_start].start as usize, span_end(source, s, g.s_end)],
        })
        .collect();
    let ranges: Vec<[usize; 2]> = spans.iter().map(|s| s.submission).collect();
    let share = covered_share(text, &ranges);
    Some((share, spans))
}

/// The characters of a unit.
fn unit_chars<'a>(chars: &'a [char], unit: &Unit) -> Option<&'a [char]> {
    chars.get(unit.start as usize..unit.end as usize)
}

/// End (exclusive, in characters) of a passage whose last unit is `units[end - 1]`: the passage keeps the
/// punctuation that closes it (up to the next unit, never past whitespace), so a copied sentence is
/// highlighted with its full stop.
fn span_end(text: &str, units: &[Unit], end: usize) -> usize {
    let last = units[end - 1].end as usize;
    let limit = units.get(end).map_or(usize::MAX, |u| u.start as usize);
    let trailing = text
        .chars()
        .skip(last)
        .take(limit.saturating_sub(last))
        .take_while(|c| !c.is_whitespace())
        .count();
    last + trailing
}

/// Share of `text`'s non-whitespace characters inside the union of character ranges.
pub fn covered_share(text: &str, ranges: &[[usize; 2]]) -> f64 {
    let (covered, total) = covered_chars(text, ranges);
    if total == 0 {
        0.0
    } else {
        covered as f64 / total as f64
    }
}

/// (non-whitespace characters inside the union of ranges, all non-whitespace characters).
pub fn covered_chars(text: &str, ranges: &[[usize; 2]]) -> (usize, usize) {
    let mut sorted: Vec<[usize; 2]> = ranges.to_vec();
    sorted.sort_unstable();
    let mut covered = 0;
    let mut total = 0;
    let mut r = 0;
    for (i, c) in text.chars().enumerate() {
        if c.is_whitespace() {
            continue;
        }
        total += 1;
        while r < sorted.len() && sorted[r][1] <= i {
            r += 1;
        }
        if sorted[r..]
            .iter()
            .take_while(|x| x[0] <= i)
            .any(|x| i < x[1])
        {
            covered += 1;
        }
    }
    (covered, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covered_chars_counts_union_without_whitespace() {
        let text = "ab cd ef";
        assert_eq!(covered_chars(text, &[[0, 4], [3, 5]]), (4, 6));
        assert_eq!(covered_chars(text, &[]), (0, 6));
        assert_eq!(covered_chars(text, &[[0, 100]]), (6, 6));
    }
}
