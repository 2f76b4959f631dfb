//! `tongwen-server-bench`: the shared library on PostgreSQL beside the SQLite library, in one run.
//!
//! For each library size (real eval-dev paragraphs grown with synthetic ones, `tongwen_bench::synthetic`):
//! - **ingest**: storing prepared documents of 1,000 paragraphs (paragraphs/s), and the real corpus
//!   read, fingerprinted and stored (MB/s);
//! - **check**: a 200-paragraph submission (the eval-dev queries), verification included: on SQLite warm
//!   (index in memory) and cold (open, load the saved index, check); on PostgreSQL with the shortlist in
//!   the server, on an open connection and with a new connection per check;
//! - **concurrent adds**: 4 processes adding 1,000 documents each at once, then the count checked.
//!
//! The PostgreSQL server is the one at `--postgres` (default `TONGWEN_TEST_POSTGRES`, which
//! `scripts/postgres.sh` starts); each size gets a new database there, dropped afterwards.
//! `cargo run --release -p tongwen-bench --bin tongwen-server-bench -- --sizes 100000,1000000`

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Parser;
use tongwen_bench::synthetic::Synthetic;
use tongwen_engine::check::{CheckSettings, Checker, Index};
use tongwen_engine::extract::discover::collect_files;
use tongwen_engine::extract::{self, ExtractOptions};
use tongwen_engine::fingerprint::Fingerprinter;
use tongwen_engine::ingest;
use tongwen_engine::library::postgres::PgLibrary;
use tongwen_engine::library::{Library, NewDocument, Store};

#[derive(Parser)]
#[command(name = "tongwen-server-bench")]
struct Args {
    /// The PostgreSQL server's address (a database there to connect to as a superuser) [default:
    /// TONGWEN_TEST_POSTGRES]
    #[arg(long)]
    postgres: Option<String>,
    /// Library sizes, in paragraphs
    #[arg(long, value_delimiter = ',', default_values_t = [100_000usize, 1_000_000])]
    sizes: Vec<usize>,
    /// Checks per measurement (the median is shown)
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Documents each of the 4 concurrent adders adds
    #[arg(long, default_value_t = 1_000)]
    adds: usize,
    /// Keep each size's PostgreSQL database, and on a later run only check against it
    #[arg(long)]
    keep: bool,
    /// Internal: be one concurrent adder (library, first document number, documents, real library)
    #[arg(long, num_args = 4, hide = true)]
    adder: Vec<String>,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn open_write(location: &str) -> Result<Box<dyn Store>> {
    Ok(if location.starts_with("postgres") {
        Box::new(PgLibrary::open(location)?)
    } else {
        Box::new(Library::open(Path::new(location))?)
    })
}

/// The real paragraphs' keys (the synthetic generator's model), from a SQLite library of the corpus.
fn real_keys(real: &Path) -> Result<Vec<Vec<u32>>> {
    let (_, flat) = Library::open_read(real)?.load_flat_prints()?;
    Ok((0..flat.simhash.len())
        .map(|i| flat.keys_of(i).to_vec())
        .collect())
}

/// One of the concurrent adders: `count` documents of 5 synthetic paragraphs, numbered from `first`.
fn adder(args: &[String]) -> Result<()> {
    let [location, first, count, real] = args else {
        bail!("--adder LIBRARY FIRST COUNT REAL");
    };
    let (first, count): (usize, usize) = (first.parse()?, count.parse()?);
    let mut synthetic = Synthetic::new(real_keys(Path::new(real))?);
    let docs: Vec<NewDocument> = (first..first + count)
        .map(|no| synthetic.document(no, 5))
        .collect();
    let mut library = open_write(location)?;
    // One document per transaction, as `library add` of many small files stores them in batches.
    for chunk in docs.chunks(16) {
        library.add_batch(&chunk.iter().collect::<Vec<_>>())?;
    }
    Ok(())
}

/// A new database on the server, and its address.
fn create_database(admin: &str, name: &str) -> Result<String> {
    let mut c = postgres::Client::connect(admin, postgres::NoTls).context("the server")?;
    c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))?;
    c.batch_execute(&format!("CREATE DATABASE {name}"))?;
    let base = admin.rsplit_once('/').context("server address")?.0;
    Ok(format!("{base}/{name}"))
}

