//! The library in an SQLite file ([`Library`]): the default, one file on the user's machine. Its schema and
//! migrations are in `schema`; PRAGMAs are set on open.

mod checkpoint;
pub mod schema;

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};

use crate::error::{Error, Result};
use crate::fingerprint::{shingles, Fingerprinter, FINGERPRINT_VERSION};
use crate::library::{
    common_paragraph_documents, now, AddOutcome, DocumentInfo, DocumentMeta, FlatPrints,
    Generation, NewDocument, RefingerprintProgress, Role, SourceParagraph, Sources, Store, Totals,
};

/// File name of the library inside the data directory.
pub const DEFAULT_FILE_NAME: &str = "library.sqlite";

/// The default library location: `<platform data dir>/tongwen/library.sqlite` (on Linux
/// `~/.local/share/tongwen/library.sqlite`).
pub fn default_path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("tongwen").join(DEFAULT_FILE_NAME))
}

/// Settings of every connection, reading or writing: wait up to [`BUSY_TIMEOUT_SECS`] for a writer, read
/// through a memory map of up to 4 GiB of the file and a 64 MiB page cache (no system call per row
/// fetched). None of them writes to the file.
fn connection_settings(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(std::time::Duration::from_secs(BUSY_TIMEOUT_SECS))?;
    conn.execute_batch("PRAGMA mmap_size = 4294967296; PRAGMA cache_size = -65536;")
}

/// An open SQLite library.
#[derive(Debug)]
pub struct Library {
    /// Checkpoints the log while batches are added (see `checkpoint`), started by the first batch;
    /// declared first, so that it stops before the writer's connection closes.
    checkpointer: Option<checkpoint::Checkpointer>,
    /// Whether the first batch has decided on a checkpointer (once: a library in memory, one whose
    /// automatic checkpoint is off or one the thread cannot open is not asked again at every batch).
    checkpoint_decided: bool,
    conn: Connection,
    path: PathBuf,
    /// A read transaction is held open (see [`Store::hold_snapshot`]).
    snapshot: std::cell::Cell<bool>,
}

impl Drop for Library {
    fn drop(&mut self) {
        // The commit hook holds the checkpointer's channel: removed first, so that the checkpointer
        // (dropped next) sees its channel close and stops.
        if self.checkpointer.is_some() {
            checkpoint::Checkpointer::unhook(&mut self.conn);
        }
    }
}

