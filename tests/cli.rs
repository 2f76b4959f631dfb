//! The command line contract: library add/list/remove, extract, check in its three formats.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::util::{docx, stderr, Sandbox};

const ZH_1: &str = "如果你想成为一名好的维护者，你应该定期检查 Debian 错误跟踪系统中你的软件包的错误报告。错误跟踪系统包含了针对你的软件包的所有未解决的错误，你可以通过浏览这个页面来查看它们。";
const ZH_2: &str = "软件包的上游作者通常会在新版本发布时更新文档，维护者需要检查这些变更是否影响打包脚本，并在变更日志中记录下所有与用户相关的修改。";
const EN_1: &str = "If you want to be a good maintainer, you should periodically check the Debian bug tracking system for your packages. The BTS contains all the open bugs against your packages, and you can check them by browsing this page.";
const EN_2: &str = "Libraries are always difficult to package for various reasons. The policy imposes many constraints to ease their maintenance and to make sure upgrades are as simple as possible when a new upstream version comes out.";
const CLEAN_ZH: &str =
    "今天的天气非常好，我们一起去公园散步，看见了很多美丽的花朵和高大的树木，孩子们在草地上奔跑。";
const CLEAN_EN: &str = "The village bakery opens at six in the morning, and by seven the queue of neighbours waiting for warm bread reaches the corner of the square.";

fn library_with_sources(s: &Sandbox) {
    s.write("lib/zh.txt", format!("{ZH_1}\n\n{ZH_2}\n"));
    s.write("lib/en.docx", docx(&[EN_1, EN_2]));
    let out = s.ok(&["library", "add", s.path("lib").to_str().unwrap()]);
    assert!(out.contains("added 2 document(s) (4 paragraphs)"), "{out}");
}

#[test]
fn check_flags_exact_and_edited_copies_and_not_clean_text() {
    let s = Sandbox::new();
    library_with_sources(&s);
    let edited_zh = "如果你想成为一位好的维护者，你需要定期检查 Debian 错误追踪系统中你软件包的错误报告。错误跟踪系统包含了针对你的软件包的全部未解决错误，你可以浏览这个页面查看它们。";
    let sub = s.write(
        "submission.txt",
        format!("{edited_zh}\n\n{CLEAN_ZH}\n\n{EN_2}\n\n{CLEAN_EN}\n"),
    );
    let report = s.check_json(&sub);
    let doc = &report["documents"][0];
    assert_eq!(doc["file"], sub.to_str().unwrap());
    let paras = doc["paragraphs"].as_array().unwrap();
    assert_eq!(paras.len(), 4);
    let flagged: Vec<bool> = paras
        .iter()
        .map(|p| p["flagged"].as_bool().unwrap())
        .collect();
    assert_eq!(flagged, [true, false, true, false]);

    let m = &paras[0]["matches"][0];
    assert!(m["source_path"].as_str().unwrap().ends_with("zh.txt"));
    assert_eq!(m["source_title"], "zh");
    assert_eq!(m["source_paragraph"], 0);
    assert_eq!(m["source_text"], ZH_1);
    assert!(m["similarity"].as_f64().unwrap() > 0.85, "{m}");
    assert!(m["hamming"].as_u64().unwrap() <= 64);
    let spans = m["spans"].as_array().unwrap();
    assert!(!spans.is_empty());
    // Offsets are Unicode scalar values into the paragraph texts.
    let first = &spans[0];
    let (a, b) = (
        first["submission"][0].as_u64().unwrap() as usize,
        first["submission"][1].as_u64().unwrap() as usize,
    );
    let text: Vec<char> = edited_zh.chars().collect();
    assert!(a < b && b <= text.len());

    let m = &paras[2]["matches"][0];
    assert!(m["source_path"].as_str().unwrap().ends_with("en.docx"));
    assert_eq!(m["source_paragraph"], 1);
    assert_eq!(m["similarity"].as_f64().unwrap(), 1.0);
    assert_eq!(m["hamming"], 0);
    assert_eq!(m["cross_script"], false, "a copy in the same script");

    // Ratio: copied characters over all non-whitespace characters, between the two flagged paragraphs'
    // share and 1.
    let ratio = doc["similarity_ratio"].as_f64().unwrap();
    let nonws = |t: &str| t.chars().filter(|c| !c.is_whitespace()).count() as f64;
    let total = nonws(edited_zh) + nonws(CLEAN_ZH) + nonws(EN_2) + nonws(CLEAN_EN);
    let upper = (nonws(edited_zh) + nonws(EN_2)) / total;
    assert!(
        ratio > 0.8 * upper && ratio <= upper + 1e-9,
        "{ratio} vs {upper}"
    );
    assert_eq!(doc["sources"].as_array().unwrap().len(), 2);
    assert!(doc["largest_source_ratio"].as_f64().unwrap() < ratio);
    assert_eq!(report["threshold"], 0.3);
}

