//! The report model and its renderings. A report is built from the checker's raw results at a threshold
//! and a `top`, so the same results can be re-filtered (the desktop app's slider) without re-checking.
//!
//! Ratios count non-whitespace characters. A document's `similarity_ratio` is the share of its
//! characters inside copied spans of reported matches (for the SimHash method, which has no spans, the
//! flagged paragraphs' characters). Offsets in `spans` are Unicode scalar values into the paragraph texts
//! as reported.

pub mod chapters;
pub mod citations;
pub mod class;
pub mod duplicates;
pub mod html;
pub mod kinds;
mod lang;
pub mod page;
pub mod pdf;
mod render;
pub mod text;

pub use citations::Citation;
pub use kinds::SpanKind;
pub use lang::Lang;
pub(crate) use render::not_meant;
pub use render::{OutputFormat, Render};

use crate::text::script::script_of;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde::Serialize;

use crate::check::{covered_chars, Match, Method, ParagraphResult, SpanPair};
use crate::error::{Error, ErrorInfo};
use crate::text::non_ws_chars;
pub use crate::text::utf16_range;

/// The outcome of checking one submitted file.
#[derive(Debug, Clone)]
pub struct CheckedDocument {
    /// The file as the user named it.
    pub file: String,
    /// The paragraphs and their matches, or why the file could not be checked.
    pub outcome: Result<Vec<ParagraphResult>, Arc<Error>>,
    /// Quotations the reader disputes, `(paragraph, quotation start)`: their passages count as copied
    /// whatever their citation (see [`CheckedDocument::dispute`]).
    pub disputed: Vec<(usize, usize)>,
}

impl CheckedDocument {
    pub fn new(file: &Path, outcome: crate::Result<Vec<ParagraphResult>>) -> Self {
        CheckedDocument {
            file: file.display().to_string(),
            outcome: outcome.map_err(Arc::new),
            disputed: Vec::new(),
        }
    }

    /// Dispute the cited quotation starting at character `start` of paragraph `paragraph` (its passages
    /// then count as copied), or take the dispute back if there is one. Whether it is now disputed.
    pub fn dispute(&mut self, paragraph: usize, start: usize) -> bool {
        match self.disputed.iter().position(|d| *d == (paragraph, start)) {
            Some(i) => {
                self.disputed.remove(i);
                false
            }
            None => {
                self.disputed.push((paragraph, start));
                true
            }
        }
    }

    /// A file that could not be checked.
    pub fn failed(file: &Path, error: Error) -> Self {
        CheckedDocument::new(file, Err(error))
    }
}

/// A whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub tool: &'static str,
    pub version: &'static str,
    pub method: Method,
    pub threshold: f64,
    pub top: usize,
    /// Kinds of passage left out of `similarity_ratio` (and `copied_chars`, `sources`): the user's
    /// `--exclude`; none by default.
    pub exclude: Vec<SpanKind>,
    /// The writer (`check --author`), whose own library documents' text is kind `own`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    pub documents: Vec<DocumentReport>,
}

/// One submitted document.
#[derive(Debug, Clone, Serialize)]
pub struct DocumentReport {
    pub file: String,
    /// Characters in copied passages of every kind / all characters (non-whitespace), in [0, 1].
    pub total_ratio: f64,
    /// The same without the kinds excluded (`Report::exclude`): equals `total_ratio` unless asked.
    pub similarity_ratio: f64,
    /// Each kind's share of the document's characters (a character in passages of several kinds counts
    /// as `copied` first, then `reference`).
    pub kinds: KindShares,
    /// CNKI's 去除引用文献复制比: `total_ratio` without cited quotations and the references section.
    pub without_quotes_references_ratio: f64,
    /// CNKI's 去除本人文献复制比: `total_ratio` without the writer's own earlier work (kind `own`).
    pub without_own_ratio: f64,
    /// The ratio for the single source document that contributes most.
    pub largest_source_ratio: f64,
    /// The part of `similarity_ratio` found only through translations (Chinese ↔ English, matches with
    /// `cross_language`): characters counted in translated passages and in no same-language copy / all
    /// characters.
    pub translated_ratio: f64,
    pub total_chars: usize,
    pub copied_chars: usize,
    pub flagged_paragraphs: usize,
    /// Source documents by contribution, largest first.
    pub sources: Vec<SourceTotal>,
    /// The figures per chapter (see [`chapters`]); a document without headings is one chapter.
    pub chapters: Vec<ChapterReport>,
    pub paragraphs: Vec<ParagraphReport>,
    /// Why the document could not be checked (then `paragraphs` is empty), in English ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// ... and as a kind with its parameters, for a message in the reader's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_info: Option<ErrorInfo>,
}

