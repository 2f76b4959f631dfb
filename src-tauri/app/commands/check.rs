//! Check commands: check submissions (progress, cancel), re-filter the last report at another threshold,
//! export it as HTML in the UI's language, and the "try the sample" demo.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};
use tongwen_engine::engine::CheckOptions;
use tongwen_engine::error::ErrorKind;
use tongwen_engine::files;
use tongwen_engine::report::{Lang, OutputFormat, Render, Report, SpanKind};

use super::{blocking, forward, Progress};
use crate::error::{Code, CommandError, CommandResult};
use crate::state::{lock, AppState};

#[tauri::command]
pub async fn check<R: Runtime>(
    app: AppHandle<R>,
    paths: Vec<String>,
    author: Option<String>,
    on_progress: Channel<Progress>,
) -> CommandResult<Report> {
    blocking(move || {
        let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
        let author = author.filter(|a| !a.trim().is_empty());
        check_paths(&app, &paths, author, &on_progress)
    })
    .await
}

/// Check with the settings' threshold and the engine's defaults otherwise; keep the run for re-filtering.
fn check_paths<R: Runtime>(
    app: &AppHandle<R>,
    paths: &[PathBuf],
    author: Option<String>,
    on_progress: &Channel<Progress>,
) -> CommandResult<Report> {
    let state = app.state::<AppState>();
    state.cancel.store(false, Ordering::Relaxed);
    let (threshold, translation) = {
        let settings = lock(&state.settings)?;
        (settings.threshold, settings.translation)
    };
    let options = CheckOptions {
        threshold: Some(threshold),
        author,
        translation,
        ..CheckOptions::default()
    };
    let run = state
        .engine()?
        .check(paths, &options, &mut forward(on_progress), &state.cancel)?;
    let report = run.report();
    *lock(&state.last_check)? = Some(run);
    Ok(report)
}

/// Kinds of passage named by the interface ("quotes", "references"); an unknown name is an error.
fn kinds(exclude: Option<Vec<String>>) -> CommandResult<Vec<SpanKind>> {
    exclude
        .unwrap_or_default()
        .iter()
        .map(|name| {
            SpanKind::from_name(name).ok_or_else(|| {
                CommandError::new(
                    Code::BadInput,
                    ErrorKind::InvalidSetting,
                    format!("unknown kind of passage {name:?} (quotes, references)"),
                )
            })
        })
        .collect()
}

fn last_report(
    state: &AppState,
    threshold: f64,
    exclude: Option<Vec<String>>,
) -> CommandResult<Report> {
    let last = lock(&state.last_check)?;
    let run = last.as_ref().ok_or_else(|| {
        CommandError::new(
            Code::NotFound,
            ErrorKind::Internal,
            "no check has been run yet",
        )
    })?;
    Ok(run.report_with(threshold, &kinds(exclude)?)?)
}

/// Dispute (or take back the dispute of) a cited quotation of the last check: document `document`,
/// paragraph `paragraph`, the quotation starting at character `start`; its passages then count as
/// copied. Returns the last check's report at `threshold` and `exclude`, its figures following.
#[tauri::command]
pub fn dispute_quotation(
    state: State<'_, AppState>,
    document: usize,
    paragraph: usize,
    start: usize,
    threshold: f64,
    exclude: Option<Vec<String>>,
) -> CommandResult<Report> {
    {
        let mut last = lock(&state.last_check)?;
        let run = last.as_mut().ok_or_else(|| {
            CommandError::new(
                Code::NotFound,
                ErrorKind::Internal,
                "no check has been run yet",
            )
        })?;
        run.dispute(document, paragraph, start)?;
    }
    last_report(&state, threshold, exclude)
}

/// The last check re-filtered at `threshold`, with the kinds in `exclude` left out of the ratio.
#[tauri::command]
pub fn report(
    state: State<'_, AppState>,
    threshold: f64,
    exclude: Option<Vec<String>>,
) -> CommandResult<Report> {
    last_report(&state, threshold, exclude)
}

/// Write the last report at `threshold` as a self-contained HTML page, in `lang` ("zh" or "en").
#[tauri::command]
pub fn export_html(
    state: State<'_, AppState>,
    path: String,
    threshold: f64,
    lang: Option<String>,
    exclude: Option<Vec<String>>,
) -> CommandResult<()> {
    export(&state, &path, threshold, lang, exclude, OutputFormat::Html)
}

/// Write the last report at `threshold` as a paginated PDF (font embedded), in `lang`.
#[tauri::command]
pub fn export_pdf(
    state: State<'_, AppState>,
    path: String,
    threshold: f64,
    lang: Option<String>,
    exclude: Option<Vec<String>>,
) -> CommandResult<()> {
    export(&state, &path, threshold, lang, exclude, OutputFormat::Pdf)
}

/// Render the last report in `format` and write it to `path` atomically.
fn export(
    state: &AppState,
    path: &str,
    threshold: f64,
    lang: Option<String>,
    exclude: Option<Vec<String>>,
    format: OutputFormat,
) -> CommandResult<()> {
    let report = last_report(state, threshold, exclude)?;
    let bytes = report.render(format, lang_of(lang))?;
    Ok(files::write_atomically(&PathBuf::from(path), &bytes)?)
}

fn lang_of(code: Option<String>) -> Lang {
    code.as_deref()
        .and_then(Lang::from_code)
        .unwrap_or_default()
}

/// The demo documents, compiled in so the sample works wherever the app is installed.
const DEMO: &[(&str, &str)] = &[
    (
        "library/campus-water.txt",
        include_str!("../../../assets/demo/library/campus-water.txt"),
    ),
    (
        "library/reading-club.txt",
        include_str!("../../../assets/demo/library/reading-club.txt"),
    ),
    (
        "library/night-sky.txt",
        include_str!("../../../assets/demo/library/night-sky.txt"),
    ),
    (
        "submissions/student-essay.txt",
        include_str!("../../../assets/demo/submissions/student-essay.txt"),
    ),
];

/// Write bundled files (name relative to `dir`, text) into `dir`.
pub(crate) fn write_files(dir: &Path, files: &[(&str, &str)]) -> CommandResult<()> {
    for (name, text) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| tongwen_engine::Error::io(parent, e))?;
        }
        std::fs::write(&path, text).map_err(|e| tongwen_engine::Error::io(&path, e))?;
    }
    Ok(())
}

#[tauri::command]
pub async fn demo<R: Runtime>(
    app: AppHandle<R>,
    on_progress: Channel<Progress>,
) -> CommandResult<Report> {
    blocking(move || {
        let dir = app.state::<AppState>().demo_dir.clone();
        write_files(&dir, DEMO)?;
        super::library::add_paths(
            &app,
            &[dir.join("library")],
            &Default::default(),
            &on_progress,
        )?;
        check_paths(&app, &[dir.join("submissions")], None, &on_progress)
    })
    .await
}
