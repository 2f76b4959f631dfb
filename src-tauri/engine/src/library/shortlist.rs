//! How a check finds its candidates: the library paragraphs sharing keys with a submission paragraph.
//!
//! [`Shortlist`] answers the two shortlist questions for all of a submission's paragraphs at once (one
//! round trip to a library server per question, however many paragraphs): the same-language shortlist
//! (shingle keys, `check::Index::shortlist`) and the cross-language one (concept keys, in
//! [`reading_order`], `check::Index::shortlist_rare`). The checker's in-memory index answers them
//! itself; a library on a server looks the keys up in the server and counts them with the same rules
//! (`library::postgres`),
//! so both give the same candidates in the same order (ties by paragraph id, the order of an index's
//! slots).

use crate::error::Result;

/// Postings the cross-language shortlist reads per paragraph at most (its first keys in
/// [`reading_order`]). In `tongwen-translation-bench` (debian-reference, a calibration set), with the
/// in-memory index counting in stamped counters: 179, 192 and 197 of 240 translations found at 1M
/// library paragraphs with 16,384, 32,768 and 65,536, for a warm check of the set's 720 paragraphs of
/// 249, 311 and 406 ms; at 10M 26 and 62 with 16,384 and 65,536 (828 and 1,865 ms). Libraries of up
/// to 100,000 paragraphs find the same with each (216 and 214). 131,072 found fewer at 1M (190): the
/// more keys are counted before the best go on, the more the count is of keys many paragraphs share.
/// The in-memory index reads more in a library where one key may have more (`check::Index`'s
/// `rare_budget`: from 1,310,720 paragraphs on); the server path reads this many at most.
pub const RARE_POSTINGS_BUDGET: usize = 65_536;

/// How many times as many candidates as asked for the cross-language shortlist gives at most, so
/// that those tied in shared keys with the last one asked for are verified too ([`with_ties`]).
pub const TIES_WIDENING: usize = 16;

/// Keep of `ranked` (most shared keys first, `shared` of each) the first `n` and those after them
/// that share as many keys as the `n`th: which of several paragraphs tied with the source is verified
/// is then not decided by where each lies in the library.
pub fn with_ties<T>(ranked: &mut Vec<T>, n: usize, shared: impl Fn(&T) -> u32) {
    let Some(last) = n.checked_sub(1).and_then(|i| ranked.get(i)).map(&shared) else {
        return;
    };
    let ties = ranked[n..].iter().take_while(|c| shared(c) == last).count();
    ranked.truncate(n + ties);
}

/// A shortlisted library paragraph: what the checker needs of it before reading its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Candidate {
    pub paragraph_id: i64,
    pub document_id: i64,
    pub simhash: u64,
}

/// One submission paragraph's question: its keys (distinct) and how many of them a candidate must
/// share.
#[derive(Debug, Clone, Copy)]
pub struct KeyQuery<'a> {
    pub keys: &'a [u32],
    pub min_shared: u32,
}

/// One submission paragraph's cross-language question: its concept keys by term
/// (`crosslang::ConceptTerms`) and how many distinct keys a candidate must share.
#[derive(Debug, Clone, Copy)]
pub struct ConceptQuery<'a> {
    /// Each term's keys, term after term.
    pub keys: &'a [u32],
    /// Each key's concept's generality, parallel to `keys`.
    pub generality: &'a [u32],
    /// Where each term's keys end in `keys`.
    pub ends: &'a [u32],
    pub min_shared: u32,
    /// Whether the question may read more postings than [`RARE_POSTINGS_BUDGET`] in a library large
    /// enough (`check::Index`'s `rare_budget`): a paragraph's question may, a sentence's reads the
    /// fixed budget (in `tongwen-translation-bench` at 10M paragraphs the sentences' growing too found
    /// the same 207 translations in 11.5 s against 7.8 s).
    pub budget_grows: bool,
}

