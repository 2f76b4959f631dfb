//! Content streams: runs a page's drawing operators far enough to know where every glyph of text lands.
//!
//! The interpreter tracks the graphics state (`q`/`Q`, `cm`), the text state (`Tc`, `Tw`, `Tz`, `TL`,
//! `Tf`, `Ts`) and the text matrices (`BT`, `Tm`, `Td`, `TD`, `T*`), shows strings (`Tj`, `TJ`, `'`, `"`)
//! through their fonts, and descends into form XObjects (`Do`). Each glyph comes out with its text, its
//! baseline position and extent in upright page coordinates (the page's `/Rotate` applied, origin at
//! the lower left), and its font size. Glyphs that are not written left to right (rotated text), or that
//! fall outside the page, are counted but not placed. Work is bounded: form nesting depth, the number of
//! operators and glyphs, and the decoded size of content streams.

use std::collections::HashMap;
use std::rc::Rc;

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId};

use super::font::{number, Font};
use super::structure::PageStructure;

/// Forms nested deeper than this are not drawn.
const MAX_FORM_DEPTH: usize = 12;
/// Graphics states saved (`q`) beyond this depth are dropped.
const MAX_STATE_STACK: usize = 1024;
/// A content stream (page or form) larger than this once decoded is refused.
pub(super) const MAX_STREAM_BYTES: usize = 64 * 1024 * 1024;

/// Work allowed for a whole document.
#[derive(Debug, Clone)]
pub(super) struct Budget {
    pub operators: u64,
    pub glyphs: u64,
    pub stream_bytes: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            operators: 100_000_000,
            glyphs: 50_000_000,
            stream_bytes: 1024 * 1024 * 1024,
        }
    }
}

/// Why reading a page stopped.
#[derive(Debug)]
pub(super) enum PageError {
    /// A limit of [`Budget`] or a stream-size limit was reached.
    TooLarge,
}

/// Counts over the whole document, used to tell image-only and undecodable documents.
#[derive(Debug, Default, Clone)]
pub(super) struct Stats {
    /// Text-showing operators with at least one code.
    pub show_ops: usize,
    /// Non-space characters decoded.
    pub chars: usize,
    /// Of those, characters that are not real text (unmapped codes, private use, controls).
    pub bad_chars: usize,
    /// Content streams a page names but the file does not hold.
    pub missing_streams: usize,
    /// Content streams that could not be decoded or stop at a syntax error.
    pub broken_streams: usize,
    /// The first font that drew a glyph whose text cannot be known (see `Font::unreadable`).
    pub unreadable_font: Option<String>,
}

/// One glyph placed on a page.
#[derive(Debug, Clone)]
pub(super) struct Glyph {
    /// The glyph's text is `PageText::text[start..end]`.
    pub start: u32,
    pub end: u32,
    /// Left and right edge of the glyph's advance.
    pub x0: f64,
    pub x1: f64,
    /// Baseline.
    pub y: f64,
    /// Font size in page units.
    pub size: f64,
    /// Width of a space in this font, in page units.
    pub space: f64,
    /// The tagged structure's paragraph-level element the glyph is drawn in (its object number; 0
    /// where the page is untagged or the element unknown).
    pub element: u32,
}

/// The text of one page.
#[derive(Debug, Default, Clone)]
pub(super) struct PageText {
    pub text: String,
    pub glyphs: Vec<Glyph>,
    pub width: f64,
    pub height: f64,
    /// Non-space characters shown (placed or not).
    pub chars: usize,
    /// Images painted (image XObjects and inline images).
    pub images: usize,
    /// Painted paths (each subpath's box, at most [`MAX_SHAPES`] a page): table rules and bullets drawn
    /// as shapes.
    pub shapes: Vec<Shape>,
}

/// Shapes kept per page beyond this are not recorded (a drawing, not a table's rules).
pub(super) const MAX_SHAPES: usize = 4096;

