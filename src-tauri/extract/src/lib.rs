//! Reading documents: detects the format from the content (magic bytes, then the extension), hands the bytes
//! to the reader for that format, and returns the document's paragraphs in reading order.
//!
//! Readers return raw blocks; `finish` trims them, drops empty ones and refuses documents that give no
//! usable paragraph, so every format ends in the same clean shape. Every failure is an [`ExtractError`]
//! that says what is wrong with the file; [`extract_file`] wraps it with the path.

mod clean;
pub mod discover;
pub mod docx;
pub mod kinds;
pub mod paragraphs;
pub mod pdf;
pub mod txt;

pub use clean::clean_paragraph;
pub use paragraphs::split_plain_text;

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// Files larger than this are refused before reading (a library document or a submission is text; 256 MiB
/// of it is far beyond any thesis).
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The text a document may hold: a .txt file, or the body part of a .docx once unpacked. Reading,
/// fingerprinting and storing a document costs a few times its text (a 128 MiB one-line .txt peaks under
/// 1 GB while added), so this bounds the memory one document can take. 128 MiB of text is about 40
/// million Chinese characters, some hundred books.
pub const MAX_TEXT_BYTES: u64 = 128 * 1024 * 1024;

/// The document formats Tongwen reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Txt,
    Docx,
    Pdf,
}

