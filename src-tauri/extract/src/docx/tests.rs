//! Tests for the Word reader: documents built with docx-rs's builder, damaged and hostile packages from
//! `tests/fixtures/docx/` and made here, and the eval-dev benchmark's .docx files.

use std::io::{Cursor, Write};

use docx_rs::{
    BreakType, Comment, Delete, Docx, Footer, Footnote, Header, Hyperlink, HyperlinkType,
    IndentLevel, Insert, NumberingId, Paragraph, Run, Style, StyleType, Table, TableCell,
    TableOfContents, TableOfContentsItem, TableRow,
};

use super::*;
use crate::{extract_bytes, BlockKind, ExtractOptions, Format};

fn pack(docx: Docx) -> Vec<u8> {
    let mut buf = Cursor::new(Vec::new());
    docx.build().pack(&mut buf).expect("pack");
    buf.into_inner()
}

fn para(text: &str) -> Paragraph {
    Paragraph::new().add_run(Run::new().add_text(text))
}

/// The paragraphs Tongwen keeps, after `finish` (trim, drop empty ones).
fn read(bytes: &[u8]) -> Vec<(BlockKind, String)> {
    let extracted =
        extract_bytes(bytes, Some("docx"), &ExtractOptions::default()).expect("extract");
    assert_eq!(extracted.format, Format::Docx);
    extracted
        .paragraphs
        .into_iter()
        .map(|b| (b.kind, b.text))
        .collect()
}

fn body(text: &str) -> (BlockKind, String) {
    (BlockKind::Body, text.to_string())
}

fn heading(text: &str) -> (BlockKind, String) {
    (BlockKind::Heading, text.to_string())
}

fn table(text: &str) -> (BlockKind, String) {
    (BlockKind::Table, text.to_string())
}

fn list(text: &str) -> (BlockKind, String) {
    (BlockKind::List, text.to_string())
}

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/docx")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A document with most of what the reader handles.
fn feature_document() -> Docx {
    Docx::new()
        .add_style(Style::new("Heading1", StyleType::Paragraph).name("Heading 1"))
        .add_style(Style::new("Title", StyleType::Paragraph).name("Title"))
        .header(Header::new().add_paragraph(para("页眉 header text")))
        .footer(Footer::new().add_paragraph(para("页脚 footer text")))
        .add_paragraph(para("论文题目").style("Title"))
        .add_paragraph(para("第一章 绪论").style("Heading1"))
        .add_paragraph(
            Paragraph::new()
                .add_run(Run::new().add_text("自由软件运动始于一九八三年"))
                .add_run(
                    Run::new()
                        .add_footnote_reference(
                            Footnote::new().add_content(para("脚注：一九八三年九月。")),
                        )
                        .add_text("。"),
                ),
        )
        .add_paragraph(
            Paragraph::new()
                .add_run(Run::new().add_text("Tabs"))
                .add_run(Run::new().add_tab().add_text("and"))
                .add_run(
                    Run::new()
                        .add_break(BreakType::TextWrapping)
                        .add_text("line breaks."),
                ),
        )
        .add_paragraph(
            Paragraph::new()
                .add_comment_start(
                    Comment::new(1)
                        .author("reviewer")
                        .add_paragraph(para("comment text must not appear")),
                )
                .add_run(Run::new().add_text("Commented text."))
                .add_comment_end(1),
        )
        .add_paragraph(
            Paragraph::new()
                .add_hyperlink(
                    Hyperlink::new("https://www.debian.org/", HyperlinkType::External)
                        .add_run(Run::new().add_text("A link")),
                )
                .add_run(Run::new().add_text(" and "))
                .add_insert(Insert::new(Run::new().add_text("inserted")))
                .add_delete(Delete::new().add_run(Run::new().add_delete_text("deleted")))
                .add_run(Run::new().add_text(" text.")),
        )
        .add_paragraph(
            Paragraph::new()
                .add_run(Run::new().add_text("Visible"))
                .add_run(Run::new().add_text(" hidden").vanish()),
        )
        .add_table(Table::new(vec![
            TableRow::new(vec![
                TableCell::new().add_paragraph(para("甲一")),
                TableCell::new()
                    .add_paragraph(para("B1"))
                    .add_paragraph(para("B1 second paragraph")),
            ]),
            TableRow::new(vec![
                TableCell::new().add_paragraph(para("甲二")),
                TableCell::new().add_table(Table::new(vec![TableRow::new(vec![
                    TableCell::new().add_paragraph(para("nested cell"))
                ])])),
            ]),
        ]))
        .add_paragraph(para("A list item").numbering(NumberingId::new(1), IndentLevel::new(0)))
        .add_paragraph(para("Outline level paragraph").outline_lvl(1))
        .add_paragraph(para("Last paragraph."))
}

#[test]
fn builder_document_in_reading_order() {
    let docx = feature_document();
    assert_eq!(
        read(&pack(docx)),
        vec![
            heading("论文题目"),
            heading("第一章 绪论"),
            body("自由软件运动始于一九八三年。"),
            body("Tabs and line breaks."),
            body("Commented text."),
            body("A link and inserted text."),
            body("Visible"),
            table("甲一"),
            table("B1"),
            table("B1 second paragraph"),
            table("甲二"),
            table("nested cell"),
            list("A list item"),
            heading("Outline level paragraph"),
            body("Last paragraph."),
            (BlockKind::Footnote, "脚注：一九八三年九月。".to_string()),
        ]
    );
    // Levels: the title and Heading 1 are level 1, outline level 1 (0-based) is level 2.
    let levels: Vec<Option<u8>> = extract_bytes(
        &pack(feature_document()),
        Some("docx"),
        &ExtractOptions::default(),
    )
    .unwrap()
    .paragraphs
    .iter()
    .filter(|b| b.kind == BlockKind::Heading)
    .map(|b| b.level)
    .collect();
    assert_eq!(levels, [Some(1), Some(1), Some(2)]);
    // The footnote reference is not in the text; where it stands is kept (before the full stop).
    let read = extract_bytes(
        &pack(feature_document()),
        Some("docx"),
        &ExtractOptions::default(),
    )
    .unwrap();
    let noted: Vec<(&str, &[usize])> = read
        .paragraphs
        .iter()
        .filter(|b| !b.notes.is_empty())
        .map(|b| (b.text.as_str(), b.notes.as_slice()))
        .collect();
    assert_eq!(noted, [("自由软件运动始于一九八三年。", &[13][..])]);
}

