//! How a check finds its candidates: the library paragraphs sharing keys with a submission paragraph.
//!
//! [`Shortlist`] answers the two shortlist questions for all of a submission's paragraphs at once (one
//! round trip to a library server per question, however many paragraphs): the same-language shortlist
//! (shingle keys, `check::Index::shortlist`) and the cross-language one (concept keys, rarest first,
//! `check::Index::shortlist_rare`). The checker's in-memory index answers them itself; a library on a
//! server looks the keys up in the server and counts them with the same rules (`library::postgres`),
//! so both give the same candidates in the same order (ties by paragraph id, the order of an index's
//! slots).

use crate::error::Result;

/// Postings the cross-language shortlist reads per paragraph at most (its rarest keys first).
pub const RARE_POSTINGS_BUDGET: usize = 4096;

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
        queries: &[KeyQuery<'_>],
        lookups: usize,
        n: usize,
        exclude: Option<i64>,
    ) -> Result<Vec<Shortlisted>>;

    /// Whether any stored key lies in `[lo, hi]` (a language's concept keys).
    fn holds_keys_in_range(&self, lo: u32, hi: u32) -> Result<bool>;
}
