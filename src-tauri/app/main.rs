//! `tongwen-desktop`: the desktop window. All behaviour lives in the library (`lib.rs`).
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

/// The same allocator as the `tongwen` command (see there): imports run the same ingest.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    tongwen_desktop::run();
}
