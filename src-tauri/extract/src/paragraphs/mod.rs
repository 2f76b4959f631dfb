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
//!    ending in a letter and a hyphen, followed by a lower-case letter, is always wrap-like. Tools that
//!    break lines only at spaces (Python's `textwrap`, `fold -s`, `fmt`, mail clients) treat a run of
//!    Chinese between two spaces as one word: their lines end after Latin words at varying widths, and
//!    a run is cut only when longer than a line. A block is also tried that way, the next line's first
//!    unit then being everything up to its first space; it is not read so when a break falls inside a
//!    run of CJK after a line that is not full.
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
//!    CJK and full-width punctuation), one space otherwise (in a block wrapped only at spaces, one space
//!    at every break but those inside a run of CJK), and undoes end-of-line hyphenation only where the
//!    document spells the joined word elsewhere: `exam-` + `ple` gives `example` then, while `non-` +
//!    `linux` (wrapping tools break at a text's own hyphens and never add one) stays `non-linux`.
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
            .map(|b| Plan::new(b, None, metric, false))
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
    let words = Words::of(text);
    let mut out = Vec::new();
    for block in blocks {
        split_block(&block, &wraps, &words, &mut out);
    }
    out
}

/// What the whole document shows about joining lines:
/// - its words, known only when a line ends in a hyphen after a letter: a hyphen at a
///   line end is undone only when the document spells the joined word elsewhere, since editors and
///   wrapping tools break lines at the hyphens a text has (`non-` / `linux`) and do not hyphenate;
/// - whether it spaces Chinese from Latin words and digits within its lines (`运行 apt 命令`): then a
///   line break between the two stands for a space.
struct Words<'a> {
    text: &'a str,
    words: std::cell::OnceCell<std::collections::HashSet<&'a str>>,
    spaces_cjk_latin: std::cell::OnceCell<bool>,
}

impl<'a> Words<'a> {
    /// Both facts are learned from `text` the first time a join asks for them.
    fn of(text: &'a str) -> Words<'a> {
        Words {
            text,
            words: std::cell::OnceCell::new(),
            spaces_cjk_latin: std::cell::OnceCell::new(),
        }
    }

    fn spaces_cjk_latin(&self) -> bool {
        *self.spaces_cjk_latin.get_or_init(|| {
            let (mut spaced, mut unspaced) = (0usize, 0usize);
            let latin = |c: char| c.is_ascii_alphanumeric();
            let mut prev: [char; 2] = [' ', ' '];
            for c in self.text.chars() {
                let [before, middle] = prev;
                if (is_cjk(c) && latin(middle)) || (latin(c) && is_cjk(middle)) {
                    unspaced += 1;
                } else if middle == ' '
                    && ((is_cjk(c) && latin(before)) || (latin(c) && is_cjk(before)))
                {
                    spaced += 1;
                }
                prev = [middle, c];
            }
            spaced > unspaced
        })
    }

    /// Whether `head` (before a line-end hyphen) and `tail` (the next line) spell a word of the text.
    fn joins(&self, head: &str, tail: &str) -> bool {
        // Latin words as the text spells them (hyphenation is a matter of alphabetic scripts).
        let words = self.words.get_or_init(|| {
            self.text
                .split(|c: char| !c.is_ascii_alphabetic())
                .filter(|w| w.len() > 2)
                .collect()
        });
        let joined = rejoined(head, tail);
        words.contains(joined.as_str()) || words.contains(joined.to_lowercase().as_str())
    }
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
    cjk_percent(lines) >= CJK_BLOCK_SHARE
}

/// The share of a block's non-space characters that are CJK, in percent.
fn cjk_percent(lines: &[&str]) -> usize {
    let (mut all, mut cjk) = (0usize, 0usize);
    for c in lines
        .iter()
        .flat_map(|l| l.chars())
        .filter(|c| !c.is_whitespace())
    {
        all += 1;
        cjk += usize::from(is_cjk(c));
    }
    (cjk * 100).checked_div(all).unwrap_or(0)
}

/// A block with at least this share of CJK characters (in percent) is also measured in characters:
/// Chinese paragraphs and English ones in one block (no blank lines) wrapped by a tool that counts
/// characters.
const CJK_MIXED_SHARE: usize = 20;

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