impl Library {
    /// Open the library at `path` for changing it, creating it if needed and migrating its schema.
    /// Stale fingerprints are left for [`Store::refingerprint_stale`].
    pub fn open(path: &Path) -> Result<Library> {
        valid_path(path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        let conn = Connection::open(path).map_err(|e| db(path, e))?;
        // Before anything is written (WAL mode is a write): another program's database is left alone,
        // and a damaged library is not written to, so the damage does not spread.
        connection_settings(&conn).map_err(|e| db(path, e))?;
        if schema::identify(&conn).map_err(|e| db(path, e))? == schema::Identity::Foreign {
            return Err(Error::NotALibrary {
                path: path.to_path_buf(),
            });
        }
        let small = std::fs::metadata(path).is_ok_and(|m| m.len() <= QUICK_CHECK_MAX_BYTES);
        if small {
            quick_check(&conn, path)?;
        }
        let mut lib = Library {
            conn,
            path: path.to_path_buf(),
            snapshot: Default::default(),
            checkpointer: None,
            checkpoint_decided: false,
        };
        lib.init()?;
        Ok(lib)
    }

    /// Open an existing library for reading: read-only, no migration, no tokenizer. A library that does
    /// not exist is [`Error::NoLibrary`]; one with an older schema is [`Error::NeedsUpgrade`] (opening
    /// it for changing migrates it).
    pub fn open_read(path: &Path) -> Result<Library> {
        valid_path(path)?;
        if !path.is_file() {
            return Err(Error::NoLibrary {
                path: path.to_path_buf(),
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = match Connection::open_with_flags(path, flags).and_then(|c| {
            connection_settings(&c)?;
            schema::identify(&c)?;
            Ok(c)
        }) {
            Ok(conn) => conn,
            // A library in a folder this user cannot write: SQLite cannot make the shared-memory file
            // WAL readers use. Nobody who could change it is reading through this process, so it is
            // opened as an immutable file (no locks, no shared memory).
            Err(e) if is_read_only(&e) => {
                // An immutable file is read without its write-ahead log: when the log holds changes,
                // reading the main file alone would show less than the library holds.
                let wal = sidecar(path, "-wal");
                if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
                    return Err(Error::WalUnreadable {
                        path: path.to_path_buf(),
                        wal,
                    });
                }
                let uri = format!("file:{}?immutable=1", uri_path(path));
                Connection::open_with_flags(uri, flags)
                    .and_then(|c| connection_settings(&c).map(|()| c))
                    .map_err(|e| db(path, e))?
            }
            Err(e) => return Err(db(path, e)),
        };
        let found = schema::version(&conn).map_err(|e| db(path, e))?;
        if found > schema::SCHEMA_VERSION {
            return Err(Error::SchemaTooNew {
                path: path.to_path_buf(),
                found,
                supported: schema::SCHEMA_VERSION,
            });
        }
        let path_buf = path.to_path_buf();
        match schema::identify(&conn).map_err(|e| db(path, e))? {
            schema::Identity::Tongwen => {}
            schema::Identity::Empty => return Err(Error::NoLibrary { path: path_buf }),
            schema::Identity::Foreign => return Err(Error::NotALibrary { path: path_buf }),
        }
        if found < schema::SCHEMA_VERSION {
            return Err(Error::NeedsUpgrade {
                path: path.to_path_buf(),
                stale: 0,
            });
        }
        Ok(Library {
            conn,
            path: path.to_path_buf(),
            snapshot: Default::default(),
            checkpointer: None,
            checkpoint_decided: false,
        })
    }

    /// An in-memory library (tests, benchmarks).
    pub fn in_memory() -> Result<Library> {
        let path = PathBuf::from(":memory:");
        let conn = Connection::open_in_memory()
            .and_then(|c| connection_settings(&c).map(|()| c))
            .map_err(|e| db(&path, e))?;
        let mut lib = Library {
            conn,
            path,
            snapshot: Default::default(),
            checkpointer: None,
            checkpoint_decided: false,
        };
        lib.init()?;
        Ok(lib)
    }

    /// Before the first batch of documents: the log is checkpointed on a thread of its own from now on
    /// (`checkpoint`), when SQLite would have checkpointed it on the writer's, until the library is
    /// dropped (when no thread can be started, or the hook cannot be set, the writer checkpoints as
    /// before). Meanwhile another connection has the library open (nothing that needs it alone, such as
    /// changing its journal mode, runs on a library that adds batches).
    fn checkpoint_behind(&mut self) {
        if std::mem::replace(&mut self.checkpoint_decided, true) {
            return;
        }
        // A library in memory has no log.
        if !matches!(self.conn.path(), Some(p) if !p.is_empty()) {
            return;
        }
        // The automatic checkpoint's threshold (SQLite's default 1,000 pages), which the hook replaces;
        // none when it is off.
        let pages: i32 = self
            .conn
            .query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0))
            .unwrap_or(0);
        if pages <= 0 {
            return;
        }
        if let Some(c) = checkpoint::Checkpointer::start(&self.path) {
            if c.hook(&mut self.conn, pages).is_ok() {
                self.checkpointer = Some(c);
            }
        }
    }

    /// Pragmas (after [`connection_settings`]): WAL with `synchronous = NORMAL` (a commit is durable once
    /// checkpointed, and never torn). A new library gets 16 KiB pages: a batch of
    /// paragraphs goes to the WAL in a quarter of the frames and write calls of 4 KiB pages (writing the
    /// 2,992 Chinese eval-dev paragraphs took 7.0 ms instead of 8.1). An existing library keeps its size.
    fn init(&mut self) -> Result<()> {
        let path = self.path.clone();
        self.conn
            .execute_batch("PRAGMA page_size = 16384;")
            .map_err(|e| db(&path, e))?;
        // Changing the journal mode of a new file needs it alone; SQLite does not wait for that, so
        // another process creating the library at the same moment is waited for here.
        with_busy_retry(|| {
            self.conn.execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
            )
        })
        .map_err(|e| db(&path, e))?;
        // The schema is read and created under the write lock (BEGIN IMMEDIATE, waiting up to the busy
        // timeout for it): of several processes creating a library at once, the first creates it and
        // the others find it made. A file without tables (whatever its user_version) is created whole,
        // application id and every table, in this one transaction: it never holds half a library.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| db(&path, e))?;
        let found = match schema::identify(&tx).map_err(|e| db(&path, e))? {
            schema::Identity::Foreign => return Err(Error::NotALibrary { path }),
            schema::Identity::Empty => 0,
            schema::Identity::Tongwen => schema::version(&tx).map_err(|e| db(&path, e))?,
        };
        if found > schema::SCHEMA_VERSION {
            return Err(Error::SchemaTooNew {
                path,
                found,
                supported: schema::SCHEMA_VERSION,
            });
        }
        let id: i32 = tx
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .map_err(|e| db(&path, e))?;
        if id != schema::APPLICATION_ID {
            tx.pragma_update(None, "application_id", schema::APPLICATION_ID)
                .map_err(|e| db(&path, e))?;
        }
        schema::migrate_from(&tx, found).map_err(|e| db(&path, e))?;
        tx.commit().map_err(|e| db(&path, e))
    }