/// The box of one painted subpath, in upright page coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Shape {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    /// Filled (`f`, `B` …) rather than only stroked.
    pub filled: bool,
}

impl Shape {
    fn at(x: f64, y: f64) -> Shape {
        Shape {
            x0: x,
            y0: y,
            x1: x,
            y1: y,
            filled: false,
        }
    }

    fn extend(&mut self, (x, y): (f64, f64)) {
        self.x0 = self.x0.min(x);
        self.x1 = self.x1.max(x);
        self.y0 = self.y0.min(y);
        self.y1 = self.y1.max(y);
    }

    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }
}

impl PageText {
    pub fn glyph_text(&self, glyph: &Glyph) -> &str {
        self.text
            .get(glyph.start as usize..glyph.end as usize)
            .unwrap_or_default()
    }
}

/// Fonts already read, by object id.
#[derive(Default)]
pub(super) struct FontCache {
    by_id: HashMap<ObjectId, Rc<Font>>,
    missing: Option<Rc<Font>>,
}

impl FontCache {
    fn missing(&mut self) -> Rc<Font> {
        self.missing
            .get_or_insert_with(|| Rc::new(Font::missing()))
            .clone()
    }
}

/// Read the glyphs of one page.
pub(super) fn read_page(
    doc: &Document,
    page_id: ObjectId,
    fonts: &mut FontCache,
    stats: &mut Stats,
    budget: &mut Budget,
) -> Result<PageText, PageError> {
    let page = doc.get_dictionary(page_id).ok();
    let view = View::of_page(doc, page);
    let mut out = PageText {
        width: view.width(),
        height: view.height(),
        ..PageText::default()
    };
    for id in doc.get_page_contents(page_id) {
        if doc.get_object(id).and_then(Object::as_stream).is_err() {
            stats.missing_streams += 1;
        }
    }
    let limit = MAX_STREAM_BYTES.min(budget.stream_bytes);
    let content = match doc.get_page_content_with_limit(page_id, limit) {
        Ok(content) => content,
        Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded { .. })) => {
            return Err(PageError::TooLarge)
        }
        Err(_) => {
            stats.broken_streams += 1;
            Vec::new()
        }
    };
    budget.stream_bytes = budget.stream_bytes.saturating_sub(content.len());
    let resources = page_resources(doc, page_id);
    let mut interp = Interp {
        doc,
        fonts,
        stats,
        budget,
        out: &mut out,
        view,
        forms: Vec::new(),
        marked: Vec::new(),
        structure: PageStructure::of_page(doc, page),
    };
    interp.run(&content, &resources, GState::default(), 0)?;
    Ok(out)
}

/// The resource dictionaries of a page, nearest first.
fn page_resources(doc: &Document, page_id: ObjectId) -> Vec<&Dictionary> {
    let Ok((direct, ids)) = doc.get_page_resources(page_id) else {
        return Vec::new();
    };
    direct
        .into_iter()
        .chain(ids.into_iter().filter_map(|id| doc.get_dictionary(id).ok()))
        .collect()
}

/// An affine matrix `[a b c d e f]`, applied to row vectors as PDF does.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Matrix {
    a: f64,
    b: f64,
    c: f64,
    d: f64,
    e: f64,
    f: f64,
}

impl Matrix {
    const IDENTITY: Matrix = Matrix {
        a: 1.0,
        b: 0.0,
        c: 0.0,
        d: 1.0,
        e: 0.0,
        f: 0.0,
    };

    fn from_operands(doc: &Document, operands: &[Object]) -> Option<Matrix> {
        let mut v = [0.0; 6];
        for (slot, operand) in v.iter_mut().zip(operands) {
            *slot = number(doc, Some(operand))?;
        }
        if operands.len() < 6 {
            return None;
        }
        let [a, b, c, d, e, f] = v;
        Some(Matrix { a, b, c, d, e, f })
    }

