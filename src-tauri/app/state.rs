//! The app's shared state: the fingerprinter (immutable, shared without a lock), the open library and its
//! in-memory index, the settings, the last check's raw results (so the threshold slider re-filters without
//! re-checking), and the cancel flag of the running operation.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};
use tongwen_engine::check::Index;
use tongwen_engine::fingerprint::Fingerprinter;
use tongwen_engine::library::{Generation, Library};
use tongwen_engine::report::CheckedDocument;

use crate::error::{Code, CommandError, CommandResult};

/// Default threshold: the share of a paragraph copied from one source that flags it.
pub const DEFAULT_THRESHOLD: f64 = 0.3;

/// User settings, stored as JSON in the app's config directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub library_path: String,
    pub threshold: f64,
    /// "zh", "en", or null to follow the system language.
    pub language: Option<String>,
}

/// The library and what is derived from it.
pub struct Store {
    /// The open library, or why the one the settings name could not be opened (a damaged file, a newer
    /// schema, a folder that cannot be written): the app still starts, every library command answers with
    /// that error, and Settings can point it at another location.
    pub library: Result<Library, CommandError>,
    /// Built on first check after a change, with the library generation it was built for; `None` when
    /// the app itself changed the library.
    pub index: Option<(Generation, Arc<Index>)>,
}

impl Store {
    /// The open library, or the error that kept it closed.
    pub fn library(&self) -> CommandResult<&Library> {
        self.library.as_ref().map_err(Clone::clone)
    }

    pub fn library_mut(&mut self) -> CommandResult<&mut Library> {
        self.library.as_mut().map_err(|e| e.clone())
    }
}

/// Everything the commands share.
pub struct AppState {
    pub fingerprinter: Arc<Fingerprinter>,
    pub store: Mutex<Store>,
    pub settings: Mutex<Settings>,
    pub settings_file: PathBuf,
    pub last_check: Mutex<Option<Vec<CheckedDocument>>>,
    pub cancel: AtomicBool,
    /// Where the bundled demo documents are unpacked.
    pub demo_dir: PathBuf,
}

fn poisoned() -> CommandError {
    CommandError::new(
        Code::Internal,
        "an earlier operation crashed; restart Tongwen",
    )
}

/// Lock a mutex, turning poisoning into an error the UI can show.
pub fn lock<T>(m: &Mutex<T>) -> CommandResult<MutexGuard<'_, T>> {
    m.lock().map_err(|_| poisoned())
}

impl AppState {
    /// Load settings (or defaults) and open the library they name. A library that cannot be opened does not
    /// stop the app (see [`Store::library`]).
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
                threshold: DEFAULT_THRESHOLD,
                language: None,
            });
        let fingerprinter = Arc::new(Fingerprinter::new());
        let library = Library::open(Path::new(&settings.library_path), &fingerprinter)
            .map_err(CommandError::from);
        Ok(AppState {
            fingerprinter,
            store: Mutex::new(Store {
                library,
                index: None,
            }),
            settings: Mutex::new(settings),
            settings_file,
            last_check: Mutex::new(None),
            cancel: AtomicBool::new(false),
            demo_dir: data_dir.join("demo"),
        })
    }

    /// Save settings atomically.
    pub fn save_settings(&self, settings: &Settings) -> CommandResult<()> {
        let io = |e: std::io::Error| {
            CommandError::new(
                Code::Internal,
                format!(
                    "cannot save settings to {}: {e}",
                    self.settings_file.display()
                ),
            )
        };
        if let Some(dir) = self.settings_file.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let tmp = self.settings_file.with_extension("json.tmp");
        let json = serde_json::to_vec_pretty(settings)
            .map_err(|e| CommandError::new(Code::Internal, e.to_string()))?;
        std::fs::write(&tmp, json).map_err(io)?;
        std::fs::rename(&tmp, &self.settings_file).map_err(io)
    }

    /// The index of the current library, built (or read from its saved index) if stale. The library's
    /// generation is compared on every call, so a change made outside the app, by the `tongwen` command
    /// or another window, is seen by the next check.
    pub fn index(&self) -> CommandResult<Arc<Index>> {
        let mut store = lock(&self.store)?;
        let generation = store.library()?.generation()?;
        if let Some((built_for, index)) = &store.index {
            if *built_for == generation {
                return Ok(Arc::clone(index));
            }
        }
        let index = Arc::new(Index::open(store.library()?)?);
        store.index = Some((generation, Arc::clone(&index)));
        Ok(index)
    }
}