/// Shares of a document's characters by kind of passage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct KindShares {
    pub copied: f64,
    pub quoted: f64,
    pub reference: f64,
    /// The writer's own earlier work (`check --author`).
    pub own: f64,
    /// Text of template documents: shown, never counted in the ratios.
    pub template: f64,
}

/// One chapter of a submission: from a chapter heading to the next.
#[derive(Debug, Clone, Serialize)]
pub struct ChapterReport {
    /// The heading's text ("" for the paragraphs before the first heading, or a document without).
    pub title: String,
    pub first_paragraph: usize,
    pub paragraphs: usize,
    pub chars: usize,
    /// Counted as the document's `copied_chars` (the user's exclusions left out).
    pub copied_chars: usize,
    /// `copied_chars / chars`: the chapter's `similarity_ratio`.
    pub ratio: f64,
    /// Passages of every kind but template / chars: the chapter's `total_ratio`.
    pub total_ratio: f64,
}

/// One source document's share of a submission.
#[derive(Debug, Clone, Serialize)]
pub struct SourceTotal {
    pub source_path: String,
    pub source_title: String,
    pub document_id: i64,
    pub copied_chars: usize,
    pub ratio: f64,
    /// Submission paragraphs with a reported match in this source.
    pub paragraphs: usize,
}

/// One paragraph of a submission.
#[derive(Debug, Clone, Serialize)]
pub struct ParagraphReport {
    pub index: usize,
    pub text: String,
    pub flagged: bool,
    /// Copied characters of this paragraph (union over its reported matches).
    pub copied_chars: usize,
    pub chars: usize,
    /// Matches at or above the threshold, best first: the best `top`, and any further one whose
    /// passages cover characters the others do not.
    pub matches: Vec<MatchReport>,
    /// Matches below the threshold whose copied passages still count in the figures, best first (the
    /// best `top`, and any further one that covers characters no listed match does): a copied sentence
    /// inside the writer's own paragraph, or, in a flagged paragraph, a sentence copied from another
    /// source than its matches. Every counted character lies in a span of `matches` or `passages`.
    pub passages: Vec<MatchReport>,
}

/// A match as reported: in `matches` (at or above the threshold) or in `passages` (below it).
#[derive(Debug, Clone, Serialize)]
pub struct MatchReport {
    pub source_path: String,
    pub source_title: String,
    pub source_document: i64,
    pub source_paragraph: u32,
    pub source_text: String,
    pub similarity: f64,
    pub hamming: u32,
    /// The submission paragraph and the source are in different Chinese scripts (one Traditional, the
    /// other Simplified): the copy was converted. Spans point into each text as written.
    pub cross_script: bool,
    /// The submission paragraph translates the source (Chinese ↔ English): the spans are pairs of
    /// aligned sentences and `similarity` is the share of the paragraph in them.
    pub cross_language: bool,
    pub spans: Vec<ReportSpan>,
}

/// A copied passage: `[start, end)` in Unicode scalar values (`submission`, `source`) and the same range
/// in UTF-16 code units (`*_utf16`, for JavaScript string indices).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReportSpan {
    pub submission: [usize; 2],
    pub source: [usize; 2],
    pub submission_utf16: [usize; 2],
    pub source_utf16: [usize; 2],
    /// Plain copying, a cited quotation, or text of the references section (see [`kinds`]).
    pub kind: SpanKind,
    /// A `copied` passage that stands in quotation marks without a citation.
    pub in_quotes: bool,
    /// Why a `quoted` passage is excused (or was, before the reader disputed it): its quotation and
    /// where the quotation's citation stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cited_by: Option<CitedBy>,
}

