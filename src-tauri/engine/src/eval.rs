//! `tongwen eval`: the comparison methods measured side by side on a benchmark with truth, as the seed
//! papers compare theirs (precision, recall, F1, deduplication rate, time per document), per method and
//! threshold. Two kinds of benchmark:
//!
//! - **Paragraphs** (eval-dev's `truth.json`: `library` files and `queries` files with their
//!   paragraphs, each `copied` or not, `scored` or not): the library files are added to a new library in
//!   a temporary folder and every query checked against it with each method. A scored paragraph is
//!   flagged at a threshold when its best match reaches it; it is a true positive when copied. Report
//!   paragraphs are matched to truth paragraphs by their text without whitespace, then by their
//!   normalised letters and digits, then by position.
//! - **Duplicates** (`{"kind": "duplicates", "documents": {file: {"group": name or null, "operation":
//!   …}}}`, made by `scripts/make-duplicates-set.py`): every document is added to a new library and
//!   `library duplicates` run with each method at document level. Pairs are judged: a found pair is
//!   true when both documents are in one group. A document the library refused on adding because the
//!   same content was already there is a found pair of similarity 1 (Tongwen catches exact copies at
//!   the door). Groups recovered: truth groups that are exactly one found group (connected pairs).
//!
//! A method's default threshold (marked in the table) is the one its use takes: `check`'s for
//! paragraphs, `library duplicates`' for a duplicates set (0.8 for the verified method there).
//!
//! Deduplication rate (seed 003's measure): the share of items judged rightly, copy or not (paragraphs;
//! documents, a document judged a copy when it is in a found pair). Time per document: the check (or the
//! duplicates search, index built included) over the documents, the library's adding excluded.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::class::components;
use crate::engine::{CheckOptions, Engine, LibraryLocation, ReadOptions};
use crate::error::{Error, Result};
use crate::fingerprint::Method;
use crate::library::AddOutcome;
use crate::report::duplicates::Level;
use crate::report::{Lang, OutputFormat, Render, Report};
use crate::text::normalize;

/// The thresholds swept unless told otherwise (each method's default is added).
pub const SWEEP: [f64; 6] = [0.3, 0.5, 0.7, 0.8, 0.9, 0.95];

/// What to measure.
#[derive(Debug, Clone)]
pub struct EvalOptions {
    pub methods: Vec<Method>,
    /// Thresholds to sweep; empty: [`SWEEP`] and each method's default.
    pub thresholds: Vec<f64>,
}

/// The table.
#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    pub benchmark: String,
    /// `paragraphs` or `duplicates`.
    pub kind: &'static str,
    /// Items judged: scored paragraphs, or document pairs.
    pub items: usize,
    pub documents: usize,
    /// Truth groups (duplicates) or copied paragraphs (paragraphs).
    pub positives: usize,
    pub rows: Vec<EvalRow>,
}

/// One method at one threshold.
#[derive(Debug, Clone, Serialize)]
pub struct EvalRow {
    pub method: &'static str,
    pub threshold: f64,
    /// The method's default threshold.
    pub default: bool,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub dedup_rate: f64,
    /// Duplicates only: truth groups found exactly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups_recovered: Option<usize>,
    /// Paragraphs only, by the truth's `obfuscation` label (`clean` when it has none): how many there
    /// are and the share flagged (recall for copied labels, false positives for the others).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub by_label: BTreeMap<String, LabelFigures>,
    pub ms_per_document: f64,
}

#[derive(Deserialize)]
struct Truth {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    library: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    queries: BTreeMap<String, TruthQuery>,
    #[serde(default)]
    documents: BTreeMap<String, TruthDocument>,
}

#[derive(Deserialize)]
struct TruthQuery {
    paragraphs: Vec<TruthParagraph>,
}

/// One label's paragraphs.
#[derive(Debug, Clone, Serialize)]
pub struct LabelFigures {
    pub paragraphs: usize,
    pub flagged: f64,
    /// Copied labels whose truth names the sources: the share of flagged paragraphs whose best match
    /// is in one of them (by file name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right_source: Option<f64>,
}

