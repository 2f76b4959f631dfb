//! The library: documents and their paragraphs with stored fingerprints.
//!
//! [`Store`] is what the rest of the engine needs of a library, whatever holds it; [`Library`], an SQLite
//! file, is its implementation (a shared server can be another). All SQL of the engine lives in this
//! module. Every change (adding documents, removing documents, re-fingerprinting) is one transaction, so
//! an interrupted run never leaves a half-written document.
//!
//! Opening for reading ([`Library::open_read`]) never writes and needs no tokenizer; a library whose
//! fingerprints were made by another version says so ([`Store::stale_paragraphs`]) and is brought up to
//! date by an explicit step ([`Store::refingerprint_stale`]), never as a side effect of opening it.
//!
//! The write path prepares documents outside the database (`ingest`), the read path loads the compact
//! fingerprints once at open (`load_flat_prints`, or the saved index) and fetches texts only for reported matches.

pub mod postgres;
pub mod schema;
pub mod shortlist;

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use rayon::prelude::*;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::extract::{BlockKind, Format};
use crate::fingerprint::{shingles, Fingerprinter, FINGERPRINT_VERSION};

/// File name of the library inside the data directory.
pub const DEFAULT_FILE_NAME: &str = "library.sqlite";

/// The default library location: `<platform data dir>/tongwen/library.sqlite` (on Linux
/// `~/.local/share/tongwen/library.sqlite`).
pub fn default_path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("tongwen").join(DEFAULT_FILE_NAME))
}

/// Fingerprints of many paragraphs in flat arrays: paragraph `i` has `simhash[i]`, ids, and the keys
/// `keys[key_ends[i - 1]..key_ends[i]]`.
#[derive(Debug, Default, Clone)]
pub struct FlatPrints {
    pub simhash: Vec<u64>,
    pub paragraph_ids: Vec<i64>,
    pub document_ids: Vec<i64>,
    pub keys: Vec<u32>,
    pub key_ends: Vec<usize>,
}

impl FlatPrints {
    pub fn push(&mut self, paragraph_id: i64, document_id: i64, simhash: u64, keys: &[u32]) {
        self.simhash.push(simhash);
        self.paragraph_ids.push(paragraph_id);
        self.document_ids.push(document_id);
        self.keys.extend_from_slice(keys);
        self.key_ends.push(self.keys.len());
    }

    /// The keys of paragraph `i`.
    pub fn keys_of(&self, i: usize) -> &[u32] {
        let start = if i == 0 { 0 } else { self.key_ends[i - 1] };
        &self.keys[start..self.key_ends[i]]
    }
}

/// What a library document is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Checked against: text found in it is copying.
    #[default]
    Source,
    /// A template (the school's thesis template, an assignment's prompt): text found in it is never
    /// counted as copying.
    Template,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Source => "source",
            Role::Template => "template",
        }
    }

    pub fn from_name(name: &str) -> Option<Role> {
        match name {
            "source" => Some(Role::Source),
            "template" => Some(Role::Template),
            _ => None,
        }
    }
}

/// What a user says about a document when adding it (or later): all optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentMeta {
    pub role: Role,
    /// Instead of the file name.
    pub title: Option<String>,
    pub author: Option<String>,
    pub year: Option<i64>,
    pub tags: Vec<String>,
}

/// A document as listed in the library.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocumentInfo {
    pub id: i64,
    pub title: String,
    pub path: String,
    pub format: String,
    pub content_hash: String,
    pub bytes: u64,
    pub paragraphs: u64,
    pub chars: u64,
    /// Seconds since the Unix epoch.
    pub added_at: i64,
    pub role: Role,
    pub author: Option<String>,
    pub year: Option<i64>,
    /// Sorted.
    pub tags: Vec<String>,
}

