//! The PostgreSQL library as a [`Store`] and [`Sources`]: listing, adding (COPY of paragraphs and
//! keys, one transaction per batch), removing, editing and re-fingerprinting.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::Type;
use postgres::{GenericClient, Row};
use rayon::prelude::*;

use super::{as_stored, split, PgLibrary, WriteError};
use crate::error::{Error, Result};
use crate::fingerprint::{shingles, Fingerprinter, FINGERPRINT_VERSION};
use crate::library::shortlist::Shortlist;
use crate::library::{
    common_paragraph_documents, AddOutcome, DocumentInfo, DocumentMeta, FlatPrints, Generation,
    NewDocument, RefingerprintProgress, Role, SourceParagraph, Sources, Store, Totals,
};

pub(super) const DOC_COLUMNS: &str =
    "id, title, path, format, content_hash, bytes, paragraphs, chars, added_at, \
     role, author, year, \
     ARRAY(SELECT tag FROM document_tags t WHERE t.document_id = documents.id ORDER BY tag)";

pub(super) fn doc_row(r: &Row) -> DocumentInfo {
    DocumentInfo {
        id: r.get(0),
        title: r.get(1),
        path: r.get(2),
        format: r.get(3),
        content_hash: r.get(4),
        bytes: r.get::<_, i64>(5) as u64,
        paragraphs: r.get::<_, i64>(6) as u64,
        chars: r.get::<_, i64>(7) as u64,
        added_at: r.get(8),
        role: Role::from_name(r.get(9)).unwrap_or_default(),
        author: r.get(10),
        year: r.get(11),
        tags: r.get(12),
    }
}

pub(super) fn document_by_id(
    c: &mut impl GenericClient,
    id: i64,
) -> std::result::Result<Option<DocumentInfo>, postgres::Error> {
    Ok(c.query_opt(
        &format!("SELECT {DOC_COLUMNS} FROM documents WHERE id = $1"),
        &[&id],
    )?
    .map(|r| doc_row(&r)))
}

pub(super) fn set_tags(
    c: &mut impl GenericClient,
    id: i64,
    tags: &[String],
) -> std::result::Result<(), postgres::Error> {
    c.execute("DELETE FROM document_tags WHERE document_id = $1", &[&id])?;
    let tags: Vec<&str> = tags
        .iter()
        .map(|t| t.trim())
        .filter(|t| !t.is_empty())
        .collect();
    c.execute(
        "INSERT INTO document_tags (document_id, tag) SELECT $1, unnest($2::text[])
         ON CONFLICT DO NOTHING",
        &[&id, &tags],
    )?;
    Ok(())
}

/// A new random change stamp, with the counts moved by `documents` and `paragraphs`.
pub(super) fn bump(
    c: &mut impl GenericClient,
    documents: i64,
    paragraphs: i64,
) -> std::result::Result<(), postgres::Error> {
    c.execute(
        "UPDATE meta SET generation = (random() * 9.2e18)::bigint,
                         documents = documents + $1, paragraphs = paragraphs + $2",
        &[&documents, &paragraphs],
    )
    .map(|_| ())
}

/// Write the keys of paragraphs (`(paragraph id, keys)`) into `paragraph_keys` with COPY.
pub(super) fn copy_keys(
    tx: &mut postgres::Transaction<'_>,
    rows: impl Iterator<Item = (i64, Vec<u32>)>,
) -> std::result::Result<(), postgres::Error> {
    // In key order: each insert lands next to the previous one in the key index, not at a random
    // page of it.
    let mut pairs: Vec<(i32, i64)> = rows
        .flat_map(|(id, keys)| keys.into_iter().map(move |k| (as_stored(k), id)))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let sink = tx.copy_in("COPY paragraph_keys (key, paragraph_id) FROM STDIN BINARY")?;
    let mut writer = BinaryCopyInWriter::new(sink, &[Type::INT4, Type::INT8]);
    for (key, id) in &pairs {
        writer.write(&[key, id])?;
    }
    writer.finish()?;
    Ok(())
}

/// Add the keys of paragraphs (`(paragraph id, keys)`) to `paragraph_keys`, leaving those already there.
pub(super) fn insert_keys(
    tx: &mut postgres::Transaction<'_>,
    rows: &[(i64, Vec<u32>)],
) -> std::result::Result<(), postgres::Error> {
    for_key_pairs(
        tx,
        "INSERT INTO paragraph_keys (key, paragraph_id)
         SELECT * FROM unnest($1::integer[], $2::bigint[]) ON CONFLICT DO NOTHING",
        rows.iter()
            .flat_map(|(id, keys)| keys.iter().map(move |&k| (k, *id))),
    )
}

