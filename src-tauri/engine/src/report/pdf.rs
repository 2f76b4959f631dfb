//! The PDF report: the blocks of [`super::page`] (the same content as the HTML report) laid out on A4
//! pages, with the font embedded so Chinese renders anywhere.
//!
//! The font is WenQuanYi Micro Hei (`assets/fonts/`, Apache-2.0; Chinese, Latin, punctuation), shipped
//! compressed in the binary. Only the glyphs a report uses are embedded (subset with `subsetter`), as a
//! CID-keyed TrueType font with a ToUnicode map, so the text can be searched and copied. Its curly
//! quotes are full-width: in English text they are set narrow (to their ink), in Chinese text left as
//! they are. Lines are broken between any two CJK characters and at spaces in Latin text.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::sync::OnceLock;

use lopdf::{dictionary, Document, Object, Stream};
use subsetter::GlyphRemapper;

use super::page::{self, Block, Mark, Run, Tone};
use super::{Lang, Report, SpanKind};
use crate::error::{Error, Result};

const FONT_GZ: &[u8] = include_bytes!("../../../../assets/fonts/wqy-microhei.ttc.gz");
/// The face of the collection used: WenQuanYi Micro Hei (1 is its monospaced face).
const FACE_INDEX: u32 = 0;
const FONT_NAME: &str = "WenQuanYiMicroHei";

const PAGE_W: f32 = 595.28;
const PAGE_H: f32 = 841.89;
const MARGIN: f32 = 54.0;
const CONTENT_W: f32 = PAGE_W - 2.0 * MARGIN;

type Rgb = (f32, f32, f32);
const BLACK: Rgb = (0.11, 0.11, 0.12);
const GREY: Rgb = (0.4, 0.4, 0.42);
const RED: Rgb = (0.79, 0.16, 0.16);
const RULE: Rgb = (0.85, 0.85, 0.87);

/// The font file, decompressed once.
fn font_data() -> Result<&'static [u8]> {
    static DATA: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    DATA.get_or_init(|| {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(FONT_GZ)
            .read_to_end(&mut out)
            .ok()
            .map(|_| out)
    })
    .as_deref()
    .ok_or(Error::Internal("the report font does not decompress"))
}

/// The fill colour of a mark (as in the HTML report's style).
fn mark_colour(mark: Mark) -> Rgb {
    match mark {
        Mark::Source | Mark::Kind(SpanKind::Copied) => (1.0, 0.79, 0.79),
        Mark::Light(SpanKind::Copied) => (1.0, 0.89, 0.89),
        Mark::Kind(SpanKind::Quoted) | Mark::Light(SpanKind::Quoted) => (0.79, 0.94, 0.83),
        Mark::Kind(SpanKind::Own) | Mark::Light(SpanKind::Own) => (0.84, 0.89, 1.0),
        Mark::Kind(SpanKind::Reference | SpanKind::Template)
        | Mark::Light(SpanKind::Reference | SpanKind::Template) => (0.89, 0.89, 0.9),
        // A quoted passage's citation: a deeper green than the passage it excuses.
        Mark::Citation => (0.6, 0.86, 0.67),
        // The pair colours of the HTML report and the app (`pair-c0` …).
        Mark::Pair(c) => match c % page::PAIR_COLOURS {
            0 => (0.81, 0.89, 1.0),
            1 => (1.0, 0.86, 0.69),
            2 => (0.78, 0.94, 0.8),
            3 => (0.9, 0.85, 1.0),
            4 => (0.78, 0.93, 0.94),
            _ => (1.0, 0.84, 0.9),
        },
    }
}

/// A character laid out: its glyph in the subset, its width in points, and its mark.
#[derive(Clone, Copy)]
struct Glyph {
    c: char,
    gid: u16,
    width: f32,
    mark: Option<Mark>,
    in_quotes: bool,
    /// Thousandths of an em the pen moves back before (`.0`) and after (`.1`) the glyph: a CJK
    /// font's full-width curly quote set narrow in English text (see [`Writer::latin_quotes`]).
    pull: (u16, u16),
}

/// Text of one style, ready to break into lines.
struct Style {
    size: f32,
    colour: Rgb,
}

