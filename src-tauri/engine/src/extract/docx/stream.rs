//! A streaming reader over the main document part, used when docx-rs refuses a well-formed document
//! (docx-rs gives up on a whole document for one attribute it cannot parse, such as a non-numeric
//! outline level, and unwraps on others). It follows the same rules as the docx-rs walk in `body`:
//! paragraphs in document order (table cells, content controls and text boxes included), text of
//! `w:t` in runs, hyperlinks, smart tags and insertions; tabs and breaks as spaces; deleted and
//! moved-away text, hidden runs, field instructions, property-change records and `mc:Fallback`
//! duplicates left out; tables of contents left out by content control, field and style; headings by
//! style and outline level. Paragraphs of a text box follow the paragraph that anchors it.

use docx_rs::{EventReader, OwnedAttribute, OwnedName, XmlEvent};

use super::body::{Field, Role, StyleMap, MAX_OPEN_FIELDS};
use crate::extract::{Block, BlockKind};

const W_NS: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

/// A paragraph being read.
#[derive(Default)]
struct Frame {
    text: String,
    style: Option<String>,
    outline: Option<usize>,
    in_toc: bool,
    /// Paragraphs of text boxes anchored in this one.
    nested: Vec<Block>,
}

/// The blocks of a well-formed main document part. `toc_sdts` is as in [`super::package::Package`].
pub fn blocks(xml: &[u8], styles: &StyleMap, toc_sdts: &[bool]) -> Vec<Block> {
    let (blocks, toc_field_open) = read(xml, styles, toc_sdts, true);
    if toc_field_open {
        // A TOC field that never ends would hide the rest of the document (as in `body`).
        return read(xml, styles, toc_sdts, false).0;
    }
    blocks
}

