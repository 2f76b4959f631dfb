//! Placeholder for the Tongwen desktop shell (Tauri 2). The engine and the `tongwen` command are usable
//! today; the window arrives with the desktop issue.

fn main() {
    eprintln!(
        "tongwen-desktop {}: the desktop window is not built yet; use the `tongwen` command (see README.md).",
        tongwen_engine::VERSION
    );
    std::process::exit(2);
}
