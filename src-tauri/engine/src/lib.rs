//! Tongwen's engine: reads documents into paragraphs (`extract`), turns paragraphs into normalised text,
//! tokens and units (`text`), fingerprints them (`fingerprint`), keeps the library (`library`, behind the
//! `Store` trait: an SQLite file or a PostgreSQL server), adds to it (`ingest`, the write path), checks submissions against it
//! (`check`, the read path), compares a class's submissions with each other (`class`) and renders
//! reports (`report`); `seeds` holds the seed papers' fingerprint methods, and `eval` measures every
//! method on a benchmark. [`Engine`] (`engine`) is the one entry point the front ends use: every use
//! case, its settings and their defaults are there.
//!
//! Modules import only those before them in that order (`tests/layers.rs` checks it).
//!
//! No GUI, no command-line parsing and no `anyhow` here: the `tongwen` command and the desktop shell are
//! thin layers over this crate.

pub mod check;
pub mod class;
pub mod crosslang;
pub mod engine;
pub mod error;
pub mod eval;
pub mod files;
pub mod fingerprint;
pub mod ingest;
pub mod library;
pub mod report;
pub mod seeds;
pub mod text;

/// The readers, their own crate (`tongwen-extract`, in `src-tauri/extract/`); named `extract` here as before.
pub use tongwen_extract as extract;

pub use engine::Engine;
pub use error::{Error, Result};

/// The engine's version, as shown by `tongwen --version` and stored in reports.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
