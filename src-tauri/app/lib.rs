//! The Tongwen desktop shell: a Tauri 2 window over `tongwen-engine`. One builder, one
//! `generate_handler!`; the commands are in `commands/`, the shared state in `state.rs`, the error type
//! the UI sees in `error.rs`.

pub mod commands;
pub mod error;
pub mod state;

#[cfg(test)]
mod tests;

use std::path::Path;

use tauri::Manager;

/// Give a builder the app's plugins and commands, and its state: `state` when given (tests), otherwise
/// loaded at start from the platform's app directories.
pub fn configure<R: tauri::Runtime>(
    builder: tauri::Builder<R>,
    state: Option<state::AppState>,
) -> tauri::Builder<R> {
    let builder =
        builder
            .plugin(tauri_plugin_dialog::init())
            .invoke_handler(tauri::generate_handler![
                commands::library::library_list,
                commands::library::library_status,
                commands::library::library_upgrade,
                commands::library::library_add,
                commands::library::library_remove,
                commands::library::library_edit,
                commands::library::library_duplicates,
                commands::library::cancel,
                commands::check::check,
                commands::check::report,
                commands::check::dispute_quotation,
                commands::check::export_html,
                commands::check::export_pdf,
                commands::check::demo,
                commands::class::class_compare,
                commands::class::class_report,
                commands::class::class_export_html,
                commands::class::demo_class,
                commands::settings::settings_get,
                commands::settings::settings_set,
                commands::open::opened_files,
            ]);
    match state {
        Some(state) => builder.manage(state),
        None => builder.setup(|app| {
            let config = app.path().app_config_dir()?;
            // The library and the demo live where the `tongwen` command keeps its library
            // (~/.local/share/tongwen); earlier versions kept it in Tauri's app data folder.
            let legacy = app.path().app_data_dir()?;
            let data = tongwen_engine::library::default_path()
                .and_then(|p| p.parent().map(Path::to_path_buf))
                .unwrap_or_else(|| legacy.clone());
            let state = state::AppState::load(&config, &data, Some(&legacy))?;
            // `tongwen-desktop FILE...`: checked when the window is ready.
            let cwd = std::env::current_dir().unwrap_or_default();
            *state::lock(&state.opened)? =
                commands::open::files_in_args(std::env::args_os().skip(1), &cwd);
            // The segmenter's dictionary and the library's checking index load while the window
            // starts, each on a core of its own, not at the first check.
            if let Ok(engine) = state.engine() {
                let index = std::sync::Arc::clone(&engine);
                std::thread::spawn(move || engine.warm_up());
                std::thread::spawn(move || index.warm_index());
            }
            app.manage(state);
            Ok(())
        }),
    }
}

/// Run the desktop app: one instance per user session (a second start hands its files to the open
/// window and exits; without a session bus each start runs on its own).
pub fn run() {
    let context = tauri::generate_context!();
    #[cfg(target_os = "linux")]
    if hand_over::to_running_instance(&context.config().identifier) {
        return;
    }
    let builder =
        tauri::Builder::default().plugin(tauri_plugin_single_instance::init(|app, argv, cwd| {
            commands::open::forward(app, argv, &cwd)
        }));
    if let Err(e) = configure(builder, None).run(context) {
        eprintln!("tongwen-desktop: {e}");
        std::process::exit(1);
    }
}

/// A second start's hand-over, before any window system starts (Linux).
///
/// The single-instance plugin's own second start forwards its arguments from inside Tauri's setup,
/// with GTK, WebKit and D-Bus threads already running, and leaves through `std::process::exit`, whose
/// exit handlers then run beside those threads: once in a while it died of SIGSEGV after handing over
/// (seen in the e2e test of a second start). Here the second start calls the running instance's
/// plugin interface itself, the same method with the same arguments, and returns from `main` with
/// nothing but its D-Bus connection opened. The plugin still owns the name in the first instance and
/// still decides when two starts race (neither finds the other here).
#[cfg(target_os = "linux")]
mod hand_over {
    use zbus::blocking::Connection;

