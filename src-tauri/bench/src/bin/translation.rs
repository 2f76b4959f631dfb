//! `tongwen-translation-bench`: copies by translation as the library grows: how many of a translation
//! set's translated paragraphs are still found, how many same-topic paragraphs are called
//! translations, and what the search costs beside the same check without it.
//!
//! The library is the set's library documents (`tests/fixtures/translation-debian-reference` by default)
//! grown with synthetic paragraphs (`Synthetic::with_real_concepts`: their concept keys are real ones, drawn
//! from the set's library and the benchmark corpus as often as real paragraphs hold them, half of each
//! from one real paragraph) to each size, in memory, the real paragraphs spread evenly among them (an
//! index breaks ties by position, and a real library's sources are anywhere in it). The submission is every translated and same-topic
//! paragraph of the set. Each size's warm check (verification included) takes turns with the same
//! check without the translation search; the median of each is shown. Run it on a release build:
//! `cargo run --release -p tongwen-bench --bin tongwen-translation-bench`.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Parser;
use tongwen_bench::synthetic::Synthetic;
use tongwen_engine::check::{CheckSettings, Checker, Index, ParagraphResult};
use tongwen_engine::extract::discover::collect_files;
use tongwen_engine::extract::ExtractOptions;
use tongwen_engine::fingerprint::Fingerprinter;
use tongwen_engine::ingest;
use tongwen_engine::library::{FlatPrints, Library, Store};

#[derive(Parser)]
#[command(name = "tongwen-translation-bench")]
struct Args {
    /// The translation set (a folder with truth.json, library/ and queries/) [default:
    /// tests/fixtures/translation-debian-reference]
    #[arg(long)]
    set: Option<PathBuf>,
    /// More real paragraphs whose concept keys the synthetic ones draw from [default: the eval-dev
    /// library when present, else assets/demo/library]
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Library sizes, in paragraphs
    #[arg(long, value_delimiter = ',', default_values_t = [10_000usize, 100_000, 1_000_000, 10_000_000])]
    sizes: Vec<usize>,
    /// Warm checks per size (the median is shown)
    #[arg(long, default_value_t = 3)]
    repeat: usize,
}

/// A submission paragraph's truth: the library file and paragraph it translates, or none (same-topic).
type Truth = Option<(String, u32)>;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The set's translated and same-topic paragraphs with their truth.
fn submission(set: &std::path::Path) -> Result<(Vec<String>, Vec<Truth>)> {
    let truth: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(set.join("truth.json")).context("the set's truth.json")?,
    )?;
    let (mut texts, mut truths) = (Vec::new(), Vec::new());
    let queries = truth["queries"].as_object().context("queries")?;
    for q in queries.values() {
        for p in q["paragraphs"].as_array().context("paragraphs")? {
            let text = p["text"].as_str().context("text")?.to_string();
            match p["obfuscation"].as_str() {
                Some("translation") => {
                    let s = &p["sources"][0];
                    let file = s["library_file"].as_str().context("library_file")?;
                    let name = file.rsplit('/').next().unwrap_or(file).to_string();
                    let index = s["paragraph"].as_u64().context("paragraph")? as u32;
                    texts.push(text);
                    truths.push(Some((name, index)));
                }
                Some("same-topic") => {
                    texts.push(text);
                    truths.push(None);
                }
                _ => {}
            }
        }
    }
    Ok((texts, truths))
}

/// A library of `size` paragraphs: the `real` ones spread evenly among the first of `synthetic`, so that
/// a real paragraph's slot (the index's order, which breaks the shortlist's ties) says nothing of it.
fn spread(real: &FlatPrints, synthetic: &FlatPrints, size: usize) -> FlatPrints {
    let r = real.simhash.len();
    let mut flat = FlatPrints::default();
    let mut next = (0, 0);
    let push = |flat: &mut FlatPrints, from: &FlatPrints, i: usize| {
        flat.push(
            from.paragraph_ids[i],
            from.document_ids[i],
            from.simhash[i],
            from.keys_of(i),
        )
    };
    for slot in 0..size.max(r) {
        // Real paragraph j goes to slot (2j + 1) * size / 2r.
        if next.0 < r && slot >= (2 * next.0 + 1) * size / (2 * r) {
            push(&mut flat, real, next.0);
            next.0 += 1;
        } else if next.1 < synthetic.simhash.len() {
            push(&mut flat, synthetic, next.1);
            next.1 += 1;
        }
    }
    flat
}