impl Format {
    /// The lower-case name stored in the library and shown to users.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Txt => "txt",
            Format::Docx => "docx",
            Format::Pdf => "pdf",
        }
    }

    /// Parse a stored name back.
    pub fn from_name(name: &str) -> Option<Format> {
        match name {
            "txt" => Some(Format::Txt),
            "docx" => Some(Format::Docx),
            "pdf" => Some(Format::Pdf),
            _ => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a block of text is in its document (see [`kinds`] for how each format tells them apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockKind {
    /// Ordinary body text.
    Body,
    /// A heading, with its level in [`Block::level`] when the document gives one (a report's chapters
    /// start at headings of level 1).
    Heading,
    /// A list item.
    List,
    /// A table cell.
    Table,
    /// A figure or table caption (图 1 …, Table 2 …).
    Caption,
    /// A footnote or endnote.
    Footnote,
    /// An entry of the references section (参考文献, References, Bibliography).
    Reference,
}

impl BlockKind {
    /// The lower-case name shown by `extract --json` and stored in the library.
    pub fn as_str(self) -> &'static str {
        match self {
            BlockKind::Body => "body",
            BlockKind::Heading => "heading",
            BlockKind::List => "list",
            BlockKind::Table => "table",
            BlockKind::Caption => "caption",
            BlockKind::Footnote => "footnote",
            BlockKind::Reference => "reference",
        }
    }
}

/// One paragraph as read from a document. Every kind is checked like body text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Block {
    pub text: String,
    pub kind: BlockKind,
    /// A heading's level, 1 for a chapter (or a title), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Where footnote and endnote references stand: character offsets in `text` (a reference stands
    /// before the character at its offset). The reference marks themselves are not in the text, which
    /// reads as the document's words; a citation by footnote is told from them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<usize>,
}

/// Stands in a reader's text for a footnote or endnote reference until `finish` takes it out and keeps
/// its offset in [`Block::notes`]: a noncharacter, which no document text holds.
pub const NOTE_MARK: char = '\u{FDD0}';

impl Block {
    pub fn new(text: impl Into<String>, kind: BlockKind) -> Self {
        Block {
            text: text.into(),
            kind,
            level: None,
            notes: Vec::new(),
        }
    }

    pub fn body(text: impl Into<String>) -> Self {
        Block::new(text, BlockKind::Body)
    }

    pub fn heading(text: impl Into<String>) -> Self {
        Block::new(text, BlockKind::Heading)
    }

    /// A heading of a known level.
    pub fn heading_at(text: impl Into<String>, level: u8) -> Self {
        Block {
            level: Some(level),
            ..Block::heading(text)
        }
    }

    /// Whether a report's chapter may start here: a heading of level 1, or of no known level.
    pub fn starts_chapter(&self) -> bool {
        self.kind == BlockKind::Heading && self.level.is_none_or(|l| l <= 1)
    }
}

/// A document's text, ready to be fingerprinted or checked.
#[derive(Debug, Clone, Serialize)]
pub struct Extracted {
    pub format: Format,
    /// The encoding a text file was decoded from (`None` for docx and pdf).
    pub encoding: Option<&'static str>,
    pub paragraphs: Vec<Block>,
}

/// How to read documents.
#[derive(Debug, Clone, Copy, Default)]
pub struct ExtractOptions {
    /// Decode text files with this encoding instead of detecting it.
    pub encoding: Option<&'static encoding_rs::Encoding>,
}

/// Why a file cannot be read. Shown to users after the file name, so each message is a plain sentence.
/// Exhaustive on purpose: the engine maps every variant to an error kind the front ends translate.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error("the file is empty")]
    EmptyFile,
    #[error("the document contains no text")]
    NoText,
    #[error("the document has text but no paragraph Tongwen can check")]
    NoParagraphs,
    #[error("the document is {size} bytes, more than the limit of {limit} bytes")]
    TooLarge { size: u64, limit: u64 },
    #[error("unsupported file type: {0}")]
    Unsupported(&'static str),
    #[error(
        "not a regular file (a folder, a pipe, a device or a socket): Tongwen reads only files"
    )]
    NotAFile,
    #[error("this is binary data, not text")]
    Binary,
    #[error(
        "the text encoding could not be recognised; pass --encoding (e.g. gb18030, big5, utf-16le)"
    )]
    UnknownEncoding,
    #[error("the text is not valid {encoding}")]
    Malformed { encoding: &'static str },
    #[error("corrupt Word document: {0}")]
    CorruptDocx(String),
    #[error("the Word document would unpack to {size} bytes (limit {limit}); refusing a possible zip bomb")]
    ZipBomb { size: u64, limit: u64 },
    #[error("corrupt PDF: {0}")]
    CorruptPdf(String),
    #[error("the PDF is encrypted with a password; remove the password and try again")]
    EncryptedPdf,
    #[error("the PDF has no text layer (a scanned document?); Tongwen does not do OCR")]
    NoTextLayer,
    #[error("the PDF's text cannot be decoded (fonts without a Unicode map); it would be checked as garbage")]
    Garbled,
    #[error("the PDF's text in font {font} cannot be read: the font is not embedded and the file does not say which character each of its glyphs is; print the document again with its fonts embedded")]
    UnreadableFont { font: String },
}

/// A file that could not be used, named with the path the user gave.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file (or folder) could not be read from disk.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file was read but gives no usable paragraphs.
    #[error("{}: {source}", path.display())]
    Extract {
        path: PathBuf,
        #[source]
        source: ExtractError,
    },
}

impl FileError {
    /// The file (or folder) concerned.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Io { path, .. } | FileError::Extract { path, .. } => path,
        }
    }

    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        FileError::Io {
            path: path.into(),
            source,
        }
    }

    pub fn extract(path: impl Into<PathBuf>, source: ExtractError) -> Self {
        FileError::Extract {
            path: path.into(),
            source,
        }
    }
}

/// Read a file from disk and extract its paragraphs.
pub fn extract_file(path: &Path, options: &ExtractOptions) -> Result<Extracted, FileError> {
    extract_file_sized(path, options).map(|(extracted, _)| extracted)
}

