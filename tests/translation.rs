//! Copies by translation (Chinese ↔ English), through the real binary: the translation set built by
//! `scripts/make-translation-set.py` from eval-dev's bilingual manuals (`tests/fixtures/translation/`:
//! aligned paragraph pairs in both directions, same-topic paragraphs whose translation is not in the
//! library, same-language copies); the sets `scripts/make-manual-translation-set.py` builds from two
//! manuals eval-dev does not hold (debian-reference, debian-handbook and LibreOffice's shared help, on
//! which the rules were calibrated; installation-guide and LibreOffice's applications' help, held out:
//! translations, hard same-topic negatives, partial translations); and hand-made paragraphs checked as
//! a user checks them.

use std::collections::HashMap;

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

/// A manual set as `check` reports it at the default settings (see [`manual_set`]).
#[derive(Debug)]
struct SetFigures {
    /// Per direction: translated paragraphs, and those flagged by a translation of their true source.
    found: HashMap<String, (usize, usize)>,
    /// Same-topic paragraphs, and those flagged as translations.
    same_topic: (usize, usize),
    /// Documents of partial translations: the mean absolute difference of their copy ratio from the
    /// truth's.
    partial_ratio_error: f64,
    /// Same-topic paragraphs with a translated passage counted (under the threshold).
    same_topic_with_translated_passages: usize,
}

