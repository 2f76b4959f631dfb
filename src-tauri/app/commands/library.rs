//! Library commands: list, status, upgrade, add (files or folders, with progress and cancel), remove.

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use serde::{Deserialize, Serialize};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};
use tongwen_engine::check::Method;
use tongwen_engine::engine::{LibraryStatus, ReadOptions};
use tongwen_engine::error::{ErrorInfo, ErrorKind};
use tongwen_engine::library::{AddOutcome, DocumentInfo, DocumentMeta, Role};
use tongwen_engine::report::duplicates::{DuplicatesReport, Level};

use super::{blocking, forward, Progress};
use crate::error::{Code, CommandError, CommandResult};
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

/// What the user says about documents, from the UI: `{role, title?, author?, year?, tags?}`.
#[derive(Debug, Default, Deserialize)]
pub struct MetaInput {
    #[serde(default)]
    pub role: Role,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub author: Option<String>,
    #[serde(default)]
    pub year: Option<i64>,
    #[serde(default)]
    pub tags: Vec<String>,
}

impl From<MetaInput> for DocumentMeta {
    fn from(m: MetaInput) -> Self {
        DocumentMeta {
            role: m.role,
            title: m.title,
            author: m.author.filter(|a| !a.trim().is_empty()),
            year: m.year,
            tags: m.tags,
        }
    }
}

#[tauri::command]
pub async fn library_add<R: Runtime>(
    app: AppHandle<R>,
    paths: Vec<String>,
    meta: Option<MetaInput>,
    on_progress: Channel<Progress>,
) -> CommandResult<AddSummary> {
    blocking(move || {
        let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
        let meta = DocumentMeta {
            // One title for several files would be wrong: titles are set one document at a time.
            title: None,
            ..meta.unwrap_or_default().into()
        };
        add_paths(&app, &paths, &meta, &on_progress)
    })
    .await
}

/// Add files and folders; shared by `library_add` and the demo.
pub fn add_paths<R: Runtime>(
    app: &AppHandle<R>,
    paths: &[PathBuf],
    meta: &DocumentMeta,
    on_progress: &Channel<Progress>,
) -> CommandResult<AddSummary> {
    let state = app.state::<AppState>();
    state.cancel.store(false, Ordering::Relaxed);
    let run = state.engine()?.add_as(
        paths,
        &ReadOptions::default(),
        meta,
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

/// Replace a document's role, title, author, year and tags; the document as it is now.
#[tauri::command]
pub fn library_edit(
    state: State<'_, AppState>,
    id: i64,
    meta: MetaInput,
) -> CommandResult<DocumentInfo> {
    Ok(state.engine()?.set_meta(id, &meta.into())?)
}

/// Near-duplicates inside the library (`level` "document" or "paragraph"; `method` "verified" or a
/// seed method's name, as `tongwen library duplicates --method`), with progress and cancel.
#[tauri::command]
pub async fn library_duplicates<R: Runtime>(
    app: AppHandle<R>,
    level: Option<String>,
    method: Option<String>,
    threshold: Option<f64>,
    on_progress: Channel<Progress>,
) -> CommandResult<DuplicatesReport> {
    blocking(move || {
        let level = match level.as_deref() {
            None | Some("document") => Level::Document,
            Some("paragraph") => Level::Paragraph,
            Some(other) => {
                return Err(CommandError::new(
                    Code::BadInput,
                    ErrorKind::InvalidSetting,
                    format!("unknown level {other:?} (document, paragraph)"),
                ))
            }
        };
        let method = match method.as_deref() {
            None => Method::Verified,
            Some(name) => Method::from_name(name).ok_or_else(|| {
                CommandError::new(
                    Code::BadInput,
                    ErrorKind::InvalidSetting,
                    format!(
                        "unknown method {name:?} ({})",
                        Method::ALL.map(Method::name).join(", ")
                    ),
                )
            })?,
        };
        let state = app.state::<AppState>();
        state.cancel.store(false, Ordering::Relaxed);
        Ok(state.engine()?.duplicates(
            level,
            method,
            threshold,
            &mut forward(&on_progress),
            &state.cancel,
        )?)
    })
    .await
}
