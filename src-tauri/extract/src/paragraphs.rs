//! Splitting decoded plain text into paragraphs.
//!
//! Plain-text files follow one of two conventions, often without saying which:
//!
//! * **one paragraph per line**: Chinese files (frequently indented with full-width spaces U+3000, with or
//!   without blank lines between paragraphs), text exported from word processors;
//! * **hard-wrapped paragraphs separated by blank lines**: English e-mails, Project Gutenberg books, LaTeX
//!   and Markdown sources, whose lines were broken at a fixed width by an editor.
//!
//! The text is first cut into *blocks* at blank lines (lines holding only whitespace, including U+3000),
//! at form feeds and at U+2029 PARAGRAPH SEPARATOR. Line endings may be LF, CRLF or a lone CR; U+2028 and
//! vertical tabs are line breaks. A block of one line is one paragraph. For a block of several lines the
//! rule is:
//!
//! 1. Measure each line in display columns (CJK characters count 2) and take the block's wrap width `W`:
//!    the widest line that could have been broken (one that contains a space or a CJK character). A
//!    block that is not hard-wrapped in columns and is mostly Chinese (at least half of its
//!    non-space characters CJK) is measured again in characters (every character counts 1, the wrap
//!    width then between 25 and 80): Chinese editors and older text files wrap at a number of
//!    characters, so a line with Latin words in it is shorter in columns. Once two blocks of a
//!    document are wrapped that way, its other blocks (an English paragraph) are measured in
//!    characters against their width too.
//! 2. A line break is *wrap-like* when the line before it is full: the first word of the next line (one
//!    character for CJK; with a space before it unless both sides are CJK) would not fit within 85% of
//!    `W`. A line ending in sentence-final punctuation (`。！？….!?:：`, possibly followed by closing
//!    quotes or brackets) must be completely full: the next word must not fit within `W` at all. A line
//!    ending in a letter and a hyphen, followed by a lower-case letter, is always wrap-like.
//! 3. A line *starts a paragraph* when it starts with a U+3000 indentation, when it is indented at least
//!    two columns more than the least indented line of a block whose first line is indented too (or is a
//!    heading above an indented line: at most 40 characters, no comma or full stop), or when
//!    it starts with a list marker: `1. `, `一、`, `1、`, `（一）`, `•` …, or, only after a line that is not
//!    full, `- `, `* `, `+ `, `a. `, `a) `, `1) `, `(1) `, `(a) `.
//! 4. The block is **hard-wrapped** when its wrap width is between 50 and 160 columns, at least one
//!    break after a line not ending in sentence punctuation is wrap-like (in one-paragraph-per-line text
//!    nearly every line ends a sentence, and the longest always looks full), at most a quarter of the
//!    breaks are neither wrap-like nor explained by the next line starting a paragraph, and fewer than
//!    half of the lines start a paragraph by indentation. When the document has two or more blocks
//!    that are hard-wrapped by that rule, a block no wider than their median width (plus two) is
//!    measured against that width instead of its own, and also counts as hard-wrapped when all its
//!    breaks are wrap-like. Otherwise every line is a paragraph (long lines, lines ending in sentence
//!    punctuation, indented lines, short lines of verse, addresses or lists).
//! 5. In a hard-wrapped block the lines are joined, except before a line that starts a paragraph and after
//!    a line that ends in sentence-final punctuation without being full (both mean a new paragraph inside
//!    the block). Joining puts no space where either side is a CJK character (ideographs, kana,
//!    CJK and full-width punctuation), one space otherwise, and undoes end-of-line hyphenation: `exam-` +
//!    `ple` gives `example` when a letter precedes the hyphen and the next line starts with a lower-case
//!    letter.
//!
//! Paragraphs are returned with their lines trimmed; `clean_paragraph` does the rest.

/// The longest first line read as a heading above an indented paragraph, in characters.
const MAX_HEADING: usize = 40;
/// Blocks wider than this (in display columns) are never treated as hard-wrapped.
const WRAP_MAX: usize = 160;
/// Blocks whose widest line is narrower than this are verse, addresses or lists: one paragraph per line.
const WRAP_MIN: usize = 50;

/// Split decoded plain text into paragraphs.
pub fn split_plain_text(text: &str) -> Vec<String> {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    let mut block: Vec<&str> = Vec::new();
    for line in Lines::new(text) {
        match line {
            Line::Text(l) if !is_blank(l) => block.push(l),
            _ if block.is_empty() => {}
            _ => blocks.push(std::mem::take(&mut block)),
        }
    }
    if !block.is_empty() {
        blocks.push(block);
    }
    // The document's wrap width: the median width of the blocks that are clearly hard-wrapped.
    let document_wrap = |metric: Metric| {
        let mut widths: Vec<usize> = blocks
            .iter()
            .filter(|b| b.len() > 1 && (metric == Metric::Columns || mostly_cjk(b)))
            .map(|b| Plan::new(b, None, metric))
            .filter(|p| p.wrapped())
            .map(|p| p.wrap)
            .collect();
        widths.sort_unstable();
        (widths.len() >= 2).then(|| widths[widths.len() / 2])
    };
    let wraps = [
        (Metric::Columns, document_wrap(Metric::Columns)),
        (Metric::Chars, document_wrap(Metric::Chars)),
    ];
    let mut out = Vec::new();
    for block in blocks {
        split_block(&block, &wraps, &mut out);
    }
    out
}

