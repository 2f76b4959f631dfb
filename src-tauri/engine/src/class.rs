//! A class compared with itself (`tongwen compare`, the app's Class view): every submission against every
//! other, with the matching of a check (shingle shortlist + span alignment, the same minimum passage
//! lengths), on an in-memory index of the submissions instead of N² full alignments.
//!
//! - Every submission paragraph is fingerprinted once into one [`Index`]; each submission is then checked
//!   against it with its own paragraphs left out ([`Checker::check_excluding`]). Candidates' texts come
//!   from memory ([`Sources`]), not from a library.
//! - A pair's passages are gathered from both sides (a's check finds b, b's check finds a) and merged, so
//!   a limit of the shortlist on one side does not lose a pair.
//! - **Template text** (the assignment prompt, the school's cover page) is never shared: its shingle keys
//!   are left out of the index; in each submission the passages that align with a template are masked;
//!   a shared passage at least half inside the mask on either side is dropped, and a passage's characters
//!   inside the mask never count. Ratios count non-whitespace characters outside the mask.
//! - A pair is reported at a threshold when some paragraph of either document is shared at least that
//!   much ([`Pair::listed`], the check's rule for flagging a paragraph); then every passage the two share
//!   counts in its ratios, whatever its paragraph's share. Groups are the connected components of the
//!   reported pairs ([`clusters`]), whatever their ratios: a student who copied one paragraph in seven
//!   of a classmate's essay is in the classmate's group.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashSet;
use serde::Serialize;

use crate::check::{CheckSettings, Checker, Index, ParagraphResult};
use crate::error::{Error, ErrorInfo, Result};
use crate::fingerprint::Fingerprinter;
use crate::library::{FlatPrints, Role, SourceParagraph, Sources};
use crate::text::utf16_range;

/// A submitted file as read: its paragraphs, or why it could not be read.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The file as the user named it.
    pub file: String,
    pub paragraphs: std::result::Result<Vec<String>, Arc<Error>>,
}

/// One submission of a class.
#[derive(Debug, Clone, Serialize)]
pub struct ClassDocument {
    pub file: String,
    pub paragraphs: usize,
    /// Non-whitespace characters outside template text.
    pub chars: usize,
    /// Non-whitespace characters of template text (never counted as shared).
    pub template_chars: usize,
    /// Why the file could not be read, in English ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// ... and as a kind with its parameters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_info: Option<ErrorInfo>,
}

/// Two submissions that share text. `a` comes before `b` in the input order.
#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    pub a: String,
    pub b: String,
    /// Share of a's characters (non-whitespace, template excluded) in passages shared with b.
    pub a_ratio: f64,
    pub b_ratio: f64,
    /// Those characters.
    pub a_copied: usize,
    pub b_copied: usize,
    pub matches: Vec<PairMatch>,
    /// Positions of `a` and `b` in [`ClassRun::documents`].
    #[serde(skip)]
    pub a_index: usize,
    #[serde(skip)]
    pub b_index: usize,
}

impl Pair {
    /// The larger of the two ratios: what sorts pairs and forms groups.
    pub fn max_ratio(&self) -> f64 {
        self.a_ratio.max(self.b_ratio)
    }

    /// Whether the pair is reported at `threshold`: when some paragraph of either document is shared at
    /// least that much with a paragraph of the other (the rule that flags a paragraph in a check). Then
    /// every shared passage counts in the ratios; two essays on one topic that only share a phrase here
    /// and there (a manual's "the exit status of the last command") are not a pair.
    pub fn listed(&self, threshold: f64) -> bool {
        self.matches
            .iter()
            .any(|m| m.similarity.max(m.b_similarity) >= threshold - 1e-9)
    }
}

/// Two paragraphs that share passages.
#[derive(Debug, Clone, Serialize)]
pub struct PairMatch {
    /// Paragraph indexes (0-based) in a and in b.
    pub a_paragraph: usize,
    pub b_paragraph: usize,
    /// Share of a's paragraph (non-whitespace, template excluded) in these passages ...
    pub similarity: f64,
    /// ... and of b's paragraph.
    pub b_similarity: f64,
    pub a_text: String,
    pub b_text: String,
    pub spans: Vec<PairSpan>,
}

