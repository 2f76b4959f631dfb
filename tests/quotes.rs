//! Quotations and references apart from copying. The set is made here from eval-dev's material the way
//! the patchwriting set is (`patchwriting::make_set`: eval-dev's clean query paragraphs, each with one
//! sentence of a different library document inserted), with the sentence written four ways in turn:
//! quoted with a citation (`“…”[3]`, `“…”（王明，2019）`, `正如王明所说：“…”`, `"…" (Smith, 2019)`, `As Smith
//! puts it, "…"`), quoted without one, and plain (twice as often). A references section shared with a
//! library document closes each submission. Expected: cited quotations are `quoted`, everything else
//! `copied` (uncited quotations marked `in_quotes`), the references `reference`; no plain copy excused
//! as a quotation or a reference (the dangerous error); `--exclude quotes,references` leaves exactly the
//! plain copying in the ratio. Needs eval-dev.

use serde_json::Value;

use crate::patchwriting::make_set;
use crate::util::Sandbox;

const REFERENCES: [&str; 4] = [
    "[1] 王明, 李华. 自由软件社区的协作模式研究[J]. 计算机学报, 2019, 42(3): 512-525.",
    "[2] 张伟. Debian 软件包维护实践[M]. 北京: 清华大学出版社, 2020: 33-58.",
    "[3] Smith J, Brown K. Packaging free software for large distributions[C]//Proceedings of the Open Source Summit. Berlin: OSS Press, 2018: 101-110.",
    "[4] 陈静. 开源许可证的法律效力分析[D]. 上海: 复旦大学, 2021.",
];

/// How the `n`-th sentence is written, and whether it is a cited quotation, an uncited one, or plain.
fn written(n: usize, sentence: &str, english: bool) -> (String, &'static str) {
    match (n % 6, english) {
        (0, false) => (format!("“{sentence}”[3]"), "cited"),
        (1, false) => (format!("正如王明所说：“{sentence}”"), "cited"),
        (2, false) => (format!("“{sentence}”（王明，2019）"), "cited"),
        (0, true) => (format!("\"{sentence}\" (Smith, 2019)."), "cited"),
        (1, true) => (format!("As Smith puts it, \"{sentence}\""), "cited"),
        (2, true) => (format!("\"{sentence}\" [3]"), "cited"),
        (3, false) => (format!("“{sentence}”"), "uncited"),
        (3, true) => (format!("\"{sentence}\""), "uncited"),
        _ => (sentence.to_string(), "plain"),
    }
}

