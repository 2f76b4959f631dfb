//! The seed papers' methods through the command line: `check --method`, `library duplicates --method`
//! and `tongwen eval` on the document-level duplicates set (`tests/fixtures/duplicates/`, made by
//! `scripts/make-duplicates-set.py` from eval-dev's library).

use serde_json::Value;

use crate::util::{stderr, Sandbox};

const SEEDS: [&str; 9] = [
    "simhash",
    "simhash-blocks",
    "p-simhash",
    "drpkp",
    "minhash",
    "minhash-one",
    "jaccard",
    "containment",
    "cosine",
];

const ZH: &str =
    "论文查重系统把学生提交的论文与文献库逐段比较，计算每个段落的相似度和全文的复制比，\
教师根据检测报告判断论文是否存在抄袭行为，并要求学生修改重复率过高的章节。";
const EN: &str = "Near-duplicate detection finds documents that differ only by small edits, such as \
changed punctuation, inserted advertisements or reordered paragraphs, and removes them before indexing.";
const OTHER: &str = "舆情数据来自微博、论坛和新闻评论，数量巨大而且重复率高，去重之后分析人员才能统计话题的真实热度，\
并及时发现突发事件的传播路径和主要观点。";

fn duplicates_set() -> std::path::PathBuf {
    tongwen_testdata::repository_root().join("tests/fixtures/duplicates/truth.json")
}

#[test]
fn every_seed_method_checks_a_copy_and_names_itself() {
    let s = Sandbox::new();
    s.write("lib/source.txt", format!("{ZH}\n\n{EN}\n"));
    s.write("lib/other.txt", format!("{OTHER}\n"));
    s.ok(&["library", "add", s.path("lib").to_str().unwrap()]);
    // The Chinese paragraph with its commas made semicolons; the English one whole; one unrelated.
    let sub = s.write(
        "sub.txt",
        format!(
            "{}\n\n{EN}\n\n今天的天气非常好，我们一起去公园散步，看见了很多美丽的花朵和高大的树木。\n",
            ZH.replace('，', "；")
        ),
    );
    for method in SEEDS {
        let out = s.ok(&[
            "check",
            sub.to_str().unwrap(),
            "--method",
            method,
            "--format",
            "json",
        ]);
        let r: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(r["method"], method);
        let paras = r["documents"][0]["paragraphs"].as_array().unwrap();
        let flagged: Vec<bool> = paras
            .iter()
            .map(|p| !p["matches"].as_array().unwrap().is_empty())
            .collect();
        assert_eq!(flagged, [true, true, false], "{method}: {out}");
        assert!(paras[0]["matches"][0]["source_path"]
            .as_str()
            .unwrap()
            .ends_with("source.txt"));
    }
    let bad = s.tongwen(&["check", sub.to_str().unwrap(), "--method", "md5"]);
    assert!(!bad.status.success() && stderr(&bad).contains("p-simhash"));
}

#[test]
fn library_duplicates_by_a_seed_method_at_both_levels() {
    let s = Sandbox::new();
    s.write("lib/a.txt", format!("{ZH}\n\n{EN}\n"));
    s.write("lib/b.txt", format!("{EN}\n\n{ZH}\n\n{OTHER}\n"));
    s.write(
        "lib/c.txt",
        "海边小镇的渔民每天清晨出海，傍晚带着满船的鱼虾回到港口，全镇的人都来码头迎接他们。\n",
    );
    s.ok(&["library", "add", s.path("lib").to_str().unwrap()]);
    for method in ["containment", "drpkp", "minhash"] {
        let docs: Value = serde_json::from_str(&s.ok(&[
            "library",
            "duplicates",
            "--method",
            method,
            "--format",
            "json",
        ]))
        .unwrap();
        assert_eq!(docs["method"], method);
        let groups = docs["groups"].as_array().unwrap();
        assert_eq!(groups.len(), 1, "{method}: {docs}");
        let titles: Vec<&str> = groups[0]["members"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["title"].as_str().unwrap())
            .collect();
        assert_eq!(titles, ["a", "b"], "{method}");
    }
    // Paragraph level: a's two paragraphs each repeat in b.
    let paras: Value = serde_json::from_str(&s.ok(&[
        "library",
        "duplicates",
        "--level",
        "paragraph",
        "--method",
        "jaccard",
        "--format",
        "json",
    ]))
    .unwrap();
    let groups = paras["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{paras}");
    for g in groups {
        let m = g["members"].as_array().unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m[0]["text"], m[1]["text"]);
        assert_eq!(g["pairs"][0]["similarity"], 1.0);
    }
}

