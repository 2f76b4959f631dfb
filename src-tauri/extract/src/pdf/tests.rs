//! Tests of the PDF reader: the hand-made and malformed fixtures in `tests/fixtures/pdf/`, inputs that must
//! not panic, and (when the development benchmark is present) paragraph-exact extraction of its PDFs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::content::{Glyph, PageText, Shape};
use super::{extract, glyphs, layout};
use crate::{Block, BlockKind, ExtractError};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/pdf")
}

fn fixture(name: &str) -> Vec<u8> {
    let path = fixture_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {}: {e}", path.display()))
}

fn texts(blocks: &[Block]) -> Vec<String> {
    blocks.iter().map(|b| b.text.trim().to_string()).collect()
}

fn squash(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn simple_fixture_rebuilds_paragraphs() {
    let blocks = extract(&fixture("simple.pdf")).expect("simple.pdf reads");
    let got = texts(&blocks);
    assert_eq!(got.len(), 3, "{got:#?}");
    assert!(
        got[0].starts_with("The quick brown fox") && got[0].ends_with("paragraph itself ends.")
    );
    // Runs on across the page break; the header, footer and page numbers are gone.
    assert!(got[1].starts_with("A second paragraph") && got[1].ends_with("to fill lines."));
    for n in 1..40 {
        let sentence = format!(
            "Sentence number {n} of the filler repeats plain words so that the page fills up with lines of ordinary prose."
        );
        assert!(got[1].contains(&sentence), "{sentence} not in {}", got[1]);
    }
    assert!(got
        .iter()
        .all(|t| !t.contains("Tongwen test fixture") && !t.contains("- 1 -")));
    // Drawn inside a form XObject, with a kerned TJ array.
    assert_eq!(
        got[2],
        "A third paragraph is drawn inside a form XObject with a kerned TJ array."
    );
    assert!(blocks.iter().all(|b| b.kind == BlockKind::Body));
}

#[test]
fn cjk_identity_font_decodes_through_to_unicode() {
    let blocks = extract(&fixture("cjk-identity-h.pdf")).expect("cjk fixture reads");
    assert_eq!(texts(&blocks), ["中文段落测试。", "第二行继续。"]);
}

#[test]
fn empty_user_password_is_decrypted() {
    let plain = texts(&extract(&fixture("simple.pdf")).expect("simple.pdf reads"));
    for name in [
        "encrypted-empty-password.pdf",
        "encrypted-empty-rc4.pdf",
        "encrypted-empty-aes256.pdf",
    ] {
        let got = extract(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(texts(&got), plain, "{name}");
    }
}

#[test]
fn user_password_is_refused() {
    let got = extract(&fixture("encrypted-user-password.pdf"));
    assert!(matches!(got, Err(ExtractError::EncryptedPdf)), "{got:?}");
}

#[test]
fn image_only_has_no_text_layer() {
    let got = extract(&fixture("image-only.pdf"));
    assert!(matches!(got, Err(ExtractError::NoTextLayer)), "{got:?}");
}

#[test]
fn scan_with_a_text_stamp_has_no_text_layer() {
    let got = extract(&fixture("scanned-stamp.pdf"));
    assert!(matches!(got, Err(ExtractError::NoTextLayer)), "{got:?}");
}

#[test]
fn a_font_whose_text_cannot_be_known_is_refused_by_name() {
    // Identity-H codes, no /ToUnicode, no embedded font: nothing says which character a glyph is.
    let got = extract(&fixture("garbled.pdf"));
    assert!(
        matches!(&got, Err(ExtractError::UnreadableFont { font }) if font == "Unknown"),
        "{got:?}"
    );
    // The same with the standard CID font STSong-Light as reportlab writes it, its encoding renamed
    // Identity-H: refused, naming the font, rather than read with its text dropped.
    let got = extract(&fixture("reportlab-stsong-identity.pdf"));
    assert!(
        matches!(&got, Err(ExtractError::UnreadableFont { font }) if font == "STSong-Light"),
        "{got:?}"
    );
    let message = got.map(|_| ()).unwrap_err().to_string();
    assert!(
        message.contains("STSong-Light") && message.contains("not embedded"),
        "{message}"
    );
}

#[test]
fn a_standard_cid_font_that_is_not_embedded_loses_no_text() {
    // reportlab's STSong-Light (UniGB-UCS2-H, /W by Adobe-GB1 CID): the Latin words are the collection's
    // proportional CIDs 1-95, so the lines keep their real width and nothing falls off the page.
    let blocks = extract(&fixture("reportlab-stsong.pdf")).unwrap();
    let source = std::fs::read_to_string(fixture_dir().join("reportlab-stsong.txt")).unwrap();
    assert_eq!(texts(&blocks), source.lines().collect::<Vec<_>>());
}

#[test]
fn truncated_file_is_corrupt() {
    let got = extract(&fixture("truncated.pdf"));
    assert!(matches!(got, Err(ExtractError::CorruptPdf(_))), "{got:?}");
}

#[test]
fn not_a_pdf_is_corrupt() {
    for bytes in [
        &b""[..],
        b"%PDF-",
        b"%PDF-1.4\n",
        b"hello world",
        b"%PDF-1.7\n1 0 obj << >> endobj\n%%EOF",
    ] {
        let got = extract(bytes);
        assert!(
            matches!(got, Err(ExtractError::CorruptPdf(_))),
            "{:?}: {got:?}",
            String::from_utf8_lossy(bytes)
        );
    }
}

#[test]
fn libreoffice_fixture_reads() {
    let blocks = extract(&fixture("libreoffice-en.pdf")).expect("libreoffice-en.pdf reads");
    // library/debian-faq-en-014.pdf of the development benchmark: 8 paragraphs.
    assert_eq!(blocks.len(), 8, "{:#?}", texts(&blocks));
}

// ---- Spaces: drawn spaces, and line breaks between CJK and Latin text ---------------------------------

/// Font size of the [`Printer`]'s text, and its left margin.
const SIZE: f64 = 10.0;
const LEFT: f64 = 90.0;

/// A page printed the way a word processor prints it: every character a glyph, spaces included; CJK
/// characters 1 em wide, other characters 0.5 em, spaces 0.25 em; 10 pt lines from x = 90 on a page
/// 612 pt wide, so that the right margin is at 522.
struct Printer {
    page: PageText,
}

impl Printer {
    fn new() -> Printer {
        Printer {
            page: PageText {
                width: 612.0,
                height: 792.0,
                ..PageText::default()
            },
        }
    }

    /// Print `text` on the baseline `y` from the left margin; returns where its last visible glyph ends.
    fn line(&mut self, y: f64, text: &str) -> f64 {
        self.line_at(LEFT, y, text)
    }

    /// Print `text` on the baseline `y` from `x`; returns where its last visible glyph ends.
    fn line_at(&mut self, x: f64, y: f64, text: &str) -> f64 {
        let (mut x, mut end) = (x, x);
        for c in text.chars() {
            let em = if glyphs::is_wide(c) {
                1.0
            } else if c == ' ' {
                0.25
            } else {
                0.5
            };
            let start = self.page.text.len() as u32;
            self.page.text.push(c);
            self.page.glyphs.push(Glyph {
                start,
                end: self.page.text.len() as u32,
                x0: x,
                x1: x + em * SIZE,
                y,
                size: SIZE,
                space: 0.25 * SIZE,
                element: 0,
            });
            x += em * SIZE;
            if c != ' ' {
                self.page.chars += 1;
                end = x;
            }
        }
        end
    }

    /// Paint a filled box (a rule, a bullet).
    fn shape(&mut self, x0: f64, y0: f64, x1: f64, y1: f64) {
        self.page.shapes.push(Shape {
            x0,
            y0,
            x1,
            y1,
            filled: true,
        });
    }

    fn paragraphs(&self) -> Vec<String> {
        texts(&layout::paragraphs(&[layout::page_lines(&self.page)]))
    }

    fn blocks(&self) -> Vec<Block> {
        layout::paragraphs(&[layout::page_lines(&self.page)])
    }
}

#[test]
fn table_cells_apart_by_rules_or_by_aligned_columns() {
    // Cells one font size apart: a rule between them makes two cells; without it they are one line.
    let mut p = Printer::new();
    p.line_at(LEFT, 700.0, "机器");
    p.line_at(LEFT + 30.0, 700.0, "系统");
    p.shape(LEFT + 24.5, 695.0, LEFT + 25.2, 712.0);
    let blocks = p.blocks();
    assert_eq!(texts(&blocks), ["机器", "系统"]);
    assert!(blocks.iter().all(|b| b.kind == BlockKind::Table));
    let mut p = Printer::new();
    p.line_at(LEFT, 700.0, "机器");
    p.line_at(LEFT + 30.0, 700.0, "系统");
    assert_eq!(p.paragraphs().len(), 1);

    // Without rules: three rows whose second column starts at the same place after a wide gap.
    let mut p = Printer::new();
    for (i, (a, b)) in [
        ("Package", "Version"),
        ("dpkg", "1.21.22"),
        ("apt", "2.6.1"),
    ]
    .iter()
    .enumerate()
    {
        let y = 700.0 - 14.0 * i as f64;
        p.line_at(LEFT, y, a);
        p.line_at(LEFT + 50.0, y, b);
    }
    assert_eq!(
        p.paragraphs(),
        ["Package", "Version", "dpkg", "1.21.22", "apt", "2.6.1"]
    );
    // Two rows agreeing are not enough: a stretched space in two lines of text is not a column.
    let mut p = Printer::new();
    p.line_at(LEFT, 700.0, "aligned by");
    p.line_at(LEFT + 70.0, 700.0, "chance only here");
    p.line_at(LEFT, 686.0, "and here too");
    p.line_at(LEFT + 70.0, 686.0, "in the second line.");
    assert_eq!(p.paragraphs().len(), 1, "{:?}", p.paragraphs());
}

#[test]
fn a_bullet_drawn_as_a_shape_starts_a_list_item() {
    let mut p = Printer::new();
    p.line(700.0, "Before the list:");
    for (i, item) in ["first item", "second item"].iter().enumerate() {
        let y = 686.0 - 14.0 * i as f64;
        p.line_at(LEFT + 15.0, y, item);
        // A disc 4 pt wide at the middle of the line's lower-case letters.
        p.shape(LEFT + 5.0, y + 1.5, LEFT + 9.0, y + 5.5);
    }
    let blocks = p.blocks();
    assert_eq!(
        texts(&blocks),
        ["Before the list:", "• first item", "• second item"]
    );
}

#[test]
fn a_centred_paragraph_reads_as_one() {
    // A justified body line sets the margins; below it, a paragraph broken greedily at the column's
    // width and each line centred: the next line's first word would fit at a line's right, but not in
    // the room on both its sides.
    let mut p = Printer::new();
    let body = "Body text fills the column from margin to margin.";
    p.line(714.0, &format!("{body}{}", " x".repeat(27)));
    let width = |t: &str| -> f64 { t.chars().map(|c| if c == ' ' { 2.5 } else { 5.0 }).sum() };
    let column = 522.0 - LEFT;
    let text = "Free software is a matter of liberty, not price. To understand the concept, you \
                should think of free as in free speech, not as in free beer; the word refers to \
                the freedom of the users to run, copy, distribute, study, change and improve it.";
    let mut lines: Vec<String> = vec![String::new()];
    for word in text.split(' ') {
        let last = lines.last_mut().unwrap();
        let candidate = if last.is_empty() {
            word.to_string()
        } else {
            format!("{last} {word}")
        };
        if width(&candidate) <= column {
            *last = candidate;
        } else {
            lines.push(word.to_string());
        }
    }
    assert_eq!(lines.len(), 3);
    for (i, line) in lines.iter().enumerate() {
        let x = LEFT + (column - width(line)) / 2.0;
        p.line_at(x, 690.0 - 14.0 * i as f64, line);
    }
    let got = p.paragraphs();
    assert_eq!(got.get(1..), Some(&[text.to_string()][..]), "{got:#?}");
}

#[test]
fn spaces_are_read_as_drawn() {
    // A doubled space stays double, and a space drawn between two CJK characters is text too.
    let mut p = Printer::new();
    let line = "Note  that 人们会从 最近的 Debian  版本升级。";
    p.line(700.0, line);
    assert_eq!(p.paragraphs(), [line]);

    // Overprinted (fake bold) spaces count once.
    let mut p = Printer::new();
    p.line(700.0, "bold  text");
    p.line(700.0, "bold  text");
    assert_eq!(p.paragraphs(), ["bold  text"]);
}

#[test]
fn a_space_drawn_at_a_line_break_joins_the_lines() {
    // "中文 English" wrapped at its space: the space is drawn at the end of the first line.
    let mut p = Printer::new();
    let cjk = "中文".repeat(21);
    assert_eq!(p.line(700.0, &format!("{cjk} ")), 510.0);
    let latin = format!("English{} words", " word".repeat(16));
    assert_eq!(p.line(686.0, &format!("{latin} ")), 512.5);
    p.line(672.0, "中文结束。");
    assert_eq!(p.paragraphs(), [format!("{cjk} {latin} 中文结束。")]);
}

#[test]
fn cjk_and_latin_at_a_line_break_without_a_drawn_space() {
    let mut p = Printer::new();
    // The space before "/etc" did not fit before the margin (2 pt left), so it was not drawn: the
    // document spaces Chinese from Latin words, so there was one.
    let first = format!("请用 shell 命令{}", "文".repeat(36));
    assert_eq!(p.line(700.0, &first), 520.0);
    p.line(686.0, "/etc 目录下的文件。");
    // A space would have fitted (42 pt left) and the document draws its line-end spaces (below): there
    // was none before "maintainerscripts".
    let second = format!("所有{}", "文".repeat(37));
    assert_eq!(p.line(660.0, &second), 480.0);
    p.line(646.0, "maintainerscripts文件都很难。");
    assert_eq!(p.line(620.0, &format!("{} ", "中文".repeat(21))), 510.0);
    p.line(606.0, "Linux 结束。");
    let got = p.paragraphs();
    assert_eq!(got.len(), 3, "{got:#?}");
    assert_eq!(got[0], format!("{first} /etc 目录下的文件。"));
    assert_eq!(got[1], format!("{second}maintainerscripts文件都很难。"));

    // A document that writes Chinese and Latin words together: no space where the page does not say.
    let mut p = Printer::new();
    let first = format!("请用shell命令{}", "文".repeat(36));
    assert_eq!(p.line(700.0, &first), 515.0);
    p.line(686.0, "/etc目录下的文件。");
    assert_eq!(p.paragraphs(), [format!("{first}/etc目录下的文件。")]);
}

#[test]
fn a_line_break_after_a_hyphen_without_a_drawn_space() {
    let mut p = Printer::new();
    // "--addmissing" broken after its hyphens: a space would have fitted (39.5 pt left) and the document
    // draws its line-end spaces, so there was none.
    let first = format!("{}with --", "word ".repeat(16));
    assert_eq!(p.line(700.0, &first), 482.5);
    p.line(686.0, "addmissing to restore them.");
    // A dash with a space drawn after it.
    let second = format!("{}-", "word ".repeat(18));
    assert_eq!(p.line(660.0, &format!("{second} ")), 500.0);
    p.line(646.0, "nevertheless more.");
    assert_eq!(
        p.paragraphs(),
        [
            format!("{first}addmissing to restore them."),
            format!("{second} nevertheless more."),
        ]
    );
}

/// A small deterministic generator for the fuzz-like tests.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn prefixes_of_a_real_pdf_do_not_panic() {
    let bytes = fixture("libreoffice-en.pdf");
    for len in (0..bytes.len()).step_by(1024).chain([bytes.len() - 1]) {
        let prefix = bytes.get(..len).unwrap_or_default();
        let result = extract(prefix);
        assert!(
            result.is_err() || len + 1 >= bytes.len() || len > bytes.len() / 2,
            "{len}: {result:?}"
        );
    }
}

#[test]
fn damaged_pdfs_do_not_panic() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let originals = [
        fixture("libreoffice-en.pdf"),
        fixture("simple.pdf"),
        fixture("cjk-identity-h.pdf"),
    ];
    for original in &originals {
        for _ in 0..60 {
            let mut bytes = original.clone();
            let flips = 1 + rng.next() % 16;
            for _ in 0..flips {
                let at = (rng.next() % bytes.len() as u64) as usize;
                if let Some(b) = bytes.get_mut(at) {
                    *b = rng.next() as u8;
                }
            }
            let _ = extract(&bytes);
        }
    }
}

