//! The styles part, read as far as paragraph kinds need: each paragraph style's id, name, base and
//! outline level, streamed with quick-xml and nothing else built. A python-docx document carries a
//! 350 KB styles part; building docx-rs's whole model of it cost a Word file several times what its body
//! costs (`docx_styles_streaming_against_docx_rs`, an ignored test, gives the ratio). docx-rs still
//! reads the body's events (its XML reader) and writes the test documents. A part is read once per
//! process: documents made from one template carry the same part byte for byte, and the next such
//! document reuses the styles read (`known`, `remember`, by the part's identity as stored).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use quick_xml::encoding::Decoder;
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

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

#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct StyleInfo {
    name: String,
    based_on: Option<String>,
    outline: Option<usize>,
}

/// Paragraph styles by id.
#[derive(Default, Debug, PartialEq, Eq)]
pub struct StyleMap {
    styles: HashMap<String, StyleInfo>,
}

/// Styles parts read in this process, by their identity as stored (the package's styles key): at most
/// [`REMEMBERED`], then the memory starts again.
static READ: Mutex<Option<HashMap<u64, Arc<StyleMap>>>> = Mutex::new(None);

/// Styles parts remembered at most (a map is a few kilobytes).
const REMEMBERED: usize = 64;

/// The styles of a part read before with identity `key`.
pub fn known(key: u64) -> Option<Arc<StyleMap>> {
    let read = READ.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    read.as_ref().and_then(|m| m.get(&key)).cloned()
}

/// Remember `styles`, read from a part with identity `key` (none: nothing to remember by).
pub fn remember(key: Option<u64>, styles: StyleMap) -> Arc<StyleMap> {
    let styles = Arc::new(styles);
    if let Some(key) = key {
        let mut read = READ.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let map = read.get_or_insert_with(HashMap::new);
        if map.len() >= REMEMBERED {
            map.clear();
        }
        map.insert(key, Arc::clone(&styles));
    }
    styles
}

/// The value of attribute `name` (any prefix) of an element, entities resolved.
fn val(e: &BytesStart<'_>, name: &[u8], decoder: Decoder) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .and_then(|a| {
            a.decoded_and_normalized_value(XmlVersion::Implicit1_0, decoder)
                .ok()
                .map(|v| v.into_owned())
        })
}

impl StyleMap {
    /// The paragraph styles of a styles part. A style without a `w:type` is a paragraph style, as the
    /// format says. A part that is not well-formed XML (unclosed or mismatched elements, a second root,
    /// nesting deeper than the body may) gives no styles, as a missing part does: headings are then
    /// recognised by the paragraphs' own outline levels only.
    pub fn from_part(xml: Option<&[u8]>) -> Self {
        let Some(xml) = xml else {
            return StyleMap::default();
        };
        let mut styles = HashMap::new();
        let mut reader = Reader::from_reader(xml);
        // The style being read: its id, whether it is a paragraph style, what it says.
        let mut current: Option<(String, bool, StyleInfo)> = None;
        let (mut depth, mut roots) = (0usize, 0usize);
        loop {
            let (e, empty) = match reader.read_event() {
                Ok(Event::Start(e)) => {
                    roots += usize::from(depth == 0);
                    depth += 1;
                    if depth > super::package::MAX_XML_DEPTH || roots > 1 {
                        return StyleMap::default();
                    }
                    (e, false)
                }
                Ok(Event::Empty(e)) => {
                    roots += usize::from(depth == 0);
                    (e, true)
                }
                Ok(Event::End(e)) => {
                    depth = depth.saturating_sub(1);
                    if e.local_name().as_ref() == b"style" {
                        if let Some((id, true, info)) = current.take() {
                            styles.entry(id).or_insert(info);
                        }
                    }
                    continue;
                }
                Ok(Event::Eof) if depth == 0 && roots == 1 => break,
                Ok(Event::Eof) | Err(_) => return StyleMap::default(),
                Ok(_) => continue,
            };
            let d = reader.decoder();
            match e.local_name().as_ref() {
                b"style" => {
                    let paragraph = val(&e, b"type", d).is_none_or(|t| t == "paragraph");
                    let id = val(&e, b"styleId", d).unwrap_or_default();
                    current = Some((id, paragraph, StyleInfo::default()));
                    if empty {
                        if let Some((id, true, info)) = current.take() {
                            styles.entry(id).or_insert(info);
                        }
                    }
                }
                b"name" => {
                    if let Some((_, _, info)) = current.as_mut() {
                        info.name = val(&e, b"val", d).unwrap_or_default();
                    }
                }
                b"basedOn" => {
                    if let Some((_, _, info)) = current.as_mut() {
                        info.based_on = val(&e, b"val", d);
                    }
                }
                b"outlineLvl" => {
                    if let Some((_, _, info)) = current.as_mut() {
                        info.outline = val(&e, b"val", d).and_then(|v| v.trim().parse().ok());
                    }
                }
                _ => {}
            }
        }
        StyleMap { styles }
    }

    /// The same map built from docx-rs's whole model of the part, the way it was read before: the
    /// baseline the streaming reader is compared with (equal maps, and its speed).
    #[cfg(test)]
    pub(super) fn from_docx_rs(xml: &[u8]) -> Self {
        use docx_rs::{FromXML, StyleType, Styles};
        let Ok(parsed) = Styles::from_xml(xml) else {
            return StyleMap::default();
        };
        let string = |v: serde_json::Result<serde_json::Value>| {
            v.ok().and_then(|v| v.as_str().map(str::to_owned))
        };
        let styles = parsed
            .styles
            .iter()
            .filter(|s| s.style_type == StyleType::Paragraph)
            .map(|s| {
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
