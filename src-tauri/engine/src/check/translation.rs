//! The cross-language pass of a check: library paragraphs of the other language (Chinese ↔ English)
//! that the submission paragraph translates.
//!
//! 1. The paragraph's concepts (`crosslang`) are tagged with the other language and looked up in the
//!    index, at most [`LOOKUPS`] of them, by what each costs to read against its chance of being the
//!    translation's (`library::shortlist::reading_order`: a Chinese word's glosses cost the postings of
//!    all of them, a general concept more; `check::Index::shortlist_rare`). A paragraph of
//!    several sentences also looks up each sentence's concepts: one translated sentence in a writer's
//!    own paragraph shares too few concepts with its source for the paragraph's question.
//! 2. A library paragraph holding at least [`MIN_SHARED`] of the paragraph's concepts (at least
//!    [`SENTENCE_MIN_SHARED`] of a sentence's), and at least half as many as the best, is verified: at
//!    most [`CANDIDATES`] per paragraph and [`SENTENCE_CANDIDATES`] per sentence, and those sharing as
//!    many as the last of them (`library::shortlist::with_ties`). Both are split into
//!    sentences and aligned in order (`crosslang::translation`); the share of the paragraph's
//!    non-whitespace characters in paired sentences is the match's similarity (as a same-language
//!    copy's is the share in copied passages).
//! 3. A match at or above the translation threshold ([`TRANSLATION_THRESHOLD`] by default, its own:
//!    same-topic paragraphs of one manual share much vocabulary) flags the paragraph, marked
//!    `cross_language`, its spans the aligned sentences, when its best sentence pair is convincing
//!    (`crosslang::single_pair_confidence` at least [`SINGLE_PAIR_CONFIDENCE`] for a lone pair,
//!    [`GAP_BACKED_PAIR_CONFIDENCE`] for one that gap pairs stand beside,
//!    [`SINGLE_JOINED_PAIR_CONFIDENCE`] for a lone pair joining two sentences of one side,
//!    [`SEVERAL_PAIRS_CONFIDENCE`] when others back it; a match that fails this with a join in its
//!    alignment is aligned again one to one, `crosslang::translation_unjoined`, and counts when that
//!    alignment passes with more than one pair). Under it, the match is kept
//!    `below_own_threshold`: its pairs believable alone count as passages ([`PASSAGE_CONFIDENCE`] from
//!    a score of [`PARTIAL_COVER`], [`SINGLE_PAIR_CONFIDENCE`] under it), it flags nothing.
//!
//! A paragraph already found copied in its own language (at least [`SAME_LANGUAGE_ENOUGH`] of it) is
//! not searched (it is flagged already, and the search is the larger part of a check's time), nor one
//! whose other language the library does not hold. A library paragraph already found in the same
//! language (a mixed-language paragraph, for the commands a translation keeps) is replaced by its
//! translation when that reaches the threshold and covers more.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;

use super::{covered_share, Candidate, Extent, Match, ParagraphResult, Shortlist, SpanPair};
use crate::crosslang::{self, ConceptTerms, Language, Sentence};
use crate::error::Result;
use crate::fingerprint::{hamming, Fingerprinter};
use crate::library::shortlist::{ConceptQuery, Shortlisted};
use crate::library::{SourceParagraph, Sources};
use crate::text::normalize;