/// A paragraph ready to be stored.
#[derive(Debug, Clone)]
pub struct NewParagraph {
    pub text: String,
    pub kind: BlockKind,
    /// A heading's level, when known.
    pub level: Option<u8>,
    pub chars: u64,
    pub simhash: u64,
    /// The keys the paragraph is indexed by: winnowed shingle keys and concept keys (top bit set), as
    /// [`crate::fingerprint::ParagraphPrint::index_keys`] gives them.
    pub shingles: Vec<u32>,
}

/// A document ready to be stored (built by `ingest::prepare`).
#[derive(Debug, Clone)]
pub struct NewDocument {
    pub title: String,
    pub path: String,
    pub format: Format,
    pub bytes: u64,
    /// xxh3-128 of the paragraph texts: the same content read from a .docx and a .pdf is one document.
    pub content_hash: String,
    pub paragraphs: Vec<NewParagraph>,
    /// Role, author, year, tags (and a title that replaces `title`).
    pub meta: DocumentMeta,
}

/// What adding a document did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum AddOutcome {
    Added(DocumentInfo),
    /// The same content is already in the library (perhaps under another name).
    AlreadyPresent(DocumentInfo),
}

/// Which contents a library holds: a random id given when the library was created and a random stamp
/// drawn anew by every change (random rather than counted, so that a change lost to a crash, or a library
/// restored from a backup, never reuses the stamp of other contents). A saved index is valid for exactly
/// one `Generation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Generation {
    pub library_id: i64,
    pub generation: i64,
}

/// A library paragraph with its document, as shown in reports.
#[derive(Debug, Clone, Serialize)]
pub struct SourceParagraph {
    pub paragraph_id: i64,
    pub document_id: i64,
    pub document_title: String,
    pub document_path: String,
    /// A template's text is never counted as copying.
    pub document_role: Role,
    /// The document's author, when given (a check `--author` reports the writer's own work apart).
    pub document_author: Option<String>,
    pub index: u32,
    pub text: String,
    /// The same text is a paragraph of many library documents (see [`common_paragraph_documents`]):
    /// boilerplate such as a licence line, reported as template text.
    pub common: bool,
}

impl SourceParagraph {
    /// Text found here is template text: the document is a template, or the paragraph is common.
    pub fn is_template(&self) -> bool {
        self.document_role == Role::Template || self.common
    }
}

/// The fewest library documents that must hold a paragraph's exact text for it to be common: 1 % of the
/// library's documents, and at least [`COMMON_MIN_DOCUMENTS`].
pub fn common_paragraph_documents(library_documents: u64) -> u64 {
    library_documents.div_ceil(100).max(COMMON_MIN_DOCUMENTS)
}

/// See [`common_paragraph_documents`].
pub const COMMON_MIN_DOCUMENTS: u64 = 5;

/// Totals of a library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Totals {
    pub documents: u64,
    pub paragraphs: u64,
    /// Non-white-space characters.
    pub chars: u64,
}

/// Progress of re-fingerprinting: paragraphs done of those that were stale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefingerprintProgress {
    pub done: u64,
    pub total: u64,
}

/// What the engine needs of a library, whatever holds it. The SQLite [`Library`] is the first
/// implementation; checking, adding and listing go through this trait only.
/// Where the checker reads the texts of the paragraphs it shortlisted: a library, or a class's
/// submissions held in memory (`class`).
pub trait Sources {
    /// Paragraphs with their documents' titles and paths, by paragraph id (unknown ids left out).
    fn source_paragraphs(&self, ids: &[i64]) -> Result<HashMap<i64, SourceParagraph>>;
}

