//! The in-memory index of library fingerprints, built once when a library is opened for checking.
//!
//! - The paragraph SimHashes and ids in flat arrays (24 bytes per paragraph), scanned for the seed
//!   method and read for `hamming`.
//! - An inverted index from key to the paragraphs that contain it: winnowed shingle keys (the shortlist
//!   stage) and concept keys (the cross-language shortlist, `crate::crosslang`), laid out flat: postings sorted by key, grouped into 2^B buckets by the key's top B bits
//!   (B grows with the library, up to 24), so a lookup reads one bucket offset and searches a bucket of a
//!   few dozen entries. 8 bytes per stored key (key, slot) plus 4 per bucket; no per-key allocation.
//!
//! Texts stay in SQLite; only candidates' texts are fetched.

use rustc_hash::FxHashMap;

use super::column::Column;
use crate::fingerprint::hamming;
use crate::library::FlatPrints;

pub use crate::library::shortlist::RARE_POSTINGS_BUDGET;
use crate::library::shortlist::{reading_order, with_ties, ConceptQuery};

/// Paragraphs of the cross-language shortlist's first keys looked up in its other keys (see
/// [`Index::shortlist_rare`]), at least: a question whose budget reads more postings probes one for
/// every [`POSTINGS_PER_PROBED`]. 512 before: with [`TIES_WIDENING`] 8 then,
/// `tongwen-translation-bench` found 208 of 240 at 10M paragraphs against 213 now (224 at 10,000
/// either way; 221 and 223 at 1M); either doubled alone found 209.
pub const PROBED: usize = 2048;
/// Postings read in the first step of [`Index::shortlist_rare`] per paragraph probed in the second,
/// when that is more than [`PROBED`]: a budget that reads more postings counts more paragraphs tied
/// with the source, and each probed paragraph costs about as much as the postings it stands for
/// (a search in each other key's list), so the second step stays a fixed share of the first. Grows
/// the probed paragraphs from 2,048 to 7,812 at 10M library paragraphs (the budget 500,000):
/// `tongwen-translation-bench` found 216 of 240 there against 214 with 48 stored concepts (8,192
/// probed with 32 concepts: 218 against 215; 32,768: 218 too, in 5.1 s against 3.3). 1M reads the
/// fixed budget and probes 2,048 as before (8,192 there: the same 225 found, in 1.03 s against 0.71).
pub const POSTINGS_PER_PROBED: usize = 64;
/// From this many library paragraphs on, the cross-language shortlist orders paragraphs tied in shared
/// keys by the information of the keys they share (see [`Index::shortlist_rare`]).
pub const TIES_FROM: usize = 100_000;
pub use crate::library::shortlist::TIES_WIDENING;

/// Position of a paragraph in the index.
pub type Slot = u32;

/// Slots counted at a time by the cross-language shortlist (`Index::count`): 64 Ki counters of 4
/// bytes, 256 KiB, within a core's second-level cache.
const COUNTED_BLOCK: usize = 1 << 16;

/// A paragraph's count in a shortlist: the keys it shares, and their information when the
/// shortlist weighs them ([`Index::shortlist_rare`] in a large library; 0 otherwise).
#[derive(Debug, Clone, Copy)]
struct Tally {
    slot: Slot,
    shared: u32,
    weight: u32,
}

impl Tally {
    /// Most shared keys first, then most weight, then by slot: a total order.
    fn order(a: &Tally, b: &Tally) -> std::cmp::Ordering {
        b.shared
            .cmp(&a.shared)
            .then(b.weight.cmp(&a.weight))
            .then(a.slot.cmp(&b.slot))
    }
}

/// The first position of sorted `slots` holding `slot` or more: searched from the start in steps
/// that double, then by halves (a galloping search, cheap when it is near the start).
fn gallop(slots: &[Slot], slot: Slot) -> usize {
    let mut bound = 1;
    while bound < slots.len() && slots[bound - 1] < slot {
        bound *= 2;
    }
    let lo = bound / 2;
    let hi = bound.min(slots.len());
    lo + slots[lo..hi].partition_point(|&s| s < slot)
}

/// Library fingerprints held in memory (or used in place from a mapped saved index).
#[derive(Debug, Default, PartialEq)]
pub struct Index {
    simhash: Column<u64>,
    paragraph_ids: Column<i64>,
    document_ids: Column<i64>,
    /// `buckets[b]..buckets[b + 1]` is bucket `b`'s range in `keys`/`slots`.
    buckets: Column<u32>,
    shift: u32,
    keys: Column<u32>,
    slots: Column<Slot>,
}

/// Memory held by an index, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexMemory {
    /// SimHashes and ids (the paragraph-fingerprint index).
    pub fingerprints: usize,
    /// Postings (shingle and concept keys) and bucket offsets (the shortlists).
    pub postings: usize,
    /// Number of stored keys.
    pub keys: usize,
}

/// Borrowed view of an index's arrays (for saving it).
pub(crate) struct Parts<'a> {
    pub simhash: &'a [u64],
    pub paragraph_ids: &'a [i64],
    pub document_ids: &'a [i64],
    pub buckets: &'a [u32],
    pub shift: u32,
    pub keys: &'a [u32],
    pub slots: &'a [Slot],
}