    /// A read transaction of its own, unless a snapshot is held (then reads are already in one).
    fn read_transaction(&self) -> Result<Option<rusqlite::Transaction<'_>>> {
        if self.snapshot.get() {
            return Ok(None);
        }
        self.conn
            .unchecked_transaction()
            .map(Some)
            .map_err(|e| db(&self.path, e))
    }

    /// Where the library lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of paragraphs whose fingerprints were made by another version of the definition. Two range
    /// counts on the `algo` index, so a library with none costs two index seeks, not a scan.
    fn count_stale(&self) -> Result<u64> {
        self.conn
            .query_row(
                "SELECT (SELECT COUNT(*) FROM paragraphs WHERE algo < ?1)
                      + (SELECT COUNT(*) FROM paragraphs WHERE algo > ?1)",
                [FINGERPRINT_VERSION],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n as u64)
            .map_err(|e| db(&self.path, e))
    }

    /// Recompute the fingerprints of stale paragraphs, in one transaction. Paragraphs are read in id
    /// order in chunks and each chunk is fingerprinted on all threads (rayon), so memory stays bounded
    /// by a chunk whatever the library's size. Progress is reported and `cancel` is checked after each
    /// chunk; a cancelled run rolls back and leaves the library as it was.
    fn refingerprint_in_chunks(
        &mut self,
        fingerprinter: &Fingerprinter,
        chunk: i64,
        progress: &mut dyn FnMut(RefingerprintProgress),
        cancel: &AtomicBool,
    ) -> Result<u64> {
        let total = self.count_stale()?;
        if total == 0 {
            return Ok(0);
        }
        let path = self.path.clone();
        let tx = self.conn.transaction().map_err(|e| db(&path, e))?;
        bump_generation(&tx).map_err(|e| db(&path, e))?;
        let mut done = 0u64;
        {
            let mut select = tx
                .prepare(
                    "SELECT id, text FROM paragraphs
                     WHERE id > ?1 AND (algo < ?2 OR algo > ?2) ORDER BY id LIMIT ?3",
                )
                .map_err(|e| db(&path, e))?;
            let mut update = tx
                .prepare(
                    "UPDATE paragraphs SET simhash = ?2, shingles = ?3, algo = ?4 WHERE id = ?1",
                )
                .map_err(|e| db(&path, e))?;
            let mut after = i64::MIN;
            loop {
                let stale: Vec<(i64, String)> = select
                    .query_map(params![after, FINGERPRINT_VERSION, chunk], |r| {
                        Ok((r.get(0)?, r.get(1)?))
                    })
                    .and_then(|rows| rows.collect())
                    .map_err(|e| db(&path, e))?;
                let Some(&(last, _)) = stale.last() else {
                    break;
                };
                let prints: Vec<_> = stale
                    .par_iter()
                    .map(|(_, text)| fingerprinter.paragraph(text))
                    .collect();
                for ((id, _), print) in stale.iter().zip(&prints) {
                    update
                        .execute(params![
                            id,
                            print.simhash as i64,
                            shingles::encode(&print.index_keys()),
                            FINGERPRINT_VERSION
                        ])
                        .map_err(|e| db(&path, e))?;
                }
                done += stale.len() as u64;
                after = last;
                progress(RefingerprintProgress { done, total });
                if cancel.load(Ordering::Relaxed) {
                    return Err(Error::Cancelled);
                }
            }
        }
        tx.commit().map_err(|e| db(&path, e))?;
        Ok(done)
    }

    /// Add one document in one transaction. Content already present is reported, not added again.
    pub fn add(&mut self, doc: &NewDocument) -> Result<AddOutcome> {
        let mut outcomes = self.add_batch(&[doc])?;
        outcomes
            .pop()
            .ok_or(Error::Internal("a one-document batch gave no outcome"))
    }

    fn for_each_print_in(&self, conn: &Connection, mut f: impl FnMut(RawPrint<'_>)) -> Result<()> {
        let mut stmt = conn
            .prepare("SELECT id, document_id, simhash, shingles FROM paragraphs ORDER BY id")
            .map_err(|e| db(&self.path, e))?;
        let mut rows = stmt.query([]).map_err(|e| db(&self.path, e))?;
        while let Some(r) = rows.next().map_err(|e| db(&self.path, e))? {
            let raw = (|| {
                Ok::<_, rusqlite::Error>(RawPrint {
                    paragraph_id: r.get(0)?,
                    document_id: r.get(1)?,
                    simhash: r.get::<_, i64>(2)? as u64,
                    shingles: r.get_ref(3)?.as_blob()?,
                })
            })()
            .map_err(|e| db(&self.path, e))?;
            f(raw);
        }
        Ok(())
    }
}

