//! The in-memory [`Index`] as a [`Shortlist`] (see `library::shortlist`).

use rayon::prelude::*;

use super::index::{Index, Slot};
use crate::error::Result;
use crate::library::shortlist::{Candidate, ConceptQuery, KeyQuery, Shortlist, Shortlisted};

impl Index {
    /// The paragraph in `slot` as a candidate.
    pub fn candidate(&self, slot: Slot) -> Candidate {
        Candidate {
            paragraph_id: self.paragraph_id(slot),
            document_id: self.document_id(slot),
            simhash: self.simhash(slot),
        }
    }

    fn candidates(&self, list: Vec<(Slot, u32)>) -> Shortlisted {
        list.into_iter()
            .map(|(slot, shared)| (self.candidate(slot), shared))
            .collect()
    }
}

impl Shortlist for Index {
    fn shortlist_each(
        &self,
        queries: &[KeyQuery<'_>],
        n: usize,
        exclude: Option<i64>,
    ) -> Result<Vec<Shortlisted>> {
        Ok(queries
            .par_iter()
            .map(|q| self.candidates(self.shortlist(q.keys, q.min_shared, n, exclude)))
            .collect())
    }

    fn shortlist_rare_each(
        &self,
        queries: &[ConceptQuery<'_>],
        lookups: usize,
        n: usize,
        exclude: Option<i64>,
    ) -> Result<Vec<Shortlisted>> {
        Ok(queries
            .par_iter()
            .map(|q| self.candidates(self.shortlist_rare(q, lookups, n, exclude)))
            .collect())
    }

    fn holds_keys_in_range(&self, lo: u32, hi: u32) -> Result<bool> {
        Ok(self.keys_in_range(lo, hi) > 0)
    }
}
