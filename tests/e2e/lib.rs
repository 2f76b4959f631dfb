//! What the end-to-end tests share: starting the desktop app under tauri-driver (WebKitWebDriver) with
//! its folders in a temporary home, and the few ways a test acts on the window as a user would (click a
//! button scrolled into view, move a slider, answer a native dialog, wait until something is shown).
//! The tests are in tests/: `desktop.rs` (the app built from source), `package.rs` (files opened with the
//! app, one window per session; also run against the installed package by scripts/test).
//!
//! Needs: the app binary (`cargo build -p tongwen-desktop`; path from `TONGWEN_DESKTOP_BIN` or the
//! target directory), `tauri-driver` on PATH, `WebKitWebDriver`, and `DISPLAY`.

use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use thirtyfour::prelude::*;
use thirtyfour::Capabilities;

/// tauri-driver, stopped with its WebKitWebDriver when dropped.
pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        // tauri-driver does not stop WebKitWebDriver: kill the whole process group.
        let pgid = self.0.id() as i32;
        let _ = Command::new("kill")
            .arg("--")
            .arg(format!("-{pgid}"))
            .status();
        let _ = self.0.wait();
    }
}

pub fn repo() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    repo.canonicalize().unwrap_or(repo)
}

pub fn app_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("TONGWEN_DESKTOP_BIN") {
        return PathBuf::from(p);
    }
    // The test executable is target/<profile>/deps/desktop-*; the app is target/<profile>/.
    let exe = std::env::current_exe().expect("test exe");
    exe.parent()
        .and_then(Path::parent)
        .map(|d| d.join("tongwen-desktop"))
        .expect("target dir")
}

/// The `tongwen` command, built beside the app (`cargo build -p tongwen-cli`).
pub fn cli_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("TONGWEN_CLI_BIN") {
        return PathBuf::from(p);
    }
    app_binary().with_file_name("tongwen")
}

/// `tongwen library add PATH` into the default library of the app started with `home` (its
/// `XDG_DATA_HOME` is `home/data`), as a user adds documents from a terminal.
pub fn add_with_the_command(home: &Path, path: &Path) {
    succeeds(
        Command::new(cli_binary())
            .args(["library", "add"])
            .arg(path)
            .env("XDG_DATA_HOME", home.join("data"))
            .env_remove("TONGWEN_LIBRARY"),
    );
}

