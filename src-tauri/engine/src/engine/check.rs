//! Checking files against the library: the checker over one snapshot, and the seed methods' index.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use super::options::CheckOptions;
use super::runs::{CheckRun, Progress};
use super::{documents_in, Engine};
use crate::check::{CheckSettings, Checker, Index, Method, ParagraphResult};
use crate::error::{Error, Result};
use crate::extract::{self, Block, Extracted};
use crate::library::Store;
use crate::report::CheckedDocument;
use crate::seeds::{Item, SeedIndex};

impl Engine {
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
            Ok(CheckRun::new(options, settings.method, documents))
        })
    }

    /// Run `f` with a checker over one snapshot of the library (whatever others add or remove meanwhile).
    /// A library that needs an upgrade is [`Error::NeedsUpgrade`].
    pub(super) fn with_checker<T>(
        &self,
        settings: CheckSettings,
        f: impl FnOnce(&Checker<'_>) -> Result<T>,
    ) -> Result<T> {
        // The segmenter's dictionary loads on another core while the library and its index are opened
        // (on one core the two simply take turns).
        std::thread::scope(|s| {
            if !self.tokenizer_loaded() {
                s.spawn(|| self.warm_up());
            }
            self.with_checker_now(settings, f)
        })
    }

    fn with_checker_now<T>(
        &self,
        settings: CheckSettings,
        f: impl FnOnce(&Checker<'_>) -> Result<T>,
    ) -> Result<T> {
        let library = self.snapshot()?;
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
}

/// Check a document's paragraphs, keeping which are headings.
pub(super) fn check_blocks(checker: &Checker<'_>, read: Extracted) -> Result<Vec<ParagraphResult>> {
    let headings: Vec<bool> = read.paragraphs.iter().map(Block::starts_chapter).collect();
    let notes: Vec<Vec<usize>> = read.paragraphs.iter().map(|b| b.notes.clone()).collect();
    let mut results = checker.check(&paragraph_texts(read))?;
    for ((r, heading), notes) in results.iter_mut().zip(headings).zip(notes) {
        r.heading = heading;
        r.notes = notes;
    }
    Ok(results)
}

/// The texts of a document's paragraphs.
pub(super) fn paragraph_texts(read: Extracted) -> Vec<String> {
    read.paragraphs.into_iter().map(|b| b.text).collect()
}
