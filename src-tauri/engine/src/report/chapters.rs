//! A document's chapters, for the per-chapter figures of a report.
//!
//! Rules (README, "Figures"):
//! - A chapter starts at a paragraph the document marks as a heading (a Word heading style, a PDF line
//!   set in a larger font) unless its numbering shows a sub-level (`1.2`, `2.3.1`, `（一）`, `(1)`, `1)`),
//!   and at a paragraph that reads as a chapter heading whatever the format: `第三章 …`, `Chapter 3 …`,
//!   `Part II …`, a top-level number `3 …` / `3. …` / `三、…`, or a section heading alone on its line
//!   (摘要, 引言, 绪论, 结论, 致谢, 参考文献, 附录, Abstract, Introduction, Conclusion(s), References,
//!   Bibliography, Acknowledgements, Appendix). Such a paragraph has at most [`MAX_HEADING`] characters
//!   and does not end with sentence punctuation.
//! - Paragraphs before the first chapter heading form a chapter with an empty title; a document without
//!   headings is one chapter with an empty title.

/// The longest paragraph read as a chapter heading, in characters.
pub const MAX_HEADING: usize = 40;

/// The first paragraph of each chapter, in order (always starting with 0).
pub fn chapters(paragraphs: &[(&str, bool)]) -> Vec<usize> {
    let mut starts = Vec::new();
    for (i, &(text, marked)) in paragraphs.iter().enumerate() {
        if starts_chapter(text, marked) {
            starts.push(i);
        }
    }
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    starts
}

/// Whether a paragraph (marked as a heading by its document or not) starts a chapter.
pub fn starts_chapter(text: &str, marked: bool) -> bool {
    let t = text.trim();
    let n = t.chars().count();
    if n == 0 || n > MAX_HEADING || ends_sentence(t) {
        return false;
    }
    if sub_level(t) {
        return false;
    }
    marked || chapter_heading(t)
}

fn ends_sentence(t: &str) -> bool {
    t.ends_with([
        '。', '！', '？', '；', '，', '.', '!', '?', ';', ',', '：', ':',
    ]) && !t.ends_with("...")
}

/// Numbering of a sub-level heading: `1.2`, `2.3.1`, `（一）`, `(1)`, `1)`, `1）`.
fn sub_level(t: &str) -> bool {
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    let rest = &t[digits.len()..];
    if !digits.is_empty() {
        let mut r = rest.chars();
        let (a, b) = (r.next(), r.next());
        if matches!(a, Some('.' | '．')) && b.is_some_and(|c| c.is_ascii_digit()) {
            return true;
        }
        if matches!(a, Some(')' | '）')) {
            return true;
        }
    }
    t.starts_with(['(', '（'])
}

const CHINESE_NUMERALS: &str = "一二三四五六七八九十百零〇";

const SECTION_HEADINGS: &[&str] = &[
    "摘要",
    "中文摘要",
    "英文摘要",
    "引言",
    "前言",
    "绪论",
    "导论",
    "结论",
    "结语",
    "总结",
    "致谢",
    "参考文献",
    "附录",
    "abstract",
    "introduction",
    "conclusion",
    "conclusions",
    "references",
    "bibliography",
    "acknowledgements",
    "acknowledgments",
    "appendix",
];

/// Whether `t` (trimmed, short, not a sentence) reads as a chapter heading.
fn chapter_heading(t: &str) -> bool {
    // 第三章 / 第3章 / 第三部分
    if let Some(rest) = t.strip_prefix('第') {
        let num: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || CHINESE_NUMERALS.contains(*c))
            .collect();
        if !num.is_empty() {
            let after = &rest[num.len()..];
            if after.starts_with('章') || after.starts_with("部分") || after.starts_with('篇') {
                return true;
            }
        }
    }
    let lower = t.to_lowercase();
    for word in ["chapter ", "part "] {
        if let Some(rest) = lower.strip_prefix(word) {
            if rest
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit() || "ivxlc".contains(c))
            {
                return true;
            }
        }
    }
    // 三、… / 3 … / 3. … / 3、…
    let num: String = t
        .chars()
        .take_while(|c| CHINESE_NUMERALS.contains(*c))
        .collect();
    if !num.is_empty() && t[num.len()..].starts_with('、') {
        return true;
    }
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    if !digits.is_empty() && digits.len() <= 2 {
        let rest = &t[digits.len()..];
        let rest = rest
            .strip_prefix(['.', '．', '、'])
            .unwrap_or(rest)
            .trim_start();
        // A number alone, or a year ("2019 年"), is not a heading.
        if rest.len() < t.len() - digits.len()
            && rest.chars().next().is_some_and(char::is_alphabetic)
        {
            return true;
        }
    }
    // A section heading alone: "摘要", "1 引言" is caught above, "Abstract:" without the colon.
    let bare: String = lower
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_ascii_digit() && !"．.、".contains(*c))
        .collect();
    SECTION_HEADINGS.contains(&bare.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapter_headings_are_read_from_marks_and_numbering() {
        for t in [
            "第一章 绪论",
            "第3章　研究方法",
            "Chapter 2 Related Work",
            "三、实验结果",
            "1 引言",
            "2. Method",
            "参考文献",
            "致 谢",
            "Abstract",
        ] {
            assert!(starts_chapter(t, false), "{t}");
        }
        for t in [
            "1.2 数据来源",
            "（一）样本",
            "(1) first",
            "2019 年以来，研究者发现",
            "这是正文中的一句话。",
            "The results are shown below.",
            "3",
        ] {
            assert!(!starts_chapter(t, false), "{t}");
        }
        for t in [
            "1.2 数据来源",
            "（一）样本",
            "(1) first",
            "这是正文中的一句话。",
        ] {
            assert!(!starts_chapter(t, true), "a marked sub-level heading: {t}");
        }
        // A marked heading without numbering starts a chapter; an unmarked short line does not.
        assert!(starts_chapter("研究背景", true));
        assert!(!starts_chapter("研究背景", false));
    }

    #[test]
    fn paragraphs_before_the_first_heading_are_a_chapter() {
        let ps = [
            ("论文题目的说明文字。", false),
            ("第一章 绪论", true),
            ("正文。", false),
            ("1.1 背景", true),
            ("正文。", false),
            ("第二章 方法", false),
            ("正文。", false),
        ];
        assert_eq!(chapters(&ps), vec![0, 1, 5]);
        assert_eq!(chapters(&[("只有正文。", false)]), vec![0]);
        assert_eq!(chapters(&[("摘要", false), ("正文。", false)]), vec![0]);
    }
}