/// A concept held by more paragraphs than this, of a library of `paragraphs` (5%, at least 100), is
/// too common to say where a translation came from; the cross-language shortlist skips it (the
/// in-memory index's and the server's alike; `check::Index`'s `rare_limit` gives the history).
pub fn rare_limit(paragraphs: usize) -> usize {
    (paragraphs / 20).max(100)
}

/// Generality up to which a concept is read at the cost of its postings alone (see [`reading_order`]).
pub const SPECIFIC: u32 = 25;

/// The keys of `query` in the order the cross-language shortlist reads them, each once with its
/// holders (`holders` of a key: how many library paragraphs hold it, counted up to `limit + 1`), keys
/// no paragraph holds and those held by more than `limit` left out, at most `lookups`.
///
/// A key is read for the postings it costs against its chance of being the translation's: its
/// term's postings together (a Chinese word's glosses: the translator used one of them, likelier a
/// common sense than a rare one, so a rare gloss of a word with a common one is no bargain), times
/// its generality over [`SPECIFIC`] when above it (a library paragraph stores only its most specific
/// concepts, so a general one is seldom stored). Cheapest first; ties by fewer holders, then by key.
/// Rarest first alone reads, at a million paragraphs, mostly the rare wrong senses of ambiguous words
/// and rare words the other language renders otherwise (docs/how-it-works.md).
pub fn reading_order(
    query: &ConceptQuery<'_>,
    mut holders: impl FnMut(u32) -> usize,
    limit: usize,
    lookups: usize,
) -> Vec<(u32, usize)> {
    let held: Vec<usize> = query
        .keys
        .iter()
        .map(|&k| holders(k).min(limit + 1))
        .collect();
    let mut order: Vec<(u64, usize, u32)> = Vec::with_capacity(query.keys.len());
    let mut start = 0;
    for &end in query.ends {
        let term = start..(end as usize).clamp(start, query.keys.len());
        start = term.end;
        let postings: u64 = held[term.clone()].iter().map(|&n| n as u64).sum();
        for i in term {
            if held[i] == 0 || held[i] > limit {
                continue;
            }
            let generality = query.generality.get(i).copied().unwrap_or(0).max(SPECIFIC);
            order.push((postings * u64::from(generality), held[i], query.keys[i]));
        }
    }
    // Each key once, at its cheapest.
    order.sort_unstable_by_key(|&(cost, _, key)| (key, cost));
    order.dedup_by_key(|e| e.2);
    order.sort_unstable();
    order.truncate(lookups);
    order.into_iter().map(|(_, n, key)| (key, n)).collect()
}

/// Candidates with the number of keys each shares, most first.
pub type Shortlisted = Vec<(Candidate, u32)>;