/// [`extract_file`], with the number of bytes read (the file's size, without asking the file system
/// for it a second time).
pub fn extract_file_sized(
    path: &Path,
    options: &ExtractOptions,
) -> Result<(Extracted, u64), FileError> {
    let meta = std::fs::metadata(path).map_err(|e| FileError::io(path, e))?;
    // A pipe would block forever and a device (a link to /dev/zero) never end.
    if !meta.is_file() {
        return Err(FileError::extract(path, ExtractError::NotAFile));
    }
    let too_large = |size| {
        FileError::extract(
            path,
            ExtractError::TooLarge {
                size,
                limit: MAX_FILE_BYTES,
            },
        )
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(meta.len()));
    }
    // The reported size is not trusted: at most one byte over the limit is read.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| FileError::io(path, e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    extract_bytes(&bytes, ext.as_deref(), options)
        .map(|extracted| (extracted, bytes.len() as u64))
        .map_err(|e| FileError::extract(path, e))
}

/// Extract paragraphs from a document held in memory. `extension` (lower case, no dot) is only a hint: the
/// content decides.
pub fn extract_bytes(
    bytes: &[u8],
    extension: Option<&str>,
    options: &ExtractOptions,
) -> Result<Extracted, ExtractError> {
    if bytes.is_empty() {
        return Err(ExtractError::EmptyFile);
    }
    let format = detect(bytes, extension)?;
    if format == Format::Txt && bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(ExtractError::TooLarge {
            size: bytes.len() as u64,
            limit: MAX_TEXT_BYTES,
        });
    }
    let (encoding, blocks) = match format {
        Format::Txt => {
            let (encoding, blocks) = txt::extract(bytes, options.encoding)?;
            (Some(encoding), blocks)
        }
        Format::Docx => (None, docx::extract(bytes)?),
        Format::Pdf => (None, pdf::extract(bytes)?),
    };
    let mut paragraphs = finish(blocks)?;
    kinds::classify(&mut paragraphs, format);
    Ok(Extracted {
        format,
        encoding,
        paragraphs,
    })
}

/// Decide the format from the bytes. Magic bytes win over the extension: a `.txt` that is really a PDF is
/// read as a PDF, and a zip that is not a Word document is refused.
pub fn detect(bytes: &[u8], extension: Option<&str>) -> Result<Format, ExtractError> {
    let head = &bytes[..bytes.len().min(1024)];
    if head.windows(5).any(|w| w == b"%PDF-") {
        return Ok(Format::Pdf);
    }
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return if docx::looks_like_docx(bytes) {
            Ok(Format::Docx)
        } else if extension == Some("docx") {
            Err(ExtractError::CorruptDocx(
                "the zip archive is damaged or holds no word/document.xml".into(),
            ))
        } else {
            Err(ExtractError::Unsupported(
                "a zip archive that is not a Word .docx document",
            ))
        };
    }
    if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        return Err(ExtractError::Unsupported(
            "an old binary Word .doc (or other OLE) file; save it as .docx",
        ));
    }
    if bytes.starts_with(b"{\\rtf") {
        return Err(ExtractError::Unsupported("RTF; save it as .docx"));
    }
    match extension {
        Some("docx") => Err(ExtractError::CorruptDocx(
            "not a zip archive (a .docx is a zip of XML parts)".into(),
        )),
        Some("pdf") => Err(ExtractError::CorruptPdf("no %PDF- header".into())),
        _ => Ok(Format::Txt),
    }
}

/// Whether a file name has an extension Tongwen reads (used when walking folders).
pub fn is_supported_path(path: &Path) -> bool {
    matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("txt" | "docx" | "pdf" | "text" | "md")
    )
}

/// Trim blocks, drop empty ones, and refuse documents with nothing left.
/// Paragraphs longer than this (in characters) are cut into pieces of at most this length, at the last
/// sentence end (else the last space) in the second half of each piece. Real paragraphs are far shorter
/// (eval-dev's longest is under 2,000); a file of one endless line (a log, a dump, a hostile file) so
/// costs memory and time in proportion to its size, never to the square of one paragraph's.
pub const MAX_PARAGRAPH_CHARS: usize = 5_000;

