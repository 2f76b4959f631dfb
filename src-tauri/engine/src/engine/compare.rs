//! A class compared with itself (and, when asked, with the library), and the library compared with
//! itself (`library duplicates`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use super::options::{validate_threshold, CheckOptions, CompareOptions};
use super::runs::{CheckRun, CompareRun, Progress};
use super::{documents_in, Engine};
use crate::check::Method;
use crate::class::{self, Submission};
use crate::error::{Error, Result};
use crate::extract::{self};
use crate::fingerprint::Fingerprinter;
use crate::library::{DocumentInfo, Role, SourceParagraph, Store};
use crate::report::duplicates::{Compared, DuplicatesReport, Edge as DuplicateEdge, Level};
use crate::report::CheckedDocument;
use crate::seeds::{Item, SeedIndex};

use super::check::paragraph_texts;

impl Engine {
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
                        disputed: Vec::new(),
                    })
                    .collect();
                Ok(CheckRun::new(&check, settings.method, documents))
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
        let threshold =
            validate_threshold(threshold.unwrap_or_else(|| method.duplicates_threshold()))?;
        let (settings, _) = CheckOptions::default().validate()?;
        let library = self.snapshot()?;
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
}

/// The pairs a seed method finds among documents (each a list of paragraphs) at `threshold`: whole
/// documents, or paragraphs of different documents. Progress counts documents searched.
pub(super) fn seed_duplicates(
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
    let groups: Vec<usize> = nodes.iter().map(|n| n.0).collect();
    let pairs = SeedIndex::build(method, f, &items).pairs_by_group(
        &groups,
        documents.len(),
        threshold,
        &mut |d| progress(d + 1, documents.len(), d),
        cancel,
    )?;
    Ok(pairs
        .into_iter()
        .map(|(i, j, s)| (nodes[i], nodes[j], s))
        .collect())
}
