//! Splitting plain text into paragraphs. (Placeholder: blank-line separated blocks.)

/// Split decoded plain text into paragraphs.
pub fn split_plain_text(text: &str) -> Vec<String> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    text.split("\n\n")
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}