/// The default translation threshold: the share of a submission paragraph that must translate one
/// library paragraph for the match to be reported. Calibrated on `tests/fixtures/translation`
/// (docs/how-it-works.md, "Copies by translation").
pub const TRANSLATION_THRESHOLD: f64 = 0.45;
/// Concept keys looked up per paragraph (in `library::shortlist::reading_order`).
pub const LOOKUPS: usize = 32;
/// Concept keys a candidate must share (see the module notes).
pub const MIN_SHARED: u32 = 3;
/// Candidates verified per paragraph.
pub const CANDIDATES: usize = 8;
/// Candidates verified per sentence of a paragraph of several sentences (beyond the paragraph's).
pub const SENTENCE_CANDIDATES: usize = 2;
/// Concept keys such a sentence's candidate must share (a library paragraph stores only its most
/// specific concepts, so a sentence meets few of them).
pub const SENTENCE_MIN_SHARED: u32 = 2;
/// The score from which a sentence pair of a translation under the threshold counts at
/// [`PASSAGE_CONFIDENCE`] (see `crosslang::pair_score`; pairs of a match at or above the threshold need
/// `crosslang::SENTENCE_COVER`). A pair scoring from `SENTENCE_COVER` up to this counts only when it
/// is as believable as a lone pair that flags a paragraph ([`SINGLE_PAIR_CONFIDENCE`]): short
/// translated sentences pair there (debian-reference's "The word path is used not only for
/// fully-qualified filename as above but also for the command search path." at 0.545), and so do
/// same-topic ones.
pub const PARTIAL_COVER: f64 = 0.55;
/// The log-odds (`crosslang::single_pair_confidence`) the best sentence pair of a match must reach for
/// the match to be reported at or above the threshold, when the match rests on that pair alone: on the
/// calibration sets (the model fitted there), 372 of 424 single-pair translations kept against 5 of 158
/// same-topic single-pair matches (the earlier model without each side's cover and words: 356 and 7).
pub const SINGLE_PAIR_CONFIDENCE: f64 = 1.0;
/// The same for a lone pair that joins two neighbouring sentences of one side (a sentence translated as
/// two, or two as one): a join has more words for same-topic text to meet by chance, and translators
/// split or merge sentences less often than they keep them (Gale and Church's prior for a 2–1 or 1–2
/// alignment is a tenth of a 1–1's). On the calibration sets all 5 same-topic single-pair matches
/// that reached [`SINGLE_PAIR_CONFIDENCE`] were joins, against 41 of the 372 translations; chosen there
/// (1.5 and 2.5 measured beside it): same-topic paragraphs flagged 4, 0 and 1 → 1, 0 and 1 for 8 of
/// 1,251 translations.
pub const SINGLE_JOINED_PAIR_CONFIDENCE: f64 = 2.0;
/// The same for a lone pair (not a join) that gap pairs (`crosslang::SentencePair::gap`) stand beside:
/// the alignment goes on in order around it, through sentences the dictionary reads poorly, which a
/// lone same-topic pair seldom has. Chosen on the calibration sets (0 and −1.0 measured beside it):
/// against [`SINGLE_PAIR_CONFIDENCE`] for such pairs, 3, 0 and 4 more translations found on
/// debian-reference, debian-handbook and libreoffice-general with no same-topic paragraph more
/// flagged (0: 3, 1 and 4 more found, one same-topic paragraph more flagged on libreoffice-general,
/// "对象与所选对象中最顶端对象的上边缘对齐。" at 1.0 beside "Aligns the right edges of the selected
/// objects."; −1.0: 3, 4 and 7 more found, 0, 1 and 3 more flagged).
pub const GAP_BACKED_PAIR_CONFIDENCE: f64 = 0.5;
/// The same when other pairs back the best one: several weak same-topic pairs do not add up to a
/// translation (on the calibration sets it keeps all 841 translations of several pairs and 2 of 7
/// same-topic matches).
pub const SEVERAL_PAIRS_CONFIDENCE: f64 = -1.0;
/// The log-odds (`crosslang::single_pair_confidence`) a sentence pair under the threshold scoring
/// [`PARTIAL_COVER`] or more needs to count as a translated passage. Chosen on the three calibration
/// sets together with the bar for pairs under `PARTIAL_COVER`; against the rule before (0 here, and
/// no pair under `PARTIAL_COVER`): same-topic paragraphs given a translated passage 0, 1 and 15
/// instead of 0, 1 and 16, partial translations' ratio off by 0.043, 0.080 and 0.056 instead of
/// 0.042, 0.081 and 0.061.
pub const PASSAGE_CONFIDENCE: f64 = 0.5;
/// A paragraph copied at least this much in its own language is not searched across languages.
pub const SAME_LANGUAGE_ENOUGH: f64 = 0.5;

