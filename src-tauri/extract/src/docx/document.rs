//! The one reader of the main document part (`word/document.xml`): a single pass over its XML events
//! that keeps no document model, only the paragraphs still open (a paragraph holding a text box holds the
//! box's paragraphs until it ends). Every rule of what is read lives here; see the module documentation
//! of `docx` for the list.
//!
//! Elements are told apart by prefix and local name: the WordprocessingML prefix is the one the root
//! element declares for its namespace (transitional or strict; `w` when none is declared, none for a
//! default namespace). docx-rs's XML reader, used here, does not resolve namespaces. An element the reader does not know is read through: its content
//! counts as if it were not there (smart tags, custom XML, simple fields, hyperlinks, `mc:Choice`,
//! drawings and VML shapes on the way to a text box). An element that is left out is skipped with all it
//! holds.

use docx_rs::{EventReader, OwnedAttribute, OwnedName, XmlEvent};

use super::styles::{Role, StyleMap};
use crate::{Block, BlockKind};

/// WordprocessingML's namespace: transitional (what Word writes) and strict.
const W_NAMESPACES: [&str; 2] = [
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "http://purl.oclc.org/ooxml/wordprocessingml/main",
];

/// Fields open at once (a damaged document may begin fields it never ends).
const MAX_OPEN_FIELDS: usize = 64;

/// The elements the reader tells apart (all WordprocessingML).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tag {
    Body,
    /// `w:p`
    Paragraph,
    /// `w:pPr`
    ParagraphProperties,
    /// `w:r`
    Run,
    /// `w:rPr`
    RunProperties,
    /// `w:t`
    Text,
    /// `w:instrText`
    Instruction,
    /// `w:tc`
    Cell,
    /// `w:txbxContent`
    TextBox,
    /// `w:sdt`; `block` when it stands where paragraphs do (then it has a frame), `toc` once its
    /// properties mark it as a table of contents.
    ContentControl {
        block: bool,
        toc: bool,
    },
    /// `w:sdtPr`
    ControlProperties,
    /// `w:docPartObj`, `w:docPartList`
    DocPart,
    Other,
}

/// Text being collected: a paragraph, or a block-level content control (for runs written directly in
/// it, outside any paragraph).
struct Frame {
    control: bool,
    text: String,
    style: Option<String>,
    outline: Option<usize>,
    /// Inside a table-of-contents field.
    in_toc: bool,
    /// The paragraph has list numbering (`w:numPr`).
    numbered: bool,
    /// The paragraph stands in a table cell.
    in_cell: bool,
    /// The current run is hidden (`w:vanish`).
    hidden: bool,
    /// Paragraphs that end inside this one (text boxes anchored here) or inside this content control.
    nested: Vec<Block>,
}

impl Frame {
    fn new(control: bool, in_toc: bool) -> Self {
        Frame {
            control,
            text: String::new(),
            style: None,
            outline: None,
            in_toc,
            numbered: false,
            in_cell: false,
            hidden: false,
            nested: Vec::new(),
        }
    }
}

/// A field being read (between `fldChar begin` and `fldChar end`).
#[derive(Default)]
struct Field {
    /// The start of the instruction (enough to recognise `TOC`).
    instr: String,
    toc: bool,
}

impl Field {
    /// Add instruction text; notes whether the field is a table of contents (`TOC \o …`).
    fn add_instr(&mut self, s: &str) {
        if self.instr.len() < 64 {
            self.instr.push_str(s);
        }
        let instr = self.instr.trim_start();
        self.toc = instr.len() >= 3
            && instr.as_bytes()[..3].eq_ignore_ascii_case(b"TOC")
            && !instr[3..].starts_with(|c: char| c.is_alphanumeric());
    }
}

/// The blocks of a main document part that the package check found well formed.
pub fn blocks(xml: &[u8], styles: &StyleMap) -> Vec<Block> {
    let (blocks, toc_field_open) = read(xml, styles, true);
    if toc_field_open {
        // A TOC field that never ends would hide the rest of the document: read it again trusting only
        // styles and content controls to find the table of contents.
        return read(xml, styles, false).0;
    }
    blocks
}

