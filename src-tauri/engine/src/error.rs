//! The engine's error type. Every variant names what failed and why, so that the command line and the
//! desktop app can tell the user exactly which file could not be used; there is no catch-all variant.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::extract::{ExtractError, FileError};

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
    /// The file given as the library is a database of another program: it is never written to.
    #[error("{path} is not a Tongwen library (it is another program's database); it was left as it is: choose another file")]
    NotALibrary { path: PathBuf },
    /// The library's file is damaged: it is not written to, so the damage does not spread.
    #[error("library {path} is damaged ({detail}); nothing was written to it: restore it from a backup or start a new library")]
    Damaged { path: PathBuf, detail: String },
    /// A library whose write-ahead log holds changes cannot be read in full: its folder cannot be
    /// written, so SQLite cannot make the shared-memory file that reading the log needs.
    #[error("library {path} cannot be read in full: its write-ahead log {wal} holds changes that SQLite reads only with write access to the folder (to create the -shm file); nothing was read: open it once where its folder can be written, or copy the library with its -wal file to a writable folder")]
    WalUnreadable { path: PathBuf, wal: PathBuf },
    /// A library was to be read where there is none.
    #[error("no library at {path}; create one by adding documents (`tongwen --library {path} library add FOLDER`)")]
    NoLibrary { path: PathBuf },
    /// The library was made by an older Tongwen: its schema or its fingerprints must be brought up to
    /// date (an explicit step, which writes) before it can be checked against.
    #[error("library {path} was made by an older Tongwen and must be updated first ({stale} paragraphs to re-fingerprint)")]
    NeedsUpgrade { path: PathBuf, stale: u64 },
    /// A file was read but could not be stored (the library failed while writing it).
    #[error("{}: not added: {source}", path.display())]
    NotAdded {
        path: PathBuf,
        #[source]
        source: Box<Error>,
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
    /// An option is out of its range or not understood.
    #[error("invalid {name}: {reason}")]
    InvalidSetting { name: &'static str, reason: String },
    /// The library's server (a shared library on PostgreSQL) could not be used.
    #[error("library server {location}: {problem}")]
    Server {
        location: String,
        problem: ServerProblem,
    },
}

/// Why a library server could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ServerProblem {
    /// Nothing answers at the address, or the server went away.
    #[error("cannot reach the server ({0}); is it running, and is the address right?")]
    Unreachable(String),
    /// No answer in time.
    #[error("no answer within {0} s: the server or the network stopped answering or is too slow; an unfinished change is rolled back")]
    Timeout(u64),
    /// The user name or password was refused.
    #[error("the server refused the login ({0}); check the user name and the password (PGPASSWORD or ~/.pgpass)")]
    Login(String),
    /// The server accepts only encrypted connections and the address asked for none.
    #[error("the server accepts only encrypted connections; add sslmode=require to the address")]
    TlsRequired,
    /// The encrypted connection could not be made (no TLS on the server, an untrusted certificate).
    #[error("the encrypted connection failed: {0}")]
    Tls(String),
    /// The user lacks a right.
    #[error(
        "user {user} may not {right} this library; ask its administrator to grant the {role} role"
    )]
    NoRight {
        user: String,
        right: &'static str,
        role: &'static str,
    },
    /// The server answers but has no database of the address's name.
    #[error("{0}: create it on the server (createdb, as its owner) or correct the address")]
    NoDatabase(String),
    /// The server refused a statement.
    #[error("{0}")]
    Query(String),
}

