//! Errors as they cross into the web view: `{code, kind, message, path?, params}`. `code` is a small closed
//! set the UI branches on (the banner's title); `kind`, `path` and `params` let the UI say what happened in
//! its own language (engine [`ErrorInfo`]); `message` is the English sentence, the fallback.

use serde::Serialize;
use tongwen_engine::error::{ErrorInfo, ErrorKind};
use tongwen_engine::Error as EngineError;

/// What kind of failure, for the UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    /// A file could not be read (the message names it and the cause), or a setting is out of range.
    BadInput,
    /// The library database failed, is missing or must be updated.
    Library,
    /// Something asked for does not exist (a document id, a report before any check).
    NotFound,
    /// The user cancelled.
    Cancelled,
    /// A bug or an environment problem.
    Internal,
}

/// The error returned by every command.
#[derive(Debug, Clone, Serialize)]
pub struct CommandError {
    pub code: Code,
    #[serde(flatten)]
    pub info: ErrorInfo,
}

impl CommandError {
    /// An error of the app itself (not from the engine).
    pub fn new(code: Code, kind: ErrorKind, message: impl Into<String>) -> Self {
        CommandError {
            code,
            info: ErrorInfo {
                kind,
                message: message.into(),
                path: None,
                params: Default::default(),
            },
        }
    }
}

impl From<EngineError> for CommandError {
    fn from(e: EngineError) -> Self {
        let code = match &e {
            EngineError::Io { .. } | EngineError::Extract { .. } => Code::BadInput,
            EngineError::InvalidSetting { .. } => Code::BadInput,
            EngineError::Database { .. }
            | EngineError::SchemaTooNew { .. }
            | EngineError::NoLibrary { .. }
            | EngineError::NotALibrary { .. }
            | EngineError::Damaged { .. }
            | EngineError::WalUnreadable { .. }
            | EngineError::NotAdded { .. }
            | EngineError::NeedsUpgrade { .. }
            | EngineError::Server { .. } => Code::Library,
            EngineError::NoSuchDocument(_) => Code::NotFound,
            EngineError::Cancelled => Code::Cancelled,
            EngineError::Internal(_) => Code::Internal,
        };
        CommandError {
            code,
            info: e.info(),
        }
    }
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.info.message)
    }
}

impl std::error::Error for CommandError {}

pub type CommandResult<T> = Result<T, CommandError>;