/// Read the document; also says whether a TOC field was still open at the end. With `toc_fields`
/// false, paragraphs inside TOC fields are kept.
fn read(xml: &[u8], styles: &StyleMap, toc_fields: bool) -> (Vec<Block>, bool) {
    let mut parser = EventReader::new(xml);
    let mut out = Vec::new();
    // The WordprocessingML prefix, from the root's namespace declarations.
    let mut w_prefix: Option<Option<String>> = None;
    let mut stack: Vec<Tag> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut fields: Vec<Field> = Vec::new();
    // While an element is being skipped: the stack depth at which it was opened.
    let mut skip_until: Option<usize> = None;
    loop {
        let event = match parser.next_event() {
            Ok(XmlEvent::EndDocument) | Err(_) => break,
            Ok(event) => event,
        };
        match event {
            XmlEvent::StartElement {
                name, attributes, ..
            } => {
                if skip_until.is_some() {
                    stack.push(Tag::Other);
                    continue;
                }
                let w_prefix = w_prefix.get_or_insert_with(|| main_prefix(&attributes));
                let is_w = name.prefix == *w_prefix;
                let toc_active = toc_fields && fields.iter().any(|f| f.toc);
                let (tag, skip) = open(
                    is_w,
                    &name,
                    &attributes,
                    &mut stack,
                    &mut frames,
                    &mut fields,
                    toc_active,
                );
                if skip {
                    skip_until = Some(stack.len());
                }
                stack.push(tag);
            }
            XmlEvent::Characters(s) | XmlEvent::Whitespace(s) => {
                if skip_until.is_some() {
                    continue;
                }
                match stack.last() {
                    Some(Tag::Text) => {
                        if let Some(frame) = frames.last_mut().filter(|f| !f.hidden) {
                            frame.text.push_str(&s);
                        }
                    }
                    Some(Tag::Instruction) => {
                        if let Some(field) = fields.last_mut() {
                            field.add_instr(&s);
                        }
                        if toc_fields && fields.iter().any(|f| f.toc) {
                            if let Some(frame) = frames.last_mut() {
                                frame.in_toc = true;
                            }
                        }
                    }
                    _ => {}
                }
            }
            XmlEvent::EndElement { .. } => {
                let Some(tag) = stack.pop() else {
                    break;
                };
                if let Some(depth) = skip_until {
                    if depth == stack.len() {
                        skip_until = None;
                    }
                    continue;
                }
                if matches!(
                    tag,
                    Tag::Paragraph | Tag::ContentControl { block: true, .. }
                ) {
                    if let Some(frame) = frames.pop() {
                        let finished = finish(frame, styles);
                        match frames.last_mut() {
                            Some(parent) => parent.nested.extend(finished),
                            None => out.extend(finished),
                        }
                    }
                }
            }
            XmlEvent::EndDocument => break,
        }
    }
    (out, fields.iter().any(|f| f.toc))
}

/// Act on the start of an element: its tag, and whether it is skipped with all it holds.
fn open(
    is_w: bool,
    name: &OwnedName,
    attributes: &[OwnedAttribute],
    stack: &mut [Tag],
    frames: &mut Vec<Frame>,
    fields: &mut Vec<Field>,
    toc_active: bool,
) -> (Tag, bool) {
    let local = name.local_name.as_str();
    if !is_w {
        // The fallback of markup compatibility repeats its choice for older readers (a text box as
        // DrawingML, then again as VML).
        return (Tag::Other, local == "Fallback");
    }
    let n = stack.len();
    let parent = stack.last().copied();
    let grandparent = n.checked_sub(2).map(|i| stack[i]);
    let val = || attr(attributes, "val");
    let tag = match local {
        "body" => Tag::Body,
        "p" => {
            let mut frame = Frame::new(false, toc_active);
            // In a cell when the nearest place paragraphs stand in is a table cell.
            frame.in_cell = stack
                .iter()
                .rev()
                .find(|t| matches!(t, Tag::Paragraph | Tag::Body | Tag::Cell | Tag::TextBox))
                == Some(&Tag::Cell);
            frames.push(frame);
            Tag::Paragraph
        }
        "numPr" if parent == Some(Tag::ParagraphProperties) => {
            if let Some(frame) = frames.last_mut() {
                frame.numbered = true;
            }
            Tag::Other
        }
        // `w:numId w:val="0"` takes a style's numbering away.
        "numId" if n >= 2 && stack[n - 2] == Tag::ParagraphProperties && val() == Some("0") => {
            if let Some(frame) = frames.last_mut() {
                frame.numbered = false;
            }
            Tag::Other
        }
        "pPr" => Tag::ParagraphProperties,
        "pStyle" if parent == Some(Tag::ParagraphProperties) => {
            if let Some(frame) = frames.last_mut() {
                frame.style = val().map(str::to_owned);
            }
            Tag::Other
        }
        "outlineLvl" if parent == Some(Tag::ParagraphProperties) => {
            if let Some(frame) = frames.last_mut() {
                // Not a number: no outline level (the paragraph is still read).
                frame.outline = val().and_then(|v| v.trim().parse().ok());
            }
            Tag::Other
        }
        "r" => {
            if let Some(frame) = frames.last_mut() {
                frame.hidden = false;
            }
            Tag::Run
        }
        "rPr" => Tag::RunProperties,
        // Hidden text is not shown or printed; leaving it out also stops padding a document with
        // invisible words to dilute its similarity. `w:val="0"` (or false, off) turns it off.
        "vanish" if parent == Some(Tag::RunProperties) && grandparent == Some(Tag::Run) => {
            if let Some(frame) = frames.last_mut() {
                frame.hidden = !matches!(val(), Some("0" | "false" | "off"));
            }
            Tag::Other
        }
        "t" => Tag::Text,
        "tab" | "br" | "cr" | "ptab" | "noBreakHyphen" if parent == Some(Tag::Run) => {
            if let Some(frame) = frames.last_mut().filter(|f| !f.hidden) {
                frame
                    .text
                    .push(if local == "noBreakHyphen" { '-' } else { ' ' });
            }
            Tag::Other
        }
        // A footnote's or endnote's number in the text: kept as a mark whose offset `finish` records.
        "footnoteReference" | "endnoteReference" if parent == Some(Tag::Run) => {
            if let Some(frame) = frames.last_mut().filter(|f| !f.hidden) {
                frame.text.push(crate::NOTE_MARK);
            }
            Tag::Other
        }
        "instrText" => Tag::Instruction,
        "fldChar" => {
            match attr(attributes, "fldCharType") {
                Some("begin") if fields.len() < MAX_OPEN_FIELDS => fields.push(Field::default()),
                Some("end") => {
                    fields.pop();
                }
                _ => {}
            }
            Tag::Other
        }
        // Deleted and moved-away text; old properties kept by tracked changes (they would otherwise
        // overwrite the paragraph's style or a run's hidden flag); section properties.
        "del" | "moveFrom" | "rPrChange" | "pPrChange" | "tblPrChange" | "trPrChange"
        | "tcPrChange" | "tblGridChange" | "sectPrChange" | "sectPr" => return (Tag::Other, true),
        "tc" => Tag::Cell,
        // A text box anchored in a hidden run is hidden with it.
        "txbxContent" => {
            let hidden = frames.last().is_some_and(|f| f.hidden);
            return (Tag::TextBox, hidden);
        }
        "sdt" => {
            // Block level unless the nearest enclosing paragraph is nearer than the nearest place
            // paragraphs stand in (body, table cell, text box).
            let block = stack
                .iter()
                .rev()
                .find(|t| matches!(t, Tag::Paragraph | Tag::Body | Tag::Cell | Tag::TextBox))
                != Some(&Tag::Paragraph);
            if block {
                frames.push(Frame::new(true, toc_active));
            }
            Tag::ContentControl { block, toc: false }
        }
        "sdtPr" => Tag::ControlProperties,
        "docPartObj" | "docPartList" => Tag::DocPart,
        "docPartGallery"
            if parent == Some(Tag::DocPart) && grandparent == Some(Tag::ControlProperties) =>
        {
            let toc = val().is_some_and(|v| v.to_ascii_lowercase().contains("table of contents"));
            if let Some(Tag::ContentControl { toc: flag, .. }) =
                n.checked_sub(3).and_then(|i| stack.get_mut(i))
            {
                *flag |= toc;
            }
            Tag::Other
        }
        // The content of a content control marked as a table of contents.
        "sdtContent" if matches!(parent, Some(Tag::ContentControl { toc: true, .. })) => {
            return (Tag::Other, true);
        }
        _ => Tag::Other,
    };
    (tag, false)
}