    /// Width of everything up to the first space: the first unit for a wrapper that breaks only at
    /// spaces (see [`Plan::space_units`]).
    fn first_spaced_unit_width(&self) -> usize {
        self.content
            .chars()
            .take_while(|c| !c.is_whitespace())
            .map(|c| self.metric.width(c))
            .sum()
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
    /// Read as wrapped by a tool that breaks lines only at spaces (Python's `textwrap`, `fold -s`, many
    /// mail clients): a run of Chinese without spaces is one unit that moves whole to the next line, so
    /// lines end after Latin words at varying widths. Only for a block whose every break inside a run
    /// of CJK comes after a full line (the tool cuts a run only when it is longer than the line).
    space_units: bool,
    /// Asked for [`Self::space_units`] but broken inside a CJK run after a line that is not full.
    rejected: bool,
    min_indent: usize,
    first_indented: bool,
}

impl<'a> Plan<'a> {
    /// Analyse a block. With `document_wrap`, the document's wrap width is used when the block is no
    /// wider (a block's widest line can fall short of the width it was wrapped at).
    fn new(
        lines: &[&'a str],
        document_wrap: Option<usize>,
        metric: Metric,
        space_units: bool,
    ) -> Self {
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
            .map(|pair| wrap_like(&pair[0], &pair[1], wrap, space_units))
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
            space_units,
            rejected: false,
        };
        plan.unexplained = (0..plan.breaks.len())
            .filter(|&i| !plan.breaks[i] && !plan.starts_paragraph(i + 1))
            .count();
        plan.indent_starts = (1..plan.info.len())
            .filter(|&i| plan.indent_start(i))
            .count();
        // A spaces-only wrapper cuts a CJK run only at the line's end: a block broken inside a run
        // anywhere else, but at a paragraph's end (a sentence's end, or before an indented line), was
        // not wrapped that way.
        plan.rejected = space_units
            && plan.info.windows(2).enumerate().any(|(i, pair)| {
                let [line, next] = pair else { return false };
                let inside_run =
                    line.last_char().is_some_and(is_cjk) && next.first_char().is_some_and(is_cjk);
                inside_run
                    && !line.ends_sentence
                    && !plan.indent_start(i + 1)
                    && !wrap_like(line, next, plan.wrap, false)
            });
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
        if self.rejected {
            return false;
        }
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
fn split_block(
    lines: &[&str],
    wraps: &[(Metric, Option<usize>)],
    words: &Words,
    out: &mut Vec<String>,
) {
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
    let cjk = cjk_percent(lines) >= CJK_MIXED_SHARE;
    // Units up to a space differ from the usual ones only where CJK comes before a line's first
    // space.
    let spaced_differs = lines.iter().skip(1).any(|l| {
        let first = l.trim_start().split(' ').next().unwrap_or_default();
        first.chars().any(is_cjk)
    });
    let plan = wraps
        .iter()
        .filter(|(metric, wrap)| *metric == Metric::Columns || cjk || wrap.is_some())
        .find_map(|&(metric, wrap)| {
            // Wrapped at any break, or only at spaces: whichever explains more of the breaks (the
            // first on a tie).
            let plain = Some(Plan::new(lines, wrap, metric, false)).filter(Plan::wrapped);
            if !spaced_differs || plain.as_ref().is_some_and(|p| p.unexplained == 0) {
                return plain;
            }
            let spaced = Some(Plan::new(lines, wrap, metric, true)).filter(Plan::wrapped);
            match (plain, spaced) {
                (Some(p), Some(s)) if s.unexplained < p.unexplained => Some(s),
                (Some(p), _) => Some(p),
                (None, s) => s,
            }
        });
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
            join_line(&mut current, prev, line, plan.space_units, words);
        }
    }
    out.push(current);
}

/// Whether the break after `line` looks like one made by wrapping at `wrap` columns.
fn wrap_like(line: &LineInfo, next: &LineInfo, wrap: usize, space_units: bool) -> bool {
    if line.ends_hyphen && next.first_char().is_some_and(char::is_lowercase) {
        return true;
    }
    // Allow for a space unless both sides are CJK (Chinese text often has a space next to Latin words
    // and ASCII punctuation).
    let both_cjk = line.last_char().is_some_and(is_cjk) && next.first_char().is_some_and(is_cjk);
    let sep = usize::from(!both_cjk);
    let unit = if space_units {
        next.first_spaced_unit_width()
    } else {
        next.first_unit_width()
    };
    let would_be = line.width + sep + unit;
    if line.ends_sentence {
        would_be > wrap
    } else {
        would_be * 100 > wrap * 85
    }
}

/// Append `line` to the paragraph being built from the previous line `prev`.
fn join_line(
    current: &mut String,
    prev: &LineInfo,
    line: &LineInfo,
    space_units: bool,
    words: &Words,
) {
    let both_cjk = prev.last_char().is_some_and(is_cjk) && line.first_char().is_some_and(is_cjk);
    if prev.ends_hyphen && line.first_char().is_some_and(char::is_lowercase) {
        // `exam-` + `ple` is `example` where the document spells it so; `non-` + `linux` keeps its
        // hyphen.
        if words.joins(current.strip_suffix('-').unwrap_or(current), line.content) {
            current.pop();
        }
    } else if (space_units && !both_cjk)
        || needs_space(prev.last_char(), line.first_char())
        || (cjk_meets_latin(prev.last_char(), line.first_char()) && words.spaces_cjk_latin())
    {
        current.push(' ');
    }
    current.push_str(line.content);
}

/// The word a line-end hyphen splits: the letters `head` ends with (before its hyphen) and those
/// `tail` starts with, joined (`exam` + `ple and` gives `example`).
pub(crate) fn rejoined(head: &str, tail: &str) -> String {
    let start = head
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphabetic())
        .last()
        .map_or(head.len(), |(i, _)| i);
    let mut word = head.get(start..).unwrap_or_default().to_string();
    word.extend(tail.chars().take_while(|c| c.is_alphabetic()));
    word
}

/// Whether a character is a list bullet (the PDF reader's too).
pub(crate) fn is_bullet(c: char) -> bool {
    "•·◦▪▫●○■□◆◇►▶※➢✓‣⁃❑❖".contains(c)
}

/// A CJK character on one side and a Latin letter or digit on the other.
fn cjk_meets_latin(before: Option<char>, after: Option<char>) -> bool {
    match (before, after) {
        (Some(b), Some(a)) => {
            (is_cjk(b) && a.is_ascii_alphanumeric()) || (b.is_ascii_alphanumeric() && is_cjk(a))
        }
        _ => false,
    }
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
    if is_bullet(first) {
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
mod tests;
