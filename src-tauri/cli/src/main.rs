//! `tongwen`: build a local library of documents and check submissions against it. A thin layer over
//! [`tongwen_engine::Engine`]: parse arguments, call the engine, print results and errors.
//!
//! The library, extract and check commands write their results to a locked standard output with
//! `writeln!`, not `println!`, so that a reader that stops early (`tongwen extract FILE | head -1`) ends
//! the command with an error that [`main`] treats as success, instead of a panic.

/// mimalloc instead of the system allocator: ingest allocates a few small strings and vectors per word
/// and paragraph on every thread, and ran 7% faster on one thread and 4% on two with it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use tongwen_engine::check::Method;
use tongwen_engine::engine::{
    CheckOptions, CompareOptions, LibraryLocation, Progress, ReadOptions, DEFAULT_MIN_MATCH_CHARS,
    DEFAULT_MIN_MATCH_WORDS, DEFAULT_TOP,
};
use tongwen_engine::eval::EvalReport;
use tongwen_engine::library::{AddOutcome, DocumentInfo, DocumentMeta, Role};
use tongwen_engine::report::class::ClassReport;
use tongwen_engine::report::duplicates::DuplicatesReport;
use tongwen_engine::report::duplicates::Level;
use tongwen_engine::report::text::printable;
use tongwen_engine::report::{Lang, OutputFormat, Render, Report, SpanKind};
use tongwen_engine::{files, Engine, Error};

mod manual;

