//! What the use cases return: progress, a library's state, and the runs of a check, a class comparison
//! and an add, from which reports are built at any threshold without checking again.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use super::options::{validate_threshold, CheckOptions};
use crate::check::Method;
use crate::class::ClassRun;
use crate::error::{Error, Result};
use crate::library::{AddOutcome, Totals};
use crate::report::class::ClassReport;
use crate::report::{CheckedDocument, Report, SpanKind};

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
    /// The run of a check made with `options` by `method`, with each file's outcome.
    pub(super) fn new(
        options: &CheckOptions,
        method: Method,
        documents: Vec<CheckedDocument>,
    ) -> CheckRun {
        CheckRun {
            method,
            threshold: options.threshold(),
            top: options.top,
            exclude: options.exclude.clone(),
            author: options.author.clone(),
            documents,
        }
    }

    /// Dispute a cited quotation of document `document` (its index in the run): the one starting at
    /// character `start` of paragraph `paragraph` (a quoted passage's `cited_by.quotation[0]`). Its
    /// passages then count as copied in every report of the run, without checking again; disputing it
    /// again takes that back. Whether it is now disputed.
    pub fn dispute(&mut self, document: usize, paragraph: usize, start: usize) -> Result<bool> {
        let doc = self
            .documents
            .get_mut(document)
            .ok_or_else(|| Error::InvalidSetting {
                name: "document",
                reason: format!("the check has no document {document}"),
            })?;
        let paragraphs = doc.outcome.as_ref().map_or(0, |p| p.len());
        if paragraph >= paragraphs {
            return Err(Error::InvalidSetting {
                name: "paragraph",
                reason: format!("{} has no paragraph {paragraph}", doc.file),
            });
        }
        Ok(doc.dispute(paragraph, start))
    }

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
