//! `tongwen`: build a local library of documents and check submissions against it. A thin layer over
//! `tongwen-engine`: parse arguments, call the engine, print results and errors.
//!
//! The library, extract and check commands write their results to a locked standard output with
//! `writeln!`, not `println!`, so that a reader that stops early (`tongwen extract FILE | head -1`) ends
//! the command with an error that [`main`] treats as success, instead of a panic.

mod bench;

/// mimalloc instead of the system allocator: ingest allocates a few small strings and vectors per word
/// and paragraph on every thread, and ran 7% faster on one thread and 4% on two with it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use tongwen_engine::check::{CheckSettings, Checker, Index, Method};
use tongwen_engine::extract::{self, ExtractOptions};
use tongwen_engine::fingerprint::Fingerprinter;
use tongwen_engine::ingest;
use tongwen_engine::library::{self, AddOutcome, Library};
use tongwen_engine::report::{self, CheckedDocument, Report};

/// Default threshold of the verified method: a paragraph is flagged when at least this share of it is
/// copied from one source.
const DEFAULT_THRESHOLD_VERIFIED: f64 = 0.3;
/// Default threshold of the SimHash method (similarity = 1 - hamming/64), as in the seed papers.
const DEFAULT_THRESHOLD_SIMHASH: f64 = 0.8;

#[derive(Parser)]
#[command(
    name = "tongwen",
    version,
    about = "同文 Tongwen: offline plagiarism checker"
)]
struct Cli {
    /// Library database [default: the platform data directory, e.g. ~/.local/share/tongwen/library.sqlite]
    #[arg(long, global = true, env = "TONGWEN_LIBRARY", value_name = "PATH")]
    library: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Manage the library of documents that submissions are checked against
    Library {
        #[command(subcommand)]
        command: LibraryCommand,
    },
    /// Show the paragraphs of a document exactly as Tongwen reads them
    Extract {
        file: PathBuf,
        #[arg(long)]
        json: bool,
        /// Text encoding of a .txt file (e.g. gb18030, big5, utf-16le) instead of detecting it
        #[arg(long)]
        encoding: Option<String>,
    },
    /// Check documents (files or folders) against the library
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Report matches with similarity at or above this [default: 0.3 verified, 0.8 simhash]
        #[arg(long)]
        threshold: Option<f64>,
        /// Matches reported per paragraph
        #[arg(long, default_value_t = 3)]
        top: usize,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Write the report here instead of standard output
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// verified: shingle shortlist + copied-span alignment; simhash: paragraph SimHash only (the seed method)
        #[arg(long, value_enum, default_value_t = MethodArg::Verified)]
        method: MethodArg,
        /// Shortest copied passage that counts, in CJK characters
        #[arg(long, default_value_t = 13)]
        min_match_chars: usize,
        /// Shortest copied passage that counts, in words (non-CJK text)
        #[arg(long, default_value_t = 6)]
        min_match_words: usize,
        #[arg(long)]
        encoding: Option<String>,
    },
    /// Measure ingest and check speed and memory (prints a table)
    Bench(bench::BenchArgs),
}

#[derive(Subcommand)]
enum LibraryCommand {
    /// Add files or folders (recursively: .txt, .docx, .pdf)
    Add {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long)]
        encoding: Option<String>,
    },
    /// List the documents
    List {
        #[arg(long)]
        json: bool,
    },
    /// Remove documents by id
    Remove {
        #[arg(required = true)]
        ids: Vec<i64>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Html,
}

#[derive(Clone, Copy, ValueEnum)]
enum MethodArg {
    Verified,
    Simhash,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // Whoever reads the output has stopped reading (`| head -1`): it has what it wanted.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tongwen: {}", chain(&e));
            ExitCode::FAILURE
        }
    }
}