#[test]
fn quotations_and_references_are_told_apart_from_copying() {
    let Some(dir) =
        tongwen_testdata::eval_dev_for("quotations_and_references_are_told_apart_from_copying")
    else {
        return;
    };
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json")).unwrap()).unwrap();
    let s = Sandbox::new();
    s.ok(&["library", "add", dir.join("library").to_str().unwrap()]);
    // A library thesis with the same references.
    let thesis = s.write(
        "thesis.txt",
        format!(
            "开源社区的治理结构决定了贡献者之间的协作方式，也影响着软件的长期维护质量。\n\n参考文献\n\n{}\n",
            REFERENCES.join("\n\n")
        ),
    );
    s.ok(&["library", "add", thesis.to_str().unwrap()]);

    let (mut cited, mut cited_found, mut excused, mut uncited_marked, mut uncited) =
        (0, 0, 0, 0, 0);
    let (mut references, mut references_found) = (0, 0);
    for (lang, docs) in [("zh", 3), ("en", 1)] {
        let english = lang == "en";
        let how = |n: usize| written(n, "", english).1;
        let set = make_set(&dir, &truth, lang, docs, &|n, sentence| {
            written(n, sentence, english).0
        });
        for (d, (paragraphs, _)) in set.iter().enumerate() {
            let mut body = paragraphs.clone();
            body.push(
                if english {
                    "References"
                } else {
                    "参考文献"
                }
                .to_string(),
            );
            body.extend(REFERENCES.iter().map(|r| r.to_string()));
            let file = s.write(&format!("quotes-{lang}-{d}.txt"), body.join("\n\n") + "\n");
            let report: Value = s.check_json(&file);
            let doc = &report["documents"][0];
            for (i, p) in doc["paragraphs"].as_array().unwrap().iter().enumerate() {
                let spans: Vec<&Value> = ["matches", "passages"]
                    .iter()
                    .flat_map(|k| p[*k].as_array().unwrap())
                    .flat_map(|m| m["spans"].as_array().unwrap())
                    .collect();
                let kinds: Vec<&str> = spans.iter().map(|s| s["kind"].as_str().unwrap()).collect();
                if i >= paragraphs.len() {
                    if i > paragraphs.len() {
                        references += 1;
                        references_found += usize::from(
                            !kinds.is_empty() && kinds.iter().all(|k| *k == "reference"),
                        );
                    }
                    continue;
                }
                match how(d * 8 + i) {
                    "cited" => {
                        cited += 1;
                        cited_found += usize::from(kinds.contains(&"quoted"));
                    }
                    "uncited" => {
                        uncited += 1;
                        uncited_marked += usize::from(
                            spans
                                .iter()
                                .any(|s| s["kind"] == "copied" && s["in_quotes"] == true),
                        );
                        excused += kinds.iter().filter(|k| **k != "copied").count();
                    }
                    _ => excused += kinds.iter().filter(|k| **k != "copied").count(),
                }
                if kinds.iter().any(|k| *k != "copied") && how(d * 8 + i) != "cited" {
                    println!("excused: {} {kinds:?}", p["text"]);
                }
                if how(d * 8 + i) == "uncited" && !spans.iter().any(|s| s["in_quotes"] == true) {
                    println!("unmarked: {}", p["text"]);
                }
            }
            // The figures: the total counts every kind; excluding quotes and references leaves the
            // plain copying.
            let kinds = &doc["kinds"];
            let f = |v: &Value| v.as_f64().unwrap();
            assert!(
                f(&kinds["quoted"]) > 0.0 && f(&kinds["reference"]) > 0.0,
                "{kinds}"
            );
            assert!((f(&doc["similarity_ratio"]) - f(&doc["total_ratio"])).abs() < 1e-9);
            let strict: Value = serde_json::from_str(&s.ok(&[
                "check",
                file.to_str().unwrap(),
                "--format",
                "json",
                "--exclude",
                "quotes,references",
            ]))
            .unwrap();
            let sd = &strict["documents"][0];
            assert!(
                (f(&sd["similarity_ratio"]) - f(&kinds["copied"])).abs() <= 0.0002,
                "{} vs {}",
                sd["similarity_ratio"],
                kinds["copied"]
            );
            assert!(f(&sd["total_ratio"]) == f(&doc["total_ratio"]));
            // CNKI's 去除引用文献复制比 is that same figure, in every report.
            for d in [doc, sd] {
                assert!(
                    (f(&d["without_quotes_references_ratio"]) - f(&sd["similarity_ratio"])).abs()
                        < 1e-9,
                    "{d}"
                );
            }
            assert!(f(&doc["without_quotes_references_ratio"]) < f(&doc["total_ratio"]));
        }
    }
    println!(
        "quotes: {cited_found} of {cited} cited quotations quoted; {uncited_marked} of {uncited} uncited \
         ones copied and marked in quotes; {references_found} of {references} reference entries \
         reference; {excused} plain or uncited passages excused"
    );
    assert_eq!(excused, 0, "a plain copy must never be excused");
    assert_eq!(cited_found, cited);
    assert_eq!(uncited_marked, uncited);
    assert_eq!(references_found, references);
}

