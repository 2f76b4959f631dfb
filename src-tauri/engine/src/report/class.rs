//! The class report (`tongwen compare`): every submission, every pair that shares text, the groups at
//! the threshold, and with `--with-library` each submission's check against the library. JSON is the
//! contract (docs/user-guide.md, "Comparing a class"); the HTML page is self-contained like the check report: a pair
//! list, a similarity matrix, the groups, and each pair's shared passages side by side.

use std::fmt::Write;

use serde::Serialize;

use super::html::{escape, highlight, pct, STYLE};
use super::text::printable;
use super::{DocumentReport, Lang, Report};
use crate::class::{clusters, ClassDocument, ClassRun, Cluster, Pair, GROUPED_BY};

/// Documents shown in the matrix at most (those with the strongest pairs first).
pub const MATRIX_MAX: usize = 60;
/// Pairs whose passages the HTML report shows in full at most (the JSON has all).
pub const DETAILED_MAX: usize = 200;

/// A class compared at a threshold.
#[derive(Debug, Clone, Serialize)]
pub struct ClassReport {
    pub tool: &'static str,
    pub version: &'static str,
    pub threshold: f64,
    /// Template files, whose text is never counted as shared.
    pub templates: Vec<String>,
    pub documents: Vec<ClassDocumentReport>,
    /// Largest ratio first: the pairs with a paragraph shared at least at the threshold
    /// ([`Pair::listed`]), whatever their ratios.
    pub pairs: Vec<Pair>,
    /// What connects a group: `"listed_pairs"`, the pairs above ([`crate::class::GROUPED_BY`]).
    pub grouped_by: &'static str,
    /// Groups: submissions connected by the listed pairs, whatever their ratios.
    pub clusters: Vec<Cluster>,
}

/// One submission, with its check against the library when one was asked for.
#[derive(Debug, Clone, Serialize)]
pub struct ClassDocumentReport {
    #[serde(flatten)]
    pub document: ClassDocument,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<DocumentReport>,
}

impl ClassReport {
    /// The report of `run` at `threshold`; `library`, the check of the same files against the library.
    pub fn build(
        run: &ClassRun,
        threshold: f64,
        templates: &[String],
        library: Option<&Report>,
    ) -> ClassReport {
        let documents = run
            .documents
            .iter()
            .map(|d| ClassDocumentReport {
                document: d.clone(),
                check: library
                    .and_then(|r| r.documents.iter().find(|c| c.file == d.file))
                    .cloned(),
            })
            .collect();
        ClassReport {
            tool: "tongwen",
            version: crate::VERSION,
            threshold,
            templates: templates.to_vec(),
            documents,
            pairs: run
                .pairs
                .iter()
                .filter(|p| p.listed(threshold))
                .cloned()
                .collect(),
            grouped_by: GROUPED_BY,
            clusters: clusters(run, threshold),
        }
    }

    /// Pairs at or above the threshold.
    pub fn strong_pairs(&self) -> impl Iterator<Item = &Pair> {
        self.pairs
            .iter()
            .filter(move |p| p.max_ratio() >= self.threshold - 1e-9)
    }
}

/// Render the class report as a standalone HTML page in `lang`.
pub(crate) fn render(report: &ClassReport, lang: Lang) -> String {
    let l = |en, zh| lang.pick(en, zh);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <title>{}</title>\n<style>{STYLE}{CLASS_STYLE}</style>\n</head>\n<body>\n\
         <h1>{}</h1>\n<p class=\"meta\">Tongwen {} · {} {:.2} · {} {} · {} {} · {} {}</p>\n",
        lang.code(),
        l("Tongwen class report", "同文班级互查报告"),
        l("同文 Tongwen — class comparison", "同文 Tongwen — 班级互查报告"),
        escape(report.version),
        l("threshold", "阈值"),
        report.threshold,
        report.documents.len(),
        l("document(s)", "份文档"),
        report.pairs.len(),
        l("pair(s) sharing text", "对有重合"),
        report.clusters.len(),
        l("group(s)", "个群组"),
    );
    if !report.templates.is_empty() {
        let names: Vec<String> = report.templates.iter().map(|t| escape(t)).collect();
        let _ = writeln!(
            out,
            "<p class=\"meta\">{}{}</p>",
            l("Template (never counted): ", "模板（不计入）："),
            names.join(", ")
        );
    }
    documents(&mut out, report, lang);
    groups(&mut out, report, lang);
    pairs(&mut out, report, lang);
    matrix(&mut out, report, lang);
    details(&mut out, report, lang);
    out.push_str("</body>\n</html>\n");
    out
}

