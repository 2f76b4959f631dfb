//! Reading the parts Tongwen needs out of the zip package, with limits, before docx-rs parses them.
//!
//! docx-rs's `read_docx` unpacks whole parts into memory with sizes taken from the zip headers, unwraps
//! on damaged entries, loops forever on truncated XML and recurses once per level of XML nesting. So:
//!
//! * the sum of the declared uncompressed sizes must stay under [`MAX_UNPACKED`], and the main document
//!   part must not claim a compression ratio above [`MAX_RATIO`]:1 when it is larger than
//!   [`RATIO_MIN_SIZE`];
//! * only the parts Tongwen uses are unpacked: the package relationships, the main document part (named
//!   by `_rels/.rels`, usually `word/document.xml`), its relationships and its styles part. Each is read
//!   through a reader that stops one byte past its declared size, so an entry that lies about its size
//!   is caught with bounded memory (as are damaged deflate streams and CRC mismatches);
//! * the main document and styles parts are read with docx-rs's own XML reader to check that they are
//!   well formed, complete and at most [`MAX_XML_DEPTH`] elements deep. A damaged styles part is
//!   ignored (headings are then recognised by outline level only); a damaged document part is an error.
//!
//! The scan of the main document part also notes which of its top-level structured document tags
//! (`w:sdt`) are a table of contents (`w:docPartGallery` "Table of Contents"): docx-rs does not keep
//! `w:sdtPr`.

use std::borrow::Cow;
use std::io::{self, Cursor, Read};

use docx_rs::{EventReader, XmlEvent};
use zip::ZipArchive;

use crate::extract::ExtractError;

/// Most bytes a Word document may unpack to (sum of the declared sizes of all its entries).
pub const MAX_UNPACKED: u64 = 512 * 1024 * 1024;
/// Highest compression ratio accepted for a main document part larger than [`RATIO_MIN_SIZE`].
pub const MAX_RATIO: u64 = 200;
/// Main document parts up to this size may have any compression ratio.
pub const RATIO_MIN_SIZE: u64 = 50 * 1024 * 1024;
/// Deepest XML element nesting accepted (real documents stay well under 100 even with nested tables and
/// text boxes).
pub const MAX_XML_DEPTH: usize = 256;
/// Relationship parts are small; more than this is not a relationship part.
const MAX_RELS: u64 = 4 * 1024 * 1024;

const OFFICE_DOCUMENT: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument";
const STYLES: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles";

/// The parts of a Word document Tongwen reads, checked.
#[derive(Debug)]
pub struct Package {
    /// The main document part (`word/document.xml`).
    pub document: Vec<u8>,
    /// The styles part, when present and well formed.
    pub styles: Option<Vec<u8>>,
    /// For each top-level `w:sdt` of the main document, in order: whether it is a table of contents.
    pub toc_sdts: Vec<bool>,
}

fn corrupt(cause: impl Into<String>) -> ExtractError {
    ExtractError::CorruptDocx(cause.into())
}

/// Check the package and read its document and styles parts; see the module documentation.
pub fn check(bytes: &[u8]) -> Result<Package, ExtractError> {
    let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(|e| {
        corrupt(format!(
            "not a readable zip archive ({e}); is the file truncated?"
        ))
    })?;

    let mut declared: u64 = 0;
    for i in 0..archive.len() {
        let entry = archive
            .by_index_data(i)
            .map_err(|e| corrupt(format!("damaged zip directory ({e})")))?;
        declared = declared.saturating_add(entry.size());
    }
    if declared > MAX_UNPACKED {
        return Err(ExtractError::ZipBomb {
            size: declared,
            limit: MAX_UNPACKED,
        });
    }

    let main_part = relationship_target(&mut archive, "_rels/.rels", "", OFFICE_DOCUMENT)?
        .unwrap_or_else(|| String::from("word/document.xml"));
    let main_index = archive
        .index_for_name(&main_part)
        .ok_or_else(|| corrupt(format!("the main document part {main_part} is missing")))?;
    {
        let entry = archive
            .by_index_data(main_index)
            .map_err(|e| corrupt(format!("damaged zip directory ({e})")))?;
        let (size, packed) = (entry.size(), entry.compressed_size());
        if size > RATIO_MIN_SIZE && size / MAX_RATIO > packed {
            return Err(ExtractError::ZipBomb {
                size,
                limit: packed.saturating_mul(MAX_RATIO).max(RATIO_MIN_SIZE),
            });
        }
    }

    // The styles part, named by the main part's relationships (word/_rels/document.xml.rels).
    let (folder, file) = main_part
        .rsplit_once('/')
        .unwrap_or(("", main_part.as_str()));
    let rels = if folder.is_empty() {
        format!("_rels/{file}.rels")
    } else {
        format!("{folder}/_rels/{file}.rels")
    };
    let styles_part = relationship_target(&mut archive, &rels, folder, STYLES)
        .ok()
        .flatten()
        .unwrap_or_else(|| {
            format!("{folder}/styles.xml")
                .trim_start_matches('/')
                .to_owned()
        });

    let document = unpack(&mut archive, main_index)?;
    let mut toc_sdts = Vec::new();
    scan_xml(&mut &document[..], Some(&mut toc_sdts))
        .map_err(|cause| corrupt(format!("{main_part} {cause}")))?;
    let styles = match archive.index_for_name(&styles_part) {
        Some(index) => {
            let styles = unpack(&mut archive, index)?;
            scan_xml(&mut &styles[..], None).ok().map(|()| styles)
        }
        None => None,
    };
    Ok(Package {
        document,
        styles,
        toc_sdts,
    })
}

