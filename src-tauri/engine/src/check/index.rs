//! The in-memory index of library fingerprints, built once when a library is opened for checking: the
//! paragraph SimHashes in one flat array (scanned for the seed method and read for `hamming`), and an
//! inverted index from shingle key to the paragraphs that contain it (the shortlist stage). Texts stay in
//! SQLite; only candidates' texts are fetched.

use std::collections::HashMap;

use crate::fingerprint::hamming;
use crate::library::StoredPrint;

/// Position of a paragraph in the index.
pub type Slot = u32;

/// Library fingerprints held in memory.
#[derive(Debug, Default)]
pub struct Index {
    simhash: Vec<u64>,
    paragraph_ids: Vec<i64>,
    document_ids: Vec<i64>,
    postings: HashMap<u32, Vec<Slot>>,
}

impl Index {
    /// Build the index from stored prints.
    pub fn build(prints: Vec<StoredPrint>) -> Index {
        let mut index = Index {
            simhash: Vec::with_capacity(prints.len()),
            paragraph_ids: Vec::with_capacity(prints.len()),
            document_ids: Vec::with_capacity(prints.len()),
            postings: HashMap::new(),
        };
        for (slot, p) in prints.into_iter().enumerate() {
            index.simhash.push(p.simhash);
            index.paragraph_ids.push(p.paragraph_id);
            index.document_ids.push(p.document_id);
            for key in p.shingles {
                index.postings.entry(key).or_default().push(slot as Slot);
            }
        }
        index
    }

    /// Number of library paragraphs.
    pub fn len(&self) -> usize {
        self.simhash.len()
    }

    pub fn is_empty(&self) -> bool {
        self.simhash.is_empty()
    }

    pub fn paragraph_id(&self, slot: Slot) -> i64 {
        self.paragraph_ids[slot as usize]
    }

    pub fn document_id(&self, slot: Slot) -> i64 {
        self.document_ids[slot as usize]
    }

    pub fn simhash(&self, slot: Slot) -> u64 {
        self.simhash[slot as usize]
    }

    /// The `n` paragraphs sharing the most shingle keys with `keys` (at least `min_shared`), most first,
    /// ties by slot.
    pub fn shortlist(&self, keys: &[u32], min_shared: u32, n: usize) -> Vec<(Slot, u32)> {
        let mut counts: HashMap<Slot, u32> = HashMap::new();
        for key in keys {
            if let Some(slots) = self.postings.get(key) {
                for &slot in slots {
                    *counts.entry(slot).or_default() += 1;
                }
            }
        }
        let mut out: Vec<(Slot, u32)> = counts
            .into_iter()
            .filter(|&(_, c)| c >= min_shared)
            .collect();
        out.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out.truncate(n);
        out
    }

    /// The `n` paragraphs with the smallest Hamming distance to `fingerprint`, nearest first, ties by slot.
    pub fn nearest(&self, fingerprint: u64, max_hamming: u32, n: usize) -> Vec<(Slot, u32)> {
        let mut out: Vec<(Slot, u32)> = self
            .simhash
            .iter()
            .enumerate()
            .filter_map(|(slot, &f)| {
                let h = hamming(f, fingerprint);
                (h <= max_hamming).then_some((slot as Slot, h))
            })
            .collect();
        out.sort_unstable_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
        out.truncate(n);
        out
    }
}
