use super::join::{join, BreakSpace, Vocabulary};
use super::lines::{fix_reading_order, Line, PageLines};
use super::running::is_page_number;
use super::*;
use crate::BlockKind;

fn line(text: &str, x0: f64, x1: f64, y: f64) -> Line {
    Line {
        text: text.to_string(),
        x0,
        x1,
        y,
        size: 11.0,
        first_unit: 30.0,
        space: 3.0,
        chars: text.chars().filter(|c| !c.is_whitespace()).count(),
        leading: String::new(),
        trailing: String::new(),
        element_first: 0,
        element_last: 0,
        cell: None,
    }
}

#[test]
fn joins_lines() {
    let mut vocab = Vocabulary::default();
    vocab.words.insert("example".into());
    let mut s = String::from("an exam-");
    join(&mut s, "ple here", &BreakSpace::Unknown, &vocab);
    assert_eq!(s, "an example here");
    let mut s = String::from("dpkg-");
    join(&mut s, "buildpackage", &BreakSpace::Unknown, &vocab);
    assert_eq!(s, "dpkg-buildpackage");
    let mut s = String::from("(0-");
    join(&mut s, "9A-Z)", &BreakSpace::Unknown, &vocab);
    assert_eq!(s, "(0-9A-Z)");
    vocab.justified = true;
    let mut s = String::from("manip-");
    join(&mut s, "ulation", &BreakSpace::Unknown, &vocab);
    assert_eq!(s, "manipulation");
    let mut s = String::from("Debian-");
    join(&mut s, "based", &BreakSpace::Unknown, &vocab);
    assert_eq!(s, "Debian-based");
    let mut s = String::from("中文");
    join(&mut s, "文本", &BreakSpace::Unknown, &vocab);
    assert_eq!(s, "中文文本");
    let mut s = String::from("word");
    join(&mut s, "next", &BreakSpace::Unknown, &vocab);
    assert_eq!(s, "word next");
}

#[test]
fn justified_text_hyphenates_only_with_evidence() {
    let page = |texts: &[&str]| PageLines {
        width: 612.0,
        height: 792.0,
        lines: texts
            .iter()
            .enumerate()
            .map(|(i, t)| line(t, 90.0, 522.0, 700.0 - 14.0 * i as f64))
            .collect(),
    };
    // A word processor that justifies without hyphenating: the line-end hyphen is real.
    let plain = page(&["install apt-", "listchanges to read the news"]);
    let vocab = Vocabulary::build(std::slice::from_ref(&plain), true);
    assert!(!vocab.justified);
    let mut s = String::from("install apt-");
    join(&mut s, "listchanges to read", &BreakSpace::Unknown, &vocab);
    assert_eq!(s, "install apt-listchanges to read");
    // A typesetter that hyphenates: one split word is spelled whole elsewhere.
    let typeset = page(&[
        "the manip-",
        "ulation of packages; manipulation again; apt-",
        "listchanges",
    ]);
    let vocab = Vocabulary::build(std::slice::from_ref(&typeset), true);
    assert!(vocab.justified);
    // Without justification there is no hyphenation at all.
    assert!(!Vocabulary::build(std::slice::from_ref(&typeset), false).justified);
}

#[test]
fn page_numbers() {
    for t in [
        "12",
        "- 12 -",
        "xii",
        "Page 3",
        "3 / 10",
        "第 3 页",
        "Page 3 of 10",
    ] {
        assert!(is_page_number(t), "{t}");
    }
    for t in ["1990 was a year", "Chapter", "mixed", "vivid"] {
        assert!(!is_page_number(t), "{t}");
    }
}

#[test]
fn paragraphs_from_geometry() {
    let body = |y: f64, text: &str, x1: f64| line(text, 90.0, x1, y);
    let page = PageLines {
        width: 612.0,
        height: 792.0,
        lines: vec![
            body(700.0, "first paragraph line one", 522.0),
            body(685.0, "first paragraph line two", 521.5),
            body(670.0, "ends short.", 300.0),
            body(655.0, "second paragraph", 522.0),
            body(640.0, "still second", 522.0),
            body(617.0, "third after a gap", 522.0),
            body(602.0, "and more", 400.0),
            line("indented fourth", 110.0, 522.0, 587.0),
            body(572.0, "fourth goes on", 522.0),
            body(557.0, "fourth ends", 200.0),
        ],
    };
    let blocks = paragraphs(&[page]);
    let texts: Vec<&str> = blocks.iter().map(|b| b.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "first paragraph line one first paragraph line two ends short.",
            "second paragraph still second",
            "third after a gap and more",
            "indented fourth fourth goes on fourth ends",
        ]
    );
}

