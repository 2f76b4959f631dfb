//! The HTML report: one self-contained file (inline CSS, no scripts, no external resources) with each
//! submission's ratios, its sources, and every flagged paragraph beside its library paragraphs, copied
//! passages highlighted in both. Every document text is escaped: a submission is untrusted input.

use std::fmt::Write;

pub(crate) use super::page::pct;
use super::page::{self, Block, Mark, Run, Tone};
use super::{Lang, Report};

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

pub(crate) fn kind_class(kind: super::SpanKind) -> &'static str {
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
    format!("<span lang=\"{}\">{out}</span>", text_lang(text))
}

pub(crate) const STYLE: &str = "body{font-family:-apple-system,'Segoe UI','Noto Sans','DejaVu Sans','Liberation Sans',Arial,'PingFang SC','Microsoft YaHei','Noto Sans CJK SC','WenQuanYi Micro Hei',sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d1d1f;line-height:1.6}
[lang|=zh]{font-family:'PingFang SC','Microsoft YaHei','Noto Sans CJK SC','Source Han Sans SC','WenQuanYi Micro Hei','Noto Sans','DejaVu Sans',Arial,sans-serif}
[lang=en]{font-family:-apple-system,'Segoe UI','Noto Sans','DejaVu Sans','Liberation Sans',Arial,'PingFang SC','Microsoft YaHei','Noto Sans CJK SC','WenQuanYi Micro Hei',sans-serif}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2.5rem;border-bottom:1px solid #ddd;padding-bottom:.3rem}
.ratio{font-size:2rem;font-weight:700;color:#c92a2a}.meta{color:#555}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.4rem .6rem;vertical-align:top;text-align:left}
th{background:#f5f5f7}.pair td{width:50%}mark{background:#ffc9c9;padding:0}
table.figures{width:auto}table.figures th{font-weight:500}caption{text-align:left;font-weight:600;padding:.3rem 0}
table.bars{width:auto}table.bars th{font-weight:400;max-width:24rem}.bar{width:16rem;height:.8rem;background:#eee}.bar div{height:100%;background:#e03131}
.key{margin-right:1rem;white-space:nowrap}
.para{margin:.8rem 0;padding:.5rem .8rem;border-left:4px solid #ccc}.para.flagged{border-left-color:#c92a2a;background:#fff5f5}
.para.passage{border-left-color:#f59f9f}.para.passage mark.copied{background:#ffe3e3}
.sim{font-weight:600;color:#c92a2a}mark.pair-c0{background:#cfe2ff}mark.pair-c1{background:#ffdcb0}mark.pair-c2{background:#c8efcc}mark.pair-c3{background:#e6d9ff}mark.pair-c4{background:#c6eef0}mark.pair-c5{background:#ffd6e5}
mark.in-quotes{text-decoration:underline dotted}
mark.quoted{background:#c9f0d3}.citation{text-decoration:underline 2px #2e7d32;text-underline-offset:2px;font-weight:600}mark.reference,mark.template{background:#e3e3e6}mark.own{background:#d6e4ff}.kinds{color:#333}.error{color:#b00020;font-weight:600}
@media print{body{margin:0}.para{break-inside:avoid}}";

/// Render the report as a standalone HTML page in `lang`.
pub(crate) fn render(report: &Report, lang: Lang) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        lang.code(),
        lang.pick("Tongwen report", "同文检测报告"),
    );
    let mut in_section = false;
    for block in page::build(report, lang) {
        if matches!(block, Block::Section(_)) {
            if in_section {
                out.push_str("</section>\n");
            }
            in_section = true;
        }
        block_html(&mut out, &block);
    }
    if in_section {
        out.push_str("</section>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

fn block_html(out: &mut String, block: &Block) {
    let _ = match block {
        Block::Title(t) => writeln!(out, "<h1>{}</h1>", escape(t)),
        Block::Meta(t) => writeln!(out, "<p class=\"meta\">{}</p>", escape(t)),
        Block::Section(t) => writeln!(out, "<section>\n<h2>{}</h2>", escape(t)),
        Block::Error(t) => writeln!(out, "<p class=\"error\">{}</p>", escape(t)),
        Block::Headline { ratio, label } => writeln!(
            out,
            "<p><span class=\"ratio\">{}</span> {}</p>",
            escape(ratio),
            escape(label)
        ),
        Block::Figures(rows) => {
            out.push_str("<table class=\"figures\">");
            for (label, value) in rows {
                let _ = write!(
                    out,
                    "<tr><th>{}</th><td>{}</td></tr>",
                    escape(label),
                    escape(value)
                );
            }
            writeln!(out, "</table>")
        }
        Block::Legend(items) => {
            out.push_str("<p class=\"kinds\">");
            for (kind, label) in items {
                let _ = write!(
                    out,
                    "<span class=\"key\"><mark class=\"{}\">\u{a0}\u{a0}\u{a0}</mark> {}</span> ",
                    kind_class(*kind),
                    escape(label)
                );
            }
            writeln!(out, "</p>")
        }
        Block::Bars { caption, rows } => {
            let _ = write!(
                out,
                "<table class=\"bars\"><caption>{}</caption>",
                escape(caption)
            );
            for (label, fraction, value) in rows {
                let _ = write!(
                    out,
                    "<tr><th>{}</th><td><div class=\"bar\"><div style=\"width:{:.1}%\"></div></div></td><td>{}</td></tr>",
                    escape(label),
                    (fraction * 100.0).clamp(0.0, 100.0),
                    escape(value)
                );
            }
            writeln!(out, "</table>")
        }
        Block::Table { header, rows } => {
            out.push_str("<table>\n<tr>");
            for h in header {
                let _ = write!(out, "<th>{}</th>", escape(h));
            }
            out.push_str("</tr>\n");
            for row in rows {
                out.push_str("<tr>");
                for c in row {
                    let _ = match &c.sub {
                        Some(sub) => write!(
                            out,
                            "<td>{}<br><span class=\"meta\">{}</span></td>",
                            escape(&c.text),
                            escape(sub)
                        ),
                        None => write!(out, "<td>{}</td>", escape(&c.text)),
                    };
                }
                out.push_str("</tr>\n");
            }
            writeln!(out, "</table>")
        }
        Block::Para {
            label,
            runs,
            tone,
            note,
        } => {
            let class = match tone {
                Tone::Plain => "para",
                Tone::Flagged => "para flagged",
                Tone::Passage => "para passage",
            };
            let _ = write!(
                out,
                "<div class=\"{class}\"><span class=\"meta\">{}</span> {}",
                escape(label),
                runs_html(runs)
            );
            if let Some(n) = note {
                let _ = write!(out, "<br><span class=\"meta\">{}</span>", escape(n));
            }
            writeln!(out, "</div>")
        }
        Block::Pair { heads, texts } => writeln!(
            out,
            "<table class=\"pair\"><tr><th>{}</th><th>{}</th></tr>\n<tr><td>{}</td><td>{}</td></tr></table>",
            escape(&heads[0]),
            escape(&heads[1]),
            runs_html(&texts[0]),
            runs_html(&texts[1])
        ),
    };
}

/// The language of a text for its font: `zh` when at least a third of its non-space characters are
/// CJK, else `en`. A Latin font draws the curly quotes and apostrophes of English text (a CJK font
/// draws them full-width), a CJK font those of Chinese text.
pub(crate) fn text_lang(text: &str) -> &'static str {
    let (mut cjk, mut all) = (0usize, 0usize);
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        all += 1;
        if crate::text::normalize::is_cjk(c) {
            cjk += 1;
        }
    }
    if cjk > 0 && cjk * 3 >= all {
        "zh"
    } else {
        "en"
    }
}

/// Marked runs as escaped HTML, in a span that says their language (see [`text_lang`]).
fn runs_html(runs: &[Run]) -> String {
    let text: String = runs.iter().map(|r| r.text.as_str()).collect();
    format!(
        "<span lang=\"{}\">{}</span>",
        text_lang(&text),
        marked_html(runs)
    )
}

fn marked_html(runs: &[Run]) -> String {
    let mut out = String::new();
    for r in runs {
        match r.mark {
            None => out.push_str(&escape(&r.text)),
            Some(Mark::Source) => {
                let _ = write!(out, "<mark>{}</mark>", escape(&r.text));
            }
            Some(Mark::Pair(c)) => {
                let _ = write!(out, "<mark class=\"pair-c{c}\">{}</mark>", escape(&r.text));
            }
            Some(Mark::Citation) => {
                let _ = write!(
                    out,
                    "<span class=\"citation\" title=\"the citation that excuses the quotation\">{}</span>",
                    escape(&r.text)
                );
            }
            Some(Mark::Kind(k) | Mark::Light(k)) => {
                let _ = write!(
                    out,
                    "<mark class=\"{}{}\"{}>{}</mark>",
                    kind_class(k),
                    if r.in_quotes { " in-quotes" } else { "" },
                    if r.in_quotes {
                        " title=\"in quotation marks, no citation\""
                    } else {
                        ""
                    },
                    escape(&r.text)
                );
            }
        }
    }
    out
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
            "<span lang=\"zh\"><mark>抄袭</mark>&lt;b&gt;<mark>文本</mark></span>"
        );
        assert_eq!(
            highlight("ab", &[[1, 99]]),
            "<span lang=\"en\">a<mark>b</mark></span>"
        );
    }

    #[test]
    fn text_is_tagged_with_its_language_for_its_punctuation() {
        assert_eq!(text_lang("The class’s “template” first."), "en");
        assert_eq!(text_lang("学生引用了“模板”中的句子。"), "zh");
        // Mostly English with a Chinese name: English punctuation.
        assert_eq!(
            text_lang("As 王明 argues, the results’ limits matter a great deal."),
            "en"
        );
        assert_eq!(text_lang(""), "en");
    }
}