/// A piece of the text between line breaks.
enum Line<'a> {
    Text(&'a str),
    /// A hard paragraph break that is not a line of its own (form feed, U+2029).
    Break,
}

/// Iterates over lines, accepting LF, CRLF and CR endings; U+2028 and vertical tab end a line, form feed
/// and U+2029 end a paragraph.
struct Lines<'a> {
    rest: &'a str,
    pending_break: bool,
    done: bool,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines {
            rest: text,
            pending_break: false,
            done: false,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        if self.pending_break {
            self.pending_break = false;
            return Some(Line::Break);
        }
        if self.done {
            return None;
        }
        let rest = self.rest;
        let Some(pos) = line_end(rest) else {
            self.done = true;
            self.rest = "";
            return Some(Line::Text(rest));
        };
        let line = &rest[..pos];
        let sep = rest[pos..].chars().next().unwrap_or('\n');
        let mut skip = sep.len_utf8();
        if sep == '\r' && rest.as_bytes().get(pos + 1) == Some(&b'\n') {
            skip += 1;
        }
        if matches!(sep, '\u{000c}' | '\u{2029}') {
            self.pending_break = true;
        }
        self.rest = &rest[pos + skip..];
        Some(Line::Text(line))
    }
}

/// Byte offset of the first line or paragraph separator (LF, CR, VT, FF, U+2028, U+2029) in `text`,
/// found by scanning bytes: every separator is ASCII or starts with the byte E2.
fn line_end(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(found) =
        super::clean::find_byte(&b[from..], |x| (x.wrapping_sub(0x0a) < 4) | (x == 0xe2))
    {
        let pos = from + found;
        if b[pos] != 0xe2
            || (b.get(pos + 1) == Some(&0x80) && matches!(b.get(pos + 2), Some(0xa8 | 0xa9)))
        {
            return Some(pos);
        }
        from = pos + 1;
    }
    None
}

fn is_blank(line: &str) -> bool {
    line.chars()
        .all(|c| c.is_whitespace() || matches!(c, '\u{feff}' | '\u{200b}'))
}

/// What the splitter needs to know about one line of a block.
struct LineInfo<'a> {
    /// The line without leading or trailing whitespace.
    content: &'a str,
    /// Display width of the line without trailing whitespace (indentation included).
    width: usize,
    indent: usize,
    /// Starts with an ideographic space (U+3000).
    fullwidth_indent: bool,
    breakable: bool,
    ends_sentence: bool,
    /// Ends in a letter followed by a hyphen.
    ends_hyphen: bool,
    list: Option<Marker>,
    metric: Metric,
}

/// How line widths are measured.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Metric {
    /// Display columns of a monospaced editor (CJK characters count 2).
    Columns,
    /// Characters (every character counts 1): Chinese text wrapped at a number of characters, whatever
    /// their width, by editors and older Chinese text files. Used only for blocks mostly in CJK.
    Chars,
}

impl Metric {
    fn width(self, c: char) -> usize {
        match self {
            Metric::Columns => char_width(c),
            Metric::Chars => usize::from(char_width(c) > 0),
        }
    }

    /// The wrap widths a hard-wrapped block can have.
    fn wrap_range(self) -> std::ops::RangeInclusive<usize> {
        match self {
            Metric::Columns => WRAP_MIN..=WRAP_MAX,
            Metric::Chars => WRAP_MIN / 2..=WRAP_MAX / 2,
        }
    }
}

/// Whether at least [`CJK_BLOCK_SHARE`] of a block's non-space characters are CJK.
fn mostly_cjk(lines: &[&str]) -> bool {
    let (mut all, mut cjk) = (0usize, 0usize);
    for c in lines
        .iter()
        .flat_map(|l| l.chars())
        .filter(|c| !c.is_whitespace())
    {
        all += 1;
        cjk += usize::from(is_cjk(c));
    }
    all > 0 && cjk * 100 >= all * CJK_BLOCK_SHARE
}

/// See [`mostly_cjk`], in percent.
const CJK_BLOCK_SHARE: usize = 50;