/// The report being drawn: the font and its subset, the pages done and the one being drawn.
struct Writer {
    face: ttf_parser::Face<'static>,
    units: f32,
    remapper: GlyphRemapper,
    /// New glyph id -> (character, width in 1/1000 em).
    glyphs: BTreeMap<u16, (char, u16)>,
    pages: Vec<String>,
    page: String,
    /// The top of the free space on the page, from the bottom edge.
    y: f32,
}

impl Writer {
    fn new() -> Result<Writer> {
        let face = ttf_parser::Face::parse(font_data()?, FACE_INDEX)
            .map_err(|_| Error::Internal("the report font does not parse"))?;
        let units = f32::from(face.units_per_em());
        Ok(Writer {
            face,
            units,
            remapper: GlyphRemapper::new(),
            glyphs: BTreeMap::new(),
            pages: Vec::new(),
            page: String::new(),
            y: PAGE_H - MARGIN,
        })
    }

    /// The glyph of `c` at `size`, added to the subset. Characters the font lacks are drawn as its
    /// missing-glyph box; control characters and tabs as a space.
    fn glyph(&mut self, c: char, size: f32, mark: Option<Mark>, in_quotes: bool) -> Glyph {
        let c = if c.is_control() { ' ' } else { c };
        let old = self.face.glyph_index(c).map_or(0, |g| g.0);
        let advance = self
            .face
            .glyph_hor_advance(ttf_parser::GlyphId(old))
            .unwrap_or(0);
        let gid = self.remapper.remap(old);
        let thousandths = (f32::from(advance) * 1000.0 / self.units).round() as u16;
        self.glyphs.entry(gid).or_insert((c, thousandths));
        Glyph {
            c,
            gid,
            width: f32::from(advance) * size / self.units,
            mark,
            in_quotes,
            pull: (0, 0),
        }
    }