/// Whether an earlier `--keep` run left this size's database.
fn kept(admin: &str, name: &str) -> bool {
    postgres::Client::connect(admin, postgres::NoTls)
        .and_then(|mut c| {
            c.query_one(
                "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)",
                &[&name],
            )
        })
        .is_ok_and(|r| r.get(0))
}

/// Whether the database holds a whole library (the kept run got past its checks).
fn has_library(location: &str) -> bool {
    PgLibrary::open(location)
        .and_then(|l| l.totals())
        .is_ok_and(|t| t.documents > 0)
}

/// Warm checks against a kept library, with and without the translation search.
fn check_only(
    location: &str,
    fp: &Fingerprinter,
    submission: &[String],
    repeat: usize,
) -> Result<()> {
    // A library kept by an older build is brought up to date first, as `library init` would.
    let t = Instant::now();
    drop(PgLibrary::open(location)?);
    let opened = t.elapsed();
    let lib = PgLibrary::open_read(location)?;
    let checker = Checker::on_server(&lib, &lib, fp, CheckSettings::default());
    let same_language = Checker::on_server(
        &lib,
        &lib,
        fp,
        CheckSettings {
            translation: None,
            ..CheckSettings::default()
        },
    );
    let (mut all, mut same) = (Vec::new(), Vec::new());
    for _ in 0..repeat {
        // Each check a first one: a checker keeps the library paragraphs it has read.
        checker.clear_readings();
        let t = Instant::now();
        checker.check(submission)?;
        all.push(t.elapsed());
        let t = Instant::now();
        same_language.check(submission)?;
        same.push(t.elapsed());
    }
    println!(
        "kept library {}: opened for writing (migrations included) in {:.0} ms; warm check {:.1} ms, without the translation search {:.1} ms",
        tongwen_engine::library::postgres::redact(location),
        ms(opened),
        ms(median(all)),
        ms(median(same))
    );
    Ok(())
}

fn drop_database(admin: &str, name: &str) {
    if let Ok(mut c) = postgres::Client::connect(admin, postgres::NoTls) {
        let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
    }
}