impl<'a> LineInfo<'a> {
    fn new(line: &'a str, metric: Metric) -> Self {
        let char_width = |c: char| metric.width(c);
        let line = line.trim_end_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        let content = line.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        let indent_part = &line[..line.len() - content.len()];
        let indent = indent_part
            .chars()
            .map(|c| match c {
                '\t' => 4,
                c => char_width(c),
            })
            .sum();
        let width = indent + content.chars().map(char_width).sum::<usize>();
        let breakable = content.chars().any(|c| c.is_whitespace() || is_cjk(c));
        let mut rev = content.chars().rev();
        let ends_hyphen = rev.next() == Some('-') && rev.next().is_some_and(char::is_alphabetic);
        LineInfo {
            content,
            width,
            indent,
            fullwidth_indent: indent_part.starts_with('\u{3000}'),
            breakable,
            ends_sentence: sentence_end(content).is_some(),
            ends_hyphen,
            list: list_marker(content),
            metric,
        }
    }

    fn first_char(&self) -> Option<char> {
        self.content.chars().next()
    }

    fn last_char(&self) -> Option<char> {
        self.content.chars().next_back()
    }

    /// Width of the first unbreakable unit: a word, or a single CJK character.
    fn first_unit_width(&self) -> usize {
        match self.first_char() {
            Some(c) if is_cjk(c) => self.metric.width(c),
            _ => self
                .content
                .chars()
                .take_while(|c| !c.is_whitespace() && !is_cjk(*c))
                .map(|c| self.metric.width(c))
                .sum(),
        }
    }
}

/// The analysis of a block of several lines.
struct Plan<'a> {
    info: Vec<LineInfo<'a>>,
    /// The wrap width: the widest line that could have been broken.
    wrap: usize,
    /// `breaks[i]`: the break between line `i` and line `i + 1` is wrap-like.
    breaks: Vec<bool>,
    /// Wrap-like breaks after lines that do not end in sentence punctuation.
    evidence: usize,
    /// Measured against the document's wrap width rather than the block's own.
    document_wrap: bool,
    /// Breaks that are neither wrap-like nor before a paragraph start.
    unexplained: usize,
    /// Lines (after the first) that start a paragraph by their indentation.
    indent_starts: usize,
    min_indent: usize,
    first_indented: bool,
}

