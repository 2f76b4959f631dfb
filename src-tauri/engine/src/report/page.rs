//! What a rendered report says, in order, before it is drawn: the HTML page and the PDF are both drawn
//! from these blocks, so they show the same figures, sources and passages.
//!
//! A document's part reads the way CNKI reports are read: the headline total ratio (总文字复制比), the
//! ratios without cited text and without the writer's own work, the largest single source, the copied
//! and total characters, the share of each kind of passage, a bar per chapter, the sources with their
//! shares, then every paragraph with its passages coloured by kind and each flagged paragraph beside
//! its library paragraphs.

use super::{DocumentReport, Lang, MatchReport, Report, SpanKind};

/// A share as a percentage with one decimal (`35.0%`).
pub(crate) fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// How a run of text is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A passage of this kind in a submission paragraph.
    Kind(SpanKind),
    /// The same below the threshold (drawn lighter).
    Light(SpanKind),
    /// The copied passage in a library paragraph.
    Source,
    /// An aligned sentence of a translation, on either side: pair colour `0..PAIR_COLOURS`, the same
    /// on both sides.
    Pair(u8),
    /// The citation that excuses a quoted passage (why it is `quoted`).
    Citation,
}

/// Colours the aligned sentence pairs of a translation cycle through.
pub const PAIR_COLOURS: u8 = 6;

/// A stretch of text with one mark (or none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub text: String,
    pub mark: Option<Mark>,
    /// A copied passage in quotation marks without a citation.
    pub in_quotes: bool,
}

/// How a paragraph stands in the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Plain,
    /// At or above the threshold.
    Flagged,
    /// Copied passages below the threshold.
    Passage,
}

/// A table cell: a line and an optional second, smaller one.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub text: String,
    pub sub: Option<String>,
}

/// One block of a report.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Title(String),
    Meta(String),
    /// A submitted document's heading (its file).
    Section(String),
    Error(String),
    /// The headline ratio and what it is.
    Headline {
        ratio: String,
        label: String,
    },
    /// Label, value.
    Figures(Vec<(String, String)>),
    /// Each kind's colour and its label with its share.
    Legend(Vec<(SpanKind, String)>),
    /// A caption and a bar per row: label, fraction in [0, 1], value as text.
    Bars {
        caption: String,
        rows: Vec<(String, f64, String)>,
    },
    Table {
        header: Vec<String>,
        rows: Vec<Vec<Cell>>,
    },
    Para {
        label: String,
        runs: Vec<Run>,
        tone: Tone,
        note: Option<String>,
    },
    /// A submission paragraph beside a library paragraph.
    Pair {
        heads: [String; 2],
        texts: [Vec<Run>; 2],
    },
}

/// Split `text` into runs by the marks of `ranges` (`[start, end)` in characters; a character in
/// several ranges takes the first one's).
pub fn runs(text: &str, ranges: &[([usize; 2], Mark, bool)]) -> Vec<Run> {
    let n = text.chars().count();
    let mut marks: Vec<Option<(Mark, bool)>> = vec![None; n];
    for &(r, m, q) in ranges.iter().rev() {
        let (a, b) = (r[0].min(n), r[1].min(n));
        marks[a..b.max(a)]
            .iter_mut()
            .for_each(|x| *x = Some((m, q)));
    }
    let mut out: Vec<Run> = Vec::new();
    for (c, here) in text.chars().zip(marks) {
        match out.last_mut() {
            Some(run)
                if (run.mark, run.in_quotes) == (here.map(|h| h.0), here.is_some_and(|h| h.1)) =>
            {
                run.text.push(c)
            }
            _ => out.push(Run {
                text: c.to_string(),
                mark: here.map(|h| h.0),
                in_quotes: here.is_some_and(|h| h.1),
            }),
        }
    }
    out
}

/// The blocks of a whole report in `lang`.
pub fn build(report: &Report, lang: Lang) -> Vec<Block> {
    let l = |en: &str, zh: &str| lang.pick(en, zh).to_string();
    let mut out = vec![
        Block::Title(l(
            "同文 Tongwen — similarity report",
            "同文 Tongwen — 文字复制检测报告",
        )),
        Block::Meta(format!(
            "Tongwen {} · {} {} · {} {:.2} · {} {}{}",
            report.version,
            l("method", "方法"),
            lang.method(report.method),
            l("threshold", "阈值"),
            report.threshold,
            report.documents.len(),
            l("document(s)", "份文档"),
            excluded(report, lang),
        )),
    ];
    for doc in &report.documents {
        document(&mut out, doc, lang);
    }
    out
}

/// " · without quotations, references" when the user left kinds out of the similarity ratio.
fn excluded(report: &Report, lang: Lang) -> String {
    if report.exclude.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = report.exclude.iter().map(|&k| kind_name(k, lang)).collect();
    format!(
        " · {}{}",
        lang.pick("excluded: ", "已排除："),
        names.join(lang.pick(", ", "、"))
    )
}