#[derive(Parser)]
#[command(
    name = "tongwen",
    version,
    about = "同文 Tongwen: offline plagiarism checker"
)]
struct Cli {
    /// Library: a file, or a shared library's address postgres://USER@HOST/DATABASE (password from
    /// PGPASSWORD or ~/.pgpass; ?sslmode=require for TLS) [default: the platform data directory, e.g.
    /// ~/.local/share/tongwen/library.sqlite]
    #[arg(long, global = true, env = "TONGWEN_LIBRARY", value_name = "PATH|URL")]
    library: Option<String>,
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
    Check(CheckArgs),
    /// Compare a class's submissions (files or folders) with each other, without adding them to the library
    Compare(CompareArgs),
    /// Print a shell completion script for `tongwen` (bash, zsh, fish, elvish, powershell)
    Completions { shell: clap_complete::Shell },
    /// Write the manual pages (tongwen.1 and one per subcommand) into a folder
    #[command(hide = true)]
    Man { folder: PathBuf },
    /// Print the command-line reference as Markdown (docs/cli.md)
    #[command(hide = true)]
    Reference,
    /// Measure the comparison methods on a benchmark with truth (eval-dev's truth.json, or a duplicates
    /// set): precision, recall, F1, deduplication rate and time per document, per method and threshold.
    /// Works in a temporary library; yours is not touched.
    Eval {
        /// The benchmark's truth file (its documents are found relative to it)
        truth: PathBuf,
        /// Methods to measure, comma-separated [default: all]
        #[arg(long, value_delimiter = ',', value_parser = method_parser())]
        method: Vec<Method>,
        /// Thresholds to sweep, comma-separated [default: 0.3,0.5,0.7,0.8,0.9,0.95 and each method's own]
        #[arg(long, value_delimiter = ',')]
        threshold: Vec<f64>,
        /// text or json
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

#[derive(clap::Args)]
struct CompareArgs {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A template document (assignment prompt, cover page) whose text is never counted as shared; repeatable
    #[arg(long = "template", value_name = "FILE")]
    templates: Vec<PathBuf>,
    /// Also check every submission against the library
    #[arg(long)]
    with_library: bool,
    /// With --with-library: do not look for copies by translation (Chinese ↔ English)
    #[arg(long)]
    no_translation: bool,
    /// Group submissions whose pair shares at least this share of either document
    #[arg(long)]
    threshold: Option<f64>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the report here instead of standard output
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Shortest shared passage that counts, in CJK characters
    #[arg(long, default_value_t = DEFAULT_MIN_MATCH_CHARS)]
    min_match_chars: usize,
    /// Shortest shared passage that counts, in words (non-CJK text)
    #[arg(long, default_value_t = DEFAULT_MIN_MATCH_WORDS)]
    min_match_words: usize,
    #[arg(long)]
    encoding: Option<String>,
    /// Language of the HTML and text reports
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    lang: LangArg,
}

#[derive(clap::Args)]
struct CheckArgs {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Report matches with similarity at or above this [default: the method's: 0.3 verified, 0.8
    /// simhash, simhash-blocks, containment and cosine, 0.95 p-simhash and drpkp, 0.5 minhash,
    /// minhash-one and jaccard]
    #[arg(long)]
    threshold: Option<f64>,
    /// Matches reported per paragraph (beyond them, any match that covers counted characters the
    /// others do not is listed too: every counted passage is attributed)
    #[arg(long, default_value_t = DEFAULT_TOP)]
    top: usize,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the report here instead of standard output
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// How paragraphs are compared: Tongwen's verified spans, or one of the seed papers' methods
    /// (compared whole, no spans)
    #[arg(long, value_parser = method_parser(), default_value = "verified")]
    method: Method,
    /// Shortest copied passage that counts, in CJK characters
    #[arg(long, default_value_t = DEFAULT_MIN_MATCH_CHARS)]
    min_match_chars: usize,
    /// Shortest copied passage that counts, in words (non-CJK text)
    #[arg(long, default_value_t = DEFAULT_MIN_MATCH_WORDS)]
    min_match_words: usize,
    /// Leave these kinds of passage out of the similarity ratio: quotes (quoted with a citation),
    /// references (the references section), own (the writer's own work, with --author); comma-separated
    #[arg(long, value_enum, value_delimiter = ',')]
    exclude: Vec<ExcludeArg>,
    /// The writer: text of library documents by this author is their own earlier work (kind own)
    #[arg(long)]
    author: Option<String>,
    /// Do not look for copies by translation (Chinese ↔ English), which the verified method does by
    /// default for a paragraph whose other language the library holds
    #[arg(long)]
    no_translation: bool,
    /// Report a copy by translation when at least this share of the paragraph translates the source
    /// [default: 0.45]
    #[arg(long)]
    translation_threshold: Option<f64>,
    #[arg(long)]
    encoding: Option<String>,
    /// Language of the HTML and text reports
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    lang: LangArg,
}

/// What the documents added are.
#[derive(clap::Args)]
struct MetaArgs {
    /// source: checked against (default); template: its text is never counted as copying (the
    /// school's thesis template, an assignment's prompt)
    #[arg(long, value_enum, default_value_t = RoleArg::Source)]
    role: RoleArg,
    /// Title instead of the file name
    #[arg(long)]
    title: Option<String>,
    #[arg(long)]
    author: Option<String>,
    #[arg(long)]
    year: Option<i64>,
    /// A tag (a class, a year, "published"); repeatable
    #[arg(long = "tag", value_name = "TAG")]
    tags: Vec<String>,
}

/// Which documents `library list` shows.
#[derive(clap::Args)]
struct ListFilter {
    #[arg(long, value_enum)]
    role: Option<RoleArg>,
    /// Documents with this tag
    #[arg(long)]
    tag: Option<String>,
    /// Documents by this author (case-insensitive)
    #[arg(long)]
    author: Option<String>,
    #[arg(long)]
    year: Option<i64>,
}

impl ListFilter {
    fn keeps(&self, d: &DocumentInfo) -> bool {
        self.role.is_none_or(|r| r.role() == d.role)
            && self
                .tag
                .as_ref()
                .is_none_or(|t| d.tags.iter().any(|x| x == t.trim()))
            && self.author.as_ref().is_none_or(|a| {
                d.author
                    .as_deref()
                    .is_some_and(|x| x.trim().eq_ignore_ascii_case(a.trim()))
            })
            && self.year.is_none_or(|y| d.year == Some(y))
    }
}

impl RoleArg {
    fn role(self) -> Role {
        match self {
            RoleArg::Source => Role::Source,
            RoleArg::Template => Role::Template,
        }
    }
}

impl MetaArgs {
    fn meta(self) -> DocumentMeta {
        DocumentMeta {
            role: self.role.role(),
            title: self.title,
            author: self.author,
            year: self.year,
            tags: self.tags,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RoleArg {
    Source,
    Template,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ExcludeArg {
    Quotes,
    References,
    Own,
}

#[derive(Subcommand)]
enum LibraryCommand {
    /// Add files or folders (recursively: .txt, .docx, .pdf)
    Add {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long)]
        encoding: Option<String>,
        #[command(flatten)]
        meta: MetaArgs,
    },
    /// List the documents (all, or those matching every filter given)
    List {
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        filter: ListFilter,
    },
    /// Change a document's title, role, author, year or tags
    Edit {
        id: i64,
        #[arg(long, value_enum)]
        role: Option<RoleArg>,
        #[arg(long)]
        title: Option<String>,
        /// The author ("" removes it)
        #[arg(long)]
        author: Option<String>,
        /// The year (0 removes it)
        #[arg(long)]
        year: Option<i64>,
        /// Add a tag; repeatable
        #[arg(long = "tag", value_name = "TAG")]
        tags: Vec<String>,
        /// Remove a tag; repeatable
        #[arg(long = "untag", value_name = "TAG")]
        untags: Vec<String>,
    },
    /// Remove documents by id
    Remove {
        #[arg(required = true)]
        ids: Vec<i64>,
    },
    /// Create the library (on a server: its schema and the roles tongwen_reader, who may check, and
    /// tongwen_writer, who may also add and remove), or migrate an older one
    Init,
    /// Bring a library made by an older Tongwen up to date (re-fingerprint its paragraphs)
    Upgrade,
    /// Find near-duplicate documents (or paragraphs) inside the library
    Duplicates {
        #[arg(long, value_enum, default_value_t = LevelArg::Document)]
        level: LevelArg,
        /// Group documents (paragraphs) sharing at least this share of either [default: 0.8; with a
        /// seed method, the method's own]
        #[arg(long)]
        threshold: Option<f64>,
        /// verified: the library compared as a class (shared passages); or a seed method's prints of
        /// whole documents (paragraphs)
        #[arg(long, value_parser = method_parser(), default_value = "verified")]
        method: Method,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Write the report here instead of standard output
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Language of the text and HTML reports
        #[arg(long, value_enum, default_value_t = LangArg::En)]
        lang: LangArg,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum LevelArg {
    Document,
    Paragraph,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Html,
    /// A paginated A4 report with its font embedded (check only; needs --output)
    Pdf,
}

impl From<Format> for OutputFormat {
    fn from(format: Format) -> OutputFormat {
        match format {
            Format::Text => OutputFormat::Text,
            Format::Json => OutputFormat::Json,
            Format::Html => OutputFormat::Html,
            Format::Pdf => OutputFormat::Pdf,
        }
    }
}

/// A method by its name (`Method::name`): verified, simhash, simhash-blocks, p-simhash, drpkp, minhash,
/// minhash-one, jaccard, containment, cosine.
fn method_parser() -> impl clap::builder::TypedValueParser<Value = Method> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Method::ALL.map(Method::name))
        .try_map(|name| Method::from_name(&name).ok_or("unknown method"))
}

#[derive(Clone, Copy, ValueEnum)]
enum LangArg {
    En,
    Zh,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // Whoever reads the output has stopped reading (`| head -1`): it has what it wanted.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tongwen: {}", printable(&chain(&e)));
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
    let engine = || -> Result<Engine> {
        let location = match cli.library.clone() {
            Some(location) => LibraryLocation::parse(&location),
            None => LibraryLocation::default_location().context(
                "no data directory on this system; pass --library PATH or set TONGWEN_LIBRARY",
            )?,
        };
        Ok(Engine::new(location))
    };
    match cli.command {
        Command::Library { command } => match command {
            LibraryCommand::Add {
                paths,
                encoding,
                meta,
            } => library_add(&engine()?, &paths, encoding, meta.meta()),
            LibraryCommand::List { json, filter } => library_list(&engine()?, json, &filter),
            LibraryCommand::Edit {
                id,
                role,
                title,
                author,
                year,
                tags,
                untags,
            } => {
                let engine = engine()?;
                let Some(doc) = engine.list()?.into_iter().find(|d| d.id == id) else {
                    return Err(Error::NoSuchDocument(id).into());
                };
                let mut kept: Vec<String> = doc
                    .tags
                    .into_iter()
                    .filter(|t| !untags.iter().any(|u| u.trim() == t))
                    .collect();
                kept.extend(tags);
                let meta = DocumentMeta {
                    role: role.map_or(doc.role, RoleArg::role),
                    title,
                    author: author.or(doc.author),
                    year: match year {
                        Some(0) => None,
                        Some(y) => Some(y),
                        None => doc.year,
                    },
                    tags: kept,
                };
                let d = engine.set_meta(id, &meta)?;
                let mut out = io::stdout().lock();
                write_list(&mut out, std::slice::from_ref(&d))?;
                out.flush()?;
                Ok(ExitCode::SUCCESS)
            }
            LibraryCommand::Remove { ids } => library_remove(&engine()?, &ids),
            LibraryCommand::Init => library_init(&engine()?),
            LibraryCommand::Upgrade => upgrade(&engine()?).map(|()| ExitCode::SUCCESS),
            LibraryCommand::Duplicates {
                level,
                threshold,
                method,
                format,
                output,
                lang,
            } => duplicates_cmd(&engine()?, (level, method), threshold, format, output, lang),
        },
        Command::Extract {
            file,
            json,
            encoding,
        } => extract_cmd(file, json, encoding),
        Command::Check(args) => check_cmd(&engine()?, args),
        Command::Completions { shell } => manual::completions::<Cli>(shell),
        Command::Man { folder } => manual::pages::<Cli>(&folder),
        Command::Reference => manual::reference::<Cli>(),
        Command::Eval {
            truth,
            method,
            threshold,
            format,
        } => eval_cmd(&truth, method, threshold, format),
        Command::Compare(args) => {
            // Without the library, no library is opened: any location will do.
            let engine = match engine() {
                Err(_) if !args.with_library => {
                    Engine::new(LibraryLocation::Sqlite(PathBuf::from("library.sqlite")))
                }
                engine => engine?,
            };
            compare_cmd(&engine, args)
        }
    }
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

/// A progress callback that drives `bar` (its length is set by the first message).
fn follow(bar: &ProgressBar) -> impl FnMut(Progress<'_>) + '_ {
    |p| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
        bar.set_message(
            p.path
                .file_name()
                .map(|n| printable(&n.to_string_lossy()).into_owned())
                .unwrap_or_default(),
        );
    }
}

/// Re-fingerprint a library made by an older Tongwen, with a progress bar.
fn library_init(engine: &Engine) -> Result<ExitCode> {
    let status = engine.init()?;
    println!(
        "library {}: {} documents, {} paragraphs",
        printable(&status.path),
        status.documents,
        status.paragraphs
    );
    if let LibraryLocation::Postgres(_) = engine.location() {
        println!(
            "roles: tongwen_reader may check, tongwen_writer may also add and remove \
             (GRANT tongwen_reader TO a_teacher; GRANT tongwen_writer TO a_librarian;)"
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn upgrade(engine: &Engine) -> Result<()> {
    let status = engine.status()?;
    if !status.needs_upgrade {
        return Ok(());
    }
    eprintln!(
        "{} was made by an older Tongwen: updating its fingerprints ({} paragraphs)",
        printable(&status.path),
        status.stale_paragraphs
    );
    let bar = progress_bar(0, "updating");
    let result = engine.upgrade(&mut follow(&bar), &AtomicBool::new(false));
    bar.finish_and_clear();
    result?;
    Ok(())
}

fn library_add(
    engine: &Engine,
    inputs: &[PathBuf],
    encoding: Option<String>,
    meta: DocumentMeta,
) -> Result<ExitCode> {
    let bar = progress_bar(0, "adding");
    let run = engine.add_as(
        inputs,
        &ReadOptions { encoding },
        &meta,
        &mut follow(&bar),
        &AtomicBool::new(false),
    );
    bar.finish_and_clear();
    let run = run?;
    let (mut added, mut present, mut paragraphs, mut failures) = (0, 0, 0, Vec::new());
    for (file, outcome) in run.outcomes {
        match outcome {
            Ok(AddOutcome::Added(doc)) => {
                added += 1;
                paragraphs += doc.paragraphs;
            }
            Ok(AddOutcome::AlreadyPresent(doc)) => {
                present += 1;
                eprintln!(
                    "{}: already in the library as #{} {} ({})",
                    printable(&file.display().to_string()),
                    doc.id,
                    printable(&doc.title),
                    printable(&doc.path)
                );
            }
            Err(e) => failures.push(e),
        }
    }
    let mut out = io::stdout().lock();
    let summary = writeln!(
        out,
        "added {added} document(s) ({paragraphs} paragraphs), {present} already present, {} failed; \
         library {} now has {} documents, {} paragraphs",
        failures.len(),
        printable(&engine.location().display()),
        run.totals.documents,
        run.totals.paragraphs
    )
    .and_then(|()| out.flush());
    report_failures(summary, failures.iter())
}

/// List the files that could not be used (on standard error) and give the exit code: failure if there
/// were any. `written` is how writing the command's output went: a reader that stopped reading early
/// (`| head`) does not hide the failures or their exit code; any other write error is the command's error.
fn report_failures<'e>(
    written: io::Result<()>,
    failures: impl ExactSizeIterator<Item = &'e Error>,
) -> Result<ExitCode> {
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => return Err(e.into()),
        _ => {}
    }
    if failures.len() == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!("\n{} file(s) could not be used:", failures.len());
    for e in failures {
        eprintln!("  {}", printable(&e.to_string()));
    }
    Ok(ExitCode::FAILURE)
}

fn library_list(engine: &Engine, json: bool, filter: &ListFilter) -> Result<ExitCode> {
    let all = engine.list_existing()?;
    let filtered = all.len();
    let docs: Vec<DocumentInfo> = all.into_iter().filter(|d| filter.keeps(d)).collect();
    let filtered = filtered != docs.len();
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&docs)?)?;
    } else if docs.is_empty() && filtered {
        writeln!(out, "no document of the library matches")?;
    } else if docs.is_empty() {
        writeln!(
            out,
            "the library {} is empty; add documents with `tongwen library add PATH`",
            printable(&engine.location().display())
        )?;
    } else {
        write_list(&mut out, &docs)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The library as a table: id, format, paragraphs, characters, title.
fn write_list(out: &mut impl Write, docs: &[DocumentInfo]) -> io::Result<()> {
    writeln!(
        out,
        "{:>5}  {:<5} {:<8} {:>6} {:>8}  title",
        "id", "fmt", "role", "paras", "chars"
    )?;
    for d in docs {
        let mut about = Vec::new();
        if let Some(a) = &d.author {
            about.push(printable(a).into_owned());
        }
        if let Some(y) = d.year {
            about.push(y.to_string());
        }
        about.extend(d.tags.iter().map(|t| format!("#{}", printable(t))));
        writeln!(
            out,
            "{:>5}  {:<5} {:<8} {:>6} {:>8}  {}{}",
            d.id,
            d.format,
            d.role.as_str(),
            d.paragraphs,
            d.chars,
            printable(&d.title),
            if about.is_empty() {
                String::new()
            } else {
                format!(" ({})", about.join(", "))
            }
        )?;
    }
    Ok(())
}

fn library_remove(engine: &Engine, ids: &[i64]) -> Result<ExitCode> {
    let removed = engine.remove(ids)?;
    let mut out = io::stdout().lock();
    for d in removed {
        writeln!(out, "removed #{} {}", d.id, printable(&d.title))?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn extract_cmd(file: PathBuf, json: bool, encoding: Option<String>) -> Result<ExitCode> {
    let doc = Engine::extract(&file, &ReadOptions { encoding })?;
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

fn check_cmd(engine: &Engine, args: CheckArgs) -> Result<ExitCode> {
    refuse_early::<Report>(args.format, args.output.as_deref())?;
    let target = report_target(Some(engine), args.output.as_deref(), &args.files)?;
    let options = CheckOptions {
        method: args.method,
        threshold: args.threshold,
        top: args.top,
        min_match_chars: args.min_match_chars,
        min_match_words: args.min_match_words,
        exclude: args
            .exclude
            .iter()
            .map(|e| match e {
                ExcludeArg::Quotes => SpanKind::Quoted,
                ExcludeArg::References => SpanKind::Reference,
                ExcludeArg::Own => SpanKind::Own,
            })
            .collect(),
        author: args.author,
        translation: !args.no_translation,
        translation_threshold: args.translation_threshold,
        read: ReadOptions {
            encoding: args.encoding,
        },
    };
    upgrade(engine)?;
    let bar = progress_bar(0, "checking");
    let run = engine.check(
        &args.files,
        &options,
        &mut follow(&bar),
        &AtomicBool::new(false),
    );
    bar.finish_and_clear();
    let run = run?;
    let written = write_report(&run.report(), args.format, args.lang, target.as_ref())?;
    report_failures(written, run.failures().collect::<Vec<_>>().into_iter())
}

/// Where the report of a command goes, decided before the command's work: `output` may not name a
/// file the command reads (the library and its files beside it, `inputs` and the documents in them),
/// nor anything but a regular file or standard output ([`files::output_target`]).
fn report_target(
    engine: Option<&Engine>,
    output: Option<&Path>,
    inputs: &[PathBuf],
) -> Result<Option<files::Output>> {
    let Some(output) = output else {
        return Ok(None);
    };
    let mut read = inputs.to_vec();
    if let Some(LibraryLocation::Sqlite(library)) = engine.map(Engine::location) {
        read.push(library.clone());
        for suffix in ["-wal", "-shm", "-journal", ".index"] {
            read.push(tongwen_engine::library::sidecar(library, suffix));
        }
    }
    Ok(Some(files::output_target(output, &read)?))
}

/// Refuse, before any work, a format the report does not have, or a binary one without a file.
fn refuse_early<R: Render>(format: Format, output: Option<&Path>) -> Result<()> {
    let format = format.into();
    R::supports(format)?;
    if OutputFormat::needs_file(format) && output.is_none() {
        anyhow::bail!(
            "a {} report needs a file: add --output report.{}",
            format.name().to_uppercase(),
            format.name()
        );
    }
    Ok(())
}

/// Write `report` in `format` and `lang` to its file (atomically) or to standard output: the one place
/// every command's report is written. An error writing standard output is returned inside for
/// [`report_failures`].
fn write_report<R: Render>(
    report: &R,
    format: Format,
    lang: LangArg,
    target: Option<&files::Output>,
) -> Result<io::Result<()>> {
    let rendered = report.render(format.into(), lang_of(lang))?;
    Ok(match target {
        Some(files::Output::File(path)) => {
            files::write_atomically(path, &rendered)?;
            eprintln!(
                "report written to {}",
                printable(&path.display().to_string())
            );
            Ok(())
        }
        Some(files::Output::Stdout) | None => {
            let mut out = io::stdout().lock();
            out.write_all(&rendered).and_then(|()| out.flush())
        }
    })
}

fn lang_of(arg: LangArg) -> Lang {
    match arg {
        LangArg::En => Lang::En,
        LangArg::Zh => Lang::Zh,
    }
}

/// `library duplicates`: the library compared with itself, with a progress bar.
fn duplicates_cmd(
    engine: &Engine,
    (level, method): (LevelArg, Method),
    threshold: Option<f64>,
    format: Format,
    output: Option<PathBuf>,
    lang: LangArg,
) -> Result<ExitCode> {
    refuse_early::<DuplicatesReport>(format, output.as_deref())?;
    let target = report_target(Some(engine), output.as_deref(), &[])?;
    let level = match level {
        LevelArg::Document => Level::Document,
        LevelArg::Paragraph => Level::Paragraph,
    };
    let bar = progress_bar(0, "comparing");
    let report = engine.duplicates(
        level,
        method,
        threshold,
        &mut follow(&bar),
        &AtomicBool::new(false),
    );
    bar.finish_and_clear();
    write_report(&report?, format, lang, target.as_ref())??;
    Ok(ExitCode::SUCCESS)
}

/// `eval`: every chosen method on a benchmark, the table on standard output.
fn eval_cmd(
    truth: &Path,
    methods: Vec<Method>,
    thresholds: Vec<f64>,
    format: Format,
) -> Result<ExitCode> {
    refuse_early::<EvalReport>(format, None)?;
    if let Some(t) = thresholds.iter().find(|t| !(0.0..=1.0).contains(*t)) {
        anyhow::bail!("invalid threshold {t}: thresholds are between 0 and 1");
    }
    let methods: Vec<Method> = if methods.is_empty() {
        Method::ALL.to_vec()
    } else {
        methods
    };
    let bar = ProgressBar::new_spinner();
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let report = tongwen_engine::eval::evaluate(
        truth,
        &tongwen_engine::eval::EvalOptions {
            methods,
            thresholds,
        },
        &mut |what| bar.set_message(what.to_string()),
    );
    bar.finish_and_clear();
    write_report(&report?, format, LangArg::En, None)??;
    Ok(ExitCode::SUCCESS)
}

fn compare_cmd(engine: &Engine, args: CompareArgs) -> Result<ExitCode> {
    refuse_early::<ClassReport>(args.format, args.output.as_deref())?;
    let read: Vec<PathBuf> = args.files.iter().chain(&args.templates).cloned().collect();
    let target = report_target(
        args.with_library.then_some(engine),
        args.output.as_deref(),
        &read,
    )?;
    let options = CompareOptions {
        check: CheckOptions {
            threshold: args.threshold,
            min_match_chars: args.min_match_chars,
            min_match_words: args.min_match_words,
            translation: !args.no_translation,
            read: ReadOptions {
                encoding: args.encoding,
            },
            ..CheckOptions::default()
        },
        templates: args.templates,
        with_library: args.with_library,
    };
    if args.with_library {
        upgrade(engine)?;
    }
    let bar = progress_bar(0, "comparing");
    let run = engine.compare(
        &args.files,
        &options,
        &mut follow(&bar),
        &AtomicBool::new(false),
    );
    bar.finish_and_clear();
    let run = run?;
    let written = write_report(&run.report(), args.format, args.lang, target.as_ref())?;
    let failures: Vec<&Error> = run.unread.iter().map(|e| e.as_ref()).collect();
    report_failures(written, failures.into_iter())
}