const CLASS_STYLE: &str = "
.strong td{background:#fff3ec}.matrix td,.matrix th{padding:.15rem .3rem;font-size:.75rem;text-align:center}
.matrix th.row{text-align:left;white-space:nowrap}";

fn documents(out: &mut String, report: &ClassReport, lang: Lang) {
    let l = |en, zh| lang.pick(en, zh);
    let library = report.documents.iter().any(|d| d.check.is_some());
    let _ = write!(
        out,
        "<h2>{}</h2>\n<table>\n<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th>",
        l("Documents", "文档"),
        l("File", "文件"),
        l("Paragraphs", "段落数"),
        l("Characters", "字符数"),
        l("Template characters", "模板字符"),
    );
    if library {
        let _ = write!(
            out,
            "<th>{}</th>",
            l("Copied from the library", "库内复制比")
        );
    }
    out.push_str("</tr>\n");
    for d in &report.documents {
        let doc = &d.document;
        if let Some(e) = &doc.error {
            let why = doc.error_info.as_ref().map_or(e.clone(), |i| lang.error(i));
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td colspan=\"{}\" class=\"error\">{}{}</td></tr>",
                escape(&doc.file),
                if library { 4 } else { 3 },
                l("Not read: ", "未读取："),
                escape(&why)
            );
            continue;
        }
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            escape(&doc.file),
            doc.paragraphs,
            doc.chars,
            doc.template_chars
        );
        if library {
            let ratio = d
                .check
                .as_ref()
                .map_or(String::new(), |c| pct(c.similarity_ratio));
            let _ = write!(out, "<td>{ratio}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

/// What a group is, as the HTML and text reports say it.
const GROUPS_RULE_EN: &str =
    "Submissions connected by the pairs listed below (each shares a paragraph at \
     least at the threshold), whatever their shares.";
const GROUPS_RULE_ZH: &str =
    "由下列文档对连接起来的作业（每对至少有一段重合达到阈值），不论重合比例大小。";

fn groups(out: &mut String, report: &ClassReport, lang: Lang) {
    let l = |en, zh| lang.pick(en, zh);
    let _ = writeln!(
        out,
        "<h2>{}</h2>\n<p class=\"meta\">{}</p>",
        l("Groups", "群组"),
        l(GROUPS_RULE_EN, GROUPS_RULE_ZH)
    );
    if report.clusters.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"meta\">{}</p>",
            l("No group at this threshold.", "此阈值下没有群组。")
        );
        return;
    }
    out.push_str("<ol>\n");
    for c in &report.clusters {
        let names: Vec<String> = c.files.iter().map(|f| escape(f)).collect();
        let _ = writeln!(
            out,
            "<li>{} <span class=\"sim\">{} {}</span></li>",
            names.join(" · "),
            l("up to", "最高"),
            pct(c.max_ratio)
        );
    }
    out.push_str("</ol>\n");
}

fn pairs(out: &mut String, report: &ClassReport, lang: Lang) {
    let l = |en, zh| lang.pick(en, zh);
    let _ = writeln!(
        out,
        "<h2>{}</h2>\n<table>\n<tr><th>A</th><th>B</th><th>{}</th><th>{}</th><th>{}</th></tr>",
        l("Pairs", "文档对"),
        l("A's share from B", "A 与 B 重合"),
        l("B's share from A", "B 与 A 重合"),
        l("Passages", "片段数"),
    );
    for (i, p) in report.pairs.iter().enumerate() {
        let strong = p.max_ratio() >= report.threshold - 1e-9;
        let name = |f: &str| {
            if i < DETAILED_MAX {
                format!("<a href=\"#pair-{i}\">{}</a>", escape(f))
            } else {
                escape(f)
            }
        };
        let _ = writeln!(
            out,
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if strong { " class=\"strong\"" } else { "" },
            name(&p.a),
            name(&p.b),
            pct(p.a_ratio),
            pct(p.b_ratio),
            p.matches.iter().map(|m| m.spans.len()).sum::<usize>()
        );
    }
    out.push_str("</table>\n");
}

fn matrix(out: &mut String, report: &ClassReport, lang: Lang) {
    let l = |en, zh| lang.pick(en, zh);
    // Documents in pairs, strongest first, at most MATRIX_MAX.
    let mut shown: Vec<usize> = Vec::new();
    for p in &report.pairs {
        for d in [p.a_index, p.b_index] {
            if !shown.contains(&d) && shown.len() < MATRIX_MAX {
                shown.push(d);
            }
        }
    }
    if shown.is_empty() {
        return;
    }
    shown.sort_unstable();
    let _ = write!(
        out,
        "<h2>{}</h2>\n<table class=\"matrix\">\n<tr><th></th>",
        l("Similarity matrix", "相似度矩阵")
    );
    for n in 1..=shown.len() {
        let _ = write!(out, "<th>{n}</th>");
    }
    out.push_str("</tr>\n");
    for (r, &row) in shown.iter().enumerate() {
        let _ = write!(
            out,
            "<tr><th class=\"row\">{} {}</th>",
            r + 1,
            escape(&report.documents[row].document.file)
        );
        for &col in &shown {
            let ratio = report
                .pairs
                .iter()
                .find(|p| (p.a_index, p.b_index) == (row.min(col), row.max(col)))
                .map(|p| p.max_ratio());
            match ratio {
                Some(x) if row != col => {
                    let _ = write!(
                        out,
                        "<td style=\"background:rgba(217,72,15,{:.2})\" title=\"{}\">{:.0}</td>",
                        0.1 + 0.9 * x,
                        pct(x),
                        x * 100.0
                    );
                }
                _ => out.push_str("<td></td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

fn details(out: &mut String, report: &ClassReport, lang: Lang) {
    let l = |en, zh| lang.pick(en, zh);
    for (i, p) in report.pairs.iter().take(DETAILED_MAX).enumerate() {
        let _ = writeln!(
            out,
            "<section id=\"pair-{i}\">\n<h2>{} ↔ {}</h2>\n<p>A {} · B {}</p>",
            escape(&p.a),
            escape(&p.b),
            pct(p.a_ratio),
            pct(p.b_ratio)
        );
        for m in &p.matches {
            let a: Vec<[usize; 2]> = m.spans.iter().map(|s| s.a).collect();
            let b: Vec<[usize; 2]> = m.spans.iter().map(|s| s.b).collect();
            let _ = writeln!(
                out,
                "<table class=\"pair\"><tr><th>A ¶{}</th><th>B ¶{} · <span class=\"sim\">{}</span> {}</th></tr>\n\
                 <tr><td>{}</td><td>{}</td></tr></table>",
                m.a_paragraph + 1,
                m.b_paragraph + 1,
                pct(m.similarity),
                l("of A's paragraph", "占 A 段"),
                highlight(&m.a_text, &a),
                highlight(&m.b_text, &b)
            );
        }
        out.push_str("</section>\n");
    }
    if report.pairs.len() > DETAILED_MAX {
        let _ = writeln!(
            out,
            "<p class=\"meta\">{} {}</p>",
            report.pairs.len() - DETAILED_MAX,
            l(
                "more pairs: their passages are in the JSON report.",
                "对其余文档对的片段见 JSON 报告。"
            )
        );
    }
}

/// Render the class report for a terminal, in `lang`: the groups, then every pair (strongest first), then
/// the files that could not be read; with a library check, each document's library ratio.
pub(crate) fn render_text(report: &ClassReport, lang: Lang) -> String {
    let l = |en, zh| lang.pick(en, zh);
    let mut out = String::new();
    let readable = report
        .documents
        .iter()
        .filter(|d| d.document.error.is_none())
        .count();
    let _ = writeln!(
        out,
        "{} {readable} {}, {} {}, {} {} {:.2}",
        l("compared", "已比较"),
        l("document(s)", "份文档"),
        report.pairs.len(),
        l("pair(s) share text", "对有重合"),
        report.clusters.len(),
        l("group(s) at threshold", "个群组，阈值"),
        report.threshold
    );
    if !report.clusters.is_empty() {
        let _ = writeln!(out, "{}", l(GROUPS_RULE_EN, GROUPS_RULE_ZH));
    }
    for (i, c) in report.clusters.iter().enumerate() {
        let names: Vec<String> = c.files.iter().map(|f| printable(f).into_owned()).collect();
        let _ = writeln!(
            out,
            "{} {}: {} ({} {})",
            l("group", "群组"),
            i + 1,
            names.join(", "),
            l("up to", "最高"),
            pct(c.max_ratio)
        );
    }
    if !report.pairs.is_empty() {
        let _ = writeln!(
            out,
            "\n{:>7} {:>7} {:>8}  A ↔ B",
            "A",
            "B",
            l("passages", "片段")
        );
    }
    for p in &report.pairs {
        let _ = writeln!(
            out,
            "{:>7} {:>7} {:>8}  {} ↔ {}{}",
            pct(p.a_ratio),
            pct(p.b_ratio),
            p.matches.iter().map(|m| m.spans.len()).sum::<usize>(),
            printable(&p.a),
            printable(&p.b),
            if p.max_ratio() >= report.threshold - 1e-9 {
                " *"
            } else {
                ""
            }
        );
    }
    let checked: Vec<&ClassDocumentReport> = report
        .documents
        .iter()
        .filter(|d| d.check.as_ref().is_some_and(|c| c.error.is_none()))
        .collect();
    if !checked.is_empty() {
        let _ = writeln!(out, "\n{}", l("against the library:", "与库比对："));
        for d in checked {
            if let Some(c) = &d.check {
                let _ = writeln!(
                    out,
                    "{:>7}  {}",
                    pct(c.similarity_ratio),
                    printable(&d.document.file)
                );
            }
        }
    }
    for d in report
        .documents
        .iter()
        .filter(|d| d.document.error.is_some())
    {
        let doc = &d.document;
        let why = doc
            .error_info
            .as_ref()
            .map_or(doc.error.clone().unwrap_or_default(), |i| lang.error(i));
        let _ = writeln!(
            out,
            "{}: {} {}",
            printable(&doc.file),
            l("not read:", "未读取："),
            printable(&why)
        );
    }
    out
}
