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

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;
use serde::Serialize;

use crate::check::{CheckSettings, Checker, Index, Method, ParagraphResult, TRANSLATION_THRESHOLD};
use crate::class::{self, ClassRun, Submission};
use crate::error::{Error, Result};
use crate::extract::{self, discover, Block, ExtractOptions, Extracted};
use crate::fingerprint::Fingerprinter;
use crate::ingest;
use crate::library::postgres::PgLibrary;
use crate::library::{
    AddOutcome, DocumentInfo, DocumentMeta, Generation, Library, NewDocument,
    RefingerprintProgress, Role, SourceParagraph, Store, Totals,
};
use crate::report::class::ClassReport;
use crate::report::duplicates::{Compared, DuplicatesReport, Edge as DuplicateEdge, Level};
use crate::report::{CheckedDocument, Report, SpanKind};
use crate::seeds::{Item, SeedIndex};

/// Matches shown per paragraph unless asked otherwise.
pub const DEFAULT_TOP: usize = 3;
/// Shortest copied passage that counts in Chinese text, in characters (the CNKI-style 13-character rule).
pub const DEFAULT_MIN_MATCH_CHARS: usize = 13;
/// Shortest copied passage that counts in other text, in words (WCopyfind's default).
pub const DEFAULT_MIN_MATCH_WORDS: usize = 6;

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

/// How files are read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Text encoding of .txt files (a WHATWG label such as `gb18030`, `big5`, `utf-16le`) instead of
    /// detecting it.
    pub encoding: Option<String>,
}

impl ReadOptions {
    fn extract_options(&self) -> Result<ExtractOptions> {
        let encoding = match &self.encoding {
            None => None,
            Some(label) => Some(extract::txt::encoding_for_label(label).ok_or_else(|| {
                Error::InvalidSetting {
                    name: "encoding",
                    reason: format!("unknown encoding {label:?} (e.g. gb18030, big5, utf-16le)"),
                }
            })?),
        };
        Ok(ExtractOptions { encoding })
    }
}

/// How to check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckOptions {
    pub method: Method,
    /// Report a match at or above this similarity; `None` takes the method's default
    /// ([`Method::default_threshold`]).
    pub threshold: Option<f64>,
    /// Matches reported per paragraph.
    pub top: usize,
    pub min_match_chars: usize,
    pub min_match_words: usize,
    /// Kinds of passage left out of the similarity ratio (`--exclude quotes,references`); none by
    /// default, so it equals the total ratio.
    pub exclude: Vec<SpanKind>,
    /// The writer: text of library documents with this author is their own earlier work (kind `own`,
    /// excluded with `own`).
    pub author: Option<String>,
    /// Search for copies by translation (Chinese ↔ English); on by default, and it finds something
    /// only when the library holds paragraphs of the other language.
    pub translation: bool,
    /// A translated copy is reported at or above this share of the paragraph; `None` takes
    /// [`TRANSLATION_THRESHOLD`].
    pub translation_threshold: Option<f64>,
    pub read: ReadOptions,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            method: Method::default(),
            threshold: None,
            top: DEFAULT_TOP,
            min_match_chars: DEFAULT_MIN_MATCH_CHARS,
            min_match_words: DEFAULT_MIN_MATCH_WORDS,
            exclude: Vec::new(),
            author: None,
            translation: true,
            translation_threshold: None,
            read: ReadOptions::default(),
        }
    }
}

/// A threshold is a share: between 0 and 1.
pub fn validate_threshold(threshold: f64) -> Result<f64> {
    if (0.0..=1.0).contains(&threshold) {
        Ok(threshold)
    } else {
        Err(Error::InvalidSetting {
            name: "threshold",
            reason: format!("must be between 0 and 1 (got {threshold})"),
        })
    }
}

impl CheckOptions {
    /// The threshold in force: the one given, or the method's default.
    pub fn threshold(&self) -> f64 {
        self.threshold
            .unwrap_or_else(|| self.method.default_threshold())
    }

