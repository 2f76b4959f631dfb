//! Criterion benchmarks of the engine's hot paths on a fixed real corpus: the eval-dev library and queries
//! when present (see `tongwen-testdata`), else the demo library in `assets/demo`.
//! Each benchmark asserts on its result, so an optimisation that breaks the work cannot look fast.
//! `tongwen-bench` prints the product-level figures (library sizes up to 10M, cold opens, memory);
//! these are for comparing one change with the next: `cargo bench -p tongwen-bench`.
//!
//! - `segment/jieba_cut`: raw jieba-rs `cut` (HMM on), the floor that fingerprinting is measured against.
//! - `fingerprint/paragraphs`: both stored fingerprints (TF-IDF SimHash and winnowed shingles).
//! - `ingest/prepare_and_write`: fingerprinting plus the SQLite write of every document (in memory).
//! - `check/200_paragraphs`: a warm check of 200 submission paragraphs, verification included, against the
//!   corpus grown to 100,000 paragraphs with synthetic fingerprints.
//! - `index/open_saved` vs `index/build`: opening the saved index of that library against building it.

use std::path::PathBuf;

// The allocator the `tongwen` command and the desktop app use.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tongwen_bench::synthetic::Synthetic;
use tongwen_engine::check::{CheckSettings, Checker, Index};
use tongwen_engine::extract::discover::collect_files;
use tongwen_engine::extract::{self, ExtractOptions};
use tongwen_engine::fingerprint::Fingerprinter;
use tongwen_engine::ingest;
use tongwen_engine::library::{FlatPrints, Library, NewDocument, Store};

struct Corpus {
    /// (file, paragraphs) of the library documents.
    documents: Vec<(PathBuf, extract::Extracted)>,
    paragraphs: Vec<String>,
    submission: Vec<String>,
}

fn load() -> Corpus {
    let (library, queries) = tongwen_bench::default_corpus();
    let opts = ExtractOptions::default();
    let (files, _) = collect_files(&[library]);
    let documents: Vec<(PathBuf, extract::Extracted)> = files
        .into_iter()
        .filter_map(|f| extract::extract_file(&f, &opts).ok().map(|d| (f, d)))
        .collect();
    let paragraphs = documents
        .iter()
        .flat_map(|(_, d)| d.paragraphs.iter().map(|p| p.text.clone()))
        .collect();
    let (qfiles, _) = collect_files(&[queries]);
    let mut submission: Vec<String> = qfiles
        .iter()
        .filter_map(|f| extract::extract_file(f, &opts).ok())
        .flat_map(|d| d.paragraphs.into_iter().map(|p| p.text))
        .collect();
    submission.truncate(200);
    assert!(!documents.is_empty() && !submission.is_empty(), "no corpus");
    Corpus {
        documents,
        paragraphs,
        submission,
    }
}

fn bytes(texts: &[String]) -> u64 {
    texts.iter().map(|t| t.len() as u64).sum()
}

fn benches(c: &mut Criterion) {
    let corpus = load();
    let fp = Fingerprinter::new();
    let total = bytes(&corpus.paragraphs);

    let mut g = c.benchmark_group("segment");
    g.throughput(Throughput::Bytes(total));
    g.bench_function("jieba_cut", |b| {
        b.iter(|| {
            let words: usize = corpus
                .paragraphs
                .iter()
                .map(|p| fp.tokenizer().jieba().cut(p, true).len())
                .sum();
            assert!(words > corpus.paragraphs.len());
            words
        })
    });
    g.finish();

    let mut g = c.benchmark_group("fingerprint");
    g.throughput(Throughput::Bytes(total));
    g.bench_function("paragraphs", |b| {
        b.iter(|| {
            let keys: usize = corpus
                .paragraphs
                .iter()
                .map(|p| fp.paragraph(p).shingles.len())
                .sum();
            assert!(keys >= corpus.paragraphs.len());
            keys
        })
    });
    g.finish();

    let mut g = c.benchmark_group("ingest");
    g.throughput(Throughput::Bytes(total));
    g.sample_size(10);
    g.bench_function("prepare_and_write", |b| {
        b.iter(|| {
            let docs: Vec<NewDocument> = corpus
                .documents
                .iter()
                .map(|(f, d)| ingest::prepare(f, 0, d.clone(), &fp))
                .collect();
            let mut lib = Library::in_memory().expect("in-memory library");
            for batch in docs.chunks(64) {
                let refs: Vec<&NewDocument> = batch.iter().collect();
                lib.add_batch(&refs).expect("write");
            }
            let paragraphs = lib.totals().expect("totals").paragraphs;
            assert!(paragraphs > 0);
            paragraphs
        })
    });
    g.finish();

    // A library of the corpus plus synthetic paragraphs, saved to disk with its index.
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("bench.sqlite");
    let mut lib = Library::open(&db).expect("library");
    let docs: Vec<NewDocument> = corpus
        .documents
        .iter()
        .map(|(f, d)| ingest::prepare(f, 0, d.clone(), &fp))
        .collect();
    lib.add_batch(&docs.iter().collect::<Vec<_>>())
        .expect("write");
    let real: Vec<Vec<u32>> = docs
        .iter()
        .flat_map(|d| d.paragraphs.iter().map(|p| p.shingles.clone()))
        .collect();
    let size = 100_000;
    let mut n = real.len();
    let mut synthetic = Synthetic::new(real);
    let mut doc_no = 0;
    while n < size {
        doc_no += 1;
        let count = (size - n).min(1_000);
        lib.add(&synthetic.document(doc_no, count)).expect("write");
        n += count;
    }
    let index = Index::open(&lib).expect("index");
    assert_eq!(index.len(), size);

    let mut g = c.benchmark_group("check");
    g.throughput(Throughput::Bytes(bytes(&corpus.submission)));
    let checker = Checker::new(&lib, &index, &fp, CheckSettings::default());
    g.bench_with_input(
        BenchmarkId::new("200_paragraphs", size),
        &corpus.submission,
        |b, submission| {
            b.iter(|| {
                // Each check a first one: a checker keeps the library paragraphs it has read.
                checker.clear_readings();
                let results = checker.check(submission).expect("check");
                let flagged = results
                    .iter()
                    .filter(|r| r.matches.first().is_some_and(|m| m.similarity >= 0.3))
                    .count();
                assert!(flagged > 0, "the submission copies from the corpus");
                flagged
            })
        },
    );
    g.finish();

    let mut g = c.benchmark_group("index");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.bench_function(BenchmarkId::new("open_saved", size), |b| {
        b.iter(|| {
            let index = Index::open(&lib).expect("index");
            assert_eq!(index.len(), size);
            index.len()
        })
    });
    g.bench_function(BenchmarkId::new("build", size), |b| {
        b.iter(|| {
            let (_, flat): (_, FlatPrints) = lib.load_flat_prints().expect("prints");
            let index = Index::from_flat(flat);
            assert_eq!(index.len(), size);
            index.len()
        })
    });
    g.finish();
}

criterion_group!(engine, benches);
criterion_main!(engine);
