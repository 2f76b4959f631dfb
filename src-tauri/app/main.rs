//! `tongwen-desktop`: the desktop window. All behaviour lives in the library (`lib.rs`).
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    tongwen_desktop::run();
}