    /// `self × other`: first `self`, then `other`.
    fn then(&self, o: &Matrix) -> Matrix {
        Matrix {
            a: self.a * o.a + self.b * o.c,
            b: self.a * o.b + self.b * o.d,
            c: self.c * o.a + self.d * o.c,
            d: self.c * o.b + self.d * o.d,
            e: self.e * o.a + self.f * o.c + o.e,
            f: self.e * o.b + self.f * o.d + o.f,
        }
    }

    /// Translate by `(tx, ty)` in this matrix's own space (`T(tx, ty) × self`).
    fn pre_translate(&self, tx: f64, ty: f64) -> Matrix {
        Matrix {
            e: tx * self.a + ty * self.c + self.e,
            f: tx * self.b + ty * self.d + self.f,
            ..*self
        }
    }

    fn point(&self, x: f64, y: f64) -> (f64, f64) {
        (
            x * self.a + y * self.c + self.e,
            x * self.b + y * self.d + self.f,
        )
    }

    fn vector(&self, x: f64, y: f64) -> (f64, f64) {
        (x * self.a + y * self.c, x * self.b + y * self.d)
    }

    fn is_finite(&self) -> bool {
        [self.a, self.b, self.c, self.d, self.e, self.f]
            .iter()
            .all(|v| v.is_finite())
    }
}

/// Maps default user space to upright page coordinates: the page's `/Rotate` applied and the visible
/// box's lower left corner at the origin.
#[derive(Debug, Clone, Copy)]
struct View {
    rotate: i64,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl View {
    fn of_page(doc: &Document, page: Option<&Dictionary>) -> View {
        let rect = inherited(doc, page, b"CropBox")
            .and_then(|o| rectangle(doc, o))
            .or_else(|| inherited(doc, page, b"MediaBox").and_then(|o| rectangle(doc, o)))
            .unwrap_or([0.0, 0.0, 612.0, 792.0]);
        let rotate = inherited(doc, page, b"Rotate")
            .and_then(|o| number(doc, Some(o)))
            .map_or(0, |r| ((r as i64 % 360) + 360) % 360);
        let [x0, y0, x1, y1] = rect;
        View {
            rotate: (rotate / 90) * 90,
            x0,
            y0,
            x1,
            y1,
        }
    }

    fn quarter_turn(&self) -> bool {
        self.rotate == 90 || self.rotate == 270
    }

    fn width(&self) -> f64 {
        if self.quarter_turn() {
            self.y1 - self.y0
        } else {
            self.x1 - self.x0
        }
    }

    fn height(&self) -> f64 {
        if self.quarter_turn() {
            self.x1 - self.x0
        } else {
            self.y1 - self.y0
        }
    }

    fn point(&self, x: f64, y: f64) -> (f64, f64) {
        match self.rotate {
            90 => (y - self.y0, self.x1 - x),
            180 => (self.x1 - x, self.y1 - y),
            270 => (self.y1 - y, x - self.x0),
            _ => (x - self.x0, y - self.y0),
        }
    }

    fn vector(&self, x: f64, y: f64) -> (f64, f64) {
        match self.rotate {
            90 => (y, -x),
            180 => (-x, -y),
            270 => (-y, x),
            _ => (x, y),
        }
    }
}

/// A page attribute, looked up through the page tree (`/Parent`) when the page does not have it.
fn inherited<'a>(
    doc: &'a Document,
    page: Option<&'a Dictionary>,
    key: &[u8],
) -> Option<&'a Object> {
    let mut node = page?;
    for _ in 0..64 {
        if let Ok(value) = node.get(key) {
            return doc.dereference(value).ok().map(|(_, o)| o);
        }
        node = node
            .get(b"Parent")
            .ok()
            .and_then(|p| doc.dereference(p).ok())
            .and_then(|(_, o)| o.as_dict().ok())?;
    }
    None
}

