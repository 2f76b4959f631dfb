//! The terminal summary: per document its copy ratio, its main sources and each flagged paragraph (`*`)
//! or paragraph with a copied passage below the threshold (`·`) with its best match.

use std::borrow::Cow;
use std::fmt::Write;

use super::{Lang, Report};

/// `text` made safe for a terminal: every control character (a line break in a file name, an escape
/// sequence that would recolour or rewrite the screen) and every invisible formatting character (bidi
/// overrides such as U+202E that make a name read backwards, zero-width spaces and joiners that hide
/// a difference between two names) is shown as an escape (`\n`, `\t`, `\u{1b}`, `\u{202e}`), so one
/// line of output is always one line, saying what the characters are. Text without them is borrowed.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Control characters, and the invisible characters that change how text around them is shown:
/// bidi marks, embeddings, overrides and isolates, zero-width spaces and joiners, word joiners and
/// invisible operators, the byte-order mark.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

fn snippet(text: &str, max: usize) -> String {
    let mut s: String = text.chars().take(max).collect();
    if text.chars().count() > max {
        s.push('…');
    }
    s
}

/// Render the report for a terminal, in `lang`.
pub(crate) fn render(report: &Report, lang: Lang) -> String {
    let mut out = String::new();
    for doc in &report.documents {
        let _ = writeln!(out, "{}", printable(&doc.file));
        if let Some(e) = &doc.error {
            let why = doc.error_info.as_ref().map_or(e.clone(), |i| lang.error(i));
            let why = printable(&why);
            let _ = writeln!(out, "  {} {why}\n", lang.pick("not checked:", "未检测："));
            continue;
        }
        let _ = match lang {
            Lang::En => writeln!(
                out,
                "  copied {:.1}% ({} of {} characters), {} of {} paragraphs flagged at {:.2}; largest source {:.1}%",
                doc.similarity_ratio * 100.0,
                doc.copied_chars,
                doc.total_chars,
                doc.flagged_paragraphs,
                doc.paragraphs.len(),
                report.threshold,
                doc.largest_source_ratio * 100.0
            ),
            Lang::Zh => writeln!(
                out,
                "  复制比 {:.1}%（{} / {} 字符），{} / {} 段在阈值 {:.2} 标红；单篇最大 {:.1}%",
                doc.similarity_ratio * 100.0,
                doc.copied_chars,
                doc.total_chars,
                doc.flagged_paragraphs,
                doc.paragraphs.len(),
                report.threshold,
                doc.largest_source_ratio * 100.0
            ),
        };
        if doc.translated_ratio > 0.0 {
            let _ = writeln!(
                out,
                "  {} {:.1}%",
                lang.pick(
                    "of which by translation (Chinese ↔ English):",
                    "其中翻译（中英互译）："
                ),
                doc.translated_ratio * 100.0
            );
        }
        // The kinds, when some passage is not plain copying (or some kind is left out of the ratio).
        let k = doc.kinds;
        if k.quoted > 0.0 || k.reference > 0.0 || k.own > 0.0 || !report.exclude.is_empty() {
            let _ = writeln!(
                out,
                "  {} {:.1}% ({} {:.1}%, {} {:.1}%, {} {:.1}%, {} {:.1}%); {} {:.1}%, {} {:.1}%",
                lang.pick("total, all kinds", "总文字复制比"),
                doc.total_ratio * 100.0,
                lang.pick("copied", "复制"),
                k.copied * 100.0,
                lang.pick("cited quotations", "引用"),
                k.quoted * 100.0,
                lang.pick("references", "参考文献"),
                k.reference * 100.0,
                lang.pick("own work", "本人文献"),
                k.own * 100.0,
                lang.pick("without quotations and references", "去除引用文献复制比"),
                doc.without_quotes_references_ratio * 100.0,
                lang.pick("without own work", "去除本人文献复制比"),
                doc.without_own_ratio * 100.0
            );
        }
        if doc.chapters.len() > 1 {
            for c in &doc.chapters {
                let title = if c.title.is_empty() {
                    format!("¶1–{}", c.paragraphs)
                } else {
                    snippet(&c.title, 20)
                };
                let _ = writeln!(
                    out,
                    "  {} {:5.1}%  {}",
                    lang.pick("chapter", "章节"),
                    c.total_ratio * 100.0,
                    printable(&title)
                );
            }
        }
        for s in doc.sources.iter().take(5) {
            let _ = writeln!(
                out,
                "    {:5.1}%  {} ({} {})",
                s.ratio * 100.0,
                printable(&s.source_title),
                s.paragraphs,
                match (lang, s.paragraphs) {
                    (Lang::Zh, _) => "段",
                    (Lang::En, 1) => "paragraph",
                    (Lang::En, _) => "paragraphs",
                }
            );
        }
        // Flagged paragraphs (`*`) and those with a copied passage below the threshold (`·`).
        for p in &doc.paragraphs {
            let (mark, best) = match (p.matches.first(), p.passages.first()) {
                (Some(best), _) if p.flagged => ('*', best),
                (_, Some(best)) => ('·', best),
                _ => continue,
            };
            let _ = writeln!(
                out,
                "{mark} ¶{:<3} {:5.1}%  {} ¶{}{}  {}",
                p.index + 1,
                best.similarity * 100.0,
                printable(&best.source_title),
                best.source_paragraph + 1,
                if best.cross_language {
                    lang.pick(" (translation)", "（翻译）")
                } else {
                    ""
                },
                printable(&snippet(&p.text, 40))
            );
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn control_characters_are_shown_as_escapes() {
        assert_eq!(printable("论文 a.txt"), "论文 a.txt");
        assert!(matches!(printable("plain"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(
            printable("evil\nname\t\u{1b}[31mred\u{7f}\u{9b}.txt"),
            "evil\\nname\\t\\u{1b}[31mred\\u{7f}\\u{9b}.txt"
        );
    }

    #[test]
    fn bidi_overrides_and_zero_width_characters_are_shown_as_escapes() {
        // "essay\u{202e}fdp.txt" shows as "essaytxt.pdf" in a terminal.
        assert_eq!(printable("essay\u{202e}fdp.txt"), "essay\\u{202e}fdp.txt");
        assert_eq!(
            printable("a\u{200b}b\u{feff}c\u{2066}d"),
            "a\\u{200b}b\\u{feff}c\\u{2066}d"
        );
        // Ordinary CJK and Latin punctuation is left alone.
        assert_eq!(printable("同文，“引号”—a’s"), "同文，“引号”—a’s");
    }
}
