//! Tauri's build step: reads tauri.conf.json (beside the root Cargo.toml) and the capabilities in
//! src-tauri/app/capabilities/.

fn main() {
    println!("cargo:rerun-if-changed=src-tauri/app/capabilities");
    println!("cargo:rerun-if-changed=ui");
    // OK because a failure here is a broken checkout (config or capabilities), reported at build time.
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .capabilities_path_pattern("src-tauri/app/capabilities/*.json"),
    )
    .expect("tauri build step");
}
