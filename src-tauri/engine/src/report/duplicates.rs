//! Near-duplicates inside the library (`tongwen library duplicates`): the library compared with itself,
//! as a class is, its documents (or paragraphs) grouped when they are near copies of each other.
//!
//! - **Document level**: two documents are a pair when the larger of their two shares copied from each
//!   other (`max(a_ratio, b_ratio)`, the class comparison's ratios: containment, so a document inside a
//!   longer one is a copy of it) reaches the threshold; groups are the connected components of pairs.
//! - **Paragraph level**: two paragraphs of different documents are a pair when the larger of their two
//!   similarities (the share of each paragraph copied from the other) reaches the threshold; groups
//!   are connected components of such paragraphs.
//!
//! Template documents take part as templates (their text is never shared); groups are listed largest
//! first, members by id.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::html::{escape, STYLE};
use super::{round4, Lang};
use crate::check::Method;
use crate::class::{components, ClassRun};

/// What is grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Document,
    Paragraph,
}

/// A library document as the comparison saw it.
#[derive(Debug, Clone)]
pub struct Compared {
    pub id: i64,
    pub title: String,
    pub path: String,
}

/// Groups of near-duplicates.
#[derive(Debug, Clone, Serialize)]
pub struct DuplicatesReport {
    pub tool: &'static str,
    pub version: &'static str,
    pub level: Level,
    /// The comparison method: `verified` (the shared passages of a class comparison) or a seed
    /// method's name.
    pub method: &'static str,
    pub threshold: f64,
    /// Library documents compared (template documents aside).
    pub documents: usize,
    pub groups: Vec<Group>,
}

/// One group of near-duplicates.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    pub members: Vec<Member>,
    /// Every pair of members at or above the threshold.
    pub pairs: Vec<GroupPair>,
}

/// A document (or, at paragraph level, one of its paragraphs).
#[derive(Debug, Clone, Serialize)]
pub struct Member {
    /// The library document's id.
    pub id: i64,
    pub title: String,
    pub path: String,
    /// At paragraph level: the paragraph's index (from 0) and its text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paragraph: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// Two members and how near they are: `a` and `b` are document ids (with their paragraphs at paragraph
/// level).
#[derive(Debug, Clone, Serialize)]
pub struct GroupPair {
    pub a: i64,
    pub b: i64,
    pub similarity: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a_paragraph: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b_paragraph: Option<usize>,
}

/// A node of the grouping: a document, or one paragraph of it.
pub type Node = (usize, Option<usize>);

/// Two nodes and their similarity.
pub type Edge = (Node, Node, f64);

impl DuplicatesReport {
    /// Group the pairs of a comparison of `documents` (in the comparison's order) at `threshold`.
    pub fn build(level: Level, threshold: f64, documents: &[Compared], run: &ClassRun) -> Self {
        // Edges between nodes, with their similarity.
        let mut edges: Vec<Edge> = Vec::new();
        let mut texts: BTreeMap<Node, String> = BTreeMap::new();
        for pair in &run.pairs {
            match level {
                Level::Document => {
                    let similarity = round4(pair.max_ratio());
                    if similarity >= threshold - 1e-9 {
                        edges.push(((pair.a_index, None), (pair.b_index, None), similarity));
                    }
                }
                Level::Paragraph => {
                    for m in &pair.matches {
                        let similarity = round4(m.similarity.max(m.b_similarity));
                        if similarity >= threshold - 1e-9 {
                            let a = (pair.a_index, Some(m.a_paragraph));
                            let b = (pair.b_index, Some(m.b_paragraph));
                            texts.entry(a).or_insert_with(|| m.a_text.clone());
                            texts.entry(b).or_insert_with(|| m.b_text.clone());
                            edges.push((a, b, similarity));
                        }
                    }
                }
            }
        }
        Self::group(level, Method::Verified, threshold, documents, edges, &texts)
    }

    /// Group the pairs a seed method found among `documents` (each paragraph's text in `paragraphs`,
    /// same order) at `threshold`.
    pub fn from_edges(
        level: Level,
        method: Method,
        threshold: f64,
        documents: &[Compared],
        paragraphs: &[Vec<String>],
        edges: Vec<Edge>,
    ) -> Self {
        let edges: Vec<Edge> = edges
            .into_iter()
            .map(|(a, b, s)| (a, b, round4(s)))
            .collect();
        let mut texts: BTreeMap<Node, String> = BTreeMap::new();
        for &(a, b, _) in &edges {
            for (d, p) in [a, b] {
                if let Some(text) = p.and_then(|i| paragraphs.get(d)?.get(i)) {
                    texts.entry((d, p)).or_insert_with(|| text.clone());
                }
            }
        }
        Self::group(level, method, threshold, documents, edges, &texts)
    }