/// Unpack one entry, at most one byte past its declared size.
fn unpack(archive: &mut ZipArchive<Cursor<&[u8]>>, index: usize) -> Result<Vec<u8>, ExtractError> {
    let mut entry = archive
        .by_index(index)
        .map_err(|e| corrupt(format!("cannot unpack a zip entry ({e})")))?;
    let name = entry
        .name()
        .map(|n| n.into_owned())
        .unwrap_or_else(|_| String::from("?"));
    let size = entry.size();
    let mut data = Vec::with_capacity(usize::try_from(size.min(64 << 20)).unwrap_or(0));
    let result = (&mut entry)
        .take(size.saturating_add(1))
        .read_to_end(&mut data);
    let read = data.len() as u64;
    match result {
        // The zip reader also refuses to go past the declared size; either way it is a lie.
        _ if read > size => Err(ExtractError::ZipBomb {
            size: read,
            limit: size,
        }),
        Err(e) if e.kind() == io::ErrorKind::InvalidData && read >= size => {
            Err(ExtractError::ZipBomb {
                size: read.saturating_add(1),
                limit: size,
            })
        }
        Err(e) => Err(corrupt(format!("{name} cannot be unpacked ({e})"))),
        Ok(_) => Ok(data),
    }
}

/// The target of the first relationship of type `kind` in the relationship part `rels`, resolved against
/// `folder`. `Ok(None)` when the part or the relationship is missing.
fn relationship_target(
    archive: &mut ZipArchive<Cursor<&[u8]>>,
    rels: &str,
    folder: &str,
    kind: &str,
) -> Result<Option<String>, ExtractError> {
    let Some(index) = archive.index_for_name(rels) else {
        return Ok(None);
    };
    let entry = archive
        .by_index(index)
        .map_err(|e| corrupt(format!("cannot unpack {rels} ({e})")))?;
    let mut parser = EventReader::new(entry.take(MAX_RELS));
    loop {
        match parser.next_event() {
            Ok(XmlEvent::StartElement {
                name, attributes, ..
            }) if name.local_name == "Relationship" => {
                let attr = |key: &str| {
                    attributes
                        .iter()
                        .find(|a| a.name.local_name == key)
                        .map(|a| a.value.as_str())
                };
                if attr("Type") == Some(kind) {
                    if let Some(target) = attr("Target") {
                        let target = target.replace('\\', "/");
                        let resolved = match target.strip_prefix('/') {
                            Some(absolute) => absolute.to_owned(),
                            None if folder.is_empty() => target,
                            None => format!("{folder}/{target}"),
                        };
                        return Ok(Some(resolved));
                    }
                }
            }
            Ok(XmlEvent::EndDocument) => return Ok(None),
            Err(e) => return Err(corrupt(format!("{rels} is not valid XML ({e})"))),
            Ok(_) => {}
        }
    }
}