/// What a check needs of a library's keys. See the module notes.
pub trait Shortlist: Sync {
    /// For each query, the `n` paragraphs sharing the most of its keys (at least `min_shared`), most
    /// first, ties by paragraph id; keys held by more than 1% of the library (at least 1,000
    /// paragraphs) are skipped; paragraphs of document `exclude` are left out.
    fn shortlist_each(
        &self,
        queries: &[KeyQuery<'_>],
        n: usize,
        exclude: Option<i64>,
    ) -> Result<Vec<Shortlisted>>;

    /// For each query, the cross-language shortlist (`check::Index::shortlist_rare`). The queries'
    /// keys are concept keys (top bit set), the only keys whose holders a server counts ahead.
    fn shortlist_rare_each(
        &self,
        queries: &[ConceptQuery<'_>],
        lookups: usize,
        n: usize,
        exclude: Option<i64>,
    ) -> Result<Vec<Shortlisted>>;

    /// Whether any stored key lies in `[lo, hi]` (a language's concept keys).
    fn holds_keys_in_range(&self, lo: u32, hi: u32) -> Result<bool>;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Terms of (key, generality) each, and holders per key.
    fn order(
        terms: &[&[(u32, u32)]],
        held: &[(u32, usize)],
        limit: usize,
        lookups: usize,
    ) -> Vec<u32> {
        let keys: Vec<u32> = terms.iter().flat_map(|t| t.iter().map(|k| k.0)).collect();
        let generality: Vec<u32> = terms.iter().flat_map(|t| t.iter().map(|k| k.1)).collect();
        let mut ends = Vec::new();
        let mut end = 0;
        for t in terms {
            end += t.len() as u32;
            ends.push(end);
        }
        let query = ConceptQuery {
            keys: &keys,
            generality: &generality,
            ends: &ends,
            min_shared: 1,
            budget_grows: true,
        };
        let holders = |k: u32| held.iter().find(|h| h.0 == k).map_or(0, |h| h.1);
        reading_order(&query, holders, limit, lookups)
            .into_iter()
            .map(|(k, n)| {
                assert_eq!(n, holders(k).min(limit + 1));
                k
            })
            .collect()
    }

    #[test]
    fn a_rare_sense_of_a_common_word_is_read_after_a_plainly_rare_word() {
        // Word A has a rare gloss (1) and a common one (2); word B one gloss (3), rarer than A's
        // glosses together but commoner than the rare gloss alone. Rarest first would read 1 first.
        let terms: &[&[(u32, u32)]] = &[&[(1, 1), (2, 1)], &[(3, 1)]];
        let held = [(1, 10), (2, 900), (3, 200)];
        assert_eq!(order(terms, &held, 1000, 32), vec![3, 1, 2]);
        // A gloss too common to read (over the limit) still makes its word's other glosses dear.
        assert_eq!(order(terms, &held, 500, 32), vec![3, 1]);
    }

    #[test]
    fn a_general_concept_is_read_after_a_specific_one_as_common() {
        let terms: &[&[(u32, u32)]] = &[&[(1, SPECIFIC * 4)], &[(2, SPECIFIC)], &[(3, 0)]];
        let held = [(1, 100), (2, 300), (3, 500)];
        // 1 costs 100 * 4 specific units, 2 costs 300, 3 costs 500.
        assert_eq!(order(terms, &held, 1000, 32), vec![2, 1, 3]);
    }

    #[test]
    fn each_key_is_read_once_at_its_cheapest_and_unheld_keys_not_at_all() {
        // Key 2 is a gloss of word A (dear, with 5) and a word of its own (cheap).
        let terms: &[&[(u32, u32)]] = &[&[(2, 1), (5, 1)], &[(2, 1)], &[(9, 1)], &[(4, 1)]];
        let held = [(2, 50), (5, 700), (4, 60)];
        assert_eq!(order(terms, &held, 1000, 32), vec![2, 4, 5]);
        // At most `lookups`, cheapest first; ties by fewer holders, then by key.
        assert_eq!(order(terms, &held, 1000, 2), vec![2, 4]);
        let tied: &[&[(u32, u32)]] = &[&[(7, 1)], &[(6, 1)]];
        assert_eq!(order(tied, &[(6, 5), (7, 5)], 1000, 32), vec![6, 7]);
    }

    #[test]
    fn ends_out_of_order_or_past_the_keys_read_what_they_can() {
        let keys = [1, 2, 3];
        let generality = [1, 1, 1];
        let holders = |k: u32| 40 - k as usize * 10;
        let read = |ends: &[u32]| {
            let query = ConceptQuery {
                keys: &keys,
                generality: &generality,
                ends,
                min_shared: 1,
                budget_grows: true,
            };
            reading_order(&query, holders, 1000, 32)
        };
        // A term ending before the last one ended is empty; one ending past the keys ends with them.
        assert_eq!(read(&[2, 1, 3]), vec![(3, 10), (2, 20), (1, 30)]);
        assert_eq!(read(&[1, 9]), vec![(3, 10), (2, 20), (1, 30)]);
        // Keys in no term are not read.
        assert_eq!(read(&[1]), vec![(1, 30)]);
        assert!(read(&[]).is_empty());
    }
}
