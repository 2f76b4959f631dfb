//! Settings commands. Changing the library location opens (or creates) the library there.

use std::path::Path;

use tauri::State;
use tongwen_engine::library::Library;

use crate::error::{Code, CommandError, CommandResult};
use crate::state::{lock, AppState, Settings};

#[tauri::command]
pub fn settings_get(state: State<'_, AppState>) -> CommandResult<Settings> {
    Ok(lock(&state.settings)?.clone())
}

#[tauri::command]
pub fn settings_set(state: State<'_, AppState>, settings: Settings) -> CommandResult<Settings> {
    if !(0.0..=1.0).contains(&settings.threshold) {
        return Err(CommandError::new(
            Code::BadInput,
            "threshold must be between 0 and 1",
        ));
    }
    if let Some(lang) = &settings.language {
        if lang != "zh" && lang != "en" {
            return Err(CommandError::new(
                Code::BadInput,
                "language must be zh or en",
            ));
        }
    }
    let mut current = lock(&state.settings)?;
    // A library that could not be opened is tried again even at the same place (the file may be fixed).
    if settings.library_path != current.library_path || lock(&state.store)?.library.is_err() {
        let library = Library::open(Path::new(&settings.library_path), &state.fingerprinter)?;
        let mut store = lock(&state.store)?;
        store.library = Ok(library);
        store.index = None;
    }
    state.save_settings(&settings)?;
    *current = settings.clone();
    Ok(settings)
}
