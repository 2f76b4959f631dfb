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
                Known capital letter keeps its hyphen, and so do the non-\n\
                linux ports: a word mended only where the text spells it, as in example.\n";
    assert_eq!(
        split_plain_text(text),
        vec![
            "The Debian Free Software Guidelines are a set of rules that decide whether a piece of software can be included in the main archive. They were written in 1997 and have hardly changed since.",
            "A second paragraph follows the blank line, and it is wrapped at the same width as the first one and shows how the hyphenated example is mended, while a line that ends with a hyphenated well- Known capital letter keeps its hyphen, and so do the non-linux ports: a word mended only where the text spells it, as in example.",
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
