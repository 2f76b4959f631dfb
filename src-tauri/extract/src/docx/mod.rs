//! Word .docx documents.
//!
//! What is read, in document order:
//!
//! * body paragraphs, list items (the text only, without the list number or bullet) and paragraphs in
//!   content controls (text written in a block-level content control outside any paragraph is a
//!   paragraph of its own, after the control's paragraphs);
//! * tables: every paragraph of every cell is a block, row by row and cell by cell; nested tables are
//!   read where they stand;
//! * text boxes (DrawingML, and VML ones outside `mc:AlternateContent`; every box of a group): their
//!   paragraphs follow the paragraph they are anchored in;
//! * inside a paragraph: runs, hyperlinks, smart tags, inline content controls, custom XML, simple
//!   fields' results and inserted (`w:ins`) or moved-in (`w:moveTo`) text. Tabs and line, page and
//!   column breaks become a space, a non-breaking hyphen a `-`.
//!
//! * footnotes and endnotes (`word/footnotes.xml`, `word/endnotes.xml`, or the parts the document's
//!   relationships name): their paragraphs after the body's, as [`BlockKind::Footnote`]s (their reference
//!   marks in the body disappear from the text).
//!
//! Left out: headers and footers, comments, deleted (`w:del`) and moved-away (`w:moveFrom`) text, hidden
//! runs (`w:vanish`, unless its value turns it off) and the text boxes anchored in them, field
//! instructions, the old properties kept by tracked changes (`w:rPrChange`, `w:pPrChange`, …), the
//! `mc:Fallback` copy of markup-compatibility choices, and the table of contents: a content control
//! marked as one (`w:docPartGallery` "Table of Contents"), paragraphs inside a `TOC` field (unless the
//! field never ends: then only styles and content controls find it), and paragraphs in TOC,
//! table-of-figures or TOC-heading styles. Embedded objects (`w:altChunk`, OLE, charts) and equations
//! are not read.
//!
//! Paragraphs in a heading style (`heading 1`…`9`, `Title`, `Subtitle`, `标题 n`, or any style based on
//! one) or with an outline level 1–9, directly or through their style, are headings with that level
//! (`Title` is level 1); a paragraph's own outline level wins over its style's, and one that is not a
//! number is ignored. Paragraphs in a table cell are [`BlockKind::Table`]; in a caption style (`caption`,
//! `题注`) [`BlockKind::Caption`]; with list numbering (`w:numPr`, unless `w:numId` is 0) or in a list
//! style [`BlockKind::List`].
//!
//! How: [`package::check_reusing`] bounds the unpacked size, unpacks only the main document part and its
//! styles part through size limits and checks their XML (see there); a styles part read before in the
//! process (the same stored bytes) is not unpacked again, its styles are reused. The main document part is then read by
//! `document`, one pass over its XML events that builds no document model (memory stays near the size
//! of the part and the text it yields, and nothing recurses per level of nesting); every rule above is
//! applied there, once. The styles part is streamed the same way (`styles`, quick-xml): only the
//! paragraph styles' ids, names, bases and outline levels are kept, and a styles part that is not well
//! formed only loses the headings known by style. So a .docx is refused only when its zip or its
//! document XML is damaged. docx-rs's part here is its XML event reader (the body) and, in tests,
//! writing Word documents.

mod document;
mod package;
mod styles;

#[cfg(test)]
mod tests;

use std::io::Cursor;

use super::{Block, BlockKind, ExtractError};

/// Whether a zip archive holds a Word document: its central directory lists `word/document.xml`, or
/// `[Content_Types].xml` and a `word/` folder. When the central directory cannot be read (a truncated
/// file), the local file names are searched instead, so that a damaged .docx is reported as such.
pub fn looks_like_docx(bytes: &[u8]) -> bool {
    match zip::ZipArchive::new(Cursor::new(bytes)) {
        Ok(archive) => {
            archive.index_for_name("word/document.xml").is_some()
                || (archive.index_for_name("[Content_Types].xml").is_some()
                    && archive
                        .file_names()
                        .any(|n| n.is_ok_and(|n| n.starts_with("word/"))))
        }
        Err(_) => bytes.windows(17).any(|w| w == b"word/document.xml"),
    }
}

/// Extract the body paragraphs of a .docx (see the module documentation for what is kept).
pub fn extract(bytes: &[u8]) -> Result<Vec<Block>, ExtractError> {
    let (package, known) = package::check_reusing(bytes, styles::known)?;
    let styles = match known {
        Some(styles) => styles,
        None => styles::remember(
            package.styles_key,
            styles::StyleMap::from_part(package.styles.as_deref()),
        ),
    };
    let (document, notes) = (package.document, package.notes);
    let mut blocks = document::blocks(&document, &styles);
    // Footnotes and endnotes after the body, in their parts' order (the separators hold no text).
    for part in notes {
        blocks.extend(document::blocks(&part, &styles).into_iter().map(|b| Block {
            kind: BlockKind::Footnote,
            level: None,
            ..b
        }));
    }
    Ok(blocks)
}
