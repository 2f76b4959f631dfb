//! Layout: turns placed glyphs into lines, drops running headers, footers and page numbers, and rebuilds
//! paragraphs from the geometry of the lines.
//!
//! A paragraph ends where a line stops clearly short of the column's right margin (the next line's first
//! word would have fitted), where the gap to the next line is larger than the normal line spacing, where
//! the left edge moves (a first-line indent or an outdent), or where the font size changes. A paragraph
//! runs on across a page (or column) break when the last line before the break reaches the margin and the
//! first line after it is not indented (and the page was full). Footnotes are set aside so they do not
//! cut such a paragraph.
//!
//! Spaces the document draws as glyphs are text, as many as it draws, wherever they are; where it draws
//! none, the gap between two glyphs decides. Lines are joined with the spaces drawn at the break. Word
//! processors draw a line-end space when it fits before the margin, so where none is drawn although one
//! would have fitted, the text had none. Otherwise lines are joined with a space between words, none
//! between CJK characters, and between CJK and Latin text as the document spaces them within its lines;
//! a hyphen at a line end is kept (as in `dpkg-buildpackage`) unless the document spells the joined word
//! without it elsewhere, or the text is justified and the hyphen splits a lower-case word (`exam-ple`).

mod join;
mod lines;
mod metrics;
mod paragraphs;
mod rules;
mod running;
mod tables;
#[cfg(test)]
mod tests;

/// A page's lines in reading order, each ruled table's lines given their cells (see `tables`).
pub(super) fn page_lines(page: &crate::pdf::content::PageText) -> lines::PageLines {
    let rules = rules::PageRules::of(&page.shapes);
    let mut out = lines::page_lines(page, &rules);
    tables::assign_cells(&mut out.lines, &rules);
    out
}
pub(super) use paragraphs::paragraphs;
pub(super) use running::remove_running_heads;
