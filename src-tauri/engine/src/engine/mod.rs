//! The engine's use cases, in one place: list, add, remove, extract, check, and bring a library up to
//! date. The `tongwen` command and the desktop app only parse their input, call an [`Engine`], and present
//! what it returns; neither wires extraction, fingerprints, the library and the checker itself.
//!
//! - **Settings** ([`CheckOptions`], [`ReadOptions`]) carry their defaults and are validated here, once.
//! - **Progress and cancellation** are arguments: a callback per file (or per chunk of paragraphs) and an
//!   [`AtomicBool`] checked between files.
//! - **Results are typed**: a [`CheckRun`] says which method made it and keeps each file's outcome (its
//!   paragraphs, or the engine [`Error`]) so a report can be rebuilt at another threshold without
//!   checking again.
//! - **The library** is reached only through [`Store`]; [`LibraryLocation`] is where a new backend plugs in.
//! - **Costs are paid when used**: the tokenizer (jieba's dictionary, about 0.1 s) is loaded on the first
//!   add, check or upgrade, never for listing, removing or extracting; reading opens the library
//!   read-only; re-fingerprinting a library made by an older Tongwen is [`Engine::upgrade`], an explicit
//!   step with progress.

mod check;
mod compare;
mod options;
mod runs;
#[cfg(test)]
mod tests;

pub use options::{
    validate_threshold, CheckOptions, CompareOptions, ReadOptions, DEFAULT_MIN_MATCH_CHARS,
    DEFAULT_MIN_MATCH_WORDS, DEFAULT_TOP,
};
pub use runs::{AddRun, CheckRun, CompareRun, LibraryStatus, Progress};

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};

use crate::check::Index;
use crate::error::{Error, Result};
use crate::extract::{self, discover, Extracted};
use crate::fingerprint::Fingerprinter;
use crate::ingest;
use crate::library::postgres::PgLibrary;
use crate::library::{
    AddOutcome, DocumentInfo, DocumentMeta, Generation, Library, NewDocument,
    RefingerprintProgress, Store, Totals,
};

/// Where a library lives. The SQLite file is the embedded default; another backend adds a variant here
/// and an implementation of [`Store`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LibraryLocation {
    Sqlite(PathBuf),
    /// A shared library on a PostgreSQL server: its address (`postgres://user@host/database?…`, see
    /// `library::postgres`).
    Postgres(String),
}

impl LibraryLocation {
    /// A location as the user gives it: a `postgres://` (or `postgresql://`) address, else a file.
    pub fn parse(location: &str) -> LibraryLocation {
        if crate::library::postgres::is_address(location) {
            LibraryLocation::Postgres(location.to_string())
        } else {
            LibraryLocation::Sqlite(PathBuf::from(location))
        }
    }

    /// The platform's default library (`~/.local/share/tongwen/library.sqlite` on Linux), if the platform
    /// has a data directory.
    pub fn default_location() -> Option<LibraryLocation> {
        crate::library::default_path().map(LibraryLocation::Sqlite)
    }

    /// As shown to the user.
    pub fn display(&self) -> String {
        match self {
            LibraryLocation::Sqlite(path) => path.display().to_string(),
            LibraryLocation::Postgres(address) => crate::library::postgres::redact(address),
        }
    }
}

/// Metadata as stored, the same whether given when adding or when editing: a blank title refused,
/// title and author trimmed, a blank author dropped, the year checked.
fn clean_meta(meta: &DocumentMeta) -> Result<DocumentMeta> {
    let mut meta = meta.clone();
    if meta.title.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return Err(Error::InvalidSetting {
            name: "title",
            reason: "a document's title cannot be empty".into(),
        });
    }
    valid_year(meta.year)?;
    meta.title = meta.title.map(|t| t.trim().to_string());
    meta.author = meta
        .author
        .map(|a| a.trim().to_string())
        .filter(|a| !a.is_empty());
    Ok(meta)
}

