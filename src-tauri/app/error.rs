//! Errors as they cross into the web view: `{code, message}` with a small closed set of codes the UI
//! branches on.

use serde::Serialize;
use tongwen_engine::Error as EngineError;

/// What kind of failure, for the UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    /// A file could not be read (the message names it and the cause).
    BadInput,
    /// The library database failed.
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
    pub message: String,
}

impl CommandError {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        CommandError {
            code,
            message: message.into(),
        }
    }
}

impl From<EngineError> for CommandError {
    fn from(e: EngineError) -> Self {
        let code = match &e {
            EngineError::Io { .. } | EngineError::Extract { .. } => Code::BadInput,
            EngineError::Database { .. } | EngineError::SchemaTooNew { .. } => Code::Library,
            EngineError::NoSuchDocument(_) => Code::NotFound,
            EngineError::Cancelled => Code::Cancelled,
            EngineError::InvalidSetting(_) => Code::BadInput,
            EngineError::Internal(_) => Code::Internal,
        };
        CommandError::new(code, e.to_string())
    }
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CommandError {}

pub type CommandResult<T> = Result<T, CommandError>;