#[test]
fn random_garbage_does_not_panic() {
    let mut rng = XorShift(42);
    for round in 0..200 {
        let len = (rng.next() % 4096) as usize;
        let mut bytes: Vec<u8> = if round % 2 == 0 {
            b"%PDF-1.4\n".to_vec()
        } else {
            Vec::new()
        };
        bytes.extend((0..len).map(|_| rng.next() as u8));
        if round % 3 == 0 {
            bytes.extend_from_slice(b"\ntrailer << /Root 1 0 R >>\n%%EOF\n");
        }
        let _ = extract(&bytes);
    }
    // Hostile structures: deep nesting, self-drawing forms, absurd numbers.
    let hostile = [
        format!("%PDF-1.4\n1 0 obj {} endobj\n%%EOF", "[".repeat(100_000)),
        "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n\
         3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 1e400 -5] /Resources << /XObject << /X 4 0 R >> >> /Contents 5 0 R >> endobj\n\
         4 0 obj << /Type /XObject /Subtype /Form /Length 7 >> stream\n/X Do Q\nendstream endobj\n\
         5 0 obj << /Length 60 >> stream\nq 1e308 0 0 1e308 0 0 cm /X Do BT /F9 1e30 Tf (abc) Tj ET Q\nendstream endobj\n\
         trailer << /Root 1 0 R >>\n%%EOF"
            .to_string(),
    ];
    for doc in hostile {
        let _ = extract(doc.as_bytes());
    }
}