/// The files named and those in the folders named ([`discover::collect_files`]); nothing at all to
/// read (an empty folder, a folder of other files) is an error saying what Tongwen reads.
fn documents_in(inputs: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<crate::extract::FileError>)> {
    let (files, unreadable) = discover::collect_files(inputs);
    if files.is_empty() && unreadable.is_empty() {
        let named: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
        return Err(Error::InvalidSetting {
            name: "files",
            reason: format!(
                "no document to read in {}: Tongwen reads .txt, .docx and .pdf files",
                named.join(", ")
            ),
        });
    }
    Ok((files, unreadable))
}

/// The engine over one library.
pub struct Engine {
    location: LibraryLocation,
    fingerprinter: OnceLock<Arc<Fingerprinter>>,
    /// The last index built, with the library generation it belongs to: repeated checks in one process
    /// (the desktop app) reuse it while the library is unchanged, whoever changes it.
    index: Mutex<Option<(Generation, Arc<Index>)>>,
}

impl Engine {
    pub fn new(location: LibraryLocation) -> Engine {
        Engine {
            location,
            fingerprinter: OnceLock::new(),
            index: Mutex::new(None),
        }
    }

    pub fn location(&self) -> &LibraryLocation {
        &self.location
    }

    /// Whether the tokenizer has been loaded (it is loaded on first use).
    pub fn tokenizer_loaded(&self) -> bool {
        self.fingerprinter.get().is_some()
    }

    /// Load the tokenizer now if it is not loaded yet (what the first check would do): the desktop app
    /// calls it on another thread as it starts, so that its first check does not wait for it.
    pub fn warm_up(&self) {
        self.fingerprinter();
    }

    /// Read a local library's checking index now, as the first check would (its saved index, or built
    /// and saved): the desktop app calls it on another thread as it starts, so that its first check of
    /// a large library does not wait for it. Nothing is done for a library on a server (it shortlists
    /// there), nor for one that does not exist or needs an upgrade (the check says so).
    pub fn warm_index(&self) {
        if !matches!(self.location, LibraryLocation::Sqlite(_)) {
            return;
        }
        if let Ok(library) = self.snapshot() {
            let _ = self.index(library.as_ref());
        }
    }

    /// Whether the checking index of the library as it is now is held (read by [`Engine::warm_index`]
    /// or a check, and the library not changed since).
    #[cfg(test)]
    pub fn index_ready(&self) -> bool {
        let current = self.open_read().and_then(|l| l.generation());
        match (current, self.index.lock()) {
            (Ok(generation), Ok(cached)) => cached.as_ref().is_some_and(|(g, _)| *g == generation),
            _ => false,
        }
    }

    fn fingerprinter(&self) -> &Fingerprinter {
        self.fingerprinter
            .get_or_init(|| Arc::new(Fingerprinter::new()))
    }

    fn open_read(&self) -> Result<Box<dyn Store>> {
        match &self.location {
            LibraryLocation::Sqlite(path) => Ok(Box::new(Library::open_read(path)?)),
            LibraryLocation::Postgres(address) => Ok(Box::new(PgLibrary::open_read(address)?)),
        }
    }

    fn open_write(&self) -> Result<Box<dyn Store>> {
        match &self.location {
            LibraryLocation::Sqlite(path) => Ok(Box::new(Library::open(path)?)),
            LibraryLocation::Postgres(address) => Ok(Box::new(PgLibrary::open(address)?)),
        }
    }

    /// The library's documents, oldest first. A library that does not exist yet is empty.
    pub fn list(&self) -> Result<Vec<DocumentInfo>> {
        match self.list_existing() {
            Err(Error::NoLibrary { .. }) => Ok(Vec::new()),
            listed => listed,
        }
    }

    /// [`Self::list`], but a library that is not there is [`Error::NoLibrary`] (a mistyped path is
    /// not an empty library).
    pub fn list_existing(&self) -> Result<Vec<DocumentInfo>> {
        self.open_read()?.list()
    }