/// Library paragraphs kept by a checker once the verification has read them (each with its
/// sentences), for as long as the checker lives: one snapshot of the library, one run of checks,
/// whose documents on one subject share many candidates. At most [`READINGS_KEPT`] between checks
/// (past that the store starts again).
#[derive(Default)]
pub(super) struct Readings(Mutex<HashMap<i64, Arc<Reading>>>);

/// A library paragraph and its sentences, as the verification reads it.
type Reading = (Arc<SourceParagraph>, Vec<Sentence>);

/// See [`Readings`] (a paragraph with its sentences is a few kilobytes).
const READINGS_KEPT: usize = 16_384;

impl Readings {
    pub(super) fn clear(&self) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// The candidates' paragraphs by id: those read before as they were, the others fetched and read
    /// by `read` (`super::fetch`) and kept.
    fn get<'c>(
        &self,
        library: &dyn Sources,
        candidates: impl Iterator<Item = &'c super::Candidate>,
        read: impl Fn(&str) -> Vec<Sentence> + Sync,
    ) -> Result<HashMap<i64, Arc<Reading>>> {
        let lock = || self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = HashMap::new();
        let mut missing = super::distinct_ids(candidates);
        {
            let kept = lock();
            missing.retain(|id| match kept.get(id) {
                Some(r) => {
                    out.insert(*id, Arc::clone(r));
                    false
                }
                None => true,
            });
        }
        let fetched = super::fetch_ids(library, missing, read)?;
        let mut kept = lock();
        if kept.len() + fetched.len() > READINGS_KEPT {
            kept.clear();
        }
        for (id, reading) in fetched {
            let reading = Arc::new(reading);
            kept.insert(id, Arc::clone(&reading));
            out.insert(id, reading);
        }
        Ok(out)
    }
}

/// A searched submission paragraph as read: its sentences of its language, its concept keys tagged
/// with the other language, and each sentence's (when it has several sentences).
struct Read {
    sentences: Vec<Sentence>,
    terms: ConceptTerms,
    sentence_terms: Vec<ConceptTerms>,
}

/// A submission paragraph prepared for the pass: its sentences of its language and shortlisted
/// library paragraphs.
struct Prepared {
    sentences: Vec<Sentence>,
    candidates: Vec<Candidate>,
}

/// The shortlist's question of `terms`: a candidate shares at least `min_shared` keys; a paragraph's
/// question reads more postings in a large library, a sentence's does not (`budget_grows`).
fn query(terms: &ConceptTerms, min_shared: u32, budget_grows: bool) -> ConceptQuery<'_> {
    ConceptQuery {
        keys: &terms.keys,
        generality: &terms.generality,
        ends: &terms.ends,
        min_shared,
        budget_grows,
    }
}