impl<'a> Plan<'a> {
    /// Analyse a block. With `document_wrap`, the document's wrap width is used when the block is no
    /// wider (a block's widest line can fall short of the width it was wrapped at).
    fn new(lines: &[&'a str], document_wrap: Option<usize>, metric: Metric) -> Self {
        let info: Vec<LineInfo> = lines.iter().map(|l| LineInfo::new(l, metric)).collect();
        let own = info
            .iter()
            .filter(|l| l.breakable)
            .map(|l| l.width)
            .max()
            .or_else(|| info.iter().map(|l| l.width).max())
            .unwrap_or(0);
        let (wrap, document_wrap) = match document_wrap {
            Some(w) if own <= w + 2 => (w.max(own), true),
            _ => (own, false),
        };
        let min_indent = info.iter().map(|l| l.indent).min().unwrap_or(0);
        // The first line is indented, or it is a heading: a short line with sentence punctuation
        // nowhere, above an indented one.
        let first_indented = match info.as_slice() {
            [first, ..] if first.indent >= min_indent + 2 => true,
            [first, second, ..] => {
                second.indent >= min_indent + 2
                    && first.content.chars().count() <= MAX_HEADING
                    && !first.content.contains(['。', '，', '；', '.', ',', ';'])
            }
            _ => false,
        };
        let breaks: Vec<bool> = info
            .windows(2)
            .map(|pair| wrap_like(&pair[0], &pair[1], wrap))
            .collect();
        // A full line ending in a full stop is weak evidence of wrapping: nearly every line of a
        // one-paragraph-per-line file ends that way, and the longest of them is always "full".
        let evidence = breaks
            .iter()
            .zip(&info)
            .filter(|&(&b, line)| b && !line.ends_sentence)
            .count();
        let mut plan = Plan {
            info,
            wrap,
            breaks,
            evidence,
            document_wrap,
            unexplained: 0,
            indent_starts: 0,
            min_indent,
            first_indented,
        };
        plan.unexplained = (0..plan.breaks.len())
            .filter(|&i| !plan.breaks[i] && !plan.starts_paragraph(i + 1))
            .count();
        plan.indent_starts = (1..plan.info.len())
            .filter(|&i| plan.indent_start(i))
            .count();
        plan
    }

    /// Indentation marks paragraph starts when the block's first line is indented (the
    /// indented-first-line convention); deeper indentation elsewhere is list-item or quotation
    /// continuation. A full-width space always starts a paragraph.
    fn indent_start(&self, i: usize) -> bool {
        let line = &self.info[i];
        line.fullwidth_indent || (self.first_indented && line.indent >= self.min_indent + 2)
    }

    /// Indentation, or a list marker; after a full line only a [`Marker::Strong`] one (a weak one there
    /// is more likely a dash, an operator or a parenthesis that wrapped to the start of the line).
    fn starts_paragraph(&self, i: usize) -> bool {
        let after_full_line = i > 0 && self.breaks[i - 1];
        self.indent_start(i)
            || match self.info[i].list {
                Some(Marker::Strong) => true,
                Some(Marker::Weak) => !after_full_line,
                None => false,
            }
    }

    /// Whether the block is hard-wrapped. Without evidence of its own (say two lines, the first ending
    /// in a full stop) a block counts as wrapped when all its breaks are wrap-like at the document's
    /// wrap width.
    fn wrapped(&self) -> bool {
        let n_breaks = self.breaks.len();
        let evidence = self.evidence > 0
            || (self.document_wrap && n_breaks > 0 && self.breaks.iter().all(|&b| b));
        self.info
            .first()
            .is_some_and(|l| l.metric.wrap_range().contains(&self.wrap))
            && evidence
            && self.unexplained * 4 <= n_breaks
            && self.indent_starts * 2 < n_breaks
    }
}

/// Split one blank-line-separated block into paragraphs.
fn split_block(lines: &[&str], wraps: &[(Metric, Option<usize>)], out: &mut Vec<String>) {
    match lines {
        [] => return,
        [line] => {
            out.push(line.trim().to_string());
            return;
        }
        _ => {}
    }
    // Measured in columns first; a mostly Chinese block also by characters.
    // A block in another script is measured by characters too when the document's Chinese blocks are
    // wrapped at a number of characters (an English paragraph in a Chinese file wrapped at 30).
    let cjk = mostly_cjk(lines);
    let plan = wraps
        .iter()
        .filter(|(metric, wrap)| *metric == Metric::Columns || cjk || wrap.is_some())
        .map(|&(metric, wrap)| Plan::new(lines, wrap, metric))
        .find(Plan::wrapped);
    let Some(plan) = plan else {
        out.extend(
            lines
                .iter()
                .map(|l| LineInfo::new(l, Metric::Columns).content.to_string()),
        );
        return;
    };
    let mut current = String::new();
    for (i, line) in plan.info.iter().enumerate() {
        if i == 0 {
            current.push_str(line.content);
            continue;
        }
        let prev = &plan.info[i - 1];
        let hard = plan.starts_paragraph(i) || (!plan.breaks[i - 1] && prev.ends_sentence);
        if hard {
            out.push(std::mem::take(&mut current));
            current.push_str(line.content);
        } else {
            join_line(&mut current, prev, line);
        }
    }
    out.push(current);
}

/// Whether the break after `line` looks like one made by wrapping at `wrap` columns.
fn wrap_like(line: &LineInfo, next: &LineInfo, wrap: usize) -> bool {
    if line.ends_hyphen && next.first_char().is_some_and(char::is_lowercase) {
        return true;
    }
    // Allow for a space unless both sides are CJK (Chinese text often has a space next to Latin words
    // and ASCII punctuation).
    let both_cjk = line.last_char().is_some_and(is_cjk) && next.first_char().is_some_and(is_cjk);
    let sep = usize::from(!both_cjk);
    let would_be = line.width + sep + next.first_unit_width();
    if line.ends_sentence {
        would_be > wrap
    } else {
        would_be * 100 > wrap * 85
    }
}

/// Append `line` to the paragraph being built from the previous line `prev`.
fn join_line(current: &mut String, prev: &LineInfo, line: &LineInfo) {
    if prev.ends_hyphen && line.first_char().is_some_and(char::is_lowercase) {
        current.pop();
    } else if needs_space(prev.last_char(), line.first_char()) {
        current.push(' ');
    }
    current.push_str(line.content);
}

fn needs_space(before: Option<char>, after: Option<char>) -> bool {
    match (before, after) {
        (Some(b), Some(a)) => !is_cjk(b) && !is_cjk(a),
        _ => false,
    }
}

/// The sentence-final punctuation a line ends in, possibly followed by closing quotes or brackets.
fn sentence_end(content: &str) -> Option<char> {
    let trimmed = content.trim_end_matches([
        '"', '\'', ')', ']', '}', '”', '’', '）', '】', '」', '』', '》', '〉', '］', '｝',
    ]);
    if trimmed.ends_with("...") {
        return None; // an ellipsis or an elision, not a full stop
    }
    trimmed.chars().next_back().filter(|c| {
        matches!(
            c,
            '。' | '！' | '？' | '…' | '．' | '：' | '.' | '!' | '?' | ':' | '｡' | '؟'
        )
    })
}

/// How surely a list marker starts a list item.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Marker {
    /// `- `, `* `, `+ `, `a. `, `a) `, `1) `, `(1) `, `(a) `: also a dash, an operator, or a
    /// parenthesis that wrapped to the start of a line.
    Weak,
    /// `1. `, `一、`, `1、`, `（一）`, `（1）`, `•` and other typographic bullets.
    Strong,
}