// ---- The development benchmark -------------------------------------------------------------------------

fn eval_dev(test: &str) -> Option<PathBuf> {
    tongwen_testdata::eval_dev_for(test)
}

fn load_truth(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("truth.json")).expect("truth.json reads");
    serde_json::from_str(&text).expect("truth.json parses")
}

fn short(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 160 {
        text.to_string()
    } else {
        let head: String = chars.iter().take(80).collect();
        let tail: String = chars.iter().skip(chars.len() - 60).collect();
        format!("{head} … {tail}")
    }
}

/// Compare extracted paragraphs with expected ones (whitespace removed); describe the first difference.
fn first_mismatch(got: &[String], want: &[String]) -> Option<String> {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if squash(g) != squash(w) {
            return Some(format!(
                "paragraph {i} differs\n  got:  {}\n  want: {}\n  next got: {}",
                short(g),
                short(w),
                got.get(i + 1).map_or("-".into(), |t| short(t))
            ));
        }
    }
    (got.len() != want.len()).then(|| {
        format!(
            "{} paragraphs extracted, {} expected; extra: {}",
            got.len(),
            want.len(),
            short(
                got.get(want.len())
                    .or(want.get(got.len()))
                    .map_or("", |s| s.as_str())
            )
        )
    })
}

#[test]
fn eval_dev_queries_match_truth() {
    let Some(dir) = eval_dev("eval_dev_queries_match_truth") else {
        return;
    };
    let truth = load_truth(&dir);
    let queries = truth["queries"].as_object().expect("queries");
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, query) in queries.iter().filter(|(n, _)| n.ends_with(".pdf")) {
        let want: Vec<String> = query["paragraphs"]
            .as_array()
            .expect("paragraphs")
            .iter()
            .map(|p| p["text"].as_str().unwrap_or_default().to_string())
            .collect();
        let bytes = std::fs::read(dir.join(name)).expect("query pdf reads");
        checked += 1;
        match extract(&bytes) {
            Ok(blocks) => {
                let got = texts(&blocks);
                let matched = got
                    .iter()
                    .zip(&want)
                    .take_while(|(g, w)| squash(g) == squash(w))
                    .count();
                eprintln!("{name}: {matched}/{} paragraphs match in order", want.len());
                if let Some(mismatch) = first_mismatch(&got, &want) {
                    failures.push(format!("{name}: {mismatch}"));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert_eq!(checked, 5, "expected the 5 query PDFs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn eval_dev_library_matches_truth() {
    let Some(dir) = eval_dev("eval_dev_library_matches_truth") else {
        return;
    };
    let truth = load_truth(&dir);
    // Library paragraphs the queries quote, by file and index.
    let mut known: HashMap<String, HashMap<usize, String>> = HashMap::new();
    for query in truth["queries"].as_object().expect("queries").values() {
        for para in query["paragraphs"].as_array().into_iter().flatten() {
            for source in para["sources"].as_array().into_iter().flatten() {
                let (Some(file), Some(index), Some(text)) = (
                    source["library_file"].as_str(),
                    source["paragraph_index"].as_u64(),
                    source["text"].as_str(),
                ) else {
                    continue;
                };
                known
                    .entry(file.to_string())
                    .or_default()
                    .insert(index as usize, text.to_string());
            }
        }
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, meta) in truth["library"]
        .as_object()
        .expect("library")
        .iter()
        .filter(|(n, _)| n.ends_with(".pdf"))
    {
        let want = meta["n_paragraphs"].as_u64().unwrap_or_default() as usize;
        let bytes = std::fs::read(dir.join(name)).expect("library pdf reads");
        checked += 1;
        let got = match extract(&bytes) {
            Ok(blocks) => texts(&blocks),
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let quoted = known.get(name.as_str());
        let quoted_ok = quoted.map_or(0, |q| {
            q.iter()
                .filter(|(i, t)| got.get(**i).is_some_and(|g| squash(g) == squash(t)))
                .count()
        });
        eprintln!(
            "{name}: {} paragraphs (expected {want}); {quoted_ok}/{} quoted paragraphs match",
            got.len(),
            quoted.map_or(0, HashMap::len)
        );
        if got.len() != want {
            failures.push(format!("{name}: {} paragraphs, expected {want}", got.len()));
        }
        for (index, text) in quoted.into_iter().flatten() {
            match got.get(*index) {
                Some(g) if squash(g) == squash(text) => {}
                other => failures.push(format!(
                    "{name}: paragraph {index} differs\n  got:  {}\n  want: {}",
                    other.map_or("-".into(), |g| short(g)),
                    short(text)
                )),
            }
        }
    }
    assert_eq!(checked, 15, "expected the 15 library PDFs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Print a PDF's lines with their geometry: `TONGWEN_PDF_DUMP=file.pdf cargo test -p tongwen-engine --lib
/// extract::pdf::tests::dump_lines -- --ignored --nocapture`.
#[test]
#[ignore = "a debugging aid"]
fn dump_lines() {
    let Some(path) = std::env::var_os("TONGWEN_PDF_DUMP") else {
        return;
    };
    let bytes = std::fs::read(&path).expect("file reads");
    let doc = super::load(&bytes).expect("loads");
    let mut fonts = super::content::FontCache::default();
    let mut stats = super::content::Stats::default();
    let mut budget = super::content::Budget::default();
    let mut pages = Vec::new();
    for page_id in doc.get_pages().values() {
        let text = super::content::read_page(&doc, *page_id, &mut fonts, &mut stats, &mut budget)
            .expect("page reads");
        pages.push(super::layout::page_lines(&text));
    }
    for (p, page) in pages.iter().enumerate() {
        println!("=== page {p} ({} x {})", page.width, page.height);
        for l in &page.lines {
            println!(
                "y={:7.2} x0={:6.2} x1={:6.2} size={:5.2} unit={:5.2} space={:4.2} | {}",
                l.y, l.x0, l.x1, l.size, l.first_unit, l.space, l.text
            );
        }
    }
    println!("{stats:?}");
    let started = std::time::Instant::now();
    let blocks = extract(&bytes).expect("extracts");
    println!(
        "extracted {} paragraphs in {:?}",
        blocks.len(),
        started.elapsed()
    );
    for (i, block) in blocks.iter().enumerate() {
        println!("[{i}] {:?} {}", block.kind, block.text);
    }
}

/// A longer run of [`damaged_pdfs_do_not_panic`], with deletions and insertions too, over the fixtures and
/// two benchmark PDFs: `TONGWEN_PDF_FUZZ=<rounds> cargo test -p tongwen-engine --lib
/// extract::pdf::tests::fuzz_long -- --ignored --nocapture`, then look for "panicked at" in the output
/// (the reader reports a caught panic as a corrupt file).
#[test]
#[ignore = "slow; run by hand"]
fn fuzz_long() {
    let rounds: u64 = std::env::var("TONGWEN_PDF_FUZZ")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let mut files = vec![
        fixture("libreoffice-en.pdf"),
        fixture("simple.pdf"),
        fixture("cjk-identity-h.pdf"),
    ];
    if let Some(dir) = eval_dev("fuzz_long") {
        for name in ["queries/q054.pdf", "library/manpages-zh-012.pdf"] {
            files.extend(std::fs::read(dir.join(name)).ok());
        }
    }
    // More files, e.g. uncompressed copies (`qpdf --qdf`) that expose content streams and fonts to the
    // mutations: TONGWEN_PDF_FUZZ_FILES=a.pdf:b.pdf.
    if let Some(extra) = std::env::var_os("TONGWEN_PDF_FUZZ_FILES") {
        for path in std::env::split_paths(&extra) {
            files.extend(std::fs::read(path).ok());
        }
    }
    let mut rng = XorShift(7);
    for original in &files {
        for _ in 0..rounds {
            let mut bytes = original.clone();
            for _ in 0..1 + rng.next() % 8 {
                let at = (rng.next() % bytes.len() as u64) as usize;
                match rng.next() % 3 {
                    0 => {
                        if let Some(b) = bytes.get_mut(at) {
                            *b = rng.next() as u8;
                        }
                    }
                    1 => {
                        let len = (rng.next() % 64) as usize;
                        let end = (at + len).min(bytes.len());
                        bytes.drain(at..end);
                    }
                    _ => {
                        let from = (rng.next() % bytes.len() as u64) as usize;
                        let chunk: Vec<u8> = bytes.iter().skip(from).take(64).copied().collect();
                        let at = at.min(bytes.len());
                        bytes.splice(at..at, chunk);
                    }
                }
            }
            let _ = extract(&bytes);
        }
    }
}

/// A one-page PDF whose page content is `content`, with a standard font.
fn pdf_with_content(content: &[u8]) -> Vec<u8> {
    pdf_with_stream(lopdf::dictionary! {}, content)
}

/// A one-page PDF whose page content stream has `dict` and the raw (possibly encoded) `bytes`.
fn pdf_with_stream(dict: lopdf::Dictionary, bytes: &[u8]) -> Vec<u8> {
    use lopdf::{dictionary, Document, Stream};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let content_id = doc.add_object(Stream::new(dict, bytes.to_vec()).with_compression(false));
    let fonts = dictionary! { "F1" => font_id };
    one_page_pdf(doc, pages_id, fonts, content_id)
}

/// Finish `doc` as one A4 page (the page tree `pages_id`, reserved) drawing `content_id` with `fonts`.
fn one_page_pdf(
    mut doc: lopdf::Document,
    pages_id: lopdf::ObjectId,
    fonts: lopdf::Dictionary,
    content_id: lopdf::ObjectId,
) -> Vec<u8> {
    use lopdf::{dictionary, Object};
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page",
        "Parent" => pages_id,
        "Contents" => content_id,
        "Resources" => dictionary! { "Font" => fonts },
        "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1,
        }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("save");
    out
}

/// Page content that cannot be read is a damaged file, not a scan without a text layer.
#[test]
fn unreadable_page_content_is_damaged_not_a_scan() {
    let good =
        pdf_with_content(b"BT /F1 12 Tf 72 700 Td (A readable first paragraph of text.) Tj ET");
    let blocks = extract(&good).expect("the well-formed page reads");
    assert_eq!(texts(&blocks), ["A readable first paragraph of text."]);
    // A compressed content stream whose bytes were damaged (as a bad copy or a mutation leaves it).
    let broken = pdf_with_stream(
        lopdf::dictionary! { "Filter" => "FlateDecode" },
        b"x\x9c\x0b\xc9\xc8\x2c\x56\x00\xa2\x44\x85\x92\xd4\x8a\x12 damaged bytes",
    );
    match extract(&broken) {
        Err(ExtractError::CorruptPdf(cause)) => assert!(cause.contains("page content"), "{cause}"),
        other => panic!("{other:?}"),
    }
    // A page with no content at all still has no text layer.
    assert!(matches!(
        extract(&pdf_with_content(b"")),
        Err(ExtractError::NoTextLayer)
    ));
}

/// Word writes a list's bullet in the Symbol or Wingdings font, mapped to a private-use character
/// (U+F0B7, U+F0A7): it reads as the bullet it draws, and the paragraph as a list item.
#[test]
fn symbol_font_bullets_read_as_bullets() {
    use lopdf::{dictionary, Document, Object, Stream};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let helvetica = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let mut symbol_font = |base: &str, unicode: &str| {
        let cmap = format!(
            "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
             1 begincodespacerange <00> <FF> endcodespacerange\n\
             1 beginbfchar <B7> <{unicode}> endbfchar\n\
             1 beginbfchar <A7> <{unicode}> endbfchar\n\
             endcmap CMapName currentdict /CMap defineresource pop end end"
        );
        let to_unicode = doc.add_object(Stream::new(dictionary! {}, cmap.into_bytes()));
        doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => base,
            "FirstChar" => 167, "LastChar" => 183,
            "Widths" => vec![Object::Integer(460); 17],
            "ToUnicode" => to_unicode,
        })
    };
    let symbol = symbol_font("ABCDEF+Symbol", "F0B7");
    let wingdings = symbol_font("Wingdings-Regular", "F0A7");
    let content = b"BT /F1 12 Tf 72 700 Td (Before the list:) Tj ET \
        BT /F2 12 Tf 90 680 Td (\xb7) Tj ET BT /F1 12 Tf 108 680 Td (first item) Tj ET \
        BT /F3 12 Tf 90 660 Td (\xa7) Tj ET BT /F1 12 Tf 108 660 Td (second item) Tj ET";
    let content_id = doc.add_object(Stream::new(dictionary! {}, content.to_vec()));
    let fonts = dictionary! { "F1" => helvetica, "F2" => symbol, "F3" => wingdings };
    let bytes = one_page_pdf(doc, pages_id, fonts, content_id);
    let mut blocks = extract(&bytes).expect("reads");
    crate::kinds::classify(&mut blocks, crate::Format::Pdf);
    let got: Vec<(String, BlockKind)> = blocks.into_iter().map(|b| (b.text, b.kind)).collect();
    assert_eq!(
        got,
        [
            ("Before the list:".to_string(), BlockKind::Body),
            ("• first item".to_string(), BlockKind::List),
            ("▪ second item".to_string(), BlockKind::List),
        ]
    );
}

#[test]
fn a_ruled_table_reads_cell_by_cell_with_wrapped_cells_whole() {
    // Two rows, two columns; the right cell of the first row wraps onto two lines, and the second
    // row's two grid cells are merged (no rule between them). Rules as a word processor draws them:
    // thin filled boxes.
    let mut p = Printer::new();
    p.line(
        740.0,
        "A paragraph before the table, long enough to reach the right margin of it all.",
    );
    let (left, mid, right) = (LEFT, 200.0, 522.0);
    let (top, row, bottom) = (730.0, 690.0, 670.0);
    for y in [top, row, bottom] {
        p.shape(left, y - 0.25, right, y + 0.25);
    }
    for x in [left, right] {
        p.shape(x - 0.25, bottom, x + 0.25, top);
    }
    p.shape(mid - 0.25, row, mid + 0.25, top);
    p.line_at(left + 4.0, 716.0, "Option");
    p.line_at(mid + 4.0, 716.0, "what the option does, told at");
    p.line_at(left + 4.0, 702.0, "--format");
    p.line_at(mid + 4.0, 702.0, "length over two lines");
    p.line_at(left + 4.0, 676.0, "A merged cell across the row.");
    p.line(650.0, "The paragraph after the table.");
    let blocks = p.blocks();
    let got: Vec<(&str, BlockKind)> = blocks.iter().map(|b| (b.text.as_str(), b.kind)).collect();
    assert_eq!(
        got,
        [
            (
                "A paragraph before the table, long enough to reach the right margin of it all.",
                BlockKind::Body
            ),
            ("Option --format", BlockKind::Table),
            (
                "what the option does, told at length over two lines",
                BlockKind::Table
            ),
            ("A merged cell across the row.", BlockKind::Table),
            ("The paragraph after the table.", BlockKind::Body),
        ]
    );
}

#[test]
fn a_three_line_table_reads_cell_by_cell_and_page_rules_are_not_one() {
    // Rules above and below the header row and below the last row, none between the columns; the
    // second row's right cell wraps onto two lines.
    let mut p = Printer::new();
    p.line(
        760.0,
        "A paragraph before the table, long enough to reach the right margin of it all.",
    );
    for y in [750.0, 730.0, 686.0] {
        p.shape(LEFT, y - 0.25, 522.0, y + 0.25);
    }
    p.line_at(LEFT, 736.0, "Machine");
    p.line_at(250.0, 736.0, "System");
    p.line_at(LEFT, 716.0, "build-01");
    p.line_at(250.0, 716.0, "Debian 12, kept for checking that old");
    p.line_at(250.0, 702.0, "build dependencies still resolve");
    p.line_at(LEFT, 690.0, "build-02");
    p.line_at(250.0, 690.0, "Debian 11");
    p.line(660.0, "The paragraph after the table.");
    let got: Vec<(String, BlockKind)> = p.blocks().into_iter().map(|b| (b.text, b.kind)).collect();
    let table = |t: &str| (t.to_string(), BlockKind::Table);
    assert_eq!(
        got,
        [
            (
                "A paragraph before the table, long enough to reach the right margin of it all."
                    .to_string(),
                BlockKind::Body
            ),
            table("Machine"),
            table("System"),
            table("build-01"),
            table("Debian 12, kept for checking that old build dependencies still resolve"),
            table("build-02"),
            table("Debian 11"),
            (
                "The paragraph after the table.".to_string(),
                BlockKind::Body
            ),
        ]
    );

    // A running head's rule and a footer's rule of the same width hold a page of two columns of
    // body text, not a table (were they one, the columns would be its cells).
    let mut p = Printer::new();
    p.shape(LEFT, 779.75, 522.0, 780.25);
    p.shape(LEFT, 59.75, 522.0, 60.25);
    for x in [LEFT, 320.0] {
        for (i, text) in [
            "A column of body text that",
            "runs on over three lines",
            "and ends.",
        ]
        .iter()
        .enumerate()
        {
            p.line_at(x, 760.0 - 14.0 * i as f64, text);
        }
    }
    assert_eq!(
        p.blocks()
            .iter()
            .filter(|b| b.kind == BlockKind::Table)
            .count(),
        0
    );

    // An abstract set between two rules, one of its lines with a stretched space: a paragraph.
    let mut p = Printer::new();
    p.shape(LEFT, 749.75, 522.0, 750.25);
    p.shape(LEFT, 709.75, 522.0, 710.25);
    p.line(
        736.0,
        "An abstract between two rules, its lines justified so that some spaces are wide",
    );
    p.line(722.0, "as this");
    p.line_at(LEFT + 40.0, 722.0, "one, still reads as one paragraph.");
    let blocks = p.blocks();
    assert_eq!(blocks.len(), 1, "{blocks:?}");
    assert_eq!(blocks[0].kind, BlockKind::Body);
}

#[test]
fn numbered_items_whose_lines_are_full_stay_apart() {
    // Each item one line that reaches the margin, the next item's number at the same place.
    let mut p = Printer::new();
    let full = |n: u32| format!("{n}. {}", "x".repeat(83));
    for (i, n) in (1..=3).enumerate() {
        assert!(p.line(700.0 - 14.0 * i as f64, &full(n)) > 515.0);
    }
    p.line(650.0, "A paragraph after the list, below a gap.");
    let got = p.paragraphs();
    assert_eq!(got.len(), 4, "{got:#?}");
    assert!(
        got[1].starts_with("2. ") && got[3].starts_with("A paragraph"),
        "{got:#?}"
    );
    // A number that continues a sentence on the next line is not an item: the paragraph before it
    // is not one.
    let mut p = Printer::new();
    p.line(
        700.0,
        &format!("The version that ships is {}", "x".repeat(70)),
    );
    p.line(686.0, "2. It is the second one.");
    assert_eq!(p.paragraphs().len(), 1);
}

#[test]
fn a_framed_note_is_not_a_table() {
    // A stroked box around a note's title and text (a sidebar, an admonition): one box, no cells.
    let mut p = Printer::new();
    p.line(
        760.0,
        "A paragraph before the note, long enough to reach the right margin of it all.",
    );
    p.page.shapes.push(Shape {
        x0: LEFT - 4.0,
        y0: 690.0,
        x1: 526.0,
        y1: 745.0,
        filled: false,
    });
    p.line(730.0, "NOTE A title");
    p.line(
        712.0,
        "The note's text, which runs over two lines of the box because it is long enough",
    );
    p.line(698.0, "to need them.");
    let blocks = p.blocks();
    assert!(
        blocks.iter().all(|b| b.kind != BlockKind::Table),
        "{blocks:?}"
    );
    assert_eq!(blocks.len(), 3, "{blocks:?}");
}