#[test]
fn template_documents_are_never_counted_and_documents_carry_their_metadata() {
    let s = Sandbox::new();
    let template_text = "本人郑重声明：所呈交的课程论文是本人在导师指导下独立完成的研究成果，文中引用他人成果之处均已注明出处。";
    let source_text = "软件包维护者应当定期检查错误报告，及时回复用户提出的问题，并在新版本发布之前完成全部测试工作。";
    let template = s.write("template.txt", format!("{template_text}\n"));
    let source = s.write("thesis.txt", format!("{source_text}\n"));
    s.ok(&[
        "library",
        "add",
        template.to_str().unwrap(),
        "--role",
        "template",
        "--title",
        "学校论文模板",
        "--year",
        "2024",
        "--tag",
        "模板",
    ]);
    s.ok(&[
        "library",
        "add",
        source.to_str().unwrap(),
        "--author",
        "王明",
        "--year",
        "2019",
        "--tag",
        "published",
        "--tag",
        "2019级",
    ]);
    let list: Value = serde_json::from_str(&s.ok(&["library", "list", "--json"])).unwrap();
    assert_eq!(list[0]["role"], "template");
    assert_eq!(list[0]["title"], "学校论文模板");
    assert_eq!(list[1]["role"], "source");
    assert_eq!(list[1]["author"], "王明");
    assert_eq!(list[1]["year"], 2019);
    assert_eq!(list[1]["tags"], serde_json::json!(["2019级", "published"]));
    let table = s.ok(&["library", "list"]);
    assert!(
        table.contains("template") && table.contains("#published"),
        "{table}"
    );

    let sub = s.write(
        "essay.txt",
        format!("{template_text}\n\n{source_text}\n\n我们小组讨论了维护工作的意义，大家都认为及时处理问题最重要。\n"),
    );
    let report: Value = s.check_json(&sub);
    let doc = &report["documents"][0];
    let p = doc["paragraphs"].as_array().unwrap();
    assert_eq!(p[0]["flagged"], false, "template text is not flagged");
    assert_eq!(p[0]["copied_chars"], 0);
    assert_eq!(p[0]["passages"][0]["spans"][0]["kind"], "template");
    assert_eq!(p[1]["flagged"], true);
    let total: f64 = doc["total_chars"].as_f64().unwrap();
    let copied = crate::patchwriting::non_ws(source_text) as f64;
    assert!(
        (doc["total_ratio"].as_f64().unwrap() - copied / total).abs() < 0.001,
        "{doc}"
    );
    assert!(doc["kinds"]["template"].as_f64().unwrap() > 0.3);
    assert_eq!(
        doc["sources"].as_array().unwrap().len(),
        1,
        "the template is no source"
    );

    // The writer's own earlier work: kind own, left out with --exclude own.
    let mine: Value = serde_json::from_str(&s.ok(&[
        "check",
        sub.to_str().unwrap(),
        "--format",
        "json",
        "--author",
        "王明",
        "--exclude",
        "own",
    ]))
    .unwrap();
    let d = &mine["documents"][0];
    assert_eq!(
        d["paragraphs"][1]["matches"][0]["spans"][0]["kind"], "own",
        "{d}"
    );
    assert_eq!(d["similarity_ratio"], 0.0);
    assert_eq!(d["total_ratio"], doc["total_ratio"]);
    assert_eq!(d["kinds"]["own"], doc["total_ratio"]);
    // CNKI's 去除本人文献复制比: nothing is left once the writer's own work is apart.
    assert_eq!(d["without_own_ratio"], 0.0);
    assert!(doc["without_own_ratio"].as_f64().unwrap() > 0.0, "{doc}");
    let bad = s.tongwen(&[
        "library",
        "add",
        source.to_str().unwrap(),
        "--year",
        "123456",
    ]);
    assert!(!bad.status.success());
    assert!(crate::util::stderr(&bad).contains("year"));

    // Edited after adding, and filtered.
    let edited = s.ok(&[
        "library",
        "edit",
        "2",
        "--role",
        "template",
        "--untag",
        "published",
        "--tag",
        "旧作",
        "--year",
        "0",
    ]);
    assert!(
        edited.contains("template") && edited.contains("#旧作"),
        "{edited}"
    );
    let list: Value = serde_json::from_str(&s.ok(&["library", "list", "--json"])).unwrap();
    assert_eq!(list[1]["tags"], serde_json::json!(["2019级", "旧作"]));
    assert_eq!(
        (&list[1]["year"], &list[1]["author"]),
        (&Value::Null, &serde_json::json!("王明"))
    );
    let templates: Value =
        serde_json::from_str(&s.ok(&["library", "list", "--json", "--role", "template"])).unwrap();
    assert_eq!(templates.as_array().unwrap().len(), 2);
    let tagged: Value =
        serde_json::from_str(&s.ok(&["library", "list", "--json", "--tag", "模板"])).unwrap();
    assert_eq!(tagged[0]["title"], "学校论文模板");
    assert_eq!(tagged.as_array().unwrap().len(), 1);
    assert!(s
        .ok(&["library", "list", "--author", "李华"])
        .contains("no document"));
    let now: Value = s.check_json(&sub);
    assert_eq!(
        now["documents"][0]["total_ratio"], 0.0,
        "both are templates now"
    );
    let bad = s.tongwen(&["library", "edit", "2", "--title", " "]);
    assert!(!bad.status.success() && crate::util::stderr(&bad).contains("title"));
    let bad = s.tongwen(&["library", "edit", "77", "--author", "李华"]);
    assert!(!bad.status.success() && crate::util::stderr(&bad).contains("77"));
}

#[test]
fn a_paragraph_in_many_library_documents_is_template_text() {
    let s = Sandbox::new();
    let licence =
        "本文档依据知识共享署名相同方式共享许可协议发布，转载时请保留作者署名并注明原始出处链接。";
    // Five documents hold the licence line (the fewest for a common paragraph), each with its own text.
    let topics = ["软件包", "错误报告", "邮件列表", "版本发布", "安全更新"];
    for (i, topic) in topics.iter().enumerate() {
        s.write(
            &format!("lib/{i}.txt"),
            format!("关于{topic}的第{i}篇说明：维护者需要认真阅读{topic}相关文档，并按照流程逐步完成每一项检查工作。\n\n{licence}\n"),
        );
    }
    let copied = "维护者需要认真阅读软件包相关文档，并按照流程逐步完成每一项检查工作。";
    let sub = s.write("essay.txt", format!("{copied}\n\n{licence}\n"));
    s.ok(&["library", "add", s.path("lib").to_str().unwrap()]);
    let report: Value = s.check_json(&sub);
    let doc = &report["documents"][0];
    let p = doc["paragraphs"].as_array().unwrap();
    assert_eq!(p[0]["flagged"], true, "{doc}");
    assert_eq!(p[1]["flagged"], false, "{doc}");
    assert_eq!(p[1]["passages"][0]["spans"][0]["kind"], "template");
    assert!(doc["kinds"]["template"].as_f64().unwrap() > 0.4);
    // With four of the five removed the line is an ordinary source again.
    s.ok(&["library", "remove", "2", "3", "4", "5"]);
    let report: Value = s.check_json(&sub);
    assert_eq!(report["documents"][0]["paragraphs"][1]["flagged"], true);
}