    /// The font is a CJK font: its curly quotes and apostrophes are full-width, which English text
    /// shows as "class’ s". A curly quote between non-CJK neighbours with a letter or digit beside it
    /// is set as wide as its ink plus a small margin on each side: the pen moves back before the glyph
    /// to the ink's left edge and after it from the ink's right edge. Chinese text keeps its
    /// full-width quotes.
    fn latin_quotes(&self, glyphs: &mut [Glyph], size: f32) {
        let near = |from: usize, step: isize| -> Option<char> {
            let mut i = from as isize + step;
            while i >= 0 && (i as usize) < glyphs.len() {
                let c = glyphs[i as usize].c;
                if !c.is_whitespace() {
                    return Some(c);
                }
                i += step;
            }
            None
        };
        // Thousandths of an em.
        let em = |units: f32| units * 1000.0 / self.units;
        let margin = 60.0;
        let mut narrowed = Vec::new();
        for (i, g) in glyphs.iter().enumerate() {
            if !"‘’“”".contains(g.c) {
                continue;
            }
            let (before, after) = (near(i, -1), near(i, 1));
            let latin = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() && !is_cjk(c));
            if before.is_some_and(is_cjk)
                || after.is_some_and(is_cjk)
                || !(latin(before) || latin(after))
            {
                continue;
            }
            let Some(id) = self.face.glyph_index(g.c) else {
                continue;
            };
            let (Some(ink), Some(full)) = (
                self.face.glyph_bounding_box(id),
                self.face.glyph_hor_advance(id),
            ) else {
                continue;
            };
            let full = em(f32::from(full));
            let pull_before = (em(f32::from(ink.x_min)) - margin).max(0.0).round();
            let pull_after = (full - em(f32::from(ink.x_max)) - margin).max(0.0).round();
            let narrow = full - pull_before - pull_after;
            if narrow > 0.0 && narrow < full {
                narrowed.push((i, (pull_before as u16, pull_after as u16), narrow));
            }
        }
        for (i, pull, narrow) in narrowed {
            glyphs[i].pull = pull;
            glyphs[i].width = narrow * size / 1000.0;
        }
    }

    fn glyphs_of(&mut self, runs: &[Run], size: f32) -> Vec<Glyph> {
        let mut out = Vec::new();
        for r in runs {
            for c in self.shown(&r.text).chars() {
                out.push(self.glyph(c, size, r.mark, r.in_quotes));
            }
        }
        self.latin_quotes(&mut out, size);
        out
    }

    fn plain(&mut self, text: &str, size: f32) -> Vec<Glyph> {
        let mut out: Vec<Glyph> = self
            .shown(text)
            .chars()
            .map(|c| self.glyph(c, size, None, false))
            .collect();
        self.latin_quotes(&mut out, size);
        out
    }

    /// `text` as the font can draw it: each run of characters it has no glyph for (Arabic, Hebrew,
    /// Devanagari, Thai, Tibetan, emoji, CJK Extension B…) becomes a note of how many characters are
    /// not shown, instead of a row of empty boxes that look like text. The HTML and JSON reports hold
    /// the text itself.
    fn shown<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        let missing = |c: char| !c.is_control() && c != ' ' && self.face.glyph_index(c).is_none();
        if !text.chars().any(missing) {
            return std::borrow::Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut run = 0usize;
        let flush = |out: &mut String, run: &mut usize| {
            if *run > 0 {
                let _ = write!(
                    out,
                    "[{run} {} not shown]",
                    if *run == 1 { "character" } else { "characters" }
                );
                *run = 0;
            }
        };
        for c in text.chars() {
            if missing(c) {
                run += 1;
            } else {
                flush(&mut out, &mut run);
                out.push(c);
            }
        }
        flush(&mut out, &mut run);
        std::borrow::Cow::Owned(out)
    }

    fn new_page(&mut self) {
        if !self.page.is_empty() {
            self.pages.push(std::mem::take(&mut self.page));
        }
        self.y = PAGE_H - MARGIN;
    }

    /// Make room for `height` points, on a new page if this one has not enough.
    fn room(&mut self, height: f32) {
        if self.y - height < MARGIN && self.y < PAGE_H - MARGIN - 1.0 {
            self.new_page();
        }
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Rgb) {
        let _ = writeln!(
            self.page,
            "{:.3} {:.3} {:.3} rg {x:.2} {y:.2} {w:.2} {h:.2} re f",
            fill.0, fill.1, fill.2
        );
    }

    fn line(&mut self, from: (f32, f32), to: (f32, f32), colour: Rgb, width: f32, dotted: bool) {
        let _ = writeln!(
            self.page,
            "q {:.3} {:.3} {:.3} RG {width:.2} w {} {:.2} {:.2} m {:.2} {:.2} l S Q",
            colour.0,
            colour.1,
            colour.2,
            if dotted { "[1 1.5] 0 d" } else { "[] 0 d" },
            from.0,
            from.1,
            to.0,
            to.1
        );
    }

    /// Draw one line of glyphs with its baseline at `base`: marks behind, then the text.
    fn draw(&mut self, glyphs: &[Glyph], x: f32, base: f32, style: &Style) {
        let mut at = x;
        let mut i = 0;
        while i < glyphs.len() {
            let mut j = i;
            let mut w = 0.0;
            while j < glyphs.len()
                && (glyphs[j].mark, glyphs[j].in_quotes) == (glyphs[i].mark, glyphs[i].in_quotes)
            {
                w += glyphs[j].width;
                j += 1;
            }
            if let Some(m) = glyphs[i].mark {
                self.rect(
                    at,
                    base - 0.28 * style.size,
                    w,
                    1.3 * style.size,
                    mark_colour(m),
                );
                if glyphs[i].in_quotes {
                    let y = base - 0.2 * style.size;
                    self.line((at, y), (at + w, y), BLACK, 0.6, true);
                }
            }
            at += w;
            i = j;
        }
        // The glyphs as a TJ array: runs of glyph ids, with the pulls of narrowed quotes between them.
        let mut shown = String::with_capacity(glyphs.len() * 4 + 4);
        let mut open = false;
        let pull_back = |shown: &mut String, open: &mut bool, n: u16| {
            if n > 0 {
                if *open {
                    shown.push('>');
                    *open = false;
                }
                let _ = write!(shown, " {n} ");
            }
        };
        for g in glyphs {
            pull_back(&mut shown, &mut open, g.pull.0);
            if !open {
                shown.push('<');
                open = true;
            }
            let _ = write!(shown, "{:04X}", g.gid);
            pull_back(&mut shown, &mut open, g.pull.1);
        }
        if open {
            shown.push('>');
        }
        let (r, g, b) = style.colour;
        let _ = writeln!(
            self.page,
            "BT {r:.3} {g:.3} {b:.3} rg /F1 {:.2} Tf {x:.2} {base:.2} Td [{shown}] TJ ET",
            style.size
        );
    }

    /// Lay `glyphs` out in lines of at most `width` points from `x`, breaking pages as needed.
    fn paragraph(&mut self, glyphs: &[Glyph], x: f32, width: f32, style: &Style) {
        let leading = style.size * 1.55;
        for line in break_lines(glyphs, width) {
            self.room(leading);
            let base = self.y - style.size * 1.1;
            self.draw(line, x, base, style);
            self.y -= leading;
        }
    }

    fn text(&mut self, text: &str, x: f32, width: f32, style: &Style) {
        let glyphs = self.plain(text, style.size);
        self.paragraph(&glyphs, x, width, style);
    }

    /// One line of text, cut with an ellipsis to `width`.
    fn text_cut(&mut self, text: &str, width: f32, size: f32) -> Vec<Glyph> {
        let mut glyphs = self.plain(text, size);
        let total: f32 = glyphs.iter().map(|g| g.width).sum();
        if total > width {
            let dots = self.glyph('…', size, None, false);
            let mut w = dots.width;
            let keep = glyphs
                .iter()
                .take_while(|g| {
                    w += g.width;
                    w <= width
                })
                .count();
            glyphs.truncate(keep);
            glyphs.push(dots);
        }
        glyphs
    }

    fn block(&mut self, block: &Block, first_section: &mut bool) {
        let body = Style {
            size: 10.0,
            colour: BLACK,
        };
        let small = Style {
            size: 8.0,
            colour: GREY,
        };
        match block {
            Block::Title(t) => {
                self.text(
                    t,
                    MARGIN,
                    CONTENT_W,
                    &Style {
                        size: 16.0,
                        colour: BLACK,
                    },
                );
            }
            Block::Meta(t) => self.text(t, MARGIN, CONTENT_W, &small),
            Block::Section(t) => {
                if !*first_section {
                    self.new_page();
                } else {
                    self.y -= 10.0;
                }
                *first_section = false;
                self.room(40.0);
                self.text(
                    t,
                    MARGIN,
                    CONTENT_W,
                    &Style {
                        size: 13.0,
                        colour: BLACK,
                    },
                );
                self.line(
                    (MARGIN, self.y + 2.0),
                    (PAGE_W - MARGIN, self.y + 2.0),
                    RULE,
                    0.8,
                    false,
                );
                self.y -= 6.0;
            }
            Block::Error(t) => self.text(
                t,
                MARGIN,
                CONTENT_W,
                &Style {
                    size: 10.0,
                    colour: RED,
                },
            ),
            Block::Headline { ratio, label } => {
                self.room(34.0);
                let big = self.plain(ratio, 24.0);
                let width: f32 = big.iter().map(|g| g.width).sum();
                let base = self.y - 26.0;
                self.draw(
                    &big,
                    MARGIN,
                    base,
                    &Style {
                        size: 24.0,
                        colour: RED,
                    },
                );
                let words = self.plain(label, 11.0);
                self.draw(&words, MARGIN + width + 8.0, base, &body);
                self.y -= 36.0;
            }
            Block::Figures(rows) => {
                for (label, value) in rows {
                    self.room(15.0);
                    let base = self.y - 11.0;
                    let l = self.text_cut(label, 230.0, 9.5);
                    self.draw(&l, MARGIN, base, &body);
                    let v = self.plain(value, 9.5);
                    self.draw(&v, MARGIN + 240.0, base, &body);
                    self.y -= 15.0;
                }
                self.y -= 4.0;
            }
            Block::Legend(items) => {
                let mut x = MARGIN;
                self.room(16.0);
                for (kind, label) in items {
                    let words = self.plain(label, 8.5);
                    let w: f32 = words.iter().map(|g| g.width).sum::<f32>() + 18.0;
                    if x + w > PAGE_W - MARGIN {
                        x = MARGIN;
                        self.y -= 14.0;
                        self.room(16.0);
                    }
                    let base = self.y - 10.0;
                    self.rect(x, base - 1.5, 10.0, 8.5, mark_colour(Mark::Kind(*kind)));
                    self.draw(&words, x + 13.0, base, &small);
                    x += w + 6.0;
                }
                self.y -= 20.0;
            }
            Block::Bars { caption, rows } => {
                self.room(30.0);
                self.text(caption, MARGIN, CONTENT_W, &body);
                for (label, fraction, value) in rows {
                    self.room(14.0);
                    let base = self.y - 10.0;
                    let l = self.text_cut(label, 200.0, 8.5);
                    self.draw(&l, MARGIN, base, &body);
                    let (bx, bw) = (MARGIN + 210.0, 150.0);
                    self.rect(bx, base - 1.0, bw, 8.0, (0.93, 0.93, 0.94));
                    self.rect(
                        bx,
                        base - 1.0,
                        bw * fraction.clamp(0.0, 1.0) as f32,
                        8.0,
                        RED,
                    );
                    let v = self.plain(value, 8.5);
                    self.draw(&v, bx + bw + 8.0, base, &small);
                    self.y -= 14.0;
                }
                self.y -= 6.0;
            }
            Block::Table { header, rows } => {
                let widths = column_widths(header.len());
                self.table_row(
                    &header
                        .iter()
                        .map(|h| (h.as_str(), None))
                        .collect::<Vec<_>>(),
                    &widths,
                    true,
                );
                for row in rows {
                    let cells: Vec<(&str, Option<&str>)> = row
                        .iter()
                        .map(|c| (c.text.as_str(), c.sub.as_deref()))
                        .collect();
                    self.table_row(&cells, &widths, false);
                }
                self.y -= 8.0;
            }
            Block::Para {
                label,
                runs,
                tone,
                note,
            } => {
                self.y -= 4.0;
                let top = self.y;
                let page = self.pages.len();
                let l = self.plain(label, 7.5);
                self.room(16.0);
                let (lx, lbase) = (MARGIN + 6.0, self.y - 10.5);
                self.draw(&l, lx, lbase, &small);
                let glyphs = self.glyphs_of(runs, body.size);
                self.paragraph(&glyphs, MARGIN + 30.0, CONTENT_W - 30.0, &body);
                if let Some(n) = note {
                    self.text(n, MARGIN + 30.0, CONTENT_W - 30.0, &small);
                }
                let bar = match tone {
                    Tone::Plain => RULE,
                    Tone::Flagged => RED,
                    Tone::Passage => (0.96, 0.62, 0.62),
                };
                // The bar beside the paragraph (on its last page when it was cut).
                let from = if self.pages.len() == page {
                    top
                } else {
                    PAGE_H - MARGIN
                };
                self.rect(MARGIN, self.y + 2.0, 2.5, from - self.y - 2.0, bar);
            }
            Block::Pair { heads, texts } => {
                let col = (CONTENT_W - 40.0) / 2.0;
                let (lx, rx) = (MARGIN + 30.0, MARGIN + 40.0 + col);
                self.room(30.0);
                let h0 = self.text_cut(&heads[0], col, 8.0);
                let h1 = self.text_cut(&heads[1], col, 8.0);
                let base = self.y - 9.0;
                self.draw(&h0, lx, base, &small);
                self.draw(&h1, rx, base, &small);
                self.y -= 13.0;
                let style = Style {
                    size: 9.0,
                    colour: BLACK,
                };
                let left = self.glyphs_of(&texts[0], style.size);
                let right = self.glyphs_of(&texts[1], style.size);
                let (a, b) = (break_lines(&left, col), break_lines(&right, col));
                let leading = style.size * 1.55;
                for i in 0..a.len().max(b.len()) {
                    self.room(leading);
                    let base = self.y - style.size * 1.1;
                    if let Some(line) = a.get(i) {
                        self.draw(line, lx, base, &style);
                    }
                    if let Some(line) = b.get(i) {
                        self.draw(line, rx, base, &style);
                    }
                    self.y -= leading;
                }
                self.y -= 4.0;
            }
        }
    }

    /// A table row: each cell's text wrapped to its column, a second smaller line under it.
    fn table_row(&mut self, cells: &[(&str, Option<&str>)], widths: &[f32], header: bool) {
        let size = if header { 8.5 } else { 9.0 };
        let mut columns: Vec<(Vec<Vec<Glyph>>, Vec<Glyph>)> = Vec::new();
        for (i, (text, sub)) in cells.iter().enumerate() {
            let w = widths.get(i).copied().unwrap_or(60.0) - 8.0;
            let glyphs = self.plain(text, size);
            let lines = break_lines(&glyphs, w)
                .into_iter()
                .map(<[Glyph]>::to_vec)
                .collect();
            let sub = match sub {
                Some(s) => self.text_cut(s, w, 7.5),
                None => Vec::new(),
            };
            columns.push((lines, sub));
        }
        let lines = columns
            .iter()
            .map(|(l, s)| l.len() as f32 * size * 1.4 + if s.is_empty() { 0.0 } else { 10.0 })
            .fold(0.0, f32::max);
        let height = lines + 6.0;
        self.room(height);
        if header {
            self.rect(
                MARGIN,
                self.y - height,
                CONTENT_W,
                height,
                (0.96, 0.96, 0.97),
            );
        }
        let mut x = MARGIN;
        let style = Style {
            size,
            colour: BLACK,
        };
        let small = Style {
            size: 7.5,
            colour: GREY,
        };
        for (i, (lines, sub)) in columns.iter().enumerate() {
            let mut base = self.y - 3.0 - size;
            for line in lines {
                self.draw(line, x + 4.0, base, &style);
                base -= size * 1.4;
            }
            if !sub.is_empty() {
                self.draw(sub, x + 4.0, base + 1.0, &small);
            }
            x += widths.get(i).copied().unwrap_or(60.0);
        }
        self.y -= height;
        self.line(
            (MARGIN, self.y),
            (PAGE_W - MARGIN, self.y),
            RULE,
            0.5,
            false,
        );
    }

    /// Page numbers, the subset font, and the file.
    fn finish(mut self, lang: Lang) -> Result<Vec<u8>> {
        self.new_page();
        let pages = std::mem::take(&mut self.pages);
        let count = pages.len();
        let mut contents = Vec::with_capacity(count);
        for (i, mut page) in pages.into_iter().enumerate() {
            let label = format!(
                "Tongwen · {} {} / {}",
                lang.pick("page", "第"),
                i + 1,
                count
            );
            let glyphs = self.plain(&label, 7.5);
            std::mem::swap(&mut self.page, &mut page);
            self.draw(
                &glyphs,
                MARGIN,
                MARGIN - 24.0,
                &Style {
                    size: 7.5,
                    colour: GREY,
                },
            );
            std::mem::swap(&mut self.page, &mut page);
            contents.push(page);
        }
        let font = subsetter::subset(font_data()?, FACE_INDEX, &self.remapper)
            .map_err(|_| Error::Internal("the report font cannot be subset"))?;
        Ok(write_document(
            &self.face,
            self.units,
            &self.glyphs,
            &font,
            &contents,
        ))
    }
}