/// The quotation a passage lies in and the citation that attributes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CitedBy {
    /// The quotation, `[start, end)` in characters of the submission paragraph; its start names it
    /// when the reader disputes it.
    pub quotation: [usize; 2],
    /// The citation, `[start, end)` in characters of the paragraph it stands in.
    pub citation: [usize; 2],
    /// The citation stands in the paragraph before (a block quotation's lead-in).
    pub in_previous: bool,
    /// The reader disputed the citation: the passage counts as copied.
    pub disputed: bool,
}

impl ReportSpan {
    fn new(span: &SpanPair, submission: &str, m: &Match, read: &ParagraphKinds<'_>) -> ReportSpan {
        let source = m.source.text.as_str();
        let (kind, in_quotes) = read.kind_of(submission, span.submission, m);
        ReportSpan {
            submission: span.submission,
            source: span.source,
            submission_utf16: utf16_range(submission, span.submission),
            source_utf16: utf16_range(source, span.source),
            kind,
            in_quotes,
            cited_by: read.cited_by(submission, span.submission),
        }
    }
}

/// What a submission paragraph says about the passages in it: whether it is in the references section,
/// and its quotations.
struct ParagraphKinds<'a> {
    /// The writer (`check --author`): text of their own library documents is `own`.
    author: Option<&'a str>,
    reference: bool,
    /// Cited quotations and their citations.
    cited: Vec<([usize; 2], Citation)>,
    /// The cited quotations' ranges alone.
    cited_ranges: Vec<[usize; 2]>,
    uncited: Vec<[usize; 2]>,
    /// Cited quotations the reader disputed (counted as copied, in quotation marks).
    disputed: Vec<([usize; 2], Citation)>,
}

impl<'a> ParagraphKinds<'a> {
    /// What paragraph `text` says, its preceding paragraph being `previous` (a block quotation's
    /// lead-in).
    /// What paragraph `text` says, its preceding paragraph being `previous` (a block quotation's
    /// lead-in); `disputed` are the starts of its quotations the reader disputes, `notes` where the
    /// document's footnote references stand.
    fn read(
        text: &str,
        previous: Option<&str>,
        reference: bool,
        author: Option<&'a str>,
        disputed: &[usize],
        notes: &[usize],
    ) -> Self {
        let (mut cited, mut uncited, mut contested) = (Vec::new(), Vec::new(), Vec::new());
        for q in citations::quotations_noted(text, previous, notes) {
            match q.citation {
                Some(c) if disputed.contains(&q.range[0]) => {
                    uncited.push(q.range);
                    contested.push((q.range, c));
                }
                Some(c) => cited.push((q.range, c)),
                None => uncited.push(q.range),
            }
        }
        ParagraphKinds {
            author,
            reference,
            cited_ranges: cited.iter().map(|(r, _)| *r).collect(),
            cited,
            uncited,
            disputed: contested,
        }
    }