impl Sources for Library {
    /// Many library paragraphs with their documents' titles and paths, keyed by paragraph id (unknown ids
    /// are left out). Read in id order, so neighbouring rows share B-tree pages, with each document's
    /// title and path read once.
    fn source_paragraphs(&self, ids: &[i64]) -> Result<HashMap<i64, SourceParagraph>> {
        let mut sorted = ids.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        // One read transaction: in WAL mode every statement outside one takes and drops the read lock.
        let tx = self.read_transaction()?;
        let conn = tx.as_deref().unwrap_or(&self.conn);
        let mut paragraph = conn
            .prepare_cached("SELECT document_id, idx, text, simhash FROM paragraphs WHERE id = ?1")
            .map_err(|e| db(&self.path, e))?;
        // Documents holding the same text (found through the simhash index: equal texts have equal
        // fingerprints).
        let mut copies = conn
            .prepare_cached(
                "SELECT COUNT(DISTINCT document_id) FROM paragraphs WHERE simhash = ?1 AND text = ?2",
            )
            .map_err(|e| db(&self.path, e))?;
        let library_documents = conn
            .query_row("SELECT COUNT(*) FROM documents", [], |r| r.get::<_, i64>(0))
            .map_err(|e| db(&self.path, e))?
            .max(0) as u64;
        let common_at = common_paragraph_documents(library_documents);
        let mut document = conn
            .prepare_cached("SELECT title, path, role, author FROM documents WHERE id = ?1")
            .map_err(|e| db(&self.path, e))?;
        let mut documents: HashMap<i64, (String, String, Role, Option<String>)> = HashMap::new();
        let mut out = HashMap::with_capacity(sorted.len());
        for id in sorted {
            let row = paragraph
                .query_row([id], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, i64>(3)?,
                    ))
                })
                .optional()
                .map_err(|e| db(&self.path, e))?;
            let Some((document_id, idx, text, simhash)) = row else {
                continue;
            };
            let common = library_documents >= common_at
                && copies
                    .query_row(rusqlite::params![simhash, text], |r| r.get::<_, i64>(0))
                    .map_err(|e| db(&self.path, e))?
                    .max(0) as u64
                    >= common_at;
            let (title, path, role, author) = match documents.entry(document_id) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(v) => {
                    let doc = document
                        .query_row([document_id], |r| {
                            let role: String = r.get(2)?;
                            Ok((
                                r.get(0)?,
                                r.get(1)?,
                                Role::from_name(&role).unwrap_or_default(),
                                r.get(3)?,
                            ))
                        })
                        .optional()
                        .map_err(|e| db(&self.path, e))?;
                    let Some(doc) = doc else { continue };
                    v.insert(doc)
                }
            };
            out.insert(
                id,
                SourceParagraph {
                    paragraph_id: id,
                    document_id,
                    document_title: title.clone(),
                    document_path: path.clone(),
                    document_role: *role,
                    document_author: author.clone(),
                    index: idx as u32,
                    text,
                    common,
                },
            );
        }
        drop((paragraph, document, copies));
        if let Some(tx) = tx {
            tx.commit().map_err(|e| db(&self.path, e))?;
        }
        Ok(out)
    }
}