/// Column widths of a table: the first column takes what the others leave.
fn column_widths(columns: usize) -> Vec<f32> {
    let rest = 70.0;
    let first = CONTENT_W - rest * columns.saturating_sub(1) as f32;
    std::iter::once(first)
        .chain(std::iter::repeat_n(rest, columns.saturating_sub(1)))
        .collect()
}

/// Whether a line may break before `c` or after it: CJK characters (except closing punctuation
/// before, opening punctuation after) and spaces.
fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x2E80..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x20000..=0x3FFFF)
}

fn no_break_before(c: char) -> bool {
    "，。、；：！？）》」』】〕”’,.;:!?)]}%".contains(c)
}

/// Greedy line breaking: at spaces and around CJK characters, anywhere when a word is wider than the
/// line. Explicit line breaks are kept.
fn break_lines(glyphs: &[Glyph], width: f32) -> Vec<&[Glyph]> {
    let mut lines = Vec::new();
    let mut start = 0;
    while start < glyphs.len() {
        let mut w = 0.0;
        let mut end = start;
        let mut last_break: Option<usize> = None;
        while end < glyphs.len() {
            let g = glyphs[end];
            if g.c == '\n' {
                break;
            }
            if end > start {
                let prev = glyphs[end - 1].c;
                if (prev == ' ' || is_cjk(prev) || is_cjk(g.c)) && !no_break_before(g.c) {
                    last_break = Some(end);
                }
            }
            if w + g.width > width && end > start {
                break;
            }
            w += g.width;
            end += 1;
        }
        let cut = if end < glyphs.len() && glyphs[end].c != '\n' {
            last_break.filter(|&b| b > start).unwrap_or(end)
        } else {
            end
        };
        let line = &glyphs[start..cut];
        let trimmed = line.len() - line.iter().rev().take_while(|g| g.c == ' ').count();
        lines.push(&line[..trimmed]);
        start = cut;
        while start < glyphs.len() && (glyphs[start].c == ' ' || glyphs[start].c == '\n') {
            let newline = glyphs[start].c == '\n';
            start += 1;
            if newline {
                break;
            }
        }
    }
    lines
}

