//! The eval-dev benchmark, end to end: `tongwen library add library/`, `tongwen check queries/ --format
//! json`, then the benchmark's own `score.py`. Prints the score table and holds the product to its
//! accuracy floor. Needs `../shared/eval-dev` (or `$TONGWEN_EVAL_DEV`) and python3.
//!
//! eval-dev is a same-language benchmark whose library holds both the English and the Chinese editions
//! of some manuals, and whose `clean` query paragraphs include real translations of library paragraphs
//! (KiCad's and Debian's own Chinese editions). The default check reports those as copies by
//! translation (`cross_language`), which eval-dev's truth does not know; the floor holds on the report's
//! same-language part (the same check with its translation matches and `translated_ratio` left out), and
//! the whole report's score is printed beside it.

use serde_json::Value;

use crate::util::Sandbox;

#[test]
fn eval_dev_scores() {
    let Some(dir) = tongwen_testdata::eval_dev_for("eval_dev_scores") else {
        return;
    };
    let s = Sandbox::new();
    let out = s.tongwen(&["library", "add", dir.join("library").to_str().unwrap()]);
    eprintln!("{}", String::from_utf8_lossy(&out.stdout));
    let report = s.path("report.json");
    s.tongwen(&[
        "check",
        dir.join("queries").to_str().unwrap(),
        "--format",
        "json",
        "-o",
        report.to_str().unwrap(),
    ]);
    let full: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    crate::util::assert_counted_is_shown(&full);
    let whole = score(&dir, &report, &s.path("metrics-all.json"));
    eprintln!(
        "the whole report (translations of library paragraphs included): P {} R {} F1 {}",
        whole["overall"]["precision"], whole["overall"]["recall"], whole["overall"]["f1"]
    );
    let translated = full["documents"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["paragraphs"].as_array().unwrap())
        .filter(|p| p["matches"][0]["cross_language"] == true)
        .count();
    assert!(
        translated > 0,
        "the bilingual manuals' translations are found"
    );
    let same = s.path("same-language.json");
    std::fs::write(&same, same_language(full).to_string()).unwrap();
    let m = score(&dir, &same, &s.path("metrics.json"));
    let o = &m["overall"];
    let f = |v: &Value| v.as_f64().unwrap();
    // Issue 6's targets at the default settings (the seed method scored P 0.990, R 0.661, F1 0.792,
    // MAE 0.110 here).
    let label = |l: &str| f(&m["per_label"][l]["recall"]);
    assert!(f(&o["precision"]) >= 0.99, "precision {}", o["precision"]);
    assert!(f(&o["recall"]) >= 0.98, "recall {}", o["recall"]);
    assert!(f(&o["f1"]) >= 0.985, "F1 {}", o["f1"]);
    for (l, floor) in [
        ("exact", 1.0),
        ("noise", 1.0),
        ("light", 0.98),
        ("reorder", 0.98),
        ("merge", 0.98),
        ("partial", 0.97),
        ("heavy", 0.90),
    ] {
        assert!(label(l) >= floor, "recall {l} {}", label(l));
    }
    assert!(
        f(&o["top1_acc_flagged"]) >= 0.99,
        "top-1 source {}",
        o["top1_acc_flagged"]
    );
    assert!(
        f(&m["copy_ratio_mae"]) <= 0.03,
        "copy ratio MAE {}",
        m["copy_ratio_mae"]
    );
}

/// Run `score.py` on a report; its metrics.
fn score(dir: &std::path::Path, report: &std::path::Path, metrics: &std::path::Path) -> Value {
    let score = std::process::Command::new("python3")
        .arg(dir.join("score.py"))
        .arg(dir.join("truth.json"))
        .arg(report)
        .args(["--threshold", "0.3", "--json"])
        .arg(metrics)
        .output()
        .expect("python3 runs score.py");
    eprintln!("{}", String::from_utf8_lossy(&score.stdout));
    assert!(
        score.status.success(),
        "{}",
        String::from_utf8_lossy(&score.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(metrics).unwrap()).unwrap()
}

/// A report's same-language part: translation matches left out, and the ratio without what only they
/// counted.
fn same_language(mut report: Value) -> Value {
    for d in report["documents"].as_array_mut().unwrap() {
        let translated = d["translated_ratio"].as_f64().unwrap_or(0.0);
        if let Some(r) = d["similarity_ratio"].as_f64() {
            d["similarity_ratio"] = Value::from(r - translated);
        }
        for p in d["paragraphs"].as_array_mut().unwrap() {
            for list in ["matches", "passages"] {
                if let Some(ms) = p[list].as_array_mut() {
                    ms.retain(|m| m["cross_language"] != true);
                }
            }
        }
    }
    report
}
