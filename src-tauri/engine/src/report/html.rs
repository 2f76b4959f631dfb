//! The HTML report: one self-contained file (inline CSS, no scripts, no external resources) with each
//! submission's ratios, its sources, and every flagged paragraph beside its library paragraphs, copied
//! passages highlighted in both. Every document text is escaped: a submission is untrusted input.

use std::fmt::Write;

use super::{DocumentReport, Lang, Report};

/// Escape text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Escape `text`, wrapping the characters inside each range in `<mark class="…">` with its class (a
/// character in several ranges takes the first one's).
pub fn highlight_classed(text: &str, ranges: &[([usize; 2], &str)]) -> String {
    let n = text.chars().count();
    let mut class: Vec<Option<&str>> = vec![None; n];
    for &(r, c) in ranges.iter().rev() {
        let (a, b) = (r[0].min(n), r[1].min(n));
        class[a..b.max(a)].iter_mut().for_each(|x| *x = Some(c));
    }
    let mut out = String::with_capacity(text.len() * 2);
    let mut open: Option<&str> = None;
    let mut buf = [0u8; 4];
    for (ch, &here) in text.chars().zip(class.iter()) {
        if here != open {
            if open.is_some() {
                out.push_str("</mark>");
            }
            if let Some(c) = here {
                out.push_str("<mark class=\"");
                out.push_str(&escape(c));
                out.push_str("\">");
            }
            open = here;
        }
        out.push_str(&escape(ch.encode_utf8(&mut buf)));
    }
    if open.is_some() {
        out.push_str("</mark>");
    }
    out
}

/// The spans of a match as classed ranges of the submission: by kind.
fn kinded(spans: &[super::ReportSpan]) -> Vec<([usize; 2], &'static str)> {
    spans
        .iter()
        .map(|s| (s.submission, kind_class(s.kind)))
        .collect()
}

fn kind_class(kind: super::SpanKind) -> &'static str {
    match kind {
        super::SpanKind::Copied => "copied",
        super::SpanKind::Quoted => "quoted",
        super::SpanKind::Reference => "reference",
        super::SpanKind::Template => "template",
        super::SpanKind::Own => "own",
    }
}

/// Escape `text`, wrapping the characters inside `ranges` (`[start, end)` in Unicode scalar values) in
/// `<mark>`.
pub fn highlight(text: &str, ranges: &[[usize; 2]]) -> String {
    let mut inside = Vec::new();
    let n = text.chars().count();
    inside.resize(n, false);
    for r in ranges {
        let (a, b) = (r[0].min(n), r[1].min(n));
        inside[a..b.max(a)].iter_mut().for_each(|x| *x = true);
    }
    let mut out = String::with_capacity(text.len() * 2);
    let mut open = false;
    let mut buf = [0u8; 4];
    for (c, &hit) in text.chars().zip(inside.iter()) {
        if hit != open {
            out.push_str(if hit { "<mark>" } else { "</mark>" });
            open = hit;
        }
        out.push_str(&escape(c.encode_utf8(&mut buf)));
    }
    if open {
        out.push_str("</mark>");
    }
    out
}

pub(crate) fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

