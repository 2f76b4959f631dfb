//! Plain-text files: encoding detection and paragraph splitting. (Placeholder: UTF-8 only.)

use super::{Block, ExtractError};

/// Decode `bytes` and split them into paragraphs. Returns the encoding's name and the paragraphs.
pub fn extract(
    bytes: &[u8],
    encoding: Option<&'static encoding_rs::Encoding>,
) -> Result<(&'static str, Vec<Block>), ExtractError> {
    let enc = encoding.unwrap_or(encoding_rs::UTF_8);
    let (text, _, had_errors) = enc.decode(bytes);
    if had_errors {
        return Err(ExtractError::Malformed {
            encoding: enc.name(),
        });
    }
    Ok((
        enc.name(),
        crate::text::split_plain_text(&text)
            .into_iter()
            .map(Block::body)
            .collect(),
    ))
}
