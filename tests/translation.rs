//! Copies by translation (Chinese ↔ English), through the real binary: the translation set built by
//! `scripts/make-translation-set.py` from eval-dev's bilingual manuals (`tests/fixtures/translation/`:
//! aligned paragraph pairs in both directions, same-topic paragraphs whose translation is not in the
//! library, same-language copies), and a hand-made pair checked as a user checks it.

use serde_json::Value;

use crate::util::{docx, stderr, Sandbox};

fn translation_set() -> std::path::PathBuf {
    tongwen_testdata::repository_root().join("tests/fixtures/translation/truth.json")
}

/// The targets at the default settings, per direction: recall ≥ 0.90 with every flagged
/// paragraph's best match its true source (precision ≥ 0.97), no more than 1 % of same-topic
/// paragraphs flagged, same-language copies all found.
#[test]
fn translated_paragraphs_are_found_in_both_directions_at_the_default_settings() {
    let s = Sandbox::new();
    let truth = translation_set();
    let out = s.ok(&[
        "eval",
        truth.to_str().unwrap(),
        "--method",
        "verified",
        "--format",
        "json",
    ]);
    let r: Value = serde_json::from_str(&out).unwrap();
    let row = r["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["default"] == true)
        .unwrap();
    let labels = &row["by_label"];
    let f = |l: &str, k: &str| labels[l][k].as_f64().unwrap_or(-1.0);
    for direction in ["translation zh->en", "translation en->zh"] {
        assert!(f(direction, "flagged") >= 0.90, "{direction}: {labels}");
        assert!(
            f(direction, "right_source") >= 0.97,
            "{direction}: {labels}"
        );
    }
    assert_eq!(labels["translation zh->en"]["paragraphs"], 40);
    assert_eq!(labels["translation en->zh"]["paragraphs"], 32);
    assert!(f("same-topic", "flagged") <= 0.01, "{labels}");
    assert_eq!(labels["same-topic"]["paragraphs"], 44);
    assert_eq!(f("exact", "flagged"), 1.0, "{labels}");
    assert!(row["precision"].as_f64().unwrap() >= 0.97, "{row}");
}

const EN_SOURCE: &str =
    "If you want to be a good maintainer, you should periodically check the bug \
tracking system for your packages. The bug tracking system contains all the open bugs against your \
packages. You can check them by browsing this page.";
const ZH_COPY: &str =
    "如果你想成为一名好的维护者，你应该定期检查错误跟踪系统中你的软件包的错误报告。\
错误跟踪系统包含了针对你的软件包的所有未解决的错误。你可以通过浏览这个页面来查看它们。";
const ZH_OTHER: &str =
    "上传软件包之前，请先在干净的环境中构建它，并用 lintian 检查常见的打包问题。";
const ZH_LIBRARY: &str = "今天的天气非常好，我们一起去公园散步，看见了很多美丽的花朵和树木。";

/// A Chinese Word document translated from an English library document: the report marks the match
/// `cross_language`, pairs each translated sentence with its source sentence, counts the translated
/// characters in the ratio and says how much of it is translation; `--no-translation` turns it off.
#[test]
fn a_chinese_translation_of_an_english_library_document_is_reported_sentence_by_sentence() {
    let s = Sandbox::new();
    let en = s.write("maintainer-guide.txt", format!("{EN_SOURCE}\n"));
    let zh = s.write("weather.txt", format!("{ZH_LIBRARY}\n"));
    s.ok(&["library", "add", en.to_str().unwrap(), zh.to_str().unwrap()]);
    let essay = s.write("essay.docx", docx(&[ZH_COPY, ZH_OTHER]));
    let report: Value = s.check_json(&essay);
    let doc = &report["documents"][0];
    let p = &doc["paragraphs"][0];
    assert_eq!(p["flagged"], true, "{p}");
    let m = &p["matches"][0];
    assert_eq!(m["cross_language"], true, "{m}");
    assert_eq!(m["cross_script"], false);
    assert!(m["source_path"]
        .as_str()
        .unwrap()
        .ends_with("maintainer-guide.txt"));
    assert!(m["similarity"].as_f64().unwrap() >= 0.5, "{m}");
    // Sentence pairs: each submission span is a whole Chinese sentence, each source span an English one.
    let spans = m["spans"].as_array().unwrap();
    assert!(spans.len() >= 2, "{m}");
    let chars = |t: &str, r: &Value| -> String {
        let (a, b) = (
            r[0].as_u64().unwrap() as usize,
            r[1].as_u64().unwrap() as usize,
        );
        t.chars().skip(a).take(b - a).collect()
    };
    for sp in spans {
        let mine = chars(ZH_COPY, &sp["submission"]);
        let theirs = chars(EN_SOURCE, &sp["source"]);
        assert!(mine.ends_with('。'), "{mine}");
        assert!(theirs.ends_with('.'), "{theirs}");
    }
    assert_eq!(
        chars(ZH_COPY, &spans[0]["submission"]),
        "如果你想成为一名好的维护者，你应该定期检查错误跟踪系统中你的软件包的错误报告。"
    );
    assert!(
        chars(EN_SOURCE, &spans[0]["source"]).starts_with("If you want to be a good maintainer")
    );
    // The same-topic paragraph is not a translation of anything in the library.
    assert_eq!(doc["paragraphs"][1]["flagged"], false, "{doc}");
    // The ratio counts the translation, and says it is one.
    let ratio = doc["similarity_ratio"].as_f64().unwrap();
    let translated = doc["translated_ratio"].as_f64().unwrap();
    assert!(
        ratio > 0.3 && (ratio - translated).abs() < 1e-9,
        "{ratio} {translated}"
    );

    // The text summary says so too.
    let text = s.ok(&["check", essay.to_str().unwrap()]);
    assert!(
        text.contains("of which by translation (Chinese ↔ English):"),
        "{text}"
    );
    assert!(text.contains("maintainer-guide ¶1 (translation)"), "{text}");

    // Off: nothing is found.
    let off: Value = serde_json::from_str(&s.ok(&[
        "check",
        essay.to_str().unwrap(),
        "--format",
        "json",
        "--no-translation",
    ]))
    .unwrap();
    assert_eq!(off["documents"][0]["similarity_ratio"], 0.0, "{off}");
    assert_eq!(off["documents"][0]["translated_ratio"], 0.0);

    // The reverse direction: the English text checked against a library holding its Chinese.
    let t = Sandbox::new();
    let zh_lib = t.write("zh-guide.txt", format!("{ZH_COPY}\n"));
    t.ok(&["library", "add", zh_lib.to_str().unwrap()]);
    let en_essay = t.write("en-essay.txt", format!("{EN_SOURCE}\n"));
    let back: Value =
        serde_json::from_str(&t.ok(&["check", en_essay.to_str().unwrap(), "--format", "json"]))
            .unwrap();
    let m = &back["documents"][0]["paragraphs"][0]["matches"][0];
    assert_eq!(m["cross_language"], true, "{back}");

    // The HTML report shows both languages side by side, each sentence pair in one colour.
    let html = s.path("report.html");
    s.ok(&[
        "check",
        essay.to_str().unwrap(),
        "--format",
        "html",
        "-o",
        html.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("translation (Chinese ↔ English)"), "{page}");
    let c0 = "<mark class=\"pair-c0\">";
    assert_eq!(page.matches(c0).count(), 2, "one pair-c0 mark per side");
    assert!(page.contains(&format!("{c0}If you want to be a good maintainer")));
    assert!(page.contains(&format!("{c0}如果你想成为一名好的维护者")));
    assert!(page.contains("Of which by translation"));
    // And the PDF report renders it.
    let pdf = s.path("report.pdf");
    s.ok(&[
        "check",
        essay.to_str().unwrap(),
        "--format",
        "pdf",
        "-o",
        pdf.to_str().unwrap(),
    ]);
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
}

#[test]
fn a_translation_threshold_outside_zero_to_one_is_refused() {
    let s = Sandbox::new();
    let essay = s.write("essay.txt", format!("{ZH_COPY}\n"));
    let out = s.tongwen(&[
        "check",
        essay.to_str().unwrap(),
        "--translation-threshold",
        "1.5",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("translation-threshold"),
        "{}",
        stderr(&out)
    );
}

/// A class checked against the library too (`compare --with-library`) finds the translation in each
/// submission's check, unless `--no-translation`.
#[test]
fn a_class_checked_against_the_library_finds_translations_unless_told_not_to() {
    let s = Sandbox::new();
    let en = s.write("lib/maintainer-guide.txt", format!("{EN_SOURCE}\n"));
    s.ok(&["library", "add", en.to_str().unwrap()]);
    s.write("class/a.txt", format!("{ZH_COPY}\n"));
    s.write("class/b.txt", format!("{ZH_LIBRARY}\n"));
    let class = s.path("class");
    let ratio_of_a = |extra: &[&str]| -> f64 {
        let mut args = vec!["compare", class.to_str().unwrap(), "--with-library"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--format", "json"]);
        let report: Value = serde_json::from_str(&s.ok(&args)).unwrap();
        let a = report["documents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["file"].as_str().unwrap().ends_with("a.txt"))
            .unwrap()
            .clone();
        assert_eq!(
            a["check"]["similarity_ratio"], a["check"]["translated_ratio"],
            "{a}"
        );
        a["check"]["translated_ratio"].as_f64().unwrap()
    };
    assert!(ratio_of_a(&[]) > 0.3);
    assert_eq!(ratio_of_a(&["--no-translation"]), 0.0);
}
