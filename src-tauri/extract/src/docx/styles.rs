//! The styles part, read with docx-rs (`Styles::from_xml`), as the paragraph styles that make a paragraph
//! a heading or part of a table of contents.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use docx_rs::{FromXML, StyleType, Styles};

/// What a paragraph's style (and outline level) makes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    Body,
    /// A heading, with its level (1–9) when the style or outline level gives one.
    Heading(Option<u8>),
    /// A figure or table caption style (`caption`, `题注`).
    Caption,
    /// A list style (`List Paragraph`, `List Bullet`, `列表段落` …).
    List,
    Toc,
}

struct StyleInfo {
    name: String,
    based_on: Option<String>,
    outline: Option<usize>,
}

/// Paragraph styles by id.
#[derive(Default)]
pub struct StyleMap {
    styles: HashMap<String, StyleInfo>,
}

impl StyleMap {
    /// The paragraph styles of a styles part (already checked to be well-formed XML by the package
    /// check). docx-rs gives up on a whole part for one value it cannot parse and unwraps in places: a
    /// styles part it refuses or panics on gives no styles (headings are then recognised by the
    /// paragraphs' own outline levels only), as does a missing one.
    pub fn from_part(xml: Option<&[u8]>) -> Self {
        xml.and_then(|xml| {
            catch_unwind(AssertUnwindSafe(|| Styles::from_xml(xml)))
                .ok()?
                .ok()
        })
        .map(|styles| StyleMap::new(&styles))
        .unwrap_or_default()
    }

    pub fn new(styles: &Styles) -> Self {
        let styles = styles
            .styles
            .iter()
            .filter(|s| s.style_type == StyleType::Paragraph)
            .map(|s| {
                // docx-rs keeps style names and bases private; their serialisation is the plain value.
                let string = |v: serde_json::Result<serde_json::Value>| {
                    v.ok().and_then(|v| v.as_str().map(str::to_owned))
                };
                let info = StyleInfo {
                    name: string(serde_json::to_value(&s.name)).unwrap_or_default(),
                    based_on: s
                        .based_on
                        .as_ref()
                        .and_then(|b| string(serde_json::to_value(b))),
                    outline: s.paragraph_property.outline_lvl.as_ref().map(|o| o.v),
                };
                (s.style_id.clone(), info)
            })
            .collect();
        StyleMap { styles }
    }

    /// The style and its bases, nearest first (at most 16, so a cycle cannot loop).
    fn chain<'a>(&'a self, id: Option<&'a str>) -> Vec<(&'a str, Option<&'a StyleInfo>)> {
        let mut out = Vec::new();
        let mut next = id;
        while let Some(id) = next {
            if out.len() >= 16 || out.iter().any(|(seen, _)| *seen == id) {
                break;
            }
            let info = self.styles.get(id);
            out.push((id, info));
            next = info.and_then(|i| i.based_on.as_deref());
        }
        out
    }

    /// The role of a paragraph with style `style` and direct outline level `outline` (0-based: 0–8 are
    /// Word's levels 1–9, 9 is body text). A TOC style wins; then the paragraph's own outline level; then,
    /// along the style's based-on chain, the first heading style or style outline level.
    pub fn role_of(&self, style: Option<&str>, outline: Option<usize>) -> Role {
        let chain = self.chain(style);
        if chain
            .iter()
            .any(|(id, info)| is_toc_style(id, info.map_or("", |i| i.name.as_str())))
        {
            return Role::Toc;
        }
        let by_outline = |level: usize| {
            if level < 9 {
                Role::Heading(Some(level as u8 + 1))
            } else {
                Role::Body
            }
        };
        if let Some(level) = outline {
            return by_outline(level);
        }
        for (id, info) in chain {
            let name = info.map_or("", |i| i.name.as_str());
            if is_heading_style(id, name) {
                return Role::Heading(heading_style_level(id, name));
            }
            if let Some(level) = info.and_then(|i| i.outline) {
                return by_outline(level);
            }
            if is_caption_style(id, name) {
                return Role::Caption;
            }
            if is_list_style(id, name) {
                return Role::List;
            }
        }
        Role::Body
    }
}

/// Word's `heading 1`…`heading 9`, `Title`, `Subtitle`; Chinese `标题`, `标题 1`, `副标题`.
pub fn is_heading_style(id: &str, name: &str) -> bool {
    let name = name.trim().to_lowercase();
    let numbered = |s: &str, prefix: &str| {
        s.strip_prefix(prefix)
            .map(str::trim)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    numbered(&name, "heading")
        || matches!(name.as_str(), "title" | "subtitle" | "副标题")
        || name.starts_with("标题")
        || numbered(&id.to_lowercase(), "heading")
        || matches!(id, "Title" | "Subtitle")
}

/// The level of a numbered heading style (`heading 2`, `标题 2`); a title is level 1.
fn heading_style_level(id: &str, name: &str) -> Option<u8> {
    for s in [name.trim().to_lowercase(), id.to_lowercase()] {
        let digits: String = s
            .trim_start_matches("heading")
            .trim_start_matches("标题")
            .trim()
            .chars()
            .collect();
        if let Ok(n) = digits.parse::<u8>() {
            return Some(n.clamp(1, 9));
        }
    }
    let name = name.trim().to_lowercase();
    (matches!(name.as_str(), "title" | "标题") || id == "Title").then_some(1)
}

/// Word's `caption`, Chinese `题注`.
fn is_caption_style(id: &str, name: &str) -> bool {
    let name = name.trim().to_lowercase();
    name == "caption" || name == "题注" || id.eq_ignore_ascii_case("caption")
}

/// Word's `List Paragraph`, `List Bullet`, `List Number` (and numbered variants), Chinese `列表段落`,
/// `列出段落`.
fn is_list_style(id: &str, name: &str) -> bool {
    let name = name.trim().to_lowercase();
    name.starts_with("list paragraph")
        || name.starts_with("list bullet")
        || name.starts_with("list number")
        || name.starts_with("列表")
        || name.starts_with("列出段落")
        || id == "ListParagraph"
}

/// Table of contents, table of figures and their headings: Word's `toc 1`, `TOC Heading`, `table of
/// figures`; LibreOffice's `Contents 1`, `Contents Heading`; Chinese `目录 1`.
pub fn is_toc_style(id: &str, name: &str) -> bool {
    let is = |s: &str| {
        let s = s.trim().to_lowercase();
        let s = s.replace(' ', "");
        (s.starts_with("toc") && s[3..].chars().all(|c| c.is_ascii_digit()))
            || s == "tocheading"
            || s == "tableoffigures"
            || (s.starts_with("contents")
                && (s == "contentsheading" || s[8..].chars().all(|c| c.is_ascii_digit())))
            || (s.starts_with("目录") && s["目录".len()..].chars().all(|c| c.is_ascii_digit()))
    };
    is(id) || (!name.is_empty() && is(name))
}