#[test]
fn table_of_contents_is_left_out() {
    let toc = TableOfContents::new()
        .heading_styles_range(1, 3)
        .alias("Table of contents")
        .add_item(
            TableOfContentsItem::new()
                .text("第一章 绪论")
                .toc_key("_Toc00000000")
                .level(1)
                .page_ref("2"),
        )
        .add_item(
            TableOfContentsItem::new()
                .text("1.1 研究背景")
                .toc_key("_Toc00000001")
                .level(2)
                .page_ref("3"),
        );
    let docx = Docx::new()
        .add_style(Style::new("Heading1", StyleType::Paragraph).name("Heading 1"))
        .add_paragraph(para("目录"))
        .add_table_of_contents(toc)
        .add_paragraph(para("第一章 绪论").style("Heading1"))
        .add_paragraph(para("正文。"));
    assert_eq!(
        read(&pack(docx)),
        vec![body("目录"), heading("第一章 绪论"), body("正文。")]
    );
}

#[test]
fn toc_by_style_and_chinese_heading_styles() {
    let docx = Docx::new()
        .add_style(Style::new("1", StyleType::Paragraph).name("标题 1"))
        .add_style(
            Style::new("MyHeading", StyleType::Paragraph)
                .name("My heading")
                .based_on("1"),
        )
        .add_style(Style::new("10", StyleType::Paragraph).name("toc 1"))
        .add_style(
            Style::new("BodyLevel", StyleType::Paragraph)
                .name("Body level")
                .outline_lvl(9),
        )
        .add_paragraph(para("第一章 绪论 ........ 1").style("10"))
        .add_paragraph(para("第一章 绪论").style("1"))
        .add_paragraph(para("派生标题").style("MyHeading"))
        .add_paragraph(para("正文段落。").style("BodyLevel"));
    assert_eq!(
        read(&pack(docx)),
        vec![
            heading("第一章 绪论"),
            heading("派生标题"),
            body("正文段落。")
        ]
    );
}

#[test]
fn looks_like_docx_uses_the_central_directory() {
    let bytes = pack(Docx::new().add_paragraph(para("x")));
    assert!(looks_like_docx(&bytes));
    // A truncated docx has no central directory but is still recognised, then refused as damaged.
    let cut = &bytes[..bytes.len() / 2];
    assert!(looks_like_docx(cut));
    assert!(matches!(extract(cut), Err(ExtractError::CorruptDocx(_))));
    assert!(matches!(
        extract_bytes(cut, Some("docx"), &ExtractOptions::default()),
        Err(ExtractError::CorruptDocx(_))
    ));
    assert!(!looks_like_docx(&fixture("not-a-docx.zip")));
    assert!(!looks_like_docx(b"PK\x03\x04 not really a zip"));
}