/// Whether `content` starts with a bullet or an item number followed by a space (or a Chinese
/// enumeration comma), and how surely.
fn list_marker(content: &str) -> Option<Marker> {
    let mut chars = content.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    let followed_by_space = |s: &str| s.starts_with(|c: char| c.is_whitespace());
    if matches!(first, '-' | '*' | '+') {
        return followed_by_space(rest).then_some(Marker::Weak);
    }
    if matches!(
        first,
        '•' | '·'
            | '◦'
            | '▪'
            | '▫'
            | '●'
            | '○'
            | '■'
            | '□'
            | '◆'
            | '◇'
            | '►'
            | '▶'
            | '※'
            | '➢'
            | '✓'
            | '❑'
            | '❖'
    ) {
        return (!rest.is_empty()).then_some(Marker::Strong);
    }
    // (1) (a) (iv) followed by a space; （1） （一） with or without one.
    if matches!(first, '(' | '（') {
        let close = rest.find([')', '）'])?;
        let inner = &rest[..close];
        let numbered = (1..=3).contains(&inner.chars().count())
            && (inner.chars().all(|c| c.is_ascii_digit()) || inner.chars().all(is_chinese_numeral));
        if first == '（' {
            return numbered.then_some(Marker::Strong);
        }
        let lettered = inner.len() == 1 && inner.bytes().all(|b| b.is_ascii_lowercase())
            || (1..=4).contains(&inner.len()) && inner.bytes().all(|b| b"ivx".contains(&b));
        let spaced = rest[close..]
            .strip_prefix(')')
            .is_some_and(followed_by_space);
        return ((numbered || lettered) && spaced).then_some(Marker::Weak);
    }
    // 1. 12) a. 一、 1、
    let label_len = content
        .chars()
        .take_while(|c| c.is_ascii_digit() || is_chinese_numeral(*c))
        .count();
    let (label, after) = if label_len > 0 {
        let end = content
            .char_indices()
            .nth(label_len)
            .map_or(content.len(), |(i, _)| i);
        (&content[..end], &content[end..])
    } else if first.is_ascii_lowercase() {
        (&content[..1], rest)
    } else {
        return None;
    };
    if label.chars().count() > 3 {
        return None;
    }
    let chinese = label.chars().any(is_chinese_numeral);
    let digits = label.chars().all(|c| c.is_ascii_digit());
    let mut after_chars = after.chars();
    let punct = after_chars.next()?;
    let spaced = followed_by_space(after_chars.as_str());
    match punct {
        '、' => Some(Marker::Strong),
        '.' | '．' if chinese || (digits && spaced) => Some(Marker::Strong),
        '.' | ')' | '．' | '）' if spaced || chinese => Some(Marker::Weak),
        _ => None,
    }
}

/// Whether a paragraph starts with a list marker.
pub(crate) fn is_list_item(content: &str) -> bool {
    list_marker(content).is_some()
}

fn is_chinese_numeral(c: char) -> bool {
    matches!(
        c,
        '一' | '二' | '三' | '四' | '五' | '六' | '七' | '八' | '九' | '十'
    )
}

/// Written without spaces between words (ideographs, kana, CJK and full-width punctuation).
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF     // CJK radicals
        | 0x3000..=0x303F   // CJK symbols and punctuation
        | 0x3040..=0x31FF   // kana, Bopomofo
        | 0x3200..=0x33FF   // enclosed CJK, compatibility
        | 0x3400..=0x4DBF   // Extension A
        | 0x4E00..=0x9FFF   // CJK Unified Ideographs
        | 0xF900..=0xFAFF   // compatibility ideographs
        | 0xFE30..=0xFE4F   // CJK compatibility forms
        | 0xFF00..=0xFF60   // full-width forms
        | 0xFFE0..=0xFFE6
        | 0x20000..=0x3FFFF // Extensions B and later
    )
}

