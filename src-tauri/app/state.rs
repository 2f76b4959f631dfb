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
    pub fn load(config_dir: &Path, data_dir: &Path) -> CommandResult<AppState> {
        let settings_file = config_dir.join("settings.json");
        let settings = std::fs::read(&settings_file)
            .ok()
            .and_then(|b| serde_json::from_slice::<Settings>(&b).ok())
            .unwrap_or_else(|| Settings {
                library_path: std::env::var_os("TONGWEN_LIBRARY")
                    .map(PathBuf::from)
                    .unwrap_or_else(|| data_dir.join(tongwen_engine::library::DEFAULT_FILE_NAME))
                    .display()
                    .to_string(),
                threshold: Method::default().default_threshold(),
                language: None,
                translation: true,
            });
        Ok(AppState {
            engine: Mutex::new(Arc::new(engine_for(&settings.library_path))),
            settings: Mutex::new(settings),
            settings_file,
            last_check: Mutex::new(None),
            last_class: Mutex::new(None),
            cancel: AtomicBool::new(false),
            demo_dir: data_dir.join("demo"),
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
        if let Some(dir) = self.settings_file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| tongwen_engine::Error::io(dir, e))?;
        }
        let json = serde_json::to_vec_pretty(settings)
            .map_err(|e| CommandError::new(Code::Internal, ErrorKind::Internal, e.to_string()))?;
        Ok(files::write_atomically(&self.settings_file, &json)?)
    }
}

/// The engine over the library at `location`: a SQLite file, or a shared library's
/// `postgres://` address.
pub fn engine_for(location: &str) -> Engine {
    Engine::new(LibraryLocation::parse(location))
}