fn main() -> Result<ExitCode> {
    let args = Args::parse();
    if !args.adder.is_empty() {
        adder(&args.adder)?;
        return Ok(ExitCode::SUCCESS);
    }
    let admin = args
        .postgres
        .clone()
        .or_else(|| std::env::var("TONGWEN_TEST_POSTGRES").ok())
        .context("no server: --postgres URL or TONGWEN_TEST_POSTGRES (scripts/postgres.sh)")?;
    let (corpus, queries) = tongwen_bench::default_corpus();
    let work = tempfile::tempdir()?;
    let fp = Fingerprinter::new();
    let opts = ExtractOptions::default();

    // The real corpus, read and fingerprinted once; and the submission.
    let (files, _) = collect_files(std::slice::from_ref(&corpus));
    let t = Instant::now();
    let real_docs: Vec<NewDocument> = files
        .iter()
        .filter_map(|f| {
            let d = extract::extract_file(f, &opts).ok()?;
            Some(ingest::prepare(f, 0, d, &fp))
        })
        .collect();
    let prepare = t.elapsed();
    let real_bytes: usize = real_docs
        .iter()
        .flat_map(|d| d.paragraphs.iter().map(|p| p.text.len()))
        .sum();
    let real_n: usize = real_docs.iter().map(|d| d.paragraphs.len()).sum();
    let (qfiles, _) = collect_files(std::slice::from_ref(&queries));
    let mut submission: Vec<String> = Vec::new();
    for f in &qfiles {
        if let Ok(d) = extract::extract_file(f, &opts) {
            submission.extend(d.paragraphs.into_iter().map(|p| p.text));
        }
    }
    submission.truncate(200);
    let real_path = work.path().join("real.sqlite");
    {
        let mut real = Library::open(&real_path)?;
        real.add_batch(&real_docs.iter().collect::<Vec<_>>())?;
    }
    let keys = real_keys(&real_path)?;
    println!(
        "tongwen-server-bench: corpus {} ({} documents, {real_n} paragraphs, {:.2} MB), {} submission paragraphs, PostgreSQL {}",
        corpus.display(),
        real_docs.len(),
        real_bytes as f64 / 1e6,
        submission.len(),
        tongwen_engine::library::postgres::redact(&admin)
    );
    println!(
        "\n| library paragraphs | backend | store corpus (MB/s, with fingerprinting {:.0} ms) | store synthetic (paragraphs/s) | optimise (s) | check: warm (ms) | same-language only (ms) | check: new connection/cold (ms) | flagged | 4 adders × {} documents (s) | documents after |",
        ms(prepare),
        args.adds
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let settings = CheckSettings::default();
    for &size in &args.sizes {
        for backend in ["SQLite", "PostgreSQL"] {
            let name = format!("tongwen_bench_{size}");
            let location = if backend == "SQLite" {
                work.path()
                    .join(format!("{name}.sqlite"))
                    .display()
                    .to_string()
            } else if args.keep && kept(&admin, &name) {
                format!(
                    "{}/{name}",
                    admin.rsplit_once('/').context("server address")?.0
                )
            } else {
                create_database(&admin, &name)?
            };
            if backend == "PostgreSQL" && args.keep && kept(&admin, &name) && has_library(&location)
            {
                // Only the checks, on the library an earlier `--keep` run left.
                check_only(&location, &fp, &submission, args.repeat)?;
                continue;
            }
            // Ingest: the real corpus, then synthetic documents of 1,000 paragraphs.
            let mut library = open_write(&location)?;
            let t = Instant::now();
            for batch in real_docs.chunks(64) {
                library.add_batch(&batch.iter().collect::<Vec<_>>())?;
            }
            let corpus_rate = real_bytes as f64 / 1e6 / (t.elapsed() + prepare).as_secs_f64();
            let mut synthetic = Synthetic::new(keys.clone());
            let (mut stored, mut no) = (real_n, 0usize);
            let t = Instant::now();
            while stored < size {
                let n = (size - stored).min(1_000);
                no += 1;
                let doc = synthetic.document(no, n);
                library.add_batch(&[&doc])?;
                stored += n;
            }
            let synthetic_rate = (size - real_n) as f64 / t.elapsed().as_secs_f64();
            drop(library);
            // What the server's autovacuum does after a large load (statistics, visibility map).
            let t = Instant::now();
            if backend == "PostgreSQL" {
                let mut c = postgres::Client::connect(&location, postgres::NoTls)?;
                c.batch_execute("VACUUM ANALYZE")?;
            }
            let optimise = t.elapsed();

            // Checks.
            let (mut warm, mut cold, mut same) = (Vec::new(), Vec::new(), Vec::new());
            let same_language = CheckSettings {
                translation: None,
                ..settings
            };
            // Checks in turn, the default and the same-language one; the flagged paragraphs.
            let time_checks = |checker: &Checker<'_>,
                               baseline: &Checker<'_>,
                               warm: &mut Vec<Duration>,
                               same: &mut Vec<Duration>|
             -> Result<usize> {
                let mut flagged = 0;
                for _ in 0..args.repeat {
                    // Each check a first one: a checker keeps the library paragraphs it has read.
                    checker.clear_readings();
                    let t = Instant::now();
                    let r = checker.check(&submission)?;
                    warm.push(t.elapsed());
                    flagged = r
                        .iter()
                        .filter(|p| p.matches.first().is_some_and(|m| m.similarity >= 0.3))
                        .count();
                    let t = Instant::now();
                    baseline.check(&submission)?;
                    same.push(t.elapsed());
                }
                Ok(flagged)
            };
            let flagged = if backend == "SQLite" {
                let path = PathBuf::from(&location);
                drop(Index::open(&Library::open_read(&path)?)?); // builds and saves the index
                for _ in 0..args.repeat {
                    let t = Instant::now();
                    let lib = Library::open_read(&path)?;
                    let index = Index::open(&lib)?;
                    Checker::new(&lib, &index, &fp, settings).check(&submission)?;
                    cold.push(t.elapsed());
                }
                let lib = Library::open_read(&path)?;
                let index = Index::open(&lib)?;
                let checker = Checker::new(&lib, &index, &fp, settings);
                let baseline = Checker::new(&lib, &index, &fp, same_language);
                time_checks(&checker, &baseline, &mut warm, &mut same)?
            } else {
                for _ in 0..args.repeat {
                    let t = Instant::now();
                    let lib = PgLibrary::open_read(&location)?;
                    lib.hold_snapshot()?;
                    Checker::on_server(&lib, &lib, &fp, settings).check(&submission)?;
                    cold.push(t.elapsed());
                }
                let lib = PgLibrary::open_read(&location)?;
                let checker = Checker::on_server(&lib, &lib, &fp, settings);
                let baseline = Checker::on_server(&lib, &lib, &fp, same_language);
                time_checks(&checker, &baseline, &mut warm, &mut same)?
            };

            // Four desktops adding at once.
            let before = open_write(&location)?.totals()?.documents;
            let t = Instant::now();
            let exe = std::env::current_exe()?;
            let children: Vec<_> = (0..4)
                .map(|k| {
                    Command::new(&exe)
                        .arg("--adder")
                        .arg(&location)
                        .arg((10_000_000 + k * args.adds).to_string())
                        .arg(args.adds.to_string())
                        .arg(&real_path)
                        .spawn()
                })
                .collect::<std::io::Result<_>>()?;
            for mut child in children {
                if !child.wait()?.success() {
                    bail!("a concurrent adder failed");
                }
            }
            let adds = t.elapsed();
            let after = open_write(&location)?.totals()?.documents;
            if after - before != 4 * args.adds as u64 {
                bail!(
                    "{backend}: {} documents added, not {}",
                    after - before,
                    4 * args.adds
                );
            }
            println!(
                "| {size} | {backend} | {corpus_rate:.2} | {synthetic_rate:.0} | {:.1} | {:.1} | {:.1} | {:.1} | {flagged} | {:.1} | {after} (+{}) |",
                optimise.as_secs_f64(),
                ms(median(warm)),
                ms(median(same)),
                ms(median(cold)),
                adds.as_secs_f64(),
                after - before
            );
            if backend == "PostgreSQL" {
                let mut c = postgres::Client::connect(&location, postgres::NoTls)?;
                let row = c.query_one(
                    "SELECT pg_database_size(current_database()),
                            pg_total_relation_size('tongwen.paragraph_keys'),
                            (SELECT count(*) FROM tongwen.paragraph_keys)",
                    &[],
                )?;
                let (db_bytes, keys_bytes, key_rows): (i64, i64, i64) =
                    (row.get(0), row.get(1), row.get(2));
                let total = size as f64 + (4 * args.adds * 5) as f64;
                println!(
                    "|  | (PostgreSQL on disk: {:.0} B/paragraph, of which the key table and its index {:.0} B; {:.1} key rows/paragraph) | | | | | | | | | |",
                    db_bytes as f64 / total,
                    keys_bytes as f64 / total,
                    key_rows as f64 / total
                );
                drop(c);
                if !args.keep {
                    drop_database(&admin, &name);
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
