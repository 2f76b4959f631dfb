//! Settings commands. Changing the library location opens (or creates) the library there.

use tauri::State;
use tongwen_engine::engine::{validate_threshold, LibraryLocation};
use tongwen_engine::error::ErrorKind;

use crate::error::{Code, CommandError, CommandResult};
use crate::state::{engine_for, lock, AppState, Settings};

#[tauri::command]
pub fn settings_get(state: State<'_, AppState>) -> CommandResult<Settings> {
    let mut settings = lock(&state.settings)?;
    let current = settings.clone();
    // The move of the library is told once.
    settings.library_moved_from = None;
    Ok(current)
}

#[tauri::command]
pub fn settings_set(state: State<'_, AppState>, settings: Settings) -> CommandResult<Settings> {
    validate_threshold(settings.threshold)?;
    if let Some(lang) = &settings.language {
        if lang != "zh" && lang != "en" {
            return Err(CommandError::new(
                Code::BadInput,
                ErrorKind::InvalidSetting,
                "language must be zh or en",
            ));
        }
    }
    let mut current = lock(&state.settings)?;
    // A library file is opened (created if new) at the chosen place, even the same one (it may be
    // fixed). A shared library is the school's: it must be there, and reading it is enough (a teacher
    // may have the right to check only).
    let engine = engine_for(&settings.library_path);
    match engine.location() {
        LibraryLocation::Sqlite(_) => drop(engine.init()?),
        LibraryLocation::Postgres(_) => drop(engine.open_existing()?),
    }
    state.set_engine(engine)?;
    state.save_settings(&settings)?;
    *current = settings.clone();
    Ok(settings)
}