impl Index {
    /// Reassemble an index from saved arrays; `None` when they are inconsistent.
    pub(crate) fn from_parts(
        simhash: Column<u64>,
        paragraph_ids: Column<i64>,
        document_ids: Column<i64>,
        buckets: Column<u32>,
        shift: u32,
        keys: Column<u32>,
        slots: Column<Slot>,
    ) -> Option<Index> {
        let n = simhash.len();
        let consistent = paragraph_ids.len() == n
            && document_ids.len() == n
            && keys.len() == slots.len()
            && (1..32).contains(&shift)
            && buckets.len() == (1usize << (32 - shift)) + 1
            && buckets.first() == Some(&0)
            && buckets.last().is_some_and(|&b| b as usize == keys.len())
            && buckets.windows(2).all(|w| w[0] <= w[1])
            && slots.iter().all(|&s| (s as usize) < n);
        consistent.then_some(Index {
            simhash,
            paragraph_ids,
            document_ids,
            buckets,
            shift,
            keys,
            slots,
        })
    }

    /// How many of the six arrays lie in a mapped saved index (for tests).
    #[cfg(test)]
    pub(crate) fn mapped_arrays(&self) -> usize {
        let mapped = [
            self.simhash.is_mapped(),
            self.paragraph_ids.is_mapped(),
            self.document_ids.is_mapped(),
            self.buckets.is_mapped(),
            self.keys.is_mapped(),
            self.slots.is_mapped(),
        ];
        mapped.iter().filter(|&&m| m).count()
    }

