//! Fuzz the docx reader: any bytes must give paragraphs or a typed error, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tongwen_extract::{extract_bytes, ExtractOptions};

fuzz_target!(|data: &[u8]| {
    let _ = extract_bytes(data, Some("docx"), &ExtractOptions::default());
});