impl From<FileError> for Error {
    fn from(e: FileError) -> Self {
        match e {
            FileError::Io { path, source } => Error::Io { path, source },
            FileError::Extract { path, source } => Error::Extract { path, source },
        }
    }
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

/// What went wrong, as a closed set the front ends translate (the desktop app shows each kind as a
/// sentence in the user's language). Serialised in snake_case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    FileNotFound,
    PermissionDenied,
    Io,
    EmptyFile,
    NoText,
    NoParagraphs,
    TooLarge,
    NotAFile,
    Unsupported,
    Binary,
    UnknownEncoding,
    MalformedText,
    CorruptDocx,
    ZipBomb,
    CorruptPdf,
    EncryptedPdf,
    NoTextLayer,
    GarbledPdf,
    LibraryDatabase,
    LibraryTooNew,
    LibraryMissing,
    NotALibrary,
    LibraryDamaged,
    LibraryNeedsUpgrade,
    NoSuchDocument,
    Cancelled,
    InvalidSetting,
    Internal,
    ServerUnreachable,
    ServerTimeout,
    ServerLogin,
    ServerTlsRequired,
    ServerTls,
    NoRight,
    UnreadableFont,
}

impl ErrorKind {
    /// Every kind, in declaration order (the front ends' translation tables are tested against it).
    pub const ALL: [ErrorKind; 35] = [
        ErrorKind::FileNotFound,
        ErrorKind::PermissionDenied,
        ErrorKind::Io,
        ErrorKind::EmptyFile,
        ErrorKind::NoText,
        ErrorKind::NoParagraphs,
        ErrorKind::TooLarge,
        ErrorKind::NotAFile,
        ErrorKind::Unsupported,
        ErrorKind::Binary,
        ErrorKind::UnknownEncoding,
        ErrorKind::MalformedText,
        ErrorKind::CorruptDocx,
        ErrorKind::ZipBomb,
        ErrorKind::CorruptPdf,
        ErrorKind::EncryptedPdf,
        ErrorKind::NoTextLayer,
        ErrorKind::GarbledPdf,
        ErrorKind::LibraryDatabase,
        ErrorKind::LibraryTooNew,
        ErrorKind::LibraryMissing,
        ErrorKind::NotALibrary,
        ErrorKind::LibraryDamaged,
        ErrorKind::LibraryNeedsUpgrade,
        ErrorKind::NoSuchDocument,
        ErrorKind::Cancelled,
        ErrorKind::InvalidSetting,
        ErrorKind::Internal,
        ErrorKind::ServerUnreachable,
        ErrorKind::ServerTimeout,
        ErrorKind::ServerLogin,
        ErrorKind::ServerTlsRequired,
        ErrorKind::ServerTls,
        ErrorKind::NoRight,
        ErrorKind::UnreadableFont,
    ];

    /// The kind's position in [`ErrorKind::ALL`]; a match without a wildcard, so a new kind that is not
    /// added to `ALL` does not compile.
    pub const fn ordinal(self) -> usize {
        match self {
            ErrorKind::FileNotFound => 0,
            ErrorKind::PermissionDenied => 1,
            ErrorKind::Io => 2,
            ErrorKind::EmptyFile => 3,
            ErrorKind::NoText => 4,
            ErrorKind::NoParagraphs => 5,
            ErrorKind::TooLarge => 6,
            ErrorKind::NotAFile => 7,
            ErrorKind::Unsupported => 8,
            ErrorKind::Binary => 9,
            ErrorKind::UnknownEncoding => 10,
            ErrorKind::MalformedText => 11,
            ErrorKind::CorruptDocx => 12,
            ErrorKind::ZipBomb => 13,
            ErrorKind::CorruptPdf => 14,
            ErrorKind::EncryptedPdf => 15,
            ErrorKind::NoTextLayer => 16,
            ErrorKind::GarbledPdf => 17,
            ErrorKind::LibraryDatabase => 18,
            ErrorKind::LibraryTooNew => 19,
            ErrorKind::LibraryMissing => 20,
            ErrorKind::NotALibrary => 21,
            ErrorKind::LibraryDamaged => 22,
            ErrorKind::LibraryNeedsUpgrade => 23,
            ErrorKind::NoSuchDocument => 24,
            ErrorKind::Cancelled => 25,
            ErrorKind::InvalidSetting => 26,
            ErrorKind::Internal => 27,
            ErrorKind::ServerUnreachable => 28,
            ErrorKind::ServerTimeout => 29,
            ErrorKind::ServerLogin => 30,
            ErrorKind::ServerTlsRequired => 31,
            ErrorKind::ServerTls => 32,
            ErrorKind::NoRight => 33,
            ErrorKind::UnreadableFont => 34,
        }
    }
}

