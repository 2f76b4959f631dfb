//! What each paragraph is: heading (with its level), body, list item, table cell, caption, footnote,
//! reference entry.
//!
//! The readers say what their format says: a .docx its heading styles and outline levels, numbering,
//! table cells, caption styles, footnotes and endnotes; a PDF the lines set in a larger font. Then, for
//! every format ([`classify`]):
//! - A paragraph that reads as a chapter heading is a heading of level 1: at most [`MAX_HEADING`]
//!   characters, no sentence punctuation at its end, and `第三章 …`, `Chapter 3 …`, `Part II …`, a
//!   top-level number `3 …` / `3. …` / `3、…` / `三、…`, or a section name alone (摘要, 引言, 绪论, 结论,
//!   致谢, 参考文献, 附录, Abstract, Introduction, Conclusion, References, Bibliography,
//!   Acknowledgements, Appendix). A numbered sub-level `1.2 …` is level 2, `1.2.3 …` level 3, `（一）…`
//!   level 2. In a .docx only paragraphs the document marks as headings get a level from their numbering
//!   (Word's own numbers are not headings); plain text and PDF have no such marks beyond font sizes, so
//!   the rules make their headings.
//! - A plain-text or PDF paragraph that starts with a list marker (`1. ` `一、` `（1）` `•` `- ` …) and is
//!   not a heading is a list item.
//! - A short paragraph (at most 120 characters) starting with 图/表 and a number, or Figure/Fig./Table and
//!   a number, is a caption.
//! - Every paragraph of the references section — from a heading 参考文献 / 引用文献 / 参考资料 / References /
//!   Bibliography / Works Cited to the end of the document or a heading of 附录 / 致谢 / Appendix /
//!   Acknowledgements — but the heading is a reference entry.

use super::{Block, BlockKind, Format};

/// The longest paragraph read as a heading from its text, in characters.
pub const MAX_HEADING: usize = 40;

/// The longest paragraph read as a caption, in characters.
pub const MAX_CAPTION: usize = 120;

/// Give every paragraph its kind from the text rules (see the module documentation), keeping what the
/// reader found.
pub fn classify(blocks: &mut [Block], format: Format) {
    let mut in_references = false;
    for b in blocks.iter_mut() {
        if is_references_heading(&b.text) {
            in_references = true;
            b.kind = BlockKind::Heading;
            b.level = b.level.or(Some(1));
            continue;
        }
        if in_references && ends_references(&b.text) {
            in_references = false;
        }
        match b.kind {
            BlockKind::Heading => {
                if b.level.is_none() {
                    b.level = heading_level(&b.text);
                }
                continue;
            }
            BlockKind::Body | BlockKind::List if format != Format::Docx => {
                if let Some(level) = heading_level(&b.text) {
                    b.kind = BlockKind::Heading;
                    b.level = Some(level);
                    continue;
                }
                if super::paragraphs::is_list_item(&b.text) || numbered_cjk_item(&b.text) {
                    b.kind = BlockKind::List;
                }
            }
            _ => {}
        }
        if in_references && matches!(b.kind, BlockKind::Body | BlockKind::List) {
            b.kind = BlockKind::Reference;
        } else if b.kind == BlockKind::Body && is_caption(&b.text) {
            b.kind = BlockKind::Caption;
        }
    }
}

/// `1.阅读…`: an item number and a full stop straight before Chinese text (a PDF's list label and its
/// text, separated by a tab stop that draws no space).
fn numbered_cjk_item(text: &str) -> bool {
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    let mut rest = text[digits..].chars();
    (1..=2).contains(&digits)
        && matches!(rest.next(), Some('.' | '．'))
        && rest
            .next()
            .is_some_and(|c| ('\u{4E00}'..='\u{9FFF}').contains(&c))
}

/// The level of a paragraph that reads as a heading (see the module documentation), or `None`.
pub fn heading_level(text: &str) -> Option<u8> {
    let t = text.trim();
    let n = t.chars().count();
    if n == 0 || n > MAX_HEADING || ends_sentence(t) {
        return None;
    }
    if let Some(level) = numbered_sub_level(t) {
        return Some(level);
    }
    chapter_heading(t).then_some(1)
}

/// Whether a paragraph's numbering shows a sub-level heading or item: `1.2`, `2.3.1`, `（一）`, `(1)`,
/// `1)`, `1）`.
pub fn is_sub_level(text: &str) -> bool {
    let t = text.trim();
    numbered_sub_level(t).is_some() || t.starts_with(['(', '（']) || {
        let digits = t.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && t[digits..].starts_with([')', '）'])
    }
}

/// `1.2 …` → 2, `1.2.3 …` → 3, `（一）…` → 2.
fn numbered_sub_level(t: &str) -> Option<u8> {
    if let Some(rest) = t.strip_prefix('（') {
        let num = rest
            .chars()
            .take_while(|c| CHINESE_NUMERALS.contains(*c))
            .count();
        if num > 0 && rest.chars().nth(num) == Some('）') {
            return Some(2);
        }
        return None;
    }
    let mut parts = 0u8;
    let mut rest = t;
    loop {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 || digits > 2 {
            break;
        }
        parts += 1;
        rest = &rest[digits..];
        match rest.strip_prefix(['.', '．']) {
            Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => rest = r,
            _ => break,
        }
    }
    let rest = rest.strip_prefix(['.', '．']).unwrap_or(rest);
    (parts >= 2 && rest.starts_with(char::is_whitespace) && !rest.trim().is_empty())
        .then_some(parts.min(9))
}