/// The issue's bar: `library duplicates` with the default method finds every group of the duplicates
/// set, pairs at precision >= 0.99.
#[test]
fn eval_on_the_duplicates_set_finds_every_group_with_the_default_method() {
    let s = Sandbox::new();
    let truth = duplicates_set();
    let out = s.ok(&[
        "eval",
        truth.to_str().unwrap(),
        "--method",
        "verified,minhash",
        "--format",
        "json",
    ]);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["kind"], "duplicates");
    let groups = r["positives"].as_u64().unwrap();
    assert!(groups >= 30, "{out}");
    let rows = r["rows"].as_array().unwrap();
    let default = rows
        .iter()
        .find(|row| row["method"] == "verified" && row["default"] == true)
        .expect("the default row");
    assert_eq!(
        default["groups_recovered"].as_u64(),
        Some(groups),
        "{default}"
    );
    assert!(default["precision"].as_f64().unwrap() >= 0.99, "{default}");
    assert!(default["recall"].as_f64().unwrap() >= 0.95, "{default}");
    // `library duplicates`' own default, 0.8.
    assert_eq!(default["threshold"], 0.8);
    // Every method has a row per threshold swept (the sweep and its own default).
    assert_eq!(
        rows.iter().filter(|row| row["method"] == "minhash").count(),
        6
    );
    // The library the user has is never touched.
    assert!(!s.library_exists());
    let text = s.ok(&["eval", truth.to_str().unwrap(), "--method", "jaccard"]);
    assert!(text.contains("jaccard") && text.contains("0.50*"), "{text}");
}

#[test]
fn eval_refuses_a_file_that_is_not_a_benchmark() {
    let s = Sandbox::new();
    let bogus = s.write("truth.json", r#"{"hello": "world"}"#);
    let out = s.tongwen(&["eval", bogus.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("truth.json") && err.contains("neither a duplicates set"),
        "{err}"
    );
    let broken = s.write("broken.json", "{");
    let out = s.tongwen(&["eval", broken.to_str().unwrap()]);
    assert!(!out.status.success() && stderr(&out).contains("broken.json"));
}

/// `eval` gives each truth label's flagged share: on the translation set (`scripts/make-translation-set.py`)
/// same-language copies are all found and no same-topic paragraph is flagged.
#[test]
fn eval_gives_figures_by_label() {
    let s = Sandbox::new();
    let truth = tongwen_testdata::repository_root().join("tests/fixtures/translation/truth.json");
    let out = s.ok(&[
        "eval",
        truth.to_str().unwrap(),
        "--method",
        "verified",
        "--threshold",
        "0.3",
        "--format",
        "json",
    ]);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["kind"], "paragraphs");
    let labels = &r["rows"][0]["by_label"];
    assert_eq!(labels["exact"]["flagged"], 1.0, "{labels}");
    assert_eq!(labels["exact"]["paragraphs"], 12);
    assert_eq!(labels["same-topic"]["flagged"], 0.0, "{labels}");
    assert_eq!(labels["translation zh->en"]["paragraphs"], 40, "{labels}");
    assert_eq!(labels["translation en->zh"]["paragraphs"], 32);
    assert_eq!(labels["exact"]["right_source"], 1.0);
}