    fn group(
        level: Level,
        method: Method,
        threshold: f64,
        documents: &[Compared],
        edges: Vec<Edge>,
        texts: &BTreeMap<Node, String>,
    ) -> Self {
        // Connected components (union–find over the nodes that have an edge).
        let nodes: Vec<Node> = {
            let mut n: Vec<Node> = edges.iter().flat_map(|&(a, b, _)| [a, b]).collect();
            n.sort_unstable();
            n.dedup();
            n
        };
        let at = |x: &Node| nodes.binary_search(x).unwrap_or(0);
        let label = components(nodes.len(), edges.iter().map(|(a, b, _)| (at(a), at(b))));
        let mut components: BTreeMap<usize, (Vec<Node>, Vec<Edge>)> = BTreeMap::new();
        for (i, node) in nodes.iter().enumerate() {
            components.entry(label[i]).or_default().0.push(*node);
        }
        for edge in &edges {
            components
                .entry(label[at(&edge.0)])
                .or_default()
                .1
                .push(*edge);
        }
        let member = |(d, p): Node| {
            let doc = documents.get(d);
            Member {
                id: doc.map_or(-1, |c| c.id),
                title: doc.map(|c| c.title.clone()).unwrap_or_default(),
                path: doc.map(|c| c.path.clone()).unwrap_or_default(),
                paragraph: p,
                text: p.and_then(|_| texts.get(&(d, p)).cloned()),
            }
        };
        let id_of = |d: usize| documents.get(d).map_or(-1, |c| c.id);
        let mut groups: Vec<Group> = components
            .into_values()
            .map(|(members, pairs)| {
                let mut members: Vec<Member> = members.into_iter().map(member).collect();
                members.sort_by_key(|m| (m.id, m.paragraph));
                let mut pairs: Vec<GroupPair> = pairs
                    .into_iter()
                    .map(|((da, pa), (db, pb), similarity)| GroupPair {
                        a: id_of(da),
                        b: id_of(db),
                        similarity,
                        a_paragraph: pa,
                        b_paragraph: pb,
                    })
                    .collect();
                pairs.sort_by(|x, y| {
                    y.similarity
                        .total_cmp(&x.similarity)
                        .then((x.a, x.b).cmp(&(y.a, y.b)))
                });
                Group { members, pairs }
            })
            .collect();
        groups.sort_by(|x, y| {
            y.members
                .len()
                .cmp(&x.members.len())
                .then(x.members[0].id.cmp(&y.members[0].id))
        });
        DuplicatesReport {
            tool: "tongwen",
            version: crate::VERSION,
            level,
            method: method.name(),
            threshold,
            documents: documents.len(),
            groups,
        }
    }

    /// The groups as text: each member on a line, then its pairs.
    pub(crate) fn render_text(&self, lang: Lang) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}",
            match lang {
                Lang::En => format!(
                    "{} group(s) of near-duplicate {} at {:.2} among {} documents",
                    self.groups.len(),
                    self.level_name(lang),
                    self.threshold,
                    self.documents
                ),
                Lang::Zh => format!(
                    "{} 个文档中，相似度不低于 {:.2} 的{}共 {} 组",
                    self.documents,
                    self.threshold,
                    self.level_name(lang),
                    self.groups.len()
                ),
            }
        );
        for (i, g) in self.groups.iter().enumerate() {
            let _ = writeln!(out, "\n{} {}", lang.pick("group", "组"), i + 1);
            for m in &g.members {
                let _ = writeln!(
                    out,
                    "  #{}{}  {}  ({})",
                    m.id,
                    m.paragraph
                        .map(|p| format!(" ¶{}", p + 1))
                        .unwrap_or_default(),
                    super::text::printable(&m.title),
                    super::text::printable(&m.path)
                );
            }
            for p in &g.pairs {
                let _ = writeln!(
                    out,
                    "    #{}{} ~ #{}{}  {:.1}%",
                    p.a,
                    p.a_paragraph
                        .map(|x| format!(" ¶{}", x + 1))
                        .unwrap_or_default(),
                    p.b,
                    p.b_paragraph
                        .map(|x| format!(" ¶{}", x + 1))
                        .unwrap_or_default(),
                    p.similarity * 100.0
                );
            }
        }
        out
    }

    /// The groups as a self-contained HTML page (every document text escaped).
    pub(crate) fn render_html(&self, lang: Lang) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
             <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
            lang.code(),
            lang.pick("Tongwen: duplicates in the library", "同文：文库中的重复"),
            lang.pick("Near-duplicates in the library", "文库中的近似重复"),
        );
        let _ = writeln!(
            out,
            "<p class=\"meta\">{}</p>",
            escape(self.render_text(lang).lines().next().unwrap_or_default())
        );
        for (i, g) in self.groups.iter().enumerate() {
            let _ = writeln!(
                out,
                "<h2>{} {}</h2>\n<table>\n<tr><th>#</th><th>{}</th><th>{}</th></tr>",
                lang.pick("Group", "组"),
                i + 1,
                lang.pick("Title", "标题"),
                lang.pick("Text or path", "文字或路径"),
            );
            for m in &g.members {
                let _ = writeln!(
                    out,
                    "<tr><td>{}{}</td><td>{}</td><td>{}</td></tr>",
                    m.id,
                    m.paragraph
                        .map(|p| format!(" ¶{}", p + 1))
                        .unwrap_or_default(),
                    escape(&m.title),
                    escape(m.text.as_deref().unwrap_or(&m.path)),
                );
            }
            out.push_str("</table>\n<ul>\n");
            for p in &g.pairs {
                let _ = writeln!(
                    out,
                    "<li>#{} ~ #{}: <span class=\"sim\">{}</span></li>",
                    p.a,
                    p.b,
                    super::html::pct(p.similarity)
                );
            }
            out.push_str("</ul>\n");
        }
        out.push_str("</body>\n</html>\n");
        out
    }

    fn level_name(&self, lang: Lang) -> &'static str {
        match (self.level, lang) {
            (Level::Document, Lang::En) => "documents",
            (Level::Paragraph, Lang::En) => "paragraphs",
            (Level::Document, Lang::Zh) => "文档",
            (Level::Paragraph, Lang::Zh) => "段落",
        }
    }
}