/// Remove the keys of paragraphs (`(paragraph id, stored keys)`) from `paragraph_keys`.
pub(super) fn delete_keys(
    tx: &mut postgres::Transaction<'_>,
    rows: &[(i64, Vec<u8>)],
) -> std::result::Result<(), postgres::Error> {
    for_key_pairs(
        tx,
        "DELETE FROM paragraph_keys WHERE (key, paragraph_id) IN
             (SELECT * FROM unnest($1::integer[], $2::bigint[]))",
        rows.iter()
            .flat_map(|(id, blob)| shingles::decode(blob).map(move |k| (k, *id))),
    )
}

/// Run `sql` (taking the keys as `$1` and the paragraph ids as `$2`) on `(key, paragraph id)` pairs,
/// 100,000 at a time.
pub(super) fn for_key_pairs(
    tx: &mut postgres::Transaction<'_>,
    sql: &str,
    pairs: impl Iterator<Item = (u32, i64)>,
) -> std::result::Result<(), postgres::Error> {
    let (keys, ids): (Vec<i32>, Vec<i64>) = pairs.map(|(k, id)| (as_stored(k), id)).unzip();
    for (k, i) in keys.chunks(100_000).zip(ids.chunks(100_000)) {
        tx.execute(sql, &[&k, &i])?;
    }
    Ok(())
}

impl Sources for PgLibrary {
    fn source_paragraphs(&self, ids: &[i64]) -> Result<HashMap<i64, SourceParagraph>> {
        let mut sorted = ids.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.is_empty() {
            return Ok(HashMap::new());
        }
        let parts = self.read_split(|c, helper| {
            let documents: i64 = c.query_one("SELECT documents FROM meta", &[])?.get(0);
            let common_at = common_paragraph_documents(documents.max(0) as u64) as i64;
            let counted = documents >= common_at;
            split(c, helper, &sorted, |c, ids| {
                c.query(
                    "SELECT p.id, p.document_id, p.idx, p.text, d.title, d.path, d.role, d.author,
                            CASE WHEN $2 THEN (SELECT count(DISTINCT q.document_id) FROM paragraphs q
                                               WHERE q.simhash = p.simhash AND q.text = p.text) >= $3
                                 ELSE false END
                     FROM paragraphs p JOIN documents d ON d.id = p.document_id
                     WHERE p.id = ANY($1)",
                    &[&ids, &counted, &common_at],
                )
            })
        })?;
        Ok(parts
            .iter()
            .flatten()
            .map(|r| {
                let id: i64 = r.get(0);
                let role: &str = r.get(6);
                (
                    id,
                    SourceParagraph {
                        paragraph_id: id,
                        document_id: r.get(1),
                        index: r.get::<_, i32>(2) as u32,
                        text: r.get(3),
                        document_title: r.get(4),
                        document_path: r.get(5),
                        document_role: Role::from_name(role).unwrap_or_default(),
                        document_author: r.get(7),
                        common: r.get(8),
                    },
                )
            })
            .collect())
    }
}

impl Store for PgLibrary {
    fn location(&self) -> String {
        self.location.clone()
    }

    fn list(&self) -> Result<Vec<DocumentInfo>> {
        let rows = self.read(|c| {
            c.query(
                &format!("SELECT {DOC_COLUMNS} FROM documents ORDER BY id"),
                &[],
            )
        })?;
        Ok(rows.iter().map(doc_row).collect())
    }

    fn totals(&self) -> Result<Totals> {
        let row = self.read(|c| {
            c.query_one(
                "SELECT count(*), COALESCE(sum(paragraphs), 0)::bigint, COALESCE(sum(chars), 0)::bigint
                 FROM documents",
                &[],
            )
        })?;
        Ok(Totals {
            documents: row.get::<_, i64>(0) as u64,
            paragraphs: row.get::<_, i64>(1) as u64,
            chars: row.get::<_, i64>(2) as u64,
        })
    }

    fn generation(&self) -> Result<Generation> {
        let row = self.read(|c| c.query_one("SELECT library_id, generation FROM meta", &[]))?;
        Ok(Generation {
            library_id: row.get(0),
            generation: row.get(1),
        })
    }

    fn hold_snapshot(&self) -> Result<()> {
        if !self.snapshot.load(Ordering::Relaxed) {
            // The snapshot is taken at the transaction's first statement, here.
            self.client()?
                .batch_execute(
                    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT generation FROM meta;",
                )
                .map_err(|e| self.err(e))?;
            self.snapshot.store(true, Ordering::Relaxed);
        }
        Ok(())
    }

    fn load_flat_prints(&self) -> Result<(Generation, FlatPrints)> {
        let (generation, rows) = self.read(|c| {
            let g = c.query_one("SELECT library_id, generation FROM meta", &[])?;
            let rows = c.query(
                "SELECT id, document_id, simhash, shingles FROM paragraphs ORDER BY id",
                &[],
            )?;
            Ok((
                Generation {
                    library_id: g.get(0),
                    generation: g.get(1),
                },
                rows,
            ))
        })?;
        let mut flat = FlatPrints::default();
        let mut keys = Vec::new();
        for r in &rows {
            keys.clear();
            keys.extend(shingles::decode(r.get(3)));
            flat.push(r.get(0), r.get(1), r.get::<_, i64>(2) as u64, &keys);
        }
        Ok((generation, flat))
    }

