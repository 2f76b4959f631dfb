//! Tongwen's engine: reads documents (`extract`), turns them into paragraphs and tokens (`text`),
//! fingerprints paragraphs (`fingerprint`), keeps a local SQLite library (`library`), checks submissions
//! against it (`check`) and renders reports (`report`).
//!
//! No GUI, no command-line parsing and no `anyhow` here: the `tongwen` command and the desktop shell are
//! thin layers over this crate.

pub mod check;
pub mod error;
pub mod extract;
pub mod fingerprint;
pub mod ingest;
pub mod library;
pub mod report;
pub mod text;

pub use error::{Error, Result};

/// The engine's version, as shown by `tongwen --version` and stored in reports.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
