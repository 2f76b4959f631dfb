//! `tongwen-bench`: speed and memory in one run, each figure beside its baseline measured in the same
//! process.
//!
//! 1. Ingest: raw jieba-rs `cut` over the corpus text (the floor) and the whole ingest (read, extract,
//!    tokens, fingerprints, SQLite), each on one thread and on all threads. The runs take turns for 15
//!    rounds and each keeps its best, so the floor and the ingest see the same state of the machine.
//! 2. Check: a library of the corpus's real paragraphs grown with synthetic paragraphs to each size; a
//!    200-paragraph submission checked cold (open the library, load and index the fingerprints, check)
//!    and warm (index in memory), verification included, each warm check beside the same check without
//!    the translation search (Chinese ↔ English), run in turn. Sizes above `--sqlite-max` are built in memory
//!    from the largest SQLite library's prints plus synthetic ones (no cold figure).
//!
//! Synthetic paragraphs: see `tongwen_bench::synthetic`. Run it on a release build:
//! `cargo run --release -p tongwen-bench -- --plot docs/check-latency.svg`.

// The allocator the `tongwen` command and the desktop app use.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::cell::Cell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use clap::Parser;
use tongwen_bench::synthetic::Synthetic;
use tongwen_engine::check::{CheckSettings, Checker, Index};
use tongwen_engine::extract::discover::collect_files;
use tongwen_engine::extract::{self, ExtractOptions, Format};
use tongwen_engine::fingerprint::Fingerprinter;
use tongwen_engine::ingest;
use tongwen_engine::library::{Library, NewDocument, Store};

/// Tongwen's speed and memory benchmark: ingest against raw jieba-rs segmentation, checks against
/// libraries of growing size.
#[derive(Parser)]
#[command(name = "tongwen-bench")]
struct BenchArgs {
    /// Documents to ingest, which are also the real part of the library [default: ../shared/eval-dev/library
    /// when present, else assets/demo/library]
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Submissions: the first 200 paragraphs read from these are the checked document [default: the
    /// eval-dev queries, else assets/demo/submissions]
    #[arg(long)]
    queries: Option<PathBuf>,
    /// Library sizes, in paragraphs
    #[arg(long, value_delimiter = ',', default_values_t = [10_000usize, 100_000, 1_000_000, 10_000_000])]
    sizes: Vec<usize>,
    /// Largest library written to SQLite (for the cold figure); larger ones are built in memory
    #[arg(long, default_value_t = 1_000_000)]
    sqlite_max: usize,
    /// Warm checks per size (the median is shown)
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Folder for the benchmark's libraries [default: a new temporary folder, removed afterwards]
    #[arg(long)]
    work: Option<PathBuf>,
    /// Also draw warm check time against library size as an SVG plot here
    #[arg(long)]
    plot: Option<PathBuf>,
    /// The Python seed stack's ingest rate the last column divides by, in MB/s. The default was
    /// measured on another machine; `scripts/process-bench` measures this machine's (its whole-process
    /// ingest table)
    #[arg(long, default_value_t = 0.74)]
    python_mb_s: f64,
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Resident memory of this process, in bytes (Linux; 0 elsewhere). Memory freed earlier is first handed
/// back to the system: mimalloc keeps freed pages for reuse, which would hide a new allocation's size.
fn resident() -> usize {
    // SAFETY: `mi_collect` takes no pointers; it only returns mimalloc's free pages to the system.
    unsafe { libmimalloc_sys::mi_collect(true) };
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// One timed run of a measurement.
type Run<'a> = Box<dyn FnMut() -> Result<Duration> + 'a>;

/// Raw jieba-rs `cut` (HMM on, as fingerprinting uses it) over `paragraphs` on `n_threads`.
fn cut_run<'a>(
    fp: &'a Fingerprinter,
    paragraphs: &'a [String],
    n_threads: usize,
) -> Result<Run<'a>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n_threads)
        .build()?;
    let jieba = fp.tokenizer().jieba();
    Ok(Box::new(move || {
        let t = Instant::now();
        let words: usize = pool.install(|| {
            use rayon::prelude::*;
            paragraphs
                .par_iter()
                .map(|p| jieba.cut(p, true).len())
                .sum()
        });
        assert!(words > 0, "jieba cut nothing");
        Ok(t.elapsed())
    }))
}

/// The whole ingest of `files` into a new library at `db` on `n_threads`; records the paragraphs stored.
fn ingest_run<'a>(
    db: PathBuf,
    n_threads: usize,
    files: &'a [PathBuf],
    opts: &'a ExtractOptions,
    fp: &'a Fingerprinter,
    n_paras: &'a Cell<usize>,
) -> Result<Run<'a>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n_threads)
        .build()?;
    Ok(Box::new(move || {
        for ext in ["", "-wal", "-shm", ".index"] {
            let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
        }
        let mut lib = Library::open(&db)?;
        let cancel = AtomicBool::new(false);
        let t = Instant::now();
        let out = pool.install(|| ingest::add_files(&mut lib, files, opts, fp, &cancel, |_| {}));
        let elapsed = t.elapsed();
        let added = out.iter().filter(|(_, r)| r.is_ok()).count();
        assert_eq!(added, files.len(), "every corpus file is added");
        n_paras.set(lib.totals()?.paragraphs as usize);
        Ok(elapsed)
    }))
}

