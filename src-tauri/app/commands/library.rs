//! Library commands: list, status, upgrade, add (files or folders, with progress and cancel), remove.

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};
use tongwen_engine::engine::{LibraryStatus, ReadOptions};
use tongwen_engine::error::ErrorInfo;
use tongwen_engine::library::{AddOutcome, DocumentInfo};

use super::{blocking, forward, Progress};
use crate::error::CommandResult;
use crate::state::AppState;

/// A document whose content was already in the library.
#[derive(Debug, Serialize)]
pub struct Present {
    pub path: String,
    pub existing: DocumentInfo,
}

/// A file that could not be added, and why (`{path, message, kind, params}`).
#[derive(Debug, Serialize)]
pub struct Failed {
    #[serde(flatten)]
    pub info: ErrorInfo,
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
    Ok(state.engine()?.list()?)
}

#[tauri::command]
pub fn library_status(state: State<'_, AppState>) -> CommandResult<LibraryStatus> {
    Ok(state.engine()?.status()?)
}

/// Re-fingerprint a library made by an older Tongwen (progress counts paragraphs).
#[tauri::command]
pub async fn library_upgrade<R: Runtime>(
    app: AppHandle<R>,
    on_progress: Channel<Progress>,
) -> CommandResult<LibraryStatus> {
    blocking(move || {
        let state = app.state::<AppState>();
        state.cancel.store(false, Ordering::Relaxed);
        Ok(state
            .engine()?
            .upgrade(&mut forward(&on_progress), &state.cancel)?)
    })
    .await
}

#[tauri::command]
pub async fn library_add<R: Runtime>(
    app: AppHandle<R>,
    paths: Vec<String>,
    on_progress: Channel<Progress>,
) -> CommandResult<AddSummary> {
    blocking(move || {
        let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
        add_paths(&app, &paths, &on_progress)
    })
    .await
}

/// Add files and folders; shared by `library_add` and the demo.
pub fn add_paths<R: Runtime>(
    app: &AppHandle<R>,
    paths: &[PathBuf],
    on_progress: &Channel<Progress>,
) -> CommandResult<AddSummary> {
    let state = app.state::<AppState>();
    state.cancel.store(false, Ordering::Relaxed);
    let run = state.engine()?.add(
        paths,
        &ReadOptions::default(),
        &mut forward(on_progress),
        &state.cancel,
    )?;
    let mut summary = AddSummary {
        cancelled: run.cancelled,
        ..AddSummary::default()
    };
    for (path, outcome) in run.outcomes {
        match outcome {
            Ok(AddOutcome::Added(d)) => summary.added.push(d),
            Ok(AddOutcome::AlreadyPresent(existing)) => summary.present.push(Present {
                path: path.display().to_string(),
                existing,
            }),
            Err(e) => summary.failed.push(Failed { info: e.info() }),
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
    Ok(state.engine()?.remove(&ids)?)
}
