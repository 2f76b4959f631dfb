//! The app's shared state: the engine over the library the settings name (replaced when the location
//! changes), the settings, the last check and the last class comparison (so the threshold slider re-filters without re-checking), and
//! the cancel flag of the running operation. Nothing here opens the library: the engine does, per
//! command, so a library that cannot be opened never stops the app.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};
use tongwen_engine::check::Method;
use tongwen_engine::engine::{CheckRun, CompareRun, LibraryLocation};
use tongwen_engine::error::ErrorKind;
use tongwen_engine::{files, Engine};

use crate::error::{Code, CommandError, CommandResult};

/// User settings, stored as JSON in the app's config directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub library_path: String,
    pub threshold: f64,
    /// "zh", "en", or null to follow the system language.
    pub language: Option<String>,
    /// Look for copies by translation (Chinese ↔ English) when checking.
    #[serde(default = "yes")]
    pub translation: bool,
    /// Where the library was before the app moved it to the place the `tongwen` command uses (told
    /// once, by the first `settings_get`; never saved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library_moved_from: Option<String>,
}

fn yes() -> bool {
    true
}

/// Everything the commands share.
pub struct AppState {
    engine: Mutex<Arc<Engine>>,
    pub settings: Mutex<Settings>,
    pub settings_file: PathBuf,
    pub last_check: Mutex<Option<CheckRun>>,
    /// The last class comparison (so the threshold re-groups it without comparing again).
    pub last_class: Mutex<Option<CompareRun>>,
    pub cancel: AtomicBool,
    /// Where the bundled demo documents are unpacked.
    pub demo_dir: PathBuf,
    /// Files the app was asked to open (`tongwen-desktop FILE...`, "Open with", also by a second start),
    /// waiting for the window to take them (`opened_files`).
    pub opened: Mutex<Vec<String>>,
}

/// Lock a mutex, turning poisoning into an error the UI can show.
pub fn lock<T>(m: &Mutex<T>) -> CommandResult<MutexGuard<'_, T>> {
    m.lock().map_err(|_| {
        CommandError::new(
            Code::Internal,
            ErrorKind::Internal,
            "an earlier operation crashed; restart Tongwen",
        )
    })
}

impl AppState {
    /// Load settings (or defaults). The library is not opened here (see the module documentation).
    /// The default library is `data_dir/library.sqlite`: the app passes the folder the `tongwen`
    /// command uses (`~/.local/share/tongwen`), so both use one library. A library at the place
    /// earlier versions of the app kept it (`legacy_dir`, Tauri's app data folder) is moved there
    /// once, when the app would use it and nothing is at the new place yet.
    pub fn load(
        config_dir: &Path,
        data_dir: &Path,
        legacy_dir: Option<&Path>,
    ) -> CommandResult<AppState> {
        let settings_file = config_dir.join("settings.json");
        let default_library = data_dir.join(tongwen_engine::library::DEFAULT_FILE_NAME);
        let saved = std::fs::read(&settings_file)
            .ok()
            .and_then(|b| serde_json::from_slice::<Settings>(&b).ok());
        let from_env = std::env::var_os("TONGWEN_LIBRARY").map(PathBuf::from);
        let mut settings = saved.clone().unwrap_or_else(|| Settings {
            library_path: from_env
                .clone()
                .unwrap_or_else(|| default_library.clone())
                .display()
                .to_string(),
            threshold: Method::default().default_threshold(),
            language: None,
            translation: true,
            library_moved_from: None,
        });
        if let Some(legacy) = legacy_dir.filter(|_| from_env.is_none() || saved.is_some()) {
            let old = legacy.join(tongwen_engine::library::DEFAULT_FILE_NAME);
            let uses_old = saved.is_none() || Path::new(&settings.library_path) == old;
            if uses_old && old.is_file() && !default_library.exists() {
                move_library(&old, &default_library)?;
                settings.library_path = default_library.display().to_string();
                settings.library_moved_from = Some(old.display().to_string());
                if saved.is_some() {
                    save(&settings_file, &settings)?;
                }
            }
        }
        Ok(AppState {
            engine: Mutex::new(Arc::new(engine_for(&settings.library_path))),
            settings: Mutex::new(settings),
            settings_file,
            last_check: Mutex::new(None),
            last_class: Mutex::new(None),
            cancel: AtomicBool::new(false),
            demo_dir: data_dir.join("demo"),
            opened: Mutex::new(Vec::new()),
        })
    }

    /// The engine over the current library.
    pub fn engine(&self) -> CommandResult<Arc<Engine>> {
        Ok(Arc::clone(&*lock(&self.engine)?))
    }

    /// Use the library at `path` from now on.
    pub fn set_engine(&self, engine: Engine) -> CommandResult<()> {
        *lock(&self.engine)? = Arc::new(engine);
        Ok(())
    }

    /// Save settings atomically.
    pub fn save_settings(&self, settings: &Settings) -> CommandResult<()> {
        save(&self.settings_file, settings)
    }
}

fn save(file: &Path, settings: &Settings) -> CommandResult<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(|e| tongwen_engine::Error::io(dir, e))?;
    }
    let settings = Settings {
        library_moved_from: None,
        ..settings.clone()
    };
    let json = serde_json::to_vec_pretty(&settings)
        .map_err(|e| CommandError::new(Code::Internal, ErrorKind::Internal, e.to_string()))?;
    Ok(files::write_private(file, &json)?)
}

/// Move a library file and the files SQLite and Tongwen keep beside it (write-ahead log, shared
/// memory, saved index) to `to`: renamed, or copied and then removed when `to` is on another file
/// system. The library is moved last, so an interruption leaves it where it was.
fn move_library(from: &Path, to: &Path) -> CommandResult<()> {
    use tongwen_engine::library::sidecar;
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|e| tongwen_engine::Error::io(dir, e))?;
    }
    for suffix in ["-wal", "-shm", ".index", ""] {
        let (a, b) = (sidecar(from, suffix), sidecar(to, suffix));
        if !a.exists() {
            continue;
        }
        if std::fs::rename(&a, &b).is_err() {
            std::fs::copy(&a, &b).map_err(|e| tongwen_engine::Error::io(&b, e))?;
            std::fs::remove_file(&a).map_err(|e| tongwen_engine::Error::io(&a, e))?;
        }
    }
    Ok(())
}

/// The engine over the library at `location`: a SQLite file, or a shared library's
/// `postgres://` address.
pub fn engine_for(location: &str) -> Engine {
    Engine::new(LibraryLocation::parse(location))
}