pub trait Store: Sources + Send {
    /// Where the library lives, as shown to the user (a file path, or a server's address).
    fn location(&self) -> String;
    /// All documents, oldest first.
    fn list(&self) -> Result<Vec<DocumentInfo>>;
    fn totals(&self) -> Result<Totals>;
    /// The library's identity and change stamp.
    fn generation(&self) -> Result<Generation>;
    /// From now until this store is dropped, read one state of the library: changes committed by
    /// others meanwhile are not seen (a check that runs while documents are removed reports on the
    /// library as it was when it began, never half of each).
    fn hold_snapshot(&self) -> Result<()>;
    /// Every paragraph's fingerprints in flat arrays, with the generation they belong to.
    fn load_flat_prints(&self) -> Result<(Generation, FlatPrints)>;
    /// Where a saved checking index of this library may be kept, if anywhere.
    fn index_path(&self) -> Option<PathBuf>;
    /// Paragraphs whose stored fingerprints were made by another version of the definition.
    fn stale_paragraphs(&self) -> Result<u64>;
    /// Add documents in one transaction (all or none), in order; an outcome per document.
    fn add_batch(&mut self, docs: &[&NewDocument]) -> Result<Vec<AddOutcome>>;
    /// Remove documents in one transaction; if any id is unknown nothing is removed.
    fn remove(&mut self, ids: &[i64]) -> Result<Vec<DocumentInfo>>;
    /// Replace a document's role, author, year and tags, and its title when `meta.title` is given, in
    /// one transaction.
    fn set_meta(&mut self, id: i64, meta: &DocumentMeta) -> Result<DocumentInfo>;
    /// The ids of the paragraphs of these documents, each document's in order.
    fn paragraph_ids_of(&self, documents: &[i64]) -> Result<Vec<i64>>;
    /// The library's own shortlist, when it runs where the library is (a server): then a check sends
    /// keys there instead of loading every fingerprint.
    fn server_shortlist(&self) -> Option<&dyn shortlist::Shortlist> {
        None
    }
    /// Recompute stale fingerprints in one transaction, reporting progress; `cancel` rolls it back.
    fn refingerprint_stale(
        &mut self,
        fingerprinter: &Fingerprinter,
        progress: &mut dyn FnMut(RefingerprintProgress),
        cancel: &AtomicBool,
    ) -> Result<u64>;
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
    conn: Connection,
    path: PathBuf,
    /// A read transaction is held open (see [`Store::hold_snapshot`]).
    snapshot: std::cell::Cell<bool>,
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
        };
        lib.init()?;
        Ok(lib)
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
    set_tags(tx, id, &doc.meta.tags)?;
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

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
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
pub(crate) mod test_support {
    use super::*;

