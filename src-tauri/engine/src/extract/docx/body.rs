//! Walking the document model docx-rs builds, in reading order, into blocks.

use std::collections::HashMap;

use docx_rs::{
    Document, DocumentChild, DrawingData, FieldCharType, InsertChild, MoveToChild, Paragraph,
    ParagraphChild, ParagraphProperty, Run, RunChild, StructuredDataTag, StructuredDataTagChild,
    StyleType, Styles, Table, TableCellContent, TableChild, TableRowChild, TextBoxContentChild,
};

use crate::extract::{Block, BlockKind};

/// How deep nested tables, text boxes and content controls are followed (the package check already
/// bounds XML nesting to the same number; this keeps the walk itself bounded whatever the model holds).
const MAX_NESTING: usize = super::package::MAX_XML_DEPTH;

/// The body's blocks. `toc_sdts` flags the top-level content controls that are a table of contents (from
/// the package scan); it is ignored when its length does not match the model's.
pub fn blocks(document: &Document, styles: &StyleMap, toc_sdts: &[bool]) -> Vec<Block> {
    let first = Walker::new(styles, toc_sdts, true).walk(document);
    if first.toc_field_open {
        // A TOC field that never ends would hide the rest of the document: read it again trusting only
        // styles and content controls to find the table of contents.
        return Walker::new(styles, toc_sdts, false).walk(document).blocks;
    }
    first.blocks
}

/// What a paragraph's style makes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    Body,
    Heading,
    Toc,
}

struct StyleInfo {
    name: String,
    based_on: Option<String>,
    outline: Option<usize>,
}

/// Paragraph styles by id.
pub struct StyleMap {
    styles: HashMap<String, StyleInfo>,
}

impl StyleMap {
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

    fn role(&self, property: &ParagraphProperty) -> Role {
        self.role_of(
            property.style.as_ref().map(|s| s.val.as_str()),
            property.outline_lvl.as_ref().map(|o| o.v),
        )
    }

    /// The role of a paragraph with style `style` and direct outline level `outline`.
    pub fn role_of(&self, style: Option<&str>, outline: Option<usize>) -> Role {
        let chain = self.chain(style);
        if chain
            .iter()
            .any(|(id, info)| is_toc_style(id, info.map_or("", |i| i.name.as_str())))
        {
            return Role::Toc;
        }
        if let Some(level) = outline {
            return if level < 9 { Role::Heading } else { Role::Body };
        }
        for (id, info) in chain {
            if is_heading_style(id, info.map_or("", |i| i.name.as_str())) {
                return Role::Heading;
            }
            if let Some(level) = info.and_then(|i| i.outline) {
                return if level < 9 { Role::Heading } else { Role::Body };
            }
        }
        Role::Body
    }
}

/// Word's `heading 1`…`heading 9`, `Title`, `Subtitle`; Chinese `标题`, `标题 1`, `副标题`.
fn is_heading_style(id: &str, name: &str) -> bool {
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

/// Table of contents, table of figures and their headings: Word's `toc 1`, `TOC Heading`, `table of
/// figures`; LibreOffice's `Contents 1`, `Contents Heading`; Chinese `目录 1`.
fn is_toc_style(id: &str, name: &str) -> bool {
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

/// A field being read (between `fldChar begin` and `fldChar end`).
#[derive(Default)]
pub struct Field {
    /// The start of the instruction (enough to recognise `TOC`).
    instr: String,
    pub toc: bool,
}

impl Field {
    /// Add instruction text; notes whether the field is a table of contents (`TOC \o …`).
    pub fn add_instr(&mut self, s: &str) {
        if self.instr.len() < 64 {
            self.instr.push_str(s);
        }
        let instr = self.instr.trim_start();
        self.toc = instr.len() >= 3
            && instr.as_bytes()[..3].eq_ignore_ascii_case(b"TOC")
            && !instr[3..].starts_with(|c: char| c.is_alphanumeric());
    }
}

/// Fields open at once (a damaged document may begin fields it never ends).
pub const MAX_OPEN_FIELDS: usize = 64;

struct Walked {
    blocks: Vec<Block>,
    toc_field_open: bool,
}

struct Walker<'a> {
    styles: &'a StyleMap,
    toc_sdts: &'a [bool],
    toc_fields: bool,
    fields: Vec<Field>,
    blocks: Vec<Block>,
    depth: usize,
}

/// Text collected from one paragraph.
#[derive(Default)]
struct ParagraphText<'d> {
    text: String,
    boxes: Vec<&'d [TextBoxContentChild]>,
    in_toc: bool,
}

impl<'a> Walker<'a> {
    fn new(styles: &'a StyleMap, toc_sdts: &'a [bool], toc_fields: bool) -> Self {
        Walker {
            styles,
            toc_sdts,
            toc_fields,
            fields: Vec::new(),
            blocks: Vec::new(),
            depth: 0,
        }
    }

    fn walk(mut self, document: &Document) -> Walked {
        let children = &document.children;
        let sdts = children
            .iter()
            .filter(|c| matches!(c, DocumentChild::StructuredDataTag(_)))
            .count();
        let flags = if sdts == self.toc_sdts.len() {
            self.toc_sdts
        } else {
            &[]
        };
        let mut sdt_index = 0;
        for child in children {
            match child {
                DocumentChild::Paragraph(p) => self.paragraph(p),
                DocumentChild::Table(t) => self.table(t),
                DocumentChild::StructuredDataTag(sdt) => {
                    let toc = flags.get(sdt_index).copied().unwrap_or(false);
                    sdt_index += 1;
                    if !toc {
                        self.sdt(sdt);
                    }
                }
                // Only made by docx-rs's builder; a reader never gives it.
                DocumentChild::TableOfContents(_) => {}
                _ => {}
            }
        }
        Walked {
            toc_field_open: self.fields.iter().any(|f| f.toc),
            blocks: self.blocks,
        }
    }

