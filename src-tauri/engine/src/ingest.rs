//! The write path: from files on disk to documents in the library. Files are read and fingerprinted in
//! parallel (rayon) in batches; the single SQLite writer then adds each document in its own transaction,
//! in input order, so ids are deterministic and an interrupted run leaves only whole documents.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_128;

use crate::error::{Error, Result};
use crate::extract::{self, ExtractOptions, Extracted};
use crate::fingerprint::Fingerprinter;
use crate::library::{AddOutcome, Library, NewDocument, NewParagraph};
use crate::text::non_ws_chars;

/// Files prepared in parallel before each batch is written.
const BATCH: usize = 64;

/// Expand files and folders (recursively, following the supported extensions, sorted by path) into the
/// list of files to read. Paths that do not exist are returned as errors.
pub fn collect_files(inputs: &[PathBuf]) -> (Vec<PathBuf>, Vec<Error>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for input in inputs {
        match std::fs::metadata(input) {
            Ok(m) if m.is_dir() => walk(input, &mut files, &mut errors),
            Ok(_) => files.push(input.clone()),
            Err(e) => errors.push(Error::io(input, e)),
        }
    }
    (files, errors)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>, errors: &mut Vec<Error>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(Error::io(dir, e));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        if path.is_dir() {
            walk(&path, files, errors);
        } else if extract::is_supported_path(&path) {
            files.push(path);
        }
    }
}

/// Title of a document: its file name without the extension.
pub fn title_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Fingerprint an extracted document into a document ready to store.
pub fn prepare(
    path: &Path,
    bytes: u64,
    extracted: &Extracted,
    fingerprinter: &Fingerprinter,
) -> NewDocument {
    let mut hash_input = String::new();
    let paragraphs = extracted
        .paragraphs
        .iter()
        .map(|b| {
            hash_input.push_str(&b.text);
            hash_input.push('\n');
            let print = fingerprinter.paragraph(&b.text);
            NewParagraph {
                text: b.text.clone(),
                kind: b.kind,
                chars: non_ws_chars(&b.text) as u64,
                simhash: print.simhash,
                shingles: print.shingles,
            }
        })
        .collect();
    NewDocument {
        title: title_of(path),
        path: path.display().to_string(),
        format: extracted.format,
        bytes,
        content_hash: format!("{:032x}", xxh3_128(hash_input.as_bytes())),
        paragraphs,
    }
}

/// Read and fingerprint one file.
pub fn prepare_file(
    path: &Path,
    options: &ExtractOptions,
    fingerprinter: &Fingerprinter,
) -> Result<NewDocument> {
    let extracted = extract::extract_file(path, options)?;
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    Ok(prepare(path, bytes, &extracted, fingerprinter))
}

/// Progress of an import, reported after each file.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'p> {
    pub done: usize,
    pub total: usize,
    pub path: &'p Path,
}

/// Add files to the library: prepare in parallel, write one transaction per document. Returns each
/// file's outcome in input order. Stops early (between documents) when `cancel` is set; files not
/// reached are not in the result.
pub fn add_files(
    library: &mut Library,
    files: &[PathBuf],
    options: &ExtractOptions,
    fingerprinter: &Fingerprinter,
    cancel: &AtomicBool,
    progress: impl FnMut(Progress<'_>),
) -> Vec<(PathBuf, Result<AddOutcome>)> {
    add_files_with(files, options, fingerprinter, cancel, progress, |doc| {
        library.add(doc)
    })
}

/// [`add_files`] with the write step supplied by the caller, so a shared library is locked only while a
/// document is written, never while files are read and fingerprinted.
pub fn add_files_with(
    files: &[PathBuf],
    options: &ExtractOptions,
    fingerprinter: &Fingerprinter,
    cancel: &AtomicBool,
    mut progress: impl FnMut(Progress<'_>),
    mut write: impl FnMut(&NewDocument) -> Result<AddOutcome>,
) -> Vec<(PathBuf, Result<AddOutcome>)> {
    let mut out = Vec::with_capacity(files.len());
    for chunk in files.chunks(BATCH) {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let prepared: Vec<Result<NewDocument>> = chunk
            .par_iter()
            .map(|path| {
                if cancel.load(Ordering::Relaxed) {
                    return Err(Error::Cancelled);
                }
                prepare_file(path, options, fingerprinter)
            })
            .collect();
        for (path, doc) in chunk.iter().zip(prepared) {
            if matches!(doc, Err(Error::Cancelled)) {
                continue;
            }
            let outcome = doc.and_then(|d| write(&d));
            out.push((path.clone(), outcome));
            progress(Progress {
                done: out.len(),
                total: files.len(),
                path,
            });
        }
    }
    out
}