/// Prepare the main document part for docx-rs, which reads two things wrongly:
///
/// * it decodes entities twice in text (quick-xml unescapes, then docx-rs replaces `&lt;`, `&amp;`, …
///   again), so text that shows `&lt;` would come out as `<`. Escaping every `&` of text content once
///   more (`&amp;` → `&amp;amp;`) makes the second decoding give the text back; tags and attribute
///   values are left alone;
/// * it drops `w:noBreakHyphen`, so `e‑mail` would become `email`: it is rewritten as the text `-`.
pub fn prepare_for_docx_rs(xml: &[u8]) -> Cow<'_, [u8]> {
    const NO_BREAK_HYPHEN: &[u8] = b"<w:noBreakHyphen/>";
    const AMPERSANDS: [&[u8]; 4] = [b"&amp;", b"&#38;", b"&#x26;", b"&#X26;"];
    let needs = xml
        .windows(4)
        .any(|w| matches!(w, b"&amp" | b"&#38" | b"&#x2" | b"&#X2" | b"<w:n"));
    if !needs {
        return Cow::Borrowed(xml);
    }
    let mut out = Vec::with_capacity(xml.len() + xml.len() / 16);
    let mut in_tag = false;
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < xml.len() {
        let b = xml[i];
        let rest = &xml[i..];
        if in_tag {
            match (quote, b) {
                (Some(q), _) if b == q => quote = None,
                (None, b'"' | b'\'') => quote = Some(b),
                (None, b'>') => in_tag = false,
                _ => {}
            }
            out.push(b);
            i += 1;
            continue;
        }
        if b == b'<' {
            if rest.starts_with(NO_BREAK_HYPHEN) {
                out.extend_from_slice(b"<w:t>-</w:t>");
                i += NO_BREAK_HYPHEN.len();
                continue;
            }
            in_tag = true;
            out.push(b);
            i += 1;
            continue;
        }
        if b == b'&' {
            if let Some(entity) = AMPERSANDS.iter().find(|e| rest.starts_with(e)) {
                out.extend_from_slice(b"&amp;amp;");
                i += entity.len();
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    Cow::Owned(out)
}

/// Element kinds the main-document scan tracks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Paragraph,
    Table,
    Sdt,
    SdtPr,
    Other,
}

/// Read an XML part to its end: well formed, complete, not deeper than [`MAX_XML_DEPTH`]. With `toc_sdts`,
/// record for each top-level `w:sdt` whether it is a table of contents.
fn scan_xml(reader: &mut dyn Read, mut toc_sdts: Option<&mut Vec<bool>>) -> Result<(), String> {
    let mut parser = EventReader::new(reader);
    let mut stack: Vec<Kind> = Vec::new();
    let mut seen_root = false;
    loop {
        match parser.next_event() {
            Ok(XmlEvent::StartElement {
                name, attributes, ..
            }) => {
                if stack.len() >= MAX_XML_DEPTH {
                    return Err(format!("nests XML elements more than {MAX_XML_DEPTH} deep"));
                }
                if stack.is_empty() && seen_root {
                    return Err("has more than one root element".into());
                }
                seen_root = true;
                let kind = match name.local_name.as_str() {
                    "p" => Kind::Paragraph,
                    "tbl" => Kind::Table,
                    "sdt" => Kind::Sdt,
                    "sdtPr" => Kind::SdtPr,
                    _ => Kind::Other,
                };
                if let Some(tocs) = toc_sdts.as_deref_mut() {
                    let nested = stack
                        .iter()
                        .any(|k| matches!(k, Kind::Paragraph | Kind::Table | Kind::Sdt));
                    if kind == Kind::Sdt && !nested {
                        tocs.push(false);
                    }
                    if name.local_name == "docPartGallery"
                        && stack.iter().filter(|&&k| k == Kind::Sdt).count() == 1
                        && stack.contains(&Kind::SdtPr)
                        && !stack
                            .iter()
                            .any(|k| matches!(k, Kind::Paragraph | Kind::Table))
                    {
                        let toc = attributes.iter().any(|a| {
                            a.name.local_name == "val"
                                && a.value.to_ascii_lowercase().contains("table of contents")
                        });
                        if let Some(last) = tocs.last_mut() {
                            *last |= toc;
                        }
                    }
                }
                stack.push(kind);
            }
            Ok(XmlEvent::EndElement { .. }) => {
                stack.pop();
            }
            Ok(XmlEvent::EndDocument) => {
                return if !stack.is_empty() {
                    Err("is cut short (unclosed XML elements)".into())
                } else if !seen_root {
                    Err("is empty".into())
                } else {
                    Ok(())
                };
            }
            Ok(XmlEvent::Characters(_) | XmlEvent::Whitespace(_)) => {}
            Err(e) => return Err(format!("is not valid XML ({e})")),
        }
    }
}