/// Read the document; also says whether a TOC field was still open at the end.
fn read(xml: &[u8], styles: &StyleMap, toc_sdts: &[bool], toc_fields: bool) -> (Vec<Block>, bool) {
    let mut parser = EventReader::new(xml);
    let mut out = Vec::new();
    // The WordprocessingML prefix, from the root's namespace declarations ("w" if none is found).
    let mut w_prefix: Option<Option<String>> = None;
    let mut stack: Vec<(bool, String)> = Vec::new(); // (in the w namespace, local name)
    let mut frames: Vec<Frame> = Vec::new();
    let mut fields: Vec<Field> = Vec::new();
    let mut skip_until: Option<usize> = None;
    let (mut in_text, mut in_instr, mut hidden) = (false, false, false);
    let mut top_sdts = 0usize;
    loop {
        let event = match parser.next_event() {
            Ok(XmlEvent::EndDocument) | Err(_) => break,
            Ok(event) => event,
        };
        match event {
            XmlEvent::StartElement {
                name, attributes, ..
            } => {
                if w_prefix.is_none() {
                    w_prefix = Some(main_prefix(&attributes));
                }
                let w = is_w(&name, w_prefix.as_ref());
                let local = name.local_name;
                let parent = stack.last().filter(|(pw, _)| *pw).map(|(_, l)| l.as_str());
                let skipping = skip_until.is_some();
                let mut skip = false;
                if !skipping {
                    let val = || attr(&attributes, "val");
                    match (w, local.as_str()) {
                        (true, "p") => frames.push(Frame {
                            in_toc: toc_fields && fields.iter().any(|f| f.toc),
                            ..Frame::default()
                        }),
                        (true, "pStyle") if parent == Some("pPr") => {
                            if let Some(frame) = frames.last_mut() {
                                frame.style = val().map(str::to_owned);
                            }
                        }
                        (true, "outlineLvl") if parent == Some("pPr") => {
                            if let Some(frame) = frames.last_mut() {
                                frame.outline = val().and_then(|v| v.trim().parse().ok());
                            }
                        }
                        (true, "r") => hidden = false,
                        (true, "vanish") if parent == Some("rPr") => {
                            hidden = !matches!(val(), Some("0" | "false" | "off"));
                        }
                        (true, "t") => in_text = true,
                        (true, "tab" | "br" | "cr" | "ptab") if parent == Some("r") => {
                            if let Some(frame) = frames.last_mut().filter(|_| !hidden) {
                                frame.text.push(' ');
                            }
                        }
                        (true, "noBreakHyphen") if parent == Some("r") => {
                            if let Some(frame) = frames.last_mut().filter(|_| !hidden) {
                                frame.text.push('-');
                            }
                        }
                        (true, "instrText") => in_instr = true,
                        (true, "fldChar") => match attr(&attributes, "fldCharType") {
                            Some("begin") if fields.len() < MAX_OPEN_FIELDS => {
                                fields.push(Field::default());
                            }
                            Some("end") => {
                                fields.pop();
                            }
                            _ => {}
                        },
                        (true, "del" | "moveFrom" | "rPrChange" | "pPrChange" | "sectPr") => {
                            skip = true;
                        }
                        (_, "Fallback") => skip = true,
                        (true, "sdt") => {
                            let nested = stack
                                .iter()
                                .any(|(sw, l)| *sw && matches!(l.as_str(), "p" | "tbl" | "sdt"));
                            if !nested {
                                skip = toc_sdts.get(top_sdts).copied().unwrap_or(false);
                                top_sdts += 1;
                            }
                        }
                        _ => {}
                    }
                }
                if skip {
                    skip_until = Some(stack.len());
                }
                stack.push((w, local));
            }
            XmlEvent::Characters(s) | XmlEvent::Whitespace(s) => {
                if skip_until.is_some() {
                    continue;
                }
                if in_instr {
                    if let Some(field) = fields.last_mut() {
                        field.add_instr(&s);
                    }
                    if toc_fields && fields.iter().any(|f| f.toc) {
                        if let Some(frame) = frames.last_mut() {
                            frame.in_toc = true;
                        }
                    }
                } else if in_text && !hidden {
                    if let Some(frame) = frames.last_mut() {
                        frame.text.push_str(&s);
                    }
                }
            }
            XmlEvent::EndElement { .. } => {
                let Some((w, local)) = stack.pop() else {
                    break;
                };
                if let Some(depth) = skip_until {
                    if depth == stack.len() {
                        skip_until = None;
                    }
                    continue;
                }
                match (w, local.as_str()) {
                    (true, "t") => in_text = false,
                    (true, "instrText") => in_instr = false,
                    (true, "p") => {
                        if let Some(frame) = frames.pop() {
                            let finished = finish(frame, styles);
                            match frames.last_mut() {
                                Some(parent) => parent.nested.extend(finished),
                                None => out.extend(finished),
                            }
                        }
                    }
                    _ => {}
                }
            }
            XmlEvent::EndDocument => break,
        }
    }
    (out, fields.iter().any(|f| f.toc))
}

/// The blocks a finished paragraph gives: itself (unless it is empty or part of a table of contents),
/// then the paragraphs of its text boxes.
fn finish(frame: Frame, styles: &StyleMap) -> Vec<Block> {
    let role = styles.role_of(frame.style.as_deref(), frame.outline);
    if frame.in_toc || role == Role::Toc {
        return Vec::new();
    }
    let mut blocks = Vec::with_capacity(1 + frame.nested.len());
    if !frame.text.trim().is_empty() {
        let kind = if role == Role::Heading {
            BlockKind::Heading
        } else {
            BlockKind::Body
        };
        blocks.push(Block {
            text: frame.text,
            kind,
        });
    }
    blocks.extend(frame.nested);
    blocks
}

fn attr<'a>(attributes: &'a [OwnedAttribute], local: &str) -> Option<&'a str> {
    attributes
        .iter()
        .find(|a| a.name.local_name == local)
        .map(|a| a.value.as_str())
}

/// The prefix the root element declares for WordprocessingML (`None` for a default namespace).
fn main_prefix(attributes: &[OwnedAttribute]) -> Option<String> {
    for a in attributes.iter().filter(|a| a.value == W_NS) {
        match (a.name.prefix.as_deref(), a.name.local_name.as_str()) {
            (Some("xmlns"), prefix) => return Some(prefix.to_owned()),
            (None, "xmlns") => return None,
            _ => {}
        }
    }
    Some(String::from("w"))
}

fn is_w(name: &OwnedName, w_prefix: Option<&Option<String>>) -> bool {
    match w_prefix {
        Some(prefix) => name.prefix == *prefix,
        None => name.prefix.as_deref() == Some("w"),
    }
}