/// A rectangle `[llx lly urx ury]`, normalised so that the first corner is the lower left one.
fn rectangle(doc: &Document, object: &Object) -> Option<[f64; 4]> {
    let array = object.as_array().ok()?;
    let mut v = [0.0; 4];
    if array.len() < v.len() {
        return None;
    }
    for (slot, item) in v.iter_mut().zip(array) {
        *slot = number(doc, Some(item))?;
    }
    let [ax, ay, bx, by] = v;
    let (x0, y0, x1, y1) = (ax.min(bx), ay.min(by), ax.max(bx), ay.max(by));
    (x1 - x0 > 1.0 && y1 - y0 > 1.0).then_some([x0, y0, x1, y1])
}

/// The graphics state parts text extraction needs (the text state is part of it).
#[derive(Clone)]
struct GState {
    ctm: Matrix,
    char_spacing: f64,
    word_spacing: f64,
    /// `Tz` / 100.
    scale: f64,
    leading: f64,
    rise: f64,
    font: Option<Rc<Font>>,
    font_size: f64,
}

impl Default for GState {
    fn default() -> Self {
        GState {
            ctm: Matrix::IDENTITY,
            char_spacing: 0.0,
            word_spacing: 0.0,
            scale: 1.0,
            leading: 0.0,
            rise: 0.0,
            font: None,
            font_size: 0.0,
        }
    }
}

struct Interp<'a, 'd> {
    doc: &'d Document,
    fonts: &'a mut FontCache,
    stats: &'a mut Stats,
    budget: &'a mut Budget,
    out: &'a mut PageText,
    view: View,
    /// Forms being drawn (to refuse cycles).
    forms: Vec<ObjectId>,
    /// Marked-content sequences open (`BMC`/`BDC` … `EMC`).
    marked: Vec<Marked>,
    /// The page's structure elements by marked-content id.
    structure: PageStructure,
}

/// An open marked-content sequence.
struct Marked {
    /// Its `/ActualText`, if any.
    actual: Option<String>,
    /// The number of glyphs placed before it began.
    first: usize,
    /// The structure element its `/MCID` belongs to (0 if none).
    element: u32,
}

/// Marked-content sequences open at once beyond this are not tracked.
const MAX_MARKED: usize = 256;

/// A PDF text string: UTF-16BE after a byte-order mark, UTF-8 after its mark, else PDFDocEncoding (read
/// as Latin-1, which agrees on the printable ASCII range that matters here).
fn text_string(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        super::cmap::utf16_be(rest)
    } else if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        String::from_utf8_lossy(rest).into_owned()
    } else {
        bytes.iter().map(|&b| char::from(b)).collect()
    }
}