/// Whether a paragraph ends like a sentence (so it is no heading).
pub fn ends_sentence(t: &str) -> bool {
    t.ends_with([
        '。', '！', '？', '；', '，', '.', '!', '?', ';', ',', '：', ':', '、',
    ]) && !t.ends_with("...")
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
            && !rest.contains(['，', ',', '；', ';'])
        {
            return true;
        }
    }
    let bare: String = lower
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_ascii_digit() && !"．.、".contains(*c))
        .collect();
    SECTION_HEADINGS.contains(&bare.as_str())
}

/// `图 1 …`, `图1-2 …`, `表 3.1 …`, `Figure 2.`, `Fig. 3`, `Table 4:` (short).
pub fn is_caption(text: &str) -> bool {
    let t = text.trim();
    // The label first (in any case), so that only what starts like a caption is measured.
    let rest = ["图", "表", "figure", "fig.", "table"]
        .iter()
        .find_map(|p| {
            t.get(..p.len())
                .filter(|head| head.eq_ignore_ascii_case(p))
                .map(|_| &t[p.len()..])
        });
    rest.is_some_and(|r| r.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        && t.chars().nth(MAX_CAPTION).is_none()
}

/// Whether `text` is a references heading.
pub fn is_references_heading(text: &str) -> bool {
    let t = text
        .trim()
        .trim_start_matches(|c: char| {
            c.is_ascii_digit() || c.is_whitespace() || ".、第章".contains(c)
        })
        .trim_end_matches(|c: char| c.is_whitespace() || "：:".contains(c));
    // The longest name is 12 bytes: a long paragraph is not lowercased to find that out.
    t.len() <= 16
        && matches!(
            t.to_lowercase().as_str(),
            "参考文献" | "引用文献" | "参考资料" | "references" | "bibliography" | "works cited"
        )
}

fn ends_references(text: &str) -> bool {
    let t = text.trim();
    if t.chars().nth(20).is_some() {
        return false;
    }
    let t = t.to_lowercase();
    ["附录", "致谢", "appendix", "acknowledg"].iter().any(|w| {
        t.trim_start_matches(|c: char| !c.is_alphabetic())
            .starts_with(w)
    })
}

/// For each paragraph, whether it lies in the references section (the heading itself included).
pub fn references_section(paragraphs: &[&str]) -> Vec<bool> {
    let mut inside = false;
    paragraphs
        .iter()
        .map(|p| {
            if is_references_heading(p) {
                inside = true;
            } else if inside && ends_references(p) {
                inside = false;
            }
            inside
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_get_levels_from_their_numbering() {
        for (t, level) in [
            ("第一章 绪论", Some(1)),
            ("第3章　研究方法", Some(1)),
            ("Chapter 2 Related Work", Some(1)),
            ("三、实验结果", Some(1)),
            ("1 引言", Some(1)),
            ("2. Method", Some(1)),
            ("参考文献", Some(1)),
            ("致 谢", Some(1)),
            ("Abstract", Some(1)),
            ("1.2 数据来源", Some(2)),
            ("2.3.1 Sampling", Some(3)),
            ("（一）样本", Some(2)),
            ("2019 年以来，研究者发现", None),
            ("这是正文中的一句话。", None),
            ("1. 阅读上游发布说明，列出所有不兼容的变更；", None),
            ("3", None),
            ("1.5 million people moved.", None),
        ] {
            assert_eq!(heading_level(t), level, "{t}");
        }
        assert!(is_sub_level("(1) first") && is_sub_level("1.2 数据") && is_sub_level("2) x"));
        assert!(!is_sub_level("第一章 绪论"));
    }

    #[test]
    fn plain_text_paragraphs_are_classified_and_the_references_section_is_read() {
        let mut blocks: Vec<Block> = [
            "第一章 绪论",
            "正文的第一段，讲述研究的背景。",
            "1. 第一项，说明步骤；",
            "图 1 系统结构",
            "参考文献",
            "[1] 王明. 软件包维护[J]. 计算机学报, 2019.",
            "致谢",
            "感谢导师的指导。",
        ]
        .into_iter()
        .map(Block::body)
        .collect();
        classify(&mut blocks, Format::Txt);
        let kinds: Vec<(BlockKind, Option<u8>)> =
            blocks.iter().map(|b| (b.kind, b.level)).collect();
        use BlockKind::*;
        assert_eq!(
            kinds,
            [
                (Heading, Some(1)),
                (Body, None),
                (List, None),
                (Caption, None),
                (Heading, Some(1)),
                (Reference, None),
                (Heading, Some(1)),
                (Body, None),
            ]
        );
        // In a .docx the document's own numbers are not headings: only its marks are.
        let mut docx = vec![Block::body("1 引言"), Block::heading("1.2 数据来源")];
        classify(&mut docx, Format::Docx);
        assert_eq!(docx[0].kind, BlockKind::Body);
        assert_eq!((docx[1].kind, docx[1].level), (BlockKind::Heading, Some(2)));
    }
}
