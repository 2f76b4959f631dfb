//! The documentation a newcomer reads: a README short enough to read (at most 150 lines), and every
//! link of the README, `docs/` and the folders' READMEs resolving to a file of the repository, and an
//! anchor (`page.md#heading`) to a heading of that page.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    tongwen_testdata::repository_root()
}

/// GitHub's anchor of a heading: lower case, spaces to hyphens, punctuation (but `-` and `_`) dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(page: &str) -> Vec<String> {
    page.lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

/// The targets of the Markdown links `[text](target)` and images `![alt](target)` on a page.
fn links(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_string());
        }
    }
    out
}

/// Third-party crates patched in this repository (`src-tauri/vendor/`): not ours, so neither their
/// layout nor their file sizes are held to ours; their README and PATCHES pages are.
const VENDOR: &str = "vendor";

/// The folders of `src-tauri/`: one per crate of ours (the app's sources included).
fn crate_folders() -> Vec<PathBuf> {
    let dir = root().join("src-tauri");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.is_dir() && !p.ends_with(VENDOR))
        .collect();
    folders.sort();
    folders
}

#[test]
fn every_crate_says_what_it_owns() {
    let folders = crate_folders();
    assert!(
        folders.len() >= 6,
        "src-tauri/ holds {} folders",
        folders.len()
    );
    for folder in folders {
        let readme = folder.join("README.md");
        let text = std::fs::read_to_string(&readme)
            .unwrap_or_else(|e| panic!("{}: {e}; every crate has a README", readme.display()));
        for part in ["## What it owns", "## Imports", "## Invariants", "## Tests"] {
            assert!(
                text.contains(part),
                "{} has no \"{part}\" section",
                readme.display()
            );
        }
    }
}

fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut pages = vec![
        root.join("README.md"),
        root.join("ui/API.md"),
        root.join("fuzz/README.md"),
        root.join("src-tauri/vendor/README.md"),
        root.join("src-tauri/vendor/jieba-rs/PATCHES.md"),
    ];
    pages.extend(crate_folders().into_iter().map(|c| c.join("README.md")));
    for dir in ["docs", "tests/fixtures", "assets"] {
        let mut stack = vec![root.join(dir)];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
                let path = entry.expect("a folder entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "md") {
                    pages.push(path);
                }
            }
        }
    }
    pages
}

fn broken_links(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).expect("a page");
    let mut broken = Vec::new();
    for link in links(&text) {
        if link.starts_with("http://")
            || link.starts_with("https://")
            || link.starts_with("mailto:")
        {
            continue;
        }
        let (file, fragment) = link.split_once('#').unwrap_or((&link, ""));
        let target = if file.is_empty() {
            page.to_path_buf()
        } else {
            page.parent().expect("a folder").join(file)
        };
        if !target.exists() {
            broken.push(format!("{link}: no such file"));
            continue;
        }
        if !fragment.is_empty() && target.extension().is_some_and(|e| e == "md") {
            let heading = std::fs::read_to_string(&target).expect("a linked page");
            if !anchors(&heading).iter().any(|a| a == fragment) {
                broken.push(format!("{link}: no such heading"));
            }
        }
    }
    broken
}

#[test]
fn the_readme_is_short_and_every_link_resolves() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 150,
        "README.md has {lines} lines; move detail into docs/"
    );
    let pages = pages();
    assert!(pages.len() > 10, "{pages:?}");
    let broken: Vec<String> = pages
        .iter()
        .flat_map(|p| {
            broken_links(p)
                .into_iter()
                .map(move |b| format!("{}: {b}", p.display()))
        })
        .collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn links_and_anchors_are_read_as_github_does() {
    assert_eq!(
        anchor(" Copies by translation (Chinese ↔ English)"),
        "copies-by-translation-chinese--english"
    );
    assert_eq!(anchor("The `tongwen` command"), "the-tongwen-command");
    assert_eq!(
        links("see [a](b.md#c) and ![x](y.png), not (z)"),
        ["b.md#c", "y.png"]
    );
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("page.md");
    std::fs::write(
        &page,
        "# Title\n\n[ok](#title) [bad](#nothing) [gone](missing.md)\n",
    )
    .expect("write");
    assert_eq!(
        broken_links(&page),
        ["#nothing: no such heading", "missing.md: no such file"]
    );
}

/// Product code in files a reader can hold in mind: none over 1,000 lines (tests aside).
#[test]
fn no_product_file_is_over_a_thousand_lines() {
    let mut stack = vec![root().join("src-tauri"), root().join("ui")];
    let (mut read, mut long) = (0, Vec::new());
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a folder entry").path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            if path.is_dir() {
                if name.as_deref() != Some("tests") && path != root().join("src-tauri").join(VENDOR)
                {
                    stack.push(path);
                }
                continue;
            }
            let product = path
                .extension()
                .is_some_and(|e| ["rs", "js", "mjs", "css", "html"].iter().any(|x| e == *x));
            if !product || name.as_deref() == Some("tests.rs") {
                continue;
            }
            read += 1;
            let lines = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .lines()
                .count();
            if lines > 1000 {
                long.push(format!("{} ({lines} lines)", path.display()));
            }
        }
    }
    assert!(read > 100, "only {read} product files found");
    assert!(long.is_empty(), "split these files:\n{}", long.join("\n"));
}

/// The command-line reference is the command's own definition, as `tongwen reference` prints it.
#[test]
fn the_cli_reference_is_the_commands_definition() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tongwen"))
        .arg("reference")
        .output()
        .expect("run tongwen reference");
    assert!(out.status.success());
    let generated = String::from_utf8(out.stdout).expect("UTF-8");
    let kept = std::fs::read_to_string(root().join("docs/cli.md")).expect("docs/cli.md");
    assert!(
        generated == kept,
        "docs/cli.md is out of date: run `cargo run -p tongwen-cli -- reference > docs/cli.md`"
    );
    for part in [
        "## `tongwen check`",
        "`--threshold <THRESHOLD>`",
        "## `tongwen compare`",
    ] {
        assert!(kept.contains(part), "{part} in docs/cli.md");
    }
}