#[test]
fn two_columns() {
    let col = |x0: f64, x1: f64, y: f64, text: &str| line(text, x0, x1, y);
    let mut lines = Vec::new();
    // Left column: a paragraph of four lines, then one that runs into the right column.
    for (i, y) in [700.0, 686.0, 672.0].iter().enumerate() {
        lines.push(col(72.0, 300.0, *y, &format!("left one {i}")));
    }
    lines.push(col(72.0, 180.0, 658.0, "left one ends."));
    for (i, y) in [644.0, 630.0, 616.0].iter().enumerate() {
        lines.push(col(72.0, 299.5, *y, &format!("left two {i}")));
    }
    for (i, y) in [700.0, 686.0].iter().enumerate() {
        lines.push(col(312.0, 540.0, *y, &format!("right {i}")));
    }
    lines.push(col(312.0, 400.0, 672.0, "right ends."));
    lines.push(col(312.0, 540.0, 644.0, "third paragraph"));
    lines.push(col(312.0, 540.0, 630.0, "third goes on"));
    lines.push(col(312.0, 420.0, 616.0, "third ends."));
    let page = PageLines {
        width: 612.0,
        height: 792.0,
        lines,
    };
    let texts: Vec<String> = paragraphs(&[page]).into_iter().map(|b| b.text).collect();
    assert_eq!(
        texts,
        [
            "left one 0 left one 1 left one 2 left one ends.",
            "left two 0 left two 1 left two 2 right 0 right 1 right ends.",
            "third paragraph third goes on third ends.",
        ]
    );
}

#[test]
fn footnotes_do_not_split_a_paragraph() {
    let body = |y: f64, text: &str, x1: f64| line(text, 90.0, x1, y);
    let note = |y: f64, text: &str, x1: f64| Line {
        size: 8.0,
        ..line(text, 90.0, x1, y)
    };
    let mut first = Vec::new();
    for i in 0..40 {
        first.push(body(
            700.0 - 14.0 * f64::from(i),
            &format!("body {i}"),
            522.0,
        ));
    }
    first.push(note(100.0, "1 A footnote that runs over", 522.0));
    first.push(note(90.0, "two lines.", 200.0));
    let second = vec![
        body(700.0, "the paragraph ends here.", 300.0),
        body(672.0, "Another one.", 200.0),
    ];
    let pages = [
        PageLines {
            width: 612.0,
            height: 792.0,
            lines: first,
        },
        PageLines {
            width: 612.0,
            height: 792.0,
            lines: second,
        },
    ];
    let blocks = paragraphs(&pages);
    let kinds: Vec<BlockKind> = blocks.iter().map(|b| b.kind).collect();
    let texts: Vec<String> = blocks.into_iter().map(|b| b.text).collect();
    assert_eq!(texts.len(), 3, "{texts:#?}");
    assert!(
        texts[0].starts_with("body 0 body 1")
            && texts[0].ends_with("body 39 the paragraph ends here.")
    );
    // The note's mark is left out, as Word's are.
    assert_eq!(texts[1], "A footnote that runs over two lines.");
    assert_eq!(kinds[1..], [BlockKind::Footnote, BlockKind::Body]);
    assert_eq!(texts[2], "Another one.");
}

#[test]
fn jumbled_lines_are_put_in_reading_order() {
    let mut lines: Vec<Line> = [3.0, 0.0, 4.0, 1.0, 2.0, 5.0]
        .iter()
        .map(|i| line(&format!("line {i}"), 90.0, 522.0, 700.0 - 14.0 * i))
        .collect();
    lines.push(line("right of 2", 300.0, 522.0, 672.5));
    fix_reading_order(&mut lines);
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "line 0",
            "line 1",
            "line 2",
            "right of 2",
            "line 3",
            "line 4",
            "line 5"
        ]
    );
}

#[test]
fn tags_count_only_when_they_are_paragraphs() {
    use super::paragraphs::tags_are_paragraphs;
    let page = |elements: &[u32]| PageLines {
        width: 612.0,
        height: 792.0,
        lines: elements
            .iter()
            .enumerate()
            .map(|(i, &e)| Line {
                element_first: e,
                element_last: e,
                ..line("text", 90.0, 522.0, 700.0 - 14.0 * i as f64)
            })
            .collect(),
    };
    // Paragraphs of several lines each.
    assert!(tags_are_paragraphs(&[page(&[1, 1, 1, 2, 2, 3, 3, 3])]));
    // One element for the page, one per line, or lines left untagged: geometry decides.
    assert!(!tags_are_paragraphs(&[page(&[1; 8])]));
    assert!(!tags_are_paragraphs(&[page(&[1, 2, 3, 4, 5, 6, 7, 8])]));
    assert!(!tags_are_paragraphs(&[page(&[1, 1, 0, 0, 2, 2, 0, 0])]));
    assert!(!tags_are_paragraphs(&[page(&[0; 8])]));
}
