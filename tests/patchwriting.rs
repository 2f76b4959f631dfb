//! Patchwriting: one copied sentence inside each of a submission's own paragraphs, the commonest student
//! plagiarism. Every copied passage of the minimum length counts in the document's figures, whatever
//! share of its paragraph it is. The set is made here from eval-dev's material, the same way every run:
//! the writer's own paragraphs are eval-dev's clean query paragraphs (from documents outside the
//! library), and into each, after its first sentence, goes one sentence of a different library document
//! (15–60 Chinese characters, 10–30 English words: passages that always share two stored shingle keys). The expected ratio is the inserted sentences'
//! share of the document's non-whitespace characters. Needs eval-dev.

use serde_json::Value;

use crate::util::Sandbox;

/// Sentences of `text`, each with its closing punctuation.
fn sentences(text: &str, english: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        current.push(c);
        let end = if english {
            matches!(c, '.' | '?' | '!') && chars.get(i + 1).is_none_or(|n| n.is_whitespace())
        } else {
            matches!(c, '。' | '！' | '？')
        };
        if end {
            out.push(current.trim().to_string());
            current.clear();
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

/// Words of an English sentence; Chinese characters of a Chinese one (a sentence with Latin words in
/// it is left out: its length in comparison units is neither).
fn size(sentence: &str, english: bool) -> usize {
    if english {
        sentence.split_whitespace().count()
    } else if sentence.chars().any(|c| c.is_ascii_alphanumeric()) {
        0
    } else {
        sentence
            .chars()
            .filter(|c| {
                !c.is_whitespace()
                    && !c.is_ascii_punctuation()
                    && !"，。、；：？！“”（）《》".contains(*c)
            })
            .count()
    }
}

pub(crate) fn non_ws(text: &str) -> usize {
    text.chars().filter(|c| !c.is_whitespace()).count()
}

/// (submission paragraphs, inserted sentences) for one language: `docs` documents of 8 paragraphs; each
/// sentence goes in as `insert(paragraph number in the set, sentence)` writes it.
pub(crate) fn make_set(
    dir: &std::path::Path,
    truth: &Value,
    lang: &str,
    docs: usize,
    insert: &dyn Fn(usize, &str) -> String,
) -> Vec<(Vec<String>, Vec<String>)> {
    let english = lang == "en";
    let (min, max) = if english { (10, 30) } else { (15, 60) };
    // Own paragraphs: clean query paragraphs with at least two sentences.
    let mut own: Vec<String> = Vec::new();
    for (_, q) in truth["queries"].as_object().unwrap() {
        if q["lang"] != lang {
            continue;
        }
        for p in q["paragraphs"].as_array().unwrap() {
            let text = p["text"].as_str().unwrap();
            if !p["copied"].as_bool().unwrap()
                && sentences(text, english).len() >= 2
                && non_ws(text) >= if english { 120 } else { 100 }
            {
                own.push(text.to_string());
            }
        }
    }
    // Library sentences: one per library .txt document, in file order.
    let mut library: Vec<String> = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir.join("library"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    for f in files {
        let key = format!("library/{}", f.file_name().unwrap().to_string_lossy());
        if truth["library"][&key]["lang"] != lang || truth["library"][&key]["encoding"] != "utf-8" {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        // The third paragraph's (or the first's) first sentence of a fitting length.
        let found = text
            .split("\n\n")
            .skip(2)
            .chain(text.split("\n\n"))
            .flat_map(|p| sentences(p, english))
            .find(|s| (min..=max).contains(&size(s, english)));
        if let Some(s) = found {
            library.push(s);
        }
    }
    assert!(
        own.len() >= docs * 8 && library.len() >= docs * 8,
        "{lang}: {} own paragraphs, {} sentences",
        own.len(),
        library.len()
    );
    (0..docs)
        .map(|d| {
            let mut paragraphs = Vec::new();
            let mut inserted = Vec::new();
            for k in 0..8 {
                let mine = &own[(d * 8 + k) * own.len() / (docs * 8)];
                let copied = &library[(d * 8 + k) * library.len() / (docs * 8)];
                let parts = sentences(mine, english);
                let sep = if english { " " } else { "" };
                let copied_as = insert(d * 8 + k, copied);
                let text = format!("{}{sep}{copied_as}{sep}{}", parts[0], parts[1..].join(sep));
                paragraphs.push(text);
                inserted.push(copied.clone());
            }
            (paragraphs, inserted)
        })
        .collect()
}

#[test]
fn a_copied_sentence_in_each_own_paragraph_counts_in_the_ratio() {
    let Some(dir) = tongwen_testdata::eval_dev_for(
        "a_copied_sentence_in_each_own_paragraph_counts_in_the_ratio",
    ) else {
        return;
    };
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json")).unwrap()).unwrap();
    let s = Sandbox::new();
    s.ok(&["library", "add", dir.join("library").to_str().unwrap()]);
    let mut worst: f64 = 0.0;
    let (mut found, mut total) = (0, 0);
    for (lang, docs) in [("zh", 5), ("en", 2)] {
        for (d, (paragraphs, inserted)) in make_set(&dir, &truth, lang, docs, &|_, s| s.to_string())
            .iter()
            .enumerate()
        {
            let file = s.write(
                &format!("patch-{lang}-{d}.txt"),
                paragraphs.join("\n\n") + "\n",
            );
            let report: Value = serde_json::from_str(&s.ok(&[
                "check",
                file.to_str().unwrap(),
                "--format",
                "json",
                // The own sentences around the copied ones come from eval-dev's clean paragraphs,
                // some of them Chinese editions of manuals whose English edition is in the
                // library: real translations, which the expected ratio (same language) leaves out.
                "--no-translation",
            ]))
            .unwrap();
            let doc = &report["documents"][0];
            let expected = inserted.iter().map(|x| non_ws(x)).sum::<usize>() as f64
                / paragraphs.iter().map(|p| non_ws(p)).sum::<usize>() as f64;
            let got = doc["similarity_ratio"].as_f64().unwrap();
            worst = worst.max((got - expected).abs());
            for (p, sentence) in doc["paragraphs"].as_array().unwrap().iter().zip(inserted) {
                total += 1;
                let counted = p["passages"].as_array().unwrap().len()
                    + p["matches"].as_array().unwrap().len();
                found += usize::from(counted > 0);
                if counted == 0 {
                    println!("missed: {sentence} in {}", p["text"]);
                }
            }
            println!(
                "{lang} {d}: ratio {got:.4}, expected {expected:.4}, flagged {}",
                doc["flagged_paragraphs"]
            );
            assert!(
                (got - expected).abs() <= 0.03,
                "{lang} document {d}: ratio {got}, expected {expected}"
            );
        }
    }
    println!("patchwriting: {found} of {total} paragraphs with their copied sentence found; largest ratio error {worst:.4}");
    assert_eq!(found, total);
}
