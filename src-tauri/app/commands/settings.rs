//! Settings commands. Changing the library location opens (or creates) the library there.

use tauri::State;
use tongwen_engine::engine::validate_threshold;
use tongwen_engine::error::ErrorKind;

use crate::error::{Code, CommandError, CommandResult};
use crate::state::{engine_for, lock, AppState, Settings};

#[tauri::command]
pub fn settings_get(state: State<'_, AppState>) -> CommandResult<Settings> {
    Ok(lock(&state.settings)?.clone())
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
    // The library is opened (created if new) at the chosen place, even the same one (it may be fixed).
    let engine = engine_for(&settings.library_path);
    engine.init()?;
    state.set_engine(engine)?;
    state.save_settings(&settings)?;
    *current = settings.clone();
    Ok(settings)
}