    /// A document of `texts`, fingerprinted, whose content hash follows its texts.
    pub fn doc(name: &str, texts: &[&str], f: &Fingerprinter) -> NewDocument {
        let paragraphs = texts
            .iter()
            .map(|t| {
                let p = f.paragraph(t);
                NewParagraph {
                    text: t.to_string(),
                    kind: BlockKind::Body,
                    level: None,
                    chars: crate::text::non_ws_chars(t) as u64,
                    simhash: p.simhash,
                    shingles: p.index_keys(),
                }
            })
            .collect();
        NewDocument {
            title: name.into(),
            path: format!("/docs/{name}.txt"),
            format: Format::Txt,
            bytes: 10,
            content_hash: format!("hash-of-{}", texts.join("|")),
            paragraphs,
            meta: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::doc;
    use super::*;

    fn count(lib: &Library, table: &str) -> i64 {
        lib.conn
            .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn a_reader_holding_a_snapshot_sees_one_state_while_documents_are_removed() {
        let f = Fingerprinter::new();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lib.sqlite");
        let mut writer = Library::open(&path).unwrap();
        for name in ["a", "b"] {
            writer
                .add(&doc(
                    name,
                    &[&format!("{name}：一段用来检查快照的文字，足够长。")],
                    &f,
                ))
                .unwrap();
        }
        let reader = Library::open_read(&path).unwrap();
        reader.hold_snapshot().unwrap();
        let (generation, flat) = reader.load_flat_prints().unwrap();
        let ids: Vec<i64> = flat.paragraph_ids.clone();
        assert_eq!(ids.len(), 2);
        let docs = writer.list().unwrap();
        writer.remove(&[docs[0].id]).unwrap();
        // The reader still sees both documents, under the same generation.
        assert_eq!(reader.generation().unwrap(), generation);
        assert_eq!(reader.source_paragraphs(&ids).unwrap().len(), 2);
        assert_eq!(reader.totals().unwrap().documents, 2);
        // A new reader sees the change.
        let fresh = Library::open_read(&path).unwrap();
        assert_eq!(fresh.totals().unwrap().documents, 1);
        assert_ne!(fresh.generation().unwrap(), generation);
    }

    #[test]
    fn another_programs_database_is_refused_and_left_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("customers.db");
        Connection::open(&path)
            .unwrap()
            .execute_batch(
                "PRAGMA user_version = 1; CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
                 INSERT INTO customers (name) VALUES ('王明');",
            )
            .unwrap();
        let before = std::fs::read(&path).unwrap();
        for err in [
            Library::open(&path).unwrap_err(),
            Library::open_read(&path).unwrap_err(),
        ] {
            assert!(matches!(err, Error::NotALibrary { .. }), "{err}");
            assert!(err.to_string().contains("customers.db"), "{err}");
        }
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "not one byte written"
        );
        assert!(!dir.path().join("customers.db-wal").exists());
    }

    #[test]
    fn a_library_is_marked_as_tongwens_and_an_unmarked_older_one_is_still_known() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lib.sqlite");
        drop(Library::open(&path).unwrap());
        let conn = Connection::open(&path).unwrap();
        let id: i32 = conn
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .unwrap();
        assert_eq!(id, schema::APPLICATION_ID);
        // Libraries made before the mark: known by their tables, marked when next opened for writing.
        conn.execute_batch("PRAGMA application_id = 0").unwrap();
        drop(conn);
        Library::open_read(&path).unwrap();
        drop(Library::open(&path).unwrap());
        let id: i32 = Connection::open(&path)
            .unwrap()
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .unwrap();
        assert_eq!(id, schema::APPLICATION_ID);
    }

