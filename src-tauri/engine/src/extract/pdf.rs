//! PDF documents. (Placeholder.)

use super::{Block, ExtractError};

/// Extract paragraphs from a PDF.
pub fn extract(_bytes: &[u8]) -> Result<Vec<Block>, ExtractError> {
    Err(ExtractError::CorruptPdf("reader not written yet".into()))
}
