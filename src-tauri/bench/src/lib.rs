//! What Tongwen's benchmarks share: the corpus they measure on, synthetic library paragraphs, synthetic
//! classes and the plot. Nothing
//! in the product depends on this crate.

pub mod class;
pub mod plot;
pub mod synthetic;

use std::path::PathBuf;

/// The benchmark corpus: the eval-dev library and queries when eval-dev is present (see
/// `tongwen-testdata`), else the demo library and submissions in `assets/demo`.
pub fn default_corpus() -> (PathBuf, PathBuf) {
    match tongwen_testdata::eval_dev() {
        Some(eval) => (eval.join("library"), eval.join("queries")),
        None => {
            let demo = tongwen_testdata::repository_root().join("assets/demo");
            (demo.join("library"), demo.join("submissions"))
        }
    }
}