/// Whether writing the output failed because its reader closed the pipe.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// The error and its causes, leaving out causes the message already contains (engine errors print
/// their cause after the file name).
fn chain(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if !out.contains(&text) {
            if !out.is_empty() {
                out.push_str(": ");
            }
            out.push_str(&text);
        }
    }
    out
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Library { command } => {
            let path = library_path(cli.library)?;
            match command {
                LibraryCommand::Add { paths, encoding } => library_add(&path, &paths, encoding),
                LibraryCommand::List { json } => library_list(&path, json),
                LibraryCommand::Remove { ids } => library_remove(&path, &ids),
            }
        }
        Command::Extract {
            file,
            json,
            encoding,
        } => extract_cmd(&file, json, encoding),
        Command::Check {
            files,
            threshold,
            top,
            format,
            output,
            method,
            min_match_chars,
            min_match_words,
            encoding,
        } => {
            let path = library_path(cli.library)?;
            let method = match method {
                MethodArg::Verified => Method::Verified,
                MethodArg::Simhash => Method::Simhash,
            };
            let threshold = threshold.unwrap_or(match method {
                Method::Verified => DEFAULT_THRESHOLD_VERIFIED,
                Method::Simhash => DEFAULT_THRESHOLD_SIMHASH,
            });
            if !(0.0..=1.0).contains(&threshold) {
                bail!("--threshold must be between 0 and 1 (got {threshold})");
            }
            let mut settings = CheckSettings {
                method,
                ..CheckSettings::default()
            };
            settings.align.cjk.min_match = min_match_chars.max(1);
            settings.align.words.min_match = min_match_words.max(1);
            let opts = extract_options(encoding)?;
            check_cmd(
                &path, &files, threshold, top, format, output, settings, &opts,
            )
        }
        Command::Bench(args) => bench::run(args),
    }
}

fn library_path(flag: Option<PathBuf>) -> Result<PathBuf> {
    match flag {
        Some(p) => Ok(p),
        None => library::default_path().context(
            "no data directory on this system; pass --library PATH or set TONGWEN_LIBRARY",
        ),
    }
}

fn extract_options(encoding: Option<String>) -> Result<ExtractOptions> {
    let encoding = match encoding {
        None => None,
        Some(label) => Some(
            extract::txt::encoding_for_label(&label)
                .with_context(|| format!("unknown encoding {label:?}"))?,
        ),
    };
    Ok(ExtractOptions { encoding })
}