    /// Validate every setting and turn them into the checker's settings.
    fn validate(&self) -> Result<(CheckSettings, ExtractOptions)> {
        validate_threshold(self.threshold())?;
        let translation = self.translation_threshold.unwrap_or(TRANSLATION_THRESHOLD);
        if !(0.0..=1.0).contains(&translation) || translation == 0.0 {
            return Err(Error::InvalidSetting {
                name: "translation-threshold",
                reason: format!("must be above 0 and at most 1 (got {translation})"),
            });
        }
        // `top` may be 0: paragraphs are then flagged and counted with no match listed.
        for (name, value) in [
            ("min-match-chars", self.min_match_chars),
            ("min-match-words", self.min_match_words),
        ] {
            if value == 0 {
                return Err(Error::InvalidSetting {
                    name,
                    reason: "must be at least 1".into(),
                });
            }
        }
        let mut settings = CheckSettings {
            method: self.method,
            translation: self.translation.then_some(translation),
            ..CheckSettings::default()
        };
        settings.align.cjk.min_match = self.min_match_chars;
        settings.align.words.min_match = self.min_match_words;
        Ok((settings, self.read.extract_options()?))
    }
}

/// Progress of a long operation: `done` of `total` files (or paragraphs, for an upgrade), and the one
/// just finished.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'p> {
    pub done: usize,
    pub total: usize,
    pub path: &'p Path,
}

/// The state of a library, as a front end shows it before doing anything.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LibraryStatus {
    pub path: String,
    pub documents: u64,
    pub paragraphs: u64,
    /// Paragraphs fingerprinted by another version of Tongwen.
    pub stale_paragraphs: u64,
    /// Whether [`Engine::upgrade`] must run before checking.
    pub needs_upgrade: bool,
}

/// What a check found: each file's outcome, with the settings that produced it.
#[derive(Debug, Clone)]
pub struct CheckRun {
    pub method: Method,
    pub threshold: f64,
    pub top: usize,
    pub exclude: Vec<SpanKind>,
    pub author: Option<String>,
    pub documents: Vec<CheckedDocument>,
}

impl CheckRun {
    /// The report at the run's threshold and exclusions.
    pub fn report(&self) -> Report {
        self.build(self.threshold, &self.exclude)
    }

    /// The report re-filtered at another threshold (no new check).
    pub fn report_at(&self, threshold: f64) -> Result<Report> {
        Ok(self.build(validate_threshold(threshold)?, &self.exclude))
    }

    /// The report re-filtered at another threshold with other exclusions (no new check).
    pub fn report_with(&self, threshold: f64, exclude: &[SpanKind]) -> Result<Report> {
        Ok(self.build(validate_threshold(threshold)?, exclude))
    }

    fn build(&self, threshold: f64, exclude: &[SpanKind]) -> Report {
        Report::build_excluding(
            self.method,
            threshold,
            self.top,
            exclude,
            self.author.as_deref(),
            &self.documents,
        )
    }

    /// The files that could not be checked, with why.
    pub fn failures(&self) -> impl Iterator<Item = &Error> {
        self.documents
            .iter()
            .filter_map(|d| d.outcome.as_ref().err().map(|e| e.as_ref()))
    }
}

/// How to compare a class.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompareOptions {
    /// The matching (minimum passage lengths, threshold, reading); the method is always the verified one.
    pub check: CheckOptions,
    /// Template documents (the assignment prompt, the school's cover page): their text is never shared.
    pub templates: Vec<PathBuf>,
    /// Also check every submission against the library, in the same run; the library's documents with
    /// the template role are then templates too.
    pub with_library: bool,
}

/// What comparing a class found: the pairs (at any threshold) and, when asked, the library check.
#[derive(Debug, Clone)]
pub struct CompareRun {
    pub threshold: f64,
    pub templates: Vec<String>,
    pub class: ClassRun,
    pub library: Option<CheckRun>,
    /// Why each file that could not be read was not (they are also in the report's documents).
    pub unread: Vec<Arc<Error>>,
}

impl CompareRun {
    /// The report at the run's threshold.
    pub fn report(&self) -> ClassReport {
        self.build(self.threshold)
    }