/// The name of a kind of passage.
pub fn kind_name(kind: SpanKind, lang: Lang) -> &'static str {
    match kind {
        SpanKind::Copied => lang.pick("plain copying", "复制"),
        SpanKind::Quoted => lang.pick("cited quotations", "引用"),
        SpanKind::Reference => lang.pick("references section", "参考文献"),
        SpanKind::Own => lang.pick("own earlier work", "本人已发表文献"),
        SpanKind::Template => lang.pick("template (not counted)", "模板（不计入）"),
    }
}

fn document(out: &mut Vec<Block>, doc: &DocumentReport, lang: Lang) {
    let l = |en: &str, zh: &str| lang.pick(en, zh).to_string();
    out.push(Block::Section(doc.file.clone()));
    if let Some(e) = &doc.error {
        let why = doc.error_info.as_ref().map_or(e.clone(), |i| lang.error(i));
        out.push(Block::Error(format!(
            "{}{why}",
            l("Not checked: ", "未检测：")
        )));
        return;
    }
    out.push(Block::Headline {
        ratio: pct(doc.total_ratio),
        label: l("total similarity (all copied text)", "总文字复制比"),
    });
    let mut figures = vec![
        (
            l("Without quotations and references", "去除引用文献复制比"),
            pct(doc.without_quotes_references_ratio),
        ),
        (
            l("Without own earlier work", "去除本人文献复制比"),
            pct(doc.without_own_ratio),
        ),
        (
            l("Largest single source", "单篇最大文字复制比"),
            pct(doc.largest_source_ratio),
        ),
        (
            l(
                "Similarity with the chosen exclusions",
                "排除所选类别后的复制比",
            ),
            pct(doc.similarity_ratio),
        ),
        (
            l("Copied characters / all characters", "重复字数 / 总字数"),
            format!("{} / {}", doc.copied_chars, doc.total_chars),
        ),
        (
            l("Paragraphs flagged", "标红段落"),
            format!("{} / {}", doc.flagged_paragraphs, doc.paragraphs.len()),
        ),
    ];
    if doc.translated_ratio > 0.0 {
        figures.insert(
            4,
            (
                l(
                    "Of which by translation (Chinese ↔ English)",
                    "其中翻译（中英互译）",
                ),
                pct(doc.translated_ratio),
            ),
        );
    }
    out.push(Block::Figures(figures));
    let k = &doc.kinds;
    out.push(Block::Legend(
        [
            (SpanKind::Copied, k.copied),
            (SpanKind::Quoted, k.quoted),
            (SpanKind::Reference, k.reference),
            (SpanKind::Own, k.own),
            (SpanKind::Template, k.template),
        ]
        .into_iter()
        .map(|(kind, share)| (kind, format!("{} {}", kind_name(kind, lang), pct(share))))
        .collect(),
    ));
    if !doc.chapters.is_empty() {
        out.push(Block::Bars {
            caption: l("By chapter (total similarity)", "各章节文字复制比"),
            rows: doc
                .chapters
                .iter()
                .map(|c| {
                    let title = if c.title.is_empty() {
                        format!(
                            "{} ¶{}–{}",
                            l("(before the first heading)", "（首个标题之前）"),
                            c.first_paragraph + 1,
                            c.first_paragraph + c.paragraphs
                        )
                    } else {
                        c.title.clone()
                    };
                    (
                        title,
                        c.total_ratio,
                        format!("{} · {} {}", pct(c.total_ratio), c.chars, l("chars", "字")),
                    )
                })
                .collect(),
        });
    }
    if !doc.sources.is_empty() {
        out.push(Block::Table {
            header: vec![
                l("Source", "来源"),
                l("Share", "占比"),
                l("Paragraphs", "段落数"),
            ],
            rows: doc
                .sources
                .iter()
                .map(|s| {
                    vec![
                        Cell {
                            text: s.source_title.clone(),
                            sub: Some(s.source_path.clone()),
                        },
                        Cell {
                            text: pct(s.ratio),
                            sub: None,
                        },
                        Cell {
                            text: s.paragraphs.to_string(),
                            sub: None,
                        },
                    ]
                })
                .collect(),
        });
    }
    // Citations standing in a block quotation's lead-in, by the lead-in paragraph's position.
    let mut lead_ins: Vec<Marked> = vec![Vec::new(); doc.paragraphs.len()];
    for (i, p) in doc.paragraphs.iter().enumerate().skip(1) {
        lead_ins[i - 1].extend(lead_in_citations(p));
    }
    for (p, lead_in) in doc.paragraphs.iter().zip(lead_ins) {
        let label = format!("¶{}", p.index + 1);
        if p.flagged {
            // Its matches' passages, then (lighter) those copied from sources below the threshold:
            // everything counted is marked and its source named.
            let mut all = lead_in;
            all.extend(kinded(&p.matches, false));
            all.extend(kinded(&p.passages, true));
            out.push(Block::Para {
                label,
                runs: runs(&p.text, &all),
                tone: Tone::Flagged,
                note: passages_note(&p.passages, &l),
            });
            for m in &p.matches {
                let (mine, src) = if m.cross_language {
                    paired(m)
                } else {
                    (
                        kinded(std::slice::from_ref(m), false),
                        m.spans
                            .iter()
                            .map(|s| (s.source, Mark::Source, false))
                            .collect(),
                    )
                };
                out.push(Block::Pair {
                    heads: [
                        format!("{} ¶{}", l("Submission", "送检文档"), p.index + 1),
                        format!(
                            "{} · {} ¶{}{}",
                            pct(m.similarity),
                            m.source_title,
                            m.source_paragraph + 1,
                            if m.cross_script {
                                l(" · Traditional ↔ Simplified", " · 繁简转换")
                            } else if m.cross_language {
                                l(
                                    " · translation (Chinese ↔ English): matching sentences share a colour",
                                    " · 翻译（中英互译）：对应句子颜色相同",
                                )
                            } else {
                                String::new()
                            }
                        ),
                    ],
                    texts: [runs(&p.text, &mine), runs(&m.source_text, &src)],
                });
            }
        } else if !p.passages.is_empty() {
            let mut all = lead_in;
            all.extend(kinded(&p.passages, true));
            out.push(Block::Para {
                label,
                runs: runs(&p.text, &all),
                tone: Tone::Passage,
                note: passages_note(&p.passages, &l),
            });
        } else {
            out.push(Block::Para {
                label,
                runs: runs(&p.text, &lead_in),
                tone: Tone::Plain,
                note: None,
            });
        }
    }
}

