//! A class compared with itself (`tongwen compare`): the class set of `tests/fixtures/class/` (built from
//! eval-dev's material by `scripts/make-class-set.py`, its expected pairs, ratios and groups in
//! `truth.json`) scored for pair precision and recall, ratio error and group recovery, with the
//! assignment template in every file; and the command's behaviour as a user meets it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::util::{docx, stderr, Sandbox};

fn class_dir() -> PathBuf {
    tongwen_testdata::repository_root().join("tests/fixtures/class")
}

/// `tongwen ARGS` run in `dir` with no library configured.
fn tongwen_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tongwen"))
        .current_dir(dir)
        .args(args)
        .env_remove("TONGWEN_LIBRARY")
        .output()
        .expect("run tongwen")
}

fn json_of(out: &Output) -> Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

type Key = (String, String);

fn key(a: &str, b: &str) -> Key {
    if a <= b {
        (a.into(), b.into())
    } else {
        (b.into(), a.into())
    }
}

/// Pairs as {(a, b) sorted: (ratio of the first, ratio of the second)}.
fn pairs_of(pairs: &Value) -> BTreeMap<Key, (f64, f64)> {
    pairs
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let (a, b) = (p["a"].as_str().unwrap(), p["b"].as_str().unwrap());
            let (ra, rb) = (
                p["a_ratio"].as_f64().unwrap(),
                p["b_ratio"].as_f64().unwrap(),
            );
            if a <= b {
                (key(a, b), (ra, rb))
            } else {
                (key(a, b), (rb, ra))
            }
        })
        .collect()
}

