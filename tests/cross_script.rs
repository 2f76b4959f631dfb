//! Copies across Traditional and Simplified Chinese: eval-dev's Chinese query paragraphs converted with
//! OpenCC (s2t, s2tw, s2twp, s2hk) are checked against eval-dev's Simplified library, and Simplified
//! paragraphs against library documents converted to Taiwan Traditional (s2twp). The sets are built by
//! `scripts/make-cross-script-set.py` into `tests/fixtures/cross-script/`. Needs eval-dev's library.

use serde_json::Value;

use crate::util::Sandbox;

fn set(name: &str) -> Value {
    let path = tongwen_testdata::repository_root()
        .join(format!("tests/fixtures/cross-script/{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("the cross-script set")).unwrap()
}

/// (recall, precision, share of copies whose expected source paragraph is among the matches).
fn score(s: &Sandbox, name: &str, set: &Value) -> (f64, f64, f64) {
    let paragraphs = set["paragraphs"].as_array().unwrap();
    let texts: Vec<&str> = paragraphs
        .iter()
        .map(|p| p["text"].as_str().unwrap())
        .collect();
    let file = s.write(&format!("{name}.txt"), texts.join("\n\n") + "\n");
    let report: Value = serde_json::from_str(&s.ok(&[
        "check",
        file.to_str().unwrap(),
        "--format",
        "json",
        // The set's clean paragraphs are clean in Chinese only: some are (converted) Chinese
        // editions of manuals whose English edition is in eval-dev's library, real translations
        // the default check reports (see `translation.rs`), which this set's truth does not know.
        "--no-translation",
    ]))
    .unwrap();
    let got = report["documents"][0]["paragraphs"].as_array().unwrap();
    assert_eq!(
        got.len(),
        paragraphs.len(),
        "{name}: one report paragraph per paragraph"
    );
    let (mut tp, mut fp, mut copies, mut sourced) = (0, 0, 0, 0);
    for (want, got) in paragraphs.iter().zip(got) {
        let flagged = got["flagged"].as_bool().unwrap();
        if want["copied"].as_bool().unwrap() {
            copies += 1;
            tp += usize::from(flagged);
            if flagged {
                let best = &got["matches"][0];
                assert_eq!(best["cross_script"], true, "{name}: {best}");
            }
            let source = want["source"].as_str().unwrap().rsplit('/').next().unwrap();
            let index = want["source_paragraph"].as_u64().unwrap();
            sourced += usize::from(got["matches"].as_array().unwrap().iter().any(|m| {
                m["source_path"].as_str().unwrap().ends_with(source)
                    && m["source_paragraph"].as_u64() == Some(index)
            }));
        } else {
            fp += usize::from(flagged);
        }
    }
    let precision = if tp + fp == 0 {
        1.0
    } else {
        tp as f64 / (tp + fp) as f64
    };
    (
        tp as f64 / copies as f64,
        precision,
        sourced as f64 / copies as f64,
    )
}

#[test]
fn copies_across_scripts_are_found() {
    let Some(dir) = tongwen_testdata::eval_dev_for("copies_across_scripts_are_found") else {
        return;
    };
    let mut rows = Vec::new();
    let s = Sandbox::new();
    s.ok(&["library", "add", dir.join("library").to_str().unwrap()]);
    for name in ["s2t", "s2tw", "s2twp", "s2hk"] {
        rows.push((name.to_string(), score(&s, name, &set(name))));
    }
    // Reverse: a Traditional (Taiwan) library, Simplified submissions.
    let reverse = set("reverse-s2twp");
    let r = Sandbox::new();
    for (file, text) in reverse["library"].as_object().unwrap() {
        r.write(
            &format!("lib/{}", file.rsplit('/').next().unwrap()),
            text.as_str().unwrap(),
        );
    }
    r.ok(&["library", "add", r.path("lib").to_str().unwrap()]);
    rows.push(("reverse-s2twp".into(), score(&r, "reverse", &reverse)));

    eprintln!("| set | recall | precision | source found |\n|---|---|---|---|");
    for (name, (recall, precision, sourced)) in &rows {
        eprintln!("| {name} | {recall:.3} | {precision:.3} | {sourced:.3} |");
    }
    for (name, (recall, precision, _)) in &rows {
        assert!(*recall >= 0.98, "{name}: recall {recall:.3}");
        assert!(*precision >= 0.99, "{name}: precision {precision:.3}");
    }
}
