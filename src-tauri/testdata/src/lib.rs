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

#[cfg(test)]
mod tests {
    use super::*;

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