fn groups_of(groups: &Value, field: Option<&str>) -> BTreeSet<BTreeSet<String>> {
    groups
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let files = field.map_or(g, |f| &g[f]);
            files
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn the_class_set_is_recovered_with_the_template_in_every_file() {
    let dir = class_dir();
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json")).unwrap()).unwrap();
    let template = truth["template"].as_str().unwrap();
    let report = json_of(&tongwen_in(
        &dir,
        &[
            "compare",
            "submissions",
            "--template",
            template,
            "--format",
            "json",
        ],
    ));
    let expected = pairs_of(&truth["pairs"]);
    let found = pairs_of(&report["pairs"]);
    let hits = found.keys().filter(|k| expected.contains_key(*k)).count();
    let precision = hits as f64 / found.len().max(1) as f64;
    let recall = hits as f64 / expected.len().max(1) as f64;
    let mut errors: Vec<(f64, &Key)> = Vec::new();
    for (k, &(ea, eb)) in &expected {
        if let Some(&(fa, fb)) = found.get(k) {
            errors.push(((fa - ea).abs(), k));
            errors.push(((fb - eb).abs(), k));
        }
    }
    let mean_error = errors.iter().map(|e| e.0).sum::<f64>() / errors.len().max(1) as f64;
    let worst = errors.iter().copied().fold(
        (0.0, None),
        |w, (e, k)| {
            if e > w.0 {
                (e, Some(k))
            } else {
                w
            }
        },
    );
    let want_groups = groups_of(&truth["groups"], None);
    let got_groups = groups_of(&report["clusters"], Some("files"));
    println!(
        "class set: {} documents, {} expected pairs, {} found; precision {precision:.3}, recall \
         {recall:.3}; ratio error mean {mean_error:.4}, largest {:.4} ({:?}); groups {} expected, {} \
         found, {} recovered exactly",
        report["documents"].as_array().unwrap().len(),
        expected.len(),
        found.len(),
        worst.0,
        worst.1,
        want_groups.len(),
        got_groups.len(),
        want_groups.intersection(&got_groups).count()
    );
    let missed: Vec<&Key> = expected
        .keys()
        .filter(|k| !found.contains_key(*k))
        .collect();
    let extra: Vec<&Key> = found
        .keys()
        .filter(|k| !expected.contains_key(*k))
        .collect();
    assert!(
        precision >= 0.99 && recall >= 0.99,
        "missed {missed:?}, extra {extra:?}"
    );
    assert!(mean_error <= 0.03, "mean ratio error {mean_error}");
    assert_eq!(got_groups, want_groups);
    // Each document's characters, template excluded, as the truth counts them.
    for d in report["documents"].as_array().unwrap() {
        let file = d["file"].as_str().unwrap();
        let want = truth["documents"][file]["chars"].as_f64().unwrap();
        let got = d["chars"].as_f64().unwrap();
        assert!(
            (got - want).abs() <= 0.03 * want,
            "{file}: {got} characters outside the template, expected {want}"
        );
    }
}

#[test]
fn without_the_template_every_file_shares_it() {
    // The same set without --template: the template alone pairs every file with many others, so the
    // template handling above is what keeps the pairs right.
    let dir = class_dir();
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json")).unwrap()).unwrap();
    let report = json_of(&tongwen_in(
        &dir,
        &["compare", "submissions", "--format", "json"],
    ));
    let pairs = pairs_of(&report["pairs"]);
    let expected = truth["pairs"].as_array().unwrap().len();
    assert!(pairs.len() > 10 * expected, "{} pairs", pairs.len());
    for d in report["documents"].as_array().unwrap() {
        let file = d["file"].as_str().unwrap();
        assert!(pairs.keys().any(|(a, b)| a == file || b == file), "{file}");
    }
}

const SHARED: &str = "软件包维护者应当定期检查错误报告，及时回复用户提出的问题，并在新版本发布之前完成全部测试工作。";
const SHARED_EN: &str = "If you want to be a good maintainer, you should periodically check the Debian bug tracking system for your packages.";
const OWN: [&str; 3] = [
    "自由软件的精神在于分享与协作，每一位贡献者都可以阅读源代码、提出修改建议并参与讨论。",
    "图形界面的设计需要兼顾美观与效率，良好的快捷键布局可以显著减少用户的操作步骤和等待时间。",
    "The village bakery opens at six and the queue reaches the corner of the square by seven every morning.",
];
const EVIL: &str = "提交的内容 <img src=x onerror=alert(1)> 只能作为文本出现，报告里绝不能运行任何脚本或者加载任何图片。";

#[test]
fn compare_reports_pairs_unreadable_files_and_escapes_html() {
    let s = Sandbox::new();
    s.write("class/a.txt", format!("{SHARED}\n\n{}\n\n{EVIL}\n", OWN[0]));
    s.write("class/b.docx", docx(&[OWN[1], SHARED, EVIL]));
    s.write("class/c.txt", format!("{}\n\n{SHARED_EN}\n", OWN[2]));
    s.write("class/d.txt", format!("{SHARED_EN}\n"));
    s.write("class/empty.txt", "");
    let class = s.path("class");
    let class = class.to_str().unwrap();

    let out = s.tongwen(&["compare", class]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "an unreadable file fails the run"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("a.txt ↔") && text.contains("b.docx"),
        "{text}"
    );
    assert!(
        text.contains("empty.txt") && text.contains("empty"),
        "{text}"
    );
    assert!(stderr(&out).contains("1 file(s) could not be used"));

    let report: Value =
        serde_json::from_slice(&s.tongwen(&["compare", class, "--format", "json"]).stdout).unwrap();
    let pairs = pairs_of(&report["pairs"]);
    let names: BTreeSet<(String, String)> = pairs
        .keys()
        .map(|(a, b)| {
            let name = |p: &str| p.rsplit('/').next().unwrap().to_string();
            (name(a), name(b))
        })
        .collect();
    assert_eq!(
        names,
        BTreeSet::from([
            ("a.txt".to_string(), "b.docx".to_string()),
            ("c.txt".to_string(), "d.txt".to_string())
        ])
    );
    // d.txt is all copied; c.txt about half.
    let cd = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["a"].as_str().unwrap().ends_with("c.txt"))
        .unwrap();
    assert_eq!(cd["b_ratio"], 1.0);
    assert!(cd["a_ratio"].as_f64().unwrap() > 0.4 && cd["a_ratio"].as_f64().unwrap() < 0.7);
    assert_eq!(
        report["pairs"][0]["a"].as_str().unwrap().rsplit('/').next(),
        Some("c.txt"),
        "largest ratio first"
    );
    let span = &cd["matches"][0]["spans"][0];
    assert_eq!(span["a"], span["a_utf16"]);
    let empty = report["documents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["file"].as_str().unwrap().ends_with("empty.txt"))
        .unwrap();
    assert_eq!(empty["error_info"]["kind"], "empty_file");
    assert_eq!(report["clusters"].as_array().unwrap().len(), 2);
    assert!(!s.library_exists(), "comparing adds nothing to any library");

    let html = s.path("class.html");
    let out = s.tongwen(&[
        "compare",
        class,
        "--format",
        "html",
        "--lang",
        "zh",
        "-o",
        html.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("班级互查") && page.contains("相似度矩阵"));
    assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;") && !page.contains("<img"));
    assert!(page.contains("<mark>"));
}

#[test]
fn with_the_library_each_submission_is_also_checked() {
    let s = Sandbox::new();
    let source = s.write("lib/source.txt", format!("{}\n", OWN[1]));
    s.ok(&["library", "add", source.to_str().unwrap()]);
    s.write("class/a.txt", format!("{SHARED}\n\n{}\n", OWN[1]));
    s.write("class/b.txt", format!("{SHARED}\n\n{}\n", OWN[0]));
    let class = s.path("class");
    let report: Value = serde_json::from_str(&s.ok(&[
        "compare",
        class.to_str().unwrap(),
        "--with-library",
        "--format",
        "json",
    ]))
    .unwrap();
    let docs = report["documents"].as_array().unwrap();
    let a = docs
        .iter()
        .find(|d| d["file"].as_str().unwrap().ends_with("a.txt"))
        .unwrap();
    let b = docs
        .iter()
        .find(|d| d["file"].as_str().unwrap().ends_with("b.txt"))
        .unwrap();
    assert!(
        a["check"]["similarity_ratio"].as_f64().unwrap() > 0.4,
        "{a}"
    );
    assert_eq!(b["check"]["similarity_ratio"], 0.0);
    assert_eq!(report["pairs"].as_array().unwrap().len(), 1);
    // The library's template documents are templates of the class too.
    let prompt = s.write("lib/prompt.txt", format!("{SHARED}\n"));
    s.ok(&[
        "library",
        "add",
        prompt.to_str().unwrap(),
        "--role",
        "template",
    ]);
    let templated: Value = serde_json::from_str(&s.ok(&[
        "compare",
        class.to_str().unwrap(),
        "--with-library",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(templated["pairs"], serde_json::json!([]), "{templated}");
    let a = &templated["documents"].as_array().unwrap()[0];
    assert!(a["template_chars"].as_u64().unwrap() > 40, "{a}");
    // Without the flag no check is attached.
    let plain: Value =
        serde_json::from_str(&s.ok(&["compare", class.to_str().unwrap(), "--format", "json"]))
            .unwrap();
    assert!(plain["documents"][0].get("check").is_none());
}

#[test]
fn a_template_that_cannot_be_read_is_an_error_naming_it() {
    let s = Sandbox::new();
    s.write("class/a.txt", format!("{SHARED}\n"));
    let missing = s.path("no-such-template.docx");
    let out = s.tongwen(&[
        "compare",
        s.path("class").to_str().unwrap(),
        "--template",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no-such-template.docx"),
        "{}",
        stderr(&out)
    );
    let out = s.tongwen(&[
        "compare",
        s.path("class").to_str().unwrap(),
        "--threshold",
        "2",
    ]);
    assert!(stderr(&out).contains("threshold"), "{}", stderr(&out));
}
