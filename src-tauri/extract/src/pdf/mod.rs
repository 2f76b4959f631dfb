//! PDF documents: loads the file (decrypting documents whose user password is empty), reads each page's
//! text with its position, and rebuilds paragraphs from the layout.
//!
//! The work is split in parts that import only the ones before them: [`glyphs`] knows glyph names and
//! wide characters, [`cmap`] parses CMap programs, [`font`] decodes character codes into
//! text and widths, [`content`] interprets content streams to place glyphs on the page, and [`layout`]
//! builds lines, removes running headers, footers and page numbers, and joins lines into paragraphs.
//! This module ties them together and decides which documents cannot be read: a file that does not parse
//! ([`ExtractError::CorruptPdf`]), one that needs a password ([`ExtractError::EncryptedPdf`]), one with
//! pages but no text ([`ExtractError::NoTextLayer`]), and one whose text does not decode to real
//! characters ([`ExtractError::Garbled`]).

mod cmap;
mod content;
mod font;
mod glyphs;
mod layout;
mod radicals;
mod standard_widths;
mod structure;
#[cfg(test)]
mod tests;

use lopdf::{Document, LoadOptions};

use super::{Block, ExtractError};

/// Streams that lopdf decodes while loading (object and cross-reference streams) may not decode to more
/// than this.
const MAX_LOAD_STREAM_BYTES: usize = 64 * 1024 * 1024;
/// A page that paints an image and shows fewer characters than this looks like a scan (its text at most
/// a stamp or a page number); a document of such pages has no text layer to check.
const SCAN_PAGE_MAX_CHARS: usize = 40;
/// A document whose decoded characters are more than this fraction unmapped, private-use or control
/// characters is refused as garbled.
const MAX_BAD_CHAR_RATIO: f64 = 0.3;

/// Extract paragraphs from a PDF.
pub fn extract(bytes: &[u8]) -> Result<Vec<Block>, ExtractError> {
    // Our own code does not panic on any input; the guard is for the PDF parser underneath, so that a
    // file it cannot cope with is reported as corrupt instead of taking the program down.
    std::panic::catch_unwind(|| extract_unguarded(bytes)).unwrap_or_else(|_| {
        Err(ExtractError::CorruptPdf(
            "the PDF parser failed on this file".into(),
        ))
    })
}

/// Whether a page's content stream is Flate-compressed data that does not inflate (lopdf then hands
/// over what it could decode, often nothing, which reads as no text). Asked only of documents without
/// text, so it costs nothing on readable ones; the inflated bytes are counted, not kept.
fn undecodable_content(
    doc: &lopdf::Document,
    pages: &std::collections::BTreeMap<u32, lopdf::ObjectId>,
) -> bool {
    use std::io::Read;
    pages
        .values()
        .flat_map(|page| doc.get_page_contents(*page))
        .filter_map(|id| doc.get_object(id).and_then(lopdf::Object::as_stream).ok())
        .filter(|stream| {
            stream
                .dict
                .get(b"Filter")
                .ok()
                .and_then(|f| f.as_name().ok())
                .is_some_and(|name| name == b"FlateDecode")
        })
        .any(|stream| {
            let mut inflate = flate2::read::ZlibDecoder::new(&stream.content[..])
                .take(content::MAX_STREAM_BYTES as u64);
            std::io::copy(&mut inflate, &mut std::io::sink()).is_err()
        })
}

