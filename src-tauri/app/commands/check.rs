//! Check commands: check submissions (progress, cancel), re-filter the last report at another threshold,
//! export it as HTML, and the "try the sample" demo.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};
use tongwen_engine::check::{CheckSettings, Checker, Method};
use tongwen_engine::extract::{self, ExtractOptions};
use tongwen_engine::ingest;
use tongwen_engine::library::Library;
use tongwen_engine::report::{html, CheckedDocument, Report};

use super::{blocking, Progress};
use crate::error::{Code, CommandError, CommandResult};
use crate::state::{lock, AppState};

/// Matches shown per paragraph in the app.
const TOP: usize = 3;

#[tauri::command]
pub async fn check<R: Runtime>(
    app: AppHandle<R>,
    paths: Vec<String>,
    on_progress: Channel<Progress>,
) -> CommandResult<Report> {
    blocking(move || {
        check_paths(
            &app,
            paths.into_iter().map(PathBuf::from).collect(),
            &on_progress,
        )
    })
    .await
}

fn check_paths<R: Runtime>(
    app: &AppHandle<R>,
    paths: Vec<PathBuf>,
    on_progress: &Channel<Progress>,
) -> CommandResult<Report> {
    let state = app.state::<AppState>();
    state.cancel.store(false, Ordering::Relaxed);
    let (files, errors) = ingest::collect_files(&paths);
    if let Some(e) = errors.into_iter().next() {
        return Err(e.into());
    }
    let index = state.index()?;
    let (library_path, threshold) = {
        let s = lock(&state.settings)?;
        (s.library_path.clone(), s.threshold)
    };
    // A connection of its own: checking reads while the shared one may be adding.
    let library = Library::open(Path::new(&library_path), &state.fingerprinter)?;
    let checker = Checker::new(
        &library,
        &index,
        &state.fingerprinter,
        CheckSettings::default(),
    );
    let mut docs = Vec::with_capacity(files.len());
    for (i, file) in files.iter().enumerate() {
        if state.cancel.load(Ordering::Relaxed) {
            return Err(CommandError::new(Code::Cancelled, "check cancelled"));
        }
        let outcome = extract::extract_file(file, &ExtractOptions::default())
            .and_then(|d| {
                let texts: Vec<String> = d.paragraphs.into_iter().map(|b| b.text).collect();
                checker.check(&texts)
            })
            .map_err(|e| e.to_string());
        docs.push(CheckedDocument {
            file: file.display().to_string(),
            outcome,
        });
        let _ = on_progress.send(Progress {
            done: i + 1,
            total: files.len(),
            path: file.display().to_string(),
        });
    }
    let report = Report::build(Method::Verified, threshold, TOP, &docs);
    *lock(&state.last_check)? = Some(docs);
    Ok(report)
}

fn last_report(state: &AppState, threshold: f64) -> CommandResult<Report> {
    if !(0.0..=1.0).contains(&threshold) {
        return Err(CommandError::new(
            Code::BadInput,
            "threshold must be between 0 and 1",
        ));
    }
    let last = lock(&state.last_check)?;
    let docs = last
        .as_ref()
        .ok_or_else(|| CommandError::new(Code::NotFound, "no check has been run yet"))?;
    Ok(Report::build(Method::Verified, threshold, TOP, docs))
}

#[tauri::command]
pub fn report(state: State<'_, AppState>, threshold: f64) -> CommandResult<Report> {
    last_report(&state, threshold)
}

#[tauri::command]
pub fn export_html(state: State<'_, AppState>, path: String, threshold: f64) -> CommandResult<()> {
    let page = html::render(&last_report(&state, threshold)?);
    let path = PathBuf::from(path);
    let tmp = path.with_extension("tongwen-tmp");
    let io =
        |e: std::io::Error| CommandError::new(Code::BadInput, format!("{}: {e}", path.display()));
    std::fs::write(&tmp, page).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)
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

#[tauri::command]
pub async fn demo<R: Runtime>(
    app: AppHandle<R>,
    on_progress: Channel<Progress>,
) -> CommandResult<Report> {
    blocking(move || {
        let dir = app.state::<AppState>().demo_dir.clone();
        for (name, text) in DEMO {
            let path = dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| tongwen_engine::Error::io(parent, e))?;
            }
            std::fs::write(&path, text).map_err(|e| tongwen_engine::Error::io(&path, e))?;
        }
        super::library::add_paths(&app, vec![dir.join("library")], &on_progress)?;
        check_paths(&app, vec![dir.join("submissions")], &on_progress)
    })
    .await
}
