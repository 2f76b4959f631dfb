//! Reading the parts Tongwen needs out of the zip package, with limits, before they are parsed.
//!
//! A .docx is a zip archive whose headers may lie, whose entries may be damaged and whose XML may be
//! truncated or nested without end. So:
//!
//! * the sum of the declared uncompressed sizes must stay under [`MAX_UNPACKED`], and the main document
//!   part must not claim a compression ratio above [`MAX_RATIO`]:1 when it is larger than
//!   [`RATIO_MIN_SIZE`];
//! * only the parts Tongwen uses are unpacked: the package relationships, the main document part (named
//!   by `_rels/.rels`, usually `word/document.xml`), its relationships and its styles part. Each is read
//!   through a reader that stops one byte past its declared size, so an entry that lies about its size
//!   is caught with bounded memory (as are damaged deflate streams and CRC mismatches);
//! * the main document part (and the notes parts) are read through once with the body reader's XML
//!   reader (docx-rs's) to check that they are well formed, complete, have one root and are at most
//!   [`MAX_XML_DEPTH`] elements deep (the reader refuses entities other than XML's five and character
//!   references); a damaged document part is an error. The styles part is checked the same way by the
//!   styles reader as it streams it (`styles`), and ignored when damaged (headings are then recognised
//!   by outline level only).

use std::io::{self, Cursor, Read};

use docx_rs::{EventReader, XmlEvent};
use zip::ZipArchive;

use xxhash_rust::xxh3::Xxh3;

use crate::ExtractError;

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
const FOOTNOTES: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes";
const ENDNOTES: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes";

/// The parts of a Word document Tongwen reads, checked.
#[derive(Debug)]
pub struct Package {
    /// The main document part (`word/document.xml`).
    pub document: Vec<u8>,
    /// The styles part, when present and not already read (see [`check_reusing`]).
    pub styles: Option<Vec<u8>>,
    /// The styles part's identity as stored ([`styles_key_of`]), when present.
    pub styles_key: Option<u64>,
    /// The footnotes and endnotes parts, those present and well formed.
    pub notes: Vec<Vec<u8>>,
}

fn corrupt(cause: impl Into<String>) -> ExtractError {
    ExtractError::CorruptDocx(cause.into())
}

/// Check the package and read its document and styles parts; see the module documentation.
#[cfg(test)]
pub fn check(bytes: &[u8]) -> Result<Package, ExtractError> {
    check_reusing(bytes, |_| None::<()>).map(|(package, _)| package)
}

/// Check the package and read its document and styles parts (see the module documentation), except
/// that a styles part whose identity ([`styles_key_of`]) `known` recognises is not unpacked: what `known`
/// gave for it (the styles read before) comes back beside the package instead.
pub fn check_reusing<T>(
    bytes: &[u8],
    known: impl Fn(u64) -> Option<T>,
) -> Result<(Package, Option<T>), ExtractError> {
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
        // The body's text bounds what reading the document costs (see `MAX_TEXT_BYTES`).
        if size > crate::MAX_TEXT_BYTES {
            return Err(ExtractError::TooLarge {
                size,
                limit: crate::MAX_TEXT_BYTES,
            });
        }
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
    scan_xml(&mut &document[..]).map_err(|cause| corrupt(format!("{main_part} {cause}")))?;
    // The styles reader checks the part as it streams it (see `styles::StyleMap::from_part`).
    let (mut styles, mut styles_key, mut known_styles) = (None, None, None);
    if let Some(index) = archive.index_for_name(&styles_part) {
        let key = styles_key_of(&mut archive, index)?;
        styles_key = Some(key);
        known_styles = known(key);
        if known_styles.is_none() {
            styles = Some(unpack(&mut archive, index)?);
        }
    }
    let mut notes = Vec::new();
    for (kind, file) in [(FOOTNOTES, "footnotes.xml"), (ENDNOTES, "endnotes.xml")] {
        let part = relationship_target(&mut archive, &rels, folder, kind)
            .ok()
            .flatten()
            .unwrap_or_else(|| {
                format!("{folder}/{file}")
                    .trim_start_matches('/')
                    .to_owned()
            });
        notes.extend(optional_part(&mut archive, &part)?);
    }
    Ok((
        Package {
            document,
            styles,
            styles_key,
            notes,
        },
        known_styles,
    ))
}

