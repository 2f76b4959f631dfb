//! The commands the web view calls, a few lines each over the engine. Long work runs on a blocking
//! thread and reports progress through a `tauri::ipc::Channel`.

pub mod check;
pub mod library;
pub mod settings;

use serde::Serialize;

/// Progress message sent to the UI.
#[derive(Debug, Clone, Serialize)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
    pub path: String,
}

/// Run blocking work off the UI thread.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> crate::error::CommandResult<T> + Send + 'static,
) -> crate::error::CommandResult<T> {
    tauri::async_runtime::spawn_blocking(f)
        .await
        .map_err(|e| crate::error::CommandError::new(crate::error::Code::Internal, e.to_string()))?
}