    #[test]
    fn a_damaged_library_is_not_written_to() {
        let f = Fingerprinter::new();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lib.sqlite");
        {
            let mut lib = Library::open(&path).unwrap();
            for i in 0..40 {
                let text = format!(
                    "第 {i} 段：这是用来填满几页数据库的测试段落，内容足够长，能跨越多个页面。"
                );
                lib.add(&doc(&format!("d{i}"), &[&text, &text.repeat(20)], &f))
                    .unwrap();
            }
            lib.conn
                .execute_batch("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
                .unwrap();
        }
        // Garbage over the second page (a b-tree page of the library), as a bad disk block would leave.
        let mut bytes = std::fs::read(&path).unwrap();
        let page = 16 * 1024;
        assert!(bytes.len() >= 3 * page, "the library spans pages");
        for (i, b) in bytes[page..2 * page].iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(151) ^ 0x5a;
        }
        std::fs::write(&path, &bytes).unwrap();
        let err = Library::open(&path).unwrap_err();
        assert!(matches!(err, Error::Damaged { .. }), "{err}");
        assert!(err.to_string().contains("lib.sqlite"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "nothing written");
    }

    #[test]
    fn an_add_that_fails_half_way_leaves_nothing() {
        let f = Fingerprinter::new();
        let mut lib = Library::in_memory().unwrap();
        // Make the third paragraph's insert fail, as a crash or a full disk would.
        lib.conn
            .execute_batch(
                "CREATE TRIGGER fail_third BEFORE INSERT ON paragraphs WHEN NEW.idx = 2
                 BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
            )
            .unwrap();
        let d = doc(
            "thesis",
            &["第一段文字内容", "第二段文字内容", "第三段文字内容"],
            &f,
        );
        let err = lib.add(&d).unwrap_err();
        assert!(err.to_string().contains("disk full"), "{err}");
        assert_eq!(count(&lib, "documents"), 0);
        assert_eq!(count(&lib, "paragraphs"), 0);
        // A document that does not trip the trigger is added whole.
        let d = doc("short", &["只有一段", "两段"], &f);
        assert!(matches!(lib.add(&d).unwrap(), AddOutcome::Added(_)));
        assert_eq!(count(&lib, "paragraphs"), 2);
    }

    #[test]
    fn same_content_is_reported_as_present_and_remove_cascades() {
        let f = Fingerprinter::new();
        let mut lib = Library::in_memory().unwrap();
        let AddOutcome::Added(a) = lib.add(&doc("a", &["甲", "乙"], &f)).unwrap() else {
            panic!("first add adds");
        };
        assert_eq!((a.paragraphs, a.chars), (2, 2));
        let mut again = doc("renamed", &["甲", "乙"], &f);
        again.path = "/elsewhere/renamed.docx".into();
        assert_eq!(
            lib.add(&again).unwrap(),
            AddOutcome::AlreadyPresent(a.clone())
        );
        lib.add(&doc("b", &["丙"], &f)).unwrap();
        assert_eq!(
            lib.totals().unwrap(),
            Totals {
                documents: 2,
                paragraphs: 3,
                chars: 3
            }
        );
        assert!(matches!(
            lib.remove(&[a.id, 77]),
            Err(Error::NoSuchDocument(77))
        ));
        assert_eq!(
            lib.totals().unwrap().documents,
            2,
            "failed remove removes nothing"
        );
        lib.remove(&[a.id]).unwrap();
        assert_eq!(
            count(&lib, "paragraphs"),
            1,
            "paragraphs go with their document"
        );
        assert_eq!(lib.load_flat_prints().unwrap().1.simhash.len(), 1);
    }

    #[test]
    fn stale_fingerprints_are_recomputed_by_the_explicit_step_only() {
        let f = Fingerprinter::new();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lib.sqlite");
        {
            let mut lib = Library::open(&path).unwrap();
            lib.add(&doc("a", &["软件包维护者应当定期检查错误报告"], &f))
                .unwrap();
            lib.conn
                .execute(
                    "UPDATE paragraphs SET algo = 0, simhash = 0, shingles = x''",
                    [],
                )
                .unwrap();
            assert_eq!(lib.stale_paragraphs().unwrap(), 1);
        }
        // Opening, for reading or for writing, changes nothing.
        let before = std::fs::read(&path).unwrap();
        assert_eq!(
            Library::open_read(&path)
                .unwrap()
                .stale_paragraphs()
                .unwrap(),
            1
        );
        let mut lib = Library::open(&path).unwrap();
        assert_eq!(lib.stale_paragraphs().unwrap(), 1);
        assert_eq!(std::fs::read(&path).unwrap(), before);
        // A cancelled step rolls back.
        let cancelled = lib.refingerprint_stale(&f, &mut |_| {}, &AtomicBool::new(true));
        assert!(matches!(cancelled, Err(Error::Cancelled)), "{cancelled:?}");
        assert_eq!(lib.stale_paragraphs().unwrap(), 1);
        let mut seen = Vec::new();
        let done = lib
            .refingerprint_stale(
                &f,
                &mut |p| seen.push((p.done, p.total)),
                &AtomicBool::new(false),
            )
            .unwrap();
        assert_eq!((done, seen), (1, vec![(1, 1)]));
        assert_eq!(lib.stale_paragraphs().unwrap(), 0);
        let (_, prints) = lib.load_flat_prints().unwrap();
        let expected = f.paragraph("软件包维护者应当定期检查错误报告");
        assert_eq!(prints.simhash[0], expected.simhash);
        assert_eq!(prints.keys_of(0), expected.index_keys().as_slice());
    }

    #[test]
    fn refingerprinting_goes_through_every_chunk_and_both_older_and_newer_versions() {
        let f = Fingerprinter::new();
        let texts = [
            "软件包维护者应当定期检查错误报告",
            "The maintainer checks the bug tracker every week.",
            "今天天气很好，我们去公园散步。",
            "维护者需要及时回复用户的问题",
            "Packages are uploaded to the archive by their maintainers.",
        ];
        let mut lib = Library::in_memory().unwrap();
        lib.add(&doc("a", &texts, &f)).unwrap();
        let before = lib.generation().unwrap();
        // Three paragraphs from an older definition, one from a newer one, one current.
        lib.conn
            .execute_batch(
                "UPDATE paragraphs SET algo = 1, simhash = 0, shingles = x'' WHERE idx IN (0, 2, 3);
                 UPDATE paragraphs SET algo = 99, simhash = 0, shingles = x'' WHERE idx = 4;",
            )
            .unwrap();
        assert_eq!(lib.stale_paragraphs().unwrap(), 4);
        let mut seen = Vec::new();
        let done = lib
            .refingerprint_in_chunks(&f, 2, &mut |p| seen.push(p.done), &AtomicBool::new(false))
            .unwrap();
        assert_eq!((done, seen), (4, vec![2, 4]));
        assert_eq!(lib.stale_paragraphs().unwrap(), 0);
        assert_ne!(
            lib.generation().unwrap(),
            before,
            "the saved index goes stale"
        );
        let (_, prints) = lib.load_flat_prints().unwrap();
        for (i, text) in texts.iter().enumerate() {
            let expected = f.paragraph(text);
            assert_eq!(prints.simhash[i], expected.simhash, "{text}");
            assert_eq!(
                prints.keys_of(i),
                expected.index_keys().as_slice(),
                "{text}"
            );
            assert!(!expected.concepts.is_empty(), "{text}");
        }
        assert_eq!(
            lib.refingerprint_stale(&f, &mut |_| {}, &AtomicBool::new(false))
                .unwrap(),
            0
        );
    }

    #[test]
    fn a_library_from_a_newer_tongwen_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lib.sqlite");
        drop(Library::open(&path).unwrap());
        Connection::open(&path)
            .unwrap()
            .execute_batch("PRAGMA user_version = 99")
            .unwrap();
        for err in [
            Library::open(&path).unwrap_err(),
            Library::open_read(&path).unwrap_err(),
        ] {
            assert!(
                matches!(err, Error::SchemaTooNew { found: 99, .. }),
                "{err}"
            );
        }
    }