fn main() -> Result<ExitCode> {
    let args = BenchArgs::parse();
    let (default_corpus, default_queries) = tongwen_bench::default_corpus();
    let corpus = args.corpus.unwrap_or(default_corpus);
    let queries = args.queries.unwrap_or(default_queries);
    let tmp;
    let work = match args.work {
        Some(w) => {
            std::fs::create_dir_all(&w)?;
            w
        }
        None => {
            tmp = tempfile::tempdir()?;
            tmp.path().to_path_buf()
        }
    };
    let threads = rayon::current_num_threads();
    println!(
        "tongwen-bench: corpus {}, queries {}, {threads} threads",
        corpus.display(),
        queries.display()
    );

    // ---- 1. Ingest ------------------------------------------------------------------------------
    let (files, errors) = collect_files(std::slice::from_ref(&corpus));
    if files.is_empty() {
        bail!("no documents in {}: {errors:?}", corpus.display());
    }
    let opts = ExtractOptions::default();
    let fp = Fingerprinter::new();
    let mut paragraphs: Vec<String> = Vec::new();
    let mut zh_paragraphs: Vec<String> = Vec::new();
    // The Chinese .txt files: the text the ingest target is measured on.
    let mut zh_files: Vec<PathBuf> = Vec::new();
    for f in &files {
        if let Ok(d) = extract::extract_file(f, &opts) {
            let zh = d.format == Format::Txt
                && d.paragraphs
                    .iter()
                    .any(|p| p.text.chars().any(tongwen_engine::text::normalize::is_cjk));
            if zh {
                zh_files.push(f.clone());
            }
            for p in d.paragraphs {
                if zh {
                    zh_paragraphs.push(p.text.clone());
                }
                paragraphs.push(p.text);
            }
        }
    }
    let text_bytes: usize = paragraphs.iter().map(String::len).sum();
    // Every timing is the best of `ROUNDS` runs: this kind of machine shares its cores, and the best run
    // is the one least disturbed.
    const ROUNDS: usize = 15;
    let best = |mut run: Run<'_>| -> Result<Duration> {
        let mut best = Duration::MAX;
        for _ in 0..ROUNDS {
            best = best.min(run()?);
        }
        Ok(best)
    };
    let zh_bytes: usize = zh_paragraphs.iter().map(String::len).sum();
    // The runs take turns, round after round, so that a disturbance of the machine falls on all of them
    // alike rather than on whichever ran at that moment; each keeps its best run.
    let (n_paras, n_zh) = (Cell::new(0), Cell::new(0));
    let ingest = |n_threads: usize, name: &str, chosen, n| {
        ingest_run(
            work.join(format!("ingest-{name}.sqlite")),
            n_threads,
            chosen,
            &opts,
            &fp,
            n,
        )
    };
    let mut runs = vec![
        cut_run(&fp, &paragraphs, 1)?,
        cut_run(&fp, &paragraphs, threads)?,
        cut_run(&fp, &zh_paragraphs, 1)?,
        cut_run(&fp, &zh_paragraphs, threads)?,
        ingest(1, "1", &files, &n_paras)?,
        ingest(threads, "all", &files, &n_paras)?,
        ingest(1, "zh1", &zh_files, &n_zh)?,
        ingest(threads, "zhall", &zh_files, &n_zh)?,
    ];
    let mut bests = vec![Duration::MAX; runs.len()];
    for _ in 0..ROUNDS {
        for (run, best) in runs.iter_mut().zip(&mut bests) {
            *best = (*best).min(run()?);
        }
    }
    drop(runs);
    let [jieba_all, jieba_all_n, jieba_zh, jieba_zh_n, one, all, one_zh, all_zh] = bests[..] else {
        unreachable!("eight runs");
    };
    let (n_paras, n_zh) = (n_paras.get(), n_zh.get());
    println!("\n## Ingest ({} files, {n_paras} paragraphs, {:.2} MB of text; Chinese .txt: {n_zh} paragraphs, {:.2} MB; best of {ROUNDS} runs)", files.len(), mb(text_bytes), mb(zh_bytes));
    println!(
        "| stage | MB/s | paragraphs/s | per core vs jieba cut on 1 thread | vs jieba cut on the same threads | vs Python {} MB/s |",
        args.python_mb_s
    );
    println!("|---|---|---|---|---|---|");
    let row = |name: &str,
               bytes: usize,
               n: usize,
               d: Duration,
               floor: Duration,
               same: Duration,
               cores: usize| {
        let rate = mb(bytes) / d.as_secs_f64();
        println!(
            "| {name} | {rate:.2} | {:.0} | {:.2} | {:.2} | {:.0}x |",
            n as f64 / d.as_secs_f64(),
            floor.as_secs_f64() / d.as_secs_f64() / cores as f64,
            same.as_secs_f64() / d.as_secs_f64(),
            rate / args.python_mb_s
        );
    };
    let (n_all, n_zh_paras) = (paragraphs.len(), zh_paragraphs.len());
    let all_cut = format!("jieba-rs cut, all text, {threads} threads");
    let zh_cut = format!("jieba-rs cut, Chinese text, {threads} threads");
    let all_n = format!("ingest, all files, {threads} threads");
    let zh_n = format!("ingest, Chinese .txt, {threads} threads");
    #[rustfmt::skip]
    let rows = [
        ("jieba-rs cut, all text, 1 thread", text_bytes, n_all, jieba_all, jieba_all, jieba_all, 1),
        (all_cut.as_str(), text_bytes, n_all, jieba_all_n, jieba_all, jieba_all_n, threads),
        ("jieba-rs cut, Chinese text, 1 thread", zh_bytes, n_zh_paras, jieba_zh, jieba_zh, jieba_zh, 1),
        (zh_cut.as_str(), zh_bytes, n_zh_paras, jieba_zh_n, jieba_zh, jieba_zh_n, threads),
        ("ingest, all files, 1 thread", text_bytes, n_paras, one, jieba_all, jieba_all, 1),
        (all_n.as_str(), text_bytes, n_paras, all, jieba_all, jieba_all_n, threads),
        ("ingest, Chinese .txt, 1 thread", zh_bytes, n_zh, one_zh, jieba_zh, jieba_zh, 1),
        (zh_n.as_str(), zh_bytes, n_zh, all_zh, jieba_zh, jieba_zh_n, threads),
    ];
    for (name, bytes, n, d, floor, same, cores) in rows {
        row(name, bytes, n, d, floor, same, cores);
    }

    // Where one thread's ingest time goes, on the Chinese .txt files (each stage the best of `ROUNDS`).
    {
        let docs: Vec<_> = zh_files
            .iter()
            .filter_map(|f| extract::extract_file(f, &opts).ok())
            .collect();
        let t_extract = best(Box::new(|| {
            let t = Instant::now();
            let n = zh_files
                .iter()
                .filter_map(|f| extract::extract_file(f, &opts).ok())
                .count();
            assert_eq!(n, docs.len());
            Ok(t.elapsed())
        }))?;
        let texts: Vec<&str> = docs
            .iter()
            .flat_map(|d| d.paragraphs.iter().map(|p| p.text.as_str()))
            .collect();
        let t_words = best(Box::new(|| {
            let t = Instant::now();
            let mut n = 0usize;
            for p in &texts {
                fp.tokenizer().for_each_word(p, |_| n += 1);
            }
            assert!(n > 0);
            Ok(t.elapsed())
        }))?;
        let t_simhash = best(Box::new(|| {
            let t = Instant::now();
            let x: u64 = texts.iter().fold(0, |a, p| a ^ fp.simhash(p));
            assert!(x != 0);
            Ok(t.elapsed())
        }))?;
        // The segmenter's words with their hashes, weights and concepts, looked up as fingerprinting
        // did before the id table (each word hashed and probed) and as it does now (by its dictionary
        // id where the segmenter gives one): the same words and answers (checked), in turn.
        let normalized: Vec<String> = texts
            .iter()
            .map(|p| tongwen_engine::text::normalize(p))
            .collect();
        let table = tongwen_engine::text::word_table();
        let sum = |x: &mut u64, h: u64, e: Option<tongwen_engine::text::words::Entry<'_>>| {
            let concepts = e.map_or(0, |e| e.concepts.len() as u64);
            *x = x
                .wrapping_mul(31)
                .wrapping_add(h ^ u64::from(table.weight_of(e)) ^ concepts);
        };
        let by_hash = || {
            let mut x = 0u64;
            for p in &normalized {
                fp.tokenizer().for_each_normalized_word(p, |w| {
                    let h = tongwen_engine::text::words::word_hash(w);
                    sum(&mut x, h, table.get(h));
                });
            }
            x
        };
        let by_id = || {
            let mut x = 0u64;
            let mut words = Vec::new();
            for p in &normalized {
                fp.tokenizer().looked_up_words(p, &mut words);
                for w in &words {
                    sum(&mut x, w.hash, table.by_id(w.packed));
                }
            }
            x
        };
        assert_eq!(by_hash(), by_id(), "the two lookups disagree");
        let (mut t_by_hash, mut t_by_id) = (Duration::MAX, Duration::MAX);
        for _ in 0..ROUNDS {
            let t = Instant::now();
            std::hint::black_box(by_hash());
            t_by_hash = t_by_hash.min(t.elapsed());
            let t = Instant::now();
            std::hint::black_box(by_id());
            t_by_id = t_by_id.min(t.elapsed());
        }
        let t_shingles = best(Box::new(|| {
            let t = Instant::now();
            let n: usize = texts
                .iter()
                .map(|p| {
                    tongwen_engine::fingerprint::shingles::winnowed(&tongwen_engine::text::units(p))
                        .len()
                })
                .sum();
            assert!(n > 0);
            Ok(t.elapsed())
        }))?;
        // Everything stored per paragraph in one pass (SimHash, shingles, concept keys): what the
        // concept keys add is this minus the SimHash and shingles alone.
        let t_stored = best(Box::new(|| {
            let t = Instant::now();
            let n: usize = texts.iter().map(|p| fp.paragraph(p).concepts.len()).sum();
            assert!(n > 0);
            Ok(t.elapsed())
        }))?;
        let prepared: Vec<NewDocument> = zh_files
            .iter()
            .zip(&docs)
            .map(|(f, d)| ingest::prepare(f, 0, d.clone(), &fp))
            .collect();
        let db = work.join("stages.sqlite");
        let t_write = best(Box::new(|| {
            for ext in ["", "-wal", "-shm", ".index"] {
                let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
            }
            let mut lib = Library::open(&db)?;
            let t = Instant::now();
            for batch in prepared.chunks(64) {
                lib.add_batch(&batch.iter().collect::<Vec<_>>())?;
            }
            Ok(t.elapsed())
        }))?;
        println!("\nIngest stages, 1 thread, Chinese .txt (ms): extract {:.1}, words (normalise + cut + filter) {:.1}, SimHash (words + weights) {:.1}, shingles {:.1}, all stored fingerprints in one pass {:.1} (concept keys: {:.1}), SQLite write {:.1}; jieba cut {:.1}",
            ms(t_extract), ms(t_words), ms(t_simhash), ms(t_shingles), ms(t_stored),
            ms(t_stored.saturating_sub(t_simhash + t_shingles)), ms(t_write), ms(jieba_zh));
        println!("Words segmented and looked up (normalised text; ms, in turn): by hash, as before the id table, {:.1}; by dictionary id where the segmenter gives one, {:.1}",
            ms(t_by_hash), ms(t_by_id));
        // The word table (IDF weights, lexicon concepts), built when Tongwen is compiled: its first use
        // in a process checks the blob's header and reads nothing else.
        let before = resident();
        let t = Instant::now();
        let table = tongwen_engine::text::word_table();
        let load = t.elapsed();
        println!(
            "Word table (IDF and CC-CEDICT, {} headwords): ready in {:.3} ms, {:.1} MB resident",
            table.headwords(),
            ms(load),
            mb(resident().saturating_sub(before))
        );
        // The id table, as the desktop app builds it at first use (it has no prebuilt dictionary).
        let t_ids = best(Box::new(|| {
            let t = Instant::now();
            assert!(tongwen_engine::text::build_word_ids().len() > 300_000);
            Ok(t.elapsed())
        }))?;
        println!(
            "Id table of jieba's dictionary ({} words), built as the desktop app builds it at first use: {:.1} ms",
            tongwen_engine::text::word_ids().len(),
            ms(t_ids)
        );
        // What a check with the translation search does to each candidate it aligns: the paragraph's
        // sentences with their words' concepts. The same texts' `cut` is its floor.
        let lexicon = tongwen_engine::crosslang::Lexicon::embedded();
        let t_sentences = best(Box::new(|| {
            let t = Instant::now();
            let n: usize = texts
                .iter()
                .map(|p| tongwen_engine::crosslang::sentences(fp.tokenizer(), lexicon, p).len())
                .sum();
            assert!(n > 0);
            Ok(t.elapsed())
        }))?;
        println!(
            "Cross-language reading of the same paragraphs (sentences and their concepts, as a check reads each candidate), 1 thread: {:.1} ms, {:.2}x jieba cut",
            ms(t_sentences),
            t_sentences.as_secs_f64() / jieba_zh.as_secs_f64()
        );
    }

    // ---- 2. Check -------------------------------------------------------------------------------
    let (qfiles, _) = collect_files(std::slice::from_ref(&queries));
    let mut submission: Vec<String> = Vec::new();
    for f in &qfiles {
        if let Ok(d) = extract::extract_file(f, &opts) {
            submission.extend(d.paragraphs.into_iter().map(|p| p.text));
        }
        if submission.len() >= 200 {
            break;
        }
    }
    submission.truncate(200);
    let sub_chars: usize = submission.iter().map(|p| p.chars().count()).sum();

    let db = work.join("ingest-all.sqlite");
    let mut lib = Library::open(&db)?;
    let (_, real) = lib.load_flat_prints()?;
    let real_n = real.simhash.len();
    let real_keys: Vec<Vec<u32>> = (0..real_n).map(|i| real.keys_of(i).to_vec()).collect();
    drop(real);
    let real_chars = lib.totals()?.chars as usize;
    let mut synthetic = Synthetic::new(real_keys);
    let settings = CheckSettings::default();
    // The baseline of the translation search's cost: the same check without it.
    let same_language = CheckSettings {
        translation: None,
        ..settings
    };
    println!(
        "\n## Check: {} paragraphs ({sub_chars} characters) against libraries of {real_n} real paragraphs plus synthetic ones",
        submission.len()
    );
    println!("| library paragraphs | first open: build + save index (ms) | open: library + saved index (ms) | cold: open + check (ms) | warm check (ms) | same-language only (ms) | ratio | flagged (by translation) | fingerprint index B/paragraph | shortlist postings B/paragraph | resident MB (index) | on disk B/paragraph |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut points: Vec<(usize, f64)> = Vec::new();
    let mut in_sqlite = real_n;
    let mut doc_no = 0usize;
    for &size in &args.sizes {
        let (cold, index, disk) = if size <= args.sqlite_max {
            // Grow the SQLite library to `size` in documents of 1,000 synthetic paragraphs.
            while in_sqlite < size {
                let n = (size - in_sqlite).min(1_000);
                doc_no += 1;
                let doc = synthetic.document(doc_no, n);
                lib.add(&doc)?;
                in_sqlite += n;
            }
            drop(lib);
            // First open after the change: the saved index is stale, so it is built and saved. Opened
            // for reading, as a check opens it.
            let t = Instant::now();
            let opened = Library::open_read(&db)?;
            let built = Index::open(&opened)?;
            let first_open = t.elapsed();
            drop((opened, built));
            // Cold: open the library and its saved index, check.
            let before = resident();
            let t = Instant::now();
            let opened = Library::open_read(&db)?;
            let index = Index::open(&opened)?;
            let open = t.elapsed();
            let checker = Checker::new(&opened, &index, &fp, settings);
            let r = checker.check(&submission)?;
            let cold = t.elapsed();
            assert_eq!(r.len(), submission.len());
            let rss = resident().saturating_sub(before);
            drop(opened);
            // Opened for writing, to grow it to the next size.
            lib = Library::open(&db)?;
            let disk = std::fs::metadata(&db)
                .map(|m| m.len() as usize)
                .unwrap_or(0);
            (
                Some((first_open, open, cold, rss)),
                index,
                Some(disk / size),
            )
        } else {
            let (_, mut flat) = lib.load_flat_prints()?;
            let mut id = i64::MAX / 2;
            while flat.simhash.len() < size {
                id += 1;
                let keys = synthetic.keys();
                flat.push(id, -1, synthetic.next_u64(), &keys);
            }
            (None, Index::from_flat(flat), None)
        };
        let checker = Checker::new(&lib, &index, &fp, settings);
        let baseline = Checker::new(&lib, &index, &fp, same_language);
        let (mut times, mut base_times) = (Vec::new(), Vec::new());
        let (mut flagged, mut translated) = (0, 0);
        for _ in 0..args.repeat.max(1) {
            let t = Instant::now();
            baseline.check(&submission)?;
            base_times.push(t.elapsed());
            // Each check a first one: a checker keeps the library paragraphs it has read.
            checker.clear_readings();
            let t = Instant::now();
            let r = checker.check(&submission)?;
            times.push(t.elapsed());
            let best = |p: &tongwen_engine::check::ParagraphResult| {
                p.matches.first().filter(|m| m.similarity >= 0.3).cloned()
            };
            flagged = r.iter().filter_map(best).count();
            translated = r
                .iter()
                .filter_map(best)
                .filter(|m| m.cross_language)
                .count();
        }
        assert!(
            flagged > 0,
            "the submission copies from the corpus: something must be flagged"
        );
        let warm = median(times);
        let base = median(base_times);
        points.push((size, ms(warm)));
        let m = index.memory();
        println!(
            "| {size} | {} | {} | {} | {:.1} | {:.1} | {:.2} | {flagged} ({translated}) | {:.0} | {:.0} | {} | {} |",
            cold.map_or("–".into(), |(d, ..)| format!("{:.0}", ms(d))),
            cold.map_or("–".into(), |(_, d, ..)| format!("{:.0}", ms(d))),
            cold.map_or("–".into(), |(_, _, d, _)| format!("{:.0}", ms(d))),
            ms(warm),
            ms(base),
            ms(warm) / ms(base).max(1e-9),
            m.fingerprints as f64 / size as f64,
            m.postings as f64 / size as f64,
            cold.map_or("–".into(), |(.., rss)| format!("{:.0}", mb(rss))),
            disk.map_or("–".into(), |d| d.to_string()),
        );
        if size == *args.sizes.last().unwrap_or(&0) {
            println!(
                "\nShortlist postings per library character (real part: {real_chars} characters in {real_n} paragraphs): {:.2} B; \
                 index at {size} paragraphs: {:.0} MB",
                (m.postings as f64 / size as f64) / (real_chars as f64 / real_n as f64),
                mb(m.fingerprints + m.postings)
            );
        }
    }
    if let Some(path) = &args.plot {
        std::fs::write(
            path,
            tongwen_bench::plot::svg(
                &format!("Warm check of 200 paragraphs, verification included ({threads} threads)"),
                "library paragraphs",
                &points,
            ),
        )?;
        println!("\nPlot written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