fn split_long(text: String) -> Vec<String> {
    if text.len() <= MAX_PARAGRAPH_CHARS {
        return vec![text];
    }
    let is_end = |c| matches!(c, '。' | '！' | '？' | '；' | '.' | '!' | '?' | ';');
    let mut pieces = Vec::new();
    // The piece being measured starts at byte `start` and holds `count` characters; the byte offsets
    // just after its last sentence end and its last space in its second half are where it may be cut.
    let (mut start, mut count) = (0, 0);
    let (mut sentence, mut space) = (None, None);
    for (i, c) in text.char_indices() {
        if count == MAX_PARAGRAPH_CHARS {
            let cut = sentence.or(space).unwrap_or(i);
            pieces.push(text[start..cut].trim().to_string());
            count = text[cut..i].chars().count();
            (start, sentence, space) = (cut, None, None);
        }
        count += 1;
        if count >= MAX_PARAGRAPH_CHARS / 2 {
            let end = i + c.len_utf8();
            if is_end(c) {
                sentence = Some(end);
            } else if c.is_whitespace() {
                space = Some(end);
            }
        }
    }
    pieces.push(text[start..].trim().to_string());
    pieces
}

/// `text` without its [`NOTE_MARK`]s, and the offsets they stood at.
fn take_notes(text: String) -> (String, Vec<usize>) {
    if !text.contains(NOTE_MARK) {
        return (text, Vec::new());
    }
    let (mut out, mut notes) = (String::with_capacity(text.len()), Vec::new());
    let mut at = 0;
    for c in text.chars() {
        if c == NOTE_MARK {
            notes.push(at);
        } else {
            out.push(c);
            at += 1;
        }
    }
    (out, notes)
}

fn finish(blocks: Vec<Block>) -> Result<Vec<Block>, ExtractError> {
    let had_text = blocks.iter().any(|b| !b.text.trim().is_empty());
    let out: Vec<Block> = blocks
        .into_iter()
        .flat_map(|b| {
            let text = clean_paragraph(&b.text);
            let (kind, level) = (b.kind, b.level);
            split_long(text)
                .into_iter()
                .map(take_notes)
                .filter(|(t, _)| !t.trim().is_empty())
                .map(move |(text, notes)| Block {
                    text,
                    kind,
                    level,
                    notes,
                })
        })
        .collect();
    if out.is_empty() {
        return Err(if had_text {
            ExtractError::NoParagraphs
        } else {
            ExtractError::NoText
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_paragraph_is_cut_at_sentence_ends_into_bounded_pieces() {
        let sentence = "这是一个用来测试的句子，长度适中。";
        let text = sentence.repeat(2_000);
        let pieces = split_long(text.clone());
        assert!(pieces.len() >= text.chars().count() / MAX_PARAGRAPH_CHARS);
        for p in &pieces {
            let n = p.chars().count();
            assert!(
                (MAX_PARAGRAPH_CHARS / 2..=MAX_PARAGRAPH_CHARS).contains(&n)
                    || p == pieces.last().unwrap()
            );
            assert!(p.ends_with('。'), "cut at a sentence end");
        }
        assert_eq!(pieces.concat(), text, "nothing lost");
        // Without sentence ends or spaces: cut at the limit.
        let pieces = split_long("字".repeat(12_000));
        let lens: Vec<usize> = pieces.iter().map(|p| p.chars().count()).collect();
        assert_eq!(lens, [5_000, 5_000, 2_000]);
        // A normal paragraph is left whole.
        assert_eq!(split_long(sentence.to_string()), [sentence]);
    }

    #[test]
    fn a_file_of_one_endless_line_reads_as_bounded_paragraphs() {
        let line = "The quick brown fox jumps over the lazy dog and keeps running without a stop "
            .repeat(5_000);
        let got = extract_bytes(line.as_bytes(), Some("txt"), &ExtractOptions::default()).unwrap();
        assert!(got.paragraphs.len() > 50);
        assert!(got
            .paragraphs
            .iter()
            .all(|p| p.text.chars().count() <= MAX_PARAGRAPH_CHARS));
    }
}