/// Run `command` to its end; it must succeed (its standard error is the failure's message).
pub fn succeeds(command: &mut Command) {
    let out = command.output().expect("run the command");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

pub fn start_driver(home: &Path) -> (Driver, u16) {
    let port = free_port();
    let native = free_port();
    let child = Command::new("tauri-driver")
        .args([
            "--port",
            &port.to_string(),
            "--native-port",
            &native.to_string(),
        ])
        // The app's settings, library and demo files go to this test's own directories.
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("TONGWEN_LIBRARY")
        .process_group(0)
        .spawn()
        .expect("tauri-driver on PATH (cargo install tauri-driver --version ^2 --locked)");
    let driver = Driver(child);
    // Both must listen before a session is asked for: tauri-driver, and the WebKitWebDriver it starts
    // (asked too early, tauri-driver answers that it could not reach it).
    let start = Instant::now();
    for (what, port) in [("tauri-driver", port), ("WebKitWebDriver", native)] {
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{what} did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    (driver, port)
}

pub async fn wait_for<F, Fut>(what: &str, mut f: F) -> WebDriverResult<()>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = WebDriverResult<bool>>,
{
    let start = Instant::now();
    loop {
        if f().await.unwrap_or(false) {
            return Ok(());
        }
        if start.elapsed() > Duration::from_secs(120) {
            panic!("timed out waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Wait until exactly `n` elements match `css` (`what` names the wait when it times out).
pub async fn wait_count(
    driver: &WebDriver,
    what: &str,
    css: &str,
    n: usize,
) -> WebDriverResult<()> {
    wait_for(what, || async {
        Ok(driver.find_all(By::Css(css)).await?.len() == n)
    })
    .await
}

/// Click a button the way a user would reach it: scrolled into the middle of the view first (a sticky
/// header covers the top of a scrolled page).
pub async fn click(driver: &WebDriver, id: &str) -> WebDriverResult<()> {
    click_by(driver, By::Id(id)).await
}

/// Click the first element matching `css`, scrolled into the middle of the view first.
pub async fn click_css(driver: &WebDriver, css: &str) -> WebDriverResult<()> {
    click_by(driver, By::Css(css)).await
}

async fn click_by(driver: &WebDriver, by: By) -> WebDriverResult<()> {
    let e = driver.find(by).await?;
    driver
        .execute(
            "arguments[0].scrollIntoView({block: 'center'});",
            vec![e.to_json()?],
        )
        .await?;
    e.click().await
}

/// Move a range input the way a drag does: set its value and fire `input` and `change`.
pub async fn set_slider(
    driver: &WebDriver,
    slider: &WebElement,
    value: &str,
) -> WebDriverResult<()> {
    driver
        .execute(
            "const s = arguments[0]; s.value = arguments[1]; \
             s.dispatchEvent(new Event('input', {bubbles: true})); \
             s.dispatchEvent(new Event('change', {bubbles: true}));",
            vec![slider.to_json()?, serde_json::json!(value)],
        )
        .await?;
    Ok(())
}

pub async fn text_of(driver: &WebDriver, css: &str) -> WebDriverResult<String> {
    driver.find(By::Css(css)).await?.text().await
}

pub async fn screenshot(driver: &WebDriver, name: &str) {
    if std::env::var_os("TONGWEN_SCREENSHOTS").is_none() {
        return;
    }
    tokio::time::sleep(Duration::from_millis(400)).await;
    let dir = repo().join("docs/screenshots");
    std::fs::create_dir_all(&dir).expect("screenshots dir");
    driver
        .screenshot(&dir.join(format!("{name}.png")))
        .await
        .expect("screenshot");
}

/// Make the next native dialog answer `answer` (a path, a list of paths, or null).
pub async fn stub_dialog(driver: &WebDriver, answer: serde_json::Value) -> WebDriverResult<()> {
    driver
        .execute(
            "const answer = arguments[0];
             const d = window.__TAURI__.dialog;
             for (const m of ['open', 'save']) {
               Object.defineProperty(d, m, { value: async () => answer, configurable: true, writable: true });
             }
            ",
            vec![answer],
        )
        .await?;
    Ok(())
}

pub fn eval_dev() -> Option<PathBuf> {
    tongwen_testdata::eval_dev()
}

/// The library and submission the test uses: eval-dev documents when present (so the screenshots show a
/// real check), otherwise the demo documents; copied into the test's temporary folder `tmp`, so that
/// the paths the app shows (and the screenshots) name no folder of the machine's.
pub fn inputs(tmp: &Path) -> (Vec<PathBuf>, PathBuf) {
    let copy_into = |folder: &str, files: &[PathBuf]| -> Vec<PathBuf> {
        let dir = tmp.join(folder);
        std::fs::create_dir_all(&dir).expect("inputs folder");
        files
            .iter()
            .map(|f| {
                let to = dir.join(f.file_name().expect("file name"));
                std::fs::copy(f, &to).expect("copy an input");
                to
            })
            .collect()
    };
    if let Some(e) = eval_dev() {
        // The whole eval-dev library (300 documents) and a Chinese Word submission copying from five of
        // them, some of those sources being .docx and .pdf.
        let mut lib: Vec<PathBuf> = std::fs::read_dir(e.join("library"))
            .map(|d| d.filter_map(|f| f.ok().map(|f| f.path())).collect())
            .unwrap_or_default();
        lib.sort();
        let submission = e.join("queries/q035.docx");
        if lib.len() >= 3 && submission.is_file() {
            let submission = copy_into("submissions", &[submission]).remove(0);
            return (copy_into("library", &lib), submission);
        }
    }
    let demo = repo().join("assets/demo");
    let lib: Vec<PathBuf> = ["campus-water.txt", "night-sky.txt", "reading-club.txt"]
        .iter()
        .map(|n| demo.join("library").join(n))
        .collect();
    let submission =
        copy_into("submissions", &[demo.join("submissions/student-essay.txt")]).remove(0);
    (copy_into("library", &lib), submission)
}

/// When the last session asked tauri-driver to start the app.
static LAUNCHED: std::sync::Mutex<Option<Instant>> = std::sync::Mutex::new(None);

/// Time since the last session asked tauri-driver to start the app (zero before any).
pub fn since_launch() -> Duration {
    LAUNCHED
        .lock()
        .ok()
        .and_then(|l| l.map(|t| t.elapsed()))
        .unwrap_or_default()
}

/// Start the app under tauri-driver with its folders in `home`, run `scenario`, quit.
pub async fn session<'h, F, Fut>(home: &'h Path, scenario: F) -> WebDriverResult<()>
where
    F: FnOnce(WebDriver, &'h Path) -> Fut,
    Fut: std::future::Future<Output = (WebDriver, WebDriverResult<()>)>,
{
    session_with_args(home, &[], scenario).await
}

/// [`session`] with the app started as `tongwen-desktop ARGS...` (files to open, as "Open with" does).
pub async fn session_with_args<'h, F, Fut>(
    home: &'h Path,
    args: &[String],
    scenario: F,
) -> WebDriverResult<()>
where
    F: FnOnce(WebDriver, &'h Path) -> Fut,
    Fut: std::future::Future<Output = (WebDriver, WebDriverResult<()>)>,
{
    let app = app_binary();
    assert!(app.is_file(), "build the app first: {}", app.display());
    let (_driver_process, port) = start_driver(home);
    let mut caps = Capabilities::new();
    caps.set("browserName", "wry")?;
    caps.set(
        "tauri:options",
        serde_json::json!({"application": app.display().to_string(), "args": args}),
    )?;
    if let Ok(mut launched) = LAUNCHED.lock() {
        *launched = Some(Instant::now());
    }
    let driver = WebDriver::new(format!("http://127.0.0.1:{port}"), caps).await?;
    let (driver, result) = scenario(driver, home).await;
    let quit = driver.quit().await;
    result?;
    quit
}