/// Columns a character takes in a monospaced editor.
fn char_width(c: char) -> usize {
    if is_cjk(c) || matches!(c as u32, 0x1100..=0x115F | 0xAC00..=0xD7A3 | 0xFE10..=0xFE19) {
        2
    } else if matches!(c as u32, 0x0300..=0x036F | 0x200B..=0x200F | 0xFEFF) {
        0
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_end_finds_the_first_separator() {
        let seps = ['\n', '\r', '\u{000b}', '\u{000c}', '\u{2028}', '\u{2029}'];
        // Neighbours that share bytes with U+2028/U+2029 (E2 80 ..) or are near misses.
        let alphabet = [
            'a', '\n', '\r', '\u{0b}', '\u{0c}', '\u{2028}', '\u{2029}', '\u{2027}', '\u{202a}',
            '\u{201c}', '\u{2e80}', '软', '\u{85}',
        ];
        for s in crate::clean::all_strings(&alphabet, 4) {
            assert_eq!(line_end(&s), s.find(seps), "{s:?}");
        }
    }

    #[test]
    fn chinese_one_paragraph_per_line_with_indent() {
        let text = "\u{3000}\u{3000}第一段文字很长，讲的是一件事情。\n\u{3000}\u{3000}第二段文字，讲的是另一件事情。\n\u{3000}\u{3000}第三段。\n";
        assert_eq!(
            split_plain_text(text),
            vec![
                "第一段文字很长，讲的是一件事情。",
                "第二段文字，讲的是另一件事情。",
                "第三段。"
            ]
        );
    }

    #[test]
    fn chinese_lines_of_similar_length_ending_in_full_stops_stay_apart() {
        let text = "这是第一个段落，它的长度和第二个段落差不多，内容完全不同。\n这是第二个段落，它的长度和第一个段落差不多，内容也不同。\n";
        assert_eq!(split_plain_text(text).len(), 2);
        // Without indentation, separated by blank lines, CRLF.
        let text = "第一段。\r\n\r\n第二段！\r\n\r\n\r\n第三段？";
        assert_eq!(
            split_plain_text(text),
            vec!["第一段。", "第二段！", "第三段？"]
        );
    }

    #[test]
    fn chinese_hard_wrapped_is_joined_without_spaces() {
        // Wrapped at 26 characters (52 columns); paragraphs start with full-width indentation.
        let text = "\u{3000}\u{3000}自由软件基金会认为软件应当允许用户自由地运行、复制、分发\n、学习、修改和改进，这些自由对于社区的发展至关重要，因此\n值得坚持。\n\u{3000}\u{3000}第二段从这里开始，同样被折行到固定的宽度，一直写到这\n一行结束为止。\n";
        assert_eq!(
            split_plain_text(text),
            vec![
                "自由软件基金会认为软件应当允许用户自由地运行、复制、分发、学习、修改和改进，这些自由对于社区的发展至关重要，因此值得坚持。",
                "第二段从这里开始，同样被折行到固定的宽度，一直写到这一行结束为止。",
            ]
        );
    }

    #[test]
    fn english_hard_wrapped_paragraphs_are_joined() {
        let text = "The Debian Free Software Guidelines are a set of rules that decide\n\
                    whether a piece of software can be included in the main archive. They\n\
                    were written in 1997 and have hardly changed since.\n\
                    \n\
                    A second paragraph follows the blank line, and it is wrapped at the\n\
                    same width as the first one and shows how the hyphenated exam-\n\
                    ple is mended, while a line that ends with a hyphenated well-\n\
                    Known capital letter keeps its hyphen.\n";
        assert_eq!(
            split_plain_text(text),
            vec![
                "The Debian Free Software Guidelines are a set of rules that decide whether a piece of software can be included in the main archive. They were written in 1997 and have hardly changed since.",
                "A second paragraph follows the blank line, and it is wrapped at the same width as the first one and shows how the hyphenated example is mended, while a line that ends with a hyphenated well- Known capital letter keeps its hyphen.",
            ]
        );
    }

    #[test]
    fn two_line_block_with_full_stop_at_wrap_point() {
        // The first line ends a sentence and is full ("It" would not have fit): alone, that is not
        // enough to join (it is what two one-line paragraphs look like)...
        let two = "Packages in main must comply with the Debian Free Software Guidelines.\nIt is the most important rule.";
        assert_eq!(split_plain_text(two).len(), 2);
        let per_line = "Free software means software that respects users' freedom and community.\nRoughly, it means that users may run, copy, distribute, study, change and improve it.";
        assert_eq!(split_plain_text(per_line).len(), 2);
        // ... but in a document whose other paragraphs are wrapped at that width, it is joined.
        let text = format!(
            "{two}\n\n\
             The Debian Free Software Guidelines are a set of rules that decide\n\
             whether a piece of software can be included in the main archive of the\n\
             distribution.\n\n\
             Packages that fail either rule are moved to contrib or non-free, where\n\
             they are still available to users but not part of the distribution."
        );
        let got = split_plain_text(&text);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(
            got[0],
            "Packages in main must comply with the Debian Free Software Guidelines. It is the most important rule."
        );
    }

    #[test]
    fn english_one_paragraph_per_line() {
        let text = "In short, Linux is the kernel of a Unix-like operating system. It was originally designed for 386 PCs; today Linux also runs on a dozen of other systems.\n\
                    Currently, Debian is only available for Linux, but with Debian GNU/Hurd and Debian on BSD kernels we have started to offer other kernels.\n\
                    Short line.\r\n";
        assert_eq!(split_plain_text(text).len(), 3);
    }

    #[test]
    fn lists_verse_and_addresses_stay_line_by_line() {
        let text = "Shopping list:\n- apples and pears from the market\n- a loaf of bread\n- milk";
        assert_eq!(split_plain_text(text).len(), 4);
        let text = "床前明月光，\n疑是地上霜。\n举头望明月，\n低头思故乡。";
        assert_eq!(split_plain_text(text).len(), 4);
        let text = "John Smith\n12 Long Road\nCambridge";
        assert_eq!(split_plain_text(text).len(), 3);
    }

    #[test]
    fn wrapped_list_items_are_split_at_markers() {
        let text = "The maintainer must do the following things before the upload:\n\
                    1. build the package in a clean chroot and run the\n   test suite with all optional features enabled\n\
                    2. check the package with lintian and fix all errors\n   that it reports before going any further";
        assert_eq!(
            split_plain_text(text),
            vec![
                "The maintainer must do the following things before the upload:",
                "1. build the package in a clean chroot and run the test suite with all optional features enabled",
                "2. check the package with lintian and fix all errors that it reports before going any further",
            ]
        );
    }

    #[test]
    fn indented_paragraphs_without_blank_lines() {
        let text = "    It was a bright cold day in April, and the clocks were striking\n\
                    thirteen. Winston Smith, his chin nuzzled into his breast in an\n\
                    effort to escape the vile wind, slipped quickly through the doors.\n\
                    \x20   The hallway smelt of boiled cabbage and old rag mats. At one end\n\
                    of it a coloured poster, too large for indoor display, had been\n\
                    tacked to the wall.";
        let got = split_plain_text(text);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].ends_with("slipped quickly through the doors."));
        assert!(got[1].starts_with("The hallway"));
    }

    #[test]
    fn line_endings_and_separators() {
        assert_eq!(split_plain_text("a.\rb.\r\rc."), vec!["a.", "b.", "c."]);
        assert_eq!(split_plain_text("a.\u{000c}b."), vec!["a.", "b."]);
        assert_eq!(
            split_plain_text("a.\u{2029}b.\u{2028}c."),
            vec!["a.", "b.", "c."]
        );
        assert_eq!(split_plain_text(" \n\u{3000}\n\t\n"), Vec::<String>::new());
        assert_eq!(split_plain_text(""), Vec::<String>::new());
    }

    #[test]
    fn list_markers() {
        for yes in [
            "- a",
            "* a",
            "• a",
            "1. a",
            "12) a",
            "a. x",
            "一、总则",
            "1、第一",
            "（一）概述",
            "(a) x",
            "(12) x",
            "（1）概述",
            "(iv) x",
        ] {
            assert!(is_list_item(yes), "{yes}");
        }
        for no in [
            "-- a",
            "1999. The",
            "-a",
            "and so on",
            "ab. c",
            "(see below) x",
            "一些文字",
            "(3).",
            "（MTU）的",
            "（L）来",
            "(A) x",
        ] {
            assert!(!is_list_item(no), "{no}");
        }
    }

    /// Greedy wrap at `width` columns, as editors do: at spaces, and between CJK characters; Latin words
    /// are never broken.
    fn wrap(paragraph: &str, width: usize, indent: &str) -> String {
        // (token, preceded by a space)
        let mut tokens: Vec<(String, bool)> = Vec::new();
        for word in paragraph.split_whitespace() {
            let mut space = true;
            let mut latin = String::new();
            for c in word.chars() {
                if is_cjk(c) {
                    if !latin.is_empty() {
                        tokens.push((std::mem::take(&mut latin), space));
                        space = false;
                    }
                    tokens.push((c.to_string(), space));
                    space = false;
                } else {
                    latin.push(c);
                }
            }
            if !latin.is_empty() {
                tokens.push((latin, space));
            }
        }
        let mut out = String::from(indent);
        let mut col: usize = indent.chars().map(char_width).sum();
        let mut first = true;
        for (token, space) in tokens {
            let w: usize = token.chars().map(char_width).sum();
            let sep = usize::from(space && !first);
            if !first && col + sep + w > width {
                out.push('\n');
                col = 0;
            } else if sep == 1 {
                out.push(' ');
                col += 1;
            }
            out.push_str(&token);
            col += w;
            first = false;
        }
        out
    }

    /// Hard-wrapping the eval-dev library paragraphs (at 60, 72 and 80 columns; with blank lines
    /// between, or without blank lines with the first line indented: four spaces for English, two
    /// U+3000 for Chinese) must give them back; so must one paragraph per line without blank lines.
    #[test]
    fn eval_dev_rewrapped() {
        let Some(dir) = tongwen_testdata::eval_dev_for("eval_dev_rewrapped") else {
            return;
        };
        let entries = std::fs::read_dir(dir.join("library")).expect("eval-dev's library folder");
        let squash = |s: &str| {
            // Hyphens are ignored: "up- or down" wrapped after "up-" is joined as "upor down", the
            // documented price of undoing end-of-line hyphenation.
            s.chars()
                .filter(|c| !c.is_whitespace() && *c != '-')
                .collect::<String>()
        };
        let (mut total, mut bad) = (0, Vec::new());
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue; // the GB18030 files
            };
            if path.extension().is_none_or(|e| e != "txt") {
                continue;
            }
            let paragraphs = split_plain_text(&text);
            let zh = paragraphs.iter().any(|p| p.chars().any(is_cjk));
            let indent = if zh { "\u{3000}\u{3000}" } else { "    " };
            let wrap_all = |width: usize, indent: &str, sep: &str| {
                paragraphs
                    .iter()
                    .map(|p| wrap(p, width, indent))
                    .collect::<Vec<_>>()
                    .join(sep)
            };
            let variants = [
                wrap_all(72, "", "\n\n"),
                wrap_all(72, indent, "\n"),
                wrap_all(60, "", "\r\n\r\n"),
                wrap_all(80, indent, "\n"),
                // Not wrapped: one paragraph per line, with no blank lines, plain or indented.
                paragraphs.join("\n"),
                paragraphs
                    .iter()
                    .map(|p| format!("{indent}{p}"))
                    .collect::<Vec<_>>()
                    .join("\r\n"),
            ];
            for (v, wrapped) in variants.iter().enumerate() {
                total += 1;
                let got: Vec<String> = split_plain_text(wrapped)
                    .iter()
                    .map(|p| squash(p))
                    .collect();
                let want: Vec<String> = paragraphs.iter().map(|p| squash(p)).collect();
                if got != want {
                    let i = (0..got.len().min(want.len())).find(|&i| got[i] != want[i]);
                    bad.push(format!(
                        "{} variant {v}: {} paragraphs, want {}; first difference at {:?}: {:?}",
                        path.display(),
                        got.len(),
                        want.len(),
                        i,
                        i.map(|i| (&got[i], &want[i]))
                    ));
                }
            }
        }
        eprintln!("{} of {total} re-wrapped files differ", bad.len());
        for b in bad.iter().take(5) {
            eprintln!("{b}");
        }
        assert!(bad.is_empty());
    }

    /// The eval-dev benchmark (one paragraph per line, blank lines between, some CRLF/BOM, two GB18030
    /// files): every text file must split into exactly the paragraphs of truth.json.
    #[test]
    fn eval_dev_txt_files() {
        let Some(dir) = tongwen_testdata::eval_dev_for("eval_dev_txt_files") else {
            return;
        };
        let truth = std::fs::read(dir.join("truth.json")).expect("eval-dev's truth.json");
        let truth: serde_json::Value = serde_json::from_slice(&truth).expect("truth.json");
        let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        let mut checked = 0;
        let mut failures = Vec::new();
        for (section, key) in [("library", "library"), ("queries", "queries")] {
            let entries = truth[key].as_object().expect("truth section");
            for (name, entry) in entries {
                if !name.ends_with(".txt") {
                    continue;
                }
                let bytes = std::fs::read(dir.join(name)).expect("eval-dev file");
                let got: Vec<String> = match crate::extract_bytes(
                    &bytes,
                    Some("txt"),
                    &crate::ExtractOptions::default(),
                ) {
                    Ok(ex) => ex.paragraphs.into_iter().map(|b| b.text).collect(),
                    Err(e) => {
                        failures.push(format!("{name}: {e}"));
                        continue;
                    }
                };
                checked += 1;
                if section == "library" {
                    let want = entry["n_paragraphs"].as_u64().expect("n_paragraphs") as usize;
                    if got.len() != want {
                        failures.push(format!("{name}: {} paragraphs, want {want}", got.len()));
                    }
                } else {
                    let want: Vec<String> = entry["paragraphs"]
                        .as_array()
                        .expect("paragraphs")
                        .iter()
                        .map(|p| squash(p["text"].as_str().expect("text")))
                        .collect();
                    let got: Vec<String> = got.iter().map(|p| squash(p)).collect();
                    if got.len() != want.len() {
                        failures.push(format!(
                            "{name}: {} paragraphs, want {}",
                            got.len(),
                            want.len()
                        ));
                    } else if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
                        failures.push(format!(
                            "{name}: paragraph {i} differs:\n  got  {}\n  want {}",
                            got[i], want[i]
                        ));
                    }
                }
            }
        }
        eprintln!("eval-dev: {checked} text files checked");
        assert!(
            failures.is_empty(),
            "{} failures; first: {}",
            failures.len(),
            failures[0]
        );
    }
}
