//! The Tongwen desktop shell: a Tauri 2 window over `tongwen-engine`. One builder, one
//! `generate_handler!`; the commands are in `commands/`, the shared state in `state.rs`, the error type
//! the UI sees in `error.rs`.

pub mod commands;
pub mod error;
pub mod state;

#[cfg(test)]
mod tests;

use std::path::Path;

use tauri::Manager;

/// Give a builder the app's plugins and commands, and its state: `state` when given (tests), otherwise
/// loaded at start from the platform's app directories.
pub fn configure<R: tauri::Runtime>(
    builder: tauri::Builder<R>,
    state: Option<state::AppState>,
) -> tauri::Builder<R> {
    let builder =
        builder
            .plugin(tauri_plugin_dialog::init())
            .invoke_handler(tauri::generate_handler![
                commands::library::library_list,
                commands::library::library_status,
                commands::library::library_upgrade,
                commands::library::library_add,
                commands::library::library_remove,
                commands::library::library_edit,
                commands::library::library_duplicates,
                commands::library::cancel,
                commands::check::check,
                commands::check::report,
                commands::check::dispute_quotation,
                commands::check::export_html,
                commands::check::export_pdf,
                commands::check::demo,
                commands::class::class_compare,
                commands::class::class_report,
                commands::class::class_export_html,
                commands::class::demo_class,
                commands::settings::settings_get,
                commands::settings::settings_set,
                commands::open::opened_files,
            ]);
    match state {
        Some(state) => builder.manage(state),
        None => builder.setup(|app| {
            let config = app.path().app_config_dir()?;
            // The library and the demo live where the `tongwen` command keeps its library
            // (~/.local/share/tongwen); earlier versions kept it in Tauri's app data folder.
            let legacy = app.path().app_data_dir()?;
            let data = tongwen_engine::library::default_path()
                .and_then(|p| p.parent().map(Path::to_path_buf))
                .unwrap_or_else(|| legacy.clone());
            let state = state::AppState::load(&config, &data, Some(&legacy))?;
            // `tongwen-desktop FILE...`: checked when the window is ready.
            let cwd = std::env::current_dir().unwrap_or_default();
            *state::lock(&state.opened)? =
                commands::open::files_in_args(std::env::args_os().skip(1), &cwd);
            // The segmenter's dictionary and the library's checking index load while the window
            // starts, each on a core of its own, not at the first check.
            if let Ok(engine) = state.engine() {
                let index = std::sync::Arc::clone(&engine);
                std::thread::spawn(move || engine.warm_up());
                std::thread::spawn(move || index.warm_index());
            }
            app.manage(state);
            Ok(())
        }),
    }
}

/// Run the desktop app: one instance per user session (a second start hands its files to the open
/// window and exits; without a session bus each start runs on its own).
pub fn run() {
    let builder =
        tauri::Builder::default().plugin(tauri_plugin_single_instance::init(|app, argv, cwd| {
            commands::open::forward(app, argv, &cwd)
        }));
    if let Err(e) = configure(builder, None).run(tauri::generate_context!()) {
        eprintln!("tongwen-desktop: {e}");
        std::process::exit(1);
    }
}