/// Add the translations found for each paragraph to `results` (which hold the same-language matches),
/// keeping at most `keep` matches per paragraph.
#[allow(clippy::too_many_arguments)]
pub(super) fn add_translations(
    library: &dyn Sources,
    shortlist: &dyn Shortlist,
    readings: &Readings,
    fingerprinter: &Fingerprinter,
    threshold: f64,
    keep: usize,
    exclude: Option<i64>,
    results: &mut [ParagraphResult],
) -> Result<()> {
    // A paragraph of one language is searched only when the library holds paragraphs of the other.
    let holds = |language: Language| {
        let (lo, hi) = key_range(language);
        shortlist.holds_keys_in_range(lo, hi)
    };
    let (zh, en) = (holds(Language::Chinese)?, holds(Language::English)?);
    if !zh && !en {
        return Ok(());
    }
    let lexicon = fingerprinter.lexicon();
    let tokenizer = fingerprinter.tokenizer();
    // Each searched paragraph's sentences and the concept keys of the other language: the
    // paragraph's, and each of its sentences' when it has several (one translated sentence in a
    // writer's own paragraph shares too few concepts with its source for the paragraph's question).
    let read: Vec<Option<Read>> = results
        .par_iter()
        .map(|r| {
            let best = r.matches.first().map_or(0.0, |m| m.similarity);
            if best >= SAME_LANGUAGE_ENOUGH {
                return None;
            }
            // Only when the library holds the other language is the paragraph read for the search.
            let language = crosslang::language_of(&normalize(&r.text));
            let other = crosslang::other(language);
            let searched = match other {
                Language::Chinese => zh,
                Language::English => en,
            };
            if !searched {
                return None;
            }
            let read = crosslang::analyse(tokenizer, lexicon, &r.text);
            if read.concepts.is_empty() {
                return None;
            }
            let terms = read.terms(lexicon, other, 0..read.concepts.len());
            let own = |s: &Sentence| s.language == read.language;
            let ranges: Vec<_> = read
                .sentences
                .iter()
                .zip(&read.sentence_concepts)
                .filter(|(s, _)| own(s))
                .map(|(_, range)| range.clone())
                .collect();
            let sentence_terms = if ranges.len() >= 2 {
                ranges
                    .into_iter()
                    .map(|range| read.terms(lexicon, other, range))
                    .filter(|terms| terms.distinct() > SENTENCE_MIN_SHARED as usize)
                    .collect()
            } else {
                Vec::new()
            };
            let sentences: Vec<Sentence> = read.sentences.into_iter().filter(own).collect();
            (!sentences.is_empty()).then_some(Read {
                sentences,
                terms,
                sentence_terms,
            })
        })
        .collect();
    // Two shortlist questions for all the searched paragraphs: their own keys, their sentences'.
    let paragraph_queries: Vec<ConceptQuery<'_>> = read
        .iter()
        .flatten()
        .map(|r| query(&r.terms, MIN_SHARED, true))
        .collect();
    let sentence_queries: Vec<ConceptQuery<'_>> = read
        .iter()
        .flatten()
        .flat_map(|r| r.sentence_terms.iter())
        .map(|terms| query(terms, SENTENCE_MIN_SHARED, false))
        .collect();
    let mut lists = shortlist
        .shortlist_rare_each(&paragraph_queries, LOOKUPS, CANDIDATES, exclude)?
        .into_iter();
    let mut sentence_lists = shortlist
        .shortlist_rare_each(&sentence_queries, LOOKUPS, SENTENCE_CANDIDATES, exclude)?
        .into_iter();
    // A list's candidates sharing at least half as many keys as its best.
    let near_best = |list: Shortlisted| {
        let best = list.first().map_or(0, |c| c.1);
        list.into_iter()
            .take_while(move |&(_, shared)| shared * 2 >= best)
            .map(|(c, _)| c)
    };
    let prepared: Vec<Option<Prepared>> = read
        .into_iter()
        .map(|r| {
            let r = r?;
            let mut candidates: Vec<Candidate> = near_best(lists.next()?).collect();
            for _ in &r.sentence_terms {
                for c in near_best(sentence_lists.next()?) {
                    if !candidates.iter().any(|k| k.paragraph_id == c.paragraph_id) {
                        candidates.push(c);
                    }
                }
            }
            (!candidates.is_empty()).then_some(Prepared {
                sentences: r.sentences,
                candidates,
            })
        })
        .collect();

    // The candidates' texts, fetched once each, and their sentences.
    let sources = readings.get(
        library,
        prepared.iter().flatten().flat_map(|p| p.candidates.iter()),
        |text| crosslang::sentences(tokenizer, lexicon, text),
    )?;
    if sources.is_empty() {
        return Ok(());
    }

    results
        .par_iter_mut()
        .zip(prepared.par_iter())
        .for_each(|(r, p)| {
            let Some(p) = p else { return };
            let mut print = None;
            for c in &p.candidates {
                let Some(reading) = sources.get(&c.paragraph_id) else {
                    continue;
                };
                let (src, src_sentences) = &**reading;
                // A (mixed-language) library paragraph already found in the same language (the
                // commands and names a translation keeps): the translation replaces that match when
                // it reaches the threshold and covers more; under the threshold it is kept beside
                // that match when it covers more (its sentences count as passages, the copied names
                // keep whatever the same-language match decides).
                let same = r
                    .matches
                    .iter()
                    .position(|m| m.source.paragraph_id == src.paragraph_id);
                let (mut pairs, _) = crosslang::translation(&p.sentences, src_sentences);
                // The share of the whole paragraph, as for a same-language copy.
                let share_of = |pairs: &[crosslang::SentencePair]| {
                    let ranges: Vec<[usize; 2]> = pairs
                        .iter()
                        .map(|p| [p.submission.0, p.submission.1])
                        .collect();
                    covered_share(&r.text, &ranges)
                };
                let mut share = share_of(&pairs);
                // A match flags only when its best sentence pair is convincing: on its own when it
                // is the only one, less so when others back it (same-topic sentences of one manual
                // reach the pairing score alone).
                if share >= threshold && !convincing(&p.sentences, src_sentences, &pairs) {
                    // A weak join may have displaced a sure one-to-one pair: "A. B." aligned as one
                    // pair with "B'" covers more than "A'" with "A" and leaves "B'" to a gap pair.
                    // The pairs one to one count instead when they are more than a lone pair (the
                    // join's own bar guards against a lone pair of same-topic sentences).
                    if !pairs.iter().any(|p| p.joined) {
                        continue;
                    }
                    let unjoined = crosslang::translation_unjoined(&p.sentences, src_sentences).0;
                    let more_than_one = unjoined.len() > 1;
                    let unjoined_share = share_of(&unjoined);
                    if !more_than_one
                        || unjoined_share < threshold
                        || !convincing(&p.sentences, src_sentences, &unjoined)
                    {
                        continue;
                    }
                    pairs = unjoined;
                    share = unjoined_share;
                }
                if share < threshold {
                    // Under the threshold only the surest pairs count (one same-topic sentence pair
                    // reaches the pairing score more often than a whole paragraph of them), and only
                    // those believable as translations.
                    pairs.retain(|pair| {
                        let bar = if pair.score >= PARTIAL_COVER {
                            PASSAGE_CONFIDENCE
                        } else if pair.score >= crosslang::SENTENCE_COVER {
                            SINGLE_PAIR_CONFIDENCE
                        } else {
                            return false;
                        };
                        crosslang::pair_features(&p.sentences, src_sentences, pair).is_some_and(
                            |e| crosslang::single_pair_confidence(&e, p.sentences.len() > 1) >= bar,
                        )
                    });
                    share = share_of(&pairs);
                }
                if pairs.is_empty() {
                    continue;
                }
                let spans: Vec<SpanPair> = pairs
                    .iter()
                    .map(|p| SpanPair {
                        submission: [p.submission.0, p.submission.1],
                        source: [p.source.0, p.source.1],
                    })
                    .collect();
                if let Some(i) = same {
                    if share <= r.matches[i].similarity {
                        continue;
                    }
                    if share >= threshold {
                        r.matches.remove(i);
                    }
                }
                let print = *print.get_or_insert_with(|| fingerprinter.simhash(&r.text));
                r.matches.push(Match {
                    source: Arc::clone(src),
                    similarity: share,
                    hamming: hamming(print, c.simhash),
                    extent: Extent::Spans(spans),
                    cross_language: true,
                    below_own_threshold: share < threshold,
                });
            }
            super::sort_matches(&mut r.matches);
            r.matches.truncate(keep);
        });
    Ok(())
}

