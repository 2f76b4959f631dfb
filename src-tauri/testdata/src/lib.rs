//! The one place that finds the eval-dev benchmark (`library/`, `queries/`, `truth.json`, `score.py`) for
//! the tests and the benchmarks. Nothing in the product uses it.
//!
//! Looked up, in order: the folder named by `TONGWEN_EVAL_DEV`, then `../shared/eval-dev` beside the
//! repository (the layout of the development machines). No absolute path of any machine is written here.

use std::path::{Path, PathBuf};

/// The repository's root folder (this crate lives in `src-tauri/testdata`).
pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The eval-dev folder, when it is present (it holds `truth.json`).
pub fn eval_dev() -> Option<PathBuf> {
    std::env::var_os("TONGWEN_EVAL_DEV")
        .map(PathBuf::from)
        .into_iter()
        .chain([repository_root().join("../shared/eval-dev")])
        .find(|dir| dir.join("truth.json").is_file())
}

/// Whether the tests run under continuous integration (`CI` set to anything but "", "0" or "false"):
/// there everything a test needs must be present, and a test that would skip fails instead.
pub fn under_ci() -> bool {
    means_ci(std::env::var("CI").ok().as_deref())
}

fn means_ci(value: Option<&str>) -> bool {
    value.is_some_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// Tell that `test` does not run because `what` is missing (a line on standard error, which
/// `cargo test -- --nocapture` shows), or, under CI, fail it with that sentence.
pub fn missing(test: &str, what: &str) {
    missing_in(under_ci(), test, what);
}

fn missing_in(ci: bool, test: &str, what: &str) {
    assert!(
        !ci,
        "{test}: {what} is missing, and CI is set: this test must run"
    );
    eprintln!("SKIPPED {test}: {what} is missing");
}

/// eval-dev for `test`, which needs it: the folder, or [`missing`] (a failure under CI).
pub fn eval_dev_for(test: &str) -> Option<PathBuf> {
    let found = eval_dev();
    if found.is_none() {
        missing(
            test,
            "eval-dev (../shared/eval-dev beside the repository, or the folder TONGWEN_EVAL_DEV names)",
        );
    }
    found
}

/// The test PostgreSQL server's address (`TONGWEN_TEST_POSTGRES`, set by scripts/test) for `test`, which
/// needs it, or [`missing`] (a failure under CI).
pub fn test_postgres_for(test: &str) -> Option<String> {
    let found = std::env::var("TONGWEN_TEST_POSTGRES").ok();
    if found.is_none() {
        missing(
            test,
            "the test PostgreSQL server (TONGWEN_TEST_POSTGRES; scripts/test starts one)",
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_need_fails_under_ci_and_is_said_elsewhere() {
        assert!(means_ci(Some("true")) && means_ci(Some("1")));
        assert!(!means_ci(None) && !means_ci(Some("")) && !means_ci(Some("false")));
        let failed = std::panic::catch_unwind(|| missing_in(true, "t", "eval-dev"));
        let message = failed.expect_err("fails under CI");
        let text = message
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(text.contains("t: eval-dev is missing"), "{text}");
        missing_in(false, "t", "eval-dev");
    }

    #[test]
    fn the_root_is_the_repository() {
        assert!(repository_root().join("tauri.conf.json").is_file());
    }

    #[test]
    fn a_folder_without_truth_json_is_not_eval_dev() {
        let root = repository_root();
        assert!(!root.join("truth.json").exists());
        if let Some(dir) = eval_dev() {
            assert!(dir.join("truth.json").is_file());
        }
    }
}