/// "Copied passages from" the sources of `passages`, if any.
fn passages_note(passages: &[MatchReport], l: &dyn Fn(&str, &str) -> String) -> Option<String> {
    if passages.is_empty() {
        return None;
    }
    let sources: Vec<String> = passages
        .iter()
        .map(|m| format!("{} ¶{}", m.source_title, m.source_paragraph + 1))
        .collect();
    Some(format!(
        "{} {}",
        l("Copied passages from", "复制片段来自"),
        sources.join(" · ")
    ))
}

/// Marked ranges of a text.
type Marked = Vec<([usize; 2], Mark, bool)>;

/// A translation's aligned sentences on both sides, each pair in its colour (submission sentences that
/// translate the same source sentence share its colour).
fn paired(m: &MatchReport) -> (Marked, Marked) {
    let mut sources: Vec<[usize; 2]> = Vec::new();
    let (mut mine, mut theirs) = (Vec::new(), Vec::new());
    for s in &m.spans {
        let seen = sources.iter().position(|&r| r == s.source);
        let i = seen.unwrap_or(sources.len());
        let mark = Mark::Pair((i % PAIR_COLOURS as usize) as u8);
        mine.push((s.submission, mark, false));
        if seen.is_none() {
            sources.push(s.source);
            theirs.push((s.source, mark, false));
        }
    }
    (mine, theirs)
}

/// The passages of matches as marked ranges of the submission paragraph, after the citations that
/// excuse its quoted ones.
fn kinded(matches: &[MatchReport], light: bool) -> Marked {
    let spans = || matches.iter().flat_map(|m| &m.spans);
    let cited = spans()
        .filter_map(|s| {
            s.cited_by
                .filter(|c| s.kind == SpanKind::Quoted && !c.in_previous)
        })
        .map(|c| (c.citation, Mark::Citation, false));
    let passages = spans().map(|s| {
        let mark = if light {
            Mark::Light(s.kind)
        } else {
            Mark::Kind(s.kind)
        };
        (s.submission, mark, s.in_quotes)
    });
    cited.chain(passages).collect()
}

/// The citations of paragraph `p`'s quoted passages that stand in the paragraph before it (a block
/// quotation's lead-in), as marked ranges of that paragraph.
fn lead_in_citations(p: &super::ParagraphReport) -> Marked {
    p.matches
        .iter()
        .chain(&p.passages)
        .flat_map(|m| &m.spans)
        .filter_map(|s| {
            s.cited_by
                .filter(|c| s.kind == SpanKind::Quoted && c.in_previous)
        })
        .map(|c| (c.citation, Mark::Citation, false))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_follow_the_first_range_and_cover_the_text() {
        let r = runs(
            "抄袭的文本和自己的话",
            &[
                ([0, 5], Mark::Kind(SpanKind::Copied), true),
                ([3, 7], Mark::Kind(SpanKind::Quoted), false),
            ],
        );
        let texts: Vec<&str> = r.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts, ["抄袭的文本", "和自", "己的话"]);
        assert_eq!(r[0].mark, Some(Mark::Kind(SpanKind::Copied)));
        assert!(r[0].in_quotes);
        assert_eq!(r[1].mark, Some(Mark::Kind(SpanKind::Quoted)));
        assert_eq!(r[2].mark, None);
    }
}