/// A shared passage: `[start, end)` in Unicode scalar values of each paragraph, and the same in UTF-16
/// code units (for JavaScript).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PairSpan {
    pub a: [usize; 2],
    pub b: [usize; 2],
    pub a_utf16: [usize; 2],
    pub b_utf16: [usize; 2],
}

/// A group of submissions connected by pairs at or above the threshold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cluster {
    /// In input order.
    pub files: Vec<String>,
    /// The largest ratio of a pair inside the group.
    pub max_ratio: f64,
}

/// What comparing a class found, at any threshold.
#[derive(Debug, Clone, Default)]
pub struct ClassRun {
    pub documents: Vec<ClassDocument>,
    /// Sorted by the larger ratio, largest first.
    pub pairs: Vec<Pair>,
}

/// Paragraphs held in memory, as the checker's [`Sources`]: document `d`'s paragraph `i` has id
/// `starts[d] + i`.
struct Memory<'a> {
    files: Vec<&'a str>,
    paragraphs: Vec<&'a [String]>,
    starts: Vec<i64>,
}

impl<'a> Memory<'a> {
    fn new(docs: impl IntoIterator<Item = (&'a str, &'a [String])>) -> Self {
        let mut memory = Memory {
            files: Vec::new(),
            paragraphs: Vec::new(),
            starts: Vec::new(),
        };
        let mut next = 0;
        for (file, paragraphs) in docs {
            memory.files.push(file);
            memory.paragraphs.push(paragraphs);
            memory.starts.push(next);
            next += paragraphs.len() as i64;
        }
        memory
    }

    /// Every paragraph's fingerprints, keys in `stop` left out.
    fn index(&self, fingerprinter: &Fingerprinter, stop: &FxHashSet<u32>) -> Index {
        let prints: Vec<(u64, Vec<u32>)> = self
            .paragraphs
            .par_iter()
            .flat_map_iter(|ps| ps.iter())
            .map(|text| {
                let print = fingerprinter.same_language(text);
                let keys = print
                    .shingles
                    .into_iter()
                    .filter(|k| !stop.contains(k))
                    .collect();
                (print.simhash, keys)
            })
            .collect();
        let mut flat = FlatPrints::default();
        let mut prints = prints.into_iter();
        for (d, ps) in self.paragraphs.iter().enumerate() {
            for i in 0..ps.len() {
                if let Some((simhash, keys)) = prints.next() {
                    flat.push(self.starts[d] + i as i64, d as i64, simhash, &keys);
                }
            }
        }
        Index::from_flat(flat)
    }
}

impl Sources for Memory<'_> {
    fn source_paragraphs(&self, ids: &[i64]) -> Result<HashMap<i64, SourceParagraph>> {
        Ok(ids
            .iter()
            .filter_map(|&id| {
                let d = self.starts.partition_point(|&s| s <= id).checked_sub(1)?;
                let index = (id - self.starts[d]) as usize;
                let text = self.paragraphs[d].get(index)?;
                let file = self.files[d];
                Some((
                    id,
                    SourceParagraph {
                        paragraph_id: id,
                        document_id: d as i64,
                        document_title: file.to_string(),
                        document_path: file.to_string(),
                        document_role: Role::Source,
                        document_author: None,
                        common: false,
                        index: index as u32,
                        text: text.clone(),
                    },
                ))
            })
            .collect())
    }
}

/// Character ranges of one paragraph.
type Ranges = Vec<[usize; 2]>;

/// Per character of `text`: inside one of `ranges`.
fn cover(text: &str, ranges: &[[usize; 2]]) -> Vec<bool> {
    let n = text.chars().count();
    let mut inside = vec![false; n];
    for r in ranges {
        let (a, b) = (r[0].min(n), r[1].min(n));
        if a < b {
            inside[a..b].iter_mut().for_each(|x| *x = true);
        }
    }
    inside
}