    /// Open the library for changing it, creating it (and its folder) if needed and migrating its
    /// schema: what choosing a library location does.
    pub fn init(&self) -> Result<LibraryStatus> {
        match &self.location {
            LibraryLocation::Sqlite(path) => drop(Library::open(path)?),
            // A user who may only check is not refused: there is nothing for them to write.
            LibraryLocation::Postgres(address) => drop(PgLibrary::init(address)?),
        }
        self.status()
    }

    /// Open an existing library for checking and give its totals: what choosing a library that others
    /// keep (a school's shared library, where this user may only check) does. No library there, or no
    /// right to read it, is an error.
    pub fn open_existing(&self) -> Result<LibraryStatus> {
        let library = self.open_read()?;
        let totals = library.totals()?;
        let stale = library.stale_paragraphs()?;
        Ok(LibraryStatus {
            path: self.location.display(),
            documents: totals.documents,
            paragraphs: totals.paragraphs,
            stale_paragraphs: stale,
            needs_upgrade: stale > 0,
        })
    }

    /// Totals and whether an upgrade is needed; reading only.
    pub fn status(&self) -> Result<LibraryStatus> {
        let status = |totals: Totals, stale: u64, schema_old: bool| LibraryStatus {
            path: self.location.display(),
            documents: totals.documents,
            paragraphs: totals.paragraphs,
            stale_paragraphs: stale,
            needs_upgrade: stale > 0 || schema_old,
        };
        match self.open_read() {
            Ok(library) => Ok(status(
                library.totals()?,
                library.stale_paragraphs()?,
                false,
            )),
            Err(Error::NoLibrary { .. }) => Ok(status(Totals::default(), 0, false)),
            Err(Error::NeedsUpgrade { .. }) => Ok(status(Totals::default(), 0, true)),
            Err(e) => Err(e),
        }
    }