/// Whether a match's sentence pairs are convincing as a translation: its best pair reaches
/// [`SINGLE_PAIR_CONFIDENCE`] when it is the only pair ([`SINGLE_JOINED_PAIR_CONFIDENCE`] when that pair
/// joins two sentences of one side), [`SEVERAL_PAIRS_CONFIDENCE`] when others back it.
/// Gap pairs (`crosslang::SentencePair::gap`, paired at a lower bar between two others) do not decide
/// and are not others: a lone pair with gap pairs beside it needs [`GAP_BACKED_PAIR_CONFIDENCE`]
/// (a lone join still [`SINGLE_JOINED_PAIR_CONFIDENCE`]).
fn convincing(
    submission: &[Sentence],
    source: &[Sentence],
    pairs: &[crosslang::SentencePair],
) -> bool {
    let several_sentences = submission.len() > 1;
    let gap_backed = pairs.iter().any(|p| p.gap);
    let pairs: Vec<&crosslang::SentencePair> = pairs.iter().filter(|p| !p.gap).collect();
    let best = pairs
        .iter()
        .filter_map(|pair| crosslang::pair_features(submission, source, pair))
        .map(|e| crosslang::single_pair_confidence(&e, several_sentences))
        .fold(f64::NEG_INFINITY, f64::max);
    let bar = match pairs.len() {
        1 if pairs[0].joined => SINGLE_JOINED_PAIR_CONFIDENCE,
        1 if gap_backed => GAP_BACKED_PAIR_CONFIDENCE,
        1 => SINGLE_PAIR_CONFIDENCE,
        _ => SEVERAL_PAIRS_CONFIDENCE,
    };
    best >= bar
}