#[test]
fn damaged_and_hostile_fixtures() {
    let options = ExtractOptions::default();
    // A zip of other things named .docx is a damaged Word document; under another name, not one at all.
    assert!(matches!(
        extract_bytes(&fixture("not-a-docx.zip"), Some("docx"), &options),
        Err(ExtractError::CorruptDocx(_))
    ));
    assert!(matches!(
        extract_bytes(&fixture("not-a-docx.zip"), Some("zip"), &options),
        Err(ExtractError::Unsupported(_))
    ));
    assert!(matches!(
        extract(&fixture("not-a-docx.zip")),
        Err(ExtractError::CorruptDocx(_))
    ));
    for name in [
        "truncated.docx",
        "corrupt-document-xml.docx",
        "bad-xml-syntax.docx",
    ] {
        match extract_bytes(&fixture(name), Some("docx"), &options) {
            Err(ExtractError::CorruptDocx(cause)) => eprintln!("{name}: {cause}"),
            other => panic!("{name}: {other:?}"),
        }
    }
    for name in [
        "bomb-declared.docx",
        "bomb-ratio.docx",
        "bomb-lying-size.docx",
    ] {
        match extract_bytes(&fixture(name), Some("docx"), &options) {
            Err(ExtractError::ZipBomb { size, limit }) => {
                assert!(size > limit, "{name}");
                eprintln!("{name}: {size} > {limit}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    // The valid fixture with a content-control table of contents.
    assert_eq!(
        read(&fixture("toc-sdt.docx")),
        vec![
            heading("第一章 绪论"),
            body("正文第一段。"),
            body("Second paragraph.")
        ]
    );
}

/// A real bomb made here: 60 MB of white space in document.xml compresses about 1000:1.
#[test]
fn compression_ratio_bomb_made_in_test() {
    let mut doc = String::from(
        "<?xml version=\"1.0\"?><w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body><w:p><w:r><w:t>x</w:t></w:r></w:p>",
    );
    doc.push_str(&" ".repeat(60 * 1024 * 1024));
    doc.push_str("</w:body></w:document>");
    let bytes = zip_of(&[
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
        ("_rels/.rels", RELS.as_bytes()),
        ("word/document.xml", doc.as_bytes()),
    ]);
    drop(doc);
    assert!(bytes.len() < 300 * 1024, "{}", bytes.len());
    match extract(&bytes) {
        Err(ExtractError::ZipBomb { size, limit }) => assert!(size > limit),
        other => panic!("{:?}", other.map(|b| b.len())),
    }
}

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#;
const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    for (name, data) in entries {
        zip.start_file(*name, options).expect("start_file");
        zip.write_all(data).expect("write");
    }
    zip.finish().expect("finish").into_inner()
}

#[test]
fn minimal_hand_written_package() {
    let doc = r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t xml:space="preserve">Hello, </w:t></w:r><w:smartTag w:uri="urn:x" w:element="place"><w:r><w:t>Beijing</w:t></w:r></w:smartTag><w:r><w:t>.</w:t></w:r></w:p><w:p><w:r><w:t>第二段</w:t></w:r><w:r><w:br/><w:t>换行</w:t></w:r></w:p></w:body></w:document>"#;
    let bytes = zip_of(&[
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
        ("_rels/.rels", RELS.as_bytes()),
        ("word/document.xml", doc.as_bytes()),
    ]);
    assert_eq!(
        read(&bytes),
        vec![body("Hello, Beijing."), body("第二段 换行")]
    );
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let mut doc = String::from(
        r#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>"#,
    );
    let depth = 5000;
    for _ in 0..depth {
        doc.push_str("<w:tbl><w:tr><w:tc>");
    }
    doc.push_str("<w:p><w:r><w:t>deep</w:t></w:r></w:p>");
    for _ in 0..depth {
        doc.push_str("</w:tc></w:tr></w:tbl>");
    }
    doc.push_str("</w:body></w:document>");
    let bytes = zip_of(&[
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
        ("_rels/.rels", RELS.as_bytes()),
        ("word/document.xml", doc.as_bytes()),
    ]);
    assert!(matches!(extract(&bytes), Err(ExtractError::CorruptDocx(_))));

    // Nesting within the limit is read (the reader keeps its own stack: no recursion per level).
    let mut doc = String::from(
        r#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>"#,
    );
    let depth = (package::MAX_XML_DEPTH - 10) / 3;
    for _ in 0..depth {
        doc.push_str("<w:tbl><w:tr><w:tc>");
    }
    doc.push_str("<w:p><w:r><w:t>deep</w:t></w:r></w:p>");
    for _ in 0..depth {
        doc.push_str("</w:tc></w:tr></w:tbl>");
    }
    doc.push_str("</w:body></w:document>");
    let bytes = zip_of(&[
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
        ("_rels/.rels", RELS.as_bytes()),
        ("word/document.xml", doc.as_bytes()),
    ]);
    let blocks = extract(&bytes).expect("deep but legal");
    assert_eq!(blocks.len(), 1);
}

/// Every prefix of a real document (truncation at any point) and single-byte damage anywhere must give
/// an error or blocks, never a panic or a hang.
#[test]
fn no_panic_on_damaged_input() {
    let bytes = pack(
        Docx::new()
            .add_paragraph(para("第一段。"))
            .add_table(Table::new(vec![TableRow::new(vec![
                TableCell::new().add_paragraph(para("cell"))
            ])]))
            .add_paragraph(para("Last.")),
    );
    let step = (bytes.len() / 200).max(1);
    for cut in (0..bytes.len()).step_by(step) {
        let _ = extract(&bytes[..cut]);
    }
    for pos in (0..bytes.len()).step_by(step) {
        let mut damaged = bytes.clone();
        damaged[pos] ^= 0x5a;
        let _ = extract(&damaged);
    }
}

/// The eval-dev benchmark: each .docx must give exactly its truth paragraphs (whitespace ignored).
#[test]
fn eval_dev_docx_files() {
    let Some(dir) = tongwen_testdata::eval_dev_for("eval_dev_docx_files") else {
        return;
    };
    let truth = std::fs::read(dir.join("truth.json")).expect("eval-dev's truth.json");
    let truth: serde_json::Value = serde_json::from_slice(&truth).expect("truth.json");
    let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let (mut checked, mut failures) = (0, Vec::new());
    for section in ["library", "queries"] {
        let entries = truth[section].as_object().expect("truth section");
        for (name, entry) in entries {
            if !name.ends_with(".docx") {
                continue;
            }
            let bytes = std::fs::read(dir.join(name)).expect("eval-dev file");
            let got: Vec<String> =
                match extract_bytes(&bytes, Some("docx"), &ExtractOptions::default()) {
                    Ok(ex) => ex.paragraphs.iter().map(|b| squash(&b.text)).collect(),
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
                continue;
            }
            let want: Vec<String> = entry["paragraphs"]
                .as_array()
                .expect("paragraphs")
                .iter()
                .map(|p| squash(p["text"].as_str().expect("text")))
                .collect();
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
    eprintln!("eval-dev: {checked} .docx files checked");
    assert!(
        failures.is_empty(),
        "{} failures; first: {}",
        failures.len(),
        failures[0]
    );
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const NAMES: &[&str] = &[
    "w:p",
    "w:r",
    "w:t",
    "w:tbl",
    "w:tr",
    "w:tc",
    "w:sdt",
    "w:sdtContent",
    "w:sdtPr",
    "w:hyperlink",
    "w:ins",
    "w:del",
    "w:delText",
    "w:moveFrom",
    "w:moveTo",
    "w:fldChar",
    "w:instrText",
    "w:drawing",
    "w:txbxContent",
    "w:br",
    "w:tab",
    "mc:AlternateContent",
    "mc:Choice",
    "mc:Fallback",
    "w:pPr",
    "w:rPr",
    "w:pStyle",
    "w:outlineLvl",
    "w:smartTag",
    "w:fldSimple",
    "w:customXml",
    "w:bookmarkStart",
    "w:bookmarkEnd",
    "w:commentRangeStart",
    "w:commentRangeEnd",
    "w:numPr",
    "w:ilvl",
    "w:numId",
    "w:tblPr",
    "w:tblGrid",
    "w:gridCol",
    "w:tcPr",
    "w:vMerge",
    "w:gridSpan",
    "w:sectPr",
    "w:body",
    "wp:anchor",
    "wp:inline",
    "a:graphic",
    "a:graphicData",
    "wps:wsp",
    "wps:txbx",
    "v:shape",
    "v:textbox",
    "w:pict",
    "w:sym",
    "w:ptab",
    "w:cr",
    "w:footnoteReference",
    "w:vanish",
    "w:rStyle",
    "w:rPrChange",
    "w:pPrChange",
    "w:tblPrChange",
    "w:trPr",
    "w:tblW",
    "w:jc",
    "w:ind",
    "w:spacing",
    "m:oMath",
    "m:r",
    "m:t",
    "w:object",
    "w:noBreakHyphen",
    "w:softHyphen",
    "w:lastRenderedPageBreak",
];
const ATTRS: &[&str] = &[
    "",
    " w:val=\"1\"",
    " w:val=\"Heading1\"",
    " w:fldCharType=\"begin\"",
    " w:fldCharType=\"end\"",
    " w:fldCharType=\"separate\"",
    " w:type=\"page\"",
    " w:id=\"0\"",
    " w:id=\"x\"",
    " w:val=\"-1\"",
    " w:val=\"99999999999999999999\"",
    " r:id=\"rId1\"",
    " w:instr=\"TOC\"",
    " w:val=\"restart\"",
    " w:w=\"abc\"",
    " w:char=\"F020\" w:font=\"Symbol\"",
    " w:author=\"a\" w:date=\"x\"",
];

fn element(rng: &mut Rng, depth: usize, out: &mut String) {
    let name = NAMES[rng.below(NAMES.len())];
    let attr = ATTRS[rng.below(ATTRS.len())];
    out.push('<');
    out.push_str(name);
    out.push_str(attr);
    if depth > 12 || rng.below(4) == 0 {
        out.push_str("/>");
        return;
    }
    out.push('>');
    for _ in 0..rng.below(5) {
        match rng.below(4) {
            0 => out.push_str("text &amp; &lt;x&gt; 文字 "),
            1 => out.push_str("TOC \\o \"1-3\""),
            _ => element(rng, depth + 1, out),
        }
    }
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// Random but well-formed WordprocessingML (elements Word writes, nested anyhow, odd attribute values)
/// must always be read without panicking or hanging.
/// `FUZZ_CASES` sets the number of documents (default 300).
#[test]
fn random_well_formed_documents_are_read() {
    let ns = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="x" xmlns:wp="y" xmlns:a="z" xmlns:wps="q" xmlns:v="v" xmlns:r="r" xmlns:m="m""#;
    let cases: usize = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let mut rng = Rng(0x9e3779b97f4a7c15);
    for case in 0..cases {
        let mut body = String::new();
        for _ in 0..(1 + rng.below(6)) {
            element(&mut rng, 0, &mut body);
        }
        let doc = format!(
            r#"<?xml version="1.0"?><w:document {ns}><w:body>{body}</w:body></w:document>"#
        );
        let bytes = zip_of(&[
            ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
            ("_rels/.rels", RELS.as_bytes()),
            ("word/document.xml", doc.as_bytes()),
        ]);
        let (tx, rx) = std::sync::mpsc::channel();
        let b2 = bytes.clone();
        std::thread::spawn(move || {
            let _ = tx.send(extract(&b2).map(|b| b.len()));
        });
        match rx.recv_timeout(std::time::Duration::from_secs(20)) {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => panic!("case {case}: {e}\n{doc}"),
            Err(_) => panic!("case {case} hangs:\n{doc}"),
        }
    }
}

/// What each eval-dev .docx gives, kinds included, pinned as a digest of its blocks (`kind<TAB>text`, one a
/// line) and their number. The digests were taken from the docx-rs model walk this reader replaced, so
/// they hold the reader to what it gave on real documents (the truth file has only paragraph counts for
/// the library, and no kinds).
const EVAL_DEV_DIGESTS: &[(&str, u64, usize)] = &[
    ("library/debian-faq-en-015.docx", 0x82ffb973b290366f, 8),
    ("library/debian-faq-zh-cn-006.docx", 0x9ba16d1783666c7c, 10),
    ("library/debian-faq-zh-cn-009.docx", 0xdb94e13cd5d1d156, 7),
    ("library/debian-faq-zh-cn-012.docx", 0xa8a64a25a1e0a230, 12),
    ("library/debian-faq-zh-cn-013.docx", 0xae84873ec376e952, 10),
    ("library/debian-policy-016.docx", 0x7df6658a6c8fff7a, 8),
    ("library/debian-policy-020.docx", 0x2f869a6a14e14343, 15),
    (
        "library/gnome-user-docs-zh-cn-002.docx",
        0x046c0c54a10a265a,
        10,
    ),
    (
        "library/gnome-user-docs-zh-cn-013.docx",
        0xd0242a7835b228d0,
        6,
    ),
    ("library/kicad-doc-en-004.docx", 0xdc441678dfdc2f82, 9),
    ("library/maint-guide-zh-cn-016.docx", 0xec01b910ac63fe22, 7),
    ("library/manpages-zh-015.docx", 0x8607e6351aedae91, 9),
    ("library/manpages-zh-016.docx", 0x5258f2176b8f252d, 9),
    ("library/manpages-zh-022.docx", 0x2c84419c97144872, 5),
    ("library/manpages-zh-042.docx", 0xb9b2b6aece0fb4b0, 8),
    ("library/manpages-zh-044.docx", 0xcdc14f0cfb460b95, 42),
    ("library/manpages-zh-046.docx", 0x3a14c2df9eef1d8c, 7),
    ("library/manpages-zh-047.docx", 0x8e5216d253a01e13, 8),
    ("library/manpages-zh-049.docx", 0x618c7b42ee72969f, 14),
    ("library/manpages-zh-053.docx", 0x0b87d1d5b4ca90be, 11),
    ("library/manpages-zh-064.docx", 0x1c43c4ca9ababa9d, 10),
    ("library/manpages-zh-076.docx", 0xa3c7ab6d4fb23729, 11),
    ("library/manpages-zh-080.docx", 0x17d9ea50ec2c4c49, 8),
    ("library/manpages-zh-085.docx", 0xd7b629582e56de91, 20),
    ("library/manpages-zh-109.docx", 0x2e779406261d6bc7, 20),
    ("library/manpages-zh-111.docx", 0x5dd08d90050de523, 33),
    ("library/manpages-zh-112.docx", 0x203c8101817eedbf, 11),
    ("library/manpages-zh-123.docx", 0x4c7899ce604e5f3c, 26),
    ("library/manpages-zh-129.docx", 0xd49601a54ae03e86, 12),
    ("library/manpages-zh-135.docx", 0xc677f218fdf1fd06, 9),
    ("queries/q012.docx", 0xe66f78dc0d01bfcf, 20),
    ("queries/q014.docx", 0xe79dc7a86e771524, 16),
    ("queries/q025.docx", 0x9d0c0e0a7cc52aaa, 9),
    ("queries/q035.docx", 0x3074a305a2c3f10f, 20),
    ("queries/q042.docx", 0xa155d686f35accf2, 15),
    ("queries/q049.docx", 0xc86c2b33ea924b4f, 18),
    ("queries/q069.docx", 0xbc095ae12934e172, 17),
    ("queries/q071.docx", 0x1eb2b98ed08c62af, 12),
];

fn digest(blocks: &[Block]) -> u64 {
    let mut s = String::new();
    for b in blocks {
        s.push_str(&format!("{:?}\t{}\n", b.kind, b.text));
    }
    xxhash_rust::xxh3::xxh3_64(s.as_bytes())
}

#[test]
fn eval_dev_docx_outputs_are_pinned() {
    let Some(dir) = tongwen_testdata::eval_dev_for("eval_dev_docx_outputs_are_pinned") else {
        return;
    };
    let mut failures = Vec::new();
    for &(name, want, count) in EVAL_DEV_DIGESTS {
        let bytes = std::fs::read(dir.join(name)).expect("eval-dev file");
        let got = extract_bytes(&bytes, Some("docx"), &ExtractOptions::default())
            .expect("extract")
            .paragraphs;
        if digest(&got) != want || got.len() != count {
            failures.push(format!(
                "{name}: {} blocks, digest {:#018x}; want {count}, {want:#018x}",
                got.len(),
                digest(&got)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const W_NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:v="urn:schemas-microsoft-com:vml""#;

/// Constructs written by Word that the builder cannot make: a TOC field spanning paragraphs, a text box
/// with its VML fallback, a simple field, hidden text, a non-breaking hyphen, tracked moves.
fn hand_written_document() -> Vec<u8> {
    let text_box = r#"<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:extent cx="100" cy="100"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:txbx><w:txbxContent><w:p><w:r><w:t>文本框里的文字。</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>文本框里的文字。</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>"#;
    let body = format!(
        r#"<w:p><w:pPr><w:pStyle w:val="TOC1"/></w:pPr><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \o "1-3" \h \z \u </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:hyperlink w:anchor="_Toc1"><w:r><w:t>第一章 绪论</w:t></w:r><w:r><w:tab/></w:r><w:r><w:t>1</w:t></w:r></w:hyperlink></w:p>
<w:p><w:hyperlink w:anchor="_Toc2"><w:r><w:t>第二章 方法</w:t></w:r></w:hyperlink></w:p>
<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>第一章 绪论</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">锚定段落</w:t></w:r>{text_box}<w:r><w:t>。</w:t></w:r></w:p>
<w:p><w:fldSimple w:instr=" DATE "><w:r><w:t>2024-01-01</w:t></w:r></w:fldSimple><w:r><w:t xml:space="preserve"> e</w:t></w:r><w:r><w:noBreakHyphen/><w:t>mail, </w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden </w:t></w:r><w:moveFrom><w:r><w:t>moved away </w:t></w:r></w:moveFrom><w:moveTo><w:r><w:t>moved here</w:t></w:r></w:moveTo><w:r><w:t>.</w:t></w:r></w:p>"#
    );
    let doc = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:document {W_NS}><w:body>{body}<w:sectPr/></w:body></w:document>"#
    );
    let styles = r#"<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style><w:style w:type="paragraph" w:styleId="TOC1"><w:name w:val="toc 1"/></w:style></w:styles>"#;
    let doc_rels = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#;
    zip_of(&[
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
        ("_rels/.rels", RELS.as_bytes()),
        ("word/_rels/document.xml.rels", doc_rels.as_bytes()),
        ("word/document.xml", doc.as_bytes()),
        ("word/styles.xml", styles.as_bytes()),
    ])
}

#[test]
fn hand_written_word_constructs() {
    let bytes = hand_written_document();
    let want = vec![
        heading("第一章 绪论"),
        body("锚定段落。"),
        body("文本框里的文字。"),
        body("2024-01-01 e-mail, moved here."),
    ];
    assert_eq!(read(&bytes), want);
}

/// A TOC field that is never closed must not swallow the document.
#[test]
fn unclosed_toc_field_does_not_hide_the_document() {
    let doc = format!(
        r#"<?xml version="1.0"?><w:document {W_NS}><w:body><w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>TOC \o</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>目录项</w:t></w:r></w:p><w:p><w:r><w:t>正文。</w:t></w:r></w:p></w:body></w:document>"#
    );
    let bytes = zip_of(&[
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
        ("_rels/.rels", RELS.as_bytes()),
        ("word/document.xml", doc.as_bytes()),
    ]);
    let want = vec![body("目录项"), body("正文。")];
    assert_eq!(read(&bytes), want);
}

/// A package of one main document part (and optionally a styles part).
fn package_of(document: &str, styles: Option<&str>) -> Vec<u8> {
    let doc_rels = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#;
    let mut entries: Vec<(&str, &[u8])> = vec![
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
        ("_rels/.rels", RELS.as_bytes()),
        ("word/document.xml", document.as_bytes()),
    ];
    if let Some(styles) = styles {
        entries.push(("word/_rels/document.xml.rels", doc_rels.as_bytes()));
        entries.push(("word/styles.xml", styles.as_bytes()));
    }
    zip_of(&entries)
}

/// docx-rs's document model refuses a whole document for one value it cannot parse (here a font size
/// written with its unit, `10.5pt`, instead of half-points) and panics on others (`w:highlight` without
/// a value); the reader reads all of it. A non-numeric outline level is ignored: the paragraph is body
/// text, or a heading by its style.
#[test]
fn document_docx_rs_refuses_is_read_fully() {
    use docx_rs::FromXML;
    let doc = format!(
        r#"<?xml version="1.0"?><w:document {W_NS}><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>第一章 绪论</w:t></w:r></w:p><w:p><w:pPr><w:outlineLvl w:val="one"/></w:pPr><w:r><w:rPr><w:sz w:val="10.5pt"/></w:rPr><w:t>大纲级别写错的段落。</w:t></w:r></w:p><w:p><w:pPr><w:pStyle w:val="Heading1"/><w:outlineLvl w:val="一"/></w:pPr><w:r><w:t>第二章 方法</w:t></w:r></w:p><w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r><w:t>2.1 研究背景</w:t></w:r></w:p><w:p><w:r><w:rPr><w:highlight/></w:rPr><w:t>正文最后一段。</w:t></w:r></w:p></w:body></w:document>"#
    );
    let refused = |xml: &str| {
        std::panic::catch_unwind(|| docx_rs::Document::from_xml(xml.as_bytes()))
            .map_or(true, |parsed| parsed.is_err())
    };
    assert!(refused(&doc), "docx-rs now reads this document");
    assert!(refused(&doc.replace("<w:highlight/>", "")));
    assert!(refused(&doc.replace(r#"<w:sz w:val="10.5pt"/>"#, "")));
    let styles = r#"<?xml version="1.0"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>"#;
    assert_eq!(
        read(&package_of(&doc, Some(styles))),
        vec![
            heading("第一章 绪论"),
            body("大纲级别写错的段落。"),
            heading("第二章 方法"),
            heading("2.1 研究背景"),
            body("正文最后一段。"),
        ]
    );
}

/// Rules the docx-rs model walk did not apply (docx-rs read these constructs differently or not at
/// all), now applied by the one reader.
#[test]
fn rules_beyond_the_docx_rs_model() {
    let wsp = |text: &str| {
        format!(
            r#"<wps:wsp><wps:txbx><w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp>"#
        )
    };
    let parts: Vec<String> = vec![
        // A run hidden with w:vanish turned off is shown.
        r#"<w:p><w:r><w:rPr><w:vanish w:val="0"/></w:rPr><w:t>Shown</w:t></w:r><w:r><w:rPr><w:vanish w:val="false"/></w:rPr><w:t xml:space="preserve"> too.</w:t></w:r></w:p>"#.into(),
        // A VML text box outside mc:AlternateContent (documents converted from .doc).
        r#"<w:p><w:r><w:t>VML anchor.</w:t></w:r><w:r><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>VML box.</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>"#.into(),
        // A group of two text boxes: both are read.
        format!(
            r#"<w:p><w:r><w:t>Group anchor.</w:t></w:r><w:r><w:drawing><wp:anchor><a:graphic><a:graphicData><wpg:wgp>{}{}</wpg:wgp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r></w:p>"#,
            wsp("First box."),
            wsp("Second box.")
        ),
        // A text box anchored in a hidden run is hidden with it.
        format!(
            r#"<w:p><w:r><w:t>Hidden box anchor.</w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:drawing><wp:anchor><a:graphic><a:graphicData>{}</a:graphicData></a:graphic></wp:anchor></w:drawing></w:r></w:p>"#,
            wsp("Hidden box.")
        ),
        // A table-of-contents content control inside a table cell.
        r#"<w:tbl><w:tr><w:tc><w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/></w:docPartObj></w:sdtPr><w:sdtContent><w:p><w:r><w:t>目录项 1</w:t></w:r></w:p></w:sdtContent></w:sdt><w:p><w:r><w:t>Cell.</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"#.into(),
        // Runs written directly in a block-level content control: a paragraph after its paragraphs.
        r#"<w:sdt><w:sdtContent><w:r><w:t>Loose run.</w:t></w:r><w:p><w:r><w:t>Control paragraph.</w:t></w:r></w:p></w:sdtContent></w:sdt>"#.into(),
        // Old properties of tracked changes: neither the old heading style nor the old hidden flag count.
        r#"<w:p><w:pPr><w:pPrChange w:id="1"><w:pPr><w:pStyle w:val="Heading1"/></w:pPr></w:pPrChange></w:pPr><w:r><w:rPr><w:rPrChange w:id="2"><w:rPr><w:vanish/></w:rPr></w:rPrChange></w:rPr><w:t>Formerly a hidden heading.</w:t></w:r></w:p>"#.into(),
        // mc:AlternateContent around runs: the choice once, not its fallback again.
        r#"<w:p><mc:AlternateContent><mc:Choice Requires="w14"><w:r><w:t>Chosen.</w:t></w:r></mc:Choice><mc:Fallback><w:r><w:t>Chosen.</w:t></w:r></mc:Fallback></mc:AlternateContent></w:p>"#.into(),
        // A deleted inline content control and a hidden tab.
        r#"<w:p><w:r><w:t>A</w:t></w:r><w:del><w:sdt><w:sdtContent><w:r><w:delText>gone</w:delText></w:r></w:sdtContent></w:sdt></w:del><w:r><w:rPr><w:vanish/></w:rPr><w:tab/></w:r><w:r><w:t>B</w:t></w:r></w:p>"#.into(),
    ];
    let content = parts.concat();
    let doc = format!(
        r#"<?xml version="1.0"?><w:document {W_NS} xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"><w:body>{content}<w:sectPr/></w:body></w:document>"#
    );
    let styles = r#"<?xml version="1.0"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>"#;
    assert_eq!(
        read(&package_of(&doc, Some(styles))),
        vec![
            body("Shown too."),
            body("VML anchor."),
            body("VML box."),
            body("Group anchor."),
            body("First box."),
            body("Second box."),
            body("Hidden box anchor."),
            table("Cell."),
            body("Control paragraph."),
            body("Loose run."),
            body("Formerly a hidden heading."),
            body("Chosen."),
            body("AB"),
        ]
    );
}

/// The WordprocessingML prefix is whatever the root declares (here `ns0`, as some converters write, and
/// a default namespace); elements of other namespaces with the local names Word uses are not read.
#[test]
fn any_prefix_for_wordprocessingml() {
    let w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
    let doc = format!(
        r#"<?xml version="1.0"?><ns0:document xmlns:ns0="{w}" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><ns0:body><ns0:p><ns0:r><ns0:t>Prefixed</ns0:t></ns0:r><m:oMath><m:r><m:t>x</m:t></m:r></m:oMath><ns0:r><ns0:tab/><ns0:t>text.</ns0:t></ns0:r></ns0:p></ns0:body></ns0:document>"#
    );
    assert_eq!(read(&package_of(&doc, None)), vec![body("Prefixed text.")]);
    let doc = format!(
        r#"<?xml version="1.0"?><document xmlns="{w}"><body><p><pPr><outlineLvl val="0"/></pPr><r><t>Default namespace</t></r></p></body></document>"#
    );
    assert_eq!(
        read(&package_of(&doc, None)),
        vec![heading("Default namespace")]
    );
}

/// A document part one byte longer than its zip directory says is a damaged file, not a zip bomb: the
/// message says what is wrong.
#[test]
fn an_entry_longer_than_declared_is_damaged_not_a_bomb() {
    let doc = r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>第一段文字。</w:t></w:r></w:p></w:body></w:document>"#;
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in [
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
        ("_rels/.rels", RELS.as_bytes()),
        ("word/document.xml", doc.as_bytes()),
    ] {
        zip.start_file(name, options).expect("start_file");
        zip.write_all(data).expect("write");
    }
    let mut bytes = zip.finish().expect("finish").into_inner();
    assert_eq!(read(&bytes), vec![body("第一段文字。")]);
    // Declare one byte less for word/document.xml, in its local header and in the central directory.
    let name = b"word/document.xml";
    let declared = (doc.len() as u32 - 1).to_le_bytes();
    let mut patched = 0;
    for (signature, size_at, name_at) in [(b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)] {
        let starts: Vec<usize> = (0..bytes.len() - 4)
            .filter(|&i| &bytes[i..i + 4] == signature)
            .collect();
        for i in starts {
            if bytes.get(i + name_at..i + name_at + name.len()) == Some(&name[..]) {
                bytes[i + size_at..i + size_at + 4].copy_from_slice(&declared);
                patched += 1;
            }
        }
    }
    assert_eq!(patched, 2);
    match extract(&bytes) {
        Err(ExtractError::CorruptDocx(cause)) => {
            assert!(
                cause.contains("more data than its zip directory declares"),
                "{cause}"
            )
        }
        other => panic!("{other:?}"),
    }
}

/// The styles parts of eval-dev's Word files.
fn eval_dev_styles_parts(test: &str) -> Option<Vec<Vec<u8>>> {
    let dir = tongwen_testdata::eval_dev_for(test)?;
    let mut parts = Vec::new();
    for sub in ["library", "queries"] {
        let mut files: Vec<_> = std::fs::read_dir(dir.join(sub))
            .expect("eval-dev folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "docx"))
            .collect();
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).expect("read docx");
            if let Some(styles) = super::package::check(&bytes).expect("a package").styles {
                parts.push(styles);
            }
        }
    }
    assert!(!parts.is_empty(), "no Word file in eval-dev");
    Some(parts)
}

#[test]
fn styles_streamed_equal_the_docx_rs_model_on_eval_dev() {
    let Some(parts) = eval_dev_styles_parts("styles_streamed_equal_the_docx_rs_model_on_eval_dev")
    else {
        return;
    };
    for part in &parts {
        let streamed = super::styles::StyleMap::from_part(Some(part));
        assert_eq!(streamed, super::styles::StyleMap::from_docx_rs(part));
    }
}

/// A benchmark, not a check: `cargo test --release -p tongwen-extract -- --ignored docx_styles
/// --nocapture` prints how much faster streaming the styles part is than building docx-rs's model.
#[test]
#[ignore = "a benchmark: run by hand in release"]
fn docx_styles_streaming_against_docx_rs() {
    let Some(parts) = eval_dev_styles_parts("docx_styles_streaming_against_docx_rs") else {
        return;
    };
    let time = |f: &dyn Fn(&[u8])| {
        let start = std::time::Instant::now();
        for _ in 0..5 {
            for part in &parts {
                f(part);
            }
        }
        start.elapsed().as_secs_f64() / 5.0
    };
    // Before: the part scanned for well-formedness (xml-rs), then docx-rs's model built.
    let model = time(&|p| {
        drop(super::package::scan_xml(&mut &p[..]));
        drop(super::styles::StyleMap::from_docx_rs(p));
    });
    let streamed = time(&|p| drop(super::styles::StyleMap::from_part(Some(p))));
    let bytes: usize = parts.iter().map(Vec::len).sum();
    println!(
        "{} styles parts, {:.1} MB: scanned and docx-rs model {:.1} ms, streamed {:.1} ms: {:.1}x",
        parts.len(),
        bytes as f64 / 1e6,
        model * 1e3,
        streamed * 1e3,
        model / streamed
    );
    // The whole files: read as now, and as before (the model in place of the stream).
    let dir =
        tongwen_testdata::eval_dev_for("docx_styles_streaming_against_docx_rs").expect("eval-dev");
    let files: Vec<Vec<u8>> = ["library", "queries"]
        .iter()
        .flat_map(|sub| std::fs::read_dir(dir.join(sub)).expect("folder"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "docx"))
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    let start = std::time::Instant::now();
    for _ in 0..5 {
        for f in &files {
            drop(extract_bytes(f, Some("docx"), &ExtractOptions::default()));
        }
    }
    let whole = start.elapsed().as_secs_f64() / 5.0;
    println!(
        "{} Word files read whole: {:.1} ms now, {:.1} ms with the scan and the model: {:.1}x",
        files.len(),
        whole * 1e3,
        (whole - streamed + model) * 1e3,
        (whole - streamed + model) / whole
    );
}

#[test]
fn a_styles_part_that_is_not_well_formed_gives_no_styles() {
    use super::styles::{Role, StyleMap};
    let good = br#"<w:styles xmlns:w="w"><w:style w:type="paragraph" w:styleId="H1"><w:name w:val="heading 1"/></w:style><w:style w:type="character" w:styleId="C"><w:name w:val="heading 2"/></w:style></w:styles>"#;
    assert_eq!(
        StyleMap::from_part(Some(good)).role_of(Some("H1"), None),
        Role::Heading(Some(1))
    );
    assert_eq!(
        StyleMap::from_part(Some(good)).role_of(Some("C"), None),
        Role::Body
    );
    for bad in [
        &br#"<w:styles><w:style w:styleId="H1"><w:name w:val="heading 1"/></w:style>"#[..],
        br#"<w:styles><w:style w:styleId="H1"><w:name w:val="heading 1"/></w:styles>"#,
        br#"<a/><w:styles><w:style w:styleId="H1"><w:name w:val="heading 1"/></w:style></w:styles>"#,
    ] {
        assert_eq!(StyleMap::from_part(Some(bad)), StyleMap::default(), "{:?}", std::str::from_utf8(bad));
    }
    let deep = format!("{}{}", "<a>".repeat(300), "</a>".repeat(300));
    assert_eq!(
        StyleMap::from_part(Some(deep.as_bytes())),
        StyleMap::default()
    );
}

/// A styles part read once is reused for the next document whose part has the same stored bytes, and
/// only for such a document: one whose part differs in anything, even keeping its size, is read itself.
#[test]
fn styles_parts_are_reused_only_for_the_same_stored_part() {
    let doc = format!(
        r#"<?xml version="1.0"?><w:document {W_NS}><w:body><w:p><w:pPr><w:pStyle w:val="Chapter"/></w:pPr><w:r><w:t>第一章 重用样式</w:t></w:r></w:p><w:p><w:r><w:t>正文。</w:t></w:r></w:p></w:body></w:document>"#
    );
    // The same style id, a heading in one part and body text in the other (same length: "0" and "9"
    // are outline levels 1 and none).
    let part = |level: char| {
        format!(
            r#"<?xml version="1.0"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:styleId="Chapter"><w:name w:val="Chapter"/><w:pPr><w:outlineLvl w:val="{level}"/></w:pPr></w:style></w:styles>"#
        )
    };
    let (as_heading, as_body) = (part('0'), part('9'));
    assert_eq!(as_heading.len(), as_body.len());
    let with_heading = package_of(&doc, Some(&as_heading));
    let with_body = package_of(&doc, Some(&as_body));
    let headed = vec![heading("第一章 重用样式"), body("正文。")];
    let plain = vec![body("第一章 重用样式"), body("正文。")];
    assert_eq!(read(&with_heading), headed);
    // Remembered by the part's identity...
    let key = super::package::check(&with_heading)
        .expect("a package")
        .styles_key
        .expect("a styles part");
    assert!(super::styles::known(key).is_some());
    // ...which the other part does not share.
    let other = super::package::check(&with_body)
        .expect("a package")
        .styles_key
        .expect("a styles part");
    assert_ne!(key, other);
    for _ in 0..2 {
        assert_eq!(read(&with_body), plain);
        assert_eq!(read(&with_heading), headed);
    }
    // A package reusing the remembered styles does not unpack its part.
    let (reused, known) =
        super::package::check_reusing(&with_heading, super::styles::known).unwrap();
    assert!(reused.styles.is_none() && known.is_some());
}