/// Non-whitespace characters of `text` inside `ranges` and outside `mask`.
fn count_outside(text: &str, ranges: &[[usize; 2]], mask: &[bool]) -> usize {
    let inside = cover(text, ranges);
    text.chars()
        .zip(inside)
        .enumerate()
        .filter(|&(i, (c, hit))| {
            hit && !c.is_whitespace() && !mask.get(i).copied().unwrap_or(false)
        })
        .count()
}

/// Whether at least half of the non-whitespace characters of `range` are inside `mask`.
fn mostly_masked(text: &str, range: [usize; 2], mask: &[bool]) -> bool {
    let (mut all, mut masked) = (0, 0);
    for (i, c) in text
        .chars()
        .enumerate()
        .skip(range[0])
        .take(range[1].saturating_sub(range[0]))
    {
        if !c.is_whitespace() {
            all += 1;
            masked += usize::from(mask.get(i).copied().unwrap_or(false));
        }
    }
    all > 0 && masked * 2 >= all
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The character ranges of each paragraph that any match covers.
fn covered(results: &[ParagraphResult]) -> Vec<Ranges> {
    results
        .iter()
        .map(|p| p.matches.iter().flat_map(|m| m.covered_ranges()).collect())
        .collect()
}

/// Shared passages of one pair of paragraphs (lower document first), from either side's check.
type Passages = BTreeMap<(usize, usize), Vec<([usize; 2], [usize; 2])>>;

/// Compare every submission with every other. `templates` are the paragraphs of template documents, whose
/// text is never counted as shared. `progress(done, total, document)` is called after each submission is
/// compared; `cancel` stops between submissions.
pub fn compare(
    submissions: &[Submission],
    templates: &[(String, Vec<String>)],
    fingerprinter: &Fingerprinter,
    settings: CheckSettings,
    progress: &mut dyn FnMut(usize, usize, usize),
    cancel: &AtomicBool,
) -> Result<ClassRun> {
    let empty: Vec<String> = Vec::new();
    let texts: Vec<&[String]> = submissions
        .iter()
        .map(|s| s.paragraphs.as_deref().unwrap_or(&empty))
        .collect();

    // 1. Template text: its keys, and each submission paragraph's passages aligned with it (the mask).
    let template_memory = Memory::new(templates.iter().map(|(f, p)| (f.as_str(), p.as_slice())));
    let template_index = template_memory.index(fingerprinter, &FxHashSet::default());
    let stop: FxHashSet<u32> = template_index.keys().collect();
    let masks: Vec<Vec<Vec<bool>>> = if templates.is_empty() {
        texts
            .iter()
            .map(|ps| ps.iter().map(|_| Vec::new()).collect())
            .collect()
    } else {
        let checker = Checker::new(&template_memory, &template_index, fingerprinter, settings);
        texts
            .iter()
            .map(|ps| {
                let found = checker.check(ps)?;
                Ok(ps
                    .iter()
                    .zip(covered(&found))
                    .map(|(text, ranges)| cover(text, &ranges))
                    .collect())
            })
            .collect::<Result<_>>()?
    };

    // 2. The submissions' index, template keys left out; each submission checked against the others.
    let files: Vec<&str> = submissions.iter().map(|s| s.file.as_str()).collect();
    let memory = Memory::new(files.iter().copied().zip(texts.iter().copied()));
    let index = memory.index(fingerprinter, &stop);
    // A paragraph shared by many classmates is matched with every candidate the shortlist gives (a check
    // keeps only the best few per paragraph).
    let class_settings = CheckSettings {
        keep: settings.keep.max(settings.candidates),
        ..settings
    };
    let checker = Checker::new(&memory, &index, fingerprinter, class_settings);
    let mut passages: HashMap<(usize, usize), Passages> = HashMap::new();
    for (a, paragraphs) in texts.iter().enumerate() {
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        let results = checker.check_excluding(paragraphs, Some(a as i64))?;
        for (a_paragraph, result) in results.iter().enumerate() {
            for m in &result.matches {
                let b = m.source.document_id as usize;
                let b_paragraph = m.source.index as usize;
                for span in m.spans() {
                    let (key, paragraphs, ranges) = if a < b {
                        (
                            (a, b),
                            (a_paragraph, b_paragraph),
                            (span.submission, span.source),
                        )
                    } else {
                        (
                            (b, a),
                            (b_paragraph, a_paragraph),
                            (span.source, span.submission),
                        )
                    };
                    passages
                        .entry(key)
                        .or_default()
                        .entry(paragraphs)
                        .or_default()
                        .push(ranges);
                }
            }
        }
        progress(a + 1, texts.len(), a);
    }

    // 3. Documents and pairs.
    let documents: Vec<ClassDocument> = submissions
        .iter()
        .zip(&masks)
        .map(|(s, mask)| {
            let (chars, template_chars) = match &s.paragraphs {
                Ok(ps) => ps.iter().zip(mask).fold((0, 0), |(c, t), (text, m)| {
                    let all = count_outside(text, &[[0, usize::MAX]], &[]);
                    let outside = count_outside(text, &[[0, usize::MAX]], m);
                    (c + outside, t + all - outside)
                }),
                Err(_) => (0, 0),
            };
            ClassDocument {
                file: s.file.clone(),
                paragraphs: s.paragraphs.as_ref().map_or(0, Vec::len),
                chars,
                template_chars,
                error: s.paragraphs.as_ref().err().map(|e| e.to_string()),
                error_info: s.paragraphs.as_ref().err().map(|e| e.info()),
            }
        })
        .collect();
    let mut pairs: Vec<Pair> = passages
        .into_iter()
        .filter_map(|((a, b), shared)| pair(a, b, shared, &texts, &masks, &documents))
        .collect();
    pairs.sort_by(|x, y| {
        y.max_ratio()
            .total_cmp(&x.max_ratio())
            .then(x.a_index.cmp(&y.a_index))
            .then(x.b_index.cmp(&y.b_index))
    });
    Ok(ClassRun { documents, pairs })
}

/// The pair of documents `a` < `b` from their shared passages; `None` when nothing outside template text
/// is shared.
fn pair(
    a: usize,
    b: usize,
    shared: Passages,
    texts: &[&[String]],
    masks: &[Vec<Vec<bool>>],
    documents: &[ClassDocument],
) -> Option<Pair> {
    let mut matches = Vec::new();
    let mut a_ranges: BTreeMap<usize, Ranges> = BTreeMap::new();
    let mut b_ranges: BTreeMap<usize, Ranges> = BTreeMap::new();
    for ((ap, bp), mut spans) in shared {
        let (a_text, b_text) = (&texts[a][ap], &texts[b][bp]);
        let (a_mask, b_mask) = (&masks[a][ap], &masks[b][bp]);
        spans.sort_unstable();
        spans.dedup();
        spans.retain(|&(x, y)| {
            !mostly_masked(a_text, x, a_mask) && !mostly_masked(b_text, y, b_mask)
        });
        if spans.is_empty() {
            continue;
        }
        let on_a: Ranges = spans.iter().map(|s| s.0).collect();
        let on_b: Ranges = spans.iter().map(|s| s.1).collect();
        let share = |text: &str, ranges: &[[usize; 2]], mask: &[bool]| {
            let total = count_outside(text, &[[0, usize::MAX]], mask);
            if total == 0 {
                0.0
            } else {
                round4(count_outside(text, ranges, mask) as f64 / total as f64)
            }
        };
        let similarity = share(a_text, &on_a, a_mask);
        let b_similarity = share(b_text, &on_b, b_mask);
        a_ranges.entry(ap).or_default().extend(on_a);
        b_ranges.entry(bp).or_default().extend(on_b);
        matches.push(PairMatch {
            a_paragraph: ap,
            b_paragraph: bp,
            similarity,
            b_similarity,
            a_text: a_text.clone(),
            b_text: b_text.clone(),
            spans: spans
                .iter()
                .map(|&(x, y)| PairSpan {
                    a: x,
                    b: y,
                    a_utf16: utf16_range(a_text, x),
                    b_utf16: utf16_range(b_text, y),
                })
                .collect(),
        });
    }
    let copied = |doc: usize, ranges: &BTreeMap<usize, Ranges>| -> usize {
        ranges
            .iter()
            .map(|(&p, r)| count_outside(&texts[doc][p], r, &masks[doc][p]))
            .sum()
    };
    let (a_copied, b_copied) = (copied(a, &a_ranges), copied(b, &b_ranges));
    if a_copied == 0 && b_copied == 0 {
        return None;
    }
    let ratio = |c: usize, total: usize| {
        if total == 0 {
            0.0
        } else {
            round4(c as f64 / total as f64)
        }
    };
    Some(Pair {
        a: documents[a].file.clone(),
        b: documents[b].file.clone(),
        a_ratio: ratio(a_copied, documents[a].chars),
        b_ratio: ratio(b_copied, documents[b].chars),
        a_copied,
        b_copied,
        matches,
        a_index: a,
        b_index: b,
    })
}

/// The connected components of `n` nodes joined by `edges`: each node's label is the smallest node of
/// its component (union–find). Used wherever pairs are grouped (class clusters, library duplicates,
/// `eval`).
pub fn components(n: usize, edges: impl IntoIterator<Item = (usize, usize)>) -> Vec<usize> {
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut parent: Vec<usize> = (0..n).collect();
    for (a, b) in edges {
        let (x, y) = (root(&mut parent, a), root(&mut parent, b));
        // The smaller root stays: a component's root is its smallest node.
        parent[x.max(y)] = x.min(y);
    }
    (0..n).map(|x| root(&mut parent, x)).collect()
}

/// How [`clusters`] groups submissions, as the reports say it ([`crate::report::class::ClassReport`]).
pub const GROUPED_BY: &str = "listed_pairs";

/// The groups at `threshold`: connected components (of two or more documents) of the pairs listed at it
/// ([`Pair::listed`]), whatever their ratios, largest ratio first. A share of 15 % still joins a group:
/// a teacher reads the groups first, and collusion is often a paragraph or two.
pub fn clusters(run: &ClassRun, threshold: f64) -> Vec<Cluster> {
    let listed: Vec<&Pair> = run.pairs.iter().filter(|p| p.listed(threshold)).collect();
    let label = components(
        run.documents.len(),
        listed.iter().map(|p| (p.a_index, p.b_index)),
    );
    let mut groups: BTreeMap<usize, Cluster> = BTreeMap::new();
    for p in &listed {
        let group = groups.entry(label[p.a_index]).or_insert_with(|| Cluster {
            files: Vec::new(),
            max_ratio: 0.0,
        });
        group.max_ratio = group.max_ratio.max(p.max_ratio());
    }
    for (d, doc) in run.documents.iter().enumerate() {
        if let Some(group) = groups.get_mut(&label[d]) {
            group.files.push(doc.file.clone());
        }
    }
    let mut out: Vec<Cluster> = groups.into_values().collect();
    out.sort_by(|x, y| y.max_ratio.total_cmp(&x.max_ratio));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_label_each_node_by_its_smallest_member() {
        assert_eq!(components(6, [(3, 1), (4, 3), (5, 2)]), [0, 1, 2, 1, 1, 2]);
        assert_eq!(components(3, []), [0, 1, 2]);
        assert_eq!(components(3, [(2, 2), (2, 0)]), [0, 1, 0]);
    }

    const A: &str = "软件包维护者应当定期检查错误报告，及时回复用户提出的问题，并在新版本发布之前完成全部测试工作。";
    const B: &str =
        "自由软件的精神在于分享与协作，每一位贡献者都可以阅读源代码、提出修改建议并参与讨论。";
    const C: &str =
        "图形界面的设计需要兼顾美观与效率，良好的快捷键布局可以显著减少用户的操作步骤和等待时间。";
    const T: &str = "本人郑重声明：所呈交的课程论文是本人在导师指导下独立完成的，文中引用他人成果之处均已注明出处。";

    fn submission(file: &str, paragraphs: &[&str]) -> Submission {
        Submission {
            file: file.into(),
            paragraphs: Ok(paragraphs.iter().map(|p| p.to_string()).collect()),
        }
    }

    fn run(subs: &[Submission], templates: &[(String, Vec<String>)]) -> ClassRun {
        compare(
            subs,
            templates,
            &Fingerprinter::new(),
            CheckSettings::default(),
            &mut |_, _, _| {},
            &AtomicBool::new(false),
        )
        .unwrap()
    }

    #[test]
    fn finds_the_shared_paragraph_from_both_sides_and_never_a_document_with_itself() {
        let subs = [
            submission("x.txt", &[A, B]),
            submission("y.txt", &[C, A]),
            submission("z.txt", &[C.replace('图', "画").as_str(), "短"]),
            Submission {
                file: "bad.pdf".into(),
                paragraphs: Err(Arc::new(Error::Cancelled)),
            },
        ];
        let found = run(&subs, &[]);
        let names: Vec<(&str, &str)> = found
            .pairs
            .iter()
            .map(|p| (p.a.as_str(), p.b.as_str()))
            .collect();
        assert_eq!(names, [("y.txt", "z.txt"), ("x.txt", "y.txt")]);
        let xy = &found.pairs[1];
        let (a_chars, b_chars) = (found.documents[0].chars, found.documents[1].chars);
        let a_len = crate::text::non_ws_chars(A);
        assert_eq!(xy.a_copied, a_len);
        assert_eq!(xy.b_copied, a_len);
        assert_eq!(xy.a_ratio, round4(a_len as f64 / a_chars as f64));
        assert_eq!(xy.b_ratio, round4(a_len as f64 / b_chars as f64));
        assert_eq!(
            (
                xy.matches.len(),
                xy.matches[0].a_paragraph,
                xy.matches[0].b_paragraph
            ),
            (1, 0, 1)
        );
        assert_eq!(xy.matches[0].similarity, 1.0);
        assert!(found.documents[3].error_info.is_some());
        // Every pair is above 0.3 and connects all three readable files.
        assert_eq!(
            clusters(&found, 0.3),
            [Cluster {
                files: vec!["x.txt".into(), "y.txt".into(), "z.txt".into()],
                max_ratio: found.pairs[0].max_ratio()
            }]
        );
        // A listed pair joins a group whatever its ratios: above x–y's ratios (but not above its
        // paragraph's share) x and y still make a group.
        let above = xy.max_ratio() + 0.01;
        assert!(above < 1.0 && xy.listed(above));
        assert!(clusters(&found, above)
            .iter()
            .any(|c| c.files.contains(&"x.txt".to_string())
                && c.files.contains(&"y.txt".to_string())));
    }

    #[test]
    fn template_text_is_neither_shared_nor_counted() {
        let template = vec![("t.txt".to_string(), vec![T.to_string()])];
        let subs = [
            submission("x.txt", &[T, A]),
            submission("y.txt", &[T, B]),
            submission("z.txt", &[T, C, &format!("{A}{C}")]),
        ];
        let without = run(&subs, &[]);
        assert_eq!(without.pairs.len(), 3, "every file shares the template");
        let found = run(&subs, &template);
        let names: Vec<(&str, &str)> = found
            .pairs
            .iter()
            .map(|p| (p.a.as_str(), p.b.as_str()))
            .collect();
        assert_eq!(names, [("x.txt", "z.txt")]);
        let t = crate::text::non_ws_chars(T);
        assert_eq!(found.documents[0].template_chars, t);
        assert_eq!(found.documents[0].chars, crate::text::non_ws_chars(A));
        assert_eq!(found.pairs[0].a_ratio, 1.0);
    }
}
