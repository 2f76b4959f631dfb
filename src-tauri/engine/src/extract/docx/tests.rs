//! Tests for the Word reader: documents built with docx-rs's builder, damaged and hostile packages from
//! `tests/fixtures/docx/` and made here, and the eval-dev benchmark's .docx files.

use std::io::{Cursor, Write};

use docx_rs::{
    BreakType, Comment, Delete, Docx, Footer, Footnote, Header, Hyperlink, HyperlinkType,
    IndentLevel, Insert, NumberingId, Paragraph, Run, Style, StyleType, Table, TableCell,
    TableOfContents, TableOfContentsItem, TableRow,
};

use super::*;
use crate::extract::{extract_bytes, BlockKind, ExtractOptions, Format};

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
                            Footnote::new().add_content(para("脚注内容不应出现")),
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
            body("甲一"),
            body("B1"),
            body("B1 second paragraph"),
            body("甲二"),
            body("nested cell"),
            body("A list item"),
            heading("Outline level paragraph"),
            body("Last paragraph."),
        ]
    );
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

    // Nesting within the limit is read (and needs the reader thread's large stack).
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
    let dir = eval_dev_dir();
    let Ok(truth) = std::fs::read(dir.join("truth.json")) else {
        eprintln!("eval-dev not found at {}; skipped", dir.display());
        return;
    };
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

/// Random but well-formed WordprocessingML (elements docx-rs knows, nested anyhow, odd attribute values)
/// must always be read, by docx-rs or by the streaming fallback, without panicking or hanging.
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

type Cleaned = Vec<(BlockKind, String)>;

/// Both readers of a package, cleaned as `finish` cleans them: (docx-rs walk, streaming reader).
fn both_readers(bytes: &[u8]) -> (Cleaned, Cleaned) {
    use docx_rs::FromXML;
    let package = package::check(bytes).expect("package");
    let styles = package
        .styles
        .as_deref()
        .and_then(|s| docx_rs::Styles::from_xml(s).ok())
        .unwrap_or_default();
    let styles = body::StyleMap::new(&styles);
    let escaped = package::prepare_for_docx_rs(&package.document);
    let document = docx_rs::Document::from_xml(&escaped[..]).expect("docx-rs");
    let clean = |blocks: Vec<Block>| {
        blocks
            .into_iter()
            .map(|b| (b.kind, crate::extract::clean_paragraph(&b.text)))
            .filter(|(_, t)| !t.is_empty())
            .collect::<Vec<_>>()
    };
    (
        clean(body::blocks(&document, &styles, &package.toc_sdts)),
        clean(stream::blocks(
            &package.document,
            &styles,
            &package.toc_sdts,
        )),
    )
}

/// The streaming fallback gives what the docx-rs walk gives, on the builder documents, the fixtures and
/// eval-dev.
#[test]
fn streaming_reader_agrees_with_docx_rs() {
    let mut documents: Vec<(String, Vec<u8>)> = vec![
        ("builder".into(), pack(feature_document())),
        ("toc-sdt.docx".into(), fixture("toc-sdt.docx")),
    ];
    let dir = eval_dev_dir();
    for sub in ["library", "queries"] {
        if let Ok(entries) = std::fs::read_dir(dir.join(sub)) {
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "docx") {
                    if let Ok(bytes) = std::fs::read(&path) {
                        documents.push((path.display().to_string(), bytes));
                    }
                }
            }
        }
    }
    for (name, bytes) in &documents {
        let (walked, streamed) = both_readers(bytes);
        assert_eq!(walked, streamed, "{name}");
    }
    eprintln!("{} documents agree", documents.len());
}

fn eval_dev_dir() -> std::path::PathBuf {
    std::env::var_os("TONGWEN_EVAL_DEV")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/eval-dev")
        })
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
    let (walked, streamed) = both_readers(&bytes);
    assert_eq!(walked, want);
    assert_eq!(streamed, want);
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
    let (walked, streamed) = both_readers(&bytes);
    assert_eq!(walked, want);
    assert_eq!(streamed, want);
}
