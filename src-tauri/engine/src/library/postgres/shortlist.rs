//! The server side of the shortlist: a check's keys looked up in the server's key index, shared keys
//! counted by the in-memory index's rules, candidates' fingerprints fetched.

use postgres::Client;
use rayon::prelude::*;

use super::{as_stored, split, PgLibrary};
use crate::error::Result;
use crate::library::shortlist::{
    rare_limit, reading_order, with_ties, Candidate, ConceptQuery, KeyQuery, Shortlist,
    Shortlisted, TIES_WIDENING,
};

/// Postings of a submission's keys, as the server's key index holds them: each key's paragraphs in id
/// order, at most `limit + 1` of them (enough to tell a key held by more than `limit` paragraphs).
pub(super) type Postings = rustc_hash::FxHashMap<u32, Vec<i64>>;

/// The shortlist's queries to the server: the postings of the submission's distinct keys (one
/// statement: every key looked up in the key index, [`split`] over two connections), then the
/// shortlisted paragraphs' documents and fingerprints (one statement). The counting between them is
/// the in-memory index's, on these postings only, so both backends shortlist alike
/// (`check::Index::shortlist`, `shortlist_rare`).
pub(super) fn postings(
    c: &mut Client,
    helper: Option<&mut Client>,
    keys: &[i32],
    limit: i64,
) -> std::result::Result<Postings, postgres::Error> {
    let parts = split(c, helper, keys, |c, keys| {
        c.query(
            "SELECT k.key, ARRAY(SELECT p.paragraph_id FROM paragraph_keys p WHERE p.key = k.key
                                 ORDER BY p.paragraph_id LIMIT $2::bigint + 1)
             FROM unnest($1::integer[]) AS k(key)",
            &[&keys, &limit],
        )
    })?;
    Ok(parts
        .iter()
        .flatten()
        .map(|r| (r.get::<_, i32>(0) as u32, r.get::<_, Vec<i64>>(1)))
        .filter(|(_, ids)| !ids.is_empty())
        .collect())
}

/// The queries' keys, each once, as the server stores them.
pub(super) fn distinct_keys<'a>(queries: impl Iterator<Item = &'a [u32]>) -> Vec<i32> {
    let mut keys: Vec<i32> = queries
        .flat_map(|keys| keys.iter().map(|&k| as_stored(k)))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// How many paragraphs hold each of the queries' distinct concept keys, counting at most `limit + 1`
/// (keys no paragraph holds are left out): the sums of the keys' counters in `concept_counts`, one
/// index lookup per key and slot, however many paragraphs hold the key.
pub(super) fn concept_counts(
    c: &mut Client,
    helper: Option<&mut Client>,
    keys: &[i32],
    limit: i64,
) -> std::result::Result<rustc_hash::FxHashMap<u32, i64>, postgres::Error> {
    let parts = split(c, helper, keys, |c, keys| {
        c.query(
            "SELECT key, sum(paragraphs)::bigint FROM concept_counts WHERE key = ANY($1)
             GROUP BY key",
            &[&keys],
        )
    })?;
    Ok(parts
        .iter()
        .flatten()
        .map(|r| (r.get::<_, i32>(0) as u32, r.get::<_, i64>(1).min(limit + 1)))
        .filter(|&(_, n)| n > 0)
        .collect())
}

/// Documents and SimHashes of paragraphs, by id.
pub(super) fn paragraph_prints(
    c: &mut Client,
    helper: Option<&mut Client>,
    ids: &[i64],
) -> std::result::Result<rustc_hash::FxHashMap<i64, (i64, u64)>, postgres::Error> {
    let parts = split(c, helper, ids, |c, ids| {
        c.query(
            "SELECT id, document_id, simhash FROM paragraphs WHERE id = ANY($1)",
            &[&ids],
        )
    })?;
    Ok(parts
        .iter()
        .flatten()
        .map(|r| (r.get(0), (r.get(1), r.get::<_, i64>(2) as u64)))
        .collect())
}

/// For each query's shared-key counts: those with at least its `min_shared` and not in document
/// `exclude`, most first, ties by paragraph id, at most `n`; as candidates (`Index::most_shared`).
/// With `ties`, those tied in shared keys with the `n`th too, at most `n` × [`TIES_WIDENING`] in
/// all (`library::shortlist::with_ties`, as the in-memory index's cross-language shortlist).
pub(super) fn most_shared(
    c: &mut Client,
    helper: Option<&mut Client>,
    counted: Vec<(Vec<(i64, u32)>, u32)>,
    n: usize,
    ties: bool,
    exclude: Option<i64>,
) -> std::result::Result<Vec<Shortlisted>, postgres::Error> {
    let wanted = if ties { n * TIES_WIDENING } else { n };
    let rank = |list: &mut Vec<(i64, u32)>| {
        list.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)))
    };
    let mut lists: Vec<Vec<(i64, u32)>> = counted
        .into_iter()
        .map(|(list, min_shared)| {
            let mut list: Vec<(i64, u32)> =
                list.into_iter().filter(|&(_, s)| s >= min_shared).collect();
            rank(&mut list);
            if exclude.is_none() {
                list.truncate(wanted);
            }
            list
        })
        .collect();
    let mut ids: Vec<i64> = lists.iter().flatten().map(|&(id, _)| id).collect();
    ids.sort_unstable();
    ids.dedup();
    let prints = paragraph_prints(c, helper, &ids)?;
    Ok(lists
        .iter_mut()
        .map(|list| {
            let mut out: Shortlisted = list
                .iter()
                .filter_map(|&(id, shared)| {
                    let &(document_id, simhash) = prints.get(&id)?;
                    (exclude != Some(document_id)).then_some((
                        Candidate {
                            paragraph_id: id,
                            document_id,
                            simhash,
                        },
                        shared,
                    ))
                })
                .take(wanted)
                .collect();
            if ties {
                with_ties(&mut out, n, |c| c.1);
            }
            out
        })
        .collect())
}