    /// The cited (or disputed) quotation holding most of the passage `range` of `text`, with its
    /// citation.
    fn cited_by(&self, text: &str, range: [usize; 2]) -> Option<CitedBy> {
        let cited = self.cited.iter().map(|(r, c)| (*r, *c, false));
        let disputed = self.disputed.iter().map(|(r, c)| (*r, *c, true));
        cited
            .chain(disputed)
            .map(|(r, c, disputed)| (kinds::share_inside(text, range, &[r]), r, c, disputed))
            .filter(|(share, ..)| *share >= 0.5)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, quotation, c, disputed)| CitedBy {
                quotation,
                citation: c.range,
                in_previous: c.in_previous,
                disputed,
            })
    }

    /// The kind of the passage `range` of `text` found in match `m`, and whether a copied one is in
    /// quotation marks.
    fn kind_of(&self, text: &str, range: [usize; 2], m: &Match) -> (SpanKind, bool) {
        let by_writer = |a: &str| {
            self.author
                .is_some_and(|w| !w.trim().is_empty() && w.trim().eq_ignore_ascii_case(a.trim()))
        };
        if m.source.is_template() {
            (SpanKind::Template, false)
        } else if m.source.document_author.as_deref().is_some_and(by_writer) {
            (SpanKind::Own, false)
        } else if self.reference {
            (SpanKind::Reference, false)
        } else if kinds::share_inside(text, range, &self.cited_ranges) >= 0.5 {
            (SpanKind::Quoted, false)
        } else {
            (
                SpanKind::Copied,
                kinds::share_inside(text, range, &self.uncited) >= 0.5,
            )
        }
    }
}

impl Report {
    /// Build a report: keep matches with similarity at or above `threshold`, at most `top` per
    /// paragraph, and compute the ratios.
    pub fn build(method: Method, threshold: f64, top: usize, docs: &[CheckedDocument]) -> Report {
        Report::build_excluding(method, threshold, top, &[], None, docs)
    }

