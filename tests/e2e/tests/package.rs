//! Files opened with the app, as a file manager opens them: the desktop entry's Exec line with the file
//! (`tongwen-desktop %F`) checks it on the Check tab, and a second start while the window is open hands
//! its files to that window and exits. scripts/test runs these against the app built from source and
//! again against the installed package (`TONGWEN_DESKTOP_BIN=/usr/bin/tongwen-desktop`,
//! `TONGWEN_DESKTOP_ENTRY=/usr/share/applications/tongwen.desktop`), under `dbus-run-session` (the
//! single-instance lock is a name on the session bus).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use thirtyfour::prelude::*;
use tongwen_e2e::*;

/// The desktop entry the file manager reads: the installed one when `TONGWEN_DESKTOP_ENTRY` names it,
/// otherwise the package's template with the app's binary as its program.
fn desktop_entry() -> String {
    match std::env::var_os("TONGWEN_DESKTOP_ENTRY") {
        Some(path) => std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", Path::new(&path).display())),
        None => {
            let template = std::fs::read_to_string(repo().join("assets/packaging/tongwen.desktop"))
                .expect("assets/packaging/tongwen.desktop");
            template
                .replace("{{exec}}", "tongwen-desktop")
                .replace("{{icon}}", "tongwen-desktop")
        }
    }
}

/// The arguments the desktop entry's Exec line gives the app for `files` (its field codes expanded as
/// the Desktop Entry Specification says: %F is the list of files, %f one file, %u/%U their URIs).
fn exec_args(files: &[PathBuf]) -> Vec<String> {
    let entry = desktop_entry();
    let exec = entry
        .lines()
        .find_map(|l| l.strip_prefix("Exec="))
        .expect("an Exec line");
    let mut words = exec.split_whitespace();
    let program = words.next().expect("a program");
    assert_eq!(
        Path::new(program).file_name(),
        app_binary().file_name(),
        "the Exec line starts the app: {exec}"
    );
    let mut args = Vec::new();
    for word in words {
        match word {
            "%F" | "%f" => args.extend(files.iter().map(|f| f.display().to_string())),
            "%U" | "%u" => args.extend(files.iter().map(|f| format!("file://{}", f.display()))),
            other => args.push(other.to_string()),
        }
    }
    args
}

/// A library with the demo's three documents (added by the `tongwen` command into the default library of
/// `home`) and `names` copies of the demo submission, which copies from them.
fn library_and_submissions(home: &Path, names: &[&str]) -> Vec<PathBuf> {
    let demo = repo().join("assets/demo");
    add_with_the_command(home, &demo.join("library"));
    let essay = std::fs::read(demo.join("submissions/student-essay.txt")).expect("the demo essay");
    let folder = home.join("Downloads");
    std::fs::create_dir_all(&folder).expect("a folder");
    names
        .iter()
        .map(|name| {
            let path = folder.join(name);
            std::fs::write(&path, &essay).expect("write a submission");
            path
        })
        .collect()
}

/// Wait until the Check tab shows the report of `file`, with copying found.
async fn report_of(driver: &WebDriver, file: &str) -> WebDriverResult<()> {
    wait_for(&format!("the report of {file}"), || async {
        let shown = driver.find(By::Id("report")).await?.is_displayed().await?;
        Ok(shown && text_of(driver, "#report-file").await? == file)
    })
    .await?;
    let ratio = text_of(driver, "#report-ratio").await?;
    let digits: String = ratio.chars().filter(|c| c.is_ascii_digit()).collect();
    assert!(
        digits.parse::<u32>().is_ok_and(|n| n > 0),
        "{file} copies from the library, shown as {ratio:?}"
    );
    assert!(
        driver
            .find(By::Id("tab-check"))
            .await?
            .attr("aria-selected")
            .await?
            .as_deref()
            == Some("true"),
        "the report is on the Check tab"
    );
    Ok(())
}

/// Also prints how long the app took from its start to a window WebDriver can drive (the page loaded)
/// and to the file's report on screen: a measurement for docs/speed.md, not a test of speed (these
/// include WebKitWebDriver's session set-up and its polling, 50 ms apart).
#[tokio::test(flavor = "multi_thread")]
async fn open_with_checks_the_file_on_the_check_tab() -> WebDriverResult<()> {
    let home = tempfile::tempdir().expect("tmp");
    let files = library_and_submissions(home.path(), &["第一篇 essay.txt"]);
    let args = exec_args(&files);
    session_with_args(home.path(), &args, |driver, _| async move {
        let ready = since_launch();
        let result = report_of(&driver, "第一篇 essay.txt").await;
        eprintln!(
            "open with {}: window ready {} ms, report shown {} ms after the start",
            app_binary().display(),
            ready.as_millis(),
            since_launch().as_millis()
        );
        (driver, result)
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_start_hands_its_files_to_the_open_window() -> WebDriverResult<()> {
    assert!(
        std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some(),
        "one window per session needs a session bus: run the tests under dbus-run-session"
    );
    let home = tempfile::tempdir().expect("tmp");
    let files = library_and_submissions(home.path(), &["second.txt"]);
    session(home.path(), |driver, home| async move {
        let result = async {
            wait_for("the window to be ready", || async {
                Ok(driver.find(By::Css("body.loaded")).await.is_ok())
            })
            .await?;
            // "Open with" while the window is open: a second start, from another folder.
            let mut second = Command::new(app_binary())
                .args(exec_args(&files))
                .current_dir(home)
                .env("XDG_CONFIG_HOME", home.join("config"))
                .env("XDG_DATA_HOME", home.join("data"))
                .env_remove("TONGWEN_LIBRARY")
                .spawn()
                .expect("start the app again");
            let started = Instant::now();
            let status = loop {
                if let Some(status) = second.try_wait().expect("wait for the second start") {
                    break status;
                }
                if started.elapsed() > Duration::from_secs(60) {
                    let _ = second.kill();
                    panic!("the second start did not hand over its files and exit");
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            };
            assert!(status.success(), "the second start exits cleanly: {status}");
            report_of(&driver, "second.txt").await?;
            assert_eq!(driver.windows().await?.len(), 1, "still one window");
            Ok(())
        }
        .await;
        (driver, result)
    })
    .await
}