/// Translations found (flagged by a translation of their true source) and same-topic paragraphs
/// flagged as translations.
fn score(results: &[ParagraphResult], truths: &[Truth]) -> (usize, usize) {
    let (mut found, mut false_alarms) = (0, 0);
    for (r, t) in results.iter().zip(truths) {
        let flagging: Vec<_> = r
            .matches
            .iter()
            .filter(|m| m.cross_language && !m.below_own_threshold)
            .collect();
        match t {
            Some((file, index)) => {
                let right = flagging.iter().any(|m| {
                    m.source.document_path.ends_with(file.as_str()) && m.source.index == *index
                });
                found += usize::from(right);
            }
            None => false_alarms += usize::from(!flagging.is_empty()),
        }
    }
    (found, false_alarms)
}

fn main() -> Result<()> {
    let args = Args::parse();
    let set = args.set.unwrap_or_else(|| {
        tongwen_testdata::repository_root().join("tests/fixtures/translation-debian-reference")
    });
    let corpus = args
        .corpus
        .unwrap_or_else(|| tongwen_bench::default_corpus().0);
    let fp = Fingerprinter::new();
    let work = tempfile::tempdir()?;
    let opts = ExtractOptions::default();
    let cancel = AtomicBool::new(false);
    let add = |db: PathBuf, folder: PathBuf| -> Result<Library> {
        let (files, _) = collect_files(&[folder]);
        if files.is_empty() {
            bail!("no documents to add");
        }
        let mut lib = Library::open(&db)?;
        for (file, outcome) in ingest::add_files(&mut lib, &files, &opts, &fp, &cancel, |_| {}) {
            outcome.with_context(|| file.display().to_string())?;
        }
        Ok(lib)
    };
    let lib = add(work.path().join("set.sqlite"), set.join("library"))?;
    let pool = add(work.path().join("corpus.sqlite"), corpus)?;
    let (_, real) = lib.load_flat_prints()?;
    let (_, more) = pool.load_flat_prints()?;
    let keys = |f: &tongwen_engine::library::FlatPrints| -> Vec<Vec<u32>> {
        (0..f.simhash.len())
            .map(|i| f.keys_of(i).to_vec())
            .collect()
    };
    let mut synthetic = Synthetic::with_real_concepts([keys(&real), keys(&more)].concat());
    drop(more);
    let (texts, truths) = submission(&set)?;
    let translations = truths.iter().filter(|t| t.is_some()).count();
    let same_topic = truths.len() - translations;
    println!(
        "Translation search at scale: {translations} translated and {same_topic} same-topic paragraphs of {} against its {} library paragraphs plus synthetic ones\n",
        set.display(),
        real.simhash.len()
    );
    println!("| library paragraphs | translations found | same-topic flagged as translations | warm check (ms) | same-language only (ms) | ratio |");
    println!("|---|---|---|---|---|---|");
    let settings = CheckSettings::default();
    let same_language = CheckSettings {
        translation: None,
        ..settings
    };
    let mut grown = FlatPrints::default();
    let mut id = i64::MAX / 2;
    for &size in &args.sizes {
        while real.simhash.len() + grown.simhash.len() < size {
            id += 1;
            let k = synthetic.keys();
            grown.push(id, -1, synthetic.next_u64(), &k);
        }
        let index = Index::from_flat(spread(&real, &grown, size));
        let checker = Checker::new(&lib, &index, &fp, settings);
        let baseline = Checker::new(&lib, &index, &fp, same_language);
        let (mut times, mut base_times) = (Vec::new(), Vec::new());
        let mut figures = (0, 0);
        for _ in 0..args.repeat.max(1) {
            let t = Instant::now();
            baseline.check(&texts)?;
            base_times.push(t.elapsed());
            // Each check a first one: a checker keeps the library paragraphs it has read.
            checker.clear_readings();
            let t = Instant::now();
            let r = checker.check(&texts)?;
            times.push(t.elapsed());
            figures = score(&r, &truths);
        }
        let (warm, base) = (median(times), median(base_times));
        println!(
            "| {size} | {} of {translations} ({:.3}) | {} of {same_topic} | {:.1} | {:.1} | {:.2} |",
            figures.0,
            figures.0 as f64 / translations.max(1) as f64,
            figures.1,
            ms(warm),
            ms(base),
            ms(warm) / ms(base).max(1e-9)
        );
    }
    Ok(())
}