/// The blocks a finished frame gives. A paragraph: itself (unless it is empty or part of a table of
/// contents), then the paragraphs of its text boxes. A content control: its paragraphs, then the text of
/// runs written directly in it, as a body paragraph.
fn finish(frame: Frame, styles: &StyleMap) -> Vec<Block> {
    let Frame {
        control,
        text,
        style,
        outline,
        in_toc,
        nested,
        numbered,
        in_cell,
        ..
    } = frame;
    if control {
        let mut blocks = nested;
        if !in_toc && !text.trim().is_empty() {
            blocks.push(Block::body(text));
        }
        return blocks;
    }
    let role = styles.role_of(style.as_deref(), outline);
    if in_toc || role == Role::Toc {
        return Vec::new();
    }
    if text.trim().is_empty() {
        return nested;
    }
    let (kind, level) = match role {
        Role::Heading(level) => (BlockKind::Heading, level),
        Role::Caption => (BlockKind::Caption, None),
        _ if in_cell => (BlockKind::Table, None),
        Role::List => (BlockKind::List, None),
        _ if numbered => (BlockKind::List, None),
        _ => (BlockKind::Body, None),
    };
    let mut blocks = Vec::with_capacity(1 + nested.len());
    blocks.push(Block {
        text,
        kind,
        level,
        notes: Vec::new(),
    });
    blocks.extend(nested);
    blocks
}

fn attr<'a>(attributes: &'a [OwnedAttribute], local: &str) -> Option<&'a str> {
    attributes
        .iter()
        .find(|a| a.name.local_name == local)
        .map(|a| a.value.as_str())
}

/// The prefix the root element declares for WordprocessingML (`None` for a default namespace, `w` when
/// it declares none).
fn main_prefix(attributes: &[OwnedAttribute]) -> Option<String> {
    for a in attributes
        .iter()
        .filter(|a| W_NAMESPACES.contains(&a.value.as_str()))
    {
        match (a.name.prefix.as_deref(), a.name.local_name.as_str()) {
            (Some("xmlns"), prefix) => return Some(prefix.to_owned()),
            (None, "xmlns") => return None,
            _ => {}
        }
    }
    Some(String::from("w"))
}