    pub(crate) fn parts(&self) -> Parts<'_> {
        Parts {
            simhash: &self.simhash,
            paragraph_ids: &self.paragraph_ids,
            document_ids: &self.document_ids,
            buckets: &self.buckets,
            shift: self.shift,
            keys: &self.keys,
            slots: &self.slots,
        }
    }

    /// Build the index from flat prints (a counting sort by bucket, then each bucket by key).
    pub fn from_flat(flat: FlatPrints) -> Index {
        let n_keys = flat.keys.len();
        assert!(
            n_keys < u32::MAX as usize && flat.simhash.len() < Slot::MAX as usize,
            "index limit: 4 billion shingle keys"
        );
        // About 8 keys per bucket, between 2^4 and 2^24 buckets.
        let bits = (usize::BITS - (n_keys / 8).leading_zeros()).clamp(4, 24);
        let shift = 32 - bits;
        let mut buckets = vec![0u32; (1usize << bits) + 1];
        for &k in &flat.keys {
            buckets[(k >> shift) as usize + 1] += 1;
        }
        for b in 1..buckets.len() {
            buckets[b] += buckets[b - 1];
        }
        let mut fill: Vec<u32> = buckets[..buckets.len() - 1].to_vec();
        let mut keys = vec![0u32; n_keys];
        let mut slots = vec![0 as Slot; n_keys];
        for slot in 0..flat.simhash.len() {
            for &k in flat.keys_of(slot) {
                let at = &mut fill[(k >> shift) as usize];
                keys[*at as usize] = k;
                slots[*at as usize] = slot as Slot;
                *at += 1;
            }
        }
        // Within a bucket, order by key. Slots were filled in increasing order, so ordering by (key, slot)
        // keeps each key's slots in order. One scratch buffer serves every bucket.
        let mut pairs: Vec<(u32, Slot)> = Vec::new();
        for b in 0..buckets.len() - 1 {
            let (lo, hi) = (buckets[b] as usize, buckets[b + 1] as usize);
            if keys[lo..hi].is_sorted() {
                continue;
            }
            pairs.clear();
            pairs.extend(
                keys[lo..hi]
                    .iter()
                    .copied()
                    .zip(slots[lo..hi].iter().copied()),
            );
            pairs.sort_unstable();
            for (i, &(k, s)) in pairs.iter().enumerate() {
                keys[lo + i] = k;
                slots[lo + i] = s;
            }
        }
        Index {
            simhash: Column::Owned(flat.simhash),
            paragraph_ids: Column::Owned(flat.paragraph_ids),
            document_ids: Column::Owned(flat.document_ids),
            buckets: Column::Owned(buckets),
            shift,
            keys: Column::Owned(keys),
            slots: Column::Owned(slots),
        }
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

    /// Every stored shingle key (a key held by several paragraphs comes once per paragraph).
    pub fn keys(&self) -> impl Iterator<Item = u32> + '_ {
        self.keys.iter().copied()
    }

    /// Bytes held (vector lengths; allocator overhead aside).
    pub fn memory(&self) -> IndexMemory {
        IndexMemory {
            fingerprints: self.simhash.len() * 8
                + self.paragraph_ids.len() * 8
                + self.document_ids.len() * 8,
            postings: self.buckets.len() * 4 + self.keys.len() * 4 + self.slots.len() * 4,
            keys: self.keys.len(),
        }
    }

    /// The paragraphs holding `key`, in slot order.
    fn postings(&self, key: u32) -> &[Slot] {
        if self.keys.is_empty() {
            return &[];
        }
        let b = (key >> self.shift) as usize;
        let (lo, hi) = (self.buckets[b] as usize, self.buckets[b + 1] as usize);
        let bucket = &self.keys[lo..hi];
        let start = bucket.partition_point(|&k| k < key);
        let end = start + bucket[start..].partition_point(|&k| k == key);
        &self.slots[lo + start..lo + end]
    }

    /// A key held by more paragraphs than this (1% of the library, at least 1,000) is boilerplate and
    /// says nothing about where a passage came from; the shortlist skips it.
    fn common_limit(&self) -> usize {
        (self.len() / 100).max(1_000)
    }

    /// A concept held by more paragraphs than this (5% of the library, at least 100) is too common to
    /// say where a translation came from; the cross-language shortlist skips it. 0.5% until the
    /// second step of [`Self::shortlist_rare`] (more keys: 0.90 of a manual's translations found at
    /// 100,000 paragraphs against 0.75), then 2% (`tongwen-translation-bench`: 217, 217, 215 and 144
    /// of 240 at 10,000, 100,000, 1M and 10M paragraphs against 223, 223, 219 and 151 with 5%).
    fn rare_limit(&self) -> usize {
        crate::library::shortlist::rare_limit(self.len())
    }

    /// Postings the first step of [`Self::shortlist_rare`] reads at most: [`RARE_POSTINGS_BUDGET`], or
    /// as many as one key may have (`rare_limit`) in a library where that is more (from 1,310,720
    /// paragraphs on), so that the step reads more than the first key's list. In
    /// `tongwen-translation-bench` at 10M paragraphs (the budget 500,000): 207 of 240 found
    /// against 158 with 65,536, for a warm check of its 720 paragraphs of 13.2 s against 2.7 s (one
    /// run each; 7.8 s once only paragraphs' questions grew: `ConceptQuery::budget_grows`;
    /// docs/how-it-works.md, "At scale").
    fn rare_budget(&self) -> usize {
        RARE_POSTINGS_BUDGET.max(self.rare_limit())
    }

    /// The `n` paragraphs sharing the most shingle keys with `keys` (at least `min_shared`), most first,
    /// ties by slot; paragraphs of document `exclude` are left out.
    pub fn shortlist(
        &self,
        keys: &[u32],
        min_shared: u32,
        n: usize,
        exclude: Option<i64>,
    ) -> Vec<(Slot, u32)> {
        let limit = self.common_limit();
        // Shared keys per paragraph (the submission's keys are distinct).
        let mut counts: FxHashMap<Slot, u32> = FxHashMap::default();
        for &key in keys {
            let slots = self.postings(key);
            if slots.len() <= limit {
                for &slot in slots {
                    *counts.entry(slot).or_default() += 1;
                }
            }
        }
        let tallies = counts.into_iter().map(|(slot, shared)| Tally {
            slot,
            shared,
            weight: 0,
        });
        self.most_shared(tallies, min_shared, n, exclude)
    }

    /// Of paragraphs with their shared keys: those with at least `min_shared` and not in document
    /// `exclude`, most first (then most weight, `Tally::order`), at most `n`, with their shared keys.
    fn most_shared(
        &self,
        tallies: impl Iterator<Item = Tally>,
        min_shared: u32,
        n: usize,
        exclude: Option<i64>,
    ) -> Vec<(Slot, u32)> {
        let mut out: Vec<Tally> = tallies
            .filter(|t| {
                t.shared >= min_shared && exclude != Some(self.document_ids[t.slot as usize])
            })
            .collect();
        // A total order, so the first `n` are chosen before only they are sorted (most lists are
        // hundreds long, `n` a few).
        if n == 0 {
            return Vec::new();
        }
        if out.len() > n {
            out.select_nth_unstable_by(n - 1, Tally::order);
            out.truncate(n);
        }
        out.sort_unstable_by(Tally::order);
        out.into_iter().map(|t| (t.slot, t.shared)).collect()
    }

    /// What holding a key held by `holders` of the library's paragraphs says of a paragraph, in
    /// sixteenths of a nat: `round(16 ln(paragraphs / holders))`, at least 1 (a key's IDF).
    fn information(&self, holders: usize) -> u32 {
        let ratio = self.len() as f64 / holders.max(1) as f64;
        ((16.0 * ratio.ln()).round() as u32).max(1)
    }

    /// Stored keys in `[lo, hi]` (a whole range of the key space, such as one language's concept keys).
    pub fn keys_in_range(&self, lo: u32, hi: u32) -> usize {
        if self.keys.is_empty() {
            return 0;
        }
        let (bl, bh) = ((lo >> self.shift) as usize, (hi >> self.shift) as usize);
        let (start, end) = (self.buckets[bl] as usize, self.buckets[bh + 1] as usize);
        let slice = &self.keys[start..end];
        slice.partition_point(|&k| k <= hi) - slice.partition_point(|&k| k < lo)
    }

    /// The cross-language shortlist: the paragraphs holding the most of `query`'s keys (concept keys
    /// of the other language), looking up at most `lookups` of them in their reading order
    /// (`library::shortlist::reading_order`), none held by more than 5% of the library (at least 100,
    /// `rare_limit`). In two steps, so that the cost stays bounded as posting lists grow with the
    /// library:
    ///
    /// 1. The first keys' postings are read while at most `rare_budget` are (at least the
    ///    first key's): each paragraph in them is counted, and of those holding two of them (one when
    ///    only one is read) the [`PROBED`] that hold the most go on (one per [`POSTINGS_PER_PROBED`]
    ///    of the budget when that is more).
    /// 2. Each of those is looked up in the other keys' posting lists (sorted by slot: those
    ///    paragraphs in slot order, each searched from where the one before was found, `gallop`), so
    ///    that its count is over every key looked up.
    ///
    /// At least the query's `min_shared`, most first, at most `n` and those tied in shared keys with
    /// the `n`th (`with_ties`: at most `n` × [`TIES_WIDENING`] in all), ties by slot; paragraphs of
    /// document `exclude` left out. Verifying the ties at every size (from [`TIES_FROM`] on only,
    /// before) flagged no more same-topic paragraphs on any translation set and took partial
    /// translations' ratio 0.001–0.010 nearer the truth on each (docs/how-it-works.md, "At scale").
    /// In a library of [`TIES_FROM`] paragraphs or more, ties of shared keys go first by the
    /// information of the keys shared (`information`, in both steps). Below it the rare keys' weight
    /// changed little: on the calibration sets 2 more translations, partial translations' ratio
    /// 0.001–0.002 nearer the truth, but on the held-out libreoffice-apps one more same-topic
    /// paragraph flagged (5 of 951). A paragraph holding
    /// fewer than two of the keys read within the budget (none, when one is read) is not found unless
    /// every key is read within it.
    pub fn shortlist_rare(
        &self,
        query: &ConceptQuery<'_>,
        lookups: usize,
        n: usize,
        exclude: Option<i64>,
    ) -> Vec<(Slot, u32)> {
        let min_shared = query.min_shared;
        // Each key's postings, found once.
        let mut found: Vec<(u32, &[Slot])> = query.keys.iter().map(|&k| (k, &[][..])).collect();
        found.sort_unstable_by_key(|f| f.0);
        found.dedup_by_key(|f| f.0);
        for f in &mut found {
            f.1 = self.postings(f.0);
        }
        let postings = |k: u32| {
            found
                .binary_search_by_key(&k, |f| f.0)
                .map_or(&[][..], |i| found[i].1)
        };
        let order = reading_order(query, |k| postings(k).len(), self.rare_limit(), lookups);
        let lists: Vec<&[Slot]> = order.iter().map(|&(k, _)| postings(k)).collect();
        if lists.len() < min_shared as usize {
            return Vec::new();
        }
        // In reading order, within a budget of postings read (the first list always).
        let budget = if query.budget_grows {
            self.rare_budget()
        } else {
            RARE_POSTINGS_BUDGET
        };
        let mut read = 0;
        let within = lists
            .iter()
            .take_while(|l| {
                read += l.len();
                read <= budget
            })
            .count()
            .max(1);
        // In a large library many paragraphs share as many of the keys as the source: among them,
        // those holding the rarer keys come first (by the keys' information), not the first slots.
        let large = self.len() >= TIES_FROM;
        let weights: Vec<u32> = lists
            .iter()
            .map(|l| if large { self.information(l.len()) } else { 0 })
            .collect();
        let (rare, others) = lists.split_at(within);
        // When every key is read, the paragraphs holding `min_shared` are the answer; otherwise those
        // holding two of the keys read are probed (a key's holders alone are thousands at scale, and
        // among them the first slots would go on, whatever they hold).
        let floor = if others.is_empty() {
            min_shared
        } else {
            min_shared.min(within as u32).min(2)
        };
        let mut tallies = self.count(rare, &weights, floor);
        if !others.is_empty() {
            let probed = PROBED.max(budget / POSTINGS_PER_PROBED);
            if tallies.len() > probed {
                tallies.select_nth_unstable_by(probed - 1, Tally::order);
                tallies.truncate(probed);
            }
            // In slot order, so that each list is searched onward from where the slot before was.
            tallies.sort_unstable_by_key(|t| t.slot);
            for (list, &weight) in others.iter().zip(&weights[within..]) {
                let mut rest: &[Slot] = list;
                for t in &mut tallies {
                    let at = gallop(rest, t.slot);
                    if rest.get(at) == Some(&t.slot) {
                        t.shared += 1;
                        t.weight += weight;
                    }
                    rest = &rest[at..];
                }
            }
        }
        // Others may share as many keys as the source (in a large library, as much information too,
        // or nearly): those tied in shared keys with the last one asked for are verified too.
        let mut out = self.most_shared(tallies.into_iter(), min_shared, n * TIES_WIDENING, exclude);
        with_ties(&mut out, n, |c| c.1);
        out
    }

    /// How many of `lists` hold each paragraph that at least `floor` of them hold (each list's slots
    /// are distinct and in order), with the `weights` of the lists holding it summed: a pass over the
    /// postings in a per-thread counter per slot, no sorting. The slots are counted a block of
    /// [`COUNTED_BLOCK`] at a time, every list's postings of the block before the next block's, so that
    /// the counters in use fit the processor's cache: counting straight into one counter per library
    /// paragraph (40 MB at 10M paragraphs) missed the cache on nearly every posting. Each counter
    /// carries the block's stamp (8 bits) beside its count (8) and weight (16, saturating), so that no
    /// block clears what the one before counted (the counters are cleared once every 255 blocks, when
    /// the stamp comes round again).
    fn count(&self, lists: &[&[Slot]], weights: &[u32], floor: u32) -> Vec<Tally> {
        thread_local! {
            static COUNTERS: std::cell::RefCell<(Vec<u32>, u8)> =
                const { std::cell::RefCell::new((Vec::new(), 0)) };
        }
        COUNTERS.with(|counters| {
            let (c, stamp) = &mut *counters.borrow_mut();
            let block = self.len().clamp(1, COUNTED_BLOCK);
            if c.len() < block {
                c.resize(block, 0);
            }
            let floor = floor.clamp(1, 255);
            let mut rest: Vec<&[Slot]> = lists.to_vec();
            let mut out = Vec::new();
            let mut held = Vec::new();
            for base in (0..self.len()).step_by(block) {
                *stamp = stamp.wrapping_add(1);
                if *stamp == 0 {
                    c.fill(0);
                    *stamp = 1;
                }
                let stamp = u32::from(*stamp) << 24;
                let end = base + block;
                for (list, &weight) in rest.iter_mut().zip(weights) {
                    let mut counted = 0;
                    for &slot in list.iter() {
                        if slot as usize >= end {
                            break;
                        }
                        counted += 1;
                        let e = &mut c[slot as usize - base];
                        let before = if *e & 0xff00_0000 == stamp { *e } else { stamp };
                        let shared = (before >> 16 & 0xff) + 1;
                        if shared <= 0xff {
                            let weight = (before & 0xffff).saturating_add(weight).min(0xffff);
                            *e = stamp | shared << 16 | weight;
                            if shared == floor {
                                held.push(slot);
                            }
                        }
                    }
                    *list = &list[counted..];
                }
                out.extend(held.drain(..).map(|slot| {
                    let e = c[slot as usize - base];
                    Tally {
                        slot,
                        shared: e >> 16 & 0xff,
                        weight: e & 0xffff,
                    }
                }));
            }
            out
        })
    }

    /// The `n` paragraphs with the smallest Hamming distance to `fingerprint`, nearest first, ties by slot;
    /// paragraphs of document `exclude` are left out.
    pub fn nearest(
        &self,
        fingerprint: u64,
        max_hamming: u32,
        n: usize,
        exclude: Option<i64>,
    ) -> Vec<(Slot, u32)> {
        let mut out: Vec<(Slot, u32)> = self
            .simhash
            .iter()
            .enumerate()
            .filter_map(|(slot, &f)| {
                let h = hamming(f, fingerprint);
                (h <= max_hamming && exclude != Some(self.document_ids[slot]))
                    .then_some((slot as Slot, h))
            })
            .collect();
        out.sort_unstable_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
        out.truncate(n);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn flat(lists: &[&[u32]]) -> FlatPrints {
        let mut f = FlatPrints::default();
        for (i, keys) in lists.iter().enumerate() {
            f.push(100 + i as i64, 1, i as u64, keys);
        }
        f
    }

    #[test]
    fn the_most_shared_are_the_first_of_the_whole_order_ties_by_slot() {
        // 300 paragraphs sharing 1-6 of 6 keys in a scrambled pattern: every `n` gives the first `n` of
        // the whole list sorted (most shared first, ties by slot), however the selection went.
        let keys: Vec<u32> = (1..=6).collect();
        let lists: Vec<Vec<u32>> = (0..300u32)
            .map(|i| keys[..(i * 7 % 6 + 1) as usize].to_vec())
            .collect();
        let index = Index::from_flat(flat(&lists.iter().map(Vec::as_slice).collect::<Vec<_>>()));
        let mut all: Vec<(Slot, u32)> = (0..300u32).map(|i| (i, i * 7 % 6 + 1)).collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for n in [0, 1, 2, 8, 49, 50, 51, 299, 300, 400] {
            let want: Vec<(Slot, u32)> = all.iter().copied().take(n).collect();
            assert_eq!(index.shortlist(&keys, 1, n, None), want, "n = {n}");
        }
        // Those under `min_shared` are not candidates at all.
        assert!(index
            .shortlist(&keys, 6, 400, None)
            .iter()
            .all(|c| c.1 == 6));
        assert_eq!(index.shortlist(&keys, 6, 400, None).len(), 50);
    }

    #[test]
    fn postings_find_every_paragraph_holding_a_key() {
        // Keys spread over the whole u32 range and sharing buckets.
        let a: &[u32] = &[1, 7, 0x8000_0000, u32::MAX];
        let b: &[u32] = &[7, 8, 0x8000_0001, u32::MAX];
        let c: &[u32] = &[2, 0x8000_0000];
        let index = Index::from_flat(flat(&[a, b, c]));
        assert_eq!(index.postings(7), &[0, 1]);
        assert_eq!(index.postings(u32::MAX), &[0, 1]);
        assert_eq!(index.postings(0x8000_0000), &[0, 2]);
        assert_eq!(index.postings(3), &[] as &[Slot]);
        assert_eq!(
            index.shortlist(&[7, u32::MAX, 0x8000_0000], 1, 10, None),
            vec![(0, 3), (1, 2), (2, 1)]
        );
        assert_eq!(
            index.shortlist(&[7, u32::MAX], 2, 10, None),
            vec![(0, 2), (1, 2)]
        );
        assert_eq!(index.paragraph_id(2), 102);
        assert_eq!(index.memory().keys, 10);
    }

    #[test]
    fn the_rare_shortlist_counts_the_rarest_keys_and_skips_common_ones() {
        // 300 paragraphs: key 1 is in every one (too common: more than 100), keys 10..20 in paragraph
        // 0, keys 10..15 also in paragraph 1, key 10 also in paragraph 2.
        let mut lists: Vec<Vec<u32>> = vec![vec![1]; 300];
        lists[0].extend(10..20);
        lists[1].extend(10..15);
        lists[2].push(10);
        let refs: Vec<&[u32]> = lists.iter().map(Vec::as_slice).collect();
        let index = Index::from_flat(flat(&refs));
        // Each key a term of its own, all specific.
        let keys: Vec<u32> = [1].into_iter().chain(10..20).collect();
        let generality = vec![1; keys.len()];
        let ends: Vec<u32> = (1..=keys.len() as u32).collect();
        let query = |min_shared| ConceptQuery {
            keys: &keys,
            generality: &generality,
            ends: &ends,
            min_shared,
            budget_grows: true,
        };
        assert_eq!(
            index.shortlist_rare(&query(2), 32, 10, None),
            vec![(0, 10), (1, 5)]
        );
        assert_eq!(index.shortlist_rare(&query(1), 32, 10, None).len(), 3);
        // Lookups are the cheapest first (here the rarest): the five keys only paragraph 0 holds.
        assert_eq!(index.shortlist_rare(&query(1), 5, 10, None), vec![(0, 5)]);
        // Every paragraph is in document 1.
        assert!(index.shortlist_rare(&query(1), 32, 10, Some(1)).is_empty());
    }

    /// An index of `size` paragraphs, paragraph `i` holding `keys(i)`.
    fn index_of(size: usize, keys: impl Fn(usize) -> Vec<u32>) -> Index {
        let lists: Vec<Vec<u32>> = (0..size).map(keys).collect();
        Index::from_flat(flat(&lists.iter().map(Vec::as_slice).collect::<Vec<_>>()))
    }

    /// A cross-language question of `keys` (at most 8), each a term of its own of generality 1.
    fn one_key_terms(keys: &[u32], min_shared: u32, budget_grows: bool) -> ConceptQuery<'_> {
        const ONES: [u32; 8] = [1; 8];
        const ENDS: [u32; 8] = [1, 2, 3, 4, 5, 6, 7, 8];
        ConceptQuery {
            keys,
            generality: &ONES[..keys.len()],
            ends: &ENDS[..keys.len()],
            min_shared,
            budget_grows,
        }
    }

    #[test]
    fn the_rare_shortlist_gives_the_ties_of_the_last_candidate_too_in_a_library_of_any_size() {
        // Paragraphs 0..5 hold keys 10..13 (three shared), paragraphs 5..200 keys 10..12 (two), the
        // rest key 1 only (at least 5,000 paragraphs, so that 200 holders stay under the 5 % limit);
        // the question asks for 2 candidates sharing at least 2.
        let build = |size: usize| {
            index_of(size, |i| match i {
                0..5 => vec![10, 11, 12],
                5..200 => vec![10, 11],
                _ => vec![1],
            })
        };
        let query = one_key_terms(&[10, 11, 12], 2, true);
        let five: Vec<(Slot, u32)> = (0..5).map(|i| (i, 3)).collect();
        for size in [5_000, TIES_FROM] {
            let index = build(size);
            // All 5 sharing as many as the second, not the first 2 by slot.
            assert_eq!(index.shortlist_rare(&query, 32, 2, None), five, "{size}");
            assert_eq!(index.shortlist_rare(&query, 32, 5, None), five, "{size}");
            // Asked for 6 (the 6th shares two): the ties of the 6th up to 6 × TIES_WIDENING in all.
            let want = 6 * TIES_WIDENING;
            assert!(want < 200);
            assert_eq!(
                index.shortlist_rare(&query, 32, 6, None).len(),
                want,
                "{size}"
            );
            // Asked for none, none.
            assert!(index.shortlist_rare(&query, 32, 0, None).is_empty());
        }
    }

    #[test]
    fn with_ties_keeps_the_first_n_and_those_tied_with_the_nth() {
        let ranked = vec![('a', 5), ('b', 4), ('c', 4), ('d', 4), ('e', 3)];
        let kept = |n: usize| {
            let mut v = ranked.clone();
            with_ties(&mut v, n, |c| c.1);
            v.iter().map(|c| c.0).collect::<String>()
        };
        assert_eq!(kept(1), "a");
        assert_eq!(kept(2), "abcd");
        assert_eq!(kept(4), "abcd");
        assert_eq!(kept(5), "abcde");
        assert_eq!(kept(9), "abcde");
        // n = 0 keeps what it is given (the shortlist asks for none and gets none).
        assert_eq!(kept(0), "abcde");
    }

    #[test]
    fn in_a_large_library_ties_of_shared_keys_go_to_the_rarer_keys() {
        // Paragraphs 0..300 hold the common key 10 and key 11; paragraphs 300..310 the rare key 12
        // and key 11; the rest key 1. Each of the 310 shares two of the question's keys.
        let build = |size: usize| {
            index_of(size, |i| match i {
                0..300 => vec![10, 11],
                300..310 => vec![11, 12],
                _ => vec![1],
            })
        };
        let query = one_key_terms(&[10, 11, 12], 2, true);
        // Small: ties by slot. Large: the ten holding the rare key first, whatever their slots.
        let first = |index: &Index| -> Vec<Slot> {
            index
                .shortlist_rare(&query, 32, 2, None)
                .iter()
                .map(|c| c.0)
                .take(2)
                .collect()
        };
        assert_eq!(first(&build(10_000)), vec![0, 1]);
        assert_eq!(first(&build(TIES_FROM)), vec![300, 301]);
        // The information of a key held by a tenth of the paragraphs, by all, by none.
        let large = build(TIES_FROM);
        assert_eq!(large.information(TIES_FROM / 10), 37);
        assert_eq!(large.information(TIES_FROM), 1);
        assert_eq!(large.information(0), large.information(1));
    }

    #[test]
    fn the_rare_budget_grows_with_the_library_past_the_fixed_one() {
        let sized = |paragraphs: usize| index_of(paragraphs, |_| vec![1]);
        assert_eq!(sized(1_000).rare_budget(), RARE_POSTINGS_BUDGET);
        assert_eq!(sized(1_310_720).rare_budget(), RARE_POSTINGS_BUDGET);
        assert_eq!(sized(2_000_000).rare_budget(), 100_000);
        // In a library of 1,400,000 (budget 70,000), two keys of 34,000 holders each, 17,000 of
        // them holding both: a paragraph's question reads both within its budget; a sentence's,
        // within 65,536, reads one and probes the first of its holders, which hold only that one.
        let large = index_of(1_400_000, |i| match i {
            0..17_000 => vec![10],
            17_000..34_000 => vec![10, 11],
            34_000..51_000 => vec![11],
            _ => vec![1],
        });
        let question = |budget_grows| one_key_terms(&[10, 11], 2, budget_grows);
        let found = large.shortlist_rare(&question(true), 32, 2, None);
        assert_eq!(found.first(), Some(&(17_000, 2)));
        assert!(large
            .shortlist_rare(&question(false), 32, 2, None)
            .is_empty());
    }

    #[test]
    fn a_budget_that_reads_more_postings_probes_more_of_the_paragraphs_it_counts() {
        // A library of 3,000,000 paragraphs: a budget of 150,000 postings, 2,343 probed. Keys 10 and
        // 11 (60,000 holders each) are read within it, key 12 (100,000) is not. 2,300 paragraphs
        // before the source hold 10 and 11, as it does; only the source holds 12 too. Probing 2,048
        // would stop before it, and the first of those ties would be the answer.
        let index = index_of(3_000_000, |i| match i {
            0..2_300 => vec![10, 11],
            2_300 => vec![10, 11, 12],
            2_301..60_000 => vec![10],
            60_000..117_699 => vec![11],
            117_699..217_698 => vec![12],
            _ => vec![1],
        });
        assert_eq!(index.rare_budget(), 150_000);
        let question = one_key_terms(&[10, 11, 12], 2, true);
        let found = index.shortlist_rare(&question, 32, 1, None);
        assert_eq!(found.first(), Some(&(2_300, 3)));
    }

    #[test]
    fn counting_block_by_block_gives_every_paragraphs_count_across_the_blocks() {
        // 150,000 paragraphs, three blocks of counters; keys held every 3rd, 5th and 7th paragraph,
        // and one held on both sides of each block's edge.
        let edges = [0, 65_535, 65_536, 65_537, 131_071, 131_072, 149_999];
        let index = index_of(150_000, |i| {
            let mut keys = vec![1];
            keys.extend(
                [(3, 10), (5, 11), (7, 12)]
                    .iter()
                    .filter(|(m, _)| i % m == 0)
                    .map(|k| k.1),
            );
            if edges.contains(&i) {
                keys.push(13);
            }
            keys
        });
        let lists: Vec<&[Slot]> = [10, 11, 12, 13]
            .iter()
            .map(|&k| index.postings(k))
            .collect();
        let weights = [1, 2, 4, 8];
        for floor in [1, 2, 3] {
            let mut counted: Vec<(Slot, u32, u32)> = index
                .count(&lists, &weights, floor)
                .into_iter()
                .map(|t| (t.slot, t.shared, t.weight))
                .collect();
            counted.sort_unstable();
            // Counted one paragraph at a time.
            let expected: Vec<(Slot, u32, u32)> = (0..150_000)
                .filter_map(|slot| {
                    let holding: Vec<usize> = (0..4)
                        .filter(|&l| lists[l].binary_search(&slot).is_ok())
                        .collect();
                    let weight = holding.iter().map(|&l| weights[l]).sum();
                    (holding.len() as u32 >= floor).then_some((slot, holding.len() as u32, weight))
                })
                .collect();
            assert_eq!(counted, expected, "floor {floor}");
        }
        // Only paragraph 0 holds all four.
        let all: Vec<Slot> = index
            .count(&lists, &weights, 4)
            .iter()
            .map(|t| t.slot)
            .collect();
        assert_eq!(all, vec![0]);
    }

    #[test]
    fn the_galloping_search_finds_where_a_slot_belongs() {
        let slots: Vec<Slot> = (0..1_000).map(|i| i * 3 + 1).collect();
        for slot in 0..3_010 {
            assert_eq!(
                gallop(&slots, slot),
                slots.partition_point(|&s| s < slot),
                "slot {slot}"
            );
        }
        assert_eq!(gallop(&[], 5), 0);
        assert_eq!(gallop(&[5], 5), 0);
        assert_eq!(gallop(&[5], 6), 1);
    }

    #[test]
    fn the_rare_counters_start_clean_when_their_stamp_comes_round() {
        // Paragraphs 0..100 hold keys 10..16, paragraphs 100..200 keys 20..26. A paragraph's counter
        // keeps the stamp of the last pass that counted it: a pass on keys 10..16, then a few hundred
        // on keys 20..26 (which never touch paragraphs 0..100, and bring the stamp round once), then
        // keys 10..16 again must count from nothing.
        let lists: Vec<Vec<u32>> = (0..300u32)
            .map(|i| match i {
                0..100 => (10..16).collect(),
                100..200 => (20..26).collect(),
                _ => vec![i + 1_000],
            })
            .collect();
        let refs: Vec<&[u32]> = lists.iter().map(Vec::as_slice).collect();
        let index = Index::from_flat(flat(&refs));
        let (x, y): (Vec<u32>, Vec<u32>) = ((10..16).collect(), (20..26).collect());
        let generality = vec![1; 6];
        let ends: Vec<u32> = (1..=6).collect();
        let query = |keys| ConceptQuery {
            keys,
            generality: &generality,
            ends: &ends,
            min_shared: 2,
            budget_grows: true,
        };
        // Every paragraph of a group ties with the first (all are given, up to 16 per one asked for).
        let first = index.shortlist_rare(&query(&x), 32, 10, None);
        assert_eq!(first, (0..100).map(|s| (s, 6)).collect::<Vec<_>>());
        for gap in 250..=260 {
            for _ in 0..gap {
                assert_eq!(
                    index.shortlist_rare(&query(&y), 32, 1, None),
                    (100..116).map(|s| (s, 6)).collect::<Vec<_>>()
                );
            }
            assert_eq!(
                index.shortlist_rare(&query(&x), 32, 10, None),
                first,
                "gap {gap}"
            );
        }
    }

    #[test]
    fn keys_are_counted_by_range_of_the_key_space() {
        let index = Index::from_flat(flat(&[
            &[1, 0x8000_0001, 0xC000_0005],
            &[2, 0xC000_0006, 0xFFFF_FFFF],
        ]));
        assert_eq!(index.keys_in_range(0, 0x7FFF_FFFF), 2);
        assert_eq!(index.keys_in_range(0x8000_0000, 0xBFFF_FFFF), 1);
        assert_eq!(index.keys_in_range(0xC000_0000, 0xFFFF_FFFF), 3);
        assert_eq!(Index::default().keys_in_range(0, u32::MAX), 0);
    }

    #[test]
    fn large_index_matches_a_hash_map() {
        // Pseudo-random keys (xorshift), enough for many buckets.
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        let lists: Vec<Vec<u32>> = (0..500)
            .map(|_| (0..40).map(|_| next() % 5_000).collect())
            .collect();
        let refs: Vec<&[u32]> = lists.iter().map(Vec::as_slice).collect();
        let index = Index::from_flat(flat(&refs));
        let mut expect: HashMap<u32, Vec<Slot>> = HashMap::new();
        for (slot, keys) in lists.iter().enumerate() {
            for &k in keys {
                expect.entry(k).or_default().push(slot as Slot);
            }
        }
        for (k, slots) in expect {
            assert_eq!(index.postings(k), slots.as_slice(), "key {k}");
        }
    }
}