    #[test]
    fn an_empty_database_of_any_version_becomes_a_whole_library_in_one_step() {
        let dir = tempfile::tempdir().unwrap();
        for version in [1, 3, 99] {
            let path = dir.path().join(format!("empty{version}.sqlite"));
            Connection::open(&path)
                .unwrap()
                .execute_batch(&format!("PRAGMA user_version = {version}"))
                .unwrap();
            let lib = Library::open(&path).unwrap();
            assert_eq!(schema::version(&lib.conn).unwrap(), schema::SCHEMA_VERSION);
            assert_eq!(lib.list().unwrap(), Vec::new());
            drop(lib);
            drop(Library::open_read(&path).unwrap());
        }
    }

    #[test]
    fn reading_a_missing_or_older_library_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lib.sqlite");
        assert!(matches!(
            Library::open_read(&path),
            Err(Error::NoLibrary { .. })
        ));
        assert!(!path.exists(), "reading does not create a library");
        // A library of schema 1 (before the generation stamp) is refused for reading, left as it was,
        // and migrated when opened for changing.
        {
            let mut conn = Connection::open(&path).unwrap();
            let tx = conn.transaction().unwrap();
            schema::apply(&tx, schema::MIGRATIONS[0], 1).unwrap();
            tx.commit().unwrap();
        }
        let before = std::fs::read(&path).unwrap();
        assert!(matches!(
            Library::open_read(&path),
            Err(Error::NeedsUpgrade { .. })
        ));
        assert_eq!(std::fs::read(&path).unwrap(), before);
        let lib = Library::open(&path).unwrap();
        assert_eq!(schema::version(&lib.conn).unwrap(), schema::SCHEMA_VERSION);
        drop(lib);
        let lib = Library::open_read(&path).unwrap();
        assert_eq!(lib.totals().unwrap(), Totals::default());
    }
}