/// The concept keys of paragraphs of `language`: `[lo, hi]`.
fn key_range(language: Language) -> (u32, u32) {
    let lo = crosslang::index_keys(language, &[0])[0];
    (lo, lo | 0x3FFF_FFFF)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::shortlist::Candidate;
    use crate::library::Role;

    /// A library of paragraphs `text {id}` that records which ids each fetch asked for.
    #[derive(Default)]
    struct Counted(Mutex<Vec<Vec<i64>>>);

    impl Sources for Counted {
        fn source_paragraphs(&self, ids: &[i64]) -> Result<HashMap<i64, SourceParagraph>> {
            self.0.lock().unwrap().push(ids.to_vec());
            Ok(ids
                .iter()
                .map(|&id| {
                    let p = SourceParagraph {
                        paragraph_id: id,
                        document_id: 1,
                        document_title: String::new(),
                        document_path: String::new(),
                        document_role: Role::Source,
                        document_author: None,
                        index: 0,
                        text: format!("text {id}"),
                        common: false,
                    };
                    (id, p)
                })
                .collect())
        }
    }

    fn candidates(ids: &[i64]) -> Vec<Candidate> {
        ids.iter()
            .map(|&paragraph_id| Candidate {
                paragraph_id,
                document_id: 1,
                simhash: 0,
            })
            .collect()
    }

    #[test]
    fn a_library_paragraph_is_fetched_and_read_once_while_the_checker_keeps_it() {
        let library = Counted::default();
        let readings = Readings::default();
        let reads = std::sync::atomic::AtomicUsize::new(0);
        let read = |_: &str| {
            reads.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Vec::new()
        };
        let first = readings
            .get(&library, candidates(&[3, 1, 3]).iter(), read)
            .unwrap();
        let second = readings
            .get(&library, candidates(&[1, 2]).iter(), read)
            .unwrap();
        // Only paragraph 2 is new the second time; paragraph 1 is the same reading.
        assert_eq!(*library.0.lock().unwrap(), vec![vec![1, 3], vec![2]]);
        assert_eq!(reads.load(std::sync::atomic::Ordering::Relaxed), 3);
        assert!(Arc::ptr_eq(&first[&1], &second[&1]));
        assert_eq!(second[&2].0.text, "text 2");
        assert_eq!(second.len(), 2);
        // Cleared, everything is fetched again.
        readings.clear();
        readings
            .get(&library, candidates(&[1]).iter(), read)
            .unwrap();
        assert_eq!(library.0.lock().unwrap().last(), Some(&vec![1]));
        assert_eq!(reads.load(std::sync::atomic::Ordering::Relaxed), 4);
    }
}
