//! What kind of text a copied passage is, read from the submission itself: a **quotation** (inside
//! quotation marks, or a block quotation, with a citation: the grammar is in [`super::citations`]), an
//! entry of the **references** section, or plain copying.
//!
//! - A passage is `quoted` when at least half of its characters lie in a cited quotation; a passage at
//!   least half in an uncited one stays `copied` and is marked `in_quotes`.
//! - The references section starts at a paragraph that is only a heading such as 参考文献, 引用文献,
//!   References, Bibliography, Works Cited (with an optional number or colon), and runs to the end of
//!   the document or to a heading of 附录, 致谢, Appendix or Acknowledgements; every passage in it is
//!   `reference`.

use serde::Serialize;

/// The kind of a copied passage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SpanKind {
    /// Plain copying.
    Copied,
    /// Quoted with a citation.
    Quoted,
    /// In the references section.
    Reference,
    /// Text of a library document with the `template` role: never counted as copying.
    Template,
    /// Text of a library document by the writer (`check --author`): the writer's own earlier work.
    Own,
}

impl SpanKind {
    pub fn from_name(name: &str) -> Option<SpanKind> {
        match name {
            "copied" => Some(SpanKind::Copied),
            "quoted" | "quotes" => Some(SpanKind::Quoted),
            "reference" | "references" => Some(SpanKind::Reference),
            "template" | "templates" => Some(SpanKind::Template),
            "own" => Some(SpanKind::Own),
            _ => None,
        }
    }
}

pub use crate::extract::kinds::{is_references_heading, references_section};

/// Share of the non-whitespace characters of `range` in `text` inside any of `regions`.
pub fn share_inside(text: &str, range: [usize; 2], regions: &[[usize; 2]]) -> f64 {
    let (mut all, mut inside) = (0usize, 0usize);
    for (i, c) in text
        .chars()
        .enumerate()
        .skip(range[0])
        .take(range[1].saturating_sub(range[0]))
    {
        if c.is_whitespace() {
            continue;
        }
        all += 1;
        inside += usize::from(regions.iter().any(|r| r[0] <= i && i < r[1]));
    }
    if all == 0 {
        0.0
    } else {
        inside as f64 / all as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_references_section_runs_from_its_heading_to_an_appendix() {
        let doc = [
            "第一章 绪论",
            "正文。",
            "参考文献",
            "[1] 王明. 自由软件研究[J]. 2019.",
            "[2] Smith J. Free software. 2002.",
            "附录 A",
            "附录正文。",
        ];
        assert_eq!(
            references_section(&doc),
            [false, false, true, true, true, false, false]
        );
        assert!(is_references_heading("References:"));
        assert!(is_references_heading("7 参考文献"));
        assert!(!is_references_heading("参考文献的整理方法很重要。"));
    }
}