/// The identity of a stored part, read without unpacking it: the xxh3-64 (seed 0) of its stored
/// (compressed) bytes, its compression method, sizes and CRC-32. Two parts with one identity unpack to
/// the same bytes, or fail alike: documents made from one template (Word's Normal, python-docx's
/// default, a school's own) carry the same styles part byte for byte, 350 KB unpacked in python-docx's,
/// most of a short document's reading time.
fn styles_key_of(
    archive: &mut ZipArchive<Cursor<&[u8]>>,
    index: usize,
) -> Result<u64, ExtractError> {
    let mut entry = archive
        .by_index_raw(index)
        .map_err(|e| corrupt(format!("cannot read a zip entry ({e})")))?;
    let (size, packed, crc) = (entry.size(), entry.compressed_size(), entry.crc32());
    let method = match entry.compression() {
        zip::CompressionMethod::Stored => 0,
        zip::CompressionMethod::Deflated => 8,
        _ => u64::MAX,
    };
    // The stored bytes lie within the file, already in memory.
    let mut stored = Vec::with_capacity(usize::try_from(packed.min(64 << 20)).unwrap_or(0));
    (&mut entry)
        .take(packed)
        .read_to_end(&mut stored)
        .map_err(|e| corrupt(format!("cannot read a zip entry ({e})")))?;
    let mut h = Xxh3::new();
    h.update(&stored);
    for n in [method, size, packed, u64::from(crc)] {
        h.update(&n.to_le_bytes());
    }
    Ok(h.digest())
}

/// A part that may be missing: unpacked (within the limits) when present, kept when its XML is well
/// formed.
fn optional_part(
    archive: &mut ZipArchive<Cursor<&[u8]>>,
    part: &str,
) -> Result<Option<Vec<u8>>, ExtractError> {
    Ok(match archive.index_for_name(part) {
        Some(index) => {
            let xml = unpack(archive, index)?;
            scan_xml(&mut &xml[..]).ok().map(|()| xml)
        }
        None => None,
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
    let (size, packed) = (entry.size(), entry.compressed_size());
    let mut data = Vec::with_capacity(usize::try_from(size.min(64 << 20)).unwrap_or(0));
    let result = (&mut entry)
        .take(size.saturating_add(1))
        .read_to_end(&mut data);
    let read = data.len() as u64;
    // More data than the zip directory declares (the zip reader also refuses to go past the declared
    // size). When more compressed bytes are stored than the declared size could ever need (deflate
    // grows incompressible data by a few bytes per 16 KiB at most), the size hides what it unpacks to:
    // a possible bomb. Otherwise the entry is damaged.
    let overrun = read > size
        || matches!(&result, Err(e) if e.kind() == io::ErrorKind::InvalidData && read >= size);
    if overrun {
        let hides_more = packed > size.saturating_add(size / 1024).saturating_add(64);
        return Err(if hides_more {
            ExtractError::ZipBomb {
                size: read.max(size.saturating_add(1)),
                limit: size,
            }
        } else {
            corrupt(format!(
                "{name} holds more data than its zip directory declares ({size} bytes)"
            ))
        });
    }
    match result {
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

/// Read an XML part to its end: well formed, complete, one root, not deeper than [`MAX_XML_DEPTH`].
pub(super) fn scan_xml(reader: &mut dyn Read) -> Result<(), String> {
    let mut parser = EventReader::new(reader);
    let mut depth = 0usize;
    let mut seen_root = false;
    loop {
        match parser.next_event() {
            Ok(XmlEvent::StartElement { .. }) => {
                if depth >= MAX_XML_DEPTH {
                    return Err(format!("nests XML elements more than {MAX_XML_DEPTH} deep"));
                }
                if depth == 0 && seen_root {
                    return Err("has more than one root element".into());
                }
                seen_root = true;
                depth += 1;
            }
            Ok(XmlEvent::EndElement { .. }) => depth = depth.saturating_sub(1),
            Ok(XmlEvent::EndDocument) => {
                return if depth != 0 {
                    Err("is cut short (unclosed XML elements)".into())
                } else if !seen_root {
                    Err("is empty".into())
                } else {
                    Ok(())
                };
            }
            Ok(_) => {}
            Err(e) => return Err(format!("is not valid XML ({e})")),
        }
    }
}
