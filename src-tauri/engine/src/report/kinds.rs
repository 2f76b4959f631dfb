//! What kind of text a copied passage is, read from the submission itself: a **quotation** (inside
//! quotation marks with a citation nearby), an entry of the **references** section, or plain copying.
//!
//! Rules (docs/how-it-works.md, "Quotes and references"):
//! - Quoted regions are the text between matching marks “…” 「…」 『…』 ‘…’ or straight "…" (paired in
//!   order), marks included.
//! - A quoted region is **cited** when, within [`NEAR`] characters after its closing mark, a citation
//!   follows: a bracketed number `[3]` `［3］` `[3, 5]`, an author–year parenthesis `（王明，2019）`
//!   `(Smith, 2019)` `(Smith et al. 2019: 12)`, a footnote mark (superscript digits, circled numbers
//!   ①–⑳); or when, within [`NEAR`] characters before its opening mark, an introducing phrase stands:
//!   …所说, …所述, …所言, …指出, …认为, …写道, …曾说, …说过, …提到, …强调 (正如王明所说：“…”), according to,
//!   … says/said/states/stated/writes/wrote/notes/puts it.
//! - A passage is `quoted` when at least half of its characters lie in a cited quoted region; a passage
//!   at least half in an uncited one stays `copied` and is marked `in_quotes`.
//! - The references section starts at a paragraph that is only a heading such as 参考文献, 引用文献,
//!   References, Bibliography, Works Cited (with an optional number or colon), and runs to the end of
//!   the document or to a heading of 附录, 致谢, Appendix or Acknowledgements; every passage in it is
//!   `reference`.

use serde::Serialize;

/// Characters around a quotation searched for its citation.
pub const NEAR: usize = 24;

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

/// Quoted regions of `text`, `[start, end)` in characters (marks included), each with whether it is
/// cited.
pub fn quotations(text: &str) -> Vec<([usize; 2], bool)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let close = match chars[i] {
            '“' => Some('”'),
            '「' => Some('」'),
            '『' => Some('』'),
            '‘' => Some('’'),
            '"' => Some('"'),
            _ => None,
        };
        let Some(close) = close else {
            i += 1;
            continue;
        };
        match chars[i + 1..].iter().position(|&c| c == close) {
            Some(len) => {
                let end = i + 1 + len + 1;
                out.push(([i, end], cited(&chars, i, end)));
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

fn cited(chars: &[char], start: usize, end: usize) -> bool {
    let after: String = chars[end..].iter().take(NEAR).collect();
    let before: String = chars[start.saturating_sub(NEAR)..start].iter().collect();
    citation_follows(&after) || introduced(&before)
}

/// A citation at the start of `after` (after optional punctuation and spaces).
fn citation_follows(after: &str) -> bool {
    let rest = after.trim_start_matches(|c: char| c.is_whitespace() || "，,。.；;：:".contains(c));
    let mut it = rest.chars();
    match it.next() {
        Some(c) if is_footnote_mark(c) => true,
        Some('[') | Some('［') => {
            let inner: String = it.take_while(|&c| c != ']' && c != '］').collect();
            !inner.is_empty()
                && inner
                    .chars()
                    .all(|c| c.is_ascii_digit() || " ,，-–、".contains(c))
        }
        Some('(') | Some('（') => {
            let inner: String = it.take_while(|&c| c != ')' && c != '）').collect();
            has_year(&inner) && inner.chars().any(|c| c.is_alphabetic())
        }
        _ => false,
    }
}

/// A four-digit year (1500–2099) in `text`.
fn has_year(text: &str) -> bool {
    let digits: Vec<char> = text.chars().collect();
    digits.windows(4).enumerate().any(|(i, w)| {
        w.iter().all(|c| c.is_ascii_digit())
            && matches!(w[0], '1' | '2')
            && !digits.get(i + 4).is_some_and(|c| c.is_ascii_digit())
            && (i == 0 || !digits[i - 1].is_ascii_digit())
    })
}

fn is_footnote_mark(c: char) -> bool {
    matches!(c, '¹' | '²' | '³' | '⁰'..='⁹' | '①'..='⑳' | '*' | '†')
}

/// An introducing phrase just before a quotation.
fn introduced(before: &str) -> bool {
    let tail = before.trim_end_matches(|c: char| c.is_whitespace() || "：:，,".contains(c));
    let lower = tail.to_lowercase();
    const ZH: [&str; 10] = [
        "所说", "所述", "所言", "指出", "认为", "写道", "曾说", "说过", "提到", "强调",
    ];
    const EN: [&str; 8] = [
        "says", "said", "states", "stated", "writes", "wrote", "notes", "puts it",
    ];
    ZH.iter().any(|w| tail.ends_with(w))
        || EN.iter().any(|w| lower.ends_with(w))
        || lower.contains("according to")
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

    fn cited_flags(text: &str) -> Vec<bool> {
        quotations(text).into_iter().map(|(_, c)| c).collect()
    }

    #[test]
    fn quotations_with_a_citation_nearby_are_cited() {
        assert_eq!(
            cited_flags("他说“自由软件是一种精神”[3]，我们同意。"),
            [true]
        );
        assert_eq!(cited_flags("“自由软件是一种精神”（王明，2019）。"), [true]);
        assert_eq!(cited_flags("正如王明所说：“自由软件是一种精神”。"), [true]);
        assert_eq!(
            cited_flags("As Stallman puts it, \"free software is a matter of liberty\"."),
            [true]
        );
        assert_eq!(
            cited_flags("\"Free software is a matter of liberty\" (Stallman, 2002)."),
            [true]
        );
        assert_eq!(cited_flags("「自由軟體是一種精神」①"), [true]);
        // Quotation marks alone are not a citation; neither is a parenthesis without a year.
        assert_eq!(cited_flags("他说“自由软件是一种精神”，我们同意。"), [false]);
        assert_eq!(cited_flags("“自由软件是一种精神”（见上文）"), [false]);
        assert_eq!(
            cited_flags("查询数据库时，“变量赋值之后要经过扩展”这样"),
            [false]
        );
        assert_eq!(cited_flags("an unclosed “quote"), Vec::<bool>::new());
        assert_eq!(quotations("a “b” c")[0].0, [2, 5]);
    }

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
