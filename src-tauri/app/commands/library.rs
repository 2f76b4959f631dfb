//! Library commands: list, add (files or folders, with progress and cancel), remove.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};
use tongwen_engine::extract::ExtractOptions;
use tongwen_engine::ingest;
use tongwen_engine::library::{AddOutcome, DocumentInfo};

use super::{blocking, Progress};
use crate::error::CommandResult;
use crate::state::{lock, AppState};

/// A document whose content was already in the library.
#[derive(Debug, Serialize)]
pub struct Present {
    pub path: String,
    pub existing: DocumentInfo,
}

/// A file that could not be added, and why.
#[derive(Debug, Serialize)]
pub struct Failed {
    pub path: String,
    pub message: String,
}

/// What an add did.
#[derive(Debug, Default, Serialize)]
pub struct AddSummary {
    pub added: Vec<DocumentInfo>,
    pub present: Vec<Present>,
    pub failed: Vec<Failed>,
    pub cancelled: bool,
}

#[tauri::command]
pub fn library_list(state: State<'_, AppState>) -> CommandResult<Vec<DocumentInfo>> {
    Ok(lock(&state.store)?.library()?.list()?)
}

#[tauri::command]
pub async fn library_add<R: Runtime>(
    app: AppHandle<R>,
    paths: Vec<String>,
    on_progress: Channel<Progress>,
) -> CommandResult<AddSummary> {
    blocking(move || {
        add_paths(
            &app,
            paths.into_iter().map(PathBuf::from).collect(),
            &on_progress,
        )
    })
    .await
}

/// Add files and folders; shared by `library_add` and the demo.
pub fn add_paths<R: Runtime>(
    app: &AppHandle<R>,
    paths: Vec<PathBuf>,
    on_progress: &Channel<Progress>,
) -> CommandResult<AddSummary> {
    let state = app.state::<AppState>();
    // A library that could not be opened is reported before any file is read.
    lock(&state.store)?.library()?;
    state.cancel.store(false, Ordering::Relaxed);
    let fingerprinter = Arc::clone(&state.fingerprinter);
    let (files, errors) = ingest::collect_files(&paths);
    let mut summary = AddSummary::default();
    for e in errors {
        summary.failed.push(Failed {
            path: String::new(),
            message: e.to_string(),
        });
    }
    let outcomes = ingest::add_files_with(
        &files,
        &ExtractOptions::default(),
        &fingerprinter,
        &state.cancel,
        |p| {
            let _ = on_progress.send(Progress {
                done: p.done,
                total: p.total,
                path: p.path.display().to_string(),
            });
        },
        |docs| {
            let mut store = lock(&state.store).map_err(|_| tongwen_engine::Error::Cancelled)?;
            let library = store
                .library
                .as_mut()
                .map_err(|_| tongwen_engine::Error::Internal("the library was closed"))?;
            let outcomes = library.add_batch(docs)?;
            if outcomes.iter().any(|o| matches!(o, AddOutcome::Added(_))) {
                store.index = None;
            }
            Ok(outcomes)
        },
    );
    summary.cancelled = outcomes.len() < files.len();
    for (path, outcome) in outcomes {
        let path = path.display().to_string();
        match outcome {
            Ok(AddOutcome::Added(d)) => summary.added.push(d),
            Ok(AddOutcome::AlreadyPresent(existing)) => {
                summary.present.push(Present { path, existing })
            }
            Err(e) => summary.failed.push(Failed {
                path,
                message: e.to_string(),
            }),
        }
    }
    Ok(summary)
}

#[tauri::command]
pub fn cancel(state: State<'_, AppState>) {
    state.cancel.store(true, Ordering::Relaxed);
}

#[tauri::command]
pub fn library_remove(
    state: State<'_, AppState>,
    ids: Vec<i64>,
) -> CommandResult<Vec<DocumentInfo>> {
    let mut store = lock(&state.store)?;
    let removed = store.library_mut()?.remove(&ids)?;
    store.index = None;
    Ok(removed)
}