impl Store for Library {
    fn location(&self) -> String {
        self.path.display().to_string()
    }

    fn stale_paragraphs(&self) -> Result<u64> {
        self.count_stale()
    }

    fn paragraph_ids_of(&self, documents: &[i64]) -> Result<Vec<i64>> {
        let tx = self.read_transaction()?;
        let conn = tx.as_deref().unwrap_or(&self.conn);
        let mut stmt = conn
            .prepare_cached("SELECT id FROM paragraphs WHERE document_id = ?1 ORDER BY idx")
            .map_err(|e| db(&self.path, e))?;
        let mut ids = Vec::new();
        for &d in documents {
            let rows = stmt
                .query_map([d], |r| r.get::<_, i64>(0))
                .and_then(|rows| rows.collect::<rusqlite::Result<Vec<i64>>>())
                .map_err(|e| db(&self.path, e))?;
            ids.extend(rows);
        }
        drop(stmt);
        if let Some(tx) = tx {
            tx.commit().map_err(|e| db(&self.path, e))?;
        }
        Ok(ids)
    }

    fn refingerprint_stale(
        &mut self,
        fingerprinter: &Fingerprinter,
        progress: &mut dyn FnMut(RefingerprintProgress),
        cancel: &AtomicBool,
    ) -> Result<u64> {
        self.refingerprint_in_chunks(fingerprinter, 4096, progress, cancel)
    }

    /// Add documents in one transaction (all or none), in order; an outcome per document. Content
    /// already present (in the library or earlier in the batch) is reported, not added again.
    fn add_batch(&mut self, docs: &[&NewDocument]) -> Result<Vec<AddOutcome>> {
        let path = self.path.clone();
        // An ingest's batches (a single document, as `add` writes it, is not one).
        if docs.len() > 1 {
            self.checkpoint_behind();
        }
        // IMMEDIATE: the write lock is taken (waiting for another writer, up to the busy timeout) before
        // the first read. A deferred transaction that reads, then writes after another process
        // committed, fails at once with "database is locked" (its snapshot is stale), timeout or not.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| db(&path, e))?;
        let mut outcomes = Vec::with_capacity(docs.len());
        for doc in docs {
            outcomes.push(add_in(&tx, doc).map_err(|e| db(&path, e))?);
        }
        if outcomes.iter().any(|o| matches!(o, AddOutcome::Added(_))) {
            bump_generation(&tx).map_err(|e| db(&path, e))?;
        }
        tx.commit().map_err(|e| db(&path, e))?;
        Ok(outcomes)
    }