impl<'d> Interp<'_, 'd> {
    fn run(
        &mut self,
        content: &[u8],
        resources: &[&'d Dictionary],
        mut gs: GState,
        depth: usize,
    ) -> Result<(), PageError> {
        let doc = self.doc;
        let mut stack: Vec<GState> = Vec::new();
        let mut tm = Matrix::IDENTITY;
        let mut tlm = Matrix::IDENTITY;
        // The subpaths of the path being built, boxed in page coordinates.
        let mut path: Vec<Shape> = Vec::new();
        for op in Content::decode_iter(content) {
            // A syntax error ends the stream; what came before it is kept.
            let Ok(op) = op else {
                self.stats.broken_streams += 1;
                break;
            };
            self.budget.operators = self
                .budget
                .operators
                .checked_sub(1)
                .ok_or(PageError::TooLarge)?;
            let args = op.operands.as_slice();
            let num = |i: usize| number(doc, args.get(i));
            match op.operator.as_str() {
                "q" if stack.len() < MAX_STATE_STACK => stack.push(gs.clone()),
                "Q" => {
                    if let Some(saved) = stack.pop() {
                        gs = saved;
                    }
                }
                "cm" => {
                    if let Some(m) = Matrix::from_operands(doc, args) {
                        let ctm = m.then(&gs.ctm);
                        if ctm.is_finite() {
                            gs.ctm = ctm;
                        }
                    }
                }
                "BT" => {
                    tm = Matrix::IDENTITY;
                    tlm = Matrix::IDENTITY;
                }
                "Tc" => gs.char_spacing = num(0).unwrap_or(gs.char_spacing),
                "Tw" => gs.word_spacing = num(0).unwrap_or(gs.word_spacing),
                "Tz" => gs.scale = num(0).map_or(gs.scale, |v| v / 100.0),
                "TL" => gs.leading = num(0).unwrap_or(gs.leading),
                "Ts" => gs.rise = num(0).unwrap_or(gs.rise),
                "Tf" => {
                    if let Some(name) = args.first().and_then(|o| o.as_name().ok()) {
                        gs.font = Some(self.font(resources, name));
                    }
                    gs.font_size = num(1).unwrap_or(gs.font_size);
                }
                "Td" | "TD" => {
                    if let (Some(tx), Some(ty)) = (num(0), num(1)) {
                        if op.operator == "TD" {
                            gs.leading = -ty;
                        }
                        tlm = tlm.pre_translate(tx, ty);
                        tm = tlm;
                    }
                }
                "Tm" => {
                    if let Some(m) = Matrix::from_operands(doc, args) {
                        tlm = m;
                        tm = m;
                    }
                }
                "T*" => {
                    tlm = tlm.pre_translate(0.0, -gs.leading);
                    tm = tlm;
                }
                "Tj" => {
                    if let Some(Object::String(bytes, _)) = args.first() {
                        self.show(&gs, &mut tm, bytes)?;
                    }
                }
                "'" => {
                    tlm = tlm.pre_translate(0.0, -gs.leading);
                    tm = tlm;
                    if let Some(Object::String(bytes, _)) = args.first() {
                        self.show(&gs, &mut tm, bytes)?;
                    }
                }
                "\"" => {
                    gs.word_spacing = num(0).unwrap_or(gs.word_spacing);
                    gs.char_spacing = num(1).unwrap_or(gs.char_spacing);
                    tlm = tlm.pre_translate(0.0, -gs.leading);
                    tm = tlm;
                    if let Some(Object::String(bytes, _)) = args.get(2) {
                        self.show(&gs, &mut tm, bytes)?;
                    }
                }
                "TJ" => {
                    if let Some(Object::Array(items)) = args.first() {
                        for item in items {
                            match item {
                                Object::String(bytes, _) => self.show(&gs, &mut tm, bytes)?,
                                other => {
                                    if let Some(n) = number(doc, Some(other)) {
                                        let shift = -n / 1000.0 * gs.font_size;
                                        let font_vertical =
                                            gs.font.as_ref().is_some_and(|f| f.vertical);
                                        tm = if font_vertical {
                                            tm.pre_translate(0.0, shift)
                                        } else {
                                            tm.pre_translate(shift * gs.scale, 0.0)
                                        };
                                    }
                                }
                            }
                        }
                    }
                }
                "Do" => {
                    if let Some(name) = args.first().and_then(|o| o.as_name().ok()) {
                        self.draw_xobject(resources, name, &gs, depth)?;
                    }
                }
                "m" | "l" | "c" | "v" | "y" | "re" => {
                    let values: Vec<f64> =
                        args.iter().filter_map(|a| number(doc, Some(a))).collect();
                    let at = |x: f64, y: f64| {
                        let (px, py) = gs.ctm.point(x, y);
                        self.view.point(px, py)
                    };
                    let points: Vec<(f64, f64)> = if op.operator == "re" {
                        match values[..] {
                            [x, y, w, h] => {
                                vec![at(x, y), at(x + w, y + h), at(x, y + h), at(x + w, y)]
                            }
                            _ => Vec::new(),
                        }
                    } else {
                        values.chunks_exact(2).map(|p| at(p[0], p[1])).collect()
                    };
                    let new_subpath = matches!(op.operator.as_str(), "m" | "re") || path.is_empty();
                    if let Some(&first) = points.first() {
                        if new_subpath && path.len() < MAX_SHAPES {
                            path.push(Shape::at(first.0, first.1));
                        }
                        if let Some(shape) = path.last_mut() {
                            points.iter().for_each(|&p| shape.extend(p));
                        }
                    }
                }
                "n" => path.clear(),
                "S" | "s" | "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" => {
                    let filled = !matches!(op.operator.as_str(), "S" | "s");
                    let room = MAX_SHAPES.saturating_sub(self.out.shapes.len());
                    let finite = |s: &Shape| [s.x0, s.y0, s.x1, s.y1].iter().all(|v| v.is_finite());
                    self.out.shapes.extend(
                        path.drain(..)
                            .filter(finite)
                            .take(room)
                            .map(|s| Shape { filled, ..s }),
                    );
                }
                "BI" => self.out.images += 1,
                "BMC" | "BDC" if self.marked.len() < MAX_MARKED => {
                    let props = (op.operator == "BDC")
                        .then(|| self.properties(resources, args.get(1)))
                        .flatten();
                    let actual = props.and_then(|p| self.actual_text(p));
                    // Marked-content ids in forms belong to the form's own structure parents.
                    let element = props
                        .filter(|_| depth == 0)
                        .and_then(|p| p.get(b"MCID").ok())
                        .and_then(|id| number(doc, Some(id)))
                        .map_or(0, |id| self.structure.element(id as i64));
                    self.marked.push(Marked {
                        actual,
                        first: self.out.glyphs.len(),
                        element,
                    });
                }
                "EMC" => {
                    if let Some(Marked {
                        actual: Some(actual),
                        first,
                        ..
                    }) = self.marked.pop()
                    {
                        self.replace_text(first, &actual);
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Look a resource up by category (`Font`, `XObject`) and name, nearest dictionary first.
    fn resource(
        &self,
        resources: &[&'d Dictionary],
        category: &[u8],
        name: &[u8],
    ) -> Option<(Option<ObjectId>, &'d Object)> {
        let doc = self.doc;
        resources.iter().find_map(|dict| {
            let (_, group) = doc.dereference(dict.get(category).ok()?).ok()?;
            let entry = group.as_dict().ok()?.get(name).ok()?;
            doc.dereference(entry).ok()
        })
    }

    fn font(&mut self, resources: &[&'d Dictionary], name: &[u8]) -> Rc<Font> {
        let Some((id, object)) = self.resource(resources, b"Font", name) else {
            return self.fonts.missing();
        };
        let Ok(dict) = object.as_dict() else {
            return self.fonts.missing();
        };
        if let Some(font) = id.and_then(|id| self.fonts.by_id.get(&id)) {
            return font.clone();
        }
        let font = Rc::new(Font::load(self.doc, dict));
        if let Some(id) = id {
            self.fonts.by_id.insert(id, font.clone());
        }
        font
    }

    /// Draw a form XObject (count an image one).
    fn draw_xobject(
        &mut self,
        resources: &[&'d Dictionary],
        name: &[u8],
        gs: &GState,
        depth: usize,
    ) -> Result<(), PageError> {
        if depth >= MAX_FORM_DEPTH {
            return Ok(());
        }
        let Some((id, object)) = self.resource(resources, b"XObject", name) else {
            return Ok(());
        };
        let Ok(stream) = object.as_stream() else {
            return Ok(());
        };
        match stream.dict.get(b"Subtype").and_then(Object::as_name) {
            Ok(b"Form") => {}
            Ok(b"Image") => {
                self.out.images += 1;
                return Ok(());
            }
            _ => return Ok(()),
        }
        if id.is_some_and(|id| self.forms.contains(&id)) {
            return Ok(());
        }
        let limit = MAX_STREAM_BYTES.min(self.budget.stream_bytes);
        let content = match stream.get_plain_content_with_limit(limit) {
            Ok(content) => content,
            Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded {
                ..
            })) => return Err(PageError::TooLarge),
            Err(_) => return Ok(()),
        };
        self.budget.stream_bytes = self.budget.stream_bytes.saturating_sub(content.len());
        let doc = self.doc;
        let form_resources: Vec<&'d Dictionary> = match stream
            .dict
            .get(b"Resources")
            .ok()
            .and_then(|r| doc.dereference(r).ok())
            .and_then(|(_, o)| o.as_dict().ok())
        {
            Some(dict) => vec![dict],
            None => resources.to_vec(),
        };
        let mut inner = gs.clone();
        if let Some(m) = stream
            .dict
            .get(b"Matrix")
            .ok()
            .and_then(|o| o.as_array().ok())
            .and_then(|a| Matrix::from_operands(doc, a))
        {
            let ctm = m.then(&gs.ctm);
            if ctm.is_finite() {
                inner.ctm = ctm;
            }
        }
        if let Some(id) = id {
            self.forms.push(id);
        }
        let result = self.run(&content, &form_resources, inner, depth + 1);
        if id.is_some() {
            self.forms.pop();
        }
        result
    }

    /// A `BDC`'s properties: a dictionary, or a name in the `/Properties` resources.
    fn properties<'o>(
        &self,
        resources: &[&'d Dictionary],
        props: Option<&'o Object>,
    ) -> Option<&'o Dictionary>
    where
        'd: 'o,
    {
        match props? {
            Object::Dictionary(d) => Some(d),
            Object::Name(name) => self
                .resource(resources, b"Properties", name)
                .and_then(|(_, o)| o.as_dict().ok()),
            Object::Reference(id) => self.doc.get_dictionary(*id).ok(),
            _ => None,
        }
    }

    /// The `/ActualText` of a `BDC`'s properties.
    fn actual_text(&self, dict: &Dictionary) -> Option<String> {
        let doc = self.doc;
        let value = match dict.get(b"ActualText").ok()? {
            Object::Reference(id) => doc.get_object(*id).ok()?,
            other => other,
        };
        match value {
            Object::String(bytes, _) => Some(text_string(bytes)),
            _ => None,
        }
    }

    /// The glyphs placed since glyph `first` stand for `actual` (a marked-content `/ActualText`): the
    /// first of them carries that text, the others none. Nothing placed, nothing replaced.
    fn replace_text(&mut self, first: usize, actual: &str) {
        let out = &mut *self.out;
        if first >= out.glyphs.len() {
            return;
        }
        let start = out.text.len();
        for c in actual.chars() {
            push_char(&mut out.text, c);
        }
        let (Ok(start), Ok(end)) = (u32::try_from(start), u32::try_from(out.text.len())) else {
            return;
        };
        for (i, g) in out.glyphs[first..].iter_mut().enumerate() {
            (g.start, g.end) = if i == 0 { (start, end) } else { (end, end) };
        }
    }

    /// Show a string: place its glyphs and advance the text matrix.
    fn show(&mut self, gs: &GState, tm: &mut Matrix, bytes: &[u8]) -> Result<(), PageError> {
        if bytes.is_empty() {
            return Ok(());
        }
        let font = match &gs.font {
            Some(font) => font.clone(),
            None => self.fonts.missing(),
        };
        self.stats.show_ops += 1;
        let fs = gs.font_size;
        let mut rest = bytes;
        while !rest.is_empty() {
            self.budget.glyphs = self
                .budget
                .glyphs
                .checked_sub(1)
                .ok_or(PageError::TooLarge)?;
            let code = font.next_code(rest);
            rest = rest.get(code.len..).unwrap_or_default();
            let text = font.text(code);
            if text.is_none() && self.stats.unreadable_font.is_none() {
                self.stats.unreadable_font.clone_from(&font.unreadable);
            }
            let width = font.width(code, text.as_deref());
            let spacing = gs.char_spacing
                + if Font::is_word_space(code) {
                    gs.word_spacing
                } else {
                    0.0
                };
            // Text space to device space.
            let m = tm.then(&gs.ctm);
            if font.vertical {
                let advance = fs + spacing;
                let origin = m.point(0.0, gs.rise);
                let end = m.point(0.0, gs.rise - fs);
                let up = m.vector(fs * gs.scale, 0.0);
                self.place(text.as_deref(), origin, end, up, &font, true);
                *tm = tm.pre_translate(0.0, -advance);
            } else {
                let advance = (width * fs + spacing) * gs.scale;
                let origin = m.point(0.0, gs.rise);
                let end = m.point(width * fs * gs.scale, gs.rise);
                let up = m.vector(0.0, fs * font.size_scale);
                self.place(text.as_deref(), origin, end, up, &font, false);
                *tm = tm.pre_translate(advance, 0.0);
            }
        }
        Ok(())
    }

    /// Record one glyph.
    fn place(
        &mut self,
        text: Option<&str>,
        origin: (f64, f64),
        end: (f64, f64),
        up: (f64, f64),
        font: &Font,
        vertical: bool,
    ) {
        let text = text.unwrap_or("\u{FFFD}");
        for c in text.chars() {
            if !c.is_whitespace() {
                self.stats.chars += 1;
                self.out.chars += 1;
                if is_bad_char(c) {
                    self.stats.bad_chars += 1;
                }
            }
        }
        let (mut ox, mut oy) = self.view.point(origin.0, origin.1);
        let (mut ex, mut ey) = self.view.point(end.0, end.1);
        let (ux, uy) = self.view.vector(up.0, up.1);
        if vertical {
            // Columns of vertical text read top to bottom, right to left: lay them out as lines.
            (ox, oy) = (-oy, ox);
            (ex, ey) = (-ey, ex);
        }
        let size = ux.hypot(uy);
        let (dx, dy) = (ex - ox, ey - oy);
        let horizontal = if dx.abs() + dy.abs() < 1e-6 {
            // A zero-width glyph: judge the direction by the baseline's normal.
            uy > 0.0 && ux.abs() <= 0.2 * uy
        } else {
            dx > 0.0 && dy.abs() <= 0.2 * dx
        };
        let on_page = !vertical
            && ox >= -2.0
            && ox <= self.out.width + 2.0
            && oy >= -2.0
            && oy <= self.out.height + 2.0;
        let on_page = on_page || vertical;
        if !horizontal
            || !on_page
            || !(0.5..=2000.0).contains(&size)
            || !ox.is_finite()
            || !ex.is_finite()
        {
            return;
        }
        let start = self.out.text.len();
        for c in text.chars() {
            push_char(&mut self.out.text, c);
        }
        let end_idx = self.out.text.len();
        let (Ok(start), Ok(end_idx)) = (u32::try_from(start), u32::try_from(end_idx)) else {
            return;
        };
        self.out.glyphs.push(Glyph {
            start,
            end: end_idx,
            x0: ox,
            x1: ex.max(ox),
            y: oy,
            size,
            space: font.space_width * size,
            element: self
                .marked
                .iter()
                .rev()
                .find(|m| m.element != 0)
                .map_or(0, |m| m.element),
        });
    }
}

/// Whether a decoded character is not real text: unmapped (U+FFFD), private use, or a control character.
pub(super) fn is_bad_char(c: char) -> bool {
    matches!(c, '\u{FFFD}' | '\u{E000}'..='\u{F8FF}' | '\u{F0000}'..='\u{10FFFF}')
        || (c.is_control() && !c.is_whitespace())
}

/// Append a decoded character: ligatures are spelled out, other whitespace becomes a space.
fn push_char(out: &mut String, c: char) {
    match c {
        '\u{FB00}' => out.push_str("ff"),
        '\u{FB01}' => out.push_str("fi"),
        '\u{FB02}' => out.push_str("fl"),
        '\u{FB03}' => out.push_str("ffi"),
        '\u{FB04}' => out.push_str("ffl"),
        '\u{FB05}' | '\u{FB06}' => out.push_str("st"),
        '\u{00A0}' | '\u{3000}' => out.push(c),
        c if c.is_whitespace() => out.push(' '),
        c => out.push(c),
    }
}