    /// The report with groups (and library flags) at another threshold (no new comparison).
    pub fn report_at(&self, threshold: f64) -> Result<ClassReport> {
        Ok(self.build(validate_threshold(threshold)?))
    }

    fn build(&self, threshold: f64) -> ClassReport {
        let library = self
            .library
            .as_ref()
            .map(|run| Report::build(run.method, threshold, run.top, &run.documents));
        ClassReport::build(&self.class, threshold, &self.templates, library.as_ref())
    }
}

/// What an add did, file by file in input order (files not reached because of a cancel are left out).
#[derive(Debug)]
pub struct AddRun {
    pub outcomes: Vec<(PathBuf, Result<AddOutcome>)>,
    pub cancelled: bool,
    /// The library's totals after the add.
    pub totals: Totals,
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
        let mut library = self.open_write()?;
        let (files, unreadable) = discover::collect_files(inputs);
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

    /// Check files and folders against the library. Files that cannot be read are in the run with
    /// their error; a library that needs an upgrade is [`Error::NeedsUpgrade`] (see [`Self::upgrade`]).
    pub fn check(
        &self,
        inputs: &[PathBuf],
        options: &CheckOptions,
        progress: &mut dyn FnMut(Progress<'_>),
        cancel: &AtomicBool,
    ) -> Result<CheckRun> {
        let (settings, extract_options) = options.validate()?;
        let (files, unreadable) = documents_in(inputs)?;
        self.with_checker(settings, |checker| {
            let mut documents: Vec<CheckedDocument> = unreadable
                .into_iter()
                .map(|e| {
                    let path = e.path().to_path_buf();
                    CheckedDocument::failed(&path, e.into())
                })
                .collect();
            for (i, file) in files.iter().enumerate() {
                if cancel.load(Ordering::Relaxed) {
                    return Err(Error::Cancelled);
                }
                let outcome = extract::extract_file(file, &extract_options)
                    .map_err(Error::from)
                    .and_then(|d| check_blocks(checker, d));
                documents.push(CheckedDocument::new(file, outcome));
                progress(Progress {
                    done: i + 1,
                    total: files.len(),
                    path: file,
                });
            }
            Ok(CheckRun {
                method: settings.method,
                threshold: options.threshold(),
                top: options.top,
                exclude: options.exclude.clone(),
                author: options.author.clone(),
                documents,
            })
        })
    }

    /// Run `f` with a checker over one snapshot of the library (whatever others add or remove meanwhile).
    /// A library that needs an upgrade is [`Error::NeedsUpgrade`].
    fn with_checker<T>(
        &self,
        settings: CheckSettings,
        f: impl FnOnce(&Checker<'_>) -> Result<T>,
    ) -> Result<T> {
        let library = self.open_read()?;
        library.hold_snapshot()?;
        let stale = library.stale_paragraphs()?;
        if stale > 0 {
            return Err(Error::NeedsUpgrade {
                path: PathBuf::from(library.location()),
                stale,
            });
        }
        // A library on a server shortlists there (the default method); otherwise, and for the methods
        // that compare with every paragraph, the library's fingerprints are held here.
        if let (Some(server), Method::Verified) = (library.server_shortlist(), settings.method) {
            return f(&Checker::on_server(
                library.as_ref(),
                server,
                self.fingerprinter(),
                settings,
            ));
        }
        let index = self.index(library.as_ref())?;
        let seeds = if settings.method.is_seed() {
            Some(self.seed_index(library.as_ref(), &index, settings.method)?)
        } else {
            None
        };
        let checker = Checker::new(library.as_ref(), &index, self.fingerprinter(), settings)
            .with_seeds(seeds.as_ref());
        f(&checker)
    }

    /// A seed method's index of every library paragraph, in the checking index's slot order. Nothing of
    /// it is stored: every paragraph's text is read and fingerprinted again.
    fn seed_index(&self, library: &dyn Store, index: &Index, method: Method) -> Result<SeedIndex> {
        let ids: Vec<i64> = (0..index.len() as u32)
            .map(|slot| index.paragraph_id(slot))
            .collect();
        let mut found = library.source_paragraphs(&ids)?;
        let mut lengths: HashMap<i64, usize> = HashMap::new();
        for p in found.values() {
            let n = lengths.entry(p.document_id).or_default();
            *n = (*n).max(p.index as usize + 1);
        }
        let texts: Vec<(String, usize, usize)> = ids
            .iter()
            .map(|id| {
                found.remove(id).map_or((String::new(), 0, 1), |p| {
                    let of = lengths.get(&p.document_id).copied().unwrap_or(1);
                    (p.text, p.index as usize, of)
                })
            })
            .collect();
        let items: Vec<Item<'_>> = texts
            .iter()
            .map(|(text, i, of)| Item::paragraph(text, *i, *of))
            .collect();
        Ok(SeedIndex::build(method, self.fingerprinter(), &items))
    }

    /// Compare a class's submissions (files and folders) with each other, without adding them to the
    /// library; with [`CompareOptions::with_library`], check each against the library too. Files that
    /// cannot be read are in the run with their error; a template that cannot be read is an error.
    /// Progress counts files read, then files compared (`total` is twice the number of files).
    pub fn compare(
        &self,
        inputs: &[PathBuf],
        options: &CompareOptions,
        progress: &mut dyn FnMut(Progress<'_>),
        cancel: &AtomicBool,
    ) -> Result<CompareRun> {
        let check = CheckOptions {
            method: Method::Verified,
            ..options.check.clone()
        };
        let (settings, extract_options) = check.validate()?;
        let mut templates: Vec<(String, Vec<String>)> = options
            .templates
            .iter()
            .map(|path| {
                let read = extract::extract_file(path, &extract_options).map_err(Error::from)?;
                Ok((path.display().to_string(), paragraph_texts(read)))
            })
            .collect::<Result<_>>()?;
        if options.with_library {
            templates.extend(self.library_templates()?);
        }
        let (files, unreadable) = documents_in(inputs)?;
        let mut submissions: Vec<Submission> = unreadable
            .into_iter()
            .map(|e| Submission {
                file: e.path().display().to_string(),
                paragraphs: Err(Arc::new(e.into())),
            })
            .collect();
        let total = files.len() * 2;
        // Read in parallel, a chunk at a time, reporting after each chunk.
        for chunk in files.chunks(16) {
            if cancel.load(Ordering::Relaxed) {
                return Err(Error::Cancelled);
            }
            let read: Vec<Submission> = chunk
                .par_iter()
                .map(|file| Submission {
                    file: file.display().to_string(),
                    paragraphs: extract::extract_file(file, &extract_options)
                        .map(paragraph_texts)
                        .map_err(|e| Arc::new(Error::from(e))),
                })
                .collect();
            submissions.extend(read);
            if let Some(last) = chunk.last() {
                progress(Progress {
                    done: submissions.len().min(files.len()),
                    total,
                    path: last,
                });
            }
        }
        let first = submissions.len() - files.len();
        let class = class::compare(
            &submissions,
            &templates,
            self.fingerprinter(),
            settings,
            &mut |done, _, d| {
                if let Some(file) = d.checked_sub(first).and_then(|i| files.get(i)) {
                    progress(Progress {
                        done: files.len() + done.saturating_sub(first),
                        total,
                        path: file,
                    });
                }
            },
            cancel,
        )?;
        let library = if options.with_library {
            Some(self.with_checker(settings, |checker| {
                let documents = submissions
                    .iter()
                    .map(|s| CheckedDocument {
                        file: s.file.clone(),
                        outcome: match &s.paragraphs {
                            Ok(texts) => checker.check(texts).map_err(Arc::new),
                            Err(e) => Err(Arc::clone(e)),
                        },
                    })
                    .collect();
                Ok(CheckRun {
                    method: settings.method,
                    threshold: check.threshold(),
                    top: check.top,
                    exclude: check.exclude.clone(),
                    author: check.author.clone(),
                    documents,
                })
            })?)
        } else {
            None
        };
        Ok(CompareRun {
            unread: submissions
                .iter()
                .filter_map(|s| s.paragraphs.as_ref().err().map(Arc::clone))
                .collect(),
            threshold: check.threshold(),
            templates: templates.into_iter().map(|(f, _)| f).collect(),
            class,
            library,
        })
    }

    /// The texts of the library's documents with the template role, by title, paragraphs in order.
    fn library_templates(&self) -> Result<Vec<(String, Vec<String>)>> {
        let library = self.open_read()?;
        library.hold_snapshot()?;
        let documents: Vec<DocumentInfo> = library
            .list()?
            .into_iter()
            .filter(|d| d.role == Role::Template)
            .collect();
        let texts = self.document_texts(library.as_ref(), &documents)?;
        Ok(documents
            .iter()
            .map(|d| d.title.clone())
            .zip(texts)
            .collect())
    }

    /// The paragraph texts of library documents, in order, one list per document.
    fn document_texts(
        &self,
        library: &dyn Store,
        documents: &[DocumentInfo],
    ) -> Result<Vec<Vec<String>>> {
        if documents.is_empty() {
            return Ok(Vec::new());
        }
        let wanted: Vec<i64> = documents.iter().map(|d| d.id).collect();
        let ids = library.paragraph_ids_of(&wanted)?;
        let mut found: Vec<SourceParagraph> =
            library.source_paragraphs(&ids)?.into_values().collect();
        found.sort_by_key(|p| (p.document_id, p.index));
        let mut by_document: HashMap<i64, Vec<String>> = HashMap::new();
        for p in found {
            by_document.entry(p.document_id).or_default().push(p.text);
        }
        Ok(documents
            .iter()
            .map(|d| by_document.remove(&d.id).unwrap_or_default())
            .collect())
    }

    /// Near-duplicates inside the library: its source documents compared with each other as a class
    /// (its template documents as templates), grouped at `threshold` (see
    /// [`crate::report::duplicates`]); with a seed method, compared by that method's prints of the
    /// documents (or paragraphs) instead. Progress counts documents compared.
    pub fn duplicates(
        &self,
        level: Level,
        method: Method,
        threshold: Option<f64>,
        progress: &mut dyn FnMut(Progress<'_>),
        cancel: &AtomicBool,
    ) -> Result<DuplicatesReport> {
        let threshold = validate_threshold(
            threshold.unwrap_or_else(|| crate::report::duplicates::default_threshold(method)),
        )?;
        let (settings, _) = CheckOptions::default().validate()?;
        let library = self.open_read()?;
        if library.stale_paragraphs()? > 0 {
            return Err(Error::NeedsUpgrade {
                path: library.location().into(),
                stale: library.stale_paragraphs()?,
            });
        }
        library.hold_snapshot()?;
        let (templates, sources): (Vec<DocumentInfo>, Vec<DocumentInfo>) = library
            .list()?
            .into_iter()
            .partition(|d| d.role == Role::Template);
        let texts = self.document_texts(library.as_ref(), &sources)?;
        let paths: Vec<PathBuf> = sources.iter().map(|d| PathBuf::from(&d.path)).collect();
        let compared: Vec<Compared> = sources
            .into_iter()
            .map(|d| Compared {
                id: d.id,
                title: d.title,
                path: d.path,
            })
            .collect();
        if method != Method::Verified {
            let edges = seed_duplicates(
                self.fingerprinter(),
                level,
                method,
                threshold,
                &texts,
                &mut |done, total, d| {
                    if let Some(path) = paths.get(d) {
                        progress(Progress { done, total, path });
                    }
                },
                cancel,
            )?;
            return Ok(DuplicatesReport::from_edges(
                level, method, threshold, &compared, &texts, edges,
            ));
        }
        let template_texts = self.document_texts(library.as_ref(), &templates)?;
        let templates: Vec<(String, Vec<String>)> = templates
            .iter()
            .map(|d| d.title.clone())
            .zip(template_texts)
            .collect();
        let submissions: Vec<Submission> = compared
            .iter()
            .zip(texts)
            .map(|(d, t)| Submission {
                file: d.path.clone(),
                paragraphs: Ok(t),
            })
            .collect();
        let run = class::compare(
            &submissions,
            &templates,
            self.fingerprinter(),
            settings,
            &mut |done, total, d| {
                if let Some(path) = paths.get(d) {
                    progress(Progress { done, total, path });
                }
            },
            cancel,
        )?;
        Ok(DuplicatesReport::build(level, threshold, &compared, &run))
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

/// The pairs a seed method finds among documents (each a list of paragraphs) at `threshold`: whole
/// documents, or paragraphs of different documents. Progress counts documents searched.
fn seed_duplicates(
    f: &Fingerprinter,
    level: Level,
    method: Method,
    threshold: f64,
    documents: &[Vec<String>],
    progress: &mut dyn FnMut(usize, usize, usize),
    cancel: &AtomicBool,
) -> Result<Vec<DuplicateEdge>> {
    // Items and, for each, its (document, paragraph at paragraph level).
    let (items, nodes): (Vec<Item<'_>>, Vec<(usize, Option<usize>)>) = match level {
        Level::Document => documents
            .iter()
            .enumerate()
            .map(|(d, paragraphs)| (Item::document(paragraphs), (d, None)))
            .unzip(),
        Level::Paragraph => documents
            .iter()
            .enumerate()
            .flat_map(|(d, paragraphs)| {
                paragraphs
                    .iter()
                    .enumerate()
                    .map(move |(i, p)| (Item::paragraph(p, i, paragraphs.len()), (d, Some(i))))
            })
            .unzip(),
    };
    let index = SeedIndex::build(method, f, &items);
    let nodes = &nodes;
    let mut edges = Vec::new();
    let mut start = 0;
    for d in 0..documents.len() {
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        let end = start + nodes[start..].iter().take_while(|n| n.0 == d).count();
        let found: Vec<DuplicateEdge> = (start..end)
            .into_par_iter()
            .flat_map_iter(|i| {
                index
                    .search(index.item(i), threshold, usize::MAX, |j| nodes[j].0 <= d)
                    .into_iter()
                    .map(move |(j, s)| (nodes[i], nodes[j], s))
            })
            .collect();
        edges.extend(found);
        start = end;
        progress(d + 1, documents.len(), d);
    }
    Ok(edges)
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

/// Check a document's paragraphs, keeping which are headings.
fn check_blocks(checker: &Checker<'_>, read: Extracted) -> Result<Vec<ParagraphResult>> {
    let headings: Vec<bool> = read.paragraphs.iter().map(Block::starts_chapter).collect();
    let mut results = checker.check(&paragraph_texts(read))?;
    for (r, heading) in results.iter_mut().zip(headings) {
        r.heading = heading;
    }
    Ok(results)
}

/// The texts of a document's paragraphs.
fn paragraph_texts(read: Extracted) -> Vec<String> {
    read.paragraphs.into_iter().map(|b| b.text).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(dir: &Path) -> Engine {
        Engine::new(LibraryLocation::Sqlite(dir.join("lib.sqlite")))
    }

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    const SOURCE: &str = "软件包维护者应当定期检查错误报告，及时回复用户提出的问题，并在新版本发布之前完成全部测试工作。";

    #[test]
    fn listing_and_extracting_load_no_tokenizer_and_create_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine(dir.path());
        assert!(engine.list().unwrap().is_empty());
        assert!(!dir.path().join("lib.sqlite").exists());
        let file = write(dir.path(), "a.txt", SOURCE);
        Engine::extract(&file, &ReadOptions::default()).unwrap();
        assert!(matches!(engine.remove(&[7]), Err(Error::NoSuchDocument(7))));
        assert!(!dir.path().join("lib.sqlite").exists());
        assert!(!engine.tokenizer_loaded());
        engine
            .add(
                &[file],
                &ReadOptions::default(),
                &mut |_| {},
                &AtomicBool::new(false),
            )
            .unwrap();
        // A new engine (a new process) lists without the tokenizer.
        let reader = Engine::new(engine.location().clone());
        assert_eq!(reader.list().unwrap().len(), 1);
        assert_eq!(reader.status().unwrap().documents, 1);
        assert!(!reader.tokenizer_loaded());
    }

    #[test]
    fn check_finds_the_copy_and_keeps_unreadable_files_with_their_error() {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine(dir.path());
        let lib = std::fs::create_dir(dir.path().join("lib")).map(|()| dir.path().join("lib"));
        let lib = lib.unwrap();
        write(&lib, "source.txt", SOURCE);
        let run = engine
            .add(
                &[lib],
                &ReadOptions::default(),
                &mut |_| {},
                &AtomicBool::new(false),
            )
            .unwrap();
        assert_eq!(run.totals.documents, 1);
        let copy = write(dir.path(), "copy.txt", SOURCE);
        let empty = write(dir.path(), "empty.txt", "");
        let missing = dir.path().join("missing.txt");
        let mut seen = 0;
        let run = engine
            .check(
                &[copy, empty, missing],
                &CheckOptions::default(),
                &mut |_| seen += 1,
                &AtomicBool::new(false),
            )
            .unwrap();
        assert_eq!(
            (run.method, run.threshold, run.top),
            (Method::Verified, 0.3, 3)
        );
        assert_eq!(seen, 2, "one progress message per file read");
        let report = run.report();
        let files: Vec<(&str, bool)> = report
            .documents
            .iter()
            .map(|d| (d.file.rsplit('/').next().unwrap(), d.error.is_some()))
            .collect();
        assert_eq!(
            files,
            [
                ("missing.txt", true),
                ("copy.txt", false),
                ("empty.txt", true)
            ]
        );
        assert_eq!(report.documents[1].similarity_ratio, 1.0);
        assert_eq!(run.failures().count(), 2);
        // Re-filtered without checking again.
        assert!(run.report_at(1.5).is_err());
        assert_eq!(
            run.report_at(1.0).unwrap().documents[1].flagged_paragraphs,
            1
        );
    }

    #[test]
    fn settings_are_validated_once_here() {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine(dir.path());
        let check = |options: CheckOptions| {
            engine
                .check(&[], &options, &mut |_| {}, &AtomicBool::new(false))
                .unwrap_err()
        };
        for bad in [
            CheckOptions {
                threshold: Some(1.2),
                ..CheckOptions::default()
            },
            CheckOptions {
                min_match_chars: 0,
                ..CheckOptions::default()
            },
            CheckOptions {
                read: ReadOptions {
                    encoding: Some("klingon".into()),
                },
                ..CheckOptions::default()
            },
        ] {
            assert!(matches!(check(bad), Error::InvalidSetting { .. }));
        }
        assert_eq!(
            CheckOptions {
                method: Method::Simhash,
                ..CheckOptions::default()
            }
            .threshold(),
            0.8
        );
    }

    #[test]
    fn a_library_with_stale_fingerprints_is_checked_only_after_the_upgrade() {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine(dir.path());
        let file = write(dir.path(), "a.txt", SOURCE);
        engine
            .add(
                std::slice::from_ref(&file),
                &ReadOptions::default(),
                &mut |_| {},
                &AtomicBool::new(false),
            )
            .unwrap();
        rusqlite::Connection::open(dir.path().join("lib.sqlite"))
            .unwrap()
            .execute(
                "UPDATE paragraphs SET algo = 1, simhash = 0, shingles = x''",
                [],
            )
            .unwrap();
        let status = engine.status().unwrap();
        assert_eq!((status.stale_paragraphs, status.needs_upgrade), (1, true));
        let err = engine
            .check(
                std::slice::from_ref(&file),
                &CheckOptions::default(),
                &mut |_| {},
                &AtomicBool::new(false),
            )
            .unwrap_err();
        assert!(matches!(err, Error::NeedsUpgrade { stale: 1, .. }), "{err}");
        let mut steps = Vec::new();
        let status = engine
            .upgrade(
                &mut |p| steps.push((p.done, p.total)),
                &AtomicBool::new(false),
            )
            .unwrap();
        assert!(!status.needs_upgrade);
        assert_eq!(steps, [(1, 1)]);
        let run = engine
            .check(
                &[file],
                &CheckOptions::default(),
                &mut |_| {},
                &AtomicBool::new(false),
            )
            .unwrap();
        assert_eq!(run.report().documents[0].similarity_ratio, 1.0);
    }
}
