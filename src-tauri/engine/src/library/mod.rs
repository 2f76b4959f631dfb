//! The library: documents and their paragraphs with stored fingerprints.
//!
//! [`Store`] is what the rest of the engine needs of a library, whatever holds it. Its implementations
//! each have a folder: `sqlite/` ([`Library`], a file on the user's machine) and `postgres/`
//! ([`postgres::PgLibrary`], a school's shared server); all SQL of the engine lives in those two. Each
//! converts its driver's errors into the engine's [`Error`] at its boundary. Every change (adding documents, removing documents, re-fingerprinting) is one transaction, so
//! an interrupted run never leaves a half-written document.
//!
//! Opening for reading ([`Library::open_read`]) never writes and needs no tokenizer; a library whose
//! fingerprints were made by another version says so ([`Store::stale_paragraphs`]) and is brought up to
//! date by an explicit step ([`Store::refingerprint_stale`]), never as a side effect of opening it.
//!
//! The write path prepares documents outside the database (`ingest`), the read path loads the compact
//! fingerprints once at open (`load_flat_prints`, or the saved index) and fetches texts only for reported matches.

pub mod postgres;
pub mod shortlist;
pub mod sqlite;

pub use sqlite::{default_path, sidecar, Library, DEFAULT_FILE_NAME};

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::error::Result;
use crate::extract::{BlockKind, Format};
use crate::fingerprint::Fingerprinter;

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

/// Seconds since the Unix epoch (0 if the clock is before it): when a document was added.
pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
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