    /// [`Report::build`] with the passages of the kinds in `exclude` left out of `similarity_ratio`,
    /// `copied_chars` and the sources (they stay in `total_ratio`, `kinds` and the paragraphs).
    pub fn build_excluding(
        method: Method,
        threshold: f64,
        top: usize,
        exclude: &[SpanKind],
        author: Option<&str>,
        docs: &[CheckedDocument],
    ) -> Report {
        let mut exclude = exclude.to_vec();
        exclude.sort_unstable();
        exclude.dedup();
        Report {
            tool: "tongwen",
            version: crate::VERSION,
            method,
            threshold,
            top,
            documents: docs
                .iter()
                .map(|d| document(threshold, top, &exclude, author, d))
                .collect(),
            exclude,
            author: author.map(str::to_string),
        }
    }
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn document(
    threshold: f64,
    top: usize,
    exclude: &[SpanKind],
    author: Option<&str>,
    doc: &CheckedDocument,
) -> DocumentReport {
    let results = match &doc.outcome {
        Ok(r) => r,
        Err(e) => {
            return DocumentReport {
                file: doc.file.clone(),
                total_ratio: 0.0,
                similarity_ratio: 0.0,
                kinds: KindShares::default(),
                without_quotes_references_ratio: 0.0,
                without_own_ratio: 0.0,
                largest_source_ratio: 0.0,
                translated_ratio: 0.0,
                total_chars: 0,
                copied_chars: 0,
                flagged_paragraphs: 0,
                sources: Vec::new(),
                chapters: Vec::new(),
                paragraphs: Vec::new(),
                error: Some(e.to_string()),
                error_info: Some(e.info()),
            }
        }
    };
    let mut total = 0;
    let mut copied = 0;
    // Characters counted only through translations.
    let mut translated = 0;
    // Characters in passages of any kind, and of each kind (copied first, then reference, then quoted).
    let (mut all_kinds, mut of_kind) = (0, [0usize; 5]);
    // Characters in passages of any kind but cited quotations and references; but own work.
    let (mut no_cited, mut no_own) = (0, 0);
    // document id -> (path, title, copied chars, paragraphs)
    let mut per_source: BTreeMap<i64, (String, String, usize, usize)> = BTreeMap::new();
    let mut paragraphs = Vec::with_capacity(results.len());
    let texts: Vec<&str> = results.iter().map(|p| p.text.as_str()).collect();
    let references = kinds::references_section(&texts);
    // Per paragraph: characters, counted characters, characters in passages of any kind.
    let mut figures: Vec<[usize; 3]> = Vec::with_capacity(results.len());
    for (index, p) in results.iter().enumerate() {
        let previous = index.checked_sub(1).map(|i| results[i].text.as_str());
        let disputed: Vec<usize> = doc
            .disputed
            .iter()
            .filter(|d| d.0 == index)
            .map(|d| d.1)
            .collect();
        let read = ParagraphKinds::read(
            &p.text,
            previous,
            references[index],
            author,
            &disputed,
            &p.notes,
        );
        // Every passage counts (the 13-character rule): the threshold decides only which paragraphs are
        // flagged and which matches are listed as such.
        // Below the threshold only copied passages count: a whole-paragraph method's match there is only
        // a distance.
        // Template text is shown (with the passages below the threshold) and never counted or flagged.
        let (templates, found): (Vec<&Match>, Vec<&Match>) =
            p.matches.iter().partition(|m| m.source.is_template());
        let (kept, below): (Vec<&Match>, Vec<&Match>) = found
            .into_iter()
            .partition(|m| !m.below_own_threshold && m.similarity >= threshold - 1e-9);
        let below: Vec<&Match> = below
            .into_iter()
            .chain(templates.iter().copied())
            .filter(|m| !m.spans().is_empty())
            .collect();
        let counted: Vec<&Match> = kept
            .iter()
            .chain(&below)
            .copied()
            .filter(|m| !m.source.is_template())
            .collect();
        let chars = non_ws_chars(&p.text);
        total += chars;
        // Each match's covered ranges with their kinds (a whole-paragraph match: its paragraph's kind).
        let ranges_of = |ms: &[&Match], keep: &dyn Fn(SpanKind) -> bool| -> Vec<[usize; 2]> {
            ms.iter()
                .flat_map(|m| m.covered_ranges().into_iter().map(move |r| (r, *m)))
                .filter(|&(r, m)| keep(read.kind_of(&p.text, r, m).0))
                .map(|(r, _)| r)
                .collect()
        };
        let counts = |k: SpanKind| !exclude.contains(&k);
        let (para_copied, _) = covered_chars(&p.text, &ranges_of(&counted, &counts));
        copied += para_copied;
        if counted.iter().any(|m| m.cross_language) {
            let same: Vec<&Match> = counted
                .iter()
                .copied()
                .filter(|m| !m.cross_language)
                .collect();
            translated += para_copied - covered_chars(&p.text, &ranges_of(&same, &counts)).0;
        }
        let para_all = covered_chars(&p.text, &ranges_of(&counted, &|_| true)).0;
        all_kinds += para_all;
        no_cited += covered_chars(
            &p.text,
            &ranges_of(&counted, &|k| {
                !matches!(k, SpanKind::Quoted | SpanKind::Reference)
            }),
        )
        .0;
        no_own += covered_chars(&p.text, &ranges_of(&counted, &|k| k != SpanKind::Own)).0;
        figures.push([chars, para_copied, para_all]);
        let counted_or_template: Vec<&Match> = counted.iter().chain(&templates).copied().collect();
        let mut claimed: Vec<[usize; 2]> = Vec::new();
        for (slot, kind) in [
            SpanKind::Copied,
            SpanKind::Reference,
            SpanKind::Quoted,
            SpanKind::Own,
            SpanKind::Template,
        ]
        .into_iter()
        .enumerate()
        {
            let mine = ranges_of(&counted_or_template, &|k| k == kind);
            let with_earlier: Vec<[usize; 2]> = claimed.iter().chain(&mine).copied().collect();
            let before = covered_chars(&p.text, &claimed).0;
            of_kind[slot] += covered_chars(&p.text, &with_earlier).0 - before;
            claimed = with_earlier;
        }
        let mut by_doc: BTreeMap<i64, Vec<&Match>> = BTreeMap::new();
        for m in &counted {
            by_doc.entry(m.source.document_id).or_default().push(m);
        }
        for (doc_id, ms) in by_doc {
            let (c, _) = covered_chars(&p.text, &ranges_of(&ms, &counts));
            if c == 0 {
                continue;
            }
            let e = per_source.entry(doc_id).or_insert_with(|| {
                (
                    ms[0].source.document_path.clone(),
                    ms[0].source.document_title.clone(),
                    0,
                    0,
                )
            });
            e.2 += c;
            e.3 += 1;
        }
        // The best `top` of each list, and beyond them every counted match whose passages cover
        // characters the listed ones do not: whatever is counted is shown and attributed.
        let mut shown: Vec<[usize; 2]> = Vec::new();
        let mut listed = |ms: &[&Match]| -> Vec<MatchReport> {
            let mut out = Vec::new();
            for (i, m) in ms.iter().enumerate() {
                let ranges = m.covered_ranges();
                let with: Vec<[usize; 2]> = shown.iter().chain(&ranges).copied().collect();
                let adds = !m.source.is_template()
                    && covered_chars(&p.text, &with).0 > covered_chars(&p.text, &shown).0;
                if i < top || adds {
                    if !m.source.is_template() {
                        shown = with;
                    }
                    out.push(match_report(&p.text, m, &read));
                }
            }
            out
        };
        let matches = listed(&kept);
        let passages = listed(&below);
        paragraphs.push(ParagraphReport {
            index,
            text: p.text.clone(),
            flagged: !kept.is_empty(),
            copied_chars: para_copied,
            chars,
            matches,
            passages,
        });
    }
    let ratio = |c: usize| {
        if total == 0 {
            0.0
        } else {
            round4(c as f64 / total as f64)
        }
    };
    let mut sources: Vec<SourceTotal> = per_source
        .into_iter()
        .map(
            |(document_id, (source_path, source_title, c, n))| SourceTotal {
                source_path,
                source_title,
                document_id,
                copied_chars: c,
                ratio: ratio(c),
                paragraphs: n,
            },
        )
        .collect();
    sources.sort_by(|a, b| {
        b.copied_chars
            .cmp(&a.copied_chars)
            .then(a.document_id.cmp(&b.document_id))
    });
    DocumentReport {
        file: doc.file.clone(),
        total_ratio: ratio(all_kinds),
        similarity_ratio: ratio(copied),
        kinds: KindShares {
            copied: ratio(of_kind[0]),
            reference: ratio(of_kind[1]),
            quoted: ratio(of_kind[2]),
            own: ratio(of_kind[3]),
            template: ratio(of_kind[4]),
        },
        without_quotes_references_ratio: ratio(no_cited),
        without_own_ratio: ratio(no_own),
        largest_source_ratio: sources.first().map_or(0.0, |s| s.ratio),
        translated_ratio: ratio(translated),
        total_chars: total,
        copied_chars: copied,
        flagged_paragraphs: paragraphs.iter().filter(|p| p.flagged).count(),
        sources,
        chapters: chapter_reports(results, &figures),
        paragraphs,
        error: None,
        error_info: None,
    }
}

fn chapter_reports(results: &[ParagraphResult], figures: &[[usize; 3]]) -> Vec<ChapterReport> {
    if results.is_empty() {
        return Vec::new();
    }
    let marked: Vec<(&str, bool)> = results
        .iter()
        .map(|p| (p.text.as_str(), p.heading))
        .collect();
    let starts = chapters::chapters(&marked);
    starts
        .iter()
        .enumerate()
        .map(|(i, &first)| {
            let end = starts.get(i + 1).copied().unwrap_or(results.len());
            let title = if chapters::starts_chapter(marked[first].0, marked[first].1) {
                marked[first].0.trim().to_string()
            } else {
                String::new()
            };
            let sum = |k: usize| figures[first..end].iter().map(|f| f[k]).sum::<usize>();
            let (chars, copied, all) = (sum(0), sum(1), sum(2));
            let share = |c: usize| {
                if chars == 0 {
                    0.0
                } else {
                    round4(c as f64 / chars as f64)
                }
            };
            ChapterReport {
                title,
                first_paragraph: first,
                paragraphs: end - first,
                chars,
                copied_chars: copied,
                ratio: share(copied),
                total_ratio: share(all),
            }
        })
        .collect()
}

fn match_report(text: &str, m: &Match, read: &ParagraphKinds<'_>) -> MatchReport {
    MatchReport {
        source_path: m.source.document_path.clone(),
        source_title: m.source.document_title.clone(),
        source_document: m.source.document_id,
        source_paragraph: m.source.index,
        source_text: m.source.text.clone(),
        similarity: round4(m.similarity),
        hamming: m.hamming,
        cross_script: !m.cross_language && script_of(text) != script_of(&m.source.text),
        cross_language: m.cross_language,
        spans: m
            .spans()
            .iter()
            .map(|sp| ReportSpan::new(sp, text, m, read))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Extent;
    use crate::library::SourceParagraph;

    fn found(document_id: i64, similarity: f64, spans: &[[usize; 2]]) -> Match {
        Match {
            source: Arc::new(SourceParagraph {
                paragraph_id: document_id * 10,
                document_id,
                document_title: format!("source {document_id}"),
                document_path: format!("s{document_id}.txt"),
                document_role: crate::library::Role::Source,
                document_author: None,
                common: false,
                index: 0,
                text: "来源段落的文字来源段落的文字来源段落的文字".into(),
            }),
            similarity,
            hamming: 20,
            extent: Extent::Spans(
                spans
                    .iter()
                    .map(|&r| SpanPair {
                        submission: r,
                        source: [0, r[1] - r[0]],
                    })
                    .collect(),
            ),
            cross_language: false,
            below_own_threshold: false,
        }
    }

    #[test]
    fn every_copied_passage_counts_and_the_threshold_only_flags() {
        // 40 characters each; paragraph 0 has one 14-character copied sentence (35 %), paragraph 1 one of
        // 8 characters (20 %), paragraph 2 nothing.
        let text = "一二三四五六七八九十".repeat(4);
        let results = vec![
            ParagraphResult {
                heading: false,
                notes: Vec::new(),
                text: text.clone(),
                matches: vec![found(1, 0.35, &[[0, 14]])],
            },
            ParagraphResult {
                heading: false,
                notes: Vec::new(),
                text: text.clone(),
                matches: vec![found(2, 0.2, &[[10, 18]])],
            },
            ParagraphResult {
                heading: false,
                notes: Vec::new(),
                text,
                matches: vec![],
            },
        ];
        let doc = CheckedDocument::new(Path::new("essay.txt"), Ok(results));
        let report = Report::build(Method::Verified, 0.3, 3, std::slice::from_ref(&doc));
        let d = &report.documents[0];
        assert_eq!((d.copied_chars, d.total_chars), (22, 120));
        assert_eq!(d.similarity_ratio, round4(22.0 / 120.0));
        assert_eq!(d.flagged_paragraphs, 1);
        assert_eq!(
            d.sources.len(),
            2,
            "both sources are listed with their share"
        );
        let p = &d.paragraphs;
        assert!(p[0].flagged && p[0].matches.len() == 1 && p[0].passages.is_empty());
        assert!(!p[1].flagged && p[1].matches.is_empty() && p[1].passages.len() == 1);
        assert_eq!(p[1].copied_chars, 8);
        // At a higher threshold nothing is flagged, and the same characters count.
        let strict = Report::build(Method::Verified, 0.5, 3, std::slice::from_ref(&doc));
        assert_eq!(strict.documents[0].copied_chars, 22);
        assert_eq!(strict.documents[0].flagged_paragraphs, 0);
        // A whole-paragraph method's match below the threshold is only a distance: nothing counts.
        let simhash = CheckedDocument::new(
            Path::new("essay.txt"),
            Ok(vec![ParagraphResult {
                heading: false,
                notes: Vec::new(),
                text: "一二三四五六七八九十".into(),
                matches: vec![Match {
                    extent: Extent::WholeParagraph,
                    ..found(1, 0.7, &[])
                }],
            }]),
        );
        let r = Report::build(Method::Simhash, 0.8, 3, &[simhash]);
        assert_eq!(r.documents[0].copied_chars, 0);
    }
}
