//! The commands the web view calls, a few lines each over [`tongwen_engine::Engine`]. Long work runs on a
//! blocking thread and reports progress through a `tauri::ipc::Channel`.

pub mod check;
pub mod class;
pub mod library;
pub mod open;
pub mod settings;

use serde::Serialize;
use tauri::ipc::Channel;
use tongwen_engine::engine::Progress as EngineProgress;
use tongwen_engine::error::ErrorKind;

use crate::error::{Code, CommandError, CommandResult};

/// Progress message sent to the UI.
#[derive(Debug, Clone, Serialize)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
    pub path: String,
}

/// An engine progress callback that forwards each message to the UI.
pub fn forward(channel: &Channel<Progress>) -> impl FnMut(EngineProgress<'_>) + '_ {
    |p| {
        let _ = channel.send(Progress {
            done: p.done,
            total: p.total,
            path: p.path.display().to_string(),
        });
    }
}

/// Run blocking work off the UI thread.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> CommandResult<T> + Send + 'static,
) -> CommandResult<T> {
    tauri::async_runtime::spawn_blocking(f)
        .await
        .map_err(|e| CommandError::new(Code::Internal, ErrorKind::Internal, e.to_string()))?
}
