//! Word .docx documents, read with docx-rs.
//!
//! What is read, in document order:
//!
//! * body paragraphs, list items (the text only, without the list number or bullet) and paragraphs in
//!   content controls;
//! * tables: every paragraph of every cell is a block, row by row and cell by cell; nested tables are
//!   read where they stand;
//! * text boxes: their paragraphs follow the paragraph they are anchored in;
//! * inside a paragraph: runs, hyperlinks, smart tags, simple fields' results and inserted (`w:ins`) or
//!   moved-in text. Tabs and line, page and column breaks become a space.
//!
//! Left out: headers and footers, comments, footnotes and endnotes (their parts are not read, and their
//! reference marks disappear from the text), deleted (`w:del`) and moved-away text, hidden (`w:vanish`)
//! runs, field instructions, and the table of contents: a content control marked as one
//! (`w:docPartGallery` "Table of Contents"), paragraphs inside a `TOC` field, and paragraphs in TOC,
//! table-of-figures or TOC-heading styles. Embedded objects (`w:altChunk`, OLE, charts) are not read.
//!
//! Paragraphs in a heading style (`heading 1`…`9`, `Title`, `Subtitle`, `标题 n`, or any style based on
//! one) or with an outline level 1–9, directly or through their style, are [`Block::heading`]s.
//!
//! How: [`package::check`] bounds the unpacked size, unpacks only the main document part and its styles
//! part through size limits and checks their XML (see there). They are then parsed with docx-rs's part
//! readers (`Document::from_xml`, `Styles::from_xml`) rather than `read_docx`, which would also parse
//! (and fail on, or unwrap on) headers, footers, comments, numbering, settings and images that Tongwen
//! discards, and which needs `word/_rels/document.xml.rels` to exist. docx-rs runs on a dedicated thread
//! with a large stack, inside [`std::panic::catch_unwind`]: it unwraps in places on unusual input. When
//! it fails or panics on a document that is well-formed XML (it gives up on a whole document for one
//! attribute it cannot parse), the streaming reader in `stream` reads the document with the same rules;
//! so a .docx is refused only when its zip or its document XML is damaged.

mod body;
mod package;
mod stream;

#[cfg(test)]
mod tests;

use std::io::Cursor;
use std::panic::{catch_unwind, AssertUnwindSafe};

use docx_rs::{Document, FromXML, Styles};

use super::{Block, ExtractError};

/// Stack for the docx-rs thread. Its parser recurses per XML level; the package check caps nesting at
/// [`package::MAX_XML_DEPTH`], and the deepest document that lets through (tables nested 80 deep) needs
/// under 4 MiB even in a debug build. Only touched pages are used.
const READER_STACK: usize = 64 * 1024 * 1024;

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
    let package::Package {
        document,
        styles,
        toc_sdts,
    } = package::check(bytes)?;
    isolated(move || {
        // docx-rs may panic: each call is wrapped so that a failure falls back rather than aborting.
        let styles = styles
            .and_then(|s| catch_unwind(|| Styles::from_xml(&s[..])).ok()?.ok())
            .unwrap_or_default();
        let styles = body::StyleMap::new(&styles);
        let escaped = package::prepare_for_docx_rs(&document);
        let parsed = catch_unwind(AssertUnwindSafe(|| Document::from_xml(&escaped[..])));
        drop(escaped);
        Ok(match parsed {
            Ok(Ok(parsed)) => body::blocks(&parsed, &styles, &toc_sdts),
            // Well formed (the package check made sure) but not to docx-rs's liking.
            _ => stream::blocks(&document, &styles, &toc_sdts),
        })
    })
}

/// Run docx-rs on its own thread with a large stack, turning a panic into [`ExtractError::CorruptDocx`].
/// If the thread cannot be started, run here (still catching panics).
fn isolated<T: Send>(
    f: impl FnOnce() -> Result<T, ExtractError> + Send,
) -> Result<T, ExtractError> {
    let panicked =
        || ExtractError::CorruptDocx("the Word reader failed on this document's structure".into());
    let mut f = Some(f);
    let outcome = std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("docx-reader".into())
            .stack_size(READER_STACK)
            .spawn_scoped(scope, || {
                f.take().map(|f| catch_unwind(AssertUnwindSafe(f)))
            });
        spawned.ok().map(|handle| handle.join())
    });
    match outcome {
        Some(Ok(Some(Ok(result)))) => result,
        Some(_) => Err(panicked()),
        None => match f.take() {
            Some(f) => catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| Err(panicked())),
            None => Err(panicked()),
        },
    }
}
