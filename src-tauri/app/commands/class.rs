//! Class commands: compare a class's submissions with each other (progress, cancel), re-group the last
//! comparison at another threshold, and export it as HTML in the UI's language.

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};
use tongwen_engine::engine::{CheckOptions, CompareOptions};
use tongwen_engine::error::ErrorKind;
use tongwen_engine::files;
use tongwen_engine::report::class::ClassReport;
use tongwen_engine::report::{Lang, OutputFormat, Render};

use super::{blocking, forward, Progress};
use crate::error::{Code, CommandError, CommandResult};
use crate::state::{lock, AppState};

/// Compare the submissions (files or folders) with each other at the settings' threshold, never counting
/// the templates' text; keep the run for re-grouping and export.
#[tauri::command]
pub async fn class_compare<R: Runtime>(
    app: AppHandle<R>,
    paths: Vec<String>,
    templates: Option<Vec<String>>,
    on_progress: Channel<Progress>,
) -> CommandResult<ClassReport> {
    blocking(move || {
        let state = app.state::<AppState>();
        state.cancel.store(false, Ordering::Relaxed);
        let options = CompareOptions {
            check: CheckOptions {
                threshold: Some(lock(&state.settings)?.threshold),
                ..CheckOptions::default()
            },
            templates: templates
                .unwrap_or_default()
                .into_iter()
                .map(PathBuf::from)
                .collect(),
            with_library: false,
        };
        let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
        let run =
            state
                .engine()?
                .compare(&paths, &options, &mut forward(&on_progress), &state.cancel)?;
        let report = run.report();
        *lock(&state.last_class)? = Some(run);
        Ok(report)
    })
    .await
}

fn last_class(state: &AppState, threshold: Option<f64>) -> CommandResult<ClassReport> {
    let last = lock(&state.last_class)?;
    let run = last.as_ref().ok_or_else(|| {
        CommandError::new(
            Code::NotFound,
            ErrorKind::Internal,
            "no class has been compared yet",
        )
    })?;
    Ok(match threshold {
        Some(t) => run.report_at(t)?,
        None => run.report(),
    })
}

/// The last comparison with its groups at `threshold` (the pairs do not change).
#[tauri::command]
pub fn class_report(state: State<'_, AppState>, threshold: f64) -> CommandResult<ClassReport> {
    last_class(&state, Some(threshold))
}

/// Write the last comparison (at `threshold`, else its own) as a self-contained HTML page in `lang`.
#[tauri::command]
pub fn class_export_html(
    state: State<'_, AppState>,
    path: String,
    threshold: Option<f64>,
    lang: Option<String>,
) -> CommandResult<()> {
    let lang = lang
        .as_deref()
        .and_then(Lang::from_code)
        .unwrap_or_default();
    let page = last_class(&state, threshold)?.render(OutputFormat::Html, lang)?;
    Ok(files::write_atomically(&PathBuf::from(path), &page)?)
}

/// The sample class: an assignment prompt and twelve short essays written for Tongwen, two of which
/// share a passage; compiled in so it works wherever the app is installed.
const SAMPLE_CLASS: &[(&str, &str)] = &[
    (
        "class/prompt.txt",
        include_str!("../../../assets/demo/class/prompt.txt"),
    ),
    (
        "class/essays/01-wang-fang.txt",
        include_str!("../../../assets/demo/class/essays/01-wang-fang.txt"),
    ),
    (
        "class/essays/02-li-hao.txt",
        include_str!("../../../assets/demo/class/essays/02-li-hao.txt"),
    ),
    (
        "class/essays/03-zhao-min.txt",
        include_str!("../../../assets/demo/class/essays/03-zhao-min.txt"),
    ),
    (
        "class/essays/04-chen-jie.txt",
        include_str!("../../../assets/demo/class/essays/04-chen-jie.txt"),
    ),
    (
        "class/essays/05-liu-yang.txt",
        include_str!("../../../assets/demo/class/essays/05-liu-yang.txt"),
    ),
    (
        "class/essays/06-sun-qian.txt",
        include_str!("../../../assets/demo/class/essays/06-sun-qian.txt"),
    ),
    (
        "class/essays/07-zhou-lei.txt",
        include_str!("../../../assets/demo/class/essays/07-zhou-lei.txt"),
    ),
    (
        "class/essays/08-wu-ting.txt",
        include_str!("../../../assets/demo/class/essays/08-wu-ting.txt"),
    ),
    (
        "class/essays/09-zheng-kai.txt",
        include_str!("../../../assets/demo/class/essays/09-zheng-kai.txt"),
    ),
    (
        "class/essays/10-huang-lu.txt",
        include_str!("../../../assets/demo/class/essays/10-huang-lu.txt"),
    ),
    (
        "class/essays/11-xu-nan.txt",
        include_str!("../../../assets/demo/class/essays/11-xu-nan.txt"),
    ),
    (
        "class/essays/12-he-jing.txt",
        include_str!("../../../assets/demo/class/essays/12-he-jing.txt"),
    ),
];

/// Where the sample class was written: the folder of essays to compare, and the prompt as template.
#[derive(Debug, Serialize)]
pub struct SampleClass {
    pub essays: String,
    pub template: String,
}

/// Write the sample class into the demo folder and say where (the Class view then compares it as any
/// class, behind the progress strip).
#[tauri::command]
pub fn demo_class(state: State<'_, AppState>) -> CommandResult<SampleClass> {
    let dir = state.demo_dir.clone();
    super::check::write_files(&dir, SAMPLE_CLASS)?;
    Ok(SampleClass {
        essays: dir.join("class/essays").display().to_string(),
        template: dir.join("class/prompt.txt").display().to_string(),
    })
}
