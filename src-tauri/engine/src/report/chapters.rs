//! A document's chapters, for the per-chapter figures of a report.
//!
//! Rules (docs/how-it-works.md, "Figures"):
//! - A chapter starts at a heading of level 1 (or of no known level) as the reader marks it
//!   ([`crate::extract::Block::starts_chapter`]) unless its numbering shows a sub-level (`1.2`, `2.3.1`,
//!   `（一）`, `(1)`, `1)`), and at a paragraph that reads as a chapter heading whatever the format
//!   ([`crate::extract::kinds::heading_level`] gives level 1).
//! - Paragraphs before the first chapter heading form a chapter with an empty title; a document without
//!   headings is one chapter with an empty title.

use crate::extract::kinds::{ends_sentence, heading_level, is_sub_level, MAX_HEADING};

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

/// Whether a paragraph (marked as a chapter heading by its document or not) starts a chapter.
pub fn starts_chapter(text: &str, marked: bool) -> bool {
    let t = text.trim();
    let n = t.chars().count();
    if marked {
        n > 0
            && n <= MAX_HEADING
            && !ends_sentence(t)
            && heading_level(t).is_none_or(|l| l == 1)
            && !is_sub_level(t)
    } else {
        heading_level(t) == Some(1)
    }
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