#[test]
fn threshold_and_top_filter_matches() {
    let s = Sandbox::new();
    library_with_sources(&s);
    // Half copied: flagged at 0.3, not at 0.9.
    let sub = s.write("half.txt", format!("{EN_1} {CLEAN_EN}\n"));
    let at = |t: &str| {
        let out = s.ok(&[
            "check",
            sub.to_str().unwrap(),
            "--format",
            "json",
            "--threshold",
            t,
        ]);
        let v: Value = serde_json::from_str(&out).unwrap();
        v["documents"][0]["paragraphs"][0]["flagged"]
            .as_bool()
            .unwrap()
    };
    assert!(at("0.3"));
    assert!(!at("0.9"));
    let out = s.ok(&[
        "check",
        sub.to_str().unwrap(),
        "--format",
        "json",
        "--top",
        "0",
    ]);
    // `--top 0` lists no alternative source, but a counted passage is always attributed: the one
    // match that covers it stays.
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["documents"][0]["paragraphs"][0]["matches"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn simhash_method_reports_one_minus_hamming_over_64() {
    let s = Sandbox::new();
    library_with_sources(&s);
    let sub = s.write("copy.txt", format!("{ZH_2}\n"));
    let out = s.ok(&[
        "check",
        sub.to_str().unwrap(),
        "--format",
        "json",
        "--method",
        "simhash",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["threshold"], 0.8);
    let m = &v["documents"][0]["paragraphs"][0]["matches"][0];
    assert_eq!(m["hamming"], 0);
    assert_eq!(m["similarity"], 1.0);
    assert_eq!(m["source_text"], ZH_2);
}

#[test]
fn same_content_under_another_name_is_reported_not_added_and_same_name_is_not_skipped() {
    let s = Sandbox::new();
    let a = s.write("a/thesis.txt", format!("{ZH_1}\n"));
    let b = s.write("b/copy-of-thesis.txt", format!("{ZH_1}\n"));
    let c = s.write("c/thesis.txt", format!("{ZH_2}\n"));
    s.ok(&["library", "add", a.to_str().unwrap()]);
    let out = s.tongwen(&["library", "add", b.to_str().unwrap(), c.to_str().unwrap()]);
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("copy-of-thesis.txt: already in the library as #1 thesis"),
        "{err}"
    );
    let list: Value = serde_json::from_str(&s.ok(&["library", "list", "--json"])).unwrap();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 2, "same file name, different content is added");
    assert_eq!(list[1]["path"], c.to_str().unwrap());
    assert_eq!(list[1]["paragraphs"], 1);
    assert_eq!(list[1]["format"], "txt");
}

#[test]
fn unreadable_files_are_listed_with_their_cause_and_nothing_else_changes() {
    let s = Sandbox::new();
    s.write("in/good.txt", format!("{EN_1}\n"));
    s.write("in/empty.txt", b"");
    s.write(
        "in/binary.txt",
        [0u8, 159, 146, 150, 0, 1, 2, 3, 255, 0, 7, 8].repeat(50),
    );
    s.write("in/broken.docx", b"PK\x03\x04 this is not really a zip");
    s.write("in/whitespace.txt", " \n\u{3000}\n\t\n");
    let out = s.tongwen(&["library", "add", s.path("in").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    for (file, cause) in [
        ("empty.txt", "the file is empty"),
        ("binary.txt", "binary"),
        ("broken.docx", "Word document"),
        ("whitespace.txt", "no text"),
    ] {
        assert!(
            err.lines().any(|l| l.contains(file) && l.contains(cause)),
            "{file}: {cause} not in\n{err}"
        );
    }
    assert!(String::from_utf8_lossy(&out.stdout).contains("added 1 document(s)"));
    let list: Value = serde_json::from_str(&s.ok(&["library", "list", "--json"])).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1);
}

#[test]
fn remove_with_an_unknown_id_removes_nothing() {
    let s = Sandbox::new();
    library_with_sources(&s);
    let out = s.tongwen(&["library", "remove", "1", "999"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no document with id 999"),
        "{}",
        stderr(&out)
    );
    let list: Value = serde_json::from_str(&s.ok(&["library", "list", "--json"])).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 2);
    let out = s.ok(&["library", "remove", "1"]);
    // Folders are added in name order: #1 is en.docx.
    assert!(out.contains("removed #1 en"), "{out}");
    // The removed document's paragraphs are no longer found (the exact copy was): only the Chinese
    // document's translation of the paragraph may be. (It is not, at the default settings: the
    // alignment pairs both English sentences with the second Chinese one, and a match resting on one
    // pair that unconvincing is not reported.)
    let sub = s.write("copy.txt", format!("{EN_1}\n"));
    let v = s.check_json(&sub);
    let matches = v["documents"][0]["paragraphs"][0]["matches"]
        .as_array()
        .unwrap();
    for m in matches {
        assert!(
            !m["source_path"].as_str().unwrap().ends_with("en.docx"),
            "{m}"
        );
        assert_eq!(m["cross_language"], true, "{m}");
    }
}

#[test]
fn html_report_is_self_contained_and_escapes_document_text() {
    let s = Sandbox::new();
    let evil = "学生提交的内容 <script>alert(1)</script> 以及 <img src=x onerror=alert(1)> 都必须作为文本显示，而不能在报告中运行任何脚本或加载图片。";
    s.write("lib/evil.txt", format!("{evil}\n"));
    s.ok(&["library", "add", s.path("lib").to_str().unwrap()]);
    let sub = s.write("sub.txt", format!("{evil}\n"));
    let html_path = s.path("report.html");
    s.ok(&[
        "check",
        sub.to_str().unwrap(),
        "--format",
        "html",
        "-o",
        html_path.to_str().unwrap(),
    ]);
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(!html.contains("<script"), "no script element");
    assert!(!html.contains("<img"), "no image element");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no external resource"
    );
    assert!(html.contains("<mark>"), "copied text is highlighted");
    assert!(html.contains("100.0%"));
}

#[test]
fn pdf_report_embeds_its_font_and_reads_back_as_the_report() {
    let s = Sandbox::new();
    library_with_sources(&s);
    let sub = s.write(
        "sub.txt",
        format!("第一章 绪论\n\n{ZH_1}\n\n{CLEAN_ZH}\n\nChapter 2 Method\n\n{EN_1}\n"),
    );
    let sub = sub.to_str().unwrap();
    let no_file = s.tongwen(&["check", sub, "--format", "pdf"]);
    assert!(!no_file.status.success());
    assert!(
        stderr(&no_file).contains("--output"),
        "{}",
        stderr(&no_file)
    );
    let pdf = s.path("report.pdf");
    s.ok(&[
        "check",
        sub,
        "--format",
        "pdf",
        "--lang",
        "zh",
        "-o",
        pdf.to_str().unwrap(),
    ]);
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF-1.7"));
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    assert!(has(b"/FontFile2") && has(b"/ToUnicode"), "font embedded");
    assert!(
        bytes.len() < 150_000,
        "only the glyphs used are embedded: {} bytes",
        bytes.len()
    );
    // Tongwen's own PDF reader gets the report's words back.
    let text = s.ok(&["extract", pdf.to_str().unwrap()]);
    for words in [
        "总文字复制比",
        "去除引用文献复制比",
        "单篇最大文字复制比",
        "各章节文字复制比",
        "第一章 绪论",
        "Chapter 2 Method",
    ] {
        assert!(text.contains(words), "{words} in {text}");
    }
    let json = s.check_json(std::path::Path::new(sub));
    let chapters = json["documents"][0]["chapters"].as_array().unwrap();
    assert_eq!(chapters.len(), 2, "{json}");
    assert_eq!(chapters[1]["title"], "Chapter 2 Method");
    assert!(chapters
        .iter()
        .all(|c| c["total_ratio"].as_f64().unwrap() > 0.2));
    // Every command refuses a format its report lacks the same way, before any work.
    for (args, what) in [
        (
            vec!["compare", sub, sub, "--format", "pdf", "-o", "x.pdf"],
            "a class comparison has no pdf report: use text, json, html",
        ),
        (
            vec!["library", "duplicates", "--format", "pdf", "-o", "x.pdf"],
            "a duplicates search has no pdf report: use text, json, html",
        ),
        (
            vec!["eval", "missing-truth.json", "--format", "html"],
            "an evaluation has no html report: use text, json",
        ),
    ] {
        let out = s.tongwen(&args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(what), "{args:?}: {}", stderr(&out));
    }
    assert!(!s.path("x.pdf").exists());
}

#[test]
fn reports_follow_the_chosen_language() {
    let s = Sandbox::new();
    library_with_sources(&s);
    let sub = s.write("sub.txt", format!("{ZH_1}\n\n{CLEAN_ZH}\n"));
    let locked = s.write("locked.pdf", b"%PDF-1.4\n%%EOF\n");
    let sub = sub.to_str().unwrap();
    let out = s.tongwen(&["check", sub, locked.to_str().unwrap(), "--lang", "zh"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("复制比") && text.contains("1 / 2 段"),
        "{text}"
    );
    assert!(
        text.contains("未检测：") && text.contains("locked.pdf：PDF"),
        "{text}"
    );
    let html = s.ok(&["check", sub, "--format", "html", "--lang", "zh"]);
    assert!(
        html.contains("<html lang=\"zh-CN\">") && html.contains("来源"),
        "{html}"
    );
    let html = s.ok(&["check", sub, "--format", "html"]);
    assert!(html.contains("<html lang=\"en\">") && html.contains("Source"));
}

#[test]
fn listing_reads_only_and_an_old_library_is_upgraded_in_a_reported_step() {
    let s = Sandbox::new();
    // Listing a library that does not exist says so (a mistyped path is not an empty library) and
    // creates nothing.
    let out = s.tongwen(&["library", "list"]);
    assert!(
        !out.status.success() && stderr(&out).contains("no library at"),
        "{}",
        stderr(&out)
    );
    assert!(!s.library_exists());
    library_with_sources(&s);
    // Fingerprints from an older definition: listing leaves them (and the file) alone...
    s.sql("UPDATE paragraphs SET algo = 1, simhash = 0, shingles = substr(shingles, 1, 0)");
    if s.database.is_none() {
        let before = std::fs::read(s.library_file()).unwrap();
        s.ok(&["library", "list", "--json"]);
        assert_eq!(
            std::fs::read(s.library_file()).unwrap(),
            before,
            "list never writes"
        );
    }
    // ... and check updates them first, saying so, then finds the copy.
    let sub = s.write("sub.txt", format!("{EN_1}\n"));
    let out = s.tongwen(&["check", sub.to_str().unwrap(), "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("made by an older Tongwen"),
        "{}",
        stderr(&out)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["documents"][0]["paragraphs"][0]["flagged"], true);
    // Once up to date, the explicit command has nothing to do.
    let out = s.tongwen(&["library", "upgrade"]);
    assert!(
        out.status.success() && stderr(&out).is_empty(),
        "{}",
        stderr(&out)
    );
}

#[test]
fn text_report_summarises_each_document() {
    let s = Sandbox::new();
    library_with_sources(&s);
    let sub = s.write("sub.txt", format!("{EN_1}\n\n{CLEAN_EN}\n"));
    let out = s.ok(&["check", sub.to_str().unwrap()]);
    assert!(out.contains("sub.txt"), "{out}");
    assert!(out.contains("1 of 2 paragraphs flagged"), "{out}");
    assert!(out.contains("100.0%  en ¶1"), "{out}");
}

#[test]
fn extract_shows_paragraphs_and_env_var_selects_the_library() {
    let s = Sandbox::new();
    let f = s.write("doc.docx", docx(&[ZH_1, "", EN_1]));
    let out = s.ok(&["extract", f.to_str().unwrap(), "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "docx");
    let texts: Vec<&str> = v["paragraphs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, [ZH_1, EN_1]);
    let kinds: Vec<&str> = v["paragraphs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["body", "body"]);
    // A plain text's heading and references section, as `extract --json` shows them.
    let t = s.write(
        "thesis.txt",
        format!(
            "第一章 绪论\n\n{ZH_1}\n\n参考文献\n\n[1] 张三. 软件包维护研究[J]. 计算机学报, 2020.\n"
        ),
    );
    let v: Value =
        serde_json::from_str(&s.ok(&["extract", t.to_str().unwrap(), "--json"])).unwrap();
    let p = v["paragraphs"].as_array().unwrap();
    let kinds: Vec<(&str, Option<u64>)> = p
        .iter()
        .map(|p| (p["kind"].as_str().unwrap(), p["level"].as_u64()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("heading", Some(1)),
            ("body", None),
            ("heading", Some(1)),
            ("reference", None)
        ],
        "{v}"
    );

    let lib = s.path("env-library.sqlite");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tongwen"))
        .args(["library", "add", f.to_str().unwrap()])
        .env("TONGWEN_LIBRARY", &lib)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(lib.is_file());
}

#[test]
fn check_without_a_library_says_how_to_make_one() {
    let s = Sandbox::new();
    let sub = s.write("sub.txt", format!("{EN_1}\n"));
    let out = s.tongwen(&["check", sub.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("library add"), "{}", stderr(&out));
}

#[test]
fn a_submission_that_cannot_be_read_is_reported_not_scored_as_zero() {
    let s = Sandbox::new();
    library_with_sources(&s);
    let bad = s.write("empty.txt", b"");
    let good = s.write("good.txt", format!("{EN_1}\n"));
    let out = s.tongwen(&[
        "check",
        bad.to_str().unwrap(),
        good.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["documents"][0]["error"]
        .as_str()
        .unwrap()
        .contains("empty"));
    assert_eq!(v["documents"][1]["paragraphs"][0]["flagged"], true);
    assert!(stderr(&out).contains("empty.txt: the file is empty"));
}

/// Start `tongwen ARGS` on the sandbox's library with its output and errors piped to the test.
fn spawn_piped(s: &Sandbox, args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_tongwen"))
        .arg("--library")
        .arg(s.library())
        .args(args)
        .env_remove("TONGWEN_LIBRARY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tongwen")
}

/// Run `tongwen ARGS`, read the first line of its output and close the pipe, as `| head -1` does.
fn first_line_then_close(s: &Sandbox, args: &[&str]) -> (String, Output) {
    let mut child = spawn_piped(s, args);
    let mut first = String::new();
    let stdout = child.stdout.take().expect("piped stdout");
    BufReader::new(stdout)
        .read_line(&mut first)
        .expect("read the first line");
    // The reader is gone: the pipe is closed while tongwen still has far more than a pipe holds to write.
    let out = child.wait_with_output().expect("wait for tongwen");
    (first, out)
}

#[test]
fn output_closed_early_is_a_quiet_success() {
    let s = Sandbox::new();
    library_with_sources(&s);
    // Hundreds of kilobytes of output, so that tongwen is still writing when the pipe closes.
    let big = s.write("big.txt", format!("{EN_2}\n\n").repeat(3000));
    let sub = s.write("sub.txt", format!("{EN_2}\n\n").repeat(400));
    let (big, sub) = (big.to_str().unwrap(), sub.to_str().unwrap());
    for (args, first_line) in [
        (vec!["extract", big], "[1] Libraries are always"),
        (vec!["extract", big, "--json"], "{"),
        (vec!["check", sub, "--format", "json"], "{"),
    ] {
        let whole = s.ok(&args).len();
        assert!(whole > 256 * 1024, "{args:?}: only {whole} bytes");
        let (first, out) = first_line_then_close(&s, &args);
        let err = stderr(&out);
        assert!(first.starts_with(first_line), "{args:?}: {first:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
}

/// Run `tongwen ARGS` with its output already closed by the reader, as `| true` leaves it.
fn output_closed_at_once(s: &Sandbox, args: &[&str]) -> Output {
    let mut child = spawn_piped(s, args);
    drop(child.stdout.take());
    child.wait_with_output().expect("wait for tongwen")
}

#[test]
fn output_closed_early_still_lists_failed_files_and_fails() {
    let s = Sandbox::new();
    library_with_sources(&s);
    let good = s.write("in/good.txt", format!("{EN_2}\n"));
    let broken = s.write("in/broken.docx", b"PK\x03\x04 this is not really a zip");
    let (good, broken) = (good.to_str().unwrap(), broken.to_str().unwrap());
    for args in [
        vec!["check", good, broken, "--format", "json"],
        vec!["library", "add", good, broken],
    ] {
        let out = output_closed_at_once(&s, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.lines()
                .any(|l| l.contains("broken.docx") && l.contains("Word document")),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("Broken pipe") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    // The add went through although nobody read its summary.
    let list: Value = serde_json::from_str(&s.ok(&["library", "list", "--json"])).unwrap();
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["title"] == "good"));
}

#[test]
fn file_names_cannot_forge_lines_or_send_escape_sequences_to_the_terminal() {
    let s = Sandbox::new();
    library_with_sources(&s);
    // A copy under a name with a line break, and an empty file under a name with an escape sequence.
    let forged = s.write("in/evil\n  copied 0.0% forged.txt", format!("{EN_1}\n"));
    let coloured = s.write("in/\u{1b}[2J\u{1b}[31mred.txt", b"");
    let out = s.tongwen(&[
        "check",
        forged.to_str().unwrap(),
        coloured.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "one file could not be used");
    let (stdout, err) = (String::from_utf8_lossy(&out.stdout), stderr(&out));
    for text in [&*stdout, &err] {
        assert!(
            !text.contains('\u{1b}'),
            "an escape sequence got through:\n{text}"
        );
        assert!(
            !text.lines().any(|l| l.starts_with("  copied 0.0% forged")),
            "a file name forged a line:\n{text}"
        );
    }
    assert!(
        stdout.contains("evil\\n  copied 0.0% forged.txt"),
        "{stdout}"
    );
    assert!(err.contains("\\u{1b}[2J\\u{1b}[31mred.txt"), "{err}");
    // Adding them lists the failure on one line too.
    let out = s.tongwen(&["library", "add", s.path("in").to_str().unwrap()]);
    let err = stderr(&out);
    assert!(!err.contains('\u{1b}'), "{err}");
    assert!(
        err.lines()
            .any(|l| l.contains("red.txt") && l.contains("the file is empty")),
        "{err}"
    );
}

/// Runs `tongwen` with a deadline: a hang is a test failure, not a stuck test run.
fn run_with_deadline(s: &Sandbox, args: &[&str], seconds: u64) -> Output {
    let mut child = spawn_piped(s, args);
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed().as_secs() >= seconds {
            let _ = child.kill();
            panic!("tongwen {args:?} still running after {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
}

#[test]
fn link_loops_pipes_and_devices_in_a_folder_are_said_and_never_read() {
    let s = Sandbox::new();
    s.write("in/good.txt", format!("{ZH_1}\n"));
    let dir = s.path("in");
    std::os::unix::fs::symlink(".", dir.join("a")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("b")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.txt")).unwrap();
    let fifo = dir.join("pipe.txt");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let (folder, pipe) = (dir.to_str().unwrap(), fifo.to_str().unwrap());
    let both = ["pipe.txt", "zero.txt"];
    for (args, said) in [
        (vec!["library", "add", folder], &both[..]),
        (vec!["check", folder], &both[..]),
        (vec!["check", pipe], &both[..1]),
    ] {
        let out = run_with_deadline(&s, &args, 60);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        for name in said {
            assert!(
                err.lines()
                    .any(|l| l.contains(name) && l.contains("not a regular file")),
                "{args:?}: {name} not said in\n{err}"
            );
        }
    }
    let list: Value = serde_json::from_str(&s.ok(&["library", "list", "--json"])).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1, "only good.txt, once");
}

/// A library in a folder its reader cannot write (a shared, read-only copy) is listed and checked
/// against without writing. Run as an unprivileged user (root ignores permissions): when the tests run
/// as root, the binary is copied where that user can run it and started through `setpriv`.
#[test]
fn a_library_in_a_read_only_folder_can_be_listed_and_checked_against() {
    use std::os::unix::fs::PermissionsExt;
    let Some(s) = Sandbox::sqlite_only() else {
        return;
    };
    library_with_sources(&s);
    let shared = s.path("shared");
    std::fs::create_dir(&shared).unwrap();
    let library = shared.join("library.sqlite");
    std::fs::copy(s.library_file(), &library).unwrap();
    let submission = s.write("submission.txt", format!("{EN_1}\n"));
    let binary = s.path("tongwen");
    std::fs::copy(env!("CARGO_BIN_EXE_tongwen"), &binary).unwrap();
    let mode =
        |p: &std::path::Path, m| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
    mode(&binary, 0o755).unwrap();
    mode(&library, 0o444).unwrap();
    mode(&submission, 0o644).unwrap();
    mode(&shared, 0o555).unwrap();
    mode(s.dir.path(), 0o755).unwrap();
    let root = Command::new("id").arg("-u").output().unwrap().stdout == b"0\n";
    let run = |args: &[&str]| {
        let mut cmd = if root {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(&binary);
            c
        } else {
            Command::new(&binary)
        };
        cmd.arg("--library")
            .arg(&library)
            .args(args)
            .env_remove("TONGWEN_LIBRARY")
            .env("HOME", s.dir.path())
            .output()
            .expect("run tongwen")
    };
    let listed = run(&["library", "list"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    assert!(String::from_utf8_lossy(&listed.stdout).contains("en"));
    let checked = run(&["check", submission.to_str().unwrap(), "--format", "json"]);
    assert!(checked.status.success(), "{}", stderr(&checked));
    let report: Value = serde_json::from_slice(&checked.stdout).unwrap();
    assert!(report["documents"][0]["similarity_ratio"].as_f64().unwrap() > 0.9);
    let added = run(&["library", "add", submission.to_str().unwrap()]);
    assert!(
        !added.status.success(),
        "a read-only library cannot be added to"
    );
    mode(&shared, 0o755).unwrap();
    let names: Vec<_> = std::fs::read_dir(&shared)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        names.len(),
        1,
        "nothing written beside the library: {names:?}"
    );
}

#[test]
fn another_programs_database_or_a_damaged_library_is_refused_and_left_as_it_was() {
    let Some(s) = Sandbox::sqlite_only() else {
        return;
    };
    let source = s.write("source.txt", format!("{ZH_1}\n\n{ZH_2}\n"));
    // Another program's database given as the library.
    let conn = rusqlite::Connection::open(s.library_file()).unwrap();
    conn.execute_batch("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);")
        .unwrap();
    drop(conn);
    let before = std::fs::read(s.library_file()).unwrap();
    for args in [
        vec!["library", "add", source.to_str().unwrap()],
        vec!["library", "list"],
        vec!["check", source.to_str().unwrap()],
    ] {
        let out = s.tongwen(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&out).contains("is not a Tongwen library"),
            "{}",
            stderr(&out)
        );
    }
    assert_eq!(std::fs::read(s.library_file()).unwrap(), before);

    // A library whose file is not a database any more (its header overwritten).
    std::fs::remove_file(s.library_file()).unwrap();
    s.ok(&["library", "add", source.to_str().unwrap()]);
    let mut bytes = std::fs::read(s.library_file()).unwrap();
    bytes[..16].copy_from_slice(b"garbage garbage!");
    std::fs::write(s.library_file(), &bytes).unwrap();
    let out = s.tongwen(&[
        "library",
        "add",
        s.write("more.txt", format!("{EN_1}\n")).to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("is damaged"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(s.library_file()).unwrap(),
        bytes,
        "nothing written"
    );
}

/// A file of one endless line (30 MB, 10 million characters) is read within 1 GB of address space
/// (`ulimit -v`); before paragraphs were bounded it needed more than that and the process aborted.
#[test]
fn an_endless_one_line_file_is_read_within_a_memory_budget() {
    let s = Sandbox::new();
    let line = "数据系统维护软件包的用户文档检查错误".repeat(30_000_000 / 54);
    let file = s.write("one-line.txt", &line);
    drop(line);
    let script = format!(
        "ulimit -v 1048576; exec \"$0\" --library '{}' library add '{}'",
        s.library(),
        file.display()
    );
    let out = Command::new("bash")
        .args(["-c", &script, env!("CARGO_BIN_EXE_tongwen")])
        .env_remove("TONGWEN_LIBRARY")
        .output()
        .expect("bash");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", stderr(&out));
    let list: Value = serde_json::from_str(&s.ok(&["library", "list", "--json"])).unwrap();
    let paragraphs = list[0]["paragraphs"].as_u64().unwrap();
    assert!(paragraphs >= 2_000, "{paragraphs} paragraphs");
}

/// Two `library add`s and a check running at once on one library: every document of both is added
/// (writers wait for each other), and the check succeeds.
#[test]
fn concurrent_adds_and_checks_lose_nothing() {
    let s = Sandbox::new();
    for folder in ["a", "b"] {
        for i in 0..150 {
            s.write(
                &format!("{folder}/{i:03}.txt"),
                format!("{folder} 组第 {i} 份文档：{ZH_1}（编号 {folder}-{i}）\n\n{EN_2} ({folder}-{i})\n"),
            );
        }
    }
    s.ok(&[
        "library",
        "add",
        s.write("seed.txt", format!("{ZH_2}\n")).to_str().unwrap(),
    ]);
    let path = |f: &str| s.path(f).display().to_string();
    let (a, b, first) = (path("a"), path("b"), path("a/000.txt"));
    let children = vec![
        spawn_piped(&s, &["library", "add", &a]),
        spawn_piped(&s, &["library", "add", &b]),
        spawn_piped(&s, &["check", &first, "--format", "json"]),
    ];
    for child in children {
        let out = child.wait_with_output().expect("wait");
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let list: Value = serde_json::from_str(&s.ok(&["library", "list", "--json"])).unwrap();
    assert_eq!(
        list.as_array().unwrap().len(),
        301,
        "every document of both adds"
    );
}

/// `check -o PATH` never writes through a link planted where a temporary file used to be, and a failed
/// write leaves neither the target changed nor a temporary file.
#[test]
fn a_report_is_never_written_through_a_planted_link() {
    let s = Sandbox::new();
    library_with_sources(&s);
    let submission = s.write("submission.txt", format!("{EN_1}\n"));
    let victim = s.write("victim.txt", "keep me");
    let out_dir = s.path("out");
    std::fs::create_dir(&out_dir).unwrap();
    let report = out_dir.join("report.html");
    std::os::unix::fs::symlink(&victim, out_dir.join("report.html.tongwen-tmp")).unwrap();
    let args = [
        "check",
        submission.to_str().unwrap(),
        "--format",
        "html",
        "-o",
        report.to_str().unwrap(),
    ];
    s.ok(&args);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(std::fs::read_to_string(&report).unwrap().contains("<mark>"));
    // A folder that does not exist: an error naming the report, nothing left behind.
    let missing = s.path("missing/report.html");
    let failed = s.tongwen(&[
        "check",
        submission.to_str().unwrap(),
        "-o",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(failed.status.code(), Some(1));
    assert!(
        stderr(&failed).contains("report.html"),
        "{}",
        stderr(&failed)
    );
    let left: Vec<_> = std::fs::read_dir(&out_dir).unwrap().flatten().collect();
    assert_eq!(left.len(), 2, "the report and the planted link only");
}

#[test]
fn library_duplicates_groups_near_copies_of_documents_and_paragraphs() {
    let s = Sandbox::new();
    let a = [ZH_1, ZH_2, EN_1, EN_2];
    // B: A with a short paragraph added. C: unrelated but for one paragraph it shares with E.
    let b = [
        ZH_1,
        ZH_2,
        EN_1,
        EN_2,
        "补充说明：以上内容整理自维护者手册。",
    ];
    let shared =
        "图书馆每学期都会举办读书分享会，同学们轮流介绍自己最近读过的一本书，并回答大家的提问。";
    s.write("lib/a.txt", a.join("\n\n") + "\n");
    s.write("lib/b.txt", b.join("\n\n") + "\n");
    s.write(
        "lib/c.txt",
        format!("{CLEAN_ZH}\n\n{shared}\n\n秋天的校园里，银杏叶一片片落在通往图书馆的小路上，同学们踩着金黄的叶子去上早读课。\n"),
    );
    s.write(
        "lib/e.txt",
        format!(
            "我的家乡在海边，小时候常和爷爷一起出海捕鱼，听他讲渔村里流传的老故事。\n\n{shared}\n"
        ),
    );
    s.ok(&["library", "add", s.path("lib").to_str().unwrap()]);
    let ids: serde_json::Value =
        serde_json::from_str(&s.ok(&["library", "list", "--json"])).unwrap();
    let id_of = |name: &str| {
        ids.as_array()
            .unwrap()
            .iter()
            .find(|d| d["title"] == name)
            .map(|d| d["id"].as_i64().unwrap())
            .unwrap()
    };

    let docs: serde_json::Value =
        serde_json::from_str(&s.ok(&["library", "duplicates", "--format", "json"])).unwrap();
    assert_eq!(docs["level"], "document");
    assert_eq!(docs["threshold"], 0.8);
    assert_eq!(docs["documents"], 4);
    let groups = docs["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "only A and B are near copies: {docs}");
    let members: Vec<i64> = groups[0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    assert_eq!(members, [id_of("a"), id_of("b")]);
    let pair = &groups[0]["pairs"][0];
    assert!(pair["similarity"].as_f64().unwrap() >= 0.8, "{pair}");
    assert_eq!(
        (&pair["a"], &pair["b"]),
        (&json_i(id_of("a")), &json_i(id_of("b")))
    );

    let paras: serde_json::Value = serde_json::from_str(&s.ok(&[
        "library",
        "duplicates",
        "--level",
        "paragraph",
        "--format",
        "json",
    ]))
    .unwrap();
    let groups = paras["groups"].as_array().unwrap();
    // A and B share four paragraphs; C and E one.
    assert_eq!(groups.len(), 5, "{paras}");
    let c_e = groups
        .iter()
        .find(|g| g["members"][0]["id"] == json_i(id_of("c")))
        .expect("the paragraph C shares with E");
    assert_eq!(c_e["members"][0]["paragraph"], 1);
    assert_eq!(c_e["members"][1]["id"], json_i(id_of("e")));
    assert_eq!(c_e["members"][1]["text"], shared);

    let text = s.ok(&["library", "duplicates", "--lang", "zh"]);
    assert!(text.contains("共 1 组") && text.contains("a.txt"), "{text}");
    let bad = s.tongwen(&["library", "duplicates", "--threshold", "2"]);
    assert!(!bad.status.success() && stderr(&bad).contains("threshold"));
}

fn json_i(n: i64) -> serde_json::Value {
    serde_json::json!(n)
}

#[test]
fn the_sample_report_shows_and_attributes_every_counted_passage() {
    // The demo's third paragraph is stitched from two paragraphs of one library document: the first
    // sentence (from ¶1, below the threshold on its own) is counted, so it is listed and its span
    // reported, beside the flagged match of ¶3.
    let s = Sandbox::new();
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo");
    s.ok(&["library", "add", demo.join("library").to_str().unwrap()]);
    let out = s.ok(&[
        "check",
        demo.join("submissions").to_str().unwrap(),
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    crate::util::assert_counted_is_shown(&v);
    let stitched = v["documents"][0]["paragraphs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["text"].as_str().unwrap().starts_with("Light pollution"))
        .expect("the stitched paragraph");
    assert_eq!(stitched["flagged"], true);
    let sources: Vec<(String, u64)> = ["matches", "passages"]
        .iter()
        .flat_map(|k| stitched[*k].as_array().unwrap())
        .map(|m| {
            (
                m["source_title"].as_str().unwrap().to_string(),
                m["source_paragraph"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(
        sources.contains(&("night-sky".into(), 0)) && sources.contains(&("night-sky".into(), 2)),
        "{sources:?}"
    );
    // The HTML report names both sources of that paragraph.
    let html = s.ok(&[
        "check",
        demo.join("submissions").to_str().unwrap(),
        "--format",
        "html",
    ]);
    assert!(
        html.contains("night-sky ¶1") && html.contains("night-sky ¶3"),
        "both sources named"
    );
}