#[derive(Deserialize)]
struct TruthParagraph {
    text: String,
    copied: bool,
    #[serde(default)]
    obfuscation: Option<String>,
    /// A translation's direction (`zh->en`: a Chinese paragraph translated from English); labels are
    /// then `obfuscation direction`.
    #[serde(default)]
    direction: Option<String>,
    #[serde(default)]
    sources: Vec<TruthSource>,
    #[serde(default = "yes")]
    scored: bool,
}

#[derive(Deserialize)]
struct TruthSource {
    library_file: String,
}

/// A scored truth paragraph as checked: copied, best similarity, label, and whether the best match is
/// one of its truth sources (`None` when the truth names none).
struct Scored {
    copied: bool,
    similarity: f64,
    label: String,
    right_source: Option<bool>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
struct TruthDocument {
    group: Option<String>,
}

/// Measure `options.methods` on the benchmark whose truth is at `truth` (its files relative to it).
/// `progress` hears what is being done.
pub fn evaluate(
    truth: &Path,
    options: &EvalOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<EvalReport> {
    let bad = |reason: String| Error::InvalidSetting {
        name: "benchmark",
        reason: format!("{}: {reason}", truth.display()),
    };
    let text = std::fs::read_to_string(truth).map_err(|source| Error::Io {
        path: truth.to_path_buf(),
        source,
    })?;
    let parsed: Truth = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let base = truth.parent().unwrap_or(Path::new("."));
    let dir = tempfile::tempdir().map_err(|source| Error::Io {
        path: std::env::temp_dir(),
        source,
    })?;
    let engine = Engine::new(LibraryLocation::Sqlite(dir.path().join("eval.sqlite")));
    let duplicates = parsed.kind.as_deref() == Some("duplicates");
    // The threshold each use defaults to: `library duplicates`' for a duplicates set, `check`'s else.
    let default = |m: Method| {
        if duplicates {
            m.duplicates_threshold()
        } else {
            m.default_threshold()
        }
    };
    let thresholds = |m: Method| -> Vec<f64> {
        let mut t = if options.thresholds.is_empty() {
            let mut t = SWEEP.to_vec();
            t.push(default(m));
            t
        } else {
            options.thresholds.clone()
        };
        t.sort_by(f64::total_cmp);
        t.dedup();
        t
    };
    let cancel = AtomicBool::new(false);
    let add = |files: &[PathBuf], progress: &mut dyn FnMut(&str)| {
        progress(&format!("adding {} documents", files.len()));
        engine.add(files, &ReadOptions::default(), &mut |_| {}, &cancel)
    };
    if duplicates {
        if parsed.documents.is_empty() {
            return Err(bad("no documents".into()));
        }
        let files: Vec<PathBuf> = parsed.documents.keys().map(|f| base.join(f)).collect();
        let run = add(&files, progress)?;
        // Library id → truth file, and pairs the library found on adding.
        let mut ids: HashMap<i64, usize> = HashMap::new();
        let mut at_door: Vec<(usize, i64)> = Vec::new();
        for (i, (_, outcome)) in run.outcomes.iter().enumerate() {
            match outcome {
                Ok(AddOutcome::Added(d)) => {
                    ids.insert(d.id, i);
                }
                Ok(AddOutcome::AlreadyPresent(d)) => at_door.push((i, d.id)),
                Err(e) => return Err(bad(format!("{}: {e}", files[i].display()))),
            }
        }
        let groups: Vec<Option<&str>> = parsed
            .documents
            .values()
            .map(|d| d.group.as_deref())
            .collect();
        let mut rows = Vec::new();
        for &method in &options.methods {
            let sweep = thresholds(method);
            let floor = sweep.first().copied().unwrap_or(0.0);
            progress(&format!("{}: comparing", method.name()));
            let start = Instant::now();
            let report =
                engine.duplicates(Level::Document, method, Some(floor), &mut |_| {}, &cancel)?;
            let ms = start.elapsed().as_secs_f64() * 1000.0 / files.len() as f64;
            let mut pairs: Vec<(usize, usize, f64)> = report
                .groups
                .iter()
                .flat_map(|g| &g.pairs)
                .filter_map(|p| Some((*ids.get(&p.a)?, *ids.get(&p.b)?, p.similarity)))
                .collect();
            pairs.extend(
                at_door
                    .iter()
                    .filter_map(|&(i, id)| Some((i, *ids.get(&id)?, 1.0))),
            );
            for &t in &sweep {
                let found: Vec<(usize, usize)> = pairs
                    .iter()
                    .filter(|p| p.2 >= t - 1e-9)
                    .map(|p| (p.0.min(p.1), p.0.max(p.1)))
                    .collect();
                let mut r = duplicates_row(method, t, &groups, &found, ms);
                r.default = (t - default(method)).abs() < 1e-9;
                rows.push(r);
            }
        }
        let n = groups.len();
        let mut names: Vec<&str> = groups.iter().flatten().copied().collect();
        names.sort_unstable();
        names.dedup();
        return Ok(EvalReport {
            benchmark: truth.display().to_string(),
            kind: "duplicates",
            items: n * n.saturating_sub(1) / 2,
            documents: n,
            positives: names.len(),
            rows,
        });
    }

    if parsed.library.is_empty() || parsed.queries.is_empty() {
        return Err(bad(
            "neither a duplicates set nor a library with queries".into()
        ));
    }
    let library: Vec<PathBuf> = parsed.library.keys().map(|f| base.join(f)).collect();
    add(&library, progress)?;
    let queries: Vec<PathBuf> = parsed.queries.keys().map(|f| base.join(f)).collect();
    let truths: Vec<&TruthQuery> = parsed.queries.values().collect();
    let mut rows = Vec::new();
    for &method in &options.methods {
        let sweep = thresholds(method);
        progress(&format!(
            "{}: checking {} queries",
            method.name(),
            queries.len()
        ));
        let start = Instant::now();
        let run = engine.check(
            &queries,
            &CheckOptions {
                method,
                threshold: Some(sweep.first().copied().unwrap_or(0.0)),
                top: 1,
                ..CheckOptions::default()
            },
            &mut |_| {},
            &cancel,
        )?;
        let ms = start.elapsed().as_secs_f64() * 1000.0 / queries.len() as f64;
        let report = run.report();
        // Each scored truth paragraph's best similarity (0 when unmatched).
        let best: Vec<Scored> = queries
            .iter()
            .zip(&truths)
            .flat_map(|(q, t)| best_similarities(&report, q, t))
            .collect();
        for &t in &sweep {
            let (mut tp, mut fp, mut fn_, mut tn) = (0usize, 0usize, 0usize, 0usize);
            // label -> (paragraphs, flagged, flagged with a named source, of which the right one)
            let mut labels: BTreeMap<String, (usize, usize, usize, usize)> = BTreeMap::new();
            for b in &best {
                let hit = b.similarity >= t - 1e-9 && b.similarity > 0.0;
                let l = labels.entry(b.label.clone()).or_default();
                l.0 += 1;
                l.1 += usize::from(hit);
                if let (true, true, Some(right)) = (hit, b.copied, b.right_source) {
                    l.2 += 1;
                    l.3 += usize::from(right);
                }
                match (b.copied, hit) {
                    (true, true) => tp += 1,
                    (false, true) => fp += 1,
                    (true, false) => fn_ += 1,
                    (false, false) => tn += 1,
                }
            }
            let mut r = row(method, t, (tp, fp, fn_, tn), None, ms);
            r.by_label = labels
                .into_iter()
                .map(|(label, (n, hit, named, right))| {
                    (
                        label,
                        LabelFigures {
                            paragraphs: n,
                            flagged: ratio(hit, n),
                            right_source: (named > 0).then(|| ratio(right, named)),
                        },
                    )
                })
                .collect();
            rows.push(r);
        }
    }
    let items: Vec<&TruthParagraph> = truths
        .iter()
        .flat_map(|t| &t.paragraphs)
        .filter(|p| p.scored)
        .collect();
    Ok(EvalReport {
        benchmark: truth.display().to_string(),
        kind: "paragraphs",
        items: items.len(),
        documents: queries.len(),
        positives: items.iter().filter(|p| p.copied).count(),
        rows,
    })
}

/// Each scored paragraph of one query as checked.
fn best_similarities(report: &Report, query: &Path, truth: &TruthQuery) -> Vec<Scored> {
    let document = report
        .documents
        .iter()
        .find(|d| Path::new(&d.file) == query)
        .or_else(|| {
            report
                .documents
                .iter()
                .find(|d| Path::new(&d.file).file_name() == query.file_name())
        });
    // (exact key, loose key, best similarity, its source's file name)
    let paragraphs: Vec<(String, String, f64, Option<String>)> = document
        .map(|d| {
            d.paragraphs
                .iter()
                .map(|p| {
                    // Matches are listed best first (the report's order, ties included).
                    let best = p.matches.first();
                    (
                        exact_key(&p.text),
                        loose_key(&p.text),
                        best.map_or(0.0, |m| m.similarity),
                        best.map(|m| file_name(&m.source_path)),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let by_exact: HashMap<&str, usize> = paragraphs
        .iter()
        .enumerate()
        .map(|(i, p)| (p.0.as_str(), i))
        .collect();
    let by_loose: HashMap<&str, usize> = paragraphs
        .iter()
        .enumerate()
        .map(|(i, p)| (p.1.as_str(), i))
        .collect();
    truth
        .paragraphs
        .iter()
        .enumerate()
        .filter(|(_, p)| p.scored)
        .map(|(i, p)| {
            let found = by_exact
                .get(exact_key(&p.text).as_str())
                .or_else(|| by_loose.get(loose_key(&p.text).as_str()))
                .copied()
                .or((i < paragraphs.len()).then_some(i))
                .map(|j| &paragraphs[j]);
            let obfuscation = p.obfuscation.as_deref().unwrap_or("clean");
            Scored {
                copied: p.copied,
                similarity: found.map_or(0.0, |f| f.2),
                label: match &p.direction {
                    Some(d) => format!("{obfuscation} {d}"),
                    None => obfuscation.to_string(),
                },
                right_source: (!p.sources.is_empty()).then(|| {
                    found.and_then(|f| f.3.as_deref()).is_some_and(|name| {
                        p.sources.iter().any(|s| file_name(&s.library_file) == name)
                    })
                }),
            }
        })
        .collect()
}

fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

fn exact_key(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

fn loose_key(text: &str) -> String {
    normalize(text)
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A duplicates row: pairs judged against the groups, documents judged copy or not, groups recovered.
fn duplicates_row(
    method: Method,
    threshold: f64,
    groups: &[Option<&str>],
    found: &[(usize, usize)],
    ms: f64,
) -> EvalRow {
    let same = |a: usize, b: usize| matches!((groups[a], groups[b]), (Some(x), Some(y)) if x == y);
    let tp = found.iter().filter(|&&(a, b)| same(a, b)).count();
    let fp = found.len() - tp;
    let mut members: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, g) in groups.iter().enumerate() {
        if let Some(g) = g {
            members.entry(g).or_default().push(i);
        }
    }
    let truth_pairs: usize = members.values().map(|m| m.len() * (m.len() - 1) / 2).sum();
    let fn_ = truth_pairs - tp;
    // Found groups: connected components of the found pairs.
    let label = components(groups.len(), found.iter().copied());
    let mut found_groups: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for (i, &l) in label.iter().enumerate() {
        found_groups.entry(l).or_default().insert(i);
    }
    let recovered = members
        .values()
        .filter(|m| {
            found_groups
                .get(&label[m[0]])
                .is_some_and(|c| c.len() == m.len() && m.iter().all(|i| c.contains(i)))
        })
        .count();
    // Documents: judged a copy when in a found pair; truly one when their group has another member.
    let in_pair: BTreeSet<usize> = found.iter().flat_map(|&(a, b)| [a, b]).collect();
    let right = (0..groups.len())
        .filter(|&i| {
            let truly = groups[i].is_some_and(|g| members.get(g).is_some_and(|m| m.len() > 1));
            truly == in_pair.contains(&i)
        })
        .count();
    let mut r = row(method, threshold, (tp, fp, fn_, 0), Some(recovered), ms);
    r.dedup_rate = ratio(right, groups.len());
    r
}

fn ratio(n: usize, d: usize) -> f64 {
    if d == 0 {
        0.0
    } else {
        n as f64 / d as f64
    }
}

fn row(
    method: Method,
    threshold: f64,
    (tp, fp, fn_, tn): (usize, usize, usize, usize),
    groups_recovered: Option<usize>,
    ms_per_document: f64,
) -> EvalRow {
    let precision = ratio(tp, tp + fp);
    let recall = ratio(tp, tp + fn_);
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    EvalRow {
        method: method.name(),
        threshold,
        default: (threshold - method.default_threshold()).abs() < 1e-9,
        precision,
        recall,
        f1,
        dedup_rate: ratio(tp + tn, tp + fp + fn_ + tn),
        groups_recovered,
        by_label: BTreeMap::new(),
        ms_per_document,
    }
}

impl EvalReport {
    /// The table as text, a row per method and threshold (`*` marks each method's default).
    fn render_text(&self) -> String {
        let mut out = format!(
            "{} ({}): {} documents, {} {}\n\n{:<15} {:>9} {:>9} {:>7} {:>7} {:>7} {:>7}{} {:>9}\n",
            self.benchmark,
            self.kind,
            self.documents,
            self.positives,
            if self.kind == "duplicates" {
                "duplicate groups"
            } else {
                "copied paragraphs"
            },
            "method",
            "threshold",
            "precision",
            "recall",
            "F1",
            "dedup",
            "",
            if self.kind == "duplicates" {
                "  groups"
            } else {
                ""
            },
            "ms/doc",
        );
        for r in &self.rows {
            out += &format!(
                "{:<15} {:>8.2}{} {:>9.3} {:>7.3} {:>7.3} {:>7.3} {:>7}{} {:>9.2}\n",
                r.method,
                r.threshold,
                if r.default { "*" } else { " " },
                r.precision,
                r.recall,
                r.f1,
                r.dedup_rate,
                "",
                r.groups_recovered
                    .map(|g| format!(" {g:>4}/{:<3}", self.positives))
                    .unwrap_or_default(),
                r.ms_per_document,
            );
        }
        // Each method's default row by label.
        let defaults: Vec<&EvalRow> = self
            .rows
            .iter()
            .filter(|r| r.default && !r.by_label.is_empty())
            .collect();
        if !defaults.is_empty() {
            out += "\nflagged share by label at each method's default (recall; false positives for clean labels)\n";
            for r in defaults {
                let labels: Vec<String> = r
                    .by_label
                    .iter()
                    .map(|(l, f)| match f.right_source {
                        Some(r) => format!(
                            "{l} {:.3} ({}; right source {r:.3})",
                            f.flagged, f.paragraphs
                        ),
                        None => format!("{l} {:.3} ({})", f.flagged, f.paragraphs),
                    })
                    .collect();
                out += &format!("{:<15} {}\n", r.method, labels.join(", "));
            }
        }
        out
    }
}

impl Render for EvalReport {
    const WHAT: &'static str = "an evaluation";
    const FORMATS: &'static [OutputFormat] = &[OutputFormat::Text, OutputFormat::Json];

    /// The table has no words to translate: `lang` is not used.
    fn render_as(&self, format: OutputFormat, _lang: Lang) -> Result<Vec<u8>> {
        match format {
            OutputFormat::Text => Ok(self.render_text().into_bytes()),
            _ => Err(crate::report::not_meant::<Self>(format)),
        }
    }
}