    fn toc_field_active(&self) -> bool {
        self.toc_fields && self.fields.iter().any(|f| f.toc)
    }

    fn paragraph(&mut self, p: &Paragraph) {
        let mut collected = ParagraphText {
            in_toc: self.toc_field_active(),
            ..ParagraphText::default()
        };
        self.paragraph_children(&p.children, &mut collected);
        let role = self.styles.role(&p.property);
        if collected.in_toc || role == Role::Toc {
            return;
        }
        if !collected.text.trim().is_empty() {
            let kind = if role == Role::Heading {
                BlockKind::Heading
            } else {
                BlockKind::Body
            };
            self.blocks.push(Block {
                text: collected.text,
                kind,
            });
        }
        for text_box in collected.boxes {
            self.nested(|w| w.text_box(text_box));
        }
    }

    /// Run `f` one level deeper, unless the nesting limit is reached.
    fn nested(&mut self, f: impl FnOnce(&mut Self)) {
        if self.depth < MAX_NESTING {
            self.depth += 1;
            f(self);
            self.depth -= 1;
        }
    }

    fn paragraph_children<'d>(
        &mut self,
        children: &'d [ParagraphChild],
        out: &mut ParagraphText<'d>,
    ) {
        for child in children {
            match child {
                ParagraphChild::Run(r) => self.run(r, out),
                ParagraphChild::Insert(ins) => {
                    for c in &ins.children {
                        if let InsertChild::Run(r) = c {
                            self.run(r, out);
                        }
                    }
                }
                ParagraphChild::MoveTo(mv) => {
                    for c in &mv.children {
                        if let MoveToChild::Run(r) = c {
                            self.run(r, out);
                        }
                    }
                }
                ParagraphChild::Hyperlink(h) => {
                    let children = &h.children;
                    self.nested(|w| w.paragraph_children(children, out));
                }
                ParagraphChild::StructuredDataTag(sdt) => {
                    self.nested(|w| w.inline_sdt(sdt, out));
                }
                // Deleted and moved-away text, comments (docx-rs attaches the comment's own text to its
                // range start), bookmarks, page numbers.
                _ => {}
            }
        }
    }

    fn inline_sdt<'d>(&mut self, sdt: &'d StructuredDataTag, out: &mut ParagraphText<'d>) {
        for child in &sdt.children {
            match child {
                StructuredDataTagChild::Run(r) => self.run(r, out),
                StructuredDataTagChild::StructuredDataTag(inner) => {
                    self.nested(|w| w.inline_sdt(inner, out));
                }
                _ => {}
            }
        }
    }

    fn run<'d>(&mut self, run: &'d Run, out: &mut ParagraphText<'d>) {
        // Hidden text (w:vanish) is not shown or printed; leaving it out also stops padding a document
        // with invisible words to dilute its similarity.
        let hidden = run.run_property.vanish.is_some();
        for child in &run.children {
            match child {
                RunChild::Text(t) if !hidden => out.text.push_str(&t.text),
                RunChild::Tab(_)
                | RunChild::PTab(_)
                | RunChild::Break(_)
                | RunChild::CarriageReturn(_)
                    if !hidden =>
                {
                    out.text.push(' ');
                }
                RunChild::Drawing(d) if !hidden => {
                    if let Some(DrawingData::TextBox(tb)) = &d.data {
                        out.boxes.push(&tb.children);
                    }
                }
                RunChild::FieldChar(f) => match f.field_char_type {
                    FieldCharType::Begin if self.fields.len() < MAX_OPEN_FIELDS => {
                        self.fields.push(Field::default());
                    }
                    FieldCharType::End => {
                        self.fields.pop();
                    }
                    _ => {}
                },
                RunChild::InstrTextString(s) => {
                    if let Some(field) = self.fields.last_mut() {
                        field.add_instr(s);
                    }
                    if self.toc_field_active() {
                        out.in_toc = true;
                    }
                }
                _ => {}
            }
        }
    }

    fn table(&mut self, table: &Table) {
        self.nested(|w| {
            for TableChild::TableRow(row) in &table.rows {
                for TableRowChild::TableCell(cell) in &row.cells {
                    for content in &cell.children {
                        match content {
                            TableCellContent::Paragraph(p) => w.paragraph(p),
                            TableCellContent::Table(t) => w.table(t),
                            TableCellContent::StructuredDataTag(s) => w.sdt(s),
                            TableCellContent::TableOfContents(_) => {}
                        }
                    }
                }
            }
        });
    }

    /// A block-level content control: its paragraphs and tables in order.
    fn sdt(&mut self, sdt: &StructuredDataTag) {
        self.nested(|w| {
            let mut loose = ParagraphText::default();
            for child in &sdt.children {
                match child {
                    StructuredDataTagChild::Paragraph(p) => w.paragraph(p),
                    StructuredDataTagChild::Table(t) => w.table(t),
                    StructuredDataTagChild::StructuredDataTag(inner) => w.sdt(inner),
                    StructuredDataTagChild::Run(r) => w.run(r, &mut loose),
                    _ => {}
                }
            }
            if !loose.in_toc && !loose.text.trim().is_empty() {
                w.blocks.push(Block::body(loose.text));
            }
        });
    }

    fn text_box(&mut self, children: &[TextBoxContentChild]) {
        for child in children {
            match child {
                TextBoxContentChild::Paragraph(p) => self.paragraph(p),
                TextBoxContentChild::Table(t) => self.table(t),
            }
        }
    }
}