    /// A server's library is never indexed on the desktop's disk.
    fn index_path(&self) -> Option<PathBuf> {
        None
    }

    fn stale_paragraphs(&self) -> Result<u64> {
        let version = FINGERPRINT_VERSION as i32;
        let row = self.read(|c| {
            c.query_one(
                "SELECT (SELECT count(*) FROM paragraphs WHERE algo < $1)
                      + (SELECT count(*) FROM paragraphs WHERE algo > $1)",
                &[&version],
            )
        })?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    fn paragraph_ids_of(&self, documents: &[i64]) -> Result<Vec<i64>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT p.id FROM unnest($1::bigint[]) WITH ORDINALITY AS d(id, n)
                 JOIN paragraphs p ON p.document_id = d.id ORDER BY d.n, p.idx",
                &[&documents],
            )
        })?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn server_shortlist(&self) -> Option<&dyn Shortlist> {
        Some(self)
    }

    fn add_batch(&mut self, docs: &[&NewDocument]) -> Result<Vec<AddOutcome>> {
        let version = FINGERPRINT_VERSION as i32;
        self.write(|tx| {
            let mut outcomes = Vec::with_capacity(docs.len());
            let mut added: Vec<(i64, &NewDocument)> = Vec::new();
            for doc in docs {
                let chars: u64 = doc.paragraphs.iter().map(|p| p.chars).sum();
                // Another desktop adding the same content at once: this waits for its commit, then
                // finds the document there.
                let inserted = tx.query_opt(
                    "INSERT INTO documents (title, path, format, content_hash, bytes, paragraphs, chars,
                                            added_at, role, author, year)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                     ON CONFLICT (content_hash) DO NOTHING RETURNING id",
                    &[
                        &doc.meta.title.as_deref().unwrap_or(&doc.title),
                        &doc.path,
                        &doc.format.as_str(),
                        &doc.content_hash,
                        &(doc.bytes as i64),
                        &(doc.paragraphs.len() as i64),
                        &(chars as i64),
                        &crate::library::now(),
                        &doc.meta.role.as_str(),
                        &doc.meta.author,
                        &doc.meta.year,
                    ],
                )?;
                match inserted {
                    Some(row) => {
                        let id: i64 = row.get(0);
                        set_tags(tx, id, &doc.meta.tags)?;
                        added.push((id, doc));
                        outcomes.push(None);
                    }
                    None => {
                        let existing = tx
                            .query_one(
                                &format!("SELECT {DOC_COLUMNS} FROM documents WHERE content_hash = $1"),
                                &[&doc.content_hash],
                            )
                            .map(|r| doc_row(&r))?;
                        outcomes.push(Some(AddOutcome::AlreadyPresent(existing)));
                    }
                }
            }
            let count: usize = added.iter().map(|(_, d)| d.paragraphs.len()).sum();
            if count > 0 {
                let mut ids: Vec<i64> = tx
                    .query(
                        "SELECT nextval('paragraphs_id_seq') FROM generate_series(1, $1::bigint)",
                        &[&(count as i64)],
                    )?
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                ids.sort_unstable();
                let sink = tx.copy_in(
                    "COPY paragraphs (id, document_id, idx, kind, level, text, chars, simhash, shingles, algo)
                     FROM STDIN BINARY",
                )?;
                let mut writer = BinaryCopyInWriter::new(
                    sink,
                    &[
                        Type::INT8,
                        Type::INT8,
                        Type::INT4,
                        Type::TEXT,
                        Type::INT2,
                        Type::TEXT,
                        Type::INT8,
                        Type::INT8,
                        Type::BYTEA,
                        Type::INT4,
                    ],
                );
                let mut next = ids.iter();
                let mut keyed: Vec<(i64, Vec<u32>)> = Vec::with_capacity(count);
                for (document_id, doc) in &added {
                    for (idx, p) in doc.paragraphs.iter().enumerate() {
                        let id = *next.next().ok_or(WriteError::Engine(Error::Internal(
                            "the server gave fewer paragraph ids than asked",
                        )))?;
                        writer.write(&[
                            &id,
                            document_id,
                            &(idx as i32),
                            &p.kind.as_str(),
                            &p.level.map(i16::from),
                            &p.text,
                            &(p.chars as i64),
                            &(p.simhash as i64),
                            &shingles::encode(&p.shingles),
                            &version,
                        ])?;
                        keyed.push((id, p.shingles.clone()));
                    }
                }
                writer.finish()?;
                copy_keys(tx, keyed.into_iter())?;
            }
            if !added.is_empty() {
                bump(tx, added.len() as i64, count as i64)?;
            }
            let mut fresh = added.iter();
            let mut out = Vec::with_capacity(outcomes.len());
            for o in outcomes {
                out.push(match o {
                    Some(o) => o,
                    None => {
                        let (id, _) = fresh.next().ok_or(WriteError::Engine(Error::Internal(
                            "an added document went missing",
                        )))?;
                        let info = document_by_id(tx, *id)?.ok_or(WriteError::Engine(
                            Error::Internal("an added document went missing"),
                        ))?;
                        AddOutcome::Added(info)
                    }
                });
            }
            Ok(out)
        })
    }

    fn remove(&mut self, ids: &[i64]) -> Result<Vec<DocumentInfo>> {
        self.write(|tx| {
            let mut removed = Vec::with_capacity(ids.len());
            let mut paragraphs = 0i64;
            for &id in ids {
                let info =
                    document_by_id(tx, id)?.ok_or(WriteError::Engine(Error::NoSuchDocument(id)))?;
                let keyed: Vec<(i64, Vec<u8>)> = tx
                    .query(
                        "SELECT id, shingles FROM paragraphs WHERE document_id = $1 FOR UPDATE",
                        &[&id],
                    )?
                    .iter()
                    .map(|r| (r.get(0), r.get(1)))
                    .collect();
                delete_keys(tx, &keyed)?;
                paragraphs += keyed.len() as i64;
                tx.execute("DELETE FROM documents WHERE id = $1", &[&id])?;
                removed.push(info);
            }
            bump(tx, -(removed.len() as i64), -paragraphs)?;
            Ok(removed)
        })
    }

    fn set_meta(&mut self, id: i64, meta: &DocumentMeta) -> Result<DocumentInfo> {
        self.write(|tx| {
            let current =
                document_by_id(tx, id)?.ok_or(WriteError::Engine(Error::NoSuchDocument(id)))?;
            tx.execute(
                "UPDATE documents SET title = $2, role = $3, author = $4, year = $5 WHERE id = $1",
                &[
                    &id,
                    &meta.title.as_deref().unwrap_or(&current.title),
                    &meta.role.as_str(),
                    &meta.author,
                    &meta.year,
                ],
            )?;
            set_tags(tx, id, &meta.tags)?;
            bump(tx, 0, 0)?;
            document_by_id(tx, id)?.ok_or(WriteError::Engine(Error::NoSuchDocument(id)))
        })
    }

    /// Stale paragraphs re-fingerprinted in chunks of 4,096, in one transaction; `cancel` rolls back.
    fn refingerprint_stale(
        &mut self,
        fingerprinter: &Fingerprinter,
        progress: &mut dyn FnMut(RefingerprintProgress),
        cancel: &AtomicBool,
    ) -> Result<u64> {
        let total = self.stale_paragraphs()?;
        if total == 0 {
            return Ok(0);
        }
        let version = FINGERPRINT_VERSION as i32;
        self.write(|tx| {
            let mut done = 0u64;
            let mut after = i64::MIN;
            loop {
                let stale: Vec<(i64, String, Vec<u8>)> = tx
                    .query(
                        "SELECT id, text, shingles FROM paragraphs
                         WHERE id > $1 AND (algo < $2 OR algo > $2) ORDER BY id LIMIT 4096",
                        &[&after, &version],
                    )?
                    .iter()
                    .map(|r| (r.get(0), r.get(1), r.get(2)))
                    .collect();
                let Some(&(last, _, _)) = stale.last().map(|(i, t, k)| (i, t, k)).as_ref() else {
                    break;
                };
                let old: Vec<(i64, Vec<u8>)> =
                    stale.iter().map(|(id, _, k)| (*id, k.clone())).collect();
                delete_keys(tx, &old)?;
                let prints: Vec<_> = stale
                    .par_iter()
                    .map(|(_, text, _)| fingerprinter.paragraph(text))
                    .collect();
                let mut keyed = Vec::with_capacity(stale.len());
                for ((id, _, _), print) in stale.iter().zip(&prints) {
                    let keys = print.index_keys();
                    tx.execute(
                        "UPDATE paragraphs SET simhash = $2, shingles = $3, algo = $4 WHERE id = $1",
                        &[id, &(print.simhash as i64), &shingles::encode(&keys), &version],
                    )?;
                    keyed.push((*id, keys));
                }
                insert_keys(tx, &keyed)?;
                done += stale.len() as u64;
                after = *last;
                progress(RefingerprintProgress { done, total });
                if cancel.load(Ordering::Relaxed) {
                    return Err(WriteError::Engine(Error::Cancelled));
                }
            }
            bump(tx, 0, 0)?;
            Ok(done)
        })
    }
}
