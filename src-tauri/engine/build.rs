//! Builds what the engine would otherwise load at every start:
//! - the word table (`src/text/words.rs`): the IDF table, the lexicon and the stop words, compiled into
//!   one blob that the binary embeds and reads in place;
//! - with the `prebuilt-dictionary` feature, jieba's dictionary as loaded (`jieba.bin`,
//!   `Jieba::to_prebuilt` of our patched jieba-rs, see `src-tauri/vendor/jieba-rs/PATCHES.md`), which
//!   `text::tokens` copies back instead of parsing the dictionary and inserting its words, and its id
//!   table (`word-ids.bin`, `words::build_ids`): each word's entry in the word table, by its id.

use std::io::Read;
use std::path::Path;

#[allow(dead_code)]
#[path = "src/text/words.rs"]
mod words;

fn gunzip(path: &Path) -> String {
    let mut text = String::new();
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text
}

fn main() {
    // The folder as cargo gives it to this run (not as it was when the script was compiled: a build
    // folder shared by checkouts at other paths reuses the compiled script).
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let assets = Path::new(&manifest).join("../../assets");
    let idf = assets.join("idf/jieba-idf.txt.gz");
    let lexicon = assets.join("lexicon/cedict-zh-en.txt.gz");
    let learned = assets.join("lexicon/learned-zh-en.txt.gz");
    let stop = [
        assets.join("stopwords/zh.txt"),
        assets.join("stopwords/en.txt"),
    ];
    for p in [&idf, &lexicon, &learned, &stop[0], &stop[1]] {
        println!("cargo:rerun-if-changed={}", p.display());
    }
    println!("cargo:rerun-if-changed=src/text/words.rs");
    let stop_text: Vec<String> = stop
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect();
    // The same reading of the stop-word files as `text::tokens::stop_words`.
    let stop_words = stop_text
        .iter()
        .flat_map(|t| t.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    // The learned pairs' lines come after CC-CEDICT's and replace them (`words::build`).
    let lexicon_text = gunzip(&lexicon) + &gunzip(&learned);
    let blob = words::build(&gunzip(&idf), &lexicon_text, stop_words)
        .unwrap_or_else(|e| panic!("word table: {e}"));
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("words.bin");
    std::fs::write(&out, &blob).unwrap_or_else(|e| panic!("{}: {e}", out.display()));

    if std::env::var_os("CARGO_FEATURE_PREBUILT_DICTIONARY").is_some() {
        let jieba = jieba_rs::Jieba::new().to_prebuilt();
        let jieba_out = out.with_file_name("jieba.bin");
        std::fs::write(&jieba_out, jieba)
            .unwrap_or_else(|e| panic!("{}: {e}", jieba_out.display()));
        // jieba's word ids → each word's entry (`words::build_ids`), in the order in which
        // `Jieba::new` gives its default dictionary's words their ids.
        let table = words::WordTable::new(std::borrow::Cow::Owned(
            blob.chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect(),
        ))
        .unwrap_or_else(|_| panic!("the word table just built does not read back"));
        let ids: Vec<u8> = words::build_ids(&table, jieba_rs::Jieba::default_dict_words())
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let ids_out = out.with_file_name("word-ids.bin");
        std::fs::write(&ids_out, ids).unwrap_or_else(|e| panic!("{}: {e}", ids_out.display()));
    }
}
