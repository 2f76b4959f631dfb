//! Word .docx documents. (Placeholder.)

use super::{Block, ExtractError};

/// Whether a zip archive holds a Word document (`word/document.xml`).
pub fn looks_like_docx(bytes: &[u8]) -> bool {
    bytes.windows(17).any(|w| w == b"word/document.xml")
}

/// Extract the body paragraphs of a .docx.
pub fn extract(_bytes: &[u8]) -> Result<Vec<Block>, ExtractError> {
    Err(ExtractError::CorruptDocx("reader not written yet".into()))
}