fn extract_unguarded(bytes: &[u8]) -> Result<Vec<Block>, ExtractError> {
    let doc = load(bytes)?;
    let truncated = looks_truncated(bytes);
    let pages = doc.get_pages();
    if pages.is_empty() {
        return Err(ExtractError::CorruptPdf(if truncated {
            "the file is truncated".into()
        } else {
            "the document has no pages".into()
        }));
    }
    let mut fonts = content::FontCache::default();
    let mut stats = content::Stats::default();
    let mut budget = content::Budget::default();
    let mut page_lines = Vec::with_capacity(pages.len());
    let mut scan_like_pages = 0usize;
    for page_id in pages.values() {
        let text = content::read_page(&doc, *page_id, &mut fonts, &mut stats, &mut budget)
            .map_err(|content::PageError::TooLarge| {
                ExtractError::CorruptPdf("the page content is too large to read".into())
            })?;
        page_lines.push(layout::page_lines(&text));
        if text.images > 0 && text.chars < SCAN_PAGE_MAX_CHARS {
            scan_like_pages += 1;
        }
    }
    // Pages whose content the file does not hold, in a file cut short or with a broken cross-reference
    // table: the text would come out incomplete.
    if stats.missing_streams > 0 && (truncated || doc.xref_recovery.is_some()) {
        return Err(ExtractError::CorruptPdf(
            "the file is truncated or damaged: page content is missing".into(),
        ));
    }
    // No text at all, or pages that are images with at most a stamp of text ("Scanned by …").
    let scanned =
        scan_like_pages * 5 >= pages.len() * 4 && stats.chars < SCAN_PAGE_MAX_CHARS * pages.len();
    if stats.show_ops == 0 || scanned {
        return Err(if truncated || stats.missing_streams > 0 {
            ExtractError::CorruptPdf("the file is truncated or damaged".into())
        } else if !scanned && (stats.broken_streams > 0 || undecodable_content(&doc, &pages)) {
            // Not images without text: page content that cannot be read.
            ExtractError::CorruptPdf("its page content is damaged and cannot be read".into())
        } else {
            ExtractError::NoTextLayer
        });
    }
    // Glyphs of a font whose text cannot be known would be dropped: refuse the file, naming the font.
    if let Some(font) = stats.unreadable_font {
        return Err(ExtractError::UnreadableFont { font });
    }
    if stats.chars > 0 && stats.bad_chars as f64 > MAX_BAD_CHAR_RATIO * stats.chars as f64 {
        return Err(if truncated {
            ExtractError::CorruptPdf("the file is truncated: its fonts are missing".into())
        } else {
            ExtractError::Garbled
        });
    }
    layout::remove_running_heads(&mut page_lines);
    let mut blocks = layout::paragraphs(&page_lines);
    radicals::normalize(&mut blocks);
    Ok(blocks)
}

/// Parse the file. lopdf tries the empty user password on encrypted documents while loading; a document
/// that is still encrypted afterwards needs a real password.
fn load(bytes: &[u8]) -> Result<Document, ExtractError> {
    let options = LoadOptions {
        max_decompressed_size: Some(MAX_LOAD_STREAM_BYTES),
        ..LoadOptions::default()
    };
    let doc = Document::load_mem_with_options(bytes, options).map_err(load_error)?;
    if doc.is_encrypted() {
        return Err(ExtractError::EncryptedPdf);
    }
    Ok(doc)
}

fn load_error(error: lopdf::Error) -> ExtractError {
    use lopdf::Error as E;
    match error {
        E::Decryption(_) | E::InvalidPassword | E::UnsupportedSecurityHandler(_) => {
            ExtractError::EncryptedPdf
        }
        E::Decompress(lopdf::DecompressError::MemoryLimitExceeded { .. }) => {
            ExtractError::CorruptPdf(format!(
                "a stream decompresses to more than {} MiB",
                MAX_LOAD_STREAM_BYTES / (1024 * 1024)
            ))
        }
        E::Parse(lopdf::ParseError::InvalidFileHeader) => {
            ExtractError::CorruptPdf("no valid PDF header".into())
        }
        E::Xref(_) | E::Parse(_) | E::MissingXrefEntry | E::InvalidOffset(_) => {
            ExtractError::CorruptPdf(
                "the file's structure cannot be read (truncated or damaged?)".into(),
            )
        }
        other => ExtractError::CorruptPdf(other.to_string()),
    }
}

/// Whether the file lacks the `%%EOF` marker that ends every complete PDF.
fn looks_truncated(bytes: &[u8]) -> bool {
    let tail = bytes
        .get(bytes.len().saturating_sub(2048)..)
        .unwrap_or(bytes);
    !tail.windows(5).any(|w| w == b"%%EOF")
}