/// Check every query of `tests/fixtures/<set>` against a library of its library files.
fn manual_set(set: &str) -> SetFigures {
    let dir = tongwen_testdata::repository_root()
        .join("tests/fixtures")
        .join(set);
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json")).unwrap()).unwrap();
    let s = Sandbox::new();
    let mut add = vec!["library", "add"];
    let library: Vec<String> = truth["library"]
        .as_object()
        .unwrap()
        .keys()
        .map(|f| dir.join(f).to_str().unwrap().to_string())
        .collect();
    add.extend(library.iter().map(String::as_str));
    s.ok(&add);
    let queries: Vec<String> = truth["queries"]
        .as_object()
        .unwrap()
        .keys()
        .map(|f| dir.join(f).to_str().unwrap().to_string())
        .collect();
    let mut check = vec!["check", "--format", "json"];
    check.extend(queries.iter().map(String::as_str));
    let report: Value = serde_json::from_str(&s.ok(&check)).unwrap();
    let key = |t: &str| t.split_whitespace().collect::<String>();
    let mut f = SetFigures {
        found: HashMap::new(),
        same_topic: (0, 0),
        partial_ratio_error: 0.0,
        same_topic_with_translated_passages: 0,
    };
    let mut partial_documents = 0;
    for doc in report["documents"].as_array().unwrap() {
        let file = doc["file"].as_str().unwrap();
        let name = &file[file.rfind("queries/").unwrap()..];
        let t = &truth["queries"][name];
        let by_text: HashMap<String, &Value> = t["paragraphs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (key(p["text"].as_str().unwrap()), p))
            .collect();
        if let Some(want) = t["copy_ratio"].as_f64() {
            partial_documents += 1;
            f.partial_ratio_error += (doc["total_ratio"].as_f64().unwrap() - want).abs();
        }
        for p in doc["paragraphs"].as_array().unwrap() {
            let Some(tp) = by_text.get(&key(p["text"].as_str().unwrap())) else {
                continue;
            };
            let best = &p["matches"][0];
            let by_translation = p["flagged"] == true && best["cross_language"] == true;
            // The manuals repeat some paragraphs word for word: any source as good as the best is right.
            let as_good: Vec<&Value> = p["matches"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["similarity"] == best["similarity"])
                .collect();
            match tp["obfuscation"].as_str().unwrap() {
                "translation" => {
                    let source = &tp["sources"][0];
                    let right = as_good.iter().any(|m| {
                        m["source_path"].as_str().is_some_and(|sp| {
                            sp.ends_with(source["library_file"].as_str().unwrap())
                        }) && m["source_paragraph"] == source["paragraph"]
                    });
                    let e = f
                        .found
                        .entry(tp["direction"].as_str().unwrap().to_string())
                        .or_default();
                    e.0 += 1;
                    e.1 += usize::from(by_translation && right);
                }
                "same-topic" => {
                    f.same_topic.0 += 1;
                    f.same_topic.1 += usize::from(by_translation);
                    for m in p["passages"].as_array().unwrap() {
                        if m["cross_language"] == true {
                            f.same_topic_with_translated_passages += 1;
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    f.partial_ratio_error /= partial_documents.max(1) as f64;
    f
}

/// The calibration set (debian-reference): the rules' constants were chosen on it and on the eval-dev
/// set above, so its figures are floors that hold what was reached, not an estimate (see the
/// held-out set's test for that).
#[test]
fn the_calibration_manual_set_finds_translations_and_calls_no_same_topic_text_a_translation() {
    let f = manual_set("translation-debian-reference");
    println!("{f:?}");
    for direction in ["zh->en", "en->zh"] {
        let (n, found) = f.found[direction];
        assert_eq!(n, 120, "{direction}");
        // 0.958 and 0.967 before single-pair matches needed `SINGLE_PAIR_CONFIDENCE`, 0.933 and
        // 0.925 with it, 0.925 and 0.917 once the confidence read the words' order; 0.942 and 0.942
        // before a lone joined pair needed `SINGLE_JOINED_PAIR_CONFIDENCE` (0.942 and 0.908 since).
        assert!(found as f64 >= 0.90 * n as f64, "{direction}: {f:?}");
    }
    assert_eq!(f.same_topic.0, 480, "{f:?}");
    assert!(
        f.same_topic.1 as f64 <= 0.005 * f.same_topic.0 as f64,
        "{f:?}"
    );
    // 0 with 32 stored concepts (`crosslang::MAX_STORED_CONCEPTS`, before fingerprint version 7).
    assert!(f.same_topic_with_translated_passages <= 1, "{f:?}");
    // 0.037 with 32 stored concepts; 0.049 before a translated passage was kept beside a same-language match of its source's copied
    // names, and before a full stop followed by an ideograph ended a sentence (0.042 since; 0.043 with
    // the passage bars of `PASSAGE_CONFIDENCE`; 0.040 once a plural Latin token kept its singular;
    // 0.037 once a hyphenated English word stood for its parts; 0.031 before the ties of the last
    // candidate were verified in a library of any size; 0.030 since, 0.027 in stop 60's draw, whose
    // writers' own text holds no sentence the library nearly holds in either language).
    assert!(f.partial_ratio_error <= 0.028, "{f:?}");
}

/// The second calibration set (debian-handbook, Publican's HTML): added when the held-out set showed
/// same-topic sentence pairs counted under the threshold that debian-reference did not; the bar for
/// such pairs (`PARTIAL_COVER`) and `MIN_MATCHED` were chosen on it and on debian-reference.
#[test]
fn the_second_calibration_manual_set_holds_its_figures() {
    let f = manual_set("translation-debian-handbook");
    println!("{f:?}");
    for direction in ["zh->en", "en->zh"] {
        let (n, found) = f.found[direction];
        assert_eq!(n, 205, "{direction}");
        // 0.888 and 0.898 before gap pairs (`crosslang::GAP_COVER`), 0.907 and 0.922 with them.
        assert!(found as f64 >= 0.90 * n as f64, "{direction}: {f:?}");
    }
    assert_eq!(f.same_topic.0, 765, "{f:?}");
    // 3 before step 6's model read each side's cover and words.
    assert!(f.same_topic.1 <= 1, "{f:?}");
    // 1 before a sentence of a Chinese paragraph with any ideograph was Chinese: the second is the
    // same boilerplate sentence ("The full syntax is explained here: → <links>") translated, with
    // other links.
    assert!(f.same_topic_with_translated_passages <= 2, "{f:?}");
    // 0.081 before pairs scoring under `PARTIAL_COVER` could count at `SINGLE_PAIR_CONFIDENCE`, 0.080
    // before a closed English compound the lexicon lacks stood for its two words; 0.077 with 32 stored
    // concepts (before fingerprint version 7); 0.073 before the ties of the last candidate were
    // verified in a library of any size, 0.069 since. Stop 60's draw, whose writers' own text holds
    // no sentence the library nearly holds in either language (the generator checked negatives for
    // that, not own text), puts other own text around the inserted sentences: 0.076, the same code.
    assert!(f.partial_ratio_error <= 0.077, "{f:?}");
}

const ZH_OWN: [&str; 3] = [
    "上传软件包之前，请先在干净的环境中构建它，并用 lintian 检查常见的打包问题。",
    "打包工作完成以后，我们通常会把变更日志整理一遍，再写一封说明邮件发给团队的其他成员。",
    "这些步骤看起来繁琐，但是坚持下来以后，每一次发布都会更加顺利。",
];

/// One translated sentence in the writer's own paragraph: the paragraph stays under the translation
/// threshold and is not flagged, but the sentence is listed among its passages, paired with its source
/// sentence, and counts in the document's figures as translation.
#[test]
fn a_translated_sentence_in_a_writers_own_paragraph_counts_as_a_passage() {
    let s = Sandbox::new();
    let en = s.write("maintainer-guide.txt", format!("{EN_SOURCE}\n"));
    s.ok(&["library", "add", en.to_str().unwrap()]);
    let translated =
        "如果你想成为一名好的维护者，你应该定期检查错误跟踪系统中你的软件包的错误报告。";
    let paragraph = format!("{}{translated}{}{}", ZH_OWN[0], ZH_OWN[1], ZH_OWN[2]);
    let essay = s.write("essay.txt", format!("{paragraph}\n"));
    let report = s.check_json(&essay);
    let doc = &report["documents"][0];
    let p = &doc["paragraphs"][0];
    assert_eq!(p["flagged"], false, "{p}");
    assert!(p["matches"].as_array().unwrap().is_empty(), "{p}");
    let m = &p["passages"][0];
    assert_eq!(m["cross_language"], true, "{p}");
    let spans = m["spans"].as_array().unwrap();
    assert_eq!(spans.len(), 1, "{p}");
    let at = |r: &Value| {
        r.as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect::<Vec<_>>()
    };
    let start = ZH_OWN[0].chars().count();
    assert_eq!(
        at(&spans[0]["submission"]),
        [start, start + translated.chars().count()]
    );
    let source: String = EN_SOURCE.chars().skip(at(&spans[0]["source"])[0]).collect();
    assert!(
        source.starts_with("If you want to be a good maintainer"),
        "{source}"
    );
    // The sentence's characters count, as translation.
    assert_eq!(doc["copied_chars"], translated.chars().count(), "{doc}");
    let (ratio, by_translation) = (
        doc["total_ratio"].as_f64().unwrap(),
        doc["translated_ratio"].as_f64().unwrap(),
    );
    assert!(
        ratio > 0.2 && ratio < 0.45 && (ratio - by_translation).abs() < 1e-9,
        "{doc}"
    );
    // The writer's own sentences alone: nothing.
    let own = s.write("own.txt", format!("{}\n", ZH_OWN.concat()));
    let report = s.check_json(&own);
    assert_eq!(report["documents"][0]["copied_chars"], 0, "{report}");
}

#[test]
fn a_translated_sentence_counts_whole_when_its_source_also_shares_copied_names() {
    // The source's paths are copied verbatim, so the same-language check already finds the library
    // paragraph as a passage of those names; the translated sentence around them must still count whole.
    let s = Sandbox::new();
    let zh = s.write(
        "pam.txt",
        "如果\"auth optional pam_group.so\" 这行添加到了\"/etc/pam.d/common-auth\"，并且在\
\"/etc/security/group.conf\" 里进行了设置，一个用户的实际组就可以被动态添加。参见 pam_group(8).\n",
    );
    s.ok(&["library", "add", zh.to_str().unwrap()]);
    let translated = "The actual group membership of a user may be dynamically added if \"auth optional \
pam_group.so\" line is added to \"/etc/pam.d/common-auth\" and set it in \"/etc/security/group.conf\".";
    let essay = s.write(
        "essay.txt",
        format!(
            "Many popular transportation layer services communicate messages including password \
authentication in the plain text. {translated} Use of apt-pinning by a novice user is sure call for \
major troubles. You must avoid using apt-pinning except when you absolutely need it.\n"
        ),
    );
    let report = s.check_json(&essay);
    let doc = &report["documents"][0];
    let p = &doc["paragraphs"][0];
    assert_eq!(p["flagged"], false, "{p}");
    let passages = p["passages"].as_array().unwrap();
    assert!(
        passages.iter().any(|m| m["cross_language"] == true),
        "the translated sentence is a passage: {p}"
    );
    let sentence = translated.chars().filter(|c| !c.is_whitespace()).count();
    let copied = doc["copied_chars"].as_u64().unwrap() as usize;
    assert!(copied >= sentence, "{copied} of {sentence}: {doc}");
    assert!(doc["translated_ratio"].as_f64().unwrap() > 0.0, "{doc}");
}

/// A lone sentence pair that joins two sentences of one side must be surer than a one-to-one pair
/// (`SINGLE_JOINED_PAIR_CONFIDENCE`): same-topic text of one manual reaches a one-to-one pair's bar
/// through a join, in both directions (hand-made after the calibration sets' office help: the twin of a
/// help sentence that says the opposite, and a sentence on date formats beside one on the locale),
/// while a sentence truly translated as two, or two as one, is still found.
#[test]
fn a_lone_joined_pair_must_be_surer_and_same_topic_joins_stay_under_the_threshold() {
    let s = Sandbox::new();
    let zh = s.write(
        "calc-zh.txt",
        "禁用本选项后，Calc 将只侦测并转换小数数字。其他的数字，包括科学计数法格式的数字，将作为文本导入。\n\n\
主控文档可用于管理大型文档。例如，具有许多章节的书籍可以分成几个子文档。\n",
    );
    let en = s.write(
        "basic-en.txt",
        "You can set the locale used for controlling the formatting numbers, dates and currencies in \
LibreOffice Basic in LibreOffice - Preferences Tools - Options - Language Settings - Languages.\n\n\
This chapter presents the structure and contents of binary and source packages, and how the dpkg \
command handles them.\n",
    );
    s.ok(&["library", "add", zh.to_str().unwrap(), en.to_str().unwrap()]);
    let flagged = |name: &str, text: &str| {
        let file = s.write(name, format!("{text}\n"));
        let report = s.check_json(&file);
        let p = report["documents"][0]["paragraphs"][0].clone();
        (p["flagged"] == true && matched_by_translation(&p), p)
    };
    // Same topic, English against the Chinese library and Chinese against the English one.
    for (name, text) in [
        (
            "twin-en.txt",
            "When this option is enabled, Calc will automatically detect all number formats, including \
special number formats such as dates, time, and scientific notation.",
        ),
        (
            "dates-zh.txt",
            "所有日期格式均与「LibreOffice - 偏好设置工具 - 选项 - 语言设置 - 语言」中的区域设置相关。\
例如，如果您的区域设为「日语」，则将使用和历。",
        ),
    ] {
        let (yes, p) = flagged(name, text);
        assert!(!yes, "{name} is not a translation: {p}");
    }
    // Translations whose one pair joins two sentences, in both directions.
    for (name, text) in [
        (
            "master-en.txt",
            "A master document lets you manage large documents, such as a book with many chapters split \
into several subdocuments.",
        ),
        (
            "packages-zh.txt",
            "本章介绍了二进制包和源码包的结构和内容。本章也介绍了 dpkg 命令如何处理它们。",
        ),
    ] {
        let (yes, p) = flagged(name, text);
        assert!(yes, "{name} is a translation: {p}");
    }
}

/// A weak join must not displace a sure one-to-one pair: "A. B." against "A'. B'." where A pairs A' at
/// 1.0 and B pairs B' only under the pairing score, but A and B joined pair B' at it. The join covers
/// more of the paragraph, so the alignment took it, and as a lone joined pair it fell short of its bar:
/// the translation was not reported. The one-to-one pairs (A with A', B with B' in the gap) now count
/// when the join's do not and there are more than one of them. The pair is one of the office-help
/// calibration set's; the same-topic paragraph on date formats (above) is the guard: its lone join,
/// realigned one to one, is a lone pair and stays unreported.
#[test]
fn a_weak_join_does_not_displace_a_sure_one_to_one_pair() {
    let s = Sandbox::new();
    let zh = s.write(
        "navigator-zh.txt",
        "「导航」列出主控文档的主要组件。当把鼠标指针置于列表中某子文档的名称上时，将显示子文档的完整路径。\n",
    );
    s.ok(&["library", "add", zh.to_str().unwrap()]);
    let en = s.write(
        "navigator-en.txt",
        "The Navigator lists the main components of the master document. If you rest the mouse \
pointer over a name of a sub-document in the list, the full path of the sub-document is displayed.\n",
    );
    let report = s.check_json(&en);
    let p = &report["documents"][0]["paragraphs"][0];
    let m = &p["matches"][0];
    assert!(
        p["flagged"] == true && m["cross_language"] == true && m["similarity"] == 1.0,
        "{p}"
    );
    assert_eq!(m["spans"].as_array().unwrap().len(), 2, "two pairs: {m}");
}

/// A lone sentence pair that gap pairs stand beside (`GAP_BACKED_PAIR_CONFIDENCE`): the alignment goes
/// on in order through a sentence the dictionary reads poorly, so the pair needs less than a truly
/// lone pair, in both directions; a same-topic paragraph whose one pair has such a gap pair beside it
/// (two sentences on aligning objects, the top edge against the right one) stays under the
/// threshold. The pairs are the office-help calibration set's.
#[test]
fn a_lone_pair_with_a_gap_pair_beside_it_is_believed_and_same_topic_alignment_is_not() {
    let s = Sandbox::new();
    let zh = s.write(
        "updates-zh.txt",
        "如果没有可用更新，对话框中的消息将通知您没有任何更新。关闭对话框。\n",
    );
    let en = s.write(
        "align-en.txt",
        "Aligns the right edges of the selected objects. If only one object is selected in Impress or \
Draw, the right edge of the object is aligned to the right page margin.\n\n\
In this section you can delimit the number of approximation steps carried out during iterative \
calculations. In addition, you can specify the degree of precision of the answer.\n",
    );
    s.ok(&["library", "add", zh.to_str().unwrap(), en.to_str().unwrap()]);
    let check = |name: &str, text: &str| {
        let file = s.write(name, format!("{text}\n"));
        let report = s.check_json(&file);
        report["documents"][0]["paragraphs"][0].clone()
    };
    for (name, text) in [
        (
            "updates-en.txt",
            "If no updates are available, the message in the dialog tells you there are no updates. \
Close the dialog.",
        ),
        (
            "iterations-zh.txt",
            "在此区域中，您可以限定循环计算过程中的迭代步数。另外，您还可以指定计算结果的精确度。",
        ),
    ] {
        let p = check(name, text);
        let m = &p["matches"][0];
        assert!(
            p["flagged"] == true && m["cross_language"] == true && m["similarity"] == 1.0,
            "{name} is a translation: {p}"
        );
        assert_eq!(m["spans"].as_array().unwrap().len(), 2, "{name}: {m}");
    }
    let p = check(
        "align-zh.txt",
        "对象与所选对象中最顶端对象的上边缘对齐。要对齐组合中的单个对象，请选择「格式 - 组合 - 编辑组合」双击以进入组合，\
并选择对象，点击鼠标右键，然后选择一个对齐方式选项。",
    );
    assert!(
        !matched_by_translation(&p),
        "same topic, not a translation: {p}"
    );
}

/// Whether a report's paragraph has a translation among its matches at or above the translation
/// threshold.
fn matched_by_translation(p: &Value) -> bool {
    p["matches"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["cross_language"] == true && m["below_own_threshold"] != true)
}

/// The held-out set (installation-guide): made with the calibration set's generator from another manual
/// and measured once the rules were settled, never tuned on. Its figures are the ones to expect on
/// manuals nobody tuned to (docs/how-it-works.md, "Copies by translation"); the floors here hold them.
#[test]
fn the_held_out_manual_set_measures_what_the_documentation_says() {
    let f = manual_set("translation-installation-guide");
    println!("{f:?}");
    let (n, found) = f.found["zh->en"];
    assert_eq!(n, 110);
    // 99 before a lone joined pair needed `SINGLE_JOINED_PAIR_CONFIDENCE`, 98 before a closed English
    // compound the lexicon lacks stood for its two words.
    assert!(found >= 99, "{f:?}");
    let (n, found) = f.found["en->zh"];
    assert_eq!(n, 110);
    // 91 before gap pairs (`crosslang::GAP_COVER`), 96 before step 6's model read each side's cover
    // and words, 98 before a plural Latin token kept its singular, 99 before a hyphenated English
    // word stood for its parts.
    // 100 before a lone pair beside gap pairs needed `GAP_BACKED_PAIR_CONFIDENCE` instead of
    // `SINGLE_PAIR_CONFIDENCE`; 101 with 32 stored concepts (before fingerprint version 7).
    assert!(found >= 103, "{f:?}");
    assert_eq!(f.same_topic.0, 389, "{f:?}");
    // 2 of 389 in stop 60's draw (0.51 %): one, on the installer's network probe, has a library
    // counterpart that translates an older version of it; the other's second sentence says what a
    // library sentence says (resizing a FAT or NTFS partition at the partitioning step). 1 of 392
    // before, 4 before single-pair matches needed `SINGLE_PAIR_CONFIDENCE`.
    assert!(f.same_topic.1 <= 2, "{f:?}");
    // 10 with a translated passage before passages needed `PASSAGE_CONFIDENCE`, 0.059 off; 7 and
    // 0.058 with 8 candidates, before the bar rose with step 6's twelve-feature model.
    // 6 before the passage bars of `PASSAGE_CONFIDENCE` (0.5, and 1.0 under `PARTIAL_COVER`), 7 before
    // a plural Latin token kept its singular (`crosslang`'s anchors); 8 before stop 60's draw.
    assert!(f.same_topic_with_translated_passages <= 10, "{f:?}");
    // 0.068 before a translated passage was kept beside a same-language match of its source's copied
    // names and a full stop followed by an ideograph ended a sentence (0.066 since, 0.061 with the
    // passage bars of `PASSAGE_CONFIDENCE`, 0.054 once a hyphenated English word stood for its parts,
    // 0.052 once a closed compound did, 0.050 with 48 stored concepts, 0.040 once the ties of the
    // last candidate were verified in a library of any size; 0.055 in stop 60's draw, the same code).
    assert!(f.partial_ratio_error <= 0.055, "{f:?}");
}

/// LibreOffice's help shared by every application and Basic's (calibration): office software, short
/// pages sharing most of their vocabulary (format, table, paragraph, dialog). Step 6's first models
/// (`crosslang::single_pair_confidence`) were fitted on its first draw and the two manual sets above
/// (5 of that draw's 1,187 same-topic paragraphs flagged, 119 before any such rule), the present one
/// and its bars on this draw and the same two sets. This draw leaves out paragraphs the library holds
/// in their own language (109 of the first draw's same-topic paragraphs were copies in their own
/// language, flagged as such).
#[test]
fn the_office_help_calibration_set_holds_its_figures() {
    manual_set("translation-libreoffice-general").holds(Floors {
        // 225, 309 and 4 before a lone joined pair needed `SINGLE_JOINED_PAIR_CONFIDENCE`; 222 before
        // a weak join could no longer displace a sure one-to-one pair; 226 before a hyphenated
        // English word stood for its parts; 229 and 308 before a closed compound the lexicon lacks
        // ("spellchecking") stood for its two words.
        // 232 and 310 before a lone pair beside gap pairs needed `GAP_BACKED_PAIR_CONFIDENCE`.
        // 313 and 1 before a sentence pairing out of order needed a source sentence no other pair
        // held: the same-topic paragraph on a Web form's list entries had two sentences on one, and
        // one translation ("Most of them leave an unprinted margin.") was found that way.
        // 233 and 15 with 32 stored concepts (before fingerprint version 7). 238, 312, 14 and 0.056
        // before the ties of the last candidate were verified in a library of any size: of the 4
        // same-topic paragraphs given a passage since, 2 hold a sentence that a library paragraph
        // translates ("Click Convert to carry out the conversion." beside "点击此按钮即可执行转换。").
        en_zh: (253, 239),
        zh_en: (348, 314),
        // 0 of 1,068 and 18 before stop 60's draw, whose writers' own text holds no sentence the
        // library nearly holds in either language (the generator checked negatives for that, not
        // own text), which changed the negatives too. The one flagged since ends "The global
        // settings are automatically saved.", which a library paragraph translates ("这些设置会自动
        // 保存。"): the help repeats it.
        same_topic: (1059, 1),
        // 16 before the passage bars of `PASSAGE_CONFIDENCE` (0.5, and 1.0 under `PARTIAL_COVER`).
        with_passages: 19,
        // 0.0593 before a full stop followed by an ideograph ended a sentence: one document then
        // counted a writer's sentence glued to an inserted translated one (0.0605 since, 0.0564 with
        // the passage bars, 0.0555 with hyphenated words' parts, 0.049 before stop 60's draw).
        partial_ratio_error: 0.054,
    });
}

/// LibreOffice's applications' own help (Writer, Calc, Impress, Draw, Base, Chart, Math): held out, made
/// from other pages than the calibration set's and measured once the rules were settled
/// (docs/how-it-works.md, "Copies by translation"); the floors hold what was measured: 4 of 941
/// same-topic paragraphs flagged (0.43 %, the target 0.5 %; 0.52–1.54 % on the generator's seeds 1–3,
/// not held here; 5 before a lone joined pair needed
/// `SINGLE_JOINED_PAIR_CONFIDENCE`, 6 before step 6's twelve-feature model). Its first
/// draw held 185 same-topic paragraphs the library holds in their own language; on it earlier rules
/// flagged 9 of 1,210, 10 before the words' order and `SEVERAL_PAIRS_CONFIDENCE`, 109 before
/// `SINGLE_PAIR_CONFIDENCE`.
#[test]
fn the_office_help_held_out_set_measures_what_the_documentation_says() {
    manual_set("translation-libreoffice-apps").holds(Floors {
        // 217, 327 and 5 (0.53 %) before a lone joined pair needed `SINGLE_JOINED_PAIR_CONFIDENCE`;
        // 215 and 324 before a hyphenated English word stood for its parts; 216 (en->zh) before the
        // cross-language shortlist read concepts held by up to 5 % of the library instead of 2 % (at
        // least 100 either way: 108 of this library's 2,171 paragraphs instead of 100).
        // 215 and 326 before a lone pair beside gap pairs needed `GAP_BACKED_PAIR_CONFIDENCE`; 218
        // before a sentence pairing out of order needed a source sentence no other pair held (two
        // translations had been flagged against another paragraph, two sentences on one of its).
        // 220, 0.0849 with 32 stored concepts (before fingerprint version 7). 231, 8 and 0.072
        // before the ties of the last candidate were verified in a library of any size.
        en_zh: (266, 232),
        zh_en: (378, 329),
        // 4 of 951 before stop 60's draw.
        same_topic: (941, 4),
        // 10 and 0.086 before the passage bars of `PASSAGE_CONFIDENCE` (0.5, and 1.0 under
        // `PARTIAL_COVER`); 0.082 before a plural Latin token kept its singular: one document's
        // inserted translated sentence ("serifs") is now found, and that document was already
        // counted over its truth. 0.0855 → 0.0878 once a hyphenated English word stood for its parts:
        // the same document's "right-clicking" sentence is now found as well; 0.0849 once a closed
        // compound the lexicon lacks stood for its two words.
        // 11 and 0.067 before stop 60's draw, where two documents counted over their truth a writer's
        // own paragraph that translates a library paragraph (the help repeats paragraphs).
        with_passages: 13,
        partial_ratio_error: 0.084,
    });
}

/// What a set was measured at, held as floors: translations (paragraphs, at least found) by direction,
/// same-topic paragraphs (paragraphs, at most flagged), at most so many with a translated passage
/// counted, and at most so far off on partial translations.
struct Floors {
    en_zh: (usize, usize),
    zh_en: (usize, usize),
    same_topic: (usize, usize),
    with_passages: usize,
    partial_ratio_error: f64,
}

impl SetFigures {
    fn holds(&self, floors: Floors) {
        println!("{self:?}");
        for (direction, (n, found)) in [("en->zh", floors.en_zh), ("zh->en", floors.zh_en)] {
            assert_eq!(self.found[direction].0, n, "{direction}: {self:?}");
            assert!(self.found[direction].1 >= found, "{direction}: {self:?}");
        }
        assert_eq!(self.same_topic.0, floors.same_topic.0, "{self:?}");
        assert!(self.same_topic.1 <= floors.same_topic.1, "{self:?}");
        assert!(
            self.same_topic_with_translated_passages <= floors.with_passages,
            "{self:?}"
        );
        assert!(
            self.partial_ratio_error <= floors.partial_ratio_error,
            "{self:?}"
        );
    }
}

/// Hand-made same-topic sentences of an office manual, in both directions: one sentence sharing nearly
/// all its words' concepts with a library sentence of the other language (capital and small letters
/// changed automatically; a paragraph's first-line indent and the ruler's triangles) without
/// translating it is not called a translation; the translations beside them are.
#[test]
fn a_same_topic_sentence_of_the_other_language_is_not_called_a_translation() {
    let s = Sandbox::new();
    let en = s.write(
        "autocorrect.txt",
        "If you type two capital letters at the start of a word, the second capital letter is \
changed to a small letter automatically.\n\nA master document lets you manage large documents, such \
as a book with many chapters.\n",
    );
    let zh = s.write(
        "indents.txt",
        "拖动水平标尺上左边的上三角形，可以改变所选段落首行的缩进。\n\n\
如果要打印包含数据库字段的文档，系统会询问您是否要打印套用信函。\n",
    );
    s.ok(&["library", "add", en.to_str().unwrap(), zh.to_str().unwrap()]);
    let zh_essay = s.write(
        "zh-essay.txt",
        "可以在这里输入字母 A 到 Z。如果输入的是小写字母，程序会自动把它转换成大写字母。\n\n\
主控文档可用于管理大型文档，例如具有许多章节的书籍。\n",
    );
    let en_essay = s.write(
        "en-essay.txt",
        "This icon shows the first-line indent of the current paragraph (upper triangle) and the \
left indent of its other lines (lower triangle).\n\nIf you print a document that contains database \
fields, you are asked whether you want to print a form letter.\n",
    );
    for essay in [zh_essay, en_essay] {
        let report: Value = s.check_json(&essay);
        let p = same_topic_then_translation(&report);
        assert!(p[0]["passages"].as_array().unwrap().is_empty(), "{}", p[0]);
    }
}

/// Same-topic paragraphs of two sentences from LibreOffice's help (the calibration set's), in both
/// directions: each sentence pairs weakly with a sentence of the library paragraph (selecting objects
/// and text, editing text in an object), and two weak pairs used to add up to a 100 % translation. The
/// best pair must now be convincing; the hand-made translations of two sentences beside them still flag.
#[test]
fn weak_same_topic_sentence_pairs_do_not_add_up_to_a_translation() {
    let s = Sandbox::new();
    let en = s.write(
        "objects.txt",
        "To enter text to be a part of a graphics object, select the object and start typing your \
text. Click outside the object to end entering text. Double-click text inside an object to edit the \
text.\n\nSelect the text that you want to change to a different font. Choose Format - Character and \
click the Font tab, then select a font from the list.\n",
    );
    let zh = s.write(
        "formats.txt",
        "首先选择一些文本或一个对象，然后点击该图标。之后点击或拖选其它文本，或者点击一个对象，以便为其应用相同的格式。\n\n\
如果要删除表格中的一行，请将光标放在该行中，然后选择「表格 - 删除 - 行」。所选的行会立即从表格中删除。\n",
    );
    s.ok(&["library", "add", en.to_str().unwrap(), zh.to_str().unwrap()]);
    let zh_essay = s.write(
        "zh-essay.txt",
        "若启用，您可以在点击文本对象后直接编辑文本。若禁用，您必须双击方可编辑文本。\n\n\
选择要改为其他字体的文本。选择「格式 - 字符」并点击「字体」选项卡，然后从列表中选择一种字体。\n",
    );
    let en_essay = s.write(
        "en-essay.txt",
        "Press Shift+F4 to select the first object in the current document. When an object is \
selected, press Tab to select the next object, or press Esc to go back to the text.\n\nTo delete a row \
of a table, place the cursor in that row and choose Table - Delete - Rows. The selected row is removed \
from the table at once.\n",
    );
    for essay in [zh_essay, en_essay] {
        let report: Value = s.check_json(&essay);
        let p = same_topic_then_translation(&report);
        assert_eq!(p[1]["matches"][0]["similarity"], 1.0, "{}", p[1]);
    }
}

/// Same-topic sentences inside a writer's own paragraphs, in both directions (LibreOffice's help and
/// the Debian Administrator's Handbook, from the calibration sets): each pairs with a library sentence
/// of the other language at a score above `PARTIAL_COVER` (printing backgrounds; removing an entry from
/// a list; a stable release replacing the old one) and used to count as a translated passage, 24 % to
/// 43 % of its document. A passage must now be believable as a translation (`PASSAGE_CONFIDENCE`); the
/// translated sentence of `a_translated_sentence_in_a_writers_own_paragraph_counts_as_a_passage` still
/// counts.
#[test]
fn same_topic_sentences_in_a_writers_paragraph_are_not_counted_as_translated_passages() {
    let s = Sandbox::new();
    let zh = s.write(
        "print.txt",
        "在电子表格中，这个背景只在打印时出现在那些没有另行规定格式的单元格上。\n\n\
从列表中选择要删除的模块或对话框。如果需要，可以通过双击某条目展开子条目。\n",
    );
    let en = s.write(
        "release.txt",
        "The term “release”, in the Debian project, indicates a particular version of a distribution \
(e.g., “unstable release” means “the unstable version”). It also indicates the public announcement of \
the launch of any new version (stable).\n",
    );
    s.ok(&["library", "add", en.to_str().unwrap(), zh.to_str().unwrap()]);
    let en_essay = s.write(
        "en-essay.txt",
        "Black & white converts all colors into the two values black and white. All borders around \
objects are printed black. All text will be printed in black. A background set by Format - Page - \
Background will not be printed.\n\nThe Stored Web Connection Information dialog shows a list of web \
sites and user names that you entered previously. You can select any entry and remove it from the \
list. You can view the password for the selected entry.\n",
    );
    let zh_essay = s.write(
        "zh-essay.txt",
        "每个稳定版预计有五年寿命，每二年发行新的稳定版，同一时间最多可有三个支持的稳定版在流通。\
新的稳定版发布时，前个版本就变成旧稳定版而更早的就成为老旧稳定版。\n",
    );
    for essay in [en_essay, zh_essay] {
        let report: Value = s.check_json(&essay);
        let doc = &report["documents"][0];
        for p in doc["paragraphs"].as_array().unwrap() {
            assert_eq!(p["flagged"], false, "{p}");
            assert!(p["passages"].as_array().unwrap().is_empty(), "{p}");
        }
        assert_eq!(doc["total_ratio"], 0.0, "{doc}");
    }
}

/// A report's paragraphs, the first same-topic text (not flagged), the second a translation (flagged by
/// a cross-language match).
fn same_topic_then_translation(report: &Value) -> &Value {
    let p = &report["documents"][0]["paragraphs"];
    assert_eq!(
        p[0]["flagged"], false,
        "same topic, not a translation: {}",
        p[0]
    );
    assert_eq!(p[1]["flagged"], true, "a translation: {}", p[1]);
    assert_eq!(p[1]["matches"][0]["cross_language"], true, "{}", p[1]);
    p
}