/// A parameter of an error's sentence.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Param {
    Number(u64),
    Text(String),
}

/// An error as the front ends show it: its kind, the file it concerns, the parameters of its sentence,
/// and the English message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorInfo {
    pub kind: ErrorKind,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    pub params: BTreeMap<&'static str, Param>,
}

impl Error {
    /// The kind, file and parameters of this error (see [`ErrorInfo`]).
    /// This error as the outcome of adding the file at `path`: errors that name another thing (the
    /// library) are wrapped so that the file is named too.
    pub fn for_file(self, path: &Path) -> Error {
        match self {
            Error::Io { .. }
            | Error::Extract { .. }
            | Error::Cancelled
            | Error::NotAdded { .. } => self,
            other => Error::NotAdded {
                path: path.to_path_buf(),
                source: Box::new(other),
            },
        }
    }

    pub fn info(&self) -> ErrorInfo {
        use ExtractError as X;
        if let Error::NotAdded { path, source } = self {
            // The cause's kind and parameters, about the file that was not added.
            return ErrorInfo {
                message: self.to_string(),
                path: Some(path.display().to_string()),
                ..source.info()
            };
        }
        let mut params = BTreeMap::new();
        let mut text = |k: &'static str, v: String| {
            params.insert(k, Param::Text(v));
        };
        let (kind, path) = match self {
            Error::Io { path, source } => {
                let kind = match source.kind() {
                    std::io::ErrorKind::NotFound => ErrorKind::FileNotFound,
                    std::io::ErrorKind::PermissionDenied => ErrorKind::PermissionDenied,
                    _ => {
                        text("detail", source.to_string());
                        ErrorKind::Io
                    }
                };
                (kind, Some(path))
            }
            Error::Extract { path, source } => {
                let kind = match source {
                    X::EmptyFile => ErrorKind::EmptyFile,
                    X::NoText => ErrorKind::NoText,
                    X::NoParagraphs => ErrorKind::NoParagraphs,
                    X::TooLarge { size, limit } | X::ZipBomb { size, limit } => {
                        params.insert("size", Param::Number(*size));
                        params.insert("limit", Param::Number(*limit));
                        if matches!(source, X::TooLarge { .. }) {
                            ErrorKind::TooLarge
                        } else {
                            ErrorKind::ZipBomb
                        }
                    }
                    X::Unsupported(what) => {
                        params.insert("what", Param::Text((*what).to_string()));
                        ErrorKind::Unsupported
                    }
                    X::NotAFile => ErrorKind::NotAFile,
                    X::Binary => ErrorKind::Binary,
                    X::UnknownEncoding => ErrorKind::UnknownEncoding,
                    X::Malformed { encoding } => {
                        params.insert("encoding", Param::Text((*encoding).to_string()));
                        ErrorKind::MalformedText
                    }
                    X::CorruptDocx(detail) => {
                        params.insert("detail", Param::Text(detail.clone()));
                        ErrorKind::CorruptDocx
                    }
                    X::CorruptPdf(detail) => {
                        params.insert("detail", Param::Text(detail.clone()));
                        ErrorKind::CorruptPdf
                    }
                    X::EncryptedPdf => ErrorKind::EncryptedPdf,
                    X::NoTextLayer => ErrorKind::NoTextLayer,
                    X::Garbled => ErrorKind::GarbledPdf,
                    X::UnreadableFont { font } => {
                        params.insert("font", Param::Text(font.clone()));
                        ErrorKind::UnreadableFont
                    }
                };
                (kind, Some(path))
            }
            Error::Database { path, source } => {
                text("detail", source.to_string());
                (ErrorKind::LibraryDatabase, Some(path))
            }
            Error::NotALibrary { path } => (ErrorKind::NotALibrary, Some(path)),
            Error::WalUnreadable { path, .. } => {
                text("detail", self.to_string());
                (ErrorKind::LibraryDatabase, Some(path))
            }
            // Said above, with its cause's kind.
            Error::NotAdded { path, .. } => (ErrorKind::Internal, Some(path)),
            Error::Damaged { path, detail } => {
                params.insert("detail", Param::Text(detail.clone()));
                (ErrorKind::LibraryDamaged, Some(path))
            }
            Error::SchemaTooNew {
                path,
                found,
                supported,
            } => {
                params.insert("found", Param::Number(*found as u64));
                params.insert("supported", Param::Number(*supported as u64));
                (ErrorKind::LibraryTooNew, Some(path))
            }
            Error::NoLibrary { path } => (ErrorKind::LibraryMissing, Some(path)),
            Error::NeedsUpgrade { path, stale } => {
                params.insert("stale", Param::Number(*stale));
                (ErrorKind::LibraryNeedsUpgrade, Some(path))
            }
            Error::NoSuchDocument(id) => {
                params.insert("id", Param::Number(*id as u64));
                (ErrorKind::NoSuchDocument, None)
            }
            Error::Cancelled => (ErrorKind::Cancelled, None),
            Error::Internal(detail) => {
                text("detail", (*detail).to_string());
                (ErrorKind::Internal, None)
            }
            Error::InvalidSetting { name, reason } => {
                text("detail", format!("{name}: {reason}"));
                (ErrorKind::InvalidSetting, None)
            }
            Error::Server { location, problem } => {
                use ServerProblem as S;
                let kind = match problem {
                    S::Unreachable(detail) => {
                        text("detail", detail.clone());
                        ErrorKind::ServerUnreachable
                    }
                    S::Timeout(secs) => {
                        params.insert("seconds", Param::Number(*secs));
                        ErrorKind::ServerTimeout
                    }
                    S::Login(detail) => {
                        text("detail", detail.clone());
                        ErrorKind::ServerLogin
                    }
                    S::TlsRequired => ErrorKind::ServerTlsRequired,
                    S::Tls(detail) => {
                        text("detail", detail.clone());
                        ErrorKind::ServerTls
                    }
                    S::NoRight { user, right, role } => {
                        text("user", user.clone());
                        text("right", (*right).to_string());
                        text("role", (*role).to_string());
                        ErrorKind::NoRight
                    }
                    S::Query(detail) => {
                        text("detail", detail.clone());
                        ErrorKind::LibraryDatabase
                    }
                    S::NoDatabase(_) => {
                        text("detail", problem.to_string());
                        ErrorKind::LibraryDatabase
                    }
                };
                return ErrorInfo {
                    kind,
                    message: self.to_string(),
                    path: Some(location.clone()),
                    params,
                };
            }
        };
        ErrorInfo {
            kind,
            message: self.to_string(),
            path: path.map(|p| p.display().to_string()),
            params,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_listed_once_in_its_place() {
        for (i, kind) in ErrorKind::ALL.into_iter().enumerate() {
            assert_eq!(kind.ordinal(), i, "{kind:?}");
        }
    }

    #[test]
    fn every_file_error_names_its_file_and_kind() {
        let e = Error::extract("/tmp/论文.pdf", ExtractError::EncryptedPdf);
        let info = e.info();
        assert_eq!(info.kind, ErrorKind::EncryptedPdf);
        assert_eq!(info.path.as_deref(), Some("/tmp/论文.pdf"));
        assert!(
            info.message.starts_with("/tmp/论文.pdf: "),
            "{}",
            info.message
        );
        let e = Error::io(
            "/nope.txt",
            std::io::Error::from(std::io::ErrorKind::NotFound),
        );
        assert_eq!(e.info().kind, ErrorKind::FileNotFound);
        let e = Error::extract(
            "big.txt",
            ExtractError::TooLarge {
                size: 300,
                limit: 256,
            },
        );
        let json = serde_json::to_value(e.info()).unwrap();
        assert_eq!(json["kind"], "too_large");
        assert_eq!(json["params"]["size"], 300);
        assert_eq!(json["params"]["limit"], 256);
    }
}
