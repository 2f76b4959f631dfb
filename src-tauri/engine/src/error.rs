//! The engine's error type. Every variant names what failed and why, so that the command line and the
//! desktop app can tell the user exactly which file could not be used; there is no catch-all variant.

use std::path::PathBuf;

use crate::extract::ExtractError;

/// Result alias for the engine.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in the engine.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read from disk.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A file was read but Tongwen cannot get usable paragraphs out of it.
    #[error("{path}: {source}")]
    Extract {
        path: PathBuf,
        #[source]
        source: ExtractError,
    },
    /// The library database failed.
    #[error("library database {path}: {source}")]
    Database {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    /// The library was written by a newer Tongwen.
    #[error("library {path} has schema version {found}, newer than this Tongwen supports ({supported}); upgrade Tongwen")]
    SchemaTooNew {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    /// A document id given by the user is not in the library.
    #[error("no document with id {0} in the library")]
    NoSuchDocument(i64),
    /// The user cancelled a long operation.
    #[error("cancelled")]
    Cancelled,
    /// A broken promise inside Tongwen (a bug, never the user's input).
    #[error("internal error: {0}")]
    Internal(&'static str),
    /// An option is out of its range.
    #[error("invalid setting: {0}")]
    InvalidSetting(&'static str),
}

impl Error {
    /// Attach a path to an extraction failure.
    pub fn extract(path: impl Into<PathBuf>, source: ExtractError) -> Self {
        Error::Extract {
            path: path.into(),
            source,
        }
    }

    /// Attach a path to an I/O failure.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}