    /// All documents, oldest first.
    fn list(&self) -> Result<Vec<DocumentInfo>> {
        let mut stmt = self
            .conn
            .prepare(&format!("SELECT {DOC_COLUMNS} FROM documents ORDER BY id"))
            .map_err(|e| db(&self.path, e))?;
        let rows = stmt.query_map([], doc_row).map_err(|e| db(&self.path, e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| db(&self.path, e))
    }

    fn set_meta(&mut self, id: i64, meta: &DocumentMeta) -> Result<DocumentInfo> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| db(&path, e))?;
        let current = document_by_id(&tx, id)
            .map_err(|e| db(&path, e))?
            .ok_or(Error::NoSuchDocument(id))?;
        tx.execute(
            "UPDATE documents SET title = ?2, role = ?3, author = ?4, year = ?5 WHERE id = ?1",
            params![
                id,
                meta.title.as_deref().unwrap_or(&current.title),
                meta.role.as_str(),
                meta.author,
                meta.year
            ],
        )
        .map_err(|e| db(&path, e))?;
        set_tags(&tx, id, &meta.tags).map_err(|e| db(&path, e))?;
        // A role decides how a check counts the text, so checks must see the change.
        bump_generation(&tx).map_err(|e| db(&path, e))?;
        let updated = document_by_id(&tx, id)
            .map_err(|e| db(&path, e))?
            .ok_or(Error::NoSuchDocument(id))?;
        tx.commit().map_err(|e| db(&path, e))?;
        Ok(updated)
    }

    /// Remove documents (and their paragraphs) in one transaction. If any id is unknown nothing is
    /// removed.
    fn remove(&mut self, ids: &[i64]) -> Result<Vec<DocumentInfo>> {
        let path = self.path.clone();
        // IMMEDIATE, as in `add_batch`.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| db(&path, e))?;
        let mut removed = Vec::with_capacity(ids.len());
        for &id in ids {
            let info = document_by_id(&tx, id)
                .map_err(|e| db(&path, e))?
                .ok_or(Error::NoSuchDocument(id))?;
            tx.execute("DELETE FROM documents WHERE id = ?1", [id])
                .map_err(|e| db(&path, e))?;
            removed.push(info);
        }
        bump_generation(&tx).map_err(|e| db(&path, e))?;
        tx.commit().map_err(|e| db(&path, e))?;
        Ok(removed)
    }

    fn totals(&self) -> Result<Totals> {
        self.conn
            .query_row(
                "SELECT COUNT(*), COALESCE(SUM(paragraphs), 0), COALESCE(SUM(chars), 0) FROM documents",
                [],
                |r| {
                    Ok(Totals {
                        documents: r.get::<_, i64>(0)? as u64,
                        paragraphs: r.get::<_, i64>(1)? as u64,
                        chars: r.get::<_, i64>(2)? as u64,
                    })
                },
            )
            .map_err(|e| db(&self.path, e))
    }

    /// The library's identity and change stamp.
    fn hold_snapshot(&self) -> Result<()> {
        if !self.snapshot.get() {
            // The transaction's snapshot is taken at its first read, here.
            self.conn
                .execute_batch("BEGIN DEFERRED; SELECT value FROM meta LIMIT 1;")
                .map_err(|e| db(&self.path, e))?;
            self.snapshot.set(true);
        }
        Ok(())
    }

    fn generation(&self) -> Result<Generation> {
        read_generation(&self.conn).map_err(|e| db(&self.path, e))
    }

    /// Where the saved index of this library lives (`<library file>.index`); `None` in memory.
    fn index_path(&self) -> Option<PathBuf> {
        if self.path == Path::new(":memory:") {
            return None;
        }
        let mut name = self.path.clone().into_os_string();
        name.push(".index");
        Some(PathBuf::from(name))
    }

    /// Every paragraph's fingerprints in flat arrays, with the generation they belong to (read in one
    /// transaction, so the two agree).
    fn load_flat_prints(&self) -> Result<(Generation, FlatPrints)> {
        let tx = self.read_transaction()?;
        let conn = tx.as_deref().unwrap_or(&self.conn);
        let generation = read_generation(conn).map_err(|e| db(&self.path, e))?;
        let mut flat = FlatPrints::default();
        let mut keys = Vec::new();
        self.for_each_print_in(conn, |p| {
            keys.clear();
            keys.extend(shingles::decode(p.shingles));
            flat.push(p.paragraph_id, p.document_id, p.simhash, &keys);
        })?;
        if let Some(tx) = tx {
            tx.commit().map_err(|e| db(&self.path, e))?;
        }
        Ok((generation, flat))
    }
}

