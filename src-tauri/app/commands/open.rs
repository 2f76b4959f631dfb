//! Files the app is asked to open: named on its command line (`tongwen-desktop FILE...`, which is how a
//! file manager's "Open with Tongwen" starts it), or forwarded by a second start while a window is open
//! (the single-instance plugin hands over that start's arguments and working folder). The window checks
//! them on the Check tab.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use tauri::{AppHandle, Emitter, Manager, Runtime, State, Url};

use crate::error::CommandResult;
use crate::state::{lock, AppState};

/// The event that tells an open window there are files to take (`opened_files`) and check.
pub const OPEN_FILES_EVENT: &str = "open-files";

/// The files among a start's arguments (without the program name), made absolute against `cwd`.
/// Options (`-…`, which GTK and test drivers may pass) are not files; a local `file://` URI (from
/// launchers that pass URIs) is its path.
pub fn files_in_args(args: impl IntoIterator<Item = OsString>, cwd: &Path) -> Vec<String> {
    args.into_iter()
        .filter(|a| !a.to_string_lossy().starts_with('-'))
        .map(|a| {
            let uri = a.to_string_lossy();
            let path = uri
                .starts_with("file://")
                .then(|| Url::parse(&uri).ok()?.to_file_path().ok())
                .flatten()
                .unwrap_or_else(|| PathBuf::from(&a));
            cwd.join(path).display().to_string()
        })
        .collect()
}

/// A second start of the app (`argv` with its program name, from `cwd`): bring the open window forward
/// and hand it the files. They wait in the state like the first start's, and the event tells the
/// window to take them: a window still starting, which does not listen yet, takes them when it is
/// ready, so none is lost.
pub fn forward<R: Runtime>(app: &AppHandle<R>, argv: Vec<String>, cwd: &str) {
    let files = files_in_args(argv.into_iter().skip(1).map(OsString::from), Path::new(cwd));
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
    if files.is_empty() {
        return;
    }
    if let Some(state) = app.try_state::<AppState>() {
        if let Ok(mut waiting) = lock(&state.opened) {
            waiting.extend(files);
            let _ = app.emit_to("main", OPEN_FILES_EVENT, ());
        }
    }
}

/// The files the app was asked to open and the window has not taken yet, handed over once: the window
/// calls this when it is ready and on each `open-files` event.
#[tauri::command]
pub fn opened_files(state: State<'_, AppState>) -> CommandResult<Vec<String>> {
    Ok(std::mem::take(&mut *lock(&state.opened)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_absolute_and_options_are_not_files() {
        let cwd = Path::new("/home/teacher/Downloads");
        let args = [
            "essay.docx",
            "--verbose",
            "/tmp/b.pdf",
            "file:///tmp/%E4%BD%9C%E6%96%87%201.txt",
        ]
        .map(OsString::from);
        assert_eq!(
            files_in_args(args, cwd),
            [
                "/home/teacher/Downloads/essay.docx",
                "/tmp/b.pdf",
                "/tmp/作文 1.txt"
            ]
        );
        // Escapes that are not escapes stay as written.
        let odd = ["file:///tmp/a%2", "file:///tmp/%zz%41"].map(OsString::from);
        assert_eq!(files_in_args(odd, cwd), ["/tmp/a%2", "/tmp/%zzA"]);
    }
}
