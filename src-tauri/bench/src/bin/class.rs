//! `tongwen-class-bench`: comparing a class in all pairs (`tongwen compare`), at growing class sizes.
//!
//! Each size is a synthetic class (`tongwen_bench::class`: Chinese essays of 30 paragraphs, every tenth
//! copying five paragraphs of the one before), written as .txt files and compared through
//! `Engine::compare`, reading included. The baseline, in the same process on the same files, is reading
//! and fingerprinting the class (what adding it to a library costs before any comparison). Memory is the
//! process's peak resident size after each size (sizes run smallest first). Run it on a release build:
//! `cargo run --release -p tongwen-bench --bin tongwen-class-bench -- --plot docs/class-compare.svg`.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use clap::Parser;
use rayon::prelude::*;
use tongwen_bench::class::ClassText;
use tongwen_engine::engine::{CompareOptions, LibraryLocation};
use tongwen_engine::extract::discover::collect_files;
use tongwen_engine::extract::{self, ExtractOptions};
use tongwen_engine::fingerprint::Fingerprinter;
use tongwen_engine::Engine;

#[derive(Parser)]
#[command(name = "tongwen-class-bench")]
struct Args {
    /// Class sizes, in submissions
    #[arg(long, value_delimiter = ',', default_values_t = [50usize, 100, 200, 500, 1000, 2000])]
    sizes: Vec<usize>,
    /// Paragraphs per submission
    #[arg(long, default_value_t = 30)]
    paragraphs: usize,
    /// Runs per size (the best is shown)
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Draw compare time against class size as an SVG plot here
    #[arg(long)]
    plot: Option<PathBuf>,
}

/// Peak resident memory of this process so far, in bytes (Linux; 0 elsewhere).
fn peak_resident() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// Chinese paragraphs of the benchmark corpus, to learn the text from.
fn chinese_paragraphs(corpus: &Path) -> Vec<String> {
    let (files, _) = collect_files(&[corpus.to_path_buf()]);
    files
        .iter()
        .filter_map(|f| extract::extract_file(f, &ExtractOptions::default()).ok())
        .flat_map(|d| d.paragraphs)
        .map(|p| p.text)
        .filter(|t| t.chars().any(tongwen_engine::text::normalize::is_cjk))
        .collect()
}

fn best(repeat: usize, mut run: impl FnMut() -> Result<Duration>) -> Result<Duration> {
    let mut best = Duration::MAX;
    for _ in 0..repeat.max(1) {
        best = best.min(run()?);
    }
    Ok(best)
}

fn main() -> Result<()> {
    let args = Args::parse();
    let (corpus, _) = tongwen_bench::default_corpus();
    let text = ClassText::new(chinese_paragraphs(&corpus).iter().map(String::as_str));
    if text.is_empty() {
        bail!("no Chinese text in {}", corpus.display());
    }
    let work = tempfile::tempdir()?;
    let engine = Engine::new(LibraryLocation::Sqlite(work.path().join("unused.sqlite")));
    let fp = Fingerprinter::new();
    let threads = rayon::current_num_threads();
    println!(
        "tongwen-class-bench: text learnt from {}, {threads} threads, best of {} runs\n",
        corpus.display(),
        args.repeat
    );
    println!("| submissions | paragraphs | MB of text | read + fingerprint (baseline) ms | compare ms | compare / baseline | pairs found | planted pairs found | peak resident MB |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut points = Vec::new();
    for &n in &args.sizes {
        let (essays, planted) = text.clone().class(n, args.paragraphs);
        let dir = work.path().join(format!("class-{n}"));
        std::fs::create_dir_all(&dir)?;
        let mut bytes = 0;
        let mut files = Vec::new();
        for (i, essay) in essays.iter().enumerate() {
            let body = essay.join("\n\n") + "\n";
            bytes += body.len();
            let path = dir.join(format!("s{i:04}.txt"));
            std::fs::write(&path, body)?;
            files.push(path);
        }
        let baseline = best(args.repeat, || {
            let t = Instant::now();
            let prints: usize = files
                .par_iter()
                .map(|f| {
                    extract::extract_file(f, &ExtractOptions::default())
                        .map(|d| {
                            d.paragraphs
                                .iter()
                                .map(|p| fp.paragraph(&p.text).chars as usize)
                                .sum::<usize>()
                        })
                        .unwrap_or(0)
                })
                .sum();
            assert!(prints > 0);
            Ok(t.elapsed())
        })?;
        let mut found = None;
        let compare = best(args.repeat, || {
            let t = Instant::now();
            let run = engine.compare(
                std::slice::from_ref(&dir),
                &CompareOptions::default(),
                &mut |_| {},
                &AtomicBool::new(false),
            )?;
            let elapsed = t.elapsed();
            found = Some(run.class);
            Ok(elapsed)
        })?;
        let run = found.unwrap_or_default();
        let index_of = |p: &std::path::PathBuf| files.iter().position(|f| f == p);
        let pairs: Vec<(usize, usize)> = run
            .pairs
            .iter()
            .filter_map(|p| {
                Some((
                    index_of(&PathBuf::from(&p.a))?,
                    index_of(&PathBuf::from(&p.b))?,
                ))
            })
            .collect();
        let planted_found = planted.iter().filter(|p| pairs.contains(p)).count();
        println!(
            "| {n} | {} | {:.2} | {:.0} | {:.0} | {:.2} | {} | {planted_found} of {} | {:.0} |",
            n * args.paragraphs,
            bytes as f64 / 1e6,
            baseline.as_secs_f64() * 1e3,
            compare.as_secs_f64() * 1e3,
            compare.as_secs_f64() / baseline.as_secs_f64(),
            run.pairs.len(),
            planted.len(),
            peak_resident() as f64 / 1e6,
        );
        points.push((n, compare.as_secs_f64() * 1e3));
        std::fs::remove_dir_all(&dir)?;
    }
    if let Some(path) = &args.plot {
        std::fs::write(
            path,
            tongwen_bench::plot::svg(
                &format!(
                    "Class compared in all pairs, {} paragraphs per submission ({threads} threads)",
                    args.paragraphs
                ),
                "submissions",
                &points,
            ),
        )?;
        println!("\nPlot written to {}", path.display());
    }
    Ok(())
}