/// The PDF objects: pages with their content streams, and the Type0 font over the subset.
fn write_document(
    face: &ttf_parser::Face<'_>,
    units: f32,
    glyphs: &BTreeMap<u16, (char, u16)>,
    font: &[u8],
    contents: &[String],
) -> Vec<u8> {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let scale = |v: i16| (f32::from(v) * 1000.0 / units).round() as i64;
    let mut file = Stream::new(
        dictionary! { "Length1" => font.len() as i64 },
        font.to_vec(),
    );
    let _ = file.compress();
    let file_id = doc.add_object(file);
    let bbox = face.global_bounding_box();
    let base = format!("TWREPT+{FONT_NAME}");
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor",
        "FontName" => Object::Name(base.clone().into_bytes()),
        "Flags" => 4,
        "FontBBox" => vec![scale(bbox.x_min).into(), scale(bbox.y_min).into(), scale(bbox.x_max).into(), scale(bbox.y_max).into()],
        "ItalicAngle" => 0,
        "Ascent" => scale(face.ascender()),
        "Descent" => scale(face.descender()),
        "CapHeight" => scale(face.capital_height().unwrap_or(face.ascender())),
        "StemV" => 80,
        "FontFile2" => file_id,
    });
    let mut widths: Vec<Object> = Vec::new();
    for (&gid, &(_, w)) in glyphs {
        widths.push(i64::from(gid).into());
        widths.push(vec![Object::from(i64::from(w))].into());
    }
    let cid_font = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "CIDFontType2",
        "BaseFont" => Object::Name(base.clone().into_bytes()),
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal("Identity"),
            "Supplement" => 0,
        },
        "FontDescriptor" => descriptor,
        "DW" => 1000,
        "W" => widths,
        "CIDToGIDMap" => "Identity",
    });
    let mut to_unicode = Stream::new(dictionary! {}, to_unicode_cmap(glyphs).into_bytes());
    let _ = to_unicode.compress();
    let to_unicode = doc.add_object(to_unicode);
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type0",
        "BaseFont" => Object::Name(base.into_bytes()),
        "Encoding" => "Identity-H",
        "DescendantFonts" => vec![cid_font.into()],
        "ToUnicode" => to_unicode,
    });
    let resources = doc.add_object(dictionary! {
        "Font" => dictionary! { "F1" => font_id },
    });
    let mut kids: Vec<Object> = Vec::with_capacity(contents.len());
    for content in contents {
        let mut stream = Stream::new(dictionary! {}, content.clone().into_bytes());
        let _ = stream.compress();
        let content_id = doc.add_object(stream);
        let page = doc.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "Contents" => content_id,
        });
        kids.push(page.into());
    }
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => kids,
            "Count" => count,
            "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), PAGE_W.into(), PAGE_H.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! {
        "Type" => "Catalog",
        "Pages" => pages_id,
    });
    doc.trailer.set("Root", catalog);
    let info = doc.add_object(dictionary! {
        "Producer" => Object::string_literal(format!("Tongwen {}", crate::VERSION)),
        "Title" => Object::string_literal("Tongwen similarity report"),
    });
    doc.trailer.set("Info", info);
    let mut out = Vec::new();
    // Writing to memory cannot fail.
    let _ = doc.save_to(&mut out);
    out
}