    /// Bring a library made by an older Tongwen up to date: migrate its schema and re-fingerprint the
    /// paragraphs fingerprinted by another version, in one transaction, reporting paragraphs done.
    pub fn upgrade(
        &self,
        progress: &mut dyn FnMut(Progress<'_>),
        cancel: &AtomicBool,
    ) -> Result<LibraryStatus> {
        let mut library = self.open_write()?;
        if library.stale_paragraphs()? > 0 {
            // Paragraphs to fingerprint again: the id table pays for itself.
            crate::text::word_ids();
            let location = self.location.display();
            let path = Path::new(&location);
            library.refingerprint_stale(
                self.fingerprinter(),
                &mut |p: RefingerprintProgress| {
                    progress(Progress {
                        done: p.done as usize,
                        total: p.total as usize,
                        path,
                    })
                },
                cancel,
            )?;
        }
        drop(library);
        self.status()
    }

    /// Add files and folders (recursively) to the library, creating it if needed.
    pub fn add(
        &self,
        inputs: &[PathBuf],
        options: &ReadOptions,
        progress: &mut dyn FnMut(Progress<'_>),
        cancel: &AtomicBool,
    ) -> Result<AddRun> {
        self.add_as(inputs, options, &DocumentMeta::default(), progress, cancel)
    }

    /// [`Self::add`], every document added with `meta` (its role, author, year, tags; a title
    /// instead of the file name).
    pub fn add_as(
        &self,
        inputs: &[PathBuf],
        options: &ReadOptions,
        meta: &DocumentMeta,
        progress: &mut dyn FnMut(Progress<'_>),
        cancel: &AtomicBool,
    ) -> Result<AddRun> {
        let meta = &clean_meta(meta)?;
        let extract_options = options.extract_options()?;
        // The segmenter's dictionary loads on another core while the library is opened and the
        // inputs are listed, as for a check.
        let (mut library, (files, unreadable)) = std::thread::scope(|s| {
            if !self.tokenizer_loaded() {
                s.spawn(|| self.warm_up());
            }
            Ok::<_, Error>((self.open_write()?, discover::collect_files(inputs)))
        })?;
        let mut outcomes: Vec<(PathBuf, Result<AddOutcome>)> = unreadable
            .into_iter()
            .map(|e| (e.path().to_path_buf(), Err(e.into())))
            .collect();
        let plain = *meta == DocumentMeta::default();
        let added = ingest::add_files_with(
            &files,
            &extract_options,
            self.fingerprinter(),
            cancel,
            |p| {
                progress(Progress {
                    done: p.done,
                    total: p.total,
                    path: p.path,
                })
            },
            |docs| {
                if plain {
                    return library.add_batch(docs);
                }
                let described: Vec<NewDocument> = docs
                    .iter()
                    .map(|d| NewDocument {
                        meta: meta.clone(),
                        ..(*d).clone()
                    })
                    .collect();
                library.add_batch(&described.iter().collect::<Vec<_>>())
            },
        );
        let cancelled = added.len() < files.len();
        outcomes.extend(added);
        Ok(AddRun {
            outcomes,
            cancelled,
            totals: library.totals()?,
        })
    }

    /// Remove documents by id, all or none. A library that does not exist holds no document (and is not
    /// created).
    pub fn remove(&self, ids: &[i64]) -> Result<Vec<DocumentInfo>> {
        // An id named twice is one document removed once.
        let mut seen = std::collections::HashSet::new();
        let ids: Vec<i64> = ids.iter().copied().filter(|id| seen.insert(*id)).collect();
        let ids = ids.as_slice();
        match self.open_read() {
            Err(Error::NoLibrary { .. }) => match ids.first() {
                Some(&id) => Err(Error::NoSuchDocument(id)),
                None => Ok(Vec::new()),
            },
            _ => self.open_write()?.remove(ids),
        }
    }

    /// Replace a library document's metadata (see [`Store::set_meta`]). A blank title or author is
    /// refused / dropped.
    pub fn set_meta(&self, id: i64, meta: &DocumentMeta) -> Result<DocumentInfo> {
        let meta = clean_meta(meta)?;
        match self.open_read() {
            Err(Error::NoLibrary { .. }) => Err(Error::NoSuchDocument(id)),
            _ => self.open_write()?.set_meta(id, &meta),
        }
    }

    /// The paragraphs of one file, exactly as Tongwen reads them.
    pub fn extract(path: &Path, options: &ReadOptions) -> Result<Extracted> {
        Ok(extract::extract_file(path, &options.extract_options()?)?)
    }
    /// The library opened for reading, holding one snapshot (whatever others add or remove meanwhile);
    /// a library that needs an upgrade is [`Error::NeedsUpgrade`].
    fn snapshot(&self) -> Result<Box<dyn Store>> {
        let library = self.open_read()?;
        library.hold_snapshot()?;
        let stale = library.stale_paragraphs()?;
        if stale > 0 {
            return Err(Error::NeedsUpgrade {
                path: PathBuf::from(library.location()),
                stale,
            });
        }
        Ok(library)
    }

    /// The checking index of the library's current contents: the one built last if the library has not
    /// changed since, else the saved one or a new one.
    fn index(&self, library: &dyn Store) -> Result<Arc<Index>> {
        let generation = library.generation()?;
        let mut cached = self
            .index
            .lock()
            .map_err(|_| Error::Internal("an earlier check crashed"))?;
        if let Some((built_for, index)) = cached.as_ref() {
            if *built_for == generation {
                return Ok(Arc::clone(index));
            }
        }
        let index = Arc::new(Index::open(library)?);
        *cached = Some((generation, Arc::clone(&index)));
        Ok(index)
    }
}

/// A document's year, when given, is between 0 and 9999.
fn valid_year(year: Option<i64>) -> Result<()> {
    match year.filter(|y| !(0..=9999).contains(y)) {
        Some(year) => Err(Error::InvalidSetting {
            name: "year",
            reason: format!("must be a year between 0 and 9999 (got {year})"),
        }),
        None => Ok(()),
    }
}
