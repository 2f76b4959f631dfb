//! Integration tests: the real `tongwen` binary run as a user runs it, each test in its own temporary
//! directory, on real .txt/.docx files with Chinese and English text. One test binary, a module per area.

mod citations;
mod class;
mod cli;
mod cross_script;
mod docs;
mod eval_dev;
mod extract;
mod hostile;
mod noisy;
mod patchwriting;
mod postgres_server;
mod quotes;
mod seeds;
mod shared_library;
mod translation;
mod util;