/// The ToUnicode CMap: each glyph of the subset to the character it was drawn for.
fn to_unicode_cmap(glyphs: &BTreeMap<u16, (char, u16)>) -> String {
    let mut out = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
         /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    let entries: Vec<(u16, char)> = glyphs
        .iter()
        .filter(|(&gid, _)| gid != 0)
        .map(|(&gid, &(c, _))| (gid, c))
        .collect();
    for chunk in entries.chunks(100) {
        let _ = writeln!(out, "{} beginbfchar", chunk.len());
        for &(gid, c) in chunk {
            let mut units = [0u16; 2];
            let hex: String = c
                .encode_utf16(&mut units)
                .iter()
                .map(|u| format!("{u:04X}"))
                .collect();
            let _ = writeln!(out, "<{gid:04X}> <{hex}>");
        }
        out.push_str("endbfchar\n");
    }
    out.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    out
}

/// Render the report as a PDF in `lang`: the same blocks as the HTML report.
pub(crate) fn render(report: &Report, lang: Lang) -> Result<Vec<u8>> {
    let mut w = Writer::new()?;
    let mut first = true;
    for block in page::build(report, lang) {
        w.block(&block, &mut first);
    }
    w.finish(lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curly_quotes_in_english_are_set_narrow_and_chinese_keeps_full_width_ones() {
        let mut w = Writer::new().unwrap();
        let pulls = |w: &mut Writer, text: &str| -> Vec<(char, (u16, u16))> {
            w.plain(text, 10.0)
                .iter()
                .filter(|g| "‘’“”".contains(g.c))
                .map(|g| (g.c, g.pull))
                .collect()
        };
        let en = pulls(&mut w, "The class’s “template”, ‘single’.");
        assert_eq!(en.len(), 5);
        for (c, (before, after)) in &en {
            // A closing quote's ink is on the left of its full-width box, an opening one's on the right.
            let closing = *c == '’' || *c == '”';
            assert!(
                if closing {
                    after > before
                } else {
                    before > after
                },
                "{c}: {before} {after}"
            );
        }
        // Narrow: well under the full-width em of the font's quotes.
        let apostrophe = w.plain("s’s", 10.0);
        assert!(apostrophe[1].width < 4.0, "{}", apostrophe[1].width);
        assert!(pulls(&mut w, "学生引用了“模板”中的‘句子’。")
            .iter()
            .all(|(_, p)| *p == (0, 0)));
    }

    #[test]
    fn text_the_font_cannot_draw_is_said_not_drawn_as_boxes() {
        let w = Writer::new().unwrap();
        assert_eq!(w.shown("同文 Tongwen"), "同文 Tongwen");
        assert_eq!(
            w.shown("引文：مرحبا بالعالم 😀 完"),
            "引文：[5 characters not shown] [7 characters not shown] [1 character not shown] 完"
        );
        // Every character of the note is one the font has.
        let note = w.shown("שלום 𠀀 ไทย");
        assert!(
            note.chars()
                .all(|c| c == ' ' || w.face.glyph_index(c).is_some()),
            "{note}"
        );
        assert_eq!(
            note,
            "[4 characters not shown] [1 character not shown] [3 characters not shown]"
        );
    }

    #[test]
    fn lines_break_between_chinese_characters_and_at_spaces() {
        let mut w = Writer::new().unwrap();
        let zh = w.plain("维护者应当定期检查错误报告，并及时回复。", 10.0);
        let one: f32 = zh[0].width;
        let lines = break_lines(&zh, one * 6.5);
        assert!(lines.iter().all(|l| l.len() <= 6), "{}", lines.len());
        let joined: String = lines.iter().flat_map(|l| l.iter().map(|g| g.c)).collect();
        assert_eq!(joined, "维护者应当定期检查错误报告，并及时回复。");
        assert!(
            lines.iter().skip(1).all(|l| !no_break_before(l[0].c)),
            "no line starts with closing punctuation"
        );
        let en = w.plain("check the bug tracking system", 10.0);
        let lines = break_lines(&en, 60.0);
        let words: Vec<String> = lines
            .iter()
            .map(|l| l.iter().map(|g| g.c).collect())
            .collect();
        assert!(words
            .iter()
            .all(|l| !l.starts_with(' ') && !l.ends_with(' ')));
        assert_eq!(words.join(" "), "check the bug tracking system");
    }
}