    /// Hand this start's arguments and working folder to the instance that owns the plugin's name on
    /// the session bus: `true` when it took them. `false` (start normally) without a session bus or
    /// without such an instance.
    pub fn to_running_instance(identifier: &str) -> bool {
        let Ok(connection) = Connection::session() else {
            return false;
        };
        let argv: Vec<String> = std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let cwd = std::env::current_dir().unwrap_or_default();
        hand(&connection, identifier, &argv, &cwd.to_string_lossy())
    }

    /// Call `ExecuteCallback(argv, cwd)` of the single-instance plugin's interface at its name and
    /// path for `identifier` (tauri-plugin-single-instance 2.x, `platform_impl/linux.rs`, without its
    /// `semver` feature). A name nobody owns answers with an error at once (no service file starts
    /// one).
    fn hand(connection: &Connection, identifier: &str, argv: &[String], cwd: &str) -> bool {
        let name = format!("{identifier}.SingleInstance");
        let path = format!("/{}", name.replace('.', "/").replace('-', "_"));
        connection
            .call_method(
                Some(name.as_str()),
                path.as_str(),
                Some("org.SingleInstance.DBus"),
                "ExecuteCallback",
                &(argv, cwd),
            )
            .is_ok()
    }

    #[cfg(test)]
    mod tests {
        use std::io::{BufRead, BufReader};
        use std::process::{Command, Stdio};
        use std::sync::{Arc, Mutex};

        use zbus::blocking::connection::Builder;

        use super::*;

        /// What a running instance was handed.
        type Handed = Arc<Mutex<Vec<(Vec<String>, String)>>>;

        /// The plugin's interface as the first instance serves it.
        struct Running(Handed);

        #[zbus::interface(name = "org.SingleInstance.DBus")]
        impl Running {
            fn execute_callback(&mut self, argv: Vec<String>, cwd: String) {
                if let Ok(mut handed) = self.0.lock() {
                    handed.push((argv, cwd));
                }
            }
        }

        /// A private session bus (dbus-daemon, as the e2e tests' session has), stopped when dropped.
        struct Bus(std::process::Child, String);

        impl Drop for Bus {
            fn drop(&mut self) {
                let _ = self.0.kill();
                let _ = self.0.wait();
            }
        }

        fn bus() -> Bus {
            let mut daemon = Command::new("dbus-daemon")
                .args(["--session", "--nofork", "--print-address=1"])
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("dbus-daemon (package dbus-daemon, which the test setup installs)");
            let mut address = String::new();
            let stdout = daemon.stdout.take().expect("its address");
            BufReader::new(stdout)
                .read_line(&mut address)
                .expect("its address");
            Bus(daemon, address.trim().to_string())
        }

        #[test]
        fn a_second_start_hands_its_arguments_to_the_instance_that_owns_the_name() {
            let bus = bus();
            let handed = Handed::default();
            // The first instance, as the plugin registers it for the identifier "org.example.app-x".
            let _first = Builder::address(bus.1.as_str())
                .unwrap()
                .name("org.example.app-x.SingleInstance")
                .unwrap()
                .serve_at(
                    "/org/example/app_x/SingleInstance",
                    Running(Arc::clone(&handed)),
                )
                .unwrap()
                .build()
                .unwrap();
            let second = Builder::address(bus.1.as_str()).unwrap().build().unwrap();
            let argv = vec!["tongwen-desktop".to_string(), "essay.docx".to_string()];
            assert!(hand(&second, "org.example.app-x", &argv, "/home/teacher"));
            assert_eq!(
                *handed.lock().unwrap(),
                vec![(argv.clone(), "/home/teacher".to_string())]
            );
            // Nobody owns another identifier's name: the start goes on by itself.
            assert!(!hand(&second, "org.example.other", &argv, "/home/teacher"));
            assert_eq!(handed.lock().unwrap().len(), 1);
        }
    }
}