const DOC_COLUMNS: &str =
    "id, title, path, format, content_hash, bytes, paragraphs, chars, added_at, role, author, year, \
     (SELECT group_concat(tag, char(31)) FROM document_tags t WHERE t.document_id = documents.id)";

fn add_in(tx: &Connection, doc: &NewDocument) -> rusqlite::Result<AddOutcome> {
    if let Some(existing) = find_by_hash(tx, &doc.content_hash)? {
        return Ok(AddOutcome::AlreadyPresent(existing));
    }
    let chars: u64 = doc.paragraphs.iter().map(|p| p.chars).sum();
    tx.prepare_cached(
        "INSERT INTO documents (title, path, format, content_hash, bytes, paragraphs, chars, added_at,
                                role, author, year)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        doc.meta.title.as_deref().unwrap_or(&doc.title),
        doc.path,
        doc.format.as_str(),
        doc.content_hash,
        doc.bytes as i64,
        doc.paragraphs.len() as i64,
        chars as i64,
        now(),
        doc.meta.role.as_str(),
        doc.meta.author,
        doc.meta.year,
    ])?;
    let id = tx.last_insert_rowid();
    // A new document has no tags yet: those of a removed document with its id went with it (the
    // foreign key cascades).
    if !doc.meta.tags.is_empty() {
        set_tags(tx, id, &doc.meta.tags)?;
    }
    let mut insert = tx.prepare_cached(
        "INSERT INTO paragraphs (document_id, idx, kind, text, chars, simhash, shingles, algo, level)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    for (idx, p) in doc.paragraphs.iter().enumerate() {
        insert.execute(params![
            id,
            idx as i64,
            p.kind.as_str(),
            p.text,
            p.chars as i64,
            p.simhash as i64,
            shingles::encode(&p.shingles),
            FINGERPRINT_VERSION,
            p.level
        ])?;
    }
    document_by_id(tx, id)?
        .map(AddOutcome::Added)
        .ok_or(rusqlite::Error::QueryReturnedNoRows)
}

/// A stored print borrowed from its row.
struct RawPrint<'r> {
    paragraph_id: i64,
    document_id: i64,
    simhash: u64,
    shingles: &'r [u8],
}

fn read_generation(conn: &Connection) -> rusqlite::Result<Generation> {
    let get = |key: &str| {
        conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| {
            r.get::<_, i64>(0)
        })
    };
    Ok(Generation {
        library_id: get("library_id")?,
        generation: get("generation")?,
    })
}

/// Record a change of the library's contents (inside the change's transaction): a new random stamp.
fn bump_generation(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE meta SET value = random() WHERE key = 'generation'",
        [],
    )
    .map(|_| ())
}

fn doc_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<DocumentInfo> {
    Ok(DocumentInfo {
        id: r.get(0)?,
        title: r.get(1)?,
        path: r.get(2)?,
        format: r.get(3)?,
        content_hash: r.get(4)?,
        bytes: r.get::<_, i64>(5)? as u64,
        paragraphs: r.get::<_, i64>(6)? as u64,
        chars: r.get::<_, i64>(7)? as u64,
        added_at: r.get(8)?,
        role: Role::from_name(&r.get::<_, String>(9)?).unwrap_or_default(),
        author: r.get(10)?,
        year: r.get(11)?,
        tags: {
            let joined: Option<String> = r.get(12)?;
            let mut tags: Vec<String> = joined
                .map(|j| j.split('\u{1f}').map(str::to_string).collect())
                .unwrap_or_default();
            tags.sort();
            tags
        },
    })
}