/// Paragraphs in the library (kept in `meta`, so no table is counted).
pub(super) fn paragraph_count(c: &mut Client) -> std::result::Result<i64, postgres::Error> {
    Ok(c.query_one("SELECT paragraphs FROM meta", &[])?.get(0))
}

impl Shortlist for PgLibrary {
    fn shortlist_each(
        &self,
        queries: &[KeyQuery<'_>],
        n: usize,
        exclude: Option<i64>,
    ) -> Result<Vec<Shortlisted>> {
        self.read_split(|c, mut helper| {
            // A key in more than 1% of the paragraphs (at least 1,000) says nothing of a source.
            let limit = (paragraph_count(c)? / 100).max(1_000);
            let keys = distinct_keys(queries.iter().map(|q| q.keys));
            let postings = postings(c, helper.as_deref_mut(), &keys, limit)?;
            let counted = queries
                .par_iter()
                .map(|q| {
                    let mut counts: rustc_hash::FxHashMap<i64, u32> = Default::default();
                    for key in q.keys {
                        match postings.get(key) {
                            Some(ids) if ids.len() as i64 <= limit => {
                                for &id in ids {
                                    *counts.entry(id).or_default() += 1;
                                }
                            }
                            _ => {}
                        }
                    }
                    (counts.into_iter().collect(), q.min_shared)
                })
                .collect();
            most_shared(c, helper, counted, n, false, exclude)
        })
    }

    fn shortlist_rare_each(
        &self,
        queries: &[ConceptQuery<'_>],
        lookups: usize,
        n: usize,
        exclude: Option<i64>,
    ) -> Result<Vec<Shortlisted>> {
        let budget = crate::library::shortlist::RARE_POSTINGS_BUDGET;
        self.read_split(|c, mut helper| {
            // A concept in more than 5% of the paragraphs (at least 100) is skipped, as in the
            // in-memory index (`library::shortlist::rare_limit`); one held by more than the budget is
            // never read either (it would pass the budget alone). Unlike the in-memory index,
            // paragraphs are counted over the keys read only (no second step that looks the best of
            // them up in the other keys' postings), ties go by paragraph id (those tied with the last
            // asked for given too, as there), and the budget does not grow with the library.
            let paragraphs = usize::try_from(paragraph_count(c)?).unwrap_or(0);
            let limit = rare_limit(paragraphs).min(budget + 1) as i64;
            // Each paragraph reads only its first keys, so the keys' counters are read first and the
            // postings fetched only of the keys some paragraph reads.
            let keys = distinct_keys(queries.iter().map(|q| q.keys));
            let held = concept_counts(c, helper.as_deref_mut(), &keys, limit)?;
            let chosen: Vec<Vec<u32>> = queries
                .iter()
                .map(|q| {
                    let holders = |k| held.get(&k).map_or(0, |&n| n as usize);
                    let keys = reading_order(q, holders, limit as usize, lookups);
                    let mut read = 0;
                    let within = keys
                        .iter()
                        .take_while(|&&(_, n)| {
                            read += n;
                            read <= budget
                        })
                        .count();
                    if within < q.min_shared as usize {
                        return Vec::new();
                    }
                    keys[..within].iter().map(|&(k, _)| k).collect()
                })
                .collect();
            let wanted = distinct_keys(chosen.iter().map(Vec::as_slice));
            let postings = postings(c, helper.as_deref_mut(), &wanted, limit)?;
            let counted = queries
                .par_iter()
                .zip(&chosen)
                .map(|(q, keys)| {
                    let mut all: Vec<i64> = keys
                        .iter()
                        .filter_map(|k| postings.get(k))
                        .flat_map(|l| l.iter().copied())
                        .collect();
                    all.sort_unstable();
                    let counts = all
                        .chunk_by(|a, b| a == b)
                        .map(|run| (run[0], run.len() as u32))
                        .collect();
                    (counts, q.min_shared)
                })
                .collect();
            most_shared(c, helper, counted, n, true, exclude)
        })
    }

    fn holds_keys_in_range(&self, lo: u32, hi: u32) -> Result<bool> {
        // Stored as signed: a range that crosses 2^31 is two ranges.
        let ranges: Vec<(i32, i32)> = if (lo as i32) <= (hi as i32) {
            vec![(lo as i32, hi as i32)]
        } else {
            vec![(lo as i32, i32::MAX), (i32::MIN, hi as i32)]
        };
        self.read(|c| {
            for (a, b) in ranges {
                let found: bool = c
                    .query_one(
                        "SELECT EXISTS (SELECT 1 FROM paragraph_keys WHERE key BETWEEN $1 AND $2)",
                        &[&a, &b],
                    )?
                    .get(0);
                if found {
                    return Ok(true);
                }
            }
            Ok(false)
        })
    }
}