fn progress_bar(len: usize, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} {what} [{{bar:30}}] {{pos}}/{{len}} {{msg}} ({{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn library_add(path: &Path, inputs: &[PathBuf], encoding: Option<String>) -> Result<ExitCode> {
    let opts = extract_options(encoding)?;
    let fingerprinter = Fingerprinter::new();
    let mut lib = Library::open(path, &fingerprinter)?;
    let (files, mut failures) = ingest::collect_files(inputs);
    let bar = progress_bar(files.len(), "adding");
    let cancel = AtomicBool::new(false);
    let outcomes = ingest::add_files(&mut lib, &files, &opts, &fingerprinter, &cancel, |p| {
        bar.set_position(p.done as u64);
        bar.set_message(
            p.path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
    });
    bar.finish_and_clear();
    let (mut added, mut present, mut paragraphs) = (0, 0, 0);
    for (file, outcome) in outcomes {
        match outcome {
            Ok(AddOutcome::Added(doc)) => {
                added += 1;
                paragraphs += doc.paragraphs;
            }
            Ok(AddOutcome::AlreadyPresent(doc)) => {
                present += 1;
                eprintln!(
                    "{}: already in the library as #{} {} ({})",
                    file.display(),
                    doc.id,
                    doc.title,
                    doc.path
                );
            }
            Err(e) => failures.push(e),
        }
    }
    let (docs, paras, _) = lib.totals()?;
    let mut out = io::stdout().lock();
    let summary = writeln!(
        out,
        "added {added} document(s) ({paragraphs} paragraphs), {present} already present, {} failed; \
         library {} now has {docs} documents, {paras} paragraphs",
        failures.len(),
        path.display()
    )
    .and_then(|()| out.flush());
    report_failures(summary, &failures)
}

/// List the files that could not be used (on standard error) and give the exit code: failure if there
/// were any. `written` is how writing the command's output went: a reader that stopped reading early
/// (`| head`) does not hide the failures or their exit code; any other write error is the command's error.
fn report_failures(
    written: io::Result<()>,
    failures: &[tongwen_engine::Error],
) -> Result<ExitCode> {
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => return Err(e.into()),
        _ => {}
    }
    if failures.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!("\n{} file(s) could not be used:", failures.len());
    for e in failures {
        eprintln!("  {e}");
    }
    Ok(ExitCode::FAILURE)
}

fn library_list(path: &Path, json: bool) -> Result<ExitCode> {
    let lib = Library::open(path, &Fingerprinter::new())?;
    let docs = lib.list()?;
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&docs)?)?;
    } else if docs.is_empty() {
        writeln!(
            out,
            "the library {} is empty; add documents with `tongwen library add PATH`",
            path.display()
        )?;
    } else {
        write_list(&mut out, &docs)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The library as a table: id, format, paragraphs, characters, title.
fn write_list(out: &mut impl Write, docs: &[library::DocumentInfo]) -> io::Result<()> {
    writeln!(
        out,
        "{:>5}  {:<5} {:>6} {:>8}  title",
        "id", "fmt", "paras", "chars"
    )?;
    for d in docs {
        writeln!(
            out,
            "{:>5}  {:<5} {:>6} {:>8}  {}",
            d.id, d.format, d.paragraphs, d.chars, d.title
        )?;
    }
    Ok(())
}

fn library_remove(path: &Path, ids: &[i64]) -> Result<ExitCode> {
    let mut lib = Library::open(path, &Fingerprinter::new())?;
    let mut out = io::stdout().lock();
    for d in lib.remove(ids)? {
        writeln!(out, "removed #{} {}", d.id, d.title)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn extract_cmd(file: &Path, json: bool, encoding: Option<String>) -> Result<ExitCode> {
    let doc = extract::extract_file(file, &extract_options(encoding)?)?;
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        for (i, p) in doc.paragraphs.iter().enumerate() {
            writeln!(out, "[{}] {}\n", i + 1, p.text)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

#[allow(clippy::too_many_arguments)]
fn check_cmd(
    path: &Path,
    inputs: &[PathBuf],
    threshold: f64,
    top: usize,
    format: Format,
    output: Option<PathBuf>,
    settings: CheckSettings,
    opts: &ExtractOptions,
) -> Result<ExitCode> {
    if !path.exists() {
        bail!(
            "no library at {}; create one with `tongwen --library {} library add FOLDER`",
            path.display(),
            path.display()
        );
    }
    let fingerprinter = Fingerprinter::new();
    let lib = Library::open(path, &fingerprinter)?;
    let index = Index::open(&lib)?;
    let checker = Checker::new(&lib, &index, &fingerprinter, settings);
    let (files, mut failures) = ingest::collect_files(inputs);
    let bar = progress_bar(files.len(), "checking");
    let mut docs = Vec::with_capacity(files.len());
    for file in &files {
        bar.set_message(file.display().to_string());
        let outcome = extract::extract_file(file, opts).and_then(|d| {
            let texts: Vec<String> = d.paragraphs.into_iter().map(|b| b.text).collect();
            checker.check(&texts)
        });
        let outcome = match outcome {
            Ok(r) => Ok(r),
            Err(e) => {
                let msg = e.to_string();
                failures.push(e);
                Err(msg)
            }
        };
        docs.push(CheckedDocument {
            file: file.display().to_string(),
            outcome,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    let report = Report::build(settings.method, threshold, top, &docs);
    let rendered = match format {
        Format::Text => report::text::render(&report),
        Format::Json => report.to_json() + "\n",
        Format::Html => report::html::render(&report),
    };
    let written = match output {
        Some(out) => {
            write_atomically(&out, rendered.as_bytes())?;
            eprintln!("report written to {}", out.display());
            Ok(())
        }
        None => {
            let mut out = io::stdout().lock();
            out.write_all(rendered.as_bytes())
                .and_then(|()| out.flush())
        }
    };
    report_failures(written, &failures)
}

/// Write a file through a temporary sibling and a rename, so a failed write never leaves half a report.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tongwen-tmp");
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