/// Replace a document's tags (blank ones dropped, duplicates once).
fn set_tags(tx: &Connection, id: i64, tags: &[String]) -> rusqlite::Result<()> {
    tx.prepare_cached("DELETE FROM document_tags WHERE document_id = ?1")?
        .execute([id])?;
    let mut insert = tx
        .prepare_cached("INSERT OR IGNORE INTO document_tags (document_id, tag) VALUES (?1, ?2)")?;
    for tag in tags.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
        insert.execute(params![id, tag])?;
    }
    Ok(())
}

// Both lookups run once per document added, so their statements are cached rather than parsed each time.
fn document_by_id(conn: &Connection, id: i64) -> rusqlite::Result<Option<DocumentInfo>> {
    conn.prepare_cached(&format!(
        "SELECT {DOC_COLUMNS} FROM documents WHERE id = ?1"
    ))?
    .query_row([id], doc_row)
    .optional()
}

fn find_by_hash(conn: &Connection, hash: &str) -> rusqlite::Result<Option<DocumentInfo>> {
    conn.prepare_cached(&format!(
        "SELECT {DOC_COLUMNS} FROM documents WHERE content_hash = ?1"
    ))?
    .query_row([hash], doc_row)
    .optional()
}

/// A database error of the library at `path`; SQLite's "corrupt" and "not a database" say the file is
/// damaged.
fn db(path: &Path, source: rusqlite::Error) -> Error {
    use rusqlite::ErrorCode::{DatabaseCorrupt, NotADatabase};
    match source.sqlite_error_code() {
        Some(DatabaseCorrupt | NotADatabase) => Error::Damaged {
            path: path.to_path_buf(),
            detail: source.to_string(),
        },
        _ => Error::Database {
            path: path.to_path_buf(),
            source,
        },
    }
}

/// How long a writer waits for another writer (another `library add`, the app) before giving up.
const BUSY_TIMEOUT_SECS: u64 = 30;

/// Libraries up to this size get SQLite's `quick_check` (structure, not content) before each change; on
/// the eval-dev library it costs a few milliseconds.
const QUICK_CHECK_MAX_BYTES: u64 = 256 * 1024 * 1024;

fn quick_check(conn: &Connection, path: &Path) -> Result<()> {
    let verdict: String = conn
        .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
        .map_err(|e| db(path, e))?;
    if verdict == "ok" {
        Ok(())
    } else {
        Err(Error::Damaged {
            path: path.to_path_buf(),
            detail: verdict,
        })
    }
}

/// Whether opening for reading failed only because the folder or the file cannot be written.
fn is_read_only(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::CannotOpen)
    )
}

/// A library is a file: an empty path or a folder is refused before SQLite is asked (which would open
/// a temporary database for an empty name).
fn valid_path(path: &Path) -> Result<()> {
    let reason = if path.as_os_str().is_empty() {
        "the library's file name is empty: give a file such as library.sqlite".to_string()
    } else if path.is_dir() {
        format!(
            "{} is a folder: a library is a file, such as {}",
            path.display(),
            path.join(DEFAULT_FILE_NAME).display()
        )
    } else {
        return Ok(());
    };
    Err(Error::InvalidSetting {
        name: "library",
        reason,
    })
}

/// A file SQLite keeps beside the library: `suffix` is `-wal`, `-shm` or `-journal`.
pub fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Run `f` again while SQLite answers "busy" without waiting (as it does for a change of journal
/// mode), for up to [`BUSY_TIMEOUT_SECS`].
fn with_busy_retry<T>(mut f: impl FnMut() -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    let start = std::time::Instant::now();
    loop {
        match f() {
            Err(e)
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && start.elapsed().as_secs() < BUSY_TIMEOUT_SECS =>
            {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

/// `path` for a SQLite `file:` URI: `%`, `?` and `#` escaped.
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for c in path.to_string_lossy().chars() {
        match c {
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3f"),
            '#' => out.push_str("%23"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