pub(crate) const STYLE: &str = "body{font-family:system-ui,'Noto Sans CJK SC','Microsoft YaHei',sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d1d1f;line-height:1.6}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2.5rem;border-bottom:1px solid #ddd;padding-bottom:.3rem}
.ratio{font-size:2rem;font-weight:700}.meta{color:#555}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.4rem .6rem;vertical-align:top;text-align:left}
th{background:#f5f5f7}.pair td{width:50%}mark{background:#ffd6a0;padding:0}
.para{margin:.8rem 0;padding:.5rem .8rem;border-left:4px solid #ccc}.para.flagged{border-left-color:#d9480f;background:#fff8f3}
.para.passage{border-left-color:#f0a577}.para.passage mark{background:#ffe9d1}
.sim{font-weight:600;color:#d9480f}
mark.quoted{background:#c9f0d3}mark.reference,mark.template{background:#e3e3e6}mark.own{background:#d6e4ff}.kinds{color:#333}.error{color:#b00020;font-weight:600}
@media print{body{margin:0}.para{break-inside:avoid}}";

/// Render the report as a standalone HTML page in `lang`.
pub fn render(report: &Report, lang: Lang) -> String {
    let mut out = String::new();
    let l = |en, zh| lang.pick(en, zh);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>{}</h1>\n<p class=\"meta\">Tongwen {} · {} {} · {} {:.2} · {} {}</p>\n",
        lang.code(),
        l("Tongwen report", "同文检测报告"),
        l("同文 Tongwen — similarity report", "同文 Tongwen — 文字复制检测报告"),
        escape(report.version),
        l("method", "方法"),
        lang.method(report.method),
        l("threshold", "阈值"),
        report.threshold,
        report.documents.len(),
        l("document(s)", "份文档"),
    );
    for doc in &report.documents {
        document(&mut out, doc, lang);
    }
    out.push_str("</body>\n</html>\n");
    out
}

fn document(out: &mut String, doc: &DocumentReport, lang: Lang) {
    let l = |en, zh| lang.pick(en, zh);
    let _ = write!(out, "<section>\n<h2>{}</h2>\n", escape(&doc.file));
    if let Some(e) = &doc.error {
        let why = doc.error_info.as_ref().map_or(e.clone(), |i| lang.error(i));
        let _ = writeln!(
            out,
            "<p class=\"error\">{}{}</p>\n</section>",
            l("Not checked: ", "未检测："),
            escape(&why)
        );
        return;
    }
    let _ = writeln!(
        out,
        "<p><span class=\"ratio\">{}</span> {} · {} {} · {} / {} {} · {} / {} {}</p>",
        pct(doc.similarity_ratio),
        l("copied", "复制比"),
        l("largest single source", "单篇最大"),
        pct(doc.largest_source_ratio),
        doc.flagged_paragraphs,
        doc.paragraphs.len(),
        l("paragraphs flagged", "段标红"),
        doc.copied_chars,
        doc.total_chars,
        l("characters", "字符"),
    );
    let _ = writeln!(
        out,
        "<p class=\"kinds\">{} {} · {} {} · {} {} · {} {} · {} {}</p>",
        l("Total (all kinds)", "总文字复制比"),
        pct(doc.total_ratio),
        l("plain copying", "复制"),
        pct(doc.kinds.copied),
        l("cited quotations", "引用"),
        pct(doc.kinds.quoted),
        l("references section", "参考文献"),
        pct(doc.kinds.reference),
        l("template (not counted)", "模板（不计入）"),
        pct(doc.kinds.template),
    );
    if !doc.sources.is_empty() {
        let _ = writeln!(
            out,
            "<table>\n<tr><th>{}</th><th>{}</th><th>{}</th></tr>",
            l("Source", "来源"),
            l("Share", "占比"),
            l("Paragraphs", "段落数")
        );
        for s in &doc.sources {
            let _ = writeln!(
                out,
                "<tr><td>{}<br><span class=\"meta\">{}</span></td><td>{}</td><td>{}</td></tr>",
                escape(&s.source_title),
                escape(&s.source_path),
                pct(s.ratio),
                s.paragraphs
            );
        }
        out.push_str("</table>\n");
    }
    for p in &doc.paragraphs {
        if !p.flagged && !p.passages.is_empty() {
            // Copied passages below the threshold: counted, highlighted in a lighter colour.
            let spans: Vec<([usize; 2], &str)> =
                p.passages.iter().flat_map(|m| kinded(&m.spans)).collect();
            let sources: Vec<String> = p
                .passages
                .iter()
                .map(|m| format!("{} ¶{}", escape(&m.source_title), m.source_paragraph + 1))
                .collect();
            let _ = writeln!(
                out,
                "<div class=\"para passage\"><span class=\"meta\">¶{}</span> {}<br><span class=\"meta\">{} {}</span></div>",
                p.index + 1,
                highlight_classed(&p.text, &spans),
                l("Copied passages from", "复制片段来自"),
                sources.join(" · ")
            );
            continue;
        }
        if !p.flagged {
            let _ = writeln!(
                out,
                "<div class=\"para\"><span class=\"meta\">¶{}</span> {}</div>",
                p.index + 1,
                escape(&p.text)
            );
            continue;
        }
        let all: Vec<([usize; 2], &str)> =
            p.matches.iter().flat_map(|m| kinded(&m.spans)).collect();
        let _ = writeln!(
            out,
            "<div class=\"para flagged\"><span class=\"meta\">¶{}</span> {}",
            p.index + 1,
            highlight_classed(&p.text, &all)
        );
        for m in &p.matches {
            let sub = kinded(&m.spans);
            let src: Vec<[usize; 2]> = m.spans.iter().map(|s| s.source).collect();
            let _ = writeln!(
                out,
                "<table class=\"pair\"><tr><th>{} ¶{}</th><th><span class=\"sim\">{}</span> · {} ¶{} \
                 <span class=\"meta\">(hamming {}){}</span></th></tr>\n<tr><td>{}</td><td>{}</td></tr></table>",
                l("Submission", "送检文档"),
                p.index + 1,
                pct(m.similarity),
                escape(&m.source_title),
                m.source_paragraph + 1,
                m.hamming,
                if m.cross_script {
                    l(" · Traditional ↔ Simplified", " · 繁简转换")
                } else {
                    ""
                },
                highlight_classed(&p.text, &sub),
                highlight(&m.source_text, &src)
            );
        }
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_marks_char_ranges() {
        assert_eq!(
            escape("<img src=x onerror=alert(1)>&\"'"),
            "&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39;"
        );
        assert_eq!(
            highlight("抄袭<b>文本", &[[0, 2], [5, 7]]),
            "<mark>抄袭</mark>&lt;b&gt;<mark>文本</mark>"
        );
        assert_eq!(highlight("ab", &[[1, 99]]), "a<mark>b</mark>");
    }
}
